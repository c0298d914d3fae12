//! States evaluated per second by the search on a Γ drift claim at n = 64 (one core).
//!
//! `cargo bench -p balloc-benches --bench search`; the figure is recorded in BENCHMARKS.md.
//!
//! Two measurements: criterion's wall clock (`search`) and the CPU time of the benchmark thread
//! (`search_cpu`, read from `/proc/thread-self/schedstat` on Linux), which stays meaningful when
//! other jobs share the cores.

use balloc::claim::{self, RunContext};
use criterion::measurement::Measurement;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::path::Path;

mod common;
use common::ThreadCpuTime;

fn bench<M: Measurement>(c: &mut Criterion<M>, name: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-theorems");
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
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(states));
    g.sample_size(20);
    g.bench_function("gamma_drift_two_choice_n64_two_level", |b| {
        b.iter(|| check.run(&mut RunContext::default()).unwrap())
    });
    g.finish();
}

fn wall(c: &mut Criterion) {
    bench(c, "search");
}

fn cpu(c: &mut Criterion<ThreadCpuTime>) {
    bench(c, "search_cpu");
}

criterion_group!(wall_clock, wall);
criterion_group! {
    name = cpu_time;
    config = Criterion::default().with_measurement(ThreadCpuTime);
    targets = cpu
}
criterion_main!(wall_clock, cpu_time);
