//! Simulator benchmarks (figures in BENCHMARKS.md): per-ball cost of the level-count engine,
//! generator cost (ChaCha8 against xoshiro256++ seeded from it), and one batch of b = 50n balls
//! as a multinomial over ranks against ball by ball.

use balloc::sim::rng::{below, run_rng};
use balloc::sim::{Config, Plan, run_one};
use criterion::{Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use std::hint::black_box;

fn generators(c: &mut Criterion) {
    let mut g = c.benchmark_group("generator");
    g.bench_function("chacha8 two ranks", |b| {
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        b.iter(|| black_box(below(&mut r, 10_000).max(below(&mut r, 10_000))))
    });
    g.bench_function("xoshiro256++ two ranks", |b| {
        let mut r = run_rng(1);
        b.iter(|| black_box(below(&mut r, 10_000).max(below(&mut r, 10_000))))
    });
    g.bench_function("xoshiro256++ u64", |b| {
        let mut r = run_rng(1);
        b.iter(|| black_box(r.next_u64()))
    });
    g.finish();
}

fn engines(c: &mut Criterion) {
    let mut g = c.benchmark_group("engine");
    g.sample_size(10);
    let seq = Config::parse("two-choice", 10_000, 1, "unit", "random").unwrap();
    g.bench_function("levels two-choice n=1e4 m=1e6", |b| {
        b.iter(|| {
            black_box(
                run_one(&seq, &Plan::new(1_000_000, 1, 1), 0)
                    .unwrap()
                    .final_gap,
            )
        })
    });
    let weighted = Config::parse("two-choice", 10_000, 1, "exp(1)", "random").unwrap();
    g.bench_function("dense two-choice exp(1) n=1e4 m=1e6", |b| {
        b.iter(|| {
            black_box(
                run_one(&weighted, &Plan::new(1_000_000, 1, 1), 0)
                    .unwrap()
                    .final_gap,
            )
        })
    });
    let batched = Config::parse("two-choice", 1000, 50_000, "unit", "random").unwrap();
    g.bench_function("batched two-choice n=1e3 b=50n m=1e6 (one run)", |b| {
        b.iter(|| {
            black_box(
                run_one(&batched, &Plan::new(1_000_000, 1, 1), 0)
                    .unwrap()
                    .max_gap,
            )
        })
    });
    let small = Config::parse("two-choice", 1000, 5_000, "unit", "random").unwrap();
    g.bench_function("batched two-choice n=1e3 b=5n m=1e6 (ball by ball)", |b| {
        b.iter(|| {
            black_box(
                run_one(&small, &Plan::new(1_000_000, 1, 1), 0)
                    .unwrap()
                    .max_gap,
            )
        })
    });
    g.finish();
}

criterion_group!(benches, generators, engines);
criterion_main!(benches);
