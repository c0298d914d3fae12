//! Output helpers shared by the subcommands: formats, reading `@FILE` arguments, JSON for
//! [`XFloat`] values, and [`Table`]s rendered as text, Markdown, CSV or LaTeX.
//!
//! Every subcommand with `--format` accepts all of [`Format`]: JSON is each command's own
//! document (the stable contract), and the tabular formats render the same [`Table`]s.

use crate::xfloat::XFloat;
use anyhow::{Context, Result};

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Human-readable text.
    Text,
    /// JSON (the stable contract of `docs/conventions.md` §4).
    Json,
    /// Markdown.
    Markdown,
    /// Comma-separated values (RFC 4180; a header row, then one row per record).
    Csv,
    /// A LaTeX fragment (`tabular`/`longtable`; rationals as `\frac`), for pasting into a paper.
    Latex,
}

/// One cell of a [`Table`]: its plain text (text, Markdown, CSV) and its LaTeX rendering.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// Plain text.
    pub plain: String,
    /// LaTeX (already escaped; math wrapped in `$…$`).
    pub tex: String,
}

impl Cell {
    /// A text cell (escaped for LaTeX).
    pub fn text(s: impl Into<String>) -> Cell {
        let plain = s.into();
        Cell {
            tex: tex_escape(&plain),
            plain,
        }
    }

    /// A cell with its own LaTeX math (without the `$` delimiters).
    pub fn math(plain: impl Into<String>, tex: &str) -> Cell {
        Cell {
            plain: plain.into(),
            tex: format!("${tex}$"),
        }
    }

    /// A rational: `p/q` in plain text, `\frac{p}{q}` in LaTeX.
    pub fn rational(q: &crate::exact::Q) -> Cell {
        Cell::math(q.to_string(), &tex_rational(q))
    }

    /// A float in its shortest round-trip form (`-` when not finite).
    pub fn float(x: f64) -> Cell {
        if x.is_finite() {
            Cell::text(format!("{x}"))
        } else {
            Cell::text("-")
        }
    }
}

/// A table: a header and rows of [`Cell`]s, rendered in every tabular format.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    /// Column names.
    pub columns: Vec<String>,
    /// The rows (each as long as `columns`).
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// A table with these columns and no rows.
    pub fn new(columns: &[&str]) -> Table {
        Table {
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row.
    pub fn push(&mut self, row: Vec<Cell>) {
        debug_assert_eq!(row.len(), self.columns.len());
        self.rows.push(row);
    }

    /// Aligned plain-text columns.
    pub fn text(&self) -> String {
        let mut w: Vec<usize> = self.columns.iter().map(|c| c.chars().count()).collect();
        for r in &self.rows {
            for (i, c) in r.iter().enumerate() {
                w[i] = w[i].max(c.plain.chars().count());
            }
        }
        let line = |cells: Vec<&str>| {
            let parts: Vec<String> = cells
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{c:<width$}", width = w[i]))
                .collect();
            parts.join("  ").trim_end().to_string()
        };
        let mut out = vec![line(self.columns.iter().map(|s| s.as_str()).collect())];
        for r in &self.rows {
            out.push(line(r.iter().map(|c| c.plain.as_str()).collect()));
        }
        out.join("\n")
    }

    /// A Markdown (GitHub) table; `|` inside cells is escaped.
    pub fn markdown(&self) -> String {
        let esc = |s: &str| s.replace('|', "\\|").replace('\n', " ");
        let mut out = format!(
            "| {} |\n|{}|",
            self.columns
                .iter()
                .map(|c| esc(c))
                .collect::<Vec<_>>()
                .join(" | "),
            vec!["---"; self.columns.len()].join("|")
        );
        for r in &self.rows {
            out.push_str(&format!(
                "\n| {} |",
                r.iter()
                    .map(|c| esc(&c.plain))
                    .collect::<Vec<_>>()
                    .join(" | ")
            ));
        }
        out
    }

    /// CSV with a header row (RFC 4180 quoting, by the `csv` crate).
    pub fn csv(&self) -> Result<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(&self.columns)?;
        for r in &self.rows {
            w.write_record(r.iter().map(|c| c.plain.as_str()))?;
        }
        let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("csv: {e}"))?;
        Ok(String::from_utf8_lossy(&bytes).trim_end().to_string())
    }

    /// A LaTeX `tabular` (booktabs rules) with column alignment `spec` (e.g. `lrr`), or `l` for
    /// every column when `spec` is `None`.
    pub fn latex(&self, spec: Option<&str>) -> String {
        let spec = spec
            .map(str::to_string)
            .unwrap_or_else(|| "l".repeat(self.columns.len()));
        let mut out = format!(
            "\\begin{{tabular}}{{{spec}}}\n\\toprule\n{} \\\\\n\\midrule\n",
            self.columns
                .iter()
                .map(|c| tex_escape(c))
                .collect::<Vec<_>>()
                .join(" & ")
        );
        for r in &self.rows {
            out.push_str(
                &r.iter()
                    .map(|c| c.tex.as_str())
                    .collect::<Vec<_>>()
                    .join(" & "),
            );
            out.push_str(" \\\\\n");
        }
        out.push_str("\\bottomrule\n\\end{tabular}");
        out
    }

    /// Renders in a tabular format (`Json` is each command's own document and is not a table:
    /// it renders as CSV here only as a fallback that the commands never use).
    pub fn render(&self, format: Format) -> Result<String> {
        Ok(match format {
            Format::Text => self.text(),
            Format::Markdown => self.markdown(),
            Format::Csv | Format::Json => self.csv()?,
            Format::Latex => self.latex(None),
        })
    }
}

pub use crate::app::loads::read_loads;
pub use crate::latex::{escape as tex_escape, rational as tex_rational};

/// The decimal digits that every number of the interval `[lo, hi]` rounds to (up to 17
/// significant digits), or `None` when even one digit differs. Rounding is monotone, so when
/// both ends round to the same string, so does every number between them.
///
/// ```
/// use balloc::cli::common_digits;
/// assert_eq!(common_digits(9.596665130456010, 9.596665130456012).as_deref(), Some("9.59666513045601e0"));
/// assert_eq!(common_digits(5.5, 5.5).as_deref(), Some("5.5e0"));
/// ```
pub fn common_digits(lo: f64, hi: f64) -> Option<String> {
    if !(lo.is_finite() && hi.is_finite()) || lo > hi {
        return None;
    }
    if lo == hi {
        return Some(format!("{lo:e}"));
    }
    (0..17usize).rev().find_map(|p| {
        let (a, b) = (format!("{lo:.p$e}"), format!("{hi:.p$e}"));
        (a == b).then_some(a)
    })
}

/// Formats a scaled value for text output.
pub fn fmt_scaled(v: &XFloat) -> String {
    match v.to_f64_checked() {
        Some(x) => format!("{x:.17e}"),
        None => {
            let sign = if v.signum() < 0.0 { "-" } else { "" };
            format!("{sign}exp({:.17e})", v.ln_abs())
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

/// Creates the output directory `dir` of option `flag` if missing and checks that a file can be
/// written in it, before any work starts (an experiment never runs for nothing).
pub fn writable_dir(dir: &std::path::Path, flag: &str) -> Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("{flag}: cannot create `{}`", dir.display()))?;
    crate::output::check_writable(&dir.join(".balloc-write-check"))
        .with_context(|| format!("{flag}: cannot write in `{}`", dir.display()))?;
    Ok(())
}
