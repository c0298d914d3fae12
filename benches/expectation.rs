//! E[Γ'] for Two-Choice (sequential, random ties, unit weights) at n = 10³ … 10⁶, on a random
//! integer load vector with ties (loads uniform in 0..100, fixed ChaCha seed). Figures are
//! recorded in `BENCHMARKS.md`.
//!
//! Two measurements: criterion's wall clock (`expect_gamma_two_choice`) and the CPU time of the
//! benchmark thread (`expect_gamma_two_choice_cpu`, read from `/proc/thread-self/schedstat` on
//! Linux), which stays meaningful when other jobs share the cores.
//!
//! Run: `cargo bench -p balloc-benches --bench expectation`.

use balloc::expectation::expect;
use balloc::loads::Loads;
use balloc::setting::Setting;
use balloc::{potential, process};
use criterion::measurement::Measurement;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::Duration;

/// A random integer load vector with ties: n loads uniform in 0..100.
fn loads(n: usize) -> Loads {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    Loads::new((0..n).map(|_| rng.random_range(0..100u32) as f64).collect()).unwrap()
}

mod common;
use common::ThreadCpuTime;

fn bench<M: Measurement>(c: &mut Criterion<M>, name: &str) {
    let p = process::parse("two-choice").unwrap();
    let g = potential::parse("gamma(alpha=0.1)").unwrap();
    let s = Setting::sequential();
    let mut group = c.benchmark_group(name);
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for n in [1_000usize, 10_000, 100_000, 1_000_000] {
        let x = loads(n);
        group.bench_with_input(BenchmarkId::from_parameter(n), &x, |b, x| {
            b.iter(|| expect(p.as_ref(), g.as_ref(), black_box(x), &s).unwrap())
        });
    }
    group.finish();
}

/// The same E[Γ'] through the claim language: Γ as a potential defined in a file
/// (`G = sum(exp(alpha*y) + exp(-alpha*y))`, the separable route of the engine) against the
/// registered Γ, both through `claim::Evaluator` (the route a claim takes).
fn bench_user<M: Measurement>(c: &mut Criterion<M>, name: &str) {
    let frag = "[setting]\nprocesses = [\"two-choice\"]\n[constants]\nalpha = \"1/10\"\n\
                [potentials]\nG = \"sum(exp(alpha*y) + exp(-alpha*y))\"";
    let mut group = c.benchmark_group(name);
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for n in [1_000usize, 1_000_000] {
        let x = loads(n).as_slice().to_vec();
        for (label, expr) in [("user", "E_G"), ("builtin", "E_Gamma")] {
            let ev = balloc::claim::Evaluator::new(frag, expr, n).unwrap();
            group.bench_with_input(BenchmarkId::new(label, n), &x, |b, x| {
                b.iter(|| ev.float(black_box(x)).unwrap())
            });
        }
    }
    group.finish();
}

fn wall(c: &mut Criterion) {
    bench(c, "expect_gamma_two_choice");
    bench_user(c, "claim_gamma_user_vs_builtin");
}

fn cpu(c: &mut Criterion<ThreadCpuTime>) {
    bench(c, "expect_gamma_two_choice_cpu");
    bench_user(c, "claim_gamma_user_vs_builtin_cpu");
}

criterion_group!(wall_clock, wall);
criterion_group! {
    name = cpu_time;
    config = Criterion::default().with_measurement(ThreadCpuTime);
    targets = cpu
}
criterion_main!(wall_clock, cpu_time);
