//! The gap-growth experiment for md-balls: per-dimension gap `max_a gap(a)` against `ln ln n` for
//! both allocation rules (D's sum-load rule and the max-populated rule of D's ref. \[6\]), for
//! `m = O(n)` and `m ≫ n`, with t-intervals, a CSV table and plots ([`crate::plot`]).
//!
//! This probes D.R1/D.R2 (`docs/derivations.md` §9; \[stat\]): "for n bins and m = O(n) balls, the gap … is
//! O(ln ln(n))", and for `m ≫ n` "the expected gap is still O(ln ln(n))". A simulation can only
//! show growth compatible or incompatible with `ln ln n` on the range simulated; it proves nothing.
//!
//! The plots are rendered into strings (no file I/O here; the CLI writes the files).

use super::multidim::MdSimConfig;
use crate::error::{Error, Result};
use crate::limits;
use crate::loads::TieRule;
use crate::multidim::ball::BallLaw;
use crate::multidim::rule::{Choice, Criterion, MdRule};
use crate::sim::statistic::{Estimate, mean_ci};

/// A load regime: `m = balls_per_bin · n`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Regime {
    /// A short name (`m=n`, `m=64n`).
    pub name: String,
    /// `m / n`.
    pub balls_per_bin: u64,
}

/// A sweep over `n = 2^k` for every regime, choice and criterion.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    /// The law of the balls.
    pub law: BallLaw,
    /// The choices (d-choice, (1+β)).
    pub choices: Vec<Choice>,
    /// The allocation criteria.
    pub criteria: Vec<Criterion>,
    /// The exponents `k` with `n = 2^k`.
    pub log2_n: Vec<u32>,
    /// The regimes.
    pub regimes: Vec<Regime>,
    /// Runs per point (≥ 2).
    pub runs: u64,
    /// The master seed.
    pub seed: u64,
    /// Confidence level of the intervals.
    pub level: f64,
    /// Rounds of this many balls decided in parallel (1 = sequential).
    pub batch: u64,
}

/// One point of the sweep.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Point {
    /// The regime name.
    pub regime: String,
    /// The choice spec.
    pub choice: String,
    /// The criterion (`sum` or `max`).
    pub rule: String,
    /// The number of bins.
    pub n: usize,
    /// The number of balls.
    pub balls: u64,
    /// `ln ln n`.
    pub ln_ln_n: f64,
    /// `max_a gap(a)` at the end, over runs.
    pub max_gap: Estimate,
    /// `max_b s_b` at the end, over runs.
    pub sum_gap: Estimate,
}

impl Sweep {
    /// The number of points.
    pub fn len(&self) -> usize {
        self.regimes.len() * self.choices.len() * self.criteria.len() * self.log2_n.len()
    }

    /// Whether the sweep is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every point as (regime index, choice index, configuration), in output order, each
    /// configuration validated (sizes within their limits, `m = (m/n)·n` without overflow), so
    /// that a bad point is refused before any run. Every point runs from the sweep's seed: its
    /// runs are seeded from (configuration key, seed, run index) as in [`crate::sim::simulate`].
    fn configs(&self) -> Result<Vec<(usize, usize, MdSimConfig)>> {
        limits::MD_RUNS.check("runs", self.runs)?;
        if self.runs < 2 {
            return Err(Error::invalid("runs", "need at least 2 runs per point"));
        }
        let mut out = Vec::new();
        for (ri, regime) in self.regimes.iter().enumerate() {
            for (ci, choice) in self.choices.iter().enumerate() {
                for &criterion in &self.criteria {
                    for &k in &self.log2_n {
                        if !(1..=limits::MD_MAX_LOG2_N).contains(&k) {
                            return Err(Error::invalid(
                                "log2 n",
                                format!(
                                    "must lie in 1..={} (ln ln n needs n ≥ 2), got {k}",
                                    limits::MD_MAX_LOG2_N
                                ),
                            ));
                        }
                        let n = 1usize << k;
                        let cfg = MdSimConfig {
                            n,
                            balls: limits::checked_mul(
                                "balls (m/n)·n",
                                regime.balls_per_bin,
                                n as u64,
                            )?,
                            law: self.law.clone(),
                            rule: MdRule {
                                criterion,
                                choice: choice.clone(),
                                ties: TieRule::Random,
                            },
                            batch: self.batch,
                        };
                        cfg.validate()?;
                        out.push((ri, ci, cfg));
                    }
                }
            }
        }
        Ok(out)
    }

    /// Runs every point; `progress(done, total)` is called after each point. Every point is
    /// validated before the first run.
    pub fn run(&self, mut progress: impl FnMut(usize, usize)) -> Result<Vec<Point>> {
        let configs = self.configs()?;
        let mut out = Vec::with_capacity(configs.len());
        for (ri, ci, cfg) in configs {
            let runs = cfg.runs(self.seed, self.runs)?;
            let mg: Vec<f64> = runs.iter().map(|r| r.max_gap).collect();
            let sg: Vec<f64> = runs.iter().map(|r| r.sum_gap).collect();
            let n = cfg.n;
            out.push(Point {
                regime: self.regimes[ri].name.clone(),
                choice: self.choices[ci].spec(),
                rule: cfg.rule.criterion.name().to_string(),
                n,
                balls: cfg.balls,
                ln_ln_n: (n as f64).ln().ln(),
                max_gap: mean_ci(&mg, self.level)?,
                sum_gap: mean_ci(&sg, self.level)?,
            });
            progress(out.len(), self.len());
        }
        Ok(out)
    }
}

/// The points as CSV (header line first).
pub fn to_csv(points: &[Point]) -> String {
    let mut s = String::from(
        "regime,choice,rule,n,balls,ln_ln_n,runs,max_gap_mean,max_gap_stderr,max_gap_ci_low,max_gap_ci_high,sum_gap_mean,sum_gap_stderr,sum_gap_ci_low,sum_gap_ci_high\n",
    );
    for p in points {
        s.push_str(&format!(
            "{},\"{}\",{},{},{},{:.6},{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6}\n",
            p.regime,
            p.choice,
            p.rule,
            p.n,
            p.balls,
            p.ln_ln_n,
            p.max_gap.samples,
            p.max_gap.mean,
            p.max_gap.stderr,
            p.max_gap.ci_low,
            p.max_gap.ci_high,
            p.sum_gap.mean,
            p.sum_gap.stderr,
            p.sum_gap.ci_low,
            p.sum_gap.ci_high,
        ));
    }
    s
}

/// The plot ([`crate::plot`]) of `max_a gap(a)` (mean and interval) against `log₂ n` for one
/// regime and choice, one series per rule, with `ln ln n` dashed for reference.
///
/// ```
/// use balloc::sim::multidim_experiment::{gap_plot, Point};
/// let s = balloc::sim::statistic::mean_ci(&[1.0, 1.5, 2.0], 0.95).unwrap();
/// let pts: Vec<Point> = [64usize, 128].iter().map(|&n| Point { regime: "m=n".into(),
///     choice: "two-choice".into(), rule: "sum".into(), n, balls: n as u64,
///     ln_ln_n: (n as f64).ln().ln(), max_gap: s.clone(), sum_gap: s.clone() }).collect();
/// let p = gap_plot(&pts, "m=n", "two-choice", "t", 3).unwrap();
/// let svg = p.svg().unwrap();
/// assert!(svg.contains(">log₂ n<") && svg.contains(">sum-load rule (D)<") && svg.contains(">ln ln n<"));
/// assert!(svg.contains(">6<") && svg.contains(">7<") && svg.contains("3 runs"));
/// ```
pub fn gap_plot(
    points: &[Point],
    regime: &str,
    choice: &str,
    title: &str,
    runs: u64,
) -> Result<crate::plot::Plot> {
    use crate::plot::{Axis, Plot, Point as P, Series};
    let pts: Vec<&Point> = points
        .iter()
        .filter(|p| p.regime == regime && p.choice == choice)
        .collect();
    if pts.is_empty() {
        return Err(Error::invalid(
            "plot",
            format!("no points for {regime}, {choice}"),
        ));
    }
    let x = |p: &Point| (p.n as f64).log2();
    let mut plot = Plot::new(
        title,
        Axis::linear("log₂ n").integer(),
        Axis::linear("max over dimensions of gap(a)").from_zero(),
    );
    let mut rules: Vec<&str> = pts.iter().map(|p| p.rule.as_str()).collect();
    rules.sort();
    rules.dedup();
    for rule in rules {
        let label = match rule {
            "sum" => "sum-load rule (D)",
            "max" => "max over populated dims ([6])",
            other => other,
        };
        plot.series.push(Series::new(
            label,
            pts.iter()
                .filter(|p| p.rule == rule)
                .map(|p| {
                    P::with_interval(x(p), p.max_gap.mean, p.max_gap.ci_low, p.max_gap.ci_high)
                })
                .collect(),
        ));
    }
    let mut ref_pts: Vec<(f64, f64)> = pts.iter().map(|p| (x(p), p.ln_ln_n)).collect();
    ref_pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    ref_pts.dedup();
    plot.series.push(Series::reference(
        "ln ln n",
        ref_pts.into_iter().map(|(a, b)| P::new(a, b)).collect(),
    ));
    plot.caption = format!(
        "Points: means over {runs} runs of max over dimensions of gap(a); bars: 95% Student-t confidence intervals of the mean; dashed: ln ln n for reference."
    );
    Ok(plot)
}

/// [`gap_plot`] rendered as SVG.
pub fn svg(points: &[Point], regime: &str, choice: &str, title: &str, runs: u64) -> Result<String> {
    gap_plot(points, regime, choice, title, runs)?.svg()
}
