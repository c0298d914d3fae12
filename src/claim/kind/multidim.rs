//! The kind `multidim`: one checkable item of Narang–Dutta–Bhattacherjee (arXiv:1111.0762, §3;
//! the functions of [`crate::multidim::claims`]) evaluated over the sum-load states of
//! [`crate::multidim::search`], for every n of the domain, every process of `[setting]` and every
//! combination of the constants `f`, `eps`, `gamma1` (grids allowed; `α = ε/(2f)`).
//!
//! `[claim]` table:
//!
//! | field | meaning |
//! |---|---|
//! | `item` | `gamma-at-zero`, `mass-facts`, `delta-i`, `eq-3-16`, `corollary-1`, `corollary-2`, `lemma-3-5`, `lemma-3-6`, `contraction` |
//! | `potential` | `phi` or `psi` (`delta-i` only) |
//! | `reading` | `printed` or `mirrored`: the reading of `Ψ` (default `printed`) |
//! | `form` | `decrease` or `ptw-shape` (Lemmas 3.5/3.6) |
//! | `a` | the threshold `Γ ≥ a ln n` (`contraction`) |
//! | `c` | the constant of the `O((αf)²/n)` term (`corollary-2`, default 0) |
//! | `states` | `reachable` (the fixed-`f` chain, default) or `integer` (every integer sum-load vector: the chain of random `f`) |
//! | `dims` | `D` of the md-level re-check (default 4, at least `f`) |
//!
//! States: exhaustive enumeration for `2 ≤ n ≤ max_n` with at most `max_load` balls above the
//! lightest bin, the families F1–F7 and `random` seeded random states (seed `seed`) at every n of
//! the domain. `gamma-at-zero` and `mass-facts` do not depend on a state and are evaluated once per
//! n (the mass facts exactly in rationals).
//!
//! Verdicts: `holds` reports the state of smallest relative margin; `refuted` reports the smallest
//! counterexample (fewest bins, then fewest balls above the lightest bin) with both sides, after an
//! independent re-check: the expectation (or, for `delta-i`, the exact change) is recomputed by the
//! md-level enumeration over supports and bins of [`crate::multidim::expectation::expect`] with the
//! sum-load rule, on an md state with `D` dimensions whose sum loads are the counterexample. A
//! re-check that disagrees makes the verdict `inconclusive`.

use super::{Check, KindInfo, RunContext};
use crate::claim::schema::{ConstValue, FileError, Scalar, Theorem};
use crate::claim::verdict::{Searched, Status, Trust, Verdict, Witness};
use crate::enclosure::{Decision, Interval, Precisions, decide_escalating};
use crate::error::{Error, Result};
use crate::exact::Q;
use crate::multidim::claims::{self, Constants, Eq316Form, LemmaForm, TOLERANCE};
use crate::multidim::enclosed::{self, ExactConstants, Outcome};
use crate::multidim::expectation::expect;
use crate::multidim::group_enclosure::GroupSpec;
use crate::multidim::search::{families, integer_exhaustive, random_states, reachable_exhaustive};
use crate::multidim::{BallLaw, GroupPotential, MdLoads, MdRule, PsiReading, Which};
use crate::process::Process;
use crate::xfloat::XFloat;
use std::collections::BTreeMap;

/// The registry entry.
pub static INFO: KindInfo = KindInfo {
    name: "multidim",
    summary: "an item of the multidimensional-allocation paper (Narang–Dutta–Bhattacherjee §3) over the sum-load states of the md search, with an md-level re-check of counterexamples",
    build,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Item {
    GammaAtZero,
    MassFacts,
    DeltaI,
    #[serde(rename = "eq-3-16")]
    Eq316,
    #[serde(rename = "corollary-1")]
    Corollary1,
    #[serde(rename = "corollary-2")]
    Corollary2,
    #[serde(rename = "lemma-3-5")]
    Lemma35,
    #[serde(rename = "lemma-3-6")]
    Lemma36,
    Contraction,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
enum States {
    Reachable,
    Integer,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimSection {
    item: Item,
    #[serde(default)]
    potential: Option<String>,
    #[serde(default)]
    reading: Option<String>,
    #[serde(default)]
    form: Option<String>,
    #[serde(default)]
    a: Option<f64>,
    #[serde(default)]
    c: Option<f64>,
    #[serde(default)]
    states: Option<States>,
    #[serde(default)]
    dims: Option<u32>,
}

/// A built `multidim` check.
pub struct Multidim {
    t: Theorem,
    item: Item,
    which: Which,
    reading: PsiReading,
    form: LemmaForm,
    a: f64,
    c: f64,
    states: States,
    dims: u32,
    /// (f, ε, γ₁ as f64, γ₁ exact, ε exact).
    grid: Vec<(u32, f64, f64, Q, Q)>,
    /// The statement of eq. (3.16) (`form` of `eq-3-16`).
    eq316: Eq316Form,
    /// `form = "harmonic"` of `gamma-at-zero`: the corrected value `Γ(0) = 2H_n`.
    harmonic: bool,
    processes: Vec<Box<dyn Process>>,
}

fn grid_of(t: &Theorem, name: &str) -> std::result::Result<Vec<(f64, Q)>, FileError> {
    let Some(v) = t.file.constants.get(name) else {
        return Ok(vec![]);
    };
    let at = Some(v.span().start);
    let list: Vec<&Scalar> = match v.get_ref() {
        ConstValue::One(s) => vec![s],
        ConstValue::Grid(g) => g.iter().collect(),
    };
    list.into_iter()
        .map(|s| {
            s.value()
                .map_err(|e| t.error_at(at, format!("constant `{name}`: {e}")))
        })
        .collect()
}

fn build(t: &Theorem) -> std::result::Result<Box<dyn Check>, FileError> {
    if t.file.claim.get_ref().contains_key("expr") {
        // A claim written in the language over md states.
        return super::multidim_expr::build(t);
    }
    let c: toml::Spanned<ClaimSection> = t.claim_section()?;
    let at = Some(c.span().start);
    let cs = c.get_ref();
    for name in t.file.constants.keys() {
        if !["f", "eps", "gamma1"].contains(&name.as_str()) {
            return Err(t.error_at(
                Some(t.file.constants[name].span().start),
                format!("unknown constant `{name}`; accepted: f, eps, gamma1 (α = ε/(2f))"),
            ));
        }
    }
    let which = match cs.potential.as_deref() {
        None | Some("phi") => Which::Phi,
        Some("psi") => Which::Psi,
        Some(o) => {
            return Err(t.error_at(at, format!("unknown potential `{o}`; accepted: phi, psi")));
        }
    };
    let reading = match cs.reading.as_deref() {
        None | Some("printed") => PsiReading::Printed,
        Some("mirrored") => PsiReading::Mirrored,
        Some(o) => {
            return Err(t.error_at(
                at,
                format!("unknown reading `{o}`; accepted: printed, mirrored"),
            ));
        }
    };
    let needs_form = matches!(cs.item, Item::Lemma35 | Item::Lemma36);
    let (eq316, harmonic) = match (cs.item, cs.form.as_deref()) {
        (Item::Eq316, None | Some("printed")) => (Eq316Form::Printed, false),
        (Item::Eq316, Some("identity")) => (Eq316Form::Identity, false),
        (Item::Eq316, Some("corrected")) => (Eq316Form::Corrected, false),
        (Item::Eq316, Some(o)) => {
            return Err(t.error_at(
                at,
                format!("unknown form `{o}` of eq-3-16; accepted: printed, identity, corrected"),
            ));
        }
        (Item::GammaAtZero, None | Some("printed")) => (Eq316Form::Printed, false),
        (Item::GammaAtZero, Some("harmonic")) => (Eq316Form::Printed, true),
        (Item::GammaAtZero, Some(o)) => {
            return Err(t.error_at(
                at,
                format!("unknown form `{o}` of gamma-at-zero; accepted: printed, harmonic"),
            ));
        }
        _ => (Eq316Form::Printed, false),
    };
    let form_free = matches!(cs.item, Item::Eq316 | Item::GammaAtZero);
    let form = match (cs.form.as_deref(), needs_form) {
        (_, false) if form_free => LemmaForm::Decrease,
        (Some("decrease"), true) => LemmaForm::Decrease,
        (Some("ptw-shape"), true) => LemmaForm::PtwShape,
        (None, false) => LemmaForm::Decrease,
        (None, true) => return Err(t.error_at(at, "form: required (decrease or ptw-shape)")),
        (Some(o), true) => {
            return Err(t.error_at(
                at,
                format!("unknown form `{o}`; accepted: decrease, ptw-shape"),
            ));
        }
        (Some(_), false) => {
            return Err(t.error_at(
                at,
                "form: only for lemma-3-5, lemma-3-6, eq-3-16 and gamma-at-zero",
            ));
        }
    };
    let a = match (cs.a, cs.item) {
        (Some(a), Item::Contraction) if a > 0.0 && a.is_finite() => a,
        (Some(a), Item::Contraction) => {
            return Err(t.error_at(at, format!("a: must be a finite number > 0, got {a}")));
        }
        (None, Item::Contraction) => return Err(t.error_at(at, "a: required for contraction")),
        (Some(_), _) => return Err(t.error_at(at, "a: only for contraction")),
        (None, _) => 0.0,
    };
    let cc = match (cs.c, cs.item) {
        (Some(c), Item::Corollary2) if c.is_finite() => c,
        (Some(c), Item::Corollary2) => {
            return Err(t.error_at(at, format!("c: must be finite, got {c}")));
        }
        (Some(_), _) => return Err(t.error_at(at, "c: only for corollary-2")),
        (None, _) => 0.0,
    };
    let fs = grid_of(t, "f")?;
    let epss = grid_of(t, "eps")?;
    let g1s = grid_of(t, "gamma1")?;
    let state_free = matches!(cs.item, Item::GammaAtZero | Item::MassFacts);
    let fs = if fs.is_empty() && state_free {
        vec![(1.0, Q::from_integer(1.into()))]
    } else {
        fs
    };
    let epss = if epss.is_empty() && state_free {
        vec![(0.25, Q::new(1.into(), 4.into()))]
    } else {
        epss
    };
    if fs.is_empty() || epss.is_empty() || g1s.is_empty() && cs.item != Item::GammaAtZero {
        return Err(t.error_at(
            None,
            "[constants] needs f, eps and gamma1 (numbers or lists)",
        ));
    }
    let g1s = if g1s.is_empty() {
        vec![(0.25, Q::new(1.into(), 4.into()))]
    } else {
        g1s
    };
    let mut grid = Vec::new();
    for (f, _) in &fs {
        let fmax = crate::limits::MD_DIMS.max;
        if !(*f >= 1.0 && f.fract() == 0.0 && *f <= fmax as f64) {
            return Err(t.error_at(
                None,
                format!(
                    "constant `f`: must be an integer in 1..={fmax}, got {f} (limits::MD_DIMS; {})",
                    crate::limits::MD_DIMS.reason
                ),
            ));
        }
        for (eps, epsr) in &epss {
            for (g1, g1r) in &g1s {
                Constants::new(*eps, *g1, *f as u32)
                    .map_err(|e| t.error_at(None, format!("constants: {e}")))?;
                grid.push((*f as u32, *eps, *g1, g1r.clone(), epsr.clone()));
            }
        }
    }
    let dims = cs.dims.unwrap_or(4);
    if let Some((f, ..)) = grid.iter().find(|g| g.0 > dims) {
        return Err(t.error_at(at, format!("dims: must be at least f = {f}, got {dims}")));
    }
    crate::limits::MD_ITEM_DIMS
        .check("dims", dims.into())
        .map_err(|e| t.error_at(at, e.to_string()))?;
    let mut processes = Vec::new();
    for s in &t.file.setting.processes {
        let p = crate::process::parse(s.get_ref())
            .map_err(|e| t.error_at(Some(s.span().start), e.to_string()))?;
        if !p.info().rank_based {
            return Err(t.error_at(
                Some(s.span().start),
                format!("{} is not rank-based", p.spec()),
            ));
        }
        MdRule::parse("sum", s.get_ref())
            .map_err(|e| t.error_at(Some(s.span().start), e.to_string()))?;
        processes.push(p);
    }
    if processes.is_empty() && cs.item != Item::GammaAtZero {
        return Err(t.error_at(None, "[setting] processes is empty"));
    }
    let d = t.file.domain.get_ref();
    let dat = Some(t.file.domain.span().start);
    crate::claim::setup::plain_ns(t)?;
    let nmax = crate::limits::MD_ITEM_N.max;
    if let Some(&n) = d.n.iter().find(|&&n| n < 2 || n as u64 > nmax) {
        return Err(t.error_at(
            dat,
            format!(
                "n: must lie in 2..={nmax}, got {n} (limits::MD_ITEM_N; {})",
                crate::limits::MD_ITEM_N.reason
            ),
        ));
    }
    if let Some(e) = &d.exhaustive {
        crate::limits::MD_ITEM_N
            .check_usize("exhaustive max_n", e.max_n)
            .map_err(|err| t.error_at(dat, err.to_string()))?;
        for n in 2..=e.max_n {
            // C(max_load + n − 1, n − 1) sorted states with the lightest bin at 0.
            let count = (1..n as u128).try_fold(1u128, |c, k| {
                c.checked_mul(e.max_load as u128 + k).map(|v| v / k)
            });
            let shown = count.map_or("more than 2^128".to_string(), |c| c.to_string());
            if count.is_none_or(|c| c > crate::limits::MD_ITEM_EXHAUSTIVE.max as u128) {
                return Err(t.error_at(
                    dat,
                    crate::limits::MD_ITEM_EXHAUSTIVE
                        .exceeded(
                            &format!(
                                "exhaustive = {{ max_n = {}, max_load = {} }} at n = {n}",
                                e.max_n, e.max_load
                            ),
                            &format!("{shown} states"),
                        )
                        .to_string(),
                ));
            }
        }
    }
    if d.families.is_some() || d.optimise > 0 {
        return Err(t.error_at(
            dat,
            "the multidim kind searches F1–F7, exhaustive and random states; `families` and `optimise` are not accepted",
        ));
    }
    Ok(Box::new(Multidim {
        t: t.clone(),
        item: cs.item,
        which,
        reading,
        form,
        a,
        c: cc,
        states: cs.states.unwrap_or(States::Reachable),
        dims,
        grid,
        eq316,
        harmonic,
        processes,
    }))
}

fn show(x: &XFloat) -> String {
    match x.to_f64_checked() {
        Some(v) if v.is_finite() => format!("{v:.12e}"),
        _ => format!(
            "{}e^{}",
            if x.signum() < 0.0 { "-" } else { "" },
            x.ln_abs()
        ),
    }
}

/// One evaluated state.
struct Eval {
    margin: f64,
    holds: bool,
    lhs: XFloat,
    rhs: XFloat,
    bin: Option<usize>,
}

/// A candidate witness.
struct Cand {
    n: usize,
    size: f64,
    s: Vec<f64>,
    e: Eval,
    source: String,
    consts: (u32, f64, f64),
    /// The index of the constants in the grid (for their exact values).
    gi: usize,
    found_by: &'static str,
}

impl Multidim {
    fn constants_map(&self, (f, eps, g1): (u32, f64, f64)) -> BTreeMap<String, f64> {
        let mut m = BTreeMap::new();
        m.insert("f".into(), f as f64);
        m.insert("eps".into(), eps);
        m.insert("gamma1".into(), g1);
        m.insert("alpha".into(), eps / (2.0 * f as f64));
        if self.item == Item::Contraction {
            m.insert("a".into(), self.a);
        }
        if self.item == Item::Corollary2 {
            m.insert("c".into(), self.c);
        }
        m
    }

    fn pot(&self, alpha: f64) -> Result<GroupPotential> {
        let which = match self.item {
            Item::DeltaI => self.which,
            Item::Eq316 | Item::Corollary1 | Item::Lemma35 => Which::Phi,
            Item::Corollary2 | Item::Lemma36 => Which::Psi,
            _ => Which::Gamma,
        };
        GroupPotential::new(which, alpha, self.reading)
    }

    /// Evaluates the item at `s` (for `delta-i`: the worst bin).
    fn eval(&self, s: &[f64], p: &[f64], c: &Constants) -> Result<Eval> {
        let ck = match self.item {
            Item::Eq316 => claims::eq_3_16_form(s, p, c.f, c.alpha(), self.eq316)?,
            Item::Corollary1 => claims::corollary_1(s, p, c.f, c.alpha())?,
            Item::Corollary2 => claims::corollary_2(s, p, c.f, c.alpha(), self.reading, self.c)?,
            Item::Lemma35 => claims::lemma_3_5(s, p, c, self.form)?,
            Item::Lemma36 => claims::lemma_3_6(s, p, c, self.reading, self.form)?,
            Item::Contraction => claims::contraction(s, p, c, self.a, self.reading)?,
            Item::DeltaI => {
                let pot = self.pot(c.alpha())?;
                let scale = pot.value(s);
                let mut worst: Option<Eval> = None;
                for i in 0..s.len() {
                    let d = claims::delta_i(s, c.f, i, pot)?;
                    let diff = d.exact.add(d.formula.scale(-1.0));
                    let rel = if diff.is_zero() {
                        0.0
                    } else {
                        (diff.ln_abs() - scale.ln_abs()).exp()
                    };
                    let e = Eval {
                        margin: -rel,
                        holds: d.holds,
                        lhs: d.exact,
                        rhs: d.formula,
                        bin: Some(i),
                    };
                    if worst.as_ref().is_none_or(|w| e.margin < w.margin) {
                        worst = Some(e);
                    }
                }
                return Ok(worst.expect("n ≥ 2 bins"));
            }
            Item::GammaAtZero | Item::MassFacts => unreachable!("state-free items"),
        };
        if !ck.applicable {
            return Ok(Eval {
                margin: f64::INFINITY,
                holds: true,
                lhs: ck.lhs,
                rhs: ck.rhs,
                bin: None,
            });
        }
        Ok(Eval {
            margin: ck.margin,
            holds: ck.holds,
            lhs: ck.lhs,
            rhs: ck.rhs,
            bin: None,
        })
    }

    /// The md-level re-check of a counterexample: recomputes the left side by enumerating every
    /// (support, bin) outcome of the md process with `D = dims` on a state whose sum loads are
    /// `s`, and says whether the violation persists.
    fn recheck(&self, cand: &Cand, p_spec: &str) -> Result<(bool, String)> {
        let (f, eps, _) = cand.consts;
        let alpha = eps / (2.0 * f as f64);
        let min = cand.s.iter().cloned().fold(f64::INFINITY, f64::min);
        // Bin i holds L_i = s_i − min s units in dimension 1: its normalised sum load is s_i.
        let sums: Vec<f64> = cand.s.iter().map(|v| v - min).collect();
        if sums
            .iter()
            .any(|l| (l - l.round()).abs() > 1e-9 || *l > 1e12)
        {
            return Err(Error::Unsupported(
                "the counterexample has non-integer sum loads".into(),
            ));
        }
        let rows: Vec<Vec<i64>> = sums
            .iter()
            .map(|&l| {
                (0..self.dims)
                    .map(|a| if a == 0 { l.round() as i64 } else { 0 })
                    .collect()
            })
            .collect();
        let x = MdLoads::from_rows(&rows)?;
        let pot = self.pot(alpha)?;
        let value = |y: &MdLoads| pot.value(&y.sum_loads::<f64>());
        if self.item == Item::DeltaI {
            let i = cand.e.bin.expect("delta-i records its bin");
            let mut y = x.clone();
            y.add(i, (1u64 << f) - 1);
            let exact = value(&y).add(value(&x).scale(-1.0));
            let d = exact.add(cand.e.rhs.scale(-1.0));
            let bad = d.ln_abs() > value(&x).ln_abs() + TOLERANCE.ln();
            return Ok((
                bad,
                format!(
                    "md-level (D = {}, bin {} gets a ball of support {{1..{f}}}): change {} vs formula {}",
                    self.dims,
                    i + 1,
                    show(&exact),
                    show(&cand.e.rhs)
                ),
            ));
        }
        let law = BallLaw::uniform(self.dims, f)?;
        let rule = MdRule::parse("sum", p_spec)?;
        let e: f64 = expect::<f64>(&x, &law, &rule, |y| {
            value(y).to_f64_checked().unwrap_or(f64::NAN)
        })?;
        if !e.is_finite() {
            return Err(Error::Unsupported(
                "the md-level re-check overflows f64 at this state".into(),
            ));
        }
        let lhs = match self.item {
            Item::Eq316 => e - value(&x).to_f64_checked().unwrap_or(f64::NAN),
            _ => e,
        };
        let ours = cand.e.lhs.to_f64_checked().unwrap_or(f64::NAN);
        let agree =
            (lhs - ours).abs() <= 1e-9 * ours.abs().max(value(&x).to_f64_checked().unwrap_or(0.0));
        let rhs = cand.e.rhs.to_f64_checked().unwrap_or(f64::NAN);
        let violated = lhs - rhs > TOLERANCE * lhs.abs().max(rhs.abs());
        Ok((
            agree && violated,
            format!(
                "md-level enumeration (D = {}, uniform supports of size {f}, sum rule, {p_spec}): lhs = {lhs:.12e} (engine {ours:.12e}), rhs = {rhs:.12e}",
                self.dims
            ),
        ))
    }

    /// Certifies the item at the candidate's state: the integer sums recovered from the float
    /// state, exact rank probabilities, exact constants, enclosures at 64…4096 bits
    /// ([`enclosed::certify`]).
    fn certify(&self, cand: &Cand) -> Result<enclosed::Certified> {
        let s = enclosed::sum_loads(&enclosed::integer_sums(&cand.s)?);
        let p = self
            .processes
            .iter()
            .find(|p| p.spec() == cand.source)
            .ok_or_else(|| Error::Unsupported(format!("no process {}", cand.source)))?;
        let pv = p
            .rank_probabilities_exact(cand.n)?
            .ok_or_else(|| Error::Unsupported(format!("{} has no exact rank vector", p.spec())))?;
        let g = &self.grid[cand.gi];
        let c = ExactConstants {
            f: g.0,
            eps: g.4.clone(),
            gamma1: g.3.clone(),
        };
        let item = match self.item {
            Item::Eq316 => enclosed::Item::Eq316(self.eq316),
            Item::Corollary1 => enclosed::Item::Corollary1,
            Item::Corollary2 => enclosed::Item::Corollary2(enclosed::exact_constant(self.c, "c")?),
            Item::Lemma35 => enclosed::Item::Lemma35(self.form),
            Item::Lemma36 => enclosed::Item::Lemma36(self.form),
            Item::Contraction => {
                enclosed::Item::Contraction(enclosed::exact_constant(self.a, "a")?)
            }
            Item::DeltaI => enclosed::Item::DeltaI(
                self.which,
                cand.e
                    .bin
                    .ok_or_else(|| Error::Unsupported("delta-i without a bin".into()))?,
            ),
            Item::GammaAtZero | Item::MassFacts => {
                return Err(Error::Unsupported("state-free item".into()));
            }
        };
        enclosed::certify(&item, &s, &pv, &c, self.reading)
    }

    fn run_states(&self, ctx: &mut RunContext) -> Result<Verdict> {
        let d = self.t.file.domain.get_ref();
        let mut searched = Searched {
            n: d.n.clone(),
            sources: self.processes.len(),
            constant_combinations: self.grid.len(),
            exhaustive_bound: d.exhaustive.as_ref().map(|e| (e.max_n, e.max_load)),
            ..Searched::default()
        };
        let mut worst: Option<Cand> = None;
        let mut smallest_bad: Option<Cand> = None;
        let mut violations = 0u64;
        let mut vacuous = 0u64;
        for (gi, &(f, eps, g1, ..)) in self.grid.iter().enumerate() {
            let c = Constants::new(eps, g1, f)?;
            let mut spaces: Vec<(usize, &'static str, Vec<Vec<f64>>)> = Vec::new();
            let ff = if self.states == States::Integer { 1 } else { f };
            if let Some(ex) = &d.exhaustive {
                for n in 2..=ex.max_n {
                    let v = match self.states {
                        States::Reachable => reachable_exhaustive(n, ex.max_load, f),
                        States::Integer => integer_exhaustive(n, ex.max_load),
                    };
                    spaces.push((n, "exhaustive", v));
                }
            }
            for &n in &d.n {
                spaces.push((n, "families", families(n, ff, g1)));
                if d.random > 0 {
                    let r = (d.random as usize) * ctx.effort as usize;
                    spaces.push((n, "random", random_states(n, ff, r, 10, d.seed)));
                }
            }
            for p in &self.processes {
                for (n, what, states) in &spaces {
                    let pv = p.rank_probabilities(*n)?.ok_or_else(|| {
                        Error::Unsupported(format!("{} has no vector at n = {n}", p.spec()))
                    })?;
                    for s in states {
                        let sorted = crate::multidim::potential::sorted_desc(s);
                        let e = self.eval(&sorted, &pv, &c)?;
                        searched.add(what, 1);
                        if e.margin == f64::INFINITY {
                            vacuous += 1;
                            continue;
                        }
                        let min = sorted.last().copied().unwrap_or(0.0);
                        let size: f64 = sorted.iter().map(|v| v - min).sum();
                        let mk = |e: Eval| Cand {
                            n: *n,
                            size,
                            s: sorted.clone(),
                            e,
                            source: p.spec(),
                            consts: (f, eps, g1),
                            gi,
                            found_by: what,
                        };
                        if !e.holds {
                            violations += 1;
                            if smallest_bad
                                .as_ref()
                                .is_none_or(|b| (*n, size) < (b.n, b.size))
                            {
                                smallest_bad = Some(mk(e));
                            }
                        } else if worst.as_ref().is_none_or(|w| e.margin < w.e.margin) {
                            worst = Some(mk(e));
                        }
                    }
                    if let Some(pr) = ctx.progress {
                        pr(&format!("{} n={n} {what} {}", self.t.id, p.spec()));
                    }
                }
            }
        }
        let mut notes = vec![format!(
            "{} of {} evaluations satisfy the hypothesis",
            searched.total - vacuous,
            searched.total
        )];
        notes.push(format!(
            "states: {}; float in the log domain, relative tolerance {TOLERANCE:e}",
            match self.states {
                States::Reachable => "reachable states of the fixed-f chain, s = f(b − mean b)",
                States::Integer =>
                    "integer sum-load vectors (the chain of random f), s = L − mean L",
            }
        ));
        let (status, cand) = match smallest_bad {
            Some(b) => {
                notes.push(format!(
                    "{violations} violating state(s); the smallest (fewest bins, then fewest balls above the lightest bin) is reported"
                ));
                (Status::Refuted, Some(b))
            }
            None => {
                notes.push("holds on the searched space; this is evidence, not a proof".into());
                (Status::Holds, worst)
            }
        };
        let Some(cand) = cand else {
            return Ok(Verdict {
                links: Vec::new(),
                observations: Vec::new(),
                id: self.t.id.clone(),
                verdict: Status::Holds,
                expected: self.t.file.expected,
                trust: Trust::Float,
                slack: None,
                witness: None,
                searched,
                notes: vec![
                    "the hypothesis held at no searched state: vacuous on the searched space"
                        .into(),
                ],
            });
        };
        let mut status = status;
        let mut recheck = None;
        let mut trust = Trust::Float;
        // Certification (docs/conventions.md §3): the state in exact rationals, the potentials and their
        // expectations as outward-rounded enclosures at escalating precision.
        let cert = self.certify(&cand);
        if let Ok(c) = &cert {
            searched.precision_bits = Some(c.check.prec);
        }
        if status == Status::Refuted {
            let md = self.recheck(&cand, &cand.source);
            match (&cert, md) {
                (Ok(c), md) if c.outcome == Outcome::Fails => {
                    trust = Trust::Enclosure;
                    let mut text = format!("certified: {}", c.check.describe());
                    match md {
                        Ok((true, msg)) => text.push_str(&format!("; confirmed by {msg}")),
                        Ok((false, msg)) => {
                            status = Status::Inconclusive;
                            notes.push(format!(
                                "the md-level re-check does not confirm the violation: {msg}"
                            ));
                        }
                        Err(e) => notes.push(format!("no md-level re-check ({e})")),
                    }
                    recheck = Some(text);
                }
                (Ok(c), _) => {
                    status = Status::Inconclusive;
                    trust = Trust::Enclosure;
                    notes.push(match c.outcome {
                        Outcome::Holds => format!(
                            "the float search saw a violation, but the certified evaluation says the claim holds at this state: {}",
                            c.check.describe()
                        ),
                        _ => format!(
                            "the enclosures do not decide the state up to {} bits: {}",
                            c.check.prec,
                            c.check.describe()
                        ),
                    });
                }
                (Err(why), md) => {
                    notes.push(format!("no certified route at this state ({why})"));
                    match md {
                        Ok((true, msg)) => recheck = Some(format!("confirmed by {msg}")),
                        Ok((false, msg)) => {
                            status = Status::Inconclusive;
                            notes.push(format!(
                                "the re-check does not confirm the violation: {msg}"
                            ));
                        }
                        Err(e) => {
                            status = Status::Inconclusive;
                            notes.push(format!("no re-check possible: {e}"));
                        }
                    }
                }
            }
        } else {
            match &cert {
                Ok(c) if c.outcome == Outcome::Holds => {
                    trust = Trust::Enclosure;
                    let text = format!("certified at the tightest state: {}", c.check.describe());
                    notes.push(text.clone());
                    recheck = Some(text);
                }
                Ok(c) if c.outcome == Outcome::Fails => {
                    status = Status::Refuted;
                    trust = Trust::Enclosure;
                    let text = format!(
                        "the tightest state violates the claim (the float margin was within the tolerance): {}",
                        c.check.describe()
                    );
                    notes.push(text.clone());
                    recheck = Some(text);
                }
                Ok(c) => notes.push(format!(
                    "the enclosures at the tightest state do not separate up to {} bits: {}",
                    c.check.prec,
                    c.check.describe()
                )),
                Err(why) => notes.push(format!("the tightest state is not certified: {why}")),
            }
        }
        if let Some(i) = cand.e.bin {
            notes.push(format!(
                "bin i = {} of the sorted state (heaviest first); lhs = exact change, rhs = formula, slack = −|lhs − rhs|/P(s)",
                i + 1
            ));
        }
        let w = Witness {
            n: cand.n,
            loads: cand.s.clone(),
            source: cand.source.clone(),
            constants: self.constants_map(cand.consts),
            constants_text: BTreeMap::new(),
            exact: None,
            lhs: show(&cand.e.lhs),
            rhs: show(&cand.e.rhs),
            slack: format!("{:e}", cand.e.margin),
            found_by: cand.found_by.into(),
            recheck,
        };
        Ok(Verdict {
            links: Vec::new(),
            observations: Vec::new(),
            id: self.t.id.clone(),
            verdict: status,
            expected: self.t.file.expected,
            trust,
            slack: Some(cand.e.margin),
            witness: Some(w),
            searched,
            notes,
        })
    }

    fn run_gamma_at_zero(&self) -> Result<Verdict> {
        if self.harmonic {
            return self.run_gamma_at_zero_harmonic();
        }
        let d = self.t.file.domain.get_ref();
        let mut searched = Searched {
            n: d.n.clone(),
            sources: 1,
            constant_combinations: 1,
            ..Searched::default()
        };
        let mut worst: Option<(f64, claims::GammaAtZero)> = None;
        // Every n is certified: 2H_n exact against an enclosure of 2 ln n.
        let mut certified: Vec<(usize, Decision, u64)> = Vec::new();
        for &n in &d.n {
            let g = claims::gamma_at_zero(n)?;
            searched.add("exact", 1);
            let h = crate::spec::parse_ratio(&g.exact).map_err(|e| Error::invalid("2H_n", e))?;
            let two = Q::from_integer(2.into());
            let nq = Q::from_integer(n.into());
            let dcd = decide_escalating(Precisions::default(), |p| {
                Ok((
                    Interval::from_rational(&h, p),
                    Interval::ln_of(&nq, p)?.mul_rational(&two, p),
                ))
            })?;
            certified.push((n, dcd.decision, dcd.prec));
            // The claim is an equality: slack = −|Γ(0) − 2 ln n| relative.
            let slack = -(g.value - g.claimed).abs() / g.value.max(g.claimed);
            if worst.as_ref().is_none_or(|(s, _)| slack < *s) {
                worst = Some((slack, g));
            }
        }
        let (slack, g) = worst.expect("non-empty domain");
        let all_unequal = certified.iter().all(|c| c.1 == Decision::Greater);
        let status = if g.holds {
            Status::Holds
        } else if all_unequal {
            Status::Refuted
        } else {
            Status::Inconclusive
        };
        let prec = certified.iter().map(|c| c.2).max().unwrap_or(64);
        searched.precision_bits = Some(prec);
        let wn = certified
            .iter()
            .find(|c| c.0 == g.n)
            .map(|c| c.1)
            .unwrap_or(Decision::Undecided);
        Ok(Verdict {
            links: Vec::new(),
            observations: Vec::new(),
            id: self.t.id.clone(),
            verdict: status,
            expected: self.t.file.expected,
            trust: if all_unequal {
                Trust::Enclosure
            } else {
                Trust::Float
            },
            slack: Some(slack),
            witness: Some(Witness {
                n: g.n,
                loads: vec![0.0; g.n],
                source: "s ≡ 0".into(),
                constants: BTreeMap::new(),
                exact: None,
                constants_text: BTreeMap::new(),
                lhs: format!("Γ(0) = 2H_n = {} = {:.12}", g.exact, g.value),
                rhs: format!("2 ln n = {:.12}", g.claimed),
                slack: format!("{slack:e}"),
                found_by: "exact".into(),
                recheck: Some(format!(
                    "Γ(0)/(2 ln n) = {:.6}; 2H_n vs an enclosure of 2 ln n at {prec} bits: {wn:?}",
                    g.ratio
                )),
            }),
            searched,
            notes: vec![format!(
                "Γ(0) = 2H_n is an exact rational; 2 ln n is enclosed (correctly rounded ln, outward rounding): 2H_n > 2 ln n is certified at {} of {} n",
                certified
                    .iter()
                    .filter(|c| c.1 == Decision::Greater)
                    .count(),
                certified.len()
            )],
        })
    }

    /// `form = "harmonic"`: `Γ(0) = 2H_n`, with `Γ(0)` evaluated exactly from the definition of
    /// the group potentials at `s ≡ 0` (every exponential is `e⁰ = 1`), both readings of `Ψ`,
    /// against `2 Σ_{i≤n} 1/i`.
    fn run_gamma_at_zero_harmonic(&self) -> Result<Verdict> {
        let d = self.t.file.domain.get_ref();
        let mut searched = Searched {
            n: d.n.clone(),
            sources: 1,
            constant_combinations: 1,
            ..Searched::default()
        };
        let alpha = Q::new(1.into(), 8.into());
        let mut bad: Option<(usize, PsiReading, Q, Q)> = None;
        let mut last = None;
        for &n in &d.n {
            let mut h = Q::from_integer(0.into());
            for i in 1..=n {
                h += Q::new(2.into(), (i as i64).into());
            }
            let zero = vec![Q::from_integer(0.into()); n];
            for reading in PsiReading::ALL {
                let spec = GroupSpec::new(Which::Gamma, alpha.clone(), reading)?;
                let v = spec
                    .value_exact(&zero)
                    .ok_or_else(|| Error::invalid("state", "s ≡ 0 has an exact value"))?;
                searched.add("exact", 1);
                if v != h && bad.is_none() {
                    bad = Some((n, reading, v.clone(), h.clone()));
                }
                last = Some((n, reading, v, h.clone()));
            }
        }
        let (status, (n, reading, v, h)) = match bad {
            Some(b) => (Status::Refuted, b),
            None => (Status::Holds, last.expect("non-empty domain")),
        };
        let slack = if v == h { 0.0 } else { -1.0 };
        Ok(Verdict {
            links: Vec::new(),
            observations: Vec::new(),
            id: self.t.id.clone(),
            verdict: status,
            expected: self.t.file.expected,
            trust: Trust::Exact,
            slack: Some(slack),
            witness: Some(Witness {
                n,
                loads: vec![0.0; n],
                source: "s ≡ 0".into(),
                exact: None,
                constants: BTreeMap::new(),
                constants_text: BTreeMap::new(),
                lhs: format!("Γ(0) ({} Ψ) = {v}", reading.name()),
                rhs: format!("2H_n = {h}"),
                slack: format!("{slack:e}"),
                found_by: "exact".into(),
                recheck: None,
            }),
            searched,
            notes: vec![
                "Γ(0) evaluated exactly from the definition (weights 1/i for Φ, 1/i or 1/(n − i + 1) for Ψ, every e^{±α·0} = 1) for both readings of Ψ, compared with 2 Σ_{i≤n} 1/i in exact rationals at every listed n".into(),
            ],
        })
    }

    fn run_mass_facts(&self) -> Result<Verdict> {
        let d = self.t.file.domain.get_ref();
        let mut searched = Searched {
            n: d.n.clone(),
            sources: self.processes.len(),
            constant_combinations: self.grid.len(),
            ..Searched::default()
        };
        let mut gammas: Vec<(f64, Q)> = self.grid.iter().map(|g| (g.2, g.3.clone())).collect();
        gammas.sort_by(|a, b| a.1.cmp(&b.1));
        gammas.dedup_by(|a, b| a.1 == b.1);
        let mut worst: Option<(Q, Witness)> = None;
        for &n in &d.n {
            for p in &self.processes {
                let v = p.rank_probabilities_exact(n)?.ok_or_else(|| {
                    Error::Unsupported(format!("{} has no exact vector", p.spec()))
                })?;
                for (g1f, g1) in &gammas {
                    let m = claims::mass_facts(&v, g1)?;
                    searched.add("exact", 1);
                    let r = |s: &str| {
                        crate::spec::parse_ratio(s).map_err(|e| Error::invalid("mass facts", e))
                    };
                    let s1 = r(&m.prefix_bound)? - r(&m.prefix)?;
                    let s2 = r(&m.suffix)? - r(&m.suffix_bound)?;
                    let slack = s1.clone().min(s2.clone());
                    let mut cm = BTreeMap::new();
                    cm.insert("gamma1".to_string(), *g1f);
                    let w = Witness {
                        n,
                        loads: vec![],
                        exact: None,
                        source: p.spec(),
                        constants: cm,
                        constants_text: BTreeMap::new(),
                        lhs: format!(
                            "Σ_{{i≤{}}} p_i = {}; Σ_{{i≥{}}} p_i = {}",
                            m.k1, m.prefix, m.k2, m.suffix
                        ),
                        rhs: format!("γ₁² = {}; 1 − γ₂² = {}", m.prefix_bound, m.suffix_bound),
                        slack: slack.to_string(),
                        found_by: "exact".into(),
                        recheck: None,
                    };
                    if worst.as_ref().is_none_or(|(s, _)| slack < *s) {
                        worst = Some((slack, w));
                    }
                }
            }
        }
        let (slack, w) = worst.expect("non-empty domain");
        let zero = Q::from_integer(0.into());
        Ok(Verdict {
            links: Vec::new(),
            observations: Vec::new(),
            id: self.t.id.clone(),
            verdict: if slack >= zero { Status::Holds } else { Status::Refuted },
            expected: self.t.file.expected,
            trust: Trust::Exact,
            slack: num_traits::ToPrimitive::to_f64(&slack),
            witness: Some(w),
            searched,
            notes: vec!["exact rational arithmetic for every listed n, process and γ₁; k₁ = ⌊nγ₁⌋, k₂ = ⌈nγ₂⌉; slack = the smaller of the two".into()],
        })
    }
}

impl Check for Multidim {
    fn run(&self, ctx: &mut RunContext) -> Result<Verdict> {
        super::check_search_budget(self.t.file.domain.get_ref(), ctx.effort)?;
        match self.item {
            Item::GammaAtZero => self.run_gamma_at_zero(),
            Item::MassFacts => self.run_mass_facts(),
            _ => self.run_states(ctx),
        }
    }
}
