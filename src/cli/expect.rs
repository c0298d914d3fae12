//! `balloc expect`: exact one-step or one-batch expectation of a potential at a load vector.

use super::output::{Format, fmt_scaled, put_scaled, read_loads};
use crate::expectation::{Method, expect};
use crate::loads::TieRule;
use crate::setting::Setting;
use crate::weights::WeightLaw;
use crate::{potential, process};
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
    /// Output format (text or json).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// Runs `balloc expect`.
pub fn run(a: Args) -> Result<i32> {
    let proc_ = process::parse(&a.process).context("--process")?;
    let pot = potential::parse(&a.potential).context("--potential")?;
    let weights = WeightLaw::parse(&a.weights).context("--weights")?;
    let ties = TieRule::parse(&a.ties).context("--ties")?;
    crate::limits::EXPECT_BATCH.check("--batch", a.batch)?;
    let setting = Setting::new(a.batch, weights, ties).context("--batch")?;
    let loads = read_loads(&a.loads)?;
    let e = expect(proc_.as_ref(), pot.as_ref(), &loads, &setting)?;
    // Every printed number is finite: values beyond f64 are printed in the log domain, and a
    // value that is not finite even there is an error, never `exp(inf)` or NaN.
    for (field, v) in [
        ("value", &e.value),
        ("expected_next", &e.expected_next),
        ("expected_change", &e.expected_change),
    ] {
        if v.is_nan() || v.ln() == f64::INFINITY {
            anyhow::bail!(
                "cannot evaluate {field} of {} at these loads: the result is not finite even in \
                 the log domain (loads or parameters beyond the range of f64)",
                pot.spec()
            );
        }
    }
    let method = match e.method {
        Method::ClosedForm => "closed-form",
        Method::Enumeration => "enumeration",
    };
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
            put_scaled(&mut o, "value", &e.value, false);
            put_scaled(&mut o, "expected_next", &e.expected_next, false);
            put_scaled(&mut o, "expected_change", &e.expected_change, true);
            crate::outln!("{}", serde_json::to_string_pretty(&Value::Object(o))?);
        }
        _ => {
            crate::outln!("process          {}", proc_.spec());
            crate::outln!("potential        {}", pot.spec());
            crate::outln!(
                "setting          n = {}, batch = {}, weights = {}, ties = {}",
                e.n,
                setting.batch,
                setting.weights.spec(),
                setting.ties.name()
            );
            crate::outln!("value            {}", fmt_scaled(&e.value));
            crate::outln!("expected_next    {}", fmt_scaled(&e.expected_next));
            crate::outln!("expected_change  {}", fmt_scaled(&e.expected_change));
            crate::outln!("method           {method}");
        }
    }
    Ok(0)
}
