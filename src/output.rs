//! The files the library writes, in one place: certificates of proofs (`balloc check
//! --certificates DIR`), plots (`--plot FILE`), the folders of proptest regression files, and the
//! files of the application layer (the sweep runner's rows and summaries, experiment outputs, the
//! blueprint's pages). The mathematics writes nothing; the modules that produce a file's bytes (a
//! certificate's JSON, a plot's SVG) hand them here. [`crate::input`] is the reading side.
//!
//! Every file is written atomically: to a temporary file next to it, synced, then renamed, so a
//! reader never sees it half written, and a failed write leaves neither the file nor the
//! temporary behind.
//!
//! ```
//! let dir = std::env::temp_dir().join("balloc-doc-output");
//! let path = dir.join("sub").join("x.json");
//! balloc::output::write_atomic(&path, b"{\"a\": 1}").unwrap();
//! assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"a\": 1}");
//! // No temporary file is left next to it.
//! assert_eq!(std::fs::read_dir(dir.join("sub")).unwrap().count(), 1);
//! ```

use std::path::{Path, PathBuf};

/// The temporary file next to `path` that [`write_atomic`] and [`check_writable`] use:
/// `.<name>.tmp.<process id>` (two processes never share one).
fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    path.with_file_name(format!(".{name}.tmp.{}", std::process::id()))
}

/// Writes `bytes` to `path` atomically, creating its folder: the bytes go to a temporary file next
/// to it, which is synced and then renamed to `path` (and removed if anything fails).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = temp_path(path);
    let res = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    res.inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Checks that `path` can be written (its folder exists and accepts a new file) without leaving a
/// file behind: called before a long computation whose result goes there.
///
/// ```
/// let dir = std::env::temp_dir();
/// assert!(balloc::output::check_writable(&dir.join("balloc-doc-writable.csv")).is_ok());
/// assert!(!dir.join("balloc-doc-writable.csv").exists());
/// assert!(balloc::output::check_writable(&dir.join("no-such-folder-balloc").join("x")).is_err());
/// ```
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    let tmp = temp_path(path);
    std::fs::File::create(&tmp)?;
    let _ = std::fs::remove_file(&tmp);
    Ok(())
}

/// The error of a file that could not be read or written: `invalid file `PATH`: why`.
///
/// ```
/// let e = std::io::Error::new(std::io::ErrorKind::NotFound, "no such folder");
/// let msg = balloc::output::file_error(std::path::Path::new("out/x.csv"), e).to_string();
/// assert_eq!(msg, "invalid file `out/x.csv`: no such folder");
/// ```
pub fn file_error(path: &Path, e: std::io::Error) -> crate::error::Error {
    crate::error::Error::invalid(format!("file `{}`", path.display()), e.to_string())
}

/// Creates the folder `dir` and its parents if they do not exist (the folder of a regression
/// file, which proptest writes itself).
///
/// ```
/// let dir = std::env::temp_dir().join("balloc-doc-output-dir").join("a").join("b");
/// balloc::output::ensure_dir(&dir).unwrap();
/// assert!(dir.is_dir());
/// ```
pub fn ensure_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)
}
