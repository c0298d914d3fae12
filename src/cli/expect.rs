//! `balloc expect`: exact one-step or one-batch expectation of a potential at a load vector.
//!
//! Every value is reported with its trust level: `exact` (a rational, e.g. `11/2`) for the
//! quadratic and absolute-value potentials under a process with a rational step law; `enclosure`
//! (the digits that a correctly rounded interval guarantees) for Φ, Ψ, Γ; `float` otherwise.

use super::output::{Cell, Format, Table, common_digits, fmt_scaled, read_loads};
use crate::Certified;
use crate::app::expect::{ExpectRequest, QUANTITIES};
use crate::expectation::{CERTIFY_LIMIT, Expectation, expect};
use crate::loads::Levels;
use anyhow::{Context, Result};

/// Arguments of `balloc expect`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Process spec, e.g. `two-choice`, `d-choice(d=3)`, `quantile(delta=0.25)`.
    #[arg(long)]
    process: String,
    /// Potential spec, e.g. `gamma(alpha=0.5)`, `quadratic`, `absolute`.
    #[arg(long)]
    potential: String,
    /// Loads `X1,X2,...` or `@FILE` (numbers separated by commas or white space).
    #[arg(long, allow_hyphen_values = true)]
    loads: String,
    /// Weight law, e.g. `unit`, `exp(1)`, `geometric(mean=1)`.
    #[arg(long, default_value = "unit")]
    weights: String,
    /// Batch size b ≥ 1 (b balls decided on the load vector at the start of the batch).
    #[arg(long, default_value_t = 1, allow_hyphen_values = true)]
    batch: u64,
    /// Tie rule.
    #[arg(long, default_value = "random")]
    ties: String,
    /// Output format: text, json, or a table of the values with their trust level as markdown,
    /// csv or latex (rationals as `\frac`).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// Runs `balloc expect`.
pub fn run(a: Args) -> Result<i32> {
    let req = ExpectRequest::parse(&a.process, &a.potential, &a.weights, a.batch, &a.ties)?;
    let (e, cert) = match stream_levels(&a.loads, &req)? {
        // Certified values for vectors of at most CERTIFY_LIMIT bins (the loads are read whole
        // for them; the streamed route serves the large files).
        Some(e) if e.n <= CERTIFY_LIMIT => (e, req.certified(&read_loads(&a.loads)?)),
        Some(e) => (e, None),
        None => {
            let x = read_loads(&a.loads)?;
            let e = expect(
                req.process.as_ref(),
                req.potential.as_ref(),
                &x,
                &req.setting,
            )?;
            (e, req.certified(&x))
        }
    };
    let r = req.report(e, cert)?;
    match a.format {
        Format::Json => {
            crate::outln!("{}", serde_json::to_string_pretty(&r.to_json())?);
        }
        Format::Text => {
            crate::outln!("process          {}", r.process);
            crate::outln!("potential        {}", r.potential);
            crate::outln!(
                "setting          n = {}, batch = {}, weights = {}, ties = {}",
                r.n,
                r.batch,
                r.weights,
                r.ties
            );
            for (i, name) in QUANTITIES.iter().enumerate() {
                crate::outln!("{name:<16} {}", shown(&r.cert, i, &r.floats[i]).0);
            }
            crate::outln!("trust            {}", trust_text(&r.cert));
            crate::outln!("method           {}", r.method);
        }
        f => {
            let mut t = Table::new(&["quantity", "value", "trust"]);
            for (k, v) in [
                ("process", r.process.clone()),
                ("potential", r.potential.clone()),
                ("n", r.n.to_string()),
                ("batch", r.batch.to_string()),
                ("weights", r.weights.clone()),
                ("ties", r.ties.to_string()),
            ] {
                t.push(vec![Cell::text(k), Cell::text(v), Cell::text("")]);
            }
            for (i, name) in QUANTITIES.iter().enumerate() {
                let (plain, cell) = shown(&r.cert, i, &r.floats[i]);
                let cell = cell.unwrap_or_else(|| Cell::text(plain));
                t.push(vec![Cell::text(*name), cell, Cell::text(r.trust())]);
            }
            t.push(vec![
                Cell::text("method"),
                Cell::text(r.method),
                Cell::text(""),
            ]);
            let text = match f {
                Format::Latex => t.latex(Some("lll")),
                other => t.render(other)?,
            };
            crate::outln!("{text}");
        }
    }
    Ok(0)
}

/// Value `i` as shown: the exact rational, the digits an enclosure guarantees (with the
/// interval), or the float in its shortest round-trip form; and its table cell (a `\frac` for
/// rationals).
fn shown(
    cert: &Option<Certified>,
    i: usize,
    float: &crate::xfloat::XFloat,
) -> (String, Option<Cell>) {
    match cert {
        Some(Certified::Exact(q)) => (q[i].to_string(), Some(Cell::rational(&q[i]))),
        Some(Certified::Enclosure(iv, _)) => {
            let (lo, hi) = (iv[i].lo_f64(), iv[i].hi_f64());
            if !(lo.is_finite() && hi.is_finite()) {
                // Beyond the range of f64: the midpoint of the enclosure in the log domain, and the
                // enclosure's ends in scientific notation (rounded outward).
                return (format!("{}  (in {})", short(&iv[i].mid_x()), iv[i]), None);
            }
            match common_digits(lo, hi) {
                Some(d) => (format!("{d}  (in [{lo:e}, {hi:e}])"), Some(Cell::text(d))),
                None => (
                    format!("{}  (in [{lo:e}, {hi:e}])", short(&iv[i].mid_x())),
                    None,
                ),
            }
        }
        None => (short(float), None),
    }
}

/// A float value in its shortest round-trip form, or `exp(…)` beyond the range of f64.
fn short(v: &crate::xfloat::XFloat) -> String {
    match v.to_f64_checked() {
        Some(x) => format!("{x:e}"),
        None => fmt_scaled(v),
    }
}

/// The trust line of the text output.
fn trust_text(cert: &Option<Certified>) -> String {
    match cert {
        Some(Certified::Exact(_)) => "exact (rational arithmetic)".into(),
        Some(Certified::Enclosure(_, p)) => {
            format!("enclosure (outward-rounded intervals, {p} bits; the digits shown are certain)")
        }
        None => "float (f64 closed form or enumeration)".into(),
    }
}

/// `--loads @FILE` on the grouped route: when the expectation needs only the load levels
/// ([`ExpectRequest::levels_suffice`]), the file is counted by value while it is read
/// ([`Levels::read`]: memory O(levels), no vector of n loads) and the expectation is evaluated per
/// level. `Ok(None)` when the route does not apply (or the potential declines the level form for
/// these loads): the caller reads the loads whole.
fn stream_levels(arg: &str, req: &ExpectRequest) -> Result<Option<Expectation>> {
    let Some(path) = arg.strip_prefix('@') else {
        return Ok(None);
    };
    if !req.levels_suffice() {
        return Ok(None);
    }
    let file =
        std::fs::File::open(path).with_context(|| format!("--loads: cannot read file `{path}`"))?;
    let Some(levels) = Levels::read(file).with_context(|| format!("--loads file `{path}`"))? else {
        return Ok(None);
    };
    req.expectation_at_levels(&levels)
}
