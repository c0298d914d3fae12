//! `balloc` for Python: the native module `balloc._balloc`, re-exported by the package `balloc`.
//!
//! Every function here is a thin layer over the `balloc` library: it converts the arguments
//! (numpy arrays, sequences, `fractions.Fraction`, spec strings), validates them with the same
//! checks and messages as the command line, releases the GIL around the computation, and wraps
//! the result in a Python object whose `to_dict()` is the command line's JSON document.
//!
//! Modules, one per mathematical object:
//! * [`error`]: the one-line messages and the exception `BallocError` (a `ValueError`);
//! * [`progress`]: the optional progress callback and interruption (Ctrl-C) of long runs;
//! * [`convert`]: JSON values, rationals and numpy arrays to Python objects;
//! * [`loads`]: load vectors `x` (class `Loads`);
//! * [`registry`]: processes, potentials and weight laws (classes `Process`, `Potential`);
//! * [`expectation`]: `E[P(next) | x]` (function `expect`, class `Expectation`);
//! * [`allocation`]: allocation vectors by rank and the conditions C1/C2 (`pvec`, `c1`, `c2`);
//! * [`claim`]: theorem files, verdicts, the counterexample search and the constant finder;
//! * [`simulation`]: Monte Carlo runs (`simulate`) and sweeps over a grid (`sweep`).

use pyo3::prelude::*;

mod allocation;
mod claim;
mod convert;
mod error;
mod expectation;
mod loads;
mod progress;
mod registry;
mod simulation;

/// The native module. The package `balloc` re-exports everything listed here.
#[pymodule]
fn _balloc(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("BallocError", m.py().get_type::<error::BallocError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<loads::PyLoads>()?;
    m.add_class::<registry::PyProcess>()?;
    m.add_class::<registry::PyPotential>()?;
    m.add_function(wrap_pyfunction!(registry::processes, m)?)?;
    m.add_function(wrap_pyfunction!(registry::potentials, m)?)?;
    m.add_function(wrap_pyfunction!(registry::weight_laws, m)?)?;
    m.add_class::<expectation::Expectation>()?;
    m.add_function(wrap_pyfunction!(expectation::expect, m)?)?;
    m.add_function(wrap_pyfunction!(expectation::_time_expect, m)?)?;
    m.add_class::<allocation::AllocationVector>()?;
    m.add_class::<allocation::C1>()?;
    m.add_class::<allocation::C2>()?;
    m.add_function(wrap_pyfunction!(allocation::pvec, m)?)?;
    m.add_function(wrap_pyfunction!(allocation::c1, m)?)?;
    m.add_function(wrap_pyfunction!(allocation::c2, m)?)?;
    m.add_class::<claim::Claim>()?;
    m.add_class::<claim::Verdict>()?;
    m.add_class::<claim::Witness>()?;
    m.add_class::<claim::ConstantReport>()?;
    m.add_function(wrap_pyfunction!(claim::check, m)?)?;
    m.add_function(wrap_pyfunction!(claim::check_str, m)?)?;
    m.add_class::<simulation::Estimate>()?;
    m.add_class::<simulation::Simulation>()?;
    m.add_class::<simulation::SweepResult>()?;
    m.add_function(wrap_pyfunction!(simulation::simulate, m)?)?;
    m.add_function(wrap_pyfunction!(simulation::sweep, m)?)?;
    Ok(())
}
