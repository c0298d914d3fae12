//! Fuzzing the input surface: proptest-generated spec strings, load strings, theorem files and
//! sweep grids, fed to the parsers and to the command line in-process (`balloc::cli::run_args`).
//!
//! The property everywhere is "a clean error or a valid output, never a panic":
//!
//! * a parser returns `Ok` with a value that satisfies its type's invariants (finite numbers,
//!   probabilities summing to 1, a canonical spec that parses back to the same value), or an
//!   error whose message is one short line;
//! * the command line exits 0 (or 1 for a verdict that contradicts its file) with output whose
//!   every number is finite (JSON parses; text has no `NaN`/`inf`), or exits 2 with exactly one
//!   line `error: ...` on stderr and nothing on stdout.
//!
//! Generated sizes stay small (n ≤ 64, short searches), so the default tier takes a few seconds;
//! `BALLOC_LONG=1` runs ten times as many cases. The seed is fixed (deterministic runs);
//! `BALLOC_FUZZ_SEED=<u64>` explores another stream.

use balloc::cli::{Outcome, run_args};
use balloc::loads::Loads;
use balloc::weights::WeightLaw;
use balloc::{potential, process};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config as ProptestConfig, FileFailurePersistence, RngSeed};
use std::path::{Path, PathBuf};

/// The proptest configuration: `cases` (×10 with `BALLOC_LONG`), a fixed seed.
fn config(cases: u32) -> ProptestConfig {
    let long = std::env::var_os("BALLOC_LONG").is_some();
    let seed = std::env::var("BALLOC_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x0BA1_10C5);
    ProptestConfig {
        cases: if long { cases * 10 } else { cases },
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/fuzz.txt",
        ))),
        ..ProptestConfig::default()
    }
}

/// Longest acceptable error line: the longest accepted-name list is a few hundred characters.
const MAX_ERROR_LEN: usize = 1500;

/// An error message is one short line.
fn assert_clean_error(context: &str, msg: &str) {
    assert!(!msg.contains('\n'), "{context}: multi-line error: {msg:?}");
    assert!(
        msg.len() <= MAX_ERROR_LEN,
        "{context}: error of {} bytes: {}…",
        msg.len(),
        &msg[..msg.floor_char_boundary(200)]
    );
    assert!(!msg.trim().is_empty(), "{context}: empty error");
}

/// No token of `text` is a non-finite number (`NaN`, `inf`, `infinity`, any case).
fn assert_no_non_finite(context: &str, text: &str) {
    for tok in text.split(|c: char| !c.is_alphanumeric()) {
        let t = tok.to_ascii_lowercase();
        assert!(
            !(t == "nan" || t == "inf" || t == "infinity"),
            "{context}: non-finite number `{tok}` in output:\n{text}"
        );
    }
}

/// The command-line contract for one run.
fn assert_cli_contract(args: &[String], o: &Outcome, allowed: &[i32]) {
    let context = format!("balloc {}", shown(args));
    assert!(
        allowed.contains(&o.code),
        "{context}: exit code {} (stderr: {})",
        o.code,
        o.stderr
    );
    if o.code == 2 {
        assert!(
            o.stdout.is_empty(),
            "{context}: output on error: {}",
            o.stdout
        );
        assert!(
            o.stderr.starts_with("error: ") && o.stderr.ends_with('\n'),
            "{context}: stderr {:?}",
            o.stderr
        );
        assert_clean_error(&context, o.stderr.trim_end_matches('\n'));
    } else {
        assert!(!o.stdout.is_empty(), "{context}: no output");
        assert_no_non_finite(&context, &o.stdout);
        if args
            .windows(2)
            .any(|w| w[0] == "--format" && w[1] == "json")
        {
            let v: Result<serde_json::Value, _> = serde_json::from_str(&o.stdout);
            assert!(v.is_ok(), "{context}: invalid JSON: {}", o.stdout);
        }
    }
}

/// Arguments for messages (long ones shortened).
fn shown(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            if a.len() > 80 {
                format!("{}…({} bytes)", &a[..a.floor_char_boundary(60)], a.len())
            } else {
                format!("{a:?}")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A scratch directory under the target directory, emptied.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

// ---------------------------------------------------------------------------------------------
// Generators

/// Registered names, near misses and junk.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => select(vec![
            "one-choice", "two-choice", "d-choice", "one-plus-beta", "quantile", "two-thinning",
            "relative-threshold", "mean-thinning", "twinning", "packing", "graphical", "phi", "psi",
            "gamma", "quadratic", "absolute", "lambda", "recovery", "mean-quantile", "unit", "exp",
            "geometric", "two-point", "discrete", "uniform", "skewed", "binomial", "2-choice",
        ])
        .prop_map(String::from),
        1 => select(vec!["two-chioce", "gama", "expo", "Gamma", "TWO-CHOICE", "", "-", "a b"])
            .prop_map(String::from),
        1 => "[a-z+_-]{0,12}",
        1 => "\\PC{0,8}",
    ]
}

/// Parameter values: edge numbers, fractions, lists, junk.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => select(vec![
            "0", "1", "2", "3", "-1", "0.5", "0.25", "1/2", "3/4", "1/0", "0/0", "1/2/3", "nan",
            "NaN", "inf", "-inf", "1e308", "1e-308", "1e309", "1e400", "-0", "64", "65",
            "18446744073709551615", "18446744073709551616", "99999999999999999999999",
            "1e4096", "1e4097", "1e-4097", "1e12", "1e13", "0.5;0.5", "1;2", "0.5;1.5", "", " ",
            "cycle", "torus", "regular", "file", "flow", "greedy", "over", "under", "x",
        ])
        .prop_map(String::from),
        1 => any::<f64>().prop_map(|x| format!("{x}")),
        1 => any::<f64>().prop_map(|x| format!("{x:e}")),
        1 => any::<u64>().prop_map(|x| x.to_string()),
        1 => "[0-9./eE+;-]{1,12}",
    ]
}

/// Parameter keys of the registered specs, and junk.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => select(vec![
            "alpha", "beta", "d", "delta", "threshold", "f", "boundary", "w_minus", "w_plus",
            "kappa", "graph", "strategy", "seed", "mean", "start", "low", "high", "p", "w", "dims",
            "q", "r",
        ])
        .prop_map(String::from),
        1 => "[a-z_]{0,6}",
    ]
}

/// Spec strings: mostly `name(k=v,...)`, sometimes a bare value, sometimes free text.
fn spec() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (name(), prop::option::of(prop::collection::vec((key(), value()), 0..4))).prop_map(
            |(n, params)| match params {
                None => n,
                Some(ps) => {
                    let inner: Vec<String> =
                        ps.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    format!("{n}({})", inner.join(","))
                }
            }
        ),
        1 => (name(), value()).prop_map(|(n, v)| format!("{n}({v})")),
        1 => "[a-z0-9(),=.;/ -]{0,30}",
        1 => "\\PC{0,20}",
    ]
}

/// One token of a load string.
fn load_token() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (0u32..50).prop_map(|v| v.to_string()),
        2 => (-1e6f64..1e6).prop_map(|x| format!("{x}")),
        1 => any::<f64>().prop_map(|x| format!("{x}")),
        1 => any::<f64>().prop_map(|x| format!("{x:e}")),
        1 => select(vec![
            "1e308", "-1e308", "8.98846567431158e307", "1e160", "1e-320", "nan", "inf", "-inf",
            "x", "0x10", "1_000", "+", "-", ".", "1e", "+1", "-0", "１", "٣", "1,5", "99999999999999999999",
        ])
        .prop_map(String::from),
    ]
}

/// Load strings: mostly clean vectors of small integers and decimals, sometimes any tokens with
/// any separators (commas, blanks, newlines, doubled separators) and trailing junk.
fn load_string() -> impl Strategy<Value = String> {
    let clean = prop::collection::vec(
        prop_oneof![4 => (0u32..20).prop_map(|v| v.to_string()),
                    1 => (-50.0f64..50.0).prop_map(|x| format!("{x}"))],
        1..10,
    )
    .prop_map(|v| v.join(","));
    prop_oneof![3 => clean, 1 => messy_load_string()]
}

/// Any tokens with any separators, sometimes with trailing junk.
fn messy_load_string() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(
            (load_token(), select(vec![",", " ", "\n", ", ", ",,", "\t"])),
            0..12,
        ),
        prop::option::weighted(0.3, "\\PC{0,6}"),
    )
        .prop_map(|(toks, junk)| {
            let mut s = String::new();
            for (t, sep) in toks {
                s.push_str(&t);
                s.push_str(sep);
            }
            if let Some(j) = junk {
                s.push_str(&j);
            }
            s
        })
}

/// Mostly `good`, sometimes `bad` (so that a run usually gets past the first argument).
fn mostly<T: std::fmt::Debug + Clone + 'static>(
    good: impl Strategy<Value = T> + 'static,
    bad: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<T> {
    prop_oneof![9 => good, 1 => bad].boxed()
}

/// A claim expression over the named quantities, constants and functions: mostly well formed,
/// sometimes with unknown names, division by zero, `ln(0)` or huge numbers.
fn expr() -> impl Strategy<Value = String> {
    let leaf = mostly(
        select(vec![
            "n",
            "Gamma",
            "E_Gamma",
            "dE_Gamma",
            "gap",
            "spread",
            "alpha",
            "c",
            "delta",
            "2",
            "0.5",
            "eps1(delta)",
            "C2",
            "1",
        ])
        .prop_map(String::from),
        select(vec![
            "E_Gama", "ln(0)", "1/0", "0/0", "sqrt(-1)", "1e308", "1e-308", "b", "Upsilon", "x",
            "Phi", "cosh(1)",
        ])
        .prop_map(String::from),
    );
    let term = leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            3 => (inner.clone(), select(vec!["+", "-", "*", "/"]), inner.clone())
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            1 => (inner.clone(), select(vec!["^"]), (0u32..4).prop_map(|k| k.to_string()))
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            1 => (select(vec!["ln", "sqrt", "exp", "abs", "floor", "ceil"]), inner.clone())
                .prop_map(|(f, a)| format!("{f}({a})")),
            1 => (select(vec!["min", "max"]), inner.clone(), inner)
                .prop_map(|(f, a, b)| format!("{f}({a}, {b})")),
        ]
    });
    (
        term.clone(),
        mostly(
            select(vec!["<=", ">="]),
            select(vec!["<", ">", "==", "=<", ""]),
        ),
        term,
    )
        .prop_map(|(a, op, b)| format!("{a} {op} {b}"))
}

/// A TOML string literal (basic string, escaped).
fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// Theorem files of the inequality and condition kinds: a valid skeleton whose fields are mostly
/// valid and sometimes not, small searches, and sometimes a corrupted byte range.
fn theorem_file() -> impl Strategy<Value = String> {
    let kind = mostly(
        select(vec!["inequality"]),
        select(vec!["condition", "inequalty", "", "statistic"]),
    );
    let expected = mostly(
        select(vec!["holds", "refuted", "open"]),
        select(vec!["hold", ""]),
    );
    let processes = mostly(
        prop::collection::vec(
            select(vec![
                "two-choice",
                "one-choice",
                "d-choice(d=3)",
                "one-plus-beta(beta=0.5)",
                "quantile(delta=0.5)",
                "mean-thinning",
            ])
            .prop_map(String::from),
            1..3,
        ),
        prop::collection::vec(spec(), 0..3),
    );
    let potentials = mostly(
        Just(vec!["gamma".to_string()]),
        prop::collection::vec(
            select(vec!["quadratic", "absolute", "gama", "lambda"]).prop_map(String::from),
            0..3,
        ),
    );
    let constant = mostly(
        select(vec!["0.1", "0.35", "0.5", "1", "\"1/3\""]).prop_map(String::from),
        prop_oneof![
            select(vec!["-1", "0", "1e308", "1e-300", "nan", "inf"]).prop_map(String::from),
            value().prop_map(|v| toml_str(&v)),
        ],
    );
    let ns = mostly(
        prop::collection::vec(select(vec![2u64, 3, 4, 5, 8, 16]), 1..3),
        prop::collection::vec(select(vec![0u64, 1, 2]), 0..3),
    );
    let search = (0u32..6, 0u32..5, 0u32..9, 0u32..11, 0u32..3, any::<u64>());
    let corrupt =
        prop::option::weighted(0.1, (any::<prop::sample::Index>(), 0usize..20, "\\PC{0,4}"));
    (
        (kind, expected, processes, potentials),
        (constant.clone(), constant, expr()),
        (ns, search, prop::bool::weighted(0.1)),
        corrupt,
    )
        .prop_map(
            |((kind, expected, procs, pots), (alpha, c, expr), (ns, s, extra), corrupt)| {
                let list =
                    |v: &[String]| v.iter().map(|x| toml_str(x)).collect::<Vec<_>>().join(", ");
                let ns: Vec<String> = ns.iter().map(|n| n.to_string()).collect();
                let mut text = format!(
                    "title = \"fuzz\"\nkind = \"{kind}\"\nexpected = \"{expected}\"\n\
                     statement = \"x\"\n\n[source]\nlocator = \"x\"\nprovenance = \"recalled\"\n\n\
                     [setting]\nprocesses = [{}]\npotentials = [{}]\n\n[constants]\n\
                     alpha = {alpha}\nc = {c}\ndelta = \"1/2\"\n\n[claim]\nexpr = {}\n\n\
                     [domain]\nn = [{}]\nexhaustive = {{ max_n = {}, max_load = {} }}\n\
                     random = {}\noptimise = {}\nstarts = {}\nseed = {}\n",
                    list(&procs),
                    list(&pots),
                    toml_str(&expr),
                    ns.join(", "),
                    s.0,
                    s.1,
                    s.2,
                    s.3,
                    s.4,
                    s.5
                );
                if extra {
                    text.push_str("unknown_field = 1\n");
                }
                if let Some((at, len, junk)) = corrupt {
                    let start = text.floor_char_boundary(at.index(text.len()));
                    let end = text.floor_char_boundary((start + len).min(text.len()));
                    text.replace_range(start..end, &junk);
                }
                text
            },
        )
}

/// Sweep grids: products of the lists stay far below 2⁶⁴ (the run-size limits are the
/// simulator's); the values are mostly valid. `small` keeps every size tiny, for runs.
fn sweep_file(small: bool) -> impl Strategy<Value = String> {
    let runs: BoxedStrategy<u64> = if small {
        select(vec![2u64, 3]).boxed()
    } else {
        mostly(select(vec![1u64, 2, 3, 1000]), Just(0u64))
    };
    let ns: BoxedStrategy<Vec<u64>> = if small {
        prop::collection::vec(select(vec![2u64, 3, 8, 16]), 1..3).boxed()
    } else {
        mostly(
            prop::collection::vec(select(vec![1u64, 2, 3, 8, 1000, 1_000_000]), 1..3),
            prop::collection::vec(select(vec![0u64, 1]), 0..2),
        )
    };
    let counts: BoxedStrategy<Vec<u64>> = if small {
        prop::collection::vec(select(vec![1u64, 2]), 1..3).boxed()
    } else {
        mostly(
            prop::collection::vec(select(vec![1u64, 2, 50, 1_000_000]), 1..3),
            prop::collection::vec(select(vec![0u64, 1]), 0..2),
        )
    };
    let procs = mostly(
        prop::collection::vec(
            select(vec![
                "two-choice",
                "one-choice",
                "one-plus-beta(beta=0.5)",
                "quantile",
            ])
            .prop_map(String::from),
            1..3,
        ),
        prop::collection::vec(spec(), 0..3),
    );
    let weights = prop::option::of(mostly(
        prop::collection::vec(
            select(vec!["unit", "exp(1)", "geometric(mean=1)"]).prop_map(String::from),
            1..3,
        ),
        prop::collection::vec(
            select(vec!["expo", "exp(1e13)", "exp(-1)"]).prop_map(String::from),
            0..2,
        ),
    ));
    let balls_field = mostly(
        select(vec!["batches", "balls_per_n", "grid_balls", "balls"]),
        select(vec!["none", "two"]),
    );
    let batch_field = mostly(select(vec!["batch_per_n", "batch", "none"]), Just("both"));
    let confidence = mostly(
        select(vec!["", "confidence = 0.9\n"]),
        select(vec!["confidence = 1.5\n", "confidence = nan\n"]),
    );
    (
        runs,
        any::<u64>(),
        ns,
        counts,
        procs,
        weights,
        (balls_field, batch_field, confidence),
    )
        .prop_map(
            move |(runs, seed, ns, counts, procs, weights, (bf, bt, conf))| {
                let nums = |v: &[u64]| {
                    v.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let strs =
                    |v: &[String]| v.iter().map(|x| toml_str(x)).collect::<Vec<_>>().join(", ");
                let (bf, bt, conf) = if small {
                    ("batches", "batch_per_n", "")
                } else {
                    (bf, bt, conf)
                };
                let procs = if small {
                    vec!["two-choice".to_string()]
                } else {
                    procs
                };
                let mut top =
                    format!("runs = {runs}\nseed = {seed}\noutput = \"out/grid\"\n{conf}");
                let mut grid = format!(
                    "[grid]\nprocess = [{}]\nn = [{}]\n",
                    strs(&procs),
                    nums(&ns)
                );
                if let Some(w) = weights {
                    grid.push_str(&format!("weights = [{}]\n", strs(&w)));
                }
                match bt {
                    "batch_per_n" => grid.push_str(&format!("batch_per_n = [{}]\n", nums(&counts))),
                    "batch" => grid.push_str(&format!("batch = [{}]\n", nums(&counts))),
                    "both" => grid.push_str("batch = [1]\nbatch_per_n = [1]\n"),
                    _ => {}
                }
                match bf {
                    "batches" => grid.push_str(&format!("batches = [{}]\n", nums(&counts))),
                    "balls_per_n" => grid.push_str(&format!("balls_per_n = [{}]\n", nums(&counts))),
                    "grid_balls" => grid.push_str(&format!("balls = [{}]\n", nums(&counts))),
                    "balls" => top.push_str("balls = 100\n"),
                    "two" => {
                        top.push_str("balls = 100\n");
                        grid.push_str("batches = [1]\n");
                    }
                    _ => {}
                }
                format!("{top}{grid}")
            },
        )
}

// ---------------------------------------------------------------------------------------------
// Parsers

proptest! {
    #![proptest_config(config(512))]

    /// Spec strings through every spec parser: an error is one short line; a parsed value has a
    /// canonical spec that parses back to the same value.
    #[test]
    fn spec_parsers_give_clean_errors_or_canonical_values(s in spec()) {
        match balloc::spec::Spec::parse(&s) {
            Ok(sp) => prop_assert!(!sp.name.is_empty()),
            Err(e) => assert_clean_error(&format!("Spec::parse({s:?})"), &e.to_string()),
        }
        match process::parse(&s) {
            Ok(p) => {
                let again = process::parse(&p.spec());
                prop_assert!(again.is_ok(), "{s:?} → {} does not parse back", p.spec());
                prop_assert_eq!(again.unwrap().spec(), p.spec());
                // A rank-based process has an allocation vector: a distribution over 5 ranks.
                if let Ok(Some(v)) = p.rank_probabilities(5) {
                    prop_assert!(v.iter().all(|x| x.is_finite() && *x >= 0.0), "{s:?}: {v:?}");
                    prop_assert!((v.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{s:?}: {v:?}");
                }
            }
            Err(e) => assert_clean_error(&format!("process::parse({s:?})"), &e.to_string()),
        }
        match potential::parse(&s) {
            Ok(p) => {
                let again = potential::parse(&p.spec());
                prop_assert!(again.is_ok(), "{s:?} → {} does not parse back", p.spec());
                prop_assert_eq!(again.unwrap().spec(), p.spec());
            }
            Err(e) => assert_clean_error(&format!("potential::parse({s:?})"), &e.to_string()),
        }
        match WeightLaw::parse(&s) {
            Ok(w) => {
                let again = WeightLaw::parse(&w.spec());
                prop_assert_eq!(again.as_ref(), Ok(&w), "{}", w.spec());
                prop_assert!(w.mean().is_finite() && w.mean() >= 0.0, "{s:?}");
                prop_assert!(w.second_moment().is_finite(), "{s:?}");
            }
            Err(e) => assert_clean_error(&format!("WeightLaw::parse({s:?})"), &e.to_string()),
        }
        if let Err(e) = balloc::multidim::BallLaw::parse(&s) {
            assert_clean_error(&format!("BallLaw::parse({s:?})"), &e.to_string());
        }
        if let Err(e) = balloc::multidim::Choice::parse(&s) {
            assert_clean_error(&format!("Choice::parse({s:?})"), &e.to_string());
        }
        if let Err(e) = balloc::spec::parse_ratio(&s) {
            assert_clean_error(&format!("parse_ratio({s:?})"), &e);
        }
        if let Ok(x) = balloc::spec::parse_f64(&s) {
            prop_assert!(x.is_finite());
        }
    }

    /// Load strings: a parsed vector has n ≥ 1, finite entries, a finite total and finite
    /// normalised loads; otherwise the error is one short line.
    #[test]
    fn load_strings_parse_to_finite_vectors_or_clean_errors(
        s in prop_oneof![1 => load_string(), 3 => messy_load_string()]
    ) {
        match Loads::parse(&s) {
            Ok(x) => {
                prop_assert!(x.n() >= 1);
                prop_assert!(x.as_slice().iter().all(|v| v.is_finite()));
                prop_assert!(x.total().is_finite(), "{s:?}");
                prop_assert!(x.normalized().iter().all(|v| v.is_finite()), "{s:?}");
            }
            Err(e) => assert_clean_error(&format!("Loads::parse({s:?})"), &e.to_string()),
        }
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// Theorem files through the schema parser and the check builder (all validation, no
    /// search): an error is one line naming the file.
    #[test]
    fn theorem_files_parse_or_give_clean_errors(text in theorem_file()) {
        if let Err(e) = balloc::claim::schema::parse_file("t/fuzz.toml", &text) {
            let m = e.to_string();
            assert_clean_error("parse_file", &m);
            prop_assert!(m.contains("fuzz.toml"), "{m}");
        }
    }

    /// Sweep grids through the sweep parser: a parsed sweep has configurations with at least
    /// one ball and one run; otherwise the error is one line.
    #[test]
    fn sweep_grids_parse_or_give_clean_errors(text in sweep_file(false)) {
        let path = Path::new("grids/fuzz.toml");
        match balloc::app::sweep::Sweep::parse(&text, path) {
            Ok(sw) => {
                prop_assert!(!sw.entries.is_empty(), "an empty grid: {text}");
                prop_assert!(sw.runs >= 1);
                prop_assert!(sw.entries.iter().all(|e| e.balls >= 1));
                prop_assert!(sw.confidence > 0.0 && sw.confidence < 1.0);
            }
            Err(e) => assert_clean_error(&format!("Sweep::parse({text:?})"), &e.to_string()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The command line, in-process

/// One of a few fixed arguments.
fn one_of(xs: &[&'static str]) -> impl Strategy<Value = String> + use<> {
    select(xs.to_vec()).prop_map(String::from)
}

/// Mostly one of `good`, sometimes one of `bad`.
fn arg(good: &[&'static str], bad: &[&'static str]) -> BoxedStrategy<String> {
    mostly(one_of(good), one_of(bad))
}

proptest! {
    #![proptest_config(config(96))]

    /// `balloc expect` with fuzzed specs, loads, weights, batches and ties.
    #[test]
    fn cli_expect_gives_finite_output_or_one_line_errors(
        process in mostly(one_of(&["two-choice", "one-choice", "d-choice(d=3)",
            "one-plus-beta(beta=0.5)", "mean-thinning", "twinning", "packing",
            "graphical(graph=cycle)", "quantile(delta=0.5)", "relative-threshold(f=1)"]), spec()),
        potential in mostly(one_of(&["gamma(alpha=0.5)", "phi(alpha=0.1)", "psi(alpha=2)",
            "quadratic", "absolute", "lambda(alpha=0.5)", "mean-quantile"]), spec()),
        loads in mostly(load_string(), prop_oneof![messy_load_string(), one_of(&["1e160,0",
            "1e308,1e308", "8e307,8e307,8e307", "1e300,-1e300,5", "@/nonexistent/loads.txt",
            "@", ""])]),
        weights in mostly(prop_oneof![3 => Just("unit".to_string()), 1 => one_of(&["exp(1)",
            "geometric(mean=1)", "geometric(mean=2,start=1)", "two-point(low=0.5,high=1.5,p=0.5)",
            "exp(1e12)"])],
            prop_oneof![spec(), one_of(&["exp(1e308)", "exp(0)", "discrete(w=1;2,p=0.5)"])]),
        // (Batches of 4 to 8 balls are valid too, but an enumeration of 8⁸ outcomes takes
        // seconds; 1000 balls go through closed forms or are refused by the enumeration limit.)
        batch in arg(&["1", "2", "3", "1000"], &["1000000001", "0", "-1", "x",
            "18446744073709551615", "18446744073709551616"]),
        ties in arg(&["random", "fixed"], &["rand", ""]),
        format in arg(&["text", "json"], &["jsn"]),
    ) {
        let args: Vec<String> = ["expect", "--process", &process, "--potential", &potential,
            "--loads", &loads, "--weights", &weights, "--batch", &batch, "--ties", &ties,
            "--format", &format].iter().map(|s| s.to_string()).collect();
        let o = run_args(&args);
        assert_cli_contract(&args, &o, &[0, 2]);
    }

    /// `balloc pvec` with fuzzed processes, sizes, loads and quantiles.
    #[test]
    fn cli_pvec_gives_finite_output_or_one_line_errors(
        process in mostly(one_of(&["two-choice", "d-choice(d=3)", "quantile(delta=0.25)",
            "one-plus-beta(beta=0.5)", "mean-thinning", "graphical(graph=cycle)", "one-choice"]),
            spec()),
        size in mostly(
            prop_oneof![
                one_of(&["1", "4", "8", "16", "20000", "7"])
                    .prop_map(|n| vec!["--n".to_string(), n]),
                load_string().prop_map(|l| vec!["--loads".to_string(), l]),
            ],
            prop_oneof![
                one_of(&["0", "67108865", "18446744073709551615", "1e9", "x"])
                    .prop_map(|n| vec!["--n".to_string(), n]),
                messy_load_string().prop_map(|l| vec!["--loads".to_string(), l]),
                Just(vec![]),
            ],
        ),
        delta in prop::option::weighted(0.4, mostly(one_of(&["0.5", "1/4", "1/2", "3/4"]),
            prop_oneof![one_of(&["1/3", "0", "1", "2", "1e1000000000", "1/2/3", "nan"]), value()])),
        format in one_of(&["text", "json"]),
    ) {
        let mut args: Vec<String> = vec!["pvec".into(), "--process".into(), process];
        args.extend(size);
        if let Some(d) = delta {
            args.extend(["--delta".to_string(), d]);
        }
        args.extend(["--format".to_string(), format]);
        let o = run_args(&args);
        assert_cli_contract(&args, &o, &[0, 2]);
    }

    /// `balloc graph info` with families, sizes (small, or beyond the limit) and routings.
    #[test]
    fn cli_graph_info_gives_output_or_one_line_errors(
        graph in arg(&["cycle", "path", "torus", "hypercube", "complete", "regular"],
            &["cyle", "@/nonexistent/g.txt", ""]),
        n in arg(&["4", "8", "9", "16", "3", "2"], &["0", "1", "1048577", "18446744073709551615"]),
        d in arg(&["3", "2"], &["0", "1", "13"]),
        routing in arg(&["auto", "explicit", "spanning-tree", "electrical", "electrical-mw"],
            &["electric"]),
    ) {
        let args: Vec<String> = ["graph", "info", "--graph", &graph, "--n", &n, "--d", &d,
            "--routing", &routing, "--format", "json"].iter().map(|s| s.to_string()).collect();
        let o = run_args(&args);
        assert_cli_contract(&args, &o, &[0, 2]);
    }

    /// `balloc multidim simulate` with sizes at and beyond their limits (tiny runs otherwise).
    #[test]
    fn cli_multidim_simulate_gives_output_or_one_line_errors(
        n in arg(&["1", "4", "16"], &["0", "1000000000000"]),
        balls in arg(&["0", "1", "10", "100"], &["1099511627777"]),
        ball in mostly(one_of(&["uniform(dims=8,f=2)", "skewed(dims=4,f=1,r=2)",
            "binomial(dims=4,q=0.5)", "uniform(dims=64,f=32)", "uniform(dims=3,f=3)"]),
            prop_oneof![spec(), one_of(&["uniform(dims=65,f=2)", "uniform(dims=4,f=5)"])]),
        batch in arg(&["1", "3", "64"], &["1000000000000000000", "0"]),
        runs in arg(&["1", "2", "3"], &["0", "1000001"]),
        format in arg(&["json", "text"], &["csv"]),
    ) {
        let args: Vec<String> = ["multidim", "simulate", "--n", &n, "--balls", &balls, "--ball",
            &ball, "--batch", &batch, "--runs", &runs, "--format", &format]
            .iter().map(|s| s.to_string()).collect();
        let o = run_args(&args);
        assert_cli_contract(&args, &o, &[0, 2]);
    }
}

proptest! {
    #![proptest_config(config(48))]

    /// `balloc check` on generated theorem files (small searches), in a scratch theorem
    /// directory: exit 0 or 1 with valid JSON, or 2 with one line.
    #[test]
    fn cli_check_gives_verdicts_or_one_line_errors(text in theorem_file()) {
        let root = scratch("check").join("th");
        let dir = root.join("p");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("paper.toml"),
            "authors = [\"A\"]\ntitle = \"T\"\nvenue = \"V\"\nyear = 2022\n").unwrap();
        std::fs::write(dir.join("fuzz.toml"), &text).unwrap();
        let args: Vec<String> = vec!["check".into(), "p/fuzz".into(), "--theorems".into(),
            root.display().to_string(), "--format".into(), "json".into()];
        let o = run_args(&args);
        assert_cli_contract(&args, &o, &[0, 1, 2]);
        if o.code != 2 {
            let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
            let verdict = v[0]["verdict"].as_str().unwrap_or("");
            prop_assert!(["holds", "refuted", "inconclusive", "proved"].contains(&verdict),
                "{}", o.stdout);
        }
    }

    /// `balloc sweep` on small generated grids in a scratch folder: exit 0 with files whose
    /// numbers are finite, or 2 with one line.
    #[test]
    fn cli_sweep_writes_finite_tables_or_gives_one_line_errors(text in sweep_file(true)) {
        let dir = scratch("sweep");
        std::fs::create_dir_all(dir.join("out")).unwrap();
        let file = dir.join("grid.toml");
        std::fs::write(&file, &text).unwrap();
        let args: Vec<String> = vec!["sweep".into(), file.display().to_string()];
        let o = run_args(&args);
        let context = format!("balloc sweep on\n{text}");
        prop_assert!(o.code == 0 || o.code == 2, "{context}: exit {}: {}", o.code, o.stderr);
        if o.code == 2 {
            assert_clean_error(&context, o.stderr.trim_end());
        } else {
            for f in ["out/grid.csv", "out/grid.summary.csv"] {
                let t = std::fs::read_to_string(dir.join(f)).unwrap();
                prop_assert!(t.lines().count() >= 2, "{f}: {t}");
                assert_no_non_finite(&format!("{context}\n{f}"), &t);
            }
        }
    }
}
