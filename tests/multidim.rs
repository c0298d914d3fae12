//! md-balls: laws, loads, rules, potentials and exact expectations, each against a second route.

use balloc::exact::{Int, Q};
use balloc::loads::{Loads, TieRule};
use balloc::multidim::expectation::{
    bin_probabilities, expect, expect_s_chain, expect_s_chain_exact, expected_quadratic_change,
    expected_standard_phi, outcomes, per_dimension_quadratic,
};
use balloc::multidim::potential::standard_sum;
use balloc::multidim::{
    BallLaw, Choice, Criterion, GroupPotential, MdLoads, MdRule, PsiReading, Which,
};
use balloc::potential::{Exponential, Potential, Side};
use num_traits::{One, ToPrimitive, Zero};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn laws() -> Vec<BallLaw> {
    [
        "uniform(dims=4,f=2)",
        "uniform(dims=3,f=1)",
        "skewed(dims=4,f=2,r=3)",
        "skewed(dims=3,f=1,r=1/2)",
        "binomial(dims=3,q=1/3)",
    ]
    .iter()
    .map(|s| BallLaw::parse(s).unwrap())
    .collect()
}

fn rules() -> Vec<MdRule> {
    let mut v = Vec::new();
    for c in ["sum", "max"] {
        for ch in [
            "two-choice",
            "d-choice(d=3)",
            "one-plus-beta(beta=1/2)",
            "one-choice",
        ] {
            for ties in [TieRule::Random, TieRule::Fixed] {
                let mut r = MdRule::parse(c, ch).unwrap();
                r.ties = ties;
                v.push(r);
            }
        }
    }
    v
}

fn random_loads(rng: &mut ChaCha8Rng, n: usize, dims: usize, max: i64) -> MdLoads {
    let rows: Vec<Vec<i64>> = (0..n)
        .map(|_| (0..dims).map(|_| rng.random_range(0..=max)).collect())
        .collect();
    MdLoads::from_rows(&rows).unwrap()
}

#[test]
fn supports_sum_to_one_and_marginals_match_the_closed_form() {
    for law in laws() {
        let s = law.supports_exact().unwrap();
        let total: Q = s.iter().map(|(_, p)| p.clone()).sum();
        assert_eq!(total, Q::one(), "{}", law.spec());
        for a in 0..law.dims() {
            let by_enum: Q = s
                .iter()
                .filter(|(m, _)| m & (1 << a) != 0)
                .map(|(_, p)| p.clone())
                .sum();
            assert_eq!(by_enum, law.marginal(a), "{} dim {a}", law.spec());
        }
        // The law of f from the supports equals f_law().
        for (f, pf) in law.f_law() {
            let by_enum: Q = s
                .iter()
                .filter(|(m, _)| m.count_ones() == f)
                .map(|(_, p)| p.clone())
                .sum();
            assert_eq!(by_enum, pf, "{} f = {f}", law.spec());
        }
    }
}

#[test]
fn samplers_agree_with_the_exact_support_law() {
    for law in laws() {
        let s = law.supports_exact().unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let k = 60_000;
        let mut counts = std::collections::HashMap::new();
        for _ in 0..k {
            *counts.entry(law.sample(&mut rng)).or_insert(0usize) += 1;
        }
        for (m, p) in &s {
            let p = p.to_f64().unwrap();
            let freq = *counts.get(m).unwrap_or(&0) as f64 / k as f64;
            // 5 standard deviations of a binomial proportion.
            let sd = (p * (1.0 - p) / k as f64).sqrt();
            assert!(
                (freq - p).abs() < 5.0 * sd + 1e-4,
                "{} support {m:b}: {freq} vs {p}",
                law.spec()
            );
        }
        assert!(
            counts.keys().all(|m| s.iter().any(|(x, _)| x == m)),
            "{} sampled outside the support",
            law.spec()
        );
    }
}

#[test]
fn sum_load_is_the_sum_of_normalised_loads_and_sums_to_zero() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..20 {
        let x = random_loads(&mut rng, 5, 3, 7);
        let s: Vec<Q> = x.sum_loads();
        for (b, sb) in s.iter().enumerate() {
            let direct: Q = (0..3).map(|a| x.normalised::<Q>(a, b)).sum();
            assert_eq!(&direct, sb);
        }
        assert!(s.iter().cloned().sum::<Q>().is_zero());
        for a in 0..3 {
            let col: Vec<f64> = (0..5).map(|b| x.load(a, b) as f64).collect();
            // gap(a) via the spine's Loads (max − mean).
            assert!((Loads::new(col).unwrap().gap() - x.gaps_f64()[a]).abs() < 1e-12);
        }
    }
}

#[test]
fn rule_samplers_agree_with_exact_bin_probabilities() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    // Loads with ties in both criteria.
    let x =
        MdLoads::from_rows(&[vec![2, 0, 1], vec![0, 2, 1], vec![1, 1, 0], vec![0, 0, 0]]).unwrap();
    for rule in rules() {
        for support in [0b001u64, 0b011, 0b110] {
            let q: Vec<f64> = bin_probabilities(&x, &rule, support).unwrap();
            let k = 40_000;
            let mut counts = [0usize; 4];
            for _ in 0..k {
                counts[rule.choose(&x, support, &mut rng)] += 1;
            }
            for b in 0..4 {
                let freq = counts[b] as f64 / k as f64;
                let sd = (q[b] * (1.0 - q[b]) / k as f64).sqrt();
                assert!(
                    (freq - q[b]).abs() < 5.0 * sd + 1e-4,
                    "{} {:?} S={support:b} bin {b}: {freq} vs {}",
                    rule.label(),
                    rule.ties,
                    q[b]
                );
            }
        }
    }
}

#[test]
fn quadratic_closed_form_equals_brute_force_exactly() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for law in laws() {
        for rule in rules() {
            for n in [1usize, 2, 3, 5] {
                let x = random_loads(&mut rng, n, law.dims() as usize, 3);
                let before: Q = per_dimension_quadratic(&x);
                let brute: Q =
                    expect(&x, &law, &rule, per_dimension_quadratic::<Q>).unwrap() - before;
                let closed: Q = expected_quadratic_change(&x, &law, &rule).unwrap();
                assert_eq!(brute, closed, "{} {} n={n}", law.spec(), rule.label());
                let total: Q = outcomes::<Q>(&x, &law, &rule)
                    .unwrap()
                    .into_iter()
                    .map(|o| o.2)
                    .sum();
                assert_eq!(total, Q::one());
            }
        }
    }
}

#[test]
fn quadratic_from_zero_by_hand() {
    // From zero loads, any rule: ΔΥ_md = Σ_{a∈S}(1 − 1/n) = f(1 − 1/n). n = 4, f = 2: 3/2.
    let x = MdLoads::new(4, 4).unwrap();
    let law = BallLaw::parse("uniform(dims=4,f=2)").unwrap();
    for rule in rules() {
        let e: Q = expected_quadratic_change(&x, &law, &rule).unwrap();
        assert_eq!(e, Q::new(Int::from(3), Int::from(2)));
    }
}

#[test]
fn md_process_projects_onto_the_sum_chain() {
    // For the sum rule with fixed f, E[F(s(x'))] over (support, bin) equals the sum-chain
    // expectation with weight f (two routes), for F = max s and F = Σ s² (exact).
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for law in [
        BallLaw::parse("uniform(dims=4,f=2)").unwrap(),
        BallLaw::parse("skewed(dims=3,f=1,r=2)").unwrap(),
        BallLaw::parse("binomial(dims=3,q=1/2)").unwrap(),
    ] {
        for ch in ["two-choice", "one-plus-beta(beta=1/3)"] {
            let rule = MdRule::parse("sum", ch).unwrap();
            let p: Vec<Q> = balloc::process::parse(ch)
                .unwrap()
                .rank_probabilities_exact(4)
                .unwrap()
                .unwrap();
            let f_law: Vec<(Q, Q)> = law
                .f_law()
                .into_iter()
                .map(|(f, pf)| (Q::from_integer(Int::from(f)), pf))
                .collect();
            for _ in 0..10 {
                let x = random_loads(&mut rng, 4, law.dims() as usize, 3);
                let s: Vec<Q> = x.sum_loads();
                let q2 = |v: &[Q]| v.iter().map(|a| a * a).sum::<Q>();
                let a = expect(&x, &law, &rule, |y| q2(&y.sum_loads::<Q>())).unwrap();
                let b = expect_s_chain_exact(&s, &p, TieRule::Random, &f_law, q2).unwrap();
                assert_eq!(a, b);
                let mx = |v: &[Q]| {
                    v.iter()
                        .cloned()
                        .fold(v[0].clone(), |m, z| if z > m { z } else { m })
                };
                let a = expect(&x, &law, &rule, |y| mx(&y.sum_loads::<Q>())).unwrap();
                let b = expect_s_chain_exact(&s, &p, TieRule::Random, &f_law, mx).unwrap();
                assert_eq!(a, b);
            }
        }
    }
}

#[test]
fn standard_phi_closed_form_equals_the_enumeration_and_the_spine() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for n in [2usize, 3, 6] {
        let p = balloc::process::parse("two-choice")
            .unwrap()
            .rank_probabilities(n)
            .unwrap()
            .unwrap();
        for _ in 0..10 {
            let l: Vec<f64> = (0..n).map(|_| rng.random_range(0..6) as f64).collect();
            let m = l.iter().sum::<f64>() / n as f64;
            let s: Vec<f64> = l.iter().map(|v| v - m).collect();
            for (f, alpha) in [(1.0, 0.3), (2.0, 0.1)] {
                let phi = Exponential::new(Side::Phi, alpha).unwrap();
                let brute = expect_s_chain(&s, &p, TieRule::Random, &[(f, 1.0)], |v| {
                    phi.value(&Loads::new(v.to_vec()).unwrap())
                })
                .unwrap();
                let closed = expected_standard_phi(&s, &p, TieRule::Random, &[(f, 1.0)], alpha);
                let (a, b) = (
                    brute.to_f64_checked().unwrap(),
                    closed.to_f64_checked().unwrap(),
                );
                assert!((a - b).abs() < 1e-12 * a, "{a} vs {b}");
            }
        }
    }
    // standard_sum goes through the spine's Φ of the raw sums: check by hand, s = (1, −1), α = 1.
    let x = MdLoads::from_rows(&[vec![2, 0], vec![0, 0]]).unwrap();
    let v = standard_sum(&x, Side::Phi, 1.0)
        .unwrap()
        .to_f64_checked()
        .unwrap();
    assert!((v - (1f64.exp() + (-1f64).exp())).abs() < 1e-12);
}

#[test]
fn tie_rule_does_not_change_group_potential_expectations() {
    let p = balloc::process::parse("two-choice")
        .unwrap()
        .rank_probabilities(6)
        .unwrap()
        .unwrap();
    let s = [2.0, 2.0, 0.0, 0.0, -2.0, -2.0];
    for which in [Which::Phi, Which::Psi, Which::Gamma] {
        for rd in PsiReading::ALL {
            let g = GroupPotential::new(which, 0.2, rd).unwrap();
            let a = expect_s_chain(&s, &p, TieRule::Random, &[(1.0, 1.0)], |v| g.value(v)).unwrap();
            let b = expect_s_chain(&s, &p, TieRule::Fixed, &[(1.0, 1.0)], |v| g.value(v)).unwrap();
            assert!((a.ln_abs() - b.ln_abs()).abs() < 1e-13);
        }
    }
}

#[test]
fn group_potentials_by_groups_by_ranks_and_by_hand() {
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    for _ in 0..50 {
        let s: Vec<f64> = (0..7).map(|_| rng.random_range(-3..=3) as f64).collect();
        for which in [Which::Phi, Which::Psi, Which::Gamma] {
            for rd in PsiReading::ALL {
                let g = GroupPotential::new(which, 0.7, rd).unwrap();
                let (a, b) = (
                    g.value(&s).to_f64_checked().unwrap(),
                    g.value_by_groups(&s).to_f64_checked().unwrap(),
                );
                assert!((a - b).abs() < 1e-12 * a);
            }
        }
    }
    // By hand: s = (1, 0, −1), α = ln 2: Φ = 2/1 + 1/2 + (1/2)/3 = 8/3;
    // Ψ printed = (1/2)/1 + 1/2 + 2/3 = 5/3; Ψ mirrored = (1/2)/3 + 1/2 + 2/1 = 8/3.
    let a = 2f64.ln();
    let v = |w, rd| {
        GroupPotential::new(w, a, rd)
            .unwrap()
            .value(&[0.0, 1.0, -1.0])
            .to_f64_checked()
            .unwrap()
    };
    assert!((v(Which::Phi, PsiReading::Printed) - 8.0 / 3.0).abs() < 1e-14);
    assert!((v(Which::Psi, PsiReading::Printed) - 5.0 / 3.0).abs() < 1e-14);
    assert!((v(Which::Psi, PsiReading::Mirrored) - 8.0 / 3.0).abs() < 1e-14);
}

#[test]
fn group_potentials_do_not_overflow() {
    // s = (10⁶, 0, −10⁶), α = 1: ln Φ = 10⁶ (the top term, weight 1), ln Ψ = 10⁶ − ln 3 (printed).
    let s = [1e6, 0.0, -1e6];
    let phi = GroupPotential::new(Which::Phi, 1.0, PsiReading::Printed)
        .unwrap()
        .value(&s);
    let psi = GroupPotential::new(Which::Psi, 1.0, PsiReading::Printed)
        .unwrap()
        .value(&s);
    assert_eq!(phi.to_f64_checked(), None);
    assert!((phi.ln_abs() - 1e6).abs() < 1e-9);
    assert!((psi.ln_abs() - (1e6 - 3f64.ln())).abs() < 1e-9);
    let e = expect_s_chain(
        &s,
        &[1.0 / 9.0, 3.0 / 9.0, 5.0 / 9.0],
        TieRule::Random,
        &[(1.0, 1.0)],
        |v| {
            GroupPotential::new(Which::Gamma, 1.0, PsiReading::Printed)
                .unwrap()
                .value(v)
        },
    )
    .unwrap();
    assert!(e.ln_abs().is_finite());
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    assert!(BallLaw::parse("uniform(dims=0,f=1)").is_err());
    assert!(BallLaw::parse("uniform(dims=65,f=1)").is_err());
    assert!(BallLaw::parse("uniform(dims=4)").is_err());
    assert!(BallLaw::parse("binomial(dims=4,q=0)").is_err());
    assert!(BallLaw::parse("binomial(dims=4,q=1.5)").is_err());
    assert!(BallLaw::parse("skewed(dims=4,f=4,r=2)").is_err());
    assert!(BallLaw::parse("skewed(dims=4,f=2,r=-1)").is_err());
    assert!(BallLaw::parse("uniform(dims=4,f=2,g=1)").is_err());
    assert!(
        BallLaw::parse("uniform(dims=40,f=20)")
            .unwrap()
            .supports_exact()
            .is_err()
    );
    assert!(Choice::parse("packing").is_err());
    assert!(Criterion::parse("avg").is_err());
    assert!(GroupPotential::new(Which::Phi, f64::NAN, PsiReading::Printed).is_err());
    assert!(GroupPotential::new(Which::Phi, 0.0, PsiReading::Printed).is_err());
    let x = MdLoads::new(3, 2).unwrap();
    let law = BallLaw::parse("uniform(dims=3,f=1)").unwrap();
    let rule = MdRule::parse("sum", "two-choice").unwrap();
    assert!(expected_quadratic_change::<f64>(&x, &law, &rule).is_err());
    assert!(balloc::multidim::claims::corollary_1(&[f64::NAN, 0.0], &[0.5, 0.5], 1, 0.1).is_err());
    assert!(balloc::multidim::claims::corollary_1(&[0.0, 0.0], &[1.0], 1, 0.1).is_err());
    let _ = Int::one();
}
