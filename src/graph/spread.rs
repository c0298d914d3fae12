//! The spread `max L − min L` at **any** time `t`, for **every** strategy, on vertex-transitive
//! regular graphs: the coupon-collector step of Bansal–Feldheim's Theorem 1.2 (arXiv:2106.06051
//! v2, §1 and §4.1) made free of the start state, derived here.
//!
//! Look at the state at `t − T`, which the last `T` requests do not depend on, with mean
//! `μ = (t − T)/n`, and let `0 ≤ x = b − y`.
//! * If some vertex `w` is then at most `μ − x`, it gains at `t` only the balls of the requests
//!   touching it, `B ~ Bin(T, d/m)`; the heaviest vertex holds at least `t/n`, so
//!   `max − min ≥ x + T/n − B`, which is at least `T/n − y` when `B ≤ b`.
//! * Otherwise every vertex is above `μ − x`. Take a vertex `v*` uniformly among those none of whose
//!   edges is requested in the window (if there is one). On a vertex-transitive graph the law of
//!   the untouched set is invariant under the automorphisms, so `v*` is a uniform vertex,
//!   independent of the state: `Z = L(v*) − μ` has mean 0 and `Z > −x`, hence `Z < y` with
//!   probability at least `y/(x + y) = y/b` (Markov on `Z + x`). Its load does not change in the
//!   window, so `min L_t < μ + y` while `max L_t ≥ μ + T/n`.
//!
//! So `P[max L_t − min L_t ≥ T/n − y] ≥ min(P[B ≤ b], P[∃ untouched]·y/b)` for every strategy and
//! every `t ≥ T`, with `P[∃ untouched]` bounded below by the second-moment inequality: with
//! `U` the number of untouched vertices, `P[U ≥ 1] ≥ E[U]²/E[U²]`, `E[U] = n(1 − d/m)^T` and
//! `E[U²] = E[U] + 2m(1 − (2d − 1)/m)^T + (n(n − 1) − 2m)(1 − 2d/m)^T` (two adjacent vertices share
//! one edge, two others none). With `T = (n ln n)/2` the untouched set is non-empty with probability
//! about `1 − 1/e`, and `T/n − y = Ω(log n)`: the `Ω(log n)` of Theorem 1.2 at every `t`.

use super::{Family, Graph};
use crate::enclosure::Interval;
use crate::error::{Error, Result};
use crate::exact::{Int, Q};

/// `(1 − k/m)^T` enclosed (0 when `k ≥ m`).
fn missed(k: u64, m: u64, t: u64, prec: u64) -> Interval {
    if k >= m {
        return Interval::from_rational(&Q::from_integer(Int::from(0u32)), prec);
    }
    Interval::from_rational(&Q::new(Int::from(m - k), Int::from(m)), prec).pow_nonneg(t, prec)
}

/// The degree of a regular graph with edges, or an error naming `what`.
fn degree(g: &Graph, what: &str) -> Result<u64> {
    match g.regular_degree() {
        Some(d) if d > 0 => Ok(d as u64),
        _ => Err(Error::invalid(
            what,
            format!("graph `{}` is not regular with edges", g.name()),
        )),
    }
}

/// A lower bound on `P[some vertex has none of its edges requested]` after `T` uniform edge
/// requests on a `d`-regular graph, by the second-moment inequality (module documentation),
/// enclosed at `prec` bits.
///
/// ```
/// use balloc::graph::{Graph, spread::untouched_lower_bound};
/// use balloc::exact::Q;
/// // C₄, T = 2: E[U] = 4·(1/2)² = 1; adjacent pairs (8 ordered) both untouched (1/4)² = 1/16,
/// // opposite pairs never (every edge touches one of them): E[U²] = 1 + 8/16 = 3/2, so the bound
/// // is 1/(3/2) = 2/3 — below the exact 3/4 (`graph::coupon::untouched`).
/// let b = untouched_lower_bound(&Graph::cycle(4).unwrap(), 2, 64).unwrap();
/// assert!(b.contains(&Q::new(2.into(), 3.into())));
/// ```
pub fn untouched_lower_bound(g: &Graph, t: u64, prec: u64) -> Result<Interval> {
    let d = degree(g, "untouched lower bound")?;
    let (n, m) = (g.n() as u64, g.m() as u64);
    let q = |k: u64| Q::from_integer(Int::from(k));
    let e1 = missed(d, m, t, prec).mul_rational(&q(n), prec);
    if *e1.hi() <= 0u32 {
        return Interval::from_f64(0.0);
    }
    let adjacent = missed(2 * d - 1, m, t, prec).mul_rational(&q(2 * m), prec);
    let apart = missed(2 * d, m, t, prec).mul_rational(&q(n * (n - 1) - 2 * m), prec);
    let e2 = e1.add(&adjacent, prec).add(&apart, prec);
    e1.mul(&e1, prec).div(&e2, prec)
}

/// A lower bound on `P[max L_t − min L_t ≥ T/n − y]` for **every allocation strategy** and every
/// `t ≥ T` on a vertex-transitive regular graph (the cycles, tori, hypercubes and complete graphs
/// of [`Family`]): `min(P[Bin(T, d/m) ≤ b], untouched_lower_bound·y/b)`, `1 ≤ y ≤ b` (module
/// documentation), enclosed at `prec` bits.
///
/// ```
/// use balloc::graph::{Graph, spread::spread_lower_bound};
/// use balloc::exact::Q;
/// // C₄, T = 2, b = y = 1: P[Bin(2, 1/2) ≤ 1] = 3/4 and (2/3)·1, so the bound is 2/3.
/// let b = spread_lower_bound(&Graph::cycle(4).unwrap(), 2, 1, 1, 64).unwrap();
/// assert!(b.contains(&Q::new(2.into(), 3.into())));
/// // A random regular graph is not known to be vertex-transitive: refused.
/// let g = balloc::graph::Graph::random_regular(10, 3, 1).unwrap();
/// assert!(spread_lower_bound(&g, 2, 1, 1, 64).is_err());
/// ```
pub fn spread_lower_bound(g: &Graph, t: u64, b: u64, y: u64, prec: u64) -> Result<Interval> {
    let what = "strategy-free spread bound";
    if t == 0 || y == 0 || y > b {
        return Err(Error::invalid(
            what,
            format!("needs T ≥ 1 and 1 ≤ y ≤ b, got T = {t}, b = {b}, y = {y}"),
        ));
    }
    if !matches!(
        g.family(),
        Family::Cycle | Family::Torus { .. } | Family::Hypercube { .. } | Family::Complete
    ) {
        return Err(Error::invalid(
            what,
            format!(
                "graph `{}` is not a cycle, torus, hypercube or complete graph (the bound needs a \
                 vertex-transitive graph)",
                g.name()
            ),
        ));
    }
    crate::limits::BINOMIAL_TRIALS.check("binomial tail T", t)?;
    let d = degree(g, what)?;
    let m = g.m() as u64;
    let touched = if d >= m {
        // Every request touches every vertex (K₂): B = T.
        Interval::from_f64(if t <= b { 1.0 } else { 0.0 })?
    } else {
        let p = Q::new(Int::from(d), Int::from(m));
        let above = super::binomial::upper_tail(t, &p, b + 1, prec)?;
        Interval::from_f64(1.0)?.sub(&above, prec)
    };
    let untouched =
        untouched_lower_bound(g, t, prec)?.mul_rational(&Q::new(Int::from(y), Int::from(b)), prec);
    Ok(touched.min(&untouched))
}
