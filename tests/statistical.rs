//! The `statistical` check kind: decision logic against hand-computed intervals, claims that must
//! be refuted or hold, the constant finder on a deterministic statistic, determinism across
//! thread counts, and bad input.

use balloc::claim::kind::statistical::{StatClaim, bonferroni, judge_values};
use balloc::claim::{self, Direction, RunContext, Status, Trust};
use balloc::sim::statistic::{Decision, Side};
use std::path::{Path, PathBuf};

use crate::common;
use common::write;

fn scratch(name: &str) -> PathBuf {
    common::scratch_in("stat", name)
}

const HEAD: &str = crate::common::head!("statistical");

fn run(root: &Path, p: &Path) -> claim::Verdict {
    claim::check(p, root, &mut RunContext::default()).unwrap()
}

#[test]
fn mean_decisions_match_hand_computed_t_intervals() {
    // Values 1, 2, 3: mean 2, s = 1, stderr 1/√3. At level 0.95, t_{2, 0.975} = 4.302652729911275
    // (tables: 4.303), so the interval is 2 ± 2.484138 = [−0.484138, 4.484138].
    let xs = [1.0, 2.0, 3.0];
    let half = 4.302652729911275 / 3f64.sqrt();
    let j = judge_values(&xs, StatClaim::Mean(Side::AtMost), 5.0, 0.95).unwrap();
    assert_eq!(j.decision, Decision::Holds);
    assert!((j.estimate.ci_high - (2.0 + half)).abs() < 1e-9);
    assert!((j.margin - (5.0 - 2.0 - half)).abs() < 1e-9);
    // The threshold 3 lies inside the interval: undecided either way.
    let j = judge_values(&xs, StatClaim::Mean(Side::AtMost), 3.0, 0.95).unwrap();
    assert_eq!(j.decision, Decision::Inconclusive);
    // E[X] ≥ 5 is refuted: the whole interval lies below 5.
    let j = judge_values(&xs, StatClaim::Mean(Side::AtLeast), 5.0, 0.95).unwrap();
    assert_eq!(j.decision, Decision::Refuted);
    assert!((j.margin - (2.0 - half - 5.0)).abs() < 1e-9);
    // E[X] ≤ −1 is refuted: the interval's lower end −0.484 lies above −1.
    let j = judge_values(&xs, StatClaim::Mean(Side::AtMost), -1.0, 0.95).unwrap();
    assert_eq!(j.decision, Decision::Refuted);
    // Bonferroni over 4 configurations at c = 0.95: each interval at 0.9875, t_{2, 0.99375}.
    // t_{2,p} = (2p − 1)·√(2/(1 − (2p − 1)²)) in closed form for 2 degrees of freedom:
    // with 2p − 1 = 0.9875, t = 0.9875·√(2/(1 − 0.97515625)) = 8.860… .
    let level = bonferroni(0.95, 4);
    assert!((level - 0.9875).abs() < 1e-15);
    let t2 = 0.9875 * (2.0f64 / (1.0 - 0.9875f64 * 0.9875)).sqrt();
    let j = judge_values(&xs, StatClaim::Mean(Side::AtMost), 5.0, level).unwrap();
    assert!((j.estimate.ci_high - (2.0 + t2 / 3f64.sqrt())).abs() < 1e-6);
    // 2 + 8.86/√3 = 7.11 > 5: the wider interval no longer decides E[X] ≤ 5.
    assert_eq!(j.decision, Decision::Inconclusive);
}

#[test]
fn probability_decisions_match_hand_computed_clopper_pearson_intervals() {
    // 10 runs, all ≤ 4: the two-sided 95% Clopper–Pearson interval of 10/10 is
    // [0.025^{1/10}, 1] = [0.691503, 1].
    let xs = [1.0; 10];
    let lo = 0.025f64.powf(0.1);
    let j = judge_values(
        &xs,
        StatClaim::Probability {
            side: Side::AtMost,
            q: 0.5,
        },
        4.0,
        0.95,
    )
    .unwrap();
    assert_eq!(j.decision, Decision::Holds);
    assert!((j.estimate.ci_low - lo).abs() < 1e-9);
    assert!((j.margin - (lo - 0.5)).abs() < 1e-9);
    // q = 0.1: 1 − q = 0.9 lies inside [0.6915, 1].
    let j = judge_values(
        &xs,
        StatClaim::Probability {
            side: Side::AtMost,
            q: 0.1,
        },
        4.0,
        0.95,
    )
    .unwrap();
    assert_eq!(j.decision, Decision::Inconclusive);
    // P[X ≥ 4] ≥ 0.5 with 0/10 successes: the interval [0, 1 − 0.025^{1/10}] = [0, 0.308] lies
    // below 0.5: refuted.
    let j = judge_values(
        &xs,
        StatClaim::Probability {
            side: Side::AtLeast,
            q: 0.5,
        },
        4.0,
        0.95,
    )
    .unwrap();
    assert_eq!(j.decision, Decision::Refuted);
    assert!((j.estimate.ci_high - (1.0 - lo)).abs() < 1e-9);
    assert!(
        judge_values(
            &xs,
            StatClaim::Probability {
                side: Side::AtMost,
                q: 1.5
            },
            4.0,
            0.95
        )
        .is_err()
    );
}

/// Two-Choice, n ∈ {8, 16}, sequential, m = 8n, max gap over every step.
fn two_choice(rhs: &str, extra: &str) -> String {
    format!(
        "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n{extra}[claim]\nstatistic = \"max_gap\"\n\
         mean = \"{rhs}\"\nballs = \"8 * n\"\nruns = 20\nseed = 3\nconfidence = 0.95\n[domain]\nn = [8, 16]\n"
    )
}

#[test]
fn a_false_mean_bound_is_refuted_and_a_loose_one_holds() {
    let root = scratch("refute");
    // After the first ball the gap is 1 − 1/n > 0, so the max gap over every step is ≥ 7/8 in
    // every run: E[max_gap] ≤ 0 is false and the whole interval lies above 0.
    let p = write(&root, "le-zero", &two_choice("<= 0", ""));
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert_eq!(v.trust, Trust::Statistical);
    assert_eq!(v.searched.confidence, Some(0.95));
    let w = v.witness.unwrap();
    assert_eq!(w.n, 8, "the first refuted configuration is reported");
    assert!(w.lhs.contains("E[max_gap]"), "{}", w.lhs);
    assert!(v.slack.unwrap() <= -7.0 / 8.0, "{:?}", v.slack);
    assert!(v.notes[0].contains("Bonferroni"), "{:?}", v.notes);
    // The max gap never exceeds m − m/n < m = 8n: E[max_gap] ≤ 8n holds with a huge margin.
    let p = write(&root, "loose", &two_choice("<= 8 * n", ""));
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert!(v.slack.unwrap() > 50.0, "{:?}", v.slack);
    // A probability claim: P[max_gap ≤ 8n] ≥ 1/2 holds (every run succeeds, CP lower end of
    // 20/20 at level 0.975 is 0.0125^{1/20} = 0.803 > 0.5).
    let text = two_choice("<= 0", "")
        .replace("mean = \"<= 0\"", "probability = \"<= 8 * n\"\nq = \"1/2\"");
    let p = write(&root, "prob", &text);
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    let lo = 0.0125f64.powf(1.0 / 20.0);
    assert!(
        (v.slack.unwrap() - (lo - 0.5)).abs() < 1e-9,
        "{:?}",
        v.slack
    );
}

#[test]
fn the_same_seed_gives_the_same_verdict_at_one_and_two_threads() {
    let root = scratch("threads");
    let p = write(
        &root,
        "batched",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\", \"one-plus-beta(beta=0.5)\"]\nweights = \"exp(1)\"\n\
             [constants]\nK = 1\n[claim]\nstatistic = \"max_gap\"\nmean = \"<= K * (b / n) * ln(n)\"\n\
             batch = [\"n\", \"2 * n\"]\nballs = \"6 * b\"\nruns = 12\nseed = 9\nconfidence = 0.9\n\
             [domain]\nn = [8, 16]\n"
        ),
    );
    let at = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| run(&root, &p))
    };
    let (one, two) = (at(1), at(2));
    assert_eq!(one, two);
    // 2 values of n × 2 batch sizes × 2 processes = 8 configurations at level 1 − 0.1/8.
    assert_eq!(one.searched.total, 8 * 12);
    assert!(one.notes[0].contains("0.987500"), "{:?}", one.notes);
    // A different seed gives different runs (the verdict notes list every estimate).
    let q = write(
        &root,
        "other",
        &std::fs::read_to_string(&p)
            .unwrap()
            .replace("seed = 9", "seed = 10"),
    );
    assert_ne!(run(&root, &q).notes, one.notes);
}

#[test]
fn constant_finder_recovers_a_deterministic_gap() {
    // One ball into n bins: the gap is 1 − 1/n in every run (n = 2: 1/2, n = 4: 3/4), and the
    // interval of a constant sample is that point. The smallest K with E[gap] ≤ K is 1 − 1/n.
    let root = scratch("constant");
    let p = write(
        &root,
        "one-ball",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[constants]\nK = 3\n[tighten]\nK = \"smallest\"\n\
             [claim]\nstatistic = \"final_gap\"\nmean = \"<= K\"\nballs = 1\nruns = 5\nconfidence = 0.95\n\
             [domain]\nn = [2, 4]\n"
        ),
    );
    let (_, c) = claim::prepare(&p, &root).unwrap();
    let r = c.tighten("K", None, &mut RunContext::default()).unwrap();
    assert_eq!(r.direction, Direction::Smallest);
    assert_eq!(r.per_n.len(), 2);
    assert!((r.per_n[0].value - 0.5).abs() < 1e-5, "{:?}", r.per_n);
    assert!((r.per_n[1].value - 0.75).abs() < 1e-5, "{:?}", r.per_n);
    assert!(!r.fits.is_empty());
    // Largest K with E[gap] ≥ K on the same runs.
    let q = write(
        &root,
        "one-ball-lower",
        &std::fs::read_to_string(&p)
            .unwrap()
            .replace("\"smallest\"", "\"largest\"")
            .replace("<= K", ">= K"),
    );
    let (_, c) = claim::prepare(&q, &root).unwrap();
    let r = c
        .tighten("K", Some(&[4]), &mut RunContext::default())
        .unwrap();
    assert!((r.per_n[0].value - 0.75).abs() < 1e-5, "{:?}", r.per_n);
    assert!(c.tighten("nope", None, &mut RunContext::default()).is_err());
    // The pinning configuration is the one that fails just past the tightest value. Two balls into
    // two bins: Two-Choice ends with gap 0 in every run, One-Choice with gap 1 in half of them, so
    // P[gap ≤ K] ≥ 9/10 needs K ≥ 1 (One-Choice) and K ≥ 0 (Two-Choice). At K = 1 both hold with
    // every run below the threshold — the same Clopper–Pearson end, a tie in margin — so only the
    // failure below 1 names One-Choice, listed second.
    let p = write(
        &root,
        "pinned",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\", \"one-choice\"]\n[constants]\nK = 3\n\
             [tighten]\nK = \"smallest\"\n[claim]\nstatistic = \"final_gap\"\nprobability = \"<= K\"\n\
             q = \"1/10\"\nballs = 2\nruns = 200\nseed = 3\nconfidence = 0.95\n[domain]\nn = [2]\n"
        ),
    );
    let (_, c) = claim::prepare(&p, &root).unwrap();
    let r = c.tighten("K", None, &mut RunContext::default()).unwrap();
    assert!((r.per_n[0].value - 1.0).abs() < 1e-5, "{:?}", r.per_n);
    let w = r.per_n[0].witness.as_ref().unwrap();
    assert!(w.source.contains("one-choice"), "{}", w.source);
}

/// The constant finder judges other values of a constant on the same runs, which is right only
/// when the runs do not depend on it: a constant read by the grid, the start, the burn-in or
/// `subtract` is refused with a one-line error naming the field (it would give a silent wrong
/// bracket: `balls = "K * n"` with K = 2 simulates 8 balls on 4 bins whatever value is tried).
#[test]
fn the_constant_finder_refuses_a_constant_the_runs_read() {
    let root = scratch("constant-sim");
    for (name, field, line) in [
        ("balls", "balls", "balls = \"K * n\""),
        ("burn", "burn_in", "balls = \"n\"\nburn_in = \"K * n\""),
        ("start", "start", "balls = \"n\"\nstart = \"one-bin(K)\""),
        (
            "subtract",
            "subtract",
            "balls = \"n\"\nsubtract = \"K / 2\"",
        ),
    ] {
        let p = write(
            &root,
            name,
            &format!(
                "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[constants]\nK = 2\n[tighten]\nK = \"smallest\"\n\
                 [claim]\nstatistic = \"final_gap\"\nmean = \"<= K + 10\"\n{line}\nruns = 10\nconfidence = 0.9\n\
                 [domain]\nn = [4]\n"
            ),
        );
        let (_, c) = claim::prepare(&p, &root).unwrap();
        // The file itself runs (the runs at K = 2 are well defined).
        let v = c.run(&mut RunContext::default()).unwrap();
        assert_eq!(v.verdict, Status::Holds, "{name}: {:?}", v.notes);
        let e = c
            .tighten("K", None, &mut RunContext::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("[claim] {field}")) && e.contains("`K`") && !e.contains('\n'),
            "{name}: {e}"
        );
        // Judging another value of it on the same runs is refused the same way.
        let e = c
            .run_alternatives(&mut RunContext::default(), &[vec![("K".into(), 1.0)]])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("[claim] {field}")) && !e.contains('\n'),
            "{name}: {e}"
        );
    }
}

#[test]
fn md_and_strategy_models_run() {
    let root = scratch("models");
    // md-balls: the sum-load gap with one ball of f = 2 units into n bins: the bin's sum-load is
    // 2, the mean 2/n, so md_sum_gap = 2 − 2/n exactly (n = 4: 1.5).
    let p = write(
        &root,
        "md",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[claim]\nstatistic = \"md_sum_gap\"\n\
             law = \"uniform(dims=4,f=2)\"\nmean = \"<= 1.5\"\nballs = 1\nruns = 4\nconfidence = 0.9\n\
             [domain]\nn = [4]\n"
        ),
    );
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert_eq!(v.slack, Some(0.0));
    // D's rank-weighted Γ after one ball of f = 2 units on n = 4 bins (α = ε/(2f) = 1/16 at
    // ε = 1/4): the sum-loads normalised are s = (3/2, −1/2, −1/2, −1/2), heaviest first, so
    // Γ = 2cosh(3/32) + 2cosh(1/32)(1/2 + 1/3 + 1/4) in every run, by hand; the file's mean equals
    // it to rounding, and a bound 10⁻⁹ below it is refuted.
    let hand = 2.0 * (3.0f64 / 32.0).cosh() + 2.0 * (1.0f64 / 32.0).cosh() * (13.0 / 12.0);
    let gamma = |bound: f64| {
        format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[claim]\nstatistic = \"md_gamma\"\n\
             law = \"uniform(dims=4,f=2)\"\neps = 0.25\nmean = \"<= {bound:.12}\"\nballs = 1\nruns = 4\n\
             confidence = 0.9\n[domain]\nn = [4]\n"
        )
    };
    let v = run(&root, &write(&root, "gamma-at", &gamma(hand + 1e-9)));
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert!(v.slack.unwrap().abs() < 1e-8, "{:?}", v.slack);
    let v = run(&root, &write(&root, "gamma-below", &gamma(hand - 1e-9)));
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    // The strategy on C_8 after one ball: the largest sibling gap is 1 (see strategy_runs).
    let p = write(
        &root,
        "sibling",
        &format!(
            "{HEAD}[claim]\nstatistic = \"sibling_gap\"\ngraph = \"cycle\"\nmean = \">= 1\"\nballs = 1\n\
             runs = 3\nconfidence = 0.9\n[domain]\nn = [8]\n"
        ),
    );
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert_eq!(v.slack, Some(0.0));
}

fn err_of(name: &str, body: &str) -> String {
    let root = scratch(&format!("err-{name}"));
    let p = write(&root, name, &format!("{HEAD}{body}"));
    match claim::prepare(&p, &root) {
        Ok(_) => panic!("{name}: accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_input_is_a_one_line_error_naming_the_field() {
    let base = "[setting]\nprocesses = [\"two-choice\"]\n[claim]\nstatistic = \"max_gap\"\n\
                mean = \"<= 4\"\nballs = \"n\"\nruns = 10\nconfidence = 0.9\n[domain]\nn = [4]\n";
    let cases: &[(&str, String, &str)] = &[
        (
            "unknown-stat",
            base.replace("\"max_gap\"", "\"maxgap\""),
            "statistic: unknown statistic `maxgap`",
        ),
        (
            "level",
            base.replace("confidence = 0.9", "confidence = 1.5"),
            "confidence: must lie in (0, 1)",
        ),
        (
            "zero-runs",
            base.replace("runs = 10", "runs = 0"),
            "runs: must be at least 2",
        ),
        (
            "no-claim",
            base.replace("mean = \"<= 4\"\n", ""),
            "exactly one of `mean`",
        ),
        (
            "no-op",
            base.replace("\"<= 4\"", "\"4\""),
            "mean: must start with <= or >=",
        ),
        (
            "unknown-name",
            base.replace("\"<= 4\"", "\"<= K * n\""),
            "mean: `K * n`",
        ),
        (
            "missing-q",
            base.replace("mean = ", "probability = "),
            "q: a probability claim needs `q`",
        ),
        (
            "no-potential",
            base.replace("\"max_gap\"", "\"potential_final\""),
            "potential: statistic `potential_final` needs a potential",
        ),
        (
            "bad-potential",
            base.replace(
                "\"max_gap\"",
                "\"potential_final\"\npotential = \"gama(alpha=1)\"",
            ),
            "potential:",
        ),
        (
            "zero-batch",
            base.replace("balls = \"n\"", "balls = \"n\"\nbatch = [\"0 * n\"]"),
            "batch: must be a positive integer",
        ),
        (
            "no-eps",
            base.replace("\"max_gap\"", "\"mean_quantile_fraction\""),
            "needs `eps`",
        ),
        (
            "md-without-law",
            base.replace("\"max_gap\"", "\"md_max_gap\""),
            "law:",
        ),
        (
            "bad-graph",
            base.replace("processes = [\"two-choice\"]", "")
                .replace("\"max_gap\"", "\"sibling_gap\"\ngraph = \"petersen\""),
            "graph: unknown graph family `petersen`",
        ),
        (
            "beta-without-graph",
            base.replace("balls = \"n\"", "balls = \"n\"\nbeta = 0.5"),
            "beta: only used with the strategy",
        ),
        (
            "refresh-without-graph",
            base.replace("balls = \"n\"", "balls = \"n\"\nrefresh = \"n\""),
            "refresh: only used with the strategy",
        ),
        (
            "adversarial-without-graph",
            base.replace("balls = \"n\"", "balls = \"n\"\nadversarial = \"ln(n)\""),
            "adversarial: only used with the strategy",
        ),
        (
            "adversarial-with-greedy",
            base.replace("processes = [\"two-choice\"]", "").replace(
                "\"max_gap\"",
                "\"max_gap\"\ngraph = \"cycle\"\nstrategy = \"greedy\"\nadversarial = \"1\"",
            ),
            "adversarial: applies to the flow strategy only",
        ),
        (
            "bad-adversarial",
            base.replace("processes = [\"two-choice\"]", "").replace(
                "\"max_gap\"",
                "\"max_gap\"\ngraph = \"cycle\"\nadversarial = \"-1\"",
            ),
            "adversarial: must be a finite number",
        ),
        (
            "bad-beta",
            base.replace("processes = [\"two-choice\"]", "")
                .replace("\"max_gap\"", "\"max_gap\"\ngraph = \"cycle\"\nbeta = 1.5"),
            "beta: must lie in [0, 1]",
        ),
        (
            "bad-refresh",
            base.replace("processes = [\"two-choice\"]", "").replace(
                "\"max_gap\"",
                "\"max_gap\"\ngraph = \"cycle\"\nrefresh = \"r * n\"",
            ),
            "refresh: `r * n`",
        ),
        (
            "beta-with-greedy",
            base.replace("processes = [\"two-choice\"]", "").replace(
                "\"max_gap\"",
                "\"max_gap\"\ngraph = \"cycle\"\nstrategy = \"greedy\"\nbeta = 0.5",
            ),
            "beta: applies to the flow strategy only",
        ),
        (
            "md-gamma-without-eps",
            base.replace("\"max_gap\"", "\"md_gamma\"\nlaw = \"uniform(dims=4,f=2)\""),
            "statistic: md_gamma needs `eps`",
        ),
        (
            "md-gamma-eps",
            base.replace(
                "\"max_gap\"",
                "\"md_gamma\"\nlaw = \"uniform(dims=4,f=2)\"\neps = 0.3",
            ),
            "eps: must lie in (0, 1/4]",
        ),
        (
            "md-gamma-binomial",
            base.replace(
                "\"max_gap\"",
                "\"md_gamma\"\nlaw = \"binomial(dims=4,q=1/2)\"\neps = 0.25",
            ),
            "law: md_gamma: α = ε/(2f) needs a law with a fixed f",
        ),
        (
            "md-gamma-without-law",
            base.replace("\"max_gap\"", "\"md_gamma\"\neps = 0.25"),
            "law: md-balls (`law`) go with the statistics md_max_gap, md_sum_gap and md_gamma",
        ),
        (
            "eps-elsewhere",
            base.replace("\"max_gap\"", "\"max_gap\"\neps = 0.25"),
            "eps: only used with statistic",
        ),
        (
            "unknown-field",
            base.replace("runs = 10", "runs = 10\nrusn = 3"),
            "unknown field `rusn`",
        ),
        (
            "process",
            base.replace("two-choice", "two-chioce"),
            "two-chioce",
        ),
    ];
    for (name, body, want) in cases {
        let e = err_of(name, body);
        assert!(e.contains(want), "{name}: {e}");
        assert!(!e.contains('\n'), "{name}: not one line: {e}");
        assert!(e.contains(&format!("{name}.toml")), "{name}: {e}");
    }
    // Grid constants are rejected with the constant's name.
    let e = err_of(
        "grid",
        &base.replace("[claim]", "[constants]\nK = [1, 2]\n[claim]"),
    );
    assert!(e.contains("constant `K`"), "{e}");
}

/// One-Choice on 8 bins from a start state, a window of `balls`, statistic final_gap.
fn from_start(start: &str, claim: &str, balls: &str, extra: &str) -> String {
    format!(
        "{HEAD}[setting]\nprocesses = [\"one-choice\"]\n[claim]\nstatistic = \"final_gap\"\n\
         {claim}\n{start}\nballs = \"{balls}\"\nruns = 200\nseed = 5\nconfidence = 0.95\n{extra}[domain]\nn = [8]\n"
    )
}

#[test]
fn a_gap_start_state_gives_the_hand_computed_gap_after_one_ball() {
    let root = scratch("start-gap");
    // gap(50) on 8 bins: bin 0 holds ⌈50·8/7⌉ = 58 balls (gap 58 − 58/8 = 50.75). After one more
    // ball the mean is 59/8: the gap is 58 − 59/8 = 50.625 (ball elsewhere, prob. 7/8) or
    // 59 − 59/8 = 51.625 (prob. 1/8), so E = 50.75 and every value lies in [50.625, 51.625].
    let p = write(
        &root,
        "le",
        &from_start("start = \"gap(50)\"", "mean = \"<= 51.7\"", "1", ""),
    );
    assert_eq!(run(&root, &p).verdict, Status::Holds);
    let p = write(
        &root,
        "ge",
        &from_start("start = \"gap(50)\"", "mean = \">= 50.6\"", "1", ""),
    );
    assert_eq!(run(&root, &p).verdict, Status::Holds);
    let p = write(
        &root,
        "false",
        &from_start("start = \"gap(50)\"", "mean = \"<= 50.6\"", "1", ""),
    );
    assert_eq!(run(&root, &p).verdict, Status::Refuted);
    // The same state as an explicit load vector and as one-bin(58).
    for (name, s) in [
        ("loads", "start_loads = [58, 0, 0, 0, 0, 0, 0, 0]"),
        ("one-bin", "start = \"one-bin(58)\""),
    ] {
        let p = write(&root, name, &from_start(s, "mean = \"<= 50.6\"", "1", ""));
        assert_eq!(run(&root, &p).verdict, Status::Refuted, "{name}");
    }
}

#[test]
fn the_steady_state_check_flags_a_recovering_gap() {
    let root = scratch("steady");
    // 800 balls in bin 0 of 8 bins (gap 700). Two-Choice puts a ball in bin 0 only if both picks
    // hit it (prob. 1/64), so after t balls the gap is about 700 − t/8 + t/64: it falls by 7/64
    // per ball, by about 11 between the ends of the two halves (100 and 200 balls).
    let body = |extra: &str| {
        format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[claim]\nstatistic = \"final_gap\"\n\
             mean = \"<= 1000\"\nstart = \"one-bin(800)\"\nballs = \"200\"\nsteady_state = true\n\
             checkpoints = 10\nruns = 40\nseed = 5\nconfidence = 0.95\n{extra}[domain]\nn = [8]\n"
        )
    };
    let p = write(&root, "drift", &body(""));
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Inconclusive, "{:?}", v.notes);
    assert!(
        v.notes.iter().any(|n| n.contains("DRIFTING")),
        "{:?}",
        v.notes
    );
    // From the empty start after a burn-in of 400 balls the window is at steady state.
    let p = write(
        &root,
        "settled",
        &body("").replace("start = \"one-bin(800)\"\n", "burn_in = \"50 * n\"\n"),
    );
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert!(v.notes.iter().any(|n| n.contains("the halves agree")));
}

#[test]
fn paired_comparison_decides_both_directions() {
    let root = scratch("compare");
    let body = |cmp: &str| {
        format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\", \"one-choice\"]\n[claim]\n\
             statistic = \"max_gap\"\ncompare = \"{cmp}\"\nballs = \"8 * n\"\nruns = 30\nseed = 2\n\
             confidence = 0.95\n[domain]\nn = [64]\n"
        )
    };
    // Two-Choice's max gap (about ln ln n) is far below One-Choice's (about √(2·8·ln n)) at 8n balls.
    let v = run(&root, &write(&root, "le", &body("<=")));
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert!(v.notes.iter().any(|n| n.contains("common random numbers")));
    let v = run(&root, &write(&root, "ge", &body(">=")));
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
}

#[test]
fn bad_start_burn_in_growth_and_comparison_input_is_a_one_line_error() {
    let base = "[setting]\nprocesses = [\"two-choice\"]\n[claim]\nstatistic = \"max_gap\"\n\
                mean = \"<= 4\"\nballs = \"n\"\nruns = 10\nconfidence = 0.9\n[domain]\nn = [4]\n";
    let with = |line: &str| base.replace("runs = 10\n", &format!("runs = 10\n{line}\n"));
    let graph = "[claim]\nstatistic = \"max_gap\"\ngraph = \"cycle\"\nmean = \"<= 4\"\n\
                 balls = \"n\"\nruns = 10\nconfidence = 0.9\n[domain]\nn = [4]\n";
    let cases: &[(&str, String, &str)] = &[
        (
            "loads-length",
            with("start_loads = [1, 2, 3]"),
            "the load vector has 3 entries for n = 4 bins",
        ),
        (
            "loads-negative",
            with("start_loads = [1, -2, 3, 0]"),
            "loads must be non-negative integers",
        ),
        (
            "start-unknown",
            with("start = \"heavy\""),
            "start: unknown start state `heavy`",
        ),
        (
            "start-both",
            with("start = \"gap(2)\"\nstart_loads = [1, 2, 3, 4]"),
            "start_loads: give either `start` or `start_loads`",
        ),
        (
            "burn-negative",
            with("burn_in = \"-n\""),
            "burn_in: must lie in [0, 10^15] balls",
        ),
        (
            "compare-one",
            base.replace("mean = \"<= 4\"", "compare = \"<=\""),
            "compares exactly two sources",
        ),
        (
            "compare-op",
            base.replace(
                "processes = [\"two-choice\"]",
                "processes = [\"two-choice\", \"one-choice\"]",
            )
            .replace("mean = \"<= 4\"", "compare = \"<\""),
            "compare: must be \"<=\"",
        ),
        (
            "exponent-range",
            base.replace("mean = \"<= 4\"", "exponent = \"in [0.1 0.2]\""),
            "a range is written `in [lo, hi]`",
        ),
        (
            "exponent-n",
            base.replace("mean = \"<= 4\"", "exponent = \"<= n\""),
            "exponent: `n`",
        ),
        (
            "relative-alone",
            with("relative_to = \"ln(n)\""),
            "relative_to: only used with `exponent`",
        ),
        (
            "start-md",
            "[setting]\nprocesses = [\"two-choice\"]\n[claim]\nstatistic = \"md_max_gap\"\n\
             law = \"uniform(dims=4,f=2)\"\nprobability = \"<= 4\"\nq = 0.1\nballs = \"n\"\n\
             start = \"gap(2)\"\nruns = 10\nconfidence = 0.9\n[domain]\nn = [4]\n"
                .to_string(),
            "start: start states apply to the processes of [setting] and the strategy (md-balls start empty)",
        ),
        (
            "strategy-alone",
            with("strategy = \"greedy\""),
            "strategy: only used with `graph`",
        ),
        (
            "strategy-unknown",
            graph.replace(
                "graph = \"cycle\"",
                "graph = \"cycle\"\nstrategy = [\"flow\", \"random\"]",
            ),
            "strategy: unknown strategy `random`",
        ),
        (
            "sibling-greedy",
            graph.replace("\"max_gap\"", "\"sibling_gap\"").replace(
                "graph = \"cycle\"",
                "graph = \"cycle\"\nstrategy = \"greedy\"",
            ),
            "sibling_gap is an observable of the flow strategy",
        ),
        (
            "beta-no-param",
            base.replace(
                "processes = [\"two-choice\"]",
                "processes = [\"one-plus-beta(beta=0.5)\", \"two-choice\"]",
            )
            .replace(
                "mean = \"<= 4\"",
                "exponent = \"<= -1\"\nexponent_in = \"beta\"",
            ),
            "source 2 (two-choice) has no positive `beta`",
        ),
    ];
    for (name, body, want) in cases {
        let e = err_of(name, body);
        assert!(e.contains(want), "{name}: {e}");
        assert!(!e.contains('\n'), "{name}: not one line: {e}");
        assert!(e.contains(&format!("{name}.toml")), "{name}: no file: {e}");
    }
}

#[test]
fn the_strategy_model_starts_from_a_load_vector_with_its_set_loads() {
    use balloc::graph::Graph;
    use balloc::sim::graph::StrategyModel;
    use balloc::sim::{Model, rng::run_rng};
    let m = StrategyModel::new(&Graph::cycle(8).unwrap()).unwrap();
    let start = balloc::loads::Loads::new(vec![8.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]).unwrap();
    let mut s = m.build_from(&start).unwrap();
    // 8 balls on vertex 0 of C_8: gap 8 − 8/8 = 7; the sibling pairs on the path from vertex 0's
    // leaf to the root have averages (8 | 0), (4 | 0), (2 | 0): the largest sibling gap is 8.
    assert_eq!(
        (s.balls(), s.total(), s.max_load() - s.total() / 8.0),
        (0, 8.0, 7.0)
    );
    assert_eq!(s.observables(), vec![8.0]);
    // Balls are counted from the start state; the observed gap uses all 8 + 16 balls.
    let g = s.run_until(16, &mut run_rng(1)).unwrap();
    assert_eq!((s.balls(), s.total()), (16, 24.0));
    assert!(g >= s.max_load() - 3.0 && g <= 8.0 + 16.0 - 3.0);
    assert!(
        m.build_from(&balloc::loads::Loads::new(vec![1.0; 4]).unwrap())
            .is_err()
    );
}

/// Two-Choice on 2 bins from loads (10, 0): a ball lands on the heavier bin only if both picks
/// hit it (probability 1/4), so the difference d = x₀ − x₁ moves by −1 (prob. 3/4) or +1 until it
/// reaches 0, one ball per step; the gap is d/2 and Δ = Σ|yᵢ| = d.
fn two_bins(stat: &str, claim: &str, balls: u32) -> String {
    format!(
        "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[claim]\n{stat}\n{claim}\n\
         start_loads = [10, 0]\nballs = \"{balls}\"\ncheckpoints = {balls}\nruns = 100\nseed = 4\n\
         confidence = 0.95\n[domain]\nn = [2]\n"
    )
}

#[test]
fn recovery_times_and_windowed_fractions_match_hand_bounds() {
    let root = scratch("recovery");
    let rec = "statistic = \"recovery_time\"\nlevel = \"0\"";
    // d falls by at most 1 per ball, so the gap reaches 0 after at least 10 balls: P[T ≤ 9] = 0.
    let v = run(
        &root,
        &write(
            &root,
            "early",
            &two_bins(rec, "probability = \"<= 9\"\nq = 0.5", 200),
        ),
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    // T > 200 needs 10 + Σ_{i ≤ 200} Xᵢ > 0 with E[Xᵢ] = −1/2, Xᵢ ∈ {−1, 1}: by Hoeffding this
    // has probability at most exp(−2·90²/(200·2²)) = e^{−20.25}, so all 100 runs recover and the
    // Clopper–Pearson lower end 0.025^{1/100} = 0.964 exceeds 1 − q = 0.9.
    let v = run(
        &root,
        &write(
            &root,
            "late",
            &two_bins(rec, "probability = \"<= 200\"\nq = 0.1", 200),
        ),
    );
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    // Δ after t balls is at least 10 − t, so Δ ≤ 4 only at t ≥ 6: at most 5 of the 10 checkpoints.
    let frac = "statistic = \"potential_fraction\"\npotential = \"absolute\"\nbelow = \"4\"";
    let v = run(
        &root,
        &write(
            &root,
            "frac-le",
            &two_bins(frac, "probability = \"<= 0.5\"\nq = 0.5", 10),
        ),
    );
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    let v = run(
        &root,
        &write(
            &root,
            "frac-ge",
            &two_bins(frac, "probability = \">= 0.6\"\nq = 0.5", 10),
        ),
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    // A mean of a censored time is refused.
    let e = err_of(
        "rec-mean",
        &two_bins(rec, "mean = \"<= 9\"", 20)[HEAD.len()..],
    );
    assert!(e.contains("use a `probability` claim"), "{e}");
}

/// A growth claim in β (`exponent_in = "beta"`) against the exact slope. Two bins, two balls of
/// (1+β): the second ball lands on the first one's bin with probability p₁ = (1 − β)/2 + β/4 (the
/// rank-1 entry of (1 − β)/n + β(2i − 1)/n² at n = 2), so the final gap is 1 with probability
/// 1/2 − β/4 and 0 otherwise: E[gap] = 1/2 − β/4. Over β = 1/4, 1/2, 3/4 the least-squares slope
/// of ln E[gap] on ln β is −0.2972 (computed from these three values).
#[test]
fn growth_in_beta_matches_the_exact_slope() {
    let root = scratch("beta");
    let file = |range: &str| {
        format!(
            "{HEAD}[setting]\nprocesses = [\"one-plus-beta(beta=0.25)\", \"one-plus-beta(beta=0.5)\", \
             \"one-plus-beta(beta=0.75)\"]\n[claim]\nstatistic = \"final_gap\"\nexponent = \"{range}\"\n\
             exponent_in = \"beta\"\nballs = \"2\"\nruns = 4000\nseed = 5\nconfidence = 0.95\n\
             [domain]\nn = [2]\n"
        )
    };
    let v = run(&root, &write(&root, "around", &file("in [-0.45, -0.15]")));
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    let note = v.notes.iter().find(|n| n.contains("exponent")).unwrap();
    assert!(note.contains("beta = 0.25 →"), "{note}");
    let v = run(&root, &write(&root, "flat", &file("in [-0.1, 0.1]")));
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
}

/// `beta` in a per-configuration field is each source's β. Two bins, two balls of (1+β): E[gap] =
/// 1/2 − β/4 exactly (see `growth_in_beta_matches_the_exact_slope`): 0.4375 at β = 1/4 and 0.3125
/// at β = 3/4. A band of ±0.05 around 1/2 − beta/4 holds on both sides only if `beta` is read per
/// source: with one β for both sources (either value, or 0) one side is refuted at the other
/// source (0.4375 − 0.05 > 0.3125 + 0.05). 4000 runs: the t half-width at the level
/// 1 − 0.05/2 is about 2.24·√(0.25/4000) ≈ 0.018, so the margin is about 4.5 standard errors.
#[test]
fn beta_in_a_bound_is_each_sources_beta() {
    let root = scratch("source-beta");
    let file = |setting: &str, claim: &str, consts: &str| {
        format!(
            "{HEAD}[setting]\n{setting}\n{consts}[claim]\n{claim}\nballs = \"2\"\nruns = 4000\nseed = 5\n\
             confidence = 0.95\n[domain]\nn = [2]\n"
        )
    };
    let go = |name: &str, text: String| run(&root, &write(&root, name, &text));
    let two = "processes = [\"one-plus-beta(beta=0.25)\", \"one-plus-beta(beta=0.75)\"]";
    for (name, claim) in [
        (
            "above",
            "statistic = \"final_gap\"\nmean = \">= 1/2 - beta/4 - 0.05\"",
        ),
        (
            "below",
            "statistic = \"final_gap\"\nmean = \"<= 1/2 - beta/4 + 0.05\"",
        ),
    ] {
        let v = go(name, file(two, claim, ""));
        assert_eq!(v.verdict, Status::Holds, "{name}: {:?}", v.notes);
        let notes = v.notes.join("\n");
        // The thresholds by hand: 1/2 − 1/16 ∓ 0.05 and 1/2 − 3/16 ∓ 0.05.
        let (a, b) = if name == "above" {
            ("rhs 0.3875", "rhs 0.2625")
        } else {
            ("rhs 0.4875", "rhs 0.3625")
        };
        assert!(notes.contains(a) && notes.contains(b), "{notes}");
    }
    // The band one-sided with the first source's β for both is refuted at the second source.
    let v = go(
        "fixed",
        file(
            two,
            "statistic = \"final_gap\"\nmean = \">= 1/2 - 1/16 - 0.05\"",
            "",
        ),
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    // md sources (the rule's one-plus-beta choice) and graph sources (`[claim] beta`), and `q`:
    // rhs −1/β is −2 at β = 1/2 and −1 at β = 1; q = β/4.
    let v = go(
        "md",
        file(
            "processes = [\"one-plus-beta(beta=0.5)\"]",
            "statistic = \"md_max_gap\"\nlaw = \"uniform(dims=4,f=2)\"\nprobability = \">= -1/beta\"\nq = \"beta/4\"",
            "",
        ),
    );
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    let notes = v.notes.join("\n");
    assert!(
        notes.contains("rhs -2.0000") && notes.contains("vs 0.8750"),
        "{notes}"
    );
    let v = balloc::check_str(&format!(
        "{HEAD}[claim]\nstatistic = \"final_gap\"\ngraph = \"cycle\"\nbeta = [1, 0.5]\nprobability = \">= -1/beta\"\nq = \"1/2\"\nballs = \"n\"\nruns = 20\nconfidence = 0.9\n[domain]\nn = [8]\n"
    ))
    .unwrap();
    let notes = v.notes.join("\n");
    assert!(
        notes.contains("rhs -1.0000") && notes.contains("rhs -2.0000"),
        "{notes}"
    );
    // A constant named beta shadows the sources' β: rhs −1/1 for both.
    let v = go(
        "shadow",
        file(
            two,
            "statistic = \"final_gap\"\nprobability = \">= -1/beta\"\nq = \"1/2\"",
            "[constants]\nbeta = 1\n",
        ),
    );
    let notes = v.notes.join("\n");
    assert_eq!(notes.matches("rhs -1.0000").count(), 2, "{notes}");
    // A source without β, and `beta` outside the per-configuration fields, are one-line errors.
    let e = err_of(
        "beta-missing",
        "[setting]\nprocesses = [\"one-plus-beta(beta=0.5)\", \"two-choice\"]\n[claim]\nstatistic = \"final_gap\"\n\
         probability = \"<= 4 / beta\"\nq = \"1/10\"\nballs = \"n\"\nruns = 10\nconfidence = 0.9\n[domain]\nn = [4]\n",
    );
    assert!(
        e.contains("[claim] probability")
            && e.contains("source 2 (two-choice)")
            && !e.contains('\n'),
        "{e}"
    );
    let e = err_of(
        "beta-in-balls",
        "[setting]\nprocesses = [\"one-plus-beta(beta=0.5)\"]\n[claim]\nstatistic = \"final_gap\"\n\
         mean = \"<= 4\"\nballs = \"n / beta\"\nruns = 10\nconfidence = 0.9\n[domain]\nn = [4]\n",
    );
    assert!(
        e.contains("balls") && e.contains("beta") && !e.contains('\n'),
        "{e}"
    );
}

/// Among sources with equal margins (no run reaches the threshold, so every Clopper–Pearson end
/// is the same) the worst source named in the notes is the one whose observed quantile is nearest
/// the threshold, read here from the per-source notes. Greedy is listed first and the strategy,
/// whose gap on a small cycle is the larger one, second: naming the first of the tied sources
/// would name greedy.
#[test]
fn the_worst_source_breaks_margin_ties_by_the_observed_quantile() {
    let v = balloc::check_str(&format!(
        "{HEAD}[claim]\nstatistic = \"final_gap\"\ngraph = \"cycle\"\nstrategy = [\"greedy\", \"flow\"]\n\
         probability = \"<= 1000\"\nq = \"1/10\"\nballs = \"16 * n\"\nruns = 200\nseed = 4\nconfidence = 0.95\n\
         [domain]\nn = [16]\n"
    ))
    .unwrap();
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    let ratio = |l: &str| -> f64 {
        let r = l.split("observed/bound ").nth(1).unwrap();
        r[..r.find([')', ',']).unwrap()].parse().unwrap()
    };
    let per_source: Vec<(String, f64)> = v
        .notes
        .iter()
        .filter(|l| l.contains(": P[") && l.contains("observed/bound"))
        .map(|l| (l.split(", b = ").next().unwrap().to_string(), ratio(l)))
        .collect();
    assert_eq!(per_source.len(), 2, "{:?}", v.notes);
    let top = per_source[0].1.max(per_source[1].1);
    // The test discriminates: the first source is not the one nearest the threshold.
    assert!(per_source[0].1 < top, "{per_source:?}");
    let worst = v
        .notes
        .iter()
        .find(|l| l.contains("the worst of the"))
        .unwrap();
    assert!(worst.contains("smallest margin"), "{worst}");
    assert!(
        (ratio(worst) - top).abs() < 1e-9,
        "{worst} vs {per_source:?}"
    );
    let second = per_source[1].0.trim_start_matches("n = 16, ");
    assert!(
        second.contains("strategy") && worst.ends_with(second),
        "{worst} vs {second}"
    );
}
