//! Two-Thinning with an absolute threshold ℓ: allocate to the first uniform sample if its load is
//! at most ℓ, otherwise to a second uniform sample.
//! `rᵢ = 1{xᵢ ≤ ℓ}/n + (#{j : xⱼ > ℓ}/n)·(1/n)`.
//! Reference: Los–Sauerwald, *Balanced Allocations in Batches* (SPAA 2022), §2 (P.TwoThinning in `docs/derivations.md` §1).

use super::{Param, Process, ProcessInfo, StepLaw, uniform_rank};
use crate::error::{Error, Result};
use crate::loads::{Loads, Ranking, TieRule};
use crate::spec::Spec;
use rand::Rng;

/// Two-Thinning with absolute threshold `ℓ` (a finite number).
///
/// ```
/// use balloc::loads::{Loads, TieRule};
/// let p = balloc::process::parse("two-thinning(threshold=1)").unwrap();
/// let x = Loads::new(vec![0.0, 2.0]).unwrap();
/// // bin 0 accepted (0 ≤ 1), bin 1 rejected: r = (1/2 + 1/4, 1/4).
/// let law = p.step_law(&x, TieRule::Random).unwrap();
/// assert_eq!(law.per_bin_probability(), vec![0.75, 0.25]);
/// ```
#[derive(Debug, Clone)]
pub struct TwoThinning {
    threshold: f64,
}

impl TwoThinning {
    /// Two-Thinning with a finite load threshold (the first sample is kept when its load is
    /// below it).
    ///
    /// ```
    /// use balloc::process::{Process, TwoThinning};
    /// assert_eq!(TwoThinning::new(3.0).unwrap().spec(), "two-thinning(threshold=3)");
    /// assert!(TwoThinning::new(f64::INFINITY).is_err());
    /// ```
    pub fn new(threshold: f64) -> Result<TwoThinning> {
        if !threshold.is_finite() {
            return Err(Error::invalid(
                "parameter `threshold` of `two-thinning`",
                format!("must be a finite number, got {threshold}"),
            ));
        }
        Ok(TwoThinning { threshold })
    }
}

pub(super) static INFO: ProcessInfo = ProcessInfo {
    name: "two-thinning",
    aliases: &["thinning"],
    params: &[Param {
        name: "threshold",
        default: None,
        doc: "absolute load threshold ℓ (finite)",
    }],
    summary: "first sample if its load ≤ ℓ, else a second sample: r_i = 1{x_i ≤ ℓ}/n + #{x_j > ℓ}/n²",
    reference: "Los–Sauerwald, Balanced Allocations in Batches (SPAA 2022), §2",
    rank_based: false,
    monotone: true,
    example: "two-thinning(threshold=1)",
    build,
};

fn build(spec: &Spec, _files: &dyn crate::graph::family::GraphFiles) -> Result<Box<dyn Process>> {
    if spec.get("threshold").is_none() {
        return Err(Error::invalid(
            "parameter `threshold` of `two-thinning`",
            "is required, e.g. two-thinning(threshold=3)",
        ));
    }
    let threshold = spec.get_f64("threshold", 0.0)?;
    Ok(Box::new(TwoThinning::new(threshold)?))
}

/// Per-bin probabilities of a thinning process whose first sample is accepted iff `accept[i]`.
pub(super) fn thinning_law(accept: &[bool]) -> StepLaw {
    let n = accept.len() as f64;
    let rejected = accept.iter().filter(|a| !**a).count() as f64;
    StepLaw::unit(
        accept
            .iter()
            .map(|&a| (if a { 1.0 } else { 0.0 }) / n + rejected / (n * n))
            .collect(),
    )
}

/// [`thinning_law`] in exact rationals: `rᵢ = 1{accept[i]}/n + R/n²`, `R` the rejected count.
pub(super) fn thinning_law_exact(accept: &[bool]) -> super::ExactStepLaw {
    use crate::exact::Q;
    let n = accept.len() as i64;
    let rejected = accept.iter().filter(|a| !**a).count() as i64;
    super::ExactStepLaw::unit(
        accept
            .iter()
            .map(|&a| Q::new((i64::from(a) * n + rejected).into(), (n * n).into()))
            .collect(),
    )
}

/// The natural sampler of a thinning process.
pub(super) fn thinning_sample(
    n: usize,
    accept: impl Fn(usize) -> bool,
    rng: &mut dyn Rng,
) -> usize {
    let i = uniform_rank(n, rng);
    if accept(i) { i } else { uniform_rank(n, rng) }
}

impl Process for TwoThinning {
    fn info(&self) -> &'static ProcessInfo {
        &INFO
    }
    fn spec(&self) -> String {
        format!("two-thinning(threshold={})", self.threshold)
    }
    fn rule(&self, _n: usize) -> Result<super::Rule> {
        Ok(super::Rule::Thinning(super::Accept::Absolute(
            self.threshold,
        )))
    }
    fn step_law(&self, loads: &Loads, _ties: TieRule) -> Result<StepLaw> {
        let acc: Vec<bool> = loads
            .as_slice()
            .iter()
            .map(|&x| x <= self.threshold)
            .collect();
        Ok(thinning_law(&acc))
    }
    fn step_law_exact(&self, loads: &Loads, _ties: TieRule) -> Result<Option<super::ExactStepLaw>> {
        let acc: Vec<bool> = loads
            .as_slice()
            .iter()
            .map(|&x| x <= self.threshold)
            .collect();
        Ok(Some(thinning_law_exact(&acc)))
    }
    fn sample(&self, loads: &Loads, _r: &Ranking, _t: TieRule, rng: &mut dyn Rng) -> (usize, u32) {
        let x = loads.as_slice();
        (thinning_sample(x.len(), |i| x[i] <= self.threshold, rng), 1)
    }
}
