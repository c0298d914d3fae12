//! (1+β): with probability β a Two-Choice step, otherwise a One-Choice step,
//! `pᵢ = (1 − β)/n + β(2i − 1)/n²`.
//! Reference: Peres–Talwar–Wieder, *The (1+β)-choice process* (SODA 2010); Los–Sauerwald,
//! *Balanced Allocations in Batches* (SPAA 2022), §2 and §6.

use super::{Param, Process, ProcessInfo, d_choice, uniform_rank};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use crate::spec::Spec;
use rand::{Rng, RngExt};

/// (1+β) with `β ∈ [0, 1]`.
///
/// ```
/// let p = balloc::process::parse("one-plus-beta(beta=0.5)").unwrap();
/// // n = 2: p_1 = 0.5/2 + 0.5·1/4 = 0.375, p_2 = 0.25 + 0.5·3/4 = 0.625.
/// assert_eq!(p.rank_probabilities(2).unwrap().unwrap(), vec![0.375, 0.625]);
/// ```
#[derive(Debug, Clone)]
pub struct OnePlusBeta {
    beta: f64,
    beta_exact: Q,
}

impl OnePlusBeta {
    /// (1+β) with the exact `β ∈ [0, 1]`: the only parameter; the `f64` laws use its nearest
    /// `f64`, so the float and the exact allocation vectors are the same law.
    ///
    /// ```
    /// use balloc::process::{OnePlusBeta, Process};
    /// use balloc::spec::parse_ratio;
    /// let p = OnePlusBeta::new(parse_ratio("3/4").unwrap()).unwrap();
    /// // n = 2: p₁ = (1/4)/2 + (3/4)(1/4) = 5/16, p₂ = 11/16, in both representations.
    /// assert_eq!(p.rank_probabilities(2).unwrap().unwrap(), vec![0.3125, 0.6875]);
    /// let e = p.rank_probabilities_exact(2).unwrap().unwrap();
    /// assert_eq!((e[0].to_string(), e[1].to_string()), ("5/16".into(), "11/16".into()));
    /// assert!(OnePlusBeta::new(parse_ratio("1.5").unwrap()).is_err());
    /// ```
    pub fn new(beta: Q) -> Result<OnePlusBeta> {
        let in_range = beta >= Q::from_integer(0.into()) && beta <= Q::from_integer(1.into());
        if !in_range {
            return Err(Error::invalid(
                "parameter `beta` of `one-plus-beta`",
                format!("must lie in [0, 1], got {beta}"),
            ));
        }
        Ok(OnePlusBeta {
            beta: num_traits::ToPrimitive::to_f64(&beta).unwrap_or(f64::NAN),
            beta_exact: beta,
        })
    }

    /// (1+β) from a decimal `f64`, read as the decimal it prints as (`0.1` is `1/10`).
    ///
    /// ```
    /// use balloc::process::{OnePlusBeta, Process};
    /// assert_eq!(OnePlusBeta::from_f64(0.5).unwrap().spec(), "one-plus-beta(beta=0.5)");
    /// assert!(OnePlusBeta::from_f64(f64::NAN).is_err());
    /// ```
    pub fn from_f64(beta: f64) -> Result<OnePlusBeta> {
        OnePlusBeta::new(super::decimal("beta", beta)?)
    }

    /// β, exactly.
    pub fn beta(&self) -> &Q {
        &self.beta_exact
    }
}

pub(super) static INFO: ProcessInfo = ProcessInfo {
    name: "one-plus-beta",
    aliases: &["1+beta", "one-plus-β"],
    params: &[Param {
        name: "beta",
        default: Some("0.5"),
        doc: "probability of a Two-Choice step, in [0, 1]",
    }],
    summary: "Two-Choice with probability β, else One-Choice: p_i = (1−β)/n + β(2i−1)/n^2",
    reference: "Peres–Talwar–Wieder (SODA 2010); Los–Sauerwald, Balanced Allocations in Batches (SPAA 2022), §6",
    rank_based: true,
    monotone: true,
    example: "one-plus-beta(beta=0.5)",
    build,
};

fn build(spec: &Spec, _files: &dyn crate::graph::family::GraphFiles) -> Result<Box<dyn Process>> {
    let (_, r) = spec.get_ratio("beta", "0.5")?;
    Ok(Box::new(OnePlusBeta::new(r)?))
}

impl Process for OnePlusBeta {
    fn info(&self) -> &'static ProcessInfo {
        &INFO
    }
    fn spec(&self) -> String {
        format!(
            "one-plus-beta(beta={})",
            super::ratio_text(&self.beta_exact)
        )
    }
    fn rule(&self, _n: usize) -> Result<super::Rule> {
        Ok(super::Rule::OnePlusBeta { beta: self.beta })
    }
    fn rank_probabilities(&self, n: usize) -> Result<Option<Vec<f64>>> {
        let nf = n as f64;
        Ok(Some(
            (1..=n)
                .map(|i| (1.0 - self.beta) / nf + self.beta * (2 * i - 1) as f64 / (nf * nf))
                .collect(),
        ))
    }
    fn rank_probabilities_exact(&self, n: usize) -> Result<Option<Vec<Q>>> {
        let one = Q::from_integer(1.into());
        let base = (one - &self.beta_exact) / Q::from_integer(Int::from(n));
        Ok(Some(
            d_choice::probabilities_exact(n, 2)
                .into_iter()
                .map(|q| &base + &self.beta_exact * q)
                .collect(),
        ))
    }
    fn rank_range_probabilities(&self, n: usize, bounds: &[usize]) -> Result<Option<Vec<f64>>> {
        // Σ over ranks s+1..=t of (1 − β)/n + β(2i − 1)/n² = (1 − β)(t − s)/n + β(t² − s²)/n².
        let two = d_choice::range_probabilities(n, 2, bounds)?;
        let nf = n as f64;
        Ok(Some(
            bounds
                .windows(2)
                .zip(two)
                .map(|(w, q)| (1.0 - self.beta) * (w[1] - w[0]) as f64 / nf + self.beta * q)
                .collect(),
        ))
    }
    fn sample_rank(&self, n: usize, rng: &mut dyn Rng) -> Option<usize> {
        if rng.random_bool(self.beta) {
            Some(d_choice::sample(n, 2, rng))
        } else {
            Some(uniform_rank(n, rng))
        }
    }
}
