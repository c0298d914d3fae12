//! Claims of kind `real` derived from proved lemmas (`[[claim.bound]]`, `reduced`): a true
//! derivation proved with a certificate the independent checker re-checks, tampered
//! certificates rejected, and every unjustified step refused — a lemma applied outside its range,
//! in the wrong direction, at a term the claim does not increase with, a lemma that is false, a
//! reduced claim that is not identical, a weaker comparison — so that false claims whose reduced
//! claims are true are refuted, never proved. Bad input is a one-line error.
//!
//! The truth of every claim below is derived in its comment.

use balloc::claim::{self, RunContext, Status};
use balloc::prover::{Certificate, checker};
use std::path::{Path, PathBuf};

use crate::common;

use common::REAL_HEAD as HEAD;

/// sinh y ≤ y + y³·cosh(y)/6 on [0, 1]: sinh y − y = Σ_{k≥1} y^{2k+1}/(2k+1)! and
/// y³cosh(y)/6 = Σ_{k≥0} y^{2k+3}/(6·(2k)!), termwise larger since (2k+3)! ≥ 6·(2k)!.
const UPPER: &str = "[vars]\ny = \"[0, 1]\"\n[claim]\nexpr = \"sinh(y) <= y + y^3*cosh(y)/6\"\n";
/// sinh y ≥ y on [0, 1] (every term of sinh y − y is ≥ 0 for y ≥ 0).
const LOWER: &str = "[vars]\ny = \"[0, 1]\"\n[claim]\nexpr = \"sinh(y) >= y\"\n";
/// sinh y ≤ y + y³ on [0, 1]: sinh y − y ≤ y³·cosh(1)/6 < y³ (cosh 1 ≈ 1.543).
const CRUDE: &str = "[vars]\ny = \"[0, 1]\"\n[claim]\nexpr = \"sinh(y) <= y + y^3\"\n";
/// y² ≤ y on [0, 1] (true there, false for y > 1).
const SQUARE: &str = "[vars]\ny = \"[0, 1]\"\n[claim]\nexpr = \"y^2 <= y\"\n";
/// y² ≤ 3y/4 on [0, 1] given y ≤ 1/2 (y² − 3y/4 = y(y − 3/4) ≤ 0 on [0, 3/4], so on [0, 1/2];
/// false beyond 3/4).
const HALF: &str =
    "[vars]\ny = \"[0, 1]\"\n[claim]\ngiven = [\"y <= 1/2\"]\nexpr = \"y^2 <= 3*y/4\"\n";
/// sinh y ≤ y on [0, 1]: false for every y > 0.
const FALSE_LEMMA: &str = "[vars]\ny = \"[0, 1]\"\n[claim]\nexpr = \"sinh(y) <= y\"\n";

/// A scratch folder with the lemmas above and the claim `body` as `claim.toml`.
fn folder(name: &str, body: &str) -> (PathBuf, PathBuf) {
    let root = common::scratch_in("lemma", name);
    for (n, text) in [
        ("upper", UPPER),
        ("lower", LOWER),
        ("crude", CRUDE),
        ("square", SQUARE),
        ("false-lemma", FALSE_LEMMA),
        ("half", HALF),
    ] {
        common::write(&root, n, &format!("{HEAD}{text}"));
    }
    let p = common::write(&root, "claim", &format!("{HEAD}{body}"));
    (root, p)
}

fn run(name: &str, body: &str, certificates: Option<&Path>) -> claim::Verdict {
    let (root, p) = folder(name, body);
    let mut ctx = RunContext {
        certificates: certificates.map(Path::to_path_buf),
        ..RunContext::default()
    };
    claim::check(&p, &root, &mut ctx).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The claim 2·sinh(x/2) − x ≤ x³·cosh(x/2)/24 on [0, 1], derived from `upper` at y = x/2:
/// with sinh(x/2) ≤ x/2 + (x/2)³cosh(x/2)/6 the left side is at most x³cosh(x/2)/24, so the
/// reduced claim is 0 ≤ 0 (the difference is identically 0). True.
const DERIVED: &str = r#"[vars]
x = "[0, 1]"
[claim]
expr = "2*sinh(x/2) - x <= x^3*cosh(x/2)/24"
reduced = "0 <= 0"
[[claim.bound]]
term = "sinh(x/2)"
by = "x/2 + (x/2)^3*cosh(x/2)/6"
lemma = "upper"
at = { y = "x/2" }
"#;

#[test]
fn a_derivation_is_proved_and_its_certificate_rechecked_and_tampering_rejected() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lemma-certificates");
    let _ = std::fs::remove_dir_all(&dir);
    let v = run("derived", DERIVED, Some(&dir));
    assert_eq!(v.verdict, Status::Proved, "{:?}", v.notes);
    assert!(
        v.notes.iter().any(|n| n.contains("derived from lemmas")),
        "{:?}",
        v.notes
    );
    // Read back and re-check against the files, at a precision the search did not use.
    let (root, path) = folder("derived", DERIVED);
    let t = claim::load(&path, &root).unwrap();
    let cases = claim::kind::real::problems(&t, &dir).unwrap();
    assert_eq!(cases.len(), 1);
    let (stated, cpath) = &cases[0];
    let cert = Certificate::from_json(&std::fs::read_to_string(cpath).unwrap()).unwrap();
    // Format 4 (the first with clips by the hypotheses) for both kinds; 3 before.
    assert_eq!(cert.format, "balloc-real-certificate/4");
    assert_eq!(cert.lemmas.len(), 1);
    assert!(stated.verify(&cert, 160).is_ok());
    // The plain checker refuses a derived certificate: it cannot see the lemmas' files.
    let e = checker::verify(&stated.claim, &cert, 160).unwrap_err();
    assert!(e.contains("lemmas"), "{e}");
    // Tampering: each variant is rejected.
    let lemma_cert = (*cert.lemmas[0].proof).clone();
    let mut swapped = cert.clone();
    *swapped.lemmas[0].monotone = lemma_cert.clone();
    let mut forged_lemma = cert.clone();
    forged_lemma.lemmas[0].proof.tree = vec![balloc::prover::certificate::Token::D];
    let mut other_reduced = cert.clone();
    other_reduced.reduced = Some("0 <= 1".into());
    let mut no_lemmas = cert.clone();
    no_lemmas.lemmas.clear();
    let mut renamed = cert.clone();
    renamed.lemmas[0].lemma = "t/lower".into();
    for (what, bad) in [
        ("a sign certificate replaced by the lemma's", swapped),
        ("a lemma's tree replaced by one direct box", forged_lemma),
        ("another reduced claim", other_reduced),
        ("the lemmas removed", no_lemmas),
        ("another lemma named", renamed),
    ] {
        assert!(stated.verify(&bad, 160).is_err(), "{what} accepted");
    }
}

#[test]
fn unjustified_steps_are_refused_and_false_claims_refuted() {
    // Each claim is false; its reduced claim (written or derived) is true, so a derivation that
    // skipped the refused check would "prove" it. The search then refutes the claim directly.
    let cases: [(&str, &str, &str); 5] = [
        // (2x)² ≤ 2x on [0, 1] is false at x = 1 (4 > 2); y² ≤ y holds only on [0, 1] and
        // y = 2x reaches 2. Reduced: 2x ≤ 2x.
        (
            "range",
            "[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"(2*x)^2 <= 2*x\"\n[[claim.bound]]\nterm = \"(2*x)^2\"\nby = \"2*x\"\nlemma = \"square\"\nat = { y = \"2*x\" }\n",
            "outside the lemma's range",
        ),
        // −sinh x + x + x³/5 ≤ 0 is false at x = 1/2 (−0.5211 + 0.5 + 0.025 = 0.0039 > 0);
        // the claim decreases in sinh x, so an upper bound of it (x + x³) may not replace it.
        // Reduced: −4x³/5 ≤ 0.
        (
            "monotone",
            "[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"-sinh(x) + x + x^3/5 <= 0\"\n[[claim.bound]]\nterm = \"sinh(x)\"\nby = \"x + x^3\"\nlemma = \"crude\"\nat = { y = \"x\" }\n",
            "the sign of the derivative",
        ),
        // sinh x − x ≤ 0 is false for x > 0; `lower` gives sinh x ≥ x, a lower bound, but the
        // claim increases with sinh x. Reduced: 0 ≤ 0.
        (
            "direction",
            "[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"sinh(x) - x <= 0\"\nreduced = \"0 <= 0\"\n[[claim.bound]]\nterm = \"sinh(x)\"\nby = \"x\"\nlemma = \"lower\"\nat = { y = \"x\" }\n",
            "the sign of the derivative",
        ),
        // The same claim with a false lemma, sinh y ≤ y, in the right direction.
        (
            "false-lemma",
            "[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"sinh(x) - x <= 0\"\nreduced = \"0 <= 0\"\n[[claim.bound]]\nterm = \"sinh(x)\"\nby = \"x\"\nlemma = \"false-lemma\"\nat = { y = \"x\" }\n",
            "lemma `t/false-lemma` is false",
        ),
        // sinh x ≤ x is false; the reduced claim 0 ≤ 1 is true but not the claim rewritten.
        (
            "identity",
            "[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"sinh(x) <= x\"\nreduced = \"0 <= 1\"\n",
            "not identical",
        ),
    ];
    for (name, body, why) in cases {
        let v = run(name, body, None);
        assert_eq!(v.verdict, Status::Refuted, "{name}: {:?}", v.notes);
        assert!(
            v.notes
                .iter()
                .any(|n| n.contains("did not finish") && n.contains(why)),
            "{name}: {:?}",
            v.notes
        );
    }
    // x/x ≤ 1 on [0, 1] is not defined at 0; the reduced 1 ≤ 1 is identical where it is. The
    // derivation is refused (the identity says nothing where a denominator vanishes) and the
    // claim is not proved.
    let v = run(
        "undefined",
        "[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"x/x <= 1\"\nreduced = \"1 <= 1\"\nmax_boxes = 2000\n",
        None,
    );
    assert_ne!(v.verdict, Status::Proved);
    assert!(
        v.notes.iter().any(|n| n.contains("defined everywhere")),
        "{:?}",
        v.notes
    );
    // A strict claim needs a strict reduced claim: x > 0 on (0, 1] is true, but 0 <= 0 would
    // not make it strict. The derivation is refused; the claim is proved directly.
    let v = run(
        "strict",
        "[vars]\nx = \"(0, 1]\"\n[claim]\nexpr = \"x > 0\"\nreduced = \"0 <= 0\"\n",
        None,
    );
    assert!(
        v.notes.iter().any(|n| n.contains("must be strict")),
        "{:?}",
        v.notes
    );
}

#[test]
fn bad_bounds_are_one_line_errors() {
    let cases = [
        (
            "missing",
            "lemma = \"nowhere\"\nat = { y = \"x\" }",
            "no theorem file",
        ),
        (
            "no-at",
            "lemma = \"upper\"",
            "gives no value for its variable `y`",
        ),
        (
            "extra-at",
            "lemma = \"upper\"\nat = { y = \"x\", z = \"x\" }",
            "has no variable `z`",
        ),
        (
            "self",
            "lemma = \"claim\"\nat = { y = \"x\" }",
            "its own lemma",
        ),
        (
            "unknown-key",
            "lemma = \"upper\"\nat = { y = \"x\" }\nwhy = 1",
            "unknown field",
        ),
    ];
    for (name, bound, why) in cases {
        let body = format!(
            "[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"sinh(x) >= x\"\n[[claim.bound]]\nterm = \"sinh(x)\"\nby = \"x\"\n{bound}\n"
        );
        let (root, p) = folder(&format!("bad-{name}"), &body);
        let e = match claim::check(&p, &root, &mut RunContext::default()) {
            Ok(v) => panic!("{name}: no error, {:?}", v.verdict),
            Err(e) => e.to_string(),
        };
        assert!(!e.contains('\n'), "{name}: one line: {e}");
        assert!(e.contains("claim.toml") && e.contains(why), "{name}: {e}");
    }
}

#[test]
fn a_lemma_with_hypotheses_applies_where_they_are_proved() {
    // (x/4)² ≤ 3x/16 on [0, 1] (true: x²/16 ≤ 3x/16 ⟺ x ≤ 3) from `half` at y = x/4, where
    // the hypothesis y ≤ 1/2 is x/4 ≤ 1/2, true on [0, 1]: reduced 3x/16 ≤ 3x/16, i.e. 0 ≤ 0.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lemma-hypotheses-certificates");
    let _ = std::fs::remove_dir_all(&dir);
    let body = "[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"(x/4)^2 <= 3*x/16\"\nreduced = \"0 <= 0\"\n[[claim.bound]]\nterm = \"(x/4)^2\"\nby = \"3*(x/4)/4\"\nlemma = \"half\"\nat = { y = \"x/4\" }\n";
    let v = run("hypothesis-holds", body, Some(&dir));
    assert_eq!(v.verdict, Status::Proved, "{:?}", v.notes);
    assert!(
        v.notes.iter().any(|n| n.contains("derived from lemmas")),
        "{:?}",
        v.notes
    );
    let (root, path) = folder("hypothesis-holds", body);
    let t = claim::load(&path, &root).unwrap();
    let (stated, cpath) = claim::kind::real::problems(&t, &dir).unwrap().remove(0);
    let cert = Certificate::from_json(&std::fs::read_to_string(cpath).unwrap()).unwrap();
    assert_eq!(cert.lemmas[0].hypotheses.len(), 1);
    assert!(stated.verify(&cert, 160).is_ok());
    // Without the hypothesis' proof, or with another claim's proof in its place: rejected.
    let mut dropped = cert.clone();
    dropped.lemmas[0].hypotheses.clear();
    assert!(stated.verify(&dropped, 160).is_err());
    let mut swapped = cert.clone();
    swapped.lemmas[0].hypotheses[0] = (*cert.lemmas[0].monotone).clone();
    assert!(stated.verify(&swapped, 160).is_err());
    // x² ≤ 3x/4 on [0, 1] is false for x > 3/4; `half` at y = x has the hypothesis x ≤ 1/2,
    // false there: the derivation is refused and the claim refuted (reduced 3x/4 ≤ 3x/4 is true).
    let v = run(
        "hypothesis-fails",
        "[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"x^2 <= 3*x/4\"\n[[claim.bound]]\nterm = \"x^2\"\nby = \"3*x/4\"\nlemma = \"half\"\nat = { y = \"x\" }\n",
        None,
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert!(
        v.notes
            .iter()
            .any(|n| n.contains("did not finish") && n.contains("hypothesis 1 of lemma `t/half`")),
        "{:?}",
        v.notes
    );
}
