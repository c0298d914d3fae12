//! Check kinds. A theorem file names its kind; the kind reads the file's `[claim]` table and
//! runs the check. Adding a kind (e.g. a flow check on graphs) takes one file in this folder and
//! one line in [`KINDS`].

use super::schema::{FileError, Theorem};
use super::verdict::Verdict;
use crate::error::Result;
use crate::search::{GrowthFit, StateSource};
use std::path::PathBuf;
use std::time::Instant;

pub mod condition;
pub mod graph;
pub mod graph_expr;
pub mod inequality;
pub mod multidim;
pub mod multidim_expr;
pub mod real;
pub mod statistical;
pub mod two_point;

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

/// The tightest value of a constant at one n.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Tightest {
    /// The number of bins.
    pub n: usize,
    /// The tightest value for which the claim survives the search (shown to hold).
    pub value: f64,
    /// The nearest value shown to fail (a `refuted` verdict), bracketing the tightest value with
    /// `value`; `None` when no failing value was found.
    pub fails: Option<f64>,
    /// The trust level of the verdict at `value`.
    pub trust_holds: Option<super::verdict::Trust>,
    /// The trust level of the refutation at `fails`.
    pub trust_fails: Option<super::verdict::Trust>,
    /// Whether `fails` is a value where the claim was not shown to hold (an `inconclusive`
    /// verdict: a claim over a range of a constant kept only where proved over the whole range)
    /// rather than refuted.
    pub fails_unproved: bool,
    /// The state that pins it (smallest slack at that value).
    pub witness: Option<super::verdict::Witness>,
}

/// The tightest value of a constant at one size `n` by bisection between two values of its grid,
/// `lo0 < hi0`, deciding each candidate with `holds` (whether the claim holds there, and the trust
/// of that decision). `Smallest`: the claim holds for large values, so `hi0` is the good end;
/// `Largest`: `lo0` is. The bracket is halved until it is at most 10⁻⁶ of `hi0 − lo0` wide (20
/// halvings). When the good end already fails, that value is reported as failing; when the bad end
/// holds, as holding (the grid does not bracket the tightest value).
pub(crate) fn bisect_constant(
    n: usize,
    lo0: &crate::exact::Q,
    hi0: &crate::exact::Q,
    direction: super::schema::Direction,
    ctx: &mut RunContext,
    mut holds: impl FnMut(&crate::exact::Q, &mut RunContext) -> Result<(bool, super::verdict::Trust)>,
) -> Result<Tightest> {
    use crate::exact::{Q, to_f64};
    use num_traits::Signed;
    let good_is_hi = matches!(direction, super::schema::Direction::Smallest);
    let (mut good, mut bad) = if good_is_hi {
        (hi0.clone(), lo0.clone())
    } else {
        (lo0.clone(), hi0.clone())
    };
    let (ok, mut trust_good) = holds(&good, ctx)?;
    if !ok {
        return Ok(Tightest {
            n,
            value: to_f64(&good),
            fails: Some(to_f64(&good)),
            trust_holds: None,
            trust_fails: Some(trust_good),
            fails_unproved: false,
            witness: None,
        });
    }
    let (b_ok, mut trust_bad) = holds(&bad, ctx)?;
    if b_ok {
        return Ok(Tightest {
            n,
            value: to_f64(&bad),
            fails: None,
            trust_holds: Some(trust_bad),
            trust_fails: None,
            fails_unproved: false,
            witness: None,
        });
    }
    let width = (hi0 - lo0) * Q::new(1.into(), 1_000_000.into());
    while (&good - &bad).abs() > width {
        let mid = (&good + &bad) / Q::from_integer(2.into());
        let (ok, tr) = holds(&mid, ctx)?;
        if ok {
            good = mid;
            trust_good = tr;
        } else {
            bad = mid;
            trust_bad = tr;
        }
    }
    Ok(Tightest {
        n,
        value: to_f64(&good),
        fails: Some(to_f64(&bad)),
        trust_holds: Some(trust_good),
        trust_fails: Some(trust_bad),
        fails_unproved: false,
        witness: None,
    })
}

/// The constant finder's result.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ConstantReport {
    /// The theorem id.
    pub id: String,
    /// The constant.
    pub name: String,
    /// The direction.
    pub direction: super::schema::Direction,
    /// Per n.
    pub per_n: Vec<Tightest>,
    /// Growth fits, best first.
    pub fits: Vec<GrowthFit>,
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
