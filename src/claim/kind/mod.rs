//! Check kinds. A theorem file names its kind; the kind reads the file's `[claim]` table and
//! runs the check. Adding a kind (e.g. a flow check on graphs) takes one file in this folder and
//! one line in [`KINDS`].

use super::schema::{FileError, Theorem};
use super::verdict::Verdict;
use crate::error::Result;
use crate::search::StateSource;
use std::path::PathBuf;
use std::time::Instant;

pub mod condition;
pub(crate) mod graph;
pub(crate) mod graph_expr;
pub(crate) mod graph_loads;
pub mod inequality;
pub(crate) mod multidim;
pub mod multidim_expr;
pub mod real;
pub mod statistical;
pub(crate) mod two_point;

pub use super::tighten::{ConstantReport, Tightest};

/// How much effort a run spends and where it writes proptest regression files.
pub struct RunContext<'a> {
    /// A multiplier of the file's random and optimiser budgets (1 = the file's values; the long
    /// test tier uses 10).
    pub effort: u32,
    /// Keep searching with fresh seeds until this instant (`balloc search --budget`).
    pub deadline: Option<Instant>,
    /// The directory of proptest regression files (`None`: no persistence).
    pub regressions: Option<PathBuf>,
    /// Extra states (simulated trajectories).
    pub states: Option<&'a mut dyn StateSource>,
    /// Called with a short message after each case (progress display).
    pub progress: Option<&'a dyn Fn(&str)>,
    /// Where kinds that produce proof certificates (`real`) write them (`None`: not written).
    pub certificates: Option<PathBuf>,
}

impl Default for RunContext<'_> {
    fn default() -> Self {
        RunContext {
            effort: 1,
            deadline: None,
            regressions: None,
            states: None,
            progress: None,
            certificates: None,
        }
    }
}

/// Checks the search budget of one case of `d` at `effort` against
/// [`crate::limits::SEARCH_STATES`] and the effort against [`crate::limits::CHECK_EFFORT`],
/// before the search starts: `(random + optimise·starts)·effort`.
///
/// ```
/// use balloc::claim::schema::Domain;
/// use balloc::claim::kind::check_search_budget;
/// let d: Domain = toml::from_str("n = [4]\nrandom = 1000\noptimise = 100\nstarts = 4").unwrap();
/// assert!(check_search_budget(&d, 10).is_ok()); // (1000 + 400)·10 = 14 000 states
/// let e = check_search_budget(&d, 100_000).unwrap_err().to_string();
/// assert!(e.contains("effort") && e.contains("CHECK_EFFORT"), "{e}");
/// assert!(check_search_budget(&d, 1000).is_ok()); // 1.4·10⁶ ≤ 10⁸
/// let big: Domain = toml::from_str("n = [4]\nrandom = 1000000").unwrap();
/// let e = check_search_budget(&big, 1000).unwrap_err().to_string(); // 10⁹ > 10⁸
/// assert!(e.contains("SEARCH_STATES") && e.contains("1000000000"), "{e}");
/// ```
pub fn check_search_budget(d: &super::schema::Domain, effort: u32) -> crate::error::Result<()> {
    crate::limits::CHECK_EFFORT.check("effort", u64::from(effort))?;
    let per_case = u128::from(d.random) + u128::from(d.optimise) * d.starts as u128;
    crate::limits::SEARCH_STATES
        .check_u128(
            "[domain] (random + optimise × starts) × effort",
            per_case * u128::from(effort.max(1)),
        )
        .map(|_| ())
}

/// A built check.
pub trait Check: Send + Sync {
    /// Runs the check.
    fn run(&self, ctx: &mut RunContext) -> Result<Verdict>;

    /// The tightest value of constant `name` per n (the kinds that support it).
    fn tighten(
        &self,
        name: &str,
        ns: Option<&[usize]>,
        ctx: &mut RunContext,
    ) -> Result<ConstantReport> {
        let _ = (ns, ctx);
        Err(crate::Error::Unsupported(format!(
            "this kind of check has no constant finder (constant `{name}`)"
        )))
    }

    /// The verdict as written and, from the same work, the verdict with each set of constants
    /// replaced (`alternatives`: name and value per set). A statistical mean or probability claim
    /// simulates its runs once and judges them once per set — its threshold, not its runs, reads
    /// the constants (a constant the runs read is a one-line error naming the field); other kinds
    /// do not offer it.
    ///
    /// ```
    /// // One ball into 4 bins: the gap is 1 − 1/4 = 3/4 in every run. E[gap] ≤ K holds at K = 1
    /// // and is refuted at K = 1/2, both judged on the same 5 runs.
    /// let dir = std::env::temp_dir().join("balloc-doc-run-alternatives");
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let path = dir.join("one-ball.toml");
    /// std::fs::write(&path, r#"
    /// title = "one ball"
    /// kind = "statistical"
    /// expected = "holds"
    /// statement = 'E[gap] \le K'
    /// source = { locator = "worked example", provenance = "derived" }
    /// [setting]
    /// processes = ["two-choice"]
    /// [constants]
    /// K = 1
    /// [claim]
    /// statistic = "final_gap"
    /// mean = "<= K"
    /// balls = 1
    /// runs = 5
    /// confidence = 0.95
    /// [domain]
    /// n = [4]
    /// "#).unwrap();
    /// // A draft outside the theorem directory needs no paper record.
    /// let (_, c) = balloc::claim::prepare(&path, &dir.join("theorems")).unwrap();
    /// let alt = vec![vec![("K".to_string(), 0.5)]];
    /// let (as_written, other) = c
    ///     .run_alternatives(&mut balloc::claim::RunContext::default(), &alt)
    ///     .unwrap();
    /// assert_eq!(as_written.verdict, balloc::claim::Status::Holds);
    /// assert_eq!(as_written.slack, Some(0.25)); // 1 − 3/4
    /// assert_eq!(other[0].verdict, balloc::claim::Status::Refuted);
    /// ```
    fn run_alternatives(
        &self,
        ctx: &mut RunContext,
        alternatives: &[Vec<(String, f64)>],
    ) -> Result<(Verdict, Vec<Verdict>)> {
        let _ = (ctx, alternatives);
        Err(crate::Error::Unsupported(
            "this kind of check does not judge other constants on the same work".into(),
        ))
    }
}

/// A registered kind.
pub struct KindInfo {
    /// The name used in `kind = "..."`.
    pub name: &'static str,
    /// What it checks.
    pub summary: &'static str,
    /// Builds the check from a loaded file (validating the `[claim]` table).
    pub build: fn(&Theorem) -> std::result::Result<Box<dyn Check>, FileError>,
}

/// Every registered kind.
pub static KINDS: &[&KindInfo] = &[
    &inequality::INFO,
    &condition::INFO,
    &multidim::INFO,
    &graph::INFO,
    &statistical::INFO,
    &real::INFO,
];

/// `forall_bins` (a formula at every bin) where the states have no bins: kinds `real` (points of
/// boxes of reals), `statistical` (simulated runs, judged by statistics), `condition` (a
/// process's allocation vector) and `graph` with `over = "two-point"` (the two-point process).
/// The kinds with bins read it: `inequality` (load vectors), `multidim` (md states), `graph`
/// (its vertices, `over = "vertices"`).
fn reject_forall_bins_without_bins(t: &Theorem) -> std::result::Result<(), FileError> {
    #[derive(serde::Deserialize)]
    struct Doc {
        claim: Option<Claim>,
    }
    #[derive(serde::Deserialize)]
    struct Claim {
        forall_bins: Option<toml::Spanned<toml::Value>>,
        over: Option<toml::Value>,
    }
    let Ok(Doc {
        claim: Some(Claim {
            forall_bins: Some(f),
            over,
        }),
    }) = toml::from_str::<Doc>(&t.text)
    else {
        return Ok(());
    };
    let why = match t.file.kind.get_ref().as_str() {
        "real" => "kind `real` decides a formula over boxes of reals, whose points have no bins",
        "statistical" => {
            "kind `statistical` judges statistics of simulated runs, not a formula at a state's bins"
        }
        "condition" => {
            "kind `condition` checks a process's allocation vector against C1 and C2, not a formula at a state's bins"
        }
        "graph" if over.as_ref().and_then(|v| v.as_str()) == Some("two-point") => {
            "the two-point process (`over = \"two-point\"`) has no bins"
        }
        _ => return Ok(()),
    };
    Err(t.error_at(
        Some(f.span().start),
        format!("[claim] forall_bins: {why}; write the claim in `expr`"),
    ))
}

/// Builds the check of a theorem file by its kind.
pub fn build(t: &Theorem) -> std::result::Result<Box<dyn Check>, FileError> {
    let name = t.file.kind.get_ref();
    if name != real::INFO.name
        && let Some(v) = t.file.vars.values().next()
    {
        return Err(t.error_at(
            Some(v.span().start),
            format!("[vars] is read only by kind `real`, not by `{name}`"),
        ));
    }
    if name != multidim::INFO.name {
        crate::claim::setup::reject_md_states(t)?;
    }
    reject_forall_bins_without_bins(t)?;
    match KINDS.iter().find(|k| k.name == name) {
        Some(k) => (k.build)(t),
        None if name == "lower-bound" => Err(t.error_at(
            Some(t.file.kind.span().start),
            "the kind `lower-bound` is retired: write the claim with kind = \"inequality\" from the \
             load vector of the construction, e.g. `[domain] states = [[0, 0, 0]]` with `ties`, \
             `batch` and `expr = \"sum((rank == n) * (w - b/n)) == b*(n - 1)/n^2\"` (the excess of \
             the last bin after one batch); laws after k batches are `P{k}(gap' == v)` \
             (batched-2022/lower-bound-*.toml)",
        )),
        None => {
            let names: Vec<&str> = KINDS.iter().map(|k| k.name).collect();
            Err(t.error_at(
                Some(t.file.kind.span().start),
                format!("unknown kind `{name}`; accepted: {}", names.join(", ")),
            ))
        }
    }
}
