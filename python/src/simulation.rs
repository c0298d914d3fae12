//! Monte Carlo simulation (`simulate`, as `balloc simulate`) and sweeps over a grid of
//! configurations (`sweep`, as `balloc sweep`), with numpy arrays in and out.
//!
//! Run `i` of a configuration is seeded from (configuration, seed, i) (ChaCha20, then a per-run
//! xoshiro256++), so every result depends only on the configuration, the seed and the run index:
//! not on the number of threads. The gap is `max xᵢ − W/n`; `max_gap` is its largest value at an
//! observation point (every step when unbatched, every batch end when batched). Summary intervals
//! are Student-t intervals of the mean, `mean ± t_{(1+c)/2, R−1}·s/√R`, at confidence c.

use crate::convert;
use crate::error::IntoPy;
use crate::progress::{self, Progress};
use anyhow::{Context, Result, bail};
use balloc::app::simulate::{self as app, SimulateArgs, SimulateRequest};
use balloc::app::sweep::{Shard, Sweep};
use balloc::sim::statistic;
use balloc::sim::{self, Model, Plan, RunResult, SimOutput};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use std::path::Path;

/// A sample mean with its Student-t confidence interval: `mean`, `stderr` (s/√R), `ci_low`,
/// `ci_high` (`mean ∓ t_{(1+c)/2, R−1}·stderr`; ∓∞ for a single run), `runs` (R) and
/// `confidence` (c).
#[pyclass(frozen, module = "balloc")]
#[derive(Clone)]
pub struct Estimate {
    inner: statistic::Estimate,
}

#[pymethods]
impl Estimate {
    /// The sample mean.
    #[getter]
    fn mean(&self) -> f64 {
        self.inner.mean
    }
    /// The standard error of the mean s/√R (NaN for one run).
    #[getter]
    fn stderr(&self) -> f64 {
        self.inner.stderr
    }
    /// The lower end of the interval.
    #[getter]
    fn ci_low(&self) -> f64 {
        self.inner.ci_low
    }
    /// The upper end of the interval.
    #[getter]
    fn ci_high(&self) -> f64 {
        self.inner.ci_high
    }
    /// The number of runs R.
    #[getter]
    fn runs(&self) -> usize {
        self.inner.samples
    }
    /// The confidence level c.
    #[getter]
    fn confidence(&self) -> f64 {
        self.inner.confidence
    }
    fn __repr__(&self) -> String {
        format!(
            "Estimate(mean={}, stderr={}, ci=({}, {}), runs={}, confidence={})",
            self.inner.mean,
            self.inner.stderr,
            self.inner.ci_low,
            self.inner.ci_high,
            self.inner.samples,
            self.inner.confidence
        )
    }
}

/// The runs of a simulation and their summary.
///
/// Per run (numpy arrays indexed by run): `seeds` (the run seeds), `final_gap`, `max_gap`,
/// `spread` (max − min), `balls`, `steps`, `mean_quantile` (fraction of bins with yᵢ ≥ 0),
/// `potentials` (dict: spec → final values, NaN where not representable). `summary`: dict of
/// `Estimate` by quantity (`final_gap`, `max_gap`, `spread`, `mean_quantile`, then each
/// potential by spec). `trajectory` (when recorded): dict with `balls` (the checkpoints) and
/// `gap`, `max_gap`, `mean_quantile` (arrays runs × checkpoints), `potentials` (spec → array).
/// `histograms` (when recorded): per run a pair (loads, bins) of arrays by increasing load.
///
/// `to_dict()` is the JSON document of `balloc simulate --format json`.
#[pyclass(frozen, module = "balloc")]
pub struct Simulation {
    out: SimOutput,
    plan: Plan,
}

impl Simulation {
    fn column<'py>(
        &self,
        py: Python<'py>,
        f: impl Fn(&RunResult) -> f64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let v: Vec<f64> = self.out.runs.iter().map(f).collect();
        convert::frozen(py, &v)
    }
    fn column_u64<'py>(
        &self,
        py: Python<'py>,
        f: impl Fn(&RunResult) -> u64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let v: Vec<u64> = self.out.runs.iter().map(f).collect();
        convert::frozen(py, &v)
    }
}

use convert::matrix;

#[pymethods]
impl Simulation {
    /// The configuration (dict: process, n, batch, weights, ties, engine, balls, runs, seed,
    /// confidence, gap, potentials).
    #[getter]
    fn config<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::json(py, &sim::to_json(&self.out, &self.plan)["config"])
    }
    /// The number of runs.
    fn __len__(&self) -> usize {
        self.out.runs.len()
    }
    /// The run seeds.
    #[getter]
    fn seeds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.column_u64(py, |r| r.seed)
    }
    /// The final gap max xᵢ − W/n of each run.
    #[getter]
    fn final_gap<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.column(py, |r| r.final_gap)
    }
    /// The largest gap at an observation point of each run.
    #[getter]
    fn max_gap<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.column(py, |r| r.max_gap)
    }
    /// The final spread max xᵢ − min xᵢ of each run.
    #[getter]
    fn spread<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.column(py, |r| r.spread)
    }
    /// The balls allocated in each run.
    #[getter]
    fn balls<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.column_u64(py, |r| r.balls)
    }
    /// The steps taken in each run.
    #[getter]
    fn steps<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.column_u64(py, |r| r.steps)
    }
    /// The final fraction of bins with yᵢ ≥ 0 of each run (NaN when not recorded).
    #[getter]
    fn mean_quantile<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.column(py, |r| r.mean_quantile)
    }
    /// The final potential values: dict spec → array (NaN where not representable).
    #[getter]
    fn potentials<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, name) in self.out.potential_names.iter().enumerate() {
            d.set_item(
                name,
                self.column(py, |r| r.potentials[k].unwrap_or(f64::NAN))?,
            )?;
        }
        Ok(d)
    }
    /// The summary estimates by quantity.
    #[getter]
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, e) in &self.out.summary {
            let key = match k.strip_prefix("potential_") {
                Some(i) => self.out.potential_names[i.parse::<usize>().unwrap_or(0)].clone(),
                None => k.clone(),
            };
            d.set_item(key, Estimate { inner: *e })?;
        }
        Ok(d)
    }
    /// The trajectories (when recorded), else `None`.
    #[getter]
    fn trajectory<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(first) = self.out.runs.first().filter(|r| !r.trajectory.is_empty()) else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        let cps: Vec<u64> = first.trajectory.iter().map(|p| p.balls).collect();
        d.set_item("balls", convert::frozen(py, &cps)?)?;
        let rows = |f: &dyn Fn(&sim::Point) -> f64| -> Vec<Vec<f64>> {
            self.out
                .runs
                .iter()
                .map(|r| r.trajectory.iter().map(f).collect())
                .collect()
        };
        d.set_item("gap", matrix(py, &rows(&|p| p.gap))?)?;
        d.set_item("max_gap", matrix(py, &rows(&|p| p.max_gap))?)?;
        d.set_item("mean_quantile", matrix(py, &rows(&|p| p.mean_quantile))?)?;
        let pots = PyDict::new(py);
        for (k, name) in self.out.potential_names.iter().enumerate() {
            pots.set_item(
                name,
                matrix(py, &rows(&|p| p.potentials[k].unwrap_or(f64::NAN)))?,
            )?;
        }
        d.set_item("potentials", pots)?;
        Ok(Some(d))
    }
    /// The final histograms (when recorded): per run (loads, bins) by increasing load.
    #[getter]
    fn histograms<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        if !self.plan.histogram {
            return Ok(None);
        }
        let l = PyList::empty(py);
        for r in &self.out.runs {
            let x: Vec<f64> = r.histogram.iter().map(|h| h.0).collect();
            let c: Vec<u64> = r.histogram.iter().map(|h| h.1).collect();
            l.append((convert::frozen(py, &x)?, convert::frozen(py, &c)?))?;
        }
        Ok(Some(l))
    }
    /// The JSON document of `balloc simulate --format json` as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::json(py, &sim::to_json(&self.out, &self.plan))
    }
    fn __repr__(&self) -> String {
        let g = self
            .out
            .summary
            .iter()
            .find(|s| s.0 == "final_gap")
            .map(|s| format!("{:.4} ± {:.4}", s.1.mean, s.1.stderr))
            .unwrap_or_default();
        format!(
            "Simulation(process={}, n={}, batch={}, runs={}, final_gap={g})",
            self.out.config["process"],
            self.out.config["n"],
            self.out.config["batch"],
            self.out.runs.len()
        )
    }
}

/// An integer argument of a flag, with a message naming the flag.
fn uint<T: for<'a, 'py> FromPyObject<'a, 'py>>(x: &Bound<'_, PyAny>, flag: &str) -> Result<T> {
    x.extract::<T>().map_err(|_| {
        anyhow::anyhow!(
            "invalid {flag}: expected a non-negative integer, got {}",
            x.repr().map(|r| r.to_string()).unwrap_or_default()
        )
    })
}

/// Runs `work` on a pool of `threads` threads (default: the global pool).
fn in_pool<T: Send>(threads: Option<usize>, work: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    match threads {
        None => work(),
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .context("cannot start the worker threads")?
            .install(work),
    }
}

/// Monte Carlo runs of `process` with `n` bins and `balls` balls a run, as `balloc simulate`:
/// per-run final gap `max xᵢ − W/n`, largest gap at an observation point, spread, mean quantile,
/// chosen potentials, and a summary of each with a Student-t interval at `confidence`.
///
/// `process` is a spec string or a `Process`; `batch` b ≥ 1 (b balls decided on the loads at the
/// start of each batch; 1 = sequential); `weights` a weight law; `runs` R ≥ 1; run i is seeded
/// from (configuration, `seed`, i), so the result depends on neither `threads` nor the machine.
/// `potentials`: specs (or `Potential`s) whose final values are recorded; `trajectory`: K > 0
/// checkpoints to record (rounded up to batch ends); `histogram`: record the final loads.
/// `progress`, if given, is called as `progress(done, R, "runs")` after each run. The GIL is
/// released; Ctrl-C stops before the next run.
///
/// Raises `BallocError` with the message of `balloc simulate` on bad input.
#[pyfunction]
#[pyo3(signature = (process, n, balls, *, batch=None, weights="unit", runs=None, seed=None,
    ties="random", potentials=Vec::new(), trajectory=0, histogram=false, confidence=0.95,
    threads=None, progress=None),
    text_signature = "(process, n, balls, *, batch=1, weights='unit', runs=10, seed=0, ties='random', potentials=(), trajectory=0, histogram=False, confidence=0.95, threads=None, progress=None)")]
#[allow(clippy::too_many_arguments)]
pub fn simulate(
    py: Python<'_>,
    process: &Bound<'_, PyAny>,
    n: &Bound<'_, PyAny>,
    balls: &Bound<'_, PyAny>,
    batch: Option<&Bound<'_, PyAny>>,
    weights: &str,
    runs: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    ties: &str,
    potentials: Vec<Bound<'_, PyAny>>,
    trajectory: usize,
    histogram: bool,
    confidence: f64,
    threads: Option<usize>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Simulation> {
    let req = (|| -> Result<SimulateRequest> {
        let mut a = SimulateArgs::new(uint(n, "--n")?, uint(balls, "--balls")?);
        if let Some(b) = batch {
            a.batch = uint(b, "--batch")?;
        }
        if let Some(r) = runs {
            a.runs = uint(r, "--runs")?;
        }
        if let Some(s) = seed {
            a.seed = uint(s, "--seed")?;
        }
        a.weights = weights.to_string();
        a.ties = ties.to_string();
        a.confidence = confidence;
        a.trajectory = trajectory;
        a.histogram = histogram;
        let process = match process.cast::<crate::registry::PyProcess>() {
            Ok(p) => p.get().inner.clone(),
            Err(_) => app::process(&crate::registry::spec_text(process, "--process")?)?,
        };
        let pots = potentials
            .iter()
            .map(|p| match p.cast::<crate::registry::PyPotential>() {
                Ok(pp) => Ok(pp.get().inner.clone()),
                Err(_) => app::potential(&crate::registry::spec_text(p, "--potential")?),
            })
            .collect::<Result<Vec<_>>>()?;
        SimulateRequest::new(process, pots, &a)
    })()
    .py_err()?;
    let p = Progress::new(progress.map(|c| c.unbind()), Some(req.plan.runs));
    let out = progress::run(py, &p, || -> Result<SimOutput> {
        in_pool(threads, || {
            req.run(&|| p.advance(1, "runs"), &|| p.stopped())
        })
    })?
    .py_err()?;
    let plan = req.plan;
    Ok(Simulation { out, plan })
}

/// The rows of a sweep (one per configuration and run) and its per-configuration summary.
///
/// `configs`: a list of dicts (process, n, batch, weights, ties, balls) in grid order. `runs`:
/// dict of numpy arrays, one entry per (configuration, run) in the order of the rows of
/// `balloc sweep`'s `PREFIX.csv`: `config`, `process`, `n`, `batch`, `weights`, `ties`,
/// `balls_target`, `run`, `seed`, `final_gap`, `max_gap`, `spread`, `balls`, `steps`,
/// `mean_quantile`. `summary`: dict of numpy arrays, one entry per configuration with runs, the
/// columns of `PREFIX.summary.csv` (`config`, ..., `runs`, `final_gap_mean`, `final_gap_stderr`,
/// `final_gap_ci_low`, `final_gap_ci_high`, the same for `max_gap`, `spread`, `mean_quantile`).
#[pyclass(frozen, module = "balloc")]
pub struct SweepResult {
    sweep: Sweep,
    rows: Vec<(usize, RunResult)>,
}

#[pymethods]
impl SweepResult {
    /// The configurations in grid order.
    #[getter]
    fn configs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let l = PyList::empty(py);
        for e in &self.sweep.entries {
            let mut m = e.config.describe();
            m.insert("balls".into(), serde_json::json!(e.balls));
            l.append(convert::json(py, &serde_json::Value::Object(m))?)?;
        }
        Ok(l)
    }
    /// The runs as columns (dict of numpy arrays).
    #[getter]
    fn runs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let e = |c: usize| &self.sweep.entries[c];
        let u = |f: &dyn Fn(usize, &RunResult) -> u64| -> Vec<u64> {
            self.rows.iter().map(|(c, r)| f(*c, r)).collect()
        };
        let x = |f: &dyn Fn(&RunResult) -> f64| -> Vec<f64> {
            self.rows.iter().map(|(_, r)| f(r)).collect()
        };
        let s = |f: &dyn Fn(usize) -> String| -> PyResult<Bound<'py, PyAny>> {
            convert::strings(py, self.rows.iter().map(|(c, _)| f(*c)).collect())
        };
        d.set_item("config", convert::frozen(py, &u(&|c, _| c as u64))?)?;
        d.set_item("process", s(&|c| e(c).config.process.spec())?)?;
        d.set_item("n", convert::frozen(py, &u(&|c, _| e(c).config.n as u64))?)?;
        d.set_item("batch", convert::frozen(py, &u(&|c, _| e(c).config.batch))?)?;
        d.set_item("weights", s(&|c| e(c).config.weights.spec())?)?;
        d.set_item("ties", s(&|c| e(c).config.ties.name().to_string())?)?;
        d.set_item("balls_target", convert::frozen(py, &u(&|c, _| e(c).balls))?)?;
        d.set_item("run", convert::frozen(py, &u(&|_, r| r.run))?)?;
        d.set_item("seed", convert::frozen(py, &u(&|_, r| r.seed))?)?;
        d.set_item("final_gap", convert::frozen(py, &x(&|r| r.final_gap))?)?;
        d.set_item("max_gap", convert::frozen(py, &x(&|r| r.max_gap))?)?;
        d.set_item("spread", convert::frozen(py, &x(&|r| r.spread))?)?;
        d.set_item("balls", convert::frozen(py, &u(&|_, r| r.balls))?)?;
        d.set_item("steps", convert::frozen(py, &u(&|_, r| r.steps))?)?;
        d.set_item(
            "mean_quantile",
            convert::frozen(py, &x(&|r| r.mean_quantile))?,
        )?;
        Ok(d)
    }
    /// The per-configuration summary as columns (dict of numpy arrays).
    #[getter]
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let mut cs: Vec<usize> = Vec::new();
        let mut est: Vec<Vec<(String, statistic::Estimate)>> = Vec::new();
        let mut counts: Vec<u64> = Vec::new();
        for c in 0..self.sweep.entries.len() {
            let runs: Vec<RunResult> = self
                .rows
                .iter()
                .filter(|d| d.0 == c)
                .map(|d| d.1.clone())
                .collect();
            if runs.is_empty() {
                continue;
            }
            cs.push(c);
            counts.push(runs.len() as u64);
            est.push(sim::summarise(&runs, self.sweep.confidence, 0).py_err()?);
        }
        let d = PyDict::new(py);
        let e = |c: usize| &self.sweep.entries[c];
        let u = |f: &dyn Fn(usize) -> u64| -> Vec<u64> { cs.iter().map(|c| f(*c)).collect() };
        d.set_item("config", convert::frozen(py, &u(&|c| c as u64))?)?;
        d.set_item(
            "process",
            convert::strings(py, cs.iter().map(|&c| e(c).config.process.spec()).collect())?,
        )?;
        d.set_item("n", convert::frozen(py, &u(&|c| e(c).config.n as u64))?)?;
        d.set_item("batch", convert::frozen(py, &u(&|c| e(c).config.batch))?)?;
        d.set_item(
            "weights",
            convert::strings(py, cs.iter().map(|&c| e(c).config.weights.spec()).collect())?,
        )?;
        d.set_item(
            "ties",
            convert::strings(
                py,
                cs.iter()
                    .map(|&c| e(c).config.ties.name().to_string())
                    .collect(),
            )?,
        )?;
        d.set_item("balls", convert::frozen(py, &u(&|c| e(c).balls))?)?;
        d.set_item("runs", convert::frozen(py, &counts)?)?;
        for q in ["final_gap", "max_gap", "spread", "mean_quantile"] {
            let pick = |g: &dyn Fn(&statistic::Estimate) -> f64| -> Vec<f64> {
                est.iter()
                    .map(|s| s.iter().find(|x| x.0 == q).map_or(f64::NAN, |x| g(&x.1)))
                    .collect()
            };
            d.set_item(
                format!("{q}_mean"),
                convert::frozen(py, &pick(&|e| e.mean))?,
            )?;
            d.set_item(
                format!("{q}_stderr"),
                convert::frozen(py, &pick(&|e| e.stderr))?,
            )?;
            d.set_item(
                format!("{q}_ci_low"),
                convert::frozen(py, &pick(&|e| e.ci_low))?,
            )?;
            d.set_item(
                format!("{q}_ci_high"),
                convert::frozen(py, &pick(&|e| e.ci_high))?,
            )?;
        }
        Ok(d)
    }
    /// The number of rows (configurations × runs in this shard).
    fn __len__(&self) -> usize {
        self.rows.len()
    }
    fn __repr__(&self) -> String {
        format!(
            "SweepResult(configs={}, runs_per_config={}, rows={})",
            self.sweep.entries.len(),
            self.sweep.runs,
            self.rows.len()
        )
    }
}

/// A Python value of a sweep grid as a TOML value (dicts, lists, tuples, numpy arrays, str,
/// bool, int, float).
fn toml_value(x: &Bound<'_, PyAny>, at: &str) -> Result<toml::Value> {
    if let Ok(d) = x.cast::<PyDict>() {
        let mut t = toml::Table::new();
        for (k, v) in d.iter() {
            let k: String = k.extract().map_err(|_| {
                anyhow::anyhow!("invalid sweep grid: a key of `{at}` is not a string")
            })?;
            let sub = if at.is_empty() {
                k.clone()
            } else {
                format!("{at}.{k}")
            };
            t.insert(k, toml_value(&v, &sub)?);
        }
        return Ok(toml::Value::Table(t));
    }
    if let Ok(s) = x.cast::<PyString>() {
        return Ok(toml::Value::String(s.to_cow()?.into_owned()));
    }
    if let Ok(b) = x.extract::<bool>()
        && x.is_instance_of::<pyo3::types::PyBool>()
    {
        return Ok(toml::Value::Boolean(b));
    }
    if let Ok(i) = x.extract::<i64>() {
        return Ok(toml::Value::Integer(i));
    }
    if let Ok(f) = x.extract::<f64>() {
        return Ok(toml::Value::Float(f));
    }
    let x = if x.hasattr("tolist")? {
        x.call_method0("tolist")?
    } else {
        x.clone()
    };
    if let Ok(it) = x.try_iter() {
        let mut a = Vec::new();
        for v in it {
            a.push(toml_value(&v?, at)?);
        }
        return Ok(toml::Value::Array(a));
    }
    bail!(
        "invalid sweep grid: `{at}` has a value of type {}",
        x.get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default()
    )
}

/// The sweep of a file path or of a dict with the fields of a sweep file.
fn sweep_arg(grid: &Bound<'_, PyAny>) -> Result<Sweep> {
    if grid.cast::<PyDict>().is_ok() {
        let mut t = match toml_value(grid, "")? {
            toml::Value::Table(t) => t,
            _ => unreachable!("a dict is a table"),
        };
        // Nothing is written; the output prefix only anchors file names.
        t.entry("output")
            .or_insert_with(|| toml::Value::String("sweep".into()));
        let text = toml::to_string(&t)?;
        return Ok(Sweep::parse(&text, Path::new("<grid>"))?);
    }
    let path: std::path::PathBuf = grid.extract().map_err(|_| {
        anyhow::anyhow!("invalid sweep: expected a dict with the fields of a sweep file, or a path")
    })?;
    Ok(Sweep::load(&path)?)
}

/// Runs a grid of configurations × runs, as `balloc sweep` does, and returns the rows in memory
/// (nothing is written).
///
/// `grid` is a sweep file (path) or a dict with its fields: `runs`, `seed` (default 0),
/// `confidence` (default 0.95), optionally `balls`, and `grid`: a dict of lists or numpy
/// arrays — `process`, `n`, `weights` (default `["unit"]`), `ties` (default `["random"]`),
/// `batch` or `batch_per_n` (b = k·n), and one of `balls`, `balls_per_n`, `batches`
/// (balls = batches·b). The grid is the Cartesian product, process outermost.
///
/// `shard`: `"i/k"` or `(i, k)` runs only the items numbered ≡ i (mod k) (item = config·runs +
/// run), exactly the rows of `balloc sweep --shard i/k`. Every run is seeded from (configuration,
/// seed, run index): the rows do not depend on `threads` or on the sharding. `progress` is called
/// as `progress(done, total, "runs")` after each run; Ctrl-C stops before the next run.
#[pyfunction]
#[pyo3(signature = (grid, *, shard=None, threads=None, progress=None))]
pub fn sweep(
    py: Python<'_>,
    grid: &Bound<'_, PyAny>,
    shard: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<SweepResult> {
    let (sw, shard) = (|| -> Result<(Sweep, Option<Shard>)> {
        let sw = sweep_arg(grid)?;
        let shard = match shard {
            None => None,
            Some(s) => Some(match s.extract::<(u64, u64)>() {
                Ok((i, k)) => Shard::parse(&format!("{i}/{k}"))?,
                Err(_) => Shard::parse(&crate::registry::spec_text(s, "--shard")?)?,
            }),
        };
        Ok((sw, shard))
    })()
    .py_err()?;
    let items = sw.items(shard);
    let p = Progress::new(progress.map(|c| c.unbind()), Some(items.len() as u64));
    let rows = progress::run(py, &p, || {
        in_pool(threads, || {
            Ok(sw.run_items(&items, &|k| p.advance(k, "runs"), &|| p.stopped())?)
        })
    })?
    .py_err()?;
    Ok(SweepResult { sweep: sw, rows })
}
