//! A claim derived from proved lemmas: bounds of its terms, then an exact identity.
//!
//! Interval arithmetic cannot prove a claim whose two sides agree only through cancellations
//! (the dependency problem): `sinh x − x` near 0, or `p·x₁ − (1 − p)·x₂` when it is a multiple
//! of a small quantity. A proof on paper bounds such terms by lemmas proved before and
//! simplifies what is left. A [`Derivation`] does the same, each step justified:
//!
//! Write the claim as `g ≤ 0` (or `g < 0`), with `g = lhs − rhs` for `<=`/`<` and
//! `g = rhs − lhs` for `>=`/`>`, its derived names written out (inlined).
//!
//! 1. **A bound** replaces every occurrence of a term `T` in `g` by an expression `U`. It is
//!    justified by a **lemma**: a `real` claim `A(y) ≤ B(y)` over a box `Y` of its own
//!    variables, proved on its own (its certificate is part of this one). At `y = Y(x)` (each
//!    lemma variable an expression of the claim's names) the lemma's sides must be `T` and `U`
//!    (as [`super::ratfun::identical`] decides), so `T ≤ U` (an **upper** bound) or `T ≥ U` (a
//!    **lower** bound); every `yᵢ(x)` must lie in the lemma's range for every `x` of the domain
//!    (an enclosure over the domain inside the lemma's range), and each hypothesis of the lemma
//!    (`given`, comparisons joined by `&&`) at `y = Y(x)` is a claim of its own, proved over the
//!    domain under the claim's hypotheses. Then `g` with `T` replaced by a
//!    new variable `t` must be non-decreasing in `t` for an upper bound (non-increasing for a
//!    lower one) between `T` and `U`: the **sign of the derivative** `∂g/∂t` (computed
//!    symbolically, [`derivative`]) is a claim of its own, proved over the domain and `t` over
//!    an enclosure of both `T` and `U` (under the claim's hypotheses). Then
//!    `g(x, T(x)) ≤ g(x, U(x))` at every point.
//! 2. **The reduced claim** `g′ ≤ 0` (or `< 0`; strict when the claim is) is the claim the
//!    tree proves. `g′` must be identical to `g` after every bound, as a rational function of
//!    the claim's variables with opaque atoms ([`super::ratfun`]): an exact test.
//!
//! Chaining, `g = g(T) ≤ g(U) ≡ g′ ≤ 0`: the claim holds wherever the reduced one does. The
//! identity holds where no denominator vanishes, so the claim itself must be defined on its
//! whole domain: one enclosure of `g` over the domain must be finite (every denominator and
//! logarithm's argument away from 0 there); the reduced claim and the derivative claims are
//! defined wherever they are proved. The
//! checker ([`super::checker::verify_derived`]) builds the whole plan again from the theorem
//! files (the lemmas' claims, the bounds' texts, the reduced claim) with [`plan`], checks the
//! lemma certificates against the lemmas it built, the sign certificates against the derivative
//! claims it derived, and the tree against the reduced claim; nothing of the plan is read from
//! the certificate.

use super::problem::{Problem, SlotDef, Var};
use super::ratfun::identical;
use crate::exact::Q;
use crate::lang::{BinOp, Cmp, Expr, Formula, Func, expr::num};
use num_traits::{One, Zero};

/// A lemma applied to a term of a claim.
#[derive(Debug, Clone)]
pub struct Bound {
    /// The lemma's theorem id.
    pub lemma_id: String,
    /// The lemma's claim (built from its file, proved on its own).
    pub lemma: Problem,
    /// Per variable of the lemma, the expression (in the claim's slots) it is applied at.
    pub at: Vec<Expr>,
    /// The term of the claim that is bounded (in the claim's slots).
    pub term: Expr,
    /// Its bound (in the claim's slots).
    pub by: Expr,
    /// `term` as written.
    pub term_text: String,
    /// `by` as written.
    pub by_text: String,
}

/// How a claim is derived: bounds in order, then the reduced claim the tree proves.
#[derive(Debug, Clone)]
pub struct Derivation {
    /// The bounds, applied in order.
    pub bounds: Vec<Bound>,
    /// The reduced claim: the claim's variables, slots and hypotheses with other sides.
    pub reduced: Problem,
}

/// Whether a bound is above or below its term.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// `term ≤ by`.
    Upper,
    /// `term ≥ by`.
    Lower,
}

/// The claims a derivation needs proved, derived from the files alone.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Per bound: its direction and the claim that `g` is monotone in the term.
    pub steps: Vec<(Direction, Problem)>,
    /// Per bound: the lemma's hypotheses at the point of application, each a claim over the
    /// domain.
    pub hypotheses: Vec<Vec<Problem>>,
}

/// `g` of a claim (`lhs − rhs` for `<=`/`<`, `rhs − lhs` for `>=`/`>`), inlined.
fn gap(p: &Problem) -> Expr {
    let (l, r) = (inline(p, &p.lhs), inline(p, &p.rhs));
    match p.cmp {
        Cmp::Le | Cmp::Lt => sub(l, r),
        _ => sub(r, l),
    }
}

/// The plan of `claim` derived by `d` (see the module documentation): an error names the step
/// that does not hold.
///
/// ```
/// use balloc::prover::{Problem, Var, SlotDef, lemma::{Bound, Derivation, Direction, plan}};
/// use balloc::lang::{compile_value, Cmp};
/// use balloc::exact::{int, Q};
/// let var = |name: &str, hi: i64| Var { name: name.into(), lo: int(0), hi: int(hi), lo_open: false, hi_open: false };
/// let problem = |lhs: &str, cmp, rhs: &str, names: &[&str], vars: Vec<Var>| Problem {
///     slots: (0..vars.len()).map(SlotDef::Var).collect(), vars,
///     lhs: compile_value(lhs, names).unwrap(), rhs: compile_value(rhs, names).unwrap(),
///     cmp, tol: int(0), given: vec![], touching: vec![], text: format!("{lhs} vs {rhs}"),
/// };
/// // Claim: 2·sinh(x/4) ≤ x/2 + x³/16 on [0, 1]; lemma: sinh(y) ≤ y + y³ on [0, 1] at y = x/4;
/// // reduced: 2(x/4 + (x/4)³) ≤ x/2 + x³/16, i.e. x³/32 ≤ x³/16.
/// let claim = problem("2*sinh(x/4)", Cmp::Le, "x/2 + x^3/16", &["x"], vec![var("x", 1)]);
/// let lemma = problem("sinh(y)", Cmp::Le, "y + y^3", &["y"], vec![var("y", 1)]);
/// let bound = Bound {
///     lemma_id: "doc/sinh".into(), lemma, at: vec![compile_value("x/4", &["x"]).unwrap()],
///     term: compile_value("sinh(x/4)", &["x"]).unwrap(),
///     by: compile_value("x/4 + (x/4)^3", &["x"]).unwrap(),
///     term_text: "sinh(x/4)".into(), by_text: "x/4 + (x/4)^3".into(),
/// };
/// let reduced = problem("x^3/32", Cmp::Le, "x^3/16", &["x"], vec![var("x", 1)]);
/// let d = Derivation { bounds: vec![bound], reduced };
/// let pl = plan(&claim, &d, 128).unwrap();
/// // An upper bound; g = 2·sinh(x/4) − x/2 − x³/16 increases with the term: ∂g/∂t = 2 ≥ 0.
/// assert_eq!(pl.steps[0].0, Direction::Upper);
/// assert_eq!(pl.steps[0].1.cmp, Cmp::Ge);
/// ```
pub fn plan(claim: &Problem, d: &Derivation, prec: u64) -> Result<Plan, String> {
    if !claim.tol.is_zero() || !d.reduced.tol.is_zero() {
        return Err("a derivation through lemmas needs a claim without tolerance".into());
    }
    if claim.strict() && !d.reduced.strict() {
        return Err("the claim is strict, so the reduced claim must be strict too".into());
    }
    let mut g = gap(claim);
    // The identity below equates rational functions where their denominators do not vanish:
    // the claim must be defined on its whole domain, which one enclosure shows.
    if range(claim, &g, prec).is_none() {
        return Err(
            "the claim is not enclosed on its whole domain (a denominator or a logarithm's argument not shown away from 0 by one enclosure); a derivation needs it defined everywhere".into(),
        );
    }
    let (mut steps, mut hypotheses) = (Vec::new(), Vec::new());
    for (j, b) in d.bounds.iter().enumerate() {
        let (direction, sign, hyps) =
            bound_step(claim, b, &g, prec).map_err(|e| format!("bound {}: {e}", j + 1))?;
        g = replace(&g, &inline(claim, &b.term), &inline(claim, &b.by)).0;
        steps.push((direction, sign));
        hypotheses.push(hyps);
    }
    let reduced = gap(&d.reduced);
    if !identical(&g, &reduced)? {
        return Err(
            "the claim after its bounds is not identical to the reduced claim (as rational functions of the variables, with the other functions as opaque terms)".into(),
        );
    }
    Ok(Plan { steps, hypotheses })
}

/// Proves `claim` through `d`: the plan, then every lemma, every derivative sign and the
/// reduced claim with [`super::prove`]; the certificate (with its lemmas; format 4, format 3
/// before clips) and the summed counts, or the first step that is not proved.
pub fn prove_derived(
    claim: &Problem,
    d: &Derivation,
    o: &super::Options,
    id: &str,
    constants: std::collections::BTreeMap<String, String>,
) -> Result<(super::Certificate, super::Stats), String> {
    use super::{Outcome, certificate_with};
    let plan = plan(claim, d, o.prec)?;
    let mut stats = super::Stats::default();
    let mut proof = |p: &Problem, what: &str, id: &str| -> Result<super::Certificate, String> {
        match super::prove(p, o) {
            Outcome::Proved {
                tree,
                rewrites,
                stats: s,
            } => {
                stats.boxes += s.boxes;
                stats.top_boxes += s.top_boxes;
                stats.escalated += s.escalated;
                stats.seconds += s.seconds;
                stats.generations = stats.generations.max(s.generations);
                Ok(certificate_with(
                    p,
                    id,
                    Default::default(),
                    &rewrites,
                    &tree,
                    o.prec,
                ))
            }
            Outcome::Refuted { point, .. } => Err(format!(
                "{what} is false at ({})",
                point
                    .iter()
                    .map(crate::prover::boxes::q_show)
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            Outcome::Inconclusive { reason, .. } => Err(format!("{what} is not proved: {reason}")),
        }
    };
    let mut lemmas = Vec::new();
    for (j, (b, (_, sign))) in d.bounds.iter().zip(&plan.steps).enumerate() {
        let lemma = proof(&b.lemma, &format!("lemma `{}`", b.lemma_id), &b.lemma_id)?;
        let mut hypotheses = Vec::new();
        for h in &plan.hypotheses[j] {
            hypotheses.push(proof(h, &format!("bound {}: {}", j + 1, h.text), id)?);
        }
        let monotone = proof(
            sign,
            &format!(
                "bound {}: the sign of the derivative in `{}`",
                j + 1,
                b.term_text
            ),
            id,
        )?;
        lemmas.push(super::LemmaRecord {
            lemma: b.lemma_id.clone(),
            term: b.term_text.clone(),
            by: b.by_text.clone(),
            proof: Box::new(lemma),
            monotone: Box::new(monotone),
            hypotheses,
        });
    }
    let mut cert = proof(&d.reduced, "the reduced claim", id)?;
    cert.claim = claim.text.clone();
    cert.constants = constants;
    cert.lemmas = lemmas;
    cert.reduced = Some(d.reduced.text.clone());
    Ok((cert, stats))
}

/// One bound: its direction (from the lemma), the range check of the lemma's variables, and the
/// claim that `g` is monotone in the term.
fn bound_step(
    claim: &Problem,
    b: &Bound,
    g: &Expr,
    prec: u64,
) -> Result<(Direction, Problem, Vec<Problem>), String> {
    let lemma = &b.lemma;
    if !lemma.tol.is_zero() {
        return Err(format!(
            "lemma `{}` has a tolerance; a lemma applied as a bound has none",
            b.lemma_id
        ));
    }
    if b.at.len() != lemma.dim() {
        return Err(format!(
            "lemma `{}` has {} variables, {} are given",
            b.lemma_id,
            lemma.dim(),
            b.at.len()
        ));
    }
    let at: Vec<Expr> = b.at.iter().map(|e| inline(claim, e)).collect();
    let side = |e: &Expr| -> Result<Expr, String> {
        let e = inline(lemma, e);
        let mut bad = None;
        let out = map_slots(&e, &mut |s| match &lemma.slots[s] {
            SlotDef::Var(i) => at[*i].clone(),
            _ => {
                bad = Some(s);
                Expr::Slot(s)
            }
        });
        match bad {
            Some(_) => Err(format!(
                "lemma `{}` reads an irrational constant; a lemma applied as a bound reads only its variables",
                b.lemma_id
            )),
            None => Ok(out),
        }
    };
    let (a, bb) = (side(&lemma.lhs)?, side(&lemma.rhs)?);
    let (term, by) = (inline(claim, &b.term), inline(claim, &b.by));
    let below = matches!(lemma.cmp, Cmp::Le | Cmp::Lt);
    let direction = if identical(&a, &term)? && identical(&bb, &by)? {
        if below {
            Direction::Upper
        } else {
            Direction::Lower
        }
    } else if identical(&bb, &term)? && identical(&a, &by)? {
        if below {
            Direction::Lower
        } else {
            Direction::Upper
        }
    } else {
        return Err(format!(
            "lemma `{}` at the given point is not `{}` against `{}`",
            b.lemma_id, b.term_text, b.by_text
        ));
    };
    for (i, (v, e)) in lemma.vars.iter().zip(&at).enumerate() {
        let (lo, hi) = range(claim, e, prec).ok_or_else(|| {
            format!(
                "the value of lemma variable `{}` cannot be enclosed",
                v.name
            )
        })?;
        let inside_lo = if v.lo_open { lo > v.lo } else { lo >= v.lo };
        let inside_hi = if v.hi_open { hi < v.hi } else { hi <= v.hi };
        if !(inside_lo && inside_hi) {
            return Err(format!(
                "lemma variable {} `{}` ranges over [{}, {}] on the domain (an enclosure), outside the lemma's range",
                i + 1,
                v.name,
                crate::prover::boxes::q_show(&lo),
                crate::prover::boxes::q_show(&hi)
            ));
        }
    }
    let hypotheses = lemma_hypotheses(claim, b, &side)?;
    let t = claim.slots.len();
    let (gt, count) = replace(g, &term, &Expr::Slot(t));
    if count == 0 {
        return Err(format!(
            "`{}` does not occur in the claim (after the bounds before it, its names written out)",
            b.term_text
        ));
    }
    let dg = derivative(&gt, t).ok_or_else(|| {
        format!(
            "the claim's derivative in `{}` has a function without a derivative",
            b.term_text
        )
    })?;
    let mut sign = claim.clone();
    sign.tol = Q::zero();
    sign.touching = Vec::new();
    sign.lhs = dg;
    sign.rhs = num(Q::zero());
    sign.cmp = match direction {
        Direction::Upper => Cmp::Ge,
        Direction::Lower => Cmp::Le,
    };
    sign.text = format!(
        "d/dt (the claim's lhs - rhs, oriented to <= 0, with `{}` as t) {} 0",
        b.term_text,
        if direction == Direction::Upper {
            ">="
        } else {
            "<="
        }
    );
    if sign.lhs.uses().slots.contains(&t) {
        let (l1, h1) = range(claim, &term, prec)
            .ok_or_else(|| format!("`{}` cannot be enclosed on the domain", b.term_text))?;
        let (l2, h2) = range(claim, &by, prec)
            .ok_or_else(|| format!("`{}` cannot be enclosed on the domain", b.by_text))?;
        sign.vars.push(Var {
            name: format!("t{}", sign.vars.len()),
            lo: l1.min(l2),
            hi: h1.max(h2),
            lo_open: false,
            hi_open: false,
        });
        sign.slots.push(SlotDef::Var(sign.vars.len() - 1));
    }
    Ok((direction, sign, hypotheses))
}

/// The lemma's hypotheses at the point of application: each comparison of its `given` (joined by
/// `&&`) with the lemma's variables replaced by `side`, as a claim over the claim's domain under
/// the claim's hypotheses.
fn lemma_hypotheses(
    claim: &Problem,
    b: &Bound,
    side: &dyn Fn(&Expr) -> Result<Expr, String>,
) -> Result<Vec<Problem>, String> {
    fn atoms<'f>(f: &'f Formula, out: &mut Vec<&'f Formula>) -> bool {
        match f {
            Formula::And(a, c) => atoms(a, out) && atoms(c, out),
            Formula::Cmp(..) => {
                out.push(f);
                true
            }
            _ => false,
        }
    }
    let mut cmps = Vec::new();
    for f in &b.lemma.given {
        if !atoms(f, &mut cmps) {
            return Err(format!(
                "lemma `{}`: a hypothesis with `||` or `!` cannot be applied (write comparisons joined by `&&`)",
                b.lemma_id
            ));
        }
    }
    let mut out = Vec::new();
    for (k, f) in cmps.into_iter().enumerate() {
        let Formula::Cmp(l, op, r) = f else {
            unreachable!("atoms are comparisons")
        };
        if !matches!(op, Cmp::Le | Cmp::Lt | Cmp::Ge | Cmp::Gt) {
            return Err(format!(
                "lemma `{}`: hypothesis {} is not an inequality (<, <=, >, >=)",
                b.lemma_id,
                k + 1
            ));
        }
        let mut h = claim.clone();
        h.lhs = side(l)?;
        h.rhs = side(r)?;
        h.cmp = *op;
        h.tol = Q::zero();
        h.touching = Vec::new();
        h.text = format!(
            "hypothesis {} of lemma `{}` where it bounds `{}`",
            k + 1,
            b.lemma_id,
            b.term_text
        );
        out.push(h);
    }
    Ok(out)
}

/// `claim` with every bound applied in order: its sides with their derived names written out and
/// each `term` replaced by its `by` (the reduced claim of a file that states none).
///
/// ```
/// use balloc::prover::{Problem, Var, SlotDef, lemma::{Bound, with_bounds}};
/// use balloc::lang::{compile_value, Cmp, Exact, Slots};
/// use balloc::exact::{int, Q};
/// let names = ["x"];
/// let problem = |lhs: &str, rhs: &str| Problem {
///     vars: vec![Var { name: "x".into(), lo: int(0), hi: int(1), lo_open: false, hi_open: false }],
///     slots: vec![SlotDef::Var(0)], lhs: compile_value(lhs, &names).unwrap(),
///     rhs: compile_value(rhs, &names).unwrap(), cmp: Cmp::Le, tol: int(0), given: vec![],
///     touching: vec![], text: lhs.into(),
/// };
/// let claim = problem("2*sinh(x/4)", "x/2 + x^3/16");
/// let bound = Bound {
///     lemma_id: "doc".into(), lemma: problem("sinh(x)", "x + x^3"),
///     at: vec![compile_value("x/4", &names).unwrap()],
///     term: compile_value("sinh(x/4)", &names).unwrap(),
///     by: compile_value("x/4 + (x/4)^3", &names).unwrap(),
///     term_text: "sinh(x/4)".into(), by_text: "x/4 + (x/4)^3".into(),
/// };
/// let r = with_bounds(&claim, &[bound]);
/// // At x = 1 the left side is now 2(1/4 + 1/64) = 17/32, exactly.
/// let one = [int(1)];
/// assert_eq!(r.lhs.eval(&Exact, &Slots(&one), None).unwrap(), Q::new(17.into(), 32.into()));
/// ```
pub fn with_bounds(claim: &Problem, bounds: &[Bound]) -> Problem {
    let mut q = claim.clone();
    q.lhs = inline(claim, &claim.lhs);
    q.rhs = inline(claim, &claim.rhs);
    for b in bounds {
        let (term, by) = (inline(claim, &b.term), inline(claim, &b.by));
        q.lhs = replace(&q.lhs, &term, &by).0;
        q.rhs = replace(&q.rhs, &term, &by).0;
    }
    q.text = format!("{} (with its bounds applied)", claim.text);
    q
}

/// An enclosure `[lo, hi]` of `e` (in the slots of `p`) over the domain of `p`, at `prec` bits.
fn range(p: &Problem, e: &Expr, prec: u64) -> Option<(Q, Q)> {
    let mut q = p.clone();
    q.slots.push(SlotDef::Let(e.clone()));
    super::rewrite::slot_range(&q, q.slots.len() - 1, prec)
}

/// `e` with every derived name of `p` written out (its slots are then variables and
/// constants).
pub fn inline(p: &Problem, e: &Expr) -> Expr {
    map_slots(e, &mut |s| match &p.slots[s] {
        SlotDef::Let(d) => inline(p, d),
        _ => Expr::Slot(s),
    })
}

/// `e` with each slot `s` replaced by `f(s)`.
fn map_slots(e: &Expr, f: &mut dyn FnMut(usize) -> Expr) -> Expr {
    match e {
        Expr::Slot(s) => f(*s),
        Expr::Neg(a) => Expr::Neg(Box::new(map_slots(a, f))),
        Expr::Op(op, a, b) => Expr::Op(*op, Box::new(map_slots(a, f)), Box::new(map_slots(b, f))),
        Expr::Call(g, args) => Expr::Call(*g, args.iter().map(|a| map_slots(a, f)).collect()),
        Expr::Ind(fm) => Expr::Ind(Box::new(map_formula(fm, f))),
        _ => e.clone(),
    }
}

fn map_formula(fm: &Formula, f: &mut dyn FnMut(usize) -> Expr) -> Formula {
    match fm {
        Formula::Cmp(a, c, b) => Formula::Cmp(map_slots(a, f), *c, map_slots(b, f)),
        Formula::And(a, b) => {
            Formula::And(Box::new(map_formula(a, f)), Box::new(map_formula(b, f)))
        }
        Formula::Or(a, b) => Formula::Or(Box::new(map_formula(a, f)), Box::new(map_formula(b, f))),
        Formula::Not(a) => Formula::Not(Box::new(map_formula(a, f))),
    }
}

/// `e` with every occurrence of `term` (structurally equal sub-expressions) replaced by `by`,
/// and the number of occurrences.
pub fn replace(e: &Expr, term: &Expr, by: &Expr) -> (Expr, usize) {
    if e == term {
        return (by.clone(), 1);
    }
    let mut n = 0;
    let mut rec = |x: &Expr| {
        let (y, k) = replace(x, term, by);
        n += k;
        y
    };
    let out = match e {
        Expr::Neg(a) => Expr::Neg(Box::new(rec(a))),
        Expr::Op(op, a, b) => {
            let a = rec(a);
            Expr::Op(*op, Box::new(a), Box::new(rec(b)))
        }
        Expr::Call(g, args) => Expr::Call(*g, args.iter().map(&mut rec).collect()),
        _ => e.clone(),
    };
    (out, n)
}

fn is_num(e: &Expr, v: i64) -> bool {
    matches!(e, Expr::Num(q, _) if *q == Q::from_integer(v.into()))
}

fn add(a: Expr, b: Expr) -> Expr {
    if is_num(&a, 0) {
        b
    } else if is_num(&b, 0) {
        a
    } else {
        Expr::Op(BinOp::Add, Box::new(a), Box::new(b))
    }
}

fn sub(a: Expr, b: Expr) -> Expr {
    if is_num(&b, 0) {
        a
    } else if is_num(&a, 0) {
        Expr::Neg(Box::new(b))
    } else {
        Expr::Op(BinOp::Sub, Box::new(a), Box::new(b))
    }
}

fn mul(a: Expr, b: Expr) -> Expr {
    if is_num(&a, 0) || is_num(&b, 0) {
        num(Q::zero())
    } else if is_num(&a, 1) {
        b
    } else if is_num(&b, 1) {
        a
    } else {
        Expr::Op(BinOp::Mul, Box::new(a), Box::new(b))
    }
}

fn div(a: Expr, b: Expr) -> Expr {
    if is_num(&a, 0) {
        num(Q::zero())
    } else {
        Expr::Op(BinOp::Div, Box::new(a), Box::new(b))
    }
}

/// The derivative of `e` in the slot `t`, symbolically (`None` where a function on the way has
/// no derivative: `abs`, `floor`, `ceil`, `min`, `max`, an indicator or a power with a variable
/// exponent, each only where it reads `t`). Sub-expressions that do not read `t` have
/// derivative 0.
///
/// ```
/// use balloc::lang::{compile_value, Exact, Slots};
/// use balloc::prover::lemma::derivative;
/// use balloc::exact::Q;
/// // d/dx (x³·eˣ⁰ + cosh(2x)/x) at x = 1 (slot 0): 3 + 2·sinh(2)/1 − cosh(2)/1; here the
/// // exponential of 0 keeps the value exact: d/dx (x³ + x²) = 3x² + 2x = 5 at x = 1.
/// let e = compile_value("x^3*exp(0*x) + x^2", &["x"]).unwrap();
/// let d = derivative(&e, 0).unwrap();
/// let one = [Q::from_integer(1.into())];
/// assert_eq!(d.eval(&Exact, &Slots(&one), None).unwrap(), Q::from_integer(5.into()));
/// ```
pub fn derivative(e: &Expr, t: usize) -> Option<Expr> {
    if !e.uses().slots.contains(&t) {
        return Some(num(Q::zero()));
    }
    let d = |x: &Expr| derivative(x, t);
    Some(match e {
        Expr::Slot(s) => num(if *s == t { Q::one() } else { Q::zero() }),
        Expr::Neg(a) => sub(num(Q::zero()), d(a)?),
        Expr::Op(op, a, b) => {
            let (da, db) = (d(a)?, d(b)?);
            let (a, b) = ((**a).clone(), (**b).clone());
            match op {
                BinOp::Add => add(da, db),
                BinOp::Sub => sub(da, db),
                BinOp::Mul => add(mul(da, b.clone()), mul(a, db)),
                BinOp::Div => {
                    let square = Expr::Op(
                        BinOp::Pow,
                        Box::new(b.clone()),
                        Box::new(num(Q::from_integer(2.into()))),
                    );
                    if is_num(&db, 0) {
                        div(da, b)
                    } else {
                        div(sub(mul(da, b), mul(a, db)), square)
                    }
                }
                BinOp::Pow => {
                    if !is_num(&db, 0) {
                        return None;
                    }
                    let Expr::Num(q, _) = &b else { return None };
                    let lower = Expr::Op(BinOp::Pow, Box::new(a), Box::new(num(q - Q::one())));
                    mul(mul(num(q.clone()), lower), da)
                }
            }
        }
        Expr::Call(f, args) if args.len() == 1 => {
            let a = args[0].clone();
            let da = d(&a)?;
            let call = |g: Func, x: Expr| Expr::Call(g, vec![x]);
            match f {
                Func::Exp => mul(call(Func::Exp, a), da),
                Func::Ln => div(da, a),
                Func::Sqrt => div(da, mul(num(Q::from_integer(2.into())), call(Func::Sqrt, a))),
                Func::Cosh => mul(call(Func::Sinh, a), da),
                Func::Sinh => mul(call(Func::Cosh, a), da),
                _ => return None,
            }
        }
        _ => return None,
    })
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::lang::{Approx64, Float64, Slots, compile_value};

    /// The symbolic derivative against a central difference in floating point, at points
    /// where every function is smooth.
    fn derivatives_agree_with_difference_quotients() {
        let names = ["x", "y"];
        for text in [
            "x^3*y - x/y",
            "exp(2*x)*cosh(x*y) + sinh(x)^2",
            "ln(1 + x^2)/sqrt(y + x)",
            "-(x - y)^(-2) + x^(1/2)",
        ] {
            let e = compile_value(text, &names).unwrap();
            let de = derivative(&e, 0).unwrap();
            let a = |v: f64| Approx64 { v, m: v.abs() };
            for (x, y) in [(0.5, 2.0), (1.25, 3.5)] {
                let at = |x: f64| {
                    let vals = [a(x), a(y)];
                    e.eval(&Float64, &Slots(&vals), None).unwrap().v
                };
                let h = 1e-6;
                let fd = (at(x + h) - at(x - h)) / (2.0 * h);
                let vals = [a(x), a(y)];
                let v = de.eval(&Float64, &Slots(&vals), None).unwrap().v;
                assert!(
                    (fd - v).abs() < 1e-6 * (1.0 + v.abs()),
                    "{text} at {x}: {fd} vs {v}"
                );
            }
        }
        // No derivative through a kink that reads the variable; 0 where it does not.
        assert!(derivative(&compile_value("abs(x)", &names).unwrap(), 0).is_none());
        let e = derivative(&compile_value("abs(y) + x", &names).unwrap(), 0).unwrap();
        assert!(matches!(e, Expr::Num(q, _) if q == Q::one()));
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[crate::unit::Test {
        name: "derivatives_agree_with_difference_quotients",
        run: derivatives_agree_with_difference_quotients,
        panics: None,
    }];
}
