//! Exact per-bin drifts of the normalised loads and the expected increase of the total weight.
//!
//! Reference: `docs/derivations.md` §4 ("Drift of each normalised load", derived) and §5.3,
//! for the processes of Los–Sauerwald–Sylvester,
//! *Mean-Biased Processes* (arXiv:2308.05087).
//!
//! Derivation (unit weights). A step puts `k` balls into bin `j` with probability `p_o`; then
//! `yᵢ` changes by `k(1{i=j} − 1/n)`. Taking expectations, `E[yᵢ' − yᵢ] = aᵢ − E/n` with
//! `aᵢ = Σ_{o at i} p_o k_o` (expected balls into `i`) and `E = Σᵢ aᵢ = E[W' − W]`.
//! * Mean-Thinning (`rᵢ = θ/n` off `U`, `(1 + θ)/n` on `U`, `E = 1`):
//!   `−(1 − θ)/n` for `i ∉ U`, `+θ/n` for `i ∈ U`.
//! * Twinning (`aᵢ = wᵢ/n`, `E = (1/n)Σ wⱼ = w₊ + (w₋ − w₊)δ₋`): `(wᵢ − E)/n`; for
//!   `(w₋, w₊) = (2, 1)`: `E = 1 + δ₋`, drift `−δ₋/n` on overloaded and `(1 − δ₋)/n` on
//!   underloaded bins.

use super::{Sides, ratio};
use crate::exact::Q;
use crate::process::ExactStepLaw;
use num_traits::One;

/// `E[yᵢ' − yᵢ | x] = aᵢ − E/n` for every bin, from an exact step law (unit weights).
///
/// ```
/// use balloc::{bias::drift, loads::{Loads, TieRule}, process};
/// use balloc::exact::Q;
/// let x = Loads::new(vec![0.0, 2.0]).unwrap(); // y = (−1, 1), δ₋ = 1/2
/// let law = process::parse("twinning").unwrap().step_law_exact(&x, TieRule::Random).unwrap().unwrap();
/// // Twinning: (1 − δ₋)/n = 1/4 on the light bin, −δ₋/n = −1/4 on the heavy one.
/// assert_eq!(drift::per_bin_drift(&law), vec![Q::new(1.into(), 4.into()), Q::new((-1).into(), 4.into())]);
/// ```
pub fn per_bin_drift(law: &ExactStepLaw) -> Vec<Q> {
    let a = law.per_bin_expected_balls();
    let e: Q = a.iter().sum();
    let shift = e / Q::from_integer(law.n.into());
    a.into_iter().map(|ai| ai - &shift).collect()
}

/// `E[W' − W | x]`, the expected number of balls of one step.
pub fn expected_total_increase(law: &ExactStepLaw) -> Q {
    law.expected_balls()
}

/// Mean-Thinning's drift by the formula of `docs/derivations.md` §4: `−(1 − θ)/n` off `U`, `+θ/n` on `U`, with
/// `θ = δ₊` the fraction of bins that are not underloaded.
///
/// ```
/// use balloc::{bias::{drift, Sides}, loads::{Boundary, Loads}};
/// use balloc::exact::Q;
/// let s = Sides::new(&Loads::new(vec![0.0, 1.0, 2.0]).unwrap(), Boundary::Over); // θ = 2/3
/// assert_eq!(drift::mean_thinning_drift(&s)[0], Q::new(2.into(), 9.into()));
/// assert_eq!(drift::mean_thinning_drift(&s)[2], Q::new((-1).into(), 9.into()));
/// ```
pub fn mean_thinning_drift(sides: &Sides) -> Vec<Q> {
    let n = Q::from_integer(sides.n().into());
    let theta = sides.delta_plus();
    sides
        .under
        .iter()
        .map(|&u| {
            if u {
                &theta / &n
            } else {
                -(Q::one() - &theta) / &n
            }
        })
        .collect()
}

/// Twinning's expected balls per step: `E[W' − W] = w₊ + (w₋ − w₊)·δ₋` (`1 + δ₋` for the
/// default counts 2 and 1; `docs/derivations.md` §1).
///
/// ```
/// use balloc::bias::drift::twinning_expected_balls;
/// use balloc::exact::Q;
/// let d = Q::new(1.into(), 4.into());
/// assert_eq!(twinning_expected_balls(&d, 2, 1), Q::new(5.into(), 4.into()));
/// ```
pub fn twinning_expected_balls(delta_minus: &Q, w_minus: u32, w_plus: u32) -> Q {
    let wp = Q::from_integer(w_plus.into());
    let wm = Q::from_integer(w_minus.into());
    &wp + (wm - &wp) * delta_minus
}

/// Twinning's drift by the formula of `docs/derivations.md` §4: `(wᵢ − E)/n` with `E` as in
/// [`twinning_expected_balls`].
pub fn twinning_drift(sides: &Sides, w_minus: u32, w_plus: u32) -> Vec<Q> {
    let n = sides.n() as i64;
    let e = twinning_expected_balls(&sides.delta_minus, w_minus, w_plus);
    sides
        .under
        .iter()
        .map(|&u| {
            let w = if u { w_minus } else { w_plus };
            (Q::from_integer(w.into()) - &e) * ratio(1, n)
        })
        .collect()
}
