//! Output helpers shared by the subcommands: formats, reading `@FILE` arguments, JSON for
//! [`Scaled`] values.

use crate::limits;
use crate::loads::Loads;
use crate::scaled::Scaled;
use anyhow::{Context, Result};
use serde_json::{Value, json};

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Human-readable text.
    Text,
    /// JSON (the stable contract of `docs/conventions.md` §4).
    Json,
    /// Markdown.
    Markdown,
    /// Comma-separated values.
    Csv,
}

/// Reads `--loads`: a literal list or `@FILE`, within [`limits::INPUT_FILE_BYTES`] (checked
/// before reading) and [`limits::BINS`].
pub fn read_loads(arg: &str) -> Result<Loads> {
    let loads = if let Some(path) = arg.strip_prefix('@') {
        let meta = std::fs::metadata(path)
            .with_context(|| format!("--loads: cannot read file `{path}`"))?;
        limits::INPUT_FILE_BYTES.check(&format!("--loads file `{path}`"), meta.len())?;
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("--loads: cannot read file `{path}`"))?;
        Loads::parse(&text).with_context(|| format!("--loads file `{path}`"))?
    } else {
        Loads::parse(arg).context("--loads")?
    };
    limits::BINS.check_usize("--loads", loads.n())?;
    Ok(loads)
}

/// Inserts `key` (the value if representable, else null) and `log_key` (ln |value|) and, for
/// signed quantities, `key_sign`.
pub fn put_scaled(obj: &mut serde_json::Map<String, Value>, key: &str, v: &Scaled, signed: bool) {
    match v.to_f64() {
        Some(x) => {
            obj.insert(key.into(), json!(x));
        }
        None => {
            obj.insert(key.into(), Value::Null);
        }
    }
    let ln = v.ln();
    if signed {
        obj.insert(format!("log_abs_{key}"), json_f64(ln));
        obj.insert(format!("{key}_sign"), json!(v.signum()));
    } else {
        obj.insert(format!("log_{key}"), json_f64(ln));
    }
}

/// A JSON number, or null when it is not finite (−∞ for ln 0).
pub fn json_f64(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// Formats a scaled value for text output.
pub fn fmt_scaled(v: &Scaled) -> String {
    match v.to_f64() {
        Some(x) => format!("{x:.17e}"),
        None => {
            let sign = if v.signum() < 0.0 { "-" } else { "" };
            format!("{sign}exp({:.17e})", v.ln())
        }
    }
}

/// `println!` that ends the program quietly (exit 0) when standard output is closed, e.g. when
/// piped into `head`; captured by [`crate::cli::run_args`].
#[macro_export]
#[doc(hidden)]
macro_rules! outln {
    ($($t:tt)*) => {{
        if !$crate::cli::capture::out_line(format_args!($($t)*)) {
            std::process::exit(0);
        }
    }};
}

/// `eprintln!` that never panics on a closed standard error; captured by
/// [`crate::cli::run_args`].
#[macro_export]
#[doc(hidden)]
macro_rules! errln {
    ($($t:tt)*) => {{
        $crate::cli::capture::err_line(format_args!($($t)*));
    }};
}
