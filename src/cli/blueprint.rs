//! `balloc blueprint [PATHS] [--out DIR]`: checks the selection (the whole catalogue by default)
//! and writes the blueprint site ([`crate::blueprint`]) into `DIR` (default `blueprint`): open
//! `DIR/index.html`. Exit code 1 iff a verdict contradicts its file, as `balloc check`.

use super::check::{RunOptions, jobs};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// Arguments of `balloc blueprint`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Theorem files, directories or ids; all of `theorems/` when omitted. Items they use outside
    /// the selection get a page too (marked "not checked in this run").
    paths: Vec<String>,
    /// The folder to write the site into (created if missing; files of the same names are
    /// replaced).
    #[arg(long, default_value = "blueprint")]
    out: PathBuf,
    /// The theorem directory that defines ids (default: the nearest `theorems/` in the current
    /// directory or a parent).
    #[arg(long)]
    theorems: Option<PathBuf>,
    /// Also run the constant finder for every `[tighten]` constant and show its bracket (about
    /// two CPU-minutes more for the whole catalogue).
    #[arg(long)]
    constants: bool,
    /// Multiply the files' random and optimiser budgets.
    #[arg(long, default_value_t = 1)]
    effort: u32,
    /// Files checked at once (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
}

/// Writes `bytes` to `path` atomically ([`crate::output::write_atomic`]), the error naming the file.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    crate::output::write_atomic(path, bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Runs `balloc blueprint`.
pub fn run(a: Args) -> Result<i32> {
    let root = super::root::theorems(a.theorems.as_deref());
    let jobs = jobs(a.jobs)?;
    crate::limits::CHECK_EFFORT.check("--effort", u64::from(a.effort))?;
    super::output::writable_dir(&a.out, "--out")?;
    let opts = RunOptions {
        effort: a.effort.max(1),
        root,
        certificates: None,
    };
    let checked = super::catalogue::check(&a.paths, &opts, jobs, a.constants, Some(&a.out))?;
    let items = checked.items();
    let site = crate::blueprint::site::build(&items, &checked.papers);
    for (rel, bytes) in &site.files {
        write_atomic(&a.out.join(rel), bytes).context("--out")?;
    }
    for w in &site.warnings {
        crate::errln!("warning: statement shown as source text: {w}");
    }
    let papers: std::collections::BTreeSet<String> = items.iter().map(|i| i.paper()).collect();
    crate::outln!(
        "blueprint: {} item(s) of {} paper(s) ({} checked), {} statement(s) shown as source text; open {}",
        items.len(),
        papers.len(),
        checked.verdicts.len(),
        site.warnings.len(),
        a.out.join("index.html").display()
    );
    Ok(if checked.contradicts() { 1 } else { 0 })
}
