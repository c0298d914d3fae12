//! The prover of kind `real`: classic inequalities with known answers proved and false variants
//! refuted at certified points (checked again here in floating point), every certificate of the
//! theorem files written, read back and re-checked by the independent checker, tampered
//! certificates rejected, the same proof whatever the thread count, strictness at open ends and
//! touching points, hypotheses, the constant finder against an independently computed root, and
//! bad input as one-line errors with file, line and column.

use balloc::claim::{self, RunContext, Status, Trust};
use balloc::prover::certificate::Token;
use balloc::prover::{self, Certificate, Options, Outcome, checker};
use std::path::{Path, PathBuf};

use crate::common;
use common::write;

fn scratch(name: &str) -> PathBuf {
    common::scratch_in("prover", name)
}

const HEAD: &str = r#"title = "t"
kind = "real"
expected = "open"
statement = "x"
[source]
locator = "test"
provenance = "derived"
"#;

fn run_text(name: &str, body: &str) -> claim::Verdict {
    let root = scratch(name);
    let p = write(&root, name, &format!("{HEAD}{body}"));
    claim::check(&p, &root, &mut RunContext::default()).unwrap()
}

/// The `x` of a refuted verdict's witness point.
fn coord(v: &claim::Verdict, name: &str) -> f64 {
    v.witness.as_ref().unwrap().constants[name]
}

fn real_files() -> Vec<PathBuf> {
    claim::discover(Path::new("theorems"))
        .unwrap()
        .into_iter()
        .filter(|p| {
            let t = std::fs::read_to_string(p).unwrap();
            t.lines().any(|l| l.trim() == "kind = \"real\"")
        })
        .collect()
}

#[test]
fn every_real_theorem_file_meets_its_status_and_every_certificate_is_rechecked() {
    let root = Path::new("theorems");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("prover-certificates");
    let _ = std::fs::remove_dir_all(&dir);
    let files = real_files();
    assert!(files.len() >= 10, "{files:?}");
    let mut proved = 0;
    for f in &files {
        let mut ctx = RunContext {
            certificates: Some(dir.clone()),
            ..RunContext::default()
        };
        let v =
            claim::check(f, root, &mut ctx).unwrap_or_else(|e| panic!("{}: {e:#}", f.display()));
        assert!(
            !v.contradicts(),
            "{}: {} {:?}",
            v.id,
            v.verdict.name(),
            v.notes
        );
        if v.verdict != Status::Proved {
            continue;
        }
        assert_eq!(v.trust, Trust::Enclosure);
        // Read every written certificate back and re-check it, at a precision the search and the
        // kind's own check did not use.
        let t = claim::load(f, root).unwrap();
        for (problem, path) in claim::kind::real::problems(&t, &dir).unwrap() {
            let cert = Certificate::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
            assert_eq!(cert.id, v.id);
            let ok = checker::verify(&problem, &cert, 160)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(ok.tally, cert.tally, "{}", path.display());
            assert!(ok.tally.leaves() >= 1);
            proved += 1;
        }
    }
    assert!(proved >= 8, "certificates re-checked: {proved}");
}

#[test]
fn classic_inequalities_are_proved_and_false_variants_refuted_at_real_counterexamples() {
    // e^x ≥ 1 + x on [−5, 5]: proved; the tree splits at the touching point 0 first.
    let v = run_text(
        "exp",
        "[vars]\nx = \"[-5, 5]\"\n[claim]\nexpr = \"exp(x) >= 1 + x\"\n",
    );
    assert_eq!(v.verdict, Status::Proved, "{:?}", v.notes);
    // ln(1 + x) ≤ x on [0, 10]: proved.
    let v = run_text(
        "ln",
        "[vars]\nx = \"[0, 10]\"\n[claim]\nexpr = \"ln(1 + x) <= x\"\n",
    );
    assert_eq!(v.verdict, Status::Proved, "{:?}", v.notes);
    // e^x ≥ 1 + x + x²/2 fails for every x < 0 (the remainder e^ξx³/6 is negative): the reported
    // point must violate it in plain floating point too.
    let v = run_text(
        "exp-false",
        "[vars]\nx = \"[-5, 5]\"\n[claim]\nexpr = \"exp(x) >= 1 + x + x^2/2\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted);
    assert_eq!(v.trust, Trust::Enclosure);
    let x = coord(&v, "x");
    assert!(x < 0.0 && x.exp() < 1.0 + x + x * x / 2.0, "x = {x}");
    // ln(1 + x) ≤ x − x²/4 fails for large x.
    let v = run_text(
        "ln-false",
        "[vars]\nx = \"[0, 10]\"\n[claim]\nexpr = \"ln(1 + x) <= x - x^2/4\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted);
    let x = coord(&v, "x");
    assert!((1.0 + x).ln() > x - x * x / 4.0, "x = {x}");
}

fn exp_problem(rhs: &str) -> prover::Problem {
    use balloc::exact::int;
    use balloc::lang::{Cmp, compile_value};
    prover::Problem {
        vars: vec![prover::Var {
            name: "x".into(),
            lo: int(-5),
            hi: int(5),
            lo_open: false,
            hi_open: false,
        }],
        slots: vec![prover::SlotDef::Var(0)],
        lhs: compile_value("exp(x)", &["x"]).unwrap(),
        rhs: compile_value(rhs, &["x"]).unwrap(),
        cmp: Cmp::Ge,
        tol: int(0),
        given: vec![],
        touching: vec![],
        text: "exp(x) >= 1 + x".into(),
    }
}

#[test]
fn the_checker_rejects_tampered_certificates() {
    let p = exp_problem("1 + x");
    let Outcome::Proved { tree, .. } = prover::prove(&p, &Options::default()) else {
        panic!("e^x ≥ 1 + x is not proved");
    };
    let cert = prover::certificate_of(&p, "t/exp", Default::default(), &tree, 64);
    assert!(checker::verify(&p, &cert, 128).is_ok());
    // The first split is at the touching point 0 (the midpoint of [−5, 5] is the shortest dyadic).
    assert_eq!(cert.tree[0], Token::S(0, "0".into()));
    // A split point outside the box.
    let mut bad = cert.clone();
    bad.tree[0] = Token::S(0, "7".into());
    assert!(
        checker::verify(&p, &bad, 128)
            .unwrap_err()
            .contains("split point")
    );
    // Every leaf replaced by a direct bound: the enclosure of e^x − 1 − x over a half of [−5, 5]
    // contains negative numbers, so the checker must refuse.
    let bad = Certificate {
        tree: direct_everywhere(&cert.tree),
        ..cert.clone()
    };
    assert!(checker::verify(&p, &bad, 128).is_err());
    // A truncated tree.
    let mut bad = cert.clone();
    bad.tree.pop();
    assert!(checker::verify(&p, &bad, 128).is_err());
    // The same certificate for a false claim that carries the same text: the leaves do not prove it.
    let q = exp_problem("1 + x + x^2/2");
    assert!(checker::verify(&q, &cert, 128).is_err());
    // A different box.
    let mut r = exp_problem("1 + x");
    r.vars[0].hi = balloc::exact::int(6);
    assert!(
        checker::verify(&r, &cert, 128)
            .unwrap_err()
            .contains("does not match")
    );
}

/// The tokens of a tree in which every monotone step and its subtrees became one direct leaf
/// (a well-formed tree with the same splits).
fn direct_everywhere(tokens: &[Token]) -> Vec<Token> {
    fn walk(n: &prover::Node) -> prover::Node {
        match n {
            prover::Node::Split { var, at, lo, hi } => prover::Node::Split {
                var: *var,
                at: at.clone(),
                lo: Box::new(walk(lo)),
                hi: Box::new(walk(hi)),
            },
            _ => prover::Node::Direct,
        }
    }
    walk(&prover::Node::from_tokens(tokens).unwrap()).tokens()
}

#[test]
fn proofs_do_not_depend_on_the_thread_count() {
    let t = claim::load(
        Path::new("theorems/batched-2022/real-second-order-bound-alpha0.toml"),
        Path::new("theorems"),
    )
    .unwrap();
    let (p, _) = claim::kind::real::problems(&t, Path::new("x"))
        .unwrap()
        .remove(0);
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| match prover::prove(&p, &Options::default()) {
            Outcome::Proved { tree, stats } => (tree.tokens(), stats.boxes),
            other => panic!("not proved: {other:?}"),
        })
    };
    let (a, b) = (run(1), run(2));
    assert_eq!(a, b);
    assert!(a.0.len() > 40, "a non-trivial proof: {} nodes", a.0.len());
}

#[test]
fn strict_claims_at_open_ends_and_touching_points() {
    // e^x > 1 + x on (0, 5]: strict everywhere in the domain (equality only at the excluded end).
    let v = run_text(
        "strict-open",
        "[vars]\nx = \"(0, 5]\"\n[claim]\nexpr = \"exp(x) > 1 + x\"\n",
    );
    assert_eq!(v.verdict, Status::Proved, "{:?}", v.notes);
    // On [0, 5] the end 0 is in the domain and e^0 = 1 + 0: refuted exactly there.
    let v = run_text(
        "strict-closed",
        "[vars]\nx = \"[0, 5]\"\n[claim]\nexpr = \"exp(x) > 1 + x\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted);
    assert_eq!(coord(&v, "x"), 0.0);
    // On [−5, 5] with the touching point 0 stated: e^0 = 1 = 1 + 0, so the strict claim is false
    // at 0, which is in the domain; a touching point exempts nothing. Refuted exactly there.
    let v = run_text(
        "strict-touching",
        "[vars]\nx = \"[-5, 5]\"\n[claim]\nexpr = \"exp(x) > 1 + x\"\ntouching = [{ x = \"0\" }]\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert_eq!(coord(&v, "x"), 0.0);
    // A touching point inside a box is a split point: e^(x − 1/3) ≥ 1 + (x − 1/3) is tight at
    // 1/3, which no dyadic bisection reaches.
    let v = run_text(
        "touching-third",
        "[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"exp(x - 1/3) >= 1 + x - 1/3\"\ntouching = [{ x = \"1/3\" }]\nmax_boxes = 2000\n",
    );
    assert_eq!(v.verdict, Status::Proved, "{:?}", v.notes);
}

#[test]
fn hypotheses_restrict_the_domain() {
    // xy ≤ ((x + y)/2)² ≤ 1/4 < 3/10 when x + y ≤ 1 (AM–GM); without the hypothesis xy reaches
    // 1, so the boxes beyond x + y = 1 must be discarded as outside.
    let v = run_text(
        "amgm",
        "[vars]\nx = \"[0, 1]\"\ny = \"[0, 1]\"\n[claim]\ngiven = [\"x + y <= 1\"]\nexpr = \"x*y <= 3/10\"\n",
    );
    assert_eq!(v.verdict, Status::Proved, "{:?}", v.notes);
    let outside: u64 = v.notes[0]
        .split("outside the hypotheses ")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(outside >= 1, "{:?}", v.notes);
    // The maximum 1/4 is attained at (1/2, 1/2), on the boundary of the hypothesis: stated with
    // a dependent range y = t(1 − x) instead of a hypothesis, the tight claim is proved too.
    let v = run_text(
        "amgm-let",
        "[vars]\nx = \"[0, 1]\"\nt = \"[0, 1]\"\n[claim]\nlet = { y = \"t*(1 - x)\" }\nexpr = \"x*y <= 1/4\"\n",
    );
    assert_eq!(v.verdict, Status::Proved, "{:?}", v.notes);
    // 1/5 is too small: refuted at a point that satisfies the hypothesis (checked in f64).
    let v = run_text(
        "amgm-false",
        "[vars]\nx = \"[0, 1]\"\ny = \"[0, 1]\"\n[claim]\ngiven = [\"x + y <= 1\"]\nexpr = \"x*y <= 1/5\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted);
    let (x, y) = (coord(&v, "x"), coord(&v, "y"));
    assert!(x + y <= 1.0 && x * y > 0.2, "({x}, {y})");
}

#[test]
fn unbounded_ranges_through_a_reciprocal_substitution() {
    // n·ln(1 − 1/n) ≤ −1 for n ≥ 2, i.e. (1 − 1/n)ⁿ ≤ 1/e; multiplied by u = 1/n > 0 it is
    // ln(1 − u) ≤ −u on (0, 1/2], which the file states through the substitution.
    let v = run_text(
        "subst",
        "[vars]\nn = { range = \"[2, inf)\", substitute = \"u = 1/n\" }\n[claim]\nexpr = \"ln(1 - 1/n) <= -1/n\"\n",
    );
    assert_eq!(v.verdict, Status::Proved, "{:?}", v.notes);
    // The false variant ln(1 − 1/n) ≤ −2/n: at n = 2, ln(1/2) = −0.69 > −1.
    let v = run_text(
        "subst-false",
        "[vars]\nn = { range = \"[2, inf)\", substitute = \"u = 1/n\" }\n[claim]\nexpr = \"ln(1 - 1/n) <= -2/n\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted);
    let n = coord(&v, "n");
    assert!(n >= 2.0 && (1.0 - 1.0 / n).ln() > -2.0 / n, "n = {n}");
}

#[test]
fn the_constant_finder_brackets_alpha0_with_a_proof_and_a_counterexample() {
    let root = Path::new("theorems");
    let (_, c) = claim::prepare(
        Path::new("theorems/ptw/real-exp-le-one-plus-x-plus-x2-alpha0.toml"),
        root,
    )
    .unwrap();
    let r = c
        .tighten("alpha0", None, &mut RunContext::default())
        .unwrap();
    let t = &r.per_n[0];
    // Independent route: the positive root of e^x = 1 + x + x² by f64 bisection on [1, 2]
    // (h(1) = 3 − e > 0, h(2) = 7 − e² < 0).
    let h = |x: f64| 1.0 + x + x * x - x.exp();
    let (mut lo, mut hi) = (1.0f64, 2.0f64);
    for _ in 0..60 {
        let m = (lo + hi) / 2.0;
        if h(m) >= 0.0 { lo = m } else { hi = m }
    }
    assert!((lo - 1.793282).abs() < 1e-5, "root {lo}");
    assert!(t.value <= lo && lo - t.value < 1e-3, "{} vs {lo}", t.value);
    let fails = t.fails.unwrap();
    assert!(fails > lo && fails - lo < 1e-3, "{fails} vs {lo}");
    assert_eq!(t.trust_holds, Some(Trust::Enclosure));
    assert_eq!(t.trust_fails, Some(Trust::Enclosure));
}

/// The error of loading and building a file (one line: `file:line:column: message`).
fn build_error(name: &str, body: &str) -> String {
    let root = scratch(name);
    let p = write(&root, name, &format!("{HEAD}{body}"));
    let e = claim::prepare(&p, &root).err().expect("an error");
    let s = e.to_string();
    assert!(!s.contains('\n'), "one line: {s}");
    assert!(s.starts_with(&p.display().to_string()), "{s}");
    s
}

#[test]
fn bad_input_is_a_one_line_error_with_line_and_column() {
    // HEAD has 7 lines; the [vars] header is line 8, the first variable line 9.
    let e = build_error(
        "unbounded",
        "[vars]\nx = \"[0, inf)\"\n[claim]\nexpr = \"x >= 0\"\n",
    );
    assert!(
        e.contains(":9:5: ") && e.contains("unbounded") && e.contains("substitut"),
        "{e}"
    );
    // An undeclared name, pointed at inside the expression string (line 11, column 9 + 6).
    let e = build_error(
        "undeclared",
        "[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"x <= y + 1\"\n",
    );
    assert!(
        e.contains(":11:14: ") && e.contains("unknown name `y`"),
        "{e}"
    );
    // lo > hi.
    let e = build_error(
        "empty",
        "[vars]\nx = \"[1, 0]\"\n[claim]\nexpr = \"x >= 0\"\n",
    );
    assert!(e.contains(":9:5: ") && e.contains("empty"), "{e}");
    // A budget over the limit.
    let e = build_error(
        "budget",
        "[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"x >= 0\"\nmax_boxes = 100000000\n",
    );
    assert!(e.contains(":12:13: ") && e.contains("max_boxes"), "{e}");
    // A range that is not an interval, at the character inside the string.
    let e = build_error(
        "syntax",
        "[vars]\nx = \"0, 1\"\n[claim]\nexpr = \"x >= 0\"\n",
    );
    assert!(
        e.contains(":9:6: ") && e.contains("expected an interval"),
        "{e}"
    );
    // [vars] in another kind.
    let root = scratch("vars-elsewhere");
    let p = write(
        &root,
        "v",
        "title = \"t\"\nkind = \"inequality\"\nexpected = \"open\"\nstatement = \"x\"\n[source]\nlocator = \"t\"\nprovenance = \"derived\"\n[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"n >= 1\"\n[domain]\nn = [2]\n",
    );
    let e = claim::prepare(&p, &root).err().unwrap().to_string();
    assert!(
        e.contains(":9:5: ") && e.contains("only by kind `real`"),
        "{e}"
    );
}
