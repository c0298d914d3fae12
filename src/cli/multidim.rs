//! `balloc multidim`: md-balls (Narang–Dutta–Bhattacherjee, arXiv:1111.0762).
//!
//! * `balloc multidim simulate`: runs of one configuration with the summary of `max_a gap(a)`;
//! * `balloc multidim experiment --out DIR`: the gap-growth sweep of both rules against
//!   `ln ln n` for `m = n` and `m ≫ n`, written as `points.csv`, `points.json` and one plot per
//!   regime and choice, as SVG and PGF/TikZ (atomically: temp file + rename).

use super::output::{Cell, Format, Table};
use crate::limits;
use crate::multidim::{BallLaw, Choice, Criterion, MdRule};
use crate::outln;
use crate::sim::multidim::MdSimConfig;
use crate::sim::multidim_experiment::{Regime, Sweep, gap_plot, to_csv};
use crate::sim::statistic::mean_ci;
use anyhow::{Context, Result, bail};
use serde_json::json;
use std::path::Path;

/// Arguments of `balloc multidim`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The action.
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Simulate one configuration; report max over dimensions of gap(a) per run and summarised.
    Simulate(SimArgs),
    /// The gap-growth sweep with CSV, JSON and SVG output.
    Experiment(ExpArgs),
}

#[derive(Debug, clap::Args)]
struct SimArgs {
    /// Number of bins n ≥ 1.
    #[arg(long)]
    n: usize,
    /// Number of balls m.
    #[arg(long)]
    balls: u64,
    /// Ball law: `uniform(dims=D,f=F)`, `skewed(dims=D,f=F,r=R)`, `binomial(dims=D,q=Q)`.
    #[arg(long, default_value = "uniform(dims=8,f=2)")]
    ball: String,
    /// Allocation criterion: `sum` (D's sum-load rule) or `max` (max over populated dimensions).
    #[arg(long, default_value = "sum")]
    rule: String,
    /// Choice: `two-choice`, `d-choice(d=D)`, `one-plus-beta(beta=B)`.
    #[arg(long, default_value = "two-choice")]
    choice: String,
    /// Rounds of this many balls decided in parallel (1 = sequential).
    #[arg(long, default_value_t = 1)]
    batch: u64,
    /// Number of runs (≥ 2 for an interval).
    #[arg(long, default_value_t = 10)]
    runs: u64,
    /// Master seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Output format: text, json, csv (one row per run), or markdown or latex (the runs and the
    /// summary).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

#[derive(Debug, clap::Args)]
struct ExpArgs {
    /// Output directory (created if missing).
    #[arg(long)]
    out: String,
    /// Ball law.
    #[arg(long, default_value = "uniform(dims=8,f=2)")]
    ball: String,
    /// Choices, comma separated (`;` inside a spec is not needed for these).
    #[arg(long, default_value = "two-choice,one-plus-beta(beta=0.5)")]
    choices: String,
    /// Smallest k with n = 2^k.
    #[arg(long, default_value_t = 6)]
    min_log2_n: u32,
    /// Largest k with n = 2^k.
    #[arg(long, default_value_t = 14)]
    max_log2_n: u32,
    /// m/n of the heavy regime (the light regime is m = n).
    #[arg(long, default_value_t = 64)]
    heavy: u64,
    /// Runs per point.
    #[arg(long, default_value_t = 20)]
    runs: u64,
    /// Master seed.
    #[arg(long, default_value_t = 2011)]
    seed: u64,
    /// Rounds of this many balls decided in parallel (1 = sequential).
    #[arg(long, default_value_t = 1)]
    batch: u64,
}

/// Runs `balloc multidim`.
pub fn run(a: Args) -> Result<i32> {
    match a.action {
        Action::Simulate(s) => simulate(s),
        Action::Experiment(e) => experiment(e),
    }
}

fn simulate(a: SimArgs) -> Result<i32> {
    if a.runs == 0 {
        bail!("invalid --runs: need at least 1 run (2 for an interval)");
    }
    limits::MD_RUNS.check("--runs", a.runs)?;
    limits::MD_BALLS.check("--balls", a.balls)?;
    limits::MD_BATCH.check("--batch", a.batch)?;
    let cfg = MdSimConfig {
        n: a.n,
        balls: a.balls,
        law: BallLaw::parse(&a.ball).context("--ball")?,
        rule: MdRule {
            criterion: Criterion::parse(&a.rule).context("--rule")?,
            choice: Choice::parse(&a.choice).context("--choice")?,
            ties: Default::default(),
        },
        batch: a.batch,
    };
    let runs = cfg.runs(a.seed, a.runs)?;
    let gaps: Vec<f64> = runs.iter().map(|r| r.max_gap).collect();
    let summary = if gaps.len() >= 2 {
        Some(mean_ci(&gaps, 0.95)?)
    } else {
        None
    };
    match a.format {
        Format::Json => {
            let v = json!({
                "config": {"n": cfg.n, "balls": cfg.balls, "ball": cfg.law.spec(),
                           "rule": cfg.rule.label(), "batch": cfg.batch, "runs": a.runs, "seed": a.seed},
                "runs": runs,
                "summary": {"max_gap": summary},
            });
            outln!("{}", serde_json::to_string_pretty(&v)?);
        }
        Format::Csv | Format::Markdown | Format::Latex => {
            let mut t = Table::new(&["run", "max_a gap(a)", "max_b s_b"]);
            for r in &runs {
                t.push(vec![
                    Cell::text(r.run.to_string()),
                    Cell::float(r.max_gap),
                    Cell::float(r.sum_gap),
                ]);
            }
            let head = format!(
                "{} bins, {} balls {}, rule {}, batch {}, seed {}",
                cfg.n,
                cfg.balls,
                cfg.law.spec(),
                cfg.rule.label(),
                cfg.batch,
                a.seed
            );
            let summary = summary.map(|s| {
                format!(
                    "max_a gap(a): mean {}, 95% CI [{}, {}] over {} runs",
                    s.mean, s.ci_low, s.ci_high, s.samples
                )
            });
            match a.format {
                Format::Csv => outln!("{}", t.csv()?),
                Format::Latex => {
                    outln!("% {head}");
                    if let Some(s) = &summary {
                        outln!("% {s}");
                    }
                    outln!("{}", t.latex(Some("rrr")));
                }
                _ => {
                    outln!("{head}\n");
                    outln!("{}", t.markdown());
                    if let Some(s) = &summary {
                        outln!("\n{s}");
                    }
                }
            }
        }
        Format::Text => {
            outln!(
                "{} bins, {} balls {}, rule {}, batch {}, seed {}",
                cfg.n,
                cfg.balls,
                cfg.law.spec(),
                cfg.rule.label(),
                cfg.batch,
                a.seed
            );
            for r in &runs {
                outln!(
                    "run {:>4}: max_a gap(a) = {:.4}, max_b s_b = {:.4}",
                    r.run,
                    r.max_gap,
                    r.sum_gap
                );
            }
            if let Some(s) = summary {
                outln!(
                    "max_a gap(a): mean {:.4}, 95% CI [{:.4}, {:.4}] over {} runs",
                    s.mean,
                    s.ci_low,
                    s.ci_high,
                    s.samples
                );
            }
        }
    }
    Ok(0)
}

/// Temporary file, sync, rename; no temporary file left behind on failure.
fn write_atomic(path: &Path, text: &str) -> Result<()> {
    crate::output::write_atomic(path, text.as_bytes())
        .map_err(|e| crate::output::file_error(path, e).into())
}

fn experiment(a: ExpArgs) -> Result<i32> {
    if a.min_log2_n < 1 || a.min_log2_n > a.max_log2_n || a.max_log2_n > limits::MD_MAX_LOG2_N {
        bail!(
            "invalid --min-log2-n/--max-log2-n: need 1 ≤ min ≤ max ≤ {}",
            limits::MD_MAX_LOG2_N
        );
    }
    if a.heavy < 2 {
        bail!("invalid --heavy: m/n of the heavy regime must be at least 2");
    }
    if a.runs < 2 {
        bail!("invalid --runs: need at least 2 runs per point for an interval");
    }
    limits::MD_RUNS.check("--runs", a.runs)?;
    let largest = limits::checked_mul("--heavy × 2^max-log2-n", a.heavy, 1 << a.max_log2_n)?;
    limits::MD_BALLS.check(
        "--heavy × 2^max-log2-n (balls of the largest point)",
        largest,
    )?;
    limits::MD_BATCH.check("--batch", a.batch)?;
    let choices = a
        .choices
        .split(',')
        .map(|c| Choice::parse(c.trim()).with_context(|| format!("--choices: `{c}`")))
        .collect::<Result<Vec<_>>>()?;
    let sweep = Sweep {
        law: BallLaw::parse(&a.ball).context("--ball")?,
        choices,
        criteria: vec![Criterion::SumLoad, Criterion::MaxPopulated],
        log2_n: (a.min_log2_n..=a.max_log2_n).collect(),
        regimes: vec![
            Regime {
                name: "m=n".into(),
                balls_per_bin: 1,
            },
            Regime {
                name: format!("m={}n", a.heavy),
                balls_per_bin: a.heavy,
            },
        ],
        runs: a.runs,
        seed: a.seed,
        level: 0.95,
        batch: a.batch,
    };
    super::output::writable_dir(Path::new(&a.out), "--out")?;
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(sweep.len() as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    let points = sweep.run(|done, _| bar.set_position(done as u64))?;
    bar.finish_and_clear();
    let out = Path::new(&a.out);
    std::fs::create_dir_all(out).with_context(|| format!("--out: cannot create `{}`", a.out))?;
    write_atomic(&out.join("points.csv"), &to_csv(&points))?;
    write_atomic(
        &out.join("points.json"),
        &serde_json::to_string_pretty(&points)?,
    )?;
    for regime in &sweep.regimes {
        for choice in &sweep.choices {
            let title = format!(
                "{} {}, {}: max_a gap(a) against log₂ n",
                sweep.law.spec(),
                choice.spec(),
                regime.name,
            );
            let plot = gap_plot(&points, &regime.name, &choice.spec(), &title, sweep.runs)?;
            let stem = format!(
                "gap-{}-{}",
                regime.name.replace('=', ""),
                choice.spec().replace(['(', ')', '='], "")
            );
            write_atomic(&out.join(format!("{stem}.svg")), &plot.svg()?)?;
            write_atomic(&out.join(format!("{stem}.tex")), &plot.tikz()?)?;
        }
    }
    for p in &points {
        outln!(
            "{:<8} {:<28} {:<3} n={:<6} max_a gap(a) = {:.3} [{:.3}, {:.3}]  max s = {:.3}  ln ln n = {:.3}",
            p.regime,
            p.choice,
            p.rule,
            p.n,
            p.max_gap.mean,
            p.max_gap.ci_low,
            p.max_gap.ci_high,
            p.sum_gap.mean,
            p.ln_ln_n
        );
    }
    Ok(0)
}
