//! Simulator checks: fast kernels and batch multinomials against the processes' own laws and
//! natural samplers (chi-square tests at fixed seeds), one simulated step against the exact
//! expectation, determinism across thread counts, and the sweep shard/merge/resume contract.

use balloc::expectation::expect;
use balloc::loads::{Loads, TieRule};
use balloc::potential;
use balloc::process::{self, Process};
use balloc::setting::Setting;
use balloc::sim::compact::Compact;
use balloc::sim::dense::{Dense, fast_batch, fast_batch_on, naive_batch};
use balloc::sim::kernel::{Kernel, RankSampler};
use balloc::sim::levels::Levels;
use balloc::sim::rng::run_rng;
use balloc::sim::statistic::mean_ci;
use balloc::sim::{self, Config, Engine, Plan, System};
use balloc::weights::WeightLaw;
use statrs::distribution::{ChiSquared, ContinuousCDF};
use std::collections::BTreeMap;
use std::sync::Arc;

/// p-value of Pearson's goodness-of-fit statistic, pooling cells with expectation < 5.
fn gof_p(observed: &[u64], expected_prob: &[f64]) -> f64 {
    let total: u64 = observed.iter().sum();
    let (mut stat, mut cells) = (0.0, 0usize);
    let (mut o_acc, mut e_acc) = (0.0, 0.0);
    for (o, p) in observed.iter().zip(expected_prob) {
        o_acc += *o as f64;
        e_acc += p * total as f64;
        if e_acc >= 5.0 {
            stat += (o_acc - e_acc).powi(2) / e_acc;
            cells += 1;
            o_acc = 0.0;
            e_acc = 0.0;
        }
    }
    if e_acc > 0.0 {
        stat += (o_acc - e_acc).powi(2) / e_acc;
        cells += 1;
    }
    1.0 - ChiSquared::new((cells - 1) as f64).unwrap().cdf(stat)
}

/// p-value of the two-sample chi-square test of homogeneity on two samples of numbers
/// (values binned exactly; sparse cells pooled in order).
fn two_sample_p(a: &[f64], b: &[f64]) -> f64 {
    let mut m: BTreeMap<i64, (f64, f64)> = BTreeMap::new();
    for &x in a {
        m.entry((x * 1000.0).round() as i64).or_default().0 += 1.0;
    }
    for &x in b {
        m.entry((x * 1000.0).round() as i64).or_default().1 += 1.0;
    }
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let mut cells: Vec<(f64, f64)> = Vec::new();
    let mut acc = (0.0, 0.0);
    for (_, (x, y)) in m {
        acc.0 += x;
        acc.1 += y;
        if acc.0 + acc.1 >= 20.0 {
            cells.push(acc);
            acc = (0.0, 0.0);
        }
    }
    if acc.0 + acc.1 > 0.0 {
        match cells.last_mut() {
            Some(l) => {
                l.0 += acc.0;
                l.1 += acc.1;
            }
            None => cells.push(acc),
        }
    }
    if cells.len() < 2 {
        return 1.0;
    }
    let stat: f64 = cells
        .iter()
        .map(|(x, y)| ((nb / na).sqrt() * x - (na / nb).sqrt() * y).powi(2) / (x + y))
        .sum();
    1.0 - ChiSquared::new((cells.len() - 1) as f64).unwrap().cdf(stat)
}

const ALPHA: f64 = 1e-3;

#[test]
fn rank_samplers_match_allocation_vectors() {
    // Independent route: each process's own allocation vector p (rank_probabilities).
    for spec in [
        "one-choice",
        "two-choice",
        "d-choice(d=3)",
        "one-plus-beta(beta=0.3)",
        "quantile(delta=0.25)",
    ] {
        let p = process::parse(spec).unwrap();
        let n = 8;
        let s = RankSampler::for_process(p.as_ref(), n).unwrap().unwrap();
        let mut r = run_rng(11);
        let mut c = vec![0u64; n];
        for _ in 0..80_000 {
            c[s.sample(&mut r) as usize] += 1;
        }
        let pv = p.rank_probabilities(n).unwrap().unwrap();
        let pval = gof_p(&c, &pv);
        assert!(pval > ALPHA, "{spec}: p-value {pval}, counts {c:?}");
        // The alias fallback must agree too.
        let a = balloc::sim::kernel::Alias::new(&pv).unwrap();
        let mut c = vec![0u64; n];
        for _ in 0..80_000 {
            c[a.sample(&mut r)] += 1;
        }
        assert!(gof_p(&c, &pv) > ALPHA, "{spec}: alias");
    }
}

/// The state used by the one-step and one-batch checks: ties at the top and the bottom.
fn state() -> Loads {
    Loads::new(vec![3.0, 1.0, 1.0, 0.0, 3.0, 2.0, 0.0, 0.0]).unwrap()
}

#[test]
fn one_simulated_step_matches_exact_expectation() {
    // For each process and setting: the mean of Γ after one step (or batch) over R independent
    // simulated steps from the same state lies in its 99.9% t-interval around... i.e. the exact
    // expectation lies in the simulated interval.
    let gamma = potential::parse("gamma(alpha=0.5)").unwrap();
    let cases: &[(&str, u64, &str)] = &[
        ("two-choice", 1, "unit"),
        ("one-plus-beta(beta=0.5)", 1, "exp(1)"),
        ("quantile(delta=0.25)", 1, "unit"),
        ("mean-thinning", 1, "unit"),
        ("twinning", 1, "exp(1)"),
        ("packing", 1, "unit"),
        ("two-thinning(threshold=1)", 1, "geometric(mean=1)"),
        ("two-choice", 4, "unit"),
        ("d-choice(d=3)", 3, "exp(1)"),
        ("twinning", 3, "unit"),
    ];
    let x = state();
    for &(spec, b, w) in cases {
        let p: Arc<dyn Process> = Arc::from(process::parse(spec).unwrap());
        let weights = WeightLaw::parse(w).unwrap();
        let setting = Setting::new(b, weights.clone(), TieRule::Random).unwrap();
        let exact = expect(p.as_ref(), gamma.as_ref(), &x, &setting)
            .unwrap()
            .expected_next
            .to_f64_checked()
            .unwrap();
        // Ten intervals at 99.9%: a miss at a fixed seed happens by chance about once in a
        // hundred seeds. Seed 5 missed for Two-Thinning with geometric weights after the kernels
        // changed the stream; four seeds of 200 000 steps gave z = −0.5, −0.9, −1.0, +1.2.
        let mut rng = run_rng(6);
        let vals: Vec<f64> = (0..20_000)
            .map(|_| {
                let mut d = Dense::new(8, p.clone(), b, weights.clone(), TieRule::Random)
                    .unwrap()
                    .with_loads(&x);
                let t = d.balls() + b;
                d.run_until(t, &mut rng).unwrap();
                gamma
                    .value(&Loads::new(d.loads().to_vec()).unwrap())
                    .to_f64_checked()
                    .unwrap()
            })
            .collect();
        let e = mean_ci(&vals, 0.999).unwrap();
        assert!(
            e.ci_low <= exact && exact <= e.ci_high,
            "{spec} b={b} {w}: exact {exact} outside [{}, {}]",
            e.ci_low,
            e.ci_high
        );
    }
}

#[test]
fn batch_multinomial_matches_ball_by_ball() {
    // The fast batch (multinomial over the frozen law) against the process's natural sampler
    // applied ball by ball: same distribution of the load of bin 1 (in a tied group), of bin 3
    // (lightest group) and of the maximum load.
    let x = state();
    let cases: &[(&str, TieRule, &str, u64)] = &[
        // b < 24n: ball by ball on the frozen loads; b ≥ 24n: one multinomial over ranks (over
        // the step law from 10n for the processes that are not rank-based).
        ("two-choice", TieRule::Random, "unit", 16),
        ("two-choice", TieRule::Random, "unit", 100),
        ("two-choice", TieRule::Random, "unit", 200),
        ("two-choice", TieRule::Fixed, "unit", 200),
        ("mean-thinning", TieRule::Random, "unit", 100),
        ("d-choice(d=3)", TieRule::Fixed, "unit", 12),
        ("one-plus-beta(beta=0.5)", TieRule::Random, "exp(1)", 12),
        ("one-plus-beta(beta=0.5)", TieRule::Random, "exp(1)", 80),
        ("quantile(delta=0.25)", TieRule::Fixed, "unit", 2), // small batch: ball-by-ball path
        ("twinning", TieRule::Random, "unit", 10),
        ("mean-thinning", TieRule::Random, "geometric(mean=1)", 10),
    ];
    for &(spec, ties, w, b) in cases {
        let p: Arc<dyn Process> = Arc::from(process::parse(spec).unwrap());
        let weights = WeightLaw::parse(w).unwrap();
        let mut r1 = run_rng(21);
        let mut r2 = run_rng(22);
        let (mut fa, mut fb, mut fc) = (vec![], vec![], vec![]);
        let (mut na, mut nb, mut nc) = (vec![], vec![], vec![]);
        for _ in 0..4_000 {
            let f = fast_batch(p.clone(), &x, ties, b, &weights, &mut r1).unwrap();
            let g = naive_batch(p.as_ref(), &x, ties, b, &weights, &mut r2);
            let (f, g) = (f.as_slice(), g.as_slice());
            let round = |v: f64| if weights.is_unit() { v } else { v.floor() };
            fa.push(round(f[1]));
            na.push(round(g[1]));
            fb.push(round(f[3]));
            nb.push(round(g[3]));
            fc.push(round(f.iter().cloned().fold(0.0, f64::max)));
            nc.push(round(g.iter().cloned().fold(0.0, f64::max)));
        }
        for (what, a, bb) in [("bin 1", &fa, &na), ("bin 3", &fb, &nb), ("max", &fc, &nc)] {
            let pv = two_sample_p(a, bb);
            assert!(pv > ALPHA, "{spec} {ties:?} {w} b={b}, {what}: p = {pv}");
        }
    }
}

/// A configuration run on a chosen engine (the simulator picks one by configuration; the tests
/// run every engine that can run it).
struct OnEngine {
    cfg: Config,
    engine: Engine,
}

impl sim::Model for OnEngine {
    fn key(&self) -> String {
        sim::Model::key(&self.cfg)
    }
    fn describe(&self) -> serde_json::Map<String, serde_json::Value> {
        sim::Model::describe(&self.cfg)
    }
    fn n(&self) -> usize {
        self.cfg.n
    }
    fn batch(&self) -> u64 {
        self.cfg.batch
    }
    fn build(&self) -> balloc::error::Result<Box<dyn System>> {
        let n = self.cfg.n;
        let k = Kernel::for_process(self.cfg.process.as_ref(), n)?;
        Ok(match self.engine {
            Engine::Levels => Box::new(Levels::new(n, k)?),
            Engine::Compact => Box::new(Compact::new(n, k, self.cfg.batch, self.cfg.ties)?),
            Engine::Dense => Box::new(Dense::new(
                n,
                self.cfg.process.clone(),
                self.cfg.batch,
                self.cfg.weights.clone(),
                self.cfg.ties,
            )?),
        })
    }
}

/// Final gap and spread of `runs` sequential runs of `m` balls from empty bins with the
/// process's natural sampler on a full load vector (ranking recomputed after every ball).
fn natural_sequential(p: &dyn Process, n: usize, m: u64, runs: usize, seed: u64) -> Vec<f64> {
    let mut rng = run_rng(seed);
    (0..runs)
        .map(|_| {
            let mut x = Loads::zeros(n).unwrap();
            let mut balls = 0;
            while balls < m {
                let ranking = x.ranking();
                let (j, k) = p.sample(&x, &ranking, TieRule::Random, &mut rng);
                x.add(j, k as f64);
                balls += k as u64;
            }
            x.gap() * n as f64 + x.spread() * 1000.0
        })
        .collect()
}

#[test]
fn sequential_engines_match_natural_sequential_sampler() {
    // Final gap and spread after m balls on every engine that runs the process (level counts,
    // compact offsets, dense f64 with the kernels), against the process's own natural sampler.
    for spec in [
        "one-choice",
        "two-choice",
        "d-choice(d=3)",
        "one-plus-beta(beta=0.5)",
        "quantile(delta=0.5)",
        "two-thinning(threshold=4)",
        "relative-threshold(f=1)",
        "mean-thinning",
        "twinning",
        "packing",
        "graphical(graph=cycle)",
        "graphical(graph=complete,beta=0.5)",
    ] {
        let p: Arc<dyn Process> = Arc::from(process::parse(spec).unwrap());
        let cfg = Config::new(p.clone(), 6, 1, WeightLaw::Unit, TieRule::Random).unwrap();
        let naive = natural_sequential(p.as_ref(), 6, 30, 3_000, 99);
        // The level-count engine draws ranks: only for rank-based processes.
        let engines = if p.info().rank_based {
            vec![Engine::Levels, Engine::Compact, Engine::Dense]
        } else {
            vec![Engine::Compact, Engine::Dense]
        };
        for engine in engines {
            let m = OnEngine {
                cfg: cfg.clone(),
                engine,
            };
            // 30 comparisons at α = 10⁻³. Seed 3 failed for (1+β) on the compact engine
            // (p = 0.0003); six seeds of 20 000 runs each gave χ² ≈ its degrees of freedom.
            let out = sim::simulate(&m, &Plan::new(30, 3_000, 4), &|| {}).unwrap();
            let fast: Vec<f64> = out
                .runs
                .iter()
                .map(|r| r.final_gap * 6.0 + r.spread * 1000.0)
                .collect();
            let pv = two_sample_p(&fast, &naive);
            assert!(pv > ALPHA, "{spec} on {engine:?}: p = {pv}");
        }
    }
}

#[test]
fn compact_offsets_rebase_and_widen_without_changing_the_law() {
    // One-Choice on n = 2 bins for 2·10⁵ balls: the two loads drift apart by about 450, beyond
    // the 255 levels of one byte, so the compact engine re-bases and widens to u16. Its final
    // spread must follow the law of the level-count engine's (which has no such limit), and the
    // loads must add up.
    let cfg = Config::parse("one-choice", 2, 1, "unit", "random").unwrap();
    assert_eq!(cfg.engine(), Engine::Compact);
    let plan = Plan::new(200_000, 400, 5);
    let compact = sim::simulate(&cfg, &plan, &|| {}).unwrap();
    let levels = sim::simulate(
        &OnEngine {
            cfg: cfg.clone(),
            engine: Engine::Levels,
        },
        &Plan::new(200_000, 400, 6),
        &|| {},
    )
    .unwrap();
    assert!(
        compact.runs.iter().any(|r| r.spread > 255.0),
        "never widened"
    );
    for r in &compact.runs {
        assert_eq!(r.balls, 200_000);
        // Two bins: max = W/2 + spread/2, so the gap is half the spread.
        assert_eq!(r.final_gap * 2.0, r.spread);
    }
    let a: Vec<f64> = compact
        .runs
        .iter()
        .map(|r| (r.spread / 50.0).floor())
        .collect();
    let b: Vec<f64> = levels
        .runs
        .iter()
        .map(|r| (r.spread / 50.0).floor())
        .collect();
    let pv = two_sample_p(&a, &b);
    assert!(pv > ALPHA, "spread: p = {pv}");
    // Batched: b = n = 2 (ball by ball on frozen loads), widening inside a batch's additions.
    let cfg = Config::parse("one-choice", 2, 2, "unit", "random").unwrap();
    assert_eq!(cfg.engine(), Engine::Compact);
    let out = sim::simulate(&cfg, &Plan::new(200_000, 50, 7), &|| {}).unwrap();
    assert!(out.runs.iter().any(|r| r.spread > 255.0), "never widened");
    assert!(out.runs.iter().all(|r| r.final_gap * 2.0 == r.spread));
}

#[test]
fn frozen_batches_follow_the_step_law() {
    // One batch of b = 2n steps from a state with tied groups, drawn ball by ball on the frozen
    // loads (compact and dense engines), repeated: the steps received by each bin, summed over
    // the repetitions, are Multinomial(b·reps; r) with r the process's own per-bin step law
    // (`Process::step_law`, which applies the tie rule to the allocation vector).
    let x = state();
    let n = x.n();
    let b = 2 * n as u64;
    let reps = 5_000;
    for spec in [
        "one-choice",
        "two-choice",
        "d-choice(d=3)",
        "one-plus-beta(beta=0.3)",
        "quantile(delta=0.25)",
        "quantile(delta=0.5)",
        "two-thinning(threshold=1)",
        "relative-threshold(f=1)",
        "mean-thinning",
        "twinning",
        "packing",
        // Greedy on graphs (a uniform edge, the lighter endpoint, ties by a coin whatever the
        // rule), also in the (1+β) model.
        "graphical(graph=cycle)",
        "graphical(graph=regular,d=3,seed=1)",
        "graphical(graph=hypercube,beta=0.3)",
    ] {
        let p: Arc<dyn Process> = Arc::from(process::parse(spec).unwrap());
        for ties in [TieRule::Random, TieRule::Fixed] {
            let law = p.step_law(&x, ties).unwrap();
            let r = law.per_bin_probability();
            // Balls per step of each bin (one outcome per bin for these processes).
            let mut per = vec![1.0; n];
            for o in &law.outcomes {
                per[o.bin] = o.balls as f64;
            }
            for engine in [Engine::Compact, Engine::Dense] {
                let mut rng = run_rng(17);
                let mut steps = vec![0u64; n];
                for _ in 0..reps {
                    let y =
                        fast_batch_on(engine, p.clone(), &x, ties, b, &WeightLaw::Unit, &mut rng)
                            .unwrap();
                    for j in 0..n {
                        let inc = y.as_slice()[j] - x.as_slice()[j];
                        assert_eq!(inc % per[j], 0.0, "{spec}: bin {j} got {inc}");
                        steps[j] += (inc / per[j]) as u64;
                    }
                }
                assert_eq!(steps.iter().sum::<u64>(), b * reps);
                let pv = gof_p(&steps, &r);
                assert!(
                    pv > ALPHA,
                    "{spec} {ties:?} on {engine:?}: p = {pv}, {steps:?} vs {r:?}"
                );
            }
        }
    }
}

#[test]
fn quantile_tracker_agrees_with_a_cut_computed_afresh() {
    // Loads grow one bin at a time (integer amounts, so ties stay common, or real ones); after
    // every growth the tracker's answer for every bin equals that of the cut computed from the
    // loads by selection (`Frame::quantile_cut`), with the same random draws.
    use balloc::sim::kernel::{Frame, QuantileTracker, Reals};
    use balloc::sim::rng::{below, unit_f64};
    let n = 10usize;
    for ties in [TieRule::Random, TieRule::Fixed] {
        for k in [1u64, 3, 6, 9] {
            for integral in [true, false] {
                let mut x = vec![0.0f64; n];
                let mut tr = QuantileTracker::new(&x, k, ties);
                let mut rng = run_rng(k * 7 + integral as u64);
                for _ in 0..300 {
                    let f = Reals {
                        x: &x,
                        total: x.iter().sum(),
                    };
                    let cut = f.quantile_cut(k, ties);
                    for i in 0..n {
                        let (mut r1, mut r2) = (rng.clone(), rng.clone());
                        assert_eq!(
                            tr.heavy(i, x[i], &mut r1),
                            cut.heavy(i, x[i], &mut r2),
                            "{ties:?} k={k} bin {i} at {x:?}"
                        );
                        assert_eq!(below(&mut r1, 1 << 40), below(&mut r2, 1 << 40));
                    }
                    let j = below(&mut rng, n as u64) as usize;
                    let w = if integral {
                        (below(&mut rng, 3) + 1) as f64
                    } else {
                        2.0 * unit_f64(&mut rng)
                    };
                    tr.grow(j, x[j], x[j] + w);
                    x[j] += w;
                }
            }
        }
    }
}

#[test]
fn max_gap_is_the_maximum_over_every_step() {
    // Replay: a run observed after every step (or batch) takes the same random numbers as the
    // run in one piece (the stream does not depend on where the checkpoints fall), and its max
    // gap is the largest gap over those observation points. Every engine: compact (sequential
    // and batched), level counts (Quantile), dense (weights).
    for (spec, b, w) in [
        ("one-choice", 1, "unit"),
        ("two-choice", 1, "unit"),
        ("one-plus-beta(beta=0.5)", 1, "unit"),
        ("mean-thinning", 1, "unit"),
        ("twinning", 1, "unit"),
        ("quantile(delta=0.4)", 1, "unit"),
        ("two-choice", 1, "exp(1)"),
        ("two-choice", 2, "unit"),
        ("one-choice", 3, "exp(1)"),
    ] {
        let cfg = Config::parse(spec, 5, b, w, "random").unwrap();
        let mut plan = Plan::new(200, 1, 4);
        let a = sim::run_one(&cfg, &plan, 0).unwrap();
        plan.trajectory = 200; // a checkpoint after every step or batch
        let c = sim::run_one(&cfg, &plan, 0).unwrap();
        let m = c.trajectory.iter().map(|p| p.gap).fold(f64::MIN, f64::max);
        assert_eq!(a.max_gap, m, "{spec} b={b} {w}");
        assert_eq!(
            (a.final_gap, a.spread, a.balls),
            (c.final_gap, c.spread, c.balls),
            "{spec} b={b} {w}"
        );
    }
}

fn json_of(cfg: &Config, plan: &Plan) -> String {
    let out = sim::simulate(cfg, plan, &|| {}).unwrap();
    serde_json::to_string(&sim::to_json(&out, plan)).unwrap()
}

#[test]
fn same_seed_same_bytes_for_any_thread_count() {
    for (spec, b, w) in [
        ("two-choice", 1, "unit"),
        ("one-plus-beta(beta=0.5)", 50, "exp(1)"),
        ("two-choice", 500, "unit"), // b = 10n: ball by ball on the frozen loads
        ("two-choice", 1250, "unit"), // b = 25n: the multinomial over ranks
        ("twinning", 1, "exp(1)"),
    ] {
        let cfg = Config::parse(spec, 50, b, w, "random").unwrap();
        let mut plan = Plan::new(2_000, 12, 7);
        plan.trajectory = 5;
        plan.potentials
            .push(Arc::from(potential::parse("quadratic").unwrap()));
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let two = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let a = one.install(|| json_of(&cfg, &plan));
        let b2 = two.install(|| json_of(&cfg, &plan));
        let c = two.install(|| json_of(&cfg, &plan));
        assert_eq!(a, b2, "{spec}: 1 vs 2 threads");
        assert_eq!(b2, c, "{spec}: repeat");
        plan.seed = 8;
        assert_ne!(
            a,
            two.install(|| json_of(&cfg, &plan)),
            "{spec}: the seed matters"
        );
    }
}

mod sweep {
    use balloc::app::sweep::{Shard, Sweep};
    use std::path::Path;

    const TOML: &str = r#"
runs = 5
seed = 3
output = "grid"
[grid]
process = ["two-choice", "one-plus-beta(beta=0.5)"]
weights = ["unit", "exp(1)"]
n = [20]
batch_per_n = [1, 3]
batches = [4]
"#;

    fn setup(dir: &Path) -> Sweep {
        std::fs::create_dir_all(dir).unwrap();
        let f = dir.join("s.toml");
        std::fs::write(&f, TOML).unwrap();
        Sweep::load(&f).unwrap()
    }

    #[test]
    fn shards_merge_to_the_unsharded_bytes_and_resume_works() {
        let base = std::env::temp_dir().join(format!("balloc-sweep-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let s = setup(&base.join("full"));
        assert_eq!(s.entries.len(), 8);
        s.run(None, &|_| {}).unwrap();
        let full = std::fs::read(s.runs_path()).unwrap();
        let full_sum = std::fs::read(s.summary_path()).unwrap();
        assert_eq!(String::from_utf8_lossy(&full).lines().count(), 1 + 8 * 5);

        let t = setup(&base.join("sharded"));
        for i in 0..3 {
            t.run(Some(Shard { index: i, count: 3 }), &|_| {}).unwrap();
        }
        assert!(t.merge(2).is_err(), "a wrong shard count must not merge");
        t.merge(3).unwrap();
        assert_eq!(std::fs::read(t.runs_path()).unwrap(), full);
        assert_eq!(std::fs::read(t.summary_path()).unwrap(), full_sum);

        // Resume: a partial file with the first 7 rows and a torn eighth line.
        let u = setup(&base.join("resume"));
        let text = String::from_utf8(full.clone()).unwrap();
        let rows: Vec<&str> = text.lines().skip(1).collect();
        let mut partial = format!("# balloc sweep {:016x}\n", u.fingerprint);
        for r in &rows[..7] {
            partial.push_str(&super::sweep_integrity::seal(&u, r));
            partial.push('\n');
        }
        partial.push_str(&rows[7][..10]);
        let pp = base.join("resume").join("grid.partial.csv");
        std::fs::write(&pp, partial).unwrap();
        u.run(None, &|_| {}).unwrap();
        assert_eq!(std::fs::read(u.runs_path()).unwrap(), full);
        assert!(!pp.exists(), "the partial file is removed at the end");
        let _ = std::fs::remove_dir_all(&base);
    }
}

mod sweep_integrity {
    use balloc::app::sweep::{Shard, Sweep};
    use std::path::{Path, PathBuf};

    /// A row as a partial or shard file holds it: followed by its checksum, the FNV-1a hash of
    /// the sweep's fingerprint (16 hex digits), `|` and the row.
    pub fn seal(s: &Sweep, row: &str) -> String {
        let h = balloc::sim::rng::fnv1a64(&format!("{:016x}|{row}", s.fingerprint));
        format!("{row},{h:016x}")
    }

    fn dir(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("balloc-integrity-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn sweep(d: &Path, runs: u64, seed: u64) -> Sweep {
        let f = d.join("s.toml");
        std::fs::write(
            &f,
            format!(
                "runs = {runs}\nseed = {seed}\noutput = \"grid\"\n[grid]\n\
                 process = [\"two-choice\", \"mean-thinning\"]\nn = [10]\nballs_per_n = [5]\n"
            ),
        )
        .unwrap();
        Sweep::load(&f).unwrap()
    }

    #[test]
    fn a_second_sweep_in_the_same_folder_is_refused_while_the_first_holds_the_lock() {
        let d = dir("lock");
        let s = sweep(&d, 4, 1);
        // The lock a running sweep holds: an exclusive OS lock on the folder's lock file.
        let held = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(d.join(".balloc-sweep.lock"))
            .unwrap();
        held.lock().unwrap();
        let e = s.run(None, &|_| {}).unwrap_err().to_string();
        assert!(e.contains("another balloc sweep"), "{e}");
        assert!(
            s.merge(1)
                .unwrap_err()
                .to_string()
                .contains("another balloc sweep")
        );
        assert!(!s.runs_path().exists());
        drop(held);
        s.run(None, &|_| {}).unwrap();
        let text = std::fs::read_to_string(s.runs_path()).unwrap();
        assert_eq!(text.lines().count(), 1 + 2 * 4);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn shards_of_another_seed_are_refused_at_merge() {
        let d = dir("seed");
        let a = sweep(&d, 4, 1);
        for i in 0..2 {
            a.run(Some(Shard { index: i, count: 2 }), &|_| {}).unwrap();
        }
        // Shard 1 made again with another seed: the fingerprint line differs.
        let b = sweep(&d, 4, 2);
        b.run(Some(Shard { index: 1, count: 2 }), &|_| {}).unwrap();
        let a = sweep(&d, 4, 1);
        let e = a.merge(2).unwrap_err().to_string();
        assert!(
            e.contains("another sweep") && e.contains("shard-1-of-2"),
            "{e}"
        );
        // A shard file without its fingerprint line is refused too.
        let p = a.shard_path(Shard { index: 1, count: 2 });
        let text = std::fs::read_to_string(&p).unwrap();
        std::fs::write(&p, text.split_once('\n').unwrap().1).unwrap();
        assert!(a.merge(2).unwrap_err().to_string().contains("fingerprint"));
        a.run(Some(Shard { index: 1, count: 2 }), &|_| {}).unwrap();
        a.merge(2).unwrap();
        let _ = std::fs::remove_dir_all(&d);
    }

    /// `run_items` (the Python sweep's route) gives the rows the sweep writes to its CSV file: the
    /// same configurations, runs and final gaps, in grid order, with or without a shard.
    #[test]
    fn run_items_gives_the_rows_of_the_written_sweep() {
        let d = dir("items");
        let s = sweep(&d, 3, 5);
        s.run(None, &|_| {}).unwrap();
        let text = std::fs::read_to_string(s.runs_path()).unwrap();
        let mut lines = text.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
        let (c_run, c_gap) = (col("run"), col("final_gap"));
        let written: Vec<(u64, f64)> = lines
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                (f[c_run].parse().unwrap(), f[c_gap].parse().unwrap())
            })
            .collect();
        let items = s.items(None);
        assert_eq!(items.len(), 2 * 3);
        let rows = s.run_items(&items, &|_| {}, &|| false).unwrap();
        let got: Vec<(u64, f64)> = rows.iter().map(|(_, r)| (r.run, r.final_gap)).collect();
        assert_eq!(got, written);
        // Shard 1 of 4 holds the items numbered 1 and 5 (item = config·3 + run).
        assert_eq!(
            s.items(Some(Shard { index: 1, count: 4 })),
            vec![(0, 1), (1, 2)]
        );
        let e = s.run_items(&items, &|_| {}, &|| true).unwrap_err();
        assert_eq!(e.to_string(), "interrupted");
        let _ = std::fs::remove_dir_all(&d);
    }

    /// The rows a full sweep writes, and the partial-file header.
    fn rows_of(s: &Sweep) -> (Vec<String>, String) {
        s.run(None, &|_| {}).unwrap();
        let text = std::fs::read_to_string(s.runs_path()).unwrap();
        std::fs::remove_file(s.runs_path()).unwrap();
        std::fs::remove_file(s.summary_path()).unwrap();
        let rows = text.lines().skip(1).map(String::from).collect();
        (rows, format!("# balloc sweep {:016x}\n", s.fingerprint))
    }

    #[test]
    fn partial_rows_are_validated_on_resume() {
        let d = dir("partial");
        let s = sweep(&d, 3, 1);
        let (rows, head) = rows_of(&s);
        let pp = d.join("grid.partial.csv");
        let resume = |body: &str| {
            std::fs::write(&pp, format!("{head}{body}")).unwrap();
            s.run(None, &|_| {}).map(|_| ()).map_err(|e| e.to_string())
        };
        let sealed: Vec<String> = rows.iter().map(|r| seal(&s, r)).collect();
        // A result value edited after the row was written (max_gap, field 10): its checksum no
        // longer matches, refused naming the line.
        let mut f: Vec<String> = sealed[1].split(',').map(String::from).collect();
        f[10] = format!("{}", f[10].parse::<f64>().unwrap() + 1.0);
        let e = resume(&format!("{}\n{}\n", sealed[0], f.join(","))).unwrap_err();
        assert!(e.contains("line 3") && e.contains("checksum"), "{e}");
        // A row without a checksum (a row of the final CSV pasted in): refused.
        let e = resume(&format!("{}\n", rows[0])).unwrap_err();
        assert!(e.contains("checksum"), "{e}");
        // Rows edited and sealed again (the checksum is not a signature): the other checks
        // still hold. A changed seed (field 8), a duplicated row, a run index out of range, a
        // non-finite gap, a row of another configuration's fields: each refused, naming the line.
        let edit = |i: usize, k: usize, v: &str| {
            let mut f: Vec<String> = rows[i].split(',').map(String::from).collect();
            f[k] = v.into();
            seal(&s, &f.join(","))
        };
        let e = resume(&format!("{}\n{}\n", sealed[0], edit(1, 8, "12345"))).unwrap_err();
        assert!(e.contains("line 3") && e.contains("seed"), "{e}");
        let e = resume(&format!("{}\n{}\n", sealed[0], sealed[0])).unwrap_err();
        assert!(e.contains("twice"), "{e}");
        assert!(
            resume(&format!("{}\n", edit(0, 7, "7")))
                .unwrap_err()
                .contains("out of range")
        );
        assert!(
            resume(&format!("{}\n", edit(0, 9, "inf")))
                .unwrap_err()
                .contains("not finite")
        );
        assert!(
            resume(&format!("{}\n", edit(0, 1, "one-choice")))
                .unwrap_err()
                .contains("configuration")
        );
        // Valid rows and a torn last line: resumed, and the result is the full sweep.
        resume(&format!(
            "{}\n{}\n{}",
            sealed[0],
            sealed[1],
            &sealed[2][..7]
        ))
        .unwrap();
        let text = std::fs::read_to_string(s.runs_path()).unwrap();
        assert_eq!(text.lines().skip(1).collect::<Vec<_>>(), rows);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn grid_arithmetic_and_sizes_are_checked() {
        let d = dir("grid");
        let f = d.join("g.toml");
        let load = |text: &str| {
            std::fs::write(&f, text).unwrap();
            Sweep::load(&f).map(|_| ()).map_err(|e| e.to_string())
        };
        let base = "runs = 2\noutput = \"o\"\n[grid]\nprocess = [\"two-choice\"]\n";
        let e = load(&format!(
            "{base}n = [8]\nbatch_per_n = [4611686018427387904]\nbatches = [1]\n"
        ))
        .unwrap_err();
        assert!(
            e.contains("grid.batch_per_n") && e.contains("overflows"),
            "{e}"
        );
        let e = load(&format!(
            "{base}n = [8]\nballs_per_n = [4611686018427387904]\n"
        ))
        .unwrap_err();
        assert!(e.contains("grid.balls_per_n"), "{e}");
        let e = load(&format!(
            "{base}n = [8]\nbatch = [4294967296]\nbatches = [4294967296]\n"
        ))
        .unwrap_err();
        assert!(e.contains("grid.batches"), "{e}");
        let e = load(
            "runs = 1000000000000\noutput = \"o\"\nballs = 10\n[grid]\nprocess = [\"two-choice\"]\nn = [8]\n",
        )
        .unwrap_err();
        assert!(e.contains("runs") && e.contains("limit"), "{e}");
        assert_eq!(e.lines().count(), 1);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn one_run_per_configuration_writes_no_infinite_interval() {
        let d = dir("one");
        let s = sweep(&d, 1, 1);
        s.run(None, &|_| {}).unwrap();
        let text = std::fs::read_to_string(s.summary_path()).unwrap();
        assert!(!text.contains("inf") && !text.contains("NaN"), "{text}");
        let mut rd = csv::Reader::from_reader(text.as_bytes());
        let head = rd.headers().unwrap().clone();
        let note = head.iter().position(|h| h == "note").unwrap();
        let lo = head.iter().position(|h| h == "final_gap_ci_low").unwrap();
        for r in rd.records() {
            let r = r.unwrap();
            assert_eq!(&r[note], "undefined for one run");
            assert_eq!(&r[lo], "");
        }
        let _ = std::fs::remove_dir_all(&d);
    }
}

#[test]
fn binomial_sampler_matches_the_exact_pmf() {
    // Independent route: the pmf by the recurrence ln f(k+1) = ln f(k) + ln((n−k)/(k+1)) +
    // ln(p/(1−p)), normalised.
    for &(n, p) in &[
        (30u64, 0.5f64),
        (50, 0.3),
        (1000, 0.02),
        (400, 0.97),
        (100_000, 0.4),
        (12, 0.2),
    ] {
        let mut lf = vec![0.0f64];
        for k in 0..n {
            let next =
                lf[k as usize] + ((n - k) as f64 / (k + 1) as f64).ln() + (p / (1.0 - p)).ln();
            lf.push(next);
        }
        let mx = lf.iter().cloned().fold(f64::MIN, f64::max);
        let s: f64 = lf.iter().map(|v| (v - mx).exp()).sum();
        let pmf: Vec<f64> = lf.iter().map(|v| (v - mx).exp() / s).collect();
        let mut rng = run_rng(n ^ 77);
        let mut c = vec![0u64; n as usize + 1];
        for _ in 0..200_000 {
            c[balloc::sim::multinomial::binomial(&mut rng, n, p) as usize] += 1;
        }
        let pv = gof_p(&c, &pmf);
        assert!(pv > ALPHA, "Bin({n}, {p}): p-value {pv}");
    }
}

/// The exact pmf of Bin(n, p) on `lo..=hi` from statrs (an implementation independent of the
/// sampler), with the mass outside the window added to the end cells.
fn binomial_pmf_window(n: u64, p: f64, lo: u64, hi: u64) -> Vec<f64> {
    use statrs::distribution::{Binomial, Discrete, DiscreteCDF};
    let d = Binomial::new(p, n).unwrap();
    let mut v: Vec<f64> = (lo..=hi).map(|k| d.pmf(k)).collect();
    if lo > 0 {
        v[0] += d.cdf(lo - 1);
    }
    let last = v.len() - 1;
    v[last] += d.sf(hi);
    v
}

#[test]
fn binomial_sampler_in_every_regime_matches_statrs_pmf() {
    use balloc::sim::multinomial::binomial;
    // Degenerate cases are deterministic.
    let mut rng = run_rng(5);
    for _ in 0..100 {
        assert_eq!(binomial(&mut rng, 0, 0.3), 0);
        assert_eq!(binomial(&mut rng, 9, 0.0), 0);
        assert_eq!(binomial(&mut rng, 9, 1.0), 9);
        assert_eq!(binomial(&mut rng, 1 << 40, 1.0), 1 << 40);
    }
    // Regimes: n·p tiny (inversion from 0), the inversion/BTRS boundary at n·min(p, 1−p) = 10
    // on both sides and flipped, BTRS with the product test (sd ≈ 7), BTRS with the log test
    // (sd ≈ 490, most rejected candidates beyond 48 steps of the mode), and n·p huge.
    for &(n, p) in &[
        (1_000_000u64, 1e-8f64),
        (1_000_000_000, 2e-10),
        (20, 0.499),
        (21, 0.48),
        (1000, 0.995),
        (1000, 0.985),
        (50_000, 0.001),
        (1_000_000, 0.4),
        (1_000_000_000, 0.3),
    ] {
        let mean = n as f64 * p;
        let sd = (mean * (1.0 - p)).sqrt();
        let lo = (mean - 12.0 * sd - 1.0).max(0.0) as u64;
        let hi = ((mean + 12.0 * sd + 2.0) as u64).min(n);
        let pmf = binomial_pmf_window(n, p, lo, hi);
        let mut c = vec![0u64; pmf.len()];
        let mut rng = run_rng(n ^ (p.to_bits() >> 20));
        for _ in 0..200_000 {
            let k = binomial(&mut rng, n, p).clamp(lo, hi);
            c[(k - lo) as usize] += 1;
        }
        let pv = gof_p(&c, &pmf);
        assert!(pv > ALPHA, "Bin({n}, {p}): p-value {pv}");
    }
}

#[test]
fn large_batch_multinomial_matches_ball_by_ball() {
    // b = 50n: the regime of the batched benchmark, where nearly every count of the binomial
    // chain is drawn by BTRS. Loads with tied groups (x_i = i mod 7), so the random tie rule
    // averages the allocation vector over each group.
    let n = 40;
    let x = Loads::new((0..n).map(|i| (i % 7) as f64).collect()).unwrap();
    for &(spec, ties) in &[
        ("two-choice", TieRule::Random),
        ("d-choice(d=3)", TieRule::Fixed),
        ("one-plus-beta(beta=0.7)", TieRule::Random),
    ] {
        let p: Arc<dyn Process> = Arc::from(process::parse(spec).unwrap());
        let b = 50 * n as u64;
        let mut r1 = run_rng(31);
        let mut r2 = run_rng(32);
        let stats = |v: &[f64]| [v[0], v[6], v[13], v.iter().cloned().fold(0.0, f64::max)];
        let (mut fast, mut naive) = (vec![vec![]; 4], vec![vec![]; 4]);
        for _ in 0..2_000 {
            let f = fast_batch(p.clone(), &x, ties, b, &WeightLaw::Unit, &mut r1).unwrap();
            let g = naive_batch(p.as_ref(), &x, ties, b, &WeightLaw::Unit, &mut r2);
            for (j, (a, bb)) in stats(f.as_slice())
                .iter()
                .zip(stats(g.as_slice()))
                .enumerate()
            {
                fast[j].push(*a);
                naive[j].push(bb);
            }
        }
        for (j, what) in ["bin 0", "bin 6", "bin 13", "max"].iter().enumerate() {
            let pv = two_sample_p(&fast[j], &naive[j]);
            assert!(pv > ALPHA, "{spec} {ties:?} b = 50n, {what}: p = {pv}");
        }
    }
}

#[test]
fn uniform_split_matches_the_exact_multinomial() {
    use balloc::sim::multinomial::uniform_split;
    // Independent route: the Multinomial(c; 1/L, …, 1/L) pmf c!/(∏ n_i!)·L^{−c} of every
    // outcome, enumerated, for L = 3 (slot tree of 4, one slot rethrown) and L = 5 (tree of 8).
    fn outcomes(c: u64, l: usize) -> Vec<Vec<u64>> {
        if l == 1 {
            return vec![vec![c]];
        }
        (0..=c)
            .flat_map(|k| {
                outcomes(c - k, l - 1).into_iter().map(move |mut v| {
                    v.insert(0, k);
                    v
                })
            })
            .collect()
    }
    let fact = |k: u64| (1..=k).map(|i| i as f64).product::<f64>();
    for &(c, l) in &[(4u64, 3usize), (6, 5), (3, 2), (5, 4)] {
        let all = outcomes(c, l);
        let pmf: Vec<f64> = all
            .iter()
            .map(|v| {
                fact(c) / v.iter().map(|&k| fact(k)).product::<f64>() / (l as f64).powi(c as i32)
            })
            .collect();
        assert!((pmf.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let index: BTreeMap<Vec<u64>, usize> = all
            .iter()
            .cloned()
            .enumerate()
            .map(|(i, v)| (v, i))
            .collect();
        let mut counts = vec![0u64; all.len()];
        let mut rng = run_rng(c * 100 + l as u64);
        for _ in 0..100_000 {
            let mut out = vec![0u64; l];
            uniform_split(&mut rng, c, &mut out);
            counts[index[&out]] += 1;
        }
        let pv = gof_p(&counts, &pmf);
        assert!(pv > ALPHA, "c = {c}, L = {l}: p = {pv}");
    }
    // Large counts (BTRS halves above 2048 balls): each cell is Bin(c, 1/L) (statrs pmf).
    for &(c, l) in &[(100_000u64, 7usize), (300, 1000), (5_000, 3)] {
        let p = 1.0 / l as f64;
        let mean = c as f64 * p;
        let sd = (mean * (1.0 - p)).sqrt();
        let lo = (mean - 10.0 * sd).max(0.0) as u64;
        let hi = ((mean + 10.0 * sd + 2.0) as u64).min(c);
        let pmf = binomial_pmf_window(c, p, lo, hi);
        let (mut first, mut last) = (vec![0u64; pmf.len()], vec![0u64; pmf.len()]);
        let mut rng = run_rng(c + l as u64);
        for _ in 0..20_000 {
            let mut out = vec![0u64; l];
            uniform_split(&mut rng, c, &mut out);
            assert_eq!(out.iter().sum::<u64>(), c);
            first[(out[0].clamp(lo, hi) - lo) as usize] += 1;
            last[(out[l - 1].clamp(lo, hi) - lo) as usize] += 1;
        }
        for (what, obs) in [("first", &first), ("last", &last)] {
            let pv = gof_p(obs, &pmf);
            assert!(pv > ALPHA, "c = {c}, L = {l}, {what} cell: p = {pv}");
        }
    }
}

#[test]
fn batch_ranks_fractional_starting_loads_by_their_values() {
    // Regression: the counting sort of integer loads used to truncate fractional starting loads
    // (Dense::with_loads), so these four bins all ranked by index. Two-Choice, fixed ties,
    // b = 25n (one multinomial over ranks): the lightest bin (index 1, load 0) has rank 4 of 4
    // and probability 7/16, so its mean gain per batch is 100·7/16 = 43.75 (sd of one batch
    // √(100·7/16·9/16) ≈ 4.96, of the mean of 4000 batches ≈ 0.078). Ranked by index it would
    // get 3/16, i.e. 18.75.
    let x = Loads::new(vec![0.5, 0.0, 0.75, 0.25]).unwrap();
    let p: Arc<dyn Process> = Arc::from(process::parse("two-choice").unwrap());
    let mut rng = run_rng(40);
    let reps = 4_000;
    let mut gain = 0.0;
    for _ in 0..reps {
        let f = fast_batch(
            p.clone(),
            &x,
            TieRule::Fixed,
            100,
            &WeightLaw::Unit,
            &mut rng,
        )
        .unwrap();
        gain += f.as_slice()[1];
    }
    let mean = gain / reps as f64;
    assert!(
        (mean - 43.75).abs() < 0.5,
        "mean gain of the lightest bin: {mean}"
    );
}

/// The application layer's simulation request (the command line's and the Python package's one
/// route) against the simulator called directly.
mod simulate_request {
    use balloc::app::simulate::{SimulateArgs, SimulateRequest};
    use balloc::sim::{self, Config, Plan};
    use std::sync::Arc;

    #[test]
    fn a_request_runs_what_the_simulator_runs() {
        let mut a = SimulateArgs::new(8, 64);
        a.runs = 4;
        a.seed = 3;
        a.trajectory = 4;
        let req = SimulateRequest::parse("two-choice", &["quadratic".to_string()], &a).unwrap();
        let out = req.run(&|| {}, &|| false).unwrap();
        let cfg = Config::parse("two-choice", 8, 1, "unit", "random").unwrap();
        let mut plan = Plan::new(64, 4, 3);
        plan.trajectory = 4;
        plan.potentials
            .push(Arc::from(balloc::potential::parse("quadratic").unwrap()));
        let direct = sim::simulate(&cfg, &plan, &|| {}).unwrap();
        assert_eq!(out.runs, direct.runs);
        assert_eq!(out.config, direct.config);
        assert_eq!(out.potential_names, vec!["quadratic".to_string()]);
    }

    #[test]
    fn errors_name_the_flags() {
        let bad = |f: &dyn Fn(&mut SimulateArgs), pots: &[&str]| {
            let mut a = SimulateArgs::new(10, 10);
            f(&mut a);
            let pots: Vec<String> = pots.iter().map(|s| s.to_string()).collect();
            format!(
                "{:#}",
                SimulateRequest::parse("two-choice", &pots, &a)
                    .err()
                    .unwrap()
            )
        };
        assert!(bad(&|a| a.n = 0, &[]).starts_with("invalid --n:"));
        assert!(bad(&|a| a.batch = 0, &[]).starts_with("invalid --batch:"));
        assert_eq!(
            bad(&|a| a.confidence = 1.5, &[]),
            "invalid --confidence: must lie in (0, 1), got 1.5"
        );
        assert!(bad(&|_| {}, &["gama"]).starts_with("--potential `gama`"));
        // 10⁶ + 1 runs: above the simulator's limit of 10⁶ per simulation.
        let e = bad(&|a| a.runs = sim::MAX_RUNS + 1, &[]);
        assert!(e.starts_with("invalid --runs: 1000001 runs exceed"), "{e}");
        // 2 runs of 10⁷ checkpoints: 2·10⁷ trajectory points, above the limit of 10⁷.
        let e = bad(
            &|a| {
                a.balls = 10_000_000;
                a.runs = 2;
                a.trajectory = 10_000_000;
            },
            &[],
        );
        assert!(e.starts_with("invalid --trajectory:"), "{e}");
    }
}

/// A run stopped after `s` balls on its way to more (`Plan::stops`) records what a run of `s`
/// balls from the same seed ends with: the final gap, the largest gap so far, the spread and
/// the potential, on every engine (compact, levels, dense ball by ball and by multinomial,
/// weights, laws that depend on the loads, graph strategies), with a burn-in and from a start
/// state. The statistical claims read every number of balls of a list from one run per seed on
/// this. Stops must be batch ends: a run of 237 balls in batches of 60 ends with a partial batch
/// that a longer run draws whole, so the two differ there (refused by name, below).
#[test]
fn stopped_runs_end_as_runs_of_that_many_balls() {
    use balloc::graph::Graph;
    use balloc::sim::graph::{GreedyModel, StrategyModel};
    // (label, process, n, batch, weights, ties)
    let configs = [
        ("one-choice, compact", "one-choice", 8, 1, "unit", "random"),
        ("two-choice, compact", "two-choice", 50, 1, "unit", "random"),
        (
            "quantile, levels",
            "quantile(delta=0.5)",
            40,
            1,
            "unit",
            "random",
        ),
        (
            "two-choice, frozen batches",
            "two-choice",
            20,
            60,
            "unit",
            "random",
        ),
        (
            "three-choice, multinomial",
            "d-choice(d=3)",
            20,
            600,
            "unit",
            "fixed",
        ),
        (
            "(1+β), exp(1), sequential",
            "one-plus-beta(beta=0.5)",
            12,
            1,
            "exp(1)",
            "random",
        ),
        (
            "(1+β), exp(1), batches",
            "one-plus-beta(beta=0.5)",
            12,
            48,
            "exp(1)",
            "random",
        ),
        ("mean-thinning", "mean-thinning", 16, 1, "unit", "random"),
        ("twinning, sequential", "twinning", 16, 1, "unit", "random"),
    ];
    let cycle = Graph::cycle(16).unwrap();
    let mut models: Vec<(&str, Box<dyn sim::Model>)> = configs
        .iter()
        .map(|&(label, p, n, b, w, t)| {
            let m: Box<dyn sim::Model> = Box::new(Config::parse(p, n, b, w, t).unwrap());
            (label, m)
        })
        .collect();
    models.push(("greedy on C16", Box::new(GreedyModel::new(&cycle).unwrap())));
    models.push((
        "strategy on C16",
        Box::new(StrategyModel::variant(&cycle, 1.0, 16).unwrap()),
    ));
    let gamma: Arc<dyn potential::Potential> =
        Arc::from(potential::parse("gamma(alpha=0.1)").unwrap());
    for (name, model) in &models {
        let model = model.as_ref();
        let n = model.n();
        // Whole batches (a single step for the sequential models): 2, 5 and 12 of them on
        // their way to 12, each at least n balls; the burn-in 3 of them.
        let unit = model.batch().max(1) * (n as u64).div_ceil(model.batch().max(1));
        for (burn, start) in [(0u64, None), (3 * unit, Some(vec![3.0; n]))] {
            let ms = [2 * unit, 5 * unit, 12 * unit];
            let plan_for = |m: u64| {
                let mut p = Plan::new(burn + m, 5, 21);
                p.burn_in = burn;
                p.start = start.clone().map(|v| Arc::new(Loads::new(v).unwrap()));
                p.potentials = vec![gamma.clone()];
                p
            };
            let mut shared = plan_for(ms[2]);
            shared.stops = ms.iter().map(|m| burn + m).collect();
            let out = sim::simulate(model, &shared, &|| {}).unwrap();
            for (i, &m) in ms.iter().enumerate() {
                let alone = sim::simulate(model, &plan_for(m), &|| {}).unwrap();
                for (a, s) in alone.runs.iter().zip(&out.runs) {
                    let p = &s.trajectory[i];
                    assert_eq!(
                        (a.final_gap, a.max_gap, a.spread, a.balls),
                        (p.gap, p.max_gap, p.spread, p.balls),
                        "{name}, burn-in {burn}, m = {m}, run {}",
                        a.run
                    );
                    assert_eq!(a.potentials, p.potentials, "{name}, m = {m}");
                }
            }
        }
    }
    // Twinning in batches: a step may allocate two balls, so the last batch before a stop is
    // cut short there and a stopped run is not a prefix of a longer one (a run of 4800 balls
    // ends at 4822, the stopped one at 4833 on seed 21): the model says so, and the
    // statistical claims then simulate every number of balls on its own.
    let twinning = Config::parse("twinning", 16, 400, "unit", "random").unwrap();
    assert!(!sim::Model::prefix_stops(&twinning));
    let mut p = Plan::new(4800, 1, 21);
    p.stops = vec![800, 2000, 4800];
    let stopped = sim::simulate(&twinning, &p, &|| {}).unwrap();
    let through = sim::simulate(&twinning, &Plan::new(4800, 1, 21), &|| {}).unwrap();
    assert_ne!(stopped.runs[0].balls, through.runs[0].balls);
    // Stops that do not increase, or do not end at the plan's balls, are refused by name.
    let two = Config::parse("two-choice", 10, 1, "unit", "random").unwrap();
    for stops in [vec![50, 40, 100], vec![40, 90]] {
        let mut p = Plan::new(100, 2, 1);
        p.stops = stops;
        let e = sim::simulate(&two, &p, &|| {}).unwrap_err().to_string();
        assert!(e.starts_with("invalid stops: must increase"), "{e}");
    }
    let batched = Config::parse("two-choice", 20, 60, "unit", "random").unwrap();
    let mut p = Plan::new(240, 2, 1);
    p.stops = vec![120, 237, 240];
    let e = sim::simulate(&batched, &p, &|| {}).unwrap_err().to_string();
    assert!(e.starts_with("invalid stops: must be batch ends"), "{e}");
}
