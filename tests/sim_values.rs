//! Value stability of the simulator: a fixed seed gives pinned output, so an accidental change of a
//! sampling path (a different law, or the same law on other random numbers) is caught.
//!
//! The pinned numbers were printed by
//! `balloc simulate --process <p> --n 4 --balls 8 --runs 4000 --seed 7 --format json`
//! (the first ten `final_gap` values of `runs` and their sum over the 4000 runs). They are not
//! trusted on their own: the same test checks the 4000-run mean against the exact law of the final
//! gap, computed here by brute force over the n^d choices of every ball (n = 4, m = 8), within four
//! standard errors of the exact standard deviation. A change of the stream version
//! (`sim::STREAM_VERSION`) must update the pins; a change of the law fails the second check.

use balloc::sim::{Config, Plan, simulate};
use std::collections::BTreeMap;

/// The exact law of `max x − m/n` after `m` balls of d-Choice (with replacement, the lightest of
/// `d` uniform bins; ties do not change the multiset of loads) from the empty state: (mean,
/// variance).
fn exact_gap_law(n: usize, m: usize, d: u32) -> (f64, f64) {
    let mut states: BTreeMap<Vec<u32>, f64> = BTreeMap::new();
    states.insert(vec![0; n], 1.0);
    let picks = n.pow(d);
    for _ in 0..m {
        let mut next: BTreeMap<Vec<u32>, f64> = BTreeMap::new();
        for (s, p) in &states {
            for code in 0..picks {
                // The d picked bins, digits of `code` in base n.
                let mut c = code;
                let mut best = usize::MAX;
                for _ in 0..d {
                    let i = c % n;
                    c /= n;
                    if best == usize::MAX || s[i] < s[best] {
                        best = i;
                    }
                }
                let mut t = s.clone();
                t[best] += 1;
                t.sort_unstable();
                *next.entry(t).or_insert(0.0) += p / picks as f64;
            }
        }
        states = next;
    }
    let avg = m as f64 / n as f64;
    let mean: f64 = states
        .iter()
        .map(|(s, p)| p * (*s.iter().max().unwrap() as f64 - avg))
        .sum();
    let second: f64 = states
        .iter()
        .map(|(s, p)| p * (*s.iter().max().unwrap() as f64 - avg).powi(2))
        .sum();
    (mean, second - mean * mean)
}

fn check(process: &str, d: u32, first: [f64; 10], sum: f64) {
    let cfg = Config::parse(process, 4, 1, "unit", "random").unwrap();
    let out = simulate(&cfg, &Plan::new(8, 4000, 7), &|| {}).unwrap();
    let gaps: Vec<f64> = out.runs.iter().map(|r| r.final_gap).collect();
    assert_eq!(gaps[..10], first, "{process}: pinned first runs");
    assert_eq!(gaps.iter().sum::<f64>(), sum, "{process}: pinned sum");
    let (mean, var) = exact_gap_law(4, 8, d);
    let se = (var / 4000.0).sqrt();
    let observed = sum / 4000.0;
    assert!(
        (observed - mean).abs() <= 4.0 * se,
        "{process}: simulated mean {observed} vs exact {mean} (se {se})"
    );
}

#[test]
fn exact_laws_match_hand_values() {
    // One-Choice, 8 balls into 4 bins: E[max load] = 2 + 1575/1024 (the exact rational, printed by
    // the same enumeration with fractions); Two-Choice: 2 + 6735123/8388608.
    assert!((exact_gap_law(4, 8, 1).0 - 1575.0 / 1024.0).abs() < 1e-12);
    assert!((exact_gap_law(4, 8, 2).0 - 6735123.0 / 8388608.0).abs() < 1e-12);
    // Hand check: 2 balls into 2 bins, One-Choice: both in one bin w.p. 1/2 (gap 1), else gap 0.
    let (m, v) = exact_gap_law(2, 2, 1);
    assert!((m - 0.5).abs() < 1e-15 && (v - 0.25).abs() < 1e-15);
}

#[test]
fn one_choice_output_is_pinned_and_follows_the_exact_law() {
    check(
        "one-choice",
        1,
        [1.0, 2.0, 2.0, 2.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0],
        6182.0,
    );
}

#[test]
fn two_choice_output_is_pinned_and_follows_the_exact_law() {
    check(
        "two-choice",
        2,
        [1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0],
        3211.0,
    );
}
