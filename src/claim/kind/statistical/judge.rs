//! The confidence intervals and decisions of a statistical file: the Bonferroni level shared by
//! its intervals, the decision of one configuration (the Student-t interval of the mean, the
//! Clopper–Pearson interval of a probability, censored hitting times), the steady-state check,
//! the observed/bound ratio and the witness of a configuration.

use super::Statistical;
use super::claim::{Over, Test};
use super::simulate::Point;
use super::statistic::Stat;
use crate::claim::verdict::Witness;
use crate::error::{Error, Result};
use crate::sim::statistic::{Decision, Estimate, Side, mean_ci, proportion_ci};
use std::collections::BTreeMap;

/// The name of a decision in notes.
pub(super) fn decision_name(d: Decision) -> &'static str {
    match d {
        Decision::Holds => "holds",
        Decision::Refuted => "refuted",
        Decision::Inconclusive => "inconclusive",
    }
}

/// A claim on the per-run values of one configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StatClaim {
    /// `E[X] ≤ threshold` (`Side::AtMost`) or `≥` (`Side::AtLeast`).
    Mean(Side),
    /// `P[X ≤ threshold] ≥ 1 − q` (`Side::AtMost`) or `P[X ≥ threshold] ≥ 1 − q`.
    Probability {
        /// Which side of the threshold the event puts `X` on.
        side: Side,
        /// The allowed failure probability `q ∈ [0, 1]`.
        q: f64,
    },
}

/// The decision at one configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Judgement {
    /// The estimate of `E[X]` (t interval) or of the event's probability (Clopper–Pearson).
    pub estimate: Estimate,
    /// What the estimate is compared with: the threshold (mean) or `1 − q` (probability).
    pub target: f64,
    /// `holds` / `refuted` / `inconclusive`.
    pub decision: Decision,
    /// The signed distance of the interval from the target on the claimed side (≥ 0 iff holds).
    pub margin: f64,
}

/// The Bonferroni per-configuration level `1 − (1 − c)/k`: with `k` intervals at this level,
/// all cover their true values at once with probability at least `c` (union bound).
///
/// ```
/// use balloc::claim::kind::statistical::bonferroni;
/// assert!((bonferroni(0.95, 4) - 0.9875).abs() < 1e-15);
/// ```
pub fn bonferroni(c: f64, k: usize) -> f64 {
    1.0 - (1.0 - c) / k.max(1) as f64
}

/// Decides `claim` on the per-run `values` of one configuration at confidence `level`.
///
/// ```
/// use balloc::claim::kind::statistical::{judge_values, StatClaim};
/// use balloc::sim::statistic::{Decision, Side};
/// // Mean 2, s = 1, t_{2, 0.975} = 4.302653: the 95% interval is [−0.484, 4.484].
/// let j = judge_values(&[1.0, 2.0, 3.0], StatClaim::Mean(Side::AtMost), 5.0, 0.95).unwrap();
/// assert_eq!(j.decision, Decision::Holds);
/// assert!((j.margin - (3.0 - 4.302652729911275 / 3f64.sqrt())).abs() < 1e-9);
/// ```
pub fn judge_values(
    values: &[f64],
    claim: StatClaim,
    threshold: f64,
    level: f64,
) -> Result<Judgement> {
    let (estimate, side, target) = match claim {
        StatClaim::Mean(side) => (mean_ci(values, level)?, side, threshold),
        StatClaim::Probability { side, q } => {
            if !(0.0..=1.0).contains(&q) {
                return Err(Error::invalid(
                    "[claim] q",
                    format!("must lie in [0, 1], got {q}"),
                ));
            }
            let k = values
                .iter()
                .filter(|&&x| match side {
                    Side::AtMost => x <= threshold,
                    Side::AtLeast => x >= threshold,
                })
                .count() as u64;
            (
                proportion_ci(k, values.len() as u64, level)?,
                Side::AtLeast,
                1.0 - q,
            )
        }
    };
    let decision = estimate.decide(side, target);
    let margin = match side {
        Side::AtMost => target - estimate.ci_high,
        Side::AtLeast => estimate.ci_low - target,
    };
    Ok(Judgement {
        estimate,
        target,
        decision,
        margin,
    })
}

impl Statistical {
    /// Decides one configuration at per-configuration level `level` with constants `consts`.
    pub(super) fn judge(&self, p: &Point, level: f64, consts: &[f64]) -> Result<Judgement> {
        let threshold = self.eval_dk(&self.rhs, p.n, p.b, p.m, consts, p.dk, "rhs")?;
        if self.stat == Stat::HittingTime {
            return self
                .judge_time(p, level, consts, threshold)
                .map(|c| Judgement {
                    estimate: c.estimate,
                    target: c.target,
                    decision: c.decision,
                    margin: c.margin,
                });
        }
        let claim = match self.test {
            Test::Mean(side) => StatClaim::Mean(side),
            Test::Probability(side) => {
                let q = self.q_at(p, consts)?;
                StatClaim::Probability { side, q }
            }
            Test::Exponent(..) | Test::Compare(_) => {
                return Err(Error::Unsupported(
                    "growth and comparison claims are judged over several configurations".into(),
                ));
            }
        };
        judge_values(&p.values, claim, threshold, level)
    }

    /// The per-configuration level at an effort: the Bonferroni level of the file's confidence
    /// over its intervals.
    pub(super) fn level(&self, effort: u32) -> f64 {
        bonferroni(self.confidence, self.intervals(effort))
    }

    /// The number of intervals the file's confidence is shared by (the Bonferroni divisor): one
    /// per configuration (mean, probability), per pair (compare) or per fitted curve (exponent),
    /// plus one per configuration for the steady-state check.
    pub(super) fn intervals(&self, effort: u32) -> usize {
        let k = self.configurations(effort);
        let base = match self.test {
            Test::Mean(_) | Test::Probability(_) => k,
            Test::Compare(_) => k / 2,
            Test::Exponent(_, Over::N) => self.batch.len() * self.balls.len() * self.sources.len(),
            Test::Exponent(_, Over::B) => {
                self.grid_n(effort).len() * self.balls.len() * self.sources.len()
            }
            Test::Exponent(_, Over::M) => {
                self.grid_n(effort).len() * self.batch.len() * self.sources.len()
            }
            Test::Exponent(_, Over::Param { .. } | Over::DOverK) => {
                self.grid_n(effort).len() * self.batch.len() * self.balls.len() * self.curves
            }
        };
        base + if self.steady_state { k } else { 0 }
    }

    /// `observed / bound` of one configuration: the mean over the threshold (mean claims), the
    /// empirical `(1 − q)`-quantile (`q`-quantile for `>=`) over the threshold (probability
    /// claims).
    pub(super) fn ratio(&self, p: &Point, threshold: f64, consts: &[f64]) -> Result<f64> {
        // Censored hitting times count at the horizon (the ratio is then a lower bound).
        let capped: Vec<f64> = p.values.iter().map(|v| v.min(p.m as f64)).collect();
        let p = &Point {
            values: capped,
            halves: None,
            detail: None,
            ..*p
        };
        let observed = match self.test {
            Test::Probability(side) => {
                let q = self.eval_dk(
                    self.q.as_ref().expect("probability claims have q"),
                    p.n,
                    p.b,
                    p.m,
                    consts,
                    p.dk,
                    "q",
                )?;
                let mut v = p.values.clone();
                v.sort_by(f64::total_cmp);
                let level = match side {
                    Side::AtMost => 1.0 - q,
                    Side::AtLeast => q,
                };
                let i = ((level * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1;
                v[i]
            }
            _ => p.values.iter().sum::<f64>() / p.values.len().max(1) as f64,
        };
        Ok(observed / threshold)
    }

    /// The steady-state check of one configuration: the paired difference (second half − first
    /// half of the observation window) has an interval containing 0. Returns the note and whether
    /// the two halves agree.
    pub(super) fn steady(&self, p: &Point, level: f64) -> Result<Option<(String, bool)>> {
        let Some((a, b)) = &p.halves else {
            return Ok(None);
        };
        let d: Vec<f64> = b.iter().zip(a).map(|(y, x)| y - x).collect();
        let e = mean_ci(&d, level)?;
        let ma = a.iter().sum::<f64>() / a.len() as f64;
        let mb = b.iter().sum::<f64>() / b.len() as f64;
        let agree = e.ci_low <= 0.0 && e.ci_high >= 0.0;
        Ok(Some((
            format!(
                "n = {}, {}, b = {}: steady state: first half {ma:.4}, second half {mb:.4}, difference {:.4} in [{:.4}, {:.4}]: {}",
                p.n,
                self.point_label(p),
                p.b,
                e.mean,
                e.ci_low,
                e.ci_high,
                if agree {
                    "the halves agree"
                } else {
                    "DRIFTING (the statistic has not settled: lengthen the burn-in)"
                }
            ),
            agree,
        )))
    }

    /// The witness of one configuration's decision with constants `consts`.
    pub(super) fn witness(&self, p: &Point, j: &Judgement, consts: &[f64], runs: u64) -> Witness {
        let constants: BTreeMap<String, f64> = self.names[3..]
            .iter()
            .cloned()
            .zip(consts.iter().copied())
            .collect();
        let target = match self.test {
            Test::Probability(_) => "1 - q".to_string(),
            _ => "threshold".to_string(),
        };
        Witness {
            n: p.n,
            loads: vec![],
            source: format!("{}, b = {}, m = {}", self.point_label(p), p.b, p.m),
            constants,
            constants_text: BTreeMap::new(),
            exact: None,
            lhs: format!(
                "{} ≈ {:.6} in [{:.6}, {:.6}] ({} runs, level {:.6})",
                self.lhs_name(),
                j.estimate.mean,
                j.estimate.ci_low,
                j.estimate.ci_high,
                runs,
                j.estimate.confidence
            ),
            rhs: format!("{target} {:.6}", j.target),
            slack: format!("{:.6}", j.margin),
            found_by: "simulation".into(),
            recheck: None,
        }
    }
}
