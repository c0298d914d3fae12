//! Enclosures of the absolute-value exponential potential `Λ = Σᵢ e^{α|yᵢ|}` of paper B
//! (Los–Sauerwald–Sylvester, *Mean-Biased Processes*, arXiv:2308.05087, Fig. 4.1; the formula
//! as recalled, `crate::potential` (`lambda(alpha=…)`)) and of its exact expectation after one step.
//!
//! The recovery-phase potential `V = Σᵢ e^{(κ/n)|yᵢ|}` has the same shape with `α = κ/n`, so
//! the same functions enclose it (pass `α = κ/n`).
//!
//! One step of an exact step law puts `k_o` balls into bin `j_o` with probability `p_o`; it moves
//! every `yᵢ` by `−k/n` and `y_j` by `+k` (sequential, unit balls). With `φ(z) = e^{α|z|}` and
//! `A_k = Σᵢ φ(yᵢ − k/n)`:
//! `E[Λ'] = Σ_o p_o (A_{k_o} − φ(y_j − k_o/n) + φ(y_j + k_o − k_o/n))` (derived; the closed form
//! of `crate::potential` (`lambda(alpha=…)`)). The loads, `α` and the probabilities are exact rationals;
//! each `e^{α|z|}` is a correctly rounded enclosure, everything else is rounded outward, so the
//! result contains the true value. At `y ≡ 0` the value `Λ = n` is a point (every `e⁰ = 1`).

use super::exponential::Enclosed;
use crate::enclosure::ExpCache;
use crate::enclosure::Interval;
use crate::error::{Error, Result};
use crate::exact::{Q, int, normalized};
use crate::process::ExactStepLaw;
use crate::setting::ExactSetting;
use crate::weights::ExactWeights;
use num_traits::{Signed, Zero};
use std::collections::BTreeMap;

fn phi(alpha: &Q, z: &Q, cache: &ExpCache) -> Result<Interval> {
    cache.exp(&(alpha * z.abs()))
}

/// An enclosure of `Λ(x) = Σᵢ e^{α|yᵢ|}` at the exact loads `x` (`y = x − mean`).
///
/// ```
/// use balloc::potential::enclosed::lambda;
/// use balloc::exact::int;
/// // x = (2, 0): y = (1, −1), α = 1: Λ = 2e.
/// let v = lambda::value(&int(1), &[int(2), int(0)], 64).unwrap();
/// assert!(v.contains_f64(2.0 * std::f64::consts::E) || (v.mid_f64() - 2.0 * std::f64::consts::E).abs() < 1e-15);
/// // At y ≡ 0, Λ = n exactly (a point interval).
/// let z = lambda::value(&int(1), &[int(3), int(3), int(3)], 64).unwrap();
/// assert!(z.contains(&int(3)) && z.rel_width() == 0.0);
/// ```
pub fn value(alpha: &Q, x: &[Q], prec: u64) -> Result<Interval> {
    check_alpha(alpha)?;
    let cache = ExpCache::new(prec);
    let mut acc = Interval::from_rational(&Q::zero(), prec);
    for v in normalized(x) {
        acc = acc.add(&phi(alpha, &v, &cache)?, prec);
    }
    Ok(acc)
}

fn check_alpha(alpha: &Q) -> Result<()> {
    if !alpha.is_positive() {
        return Err(Error::invalid("alpha", format!("must be > 0, got {alpha}")));
    }
    Ok(())
}

/// Enclosures of `Λ(x)`, `E[Λ(next) | x]` and `E[Λ(next) − Λ(x) | x]` for one step of `law`
/// (sequential, unit balls; other settings are `Unsupported`).
///
/// ```
/// use balloc::potential::enclosed::lambda;
/// use balloc::exact::{int, Q};
/// use balloc::setting::ExactSetting;
/// use balloc::process::ExactStepLaw;
/// // n = 2, x = (0, 0), one ball to either bin with prob. 1/2: y' = ±(1/2, −1/2), so
/// // Λ' = 2e^{α/2} surely; α = 1: E[Λ'] = 2e^{1/2} = 3.2974425414002563 (hand value).
/// let law = ExactStepLaw::unit_checked(vec![Q::new(1.into(), 2.into()), Q::new(1.into(), 2.into())]).unwrap();
/// let e = lambda::enclose(&law, &int(1), &[int(0), int(0)], &ExactSetting::sequential(), 64).unwrap();
/// assert!(e.expected_next.lo_f64() <= 3.2974425414002564 && 3.2974425414002562 <= e.expected_next.hi_f64());
/// assert!(e.value.contains(&int(2)));
/// ```
pub fn enclose(
    law: &ExactStepLaw,
    alpha: &Q,
    x: &[Q],
    setting: &ExactSetting,
    prec: u64,
) -> Result<Enclosed> {
    check_alpha(alpha)?;
    if setting.batch != 1 || !matches!(setting.weights, ExactWeights::Unit) {
        return Err(Error::Unsupported(
            "Λ is enclosed for one step with unit balls only".into(),
        ));
    }
    if law.n != x.len() {
        return Err(Error::invalid(
            "allocation vector",
            format!("has {} bins but there are {} loads", law.n, x.len()),
        ));
    }
    let cache = ExpCache::new(prec);
    let y = normalized(x);
    let n = int(y.len() as i64);
    let zero = Interval::from_rational(&Q::zero(), prec);
    let mut value = zero.clone();
    for v in &y {
        value = value.add(&phi(alpha, v, &cache)?, prec);
    }
    // A_k for every ball count that occurs.
    let mut a: BTreeMap<u32, Interval> = BTreeMap::new();
    for o in &law.outcomes {
        if let std::collections::btree_map::Entry::Vacant(slot) = a.entry(o.balls) {
            let shift = int(o.balls as i64) / &n;
            let mut acc = zero.clone();
            for v in &y {
                acc = acc.add(&phi(alpha, &(v - &shift), &cache)?, prec);
            }
            slot.insert(acc);
        }
    }
    let mut next = zero.clone();
    for o in law.outcomes.iter().filter(|o| !o.prob.is_zero()) {
        let k = int(o.balls as i64);
        let yj = &y[o.bin];
        let shift = &k / &n;
        let after = a[&o.balls]
            .sub(&phi(alpha, &(yj - &shift), &cache)?, prec)
            .add(&phi(alpha, &(yj + &k - &shift), &cache)?, prec);
        next = next.add(&after.mul_rational(&o.prob, prec), prec);
    }
    let change = next.sub(&value, prec);
    if !(next.is_finite() && change.is_finite()) {
        return Err(Error::invalid(
            "loads",
            "the enclosure overflowed (values beyond e^(7.4e8))",
        ));
    }
    Ok(Enclosed {
        value,
        expected_next: next,
        expected_change: change,
        prec,
    })
}
