//! Lower-bound constructions pinned with insta snapshots; every pinned law is first checked
//! against an independent enumeration of ball (or sample) sequences.

use crate::common::q;
use balloc::exact::Q;
use balloc::loads::{Loads, TieRule};
use balloc::lower_bound::{Law, batched, mean, mean_biased, render, tail};
use balloc::process;
use num_traits::{One, ToPrimitive, Zero};

fn add(law: &mut Law, v: Q, p: Q) {
    *law.entry(v).or_insert_with(Q::zero) += p;
}

/// Every sequence of `len` symbols in `0..base` with the product of `weights`.
fn sequences(base: usize, len: usize, weights: &[Q], mut visit: impl FnMut(&[usize], &Q)) {
    let total = base.pow(len as u32);
    let mut seq = vec![0usize; len];
    for mut code in 0..total {
        let mut p = Q::one();
        for s in seq.iter_mut() {
            *s = code % base;
            code /= base;
            p *= &weights[*s];
        }
        visit(&seq, &p);
    }
}

#[test]
fn fixed_ties_two_choice_last_bin() {
    let tc = process::parse("two-choice").unwrap();
    let mut snap = String::new();
    for (n, b) in [(2usize, 2u64), (2, 4), (3, 3), (3, 6), (4, 4), (4, 8)] {
        let (p, law) = batched::fixed_ties_excess(tc.as_ref(), n, n - 1, b).unwrap();
        // Two-Choice's last rank: pₙ = (2n − 1)/n².
        assert_eq!(p, q(2 * n as i64 - 1, (n * n) as i64));
        // Independent route: every sequence of b destinations (fixed ties at x = 0: bin = rank).
        let r = Loads::zeros(n).unwrap().ranking().per_bin(
            &tc.rank_probabilities_exact(n).unwrap().unwrap(),
            TieRule::Fixed,
        );
        let mut brute = Law::new();
        sequences(n, b as usize, &r, |s, pr| {
            let k = s.iter().filter(|&&i| i == n - 1).count() as i64;
            add(&mut brute, q(k * n as i64 - b as i64, n as i64), pr.clone());
        });
        assert_eq!(law, brute, "n = {n}, b = {b}");
        // E[excess] = b(pₙ − 1/n) = b(n − 1)/n² (hand: (2n − 1 − n)/n²).
        assert_eq!(mean(&law), q(b as i64 * (n as i64 - 1), (n * n) as i64));
        snap.push_str(&format!(
            "n = {n}, b = {b}, p_n = {p}, E[excess] = {}\n{}",
            mean(&law),
            render(&law)
        ));
    }
    insta::assert_snapshot!("fixed_ties_two_choice_last_bin", snap);
}

/// The laws after `batches` batches by enumerating ball sequences (bins labelled, no sorting).
fn extremes_by_sequences(n: usize, b: usize, batches: u32) -> (Law, Law) {
    let p = process::parse("two-choice")
        .unwrap()
        .rank_probabilities_exact(n)
        .unwrap()
        .unwrap();
    let mut states: Vec<(Vec<i64>, Q)> = vec![(vec![0; n], Q::one())];
    for _ in 0..batches {
        let mut next = Vec::new();
        for (x, px) in &states {
            let loads = Loads::new(x.iter().map(|&v| v as f64).collect()).unwrap();
            let r = loads.ranking().per_bin(&p, TieRule::Random);
            sequences(n, b, &r, |s, pr| {
                let mut y = x.clone();
                for &i in s {
                    y[i] += 1;
                }
                next.push((y, px * pr));
            });
        }
        states = next;
    }
    let (mut hi, mut lo) = (Law::new(), Law::new());
    for (x, p) in states {
        let w: i64 = x.iter().sum();
        let (max, min) = (*x.iter().max().unwrap(), *x.iter().min().unwrap());
        add(&mut hi, q(max * n as i64 - w, n as i64), p.clone());
        add(&mut lo, q(w - min * n as i64, n as i64), p);
    }
    (hi, lo)
}

#[test]
fn random_ties_two_choice_extremes() {
    let tc = process::parse("two-choice").unwrap();
    let mut snap = String::new();
    for (n, b) in [(2usize, 4u64), (3, 3), (3, 6), (4, 4)] {
        for batches in [1u32, 2] {
            let e = batched::batched_extremes(tc.as_ref(), n, b, batches).unwrap();
            if (n as u64).pow(b as u32 * batches) <= 70_000 {
                let (hi, lo) = extremes_by_sequences(n, b as usize, batches);
                assert_eq!(e.heaviest, hi, "n = {n}, b = {b}, {batches} batches");
                assert_eq!(e.lightest, lo);
            }
            let total: Q = e.heaviest.values().sum();
            assert!(total.is_one());
            snap.push_str(&format!(
                "n = {n}, b = {b}, batches = {batches}: E[max - W/n] = {} ({:.6}), E[W/n - min] = {} ({:.6})\n heaviest:\n{} lightest:\n{}",
                mean(&e.heaviest),
                mean(&e.heaviest).to_f64().unwrap(),
                mean(&e.lightest),
                mean(&e.lightest).to_f64().unwrap(),
                render(&e.heaviest),
                render(&e.lightest)
            ));
        }
    }
    insta::assert_snapshot!("random_ties_two_choice_extremes", snap);
}

#[test]
fn largest_allocation_probability_gain() {
    let mut snap = String::new();
    for spec in [
        "two-choice",
        "d-choice(d=3)",
        "one-plus-beta(beta=1/2)",
        "quantile(delta=1/2)",
        "one-choice",
    ] {
        let p = process::parse(spec).unwrap();
        for (n, b) in [(4usize, 4u64), (4, 16), (8, 8)] {
            let (rank, pmax, gain) = batched::largest_probability_gain(p.as_ref(), n, b).unwrap();
            // Second route: the mean of the exact binomial law of that bin's excess.
            let (p2, law) = batched::fixed_ties_excess(p.as_ref(), n, rank - 1, b).unwrap();
            assert_eq!(p2, pmax);
            assert_eq!(mean(&law), gain);
            snap.push_str(&format!(
                "{spec}, n = {n}, b = {b}: rank {rank}, max p = {pmax}, gain = {gain}\n"
            ));
        }
    }
    insta::assert_snapshot!("largest_allocation_probability_gain", snap);
}

#[test]
fn miss_probability_matches_sequence_enumeration() {
    for (n, s) in [
        (2usize, 1u64),
        (2, 5),
        (3, 2),
        (3, 4),
        (3, 7),
        (4, 3),
        (4, 6),
        (5, 5),
    ] {
        let w = vec![q(1, n as i64); n];
        let mut miss = Q::zero();
        sequences(n, s as usize, &w, |seq, p| {
            if (0..n).any(|i| !seq.contains(&i)) {
                miss += p;
            }
        });
        assert_eq!(
            mean_biased::miss_probability(n, s),
            miss,
            "n = {n}, s = {s}"
        );
    }
}

/// Mean-Thinning by its definition, run along every sequence of sample pairs (boundary `over`:
/// a bin is underloaded iff n·x − W < 0).
fn mean_thinning_spread_by_pairs(n: usize, steps: usize) -> Law {
    let w = vec![q(1, (n * n) as i64); n * n];
    let mut law = Law::new();
    sequences(n * n, steps, &w, |seq, p| {
        let mut x = vec![0i64; n];
        for &pair in seq {
            let (i1, i2) = (pair / n, pair % n);
            let total: i64 = x.iter().sum();
            let dest = if (n as i64) * x[i1] - total < 0 {
                i1
            } else {
                i2
            };
            x[dest] += 1;
        }
        let spread = x.iter().max().unwrap() - x.iter().min().unwrap();
        add(&mut law, q(spread, 1), p.clone());
    });
    law
}

/// Twinning by its definition along every sequence of samples.
fn twinning_spread_by_samples(n: usize, steps: usize) -> Law {
    let w = vec![q(1, n as i64); n];
    let mut law = Law::new();
    sequences(n, steps, &w, |seq, p| {
        let mut x = vec![0i64; n];
        for &j in seq {
            let total: i64 = x.iter().sum();
            x[j] += if (n as i64) * x[j] - total < 0 { 2 } else { 1 };
        }
        let spread = x.iter().max().unwrap() - x.iter().min().unwrap();
        add(&mut law, q(spread, 1), p.clone());
    });
    law
}

#[test]
fn mean_biased_spread_lower_bound_small_n() {
    let mt = process::parse("mean-thinning").unwrap();
    let tw = process::parse("twinning").unwrap();
    // Independent routes for the exact spread laws.
    assert_eq!(
        mean_biased::spread_law(mt.as_ref(), 3, 3).unwrap(),
        mean_thinning_spread_by_pairs(3, 3)
    );
    assert_eq!(
        mean_biased::spread_law(mt.as_ref(), 2, 4).unwrap(),
        mean_thinning_spread_by_pairs(2, 4)
    );
    assert_eq!(
        mean_biased::spread_law(tw.as_ref(), 3, 5).unwrap(),
        twinning_spread_by_samples(3, 5)
    );
    assert_eq!(
        mean_biased::spread_law(tw.as_ref(), 4, 4).unwrap(),
        twinning_spread_by_samples(4, 4)
    );
    let mut snap = String::new();
    for (name, p, per_step) in [("mean-thinning", &mt, 2u64), ("twinning", &tw, 1u64)] {
        for (n, steps) in [(3usize, 3u64), (3, 6), (4, 4), (4, 8), (5, 5)] {
            let law = mean_biased::spread_law(p.as_ref(), n, steps).unwrap();
            let level = q(steps as i64, n as i64);
            let bound = mean_biased::spread_bound(n, steps, per_step);
            let exact_tail = tail(&law, &level);
            // The construction's inequality, checked exactly.
            assert!(exact_tail >= bound, "{name} n = {n} T = {steps}");
            snap.push_str(&format!(
                "{name}, n = {n}, T = {steps}: P(spread >= T/n = {level}) = {exact_tail} ({:.6}) >= bound {bound} ({:.6}); E[spread] = {}\n{}",
                exact_tail.to_f64().unwrap(),
                bound.to_f64().unwrap(),
                mean(&law),
                render(&law)
            ));
        }
    }
    insta::assert_snapshot!("mean_biased_spread_small_n", snap);
}

#[test]
fn mean_biased_log_n_regime() {
    // T = ⌊κ n ln n⌋ with κ = 1/4: the spread level T/n ≈ κ ln n and the probability that the
    // construction's event occurs (Mean-Thinning: 2T samples; Twinning: T samples).
    let mut snap = String::new();
    for n in [10usize, 30, 100] {
        let steps = (0.25 * n as f64 * (n as f64).ln()).floor() as u64;
        let mt = mean_biased::spread_bound(n, steps, 2).to_f64().unwrap();
        let tw = mean_biased::spread_bound(n, steps, 1).to_f64().unwrap();
        // Sanity against the union/second-moment shape: P(miss) ≤ n(1 − 1/n)^s.
        let s = 2 * steps;
        assert!(mt <= n as f64 * (1.0 - 1.0 / n as f64).powi(s as i32) + 1e-12);
        assert!(tw >= mt);
        snap.push_str(&format!(
            "n = {n}, T = {steps}, T/n = {:.6}: P(MT spread >= T/n) >= {mt:.6}, P(TW spread >= T/n) >= {tw:.6}\n",
            steps as f64 / n as f64
        ));
    }
    insta::assert_snapshot!("mean_biased_log_n_regime", snap);
}
