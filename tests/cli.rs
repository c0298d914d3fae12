//! The CLI contract (`docs/conventions.md` §4), run against the built binary: JSON fields of `expect` and
//! `pvec` with values equal to the library's, `--loads @FILE`, and bad input (exit code 2, one
//! line on stderr naming the argument, never a panic).

use balloc::expectation::expect;
use balloc::loads::Loads;
use balloc::setting::Setting;
use balloc::{potential, process};
use serde_json::Value;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_balloc"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn json(args: &[&str]) -> Value {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

#[test]
fn expect_json_has_the_contract_fields_and_library_values() {
    let v = json(&[
        "expect",
        "--process",
        "two-choice",
        "--potential",
        "gamma(alpha=0.5)",
        "--loads",
        "3,0,1,0",
        "--format",
        "json",
    ]);
    for key in [
        "n",
        "potential",
        "value",
        "expected_next",
        "expected_change",
    ] {
        assert!(v.get(key).is_some(), "missing `{key}` in {v}");
    }
    assert_eq!(v["n"], 4);
    assert_eq!(v["potential"], "gamma(alpha=0.5)");
    let e = expect(
        process::parse("two-choice").unwrap().as_ref(),
        potential::parse("gamma(alpha=0.5)").unwrap().as_ref(),
        &Loads::new(vec![3.0, 0.0, 1.0, 0.0]).unwrap(),
        &Setting::sequential(),
    )
    .unwrap();
    // The printed numbers are the midpoints of their certified enclosures (trust enclosure):
    // inside them, and equal to the library's float route up to its rounding (the change is
    // a difference of nearby sums, so its float value may be off by a few ulps of the sums).
    assert_eq!(v["trust"], "enclosure");
    for (key, lib) in [
        ("value", e.value),
        ("expected_next", e.expected_next),
        ("expected_change", e.expected_change),
    ] {
        let (a, b) = (v[key].as_f64().unwrap(), lib.to_f64_checked().unwrap());
        let iv = &v["enclosure"][key];
        let (lo, hi) = (iv[0].as_f64().unwrap(), iv[1].as_f64().unwrap());
        assert!(lo <= a && a <= hi, "{key}: {a} outside [{lo}, {hi}]");
        let scale = e.expected_next.to_f64_checked().unwrap().abs();
        assert!((a - b).abs() <= 1e-14 * scale, "{key}: {a} vs {b}");
    }
    // The value is also independently Γ at y = (2, −1, 0, −1): 2cosh(1) + 2·2cosh(0.5) + 2.
    let g = 2.0 * 1f64.cosh() + 4.0 * 0.5f64.cosh() + 2.0;
    assert!((v["value"].as_f64().unwrap() - g).abs() < 1e-12);
}

#[test]
fn expect_reads_loads_from_a_file() {
    let dir = std::env::temp_dir().join(format!("balloc-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("loads.txt");
    // Commas, spaces and newlines mixed.
    std::fs::write(&file, "3, 0\n1\t0\n").unwrap();
    let at = format!("@{}", file.display());
    let args = |loads: &str| {
        json(&[
            "expect",
            "--process",
            "d-choice(d=3)",
            "--potential",
            "quadratic",
            "--batch",
            "2",
            "--loads",
            loads,
            "--format",
            "json",
        ])
    };
    let (from_file, inline) = (args(&at), args("3,0,1,0"));
    assert_eq!(from_file, inline);
    assert_eq!(from_file["n"], 4);
    // A missing file names the argument and the path.
    let out = run(&[
        "expect",
        "--process",
        "two-choice",
        "--potential",
        "quadratic",
        "--loads",
        "@/no/such/file",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--loads") && err.contains("/no/such/file"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn pvec_json_has_the_contract_fields() {
    let v = json(&[
        "pvec",
        "--process",
        "two-choice",
        "--n",
        "4",
        "--delta",
        "0.5",
        "--format",
        "json",
    ]);
    assert_eq!(v["n"], 4);
    // Two-Choice at n = 4: p = (1, 3, 5, 7)/16.
    let p: Vec<f64> = v["p"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(p, vec![1.0 / 16.0, 3.0 / 16.0, 5.0 / 16.0, 7.0 / 16.0]);
    // C1 at δ = 1/2: ε* = 1/2 attained at k = 2 (see `condition::best_eps`); C2: C = 4·7/16 = 7/4
    // at rank 4.
    assert_eq!(v["c1"]["delta"], 0.5);
    assert_eq!(v["c1"]["eps"], 0.5);
    assert_eq!(v["c1"]["witness_k"], 2);
    assert_eq!(v["c2"]["c"], 1.75);
    assert_eq!(v["c2"]["witness_i"], 4);
    // With loads: the vector at that state, sorted by rank.
    let v = json(&[
        "pvec",
        "--process",
        "mean-thinning",
        "--loads",
        "0,1,2,1",
        "--format",
        "json",
    ]);
    // y = (−1, 0, 1, 0), θ = 3/4: by rank (heaviest first) (θ/4, θ/4, θ/4, (1 + θ)/4).
    let p: Vec<f64> = v["p"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(p, vec![0.1875, 0.1875, 0.1875, 0.4375]);
    assert_eq!(v["c2"]["witness_i"], 4);
}

/// Runs a command that must fail with exit code 2 and a one-line message containing `needle`.
fn bad(args: &[&str], needle: &str) {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: not one line: {err}"
    );
    assert!(err.contains(needle), "{args:?}: `{needle}` not in: {err}");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
}

#[test]
fn bad_input_exits_with_code_2_and_a_one_line_message() {
    let e = |process: &str, potential: &str, loads: &str, extra: &[&str], needle: &str| {
        let mut a = vec![
            "expect",
            "--process",
            process,
            "--potential",
            potential,
            "--loads",
            loads,
        ];
        a.extend_from_slice(extra);
        bad(&a, needle);
    };
    e("three-choice", "quadratic", "1,0", &[], "--process");
    e("three-choice", "quadratic", "1,0", &[], "two-choice"); // lists what is accepted
    e("one-plus-beta(beta=1.5)", "quadratic", "1,0", &[], "beta");
    e("d-choice(d=0)", "quadratic", "1,0", &[], "d");
    e("quantile(delta=0.25)", "quadratic", "1,0,0", &[], "delta"); // δn = 3/4
    e("two-choice", "gamma(alpha=0)", "1,0", &[], "alpha");
    e("two-choice", "phi(alpha=-1)", "1,0", &[], "alpha");
    e("two-choice", "no-such-potential", "1,0", &[], "--potential");
    e("two-choice", "quadratic", "", &[], "loads");
    e("two-choice", "quadratic", " , ", &[], "loads");
    e("two-choice", "quadratic", "1,x", &[], "loads");
    e("two-choice", "quadratic", "1,nan", &[], "loads");
    e("two-choice", "quadratic", "1,inf", &[], "loads");
    e("two-choice", "quadratic", "1,1e400", &[], "loads");
    e(
        "two-choice",
        "phi(alpha=2)",
        "3,0,1,0",
        &["--weights", "exp(1)"],
        "MGF",
    );
    e("two-choice", "quadratic", "1,0", &["--batch", "0"], "batch");
    e(
        "two-choice",
        "quadratic",
        "1,0",
        &["--batch", "-3"],
        "batch",
    );
    e(
        "two-choice",
        "quadratic",
        "1,0",
        &["--weights", "exp(-1)"],
        "exp",
    );
    e(
        "two-choice",
        "quadratic",
        "1,0",
        &["--weights", "bogus"],
        "weights",
    );
    e(
        "two-choice",
        "quadratic",
        "1,0",
        &["--ties", "coin"],
        "ties",
    );
    e("packing", "quadratic", "1.5,0", &[], "loads");
    bad(&["pvec", "--process", "two-choice", "--n", "0"], "--n");
    bad(
        &[
            "pvec",
            "--process",
            "two-choice",
            "--n",
            "6",
            "--delta",
            "0.25",
        ],
        "delta",
    );
    bad(&["pvec", "--process", "mean-thinning", "--n", "4"], "--n");
    bad(&["pvec", "--process", "two-choice"], "--n");
    bad(&["frobnicate"], "frobnicate");
}

#[test]
fn huge_loads_give_null_value_and_finite_logs() {
    let v = json(&[
        "expect",
        "--process",
        "two-choice",
        "--potential",
        "phi(alpha=1)",
        "--loads",
        "1000000,0,0,0",
        "--format",
        "json",
    ]);
    assert!(v["value"].is_null() && v["expected_next"].is_null());
    // ln Φ = 750000 (y₀ = 750000; the other terms are e^{−250000}); see tests/expectation.rs for
    // ln E[Φ'] = 750000 + ln((1/16)e^{3/4} + (15/16)e^{−1/4}).
    let lv = v["log_value"].as_f64().unwrap();
    assert!((lv - 750000.0).abs() < 1e-9, "{lv}");
    let ln_f = ((0.75f64).exp() / 16.0 + 15.0 / 16.0 * (-0.25f64).exp()).ln();
    let ln = v["log_expected_next"].as_f64().unwrap();
    assert!((ln - (750000.0 + ln_f)).abs() < 1e-9, "{ln}");
    assert!(v["log_abs_expected_change"].as_f64().unwrap().is_finite());
    assert_eq!(v["expected_change_sign"], -1.0);
}

#[test]
fn list_shows_every_registered_name() {
    for (what, names) in [
        (
            "processes",
            process::REGISTRY.iter().map(|i| i.name).collect::<Vec<_>>(),
        ),
        (
            "potentials",
            potential::REGISTRY.iter().map(|i| i.name).collect(),
        ),
        (
            "weights",
            balloc::weights::WEIGHT_LAWS.iter().map(|w| w.0).collect(),
        ),
    ] {
        let v = json(&["list", what, "--format", "json"]);
        let listed: Vec<&str> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        assert_eq!(listed, names);
    }
}

/// `pvec` for the greedy graphical process reports the exact vector and exact C1/C2, equal to a
/// brute-force enumeration of the edges: each edge gives 1/m to its lighter endpoint (1/(2m) to
/// each on a tie); ranks heaviest first, a tied group's ranks share the group's average.
#[test]
fn pvec_graphical_is_exact_and_matches_edge_enumeration() {
    use balloc::exact::Q;
    let q = |a: i64, b: i64| Q::new(a.into(), b.into());
    type Case = (&'static str, Vec<(usize, usize)>, Vec<i64>);
    let cases: Vec<Case> = vec![
        (
            "graphical(graph=cycle)",
            (0..8).map(|i| (i, (i + 1) % 8)).collect(),
            vec![3, 1, 4, 1, 5, 9, 2, 6],
        ),
        (
            "graphical(graph=regular,d=3,seed=2)",
            balloc::graph::Graph::random_regular(10, 3, 2)
                .unwrap()
                .edges()
                .to_vec(),
            vec![2, 0, 2, 5, 1, 1, 3, 0, 2, 4],
        ),
    ];
    for (spec, edges, x) in cases {
        let n = x.len();
        let m = edges.len() as i64;
        let mut per_bin = vec![q(0, 1); n];
        for &(a, b) in &edges {
            if x[a] < x[b] {
                per_bin[a] += q(1, m);
            } else if x[b] < x[a] {
                per_bin[b] += q(1, m);
            } else {
                per_bin[a] += q(1, 2 * m);
                per_bin[b] += q(1, 2 * m);
            }
        }
        // Rank order: loads descending; equal loads form one group sharing the average.
        let mut loads: Vec<i64> = x.clone();
        loads.sort_unstable_by(|a, b| b.cmp(a));
        loads.dedup();
        let mut by_rank = Vec::new();
        for l in loads {
            let grp: Vec<usize> = (0..n).filter(|&v| x[v] == l).collect();
            let s: Q = grp.iter().map(|&v| per_bin[v].clone()).sum();
            let avg = s / Q::from_integer((grp.len() as i64).into());
            by_rank.extend(std::iter::repeat_n(avg, grp.len()));
        }
        let text: Vec<String> = x.iter().map(|v| v.to_string()).collect();
        let v = json(&[
            "pvec",
            "--process",
            spec,
            "--loads",
            &text.join(","),
            "--delta",
            "1/2",
            "--format",
            "json",
        ]);
        assert_eq!(v["trust"], "exact", "{spec}");
        let got: Vec<Q> = v["p_exact"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().parse().unwrap())
            .collect();
        assert_eq!(got, by_rank, "{spec}");
        // C2: C = n·max p_i. C1 at δ = 1/2 (k_δ = n/2): the least of 1 − n·P_k/k over k ≤ k_δ
        // and (n·S_k/(n − k + 1) − 1)·(n − k_δ)/k_δ over k > k_δ (S_k the suffix sum from k).
        let nn = Q::from_integer((n as i64).into());
        let c2 = by_rank.iter().max().unwrap() * &nn;
        assert_eq!(
            v["c2"]["c_exact"].as_str().unwrap().parse::<Q>().unwrap(),
            c2
        );
        let kd = n / 2;
        let mut terms = Vec::new();
        for k in 1..=kd {
            let pk: Q = by_rank[..k].iter().sum();
            terms.push(q(1, 1) - &nn * pk / Q::from_integer((k as i64).into()));
        }
        for k in kd + 1..=n {
            let sk: Q = by_rank[k - 1..].iter().sum();
            let len = Q::from_integer(((n - k + 1) as i64).into());
            terms.push((&nn * sk / len - q(1, 1)) * q((n - kd) as i64, kd as i64));
        }
        let eps = terms.into_iter().min().unwrap();
        assert_eq!(
            v["c1"]["eps_exact"].as_str().unwrap().parse::<Q>().unwrap(),
            eps,
            "{spec}"
        );
        // The float vector is the exact one rounded.
        let p: Vec<f64> = v["p"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        for (a, b) in p.iter().zip(&by_rank) {
            assert!((a - num_traits::ToPrimitive::to_f64(b).unwrap()).abs() < 1e-15);
        }
    }
}
