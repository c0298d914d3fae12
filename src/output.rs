//! The files the library writes, in one place: certificates of proofs (`balloc check
//! --certificates DIR`), plots (`--plot FILE`) and the folders of proptest regression files. The
//! mathematics writes nothing; the modules that produce a file's bytes (a certificate's JSON, a
//! plot's SVG) hand them here. [`crate::input`] is the reading side; the sharded sweep runner
//! (`sim::sweep`), an application of its own, keeps its lock and shard files itself.
//!
//! Every file is written atomically: to a temporary file next to it, then renamed, so a reader
//! never sees it half written.
//!
//! ```
//! let dir = std::env::temp_dir().join("balloc-doc-output");
//! let path = dir.join("sub").join("x.json");
//! balloc::output::write_atomic(&path, b"{\"a\": 1}").unwrap();
//! assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"a\": 1}");
//! // No temporary file is left next to it.
//! assert_eq!(std::fs::read_dir(dir.join("sub")).unwrap().count(), 1);
//! ```

use std::path::Path;

/// Writes `bytes` to `path` atomically, creating its folder: the bytes go to `.<name>.tmp` next
/// to it, which is then renamed to `path` (and removed if the rename fails).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir)?;
    }
    let name = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
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
