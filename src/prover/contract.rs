//! Hypothesis contraction: before a box of the claim is evaluated, it is clipped by every
//! hypothesis that bounds one variable by a constant (`y <= 1/2`, `y > 0`, `1/4 <= y`, a chain
//! `0 < y <= 1/2`), so that the claim is evaluated only on the part of the box the claim is
//! about.
//!
//! A **bound hypothesis** is a comparison `v op c` or `c op v` (`op` one of `<=`, `<`, `>=`,
//! `>`), `v` a variable of the problem and `c` an expression without variables whose exact value
//! is rational, or a conjunction (`&&`, a chained comparison) of such comparisons. Its region is
//! a box whose faces are open at its strict bounds.
//!
//! **Clipping** a box `B` applies the bound hypotheses in the order of `given`, each to the box
//! left by the ones before: a bound `v ≤ c` (or `v < c`) lowers the upper end of `v` to `c` when
//! `c` is below it, `v ≥ c` (or `v > c`) raises the lower end. A bound that leaves no point of the
//! box (`lo > c` for `v ≤ c`, `lo ≥ c` for `v < c`, and the mirror images) makes its hypothesis
//! false on the whole box: the box is outside the hypotheses, as when an enclosure shows a
//! hypothesis false. Every point of `B` where the hypotheses hold lies in the clipped box, so a
//! claim proved on the clipped box is proved on the part of `B` it is about.
//!
//! **Strict bounds** clip to a closed box: `v < c` clips `[lo, hi]` to `[lo, c]`, which adds the
//! face `v = c` where the hypothesis is false. The claim is then proved on a superset of the
//! points it is about (sound; never weaker than proving it on the points themselves); a claim
//! that fails exactly on that face is not proved by contraction (as before it, the boxes there
//! stay undecided). Likewise two strict bounds meeting at one value (`y < 1/2`, `y > 1/2`) leave
//! the face `y = 1/2` of a clipped box rather than an empty box.
//!
//! The search records each clip in the certificate (the hypotheses that cut and the clipped
//! ends); the checker ([`super::checker`]) finds the bound hypotheses and clips the box again
//! itself, with its own code, and accepts the record only when it is the clip it derived.
//!
//! ```
//! use balloc::exact::{Q, int};
//! use balloc::lang::{Cmp, compile_str, compile_value};
//! use balloc::prover::contract::{self, Clip};
//! use balloc::prover::{Bx, Problem, SlotDef, Var};
//! // y ∈ [0, 1], given y ≤ 1/2: the box [1/4, 3/4] is clipped to [1/4, 1/2].
//! let p = Problem {
//!     vars: vec![Var { name: "y".into(), lo: int(0), hi: int(1), lo_open: false, hi_open: false }],
//!     slots: vec![SlotDef::Var(0)],
//!     lhs: compile_value("y^2", &["y"]).unwrap(),
//!     rhs: compile_value("y/2", &["y"]).unwrap(),
//!     cmp: Cmp::Le, tol: int(0),
//!     given: vec![compile_str("y <= 1/2", &["y"]).unwrap()],
//!     touching: vec![], text: "y^2 <= y/2".into(),
//! };
//! let q = |a: i64, b: i64| Q::new(a.into(), b.into());
//! let bounds = contract::bound_hypotheses(&p);
//! let b = Bx { lo: vec![q(1, 4)], hi: vec![q(3, 4)] };
//! let Clip::Cut { hyps, b: c } = contract::clip(&bounds, &b) else { panic!() };
//! assert_eq!((hyps, c.lo[0].clone(), c.hi[0].clone()), (vec![0], q(1, 4), q(1, 2)));
//! ```

use super::boxes::Bx;
use super::problem::{Problem, SlotDef};
use crate::exact::Q;
use crate::lang::{Cmp, Expr, Formula};

/// One bound of a hypothesis: `x_var ≤ at` (`upper`) or `x_var ≥ at`, strict (`<`, `>`) or not.
///
/// ```
/// use balloc::exact::{Q, int};
/// use balloc::prover::contract::Bound;
/// use balloc::prover::Bx;
/// // y < 1/2 on [0, 1/2]: holds on the closed box (the face y = 1/2 is in its closure) and is
/// // not false on it; on [1/2, 1] it is false everywhere (strict).
/// let h = Bound { var: 0, upper: true, strict: true, at: Q::new(1.into(), 2.into()) };
/// let b = Bx { lo: vec![int(0)], hi: vec![Q::new(1.into(), 2.into())] };
/// assert!(h.holds_on(&b) && !h.false_on(&b));
/// let c = Bx { lo: vec![Q::new(1.into(), 2.into())], hi: vec![int(1)] };
/// assert!(h.false_on(&c));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    /// The variable bounded.
    pub var: usize,
    /// `x_var ≤ at` (else `x_var ≥ at`).
    pub upper: bool,
    /// Whether the bound is strict.
    pub strict: bool,
    /// The bound, exact.
    pub at: Q,
}

impl Bound {
    /// Whether every point of the closed box satisfies the bound or lies on its face (the box
    /// lies in the closure of the bound's region).
    pub fn holds_on(&self, b: &Bx) -> bool {
        if self.upper {
            b.hi[self.var] <= self.at
        } else {
            b.lo[self.var] >= self.at
        }
    }

    /// Whether the point `c` satisfies the bound (exactly).
    pub fn holds_at(&self, c: &[Q]) -> bool {
        let v = &c[self.var];
        match (self.upper, self.strict) {
            (true, false) => *v <= self.at,
            (true, true) => *v < self.at,
            (false, false) => *v >= self.at,
            (false, true) => *v > self.at,
        }
    }

    /// Whether no point of the box satisfies the bound.
    pub fn false_on(&self, b: &Bx) -> bool {
        let (lo, hi) = (&b.lo[self.var], &b.hi[self.var]);
        match (self.upper, self.strict) {
            (true, false) => *lo > self.at,
            (true, true) => *lo >= self.at,
            (false, false) => *hi < self.at,
            (false, true) => *hi <= self.at,
        }
    }
}

/// The bounds of the hypothesis `f` of `p` when it is a bound hypothesis (see the module
/// documentation), else `None`.
///
/// ```
/// use balloc::exact::{Q, int};
/// use balloc::lang::{Cmp, compile_str, compile_value};
/// use balloc::prover::contract::bounds_of;
/// use balloc::prover::{Problem, SlotDef, Var};
/// let v = |n: &str| Var { name: n.into(), lo: int(0), hi: int(1), lo_open: false, hi_open: false };
/// let p = Problem {
///     vars: vec![v("x"), v("y")],
///     slots: vec![SlotDef::Var(0), SlotDef::Var(1)],
///     lhs: compile_value("x", &["x", "y"]).unwrap(),
///     rhs: compile_value("y", &["x", "y"]).unwrap(),
///     cmp: Cmp::Le, tol: int(0), given: vec![], touching: vec![], text: "x <= y".into(),
/// };
/// let f = |s: &str| compile_str(s, &["x", "y"]).unwrap();
/// // The chain 1/3 < y <= 2*3/8: a strict lower bound 1/3 and an upper bound 3/4 on y.
/// let b = bounds_of(&p, &f("1/3 < y <= 2*3/8")).unwrap();
/// assert_eq!(b.len(), 2);
/// assert_eq!((b[0].var, b[0].upper, b[0].strict, b[0].at.clone()), (1, false, true, Q::new(1.into(), 3.into())));
/// assert_eq!((b[1].upper, b[1].strict, b[1].at.clone()), (true, false, Q::new(3.into(), 4.into())));
/// // Not bounds of one variable by a constant.
/// assert!(bounds_of(&p, &f("x + y <= 1")).is_none());
/// assert!(bounds_of(&p, &f("x <= y")).is_none());
/// assert!(bounds_of(&p, &f("x <= 1 || y <= 1")).is_none());
/// ```
pub fn bounds_of(p: &Problem, f: &Formula) -> Option<Vec<Bound>> {
    match f {
        Formula::And(a, b) => {
            let mut out = bounds_of(p, a)?;
            out.extend(bounds_of(p, b)?);
            Some(out)
        }
        Formula::Cmp(l, op, r) => {
            let strict = matches!(op, Cmp::Lt | Cmp::Gt);
            let less = match op {
                Cmp::Le | Cmp::Lt => true,
                Cmp::Ge | Cmp::Gt => false,
                Cmp::Eq | Cmp::Ne => return None,
            };
            let (var, at, upper) = match (variable(p, l), variable(p, r)) {
                (Some(i), None) => (i, r.as_constant()?, less),
                (None, Some(i)) => (i, l.as_constant()?, !less),
                _ => return None,
            };
            Some(vec![Bound {
                var,
                upper,
                strict,
                at,
            }])
        }
        Formula::Or(..) | Formula::Not(..) => None,
    }
}

/// The variable `e` is, when it is one.
fn variable(p: &Problem, e: &Expr) -> Option<usize> {
    match e {
        Expr::Slot(s) => match p.slots.get(*s)? {
            SlotDef::Var(i) => Some(*i),
            _ => None,
        },
        _ => None,
    }
}

/// The bounds of every hypothesis of `p` ([`bounds_of`]; `None` for a hypothesis that is not a
/// bound hypothesis).
///
/// ```
/// use balloc::exact::int;
/// use balloc::lang::{Cmp, compile_str, compile_value};
/// use balloc::prover::contract::bound_hypotheses;
/// use balloc::prover::{Problem, SlotDef, Var};
/// let f = |s: &str| compile_str(s, &["y"]).unwrap();
/// let p = Problem {
///     vars: vec![Var { name: "y".into(), lo: int(0), hi: int(1), lo_open: false, hi_open: false }],
///     slots: vec![SlotDef::Var(0)],
///     lhs: compile_value("y", &["y"]).unwrap(), rhs: compile_value("1", &["y"]).unwrap(),
///     cmp: Cmp::Le, tol: int(0),
///     given: vec![f("y*y <= 1/4"), f("y >= 1/8")], touching: vec![], text: "y <= 1".into(),
/// };
/// let b = bound_hypotheses(&p);
/// assert_eq!((b[0].is_none(), b[1].as_ref().map(|v| v.len())), (true, Some(1)));
/// ```
pub fn bound_hypotheses(p: &Problem) -> Vec<Option<Vec<Bound>>> {
    p.given.iter().map(|f| bounds_of(p, f)).collect()
}

/// Whether every hypothesis of `p` holds at the point `c`: a bound hypothesis (`bounds[j]`, from
/// [`bound_hypotheses`]) decided exactly in rationals, any other by its enclosure at `prec` bits
/// (which must be certainly true). A point on a bound that is not a dyadic number (`y ≤ 1/3` at
/// `y = 1/3`) is inside the hypothesis although no enclosure of it says so.
///
/// ```
/// use balloc::exact::{Q, int};
/// use balloc::lang::{Cmp, compile_str, compile_value};
/// use balloc::prover::contract::{bound_hypotheses, hypotheses_hold_at};
/// use balloc::prover::{Problem, SlotDef, Var};
/// let q = |a: i64, b: i64| Q::new(a.into(), b.into());
/// let p = Problem {
///     vars: vec![Var { name: "y".into(), lo: int(0), hi: int(1), lo_open: false, hi_open: false }],
///     slots: vec![SlotDef::Var(0)],
///     lhs: compile_value("y^2", &["y"]).unwrap(), rhs: compile_value("1/9", &["y"]).unwrap(),
///     cmp: Cmp::Lt, tol: int(0),
///     given: vec![compile_str("y <= 1/3", &["y"]).unwrap()], touching: vec![],
///     text: "y^2 < 1/9".into(),
/// };
/// let b = bound_hypotheses(&p);
/// assert!(hypotheses_hold_at(&p, &b, &[q(1, 3)], 64));
/// assert!(!hypotheses_hold_at(&p, &b, &[q(1, 2)], 64));
/// // By enclosures alone the point 1/3 is undecided.
/// assert!(!hypotheses_hold_at(&p, &[None], &[q(1, 3)], 64));
/// ```
pub fn hypotheses_hold_at(p: &Problem, bounds: &[Option<Vec<Bound>>], c: &[Q], prec: u64) -> bool {
    let mut by_enclosure: Option<Vec<crate::lang::Eval<bool>>> = None;
    (0..p.given.len()).all(|j| match bounds.get(j) {
        Some(Some(bs)) => bs.iter().all(|b| b.holds_at(c)),
        _ => {
            let hs = by_enclosure
                .get_or_insert_with(|| p.hypotheses(&super::boxes::point_intervals(c, prec), prec));
            matches!(hs[j], Ok(true))
        }
    })
}

/// The result of clipping a box by the bound hypotheses ([`clip`]).
///
/// ```
/// use balloc::prover::contract::Clip;
/// // The hypotheses 0 and 2 cut the box; hypothesis 3 then leaves no point of it.
/// let c = Clip::Empty { hyps: vec![0, 2], b: balloc::prover::Bx { lo: vec![], hi: vec![] }, hyp: 3 };
/// assert!(matches!(c, Clip::Empty { hyp: 3, .. }));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Clip {
    /// No bound hypothesis changes the box.
    Same,
    /// The hypotheses `hyps` (in order) cut the box to `b`.
    Cut {
        /// The hypotheses that changed an end, in the order applied.
        hyps: Vec<usize>,
        /// The clipped box.
        b: Bx,
    },
    /// Hypothesis `hyp` is false on the whole box `b`, the box clipped by `hyps` before it.
    Empty {
        /// The hypotheses that cut the box before `hyp` (possibly none).
        hyps: Vec<usize>,
        /// The box they left.
        b: Bx,
        /// The hypothesis false on all of `b`.
        hyp: usize,
    },
}

/// Clips the box `b` by the bound hypotheses `bounds` (from [`bound_hypotheses`]), in order
/// (see the module documentation).
///
/// ```
/// use balloc::exact::{Q, int};
/// use balloc::prover::contract::{Bound, Clip, clip};
/// use balloc::prover::Bx;
/// let q = |a: i64, b: i64| Q::new(a.into(), b.into());
/// let le = |at: Q, strict: bool| Bound { var: 0, upper: true, strict, at };
/// let ge = |at: Q, strict: bool| Bound { var: 0, upper: false, strict, at };
/// let b = Bx { lo: vec![int(0)], hi: vec![int(1)] };
/// // y ≥ 1/3 (hypothesis 0) and y < 1/2 (hypothesis 1): [0, 1] → [1/3, 1/2], closed at 1/2.
/// let hs = vec![Some(vec![ge(q(1, 3), false)]), Some(vec![le(q(1, 2), true)])];
/// let Clip::Cut { hyps, b: c } = clip(&hs, &b) else { panic!() };
/// assert_eq!((hyps, c.lo[0].clone(), c.hi[0].clone()), (vec![0, 1], q(1, 3), q(1, 2)));
/// // y < 0 leaves nothing of [0, 1] (strict at the lower end 0).
/// assert_eq!(clip(&[Some(vec![le(int(0), true)])], &b), Clip::Empty { hyps: vec![], b: b.clone(), hyp: 0 });
/// // y ≤ 0 leaves the point y = 0.
/// let Clip::Cut { b: c, .. } = clip(&[Some(vec![le(int(0), false)])], &b) else { panic!() };
/// assert!(c.is_point());
/// // y ≤ 2 does not cut [0, 1].
/// assert_eq!(clip(&[Some(vec![le(int(2), false)])], &b), Clip::Same);
/// ```
pub fn clip(bounds: &[Option<Vec<Bound>>], b: &Bx) -> Clip {
    if bounds.iter().all(Option::is_none) {
        return Clip::Same;
    }
    let mut cur = b.clone();
    let mut hyps = Vec::new();
    for (j, bs) in bounds.iter().enumerate() {
        let Some(bs) = bs else { continue };
        match clip_one(bs, &cur) {
            None => {
                return Clip::Empty {
                    hyps,
                    b: cur,
                    hyp: j,
                };
            }
            Some(c) if c != cur => {
                cur = c;
                hyps.push(j);
            }
            Some(_) => {}
        }
    }
    if hyps.is_empty() {
        Clip::Same
    } else {
        Clip::Cut { hyps, b: cur }
    }
}

/// The box `b` clipped by the bounds `bs` of one hypothesis, applied in order (`None`: the
/// hypothesis is false on all of `b`).
///
/// ```
/// use balloc::exact::{Q, int};
/// use balloc::prover::contract::{Bound, clip_one};
/// use balloc::prover::Bx;
/// let q = |a: i64, b: i64| Q::new(a.into(), b.into());
/// let b = Bx { lo: vec![int(0)], hi: vec![int(1)] };
/// // 1/4 <= y <= 3/4: [0, 1] → [1/4, 3/4].
/// let chain = [
///     Bound { var: 0, upper: false, strict: false, at: q(1, 4) },
///     Bound { var: 0, upper: true, strict: false, at: q(3, 4) },
/// ];
/// let c = clip_one(&chain, &b).unwrap();
/// assert_eq!((c.lo[0].clone(), c.hi[0].clone()), (q(1, 4), q(3, 4)));
/// // 3/4 < y < 3/4 (a chain with no point): false on all of [0, 1].
/// let none = [
///     Bound { var: 0, upper: false, strict: true, at: q(3, 4) },
///     Bound { var: 0, upper: true, strict: true, at: q(3, 4) },
/// ];
/// assert!(clip_one(&none, &b).is_none());
/// ```
pub fn clip_one(bs: &[Bound], b: &Bx) -> Option<Bx> {
    let mut c = b.clone();
    for h in bs {
        if h.false_on(&c) {
            return None;
        }
        if h.holds_on(&c) {
            continue;
        }
        if h.upper {
            c.hi[h.var] = h.at.clone();
        } else {
            c.lo[h.var] = h.at.clone();
        }
    }
    Some(c)
}

/// The ends of `clipped` that differ from those of `b`: `(coordinate, lo, hi)` for each
/// coordinate clipped.
///
/// ```
/// use balloc::exact::{Q, int};
/// use balloc::prover::contract::changed_ends;
/// use balloc::prover::Bx;
/// let b = Bx { lo: vec![int(0), int(0)], hi: vec![int(1), int(1)] };
/// let c = Bx { lo: vec![int(0), int(0)], hi: vec![int(1), Q::new(1.into(), 2.into())] };
/// assert_eq!(changed_ends(&b, &c), vec![(1, int(0), Q::new(1.into(), 2.into()))]);
/// ```
pub fn changed_ends(b: &Bx, clipped: &Bx) -> Vec<(usize, Q, Q)> {
    (0..b.dim())
        .filter(|&i| b.lo[i] != clipped.lo[i] || b.hi[i] != clipped.hi[i])
        .map(|i| (i, clipped.lo[i].clone(), clipped.hi[i].clone()))
        .collect()
}
