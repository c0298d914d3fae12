//! The prover of kind `real` on the theorem files it decides: the time of a whole search (proof,
//! refutation or a fixed box budget), with the box evaluations of each run printed first, so
//! that boxes per second = evaluations / time. Figures in BENCHMARKS.md.

use balloc::claim;
use balloc::prover::{self, Options, Outcome};
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::Path;

/// The problem the proof tree of grid combination `case` of a theorem file decides (the reduced
/// claim of a file derived from lemmas).
fn problem(file: &str, case: usize) -> prover::Problem {
    // Paths are relative to the repository root (this package is `benches/`).
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let t = claim::load(&root.join(file), &root.join("theorems")).unwrap();
    claim::kind::real::problems(&t, Path::new("unused"))
        .unwrap()
        .swap_remove(case)
        .0
        .decided()
        .clone()
}

/// (verdict, box evaluations) of one search.
fn run(p: &prover::Problem, o: &Options) -> (&'static str, u64) {
    match prover::prove(p, o) {
        Outcome::Proved { stats, .. } => ("proved", stats.boxes),
        Outcome::Refuted { stats, .. } => ("refuted", stats.boxes),
        Outcome::Inconclusive { stats, .. } => ("inconclusive", stats.boxes),
    }
}

fn bench(c: &mut Criterion) {
    let cases: [(&str, &str, usize, u64); 6] = [
        (
            "second_order_bound",
            "theorems/batched-2022/real-second-order-bound.toml",
            0,
            200_000,
        ),
        (
            "second_order_bound_alpha0_1_79",
            "theorems/batched-2022/real-second-order-bound-alpha0.toml",
            0,
            200_000,
        ),
        (
            "second_order_bound_batch_16",
            "theorems/batched-2022/real-second-order-bound-batch.toml",
            2,
            200_000,
        ),
        (
            "lemma_3_8_delta0",
            "theorems/graphical-2022/real-lemma-3-8-one-step-delta0.toml",
            0,
            200_000,
        ),
        (
            "lemma_3_8_printed_refuted",
            "theorems/graphical-2022/real-lemma-3-8-one-step-printed.toml",
            0,
            200_000,
        ),
        (
            "lemma_3_8_light_3000_boxes",
            "theorems/graphical-2022/real-lemma-3-8-one-step-light.toml",
            0,
            3000,
        ),
    ];
    let mut g = c.benchmark_group("prove");
    for (name, file, case, boxes) in cases {
        let p = problem(file, case);
        let o = Options {
            max_boxes: boxes,
            max_seconds: 600.0,
            ..Options::default()
        };
        let (verdict, evals) = run(&p, &o);
        eprintln!("{name}: {verdict}, {evals} box evaluations");
        g.bench_function(name, |b| b.iter(|| run(std::hint::black_box(&p), &o)));
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
