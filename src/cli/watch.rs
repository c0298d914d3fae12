//! `balloc check --watch FILE...`: the drafting loop. The files are checked once (every verdict
//! printed as `balloc check` prints it); then each time one of them is saved it is checked again,
//! and only what changed is printed: a line `changed: <id>: <old> → <new>` followed by the new
//! verdict, or the file's error, or `fixed: <id>` when an error is gone. A save that changes no
//! verdict prints nothing. Saves are noticed through the operating system's file events (the
//! `notify` crate) on the files' folders, so editors that save by renaming a temporary file are
//! seen too; the events of one save are gathered for a short moment and the file checked once.

use super::check::{Args, RunOptions, check_options, print_text, regressions_for, run_options};
use super::output::Format;
use crate::claim::{self, RunContext, Verdict};
use anyhow::{Context, Result};
use notify::Watcher;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long the events of one save are gathered before the file is checked again.
const SETTLE: Duration = Duration::from_millis(150);

/// The last outcome of a file: its verdict, or the one-line error that kept it from running.
#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    Verdict(Box<Verdict>),
    Error(String),
}

/// `<verdict> (trust <trust>)`, or `error`.
fn short(o: &Outcome) -> String {
    match o {
        Outcome::Verdict(v) => format!("{} (trust {})", v.verdict.name(), v.trust.name()),
        Outcome::Error(_) => "error".into(),
    }
}

/// Checks one file (load, build, validate its `uses`, run).
fn check_one(path: &Path, opts: &RunOptions) -> Outcome {
    let run = || -> Result<Verdict> {
        let (t, c) = claim::prepare(path, &opts.root)?;
        claim::uses::validate(&[&t], &opts.root)?;
        let mut ctx = RunContext {
            effort: opts.effort,
            regressions: regressions_for(&t, &opts.root),
            certificates: opts.certificates.clone(),
            ..RunContext::default()
        };
        Ok(c.run(&mut ctx)?)
    };
    match run() {
        Ok(v) => Outcome::Verdict(Box::new(v)),
        Err(e) => Outcome::Error(super::error_line(&format!("{e:#}"))),
    }
}

/// Prints an outcome: the verdict block or the error line.
fn print(o: &Outcome) {
    match o {
        Outcome::Verdict(v) => print_text(v),
        Outcome::Error(e) => crate::outln!("error: {e}"),
    }
}

/// The canonical form of a path (for matching file events), or the path itself.
fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Runs `balloc check --watch` until interrupted (or until the file events stop); the first round
/// checks the files one after the other in the order given.
pub fn run(a: &Args) -> Result<i32> {
    let opts = &run_options(a);
    if a.format != Format::Text {
        anyhow::bail!("invalid --format with --watch: the watch prints text only");
    }
    check_options(a)?;
    let paths = &a.paths;
    if paths.is_empty() {
        anyhow::bail!(
            "invalid --watch: name the files to watch (e.g. `balloc check --watch draft.toml`)"
        );
    }
    let files = super::root::resolve(paths, &opts.root)?;
    let id_of = |p: &Path| claim::schema::id_of(p, &opts.root);
    // Watch first, so that no save after the first round can be missed.
    let by_canonical: BTreeMap<PathBuf, PathBuf> =
        files.iter().map(|f| (canonical(f), f.clone())).collect();
    let (tx, rx) = std::sync::mpsc::channel();
    let mut watcher =
        notify::recommended_watcher(tx).context("--watch: cannot start watching files")?;
    let dirs: BTreeSet<PathBuf> = by_canonical
        .keys()
        .map(|f| {
            f.parent()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| PathBuf::from("."))
        })
        .collect();
    for d in &dirs {
        watcher
            .watch(d, notify::RecursiveMode::NonRecursive)
            .with_context(|| format!("--watch: cannot watch {}", d.display()))?;
    }
    // The first round: every file, printed in full.
    let mut last: BTreeMap<PathBuf, Outcome> = BTreeMap::new();
    for f in &files {
        let o = check_one(f, opts);
        print(&o);
        last.insert(canonical(f), o);
    }
    crate::outln!(
        "watching {} file(s); each save prints what changed (Ctrl-C stops)",
        files.len()
    );
    loop {
        // Wait for the first event of a save, then gather the rest of it.
        let Ok(first) = rx.recv() else {
            return Ok(0);
        };
        let mut events = vec![first];
        std::thread::sleep(SETTLE);
        events.extend(rx.try_iter());
        let mut touched = BTreeSet::new();
        for e in events.into_iter().flatten() {
            if matches!(e.kind, notify::EventKind::Access(_)) {
                continue;
            }
            for p in e.paths {
                let c = canonical(&p);
                if by_canonical.contains_key(&c) {
                    touched.insert(c);
                }
            }
        }
        for c in touched {
            let f = &by_canonical[&c];
            if !f.exists() {
                // Saved by a rename that has not landed yet; the next event checks it.
                continue;
            }
            let now = check_one(f, opts);
            let before = last.get(&c);
            if before == Some(&now) {
                continue;
            }
            let id = id_of(f);
            match (before, &now) {
                (Some(Outcome::Error(_)), Outcome::Verdict(_)) => {
                    crate::outln!("fixed: {id}: {}", short(&now));
                }
                (Some(b), _) if short(b) != short(&now) => {
                    crate::outln!("changed: {id}: {} → {}", short(b), short(&now));
                }
                _ => crate::outln!("changed: {id}: {} (details)", short(&now)),
            }
            print(&now);
            last.insert(c, now);
        }
    }
}
