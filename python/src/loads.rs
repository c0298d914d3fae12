//! Load vectors `x ∈ ℝⁿ` from Python: numpy arrays, sequences of numbers, the command line's
//! text (`"3,0,1,0"`, or `"@FILE"` for a file of numbers separated by commas or white space), or
//! a `Loads` object built once and passed to many calls without another copy.
//!
//! Validation and messages are those of `--loads`: non-empty, every entry finite and within
//! ±f64::MAX/2, the total finite, at most `limits::BINS` bins.

use crate::convert;
use crate::error::IntoPy;
use anyhow::{Context, Result};
use balloc::limits;
use balloc::loads::Loads;
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// A validated load vector `x = (x₁, …, xₙ)` (bins in any order; ranks are heaviest first).
///
/// `Loads(x)` takes a numpy array, a sequence of numbers or the command line's text
/// (`"3,0,1,0"`, `"@loads.txt"`) and copies it once; every function that takes loads accepts a
/// `Loads` without copying again. Total `W = Σ xᵢ`, normalised loads `yᵢ = xᵢ − W/n`
/// (`Σ yᵢ = 0`), gap `max xᵢ − W/n`, spread `max xᵢ − min xᵢ`.
///
/// `np.asarray(loads)` gives the loads as a read-only `float64` array.
#[pyclass(frozen, name = "Loads", module = "balloc")]
pub struct PyLoads {
    /// The loads.
    pub inner: Loads,
}

#[pymethods]
impl PyLoads {
    #[new]
    fn new(x: &Bound<'_, PyAny>) -> PyResult<PyLoads> {
        Ok(PyLoads {
            inner: owned(x).py_err()?,
        })
    }

    /// The number of bins n.
    #[getter]
    fn n(&self) -> usize {
        self.inner.n()
    }

    /// The total load W = Σ xᵢ.
    #[getter]
    fn total(&self) -> f64 {
        self.inner.total()
    }

    /// The mean load W/n.
    #[getter]
    fn mean(&self) -> f64 {
        self.inner.mean()
    }

    /// The gap max xᵢ − W/n.
    #[getter]
    fn gap(&self) -> f64 {
        self.inner.gap()
    }

    /// The spread max xᵢ − min xᵢ.
    #[getter]
    fn spread(&self) -> f64 {
        self.inner.spread()
    }

    /// The normalised loads yᵢ = xᵢ − W/n as a new numpy array.
    fn normalized<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::array(py, &self.inner.normalized())
    }

    /// The loads as a new numpy array.
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::array(py, self.inner.as_slice())
    }

    #[pyo3(signature = (dtype=None, copy=None))]
    fn __array__<'py>(
        &self,
        py: Python<'py>,
        dtype: Option<Bound<'py, PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = copy;
        let a = convert::frozen(py, self.inner.as_slice())?;
        match dtype {
            Some(d) => a.call_method1("astype", (d,)),
            None => Ok(a),
        }
    }

    fn __len__(&self) -> usize {
        self.inner.n()
    }

    fn __repr__(&self) -> String {
        let x = self.inner.as_slice();
        let head: Vec<String> = x.iter().take(8).map(|v| format!("{v}")).collect();
        let more = if x.len() > 8 { ", …" } else { "" };
        format!("Loads([{}{more}], n={})", head.join(", "), x.len())
    }
}

/// A load vector argument: borrowed from a `Loads` object or converted (copied) from anything
/// else.
pub enum LoadsArg<'py> {
    /// A `Loads` object (no copy).
    Shared(Bound<'py, PyLoads>),
    /// Converted from an array, a sequence or text.
    Owned(Loads),
}

impl LoadsArg<'_> {
    /// The loads.
    pub fn get(&self) -> &Loads {
        match self {
            LoadsArg::Shared(b) => &b.get().inner,
            LoadsArg::Owned(l) => l,
        }
    }
}

/// The loads of a function argument (messages of `--loads`).
pub fn arg<'py>(x: &Bound<'py, PyAny>) -> Result<LoadsArg<'py>> {
    if let Ok(l) = x.cast::<PyLoads>() {
        return Ok(LoadsArg::Shared(l.clone()));
    }
    Ok(LoadsArg::Owned(owned(x)?))
}

/// Converts and validates loads (a copy), with the messages of `--loads`.
pub fn owned(x: &Bound<'_, PyAny>) -> Result<Loads> {
    if let Ok(l) = x.cast::<PyLoads>() {
        return Ok(l.get().inner.clone());
    }
    let loads = if let Ok(s) = x.cast::<PyString>() {
        read_text(&s.to_cow()?)?
    } else {
        Loads::new(floats(x, "loads")?).context("--loads")?
    };
    limits::BINS.check_usize("--loads", loads.n())?;
    Ok(loads)
}

/// The command line's `--loads` text: numbers separated by commas or white space, or `@FILE`
/// ([`balloc::app::loads::read_loads`]).
fn read_text(arg: &str) -> Result<Loads> {
    balloc::app::loads::read_loads(arg)
}

/// A one-dimensional vector of `f64` from a numpy array (any dtype numpy can cast to `float64`,
/// any stride), any object with the buffer protocol, or a sequence of numbers; `what` names it in
/// errors (`--what: invalid what: …`).
pub fn floats(x: &Bound<'_, PyAny>, what: &str) -> Result<Vec<f64>> {
    let py = x.py();
    let bad = |why: String| anyhow::anyhow!("--{what}: invalid {what}: {why}");
    // Integer arrays (the usual loads) are converted while copying, without a float64 copy.
    if let Ok(b) = PyBuffer::<i64>::get(x)
        && b.dimensions() == 1
    {
        return Ok(b.to_vec(py)?.into_iter().map(|v| v as f64).collect());
    }
    let buf = match PyBuffer::<f64>::get(x) {
        Ok(b) => b,
        Err(_) => {
            let np = py.import("numpy").map_err(|e| bad(e.to_string()))?;
            let a = np
                .call_method1("asarray", (x, "float64"))
                .map_err(|e| bad(format!("not an array of numbers ({e})")))?;
            PyBuffer::<f64>::get(&a).map_err(|e| bad(format!("not an array of numbers ({e})")))?
        }
    };
    if buf.dimensions() != 1 {
        return Err(bad(format!(
            "expected a one-dimensional array, got shape {:?}",
            buf.shape()
        )));
    }
    Ok(buf.to_vec(py)?)
}
