//! The fast enclosure domain: intervals of `f64` with outward rounding
//! ([`crate::enclosure::Interval64`], whose module documentation says why every result contains
//! the exact value), trust `enclosure`. The prover evaluates boxes here first and escalates to
//! the arbitrary-precision [`super::Enclosure`] only for boxes this domain cannot decide.
//!
//! A value beyond the range of this arithmetic (an overflow, `eˣ` for `x` outside
//! `[−708, 709]`, a subnormal argument of `ln`) is [`EvalError::Beyond64`], the signal to repeat
//! the evaluation in [`super::Enclosure`]; undefined operations are `Undefined` and undecided
//! ones `Undecided`, as in every domain — never `inf` or NaN.
//!
//! ```
//! use balloc::lang::{compile_value, Domain, Enclosure64, Slots};
//! let d = Enclosure64;
//! let x = d.float(1.0).unwrap();
//! let v = compile_value("exp(x) - 1 - x", &["x"]).unwrap().eval(&d, &Slots(&[x]), None).unwrap();
//! // e − 2 = 0.718281828459045…
//! assert!(v.lo() <= 0.718281828459045 && 0.718281828459046 >= v.hi() - 1e-15);
//! assert!(d.exp(&d.float(1000.0).unwrap()).is_err()); // beyond f64: escalate, never inf
//! ```

use super::domain::{Domain, Eval, EvalError};
use super::jet::IntervalDomain;
use crate::enclosure::interval64::Fault;
use crate::enclosure::{Interval, Interval64};
use crate::exact::Q;
use crate::trust::Trust;
use std::cmp::Ordering;

/// Outward-rounded `f64` intervals (trust `enclosure`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Enclosure64;

fn fault(f: Fault, what: &str) -> EvalError {
    match f {
        Fault::Range => EvalError::Beyond64,
        Fault::DivisorContainsZero => {
            EvalError::Undecided(format!("the divisor's enclosure contains 0 ({what})"))
        }
        Fault::Domain => EvalError::Undecided(format!("{what} of an enclosure that reaches 0")),
    }
}

impl Domain for Enclosure64 {
    type N = Interval64;

    fn trust(&self) -> Trust {
        Trust::Enclosure
    }
    fn name(&self) -> String {
        "enclosures in f64 (53 bits)".into()
    }
    fn rational(&self, q: &Q) -> Eval<Interval64> {
        Interval64::from_rational(q).map_err(|f| fault(f, "a rational"))
    }
    fn float(&self, v: f64) -> Eval<Interval64> {
        if !v.is_finite() {
            return Err(EvalError::Undefined(format!("{v} is not a finite number")));
        }
        Ok(Interval64::point(v))
    }
    fn add(&self, a: &Interval64, b: &Interval64) -> Eval<Interval64> {
        a.add(b).map_err(|f| fault(f, "a sum"))
    }
    fn sub(&self, a: &Interval64, b: &Interval64) -> Eval<Interval64> {
        a.sub(b).map_err(|f| fault(f, "a difference"))
    }
    fn mul(&self, a: &Interval64, b: &Interval64) -> Eval<Interval64> {
        a.mul(b).map_err(|f| fault(f, "a product"))
    }
    fn div(&self, a: &Interval64, b: &Interval64) -> Eval<Interval64> {
        if b.lo() == 0.0 && b.hi() == 0.0 {
            return Err(EvalError::Undefined("division by zero".into()));
        }
        a.div(b).map_err(|f| fault(f, "a quotient"))
    }
    fn neg(&self, a: &Interval64) -> Eval<Interval64> {
        Ok(a.neg())
    }
    fn powi(&self, a: &Interval64, k: i64) -> Eval<Interval64> {
        if k.abs() > super::domain::MAX_INTEGER_POWER {
            return Err(EvalError::Undefined(format!(
                "the integer power {k} exceeds the limit {}",
                super::domain::MAX_INTEGER_POWER
            )));
        }
        let p = a.powu(k.unsigned_abs()).map_err(|f| fault(f, "a power"))?;
        if k < 0 {
            return self.div(&Interval64::point(1.0), &p);
        }
        Ok(p)
    }
    fn exp(&self, a: &Interval64) -> Eval<Interval64> {
        a.exp().map_err(|f| fault(f, "e^x"))
    }
    fn ln(&self, a: &Interval64) -> Eval<Interval64> {
        if a.hi() <= 0.0 {
            return Err(EvalError::Undefined(format!("ln of {a:?} (not positive)")));
        }
        a.ln().map_err(|f| fault(f, "ln"))
    }
    fn sqrt(&self, a: &Interval64) -> Eval<Interval64> {
        if a.hi() < 0.0 {
            return Err(EvalError::Undefined(format!("sqrt of {a:?} (negative)")));
        }
        a.sqrt().map_err(|f| fault(f, "sqrt"))
    }
    fn cosh(&self, a: &Interval64) -> Eval<Interval64> {
        a.cosh().map_err(|f| fault(f, "cosh"))
    }
    fn sinh(&self, a: &Interval64) -> Eval<Interval64> {
        a.sinh().map_err(|f| fault(f, "sinh"))
    }
    fn abs(&self, a: &Interval64) -> Eval<Interval64> {
        Ok(a.abs())
    }
    fn floor(&self, a: &Interval64) -> Eval<Interval64> {
        Interval64::new(a.lo().floor(), a.hi().floor()).ok_or(EvalError::Beyond64)
    }
    fn ceil(&self, a: &Interval64) -> Eval<Interval64> {
        Interval64::new(a.lo().ceil(), a.hi().ceil()).ok_or(EvalError::Beyond64)
    }
    fn cmp(&self, a: &Interval64, b: &Interval64) -> Eval<Ordering> {
        if a.hi() < b.lo() {
            Ok(Ordering::Less)
        } else if a.lo() > b.hi() {
            Ok(Ordering::Greater)
        } else if a.is_point() && b.is_point() && a.lo() == b.lo() {
            Ok(Ordering::Equal)
        } else {
            Err(EvalError::Undecided(format!(
                "the enclosures {a:?} and {b:?} overlap in f64"
            )))
        }
    }
    fn min(&self, a: &Interval64, b: &Interval64) -> Eval<Interval64> {
        Interval64::new(a.lo().min(b.lo()), a.hi().min(b.hi())).ok_or(EvalError::Beyond64)
    }
    fn max(&self, a: &Interval64, b: &Interval64) -> Eval<Interval64> {
        Interval64::new(a.lo().max(b.lo()), a.hi().max(b.hi())).ok_or(EvalError::Beyond64)
    }
    fn to_f64(&self, a: &Interval64) -> f64 {
        a.lo() / 2.0 + a.hi() / 2.0
    }
    fn to_rational(&self, a: &Interval64) -> Option<Q> {
        if a.is_point() {
            crate::exact::from_float(a.lo())
        } else {
            None
        }
    }
    fn show(&self, a: &Interval64) -> String {
        format!("[{:e}, {:e}]", a.lo(), a.hi())
    }
}

impl IntervalDomain for Enclosure64 {
    fn enclose(&self, x: &Interval) -> Eval<Interval64> {
        Interval64::from_interval(x).map_err(|f| fault(f, "an enclosure"))
    }
    fn interval(&self, a: &Interval64) -> Interval {
        a.to_interval()
    }
    fn hull(&self, a: &Interval64, b: &Interval64) -> Interval64 {
        a.hull(b)
    }
}
