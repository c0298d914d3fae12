//! The two-point process of Lemma 3.8 (Bansal–Feldheim, arXiv:2106.06051 v2, §3.4) as a setting of
//! the claim language: the kind `graph` with `over = "two-point"` and an `expr`. The elements are
//! the configurations `(π₁, ε, ε_t)` of a grid inside the printed hypotheses (`π₁ = a/A`,
//! `ε = (min π/2)·b/B`, `ε_t = ε + (max π/2 − ε)·c/C`, exact rationals) times the values of `δ`; a
//! `given` formula keeps the elements a statement is about (e.g. only the side actually used being
//! a probability: `given = "p1 >= 0 && p1 <= 1"`).
//!
//! | name | value |
//! |---|---|
//! | `pi1`, `pi2`, `eps`, `eps_t`, `delta` | the configuration and `δ = ℓ₁/π₁ − ℓ₂/π₂` |
//! | `gamma`, `alpha` | `1/π₁ + 1/π₂`, `ε/8` |
//! | `p1` | `P(ball to bin 1 | δ)`: `π₁ − ε_t` (`δ > 0`), `π₁ + ε_t` (`δ < 0`), `π₁` (`δ = 0`) |
//! | `valid` | 1 if `π₁ ± ε_t ∈ [0, 1]` (both sides), else 0 |
//! | `Phi`, `E_Phi`, `dE_Phi` | `cosh(αδ)`, `p1·cosh(α(δ + 1/π₁)) + (1 − p1)·cosh(α(δ − 1/π₂))`, their difference |
//! | `E_dd`, `E_dd2` | `E[Δδ | δ] = p1/π₁ − (1 − p1)/π₂`, `E[(Δδ)² | δ] = p1/π₁² + (1 − p1)/π₂²` |
//!
//! `Phi` and the expectations are definitions in the language (so every domain has them); the
//! claim is decided exactly where it is rational and by enclosures (64…4096 bits) otherwise.
//!
//! Several steps against an adversary (Lemma 3.8 "for any time t", with `ε_t` chosen by the
//! history): from `δ(0) = delta`, over `T` = the constant `horizon` steps, the adversary picks at
//! every state `ε_t ∈ {ε, ε_t}` (the element's two ends; the one-step law is linear in `ε_t`, so
//! the supremum over `(ε, ε_t]` and over history-dependent or randomised choices is attained by
//! these ends state by state, by backward induction on the lattice
//! `δ = delta + k/π₁ − (j − k)/π₂`), keeping the probability it uses in `[0, 1]` (`ε` always is):
//!
//! | name | value |
//! |---|---|
//! | `Emax_Phi` | `sup E[cosh(αδ(T))]` |
//! | `Ptail_max` | `sup P[\|δ(T)\| ≥ x/ε]`, `x` = the constant `tail` (exact rationals) |
//!
//! ```toml
//! kind = "graph"
//! [claim]
//! over = "two-point"
//! expr = "E_Phi <= Phi - alpha*eps*gamma*(Phi - 2)/2"
//! given = "p1 >= 0 && p1 <= 1"       # the side used is a probability (or a list: all must hold)
//! grid = [20, 4, 6]                   # steps of π₁, ε, ε_t
//! deltas = [-20, 20, 0.5]             # δ range and step
//! ```

use super::{Check, RunContext};
use crate::claim::ConstantReport;
use crate::claim::engine::float::{Atom, float_atom, float_available};
use crate::claim::engine::ladder;
use crate::claim::engine::sweep::{Seen, Setting, Sweep};
use crate::claim::routes::Routes;
use crate::claim::schema::{FileError, Theorem};
use crate::claim::setup::{CaseValues, Constants};
use crate::claim::tighten::{Finder, Trial};
use crate::claim::trust::Certification;
use crate::claim::verdict::{Searched, Status, Trust, Verdict, Witness};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use crate::lang::{
    Cmp, Domain, Env, Eval, EvalError, Exact, Expr, Float, Formula, Resolved, Scope,
};
use num_traits::Signed;
use std::cell::RefCell;
use toml::Spanned;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Section {
    #[serde(default)]
    expr: Option<Spanned<String>>,
    /// A chain of inequalities `[e0, "op1 e1", …]` (instead of `expr`).
    #[serde(default)]
    chain: Option<Vec<Spanned<String>>>,
    #[allow(dead_code)]
    over: Spanned<String>,
    #[serde(default)]
    given: crate::claim::chain::Given,
    grid: [usize; 3],
    deltas: [f64; 3],
}

/// The base names (values per element).
const BASE: &[&str] = &[
    "pi1", "pi2", "eps", "eps_t", "delta", "gamma", "alpha", "p1", "valid",
];

/// The derived names, as definitions in the language.
const DERIVED: &[(&str, &str)] = &[
    ("Phi", "cosh(alpha*delta)"),
    (
        "E_Phi",
        "p1*cosh(alpha*(delta + 1/pi1)) + (1 - p1)*cosh(alpha*(delta - 1/pi2))",
    ),
    (
        "dE_Phi",
        "p1*cosh(alpha*(delta + 1/pi1)) + (1 - p1)*cosh(alpha*(delta - 1/pi2)) - cosh(alpha*delta)",
    ),
    ("E_dd", "p1/pi1 - (1 - p1)/pi2"),
    ("E_dd2", "p1/pi1^2 + (1 - p1)/pi2^2"),
];

/// The adversarial multi-step values (backward induction over `horizon` steps).
const ADVERSARY: &[&str] = &["Emax_Phi", "Ptail_max"];

/// The largest `horizon` (the induction visits `horizon²/2` states).
pub const MAX_HORIZON: u64 = 4096;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Slot {
    Base(usize),
    Derived(usize),
    Const(usize),
    /// `ADVERSARY[i]` with the indices of the constants `horizon` and (for `Ptail_max`) `x`.
    Adversary(usize, usize, Option<usize>),
}

struct TpScope<'a> {
    constants: &'a Constants,
    slots: RefCell<Vec<Slot>>,
    derived: RefCell<Vec<Option<Expr>>>,
}

/// What the adversary's terminal value is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Terminal<'a> {
    /// `cosh(αδ)`.
    Phi,
    /// `1(|δ| ≥ x/ε)`.
    Tail(&'a Q),
}

/// `sup` over the adversary's choices of `E[terminal(δ(T))]` from the element's `δ`, in domain
/// `d`: backward induction on the lattice `δ(j, k) = δ₀ + k/π₁ − (j − k)/π₂` (k balls of the
/// first j in bin 1). Hand values in the tests below.
fn adversary<D: Domain>(d: &D, el: &Element, horizon: u64, term: Terminal) -> Eval<D::N> {
    let b = &el.base;
    let (pi1, pi2, eps, eps_t, delta0, alpha) = (&b[0], &b[1], &b[2], &b[3], &b[4], &b[6]);
    let zero = Q::from_integer(0.into());
    let one = Q::from_integer(1.into());
    let up = pi1.recip();
    let down = pi2.recip();
    let delta = |j: u64, k: u64| -> Q {
        delta0 + &up * Q::from_integer(k.into()) - &down * Q::from_integer((j - k).into())
    };
    let terminal = |dl: &Q| -> Eval<D::N> {
        match term {
            Terminal::Phi => d.cosh(&d.rational(&(alpha * dl))?),
            Terminal::Tail(x) => {
                let hit = dl.abs() * eps >= *x;
                d.rational(&Q::from_integer(u8::from(hit).into()))
            }
        }
    };
    let mut v: Vec<D::N> = (0..=horizon)
        .map(|k| terminal(&delta(horizon, k)))
        .collect::<Eval<_>>()?;
    for j in (0..horizon).rev() {
        let mut nv = Vec::with_capacity(j as usize + 1);
        for k in 0..=j {
            let dl = delta(j, k);
            let (hi, lo) = (&v[k as usize + 1], &v[k as usize]);
            let mut best: Option<D::N> = None;
            for e in [eps, eps_t] {
                let p1 = if dl > zero {
                    pi1 - e
                } else if dl < zero {
                    pi1 + e
                } else {
                    pi1.clone()
                };
                if p1 < zero || p1 > one {
                    continue;
                }
                let q1 = d.rational(&p1)?;
                let q2 = d.rational(&(&one - &p1))?;
                let val = d.add(&d.mul(&q1, hi)?, &d.mul(&q2, lo)?)?;
                best = Some(match best {
                    None => val,
                    Some(bv) => d.max(&bv, &val)?,
                });
            }
            nv.push(best.ok_or_else(|| {
                EvalError::Undefined(format!("no valid probability at δ = {dl}"))
            })?);
        }
        v = nv;
    }
    Ok(v.swap_remove(0))
}

impl TpScope<'_> {
    fn slot(&self, s: Slot) -> usize {
        let mut v = self.slots.borrow_mut();
        match v.iter().position(|x| *x == s) {
            Some(i) => i,
            None => {
                v.push(s);
                v.len() - 1
            }
        }
    }
}

impl Scope for TpScope<'_> {
    fn resolve(&self, name: &str) -> std::result::Result<Option<Resolved>, String> {
        if let Some(i) = BASE.iter().position(|n| *n == name) {
            return Ok(Some(Resolved::Slot(self.slot(Slot::Base(i)))));
        }
        if let Some(i) = DERIVED.iter().position(|(n, _)| *n == name) {
            if self.derived.borrow()[i].is_none() {
                let ast = crate::lang::parse(DERIVED[i].1).map_err(|e| e.message)?;
                let e = crate::lang::compile_expr(&ast, self, false).map_err(|e| e.message)?;
                self.derived.borrow_mut()[i] = Some(e);
            }
            return Ok(Some(Resolved::Slot(self.slot(Slot::Derived(i)))));
        }
        if let Some(j) = self.constants.index(name) {
            return Ok(Some(Resolved::Slot(self.slot(Slot::Const(j)))));
        }
        if let Some(i) = ADVERSARY.iter().position(|n| *n == name) {
            let need = |c: &str, what: &str| {
                self.constants.index(c).ok_or_else(|| {
                    format!("`{name}` needs the constant `{c}` ({what}) in [constants]")
                })
            };
            let h = need("horizon", "the number of steps T")?;
            let x = if name == "Ptail_max" {
                Some(need("tail", "the tail threshold x of |δ(T)| ≥ x/ε")?)
            } else {
                None
            };
            return Ok(Some(Resolved::Slot(self.slot(Slot::Adversary(i, h, x)))));
        }
        Ok(None)
    }

    fn known(&self) -> Vec<(String, Vec<String>)> {
        vec![
            (
                "two-point".into(),
                BASE.iter()
                    .map(|s| s.to_string())
                    .chain(DERIVED.iter().map(|(n, _)| n.to_string()))
                    .chain(ADVERSARY.iter().map(|s| s.to_string()))
                    .collect(),
            ),
            ("constants".into(), self.constants.names.clone()),
        ]
    }

    fn has_process(&self) -> bool {
        false
    }
}

/// One element: the base values, exact.
struct Element {
    base: Vec<Q>,
}

fn q(a: usize, b: usize) -> Q {
    Q::new(Int::from(a), Int::from(b))
}

impl Element {
    /// The element as the grid names it.
    fn describe(&self) -> String {
        format!(
            "π₁ = {}, ε = {}, ε_t = {}, δ = {}",
            self.base[0], self.base[2], self.base[3], self.base[4]
        )
    }

    fn new(pi1: &Q, eps: &Q, eps_t: &Q, delta: &Q) -> Element {
        let one = Q::from_integer(1.into());
        let zero = Q::from_integer(0.into());
        let pi2 = &one - pi1;
        let gamma = pi1.recip() + pi2.recip();
        let alpha = eps / Q::from_integer(8.into());
        let p1 = if *delta > zero {
            pi1 - eps_t
        } else if *delta < zero {
            pi1 + eps_t
        } else {
            pi1.clone()
        };
        let lo = pi1 - eps_t;
        let hi = pi1 + eps_t;
        let valid = Q::from_integer(Int::from(u8::from(
            lo >= zero && lo <= one && hi >= zero && hi <= one,
        )));
        Element {
            base: vec![
                pi1.clone(),
                pi2,
                eps.clone(),
                eps_t.clone(),
                delta.clone(),
                gamma,
                alpha,
                p1,
                valid,
            ],
        }
    }
}

struct TpEnv<'a> {
    el: &'a Element,
    slots: &'a [Slot],
    derived: &'a [Option<Expr>],
    constants: &'a Constants,
    case: &'a CaseValues,
}

impl<D: Domain> Env<D> for TpEnv<'_> {
    fn slot(&self, d: &D, slot: usize) -> Eval<D::N> {
        match self.slots[slot] {
            Slot::Base(i) => d.rational(&self.el.base[i]),
            Slot::Derived(i) => self.derived[i]
                .as_ref()
                .ok_or_else(|| EvalError::Undefined(DERIVED[i].0.to_string()))?
                .eval(d, self, None),
            Slot::Const(j) => self.case.constant(self.constants, d, j),
            Slot::Adversary(i, h, x) => {
                let h = self.case.constant(self.constants, &Exact, h)?;
                let horizon = h
                    .to_integer()
                    .try_into()
                    .ok()
                    .filter(|t: &u64| Q::from_integer((*t).into()) == h && *t <= MAX_HORIZON)
                    .ok_or_else(|| {
                        EvalError::Undefined(format!(
                            "`horizon` must be an integer in 0..={MAX_HORIZON}, got {h}"
                        ))
                    })?;
                match x {
                    None => adversary(d, self.el, horizon, Terminal::Phi),
                    Some(x) => {
                        let x = self.case.constant(self.constants, &Exact, x)?;
                        adversary(d, self.el, horizon, Terminal::Tail(&x))
                    }
                }
                .map_err(|e| match e {
                    EvalError::Undefined(m) => {
                        EvalError::Undefined(format!("{}: {m}", ADVERSARY[i]))
                    }
                    other => other,
                })
            }
        }
    }
}

/// A formula at one element, for the certification ladder.
struct TpAt<'a>(&'a Formula, &'a TpEnv<'a>);

impl ladder::AtState for TpAt<'_> {
    fn truth<D: Routes>(&self, d: &D) -> Eval<bool> {
        self.0.truth(d, self.1, None, None)
    }
    fn sides<D: Routes>(&self, _: &D) -> String {
        String::new()
    }
}

/// `f` at one element decided by the certification ladder (None: undecided; an error when a
/// quantity has no certified value).
fn decide(f: &Formula, env: &TpEnv) -> std::result::Result<Option<(bool, Trust)>, String> {
    match ladder::certify(&TpAt(f, env), false) {
        Certification::Decided { holds, trust, .. } => Ok(Some((holds, trust))),
        Certification::Undecided { .. } => Ok(None),
        Certification::NoRoute(e) => Err(e),
    }
}

/// One constant combination of a two-point claim as a setting of the engine: its states are
/// the elements (π₁, ε, ε_t, δ) of the grid.
struct TpSetting<'a> {
    claim: &'a TwoPointExpr,
    case: &'a CaseValues,
}

impl TpSetting<'_> {
    fn env<'b>(&'b self, el: &'b Element) -> TpEnv<'b> {
        TpEnv {
            el,
            slots: &self.claim.slots,
            derived: &self.claim.derived,
            constants: &self.claim.constants,
            case: self.case,
        }
    }
}

impl Setting for TpSetting<'_> {
    type State = Element;
    fn float(&self, el: &Element) -> Result<Option<Atom>> {
        float_available(float_atom(
            &self.claim.expr,
            &self.env(el),
            &Q::from_integer(0.into()),
        ))
        .map_err(|e| {
            Error::invalid(
                self.claim.t.file_name(),
                format!("expr at {}: {e}", el.describe()),
            )
        })
    }
    fn certify(&self, el: &Element) -> Result<Certification> {
        Ok(ladder::certify(
            &TpAt(&self.claim.expr, &self.env(el)),
            false,
        ))
    }
}

/// A built two-point claim.
#[derive(Clone)]
pub struct TwoPointExpr {
    t: Theorem,
    /// The claim searched: `expr`, or the conjunction of a chain's links.
    expr: Formula,
    /// A chain's links, each searched as a claim of its own (empty for `expr`).
    links: Vec<crate::claim::chain::Link>,
    given: Option<Formula>,
    slots: Vec<Slot>,
    derived: Vec<Option<Expr>>,
    constants: Constants,
    grid: [usize; 3],
    deltas: Vec<Q>,
}

/// Builds the check (called by the `graph` kind for `over = "two-point"`).
pub(super) fn build(t: &Theorem) -> std::result::Result<Box<dyn Check>, FileError> {
    let c: Spanned<Section> = t.claim_section()?;
    let at = Some(c.span().start);
    let cs = c.into_inner();
    let constants = Constants::parse(t)?;
    for (j, name) in constants.names.iter().enumerate() {
        if BASE.contains(&name.as_str())
            || DERIVED.iter().any(|(n, _)| n == name)
            || ADVERSARY.contains(&name.as_str())
        {
            return Err(t.error_at(
                Some(constants.at[j]),
                format!("constant `{name}` shadows a two-point quantity"),
            ));
        }
    }
    let scope = TpScope {
        constants: &constants,
        slots: RefCell::new(Vec::new()),
        derived: RefCell::new(vec![None; DERIVED.len()]),
    };
    let (expr, links) =
        crate::claim::chain::expr_or_chain(t, cs.expr.as_ref(), cs.chain.as_deref(), at, &scope)?;
    let given = crate::claim::chain::compile_given_in(t, &cs.given, &scope)?;
    let steps = crate::limits::TWO_POINT_EXPR_STEPS;
    if cs.grid.contains(&0) {
        return Err(t.error_at(at, "grid: every step count must be at least 1"));
    }
    for &g in &cs.grid {
        steps
            .check_usize("grid: a step count", g)
            .map_err(|e| t.error_at(at, e.to_string()))?;
    }
    let [lo, hi, step] = cs.deltas;
    if !(lo.is_finite() && hi.is_finite() && step.is_finite() && step > 0.0 && lo <= hi) {
        return Err(t.error_at(
            at,
            "deltas: need [low, high, step] with finite low ≤ high and step > 0",
        ));
    }
    crate::limits::TWO_POINT_EXPR_DELTAS
        .count_from_f64("deltas: the number of values of δ", (hi - lo) / step)
        .map_err(|e| t.error_at(at, e.to_string()))?;
    let k = ((hi - lo) / step).floor() as usize;
    let deltas = (0..=k)
        .filter_map(|i| crate::exact::from_float(lo + i as f64 * step))
        .collect();
    let slots = scope.slots.borrow().clone();
    let derived = scope.derived.borrow().clone();
    Ok(Box::new(TwoPointExpr {
        t: t.clone(),
        expr,
        links,
        given,
        slots,
        derived,
        constants,
        grid: cs.grid,
        deltas,
    }))
}

impl TwoPointExpr {
    /// The configurations of the grid, exact, inside the printed hypotheses (by construction).
    fn configs(&self) -> Vec<(Q, Q, Q)> {
        let [na, nb, nc] = self.grid;
        let one = Q::from_integer(1.into());
        let two = Q::from_integer(2.into());
        let mut out = Vec::new();
        for a in 1..na {
            let pi1 = q(a, na);
            let pi2 = &one - &pi1;
            let (pmin, pmax) = (pi1.clone().min(pi2.clone()), pi1.clone().max(pi2));
            for b in 1..=nb {
                let eps = &pmin / &two * q(b, nb);
                for c in 1..=nc {
                    let eps_t = &eps + (&pmax / &two - &eps) * q(c, nc);
                    out.push((pi1.clone(), eps.clone(), eps_t));
                }
            }
        }
        out
    }
}

impl Check for TwoPointExpr {
    fn run(&self, ctx: &mut RunContext) -> Result<Verdict> {
        self.run_with(&[], ctx)
    }

    /// The tightest value of a constant by bisection between the two values of its grid in the
    /// file (`[tighten]` says which side holds), at n = 2 (the two bins): at each candidate every
    /// configuration and δ of the grid is decided, a value is kept where the claim holds at all
    /// of them (exactly or by enclosures) and rejected at a certified violation; an element no
    /// domain decides stops the search with an error naming the value.
    fn tighten(
        &self,
        name: &str,
        ns: Option<&[usize]>,
        ctx: &mut RunContext,
    ) -> Result<ConstantReport> {
        if ns.is_some_and(|v| v != [2]) {
            return Err(Error::invalid(
                "--n",
                "a two-point claim has two bins (n = 2 only)",
            ));
        }
        let finder = Finder::new(&self.t, name, &self.constants.names)?;
        let j = finder.index;
        let (lo, hi) = finder.grid_of(&self.constants)?;
        let t = finder.within(2, &lo, &hi, |v| {
            let verdict = self.run_with(&[(j, v.clone())], ctx)?;
            match verdict.verdict {
                Status::Holds | Status::Refuted => {
                    let kept = verdict.verdict == Status::Holds;
                    Ok(Trial::of(verdict, kept))
                }
                _ => Err(Error::invalid(
                    self.t.file_name(),
                    format!("`{name}` = {v}: an element is not decided exactly or by enclosures"),
                )),
            }
        })?;
        Ok(finder.report(vec![t]))
    }
}

/// The relative slack `(b − a)/max(|b|, 1)` of a comparison `a <= b` at `env`, in floats (`None`
/// where a side fails to evaluate or the slack is not finite).
fn float_slack(a: &Expr, b: &Expr, env: &TpEnv) -> Option<f64> {
    let l = a.eval(&Float, env, None).ok()?.v.to_f64();
    let r = b.eval(&Float, env, None).ok()?.v.to_f64();
    let s = (r - l) / r.abs().max(1.0);
    s.is_finite().then_some(s)
}

impl TwoPointExpr {
    /// Whether the element `el` (at `env`) passes `given` (true without one); an element that
    /// `given` cannot decide is an error naming it.
    fn passes_given(&self, env: &TpEnv, el: &Element) -> Result<bool> {
        let Some(g) = &self.given else {
            return Ok(true);
        };
        let file_err = |m: String| Error::invalid(self.t.file_name(), m);
        match decide(g, env).map_err(|e| file_err(format!("given at {}: {e}", el.describe())))? {
            Some((passes, _)) => Ok(passes),
            None => Err(file_err(format!("given at {}: undecided", el.describe()))),
        }
    }

    /// The verdict with the constants of `overrides` set (the constant finder's candidates;
    /// every grid combination of the other constants).
    fn run_with(&self, overrides: &[(usize, Q)], ctx: &mut RunContext) -> Result<Verdict> {
        if !self.links.is_empty() {
            // A chain: each link searched as a claim of its own.
            return crate::claim::chain::verdict(&self.t, &self.links, |l| {
                TwoPointExpr {
                    expr: l.formula.clone(),
                    links: Vec::new(),
                    ..self.clone()
                }
                .run_with(overrides, ctx)
            });
        }
        let mut picks = self.constants.picks();
        for (j, _) in overrides {
            picks.retain(|p| p[*j] == 0);
        }
        let mut searched = Searched {
            n: vec![2],
            sources: 1,
            constant_combinations: picks.len(),
            ..Searched::default()
        };
        let file_err = |m: String| Error::invalid(self.t.file_name(), m);
        let configs = self.configs();
        let mut sweep: Sweep<(usize, Element)> = Sweep::new(0.0);
        // A claim that is one comparison `a <= b` (or `b >= a`) reports its smallest relative
        // slack (b − a)/max(|b|, 1) over the elements where it holds, evaluated in floats.
        let sides = match &self.expr {
            Formula::Cmp(a, Cmp::Le | Cmp::Lt, b) => Some((a, b)),
            Formula::Cmp(b, Cmp::Ge | Cmp::Gt, a) => Some((a, b)),
            _ => None,
        };
        let mut slack: Option<f64> = None;
        if let Some(pr) = ctx.progress {
            pr(&format!("{} two-point", self.t.id));
        }
        let cases = picks
            .iter()
            .map(|pick| {
                let consts = self
                    .constants
                    .evaluate(&self.t, 2, Some(1), pick, overrides)
                    .map_err(|e| file_err(e.to_string()))?;
                Ok(CaseValues {
                    n: 2,
                    b: 1,
                    pick: pick.clone(),
                    consts,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        'outer: for (ci, case) in cases.iter().enumerate() {
            let setting = TpSetting { claim: self, case };
            let mut count = 0u64;
            for (pi1, eps, eps_t) in &configs {
                for delta in &self.deltas {
                    let el = Element::new(pi1, eps, eps_t, delta);
                    let env = setting.env(&el);
                    if !self.passes_given(&env, &el)? {
                        continue;
                    }
                    count += 1;
                    let seen = sweep.visit(&setting, &el, 0.0, || {
                        (ci, Element::new(pi1, eps, eps_t, delta))
                    })?;
                    if seen == Seen::Violation {
                        searched.add("two-point", count);
                        break 'outer;
                    }
                    if let Some(s) = sides.and_then(|(a, b)| float_slack(a, b, &env))
                        && slack.is_none_or(|w| s < w)
                    {
                        slack = Some(s);
                    }
                }
            }
            searched.add("two-point", count);
        }
        sweep.end_group(|(ci, el)| {
            TpSetting {
                claim: self,
                case: &cases[*ci],
            }
            .certify(el)
        })?;
        let out = sweep.finish();
        let weakest = out.trust;
        let (found, witness_consts) = match (out.status, &out.spot) {
            (Status::Holds, _) | (_, None) => (None, Default::default()),
            (st, Some(spot)) => {
                let what = if st == Status::Refuted {
                    spot.at.1.describe()
                } else {
                    format!(
                        "{}: undecided by enclosures up to 4096 bits",
                        spot.at.1.describe()
                    )
                };
                (Some((st, what)), cases[spot.at.0].named(&self.constants))
            }
        };
        if searched.total == 0 {
            return Err(file_err(
                "nothing was evaluated (no configuration and δ passes `given`)".into(),
            ));
        }
        let status = found.as_ref().map_or(Status::Holds, |(s, _)| *s);
        let mut notes = vec![format!(
            "{} configurations of the grid {:?} (inside the printed hypotheses) × {} values of δ; {} elements passed `given`",
            configs.len(),
            self.grid,
            self.deltas.len(),
            searched.total
        )];
        notes.push(match status {
            Status::Holds => {
                "holds at every evaluated element; evidence on the grid, not a proof".into()
            }
            Status::Refuted => "the first violation is the counterexample".into(),
            _ => "an element could not be decided".into(),
        });
        notes.extend(out.notes());
        let witness = found.map(|(_, what)| Witness {
            n: 2,
            loads: vec![],
            source: "two-point process".into(),
            constants: witness_consts,
            constants_text: Default::default(),
            exact: None,
            lhs: what,
            rhs: "-".into(),
            slack: "-".into(),
            found_by: "grid".into(),
            recheck: None,
        });
        Ok(Verdict::of(&self.t, status, weakest)
            .with_slack(if status == Status::Holds { slack } else { None })
            .with_witness(witness)
            .with_searched(searched)
            .with_notes(notes))
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::lang::Enclosure;

    fn q(a: i64, b: i64) -> Q {
        Q::new(a.into(), b.into())
    }

    /// π₁ = 1/2, ε = 1/8, ε_t = 1/4, δ(0) = 0. One step: δ(1) = ±2 with probability 1/2 each
    /// (p1 = π₁ at δ = 0). Two steps, tail |δ(2)| ≥ x/ε = 4 (x = 1/2): from δ = 2 the tail needs
    /// bin 1 (δ = 4), probability π₁ − ε_t or π₁ − ε, the adversary takes 1/2 − 1/8 = 3/8; from
    /// δ = −2 it needs bin 2 (δ = −4), probability 1 − (π₁ + ε) = 3/8 at best. So 3/8 by hand,
    /// and 0 with x = 1 (|δ(2)| ≤ 4 < 8).
    fn adversary_matches_hand_values() {
        let el = Element::new(&q(1, 2), &q(1, 8), &q(1, 4), &q(0, 1));
        assert_eq!(
            adversary(&Exact, &el, 1, Terminal::Tail(&q(1, 4))),
            Ok(q(1, 1))
        );
        assert_eq!(
            adversary(&Exact, &el, 1, Terminal::Tail(&q(1, 2))),
            Ok(q(0, 1))
        );
        assert_eq!(
            adversary(&Exact, &el, 2, Terminal::Tail(&q(1, 2))),
            Ok(q(3, 8))
        );
        assert_eq!(
            adversary(&Exact, &el, 2, Terminal::Tail(&q(1, 1))),
            Ok(q(0, 1))
        );
        // E[cosh(αδ(1))] = cosh(2α), α = ε/8 = 1/64; cosh is not rational, so an enclosure.
        let e = adversary(&Enclosure { prec: 64 }, &el, 1, Terminal::Phi).unwrap();
        let v = Enclosure { prec: 64 }.to_f64(&e);
        assert!((v - (1.0f64 / 32.0).cosh()).abs() < 1e-15, "{v}");
        assert!(adversary(&Exact, &el, 1, Terminal::Phi).is_err());
    }

    /// An invalid side is never used: π₁ = 1/10, ε = 1/40, ε_t = 3/10 (π₁ − ε_t < 0). From
    /// δ(0) = 1 > 0 only ε is allowed: P(bin 1) = 1/10 − 1/40 = 3/40, and the tail |δ(1)| ≥ 11
    /// (x = 11/40) is reached only by bin 1 (δ = 1 + 10 = 11; bin 2 gives 1 − 10/9 = −1/9).
    fn adversary_keeps_probabilities_valid() {
        let el = Element::new(&q(1, 10), &q(1, 40), &q(3, 10), &q(1, 1));
        assert_eq!(
            adversary(&Exact, &el, 1, Terminal::Tail(&q(11, 40))),
            Ok(q(3, 40))
        );
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "adversary_matches_hand_values",
            run: adversary_matches_hand_values,
            panics: None,
        },
        crate::unit::Test {
            name: "adversary_keeps_probabilities_valid",
            run: adversary_keeps_probabilities_valid,
            panics: None,
        },
    ];
}
