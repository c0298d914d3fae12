//! Soundness: claims built to be false in the places where a proof step or a certification could
//! take something on trust (a stated touching point, one end of the domain, a tiny region, a
//! kink, a jump, cancellation in floating point), each of which must never come out `proved` or
//! `holds`; and true claims that are tight (equal at a point, along a face, or at every state)
//! that must never come out `refuted`. The truth of every case is derived by hand in its comment.
//!
//! A `refuted` verdict must name a point where the claim is false: where the case says which
//! point that is, the test checks it.

use balloc::claim::{self, RunContext, Status, Trust, Verdict};
use std::path::PathBuf;

use crate::common;
use common::write;

fn scratch(name: &str) -> PathBuf {
    common::scratch_in("soundness", name)
}

const HEAD: &str = r#"title = "t"
expected = "open"
statement = "x"
[source]
locator = "test"
provenance = "derived"
"#;

fn run(name: &str, kind: &str, body: &str) -> Verdict {
    common::check_scratch(
        "soundness",
        name,
        &format!("kind = \"{kind}\"\n{HEAD}{body}"),
    )
}

fn real(name: &str, body: &str) -> Verdict {
    run(name, "real", body)
}

/// The coordinate `name` of a refuted verdict's point, exactly as reported.
fn coord(v: &Verdict, name: &str) -> f64 {
    v.witness.as_ref().expect("a witness").constants[name]
}

/// A false claim: never `proved`, never `holds`.
fn never_accepted(v: &Verdict) {
    assert!(
        !matches!(v.verdict, Status::Proved | Status::Holds),
        "{}: a false claim came out {:?}: {:?}",
        v.id,
        v.verdict,
        v.notes
    );
}

/// A true claim: never `refuted`.
fn never_refuted(v: &Verdict) {
    assert!(
        v.verdict != Status::Refuted,
        "{}: a true claim came out refuted: {:?} {:?}",
        v.id,
        v.witness,
        v.notes
    );
}

// ---------------------------------------------------------------------------------------------
// Kind `real`: touching points

#[test]
fn a_strict_claim_is_refuted_at_a_touching_point_where_its_sides_are_equal() {
    // e^x > 1 + x on [−1, 1]: at x = 0 both sides are 1 (e^0 = 1 = 1 + 0), so the strict claim is
    // false there; a stated touching point must not exempt it.
    let v = real(
        "strict-exp-touching",
        "[vars]\nx = [\"-1\", \"1\"]\n[claim]\nexpr = \"exp(x) > 1 + x\"\ntouching = [{ x = \"0\" }]\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert_eq!(coord(&v, "x"), 0.0);
    // x² > 0 on [−1, 1]: 0² = 0 at x = 0.
    let v = real(
        "strict-square-touching",
        "[vars]\nx = [\"-1\", \"1\"]\n[claim]\nexpr = \"x^2 > 0\"\ntouching = [{ x = \"0\" }]\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert_eq!(coord(&v, "x"), 0.0);
    // The same without `touching`: still refuted at 0.
    let v = real(
        "strict-square",
        "[vars]\nx = [\"-1\", \"1\"]\n[claim]\nexpr = \"x^2 > 0\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert_eq!(coord(&v, "x"), 0.0);
    // |x − 1/3| > 0 on [0, 1] is false only at x = 1/3, which no bisection point and no float
    // reaches: stated as a touching point it is refuted there exactly (|0| = 0).
    let v = real(
        "strict-kink-third-touching",
        "[vars]\nx = [\"0\", \"1\"]\n[claim]\nexpr = \"abs(x - 1/3) > 0\"\ntouching = [{ x = \"1/3\" }]\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert!((coord(&v, "x") - 1.0 / 3.0).abs() < 1e-15);
}

#[test]
fn a_touching_point_of_a_true_tight_claim_is_decided_exactly_not_refuted() {
    // e^(x − 1/3) ≥ 1 + (x − 1/3) on [0, 1]: e^t ≥ 1 + t for every real t, with equality at t = 0,
    // i.e. at the non-dyadic point x = 1/3 (no enclosure of the point is exactly 0 there).
    let v = real(
        "tight-third",
        "[vars]\nx = [\"0\", \"1\"]\n[claim]\nexpr = \"exp(x - 1/3) >= 1 + x - 1/3\"\ntouching = [{ x = \"1/3\" }]\nmax_boxes = 4000\n",
    );
    never_refuted(&v);
    assert_eq!(v.verdict, Status::Proved, "{:?}", v.notes);
}

// ---------------------------------------------------------------------------------------------
// Kind `real`: ends, tiny regions, kinks, jumps

#[test]
fn a_claim_false_at_one_end_of_the_domain_is_refuted_there_and_proved_without_it() {
    // x(1 − x) + x/2 > 0 on [0, 1]: the left side is x(3/2 − x) ≥ x/2 > 0 for x ∈ (0, 1], and 0
    // at x = 0: false exactly at the closed end 0.
    let v = real(
        "end-closed",
        "[vars]\nx = [\"0\", \"1\"]\n[claim]\nexpr = \"x*(1 - x) + x/2 > 0\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert_eq!(coord(&v, "x"), 0.0);
    // On (0, 1] the end is excluded and the claim is true: never refuted.
    let v = real(
        "end-open",
        "[vars]\nx = \"(0, 1]\"\n[claim]\nexpr = \"x*(1 - x) + x/2 > 0\"\n",
    );
    never_refuted(&v);
}

#[test]
fn a_claim_false_only_on_a_tiny_region_is_never_proved() {
    // (x − 1/3)² ≥ 10⁻²⁰ on [0, 1] is false exactly on |x − 1/3| < 10⁻¹⁰, an interval of width
    // 2·10⁻¹⁰ around a non-dyadic point.
    let v = real(
        "tiny-region",
        "[vars]\nx = [\"0\", \"1\"]\n[claim]\nexpr = \"(x - 1/3)^2 >= 1e-20\"\nmax_boxes = 20000\n",
    );
    never_accepted(&v);
    if v.verdict == Status::Refuted {
        assert!((coord(&v, "x") - 1.0 / 3.0).abs() < 1e-10);
    }
    // Two variables: x² + y² ≥ 10⁻³⁰ on [−1, 1]² is false on the disc of radius 10⁻¹⁵ at 0.
    let v = real(
        "tiny-disc",
        "[vars]\nx = [\"-1\", \"1\"]\ny = [\"-1\", \"1\"]\n[claim]\nexpr = \"x^2 + y^2 >= 1e-30\"\nmax_boxes = 20000\n",
    );
    never_accepted(&v);
}

#[test]
fn claims_false_at_a_kink_or_a_jump_are_never_proved() {
    // |x − 1/3| > 0 on [0, 1]: false at x = 1/3 only (a kink; no derivative there).
    let v = real(
        "kink",
        "[vars]\nx = [\"0\", \"1\"]\n[claim]\nexpr = \"abs(x - 1/3) > 0\"\nmax_boxes = 4000\n",
    );
    never_accepted(&v);
    // max(x, 1/3) > 1/3 on [0, 1]: false on all of [0, 1/3] (the flat side of the kink).
    let v = real(
        "kink-flat",
        "[vars]\nx = [\"0\", \"1\"]\n[claim]\nexpr = \"max(x, 1/3) > 1/3\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert!(coord(&v, "x") <= 1.0 / 3.0);
    // ceil(3x) − 3x > 0 on [1/4, 1/2]: 3x ∈ [3/4, 3/2], ceil(3x) − 3x = 0 exactly at 3x = 1
    // (x = 1/3) and > 0 elsewhere: false at the jump only.
    let v = real(
        "jump",
        "[vars]\nx = [\"1/4\", \"1/2\"]\n[claim]\nexpr = \"ceil(3*x) - 3*x > 0\"\nmax_boxes = 4000\n",
    );
    never_accepted(&v);
    // (x > 1/3) ≥ 1 on [0, 1]: the indicator is 0 on [0, 1/3], so false there; its derivative
    // is 0 wherever it is defined, so a monotone step toward x = 1 would "prove" it.
    let v = real(
        "indicator",
        "[vars]\nx = [\"0\", \"1\"]\n[claim]\nexpr = \"(x > 1/3) >= 1\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert!(coord(&v, "x") <= 1.0 / 3.0);
    // 1 − (x ≤ 0) ≥ 1 on [−1, 1]... false on [−1, 0]; and the narrow version
    // (x ≤ 0) + (x > 10⁻⁹) ≥ 1: false exactly on (0, 10⁻⁹].
    let v = real(
        "indicator-narrow",
        "[vars]\nx = [\"-1\", \"1\"]\n[claim]\nexpr = \"(x <= 0) + (x > 1e-9) >= 1\"\nmax_boxes = 20000\n",
    );
    never_accepted(&v);
}

#[test]
fn cancellation_never_decides_a_real_claim() {
    // (10²⁰ + x) − 10²⁰ ≥ x on [0, 1] holds with equality everywhere (exact arithmetic), while
    // in f64 the left side is 0 for every x < 8192: a true tight claim, never refuted.
    let v = real(
        "cancel-true",
        "[vars]\nx = [\"0\", \"1\"]\n[claim]\nexpr = \"(1e20 + x) - 1e20 >= x\"\n",
    );
    never_refuted(&v);
    // The strict version is false at every x: refuted (at any point).
    let v = real(
        "cancel-false",
        "[vars]\nx = [\"0\", \"1\"]\n[claim]\nexpr = \"(1e20 + x) - 1e20 > x\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    // (10²⁰ + x) − 10²⁰ ≥ x + 10⁻³⁰⁰ is false everywhere by 10⁻³⁰⁰.
    let v = real(
        "cancel-tiny",
        "[vars]\nx = [\"0\", \"1\"]\n[claim]\nexpr = \"(1e20 + x) - 1e20 >= x + 1e-300\"\n",
    );
    never_accepted(&v);
}

#[test]
fn hypotheses_decided_outside_never_hide_a_counterexample() {
    // Under x + y ≤ 1 on [0, 1]², x·y ≤ 1/4 (AM–GM) with equality at x = y = 1/2; the bound 0.2499
    // is false near (1/2, 1/2), inside the hypothesis (1/2 + 1/2 = 1 ≤ 1 holds).
    let v = real(
        "given-false-inside",
        "[vars]\nx = [\"0\", \"1\"]\ny = [\"0\", \"1\"]\n[claim]\ngiven = [\"x + y <= 1\"]\nexpr = \"x*y <= 0.2499\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    let (x, y) = (coord(&v, "x"), coord(&v, "y"));
    assert!(x + y <= 1.0 && x * y > 0.2499, "({x}, {y})");
    // The true tight version (≤ 1/4) is never refuted.
    let v = real(
        "given-tight",
        "[vars]\nx = [\"0\", \"1\"]\ny = [\"0\", \"1\"]\n[claim]\ngiven = [\"x + y <= 1\"]\nexpr = \"x*y <= 1/4\"\nmax_boxes = 20000\n",
    );
    never_refuted(&v);
}

// ---------------------------------------------------------------------------------------------
// Load-vector claims: the certification ladder

fn loads(name: &str, body: &str) -> Verdict {
    run(name, "inequality", body)
}

#[test]
fn float_cancellation_never_makes_a_false_load_claim_hold() {
    // (Υ + 2⁶⁰) − 2⁶⁰ ≤ Υ − 1/2 is false at every state (exactly, the left side is Υ). In f64,
    // Υ + 2⁶⁰ is rounded to a multiple of 256, so the floats see the left side as 0 or 256 and
    // the claim "holds" at every state with Υ ≥ 1/2 and 2⁶⁰ + Υ rounding down.
    let v = loads(
        "cancel-upsilon",
        "[setting]\nprocesses = [\"two-choice\"]\n[claim]\nexpr = \"(Upsilon + 2^60) - 2^60 <= Upsilon - 1/2\"\n[domain]\nn = [4]\nexhaustive = { max_n = 4, max_load = 3 }\nrandom = 4\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert_eq!(v.trust, Trust::Exact);
    // Exactly, the left side is Υ and the right Υ − 1/2: slack −1/2 at every state.
    let e = v
        .witness
        .as_ref()
        .unwrap()
        .exact
        .clone()
        .expect("exact sides");
    assert_eq!(e.slack, "-1/2");
    assert_eq!(
        e.lhs,
        e.rhs
            .parse::<balloc::exact::Q>()
            .map(|r| r + balloc::exact::Q::new(1.into(), 2.into()))
            .unwrap()
            .to_string()
    );
}

#[test]
fn an_identity_tight_at_every_state_is_never_refuted_even_at_huge_loads() {
    // One-Choice, one unit ball: E[Υ'] = Υ + 1 − 1/n exactly (docs/derivations.md: the ball lands
    // in bin i with probability 1/n, E[Σ y'²] = Σ y² + 2·Σ yᵢ/n·... = Υ + 1 − 1/n since Σ yᵢ = 0).
    // Tight at every state; the `huge` family reaches loads of 10¹², where the floats of both
    // sides differ by rounding.
    let v = loads(
        "identity-upsilon",
        "[setting]\nprocesses = [\"one-choice\"]\npotentials = [\"quadratic\"]\n[claim]\nexpr = \"E_Upsilon <= Upsilon + 1 - 1/n\"\n[domain]\nn = [3, 7, 16]\nexhaustive = { max_n = 4, max_load = 3 }\nrandom = 16\noptimise = 50\n",
    );
    never_refuted(&v);
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    // The strict version is false at every state: refuted exactly.
    let v = loads(
        "identity-upsilon-strict",
        "[setting]\nprocesses = [\"one-choice\"]\npotentials = [\"quadratic\"]\n[claim]\nexpr = \"E_Upsilon < Upsilon + 1 - 1/n\"\n[domain]\nn = [3]\nrandom = 4\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert_eq!(v.trust, Trust::Exact);
}

// ---------------------------------------------------------------------------------------------
// Registered potentials at parameters that are not rational

/// `E[P']` at the balanced state `y ≡ 0` of `n` bins under One-Choice with one unit ball (or a
/// batch of `b` unit balls on the frozen state), by hand: the ball goes to each bin with
/// probability 1/n, so a bin's normalised load becomes `1 − 1/n` (prob. 1/n) or `−1/n`.
/// With `f` the per-bin term: `E[P'] = f(1 − 1/n) + (n − 1)·f(−1/n)`.
fn one_choice_balanced(f: impl Fn(f64) -> f64, n: f64) -> f64 {
    f(1.0 - 1.0 / n) + (n - 1.0) * f(-1.0 / n)
}

/// A claim on the balanced state of `n = 16` bins only, as a file body.
fn balanced_body(pot: &str, param: &str, weights: &str, batch: u32, expr: &str) -> String {
    format!(
        "[setting]\nprocesses = [\"one-choice\"]\npotentials = [\"{pot}\"]\nweights = \"{weights}\"\nbatch = {batch}\n[constants]\n{param} = \"1/ln(n)\"\n[claim]\nexpr = \"{expr}\"\n[domain]\nstates = [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]\nfamilies = []\nrandom = 0\n"
    )
}

#[test]
fn registered_potentials_at_an_irrational_parameter_are_certified_by_enclosures() {
    let n = 16.0f64;
    let a = 1.0 / n.ln(); // α = 1/ln 16 = 0.3606737602222409
    // The file of the report: One-Choice, E[Φ'] ≤ Φ·(1 + α²/(2n)) at α = 1/ln n is false at every
    // state; at y ≡ 0, Φ = n and E[Φ'] = e^{α(1−1/n)} + (n−1)e^{−α/n} exceeds n + α²/2 by
    // n·1.8·10⁻⁴ (the hand value below).
    let lhs = one_choice_balanced(|y| (a * y).exp(), n);
    let rhs = n * (1.0 + a * a / (2.0 * n));
    assert!((lhs - rhs) / n > 1.8e-4 && (lhs - rhs) / n < 1.9e-4);
    let v = loads(
        "irrational-phi",
        &balanced_body(
            "phi",
            "alpha",
            "unit",
            1,
            "E_Phi <= Phi*(1 + alpha^2/(2*n))",
        ),
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert_eq!(v.trust, Trust::Enclosure, "{:?}", v.notes);
    // Each registered potential at y ≡ 0, by hand: Φ (e^{αy}), Ψ (e^{−αy}), Γ (both), Λ (e^{α|y|}),
    // V (e^{(κ/n)|y|}, κ = 1/ln n); the claim E_X ≤ v(1 ∓ 10⁻⁹) is refuted (−) and holds (+),
    // both with trust enclosure: the enclosure route decides a margin of 10⁻⁹ that the float
    // route, a different computation, confirms.
    type Term = Box<dyn Fn(f64) -> f64>;
    let cases: [(&str, &str, &str, Term); 5] = [
        (
            "phi",
            "alpha",
            "E_Phi",
            Box::new(move |y: f64| (a * y).exp()),
        ),
        (
            "psi",
            "alpha",
            "E_Psi",
            Box::new(move |y: f64| (-a * y).exp()),
        ),
        (
            "gamma",
            "alpha",
            "E_Gamma",
            Box::new(move |y: f64| (a * y).exp() + (-a * y).exp()),
        ),
        (
            "lambda",
            "alpha",
            "E_Lambda",
            Box::new(move |y: f64| (a * y.abs()).exp()),
        ),
        (
            "recovery",
            "kappa",
            "E_V",
            Box::new(move |y: f64| (a / n * y.abs()).exp()),
        ),
    ];
    for (pot, param, name, f) in cases {
        let v0 = one_choice_balanced(f, n);
        for (scale, want) in [(1.0 - 1e-9, Status::Refuted), (1.0 + 1e-9, Status::Holds)] {
            let v = loads(
                &format!("irrational-{pot}-{}", want.name()),
                &balanced_body(
                    pot,
                    param,
                    "unit",
                    1,
                    &format!("{name} <= {:.17e}", v0 * scale),
                ),
            );
            assert_eq!(v.verdict, want, "{pot}: {:?}", v.notes);
            assert_eq!(v.trust, Trust::Enclosure, "{pot}: {:?}", v.notes);
        }
    }
}

#[test]
fn irrational_parameters_are_certified_in_batches_and_with_weights() {
    let n = 16.0f64;
    let a = 1.0 / n.ln();
    // A batch of b = 3 unit balls on the frozen balanced state, One-Choice: bin i receives
    // kᵢ ~ Bin(3, 1/n) balls and yᵢ' = kᵢ − 3/n, so E[e^{αyᵢ'}] = e^{−3α/n}(1 − 1/n + e^α/n)³
    // (the binomial MGF) and E[Φ'] = n·e^{−3α/n}(1 − 1/n + e^α/n)³.
    let batch = n * (-3.0 * a / n).exp() * (1.0 - 1.0 / n + a.exp() / n).powi(3);
    // One ball of weight W ~ Exp(1): yᵢ' = W(1{i = j} − 1/n), M(s) = E[e^{sW}] = 1/(1 − s), so
    // E[Φ'] = n·((1/n)·M(α(1 − 1/n)) + (1 − 1/n)·M(−α/n)).
    let m = |s: f64| 1.0 / (1.0 - s);
    let weighted = n * (m(a * (1.0 - 1.0 / n)) / n + (1.0 - 1.0 / n) * m(-a / n));
    // Two steps of one unit ball from the balanced state (E2_Phi): a bin receives k ∈ {0, 1, 2}
    // of the two uniform, independent balls with probabilities (1 − 1/n)², 2(1/n)(1 − 1/n),
    // 1/n², and then y'' = k − 2/n, so
    // E2[Φ] = n·e^{−2α/n}((1 − 1/n)² + 2(1 − 1/n)e^α/n + e^{2α}/n²).
    let two = n
        * (-2.0 * a / n).exp()
        * ((1.0 - 1.0 / n).powi(2)
            + 2.0 * (1.0 - 1.0 / n) * a.exp() / n
            + (2.0 * a).exp() / (n * n));
    for (label, weights, b, v0, name) in [
        ("batch", "unit", 3, batch, "E_Phi"),
        ("exp-weights", "exp(1)", 1, weighted, "E_Phi"),
        ("two-steps", "unit", 1, two, "E2_Phi"),
    ] {
        for (scale, want) in [(1.0 - 1e-9, Status::Refuted), (1.0 + 1e-9, Status::Holds)] {
            let v = loads(
                &format!("irrational-{label}-{}", want.name()),
                &balanced_body(
                    "phi",
                    "alpha",
                    weights,
                    b,
                    &format!("{name} <= {:.17e}", v0 * scale),
                ),
            );
            assert_eq!(v.verdict, want, "{label}: {:?}", v.notes);
            assert_eq!(v.trust, Trust::Enclosure, "{label}: {:?}", v.notes);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Constants as honest as verdicts

/// The constant finder's result for `name` of the claim `body` at the numbers of bins `ns`.
fn tighten(name: &str, body: &str, ns: &[usize]) -> balloc::claim::ConstantReport {
    let root = scratch(name);
    let p = write(&root, name, &format!("kind = \"inequality\"\n{HEAD}{body}"));
    let (_, c) = claim::prepare(&p, &root).unwrap();
    c.tighten("K", Some(ns), &mut RunContext::default())
        .unwrap()
}

#[test]
fn the_constant_finder_brackets_negative_constants() {
    // Two-Choice at n = 2, one unit ball: E[ΔΥ] = 1 − 1/n + 2Σ pᵢyᵢ (Σ yᵢ = 0). With y = (d, −d),
    // the heavier bin (rank 1) gets the ball with probability 1/4: 2Σ pᵢyᵢ = 2(d/4 − 3d/4) = −d,
    // so E[ΔΥ] = 1/2 − d ≤ 1/2, the maximum at the balanced state. The smallest K with
    // dE_Upsilon − 2 ≤ K at every state is 1/2 − 2 = −3/2 (the finder used to stop at 0).
    let body = "[setting]\nprocesses = [\"two-choice\"]\n[constants]\nK = 1\n[tighten]\nK = \"smallest\"\n[claim]\nexpr = \"dE_Upsilon - 2 <= K\"\n[domain]\nn = [2]\nexhaustive = { max_n = 2, max_load = 4 }\n";
    let r = tighten("negative-k", body, &[2]);
    let t = &r.per_n[0];
    assert!((t.value + 1.5).abs() < 1e-5, "{}", t.value);
    let f = t.fails.expect("a failing value below the threshold");
    assert!(f < -1.5 && t.value >= -1.5, "[{f}, {}]", t.value);
    // The bracket agrees with plain checks on either side of −3/2.
    let check = |k: &str| {
        run(
            &format!("negative-k-check{}", k.replace(['-', '/'], "_")),
            "inequality",
            &body.replace("K = 1\n", &format!("K = \"{k}\"\n")),
        )
        .verdict
    };
    assert_eq!(check("-3/2"), Status::Holds);
    assert_eq!(check("-151/100"), Status::Refuted);
    // From a grid [-5, 5]: the first value −5 fails, the search steps up and finds −3/2 again.
    let grid = body.replace("K = 1\n", "K = [-5, 5]\n");
    let t = &tighten("negative-k-grid", &grid, &[2]).per_n[0];
    assert!((t.value + 1.5).abs() < 1e-5, "{}", t.value);
}

#[test]
fn a_constant_without_a_failing_value_says_so() {
    // Υ ≥ K holds for every K ≤ 0 (Υ = 0 at the balanced state, ≥ 0 everywhere) and fails
    // for K > 0: the largest K is 0, bracketed by a failing value above it.
    let body = "[setting]\nprocesses = [\"two-choice\"]\n[constants]\nK = 1\n[tighten]\nK = \"largest\"\n[claim]\nexpr = \"Upsilon >= K\"\n[domain]\nn = [3]\nexhaustive = { max_n = 3, max_load = 3 }\n";
    let t = &tighten("largest-zero", body, &[3]).per_n[0];
    assert!(
        t.value.abs() < 1e-12 && t.fails.unwrap() > 0.0,
        "{:?}",
        (t.value, t.fails)
    );
    // Υ ≥ 0·K holds for every K: no failing value, and the farthest value tried is reported,
    // far below any scale of the file (2⁶⁴ times the start's scale).
    let body = "[setting]\nprocesses = [\"two-choice\"]\n[constants]\nK = 1\n[tighten]\nK = \"smallest\"\n[claim]\nexpr = \"Upsilon >= 0*K\"\n[domain]\nn = [3]\nexhaustive = { max_n = 3, max_load = 2 }\n";
    let t = &tighten("unbounded", body, &[3]).per_n[0];
    assert!(
        t.fails.is_none() && t.value < -1e18,
        "{:?}",
        (t.value, t.fails)
    );
}

// Kind `real`: rewrites before enclosure, and the limits of the f64 path

#[test]
fn rewrites_never_accept_a_false_claim_nor_refute_a_true_one() {
    // A common factor e^{−x} on both sides of a false claim: (1 + x)e^{−x} ≤ (1 + x/2)e^{−x} on
    // [0, 1] is 1 + x ≤ 1 + x/2 after dividing by e^{−x} > 0, false for every x > 0.
    let v = real(
        "rewrite-common-exp-false",
        "[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"(1 + x)*exp(-x) <= (1 + x/2)*exp(-x)\"\n",
    );
    never_accepted(&v);
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert!(coord(&v, "x") > 0.0);
    // A negative denominator: x/(x − 2) ≤ −1 on [0, 1] is x ≥ 2 − x (multiplied by x − 2 < 0),
    // i.e. x ≥ 1: false on [0, 1). Multiplied out as if x − 2 were positive it would read
    // x ≤ 2 − x, true on [0, 1].
    let v = real(
        "rewrite-negative-denominator",
        "[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"x/(x - 2) <= -1\"\n",
    );
    never_accepted(&v);
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert!(coord(&v, "x") < 1.0);
    // A denominator positive only on part of the domain: 1/(x − 1/2) ≥ −3 on [0, 1] is false at
    // x = 1/4 (1/(−1/4) = −4) and undefined at x = 1/2.
    let v = real(
        "rewrite-denominator-changes-sign",
        "[vars]\nx = \"[0, 1]\"\n[claim]\nexpr = \"x/(x - 1/2) >= -3\"\n",
    );
    never_accepted(&v);
    // A derived name whose enclosure is wider than its range: p = x·y − x·y + 1/2 is 1/2 at every
    // point, but its enclosure on [0, 1]² is [−1/2, 3/2], where the claim p ≥ 0 with p replaced
    // by one variable over that enclosure is false. The true claim must not be refuted.
    let v = real(
        "rewrite-range-wider",
        "[vars]\nx = \"[0, 1]\"\ny = \"[0, 1]\"\n[claim]\nlet = { p = \"x*y - x*y + 1/2\" }\nexpr = \"p >= 0\"\n",
    );
    never_refuted(&v);
}

#[test]
fn the_f64_path_escalates_at_tiny_widths_and_huge_values() {
    // x > 1/3 on [1/3, 1/3 + 10⁻³⁰⁰]: false at x = 1/3 exactly (both sides 1/3), a point no f64
    // enclosure separates from its neighbours; refuted there, at the exact rational.
    let v = real(
        "fast-tiny-width",
        "[vars]\nx = \"[1/3, 1/3 + 1e-300]\"\n[claim]\nexpr = \"x > 1/3\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    let w = v.witness.as_ref().expect("a witness");
    assert!(w.source.contains("x = 1/3 "), "{w:?}");
    assert!(
        w.recheck.as_deref().is_some_and(|r| r.contains("g = 0")),
        "{w:?}"
    );
    // x² ≤ 10⁶⁰⁰ on [−10³⁰⁰, 10³⁰⁰]: true (x² ≤ (10³⁰⁰)² = 10⁶⁰⁰), with values beyond f64's range
    // (about 1.8·10³⁰⁸): proved, by the arbitrary-precision path.
    let v = real(
        "fast-huge-le",
        "[vars]\nx = \"[-1e300, 1e300]\"\n[claim]\nexpr = \"x^2 <= 1e600\"\n",
    );
    assert_eq!(v.verdict, Status::Proved, "{:?}", v.notes);
    // The strict form is false at both ends, where x² = 10⁶⁰⁰ exactly.
    let v = real(
        "fast-huge-lt",
        "[vars]\nx = \"[-1e300, 1e300]\"\n[claim]\nexpr = \"x^2 < 1e600\"\n",
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert!((coord(&v, "x").abs() / 1e300 - 1.0).abs() < 1e-15);
    // The strict form with room: x² < 1.0000001·10⁶⁰⁰ proved.
    let v = real(
        "fast-huge-room",
        "[vars]\nx = \"[-1e300, 1e300]\"\n[claim]\nexpr = \"x^2 < 1.0000001e600\"\n",
    );
    assert_eq!(v.verdict, Status::Proved, "{:?}", v.notes);
}

/// Constants over a range (`src/claim/range.rs`): the exact corner value decides a box only
/// where the slack is monotone over it. `ε² ≥ ε/1000` on [0, 1] is equal at the corner ε = 0
/// (slack 0) but false on (0, 1/1000), where the slack ε² − ε/1000 first decreases (derivative
/// −1/1000 at 0): a box [0, w] must not be decided by its corner. None of the sample points
/// (0, 1/2, 1) fails, so only the bisection can see it: never `holds`, and a refutation lies in
/// (0, 1/1000). The true twin `ε² + ε/1000 ≥ 0` (also 0 at the corner, increasing) is never
/// refuted.
#[test]
fn a_range_is_never_held_on_a_corner_it_leaves_downward() {
    let body = |expr: &str| {
        format!(
            "[setting]\nprocesses = [\"one-choice\"]\n[constants]\neps = \"[0, 1]\"\n[claim]\nexpr = \"{expr} + 0*Upsilon\"\n[domain]\nn = [2]\nrandom = 1\nseed = 1\n"
        )
    };
    let v = run("range-corner", "inequality", &body("eps^2 >= eps/1000"));
    assert_ne!(v.verdict, Status::Holds, "{v:?}");
    if v.verdict == Status::Refuted {
        let e = coord(&v, "eps");
        assert!(e > 0.0 && e < 1e-3, "eps = {e}");
    }
    let t = run(
        "range-corner-true",
        "inequality",
        &body("eps^2 + eps/1000 >= 0"),
    );
    assert_ne!(t.verdict, Status::Refuted, "{t:?}");
}
