//! Enclosures of weight moment generating functions `M(s) = E[e^{sW}]` at rational `s`.
//!
//! MGFs (docs/derivations.md §3, derived): unit `eˢ`; finite `Σⱼ pⱼ e^{s wⱼ}`; Exp(μ) `1/(1 − μs)` for
//! `μs < 1`; Geometric on `{start, ...}` with success probability `q`, `r = 1 − q`:
//! `e^{s·start} q/(1 − r eˢ)` for `r eˢ < 1`. All are rational functions of `eˢ` (or of `s`), so
//! each is enclosed by one or a few correctly rounded exponentials and outward-rounded
//! arithmetic.

use super::Interval;
use crate::error::{Error, Result};
use crate::exact::{Q, int};
use crate::weights::ExactWeights;
use num_traits::{One, Zero};

fn domain_error(weights: &ExactWeights, s: &Q) -> Error {
    Error::invalid(
        "MGF argument",
        format!("E[e^(sW)] is infinite for s = {s} under the weight law {weights:?}"),
    )
}

/// An enclosure of `M(s) = E[e^{sW}]`.
///
/// ```
/// use balloc::{enclosure::mgf, exact::Q, weights::ExactWeights};
/// let half = Q::new(1.into(), 2.into());
/// // Exp(1): M(1/2) = 2 exactly; Geometric(mean 1): M(s) = 1/(2 − eˢ), M(1) is infinite.
/// let e = mgf::mgf(&ExactWeights::parse("exp(1)").unwrap(), &half, 64).unwrap();
/// assert!(e.contains(&Q::from_integer(2.into())));
/// let g = ExactWeights::parse("geometric(mean=1)").unwrap();
/// assert!(mgf::mgf(&g, &Q::from_integer(1.into()), 64).is_err());
/// let m = mgf::mgf(&g, &half, 64).unwrap().mid_f64();
/// assert!((m - 1.0 / (2.0 - 0.5f64.exp())).abs() < 1e-15);
/// ```
pub fn mgf(weights: &ExactWeights, s: &Q, prec: u64) -> Result<Interval> {
    match weights {
        ExactWeights::Unit => Interval::exp_of(s, prec),
        ExactWeights::Exponential { mean } => {
            let den = Q::one() - mean * s;
            if den <= Q::zero() {
                return Err(domain_error(weights, s));
            }
            Ok(Interval::from_rational(&(Q::one() / den), prec))
        }
        ExactWeights::Geometric { start, q } => {
            let r = Q::one() - q;
            let es = Interval::exp_of(s, prec)?;
            let den =
                Interval::from_rational(&Q::one(), prec).sub(&es.mul_rational(&r, prec), prec);
            if den.hi_f64() <= 0.0 && *den.hi() <= 0u32 {
                return Err(domain_error(weights, s));
            }
            if *den.lo() <= 0u32 {
                return Err(Error::Unsupported(format!(
                    "s = {s} is too close to the edge of the MGF domain to enclose at {prec} bits"
                )));
            }
            let num = Interval::exp_of(&(s * int(*start as i64)), prec)?.mul_rational(q, prec);
            num.div(&den, prec)
        }
        ExactWeights::Discrete(v) => {
            let mut acc = Interval::from_rational(&Q::zero(), prec);
            for (w, p) in v {
                acc = acc.add(
                    &Interval::exp_of(&(s * w), prec)?.mul_rational(p, prec),
                    prec,
                );
            }
            Ok(acc)
        }
    }
}

/// An enclosure of `M(s) = E[e^{sW}]` for `s` known only by an enclosure (an irrational
/// parameter such as `α = 1/ln n`): the same formulas as [`mgf`] over intervals. An `s` whose
/// enclosure reaches the edge of the MGF's domain is an error (`Unsupported` when part of it
/// lies inside).
///
/// ```
/// use balloc::{enclosure::{mgf, Interval}, exact::Q, weights::ExactWeights};
/// // Exp(1) at s = 1/2 (a point interval): M = 1/(1 − 1/2) = 2.
/// let s = Interval::from_rational(&Q::new(1.into(), 2.into()), 64);
/// let e = mgf::mgf_at(&ExactWeights::parse("exp(1)").unwrap(), &s, 64).unwrap();
/// assert!(e.contains(&Q::from_integer(2.into())) && e.rel_width() < 1e-18);
/// ```
pub fn mgf_at(weights: &ExactWeights, s: &Interval, prec: u64) -> Result<Interval> {
    let one = Interval::from_rational(&Q::one(), prec);
    let positive_den = |den: &Interval| -> Result<()> {
        if *den.hi() <= 0u32 {
            return Err(Error::invalid(
                "MGF argument",
                format!("E[e^(sW)] is infinite for s in {s} under the weight law {weights:?}"),
            ));
        }
        if *den.lo() <= 0u32 {
            return Err(Error::Unsupported(format!(
                "s in {s} is too close to the edge of the MGF domain to enclose at {prec} bits"
            )));
        }
        Ok(())
    };
    match weights {
        ExactWeights::Unit => s.exp(prec),
        ExactWeights::Exponential { mean } => {
            let den = one.sub(&s.mul_rational(mean, prec), prec);
            positive_den(&den)?;
            one.div(&den, prec)
        }
        ExactWeights::Geometric { start, q } => {
            let r = Q::one() - q;
            let den = one.sub(&s.exp(prec)?.mul_rational(&r, prec), prec);
            positive_den(&den)?;
            let num = s
                .mul_rational(&int(*start as i64), prec)
                .exp(prec)?
                .mul_rational(q, prec);
            num.div(&den, prec)
        }
        ExactWeights::Discrete(v) => {
            let mut acc = Interval::from_rational(&Q::zero(), prec);
            for (w, p) in v {
                acc = acc.add(
                    &s.mul_rational(w, prec).exp(prec)?.mul_rational(p, prec),
                    prec,
                );
            }
            Ok(acc)
        }
    }
}
