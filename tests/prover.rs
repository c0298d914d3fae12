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

use common::REAL_HEAD as HEAD;

fn run_text(name: &str, body: &str) -> claim::Verdict {
    common::check_scratch("prover", name, &format!("{HEAD}{body}"))
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
            let ok = problem
                .verify(&cert, 160)
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
    // The proof is one Taylor model about 0 (eˣ − 1 − x = e^ξ x²/2: coefficients 0, 0 at 0 and
    // e^{[−5, 5]}/2 > 0 over the box). A tree split at 0 with that leaf on both halves is also a
    // proof (the remainder over [−5, 5] encloses the one over each half).
    assert!(matches!(cert.tree[..], [Token::T(..)]), "{:?}", cert.tree);
    let split = Certificate {
        tree: vec![
            Token::S(0, "0".into()),
            cert.tree[0].clone(),
            cert.tree[0].clone(),
        ],
        ..cert.clone()
    };
    assert!(checker::verify(&p, &split, 128).is_ok());
    // A split point outside the box.
    let mut bad = split.clone();
    bad.tree[0] = Token::S(0, "7".into());
    assert!(
        checker::verify(&p, &bad, 128)
            .unwrap_err()
            .contains("split point")
    );
    // Every leaf replaced by a direct bound: the enclosure of e^x − 1 − x over a half of [−5, 5]
    // contains negative numbers, so the checker must refuse.
    let bad = Certificate {
        tree: direct_everywhere(&split.tree),
        ..cert.clone()
    };
    assert!(checker::verify(&p, &bad, 128).is_err());
    // A truncated tree.
    let mut bad = split.clone();
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
        Path::new("theorems/graphical-2022/real-lemma-3-8-one-step-light.toml"),
        Path::new("theorems"),
    )
    .unwrap();
    // The reduced claim of the file (the one its tree proves; the stated claim follows from it
    // through two lemmas).
    let p = claim::kind::real::problems(&t, Path::new("x"))
        .unwrap()
        .remove(0)
        .0
        .derivation
        .expect("the file derives its claim")
        .reduced;
    // Four variables, monotone steps whose derivative goals are searched like boxes, some of them
    // given up and split: the tree and the counts must still not depend on the threads.
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| match prover::prove(&p, &Options::default()) {
            Outcome::Proved { tree, stats, .. } => (tree.tokens(), stats.boxes),
            other => panic!("not proved: {other:?}"),
        })
    };
    let (a, b) = (run(1), run(2));
    assert_eq!(a, b);
    assert!(a.0.len() > 100, "a non-trivial proof: {} nodes", a.0.len());
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
    let s = common::build_error("prover", name, &format!("{HEAD}{body}"));
    assert!(!s.contains('\n'), "one line: {s}");
    let p = common::scratch_path("prover", name);
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

/// The tally of the proof in a `proved` verdict's note, e.g. `Taylor 2`.
fn taylor_leaves(v: &claim::Verdict) -> u64 {
    v.notes[0]
        .split("Taylor model ")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

#[test]
fn contact_of_order_four_five_and_six_is_proved_by_taylor_models() {
    // Each truth by Lagrange's remainder: eˣ − T_k(x) = e^ξ x^{k+1}/(k+1)! for some ξ between 0
    // and x, with T_k the Taylor polynomial of degree k at 0.
    // Order 4 at the interior point 0: eˣ − T₃(x) = e^ξ x⁴/24 ≥ 0 on [−1, 1].
    let v = run_text(
        "contact-4",
        "[vars]\nx = \"[-1, 1]\"\n[claim]\nexpr = \"exp(x) >= 1 + x + x^2/2 + x^3/6\"\n",
    );
    assert_eq!(v.verdict, Status::Proved, "{:?}", v.notes);
    assert!(taylor_leaves(&v) >= 1, "{:?}", v.notes);
    // Order 5 at the end 0 (odd: one-sided): eˣ − T₄(x) = e^ξ x⁵/120 ≥ 0 on [0, 1].
    let v = run_text(
        "contact-5",
        "[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"exp(x) >= 1 + x + x^2/2 + x^3/6 + x^4/24\"\n",
    );
    assert_eq!(v.verdict, Status::Proved, "{:?}", v.notes);
    assert!(taylor_leaves(&v) >= 1, "{:?}", v.notes);
    // Order 6 at the interior point 0: eˣ − T₅(x) = e^ξ x⁶/720 ≥ 0 on [−1, 1].
    let v = run_text(
        "contact-6",
        "[vars]\nx = \"[-1, 1]\"\n[claim]\nexpr = \"exp(x) >= 1 + x + x^2/2 + x^3/6 + x^4/24 + x^5/120\"\n",
    );
    assert_eq!(v.verdict, Status::Proved, "{:?}", v.notes);
    assert!(taylor_leaves(&v) >= 1, "{:?}", v.notes);
    // Order 6 of an even function at a non-dyadic touching point: cosh(x − 1/3) − 1 −
    // (x − 1/3)²/2 − (x − 1/3)⁴/24 = Σ_{j ≥ 3} (x − 1/3)^{2j}/(2j)! ≥ 0 on [0, 1].
    let v = run_text(
        "contact-6-third",
        "[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"cosh(x - 1/3) >= 1 + (x - 1/3)^2/2 + (x - 1/3)^4/24\"\ntouching = [{ x = \"1/3\" }]\n",
    );
    assert_eq!(v.verdict, Status::Proved, "{:?}", v.notes);
}

#[test]
fn false_variants_of_high_order_contact_are_refuted() {
    // Each must be refuted, at a point that violates the claim in f64 as well where f64 can
    // see it.
    // The bound of order 4 moved up by 10⁻¹²: at x = 0 the left side is 1 and the right side
    // 1 + 10⁻¹² (false on |x| < (24·10⁻¹²)^{1/4} ≈ 2.2·10⁻³ only).
    let v = run_text(
        "contact-4-moved",
        "[vars]\nx = \"[-1, 1]\"\n[claim]\nexpr = \"exp(x) >= 1 + x + x^2/2 + x^3/6 + 1e-12\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert!(coord(&v, "x").abs() < 2.3e-3, "{}", coord(&v, "x"));
    // One Taylor term dropped: eˣ − T₂(x) = e^ξ x³/6 < 0 for every x < 0.
    let v = run_text(
        "contact-4-dropped",
        "[vars]\nx = \"[-1, 1]\"\n[claim]\nexpr = \"exp(x) >= 1 + x + x^2/2\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    let x = coord(&v, "x");
    assert!(x < 0.0 && x.exp() < 1.0 + x + x * x / 2.0, "x = {x}");
    // Order 5 is odd: on [−10⁻³, 1] the claim fails on [−10⁻³, 0) only, by at most
    // 10⁻¹⁵/120 ≈ 8.3·10⁻¹⁸ (below f64's resolution of eˣ ≈ 1, so only the certified point
    // counts).
    let v = run_text(
        "contact-5-left",
        "[vars]\nx = \"[-1/1000, 1]\"\n[claim]\nexpr = \"exp(x) >= 1 + x + x^2/2 + x^3/6 + x^4/24\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert!(coord(&v, "x") < 0.0, "{}", coord(&v, "x"));
    // The bound of order 6 moved by 10⁻¹²: false on |x| < (720·10⁻¹²)^{1/6} ≈ 0.03.
    let v = run_text(
        "contact-6-moved",
        "[vars]\nx = \"[-1, 1]\"\n[claim]\nexpr = \"exp(x) >= 1 + x + x^2/2 + x^3/6 + x^4/24 + x^5/120 + 1e-12\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert!(coord(&v, "x").abs() < 0.031, "{}", coord(&v, "x"));
    // The order-6 bound with its x⁵/120 term dropped: eˣ − T₄(x) = e^ξ x⁵/120 < 0 for x < 0.
    let v = run_text(
        "contact-6-dropped",
        "[vars]\nx = \"[-1, 1]\"\n[claim]\nexpr = \"exp(x) >= 1 + x + x^2/2 + x^3/6 + x^4/24\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert!(coord(&v, "x") < 0.0, "{}", coord(&v, "x"));
}

#[test]
fn the_restated_lemma_3_8_claims_follow_from_the_printed_form() {
    // The two steps of the files' derivation, checked independently of the claim language:
    // (i) p·x₁ − (1 − p)·x₂ = −a·ε_t/(16(1 − s)) exactly, in rationals, at random rational
    // points of both halves; (ii) the restated left side is at least the original one, in f64.
    use balloc::exact::Q;
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let q = |r: &mut rand_chacha::ChaCha8Rng, den: i64| {
        Q::new(r.random_range(1..den).into(), den.into())
    };
    let one = Q::from_integer(1.into());
    for _ in 0..200 {
        let (s, a, b) = (
            q(&mut rng, 2000) / Q::from_integer(2.into()),
            q(&mut rng, 1000),
            q(&mut rng, 1000),
        );
        let eps = &a * &s / Q::from_integer(2.into());
        let et = &eps + &b * (&s - &eps);
        let sixteen = Q::from_integer(16.into());
        let first = -(&a * &et) / (&sixteen * (&one - &s));
        // Light: p = s − ε_t, x₁ = a/16, x₂ = as/(16(1 − s)); heavy: p = 1 − s − ε_t and the
        // two x swapped.
        let (xl, xs) = (&a / &sixteen, &a * &s / (&sixteen * (&one - &s)));
        let light = (&s - &et) * &xl - (&one - (&s - &et)) * &xs;
        let heavy = (&one - &s - &et) * &xs - (&s + &et) * &xl;
        assert_eq!(light, first);
        assert_eq!(heavy, first);
    }
    for _ in 0..100_000 {
        let (s, a, b, w): (f64, f64, f64, f64) = (
            rng.random_range(1e-9..0.5),
            rng.random_range(0.0..1.0),
            rng.random_range(0.0..1.0),
            rng.random_range(0.0..1.0),
        );
        for heavy in [false, true] {
            let eps = a * s / 2.0;
            let et = eps + b * (s - eps);
            let (p, x1, x2) = if heavy {
                (1.0 - s - et, a * s / (16.0 * (1.0 - s)), a / 16.0)
            } else {
                (s - et, a / 16.0, a * s / (16.0 * (1.0 - s)))
            };
            let tau = 2.0 * w / (1.0 + w * w);
            let original = p * (x1.cosh() - 1.0 + tau * x1.sinh())
                + (1.0 - p) * (x2.cosh() - 1.0 - tau * x2.sinh());
            let restated = p * (x1.cosh() - 1.0)
                + (1.0 - p) * (x2.cosh() - 1.0)
                + tau * p * x1.powi(3) * x1.cosh() / 6.0
                - tau * a * et / (16.0 * (1.0 - s));
            // Cancellation leaves f64 errors of a few ulps of the terms (≤ 1).
            assert!(
                restated >= original - 1e-15,
                "{s} {a} {b} {w} {heavy}: {restated} < {original}"
            );
        }
    }
}

/// The problem `lhs cmp rhs` in one variable `x` over `[lo, hi]` (closed).
fn x_problem(lo: &str, hi: &str, lhs: &str, cmp: balloc::lang::Cmp, rhs: &str) -> prover::Problem {
    use balloc::lang::compile_value;
    let q = |s: &str| prover::boxes::parse_q(s).unwrap();
    prover::Problem {
        vars: vec![prover::Var {
            name: "x".into(),
            lo: q(lo),
            hi: q(hi),
            lo_open: false,
            hi_open: false,
        }],
        slots: vec![prover::SlotDef::Var(0)],
        lhs: compile_value(lhs, &["x"]).unwrap(),
        rhs: compile_value(rhs, &["x"]).unwrap(),
        cmp,
        tol: balloc::exact::int(0),
        given: vec![],
        touching: vec![],
        text: format!("{lhs} {cmp:?} {rhs}"),
    }
}

#[test]
fn the_checker_rejects_tampered_taylor_models() {
    // eˣ ≥ 1 + x + x²/2 + x³/6 on [−1, 1]: contact of order 4 at 0, proved by Taylor models
    // (the test of high-order contact above).
    let p = x_problem(
        "-1",
        "1",
        "exp(x)",
        balloc::lang::Cmp::Ge,
        "1 + x + x^2/2 + x^3/6",
    );
    let Outcome::Proved { tree, .. } = prover::prove(&p, &Options::default()) else {
        panic!("not proved");
    };
    let cert = prover::certificate_of(&p, "t/contact-4", Default::default(), &tree, 64);
    assert!(checker::verify(&p, &cert, 128).is_ok());
    let models: Vec<usize> = (0..cert.tree.len())
        .filter(|&i| matches!(cert.tree[i], Token::T(..)))
        .collect();
    assert!(!models.is_empty(), "{:?}", cert.tree);
    let degree = |a: &[u8]| a.iter().map(|&v| v as usize).sum::<usize>();
    for &i in &models {
        let Token::T(at, order, coeffs) = cert.tree[i].clone() else {
            unreachable!()
        };
        for j in 0..coeffs.len() {
            let (a, lo, hi) = coeffs[j].clone();
            let q = |s: &str| prover::boxes::parse_q(s).unwrap();
            let text = |x: &balloc::exact::Q| prover::boxes::q_text(x);
            let mut c = coeffs.clone();
            if degree(&a) < order {
                // A coefficient at the point moved by 1/1000 (above its recorded upper end, so
                // outside any enclosure of the true value).
                let moved = q(&hi) + balloc::exact::Q::new(1.into(), 1000.into());
                c[j] = (a.clone(), text(&moved), text(&moved));
                let mut bad = cert.clone();
                bad.tree[i] = Token::T(at.clone(), order, c);
                let e = checker::verify(&p, &bad, 128).unwrap_err();
                assert!(e.contains("coefficient"), "{e}");
            } else {
                // The remainder (a coefficient of the top order over the box) shrunk to the upper
                // half of its recorded range: eˣ/24 over a box of positive width is no point.
                assert!(q(&lo) < q(&hi), "a remainder of positive width");
                let mid = (q(&lo) + q(&hi)) / balloc::exact::int(2);
                c[j] = (a.clone(), text(&mid), hi.clone());
                let mut bad = cert.clone();
                bad.tree[i] = Token::T(at.clone(), order, c);
                let e = checker::verify(&p, &bad, 128).unwrap_err();
                assert!(e.contains("remainder"), "{e}");
            }
        }
    }
}

#[test]
fn rewrites_are_derived_again_and_a_wrong_sign_is_rejected() {
    use balloc::lang::Cmp;
    use prover::RewriteRecord;
    use prover::rewrite;
    // x/(x + 2) ≤ x/2 on [0, 1]: with x + 2 > 0 it is 2x ≤ x(x + 2), i.e. 0 ≤ x², true (tight
    // at 0). The search multiplies the denominator out, its sign proved.
    let p = x_problem("0", "1", "x/(x + 2)", Cmp::Le, "x/2");
    let Outcome::Proved { tree, rewrites, .. } = prover::prove(&p, &Options::default()) else {
        panic!("not proved");
    };
    assert!(
        rewrites
            .iter()
            .any(|r| matches!(r, rewrite::Rewrite::Denominator { .. })),
        "{rewrites:?}"
    );
    let cert = prover::certificate_with(&p, "t/den", Default::default(), &rewrites, &tree, 64);
    assert!(checker::verify(&p, &cert, 128).is_ok());
    // The recorded power changed: not the rewrite the checker finds.
    let mut bad = cert.clone();
    for r in &mut bad.rewrites {
        if let RewriteRecord::Denominator { power, .. } = r {
            *power = 2;
        }
    }
    assert!(checker::verify(&p, &bad, 128).is_err());

    // A forged rewrite with the wrong sign. x/(x − 2) ≤ −1 on [0, 1] is false: with x − 2 < 0 it
    // is x ≥ −(x − 2) = 2 − x, i.e. x ≥ 1 (false at x = 0: 0 ≤ −1 fails). Multiplied out as if
    // x − 2 were positive it becomes x ≤ 2 − x, true on [0, 1]; a certificate made of that rewrite
    // and a valid proof of the rewritten claim must be rejected for the sign alone.
    let f = x_problem("0", "1", "x/(x - 2)", Cmp::Le, "-1");
    let ds = rewrite::denominators(&f);
    assert_eq!(ds.len(), 1);
    let (d, k) = ds[0].clone();
    let g = rewrite::multiply(&f, &d, k);
    let Outcome::Proved { tree, rewrites, .. } = prover::prove(&g, &Options::default()) else {
        panic!("x ≤ 2 − x on [0, 1] not proved");
    };
    assert!(rewrites.is_empty(), "{rewrites:?}");
    // The rewritten claim's tree is a valid proof of it.
    let honest = prover::certificate_of(&g, "t/forged", Default::default(), &tree, 64);
    assert!(checker::verify(&g, &honest, 128).is_ok());
    let forged = Certificate {
        claim: f.text.clone(),
        rewrites: vec![RewriteRecord::Denominator {
            index: 0,
            factor: rewrite::factor_text(&f, &d, 0),
            power: k,
            proof: vec![Token::D],
        }],
        ..honest.clone()
    };
    let e = checker::verify(&f, &forged, 128).unwrap_err();
    assert!(e.contains("sign"), "{e}");
    // And the search refutes the claim (at a corner, x = 0).
    assert!(matches!(
        prover::prove(&f, &Options::default()),
        Outcome::Refuted { .. }
    ));
}

#[test]
fn the_printed_second_order_bound_is_proved_after_rewrites_the_checker_redoes() {
    use prover::RewriteRecord;
    let t = claim::load(
        Path::new("theorems/batched-2022/real-second-order-bound-printed.toml"),
        Path::new("theorems"),
    )
    .unwrap();
    let p = claim::kind::real::problems(&t, Path::new("x"))
        .unwrap()
        .remove(0)
        .0
        .claim;
    let Outcome::Proved { tree, rewrites, .. } = prover::prove(&p, &Options::default()) else {
        panic!("not proved");
    };
    let cert = prover::certificate_with(&p, "t/printed", Default::default(), &rewrites, &tree, 64);
    assert!(checker::verify(&p, &cert, 128).is_ok());
    // The common factor e^{−α/n} = e^{−α·u}: exponents −α·u (left) and α(p − u) + α²p (right).
    assert!(
        cert.rewrites
            .iter()
            .any(|r| matches!(r, RewriteRecord::CommonExp { .. })),
        "{:?}",
        cert.rewrites
    );
    // A different exponent recorded.
    let mut bad = cert.clone();
    for r in &mut bad.rewrites {
        if let RewriteRecord::CommonExp { exponent } = r {
            exponent.push_str(" + 1");
        }
    }
    assert!(checker::verify(&p, &bad, 128).is_err());
    // A range of the derived name that does not enclose it (its upper end halved).
    let mut bad = cert.clone();
    let mut ranged = false;
    for r in &mut bad.rewrites {
        if let RewriteRecord::Range { hi, .. } = r {
            let h = prover::boxes::parse_q(hi).unwrap() / balloc::exact::int(2);
            *hi = prover::boxes::q_text(&h);
            ranged = true;
        }
    }
    // The file's notes: p = C·t·u is the only way t and u enter the claim.
    assert!(ranged, "{:?}", cert.rewrites);
    let e = checker::verify(&p, &bad, 128).unwrap_err();
    assert!(e.contains("range"), "{e}");
    // The rewrites dropped: the tree does not prove the literal claim.
    let bad = Certificate {
        rewrites: Vec::new(),
        ..cert.clone()
    };
    assert!(checker::verify(&p, &bad, 128).is_err());
}

/// The problem `lhs cmp rhs` over the closed ranges `vars` (`(name, lo, hi)`), under the
/// hypotheses `given`.
fn given_problem(
    vars: &[(&str, &str, &str)],
    given: &[&str],
    lhs: &str,
    cmp: balloc::lang::Cmp,
    rhs: &str,
) -> prover::Problem {
    use balloc::lang::{compile_str, compile_value};
    let q = |s: &str| prover::boxes::parse_q(s).unwrap();
    let names: Vec<&str> = vars.iter().map(|v| v.0).collect();
    prover::Problem {
        vars: vars
            .iter()
            .map(|(n, lo, hi)| prover::Var {
                name: n.to_string(),
                lo: q(lo),
                hi: q(hi),
                lo_open: false,
                hi_open: false,
            })
            .collect(),
        slots: (0..vars.len()).map(prover::SlotDef::Var).collect(),
        lhs: compile_value(lhs, &names).unwrap(),
        rhs: compile_value(rhs, &names).unwrap(),
        cmp,
        tol: balloc::exact::int(0),
        given: given
            .iter()
            .map(|g| compile_str(g, &names).unwrap())
            .collect(),
        touching: vec![],
        text: format!("{lhs} {cmp:?} {rhs}"),
    }
}

/// The proof tree and certificate of `p` (a panic unless proved).
fn proved_certificate(p: &prover::Problem, o: &Options) -> Certificate {
    match prover::prove(p, o) {
        Outcome::Proved { tree, rewrites, .. } => {
            prover::certificate_with(p, "t/contract", Default::default(), &rewrites, &tree, 64)
        }
        other => panic!("{}: not proved: {other:?}", p.text),
    }
}

#[test]
fn hypothesis_contraction_proves_a_claim_tight_on_the_boundary_of_its_hypothesis() {
    use balloc::lang::Cmp;
    // y² ≤ y/2 for y ∈ [0, 1] under y ≤ 1/2: g = y/2 − y² = y(1/2 − y) ≥ 0 on [0, 1/2], 0 at
    // both ends; beyond the hypothesis it is false (g(3/4) = 3/8 − 9/16 = −3/16), so a box
    // straddling 1/2 is decided only once the part y > 1/2 is clipped off.
    // Without the hypothesis the claim is refuted, at a point beyond 1/2 (checked in f64).
    let free = given_problem(&[("y", "0", "1")], &[], "y^2", Cmp::Le, "y/2");
    let Outcome::Refuted { point, .. } = prover::prove(&free, &Options::default()) else {
        panic!("y² ≤ y/2 on [0, 1] not refuted");
    };
    let y = balloc::exact::to_f64(&point[0]);
    assert!(y > 0.5 && y * y > y / 2.0, "y = {y}");
    let p = given_problem(&[("y", "0", "1")], &["y <= 1/2"], "y^2", Cmp::Le, "y/2");
    let cert = proved_certificate(&p, &Options::default());
    // The root [0, 1] is clipped by hypothesis 0 to [0, 1/2] first.
    assert_eq!(
        cert.tree[0],
        Token::C(vec![0], vec![(0, "0".into(), "1/2".into())])
    );
    let ok = checker::verify(&p, &cert, 128).unwrap();
    assert_eq!(ok.tally, cert.tally);
    assert_eq!(ok.tally.clipped, 1);
    assert_eq!(ok.tally.outside, 0);
    // Without contraction the boxes around y = 1/2 are never decided (the known weakness).
    let off = Options {
        contract: false,
        max_boxes: 2000,
        ..Options::default()
    };
    assert!(matches!(
        prover::prove(&p, &off),
        Outcome::Inconclusive { .. }
    ));
    // The same through a theorem file, no touching point needed; the note counts the clip.
    let v = run_text(
        "contract-half",
        "[vars]\ny = \"[0, 1]\"\n[claim]\ngiven = [\"y <= 1/2\"]\nexpr = \"y^2 <= y/2\"\nmax_boxes = 2000\n",
    );
    assert_eq!(v.verdict, Status::Proved, "{:?}", v.notes);
    assert!(
        v.notes[0].contains("1 boxes clipped by the hypotheses"),
        "{:?}",
        v.notes
    );
}

#[test]
fn contraction_by_strict_chained_and_non_dyadic_bounds_in_two_variables() {
    use balloc::lang::Cmp;
    // (y − 1/3)(2/3 − y) ≥ 0 exactly on [1/3, 2/3] (0 at both ends, which no dyadic split
    // reaches); x·that ≥ 0 for x ∈ [0, 1]. The hypotheses as a chain, as two strict bounds, and
    // with the constant on the left: each clips y to the closed [1/3, 2/3].
    for given in [
        vec!["1/3 <= y <= 2/3"],
        vec!["y > 1/3", "y < 2/3"],
        vec!["1/3 < y", "2/3 > y"],
    ] {
        let p = given_problem(
            &[("x", "0", "1"), ("y", "0", "1")],
            &given,
            "x*(y - 1/3)*(2/3 - y)",
            Cmp::Ge,
            "0",
        );
        let cert = proved_certificate(&p, &Options::default());
        let hyps: Vec<usize> = (0..given.len()).collect();
        assert_eq!(
            cert.tree[0],
            Token::C(hyps, vec![(1, "1/3".into(), "2/3".into())]),
            "{given:?}"
        );
        let ok = checker::verify(&p, &cert, 128).unwrap();
        // Monotone steps on the clipped box (toward x = 0, where the claim is 0): their
        // precondition, the hypotheses hold on the box, is decided in rationals, as no
        // enclosure of y ≥ 1/3 or y ≤ 2/3 on [1/3, 2/3] is certain (1/3 and 2/3 are not dyadic).
        assert!(ok.tally.monotone >= 1, "{given:?}: {:?}", ok.tally);
    }
    // The strict claim under strict bounds is true on the open interval (1/3, 2/3), but the
    // clipped box is closed and the claim is 0 at its ends: contraction proves claims on the
    // closed box only, so this one stays undecided — never refuted (the ends are outside the
    // hypotheses), never proved.
    let p = given_problem(
        &[("y", "0", "1")],
        &["y > 1/3", "y < 2/3"],
        "(y - 1/3)*(2/3 - y)",
        Cmp::Gt,
        "0",
    );
    let o = Options {
        max_boxes: 2000,
        ..Options::default()
    };
    assert!(matches!(
        prover::prove(&p, &o),
        Outcome::Inconclusive { .. }
    ));
}

#[test]
fn false_claims_under_bound_hypotheses_are_refuted_or_undecided_never_proved() {
    use balloc::lang::Cmp;
    // (y − 7/10)² ≥ 10⁻²⁴ holds on [0, 1/2] (there (y − 7/10)² ≥ 1/25) and fails only where
    // |y − 7/10| < 10⁻¹², inside y ≥ 1/2: too narrow for the corners and the sampling, so the
    // bisection must find it, on boxes clipped to [1/2, 1]. Clipped in the wrong direction, to
    // [0, 1/2], the claim would be "proved".
    let tiny = prover::boxes::parse_q(&format!("1/1{}", "0".repeat(24))).unwrap();
    for given in ["y >= 1/2", "y > 1/2", "1/2 <= y", "1/2 < y"] {
        let p = given_problem(
            &[("y", "0", "1")],
            &[given],
            "(y - 7/10)^2",
            Cmp::Ge,
            "1/10^24",
        );
        let Outcome::Refuted {
            point, found_by, ..
        } = prover::prove(&p, &Options::default())
        else {
            panic!("{given}: not refuted");
        };
        assert!(found_by.contains("bisection"), "{given}: {found_by}");
        // Exactly, in rationals: y ≥ 1/2 and (y − 7/10)² < 10⁻²⁴.
        let y = point[0].clone();
        let d = &y - balloc::exact::Q::new(7.into(), 10.into());
        assert!(
            y >= balloc::exact::Q::new(1.into(), 2.into()) && &d * &d < tiny,
            "{given}: y = {y}"
        );
    }
    // A bound on the other variable clips nothing of y: x ≤ 1/2 leaves y ∈ [0, 1] and the claim
    // fails at y = 1.
    let p = given_problem(
        &[("x", "0", "1"), ("y", "0", "1")],
        &["x <= 1/2"],
        "y^2",
        Cmp::Le,
        "y/2",
    );
    let Outcome::Refuted { point, .. } = prover::prove(&p, &Options::default()) else {
        panic!("not refuted");
    };
    let (x, y) = (
        balloc::exact::to_f64(&point[0]),
        balloc::exact::to_f64(&point[1]),
    );
    assert!(x <= 0.5 && y * y > y / 2.0, "({x}, {y})");
    // False only at the bound itself: y² < 1/4 fails at y = 1/2 alone (1/4 < 1/4 is false),
    // which y ≤ 1/2 admits; a clip that dropped the bound's own value would prove it.
    let o = Options {
        max_boxes: 3000,
        ..Options::default()
    };
    for (given, lhs, cmp, rhs) in [
        ("y <= 1/2", "y^2", Cmp::Lt, "1/4"),
        ("y >= 1/2", "y^2", Cmp::Gt, "1/4"),
    ] {
        let p = given_problem(&[("y", "0", "1")], &[given], lhs, cmp, rhs);
        match prover::prove(&p, &o) {
            Outcome::Proved { .. } => panic!("{given}: a false claim proved"),
            Outcome::Refuted { point, .. } => {
                assert_eq!(point[0], prover::boxes::parse_q("1/2").unwrap(), "{given}")
            }
            Outcome::Inconclusive { .. } => {}
        }
    }
    // y ∈ [1/3, 1] under y ≤ 1/3 admits the single point y = 1/3, where y² < 1/9 is false
    // (1/9 < 1/9 fails). The root clips to that point (a non-strict bound keeps its value); a
    // clip that treated the bound as strict would find nothing left and "prove" the claim.
    // The bound hypothesis is decided exactly at a point, so the corner y = 1/3 (which no
    // enclosure of y ≤ 1/3 decides) is the counterexample; with contraction off the same point
    // is undecided and the claim stays unproved.
    let p = given_problem(&[("y", "1/3", "1")], &["y <= 1/3"], "y^2", Cmp::Lt, "1/9");
    let Outcome::Refuted { point, .. } = prover::prove(&p, &o) else {
        panic!("y^2 < 1/9 under y <= 1/3 on [1/3, 1]: not refuted");
    };
    assert_eq!(point[0], prover::boxes::parse_q("1/3").unwrap());
    let off = Options {
        contract: false,
        ..o.clone()
    };
    assert!(!matches!(prover::prove(&p, &off), Outcome::Proved { .. }));
}

#[test]
fn the_checker_rederives_clips_and_rejects_tampered_ones() {
    use balloc::lang::Cmp;
    // x·y² ≤ x·y/2 on [0, 1]² under y ≤ 1/2 (g = x·y·(1/2 − y) ≥ 0 there); the second
    // hypothesis x + y ≤ 2 holds on the whole square and is no bound of one variable.
    let p = given_problem(
        &[("x", "0", "1"), ("y", "0", "1")],
        &["y <= 1/2", "x + y <= 2"],
        "x*y^2",
        Cmp::Le,
        "x*y/2",
    );
    let cert = proved_certificate(&p, &Options::default());
    let clip = Token::C(vec![0], vec![(1, "0".into(), "1/2".into())]);
    assert_eq!(cert.tree[0], clip);
    assert!(checker::verify(&p, &cert, 128).is_ok());
    let with_root = |t: Token| {
        let mut c = cert.clone();
        c.tree[0] = t;
        c
    };
    let end = |i: usize, lo: &str, hi: &str| vec![(i, lo.to_string(), hi.to_string())];
    for (what, bad, says) in [
        (
            "a larger clip",
            with_root(Token::C(vec![0], end(1, "0", "3/4"))),
            "clip the box to y ∈ [0, 1/2]",
        ),
        (
            "a smaller clip",
            with_root(Token::C(vec![0], end(1, "0", "1/4"))),
            "the certificate records y ∈ [0, 1/4]",
        ),
        (
            "the other variable",
            with_root(Token::C(vec![0], end(0, "0", "1/2"))),
            "the certificate records x ∈ [0, 1/2]",
        ),
        (
            "a hypothesis that does not exist",
            with_root(Token::C(vec![7], end(1, "0", "1/2"))),
            "the claim has 2",
        ),
        (
            "a hypothesis that is no bound",
            with_root(Token::C(vec![1], end(1, "0", "1/2"))),
            "does not bound one variable",
        ),
        (
            "a second hypothesis named",
            with_root(Token::C(vec![0, 0], end(1, "0", "1/2"))),
            "the certificate names [0, 0]",
        ),
    ] {
        let e = checker::verify(&p, &bad, 128).unwrap_err();
        assert!(e.contains(says), "{what}: {e}");
    }
    // A second clip right after the first: nothing is left to cut.
    let mut twice = cert.clone();
    twice.tree.insert(1, clip.clone());
    let e = checker::verify(&p, &twice, 128).unwrap_err();
    assert!(e.contains("no hypothesis cuts"), "{e}");
    // The clip dropped: the leaves below it do not hold on the whole square (g(1, 3/4) < 0).
    let mut dropped = cert.clone();
    dropped.tree.remove(0);
    assert!(checker::verify(&p, &dropped, 128).is_err());
    // The same certificate against the hypothesis y ≥ 1/2 (same claim text): the checker clips
    // with the problem's own hypothesis, to [1/2, 1], and the record is not that clip.
    let q = given_problem(
        &[("x", "0", "1"), ("y", "0", "1")],
        &["y >= 1/2", "x + y <= 2"],
        "x*y^2",
        Cmp::Le,
        "x*y/2",
    );
    let e = checker::verify(&q, &cert, 128).unwrap_err();
    assert!(e.contains("clip the box to y ∈ [1/2, 1]"), "{e}");
    // Clips came with format 4: the same tree in a certificate of format 2 is rejected.
    let old = Certificate {
        format: prover::certificate::FORMAT_2.into(),
        ..cert.clone()
    };
    let e = checker::verify(&p, &old, 128).unwrap_err();
    assert!(e.contains("format"), "{e}");
    // Written and read back as JSON, the certificate is the same and checks.
    let back = Certificate::from_json(&cert.to_json()).unwrap();
    assert_eq!(back, cert);
    assert_eq!(back.format, "balloc-real-certificate/4");
    assert!(checker::verify(&p, &back, 160).is_ok());
}

#[test]
fn certificates_of_earlier_formats_are_still_read_and_checked() {
    // eˣ ≥ 1 + x: its proof has no clip, so the same tree as format 2 (and 1, which has no Taylor
    // models but is read by the same rules) checks unchanged.
    let p = exp_problem("1 + x");
    let cert = proved_certificate(&p, &Options::default());
    assert_eq!(cert.tally.clipped, 0);
    for format in ["balloc-real-certificate/2", "balloc-real-certificate/1"] {
        let old = Certificate {
            format: format.into(),
            ..cert.clone()
        };
        let back = Certificate::from_json(&old.to_json()).unwrap();
        assert_eq!(back.format, format);
        assert!(checker::verify(&p, &back, 128).is_ok(), "{format}");
    }
    let mut unknown = cert.clone();
    unknown.format = "balloc-real-certificate/5".into();
    assert!(
        Certificate::from_json(&unknown.to_json())
            .unwrap_err()
            .contains("unknown certificate format")
    );
}

#[test]
fn a_bound_hypothesis_is_decided_in_rationals_where_enclosures_cannot() {
    use balloc::lang::Cmp;
    // 1 − 3y ≥ 0 under y < 1/3 on [0, 1]: the enclosure of y < 1/3 on [1/3, 1] straddles (1/3
    // has no finite binary expansion), but in rationals no point of [1/3, 1] has y < 1/3. A tree
    // split at 1/3 with `outside` on the upper half checks; on [1/4, 1] it does not (y = 0.3 <
    // 1/3 lies there).
    let p = given_problem(&[("y", "0", "1")], &["y < 1/3"], "1 - 3*y", Cmp::Ge, "0");
    // On [0, 1/3]: g = 1 − 3y ≥ 0, decreasing, 0 at 1/3 exactly: a mean-value leaf about 1/3
    // (g(1/3) = 0 exactly, g′ = −3, so g ≥ 0 − 3·(y − 1/3) ≥ 0). On [0, 1/4] g ≥ 1/4 directly.
    let base = proved_certificate(&p, &Options::default());
    let make = |tree: Vec<Token>| Certificate {
        tally: prover::Node::from_tokens(&tree).unwrap().tally(),
        tree,
        ..base.clone()
    };
    let good = make(vec![
        Token::S(0, "1/3".into()),
        Token::V(vec!["1/3".into()]),
        Token::O(0),
    ]);
    assert_eq!(checker::verify(&p, &good, 128).unwrap().tally.outside, 1);
    let bad = make(vec![Token::S(0, "1/4".into()), Token::D, Token::O(0)]);
    let e = checker::verify(&p, &bad, 128).unwrap_err();
    assert!(e.contains("hypothesis 0 is not false on the box"), "{e}");
    // The search proves it too (the root clipped to [0, 1/3]).
    assert_eq!(
        base.tree[0],
        Token::C(vec![0], vec![(0, "0".into(), "1/3".into())])
    );
}
