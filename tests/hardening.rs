//! One test per class of the bad-input campaign for the commands whose inputs are checked here:
//! sizes that used to panic or abort, numbers that used to print NaN/inf or wrong values,
//! surprising option values, and errors that used to quote a whole 100 MB input. Each bad input
//! must give exit code 2 and one short line naming the argument (and the limit, for sizes);
//! each good input a finite, independently computed value.

use balloc::cli::{Outcome, run_args};
use balloc::limits;
use serde_json::Value;

fn run(args: &[&str]) -> Outcome {
    run_args(args)
}

/// Exit code 2, nothing on stdout, one line on stderr that contains every `needle`.
fn refused(args: &[&str], needles: &[&str]) -> String {
    let o = run(args);
    // Failure messages quote the arguments shortened (one of them is 100 MB).
    let args: Vec<_> = args.iter().map(|a| balloc::error::excerpt(a)).collect();
    assert_eq!(o.code, 2, "{args:?}: exit {} (stdout {})", o.code, o.stdout);
    assert!(o.stdout.is_empty(), "{args:?}: {}", o.stdout);
    assert_eq!(o.stderr.lines().count(), 1, "{args:?}: {}", o.stderr);
    assert!(o.stderr.starts_with("error: "), "{}", o.stderr);
    for n in needles {
        assert!(o.stderr.contains(n), "{args:?}: `{n}` not in {}", o.stderr);
    }
    o.stderr
}

fn json(args: &[&str]) -> Value {
    let o = run(args);
    assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
    serde_json::from_str(&o.stdout).expect("valid JSON")
}

// ---------------------------------------------------------------------------------------------
// Panics and aborts on sizes

#[test]
fn sizes_beyond_their_limits_are_refused_before_any_allocation() {
    // These used to abort (capacity overflow, allocation failure) or run for ever.
    refused(
        &[
            "pvec",
            "--process",
            "two-choice",
            "--n",
            "18446744073709551615",
        ],
        &["invalid --n", "limits::BINS"],
    );
    let over = (limits::BINS.max + 1).to_string();
    refused(
        &["pvec", "--process", "two-choice", "--n", &over],
        &["limits::BINS", "67108864"],
    );
    refused(
        &["graph", "info", "--graph", "cycle", "--n", "1000000000"],
        &["limits::GRAPH_N", "1048576"],
    );
    refused(
        &[
            "expect",
            "--process",
            "two-choice",
            "--potential",
            "absolute",
            "--loads",
            "1,0",
            "--batch",
            "1000000000000000000",
        ],
        &["invalid --batch", "limits::EXPECT_BATCH"],
    );
    refused(
        &[
            "multidim",
            "simulate",
            "--n",
            "10",
            "--balls",
            "10",
            "--runs",
            "2",
            "--batch",
            "1000000000000000000",
        ],
        &["--batch", "limits::MD_BATCH"],
    );
    refused(
        &[
            "multidim",
            "simulate",
            "--n",
            "1000000000000",
            "--balls",
            "10",
            "--runs",
            "2",
        ],
        &["bins × dimensions", "limits::MD_CELLS"],
    );
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("hardening-md-heavy");
    let _ = std::fs::remove_dir_all(&out);
    refused(
        &[
            "multidim",
            "experiment",
            "--out",
            out.to_str().unwrap(),
            "--heavy",
            "1000000000000000",
            "--min-log2-n",
            "6",
            "--max-log2-n",
            "6",
        ],
        &["--heavy", "limits::MD_BALLS"],
    );
    assert!(!out.exists(), "nothing is written for a refused sweep");
}

#[test]
fn a_search_budget_beyond_a_duration_is_refused() {
    // Duration::from_secs_f64(1e300) panics; the budget is checked first.
    refused(
        &["search", "ptw/gamma-drift-two-choice", "--budget", "1e300"],
        &["invalid --budget", "1e300", "limits::SEARCH_BUDGET"],
    );
    refused(
        &["search", "ptw/gamma-drift-two-choice", "--budget", "NaN"],
        &["invalid --budget", "finite"],
    );
}

#[test]
fn exact_numbers_with_huge_exponents_are_refused_at_once() {
    // 10^(10⁹) as an exact rational would take minutes and gigabytes.
    refused(
        &[
            "pvec",
            "--process",
            "two-choice",
            "--n",
            "4",
            "--delta",
            "1e1000000000",
        ],
        &["--delta", "limits::DECIMAL_EXPONENT"],
    );
}

// ---------------------------------------------------------------------------------------------
// NaN/inf or wrong numbers with exit 0

#[test]
fn loads_whose_total_overflows_are_refused() {
    refused(
        &[
            "expect",
            "--process",
            "two-choice",
            "--potential",
            "quadratic",
            "--loads",
            "1e308,1e308",
        ],
        &["--loads", "loads must lie within"],
    );
    // Each entry representable and within ±MAX/2, but the total overflows.
    refused(
        &[
            "expect",
            "--process",
            "two-choice",
            "--potential",
            "quadratic",
            "--loads",
            "8e307,8e307,8e307",
        ],
        &["total load", "overflows"],
    );
}

#[test]
fn weight_means_beyond_the_limit_are_refused_and_below_it_are_exact() {
    refused(
        &[
            "expect",
            "--process",
            "two-choice",
            "--potential",
            "quadratic",
            "--loads",
            "1,0",
            "--weights",
            "exp(1e308)",
        ],
        &["--weights", "limits::WEIGHT"],
    );
    // Hand computation: n = 2, loads (1, 0), Two-Choice puts the ball on the heavier bin with
    // probability 1/4. Υ = d²/2 for the difference d of the two loads, so with W ~ Exp(μ),
    // E[W²] = 2μ²: E[Υ'] = ¼·E[(1 + W)²]/2 + ¾·E[(1 − W)²]/2 = ½ − μ/2 + μ².
    for (mean, arg) in [(1.0f64, "exp(1)"), (1e12, "exp(1e12)")] {
        let v = json(&[
            "expect",
            "--process",
            "two-choice",
            "--potential",
            "quadratic",
            "--loads",
            "1,0",
            "--weights",
            arg,
            "--format",
            "json",
        ]);
        let want = 0.5 - mean / 2.0 + mean * mean;
        let got = v["expected_next"].as_f64().expect("a finite number");
        assert!((got - want).abs() <= 1e-12 * want, "{arg}: {got} vs {want}");
        let change = v["expected_change"].as_f64().expect("a finite number");
        assert!(
            (change - (want - 0.5)).abs() <= 1e-12 * want,
            "{arg}: {change}"
        );
    }
}

#[test]
fn expectations_beyond_f64_are_in_the_log_domain_or_refused_never_inf() {
    // Υ at loads (1e160, 0) is 2·(5e159)² = 5e319 > f64::MAX: the exact value and, for its float
    // rendering, the log domain with ln Υ = ln 5 + 319 ln 10; never `exp(inf)` or NaN.
    let args = [
        "expect",
        "--process",
        "two-choice",
        "--potential",
        "quadratic",
        "--loads",
        "1e160,0",
        "--format",
        "json",
    ];
    let v = json(&args);
    let want = 5f64.ln() + 319.0 * 10f64.ln();
    let got = v["log_value"].as_f64().expect("log_value");
    assert!((got - want).abs() < 1e-9 * want, "{got} vs {want}");
    assert!(v["value"].is_null() && v["trust"] == "exact", "{v}");
    // The exact value: with x = 1e160 (the f64, a rational), y = ±x/2 and Υ = 2(x/2)² = x²/2.
    let x = balloc::exact::from_float(1e160).unwrap();
    let upsilon = &x * &x / balloc::exact::Q::from_integer(2.into());
    assert_eq!(v["value_exact"], upsilon.to_string());
    let text = serde_json::to_string(&v).unwrap();
    assert!(!text.contains("NaN") && !text.contains("inf"));
}

#[test]
fn the_quadratic_potential_beyond_f64_above_the_exact_limit_is_in_the_log_domain() {
    // n = 30 000 (above the size where `expect` adds exact values): loads (1e160, 0, …, 0).
    // By hand, with x = 1e160: y₁ = x(1 − 1/n), yⱼ = −x/n otherwise, so
    // Υ = x²(1 − 1/n)² + (n − 1)x²/n² = x²(1 − 1/n), ln Υ = 2 ln x + ln(1 − 1/n).
    // Two-Choice: the heaviest bin gets the ball w.p. 1/n², each other (1 − 1/n²)/(n − 1);
    // E[ΔΥ] = 2Σⱼ yⱼ(pⱼ − 1/n) + 1 − 1/n.
    let n = 30_000usize;
    let dir = std::env::temp_dir().join(format!("balloc-hardening-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("loads.txt");
    let mut text = String::from("1e160");
    text.push_str(&",0".repeat(n - 1));
    std::fs::write(&path, text).unwrap();
    let at = format!("@{}", path.display());
    let v = json(&[
        "expect",
        "--process",
        "two-choice",
        "--potential",
        "quadratic",
        "--loads",
        &at,
        "--format",
        "json",
    ]);
    let (x, nf) = (1e160f64, n as f64);
    let want_ln = 2.0 * x.ln() + (1.0 - 1.0 / nf).ln();
    let got = v["log_value"].as_f64().expect("log_value");
    assert!(
        (got - want_ln).abs() < 1e-12 * want_ln,
        "{got} vs {want_ln}"
    );
    let (p1, po) = (1.0 / (nf * nf), (1.0 - 1.0 / (nf * nf)) / (nf - 1.0));
    let change = 2.0
        * (x * (1.0 - 1.0 / nf) * (p1 - 1.0 / nf) + (nf - 1.0) * (-x / nf) * (po - 1.0 / nf))
        + 1.0
        - 1.0 / nf;
    let got = v["expected_change"].as_f64().expect("a finite change");
    assert!(
        (got - change).abs() < 1e-9 * change.abs(),
        "{got} vs {change}"
    );
    assert_eq!(v["trust"], "float");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn constant_needs_distinct_n_and_says_why_there_is_no_fit() {
    refused(
        &[
            "constant",
            "ptw/gamma-drift-two-choice",
            "--name",
            "c",
            "--n",
            "4,4",
        ],
        &["invalid --n", "given twice"],
    );
    refused(
        &[
            "constant",
            "ptw/gamma-drift-two-choice",
            "--name",
            "c",
            "--n",
            "4,100000000",
        ],
        &["limits::CLAIM_N"],
    );
    let many = (1..=65)
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(",");
    refused(
        &[
            "constant",
            "ptw/gamma-drift-two-choice",
            "--name",
            "c",
            "--n",
            &many,
        ],
        &["limits::CONSTANT_NS"],
    );
    // One n: a value, and no growth fit, with the reason in its own field.
    let v = json(&[
        "constant",
        "ptw/gamma-drift-two-choice",
        "--name",
        "c",
        "--n",
        "4",
        "--format",
        "json",
    ]);
    assert_eq!(v["per_n"].as_array().unwrap().len(), 1);
    assert!(v["per_n"][0]["value"].as_f64().unwrap().is_finite());
    assert_eq!(v["fits"], serde_json::json!([]));
    assert!(v["fits_note"].as_str().unwrap().contains("two values of n"));
}

// ---------------------------------------------------------------------------------------------
// Ignored or surprising options

#[test]
fn multidim_simulate_refuses_zero_runs() {
    refused(
        &[
            "multidim", "simulate", "--n", "10", "--balls", "10", "--runs", "0",
        ],
        &["invalid --runs", "at least 1"],
    );
}

#[test]
fn a_100_mb_token_gives_a_short_one_line_error() {
    let huge = "x".repeat(100 << 20);
    for args in [
        vec![
            "expect",
            "--process",
            &huge,
            "--potential",
            "gamma",
            "--loads",
            "1",
        ],
        vec![
            "expect",
            "--process",
            "two-choice",
            "--potential",
            "gamma(alpha=0.5)",
            "--loads",
            &huge,
        ],
        vec!["pvec", "--process", "two-choice", "--n", &huge],
        vec!["graph", "info", "--graph", &huge, "--n", "4"],
    ] {
        let e = refused(&args, &["characters)"]);
        assert!(e.len() < 400, "{} bytes: {e}", e.len());
    }
}

#[test]
fn unknown_names_come_with_the_closest_accepted_name() {
    refused(
        &[
            "expect",
            "--process",
            "two-chioce",
            "--potential",
            "gamma(alpha=1)",
            "--loads",
            "1,0",
        ],
        &["unknown process `two-chioce`", "did you mean `two-choice`?"],
    );
    refused(
        &[
            "expect",
            "--process",
            "two-choice",
            "--potential",
            "gama(alpha=1)",
            "--loads",
            "1,0",
        ],
        &["did you mean `gamma`?"],
    );
    refused(
        &[
            "expect",
            "--process",
            "two-choice",
            "--potential",
            "gamma(alpah=1)",
            "--loads",
            "1,0",
        ],
        &["did you mean `alpha`?"],
    );
    refused(
        &["graph", "info", "--graph", "cyle", "--n", "8"],
        &["did you mean `cycle`?"],
    );
    refused(
        &[
            "graph",
            "info",
            "--graph",
            "cycle",
            "--n",
            "8",
            "--routing",
            "electric",
        ],
        &["did you mean `electrical`?"],
    );
    // clap's own suggestions stay on the one line.
    refused(&["chek"], &["'check'"]);
    refused(
        &[
            "pvec",
            "--process",
            "two-choice",
            "--n",
            "4",
            "--format",
            "jsn",
        ],
        &["'json'"],
    );
    // Nothing close: no suggestion, just the accepted names.
    let e = refused(
        &[
            "expect",
            "--process",
            "zzzz",
            "--potential",
            "gamma",
            "--loads",
            "1",
        ],
        &["accepted: one-choice"],
    );
    assert!(!e.contains("did you mean"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// The limits are documented

#[test]
fn the_readme_states_every_limit_with_its_value() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    for l in limits::ALL {
        let row = readme
            .lines()
            .find(|line| line.contains(&format!("`{}`", l.name)))
            .unwrap_or_else(|| panic!("README.md does not list limits::{}", l.name));
        let digits: String = row.chars().filter(|c| c.is_ascii_digit()).collect();
        assert!(
            digits.contains(&l.max.to_string()),
            "README.md states limits::{} without its value {}: {row}",
            l.name,
            l.max
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Printed numbers agree with their certificates

/// `lo ≤ v ≤ hi` for an enclosure given as `[lo, hi]`.
fn inside(v: f64, iv: &Value) -> bool {
    let (lo, hi) = (iv[0].as_f64().unwrap(), iv[1].as_f64().unwrap());
    lo <= v && v <= hi
}

#[test]
fn an_enclosed_value_is_printed_inside_its_enclosure() {
    // Φ at α = 1/2 of Two-Choice at (3, 0, 1, 0) (the float route's expected change, printed
    // before, lay outside the enclosure beside it), and Γ, Ψ at other loads and parameters.
    for (pot, loads) in [
        ("phi(alpha=0.5)", "3,0,1,0"),
        ("gamma(alpha=0.3)", "7,1,1,0,2"),
        ("psi(alpha=1.5)", "0,0,9"),
        ("lambda(alpha=0.25)", "4,4,0,1"),
    ] {
        let v = json(&[
            "expect",
            "--process",
            "two-choice",
            "--potential",
            pot,
            "--loads",
            loads,
            "--format",
            "json",
        ]);
        assert_eq!(v["trust"], "enclosure", "{pot}: {v}");
        for name in ["value", "expected_next", "expected_change"] {
            let x = v[name].as_f64().unwrap();
            assert!(
                inside(x, &v["enclosure"][name]),
                "{pot} {name}: {x} outside {}",
                v["enclosure"][name]
            );
        }
    }
}

#[test]
fn no_verdict_prints_inf_or_nan_and_huge_constants_keep_their_value() {
    // c = e^1000000 ≈ 3.0332·10^434294 (1000000·log10 e = 434294.4819...): beyond f64. The claim
    // E[Υ'] ≥ Υ + c is false at every state (E[Υ'] − Υ ≤ 1 for one unit ball); refuted.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("hardening-huge-constant");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("huge.toml");
    std::fs::write(
        &file,
        "title = \"t\"\nkind = \"inequality\"\nexpected = \"refuted\"\nstatement = \"x\"\n[source]\nlocator = \"test\"\nprovenance = \"derived\"\n[setting]\nprocesses = [\"two-choice\"]\npotentials = [\"quadratic\"]\n[constants]\nc = \"exp(1000000)\"\n[claim]\nexpr = \"E_Upsilon >= Upsilon + c\"\n[domain]\nn = [4]\nrandom = 2\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    for format in ["text", "json"] {
        let o = run(&["check", f, "--format", format]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        let lower = o.stdout.to_lowercase();
        assert!(
            !lower.contains("inf") && !lower.contains("nan"),
            "{}",
            o.stdout
        );
        assert!(o.stdout.contains("e434294"), "{}", o.stdout);
    }
    let v = json(&["check", f, "--format", "json"]);
    let w = &v[0]["witness"];
    assert_eq!(v[0]["verdict"], "refuted");
    assert!(w["constants"]["c"].is_null(), "{w}");
    assert!(
        w["constants_text"]["c"]
            .as_str()
            .unwrap()
            .starts_with("3.03321539"),
        "{w}"
    );
}

#[test]
fn a_refuted_formula_shows_the_value_of_each_of_its_parts() {
    // Two-Choice at n = 4, loads (1, 0, 0, 0): bin 2 has rank 2 (ties in index order) and
    // p = 5/16 (the three tied light bins share 1 − 1/16 = 15/16 equally), so w = 5/16 (one
    // unit ball). `rank > n/2` is 2 > 2, false; `w <= 1/n` is 5/16 ≤ 1/4, false: the disjunction
    // fails at bin 2, and the report must show both parts.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("hardening-or-parts");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("or.toml");
    std::fs::write(
        &file,
        "title = \"t\"\nkind = \"inequality\"\nexpected = \"refuted\"\nstatement = \"x\"\n[source]\nlocator = \"test\"\nprovenance = \"derived\"\n[setting]\nprocesses = [\"two-choice\"]\n[claim]\nforall_bins = \"rank > n/2 || w <= 1/n\"\n[domain]\nstates = [[1, 0, 0, 0]]\nfamilies = []\nrandom = 0\n",
    )
    .unwrap();
    let v = json(&["check", file.to_str().unwrap(), "--format", "json"]);
    assert_eq!(v[0]["verdict"], "refuted", "{v}");
    let r = v[0]["witness"]["recheck"].as_str().unwrap();
    assert!(r.contains("at bin 2"), "{r}");
    assert!(r.contains("`rank > n/2` is false (lhs = 2, rhs = 2"), "{r}");
    assert!(
        r.contains("`w <= 1/n` is false (lhs = 5/16, rhs = 1/4"),
        "{r}"
    );
}

// ---------------------------------------------------------------------------------------------
// Every request bounded before work starts

/// A scratch theorem file `name.toml` with `body` after a common head, returned as a path.
fn scratch_file(name: &str, body: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("hardening-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.toml"));
    std::fs::write(
        &file,
        // The kind (the body's first line) before the first table.
        match body.split_once('\n') {
            Some((kind, rest)) => format!("{kind}\ntitle = \"t\"\nexpected = \"open\"\nstatement = \"x\"\n[source]\nlocator = \"test\"\nprovenance = \"derived\"\n{rest}"),
            None => body.to_string(),
        },
    )
    .unwrap();
    file.to_str().unwrap().to_string()
}

#[test]
fn search_and_simulation_sizes_are_refused_before_any_work() {
    // `[domain] random = 2³² − 1` is above SEARCH_STATES (10⁸ states per case).
    let f = scratch_file(
        "random-huge",
        "kind = \"inequality\"\n[setting]\nprocesses = [\"two-choice\"]\n[claim]\nexpr = \"Upsilon >= 0\"\n[domain]\nn = [4]\nrandom = 4294967295\n",
    );
    refused(&["check", &f], &["4294967295", "SEARCH_STATES", "random"]);
    // `--effort 2³² − 1` is above CHECK_EFFORT (1000), refused before any file runs.
    let f = scratch_file(
        "effort",
        "kind = \"inequality\"\n[setting]\nprocesses = [\"two-choice\"]\n[claim]\nexpr = \"Upsilon >= 0\"\n[domain]\nn = [4]\nrandom = 4\n",
    );
    refused(
        &["check", &f, "--effort", "4294967295"],
        &["--effort", "CHECK_EFFORT"],
    );
    // A budget within the file but beyond SEARCH_STATES at the effort: (10⁶ + 0)·1000 = 10⁹.
    let f = scratch_file(
        "effort-product",
        "kind = \"inequality\"\n[setting]\nprocesses = [\"two-choice\"]\n[claim]\nexpr = \"Upsilon >= 0\"\n[domain]\nn = [4]\nrandom = 1000000\n",
    );
    refused(
        &["check", &f, "--effort", "1000"],
        &["SEARCH_STATES", "1000000000"],
    );
    // `simulate --balls 2⁶⁴ − 1`: balls × runs (the default 1 run... here 2) beyond SIM_WORK;
    // the product is stated exactly: (2⁶⁴ − 1)·2 = 36893488147419103230.
    refused(
        &[
            "simulate",
            "--process",
            "two-choice",
            "--n",
            "10",
            "--balls",
            "18446744073709551615",
            "--runs",
            "2",
        ],
        &["--balls × --runs", "36893488147419103230", "SIM_WORK"],
    );
    // A statistical file with burn_in = 10¹⁵ balls: runs × (burn_in + balls) beyond SIM_WORK,
    // refused before the first run (it used to run until killed).
    let f = scratch_file(
        "burn-in",
        "kind = \"statistical\"\n[setting]\nprocesses = [\"two-choice\"]\n[claim]\nstatistic = \"max_gap\"\nprobability = \"<= 10\"\nq = \"1/10\"\nballs = \"n\"\nburn_in = \"1e15\"\nruns = 10\nconfidence = 0.95\n[domain]\nn = [8]\n",
    );
    refused(&["check", &f], &["SIM_WORK", "burn_in"]);
}

#[test]
fn an_unwritable_output_is_refused_before_the_experiment_runs() {
    // /proc cannot hold a new directory: refused at once (the whole experiment used to run first).
    let start = std::time::Instant::now();
    refused(
        &[
            "graph",
            "experiment",
            "--graph",
            "cycle",
            "--n",
            "16,32,64",
            "--out",
            "/proc/nope",
        ],
        &["--out", "/proc/nope"],
    );
    // Not a timing assertion on the work: the message must come before any simulation, which
    // the progress lines on stderr would show (refused() checks stderr is one line).
    let _ = start;
    refused(
        &["multidim", "experiment", "--out", "/proc/nope"],
        &["--out", "/proc/nope"],
    );
}

// ---------------------------------------------------------------------------------------------
// The language's input classes

#[test]
fn literals_names_graphs_and_sweep_outputs_are_validated() {
    // A literal of 5000 digits inside an expression: above DECIMAL_DIGITS (4096) like one in
    // [constants].
    let long = "1".repeat(5000);
    let f = scratch_file(
        "long-literal",
        &format!(
            "kind = \"inequality\"\n[setting]\nprocesses = [\"two-choice\"]\n[claim]\nexpr = \"Upsilon >= -{long}\"\n[domain]\nn = [4]\n"
        ),
    );
    refused(&["check", &f], &["DECIMAL_DIGITS", "5000"]);
    // A constant named like a function: `exp` would be read by `exp` and called by `exp(x)`.
    let f = scratch_file(
        "function-constant",
        "kind = \"inequality\"\n[setting]\nprocesses = [\"two-choice\"]\n[constants]\nexp = 2\n[claim]\nexpr = \"Upsilon >= 0\"\n[domain]\nn = [4]\n",
    );
    refused(&["check", &f], &["constant `exp`", "function"]);
    // A variable of a real claim named like a function.
    let f = scratch_file(
        "function-var",
        "kind = \"real\"\n[vars]\nsqrt = [\"0\", \"1\"]\n[claim]\nexpr = \"sqrt >= 0\"\n",
    );
    refused(&["check", &f], &["variable `sqrt`", "function"]);
    // `edges(0-1 1--2)`: `1--2` is not an edge u-v (it used to be read as 1-2, a 3-vertex path).
    refused(
        &["graph", "info", "--graph", "edges(0-1 1--2)"],
        &["1--2", "u-v"],
    );
    // A sweep with an empty output prefix.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("hardening-sweep-output");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let sw = dir.join("s.toml");
    std::fs::write(
        &sw,
        "runs = 2\nseed = 1\noutput = \"\"\n[grid]\nprocess = [\"two-choice\"]\nn = [10]\nballs_per_n = [5]\n",
    )
    .unwrap();
    refused(&["sweep", sw.to_str().unwrap()], &["output", "prefix"]);
}

#[test]
fn an_edited_shard_row_is_refused_at_merge() {
    use balloc::app::sweep::{Shard, Sweep};
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("hardening-shard-edit");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("s.toml");
    std::fs::write(
        &f,
        "runs = 4\nseed = 3\noutput = \"grid\"\n[grid]\nprocess = [\"two-choice\"]\nn = [10]\nballs_per_n = [5]\n",
    )
    .unwrap();
    let s = Sweep::load(&f).unwrap();
    for i in 0..2 {
        s.run(Some(Shard { index: i, count: 2 }), &|_| {}).unwrap();
    }
    // Change the final gap (field 9) of the first row of shard 0: the row's checksum fails.
    let p = s.shard_path(Shard { index: 0, count: 2 });
    let text = std::fs::read_to_string(&p).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut fields: Vec<String> = lines[2].split(',').map(String::from).collect();
    fields[9] = "0".into();
    fields[10] = "99".into();
    lines[2] = fields.join(",");
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    let e = s.merge(2).unwrap_err().to_string();
    assert!(e.contains("shard-0-of-2") && e.contains("checksum"), "{e}");
}
