//! The law of one step grouped by load level: for a rank-based process, every bin of a tied
//! group (equal loads) has the same normalised load, and the group as a whole receives the ball
//! with the total probability of its rank range.
//!
//! For one ball and a sum-over-bins potential `Σ φ(yᵢ)` only these totals matter: if the ball
//! lands in a bin of level `g`, the potential becomes `Σ_h k_h φ(y_h − w/n) + φ(y_g + w) −
//! φ(y_g − w/n)` whichever bin of the level it is, so the tie rule is irrelevant. For a batch the
//! split inside a level matters; under random ties it is uniform (each bin gets the average of
//! the group's rank probabilities, as [`crate::loads::Ranking::per_bin`] does).
//!
//! Reference: Los–Sauerwald, *Balanced Allocations in Batches* (SPAA 2022), §2 (allocation
//! vectors by rank, random tie-breaking); `docs/derivations.md` §4.

use super::Process;
use crate::error::Result;
use crate::loads::{Levels, Loads, TieRule};

/// One step of a rank-based process grouped by load level (heaviest level first).
///
/// ```
/// use balloc::loads::{Loads, TieRule};
/// use balloc::process::{self, LevelLaw};
/// let p = process::parse("two-choice").unwrap();
/// // x = (1, 5, 1, 0): levels 5 (rank 1), 1 (ranks 2–3), 0 (rank 4); p = (1, 3, 5, 7)/16.
/// let x = Loads::new(vec![1.0, 5.0, 1.0, 0.0]).unwrap();
/// let law = LevelLaw::of_process(p.as_ref(), &x, TieRule::Random).unwrap().unwrap();
/// assert_eq!(law.counts, vec![1, 2, 1]);
/// assert_eq!(law.y, vec![3.25, -0.75, -1.75]); // W/n = 7/4
/// assert_eq!(law.prob, vec![1.0 / 16.0, 8.0 / 16.0, 7.0 / 16.0]);
/// assert!(law.uniform_within);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct LevelLaw {
    /// The number of bins.
    pub n: usize,
    /// The normalised load `y_g = x_g − W/n` of each level (the same numbers as
    /// [`Loads::normalized`] gives for its bins).
    pub y: Vec<f64>,
    /// The number of bins `k_g` of each level.
    pub counts: Vec<usize>,
    /// The probability `P_g` that the ball lands in some bin of level `g`.
    pub prob: Vec<f64>,
    /// Whether every bin of level `g` receives the ball with probability `P_g / k_g` (random
    /// ties). With fixed ties only the totals are known, which determines one-ball expectations
    /// of sum-over-bins potentials but not batch expectations.
    pub uniform_within: bool,
}

impl LevelLaw {
    /// The grouped law of a rank-based process at `loads` under `ties`; `Ok(None)` when the
    /// process is not rank-based. Errors as [`Process::step_law`] (for example Quantile at an
    /// `n` where `δn` is not an integer).
    pub fn of_process(
        process: &dyn Process,
        loads: &Loads,
        ties: TieRule,
    ) -> Result<Option<LevelLaw>> {
        LevelLaw::of_levels(process, &loads.levels(), ties)
    }

    /// [`LevelLaw::of_process`] from the load levels alone (loads counted by value, with no
    /// vector of n loads).
    ///
    /// ```
    /// use balloc::loads::{Loads, TieRule};
    /// use balloc::process::{self, LevelLaw};
    /// let p = process::parse("two-choice").unwrap();
    /// let x = Loads::new(vec![0.0, 2.0, 0.0]).unwrap();
    /// // Two-Choice, n = 3: the heaviest rank gets 1/9, the two tied lightest 8/9.
    /// let law = LevelLaw::of_levels(p.as_ref(), &x.levels(), TieRule::Random).unwrap().unwrap();
    /// assert!((law.prob[0] - 1.0 / 9.0).abs() < 1e-15 && (law.prob[1] - 8.0 / 9.0).abs() < 1e-15);
    /// ```
    pub fn of_levels(
        process: &dyn Process,
        levels: &Levels,
        ties: TieRule,
    ) -> Result<Option<LevelLaw>> {
        if !process.info().rank_based {
            return Ok(None);
        }
        let bounds = bounds(levels);
        Ok(process
            .rank_range_probabilities(levels.n, &bounds)?
            .map(|prob| LevelLaw::from_parts(levels, prob, ties)))
    }

    /// The grouped law of an explicit allocation vector by rank (`p[0]` for the heaviest rank)
    /// at the load levels `levels`: each level receives the sum of `p` over its ranks.
    ///
    /// ```
    /// use balloc::loads::{Loads, TieRule};
    /// use balloc::process::LevelLaw;
    /// let x = Loads::new(vec![0.0, 2.0, 0.0]).unwrap();
    /// let law = LevelLaw::of_rank_vector(&[0.25, 0.25, 0.5], &x.levels(), TieRule::Fixed);
    /// assert_eq!(law.prob, vec![0.25, 0.75]);
    /// assert!(!law.uniform_within);
    /// ```
    pub fn of_rank_vector(p: &[f64], levels: &Levels, ties: TieRule) -> LevelLaw {
        let prob = super::range_sums(p, &bounds(levels));
        LevelLaw::from_parts(levels, prob, ties)
    }

    fn from_parts(levels: &Levels, prob: Vec<f64>, ties: TieRule) -> LevelLaw {
        let mean = levels.mean();
        LevelLaw {
            n: levels.n,
            y: levels.values.iter().map(|v| v - mean).collect(),
            counts: levels.counts.clone(),
            prob,
            uniform_within: ties == TieRule::Random,
        }
    }

    /// The per-bin probabilities in rank order (level by level; within a level each bin gets
    /// `P_g / k_g`): the allocation vector after random tie-breaking.
    ///
    /// ```
    /// use balloc::loads::{Loads, TieRule};
    /// use balloc::process::LevelLaw;
    /// let x = Loads::new(vec![0.0, 2.0, 0.0]).unwrap();
    /// let law = LevelLaw::of_rank_vector(&[0.25, 0.25, 0.5], &x.levels(), TieRule::Random);
    /// assert_eq!(law.averaged_by_rank(), vec![0.25, 0.375, 0.375]);
    /// ```
    pub fn averaged_by_rank(&self) -> Vec<f64> {
        let mut v = Vec::with_capacity(self.n);
        for (&p, &k) in self.prob.iter().zip(&self.counts) {
            v.extend(std::iter::repeat_n(p / k as f64, k));
        }
        v
    }
}

/// The rank boundaries `0 = s₀ < … < s_m = n` of the levels.
fn bounds(levels: &Levels) -> Vec<usize> {
    let mut b = Vec::with_capacity(levels.len() + 1);
    b.push(0);
    let mut acc = 0;
    for &c in &levels.counts {
        acc += c;
        b.push(acc);
    }
    b
}
