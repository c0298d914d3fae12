//! Number domains: the arithmetic in which one compiled expression is evaluated.
//!
//! A claim is evaluated with one evaluator ([`crate::lang::Expr::eval`]) in any of four domains,
//! each of which is a trust level of a verdict:
//!
//! | domain | numbers | trust | `exp`, `ln`, `sqrt` |
//! |---|---|---|---|
//! | [`Float`] | extended-range floats `m·2^e` ([`XFloat`]) with a magnitude for the error estimate | `float` | yes |
//! | [`Exact`] | rationals ([`Q`]) | `exact` | only where the value is rational (`exp(0)`, `ln(1)`, `sqrt(9/4)`) |
//! | [`Enclosure`] | intervals with outward rounding at a working precision ([`Interval`]) | `enclosure` | yes (correctly rounded ends) |
//! | [`ExpSums`] | exact exponential sums `Σ cⱼe^{aⱼ}`, `cⱼ, aⱼ ∈ ℚ` ([`ExpSum`]) | `exact`, or `enclosure` when a sign needed enclosures | `exp` of a rational |
//!
//! An operation a domain does not have returns [`EvalError::Unavailable`]; an operation that is
//! undefined (division by zero, `ln` of a non-positive number) returns [`EvalError::Undefined`] in
//! every domain, never `inf` or NaN; a comparison an enclosure cannot decide returns
//! [`EvalError::Undecided`].

use super::expsum::ExpSum;
use crate::enclosure::Interval;
use crate::exact::Q;
use crate::trust::Trust;
use crate::xfloat::XFloat;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};

/// Why an evaluation gave no number.
#[derive(Debug, Clone, PartialEq)]
pub enum EvalError {
    /// The domain has no value for this operation or quantity (e.g. `exp(1/2)` in rationals).
    Unavailable(String),
    /// The value is mathematically undefined (division by zero, `ln` of a non-positive number,
    /// a rank out of range).
    Undefined(String),
    /// A comparison of enclosures that overlap at this precision.
    Undecided(String),
    /// A library error (invalid parameters, a limit exceeded); boxed, so that an evaluation's
    /// `Result` stays small (every operation of a domain returns one).
    Error(Box<crate::Error>),
    /// [`crate::lang::Float64`] left the normal range of `f64` (or met an undefined operation):
    /// the evaluation is repeated in [`Float`], which gives the value or the error.
    Beyond64,
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalError::Unavailable(s) => write!(f, "not available in this domain: {s}"),
            EvalError::Undefined(s) => write!(f, "undefined: {s}"),
            EvalError::Undecided(s) => write!(f, "undecided: {s}"),
            EvalError::Error(e) => write!(f, "{e}"),
            EvalError::Beyond64 => write!(f, "a value beyond the normal range of f64"),
        }
    }
}

impl From<crate::Error> for EvalError {
    fn from(e: crate::Error) -> Self {
        EvalError::Error(Box::new(e))
    }
}

/// The result of an evaluation.
pub type Eval<T> = std::result::Result<T, EvalError>;

fn unavailable<T>(what: impl Into<String>) -> Eval<T> {
    Err(EvalError::Unavailable(what.into()))
}

fn undefined<T>(what: impl Into<String>) -> Eval<T> {
    Err(EvalError::Undefined(what.into()))
}

/// The largest integer exponent `a^k` evaluates by repeated squaring in the exact domains.
pub const MAX_INTEGER_POWER: i64 = 4096;

/// A number domain (see the module documentation).
pub trait Domain: Sync {
    /// The numbers.
    type N: Clone + std::fmt::Debug + Send + Sync;

    /// The trust level of a verdict decided in this domain.
    fn trust(&self) -> Trust;
    /// A short name for reports (`float`, `exact`, `enclosure at 128 bits`, ...).
    fn name(&self) -> String;
    /// Whether inputs (loads, probabilities) are taken from their exact rational values (every
    /// domain but [`Float`]).
    fn exact_inputs(&self) -> bool {
        true
    }

    /// A rational number.
    fn rational(&self, q: &Q) -> Eval<Self::N>;
    /// Every number of the closed interval `[lo, hi]` at once (a constant ranging over a box,
    /// [`crate::claim::range`]): an enclosure in the interval domains; unavailable in the
    /// domains of single numbers, which then decide nothing over the box.
    fn hull(&self, lo: &Q, hi: &Q) -> Eval<Self::N> {
        let _ = (lo, hi);
        Err(EvalError::Unavailable(format!(
            "{} holds single numbers, not the range [{lo}, {hi}]",
            self.name()
        )))
    }
    /// Variable `i` of a box ranging over `[lo, hi]` (a range constant, [`crate::claim::range`]):
    /// [`Domain::hull`], except in the domains that follow variables (the mean-value form
    /// [`super::centered::Centered`] differentiates with respect to it).
    fn range_var(&self, lo: &Q, hi: &Q, i: usize) -> Eval<Self::N> {
        let _ = i;
        self.hull(lo, hi)
    }
    /// A literal: its exact value `q` and its nearest `f64` `f` (the float domain takes `f`).
    fn literal(&self, q: &Q, f: f64) -> Eval<Self::N> {
        let _ = f;
        self.rational(q)
    }
    /// The exact value of a finite `f64`.
    fn float(&self, v: f64) -> Eval<Self::N>;
    /// An extended-range float; only the float domain accepts it.
    fn xfloat(&self, v: XFloat) -> Eval<Self::N> {
        let _ = v;
        unavailable("a floating-point value")
    }

    /// `a + b`
    fn add(&self, a: &Self::N, b: &Self::N) -> Eval<Self::N>;
    /// `a − b`
    fn sub(&self, a: &Self::N, b: &Self::N) -> Eval<Self::N>;
    /// `a · b`
    fn mul(&self, a: &Self::N, b: &Self::N) -> Eval<Self::N>;
    /// `a / b` (undefined when `b = 0`)
    fn div(&self, a: &Self::N, b: &Self::N) -> Eval<Self::N>;
    /// `−a`
    fn neg(&self, a: &Self::N) -> Eval<Self::N>;
    /// `a^k` for an integer `k`.
    fn powi(&self, a: &Self::N, k: i64) -> Eval<Self::N>;
    /// `e^a`
    fn exp(&self, a: &Self::N) -> Eval<Self::N>;
    /// `ln a` (undefined for `a ≤ 0`)
    fn ln(&self, a: &Self::N) -> Eval<Self::N>;
    /// `√a` (undefined for `a < 0`)
    fn sqrt(&self, a: &Self::N) -> Eval<Self::N>;
    /// `|a|`
    fn abs(&self, a: &Self::N) -> Eval<Self::N>;
    /// `⌊a⌋`
    fn floor(&self, a: &Self::N) -> Eval<Self::N>;
    /// `⌈a⌉`
    fn ceil(&self, a: &Self::N) -> Eval<Self::N>;
    /// The order of `a` against `b`, when this domain can decide it.
    fn cmp(&self, a: &Self::N, b: &Self::N) -> Eval<Ordering>;
    /// The smaller of two numbers (domains with enclosures override it to work without a
    /// decided comparison).
    fn min(&self, a: &Self::N, b: &Self::N) -> Eval<Self::N> {
        Ok(if self.cmp(a, b)? == Ordering::Greater {
            b.clone()
        } else {
            a.clone()
        })
    }
    /// The larger of two numbers.
    fn max(&self, a: &Self::N, b: &Self::N) -> Eval<Self::N> {
        Ok(if self.cmp(a, b)? == Ordering::Less {
            b.clone()
        } else {
            a.clone()
        })
    }
    /// The nearest `f64` (the midpoint of an enclosure), for reports and the search.
    fn to_f64(&self, a: &Self::N) -> f64;
    /// The value as an extended-range float (for reports beyond the range of `f64`).
    fn to_xfloat(&self, a: &Self::N) -> XFloat {
        XFloat::from_f64(self.to_f64(a))
    }
    /// The exact value, when the number is known exactly.
    fn to_rational(&self, a: &Self::N) -> Option<Q>;
    /// A human-readable rendering of a number.
    fn show(&self, a: &Self::N) -> String;

    /// `a^b`: an integer power when `b` is an integer known exactly, otherwise `e^{b ln a}`.
    fn pow(&self, a: &Self::N, b: &Self::N) -> Eval<Self::N> {
        if let Some(q) = self.to_rational(b)
            && q.is_integer()
        {
            let k = q
                .to_integer()
                .to_i64()
                .filter(|k| k.abs() <= MAX_INTEGER_POWER)
                .ok_or_else(|| {
                    EvalError::Undefined(format!(
                        "the integer power {q} exceeds the limit {MAX_INTEGER_POWER}"
                    ))
                })?;
            return self.powi(a, k);
        }
        let l = self.ln(a)?;
        self.exp(&self.mul(b, &l)?)
    }
    /// `cosh a = (e^a + e^{−a})/2`
    fn cosh(&self, a: &Self::N) -> Eval<Self::N> {
        let s = self.add(&self.exp(a)?, &self.exp(&self.neg(a)?)?)?;
        self.div(&s, &self.rational(&Q::from_integer(2.into()))?)
    }
    /// `sinh a = (e^a − e^{−a})/2`
    fn sinh(&self, a: &Self::N) -> Eval<Self::N> {
        let s = self.sub(&self.exp(a)?, &self.exp(&self.neg(a)?)?)?;
        self.div(&s, &self.rational(&Q::from_integer(2.into()))?)
    }
    /// `0`
    fn zero(&self) -> Self::N {
        self.rational(&Q::zero()).expect("0 is in every domain")
    }
    /// `1`
    fn one(&self) -> Self::N {
        self.rational(&Q::one()).expect("1 is in every domain")
    }
    /// `1` when `holds`, else `0` (an indicator).
    fn indicator(&self, holds: bool) -> Self::N {
        if holds { self.one() } else { self.zero() }
    }
    /// Whether the order of `a` and `b` this domain gives may be an artefact of rounding (the
    /// float domains: the two are within `2⁻⁴⁰` of the magnitudes of their terms). The certified
    /// domains decide or say undecided, so never.
    fn fragile(&self, a: &Self::N, b: &Self::N) -> bool {
        let _ = (a, b);
        false
    }
    /// `v` with an uncertainty of up to `by ≥ 0` made visible (the float domains raise the
    /// magnitude so that the numerical resolution covers `by`, and a comparison within it is
    /// left to the certified domains); the certified domains never need it.
    fn blur(&self, v: &Self::N, by: &Self::N) -> Eval<Self::N> {
        let _ = by;
        Ok(v.clone())
    }
}

/// The factor by which [`Domain::blur`] raises a float magnitude: the numerical resolution of a
/// claim is 10⁻¹¹ of its magnitudes, so a magnitude of 2³⁷·u ≈ 1.4·10¹¹·u covers an uncertainty u.
const BLUR: f64 = 137_438_953_472.0;

/// Whether two float values are within `2⁻⁴⁰` of their magnitudes ([`Domain::fragile`]).
fn near(d: XFloat, m: XFloat) -> bool {
    d.abs() <= m.mul(XFloat::from_f64(2f64.powi(-40)))
}

// ---------------------------------------------------------------------------------------------
// Float

/// A float of the [`Float`] domain: its value and a magnitude `m ≥ |v|` that bounds the terms it
/// was computed from, so that a cancellation (`v` tiny, `m` large) is visible: the rounding error
/// of the evaluation is a small multiple of `2⁻⁵³·m`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Approx {
    /// The value.
    pub v: XFloat,
    /// The magnitude of the terms it was computed from.
    pub m: XFloat,
}

impl Approx {
    /// A value computed accurately from its inputs (magnitude = |value|).
    pub fn exact(v: XFloat) -> Approx {
        Approx { v, m: v.abs() }
    }
}

/// Extended-range floating point with a magnitude (trust `float`).
///
/// ```
/// use balloc::lang::{Domain, Float};
/// let d = Float;
/// let a = d.float(1e16).unwrap();
/// let one = d.float(1.0).unwrap();
/// // (1e16 + 1) − 1e16 is 0 or 2 in f64; the magnitude 2e16 shows the cancellation.
/// let r = d.sub(&d.add(&a, &one).unwrap(), &a).unwrap();
/// assert!(r.m.to_f64() >= 2e16);
/// assert!(d.div(&one, &d.float(0.0).unwrap()).is_err()); // never inf
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Float;

fn finite(v: XFloat, what: &str) -> Eval<XFloat> {
    if v.is_finite() {
        Ok(v)
    } else {
        undefined(format!("{what} is not a finite number"))
    }
}

impl Domain for Float {
    type N = Approx;
    fn trust(&self) -> Trust {
        Trust::Float
    }
    fn name(&self) -> String {
        "float".into()
    }
    fn exact_inputs(&self) -> bool {
        false
    }
    fn rational(&self, q: &Q) -> Eval<Approx> {
        let v = crate::exact::to_f64(q);
        if v.is_finite() {
            return Ok(Approx::exact(XFloat::from_f64(v)));
        }
        // Beyond f64: numerator and denominator separately.
        let n = big_to_xfloat(q.numer());
        let d = big_to_xfloat(q.denom());
        Ok(Approx::exact(finite(n.div(d), "a rational constant")?))
    }
    fn literal(&self, q: &Q, f: f64) -> Eval<Approx> {
        if f.is_finite() && (f != 0.0 || q.is_zero()) {
            return Ok(Approx::exact(XFloat::from_f64(f)));
        }
        self.rational(q)
    }
    fn float(&self, v: f64) -> Eval<Approx> {
        if !v.is_finite() {
            return undefined(format!("{v} is not a finite number"));
        }
        Ok(Approx::exact(XFloat::from_f64(v)))
    }
    fn xfloat(&self, v: XFloat) -> Eval<Approx> {
        // Expressions are evaluated in binary form (a log-domain value is converted once here).
        Ok(Approx::exact(finite(v.binary(), "a value")?))
    }
    fn add(&self, a: &Approx, b: &Approx) -> Eval<Approx> {
        Ok(Approx {
            v: finite(a.v.add(b.v), "a sum")?,
            m: a.m.add(b.m),
        })
    }
    fn sub(&self, a: &Approx, b: &Approx) -> Eval<Approx> {
        Ok(Approx {
            v: finite(a.v.sub(b.v), "a difference")?,
            m: a.m.add(b.m),
        })
    }
    fn mul(&self, a: &Approx, b: &Approx) -> Eval<Approx> {
        Ok(Approx {
            v: finite(a.v.mul(b.v), "a product")?,
            m: a.m.mul(b.m),
        })
    }
    fn div(&self, a: &Approx, b: &Approx) -> Eval<Approx> {
        if b.v.is_zero() {
            return undefined("division by zero");
        }
        Ok(Approx {
            v: finite(a.v.div(b.v), "a quotient")?,
            m: a.m.div(b.v.abs()),
        })
    }
    fn neg(&self, a: &Approx) -> Eval<Approx> {
        Ok(Approx {
            v: a.v.neg(),
            m: a.m,
        })
    }
    fn powi(&self, a: &Approx, k: i64) -> Eval<Approx> {
        if k < 0 && a.v.is_zero() {
            return undefined("0 to a negative power");
        }
        let kf = XFloat::from_f64(k as f64);
        let v = a.v.pow(kf);
        let m = a.m.pow(kf).abs().max(v.abs());
        Ok(Approx {
            v: finite(v, "a power")?,
            m: finite(m, "a power")?,
        })
    }
    fn exp(&self, a: &Approx) -> Eval<Approx> {
        let v = finite(XFloat::exp(a.v), "e^x")?;
        // An absolute error δ in a is a relative error δ in e^a.
        let rel = XFloat::from_f64(1.0).max(a.m);
        Ok(Approx { v, m: v.mul(rel) })
    }
    fn ln(&self, a: &Approx) -> Eval<Approx> {
        if a.v <= XFloat::ZERO {
            return undefined(format!("ln of {} (not positive)", a.v));
        }
        let v = a.v.ln();
        Ok(Approx {
            v,
            m: v.abs().add(a.m.div(a.v)),
        })
    }
    fn sqrt(&self, a: &Approx) -> Eval<Approx> {
        if a.v < XFloat::ZERO {
            return undefined(format!("sqrt of {} (negative)", a.v));
        }
        let v = a.v.sqrt();
        Ok(Approx {
            v,
            m: a.m.sqrt().max(v),
        })
    }
    fn abs(&self, a: &Approx) -> Eval<Approx> {
        Ok(Approx {
            v: a.v.abs(),
            m: a.m,
        })
    }
    fn floor(&self, a: &Approx) -> Eval<Approx> {
        Ok(Approx::exact(a.v.floor()))
    }
    fn ceil(&self, a: &Approx) -> Eval<Approx> {
        Ok(Approx::exact(a.v.ceil()))
    }
    fn cmp(&self, a: &Approx, b: &Approx) -> Eval<Ordering> {
        a.v.partial_cmp(&b.v)
            .ok_or_else(|| EvalError::Undefined("a comparison with NaN".into()))
    }
    /// ```
    /// use balloc::lang::{Domain, Float};
    /// let d = Float;
    /// // 0.1·3 and 0.3 differ by rounding only; 1 and 2 do not.
    /// let (a, b) = (d.mul(&d.float(0.1).unwrap(), &d.float(3.0).unwrap()).unwrap(), d.float(0.3).unwrap());
    /// assert!(d.fragile(&a, &b) && !d.fragile(&d.one(), &d.float(2.0).unwrap()));
    /// // Blurring 0.5 by 0.25 raises the magnitude beyond 10¹¹·0.25.
    /// assert!(d.blur(&d.float(0.5).unwrap(), &d.float(0.25).unwrap()).unwrap().m.to_f64() > 2.5e10);
    /// ```
    fn fragile(&self, a: &Approx, b: &Approx) -> bool {
        near(a.v.sub(b.v), a.m.add(b.m))
    }
    fn blur(&self, v: &Approx, by: &Approx) -> Eval<Approx> {
        Ok(Approx {
            v: v.v,
            m: v.m.add(by.v.abs().mul(XFloat::from_f64(BLUR))),
        })
    }
    fn to_f64(&self, a: &Approx) -> f64 {
        a.v.to_f64()
    }
    fn to_xfloat(&self, a: &Approx) -> XFloat {
        a.v
    }
    fn to_rational(&self, a: &Approx) -> Option<Q> {
        let v = a.v.to_f64();
        if v.is_finite() && a.m == a.v.abs() {
            crate::exact::from_float(v)
        } else {
            None
        }
    }
    fn show(&self, a: &Approx) -> String {
        a.v.to_string()
    }
}

fn big_to_xfloat(b: &crate::exact::Int) -> XFloat {
    let b = &num_bigint::BigInt::from(b);
    // b = m · 2^k with the top 64 bits in m.
    let bits = b.bits();
    if bits <= 1000 {
        return XFloat::from_f64(b.to_f64().unwrap_or(f64::NAN));
    }
    let shift = bits - 64;
    let top: num_bigint::BigInt = b >> shift;
    XFloat::from_f64(top.to_f64().unwrap_or(f64::NAN)).mul(XFloat::exp(XFloat::from_f64(
        shift as f64 * std::f64::consts::LN_2,
    )))
}

// ---------------------------------------------------------------------------------------------
// Exact

/// Exact rationals (trust `exact`); `exp`, `ln` and `sqrt` only where the value is rational.
///
/// ```
/// use balloc::lang::{Domain, Exact};
/// use balloc::exact::Q;
/// let d = Exact;
/// let third = d.div(&d.float(1.0).unwrap(), &d.float(3.0).unwrap()).unwrap();
/// assert_eq!(third, Q::new(1.into(), 3.into()));
/// assert!(d.exp(&third).is_err()); // e^{1/3} is not rational
/// assert_eq!(d.sqrt(&Q::new(9.into(), 4.into())).unwrap(), Q::new(3.into(), 2.into()));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Exact;

fn int_sqrt(b: &crate::exact::Int) -> Option<crate::exact::Int> {
    let r = num_integer::Roots::sqrt(b);
    (&r * &r == *b).then_some(r)
}

impl Domain for Exact {
    type N = Q;
    fn trust(&self) -> Trust {
        Trust::Exact
    }
    fn name(&self) -> String {
        "exact rationals".into()
    }
    fn rational(&self, q: &Q) -> Eval<Q> {
        Ok(q.clone())
    }
    fn float(&self, v: f64) -> Eval<Q> {
        crate::exact::from_float(v)
            .ok_or_else(|| EvalError::Undefined(format!("{v} is not a finite number")))
    }
    fn add(&self, a: &Q, b: &Q) -> Eval<Q> {
        Ok(a + b)
    }
    fn sub(&self, a: &Q, b: &Q) -> Eval<Q> {
        Ok(a - b)
    }
    fn mul(&self, a: &Q, b: &Q) -> Eval<Q> {
        Ok(a * b)
    }
    fn div(&self, a: &Q, b: &Q) -> Eval<Q> {
        if b.is_zero() {
            return undefined("division by zero");
        }
        Ok(a / b)
    }
    fn neg(&self, a: &Q) -> Eval<Q> {
        Ok(-a)
    }
    fn powi(&self, a: &Q, k: i64) -> Eval<Q> {
        if k < 0 && a.is_zero() {
            return undefined("0 to a negative power");
        }
        if k.abs() > MAX_INTEGER_POWER {
            return undefined(format!(
                "the integer power {k} exceeds the limit {MAX_INTEGER_POWER}"
            ));
        }
        Ok(num_traits::pow::Pow::pow(a, k as i32))
    }
    fn exp(&self, a: &Q) -> Eval<Q> {
        if a.is_zero() {
            return Ok(Q::one());
        }
        unavailable(format!("exp({a}) is irrational"))
    }
    fn ln(&self, a: &Q) -> Eval<Q> {
        if !a.is_positive() {
            return undefined(format!("ln of {a} (not positive)"));
        }
        if a.is_one() {
            return Ok(Q::zero());
        }
        unavailable(format!("ln({a}) is irrational"))
    }
    fn sqrt(&self, a: &Q) -> Eval<Q> {
        if a.is_negative() {
            return undefined(format!("sqrt of {a} (negative)"));
        }
        match (int_sqrt(a.numer()), int_sqrt(a.denom())) {
            (Some(n), Some(d)) => Ok(Q::new(n, d)),
            _ => unavailable(format!("sqrt({a}) is irrational")),
        }
    }
    fn abs(&self, a: &Q) -> Eval<Q> {
        Ok(a.abs())
    }
    fn floor(&self, a: &Q) -> Eval<Q> {
        Ok(a.floor())
    }
    fn ceil(&self, a: &Q) -> Eval<Q> {
        Ok(a.ceil())
    }
    fn cmp(&self, a: &Q, b: &Q) -> Eval<Ordering> {
        Ok(a.cmp(b))
    }
    fn to_f64(&self, a: &Q) -> f64 {
        crate::exact::to_f64(a)
    }
    fn to_xfloat(&self, a: &Q) -> XFloat {
        Float.rational(a).map(|x| x.v).unwrap_or(XFloat::NAN)
    }
    fn to_rational(&self, a: &Q) -> Option<Q> {
        Some(a.clone())
    }
    fn show(&self, a: &Q) -> String {
        a.to_string()
    }
}

// ---------------------------------------------------------------------------------------------
// Enclosure

/// Intervals with outward rounding at `prec` bits (trust `enclosure`).
///
/// ```
/// use balloc::lang::{Domain, Enclosure};
/// use std::cmp::Ordering;
/// let d = Enclosure { prec: 128 };
/// let e = d.exp(&d.float(1.0).unwrap()).unwrap();
/// let three = d.float(3.0).unwrap();
/// assert_eq!(d.cmp(&e, &three).unwrap(), Ordering::Less); // e < 3, certified
/// assert!(d.cmp(&e, &e).is_err()); // two wide copies of e overlap: undecided
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Enclosure {
    /// The working precision in bits.
    pub prec: u64,
}

fn enc(e: crate::Error) -> EvalError {
    EvalError::Undefined(e.to_string())
}

impl Enclosure {
    fn point(&self, a: &Interval) -> bool {
        a.lo() == a.hi()
    }
}

impl Domain for Enclosure {
    type N = Interval;
    fn trust(&self) -> Trust {
        Trust::Enclosure
    }
    fn name(&self) -> String {
        format!("enclosures at {} bits", self.prec)
    }
    fn rational(&self, q: &Q) -> Eval<Interval> {
        Ok(Interval::from_rational(q, self.prec))
    }
    fn hull(&self, lo: &Q, hi: &Q) -> Eval<Interval> {
        Ok(Interval::from_rational(lo, self.prec).hull(&Interval::from_rational(hi, self.prec)))
    }
    fn float(&self, v: f64) -> Eval<Interval> {
        Interval::from_f64(v).map_err(enc)
    }
    fn add(&self, a: &Interval, b: &Interval) -> Eval<Interval> {
        Ok(a.add(b, self.prec))
    }
    fn sub(&self, a: &Interval, b: &Interval) -> Eval<Interval> {
        Ok(a.sub(b, self.prec))
    }
    fn mul(&self, a: &Interval, b: &Interval) -> Eval<Interval> {
        Ok(a.mul(b, self.prec))
    }
    fn div(&self, a: &Interval, b: &Interval) -> Eval<Interval> {
        if *b.lo() <= 0u32 && *b.hi() >= 0u32 {
            if self.point(b) {
                return undefined("division by zero");
            }
            return Err(EvalError::Undecided(format!(
                "the divisor's enclosure {b} contains 0"
            )));
        }
        a.div(b, self.prec).map_err(enc)
    }
    fn neg(&self, a: &Interval) -> Eval<Interval> {
        Ok(a.neg())
    }
    fn powi(&self, a: &Interval, k: i64) -> Eval<Interval> {
        if k.abs() > MAX_INTEGER_POWER {
            return undefined(format!(
                "the integer power {k} exceeds the limit {MAX_INTEGER_POWER}"
            ));
        }
        let mut acc = self.one();
        let mut base = a.clone();
        let mut e = k.unsigned_abs();
        // Repeated squaring with interval products (exact for the sign of odd powers).
        while e > 0 {
            if e & 1 == 1 {
                acc = acc.mul(&base, self.prec);
            }
            e >>= 1;
            if e > 0 {
                base = self.square(&base);
            }
        }
        if k < 0 {
            return self.div(&self.one(), &acc);
        }
        Ok(acc)
    }
    fn exp(&self, a: &Interval) -> Eval<Interval> {
        a.exp(self.prec).map_err(enc)
    }
    fn cosh(&self, a: &Interval) -> Eval<Interval> {
        a.cosh(self.prec).map_err(enc)
    }
    fn sinh(&self, a: &Interval) -> Eval<Interval> {
        a.sinh(self.prec).map_err(enc)
    }
    fn ln(&self, a: &Interval) -> Eval<Interval> {
        if *a.hi() <= 0u32 {
            return undefined(format!("ln of {a} (not positive)"));
        }
        if *a.lo() <= 0u32 {
            return Err(EvalError::Undecided(format!(
                "ln of an enclosure {a} that reaches 0"
            )));
        }
        a.ln(self.prec).map_err(enc)
    }
    fn sqrt(&self, a: &Interval) -> Eval<Interval> {
        if *a.hi() < 0u32 {
            return undefined(format!("sqrt of {a} (negative)"));
        }
        if *a.lo() < 0u32 {
            return Err(EvalError::Undecided(format!(
                "sqrt of an enclosure {a} that reaches below 0"
            )));
        }
        a.sqrt(self.prec).map_err(enc)
    }
    fn abs(&self, a: &Interval) -> Eval<Interval> {
        if *a.lo() >= 0u32 {
            Ok(a.clone())
        } else if *a.hi() <= 0u32 {
            Ok(a.neg())
        } else {
            let n = a.neg();
            let top = if n.hi() >= a.hi() { n.hi() } else { a.hi() };
            Interval::new(malachite::Float::from(0u32), top.clone()).map_err(enc)
        }
    }
    fn floor(&self, a: &Interval) -> Eval<Interval> {
        // ⌊·⌋ is monotone: x ∈ [lo, hi] ⇒ ⌊x⌋ ∈ [⌊lo⌋, ⌊hi⌋].
        let lo = interval_floor(a.lo());
        let hi = interval_floor(a.hi());
        Ok(Interval::from_rational(&lo, self.prec).hull(&Interval::from_rational(&hi, self.prec)))
    }
    fn ceil(&self, a: &Interval) -> Eval<Interval> {
        let lo = -interval_floor(&(-a.lo().clone()));
        let hi = -interval_floor(&(-a.hi().clone()));
        Ok(Interval::from_rational(&lo, self.prec).hull(&Interval::from_rational(&hi, self.prec)))
    }
    fn cmp(&self, a: &Interval, b: &Interval) -> Eval<Ordering> {
        if a.hi() < b.lo() {
            Ok(Ordering::Less)
        } else if a.lo() > b.hi() {
            Ok(Ordering::Greater)
        } else if self.point(a) && self.point(b) && a.lo() == b.lo() {
            Ok(Ordering::Equal)
        } else {
            Err(EvalError::Undecided(format!(
                "the enclosures {a} and {b} overlap at {} bits",
                self.prec
            )))
        }
    }
    fn min(&self, a: &Interval, b: &Interval) -> Eval<Interval> {
        Ok(a.min(b))
    }
    fn max(&self, a: &Interval, b: &Interval) -> Eval<Interval> {
        Ok(a.max(b))
    }
    fn to_f64(&self, a: &Interval) -> f64 {
        a.mid_f64()
    }
    fn to_rational(&self, a: &Interval) -> Option<Q> {
        if !self.point(a) {
            return None;
        }
        float_to_rational(a.lo())
    }
    fn show(&self, a: &Interval) -> String {
        a.to_string()
    }
}

impl Enclosure {
    fn square(&self, a: &Interval) -> Interval {
        // x² over an interval containing 0 is [0, max(lo², hi²)], tighter than a·a.
        if *a.lo() < 0u32 && *a.hi() > 0u32 {
            let m = self.abs(a).expect("abs of an interval");
            let sq = m.mul(&m, self.prec);
            Interval::new(malachite::Float::from(0u32), sq.hi().clone()).expect("0 ≤ hi")
        } else {
            a.mul(a, self.prec)
        }
    }
}

/// The exact rational value of a finite malachite float.
/// The exact rational value of a finite binary float (`None` for an infinity or NaN), e.g. an end
/// of an enclosure.
///
/// ```
/// let f = malachite::Float::from(0.375f64);
/// assert_eq!(balloc::lang::domain::float_to_rational(&f).unwrap().to_string(), "3/8");
/// ```
pub fn float_to_rational(f: &malachite::Float) -> Option<Q> {
    use malachite::base::num::conversion::traits::ExactFrom;
    if !f.is_finite() {
        return None;
    }
    let r = malachite::Rational::exact_from(f);
    let s = r.to_string();
    match s.split_once('/') {
        Some((n, d)) => Some(Q::new(n.parse().ok()?, d.parse().ok()?)),
        None => Some(Q::from_integer(s.parse().ok()?)),
    }
}

fn interval_floor(f: &malachite::Float) -> Q {
    float_to_rational(f)
        .map(|q| q.floor())
        .unwrap_or_else(Q::zero)
}

// ---------------------------------------------------------------------------------------------
// Exponential sums

/// Exact exponential sums `Σ cⱼ e^{aⱼ}` (trust `exact`; a sign that needed enclosures makes the
/// decision `enclosure`, recorded in [`ExpSums::enclosure_bits`]). By the Lindemann–Weierstrass
/// theorem a reduced sum with rational coefficients and distinct rational exponents is 0 only when
/// it is empty, so every comparison is decided: exactly when the difference is rational, else by
/// enclosures of increasing precision.
///
/// ```
/// use balloc::lang::{Domain, ExpSums};
/// use std::cmp::Ordering;
/// let d = ExpSums::default();
/// let half = d.float(0.5).unwrap();
/// // e^{1/2}·e^{1/2} = e^1 exactly.
/// let e = d.exp(&d.float(1.0).unwrap()).unwrap();
/// let p = d.mul(&d.exp(&half).unwrap(), &d.exp(&half).unwrap()).unwrap();
/// assert_eq!(d.cmp(&p, &e).unwrap(), Ordering::Equal);
/// assert_eq!(d.enclosure_bits(), None); // decided exactly
/// assert_eq!(d.cmp(&e, &d.float(2.0).unwrap()).unwrap(), Ordering::Greater);
/// assert!(d.enclosure_bits().is_some()); // e − 2 > 0 by enclosures
/// ```
#[derive(Debug, Default)]
pub struct ExpSums {
    /// The largest enclosure precision a comparison needed (0: none).
    bits: AtomicU64,
}

impl ExpSums {
    /// The largest working precision an enclosure needed to decide a comparison so far (`None`:
    /// every comparison was decided exactly).
    pub fn enclosure_bits(&self) -> Option<u64> {
        match self.bits.load(AtomicOrdering::Relaxed) {
            0 => None,
            b => Some(b),
        }
    }
}

impl Domain for ExpSums {
    type N = ExpSum;
    fn trust(&self) -> Trust {
        if self.enclosure_bits().is_some() {
            Trust::Enclosure
        } else {
            Trust::Exact
        }
    }
    fn name(&self) -> String {
        "exact exponential sums".into()
    }
    fn rational(&self, q: &Q) -> Eval<ExpSum> {
        Ok(ExpSum::rational(q.clone()))
    }
    fn float(&self, v: f64) -> Eval<ExpSum> {
        Exact.float(v).map(ExpSum::rational)
    }
    fn add(&self, a: &ExpSum, b: &ExpSum) -> Eval<ExpSum> {
        Ok(a.add(b))
    }
    fn sub(&self, a: &ExpSum, b: &ExpSum) -> Eval<ExpSum> {
        Ok(a.sub(b))
    }
    fn mul(&self, a: &ExpSum, b: &ExpSum) -> Eval<ExpSum> {
        a.mul(b).ok_or_else(|| {
            EvalError::Unavailable(format!(
                "a product of exponential sums beyond {} terms",
                super::expsum::TERM_LIMIT
            ))
        })
    }
    fn div(&self, a: &ExpSum, b: &ExpSum) -> Eval<ExpSum> {
        match b.as_rational() {
            Some(q) if q.is_zero() => undefined("division by zero"),
            Some(q) => Ok(a.scale(&(Q::one() / q))),
            None => unavailable("division by a sum of exponentials"),
        }
    }
    fn neg(&self, a: &ExpSum) -> Eval<ExpSum> {
        Ok(a.scale(&-Q::one()))
    }
    fn powi(&self, a: &ExpSum, k: i64) -> Eval<ExpSum> {
        if let Some(q) = a.as_rational() {
            return Exact.powi(&q, k).map(ExpSum::rational);
        }
        if k < 0 {
            if a.len() == 1 {
                // (c e^a)^k = c^k e^{ka}
                return a.monomial_pow(k).ok_or_else(|| {
                    EvalError::Unavailable("a negative power of an exponential sum".into())
                });
            }
            return unavailable("a negative power of a sum of exponentials");
        }
        if k > MAX_INTEGER_POWER {
            return undefined(format!(
                "the integer power {k} exceeds the limit {MAX_INTEGER_POWER}"
            ));
        }
        let mut acc = ExpSum::rational(Q::one());
        let mut base = a.clone();
        let mut e = k as u64;
        while e > 0 {
            if e & 1 == 1 {
                acc = self.mul(&acc, &base)?;
            }
            e >>= 1;
            if e > 0 {
                base = self.mul(&base, &base)?;
            }
        }
        Ok(acc)
    }
    fn exp(&self, a: &ExpSum) -> Eval<ExpSum> {
        match a.as_rational() {
            Some(q) => Ok(ExpSum::exp(q)),
            None => unavailable("exp of a sum of exponentials"),
        }
    }
    fn ln(&self, a: &ExpSum) -> Eval<ExpSum> {
        match a.as_rational() {
            Some(q) => Exact.ln(&q).map(ExpSum::rational),
            None if a.len() == 1 => a
                .monomial_ln()
                .ok_or_else(|| EvalError::Unavailable("ln of an exponential sum".into())),
            None => unavailable("ln of a sum of exponentials"),
        }
    }
    fn sqrt(&self, a: &ExpSum) -> Eval<ExpSum> {
        match a.as_rational() {
            Some(q) => Exact.sqrt(&q).map(ExpSum::rational),
            None => unavailable("sqrt of a sum of exponentials"),
        }
    }
    fn abs(&self, a: &ExpSum) -> Eval<ExpSum> {
        Ok(if self.sign(a)? == Ordering::Less {
            self.neg(a)?
        } else {
            a.clone()
        })
    }
    fn floor(&self, a: &ExpSum) -> Eval<ExpSum> {
        match a.as_rational() {
            Some(q) => Ok(ExpSum::rational(q.floor())),
            None => unavailable("floor of a sum of exponentials"),
        }
    }
    fn ceil(&self, a: &ExpSum) -> Eval<ExpSum> {
        match a.as_rational() {
            Some(q) => Ok(ExpSum::rational(q.ceil())),
            None => unavailable("ceil of a sum of exponentials"),
        }
    }
    fn cmp(&self, a: &ExpSum, b: &ExpSum) -> Eval<Ordering> {
        self.sign(&a.sub(b))
    }
    fn to_f64(&self, a: &ExpSum) -> f64 {
        a.to_f64()
    }
    fn to_rational(&self, a: &ExpSum) -> Option<Q> {
        a.as_rational()
    }
    fn show(&self, a: &ExpSum) -> String {
        match a.as_rational() {
            Some(q) => q.to_string(),
            None => match a.enclose(64) {
                Ok(i) => format!("{i} ({} exponential terms)", a.len()),
                Err(_) => format!("a sum of {} exponential terms", a.len()),
            },
        }
    }
}

impl ExpSums {
    fn sign(&self, d: &ExpSum) -> Eval<Ordering> {
        let (s, bits) = d
            .sign_with_precision()
            .map_err(|e| EvalError::Undecided(e.to_string()))?;
        if let Some(b) = bits {
            self.bits.fetch_max(b, AtomicOrdering::Relaxed);
        }
        Ok(s)
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    fn q(a: i64, b: i64) -> Q {
        Q::new(a.into(), b.into())
    }

    fn undefined_operations_are_errors_in_every_domain() {
        assert!(matches!(
            Float.div(&Float.float(1.0).unwrap(), &Float.float(0.0).unwrap()),
            Err(EvalError::Undefined(_))
        ));
        assert!(matches!(
            Exact.div(&q(1, 1), &q(0, 1)),
            Err(EvalError::Undefined(_))
        ));
        assert!(matches!(Exact.ln(&q(0, 1)), Err(EvalError::Undefined(_))));
        assert!(matches!(
            Float.ln(&Float.float(0.0).unwrap()),
            Err(EvalError::Undefined(_))
        ));
        let e = Enclosure { prec: 64 };
        assert!(matches!(
            e.div(&e.float(1.0).unwrap(), &e.float(0.0).unwrap()),
            Err(EvalError::Undefined(_))
        ));
        let s = ExpSums::default();
        assert!(matches!(
            s.div(&s.float(1.0).unwrap(), &s.float(0.0).unwrap()),
            Err(EvalError::Undefined(_))
        ));
    }

    fn enclosure_floor_and_abs() {
        let e = Enclosure { prec: 64 };
        // ⌊7/2⌋ = 3, ⌈7/2⌉ = 4, |−7/2| = 7/2, all exact points.
        let x = e.rational(&q(-7, 2)).unwrap();
        assert_eq!(e.to_rational(&e.floor(&x).unwrap()), Some(q(-4, 1)));
        assert_eq!(e.to_rational(&e.ceil(&x).unwrap()), Some(q(-3, 1)));
        assert_eq!(e.to_rational(&e.abs(&x).unwrap()), Some(q(7, 2)));
        // (−1/2)² by squaring is [1/4, 1/4]; (−3)^3 = −27.
        assert_eq!(
            e.to_rational(&e.powi(&e.rational(&q(-1, 2)).unwrap(), 2).unwrap()),
            Some(q(1, 4))
        );
        assert_eq!(
            e.to_rational(&e.powi(&e.rational(&q(-3, 1)).unwrap(), 3).unwrap()),
            Some(q(-27, 1))
        );
    }

    fn float_rationals_beyond_f64() {
        // 10^400 / 10^399 = 10 in the float domain (numerator and denominator separately).
        let big = Q::from_integer(num_traits::pow(crate::exact::Int::from(10), 400));
        let d = Float.rational(&big).unwrap();
        assert!((d.v.ln().to_f64() - 400.0 * 10f64.ln()).abs() < 1e-9);
    }

    fn expsum_powers_and_exact_zero() {
        let d = ExpSums::default();
        // (e^{1/3})^3 − e = 0 exactly; (1 + e)^2 = 1 + 2e + e^2.
        let c = d.exp(&d.rational(&q(1, 3)).unwrap()).unwrap();
        let e1 = d.exp(&d.rational(&q(1, 1)).unwrap()).unwrap();
        assert_eq!(
            d.cmp(&d.powi(&c, 3).unwrap(), &e1).unwrap(),
            Ordering::Equal
        );
        let s = d.add(&d.one(), &e1).unwrap();
        assert_eq!(d.powi(&s, 2).unwrap().len(), 3);
        assert_eq!(d.enclosure_bits(), None);
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "undefined_operations_are_errors_in_every_domain",
            run: undefined_operations_are_errors_in_every_domain,
            panics: None,
        },
        crate::unit::Test {
            name: "enclosure_floor_and_abs",
            run: enclosure_floor_and_abs,
            panics: None,
        },
        crate::unit::Test {
            name: "float_rationals_beyond_f64",
            run: float_rationals_beyond_f64,
            panics: None,
        },
        crate::unit::Test {
            name: "expsum_powers_and_exact_zero",
            run: expsum_powers_and_exact_zero,
            panics: None,
        },
    ];
}
