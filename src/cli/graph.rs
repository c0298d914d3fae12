//! `balloc graph`: facts about a graph and its Bansal–Feldheim preprocessing (`info`), and the
//! Monte Carlo experiments of C §5 (`experiment`).

use super::output::Format;
use crate::graph::experiment::{Point, Rule, fit_power, plot_svg, simulate, summarize};
use crate::graph::flow::{Routing, congestion_lower_bound};
use crate::graph::strategy::Strategy;
use crate::graph::tree::Tree;
use crate::graph::{Graph, GraphKind, measures};
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
        /// cycle, path, torus, hypercube, complete, regular, or an edge-list file `@PATH`.
        #[arg(long)]
        graph: String,
        /// Number of vertices (not with @PATH).
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
        /// Output format (text or json).
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Greedy versus the flow strategy: time-averaged gap against n, fitted exponents, SVG plots.
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
        /// Base seed.
        #[arg(long, default_value_t = 2022)]
        seed: u64,
        /// Output directory (results.json and gap.svg are written there); none: print only.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
}

fn build(graph: &str, n: Option<usize>, d: usize, seed: u64) -> Result<Graph> {
    if let Some(p) = graph.strip_prefix('@') {
        return Ok(Graph::read_edge_list(p)?);
    }
    let kind = match graph {
        "cycle" => GraphKind::Cycle,
        "path" => GraphKind::Path,
        "torus" => GraphKind::Torus,
        "hypercube" => GraphKind::Hypercube,
        "complete" => GraphKind::Complete,
        "regular" => GraphKind::Regular { d, seed },
        other => bail!(
            "unknown --graph `{other}`; accepted: cycle, path, torus, hypercube, complete, regular, @FILE"
        ),
    };
    let n = n.context("--n is required for a graph family")?;
    Ok(kind.build(n)?)
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
            let k = measures::edge_connectivity(&g);
            let lam = measures::spectral_gap(&g).ok();
            let h = measures::edge_expansion(&g).ok().map(|(h, _)| h);
            let t = Tree::standard(&g).context("decomposition")?;
            let (lb, _) = congestion_lower_bound(&g, &t);
            let s = Strategy::with_routing(&g, t, routing).context("preprocessing")?;
            let c = s.congestion.to_f64().unwrap_or(f64::NAN);
            let o = json!({
                "graph": g.name(), "n": g.n(), "m": g.m(), "degree": g.regular_degree(),
                "edge_connectivity": k, "spectral_gap": lam,
                "edge_expansion": h.as_ref().map(|h| h.to_string()),
                "tree_height": s.tree.height(), "routing": s.flows.method,
                "congestion": c, "congestion_exact": s.congestion.to_string(),
                "beta_k": 1.0 / c, "max_support": s.support_size(),
                "congestion_lower_bound": lb.to_f64().unwrap_or(f64::NAN),
                "congestion_lower_bound_exact": lb.to_string(),
            });
            match format {
                Format::Json => crate::outln!("{}", serde_json::to_string_pretty(&o)?),
                _ => {
                    for (key, v) in o.as_object().expect("object") {
                        crate::outln!("{key:<18} {v}");
                    }
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
                crate::graph::experiment::ball_count(factor, nv, power)?; // before any run
            }
            let mut series: Vec<(String, Vec<Point>)> = Vec::new();
            let mut rows = Vec::new();
            let mut fits = serde_json::Map::new();
            for rule in [Rule::Greedy, Rule::Flow] {
                let mut pts = Vec::new();
                for &nv in &n {
                    let g = build(&graph, Some(nv), 3, 1)
                        .with_context(|| format!("--graph {graph} at n = {nv}"))?;
                    let balls = crate::graph::experiment::ball_count(factor, nv, power)?;
                    let res = simulate(&g, rule, balls, runs, seed)?;
                    let mg: Vec<f64> = res.iter().map(|r| r.mean_gap).collect();
                    let s = summarize(&mg, 0.95)?;
                    eprintln!(
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
                    let f = fit_power(
                        &pts.iter().map(|p| p.0).collect::<Vec<_>>(),
                        &pts.iter().map(|p| p.1.mean).collect::<Vec<_>>(),
                        0.95,
                    )?;
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
                "observable": "time average of max L − t/n over every n-th ball of the second half"},
                "results": rows, "fits": fits});
            match out {
                None => crate::outln!("{}", serde_json::to_string_pretty(&doc)?),
                Some(dir) => {
                    std::fs::create_dir_all(&dir)
                        .with_context(|| format!("--out {}", dir.display()))?;
                    crate::sim::sweep::atomic_write(
                        dir.join(format!("{graph}.json")),
                        serde_json::to_string_pretty(&doc)?.as_bytes(),
                    )
                    .with_context(|| format!("--out {}", dir.display()))?;
                    plot_svg(
                        &dir.join(format!("{graph}.svg")),
                        &format!("{graph}: greedy vs flow strategy (95% t-intervals)"),
                        &series,
                    )?;
                }
            }
        }
    }
    Ok(0)
}
