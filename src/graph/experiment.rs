//! A small, self-contained Monte Carlo driver for the experiments of C §5 (Figures 1 and 3): the
//! greedy strategy and Bansal–Feldheim's strategy on cycles, tori and hypercubes; gap growth with
//! a fitted exponent, t-based confidence intervals and plots ([`crate::plot`]).
//!
//! Determinism: run `r` of a configuration uses ChaCha8 seeded with `seed` on stream
//! `hash(graph, strategy) + r`, so results do not depend on the thread count (runs are executed in
//! parallel with rayon and collected in order).
//!
//! Observables (`docs/conventions.md` §1: every output says which gap): `gap = max_v L(v) − t/n` and `spread = max − min`
//! (C's `gap_G`); each run reports both at the end, and the time average of `gap` over the
//! observation points (every `n` balls) in the second half of the run.
//!
//! Reference: Bansal–Feldheim (arXiv:2106.06051 v2), §5, Figures 1 and 3 (their protocol: `docs/derivations.md` §8).

use super::Graph;
use super::strategy::{State, Strategy};
use crate::error::{Error, Result};
use crate::loads::Loads;
use crate::sim::rng::SimRng;
use crate::sim::{Model, Plan, System};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde_json::{Map, Value, json};
use statrs::distribution::{ContinuousCDF, StudentsT};
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
}

/// The result of one run.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct RunResult {
    /// The run index.
    pub run: u64,
    /// `max L − t/n` at the end.
    pub final_gap: f64,
    /// `max L − min L` at the end.
    pub final_spread: f64,
    /// The mean of `max L − t/n` over the observation points of the second half.
    pub mean_gap: f64,
}

fn stream_of(label: &str) -> u64 {
    // FNV-1a: a fixed, documented hash (std's hasher is not guaranteed stable).
    label.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}

/// Runs `runs` independent runs of `balls` balls from the empty state.
///
/// ```
/// use balloc::graph::{Graph, experiment::{simulate, Rule}};
/// let g = Graph::cycle(8).unwrap();
/// let a = simulate(&g, Rule::Greedy, 1000, 2, 5).unwrap();
/// assert_eq!(a, simulate(&g, Rule::Greedy, 1000, 2, 5).unwrap()); // same seed, same result
/// assert!(a.iter().all(|r| r.final_gap >= 0.0 && r.final_spread >= r.final_gap));
/// ```
pub fn simulate(g: &Graph, rule: Rule, balls: u64, runs: u64, seed: u64) -> Result<Vec<RunResult>> {
    if g.m() == 0 || balls == 0 || runs == 0 {
        return Err(Error::invalid(
            "experiment",
            "needs a graph with edges, balls ≥ 1 and runs ≥ 1",
        ));
    }
    let strategy = match rule {
        Rule::Flow => Some(Strategy::new(g)?),
        Rule::Greedy => None,
    };
    let stream = stream_of(&format!("{}/{}", g.name(), rule.name()));
    Ok((0..runs)
        .into_par_iter()
        .map(|run| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(stream.wrapping_add(run));
            one_run(g, strategy.as_ref(), balls, run, &mut rng)
        })
        .collect())
}

fn one_run(
    g: &Graph,
    s: Option<&Strategy>,
    balls: u64,
    run: u64,
    rng: &mut ChaCha8Rng,
) -> RunResult {
    let n = g.n();
    let every = n as u64;
    let mut acc = 0.0;
    let mut obs = 0u64;
    let mut observe = |loads: &[u64], t: u64| {
        if 2 * t >= balls && t.is_multiple_of(every) {
            acc += *loads.iter().max().unwrap_or(&0) as f64 - t as f64 / n as f64;
            obs += 1;
        }
    };
    let loads = match s {
        Some(s) => {
            let mut st = s.state();
            for t in 1..=balls {
                s.step(&mut st, rng);
                observe(&st.loads, t);
            }
            st.loads
        }
        None => {
            let mut x = vec![0u64; n];
            let edges = g.edges();
            for t in 1..=balls {
                let (a, b) = edges[rng.random_range(0..edges.len())];
                let v = match x[a].cmp(&x[b]) {
                    std::cmp::Ordering::Greater => b,
                    std::cmp::Ordering::Less => a,
                    std::cmp::Ordering::Equal => {
                        if rng.random::<bool>() {
                            a
                        } else {
                            b
                        }
                    }
                };
                x[v] += 1;
                observe(&x, t);
            }
            x
        }
    };
    let max = *loads.iter().max().unwrap_or(&0) as f64;
    let min = *loads.iter().min().unwrap_or(&0) as f64;
    RunResult {
        run,
        final_gap: max - balls as f64 / n as f64,
        final_spread: max - min,
        mean_gap: if obs > 0 { acc / obs as f64 } else { f64::NAN },
    }
}

/// A sample mean with its standard error and a two-sided t-based confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Summary {
    /// The mean.
    pub mean: f64,
    /// The standard error `s/√k`.
    pub stderr: f64,
    /// Lower end of the interval.
    pub ci_low: f64,
    /// Upper end.
    pub ci_high: f64,
}

/// The mean of `xs` with a t-interval at confidence `level` (`k − 1` degrees of freedom).
///
/// ```
/// use balloc::graph::experiment::summarize;
/// // xs = (1, 2, 3): mean 2, s = 1, stderr = 1/√3, t_{0.975, 2} = 4.302653 (tables).
/// let s = summarize(&[1.0, 2.0, 3.0], 0.95).unwrap();
/// assert!((s.ci_high - (2.0 + 4.302653 / 3f64.sqrt())).abs() < 1e-5);
/// ```
pub fn summarize(xs: &[f64], level: f64) -> Result<Summary> {
    let k = xs.len();
    if k < 2 || !(0.0 < level && level < 1.0) || xs.iter().any(|x| !x.is_finite()) {
        return Err(Error::invalid(
            "summary",
            "needs at least two finite values and a level in (0, 1)",
        ));
    }
    let mean = xs.iter().sum::<f64>() / k as f64;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
    let stderr = (var / k as f64).sqrt();
    let t = t_quantile(0.5 + level / 2.0, (k - 1) as f64)?;
    Ok(Summary {
        mean,
        stderr,
        ci_low: mean - t * stderr,
        ci_high: mean + t * stderr,
    })
}

fn t_quantile(p: f64, dof: f64) -> Result<f64> {
    let d = StudentsT::new(0.0, 1.0, dof)
        .map_err(|e| Error::invalid("t distribution", e.to_string()))?;
    Ok(d.inverse_cdf(p))
}

/// A fitted power law `gap ≈ c·n^a` by least squares on `(ln n, ln gap)`, with a t-based interval
/// for the exponent (`k − 2` degrees of freedom).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct PowerFit {
    /// The exponent `a`.
    pub exponent: f64,
    /// Its standard error.
    pub stderr: f64,
    /// Lower end of the interval.
    pub ci_low: f64,
    /// Upper end.
    pub ci_high: f64,
    /// `ln c`.
    pub log_intercept: f64,
}

/// Fits `y ≈ c·x^a` (all values positive, at least three points).
///
/// ```
/// use balloc::graph::experiment::fit_power;
/// // Exact data y = 3·x^0.5: exponent 0.5 with zero error.
/// let xs = [4.0, 16.0, 64.0, 256.0];
/// let ys: Vec<f64> = xs.iter().map(|x: &f64| 3.0 * x.sqrt()).collect();
/// let f = fit_power(&xs, &ys, 0.95).unwrap();
/// assert!((f.exponent - 0.5).abs() < 1e-12 && f.stderr < 1e-9);
/// ```
pub fn fit_power(xs: &[f64], ys: &[f64], level: f64) -> Result<PowerFit> {
    let k = xs.len();
    if k < 3 || ys.len() != k || xs.iter().chain(ys).any(|v| !(*v > 0.0 && v.is_finite())) {
        return Err(Error::invalid(
            "power fit",
            "needs at least three pairs of positive finite values",
        ));
    }
    let lx: Vec<f64> = xs.iter().map(|v| v.ln()).collect();
    let ly: Vec<f64> = ys.iter().map(|v| v.ln()).collect();
    let mx = lx.iter().sum::<f64>() / k as f64;
    let my = ly.iter().sum::<f64>() / k as f64;
    let sxx: f64 = lx.iter().map(|x| (x - mx).powi(2)).sum();
    let sxy: f64 = lx.iter().zip(&ly).map(|(x, y)| (x - mx) * (y - my)).sum();
    let a = sxy / sxx;
    let b = my - a * mx;
    let rss: f64 = lx
        .iter()
        .zip(&ly)
        .map(|(x, y)| (y - b - a * x).powi(2))
        .sum();
    let se = (rss / (k - 2) as f64 / sxx).sqrt();
    let t = t_quantile(0.5 + level / 2.0, (k - 2) as f64)?;
    Ok(PowerFit {
        exponent: a,
        stderr: se,
        ci_low: a - t * se,
        ci_high: a + t * se,
        log_intercept: b,
    })
}

/// One point of a plotted series: `n`, mean, interval.
pub type Point = (f64, Summary);

/// The plot (log–log axes, [`crate::plot`]) of the time-averaged gap against n for several
/// series, with the confidence intervals as error bars; `caption` says what the points and bars
/// are.
///
/// ```
/// use balloc::graph::experiment::{gap_plot, summarize};
/// let s = |v: &[f64]| summarize(v, 0.95).unwrap();
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
/// use balloc::graph::experiment::ball_count;
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
/// use balloc::graph::{Graph, experiment::StrategyModel};
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
}

impl StrategyModel {
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
    /// use balloc::graph::{Graph, experiment::StrategyModel};
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
        let mut best = f64::NEG_INFINITY;
        while self.st.t < target {
            if self.beta < 1.0 && !rng.random_bool(self.beta) {
                let v = rng.random_range(0..self.st.loads.len());
                self.s.place(&mut self.st, v);
            } else if self.refresh > 0 {
                if self.st.t.is_multiple_of(self.refresh) {
                    self.stale.copy_from_slice(&self.st.set_load);
                }
                let v = self.s.choose(&self.stale, rng);
                self.s.place(&mut self.st, v);
            } else {
                self.s.step(&mut self.st, rng);
            }
            if (self.st.t - self.start).is_multiple_of(n) || self.st.t == target {
                best = best.max(self.st.gap());
            }
        }
        Ok(best)
    }
    fn levels(&self) -> Vec<(f64, u64)> {
        let mut c: std::collections::BTreeMap<u64, u64> = std::collections::BTreeMap::new();
        for &v in &self.st.loads {
            *c.entry(v).or_insert(0) += 1;
        }
        c.into_iter().map(|(v, k)| (v as f64, k)).collect()
    }
    fn observables(&self) -> Vec<f64> {
        vec![sibling_gap(&self.s, &self.internal, &self.st)]
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
        }))
    }
    fn build_from(&self, start: &Loads) -> Result<Box<dyn System>> {
        let n = self.s.graph.n();
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
                format!("the strategy starts from non-negative integer loads, got {v}"),
            ));
        }
        let mut st = self.s.state();
        st.loads = x.iter().map(|&v| v as u64).collect();
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
        }))
    }
    fn observables(&self) -> Vec<String> {
        vec!["sibling_gap".into()]
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
/// use balloc::graph::{Graph, experiment::strategy_runs};
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
