//! Algebraic laws of the core types as quickcheck properties, on the `Arbitrary`
//! impls of `balloc::arbitrary` (crate feature `arbitrary`, enabled for the tests). The generator
//! is seeded, so every run checks the same cases.

use balloc::arbitrary::AllocationVector;
use balloc::condition::{best_c, best_eps, c1_violation, c2_violation};
use balloc::exact::{Int, Q};
use balloc::expectation::expect;
use balloc::loads::{Loads, TieRule};
use balloc::setting::Setting;
use balloc::weights::WeightLaw;
use balloc::{potential, process};
use num_traits::ToPrimitive;
use quickcheck::{Gen, QuickCheck, Testable};

fn check<A: Testable>(seed: u64, f: A) {
    QuickCheck::new()
        .rng(Gen::from_size_and_seed(20, seed))
        .tests(400)
        .quickcheck(f);
}

/// A permutation of `0..n` from a seed (Fisher–Yates with a linear congruential stream).
fn permutation(n: usize, mut seed: u64) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        p.swap(i, ((seed >> 33) % (i as u64 + 1)) as usize);
    }
    p
}

#[test]
fn normalisation_sums_to_zero() {
    fn prop(x: Loads) -> bool {
        let y = x.normalized();
        let scale: f64 = x.as_slice().iter().map(|v| v.abs()).fold(1.0, f64::max);
        // n roundings of size ≤ ε·scale each.
        y.iter().sum::<f64>().abs() <= 4.0 * x.n() as f64 * f64::EPSILON * scale
    }
    check(1, prop as fn(Loads) -> bool);
}

#[test]
fn ranking_is_heaviest_first_with_ties_by_index() {
    fn prop(x: Loads) -> bool {
        let xs = x.as_slice();
        let r = x.ranking();
        // The reference: a stable sort of the indices by load, descending.
        let mut reference: Vec<usize> = (0..x.n()).collect();
        reference.sort_by(|&a, &b| xs[b].partial_cmp(&xs[a]).unwrap());
        let groups_ok = r.groups.iter().all(|g| {
            g.clone().all(|k| xs[r.order[k]] == xs[r.order[g.start]])
                && (g.end == x.n() || xs[r.order[g.end]] < xs[r.order[g.start]])
        });
        let group_of_ok = (0..x.n()).all(|k| r.groups[r.group_of[k]].contains(&k));
        r.order == reference && groups_ok && group_of_ok
    }
    check(2, prop as fn(Loads) -> bool);
}

#[test]
fn potentials_are_invariant_under_permuting_bins() {
    fn prop(x: Loads, seed: u64) -> bool {
        let perm = permutation(x.n(), seed);
        let px = Loads::new(perm.iter().map(|&i| x.as_slice()[i]).collect()).unwrap();
        let p = process::parse("two-choice").unwrap();
        let s = Setting::sequential();
        potential::REGISTRY.iter().all(|info| {
            let q = potential::parse(info.example).unwrap();
            let (a, b) = (q.value(&x), q.value(&px));
            let values = (a.ln_abs() - b.ln_abs()).abs() <= 1e-12 * a.ln_abs().abs().max(1.0)
                || (a.to_f64_checked() == Some(0.0) && b.to_f64_checked().unwrap().abs() < 1e-9);
            // Under random ties, E[P'] is a function of the multiset of loads too.
            let (ea, eb) = (
                expect(p.as_ref(), q.as_ref(), &x, &s)
                    .unwrap()
                    .expected_next,
                expect(p.as_ref(), q.as_ref(), &px, &s)
                    .unwrap()
                    .expected_next,
            );
            let expectations = (ea.ln_abs() - eb.ln_abs()).abs()
                <= 1e-12 * ea.ln_abs().abs().max(1.0)
                || (ea.to_f64_checked().unwrap().abs() < 1e-9
                    && eb.to_f64_checked().unwrap().abs() < 1e-9);
            values && expectations
        })
    }
    check(3, prop as fn(Loads, u64) -> bool);
}

#[test]
fn gamma_is_at_least_2n_and_phi_psi_at_least_n_squared() {
    fn prop(x: Loads, a: u8) -> bool {
        let alpha = 0.05 * (1 + a % 40) as f64;
        let n = x.n() as f64;
        let g = potential::parse(&format!("gamma(alpha={alpha})")).unwrap();
        let phi = potential::parse(&format!("phi(alpha={alpha})")).unwrap();
        let psi = potential::parse(&format!("psi(alpha={alpha})")).unwrap();
        // Γ = Σ 2cosh(α yᵢ) ≥ 2n; Φ·Ψ ≥ n² by Cauchy–Schwarz (Σ e^{αy})(Σ e^{−αy}) ≥ (Σ 1)².
        g.value(&x).ln_abs() >= (2.0 * n).ln() - 1e-12
            && phi.value(&x).ln_abs() + psi.value(&x).ln_abs() >= 2.0 * n.ln() - 1e-12
    }
    check(4, prop as fn(Loads, u8) -> bool);
}

#[test]
fn best_constants_are_consistent_with_the_violation_checks() {
    fn prop(p: AllocationVector, d: u8) -> bool {
        let n = p.n();
        let k = 1 + (d as usize) % (n - 1); // δn ∈ 1..n
        let exact = p.exact();
        let tiny = Q::new(Int::from(1), Int::from(10u64.pow(12)));
        let b = best_eps(&exact, k).unwrap();
        // ε* passes, ε* + tiny fails.
        let c1 = c1_violation(&exact, k, &b.eps).is_none()
            && c1_violation(&exact, k, &(b.eps.clone() + tiny.clone())).is_some();
        let c = best_c(&exact);
        let c2 = c2_violation(&exact, &c.c).is_none()
            && c2_violation(&exact, &(c.c.clone() - tiny)) == Some(c.witness_i);
        // f64 and exact agree.
        let bf = best_eps(&p.to_f64(), k).unwrap();
        let agree = (bf.eps - b.eps.to_f64().unwrap()).abs() < 1e-12
            && (best_c(&p.to_f64()).c - c.c.to_f64().unwrap()).abs() < 1e-12;
        c1 && c2 && agree
    }
    check(5, prop as fn(AllocationVector, u8) -> bool);
}

/// `M'(0)` and `M''(0)` by central differences of `M − 1` (an independent route to the moments).
fn moments_from_mgf(w: &WeightLaw) -> (f64, f64) {
    let h = 1e-4 / w.mean().max(1.0);
    let (up, down) = (w.mgf_m1(h).unwrap(), w.mgf_m1(-h).unwrap());
    ((up - down) / (2.0 * h), (up + down) / (h * h))
}

#[test]
fn weight_laws_moments_and_mgf() {
    fn prop(w: WeightLaw) -> bool {
        let m0 = w.mgf(0.0).unwrap() == 1.0;
        let (m1, m2) = moments_from_mgf(&w);
        let from_mgf = (m1 - w.mean()).abs() <= 1e-6 * w.mean().max(1.0)
            && (m2 - w.second_moment()).abs() <= 1e-4 * w.second_moment().max(1.0);
        let from_support = match w.support() {
            Some(s) => {
                let mean: f64 = s.iter().map(|(v, p)| v * p).sum();
                let second: f64 = s.iter().map(|(v, p)| v * v * p).sum();
                let total: f64 = s.iter().map(|(_, p)| p).sum();
                (mean - w.mean()).abs() < 1e-12
                    && (second - w.second_moment()).abs() < 1e-12
                    && (total - 1.0).abs() < 1e-12
            }
            None => true,
        };
        // The domain: just inside it the MGF is a finite number, at the limit it is an error.
        let lim = w.mgf_limit();
        let domain = !lim.is_finite()
            || (w.mgf(lim * (1.0 - 1e-9)).is_ok_and(f64::is_finite) && w.mgf(lim).is_err());
        m0 && from_mgf && from_support && domain
    }
    check(6, prop as fn(WeightLaw) -> bool);
}

/// `E[(a + tW)⁺]` by a direct sum: the support of a finite law, or the series of a geometric law
/// truncated where the tail is below 1e-18.
fn positive_part_direct(w: &WeightLaw, a: f64, t: f64) -> Option<f64> {
    match w {
        WeightLaw::Geometric { start, q } => {
            let r = 1.0 - q;
            let mut s = 0.0;
            let mut pk = *q;
            let mut k = 0u32;
            while pk > 1e-18 * q || k < 10 {
                s += pk * (a + t * (*start + k) as f64).max(0.0);
                pk *= r;
                k += 1;
            }
            Some(s)
        }
        _ => w
            .support()
            .map(|s| s.iter().map(|(v, p)| p * (a + t * v).max(0.0)).sum()),
    }
}

#[test]
fn positive_parts_match_direct_sums_and_the_sign_identity() {
    fn prop(w: WeightLaw, a: i8, t: i8) -> bool {
        let (a, t) = (a as f64 / 8.0, t as f64 / 16.0);
        let v = w.positive_part(a, t);
        let direct = positive_part_direct(&w, a, t)
            .is_none_or(|d| (v - d).abs() <= 1e-12 * d.abs().max(1.0));
        // x⁺ − (−x)⁺ = x, so E[(a + tW)⁺] − E[(−a − tW)⁺] = a + t·E[W] (every law, including
        // the closed forms for exponential and geometric weights with either sign of t).
        let identity = (v - w.positive_part(-a, -t) - (a + t * w.mean())).abs()
            <= 1e-12 * (a.abs() + t.abs() * w.mean()).max(1.0);
        v >= 0.0 && direct && identity
    }
    check(7, prop as fn(WeightLaw, i8, i8) -> bool);
}

#[test]
fn tie_rules_give_distributions_with_the_same_group_totals() {
    fn prop(x: Loads, ties: TieRule) -> bool {
        let r = x.ranking();
        let p = process::parse("two-choice")
            .unwrap()
            .rank_probabilities(x.n())
            .unwrap()
            .unwrap();
        let per_bin = r.per_bin(&p, ties);
        // Every tied group receives the total of its ranks' probabilities under either rule.
        r.groups.iter().all(|g| {
            let want: f64 = p[g.clone()].iter().sum();
            let got: f64 = g.clone().map(|k| per_bin[r.order[k]]).sum();
            (want - got).abs() < 1e-14
        }) && (per_bin.iter().sum::<f64>() - 1.0).abs() < 1e-12
    }
    check(8, prop as fn(Loads, TieRule) -> bool);
}

#[test]
fn ranking_edge_cases() {
    // −0.0 and +0.0 are equal loads: one tied group, ordered by index.
    let r = Loads::new(vec![-0.0, 0.0]).unwrap().ranking();
    assert_eq!(r.order, vec![0, 1]);
    assert_eq!(r.groups, vec![0..2]);
    // Negative, fractional and huge loads, all distinct keys, against a comparison sort.
    let x = vec![-1.5, 1e300, -1e300, 0.25, -0.0, 3.0, 0.25, -1.5, 5e-324];
    let r = Loads::new(x.clone()).unwrap().ranking();
    let mut reference: Vec<usize> = (0..x.len()).collect();
    reference.sort_by(|&a, &b| x[b].partial_cmp(&x[a]).unwrap());
    assert_eq!(r.order, reference);
    assert_eq!(r.groups.len(), 7); // 0.25 and −1.5 appear twice
    // A single bin.
    assert_eq!(Loads::new(vec![7.0]).unwrap().ranking().groups, vec![0..1]);
}
