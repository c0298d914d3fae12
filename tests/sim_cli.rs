//! `balloc simulate` and `balloc sweep` on the command line: the JSON contract, determinism of
//! the bytes, and bad input (one-line error, exit code 2, no output file left behind).

use std::process::Command;

fn balloc(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_balloc"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("balloc-sim-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[test]
fn simulate_json_contract() {
    let args = [
        "simulate",
        "--process",
        "two-choice",
        "--n",
        "16",
        "--balls",
        "400",
        "--runs",
        "6",
        "--seed",
        "3",
        "--format",
        "json",
    ];
    let (code, out, err) = balloc(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["config"]["n"], 16);
    assert_eq!(v["config"]["balls"], 400);
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 6);
    for r in runs {
        for k in ["seed", "final_gap", "max_gap"] {
            assert!(r.get(k).is_some(), "run lacks {k}");
        }
        assert!(r["max_gap"].as_f64().unwrap() >= r["final_gap"].as_f64().unwrap());
    }
    // The summary mean is the mean of the runs (independent recomputation here).
    let mean = runs
        .iter()
        .map(|r| r["final_gap"].as_f64().unwrap())
        .sum::<f64>()
        / 6.0;
    let s = &v["summary"]["final_gap"];
    assert!((s["mean"].as_f64().unwrap() - mean).abs() < 1e-12);
    assert!(s["ci_low"].as_f64().unwrap() <= mean && mean <= s["ci_high"].as_f64().unwrap());
    for k in ["mean", "stderr", "ci_low", "ci_high"] {
        assert!(v["summary"]["max_gap"].get(k).is_some());
    }
    // Same seed, same bytes.
    assert_eq!(balloc(&args).1, out);
}

#[test]
fn simulate_csv_and_plot() {
    let svg = tmp("gap.svg");
    let (code, out, err) = balloc(&[
        "simulate",
        "--process",
        "one-plus-beta(beta=0.5)",
        "--n",
        "20",
        "--balls",
        "2000",
        "--batch",
        "40",
        "--runs",
        "4",
        "--format",
        "csv",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("run,seed,final_gap,max_gap"));
    assert_eq!(out.lines().count(), 5);
    let s = std::fs::read_to_string(&svg).unwrap();
    assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
}

fn assert_bad(args: &[&str], needle: &str) {
    let (code, out, err) = balloc(args);
    assert_eq!(code, 2, "{args:?}: exit {code}, stderr {err}");
    assert!(out.is_empty(), "{args:?}: printed {out}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: not one line: {err}"
    );
    assert!(err.contains(needle), "{args:?}: `{err}` lacks `{needle}`");
}

#[test]
fn bad_input_gives_one_line_and_exit_2() {
    let base = ["simulate", "--process", "two-choice", "--balls", "10"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut v: Vec<&str> = base.to_vec();
        v.extend_from_slice(extra);
        v
    };
    assert_bad(&with(&["--n", "0"]), "--n");
    assert_bad(&with(&["--n", "4", "--batch", "0"]), "--batch");
    assert_bad(
        &with(&["--n", "4", "--weights", "discrete(w=-1;3,p=0.5;0.5)"]),
        "weights must be finite and ≥ 0",
    );
    assert_bad(&with(&["--n", "4", "--ties", "coin"]), "tie rule");
    assert_bad(
        &["simulate", "--process", "nope", "--n", "4", "--balls", "1"],
        "unknown process",
    );
    assert_bad(
        &[
            "simulate",
            "--process",
            "quantile(delta=0.3)",
            "--n",
            "4",
            "--balls",
            "1",
        ],
        "delta",
    );
    // Unwritable plot path: error before any work, no file.
    let bad = "/nonexistent-dir/x/gap.svg";
    assert_bad(&with(&["--n", "4", "--plot", bad]), "--plot");
    assert!(!std::path::Path::new(bad).exists());
}

#[test]
fn sweep_bad_shard_and_unwritable_output() {
    let f = tmp("s.toml");
    std::fs::write(
        &f,
        "runs = 2\noutput = \"out\"\nballs = 50\n[grid]\nprocess = [\"two-choice\"]\nn = [5]\n",
    )
    .unwrap();
    let fs = f.to_str().unwrap();
    assert_bad(&["sweep", fs, "--shard", "2/2"], "out of range");
    assert_bad(&["sweep", fs, "--shard", "a/2"], "--shard");
    assert!(!f.with_file_name("out.shard-2-of-2.csv").exists());
    let g = tmp("u.toml");
    std::fs::write(
        &g,
        "runs = 2\noutput = \"/nonexistent-dir/out\"\nballs = 50\n[grid]\nprocess = [\"two-choice\"]\nn = [5]\n",
    )
    .unwrap();
    assert_bad(&["sweep", g.to_str().unwrap()], "/nonexistent-dir/out.csv");
    let h = tmp("bad.toml");
    std::fs::write(
        &h,
        "runs = 2\noutput = \"o\"\nballs = 5\n[grid]\nprocess = [\"two-choice\"]\nn = [0]\n",
    )
    .unwrap();
    assert_bad(&["sweep", h.to_str().unwrap()], "bad.toml");
    // A good sweep writes both files and merge of a single shard reproduces it.
    let (code, _, err) = balloc(&["sweep", fs]);
    assert_eq!(code, 0, "{err}");
    let full = std::fs::read(f.with_file_name("out.csv")).unwrap();
    let (code, _, err) = balloc(&["sweep", fs, "--shard", "0/1"]);
    assert_eq!(code, 0, "{err}");
    std::fs::remove_file(f.with_file_name("out.csv")).unwrap();
    let (code, _, err) = balloc(&["sweep", "merge", fs, "--shards", "1"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(f.with_file_name("out.csv")).unwrap(), full);
}

#[test]
fn one_run_says_its_interval_is_undefined() {
    let base = [
        "simulate",
        "--process",
        "two-choice",
        "--n",
        "8",
        "--balls",
        "100",
        "--runs",
        "1",
    ];
    let (code, out, err) = balloc(&[&base[..], &["--format", "json"]].concat());
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for q in ["final_gap", "max_gap", "spread", "mean_quantile"] {
        let s = &v["summary"][q];
        assert!(s["mean"].is_number(), "{q}: {s}");
        assert!(s["ci_low"].is_null() && s["ci_high"].is_null(), "{q}: {s}");
        assert_eq!(s["interval"], "undefined for one run", "{q}");
    }
    let (code, out, err) = balloc(&base);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("undefined for one run"), "{out}");
    assert!(!out.contains("NaN") && !out.contains("inf"), "{out}");
}

#[test]
fn every_csv_number_is_finite_at_two_million_bins() {
    // The mean quantile used to be skipped above 2^20 bins and written as NaN.
    let (code, out, err) = balloc(&[
        "simulate",
        "--process",
        "two-choice",
        "--n",
        "2000000",
        "--balls",
        "2000000",
        "--runs",
        "2",
        "--format",
        "csv",
    ]);
    assert_eq!(code, 0, "{err}");
    let mut rd = csv::Reader::from_reader(out.as_bytes());
    let head = rd.headers().unwrap().clone();
    for r in rd.records() {
        let r = r.unwrap();
        for (h, f) in head.iter().zip(r.iter()) {
            let x: f64 = f.parse().unwrap();
            assert!(x.is_finite(), "{h} = {f}");
        }
        let mq: f64 = r[7].parse().unwrap();
        assert!(mq > 0.0 && mq < 1.0, "mean_quantile {mq}");
    }
}

#[test]
fn sizes_beyond_the_limits_fail_before_any_allocation() {
    // A trajectory of 10¹⁰ checkpoints on 100 balls is capped at the 100 observation points.
    let (code, out, err) = balloc(&[
        "simulate",
        "--process",
        "one-choice",
        "--n",
        "4",
        "--balls",
        "100",
        "--runs",
        "2",
        "--trajectory",
        "10000000000",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["runs"][0]["trajectory"].as_array().unwrap().len(), 100);
    // On 10¹² balls it would keep 10¹⁰ points per run: refused at once.
    assert_bad(
        &[
            "simulate",
            "--process",
            "one-choice",
            "--n",
            "4",
            "--balls",
            "1000000000000",
            "--trajectory",
            "10000000000",
        ],
        "--trajectory",
    );
    assert_bad(
        &[
            "simulate",
            "--process",
            "one-choice",
            "--n",
            "4",
            "--balls",
            "10",
            "--runs",
            "1000000000000",
        ],
        "--runs",
    );
    assert_bad(
        &[
            "simulate",
            "--process",
            "two-choice",
            "--n",
            "1000000000",
            "--balls",
            "10",
            "--weights",
            "exp(1)",
        ],
        "2^28",
    );
    assert_bad(
        &[
            "multidim",
            "simulate",
            "--n",
            "8",
            "--balls",
            "10",
            "--batch",
            "1000000000000000000",
        ],
        "limit",
    );
    assert_bad(
        &[
            "graph",
            "experiment",
            "--graph",
            "cycle",
            "--n",
            "10,20,40",
            "--power",
            "100",
        ],
        "limit",
    );
}
