//! Quantile(δ): take a uniform sample; if it is among the (1 − δ)n lightest (rank > δn) allocate
//! there, otherwise allocate to a second uniform sample. `pᵢ = δ/n` for `i ≤ δn`, `(1 + δ)/n`
//! otherwise. Reference: Los–Sauerwald, *Balanced Allocations in Batches* (SPAA 2022), §2.

use super::{Param, Process, ProcessInfo, uniform_rank};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use crate::spec::Spec;
use rand::Rng;

/// Quantile(δ) with `δ ∈ (0, 1]`; `δn` must be an integer at the `n` it is evaluated at.
///
/// ```
/// let p = balloc::process::parse("quantile(delta=0.25)").unwrap();
/// // n = 4: δn = 1, p = (0.25/4, 1.25/4, 1.25/4, 1.25/4).
/// assert_eq!(p.rank_probabilities(4).unwrap().unwrap(), vec![0.0625, 0.3125, 0.3125, 0.3125]);
/// assert!(p.rank_probabilities(6).is_err()); // δn = 1.5 is not an integer
/// ```
#[derive(Debug, Clone)]
pub struct Quantile {
    delta: f64,
    delta_exact: Q,
}

impl Quantile {
    /// Quantile(δ) with the exact `δ ∈ (0, 1]`: the only parameter (the `f64` laws use `k = δn`
    /// computed exactly).
    ///
    /// ```
    /// use balloc::process::{Process, Quantile};
    /// let q = Quantile::new(balloc::spec::parse_ratio("1/3").unwrap()).unwrap();
    /// assert_eq!(q.spec(), "quantile(delta=1/3)");
    /// assert!(Quantile::new(balloc::spec::parse_ratio("0").unwrap()).is_err());
    /// ```
    pub fn new(delta: Q) -> Result<Quantile> {
        let in_range = delta > Q::from_integer(0.into()) && delta <= Q::from_integer(1.into());
        if !in_range {
            return Err(Error::invalid(
                "parameter `delta` of `quantile`",
                format!("must lie in (0, 1], got {delta}"),
            ));
        }
        Ok(Quantile {
            delta: num_traits::ToPrimitive::to_f64(&delta).unwrap_or(f64::NAN),
            delta_exact: delta,
        })
    }

    /// Quantile(δ) from a decimal `f64`, read as the decimal it prints as (`0.1` is `1/10`).
    ///
    /// ```
    /// use balloc::process::{Process, Quantile};
    /// assert_eq!(Quantile::from_f64(0.25).unwrap().spec(), "quantile(delta=0.25)");
    /// ```
    pub fn from_f64(delta: f64) -> Result<Quantile> {
        Quantile::new(super::decimal("delta", delta)?)
    }

    /// `k = δn`, an error when it is not an integer.
    /// ```
    /// use balloc::process::Quantile;
    /// let q = Quantile::from_f64(0.25).unwrap();
    /// assert_eq!(q.k(8).unwrap(), 2);
    /// assert!(q.k(6).is_err());
    /// ```
    pub fn k(&self, n: usize) -> Result<usize> {
        let k = &self.delta_exact * Q::from_integer(Int::from(n));
        if !k.is_integer() {
            return Err(Error::invalid(
                "parameter `delta` of `quantile`",
                format!(
                    "δn = {}·{n} is not an integer; choose δ as a multiple of 1/{n}",
                    self.delta
                ),
            ));
        }
        use num_traits::ToPrimitive;
        Ok(k.to_integer().to_usize().unwrap_or(n))
    }
}

pub(super) static INFO: ProcessInfo = ProcessInfo {
    name: "quantile",
    aliases: &["quantile-delta"],
    params: &[Param {
        name: "delta",
        default: Some("0.5"),
        doc: "quantile δ ∈ (0, 1]; δn must be an integer",
    }],
    summary: "second sample iff the first is among the δn heaviest: p_i = δ/n (i ≤ δn), (1+δ)/n (i > δn)",
    reference: "Los–Sauerwald, Balanced Allocations in Batches (SPAA 2022), §2",
    rank_based: true,
    monotone: true,
    example: "quantile(delta=0.25)",
    build,
};

fn build(spec: &Spec, _files: &dyn crate::graph::family::GraphFiles) -> Result<Box<dyn Process>> {
    let (_, r) = spec.get_ratio("delta", "0.5")?;
    Ok(Box::new(Quantile::new(r)?))
}

impl Process for Quantile {
    fn info(&self) -> &'static ProcessInfo {
        &INFO
    }
    fn spec(&self) -> String {
        format!("quantile(delta={})", super::ratio_text(&self.delta_exact))
    }
    fn rule(&self, n: usize) -> Result<super::Rule> {
        Ok(super::Rule::Quantile {
            k: self.k(n)? as u64,
        })
    }
    fn rank_probabilities(&self, n: usize) -> Result<Option<Vec<f64>>> {
        let k = self.k(n)?;
        let n2 = (n as f64) * (n as f64);
        // δ/n = k/n², (1 + δ)/n = (n + k)/n².
        Ok(Some(
            (1..=n)
                .map(|i| {
                    if i <= k {
                        k as f64 / n2
                    } else {
                        (n + k) as f64 / n2
                    }
                })
                .collect(),
        ))
    }
    fn rank_probabilities_exact(&self, n: usize) -> Result<Option<Vec<Q>>> {
        let k = self.k(n)?;
        let n2 = Int::from(n) * Int::from(n);
        Ok(Some(
            (1..=n)
                .map(|i| {
                    let num = if i <= k { k } else { n + k };
                    Q::new(Int::from(num), n2.clone())
                })
                .collect(),
        ))
    }
    fn rank_range_probabilities(&self, n: usize, bounds: &[usize]) -> Result<Option<Vec<f64>>> {
        super::check_bounds(n, bounds)?;
        let k = self.k(n)?;
        let n2 = (n as f64) * (n as f64);
        // Ranks s+1..=t: h = |{r ∈ s..t : r < k}| heavy ranks at k/n², the rest at (n + k)/n².
        Ok(Some(
            bounds
                .windows(2)
                .map(|w| {
                    let heavy = w[1].min(k).saturating_sub(w[0]);
                    let light = w[1] - w[0] - heavy;
                    (heavy as f64 * k as f64 + light as f64 * (n + k) as f64) / n2
                })
                .collect(),
        ))
    }
    fn sample_rank(&self, n: usize, rng: &mut dyn Rng) -> Option<usize> {
        let k = self.k(n).ok()?;
        let r = uniform_rank(n, rng);
        // 0-based rank r ≥ k means rank r + 1 > δn: among the lightest, keep it.
        if r >= k {
            Some(r)
        } else {
            Some(uniform_rank(n, rng))
        }
    }
}
