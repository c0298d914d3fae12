//! The experiments of C §5 (Figures 1 and 3) on the simulator's core: the greedy strategy
//! ([`GreedyModel`]) and Bansal–Feldheim's strategy ([`StrategyModel`]) are [`crate::sim::Model`]s,
//! so the runs, their seeds, start states, burn-in and checkpoints are those of
//! [`crate::sim::simulate`] (run `r` seeded from (model key, seed, `r`): the results do not depend
//! on the thread count), the intervals are [`crate::sim::statistic::mean_ci`] and the growth
//! exponent is [`crate::growth::power_fit`]; plots go through [`crate::plot`].
//!
//! Observables (`docs/conventions.md` §1: every output says which gap): `gap = max_v L(v) − t/n` and `spread = max − min`
//! (C's `gap_G`); each run reports both at the end, and the time average of `gap` over the
//! observation points (every `n` balls) in the second half of the run
//! ([`crate::sim::Plan::gap_average`] after a burn-in of the first half).
//!
//! Reference: Bansal–Feldheim (arXiv:2106.06051 v2), §5, Figures 1 and 3 (their protocol: `docs/derivations.md` §8).

use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::graph::strategy::{SetLoads16, State, Strategy};
use crate::loads::Loads;
use crate::rng::{SimRng, below};
use crate::sim::statistic::Estimate;
use crate::sim::{Model, Plan, System};
use rand::{Rng, RngExt};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// Which allocation rule a run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Greedy: the lighter endpoint, a fair coin on ties.
    Greedy,
    /// Bansal–Feldheim's strategy with the standard tree and routing.
    Flow,
}

impl Rule {
    /// The name used in outputs.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Greedy => "greedy",
            Rule::Flow => "flow",
        }
    }

    /// The rule of a name (`greedy`, `flow`).
    ///
    /// ```
    /// use balloc::sim::graph::Rule;
    /// assert_eq!(Rule::parse("flow").unwrap(), Rule::Flow);
    /// assert!(Rule::parse("random").unwrap_err().to_string().contains("greedy, flow"));
    /// ```
    pub fn parse(name: &str) -> Result<Rule> {
        match name {
            "greedy" => Ok(Rule::Greedy),
            "flow" => Ok(Rule::Flow),
            other => Err(Error::unknown("strategy", other, &["greedy", "flow"])),
        }
    }

    /// The simulation model of this rule on `g` ([`GreedyModel`] or [`StrategyModel`]).
    ///
    /// ```
    /// use balloc::graph::Graph;
    /// use balloc::sim::graph::Rule;
    /// let m = Rule::Greedy.model(&Graph::cycle(8).unwrap()).unwrap();
    /// assert_eq!((m.key().as_str(), m.batch()), ("strategy=greedy;graph=cycle(8)", 8));
    /// ```
    pub fn model(self, g: &Graph) -> Result<Box<dyn Model>> {
        Ok(match self {
            Rule::Greedy => Box::new(GreedyModel::new(g)?),
            Rule::Flow => Box::new(StrategyModel::new(g)?),
        })
    }
}

/// The result of one run.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct RunResult {
    /// The run index.
    pub run: u64,
    /// The run seed ([`crate::rng::run_rng`] of it replays the run).
    pub seed: u64,
    /// `max L − t/n` at the end.
    pub final_gap: f64,
    /// `max L − min L` at the end.
    pub final_spread: f64,
    /// The mean of `max L − t/n` over the observation points of the second half.
    pub mean_gap: f64,
}

/// The plan of an experiment run: `balls` balls, the first half a burn-in, and the time average
/// of the gap over the observation points `t ≡ 0 (mod n)` with `2t ≥ balls`.
///
/// The burn-in is `(k₀ − 1)·n` with `k₀ = ⌈balls/(2n)⌉`, so the window's observation points
/// `(k₀ − 1)·n + k·n` are exactly the multiples of `n` in `[balls/2, balls]`.
///
/// ```
/// // n = 10, 633 balls: multiples of 10 from 320 (≥ 316.5) on, so the burn-in is 310.
/// assert_eq!(balloc::sim::graph::plan(10, 633, 8, 1).burn_in, 310);
/// ```
pub fn plan(n: usize, balls: u64, runs: u64, seed: u64) -> Plan {
    let n = n.max(1) as u64;
    let k0 = balls.div_ceil(2 * n);
    let mut p = Plan::new(balls, runs, seed);
    p.burn_in = k0.saturating_sub(1) * n;
    p.gap_average = true;
    p
}

/// Runs `runs` independent runs of `balls` balls from the empty state through
/// [`crate::sim::simulate`] with [`plan`].
///
/// ```
/// use balloc::graph::Graph;
/// use balloc::sim::graph::{simulate, Rule};
/// let g = Graph::cycle(8).unwrap();
/// let a = simulate(&g, Rule::Greedy, 1000, 2, 5).unwrap();
/// assert_eq!(a, simulate(&g, Rule::Greedy, 1000, 2, 5).unwrap()); // same seed, same result
/// assert!(a.iter().all(|r| r.final_gap >= 0.0 && r.final_spread >= r.final_gap));
/// // 1000 balls on 8 vertices: the final mean 125 is an integer, so every gap is an integer
/// // and the time average lies between the smallest (≥ 0) and the largest gap.
/// assert!(a.iter().all(|r| r.final_gap.fract() == 0.0 && r.mean_gap >= 0.0));
/// ```
pub fn simulate(g: &Graph, rule: Rule, balls: u64, runs: u64, seed: u64) -> Result<Vec<RunResult>> {
    if g.m() == 0 || balls == 0 || runs == 0 {
        return Err(Error::invalid(
            "experiment",
            "needs a graph with edges, balls ≥ 1 and runs ≥ 1",
        ));
    }
    let model = rule.model(g)?;
    let out = crate::sim::simulate(model.as_ref(), &plan(g.n(), balls, runs, seed), &|| {})?;
    Ok(out
        .runs
        .iter()
        .map(|r| RunResult {
            run: r.run,
            seed: r.seed,
            final_gap: r.final_gap,
            final_spread: r.spread,
            mean_gap: r.mean_gap.unwrap_or(r.final_gap),
        })
        .collect())
}

/// The non-negative integer loads of a start state for a graph model, or an error naming the
/// first bad entry.
fn integer_start(start: &Loads, n: usize) -> Result<Vec<u64>> {
    let x = start.as_slice();
    if x.len() != n {
        return Err(Error::invalid(
            "start",
            format!(
                "the load vector has {} entries for n = {n} vertices",
                x.len()
            ),
        ));
    }
    if let Some(v) = x
        .iter()
        .find(|v| !(**v >= 0.0 && v.fract() == 0.0 && **v < 1e15))
    {
        return Err(Error::invalid(
            "start",
            format!("graph strategies start from non-negative integer loads, got {v}"),
        ));
    }
    Ok(x.iter().map(|&v| v as u64).collect())
}

/// Integer loads as (load, count) pairs: a counting pass when the loads span at most `4n` levels,
/// else an ordered map.
fn integer_levels(x: &[u64]) -> Vec<(f64, u64)> {
    let (lo, hi) = x
        .iter()
        .fold((u64::MAX, 0u64), |(a, b), &v| (a.min(v), b.max(v)));
    if x.is_empty() {
        return Vec::new();
    }
    if hi - lo <= 4 * x.len() as u64 {
        let mut c = vec![0u64; (hi - lo + 1) as usize];
        for &v in x {
            c[(v - lo) as usize] += 1;
        }
        return c
            .into_iter()
            .enumerate()
            .filter(|(_, k)| *k > 0)
            .map(|(i, k)| ((lo + i as u64) as f64, k))
            .collect();
    }
    let mut c: std::collections::BTreeMap<u64, u64> = std::collections::BTreeMap::new();
    for &v in x {
        *c.entry(v).or_insert(0) += 1;
    }
    c.into_iter().map(|(v, k)| (v as f64, k)).collect()
}

/// The greedy graphical process as a simulation model ([`crate::sim::Model`]): a uniform edge
/// `{u, v}` is requested and the ball goes to the strictly lighter endpoint, to either with
/// probability ½ on a tie. One step costs O(1) (one bounded integer for the edge, one word for a
/// tie), against O(n) per step for the registered `graphical(graph=...)` process, whose generic
/// path rebuilds the step law.
///
/// Per-vertex probability (S.GreedyGraphical, derived):
/// `r_v = (#{u ∈ N(v) : x_u > x_v} + ½·#{u ∈ N(v) : x_u = x_v}) / m`.
/// Observation points are every `n` balls (the model's `batch`) and the end of a run.
///
/// Reference: Bansal–Feldheim (arXiv:2106.06051 v2), §1 (the greedy strategy) and Figure 1;
/// Peres–Talwar–Wieder (Random Struct. Alg. 2015) for its `O(log n/σ)` gap.
///
/// ```
/// use balloc::graph::Graph;
/// use balloc::sim::graph::GreedyModel;
/// use balloc::sim::{simulate, Model, Plan};
/// let m = GreedyModel::new(&Graph::cycle(8).unwrap()).unwrap();
/// assert_eq!((m.n(), m.batch()), (8, 8));
/// let out = simulate(&m, &Plan::new(1, 3, 5), &|| {}).unwrap();
/// // One ball on an empty C_8: gap 1 − 1/8 and spread 1 in every run.
/// assert!(out.runs.iter().all(|r| r.final_gap == 0.875 && r.spread == 1.0));
/// ```
#[derive(Debug, Clone)]
pub struct GreedyModel {
    g: Arc<Graph>,
    cut: Option<Arc<Cut>>,
}

impl GreedyModel {
    /// The greedy process on `g` (which needs an edge).
    pub fn new(g: &Graph) -> Result<GreedyModel> {
        if g.m() == 0 {
            return Err(Error::invalid("graph", "greedy needs a graph with edges"));
        }
        Ok(GreedyModel {
            g: Arc::new(g.clone()),
            cut: None,
        })
    }

    /// The same model observing [`Cut::deviation`] of `cut` (its only observable, `cut_gap`).
    /// The runs are those of [`GreedyModel::new`] (same key, same random stream).
    ///
    /// ```
    /// use balloc::graph::Graph;
    /// use balloc::sim::graph::{Cut, GreedyModel};
    /// use balloc::sim::{simulate, Plan};
    /// let g = Graph::sparse_cut(20, 4, 2).unwrap();
    /// let m = GreedyModel::new(&g).unwrap().observing(Cut::minimum(&g).unwrap()).unwrap();
    /// // One ball: one side has average 1/10, t/n = 1/20, so cut_gap = 1/20 in every run.
    /// let out = simulate(&m, &Plan::new(1, 3, 1), &|| {}).unwrap();
    /// assert!(out.runs.iter().all(|r| r.observables == vec![0.05]));
    /// ```
    pub fn observing(mut self, cut: Cut) -> Result<GreedyModel> {
        cut.check(self.g.n())?;
        self.cut = Some(Arc::new(cut));
        Ok(self)
    }
}

/// A vertex set `S` (a side of a cut) whose average load is observed: `cut_gap =
/// max(L̄(S), L̄(S̄)) − t/n`, the quantity the proof of Bansal–Feldheim's Lemma 4.1 bounds from
/// below ("the average load on S exceeds T/n by …"). It is at most `max L − t/n`, the gap.
///
/// ```
/// use balloc::sim::graph::Cut;
/// let c = Cut::new(vec![true, true, false, false]).unwrap();
/// // Loads (3, 1, 0, 0): L̄(S) = 2, L̄(S̄) = 0, t/n = 1.
/// assert_eq!(c.deviation(4, 4, 4), 1.0);
/// assert!(Cut::new(vec![true, true]).is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Cut {
    side: Vec<bool>,
    size: u64,
}

impl Cut {
    /// The side `S` as a membership vector; `S` and its complement must be non-empty.
    pub fn new(side: Vec<bool>) -> Result<Cut> {
        let size = side.iter().filter(|&&x| x).count() as u64;
        if size == 0 || size == side.len() as u64 {
            return Err(Error::invalid(
                "cut",
                "both sides of a cut must be non-empty",
            ));
        }
        Ok(Cut { side, size })
    }

    /// The larger side of a minimum cut of `g` ([`crate::graph::measures::minimum_cut`]).
    pub fn minimum(g: &Graph) -> Result<Cut> {
        Cut::new(crate::graph::measures::minimum_cut(g)?.1)
    }

    fn check(&self, n: usize) -> Result<()> {
        if self.side.len() != n {
            return Err(Error::invalid(
                "cut",
                format!("has {} vertices for a graph of {n}", self.side.len()),
            ));
        }
        Ok(())
    }

    /// Whether `v` lies in `S`.
    #[inline(always)]
    pub fn contains(&self, v: usize) -> bool {
        self.side[v]
    }

    /// `max(L(S)/|S|, (t − L(S))/(n − |S|)) − t/n` from the load `in_s = L(S)` and the total `t`.
    pub fn deviation(&self, in_s: u64, t: u64, n: usize) -> f64 {
        let (s, r) = (self.size as f64, (n as u64 - self.size) as f64);
        let a = in_s as f64 / s;
        let b = (t - in_s) as f64 / r;
        a.max(b) - t as f64 / n as f64
    }
}

/// One run of greedy ([`GreedyModel`]): the loads, their maximum (loads only grow), the balls
/// allocated in all and those of the start state.
struct GreedySystem {
    g: Arc<Graph>,
    x: Vec<u64>,
    max: u64,
    t: u64,
    start: u64,
    cut: Option<Arc<Cut>>,
}

impl GreedySystem {
    /// One greedy step: a uniform edge, the lighter endpoint, a fair coin (the top bit of a word)
    /// on ties.
    #[inline(always)]
    fn step(&mut self, rng: &mut SimRng) {
        let edges = self.g.edges();
        let (a, b) = edges[below(rng, edges.len() as u64) as usize];
        let v = match self.x[a].cmp(&self.x[b]) {
            std::cmp::Ordering::Greater => b,
            std::cmp::Ordering::Less => a,
            std::cmp::Ordering::Equal => {
                if rng.next_u64() >> 63 == 1 {
                    a
                } else {
                    b
                }
            }
        };
        self.x[v] += 1;
        self.max = self.max.max(self.x[v]);
        self.t += 1;
    }

    fn gap(&self) -> f64 {
        self.max as f64 - self.t as f64 / self.x.len() as f64
    }
}

impl System for GreedySystem {
    fn n(&self) -> usize {
        self.x.len()
    }
    fn balls(&self) -> u64 {
        self.t - self.start
    }
    fn steps(&self) -> u64 {
        self.t - self.start
    }
    fn total(&self) -> f64 {
        self.t as f64
    }
    fn max_load(&self) -> f64 {
        self.max as f64
    }
    fn min_load(&self) -> f64 {
        self.x.iter().copied().min().unwrap_or(0) as f64
    }
    fn run_until(&mut self, balls: u64, rng: &mut SimRng) -> Result<f64> {
        let n = self.x.len() as u64;
        let target = self.start.saturating_add(balls);
        let until_obs = n - (self.t - self.start) % n;
        Ok(largest_gap(self.t, target, n, until_obs, |k| {
            for _ in 0..k {
                self.step(rng);
            }
            self.gap()
        }))
    }
    fn levels(&self) -> Vec<(f64, u64)> {
        integer_levels(&self.x)
    }
    fn observables(&self) -> Vec<f64> {
        match &self.cut {
            Some(c) => vec![cut_deviation(c, &self.x, self.t)],
            None => Vec::new(),
        }
    }
}

/// The largest gap over the observation points of a run from `t` balls to `target`: every `n`
/// balls since the run's start, the first `until_obs` balls away, and the target. `advance(k)`
/// adds `k` balls and returns the gap then; the balls between two points go in one call (a
/// countdown instead of a division per ball). `−∞` when `t ≥ target`.
fn largest_gap(
    mut t: u64,
    target: u64,
    n: u64,
    mut until_obs: u64,
    mut advance: impl FnMut(u64) -> f64,
) -> f64 {
    let mut best = f64::NEG_INFINITY;
    while t < target {
        let k = until_obs.min(target - t);
        best = best.max(advance(k));
        t += k;
        until_obs -= k;
        if until_obs == 0 {
            until_obs = n;
        }
    }
    best
}

/// [`Cut::deviation`] at the loads `x` (total `t`).
fn cut_deviation(c: &Cut, x: &[u64], t: u64) -> f64 {
    let in_s = x
        .iter()
        .enumerate()
        .filter(|(v, _)| c.contains(*v))
        .map(|(_, &l)| l)
        .sum();
    c.deviation(in_s, t, x.len())
}

impl Model for GreedyModel {
    fn key(&self) -> String {
        format!("strategy=greedy;graph={}", self.g.name())
    }
    fn describe(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("strategy".into(), json!("greedy"));
        m.insert("graph".into(), json!(self.g.name()));
        m.insert("n".into(), json!(self.g.n()));
        m
    }
    fn n(&self) -> usize {
        self.g.n()
    }
    fn batch(&self) -> u64 {
        self.g.n() as u64
    }
    fn build(&self) -> Result<Box<dyn System>> {
        Ok(Box::new(GreedySystem {
            g: self.g.clone(),
            x: vec![0; self.g.n()],
            max: 0,
            t: 0,
            start: 0,
            cut: self.cut.clone(),
        }))
    }
    fn observables(&self) -> Vec<String> {
        match self.cut {
            Some(_) => vec!["cut_gap".into()],
            None => Vec::new(),
        }
    }
    fn build_from(&self, start: &Loads) -> Result<Box<dyn System>> {
        let x = integer_start(start, self.g.n())?;
        let t = x.iter().sum();
        Ok(Box::new(GreedySystem {
            g: self.g.clone(),
            max: x.iter().copied().max().unwrap_or(0),
            x,
            t,
            start: t,
            cut: self.cut.clone(),
        }))
    }
}

/// One point of a plotted series: `n`, mean, interval.
pub type Point = (f64, Estimate);

/// The plot (log–log axes, [`crate::plot`]) of the time-averaged gap against n for several
/// series, with the confidence intervals as error bars; `caption` says what the points and bars
/// are.
///
/// ```
/// use balloc::sim::graph::gap_plot;
/// let s = |v: &[f64]| balloc::sim::statistic::mean_ci(v, 0.95).unwrap();
/// let series = vec![("greedy".to_string(), vec![(10.0, s(&[1.0, 1.2, 1.1])), (40.0, s(&[2.0, 2.2, 2.1]))])];
/// let p = gap_plot("cycle", "3 runs; bars: 95% t-intervals", &series).unwrap();
/// let svg = p.svg().unwrap();
/// assert!(svg.contains(">n (vertices)<") && svg.contains(">greedy<") && svg.contains(">40<"));
/// ```
pub fn gap_plot(
    title: &str,
    caption: &str,
    series: &[(String, Vec<Point>)],
) -> Result<crate::plot::Plot> {
    use crate::plot::{Axis, Plot, Point as P, Series};
    let mut p = Plot::new(
        title,
        Axis::log("n (vertices)").integer(),
        Axis::log("time-averaged gap max L − t/n"),
    );
    for (label, pts) in series {
        p.series.push(Series::new(
            label,
            pts.iter()
                .map(|(n, s)| {
                    // A log axis shows only the positive part of an interval.
                    let lo = if s.ci_low > 0.0 { s.ci_low } else { s.mean };
                    P::with_interval(*n, s.mean, lo.min(s.mean), s.ci_high.max(s.mean))
                })
                .collect(),
        ));
    }
    p.caption = caption.to_string();
    Ok(p)
}

/// Writes [`gap_plot`] to `path` (SVG, or PGF/TikZ for a `.tex` file), atomically. The only
/// function of this module that writes a file.
pub fn plot_svg(
    path: &std::path::Path,
    title: &str,
    caption: &str,
    series: &[(String, Vec<Point>)],
) -> Result<()> {
    gap_plot(title, caption, series)?.write(path)
}

/// The most balls of one run of an experiment (`⌈factor·n^power⌉` is checked against it before
/// any run starts).
pub const MAX_BALLS: u64 = 1_000_000_000_000;

/// `⌈factor·n^power⌉`, the balls of a run at `n` vertices; an error when it is not a finite
/// number in `1..=`[`MAX_BALLS`] (a large power would otherwise saturate the count).
///
/// ```
/// use balloc::sim::graph::ball_count;
/// assert_eq!(ball_count(1.0, 10, 3.0).unwrap(), 1000);
/// assert!(ball_count(1.0, 10, 100.0).unwrap_err().to_string().contains("limit"));
/// ```
pub fn ball_count(factor: f64, n: usize, power: f64) -> Result<u64> {
    let m = (factor * (n as f64).powf(power)).ceil();
    if !(m >= 1.0 && m <= MAX_BALLS as f64) {
        return Err(Error::invalid(
            "balls per run",
            format!(
                "⌈factor·n^power⌉ = ⌈{factor}·{n}^{power}⌉ = {m:e} is outside 1..={MAX_BALLS} (the \
                 limit per run); lower --power or --factor"
            ),
        ));
    }
    Ok(m as u64)
}

/// One run of Bansal–Feldheim's strategy, for statistical claims.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct StrategyRun {
    /// `max_v L(v) − t/n` at the end.
    pub final_gap: f64,
    /// The largest `max_v L(v) − t/n` over the observation points (every `n` balls and the end).
    pub max_gap: f64,
    /// The largest sibling gap of Lemma 3.7 at the end: `max_{i ∈ I_T} |L̄(S_ℓ(i)) − L̄(S_r(i))|`
    /// over the internal nodes of the decomposition, `L̄(S) = L(S)/|S|`.
    pub sibling_gap: f64,
}

/// Bansal–Feldheim's strategy on a graph as a simulation model ([`crate::sim::Model`]): the
/// simulator's seeding (run `i` from (key, seed, i)), start states, burn-in, checkpoints and
/// summaries apply to it as to the built-in processes.
///
/// Observation points are every `n` balls (the model's `batch`) and the end of a run; the model's
/// own observable is `sibling_gap`, the largest sibling gap of Lemma 3.7
/// `max_{i ∈ I_T} |L̄(S_ℓ(i)) − L̄(S_r(i))|`, `L̄(S) = L(S)/|S|`.
///
/// Reference: Bansal–Feldheim (arXiv:2106.06051 v2), Theorem 1.1 and §3, Lemma 3.7.
///
/// ```
/// use balloc::graph::Graph;
/// use balloc::sim::graph::StrategyModel;
/// use balloc::sim::{simulate, Model, Plan};
/// let m = StrategyModel::new(&Graph::cycle(8).unwrap()).unwrap();
/// assert_eq!((m.n(), m.batch()), (8, 8));
/// let out = simulate(&m, &Plan::new(1, 3, 5), &|| {}).unwrap();
/// // One ball on C_8: gap 1 − 1/8, and the receiving leaf's sibling pair differs by 1.
/// assert!(out.runs.iter().all(|r| r.final_gap == 0.875 && r.observables == vec![1.0]));
/// ```
#[derive(Debug, Clone)]
pub struct StrategyModel {
    s: Arc<Strategy>,
    internal: Arc<Vec<usize>>,
    /// The probability that an edge is requested ((1+β) graphical model; 1 = plain).
    beta: f64,
    /// Decisions use the set loads of the last multiple of `refresh` balls (0 = current loads).
    refresh: u64,
    /// The cut whose side averages are observed (`cut_gap`, after `sibling_gap`).
    cut: Option<Arc<Cut>>,
    /// The distributed version against an adversary: signs of set averages within this of each
    /// other are the adversary's ([`Strategy::choose_against`]; 0 = off).
    against: f64,
}

impl StrategyModel {
    /// The same model in the distributed version of Bansal–Feldheim §3.5 against an adversary:
    /// wherever the two set averages that decide a request differ by at most `within`, the sign
    /// is wrong (the ball goes toward the heavier side; [`Strategy::choose_against`]). `within`
    /// must be finite and ≥ 0; 0 is the strategy itself.
    ///
    /// ```
    /// use balloc::graph::Graph;
    /// use balloc::sim::graph::StrategyModel;
    /// use balloc::sim::{simulate, Plan};
    /// let g = Graph::cycle(16).unwrap();
    /// let plain = StrategyModel::new(&g).unwrap();
    /// let against = StrategyModel::new(&g).unwrap().against(2.0).unwrap();
    /// let run = |m: &StrategyModel| simulate(m, &Plan::new(256, 20, 7), &|| {}).unwrap();
    /// let mean = |o: &balloc::sim::SimOutput| o.runs.iter().map(|r| r.final_gap).sum::<f64>() / 20.0;
    /// // The adversary's signs make the gap larger on average (0 is the plain strategy).
    /// assert!(mean(&run(&against)) > mean(&run(&plain)));
    /// assert!(StrategyModel::new(&g).unwrap().against(f64::NAN).is_err());
    /// ```
    pub fn against(mut self, within: f64) -> Result<StrategyModel> {
        if !(within.is_finite() && within >= 0.0) {
            return Err(Error::invalid(
                "adversarial",
                format!("must be a finite number ≥ 0, got {within}"),
            ));
        }
        self.against = within;
        Ok(self)
    }

    /// The same model also observing [`Cut::deviation`] of `cut` (`cut_gap`, the second
    /// observable after `sibling_gap`). The runs are unchanged (same key, same random stream).
    ///
    /// ```
    /// use balloc::graph::Graph;
    /// use balloc::sim::graph::{Cut, StrategyModel};
    /// use balloc::sim::{simulate, Model, Plan};
    /// let g = Graph::cycle(8).unwrap();
    /// let side = (0..8).map(|v| v < 4).collect();
    /// let m = StrategyModel::new(&g).unwrap().observing(Cut::new(side).unwrap()).unwrap();
    /// assert_eq!(m.observables(), vec!["sibling_gap", "cut_gap"]);
    /// // One ball on C_8: the sides have averages 1/4 and 0, t/n = 1/8: cut_gap = 1/8.
    /// let out = simulate(&m, &Plan::new(1, 3, 1), &|| {}).unwrap();
    /// assert!(out.runs.iter().all(|r| r.observables == vec![1.0, 0.125]));
    /// ```
    pub fn observing(mut self, cut: Cut) -> Result<StrategyModel> {
        cut.check(self.s.graph.n())?;
        self.cut = Some(Arc::new(cut));
        Ok(self)
    }

    /// Preprocesses the strategy on `g` (decomposition, flows).
    pub fn new(g: &Graph) -> Result<StrategyModel> {
        StrategyModel::variant(g, 1.0, 0)
    }

    /// The strategy in the (1+β) graphical model (Bansal–Feldheim Remark 1.1: with probability β
    /// an edge is requested and the strategy decides, otherwise the ball goes to a uniform
    /// vertex), deciding on stale set loads (Remark 3.9 and the distributed version of §3.5: the
    /// set loads `L(S)` are refreshed every `refresh` balls, at times `t ≡ 0 mod refresh`; 0 or 1
    /// means always current). `beta ∈ [0, 1]`.
    ///
    /// ```
    /// use balloc::graph::Graph;
    /// use balloc::sim::graph::StrategyModel;
    /// use balloc::sim::{simulate, Plan};
    /// let m = StrategyModel::variant(&Graph::cycle(8).unwrap(), 0.5, 64).unwrap();
    /// let out = simulate(&m, &Plan::new(1, 3, 5), &|| {}).unwrap();
    /// // One ball on C_8, wherever it goes: gap 1 − 1/8.
    /// assert!(out.runs.iter().all(|r| r.final_gap == 0.875));
    /// assert!(StrategyModel::variant(&Graph::cycle(8).unwrap(), 1.5, 0).is_err());
    /// ```
    pub fn variant(g: &Graph, beta: f64, refresh: u64) -> Result<StrategyModel> {
        if g.m() == 0 {
            return Err(Error::invalid(
                "graph",
                "the strategy needs a graph with edges",
            ));
        }
        if !(0.0..=1.0).contains(&beta) {
            return Err(Error::invalid(
                "beta",
                format!("must lie in [0, 1], got {beta}"),
            ));
        }
        let s = Strategy::new(g)?;
        let internal = s.tree.internal();
        Ok(StrategyModel {
            s: Arc::new(s),
            internal: Arc::new(internal),
            beta,
            refresh: if refresh <= 1 { 0 } else { refresh },
            cut: None,
            against: 0.0,
        })
    }
}

/// The largest sibling gap of Lemma 3.7 at a state of the strategy.
fn sibling_gap(s: &Strategy, internal: &[usize], st: &State) -> f64 {
    internal
        .iter()
        .map(|&i| {
            let (l, r) = s.tree.nodes[i].children.expect("internal node");
            let avg = |j: usize| st.set_load[j] as f64 / s.tree.nodes[j].size() as f64;
            (avg(l) - avg(r)).abs()
        })
        .fold(0.0, f64::max)
}

/// One run of the strategy ([`StrategyModel`]); `start` is the number of balls of the start state.
struct StrategySystem {
    s: Arc<Strategy>,
    internal: Arc<Vec<usize>>,
    st: State,
    start: u64,
    beta: f64,
    refresh: u64,
    /// The set loads decisions use when `refresh > 0`.
    stale: Vec<u64>,
    cut: Option<Arc<Cut>>,
    /// The set loads of [`Strategy::run_small`] (allocated on first use).
    set16: Option<Box<SetLoads16>>,
    /// See [`StrategyModel::against`].
    against: f64,
}

impl StrategySystem {
    /// One ball of the general loop: with probability `1 − β` to a uniform vertex, otherwise a
    /// request decided on the current set loads, or on those of the last multiple of `refresh`.
    fn ball(&mut self, rng: &mut SimRng) {
        if self.beta < 1.0 && !rng.random_bool(self.beta) {
            let v = rng.random_range(0..self.st.loads.len());
            self.s.place(&mut self.st, v);
        } else if self.refresh > 0 {
            if self.st.t.is_multiple_of(self.refresh) {
                self.stale.copy_from_slice(&self.st.set_load);
            }
            let v = if self.against > 0.0 {
                self.s.choose_against(&self.stale, self.against, rng)
            } else {
                self.s.choose_sim(&self.stale, rng)
            };
            self.s.place(&mut self.st, v);
        } else if self.against > 0.0 {
            let v = self.s.choose_against(&self.st.set_load, self.against, rng);
            self.s.place(&mut self.st, v);
        } else {
            self.s.step_sim(&mut self.st, rng);
        }
    }

    /// The balls up to `target` by [`Strategy::run_small`] (every ball a request on the current
    /// set loads), observing the gap every `n` balls (the first point `until_obs` balls away) and
    /// at the target; `None` when the strategy has no 16-bit tables. The vertex loads are read
    /// from the leaves at the end: the same state, the same draws and the same largest gap as
    /// the loop of [`Strategy::step_sim`].
    fn run_small(&mut self, target: u64, until_obs: u64, rng: &mut SimRng) -> Option<f64> {
        let s = self.s.clone();
        let leaves = s.small_leaves()?;
        if self.set16.is_none() {
            self.set16 = vec![0u64; 1 << 16].into_boxed_slice().try_into().ok();
        }
        let set = self.set16.as_mut()?;
        let nodes = self.st.set_load.len();
        set[..nodes].copy_from_slice(&self.st.set_load);
        let n = leaves.len() as u64;
        let mut t = self.st.t;
        let best = largest_gap(t, target, n, until_obs, |k| {
            s.run_small(set, k, rng);
            t += k;
            let max = leaves.iter().map(|&l| set[l as usize]).max().unwrap_or(0);
            max as f64 - t as f64 / n as f64
        });
        self.st.set_load.copy_from_slice(&set[..nodes]);
        for (x, &l) in self.st.loads.iter_mut().zip(leaves) {
            *x = set[l as usize];
        }
        self.st.t = t;
        Some(best)
    }
}

impl System for StrategySystem {
    fn n(&self) -> usize {
        self.st.loads.len()
    }
    fn balls(&self) -> u64 {
        self.st.t - self.start
    }
    fn steps(&self) -> u64 {
        self.st.t - self.start
    }
    fn total(&self) -> f64 {
        self.st.t as f64
    }
    fn max_load(&self) -> f64 {
        self.st.loads.iter().copied().max().unwrap_or(0) as f64
    }
    fn min_load(&self) -> f64 {
        self.st.loads.iter().copied().min().unwrap_or(0) as f64
    }
    fn run_until(&mut self, balls: u64, rng: &mut SimRng) -> Result<f64> {
        let n = self.st.loads.len() as u64;
        let target = self.start.saturating_add(balls);
        // Balls until the next multiple of n since the start; the gap is observed there and at
        // the target.
        let until_obs = n - (self.st.t - self.start) % n;
        if self.beta >= 1.0
            && self.refresh == 0
            && self.against == 0.0
            && let Some(best) = self.run_small(target, until_obs, rng)
        {
            // Every ball is a request decided on the current set loads: on the 16-bit tables.
            return Ok(best);
        }
        Ok(largest_gap(self.st.t, target, n, until_obs, |k| {
            for _ in 0..k {
                self.ball(rng);
            }
            self.st.gap()
        }))
    }
    fn levels(&self) -> Vec<(f64, u64)> {
        integer_levels(&self.st.loads)
    }
    fn observables(&self) -> Vec<f64> {
        let mut v = vec![sibling_gap(&self.s, &self.internal, &self.st)];
        if let Some(c) = &self.cut {
            v.push(cut_deviation(c, &self.st.loads, self.st.t));
        }
        v
    }
}

impl Model for StrategyModel {
    fn key(&self) -> String {
        let mut k = format!("strategy=bansal-feldheim;graph={}", self.s.graph.name());
        if self.beta < 1.0 {
            k.push_str(&format!(";beta={}", self.beta));
        }
        if self.refresh > 0 {
            k.push_str(&format!(";refresh={}", self.refresh));
        }
        if self.against > 0.0 {
            k.push_str(&format!(";adversarial={}", self.against));
        }
        k
    }
    fn describe(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("strategy".into(), json!("bansal-feldheim"));
        if self.beta < 1.0 {
            m.insert("beta".into(), json!(self.beta));
        }
        if self.refresh > 0 {
            m.insert("refresh".into(), json!(self.refresh));
        }
        if self.against > 0.0 {
            m.insert("adversarial".into(), json!(self.against));
        }
        m.insert("graph".into(), json!(self.s.graph.name()));
        m.insert("n".into(), json!(self.s.graph.n()));
        m
    }
    fn n(&self) -> usize {
        self.s.graph.n()
    }
    fn batch(&self) -> u64 {
        self.s.graph.n() as u64
    }
    fn build(&self) -> Result<Box<dyn System>> {
        let st = self.s.state();
        Ok(Box::new(StrategySystem {
            s: self.s.clone(),
            internal: self.internal.clone(),
            stale: st.set_load.clone(),
            st,
            start: 0,
            beta: self.beta,
            refresh: self.refresh,
            cut: self.cut.clone(),
            set16: None,
            against: self.against,
        }))
    }
    fn build_from(&self, start: &Loads) -> Result<Box<dyn System>> {
        let x = integer_start(start, self.s.graph.n())?;
        let mut st = self.s.state();
        st.loads = x;
        let tree = &self.s.tree;
        for (i, node) in tree.nodes.iter().enumerate() {
            st.set_load[i] = tree.order[node.lo..node.hi]
                .iter()
                .map(|&v| st.loads[v])
                .sum();
        }
        st.t = st.loads.iter().sum();
        let start = st.t;
        Ok(Box::new(StrategySystem {
            s: self.s.clone(),
            internal: self.internal.clone(),
            stale: st.set_load.clone(),
            st,
            start,
            beta: self.beta,
            refresh: self.refresh,
            cut: self.cut.clone(),
            set16: None,
            against: self.against,
        }))
    }
    fn observables(&self) -> Vec<String> {
        let mut v = vec!["sibling_gap".into()];
        if self.cut.is_some() {
            v.push("cut_gap".into());
        }
        v
    }
}

/// Runs Bansal–Feldheim's strategy `runs` times for `balls` balls from the empty state and reports
/// the gaps and the largest sibling gap of Lemma 3.7, one value per run.
///
/// Reference: Bansal–Feldheim (arXiv:2106.06051 v2), Theorem 1.1 and §3, Lemma 3.7
/// (items C.Thm1.1, C.L3.7 of `src/graph/CHECKS.md`). The runs are those of [`StrategyModel`]
/// under [`crate::sim::simulate`]: run `r` is seeded from (model key, `seed`, `r`), so the values
/// do not depend on the thread count.
///
/// ```
/// use balloc::graph::Graph;
/// use balloc::sim::graph::strategy_runs;
/// let g = Graph::cycle(8).unwrap();
/// let a = strategy_runs(&g, 1, 3, 5).unwrap();
/// // One ball on C_8: the receiving leaf's sibling pair has averages 1 and 0, so the largest
/// // sibling gap is 1 (the pairs above differ by 1/2 and 1/4); the gap is 1 − 1/8.
/// assert!(a.iter().all(|r| r.sibling_gap == 1.0 && r.final_gap == 0.875 && r.max_gap == 0.875));
/// assert_eq!(strategy_runs(&g, 500, 3, 5).unwrap(), strategy_runs(&g, 500, 3, 5).unwrap());
/// ```
pub fn strategy_runs(g: &Graph, balls: u64, runs: u64, seed: u64) -> Result<Vec<StrategyRun>> {
    if g.m() == 0 || balls == 0 || runs == 0 {
        return Err(Error::invalid(
            "experiment",
            "needs a graph with edges, balls ≥ 1 and runs ≥ 1",
        ));
    }
    let model = StrategyModel::new(g)?;
    let out = crate::sim::simulate(&model, &Plan::new(balls, runs, seed), &|| {})?;
    Ok(out
        .runs
        .iter()
        .map(|r| StrategyRun {
            final_gap: r.final_gap,
            max_gap: r.max_gap,
            sibling_gap: r.observables.first().copied().unwrap_or(f64::NAN),
        })
        .collect())
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::rng::{run_rng, run_seed};
    use crate::sim::simulate;

    /// The destination of one greedy ball from `start`, for `runs` independent generators.
    fn destinations(g: &Graph, start: &[f64], runs: u64) -> Vec<u64> {
        let m = GreedyModel::new(g).unwrap();
        let x = Loads::new(start.to_vec()).unwrap();
        let mut counts = vec![0u64; g.n()];
        for i in 0..runs {
            let mut sys = GreedySystem {
                g: m.g.clone(),
                x: integer_start(&x, g.n()).unwrap(),
                max: 0,
                t: 0,
                start: 0,
                cut: None,
            };
            let before = sys.x.clone();
            sys.run_until(1, &mut run_rng(run_seed("greedy-test", 3, i)))
                .unwrap();
            let v = (0..g.n()).find(|&v| sys.x[v] != before[v]).unwrap();
            assert_eq!(sys.x[v], before[v] + 1);
            counts[v] += 1;
        }
        counts
    }

    fn within_four_se(counts: &[u64], p: &[f64], runs: u64) {
        for (v, (&c, &p)) in counts.iter().zip(p).enumerate() {
            let f = c as f64 / runs as f64;
            let se = (p * (1.0 - p) / runs as f64).sqrt().max(1e-12);
            assert!((f - p).abs() <= 4.0 * se, "vertex {v}: {f} vs {p}");
        }
    }

    fn gaps_are_observed_every_n_balls_and_at_the_target() {
        // From t = 3 with points every 4 balls since a start at 0 (the next at 4, one ball away)
        // to the target 13: points at 4, 8, 12 and 13, reached by 1, 4, 4 and 1 balls.
        let mut steps = Vec::new();
        let mut t = 3;
        let best = largest_gap(3, 13, 4, 1, |k| {
            steps.push(k);
            t += k;
            -(t as f64) // the largest of −4, −8, −12, −13
        });
        assert_eq!(steps, vec![1, 4, 4, 1]);
        assert_eq!(best, -4.0);
        assert_eq!(largest_gap(5, 5, 4, 3, |_| 0.0), f64::NEG_INFINITY);
    }

    /// C₄ with loads (0, 1, 2, 2), by hand: edge {0,1} → 0, {1,2} → 1, {2,3} tied → ½ to each,
    /// {3,0} → 0; each edge has probability ¼, so r = (1/2, 1/4, 1/8, 1/8).
    fn one_greedy_step_has_the_hand_law() {
        let runs = 40_000;
        let c = destinations(&Graph::cycle(4).unwrap(), &[0.0, 1.0, 2.0, 2.0], runs);
        within_four_se(&c, &[0.5, 0.25, 0.125, 0.125], runs);
    }

    /// On a random 3-regular graph at a state with ties, the frequencies agree with the
    /// closed-form per-vertex law of `greedy::probabilities` (its edge count).
    fn one_greedy_step_matches_the_closed_form() {
        let g = Graph::random_regular(12, 3, 5).unwrap();
        let x: Vec<f64> = (0..12).map(|i| (i % 4) as f64).collect();
        let p = crate::graph::greedy::probabilities(&g, &x).unwrap();
        let runs = 40_000;
        within_four_se(&destinations(&g, &x, runs), &p, runs);
    }

    /// The same output whatever the thread count, for greedy with a trajectory and a start
    /// state, and for the experiment driver.
    fn greedy_runs_do_not_depend_on_the_thread_count() {
        let g = Graph::cycle(16).unwrap();
        let m = GreedyModel::new(&g).unwrap();
        let mut plan = Plan::new(2000, 6, 9);
        plan.trajectory = 7;
        plan.start = Some(Arc::new(
            Loads::new((0..16).map(|i| (i % 3) as f64).collect()).unwrap(),
        ));
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                (
                    simulate(&m, &plan, &|| {}).unwrap().runs,
                    super::simulate(&g, Rule::Greedy, 3000, 5, 2).unwrap(),
                    super::simulate(&g, Rule::Flow, 3000, 5, 2).unwrap(),
                )
            })
        };
        let (a, b) = (on(1), on(2));
        assert_eq!(a, b);
        // Different runs differ (the seeds are not all equal).
        assert!(a.1.windows(2).any(|w| w[0].seed != w[1].seed));
    }

    /// The time-averaged gap of the experiment equals the average of the trajectory's gaps at
    /// the multiples of n in [balls/2, balls], recorded through checkpoints instead (the same
    /// runs: same key, seed and run index).
    fn mean_gap_is_the_average_over_the_second_half() {
        let g = Graph::cycle(10).unwrap();
        let balls = 633; // multiples of 10 in [316.5, 633]: 320, …, 630 (32 points)
        let m = GreedyModel::new(&g).unwrap();
        let mut traj = Plan::new(balls, 4, 7);
        traj.trajectory = 1000;
        let t = simulate(&m, &traj, &|| {}).unwrap();
        let a = super::simulate(&g, Rule::Greedy, balls, 4, 7).unwrap();
        for (r, e) in t.runs.iter().zip(&a) {
            let gaps: Vec<f64> = r
                .trajectory
                .iter()
                .filter(|p| p.balls % 10 == 0 && 2 * p.balls >= balls)
                .map(|p| p.gap)
                .collect();
            assert_eq!(gaps.len(), 32);
            let avg = gaps.iter().sum::<f64>() / 32.0;
            assert!((avg - e.mean_gap).abs() < 1e-12, "{avg} vs {}", e.mean_gap);
            assert_eq!(r.final_gap, e.final_gap);
        }
    }

    /// Start states: integer loads only, one per vertex; the start's balls are not counted.
    fn greedy_start_states() {
        let m = GreedyModel::new(&Graph::cycle(4).unwrap()).unwrap();
        let bad = |x: Vec<f64>| {
            m.build_from(&Loads::new(x).unwrap())
                .err()
                .unwrap()
                .to_string()
        };
        assert!(bad(vec![0.5, 0.0, 0.0, 0.0]).contains("integer"));
        assert!(bad(vec![0.0, 0.0, 0.0]).contains("3 entries"));
        let s = m
            .build_from(&Loads::new(vec![5.0, 0.0, 0.0, 3.0]).unwrap())
            .unwrap();
        assert_eq!(
            (s.balls(), s.total(), s.max_load(), s.min_load()),
            (0, 8.0, 5.0, 0.0)
        );
        assert_eq!(s.levels(), vec![(0.0, 2), (3.0, 1), (5.0, 1)]);
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "gaps_are_observed_every_n_balls_and_at_the_target",
            run: gaps_are_observed_every_n_balls_and_at_the_target,
            panics: None,
        },
        crate::unit::Test {
            name: "one_greedy_step_has_the_hand_law",
            run: one_greedy_step_has_the_hand_law,
            panics: None,
        },
        crate::unit::Test {
            name: "one_greedy_step_matches_the_closed_form",
            run: one_greedy_step_matches_the_closed_form,
            panics: None,
        },
        crate::unit::Test {
            name: "greedy_runs_do_not_depend_on_the_thread_count",
            run: greedy_runs_do_not_depend_on_the_thread_count,
            panics: None,
        },
        crate::unit::Test {
            name: "mean_gap_is_the_average_over_the_second_half",
            run: mean_gap_is_the_average_over_the_second_half,
            panics: None,
        },
        crate::unit::Test {
            name: "greedy_start_states",
            run: greedy_start_states,
            panics: None,
        },
    ];
}
