//! Exact small constructions of the multidimensional module pinned with insta (snapshots are
//! committed under `tests/snapshots/`; with `CI` set insta never writes new ones).

use balloc::exact::Q;
use balloc::multidim::claims::{gamma_at_zero, mass_facts};
use balloc::multidim::expectation::{bin_probabilities, expected_quadratic_change};
use balloc::multidim::{BallLaw, MdLoads, MdRule};
use balloc::sim::multidim::MdSimConfig;
use balloc::spec::parse_ratio;

#[test]
fn gamma_at_zero_table() {
    let rows: Vec<_> = [1usize, 2, 3, 4, 8, 16]
        .iter()
        .map(|&n| gamma_at_zero(n).unwrap())
        .collect();
    insta::assert_json_snapshot!(rows);
}

#[test]
fn mass_facts_two_choice_n_12() {
    let p = balloc::process::parse("two-choice")
        .unwrap()
        .rank_probabilities_exact(12)
        .unwrap()
        .unwrap();
    let rows: Vec<_> = ["1/4", "1/3"]
        .iter()
        .map(|g| mass_facts(&p, &parse_ratio(g).unwrap()).unwrap())
        .collect();
    insta::assert_json_snapshot!(rows);
}

#[test]
fn rules_disagree_on_a_small_state() {
    // Bin 0 is heavy in dimension 0 only, bin 1 moderately in both: the sum rule prefers bin 0 for
    // a ball on dimension 1, the max rule does not care about dimension 0.
    let x = MdLoads::from_rows(&[vec![4, 0], vec![2, 1], vec![1, 1]]).unwrap();
    let law = BallLaw::parse("uniform(dims=2,f=1)").unwrap();
    let mut out = Vec::new();
    for rule in ["sum", "max"] {
        let r = MdRule::parse(rule, "two-choice").unwrap();
        let q: Vec<String> = bin_probabilities::<Q>(&x, &r, 0b10)
            .unwrap()
            .iter()
            .map(|v| v.to_string())
            .collect();
        let dq: Q = expected_quadratic_change(&x, &law, &r).unwrap();
        out.push((rule, q, dq.to_string()));
    }
    insta::assert_json_snapshot!(out);
}

#[test]
fn seeded_runs_are_pinned() {
    let mut out = Vec::new();
    for rule in ["sum", "max"] {
        for batch in [1u64, 8] {
            let cfg = MdSimConfig {
                n: 16,
                balls: 256,
                law: BallLaw::parse("uniform(dims=4,f=2)").unwrap(),
                rule: MdRule::parse(rule, "two-choice").unwrap(),
                batch,
            };
            out.push((rule, batch, cfg.runs(42, 3).unwrap()));
        }
    }
    insta::assert_json_snapshot!(out);
}
