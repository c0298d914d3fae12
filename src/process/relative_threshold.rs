//! Relative-Threshold(f): Two-Thinning whose threshold follows the mean, `W/n + f`: the first
//! uniform sample is kept iff its normalised load is below `f` (at `y = f` by the `boundary`
//! parameter), otherwise the ball goes to a second uniform sample.
//! `rᵢ = 1{yᵢ ≤ f}/n + (#{j : yⱼ > f}/n)·(1/n)` with `boundary=under` (as printed).
//! Reference: Los–Sauerwald–Sylvester, *Mean-Biased Processes* (arXiv:2308.05087); D. Los's
//! process pages (P.RelativeThreshold in `docs/derivations.md` §1).

use super::{Param, Process, ProcessInfo, StepLaw, two_thinning};
use crate::error::{Error, Result};
use crate::loads::{Boundary, Loads, Ranking, TieRule};
use crate::spec::Spec;
use rand::Rng;

/// Relative-Threshold(f); Mean-Thinning is the case `f = 0`.
///
/// ```
/// use balloc::loads::{Loads, TieRule};
/// let p = balloc::process::parse("relative-threshold(f=1)").unwrap();
/// let x = Loads::new(vec![0.0, 0.0, 3.0]).unwrap(); // y = (−1, −1, 2)
/// let r = p.step_law(&x, TieRule::Random).unwrap().per_bin_probability();
/// // bins 0, 1 accepted; bin 2 (y = 2 > 1) rejected: r = (1/3 + 1/9, 1/3 + 1/9, 1/9).
/// assert!((r[0] - 4.0 / 9.0).abs() < 1e-15 && (r[2] - 1.0 / 9.0).abs() < 1e-15);
/// ```
#[derive(Debug, Clone)]
pub struct RelativeThreshold {
    pub(super) f: f64,
    pub(super) boundary: Boundary,
    pub(super) info: &'static ProcessInfo,
}

impl RelativeThreshold {
    /// Relative-Threshold(f): a finite offset `f` above the mean load, with the boundary rule.
    ///
    /// ```
    /// use balloc::process::{Process, RelativeThreshold};
    /// use balloc::loads::Boundary;
    /// let p = RelativeThreshold::new(1.0, Boundary::Under).unwrap();
    /// assert_eq!(p.spec(), balloc::process::parse("relative-threshold(f=1)").unwrap().spec());
    /// assert!(RelativeThreshold::new(f64::NAN, Boundary::Under).is_err());
    /// ```
    pub fn new(f: f64, boundary: Boundary) -> Result<RelativeThreshold> {
        if !f.is_finite() {
            return Err(Error::invalid(
                "parameter `f` of `relative-threshold`",
                format!("must be a finite number, got {f}"),
            ));
        }
        Ok(RelativeThreshold {
            f,
            boundary,
            info: &INFO,
        })
    }

    /// Whether bin `i` passes (counts as below the threshold `W/n + f`). Compares
    /// `n·xᵢ − W` with `n·f`, exact for integer loads.
    pub(super) fn accepts(&self, loads: &Loads) -> Vec<bool> {
        let n = loads.n() as f64;
        let w = loads.total();
        loads
            .as_slice()
            .iter()
            .map(|&x| self.boundary.is_under(n * x - w, n * self.f))
            .collect()
    }
}

pub(super) static INFO: ProcessInfo = ProcessInfo {
    name: "relative-threshold",
    aliases: &["relative-thinning"],
    params: &[
        Param {
            name: "f",
            default: Some("0"),
            doc: "offset of the threshold above the mean load (finite)",
        },
        Param {
            name: "boundary",
            default: Some("under"),
            doc: "whether y = f counts as under (kept, as printed) or over (rejected)",
        },
    ],
    summary: "first sample if y ≤ f, else a second sample: r_i = 1{y_i ≤ f}/n + #{y_j > f}/n^2",
    reference: "Los–Sauerwald–Sylvester, Mean-Biased Processes (arXiv:2308.05087)",
    rank_based: false,
    monotone: true,
    example: "relative-threshold(f=1)",
    build,
};

fn build(spec: &Spec, _files: &dyn crate::graph::family::GraphFiles) -> Result<Box<dyn Process>> {
    let f = spec.get_f64("f", 0.0)?;
    let boundary = Boundary::parse(&spec.get_choice("boundary", &["over", "under"], "under")?)?;
    Ok(Box::new(RelativeThreshold {
        f,
        boundary,
        info: &INFO,
    }))
}

impl Process for RelativeThreshold {
    fn info(&self) -> &'static ProcessInfo {
        self.info
    }
    fn spec(&self) -> String {
        if self.info.name == "mean-thinning" {
            format!("mean-thinning(boundary={})", self.boundary.name())
        } else {
            format!(
                "relative-threshold(f={},boundary={})",
                self.f,
                self.boundary.name()
            )
        }
    }
    fn rule(&self, _n: usize) -> Result<super::Rule> {
        Ok(super::Rule::Thinning(super::Accept::Relative {
            f: self.f,
            boundary: self.boundary,
        }))
    }
    fn step_law(&self, loads: &Loads, _ties: TieRule) -> Result<StepLaw> {
        Ok(two_thinning::thinning_law(&self.accepts(loads)))
    }
    fn step_law_exact(&self, loads: &Loads, _ties: TieRule) -> Result<Option<super::ExactStepLaw>> {
        Ok(Some(two_thinning::thinning_law_exact(&self.accepts(loads))))
    }
    fn sample(&self, loads: &Loads, _r: &Ranking, _t: TieRule, rng: &mut dyn Rng) -> (usize, u32) {
        let acc = self.accepts(loads);
        (two_thinning::thinning_sample(loads.n(), |i| acc[i], rng), 1)
    }
}
