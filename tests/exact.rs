//! Trust level `exact`: the rational closed forms for Υ and Δ equal an independent rational
//! enumeration over every outcome, and agree with the `f64` closed forms to 1e-12.

use crate::common::q;
use balloc::exact::{self, Q, int};
use balloc::loads::{Loads, TieRule};
use balloc::potential::exact::absolute;
use balloc::potential::exact::enumerate;
use balloc::potential::exact::quadratic;
use balloc::process::ExactOutcome;
use balloc::process::ExactStepLaw;
use balloc::setting::ExactSetting;
use balloc::setting::Setting;
use balloc::weights::ExactWeights;
use balloc::weights::WeightLaw;
use balloc::{condition, expectation, potential, process};

const PROCESSES: &[&str] = &[
    "one-choice",
    "two-choice",
    "d-choice(d=3)",
    "one-plus-beta(beta=0.5)",
    "quantile(delta=0.5)",
];

const LOADS: &[&[f64]] = &[
    &[1.0, 0.0],
    &[3.0, 0.0, 1.0, 0.0],
    &[2.0, 2.0, 0.0, 5.0],
    &[0.0, 0.0, 0.0, 0.0],
    &[4.0, 1.0, 1.0, 0.0, 2.0, 2.0],
];

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
}

/// Every (process, loads, tie rule, setting) case: closed form == enumeration exactly, and the
/// f64 closed form agrees.
#[test]
fn quadratic_and_absolute_equal_exact_enumeration() {
    let settings: Vec<(&str, u64)> = vec![
        ("unit", 1),
        ("two-point(low=0.5,high=1.5,p=0.1)", 1),
        ("discrete(w=0;1;3,p=1/2;1/4;1/4)", 1),
        ("unit", 3),
        ("two-point(low=0.5,high=1.5,p=0.1)", 2),
    ];
    let mut checked = 0;
    for name in PROCESSES {
        let p = process::parse(name).unwrap();
        for &x in LOADS {
            let loads = Loads::new(x.to_vec()).unwrap();
            if name.starts_with("quantile") && loads.n() % 2 == 1 {
                continue;
            }
            let xq = loads.exact();
            for ties in [TieRule::Random, TieRule::Fixed] {
                let law = ExactStepLaw::from_process(p.as_ref(), &loads, ties).unwrap();
                for (w, b) in &settings {
                    let es = ExactSetting::new(*b, ExactWeights::parse(w).unwrap()).unwrap();
                    let fs = Setting::new(*b, WeightLaw::parse(w).unwrap(), ties).unwrap();
                    // Υ: closed form (any weights) against enumeration.
                    let cf = quadratic::expected_next(&law, &xq, &es).unwrap();
                    let bf = enumerate::brute_force(&law, &xq, &es, &quadratic::value).unwrap();
                    assert_eq!(cf, bf, "Υ {name} {x:?} {ties:?} {w} b={b}");
                    let fl = expectation::expect(
                        p.as_ref(),
                        potential::parse("quadratic").unwrap().as_ref(),
                        &loads,
                        &fs,
                    )
                    .unwrap();
                    assert!(close(
                        exact::to_f64(&cf),
                        fl.expected_next.to_f64_checked().unwrap()
                    ));
                    // Δ: closed forms exist for one step with finite weights and for unit batches.
                    match absolute::expected_next(&law, &xq, &es) {
                        Ok(cf) => {
                            let bf =
                                enumerate::brute_force(&law, &xq, &es, &absolute::value).unwrap();
                            assert_eq!(cf, bf, "Δ {name} {x:?} {ties:?} {w} b={b}");
                            let fl = expectation::expect(
                                p.as_ref(),
                                potential::parse("absolute").unwrap().as_ref(),
                                &loads,
                                &fs,
                            )
                            .unwrap();
                            let f = fl.expected_next.to_f64_checked().unwrap();
                            assert!(close(exact::to_f64(&cf), f), "{} vs {f}", cf);
                            checked += 1;
                        }
                        Err(e) => assert!(*b > 1 && *w != "unit", "unexpected: {e}"),
                    }
                }
            }
        }
    }
    assert!(checked > 150, "only {checked} Δ cases");
}

/// Υ depends on the weights only through E[W] and E[W²]: Exp(1) (E[W] = 1, E[W²] = 2) must give
/// exactly what the enumeration gives for the two-point law on {0, 2} with probability ½ each
/// (E[W] = 1, E[W²] = 2).
#[test]
fn quadratic_with_exponential_weights_matches_a_moment_equivalent_finite_law() {
    let p = process::parse("two-choice").unwrap();
    let loads = Loads::new(vec![3.0, 0.0, 1.0, 0.0]).unwrap();
    let xq = loads.exact();
    let law = ExactStepLaw::from_process(p.as_ref(), &loads, TieRule::Random).unwrap();
    for b in [1, 2, 3] {
        let expo = ExactSetting::new(b, ExactWeights::parse("exp(1)").unwrap()).unwrap();
        let twin = ExactSetting::new(b, ExactWeights::parse("discrete(w=0;2,p=1/2;1/2)").unwrap())
            .unwrap();
        let cf = quadratic::expected_next(&law, &xq, &expo).unwrap();
        let bf = enumerate::brute_force(&law, &xq, &twin, &quadratic::value).unwrap();
        assert_eq!(cf, bf, "b = {b}");
    }
}

/// Load-dependent laws with several balls per outcome (Twinning at x = (3, 0, 1, 0): y = (2, −1,
/// 0, −1), underloaded bins 1 and 3 receive 2 balls, every bin has probability 1/4).
#[test]
fn multi_ball_outcomes_equal_enumeration() {
    let xq: Vec<Q> = [3, 0, 1, 0].iter().map(|v| int(*v)).collect();
    let balls = [1, 2, 1, 2];
    let law = ExactStepLaw::new(
        4,
        (0..4)
            .map(|bin| ExactOutcome {
                bin,
                balls: balls[bin],
                prob: q(1, 4),
            })
            .collect(),
    )
    .unwrap();
    for w in ["unit", "two-point(low=0.5,high=1.5,p=0.5)"] {
        let s = ExactSetting::new(1, ExactWeights::parse(w).unwrap()).unwrap();
        assert_eq!(
            quadratic::expected_next(&law, &xq, &s).unwrap(),
            enumerate::brute_force(&law, &xq, &s, &quadratic::value).unwrap()
        );
        assert_eq!(
            absolute::expected_next(&law, &xq, &s).unwrap(),
            enumerate::brute_force(&law, &xq, &s, &absolute::value).unwrap()
        );
    }
    // Hand check (unit): Υ = 4 + 1 + 0 + 1 = 6. A 1-ball outcome at bin j adds 2y_j + 3/4,
    // a 2-ball outcome adds 4y_j + 4·3/4 (`docs/derivations.md` §4: Υ' = Υ + 2w y_j + w²(1 − 1/n)).
    // E[ΔΥ] = ¼[(4 + ¾) + (−4 + 3) + (0 + ¾) + (−4 + 3)] = ¼·3.5 = 7/8.
    let s = ExactSetting::sequential();
    assert_eq!(
        quadratic::expected_next(&law, &xq, &s).unwrap(),
        int(6) + q(7, 8)
    );
}

/// For one ball, a sum-over-bins potential does not depend on the tie rule (`docs/conventions.md` §1); in a
/// batch it does.
#[test]
fn tie_rule_matters_only_in_batches() {
    let p = process::parse("two-choice").unwrap();
    let loads = Loads::new(vec![1.0, 1.0, 0.0, 0.0]).unwrap();
    let xq = loads.exact();
    let r = ExactStepLaw::from_process(p.as_ref(), &loads, TieRule::Random).unwrap();
    let f = ExactStepLaw::from_process(p.as_ref(), &loads, TieRule::Fixed).unwrap();
    let s1 = ExactSetting::sequential();
    assert_eq!(
        quadratic::expected_next(&r, &xq, &s1).unwrap(),
        quadratic::expected_next(&f, &xq, &s1).unwrap()
    );
    let s3 = ExactSetting::new(3, ExactWeights::Unit).unwrap();
    assert_ne!(
        quadratic::expected_next(&r, &xq, &s3).unwrap(),
        quadratic::expected_next(&f, &xq, &s3).unwrap()
    );
}

/// C1/C2 in exact arithmetic on the Two-Choice vector at n = 8, δ = 1/2: p_i = (2i − 1)/64.
/// Prefix terms 1 − 8·P_k/k = 1 − k/8 (P_k = k²/64), smallest at k = 4: 1/2. Suffix terms
/// (factor 1): S_k = 1 − (k−1)²/64, 8·S_k/(9 − k) − 1 = (k − 1)/8 ... at k = 5: 1/2. So ε* = 1/2;
/// C* = 8·15/64 = 15/8.
#[test]
fn conditions_exactly() {
    let p = process::parse("two-choice")
        .unwrap()
        .rank_probabilities_exact(8)
        .unwrap()
        .unwrap();
    let best = condition::best_eps(&p, 4).unwrap();
    assert_eq!(best.eps, q(1, 2));
    assert_eq!(condition::best_c(&p).c, q(15, 8));
    assert_eq!(condition::c1_violation(&p, 4, &q(1, 2)), None);
    assert!(condition::c1_violation(&p, 4, &(q(1, 2) + q(1, 1_000_000_000_000))).is_some());
}

/// The kind `condition` over grids of constants, a process parameter naming a constant
/// (`quantile(delta=q)`): Quantile(q) has p_i = q/n on the qn heaviest ranks, (1 + q)/n on the
/// others. By hand at n = 8, q = 1/4, δ = 1/2 (both δn = 4 and qn = 2 integers): prefix terms
/// 1 − 8P_k/k: k = 1, 2: 1 − q = 3/4; k = 3: P_3 = 2/32 + 5/32 = 7/32, 1 − 56/96 = 5/12; k = 4:
/// P_4 = 12/32, 1 − 3/4 = 1/4 = q(1 − δ)/δ. Suffix terms (factor (1 − δ)/δ = 1): q = 1/4 at
/// every k > 4. So ε*(1/2) = 1/4 and C* = 1 + q = 5/4: `1 - q` = 3/4 overstates ε there.
#[test]
fn condition_claims_over_grids_of_constants() {
    let file = |q: &str, delta: &str, eps: &str| {
        format!(
            "{}[constants]\nq = {q}\ndelta = {delta}\n[setting]\nprocesses = [\"quantile(delta=q)\"]\n\
             [claim]\ndelta = \"delta\"\neps = \"{eps}\"\nc2 = \"1 + q\"\ntight = true\n[domain]\nn = [8, 16]\n",
            crate::common::head!("condition")
        )
    };
    let v = balloc::check_str(&file("\"1/4\"", "\"1/2\"", "1/4")).unwrap();
    assert_eq!(v.verdict, balloc::claim::Status::Holds, "{:?}", v.witness);
    assert_eq!(v.searched.constant_combinations, 1);
    // The hand value's wrong companion: ε* = 1 − q holds only where δ ≤ q.
    let v = balloc::check_str(&file("\"1/4\"", "\"1/2\"", "1 - q")).unwrap();
    assert_eq!(v.verdict, balloc::claim::Status::Refuted);
    let w = v.witness.unwrap();
    assert_eq!((w.n, w.source.as_str()), (8, "quantile(delta=0.25)"));
    assert_eq!(w.constants_text["q"], "1/4");
    assert!(w.lhs.starts_with("eps* = 1/4, C* = 5/4"), "{}", w.lhs);
    // Over grids, every combination is one case: 3 × 2 combinations, two n each.
    let v = balloc::check_str(&file(
        "[\"1/4\", \"1/2\", \"3/4\"]",
        "[\"1/4\", \"1/2\"]",
        "min(1 - q, q*(1 - delta)/delta)",
    ))
    .unwrap();
    assert_eq!(v.verdict, balloc::claim::Status::Holds, "{:?}", v.witness);
    assert_eq!(v.searched.constant_combinations, 6);
    assert_eq!(v.searched.total, 12);
    // δn not an integer at some combination: an error naming the case.
    let e = balloc::check_str(&file("\"1/4\"", "\"1/3\"", "1/4"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("n = 8") && e.contains("delta = 1/3"), "{e}");
}

/// The constant finder of the kind `condition`: the largest ε of C1 bisected from the file's value
/// is the best ε*(δ), exactly bracketed. By hand (the derivations of the C1/C2 files): (1+β) has
/// ε*(δ) = β(1 − δ), so 1/8 at β = 1/4, δ = 1/2, at every n with δn integral; Two-Choice (β = 1)
/// has 1/2.
#[test]
fn the_condition_constant_finder_brackets_the_best_epsilon() {
    use balloc::claim::{self, RunContext};
    let root = crate::common::scratch_in("condition-tighten", "c");
    for (beta, want) in [("1/4", 0.125), ("1", 0.5)] {
        let text = format!(
            "{}[constants]\ne = \"1/100\"\nbeta = \"{beta}\"\n[tighten]\ne = \"largest\"\n\
             [setting]\nprocesses = [\"one-plus-beta(beta=beta)\"]\n[claim]\ndelta = \"1/2\"\n\
             eps = \"e\"\nc2 = \"2\"\n[domain]\nn = [8, 16]\n",
            crate::common::head!("condition")
        );
        let path = crate::common::write(&root, "c", &text);
        let (_, c) = claim::prepare(&path, &root).unwrap();
        let r = c.tighten("e", None, &mut RunContext::default()).unwrap();
        assert_eq!(r.per_n.len(), 2);
        for t in &r.per_n {
            assert!(t.value <= want && want - t.value < 1e-8, "{t:?}");
            let f = t.fails.unwrap();
            assert!(f > want && f - want < 1e-8, "{t:?}");
        }
    }
}

/// The exact batched Δ at a large batch: b = 40 unit balls, n = 4, via binomial sums, against
/// the f64 closed form; and a small batch against enumeration with uneven probabilities.
#[test]
fn batched_absolute_binomial_sums() {
    let p = process::parse("d-choice(d=3)").unwrap();
    let loads = Loads::new(vec![9.0, 0.0, 3.0, 1.0]).unwrap();
    let xq = loads.exact();
    let law = ExactStepLaw::from_process(p.as_ref(), &loads, TieRule::Random).unwrap();
    let s = ExactSetting::new(40, ExactWeights::Unit).unwrap();
    let cf = absolute::expected_next(&law, &xq, &s).unwrap();
    let fl = expectation::expect(
        p.as_ref(),
        potential::parse("absolute").unwrap().as_ref(),
        &loads,
        &Setting::batched(40).unwrap(),
    )
    .unwrap();
    assert!(close(
        exact::to_f64(&cf),
        fl.expected_next.to_f64_checked().unwrap()
    ));
    let s4 = ExactSetting::new(4, ExactWeights::Unit).unwrap();
    assert_eq!(
        absolute::expected_next(&law, &xq, &s4).unwrap(),
        enumerate::brute_force(&law, &xq, &s4, &absolute::value).unwrap()
    );
}

#[test]
fn bad_input_is_an_error() {
    let h = q(1, 2);
    assert!(ExactStepLaw::unit_checked(vec![h.clone(), h.clone(), h.clone()]).is_err());
    assert!(ExactWeights::parse("discrete(w=1;2,p=0.3;0.6)").is_err());
    assert!(ExactWeights::parse("nope").is_err());
    // Greedy graphical allocation has an exact law: on C_3 at (1, 0, 0) the edge {0,1} sends the
    // ball to 1, {2,0} to 2, and {1,2} is a tie (½ each): (0, 1/3 + 1/6, 1/6 + 1/3) = (0, 1/2, 1/2).
    let g = process::parse("graphical(graph=cycle)").unwrap();
    let loads = Loads::new(vec![1.0, 0.0, 0.0]).unwrap();
    let law = ExactStepLaw::from_process(g.as_ref(), &loads, TieRule::Random).unwrap();
    assert_eq!(law.per_bin_probability(), vec![q(0, 1), q(1, 2), q(1, 2)]);
    // Twinning has one through `Process::step_law_exact`: at x = (1, 0) bin 0 is overloaded
    // (one ball) and bin 1 underloaded (two balls), each sampled with probability 1/2, so
    // E[Υ'] = ½·Υ(2, 0) + ½·Υ(1, 2) = ½·2 + ½·½ = 5/4 (Υ(a, b) = (a − b)²/2).
    let tw = process::parse("twinning").unwrap();
    let law = ExactStepLaw::from_process(
        tw.as_ref(),
        &Loads::new(vec![1.0, 0.0]).unwrap(),
        TieRule::Random,
    )
    .unwrap();
    assert_eq!(
        quadratic::expected_next(&law, &[int(1), int(0)], &ExactSetting::sequential()).unwrap(),
        q(5, 4)
    );
    let law = ExactStepLaw::uniform(3).unwrap();
    assert!(
        quadratic::expected_next(&law, &[int(1), int(2)], &ExactSetting::sequential()).is_err()
    );
    let expo = ExactSetting::new(1, ExactWeights::parse("exp(1)").unwrap()).unwrap();
    assert!(absolute::expected_next(&law, &[int(1), int(2), int(0)], &expo).is_err());
}
