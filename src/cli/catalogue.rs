//! One checked selection of the catalogue, shared by `balloc blueprint` and `balloc report`: the
//! files checked in parallel (as `balloc check` does), the items their `uses` reach outside the
//! selection (loaded, not checked), the certificates of proved items and, on request, the
//! constant finder's reports.

use super::check::{RunOptions, prepare_all, run_all};
use crate::blueprint::Item;
use crate::claim::{self, ConstantReport, PaperFile, RunContext, Theorem, Verdict};
use anyhow::Result;
use std::collections::BTreeMap;
use std::path::Path;

/// The folder of the certificates inside the site.
pub(crate) const CERTIFICATES: &str = "certificates";

/// The checked selection.
pub(crate) struct Checked {
    /// The files checked, with their checks.
    pub checks: Vec<(Theorem, Box<dyn claim::Check>)>,
    /// Their verdicts, in the same order.
    pub verdicts: Vec<Verdict>,
    /// Items used by the selection but outside it (not checked).
    pub extra: Vec<Theorem>,
    /// The certificate files of proved items by id, relative to the folder given to [`check`].
    pub certificates: BTreeMap<String, Vec<String>>,
    /// The constant finder's reports, by id.
    pub constants: BTreeMap<String, Vec<ConstantReport>>,
    /// The paper records by folder.
    pub papers: BTreeMap<String, PaperFile>,
}

impl Checked {
    /// The items of the blueprint and the report: the checked files, then the others reached.
    pub fn items(&self) -> Vec<Item<'_>> {
        let mut out: Vec<Item> = self
            .checks
            .iter()
            .zip(&self.verdicts)
            .map(|((t, _), v)| Item {
                theorem: t,
                verdict: Some(v),
                certificates: self.certificates.get(&t.id).cloned().unwrap_or_default(),
                constants: self.constants.get(&t.id).cloned().unwrap_or_default(),
            })
            .collect();
        out.extend(self.extra.iter().map(|t| Item {
            theorem: t,
            verdict: None,
            certificates: Vec::new(),
            constants: Vec::new(),
        }));
        out
    }

    /// Whether a verdict contradicts its file.
    pub fn contradicts(&self) -> bool {
        self.verdicts.iter().any(Verdict::contradicts)
    }
}

/// Checks the selection `paths` under `opts.root` on `jobs` threads (progress on a terminal),
/// writes the certificates of proved items under `site/certificates/` when `site` is given, loads
/// the items reached by `uses` outside the selection, and runs the constant finder for every
/// `[tighten]` constant when `constants` is set (a constant the finder cannot tighten is reported
/// on standard error and left out).
pub(crate) fn check(
    paths: &[String],
    opts: &RunOptions,
    jobs: usize,
    constants: bool,
    site: Option<&Path>,
) -> Result<Checked> {
    let checks = prepare_all(paths, &opts.root)?;
    let mut o = opts.clone();
    let cert_dir = site.map(|s| s.join(CERTIFICATES));
    o.certificates = cert_dir.clone();
    let bar = super::progress(checks.len() as u64, "files");
    let verdicts = run_all(&checks, &o, jobs, &bar, |_| {});
    bar.finish_and_clear();
    let verdicts = verdicts?;
    let mut certificates = BTreeMap::new();
    if let Some(dir) = &cert_dir {
        for ((t, _), v) in checks.iter().zip(&verdicts) {
            if v.verdict != claim::Status::Proved {
                continue;
            }
            let files: Vec<String> = claim::kind::real::problems(t, dir)
                .map(|cases| {
                    cases
                        .into_iter()
                        .filter(|(_, p)| p.is_file())
                        .filter_map(|(_, p)| {
                            p.strip_prefix(site.unwrap_or(Path::new(".")))
                                .ok()
                                .map(|r| r.to_string_lossy().replace('\\', "/"))
                        })
                        .collect()
                })
                .unwrap_or_default();
            if !files.is_empty() {
                certificates.insert(t.id.clone(), files);
            }
        }
    }
    // Items reached by `uses` outside the selection.
    let mut known: std::collections::BTreeSet<String> =
        checks.iter().map(|(t, _)| t.id.clone()).collect();
    let mut todo: Vec<String> = checks
        .iter()
        .flat_map(|(t, _)| t.file.uses.iter().map(|u| u.get_ref().clone()))
        .collect();
    let mut extra = Vec::new();
    while let Some(id) = todo.pop() {
        if !known.insert(id.clone()) {
            continue;
        }
        let t = claim::load(&opts.root.join(format!("{id}.toml")), &opts.root)?;
        todo.extend(t.file.uses.iter().map(|u| u.get_ref().clone()));
        extra.push(t);
    }
    extra.sort_by(|a, b| a.id.cmp(&b.id));
    let mut reports: BTreeMap<String, Vec<ConstantReport>> = BTreeMap::new();
    if constants {
        let total: usize = checks.iter().map(|(t, _)| t.file.tighten.len()).sum();
        let bar = super::progress(total as u64, "constants");
        for (t, c) in &checks {
            for name in t.file.tighten.keys() {
                let tick = |m: &str| bar.set_message(m.to_string());
                let mut ctx = RunContext {
                    effort: opts.effort,
                    regressions: super::check::regressions_for(t, &opts.root),
                    progress: Some(&tick),
                    ..RunContext::default()
                };
                match c.tighten(name, None, &mut ctx) {
                    Ok(r) => reports.entry(t.id.clone()).or_default().push(r),
                    Err(e) => bar.suspend(|| {
                        crate::errln!(
                            "note: {}: the constant finder could not tighten `{name}`: {}",
                            t.id,
                            super::error_line(&e.to_string())
                        )
                    }),
                }
                bar.inc(1);
            }
        }
        bar.finish_and_clear();
    }
    let mut papers = BTreeMap::new();
    for t in checks.iter().map(|(t, _)| t).chain(&extra) {
        if let Some(p) = &t.paper {
            let it = Item {
                theorem: t,
                verdict: None,
                certificates: Vec::new(),
                constants: Vec::new(),
            };
            papers.entry(it.paper()).or_insert_with(|| p.clone());
        }
    }
    Ok(Checked {
        checks,
        verdicts,
        extra,
        certificates,
        constants: reports,
        papers,
    })
}
