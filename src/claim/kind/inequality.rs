//! The generic kind `inequality`: a comparison between two expressions over the named quantities
//! of [`crate::claim::quantity`], for every n of the domain, every process (or every allocation
//! vector meeting C1(δ, ε) and C2(C)), every combination of the constants' grids and every load
//! vector the search visits.
//!
//! `[claim]` table: `expr = "<lhs> <op> <rhs>"`.
//!
//! Re-checks of a violation (DESIGN §3): in exact rationals when every quantity the claim uses has
//! an exact value (polynomial potentials Υ and Δ with unit weights, allocation vectors of
//! rank-based processes, gap-type statistics, constants) and no `exp`/`ln`/`sqrt` is used;
//! otherwise by brute-force enumeration of the step ([`crate::expectation::brute_force_law`]),
//! independent of the potentials' closed forms.

use super::{Check, ConstantReport, KindInfo, RunContext, Tightest};
use crate::claim::expr::{Comparison, Env, ExactEnv, Func, IntervalEnv, compile};
use crate::claim::expsum::ExpSum;
use crate::claim::quantity::{Pot, Quantity, Stat, builtin, builtin_names};
use crate::claim::schema::{FileError, Theorem};
use crate::claim::verdict::{Searched, Status, Trust, Verdict, Witness};
use crate::claim::xfloat::XFloat;
use crate::condition::{best_c, best_eps, c1_violation, c2_violation};
use crate::enclosure::{ExpSpec, Interval, Precisions, exponential};
use crate::error::{Error, Result};
use crate::exact::{ExactSetting, ExactStepLaw};
use crate::loads::{Loads, TieRule};
use crate::potential::Potential;
use crate::potential::Side;
use crate::process::{LevelLaw, Process, StepLaw};
use crate::search::{self, Eval, Family, Found, Objective, Plan, StateList};
use crate::setting::Setting;
use crate::weights::WeightLaw;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The registry entry.
pub static INFO: KindInfo = KindInfo {
    name: "inequality",
    summary: "a comparison of expressions over potentials, their exact expectations, gap statistics and process constants, searched over load vectors",
    build,
};

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimSection {
    expr: toml::Spanned<String>,
    /// Hypotheses: comparisons that select the states the claim is about (all must hold).
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
        delta: BigRational,
        eps: BigRational,
        c2: BigRational,
        random: usize,
    },
    /// No process (the claim uses no process quantity).
    None,
}

/// An allocation at a fixed n.
#[derive(Debug, Clone)]
enum Alloc {
    /// A process; `p`/`exact` are its rank vector when rank-based.
    Process {
        process: Arc<dyn Process>,
        p: Option<Vec<f64>>,
        exact: Option<Vec<BigRational>>,
    },
    /// An explicit vector by rank.
    Vector {
        label: String,
        p: Vec<f64>,
        exact: Vec<BigRational>,
    },
    /// None.
    None,
}

impl Alloc {
    fn label(&self) -> String {
        match self {
            Alloc::Process { process, .. } => process.spec(),
            Alloc::Vector { label, .. } => label.clone(),
            Alloc::None => "-".into(),
        }
    }
    fn rank_vector(&self) -> Option<&[f64]> {
        match self {
            Alloc::Process { p: Some(p), .. } => Some(p),
            Alloc::Vector { p, .. } => Some(p),
            _ => None,
        }
    }
    fn rank_vector_exact(&self) -> Option<&[BigRational]> {
        match self {
            Alloc::Process { exact: Some(p), .. } => Some(p),
            Alloc::Vector { exact, .. } => Some(exact),
            _ => None,
        }
    }
}

/// The tightest state so far: witness, evaluation, n, allocation index, constants, loads.
type WorstState = (
    Witness,
    Eval,
    usize,
    usize,
    Vec<(f64, BigRational)>,
    Vec<f64>,
);
/// A violation: witness, state, n, allocation index, constants.
type ViolationState = (Witness, Found, usize, usize, Vec<(f64, BigRational)>);

/// A built `inequality` check.
pub struct Inequality {
    t: Theorem,
    cmp: Comparison,
    given: Vec<Comparison>,
    /// Constants `delta`, `eps` (indices) of the set sums.
    set_consts: (Option<usize>, Option<usize>),
    /// Whether the claim uses set sums or exponential potential values (exponential-sum route).
    expsum_capable: bool,
    slots: Vec<Quantity>,
    const_names: Vec<String>,
    grids: Vec<Vec<(f64, BigRational)>>,
    alpha: Option<usize>,
    sources: Vec<SourceSpec>,
    setting: Setting,
    pots: Vec<Pot>,
    state_dependent: bool,
    exact_capable: bool,
    k_index: Option<usize>,
}

fn ratio_f64(r: &BigRational) -> f64 {
    r.to_f64().unwrap_or(f64::NAN)
}

fn ratio_of(v: f64) -> BigRational {
    crate::spec::parse_ratio(&format!("{v:e}"))
        .unwrap_or_else(|_| BigRational::from_float(v).unwrap_or_else(BigRational::zero))
}

fn build(t: &Theorem) -> std::result::Result<Box<dyn Check>, FileError> {
    Ok(Box::new(Inequality::new(t)?))
}

impl Inequality {
    /// Validates the file and compiles the claim.
    pub fn new(t: &Theorem) -> std::result::Result<Inequality, FileError> {
        let f = &t.file;
        let claim: toml::Spanned<ClaimSection> = t.claim_section()?;
        let expr = &claim.get_ref().expr;
        // Constants.
        let mut const_names = Vec::new();
        let mut grids = Vec::new();
        for (name, v) in &f.constants {
            let at = Some(v.span().start);
            if builtin(name).is_some() || name == "p" || name == "eps1" {
                return Err(
                    t.error_at(at, format!("constant `{name}` shadows a built-in quantity"))
                );
            }
            let scalars = match v.get_ref() {
                crate::claim::schema::ConstValue::One(s) => vec![s.clone()],
                crate::claim::schema::ConstValue::Grid(g) => g.clone(),
            };
            if scalars.is_empty() {
                return Err(t.error_at(at, format!("constant `{name}` has an empty grid")));
            }
            let vals = scalars
                .iter()
                .map(|s| s.value())
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(|e| t.error_at(at, format!("constant `{name}`: {e}")))?;
            const_names.push(name.clone());
            grids.push(vals);
        }
        // Compile the claim.
        let slots: RefCell<Vec<Quantity>> = RefCell::new(Vec::new());
        let resolve = |name: &str| -> Option<usize> {
            let q = builtin(name).or_else(|| {
                const_names
                    .iter()
                    .position(|c| c == name)
                    .map(Quantity::Const)
            })?;
            let mut s = slots.borrow_mut();
            Some(s.iter().position(|x| *x == q).unwrap_or_else(|| {
                s.push(q);
                s.len() - 1
            }))
        };
        let cmp = compile(expr.get_ref(), &resolve).map_err(|e| {
            let at = e
                .name
                .as_ref()
                .and_then(|n| t.find_in(expr.span(), n))
                .or(Some(expr.span().start));
            let mut msg = format!("claim: {}", e.message);
            if e.message.starts_with("unknown variable") {
                let mut names = builtin_names();
                names.extend(const_names.iter().cloned());
                msg.push_str(&format!("; known: {}", names.join(", ")));
            }
            t.error_at(at, msg)
        })?;
        let mut given = Vec::new();
        for g in &claim.get_ref().given {
            let c = compile(g.get_ref(), &resolve).map_err(|e| {
                let at = e
                    .name
                    .as_ref()
                    .and_then(|n| t.find_in(g.span(), n))
                    .or(Some(g.span().start));
                t.error_at(at, format!("claim.given: {}", e.message))
            })?;
            given.push(c);
        }
        let slots = slots.into_inner();
        let pots: Vec<Pot> = {
            let mut v: Vec<Pot> = slots
                .iter()
                .filter_map(|q| {
                    if let Quantity::Pot(p, _) = q {
                        Some(*p)
                    } else {
                        None
                    }
                })
                .collect();
            v.dedup();
            let mut u = Vec::new();
            for p in v {
                if !u.contains(&p) {
                    u.push(p);
                }
            }
            u
        };
        let alpha = const_names.iter().position(|c| c == "alpha");
        if pots.iter().any(|p| p.exponential()) && alpha.is_none() {
            return Err(t.error_at(
                Some(expr.span().start),
                "the claim uses an exponential potential (Phi, Psi, Gamma, Lambda): define the constant `alpha`",
            ));
        }
        if let Some(a) = alpha
            && pots.iter().any(|p| p.exponential())
        {
            for (v, _) in &grids[a] {
                if v.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
                    return Err(t.error_at(
                        Some(f.constants["alpha"].span().start),
                        format!("alpha must be > 0, got {v}"),
                    ));
                }
            }
        }
        for q in &slots {
            if let Quantity::Pot(p, st @ (Stat::FirstOrder | Stat::FirstOrderQ)) = q {
                if !p.exponential() {
                    return Err(t.error_at(
                        Some(expr.span().start),
                        "F_ and Fq_ (first-order terms) are defined for Phi, Psi and Gamma only",
                    ));
                }
                if *st == Stat::FirstOrderQ && f.setting.vectors.is_none() {
                    return Err(t.error_at(
                        Some(expr.span().start),
                        "Fq_ (first-order term at the extremal vector q) needs `vectors` in [setting]",
                    ));
                }
            }
        }
        // Set sums: δ (and ε, α when the term needs them) are constants of the file.
        let sets: Vec<crate::claim::bin_sets::SetSum> = slots
            .iter()
            .filter_map(|q| match q {
                Quantity::Set(s) => Some(*s),
                _ => None,
            })
            .collect();
        let delta_c = const_names.iter().position(|c| c == "delta");
        let eps_c = const_names.iter().position(|c| c == "eps");
        if !sets.is_empty() {
            let need = |name: &str, idx: Option<usize>| {
                idx.map(|_| ()).ok_or_else(|| {
                    t.error_at(
                        Some(expr.span().start),
                        format!("the set sums (Gplus, Bplus, ...) need the constant `{name}`"),
                    )
                })
            };
            need("delta", delta_c)?;
            if sets.iter().any(|s| s.term.needs_eps()) {
                need("eps", eps_c)?;
            }
            if sets.iter().any(|s| s.term.needs_alpha()) {
                need("alpha", alpha)?;
                for (v, _) in &grids[alpha.expect("checked")] {
                    if v.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
                        return Err(t.error_at(
                            Some(f.constants["alpha"].span().start),
                            format!("alpha must be > 0, got {v}"),
                        ));
                    }
                }
            }
            let one = BigRational::one();
            for (_, d) in &grids[delta_c.expect("checked")] {
                if !(d > &BigRational::zero() && d < &one) {
                    return Err(t.error_at(
                        Some(f.constants["delta"].span().start),
                        format!("delta must be in (0, 1), got {d}"),
                    ));
                }
                for &n in &f.domain.get_ref().n {
                    crate::condition::delta_n(n, d).map_err(|e| {
                        t.error_at(
                            Some(f.constants["delta"].span().start),
                            format!("the set sums need δn integral: at n = {n}: {e}"),
                        )
                    })?;
                }
            }
            if let Some(e) = eps_c {
                for (_, v) in &grids[e] {
                    if !(v > &BigRational::zero() && v < &one) {
                        return Err(t.error_at(
                            Some(f.constants["eps"].span().start),
                            format!("eps must be in (0, 1), got {v}"),
                        ));
                    }
                }
            }
        }
        // An exponential potential other than the values of Φ, Ψ, Γ (an expectation, a change,
        // Λ) has no exponential-sum form, so such a claim never takes that route: decide it here
        // rather than at every near tie of the search.
        let expsum_representable = !slots.iter().any(|q| {
            matches!(q, Quantity::Pot(p, stat) if p.exponential()
                && (*stat != Stat::Value || !matches!(p, Pot::Phi | Pot::Psi | Pot::Gamma)))
        });
        let expsum_capable = expsum_representable
            && (!sets.is_empty()
                || slots.iter().any(
                    |q| matches!(q, Quantity::Pot(p, Stat::Value) if p.exponential() && *p != Pot::Lambda),
                ));
        // Declared potentials must cover the ones used.
        if !f.setting.potentials.is_empty() {
            let mut declared = Vec::new();
            for s in &f.setting.potentials {
                let spec = crate::spec::Spec::parse(s.get_ref())
                    .map_err(|e| t.error_at(Some(s.span().start), e.to_string()))?;
                let info = crate::potential::REGISTRY
                    .iter()
                    .find(|i| i.name == spec.name || i.aliases.contains(&spec.name.as_str()))
                    .ok_or_else(|| {
                        let names: Vec<&str> =
                            crate::potential::REGISTRY.iter().map(|i| i.name).collect();
                        t.error_at(
                            Some(s.span().start),
                            format!(
                                "unknown potential `{}`; accepted: {}",
                                spec.name,
                                names.join(", ")
                            ),
                        )
                    })?;
                declared.push(info.name);
            }
            for p in &pots {
                if !declared.contains(&p.registry_name()) {
                    return Err(t.error_at(
                        Some(expr.span().start),
                        format!(
                            "the claim uses {} but [setting] potentials lists only {}",
                            p.registry_name(),
                            declared.join(", ")
                        ),
                    ));
                }
            }
        }
        // Setting.
        let weights = WeightLaw::parse(f.setting.weights.get_ref())
            .map_err(|e| t.error_at(Some(f.setting.weights.span().start), e.to_string()))?;
        let setting = Setting::new(f.setting.batch, weights, f.setting.ties)
            .map_err(|e| t.error_at(None, format!("[setting] {e}")))?;
        // Sources.
        let uses_process = cmp.calls(Func::P)
            || cmp.calls(Func::Eps1)
            || slots.iter().any(|q| {
                matches!(q, Quantity::C2 | Quantity::Bias(_))
                    || matches!(q, Quantity::Pot(_, s) if *s != Stat::Value)
            });
        let mut sources = Vec::new();
        for s in &f.setting.processes {
            let p = crate::process::parse(s.get_ref())
                .map_err(|e| t.error_at(Some(s.span().start), e.to_string()))?;
            sources.push(SourceSpec::Process(Arc::from(p)));
        }
        if let Some(v) = &f.setting.vectors {
            let at = Some(v.span().start);
            let g = |s: &crate::claim::schema::Scalar, what: &str| {
                s.value()
                    .map(|x| x.1)
                    .map_err(|e| t.error_at(at, format!("[setting.vectors] {what}: {e}")))
            };
            let vs = v.get_ref();
            let (delta, eps, c2) = (g(&vs.delta, "delta")?, g(&vs.eps, "eps")?, g(&vs.c2, "c2")?);
            let zero = BigRational::zero();
            let one = BigRational::one();
            if !(delta > zero && delta < one && eps > zero && eps < one) || c2 < one {
                return Err(t.error_at(
                    at,
                    "[setting.vectors] needs 0 < delta < 1, 0 < eps < 1 and c2 ≥ 1",
                ));
            }
            sources.push(SourceSpec::Vectors {
                delta,
                eps,
                c2,
                random: vs.random,
            });
        }
        if sources.is_empty() {
            if uses_process {
                return Err(t.error_at(
                    Some(expr.span().start),
                    "the claim uses process quantities (E_*, dE_*, R_*, p, eps1, C2): list [setting] processes or [setting.vectors]",
                ));
            }
            sources.push(SourceSpec::None);
        }
        let load_dependent = sources.iter().any(|s| match s {
            SourceSpec::Process(p) => !p.info().rank_based,
            _ => false,
        });
        // Load-dependent processes join the exact route only with an exact step law.
        let load_dependent_exact = sources.iter().all(|s| match s {
            SourceSpec::Process(p) if !p.info().rank_based => Loads::zeros(2)
                .ok()
                .and_then(|z| p.step_law_exact(&z, setting.ties).ok().flatten())
                .is_some(),
            _ => true,
        });
        let state_dependent =
            slots.iter().any(|q| q.state_dependent()) || (load_dependent && uses_process);
        // Domain.
        let d = f.domain.get_ref();
        let dspan = Some(f.domain.span().start);
        if d.n.is_empty() {
            return Err(t.error_at(dspan, "empty domain: [domain] n lists no number of bins"));
        }
        if let Some(bad) = d.n.iter().find(|&&n| n < 2) {
            return Err(t.error_at(dspan, format!("[domain] n must be at least 2, got {bad}")));
        }
        if let Some(fams) = &d.families {
            for s in fams {
                if Family::parse(s.get_ref()).is_none() {
                    let names: Vec<&str> = search::FAMILIES.iter().map(|(n, _)| *n).collect();
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
            && d.random == 0;
        if state_dependent && no_states {
            return Err(t.error_at(
                dspan,
                "empty domain: no families, no exhaustive enumeration and no random states",
            ));
        }
        if !(f.tolerance >= 0.0 && f.tolerance.is_finite()) {
            return Err(t.error_at(
                None,
                format!("tolerance must be a finite number ≥ 0, got {}", f.tolerance),
            ));
        }
        for name in f.tighten.keys() {
            if !const_names.contains(name) {
                return Err(t.error_at(
                    None,
                    format!("[tighten] names `{name}`, which is not a constant"),
                ));
            }
        }
        let exact_capable = !cmp.calls(Func::Exp)
            && !cmp.calls(Func::Ln)
            && !cmp.calls(Func::Sqrt)
            && !pots.iter().any(|p| p.exponential())
            && !sets.iter().any(|s| s.term.exponential())
            && setting.weights.is_unit()
            && (!load_dependent || (setting.batch == 1 && load_dependent_exact));
        // The mean-bias quantities need a process (not the vector quantifier) and `k` for MB(k).
        let uses_bias = slots.iter().any(|q| matches!(q, Quantity::Bias(_)));
        if uses_bias && f.setting.vectors.is_some() {
            return Err(t.error_at(
                Some(expr.span().start),
                "the mean-bias quantities (delta_minus, E_balls, drift_*, fig_*, samples_mt, mb_*) need [setting] processes, not [setting.vectors]",
            ));
        }
        if uses_bias && setting.batch != 1 {
            return Err(t.error_at(
                None,
                "the mean-bias quantities are defined for one step (batch = 1)",
            ));
        }
        let k_index = const_names.iter().position(|c| c == "k");
        if slots
            .iter()
            .any(|q| matches!(q, Quantity::Bias(b) if b.needs_k()))
            && k_index.is_none()
        {
            return Err(t.error_at(
                Some(expr.span().start),
                "mb_prob and mb_weight are the margins of MB(k): define the constant `k`",
            ));
        }
        let me = Inequality {
            t: t.clone(),
            cmp,
            given,
            set_consts: (delta_c, eps_c),
            expsum_capable,
            slots,
            const_names,
            grids,
            alpha,
            sources,
            setting,
            pots,
            state_dependent,
            exact_capable,
            k_index,
        };
        // Validate every n against every source now, so errors name the file before any search.
        for &n in &d.n {
            me.allocs(n, 0)
                .map_err(|e| t.error_at(dspan, format!("at n = {n}: {e}")))?;
        }
        Ok(me)
    }

    fn combos(&self, overrides: &BTreeMap<usize, f64>) -> Vec<Vec<(f64, BigRational)>> {
        let mut out: Vec<Vec<(f64, BigRational)>> = vec![vec![]];
        for (i, g) in self.grids.iter().enumerate() {
            let g = match overrides.get(&i) {
                Some(v) => vec![(*v, ratio_of(*v))],
                None => g.clone(),
            };
            out = out
                .into_iter()
                .flat_map(|c| {
                    g.iter().map(move |v| {
                        let mut c = c.clone();
                        c.push(v.clone());
                        c
                    })
                })
                .collect();
        }
        out
    }

    /// The allocations at n (vector quantifier: extremal step vectors and random ones).
    fn allocs(&self, n: usize, seed: u64) -> Result<Vec<Alloc>> {
        let mut out = Vec::new();
        for s in &self.sources {
            match s {
                SourceSpec::None => out.push(Alloc::None),
                SourceSpec::Process(p) => {
                    let (pv, exact) = if p.info().rank_based {
                        (p.rank_probabilities(n)?, p.rank_probabilities_exact(n)?)
                    } else {
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
                } => out.extend(vectors(n, delta, eps, c2, *random, seed)?),
            }
        }
        Ok(out)
    }

    fn plan(&self, ctx: &RunContext, n: usize, case: usize, round: u64) -> Plan {
        let d = self.t.file.domain.get_ref();
        let families = match &d.families {
            None => search::FAMILIES.iter().map(|(_, f)| *f).collect(),
            Some(v) => v
                .iter()
                .filter_map(|s| Family::parse(s.get_ref()))
                .collect(),
        };
        let regressions = ctx
            .regressions
            .as_ref()
            .map(|dir| dir.join(format!("{}.txt", self.t.id)));
        Plan {
            families: if round == 0 { families } else { vec![] },
            exhaustive: if round == 0 {
                d.exhaustive.map(|e| (e.max_n, e.max_load))
            } else {
                None
            },
            // Later rounds (`balloc search --budget`) run random states and the optimiser only.
            random: if round == 0 {
                d.random
            } else {
                d.random.max(64)
            }
            .saturating_mul(ctx.effort),
            optimise: if round == 0 {
                d.optimise
            } else {
                d.optimise.max(200)
            }
            .saturating_mul(ctx.effort),
            starts: d.starts,
            seed: d
                .seed
                .wrapping_add((n as u64) << 32)
                .wrapping_add(case as u64 * 0x9e37_79b9)
                .wrapping_add(round.wrapping_mul(0x2545_f491_4f6c_dd1d)),
            integer: d.integer,
            stop_at_violation: true,
            regressions,
        }
    }

    fn case<'a>(
        &'a self,
        n: usize,
        alloc: &'a Alloc,
        consts: Vec<(f64, BigRational)>,
    ) -> Result<Case<'a>> {
        let alpha = self.alpha.map(|a| consts[a].0);
        let mut pots = Vec::new();
        for p in &self.pots {
            let spec = p.spec(alpha.unwrap_or(1.0));
            pots.push((*p, crate::potential::parse(&spec)?));
        }
        let eps_cache = RefCell::new(Vec::new());
        let sets = match self.set_consts.0 {
            Some(d) if self.slots.iter().any(|q| matches!(q, Quantity::Set(_))) => {
                Some(crate::claim::bin_sets::Params::new(
                    n,
                    &consts[d].1,
                    self.alpha.map(|a| consts[a].1.clone()),
                    self.set_consts.1.map(|e| &consts[e].1),
                )?)
            }
            _ => None,
        };
        Ok(Case {
            ineq: self,
            n,
            alloc,
            consts,
            pots,
            eps_cache,
            sets,
            hyp: std::cell::Cell::new((0, 0)),
        })
    }

    /// Runs every case; `overrides` fixes constants (constant finder). Returns the verdict.
    fn run_with(
        &self,
        ctx: &mut RunContext,
        ns: &[usize],
        overrides: &BTreeMap<usize, f64>,
        stop_early: bool,
    ) -> Result<Verdict> {
        let f = &self.t.file;
        let tol = f.tolerance;
        let mut searched = Searched {
            n: ns.to_vec(),
            constant_combinations: self.combos(overrides).len(),
            exhaustive_bound: f.domain.get_ref().exhaustive.map(|e| (e.max_n, e.max_load)),
            ..Searched::default()
        };
        let mut worst: Option<WorstState> = None;
        let mut violation: Option<ViolationState> = None;
        let mut all_exact = true;
        let mut hyp = (0u64, 0u64);
        let mut sources = 0;
        let mut case_index = 0;
        // A time budget is shared evenly by the cases (vector quantifiers count as one source).
        let t0 = std::time::Instant::now();
        let total_cases = (ns.len() * self.sources.len() * self.combos(overrides).len()).max(1);
        let case_deadline = |k: usize| {
            ctx.deadline.map(|d| {
                t0 + d
                    .saturating_duration_since(t0)
                    .mul_f64(k as f64 / total_cases as f64)
            })
        };
        'outer: for &n in ns {
            let allocs = self.allocs(n, f.domain.get_ref().seed)?;
            sources = sources.max(allocs.len());
            for (ai, alloc) in allocs.iter().enumerate() {
                for consts in self.combos(overrides) {
                    case_index += 1;
                    let case = self.case(n, alloc, consts.clone())?;
                    let found: Option<Found>;
                    let best: Option<Found>;
                    if !self.state_dependent {
                        // One evaluation: exact when possible.
                        let loads = vec![0.0; n];
                        let e = case.eval(&loads)?;
                        searched.add("point", 1);
                        match case.eval_exact(&loads) {
                            Ok(Some((_, _, s))) => {
                                searched.add("exact", 1);
                                let holds = self.cmp.holds_exact(&s, &ratio_of(tol));
                                let fnd = Found {
                                    loads,
                                    eval: e,
                                    phase: "exact".into(),
                                };
                                found = (!holds).then(|| fnd.clone());
                                best = Some(fnd);
                            }
                            _ => {
                                all_exact = false;
                                let fnd = Found {
                                    loads,
                                    eval: e,
                                    phase: "point".into(),
                                };
                                found = case.violates(&e).then(|| fnd.clone());
                                best = Some(fnd);
                            }
                        }
                    } else {
                        all_exact = false;
                        let mut round = 0u64;
                        let mut local = StateList::default();
                        loop {
                            let plan = self.plan(ctx, n, case_index, round);
                            let states: &mut dyn search::StateSource = match ctx.states.as_mut() {
                                Some(s) if round == 0 => &mut **s,
                                _ => &mut local,
                            };
                            let r = search::run(&case, &plan, states)?;
                            searched.merge(&r.searched);
                            let done = r.violation.is_some();
                            let until = case_deadline(case_index.min(total_cases));
                            if done || until.is_none_or(|d| std::time::Instant::now() >= d) {
                                found = r.violation;
                                best = r.worst;
                                break;
                            }
                            round += 1;
                        }
                    }
                    if let Some(p) = ctx.progress {
                        p(&format!("{} n={n} {}", self.t.id, alloc.label()));
                    }
                    let (seen, inside) = case.hyp.get();
                    hyp = (hyp.0 + seen, hyp.1 + inside);
                    if let Some(b) = best {
                        let better = worst.as_ref().is_none_or(|w| b.eval.slack < w.1.slack);
                        if better {
                            worst = Some((
                                case.witness(&b),
                                b.eval,
                                n,
                                ai,
                                consts.clone(),
                                b.loads.clone(),
                            ));
                        }
                    }
                    if let Some(v) = found
                        && violation.is_none()
                    {
                        violation = Some((case.witness(&v), v, n, ai, consts.clone()));
                        if stop_early {
                            break 'outer;
                        }
                    }
                }
            }
        }
        searched.sources = sources;
        let mut notes = Vec::new();
        if !self.given.is_empty() {
            notes.push(format!(
                "hypotheses (given) held at {} of {} evaluated states; the others are outside the claim",
                hyp.1, hyp.0
            ));
            if hyp.1 == 0 {
                notes
                    .push("no searched state meets the hypotheses: the search says nothing".into());
                return Ok(Verdict {
                    id: self.t.id.clone(),
                    verdict: Status::Inconclusive,
                    expected: f.expected,
                    trust: Trust::Float,
                    slack: None,
                    witness: None,
                    searched,
                    notes,
                });
            }
        }
        if let Some((mut w, v, n, ai, consts)) = violation {
            // Re-check the counterexample independently.
            let allocs = self.allocs(n, f.domain.get_ref().seed)?;
            let case = self.case(n, &allocs[ai], consts)?;
            let resolution = resolution(&v.eval, tol);
            let (status, trust, recheck) = match case.certify(&v.loads) {
                Certified::Decided {
                    holds,
                    trust,
                    prec,
                    text,
                } => {
                    searched.precision_bits = prec;
                    if holds {
                        (
                            Status::Inconclusive,
                            trust,
                            format!(
                                "the float search saw a violation, but the certified evaluation says the claim holds at this state: {text}"
                            ),
                        )
                    } else {
                        (Status::Refuted, trust, text)
                    }
                }
                Certified::Undecided { prec, text } => {
                    searched.precision_bits = Some(prec);
                    (
                        Status::Inconclusive,
                        Trust::Enclosure,
                        format!("the enclosures do not separate up to {prec} bits: {text}"),
                    )
                }
                Certified::NoRoute(why) => match case.eval_brute(&v.loads) {
                    Ok(e) => {
                        let s = e.slack.to_f64();
                        if case.violates(&e) && -s > resolution {
                            (
                                Status::Refuted,
                                Trust::Float,
                                format!(
                                    "brute-force enumeration of the step: lhs = {}, rhs = {}, slack = {}",
                                    e.lhs, e.rhs, e.slack
                                ),
                            )
                        } else {
                            (
                                Status::Inconclusive,
                                Trust::Float,
                                format!(
                                    "below numerical resolution {resolution:e}: enumeration gives slack {}",
                                    e.slack
                                ),
                            )
                        }
                    }
                    Err(err) => {
                        let s = v.eval.slack.to_f64();
                        if -s > resolution {
                            (
                                Status::Refuted,
                                Trust::Float,
                                format!("closed form only ({err}); {why}"),
                            )
                        } else {
                            (
                                Status::Inconclusive,
                                Trust::Float,
                                format!(
                                    "below numerical resolution {resolution:e}; no independent route ({err}); {why}"
                                ),
                            )
                        }
                    }
                },
            };
            w.recheck = Some(recheck.clone());
            notes.push(format!("re-check: {recheck}"));
            return Ok(Verdict {
                id: self.t.id.clone(),
                verdict: status,
                expected: f.expected,
                trust,
                slack: Some(v.eval.slack.to_f64()).filter(|s| s.is_finite()),
                witness: Some(w),
                searched,
                notes,
            });
        }
        let (mut w, e, wn, wai, wconsts, wloads) =
            worst.ok_or_else(|| Error::Unsupported("nothing was searched".into()))?;
        let resolution = resolution(&e, tol);
        let s = e.slack.to_f64();
        // Certify the tightest state (exact rationals, else enclosures): a `holds` verdict
        // reports the trust level of its tightest state, and a margin below the float
        // resolution is decided there rather than reported as inconclusive.
        let (status, trust) = if all_exact {
            (Status::Holds, Trust::Exact)
        } else {
            let allocs = self.allocs(wn, f.domain.get_ref().seed)?;
            let case = self.case(wn, &allocs[wai], wconsts)?;
            let below = s < resolution;
            if below {
                notes.push(format!(
                    "the smallest float slack {s:e} is below the numerical resolution {resolution:e}"
                ));
            }
            match case.certify(&wloads) {
                Certified::Decided {
                    holds,
                    trust,
                    prec,
                    text,
                } => {
                    searched.precision_bits = prec;
                    let text = format!("certified at the tightest state: {text}");
                    w.recheck = Some(text.clone());
                    notes.push(text);
                    if !holds {
                        return Ok(Verdict {
                            id: self.t.id.clone(),
                            verdict: Status::Refuted,
                            expected: f.expected,
                            trust,
                            slack: Some(s).filter(|s| s.is_finite()),
                            witness: Some(w),
                            searched,
                            notes,
                        });
                    }
                    (Status::Holds, trust)
                }
                Certified::Undecided { prec, text } => {
                    searched.precision_bits = Some(prec);
                    notes.push(format!(
                        "the enclosures at the tightest state do not separate up to {prec} bits: {text}"
                    ));
                    if below {
                        (Status::Inconclusive, Trust::Enclosure)
                    } else {
                        (Status::Holds, Trust::Float)
                    }
                }
                Certified::NoRoute(why) => {
                    notes.push(format!("the tightest state is not certified: {why}"));
                    if below {
                        (Status::Inconclusive, Trust::Float)
                    } else {
                        (Status::Holds, Trust::Float)
                    }
                }
            }
        };
        if status == Status::Holds
            && !all_exact
            && self.exact_capable
            && self.cmp.cmp == crate::claim::expr::Cmp::Eq
        {
            notes.push("every searched state with a rational exact value was settled in exact rationals (integer loads)".into());
        }
        if status == Status::Holds && !all_exact {
            notes.push("holds on the searched space; this is evidence, not a proof".into());
        }
        Ok(Verdict {
            id: self.t.id.clone(),
            verdict: status,
            expected: f.expected,
            trust,
            slack: Some(s).filter(|s| s.is_finite()),
            witness: Some(w),
            searched,
            notes,
        })
    }
}

/// The numerical resolution of a float evaluation: the tolerance plus 1e-11 relative to the
/// larger side.
fn resolution(e: &Eval, tol: f64) -> f64 {
    let scale = e.lhs.abs().max(e.rhs.abs()).to_f64();
    tol + 1e-11 * scale
}

/// The slack of a comparison as an exponential sum: `rhs − lhs` for `<=`, `<`; `lhs − rhs`
/// otherwise.
fn expsum_difference(cmp: &Comparison, l: &ExpSum, r: &ExpSum) -> ExpSum {
    match cmp.cmp {
        crate::claim::expr::Cmp::Le | crate::claim::expr::Cmp::Lt => r.sub(l),
        _ => l.sub(r),
    }
}

/// Whether the comparison holds between two exact exponential sums, with tolerance `tol`.
/// Also returns the largest enclosure precision a sign needed (`None`: decided exactly).
fn expsum_holds(
    cmp: &Comparison,
    l: &ExpSum,
    r: &ExpSum,
    tol: &BigRational,
) -> Result<(bool, Option<u64>)> {
    use crate::claim::expr::Cmp;
    use std::cmp::Ordering::*;
    let d = expsum_difference(cmp, l, r);
    let t = ExpSum::rational(tol.clone());
    Ok(match cmp.cmp {
        Cmp::Le | Cmp::Ge => {
            let (s, p) = d.add(&t).sign_with_precision()?;
            (s != Less, p)
        }
        Cmp::Lt | Cmp::Gt => {
            let (s, p) = d.add(&t).sign_with_precision()?;
            (s == Greater, p)
        }
        Cmp::Eq => {
            let (a, pa) = t.sub(&d).sign_with_precision()?;
            let (b, pb) = t.add(&d).sign_with_precision()?;
            (a != Less && b != Less, pa.max(pb))
        }
    })
}

/// Slot values as exponential sums.
struct SumEnv(Vec<Option<ExpSum>>);

impl crate::claim::expsum::ExpSumEnv for SumEnv {
    fn var(&self, slot: usize) -> Option<ExpSum> {
        self.0.get(slot).cloned().flatten()
    }
}

impl Check for Inequality {
    fn run(&self, ctx: &mut RunContext) -> Result<Verdict> {
        let ns = self.t.file.domain.get_ref().n.clone();
        self.run_with(ctx, &ns, &BTreeMap::new(), true)
    }

    fn tighten(
        &self,
        name: &str,
        ns: Option<&[usize]>,
        ctx: &mut RunContext,
    ) -> Result<ConstantReport> {
        let idx = self
            .const_names
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| {
                Error::unknown(
                    "constant",
                    name,
                    &self
                        .const_names
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>(),
                )
            })?;
        let dir = *self.t.file.tighten.get(name).ok_or_else(|| {
            Error::invalid(
                "--name",
                format!(
                    "`{name}` has no direction in the file's [tighten] table (smallest or largest)"
                ),
            )
        })?;
        let start = self.grids[idx][0].0;
        let ns: Vec<usize> = ns
            .map(|v| v.to_vec())
            .unwrap_or_else(|| self.t.file.domain.get_ref().n.clone());
        let mut per_n = Vec::new();
        for n in ns {
            if n < 2 {
                return Err(Error::invalid(
                    "--n",
                    format!("n must be at least 2, got {n}"),
                ));
            }
            self.allocs(n, 0)?;
            let mut holds = |v: f64| -> Result<bool> {
                let mut o = BTreeMap::new();
                o.insert(idx, v);
                let verdict = self.run_with(ctx, &[n], &o, true)?;
                Ok(verdict.verdict != Status::Refuted)
            };
            let value = search::bisect(dir, start, 1e-6, &mut holds)?;
            let mut o = BTreeMap::new();
            o.insert(idx, value);
            let witness = self.run_with(ctx, &[n], &o, true)?.witness;
            per_n.push(Tightest { n, value, witness });
        }
        let pts: Vec<(f64, f64)> = per_n.iter().map(|t| (t.n as f64, t.value)).collect();
        let fits = if pts.len() >= 2 {
            search::fit_growth(&pts)
        } else {
            vec![]
        };
        Ok(ConstantReport {
            id: self.t.id.clone(),
            name: name.to_string(),
            direction: dir,
            per_n,
            fits,
        })
    }
}

/// The allocation vectors of the quantifier "every sorted p with C1(δ, ε) and C2(C)" at n: step
/// vectors (eq. (3.2) of Los–Sauerwald, SPAA 2022, and step vectors with a larger bias or a later
/// step that still meet both conditions) and `random` vectors mixing a random non-decreasing
/// vector with the most biased step vector, pushed to the boundary of C1 by bisection.
fn vectors(
    n: usize,
    delta: &BigRational,
    eps: &BigRational,
    c2: &BigRational,
    random: usize,
    seed: u64,
) -> Result<Vec<Alloc>> {
    let k = crate::condition::delta_n(n, delta)?;
    let nn = BigRational::from_integer(BigInt::from(n));
    let one = BigRational::one();
    let step = |kk: usize, e: &BigRational| -> Option<Vec<BigRational>> {
        // heavy part (1 − e)/n on ranks ≤ kk, light part chosen so the sum is 1.
        let a = (&one - e) / &nn;
        let rest = &one - &a * BigRational::from_integer(BigInt::from(kk));
        let b = rest / BigRational::from_integer(BigInt::from(n - kk));
        if b < a {
            return None;
        }
        Some(
            (0..n)
                .map(|i| if i < kk { a.clone() } else { b.clone() })
                .collect(),
        )
    };
    let ok = |p: &[BigRational]| c1_violation(p, k, eps).is_none() && c2_violation(p, c2).is_none();
    // The largest bias whose step vector at k meets C2: 1 + e·k/(n − k) ≤ C.
    let kn = BigRational::from_integer(BigInt::from(k));
    let nk = BigRational::from_integer(BigInt::from(n - k));
    let emax = ((c2 - &one) * &nk / &kn).min(one.clone() - BigRational::new(1.into(), 1000.into()));
    let mut cands: Vec<(String, Vec<BigRational>)> = Vec::new();
    let q = step(k, eps).ok_or_else(|| Error::invalid("vectors", "ε ≥ 1 leaves no step vector"))?;
    if !ok(&q) {
        return Err(Error::invalid(
            "[setting.vectors]",
            format!(
                "the extremal vector q of eq. (3.2) violates C2({c2}) at n = {n}: C must be at least n·max q = {}",
                best_c(&q).c
            ),
        ));
    }
    cands.push((format!("q(delta={delta},eps={eps})"), q));
    let emid = (eps + &emax) / BigRational::from_integer(2.into());
    for e in [emid, emax.clone()] {
        for kk in [k, k + 1, k + 2, (k + n) / 2] {
            if kk >= 1
                && kk < n
                && let Some(v) = step(kk, &e)
                && ok(&v)
                && !cands.iter().any(|(_, c)| *c == v)
            {
                cands.push((format!("step(k={kk},eps={e})"), v));
            }
        }
    }
    let strongest = step(k, &emax)
        .filter(|v| ok(v))
        .unwrap_or_else(|| cands[0].1.clone());
    let strongest_f: Vec<f64> = strongest.iter().map(ratio_f64).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (n as u64).wrapping_mul(0x51_7cc1_b727_220a));
    let eps_f = ratio_f64(eps);
    let c2_f = ratio_f64(c2);
    for j in 0..random {
        let mut r: Vec<f64> = (0..n)
            .map(|_| rng.random_range(0.0..1.0f64).powi(1 + (j % 3) as i32))
            .collect();
        r.sort_by(|a, b| a.total_cmp(b));
        let s: f64 = r.iter().sum();
        r.iter_mut().for_each(|v| *v /= s);
        let mix = |l: f64| -> Vec<f64> {
            r.iter()
                .zip(&strongest_f)
                .map(|(a, b)| (1.0 - l) * a + l * b)
                .collect()
        };
        let pass = |p: &[f64]| {
            c1_violation(p, k, &(eps_f * (1.0 + 1e-9))).is_none()
                && c2_violation(p, &(c2_f * (1.0 - 1e-9))).is_none()
        };
        let (mut lo, mut hi) = (0.0, 1.0);
        if pass(&mix(0.0)) {
            hi = 0.0;
        } else {
            for _ in 0..40 {
                let m = 0.5 * (lo + hi);
                if pass(&mix(m)) {
                    hi = m;
                } else {
                    lo = m;
                }
            }
        }
        let p = mix(hi);
        if !pass(&p) {
            continue;
        }
        // Exact companion: the dyadic values, renormalised to sum 1.
        let ex: Vec<BigRational> = p
            .iter()
            .map(|v| BigRational::from_float(*v).unwrap_or_else(BigRational::zero))
            .collect();
        let sum: BigRational = ex.iter().fold(BigRational::zero(), |a, b| a + b);
        let ex: Vec<BigRational> = ex.into_iter().map(|v| v / &sum).collect();
        cands.push((format!("random#{j}"), ex));
    }
    Ok(cands
        .into_iter()
        .map(|(label, exact)| Alloc::Vector {
            label,
            p: exact.iter().map(ratio_f64).collect(),
            exact,
        })
        .collect())
}

/// One case: n, allocation, constants.
struct Case<'a> {
    ineq: &'a Inequality,
    n: usize,
    alloc: &'a Alloc,
    consts: Vec<(f64, BigRational)>,
    pots: Vec<(Pot, Box<dyn Potential>)>,
    eps_cache: RefCell<Vec<(u64, XFloat)>>,
    /// The parameters of the set sums (δn, α, q), when the claim uses them.
    sets: Option<crate::claim::bin_sets::Params>,
    /// States evaluated with hypotheses, and among them those where every hypothesis held.
    hyp: std::cell::Cell<(u64, u64)>,
}

struct StateEnv<'a> {
    vals: &'a [XFloat],
    p_rank: &'a [f64],
    case: &'a Case<'a>,
}

impl Env for StateEnv<'_> {
    fn var(&self, slot: usize) -> XFloat {
        self.vals[slot]
    }
    fn p(&self, i: usize) -> std::result::Result<XFloat, String> {
        self.p_rank
            .get(i.wrapping_sub(1))
            .map(|v| XFloat::from_f64(*v))
            .ok_or_else(|| format!("p({i}): rank out of range 1..{}", self.p_rank.len()))
    }
    fn eps1(&self, delta: f64) -> std::result::Result<XFloat, String> {
        let fixed = self.case.alloc.rank_vector().is_some();
        if fixed
            && let Some((_, v)) = self
                .case
                .eps_cache
                .borrow()
                .iter()
                .find(|(d, _)| *d == delta.to_bits())
        {
            return Ok(*v);
        }
        let n = self.p_rank.len();
        let k = delta * n as f64;
        if (k - k.round()).abs() > 1e-9 || k.round() < 1.0 || k.round() >= n as f64 {
            return Err(format!(
                "eps1({delta}): δn = {k} must be an integer in 1..{n}"
            ));
        }
        let b = best_eps(self.p_rank, k.round() as usize).map_err(|e| e.to_string())?;
        let v = XFloat::from_f64(b.eps);
        if fixed {
            self.case.eps_cache.borrow_mut().push((delta.to_bits(), v));
        }
        Ok(v)
    }
}

/// The result of certifying a claim at one state.
enum Certified {
    /// Decided: whether the claim holds there, at which trust and precision, and both sides.
    Decided {
        holds: bool,
        trust: Trust,
        prec: Option<u64>,
        text: String,
    },
    /// The enclosures still overlap at the largest precision.
    Undecided { prec: u64, text: String },
    /// Some quantity has neither an exact value nor an enclosure.
    NoRoute(String),
}

/// Exact slots plus enclosures of the exponential ones.
struct EnclosureState<'a, 'b> {
    exact: &'b ExactState<'a>,
    iv: Vec<Option<Interval>>,
}

impl ExactEnv for EnclosureState<'_, '_> {
    fn var(&self, slot: usize) -> Option<BigRational> {
        self.exact.var(slot)
    }
    fn p(&self, i: usize) -> Option<BigRational> {
        self.exact.p(i)
    }
    fn eps1(&self, delta: &BigRational) -> Option<BigRational> {
        self.exact.eps1(delta)
    }
}

impl IntervalEnv for EnclosureState<'_, '_> {
    fn var_interval(&self, slot: usize, _prec: u64) -> Option<Interval> {
        self.iv[slot].clone()
    }
}

struct ExactState<'a> {
    vals: Vec<Option<BigRational>>,
    p_rank: Option<&'a [BigRational]>,
}

impl ExactEnv for ExactState<'_> {
    fn var(&self, slot: usize) -> Option<BigRational> {
        self.vals[slot].clone()
    }
    fn p(&self, i: usize) -> Option<BigRational> {
        self.p_rank?.get(i.checked_sub(1)?).cloned()
    }
    fn eps1(&self, delta: &BigRational) -> Option<BigRational> {
        let p = self.p_rank?;
        let k = crate::condition::delta_n(p.len(), delta).ok()?;
        best_eps(p, k).ok().map(|b| b.eps)
    }
}

/// The first-order term of one step (Los–Sauerwald SPAA 2022 §3, outline item 3) for rank
/// probabilities `p` (heaviest first) at normalised loads `y`: `α Σᵢ Φᵢ(pᵢ − 1/n)` (Φ),
/// `α Σᵢ Ψᵢ(1/n − pᵢ)` (Ψ) or their sum (Γ), with `Φᵢ = e^{αyᵢ}`, `Ψᵢ = e^{−αyᵢ}` in extended
/// range. The sum runs over blocks of tied loads, `Σ_B Φ_B·(Σ_{i∈B} pᵢ − |B|/n)`: this is exact
/// under any tie rule (tied bins have equal `Φᵢ`), and when the rank vector is known in rationals
/// (`exact`) each block's excess probability is computed exactly, so states at which two vectors
/// give the same value mathematically (e.g. y ≡ 0, where every term vanishes) give the same float.
fn first_order(
    pot: Pot,
    y: &[f64],
    p: &[f64],
    exact: Option<&[BigRational]>,
    alpha: f64,
) -> std::result::Result<XFloat, String> {
    let n = y.len();
    if p.len() != n || exact.is_some_and(|e| e.len() != n) {
        return Err(format!(
            "first-order term: {} probabilities for {n} bins",
            p.len()
        ));
    }
    let mut ys = y.to_vec();
    ys.sort_by(|a, b| b.total_cmp(a));
    let nn = BigRational::from_integer(BigInt::from(n));
    let a = XFloat::from_f64(alpha);
    let mut acc = XFloat::from_f64(0.0);
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && ys[j] == ys[i] {
            j += 1;
        }
        let d = match exact {
            Some(e) => {
                let sum: BigRational = e[i..j].iter().sum();
                ratio_f64(&(sum - BigRational::from_integer(BigInt::from(j - i)) / &nn))
            }
            None => p[i..j].iter().sum::<f64>() - (j - i) as f64 / n as f64,
        };
        let d = XFloat::from_f64(d);
        let phi = XFloat::exp(XFloat::from_f64(alpha * ys[i]));
        let psi = XFloat::exp(XFloat::from_f64(-alpha * ys[i]));
        let term = match pot {
            Pot::Phi => phi.mul(d),
            Pot::Psi => psi.mul(d).neg(),
            Pot::Gamma => phi.sub(psi).mul(d),
            _ => return Err("F_ and Fq_ are defined for Phi, Psi and Gamma only".into()),
        };
        acc = acc.add(term);
        i = j;
    }
    Ok(acc.mul(a))
}

impl Case<'_> {
    /// The exact step law and sides of a mean-bias claim at `loads` (`None` when the claim uses
    /// no mean-bias quantity).
    fn bias_state(&self, loads: &Loads) -> Result<Option<crate::claim::mean_bias::BiasState>> {
        if !self
            .ineq
            .slots
            .iter()
            .any(|q| matches!(q, Quantity::Bias(_)))
        {
            return Ok(None);
        }
        match self.alloc {
            Alloc::Process { process, .. } => Ok(Some(crate::claim::mean_bias::BiasState::new(
                process.as_ref(),
                loads,
                self.ineq.setting.ties,
            )?)),
            _ => Err(Error::Unsupported(
                "the mean-bias quantities need a process".into(),
            )),
        }
    }

    /// The constant `k` of `MB(k)`, exactly.
    fn k(&self) -> Option<&BigRational> {
        self.ineq.k_index.map(|i| &self.consts[i].1)
    }

    /// The value of the constant `alpha`.
    fn alpha(&self) -> Option<f64> {
        self.ineq.alpha.map(|i| self.consts[i].0)
    }

    /// The extremal vector q of eq. (3.2) for the `vectors` quantifier's δ and ε, in rationals:
    /// `qᵢ = (1 − ε)/n` for `i ≤ δn`, `(1 + εδ/(1 − δ))/n` otherwise.
    fn extremal_q(&self) -> Option<Vec<BigRational>> {
        let (delta, eps) = self.ineq.sources.iter().find_map(|s| match s {
            SourceSpec::Vectors { delta, eps, .. } => Some((delta.clone(), eps.clone())),
            _ => None,
        })?;
        let n = self.n;
        let k = crate::condition::delta_n(n, &delta).ok()?;
        let one = BigRational::one();
        let nn = BigRational::from_integer(BigInt::from(n));
        let heavy = (&one - &eps) / &nn;
        let light = (&one + &eps * &delta / (&one - &delta)) / &nn;
        Some(
            (0..n)
                .map(|i| if i < k { heavy.clone() } else { light.clone() })
                .collect(),
        )
    }

    fn law(&self, loads: &Loads) -> Result<(Option<StepLaw>, Vec<f64>)> {
        let ties = self.ineq.setting.ties;
        match self.alloc {
            Alloc::None => Ok((None, vec![])),
            Alloc::Process {
                process, p: None, ..
            } => {
                let law = process.step_law(loads, ties)?;
                let by_rank = loads.ranking().by_rank(&law.per_bin_probability());
                Ok((Some(law), by_rank))
            }
            _ => {
                let p = self.alloc.rank_vector().expect("rank vector");
                let law = StepLaw::unit(loads.ranking().per_bin(p, ties));
                Ok((Some(law), p.to_vec()))
            }
        }
    }

    /// Slot values at a state; `brute` computes expectations by enumeration.
    ///
    /// Without `brute`, the expectations of potentials with a level form are computed per load
    /// level ([`LevelLaw`], one evaluation per distinct load) when the allocation has a rank
    /// vector, and per bin otherwise; the step law, the rank vector and the normalised loads are
    /// built only when a quantity uses them.
    fn values(&self, x: &[f64], brute: bool) -> Result<(Vec<XFloat>, Vec<f64>)> {
        let loads = Loads::new(x.to_vec())?;
        let n = self.n as f64;
        let slots = &self.ineq.slots;
        let needs_p = slots.iter().any(|q| {
            *q == Quantity::C2
                || matches!(q, Quantity::Pot(_, Stat::FirstOrder | Stat::FirstOrderQ))
        }) || self.ineq.cmp.calls(Func::P)
            || self.ineq.cmp.calls(Func::Eps1);
        let needs_y = slots.iter().any(|q| {
            matches!(
                q,
                Quantity::YMax
                    | Quantity::YMin
                    | Quantity::FracOver
                    | Quantity::Set(_)
                    | Quantity::Pot(_, Stat::FirstOrder | Stat::FirstOrderQ)
            )
        });
        // The per-bin step law and the allocation vector by rank, built on first use.
        let mut law: Option<(Option<StepLaw>, Vec<f64>)> = None;
        let p_rank = if needs_p {
            match self.alloc.rank_vector() {
                Some(p) => p.to_vec(),
                None => law.insert(self.law(&loads)?).1.clone(),
            }
        } else {
            vec![]
        };
        // The grouped law (rank-vector allocations only), built on first use.
        let mut level_law: Option<LevelLaw> = None;
        let y = if needs_y { loads.normalized() } else { vec![] };
        let bias = self.bias_state(&loads)?;
        let mut pot_vals: Vec<Option<(XFloat, XFloat, XFloat)>> = vec![None; self.pots.len()];
        let mut vals = Vec::with_capacity(slots.len());
        for q in slots {
            let v = match q {
                Quantity::N => XFloat::from_f64(n),
                Quantity::B => XFloat::from_f64(self.ineq.setting.batch as f64),
                Quantity::Const(i) => XFloat::from_f64(self.consts[*i].0),
                Quantity::Gap => XFloat::from_f64(loads.gap()),
                Quantity::Spread => XFloat::from_f64(loads.spread()),
                Quantity::YMax => {
                    XFloat::from_f64(y.iter().copied().fold(f64::NEG_INFINITY, f64::max))
                }
                Quantity::YMin => XFloat::from_f64(y.iter().copied().fold(f64::INFINITY, f64::min)),
                Quantity::FracOver => {
                    XFloat::from_f64(y.iter().filter(|v| **v >= 0.0).count() as f64 / n)
                }
                Quantity::C2 => XFloat::from_f64(n * p_rank.iter().copied().fold(0.0, f64::max)),
                Quantity::Bias(q) => {
                    let st = bias.as_ref().expect("bias state built when used");
                    XFloat::from_f64(ratio_f64(&st.value(*q, self.k())?))
                }
                Quantity::Set(q) => {
                    let params = self.sets.as_ref().expect("set parameters built when used");
                    crate::claim::bin_sets::value(*q, &y, params)
                }
                Quantity::Pot(p, stat @ (Stat::FirstOrder | Stat::FirstOrderQ)) => {
                    let (q_f, q_x);
                    let (probs, exact): (&[f64], Option<&[BigRational]>) =
                        if *stat == Stat::FirstOrder {
                            (&p_rank, self.alloc.rank_vector_exact())
                        } else {
                            q_x = self.extremal_q().ok_or_else(|| {
                                Error::invalid(
                                    self.ineq.t.file_name(),
                                    "Fq_ quantities need `vectors` in [setting]",
                                )
                            })?;
                            q_f = q_x.iter().map(ratio_f64).collect::<Vec<f64>>();
                            (&q_f, Some(&q_x))
                        };
                    let alpha = self.alpha().ok_or_else(|| {
                        Error::invalid(
                            self.ineq.t.file_name(),
                            "F_ quantities need the constant `alpha`",
                        )
                    })?;
                    first_order(*p, &y, probs, exact, alpha)
                        .map_err(|e| Error::invalid(self.ineq.t.file_name(), e))?
                }
                Quantity::Pot(p, stat) => {
                    let j = self
                        .pots
                        .iter()
                        .position(|(q, _)| q == p)
                        .expect("potential built");
                    let pot = self.pots[j].1.as_ref();
                    let needs_expectation = slots
                        .iter()
                        .any(|q| matches!(q, Quantity::Pot(r, st) if r == p && *st != Stat::Value));
                    if *stat == Stat::Value && !needs_expectation {
                        XFloat::from_scaled(&pot.value(&loads))
                    } else {
                        if pot_vals[j].is_none() {
                            let setting = &self.ineq.setting;
                            let by_levels = match self.alloc.rank_vector() {
                                Some(p)
                                    if !brute
                                        && pot.has_level_form(setting)
                                        && (setting.batch == 1
                                            || setting.ties == TieRule::Random) =>
                                {
                                    let ll = match &level_law {
                                        Some(l) => l,
                                        None => level_law.insert(LevelLaw::of_rank_vector(
                                            p,
                                            &loads.levels(),
                                            setting.ties,
                                        )),
                                    };
                                    crate::expectation::expect_level_law(ll, pot, setting)?
                                        .map(|(v, e)| (v, e.next, e.change))
                                }
                                _ => None,
                            };
                            let (value, next, change) = match by_levels {
                                Some(t) => t,
                                None => {
                                    if law.is_none() {
                                        law = Some(self.law(&loads)?);
                                    }
                                    let law =
                                        law.as_ref().and_then(|(l, _)| l.as_ref()).ok_or_else(
                                            || Error::Unsupported("no allocation".into()),
                                        )?;
                                    if brute {
                                        let value = pot.value(&loads);
                                        let next = crate::expectation::brute_force_law(
                                            law, pot, &loads, setting,
                                        )?;
                                        (value, next, next.add(&value.scale(-1.0)))
                                    } else {
                                        let e = crate::expectation::expect_law(
                                            law, pot, &loads, setting,
                                        )?;
                                        (e.value, e.expected_next, e.expected_change)
                                    }
                                }
                            };
                            pot_vals[j] = Some((
                                XFloat::from_scaled(&value),
                                XFloat::from_scaled(&next),
                                XFloat::from_scaled(&change),
                            ));
                        }
                        let (v, e, c) = pot_vals[j].expect("computed");
                        match stat {
                            Stat::Expected => e,
                            Stat::Change => c,
                            Stat::Ratio => e.div(v),
                            Stat::Value | Stat::FirstOrder | Stat::FirstOrderQ => v,
                        }
                    }
                }
            };
            vals.push(v);
        }
        Ok((vals, p_rank))
    }

    fn eval_with(&self, x: &[f64], brute: bool) -> Result<Eval> {
        let (vals, p_rank) = self.values(x, brute)?;
        let env = StateEnv {
            vals: &vals,
            p_rank: &p_rank,
            case: self,
        };
        let file = self.ineq.t.file_name();
        if !self.ineq.given.is_empty() {
            let mut held = true;
            for g in &self.ineq.given {
                let l = g.lhs.eval(&env).map_err(|e| Error::invalid(&file, e))?;
                let r = g.rhs.eval(&env).map_err(|e| Error::invalid(&file, e))?;
                if !g.holds(g.slack(l, r, 0.0), 0.0) {
                    held = false;
                    break;
                }
            }
            let (seen, inside) = self.hyp.get();
            self.hyp.set((seen + 1, inside + u64::from(held)));
            if !held {
                // Outside the hypotheses: not a state the claim is about. An enormous slack keeps
                // it out of violations and tightest states.
                let huge = XFloat::exp(XFloat::from_f64(1e15));
                return Ok(Eval {
                    lhs: XFloat::ZERO,
                    rhs: XFloat::ZERO,
                    slack: huge,
                });
            }
        }
        let lhs = self
            .ineq
            .cmp
            .lhs
            .eval(&env)
            .map_err(|e| Error::invalid(&file, e))?;
        let rhs = self
            .ineq
            .cmp
            .rhs
            .eval(&env)
            .map_err(|e| Error::invalid(&file, e))?;
        if lhs.is_nan() || rhs.is_nan() {
            return Err(Error::invalid(
                &file,
                format!(
                    "the claim is not a number at n = {}, loads {:?} (lhs {lhs}, rhs {rhs})",
                    self.n, x
                ),
            ));
        }
        let mut slack = self.ineq.cmp.slack(lhs, rhs, self.ineq.t.file.tolerance);
        // Near a tie, rounding decides the sign: settle it exactly when the claim is polynomial.
        // An identity (`==`) is settled exactly at every state: its two sides are often near 0,
        // where a relative resolution cannot separate rounding from a real difference.
        if !brute && self.ineq.exact_capable {
            let e = Eval { lhs, rhs, slack };
            let identity = self.ineq.cmp.cmp == crate::claim::expr::Cmp::Eq;
            if (identity || slack.abs().to_f64() <= resolution(&e, self.ineq.t.file.tolerance))
                && let Some((_, _, s)) = self.eval_exact(x)?
            {
                slack = XFloat::from_f64(s.to_f64().unwrap_or(0.0));
            }
        }
        // Exponential sums: a near tie is settled exactly (equal exponential sums give slack 0;
        // otherwise the sign is certain and the magnitude is that of a 128-bit enclosure).
        if !brute && self.ineq.expsum_capable {
            let e = Eval { lhs, rhs, slack };
            if slack.abs().to_f64() <= resolution(&e, self.ineq.t.file.tolerance)
                && let Some((l, r)) = self.expsum_sides(x)?
            {
                let tol = ratio_of(self.ineq.t.file.tolerance);
                let d = expsum_difference(&self.ineq.cmp, &l, &r);
                if d.is_zero() {
                    slack = match self.ineq.cmp.cmp {
                        crate::claim::expr::Cmp::Eq => XFloat::from_f64(self.ineq.t.file.tolerance),
                        _ => XFloat::ZERO,
                    };
                } else if let Ok(sign) = d.sign() {
                    let mid = d.enclose(128).map(|i| i.mid_f64()).unwrap_or(f64::NAN);
                    let signed = match sign {
                        std::cmp::Ordering::Greater => mid.abs().max(f64::MIN_POSITIVE),
                        _ => -mid.abs().max(f64::MIN_POSITIVE),
                    };
                    slack = match self.ineq.cmp.cmp {
                        crate::claim::expr::Cmp::Eq => {
                            XFloat::from_f64(ratio_f64(&tol) - signed.abs())
                        }
                        _ => XFloat::from_f64(signed),
                    };
                }
            }
        }
        Ok(Eval { lhs, rhs, slack })
    }

    fn eval_brute(&self, x: &[f64]) -> Result<Eval> {
        self.eval_with(x, true)
    }

    /// Exact (lhs, rhs, slack), or `None` when some quantity has no exact value.
    fn eval_exact(&self, x: &[f64]) -> Result<Option<(BigRational, BigRational, BigRational)>> {
        if !self.ineq.exact_capable {
            return Ok(None);
        }
        self.exact_of(x)
    }

    /// The exact law of one step at `x`: the exact rank vector with ties applied, or
    /// [`Process::step_law_exact`] for processes whose probabilities depend on the loads.
    fn exact_law(&self, x: &[f64]) -> Result<Option<ExactStepLaw>> {
        let loads = Loads::new(x.to_vec())?;
        let ties = self.ineq.setting.ties;
        match self.alloc {
            Alloc::None => Ok(None),
            Alloc::Process { process, .. } => process
                .step_law_exact(&loads, ties)?
                .map(|l| ExactStepLaw::from_process_law(&l))
                .transpose(),
            Alloc::Vector { exact, .. } => {
                Ok(Some(ExactStepLaw::from_rank_vector(exact, &loads, ties)?))
            }
        }
    }

    /// Exact (lhs, rhs, slack) without the compile-time gate: `None` when some quantity used has
    /// no exact value at this state.
    fn exact_of(&self, x: &[f64]) -> Result<Option<(BigRational, BigRational, BigRational)>> {
        let (vals, _) = self.exact_slots(x)?;
        let env = ExactState {
            vals,
            p_rank: self.alloc.rank_vector_exact(),
        };
        let (l, r) = match (
            self.ineq.cmp.lhs.eval_exact(&env),
            self.ineq.cmp.rhs.eval_exact(&env),
        ) {
            (Ok(l), Ok(r)) => (l, r),
            _ => return Ok(None),
        };
        let s = self
            .ineq
            .cmp
            .slack_exact(&l, &r, &ratio_of(self.ineq.t.file.tolerance));
        Ok(Some((l, r, s)))
    }

    /// Exact slot values at `x` (`None` for a slot without an exact value) and the exact step law.
    /// The expectations of Υ and Δ use the exact per-bin probabilities of a one-ball law
    /// (rank-based or load-dependent via [`Process::step_law_exact`]) with unit weights.
    #[allow(clippy::type_complexity)]
    fn exact_slots(&self, x: &[f64]) -> Result<(Vec<Option<BigRational>>, Option<ExactStepLaw>)> {
        let ex: Vec<BigRational> = x
            .iter()
            .map(|v| BigRational::from_float(*v).unwrap_or_else(BigRational::zero))
            .collect();
        let n = x.len();
        let nn = BigRational::from_integer(BigInt::from(n));
        let total = ex.iter().fold(BigRational::zero(), |a, b| a + b);
        let mean = &total / &nn;
        let y: Vec<BigRational> = ex.iter().map(|v| v - &mean).collect();
        let p_rank = self.alloc.rank_vector_exact();
        let law = self.exact_law(x)?;
        let per_bin: Option<Vec<BigRational>> = law
            .as_ref()
            .filter(|l| l.is_unit() && self.ineq.setting.weights.is_unit())
            .map(|l| l.per_bin_probability());
        let b = self.ineq.setting.batch;
        let loads = Loads::new(x.to_vec())?;
        let bias = self.bias_state(&loads)?;
        // A load-dependent process: its exact step law, when it has one.
        let law_exact = match self.alloc {
            Alloc::Process {
                process, p: None, ..
            } if b == 1 => process.step_law_exact(&loads, self.ineq.setting.ties)?,
            _ => None,
        };
        let sq = |y: &[BigRational]| y.iter().fold(BigRational::zero(), |a, v| a + v * v);
        let ab = |y: &[BigRational]| {
            y.iter()
                .fold(BigRational::zero(), |a, v| a + num_traits::Signed::abs(v))
        };
        let expected = |pot: Pot| -> Option<BigRational> {
            if pot.exponential() {
                return None;
            }
            if let Some(law) = &law_exact {
                // Enumeration of the exact outcomes (balls per outcome included).
                let f = if pot == Pot::Upsilon { sq(&y) } else { ab(&y) };
                let change = match pot {
                    Pot::Upsilon => crate::bias::identity::expected_change_exact(
                        law,
                        &y,
                        crate::bias::identity::upsilon,
                    ),
                    Pot::Delta => crate::bias::identity::expected_change_exact(
                        law,
                        &y,
                        crate::bias::identity::absolute,
                    ),
                    _ => return None,
                };
                return Some(f + change);
            }
            let r = per_bin.as_ref()?;
            let inv = BigRational::one() / &nn;
            if b == 1 {
                // Σ_j r_j f(y + e_j − 𝟙/n)
                let mut acc = BigRational::zero();
                for (j, rj) in r.iter().enumerate() {
                    if rj.is_zero() {
                        continue;
                    }
                    let yj: Vec<BigRational> = y
                        .iter()
                        .enumerate()
                        .map(|(i, v)| {
                            if i == j {
                                v + BigRational::one() - &inv
                            } else {
                                v - &inv
                            }
                        })
                        .collect();
                    acc += rj
                        * if pot == Pot::Upsilon {
                            sq(&yj)
                        } else {
                            ab(&yj)
                        };
                }
                Some(acc)
            } else if pot == Pot::Upsilon {
                // Σ [y² + 2b y μ + b ν + b(b − 1) μ²], μ = r − 1/n, ν = r(1 − 1/n)² + (1 − r)/n².
                let bb = BigRational::from_integer(BigInt::from(b));
                let one = BigRational::one();
                let mut acc = BigRational::zero();
                for (yi, ri) in y.iter().zip(r) {
                    let mu = ri - &inv;
                    let nu = ri * (&one - &inv) * (&one - &inv) + (&one - ri) * &inv * &inv;
                    acc += yi * yi
                        + BigRational::from_integer(2.into()) * &bb * yi * &mu
                        + &bb * nu
                        + &bb * (&bb - &one) * &mu * &mu;
                }
                Some(acc)
            } else {
                None
            }
        };
        let mut vals = Vec::new();
        for q in &self.ineq.slots {
            let v = (|| match q {
                Quantity::N => Some(nn.clone()),
                Quantity::B => Some(BigRational::from_integer(BigInt::from(b))),
                Quantity::Const(i) => Some(self.consts[*i].1.clone()),
                Quantity::Gap => y.iter().max().cloned(),
                Quantity::YMax => y.iter().max().cloned(),
                Quantity::YMin => y.iter().min().cloned(),
                Quantity::Spread => Some(y.iter().max()?.clone() - y.iter().min()?.clone()),
                Quantity::FracOver => Some(BigRational::new(
                    BigInt::from(
                        y.iter()
                            .filter(|v| !num_traits::Signed::is_negative(*v))
                            .count(),
                    ),
                    BigInt::from(n),
                )),
                Quantity::C2 => p_rank.map(|p| best_c(p).c),
                Quantity::Bias(q) => bias.as_ref()?.value(*q, self.k()).ok(),
                Quantity::Set(q) if !q.term.exponential() => {
                    crate::claim::bin_sets::exact(*q, &y, self.sets.as_ref()?)?.as_rational()
                }
                Quantity::Set(_) => None,
                Quantity::Pot(p, stat) => {
                    let value = match p {
                        Pot::Upsilon => Some(sq(&y)),
                        Pot::Delta => Some(ab(&y)),
                        _ => None,
                    };
                    match stat {
                        Stat::Value => value,
                        Stat::Expected => expected(*p),
                        Stat::Change => Some(expected(*p)? - value?),
                        Stat::FirstOrder | Stat::FirstOrderQ => None,
                        Stat::Ratio => {
                            let v = value?;
                            if v.is_zero() {
                                None
                            } else {
                                Some(expected(*p)? / v)
                            }
                        }
                    }
                }
            })();
            vals.push(v);
        }
        Ok((vals, law))
    }

    /// Enclosures of the exponential slots at `x` at `prec` bits (`None` for other slots).
    fn enclose_slots(
        &self,
        x: &[f64],
        law: Option<&ExactStepLaw>,
        prec: u64,
    ) -> Result<Vec<Option<Interval>>> {
        let xs: Vec<BigRational> = x
            .iter()
            .map(|v| crate::exact::from_f64(*v, "loads"))
            .collect::<Result<_>>()?;
        let alpha = self.ineq.alpha.map(|a| self.consts[a].1.clone());
        let mut out = vec![None; self.ineq.slots.len()];
        for (i, q) in self.ineq.slots.iter().enumerate() {
            let Quantity::Pot(p, stat) = q else { continue };
            if matches!(stat, Stat::FirstOrder | Stat::FirstOrderQ) {
                // First-order sums are not enclosed: claims using them stay at float level.
                continue;
            }
            let side = match p {
                Pot::Phi => Side::Phi,
                Pot::Psi => Side::Psi,
                Pot::Gamma => Side::Gamma,
                Pot::Lambda => {
                    // Λ = Σ e^{α|yᵢ|} (paper B): its own enclosure route.
                    let a = alpha
                        .clone()
                        .ok_or_else(|| Error::Unsupported("no alpha".into()))?;
                    out[i] = Some(if *stat == Stat::Value {
                        crate::enclosure::lambda::value(&a, &xs, prec)?
                    } else {
                        let law = law.ok_or_else(|| {
                            Error::Unsupported("no exact step law at this state".into())
                        })?;
                        let setting = ExactSetting::from_setting(&self.ineq.setting)?;
                        let e = crate::enclosure::lambda::enclose(law, &a, &xs, &setting, prec)?;
                        match stat {
                            Stat::Expected => e.expected_next,
                            Stat::Change => e.expected_change,
                            Stat::Ratio => e.expected_next.div(&e.value, prec)?,
                            _ => e.value,
                        }
                    });
                    continue;
                }
                // Υ and Δ are exact.
                Pot::Upsilon | Pot::Delta => continue,
            };
            let a = alpha
                .clone()
                .ok_or_else(|| Error::Unsupported("no alpha".into()))?;
            let spec = ExpSpec::new(side, a)?;
            let v = if *stat == Stat::Value {
                exponential::value(&spec, &xs, prec)?
            } else {
                let law = law
                    .ok_or_else(|| Error::Unsupported("no exact step law at this state".into()))?;
                let setting = ExactSetting::from_setting(&self.ineq.setting)?;
                let e = exponential::enclose(law, &spec, &xs, &setting, prec)?;
                match stat {
                    Stat::Expected => e.expected_next,
                    Stat::Change => e.expected_change,
                    Stat::Ratio => e.expected_next.div(&e.value, prec)?,
                    Stat::Value | Stat::FirstOrder | Stat::FirstOrderQ => e.value,
                }
            };
            out[i] = Some(v);
        }
        Ok(out)
    }

    /// Certifies the claim at one state (DESIGN §3): in exact rationals when every quantity
    /// used is rational there, else by evaluating both sides over enclosures at 64, 128, ...,
    /// 4096 bits until the comparison is decided.
    fn certify(&self, x: &[f64]) -> Certified {
        let tol = ratio_of(self.ineq.t.file.tolerance);
        let (vals, law) = match self.exact_slots(x) {
            Ok(v) => v,
            Err(e) => return Certified::NoRoute(format!("no exact state ({e})")),
        };
        let env = ExactState {
            vals,
            p_rank: self.alloc.rank_vector_exact(),
        };
        let cmp = &self.ineq.cmp;
        if let (Ok(l), Ok(r)) = (cmp.lhs.eval_exact(&env), cmp.rhs.eval_exact(&env)) {
            let s = cmp.slack_exact(&l, &r, &tol);
            return Certified::Decided {
                holds: cmp.holds_exact(&s, &tol),
                trust: Trust::Exact,
                prec: None,
                text: format!("exact rationals: lhs = {l}, rhs = {r}, slack = {s}"),
            };
        }
        if let Ok(Some((l, r))) = self.expsum_sides(x)
            && let Ok((holds, prec)) = expsum_holds(cmp, &l, &r, &tol)
        {
            let d = expsum_difference(cmp, &l, &r);
            let (trust, how) = if d.as_rational().is_some() {
                (Trust::Exact, "exactly".to_string())
            } else {
                (
                    Trust::Enclosure,
                    "non-zero (Lindemann–Weierstrass); its sign by outward-rounded enclosures"
                        .to_string(),
                )
            };
            return Certified::Decided {
                holds,
                trust,
                prec,
                text: format!(
                    "exponential sums: lhs = {:e} ({} terms), rhs = {:e} ({} terms), difference {} after merging equal exponents = {:e} ({} terms), decided {how}",
                    l.to_f64(),
                    l.len(),
                    r.to_f64(),
                    r.len(),
                    match cmp.cmp {
                        crate::claim::expr::Cmp::Le | crate::claim::expr::Cmp::Lt => "rhs − lhs",
                        _ => "lhs − rhs",
                    },
                    d.to_f64(),
                    d.len()
                ),
            };
        }
        let mut last = (0, String::new());
        for prec in Precisions::default().steps() {
            let iv = match self.enclose_slots(x, law.as_ref(), prec) {
                Ok(v) => v,
                Err(e) => return Certified::NoRoute(format!("no enclosure ({e})")),
            };
            let ienv = EnclosureState { exact: &env, iv };
            let (l, r) = match (
                cmp.lhs.eval_interval(&ienv, prec),
                cmp.rhs.eval_interval(&ienv, prec),
            ) {
                (Ok(l), Ok(r)) => (l, r),
                (Err(e), _) | (_, Err(e)) => {
                    return Certified::NoRoute(format!("no enclosure ({e:?})"));
                }
            };
            let slack = match cmp.cmp {
                crate::claim::expr::Cmp::Le | crate::claim::expr::Cmp::Lt => r.sub(&l, prec),
                _ => l.sub(&r, prec),
            };
            let text = format!(
                "enclosures at {prec} bits: lhs ∈ [{:e}, {:e}], rhs ∈ [{:e}, {:e}], rhs − lhs ∈ [{:e}, {:e}] (outward rounding)",
                l.lo_f64(),
                l.hi_f64(),
                r.lo_f64(),
                r.hi_f64(),
                slack.lo_f64(),
                slack.hi_f64()
            );
            if let Some(holds) = cmp.holds_interval(&l, &r, &tol, prec) {
                return Certified::Decided {
                    holds,
                    trust: Trust::Enclosure,
                    prec: Some(prec),
                    text,
                };
            }
            last = (prec, text);
        }
        Certified::Undecided {
            prec: last.0,
            text: last.1,
        }
    }

    /// Both sides as exact exponential sums at `x` ([`crate::claim::expsum`]), when the claim
    /// uses set sums or exponential potential values and every part has that form.
    fn expsum_sides(&self, x: &[f64]) -> Result<Option<(ExpSum, ExpSum)>> {
        if !self.ineq.expsum_capable {
            return Ok(None);
        }
        let (vals, _) = self.exact_slots(x)?;
        let xs: Vec<BigRational> = x
            .iter()
            .map(|v| crate::exact::from_f64(*v, "loads"))
            .collect::<Result<_>>()?;
        let y = crate::exact::normalized(&xs);
        let alpha = self.ineq.alpha.map(|a| self.consts[a].1.clone());
        let mut sums = Vec::with_capacity(vals.len());
        for (q, v) in self.ineq.slots.iter().zip(vals) {
            sums.push(match (v, q) {
                (Some(r), _) => Some(ExpSum::rational(r)),
                (None, Quantity::Set(s)) => self
                    .sets
                    .as_ref()
                    .and_then(|p| crate::claim::bin_sets::exact(*s, &y, p)),
                (None, Quantity::Pot(p @ (Pot::Phi | Pot::Psi | Pot::Gamma), Stat::Value)) => {
                    alpha.as_ref().map(|a| {
                        let mut acc = ExpSum::default();
                        for v in &y {
                            if *p != Pot::Psi {
                                acc.push(BigRational::one(), a * v);
                            }
                            if *p != Pot::Phi {
                                acc.push(BigRational::one(), -(a * v));
                            }
                        }
                        acc
                    })
                }
                _ => None,
            });
        }
        let env = SumEnv(sums);
        let cmp = &self.ineq.cmp;
        Ok(
            match (
                crate::claim::expsum::eval(&cmp.lhs, &env),
                crate::claim::expsum::eval(&cmp.rhs, &env),
            ) {
                (Some(l), Some(r)) => Some((l, r)),
                _ => None,
            },
        )
    }

    fn witness(&self, f: &Found) -> Witness {
        let constants = self
            .ineq
            .const_names
            .iter()
            .zip(&self.consts)
            .map(|(k, v)| (k.clone(), v.0))
            .collect();
        Witness {
            n: self.n,
            loads: if self.ineq.state_dependent {
                f.loads.clone()
            } else {
                vec![]
            },
            source: self.alloc.label(),
            constants,
            lhs: f.eval.lhs.to_string(),
            rhs: f.eval.rhs.to_string(),
            slack: f.eval.slack.to_string(),
            found_by: f.phase.clone(),
            recheck: None,
        }
    }
}

impl Objective for Case<'_> {
    fn n(&self) -> usize {
        self.n
    }
    fn eval(&self, loads: &[f64]) -> Result<Eval> {
        self.eval_with(loads, false)
    }
    fn violates(&self, e: &Eval) -> bool {
        !self.ineq.cmp.holds(e.slack, self.ineq.t.file.tolerance)
    }
}
