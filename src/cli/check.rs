//! `balloc check [PATH_OR_ID ...] [--format text|json|markdown]`: run theorem files (the main job).
//! Exit code 1 iff a verdict contradicts its file's expected status.

use super::output::Format;
use crate::claim::{self, RunContext, Verdict};
use anyhow::Result;
use std::path::{Path, PathBuf};

/// Arguments of `balloc check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Theorem files, directories or ids (`<paper>/<name>`); all of `theorems/` when omitted.
    paths: Vec<String>,
    /// Output format (text, json or markdown).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The theorem directory that defines ids.
    #[arg(long, default_value = "theorems")]
    theorems: PathBuf,
    /// Multiply the files' random and optimiser budgets.
    #[arg(long, default_value_t = 1)]
    effort: u32,
    /// Also print how many verdicts rest on each trust level (exact, enclosure, float,
    /// statistical); on stderr with `--format json`, so that stdout stays one JSON document.
    #[arg(long)]
    trust: bool,
}

/// How many verdicts rest on each trust level, strongest first, as one line
/// (`trust: exact 2, enclosure 1, float 0, statistical 0`).
pub fn trust_summary(vs: &[Verdict]) -> String {
    use crate::claim::Trust;
    let parts: Vec<String> = [
        Trust::Exact,
        Trust::Enclosure,
        Trust::Float,
        Trust::Statistical,
    ]
    .iter()
    .map(|t| {
        format!(
            "{} {}",
            t.name(),
            vs.iter().filter(|v| v.trust == *t).count()
        )
    })
    .collect();
    format!("trust: {}", parts.join(", "))
}

/// Loads the one theorem file that `id` names under `root` and builds its check (`balloc search`
/// and `balloc constant` take exactly one theorem).
pub fn one_check(id: &str, root: &Path) -> Result<Box<dyn claim::Check>> {
    let files = claim::resolve(std::slice::from_ref(&id.to_string()), root)?;
    let [file] = files.as_slice() else {
        anyhow::bail!(
            "invalid ID: `{id}` names {} files; give one theorem",
            files.len()
        );
    };
    let (_, c) = claim::prepare(file, root)?;
    Ok(c)
}

/// The proptest regression directory next to a theorem directory.
pub fn regressions_dir(root: &Path) -> PathBuf {
    root.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .join("proptest-regressions")
        .join("theorems")
}

/// A spinner on standard error when it is a terminal (hidden otherwise).
pub fn spinner() -> indicatif::ProgressBar {
    let pb =
        indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        pb.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    pb.enable_steady_tick(std::time::Duration::from_millis(200));
    pb
}

/// Runs `balloc check`.
pub fn run(a: Args) -> Result<i32> {
    if a.format == Format::Csv {
        anyhow::bail!("invalid --format: check writes text, json or markdown");
    }
    let files = claim::resolve(&a.paths, &a.theorems)?;
    // Validate every file first: a malformed file is an error, never skipped.
    let mut checks = Vec::new();
    for f in &files {
        checks.push(claim::prepare(f, &a.theorems)?);
    }
    let pb = spinner();
    let tick = |m: &str| pb.set_message(m.to_string());
    let mut verdicts: Vec<Verdict> = Vec::new();
    for (_, c) in &checks {
        let mut ctx = RunContext {
            effort: a.effort.max(1),
            regressions: Some(regressions_dir(&a.theorems)),
            progress: Some(&tick),
            ..RunContext::default()
        };
        verdicts.push(c.run(&mut ctx)?);
    }
    pb.finish_and_clear();
    print_verdicts(&verdicts, a.format)?;
    if a.trust {
        if a.format == Format::Json {
            crate::errln!("{}", trust_summary(&verdicts));
        } else {
            crate::outln!("{}", trust_summary(&verdicts));
        }
    }
    Ok(if verdicts.iter().any(|v| v.contradicts()) {
        1
    } else {
        0
    })
}

/// The JSON object of a verdict (`docs/conventions.md` §4: id, verdict, expected, trust, slack, witness,
/// searched; `notes` is an extension).
pub fn verdict_json(v: &Verdict) -> serde_json::Value {
    serde_json::json!({
        "id": v.id,
        "verdict": v.verdict.name(),
        "expected": v.expected.name(),
        "trust": v.trust.name(),
        "precision_bits": v.searched.precision_bits,
        "confidence": v.searched.confidence,
        "slack": v.slack,
        "witness": v.witness,
        "searched": v.searched,
        "notes": v.notes,
    })
}

fn short_loads(l: &[f64]) -> String {
    if l.is_empty() {
        return "-".into();
    }
    let s: Vec<String> = l.iter().map(|v| format!("{v}")).collect();
    let s = s.join(",");
    if s.len() > 60 {
        format!("{}…", &s[..57])
    } else {
        s
    }
}

/// Prints verdicts in a format.
pub fn print_verdicts(vs: &[Verdict], format: Format) -> Result<()> {
    match format {
        Format::Json => {
            let arr: Vec<_> = vs.iter().map(verdict_json).collect();
            crate::outln!("{}", serde_json::to_string_pretty(&arr)?);
        }
        Format::Markdown => {
            crate::outln!("| id | verdict | expected | trust | slack | witness | searched |");
            crate::outln!("|---|---|---|---|---|---|---|");
            for v in vs {
                let w = v
                    .witness
                    .as_ref()
                    .map(|w| {
                        if v.trust == claim::Trust::Statistical {
                            // No load vector: the configuration, the estimate and the target.
                            format!("n={} {}: {} vs {}", w.n, w.source, w.lhs, w.rhs)
                        } else {
                            format!("n={} {} x=({})", w.n, w.source, short_loads(&w.loads))
                        }
                    })
                    .unwrap_or_default();
                let mark = if v.contradicts() { " ✗" } else { "" };
                crate::outln!(
                    "| {} | {}{mark} | {} | {} | {} | {} | {} evaluations |",
                    v.id,
                    v.verdict.name(),
                    v.expected.name(),
                    v.trust.name(),
                    v.slack.map(|s| format!("{s:.6e}")).unwrap_or("-".into()),
                    w,
                    v.searched.total
                );
            }
        }
        _ => {
            for v in vs {
                let mark = if v.contradicts() {
                    "  ← CONTRADICTS EXPECTED"
                } else {
                    ""
                };
                let level = v
                    .searched
                    .confidence
                    .map(|c| format!(", confidence {c}"))
                    .unwrap_or_default();
                crate::outln!(
                    "{:<40} {:<12} (expected {}, trust {}{level}){mark}",
                    v.id,
                    v.verdict.name(),
                    v.expected.name(),
                    v.trust.name()
                );
                if let Some(w) = &v.witness {
                    let label = if v.verdict == claim::Status::Refuted {
                        "counterexample"
                    } else {
                        "tightest"
                    };
                    crate::outln!(
                        "    {label}: n = {}, {}, loads ({}), constants {:?}",
                        w.n,
                        w.source,
                        short_loads(&w.loads),
                        w.constants
                    );
                    crate::outln!(
                        "    lhs = {}, rhs = {}, slack = {} [{}]",
                        w.lhs,
                        w.rhs,
                        w.slack,
                        w.found_by
                    );
                }
                crate::outln!("    searched: {}", v.searched.summary());
                for n in &v.notes {
                    crate::outln!("    note: {n}");
                }
            }
            let bad = vs.iter().filter(|v| v.contradicts()).count();
            crate::outln!(
                "{} theorem file(s), {} contradict their expected status",
                vs.len(),
                bad
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::{ExpectedStatus, Searched, Status, Trust};

    #[test]
    fn trust_summary_counts_each_level() {
        let v = |t| Verdict {
            links: Vec::new(),
            id: "x/y".into(),
            verdict: Status::Holds,
            expected: ExpectedStatus::Holds,
            trust: t,
            slack: None,
            witness: None,
            searched: Searched::default(),
            notes: vec![],
        };
        let line = trust_summary(&[v(Trust::Exact), v(Trust::Enclosure), v(Trust::Exact)]);
        assert_eq!(line, "trust: exact 2, enclosure 1, float 0, statistical 0");
    }
}
