//! `balloc search ID [--budget SECONDS]`: counterexample search for one claim, with fresh seeds
//! until the time budget is spent (or a counterexample is found).

use super::check::{one_check, print_verdicts, regressions_dir, spinner};
use super::output::Format;
use crate::claim::RunContext;
use anyhow::Result;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Arguments of `balloc search`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The theorem id or file.
    id: String,
    /// Time budget in seconds (the first round always runs to completion).
    #[arg(long, default_value_t = 10.0)]
    budget: f64,
    /// Output format (text, json or markdown).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The theorem directory that defines ids.
    #[arg(long, default_value = "theorems")]
    theorems: PathBuf,
}

/// Runs `balloc search`.
pub fn run(a: Args) -> Result<i32> {
    crate::limits::SEARCH_BUDGET.check_f64("--budget", a.budget)?;
    let c = one_check(&a.id, &a.theorems)?;
    let pb = spinner();
    let tick = |m: &str| pb.set_message(m.to_string());
    let mut ctx = RunContext {
        deadline: Some(Instant::now() + Duration::from_secs_f64(a.budget)),
        regressions: Some(regressions_dir(&a.theorems)),
        progress: Some(&tick),
        ..RunContext::default()
    };
    let v = c.run(&mut ctx)?;
    pb.finish_and_clear();
    print_verdicts(std::slice::from_ref(&v), a.format)?;
    Ok(if v.contradicts() { 1 } else { 0 })
}
