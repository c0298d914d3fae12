//! States evaluated per second by the search on a Γ drift claim at n = 64 (one core).
//!
//! `cargo bench --bench search`; the figure is recorded in BENCHMARKS.md.

use balloc::claim::{self, RunContext};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::path::Path;

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-theorems");
    let dir = root.join("b");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("paper.toml"),
        "authors = [\"-\"]\ntitle = \"-\"\nvenue = \"-\"\nyear = 2022\n",
    )
    .unwrap();
    // The Γ drift claim of theorems/ptw/gamma-drift-two-choice at n = 64, families only
    // (two-level: 63 sizes × 31 heights = 1953 states per run).
    let file = dir.join("drift.toml");
    std::fs::write(
        &file,
        r#"title = "bench"
kind = "inequality"
expected = "holds"
statement = "-"
[source]
locator = "-"
provenance = "derived"
[setting]
processes = ["two-choice"]
[constants]
alpha = 0.1
delta = "1/2"
c = 0.35
[claim]
expr = "E_Gamma <= Gamma * (1 - eps1(delta) * delta * alpha / (8 * n)) + c * eps1(delta) * alpha"
[domain]
n = [64]
families = ["two-level"]
"#,
    )
    .unwrap();
    let (_, check) = claim::prepare(&file, &root).unwrap();
    let states = check
        .run(&mut RunContext::default())
        .unwrap()
        .searched
        .total;
    let mut g = c.benchmark_group("search");
    g.throughput(Throughput::Elements(states));
    g.sample_size(20);
    g.bench_function("gamma_drift_two_choice_n64_two_level", |b| {
        b.iter(|| check.run(&mut RunContext::default()).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
