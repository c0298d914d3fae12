//! `balloc expect`: exact one-step or one-batch expectation of a potential at a load vector.
//!
//! Every value is reported with its trust level: `exact` (a rational, e.g. `11/2`) for the
//! quadratic and absolute-value potentials under a process with a rational step law; `enclosure`
//! (the digits that a correctly rounded interval guarantees) for Φ, Ψ, Γ; `float` otherwise.

use super::output::{Cell, Format, Table, common_digits, fmt_scaled, put_scaled, read_loads};
use crate::expectation::{CERTIFY_LIMIT, Expectation, Method, expect, expect_counted};
use crate::loads::{Levels, TieRule};
use crate::potential::Potential;
use crate::process::Process;
use crate::setting::Setting;
use crate::weights::WeightLaw;
use crate::{Certified, potential, process};
use anyhow::{Context, Result};
use serde_json::{Map, Value, json};

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
    let proc_ =
        process::parse_with(&a.process, &crate::input::Dir::current()).context("--process")?;
    let pot = potential::parse(&a.potential).context("--potential")?;
    let weights = WeightLaw::parse(&a.weights).context("--weights")?;
    let ties = TieRule::parse(&a.ties).context("--ties")?;
    crate::limits::EXPECT_BATCH.check("--batch", a.batch)?;
    let setting = Setting::new(a.batch, weights, ties).context("--batch")?;
    let e = match stream_levels(&a.loads, proc_.as_ref(), pot.as_ref(), &setting)? {
        Some(e) => e,
        None => {
            let loads = read_loads(&a.loads)?;
            expect(proc_.as_ref(), pot.as_ref(), &loads, &setting)?
        }
    };
    let method = match e.method {
        Method::ClosedForm => "closed-form",
        Method::Enumeration => "enumeration",
    };
    // Certified values for vectors of at most CERTIFY_LIMIT bins (the loads are read whole for
    // them; the streamed route above serves the large files).
    let cert = if e.n <= CERTIFY_LIMIT {
        let loads = read_loads(&a.loads)?;
        crate::certify_expectation(proc_.as_ref(), &a.potential, &loads, &setting)
            .ok()
            .flatten()
    } else {
        None
    };
    // Every printed number is finite: values beyond f64 are printed in the log domain, and a
    // value that is not finite even there is an error, never `exp(inf)` or NaN. An exact value is
    // shown whatever its size (its float rendering is then in the log domain).
    if !matches!(cert, Some(Certified::Exact(_)))
        && let Some(why) = e.not_finite(&pot.spec())
    {
        anyhow::bail!(why);
    }
    let trust = match &cert {
        Some(Certified::Exact(_)) => "exact",
        Some(Certified::Enclosure(..)) => "enclosure",
        None => "float",
    };
    let floats = [&e.value, &e.expected_next, &e.expected_change];
    let names = ["value", "expected_next", "expected_change"];
    match a.format {
        Format::Json => {
            let mut o = Map::new();
            o.insert("n".into(), json!(e.n));
            o.insert("process".into(), json!(proc_.spec()));
            o.insert("potential".into(), json!(pot.spec()));
            o.insert("weights".into(), json!(setting.weights.spec()));
            o.insert("batch".into(), json!(setting.batch));
            o.insert("ties".into(), json!(setting.ties.name()));
            o.insert("method".into(), json!(method));
            o.insert("trust".into(), json!(trust));
            for (i, name) in names.iter().enumerate() {
                // The number is the nearest f64 of the exact value when there is one.
                // An enclosed value is its enclosure's midpoint, so that the number lies inside
                // the interval printed beside it.
                let v = match &cert {
                    Some(Certified::Exact(q)) => crate::exact::to_xfloat(&q[i]),
                    Some(Certified::Enclosure(iv, _)) => iv[i].mid_x(),
                    None => *floats[i],
                };
                put_scaled(&mut o, name, &v, i == 2);
            }
            match &cert {
                Some(Certified::Exact(q)) => {
                    for (i, name) in names.iter().enumerate() {
                        o.insert(format!("{name}_exact"), json!(q[i].to_string()));
                    }
                }
                Some(Certified::Enclosure(iv, prec)) => {
                    let mut m = Map::new();
                    m.insert("precision_bits".into(), json!(prec));
                    for (i, name) in names.iter().enumerate() {
                        m.insert(
                            (*name).into(),
                            json!([
                                super::output::json_f64(iv[i].lo_f64()),
                                super::output::json_f64(iv[i].hi_f64())
                            ]),
                        );
                        // The ends as text, rounded outward, at any magnitude.
                        m.insert(
                            format!("{name}_text"),
                            json!([
                                crate::enclosure::sci(iv[i].lo(), false),
                                crate::enclosure::sci(iv[i].hi(), true)
                            ]),
                        );
                    }
                    o.insert("enclosure".into(), Value::Object(m));
                }
                None => {}
            }
            crate::outln!("{}", serde_json::to_string_pretty(&Value::Object(o))?);
        }
        Format::Text => {
            crate::outln!("process          {}", proc_.spec());
            crate::outln!("potential        {}", pot.spec());
            crate::outln!(
                "setting          n = {}, batch = {}, weights = {}, ties = {}",
                e.n,
                setting.batch,
                setting.weights.spec(),
                setting.ties.name()
            );
            for (i, name) in names.iter().enumerate() {
                crate::outln!("{name:<16} {}", shown(&cert, i, floats[i]).0);
            }
            crate::outln!("trust            {}", trust_text(&cert));
            crate::outln!("method           {method}");
        }
        f => {
            let mut t = Table::new(&["quantity", "value", "trust"]);
            for (k, v) in [
                ("process", proc_.spec()),
                ("potential", pot.spec()),
                ("n", e.n.to_string()),
                ("batch", setting.batch.to_string()),
                ("weights", setting.weights.spec()),
                ("ties", setting.ties.name().to_string()),
            ] {
                t.push(vec![Cell::text(k), Cell::text(v), Cell::text("")]);
            }
            for (i, name) in names.iter().enumerate() {
                let (plain, cell) = shown(&cert, i, floats[i]);
                let cell = cell.unwrap_or_else(|| Cell::text(plain));
                t.push(vec![Cell::text(*name), cell, Cell::text(trust)]);
            }
            t.push(vec![
                Cell::text("method"),
                Cell::text(method),
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

/// `--loads @FILE` on the grouped route: when the expectation needs only the load levels (a
/// rank-based process, a potential with a level form, one ball or random ties), the file is
/// counted by value while it is read ([`Levels::read`]: memory O(levels), no vector of n loads)
/// and the expectation is evaluated per level. `Ok(None)` when the route does not apply (or the
/// potential declines the level form for these loads): the caller reads the loads whole.
fn stream_levels(
    arg: &str,
    process: &dyn Process,
    potential: &dyn Potential,
    setting: &Setting,
) -> Result<Option<Expectation>> {
    let Some(path) = arg.strip_prefix('@') else {
        return Ok(None);
    };
    if !process.info().rank_based
        || !potential.has_level_form(setting)
        || (setting.batch > 1 && setting.ties != TieRule::Random)
    {
        return Ok(None);
    }
    let file =
        std::fs::File::open(path).with_context(|| format!("--loads: cannot read file `{path}`"))?;
    let Some(levels) = Levels::read(file).with_context(|| format!("--loads file `{path}`"))? else {
        return Ok(None);
    };
    Ok(expect_counted(process, potential, &levels, setting)?)
}
