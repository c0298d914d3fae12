//! The quadratic potential `Υ = Σ yᵢ²` and its expectation after one step or one batch, exactly.
//!
//! Reference: Los–Sauerwald–Sylvester, *Mean-Biased Processes* (arXiv:2308.05087), the quadratic
//! potential; closed form from docs/derivations.md §4 (derived), the same as `crate::potential::Quadratic`:
//! one sample changes `yᵢ` by `ζᵢ = S(1{bin=i} − 1/n)` (S the weight of the sample's `k` balls,
//! `E[S] = k·E[W]`, `E[S²] = k·E[W²] + k(k − 1)·E[W]²`); with `μᵢ = E[ζᵢ]`, `νᵢ = E[ζᵢ²]` and `b`
//! i.i.d. samples on the frozen vector,
//! `E[Υ'] = Σᵢ [yᵢ² + 2b yᵢ μᵢ + b νᵢ + b(b − 1) μᵢ²]`.

use crate::error::{Error, Result};
use crate::exact::{Q, int, normalized};
use crate::process::ExactStepLaw;
use crate::setting::ExactSetting;
use num_traits::{One, Zero};

/// `Υ = Σ yᵢ²` at the loads `x`.
///
/// ```
/// use balloc::exact::int;
/// use balloc::potential::exact::quadratic;
/// // x = (3, 0, 0): y = (2, −1, −1), Υ = 6.
/// assert_eq!(quadratic::value(&[int(3), int(0), int(0)]), int(6));
/// ```
pub fn value(x: &[Q]) -> Q {
    normalized(x)
        .iter()
        .map(|v| v * v)
        .fold(Q::zero(), |a, b| a + b)
}

/// `E[Υ' | x]` after one step (`batch = 1`) or one batch of `b` samples of `law`, with any
/// weight law of `setting` (only `E[W]`, `E[W²]` enter).
///
/// ```
/// use balloc::exact::{int, Q};
/// use balloc::potential::exact::quadratic;
/// use balloc::setting::ExactSetting;
/// use balloc::process::ExactStepLaw;
/// // One-Choice, n = 2, x = (0, 0), batch 2: Υ' = 2 (both balls in one bin, prob. 1/2) or 0.
/// let law = ExactStepLaw::uniform(2).unwrap();
/// let s = ExactSetting::new(2, balloc::weights::ExactWeights::Unit).unwrap();
/// assert_eq!(quadratic::expected_next(&law, &[int(0), int(0)], &s).unwrap(), int(1));
/// ```
pub fn expected_next(law: &ExactStepLaw, x: &[Q], setting: &ExactSetting) -> Result<Q> {
    if law.n != x.len() {
        return Err(Error::invalid(
            "allocation vector",
            format!("has {} bins but there are {} loads", law.n, x.len()),
        ));
    }
    let y = normalized(x);
    let n = int(y.len() as i64);
    let (m1, m2) = (setting.weights.mean(), setting.weights.second_moment());
    let es = |k: u32| int(k as i64) * &m1;
    let es2 = |k: u32| {
        let k = int(k as i64);
        &k * &m2 + &k * (&k - Q::one()) * &m1 * &m1
    };
    let mut a = vec![Q::zero(); y.len()];
    let mut bb = vec![Q::zero(); y.len()];
    let (mut a_tot, mut b_tot) = (Q::zero(), Q::zero());
    for o in &law.outcomes {
        let (s1, s2) = (&o.prob * es(o.balls), &o.prob * es2(o.balls));
        a[o.bin] += &s1;
        bb[o.bin] += &s2;
        a_tot += s1;
        b_tot += s2;
    }
    let b = int(setting.batch as i64);
    let one_minus = Q::one() - Q::one() / &n;
    let mut total = Q::zero();
    for i in 0..y.len() {
        let mu = &a[i] - &a_tot / &n;
        let nu = &bb[i] * &one_minus * &one_minus + (&b_tot - &bb[i]) / (&n * &n);
        total +=
            &y[i] * &y[i] + int(2) * &b * &y[i] * &mu + &b * nu + &b * (&b - Q::one()) * &mu * &mu;
    }
    Ok(total)
}
