//! `balloc graph`: facts about a graph and its Bansal–Feldheim preprocessing (`info`), and the
//! Monte Carlo experiments of C §5 (`experiment`).

use super::output::{Cell, Format, Table};
use crate::graph::family::GraphSpec;
use crate::graph::flow::{Routing, congestion_lower_bound};
use crate::graph::tree::Tree;
use crate::graph::{Graph, measures};
use crate::growth::{GridMean, power_fit};
use crate::sim::graph::{Point, Rule, plot_svg, simulate};
use crate::sim::statistic::mean_ci;
use anyhow::{Context, Result, bail};
use num_traits::ToPrimitive;
use serde_json::json;

/// Arguments of `balloc graph`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The action.
    #[command(subcommand)]
    pub action: Action,
}

/// `balloc graph` actions.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Degree, edge connectivity, spectral gap, expansion (n ≤ 20), tree height and flow congestion.
    Info {
        /// cycle, path, torus, hypercube, complete, regular (sized by --n), an edge-list file
        /// `@PATH`, or a sized spec as in theorem files: `sparse-cut(64,24,4)`, `torus(4,8)`,
        /// `regular(20,4,1)`, `edges(0-1 1-2 2-0)`, `file(PATH)`.
        #[arg(long)]
        graph: String,
        /// Number of vertices (not with @PATH or a sized spec).
        #[arg(long)]
        n: Option<usize>,
        /// Degree of `regular`.
        #[arg(long, default_value_t = 3)]
        d: usize,
        /// Seed of `regular`.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Flow routing: auto (explicit for standard graphs, electrical-mw otherwise), explicit,
        /// spanning-tree, electrical, electrical-mw.
        #[arg(long, default_value = "auto")]
        routing: String,
        /// Output format: text, json, or a table (quantity, value) as markdown, csv or latex.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Greedy versus the flow strategy: time-averaged gap against n, fitted exponents, plots (SVG
    /// and PGF/TikZ).
    Experiment {
        /// Graph family: cycle, torus or hypercube.
        #[arg(long, default_value = "cycle")]
        graph: String,
        /// The sizes n (comma separated).
        #[arg(long, value_delimiter = ',', default_value = "10,20,40,80,160,320")]
        n: Vec<usize>,
        /// Balls per run: ⌈factor·n^power⌉.
        #[arg(long, default_value_t = 1.0)]
        factor: f64,
        /// Exponent of n in the number of balls.
        #[arg(long, default_value_t = 3.0)]
        power: f64,
        /// Runs per (n, strategy).
        #[arg(long, default_value_t = 8)]
        runs: u64,
        /// Base seed: run r of a (strategy, graph) is seeded from (model key, seed, r), as in
        /// `balloc simulate`, so the output does not depend on the thread count.
        #[arg(long, default_value_t = 2022)]
        seed: u64,
        /// Output directory (created if missing): writes `GRAPH.json` (every run, the fits),
        /// `GRAPH.svg` and `GRAPH.tex` (the plot, SVG and PGF/TikZ), GRAPH the --graph value;
        /// without it, the JSON is printed.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
}

/// The graph of `--graph`: a spec of the one grammar ([`crate::graph::family`]: `cycle` sized by
/// `--n`, or a sized spec such as `torus(4,8)`, `sparse-cut(64,24,4)`, `edges(…)`, `file(PATH)`),
/// or `@FILE` for `file(FILE)`; `--d` and `--seed` are the arguments of a bare `regular`.
fn build(graph: &str, n: Option<usize>, d: usize, seed: u64) -> Result<Graph> {
    let files = crate::input::Dir::current();
    let text = match graph.strip_prefix('@') {
        Some(path) => format!("file({path})"),
        None if graph.trim() == "regular" => format!("regular(d={d},seed={seed})"),
        None => graph.to_string(),
    };
    let spec = GraphSpec::parse(&text, &files)?;
    if let (Some(own), Some(n)) = (spec.size(), n)
        && (graph.contains('(') || own != n as u64)
    {
        bail!(
            "`{graph}` carries its own size; --n {n} does not apply (give the family name \
             alone to size it with --n)"
        );
    }
    if spec.size().is_none() && n.is_none() {
        bail!("--n is required for a graph family");
    }
    Ok(spec.build(n)?)
}

/// The facts `graph info` prints. Each measure is computed within its stated cost
/// ([`measures`]: closed forms for the standard families, O(n·h + m) for the explicit routing's
/// congestion and the cut bound); a measure beyond its limit is `null` with the reason under
/// `notes`.
fn info(g: &Graph, routing: Routing) -> Result<serde_json::Value> {
    let mut notes = serde_json::Map::new();
    let mut note = |key: &str, e: &dyn std::fmt::Display| {
        notes.insert(key.into(), json!(e.to_string()));
    };
    let k = measures::edge_connectivity(g)
        .map_err(|e| note("edge_connectivity", &e))
        .ok();
    let lam = measures::spectral_gap(g)
        .map_err(|e| note("spectral_gap", &e))
        .ok();
    let h = measures::edge_expansion(g)
        .map_err(|e| note("edge_expansion", &e))
        .ok()
        .map(|(h, _)| h.to_string());
    let explicit = g.family() != crate::graph::Family::General
        && matches!(routing, Routing::Auto | Routing::Explicit);
    // The decomposition, the routing's congestion and support, and the cut bound.
    let routed = Tree::standard(g).and_then(|t| {
        let (lb, _) = congestion_lower_bound(g, &t);
        if explicit {
            let (c, support, _) = measures::explicit_congestion(g, &t)?.expect("a standard family");
            Ok((t.height(), "explicit", c, support, lb))
        } else {
            let f = crate::graph::flow::UnitFlows::route_with(g, &t, routing)?;
            let mut per_edge = vec![0usize; g.m()];
            for fl in &f.flows {
                for (e, _) in fl {
                    per_edge[*e] += 1;
                }
            }
            let support = per_edge.into_iter().max().unwrap_or(0);
            Ok((t.height(), f.method, f.congestion(), support, lb))
        }
    });
    let (height, method, c, support, lb) = match routed {
        Ok((h, m, c, s, lb)) => (Some(h), Some(m), Some(c), Some(s), Some(lb)),
        Err(e) => {
            note("tree_height", &e);
            (None, None, None, None, None)
        }
    };
    let cf = c.as_ref().and_then(|c| c.to_f64());
    Ok(json!({
        "graph": g.name(), "n": g.n(), "m": g.m(), "degree": g.regular_degree(),
        "edge_connectivity": k, "spectral_gap": lam,
        "edge_expansion": h,
        "tree_height": height, "routing": method,
        "congestion": cf, "congestion_exact": c.as_ref().map(|c| c.to_string()),
        "beta_k": cf.map(|c| 1.0 / c), "max_support": support,
        "congestion_lower_bound": lb.as_ref().and_then(|l| l.to_f64()),
        "congestion_lower_bound_exact": lb.as_ref().map(|l| l.to_string()),
        "notes": notes,
    }))
}

/// Runs `balloc graph`.
pub fn run(a: Args) -> Result<i32> {
    match a.action {
        Action::Info {
            graph,
            n,
            d,
            seed,
            routing,
            format,
        } => {
            let g = build(&graph, n, d, seed).context("--graph")?;
            let routing = Routing::parse(&routing).context("--routing")?;
            let o = info(&g, routing)?;
            match format {
                Format::Json => crate::outln!("{}", serde_json::to_string_pretty(&o)?),
                Format::Text => {
                    for (key, v) in o.as_object().expect("object") {
                        if key != "notes" {
                            crate::outln!("{key:<18} {v}");
                        }
                    }
                    for (key, v) in o["notes"].as_object().into_iter().flatten() {
                        crate::outln!("note: {key}: {}", v.as_str().unwrap_or_default());
                    }
                }
                f => {
                    let mut t = Table::new(&["quantity", "value"]);
                    for (key, v) in o.as_object().expect("object") {
                        let text = match v {
                            serde_json::Value::String(s) => s.clone(),
                            serde_json::Value::Null => String::new(),
                            other => other.to_string(),
                        };
                        t.push(vec![Cell::text(key.clone()), Cell::text(text)]);
                    }
                    crate::outln!("{}", t.render(f)?);
                }
            }
        }
        Action::Experiment {
            graph,
            n,
            factor,
            power,
            runs,
            seed,
            out,
        } => {
            if runs < 2 || !(factor > 0.0 && factor.is_finite()) || !power.is_finite() {
                bail!(
                    "invalid --runs/--factor/--power: need runs ≥ 2 and a positive finite factor"
                );
            }
            for &nv in &n {
                // Before any run: the ball count and the work of every n, the output folder.
                let balls = crate::sim::graph::ball_count(factor, nv, power)?;
                crate::limits::SIM_WORK
                    .check_u128("balls × --runs", u128::from(balls) * u128::from(runs))?;
            }
            if let Some(dir) = &out {
                super::output::writable_dir(dir, "--out")?;
            }
            let mut series: Vec<(String, Vec<Point>)> = Vec::new();
            let mut rows = Vec::new();
            let mut fits = serde_json::Map::new();
            for rule in [Rule::Greedy, Rule::Flow] {
                let mut pts = Vec::new();
                for &nv in &n {
                    let g = build(&graph, Some(nv), 3, 1)
                        .with_context(|| format!("--graph {graph} at n = {nv}"))?;
                    let balls = crate::sim::graph::ball_count(factor, nv, power)?;
                    let res = simulate(&g, rule, balls, runs, seed)?;
                    let mg: Vec<f64> = res.iter().map(|r| r.mean_gap).collect();
                    let s = mean_ci(&mg, 0.95)?;
                    crate::errln!(
                        "{:<7} {:<14} balls {balls:>12}  mean gap {:.3} [{:.3}, {:.3}]",
                        rule.name(),
                        g.name(),
                        s.mean,
                        s.ci_low,
                        s.ci_high
                    );
                    rows.push(json!({"strategy": rule.name(), "graph": g.name(), "n": nv, "balls": balls, "runs": res, "mean_gap": s}));
                    pts.push((nv as f64, s));
                }
                if pts.len() >= 3 {
                    let grid: Vec<GridMean> = pts
                        .iter()
                        .map(|p| GridMean {
                            x: p.0,
                            mean: p.1.mean,
                            stderr: p.1.stderr,
                        })
                        .collect();
                    let f = power_fit(&grid, 0.95)?;
                    crate::outln!(
                        "{:<7} exponent {:.3} (95% CI [{:.3}, {:.3}])",
                        rule.name(),
                        f.exponent,
                        f.ci_low,
                        f.ci_high
                    );
                    fits.insert(rule.name().into(), json!(f));
                }
                series.push((rule.name().to_string(), pts));
            }
            let doc = json!({"config": {"graph": graph, "n": n, "factor": factor, "power": power, "runs": runs, "seed": seed,
                "observable": "time average of max L − t/n over every n-th ball of the second half",
                "seeding": "run r from (model key, seed, r) as in balloc simulate",
                "exponent_interval": "normal interval from the runs' standard errors (delta method)"},
                "results": rows, "fits": fits});
            match out {
                None => crate::outln!("{}", serde_json::to_string_pretty(&doc)?),
                Some(dir) => {
                    std::fs::create_dir_all(&dir)
                        .with_context(|| format!("--out {}", dir.display()))?;
                    crate::output::write_atomic(
                        &dir.join(format!("{graph}.json")),
                        serde_json::to_string_pretty(&doc)?.as_bytes(),
                    )
                    .with_context(|| format!("--out {}", dir.display()))?;
                    let title = format!("{graph}: greedy vs flow strategy");
                    let caption = format!(
                        "Points: means over {runs} runs of the time-averaged gap max L − t/n (second half, every n-th ball); bars: 95% Student-t confidence intervals of the mean."
                    );
                    for ext in ["svg", "tex"] {
                        plot_svg(
                            &dir.join(format!("{graph}.{ext}")),
                            &title,
                            &caption,
                            &series,
                        )?;
                    }
                }
            }
        }
    }
    Ok(0)
}
