//! Monte Carlo simulation of allocation processes: engines, observers, statistics (grids of
//! configurations run from a file, sharded and resumable: [`crate::app::sweep`]).
//!
//! * A [`Model`] says what is simulated (the built-in [`Config`]: a registered process, `n`, the
//!   batch size, the weight law and the tie rule) and builds a fresh [`System`] per run. The
//!   graphical and multidimensional settings plug in by implementing these two traits.
//! * [`simulate`] runs `R` independent runs in parallel (rayon). Run `i` uses the generator
//!   [`rng::run_rng`]`(`[`rng::run_seed`]`(model key, seed, i))`, so its result depends only on
//!   (configuration, seed, run index), never on the thread count.
//! * Engines ([`Config::engine`] picks one per configuration, so the choice never depends on the
//!   thread count): [`compact::Compact`] (unit weights, one byte per bin while the loads span
//!   fewer than 256 levels; sequential, and batches drawn ball by ball on the frozen loads),
//!   [`levels::Levels`] (sequential, unit weights, O(levels) memory: the processes that sample a
//!   rank, and very large `n`) and [`dense::Dense`] (weights, large batches as one multinomial,
//!   processes without a kernel). Each process states its sampling rule through
//!   [`crate::process::Process::rule`] (compiled by `kernel::Kernel::for_process`).
//! * Observers per run: final gap `max xᵢ − W/n`, max gap over the observation points (every step
//!   when unbatched, every batch end when batched), spread `max − min`, the mean quantile (fraction
//!   of bins with `y ≥ 0`), final values of chosen potentials, an optional trajectory at
//!   checkpoints and an optional final histogram of loads.
//!
//! Reference: the experimental protocol of Los–Sauerwald, *Balanced Allocations in Batches*
//! (SPAA 2022), §8 (read in the authors' code; `docs/derivations.md` §10): gap = max load − W/n, maximum over batch ends.

pub mod adversary;
pub mod compact;
pub mod dense;
pub mod graph;
pub mod kernel;
pub mod levels;
pub mod multidim;
pub mod multidim_experiment;
pub mod multinomial;
pub use crate::rng;
pub mod start;
pub mod statistic;
pub mod stopping;

use crate::error::{Error, Result};
use crate::loads::{Loads, TieRule};
use crate::potential::Potential;
use crate::process::Process;
use crate::weights::WeightLaw;
use rayon::prelude::*;
use rng::SimRng;
use serde::Serialize;
use serde_json::{Map, Value, json};
use statistic::Estimate;
use std::sync::Arc;

/// The state of one run: something that allocates balls and exposes its loads.
///
/// Implement it (with a [`Model`]) to simulate a new setting; every observer works through these
/// methods.
pub trait System: Send {
    /// The number of bins.
    fn n(&self) -> usize;
    /// Balls allocated so far.
    fn balls(&self) -> u64;
    /// Steps (samples) taken so far; equals `balls` for one-ball-per-step processes.
    fn steps(&self) -> u64;
    /// The total weight `W`.
    fn total(&self) -> f64;
    /// `max xᵢ`.
    fn max_load(&self) -> f64;
    /// `min xᵢ`.
    fn min_load(&self) -> f64;
    /// Runs until at least `balls` balls are allocated, stopping only at observation points
    /// (step or batch ends); returns the largest gap `max x − W/n` at the observation points
    /// passed (−∞ if none).
    fn run_until(&mut self, balls: u64, rng: &mut SimRng) -> Result<f64>;
    /// The loads as (load, number of bins) pairs, in any order.
    fn levels(&self) -> Vec<(f64, u64)>;
    /// The values of the model's own observables at the current state, in the order of
    /// [`Model::observables`] (e.g. the largest sibling gap of Bansal–Feldheim's strategy);
    /// none by default.
    fn observables(&self) -> Vec<f64> {
        Vec::new()
    }
}

/// What is simulated: a plug-in point for settings (the built-in [`Config`]; graphical and
/// multidimensional settings add their own).
pub trait Model: Send + Sync {
    /// The canonical key: it identifies the configuration and seeds its runs.
    fn key(&self) -> String;
    /// The configuration as JSON fields (the `config` object of the output).
    fn describe(&self) -> Map<String, Value>;
    /// The number of bins.
    fn n(&self) -> usize;
    /// Balls per observation interval (the batch size; 1 = every step is observed).
    fn batch(&self) -> u64;
    /// A fresh system with every bin empty.
    fn build(&self) -> Result<Box<dyn System>>;
    /// The names of the model's own observables ([`System::observables`]); none by default.
    fn observables(&self) -> Vec<String> {
        Vec::new()
    }
    /// Whether a run stopped at batch ends on its way draws the same batches as a run through
    /// (`Plan::stops`): true when a batch is one step; a model whose steps allocate one ball
    /// each says so too (a batch is then never cut short at a batch end). A process whose step
    /// may allocate more balls than one (Twinning) has its last batch before a stop cut short
    /// at the stop, so its stopped runs are not prefixes of longer ones.
    ///
    /// ```
    /// use balloc::sim::{Config, Model};
    /// let c = |p: &str, b: u64| Config::parse(p, 16, b, "unit", "random").unwrap();
    /// assert!(c("two-choice", 64).prefix_stops());    // one ball per step
    /// assert!(c("twinning", 1).prefix_stops());       // a batch of one step
    /// assert!(!c("twinning", 64).prefix_stops());     // two balls in some steps of a batch
    /// ```
    fn prefix_stops(&self) -> bool {
        self.batch() <= 1
    }
    /// A fresh system started from the load vector `start` (`n` entries); its ball count starts
    /// at 0 (the start's balls are not counted). Models that cannot start away from the empty
    /// state keep this default, an error.
    fn build_from(&self, start: &Loads) -> Result<Box<dyn System>> {
        let _ = start;
        Err(Error::Unsupported(format!(
            "the model `{}` starts from the empty state only",
            self.key()
        )))
    }
}

/// The built-in model: a registered process in the sequential / batched / weighted setting.
#[derive(Debug, Clone)]
pub struct Config {
    /// The process.
    pub process: Arc<dyn Process>,
    /// The number of bins `n ≥ 1`.
    pub n: usize,
    /// The batch size `b ≥ 1` (1 = sequential).
    pub batch: u64,
    /// The weight law.
    pub weights: WeightLaw,
    /// The tie rule.
    pub ties: TieRule,
}

impl Config {
    /// Parses and validates a configuration from spec strings.
    ///
    /// ```
    /// let c = balloc::sim::Config::parse("two-choice", 100, 1, "exp(1)", "random").unwrap();
    /// assert_eq!(c.weights.mean(), 1.0);
    /// assert!(balloc::sim::Config::parse("two-choice", 0, 1, "unit", "random").is_err());
    /// assert!(balloc::sim::Config::parse("two-choice", 4, 0, "unit", "random").is_err());
    /// ```
    pub fn parse(process: &str, n: usize, batch: u64, weights: &str, ties: &str) -> Result<Config> {
        Config::parse_with(
            process,
            &crate::graph::family::NoFiles,
            n,
            batch,
            weights,
            ties,
        )
    }

    /// [`Config::parse`] with the edge-list files of the process spec
    /// (`graphical(graph=file,file=PATH)`) read by `files`, the caller's.
    ///
    /// ```
    /// use balloc::sim::{Config, Model};
    /// let dir = std::env::temp_dir().join("balloc-doc-config-parse-with");
    /// std::fs::create_dir_all(&dir).unwrap();
    /// std::fs::write(dir.join("c5.edges"), "0 1\n1 2\n2 3\n3 4\n4 0\n").unwrap();
    /// let files = balloc::input::Dir::new(Some(&dir));
    /// let c = Config::parse_with("graphical(graph=file,file=c5.edges)", &files, 5, 1, "unit", "random").unwrap();
    /// assert_eq!(c.n(), 5);
    /// // The key names the file as written: seeds do not depend on where it lies.
    /// assert!(c.key().contains("file=c5.edges,"), "{}", c.key());
    /// ```
    pub fn parse_with(
        process: &str,
        files: &dyn crate::graph::family::GraphFiles,
        n: usize,
        batch: u64,
        weights: &str,
        ties: &str,
    ) -> Result<Config> {
        let process: Arc<dyn Process> = Arc::from(crate::process::parse_with(process, files)?);
        let weights = WeightLaw::parse(weights)?;
        let ties = TieRule::parse(ties)?;
        Config::new(process, n, batch, weights, ties)
    }

    /// Validates a configuration: `n ≥ 1`, `b ≥ 1`, and the process's allocation vector exists
    /// at `n` (e.g. Quantile needs `δn ∈ ℤ`).
    pub fn new(
        process: Arc<dyn Process>,
        n: usize,
        batch: u64,
        weights: WeightLaw,
        ties: TieRule,
    ) -> Result<Config> {
        if n == 0 {
            return Err(Error::invalid("n", "must be at least 1, got 0"));
        }
        if batch == 0 {
            return Err(Error::invalid("batch", "must be at least 1, got 0"));
        }
        // Validates the process at n (e.g. Quantile needs δn ∈ ℤ).
        let k = kernel::Kernel::for_process(process.as_ref(), n)?;
        if k.needs_integer_loads() && !weights.is_unit() {
            return Err(Error::invalid(
                "weights",
                format!(
                    "{} is defined for integer loads only; use unit weights",
                    process.info().name
                ),
            ));
        }
        let cfg = Config {
            process,
            n,
            batch,
            weights,
            ties,
        };
        if n > MAX_STORED_BINS && cfg.engine() != Engine::Levels {
            return Err(Error::invalid(
                "n",
                format!(
                    "{n} bins exceed the limit of {MAX_STORED_BINS} (2^28) for runs that store \
                     every bin (weights, batches or a process without a kernel); sequential \
                     unit-weight runs of sampled processes have no such limit"
                ),
            ));
        }
        Ok(cfg)
    }

    /// Whether the level-count engine runs this configuration.
    pub fn uses_levels(&self) -> bool {
        self.engine() == Engine::Levels
    }

    /// The engine that runs this configuration (a function of the configuration only):
    ///
    /// * unit weights, sequential: [`Engine::Levels`] for processes that sample a rank
    ///   (Quantile, alias tables) and above [`COMPACT_LIMIT`] bins, else [`Engine::Compact`];
    /// * unit weights, batches below [`dense::MULTINOMIAL_FACTOR`]`·n` balls (rank-based
    ///   processes; [`dense::LAW_MULTINOMIAL_FACTOR`]`·n` for the others): [`Engine::Compact`]
    ///   (ball by ball on the frozen loads);
    /// * everything else (weights, large batches, processes without a kernel): [`Engine::Dense`].
    ///
    /// ```
    /// use balloc::sim::{Config, Engine};
    /// let e = |p: &str, n, b, w: &str| Config::parse(p, n, b, w, "random").unwrap().engine();
    /// assert_eq!(e("two-choice", 1000, 1, "unit"), Engine::Compact);
    /// assert_eq!(e("quantile(delta=0.5)", 1000, 1, "unit"), Engine::Levels);
    /// assert_eq!(e("two-choice", 1000, 1000, "unit"), Engine::Compact);
    /// assert_eq!(e("two-choice", 1000, 50_000, "unit"), Engine::Dense);
    /// assert_eq!(e("two-choice", 1000, 1, "exp(1)"), Engine::Dense);
    /// ```
    pub fn engine(&self) -> Engine {
        let Ok(k) = kernel::Kernel::for_process(self.process.as_ref(), self.n) else {
            return Engine::Dense;
        };
        if !self.weights.is_unit() || matches!(k, kernel::Kernel::Generic) {
            return Engine::Dense;
        }
        if self.batch <= 1 {
            if !k.has_step()
                || matches!(k, kernel::Kernel::Quantile { .. })
                || self.n > COMPACT_LIMIT
            {
                return Engine::Levels;
            }
            return Engine::Compact;
        }
        if k.has_step()
            && !dense::multinomial_batch(self.batch, self.n, &k)
            && self.batch <= u32::MAX as u64
        {
            return Engine::Compact;
        }
        Engine::Dense
    }
}

/// The most runs one simulation keeps (each run's result is held until the summary: about
/// 200 bytes, more with a trajectory or a histogram).
pub const MAX_RUNS: u64 = 1_000_000;

/// The most trajectory points one simulation keeps (runs × checkpoints per run, after the
/// checkpoints are capped at the number of observation points of a run).
pub const MAX_TRAJECTORY_POINTS: u64 = 10_000_000;

/// The most bins of a configuration that stores every bin (weights, batches, processes without a
/// kernel: 5 to 16 bytes per bin). Sequential runs with unit weights have no such limit above
/// [`COMPACT_LIMIT`]: the level-count engine keeps O(levels) memory.
pub const MAX_STORED_BINS: usize = 1 << 28;

/// The version of the simulator's random streams: raised whenever a sampling path changes the
/// numbers a configuration gives for a seed (the law stays the same). Sweep fingerprints include
/// it, so shards and partial files of another stream version are refused.
///
/// Version 2: kernels chosen by [`crate::process::Process::rule`] (compiled by `kernel::Kernel::for_process`), the compact
/// engine, batches below the multinomial crossover drawn ball by ball on the frozen loads.
/// Version 3: greedy on a graph (`graphical(…)` without the flow strategy) runs as a kernel
/// ([`kernel::GraphStep`]: a uniform edge, the lighter endpoint) instead of its step law per ball.
pub const STREAM_VERSION: u32 = 3;

/// The largest `n` the compact engine runs sequentially (one byte per bin while the loads span
/// fewer than 256 levels); above it the level-count engine without its rank table (memory
/// O(levels), no random memory access per ball) is faster: at n = 10⁸ it took 1.9 s against
/// 4.3 s for 10⁸ Two-Choice balls, at n = 10⁷ the two were even (`BENCHMARKS.md`).
pub const COMPACT_LIMIT: usize = levels::TABLE_LIMIT;

/// The engines of the built-in model ([`Config::engine`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// [`levels::Levels`].
    Levels,
    /// [`compact::Compact`].
    Compact,
    /// [`dense::Dense`].
    Dense,
}

impl Engine {
    /// The name in the `engine` field of the output.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Levels => "levels",
            Engine::Compact => "compact",
            Engine::Dense => "dense",
        }
    }
}

impl Model for Config {
    fn key(&self) -> String {
        format!(
            "process={};n={};batch={};weights={};ties={}",
            self.process.spec(),
            self.n,
            self.batch,
            self.weights.spec(),
            self.ties.name()
        )
    }
    fn describe(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("process".into(), json!(self.process.spec()));
        m.insert("n".into(), json!(self.n));
        m.insert("batch".into(), json!(self.batch));
        m.insert("weights".into(), json!(self.weights.spec()));
        m.insert("ties".into(), json!(self.ties.name()));
        m.insert("engine".into(), json!(self.engine().name()));
        m
    }
    fn n(&self) -> usize {
        self.n
    }
    fn batch(&self) -> u64 {
        self.batch
    }
    /// A rank-based process allocates one ball per step.
    fn prefix_stops(&self) -> bool {
        self.batch <= 1 || self.process.info().rank_based
    }
    fn build(&self) -> Result<Box<dyn System>> {
        match self.engine() {
            Engine::Levels => {
                let k = kernel::Kernel::for_process(self.process.as_ref(), self.n)?;
                return Ok(Box::new(levels::Levels::new(self.n, k)?));
            }
            Engine::Compact => {
                let k = kernel::Kernel::for_process(self.process.as_ref(), self.n)?;
                return Ok(Box::new(compact::Compact::new(
                    self.n, k, self.batch, self.ties,
                )?));
            }
            Engine::Dense => {}
        }
        Ok(Box::new(dense::Dense::new(
            self.n,
            self.process.clone(),
            self.batch,
            self.weights.clone(),
            self.ties,
        )?))
    }
    fn build_from(&self, start: &Loads) -> Result<Box<dyn System>> {
        if start.n() != self.n {
            return Err(Error::invalid(
                "start",
                format!(
                    "the load vector has {} entries for n = {} bins",
                    start.n(),
                    self.n
                ),
            ));
        }
        if self.engine() == Engine::Compact {
            let k = kernel::Kernel::for_process(self.process.as_ref(), self.n)?;
            let c = compact::Compact::new(self.n, k, self.batch, self.ties)?;
            if let Ok(c) = c.with_loads(start) {
                return Ok(Box::new(c));
            }
        }
        // The level-count engine starts empty only; the dense engine runs every process.
        Ok(Box::new(
            dense::Dense::new(
                self.n,
                self.process.clone(),
                self.batch,
                self.weights.clone(),
                self.ties,
            )?
            .with_loads(start),
        ))
    }
}

/// How a model is simulated: balls per run, runs, base seed and what is observed.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Balls per run `m`. A batched run whose `m` is not a batch end ends with a partial batch of
    /// the remaining steps; a process whose step may allocate two balls (Twinning) may end past
    /// `m` (by at most one ball when sequential).
    pub balls: u64,
    /// Number of runs `R`.
    pub runs: u64,
    /// Base seed.
    pub seed: u64,
    /// Potentials whose final values (and trajectory values) are recorded.
    pub potentials: Vec<Arc<dyn Potential>>,
    /// Number of checkpoints of the recorded trajectory (0 = none). Checkpoints are rounded up
    /// to batch ends; in the batched setting a value ≥ the number of batches records every batch.
    pub trajectory: usize,
    /// Whether the final histogram of loads is recorded.
    pub histogram: bool,
    /// Confidence level of the summary intervals.
    pub confidence: f64,
    /// The state every run starts from (`None`: every bin empty).
    pub start: Option<Arc<Loads>>,
    /// Balls allocated before observation begins (rounded up to a batch end): the max gap, the
    /// trajectory and its checkpoints cover only the window after it, up to `balls` in all.
    pub burn_in: u64,
    /// The key that seeds the runs instead of the model's key: two models run with the same
    /// stream draw their runs from the same generators (common random numbers, for paired
    /// comparisons).
    pub stream: Option<String>,
    /// Whether each run records the time average of the gap over the observation points of its
    /// window ([`RunResult::mean_gap`]): the points `b₀ + k·b` (`b₀` the end of the burn-in, `b`
    /// the model's batch, `k ≥ 1`) up to `balls`. The run then stops at every one of them.
    ///
    /// ```
    /// use balloc::graph::Graph;
    /// use balloc::sim::graph::GreedyModel;
    /// use balloc::{loads::Loads, sim::{simulate, Plan}};
    /// use std::sync::Arc;
    /// // Greedy on the path 0 – 1 from loads (4, 0): the ball goes to the lighter end, so after
    /// // t = 1…6 balls the loads are (4,1), (4,2), (4,3), (4,4), (5,4) or (4,5), (5,5) and the gap
    /// // max − W/2 is 1.5, 1, 0.5, 0, 0.5, 0. Observation points every n = 2 balls: 1, 0, 0.
    /// let m = GreedyModel::new(&Graph::path(2).unwrap()).unwrap();
    /// let mut plan = Plan::new(6, 3, 1);
    /// plan.start = Some(Arc::new(Loads::new(vec![4.0, 0.0]).unwrap()));
    /// plan.gap_average = true;
    /// let out = simulate(&m, &plan, &|| {}).unwrap();
    /// assert!(out.runs.iter().all(|r| r.mean_gap == Some(1.0 / 3.0) && r.final_gap == 0.0));
    /// ```
    pub gap_average: bool,
    /// Ball counts at which the trajectory is recorded instead of [`Plan::trajectory`]'s evenly
    /// spaced checkpoints (empty: none): increasing batch ends past the burn-in, the last one
    /// `balls`. A run's state after `s` balls does not depend on the later stops, so the point
    /// recorded at `s` (its gap, largest gap so far, spread and potentials) is what a run of `s`
    /// balls from the same seed ends with, for models whose batches are drawn whole
    /// ([`Model::prefix_stops`]): one run serves every number of balls of a list. (A run of `s`
    /// balls that is not a batch end ends with a partial batch, which a longer run draws whole:
    /// hence batch ends only.)
    ///
    /// ```
    /// use balloc::sim::{simulate, Config, Plan};
    /// // Two-Choice in batches of b = 20 on n = 10 bins: the points at 40 and 100 balls of one
    /// // run of 100 balls are the ends of runs of 40 and 100 balls.
    /// let cfg = Config::parse("two-choice", 10, 20, "unit", "random").unwrap();
    /// let mut plan = Plan::new(100, 4, 7);
    /// plan.stops = vec![40, 100];
    /// let shared = simulate(&cfg, &plan, &|| {}).unwrap();
    /// for (i, m) in [40u64, 100].into_iter().enumerate() {
    ///     let alone = simulate(&cfg, &Plan::new(m, 4, 7), &|| {}).unwrap();
    ///     for (a, s) in alone.runs.iter().zip(&shared.runs) {
    ///         assert_eq!((a.max_gap, a.final_gap), (s.trajectory[i].max_gap, s.trajectory[i].gap));
    ///     }
    /// }
    /// ```
    pub stops: Vec<u64>,
}

impl Plan {
    /// `runs` runs of `balls` balls from base seed `seed`, 95% intervals, nothing extra recorded.
    pub fn new(balls: u64, runs: u64, seed: u64) -> Plan {
        Plan {
            balls,
            runs,
            seed,
            potentials: Vec::new(),
            trajectory: 0,
            histogram: false,
            confidence: 0.95,
            start: None,
            burn_in: 0,
            stream: None,
            gap_average: false,
            stops: Vec::new(),
        }
    }
}

/// One checkpoint of a trajectory.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Point {
    /// Balls allocated.
    pub balls: u64,
    /// Gap `max x − W/n` at the checkpoint.
    pub gap: f64,
    /// Largest gap at any observation point so far.
    pub max_gap: f64,
    /// Fraction of bins with `y ≥ 0`.
    pub mean_quantile: f64,
    /// Potential values (order of [`Plan::potentials`]; `None` if not representable).
    pub potentials: Vec<Option<f64>>,
    /// Spread `max x − min x` at the checkpoint.
    #[serde(skip)]
    pub spread: f64,
    /// Largest gap at the observation points after the previous checkpoint (after the burn-in
    /// for the first one), up to this one.
    #[serde(skip)]
    pub window_max_gap: f64,
    /// The model's own observables ([`Model::observables`]) at the checkpoint.
    #[serde(skip)]
    pub observables: Vec<f64>,
}

/// The result of one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunResult {
    /// Run index.
    pub run: u64,
    /// The run seed ([`rng::run_rng`] of it replays the run).
    pub seed: u64,
    /// Final gap `max x − W/n`.
    pub final_gap: f64,
    /// Largest gap at any observation point.
    pub max_gap: f64,
    /// Final spread `max x − min x`.
    pub spread: f64,
    /// Balls allocated.
    pub balls: u64,
    /// Steps taken.
    pub steps: u64,
    /// Final fraction of bins with `y ≥ 0` (the mean quantile of the mean-biased paper).
    pub mean_quantile: f64,
    /// Final potential values.
    pub potentials: Vec<Option<f64>>,
    /// The trajectory (empty unless requested).
    pub trajectory: Vec<Point>,
    /// Final histogram: (load, bins) pairs by increasing load (empty unless requested).
    pub histogram: Vec<(f64, u64)>,
    /// The model's own observables ([`Model::observables`]) at the end.
    #[serde(skip)]
    pub observables: Vec<f64>,
    /// The time average of the gap `max x − W/n` over the observation points of the window
    /// (with [`Plan::gap_average`]; the final gap when the window holds no whole batch).
    #[serde(skip)]
    pub mean_gap: Option<f64>,
}

/// The output of [`simulate`].
#[derive(Debug, Clone)]
pub struct SimOutput {
    /// The configuration fields.
    pub config: Map<String, Value>,
    /// The potentials' spec strings.
    pub potential_names: Vec<String>,
    /// The runs in index order.
    pub runs: Vec<RunResult>,
    /// Summary estimates: `final_gap`, `max_gap`, `spread`, `mean_quantile`, then potentials.
    pub summary: Vec<(String, Estimate)>,
}

fn potential_values(
    pots: &[Arc<dyn Potential>],
    levels: &[(f64, u64)],
    n: usize,
    w: f64,
) -> Vec<Option<f64>> {
    let mean = w / n as f64;
    pots.iter()
        .map(|p| {
            let mut s = 0.0;
            let mut ok = true;
            for &(x, c) in levels {
                match p.term(x - mean) {
                    Some(t) => s += t * c as f64,
                    None => ok = false,
                }
            }
            if ok && s.is_finite() {
                return Some(s);
            }
            if n <= 10_000_000 {
                let mut x = Vec::with_capacity(n);
                for &(v, c) in levels {
                    x.extend(std::iter::repeat_n(v, c as usize));
                }
                return Loads::new(x)
                    .ok()
                    .and_then(|l| p.value(&l).to_f64_checked());
            }
            None
        })
        .collect()
}

fn mean_quantile(levels: &[(f64, u64)], n: usize, w: f64) -> f64 {
    let nf = n as f64;
    // y ≥ 0 ⇔ n·x − W ≥ 0 (exact for integer loads).
    levels
        .iter()
        .filter(|l| nf * l.0 - w >= 0.0)
        .map(|l| l.1)
        .sum::<u64>() as f64
        / nf
}

/// The checkpoints of a run: `⌈m·i/K⌉` rounded up to a batch end, the last one `m`. `K` is
/// capped at the number of observation points `⌈m/b⌉` (more checkpoints would repeat them).
///
/// ```
/// // 10 balls in batches of 4: observation points 4, 8, 10; asking for 10¹⁰ checkpoints gives 3.
/// assert_eq!(balloc::sim::checkpoints(10, 4, 10_000_000_000), vec![4, 8, 10]);
/// assert_eq!(balloc::sim::checkpoints(100, 1, 4), vec![25, 50, 75, 100]);
/// ```
pub fn checkpoints(balls: u64, batch: u64, k: usize) -> Vec<u64> {
    let k = (k.max(1) as u64).min(balls.div_ceil(batch.max(1)).max(1));
    let mut out: Vec<u64> = (1..=k)
        .map(|i| {
            let t = ((balls as u128 * i as u128).div_ceil(k as u128)) as u64;
            t.div_ceil(batch).saturating_mul(batch).min(balls)
        })
        .filter(|&t| t > 0)
        .collect();
    out.dedup();
    if out.last() != Some(&balls) {
        out.push(balls);
    }
    out
}

/// Runs one run (index `run`) of `model` under `plan`.
pub fn run_one(model: &dyn Model, plan: &Plan, run: u64) -> Result<RunResult> {
    let key = plan.stream.clone().unwrap_or_else(|| model.key());
    let seed = rng::run_seed(&key, plan.seed, run);
    let mut r = rng::run_rng(seed);
    let mut sys = match &plan.start {
        Some(s) => model.build_from(s)?,
        None => model.build()?,
    };
    let n = sys.n();
    let nf = n as f64;
    if plan.burn_in > 0 {
        sys.run_until(plan.burn_in, &mut r)?;
    }
    let b0 = sys.balls();
    if b0 >= plan.balls {
        return Err(Error::invalid(
            "burn_in",
            format!(
                "{} balls of burn-in (rounded to a batch end) leave no observation window \
                 before {} balls",
                b0, plan.balls
            ),
        ));
    }
    let record = plan.trajectory > 0 || !plan.stops.is_empty();
    let cps: Vec<u64> = if !plan.stops.is_empty() {
        plan.stops.clone()
    } else if plan.trajectory > 0 {
        checkpoints(plan.balls - b0, model.batch(), plan.trajectory)
            .into_iter()
            .map(|t| t + b0)
            .collect()
    } else {
        vec![plan.balls]
    };
    let mut max_gap = f64::NEG_INFINITY;
    let mut trajectory = Vec::new();
    let step = model.batch().max(1);
    let (mut gap_sum, mut gap_points) = (0.0, 0u64);
    for &t in &cps {
        let mut window = f64::NEG_INFINITY;
        if plan.gap_average {
            // Stop at every observation point b₀ + k·b up to t and record its gap.
            loop {
                let next = b0 + ((sys.balls() - b0) / step + 1) * step;
                if next > t {
                    break;
                }
                window = window.max(sys.run_until(next, &mut r)?);
                gap_sum += sys.max_load() - sys.total() / nf;
                gap_points += 1;
            }
        }
        if !plan.gap_average || sys.balls() < t {
            window = window.max(sys.run_until(t, &mut r)?);
        }
        max_gap = max_gap.max(window);
        if record {
            let lv = sys.levels();
            let w = sys.total();
            let gap = sys.max_load() - w / nf;
            trajectory.push(Point {
                balls: sys.balls(),
                gap,
                max_gap,
                mean_quantile: mean_quantile(&lv, n, w),
                potentials: potential_values(&plan.potentials, &lv, n, w),
                spread: sys.max_load() - sys.min_load(),
                window_max_gap: if window.is_finite() { window } else { gap },
                observables: sys.observables(),
            });
        }
    }
    let w = sys.total();
    let final_gap = sys.max_load() - w / nf;
    if !max_gap.is_finite() {
        max_gap = final_gap;
    }
    // The levels are O(n) at most to collect (O(levels) on the level-count engine), once per run.
    let lv = sys.levels();
    let mq = mean_quantile(&lv, n, w);
    let mut histogram = Vec::new();
    if plan.histogram {
        histogram = lv.clone();
        histogram.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    Ok(RunResult {
        run,
        seed,
        final_gap,
        max_gap,
        spread: sys.max_load() - sys.min_load(),
        balls: sys.balls(),
        steps: sys.steps(),
        mean_quantile: mq,
        potentials: potential_values(&plan.potentials, &lv, n, w),
        trajectory,
        histogram,
        observables: sys.observables(),
        mean_gap: plan.gap_average.then(|| {
            if gap_points > 0 {
                gap_sum / gap_points as f64
            } else {
                final_gap
            }
        }),
    })
}

/// Runs `plan.runs` runs of `model` in parallel (on the current rayon pool) and summarises them;
/// `tick` is called after each run (for a progress bar). The same as [`check_plan`], then
/// [`run_all`] (never stopped), then [`output`].
///
/// ```
/// use balloc::sim::{simulate, Config, Plan};
/// let cfg = Config::parse("two-choice", 10, 1, "unit", "random").unwrap();
/// let out = simulate(&cfg, &Plan::new(100, 8, 42), &|| {}).unwrap();
/// assert_eq!(out.runs.len(), 8);
/// // W/n = 10 and the max load is an integer ≥ 10: every gap is a non-negative integer.
/// assert!(out.runs.iter().all(|r| r.final_gap >= 0.0 && r.final_gap.fract() == 0.0));
/// assert!(out.runs.iter().all(|r| r.max_gap >= r.final_gap));
/// ```
pub fn simulate(model: &dyn Model, plan: &Plan, tick: &(dyn Fn() + Sync)) -> Result<SimOutput> {
    check_plan(model, plan)?;
    let runs = run_all(model, plan, tick, &|| false)?;
    output(model, plan, runs)
}

/// Validates a plan for a model before any run: at least one run and one ball, at most
/// [`MAX_RUNS`] runs, [`MAX_TRAJECTORY_POINTS`] trajectory points and
/// [`crate::limits::SIM_WORK`] balls × runs, a burn-in that leaves an observation window, and a
/// model that builds (from the plan's start, if any). Errors name the plan's field (`runs`,
/// `balls`, `trajectory`, `balls × runs`, `burn_in`).
///
/// ```
/// use balloc::sim::{check_plan, Config, Plan};
/// let cfg = Config::parse("two-choice", 10, 1, "unit", "random").unwrap();
/// assert!(check_plan(&cfg, &Plan::new(100, 8, 0)).is_ok());
/// let e = check_plan(&cfg, &Plan::new(100, 0, 0)).unwrap_err().to_string();
/// assert_eq!(e, "invalid runs: must be at least 1, got 0");
/// ```
pub fn check_plan(model: &dyn Model, plan: &Plan) -> Result<()> {
    if plan.runs == 0 {
        return Err(Error::invalid("runs", "must be at least 1, got 0"));
    }
    if plan.balls == 0 {
        return Err(Error::invalid("balls", "must be at least 1, got 0"));
    }
    if plan.runs > MAX_RUNS {
        return Err(Error::invalid(
            "runs",
            format!(
                "{} runs exceed the limit of {MAX_RUNS} per simulation; use a sweep file to \
                 split the work",
                plan.runs
            ),
        ));
    }
    if plan.trajectory > 0 {
        let per_run = (plan.trajectory as u64).min(plan.balls.div_ceil(model.batch().max(1)));
        if per_run.saturating_mul(plan.runs) > MAX_TRAJECTORY_POINTS {
            return Err(Error::invalid(
                "trajectory",
                format!(
                    "{per_run} checkpoints × {} runs exceed the limit of \
                     {MAX_TRAJECTORY_POINTS} trajectory points; record fewer checkpoints",
                    plan.runs
                ),
            ));
        }
    }
    if !plan.stops.is_empty() {
        let ok = plan.stops.windows(2).all(|w| w[0] < w[1])
            && plan.stops[0] > plan.burn_in
            && plan.stops.last() == Some(&plan.balls);
        if !ok {
            return Err(Error::invalid(
                "stops",
                format!(
                    "must increase past the burn-in ({}) and end at balls ({}), got {:?}",
                    plan.burn_in, plan.balls, plan.stops
                ),
            ));
        }
        let b = model.batch().max(1);
        if let Some(s) = plan.stops.iter().find(|&&s| s % b != 0) {
            return Err(Error::invalid(
                "stops",
                format!("must be batch ends (multiples of {b}), got {s}"),
            ));
        }
        let points = (plan.stops.len() as u64).saturating_mul(plan.runs);
        if points > MAX_TRAJECTORY_POINTS {
            return Err(Error::invalid(
                "stops",
                format!(
                    "{} stops × {} runs exceed the limit of {MAX_TRAJECTORY_POINTS} trajectory points",
                    plan.stops.len(),
                    plan.runs
                ),
            ));
        }
    }
    crate::limits::SIM_WORK.check_u128(
        "balls × runs",
        u128::from(plan.balls) * u128::from(plan.runs),
    )?;
    if plan.burn_in >= plan.balls {
        return Err(Error::invalid(
            "burn_in",
            format!(
                "{} balls of burn-in leave no observation window before {} balls",
                plan.burn_in, plan.balls
            ),
        ));
    }
    match &plan.start {
        Some(s) => model.build_from(s)?,
        None => model.build()?,
    };
    Ok(())
}

/// Runs `0..plan.runs` of `model` in parallel on the current rayon pool, in run order; `tick`
/// is called after each run. When `stopped()` turns true, the runs not started yet are skipped
/// and the result is the error `interrupted` (a Ctrl-C in the Python package). Run `i` is seeded
/// from (model key, seed, `i`) ([`run_one`]), so the runs do not depend on the thread count.
///
/// ```
/// use balloc::sim::{run_all, Config, Plan};
/// let cfg = Config::parse("one-choice", 4, 1, "unit", "random").unwrap();
/// let plan = Plan::new(8, 3, 7);
/// let runs = run_all(&cfg, &plan, &|| {}, &|| false).unwrap();
/// // Every run places all 8 balls: the loads sum to 8, so the mean load is 2.
/// assert_eq!(runs.iter().map(|r| r.balls).collect::<Vec<_>>(), vec![8, 8, 8]);
/// assert_eq!(run_all(&cfg, &plan, &|| {}, &|| true).unwrap_err().to_string(), "interrupted");
/// ```
pub fn run_all(
    model: &dyn Model,
    plan: &Plan,
    tick: &(dyn Fn() + Sync),
    stopped: &(dyn Fn() -> bool + Sync),
) -> Result<Vec<RunResult>> {
    let runs: Vec<Option<Result<RunResult>>> = (0..plan.runs)
        .into_par_iter()
        .map(|i| {
            if stopped() {
                return None;
            }
            let r = run_one(model, plan, i);
            tick();
            Some(r)
        })
        .collect();
    let mut out = Vec::with_capacity(runs.len());
    for r in runs {
        match r {
            Some(r) => out.push(r?),
            None => return Err(Error::Interrupted),
        }
    }
    Ok(out)
}

/// The output of a list of runs of `model` under `plan`: its configuration, the potentials'
/// names, the runs and their [`summarise`]d estimates at the plan's confidence.
pub fn output(model: &dyn Model, plan: &Plan, runs: Vec<RunResult>) -> Result<SimOutput> {
    let summary = summarise(&runs, plan.confidence, plan.potentials.len())?;
    Ok(SimOutput {
        config: model.describe(),
        potential_names: plan.potentials.iter().map(|p| p.spec()).collect(),
        runs,
        summary,
    })
}

/// Summary estimates of a list of runs (used by [`simulate`] and by sweep merges).
pub fn summarise(runs: &[RunResult], c: f64, potentials: usize) -> Result<Vec<(String, Estimate)>> {
    let col = |f: &dyn Fn(&RunResult) -> f64| -> Vec<f64> { runs.iter().map(f).collect() };
    let mut out = vec![
        (
            "final_gap".to_string(),
            statistic::mean_ci(&col(&|r| r.final_gap), c)?,
        ),
        (
            "max_gap".to_string(),
            statistic::mean_ci(&col(&|r| r.max_gap), c)?,
        ),
        (
            "spread".to_string(),
            statistic::mean_ci(&col(&|r| r.spread), c)?,
        ),
    ];
    let mq = col(&|r| r.mean_quantile);
    if mq.iter().all(|v| v.is_finite()) {
        out.push(("mean_quantile".to_string(), statistic::mean_ci(&mq, c)?));
    }
    for k in 0..potentials {
        let v: Vec<f64> = runs.iter().filter_map(|r| r.potentials[k]).collect();
        if v.len() == runs.len() {
            out.push((format!("potential_{k}"), statistic::mean_ci(&v, c)?));
        }
    }
    Ok(out)
}

/// A JSON number or null.
pub fn num(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// The JSON of the CLI contract (`docs/conventions.md` §4): `{"config", "runs": [{"seed", "final_gap", "max_gap", ...}],
/// "summary": {"final_gap": {"mean", "stderr", "ci_low", "ci_high"}, ...}}`.
pub fn to_json(out: &SimOutput, plan: &Plan) -> Value {
    let mut config = out.config.clone();
    config.insert("balls".into(), json!(plan.balls));
    config.insert("runs".into(), json!(plan.runs));
    config.insert("seed".into(), json!(plan.seed));
    config.insert("confidence".into(), json!(plan.confidence));
    config.insert("gap".into(), json!("max x - W/n"));
    config.insert("potentials".into(), json!(out.potential_names));
    let runs: Vec<Value> = out
        .runs
        .iter()
        .map(|r| {
            let mut o = Map::new();
            o.insert("run".into(), json!(r.run));
            o.insert("seed".into(), json!(r.seed));
            o.insert("final_gap".into(), num(r.final_gap));
            o.insert("max_gap".into(), num(r.max_gap));
            o.insert("spread".into(), num(r.spread));
            o.insert("balls".into(), json!(r.balls));
            o.insert("steps".into(), json!(r.steps));
            o.insert("mean_quantile".into(), num(r.mean_quantile));
            if !out.potential_names.is_empty() {
                let p: Map<String, Value> = out
                    .potential_names
                    .iter()
                    .zip(&r.potentials)
                    .map(|(k, v)| (k.clone(), v.map(num).unwrap_or(Value::Null)))
                    .collect();
                o.insert("potentials".into(), Value::Object(p));
            }
            if !r.trajectory.is_empty() {
                o.insert(
                    "trajectory".into(),
                    serde_json::to_value(&r.trajectory).unwrap_or(Value::Null),
                );
            }
            if !r.histogram.is_empty() {
                o.insert("histogram".into(), json!(r.histogram));
            }
            Value::Object(o)
        })
        .collect();
    let mut summary = Map::new();
    for (k, e) in &out.summary {
        let key = match k.strip_prefix("potential_") {
            Some(i) => out.potential_names[i.parse::<usize>().unwrap_or(0)].clone(),
            None => k.clone(),
        };
        let mut o = json!({"mean": num(e.mean), "stderr": num(e.stderr), "ci_low": num(e.ci_low),
                   "ci_high": num(e.ci_high), "runs": e.samples});
        if e.samples < 2 {
            // The standard error and the interval need two runs: null, and said why.
            o["interval"] = json!(statistic::UNDEFINED_FOR_ONE_RUN);
        }
        summary.insert(key, o);
    }
    json!({"config": Value::Object(config), "runs": runs, "summary": Value::Object(summary)})
}
