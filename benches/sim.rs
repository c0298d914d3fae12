//! Simulator benchmarks (figures in BENCHMARKS.md): generator cost (ChaCha8 against xoshiro256++
//! seeded from it), per-ball cost of the engines, and the crossover between drawing a batch ball
//! by ball on the frozen loads and as one multinomial, which sets `dense::MULTINOMIAL_FACTOR`.
//!
//! Every figure is the CPU time of the benchmark thread (`benches/common`), the meaningful
//! measure on a shared machine. Run: `cargo bench -p balloc-benches --bench sim` (or `-- crossover` for one group).

use balloc::loads::TieRule;
use balloc::sim::compact::Compact;
use balloc::sim::dense::{BatchPath, Dense};
use balloc::sim::kernel::Kernel;
use balloc::sim::rng::{below, run_rng};
use balloc::sim::{Config, Model, Plan, System, run_one};
use balloc::weights::WeightLaw;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use serde_json::{Map, Value};
use std::hint::black_box;
use std::time::Duration;

mod common;
use common::ThreadCpuTime;

fn generators(c: &mut Criterion<ThreadCpuTime>) {
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

fn engines(c: &mut Criterion<ThreadCpuTime>) {
    let mut g = c.benchmark_group("engine");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    let run = |cfg: &Config, m: u64| run_one(cfg, &Plan::new(m, 1, 1), 0).unwrap().max_gap;
    for (name, spec, n, b, w, m) in [
        (
            "sequential two-choice n=1e4 m=1e6",
            "two-choice",
            10_000,
            1,
            "unit",
            1_000_000,
        ),
        (
            "sequential one-choice n=1e4 m=1e6",
            "one-choice",
            10_000,
            1,
            "unit",
            1_000_000,
        ),
        (
            "sequential (1+beta) n=1e4 m=1e6",
            "one-plus-beta(beta=0.5)",
            10_000,
            1,
            "unit",
            1_000_000,
        ),
        (
            "sequential quantile n=1e4 m=1e6",
            "quantile(delta=0.5)",
            10_000,
            1,
            "unit",
            1_000_000,
        ),
        (
            "sequential mean-thinning n=1e4 m=1e6",
            "mean-thinning",
            10_000,
            1,
            "unit",
            1_000_000,
        ),
        (
            "sequential two-choice exp(1) n=1e4 m=1e6",
            "two-choice",
            10_000,
            1,
            "exp(1)",
            1_000_000,
        ),
        (
            "batched two-choice n=1e3 b=n m=1e6",
            "two-choice",
            1000,
            1000,
            "unit",
            1_000_000,
        ),
        (
            "batched two-choice n=1e3 b=50n m=1e6",
            "two-choice",
            1000,
            50_000,
            "unit",
            1_000_000,
        ),
    ] {
        let cfg = Config::parse(spec, n, b, w, "random").unwrap();
        g.bench_function(name, |bch| bch.iter(|| black_box(run(&cfg, m))));
    }
    g.finish();
}

/// A configuration run on the compact engine, or on the dense engine with a forced batch path.
struct Forced {
    cfg: Config,
    path: Option<BatchPath>,
}

impl Model for Forced {
    fn key(&self) -> String {
        self.cfg.key()
    }
    fn describe(&self) -> Map<String, Value> {
        self.cfg.describe()
    }
    fn n(&self) -> usize {
        self.cfg.n
    }
    fn batch(&self) -> u64 {
        self.cfg.batch
    }
    fn build(&self) -> balloc::error::Result<Box<dyn System>> {
        let c = &self.cfg;
        Ok(match self.path {
            None => Box::new(Compact::new(
                c.n,
                Kernel::for_process(c.process.as_ref(), c.n)?,
                c.batch,
                c.ties,
            )?),
            Some(p) => Box::new(
                Dense::new(c.n, c.process.clone(), c.batch, c.weights.clone(), c.ties)?
                    .with_path(p),
            ),
        })
    }
}

/// Whole runs of 256·n balls with batches of k·n: ball by ball on frozen loads (compact engine
/// for unit weights, dense engine with weights) against one multinomial per batch (dense).
fn crossover(c: &mut Criterion<ThreadCpuTime>) {
    let mut g = c.benchmark_group("crossover");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    let n = 1000usize;
    for (spec, w) in [
        ("two-choice", "unit"),
        ("mean-thinning", "unit"),
        ("two-choice", "exp(1)"),
    ] {
        for k in [1u64, 2, 4, 8, 16, 32, 64] {
            let cfg = Config::new(
                std::sync::Arc::from(balloc::process::parse(spec).unwrap()),
                n,
                k * n as u64,
                WeightLaw::parse(w).unwrap(),
                TieRule::Random,
            )
            .unwrap();
            let plan = Plan::new(256 * n as u64, 1, 1);
            let frozen = if w == "unit" {
                None
            } else {
                Some(BatchPath::Frozen)
            };
            for (path, model) in [
                (
                    "frozen",
                    Forced {
                        cfg: cfg.clone(),
                        path: frozen,
                    },
                ),
                (
                    "multinomial",
                    Forced {
                        cfg: cfg.clone(),
                        path: Some(BatchPath::Multinomial),
                    },
                ),
            ] {
                let id = BenchmarkId::new(format!("{spec} {w} {path}"), format!("b={k}n"));
                g.bench_function(id, |b| {
                    b.iter(|| black_box(run_one(&model, &plan, 0).unwrap().max_gap))
                });
            }
        }
    }
    g.finish();
}

fn cpu() -> Criterion<ThreadCpuTime> {
    Criterion::default().with_measurement(ThreadCpuTime)
}

criterion_group!(name = benches; config = cpu(); targets = generators, engines, crossover);
criterion_main!(benches);
