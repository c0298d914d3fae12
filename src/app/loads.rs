//! The `--loads` argument of the command line (and the text form the Python functions accept):
//! numbers separated by commas or white space, or `@FILE` naming a file of such numbers.

use crate::limits;
use crate::loads::Loads;
use anyhow::{Context, Result};

/// Reads a `--loads` text: a literal list, or `@FILE` within [`limits::INPUT_FILE_BYTES`]
/// (checked before reading); the vector within [`limits::BINS`]. Errors name `--loads` (and the
/// file).
///
/// ```
/// let x = balloc::app::loads::read_loads("3, 0 1,0").unwrap();
/// assert_eq!(x.as_slice(), &[3.0, 0.0, 1.0, 0.0]);
/// let e = balloc::app::loads::read_loads("@/no/such/file").unwrap_err();
/// assert!(format!("{e:#}").starts_with("--loads: cannot read file `/no/such/file`"));
/// ```
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
