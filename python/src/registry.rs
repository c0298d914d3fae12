//! Processes, potentials and weight laws: the registries of the library as Python objects.
//!
//! Functions take a process or potential either as a spec string (`"two-choice"`,
//! `"d-choice(d=3)"`, `"gamma(alpha=0.5)"`) or as a `Process` / `Potential` object parsed once.
//! A spec string given to a function is checked with the message of the command line's flag
//! (`--process: unknown process ...`).

use crate::convert;
use crate::error::IntoPy;
use anyhow::{Context, Result};
use balloc::loads::Loads;
use balloc::potential::{self, Potential};
use balloc::process::{self, Process};
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::sync::Arc;

/// An allocation process, parsed from its spec string, e.g. `Process("two-choice")`,
/// `Process("d-choice(d=3)")`, `Process("one-plus-beta(beta=0.5)")`.
///
/// Ranks are heaviest first: the allocation vector `p` of a rank-based process gives `pᵢ`, the
/// probability that a ball goes to the bin of rank `i` (One-Choice `pᵢ = 1/n`, d-Choice
/// `pᵢ = (iᵈ − (i−1)ᵈ)/nᵈ`).
#[pyclass(frozen, name = "Process", module = "balloc")]
pub struct PyProcess {
    /// The process.
    pub inner: Arc<dyn Process>,
}

#[pymethods]
impl PyProcess {
    #[new]
    fn new(spec: &str) -> PyResult<PyProcess> {
        Ok(PyProcess {
            inner: Arc::from(process::parse_with(spec, &balloc::input::Dir::current()).py_err()?),
        })
    }

    /// The canonical spec string with every parameter.
    #[getter]
    fn spec(&self) -> String {
        self.inner.spec()
    }

    /// The registered name.
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.info().name
    }

    /// Whether the allocation vector depends on ranks only.
    #[getter]
    fn rank_based(&self) -> bool {
        self.inner.info().rank_based
    }

    /// A one-line definition with the formula.
    #[getter]
    fn summary(&self) -> &'static str {
        self.inner.info().summary
    }

    /// The paper reference.
    #[getter]
    fn reference(&self) -> &'static str {
        self.inner.info().reference
    }

    /// The allocation vector by rank (heaviest first) at `n` bins, as a numpy array; `None` for
    /// a process whose probabilities depend on the loads (use `pvec(process, loads=x)`).
    fn allocation_vector<'py>(
        &self,
        py: Python<'py>,
        n: usize,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let p = self.inner.rank_probabilities(n).py_err()?;
        p.map(|p| convert::array(py, &p)).transpose()
    }

    fn __repr__(&self) -> String {
        format!("Process({:?})", self.inner.spec())
    }
}

/// A potential function, parsed from its spec string, e.g. `Potential("gamma(alpha=0.5)")`.
///
/// With `yᵢ = xᵢ − W/n` and α > 0: `Φ = Σ e^{α yᵢ}` (`phi`), `Ψ = Σ e^{−α yᵢ}` (`psi`),
/// `Γ = Φ + Ψ` (`gamma`), `Υ = Σ yᵢ²` (`quadratic`), `Δ = Σ |yᵢ|` (`absolute`); `potentials()`
/// lists every registered one.
#[pyclass(frozen, name = "Potential", module = "balloc")]
pub struct PyPotential {
    /// The potential.
    pub inner: Arc<dyn Potential>,
    /// The spec text it was parsed from (its parameters are read exactly from it).
    pub text: String,
}

#[pymethods]
impl PyPotential {
    #[new]
    fn new(spec: &str) -> PyResult<PyPotential> {
        Ok(PyPotential {
            inner: Arc::from(potential::parse(spec).py_err()?),
            text: spec.to_string(),
        })
    }

    /// The canonical spec string.
    #[getter]
    fn spec(&self) -> String {
        self.inner.spec()
    }

    /// The registered name.
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.info().name
    }

    /// The definition.
    #[getter]
    fn summary(&self) -> &'static str {
        self.inner.info().summary
    }

    /// The value of the potential at the loads `x` (`float`; `inf` beyond the range of f64).
    fn value(&self, py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<f64> {
        let x = crate::loads::arg(x).py_err()?;
        let x: &Loads = x.get();
        let v = py.detach(|| self.inner.value(x));
        Ok(v.to_f64_checked().unwrap_or(f64::INFINITY))
    }

    fn __repr__(&self) -> String {
        format!("Potential({:?})", self.inner.spec())
    }
}

/// A process argument: a `Process` or a spec string (message of `flag` on error).
pub fn process_arg(x: &Bound<'_, PyAny>, flag: &str) -> Result<Arc<dyn Process>> {
    if let Ok(p) = x.cast::<PyProcess>() {
        return Ok(p.get().inner.clone());
    }
    let s = spec_text(x, flag)?;
    Ok(Arc::from(
        process::parse_with(&s, &balloc::input::Dir::current()).context(flag.to_string())?,
    ))
}

/// A potential argument: a `Potential` or a spec string, with the spec text (message of `flag`
/// on error).
pub fn potential_arg(x: &Bound<'_, PyAny>, flag: &str) -> Result<(Arc<dyn Potential>, String)> {
    if let Ok(p) = x.cast::<PyPotential>() {
        return Ok((p.get().inner.clone(), p.get().text.clone()));
    }
    let s = spec_text(x, flag)?;
    Ok((
        Arc::from(potential::parse(&s).context(flag.to_string())?),
        s,
    ))
}

/// The text of a spec-string argument.
pub fn spec_text(x: &Bound<'_, PyAny>, flag: &str) -> Result<String> {
    match x.cast::<PyString>() {
        Ok(s) => Ok(s.to_cow()?.into_owned()),
        Err(_) => anyhow::bail!(
            "invalid {flag}: expected a spec string or a {} object, got {}",
            if flag == "--process" {
                "Process"
            } else {
                "Potential"
            },
            x.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ),
    }
}

/// The registered processes, as `balloc list processes --format json` lists them: a list of
/// dicts with `name`, `aliases`, `params` (`name`, `default`, `doc`), `rank_based`, `summary`,
/// `reference`.
#[pyfunction]
pub fn processes(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    convert::json(
        py,
        &serde_json::Value::Array(balloc::app::list::processes()),
    )
}

/// The registered potentials, as `balloc list potentials --format json` lists them: a list of
/// dicts with `name`, `aliases`, `params`, `summary`, `reference`.
#[pyfunction]
pub fn potentials(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    convert::json(
        py,
        &serde_json::Value::Array(balloc::app::list::potentials()),
    )
}

/// The weight laws, as `balloc list weights --format json` lists them: a list of dicts with
/// `name`, `params`, `summary`.
#[pyfunction]
pub fn weight_laws(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    convert::json(
        py,
        &serde_json::Value::Array(balloc::app::list::weight_laws()),
    )
}
