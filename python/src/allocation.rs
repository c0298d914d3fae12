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
use balloc::app::pvec::{C1Report, C2Report, PvecAt, PvecReport, Vector};
use balloc::exact::Q;
use balloc::limits;
use balloc::loads::TieRule;
use num_traits::{One, Signed};
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyInt, PyString};

/// The best ε of condition C1(δ, ε) for an allocation vector p by rank (heaviest first):
/// `ε*(δ) = min( min_{k≤δn} (1 − n·P_k/k), min_{k>δn} (n·S_k/(n−k+1) − 1)·(1 − δ)/δ )`,
/// with `P_k = Σ_{i≤k} pᵢ` and `S_k = Σ_{i≥k} pᵢ`. C1(δ, ε) holds for every 0 < ε ≤ ε* and for
/// no ε > 0 when ε* ≤ 0.
///
/// `delta` (float), `delta_exact` (`Fraction`), `eps` (float), `eps_exact` (`Fraction` when the
/// vector is exact, else `None`), `witness_k` (the 1-based k attaining the minimum), `trust`.
#[pyclass(frozen, module = "balloc")]
pub struct C1 {
    r: C1Report,
}

#[pymethods]
impl C1 {
    /// The quantile δ (float).
    #[getter]
    fn delta(&self) -> f64 {
        self.r.delta
    }
    /// The quantile δ as a `Fraction` (read exactly from its text).
    #[getter]
    fn delta_exact<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::fraction(py, &self.r.delta_exact)
    }
    /// ε*(δ) (float; the nearest f64 of `eps_exact` when exact).
    #[getter]
    fn eps(&self) -> f64 {
        self.r.eps
    }
    /// ε*(δ) as a `Fraction` when the vector is exact, else `None`.
    #[getter]
    fn eps_exact<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.r
            .eps_exact
            .as_ref()
            .map(|q| convert::fraction(py, q))
            .transpose()
    }
    /// The 1-based prefix/suffix index k attaining the minimum.
    #[getter]
    fn witness_k(&self) -> usize {
        self.r.witness_k
    }
    /// `exact` or `float`.
    #[getter]
    fn trust(&self) -> &'static str {
        if self.r.eps_exact.is_some() {
            "exact"
        } else {
            "float"
        }
    }
    /// The `c1` object of `balloc pvec --format json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::json(py, &self.r.to_json())
    }
    fn __repr__(&self) -> String {
        match &self.r.eps_exact {
            Some(q) => format!(
                "C1(delta={}, eps={q}, witness_k={}, trust='exact')",
                self.r.delta_exact, self.r.witness_k
            ),
            None => format!(
                "C1(delta={}, eps={}, witness_k={}, trust='float')",
                self.r.delta_exact, self.r.eps, self.r.witness_k
            ),
        }
    }
}

/// The smallest C of condition C2(C) `max pᵢ ≤ C/n`: `C* = n·max pᵢ`.
///
/// `c` (float), `c_exact` (`Fraction` when the vector is exact, else `None`), `witness_i` (the
/// 1-based rank of the largest entry, the first if several), `trust`.
#[pyclass(frozen, module = "balloc")]
pub struct C2 {
    r: C2Report,
}

#[pymethods]
impl C2 {
    /// C* = n·max pᵢ (float).
    #[getter]
    fn c(&self) -> f64 {
        self.r.c
    }
    /// C* as a `Fraction` when the vector is exact, else `None`.
    #[getter]
    fn c_exact<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.r
            .c_exact
            .as_ref()
            .map(|q| convert::fraction(py, q))
            .transpose()
    }
    /// The 1-based rank of the largest entry.
    #[getter]
    fn witness_i(&self) -> usize {
        self.r.witness_i
    }
    /// `exact` or `float`.
    #[getter]
    fn trust(&self) -> &'static str {
        if self.r.c_exact.is_some() {
            "exact"
        } else {
            "float"
        }
    }
    /// The `c2` object of `balloc pvec --format json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::json(py, &self.r.to_json())
    }
    fn __repr__(&self) -> String {
        match &self.r.c_exact {
            Some(q) => format!("C2(c={q}, witness_i={}, trust='exact')", self.r.witness_i),
            None => format!(
                "C2(c={}, witness_i={}, trust='float')",
                self.r.c, self.r.witness_i
            ),
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
    r: PvecReport,
    c1: Option<Py<C1>>,
    c2: Py<C2>,
}

#[pymethods]
impl AllocationVector {
    /// The number of bins n.
    #[getter]
    fn n(&self) -> usize {
        self.r.n
    }
    /// The process's canonical spec.
    #[getter]
    fn process(&self) -> &str {
        &self.r.process
    }
    /// pᵢ by rank, heaviest first (read-only numpy array).
    #[getter]
    fn p<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::frozen(py, &self.r.p)
    }
    /// pᵢ as a list of `Fraction` when exact, else `None`.
    #[getter]
    fn p_exact<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.r
            .p_exact
            .as_ref()
            .map(|q| convert::fractions(py, q))
            .transpose()
    }
    /// Expected balls by rank (processes placing several balls a step), else `None`.
    #[getter]
    fn expected_balls<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.r
            .expected_balls
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
        self.r.trust()
    }
    fn __len__(&self) -> usize {
        self.r.n
    }
    /// The JSON document of `balloc pvec --format json` as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::json(py, &self.r.to_json())
    }
    fn __repr__(&self) -> String {
        format!(
            "AllocationVector(process={:?}, n={}, trust={:?})",
            self.r.process,
            self.r.n,
            self.trust()
        )
    }
}

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
    let r = py
        .detach(|| -> Result<_> {
            let at = match (n, x) {
                (Some(n), None) => PvecAt::Bins(n),
                (None, Some(loads)) => PvecAt::Loads(loads),
                _ => unreachable!("checked above"),
            };
            PvecReport::new(proc_.as_ref(), at, ties, delta.as_deref())
        })
        .py_err()?;
    Ok(AllocationVector {
        c1: r.c1.clone().map(|c| Py::new(py, C1 { r: c })).transpose()?,
        c2: Py::new(py, C2 { r: r.c2.clone() })?,
        r,
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
    limits::BINS.check_usize("p", v.len())?;
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
    (|| -> Result<C1> {
        let d = delta_text(delta)?;
        let v = vector_arg(p)?;
        Ok(C1 {
            r: C1Report::of(&v, &d)?,
        })
    })()
    .py_err()
}

/// Condition C2(C) `max pᵢ ≤ C/n` on an allocation vector `p`: the smallest C, `C* = n·max pᵢ`,
/// and the rank attaining it. `p` as for `c1`.
///
/// Example: `c2([0.25, 0.75])` has C* = 2·0.75 = 1.5 at rank 2.
#[pyfunction]
pub fn c2(p: &Bound<'_, PyAny>) -> PyResult<C2> {
    vector_arg(p)
        .map(|v| C2 {
            r: C2Report::of(&v),
        })
        .py_err()
}
