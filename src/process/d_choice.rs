//! d-Choice: the least loaded of `d` uniform samples (with replacement),
//! `pᵢ = (iᵈ − (i−1)ᵈ)/nᵈ`, equivalently `Σ_{i≤k} pᵢ = (k/n)ᵈ`.
//! Reference: Los–Sauerwald, *Balanced Allocations in Batches* (SPAA 2022), §2.

use super::{Process, ProcessInfo, uniform_rank};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use crate::spec::Spec;
use rand::Rng;

/// d-Choice with `d ≥ 1` samples: `pᵢ = (iᵈ − (i−1)ᵈ)/nᵈ`.
///
/// ```
/// let p = balloc::process::parse("d-choice(d=3)").unwrap();
/// // n = 2: p = (1/8, 7/8).
/// assert_eq!(p.rank_probabilities(2).unwrap().unwrap(), vec![0.125, 0.875]);
/// ```
#[derive(Debug, Clone)]
pub struct DChoice {
    d: u32,
}

impl DChoice {
    /// d-Choice; `d` must be at least 1.
    pub fn new(d: u64) -> Result<DChoice> {
        if d == 0 || d > 64 {
            return Err(Error::invalid(
                "d",
                format!("must be an integer in 1..=64, got {d}"),
            ));
        }
        Ok(DChoice { d: d as u32 })
    }

    /// The number of samples `d`.
    pub fn d(&self) -> u32 {
        self.d
    }
}

pub(super) static INFO: ProcessInfo = ProcessInfo {
    name: "d-choice",
    aliases: &["dchoice"],
    params: &[super::Param {
        name: "d",
        default: Some("2"),
        doc: "number of samples, integer ≥ 1",
    }],
    summary: "least loaded of d uniform samples: p_i = (i^d − (i−1)^d)/n^d",
    reference: "Los–Sauerwald, Balanced Allocations in Batches (SPAA 2022), §2",
    rank_based: true,
    monotone: true,
    example: "d-choice(d=3)",
    build,
};

fn build(spec: &Spec, _files: &dyn crate::graph::family::GraphFiles) -> Result<Box<dyn Process>> {
    let d = spec.get_f64("d", 2.0)?;
    if d.fract() != 0.0 || d < 1.0 {
        return Err(Error::invalid(
            "parameter `d` of `d-choice`",
            format!("must be an integer ≥ 1, got {d}"),
        ));
    }
    Ok(Box::new(DChoice::new(d as u64)?))
}

/// `(iᵈ − (i−1)ᵈ)/nᵈ` for ranks `1..=n`, in `f64` (shared by d-Choice and Two-Choice).
pub(super) fn probabilities(n: usize, d: u32) -> Vec<f64> {
    let nf = n as f64;
    (1..=n)
        .map(|i| {
            let a = i as f64 / nf;
            let b = (i - 1) as f64 / nf;
            // aᵈ − bᵈ = (a − b)·Σ_{k<d} a^k b^{d−1−k}, all terms positive: no cancellation.
            let mut s = 0.0;
            for k in 0..d {
                s += a.powi(k as i32) * b.powi((d - 1 - k) as i32);
            }
            s / nf
        })
        .collect()
}

/// `(s_{g+1}ᵈ − s_gᵈ)/nᵈ` for consecutive rank boundaries (the mass of each rank range, from the
/// cumulative form `Σ_{i≤k} pᵢ = (k/n)ᵈ`): the integer difference exactly when `nᵈ` fits in
/// 128 bits, otherwise `(a − b)·Σ_{k<d} aᵏ b^{d−1−k}` with `a = s_{g+1}/n`, `b = s_g/n` (all terms
/// positive, no cancellation).
pub(super) fn range_probabilities(n: usize, d: u32, bounds: &[usize]) -> Result<Vec<f64>> {
    super::check_bounds(n, bounds)?;
    let nf = n as f64;
    if let Some(nd) = (n as u128).checked_pow(d) {
        let ndf = nd as f64;
        return Ok(bounds
            .windows(2)
            .map(|w| ((w[1] as u128).pow(d) - (w[0] as u128).pow(d)) as f64 / ndf)
            .collect());
    }
    Ok(bounds
        .windows(2)
        .map(|w| {
            let (a, b) = (w[1] as f64 / nf, w[0] as f64 / nf);
            let mut s = 0.0;
            for k in 0..d {
                s += a.powi(k as i32) * b.powi((d - 1 - k) as i32);
            }
            (w[1] - w[0]) as f64 / nf * s
        })
        .collect())
}

/// The same vector exactly.
pub(super) fn probabilities_exact(n: usize, d: u32) -> Vec<Q> {
    let nd = num_traits::pow(Int::from(n), d as usize);
    (1..=n)
        .map(|i| {
            let a = num_traits::pow(Int::from(i), d as usize);
            let b = num_traits::pow(Int::from(i - 1), d as usize);
            Q::new(a - b, nd.clone())
        })
        .collect()
}

/// The natural sampler: the lightest (largest 0-based rank) of `d` uniform ranks.
pub(super) fn sample(n: usize, d: u32, rng: &mut dyn Rng) -> usize {
    (0..d).map(|_| uniform_rank(n, rng)).max().unwrap_or(0)
}

impl Process for DChoice {
    fn info(&self) -> &'static ProcessInfo {
        &INFO
    }
    fn spec(&self) -> String {
        format!("d-choice(d={})", self.d)
    }
    fn rule(&self, _n: usize) -> Result<super::Rule> {
        Ok(super::Rule::DChoice { d: self.d })
    }
    fn rank_probabilities(&self, n: usize) -> Result<Option<Vec<f64>>> {
        Ok(Some(probabilities(n, self.d)))
    }
    fn rank_probabilities_exact(&self, n: usize) -> Result<Option<Vec<Q>>> {
        Ok(Some(probabilities_exact(n, self.d)))
    }
    fn rank_range_probabilities(&self, n: usize, bounds: &[usize]) -> Result<Option<Vec<f64>>> {
        range_probabilities(n, self.d, bounds).map(Some)
    }
    fn sample_rank(&self, n: usize, rng: &mut dyn Rng) -> Option<usize> {
        Some(sample(n, self.d, rng))
    }
}
