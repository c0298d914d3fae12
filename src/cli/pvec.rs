//! `balloc pvec`: the allocation vector by rank and the constants of conditions C1 and C2.
//!
//! Exact (trust `exact`) for rank-based processes with an exact allocation vector and, with
//! `--loads`, for load-dependent processes with an exact one-ball law (`Process::step_law_exact`:
//! greedy and flow graphical allocation, Mean-Thinning, ...); `float` otherwise.

use super::output::{Cell, Format, Table, read_loads};
use crate::condition::{BestC, BestEps, best_c, best_eps, delta_n};
use crate::exact::Q;
use crate::limits;
use crate::loads::{Loads, Ranking, TieRule};
use crate::process;
use crate::spec::parse_ratio;
use anyhow::{Context, Result, bail};
use num_traits::ToPrimitive;
use serde_json::{Map, Value, json};

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

/// n, the vector by rank, its exact form, the expected balls by rank.
type Evaluated = (usize, Vec<f64>, Option<Vec<Q>>, Option<Vec<f64>>);

/// Runs `balloc pvec`.
pub fn run(a: Args) -> Result<i32> {
    let proc_ =
        process::parse_with(&a.process, &crate::input::Dir::current()).context("--process")?;
    let ties = TieRule::parse(&a.ties).context("--ties")?;
    let (n, p, exact, balls): Evaluated = match (&a.n, &a.loads) {
        (Some(n), None) => at_n(proc_.as_ref(), *n)?,
        (None, Some(l)) => at_loads(proc_.as_ref(), l, ties)?,
        _ => bail!("invalid arguments: give exactly one of --n N or --loads X1,..."),
    };
    let c1 = match &a.delta {
        None => None,
        Some(d) => {
            let dr = parse_ratio(d).map_err(|e| anyhow::anyhow!("invalid --delta: {e}"))?;
            let k = delta_n(n, &dr).context("--delta")?;
            Some(match &exact {
                Some(pe) => Either::Exact(best_eps(pe, k)?),
                None => Either::Float(best_eps(&p, k)?),
            })
        }
    };
    let c2 = match &exact {
        Some(pe) => Either::Exact(best_c(pe)),
        None => Either::Float(best_c(&p)),
    };
    let r = Report {
        spec: proc_.spec(),
        n,
        p,
        exact,
        balls,
        delta: a.delta.clone(),
        c1,
        c2,
    };
    match a.format {
        Format::Json => crate::outln!("{}", serde_json::to_string_pretty(&r.json())?),
        Format::Text => r.print_text(),
        Format::Csv => crate::outln!("{}", r.csv().csv()?),
        f => r.print_tables(f),
    }
    Ok(0)
}

/// The vector of a rank-based process on `n` bins (exact up to [`limits::PVEC_EXACT_N`] bins
/// when the process has an exact one).
fn at_n(proc_: &dyn process::Process, n: usize) -> Result<Evaluated> {
    if n == 0 {
        bail!("invalid --n: must be at least 1");
    }
    limits::BINS.check_usize("--n", n)?;
    let Some(p) = proc_.rank_probabilities(n)? else {
        bail!(
            "invalid --n: {} is not rank-based; give --loads to evaluate it at a load vector",
            proc_.spec()
        );
    };
    let exact = if n <= limits::PVEC_EXACT_N {
        proc_.rank_probabilities_exact(n)?
    } else {
        None
    };
    Ok((n, p, exact, None))
}

/// The per-bin probabilities at the loads `l` (text or `@FILE`) by rank, with the expected balls
/// per bin when a step allocates more than one ball.
fn at_loads(proc_: &dyn process::Process, l: &str, ties: TieRule) -> Result<Evaluated> {
    let loads: Loads = read_loads(l)?;
    let law = proc_.step_law(&loads, ties)?;
    let r = loads.ranking();
    let mut p = r.by_rank(&law.per_bin_probability());
    let balls = (!law.is_unit()).then(|| r.by_rank(&law.per_bin_expected_balls()));
    let exact = if loads.n() > limits::PVEC_EXACT_N {
        None
    } else if let Some(pe) = proc_.rank_probabilities_exact(loads.n())? {
        Some(r.by_rank(&r.per_bin(&pe, ties)))
    } else {
        // Load-dependent processes with an exact one-ball law (greedy graphical, ...):
        // the per-bin probabilities by rank; under random tie-breaking a tied group's
        // ranks are assigned uniformly, so each rank of the group gets its average.
        match proc_.step_law_exact(&loads, ties)? {
            Some(ex) if ex.is_unit() => {
                let pe = by_rank_with_ties(&r, &ex.per_bin_probability(), ties);
                p = pe.iter().map(to_f).collect();
                Some(pe)
            }
            _ => None,
        }
    };
    Ok((loads.n(), p, exact, balls))
}

/// What `balloc pvec` reports: the vector by rank (exact when known), the expected balls by
/// rank, and the constants of C1 (with `--delta`) and C2.
struct Report {
    spec: String,
    n: usize,
    p: Vec<f64>,
    exact: Option<Vec<Q>>,
    balls: Option<Vec<f64>>,
    delta: Option<String>,
    c1: Option<Either<BestEps<Q>, BestEps<f64>>>,
    c2: Either<BestC<Q>, BestC<f64>>,
}

impl Report {
    /// `exact` when the vector is exact, else `float`.
    fn trust(&self) -> &'static str {
        if self.exact.is_some() {
            "exact"
        } else {
            "float"
        }
    }

    /// C1's best ε: its float value, its exact value when known, its witness k.
    fn c1_values(&self) -> Option<(f64, Option<Q>, usize)> {
        self.c1.as_ref().map(|c1| match c1 {
            Either::Exact(b) => (to_f(&b.eps), Some(b.eps.clone()), b.witness_k),
            Either::Float(b) => (b.eps, None, b.witness_k),
        })
    }

    /// C2's C: its float value, its exact value when known, its witness i.
    fn c2_values(&self) -> (f64, Option<Q>, usize) {
        match &self.c2 {
            Either::Exact(BestC { c, witness_i }) => (to_f(c), Some(c.clone()), *witness_i),
            Either::Float(BestC { c, witness_i }) => (*c, None, *witness_i),
        }
    }

    /// The delta as given (empty without `--delta`).
    fn delta_text(&self) -> &str {
        self.delta.as_deref().unwrap_or("")
    }

    /// `--format json`.
    fn json(&self) -> Value {
        let mut o = Map::new();
        o.insert("n".into(), json!(self.n));
        o.insert("process".into(), json!(self.spec));
        o.insert("p".into(), json!(self.p));
        if let Some(pe) = &self.exact {
            let s: Vec<String> = pe.iter().map(|r| r.to_string()).collect();
            o.insert("p_exact".into(), json!(s));
        }
        if let Some(b) = &self.balls {
            o.insert("expected_balls".into(), json!(b));
        }
        if let Some((eps, epsx, k)) = self.c1_values() {
            let mut m = Map::new();
            m.insert("delta".into(), json!(self.delta.as_deref().map(parse_f)));
            m.insert("eps".into(), json!(eps));
            if let Some(x) = epsx {
                m.insert("eps_exact".into(), json!(x.to_string()));
            }
            m.insert("witness_k".into(), json!(k));
            o.insert("c1".into(), Value::Object(m));
        }
        let (c2v, c2x, c2w) = self.c2_values();
        let mut m = Map::new();
        m.insert("c".into(), json!(c2v));
        if let Some(x) = c2x {
            m.insert("c_exact".into(), json!(x.to_string()));
        }
        m.insert("witness_i".into(), json!(c2w));
        o.insert("c2".into(), Value::Object(m));
        o.insert("trust".into(), json!(self.trust()));
        Value::Object(o)
    }

    /// `--format text`: the first 40 ranks, then C1 and C2.
    fn print_text(&self) {
        let (n, p, trust) = (self.n, &self.p, self.trust());
        crate::outln!("process  {}   n = {n}   (trust {trust})", self.spec);
        crate::outln!(
            "rank  p_i{}",
            if self.exact.is_some() {
                "  (exact; float)"
            } else {
                ""
            }
        );
        let show = n.min(40);
        for i in 0..show {
            let b = self
                .balls
                .as_ref()
                .map(|b| format!("  E[balls] = {}", b[i]))
                .unwrap_or_default();
            match &self.exact {
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
        for i in 0..self.n {
            let q = self.exact.as_ref().map(|e| &e[i]);
            t.push(vec![
                Cell::text("p"),
                Cell::text((i + 1).to_string()),
                Cell::float(self.p[i]),
                exact_text(q),
                Cell::text(trust),
            ]);
        }
        if let Some(b) = &self.balls {
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
                Cell::float(self.delta.as_deref().map(parse_f).unwrap_or(f64::NAN)),
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
        let (n, trust) = (self.n, self.trust());
        let value_cell = |x: f64, q: Option<&Q>| match q {
            Some(q) => Cell::rational(q),
            None => Cell::float(x),
        };
        let mut cols = vec!["rank", "p_i"];
        if self.balls.is_some() {
            cols.push("E[balls]");
        }
        let mut t = Table::new(&cols);
        for i in 0..n {
            let mut row = vec![
                Cell::text((i + 1).to_string()),
                value_cell(self.p[i], self.exact.as_ref().map(|e| &e[i])),
            ];
            if let Some(b) = &self.balls {
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
        let head = format!("{}, n = {n} (trust {trust})", self.spec);
        match f {
            Format::Latex => {
                crate::outln!("% {}", head);
                crate::outln!(
                    "{}\n\n{}",
                    t.latex(Some(if self.balls.is_some() { "rll" } else { "rl" })),
                    k.latex(Some("llll"))
                );
            }
            _ => {
                crate::outln!("{}\n\n{}\n\n{}", head, t.markdown(), k.markdown());
            }
        }
    }
}

/// Per-bin values in rank order (heaviest first); with random tie-breaking every tied group's
/// entries are replaced by their average (`docs/conventions.md` §1: ranks inside a tied group are uniform).
fn by_rank_with_ties(r: &Ranking, per_bin: &[Q], ties: TieRule) -> Vec<Q> {
    let mut p = r.by_rank(per_bin);
    if ties == TieRule::Random {
        for grp in &r.groups {
            let s: Q = p[grp.clone()].iter().sum();
            let avg = s / Q::from_integer(grp.len().into());
            p[grp.clone()].iter_mut().for_each(|v| *v = avg.clone());
        }
    }
    p
}

enum Either<A, B> {
    Exact(A),
    Float(B),
}

fn to_f(r: &Q) -> f64 {
    r.to_f64().unwrap_or(f64::NAN)
}

fn parse_f(d: &str) -> f64 {
    crate::spec::parse_f64(d).unwrap_or(f64::NAN)
}
