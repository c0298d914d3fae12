//! Exact identities of paper B for the quadratic potential `Υ = Σ yᵢ²` and the absolute-value
//! potential `Δ = Σ |yᵢ|` (Los–Sauerwald–Sylvester, *Mean-Biased Processes*, arXiv:2308.05087;
//! the identities are derived in `docs/derivations.md` §4 and §5.3, tagged
//! *derived*; the paper's own statements were not available).
//!
//! **Derivations** (`Σ yᵢ = 0` throughout).
//!
//! *Adding `w` balls to bin `j`*: `yⱼ → yⱼ + w(1 − 1/n)`, `yᵢ → yᵢ − w/n` otherwise, so
//! `Υ' − Υ = 2w·yⱼ(1 − 1/n) + w²(1 − 1/n)² − (2w/n)Σ_{i≠j} yᵢ + (n − 1)w²/n²`
//! `= 2w·yⱼ + w²(1 − 1/n)` (using `Σ_{i≠j} yᵢ = −yⱼ`).
//!
//! *Thinning with acceptance set `A`* (one ball; `rⱼ = 1{j∈A}/n + R/n²`, `R = n − |A|`):
//! `E[ΔΥ] = 2Σⱼ rⱼ yⱼ + 1 − 1/n = (2/n)Σ_{j∈A} yⱼ + (2R/n²)Σⱼ yⱼ + 1 − 1/n
//! = (2/n)Σ_{j∈A} yⱼ + 1 − 1/n`.
//! For Mean-Thinning `A = U` (`y < 0`, or `y ≤ 0`; zeros add nothing) and
//! `Σ_{j∈U} yⱼ = −Δ/2` (the negative parts carry half of `Δ` because `Σ y = 0`), so
//! **`E[ΔΥ] = −Δ/n + 1 − 1/n`** for either boundary.
//!
//! *Twinning with counts `w₋` (on `U`) and `w₊`*, every bin sampled with probability `1/n`:
//! `E[ΔΥ] = (1/n)Σⱼ (2wⱼyⱼ + wⱼ²(1 − 1/n))`; `Σⱼ wⱼyⱼ = w₊Σⱼ yⱼ + (w₋ − w₊)Σ_{U} yⱼ = −(w₋ − w₊)Δ/2`
//! and `(1/n)Σⱼ wⱼ² = w₊² + (w₋² − w₊²)δ₋`, so
//! **`E[ΔΥ] = −(w₋ − w₊)Δ/n + (1 − 1/n)(w₊² + (w₋² − w₊²)δ₋)`**, i.e.
//! `−Δ/n + (1 − 1/n)(1 + 3δ₋)` for `(2, 1)`, where `δ₋ = |U|/n` is the fraction of bins that
//! receive `w₋` balls. Read with `δ₋ = #{yⱼ < 0}/n`, as it is usually stated, it is the same set only
//! for the boundary `over`. With `boundary = under` and a bin at `y = 0` that literal formula is
//! false (counterexample `x = (0, 0)`: exact `2`, formula `1/2`; kept in `tests/mean_biased.rs`).
//!
//! *Absolute value, one ball into `j`, `y ∈ ℤ/n`* (`docs/derivations.md` §4): every `i ≠ j` changes `|yᵢ|` by
//! `−1/n` if `yᵢ > 0` (then `yᵢ ≥ 1/n`) and by `+1/n` if `yᵢ ≤ 0`; bin `j` changes by
//! `+(1 − 1/n)` if `yⱼ ≥ 0`, by `−(1 − 1/n)` if `yⱼ ≤ −(1 − 1/n)`, and by `2yⱼ + 1 − 1/n`
//! otherwise. The rule needs `y ∈ ℤ/n` (integer loads): at `y = (1/4, −1/4)` (loads not
//! integers) it is false (see the tests).

use super::ratio;
use crate::error::{Error, Result};
use crate::exact::Field;
use crate::exact::Q;
use crate::process::ExactStepLaw;
use num_traits::{Signed, Zero};

/// `Υ = Σ yᵢ²` exactly.
pub fn upsilon(y: &[Q]) -> Q {
    y.iter().map(|v| v * v).sum()
}

/// `Δ = Σ |yᵢ|` exactly.
pub fn absolute(y: &[Q]) -> Q {
    y.iter().map(|v| v.abs()).sum()
}

/// `E[F(y') − F(y) | x]` by enumeration of the outcomes of an exact step law (unit weights), for
/// any function `F` of the normalised loads. This is the exact reference route.
///
/// ```
/// use balloc::{bias::identity::{expected_change_exact, upsilon}, loads::{Loads, TieRule}, process};
/// use balloc::exact::Q;
/// let x = Loads::new(vec![0.0, 0.0]).unwrap();
/// let law = process::parse("one-choice").unwrap().step_law_exact(&x, TieRule::Random).unwrap().unwrap();
/// // From y = 0: Υ' = (1/2)² + (1/2)² = 1/2 whichever bin gets the ball.
/// assert_eq!(expected_change_exact(&law, &x.normalized_exact(), upsilon), Q::new(1.into(), 2.into()));
/// ```
pub fn expected_change_exact(law: &ExactStepLaw, y: &[Q], f: impl Fn(&[Q]) -> Q) -> Q {
    let n = y.len() as i64;
    let base = f(y);
    let mut acc = Q::zero();
    let mut next = y.to_vec();
    for o in &law.outcomes {
        let k = Q::from_integer(o.balls.into());
        let shift = &k * ratio(1, n);
        for (v, y0) in next.iter_mut().zip(y) {
            *v = y0 - &shift;
        }
        next[o.bin] += &k;
        acc += &o.prob * (f(&next) - &base);
    }
    acc
}

fn c<T: Field>(v: i64) -> T {
    T::from_i64(v).expect("small integers are representable")
}

/// Mean-Thinning (either boundary): `E[Υ' − Υ | x] = −Δ/n + 1 − 1/n` (`docs/derivations.md` §4).
///
/// ```
/// use balloc::bias::identity::mean_thinning_upsilon_drift;
/// // Δ = n − 1 is the threshold: no drift.
/// assert_eq!(mean_thinning_upsilon_drift(3.0, 4), 0.0);
/// ```
pub fn mean_thinning_upsilon_drift<T: Field>(delta: T, n: usize) -> T {
    let nn: T = c(n as i64);
    T::one() - T::one() / nn.clone() - delta / nn
}

/// Twinning with counts `(w₋, w₊)`: `E[Υ' − Υ | x] = −(w₋ − w₊)Δ/n + (1 − 1/n)(w₊² + (w₋² − w₊²)δ₋)`
/// with `δ₋` the fraction of bins that receive `w₋` balls (`docs/derivations.md` §4 for `(2, 1)`:
/// `−Δ/n + (1 − 1/n)(1 + 3δ₋)`).
///
/// ```
/// use balloc::bias::identity::twinning_upsilon_drift;
/// // x = (0, 2): Δ = 2, δ₋ = 1/2, n = 2: −1 + (1/2)(5/2) = 1/4.
/// assert_eq!(twinning_upsilon_drift(2.0, 2, 0.5, 2, 1), 0.25);
/// ```
pub fn twinning_upsilon_drift<T: Field>(
    delta: T,
    n: usize,
    delta_minus: T,
    w_minus: u32,
    w_plus: u32,
) -> T {
    let nn: T = c(n as i64);
    let (wm, wp): (T, T) = (c(w_minus.into()), c(w_plus.into()));
    let sq =
        wp.clone() * wp.clone() + (wm.clone() * wm.clone() - wp.clone() * wp.clone()) * delta_minus;
    (T::one() - T::one() / nn.clone()) * sq - (wm - wp) * delta / nn
}

/// Any thinning process with acceptance set `A` (Mean-Thinning, Relative-Threshold(f),
/// Two-Thinning): `E[Υ' − Υ | x] = (2/n)Σ_{j∈A} yⱼ + 1 − 1/n` (derived above).
pub fn thinning_upsilon_drift(y: &[Q], accept: &[bool]) -> Q {
    let n = y.len() as i64;
    let s: Q = y
        .iter()
        .zip(accept)
        .filter(|(_, a)| **a)
        .map(|(v, _)| v.clone())
        .sum();
    s * ratio(2, n) + ratio(n - 1, n)
}

/// The change of `Δ` when one ball goes to bin `j`, by the rule of `docs/derivations.md` §4 (valid for
/// `y ∈ ℤ/n`, i.e. integer loads).
///
/// ```
/// use balloc::bias::identity::absolute_step_change;
/// use balloc::exact::Q;
/// let y: Vec<Q> = [(-2, 3), (-2, 3), (4, 3)].iter().map(|&(a, b)| Q::new(a.into(), b.into())).collect();
/// // j = 0: y₀ = −2/3 ≤ −(1 − 1/3) so −2/3; bins 1 (+1/3) and 2 (−1/3): total −2/3.
/// assert_eq!(absolute_step_change(&y, 0), Q::new((-2).into(), 3.into()));
/// ```
pub fn absolute_step_change(y: &[Q], j: usize) -> Q {
    let n = y.len() as i64;
    let zero = Q::zero();
    let mut d = zero.clone();
    for (i, v) in y.iter().enumerate() {
        if i == j {
            continue;
        }
        d += if *v > zero { ratio(-1, n) } else { ratio(1, n) };
    }
    let step = ratio(n - 1, n);
    let yj = &y[j];
    d += if *yj >= zero {
        step
    } else if *yj <= -step.clone() {
        -step
    } else {
        yj * Q::from_integer(2.into()) + step
    };
    d
}

/// `E[Δ' − Δ | x]` by the step rule of `docs/derivations.md` §4 (one ball per step, `y ∈ ℤ/n`); an error for a
/// law with several balls in an outcome.
pub fn expected_absolute_change(law: &ExactStepLaw, y: &[Q]) -> Result<Q> {
    if !law.is_unit() {
        return Err(Error::invalid(
            "process",
            "the absolute-value step rule is for one ball per step",
        ));
    }
    Ok(law
        .outcomes
        .iter()
        .map(|o| &o.prob * absolute_step_change(y, o.bin))
        .sum())
}
