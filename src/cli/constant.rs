//! `balloc constant ID --name C [--n LIST]`: the tightest value of a constant per n (bisection
//! in the file's declared direction) and its growth fit across n.

use super::check::{one_check, regressions_for, spinner};
use super::output::{Cell, Format, Table};
use crate::claim::{self, RunContext};
use anyhow::{Context, Result};
use std::path::PathBuf;

/// Arguments of `balloc constant`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The theorem id or file.
    id: String,
    /// The constant to tighten (declared in the file's [tighten] table).
    #[arg(long)]
    name: String,
    /// Numbers of bins, comma separated (default: the file's domain).
    #[arg(long)]
    n: Option<String>,
    /// Output format: text, json, or the tables (per n, growth fits) as markdown, csv or latex.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The theorem directory that defines ids.
    #[arg(long, default_value = "theorems")]
    theorems: PathBuf,
}

/// Runs `balloc constant`.
pub fn run(a: Args) -> Result<i32> {
    let ns: Option<Vec<usize>> = match &a.n {
        None => None,
        Some(s) => Some(
            s.split(',')
                .map(|t| {
                    t.trim()
                        .parse::<usize>()
                        .with_context(|| format!("invalid --n: `{t}` is not a number of bins"))
                })
                .collect::<Result<_>>()?,
        ),
    };
    let (t, c) = one_check(&a.id, &a.theorems)?;
    let pb = spinner();
    let tick = |m: &str| pb.set_message(m.to_string());
    let mut ctx = RunContext {
        regressions: regressions_for(&t, &a.theorems),
        progress: Some(&tick),
        ..RunContext::default()
    };
    let r = c
        .tighten(&a.name, ns.as_deref(), &mut ctx)
        .context("--name")?;
    pb.finish_and_clear();
    match a.format {
        Format::Json => {
            crate::outln!("{}", serde_json::to_string_pretty(&r)?);
            return Ok(0);
        }
        Format::Text => {}
        f => {
            let (per_n, fits) = tables(&r);
            match f {
                Format::Csv => {
                    // One CSV document: the per-n values (the fits are in the other formats).
                    crate::outln!("{}", per_n.csv()?);
                }
                Format::Latex => {
                    crate::outln!("{}", per_n.latex(Some("rrll")));
                    if !fits.rows.is_empty() {
                        crate::outln!("\n{}", fits.latex(Some("lrr")));
                    }
                }
                _ => {
                    crate::outln!("{}", per_n.markdown());
                    if !fits.rows.is_empty() {
                        crate::outln!("\n{}", fits.markdown());
                    }
                }
            }
            return Ok(0);
        }
    }
    crate::outln!(
        "{}: {} of `{}` over the searched space",
        r.id,
        match r.direction {
            claim::Direction::Smallest => "smallest value",
            claim::Direction::Largest => "largest value",
        },
        r.name
    );
    for t in &r.per_n {
        let w = t
            .witness
            .as_ref()
            .map(|w| {
                format!(
                    "  pinned by {} loads ({})",
                    w.source,
                    w.loads
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                )
            })
            .unwrap_or_default();
        crate::outln!("  n = {:<6} {} = {:.6}{w}", t.n, r.name, t.value);
    }
    if !r.fits.is_empty() {
        crate::outln!(
            "growth fits ({} ≈ a·g(n), relative RMS residual), best first:",
            r.name
        );
        for f in &r.fits {
            crate::outln!(
                "  g = {:<7} a = {:<12.6} residual {:.4}",
                f.model.name(),
                f.coefficient,
                f.rel_rms
            );
        }
    }
    Ok(0)
}

/// The per-n tightest values and the growth fits as tables.
fn tables(r: &claim::ConstantReport) -> (Table, Table) {
    let dir = match r.direction {
        claim::Direction::Smallest => "smallest",
        claim::Direction::Largest => "largest",
    };
    let mut per_n = Table::new(&["n", &r.name, "direction", "pinned by", "loads"]);
    for t in &r.per_n {
        let (src, loads) = t
            .witness
            .as_ref()
            .map(|w| {
                (
                    w.source.clone(),
                    w.loads
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(" "),
                )
            })
            .unwrap_or_default();
        per_n.push(vec![
            Cell::text(t.n.to_string()),
            Cell::float(t.value),
            Cell::text(dir),
            Cell::text(src),
            Cell::text(loads),
        ]);
    }
    let mut fits = Table::new(&["g(n)", "a", "relative RMS residual"]);
    for f in &r.fits {
        fits.push(vec![
            Cell::text(f.model.name()),
            Cell::float(f.coefficient),
            Cell::float(f.rel_rms),
        ]);
    }
    (per_n, fits)
}
