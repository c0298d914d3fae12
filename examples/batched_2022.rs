//! Reproduces the four experiments of Section 8 of Los–Sauerwald, *Balanced Allocations in
//! Batches: Simplified and Generalized* (SPAA 2022), with the protocol of the authors' code
//! (read in the authors' code; `docs/derivations.md` §10):
//!
//! * n = 1000 bins from all-zero loads; b = k·n; a run has ⌊1000/k⌋ batches (m = ⌊1000/k⌋·b ≤ n²);
//! * the recorded value of a run is the largest gap `max x − W/n` over all batch ends; a data point
//!   is its mean over the runs (here with a 95% t-interval);
//! * Three-Choice breaks ties by position (fixed), Two-Choice and (1+β) at random;
//! * Quantile(1/ln n) rejects the ⌈n/ln n⌉ = 145 heaviest positions, i.e. quantile(delta=0.145).
//!
//! ```sh
//! cargo run --release --example batched_2022 -- [--out DIR] [--runs R] [--quick]
//! ```
//! writes `fig8_{1,2,3,4}.csv`, `.svg` and `README.md` (the tables and the wall time) to DIR
//! (default `experiments/batched-2022`). `--quick` uses 5 runs and a coarse grid (a smoke test).

use balloc::plot::{Axis, Plot, Point, Series};
use balloc::sim::statistic::mean_ci;
use balloc::sim::{self, Config, Plan};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

const N: usize = 1000;

struct Curve {
    label: String,
    /// (x, mean, ci half-width)
    points: Vec<(f64, f64, f64)>,
}

fn point(spec: &str, ties: &str, weights: &str, k: u64, runs: u64, seed: u64) -> (f64, f64) {
    let b = k * N as u64;
    let batches = 1000 / k;
    let cfg = Config::parse(spec, N, b, weights, ties).expect("valid configuration");
    let plan = Plan::new(batches * b, runs, seed);
    let out = sim::simulate(&cfg, &plan, &|| {}).expect("simulation");
    let e = out
        .summary
        .iter()
        .find(|s| s.0 == "max_gap")
        .expect("max_gap")
        .1;
    (e.mean, e.ci_high - e.mean)
}

fn sweep_k(procs: &[(&str, &str, &str)], weights: &str, ks: &[u64], runs: u64) -> Vec<Curve> {
    procs
        .iter()
        .map(|&(label, spec, ties)| {
            let points = ks
                .iter()
                .map(|&k| {
                    let (m, h) = point(spec, ties, weights, k, runs, 2022);
                    eprintln!("  {label:<28} k = {k:>3}: mean max gap {m:.3} ± {h:.3}");
                    (k as f64, m, h)
                })
                .collect();
            Curve {
                label: label.to_string(),
                points,
            }
        })
        .collect()
}

fn write_outputs(
    dir: &std::path::Path,
    name: &str,
    title: &str,
    xlabel: &str,
    curves: &[Curve],
    runs: u64,
    md: &mut String,
) {
    let mut csv = csv_field(xlabel);
    for c in curves {
        let (m, h) = (format!("{} mean", c.label), format!("{} ci95", c.label));
        write!(csv, ",{},{}", csv_field(&m), csv_field(&h)).unwrap();
    }
    csv.push('\n');
    writeln!(md, "\n### {title}\n").unwrap();
    let mut head = format!("| {xlabel} |");
    let mut rule = String::from("|---:|");
    for c in curves {
        write!(head, " {} |", c.label).unwrap();
        rule.push_str("---:|");
    }
    writeln!(md, "{head}\n{rule}").unwrap();
    for i in 0..curves[0].points.len() {
        let x = curves[0].points[i].0;
        write!(csv, "{x}").unwrap();
        let mut row = format!("| {x} |");
        for c in curves {
            let (_, m, h) = c.points[i];
            write!(csv, ",{m},{h}").unwrap();
            write!(row, " {m:.2} ± {h:.2} |").unwrap();
        }
        csv.push('\n');
        writeln!(md, "{row}").unwrap();
    }
    balloc::output::write_atomic(&dir.join(format!("{name}.csv")), csv.as_bytes()).unwrap();
    let mut plot = Plot::new(
        title,
        Axis::linear(xlabel).integer(),
        Axis::linear("average max gap").from_zero(),
    );
    for c in curves {
        plot.series.push(Series::new(
            &c.label,
            c.points
                .iter()
                .map(|&(x, m, h)| Point::with_interval(x, m, m - h, m + h))
                .collect(),
        ));
    }
    plot.caption = format!(
        "Points: means over {runs} runs of the largest gap max x − W/n over all batch ends; bars: 95% Student-t confidence intervals of the mean."
    );
    for ext in ["svg", "tex"] {
        plot.write(&dir.join(format!("{name}.{ext}"))).unwrap();
    }
}

/// A CSV field (RFC 4180): quoted, with inner quotes doubled, when it holds a comma, a quote or a
/// line break (labels such as "(1+β), β = 0.7" do).
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The last section of the generated README: the reading of the tables is written by hand in
/// `FINDINGS.md` next to it, which regenerating the tables leaves alone.
const FINDINGS_POINTER: &str = "\n## What the results show\n\nWritten by hand from these tables \
(regenerating them does not touch it): [FINDINGS.md](FINDINGS.md).\n";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let get = |f: &str| {
        args.iter()
            .position(|a| a == f)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let quick = args.iter().any(|a| a == "--quick");
    let dir = PathBuf::from(get("--out").unwrap_or_else(|| "experiments/batched-2022".into()));
    let runs: u64 = get("--runs")
        .map(|r| r.parse().expect("--runs: an integer"))
        .unwrap_or(if quick { 5 } else { 100 });
    std::fs::create_dir_all(&dir).expect("--out: cannot create the directory");
    let t0 = Instant::now();
    let beta_log = 1.0 / (N as f64).ln();
    let ks: Vec<u64> = if quick {
        vec![1, 10, 25, 50]
    } else {
        (1..=50).collect()
    };
    let ks2: Vec<u64> = if quick {
        vec![1, 51, 221]
    } else {
        (0..=44).map(|i| 1 + 5 * i).collect()
    };
    let procs = [
        ("Three-Choice (fixed ties)", "d-choice(d=3)", "fixed"),
        ("Two-Choice", "two-choice", "random"),
        ("(1+β), β = 0.7", "one-plus-beta(beta=0.7)", "random"),
        ("(1+β), β = 0.5", "one-plus-beta(beta=0.5)", "random"),
    ];
    let mut md = String::new();
    let mut timing = String::new();

    let t = Instant::now();
    eprintln!("Figure 8.1 (unit weights)");
    let c1 = sweep_k(&procs, "unit", &ks, runs);
    write_outputs(
        &dir,
        "fig8_1",
        "Fig. 8.1: b-batched, unit weights, n = 1000, m ≤ n²",
        "k = b/n",
        &c1,
        runs,
        &mut md,
    );
    writeln!(timing, "| 8.1 | {:.1} s |", t.elapsed().as_secs_f64()).unwrap();

    let t = Instant::now();
    eprintln!("Figure 8.2 (small largest probability)");
    let beta_spec = format!("one-plus-beta(beta={beta_log})");
    let procs2 = [
        ("(1+β), β = 0.5", "one-plus-beta(beta=0.5)", "random"),
        ("(1+β), β = 1/ln n", beta_spec.as_str(), "random"),
        ("Quantile(1/ln n)", "quantile(delta=0.145)", "random"),
    ];
    let c2 = sweep_k(&procs2, "unit", &ks2, runs);
    write_outputs(
        &dir,
        "fig8_2",
        "Fig. 8.2: (1+β) and Quantile(1/ln n), unit weights, n = 1000",
        "k = b/n",
        &c2,
        runs,
        &mut md,
    );
    writeln!(timing, "| 8.2 | {:.1} s |", t.elapsed().as_secs_f64()).unwrap();

    let t = Instant::now();
    eprintln!("Figure 8.3 (Exp(1) weights)");
    let c3 = sweep_k(&procs, "exp(1)", &ks, runs);
    write_outputs(
        &dir,
        "fig8_3",
        "Fig. 8.3: b-batched, Exp(1) weights, n = 1000, m ≤ n²",
        "k = b/n",
        &c3,
        runs,
        &mut md,
    );
    writeln!(timing, "| 8.3 | {:.1} s |", t.elapsed().as_secs_f64()).unwrap();

    let t = Instant::now();
    eprintln!("Figure 8.4 (Two-Choice with and without random tie-breaking, b = 25n)");
    let runs4 = if quick { 5 } else { runs.max(100) };
    let mut c4 = Vec::new();
    for (label, ties) in [
        ("with random tie-breaking", "random"),
        ("without (ties by position)", "fixed"),
    ] {
        let cfg = Config::parse("two-choice", N, 25 * N as u64, "unit", ties).unwrap();
        let mut plan = Plan::new(40 * 25 * N as u64, runs4, 2022);
        plan.trajectory = 40;
        let out = sim::simulate(&cfg, &plan, &|| {}).unwrap();
        let points = (0..40)
            .map(|i| {
                let v: Vec<f64> = out.runs.iter().map(|r| r.trajectory[i].max_gap).collect();
                let e = mean_ci(&v, 0.95).unwrap();
                ((i + 1) as f64, e.mean, e.ci_high - e.mean)
            })
            .collect();
        c4.push(Curve {
            label: label.into(),
            points,
        });
    }
    write_outputs(
        &dir,
        "fig8_4",
        "Fig. 8.4: Two-Choice, b = 25n, n = 1000: running max gap per batch",
        "batch",
        &c4,
        runs,
        &mut md,
    );
    writeln!(timing, "| 8.4 | {:.1} s |", t.elapsed().as_secs_f64()).unwrap();

    let total = t0.elapsed().as_secs_f64();
    let threads = rayon::current_num_threads();
    let mut readme = format!(
        "# Section 8 of *Balanced Allocations in Batches* (Los–Sauerwald, SPAA 2022), reproduced\n\n\
Generated by `cargo run --release --example batched_2022 -- --runs {runs}` ({threads} threads). \
Protocol: docs/derivations.md §10 (n = 1000, b = k·n, ⌊1000/k⌋ batches, value of a run = largest gap max x − W/n \
over batch ends, mean over {runs} runs with a 95% t-interval; Figure 8.4: {runs4} runs). Seeds: base \
seed 2022, run i seeded from (configuration, 2022, i).\n\n\
Wall time: {total:.1} s in total.\n\n| experiment | wall time |\n|---|---:|\n{timing}"
    );
    readme.push_str(&md);
    readme.push_str(FINDINGS_POINTER);
    balloc::output::write_atomic(&dir.join("README.md"), readme.as_bytes()).unwrap();
    eprintln!("done in {total:.1} s; wrote {}", dir.display());
}
