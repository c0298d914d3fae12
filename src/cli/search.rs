//! `balloc search ID [--budget SECONDS]`: counterexample search for one claim, with fresh seeds
//! until the time budget is spent (or a counterexample is found).
//!
//! The report keeps the best state found across every phase and every seed: `search` first runs
//! the file's own search (exactly what `balloc check` runs), then keeps searching with fresh seeds
//! until the budget is spent, and reports whichever of the two is worse for the claim (a
//! counterexample before any `holds`; otherwise the smaller slack). So `search` never reports a
//! tighter-looking claim than `check` on the same file.

use super::check::{one_check, print_verdicts, regressions_for, spinner};
use super::output::Format;
use crate::claim::{RunContext, Status, Verdict};
use anyhow::Result;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Arguments of `balloc search`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The theorem id or file.
    id: String,
    /// Time budget in seconds (the file's own search always runs to completion first).
    #[arg(long, default_value_t = 10.0)]
    budget: f64,
    /// Output format: text, json, markdown, csv or latex (as `balloc check`).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The theorem directory that defines ids (default: the nearest `theorems/` in the current
    /// directory or a parent).
    #[arg(long)]
    theorems: Option<PathBuf>,
}

/// How bad a verdict is for its claim, for choosing the report: a counterexample first, then an
/// inconclusive verdict, then the smallest slack (a missing slack ranks last).
fn badness(v: &Verdict) -> (u8, f64) {
    let rank = match v.verdict {
        Status::Refuted => 0,
        Status::Inconclusive => 1,
        Status::Holds => 2,
        Status::Proved => 3,
    };
    (rank, v.slack.unwrap_or(f64::INFINITY))
}

/// Of two verdicts on the same file, the one to report: the worse for the claim (see
/// [`badness`]), with the evaluations of both counted in `searched`.
pub fn keep_worst(a: Verdict, b: Verdict) -> Verdict {
    let (ra, rb) = (badness(&a), badness(&b));
    let a_first = ra.0 < rb.0 || (ra.0 == rb.0 && ra.1 <= rb.1);
    let (mut keep, other) = if a_first { (a, b) } else { (b, a) };
    keep.searched.merge(&other.searched);
    keep
}

/// Runs `balloc search`.
pub fn run(a: Args) -> Result<i32> {
    crate::limits::SEARCH_BUDGET.check_f64("--budget", a.budget)?;
    let root = super::root::theorems(a.theorems.as_deref());
    let (t, c) = one_check(&a.id, &root)?;
    let pb = spinner();
    let tick = |m: &str| pb.set_message(m.to_string());
    let start = Instant::now();
    // 1. The file's own search, as `balloc check` runs it.
    let mut ctx = RunContext {
        regressions: regressions_for(&t, &root),
        progress: Some(&tick),
        ..RunContext::default()
    };
    let first = c.run(&mut ctx)?;
    // 2. Fresh seeds until the budget is spent (its first round repeats the file's search).
    let v = if first.verdict == Status::Refuted || start.elapsed().as_secs_f64() >= a.budget {
        first
    } else {
        let mut ctx = RunContext {
            deadline: Some(start + Duration::from_secs_f64(a.budget)),
            regressions: regressions_for(&t, &root),
            progress: Some(&tick),
            ..RunContext::default()
        };
        let more = c.run(&mut ctx)?;
        let mut v = keep_worst(first, more);
        v.notes.push(format!(
            "search: the file's own search and further rounds with fresh seeds for {:.1} s; the worst state of all is reported",
            start.elapsed().as_secs_f64()
        ));
        v
    };
    pb.finish_and_clear();
    print_verdicts(std::slice::from_ref(&v), &[&t], a.format)?;
    Ok(if v.contradicts() { 1 } else { 0 })
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::claim::{ExpectedStatus, Searched, Trust};

    fn v(status: Status, slack: Option<f64>, evals: u64) -> Verdict {
        let mut searched = Searched::default();
        searched.add("random", evals);
        Verdict::new("x/y", ExpectedStatus::Holds, status, Trust::Float)
            .with_slack(slack)
            .with_searched(searched)
    }

    fn the_worse_verdict_is_kept_with_both_tallies() {
        // Smaller slack wins among `holds`, whichever comes first.
        let k = keep_worst(
            v(Status::Holds, Some(0.0611), 10),
            v(Status::Holds, Some(0.0649), 5),
        );
        assert_eq!((k.slack, k.searched.total), (Some(0.0611), 15));
        let k = keep_worst(
            v(Status::Holds, Some(0.0649), 5),
            v(Status::Holds, Some(0.0611), 10),
        );
        assert_eq!(k.slack, Some(0.0611));
        // A counterexample beats any `holds`, an inconclusive verdict beats `holds`.
        let k = keep_worst(
            v(Status::Holds, Some(-1.0), 1),
            v(Status::Refuted, Some(0.5), 1),
        );
        assert_eq!(k.verdict, Status::Refuted);
        let k = keep_worst(
            v(Status::Inconclusive, None, 1),
            v(Status::Holds, Some(0.1), 1),
        );
        assert_eq!(k.verdict, Status::Inconclusive);
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[crate::unit::Test {
        name: "the_worse_verdict_is_kept_with_both_tallies",
        run: the_worse_verdict_is_kept_with_both_tallies,
        panics: None,
    }];
}
