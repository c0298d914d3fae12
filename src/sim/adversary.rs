//! Classes of processes and the adaptive adversary inside a class.
//!
//! The class `K(n, δ, ε, C)` of Los–Sauerwald (*Balanced Allocations in Batches*, SPAA 2022,
//! §2–3) is the set of probability allocation vectors `p` (by rank, heaviest first) with
//!
//! * C1(δ, ε): `P_k = Σ_{i≤k} pᵢ ≤ (1 − ε)k/n` for `k ≤ K = δn`, and
//!   `Σ_{i≥k} pᵢ ≥ (1 + ε̃)(n − k + 1)/n` for `k > K`, `ε̃ = εδ/(1 − δ)`;
//! * C2(C): `max pᵢ ≤ C/n`.
//!
//! [`Shape::Sorted`] adds `p₁ ≤ p₂ ≤ … ≤ pₙ` (the quantifier `[setting.vectors]` of the
//! inequality kind ranges over these); [`Shape::Any`] does not. Both are polytopes, and the
//! adversary maximises a linear functional `Σ pᵢ gᵢ` over them exactly, once per step (or batch):
//! `gᵢ` is the change of a stated objective ([`Aim`]: a registered sum-over-bins potential, the
//! gap, the fraction of overloaded bins; maximised or minimised) when the ball lands at rank `i`.
//! The derivations are in `docs/derivations.md` §12:
//!
//! * sorted: C1 is the single constraint `P_K ≤ (1 − ε)K/n` and C2 is `pₙ ≤ C/n`; writing `p` as a
//!   mixture `Σ_j r_j s_j` of the step vectors `s_j` (uniform on ranks `j..n`) leaves an LP in `r`
//!   with three rows, solved by the revised simplex method ([`Solver`]): the optimum mixes at most
//!   three step vectors;
//! * any: C1 and C2 are upper bounds on the prefix sums and on each `pᵢ`, a laminar family, so the
//!   class is the base polytope of a polymatroid and the greedy algorithm (ranks by decreasing
//!   gain, each as much as the bounds allow) is optimal.
//!
//! For every objective whose gain is non-increasing in rank (every convex sum-over-bins potential
//! and the gap) the optimum is the extremal vector `q` of eq. (3.2) in both classes (Abel
//! summation: `q` has the largest prefix sum at every `k`); the adversary differs from `q` only for
//! other objectives (the fraction of overloaded bins) or when minimising.
//!
//! [`ClassModel`] simulates a member of the class (a fixed vector) or the adversary as a
//! [`crate::sim::Model`]: unit weights, sequential or batched (the batch's vector chosen at its
//! start by the one-ball gains there, the first-order term of the batch's change).

use super::kernel::Alias;
use super::{Model, System};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use crate::loads::{Loads, TieRule};
use crate::potential::Potential;
use crate::rng::{SimRng, below, unit_f64};
use num_traits::ToPrimitive;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// Which vectors the class holds besides C1 and C2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Non-decreasing in rank (`p₁ ≤ … ≤ pₙ`: a lighter bin is never less likely).
    Sorted,
    /// Any vector meeting C1 and C2.
    Any,
}

impl Shape {
    /// Parses `sorted` or `any`.
    ///
    /// ```
    /// use balloc::sim::adversary::Shape;
    /// assert_eq!(Shape::parse("any").unwrap(), Shape::Any);
    /// assert!(Shape::parse("convex").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Shape> {
        match s.trim() {
            "sorted" => Ok(Shape::Sorted),
            "any" => Ok(Shape::Any),
            other => Err(Error::invalid(
                "class",
                format!(
                    "unknown class `{}`; accepted: sorted (non-decreasing vectors, the default), any",
                    crate::error::excerpt(other)
                ),
            )),
        }
    }

    /// `sorted` or `any`.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Sorted => "sorted",
            Shape::Any => "any",
        }
    }
}

/// The class `K(n, δ, ε, C)` at one `n` (see the module documentation).
#[derive(Debug, Clone)]
pub struct Class {
    n: usize,
    /// `K = δn`.
    k: usize,
    eps: f64,
    /// `C` of C2.
    c2: f64,
    shape: Shape,
    /// The exact parameters as written (for keys and labels).
    text: String,
    /// `U_k` for `k = 1..=n`: the largest prefix sum C1 allows (`(1 − ε)k/n` up to `K`,
    /// `1 − (1 + ε̃)(n − k)/n` from `K` on; `U_n = 1`).
    prefix: Vec<f64>,
}

impl Class {
    /// The class at `n` for exact `δ` (with `δn` an integer strictly between 0 and `n`),
    /// `0 < ε < 1` and `C ≥ 1`; an error if it is empty (then the extremal vector `q` already
    /// violates C2: every vector of the class has `max p ≥ (1 + ε̃)/n = max q`).
    ///
    /// ```
    /// use balloc::sim::adversary::{Class, Shape};
    /// use balloc::exact::Q;
    /// let q = |a: i64, b: i64| Q::new(a.into(), b.into());
    /// let c = Class::new(4, &q(1, 2), &q(1, 4), &q(2, 1), Shape::Sorted).unwrap();
    /// // q of eq. (3.2): (1 − ε)/n = 3/16 on the heavy half, (1 + ε̃)/n = 5/16 on the light half.
    /// assert_eq!(c.q(), vec![0.1875, 0.1875, 0.3125, 0.3125]);
    /// assert!(Class::new(4, &q(1, 2), &q(1, 4), &q(5, 4), Shape::Sorted).is_ok()); // C = n·max q
    /// assert!(Class::new(4, &q(1, 2), &q(1, 4), &q(6, 5), Shape::Sorted).is_err()); // C < n·max q
    /// ```
    pub fn new(n: usize, delta: &Q, eps: &Q, c2: &Q, shape: Shape) -> Result<Class> {
        let k = crate::condition::delta_n(n, delta)?;
        let (zero, one) = (Q::from_integer(Int::from(0)), Q::from_integer(Int::from(1)));
        if !(*eps > zero && *eps < one) {
            return Err(Error::invalid(
                "eps",
                format!("must lie in (0, 1), got {eps}"),
            ));
        }
        if *c2 < one {
            return Err(Error::invalid(
                "c2",
                format!("must be at least 1, got {c2}"),
            ));
        }
        let f = |x: &Q| x.to_f64().unwrap_or(f64::NAN);
        let (epsf, cf) = (f(eps), f(c2));
        // The tail value of q, exactly: (1 + ε̃)/n with ε̃ = εK/(n − K).
        let nq = Q::from_integer(Int::from(n));
        let kq = Q::from_integer(Int::from(k));
        let tail = (&one + eps * &kq / (&nq - &kq)) / &nq;
        if tail > c2 / &nq {
            return Err(Error::invalid(
                "c2",
                format!(
                    "the class C1({delta}, {eps}) ∩ C2({c2}) is empty at n = {n}: every vector of C1 has \
                     max p ≥ (1 + ε̃)/n = {tail}, so C must be at least {}",
                    &tail * &nq
                ),
            ));
        }
        let et = epsf * k as f64 / (n - k) as f64;
        let prefix = (1..=n)
            .map(|j| {
                if j <= k {
                    (1.0 - epsf) * j as f64 / n as f64
                } else if j == n {
                    1.0
                } else {
                    1.0 - (1.0 + et) * (n - j) as f64 / n as f64
                }
            })
            .collect();
        Ok(Class {
            n,
            k,
            eps: epsf,
            c2: cf,
            shape,
            text: format!(
                "class(delta={delta},eps={eps},c2={c2},shape={})",
                shape.name()
            ),
            prefix,
        })
    }

    /// The number of bins.
    pub fn n(&self) -> usize {
        self.n
    }

    /// `K = δn`.
    pub fn k(&self) -> usize {
        self.k
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The class as text: `class(delta=…,eps=…,c2=…,shape=…)`.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The extremal vector `q` of eq. (3.2): `(1 − ε)/n` on ranks `1..=K`, `(1 + ε̃)/n` after.
    pub fn q(&self) -> Vec<f64> {
        let (n, k) = (self.n as f64, self.k);
        let a = (1.0 - self.eps) / n;
        let b = (1.0 - a * k as f64) / (self.n - k) as f64;
        (0..self.n).map(|i| if i < k { a } else { b }).collect()
    }

    /// Whether `p` lies in the class up to an absolute tolerance `tol` per constraint.
    ///
    /// ```
    /// use balloc::sim::adversary::{Class, Shape};
    /// use balloc::exact::Q;
    /// let q = |a: i64, b: i64| Q::new(a.into(), b.into());
    /// let any = Class::new(4, &q(1, 2), &q(1, 4), &q(2, 1), Shape::Any).unwrap();
    /// let sorted = Class::new(4, &q(1, 2), &q(1, 4), &q(2, 1), Shape::Sorted).unwrap();
    /// // (0, 3/8, 5/16, 5/16): P₁ = 0, P₂ = 3/8 = (1 − ε)·2/4; not sorted.
    /// let p = [0.0, 0.375, 0.3125, 0.3125];
    /// assert!(any.contains(&p, 1e-12) && !sorted.contains(&p, 1e-12));
    /// ```
    pub fn contains(&self, p: &[f64], tol: f64) -> bool {
        if p.len() != self.n || p.iter().any(|v| !v.is_finite() || *v < -tol) {
            return false;
        }
        let cap = self.c2 / self.n as f64;
        if p.iter().any(|v| *v > cap + tol) {
            return false;
        }
        let mut s = 0.0;
        for (j, v) in p.iter().enumerate() {
            s += v;
            if s > self.prefix[j] + tol {
                return false;
            }
        }
        if (s - 1.0).abs() > tol {
            return false;
        }
        self.shape == Shape::Any || p.windows(2).all(|w| w[0] <= w[1] + tol)
    }

    /// A solver for `max Σ pᵢ gᵢ` over this class.
    pub fn solver(&self) -> Solver {
        Solver::new(self.clone())
    }
}

/// A vector of the class chosen by the [`Solver`].
#[derive(Debug, Clone, PartialEq)]
pub enum Choice {
    /// A mixture of step vectors (sorted class): `(j, r_j)` puts weight `r_j` on the vector
    /// uniform on the 0-based ranks `j..n`.
    Mixture(Vec<(usize, f64)>),
    /// An explicit vector by rank (any class).
    Vector(Vec<f64>),
}

impl Choice {
    /// The allocation vector by rank.
    ///
    /// ```
    /// use balloc::sim::adversary::Choice;
    /// // 1/2 on the uniform vector, 1/2 on the vector uniform on the last two of four ranks.
    /// let c = Choice::Mixture(vec![(0, 0.5), (2, 0.5)]);
    /// assert_eq!(c.vector(4), vec![0.125, 0.125, 0.375, 0.375]);
    /// ```
    pub fn vector(&self, n: usize) -> Vec<f64> {
        match self {
            Choice::Vector(p) => p.clone(),
            Choice::Mixture(parts) => {
                let mut p = vec![0.0; n];
                for &(j, r) in parts {
                    let v = r / (n - j) as f64;
                    p[j..].iter_mut().for_each(|x| *x += v);
                }
                p
            }
        }
    }

    /// Draws a 0-based rank.
    pub fn sample(&self, n: usize, rng: &mut SimRng) -> usize {
        match self {
            Choice::Mixture(parts) => {
                let mut u = unit_f64(rng);
                let mut j = parts[parts.len() - 1].0;
                for &(jj, r) in parts {
                    if u < r {
                        j = jj;
                        break;
                    }
                    u -= r;
                }
                j + below(rng, (n - j) as u64) as usize
            }
            Choice::Vector(p) => {
                let mut u = unit_f64(rng) * p.iter().sum::<f64>();
                for (i, v) in p.iter().enumerate() {
                    if u < *v {
                        return i;
                    }
                    u -= v;
                }
                p.iter().rposition(|v| *v > 0.0).unwrap_or(n - 1)
            }
        }
    }
}

/// Exact maximisation of `Σ pᵢ gᵢ` over a [`Class`] (`docs/derivations.md` §12): the revised
/// simplex method on the three-row LP of the sorted class (started from the basis of `q`, which is
/// feasible because the constraints never change, so the result depends on the gains only), the
/// greedy algorithm of the polymatroid for the unsorted class (ties in the gains by rank).
#[derive(Debug, Clone)]
pub struct Solver {
    class: Class,
    /// The sorted class's basis: three columns (`0..n` the step vectors, `n` and `n + 1` the slacks
    /// of C1 and C2).
    basis: [usize; 3],
    u: Vec<f64>,
    order: Vec<usize>,
    tree: MinTree,
    /// Simplex pivots made so far (for tests and benchmarks).
    pub pivots: u64,
}

/// Relative tolerance of the simplex pricing and ratio tests (gains are scaled to max |g| = 1).
const TOL: f64 = 1e-11;

impl Solver {
    fn new(class: Class) -> Solver {
        let n = class.n;
        let k = class.k;
        Solver {
            // q = (1 − ε)·s₀ + r_K·s_K: C1 tight, C2's slack basic.
            basis: [0, k, n + 1],
            u: vec![0.0; n],
            order: (0..n).collect(),
            tree: MinTree::new(n),
            class,
            pivots: 0,
        }
    }

    /// The class.
    pub fn class(&self) -> &Class {
        &self.class
    }

    /// A vector of the class maximising `Σ pᵢ gᵢ` (`gains` by 0-based rank, finite).
    ///
    /// ```
    /// use balloc::sim::adversary::{Class, Shape};
    /// use balloc::exact::Q;
    /// let q = |a: i64, b: i64| Q::new(a.into(), b.into());
    /// let mut s = Class::new(4, &q(1, 2), &q(1, 4), &q(2, 1), Shape::Sorted).unwrap().solver();
    /// // Gains non-increasing in rank: the optimum is q = (3, 3, 5, 5)/16.
    /// let p = s.maximise(&[4.0, 3.0, 1.0, 0.0]).unwrap().vector(4);
    /// assert!(p.iter().zip([0.1875, 0.1875, 0.3125, 0.3125]).all(|(a, b)| (a - b).abs() < 1e-12));
    /// // Only rank 3 pays: the largest p₃ a sorted vector allows is C/n = 1/2 (with p₄ = 1/2).
    /// let p = s.maximise(&[0.0, 0.0, 1.0, 0.0]).unwrap().vector(4);
    /// assert!(p.iter().zip([0.0, 0.0, 0.5, 0.5]).all(|(a, b)| (a - b).abs() < 1e-12), "{p:?}");
    /// ```
    pub fn maximise(&mut self, gains: &[f64]) -> Result<Choice> {
        let n = self.class.n;
        if gains.len() != n || gains.iter().any(|g| !g.is_finite()) {
            return Err(Error::invalid(
                "adversary",
                format!(
                    "the gains of the {} ranks must be finite numbers (the objective overflows at this state?)",
                    n
                ),
            ));
        }
        let scale = gains.iter().fold(0.0f64, |a, g| a.max(g.abs()));
        let scale = if scale > 0.0 { scale } else { 1.0 };
        match self.class.shape {
            Shape::Sorted => self.simplex(gains, scale),
            Shape::Any => Ok(self.greedy(gains)),
        }
    }

    /// Column `j` of the sorted LP: `(1, v_j, w_j)` for the step vector `s_j` (its sum, its mass
    /// on the first `K` ranks, its largest entry); the slacks' unit columns.
    fn column(&self, j: usize) -> [f64; 3] {
        let (n, k) = (self.class.n, self.class.k);
        if j < n {
            let len = (n - j) as f64;
            [1.0, k.saturating_sub(j) as f64 / len, 1.0 / len]
        } else if j == n {
            [0.0, 1.0, 0.0]
        } else {
            [0.0, 0.0, 1.0]
        }
    }

    fn cost(&self, j: usize) -> f64 {
        if j < self.class.n { self.u[j] } else { 0.0 }
    }

    fn simplex(&mut self, gains: &[f64], scale: f64) -> Result<Choice> {
        let n = self.class.n;
        // Every solve starts from q's basis, so the choice is a function of the gains alone
        // (among several maximisers, the one the pivots reach from q; q itself when it is one).
        self.basis = [0, self.class.k, n + 1];
        // u_j: the average gain over the 0-based ranks j..n (the objective of s_j), scaled.
        let mut acc = 0.0;
        for j in (0..n).rev() {
            acc += gains[j] / scale;
            self.u[j] = acc / (n - j) as f64;
        }
        let rhs = [
            1.0,
            (1.0 - self.class.eps) * self.class.k as f64 / n as f64,
            self.class.c2 / n as f64,
        ];
        let max_pivots = 64 + 8 * n as u64;
        let mut made = 0u64;
        loop {
            let b: Vec<[f64; 3]> = self.basis.iter().map(|&j| self.column(j)).collect();
            let inv = inverse3([b[0], b[1], b[2]]).ok_or_else(|| {
                Error::invalid(
                    "adversary",
                    "the simplex basis became singular (numerical failure)",
                )
            })?;
            let xb: Vec<f64> = (0..3)
                .map(|i| (0..3).map(|r| inv[i][r] * rhs[r]).sum())
                .collect();
            let cb: Vec<f64> = self.basis.iter().map(|&j| self.cost(j)).collect();
            let y: Vec<f64> = (0..3)
                .map(|r| (0..3).map(|i| cb[i] * inv[i][r]).sum())
                .collect();
            // Pricing: Dantzig's rule, Bland's (smallest index) after many pivots (no cycling).
            let bland = made > 2 * n as u64 + 16;
            let mut enter: Option<(usize, f64)> = None;
            for j in 0..n + 2 {
                if self.basis.contains(&j) {
                    continue;
                }
                let a = self.column(j);
                let d = self.cost(j) - (y[0] * a[0] + y[1] * a[1] + y[2] * a[2]);
                if d > TOL && enter.is_none_or(|(_, best)| !bland && d > best) {
                    enter = Some((j, d));
                    if bland {
                        break;
                    }
                }
            }
            let Some((e, _)) = enter else {
                // Optimal: the basic step vectors with their (clamped, renormalised) weights.
                let mut parts: Vec<(usize, f64)> = self
                    .basis
                    .iter()
                    .zip(&xb)
                    .filter(|(j, x)| **j < n && **x > 0.0)
                    .map(|(&j, &x)| (j, x))
                    .collect();
                parts.sort_by_key(|p| p.0);
                let s: f64 = parts.iter().map(|p| p.1).sum();
                if !(s.is_finite() && s > 0.0) {
                    return Err(Error::invalid(
                        "adversary",
                        "the simplex optimum has no step vector (numerical failure)",
                    ));
                }
                parts.iter_mut().for_each(|p| p.1 /= s);
                return Ok(Choice::Mixture(parts));
            };
            let a = self.column(e);
            let dir: Vec<f64> = (0..3)
                .map(|i| (0..3).map(|r| inv[i][r] * a[r]).sum())
                .collect();
            let mut leave: Option<(usize, f64)> = None;
            for i in 0..3 {
                if dir[i] > TOL {
                    let t = xb[i].max(0.0) / dir[i];
                    let better = match leave {
                        None => true,
                        Some((l, best)) => {
                            t < best - 1e-15 || (t <= best + 1e-15 && self.basis[i] < self.basis[l])
                        }
                    };
                    if better {
                        leave = Some((i, t));
                    }
                }
            }
            let Some((l, _)) = leave else {
                return Err(Error::invalid(
                    "adversary",
                    "the class LP is unbounded (impossible: Σ r = 1; numerical failure)",
                ));
            };
            self.basis[l] = e;
            made += 1;
            self.pivots += 1;
            if made > max_pivots {
                return Err(Error::invalid(
                    "adversary",
                    format!(
                        "the simplex method made more than {max_pivots} pivots (numerical failure)"
                    ),
                ));
            }
        }
    }

    fn greedy(&mut self, gains: &[f64]) -> Choice {
        let n = self.class.n;
        self.order
            .sort_by(|&a, &b| gains[b].total_cmp(&gains[a]).then(a.cmp(&b)));
        // slack_k = U_{k+1} − P_{k+1} for the 0-based prefix ending at rank k.
        self.tree.reset(&self.class.prefix);
        let cap = self.class.c2 / n as f64;
        let mut p = vec![0.0; n];
        for idx in 0..n {
            let i = self.order[idx];
            let room = self.tree.min_from(i).max(0.0);
            let v = cap.min(room);
            p[i] = v;
            self.tree.add_from(i, -v);
        }
        Choice::Vector(p)
    }
}

/// The inverse of a 3×3 matrix given by its columns (`None` when singular).
fn inverse3(cols: [[f64; 3]; 3]) -> Option<[[f64; 3]; 3]> {
    // m[r][c] = cols[c][r].
    let m = |r: usize, c: usize| cols[c][r];
    let cof = |r: usize, c: usize| {
        let (r1, r2) = ((r + 1) % 3, (r + 2) % 3);
        let (c1, c2) = ((c + 1) % 3, (c + 2) % 3);
        m(r1, c1) * m(r2, c2) - m(r1, c2) * m(r2, c1)
    };
    let det = m(0, 0) * cof(0, 0) + m(0, 1) * cof(0, 1) + m(0, 2) * cof(0, 2);
    if !det.is_finite() || det.abs() < 1e-300 {
        return None;
    }
    let mut inv = [[0.0; 3]; 3];
    for (r, row) in inv.iter_mut().enumerate() {
        for (c, v) in row.iter_mut().enumerate() {
            *v = cof(c, r) / det;
        }
    }
    Some(inv)
}

/// A segment tree over `n` values with "add to a suffix" and "minimum of a suffix" in O(log n).
#[derive(Debug, Clone)]
struct MinTree {
    n: usize,
    min: Vec<f64>,
    lazy: Vec<f64>,
}

impl MinTree {
    fn new(n: usize) -> MinTree {
        MinTree {
            n,
            min: vec![0.0; 4 * n.max(1)],
            lazy: vec![0.0; 4 * n.max(1)],
        }
    }

    fn reset(&mut self, v: &[f64]) {
        self.lazy.iter_mut().for_each(|x| *x = 0.0);
        self.build(1, 0, self.n, v);
    }

    fn build(&mut self, node: usize, lo: usize, hi: usize, v: &[f64]) {
        if hi - lo == 1 {
            self.min[node] = v[lo];
            return;
        }
        let mid = (lo + hi) / 2;
        self.build(2 * node, lo, mid, v);
        self.build(2 * node + 1, mid, hi, v);
        self.min[node] = self.min[2 * node].min(self.min[2 * node + 1]);
    }

    fn min_from(&self, from: usize) -> f64 {
        self.query(1, 0, self.n, from)
    }

    fn query(&self, node: usize, lo: usize, hi: usize, from: usize) -> f64 {
        if hi <= from {
            return f64::INFINITY;
        }
        if lo >= from {
            return self.min[node];
        }
        let mid = (lo + hi) / 2;
        self.lazy[node]
            + self
                .query(2 * node, lo, mid, from)
                .min(self.query(2 * node + 1, mid, hi, from))
    }

    fn add_from(&mut self, from: usize, d: f64) {
        self.update(1, 0, self.n, from, d);
    }

    fn update(&mut self, node: usize, lo: usize, hi: usize, from: usize, d: f64) {
        if hi <= from {
            return;
        }
        if lo >= from {
            self.min[node] += d;
            self.lazy[node] += d;
            return;
        }
        let mid = (lo + hi) / 2;
        self.update(2 * node, lo, mid, from, d);
        self.update(2 * node + 1, mid, hi, from, d);
        self.min[node] = self.lazy[node] + self.min[2 * node].min(self.min[2 * node + 1]);
    }
}

/// What the adversary optimises: the change of an objective when the ball lands at a rank.
#[derive(Debug, Clone)]
pub enum Objective {
    /// A registered sum-over-bins potential `Σ φ(yᵢ)`: gain `φ(yᵢ + 1 − 1/n) − φ(yᵢ − 1/n)`.
    Potential(Arc<dyn Potential>),
    /// The gap `max x − W/n`: gain 1 on the heaviest tied group, 0 elsewhere.
    Gap,
    /// The fraction of bins with `y ≥ 0` (the simulator's mean quantile): gain
    /// `1{n(xᵢ + 1) ≥ W + 1} − 1{n·xᵢ ≥ W + 1}` (the bin crosses the new mean upwards).
    Overloaded,
}

/// An objective and its direction.
#[derive(Debug, Clone)]
pub struct Aim {
    /// The objective.
    pub objective: Objective,
    /// Minimise instead of maximise (the best member, for lower bounds).
    pub minimise: bool,
    text: String,
}

impl Aim {
    /// Parses `gap`, `overloaded` or a registered sum-over-bins potential (`gamma(alpha=0.5)`),
    /// optionally prefixed by `max:` (the default) or `min:`.
    ///
    /// ```
    /// use balloc::sim::adversary::Aim;
    /// assert_eq!(Aim::parse("min:gap").unwrap().label(), "min gap");
    /// assert_eq!(Aim::parse("gamma(alpha=0.5)").unwrap().label(), "max gamma(alpha=0.5)");
    /// assert!(Aim::parse("mean-quantile").is_err()); // not a sum over bins
    /// ```
    pub fn parse(text: &str) -> Result<Aim> {
        let t = text.trim();
        let (minimise, body) = if let Some(r) = t.strip_prefix("min:") {
            (true, r.trim())
        } else if let Some(r) = t.strip_prefix("max:") {
            (false, r.trim())
        } else {
            (false, t)
        };
        let objective = match body {
            "gap" => Objective::Gap,
            "overloaded" => Objective::Overloaded,
            _ => {
                let p = crate::potential::parse(body).map_err(|e| {
                    Error::invalid(
                        "adversary",
                        format!(
                            "`{}`: {e}; accepted: gap, overloaded or a sum-over-bins potential, with an optional max:/min: prefix",
                            crate::error::excerpt(body)
                        ),
                    )
                })?;
                if p.term(0.0).is_none() {
                    return Err(Error::invalid(
                        "adversary",
                        format!(
                            "`{}` is not a sum over bins; accepted: gap, overloaded or a sum-over-bins potential (phi, psi, gamma, quadratic, absolute, lambda, recovery)",
                            p.spec()
                        ),
                    ));
                }
                Objective::Potential(Arc::from(p))
            }
        };
        let name = match &objective {
            Objective::Potential(p) => p.spec(),
            Objective::Gap => "gap".into(),
            Objective::Overloaded => "overloaded".into(),
        };
        Ok(Aim {
            objective,
            minimise,
            text: format!("{} {name}", if minimise { "min" } else { "max" }),
        })
    }

    /// `max gap`, `min gamma(alpha=0.5)`, ….
    pub fn label(&self) -> &str {
        &self.text
    }

    /// The gain of each 0-based rank at the sorted loads `s` (heaviest first, integers), with the
    /// sign of the direction (the solver maximises). Equal loads get equal gains.
    ///
    /// ```
    /// use balloc::sim::adversary::Aim;
    /// let mut g = Vec::new();
    /// // Loads (3, 3, 1, 1), W/n = 2: the gap rises only for the two heaviest bins.
    /// Aim::parse("gap").unwrap().gains(&[3, 3, 1, 1], &mut g).unwrap();
    /// assert_eq!(g, vec![1.0, 1.0, 0.0, 0.0]);
    /// // Overloaded at loads (2, 2, 1, 1), W + 1 = 7: a bin of load 1 receiving the ball has
    /// // 4·2 = 8 ≥ 7 (it becomes overloaded: gain 1); a bin of load 2 is overloaded either way.
    /// Aim::parse("overloaded").unwrap().gains(&[2, 2, 1, 1], &mut g).unwrap();
    /// assert_eq!(g, vec![0.0, 0.0, 1.0, 1.0]);
    /// ```
    pub fn gains(&self, s: &[i64], out: &mut Vec<f64>) -> Result<()> {
        let n = s.len();
        out.clear();
        out.resize(n, 0.0);
        let w: i128 = s.iter().map(|&v| i128::from(v)).sum();
        let nf = n as f64;
        let mean = w as f64 / nf;
        let mut i = 0;
        while i < n {
            let mut j = i + 1;
            while j < n && s[j] == s[i] {
                j += 1;
            }
            let g = match &self.objective {
                Objective::Gap => {
                    if i == 0 {
                        1.0
                    } else {
                        0.0
                    }
                }
                Objective::Overloaded => {
                    let nn = n as i128;
                    let x = i128::from(s[i]);
                    f64::from(u8::from(nn * (x + 1) > w)) - f64::from(u8::from(nn * x > w))
                }
                Objective::Potential(p) => {
                    let y = s[i] as f64 - mean;
                    match (p.term(y + 1.0 - 1.0 / nf), p.term(y - 1.0 / nf)) {
                        (Some(a), Some(b)) if (a - b).is_finite() => a - b,
                        _ => {
                            return Err(Error::invalid(
                                "adversary",
                                format!(
                                    "{} overflows at a simulated state (y = {y}): choose a smaller parameter",
                                    p.spec()
                                ),
                            ));
                        }
                    }
                }
            };
            let g = if self.minimise { -g } else { g };
            out[i..j].iter_mut().for_each(|v| *v = g);
            i = j;
        }
        Ok(())
    }
}

impl Aim {
    /// The objective's value at the sorted loads `s` (heaviest first), with the sign of the
    /// direction: `Σ φ(yᵢ)`, the gap `max x − W/n`, or the fraction of bins with `y ≥ 0`.
    ///
    /// ```
    /// use balloc::sim::adversary::Aim;
    /// assert_eq!(Aim::parse("gap").unwrap().value(&[3, 1, 1, 1]).unwrap(), 1.5);
    /// assert_eq!(Aim::parse("min:overloaded").unwrap().value(&[3, 1, 1, 1]).unwrap(), -0.25);
    /// assert_eq!(Aim::parse("quadratic").unwrap().value(&[3, 1, 1, 1]).unwrap(), 3.0);
    /// ```
    pub fn value(&self, s: &[i64]) -> Result<f64> {
        let n = s.len();
        let w: i128 = s.iter().map(|&v| i128::from(v)).sum();
        let mean = w as f64 / n as f64;
        let v = match &self.objective {
            Objective::Gap => s[0] as f64 - mean,
            Objective::Overloaded => {
                s.iter()
                    .filter(|&&x| n as i128 * i128::from(x) >= w)
                    .count() as f64
                    / n as f64
            }
            Objective::Potential(p) => {
                let mut acc = 0.0;
                for &x in s {
                    match p.term(x as f64 - mean) {
                        Some(t) if t.is_finite() => acc += t,
                        _ => {
                            return Err(Error::invalid(
                                "adversary",
                                format!(
                                    "{} overflows at a simulated state (y = {}): choose a smaller parameter",
                                    p.spec(),
                                    x as f64 - mean
                                ),
                            ));
                        }
                    }
                }
                acc
            }
        };
        Ok(if self.minimise { -v } else { v })
    }
}

/// The adaptive adversary of a class: at the sorted loads `s` it chooses the vector of the class
/// maximising the expected objective `h` balls ahead (`h` = the lookahead), assuming it chooses
/// the same way at every later ball — backward induction over the next `h` balls, each level a
/// linear maximisation over the class with the continuation values as gains
/// (`docs/derivations.md` §12). With `h = 1` it is myopic (gains: the one-ball change of the
/// objective); with `h` equal to the number of balls left it is the optimal adaptive policy for
/// the objective at the end, and then at least as bad as every member of the class.
///
/// ```
/// use balloc::sim::adversary::{Adversary, Aim, Class, Shape};
/// use balloc::exact::Q;
/// let q = |a: i64, b: i64| Q::new(a.into(), b.into());
/// let class = Class::new(4, &q(1, 2), &q(1, 4), &q(2, 1), Shape::Sorted).unwrap();
/// let mut a = Adversary::new(&class, Aim::parse("gap").unwrap(), 1).unwrap();
/// // From (1, 0, 0, 0) the gap rises iff the heaviest bin gets the ball, which q (the adversary
/// // here) does with probability 3/16: expected max load 1 + 3/16, minus W/n = 1/2.
/// assert!((a.value(&[1, 0, 0, 0], 1).unwrap() - (1.0 + 3.0 / 16.0 - 0.5)).abs() < 1e-12);
/// ```
#[derive(Debug, Clone)]
pub struct Adversary {
    aim: Aim,
    solver: Solver,
    lookahead: usize,
    gains: Vec<f64>,
}

/// The largest lookahead of an adversary (the cost grows like `(tied groups)^h` per ball).
pub const MAX_LOOKAHEAD: usize = 4;

impl Adversary {
    /// An adversary of `class` for `aim` looking `lookahead ∈ 1..=MAX_LOOKAHEAD` balls ahead.
    pub fn new(class: &Class, aim: Aim, lookahead: usize) -> Result<Adversary> {
        if !(1..=MAX_LOOKAHEAD).contains(&lookahead) {
            return Err(Error::invalid(
                "lookahead",
                format!("must lie in 1..={MAX_LOOKAHEAD} balls, got {lookahead}"),
            ));
        }
        Ok(Adversary {
            gains: Vec::with_capacity(class.n),
            solver: class.solver(),
            aim,
            lookahead,
        })
    }

    /// The vector chosen at the sorted loads `s` (heaviest first).
    pub fn choose(&mut self, s: &[i64]) -> Result<Choice> {
        self.choose_with(s, self.lookahead)
    }

    /// The vector chosen at `s` looking `h ≥ 1` balls ahead.
    pub fn choose_with(&mut self, s: &[i64], h: usize) -> Result<Choice> {
        if h <= 1 {
            let mut g = std::mem::take(&mut self.gains);
            let r = self
                .aim
                .gains(s, &mut g)
                .and_then(|_| self.solver.maximise(&g));
            self.gains = g;
            return r;
        }
        let g = self.continuation(s, h)?;
        self.solver.maximise(&g)
    }

    /// The gains of a choice `h ≥ 2` balls ahead: for each rank, the value of the state the ball
    /// leads to, `h − 1` balls ahead, minus the value here (a constant shift).
    fn continuation(&mut self, s: &[i64], h: usize) -> Result<Vec<f64>> {
        let n = s.len();
        let mut t = s.to_vec();
        let here = self.aim.value(s)?;
        let mut g = vec![0.0; n];
        let mut i = 0;
        while i < n {
            let mut j = i + 1;
            while j < n && s[j] == s[i] {
                j += 1;
            }
            t[i] += 1; // the first bin of the tied block: t stays sorted
            let v = self.value(&t, h - 1)? - here;
            t[i] -= 1;
            g[i..j].iter_mut().for_each(|x| *x = v);
            i = j;
        }
        Ok(g)
    }

    /// The expected objective `h` balls after the sorted loads `s` when the adversary looks
    /// `h, h − 1, …, 1` balls ahead at the successive balls (the optimal adaptive policy over those
    /// `h` balls); `h = 0` is the objective at `s`. Cost: `(tied groups)^h` linear maximisations.
    pub fn value(&mut self, s: &[i64], h: usize) -> Result<f64> {
        if h == 0 {
            return self.aim.value(s);
        }
        let n = s.len();
        if h >= 2 {
            let here = self.aim.value(s)?;
            let g = self.continuation(s, h)?;
            let p = self.solver.maximise(&g)?.vector(n);
            return Ok(here + p.iter().zip(&g).map(|(a, b)| a * b).sum::<f64>());
        }
        let p = self.choose_with(s, 1)?.vector(n);
        let mut t = s.to_vec();
        let mut acc = 0.0;
        let mut i = 0;
        while i < n {
            let mut j = i + 1;
            while j < n && s[j] == s[i] {
                j += 1;
            }
            let mass: f64 = p[i..j].iter().sum();
            if mass > 0.0 {
                t[i] += 1;
                acc += mass * self.aim.value(&t)?;
                t[i] -= 1;
            }
            i = j;
        }
        Ok(acc)
    }
}

/// Who allocates in a [`ClassModel`].
#[derive(Debug, Clone)]
pub enum Policy {
    /// A fixed member of the class (a vector by rank), with its label.
    Fixed {
        /// Its label (`q(delta=1/2,eps=1/4)`, `step(…)`, `random#0`).
        label: String,
        /// The vector by rank.
        p: Vec<f64>,
    },
    /// The adaptive adversary with its lookahead (1 = myopic).
    Adversary(Aim, usize),
}

/// A member of a class, or its adversary, as a simulation model: unit weights, sequential
/// (`batch = 1`) or batched (the vector chosen at the batch's start and frozen for its balls,
/// ranks of the frozen loads mapped to bins by the tie rule).
///
/// ```
/// use balloc::sim::adversary::{Aim, Class, ClassModel, Policy, Shape};
/// use balloc::sim::{simulate, Plan};
/// use balloc::exact::Q;
/// let q = |a: i64, b: i64| Q::new(a.into(), b.into());
/// let class = Class::new(8, &q(1, 2), &q(1, 4), &q(2, 1), Shape::Sorted).unwrap();
/// let adv = ClassModel::new(class, Policy::Adversary(Aim::parse("gap").unwrap(), 1), 1,
///     balloc::loads::TieRule::Random).unwrap();
/// let out = simulate(&adv, &Plan::new(80, 4, 1), &|| {}).unwrap();
/// // 80 balls in 8 bins: W/n = 10 and the max load is an integer ≥ 10.
/// assert!(out.runs.iter().all(|r| r.final_gap >= 0.0 && r.final_gap.fract() == 0.0));
/// ```
#[derive(Debug, Clone)]
pub struct ClassModel {
    class: Class,
    policy: Policy,
    batch: u64,
    ties: TieRule,
}

impl ClassModel {
    /// A model of `policy` in `class`; a fixed vector must lie in the class (tolerance 10⁻⁹).
    pub fn new(class: Class, policy: Policy, batch: u64, ties: TieRule) -> Result<ClassModel> {
        if batch == 0 {
            return Err(Error::invalid("batch", "must be at least 1, got 0"));
        }
        if let Policy::Fixed { label, p } = &policy
            && !class.contains(p, 1e-9)
        {
            return Err(Error::invalid(
                "class member",
                format!("`{label}` does not lie in {}", class.text()),
            ));
        }
        Ok(ClassModel {
            class,
            policy,
            batch,
            ties,
        })
    }

    /// The member's label: the vector's label or `adversary(max gap)`.
    pub fn member(&self) -> String {
        match &self.policy {
            Policy::Fixed { label, .. } => label.clone(),
            Policy::Adversary(a, 1) => format!("adversary({})", a.label()),
            Policy::Adversary(a, h) => format!("adversary({}, lookahead {h})", a.label()),
        }
    }
}

impl Model for ClassModel {
    fn key(&self) -> String {
        format!(
            "{};member={};n={};batch={};ties={}",
            self.class.text(),
            self.member(),
            self.class.n,
            self.batch,
            self.ties.name()
        )
    }
    fn describe(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("class".into(), json!(self.class.text()));
        m.insert("member".into(), json!(self.member()));
        m.insert("n".into(), json!(self.class.n));
        m.insert("batch".into(), json!(self.batch));
        m.insert("ties".into(), json!(self.ties.name()));
        m
    }
    fn n(&self) -> usize {
        self.class.n
    }
    fn batch(&self) -> u64 {
        self.batch
    }
    fn build(&self) -> Result<Box<dyn System>> {
        self.build_from(&Loads::zeros(self.class.n)?)
    }
    fn build_from(&self, start: &Loads) -> Result<Box<dyn System>> {
        let n = self.class.n;
        if start.n() != n {
            return Err(Error::invalid(
                "start",
                format!("the load vector has {} entries for n = {n} bins", start.n()),
            ));
        }
        let mut s = Vec::with_capacity(n);
        for &x in start.as_slice() {
            if x.fract() != 0.0 || !(0.0..=9.0e15).contains(&x) {
                return Err(Error::invalid(
                    "start",
                    format!("class members run on integer loads in [0, 9·10^15], got {x}"),
                ));
            }
            s.push(x as i64);
        }
        s.sort_unstable_by(|a, b| b.cmp(a));
        let total = s.iter().map(|&v| i128::from(v)).sum();
        let pick = match &self.policy {
            Policy::Fixed { p, .. } => Pick::Fixed(Alias::new(p)?),
            Policy::Adversary(a, h) => {
                Pick::Adversary(Box::new(Adversary::new(&self.class, a.clone(), *h)?))
            }
        };
        Ok(Box::new(ClassSystem {
            s,
            total,
            balls: 0,
            batch: self.batch,
            ties: self.ties,
            pick,
            inc: vec![0; if self.batch > 1 { n } else { 0 }],
        }))
    }
}

enum Pick {
    Fixed(Alias),
    Adversary(Box<Adversary>),
}

/// The running state of a [`ClassModel`]: the loads sorted heaviest first (bins are exchangeable
/// for rank-based allocation, so the sorted vector is the whole state).
struct ClassSystem {
    s: Vec<i64>,
    total: i128,
    balls: u64,
    batch: u64,
    ties: TieRule,
    pick: Pick,
    inc: Vec<u32>,
}

impl ClassSystem {
    /// The first index of the tied block of rank `r` (loads sorted decreasingly).
    fn block_start(&self, r: usize) -> usize {
        let v = self.s[r];
        self.s.partition_point(|&x| x > v)
    }

    fn block_end(&self, r: usize) -> usize {
        let v = self.s[r];
        self.s.partition_point(|&x| x >= v)
    }

    /// One observation interval: one ball, or one batch on the frozen loads.
    fn interval(&mut self, rng: &mut SimRng) -> Result<()> {
        let n = self.s.len();
        let choice = match &mut self.pick {
            Pick::Fixed(_) => None,
            Pick::Adversary(a) => Some(a.choose(&self.s)?),
        };
        let draw = |rng: &mut SimRng, pick: &Pick| -> usize {
            match (pick, &choice) {
                (Pick::Fixed(a), _) => a.sample(rng),
                (_, Some(c)) => c.sample(n, rng),
                _ => unreachable!("the adversary always has a choice"),
            }
        };
        if self.batch == 1 {
            let r = draw(rng, &self.pick);
            let pos = self.block_start(r);
            self.s[pos] += 1;
        } else {
            for _ in 0..self.batch {
                let r = draw(rng, &self.pick);
                let pos = match self.ties {
                    TieRule::Fixed => r,
                    TieRule::Random => {
                        let (lo, hi) = (self.block_start(r), self.block_end(r));
                        lo + below(rng, (hi - lo) as u64) as usize
                    }
                };
                self.inc[pos] += 1;
            }
            for (x, d) in self.s.iter_mut().zip(self.inc.iter_mut()) {
                *x += i64::from(*d);
                *d = 0;
            }
            self.s.sort_unstable_by(|a, b| b.cmp(a));
        }
        self.balls += self.batch;
        self.total += i128::from(self.batch);
        Ok(())
    }
}

impl System for ClassSystem {
    fn n(&self) -> usize {
        self.s.len()
    }
    fn balls(&self) -> u64 {
        self.balls
    }
    fn steps(&self) -> u64 {
        self.balls
    }
    fn total(&self) -> f64 {
        self.total as f64
    }
    fn max_load(&self) -> f64 {
        self.s[0] as f64
    }
    fn min_load(&self) -> f64 {
        self.s[self.s.len() - 1] as f64
    }
    fn run_until(&mut self, balls: u64, rng: &mut SimRng) -> Result<f64> {
        let nf = self.s.len() as f64;
        let mut worst = f64::NEG_INFINITY;
        while self.balls < balls {
            self.interval(rng)?;
            worst = worst.max(self.s[0] as f64 - self.total as f64 / nf);
        }
        Ok(worst)
    }
    fn levels(&self) -> Vec<(f64, u64)> {
        let mut out: Vec<(f64, u64)> = Vec::new();
        for &x in &self.s {
            match out.last_mut() {
                Some((v, c)) if *v == x as f64 => *c += 1,
                _ => out.push((x as f64, 1)),
            }
        }
        out
    }
}
