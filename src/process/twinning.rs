//! Twinning (weight bias): sample one bin uniformly; allocate `w₋` balls to it if it is
//! underloaded and `w₊` balls otherwise (defaults 2 and 1).
//! Reference: Los–Sauerwald–Sylvester, *Mean-Biased Processes for Balanced Allocations*
//! (arXiv:2308.05087), abstract and Fig. 3.1.

use super::{Outcome, Param, Process, ProcessInfo, StepLaw, uniform_rank};
use crate::error::{Error, Result};
use crate::loads::{Boundary, Loads, Ranking, TieRule};
use crate::spec::Spec;
use rand::Rng;

/// Twinning with ball counts `w₋` (underloaded) and `w₊` (overloaded).
///
/// ```
/// use balloc::loads::{Loads, TieRule};
/// let p = balloc::process::parse("twinning").unwrap();
/// let x = Loads::new(vec![0.0, 2.0]).unwrap(); // bin 0 underloaded, bin 1 overloaded
/// let law = p.step_law(&x, TieRule::Random).unwrap();
/// assert_eq!(law.expected_balls(), 1.5); // 1 + δ₋ with δ₋ = 1/2
/// ```
#[derive(Debug, Clone)]
pub struct Twinning {
    w_minus: u32,
    w_plus: u32,
    boundary: Boundary,
}

pub(super) static INFO: ProcessInfo = ProcessInfo {
    name: "twinning",
    aliases: &[],
    params: &[
        Param {
            name: "w_minus",
            default: Some("2"),
            doc: "balls for a sampled underloaded bin, integer ≥ 1",
        },
        Param {
            name: "w_plus",
            default: Some("1"),
            doc: "balls for a sampled overloaded bin, integer ≥ 1",
        },
        Param {
            name: "boundary",
            default: Some("over"),
            doc: "y = 0 counts as over (default) or under",
        },
    ],
    summary: "one uniform sample; w₋ balls if underloaded, w₊ otherwise (E balls = 1 + δ₋ by default)",
    reference: "Los–Sauerwald–Sylvester, Mean-Biased Processes (arXiv:2308.05087), §1, Fig. 3.1",
    rank_based: false,
    monotone: true,
    example: "twinning",
    build,
};

fn count(spec: &Spec, key: &str, default: u64) -> Result<u32> {
    let v = spec.get_u64(key, default)?;
    if v == 0 || v > 1_000_000 {
        return Err(Error::invalid(
            format!("parameter `{key}` of `twinning`"),
            format!("must be an integer in 1..=1000000, got {v}"),
        ));
    }
    Ok(v as u32)
}

fn build(spec: &Spec, _files: &dyn crate::graph::family::GraphFiles) -> Result<Box<dyn Process>> {
    Ok(Box::new(Twinning::new(
        count(spec, "w_minus", 2)?,
        count(spec, "w_plus", 1)?,
        Boundary::parse(&spec.get_choice("boundary", &["over", "under"], "over")?)?,
    )?))
}

impl Twinning {
    /// Twinning: `w_minus` balls to an underloaded sample, `w_plus` to an overloaded one (each in
    /// 1..=10⁶), with the over/underloaded `boundary`.
    ///
    /// ```
    /// use balloc::process::{Process, Twinning};
    /// use balloc::loads::Boundary;
    /// assert_eq!(Twinning::new(2, 1, Boundary::Over).unwrap().spec(), balloc::process::parse("twinning").unwrap().spec());
    /// assert!(Twinning::new(0, 1, Boundary::Over).is_err());
    /// ```
    pub fn new(w_minus: u32, w_plus: u32, boundary: Boundary) -> Result<Twinning> {
        for (key, v) in [("w_minus", w_minus), ("w_plus", w_plus)] {
            if v == 0 || v > 1_000_000 {
                return Err(Error::invalid(
                    format!("parameter `{key}` of `twinning`"),
                    format!("must be an integer in 1..=1000000, got {v}"),
                ));
            }
        }
        Ok(Twinning {
            w_minus,
            w_plus,
            boundary,
        })
    }
}

impl Twinning {
    fn balls(&self, loads: &Loads) -> Vec<u32> {
        let n = loads.n() as f64;
        let w = loads.total();
        loads
            .as_slice()
            .iter()
            .map(|&x| {
                if self.boundary.is_under(n * x - w, 0.0) {
                    self.w_minus
                } else {
                    self.w_plus
                }
            })
            .collect()
    }
}

impl Process for Twinning {
    fn info(&self) -> &'static ProcessInfo {
        &INFO
    }
    fn spec(&self) -> String {
        format!(
            "twinning(w_minus={},w_plus={},boundary={})",
            self.w_minus,
            self.w_plus,
            self.boundary.name()
        )
    }
    fn rule(&self, _n: usize) -> Result<super::Rule> {
        Ok(super::Rule::Twinning {
            w_minus: self.w_minus,
            w_plus: self.w_plus,
            boundary: self.boundary,
        })
    }
    fn step_law(&self, loads: &Loads, _ties: TieRule) -> Result<StepLaw> {
        let p = 1.0 / loads.n() as f64;
        Ok(StepLaw {
            n: loads.n(),
            outcomes: self
                .balls(loads)
                .into_iter()
                .enumerate()
                .map(|(bin, balls)| Outcome {
                    bin,
                    balls,
                    prob: p,
                })
                .collect(),
        })
    }
    fn step_law_exact(&self, loads: &Loads, _ties: TieRule) -> Result<Option<super::ExactStepLaw>> {
        let p = crate::exact::Q::new(1.into(), loads.n().into());
        Ok(Some(super::ExactStepLaw {
            n: loads.n(),
            outcomes: self
                .balls(loads)
                .into_iter()
                .enumerate()
                .map(|(bin, balls)| super::ExactOutcome {
                    bin,
                    balls,
                    prob: p.clone(),
                })
                .collect(),
        }))
    }
    fn sample(&self, loads: &Loads, _r: &Ranking, _t: TieRule, rng: &mut dyn Rng) -> (usize, u32) {
        let j = uniform_rank(loads.n(), rng);
        let n = loads.n() as f64;
        let y = n * loads.as_slice()[j] - loads.total();
        let b = if self.boundary.is_under(y, 0.0) {
            self.w_minus
        } else {
            self.w_plus
        };
        (j, b)
    }
}
