//! The Ω(log n) lower bound for Mean-Thinning and Twinning, as reconstructed (paper B,
//! Los–Sauerwald–Sylvester, arXiv:2308.05087: "we also prove it is tight for many such
//! processes, including Mean-Thinning and Twinning"; the paper's construction was not retrieved).
//!
//! **Construction (reconstructed).** Start from `x = 0`. Couple Mean-Thinning with two uniform
//! samples drawn in every step (the second one used only if the first is rejected); these `2T`
//! samples are i.i.d. uniform and independent of the loads. A bin that appears in none of them
//! receives no ball, while `W = T` after `T` steps. Hence, after `T` steps,
//! `P(max − min ≥ T/n) ≥ P(some bin misses 2T uniform samples)`. Twinning samples one bin per step
//! and adds at least one ball, so `W ≥ T` and `P(max − min ≥ T/n) ≥ P(some bin misses T
//! samples)`. The miss probability is the coupon-collector formula
//! `P(miss) = 1 − Σ_{k=0}^{n} (−1)^k C(n, k)(1 − k/n)^s` for `s` samples. With `T = κ·n·ln n`,
//! `(1 − 1/n)^{2T} ≈ n^{−2κ}`, so for `κ < 1/2` some bin is missed w.h.p. (its expected number of
//! missed bins is `n^{1 − 2κ}`), and the spread is at least `κ ln n`: Ω(log n). This is a
//! statement about the all-zero start at time `T = Θ(n log n)`; the paper's "for any
//! m = Ω(n log n)" (site) needs more than this construction.
//!
//! [`spread_law`] computes the exact law of `max − min` after `T` steps of any process with an
//! exact step law (random ties; states up to relabelling), which pins the construction at small
//! `n` and checks the inequality.

use super::{Law, binomial};
use crate::error::{Error, Result};
use crate::exact::Q;
use crate::loads::{Loads, TieRule};
use crate::process::Process;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// `P(some bin is missed by s i.i.d. uniform samples)` over `n` bins, exactly
/// (inclusion–exclusion).
///
/// ```
/// use balloc::lower_bound::mean_biased::miss_probability;
/// use balloc::exact::Q;
/// // n = 2, s = 3: the samples miss a bin iff all are equal: 2/8 = 1/4.
/// assert_eq!(miss_probability(2, 3), Q::new(1.into(), 4.into()));
/// ```
pub fn miss_probability(n: usize, s: u64) -> Q {
    let mut all_hit = Q::zero();
    for k in 0..=n as u64 {
        let term = Q::from_integer(binomial(n as u64, k))
            * num_traits::pow(Q::new((n as u64 - k).into(), n.into()), s as usize);
        if k % 2 == 0 {
            all_hit += term;
        } else {
            all_hit -= term;
        }
    }
    Q::one() - all_hit
}

/// The lower bound of the construction: `P(max − min ≥ T/n after T steps) ≥` this value, for
/// Mean-Thinning (`samples_per_step = 2`) or Twinning (`samples_per_step = 1`).
pub fn spread_bound(n: usize, steps: u64, samples_per_step: u64) -> Q {
    miss_probability(n, steps * samples_per_step)
}

/// The largest number of states × outcomes [`spread_law`] visits.
pub const STATE_LIMIT: usize = 2_000_000;

/// The exact law of the spread `max x − min x` after `steps` steps from `x = 0`, for a process
/// with an exact step law that is symmetric under relabelling of the bins (Mean-Thinning,
/// Twinning, Relative-Threshold, Packing, and rank-based processes with random ties).
///
/// ```
/// use balloc::lower_bound::{mean_biased::spread_law, mean};
/// use balloc::exact::Q;
/// let mt = balloc::process::parse("mean-thinning").unwrap();
/// // n = 2, one step: one bin gets the ball; spread 1 surely.
/// let law = spread_law(mt.as_ref(), 2, 1).unwrap();
/// assert_eq!(mean(&law), Q::from_integer(1.into()));
/// ```
pub fn spread_law(process: &dyn Process, n: usize, steps: u64) -> Result<Law> {
    let mut states: BTreeMap<Vec<u64>, Q> = [(vec![0u64; n], Q::one())].into();
    for _ in 0..steps {
        if states.len() * n > STATE_LIMIT {
            return Err(Error::Unsupported(format!(
                "more than {STATE_LIMIT} states × outcomes (n = {n}, {steps} steps)"
            )));
        }
        let mut next: BTreeMap<Vec<u64>, Q> = BTreeMap::new();
        for (x, px) in &states {
            let loads = Loads::new(x.iter().map(|&v| v as f64).collect())?;
            let law = process
                .step_law_exact(&loads, TieRule::Random)?
                .ok_or_else(|| {
                    Error::Unsupported(format!("{} has no exact step law", process.spec()))
                })?;
            for o in law.outcomes.iter().filter(|o| !o.prob.is_zero()) {
                let mut y = x.clone();
                y[o.bin] += u64::from(o.balls);
                y.sort_unstable_by(|a, b| b.cmp(a));
                *next.entry(y).or_insert_with(Q::zero) += px * &o.prob;
            }
        }
        states = next;
    }
    let mut law = Law::new();
    for (x, p) in states {
        *law.entry(Q::from_integer((x[0] - x[n - 1]).into()))
            .or_insert_with(Q::zero) += p;
    }
    Ok(law)
}
