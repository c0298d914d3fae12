//! The dense engine: one `f64` load per bin. It runs every process in every built-in setting:
//! sequential with weights (the kernels of [`super::kernel`], O(1) per ball), b-batched with or
//! without weights (ball by ball on the frozen loads below [`MULTINOMIAL_FACTOR`]`·n` balls, as
//! one multinomial over ranks or over the frozen step law above, see [`super::multinomial`]),
//! and the generic path for processes without a kernel (the step law at every step).

use super::System;
use super::kernel::{AnyStep, Frame, Kernel, QuantileTracker, Reals, Step};
use super::multinomial::{Multinomial, multinomial};
use crate::error::Result;
use crate::loads::{Loads, TieRule};
use crate::process::{Process, StepLaw};
use crate::rng::{SimRng, below, unit_f64};
use crate::weights::WeightLaw;
use crate::with_step;
use rand_distr::{Distribution, Gamma, Poisson};
use std::sync::Arc;

/// Batches of a rank-based process with at least this many balls per bin are drawn as one
/// multinomial over ranks (cost O(n) per batch, independent of `b`); smaller ones ball by ball on
/// the frozen loads (O(b) per batch). The measured crossover of the two costs for Two-Choice at
/// n = 1000 lies between 16n and 32n, with unit and with Exp(1) weights (`BENCHMARKS.md`,
/// "Batches: frozen loads against the multinomial").
pub const MULTINOMIAL_FACTOR: u64 = 24;

/// The same for processes whose step law depends on the loads (thinning, twinning, packing): the
/// multinomial runs over the frozen step law; measured crossover for Mean-Thinning between 8n
/// and 16n.
pub const LAW_MULTINOMIAL_FACTOR: u64 = 10;

/// How a batch is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatchPath {
    /// Ball by ball on the loads frozen at the batch start (O(b) per batch).
    Frozen,
    /// One multinomial over ranks or over the frozen step law (O(n) per batch).
    Multinomial,
}

/// Whether a batch of `steps` steps at `n` bins of a process with kernel `k` is drawn as a
/// multinomial ([`MULTINOMIAL_FACTOR`], [`LAW_MULTINOMIAL_FACTOR`]).
pub fn multinomial_batch(steps: u64, n: usize, k: &Kernel) -> bool {
    let factor = if k.is_rank_based() {
        MULTINOMIAL_FACTOR
    } else {
        LAW_MULTINOMIAL_FACTOR
    };
    steps >= factor.saturating_mul(n as u64)
}

/// The dense engine.
#[derive(Debug)]
pub struct Dense {
    x: Vec<f64>,
    total: f64,
    max: f64,
    balls: u64,
    steps: u64,
    batch: u64,
    weights: WeightLaw,
    ties: TieRule,
    kernel: Kernel,
    process: Arc<dyn Process>,
    counts: Vec<u64>,
    /// Steps per bin of a batch drawn ball by ball.
    counts32: Vec<u32>,
    /// A path forced for every batch (benchmarks), else the crossover rule.
    path: Option<BatchPath>,
    /// The allocation vector by rank (rank-based processes in the batched setting).
    p_rank: Vec<f64>,
    order: Vec<u64>,
    q: Vec<f64>,
    /// Scratch space of the batch multinomial and of the counting sort, kept between batches.
    mult: Multinomial,
    level_start: Vec<usize>,
    /// Tied groups of the current ranking as rank ranges, and their counts in a batch.
    groups: Vec<(usize, usize)>,
    group_counts: Vec<u64>,
    /// Whether every load is a non-negative integer (all-zero start, or such `with_loads`); with
    /// unit weights the ranking may then sort integer keys. (Before this flag, fractional
    /// starting loads were truncated by the counting sort and ranked wrongly.)
    integral: bool,
}

/// The total weight of `k` i.i.d. balls: exact laws for the sum where one exists (Exp: Gamma;
/// geometric: negative binomial as a Gamma–Poisson mixture; finite laws: multinomial over the
/// support), otherwise `k` draws.
pub fn weight_sum(w: &WeightLaw, k: u64, rng: &mut SimRng) -> f64 {
    if k == 0 {
        return 0.0;
    }
    if k <= 8 {
        return (0..k).map(|_| w.sample(rng)).sum();
    }
    match w {
        WeightLaw::Unit => k as f64,
        WeightLaw::Exponential { mean } => {
            mean * Gamma::new(k as f64, 1.0)
                .map(|g| g.sample(rng))
                .unwrap_or(k as f64)
        }
        WeightLaw::Geometric { start, q } => {
            // Σ of k Geom₀(q) = NegBin(k, q) = Poisson(Λ), Λ ~ Gamma(k, (1 − q)/q).
            let base = *start as f64 * k as f64;
            if *q >= 1.0 {
                return base;
            }
            let lambda = Gamma::new(k as f64, (1.0 - q) / q)
                .map(|g| g.sample(rng))
                .unwrap_or(0.0);
            if lambda <= 0.0 {
                return base;
            }
            base + Poisson::new(lambda)
                .map(|p| p.sample(rng))
                .unwrap_or(lambda)
        }
        WeightLaw::Discrete(v) => {
            let q: Vec<f64> = v.iter().map(|p| p.1).collect();
            let mut c = Vec::new();
            multinomial(rng, k, &q, &mut c);
            v.iter().zip(&c).map(|(p, &c)| p.0 * c as f64).sum()
        }
    }
}

impl Dense {
    /// All `n` bins empty.
    pub fn new(
        n: usize,
        process: Arc<dyn Process>,
        batch: u64,
        weights: WeightLaw,
        ties: TieRule,
    ) -> Result<Dense> {
        let kernel = Kernel::for_process(process.as_ref(), n)?;
        let p_rank = if batch > 1 && kernel.is_rank_based() {
            process.rank_probabilities(n)?.unwrap_or_default()
        } else {
            Vec::new()
        };
        Ok(Dense {
            p_rank,
            order: Vec::new(),
            q: Vec::new(),
            mult: Multinomial::default(),
            level_start: Vec::new(),
            groups: Vec::new(),
            group_counts: Vec::new(),
            integral: true,
            x: vec![0.0; n],
            total: 0.0,
            max: 0.0,
            balls: 0,
            steps: 0,
            batch,
            weights,
            ties,
            kernel,
            process,
            counts: Vec::new(),
            counts32: Vec::new(),
            path: None,
        })
    }

    /// Starts from a given load vector instead of zeros (for tests and recovery experiments).
    pub fn with_loads(mut self, loads: &Loads) -> Dense {
        self.x = loads.as_slice().to_vec();
        self.total = loads.total();
        self.max = loads.max();
        self.integral = self.x.iter().all(|v| v.fract() == 0.0 && *v >= 0.0);
        self
    }

    /// Draws every batch by `path` instead of by the crossover rule ([`multinomial_batch`]):
    /// for the crossover benchmark.
    pub fn with_path(mut self, path: BatchPath) -> Dense {
        self.path = Some(path);
        self
    }

    /// The current loads.
    pub fn loads(&self) -> &[f64] {
        &self.x
    }

    #[inline(always)]
    fn add(&mut self, j: usize, balls: u64, rng: &mut SimRng) {
        let w = if self.weights.is_unit() {
            balls as f64
        } else {
            weight_sum(&self.weights, balls, rng)
        };
        self.x[j] += w;
        self.total += w;
        if self.x[j] > self.max {
            self.max = self.x[j];
        }
        self.balls += balls;
    }

    /// Sequential steps until `target` balls; returns the largest gap after any step. Kernels
    /// with a step run in a loop specialised to it; Quantile keeps its cut up to date
    /// ([`QuantileTracker`], O(log n) per step); [`Kernel::Ranks`] and [`Kernel::Generic`] take
    /// the step law at every step.
    fn run_sequential(&mut self, target: u64, rng: &mut SimRng) -> Result<f64> {
        let nf = self.x.len() as f64;
        let f = Reals {
            x: &self.x,
            total: self.total,
        };
        let any = AnyStep::of(&self.kernel, &f, self.ties);
        match any {
            Some(any) if !any.depends_on_frame() => {
                Ok(with_step!(any, |s| self.sequential(&s, target, rng)))
            }
            Some(AnyStep::Quantile(_)) => {
                // The cut moves with the loads: kept up to date in O(log n) per step.
                let Kernel::Quantile { k } = self.kernel else {
                    unreachable!("a Quantile step comes from a Quantile kernel")
                };
                let mut cut = QuantileTracker::new(&self.x, k, self.ties);
                let n = self.x.len() as u64;
                let mut best = f64::NEG_INFINITY;
                let mut first = true;
                while self.balls < target {
                    let i = below(rng, n) as usize;
                    let j = if cut.heavy(i, self.x[i], rng) {
                        below(rng, n) as usize
                    } else {
                        i
                    };
                    let (old, max) = (self.x[j], self.max);
                    self.add(j, 1, rng);
                    cut.grow(j, old, self.x[j]);
                    self.steps += 1;
                    if self.max > max || first {
                        first = false;
                        best = best.max(self.max - self.total / nf);
                    }
                }
                Ok(best)
            }
            _ => {
                let mut best = f64::NEG_INFINITY;
                while self.balls < target {
                    let f = Reals {
                        x: &self.x,
                        total: self.total,
                    };
                    match AnyStep::of(&self.kernel, &f, self.ties) {
                        Some(any) => {
                            let (j, k) = with_step!(any, |s| {
                                let j = s.pick(&f, rng);
                                (j, s.balls(&f, j))
                            });
                            self.add(j, k, rng);
                            self.steps += 1;
                        }
                        None => self.generic_batch(1, rng)?,
                    }
                    best = best.max(self.max - self.total / nf);
                }
                Ok(best)
            }
        }
    }

    /// The sequential loop for one step type.
    #[inline(never)]
    fn sequential<S>(&mut self, s: &S, target: u64, rng: &mut SimRng) -> f64
    where
        S: for<'a> Step<Reals<'a>>,
    {
        let nf = self.x.len() as f64;
        let mut best = f64::NEG_INFINITY;
        let mut first = true;
        while self.balls < target {
            let f = Reals {
                x: &self.x,
                total: self.total,
            };
            let j = s.pick(&f, rng);
            let k = s.balls(&f, j);
            let max = self.max;
            self.add(j, k, rng);
            self.steps += 1;
            // W only grows, so the gap can only rise with the maximum.
            if self.max > max || first {
                first = false;
                best = best.max(self.max - self.total / nf);
            }
        }
        best
    }

    /// A batch of a rank-based process: rank the bins (heaviest first, ties by index), apply the
    /// tie rule to the allocation vector (random ties: each tied group shares its average), draw
    /// the counts per rank as one multinomial and add them to the bins of those ranks. The same
    /// law as `Ranking::per_bin` + [`multinomial`] over bins, without building a `StepLaw`.
    fn rank_batch(&mut self, steps: u64, rng: &mut SimRng) {
        let n = self.x.len();
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        let integral =
            self.integral && self.weights.is_unit() && n < 1 << 32 && self.max < 4_294_967_295.0;
        let min = if integral {
            self.x.iter().copied().fold(f64::INFINITY, f64::min)
        } else {
            0.0
        };
        if integral && self.max - min <= 4.0 * n as f64 {
            // Counting sort by load (heaviest first); stable, so ties stay in index order.
            let top = self.max as u64;
            let levels = (self.max - min) as usize + 1;
            let start = &mut self.level_start;
            start.clear();
            start.resize(levels + 1, 0);
            for &x in &self.x {
                start[(top - x as u64) as usize + 1] += 1;
            }
            for l in 0..levels {
                start[l + 1] += start[l];
            }
            order.resize(n, 0);
            for (i, &x) in self.x.iter().enumerate() {
                let l = (top - x as u64) as usize;
                order[start[l]] = i as u64;
                start[l] += 1;
            }
        } else if integral {
            // Packed keys: heavier first, then smaller index first.
            order.extend(
                self.x
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| ((4_294_967_295 - x as u64) << 32) | i as u64),
            );
            order.sort_unstable();
            for k in order.iter_mut() {
                *k &= 0xffff_ffff;
            }
        } else {
            order.extend(0..n as u64);
            let x = &self.x;
            order
                .sort_unstable_by(|&a, &b| x[b as usize].total_cmp(&x[a as usize]).then(a.cmp(&b)));
        }
        // Tied groups (random ties only): maximal runs of equal loads in rank order. Under the
        // random tie rule every rank of a group has the group's average probability.
        let mut groups = std::mem::take(&mut self.groups);
        groups.clear();
        if self.ties == TieRule::Random {
            let mut start = 0;
            for r in 1..=n {
                if r == n || self.x[order[r] as usize] != self.x[order[start] as usize] {
                    groups.push((start, r));
                    start = r;
                }
            }
        }
        let mut counts = std::mem::take(&mut self.counts);
        if !multinomial_batch(steps, n, &self.kernel) {
            // Small batch of a process without a step on loads (an alias table over its
            // allocation vector): ball by ball on the frozen ranking (a rank, then a uniform bin
            // of the rank's tied group for random ties). Same law, cheaper here.
            counts.clear();
            counts.resize(n, 0);
            let sampler = self
                .kernel
                .rank_sampler(n)
                .expect("rank_batch is only used for rank-based kernels");
            let mut group_start = vec![0u32; n];
            let mut group_len = vec![1u32; n];
            if self.ties == TieRule::Random {
                for &(start, end) in &groups {
                    for g in start..end {
                        group_start[g] = start as u32;
                        group_len[g] = (end - start) as u32;
                    }
                }
            } else {
                for (r, g) in group_start.iter_mut().enumerate() {
                    *g = r as u32;
                }
            }
            for _ in 0..steps {
                let r = sampler.sample(rng) as usize;
                let len = group_len[r] as u64;
                let r = if len == 1 {
                    group_start[r] as usize
                } else {
                    group_start[r] as usize + below(rng, len) as usize
                };
                counts[r] += 1;
            }
        } else if self.ties == TieRule::Random {
            // One multinomial over the tied groups (group probability: the sum of its ranks'
            // probabilities), then each group's count shared out uniformly among its bins. The
            // multinomial over ranks with probabilities constant on each group factorises this
            // way: given the group totals, the counts inside a group are Multinomial(c_g;
            // uniform). `tests/sim.rs` checks the batch against ball-by-ball sampling.
            self.q.clear();
            self.q.extend(
                groups
                    .iter()
                    .map(|&(start, end)| self.p_rank[start..end].iter().sum::<f64>()),
            );
            self.mult.draw(rng, steps, &self.q, &mut self.group_counts);
            counts.clear();
            counts.resize(n, 0);
            for (&(start, end), &c) in groups.iter().zip(&self.group_counts) {
                self.mult.split_uniform(rng, c, &mut counts[start..end]);
            }
        } else {
            self.mult.draw(rng, steps, &self.p_rank, &mut counts);
        }
        for (r, &c) in counts.iter().enumerate() {
            if c > 0 {
                self.add(order[r] as usize, c, rng);
            }
        }
        self.steps += steps;
        self.counts = counts;
        self.order = order;
        self.groups = groups;
    }

    /// One batch of `steps` steps on the loads frozen at its start: ball by ball with the
    /// kernel's step, or as a multinomial (over ranks or over the step law) for large batches.
    fn batch(&mut self, steps: u64, rng: &mut SimRng) -> Result<()> {
        let path = if let Some(p) = self.path {
            p
        } else if multinomial_batch(steps, self.x.len(), &self.kernel) {
            BatchPath::Multinomial
        } else {
            BatchPath::Frozen
        };
        self.batch_on(steps, path, rng)
    }

    /// One batch on a chosen path (the frozen path falls back to the multinomial for processes
    /// without a step on loads, and for batches of 2³² steps or more).
    fn batch_on(&mut self, steps: u64, path: BatchPath, rng: &mut SimRng) -> Result<()> {
        let n = self.x.len();
        let big = path == BatchPath::Multinomial;
        if self.kernel.is_rank_based() && (big || !self.kernel.has_step()) {
            self.rank_batch(steps, rng);
            return Ok(());
        }
        if !big && steps <= u32::MAX as u64 {
            let f = Reals {
                x: &self.x,
                total: self.total,
            };
            if let Some(any) = AnyStep::of(&self.kernel, &f, self.ties) {
                let mut counts = std::mem::take(&mut self.counts32);
                counts.clear();
                counts.resize(n, 0);
                let mut adds = Vec::new();
                with_step!(any, |s| frozen_counts(
                    &f,
                    &s,
                    steps,
                    rng,
                    &mut counts,
                    &mut adds
                ));
                for (j, c) in counts.iter_mut().enumerate() {
                    if *c > 0 {
                        let k = adds.get(j).copied().unwrap_or(1) * *c as u64;
                        *c = 0;
                        self.add(j, k, rng);
                    }
                }
                self.counts32 = counts;
                self.steps += steps;
                return Ok(());
            }
        }
        self.generic_batch(steps, rng)
    }

    /// `steps` steps drawn from the step law frozen at the current loads.
    fn generic_batch(&mut self, steps: u64, rng: &mut SimRng) -> Result<()> {
        if !self.p_rank.is_empty() && steps as usize * 4 >= self.x.len() {
            self.rank_batch(steps, rng);
            return Ok(());
        }
        let loads = Loads::new(self.x.clone())?;
        let law = self.process.step_law(&loads, self.ties)?;
        self.apply_batch(&law, steps, rng);
        Ok(())
    }

    /// Draws `steps` i.i.d. outcomes of `law` and applies them: ball by ball when the batch is
    /// small against the number of outcomes, otherwise as one multinomial (same law).
    fn apply_batch(&mut self, law: &StepLaw, steps: u64, rng: &mut SimRng) {
        let q: Vec<f64> = law.outcomes.iter().map(|o| o.prob).collect();
        let mut counts = std::mem::take(&mut self.counts);
        if (steps as usize) * 4 < q.len() {
            counts.clear();
            counts.resize(q.len(), 0);
            let mut cdf = Vec::with_capacity(q.len());
            let mut s = 0.0;
            for &v in &q {
                s += v;
                cdf.push(s);
            }
            for _ in 0..steps {
                let u = unit_f64(rng) * s;
                let i = cdf.partition_point(|&c| c <= u).min(q.len() - 1);
                // Skip zero-probability outcomes that share the boundary.
                let i = (i..q.len()).find(|&i| q[i] > 0.0).unwrap_or(i);
                counts[i] += 1;
            }
        } else {
            self.mult.draw(rng, steps, &q, &mut counts);
        }
        for (o, &c) in law.outcomes.iter().zip(&counts) {
            if c > 0 {
                self.add(o.bin, c * o.balls as u64, rng);
            }
        }
        self.counts = counts;
        self.steps += steps;
    }
}

impl System for Dense {
    fn n(&self) -> usize {
        self.x.len()
    }
    fn balls(&self) -> u64 {
        self.balls
    }
    fn steps(&self) -> u64 {
        self.steps
    }
    fn total(&self) -> f64 {
        self.total
    }
    fn max_load(&self) -> f64 {
        self.max
    }
    fn min_load(&self) -> f64 {
        self.x.iter().copied().fold(f64::INFINITY, f64::min)
    }
    fn run_until(&mut self, balls: u64, rng: &mut SimRng) -> Result<f64> {
        if self.batch <= 1 {
            return self.run_sequential(balls, rng);
        }
        let nf = self.x.len() as f64;
        let mut best = f64::NEG_INFINITY;
        while self.balls < balls {
            // A batch is b steps, cut short at the target for one-ball-per-step processes.
            let steps = self.batch.min(balls - self.balls);
            self.batch(steps, rng)?;
            best = best.max(self.max - self.total / nf);
        }
        Ok(best)
    }
    fn levels(&self) -> Vec<(f64, u64)> {
        let mut v = self.x.clone();
        v.sort_by(|a, b| a.total_cmp(b));
        let mut out: Vec<(f64, u64)> = Vec::new();
        for x in v {
            match out.last_mut() {
                Some(l) if l.0 == x => l.1 += 1,
                _ => out.push((x, 1)),
            }
        }
        out
    }
}

/// The naive ball-by-ball reference for one batch: the process's own natural sampler
/// ([`Process::sample`]) applied `steps` times on the frozen loads and ranking. Used by tests to
/// check the fast paths.
pub fn naive_batch(
    process: &dyn Process,
    loads: &Loads,
    ties: TieRule,
    steps: u64,
    weights: &WeightLaw,
    rng: &mut SimRng,
) -> Loads {
    let ranking = loads.ranking();
    let mut x = loads.as_slice().to_vec();
    for _ in 0..steps {
        let (j, balls) = process.sample(loads, &ranking, ties, rng);
        for _ in 0..balls {
            x[j] += weights.sample(rng);
        }
    }
    Loads::new(x).expect("finite loads")
}

/// One batch of `steps` steps from a given load vector on the engine the simulator uses for a
/// batch of that size ([`super::Config::engine`]), for tests against [`naive_batch`].
pub fn fast_batch(
    process: Arc<dyn Process>,
    loads: &Loads,
    ties: TieRule,
    steps: u64,
    weights: &WeightLaw,
    rng: &mut SimRng,
) -> Result<Loads> {
    let cfg = super::Config::new(process.clone(), loads.n(), steps, weights.clone(), ties)?;
    let integral = loads
        .as_slice()
        .iter()
        .all(|&v| v >= 0.0 && v.fract() == 0.0 && v < 4e9);
    let engine = match cfg.engine() {
        // The level-count engine runs only from empty bins, the compact engine only from integer
        // loads; otherwise the dense engine takes the same step.
        super::Engine::Levels => super::Engine::Dense,
        super::Engine::Compact if !integral => super::Engine::Dense,
        e => e,
    };
    fast_batch_on(engine, process, loads, ties, steps, weights, rng)
}

/// One batch of `steps` steps from a given load vector on the dense engine by a chosen path (for
/// the tests and the crossover benchmark).
pub fn dense_batch(
    path: BatchPath,
    process: Arc<dyn Process>,
    loads: &Loads,
    ties: TieRule,
    steps: u64,
    weights: &WeightLaw,
    rng: &mut SimRng,
) -> Result<Loads> {
    let mut d =
        Dense::new(loads.n(), process, steps.max(2), weights.clone(), ties)?.with_loads(loads);
    d.batch_on(steps, path, rng)?;
    Loads::new(d.x)
}

/// One batch of `steps` steps from a given load vector on a chosen engine
/// ([`super::Engine::Compact`] needs unit weights and integer loads; [`super::Engine::Levels`]
/// is not available from a given vector).
pub fn fast_batch_on(
    engine: super::Engine,
    process: Arc<dyn Process>,
    loads: &Loads,
    ties: TieRule,
    steps: u64,
    weights: &WeightLaw,
    rng: &mut SimRng,
) -> Result<Loads> {
    match engine {
        super::Engine::Compact => {
            if !weights.is_unit() {
                return Err(crate::error::Error::invalid(
                    "weights",
                    "the compact engine runs unit weights only",
                ));
            }
            let k = Kernel::for_process(process.as_ref(), loads.n())?;
            let mut c =
                super::compact::Compact::new(loads.n(), k, steps, ties)?.with_loads(loads)?;
            let t = c.balls() + steps;
            c.run_until(t, rng)?;
            Loads::new(c.loads())
        }
        _ => {
            let mut d = Dense::new(loads.n(), process, steps.max(2), weights.clone(), ties)?
                .with_loads(loads);
            d.batch(steps, rng)?;
            Loads::new(d.x)
        }
    }
}

/// Draws `steps` destinations on the frozen frame into `counts`; for multi-ball rules, `balls[j]`
/// is bin `j`'s balls per step (left empty when every step is one ball).
#[inline(never)]
fn frozen_counts<F: Frame, S: Step<F>>(
    f: &F,
    s: &S,
    steps: u64,
    rng: &mut SimRng,
    counts: &mut [u32],
    balls: &mut Vec<u64>,
) {
    for _ in 0..steps {
        counts[s.pick(f, rng)] += 1;
    }
    let per: Vec<u64> = (0..counts.len()).map(|j| s.balls(f, j)).collect();
    if per.iter().any(|&k| k != 1) {
        *balls = per;
    }
}
