//! The recovery-phase potential `V` of paper B, read as `V = Σᵢ exp((κ/n)·|yᵢ|)`.
//!
//! Reference: Los–Sauerwald–Sylvester, *Mean-Biased Processes* (arXiv:2308.05087), Fig. 4.1
//! ("In the recovery phase starting with V^t = poly(n) (and so Gap(t) = O(n log n) …)"). The
//! formula was not retrieved; docs/derivations.md §5.4 records, recalled, an exponential potential with smoothing
//! parameter Θ(1/n). This reading takes `Λ`'s form ([`super::lambda`]) with `α = κ/n`; it is
//! consistent with the caption: `V ≤ n^c` gives `max|yᵢ| ≤ (n/κ)·c·ln n = O(n log n)`.
//! Expectations: the closed form of `Λ` with `α = κ/n`.

use super::lambda::{AbsExponential, Smoothing, positive};
use super::{Potential, PotentialInfo};
use crate::error::Result;
use crate::process::Param;

pub(super) static INFO: PotentialInfo = PotentialInfo {
    name: "recovery",
    symbol: "V",
    aliases: &["V", "v"],
    params: &[Param {
        name: "kappa",
        default: Some("1"),
        doc: "smoothing α = κ/n, κ > 0",
    }],
    summary: "V = Σ_i exp((κ/n) |y_i|) (reading of the recovery-phase potential, smoothing Θ(1/n))",
    reference: "Los–Sauerwald–Sylvester, Mean-Biased Processes (arXiv:2308.05087), Fig. 4.1; formula recalled (docs/derivations.md §5.4)",
    example: "recovery(kappa=2)",
    build,
};

/// Builds `V`.
///
/// ```
/// use balloc::loads::Loads;
/// let v = balloc::potential::parse("recovery(kappa=4)").unwrap();
/// let x = Loads::new(vec![2.0, 0.0, 1.0, 1.0]).unwrap(); // y = (1, −1, 0, 0), α = 4/4 = 1
/// assert!((v.value(&x).to_f64_checked().unwrap() - (2.0 * 1f64.exp() + 2.0)).abs() < 1e-13);
/// ```
pub fn build(spec: &crate::spec::Spec) -> Result<Box<dyn Potential>> {
    let kappa = positive("kappa", spec.get_f64("kappa", 1.0)?)?;
    Ok(Box::new(AbsExponential::recovery(kappa)?))
}

impl AbsExponential {
    /// `V` with `α = kappa/n` (finite, `> 0`).
    pub fn recovery(kappa: f64) -> Result<AbsExponential> {
        Ok(AbsExponential {
            smoothing: Smoothing::PerBin(positive("kappa", kappa)?),
            info: &INFO,
        })
    }
}
