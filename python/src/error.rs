//! Errors: every failure of the library becomes a `BallocError` (a subclass of `ValueError`)
//! carrying the one-line message that `balloc` prints after `error: ` on the command line.
//!
//! The message is built exactly as the command line builds it: the library error with the same
//! context (the argument's flag, `--process`, `--loads`, ..., or the file and line), all causes
//! joined by `: `, line breaks replaced by spaces, overlong tokens shortened to an excerpt.

use pyo3::PyErr;

pyo3::create_exception!(
    balloc,
    BallocError,
    pyo3::exceptions::PyValueError,
    "Bad input or a failed computation, with the one-line message of the `balloc` command line \
     (naming the argument as its flag, e.g. `--process`, or the file, line and column)."
);

/// The one-line message of an error chain, as the command line prints it after `error: `.
pub fn line(e: &anyhow::Error) -> String {
    let msg = format!("{e:#}");
    balloc::error::shorten_tokens(&msg.replace(['\r', '\n'], " ")).into_owned()
}

/// A `BallocError` with the one-line message of `e`.
pub fn to_py(e: anyhow::Error) -> PyErr {
    BallocError::new_err(line(&e))
}

/// `Result` with errors converted to `BallocError`.
pub trait IntoPy<T> {
    /// Converts the error.
    fn py_err(self) -> pyo3::PyResult<T>;
}

impl<T, E: Into<anyhow::Error>> IntoPy<T> for Result<T, E> {
    fn py_err(self) -> pyo3::PyResult<T> {
        self.map_err(|e| to_py(e.into()))
    }
}
