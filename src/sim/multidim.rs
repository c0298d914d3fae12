//! Monte Carlo simulation of md-balls: [`MdModel`] plugs md-balls into the shared simulator
//! ([`crate::sim::Model`]: its seeding, checkpoints and summaries), used by the statistical claims
//! and, through [`MdSimConfig::runs`], by the `balloc multidim` commands.
//!
//! * Sequential: each ball samples its support, the rule samples bins at the current loads, the
//!   ball is added at once.
//! * Parallel multi-round [reconstructed: D §1 names "parallel multidimensional balls and bins
//!   with multiple rounds using the d choice process" without the protocol]: the balls arrive in
//!   rounds of `batch` balls; every ball of a round chooses on the loads at the start of the round,
//!   and the round's balls are added together at its end.
//!
//! Determinism: run `r` of a configuration is seeded from (model key, seed, `r`) by
//! [`crate::rng::run_seed`], so results depend only on (configuration, seed, run index),
//! never on the thread count (runs are parallel with rayon and collected in order). The key
//! names the rule, the ball law, `n` and the round size, not `m`: the first `m` balls of a run
//! are the same for every larger `m`.

use crate::error::{Error, Result};
use crate::limits;
use crate::multidim::ball::BallLaw;
use crate::multidim::potential::GroupPotential;
use crate::multidim::rule::MdRule;
use crate::multidim::state::MdLoads;

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
/// round ends (16 bytes per ball); the limit that [`MdSimConfig::validate`] checks,
/// [`limits::MD_BATCH`].
pub const MAX_BATCH: u64 = limits::MD_BATCH.max;

/// The result of one run.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct MdRun {
    /// The run index.
    pub run: u64,
    /// The run seed ([`crate::rng::run_rng`] of it replays the run).
    pub seed: u64,
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
    /// use balloc::multidim::{BallLaw, MdRule};
    /// use balloc::sim::multidim::MdSimConfig;
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

    /// One run: run `run` of [`MdModel`] under [`crate::sim::run_one`], seeded from (model key,
    /// `seed`, `run`) like every simulated run.
    ///
    /// ```
    /// use balloc::multidim::{BallLaw, MdRule};
    /// use balloc::sim::multidim::MdSimConfig;
    /// let cfg = MdSimConfig { n: 16, balls: 64, law: BallLaw::parse("uniform(dims=4,f=2)").unwrap(),
    ///     rule: MdRule::parse("sum", "two-choice").unwrap(), batch: 1 };
    /// let a = cfg.run(7, 3).unwrap();
    /// assert_eq!(a, cfg.run(7, 3).unwrap()); // deterministic
    /// assert_eq!(a, cfg.runs(7, 4).unwrap()[3]); // the same run as in a set of runs
    /// // gap(a) = max_b l(a, b) − T_a/16 with integer loads and an integer total T_a of
    /// // dimension a: the largest gap is non-negative and a multiple of 1/16.
    /// assert!(a.max_gap >= 0.0 && (a.max_gap * 16.0).fract() == 0.0);
    /// ```
    pub fn run(&self, seed: u64, run: u64) -> Result<MdRun> {
        let model = MdModel::new(self.clone())?;
        if self.balls == 0 {
            return Ok(self.empty_run(&model, seed, run));
        }
        let r = crate::sim::run_one(&model, &crate::sim::Plan::new(self.balls, 1, seed), run)?;
        Ok(MdRun::of(&r))
    }

    /// Runs `0..runs` through [`crate::sim::simulate`] (in parallel, in run order).
    pub fn runs(&self, seed: u64, runs: u64) -> Result<Vec<MdRun>> {
        let model = MdModel::new(self.clone())?;
        if self.balls == 0 {
            return Ok((0..runs).map(|r| self.empty_run(&model, seed, r)).collect());
        }
        let out = crate::sim::simulate(
            &model,
            &crate::sim::Plan::new(self.balls, runs, seed),
            &|| {},
        )?;
        Ok(out.runs.iter().map(MdRun::of).collect())
    }

    /// A run of no balls: the empty state's gaps (0).
    fn empty_run(&self, model: &MdModel, seed: u64, run: u64) -> MdRun {
        use crate::sim::Model;
        MdRun {
            run,
            seed: crate::rng::run_seed(&model.key(), seed, run),
            max_gap: 0.0,
            sum_gap: 0.0,
        }
    }
}

impl MdRun {
    /// The md gaps of a simulated run (the observables of [`MdModel`]).
    fn of(r: &crate::sim::RunResult) -> MdRun {
        MdRun {
            run: r.run,
            seed: r.seed,
            max_gap: r.observables.first().copied().unwrap_or(f64::NAN),
            sum_gap: r.observables.get(1).copied().unwrap_or(f64::NAN),
        }
    }
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
/// use balloc::multidim::{BallLaw, MdRule};
/// use balloc::sim::multidim::{MdModel, MdSimConfig};
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
    /// A rank-weighted potential observed as a third observable (`md_gamma`).
    gamma: Option<GroupPotential>,
}

impl MdModel {
    /// Validates the configuration (its `balls` is ignored: the plan gives the number of balls).
    pub fn new(cfg: MdSimConfig) -> Result<MdModel> {
        cfg.validate()?;
        Ok(MdModel { cfg, gamma: None })
    }

    /// The same model observing also D's rank-weighted potential `g` of the normalised
    /// sum-loads `s_b = Σ_a (ℓ(a, b) − avg(a))` (observable `md_gamma`; for
    /// [`Which::Gamma`](crate::multidim::Which) `Γ = Σ_i (e^{α s_(i)} + e^{−α s_(i)})/i`, bins
    /// heaviest first: Narang–Dutta–Bhattacherjee, arXiv:1111.0762, §3). The runs are those of
    /// the model without it (the key, hence every run's seed, is the same); a value above
    /// `f64::MAX` is observed as +∞.
    ///
    /// ```
    /// use balloc::multidim::{BallLaw, GroupPotential, MdRule, PsiReading, Which};
    /// use balloc::sim::multidim::{MdModel, MdSimConfig};
    /// use balloc::sim::{simulate, Model, Plan};
    /// let cfg = MdSimConfig { n: 4, balls: 1, law: BallLaw::parse("uniform(dims=2,f=1)").unwrap(),
    ///     rule: MdRule::parse("sum", "two-choice").unwrap(), batch: 1 };
    /// let g = GroupPotential::new(Which::Gamma, 0.5, PsiReading::Printed).unwrap();
    /// let m = MdModel::new(cfg).unwrap().observing(g);
    /// assert_eq!(m.observables(), vec!["md_max_gap", "md_sum_gap", "md_gamma"]);
    /// // One ball of one unit: s = (3/4, −1/4, −1/4, −1/4) in some order, so, heaviest first,
    /// // Γ = e^{3/8} + e^{−3/8} + (e^{−1/8} + e^{1/8})(1/2 + 1/3 + 1/4).
    /// let out = simulate(&m, &Plan::new(1, 1, 1), &|| {}).unwrap();
    /// let c = |x: f64| x.exp() + (-x).exp();
    /// let hand = c(0.375) + c(0.125) * (1.0 / 2.0 + 1.0 / 3.0 + 1.0 / 4.0);
    /// assert!((out.runs[0].observables[2] - hand).abs() < 1e-12);
    /// ```
    pub fn observing(self, g: GroupPotential) -> MdModel {
        MdModel {
            gamma: Some(g),
            ..self
        }
    }
}

/// One run of md-balls ([`MdModel`]).
struct MdSystem {
    cfg: MdSimConfig,
    gamma: Option<GroupPotential>,
    x: MdLoads,
    balls: u64,
    round: Vec<(usize, crate::multidim::ball::Support)>,
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
    fn run_until(&mut self, balls: u64, rng: &mut crate::rng::SimRng) -> Result<f64> {
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
        let mut v = vec![self.x.max_gap_f64(), self.x.sum_gap_f64()];
        if let Some(g) = &self.gamma {
            let mean = self.total() / self.x.n() as f64;
            let s: Vec<f64> = self.sums().map(|b| b as f64 - mean).collect();
            v.push(g.value(&s).to_f64_checked().unwrap_or(f64::INFINITY));
        }
        v
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
            gamma: self.gamma,
            x: MdLoads::new(self.cfg.n, self.cfg.law.dims() as usize)?,
            balls: 0,
            round: Vec::with_capacity(self.cfg.batch.min(1 << 16) as usize),
        }))
    }
    fn observables(&self) -> Vec<String> {
        let mut v = vec!["md_max_gap".into(), "md_sum_gap".into()];
        if self.gamma.is_some() {
            v.push("md_gamma".into());
        }
        v
    }
}
