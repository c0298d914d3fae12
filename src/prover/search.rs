//! The branch and bound: every box is decided (a [`Node`] leaf), bisected, or reduced by a
//! monotone step, breadth first, boxes of one generation in parallel; the tree of decisions is
//! the certificate.
//!
//! A **goal** is `s·∂_β g ≥ 0` on a box `B` (`β` a list of derivative directions, `s = ±1`; the
//! claim itself is `β = ()`, `s = +1`), strict (`> 0`) where the claim is strict, except on the
//! goal's exempt hyperplanes and the open ends of the domain. A stated touching point exempts
//! nothing: it is a split point, and the first point tried as a counterexample (a strict claim
//! whose two sides are equal there is refuted there). At a box the prover tries, in order:
//!
//! 0. **contraction** ([`super::contract`], when [`Options::contract`] is set): a box of the
//!    claim's own goal is clipped by the hypotheses that bound one variable by a constant
//!    (`y <= 1/2`, `0 < y`), and everything below is done on the clipped box; a clip that leaves
//!    nothing is a box outside the claim. A bound hypothesis is then decided on the box exactly,
//!    in rationals (it holds on the closed clipped box), so a bound such as `y <= 1/3` that no
//!    enclosure decides does not keep the box from the monotone steps;
//! 1. the hypotheses: if one is false on all of `B` the box is outside the claim;
//! 2. **direct**: the interval enclosure of `f = s·∂_β g` on `B`;
//! 3. **mean value**: `f(x) ∈ f(c) + Σᵢ ∂ᵢf(B)·(xᵢ − cᵢ)`, with `cᵢ` the lower end where
//!    `∂ᵢf(B) ≥ 0`, the upper end where `∂ᵢf(B) ≤ 0` (so that term is `≥ 0`), the midpoint
//!    otherwise; the derivatives, of any order, come from Taylor arithmetic in the interval
//!    domain ([`crate::lang::Jet`]);
//! 4. **Taylor model** ([`super::taylor`]) of order 2 up to [`model_order`] about a touching
//!    point, an end of a one-dimensional box, or the center: contact of order `k` at a point
//!    is decided on a box around it once the order exceeds `k`;
//! 5. **monotone**: when `∂ᵢf(B) ≥ 0` (or `≤ 0`), `f(x) ≥ f` on the face `xᵢ = loᵢ` (`hiᵢ`),
//!    and the goal moves to the face (one dimension less);
//! 6. **monotone by a derivative goal**: toward a face on an end of the domain, a hyperplane of an
//!    earlier monotone step or a touching point, where the goal is tight — always toward a face
//!    where it vanishes identically (no split separates a box from such a face), otherwise when
//!    the derivative is nearly decided on the box — the sign of `∂ᵢf` becomes a goal of its own
//!    (`β + i`; the Taylor argument in first-order steps: `f ≥ 0` because `f(face) ≥ 0` and
//!    `∂ᵢf ≥ 0`, which holds because `∂ᵢf(face) ≥ 0` and `∂ᵢ∂ᵢf ≥ 0`, …), up to [`MAX_PATH`]
//!    directions;
//! 7. otherwise the box is **split** at a short dyadic point near the middle of the coordinate
//!    that most changes `f` (largest `|∂ᵢf(B)|·widthᵢ`; at a touching point inside the box first).
//!
//! A monotone step is a commitment: its two goals (the derivative on `B`, the goal on the face)
//! enter the search like any box. It is **given up**, and `B` split for the original goal
//! instead, when a goal it made is violated at a point (certainly `< 0` at a box's center, or
//! exactly 0 there by exact arithmetic without being decided: a goal that vanishes where no
//! enclosure can show it), when a box under it cannot be decided, or when its boxes spend more
//! than [`Options::commit_budget`]. A step given up because of a point is not taken again on the
//! boxes that contain that point.
//!
//! A strict goal reduced to a face where strictness is not required (an open end) needs a strict
//! derivative; the rules are checked again, independently, by [`super::checker`].
//!
//! Each box is evaluated first in `f64` enclosures ([`crate::lang::Enclosure64`]) and again in
//! malachite's at [`Options::prec`] bits only when the fast evaluation did not decide it and
//! precision may be why: a value beyond the range of `f64`, a box that is a point, or a box
//! narrower than [`DEEP`] of the domain in some coordinate.
//!
//! At every box of the claim that is not decided, the claim is evaluated at the box's center: a
//! center in the domain where the hypotheses hold and the enclosure of `g` is `< 0` (`≤ 0` for
//! a strict claim) is a certified counterexample.
//!
//! Determinism: boxes are processed in a fixed order (breadth first, the lower half first) and
//! their results are combined in that order, so the verdict, the tree and the counts do not
//! depend on the number of threads. Budgets: a number of box evaluations (deterministic) and a
//! time limit (a safety net; when it stops the search first, where it stops depends on the
//! machine, and the report says so).

use super::boxes::{Bx, Side, split_point};
use super::certificate::Node;
use super::contract::{self, Bound, Clip};
use super::problem::{Arith, MAX_ORDER, Problem, multi_index};
use super::taylor::{self, Coefficients, MAX_MODEL_ORDER};
use crate::enclosure::Interval;
use crate::exact::Q;
use malachite::Float;
use num_traits::Zero;
use rayon::prelude::*;
use std::collections::VecDeque;
use std::time::Instant;

/// The limits of one proof.
#[derive(Debug, Clone)]
pub struct Options {
    /// Box evaluations in all (top-level and local searches).
    pub max_boxes: u64,
    /// Wall-clock seconds.
    pub max_seconds: f64,
    /// Working precision of the arbitrary-precision enclosures (bits).
    pub prec: u64,
    /// Whether boxes are evaluated in `f64` enclosures first ([`crate::lang::Enclosure64`]),
    /// with the arbitrary-precision ones only where those cannot decide (otherwise in the
    /// arbitrary-precision ones only; the benchmarks compare the two).
    pub fast: bool,
    /// Box evaluations the subtree of one monotone step may spend before the step is given up
    /// (and its box split instead).
    pub commit_budget: u64,
    /// Bisections along one path of the tree.
    pub max_depth: u32,
    /// Whether boxes are clipped by the hypotheses that bound one variable by a constant before
    /// they are evaluated ([`super::contract`]; on by default, off to compare).
    ///
    /// ```
    /// use balloc::exact::int;
    /// use balloc::lang::{Cmp, compile_str, compile_value};
    /// use balloc::prover::{Options, Outcome, Problem, SlotDef, Var, prove};
    /// // y² ≤ y/2 on [0, 1] under y ≤ 1/2: tight at the hypothesis' bound, false beyond it.
    /// let p = Problem {
    ///     vars: vec![Var { name: "y".into(), lo: int(0), hi: int(1), lo_open: false, hi_open: false }],
    ///     slots: vec![SlotDef::Var(0)],
    ///     lhs: compile_value("y^2", &["y"]).unwrap(),
    ///     rhs: compile_value("y/2", &["y"]).unwrap(),
    ///     cmp: Cmp::Le, tol: int(0),
    ///     given: vec![compile_str("y <= 1/2", &["y"]).unwrap()],
    ///     touching: vec![], text: "y^2 <= y/2".into(),
    /// };
    /// // The root clipped to [0, 1/2] and split at 1/4: g = y/2 − y² has g′ = 1/2 − 2y ≥ 0 on
    /// // [0, 1/4] with g(0) = 0, and g′ ≤ 0 on [1/4, 1/2] with g(1/2) = 0: two mean-value leaves.
    /// let Outcome::Proved { tree, .. } = prove(&p, &Options::default()) else { panic!() };
    /// let t = tree.tally();
    /// assert_eq!((t.clipped, t.splits, t.mean_value), (1, 1, 2));
    /// // Without contraction the boxes straddling 1/2 are never decided.
    /// let off = Options { contract: false, max_boxes: 500, ..Options::default() };
    /// assert!(matches!(prove(&p, &off), Outcome::Inconclusive { .. }));
    /// ```
    pub contract: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_boxes: 200_000,
            max_seconds: 60.0,
            prec: 64,
            fast: true,
            commit_budget: 4096,
            max_depth: 400,
            contract: true,
        }
    }
}

/// Counts of a search.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Stats {
    /// Box evaluations in all.
    pub boxes: u64,
    /// Boxes of the top-level tree.
    pub top_boxes: u64,
    /// Generations (levels) of the breadth-first search.
    pub generations: u32,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Box evaluations repeated in the arbitrary-precision arithmetic after the fast one
    /// (`f64` intervals) could not decide them.
    pub escalated: u64,
}

/// The result of a proof search.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// Every box decided: the proof tree.
    Proved {
        /// The tree (the certificate's content), a proof of the claim after `rewrites`.
        tree: Node,
        /// The rewrites of the claim before the tree ([`super::rewrite`]).
        rewrites: Vec<super::rewrite::Rewrite>,
        /// Counts.
        stats: Stats,
    },
    /// A point of the domain where the claim is certainly false.
    Refuted {
        /// The point.
        point: Vec<Q>,
        /// Enclosures of the left side, the right side and `g` there.
        lhs: Interval,
        /// See `lhs`.
        rhs: Interval,
        /// See `lhs`.
        g: Interval,
        /// How the point was found.
        found_by: &'static str,
        /// Counts.
        stats: Stats,
    },
    /// A budget ran out (or boxes could not be decided at the working precision).
    Inconclusive {
        /// Why.
        reason: String,
        /// The boxes not decided (at most `REPORTED_BOXES` are kept).
        remaining: Vec<Bx>,
        /// How many boxes were not decided.
        remaining_count: usize,
        /// Their volume as a fraction of the domain's.
        volume_fraction: f64,
        /// The undecided box with the smallest `g` at its center, and that value.
        tightest: Option<(Bx, f64)>,
        /// Counts.
        stats: Stats,
    },
}

/// Sampled points per variable in the floating-point search for counterexamples.
pub const SAMPLES: usize = 2048;

/// How many undecided boxes an inconclusive outcome keeps.
pub const REPORTED_BOXES: usize = 1000;

/// The most derivative directions a goal may carry (nested monotone steps).
pub const MAX_PATH: usize = 5;

/// The highest order of a Taylor model on a box with `free` non-degenerate coordinates (the
/// number of coefficients grows as `C(free + K, K)`).
pub fn model_order(free: usize) -> usize {
    match free {
        0 => 0,
        1 => 8,
        2 => 5,
        3 => 4,
        4 => 3,
        _ => 2,
    }
}

/// A box narrower than this fraction of the domain in some free coordinate is escalated to the
/// arbitrary-precision arithmetic when the fast one cannot decide it (rounding errors of `f64`
/// are then comparable to the margins the bounds leave).
pub const DEEP: f64 = 1.0 / 1_048_576.0;

/// Whether the goal may be 0 (rather than `> 0`) at the point `c`: `c` lies on an open end of
/// the domain or on one of the goal's exempt hyperplanes.
pub fn exempt_at(p: &Problem, goal: &Goal, c: &[Q]) -> bool {
    (0..c.len())
        .any(|j| p.open_end(j, &c[j]) || goal.exempt.iter().any(|(i, a)| *i == j && *a == c[j]))
}

/// The goal `s·∂_path g ≥ 0` (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct Goal {
    /// Derivative indices (empty: the claim).
    pub path: Vec<usize>,
    /// `s = +1` (else `−1`).
    pub positive: bool,
    /// Whether `> 0` is required (away from the exemptions).
    pub strict: bool,
    /// Hyperplanes `x_i = a` on which strictness is not required.
    pub exempt: Vec<(usize, Q)>,
    /// Whether the hypotheses restrict the goal (otherwise it must hold on the whole box).
    pub hyps: bool,
}

impl Goal {
    /// The claim itself.
    pub fn claim(p: &Problem) -> Goal {
        Goal {
            path: Vec::new(),
            positive: true,
            strict: p.strict(),
            exempt: Vec::new(),
            hyps: !p.given.is_empty(),
        }
    }

    /// The derivative goal of a monotone step in `x_i` toward `side` of `b`, and the goal on the
    /// face. `strict_here` is whether the goal needs strictness on `b`.
    pub fn monotone_subgoals(
        &self,
        p: &Problem,
        b: &Bx,
        i: usize,
        side: Side,
        strict_here: bool,
    ) -> (Goal, Goal) {
        let face = b.face(i, side);
        let at = b.end(i, side).clone();
        // Strictness on the face is required unless exempt there; where it is not, the goal
        // must increase strictly away from the face.
        let deriv_strict = strict_here && !need_strict(p, self, &face);
        let mut exempt = self.exempt.clone();
        exempt.push((i, at));
        // Appended: the derivative is read from the innermost gradient of the goal's own
        // evaluation (`goal_value`), and the checker evaluates the same nesting.
        let mut path = self.path.clone();
        path.push(i);
        let derivative = Goal {
            path,
            positive: if side == Side::Lo {
                self.positive
            } else {
                !self.positive
            },
            strict: deriv_strict,
            exempt,
            hyps: false,
        };
        let on_face = Goal {
            hyps: false,
            ..self.clone()
        };
        (derivative, on_face)
    }
}

/// Whether the goal must be strictly positive on `b`: the goal is strict and `b` lies neither on
/// an exempt hyperplane nor on an open end of the domain. (A touching point is in the domain, so
/// a strict claim must be strict there too.)
pub fn need_strict(p: &Problem, goal: &Goal, b: &Bx) -> bool {
    if !goal.strict {
        return false;
    }
    for i in 0..b.dim() {
        if b.degenerate(i) {
            let v = &b.lo[i];
            if p.open_end(i, v) || goal.exempt.iter().any(|(j, a)| *j == i && a == v) {
                return false;
            }
        }
    }
    true
}

/// Whether a lower bound meets the goal: `≥ 0`, or `> 0` when strict.
pub fn meets(lb: &Float, strict: bool) -> bool {
    if strict { *lb > 0u32 } else { *lb >= 0u32 }
}

/// The lower end of `f(c) + Σᵢ gᵢ·(Bᵢ − cᵢ)` (the mean-value form), rounded outward.
pub fn mean_value_bound(fc: &Interval, grad: &[Interval], b: &Bx, c: &[Q], prec: u64) -> Float {
    let mut acc = fc.clone();
    for (i, gi) in grad.iter().enumerate() {
        if b.degenerate(i) {
            continue;
        }
        let lo = Interval::from_rational(&(&b.lo[i] - &c[i]), prec);
        let hi = Interval::from_rational(&(&b.hi[i] - &c[i]), prec);
        let d = lo.hull(&hi);
        acc = acc.add(&gi.mul(&d, prec), prec);
    }
    acc.lo().clone()
}

enum Step {
    Leaf(Node),
    Split(usize, Q),
    /// A monotone step toward the face `side` of coordinate `var`: the goal on the face, and the
    /// goal on the derivative (`None`: its sign is read from the gradient, a direct leaf).
    Commit {
        var: usize,
        side: Side,
        derivative: Option<Goal>,
        face: Goal,
    },
    Fail(String),
}

struct TopResult {
    /// The hypotheses that cut the box and the box they left, when contraction clipped it (the
    /// step is then one on the clipped box).
    clip: Option<(Vec<usize>, Bx)>,
    step: Step,
    counterexample: Option<(Vec<Q>, Interval, Interval, Interval)>,
    /// The goal is certainly violated at the box's center (a derivative goal that is false, or
    /// the claim on a face outside the domain).
    violated: bool,
}

struct Prover<'a> {
    p: &'a Problem,
    o: &'a Options,
    escalated: std::sync::atomic::AtomicU64,
    /// The bounds of each hypothesis that is a bound hypothesis ([`contract`]; none when
    /// contraction is off).
    bounds: Vec<Option<Vec<Bound>>>,
}

fn mag(i: &Interval) -> f64 {
    i.lo_f64().abs().max(i.hi_f64().abs())
}

/// Whether the fast arithmetic's failure on a box is worth repeating at a higher precision.
#[derive(Default)]
struct Escalate(bool);

impl<'a> Prover<'a> {
    /// The prover of `p` within the limits `o`.
    fn new(p: &'a Problem, o: &'a Options) -> Self {
        Prover {
            p,
            o,
            escalated: std::sync::atomic::AtomicU64::new(0),
            bounds: if o.contract {
                contract::bound_hypotheses(p)
            } else {
                Vec::new()
            },
        }
    }

    /// One step on a box: in the fast arithmetic first, repeated in the arbitrary-precision one
    /// when the fast one did not decide the box and precision may be why (a value beyond the
    /// range of `f64`, a point, or a box squeezed below [`DEEP`]).
    fn step(&self, goal: &Goal, b: &Bx, banned: &[(usize, Side, Vec<Q>)]) -> Step {
        if !self.o.fast {
            return self.step_in(
                Arith::Bits(self.o.prec),
                goal,
                b,
                banned,
                &mut Escalate::default(),
            );
        }
        let mut flag = Escalate::default();
        let s = self.step_in(Arith::Fast, goal, b, banned, &mut flag);
        if matches!(s, Step::Leaf(_)) || !flag.0 {
            return s;
        }
        self.escalated
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.step_in(
            Arith::Bits(self.o.prec),
            goal,
            b,
            banned,
            &mut Escalate::default(),
        )
    }

    /// The arithmetic of quick checks: `f64` enclosures on the fast path.
    fn quick(&self) -> Arith {
        if self.o.fast {
            Arith::Fast
        } else {
            Arith::Bits(self.o.prec)
        }
    }

    fn deep(&self, b: &Bx) -> bool {
        let root = self.p.root();
        (0..b.dim()).any(|i| {
            !b.degenerate(i) && {
                let r = crate::exact::to_f64(&root.width(i));
                r > 0.0 && crate::exact::to_f64(&b.width(i)) / r < DEEP
            }
        })
    }

    fn step_in(
        &self,
        arith: Arith,
        goal: &Goal,
        b: &Bx,
        banned: &[(usize, Side, Vec<Q>)],
        flag: &mut Escalate,
    ) -> Step {
        if arith == Arith::Fast && (b.is_point() || self.deep(b)) {
            flag.0 = true;
        }
        let mut full = true;
        if goal.hyps {
            for (j, h) in self.p.hypotheses_on(arith, b).into_iter().enumerate() {
                // A bound hypothesis, decided exactly: the box was clipped by it.
                if let Some(Some(bs)) = self.bounds.get(j) {
                    if contract::clip_one(bs, b).is_none() {
                        return Step::Leaf(Node::Outside { hyp: j });
                    }
                    if bs.iter().all(|h| h.holds_on(b)) {
                        continue;
                    }
                }
                match h {
                    Ok(false) => return Step::Leaf(Node::Outside { hyp: j }),
                    Ok(true) => {}
                    Err(crate::lang::EvalError::Beyond64) => {
                        flag.0 = true;
                        full = false;
                    }
                    Err(_) => full = false,
                }
            }
        }
        let strict = need_strict(self.p, goal, b);
        let want_grad = goal.path.len() < MAX_ORDER && !b.is_point();
        let evaluated = match self
            .p
            .goal_on(arith, &goal.path, goal.positive, b, want_grad)
        {
            Ok(r) => Ok(r),
            Err(_) if want_grad => self.p.goal_on(arith, &goal.path, goal.positive, b, false),
            Err(e) => Err(e),
        };
        let (f, grad) = match evaluated {
            Ok(r) => r,
            Err(e) => {
                if e == crate::lang::EvalError::Beyond64 {
                    flag.0 = true;
                }
                return match self.choose(b, None) {
                    Some((i, at)) => Step::Split(i, at),
                    None => Step::Fail(format!("cannot evaluate at a point: {e}")),
                };
            }
        };
        if meets(f.lo(), strict) {
            return Step::Leaf(Node::Direct);
        }
        if b.is_point() {
            // A point where the claim may be exactly tight: decide it exactly.
            return match self.p.exact_sign(&goal.path, goal.positive, &b.lo) {
                Some(std::cmp::Ordering::Greater) => Step::Leaf(Node::Exact),
                Some(std::cmp::Ordering::Equal) if !strict => Step::Leaf(Node::Exact),
                _ => Step::Fail(format!(
                    "the enclosure {f} at a point does not decide the goal"
                )),
            };
        }
        if let Some(gr) = &grad
            && let Some(n) = self.mean_value(arith, goal, b, gr, strict)
        {
            return Step::Leaf(n);
        }
        if let Some(n) = self.taylor(arith, goal, b, strict) {
            return Step::Leaf(n);
        }
        if let Some(gr) = &grad
            && full
        {
            let allowed = |i: usize, side: Side| !banned.iter().any(|e| e.0 == i && e.1 == side);
            if let Some(c) = self.monotone_direct(goal, b, gr, strict, &allowed) {
                return c;
            }
            if goal.path.len() < MAX_PATH
                && let Some(c) = self.monotone_goal(arith, goal, b, &f, gr, strict, &allowed)
            {
                return c;
            }
        }
        match self.choose(b, grad.as_deref()) {
            Some((i, at)) => Step::Split(i, at),
            None => Step::Fail("no coordinate left to split".into()),
        }
    }

    fn mean_value(
        &self,
        arith: Arith,
        goal: &Goal,
        b: &Bx,
        gr: &[Interval],
        strict: bool,
    ) -> Option<Node> {
        let prec = self.o.prec;
        let c: Vec<Q> = (0..b.dim())
            .map(|i| {
                if b.degenerate(i) || *gr[i].lo() >= 0u32 {
                    b.lo[i].clone()
                } else if *gr[i].hi() <= 0u32 {
                    b.hi[i].clone()
                } else {
                    (&b.lo[i] + &b.hi[i]) / Q::from_integer(2.into())
                }
            })
            .collect();
        let fc = self
            .p
            .point_value_in(arith, &goal.path, goal.positive, &c)
            .ok()?;
        let lb = mean_value_bound(&fc, gr, b, &c, prec);
        meets(&lb, strict).then_some(Node::MeanValue { at: c })
    }

    /// A Taylor model of the goal on the box ([`taylor`]) of order 2 up to [`model_order`],
    /// about the stated touching points in the box, the two ends of a box with one free
    /// coordinate (where a contact of high order is decided), and the center.
    fn taylor(&self, arith: Arith, goal: &Goal, b: &Bx, strict: bool) -> Option<Node> {
        let fr = taylor::free(b);
        let beta = multi_index(b.dim(), &goal.path)?;
        let kmax = model_order(fr.len())
            .min(MAX_ORDER.saturating_sub(goal.path.len()))
            .min(MAX_MODEL_ORDER);
        if kmax < 2 {
            return None;
        }
        let boxed = taylor::box_coefficients(self.p, arith, &beta, goal.positive, b, kmax).ok()?;
        let mut cands: Vec<Vec<Q>> = self
            .p
            .touching
            .iter()
            .filter(|t| b.contains(t))
            .cloned()
            .collect();
        if fr.len() == 1 {
            cands.push(b.lo.clone());
            cands.push(b.hi.clone());
        }
        cands.push(b.center());
        for c in cands {
            let Ok(co) = Coefficients::at(
                self.p,
                arith,
                &beta,
                goal.positive,
                b,
                &c,
                kmax,
                boxed.clone(),
            ) else {
                continue;
            };
            let exempt = exempt_at(self.p, goal, &c);
            for k in 2..=kmax {
                let m = co.model(&c, k);
                if taylor::decides(&m, b, strict, exempt) {
                    return Some(Node::Taylor(m));
                }
            }
        }
        None
    }

    /// A monotone step on a coordinate where the goal's derivative has a sign on the whole box
    /// (read from the gradient): toward the face where the goal is smallest (the most
    /// influential coordinate first).
    fn monotone_direct(
        &self,
        goal: &Goal,
        b: &Bx,
        gr: &[Interval],
        strict: bool,
        allowed: &dyn Fn(usize, Side) -> bool,
    ) -> Option<Step> {
        let mut cands: Vec<(f64, usize, Side)> = Vec::new();
        for (i, gi) in gr.iter().enumerate() {
            if b.degenerate(i) {
                continue;
            }
            let side = if *gi.lo() >= 0u32 {
                Side::Lo
            } else if *gi.hi() <= 0u32 {
                Side::Hi
            } else {
                continue;
            };
            if !allowed(i, side) {
                continue;
            }
            let (dg, _) = goal.monotone_subgoals(self.p, b, i, side, strict);
            let d = match side {
                Side::Lo => gr[i].lo().clone(),
                Side::Hi => -gr[i].hi().clone(),
            };
            if !meets(&d, need_strict(self.p, &dg, b)) {
                continue;
            }
            let w = crate::exact::to_f64(&b.width(i));
            cands.push((mag(gi) * w, i, side));
        }
        cands.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
        let (_, i, side) = *cands.first()?;
        let (_, fg) = goal.monotone_subgoals(self.p, b, i, side, strict);
        Some(Step::Commit {
            var: i,
            side,
            derivative: None,
            face: fg,
        })
    }

    /// Whether the hyperplane `x_i = a` is one where tight claims are tight: an end of the
    /// domain, a hyperplane of an earlier monotone step, through a stated touching point, or a
    /// bound of a hypothesis that clips boxes ([`contract`]).
    fn special(&self, goal: &Goal, i: usize, a: &Q) -> bool {
        let v = &self.p.vars[i];
        *a == v.lo
            || *a == v.hi
            || goal.exempt.iter().any(|(j, x)| *j == i && x == a)
            || self.p.touching.iter().any(|t| t[i] == *a)
            || self
                .bounds
                .iter()
                .flatten()
                .flatten()
                .any(|h| h.var == i && h.at == *a)
    }

    /// A monotone step whose derivative's sign is a goal of its own, toward a face of the box
    /// on a special hyperplane ([`Prover::special`]) where the goal is tight (its value at the
    /// face's center is `≥ 0` and small against the goal's range on the box): tight claims are
    /// tight there, and splitting never separates a box from such a face. Among those, the one
    /// whose derivative goal looks most likely true: positive at the box's center, and with the
    /// enclosure on the box reaching least below 0 relative to its size.
    #[allow(clippy::too_many_arguments)]
    fn monotone_goal(
        &self,
        arith: Arith,
        goal: &Goal,
        b: &Bx,
        f: &Interval,
        gr: &[Interval],
        strict: bool,
        allowed: &dyn Fn(usize, Side) -> bool,
    ) -> Option<Step> {
        let range = f.hi_f64() - f.lo_f64();
        let center = b.center();
        let mut cands: Vec<(bool, f64, f64, usize, Side)> = Vec::new();
        for (i, gi) in gr.iter().enumerate() {
            if b.degenerate(i) {
                continue;
            }
            for side in [Side::Lo, Side::Hi] {
                let definite = match side {
                    Side::Lo => *gi.lo() > 0u32,
                    Side::Hi => *gi.hi() < 0u32,
                };
                if definite || !allowed(i, side) || !self.special(goal, i, b.end(i, side)) {
                    continue;
                }
                let c = b.face(i, side).center();
                let Ok(fc) = self.p.point_value_in(arith, &goal.path, goal.positive, &c) else {
                    continue;
                };
                if !(*fc.lo() >= 0u32 && fc.hi_f64() <= range / 64.0) {
                    continue;
                }
                let (dg, _) = goal.monotone_subgoals(self.p, b, i, side, strict);
                let Ok(dc) = self.p.point_value_in(arith, &dg.path, dg.positive, &center) else {
                    continue;
                };
                if *dc.hi() <= 0u32 {
                    continue;
                }
                let d = if side == Side::Lo {
                    gi.clone()
                } else {
                    gi.neg()
                };
                let m = mag(&d).max(f64::MIN_POSITIVE);
                // A face where the goal vanishes identically (its enclosure is exactly 0): no
                // split separates a box from it, so the step is taken whenever its derivative
                // goal is not violated at the center. Toward any other face, only when the
                // derivative goal is nearly decided on the box already (on a wide box splitting
                // comes first).
                let zero = self
                    .p
                    .goal_on(arith, &goal.path, goal.positive, &b.face(i, side), false)
                    .is_ok_and(|(v, _)| *v.lo() == 0u32 && *v.hi() == 0u32);
                if !zero && d.lo_f64() / m < -0.25 {
                    continue;
                }
                cands.push((zero, d.lo_f64() / m, fc.hi_f64(), i, side));
            }
        }
        cands.sort_by(|a, b| {
            b.0.cmp(&a.0)
                .then(b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal))
                .then(a.2.partial_cmp(&b.2).unwrap_or(std::cmp::Ordering::Equal))
        });
        let (_, _, _, i, side) = *cands.first()?;
        let (dg, fg) = goal.monotone_subgoals(self.p, b, i, side, strict);
        Some(Step::Commit {
            var: i,
            side,
            derivative: Some(dg),
            face: fg,
        })
    }

    /// The coordinate to split and where: a touching point inside the box first, else the
    /// coordinate with the largest `|∂ᵢf(B)|·widthᵢ`, else the widest relative to the domain.
    fn choose(&self, b: &Bx, grad: Option<&[Interval]>) -> Option<(usize, Q)> {
        for t in &self.p.touching {
            if b.contains(t) {
                for (i, ti) in t.iter().enumerate() {
                    if b.lo[i] < *ti && *ti < b.hi[i] {
                        return Some((i, ti.clone()));
                    }
                }
            }
        }
        let root = self.p.root();
        let rel = |i: usize| {
            let r = crate::exact::to_f64(&root.width(i));
            crate::exact::to_f64(&b.width(i)) / if r > 0.0 { r } else { 1.0 }
        };
        let cands: Vec<usize> = (0..b.dim()).filter(|&i| !b.degenerate(i)).collect();
        if cands.is_empty() {
            return None;
        }
        let mut best = cands[0];
        let mut score = f64::NEG_INFINITY;
        if let Some(g) = grad {
            for &i in &cands {
                let s = mag(&g[i]) * crate::exact::to_f64(&b.width(i));
                if s.is_finite() && s > score {
                    score = s;
                    best = i;
                }
            }
        }
        if score <= 0.0 || !score.is_finite() {
            score = f64::NEG_INFINITY;
            for &i in &cands {
                if rel(i) > score {
                    score = rel(i);
                    best = i;
                }
            }
        } else {
            // Never let a coordinate shrink far below the others (the derivative may be huge
            // only because the box is wide elsewhere).
            let widest = cands
                .iter()
                .copied()
                .max_by(|&a, &c| {
                    rel(a)
                        .partial_cmp(&rel(c))
                        .unwrap_or(std::cmp::Ordering::Equal)
                })
                .unwrap_or(best);
            if rel(widest) > 1024.0 * rel(best) {
                best = widest;
            }
        }
        Some((best, split_point(&b.lo[best], &b.hi[best])))
    }

    /// The step on the box `b` for `goal`, after contraction (the box of the claim's own goal
    /// clipped by the bound hypotheses), with a counterexample at the center of the (clipped)
    /// box when one is found there and whether the goal is violated there.
    fn top(&self, goal: &Goal, b: &Bx, banned: &[(usize, Side, Vec<Q>)]) -> TopResult {
        let cut = if goal.hyps {
            contract::clip(&self.bounds, b)
        } else {
            Clip::Same
        };
        let (b, clip) = match cut {
            Clip::Same => (std::borrow::Cow::Borrowed(b), None),
            Clip::Cut { hyps, b: c } => (std::borrow::Cow::Owned(c.clone()), Some((hyps, c))),
            Clip::Empty { hyps, b: c, hyp } => {
                return TopResult {
                    clip: (!hyps.is_empty()).then_some((hyps, c)),
                    step: Step::Leaf(Node::Outside { hyp }),
                    counterexample: None,
                    violated: false,
                };
            }
        };
        let b: &Bx = &b;
        let step = self.step(goal, b, banned);
        let (mut counterexample, mut violated) = (None, false);
        if !matches!(step, Step::Leaf(_)) {
            let c = b.center();
            if goal.path.is_empty() && goal.positive {
                counterexample = self.counterexample(&c);
            }
            if counterexample.is_none()
                && let Ok(v) = self
                    .p
                    .point_value_in(self.quick(), &goal.path, goal.positive, &c)
            {
                // Violated at the center, or exactly 0 there without being decided on the box
                // (a goal that vanishes where no enclosure can show it: hopeless by bisection).
                violated = *v.hi() < 0u32
                    || (!goal.path.is_empty()
                        && *v.lo() <= 0u32
                        && self.p.exact_sign(&goal.path, goal.positive, &c)
                            == Some(std::cmp::Ordering::Equal));
            }
        }
        TopResult {
            clip,
            step,
            counterexample,
            violated,
        }
    }

    /// The first corner of the domain's box (closed ends) that is a
    /// certified counterexample (at most 2⁸ corners are tried).
    fn corners(&self, root: &Bx) -> Option<(Vec<Q>, Interval, Interval, Interval)> {
        let k = root.dim();
        if k > 8 {
            return None;
        }
        for mask in 0u32..(1 << k) {
            let c: Vec<Q> = (0..k)
                .map(|i| {
                    if mask & (1 << i) == 0 {
                        root.lo[i].clone()
                    } else {
                        root.hi[i].clone()
                    }
                })
                .collect();
            if let Some(r) = self.counterexample(&c) {
                return Some(r);
            }
        }
        None
    }

    /// A deterministic floating-point search for a counterexample: [`SAMPLES`] points per
    /// variable (ChaCha8, seed 0; each coordinate uniform, or cubed toward one end, where tight
    /// claims tend to fail), then a shrinking random search around the eight lowest values of
    /// `g`. The first point with `g < 0` in floating point that certifies is returned.
    fn sample(&self, root: &Bx) -> Option<(Vec<Q>, Interval, Interval, Interval)> {
        use rand::{RngExt, SeedableRng};
        let k = root.dim();
        if k == 0 {
            return None;
        }
        let lo: Vec<f64> = root.lo.iter().map(crate::exact::to_f64).collect();
        let hi: Vec<f64> = root.hi.iter().map(crate::exact::to_f64).collect();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
        let n = SAMPLES * k;
        let points: Vec<Vec<f64>> = (0..n)
            .map(|_| {
                (0..k)
                    .map(|i| {
                        let u: f64 = rng.random_range(0.0..1.0);
                        let t = match rng.random_range(0..3u32) {
                            0 => u,
                            1 => u * u * u,
                            _ => 1.0 - u * u * u,
                        };
                        lo[i] + (hi[i] - lo[i]) * t
                    })
                    .collect()
            })
            .collect();
        let values: Vec<Option<f64>> = points
            .par_iter()
            .map(|x| {
                if self.p.hypotheses_float(x) {
                    self.p.g_float(x)
                } else {
                    None
                }
            })
            .collect();
        let mut scored: Vec<(f64, usize)> = values
            .iter()
            .enumerate()
            .filter_map(|(j, v)| v.map(|v| (v, j)))
            .collect();
        scored.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
        let certify = |x: &[f64]| -> Option<(Vec<Q>, Interval, Interval, Interval)> {
            let q: Option<Vec<Q>> = x.iter().map(|v| crate::exact::from_float(*v)).collect();
            self.counterexample(&q?)
        };
        for &(v, j) in scored.iter().take(8) {
            if v < 0.0
                && let Some(c) = certify(&points[j])
            {
                return Some(c);
            }
        }
        // Shrinking random search around the best points.
        for &(v0, j) in scored.iter().take(8) {
            let mut x = points[j].clone();
            let mut best = v0;
            let mut step = 0.25;
            for _ in 0..200 {
                let y: Vec<f64> = (0..k)
                    .map(|i| {
                        let d = (hi[i] - lo[i]) * step * rng.random_range(-1.0..1.0);
                        (x[i] + d).clamp(lo[i], hi[i])
                    })
                    .collect();
                match (self.p.hypotheses_float(&y), self.p.g_float(&y)) {
                    (true, Some(v)) if v < best => {
                        best = v;
                        x = y;
                    }
                    _ => step *= 0.93,
                }
            }
            if best < 0.0
                && let Some(c) = certify(&x)
            {
                return Some(c);
            }
        }
        None
    }

    /// The point `c` as a certified counterexample, if it is one.
    fn counterexample(&self, c: &[Q]) -> Option<(Vec<Q>, Interval, Interval, Interval)> {
        if !self.p.in_domain(c) {
            return None;
        }
        let prec = self.o.prec;
        // The fast arithmetic first: a point where g is certainly > 0 (≥ 0 for a non-strict
        // claim, whose counterexamples need g < 0) is not a counterexample.
        if let Ok((g, _)) = self
            .p
            .point_value_in(self.quick(), &[], true, c)
            .map(|g| (g, ()))
            && (*g.lo() > 0u32 || (!self.p.strict() && *g.lo() >= 0u32))
        {
            return None;
        }
        if !contract::hypotheses_hold_at(self.p, &self.bounds, c, prec) {
            return None;
        }
        let (g, l, r) = self.p.sides_at(c, prec).ok()?;
        let violated = if self.p.strict() {
            *g.hi() <= 0u32
        } else {
            *g.hi() < 0u32
        };
        // An enclosure that straddles 0 at a point where g is exactly 0 (a strict claim):
        // decided exactly.
        let exactly = || {
            self.p.strict()
                && *g.lo() <= 0u32
                && self.p.exact_sign(&[], true, c) == Some(std::cmp::Ordering::Equal)
        };
        (violated || exactly()).then(|| (c.to_vec(), l, r, g))
    }
}

/// Proves `p` within the limits `o` (see the module documentation): counterexamples at the
/// touching points, the corners and sampled points first, then the rewrites of
/// [`super::rewrite`], then the bisection of the rewritten claim (of the original one when the
/// rewritten claim is not proved and a range rewrite made it a different claim).
pub fn prove(p: &Problem, o: &Options) -> Outcome {
    let start = Instant::now();
    let pr = Prover::new(p, o);
    let root = p.root();
    // The corners of the domain (closed ends only) are tried first: a claim that fails exactly at
    // an end of the domain is never refuted at the center of a box; then a floating-point
    // sampling search (a small violating region is found long before the bisection reaches it).
    let early = p
        .touching
        .iter()
        .find_map(|t| pr.counterexample(t))
        .map(|c| (c, "a stated touching point"))
        .or_else(|| pr.corners(&root).map(|c| (c, "a corner of the domain")))
        .or_else(|| {
            pr.sample(&root)
                .map(|c| (c, "sampling (floating point), then certified"))
        });
    if let Some(((point, lhs, rhs, g), found_by)) = early {
        let stats = Stats {
            seconds: start.elapsed().as_secs_f64(),
            escalated: pr.escalated.load(std::sync::atomic::Ordering::Relaxed),
            ..Stats::default()
        };
        return Outcome::Refuted {
            point,
            lhs,
            rhs,
            g,
            found_by,
            stats,
        };
    }
    let (q, rewrites, used) = rewrite_claim(p, o);
    if rewrites.is_empty() {
        return bisect(&pr, start, used, Vec::new());
    }
    let qr = Prover::new(&q, o);
    let out = bisect(&qr, start, used, rewrites.clone());
    let ranged = rewrites
        .iter()
        .any(|r| matches!(r, super::rewrite::Rewrite::Range { .. }));
    match out {
        Outcome::Proved { .. } => out,
        Outcome::Refuted { point, stats, .. } if !ranged => {
            // The rewritten claim has the same sign as the original at every point.
            match pr.counterexample(&point) {
                Some((point, lhs, rhs, g)) => Outcome::Refuted {
                    point,
                    lhs,
                    rhs,
                    g,
                    found_by: "the center of a box of the bisection (of the rewritten claim)",
                    stats,
                },
                None => bisect(&pr, start, stats.boxes, Vec::new()),
            }
        }
        Outcome::Refuted { stats, .. } | Outcome::Inconclusive { stats, .. } if ranged => {
            bisect(&pr, start, stats.boxes, Vec::new())
        }
        other => other,
    }
}

/// The rewrites of [`super::rewrite`] that apply to `p`, in order: the common exponential, the
/// positive denominators (each sign proved here, within a small budget), the range of a derived
/// name. Returns the rewritten claim, the rewrites and the box evaluations spent.
fn rewrite_claim(p: &Problem, o: &Options) -> (Problem, Vec<super::rewrite::Rewrite>, u64) {
    use super::rewrite::{self, Rewrite};
    let mut q = p.clone();
    let mut out = Vec::new();
    let mut used = 0u64;
    if !p.tol.is_zero() {
        return (q, out, used);
    }
    if let Some((r, w)) = rewrite::common_exp(&q) {
        q = r;
        out.push(w);
    }
    for (index, (d, k)) in rewrite::denominators(&q).into_iter().enumerate() {
        let sp = rewrite::sign_problem(&q, &d);
        let budget = Options {
            max_boxes: (o.max_boxes / 10).clamp(1, 2000),
            max_seconds: o.max_seconds / 10.0,
            ..o.clone()
        };
        let pr = Prover::new(&sp, &budget);
        let out_sign = bisect(&pr, Instant::now(), 0, Vec::new());
        used += match &out_sign {
            Outcome::Proved { stats, .. }
            | Outcome::Refuted { stats, .. }
            | Outcome::Inconclusive { stats, .. } => stats.boxes,
        };
        if let Outcome::Proved { tree, .. } = out_sign {
            let text = rewrite::factor_text(&q, &d, index);
            let before = q.clone();
            q = rewrite::multiply(&before, &d, k);
            out.push(Rewrite::Denominator {
                factor: d,
                power: k,
                index,
                text,
                proof: tree,
            });
            // Later denominators are read from the new claim.
            break;
        }
    }
    if let Some((slot, vars)) = rewrite::range_candidate(&q)
        && let Some((lo, hi)) = rewrite::slot_range(&q, slot, o.prec)
    {
        let name = format!("range{slot}");
        q = rewrite::replace_by_range(&q, slot, &vars, lo.clone(), hi.clone(), &name);
        out.push(Rewrite::Range {
            slot,
            vars,
            lo,
            hi,
            name,
        });
    }
    (q, out, used)
}

/// One box of the search: its goal, its slot in the tree, its depth, and the monotone steps
/// (commits) it serves, outermost first.
struct Item {
    goal: Goal,
    b: Bx,
    id: usize,
    depth: u32,
    under: Vec<usize>,
    /// Monotone steps not to take again for this goal: a step given up on a larger box because
    /// its goal was violated at a point (kept while the box contains that point).
    banned: Vec<(usize, Side, Vec<Q>)>,
}

/// A monotone step committed to in the tree: the goal and box it decides, and what its subtree
/// has spent. Given up (`alive = false`) when its subtree spends more than
/// [`Options::commit_budget`], meets a box it cannot decide, or finds its derivative goal
/// violated at a point; its box is then split instead.
struct Commit {
    alive: bool,
    goal: Goal,
    b: Bx,
    id: usize,
    depth: u32,
    under: Vec<usize>,
    used: u64,
    var: usize,
    side: Side,
    banned: Vec<(usize, Side, Vec<Q>)>,
}

enum Slot {
    Pending,
    Leaf(Node),
    Split(usize, Q, usize, usize),
    Mono(usize, Side, usize, usize),
    /// A box clipped by the hypotheses (which, the clipped ends) and the slot of the clipped box.
    Clip(Vec<usize>, Vec<(usize, Q, Q)>, usize),
}

/// The bisection of [`prove`] on the claim of `pr` (its counterexample search done), with
/// `used` box evaluations already spent and `rewrites` the rewrites that made the claim.
///
/// Boxes are processed breadth first in a fixed order, in parallel batches whose results are
/// applied in order, so the tree does not depend on the number of threads. A box is decided (a
/// leaf), split, or reduced by a monotone step to a face (two goals: the derivative on the box
/// and the goal on the face); a monotone step that turns out wrong is given up and its box split.
fn bisect(
    pr: &Prover,
    start: Instant,
    used: u64,
    rewrites: Vec<super::rewrite::Rewrite>,
) -> Outcome {
    let mut s = Bisection::new(pr, start, used);
    let chunk = 64 * rayon::current_num_threads().max(1);
    let reason = loop {
        if s.frontier.is_empty() {
            break None;
        }
        if let Some(why) = s.out_of_budget() {
            break Some(why);
        }
        let batch = s.next_batch(chunk);
        let results: Vec<TopResult> = batch
            .par_iter()
            .map(|it| pr.top(&it.goal, &it.b, &it.banned))
            .collect();
        for (it, r) in batch.into_iter().zip(results) {
            if let Some(refuted) = s.apply(it, r) {
                return refuted;
            }
        }
    };
    s.finish(reason, rewrites)
}

/// The state of a bisection: the proof tree being built (an arena of slots, the root at 0), the
/// monotone steps committed, the boxes still to decide in order, and those that cannot be
/// decided (with why).
struct Bisection<'b, 'a> {
    pr: &'b Prover<'a>,
    arena: Vec<Slot>,
    commits: Vec<Commit>,
    frontier: VecDeque<Item>,
    stuck: Vec<(Bx, String)>,
    stats: Stats,
    start: Instant,
}

impl<'b, 'a> Bisection<'b, 'a> {
    /// The bisection of the whole domain for the claim's own goal.
    fn new(pr: &'b Prover<'a>, start: Instant, used: u64) -> Self {
        let p = pr.p;
        Bisection {
            pr,
            arena: vec![Slot::Pending],
            commits: Vec::new(),
            frontier: VecDeque::from([Item {
                goal: Goal::claim(p),
                b: p.root(),
                id: 0,
                depth: 0,
                under: Vec::new(),
                banned: Vec::new(),
            }]),
            stuck: Vec::new(),
            stats: Stats {
                boxes: used,
                ..Stats::default()
            },
            start,
        }
    }

    /// Whether every monotone step the box serves is still committed to.
    fn alive(&self, it: &Item) -> bool {
        it.under.iter().all(|&c| self.commits[c].alive)
    }

    /// Why the search stops here: the box budget or the time budget spent.
    fn out_of_budget(&self) -> Option<String> {
        let o = self.pr.o;
        if self.stats.boxes >= o.max_boxes {
            return Some(format!(
                "the box budget ({} evaluations) ran out",
                o.max_boxes
            ));
        }
        if self.start.elapsed().as_secs_f64() > o.max_seconds {
            return Some(format!(
                "the time budget ({} s) ran out (where the search stopped depends on the machine)",
                o.max_seconds
            ));
        }
        None
    }

    /// The next boxes to evaluate in parallel: at most `chunk` and at most the budget left,
    /// skipping boxes of given-up steps.
    fn next_batch(&mut self, chunk: usize) -> Vec<Item> {
        let left = (self.pr.o.max_boxes - self.stats.boxes).max(1) as usize;
        let mut batch: Vec<Item> = Vec::new();
        while batch.len() < chunk.min(left) {
            let Some(it) = self.frontier.pop_front() else {
                break;
            };
            if self.alive(&it) {
                batch.push(it);
            }
        }
        batch
    }

    /// Applies the evaluation `r` of the box `it`; the outcome when it is a counterexample.
    fn apply(&mut self, it: Item, r: TopResult) -> Option<Outcome> {
        self.stats.boxes += 1;
        self.stats.top_boxes += 1;
        self.stats.generations = self.stats.generations.max(it.depth);
        if !self.alive(&it) {
            return None;
        }
        if let Some((point, lhs, rhs, g)) = r.counterexample {
            self.stamp();
            return Some(Outcome::Refuted {
                point,
                lhs,
                rhs,
                g,
                found_by: "the center of a box of the bisection",
                stats: std::mem::take(&mut self.stats),
            });
        }
        if self.charge(&it) {
            return None;
        }
        let it = match r.clip {
            Some((hyps, b)) => self.push_clip(it, hyps, b),
            None => it,
        };
        if r.violated && !it.under.is_empty() {
            self.give_up_violated(&it);
            return None;
        }
        self.take_step(&it, r.step);
        None
    }

    /// Records the time spent and the escalations in the statistics.
    fn stamp(&mut self) {
        self.stats.seconds = self.start.elapsed().as_secs_f64();
        self.stats.escalated = self.pr.escalated.load(std::sync::atomic::Ordering::Relaxed);
    }

    /// Charges the box to the commits it serves; gives up the outermost one over its budget
    /// (`true`: the box is dropped with it).
    fn charge(&mut self, it: &Item) -> bool {
        for &c in &it.under {
            self.commits[c].used += 1;
        }
        let budget = self.pr.o.commit_budget;
        match it.under.iter().find(|&&c| self.commits[c].used > budget) {
            Some(&c) => {
                self.give_up(c, "a monotone step over its budget", None);
                true
            }
            None => false,
        }
    }

    /// The goal of `it` is false at a point: gives up the monotone step that made it (the
    /// innermost one whose goal has fewer derivative directions; a face keeps them).
    fn give_up_violated(&mut self, it: &Item) {
        let n = it.goal.path.len();
        let c = it
            .under
            .iter()
            .rev()
            .copied()
            .find(|&c| self.commits[c].goal.path.len() < n)
            .or(it.under.last().copied())
            .expect("under a commit");
        self.give_up(c, "a goal violated at a point", Some(it.b.center()));
    }

    /// Takes the step chosen for the box `it`: a leaf, a split, a monotone step; a box that
    /// cannot be decided gives up the innermost step it serves (or is stuck).
    fn take_step(&mut self, it: &Item, step: Step) {
        let o = self.pr.o;
        let failed = match step {
            Step::Leaf(n) => {
                self.arena[it.id] = Slot::Leaf(n);
                None
            }
            Step::Split(i, at) if it.depth < o.max_depth => {
                self.push_split(it, i, at);
                None
            }
            Step::Split(..) => Some(format!("depth limit {}", o.max_depth)),
            Step::Commit {
                var,
                side,
                derivative,
                face,
            } => {
                self.push_commit(it, var, side, derivative, face);
                None
            }
            Step::Fail(why) => Some(why),
        };
        if let Some(why) = failed {
            match it.under.last() {
                Some(&c) => self.give_up(c, &why, None),
                None => self.stuck.push((it.b.clone(), why)),
            }
        }
    }

    /// Splits the box of `of` at `at` in coordinate `i`: its slot becomes a split with two new
    /// slots, whose boxes keep the goal, the commits served and the banned steps whose point
    /// they contain.
    fn push_split(&mut self, of: &Item, i: usize, at: Q) {
        let (l, h) = of.b.split(i, &at);
        let (li, hi) = (self.arena.len(), self.arena.len() + 1);
        self.arena.push(Slot::Pending);
        self.arena.push(Slot::Pending);
        self.arena[of.id] = Slot::Split(i, at, li, hi);
        for (bb, id) in [(l, li), (h, hi)] {
            let banned = of
                .banned
                .iter()
                .filter(|e| bb.contains(&e.2))
                .cloned()
                .collect();
            self.frontier.push_back(Item {
                goal: of.goal.clone(),
                b: bb,
                id,
                depth: of.depth + 1,
                under: of.under.clone(),
                banned,
            });
        }
    }

    /// Records that the box of `it` was clipped by the hypotheses `hyps` to `b`: its slot
    /// becomes a clip over a new slot, the item of the clipped box.
    fn push_clip(&mut self, it: Item, hyps: Vec<usize>, b: Bx) -> Item {
        let child = self.arena.len();
        self.arena.push(Slot::Pending);
        let ends = contract::changed_ends(&it.b, &b);
        self.arena[it.id] = Slot::Clip(hyps, ends, child);
        Item { id: child, b, ..it }
    }

    /// Commits to a monotone step on the box `it` toward the face `side` of `var`: two new
    /// slots, the derivative's goal on the box (a direct leaf when `None`) and `face` on the
    /// face, both serving the new commit.
    fn push_commit(
        &mut self,
        it: &Item,
        var: usize,
        side: Side,
        derivative: Option<Goal>,
        face: Goal,
    ) {
        let (di, fi) = (self.arena.len(), self.arena.len() + 1);
        self.arena.push(Slot::Pending);
        self.arena.push(Slot::Pending);
        self.arena[it.id] = Slot::Mono(var, side, di, fi);
        let c = self.commits.len();
        let mut under = it.under.clone();
        under.push(c);
        self.commits.push(Commit {
            alive: true,
            goal: it.goal.clone(),
            b: it.b.clone(),
            id: it.id,
            depth: it.depth,
            under: it.under.clone(),
            used: 0,
            var,
            side,
            banned: it.banned.clone(),
        });
        match derivative {
            None => self.arena[di] = Slot::Leaf(Node::Direct),
            Some(dg) => self.frontier.push_back(Item {
                goal: dg,
                b: it.b.clone(),
                id: di,
                depth: it.depth + 1,
                under: under.clone(),
                banned: Vec::new(),
            }),
        }
        self.frontier.push_back(Item {
            goal: face,
            b: it.b.face(var, side),
            id: fi,
            depth: it.depth + 1,
            under,
            banned: Vec::new(),
        });
    }

    /// Gives up commit `c`: its box is split for its goal (banning its step at the point `at`
    /// where the step's goal was violated), or, when it cannot be, the enclosing commit is given
    /// up, or the box is stuck.
    fn give_up(&mut self, c: usize, why: &str, at: Option<Vec<Q>>) {
        let mut c = c;
        loop {
            self.commits[c].alive = false;
            let cm = &self.commits[c];
            if cm.depth < self.pr.o.max_depth
                && let Some((i, split_at)) = self.pr.choose(&cm.b, None)
            {
                let mut banned = cm.banned.clone();
                if let Some(x) = &at {
                    banned.push((cm.var, cm.side, x.clone()));
                }
                let of = Item {
                    goal: cm.goal.clone(),
                    b: cm.b.clone(),
                    id: cm.id,
                    depth: cm.depth,
                    under: cm.under.clone(),
                    banned,
                };
                self.push_split(&of, i, split_at);
                return;
            }
            match cm.under.last() {
                Some(&outer) => c = outer,
                None => {
                    self.stuck.push((cm.b.clone(), why.to_string()));
                    return;
                }
            }
        }
    }

    /// The outcome when the loop stopped (`reason`: why it stopped early): proved when every
    /// box is decided, else inconclusive with what is left.
    fn finish(mut self, reason: Option<String>, rewrites: Vec<super::rewrite::Rewrite>) -> Outcome {
        self.stamp();
        if reason.is_none() && self.stuck.is_empty() {
            return Outcome::Proved {
                tree: assemble(&mut self.arena),
                rewrites,
                stats: self.stats,
            };
        }
        let o = self.pr.o;
        let reason = reason.unwrap_or_else(|| {
            format!(
                "{} box(es) cannot be decided at {} bits (first: {})",
                self.stuck.len(),
                o.prec,
                self.stuck[0].1
            )
        });
        let remaining = self.remaining();
        inconclusive(self.pr.p, reason, remaining, self.stats)
    }

    /// What is left of the claim: the boxes of the claim's own goal, and for a box under
    /// monotone steps the box of the outermost one (the part of the claim it was to decide).
    fn remaining(&mut self) -> Vec<Bx> {
        let mut remaining: Vec<Bx> = std::mem::take(&mut self.stuck)
            .into_iter()
            .map(|(b, _)| b)
            .collect();
        let mut seen = std::collections::BTreeSet::new();
        for it in std::mem::take(&mut self.frontier) {
            if !self.alive(&it) {
                continue;
            }
            match it.under.first() {
                None => remaining.push(it.b),
                Some(&c) => {
                    if seen.insert(c) {
                        remaining.push(self.commits[c].b.clone());
                    }
                }
            }
        }
        remaining
    }
}

/// The inconclusive outcome with the boxes `remaining`: the fraction of the domain's volume they
/// cover, the first [`REPORTED_BOXES`] of them, and the tightest (least `g` at its center).
fn inconclusive(p: &Problem, reason: String, mut remaining: Vec<Bx>, stats: Stats) -> Outcome {
    let root = p.root();
    let total = root.volume_in(&root);
    let vol: f64 = remaining.iter().map(|b| b.volume_in(&root)).sum();
    let volume_fraction = if total > 0.0 {
        (vol / total).min(1.0)
    } else {
        1.0
    };
    let remaining_count = remaining.len();
    remaining.truncate(REPORTED_BOXES);
    let values: Vec<Option<f64>> = remaining.par_iter().map(|b| p.g_f64(&b.center())).collect();
    let tightest = remaining
        .iter()
        .zip(values)
        .filter_map(|(b, v)| v.map(|v| (b, v)))
        .min_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal))
        .map(|(b, v)| (b.clone(), v));
    Outcome::Inconclusive {
        reason,
        remaining,
        remaining_count,
        volume_fraction,
        tightest,
        stats,
    }
}

/// The tree reachable from the root of the arena (iteratively, children before parents).
fn assemble(arena: &mut [Slot]) -> Node {
    let mut order = Vec::new();
    let mut stack = vec![0usize];
    while let Some(id) = stack.pop() {
        order.push(id);
        match &arena[id] {
            Slot::Split(_, _, l, h) | Slot::Mono(_, _, l, h) => {
                stack.push(*l);
                stack.push(*h);
            }
            Slot::Clip(_, _, c) => stack.push(*c),
            _ => {}
        }
    }
    let mut built: std::collections::HashMap<usize, Node> = std::collections::HashMap::new();
    for &id in order.iter().rev() {
        let n = match std::mem::replace(&mut arena[id], Slot::Pending) {
            Slot::Leaf(n) => n,
            Slot::Split(var, at, l, h) => Node::Split {
                var,
                at,
                lo: Box::new(built.remove(&l).expect("child built")),
                hi: Box::new(built.remove(&h).expect("child built")),
            },
            Slot::Mono(var, side, d, f) => Node::Monotone {
                var,
                side,
                derivative: Box::new(built.remove(&d).expect("child built")),
                face: Box::new(built.remove(&f).expect("child built")),
            },
            Slot::Clip(hyps, ends, c) => Node::Clip {
                hyps,
                ends,
                inner: Box::new(built.remove(&c).expect("child built")),
            },
            Slot::Pending => unreachable!("every box is decided"),
        };
        built.insert(id, n);
    }
    built.remove(&0).expect("root built")
}
