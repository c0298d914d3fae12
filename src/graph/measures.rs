//! Structural measures of a graph: edge connectivity `k`, edge expansion (exact for small graphs),
//! the spectral gap of the Laplacian, and the largest uniform drift a capacity-1 flow can realise
//! for a sign pattern (the obstruction of C §1.2).
//!
//! Reference: Bansal–Feldheim (arXiv:2106.06051 v2): `k` in Theorem 1.1, the expansion
//! normalisation `E(S, S̄) ≥ βd|S|` for `|S| ≤ n/2` in footnote 1, the cycle obstruction in §1.2
//! ("the total flow that can cross the cut separating the two halves is at most 2").

use super::Graph;
use crate::error::{Error, Result};
use num_bigint::BigInt;
use num_rational::BigRational;

/// Maximum `s`–`t` flow value in a directed network with integer capacities (Edmonds–Karp).
/// `arcs` are `(from, to, capacity)`.
///
/// ```
/// // Two disjoint paths 0→1→3 and 0→2→3 of capacity 1 and 2.
/// let f = balloc::graph::measures::max_flow(4, &[(0, 1, 1), (1, 3, 1), (0, 2, 2), (2, 3, 5)], 0, 3);
/// assert_eq!(f, 3);
/// ```
pub fn max_flow(n: usize, arcs: &[(usize, usize, i64)], s: usize, t: usize) -> i64 {
    // Residual graph as adjacency lists over arc indices (arc 2j forward, 2j+1 backward).
    let mut to = Vec::with_capacity(2 * arcs.len());
    let mut cap = Vec::with_capacity(2 * arcs.len());
    let mut adj = vec![Vec::new(); n];
    for &(a, b, c) in arcs {
        adj[a].push(to.len());
        to.push(b);
        cap.push(c);
        adj[b].push(to.len());
        to.push(a);
        cap.push(0);
    }
    let mut total = 0;
    loop {
        let mut pred = vec![usize::MAX; n];
        let mut queue = std::collections::VecDeque::from([s]);
        let mut seen = vec![false; n];
        seen[s] = true;
        while let Some(u) = queue.pop_front() {
            for &a in &adj[u] {
                if cap[a] > 0 && !seen[to[a]] {
                    seen[to[a]] = true;
                    pred[to[a]] = a;
                    queue.push_back(to[a]);
                }
            }
        }
        if !seen[t] {
            return total;
        }
        let mut bottleneck = i64::MAX;
        let mut v = t;
        while v != s {
            let a = pred[v];
            bottleneck = bottleneck.min(cap[a]);
            v = to[a ^ 1];
        }
        let mut v = t;
        while v != s {
            let a = pred[v];
            cap[a] -= bottleneck;
            cap[a ^ 1] += bottleneck;
            v = to[a ^ 1];
        }
        total += bottleneck;
    }
}

/// The edge connectivity `k`: the fewest edges whose removal disconnects the graph (0 if it is
/// disconnected), as `min_v maxflow(0, v)` with unit capacities in both directions.
///
/// ```
/// use balloc::graph::{Graph, measures::edge_connectivity};
/// assert_eq!(edge_connectivity(&Graph::cycle(9).unwrap()), 2);
/// assert_eq!(edge_connectivity(&Graph::hypercube(3).unwrap()), 3);
/// assert_eq!(edge_connectivity(&Graph::path(4).unwrap()), 1);
/// ```
pub fn edge_connectivity(g: &Graph) -> usize {
    let arcs: Vec<(usize, usize, i64)> = g
        .edges()
        .iter()
        .flat_map(|&(a, b)| [(a, b, 1), (b, a, 1)])
        .collect();
    (1..g.n())
        .map(|v| max_flow(g.n(), &arcs, 0, v) as usize)
        .min()
        .unwrap_or(0)
}

/// The largest `n` for which exhaustive subset enumeration is done.
pub const EXHAUSTIVE_LIMIT: usize = 20;

/// The edge expansion `h(G) = min_{1 ≤ |S| ≤ n/2} |∂S|/|S|` with a minimising set (as a bit mask),
/// exact, by enumeration of all subsets (`n ≤ 20`). C's normalisation is `β = h/d` (footnote 1).
///
/// ```
/// use balloc::graph::{Graph, measures::edge_expansion};
/// // C_8: the best set is an arc of 4 vertices with 2 boundary edges, h = 2/4.
/// let (h, _) = edge_expansion(&Graph::cycle(8).unwrap()).unwrap();
/// assert_eq!(h, num_rational::BigRational::new(1.into(), 2.into()));
/// ```
pub fn edge_expansion(g: &Graph) -> Result<(BigRational, u32)> {
    let n = g.n();
    if !(2..=EXHAUSTIVE_LIMIT).contains(&n) {
        return Err(Error::invalid(
            "edge expansion",
            format!("exact enumeration needs 2 ≤ n ≤ {EXHAUSTIVE_LIMIT}, got n = {n}"),
        ));
    }
    let mut best: Option<(BigRational, u32)> = None;
    for mask in 1u32..(1u32 << n) {
        let size = mask.count_ones() as usize;
        if 2 * size > n {
            continue;
        }
        let cut = boundary(g, mask);
        let v = BigRational::new(BigInt::from(cut), BigInt::from(size));
        if best.as_ref().is_none_or(|(b, _)| v < *b) {
            best = Some((v, mask));
        }
    }
    Ok(best.expect("n ≥ 2 has a set of size 1"))
}

/// `|∂S|` for the set `S` given as a bit mask.
pub fn boundary(g: &Graph, mask: u32) -> usize {
    g.edges()
        .iter()
        .filter(|&&(a, b)| ((mask >> a) & 1) != ((mask >> b) & 1))
        .count()
}

/// The Laplacian `L = D − A` as a dense matrix.
pub fn laplacian(g: &Graph) -> nalgebra::DMatrix<f64> {
    let n = g.n();
    let mut l = nalgebra::DMatrix::zeros(n, n);
    for &(a, b) in g.edges() {
        l[(a, a)] += 1.0;
        l[(b, b)] += 1.0;
        l[(a, b)] -= 1.0;
        l[(b, a)] -= 1.0;
    }
    l
}

/// The spectral gap `λ₂` of the Laplacian `L = D − A` (its second smallest eigenvalue; 0 iff the
/// graph is disconnected), with nalgebra's symmetric eigensolver (`n ≤ 3000`).
///
/// ```
/// use balloc::graph::{Graph, measures::spectral_gap};
/// // C_n: λ₂ = 2 − 2cos(2π/n); n = 6 gives 1.
/// assert!((spectral_gap(&Graph::cycle(6).unwrap()).unwrap() - 1.0).abs() < 1e-12);
/// ```
pub fn spectral_gap(g: &Graph) -> Result<f64> {
    if g.n() > 3000 {
        return Err(Error::invalid(
            "spectral gap",
            format!("dense eigensolver limited to n ≤ 3000, got {}", g.n()),
        ));
    }
    if g.n() < 2 {
        return Ok(0.0);
    }
    let mut ev: Vec<f64> = laplacian(g)
        .symmetric_eigenvalues()
        .iter()
        .copied()
        .collect();
    ev.sort_by(f64::total_cmp);
    Ok(ev[1].max(0.0))
}

/// The largest `δ` such that the drift vector `δ·d·s(v)` (`s(v) = +1` on underloaded, `−1` on
/// overloaded vertices, `d` the regular degree) is the net inflow of a flow with at most 1 per
/// edge, with a tight set. By Gale's feasibility theorem the flow exists iff `δ·d·s(X) ≤ |∂X|` for
/// every set `X`, so `δ* = min_{s(X) > 0} |∂X|/(d·s(X))`; computed by enumeration (`n ≤ 20`).
/// `signs` must sum to zero.
///
/// ```
/// use balloc::graph::{Graph, measures::max_uniform_drift};
/// // C_8 with the left half overloaded: δ* = 2/n = 1/4 (two edges cross the cut).
/// let s = [-1, -1, -1, -1, 1, 1, 1, 1];
/// let (d, _) = max_uniform_drift(&Graph::cycle(8).unwrap(), &s).unwrap();
/// assert_eq!(d, num_rational::BigRational::new(1.into(), 4.into()));
/// ```
pub fn max_uniform_drift(g: &Graph, signs: &[i32]) -> Result<(BigRational, u32)> {
    let n = g.n();
    let d = g
        .regular_degree()
        .ok_or_else(|| Error::invalid("graph", "max_uniform_drift needs a regular graph"))?;
    if signs.len() != n || signs.iter().any(|s| s.abs() != 1) || signs.iter().sum::<i32>() != 0 {
        return Err(Error::invalid(
            "signs",
            "need one ±1 per vertex summing to 0",
        ));
    }
    if n > EXHAUSTIVE_LIMIT {
        return Err(Error::invalid(
            "max_uniform_drift",
            format!("enumeration needs n ≤ {EXHAUSTIVE_LIMIT}"),
        ));
    }
    let mut best: Option<(BigRational, u32)> = None;
    for mask in 1u32..(1u32 << n) {
        let s: i32 = (0..n)
            .filter(|&v| (mask >> v) & 1 == 1)
            .map(|v| signs[v])
            .sum();
        if s <= 0 {
            continue;
        }
        let v = BigRational::new(
            BigInt::from(boundary(g, mask)),
            BigInt::from(d as i64 * s as i64),
        );
        if best.as_ref().is_none_or(|(b, _)| v < *b) {
            best = Some((v, mask));
        }
    }
    Ok(best.expect("a zero-sum ±1 pattern has a set with positive sum"))
}

/// Whether the drift `δ·d·s(v)` with `δ = num/den` is realisable by a flow of at most 1 per edge,
/// decided by a max-flow computation (all capacities scaled by `den`): the independent route to
/// [`max_uniform_drift`].
pub fn drift_feasible(g: &Graph, signs: &[i32], num: i64, den: i64) -> Result<bool> {
    let n = g.n();
    let d = g
        .regular_degree()
        .ok_or_else(|| Error::invalid("graph", "drift_feasible needs a regular graph"))?
        as i64;
    let (s, t) = (n, n + 1);
    let mut arcs: Vec<(usize, usize, i64)> = g
        .edges()
        .iter()
        .flat_map(|&(a, b)| [(a, b, den), (b, a, den)])
        .collect();
    let mut need = 0;
    for (v, &sg) in signs.iter().enumerate() {
        // overloaded vertices (s = −1) supply δd, underloaded ones (s = +1) absorb δd.
        if sg < 0 {
            arcs.push((s, v, num * d));
        } else {
            arcs.push((v, t, num * d));
            need += num * d;
        }
    }
    Ok(max_flow(n + 2, &arcs, s, t) == need)
}
