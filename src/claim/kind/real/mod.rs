//! The kind `real`: a claim over a few real variables on a box, **proved** by certified branch
//! and bound ([`crate::prover`]), **refuted** by a certified point, or honestly
//! **inconclusive** when the budget runs out.
//!
//! ```toml
//! kind = "real"
//! expected = "proved"
//!
//! [constants]
//! C = 2
//!
//! [vars]
//! alpha = "(0, 1]"                                      # open or closed ends, exact numbers or constant expressions
//! t = ["0", "1"]                                        # the closed interval [0, 1]
//! n = { range = "[8, inf)", substitute = "u = 1/n" }    # an unbounded range through u = 1/n ∈ (0, 1/8]
//!
//! [claim]
//! let = { p = "C*t/n" }                                  # derived names (dependent ranges: p ∈ [0, C/n])
//! given = ["alpha <= 1"]                                 # hypotheses
//! expr = "1 + p*(exp(alpha) - 1) <= exp(alpha*p + alpha^2*p)"
//! touching = [{ alpha = "0", t = "0", n = "8" }]         # points where the claim is tight (optional)
//! max_boxes = 200000                                     # budget (box evaluations), at most 10⁷
//! max_seconds = 60                                       # time budget, at most 3600
//! ```
//!
//! A claim can be **derived from lemmas** ([`crate::prover::lemma`]): terms bounded by other
//! `real` files, then a reduced claim that must be identical to what is left.
//!
//! ```toml
//! [claim]
//! expr = "2*sinh(x/2) - x <= x^3*cosh(x/2)/24"
//! reduced = "0 <= 0"                                     # optional: the claim with its bounds applied
//!
//! [[claim.bound]]
//! term = "sinh(x/2)"
//! by = "x/2 + (x/2)^3*cosh(x/2)/6"
//! lemma = "real-sinh-le-x-plus-cubic"                    # a `real` file of this folder, or `paper/name`
//! at = { x = "x/2" }                                     # the lemma's variables
//! ```
//!
//! After a substitution `u = 1/n` both names may be used; `n` is replaced by `1/u` and
//! `a/(1/u)` simplified to `a·u`, so that `alpha/n` stays bounded as `u → 0`. Every grid
//! combination of the constants is a separate proof. The verdict is `proved` when every
//! combination is proved and each certificate passes the independent checker at
//! [`CHECK_PREC`] bits; `refuted` when one has a certified counterexample; otherwise
//! `inconclusive`, with the boxes left. With `RunContext::certificates` set, each certificate
//! is written to `<dir>/<id>.json` (`<id>.<k>.json` for grid combination `k`).

mod case;
mod substitute;
mod vars;
mod verdict;

use super::{Check, ConstantReport, KindInfo, RunContext};
use crate::claim::schema::{FileError, Theorem};
use crate::claim::setup::Constants;
use crate::claim::tighten::{Finder, Trial};
use crate::claim::verdict::{Searched, Status, Trust, Verdict};
use crate::error::{Error, Result};
use crate::exact::Q;
use crate::prover::{self, Options, Problem};
use std::collections::BTreeMap;
use toml::Spanned;
use vars::{VarSpec, parse_var};

/// The registry entry.
pub static INFO: KindInfo = KindInfo {
    name: "real",
    summary: "a claim over a few real variables on a box, proved by certified branch and bound (interval arithmetic, interval derivatives), with a certificate and an independent checker",
    build,
};

/// The largest box budget a file may ask for.
pub const MAX_BOXES: u64 = 10_000_000;
/// The largest time budget a file may ask for (seconds).
pub const MAX_SECONDS: f64 = 3600.0;
/// The most variables a claim may have.
pub const MAX_VARS: usize = 8;
/// The precision (bits) at which the independent checker re-evaluates a certificate.
pub const CHECK_PREC: u64 = 128;

/// The `[claim]` table of a `real` file.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimSection {
    expr: Spanned<String>,
    #[serde(default)]
    given: Vec<Spanned<String>>,
    #[serde(default, rename = "let")]
    lets: BTreeMap<String, Spanned<String>>,
    #[serde(default)]
    touching: Vec<Spanned<BTreeMap<String, Spanned<toml::Value>>>>,
    #[serde(default)]
    max_boxes: Option<Spanned<i64>>,
    #[serde(default)]
    max_seconds: Option<Spanned<f64>>,
    #[serde(default)]
    bound: Vec<Spanned<BoundSection>>,
    #[serde(default)]
    reduced: Option<Spanned<String>>,
}

/// A `[[claim.bound]]` table: a term of the claim bounded by a proved lemma
/// ([`crate::prover::lemma`]).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct BoundSection {
    term: Spanned<String>,
    by: Spanned<String>,
    lemma: Spanned<String>,
    #[serde(default)]
    at: BTreeMap<String, Spanned<String>>,
}

/// A built `real` check.
pub struct Real {
    t: Theorem,
    constants: Constants,
    vars: Vec<VarSpec>,
    claim: ClaimSection,
    options: Options,
    /// Per `[[claim.bound]]`, the lemma's id and claim.
    lemmas: Vec<(String, Problem)>,
}

/// An error at byte `at` of the file.
fn err(t: &Theorem, at: usize, msg: impl Into<String>) -> FileError {
    t.error_at(Some(at), msg.into())
}

/// The search limits of a file of kind `real`: [`Options::default`] with its `max_boxes` and
/// `max_seconds` (checked against their bounds).
fn search_options_of(t: &Theorem, claim: &ClaimSection) -> std::result::Result<Options, FileError> {
    let mut options = Options::default();
    if let Some(b) = &claim.max_boxes {
        let v = *b.get_ref();
        if v < 1 || v as u64 > MAX_BOXES {
            return Err(err(
                t,
                b.span().start,
                format!("max_boxes = {v} is outside 1..={MAX_BOXES}"),
            ));
        }
        options.max_boxes = v as u64;
    }
    if let Some(s) = &claim.max_seconds {
        let v = *s.get_ref();
        if !(v > 0.0 && v <= MAX_SECONDS) {
            return Err(err(
                t,
                s.span().start,
                format!("max_seconds = {v} is outside (0, {MAX_SECONDS}]"),
            ));
        }
        options.max_seconds = v;
    }
    Ok(options)
}

/// The search limits a file of kind `real` sets (`max_boxes`, `max_seconds`; the defaults
/// otherwise), e.g. for running [`crate::prover::prove`] on its [`problems`] as `balloc check`
/// does.
///
/// ```
/// let t = balloc::claim::load(
///     std::path::Path::new("theorems/ptw/real-ln-one-plus-x.toml"),
///     std::path::Path::new("theorems"),
/// )
/// .unwrap();
/// let o = balloc::claim::kind::real::search_options(&t).unwrap();
/// assert!(o.max_boxes >= 1 && o.fast);
/// ```
pub fn search_options(t: &Theorem) -> std::result::Result<Options, FileError> {
    let claim: Spanned<ClaimSection> = t.claim_section()?;
    search_options_of(t, claim.get_ref())
}

fn build(t: &Theorem) -> std::result::Result<Box<dyn Check>, FileError> {
    Ok(Box::new(real_of(t)?))
}

/// The check of a `real` file, validated (every case compiled, every lemma loaded).
fn real_of(t: &Theorem) -> std::result::Result<Real, FileError> {
    let c: Spanned<ClaimSection> = t.claim_section()?;
    let claim = c.into_inner();
    let f = &t.file;
    if f.domain.span() != (0..0) {
        return Err(err(
            t,
            f.domain.span().start,
            "kind `real` has no [domain]: its variables and their ranges are in [vars]",
        ));
    }
    if let Some(p) = f.setting.processes.first() {
        return Err(err(
            t,
            p.span().start,
            "kind `real` takes no processes: its claim is over the real variables of [vars]",
        ));
    }
    if f.vars.is_empty() {
        return Err(t.error_at(
            None,
            "kind `real` needs [vars]: e.g. x = \"[-5, 5]\" (open ends with ( ), unbounded ranges with a substitution)",
        ));
    }
    if f.vars.len() > MAX_VARS {
        let at = f.vars.values().next().map(|v| v.span().start);
        return Err(t.error_at(
            at,
            format!(
                "{} variables; the limit is {MAX_VARS} (the number of boxes grows exponentially with it)",
                f.vars.len()
            ),
        ));
    }
    let constants = Constants::parse(t)?;
    for (j, g) in constants.defs.iter().enumerate() {
        for d in g {
            if d.expr.uses().slots.iter().any(|&s| s < 2) {
                return Err(err(
                    t,
                    constants.at[j],
                    format!(
                        "constant `{}` reads n or b; a real claim has no bins (declare n in [vars])",
                        constants.names[j]
                    ),
                ));
            }
        }
    }
    let mut vars = Vec::new();
    for (name, v) in &f.vars {
        let spec = parse_var(t, name, v)?;
        if crate::lang::expr::is_function_name(name, false) {
            return Err(err(
                t,
                v.span().start,
                format!(
                    "variable `{name}` is named like a function of the language (`{name}(...)`); choose another name"
                ),
            ));
        }
        if constants.index(name).is_some() {
            return Err(err(
                t,
                v.span().start,
                format!("`{name}` is both a constant and a variable"),
            ));
        }
        vars.push(spec);
    }
    let options = search_options_of(t, &claim)?;
    let lemmas = claim
        .bound
        .iter()
        .map(|b| lemma_of(t, b.get_ref()))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    let me = Real {
        t: t.clone(),
        constants,
        vars,
        claim,
        options,
        lemmas,
    };
    // Validate every case now (ranges, names, expressions), so that errors come before any search.
    for pick in me.constants.picks() {
        me.problem(&pick, &[])?;
    }
    for name in t.file.tighten.keys() {
        if me.constants.index(name).is_none() {
            return Err(t.error_at(
                None,
                format!("[tighten] names `{name}`, which is not a constant"),
            ));
        }
    }
    Ok(me)
}

/// The lemma of a bound: its file (`paper/name`, or `name` in the folder of `t`), which must be a
/// `real` file with one case and no bounds of its own; its id and claim (with its hypotheses,
/// which the derivation proves where the lemma is applied).
fn lemma_of(t: &Theorem, b: &BoundSection) -> std::result::Result<(String, Problem), FileError> {
    let at = b.lemma.span().start;
    let name = b.lemma.get_ref().trim().trim_end_matches(".toml");
    let depth = t.id.matches('/').count() + 1;
    let mut root = t.path.clone();
    for _ in 0..depth {
        root.pop();
    }
    let folder = t
        .path
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    let path = if name.contains('/') {
        root.join(format!("{name}.toml"))
    } else {
        folder.join(format!("{name}.toml"))
    };
    if name.is_empty() || name.contains("..") || !path.is_file() {
        return Err(err(
            t,
            at,
            format!("lemma `{name}`: no theorem file {}", path.display()),
        ));
    }
    let lt =
        crate::claim::load(&path, &root).map_err(|e| err(t, at, format!("lemma `{name}`: {e}")))?;
    if lt.file.kind.get_ref() != INFO.name {
        return Err(err(
            t,
            at,
            format!("lemma `{}` is not of kind `real`", lt.id),
        ));
    }
    if lt.id == t.id {
        return Err(err(t, at, "a claim cannot be its own lemma"));
    }
    let l = real_of(&lt).map_err(|e| err(t, at, format!("lemma `{}`: {e}", lt.id)))?;
    let picks = l.constants.picks();
    let refuse = |why: &str| err(t, at, format!("lemma `{}` {why}", lt.id));
    if picks.len() != 1 {
        return Err(refuse(
            "has several cases (a grid of constants); a lemma has one",
        ));
    }
    if !l.claim.bound.is_empty() || l.claim.reduced.is_some() {
        return Err(refuse(
            "is derived from lemmas itself; a lemma is proved directly",
        ));
    }
    let case = l
        .problem(&picks[0], &[])
        .map_err(|e| err(t, at, format!("lemma `{}`: {e}", lt.id)))?;
    Ok((lt.id.clone(), case.problem))
}

impl Real {
    fn file_err(&self, e: FileError) -> Error {
        Error::invalid(self.t.file_name(), e.to_string())
    }

    /// Where the certificate of case `k` of `cases` is written under `dir`.
    fn certificate_path(
        &self,
        dir: &std::path::Path,
        k: usize,
        cases: usize,
    ) -> std::path::PathBuf {
        if cases == 1 {
            dir.join(format!("{}.json", self.t.id))
        } else {
            dir.join(format!("{}.{k}.json", self.t.id))
        }
    }

    /// Proves every combination (with `overrides`); the verdict and, per case, the certificate.
    fn prove_all(&self, ctx: &mut RunContext, overrides: &[(usize, Q)]) -> Result<Verdict> {
        let mut picks = self.constants.picks();
        for (j, _) in overrides {
            picks.retain(|p| p[*j] == 0);
        }
        let ncases = picks.len();
        let mut searched = Searched {
            constant_combinations: ncases,
            precision_bits: Some(self.options.prec),
            ..Searched::default()
        };
        let mut notes = Vec::new();
        let mut worst: Option<(u8, Verdict)> = None;
        for (k, pick) in picks.iter().enumerate() {
            let case = self
                .problem(pick, overrides)
                .map_err(|e| self.file_err(e))?;
            if let Some(pr) = ctx.progress {
                pr(&format!("{} case {}/{ncases}", self.t.id, k + 1));
            }
            let (rank, v) = self.prove_case(&case, k, ncases, ctx, &mut notes)?;
            searched.merge(&v.searched);
            if worst.as_ref().is_none_or(|(r, _)| rank < *r) {
                worst = Some((rank, v));
            }
            if rank == 0 {
                // A certified counterexample settles the file.
                break;
            }
        }
        let (_, mut v) = worst.ok_or_else(|| Error::Unsupported("no case to prove".into()))?;
        v.searched = searched;
        v.notes.splice(0..0, notes);
        Ok(v)
    }
}

impl Real {
    /// One case: through its lemmas when the file derives it (and directly when a step of the
    /// derivation is not proved, so that a false claim can still be refuted), else directly.
    fn prove_case(
        &self,
        case: &case::Case,
        k: usize,
        ncases: usize,
        ctx: &mut RunContext,
        notes: &mut Vec<String>,
    ) -> Result<(u8, Verdict)> {
        if let Some(d) = &case.derivation {
            let label = case.label(k, ncases);
            let id = &self.t.id;
            match prover::lemma::prove_derived(&case.problem, d, &self.options, id, case.constants.clone()) {
                Ok((cert, stats)) => {
                    let v = self.derived_proved(case, &cert, &stats, &label, (k, ncases), ctx, notes)?;
                    return Ok((2, v));
                }
                Err(why) => notes.push(format!(
                    "the derivation from lemmas did not finish ({why}); the claim was searched directly"
                )),
            }
        }
        let out = prover::prove(&case.problem, &self.options);
        self.verdict_of(case, out, k, ncases, ctx, notes)
    }
}

/// The problem of every grid combination of the constants of a `real` theorem file, with the
/// path of its certificate under `dir` (for re-checking written certificates).
///
/// ```
/// let t = balloc::claim::load(
///     std::path::Path::new("theorems/ptw/real-ln-one-plus-x.toml"),
///     std::path::Path::new("theorems"),
/// ).unwrap();
/// let cases = balloc::claim::kind::real::problems(&t, std::path::Path::new("certs")).unwrap();
/// assert_eq!(cases.len(), 1);
/// assert_eq!(cases[0].0.claim.vars[0].name, "x");
/// assert_eq!(cases[0].1, std::path::Path::new("certs/ptw/real-ln-one-plus-x.json"));
/// ```
pub fn problems(
    t: &Theorem,
    dir: &std::path::Path,
) -> std::result::Result<Vec<(Stated, std::path::PathBuf)>, FileError> {
    if t.file.kind.get_ref() != INFO.name {
        return Err(t.error_at(None, format!("not of kind `{}`", INFO.name)));
    }
    let me = real_of(t)?;
    let picks = me.constants.picks();
    let n = picks.len();
    picks
        .iter()
        .enumerate()
        .map(|(k, pick)| {
            let case = me.problem(pick, &[])?;
            Ok((
                Stated {
                    claim: case.problem,
                    derivation: case.derivation,
                },
                me.certificate_path(dir, k, n),
            ))
        })
        .collect()
}

/// One case of a `real` file as the checker needs it: the claim, and how it is derived from
/// lemmas when the file says so.
#[derive(Debug, Clone)]
pub struct Stated {
    /// The claim.
    pub claim: Problem,
    /// Its bounds by lemmas and the reduced claim (`[[claim.bound]]`, `reduced`).
    pub derivation: Option<prover::lemma::Derivation>,
}

impl Stated {
    /// The claim the proof tree decides: the reduced claim of a derived case, else the claim
    /// (what the prover's bisection searches, e.g. for benchmarks).
    pub fn decided(&self) -> &Problem {
        match &self.derivation {
            Some(d) => &d.reduced,
            None => &self.claim,
        }
    }

    /// Checks a certificate of this case with the independent checker: a certificate that
    /// applies lemmas with [`prover::checker::verify_derived`] against this case's derivation
    /// (built from the files), any other with [`prover::checker::verify`] against the claim (a
    /// derived claim whose derivation did not finish may have been proved directly).
    pub fn verify(
        &self,
        cert: &prover::Certificate,
        prec: u64,
    ) -> std::result::Result<prover::checker::Verified, String> {
        let applies_lemmas = !cert.lemmas.is_empty() || cert.reduced.is_some();
        match (&self.derivation, applies_lemmas) {
            (Some(d), true) => prover::checker::verify_derived(&self.claim, d, cert, prec),
            (None, true) => Err("the certificate applies lemmas, the theorem file none".into()),
            (_, false) => prover::checker::verify(&self.claim, cert, prec),
        }
    }
}

impl Check for Real {
    fn run(&self, ctx: &mut RunContext) -> Result<Verdict> {
        self.prove_all(ctx, &[])
    }

    fn tighten(
        &self,
        name: &str,
        ns: Option<&[usize]>,
        ctx: &mut RunContext,
    ) -> Result<ConstantReport> {
        let c = &self.constants;
        let finder = Finder::new(&self.t, name, &c.names)?;
        let idx = finder.index;
        if ns.is_some() {
            return Err(Error::invalid(
                "--n",
                "a real claim has no numbers of bins (n is a variable if anything)",
            ));
        }
        let start = self
            .constants
            .evaluate(&self.t, 2, Some(1), &vec![0; c.names.len()], &[])
            .map_err(|e| self.file_err(e))?[idx]
            .float
            .v
            .to_f64();
        // A value is kept where the claim is proved; the witness is the certified counterexample
        // just past the tightest value.
        let t = finder.starting_at(0, start, 1e-4, |q| {
            match self.prove_all(ctx, &[(idx, q.clone())]) {
                Ok(v) => {
                    let kept = v.verdict == Status::Proved;
                    Ok(Trial::of(v, kept))
                }
                // A value outside what the file allows (e.g. an empty range) is not shown to
                // hold.
                Err(Error::Invalid { .. }) => Ok(Trial {
                    kept: false,
                    status: Status::Inconclusive,
                    trust: Trust::Exact,
                    witness: None,
                }),
                Err(e) => Err(e),
            }
        })?;
        Ok(finder.report(vec![t]))
    }
}
