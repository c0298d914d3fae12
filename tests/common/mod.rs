//! Scratch theorem directories shared by the integration tests that write their own files.

use std::path::{Path, PathBuf};

/// A scratch theorem directory `target/tmp/<prefix>-<name>/t/` with a paper record; returns the
/// root (the directory that holds the paper folder `t`).
pub fn scratch_in(prefix: &str, name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{prefix}-{name}"));
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("t");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("paper.toml"),
        "authors = [\"A\"]\ntitle = \"T\"\nvenue = \"V\"\nyear = 2022\n",
    )
    .unwrap();
    root
}

/// Writes theorem file `t/<name>.toml` under `root` and returns its path.
pub fn write(root: &Path, name: &str, text: &str) -> PathBuf {
    let p = root.join("t").join(format!("{name}.toml"));
    std::fs::write(&p, text).unwrap();
    p
}
