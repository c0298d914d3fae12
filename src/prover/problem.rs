//! A claim over real variables, compiled: the variables and their box, the named values the
//! expressions read (variables, derived names, irrational constants), the hypotheses and the
//! comparison. [`Problem::goal_value`] evaluates `g` (the claim as `g ≥ 0`) and its partial
//! derivatives on a box in any [`Seed`] domain, through the one evaluator of the claim language.

use super::boxes::Bx;
use crate::enclosure::Interval;
use crate::exact::Q;
use crate::lang::dual::{DualNum, dual1};
use crate::lang::expsum::ExpSum;
use crate::lang::{
    Cmp, Domain, Dual, Enclosure, Eval, EvalError, ExpSums, Expr, Formula, Seed, Slots,
};
use num_traits::Zero;
use std::cmp::Ordering;
use std::sync::Arc;

/// A variable of the prover and its range (a closed interval with possibly open ends: an open
/// end is outside the domain, but the claim is proved on the closure, which implies it on the
/// domain).
#[derive(Debug, Clone, PartialEq)]
pub struct Var {
    /// The name in expressions.
    pub name: String,
    /// The lower end.
    pub lo: Q,
    /// The upper end.
    pub hi: Q,
    /// Whether `lo` is excluded.
    pub lo_open: bool,
    /// Whether `hi` is excluded.
    pub hi_open: bool,
}

/// An irrational constant: its enclosure at a working precision.
pub type ConstFn = Arc<dyn Fn(u64) -> Result<Interval, String> + Send + Sync>;

/// What a slot of the compiled expressions holds.
#[derive(Clone)]
pub enum SlotDef {
    /// Variable `i`.
    Var(usize),
    /// A constant given by its enclosure at each precision.
    Const(ConstFn),
    /// A derived value: an expression over earlier slots.
    Let(Expr),
}

impl std::fmt::Debug for SlotDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SlotDef::Var(i) => write!(f, "Var({i})"),
            SlotDef::Const(_) => write!(f, "Const"),
            SlotDef::Let(e) => write!(f, "Let({e:?})"),
        }
    }
}

/// A claim `lhs op rhs` over a box of real variables, with hypotheses.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The variables (the coordinates of the box).
    pub vars: Vec<Var>,
    /// The slots read by the expressions, in evaluation order (a `Let` reads earlier slots).
    pub slots: Vec<SlotDef>,
    /// The left side.
    pub lhs: Expr,
    /// The right side.
    pub rhs: Expr,
    /// The comparison: `<=`, `<`, `>=` or `>`.
    pub cmp: Cmp,
    /// An absolute tolerance: the claim is `lhs ≤ rhs + tol` (or `lhs + tol ≥ rhs`).
    pub tol: Q,
    /// Hypotheses: the claim is about the points where every one holds.
    pub given: Vec<Formula>,
    /// Points where the claim is stated to be tight: split points, and the first points tried as
    /// counterexamples. They exempt nothing: a strict claim whose sides are equal at one is
    /// refuted there, and a non-strict one is decided there exactly like any other point.
    pub touching: Vec<Vec<Q>>,
    /// The claim as written (for reports and certificates).
    pub text: String,
}

/// The highest order of derivatives the prover uses (first-order tests on derivatives of order
/// up to 2, i.e. third derivatives of the claim).
pub const MAX_ORDER: usize = 3;

impl Problem {
    /// The number of variables.
    pub fn dim(&self) -> usize {
        self.vars.len()
    }

    /// The box of the domain (closed; open ends are recorded in [`Var`]).
    pub fn root(&self) -> Bx {
        Bx {
            lo: self.vars.iter().map(|v| v.lo.clone()).collect(),
            hi: self.vars.iter().map(|v| v.hi.clone()).collect(),
        }
    }

    /// Whether the claim is strict (`<` or `>`).
    pub fn strict(&self) -> bool {
        matches!(self.cmp, Cmp::Lt | Cmp::Gt)
    }

    /// Whether a point lies in the domain (open ends excluded).
    pub fn in_domain(&self, x: &[Q]) -> bool {
        self.vars.iter().zip(x).all(|(v, q)| {
            (if v.lo_open { *q > v.lo } else { *q >= v.lo })
                && (if v.hi_open { *q < v.hi } else { *q <= v.hi })
        })
    }

    /// Whether the hyperplane `x_i = at` is an open end of the domain.
    pub fn open_end(&self, i: usize, at: &Q) -> bool {
        let v = &self.vars[i];
        (v.lo_open && *at == v.lo) || (v.hi_open && *at == v.hi)
    }

    /// The slot values at the enclosures `x` of the variables, in the domain `d`.
    pub fn values<D: Seed>(&self, d: &D, x: &[Interval], prec: u64) -> Eval<Vec<D::N>> {
        let mut vals: Vec<D::N> = Vec::with_capacity(self.slots.len());
        for s in &self.slots {
            let v = match s {
                SlotDef::Var(i) => d.seed(&x[*i], *i),
                SlotDef::Const(f) => d.constant(&f(prec).map_err(EvalError::Undefined)?),
                SlotDef::Let(e) => e.eval(d, &Slots(&vals), None)?,
            };
            vals.push(v);
        }
        Ok(vals)
    }

    /// `g` with `g ≥ 0` (or `> 0` for a strict claim) iff the claim holds: `rhs − lhs + tol`
    /// for `<=`/`<`, `lhs − rhs + tol` for `>=`/`>`; also the two sides.
    pub fn g<D: Seed>(&self, d: &D, x: &[Interval], prec: u64) -> Eval<(D::N, D::N, D::N)> {
        let vals = self.values(d, x, prec)?;
        self.g_of(d, &vals)
    }

    /// The slot values at a rational point in any domain, the variables given by `var`
    /// (`Unavailable` for a constant known only by enclosures).
    fn point_values<D: Domain>(&self, d: &D, var: impl Fn(usize) -> Eval<D::N>) -> Eval<Vec<D::N>> {
        let mut vals: Vec<D::N> = Vec::with_capacity(self.slots.len());
        for s in &self.slots {
            let v = match s {
                SlotDef::Var(i) => var(*i)?,
                SlotDef::Const(_) => {
                    return Err(EvalError::Unavailable("an irrational constant".into()));
                }
                SlotDef::Let(e) => e.eval(d, &Slots(&vals), None)?,
            };
            vals.push(v);
        }
        Ok(vals)
    }

    /// The sign of `s·∂_path g` at a rational point, decided exactly: in exact exponential sums
    /// (rationals and `e^q` for rational `q`, signs by Lindemann–Weierstrass and enclosures of
    /// increasing precision), for `path` of length 0 or 1. `None` when the claim leaves that
    /// domain (`ln` or `√` of a value that is not a rational square or 1, an irrational constant).
    ///
    /// This decides touching points where the claim is exactly tight but an enclosure of `g`
    /// at a non-dyadic point (e.g. `x − 1/3` at `x = 1/3`) cannot be exactly zero.
    pub fn exact_sign(&self, path: &[usize], positive: bool, x: &[Q]) -> Option<Ordering> {
        let d = ExpSums::default();
        let v: ExpSum = match path {
            [] => {
                let vals = self
                    .point_values(&d, |i| Ok(ExpSum::rational(x[i].clone())))
                    .ok()?;
                self.g_of(&d, &vals).ok()?.0
            }
            [j] => {
                let k = self.dim();
                let dd = Dual::new(ExpSums::default(), k);
                let vals = self
                    .point_values(&dd, |i| {
                        Ok(DualNum {
                            v: ExpSum::rational(x[i].clone()),
                            g: (0..k)
                                .map(|m| {
                                    ExpSum::rational(if m == i {
                                        Q::from_integer(1.into())
                                    } else {
                                        Q::zero()
                                    })
                                })
                                .collect(),
                        })
                    })
                    .ok()?;
                let g = self.g_of(&dd, &vals).ok()?.0;
                g.g.get(*j)
                    .cloned()
                    .unwrap_or_else(|| ExpSum::rational(Q::zero()))
            }
            _ => return None,
        };
        let s = d.cmp(&v, &ExpSum::rational(Q::zero())).ok()?;
        Some(if positive { s } else { s.reverse() })
    }

    /// The enclosure of `s·∂_path g` at a rational point, with its lower end raised to 0 when
    /// the enclosure reaches below 0 but the exact value there is `≥ 0` ([`Problem::exact_sign`]):
    /// at a touching point the claim is exactly tight, which no enclosure of a non-dyadic point
    /// can show.
    pub fn point_value(
        &self,
        path: &[usize],
        positive: bool,
        c: &[Q],
        prec: u64,
    ) -> Eval<Interval> {
        let (fc, _) = self.goal_value(
            path,
            positive,
            &super::boxes::point_intervals(c, prec),
            prec,
            false,
        )?;
        if *fc.lo() < 0u32
            && *fc.hi() >= 0u32
            && matches!(
                self.exact_sign(path, positive, c),
                Some(Ordering::Greater | Ordering::Equal)
            )
        {
            return Interval::new(malachite::Float::from(0u32), fc.hi().clone())
                .map_err(|e| EvalError::Undefined(e.to_string()));
        }
        Ok(fc)
    }

    fn g_of<D: Domain>(&self, d: &D, vals: &[D::N]) -> Eval<(D::N, D::N, D::N)> {
        let env = Slots(vals);
        let l = self.lhs.eval(d, &env, None)?;
        let r = self.rhs.eval(d, &env, None)?;
        let mut g = match self.cmp {
            Cmp::Le | Cmp::Lt => d.sub(&r, &l)?,
            _ => d.sub(&l, &r)?,
        };
        if !self.tol.is_zero() {
            g = d.add(&g, &d.rational(&self.tol)?)?;
        }
        Ok((g, l, r))
    }

    /// The truth of each hypothesis on the enclosures `x` (`Err(Undecided)`: true on part of
    /// it at most).
    pub fn hypotheses(&self, x: &[Interval], prec: u64) -> Vec<Eval<bool>> {
        let d = Enclosure { prec };
        let vals = match self.values(&d, x, prec) {
            Ok(v) => v,
            Err(e) => return self.given.iter().map(|_| Err(e.clone())).collect(),
        };
        self.given
            .iter()
            .map(|f| f.truth(&d, &Slots(&vals), None, None))
            .collect()
    }

    /// The enclosure of `s·∂_{path} g` on the box `x` and, when `grad` is set and the
    /// derivatives exist, of its gradient `s·∂_i ∂_{path} g` for every variable `i`
    /// (`s = +1` when `positive`, else `−1`).
    ///
    /// The domain differentiates along the variables of `path` only (one derivative per nesting
    /// level), with the full gradient at the innermost level when `grad` is set: `∂ₐ∂ₐ∇g` in
    /// four variables costs 2·2·5 intervals per number instead of 5³.
    pub fn goal_value(
        &self,
        path: &[usize],
        positive: bool,
        x: &[Interval],
        prec: u64,
        grad: bool,
    ) -> Eval<(Interval, Option<Vec<Interval>>)> {
        let order = path.len() + usize::from(grad);
        if order > MAX_ORDER || path.len() > 3 {
            return Err(EvalError::Unavailable(format!(
                "derivatives of order {order} (the prover stops at {MAX_ORDER})"
            )));
        }
        let k = self.dim();
        let e = Enclosure { prec };
        let along = |i: usize| path[i];
        let (v, g) = match (path.len(), grad) {
            (0, false) => self.read(&e, path, x, prec, grad)?,
            (0, true) => self.read(&dual1(prec, k), path, x, prec, grad)?,
            (1, false) => self.read(&Dual::along(e, along(0)), path, x, prec, grad)?,
            (1, true) => self.read(&Dual::along(dual1(prec, k), along(0)), path, x, prec, grad)?,
            (2, false) => self.read(
                &Dual::along(Dual::along(e, along(1)), along(0)),
                path,
                x,
                prec,
                grad,
            )?,
            (2, true) => self.read(
                &Dual::along(Dual::along(dual1(prec, k), along(1)), along(0)),
                path,
                x,
                prec,
                grad,
            )?,
            _ => self.read(
                &Dual::along(Dual::along(Dual::along(e, along(2)), along(1)), along(0)),
                path,
                x,
                prec,
                grad,
            )?,
        };
        if positive {
            Ok((v, g))
        } else {
            Ok((v.neg(), g.map(|g| g.into_iter().map(|i| i.neg()).collect())))
        }
    }

    fn read<D: Seed>(
        &self,
        d: &D,
        path: &[usize],
        x: &[Interval],
        prec: u64,
        grad: bool,
    ) -> Eval<(Interval, Option<Vec<Interval>>)> {
        let (g, _, _) = self.g(d, x, prec)?;
        let missing = || EvalError::Unavailable("a derivative beyond the domain's order".into());
        let v = d.partial(&g, path).ok_or_else(missing)?;
        let gr = if grad {
            let mut out = Vec::with_capacity(self.dim());
            for i in 0..self.dim() {
                let mut p = path.to_vec();
                p.push(i);
                out.push(d.partial(&g, &p).ok_or_else(missing)?);
            }
            Some(out)
        } else {
            None
        };
        check_finite(&v)?;
        if let Some(gr) = &gr {
            for i in gr {
                check_finite(i)?;
            }
        }
        Ok((v, gr))
    }

    /// `g` at a point in plain extended-range floating point (the cheap evaluation of the
    /// sampling search; never a verdict by itself). `None` where undefined.
    pub fn g_float(&self, x: &[f64]) -> Option<f64> {
        use crate::lang::Float;
        let d = Float;
        let vals = self
            .point_values(&d, |i| d.float(x[i]))
            .or_else(|_| {
                // Irrational constants: their midpoints.
                let mut vals = Vec::with_capacity(self.slots.len());
                for s in &self.slots {
                    let v = match s {
                        SlotDef::Var(i) => d.float(x[*i])?,
                        SlotDef::Const(f) => {
                            let iv = f(64).map_err(EvalError::Undefined)?;
                            d.float(Domain::to_f64(&Enclosure { prec: 64 }, &iv))?
                        }
                        SlotDef::Let(e) => e.eval(&d, &Slots(&vals), None)?,
                    };
                    vals.push(v);
                }
                Ok::<_, EvalError>(vals)
            })
            .ok()?;
        let (g, _, _) = self.g_of(&d, &vals).ok()?;
        let v = g.v.to_f64();
        v.is_finite().then_some(v)
    }

    /// The truth of every hypothesis at a point in floating point.
    pub fn hypotheses_float(&self, x: &[f64]) -> bool {
        use crate::lang::Float;
        let d = Float;
        let Ok(vals) = self.point_values(&d, |i| d.float(x[i])) else {
            return true;
        };
        self.given
            .iter()
            .all(|f| f.truth(&d, &Slots(&vals), None, None).unwrap_or(false))
    }

    /// The two sides and `g` at a point, as enclosures.
    pub fn sides_at(&self, x: &[Q], prec: u64) -> Eval<(Interval, Interval, Interval)> {
        let d = Enclosure { prec };
        let iv = super::boxes::point_intervals(x, prec);
        self.g(&d, &iv, prec)
    }

    /// `g` at a point in floating point (for the tightest box of a report).
    pub fn g_f64(&self, x: &[Q]) -> Option<f64> {
        let (g, _, _) = self.sides_at(x, 64).ok()?;
        Some(Domain::to_f64(&Enclosure { prec: 64 }, &g))
    }
}

fn check_finite(i: &Interval) -> Eval<()> {
    if i.is_finite() {
        Ok(())
    } else {
        Err(EvalError::Undefined(
            "an enclosure with an infinite end".into(),
        ))
    }
}
