//! Errors of the library: every one renders as a single line that names the offending argument,
//! field or value and, where it helps, what is accepted.

use thiserror::Error;

/// The error type of every fallible operation in `balloc`.
///
/// ```
/// let e = balloc::Error::invalid("beta", "must lie in [0, 1], got 1.5");
/// assert_eq!(e.to_string(), "invalid beta: must lie in [0, 1], got 1.5");
/// ```
#[derive(Debug, Clone, PartialEq, Error)]
pub enum Error {
    /// A parameter or argument has a value outside its domain.
    #[error("invalid {what}: {why}")]
    Invalid {
        /// The name of the parameter or argument.
        what: String,
        /// What is wrong and what is accepted.
        why: String,
    },
    /// A name (process, potential, weight law, ...) is not registered.
    #[error("unknown {kind} `{name}`; accepted: {accepted}")]
    Unknown {
        /// What kind of name (process, potential, weights, parameter of X).
        kind: String,
        /// The name that was given.
        name: String,
        /// The accepted names, comma separated.
        accepted: String,
    },
    /// A quantity has no evaluation route for the given combination.
    #[error("unsupported: {0}")]
    Unsupported(String),
}

impl Error {
    /// Builds an [`Error::Invalid`].
    pub fn invalid(what: impl Into<String>, why: impl Into<String>) -> Self {
        Error::Invalid {
            what: what.into(),
            why: why.into(),
        }
    }

    /// Builds an [`Error::Unknown`].
    /// ```
    /// let e = balloc::Error::unknown("process", "3-choice", &["one-choice", "two-choice"]);
    /// assert_eq!(e.to_string(), "unknown process `3-choice`; accepted: one-choice, two-choice");
    /// ```
    pub fn unknown(kind: impl Into<String>, name: impl Into<String>, accepted: &[&str]) -> Self {
        Error::Unknown {
            kind: kind.into(),
            name: name.into(),
            accepted: accepted.join(", "),
        }
    }
}

/// Result alias used throughout the crate.
pub type Result<T> = std::result::Result<T, Error>;
