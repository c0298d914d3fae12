//! The outcome probabilities of Figs. 3.1 (Twinning) and 3.2 (Mean-Thinning) of
//! Los–Sauerwald–Sylvester, *Mean-Biased Processes* (arXiv:2308.05087), by enumeration of every
//! sample (pair) and by closed form.
//!
//! Fig. 3.2 (Mean-Thinning, captions read): (i) the first sample is underloaded and gets the ball;
//! (ii) the first sample is overloaded and the ball goes to an underloaded second sample;
//! (iii) the ball goes to an overloaded (second) sample. Fig. 3.1 (Twinning): (i) one ball into an
//! overloaded bin; (ii) two balls into an underloaded bin.
//!
//! Closed forms (`docs/derivations.md` §5.1, derived): with `θ` the fraction of overloaded bins, Mean-Thinning
//! (i) `1 − θ`, (ii) `θ(1 − θ)`, (iii) `θ²`, expected samples `1 + θ`; Twinning (i) `θ`,
//! (ii) `1 − θ`. Derivation: the two samples are independent uniform bins; the first is
//! underloaded with probability `1 − θ`, both are overloaded with probability `θ²`.

use super::ratio;
use crate::exact::Q;
use num_traits::{One, Zero};

/// The outcome law of a thinning step obtained by enumerating the `n²` ordered sample pairs.
#[derive(Debug, Clone, PartialEq)]
pub struct ThinningOutcomes {
    /// (i) the first sample is accepted.
    pub first: Q,
    /// (ii) the first sample is rejected and the second is underloaded.
    pub second_under: Q,
    /// (iii) the first sample is rejected and the second is not underloaded.
    pub second_over: Q,
    /// The expected number of samples per ball.
    pub samples: Q,
    /// The probability that each bin receives the ball.
    pub per_bin: Vec<Q>,
}

/// Enumerates the `n²` ordered sample pairs `(i₁, i₂)` of a thinning step: the ball goes to `i₁`
/// if `accept[i₁]`, otherwise to `i₂`; `under` classifies the second sample for outcomes (ii) and
/// (iii). For Mean-Thinning `accept = under`.
///
/// ```
/// use balloc::bias::outcome::thinning_outcomes;
/// use balloc::exact::Q;
/// let under = [true, false, false]; // θ = 2/3
/// let o = thinning_outcomes(&under, &under);
/// assert_eq!(o.second_over, Q::new(4.into(), 9.into())); // θ²
/// assert_eq!(o.samples, Q::new(5.into(), 3.into()));    // 1 + θ
/// ```
pub fn thinning_outcomes(accept: &[bool], under: &[bool]) -> ThinningOutcomes {
    let n = accept.len();
    // Every pair (i₁, i₂) has probability 1/n²: count the pairs of each outcome in integers and
    // divide once (exactly the sums of 1/n² over the pairs).
    let n_under = under.iter().filter(|&&u| u).count() as u64;
    let kept = accept.iter().filter(|&&a| a).count() as u64;
    let rejected = n as u64 - kept;
    // Kept: (i₁, i₂) for every i₂ with `accept[i₁]`, the ball to i₁. Rejected: the ball to i₂.
    let first = kept * n as u64;
    let second_under = rejected * n_under;
    let second_over = rejected * (n as u64 - n_under);
    let per_bin: Vec<u64> = accept
        .iter()
        .map(|&a| if a { n as u64 } else { 0 } + rejected)
        .collect();
    let pairs = (n * n) as i64;
    let q = |k: u64| ratio(k as i64, pairs);
    ThinningOutcomes {
        first: q(first),
        second_under: q(second_under),
        second_over: q(second_over),
        // One sample when the first is kept, two otherwise.
        samples: q(first + 2 * (second_under + second_over)),
        per_bin: per_bin.into_iter().map(q).collect(),
    }
}

/// Mean-Thinning's outcome probabilities `[(i), (ii), (iii)] = [1 − θ, θ(1 − θ), θ²]` and the
/// expected number of samples `1 + θ` (Fig. 3.2; P.MeanThinning in `docs/derivations.md` §1).
///
/// ```
/// use balloc::bias::outcome::mean_thinning_outcomes;
/// use balloc::exact::Q;
/// let (p, s) = mean_thinning_outcomes(&Q::new(1.into(), 2.into()));
/// assert_eq!(p[2], Q::new(1.into(), 4.into()));
/// assert_eq!(s, Q::new(3.into(), 2.into()));
/// ```
pub fn mean_thinning_outcomes(theta: &Q) -> ([Q; 3], Q) {
    let one = Q::one();
    (
        [&one - theta, theta * (&one - theta), theta * theta],
        one + theta,
    )
}

/// Twinning's outcome law by enumerating the `n` samples: `[(i) one ball to an overloaded bin,
/// (ii) two balls to an underloaded bin]` and the expected number of balls.
///
/// ```
/// use balloc::bias::outcome::twinning_outcomes;
/// use balloc::exact::Q;
/// let (p, balls) = twinning_outcomes(&[true, false, false, false]); // θ = 3/4
/// assert_eq!(p[0], Q::new(3.into(), 4.into()));
/// assert_eq!(balls, Q::new(5.into(), 4.into())); // 1 + δ₋
/// ```
pub fn twinning_outcomes(under: &[bool]) -> ([Q; 2], Q) {
    let n = under.len() as i64;
    let zero = Q::zero();
    let (mut over, mut und, mut balls) = (zero.clone(), zero.clone(), zero);
    for &u in under {
        if u {
            und += ratio(1, n);
            balls += ratio(2, n);
        } else {
            over += ratio(1, n);
            balls += ratio(1, n);
        }
    }
    ([over, und], balls)
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    /// The outcome law by listing the `n²` pairs of samples one by one, each with probability
    /// `1/n²` (the definition of the two-sample thinning step), against the counting form.
    fn thinning_outcomes_match_pair_enumeration() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut bit = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed & 1 == 1
        };
        for n in 1..=7usize {
            for _ in 0..20 {
                let accept: Vec<bool> = (0..n).map(|_| bit()).collect();
                let under: Vec<bool> = (0..n).map(|_| bit()).collect();
                let pair = ratio(1, (n * n) as i64);
                let zero = Q::zero();
                let (mut first, mut su, mut so, mut samples) =
                    (zero.clone(), zero.clone(), zero.clone(), zero.clone());
                let mut per_bin = vec![zero; n];
                for i1 in 0..n {
                    for i2 in 0..n {
                        if accept[i1] {
                            first += &pair;
                            per_bin[i1] += &pair;
                            samples += &pair;
                        } else {
                            if under[i2] {
                                su += &pair;
                            } else {
                                so += &pair;
                            }
                            per_bin[i2] += &pair;
                            samples += &pair + &pair;
                        }
                    }
                }
                let o = thinning_outcomes(&accept, &under);
                assert_eq!(
                    (o.first, o.second_under, o.second_over, o.samples, o.per_bin),
                    (first, su, so, samples, per_bin),
                    "accept {accept:?}, under {under:?}"
                );
            }
        }
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[crate::unit::Test {
        name: "thinning_outcomes_match_pair_enumeration",
        run: thinning_outcomes_match_pair_enumeration,
        panics: None,
    }];
}
