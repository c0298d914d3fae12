//! `balloc constant ID --name C [--n LIST]`: the tightest value of a constant per n (bisection
//! in the file's declared direction) and its growth fit across n.

use super::check::{one_check, regressions_for, spinner};
use super::output::{Cell, Format, Table};
use crate::app::constant::ConstantAnswer;
use crate::claim::{self, RunContext};
use crate::limits;
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
    /// Numbers of bins, comma separated and distinct (default: the file's domain).
    #[arg(long)]
    n: Option<String>,
    /// Output format: text, json, or the tables (per n, growth fits) as markdown, csv or latex.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The theorem directory that defines ids (default: the nearest `theorems/` in the current
    /// directory or a parent).
    #[arg(long)]
    theorems: Option<PathBuf>,
}

/// Runs `balloc constant`.
pub fn run(a: Args) -> Result<i32> {
    let ns = a.n.as_deref().map(parse_ns).transpose()?;
    let root = super::root::theorems(a.theorems.as_deref());
    let (t, c) = one_check(&a.id, &root)?;
    let pb = spinner();
    let tick = |m: &str| pb.set_message(m.to_string());
    let mut ctx = RunContext {
        regressions: regressions_for(&t, &root),
        progress: Some(&tick),
        ..RunContext::default()
    };
    let r = c
        .tighten(&a.name, ns.as_deref(), &mut ctx)
        .context("--name")?;
    pb.finish_and_clear();
    let answer = ConstantAnswer::of(r)?;
    let (r, fits_note) = (&answer.report, &answer.fits_note);
    match a.format {
        Format::Json => {
            crate::outln!("{}", serde_json::to_string_pretty(&answer.to_json())?);
            return Ok(0);
        }
        Format::Text => {}
        f => {
            let (per_n, fits) = tables(r);
            match f {
                Format::Csv => {
                    // One CSV document: the per-n values (the fits are in the other formats).
                    crate::outln!("{}", per_n.csv()?);
                }
                Format::Latex => {
                    crate::outln!("{}", per_n.latex(Some("rrlrlll")));
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
    // A claim over real variables (kind `real`) has no number of bins: no n, no loads, no fit.
    let real = !r.per_n.is_empty() && r.per_n.iter().all(|t| t.n == 0);
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
                if real {
                    return format!("  pinned by {}", w.source);
                }
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
        // The bracket: the value shown to hold and the nearest value shown to fail.
        let bracket = match (t.fails, t.trust_holds, t.trust_fails) {
            (Some(f), th, _) if t.fails_unproved => format!(
                "  [holds at {:.6} ({}), not proved at {f:.6} (inconclusive)]",
                t.value,
                th.map_or("-", |x| x.name()),
            ),
            (Some(f), th, tf) => format!(
                "  [holds at {:.6} ({}), refuted at {f:.6} ({})]",
                t.value,
                th.map_or("-", |x| x.name()),
                tf.map_or("-", |x| x.name())
            ),
            (None, _, _) => format!(
                "  [no failing value found: it holds at every value tried, {} to {:e}]",
                match r.direction {
                    crate::claim::Direction::Smallest => "down",
                    crate::claim::Direction::Largest => "up",
                },
                t.value
            ),
        };
        if real {
            crate::outln!("  {} = {:.6}{bracket}{w}", r.name, t.value);
        } else {
            crate::outln!("  n = {:<6} {} = {:.6}{bracket}{w}", t.n, r.name, t.value);
        }
    }
    if let Some(note) = fits_note.as_ref().filter(|_| !real) {
        crate::outln!("growth fits: none ({note})");
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

/// `--n`: distinct numbers of bins, each in `1..=`[`limits::CLAIM_N`], at most
/// [`limits::CONSTANT_NS`] of them (checked before anything is counted or allocated per entry).
fn parse_ns(s: &str) -> Result<Vec<usize>> {
    let count = s.split(',').count();
    limits::CONSTANT_NS.check("--n (number of values)", count as u64)?;
    let mut ns: Vec<usize> = Vec::with_capacity(count);
    for t in s.split(',') {
        let t = t.trim();
        let n = t
            .parse::<usize>()
            .ok()
            .filter(|&n| n >= 1)
            .with_context(|| format!("invalid --n: `{t}` is not a number of bins ≥ 1"))?;
        limits::CLAIM_N.check_usize("--n", n)?;
        if ns.contains(&n) {
            anyhow::bail!("invalid --n: {n} is given twice (a growth fit needs distinct n)");
        }
        ns.push(n);
    }
    Ok(ns)
}

/// The per-n tightest values and the growth fits as tables.
fn tables(r: &claim::ConstantReport) -> (Table, Table) {
    let dir = match r.direction {
        claim::Direction::Smallest => "smallest",
        claim::Direction::Largest => "largest",
    };
    let mut per_n = Table::new(&[
        "n",
        &r.name,
        "direction",
        "fails at",
        "trust",
        "pinned by",
        "loads",
    ]);
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
            t.fails.map_or(Cell::text("-"), Cell::float),
            Cell::text(format!(
                "{}/{}",
                t.trust_holds.map_or("-", |x| x.name()),
                t.trust_fails.map_or("-", |x| x.name())
            )),
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
