//! `balloc expect`: exact one-step or one-batch expectation of a potential at a load vector.

use super::output::{Format, fmt_scaled, put_scaled, read_loads};
use crate::expectation::{Expectation, Method, expect, expect_level_law};
use crate::loads::{Levels, TieRule};
use crate::potential::Potential;
use crate::process::{LevelLaw, Process};
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
    let mut bounds = Vec::with_capacity(levels.len() + 1);
    bounds.push(0);
    for &c in &levels.counts {
        bounds.push(bounds.last().copied().unwrap_or(0) + c);
    }
    let Some(prob) = process.rank_range_probabilities(levels.n, &bounds)? else {
        return Ok(None);
    };
    let mean = levels.mean();
    let law = LevelLaw {
        n: levels.n,
        y: levels.values.iter().map(|v| v - mean).collect(),
        counts: levels.counts.clone(),
        prob,
        uniform_within: setting.ties == TieRule::Random,
    };
    Ok(
        expect_level_law(&law, potential, setting)?.map(|(value, e)| Expectation {
            n: law.n,
            value,
            expected_next: e.next,
            expected_change: e.change,
            method: Method::ClosedForm,
        }),
    )
}
