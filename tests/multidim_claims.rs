//! The checkable items of Narang–Dutta–Bhattacherjee (arXiv:1111.0762, §3) against the recorded
//! statuses of `src/multidim/CHECKS.md`. Every refutation is pinned by a concrete state whose
//! expectation is recomputed by a second route (the md-level enumeration over supports and bins,
//! or a hand computation written out in the comment).

use balloc::multidim::claims::*;
use balloc::multidim::expectation::expect;
use balloc::multidim::search::*;
use balloc::multidim::{BallLaw, GroupPotential, MdLoads, MdRule, PsiReading, Which};
use balloc::process;
use balloc::spec::parse_ratio;

fn p2(n: usize) -> Vec<f64> {
    process::parse("two-choice")
        .unwrap()
        .rank_probabilities(n)
        .unwrap()
        .unwrap()
}

/// The searched space for fixed `f`: all reachable states with n ≤ 6 bins and ≤ 4 balls above the
/// lightest bin, plus F1–F7 and 40 seeded random states at n ∈ {8, 16, 32}.
fn space(f: u32, g1: f64) -> Vec<Vec<f64>> {
    let mut v = Vec::new();
    for n in 2..=6 {
        v.extend(reachable_exhaustive(n, 4, f));
    }
    for n in [8, 16, 32] {
        v.extend(families(n, f, g1));
        v.extend(random_states(n, f, 40, 10, 2011));
    }
    v
}

/// (f, ε, γ₁) grid of the searches.
fn grid() -> Vec<Constants> {
    let mut g = Vec::new();
    for f in [1, 2] {
        for eps in [0.125, 0.25] {
            for g1 in [0.25, 1.0 / 3.0] {
                g.push(Constants::new(eps, g1, f).unwrap());
            }
        }
    }
    g
}

/// `E[P(s(x')) | x]` by the md-level enumeration (f = 1, D = 1: the md process with one dimension),
/// for integer ball counts `b`: a second route to `claims::expected_next`.
fn md_route(b: &[i64], pot: GroupPotential) -> f64 {
    let x = MdLoads::from_rows(&b.iter().map(|&v| vec![v]).collect::<Vec<_>>()).unwrap();
    let law = BallLaw::parse("uniform(dims=1,f=1)").unwrap();
    let rule = MdRule::parse("sum", "two-choice").unwrap();
    expect::<f64>(&x, &law, &rule, |y| {
        pot.value(&y.sum_loads::<f64>()).to_f64_checked().unwrap()
    })
    .unwrap()
}

fn centred(b: &[i64]) -> Vec<f64> {
    let m = b.iter().sum::<i64>() as f64 / b.len() as f64;
    b.iter().map(|&v| v as f64 - m).collect()
}

#[test]
fn gamma_at_zero_is_2_h_n_not_2_ln_n() {
    for n in 1..=64usize {
        let g = gamma_at_zero(n).unwrap();
        // Second route: the float group potential at s ≡ 0 under both readings.
        for rd in PsiReading::ALL {
            let v = GroupPotential::new(Which::Gamma, 0.1, rd)
                .unwrap()
                .value(&vec![0.0; n]);
            assert!((v.to_f64_checked().unwrap() - g.value).abs() < 1e-12 * g.value);
        }
        // H_n ≥ ln(n + 1) > ln n (integral comparison), so the printed equality fails for every n.
        assert!(g.value >= 2.0 * ((n + 1) as f64).ln());
        assert!(!g.holds, "n = {n}");
    }
    // Asymptotically Γ(0) ~ 2 ln n: the ratio falls towards 1 (2H_n − 2 ln n → 2γ_E ≈ 1.154).
    // H_n − ln n − γ_E = 1/(2n) + O(n⁻²): at n = 1000 the difference is 2γ_E + 0.001.
    let g = gamma_at_zero(1000).unwrap();
    assert!((g.value - g.claimed - 2.0 * 0.5772156649 - 0.001).abs() < 1e-6);
    assert!(g.ratio < 1.1);
}

#[test]
fn mass_facts_hold_exactly_for_d_choice_on_the_grid() {
    let gammas = ["1/10", "1/4", "1/3", "2/5", "49/100"];
    for d in [2u32, 3] {
        let proc_ = process::parse(&format!("d-choice(d={d})")).unwrap();
        for n in 1..=64 {
            let p = proc_.rank_probabilities_exact(n).unwrap().unwrap();
            for g in gammas {
                let m = mass_facts(&p, &parse_ratio(g).unwrap()).unwrap();
                assert!(
                    m.prefix_holds && m.suffix_holds,
                    "d={d} n={n} γ₁={g}: {m:?}"
                );
            }
        }
    }
    // Hand check, n = 10, γ₁ = 1/3: k₁ = 3, (3/10)² = 9/100 ≤ 1/9; k₂ = ⌈20/3⌉ = 7,
    // 1 − (6/10)² = 16/25 ≥ 1 − 4/9 = 5/9.
    let p = process::parse("two-choice")
        .unwrap()
        .rank_probabilities_exact(10)
        .unwrap()
        .unwrap();
    let m = mass_facts(&p, &parse_ratio("1/3").unwrap()).unwrap();
    assert_eq!(
        (m.k1, m.prefix.as_str(), m.k2, m.suffix.as_str()),
        (3, "9/100", 7, "16/25")
    );
}

#[test]
fn mass_facts_are_specific_to_d_2_one_plus_beta_fails_the_prefix_fact() {
    // Not a claim of the paper (it states them for d = 2); recorded to show the check can fail:
    // (1+β) with β = 1/2, n = 4, γ₁ = 1/4: k₁ = 1, p₁ = 1/8 + 1/32 = 5/32 > 1/16.
    let p = process::parse("one-plus-beta(beta=1/2)")
        .unwrap()
        .rank_probabilities_exact(4)
        .unwrap()
        .unwrap();
    let m = mass_facts(&p, &parse_ratio("1/4").unwrap()).unwrap();
    assert_eq!(m.prefix, "5/32");
    assert!(!m.prefix_holds);
}

#[test]
fn delta_i_is_exact_on_reachable_states_of_the_fixed_f_chain() {
    for f in [1u32, 2, 3] {
        for n in 2..=6 {
            for s in reachable_exhaustive(n, 4, f) {
                for i in 0..n {
                    for (w, rd) in [
                        (Which::Phi, PsiReading::Printed),
                        (Which::Psi, PsiReading::Printed),
                        (Which::Psi, PsiReading::Mirrored),
                    ] {
                        let pot = GroupPotential::new(w, 0.125 / f as f64, rd).unwrap();
                        assert!(delta_i(&s, f, i, pot).unwrap().holds, "f={f} s={s:?} i={i}");
                    }
                }
            }
        }
    }
}

#[test]
fn delta_i_fails_when_the_bin_overtakes_its_previous_group() {
    // f = 2, s = (½, −½) (raw sums L = (1, 0): not reachable with f = 2, reachable with random f).
    // Bin 1 (s = −½) gets the ball: s' = (½ − 1, −½ + 1) = (−½, ½), the same sorted state, so the
    // exact change is 0. The formula gives e^{−α/2}e^{−α}(e^{2α} − 1)/2 + (e^{−α} − 1)Φ ≠ 0.
    let a = 0.0625;
    let pot = GroupPotential::new(Which::Phi, a, PsiReading::Printed).unwrap();
    let d = delta_i(&[0.5, -0.5], 2, 1, pot).unwrap();
    assert_eq!(d.exact.to_f64_checked().unwrap(), 0.0);
    let phi = (a * 0.5f64).exp() + (-a * 0.5f64).exp() / 2.0;
    let formula = (-a * 0.5 - a).exp() * (2.0 * a).exp_m1() / 2.0 + (-a).exp_m1() * phi;
    assert!((d.formula.to_f64_checked().unwrap() - formula).abs() < 1e-15);
    assert!(!d.holds);
}

#[test]
fn eq_3_16_corollary_1_and_lemma_3_5_fail_at_the_all_zero_state() {
    // s ≡ 0, n = 4, Two-Choice, f = 1, ε = 1/4, α = 1/8. Whatever bin gets the ball becomes the
    // unique heaviest (weight 1): E[Φ'] = e^{α(1 − 1/4)} + e^{−α/4}(H₄ − 1) = 2.14834…, while
    // Φ = H₄ = 25/12 = 2.08333…
    let (n, a) = (4usize, 0.125f64);
    let s = vec![0.0; n];
    let h4 = 25.0 / 12.0;
    let e_next = (a * 0.75).exp() + (-a / 4.0).exp() * (h4 - 1.0);
    let phi = GroupPotential::new(Which::Phi, a, PsiReading::Printed).unwrap();
    assert!((md_route(&[0, 0, 0, 0], phi) - e_next).abs() < 1e-13);
    // Cor. 1: (1 + (αf)²/n)Φ = (1 + 1/256)·25/12 = 2.09147… < 2.14834…
    let c1 = corollary_1(&s, &p2(n), 1, a).unwrap();
    assert!(!c1.holds && (c1.lhs.to_f64_checked().unwrap() - e_next).abs() < 1e-13);
    // Eq. (3.16): RHS = (α + α²)Σ p_i/i − (α/n)Φ = 0.140625·(1/16 + 3/32 + 5/48 + 7/64) − 25/384
    // = −0.0134…, while E[ΔΦ] = 0.0650… > 0.
    let rhs = 0.140625 * (1.0 / 16.0 + 3.0 / 32.0 + 5.0 / 48.0 + 7.0 / 64.0) - a / 4.0 * h4;
    let e = eq_3_16(&s, &p2(n), 1, a).unwrap();
    assert!(!e.holds && (e.rhs.to_f64_checked().unwrap() - rhs).abs() < 1e-13);
    // Lemma 3.5 (decrease): s_(3) = 0 ≤ 0 and E[Φ'] > Φ.
    let c = Constants::new(0.25, 0.25, 1).unwrap();
    let l = lemma_3_5(&s, &p2(n), &c, LemmaForm::Decrease).unwrap();
    assert!(l.applicable && !l.holds);
}

#[test]
fn lemma_3_5_ptw_shape_fails_at_a_two_level_state() {
    // b = (200, 200, 0), f = 1, ε = 1/4, γ₁ = 1/4: s = (200/3, 200/3, −400/3), s_(⌈3·3/4⌉) = s_(3) < 0.
    let c = Constants::new(0.25, 0.25, 1).unwrap();
    let b = [200, 200, 0];
    let s = centred(&b);
    let l = lemma_3_5(&s, &p2(3), &c, LemmaForm::PtwShape).unwrap();
    assert!(l.applicable && !l.holds, "{l:?}");
    let phi = GroupPotential::new(Which::Phi, c.alpha(), PsiReading::Printed).unwrap();
    let route2 = md_route(&b, phi);
    assert!((route2 - l.lhs.to_f64_checked().unwrap()).abs() < 1e-9 * route2);
    assert!(
        route2 > (1.0 - c.alpha() * c.eps / 3.0) * phi.value(&s).to_f64_checked().unwrap() + 1.0
    );
}

#[test]
fn lemma_3_6_decrease_fails_and_the_mirrored_ptw_shape_fails() {
    let c = Constants::new(0.25, 0.25, 1).unwrap();
    // Printed Ψ, s = (½, −½) (b = (1, 0)), n = 2: s_(1) ≥ 0. E[Ψ'] > Ψ.
    let l = lemma_3_6(
        &[0.5, -0.5],
        &p2(2),
        &c,
        PsiReading::Printed,
        LemmaForm::Decrease,
    )
    .unwrap();
    assert!(l.applicable && !l.holds);
    let psi = GroupPotential::new(Which::Psi, c.alpha(), PsiReading::Printed).unwrap();
    assert!(md_route(&[1, 0], psi) > psi.value(&[0.5, -0.5]).to_f64_checked().unwrap());
    // Mirrored Ψ, PTW shape: b = (100, 0, 0), s = (200/3, −100/3, −100/3).
    let b = [100, 0, 0];
    let s = centred(&b);
    let l = lemma_3_6(&s, &p2(3), &c, PsiReading::Mirrored, LemmaForm::PtwShape).unwrap();
    assert!(l.applicable && !l.holds, "{l:?}");
    let psi = GroupPotential::new(Which::Psi, c.alpha(), PsiReading::Mirrored).unwrap();
    let route2 = md_route(&b, psi);
    assert!(
        route2 > (1.0 - c.alpha() * c.eps / 3.0) * psi.value(&s).to_f64_checked().unwrap() + 1.0
    );
}

#[test]
fn contraction_fails_for_a_up_to_64_under_both_readings() {
    let c = Constants::new(0.25, 0.25, 1).unwrap();
    // (a, reading, ball counts): found by the exhaustive/family search; margins −7e−4 … −4e−3.
    let cases: [(f64, PsiReading, Vec<i64>); 4] = [
        (8.0, PsiReading::Printed, vec![33, 33, 33, 0]),
        (8.0, PsiReading::Mirrored, vec![21, 21, 0, 0]),
        (
            64.0,
            PsiReading::Printed,
            vec![100, 100, 100, 100, 0, 0, 0, 0],
        ),
        (64.0, PsiReading::Mirrored, vec![60, 60, 60, 30, 30, 0, 0]),
    ];
    for (a, rd, b) in cases {
        let s = centred(&b);
        let n = b.len();
        let k = contraction(&s, &p2(n), &c, a, rd).unwrap();
        assert!(k.applicable && !k.holds, "a={a} {} {b:?}: {k:?}", rd.name());
        let g = GroupPotential::new(Which::Gamma, c.alpha(), rd).unwrap();
        let gamma = g.value(&s).to_f64_checked().unwrap();
        assert!(gamma >= a * (n as f64).ln());
        let route2 = md_route(&b, g);
        let factor = 1.0 - c.eps / (8.0 * n as f64 * (1.0 + c.eps * c.gamma1));
        assert!(route2 > factor * gamma, "a={a} {b:?}");
    }
}

#[test]
fn searches_match_the_recorded_statuses() {
    for c in grid() {
        let sp = space(c.f, c.gamma1);
        let a = c.alpha();
        let f = c.f;
        let run = |chk: &dyn Fn(&[f64]) -> balloc::Result<Check>| search(&sp, chk).unwrap();
        // Refuted (pinned above).
        assert!(!run(&|s| corollary_1(s, &p2(s.len()), f, a)).holds());
        assert!(!run(&|s| eq_3_16(s, &p2(s.len()), f, a)).holds());
        assert!(!run(&|s| lemma_3_5(s, &p2(s.len()), &c, LemmaForm::Decrease)).holds());
        assert!(!run(&|s| lemma_3_5(s, &p2(s.len()), &c, LemmaForm::PtwShape)).holds());
        for rd in PsiReading::ALL {
            assert!(!run(&|s| lemma_3_6(s, &p2(s.len()), &c, rd, LemmaForm::Decrease)).holds());
            assert!(!run(&|s| contraction(s, &p2(s.len()), &c, 8.0, rd)).holds());
            // Holds on the searched space: Cor. 2 even with c = 0.
            let r = run(&|s| corollary_2(s, &p2(s.len()), f, a, rd, 0.0));
            assert!(r.holds(), "cor2 {} {c:?}: {r:?}", rd.name());
        }
        assert!(
            !run(&|s| lemma_3_6(
                s,
                &p2(s.len()),
                &c,
                PsiReading::Mirrored,
                LemmaForm::PtwShape
            ))
            .holds()
        );
        // Holds on the searched space: Lemma 3.6, printed Ψ, PTW shape.
        let r = run(&|s| {
            lemma_3_6(
                s,
                &p2(s.len()),
                &c,
                PsiReading::Printed,
                LemmaForm::PtwShape,
            )
        });
        assert!(r.holds() && r.applicable > 500, "{c:?}: {r:?}");
    }
}

#[test]
fn corollary_1_holds_on_strictly_ordered_searched_states() {
    // The failures of Cor. 1 come from ties (the moved bin jumps to the front of its group). On
    // the strictly ordered states of the searched space none was found.
    for c in grid() {
        let sp: Vec<Vec<f64>> = space(c.f, c.gamma1)
            .into_iter()
            .filter(|s| {
                let v = balloc::multidim::potential::sorted_desc(s);
                v.windows(2).all(|w| w[0] != w[1])
            })
            .collect();
        assert!(sp.len() > 30);
        let r = search(&sp, |s| corollary_1(s, &p2(s.len()), c.f, c.alpha())).unwrap();
        assert!(r.holds(), "{c:?}: {r:?}");
    }
}

#[test]
fn corollary_2_constant_is_consistent_with_the_check() {
    let s = centred(&[5, 3, 3, 0, 0]);
    let (a, f) = (0.125, 1);
    for rd in PsiReading::ALL {
        let c = corollary_2_constant(&s, &p2(5), f, a, rd).unwrap();
        assert!(corollary_2(&s, &p2(5), f, a, rd, c + 1e-6).unwrap().holds);
        assert!(!corollary_2(&s, &p2(5), f, a, rd, c - 1e-3).unwrap().holds);
    }
}
