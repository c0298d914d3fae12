//! One-Choice: every ball goes to a uniformly random bin, `pᵢ = 1/n`.
//! Reference: Los–Sauerwald, *Balanced Allocations in Batches* (SPAA 2022), §2.

use super::{Process, ProcessInfo, uniform_rank};
use crate::error::Result;
use crate::exact::{Int, Q};
use rand::Rng;

/// One-Choice, `pᵢ = 1/n` for every rank `i`.
///
/// ```
/// let p = balloc::process::parse("one-choice").unwrap();
/// assert_eq!(p.rank_probabilities(4).unwrap().unwrap(), vec![0.25; 4]);
/// ```
#[derive(Debug, Clone)]
pub struct OneChoice;

pub(super) static INFO: ProcessInfo = ProcessInfo {
    name: "one-choice",
    aliases: &["uniform", "1-choice"],
    params: &[],
    summary: "each ball to a uniform bin: p_i = 1/n",
    reference: "Los–Sauerwald, Balanced Allocations in Batches (SPAA 2022), §2",
    rank_based: true,
    monotone: true,
    example: "one-choice",
    build: |_, _| Ok(Box::new(OneChoice)),
};

impl Process for OneChoice {
    fn info(&self) -> &'static ProcessInfo {
        &INFO
    }
    fn spec(&self) -> String {
        "one-choice".into()
    }
    fn rule(&self, _n: usize) -> Result<super::Rule> {
        Ok(super::Rule::OneChoice)
    }
    fn rank_probabilities(&self, n: usize) -> Result<Option<Vec<f64>>> {
        Ok(Some(vec![1.0 / n as f64; n]))
    }
    fn rank_probabilities_exact(&self, n: usize) -> Result<Option<Vec<Q>>> {
        Ok(Some(vec![Q::new(Int::from(1), Int::from(n)); n]))
    }
    fn rank_range_probabilities(&self, n: usize, bounds: &[usize]) -> Result<Option<Vec<f64>>> {
        super::check_bounds(n, bounds)?;
        let nf = n as f64;
        Ok(Some(
            bounds
                .windows(2)
                .map(|w| (w[1] - w[0]) as f64 / nf)
                .collect(),
        ))
    }
    fn sample_rank(&self, n: usize, rng: &mut dyn Rng) -> Option<usize> {
        Some(uniform_rank(n, rng))
    }
}
