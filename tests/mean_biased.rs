//! Paper B (Los–Sauerwald–Sylvester, Mean-Biased Processes) as exact checks: the reconstructed
//! bias conditions, per-bin drifts, outcome probabilities of Figs. 3.1/3.2 and the identities for
//! Υ and Δ, on every integer load vector of a small box (exhaustive), exactly in rationals and to
//! 1e-12 relative against the spine's f64 closed forms.

use crate::common::q;
use balloc::bias::{self, Sides, drift, identity, outcome};
use balloc::exact::Q;
use balloc::expectation::expect;
use balloc::loads::{Boundary, Loads, TieRule};
use balloc::potential;
use balloc::process::{self, ExactStepLaw, Process};
use balloc::setting::Setting;
use num_traits::{One, ToPrimitive, Zero};

/// Every integer load vector in `{0..=max}ⁿ` for the box sizes used below (about 1 900 states).
fn states() -> Vec<Loads> {
    let mut out = Vec::new();
    for (n, max) in [(2usize, 6u32), (3, 5), (4, 4), (5, 3)] {
        let total = (max as usize + 1).pow(n as u32);
        for mut code in 0..total {
            let mut x = Vec::with_capacity(n);
            for _ in 0..n {
                x.push((code % (max as usize + 1)) as f64);
                code /= max as usize + 1;
            }
            out.push(Loads::new(x).unwrap());
        }
    }
    out
}

fn exact_law(p: &dyn Process, x: &Loads) -> ExactStepLaw {
    p.step_law_exact(x, TieRule::Random).unwrap().unwrap()
}

fn f(v: &Q) -> f64 {
    v.to_f64().unwrap()
}

/// |a − b| ≤ 1e-12·scale, with `scale` the size of the terms of the identity.
fn close(a: f64, b: f64, scale: f64) -> bool {
    (a - b).abs() <= 1e-12 * scale.max(1.0)
}

fn spine_change(p: &dyn Process, pot: &str, x: &Loads) -> f64 {
    let pot = potential::parse(pot).unwrap();
    expect(p, pot.as_ref(), x, &Setting::sequential())
        .unwrap()
        .expected_change
        .to_f64_checked()
        .unwrap()
}

#[test]
fn mean_thinning_identities_hold_exhaustively() {
    let mut checked = 0;
    for boundary in [Boundary::Over, Boundary::Under] {
        let p = process::parse(&format!("mean-thinning(boundary={})", boundary.name())).unwrap();
        for x in states() {
            let n = x.n();
            let y = x.normalized_exact();
            let law = exact_law(p.as_ref(), &x);
            let sides = Sides::new(&x, boundary);
            let theta = sides.delta_plus();
            let delta = identity::absolute(&y);

            // E[ΔΥ] = −Δ/n + 1 − 1/n: exact enumeration against the identity.
            let exact = identity::expected_change_exact(&law, &y, identity::upsilon);
            assert_eq!(
                exact,
                identity::mean_thinning_upsilon_drift(delta.clone(), n),
                "{x:?}"
            );
            assert_eq!(exact, identity::thinning_upsilon_drift(&y, &sides.under));
            // The same identity in f64 against the spine's closed form for Υ.
            let spine = spine_change(p.as_ref(), "quadratic", &x);
            let formula = identity::mean_thinning_upsilon_drift(f(&delta), n);
            assert!(
                close(spine, formula, f(&delta) + 1.0),
                "{x:?}: {spine} vs {formula}"
            );

            // Per-bin drift and E[W' − W] = 1.
            assert_eq!(
                drift::per_bin_drift(&law),
                drift::mean_thinning_drift(&sides)
            );
            assert!(drift::expected_total_increase(&law).is_one());

            // Fig. 3.2 by enumeration of the n² sample pairs, independently of the spine kernel.
            let o = outcome::thinning_outcomes(&sides.under, &sides.under);
            assert_eq!(o.per_bin, law.per_bin_probability(), "{x:?}");
            let (closed, samples) = outcome::mean_thinning_outcomes(&theta);
            assert_eq!([o.first, o.second_under, o.second_over], closed);
            assert_eq!(o.samples, samples);

            // Reconstructed probability bias: k* = 1 whenever both sides are non-empty.
            let b = bias::best_bias(p.as_ref(), &x, boundary).unwrap();
            assert!(b.feasible && b.unit);
            if sides.delta_minus.is_zero() || theta.is_zero() {
                assert_eq!(b.k, None);
            } else {
                assert_eq!(b.k, Some(Q::one()), "{x:?}");
            }

            // Δ: the step rule of `docs/derivations.md` §4 against direct evaluation, outcome by outcome, and the
            // expectation against the spine's f64 closed form.
            for j in 0..n {
                let mut next = y.clone();
                for v in next.iter_mut() {
                    *v -= q(1, n as i64);
                }
                next[j] += Q::one();
                assert_eq!(
                    identity::absolute_step_change(&y, j),
                    identity::absolute(&next) - &delta
                );
            }
            let d_exact = identity::expected_change_exact(&law, &y, identity::absolute);
            assert_eq!(
                identity::expected_absolute_change(&law, &y).unwrap(),
                d_exact
            );
            let d_spine = spine_change(p.as_ref(), "absolute", &x);
            assert!(close(d_spine, f(&d_exact), f(&delta) + 1.0), "{x:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 2 * (49 + 216 + 625 + 1024));
}

#[test]
fn twinning_identities_hold_exhaustively() {
    for boundary in [Boundary::Over, Boundary::Under] {
        for (wm, wp) in [(2u32, 1u32), (3, 1), (3, 2)] {
            let spec = format!(
                "twinning(w_minus={wm},w_plus={wp},boundary={})",
                boundary.name()
            );
            let p = process::parse(&spec).unwrap();
            for x in states() {
                let n = x.n();
                let y = x.normalized_exact();
                let law = exact_law(p.as_ref(), &x);
                let sides = Sides::new(&x, boundary);
                let dm = sides.delta_minus.clone();
                let delta = identity::absolute(&y);

                let exact = identity::expected_change_exact(&law, &y, identity::upsilon);
                let formula =
                    identity::twinning_upsilon_drift(delta.clone(), n, dm.clone(), wm, wp);
                assert_eq!(exact, formula, "{spec} {x:?}");
                let spine = spine_change(p.as_ref(), "quadratic", &x);
                let formula_f = identity::twinning_upsilon_drift(f(&delta), n, f(&dm), wm, wp);
                let scale = (wm * wm) as f64 * (f(&delta) + 1.0);
                assert!(close(spine, formula_f, scale), "{spec} {x:?}");

                assert_eq!(
                    drift::expected_total_increase(&law),
                    drift::twinning_expected_balls(&dm, wm, wp)
                );
                assert_eq!(
                    drift::per_bin_drift(&law),
                    drift::twinning_drift(&sides, wm, wp)
                );

                let b = bias::best_bias(p.as_ref(), &x, boundary).unwrap();
                assert!(b.uniform && b.feasible);
                let unit = sides.under.iter().all(|&u| (if u { wm } else { wp }) == 1);
                assert_eq!(b.unit, unit);
                if (wm, wp) == (2, 1) {
                    // Fig. 3.1 by enumeration, and E[balls] = 1 + δ₋.
                    let (probs, balls) = outcome::twinning_outcomes(&sides.under);
                    assert_eq!(probs, [sides.delta_plus(), dm.clone()]);
                    assert_eq!(balls, Q::one() + &dm);
                    // Weight bias: k* = 1/(1 + δ₋) when both sides are non-empty.
                    if dm.is_zero() || sides.delta_plus().is_zero() {
                        assert_eq!(b.k, None);
                    } else {
                        assert_eq!(b.k, Some((Q::one() + &dm).recip()), "{x:?}");
                        assert!(b.holds(&q(1, 2)));
                    }
                }
            }
        }
    }
}

/// Notes §6 write Twinning's identity with `δ₋ = #{yⱼ < 0}/n`. For the convention that a bin at
/// the mean counts as underloaded (it receives two balls) this is false; the identity holds with
/// `δ₋` = the fraction of bins that receive two balls.
#[test]
fn twinning_identity_with_literal_delta_minus_fails_for_boundary_under() {
    let p = process::parse("twinning(boundary=under)").unwrap();
    let x = Loads::new(vec![0.0, 0.0]).unwrap();
    let y = x.normalized_exact();
    let law = exact_law(p.as_ref(), &x);
    // Hand computation: both bins are at the mean and get 2 balls; Υ' = 2·1² = 2 from Υ = 0.
    let exact = identity::expected_change_exact(&law, &y, identity::upsilon);
    assert_eq!(exact, q(2, 1));
    let literal = Sides::new(&x, Boundary::Over).delta_minus; // #{y < 0}/n = 0
    let wrong = identity::twinning_upsilon_drift(Q::zero(), 2, literal, 2, 1);
    assert_eq!(wrong, q(1, 2));
    let right = identity::twinning_upsilon_drift(
        Q::zero(),
        2,
        Sides::new(&x, Boundary::Under).delta_minus,
        2,
        1,
    );
    assert_eq!(right, exact);
    // Over the exhaustive box, the literal formula fails exactly at the states with a bin at the mean.
    for x in states() {
        let y = x.normalized_exact();
        let law = exact_law(p.as_ref(), &x);
        let exact = identity::expected_change_exact(&law, &y, identity::upsilon);
        let literal = identity::twinning_upsilon_drift(
            identity::absolute(&y),
            x.n(),
            Sides::new(&x, Boundary::Over).delta_minus,
            2,
            1,
        );
        let has_zero = y.iter().any(|v| v.is_zero());
        assert_eq!(exact != literal, has_zero, "{x:?}");
    }
}

#[test]
fn relative_threshold_breaks_the_reconstructed_probability_bias() {
    let p = process::parse("relative-threshold(f=1)").unwrap();
    // y = (−2, 0, 2); accepted: y ≤ 1 (bins 0, 1); R = 1: r = (4/9, 4/9, 1/9).
    // Bin 1 is overloaded (y = 0, boundary over) with share ρ = 3·4/9 = 4/3:
    // k from bin 1 = (1 − 4/3)/δ₋ = (−1/3)/(1/3) = −1; bin 2: (1 − 1/3)/(1/3) = 2;
    // bin 0 (underloaded): (4/3 − 1)/(2/3) = 1/2. So k* = −1 at bin 1.
    let x = Loads::new(vec![0.0, 2.0, 4.0]).unwrap();
    let b = bias::best_bias(p.as_ref(), &x, Boundary::Over).unwrap();
    assert_eq!(b.k, Some(q(-1, 1)));
    assert_eq!(b.witness, Some(1));
    assert!(!bias::probability_bias(p.as_ref(), &x, Boundary::Over, &q(1, 10)).unwrap());
    // Its Υ drift is still the thinning identity (2/n)Σ_A y + 1 − 1/n = (2/3)(−2) + 2/3 = −2/3.
    let law = exact_law(p.as_ref(), &x);
    let y = x.normalized_exact();
    let exact = identity::expected_change_exact(&law, &y, identity::upsilon);
    assert_eq!(exact, q(-2, 3));
    let accept = [true, true, false];
    assert_eq!(identity::thinning_upsilon_drift(&y, &accept), exact);
    // Exhaustively: the thinning identity holds for Relative-Threshold(1).
    for x in states() {
        let y = x.normalized_exact();
        let law = exact_law(p.as_ref(), &x);
        let under = Sides::from_y(
            &y.iter().map(|v| v - Q::one()).collect::<Vec<_>>(),
            Boundary::Under,
        )
        .under;
        assert_eq!(
            identity::expected_change_exact(&law, &y, identity::upsilon),
            identity::thinning_upsilon_drift(&y, &under)
        );
        let o = outcome::thinning_outcomes(&under, &Sides::from_y(&y, Boundary::Over).under);
        assert_eq!(o.per_bin, law.per_bin_probability());
    }
}

#[test]
fn one_choice_and_two_choice_are_not_mean_biased_in_the_reconstructed_sense() {
    // One-Choice: ρ ≡ 1, k* = 0 whenever both sides are present.
    let oc = process::parse("one-choice").unwrap();
    let x = Loads::new(vec![0.0, 1.0, 5.0]).unwrap();
    let b = bias::best_bias(oc.as_ref(), &x, Boundary::Over).unwrap();
    assert_eq!(b.k, Some(Q::zero()));
    assert!(!b.holds(&q(1, 100)));
    // Two-Choice at y = (−2, −1, 3): r by rank (heaviest first) = (1, 3, 5)/9; by bin (5, 3, 1)/9.
    // Underloaded bins 0, 1 (δ₋ = 2/3, δ₊ = 1/3): ρ = 5/3, 1; overloaded bin 2: ρ = 1/3.
    // k: bin 0 (5/3 − 1)/(1/3) = 2; bin 1 0; bin 2 (1 − 1/3)/(2/3) = 1. k* = 0 at bin 1.
    let tc = process::parse("two-choice").unwrap();
    let b = bias::best_bias(tc.as_ref(), &x, Boundary::Over).unwrap();
    assert_eq!(b.k, Some(Q::zero()));
    assert_eq!(b.witness, Some(1));
}

#[test]
fn absolute_step_rule_needs_integer_loads() {
    // y = (1/4, −1/4) is not on the grid ℤ/2. Ball to bin 1: y' = (−1/4, 1/4), Δ' − Δ = 0.
    // The rule gives −1/2 (bin 0, y > 0) + 0 (bin 1: 2(−1/4) + 1/2) = −1/2.
    let y = vec![q(1, 4), q(-1, 4)];
    assert_eq!(identity::absolute_step_change(&y, 1), q(-1, 2));
    let law = ExactStepLaw::unit(vec![Q::zero(), Q::one()]);
    assert_eq!(
        identity::expected_change_exact(&law, &y, identity::absolute),
        Q::zero()
    );
}

#[test]
fn conditions_reject_bad_input() {
    let x = Loads::new(vec![0.0, 3.0]).unwrap();
    let tw = process::parse("twinning").unwrap();
    let mt = process::parse("mean-thinning").unwrap();
    let one = Q::one();
    let e = bias::probability_bias(tw.as_ref(), &x, Boundary::Over, &one).unwrap_err();
    assert!(e.to_string().contains("probability bias"), "{e}");
    let e = bias::weight_bias(mt.as_ref(), &x, Boundary::Over, &one).unwrap_err();
    assert!(e.to_string().contains("weight bias"), "{e}");
    let e = bias::weight_bias(tw.as_ref(), &x, Boundary::Over, &Q::zero()).unwrap_err();
    assert_eq!(e.to_string(), "invalid k: must be > 0, got 0");
    let law = exact_law(tw.as_ref(), &x);
    assert!(identity::expected_absolute_change(&law, &x.normalized_exact()).is_err());
}

// ---------------------------------------------------------------------------------------------
// The potentials of paper B: Λ, V, δ. Closed forms against the brute-force enumerator.

const B_PROCESSES: &[&str] = &[
    "mean-thinning(boundary=over)",
    "mean-thinning(boundary=under)",
    "twinning(boundary=over)",
    "twinning(boundary=under)",
    "twinning(w_minus=3,w_plus=1)",
    "relative-threshold(f=1)",
    "packing",
    "two-choice",
    "one-choice",
];

const B_POTENTIALS: &[&str] = &[
    "lambda(alpha=0.7)",
    "lambda(alpha=3)",
    "recovery(kappa=2)",
    "mean-quantile(boundary=over)",
    "mean-quantile(boundary=under)",
];

#[test]
fn paper_b_potentials_closed_form_equals_enumeration() {
    use balloc::expectation::{Method, brute_force};
    let mut fixed = Setting::sequential();
    fixed.ties = TieRule::Fixed;
    for pot in B_POTENTIALS {
        let pot = potential::parse(pot).unwrap();
        for proc_ in B_PROCESSES {
            let p = process::parse(proc_).unwrap();
            for x in states().into_iter().filter(|x| x.n() <= 4) {
                for setting in [Setting::sequential(), fixed.clone()] {
                    let e = expect(p.as_ref(), pot.as_ref(), &x, &setting).unwrap();
                    assert_eq!(e.method, Method::ClosedForm);
                    let brute = brute_force(p.as_ref(), pot.as_ref(), &x, &setting).unwrap();
                    let (a, b) = (e.expected_next.ln_abs(), brute.ln_abs());
                    assert!(
                        (a - b).abs() <= 1e-12 * a.abs().max(1.0),
                        "{proc_} {} {x:?}",
                        pot.spec()
                    );
                    // The change, against the enumerated next value minus the value.
                    let ch = brute.add(e.value.scale(-1.0)).to_f64_checked().unwrap();
                    let scale = brute.to_f64_checked().unwrap();
                    assert!(
                        (e.expected_change.to_f64_checked().unwrap() - ch).abs()
                            <= 1e-12 * scale.max(1.0)
                    );
                }
            }
        }
    }
}

#[test]
fn paper_b_potentials_in_batches_use_the_enumerator() {
    use balloc::expectation::{Method, brute_force};
    let x = Loads::new(vec![3.0, 0.0, 1.0]).unwrap();
    for pot in B_POTENTIALS {
        let pot = potential::parse(pot).unwrap();
        let p = process::parse("mean-thinning").unwrap();
        let s = Setting::batched(2).unwrap();
        let e = expect(p.as_ref(), pot.as_ref(), &x, &s).unwrap();
        assert_eq!(e.method, Method::Enumeration);
        assert_eq!(
            e.expected_next,
            brute_force(p.as_ref(), pot.as_ref(), &x, &s).unwrap()
        );
    }
}

/// δ' in exact rationals by enumeration of the exact step law, against the f64 closed form.
#[test]
fn mean_quantile_expectation_is_exact() {
    for boundary in [Boundary::Over, Boundary::Under] {
        let pot =
            potential::parse(&format!("mean-quantile(boundary={})", boundary.name())).unwrap();
        for proc_ in ["mean-thinning", "twinning", "relative-threshold(f=1)"] {
            let p = process::parse(proc_).unwrap();
            for x in states() {
                let law = exact_law(p.as_ref(), &x);
                let y = x.normalized_exact();
                let delta = |y: &[Q]| Sides::from_y(y, boundary).delta_plus();
                let exact = &delta(&y) + identity::expected_change_exact(&law, &y, delta);
                let e = expect(p.as_ref(), pot.as_ref(), &x, &Setting::sequential()).unwrap();
                assert!(
                    (e.expected_next.to_f64_checked().unwrap() - f(&exact)).abs() < 1e-14,
                    "{x:?}"
                );
            }
        }
    }
}

#[test]
fn lambda_is_overflow_safe_and_matches_the_definition() {
    use balloc::expectation::brute_force;
    let pot = potential::parse("lambda(alpha=1)").unwrap();
    let p = process::parse("twinning").unwrap();
    // y = (4000, −2000, −2000): Λ = e^{4000} + 2e^{2000}, far beyond f64.
    let x = Loads::new(vec![6000.0, 0.0, 0.0]).unwrap();
    let e = expect(p.as_ref(), pot.as_ref(), &x, &Setting::sequential()).unwrap();
    assert!((e.value.ln_abs() - 4000.0).abs() < 1e-12);
    // Hand computation: the heavy bin is sampled w.p. 1/3 (one ball: y₀ → 4000 + 2/3) and an
    // underloaded bin w.p. 2/3 (two balls: y₀ → 4000 − 2/3); so E[e^{y₀'}] = e^{4000}(e^{2/3} + 2e^{−2/3})/3
    // and the light bins' terms are e^{−2000}-negligible relative to it.
    let want = 4000.0 + ((2.0f64 / 3.0).exp() + 2.0 * (-2.0f64 / 3.0).exp()).ln() - 3f64.ln();
    assert!(
        (e.expected_next.ln_abs() - want).abs() < 1e-9,
        "{}",
        e.expected_next.ln_abs()
    );
    let brute = brute_force(p.as_ref(), pot.as_ref(), &x, &Setting::sequential()).unwrap();
    assert!((brute.ln_abs() - e.expected_next.ln_abs()).abs() < 1e-12);
}

#[test]
fn paper_b_potentials_reject_bad_parameters() {
    for (spec, msg) in [
        (
            "lambda",
            "invalid parameter `alpha` of `lambda`: is required, e.g. lambda(alpha=0.5)",
        ),
        (
            "lambda(alpha=-1)",
            "invalid alpha: must be a finite number > 0, got -1",
        ),
        (
            "recovery(kappa=0)",
            "invalid kappa: must be a finite number > 0, got 0",
        ),
    ] {
        assert_eq!(potential::parse(spec).unwrap_err().to_string(), msg);
    }
    let e = potential::parse("mean-quantile(boundary=middle)")
        .unwrap_err()
        .to_string();
    assert!(e.contains("boundary") && e.contains("over"), "{e}");
}

/// Mean-Drift(δ), the first attempt of Bansal–Feldheim §1.2, on every state of the box, both
/// boundary rules, δ ∈ {1/4, 1/3, 1/2, 1}: its exact law sums to 1, and with `k₋` underloaded bins
/// (classified here from `n·xᵢ − W`, not by the process) every underloaded bin gets at least
/// `(1 + δ)/n` and every overloaded bin at most `(1 − δ)/n`, one side with equality, wherever
/// `k₋(1 + δ) ≤ n`; elsewhere every underloaded bin gets `1/k₋` (the most the state allows) and
/// the others nothing. The `f64` law is the exact one rounded.
#[test]
fn mean_drift_has_its_drift_wherever_it_is_feasible() {
    let mut feasible = 0;
    let mut infeasible = 0;
    for boundary in [Boundary::Over, Boundary::Under] {
        for (a, b) in [(1, 4), (1, 3), (1, 2), (1, 1)] {
            let delta = Q::new(a.into(), b.into());
            let spec = format!("mean-drift(delta={a}/{b},boundary={})", boundary.name());
            let p = process::parse(&spec).unwrap();
            for x in states() {
                let n = x.n();
                let nq = Q::from_integer((n as i64).into());
                let w: i64 = x.as_slice().iter().map(|v| *v as i64).sum();
                let under: Vec<bool> = x
                    .as_slice()
                    .iter()
                    .map(|v| {
                        let y = n as i64 * (*v as i64) - w;
                        match boundary {
                            Boundary::Over => y < 0,
                            Boundary::Under => y <= 0,
                        }
                    })
                    .collect();
                let ku = under.iter().filter(|u| **u).count();
                let law = exact_law(p.as_ref(), &x);
                let q = law.per_bin_probability();
                assert_eq!(q.iter().cloned().sum::<Q>(), Q::one(), "{spec} at {x:?}");
                let fl = p
                    .step_law(&x, TieRule::Random)
                    .unwrap()
                    .per_bin_probability();
                for (e, v) in q.iter().zip(&fl) {
                    assert!((f(e) - v).abs() <= 1e-15, "{spec} at {x:?}: {e} vs {v}");
                }
                if ku == 0 || ku == n {
                    assert!(q.iter().all(|v| *v == Q::one() / &nq), "{spec} at {x:?}");
                    continue;
                }
                let lo = (Q::one() + &delta) / &nq;
                let hi = (Q::one() - &delta) / &nq;
                let ku_q = Q::from_integer((ku as i64).into());
                if &ku_q * (Q::one() + &delta) <= nq {
                    feasible += 1;
                    let qu: Vec<&Q> = q
                        .iter()
                        .zip(&under)
                        .filter(|(_, u)| **u)
                        .map(|(v, _)| v)
                        .collect();
                    let qo: Vec<&Q> = q
                        .iter()
                        .zip(&under)
                        .filter(|(_, u)| !**u)
                        .map(|(v, _)| v)
                        .collect();
                    assert!(qu.iter().all(|v| **v >= lo), "{spec} at {x:?}: {q:?}");
                    assert!(qo.iter().all(|v| **v <= hi), "{spec} at {x:?}: {q:?}");
                    assert!(
                        qu.iter().any(|v| **v == lo) || qo.iter().any(|v| **v == hi),
                        "{spec} at {x:?}: neither bound is attained: {q:?}"
                    );
                } else {
                    infeasible += 1;
                    for (v, u) in q.iter().zip(&under) {
                        let want = if *u { Q::one() / &ku_q } else { Q::zero() };
                        assert_eq!(*v, want, "{spec} at {x:?}");
                    }
                }
            }
        }
    }
    assert!(
        feasible > 1000 && infeasible > 100,
        "{feasible} {infeasible}"
    );
}

/// Mean-Drift(1) never lets an overloaded sample keep its ball, so the loads stay within one of
/// each other: after every multiple of n balls all loads are equal (final gap 0), and the
/// largest gap over a run is that after the first ball, 1 − 1/n (by hand).
#[test]
fn mean_drift_one_keeps_the_loads_level() {
    use balloc::sim::{Config, Plan, simulate};
    let n = 16;
    let cfg = Config::parse("mean-drift(delta=1)", n, 1, "unit", "random").unwrap();
    let out = simulate(&cfg, &Plan::new(40 * n as u64, 8, 1), &|| {}).unwrap();
    for r in &out.runs {
        assert_eq!(r.final_gap, 0.0);
        assert!(
            (r.max_gap - (1.0 - 1.0 / n as f64)).abs() < 1e-12,
            "{}",
            r.max_gap
        );
    }
}
