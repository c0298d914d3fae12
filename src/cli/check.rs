//! `balloc check [PATH_OR_ID ...] [--format text|json|markdown|csv|latex]`: run theorem files
//! (the main job). Exit code 1 iff a verdict contradicts its file's expected status.
//!
//! Files run in parallel (`--jobs`, default: every core), each with its own seeds, so the verdicts
//! do not depend on the number of threads. They are reported in the order of the selection: the
//! text format prints each verdict as soon as it and every verdict before it are decided; JSON,
//! Markdown, CSV and LaTeX are whole documents, written when every file is done. On a terminal
//! (and outside CI) a progress bar on standard error shows the files done, the total and an ETA.

use super::output::{Cell, Format, Table, tex_escape};
use crate::claim::{self, RunContext, Theorem, Verdict};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Arguments of `balloc check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Theorem files, directories or ids (`<paper>/<name>`); all of `theorems/` when omitted.
    /// A file outside the theorem directory (a draft) needs no `paper.toml`.
    pub(super) paths: Vec<String>,
    /// Output format: text (streamed), json, markdown, csv, or latex (a verdict table with the
    /// statements rendered).
    #[arg(long, value_enum, default_value = "text")]
    pub(super) format: Format,
    /// The theorem directory that defines ids (default: the nearest `theorems/` in the current
    /// directory or a parent).
    #[arg(long)]
    theorems: Option<PathBuf>,
    /// Multiply the files' random and optimiser budgets.
    #[arg(long, default_value_t = 1)]
    effort: u32,
    /// Also print how many verdicts rest on each trust level (exact, enclosure, float,
    /// statistical); on stderr with `--format json`, `csv` or `latex`, so that stdout stays one
    /// document.
    #[arg(long)]
    trust: bool,
    /// Files checked at once (default: the number of cores). The verdicts and the output do not
    /// depend on it.
    #[arg(long)]
    pub(super) jobs: Option<usize>,
    /// Write the proof certificate of every proved claim of kind `real` under this directory
    /// (`<DIR>/<id>.json`; re-checked by the independent checker in any case).
    #[arg(long)]
    certificates: Option<PathBuf>,
    /// Keep running: check the files, then check them again each time one is saved and print
    /// only the verdicts that changed (Ctrl-C stops).
    #[arg(long)]
    pub(super) watch: bool,
}

/// How the files of a run are checked: the effort, the theorem directory (ids, regression
/// files) and where certificates go.
#[derive(Debug, Clone)]
pub(crate) struct RunOptions {
    /// The multiplier of the files' random and optimiser budgets.
    pub effort: u32,
    /// The theorem directory.
    pub root: PathBuf,
    /// Where proved claims of kind `real` write their certificates.
    pub certificates: Option<PathBuf>,
}

/// Resolves `paths` under `root` and builds every check, validating every file and the `uses`
/// graph through them first (a malformed file is an error, never skipped).
pub(crate) fn prepare_all(
    paths: &[String],
    root: &Path,
) -> Result<Vec<(Theorem, Box<dyn claim::Check>)>> {
    let files = super::root::resolve(paths, root)?;
    let mut checks = Vec::new();
    for f in &files {
        checks.push(claim::prepare(f, root)?);
    }
    let theorems: Vec<&Theorem> = checks.iter().map(|(t, _)| t).collect();
    claim::uses::validate(&theorems, root)?;
    Ok(checks)
}

/// The number of worker threads: `--jobs` (at least 1) or every core.
pub(crate) fn jobs(given: Option<usize>) -> Result<usize> {
    Ok(match given {
        Some(0) => anyhow::bail!("invalid --jobs: must be at least 1"),
        Some(j) => j,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    })
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
pub fn one_check(id: &str, root: &Path) -> Result<(Theorem, Box<dyn claim::Check>)> {
    let files = super::root::resolve(std::slice::from_ref(&id.to_string()), root)?;
    let [file] = files.as_slice() else {
        anyhow::bail!(
            "invalid ID: `{id}` names {} files; give one theorem",
            files.len()
        );
    };
    Ok(claim::prepare(file, root)?)
}

/// The proptest regression directory next to a theorem directory.
pub fn regressions_dir(root: &Path) -> PathBuf {
    root.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .join("proptest-regressions")
        .join("theorems")
}

/// Where the search of theorem `t` persists proptest failures: under [`regressions_dir`] for a
/// file of the theorem directory; nowhere for a draft outside it (its id is a path).
pub fn regressions_for(t: &Theorem, root: &Path) -> Option<PathBuf> {
    let inside = !t.id.starts_with('/') && !t.id.starts_with("..") && {
        let by_id = root.join(format!("{}.toml", t.id));
        by_id.is_file() && std::fs::canonicalize(&by_id).ok() == std::fs::canonicalize(&t.path).ok()
    };
    inside.then(|| regressions_dir(root))
}

/// A spinner on standard error when it is a terminal outside CI (hidden otherwise).
pub fn spinner() -> indicatif::ProgressBar {
    if !super::interactive() {
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::new_spinner();
    pb.enable_steady_tick(std::time::Duration::from_millis(200));
    pb
}

/// The options of a run of `balloc check` from its arguments (the theorem directory found from
/// `--theorems` or upwards from the current directory).
pub(super) fn run_options(a: &Args) -> RunOptions {
    RunOptions {
        effort: a.effort.max(1),
        root: super::root::theorems(a.theorems.as_deref()),
        certificates: a.certificates.clone(),
    }
}

/// Checks `--effort` against its limit and that the `--certificates` folder is writable.
pub(super) fn check_options(a: &Args) -> Result<()> {
    crate::limits::CHECK_EFFORT.check("--effort", u64::from(a.effort))?;
    if let Some(dir) = &a.certificates {
        super::output::writable_dir(dir, "--certificates")?;
    }
    Ok(())
}

/// Runs `balloc check` (without `--watch`: [`super::watch::run`]).
pub fn run(a: Args) -> Result<i32> {
    let opts = run_options(&a);
    let root = opts.root.clone();
    let jobs = jobs(a.jobs)?;
    // Validate every file first: a malformed file is an error, never skipped.
    let checks = prepare_all(&a.paths, &root)?;
    check_options(&a)?;
    let bar = super::progress(checks.len() as u64, "files");
    let stream = a.format == Format::Text;
    let outcome = run_all(&checks, &opts, jobs, &bar, |v| {
        if stream {
            bar.suspend(|| print_text(v));
        }
    });
    bar.finish_and_clear();
    let verdicts = outcome?;
    if stream {
        print_text_footer(&verdicts);
    } else {
        let theorems: Vec<&Theorem> = checks.iter().map(|(t, _)| t).collect();
        print_verdicts(&verdicts, &theorems, a.format)?;
    }
    if a.trust {
        if matches!(a.format, Format::Text | Format::Markdown) {
            crate::outln!("{}", trust_summary(&verdicts));
        } else {
            crate::errln!("{}", trust_summary(&verdicts));
        }
    }
    Ok(if verdicts.iter().any(|v| v.contradicts()) {
        1
    } else {
        0
    })
}

/// Runs every check on `jobs` worker threads that take the files in order, and calls `report`
/// with each verdict in the order of `checks`, as soon as it and every earlier one are decided.
/// Stops at the first error (in the order of `checks`) and returns it.
pub(crate) fn run_all(
    checks: &[(Theorem, Box<dyn claim::Check>)],
    a: &RunOptions,
    jobs: usize,
    bar: &indicatif::ProgressBar,
    report: impl Fn(&Verdict) + Sync,
) -> Result<Vec<Verdict>> {
    struct Slots {
        results: Vec<Option<Result<Verdict>>>,
        printed: usize,
    }
    let slots = Mutex::new(Slots {
        results: (0..checks.len()).map(|_| None).collect(),
        printed: 0,
    });
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .context("cannot start the worker threads")?;
    let worker = || {
        loop {
            let i = next.fetch_add(1, Ordering::SeqCst);
            if i >= checks.len() || failed.load(Ordering::SeqCst) {
                break;
            }
            let (t, c) = &checks[i];
            let tick = |m: &str| bar.set_message(m.to_string());
            let mut ctx = RunContext {
                effort: a.effort.max(1),
                regressions: regressions_for(t, &a.root),
                progress: Some(&tick),
                certificates: a.certificates.clone(),
                ..RunContext::default()
            };
            let r = c
                .run(&mut ctx)
                .map_err(anyhow::Error::from)
                .with_context(|| t.path.display().to_string());
            if r.is_err() {
                failed.store(true, Ordering::SeqCst);
            }
            bar.inc(1);
            let mut s = slots.lock().unwrap_or_else(|e| e.into_inner());
            s.results[i] = Some(r);
            while s.printed < checks.len() {
                match &s.results[s.printed] {
                    Some(Ok(v)) => report(v),
                    _ => break,
                }
                s.printed += 1;
            }
        }
    };
    pool.scope(|sc| {
        for _ in 0..jobs.min(checks.len().max(1)) {
            sc.spawn(|_| worker());
        }
    });
    let s = slots.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut out = Vec::with_capacity(checks.len());
    for r in s.results {
        match r {
            Some(Ok(v)) => out.push(v),
            Some(Err(e)) => return Err(e),
            None => anyhow::bail!("a check did not run"),
        }
    }
    Ok(out)
}

fn short_loads(l: &[f64]) -> String {
    if l.is_empty() {
        return "-".into();
    }
    let s: Vec<String> = l.iter().map(|v| load_text(*v)).collect();
    let s = s.join(",");
    if s.chars().count() > 60 {
        let head: String = s.chars().take(57).collect();
        format!("{head}…")
    } else {
        s
    }
}

/// A load as written in reports: its shortest round-trip decimal, in scientific notation when it
/// is tiny or huge (a near tie `2⁻⁴⁰` is `9.094947017729282e-13`, not forty zeros).
fn load_text(v: f64) -> String {
    if v == 0.0 || (1e-4..1e15).contains(&v.abs()) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

/// The text block of one verdict.
pub(crate) fn print_text(v: &Verdict) {
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
        // A claim over real variables has no bins: its witness is a point.
        let mut at = Vec::new();
        if w.n > 0 {
            at.push(format!("n = {}", w.n));
        }
        if !w.source.is_empty() {
            at.push(w.source.clone());
        }
        if !w.loads.is_empty() {
            at.push(format!("loads ({})", short_loads(&w.loads)));
        }
        at.push(format!("constants {}", w.constants_shown()));
        crate::outln!("    {label}: {}", at.join(", "));
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

fn print_text_footer(vs: &[Verdict]) {
    let bad = vs.iter().filter(|v| v.contradicts()).count();
    crate::outln!(
        "{} theorem file(s), {} contradict their expected status",
        vs.len(),
        bad
    );
}

/// A witness in one short line (Markdown and CSV cells).
fn witness_line(v: &Verdict) -> String {
    v.witness
        .as_ref()
        .map(|w| {
            if v.trust == claim::Trust::Statistical {
                // No load vector: the configuration, the estimate and the target.
                format!("n={} {}: {} vs {}", w.n, w.source, w.lhs, w.rhs)
            } else {
                format!("n={} {} x=({})", w.n, w.source, short_loads(&w.loads))
            }
        })
        .unwrap_or_default()
}

/// The verdicts as a table (CSV): one row per file.
fn verdict_table(vs: &[Verdict]) -> Table {
    let mut t = Table::new(&[
        "id",
        "verdict",
        "expected",
        "contradicts",
        "trust",
        "slack",
        "n",
        "source",
        "loads",
        "lhs",
        "rhs",
        "found_by",
        "evaluations",
        "precision_bits",
        "confidence",
    ]);
    for v in vs {
        let w = v.witness.as_ref();
        let f = |g: &dyn Fn(&claim::Witness) -> String| Cell::text(w.map(g).unwrap_or_default());
        t.push(vec![
            Cell::text(&v.id),
            Cell::text(v.verdict.name()),
            Cell::text(v.expected.name()),
            Cell::text(v.contradicts().to_string()),
            Cell::text(v.trust.name()),
            Cell::text(v.slack.map(|s| format!("{s:e}")).unwrap_or_default()),
            f(&|w| w.n.to_string()),
            f(&|w| w.source.clone()),
            f(&|w| {
                w.loads
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            }),
            f(&|w| w.lhs.clone()),
            f(&|w| w.rhs.clone()),
            f(&|w| w.found_by.clone()),
            Cell::text(v.searched.total.to_string()),
            Cell::text(
                v.searched
                    .precision_bits
                    .map(|p| p.to_string())
                    .unwrap_or_default(),
            ),
            Cell::text(
                v.searched
                    .confidence
                    .map(|c| c.to_string())
                    .unwrap_or_default(),
            ),
        ]);
    }
    t
}

/// A float as LaTeX math: `1.25 \cdot 10^{-3}`.
fn tex_sci(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    if !x.is_finite() {
        return format!("{x}");
    }
    let s = format!("{x:.3e}");
    match s.split_once('e') {
        Some((m, "0")) => m.to_string(),
        Some((m, e)) => format!("{m} \\cdot 10^{{{e}}}"),
        None => s,
    }
}

/// The LaTeX document fragment of `balloc check --format latex`: a `longtable` with, per file,
/// its id and title, its statement (the file's LaTeX `statement`, rendered as math), the verdict
/// with its trust level and expected status, and the smallest slack; ragged-right columns and no
/// hyphenated words (`balloc report --format latex` has the full report).
pub fn verdicts_latex(vs: &[Verdict], theorems: &[&Theorem]) -> String {
    let mut out = String::new();
    out.push_str(
        "% balloc check: needs \\usepackage{longtable,booktabs,array,amsmath,amssymb}\n\
         \\begingroup\\hyphenpenalty=10000 \\exhyphenpenalty=10000\n\
         \\begin{longtable}{@{}>{\\raggedright\\arraybackslash}p{0.26\\linewidth}>{\\raggedright\\arraybackslash}p{0.46\\linewidth}>{\\raggedright\\arraybackslash}p{0.20\\linewidth}@{}}\n\
         \\toprule\n\
         Theorem & Statement & Verdict \\\\\n\
         \\midrule\n\
         \\endhead\n\
         \\bottomrule\n\
         \\endfoot\n",
    );
    for (v, t) in vs.iter().zip(theorems) {
        let statement = crate::report::tex_math(t.file.statement.trim());
        let mark = if v.contradicts() {
            " \\textbf{(contradicts)}"
        } else {
            ""
        };
        let slack = match v.slack {
            Some(s) => format!(" \\newline slack ${}$", tex_sci(s)),
            None => String::new(),
        };
        out.push_str(&format!(
            "\\texttt{{{}}} \\newline {{\\small {}}} & {{\\small $\\displaystyle {}$}} & \\textbf{{{}}}{mark} \\newline trust {} \\newline expected {}{slack} \\\\\n",
            tex_escape(&v.id).replace('/', "/\\allowbreak "),
            tex_escape(&t.file.title),
            statement,
            v.verdict.name(),
            v.trust.name(),
            v.expected.name(),
        ));
    }
    out.push_str("\\end{longtable}\n\\endgroup");
    out
}

/// Prints verdicts in a format; `theorems[i]` is the file of `vs[i]` (its statement and title for
/// LaTeX).
pub fn print_verdicts(vs: &[Verdict], theorems: &[&Theorem], format: Format) -> Result<()> {
    match format {
        Format::Json => {
            let arr: Vec<_> = vs.iter().map(Verdict::to_json).collect();
            crate::outln!("{}", serde_json::to_string_pretty(&arr)?);
        }
        Format::Markdown => {
            crate::outln!("| id | verdict | expected | trust | slack | witness | searched |");
            crate::outln!("|---|---|---|---|---|---|---|");
            for v in vs {
                let mark = if v.contradicts() { " ✗" } else { "" };
                crate::outln!(
                    "| {} | {}{mark} | {} | {} | {} | {} | {} evaluations |",
                    v.id,
                    v.verdict.name(),
                    v.expected.name(),
                    v.trust.name(),
                    v.slack.map(|s| format!("{s:.6e}")).unwrap_or("-".into()),
                    witness_line(v).replace('|', "\\|"),
                    v.searched.total
                );
            }
        }
        Format::Csv => crate::outln!("{}", verdict_table(vs).csv()?),
        Format::Latex => crate::outln!("{}", verdicts_latex(vs, theorems)),
        Format::Text => {
            for v in vs {
                print_text(v);
            }
            print_text_footer(vs);
        }
    }
    Ok(())
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::claim::{ExpectedStatus, Status, Trust};

    fn trust_summary_counts_each_level() {
        let v = |t| Verdict::new("x/y", ExpectedStatus::Holds, Status::Holds, t);
        let line = trust_summary(&[v(Trust::Exact), v(Trust::Enclosure), v(Trust::Exact)]);
        assert_eq!(line, "trust: exact 2, enclosure 1, float 0, statistical 0");
    }

    fn witness_sides_are_numbers_or_null_with_their_text() {
        let w = claim::Witness {
            n: 2,
            loads: vec![1.0, 0.0],
            source: "two-choice".into(),
            constants: [("c".to_string(), f64::INFINITY)].into(),
            constants_text: [("c".to_string(), "3.0332153969064635e434294".to_string())].into(),
            exact: None,
            lhs: "1.5e0".into(),
            rhs: "2.5e400".into(),
            slack: "eps* = 1/4".into(),
            found_by: "exhaustive".into(),
            recheck: None,
        };
        let j = w.to_json();
        assert_eq!(j["lhs"], serde_json::json!(1.5));
        // Beyond f64 and descriptive text: null, with the text kept.
        assert!(j["rhs"].is_null() && j["slack"].is_null());
        assert_eq!(j["rhs_text"], "2.5e400");
        assert_eq!(j["slack_text"], "eps* = 1/4");
        // A constant beyond f64: null in `constants`, its text in `constants_text`.
        assert!(j["constants"]["c"].is_null());
        assert_eq!(j["constants_text"]["c"], "3.0332153969064635e434294");
        assert_eq!(w.constants_shown(), "{c = 3.0332153969064635e434294}");
    }

    fn latex_scientific_notation() {
        assert_eq!(tex_sci(0.00125), "1.250 \\cdot 10^{-3}");
        assert_eq!(tex_sci(2.5), "2.500");
        assert_eq!(tex_sci(-0.0), "0");
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "trust_summary_counts_each_level",
            run: trust_summary_counts_each_level,
            panics: None,
        },
        crate::unit::Test {
            name: "witness_sides_are_numbers_or_null_with_their_text",
            run: witness_sides_are_numbers_or_null_with_their_text,
            panics: None,
        },
        crate::unit::Test {
            name: "latex_scientific_notation",
            run: latex_scientific_notation,
            panics: None,
        },
    ];
}
