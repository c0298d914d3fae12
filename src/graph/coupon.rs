//! The coupon-collector step of Bansal–Feldheim's lower bounds (arXiv v2, Theorem 1.2 and
//! footnote 2 of §4.1): each step requests a uniform edge of `G`; the probability that after `T`
//! steps some vertex has had **none** of its incident edges requested, exactly, by
//! inclusion–exclusion:
//!
//! `P[∃v untouched] = Σ_{∅≠U⊆V} (−1)^{|U|+1} (1 − e(U)/m)^T`,
//!
//! `e(U)` the number of edges with an endpoint in `U` (all of `U` is untouched iff no such edge is
//! requested). Grouping the sets by `e(U)` gives signed counts `c_e = Σ_{e(U)=e} (−1)^{|U|+1}` and
//! `P = Σ_e c_e (m − e)^T / m^T`, a rational computed exactly. The counts come from a transfer
//! matrix on cycles (`O(n²)`), from binomials on complete graphs (`e(U) = m − C(n − |U|, 2)`), and
//! from a Gray-code walk over all `2^n` vertex sets otherwise (`docs/derivations.md` §13).
//!
//! Why it is a bound for **every** strategy: an untouched vertex's load cannot change whatever the
//! strategy decides, so from the empty start it holds 0 balls at time `T` while some vertex holds at
//! least `⌈T/n⌉`: `P[max L − min L ≥ ⌈T/n⌉] ≥ P[∃v untouched]` for every strategy.

use super::Graph;
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use num_bigint::BigInt;
use num_traits::{One, Zero};

/// How the signed counts were obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// Transfer matrix around a cycle.
    Cycle,
    /// Binomial counts of a complete graph.
    Complete,
    /// All `2^n` vertex sets.
    Enumeration,
}

impl Route {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Route::Cycle => "transfer matrix (cycle)",
            Route::Complete => "binomial counts (complete graph)",
            Route::Enumeration => "inclusion–exclusion over every vertex set",
        }
    }
}

/// The signed counts `c_e = Σ_{∅≠U, e(U)=e} (−1)^{|U|+1}` for `e = 0..=m`.
#[derive(Debug, Clone, PartialEq)]
pub struct SignedCounts {
    /// `c_e` by `e`.
    pub counts: Vec<BigInt>,
    /// How they were computed.
    pub route: Route,
}

fn connected(g: &Graph) -> bool {
    let mut seen = vec![false; g.n()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(v) = stack.pop() {
        for &(w, _) in g.neighbours(v) {
            if !seen[w] {
                seen[w] = true;
                stack.push(w);
            }
        }
    }
    seen.into_iter().all(|s| s)
}

/// The work of [`signed_counts`] on `g` (the unit of [`crate::limits::COUPON_WORK`]).
pub fn counts_work(g: &Graph) -> u128 {
    let n = g.n();
    match route(g) {
        Route::Complete => n as u128,
        Route::Cycle => (n as u128) * (n as u128),
        Route::Enumeration => {
            if n >= 100 {
                u128::MAX
            } else {
                (1u128 << n) * (g.m() as u128 * 2 / n as u128 + 1)
            }
        }
    }
}

fn route(g: &Graph) -> Route {
    let n = g.n();
    match g.regular_degree() {
        Some(d) if d + 1 == n => Route::Complete,
        Some(2) if n >= 3 && connected(g) => Route::Cycle,
        _ => Route::Enumeration,
    }
}

/// The signed counts of `g`, by the fastest exact route; `route` may be forced to
/// [`Route::Enumeration`] (`force_enumeration`, for tests: the routes must agree).
///
/// ```
/// use balloc::graph::{Graph, coupon::signed_counts};
/// // C₃: a single vertex covers 2 edges, two vertices or all three cover 3:
/// // c₂ = +3, c₃ = −3 + 1 = −2.
/// let c = signed_counts(&Graph::cycle(3).unwrap(), false).unwrap();
/// assert_eq!(c.counts, vec![0.into(), 0.into(), 3.into(), (-2).into()]);
/// ```
pub fn signed_counts(g: &Graph, force_enumeration: bool) -> Result<SignedCounts> {
    let r = if force_enumeration {
        Route::Enumeration
    } else {
        route(g)
    };
    let work = match r {
        Route::Enumeration if g.n() < 100 => {
            (1u128 << g.n()) * (g.m() as u128 * 2 / g.n() as u128 + 1)
        }
        Route::Enumeration => u128::MAX,
        _ => counts_work(g),
    };
    crate::limits::COUPON_WORK.check_u128(
        &format!(
            "graph `{}`: the coupon-collector counts ({})",
            g.name(),
            r.name()
        ),
        work,
    )?;
    let counts = match r {
        Route::Complete => complete(g.n()),
        Route::Cycle => cycle(g.n()),
        Route::Enumeration => enumerate(g),
    };
    Ok(SignedCounts { counts, route: r })
}

fn binomial(n: usize, k: usize) -> BigInt {
    let mut c = BigInt::one();
    for i in 0..k {
        c = c * BigInt::from(n - i) / BigInt::from(i + 1);
    }
    c
}

/// `K_n`: `e(U) = m − C(n − j, 2)` for `|U| = j`.
fn complete(n: usize) -> Vec<BigInt> {
    let m = n * (n - 1) / 2;
    let mut c = vec![BigInt::zero(); m + 1];
    for j in 1..=n {
        let e = m - (n - j) * (n - j).saturating_sub(1) / 2;
        let sign = if j % 2 == 1 { 1 } else { -1 };
        c[e] += binomial(n, j) * sign;
    }
    c
}

/// `C_n` (`n ≥ 3`): a transfer matrix over the vertices in order; state = whether the vertex is in
/// `U`, the edge to the next vertex covered iff either end is; the first vertex's state closes the
/// cycle. Polynomials in `z` (the covered edges) with signed integer coefficients.
fn cycle(n: usize) -> Vec<BigInt> {
    let mut total = vec![BigInt::zero(); n + 1];
    for first in 0..2usize {
        // dp[a][e]: the signed count over vertices 0..=i with vertex i in state a, e edges covered.
        let mut dp = [vec![BigInt::zero(); n + 1], vec![BigInt::zero(); n + 1]];
        // The first vertex's sign: −1 when it is in U.
        dp[first][0] = if first == 1 {
            -BigInt::one()
        } else {
            BigInt::one()
        };
        for _ in 1..n {
            let mut next = [vec![BigInt::zero(); n + 1], vec![BigInt::zero(); n + 1]];
            for (a, row) in dp.iter().enumerate() {
                for (e, c) in row.iter().enumerate().take(n) {
                    if c.is_zero() {
                        continue;
                    }
                    for (b, nb) in next.iter_mut().enumerate() {
                        let covered = usize::from(a == 1 || b == 1);
                        let v = if b == 1 { -c.clone() } else { c.clone() };
                        nb[e + covered] += v;
                    }
                }
            }
            dp = next;
        }
        for (a, row) in dp.iter().enumerate() {
            let covered = usize::from(a == 1 || first == 1);
            for e in 0..n {
                if !row[e].is_zero() {
                    total[e + covered] += &row[e];
                }
            }
        }
    }
    // total = Σ_U (−1)^{|U|} z^{e(U)} over every U, the empty set included (+1 at e = 0); the
    // counts are −total without the empty set.
    for v in total.iter_mut() {
        *v = -v.clone();
    }
    total[0] += BigInt::one();
    total
}

/// Every vertex set, in Gray-code order, with `e(U)` updated per flipped vertex.
fn enumerate(g: &Graph) -> Vec<BigInt> {
    let n = g.n();
    let m = g.m();
    let mut c = vec![0i64; m + 1];
    let mut inside = vec![false; n];
    let mut e = 0usize;
    let mut size = 0usize;
    for step in 1u64..(1u64 << n) {
        let v = step.trailing_zeros() as usize;
        // Edges from v to vertices outside U are covered by v alone.
        let alone = g.neighbours(v).iter().filter(|&&(w, _)| !inside[w]).count();
        if inside[v] {
            inside[v] = false;
            size -= 1;
            e -= alone;
        } else {
            inside[v] = true;
            size += 1;
            e += alone;
        }
        c[e] += if size % 2 == 1 { 1 } else { -1 };
    }
    c.into_iter().map(BigInt::from).collect()
}

/// `P[some vertex has none of its incident edges requested in T steps]`, exactly.
///
/// ```
/// use balloc::graph::{Graph, coupon::untouched};
/// use balloc::exact::Q;
/// // The single edge (n = 2): every step touches both vertices: P = 0 for T ≥ 1, 1 for T = 0.
/// let g = Graph::cycle(2).unwrap();
/// assert_eq!(untouched(&g, 1).unwrap(), Q::from_integer(0.into()));
/// assert_eq!(untouched(&g, 0).unwrap(), Q::from_integer(1.into()));
/// // C₃, T = 2: the two requested edges leave a vertex untouched iff they are equal: 1/3.
/// assert_eq!(untouched(&Graph::cycle(3).unwrap(), 2).unwrap(), Q::new(1.into(), 3.into()));
/// ```
pub fn untouched(g: &Graph, t: u64) -> Result<Q> {
    if g.m() == 0 {
        return Err(Error::invalid(
            format!("graph `{}`", g.name()),
            "has no edge: no step can be taken",
        ));
    }
    crate::limits::COUPON_WORK.check_u128(
        &format!("graph `{}`, T = {t}: the exact sum (m + 1)·T", g.name()),
        (g.m() as u128 + 1) * u128::from(t.max(1)),
    )?;
    let c = signed_counts(g, false)?;
    Ok(sum(&c.counts, g.m(), t))
}

/// `Σ_e c_e (m − e)^T / m^T`.
pub fn sum(counts: &[BigInt], m: usize, t: u64) -> Q {
    let exp = u32::try_from(t).unwrap_or(u32::MAX);
    let mut num = BigInt::zero();
    for (e, c) in counts.iter().enumerate() {
        if !c.is_zero() && e < m {
            num += c * BigInt::from(m - e).pow(exp);
        } else if !c.is_zero() && e == m && t == 0 {
            num += c;
        }
    }
    let den = BigInt::from(m).pow(exp);
    Q::new(Int::from(num), Int::from(den))
}
