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

/// The rational a/b.
pub fn q(a: i64, b: i64) -> balloc::exact::Q {
    balloc::exact::Q::new(a.into(), b.into())
}

/// The engine's exact value of `expr` at the integer loads `loads` in the setting `frag` (a
/// `[setting]` fragment); panics when the value is not exact.
pub fn exact_value(frag: &str, expr: &str, loads: &[i64]) -> balloc::exact::Q {
    let x: Vec<f64> = loads.iter().map(|v| *v as f64).collect();
    balloc::claim::evaluate(frag, expr, &x)
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
        .exact
        .unwrap_or_else(|| panic!("{expr}: no exact value"))
}

/// The path of the scratch file `t/<name>.toml` under `scratch_in(prefix, name)`.
pub fn scratch_path(prefix: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{prefix}-{name}"))
        .join("t")
        .join(format!("{name}.toml"))
}

/// Writes the scratch file `t/<name>.toml` (under `scratch_in(prefix, name)`) and returns the
/// one-line error that building its check gives; panics when the file is accepted.
pub fn build_error(prefix: &str, name: &str, text: &str) -> String {
    let root = scratch_in(prefix, name);
    let p = write(&root, name, text);
    match balloc::claim::prepare(&p, &root) {
        Ok(_) => panic!("{name}: accepted"),
        Err(e) => e.to_string(),
    }
}

/// Writes the scratch file `t/<name>.toml` (under `scratch_in(prefix, name)`) and checks it.
pub fn check_scratch(prefix: &str, name: &str, text: &str) -> balloc::claim::Verdict {
    let root = scratch_in(prefix, name);
    let p = write(&root, name, text);
    balloc::claim::check(&p, &root, &mut balloc::claim::RunContext::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The head of a scratch theorem file of kind `$kind` (a string literal), expected `open` (the
/// tests read the verdict): `const HEAD: &str = common::head!("inequality");`.
macro_rules! head {
    ($kind:literal) => {
        concat!(
            "title = \"t\"\nkind = \"",
            $kind,
            "\"\nexpected = \"open\"\nstatement = \"x\"\n[source]\nlocator = \"test\"\nprovenance = \"derived\"\n"
        )
    };
}
pub(crate) use head;

/// The head of a scratch theorem file of kind `real` ([`head`]).
pub const REAL_HEAD: &str = head!("real");
