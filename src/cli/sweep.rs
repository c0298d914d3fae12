//! `balloc sweep FILE.toml [--shard i/k]` and `balloc sweep merge FILE.toml --shards k`.

use crate::app::sweep::{Shard, Sweep};
use anyhow::{Result, bail};
use std::path::Path;

/// Arguments of `balloc sweep`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// `FILE.toml` to run a sweep, or `merge FILE.toml` to merge shard outputs.
    #[arg(required = true, num_args = 1..=2)]
    args: Vec<String>,
    /// Run only shard i of k (0-based i), e.g. `--shard 3/16`.
    #[arg(long)]
    shard: Option<String>,
    /// With `merge`: the number of shards k.
    #[arg(long)]
    shards: Option<u64>,
    /// Plot the grid from the summary: the mean largest gap (with its confidence interval)
    /// against the grid's varying size (batch, n or balls), one series per other configuration;
    /// the format from the extension (`.svg`, `.tex`/`.pgf`, `.pdf`/`.png` with feature
    /// `png-pdf`). Not with `--shard` (plot after `merge`).
    #[arg(long)]
    plot: Option<String>,
}

/// Runs `balloc sweep`.
pub fn run(a: Args) -> Result<i32> {
    let (merge, file) = match a.args.as_slice() {
        [f] => (false, f),
        [m, f] if m == "merge" => (true, f),
        other => bail!("invalid arguments: expected FILE.toml or `merge FILE.toml`, got {other:?}"),
    };
    if let Some(p) = &a.plot {
        if a.shard.is_some() {
            bail!("invalid --plot: a shard has no summary; plot after `balloc sweep merge`");
        }
        crate::plot::check_format(Path::new(p)).map_err(|e| anyhow::anyhow!("--plot: {e}"))?;
        let p = std::path::Path::new(p);
        crate::output::check_writable(p)
            .map_err(|e| anyhow::anyhow!("--plot: {}", crate::output::file_error(p, e)))?;
    }
    let sweep = Sweep::load(Path::new(file))?;
    // A missing output folder is named as such (not as an unreadable input).
    if let Some(dir) = sweep.output.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.is_dir()
    {
        bail!(
            "invalid output of `{file}`: cannot write `{}.csv`: the output folder `{}` does not exist (create it, e.g. `mkdir -p {}`, or change `output`)",
            sweep.output.display(),
            dir.display(),
            dir.display()
        );
    }
    let written = if merge {
        if a.shard.is_some() {
            bail!("invalid --shard: merge takes --shards k");
        }
        let k = a
            .shards
            .ok_or_else(|| anyhow::anyhow!("invalid merge: --shards k is required"))?;
        sweep.merge(k)?
    } else {
        if a.shards.is_some() {
            bail!("invalid --shards: only `sweep merge` takes it; use --shard i/k");
        }
        let shard = a.shard.as_deref().map(Shard::parse).transpose()?;
        let total = match shard {
            Some(s) => (0..sweep.entries.len() as u64 * sweep.runs)
                .filter(|i| i % s.count == s.index)
                .count() as u64,
            None => sweep.entries.len() as u64 * sweep.runs,
        };
        let bar = super::progress(total, "runs");
        let w = sweep.run(shard, &|k| bar.inc(k))?;
        bar.finish_and_clear();
        w
    };
    for p in written {
        crate::outln!("wrote {}", p.display());
    }
    if let Some(p) = &a.plot {
        let text = std::fs::read_to_string(sweep.summary_path())
            .map_err(|e| anyhow::anyhow!("--plot: cannot read the summary: {e}"))?;
        summary_plot(&text)
            .and_then(|plot| Ok(plot.write(Path::new(p))?))
            .map_err(|e| anyhow::anyhow!("--plot: {e}"))?;
        crate::outln!("wrote {p}");
    }
    Ok(0)
}

/// The plot of a sweep's summary CSV: `max_gap_mean` with its interval against the first of
/// `batch`, `n`, `balls` that varies over the rows, one series per value of the other columns
/// (process in words, weights, ties and the other sizes).
///
/// ```ignore
/// // Exercised by tests/workflow.rs through `balloc sweep FILE --plot grid.svg`.
/// ```
pub fn summary_plot(csv_text: &str) -> Result<crate::plot::Plot> {
    use crate::plot::{Axis, Plot, Point, Series};
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    let head: Vec<String> = r.headers()?.iter().map(String::from).collect();
    let col = |name: &str| head.iter().position(|h| h == name);
    let need =
        |name: &str| col(name).ok_or_else(|| anyhow::anyhow!("the summary has no `{name}` column"));
    let rows: Vec<csv::StringRecord> = r.records().collect::<std::result::Result<_, _>>()?;
    if rows.is_empty() {
        bail!("the summary has no rows");
    }
    let sizes = ["batch", "n", "balls"];
    let varies = |c: usize| rows.iter().any(|row| row.get(c) != rows[0].get(c));
    let x_name = sizes
        .iter()
        .copied()
        .find(|s| col(s).is_some_and(varies))
        .unwrap_or("n");
    let xc = need(x_name)?;
    let (m, lo, hi) = (
        need("max_gap_mean")?,
        need("max_gap_ci_low")?,
        need("max_gap_ci_high")?,
    );
    let others: Vec<(&str, usize)> = ["process", "weights", "ties", "n", "batch", "balls"]
        .iter()
        .copied()
        .filter(|s| *s != x_name)
        .filter_map(|s| {
            col(s)
                .filter(|&c| varies(c) || s == "process")
                .map(|c| (s, c))
        })
        .collect();
    let mut series: std::collections::BTreeMap<String, Vec<Point>> = Default::default();
    for row in &rows {
        let label: Vec<String> = others
            .iter()
            .map(|(s, c)| {
                let v = row.get(*c).unwrap_or("");
                match *s {
                    "process" | "weights" => crate::plot::words(v),
                    _ => format!("{s} = {v}"),
                }
            })
            .collect();
        let num = |c: usize| -> Result<f64> {
            row.get(c)
                .unwrap_or("")
                .parse::<f64>()
                .map_err(|_| anyhow::anyhow!("a value of `{}` is not a number", head[c]))
        };
        let (x, y) = (num(xc)?, num(m)?);
        let p = match (num(lo), num(hi)) {
            (Ok(a), Ok(b)) => Point::with_interval(x, y, a, b),
            _ => Point::new(x, y),
        };
        series.entry(label.join(", ")).or_default().push(p);
    }
    let mut plot = Plot::new(
        &format!("Largest gap over the runs against {x_name}"),
        Axis::linear(x_name).integer(),
        Axis::linear("mean largest gap (max x − W/n)").from_zero(),
    );
    for (label, mut pts) in series {
        pts.sort_by(|a, b| a.x.total_cmp(&b.x));
        plot.series.push(Series::new(&label, pts));
    }
    plot.caption = "Points: means of the largest gap of each run; bars: the summary's confidence intervals of the mean.".into();
    Ok(plot)
}
