//! Allocation vectors by rank and the conditions C1 and C2 (Los–Sauerwald, *Balanced Allocations
//! in Batches*, SPAA 2022, §2.2):
//!
//! * **C1(δ, ε)**: `Σ_{i≤k} pᵢ ≤ (1 − ε)·k/n` for every `k ≤ δn`, and
//!   `Σ_{i≥k} pᵢ ≥ (1 + ε̃)·(n − k + 1)/n` for every `k > δn`, with `ε̃ = εδ/(1 − δ)`;
//!   the best ε is `ε*(δ) = min( min_{k≤δn} (1 − n·P_k/k), min_{k>δn} (n·S_k/(n−k+1) − 1)·(1 − δ)/δ )`
//!   (`P_k` the prefix sums, `S_k` the suffix sums of p);
//! * **C2(C)**: `max pᵢ ≤ C/n`; the smallest C is `C* = n·max pᵢ`.
//!
//! `pvec` is `balloc pvec` (the vector of a registered process, exact where it is rational);
//! `c1` and `c2` evaluate the conditions on any vector: exactly for `fractions.Fraction` or
//! `int` entries, in `f64` for floats and numpy arrays.

use crate::convert;
use crate::error::IntoPy;
use crate::registry::process_arg;
use anyhow::{Context, Result, bail};
use balloc::condition::{BestC, BestEps, best_c, best_eps, delta_n};
use balloc::exact::Q;
use balloc::limits;
use balloc::loads::{Ranking, TieRule};
use balloc::spec::{parse_f64, parse_ratio};
use num_traits::{One, Signed, ToPrimitive};
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyInt, PyString};
use serde_json::{Map, Value, json};

/// The best ε of condition C1(δ, ε) for an allocation vector p by rank (heaviest first):
/// `ε*(δ) = min( min_{k≤δn} (1 − n·P_k/k), min_{k>δn} (n·S_k/(n−k+1) − 1)·(1 − δ)/δ )`,
/// with `P_k = Σ_{i≤k} pᵢ` and `S_k = Σ_{i≥k} pᵢ`. C1(δ, ε) holds for every 0 < ε ≤ ε* and for
/// no ε > 0 when ε* ≤ 0.
///
/// `delta` (float), `delta_exact` (`Fraction`), `eps` (float), `eps_exact` (`Fraction` when the
/// vector is exact, else `None`), `witness_k` (the 1-based k attaining the minimum), `trust`.
#[pyclass(frozen, module = "balloc")]
pub struct C1 {
    delta: f64,
    delta_exact: Q,
    eps: f64,
    eps_exact: Option<Q>,
    witness_k: usize,
}

#[pymethods]
impl C1 {
    /// The quantile δ (float).
    #[getter]
    fn delta(&self) -> f64 {
        self.delta
    }
    /// The quantile δ as a `Fraction` (read exactly from its text).
    #[getter]
    fn delta_exact<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::fraction(py, &self.delta_exact)
    }
    /// ε*(δ) (float; the nearest f64 of `eps_exact` when exact).
    #[getter]
    fn eps(&self) -> f64 {
        self.eps
    }
    /// ε*(δ) as a `Fraction` when the vector is exact, else `None`.
    #[getter]
    fn eps_exact<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.eps_exact
            .as_ref()
            .map(|q| convert::fraction(py, q))
            .transpose()
    }
    /// The 1-based prefix/suffix index k attaining the minimum.
    #[getter]
    fn witness_k(&self) -> usize {
        self.witness_k
    }
    /// `exact` or `float`.
    #[getter]
    fn trust(&self) -> &'static str {
        if self.eps_exact.is_some() {
            "exact"
        } else {
            "float"
        }
    }
    /// The `c1` object of `balloc pvec --format json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::json(py, &self.json())
    }
    fn __repr__(&self) -> String {
        match &self.eps_exact {
            Some(q) => format!(
                "C1(delta={}, eps={q}, witness_k={}, trust='exact')",
                self.delta_exact, self.witness_k
            ),
            None => format!(
                "C1(delta={}, eps={}, witness_k={}, trust='float')",
                self.delta_exact, self.eps, self.witness_k
            ),
        }
    }
}

impl C1 {
    fn json(&self) -> Value {
        let mut m = Map::new();
        m.insert("delta".into(), json!(self.delta));
        m.insert("eps".into(), json!(self.eps));
        if let Some(x) = &self.eps_exact {
            m.insert("eps_exact".into(), json!(x.to_string()));
        }
        m.insert("witness_k".into(), json!(self.witness_k));
        Value::Object(m)
    }
}

/// The smallest C of condition C2(C) `max pᵢ ≤ C/n`: `C* = n·max pᵢ`.
///
/// `c` (float), `c_exact` (`Fraction` when the vector is exact, else `None`), `witness_i` (the
/// 1-based rank of the largest entry, the first if several), `trust`.
#[pyclass(frozen, module = "balloc")]
pub struct C2 {
    c: f64,
    c_exact: Option<Q>,
    witness_i: usize,
}

#[pymethods]
impl C2 {
    /// C* = n·max pᵢ (float).
    #[getter]
    fn c(&self) -> f64 {
        self.c
    }
    /// C* as a `Fraction` when the vector is exact, else `None`.
    #[getter]
    fn c_exact<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.c_exact
            .as_ref()
            .map(|q| convert::fraction(py, q))
            .transpose()
    }
    /// The 1-based rank of the largest entry.
    #[getter]
    fn witness_i(&self) -> usize {
        self.witness_i
    }
    /// `exact` or `float`.
    #[getter]
    fn trust(&self) -> &'static str {
        if self.c_exact.is_some() {
            "exact"
        } else {
            "float"
        }
    }
    /// The `c2` object of `balloc pvec --format json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::json(py, &self.json())
    }
    fn __repr__(&self) -> String {
        match &self.c_exact {
            Some(q) => format!("C2(c={q}, witness_i={}, trust='exact')", self.witness_i),
            None => format!(
                "C2(c={}, witness_i={}, trust='float')",
                self.c, self.witness_i
            ),
        }
    }
}

impl C2 {
    fn json(&self) -> Value {
        let mut m = Map::new();
        m.insert("c".into(), json!(self.c));
        if let Some(x) = &self.c_exact {
            m.insert("c_exact".into(), json!(x.to_string()));
        }
        m.insert("witness_i".into(), json!(self.witness_i));
        Value::Object(m)
    }
}

fn to_f(q: &Q) -> f64 {
    q.to_f64().unwrap_or(f64::NAN)
}

/// C1 from an exact or float vector.
enum Vector {
    Exact(Vec<Q>),
    Float(Vec<f64>),
}

fn c1_of(p: &Vector, n: usize, delta_text: &str) -> Result<C1> {
    let dr = parse_ratio(delta_text).map_err(|e| anyhow::anyhow!("invalid --delta: {e}"))?;
    let k = delta_n(n, &dr).context("--delta")?;
    let delta = parse_f64(delta_text).unwrap_or(f64::NAN);
    Ok(match p {
        Vector::Exact(pe) => {
            let BestEps { eps, witness_k, .. } = best_eps(pe, k)?;
            C1 {
                delta,
                delta_exact: dr,
                eps: to_f(&eps),
                eps_exact: Some(eps),
                witness_k,
            }
        }
        Vector::Float(pf) => {
            let BestEps { eps, witness_k, .. } = best_eps(pf, k)?;
            C1 {
                delta,
                delta_exact: dr,
                eps,
                eps_exact: None,
                witness_k,
            }
        }
    })
}

fn c2_of(p: &Vector) -> C2 {
    match p {
        Vector::Exact(pe) => {
            let BestC { c, witness_i } = best_c(pe);
            C2 {
                c: to_f(&c),
                c_exact: Some(c),
                witness_i,
            }
        }
        Vector::Float(pf) => {
            let BestC { c, witness_i } = best_c(pf);
            C2 {
                c,
                c_exact: None,
                witness_i,
            }
        }
    }
}

/// The text of a δ argument: a string as given, a `Fraction` as `a/b`, an `int`, or a float by
/// its shortest round-trip decimal (`0.1` is read as 1/10).
fn delta_text(d: &Bound<'_, PyAny>) -> Result<String> {
    if let Ok(s) = d.cast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    if d.cast::<PyInt>().is_ok() || d.cast::<PyFloat>().is_ok() {
        return Ok(d.repr()?.to_cow()?.into_owned());
    }
    if let Ok(q) = d.extract::<num_rational::BigRational>() {
        return Ok(q.to_string());
    }
    bail!(
        "invalid --delta: expected a number (str, Fraction, int or float), got {}",
        d.get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default()
    )
}

/// The allocation vector of a process by rank (heaviest first), as `balloc pvec` computes it.
///
/// `n`, `process` (canonical spec), `p` (numpy `float64` array, rank 1 first), `p_exact` (list
/// of `Fraction` when the vector is rational and n ≤ 20 000, else `None`), `expected_balls`
/// (expected balls by rank for processes that may place several balls in a step, else `None`),
/// `c1` (a `C1` when δ was given), `c2` (a `C2`), `trust` (`exact` or `float`).
///
/// `to_dict()` is the JSON document of `balloc pvec --format json`.
#[pyclass(frozen, module = "balloc")]
pub struct AllocationVector {
    n: usize,
    process: String,
    p: Vec<f64>,
    p_exact: Option<Vec<Q>>,
    expected_balls: Option<Vec<f64>>,
    c1: Option<Py<C1>>,
    c2: Py<C2>,
}

#[pymethods]
impl AllocationVector {
    /// The number of bins n.
    #[getter]
    fn n(&self) -> usize {
        self.n
    }
    /// The process's canonical spec.
    #[getter]
    fn process(&self) -> &str {
        &self.process
    }
    /// pᵢ by rank, heaviest first (read-only numpy array).
    #[getter]
    fn p<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::frozen(py, &self.p)
    }
    /// pᵢ as a list of `Fraction` when exact, else `None`.
    #[getter]
    fn p_exact<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.p_exact
            .as_ref()
            .map(|q| convert::fractions(py, q))
            .transpose()
    }
    /// Expected balls by rank (processes placing several balls a step), else `None`.
    #[getter]
    fn expected_balls<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.expected_balls
            .as_ref()
            .map(|b| convert::frozen(py, b))
            .transpose()
    }
    /// C1 with its best ε (when δ was given), else `None`.
    #[getter]
    fn c1(&self, py: Python<'_>) -> Option<Py<C1>> {
        self.c1.as_ref().map(|c| c.clone_ref(py))
    }
    /// C2 with its smallest C.
    #[getter]
    fn c2(&self, py: Python<'_>) -> Py<C2> {
        self.c2.clone_ref(py)
    }
    /// `exact` or `float`.
    #[getter]
    fn trust(&self) -> &'static str {
        if self.p_exact.is_some() {
            "exact"
        } else {
            "float"
        }
    }
    fn __len__(&self) -> usize {
        self.n
    }
    /// The JSON document of `balloc pvec --format json` as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut o = Map::new();
        o.insert("n".into(), json!(self.n));
        o.insert("process".into(), json!(self.process));
        o.insert("p".into(), json!(self.p));
        if let Some(pe) = &self.p_exact {
            let s: Vec<String> = pe.iter().map(|r| r.to_string()).collect();
            o.insert("p_exact".into(), json!(s));
        }
        if let Some(b) = &self.expected_balls {
            o.insert("expected_balls".into(), json!(b));
        }
        if let Some(c1) = &self.c1 {
            o.insert("c1".into(), c1.get().json());
        }
        o.insert("c2".into(), self.c2.get().json());
        o.insert("trust".into(), json!(self.trust()));
        convert::json(py, &Value::Object(o))
    }
    fn __repr__(&self) -> String {
        format!(
            "AllocationVector(process={:?}, n={}, trust={:?})",
            self.process,
            self.n,
            self.trust()
        )
    }
}

/// Per-bin values in rank order; under random tie-breaking every tied group's entries are
/// replaced by their average (ranks inside a tied group are uniform).
fn by_rank_with_ties(r: &Ranking, per_bin: &[Q], ties: TieRule) -> Vec<Q> {
    let mut p = r.by_rank(per_bin);
    if ties == TieRule::Random {
        for grp in &r.groups {
            let s: Q = p[grp.clone()].iter().sum();
            let avg = s / Q::from_integer(grp.len().into());
            p[grp.clone()].iter_mut().for_each(|v| *v = avg.clone());
        }
    }
    p
}

/// n, the vector by rank, its exact form, the expected balls by rank.
type Evaluated = (usize, Vec<f64>, Option<Vec<Q>>, Option<Vec<f64>>);

/// The allocation vector of `process` by rank (heaviest first): at `n` bins for a rank-based
/// process, or at the loads `loads` (the per-bin probabilities sorted by rank, for any process);
/// with `delta`, the best ε of C1(δ, ε); always the smallest C of C2(C).
///
/// Exact (`trust == "exact"`, `p_exact` a list of `Fraction`) for rank-based processes with an
/// exact allocation vector and for load-dependent processes with an exact one-ball law, n ≤
/// 20 000; `float` otherwise. `delta` is a string (`"1/2"`, `"0.25"`), a `Fraction`, an `int` or
/// a float read by its shortest decimal; δn must be an integer in 1..n.
///
/// Example: Two-Choice at n = 4 has p = (1, 3, 5, 7)/16; at δ = 1/2 the prefix terms are
/// 1 − 4·(1/16) = 3/4 and 1 − 4·(4/16)/2 = 1/2, the suffix terms 4·(12/16)/2 − 1 = 1/2 and
/// 4·(7/16) − 1 = 3/4, so ε* = 1/2 (witness k = 2), and C* = 4·7/16 = 7/4.
///
/// Raises `BallocError` with the message of `balloc pvec` on bad input.
#[pyfunction]
#[pyo3(signature = (process, n=None, *, loads=None, delta=None, ties="random"))]
pub fn pvec(
    py: Python<'_>,
    process: &Bound<'_, PyAny>,
    n: Option<&Bound<'_, PyAny>>,
    loads: Option<&Bound<'_, PyAny>>,
    delta: Option<&Bound<'_, PyAny>>,
    ties: &str,
) -> PyResult<AllocationVector> {
    let inputs = (|| -> Result<_> {
        let n = n
            .map(|n| {
                n.extract::<usize>().map_err(|_| {
                    anyhow::anyhow!(
                        "invalid --n: expected a non-negative integer, got {}",
                        n.repr().map(|r| r.to_string()).unwrap_or_default()
                    )
                })
            })
            .transpose()?;
        let delta = delta.map(delta_text).transpose()?;
        let proc_ = process_arg(process, "--process")?;
        let ties = TieRule::parse(ties).context("--ties")?;
        let loads = match (n, loads) {
            (Some(_), Some(_)) | (None, None) => {
                bail!("invalid arguments: give exactly one of --n N or --loads X1,...")
            }
            (_, Some(l)) => Some(crate::loads::arg(l)?),
            (Some(_), None) => None,
        };
        Ok((n, delta, proc_, ties, loads))
    })()
    .py_err()?;
    let (n, delta, proc_, ties, loads) = inputs;
    let x = loads.as_ref().map(|l| l.get());
    let (n, p, exact, balls, c1, c2) = py
        .detach(|| -> Result<_> {
            let (n, p, exact, balls): Evaluated = match (n, x) {
                (Some(n), None) => {
                    if n == 0 {
                        bail!("invalid --n: must be at least 1");
                    }
                    limits::BINS.check_usize("--n", n)?;
                    let Some(p) = proc_.rank_probabilities(n)? else {
                        bail!(
                            "invalid --n: {} is not rank-based; give --loads to evaluate it at a load vector",
                            proc_.spec()
                        );
                    };
                    let exact = if n <= limits::PVEC_EXACT_N {
                        proc_.rank_probabilities_exact(n)?
                    } else {
                        None
                    };
                    (n, p, exact, None)
                }
                (None, Some(loads)) => {
                    let law = proc_.step_law(loads, ties)?;
                    let r = loads.ranking();
                    let mut p = r.by_rank(&law.per_bin_probability());
                    let balls = (!law.is_unit()).then(|| r.by_rank(&law.per_bin_expected_balls()));
                    let exact = if loads.n() > limits::PVEC_EXACT_N {
                        None
                    } else if let Some(pe) = proc_.rank_probabilities_exact(loads.n())? {
                        Some(r.by_rank(&r.per_bin(&pe, ties)))
                    } else {
                        match proc_.step_law_exact(loads, ties)? {
                            Some(ex) if ex.is_unit() => {
                                let pe = by_rank_with_ties(&r, &ex.per_bin_probability(), ties);
                                p = pe.iter().map(to_f).collect();
                                Some(pe)
                            }
                            _ => None,
                        }
                    };
                    (loads.n(), p, exact, balls)
                }
                _ => unreachable!("checked above"),
            };
            let v = match &exact {
                Some(pe) => Vector::Exact(pe.clone()),
                None => Vector::Float(p.clone()),
            };
            let c1 = delta.as_deref().map(|d| c1_of(&v, n, d)).transpose()?;
            let c2 = c2_of(&v);
            Ok((n, p, exact, balls, c1, c2))
        })
        .py_err()?;
    Ok(AllocationVector {
        n,
        process: proc_.spec(),
        p,
        p_exact: exact,
        expected_balls: balls,
        c1: c1.map(|c| Py::new(py, c)).transpose()?,
        c2: Py::new(py, c2)?,
    })
}

/// An allocation vector argument: exact when every entry is an `int` or a `Fraction`, else
/// `f64`; validated as a probability vector (entries ≥ 0 summing to 1, exactly or to 1e-9).
fn vector_arg(p: &Bound<'_, PyAny>) -> Result<Vector> {
    let exact = if p.hasattr("dtype").unwrap_or(false) {
        None
    } else {
        p.extract::<Vec<Bound<'_, PyAny>>>().ok().and_then(|items| {
            items
                .iter()
                .all(|v| {
                    v.cast::<PyInt>().is_ok() || v.get_type().name().is_ok_and(|n| n == "Fraction")
                })
                .then(|| {
                    items
                        .iter()
                        .map(convert::rational)
                        .collect::<PyResult<Vec<_>>>()
                        .ok()
                })
                .flatten()
        })
    };
    let v = match exact {
        Some(q) => {
            if q.is_empty() {
                bail!("invalid p: the allocation vector is empty");
            }
            if let Some(i) = q.iter().position(|v| v.is_negative()) {
                bail!(
                    "invalid p: entry {} is {}, probabilities must be ≥ 0",
                    i + 1,
                    q[i]
                );
            }
            let s: Q = q.iter().sum();
            if !s.is_one() {
                bail!("invalid p: the entries sum to {s}, not 1");
            }
            Vector::Exact(q)
        }
        None => {
            let f = crate::loads::floats(p, "p")?;
            if f.is_empty() {
                bail!("invalid p: the allocation vector is empty");
            }
            if let Some(i) = f.iter().position(|v| !(v.is_finite() && *v >= 0.0)) {
                bail!(
                    "invalid p: entry {} is {}, probabilities must be finite and ≥ 0",
                    i + 1,
                    f[i]
                );
            }
            let s: f64 = f.iter().sum();
            if (s - 1.0).abs() > 1e-9 {
                bail!("invalid p: the entries sum to {s}, not 1 (within 1e-9)");
            }
            Vector::Float(f)
        }
    };
    let n = match &v {
        Vector::Exact(q) => q.len(),
        Vector::Float(f) => f.len(),
    };
    limits::BINS.check_usize("p", n)?;
    Ok(v)
}

/// Condition C1(δ, ε) on an allocation vector `p` by rank (heaviest first): the best ε,
/// `ε*(δ) = min( min_{k≤δn} (1 − n·P_k/k), min_{k>δn} (n·S_k/(n−k+1) − 1)·(1 − δ)/δ )`,
/// and the index k attaining it (Los–Sauerwald, SPAA 2022, §2.2).
///
/// `p` is a list of `Fraction`/`int` (exact: `eps_exact` is a `Fraction`) or of floats / a numpy
/// array (`f64`); it must be a probability vector. `delta` as for `pvec`; δn must be an integer
/// in 1..n.
///
/// Example: `c1([Fraction(1, 16), Fraction(3, 16), Fraction(5, 16), Fraction(7, 16)], "1/2")`
/// has ε* = 1/2 at k = 2 (see `pvec`).
#[pyfunction]
pub fn c1(p: &Bound<'_, PyAny>, delta: &Bound<'_, PyAny>) -> PyResult<C1> {
    (|| {
        let d = delta_text(delta)?;
        let v = vector_arg(p)?;
        let n = match &v {
            Vector::Exact(q) => q.len(),
            Vector::Float(f) => f.len(),
        };
        c1_of(&v, n, &d)
    })()
    .py_err()
}

/// Condition C2(C) `max pᵢ ≤ C/n` on an allocation vector `p`: the smallest C, `C* = n·max pᵢ`,
/// and the rank attaining it. `p` as for `c1`.
///
/// Example: `c2([0.25, 0.75])` has C* = 2·0.75 = 1.5 at rank 2.
#[pyfunction]
pub fn c2(p: &Bound<'_, PyAny>) -> PyResult<C2> {
    vector_arg(p).map(|v| c2_of(&v)).py_err()
}
