//! `balloc report --format latex|markdown [--standalone] [PATHS]`: checks the selection (the
//! whole catalogue by default) and prints it as a LaTeX section for a paper's appendix (a whole
//! document with `--standalone`) or as Markdown tables ([`crate::report`]). Exit code 1 iff a
//! verdict contradicts its file, as `balloc check`.

use super::check::{RunOptions, jobs};
use anyhow::Result;
use std::path::PathBuf;

/// The formats of `balloc report`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    /// A LaTeX section (longtables, pgfplots figures).
    Latex,
    /// Markdown tables.
    Markdown,
}

/// Arguments of `balloc report`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Theorem files, directories or ids; all of `theorems/` when omitted.
    paths: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "latex")]
    format: ReportFormat,
    /// With `--format latex`: a whole `article` (preamble and document) instead of a section.
    #[arg(long)]
    standalone: bool,
    /// Write the report to this file instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
    /// The theorem directory that defines ids (default: the nearest `theorems/` in the current
    /// directory or a parent).
    #[arg(long)]
    theorems: Option<PathBuf>,
    /// Also run the constant finder for every `[tighten]` constant and list its tightest values.
    #[arg(long)]
    constants: bool,
    /// Multiply the files' random and optimiser budgets.
    #[arg(long, default_value_t = 1)]
    effort: u32,
    /// Files checked at once (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
}

/// Runs `balloc report`.
pub fn run(a: Args) -> Result<i32> {
    if a.standalone && a.format != ReportFormat::Latex {
        anyhow::bail!("invalid --standalone: only with --format latex");
    }
    let root = super::root::theorems(a.theorems.as_deref());
    let jobs = jobs(a.jobs)?;
    crate::limits::CHECK_EFFORT.check("--effort", u64::from(a.effort))?;
    if let Some(out) = &a.out {
        crate::output::check_writable(out)
            .map_err(|e| anyhow::anyhow!("invalid --out: {}", crate::output::file_error(out, e)))?;
    }
    let opts = RunOptions {
        effort: a.effort.max(1),
        root,
        certificates: None,
    };
    let checked = super::catalogue::check(&a.paths, &opts, jobs, a.constants, None)?;
    let items = checked.items();
    let text = match a.format {
        ReportFormat::Latex => crate::report::latex(&items, &checked.papers, a.standalone),
        ReportFormat::Markdown => crate::report::markdown(&items, &checked.papers),
    };
    match &a.out {
        Some(out) => super::blueprint::write_atomic(out, text.as_bytes())
            .map_err(|e| anyhow::anyhow!("--out: {e:#}"))?,
        None => crate::outln!("{}", text.trim_end()),
    }
    Ok(if checked.contradicts() { 1 } else { 0 })
}
