//! `balloc simulate`: Monte Carlo runs of a process with a summary (`docs/conventions.md` §4).

use super::output::{Cell, Format, Table};
use crate::app::simulate::{SimulateArgs, SimulateRequest};
use crate::plot::{Axis, Plot, Point, Series};
use crate::sim::{self, Plan};
use anyhow::{Context, Result, bail};

/// Arguments of `balloc simulate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Process spec, e.g. `two-choice`, `d-choice(d=3)`, `one-plus-beta(beta=0.5)`.
    #[arg(long)]
    process: String,
    /// Number of bins n ≥ 1.
    #[arg(long)]
    n: usize,
    /// Balls per run m (a run ends at the first observation point with at least m balls).
    #[arg(long)]
    balls: u64,
    /// Batch size b ≥ 1 (1 = sequential).
    #[arg(long, default_value_t = 1)]
    batch: u64,
    /// Weight law, e.g. `unit`, `exp(1)`, `geometric(mean=1)`.
    #[arg(long, default_value = "unit")]
    weights: String,
    /// Number of runs.
    #[arg(long, default_value_t = 10)]
    runs: u64,
    /// Base seed (run i is seeded from the configuration, this seed and i).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Tie rule: random or fixed.
    #[arg(long, default_value = "random")]
    ties: String,
    /// Output format: text, json, csv (one row per run), or the summary table as markdown or
    /// latex.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Potentials to record (repeatable), e.g. `gamma(alpha=0.1)`.
    #[arg(long)]
    potential: Vec<String>,
    /// Record a trajectory at this many checkpoints (batch ends when batched).
    #[arg(long, default_value_t = 0)]
    trajectory: usize,
    /// Record the final histogram of loads.
    #[arg(long)]
    histogram: bool,
    /// Confidence level of the summary intervals.
    #[arg(long, default_value_t = 0.95)]
    confidence: f64,
    /// Write a plot of the mean gap and the mean largest gap so far (with their confidence
    /// intervals) against balls, in the format the extension names: `.svg`, `.tex`/`.tikz`/`.pgf`
    /// (pgfplots), `.pdf` and `.png` (cargo feature `png-pdf`). Each `--potential` gets its own
    /// plot next to it, `<stem>-<potential>.<ext>`.
    #[arg(long)]
    plot: Option<String>,
}

/// Runs `balloc simulate`.
pub fn run(a: Args) -> Result<i32> {
    let req = request_of(&a)?;
    let plan = &req.plan;
    let bar = super::progress(a.runs, "runs");
    let out = req.run(&|| bar.inc(1), &|| false)?;
    bar.finish_and_clear();
    if let Some(path) = &a.plot {
        write_plots(std::path::Path::new(path), &out, plan)?;
    }
    match a.format {
        Format::Json => {
            crate::outln!(
                "{}",
                serde_json::to_string_pretty(&sim::to_json(&out, plan))?
            )
        }
        Format::Csv => print_csv(&out)?,
        Format::Markdown | Format::Latex => print_table(&a, &out),
        Format::Text => print_text(&a, &out),
    }
    Ok(0)
}

/// The request of the arguments (errors name the flags): a trajectory of 50 checkpoints at
/// least when plotting; a `--plot` path is checked before any run.
fn request_of(a: &Args) -> Result<SimulateRequest> {
    let mut args = SimulateArgs::new(a.n, a.balls);
    args.batch = a.batch;
    args.weights = a.weights.clone();
    args.ties = a.ties.clone();
    args.runs = a.runs;
    args.seed = a.seed;
    args.confidence = a.confidence;
    args.histogram = a.histogram;
    args.trajectory = match (&a.plot, a.trajectory) {
        (Some(_), 0) => 50,
        (_, k) => k,
    };
    let req = SimulateRequest::parse(&a.process, &a.potential, &args)?;
    if let Some(path) = &a.plot {
        // The format first (an unknown extension is refused before any run), then the folder.
        crate::plot::check_format(std::path::Path::new(path)).context("--plot")?;
        let p = std::path::Path::new(path);
        crate::output::check_writable(p)
            .map_err(|e| crate::output::file_error(p, e))
            .context("--plot")?;
    }
    Ok(req)
}

/// Writes the gap plot to `path` and one plot per potential next to it.
fn write_plots(path: &std::path::Path, out: &sim::SimOutput, plan: &Plan) -> Result<()> {
    plot_gap(out, plan)?.write(path).context("--plot")?;
    for (k, name) in out.potential_names.iter().enumerate() {
        let file = potential_path(path, name);
        plot_potential(out, plan, k)?
            .write(&file)
            .with_context(|| format!("--plot (potential `{name}`)"))?;
        crate::errln!("--plot: {name} written to {}", file.display());
    }
    Ok(())
}

/// The name of the summary quantity `k` (a potential's own name for `potential_<i>`).
fn quantity_name(out: &sim::SimOutput, k: &str) -> String {
    match k.strip_prefix("potential_") {
        Some(i) => out.potential_names[i.parse::<usize>().unwrap_or(0)].clone(),
        None => k.to_string(),
    }
}

/// `--format csv`: one row per run.
fn print_csv(out: &sim::SimOutput) -> Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut head = vec![
        "run",
        "seed",
        "final_gap",
        "max_gap",
        "spread",
        "balls",
        "steps",
        "mean_quantile",
    ]
    .into_iter()
    .map(String::from)
    .collect::<Vec<_>>();
    head.extend(out.potential_names.iter().cloned());
    w.write_record(&head)?;
    for r in &out.runs {
        let mut row = vec![
            r.run.to_string(),
            r.seed.to_string(),
            r.final_gap.to_string(),
            r.max_gap.to_string(),
            r.spread.to_string(),
            r.balls.to_string(),
            r.steps.to_string(),
            r.mean_quantile.to_string(),
        ];
        row.extend(
            r.potentials
                .iter()
                .map(|v| v.map(|x| x.to_string()).unwrap_or_default()),
        );
        w.write_record(&row)?;
    }
    let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("csv: {e}"))?;
    crate::outln!("{}", String::from_utf8_lossy(&bytes).trim_end());
    Ok(())
}

/// `--format markdown` or `latex`: the summary table under a line naming the configuration.
fn print_table(a: &Args, out: &sim::SimOutput) {
    let mut t = Table::new(&["quantity", "mean", "stderr", "ci_low", "ci_high"]);
    for (k, e) in &out.summary {
        t.push(vec![
            Cell::text(quantity_name(out, k)),
            Cell::float(e.mean),
            Cell::float(e.stderr),
            Cell::float(e.ci_low),
            Cell::float(e.ci_high),
        ]);
    }
    let config: Vec<String> = out
        .config
        .iter()
        .map(|(k, v)| format!("{k} = {}", v.to_string().trim_matches('"')))
        .collect();
    let head = format!(
        "{}, balls = {}, runs = {} (seed {}); {}% Student-t intervals; gap = max x − W/n",
        config.join(", "),
        a.balls,
        a.runs,
        a.seed,
        a.confidence * 100.0
    );
    if a.format == Format::Latex {
        crate::outln!("% {head}\n{}", t.latex(Some("lrrrr")));
    } else {
        crate::outln!("{head}\n\n{}", t.markdown());
    }
}

/// `--format text`: the configuration, then one line per summary quantity.
fn print_text(a: &Args, out: &sim::SimOutput) {
    for (k, v) in &out.config {
        crate::outln!("{k:<16} {}", v.to_string().trim_matches('"'));
    }
    crate::outln!("balls            {}", a.balls);
    crate::outln!("runs             {}  (seed {})", a.runs, a.seed);
    crate::outln!(
        "{:<16} {:>12} {:>12} {:>12} {:>12}   ({}% t-interval; gap = max x − W/n)",
        "quantity",
        "mean",
        "stderr",
        "ci_low",
        "ci_high",
        a.confidence * 100.0
    );
    for (k, e) in &out.summary {
        let name = quantity_name(out, k);
        if e.samples < 2 {
            crate::outln!(
                "{name:<16} {:>12.4}   (stderr and interval {})",
                e.mean,
                sim::statistic::UNDEFINED_FOR_ONE_RUN
            );
        } else {
            crate::outln!(
                "{name:<16} {:>12.4} {:>12.4} {:>12.4} {:>12.4}",
                e.mean,
                e.stderr,
                e.ci_low,
                e.ci_high
            );
        }
    }
}

/// The mean gap over runs at each checkpoint, with its confidence interval, and the mean of the
/// largest gap so far.
pub fn plot_gap(out: &sim::SimOutput, plan: &Plan) -> Result<Plot> {
    let k = out.runs.first().map_or(0, |r| r.trajectory.len());
    let mut gap = Vec::new();
    let mut maxg = Vec::new();
    for i in 0..k {
        let col = |f: &dyn Fn(&sim::Point) -> f64| -> Vec<f64> {
            out.runs.iter().map(|r| f(&r.trajectory[i])).collect()
        };
        let x = out.runs[0].trajectory[i].balls as f64;
        for (dst, values) in [
            (&mut gap, col(&|p| p.gap)),
            (&mut maxg, col(&|p| p.max_gap)),
        ] {
            let e = sim::statistic::mean_ci(&values, plan.confidence)?;
            dst.push(if e.ci_low.is_finite() && e.ci_high.is_finite() {
                Point::with_interval(x, e.mean, e.ci_low, e.ci_high)
            } else {
                Point::new(x, e.mean)
            });
        }
    }
    let title = title(out, "gap");
    let mut p = Plot::new(
        &title,
        Axis::linear("balls").integer().from_zero(),
        Axis::linear("gap (max x − W/n)").from_zero(),
    );
    p.series.push(Series::new("gap", gap));
    p.series.push(Series::new("max gap so far", maxg));
    p.caption = format!(
        "Points: means over {} runs at each checkpoint; bars: {}% Student-t confidence intervals of the mean (none for a single run).",
        plan.runs,
        plan.confidence * 100.0
    );
    Ok(p)
}

/// The title of a plot of `what` in words: the process, n, b and the weights when not unit
/// (`Two-Choice: gap, n = 1000, b = 1`).
fn title(out: &sim::SimOutput, what: &str) -> String {
    let mut t = format!(
        "{}: {what}, n = {}, b = {}",
        crate::plot::words(out.config["process"].as_str().unwrap_or("")),
        out.config["n"],
        out.config["batch"],
    );
    if let Some(w) = out.config.get("weights").and_then(|w| w.as_str())
        && w != "unit"
    {
        t.push_str(&format!(", weights {}", crate::plot::words(w)));
    }
    t
}

/// The file of the plot of a potential next to `path`: `<stem>-<potential>.<ext>`, the
/// potential's spec reduced to letters, digits, `-` and `.`.
fn potential_path(path: &std::path::Path, name: &str) -> std::path::PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "plot".into());
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut clean = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '.' {
            clean.push(c);
        } else if !clean.ends_with('-') {
            clean.push('-');
        }
    }
    let clean = clean.trim_matches('-');
    path.with_file_name(format!("{stem}-{clean}.{ext}"))
}

/// The mean of potential `k` over runs at each checkpoint, with its confidence interval; a
/// logarithmic axis when every mean is positive and they span a factor of 100.
pub fn plot_potential(out: &sim::SimOutput, plan: &Plan, k: usize) -> Result<Plot> {
    let name = &out.potential_names[k];
    let steps = out.runs.first().map_or(0, |r| r.trajectory.len());
    let mut pts = Vec::new();
    for i in 0..steps {
        let values: Vec<f64> = out
            .runs
            .iter()
            .filter_map(|r| r.trajectory[i].potentials.get(k).copied().flatten())
            .filter(|v| v.is_finite())
            .collect();
        if values.len() != out.runs.len() {
            continue;
        }
        let x = out.runs[0].trajectory[i].balls as f64;
        let e = sim::statistic::mean_ci(&values, plan.confidence)?;
        pts.push(if e.ci_low.is_finite() && e.ci_high.is_finite() {
            Point::with_interval(x, e.mean, e.ci_low, e.ci_high)
        } else {
            Point::new(x, e.mean)
        });
    }
    if pts.is_empty() {
        bail!(
            "the potential `{name}` has no finite value at every checkpoint of every run (too large for f64)"
        );
    }
    let lo = pts
        .iter()
        .map(|p| p.bar.map_or(p.y, |b| b.0))
        .fold(f64::INFINITY, f64::min);
    let hi = pts.iter().map(|p| p.y).fold(f64::NEG_INFINITY, f64::max);
    let y = if lo > 0.0 && hi / lo >= 100.0 {
        Axis::log(name)
    } else {
        Axis::linear(name)
    };
    let mut p = Plot::new(
        &title(out, name),
        Axis::linear("balls").integer().from_zero(),
        y,
    );
    p.series.push(Series::new(name, pts));
    p.caption = format!(
        "Points: means over {} runs at each checkpoint; bars: {}% Student-t confidence intervals of the mean (none for a single run).",
        plan.runs,
        plan.confidence * 100.0
    );
    Ok(p)
}
