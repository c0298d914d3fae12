//! The library's own unit tests, run by the test suite (`tests/unit.rs`).
//!
//! A module's unit tests live beside its code, in `#[cfg(feature = "unit-tests")] pub mod tests`,
//! with access to its private items; each test is a plain `fn()` listed in the module's `TESTS`
//! (a test left out of `TESTS` is dead code, which the lints reject). The feature is on only where
//! the crate's own tests build it (the crate's dev-dependency on itself): the library is then
//! compiled once for the command line, the test suite and the unit tests, instead of a second
//! time as a unit-test harness (`[lib] test = false`, `BENCHMARKS.md`). [`MODULES`] lists every
//! such module; `tests/unit.rs` runs each as one test of the suite.

use std::panic::{AssertUnwindSafe, catch_unwind};

/// One unit test: its name, the function, and the message it must panic with, if any.
#[derive(Debug, Clone, Copy)]
pub struct Test {
    /// The function's name.
    pub name: &'static str,
    /// The test.
    pub run: fn(),
    /// `Some(text)`: the test passes only by panicking with a message containing `text`.
    pub panics: Option<&'static str>,
}

/// Every module with unit tests, by its path under the crate root, with its tests.
pub const MODULES: &[(&str, &[Test])] = &[
    ("bias::outcome", crate::bias::outcome::tests::TESTS),
    ("blueprint::layout", crate::blueprint::layout::tests::TESTS),
    (
        "claim::kind::inequality::run",
        crate::claim::kind::inequality::run::tests::TESTS,
    ),
    (
        "claim::kind::multidim_expr",
        crate::claim::kind::multidim_expr::tests::TESTS,
    ),
    (
        "claim::kind::two_point",
        crate::claim::kind::two_point::tests::TESTS,
    ),
    ("claim::mean_bias", crate::claim::mean_bias::tests::TESTS),
    ("claim::tighten", crate::claim::tighten::tests::TESTS),
    ("claim::trust", crate::claim::trust::tests::TESTS),
    ("cli::check", crate::cli::check::tests::TESTS),
    ("cli::search", crate::cli::search::tests::TESTS),
    (
        "enclosure::interval::exp_memo",
        crate::enclosure::interval::exp_memo::tests::TESTS,
    ),
    (
        "enclosure::interval",
        crate::enclosure::interval::tests::TESTS,
    ),
    (
        "enclosure::interval64",
        crate::enclosure::interval64::tests::TESTS,
    ),
    ("error", crate::error::tests::TESTS),
    ("exact::int", crate::exact::int::tests::TESTS),
    ("exact", crate::exact::tests::TESTS),
    ("exact::sum", crate::exact::sum::tests::TESTS),
    ("graph::binarise", crate::graph::binarise::tests::TESTS),
    ("graph::binomial", crate::graph::binomial::tests::TESTS),
    ("graph::quantities", crate::graph::quantities::tests::TESTS),
    ("graph::sparse_cut", crate::graph::sparse_cut::tests::TESTS),
    ("graph::strategy", crate::graph::strategy::tests::TESTS),
    ("graph::tree_file", crate::graph::tree_file::tests::TESTS),
    ("lang::domain", crate::lang::domain::tests::TESTS),
    ("lang::dual", crate::lang::dual::tests::TESTS),
    ("lang::expr", crate::lang::expr::tests::TESTS),
    (
        "lang::expr::postfix",
        crate::lang::expr::postfix::tests::TESTS,
    ),
    ("lang::expsum", crate::lang::expsum::tests::TESTS),
    ("lang::float64", crate::lang::float64::tests::TESTS),
    ("lang::jet", crate::lang::jet::tests::TESTS),
    ("lang::syntax", crate::lang::syntax::tests::TESTS),
    ("limits", crate::limits::tests::TESTS),
    (
        "multidim::potential",
        crate::multidim::potential::tests::TESTS,
    ),
    ("plot", crate::plot::tests::TESTS),
    (
        "potential::exponential",
        crate::potential::exponential::tests::TESTS,
    ),
    (
        "potential::shift_form",
        crate::potential::shift_form::tests::TESTS,
    ),
    (
        "prover::certificate",
        crate::prover::certificate::tests::TESTS,
    ),
    ("prover::lemma", crate::prover::lemma::tests::TESTS),
    ("prover::ratfun", crate::prover::ratfun::tests::TESTS),
    ("prover::rewrite", crate::prover::rewrite::tests::TESTS),
    ("sim::graph", crate::sim::graph::tests::TESTS),
    ("sim::multinomial", crate::sim::multinomial::tests::TESTS),
    ("strategy", crate::strategy::tests::TESTS),
    ("xfloat", crate::xfloat::tests::TESTS),
];

/// The message of a caught panic.
fn message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(a panic without a message)".into())
}

/// Runs one test; `Err` with what went wrong.
fn run_one(t: &Test) -> Result<(), String> {
    match (catch_unwind(AssertUnwindSafe(t.run)), t.panics) {
        (Ok(()), None) => Ok(()),
        (Ok(()), Some(want)) => Err(format!("did not panic (expected a panic with `{want}`)")),
        (Err(p), None) => Err(message(p.as_ref())),
        (Err(p), Some(want)) => {
            let got = message(p.as_ref());
            if got.contains(want) {
                Ok(())
            } else {
                Err(format!("panicked with `{got}`, expected `{want}`"))
            }
        }
    }
}

/// Runs every unit test of `module` (a path of [`MODULES`]), each to its end, and panics with
/// the list of those that failed.
///
/// ```
/// // `xfloat`'s unit tests all pass (this is what `tests/unit.rs` runs for each module).
/// # #[cfg(feature = "unit-tests")]
/// balloc::unit::run("xfloat");
/// ```
pub fn run(module: &str) {
    let Some((_, tests)) = MODULES.iter().find(|(m, _)| *m == module) else {
        panic!("no module `{module}` with unit tests");
    };
    let failed: Vec<String> = tests
        .iter()
        .filter_map(|t| {
            run_one(t)
                .err()
                .map(|e| format!("{module}::tests::{}: {e}", t.name))
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} unit test(s) failed:\n{}",
        failed.len(),
        tests.len(),
        failed.join("\n")
    );
}
