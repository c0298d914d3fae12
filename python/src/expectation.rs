//! `expect`: the exact expectation of a potential after one step or one batch,
//! `E[P(next) | x]` and `E[P(next) − P(x) | x]`, with its trust level.
//!
//! The same computation as `balloc expect`: the `f64` closed form (or enumeration) of
//! `balloc::expectation::expect`, values beyond f64 kept in the log domain; for n ≤ 20 000 the
//! certified route of `balloc::certify_expectation`: exact rationals for Υ and Δ (returned as
//! `fractions.Fraction`), outward-rounded enclosures (128 bits) for Φ, Ψ, Γ.

use crate::convert;
use crate::error::{IntoPy, to_py};
use crate::registry::{potential_arg, process_arg};
use anyhow::Result;
use balloc::app::expect::{ExpectReport, ExpectRequest};
use balloc::expectation::CERTIFY_LIMIT;
use balloc::limits;
use balloc::loads::{Levels, Loads};
use balloc::xfloat::XFloat;
use pyo3::prelude::*;

/// The expectation of a potential P after one step (or one batch) at a load vector x.
///
/// * `value` = P(x), `expected_next` = E[P(next) | x], `expected_change` = E[P(next) − P(x) | x]:
///   `float`, or `None` when beyond the range of f64 (then `log_value`, `log_expected_next`,
///   `log_abs_expected_change` and `expected_change_sign` hold it in the log domain);
/// * `trust`: `"exact"` (rational arithmetic: `value_exact`, `expected_next_exact`,
///   `expected_change_exact` are `fractions.Fraction`, and the floats are their nearest f64),
///   `"enclosure"` (`*_enclosure` are `(lo, hi)` bounds of outward-rounded intervals of
///   `precision_bits` bits) or `"float"` (f64 closed form or enumeration, `method`).
///
/// `to_dict()` is the JSON document of `balloc expect --format json`.
#[pyclass(frozen, module = "balloc")]
pub struct Expectation {
    report: ExpectReport,
}

impl Expectation {
    fn reported(&self, i: usize) -> XFloat {
        self.report.reported(i)
    }

    fn exact<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.report
            .exact(i)
            .map(|q| convert::fraction(py, q))
            .transpose()
    }
}

#[pymethods]
impl Expectation {
    /// The number of bins n.
    #[getter]
    fn n(&self) -> usize {
        self.report.n
    }
    /// The process's canonical spec.
    #[getter]
    fn process(&self) -> &str {
        &self.report.process
    }
    /// The potential's canonical spec.
    #[getter]
    fn potential(&self) -> &str {
        &self.report.potential
    }
    /// The weight law's spec.
    #[getter]
    fn weights(&self) -> &str {
        &self.report.weights
    }
    /// The batch size b.
    #[getter]
    fn batch(&self) -> u64 {
        self.report.batch
    }
    /// The tie rule (`random` or `fixed`).
    #[getter]
    fn ties(&self) -> &'static str {
        self.report.ties
    }
    /// The f64 route: `closed-form` or `enumeration`.
    #[getter]
    fn method(&self) -> &'static str {
        self.report.method
    }
    /// The trust level: `exact`, `enclosure` or `float`.
    #[getter]
    fn trust(&self) -> &'static str {
        self.report.trust()
    }
    /// P(x) (`None` beyond the range of f64).
    #[getter]
    fn value(&self) -> Option<f64> {
        self.reported(0).to_f64_checked()
    }
    /// E[P(next) | x] (`None` beyond the range of f64).
    #[getter]
    fn expected_next(&self) -> Option<f64> {
        self.reported(1).to_f64_checked()
    }
    /// E[P(next) − P(x) | x] (`None` beyond the range of f64).
    #[getter]
    fn expected_change(&self) -> Option<f64> {
        self.reported(2).to_f64_checked()
    }
    /// ln P(x).
    #[getter]
    fn log_value(&self) -> f64 {
        self.reported(0).ln_abs()
    }
    /// ln E[P(next) | x].
    #[getter]
    fn log_expected_next(&self) -> f64 {
        self.reported(1).ln_abs()
    }
    /// ln |E[P(next) − P(x) | x]|.
    #[getter]
    fn log_abs_expected_change(&self) -> f64 {
        self.reported(2).ln_abs()
    }
    /// The sign of E[P(next) − P(x) | x] (−1, 0 or 1).
    #[getter]
    fn expected_change_sign(&self) -> f64 {
        self.reported(2).signum()
    }
    /// P(x) as a `Fraction` when the trust level is `exact`, else `None`.
    #[getter]
    fn value_exact<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.exact(py, 0)
    }
    /// E[P(next) | x] as a `Fraction` when the trust level is `exact`, else `None`.
    #[getter]
    fn expected_next_exact<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.exact(py, 1)
    }
    /// E[P(next) − P(x) | x] as a `Fraction` when the trust level is `exact`, else `None`.
    #[getter]
    fn expected_change_exact<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.exact(py, 2)
    }
    /// `(lo, hi)` with lo ≤ P(x) ≤ hi when the trust level is `enclosure`, else `None`.
    #[getter]
    fn value_enclosure(&self) -> Option<(f64, f64)> {
        self.report.enclosure(0)
    }
    /// `(lo, hi)` around E[P(next) | x] when the trust level is `enclosure`, else `None`.
    #[getter]
    fn expected_next_enclosure(&self) -> Option<(f64, f64)> {
        self.report.enclosure(1)
    }
    /// `(lo, hi)` around E[P(next) − P(x) | x] when the trust level is `enclosure`, else `None`.
    #[getter]
    fn expected_change_enclosure(&self) -> Option<(f64, f64)> {
        self.report.enclosure(2)
    }
    /// The working precision of the enclosures in bits (`None` unless `enclosure`).
    #[getter]
    fn precision_bits(&self) -> Option<u64> {
        self.report.precision_bits()
    }
    /// The JSON document of `balloc expect --format json` as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::json(py, &self.report.to_json())
    }
    fn __repr__(&self) -> String {
        let show = |i: usize| match self.report.exact(i) {
            Some(q) => q.to_string(),
            None => match self.reported(i).to_f64_checked() {
                Some(x) => format!("{x:e}"),
                None => format!("exp({})", self.reported(i).ln_abs()),
            },
        };
        format!(
            "Expectation(n={}, process={:?}, potential={:?}, value={}, expected_next={}, expected_change={}, trust={:?})",
            self.report.n,
            self.report.process,
            self.report.potential,
            show(0),
            show(1),
            show(2),
            self.report.trust()
        )
    }
}

/// A batch size argument: a non-negative integer (0 is rejected by the setting, with the
/// command line's message).
pub fn batch_arg(x: &Bound<'_, PyAny>, flag: &str) -> Result<u64> {
    x.extract::<u64>().map_err(|_| {
        anyhow::anyhow!(
            "invalid {flag}: expected a non-negative integer, got {}",
            x.repr().map(|r| r.to_string()).unwrap_or_default()
        )
    })
}

/// The validated request of `expect`.
fn args(
    process: &Bound<'_, PyAny>,
    potential: &Bound<'_, PyAny>,
    weights: &str,
    batch: &Bound<'_, PyAny>,
    ties: &str,
) -> Result<ExpectRequest> {
    let batch = batch_arg(batch, "--batch")?;
    let process = process_arg(process, "--process")?;
    let (potential, potential_text) = potential_arg(potential, "--potential")?;
    ExpectRequest::new(process, potential, &potential_text, weights, batch, ties)
}

/// The loads of an integer-valued array (int64, or float64 with integer entries) counted by
/// value straight from its buffer (no vector of n loads), when no certified values are asked
/// for: the route of `balloc expect --loads @FILE`.
/// `None` sends the call down the ordinary route (which also gives every error message).
fn counted(x: &Bound<'_, PyAny>, certify: bool) -> Option<Levels> {
    if x.cast::<crate::loads::PyLoads>().is_ok() || x.cast::<pyo3::types::PyString>().is_ok() {
        return None;
    }
    let skip = |n: usize| (certify && n <= CERTIFY_LIMIT) || n as u64 > limits::BINS.max;
    if let Ok(buf) = pyo3::buffer::PyBuffer::<i64>::get(x) {
        let cells = buf.as_slice(x.py()).filter(|_| buf.dimensions() == 1)?;
        return if skip(cells.len()) {
            None
        } else {
            // `v as f64` is numpy's conversion to float64: the levels of `x.astype(float)`.
            Levels::of_integral(cells.iter().map(|c| c.get() as f64))
        };
    }
    // Float arrays whose entries are all integers (the usual loads) are counted as well.
    let buf = pyo3::buffer::PyBuffer::<f64>::get(x).ok()?;
    let cells = buf.as_slice(x.py()).filter(|_| buf.dimensions() == 1)?;
    if skip(cells.len()) {
        return None;
    }
    Levels::of_integral(cells.iter().map(|c| c.get()))
}

/// The expectation of potential P after one step (or one batch of `batch` balls) of `process`
/// at the loads `x`: P(x), E[P(next) | x] and E[P(next) − P(x) | x], with its trust level.
///
/// `process` and `potential` are spec strings or `Process` / `Potential` objects; `loads` a
/// numpy array, a sequence, the command line's text (`"3,0,1,0"`, `"@FILE"`) or a `Loads`.
/// `weights` is a weight law (`"unit"`, `"exp(1)"`, `"geometric(mean=1)"`, ...), `ties`
/// `"random"` or `"fixed"`. For n ≤ 20 000 and `certify=True` the values are certified where
/// a certified route exists: exact rationals for Υ and Δ, enclosures for Φ, Ψ, Γ.
///
/// Example: Two-Choice, Υ = Σ yᵢ², x = (3, 0, 1, 0): y = (2, −1, 0, −1), Υ = 6; the ball goes
/// to ranks 1..4 with probabilities (1, 3, 5, 7)/16, the two empty bins tied at 6/16 each, and
/// Υ' = Υ + 2y_J + 1 − 1/n, so E[Υ'] = 6 + 2·(−5/8) + 3/4 = 11/2 (`expected_next_exact`).
///
/// Raises `BallocError` (a `ValueError`) with the message of `balloc expect` on bad input.
/// The GIL is released during the computation.
#[pyfunction]
#[pyo3(signature = (process, potential, loads, *, weights="unit", batch=None, ties="random", certify=true),
    text_signature = "(process, potential, loads, *, weights='unit', batch=1, ties='random', certify=True)")]
#[allow(clippy::too_many_arguments)]
pub fn expect(
    py: Python<'_>,
    process: &Bound<'_, PyAny>,
    potential: &Bound<'_, PyAny>,
    loads: &Bound<'_, PyAny>,
    weights: &str,
    batch: Option<&Bound<'_, PyAny>>,
    ties: &str,
    certify: bool,
) -> PyResult<Expectation> {
    let one = 1u64.into_pyobject(py)?.into_any();
    let a = args(process, potential, weights, batch.unwrap_or(&one), ties).py_err()?;
    if let Some(levels) = counted(loads, certify) {
        let e = py.detach(|| a.expectation_at_levels(&levels)).py_err()?;
        if let Some(e) = e {
            let report = a.report(e, None).map_err(to_py)?;
            return Ok(Expectation { report });
        }
    }
    let x = crate::loads::arg(loads).py_err()?;
    let x: &Loads = x.get();
    let report = py.detach(|| a.at(x, certify)).map_err(to_py)?;
    Ok(Expectation { report })
}

/// Times the library call `balloc::expectation::expect` inside Rust (unit weights, b = 1, random
/// ties): the seconds of each of `repeats` calls, the process and potential parsed and the loads
/// converted once, before timing. With `from_vec`, each timed call also builds the `Loads` from
/// an owned `Vec<f64>` (what a Rust caller holding the numbers pays). For the overhead figures
/// of `BENCHMARKS.md`.
#[pyfunction]
#[pyo3(signature = (process, potential, loads, repeats, *, from_vec=false))]
pub fn _time_expect(
    py: Python<'_>,
    process: &Bound<'_, PyAny>,
    potential: &Bound<'_, PyAny>,
    loads: &Bound<'_, PyAny>,
    repeats: usize,
    from_vec: bool,
) -> PyResult<Vec<f64>> {
    let one = 1u64.into_pyobject(py)?.into_any();
    let a = args(process, potential, "unit", &one, "random").py_err()?;
    let x = crate::loads::arg(loads).py_err()?;
    let x: &Loads = x.get();
    py.detach(|| {
        let mut times = Vec::with_capacity(repeats);
        for _ in 0..repeats {
            let v = x.as_slice().to_vec();
            let t = std::time::Instant::now();
            let r = if from_vec {
                Loads::new(v).and_then(|l| {
                    balloc::expectation::expect(
                        a.process.as_ref(),
                        a.potential.as_ref(),
                        &l,
                        &a.setting,
                    )
                })
            } else {
                balloc::expectation::expect(a.process.as_ref(), a.potential.as_ref(), x, &a.setting)
            };
            times.push(t.elapsed().as_secs_f64());
            std::hint::black_box(r).map_err(anyhow::Error::from)?;
        }
        Ok(times)
    })
    .map_err(to_py)
}
