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
use num_rational::BigRational;
use num_traits::{One, Zero};

/// The outcome law of a thinning step obtained by enumerating the `n²` ordered sample pairs.
#[derive(Debug, Clone, PartialEq)]
pub struct ThinningOutcomes {
    /// (i) the first sample is accepted.
    pub first: BigRational,
    /// (ii) the first sample is rejected and the second is underloaded.
    pub second_under: BigRational,
    /// (iii) the first sample is rejected and the second is not underloaded.
    pub second_over: BigRational,
    /// The expected number of samples per ball.
    pub samples: BigRational,
    /// The probability that each bin receives the ball.
    pub per_bin: Vec<BigRational>,
}

/// Enumerates the `n²` ordered sample pairs `(i₁, i₂)` of a thinning step: the ball goes to `i₁`
/// if `accept[i₁]`, otherwise to `i₂`; `under` classifies the second sample for outcomes (ii) and
/// (iii). For Mean-Thinning `accept = under`.
///
/// ```
/// use balloc::bias::outcome::thinning_outcomes;
/// use num_rational::BigRational;
/// let under = [true, false, false]; // θ = 2/3
/// let o = thinning_outcomes(&under, &under);
/// assert_eq!(o.second_over, BigRational::new(4.into(), 9.into())); // θ²
/// assert_eq!(o.samples, BigRational::new(5.into(), 3.into()));    // 1 + θ
/// ```
pub fn thinning_outcomes(accept: &[bool], under: &[bool]) -> ThinningOutcomes {
    let n = accept.len();
    let pair = ratio(1, (n * n) as i64);
    let zero = BigRational::zero();
    let mut o = ThinningOutcomes {
        first: zero.clone(),
        second_under: zero.clone(),
        second_over: zero.clone(),
        samples: zero.clone(),
        per_bin: vec![zero; n],
    };
    let two = BigRational::from_integer(2.into());
    for (i1, &acc) in accept.iter().enumerate() {
        for (i2, &und) in under.iter().enumerate() {
            if acc {
                o.first += &pair;
                o.per_bin[i1] += &pair;
                o.samples += &pair;
            } else {
                if und {
                    o.second_under += &pair;
                } else {
                    o.second_over += &pair;
                }
                o.per_bin[i2] += &pair;
                o.samples += &pair * &two;
            }
        }
    }
    o
}

/// Mean-Thinning's outcome probabilities `[(i), (ii), (iii)] = [1 − θ, θ(1 − θ), θ²]` and the
/// expected number of samples `1 + θ` (Fig. 3.2; P.MeanThinning in `docs/derivations.md` §1).
///
/// ```
/// use balloc::bias::outcome::mean_thinning_outcomes;
/// use num_rational::BigRational;
/// let (p, s) = mean_thinning_outcomes(&BigRational::new(1.into(), 2.into()));
/// assert_eq!(p[2], BigRational::new(1.into(), 4.into()));
/// assert_eq!(s, BigRational::new(3.into(), 2.into()));
/// ```
pub fn mean_thinning_outcomes(theta: &BigRational) -> ([BigRational; 3], BigRational) {
    let one = BigRational::one();
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
/// use num_rational::BigRational;
/// let (p, balls) = twinning_outcomes(&[true, false, false, false]); // θ = 3/4
/// assert_eq!(p[0], BigRational::new(3.into(), 4.into()));
/// assert_eq!(balls, BigRational::new(5.into(), 4.into())); // 1 + δ₋
/// ```
pub fn twinning_outcomes(under: &[bool]) -> ([BigRational; 2], BigRational) {
    let n = under.len() as i64;
    let zero = BigRational::zero();
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
