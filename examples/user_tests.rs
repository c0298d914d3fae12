//! balloc in a researcher's own crate: property tests with `balloc::strategy` and theorem files
//! checked from a test, written only against the public API, as a crate that depends on balloc
//! would write them (`balloc = { version = "0.1", default-features = false, features =
//! ["strategy"] }` and `proptest` in its `[dev-dependencies]`).
//!
//! `cargo test` runs these tests (this example is declared with `test = true`); `cargo run
//! --example user_tests` prints one verdict.

/// A lemma as a user would keep it next to their proof: Υ drifts by at most 1 − 1/n under
/// Two-Choice (a ball into bin j changes Υ by 2y_j + 1 − 1/n, and Two-Choice favours light bins,
/// so E[y_J] ≤ 0).
const LEMMA: &str = r#"
title = "Two-Choice: the quadratic potential grows by at most 1 - 1/n per ball"
kind = "inequality"
expected = "holds"
statement = '\mathbb E[\Upsilon(t+1) - \Upsilon(t) \mid x(t)] \le 1 - 1/n'
source = { locator = "derived in the proof draft", provenance = "derived" }
[setting]
processes = ["two-choice"]
[claim]
expr = "dE_Upsilon <= 1 - 1/n"
[domain]
n = [2, 3, 5, 8]
exhaustive = { max_n = 5, max_load = 4 }
random = 64
"#;

#[cfg_attr(test, allow(dead_code))]
fn main() {
    match balloc::certify(LEMMA) {
        Ok(v) => println!("{}: {} (trust {})", v.id, v.verdict.name(), v.trust.name()),
        Err(e) => println!("{e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use balloc::loads::Loads;
    use balloc::setting::Setting;
    use balloc::{expectation, potential, process, strategy};
    use proptest::prelude::*;

    #[test]
    fn the_lemma_is_certified() {
        let v = balloc::certify(LEMMA).unwrap();
        assert_eq!(v.verdict, balloc::claim::Status::Holds);
    }

    #[test]
    fn a_wrong_constant_is_caught() {
        // 1 − 2/n is too small: at the all-equal state the drift is exactly 1 − 1/n.
        let wrong = LEMMA
            .replace("1 - 1/n\"", "1 - 2/n\"")
            .replace("expected = \"holds\"", "expected = \"refuted\"");
        let v = balloc::certify(&wrong).unwrap();
        assert_eq!(v.verdict, balloc::claim::Status::Refuted);
    }

    proptest! {
        // The same bound as a property test over the adversarial states, in f64, against the
        // closed form E[ΔΥ] = 1 − 1/n + 2·Σ_j p_j y_j computed here from the allocation vector.
        #[test]
        fn quadratic_drift_bound_on_adversarial_states(x in strategy::adversarial(2..=12)) {
            let n = x.n() as f64;
            let two = process::parse("two-choice").unwrap();
            let e = expectation::expect(
                two.as_ref(),
                potential::parse("quadratic").unwrap().as_ref(),
                &x,
                &Setting::sequential(),
            ).unwrap();
            let drift = e.expected_change.to_f64_checked().unwrap();
            let scale = x.as_slice().iter().fold(1.0f64, |a, v| a.max(v.abs()));
            prop_assert!(drift <= 1.0 - 1.0 / n + 1e-9 * scale * n);
            // Independent route: the per-bin law of the process and y = x − W/n.
            let law = two.step_law(&x, balloc::loads::TieRule::Random).unwrap();
            let mean = x.as_slice().iter().sum::<f64>() / n;
            let ey: f64 = law
                .per_bin_probability()
                .iter()
                .zip(x.as_slice())
                .map(|(p, v)| p * (v - mean))
                .sum();
            prop_assert!((drift - (1.0 - 1.0 / n + 2.0 * ey)).abs() <= 1e-9 * scale * n);
        }

        // Allocation vectors meeting C1(1/4, 1/10) and C2(2), checked exactly.
        #[test]
        fn generated_vectors_meet_c1_and_c2(p in strategy::allocation_vectors(
            4..=16,
            &balloc::spec::parse_ratio("1/4").unwrap(),
            &balloc::spec::parse_ratio("1/10").unwrap(),
            &balloc::spec::parse_ratio("2").unwrap(),
        ).unwrap()) {
            let k = balloc::condition::delta_n(p.len(), &balloc::spec::parse_ratio("1/4").unwrap()).unwrap();
            let best = balloc::condition::best_eps(&p, k).unwrap();
            prop_assert!(best.eps >= balloc::spec::parse_ratio("1/10").unwrap());
        }
    }

    #[test]
    fn near_balanced_loads_have_a_small_spread() {
        use proptest::strategy::ValueTree;
        let mut r = proptest::test_runner::TestRunner::deterministic();
        for _ in 0..50 {
            let x: Loads = strategy::near_balanced(3..=9, 2)
                .new_tree(&mut r)
                .unwrap()
                .current();
            assert!(x.spread() <= 2.0);
        }
    }
}
