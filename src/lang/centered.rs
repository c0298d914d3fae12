//! The mean-value (centred) form as a number domain: over a box `B` of variables with centre
//! `c`, a number is `f(c)` enclosed at the centre together with `f` and `∇f` enclosed over the
//! whole box ([`Dual`] over [`Enclosure`]). Arithmetic carries both; a comparison decides the
//! sign of the difference `g = f₁ − f₂` from
//!
//! `g(B) ⊆ ( g(c) + Σᵢ ∂ᵢg(B)·(Bᵢ − cᵢ) ) ∩ g(B)ₙₐᵢᵥₑ`,
//!
//! the mean-value theorem (for every `x ∈ B`, `g(x) = g(c) + ∇g(ξ)·(x − c)` for a `ξ` on the
//! segment, which lies in the convex box). The naive enclosure of `g` over `B` grows with the
//! box's width times `|∇f₁| + |∇f₂|` (the dependency problem: both sides move with the
//! variable); the centred form's excess shrinks with the width squared, so a comparison whose
//! two sides move together is decided on far wider boxes. Used to decide claims over the ranges
//! of range constants ([`crate::claim::range`]).
//!
//! ```
//! use balloc::exact::Q;
//! use balloc::lang::{Centered, Domain, Enclosure};
//! use std::cmp::Ordering;
//! let q = |a: i64, b: i64| Q::new(a.into(), b.into());
//! // eᵃ < eᵃ(1 + a²/8) + 1/100 for a ∈ [0, 1/64]. Naively the sides span [1, 1.0158] and
//! // [1.01, 1.0259] and overlap; the difference g = eᵃ − (eᵃ(1 + a²/8) + 1/100) is
//! // −0.0100 at the centre 1/128, and its gradient, enclosed as eᴮ − eᴮ(1 + B²/8) − eᴮB/4 over
//! // B = [0, 1/64], lies in [−0.02, 0.016]; times the radius 1/128 that moves g by at most
//! // 1.6·10⁻⁴, so g < 0 on the whole box.
//! let c = Centered::new(128, &[(q(0, 1), q(1, 64))]);
//! let a = c.range_var(&q(0, 1), &q(1, 64), 0).unwrap();
//! let ea = c.exp(&a).unwrap();
//! let eighth = c.div(&c.powi(&a, 2).unwrap(), &c.rational(&q(8, 1)).unwrap()).unwrap();
//! let factor = c.add(&c.one(), &eighth).unwrap();
//! let rhs = c.add(&c.mul(&ea, &factor).unwrap(), &c.rational(&q(1, 100)).unwrap()).unwrap();
//! assert_eq!(c.cmp(&ea, &rhs).unwrap(), Ordering::Less);
//! // The naive enclosures over the same box cannot tell.
//! let e = Enclosure { prec: 128 };
//! let x = e.hull(&q(0, 1), &q(1, 64)).unwrap();
//! let ex = e.exp(&x).unwrap();
//! let f = e.add(&e.one(), &e.div(&e.powi(&x, 2).unwrap(), &e.rational(&q(8, 1)).unwrap()).unwrap()).unwrap();
//! let r = e.add(&e.mul(&ex, &f).unwrap(), &e.rational(&q(1, 100)).unwrap()).unwrap();
//! assert!(e.cmp(&ex, &r).is_err());
//! ```

use super::domain::{Domain, Enclosure, Eval, EvalError, Exact};
use super::dual::{Dual, DualNum, Seed};
use crate::enclosure::Interval;
use crate::exact::Q;
use crate::trust::Trust;
use std::cmp::Ordering;

/// The centred form over a box: the centre's enclosure and the box's value and gradient.
#[derive(Debug, Clone)]
pub struct Centered {
    /// The enclosures at the centre.
    pub at: Enclosure,
    /// Value and gradient over the box.
    pub over: Dual<Enclosure>,
    /// `Bᵢ − cᵢ` per variable, as intervals.
    radius: Vec<Interval>,
    /// The number of corners carried (2^k, or 0 beyond [`MAX_CORNER_VARS`] variables).
    corners: usize,
}

/// A number of [`Centered`]: `f(c)`, `f` at the corners of the box, and `(f, ∇f)` over the box.
#[derive(Debug, Clone)]
pub struct CenteredNum {
    /// `f` at the centre.
    pub c: Interval,
    /// `f` at corner `m` (bit `i` of `m` set: variable `i` at its upper end), for boxes of at
    /// most `MAX_CORNER_VARS` variables (else empty).
    pub corners: Vec<Interval>,
    /// `f` at corner `m` exactly, where exact rational arithmetic reaches it (`e^0 = 1`; a
    /// rational probability such as 1/3, which no binary enclosure holds as a point).
    pub exact: Vec<Option<Q>>,
    /// `f` and `∇f` over the box.
    pub b: DualNum<Interval>,
}

/// The most variables whose box corners are carried (2^k evaluations each).
pub const MAX_CORNER_VARS: usize = 3;

impl Centered {
    /// The centred form at `prec` bits over the box `[loᵢ, hiᵢ]` (variable `i` is
    /// [`Domain::range_var`] with index `i`).
    pub fn new(prec: u64, bounds: &[(Q, Q)]) -> Centered {
        let two = Q::from_integer(2.into());
        let radius = bounds
            .iter()
            .map(|(lo, hi)| {
                let mid = (lo + hi) / &two;
                Interval::from_rational(&(lo - &mid), prec)
                    .hull(&Interval::from_rational(&(hi - &mid), prec))
            })
            .collect();
        let k = bounds.len();
        Centered {
            at: Enclosure { prec },
            over: Dual::new(Enclosure { prec }, k),
            radius,
            corners: if k <= MAX_CORNER_VARS { 1 << k } else { 0 },
        }
    }

    fn lift(
        &self,
        a: &CenteredNum,
        f: impl Fn(&Enclosure, &Interval) -> Eval<Interval>,
        g: impl Fn(&Dual<Enclosure>, &DualNum<Interval>) -> Eval<DualNum<Interval>>,
        q: impl Fn(&Exact, &Q) -> Eval<Q>,
    ) -> Eval<CenteredNum> {
        Ok(CenteredNum {
            c: f(&self.at, &a.c)?,
            corners: a
                .corners
                .iter()
                .map(|x| f(&self.at, x))
                .collect::<Eval<_>>()?,
            exact: a
                .exact
                .iter()
                .map(|x| x.as_ref().and_then(|x| q(&Exact, x).ok()))
                .collect(),
            b: g(&self.over, &a.b)?,
        })
    }

    fn lift2(
        &self,
        a: &CenteredNum,
        b: &CenteredNum,
        f: impl Fn(&Enclosure, &Interval, &Interval) -> Eval<Interval>,
        g: impl Fn(&Dual<Enclosure>, &DualNum<Interval>, &DualNum<Interval>) -> Eval<DualNum<Interval>>,
        q: impl Fn(&Exact, &Q, &Q) -> Eval<Q>,
    ) -> Eval<CenteredNum> {
        Ok(CenteredNum {
            c: f(&self.at, &a.c, &b.c)?,
            corners: a
                .corners
                .iter()
                .zip(&b.corners)
                .map(|(x, y)| f(&self.at, x, y))
                .collect::<Eval<_>>()?,
            exact: a
                .exact
                .iter()
                .zip(&b.exact)
                .map(|(x, y)| match (x, y) {
                    (Some(x), Some(y)) => q(&Exact, x, y).ok(),
                    _ => None,
                })
                .collect(),
            b: g(&self.over, &a.b, &b.b)?,
        })
    }

    /// The enclosure of `a` over the box: the centred form intersected with the naive one, and,
    /// where every partial derivative has one sign over the box (`f` monotone in each
    /// variable), with the hull of its values at the lowest and the highest corner.
    pub fn enclosure(&self, a: &CenteredNum) -> Eval<Interval> {
        let d = &self.at;
        let mut m = a.c.clone();
        for (gi, ri) in a.b.g.iter().zip(&self.radius) {
            m = d.add(&m, &d.mul(gi, ri)?)?;
        }
        let mut lo = m.lo().clone();
        let mut hi = m.hi().clone();
        let naive = &a.b.v;
        if naive.lo() > &lo {
            lo = naive.lo().clone();
        }
        if naive.hi() < &hi {
            hi = naive.hi().clone();
        }
        if let Some((low, high)) = self.monotone_corners(a) {
            let (cl, ch) = (&a.corners[low], &a.corners[high]);
            if cl.lo() > &lo {
                lo = cl.lo().clone();
            }
            if ch.hi() < &hi {
                hi = ch.hi().clone();
            }
        }
        if lo > hi {
            // Both contain every value: they intersect unless a value is not finite.
            return Err(EvalError::Undecided(format!(
                "the centred form {m} and the enclosure {naive} do not meet"
            )));
        }
        Interval::new(lo, hi).map_err(|e| EvalError::Undecided(format!("the centred form: {e}")))
    }

    /// The sign of `a` over the box: `(min ≥ 0, min > 0, max < 0, max ≤ 0)`, from
    /// [`Centered::enclosure`] and, where `a` is monotone in every variable, from its exact
    /// values at the lowest and highest corners (a slack that is exactly 0 at a corner and grows
    /// into the box is `≥ 0`, which no enclosure of it can show).
    pub fn sign(&self, a: &CenteredNum) -> Eval<[bool; 4]> {
        let e = self.enclosure(a)?;
        let mut s = [
            *e.lo() >= 0u32,
            *e.lo() > 0u32,
            *e.hi() < 0u32,
            *e.hi() <= 0u32,
        ];
        if let Some((low, high)) = self.monotone_corners(a) {
            let zero = Q::from_integer(0.into());
            if let Some(Some(q)) = a.exact.get(low) {
                s[0] |= *q >= zero;
                s[1] |= *q > zero;
            }
            if let Some(Some(q)) = a.exact.get(high) {
                s[2] |= *q < zero;
                s[3] |= *q <= zero;
            }
        }
        Ok(s)
    }

    /// When `f` is monotone in every variable over the box (each partial derivative's enclosure
    /// `≥ 0` or `≤ 0`; a constant has all partials 0): the corners where `f` is smallest and
    /// largest.
    fn monotone_corners(&self, a: &CenteredNum) -> Option<(usize, usize)> {
        if a.corners.len() != self.corners || self.corners == 0 {
            return None;
        }
        let k = self.radius.len();
        let (mut low, mut high) = (0usize, 0usize);
        for i in 0..k {
            let Some(gi) = a.b.g.get(i) else {
                // A zero gradient: every corner is as good.
                continue;
            };
            if *gi.lo() >= 0u32 {
                high |= 1 << i;
            } else if *gi.hi() <= 0u32 {
                low |= 1 << i;
            } else {
                return None;
            }
        }
        Some((low, high))
    }
}

impl Domain for Centered {
    type N = CenteredNum;

    fn trust(&self) -> Trust {
        Trust::Enclosure
    }
    fn name(&self) -> String {
        format!("mean-value forms at {} bits", self.at.prec)
    }
    fn rational(&self, q: &Q) -> Eval<CenteredNum> {
        let c = self.at.rational(q)?;
        Ok(CenteredNum {
            corners: vec![c.clone(); self.corners],
            exact: vec![Some(q.clone()); self.corners],
            c,
            b: self.over.rational(q)?,
        })
    }
    fn range_var(&self, lo: &Q, hi: &Q, i: usize) -> Eval<CenteredNum> {
        if i >= self.radius.len() {
            return Err(EvalError::Unavailable(format!(
                "variable {i} of a box of {} variables",
                self.radius.len()
            )));
        }
        let mid = (lo + hi) / Q::from_integer(2.into());
        let (l, h) = (self.at.rational(lo)?, self.at.rational(hi)?);
        Ok(CenteredNum {
            c: self.at.rational(&mid)?,
            corners: (0..self.corners)
                .map(|m| {
                    if m >> i & 1 == 1 {
                        h.clone()
                    } else {
                        l.clone()
                    }
                })
                .collect(),
            exact: (0..self.corners)
                .map(|m| {
                    Some(if m >> i & 1 == 1 {
                        hi.clone()
                    } else {
                        lo.clone()
                    })
                })
                .collect(),
            b: self.over.seed(&self.at.hull(lo, hi)?, i),
        })
    }
    fn float(&self, v: f64) -> Eval<CenteredNum> {
        let c = self.at.float(v)?;
        Ok(CenteredNum {
            corners: vec![c.clone(); self.corners],
            exact: vec![Exact.float(v).ok(); self.corners],
            c,
            b: self.over.float(v)?,
        })
    }
    fn add(&self, a: &CenteredNum, b: &CenteredNum) -> Eval<CenteredNum> {
        self.lift2(
            a,
            b,
            |d, x, y| d.add(x, y),
            |d, x, y| d.add(x, y),
            |d, x, y| d.add(x, y),
        )
    }
    fn sub(&self, a: &CenteredNum, b: &CenteredNum) -> Eval<CenteredNum> {
        self.lift2(
            a,
            b,
            |d, x, y| d.sub(x, y),
            |d, x, y| d.sub(x, y),
            |d, x, y| d.sub(x, y),
        )
    }
    fn mul(&self, a: &CenteredNum, b: &CenteredNum) -> Eval<CenteredNum> {
        self.lift2(
            a,
            b,
            |d, x, y| d.mul(x, y),
            |d, x, y| d.mul(x, y),
            |d, x, y| d.mul(x, y),
        )
    }
    fn div(&self, a: &CenteredNum, b: &CenteredNum) -> Eval<CenteredNum> {
        self.lift2(
            a,
            b,
            |d, x, y| d.div(x, y),
            |d, x, y| d.div(x, y),
            |d, x, y| d.div(x, y),
        )
    }
    fn neg(&self, a: &CenteredNum) -> Eval<CenteredNum> {
        self.lift(a, |d, x| d.neg(x), |d, x| d.neg(x), |d, x| d.neg(x))
    }
    fn powi(&self, a: &CenteredNum, k: i64) -> Eval<CenteredNum> {
        self.lift(
            a,
            |d, x| d.powi(x, k),
            |d, x| d.powi(x, k),
            |d, x| d.powi(x, k),
        )
    }
    fn exp(&self, a: &CenteredNum) -> Eval<CenteredNum> {
        self.lift(a, |d, x| d.exp(x), |d, x| d.exp(x), |d, x| d.exp(x))
    }
    fn ln(&self, a: &CenteredNum) -> Eval<CenteredNum> {
        self.lift(a, |d, x| d.ln(x), |d, x| d.ln(x), |d, x| d.ln(x))
    }
    fn sqrt(&self, a: &CenteredNum) -> Eval<CenteredNum> {
        self.lift(a, |d, x| d.sqrt(x), |d, x| d.sqrt(x), |d, x| d.sqrt(x))
    }
    fn abs(&self, a: &CenteredNum) -> Eval<CenteredNum> {
        self.lift(a, |d, x| d.abs(x), |d, x| d.abs(x), |d, x| d.abs(x))
    }
    fn floor(&self, a: &CenteredNum) -> Eval<CenteredNum> {
        self.lift(a, |d, x| d.floor(x), |d, x| d.floor(x), |d, x| d.floor(x))
    }
    fn ceil(&self, a: &CenteredNum) -> Eval<CenteredNum> {
        self.lift(a, |d, x| d.ceil(x), |d, x| d.ceil(x), |d, x| d.ceil(x))
    }
    fn cosh(&self, a: &CenteredNum) -> Eval<CenteredNum> {
        self.lift(a, |d, x| d.cosh(x), |d, x| d.cosh(x), |d, x| d.cosh(x))
    }
    fn sinh(&self, a: &CenteredNum) -> Eval<CenteredNum> {
        self.lift(a, |d, x| d.sinh(x), |d, x| d.sinh(x), |d, x| d.sinh(x))
    }
    fn min(&self, a: &CenteredNum, b: &CenteredNum) -> Eval<CenteredNum> {
        self.lift2(
            a,
            b,
            |d, x, y| d.min(x, y),
            |d, x, y| d.min(x, y),
            |d, x, y| d.min(x, y),
        )
    }
    fn max(&self, a: &CenteredNum, b: &CenteredNum) -> Eval<CenteredNum> {
        self.lift2(
            a,
            b,
            |d, x, y| d.max(x, y),
            |d, x, y| d.max(x, y),
            |d, x, y| d.max(x, y),
        )
    }
    /// The sign of `a − b` over the box, from its centred form.
    fn cmp(&self, a: &CenteredNum, b: &CenteredNum) -> Eval<Ordering> {
        let diff = self.sub(a, b)?;
        let e = self.enclosure(&diff)?;
        let zero = self.at.zero();
        self.at.cmp(&e, &zero).map_err(|_| {
            EvalError::Undecided(format!(
                "the mean-value form {e} of a difference contains 0 at {} bits",
                self.at.prec
            ))
        })
    }
    fn to_f64(&self, a: &CenteredNum) -> f64 {
        self.at.to_f64(&a.b.v)
    }
    fn to_rational(&self, a: &CenteredNum) -> Option<Q> {
        // Known exactly only when constant over the box.
        self.over.to_rational(&a.b)
    }
    fn show(&self, a: &CenteredNum) -> String {
        match self.enclosure(a) {
            Ok(e) => e.to_string(),
            Err(_) => a.b.v.to_string(),
        }
    }
}
