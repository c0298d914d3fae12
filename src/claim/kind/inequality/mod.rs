//! The kind `inequality`: a formula of the claim language — comparisons of expressions over the
//! named quantities ([`crate::claim::quantity`]) combined with `&&`, `||`, `!` — for every n of
//! the domain, every process (or every allocation vector meeting C1(δ, ε) and C2(C)), every
//! combination of the constants' grids and batch sizes, and every load vector the search visits.
//!
//! `[claim]` table (exactly one of `expr`, `chain`, `forall_bins`):
//!
//! * `expr = "<formula>"`;
//! * `chain = ["A", "<= B", "<= C", ...]`: the links `A <= B`, `B <= C`, … of a proof's chain of
//!   inequalities, each checked on its own; the report names the first link that fails, with its
//!   counterexample;
//! * `forall_bins = "<formula in y, x, p, w, rank, i>"`: the formula at every bin;
//! * `given = ["<formula>", ...]`: hypotheses selecting the states the claim is about.
//!
//! The claim is compiled once ([`Inequality::new`]), searched in floats (`run`) and certified
//! at flagged and tightest states in exact rationals, exponential sums or enclosures
//! (`certify`); the verdict follows the trust policy ([`crate::claim::trust`]).

mod certify;
pub(crate) mod run;
mod screen;
pub mod vectors;

use super::{Check, ConstantReport, KindInfo, RunContext};
use crate::claim::case::{Alloc, Case, Tables};
use crate::claim::quantity::{PotDef, Quantity};
use crate::claim::schema::{FileError, Theorem};
use crate::claim::scope::ClaimScope;
use crate::claim::setup::{Setup, error_in_string};
use crate::claim::tighten::{Finder, Trial};
use crate::claim::verdict::{Status, Verdict};
use crate::error::{Error, Result};
use crate::exact::Q;
use crate::lang::Formula;
use crate::process::Process;
use crate::search::Family;
use num_traits::{One, Zero};
use std::sync::Arc;

/// The registry entry.
pub static INFO: KindInfo = KindInfo {
    name: "inequality",
    summary: "a formula over potentials, their exact expectations, per-bin sums, gap statistics and process constants, searched over load vectors and certified",
    build,
};

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimSection {
    #[serde(default)]
    expr: Option<toml::Spanned<String>>,
    #[serde(default)]
    chain: Option<Vec<toml::Spanned<String>>>,
    #[serde(default)]
    forall_bins: Option<toml::Spanned<String>>,
    /// Hypotheses: formulas that select the states the claim is about (all must hold).
    #[serde(default)]
    given: Vec<toml::Spanned<String>>,
}

/// Where the allocation vector comes from.
#[derive(Debug, Clone)]
enum SourceSpec {
    /// A registered process.
    Process(Arc<dyn Process>),
    /// Every vector meeting C1(δ, ε) and C2(C).
    Vectors {
        delta: VectorParam,
        eps: VectorParam,
        c2: Q,
        random: usize,
    },
    /// No process.
    None,
}

pub use crate::claim::chain::Link;

/// A built `inequality` check.
pub struct Inequality {
    t: Theorem,
    setup: Setup,
    tables: Tables,
    links: Vec<Link>,
    chain: bool,
    per_bin: bool,
    given: Vec<Formula>,
    sources: Vec<SourceSpec>,
    state_dependent: bool,
}

fn build(t: &Theorem) -> std::result::Result<Box<dyn Check>, FileError> {
    Ok(Box::new(Inequality::new(t)?))
}

/// The (δ, ε) of `[setting.vectors]` as they enter the claim's formulas (a number in parentheses,
/// or the name of the constant that gives it), when the file quantifies over vectors.
type Vectors = Option<(String, String)>;

/// A parameter δ or ε of `[setting.vectors]`: a number, or the name of one of the file's
/// constants, whose value at each case (each point of its grid) is used — so that one file
/// ranges over C1(δ, ε) for every (δ, ε) of a grid.
#[derive(Debug, Clone)]
enum VectorParam {
    /// A number, the same at every case.
    Fixed(Q),
    /// The constant with this index in `[constants]`.
    Constant(usize),
}

impl VectorParam {
    /// The text that stands for the parameter in the prelude's formulas.
    fn text(&self, constants: &crate::claim::setup::Constants) -> String {
        match self {
            VectorParam::Fixed(q) => format!("({q})"),
            VectorParam::Constant(j) => format!("({})", constants.names[*j]),
        }
    }

    /// The value at a case: the number, or the constant's exact value there.
    fn at(
        &self,
        values: Option<&crate::claim::setup::CaseValues>,
        constants: &crate::claim::setup::Constants,
        what: &str,
    ) -> Result<Q> {
        match self {
            VectorParam::Fixed(q) => Ok(q.clone()),
            VectorParam::Constant(j) => {
                let name = &constants.names[*j];
                let values = values.ok_or_else(|| {
                    Error::invalid(
                        "[setting.vectors]",
                        format!("{what} = \"{name}\" reads a constant: it has a value only at a case of the search"),
                    )
                })?;
                values.consts[*j].exact.clone().ok_or_else(|| {
                    Error::invalid(
                        "[setting.vectors]",
                        format!(
                            "{what} = \"{name}\" needs an exact value (at n = {})",
                            values.n
                        ),
                    )
                })
            }
        }
    }
}

/// The sources of allocation vectors of `[setting]`: each process, and the vector quantifier
/// of `[setting.vectors]` (every vector meeting C1(δ, ε) and C2(C)), whose (δ, ε) are also
/// returned for the claim's scope.
fn parse_sources(
    t: &Theorem,
    constants: &crate::claim::setup::Constants,
) -> std::result::Result<(Vec<SourceSpec>, Vectors), FileError> {
    let f = &t.file;
    let mut sources = Vec::new();
    for s in &f.setting.processes {
        // Relative files (`graphical(graph=file,file=PATH)`) are read from the file's folder.
        let p = crate::process::parse_with(s.get_ref(), &crate::input::Dir::new(t.path.parent()))
            .map_err(|e| t.error_at(Some(s.span().start), e.to_string()))?;
        sources.push(SourceSpec::Process(Arc::from(p)));
    }
    let mut vectors = None;
    if let Some(v) = &f.setting.vectors {
        let at = Some(v.span().start);
        let g = |s: &crate::claim::schema::Scalar, what: &str| {
            s.value()
                .map(|x| x.1)
                .map_err(|e| t.error_at(at, format!("[setting.vectors] {what}: {e}")))
        };
        // δ and ε: a number, or the name of a constant of the file (its grid then ranges over them).
        let param = |s: &crate::claim::schema::Scalar, what: &str| {
            if let crate::claim::schema::Scalar::Text(name) = s
                && let Some(j) = constants.index(name.trim())
            {
                return Ok(VectorParam::Constant(j));
            }
            g(s, what).map(VectorParam::Fixed)
        };
        let vs = v.get_ref();
        let (delta, eps, c2) = (
            param(&vs.delta, "delta")?,
            param(&vs.eps, "eps")?,
            g(&vs.c2, "c2")?,
        );
        let (zero, one) = (Q::zero(), Q::one());
        let in_unit = |p: &VectorParam| match p {
            VectorParam::Fixed(x) => x > &zero && x < &one,
            VectorParam::Constant(_) => true,
        };
        if !(in_unit(&delta) && in_unit(&eps)) || c2 < one {
            return Err(t.error_at(
                at,
                "[setting.vectors] needs 0 < delta < 1, 0 < eps < 1 and c2 ≥ 1",
            ));
        }
        vectors = Some((delta.text(constants), eps.text(constants)));
        sources.push(SourceSpec::Vectors {
            delta,
            eps,
            c2,
            random: vs.random,
        });
    }
    Ok((sources, vectors))
}

/// Compiles the formula `text` (written at byte `at` of the file, reported as `what`) in the
/// claim's scope; `per_bin` allows the bin binder.
fn compile_in(
    t: &Theorem,
    scope: &ClaimScope,
    text: &str,
    at: usize,
    what: &str,
    per_bin: bool,
) -> std::result::Result<Formula, FileError> {
    let ast = crate::lang::parse(text)
        .map_err(|e| error_in_string(t, at, e.at, format!("{what}: {}", e.message)))?;
    crate::lang::compile_formula(&ast, scope, per_bin).map_err(|e| {
        scope
            .deferred
            .borrow_mut()
            .take()
            .unwrap_or_else(|| error_in_string(t, at, e.at, format!("{what}: {}", e.message)))
    })
}

/// Compiles the expression `text`, found `offset` bytes into the string at byte `at` of the
/// file (reported as `what`), in the claim's scope.
fn compile_side_in(
    t: &Theorem,
    scope: &ClaimScope,
    text: &str,
    at: usize,
    offset: usize,
    what: &str,
) -> std::result::Result<crate::lang::Expr, FileError> {
    let ast = crate::lang::parse(text)
        .map_err(|e| error_in_string(t, at, offset + e.at, format!("{what}: {}", e.message)))?;
    crate::lang::compile_expr(&ast, scope, false).map_err(|e| {
        scope.deferred.borrow_mut().take().unwrap_or_else(|| {
            error_in_string(t, at, offset + e.at, format!("{what}: {}", e.message))
        })
    })
}

/// The links of the claim, and whether it is per bin (`forall_bins`) and a chain: one link
/// for `expr` or `forall_bins`; for `chain = [e0, "op1 e1", "op2 e2", …]` the links
/// `e0 op1 e1`, `e1 op2 e2`, ….
fn compile_links(
    t: &Theorem,
    scope: &ClaimScope,
    cs: &ClaimSection,
    cat: Option<usize>,
) -> std::result::Result<(Vec<Link>, bool, bool), FileError> {
    let mut links = Vec::new();
    let mut per_bin = false;
    let mut chain = false;
    if let Some(e) = &cs.expr {
        links.push(Link {
            text: e.get_ref().clone(),
            formula: compile_in(t, scope, e.get_ref(), e.span().start, "claim", false)?,
        });
    } else if let Some(e) = &cs.forall_bins {
        per_bin = true;
        links.push(Link {
            text: e.get_ref().clone(),
            formula: compile_in(
                t,
                scope,
                e.get_ref(),
                e.span().start,
                "claim.forall_bins",
                true,
            )?,
        });
    } else if let Some(c) = &cs.chain {
        chain = true;
        links = crate::claim::chain::links(t, c, cat, |text, at, offset, what| {
            compile_side_in(t, scope, text, at, offset, what)
        })?;
    }
    Ok((links, per_bin, chain))
}

/// Whether the claim depends on the load vector: a per-bin claim, a binder, a quantity of the
/// state (only numbers, `n`, `b` and constants are state-free), or C2 and process functions of
/// a process that is not rank based.
fn is_state_dependent(
    links: &[Link],
    given: &[Formula],
    tables: &Tables,
    sources: &[SourceSpec],
    per_bin: bool,
) -> bool {
    let load_dependent = sources.iter().any(|s| match s {
        SourceSpec::Process(p) => !p.info().rank_based,
        _ => false,
    });
    let mut uses = crate::lang::Uses::default();
    for l in links {
        let u = l.formula.uses();
        uses.slots.extend(u.slots);
        uses.proc_funcs |= u.proc_funcs;
        uses.binders |= u.binders;
    }
    for g in given {
        let u = g.uses();
        uses.slots.extend(u.slots);
        uses.proc_funcs |= u.proc_funcs;
        uses.binders |= u.binders;
    }
    let state_free = |q: &Quantity| matches!(q, Quantity::N | Quantity::B | Quantity::Const(_));
    let mut state_dependent = per_bin || uses.binders;
    for s in &uses.slots {
        match tables.slots[*s] {
            q if state_free(&q) => {}
            Quantity::C2 => state_dependent |= load_dependent,
            Quantity::Pot(i, _) => {
                // A defined potential that does not read the state is still a function of it
                // in general; only numbers, n, b and constants are state-free.
                let _ = i;
                state_dependent = true;
            }
            _ => state_dependent = true,
        }
    }
    state_dependent | (uses.proc_funcs && load_dependent)
}

/// Checks the `[domain]` section: known family names, and some states to search when the
/// claim depends on the load vector.
fn check_domain(t: &Theorem, state_dependent: bool) -> std::result::Result<(), FileError> {
    let f = &t.file;
    let d = f.domain.get_ref();
    let dspan = Some(f.domain.span().start);
    if let Some(fams) = &d.families {
        for s in fams {
            if Family::parse(s.get_ref()).is_none() {
                let names: Vec<&str> = crate::search::FAMILIES.iter().map(|(n, _)| *n).collect();
                return Err(t.error_at(
                    Some(s.span().start),
                    format!(
                        "unknown family `{}`; accepted: {}",
                        s.get_ref(),
                        names.join(", ")
                    ),
                ));
            }
        }
    }
    let no_states = d.families.as_ref().is_some_and(|f| f.is_empty())
        && d.exhaustive.is_none()
        && d.random == 0
        && d.states.is_empty();
    if state_dependent && no_states {
        return Err(t.error_at(
            dspan,
            "empty domain: no families, no exhaustive enumeration, no random states and no explicit states",
        ));
    }
    Ok(())
}

impl Inequality {
    /// Validates the file and compiles the claim: the sources of allocations, the links and
    /// hypotheses, whether the claim reads the load vector, the search domain; then every case
    /// is built once, so that errors name the file before any search.
    pub fn new(t: &Theorem) -> std::result::Result<Inequality, FileError> {
        let f = &t.file;
        let setup = Setup::parse(t)?;
        let claim: toml::Spanned<ClaimSection> = t.claim_section()?;
        let cs = claim.get_ref();
        let cat = Some(claim.span().start);
        let given_forms = usize::from(cs.expr.is_some())
            + usize::from(cs.chain.is_some())
            + usize::from(cs.forall_bins.is_some());
        if given_forms != 1 {
            return Err(t.error_at(
                cat,
                "[claim] needs exactly one of `expr` (a formula), `chain` (a list of links) and `forall_bins` (a per-bin formula)",
            ));
        }
        let (mut sources, vectors) = parse_sources(t, &setup.constants)?;
        let has_process = !sources.is_empty();
        let scope = ClaimScope::new(t, &setup.constants, vectors, has_process)?;
        let (links, per_bin, chain) = compile_links(t, &scope, cs, cat)?;
        let mut given = Vec::new();
        for (k, g) in cs.given.iter().enumerate() {
            given.push(compile_in(
                t,
                &scope,
                g.get_ref(),
                g.span().start,
                &format!("claim.given[{k}]"),
                false,
            )?);
        }
        let tables = Tables {
            slots: scope.slots.borrow().clone(),
            pots: scope.pots.borrow().clone(),
            constants: setup.constants.clone(),
        };
        drop(scope);
        let state_dependent = is_state_dependent(&links, &given, &tables, &sources, per_bin);
        if !sources.iter().any(|_| true) {
            sources.push(SourceSpec::None);
        }
        check_domain(t, state_dependent)?;
        let uses_bias = tables.slots.iter().any(|q| matches!(q, Quantity::Bias(_)));
        if uses_bias && f.setting.vectors.is_some() {
            return Err(t.error_at(
                cat,
                "the mean-bias quantities (delta_minus, E_balls, drift_*, fig_*, samples_mt, mb_*) need [setting] processes, not [setting.vectors]",
            ));
        }
        let needs_k = tables
            .slots
            .iter()
            .any(|q| matches!(q, Quantity::Bias(b) if b.needs_k()));
        if needs_k && setup.constants.index("k").is_none() {
            return Err(t.error_at(
                cat,
                "mb_prob and mb_weight are the margins of MB(k): define the constant `k`",
            ));
        }
        let me = Inequality {
            t: t.clone(),
            setup,
            tables,
            links,
            chain,
            per_bin,
            given,
            sources,
            state_dependent,
        };
        me.validate_cases(uses_bias)?;
        Ok(me)
    }

    /// Builds every case (each `n`, combination of the constants and allocation) and checks
    /// that the claim can be evaluated there, so that errors name the file before any search.
    fn validate_cases(&self, uses_bias: bool) -> std::result::Result<(), FileError> {
        let t = &self.t;
        let dspan = Some(t.file.domain.span().start);
        for &n in &self.setup.ns {
            let cases = self.setup.cases(t, n, &[])?;
            let by_case = self
                .allocs_by_case(n, 0, &cases)
                .map_err(|e| t.error_at(dspan, format!("at n = {n}: {e}")))?;
            for (values, allocs) in cases.into_iter().zip(by_case) {
                if uses_bias && values.b != 1 {
                    return Err(t.error_at(
                        None,
                        "the mean-bias quantities are defined for one step (batch = 1)",
                    ));
                }
                for alloc in &allocs {
                    let case = Case::new(
                        &self.tables,
                        alloc,
                        values.clone(),
                        &self.setup.weights,
                        self.setup.ties,
                    )
                    .map_err(|e| t.error_at(dspan, format!("at n = {n}: {e}")))?;
                    self.check_constant_parts(&case)?;
                    self.check_extremal_vector(&case)?;
                    self.check_evaluable(&case)?;
                }
            }
        }
        Ok(())
    }

    /// Whether the allocations depend on the case (the vector quantifier reads a constant).
    fn allocs_per_case(&self) -> bool {
        self.sources.iter().any(|s| {
            matches!(s, SourceSpec::Vectors { delta, eps, .. }
                if matches!(delta, VectorParam::Constant(_)) || matches!(eps, VectorParam::Constant(_)))
        })
    }

    /// The allocations of every case at n, in the order of `cases` (each case's list is the same
    /// unless the vector quantifier reads a constant: [`Self::allocs_per_case`]).
    fn allocs_by_case(
        &self,
        n: usize,
        seed: u64,
        cases: &[crate::claim::setup::CaseValues],
    ) -> Result<Vec<Vec<Alloc>>> {
        if !self.allocs_per_case() {
            let a = self.allocs(n, seed, None)?;
            return Ok(vec![a; cases.len()]);
        }
        cases
            .iter()
            .map(|v| self.allocs(n, seed, Some(v)))
            .collect()
    }

    /// The allocations at n (vector quantifier: extremal step vectors and random ones), at the
    /// case `values` when the quantifier's δ or ε is a constant.
    fn allocs(
        &self,
        n: usize,
        seed: u64,
        values: Option<&crate::claim::setup::CaseValues>,
    ) -> Result<Vec<Alloc>> {
        let mut out = Vec::new();
        for s in &self.sources {
            match s {
                SourceSpec::None => out.push(Alloc::None),
                SourceSpec::Process(p) => {
                    let (pv, exact) = if p.info().rank_based {
                        (p.rank_probabilities(n)?, p.rank_probabilities_exact(n)?)
                    } else {
                        p.validate(n)?;
                        (None, None)
                    };
                    out.push(Alloc::Process {
                        process: p.clone(),
                        p: pv,
                        exact,
                    });
                }
                SourceSpec::Vectors {
                    delta,
                    eps,
                    c2,
                    random,
                } => {
                    let c = &self.setup.constants;
                    let (d, e) = (delta.at(values, c, "delta")?, eps.at(values, c, "eps")?);
                    let (zero, one) = (Q::zero(), Q::one());
                    if !(d > zero && d < one && e > zero && e < one) {
                        return Err(Error::invalid(
                            "[setting.vectors]",
                            format!(
                                "needs 0 < delta < 1 and 0 < eps < 1, got delta = {d}, eps = {e}"
                            ),
                        ));
                    }
                    out.extend(vectors::vectors(n, &d, &e, c2, *random, seed)?)
                }
            }
        }
        Ok(out)
    }

    /// The parts of the claim that do not depend on the state must be finite numbers at every
    /// case (`1/0`, `ln 0` are errors, never verdicts).
    fn check_constant_parts(&self, case: &Case) -> std::result::Result<(), FileError> {
        let st = crate::claim::state::State::new(case, vec![0.0; case.n])
            .map_err(|e| self.t.error_at(None, e.to_string()))?;
        let env = crate::claim::env::StateEnv::new(&st, &crate::lang::Float);
        for l in &self.links {
            for (a, _, b) in l.formula.atoms() {
                for side in [a, b] {
                    let u = side.uses();
                    let free = !u.binders
                        && !u.next_law
                        && !u.proc_funcs
                        && u.bin_vars.is_empty()
                        && u.slots.iter().all(|s| {
                            matches!(
                                self.tables.slots[*s],
                                Quantity::N | Quantity::B | Quantity::Const(_)
                            )
                        });
                    if free && let Err(e) = side.eval(&crate::lang::Float, &env, None) {
                        return Err(self.t.error_at(
                            Some(self.t.file.claim.span().start),
                            format!(
                                "the claim `{}` has a part that is not a finite number at n = {}: {e}",
                                crate::lang::syntax::excerpt(&l.text, 80),
                                case.n
                            ),
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

impl Inequality {
    /// The set sums with first-order terms at the extremal vector q of eq. (3.2) (`Fq_Phi_All`,
    /// ..., with the file's constants `delta` and `eps`) need δn to be an integer, as C1 and
    /// `[setting.vectors]` do (`condition::delta_n`): at another δ the step at rank δn is not a
    /// probability vector (δ = 1/5 at n = 6 gives entries summing to 1 + ε/24), so the case is
    /// refused rather than evaluated on a vector that is not one.
    fn check_extremal_vector(&self, case: &Case) -> std::result::Result<(), FileError> {
        let uses_q = self.tables.pots.iter().any(|p| {
            matches!(p, PotDef::Defined { name, .. } if name.starts_with("Fq_") && name.matches('_').count() >= 2)
        });
        if !uses_q {
            return Ok(());
        }
        let Some(j) = self.setup.constants.index("delta") else {
            return Ok(());
        };
        let delta = case.values.consts[j].exact.clone().ok_or_else(|| {
            self.t.error_at(
                None,
                format!(
                    "the extremal vector q of eq. (3.2) needs an exact delta (at n = {})",
                    case.n
                ),
            )
        })?;
        crate::condition::delta_n(case.n, &delta).map_err(|e| {
            self.t.error_at(
                Some(self.t.file.claim.span().start),
                format!("the extremal vector q of eq. (3.2) (`Fq_...` set sums): {e}"),
            )
        })?;
        Ok(())
    }

    /// Every link must evaluate at the balanced state of every case (so a limit — an enumeration
    /// beyond its size, a batch beyond the separable route — is an error naming the file before
    /// any search, not a failure in the middle of it).
    fn check_evaluable(&self, case: &Case) -> std::result::Result<(), FileError> {
        let st = crate::claim::state::State::new(case, vec![0.0; case.n])
            .map_err(|e| self.t.error_at(None, e.to_string()))?;
        for (k, _) in self.links.iter().enumerate() {
            if let Err(e) = self.float_atom(k, &st) {
                return Err(self.t.error_at(
                    Some(self.t.file.claim.span().start),
                    format!(
                        "the claim `{}` cannot be evaluated at n = {}, b = {}: {e}",
                        crate::lang::syntax::excerpt(&self.links[k].text, 80),
                        case.n,
                        case.setting.batch
                    ),
                ));
            }
        }
        Ok(())
    }
}

impl Check for Inequality {
    fn run(&self, ctx: &mut RunContext) -> Result<Verdict> {
        super::check_search_budget(self.t.file.domain.get_ref(), ctx.effort)?;
        let ns = self.setup.ns.clone();
        self.run_links(ctx, &ns, &[])
    }

    fn tighten(
        &self,
        name: &str,
        ns: Option<&[usize]>,
        ctx: &mut RunContext,
    ) -> Result<ConstantReport> {
        let c = &self.setup.constants;
        if c.index(name).is_some_and(|i| c.is_range(i)) {
            return Err(Error::invalid(
                "--name",
                format!(
                    "`{name}` is a range: the constant finder tightens a number (e.g. the end `alpha0` of `alpha = \"(0, alpha0]\"`)"
                ),
            ));
        }
        let finder = Finder::new(&self.t, name, &c.names)?;
        let idx = finder.index;
        let has_ranges = c.ranges.iter().any(Option::is_some);
        let ns: Vec<usize> = ns
            .map(|v| v.to_vec())
            .unwrap_or_else(|| self.setup.ns.clone());
        let mut per_n = Vec::new();
        for n in ns {
            if !(2..=crate::claim::setup::MAX_N).contains(&n) {
                return Err(Error::invalid(
                    "--n",
                    format!("n must be in 2..={}, got {n}", crate::claim::setup::MAX_N),
                ));
            }
            let cases = self
                .setup
                .cases(&self.t, n, &[])
                .map_err(|e| Error::invalid(self.t.file_name(), e.to_string()))?;
            self.allocs_by_case(n, 0, &cases)?;
            let start = self
                .setup
                .cases(&self.t, n, &[])
                .map_err(|e| Error::invalid(self.t.file_name(), e.to_string()))?
                .first()
                .map(|v| v.float(idx))
                .unwrap_or(1.0);
            // With ranges, the kept side is proved over the range at every searched state; the
            // witness is the counterexample just past the tightest value (for a chain, that of the
            // first link that fails), else the tightest state where it holds.
            per_n.push(finder.starting_at(n, start, 1e-6, |q| {
                let verdict = self.run_links(ctx, &[n], &[(idx, q.clone())])?;
                let kept = if has_ranges {
                    verdict.verdict == Status::Holds
                } else {
                    verdict.verdict != Status::Refuted
                };
                Ok(Trial::of(verdict, kept))
            })?);
        }
        Ok(finder.report(per_n))
    }
}

/// The value of an expression of the claim language at one state, in every number domain that
/// has it ([`evaluate`]).
#[derive(Debug, Clone)]
pub struct Values {
    /// Extended-range floating point.
    pub float: crate::claim::XFloat,
    /// Exact rationals, when the value is rational (and every quantity has an exact route).
    pub exact: Option<Q>,
    /// An enclosure at 128 bits with outward rounding, when every quantity has one.
    pub enclosure: Option<crate::enclosure::Interval>,
}

/// An expression of the claim language prepared once for a setting and a number of bins, then
/// evaluated at many load vectors (the setting of a theorem-file fragment: its `[setting]`,
/// `[constants]` and `[potentials]` tables; the first process and the first value of every grid).
///
/// ```
/// use balloc::claim::Evaluator;
/// // Γ written as a potential of the file, against the registered Γ: the same numbers.
/// let frag = "[setting]\nprocesses = [\"two-choice\"]\n[constants]\nalpha = \"1/10\"\n\
///             [potentials]\nG = \"sum(exp(alpha*y) + exp(-alpha*y))\"";
/// let user = Evaluator::new(frag, "E_G", 4).unwrap();
/// let builtin = Evaluator::new(frag, "E_Gamma", 4).unwrap();
/// let x = [3.0, 0.0, 1.0, 0.0];
/// let (a, b) = (user.float(&x).unwrap().to_f64(), builtin.float(&x).unwrap().to_f64());
/// assert!((a - b).abs() < 1e-14 * b);
/// ```
pub struct Evaluator {
    ineq: Inequality,
    allocs: Vec<Alloc>,
    n: usize,
}

impl Evaluator {
    /// Prepares `expr` in the setting of `fragment` at `n` bins.
    pub fn new(fragment: &str, expr: &str, n: usize) -> std::result::Result<Evaluator, FileError> {
        let states = vec!["0"; n].join(", ");
        let text = format!(
            "title = \"evaluate\"\nkind = \"inequality\"\nexpected = \"open\"\nstatement = \"\"\n\
             source = {{ locator = \"evaluate\", provenance = \"derived\" }}\n{fragment}\n\
             [claim]\nexpr = \'\'\'({expr}) == ({expr})\'\'\'\n\
             [domain]\nn = [{n}]\nstates = [[{states}]]\nfamilies = []\n"
        );
        let file = crate::claim::schema::parse_file("evaluate", &text)?;
        let t = Theorem {
            id: "evaluate".into(),
            path: std::path::PathBuf::from("evaluate"),
            text,
            file,
            paper: None,
        };
        let ineq = Inequality::new(&t)?;
        let c = &ineq.setup.constants;
        if let Some(j) = c.ranges.iter().position(Option::is_some) {
            // One value is evaluated here: a range has none.
            return Err(t.error_at(
                Some(c.at[j]),
                format!(
                    "constant `{}` is a range: an evaluation needs one value (write it as a number)",
                    c.names[j]
                ),
            ));
        }
        // The first case's allocations, as `with_state` evaluates at the first case's constants.
        let first = ineq.setup.cases(&t, n, &[])?.into_iter().next();
        let allocs = ineq
            .allocs(n, 0, first.as_ref())
            .map_err(|e| t.error_at(None, e.to_string()))?;
        Ok(Evaluator { ineq, allocs, n })
    }

    fn with_state<T>(
        &self,
        loads: &[f64],
        f: impl FnOnce(&crate::lang::Expr, &crate::claim::state::State) -> Result<T>,
    ) -> Result<T> {
        if loads.len() != self.n {
            return Err(Error::invalid(
                "loads",
                format!("{} loads for an evaluator of {} bins", loads.len(), self.n),
            ));
        }
        let Formula::Cmp(side, _, _) = &self.ineq.links[0].formula else {
            unreachable!("the evaluator's claim is a comparison");
        };
        let values = self
            .ineq
            .setup
            .cases(&self.ineq.t, self.n, &[])
            .map_err(|e| Error::invalid("evaluate", e.to_string()))?
            .swap_remove(0);
        let case = Case::new(
            &self.ineq.tables,
            &self.allocs[0],
            values,
            &self.ineq.setup.weights,
            self.ineq.setup.ties,
        )?;
        let st = crate::claim::state::State::new(&case, loads.to_vec())?;
        f(side, &st)
    }

    /// The value in extended-range floating point.
    pub fn float(&self, loads: &[f64]) -> Result<crate::claim::XFloat> {
        self.with_state(loads, |e, st| {
            let d = crate::lang::Float;
            let env = crate::claim::env::StateEnv::new(st, &d);
            e.eval(&d, &env, None)
                .map(|v| v.v)
                .map_err(|e| Error::invalid("evaluate", e.to_string()))
        })
    }

    /// The exact value, when it is rational (`None` otherwise).
    pub fn exact(&self, loads: &[f64]) -> Result<Option<Q>> {
        self.with_state(loads, |e, st| {
            let d = crate::lang::Exact;
            let env = crate::claim::env::StateEnv::new(st, &d);
            Ok(e.eval(&d, &env, None).ok())
        })
    }

    /// An enclosure at `prec` bits with outward rounding (`None` when some part has none).
    pub fn enclosure(
        &self,
        loads: &[f64],
        prec: u64,
    ) -> Result<Option<crate::enclosure::Interval>> {
        self.with_state(loads, |e, st| {
            let d = crate::lang::Enclosure { prec };
            let env = crate::claim::env::StateEnv::new(st, &d);
            Ok(e.eval(&d, &env, None).ok())
        })
    }
}

/// Evaluates `expr` (claim language) at the load vector `loads`, in the setting a theorem-file
/// fragment gives (its `[setting]`, `[constants]` and `[potentials]` tables; the first process and
/// the first value of every grid): the library's direct route to the quantities of a claim, for
/// users' own tests.
///
/// ```
/// // Two-Choice at x = (2, 0, 1): E[Υ'] − Υ = 2Σⱼ yⱼ(pⱼ − 1/n) + 1 − 1/n with y = (1, −1, 0) and
/// // p = (1, 5, 3)/9 by bin: 2(1·(1/9 − 3/9) − 1·(5/9 − 3/9)) + 2/3 = −8/9 + 6/9 = −2/9.
/// let v = balloc::claim::evaluate(
///     "[setting]\nprocesses = [\"two-choice\"]",
///     "dE_Upsilon",
///     &[2.0, 0.0, 1.0],
/// ).unwrap();
/// assert_eq!(v.exact.unwrap().to_string(), "-2/9");
/// // A potential defined in the fragment: Φ over the overloaded bins, α = 1 (e¹ + e⁰).
/// let v = balloc::claim::evaluate(
///     "[potentials]\nOmega = \"sum(exp(alpha*y), y >= 0)\"\n[constants]\nalpha = 1",
///     "Omega",
///     &[2.0, 0.0, 1.0],
/// ).unwrap();
/// assert!((v.float.to_f64() - (1f64.exp() + 1.0)).abs() < 1e-15);
/// // e + 1 = 3.71828182845904523536…: the 128-bit enclosure is that number to ~38 digits (the f64
/// // sum e + 1 is rounded, so the enclosure need not contain it).
/// let e = v.enclosure.unwrap();
/// assert!(v.exact.is_none() && e.rel_width() < 1e-30);
/// assert!((e.mid_f64() - 3.718281828459045).abs() < 1e-15);
/// ```
pub fn evaluate(
    fragment: &str,
    expr: &str,
    loads: &[f64],
) -> std::result::Result<Values, FileError> {
    let ev = Evaluator::new(fragment, expr, loads.len())?;
    let fail = |e: Error| FileError {
        file: "evaluate".into(),
        line: None,
        column: None,
        message: e.to_string(),
    };
    Ok(Values {
        float: ev.float(loads).map_err(fail)?,
        exact: ev.exact(loads).map_err(fail)?,
        enclosure: ev.enclosure(loads, 128).map_err(fail)?,
    })
}
