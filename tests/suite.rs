//! The integration tests, as one test crate: each `tests/<name>.rs` is the module `<name>` here.
//!
//! One crate instead of one per file: the library's generic code used by the tests is
//! instantiated and linked once, not once per file (`BENCHMARKS.md`, "From a fresh clone").
//!
//! Adding a test file: write `tests/<name>.rs` and add `mod <name>;` below (in alphabetical
//! order). `every_test_file_is_a_module` fails when a file under `tests/` is not declared here,
//! so a file cannot be skipped silently. Run one file's tests with
//! `cargo test --test suite <name>::`.

mod common;

mod any_strategy;
mod binders;
mod case_claims;
mod checks_map;
mod class_adversary;
mod cli;
mod conformance;
mod enclosure;
mod exact;
mod expectation;
mod experiments;
mod fuzz;
mod graph_claims;
mod graph_info;
mod graph_lower_bound;
mod graph_shrink;
mod graphical;
mod hardening;
mod lang;
mod laws;
mod layers;
mod lemma_bounds;
mod levels;
mod lower_bound;
mod mean_biased;
mod multidim;
mod multidim_claims;
mod multidim_expr;
mod multidim_shrink;
mod multidim_snapshots;
mod next_law;
mod prover;
mod ranges;
mod ring_setting;
mod sim;
mod sim_cli;
mod sim_values;
mod soundness;
mod statistical;
mod statistical_wrong;
mod stopping;
mod theorems;
mod unit;
mod workflow;

/// Every `tests/<name>.rs` (other than this file) is declared as `mod <name>;` above, and every
/// declared module has its file: the list in this file is the list of test files.
#[test]
fn every_test_file_is_a_module() {
    use std::collections::BTreeSet;
    let declared: BTreeSet<&str> = include_str!("suite.rs")
        .lines()
        .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
        .filter(|m| *m != "common")
        .collect();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let files: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|s| s != "suite")
        .collect();
    let files: BTreeSet<&str> = files.iter().map(String::as_str).collect();
    let missing: Vec<_> = files.difference(&declared).collect();
    assert!(
        missing.is_empty(),
        "tests/{{{}}}.rs not declared in tests/suite.rs: add `mod <name>;` for each",
        missing
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    let stale: Vec<_> = declared.difference(&files).collect();
    assert!(stale.is_empty(), "declared without a file: {stale:?}");
    // 30 files when the suite was made one crate; the count only grows.
    assert!(declared.len() >= 30, "{} modules", declared.len());
}
