//! Mean-Thinning: sample a bin; if it is underloaded allocate one ball to it, otherwise allocate
//! one ball to a second uniform sample. With θ the fraction of bins that are not underloaded,
//! `rᵢ = θ/n` for those bins and `(1 + θ)/n` for underloaded ones.
//! Reference: Los–Sauerwald–Sylvester, *Mean-Biased Processes for Balanced Allocations*
//! (arXiv:2308.05087), abstract and Fig. 3.2.

use super::relative_threshold::RelativeThreshold;
use super::{Param, Process, ProcessInfo};
use crate::error::Result;
use crate::loads::Boundary;
use crate::spec::Spec;

pub(super) static INFO: ProcessInfo = ProcessInfo {
    name: "mean-thinning",
    aliases: &["meanthinning"],
    params: &[Param {
        name: "boundary",
        default: Some("over"),
        doc: "y = 0 counts as over (B's abstract: underloaded iff y < 0) or under (site pseudo-code: y ≤ 0)",
    }],
    summary: "first sample if underloaded, else a second sample: r_i = θ/n (overloaded), (1+θ)/n (underloaded)",
    reference: "Los–Sauerwald–Sylvester, Mean-Biased Processes (arXiv:2308.05087), §1, Fig. 3.2",
    rank_based: false,
    monotone: true,
    example: "mean-thinning",
    build,
};

/// Builds Mean-Thinning (Relative-Threshold with `f = 0`).
///
/// ```
/// use balloc::loads::{Loads, TieRule};
/// let p = balloc::process::parse("mean-thinning").unwrap();
/// let x = Loads::new(vec![0.0, 1.0, 2.0, 1.0]).unwrap(); // mean 1: y = (−1, 0, 1, 0)
/// // θ = 3/4 of the bins are not underloaded: r = ((1 + θ)/4, θ/4, θ/4, θ/4).
/// let r = p.step_law(&x, TieRule::Random).unwrap().per_bin_probability();
/// assert_eq!(r, vec![1.75 / 4.0, 0.75 / 4.0, 0.75 / 4.0, 0.75 / 4.0]);
/// ```
pub fn build(
    spec: &Spec,
    _files: &dyn crate::graph::family::GraphFiles,
) -> Result<Box<dyn Process>> {
    let boundary = Boundary::parse(&spec.get_choice("boundary", &["over", "under"], "over")?)?;
    Ok(Box::new(RelativeThreshold::mean_thinning(boundary)))
}

impl RelativeThreshold {
    /// Mean-Thinning: Relative-Threshold with `f = 0` under its own name.
    ///
    /// ```
    /// use balloc::process::{Process, RelativeThreshold};
    /// let p = RelativeThreshold::mean_thinning(Default::default());
    /// assert_eq!(p.spec(), balloc::process::parse("mean-thinning").unwrap().spec());
    /// ```
    pub fn mean_thinning(boundary: Boundary) -> RelativeThreshold {
        RelativeThreshold {
            f: 0.0,
            boundary,
            info: &INFO,
        }
    }
}
