//! Monte Carlo simulation of md-balls: [`MdModel`] plugs md-balls into the shared simulator
//! ([`crate::sim::Model`]: its seeding, checkpoints and summaries; used by the statistical claims),
//! and [`MdSimConfig::runs`] is the driver of the `balloc multidim` experiments (its own ChaCha8
//! streams, kept so that their outputs and snapshots stay as recorded).
//!
//! * Sequential: each ball samples its support, the rule samples bins at the current loads, the
//!   ball is added at once.
//! * Parallel multi-round [reconstructed: D §1 names "parallel multidimensional balls and bins
//!   with multiple rounds using the d choice process" without the protocol]: the balls arrive in
//!   rounds of `batch` balls; every ball of a round chooses on the loads at the start of the round,
//!   and the round's balls are added together at its end.
//!
//! Determinism: run `r` of a configuration uses `ChaCha8Rng::seed_from_u64(seed)` on stream `r`,
//! so results depend only on (configuration, seed, run index), never on the thread count (runs
//! are parallel with rayon and collected in order).

use super::ball::BallLaw;
use super::rule::MdRule;
use super::state::MdLoads;
use crate::error::{Error, Result};
use crate::limits;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use statrs::distribution::{ContinuousCDF, StudentsT};

/// A simulation configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct MdSimConfig {
    /// The number of bins `n`.
    pub n: usize,
    /// The number of balls `m`.
    pub balls: u64,
    /// The law of the balls.
    pub law: BallLaw,
    /// The allocation rule.
    pub rule: MdRule,
    /// `1` for the sequential process, `b > 1` for rounds of `b` balls decided in parallel.
    pub batch: u64,
}

/// The largest round (batch) of the parallel process: its choices are held in memory until the
/// round ends (16 bytes per ball).
pub const MAX_BATCH: u64 = 100_000_000;

/// The result of one run.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct MdRun {
    /// The run index.
    pub run: u64,
    /// `max_a gap(a)` at the end, `gap(a) = max_b l(a, b) − avg(a)`.
    pub max_gap: f64,
    /// `max_b s_b` at the end (the gap of the sum-load chain).
    pub sum_gap: f64,
}

impl MdSimConfig {
    /// Validates: `n ≥ 1`, `batch ≥ 1`, dimensions below 64, and the sizes within their limits
    /// ([`limits::MD_CELLS`] for `n·D`, [`limits::MD_BALLS`], [`limits::MD_BATCH`]), before
    /// anything is allocated.
    /// ```
    /// use balloc::multidim::{BallLaw, MdRule, sim::MdSimConfig};
    /// let cfg = MdSimConfig { n: 16, balls: 64, law: BallLaw::parse("uniform(dims=4,f=2)").unwrap(),
    ///     rule: MdRule::parse("sum", "two-choice").unwrap(), batch: 1 << 40 };
    /// assert!(cfg.validate().unwrap_err().to_string().contains("limits::MD_BATCH"));
    /// ```
    pub fn validate(&self) -> Result<()> {
        if self.n == 0 {
            return Err(Error::invalid("n", "must be at least 1"));
        }
        if self.batch == 0 {
            return Err(Error::invalid("batch", "must be at least 1"));
        }
        limits::MD_BALLS.check("balls", self.balls)?;
        limits::MD_BATCH.check("batch", self.batch)?;
        let cells =
            limits::checked_mul("bins × dimensions", self.n as u64, self.law.dims().into())?;
        limits::MD_CELLS.check("bins × dimensions", cells)?;
        MdLoads::new(self.n, self.law.dims() as usize).map(|_| ())
    }

    /// One run (`run` selects the ChaCha stream).
    ///
    /// ```
    /// use balloc::multidim::{BallLaw, MdRule, sim::MdSimConfig};
    /// let cfg = MdSimConfig { n: 16, balls: 64, law: BallLaw::parse("uniform(dims=4,f=2)").unwrap(),
    ///     rule: MdRule::parse("sum", "two-choice").unwrap(), batch: 1 };
    /// let a = cfg.run(7, 3).unwrap();
    /// assert_eq!(a, cfg.run(7, 3).unwrap()); // deterministic
    /// // Each dimension holds 64·2/4 = 32 units on average over 16 bins: avg 2; gaps are ≥ 0.
    /// assert!(a.max_gap >= 0.0);
    /// ```
    pub fn run(&self, seed: u64, run: u64) -> Result<MdRun> {
        self.validate()?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(run);
        let mut x = MdLoads::new(self.n, self.law.dims() as usize)?;
        if self.batch == 1 {
            for _ in 0..self.balls {
                let s = self.law.sample(&mut rng);
                let j = self.rule.choose(&x, s, &mut rng);
                x.add(j, s);
            }
        } else {
            let mut left = self.balls;
            // A round holds min(batch, balls) entries; validate() bounded both.
            let mut round = Vec::with_capacity(self.batch.min(self.balls) as usize);
            while left > 0 {
                let b = left.min(self.batch);
                round.clear();
                for _ in 0..b {
                    let s = self.law.sample(&mut rng);
                    round.push((self.rule.choose(&x, s, &mut rng), s));
                }
                for &(j, s) in &round {
                    x.add(j, s);
                }
                left -= b;
            }
        }
        Ok(MdRun {
            run,
            max_gap: x.max_gap_f64(),
            sum_gap: x.sum_gap_f64(),
        })
    }

    /// Runs `0..runs` in parallel, in run order.
    pub fn runs(&self, seed: u64, runs: u64) -> Result<Vec<MdRun>> {
        self.validate()?;
        (0..runs)
            .into_par_iter()
            .map(|r| self.run(seed, r))
            .collect()
    }
}

/// Mean with a two-sided Student-t confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Summary {
    /// The number of samples.
    pub count: usize,
    /// The sample mean.
    pub mean: f64,
    /// The standard error `sd/√count`.
    pub stderr: f64,
    /// Lower end of the interval.
    pub ci_low: f64,
    /// Upper end of the interval.
    pub ci_high: f64,
}

/// The mean of `xs` with the t-interval at `level` (e.g. 0.95), `t_{count−1, (1+level)/2}·stderr`.
///
/// ```
/// use balloc::multidim::sim::summarize;
/// // Samples 1, 2, 3: mean 2, sd 1, stderr 1/√3, t_{2, 0.975} = 4.302653 → ±2.484138.
/// let s = summarize(&[1.0, 2.0, 3.0], 0.95).unwrap();
/// assert!((s.ci_high - 2.0 - 4.302652729911275 / 3f64.sqrt()).abs() < 1e-9);
/// ```
pub fn summarize(xs: &[f64], level: f64) -> Result<Summary> {
    if xs.len() < 2 {
        return Err(Error::invalid(
            "runs",
            "need at least 2 runs for an interval",
        ));
    }
    if !(level > 0.0 && level < 1.0) {
        return Err(Error::invalid(
            "level",
            format!("must lie in (0, 1), got {level}"),
        ));
    }
    let k = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / k;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1.0);
    let stderr = (var / k).sqrt();
    let t = StudentsT::new(0.0, 1.0, k - 1.0)
        .map_err(|e| Error::invalid("runs", e.to_string()))?
        .inverse_cdf((1.0 + level) / 2.0);
    Ok(Summary {
        count: xs.len(),
        mean,
        stderr,
        ci_low: mean - t * stderr,
        ci_high: mean + t * stderr,
    })
}

/// md-balls as a simulation model ([`crate::sim::Model`]): the simulator's seeding (run `i` from
/// (key, seed, i)), checkpoints and summaries apply to md-balls as to the built-in processes.
///
/// The loads the simulator sees are the bin sums `s_b = Σ_a ℓ(a, b)` (total weight `W = Σ s_b`);
/// the model's own observables are `md_max_gap` (`max_a (max_b ℓ(a, b) − avg(a))`) and
/// `md_sum_gap` (`max_b s_b − W/n`). md-balls are observed at the stopping points of a run only
/// (checkpoints and the end), not after every ball: a gap costs O(n·D).
///
/// ```
/// use balloc::multidim::{BallLaw, MdRule, sim::{MdModel, MdSimConfig}};
/// use balloc::sim::{simulate, Model, Plan};
/// let cfg = MdSimConfig { n: 16, balls: 64, law: BallLaw::parse("uniform(dims=4,f=2)").unwrap(),
///     rule: MdRule::parse("sum", "two-choice").unwrap(), batch: 1 };
/// let m = MdModel::new(cfg).unwrap();
/// assert_eq!(m.observables(), vec!["md_max_gap", "md_sum_gap"]);
/// let out = simulate(&m, &Plan::new(64, 4, 1), &|| {}).unwrap();
/// // 64 balls of 2 units: the bin sums hold 128 units, 8 per bin on average.
/// assert!(out.runs.iter().all(|r| r.balls == 64 && r.final_gap == r.observables[1]));
/// ```
#[derive(Debug, Clone)]
pub struct MdModel {
    cfg: MdSimConfig,
}

impl MdModel {
    /// Validates the configuration (its `balls` is ignored: the plan gives the number of balls).
    pub fn new(cfg: MdSimConfig) -> Result<MdModel> {
        cfg.validate()?;
        Ok(MdModel { cfg })
    }
}

/// One run of md-balls ([`MdModel`]).
struct MdSystem {
    cfg: MdSimConfig,
    x: MdLoads,
    balls: u64,
    round: Vec<(usize, super::ball::Support)>,
}

impl MdSystem {
    fn sums(&self) -> impl Iterator<Item = i64> + '_ {
        (0..self.x.n()).map(|b| self.x.bin_sum(b))
    }
}

impl crate::sim::System for MdSystem {
    fn n(&self) -> usize {
        self.x.n()
    }
    fn balls(&self) -> u64 {
        self.balls
    }
    fn steps(&self) -> u64 {
        self.balls
    }
    fn total(&self) -> f64 {
        (0..self.x.dims()).map(|a| self.x.total(a)).sum::<i64>() as f64
    }
    fn max_load(&self) -> f64 {
        self.sums().max().unwrap_or(0) as f64
    }
    fn min_load(&self) -> f64 {
        self.sums().min().unwrap_or(0) as f64
    }
    fn run_until(&mut self, balls: u64, rng: &mut crate::sim::rng::SimRng) -> Result<f64> {
        if self.cfg.batch == 1 {
            while self.balls < balls {
                let s = self.cfg.law.sample(rng);
                let j = self.cfg.rule.choose(&self.x, s, rng);
                self.x.add(j, s);
                self.balls += 1;
            }
        } else {
            while self.balls < balls {
                let b = (balls - self.balls).min(self.cfg.batch);
                self.round.clear();
                for _ in 0..b {
                    let s = self.cfg.law.sample(rng);
                    self.round.push((self.cfg.rule.choose(&self.x, s, rng), s));
                }
                for &(j, s) in &self.round {
                    self.x.add(j, s);
                }
                self.balls += b;
            }
        }
        Ok(self.x.sum_gap_f64())
    }
    fn levels(&self) -> Vec<(f64, u64)> {
        let mut c: std::collections::BTreeMap<i64, u64> = std::collections::BTreeMap::new();
        for v in self.sums() {
            *c.entry(v).or_insert(0) += 1;
        }
        c.into_iter().map(|(v, k)| (v as f64, k)).collect()
    }
    fn observables(&self) -> Vec<f64> {
        vec![self.x.max_gap_f64(), self.x.sum_gap_f64()]
    }
}

impl crate::sim::Model for MdModel {
    fn key(&self) -> String {
        format!(
            "md;rule={};law={};n={};batch={}",
            self.cfg.rule.label(),
            self.cfg.law.spec(),
            self.cfg.n,
            self.cfg.batch
        )
    }
    fn describe(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        m.insert("md_rule".into(), serde_json::json!(self.cfg.rule.label()));
        m.insert("md_law".into(), serde_json::json!(self.cfg.law.spec()));
        m.insert("n".into(), serde_json::json!(self.cfg.n));
        m.insert("batch".into(), serde_json::json!(self.cfg.batch));
        m
    }
    fn n(&self) -> usize {
        self.cfg.n
    }
    fn batch(&self) -> u64 {
        self.cfg.batch
    }
    fn build(&self) -> Result<Box<dyn crate::sim::System>> {
        Ok(Box::new(MdSystem {
            cfg: self.cfg.clone(),
            x: MdLoads::new(self.cfg.n, self.cfg.law.dims() as usize)?,
            balls: 0,
            round: Vec::with_capacity(self.cfg.batch.min(1 << 16) as usize),
        }))
    }
    fn observables(&self) -> Vec<String> {
        vec!["md_max_gap".into(), "md_sum_gap".into()]
    }
}
