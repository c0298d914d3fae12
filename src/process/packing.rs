//! Packing: sample one bin uniformly; an underloaded bin is raised to `⌈W/n⌉ + 1` (it receives
//! `⌈W/n⌉ + 1 − xⱼ` balls), an overloaded bin receives one ball. Integer loads only.
//! Reference: Los–Sauerwald–Sylvester, *Balanced Allocations: Caching and Packing, Twinning and
//! Thinning* (SODA 2022, arXiv:2110.10759); P.Packing in `docs/derivations.md` §1.

use super::{Outcome, Param, Process, ProcessInfo, StepLaw, uniform_rank};
use crate::error::{Error, Result};
use crate::loads::{Boundary, Loads, Ranking, TieRule};
use rand::Rng;

/// Packing.
///
/// ```
/// use balloc::loads::{Loads, TieRule};
/// let p = balloc::process::parse("packing").unwrap();
/// let x = Loads::new(vec![0.0, 3.0, 3.0]).unwrap(); // W/n = 2: bin 0 raised to 3 (3 balls)
/// let law = p.step_law(&x, TieRule::Random).unwrap();
/// assert_eq!(law.outcomes[0].balls, 3);
/// assert!((law.expected_balls() - 5.0 / 3.0).abs() < 1e-15); // (3 + 1 + 1)/3
/// ```
#[derive(Debug, Clone)]
pub struct Packing {
    boundary: Boundary,
}

impl Packing {
    /// Packing with the over/underloaded `boundary`.
    ///
    /// ```
    /// use balloc::process::{Packing, Process};
    /// assert_eq!(Packing::new(Default::default()).spec(), balloc::process::parse("packing").unwrap().spec());
    /// ```
    pub fn new(boundary: Boundary) -> Packing {
        Packing { boundary }
    }
}

pub(super) static INFO: ProcessInfo = ProcessInfo {
    name: "packing",
    aliases: &[],
    params: &[Param {
        name: "boundary",
        default: Some("over"),
        doc: "y = 0 counts as over (default) or under",
    }],
    summary: "one uniform sample; underloaded: filled up to ⌈W/n⌉+1, overloaded: one ball (integer loads)",
    reference: "Los–Sauerwald–Sylvester, Caching and Packing, Twinning and Thinning (SODA 2022, arXiv:2110.10759)",
    rank_based: false,
    monotone: true,
    example: "packing",
    build: |spec, _| {
        Ok(Box::new(Packing {
            boundary: Boundary::parse(&spec.get_choice("boundary", &["over", "under"], "over")?)?,
        }))
    },
};

impl Packing {
    fn balls(&self, loads: &Loads) -> Result<Vec<u32>> {
        if !loads.is_integral() {
            return Err(Error::invalid(
                "loads",
                "packing is defined for integer loads only",
            ));
        }
        let n = loads.n() as f64;
        let w = loads.total();
        let target = (w / n).ceil() + 1.0;
        loads
            .as_slice()
            .iter()
            .map(|&x| {
                if self.boundary.is_under(n * x - w, 0.0) {
                    let c = target - x;
                    if c > u32::MAX as f64 {
                        Err(Error::invalid(
                            "loads",
                            "packing would add more than 2^32 balls",
                        ))
                    } else {
                        Ok(c as u32)
                    }
                } else {
                    Ok(1)
                }
            })
            .collect()
    }
}

impl Process for Packing {
    fn info(&self) -> &'static ProcessInfo {
        &INFO
    }
    fn spec(&self) -> String {
        format!("packing(boundary={})", self.boundary.name())
    }
    fn rule(&self, _n: usize) -> Result<super::Rule> {
        Ok(super::Rule::Packing {
            boundary: self.boundary,
        })
    }
    fn step_law(&self, loads: &Loads, _ties: TieRule) -> Result<StepLaw> {
        let p = 1.0 / loads.n() as f64;
        Ok(StepLaw {
            n: loads.n(),
            outcomes: self
                .balls(loads)?
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
    fn sample(&self, loads: &Loads, _r: &Ranking, _t: TieRule, rng: &mut dyn Rng) -> (usize, u32) {
        let j = uniform_rank(loads.n(), rng);
        let n = loads.n() as f64;
        let w = loads.total();
        let x = loads.as_slice()[j];
        if self.boundary.is_under(n * x - w, 0.0) {
            (j, ((w / n).ceil() + 1.0 - x) as u32)
        } else {
            (j, 1)
        }
    }
}
