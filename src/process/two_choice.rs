//! Two-Choice: the lesser loaded of two uniform samples, `pᵢ = (2i − 1)/n²`.
//! Reference: Los–Sauerwald, *Balanced Allocations in Batches* (SPAA 2022), §2.

use super::{Process, ProcessInfo, d_choice};
use crate::error::Result;
use crate::exact::Q;
use rand::Rng;

/// Two-Choice, `pᵢ = (2i − 1)/n²` (d-Choice with d = 2).
///
/// ```
/// let p = balloc::process::parse("two-choice").unwrap();
/// // n = 4: (1, 3, 5, 7)/16; the largest entry is 7/16 < 2/n, so C2 holds with C = 7/4.
/// let v = p.rank_probabilities(4).unwrap().unwrap();
/// assert_eq!(v[3], 7.0 / 16.0);
/// ```
#[derive(Debug, Clone)]
pub struct TwoChoice;

pub(super) static INFO: ProcessInfo = ProcessInfo {
    name: "two-choice",
    aliases: &["2-choice", "twochoice"],
    params: &[],
    summary: "lesser loaded of two uniform samples: p_i = (2i − 1)/n^2",
    reference: "Los–Sauerwald, Balanced Allocations in Batches (SPAA 2022), §2",
    rank_based: true,
    monotone: true,
    example: "two-choice",
    build: |_, _| Ok(Box::new(TwoChoice)),
};

impl Process for TwoChoice {
    fn info(&self) -> &'static ProcessInfo {
        &INFO
    }
    fn spec(&self) -> String {
        "two-choice".into()
    }
    fn rule(&self, _n: usize) -> Result<super::Rule> {
        Ok(super::Rule::DChoice { d: 2 })
    }
    fn rank_probabilities(&self, n: usize) -> Result<Option<Vec<f64>>> {
        let n2 = (n as f64) * (n as f64);
        Ok(Some((1..=n).map(|i| (2 * i - 1) as f64 / n2).collect()))
    }
    fn rank_probabilities_exact(&self, n: usize) -> Result<Option<Vec<Q>>> {
        Ok(Some(d_choice::probabilities_exact(n, 2)))
    }
    fn rank_range_probabilities(&self, n: usize, bounds: &[usize]) -> Result<Option<Vec<f64>>> {
        // Σ_{i≤k} pᵢ = k²/n², so ranks s+1..=t carry (t² − s²)/n².
        d_choice::range_probabilities(n, 2, bounds).map(Some)
    }
    fn sample_rank(&self, n: usize, rng: &mut dyn Rng) -> Option<usize> {
        Some(d_choice::sample(n, 2, rng))
    }
}
