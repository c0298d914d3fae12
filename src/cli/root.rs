//! The theorem directory of a command: `--theorems DIR` when given, else the first directory
//! named `theorems` in the current directory or one of its parents (as cargo finds `Cargo.toml`),
//! so that `balloc check ID` works from any directory inside the repository.

use crate::claim;
use anyhow::Result;
use std::path::{Path, PathBuf};

/// The theorem directory: `given`, or the nearest `theorems/` at or above the current directory
/// (as a relative path such as `../../theorems`), or `theorems` when there is none (then an id
/// cannot be resolved, and [`resolve`] says to give `--theorems`).
pub fn theorems(given: Option<&Path>) -> PathBuf {
    if let Some(g) = given {
        return g.to_path_buf();
    }
    let Ok(cwd) = std::env::current_dir() else {
        return PathBuf::from("theorems");
    };
    let mut up = PathBuf::new();
    for dir in cwd.ancestors() {
        if dir.join("theorems").is_dir() {
            return up.join("theorems");
        }
        up.push("..");
    }
    PathBuf::from("theorems")
}

/// Resolves files, directories and ids under `root` ([`claim::resolve`]); when `root` does not
/// exist the error says where it was looked for and to give `--theorems`.
pub fn resolve(paths: &[String], root: &Path) -> Result<Vec<PathBuf>> {
    claim::resolve(paths, root).map_err(|e| {
        if root.is_dir() {
            anyhow::Error::from(e)
        } else {
            anyhow::anyhow!(
                "{e} (no `theorems` directory in the current directory or any parent: run balloc inside the repository, or give --theorems DIR)"
            )
        }
    })
}
