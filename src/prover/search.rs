//! The branch and bound: every box is decided (a [`Node`] leaf) or bisected, breadth first,
//! boxes of one generation in parallel; the tree of decisions is the certificate.
//!
//! A **goal** is `s·∂_β g ≥ 0` on a box `B` (`β` a list of derivative indices, `s = ±1`; the
//! claim itself is `β = ()`, `s = +1`), strict (`> 0`) where the claim is strict, except on the
//! goal's exempt hyperplanes and the open ends of the domain. A stated touching point exempts
//! nothing: it is a split point, and the first point tried as a counterexample (a strict claim
//! whose two sides are equal there is refuted there). At a box the prover tries, in order:
//!
//! 1. the hypotheses: if one is false on all of `B` the box is outside the claim;
//! 2. **direct**: the interval enclosure of `f = s·∂_β g` on `B`;
//! 3. **mean value**: `f(x) ∈ f(c) + Σᵢ ∂ᵢf(B)·(xᵢ − cᵢ)`, with `cᵢ` the lower end where
//!    `∂ᵢf(B) ≥ 0`, the upper end where `∂ᵢf(B) ≤ 0` (so that term is `≥ 0`), the midpoint
//!    otherwise; the derivatives come from forward-mode differentiation in the interval domain
//!    ([`crate::lang::Dual`]);
//! 4. **monotone**: when `∂ᵢf(B) ≥ 0` (or `≤ 0`), `f(x) ≥ f` on the face `xᵢ = loᵢ` (`hiᵢ`),
//!    and the goal moves to the face (one dimension less), proved by a bounded local search;
//! 5. **monotone by a derivative goal**: when `∂ᵢf(B)` has no sign but the face of `B` lies on
//!    the end of the domain or on a touching point (where tight claims are tight), the sign of
//!    `∂ᵢf` is itself proved as a goal (`β + i`; the Taylor argument in first-order steps:
//!    `f ≥ 0` because `f(face) ≥ 0` and `∂ᵢf ≥ 0` because `∂ᵢf(face) ≥ 0` and `∂ᵢ∂ᵢf ≥ 0`, …),
//!    up to third derivatives of `g`;
//! 6. otherwise the box is **split** at a short dyadic point near the middle of the coordinate
//!    that most changes `f` (largest `|∂ᵢf(B)|·widthᵢ`; at a touching point inside the box first).
//!
//! A strict goal reduced to a face where strictness is not required (an open end) needs a strict
//! derivative; the rules are checked again, independently, by [`super::checker`].
//!
//! At every top-level box that is split, the claim is evaluated at the box's center: a center
//! in the domain where the hypotheses hold and the enclosure of `g` is `< 0` (`≤ 0` for a strict
//! claim) is a certified counterexample.
//!
//! Determinism: boxes are processed in a fixed order (breadth first, the lower half first) and
//! their results are combined in that order, so the verdict, the tree and the counts do not
//! depend on the number of threads. Budgets: a number of box evaluations (deterministic) and a
//! time limit (a safety net; when it stops the search first, where it stops depends on the
//! machine, and the report says so).

use super::boxes::{Bx, Side, point_intervals, split_point};
use super::certificate::Node;
use super::problem::{Arith, MAX_ORDER, Problem, multi_index};
use super::taylor::{self, Coefficients, MAX_MODEL_ORDER};
use crate::enclosure::Interval;
use crate::exact::Q;
use malachite::Float;
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
    /// Working precision of the enclosures (bits).
    pub prec: u64,
    /// Box evaluations a top-level box may spend on the local searches of its monotone steps.
    pub local_budget: u64,
    /// Nesting depth of local searches.
    pub local_depth: u32,
    /// Bisections along one path of the top-level tree.
    pub max_depth: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_boxes: 200_000,
            max_seconds: 60.0,
            prec: 64,
            local_budget: 32,
            local_depth: 12,
            max_depth: 400,
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
        /// The tree (the certificate's content).
        tree: Node,
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
        /// The boxes not decided (at most [`REPORTED_BOXES`] are kept).
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
    Fail(String),
}

struct TopResult {
    step: Step,
    used: u64,
    counterexample: Option<(Vec<Q>, Interval, Interval, Interval)>,
}

struct Prover<'a> {
    p: &'a Problem,
    o: &'a Options,
    escalated: std::sync::atomic::AtomicU64,
}

fn mag(i: &Interval) -> f64 {
    i.lo_f64().abs().max(i.hi_f64().abs())
}

/// Whether the fast arithmetic's failure on a box is worth repeating at a higher precision.
#[derive(Default)]
struct Escalate(bool);

impl Prover<'_> {
    /// One step on a box: in the fast arithmetic first, repeated in the arbitrary-precision one
    /// when the fast one did not decide the box and precision may be why (a value beyond the
    /// range of `f64`, a point, or a box squeezed below [`DEEP`]).
    fn step(&self, goal: &Goal, b: &Bx, local: &mut u64, depth: u32) -> Step {
        let mut flag = Escalate::default();
        let s = self.step_in(Arith::Fast, goal, b, local, depth, &mut flag);
        if matches!(s, Step::Leaf(_)) || !flag.0 {
            return s;
        }
        self.escalated
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.step_in(
            Arith::Bits(self.o.prec),
            goal,
            b,
            local,
            depth,
            &mut Escalate::default(),
        )
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
        local: &mut u64,
        depth: u32,
        flag: &mut Escalate,
    ) -> Step {
        if arith == Arith::Fast && (b.is_point() || self.deep(b)) {
            flag.0 = true;
        }
        let mut full = true;
        if goal.hyps {
            for (j, h) in self.p.hypotheses_on(arith, b).into_iter().enumerate() {
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
        if let Some(gr) = &grad {
            if let Some(n) = self.mean_value(arith, goal, b, gr, strict) {
                return Step::Leaf(n);
            }
        }
        if let Some(n) = self.taylor(arith, goal, b, strict) {
            return Step::Leaf(n);
        }
        if let Some(gr) = &grad
            && full
        {
            if let Some(n) = self.monotone_direct(goal, b, gr, strict, local, depth) {
                return Step::Leaf(n);
            }
            if goal.path.len() < MAX_PATH
                && let Some(n) = self.monotone_goal(arith, goal, b, gr, strict, local, depth)
            {
                return Step::Leaf(n);
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

    /// Coordinates where the goal has a sign-definite derivative, most influential first.
    fn monotone_direct(
        &self,
        goal: &Goal,
        b: &Bx,
        gr: &[Interval],
        strict: bool,
        local: &mut u64,
        depth: u32,
    ) -> Option<Node> {
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
            let w = crate::exact::to_f64(&b.width(i));
            cands.push((mag(gi) * w, i, side));
        }
        cands.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
        for (_, i, side) in cands.into_iter().take(2) {
            let (dg, fg) = goal.monotone_subgoals(self.p, b, i, side, strict);
            // The derivative's sign is read directly from the gradient enclosure.
            let d = match side {
                Side::Lo => gr[i].lo().clone(),
                Side::Hi => -gr[i].hi().clone(),
            };
            if !meets(&d, need_strict(self.p, &dg, b)) {
                continue;
            }
            let face = b.face(i, side);
            if let Some(f) = self.attempt(&fg, &face, local, depth + 1) {
                return Some(Node::Monotone {
                    var: i,
                    side,
                    derivative: Box::new(Node::Direct),
                    face: Box::new(f),
                });
            }
        }
        None
    }

    /// Monotone steps whose derivative sign is itself a goal, toward the faces where the goal is
    /// tightest (the smallest non-negative value at the face's center: tight claims are tight
    /// on a face of the box, e.g. at a touching point or an end of the domain).
    #[allow(clippy::too_many_arguments)]
    fn monotone_goal(
        &self,
        arith: Arith,
        goal: &Goal,
        b: &Bx,
        gr: &[Interval],
        strict: bool,
        local: &mut u64,
        depth: u32,
    ) -> Option<Node> {
        let mut cands: Vec<(Float, usize, Side)> = Vec::new();
        for (i, gi) in gr.iter().enumerate() {
            if b.degenerate(i) {
                continue;
            }
            for side in [Side::Lo, Side::Hi] {
                let definite = match side {
                    Side::Lo => *gi.lo() > 0u32,
                    Side::Hi => *gi.hi() < 0u32,
                };
                if definite {
                    continue;
                }
                let c = b.face(i, side).center();
                let Ok(fc) = self.p.point_value_in(arith, &goal.path, goal.positive, &c) else {
                    continue;
                };
                if *fc.lo() >= 0u32 {
                    cands.push((fc.hi().clone(), i, side));
                }
            }
        }
        cands.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
        for (_, i, side) in cands.into_iter().take(2) {
            let (dg, fg) = goal.monotone_subgoals(self.p, b, i, side, strict);
            let Some(d) = self.attempt(&dg, b, local, depth + 1) else {
                continue;
            };
            let face = b.face(i, side);
            if let Some(f) = self.attempt(&fg, &face, local, depth + 1) {
                return Some(Node::Monotone {
                    var: i,
                    side,
                    derivative: Box::new(d),
                    face: Box::new(f),
                });
            }
        }
        None
    }

    /// A bounded depth-first search for a proof of `goal` on `b`.
    fn attempt(&self, goal: &Goal, b: &Bx, local: &mut u64, depth: u32) -> Option<Node> {
        if *local == 0 || depth > self.o.local_depth {
            return None;
        }
        *local -= 1;
        match self.step(goal, b, local, depth) {
            Step::Leaf(n) => Some(n),
            Step::Fail(_) => None,
            Step::Split(i, at) => {
                let (l, h) = b.split(i, &at);
                let lo = self.attempt(goal, &l, local, depth + 1)?;
                let hi = self.attempt(goal, &h, local, depth + 1)?;
                Some(Node::Split {
                    var: i,
                    at,
                    lo: Box::new(lo),
                    hi: Box::new(hi),
                })
            }
        }
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

    fn top(&self, goal: &Goal, b: &Bx) -> TopResult {
        let mut local = self.o.local_budget;
        let step = self.step(goal, b, &mut local, 0);
        let used = 1 + (self.o.local_budget - local);
        let counterexample = match step {
            Step::Leaf(_) => None,
            _ => self.counterexample(&b.center()),
        };
        TopResult {
            step,
            used,
            counterexample,
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
            .point_value_in(Arith::Fast, &[], true, c)
            .map(|g| (g, ()))
            && (*g.lo() > 0u32 || (!self.p.strict() && *g.lo() >= 0u32))
        {
            return None;
        }
        let x = point_intervals(c, prec);
        if !self
            .p
            .hypotheses(&x, prec)
            .into_iter()
            .all(|h| matches!(h, Ok(true)))
        {
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

/// Proves `p` within the limits `o` (see the module documentation).
pub fn prove(p: &Problem, o: &Options) -> Outcome {
    let start = Instant::now();
    let pr = Prover {
        p,
        o,
        escalated: std::sync::atomic::AtomicU64::new(0),
    };
    let goal = Goal::claim(p);
    let root = p.root();
    enum Slot {
        Pending,
        Leaf(Node),
        Split(usize, Q, usize, usize),
    }
    let mut arena: Vec<Slot> = vec![Slot::Pending];
    let mut frontier: VecDeque<(Bx, usize, u32)> = VecDeque::from([(root.clone(), 0, 0)]);
    let mut stuck: Vec<(Bx, String)> = Vec::new();
    let mut stats = Stats::default();
    let mut last_depth = 0;
    let chunk = 64 * rayon::current_num_threads().max(1);
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
        stats.seconds = start.elapsed().as_secs_f64();
        stats.escalated = pr.escalated.load(std::sync::atomic::Ordering::Relaxed);
        return Outcome::Refuted {
            point,
            lhs,
            rhs,
            g,
            found_by,
            stats,
        };
    }
    let reason = loop {
        if frontier.is_empty() {
            break None;
        }
        if stats.boxes >= o.max_boxes {
            break Some(format!(
                "the box budget ({} evaluations) ran out",
                o.max_boxes
            ));
        }
        if start.elapsed().as_secs_f64() > o.max_seconds {
            break Some(format!(
                "the time budget ({} s) ran out (where the search stopped depends on the machine)",
                o.max_seconds
            ));
        }
        let left = (o.max_boxes - stats.boxes).max(1) as usize;
        let take = frontier.len().min(chunk).min(left);
        let batch: Vec<(Bx, usize, u32)> = frontier.drain(..take).collect();
        let results: Vec<TopResult> = batch.par_iter().map(|(b, _, _)| pr.top(&goal, b)).collect();
        for ((b, id, depth), r) in batch.into_iter().zip(results) {
            stats.boxes += r.used;
            stats.top_boxes += 1;
            if depth > last_depth {
                last_depth = depth;
                stats.generations = depth;
            }
            if let Some((point, lhs, rhs, g)) = r.counterexample {
                stats.seconds = start.elapsed().as_secs_f64();
                stats.escalated = pr.escalated.load(std::sync::atomic::Ordering::Relaxed);
                return Outcome::Refuted {
                    point,
                    lhs,
                    rhs,
                    g,
                    found_by: "the center of a box of the bisection",
                    stats,
                };
            }
            match r.step {
                Step::Leaf(n) => arena[id] = Slot::Leaf(n),
                Step::Split(i, at) if depth < o.max_depth => {
                    let (l, h) = b.split(i, &at);
                    let (li, hi) = (arena.len(), arena.len() + 1);
                    arena.push(Slot::Pending);
                    arena.push(Slot::Pending);
                    arena[id] = Slot::Split(i, at, li, hi);
                    frontier.push_back((l, li, depth + 1));
                    frontier.push_back((h, hi, depth + 1));
                }
                Step::Split(..) => stuck.push((b, format!("depth limit {}", o.max_depth))),
                Step::Fail(why) => stuck.push((b, why)),
            }
        }
    };
    stats.seconds = start.elapsed().as_secs_f64();
    stats.escalated = pr.escalated.load(std::sync::atomic::Ordering::Relaxed);
    if reason.is_none() && stuck.is_empty() {
        // Assemble the tree (iteratively: children are built before their parents).
        let mut built: Vec<Option<Node>> = (0..arena.len()).map(|_| None).collect();
        for id in (0..arena.len()).rev() {
            let n = match std::mem::replace(&mut arena[id], Slot::Pending) {
                Slot::Leaf(n) => n,
                Slot::Split(var, at, l, h) => Node::Split {
                    var,
                    at,
                    lo: Box::new(built[l].take().expect("child built")),
                    hi: Box::new(built[h].take().expect("child built")),
                },
                Slot::Pending => unreachable!("every box is decided"),
            };
            built[id] = Some(n);
        }
        return Outcome::Proved {
            tree: built[0].take().expect("root built"),
            stats,
        };
    }
    let reason = reason.unwrap_or_else(|| {
        format!(
            "{} box(es) cannot be decided at {} bits (first: {})",
            stuck.len(),
            o.prec,
            stuck[0].1
        )
    });
    let mut remaining: Vec<Bx> = stuck.into_iter().map(|(b, _)| b).collect();
    remaining.extend(frontier.into_iter().map(|(b, _, _)| b));
    let total = root.volume_in(&root);
    let vol: f64 = remaining.iter().map(|b| b.volume_in(&root)).sum();
    let volume_fraction = if total > 0.0 { vol / total } else { 1.0 };
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
