//! Conversions to Python objects: JSON values (the command line's documents) to `dict`, `list`,
//! `int`, `float`, `str`, `None`; rationals to `fractions.Fraction`; vectors to numpy arrays.

use balloc::exact::{Int, Q};
use num_rational::BigRational;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList};
use serde_json::Value;

/// A JSON value as the Python object that `json.loads` gives for its text (integers stay `int`,
/// other numbers are `float`; objects are `dict`).
pub fn json<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(x) => {
            if let Some(u) = x.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else if let Some(i) = x.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else {
                x.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(a) => {
            let l = PyList::empty(py);
            for x in a {
                l.append(json(py, x)?)?;
            }
            l.into_any()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, json(py, x)?)?;
            }
            d.into_any()
        }
    })
}

/// A rational as `fractions.Fraction`.
pub fn fraction<'py>(py: Python<'py>, q: &Q) -> PyResult<Bound<'py, PyAny>> {
    let r = BigRational::new_raw(q.numer().into(), q.denom().into());
    Ok(r.into_pyobject(py)?.into_any())
}

/// A Python `int` or `fractions.Fraction` as a rational.
pub fn rational(v: &Bound<'_, PyAny>) -> PyResult<Q> {
    let r = v.extract::<BigRational>()?;
    Ok(Q::new(Int::from(r.numer()), Int::from(r.denom())))
}

/// Rationals as a list of `fractions.Fraction`.
pub fn fractions<'py>(py: Python<'py>, qs: &[Q]) -> PyResult<Bound<'py, PyAny>> {
    let l = PyList::empty(py);
    for q in qs {
        l.append(fraction(py, q)?)?;
    }
    Ok(l.into_any())
}

/// A number type stored in numpy arrays.
pub trait Element: Copy {
    /// The numpy dtype name.
    const DTYPE: &'static str;
    /// The native-endian bytes.
    fn bytes(self) -> [u8; 8];
}

impl Element for f64 {
    const DTYPE: &'static str = "float64";
    fn bytes(self) -> [u8; 8] {
        self.to_ne_bytes()
    }
}

impl Element for u64 {
    const DTYPE: &'static str = "uint64";
    fn bytes(self) -> [u8; 8] {
        self.to_ne_bytes()
    }
}

static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// A vector as a read-only numpy array (`numpy.frombuffer` over an immutable `bytes` copy).
pub fn frozen<'py, T: Element>(py: Python<'py>, v: &[T]) -> PyResult<Bound<'py, PyAny>> {
    let b = PyBytes::new_with(py, v.len() * 8, |buf| {
        for (chunk, x) in buf.chunks_exact_mut(8).zip(v) {
            chunk.copy_from_slice(&x.bytes());
        }
        Ok(())
    })?;
    let f = FROMBUFFER.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
        Ok(py.import("numpy")?.getattr("frombuffer")?.unbind())
    })?;
    f.bind(py).call1((b, T::DTYPE))
}

/// A vector as a new writable numpy array.
pub fn array<'py, T: Element>(py: Python<'py>, v: &[T]) -> PyResult<Bound<'py, PyAny>> {
    frozen(py, v)?.call_method0("copy")
}

/// Rows of equal length as a read-only 2-D numpy array (rows × columns).
pub fn matrix<'py>(py: Python<'py>, rows: &[Vec<f64>]) -> PyResult<Bound<'py, PyAny>> {
    let k = rows.first().map_or(0, Vec::len);
    let flat: Vec<f64> = rows.iter().flat_map(|r| r.iter().copied()).collect();
    frozen(py, &flat)?.call_method1("reshape", (rows.len(), k))
}

/// Strings as a numpy array of `str`.
pub fn strings<'py>(py: Python<'py>, v: Vec<String>) -> PyResult<Bound<'py, PyAny>> {
    py.import("numpy")?.call_method1("array", (v, "str"))
}
