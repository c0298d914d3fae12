//! Constants that range over an interval (`[constants] eps = "(0, 1/2]"`): the claim decided at
//! every searched state for every value of the range. Every expected verdict and point is
//! derived by hand in the comment of its test.

use balloc::claim::{self, RunContext, Status, Trust, Verdict};

use crate::common;

const HEAD: &str = crate::common::head!("inequality");

fn run(name: &str, body: &str) -> Verdict {
    common::check_scratch("ranges", name, &format!("{HEAD}{body}"))
}

/// The error of a file whose ranges are bad: when the file is read, or at the first case.
fn error(name: &str, body: &str) -> String {
    let root = common::scratch_in("ranges", name);
    let p = common::write(&root, name, &format!("{HEAD}{body}"));
    match claim::check(&p, &root, &mut RunContext::default()) {
        Ok(v) => panic!("{name}: expected an error, got {v:?}"),
        Err(e) => e.to_string(),
    }
}

fn constant(v: &Verdict, name: &str) -> f64 {
    v.witness.as_ref().expect("a witness").constants[name]
}

/// One-Choice at n = 2: E[Φ'] = Φ·e^{−α/2}(1 + e^α)/2 = Φ·cosh(α/2) at every state (each bin
/// moves by ±1/2 with probability 1/2). So `E_Phi <= Phi*(1 + alpha/2)` holds iff
/// cosh(u) ≤ 1 + u with u = α/2, i.e. u ≤ u* where cosh u* = 1 + u*: u* ∈ (1.61, 1.62)
/// (cosh 1.61 = 2.6013 < 2.61, cosh 1.62 = 2.6255 > 2.62), α* ∈ (3.22, 3.24). On (0, 3] it
/// holds at every state for every α: the slack is Φ(α)·(1 + u − cosh u) ≥ 0, exactly 0 at
/// α = 0 (where both sides are Φ(0) = n) and increasing near it (its derivative at 0 is n/2), so
/// the boxes at the open end are decided by the exact corner value; on (0, 4] it fails for
/// α ∈ (α*, 4].
fn one_choice_phi(range: &str) -> String {
    format!(
        r#"[setting]
processes = ["one-choice"]
potentials = ["phi"]
[constants]
alpha = "{range}"
[claim]
expr = "E_Phi <= Phi*(1 + alpha/2)"
[domain]
n = [2]
exhaustive = {{ max_n = 2, max_load = 3 }}
families = ["tied"]
random = 0
optimise = 0
seed = 5
"#
    )
}

#[test]
fn a_range_is_proved_at_every_state_and_refuted_when_widened() {
    let v = run("phi-inside", &one_choice_phi("(0, 3]"));
    assert_eq!(v.verdict, Status::Holds, "{v:?}");
    assert_eq!(v.trust, Trust::Enclosure, "{v:?}");
    let states = v.searched.states.get("range").copied().unwrap_or(0);
    assert!(
        states >= 5,
        "every searched state decided over the range: {v:?}"
    );
    assert!(
        v.notes
            .iter()
            .any(|n| n.contains("for every value of the ranges (alpha ∈ (0, 3])")),
        "{:?}",
        v.notes
    );

    // Widened past α* ≈ 3.23: refuted at a certified (state, α) point with α in (α*, 4].
    let w = run("phi-widened", &one_choice_phi("(0, 4]"));
    assert_eq!(w.verdict, Status::Refuted, "{w:?}");
    let a = constant(&w, "alpha");
    assert!(a > 3.22 && a <= 4.0, "alpha = {a}");
}

/// `|ε − 1/3| ≥ 1/100` on (0, 1] fails exactly for ε ∈ (0.3233, 0.3434), which contains none of
/// the sample points (1/64, 1/2, 1) the float search runs at. Bisection by hand: [0, 1] has
/// midpoint 1/2 (holds), its left half [0, 1/2] midpoint 1/4 (holds), [0, 1/4] decided true;
/// [1/4, 1/2] midpoint 3/8 (|3/8 − 1/3| = 1/24, holds), [1/4, 3/8] midpoint 5/16 (1/48, holds),
/// [5/16, 3/8] midpoint 11/32 (1/96 > 1/100, holds), [5/16, 11/32] midpoint 21/64
/// (|21/64 − 1/3| = 1/192 < 1/100): refuted at ε = 21/64.
#[test]
fn a_counterexample_strictly_inside_the_range_is_found_by_bisection() {
    let v = run(
        "inner",
        r#"[setting]
processes = ["one-choice"]
[constants]
eps = "(0, 1]"
[claim]
expr = "abs(eps - 1/3) >= 1/100 + 0*Upsilon"
[domain]
n = [4]
random = 2
seed = 1
"#,
    );
    assert_eq!(v.verdict, Status::Refuted, "{v:?}");
    assert_eq!(v.trust, Trust::Exact);
    let w = v.witness.as_ref().unwrap();
    assert_eq!(w.constants_text["eps"], "21/64");
    assert_eq!(w.found_by, "range");
    let e = w.exact.as_ref().expect("exact sides");
    // lhs = |21/64 − 1/3| = |63 − 64|/192 = 1/192; rhs = 1/100.
    assert_eq!((e.lhs.as_str(), e.rhs.as_str()), ("1/192", "1/100"));
}

/// A claim false on a region far narrower than any box the budget reaches (|ε − 1/3| < 10⁻⁹)
/// must never come out `holds`: either bisection reaches a failing point or the state is left
/// undecided.
#[test]
fn a_tiny_failing_region_is_never_held() {
    let v = run(
        "tiny",
        r#"[setting]
processes = ["one-choice"]
[constants]
eps = "[0, 1]"
[claim]
expr = "abs(eps - 1/3) >= 1/1000000000 + 0*Upsilon"
[domain]
n = [2]
random = 1
seed = 1
"#,
    );
    assert_ne!(v.verdict, Status::Holds, "{v:?}");
    if v.verdict == Status::Refuted {
        let e = constant(&v, "eps");
        assert!((e - 1.0 / 3.0).abs() < 1e-9, "eps = {e}");
    }
}

/// The open end is excluded: `eps > 0` on (0, 1] is true, and must never be refuted (ε = 0 is
/// not in the range); `eps > 0` on [0, 1] is false at ε = 0, a sample point (the closed end).
/// `eps >= 0` on (0, 1] is proved: over [0, w] the slack ε is exactly 0 at the corner ε = 0 and
/// increasing, which the exact corner value decides.
#[test]
fn open_and_closed_ends() {
    let body = |range: &str, expr: &str| {
        format!(
            "[setting]\nprocesses = [\"one-choice\"]\n[constants]\neps = \"{range}\"\n[claim]\nexpr = \"{expr} + 0*Upsilon\"\n[domain]\nn = [2]\nrandom = 1\nseed = 1\n"
        )
    };
    let open = run("open-strict", &body("(0, 1]", "eps > 0"));
    assert_ne!(open.verdict, Status::Refuted, "{open:?}");
    let closed = run("closed-strict", &body("[0, 1]", "eps > 0"));
    assert_eq!(closed.verdict, Status::Refuted, "{closed:?}");
    assert_eq!(constant(&closed, "eps"), 0.0);
    let weak = run("open-weak", &body("(0, 1]", "eps >= 0"));
    assert_eq!(weak.verdict, Status::Holds, "{weak:?}");
}

/// Bad ranges are one-line errors naming the constant.
#[test]
fn bad_ranges_are_errors() {
    let claim = "[setting]\nprocesses = [\"one-choice\"]\n[claim]\nexpr = \"Upsilon >= eps\"\n[domain]\nn = [2]\nrandom = 1\nseed = 1\n";
    let e = error("empty", &format!("[constants]\neps = \"(1, 1]\"\n{claim}"));
    assert!(e.contains("constant `eps`") && e.contains("empty"), "{e}");
    let e = error(
        "irrational",
        &format!("[constants]\neps = \"(0, 1/ln(n)]\"\n{claim}"),
    );
    assert!(e.contains("rational"), "{e}");
    let e = error(
        "dependent",
        &format!("[constants]\neps = \"(0, 1]\"\nhalf = \"eps/2\"\n{claim}"),
    );
    assert!(e.contains("reads the range constant `eps`"), "{e}");
    let e = error(
        "bad-end",
        &format!("[constants]\neps = \"(0, 1/+]\"\n{claim}"),
    );
    assert!(e.contains("constant `eps`"), "{e}");
    assert!(!e.contains('\n'), "one line: {e}");
    // Kinds that do not decide ranges say so.
    let root = common::scratch_in("ranges", "real");
    let p = common::write(
        &root,
        "real",
        "title = \"t\"\nkind = \"real\"\nexpected = \"open\"\nstatement = \"x\"\n[source]\nlocator = \"t\"\nprovenance = \"derived\"\n[constants]\neps = \"(0, 1]\"\n[vars]\nx = [\"0\", \"1\"]\n[claim]\nexpr = \"x >= 0\"\n",
    );
    let e = claim::check(&p, &root, &mut RunContext::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("is a range") && e.contains("[vars]"), "{e}");
    // An evaluation at one state needs one value of each constant.
    let e = balloc::claim::evaluate(
        "[setting]\nprocesses = [\"one-choice\"]\n[constants]\neps = \"(0, 1]\"",
        "Upsilon + eps",
        &[1.0, 0.0],
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("constant `eps` is a range"), "{e}");
}

/// The same seed gives the same verdict and witness.
#[test]
fn deterministic() {
    let a = run("det-a", &one_choice_phi("(0, 4]"));
    let b = run("det-b", &one_choice_phi("(0, 4]"));
    assert_eq!(
        a.witness.as_ref().map(|w| (&w.loads, &w.constants_text)),
        b.witness.as_ref().map(|w| (&w.loads, &w.constants_text))
    );
}

/// ∃α₀ ∀α ≤ α₀: the constant finder on the end of the range. For `E_Phi <= Phi*(1 + alpha/2)`
/// (One-Choice, n = 2: E[Φ'] = Φ·cosh(α/2), see `one_choice_phi`) the claim holds for every
/// α ∈ (0, α₀] iff cosh(α₀/2) ≤ 1 + α₀/2, so the largest α₀ is 2u* with cosh u* = 1 + u*:
/// f(u) = cosh u − 1 − u has f(1.616) = 2.61581 − 2.616 < 0 and f(1.617) = 2.61822 − 2.617 > 0,
/// so α₀ ∈ (3.232, 3.234). Each value is kept only where the claim holds over the whole range at
/// every state.
#[test]
fn the_largest_end_of_a_range_by_the_constant_finder() {
    let body = r#"[setting]
processes = ["one-choice"]
potentials = ["phi"]
[constants]
alpha = "(0, alpha0]"
alpha0 = "1"
[tighten]
alpha0 = "largest"
[claim]
expr = "E_Phi <= Phi*(1 + alpha/2)"
[domain]
n = [2]
exhaustive = { max_n = 2, max_load = 2 }
families = ["tied"]
random = 0
optimise = 0
seed = 5
"#;
    let root = common::scratch_in("ranges", "alpha0");
    let p = common::write(&root, "alpha0", &format!("{HEAD}{body}"));
    let (_, c) = claim::prepare(&p, &root).unwrap();
    let r = c
        .tighten("alpha0", None, &mut RunContext::default())
        .unwrap();
    let t = &r.per_n[0];
    assert!(t.value > 3.232 && t.value < 3.234, "alpha0 = {}", t.value);
    let f = t.fails.expect("a failing value");
    assert!(f > t.value && f < 3.234, "fails at {f}");
    assert_eq!(t.trust_holds, Some(Trust::Enclosure));
    // Past α₀ the claim is refuted (at a certified point), not merely undecided.
    assert!(!t.fails_unproved, "{t:?}");
    // The range constant itself cannot be tightened.
    let e = c
        .tighten("alpha", None, &mut RunContext::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("is a range"), "{e}");
}

/// More searched states than `limits::RANGE_STATES` in one case: the range is not decided at
/// them, and the verdict says so instead of `holds` (the claim, ε ≥ 0 on (0, 1], is true).
#[test]
fn too_many_states_for_the_range_is_not_held() {
    let v = run(
        "many",
        r#"[setting]
processes = ["one-choice"]
[constants]
eps = "(0, 1]"
[claim]
expr = "eps >= 0*Upsilon"
[domain]
n = [8]
families = []
integer = false
random = 110000
optimise = 0
seed = 3
"#,
    );
    assert_eq!(v.verdict, Status::Inconclusive, "{v:?}");
    assert!(
        v.notes.iter().any(|n| n.contains("limits::RANGE_STATES")),
        "{:?}",
        v.notes
    );
}
