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
use anyhow::{Context, Result};
use balloc::expectation::{CERTIFY_LIMIT, Method};
use balloc::loads::{Levels, Loads, TieRule};
use balloc::setting::Setting;
use balloc::weights::WeightLaw;
use balloc::xfloat::XFloat;
use balloc::{Certified, limits};
use pyo3::prelude::*;
use serde_json::{Map, Value, json};

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
    n: usize,
    process: String,
    potential: String,
    weights: String,
    batch: u64,
    ties: &'static str,
    method: &'static str,
    /// value, expected_next, expected_change (f64 route)
    floats: [XFloat; 3],
    cert: Option<Certified>,
}

const NAMES: [&str; 3] = ["value", "expected_next", "expected_change"];

impl Expectation {
    fn trust_name(&self) -> &'static str {
        match &self.cert {
            Some(Certified::Exact(_)) => "exact",
            Some(Certified::Enclosure(..)) => "enclosure",
            None => "float",
        }
    }

    /// Quantity `i` as reported: the nearest f64 of the exact value when there is one, the
    /// midpoint of the enclosure when there is one (so the number lies inside it).
    fn reported(&self, i: usize) -> XFloat {
        match &self.cert {
            Some(Certified::Exact(q)) => balloc::exact::to_xfloat(&q[i]),
            Some(Certified::Enclosure(iv, _)) => iv[i].mid_x(),
            None => self.floats[i],
        }
    }

    fn exact<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Option<Bound<'py, PyAny>>> {
        match &self.cert {
            Some(Certified::Exact(q)) => Ok(Some(convert::fraction(py, &q[i])?)),
            _ => Ok(None),
        }
    }

    fn enclosure(&self, i: usize) -> Option<(f64, f64)> {
        match &self.cert {
            Some(Certified::Enclosure(iv, _)) => Some((iv[i].lo_f64(), iv[i].hi_f64())),
            _ => None,
        }
    }

    /// The JSON document of `balloc expect --format json`.
    fn json(&self) -> Value {
        let mut o = Map::new();
        o.insert("n".into(), json!(self.n));
        o.insert("process".into(), json!(self.process));
        o.insert("potential".into(), json!(self.potential));
        o.insert("weights".into(), json!(self.weights));
        o.insert("batch".into(), json!(self.batch));
        o.insert("ties".into(), json!(self.ties));
        o.insert("method".into(), json!(self.method));
        o.insert("trust".into(), json!(self.trust_name()));
        for (i, name) in NAMES.iter().enumerate() {
            put_scaled(&mut o, name, &self.reported(i), i == 2);
        }
        match &self.cert {
            Some(Certified::Exact(q)) => {
                for (i, name) in NAMES.iter().enumerate() {
                    o.insert(format!("{name}_exact"), json!(q[i].to_string()));
                }
            }
            Some(Certified::Enclosure(iv, prec)) => {
                let mut m = Map::new();
                m.insert("precision_bits".into(), json!(prec));
                for (i, name) in NAMES.iter().enumerate() {
                    m.insert(
                        (*name).into(),
                        json!([json_f64(iv[i].lo_f64()), json_f64(iv[i].hi_f64())]),
                    );
                    m.insert(
                        format!("{name}_text"),
                        json!([
                            balloc::enclosure::sci(iv[i].lo(), false),
                            balloc::enclosure::sci(iv[i].hi(), true)
                        ]),
                    );
                }
                o.insert("enclosure".into(), Value::Object(m));
            }
            None => {}
        }
        Value::Object(o)
    }
}

/// A float as JSON: a number, or null when not finite.
pub fn json_f64(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// `key` as a number (null beyond f64) with its logarithm (`log_key`, or `log_abs_key` and
/// `key_sign` for a signed quantity), as `balloc expect --format json` writes it.
fn put_scaled(o: &mut Map<String, Value>, key: &str, v: &XFloat, signed: bool) {
    o.insert(
        key.into(),
        v.to_f64_checked().map_or(Value::Null, |x| json!(x)),
    );
    let ln = v.ln_abs();
    if signed {
        o.insert(format!("log_abs_{key}"), json_f64(ln));
        o.insert(format!("{key}_sign"), json!(v.signum()));
    } else {
        o.insert(format!("log_{key}"), json_f64(ln));
    }
}

#[pymethods]
impl Expectation {
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
    /// The potential's canonical spec.
    #[getter]
    fn potential(&self) -> &str {
        &self.potential
    }
    /// The weight law's spec.
    #[getter]
    fn weights(&self) -> &str {
        &self.weights
    }
    /// The batch size b.
    #[getter]
    fn batch(&self) -> u64 {
        self.batch
    }
    /// The tie rule (`random` or `fixed`).
    #[getter]
    fn ties(&self) -> &'static str {
        self.ties
    }
    /// The f64 route: `closed-form` or `enumeration`.
    #[getter]
    fn method(&self) -> &'static str {
        self.method
    }
    /// The trust level: `exact`, `enclosure` or `float`.
    #[getter]
    fn trust(&self) -> &'static str {
        self.trust_name()
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
        self.enclosure(0)
    }
    /// `(lo, hi)` around E[P(next) | x] when the trust level is `enclosure`, else `None`.
    #[getter]
    fn expected_next_enclosure(&self) -> Option<(f64, f64)> {
        self.enclosure(1)
    }
    /// `(lo, hi)` around E[P(next) − P(x) | x] when the trust level is `enclosure`, else `None`.
    #[getter]
    fn expected_change_enclosure(&self) -> Option<(f64, f64)> {
        self.enclosure(2)
    }
    /// The working precision of the enclosures in bits (`None` unless `enclosure`).
    #[getter]
    fn precision_bits(&self) -> Option<u64> {
        match &self.cert {
            Some(Certified::Enclosure(_, p)) => Some(*p),
            _ => None,
        }
    }
    /// The JSON document of `balloc expect --format json` as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::json(py, &self.json())
    }
    fn __repr__(&self) -> String {
        let show = |i: usize| match &self.cert {
            Some(Certified::Exact(q)) => q[i].to_string(),
            _ => match self.reported(i).to_f64_checked() {
                Some(x) => format!("{x:e}"),
                None => format!("exp({})", self.reported(i).ln_abs()),
            },
        };
        format!(
            "Expectation(n={}, process={:?}, potential={:?}, value={}, expected_next={}, expected_change={}, trust={:?})",
            self.n,
            self.process,
            self.potential,
            show(0),
            show(1),
            show(2),
            self.trust_name()
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

/// The validated arguments of `expect`.
struct Args {
    process: std::sync::Arc<dyn balloc::process::Process>,
    potential: std::sync::Arc<dyn balloc::potential::Potential>,
    potential_text: String,
    setting: Setting,
}

fn args(
    process: &Bound<'_, PyAny>,
    potential: &Bound<'_, PyAny>,
    weights: &str,
    batch: &Bound<'_, PyAny>,
    ties: &str,
) -> Result<Args> {
    let batch = batch_arg(batch, "--batch")?;
    let process = process_arg(process, "--process")?;
    let (potential, potential_text) = potential_arg(potential, "--potential")?;
    let weights = WeightLaw::parse(weights).context("--weights")?;
    let ties = TieRule::parse(ties).context("--ties")?;
    limits::EXPECT_BATCH.check("--batch", batch)?;
    let setting = Setting::new(batch, weights, ties).context("--batch")?;
    Ok(Args {
        process,
        potential,
        potential_text,
        setting,
    })
}

/// The computation of `balloc expect` (without the GIL).
fn compute(a: &Args, loads: &Loads, certify: bool) -> Result<Expectation> {
    let e =
        balloc::expectation::expect(a.process.as_ref(), a.potential.as_ref(), loads, &a.setting)?;
    let cert = if certify && loads.n() <= CERTIFY_LIMIT {
        balloc::certify_expectation(a.process.as_ref(), &a.potential_text, loads, &a.setting)
            .ok()
            .flatten()
    } else {
        None
    };
    finish(a, e, cert)
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

/// The result of an expectation: the finiteness check and the Python object.
fn finish(
    a: &Args,
    e: balloc::expectation::Expectation,
    cert: Option<Certified>,
) -> Result<Expectation> {
    // An exact value is kept whatever its size, as by `balloc expect`.
    if !matches!(cert, Some(Certified::Exact(_)))
        && let Some(why) = e.not_finite(&a.potential.spec())
    {
        anyhow::bail!(why);
    }
    Ok(Expectation {
        n: e.n,
        process: a.process.spec(),
        potential: a.potential.spec(),
        weights: a.setting.weights.spec(),
        batch: a.setting.batch,
        ties: a.setting.ties.name(),
        method: match e.method {
            Method::ClosedForm => "closed-form",
            Method::Enumeration => "enumeration",
        },
        floats: [e.value, e.expected_next, e.expected_change],
        cert,
    })
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
        let e = py
            .detach(|| {
                balloc::expectation::expect_counted(
                    a.process.as_ref(),
                    a.potential.as_ref(),
                    &levels,
                    &a.setting,
                )
            })
            .map_err(anyhow::Error::from)
            .py_err()?;
        if let Some(e) = e {
            return finish(&a, e, None).map_err(to_py);
        }
    }
    let x = crate::loads::arg(loads).py_err()?;
    let x: &Loads = x.get();
    py.detach(|| compute(&a, x, certify)).map_err(to_py)
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
