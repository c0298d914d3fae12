//! Hitting times as simulation statistics (`sim::stopping`, `statistic = "hitting_time"`).
//!
//! * The law of a hitting time against a hand computation: One-Choice on two bins from loads
//!   (2, 0) moves the difference of the loads by ±1 with probability 1/2 each ball, so the first
//!   time the loads are equal (`gap ≤ 0`) is the first passage of a simple random walk from 2 to 0:
//!   `P[T = 2] = 1/4` (both balls to the light bin) and `P[T = 4] = 2/16` (the paths +−−− and
//!   −+−− of the difference's steps), so `P[T ≤ 4] = 3/8`; `T` is even.
//! * The same seed gives the same times with one worker thread and with two.
//! * Statistical files: the verdicts against that law, censored runs, and bad input.

use crate::common;
use balloc::claim::{self, RunContext, Status};
use balloc::loads::Loads;
use balloc::sim::stopping::{Checks, Hit, hitting_times};
use balloc::sim::{Config, Plan};
use std::sync::Arc;

fn plan(runs: u64, seed: u64, start: Vec<f64>) -> Plan {
    let mut p = Plan::new(1, runs, seed);
    p.start = Some(Arc::new(Loads::new(start).unwrap()));
    p
}

#[test]
fn the_first_passage_law_of_one_choice_on_two_bins() {
    let cfg = Config::parse("one-choice", 2, 1, "unit", "random").unwrap();
    let runs = 40_000u64;
    let checks = Checks {
        every: 1,
        horizon: 1_000,
    };
    let t = hitting_times(&cfg, &plan(runs, 9, vec![2.0, 0.0]), checks, None, &|o| {
        Ok(o.gap <= 0.0)
    })
    .unwrap();
    let at = |x: u64| {
        t.iter()
            .filter(|h| matches!(h, Hit::At(v) if *v <= x))
            .count() as f64
    };
    // T is even (the difference changes parity every ball) and at least 2.
    assert!(
        t.iter()
            .all(|h| matches!(h, Hit::Censored) || matches!(h, Hit::At(v) if v % 2 == 0 && *v >= 2))
    );
    for (x, p) in [(2u64, 0.25), (4, 0.375)] {
        let est = at(x) / runs as f64;
        let se = (p * (1.0 - p) / runs as f64).sqrt();
        assert!((est - p).abs() < 5.0 * se, "P[T ≤ {x}] ≈ {est}, exact {p}");
    }
    // The walk is recurrent but heavy-tailed: by reflection P[T > t] = P[S_t ∈ (−2, 2]] for the
    // walk S from 0, at t = 1000 P[S = 0] + P[S = 2] ≈ 0.050: those runs are censored (+∞).
    let censored = t.iter().filter(|h| matches!(h, Hit::Censored)).count();
    assert!(
        censored > 0 && censored < (runs / 10) as usize,
        "{censored}"
    );
}

#[test]
fn the_same_times_with_one_and_two_threads() {
    let cfg = Config::parse("two-choice", 16, 1, "unit", "random").unwrap();
    let mut start = vec![0.0; 16];
    start[0] = 40.0;
    let p = plan(64, 3, start);
    let checks = Checks {
        every: 4,
        horizon: 4_000,
    };
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                hitting_times(&cfg, &p, checks, None, &|o| {
                    Ok(o.quantile >= 0.25 && o.quantile <= 0.75)
                })
                .unwrap()
            })
    };
    let one = run(1);
    assert_eq!(one, run(2));
    // From (40, 0, …, 0) another bin must reach the mean (40 + t)/16 ≥ … with at most t balls:
    // t ≥ (40 + t)/16, t ≥ 40/15: no run hits before the check at 4 balls.
    assert!(
        one.iter().all(|h| matches!(h, Hit::At(v) if *v >= 4)),
        "{one:?}"
    );
}

const HEAD: &str = "title = \"hit\"\nkind = \"statistical\"\nexpected = \"open\"\nstatement = \"x\"\n\
[source]\nlocator = \"test\"\nprovenance = \"derived\"\n\n[setting]\nprocesses = [\"one-choice\"]\n\n";

fn file(claim: &str) -> String {
    format!(
        "{HEAD}[claim]\nstatistic = \"hitting_time\"\nuntil = \"gap <= 0\"\nevery = 1\nstart_loads = [2, 0]\n{claim}\nruns = 3000\nseed = 4\nconfidence = 0.95\n\n[domain]\nn = [2]\n"
    )
}

#[test]
fn statistical_files_on_the_first_passage_law() {
    let dir = common::scratch_in("stopping", "files");
    let check = |name: &str, text: &str| {
        let p = common::write(&dir, name, text);
        claim::check(&p, &dir, &mut RunContext::default())
            .unwrap_or_else(|e| panic!("{name}: {e:#}"))
    };
    // P[T ≤ 4] = 3/8 (module documentation): at least 3/8 − 0.05 holds, at least 3/8 + 0.05 is
    // refuted (3000 runs: the interval's half-width is about 0.02).
    let v = check(
        "holds",
        &file("probability = \"<= 4\"\nq = \"1 - (3/8 - 0.05)\"\nballs = 100"),
    );
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    let v = check(
        "refuted",
        &file("probability = \"<= 4\"\nq = \"1 - (3/8 + 0.05)\"\nballs = 100"),
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    // Each name of `until` reads its own value: `t >= 7` holds first at 7 balls in every run;
    // `quantile >= 1` (every bin at or above the mean: on two bins, equal loads) has the law of
    // the first passage again.
    let v = check(
        "t",
        &file("probability = \"<= 7\"\nq = \"1/20\"\nballs = 100").replace("gap <= 0", "t >= 7"),
    );
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    let v = check(
        "t-early",
        &file("probability = \"<= 6\"\nq = \"19/20\"\nballs = 100").replace("gap <= 0", "t >= 7"),
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    let v = check(
        "quantile",
        &file("probability = \"<= 4\"\nq = \"1 - (3/8 + 0.05)\"\nballs = 100")
            .replace("gap <= 0", "quantile >= 1"),
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    let v = check(
        "quantile-holds",
        &file("probability = \"<= 4\"\nq = \"1 - (3/8 - 0.05)\"\nballs = 100")
            .replace("gap <= 0", "quantile >= 1"),
    );
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    // E[T] = ∞ for the first passage of a symmetric walk: with the horizon at 100 balls
    // P[S_100 ∈ {0, 2}] ≈ 0.158 of the runs are censored (reflection, as above); E[T] ≤ 1000 can then never hold (the mean's
    // interval is open above) ...
    let v = check("mean", &file("mean = \"<= 1000\"\nballs = 100"));
    assert_ne!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert!(
        v.notes.iter().any(|n| n.contains("runs censored")),
        "{:?}",
        v.notes
    );
    // ... while E[T] ≥ 2 holds (T ≥ 2 always).
    let v = check("mean-low", &file("mean = \">= 2\"\nballs = 100"));
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    // Bad input, one line naming the field.
    for (text, field) in [
        (
            file("probability = \"<= 4\"\nq = \"1/2\"\nballs = 100")
                .replace("until = \"gap <= 0\"\n", ""),
            "until",
        ),
        (
            file("probability = \"<= 4\"\nq = \"1/2\"\nballs = 100")
                .replace("gap <= 0", "gapp <= 0"),
            "until",
        ),
        (
            file("probability = \"<= 4\"\nq = \"1/2\"\nballs = 100")
                .replace("hitting_time", "final_gap"),
            "until",
        ),
        (
            file("probability = \"<= 4\"\nq = \"1/2\"\nballs = 100")
                .replace("every = 1", "every = 0"),
            "every",
        ),
    ] {
        let p = common::write(&dir, "bad", &text);
        let e = claim::check(&p, &dir, &mut RunContext::default())
            .map(|v| format!("{:?}", v.verdict))
            .unwrap_or_else(|e| e.to_string());
        assert!(e.contains(field) && !e.contains('\n'), "{field}: {e}");
    }
}
