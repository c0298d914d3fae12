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
//! ```toml
//! kind = "graph"
//! [claim]
//! over = "two-point"
//! expr = "E_Phi <= Phi - alpha*eps*gamma*(Phi - 2)/2"
//! given = "p1 >= 0 && p1 <= 1"       # the side used is a probability
//! grid = [20, 4, 6]                   # steps of π₁, ε, ε_t
//! deltas = [-20, 20, 0.5]             # δ range and step
//! ```

use super::{Check, RunContext};
use crate::claim::schema::{FileError, Theorem};
use crate::claim::setup::{CaseValues, Constants};
use crate::claim::verdict::{Searched, Status, Trust, Verdict, Witness};
use crate::error::{Error, Result};
use crate::exact::Q;
use crate::lang::{Domain, Enclosure, Env, Eval, EvalError, Exact, Expr, Formula, Resolved, Scope};
use num_bigint::BigInt;
use std::cell::RefCell;
use toml::Spanned;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Section {
    expr: Spanned<String>,
    #[allow(dead_code)]
    over: Spanned<String>,
    #[serde(default)]
    given: Option<Spanned<String>>,
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

#[derive(Debug, Clone, Copy, PartialEq)]
enum Slot {
    Base(usize),
    Derived(usize),
    Const(usize),
}

struct TpScope<'a> {
    constants: &'a Constants,
    slots: RefCell<Vec<Slot>>,
    derived: RefCell<Vec<Option<Expr>>>,
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
        Ok(None)
    }

    fn known(&self) -> Vec<(String, Vec<String>)> {
        vec![
            (
                "two-point".into(),
                BASE.iter()
                    .map(|s| s.to_string())
                    .chain(DERIVED.iter().map(|(n, _)| n.to_string()))
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
    Q::new(BigInt::from(a), BigInt::from(b))
}

impl Element {
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
        let valid = Q::from_integer(BigInt::from(u8::from(
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
        }
    }
}

fn decide(f: &Formula, env: &TpEnv) -> std::result::Result<Option<(bool, Trust)>, String> {
    match f.truth(&Exact, env, None, None) {
        Ok(b) => return Ok(Some((b, Trust::Exact))),
        Err(EvalError::Unavailable(_)) | Err(EvalError::Undecided(_)) => {}
        Err(e) => return Err(e.to_string()),
    }
    for prec in [64u64, 128, 256, 512, 1024, 2048, 4096] {
        match f.truth(&Enclosure { prec }, env, None, None) {
            Ok(b) => return Ok(Some((b, Trust::Enclosure))),
            Err(EvalError::Undecided(_)) => continue,
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(None)
}

/// A built two-point claim.
pub struct TwoPointExpr {
    t: Theorem,
    expr: Formula,
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
        if BASE.contains(&name.as_str()) || DERIVED.iter().any(|(n, _)| n == name) {
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
    let formula = |what: &str, s: &Spanned<String>| -> std::result::Result<Formula, FileError> {
        let at = s.span().start;
        let ast = crate::lang::parse(s.get_ref()).map_err(|e| {
            crate::claim::setup::error_in_string(t, at, e.at, format!("{what}: {}", e.message))
        })?;
        crate::lang::compile_formula(&ast, &scope, false).map_err(|e| {
            crate::claim::setup::error_in_string(t, at, e.at, format!("{what}: {}", e.message))
        })
    };
    let expr = formula("expr", &cs.expr)?;
    let given = match &cs.given {
        Some(g) => Some(formula("given", g)?),
        None => None,
    };
    if cs.grid.iter().any(|&g| g == 0 || g > 1000) {
        return Err(t.error_at(at, "grid: every step count must be in 1..=1000"));
    }
    let [lo, hi, step] = cs.deltas;
    if !(lo.is_finite() && hi.is_finite() && step.is_finite() && step > 0.0 && lo <= hi)
        || (hi - lo) / step > 1e5
    {
        return Err(t.error_at(
            at,
            "deltas: need [low, high, step] with low ≤ high, step > 0, at most 10⁵ points",
        ));
    }
    let k = ((hi - lo) / step).floor() as usize;
    let deltas = (0..=k)
        .filter_map(|i| Q::from_float(lo + i as f64 * step))
        .collect();
    let slots = scope.slots.borrow().clone();
    let derived = scope.derived.borrow().clone();
    Ok(Box::new(TwoPointExpr {
        t: t.clone(),
        expr,
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
        let picks = self.constants.picks();
        let mut searched = Searched {
            n: vec![2],
            sources: 1,
            constant_combinations: picks.len(),
            ..Searched::default()
        };
        let file_err = |m: String| Error::invalid(self.t.file_name(), m);
        let configs = self.configs();
        let mut weakest = Trust::Exact;
        let mut found: Option<(Status, String)> = None;
        let mut witness_consts = Default::default();
        if let Some(pr) = ctx.progress {
            pr(&format!("{} two-point", self.t.id));
        }
        'outer: for pick in &picks {
            let consts = self
                .constants
                .evaluate(&self.t, 2, Some(1), pick, &[])
                .map_err(|e| file_err(e.to_string()))?;
            let case = CaseValues {
                n: 2,
                b: 1,
                pick: pick.clone(),
                consts,
            };
            let mut count = 0u64;
            for (pi1, eps, eps_t) in &configs {
                for delta in &self.deltas {
                    let el = Element::new(pi1, eps, eps_t, delta);
                    let env = TpEnv {
                        el: &el,
                        slots: &self.slots,
                        derived: &self.derived,
                        constants: &self.constants,
                        case: &case,
                    };
                    let at = || format!("π₁ = {pi1}, ε = {eps}, ε_t = {eps_t}, δ = {delta}");
                    if let Some(g) = &self.given {
                        match decide(g, &env)
                            .map_err(|e| file_err(format!("given at {}: {e}", at())))?
                        {
                            Some((true, _)) => {}
                            Some((false, _)) => continue,
                            None => return Err(file_err(format!("given at {}: undecided", at()))),
                        }
                    }
                    count += 1;
                    match decide(&self.expr, &env)
                        .map_err(|e| file_err(format!("expr at {}: {e}", at())))?
                    {
                        Some((true, tr)) => {
                            if tr == Trust::Enclosure {
                                weakest = Trust::Enclosure;
                            }
                        }
                        Some((false, tr)) => {
                            weakest = tr;
                            found = Some((Status::Refuted, at()));
                            witness_consts = case.named(&self.constants);
                            searched.add("two-point", count);
                            break 'outer;
                        }
                        None => {
                            if found.is_none() {
                                found = Some((
                                    Status::Inconclusive,
                                    format!("{}: undecided by enclosures up to 4096 bits", at()),
                                ));
                                witness_consts = case.named(&self.constants);
                            }
                        }
                    }
                }
            }
            searched.add("two-point", count);
        }
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
        let witness = found.map(|(_, what)| Witness {
            n: 2,
            loads: vec![],
            source: "two-point process".into(),
            constants: witness_consts,
            lhs: what,
            rhs: "-".into(),
            slack: "-".into(),
            found_by: "grid".into(),
            recheck: None,
        });
        Ok(Verdict {
            links: Vec::new(),
            id: self.t.id.clone(),
            verdict: status,
            expected: self.t.file.expected,
            trust: weakest,
            slack: None,
            witness,
            searched,
            notes,
        })
    }
}
