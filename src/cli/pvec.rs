//! `balloc pvec`: the allocation vector by rank and the constants of conditions C1 and C2.
//!
//! Exact (trust `exact`) for rank-based processes with an exact allocation vector and, with
//! `--loads`, for load-dependent processes with an exact one-ball law (`Process::step_law_exact`:
//! greedy and flow graphical allocation, Mean-Thinning, ...); `float` otherwise.

use super::output::{Cell, Format, Table, read_loads};
use crate::app::pvec::{PvecAt, PvecReport};
use crate::exact::Q;
use crate::loads::{Loads, TieRule};
use crate::process;
use anyhow::{Context, Result, bail};
use serde_json::Value;

/// Arguments of `balloc pvec`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Process spec.
    #[arg(long)]
    process: String,
    /// Number of bins (rank-based processes).
    #[arg(long, conflicts_with = "loads")]
    n: Option<usize>,
    /// Loads `X1,...` or `@FILE`: the per-bin probabilities at this state, sorted by rank.
    #[arg(long, allow_hyphen_values = true)]
    loads: Option<String>,
    /// Quantile δ of C1 (δn must be an integer); prints the best ε and its witness.
    #[arg(long)]
    delta: Option<String>,
    /// Tie rule (with --loads).
    #[arg(long, default_value = "random")]
    ties: String,
    /// Output format: text, json, markdown, csv (one row per value: quantity, index, value,
    /// exact, trust) or latex (rationals as `\frac`).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// Runs `balloc pvec`.
pub fn run(a: Args) -> Result<i32> {
    let proc_ =
        process::parse_with(&a.process, &crate::input::Dir::current()).context("--process")?;
    let ties = TieRule::parse(&a.ties).context("--ties")?;
    let loads: Option<Loads> = a.loads.as_deref().map(read_loads).transpose()?;
    let at = match (&a.n, &loads) {
        (Some(n), None) => PvecAt::Bins(*n),
        (None, Some(l)) => PvecAt::Loads(l),
        _ => bail!("invalid arguments: give exactly one of --n N or --loads X1,..."),
    };
    let r = Report {
        r: PvecReport::new(proc_.as_ref(), at, ties, a.delta.as_deref())?,
        delta: a.delta.clone(),
    };
    match a.format {
        Format::Json => crate::outln!("{}", serde_json::to_string_pretty(&r.json())?),
        Format::Text => r.print_text(),
        Format::Csv => crate::outln!("{}", r.csv().csv()?),
        f => r.print_tables(f),
    }
    Ok(0)
}

/// The report with the δ as given, for the text and table renderings.
struct Report {
    r: PvecReport,
    delta: Option<String>,
}

impl Report {
    /// `exact` when the vector is exact, else `float`.
    fn trust(&self) -> &'static str {
        self.r.trust()
    }

    /// C1's best ε: its float value, its exact value when known, its witness k.
    fn c1_values(&self) -> Option<(f64, Option<Q>, usize)> {
        self.r
            .c1
            .as_ref()
            .map(|c| (c.eps, c.eps_exact.clone(), c.witness_k))
    }

    /// C2's C: its float value, its exact value when known, its witness i.
    fn c2_values(&self) -> (f64, Option<Q>, usize) {
        let c = &self.r.c2;
        (c.c, c.c_exact.clone(), c.witness_i)
    }

    /// The delta as given (empty without `--delta`).
    fn delta_text(&self) -> &str {
        self.delta.as_deref().unwrap_or("")
    }

    /// `--format json`.
    fn json(&self) -> Value {
        self.r.to_json()
    }

    /// `--format text`: the first 40 ranks, then C1 and C2.
    fn print_text(&self) {
        let (n, p, trust) = (self.r.n, &self.r.p, self.trust());
        crate::outln!("process  {}   n = {n}   (trust {trust})", self.r.process);
        crate::outln!(
            "rank  p_i{}",
            if self.r.p_exact.is_some() {
                "  (exact; float)"
            } else {
                ""
            }
        );
        let show = n.min(40);
        for i in 0..show {
            let b = self
                .r
                .expected_balls
                .as_ref()
                .map(|b| format!("  E[balls] = {}", b[i]))
                .unwrap_or_default();
            match &self.r.p_exact {
                Some(e) => crate::outln!("{:>4}  {}  ({}){b}", i + 1, e[i], p[i]),
                None => crate::outln!("{:>4}  {}{b}", i + 1, p[i]),
            }
        }
        if n > show {
            crate::outln!("  ... ({} more ranks; use --format json for all)", n - show);
        }
        match self.c1_values() {
            Some((f, Some(q), k)) => crate::outln!(
                "C1: delta = {}, best eps = {} ({}), witness k = {}  (exact)",
                self.delta_text(),
                q,
                f,
                k
            ),
            Some((f, None, k)) => crate::outln!(
                "C1: delta = {}, best eps = {}, witness k = {}  (float)",
                self.delta_text(),
                f,
                k
            ),
            None => {}
        }
        let (c2v, c2x, c2w) = self.c2_values();
        match &c2x {
            Some(x) => {
                crate::outln!("C2: C = {x} ({c2v}) (n·max p_i), witness i = {c2w}  (exact)")
            }
            None => crate::outln!("C2: C = {c2v} (n·max p_i), witness i = {c2w}  (float)"),
        }
    }

    /// `--format csv`: one row per value (quantity, index, value, exact, trust).
    fn csv(&self) -> Table {
        let trust = self.trust();
        let mut t = Table::new(&["quantity", "index", "value", "exact", "trust"]);
        let exact_text = |q: Option<&Q>| Cell::text(q.map(|q| q.to_string()).unwrap_or_default());
        for i in 0..self.r.n {
            let q = self.r.p_exact.as_ref().map(|e| &e[i]);
            t.push(vec![
                Cell::text("p"),
                Cell::text((i + 1).to_string()),
                Cell::float(self.r.p[i]),
                exact_text(q),
                Cell::text(trust),
            ]);
        }
        if let Some(b) = &self.r.expected_balls {
            for (i, v) in b.iter().enumerate() {
                t.push(vec![
                    Cell::text("expected_balls"),
                    Cell::text((i + 1).to_string()),
                    Cell::float(*v),
                    Cell::text(""),
                    Cell::text("float"),
                ]);
            }
        }
        if let Some((eps, q, k)) = &self.c1_values() {
            t.push(vec![
                Cell::text("c1_delta"),
                Cell::text(""),
                Cell::float(self.r.c1.as_ref().map_or(f64::NAN, |c| c.delta)),
                Cell::text(self.delta.clone().unwrap_or_default()),
                Cell::text("exact"),
            ]);
            t.push(vec![
                Cell::text("c1_eps"),
                Cell::text(k.to_string()),
                Cell::float(*eps),
                exact_text(q.as_ref()),
                Cell::text(trust),
            ]);
        }
        let (c2v, c2q, c2w) = self.c2_values();
        t.push(vec![
            Cell::text("c2_c"),
            Cell::text(c2w.to_string()),
            Cell::float(c2v),
            exact_text(c2q.as_ref()),
            Cell::text(trust),
        ]);
        t
    }

    /// `--format markdown` or `latex`: the vector by rank and the constants, as two tables.
    fn print_tables(&self, f: Format) {
        let (n, trust) = (self.r.n, self.trust());
        let value_cell = |x: f64, q: Option<&Q>| match q {
            Some(q) => Cell::rational(q),
            None => Cell::float(x),
        };
        let mut cols = vec!["rank", "p_i"];
        if self.r.expected_balls.is_some() {
            cols.push("E[balls]");
        }
        let mut t = Table::new(&cols);
        for i in 0..n {
            let mut row = vec![
                Cell::text((i + 1).to_string()),
                value_cell(self.r.p[i], self.r.p_exact.as_ref().map(|e| &e[i])),
            ];
            if let Some(b) = &self.r.expected_balls {
                row.push(Cell::float(b[i]));
            }
            t.push(row);
        }
        let mut k = Table::new(&["constant", "value", "witness", "trust"]);
        if let Some((eps, q, wk)) = &self.c1_values() {
            k.push(vec![
                Cell::math(
                    format!("C1 best eps (delta = {})", self.delta_text()),
                    &format!(
                        "\\text{{C1: best }}\\varepsilon\\ (\\delta = {})",
                        self.delta_text()
                    ),
                ),
                value_cell(*eps, q.as_ref()),
                Cell::text(format!("k = {wk}")),
                Cell::text(trust),
            ]);
        }
        let (c2v, c2q, c2w) = self.c2_values();
        k.push(vec![
            Cell::math("C2 C = n max p_i", "\\text{C2: } C = n \\max_i p_i"),
            value_cell(c2v, c2q.as_ref()),
            Cell::text(format!("i = {c2w}")),
            Cell::text(trust),
        ]);
        let head = format!("{}, n = {n} (trust {trust})", self.r.process);
        match f {
            Format::Latex => {
                crate::outln!("% {}", head);
                crate::outln!(
                    "{}\n\n{}",
                    t.latex(Some(if self.r.expected_balls.is_some() {
                        "rll"
                    } else {
                        "rl"
                    })),
                    k.latex(Some("llll"))
                );
            }
            _ => {
                crate::outln!("{}\n\n{}\n\n{}", head, t.markdown(), k.markdown());
            }
        }
    }
}
