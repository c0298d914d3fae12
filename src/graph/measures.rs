//! Structural measures of a graph: edge connectivity `k`, edge expansion (exact for small graphs),
//! the spectral gap of the Laplacian, the congestion of the explicit Haar-flow routing of the
//! standard families, and the largest uniform drift a capacity-1 flow can realise for a sign
//! pattern (the obstruction of C §1.2).
//!
//! Cost of each measure (`n` vertices, `m` edges, `h` the height of the decomposition):
//!
//! | measure | standard families | other graphs |
//! |---|---|---|
//! | [`edge_connectivity`] | O(1), closed form | `n − 1` unit-capacity max-flows, each stopped at the smaller degree of its ends: O(n·δ·m); refused above [`CONNECTIVITY_WORK_LIMIT`] |
//! | [`spectral_gap`] | O(1), closed form | dense symmetric eigensolver, O(n³); refused above [`SPECTRAL_LIMIT`] vertices |
//! | [`edge_expansion`] | exact enumeration of the `2ⁿ` vertex sets: exponential, `n ≤` [`EXHAUSTIVE_LIMIT`] | same |
//! | [`explicit_congestion`] | O(Σᵢ\|Sᵢ\| + m) = O(n·h + m) in `f64`, exact rationals only for the edges within `10⁻⁹` of the largest load | — (no explicit routing) |
//! | [`max_uniform_drift`] | exponential, `n ≤` [`EXHAUSTIVE_LIMIT`] | same |
//!
//! Reference: Bansal–Feldheim (arXiv:2106.06051 v2): `k` in Theorem 1.1, the expansion
//! normalisation `E(S, S̄) ≥ βd|S|` for `|S| ≤ n/2` in footnote 1, the cycle obstruction in §1.2
//! ("the total flow that can cross the cut separating the two halves is at most 2").

use super::tree::Tree;
use super::{Family, Graph};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};

/// Maximum `s`–`t` flow value in a directed network with integer capacities (Edmonds–Karp).
/// `arcs` are `(from, to, capacity)`.
///
/// ```
/// // Two disjoint paths 0→1→3 and 0→2→3 of capacity 1 and 2.
/// let f = balloc::graph::measures::max_flow(4, &[(0, 1, 1), (1, 3, 1), (0, 2, 2), (2, 3, 5)], 0, 3);
/// assert_eq!(f, 3);
/// ```
pub fn max_flow(n: usize, arcs: &[(usize, usize, i64)], s: usize, t: usize) -> i64 {
    max_flow_capped(n, arcs, s, t, i64::MAX)
}

/// [`max_flow`], stopped as soon as the flow reaches `cap` (returns `min(maxflow, cap)` when the
/// augmenting paths carry one unit each, as with unit capacities).
fn max_flow_capped(n: usize, arcs: &[(usize, usize, i64)], s: usize, t: usize, limit: i64) -> i64 {
    max_flow_run(n, arcs, s, t, limit).0
}

/// A minimum `s`–`t` cut: the maximum flow value and the vertices reachable from `s` in the
/// final residual network (the source side of a minimum cut, max-flow min-cut theorem).
///
/// ```
/// // 0→1 (capacity 1) is the bottleneck of 0→1→2: the source side is {0}.
/// let (f, side) = balloc::graph::measures::min_st_cut(3, &[(0, 1, 1), (1, 2, 5)], 0, 2);
/// assert_eq!((f, side), (1, vec![true, false, false]));
/// ```
pub fn min_st_cut(n: usize, arcs: &[(usize, usize, i64)], s: usize, t: usize) -> (i64, Vec<bool>) {
    max_flow_run(n, arcs, s, t, i64::MAX)
}

/// Edmonds–Karp up to `limit`; returns the flow and the residual reachability of the last search
/// (the source side of a minimum cut when the flow was not stopped by `limit`).
fn max_flow_run(
    n: usize,
    arcs: &[(usize, usize, i64)],
    s: usize,
    t: usize,
    limit: i64,
) -> (i64, Vec<bool>) {
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
    let mut pred = vec![usize::MAX; n];
    let mut seen = vec![false; n];
    let mut queue = std::collections::VecDeque::new();
    loop {
        if total >= limit {
            return (total, seen);
        }
        pred.fill(usize::MAX);
        seen.fill(false);
        queue.clear();
        queue.push_back(s);
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
            return (total, seen);
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

/// The largest `n·m` for which [`edge_connectivity`] runs its max-flows on a graph that is not a
/// standard family (about a second of work).
pub const CONNECTIVITY_WORK_LIMIT: u64 = crate::limits::GRAPH_CONNECTIVITY_WORK.max;

/// The edge connectivity `k`: the fewest edges whose removal disconnects the graph (0 if it is
/// disconnected). Standard families by their closed forms (cycle 2, path 1, torus 4, `Q_d`: `d`,
/// `K_n`: `n − 1`); other graphs by [`edge_connectivity_by_flows`], refused when `n·m` exceeds
/// [`CONNECTIVITY_WORK_LIMIT`].
///
/// ```
/// use balloc::graph::{Graph, measures::edge_connectivity};
/// assert_eq!(edge_connectivity(&Graph::cycle(9).unwrap()).unwrap(), 2);
/// assert_eq!(edge_connectivity(&Graph::hypercube(3).unwrap()).unwrap(), 3);
/// assert_eq!(edge_connectivity(&Graph::path(4).unwrap()).unwrap(), 1);
/// assert_eq!(edge_connectivity(&Graph::cycle(1_000_000).unwrap()).unwrap(), 2);
/// ```
pub fn edge_connectivity(g: &Graph) -> Result<usize> {
    let n = g.n();
    Ok(match g.family() {
        // C_2 is a single edge.
        Family::Cycle => {
            if n >= 3 {
                2
            } else {
                1
            }
        }
        Family::Path => 1,
        // Every side is at least 3, so the torus is 4-regular and 4-edge-connected.
        Family::Torus { .. } => 4,
        Family::Hypercube { dim } => dim as usize,
        Family::Complete => n - 1,
        Family::General => {
            let work = (n as u64).saturating_mul(g.m() as u64);
            crate::limits::GRAPH_CONNECTIVITY_WORK.check(
                &format!(
                    "edge connectivity of `{}` (max-flows, O(n·δ·m), outside the standard families)",
                    g.name()
                ),
                work,
            )?;
            edge_connectivity_by_flows(g)
        }
    })
}

/// The edge connectivity by max-flows: `min_v maxflow(0, v)` with unit capacities in both
/// directions, each flow stopped once it reaches `min(deg 0, deg v)` (no cut is smaller). Any
/// graph; O(n·δ·m) with `δ` the minimum degree. The independent route to the closed forms of
/// [`edge_connectivity`].
///
/// ```
/// use balloc::graph::{Graph, measures::edge_connectivity_by_flows};
/// assert_eq!(edge_connectivity_by_flows(&Graph::torus(4, 5).unwrap()), 4);
/// ```
pub fn edge_connectivity_by_flows(g: &Graph) -> usize {
    smallest_flow_from_vertex_0(g, &unit_arcs(g)).map_or(0, |(k, _)| k)
}

/// Every edge as two arcs of capacity 1.
fn unit_arcs(g: &Graph) -> Vec<(usize, usize, i64)> {
    g.edges()
        .iter()
        .flat_map(|&(a, b)| [(a, b, 1), (b, a, 1)])
        .collect()
}

/// `min_v maxflow(0, v)` over `v = 1..n` with the first `v` attaining it (`None` for `n < 2`).
/// Every cut separates vertex 0 from some `v`, so this is the edge connectivity; each flow is
/// stopped at `min(deg 0, deg v, best so far)`, and the search at a flow of 0.
fn smallest_flow_from_vertex_0(g: &Graph, arcs: &[(usize, usize, i64)]) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    for v in 1..g.n() {
        let cap = g.degree(0).min(g.degree(v));
        let cap = best.map_or(cap, |(b, _)| b.min(cap));
        let f = max_flow_capped(g.n(), arcs, 0, v, cap as i64) as usize;
        if best.is_none_or(|(b, _)| f < b) {
            best = Some((f, v));
        }
        if f == 0 {
            break;
        }
    }
    best
}

/// A minimum cut of a connected graph: its size `k` (the edge connectivity) and one side of it,
/// the larger one (so `|S| ≥ n/2`, as Bansal–Feldheim's Lemma 4.1 takes it). Found by the
/// max-flows of [`edge_connectivity_by_flows`] from vertex 0; the side is the residual
/// reachability of the smallest one (max-flow min-cut theorem), complemented when it is the
/// smaller side. Refused when `n·m` exceeds [`CONNECTIVITY_WORK_LIMIT`], for a single vertex, and
/// for a disconnected graph.
///
/// ```
/// use balloc::graph::{Graph, measures::minimum_cut};
/// // Two triangles joined by the edge 2–3: k = 1, S = {0, 1, 2} (both sides have 3 vertices,
/// // the source side is kept).
/// let g = Graph::parse_edge_list("0 1\n1 2\n2 0\n2 3\n3 4\n4 5\n5 3\n", "bowtie").unwrap();
/// let (k, s) = minimum_cut(&g).unwrap();
/// assert_eq!((k, s), (1, vec![true, true, true, false, false, false]));
/// ```
pub fn minimum_cut(g: &Graph) -> Result<(usize, Vec<bool>)> {
    let n = g.n();
    let work = (n as u64).saturating_mul(g.m() as u64);
    crate::limits::GRAPH_CONNECTIVITY_WORK.check(
        &format!("minimum cut of `{}` (max-flows, O(n·δ·m))", g.name()),
        work,
    )?;
    if n < 2 {
        return Err(Error::invalid("minimum cut", "needs at least two vertices"));
    }
    let arcs = unit_arcs(g);
    let (k, v) = smallest_flow_from_vertex_0(g, &arcs).expect("n ≥ 2");
    if k == 0 {
        return Err(Error::invalid(
            format!("graph `{}`", g.name()),
            "is disconnected (a minimum cut of 0 edges)",
        ));
    }
    let (f, mut side) = min_st_cut(n, &arcs, 0, v);
    debug_assert_eq!(f as usize, k);
    if 2 * side.iter().filter(|&&x| x).count() < n {
        side.iter_mut().for_each(|x| *x = !*x);
    }
    Ok((k, side))
}

/// The largest `n` for which exhaustive subset enumeration is done.
pub const EXHAUSTIVE_LIMIT: usize = crate::limits::GRAPH_EXHAUSTIVE_N.max as usize;

/// The edge expansion `h(G) = min_{1 ≤ |S| ≤ n/2} |∂S|/|S|` with a minimising set (as a bit mask),
/// exact, by enumeration of all subsets (`n ≤ 20`). C's normalisation is `β = h/d` (footnote 1).
///
/// ```
/// use balloc::graph::{Graph, measures::edge_expansion};
/// // C_8: the best set is an arc of 4 vertices with 2 boundary edges, h = 2/4.
/// let (h, _) = edge_expansion(&Graph::cycle(8).unwrap()).unwrap();
/// assert_eq!(h, balloc::exact::Q::new(1.into(), 2.into()));
/// ```
pub fn edge_expansion(g: &Graph) -> Result<(Q, u32)> {
    let n = g.n();
    crate::limits::GRAPH_EXHAUSTIVE_N.check_usize(
        &format!(
            "edge expansion (exact enumeration of the 2ⁿ sets needs n ≤ {EXHAUSTIVE_LIMIT}), n"
        ),
        n,
    )?;
    if n < 2 {
        return Err(Error::invalid(
            "edge expansion",
            format!("needs n ≥ 2, got n = {n}"),
        ));
    }
    let mut best: Option<(Q, u32)> = None;
    for mask in 1u32..(1u32 << n) {
        let size = mask.count_ones() as usize;
        if 2 * size > n {
            continue;
        }
        let cut = boundary(g, mask);
        let v = Q::new(Int::from(cut), Int::from(size));
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

/// The largest graph outside the standard families whose spectral gap is computed (dense
/// eigensolver, O(n³)).
pub const SPECTRAL_LIMIT: usize = crate::limits::GRAPH_SPECTRAL_N.max as usize;

/// The spectral gap `λ₂` of the Laplacian `L = D − A` (its second smallest eigenvalue; 0 iff the
/// graph is disconnected). Standard families by the closed forms of their Laplacian spectra
/// (cycle `2 − 2cos(2π/n)`, path `2 − 2cos(π/n)`, torus `w × h`:
/// `min(2 − 2cos(2π/w), 2 − 2cos(2π/h))`, `Q_d`: 2, `K_n`: `n`); other graphs by
/// [`spectral_gap_dense`], refused above [`SPECTRAL_LIMIT`] vertices.
///
/// ```
/// use balloc::graph::{Graph, measures::spectral_gap};
/// // C_n: λ₂ = 2 − 2cos(2π/n); n = 6 gives 1.
/// assert!((spectral_gap(&Graph::cycle(6).unwrap()).unwrap() - 1.0).abs() < 1e-12);
/// assert!(spectral_gap(&Graph::cycle(1_000_000).unwrap()).unwrap() > 0.0);
/// ```
pub fn spectral_gap(g: &Graph) -> Result<f64> {
    let n = g.n();
    let ring = |k: usize| 2.0 - 2.0 * (2.0 * std::f64::consts::PI / k as f64).cos();
    Ok(match g.family() {
        // C_2 is the path P_2.
        Family::Cycle if n >= 3 => ring(n),
        Family::Cycle | Family::Path => 2.0 - 2.0 * (std::f64::consts::PI / n as f64).cos(),
        // The spectrum of a product is the sums of the factors' spectra.
        Family::Torus { w, h } => ring(w).min(ring(h)),
        Family::Hypercube { .. } => 2.0,
        Family::Complete => n as f64,
        Family::General => {
            crate::limits::GRAPH_SPECTRAL_N.check_usize(
                "spectral gap (dense eigensolver, O(n³), outside the standard families), n",
                n,
            )?;
            spectral_gap_dense(g)
        }
    })
}

/// The spectral gap by nalgebra's dense symmetric eigensolver on the Laplacian (any graph; the
/// independent route to the closed forms of [`spectral_gap`]). O(n³) time, O(n²) memory.
///
/// ```
/// use balloc::graph::{Graph, measures::spectral_gap_dense};
/// assert!((spectral_gap_dense(&Graph::hypercube(3).unwrap()) - 2.0).abs() < 1e-12);
/// ```
pub fn spectral_gap_dense(g: &Graph) -> f64 {
    if g.n() < 2 {
        return 0.0;
    }
    let mut ev: Vec<f64> = laplacian(g)
        .symmetric_eigenvalues()
        .iter()
        .copied()
        .collect();
    ev.sort_by(f64::total_cmp);
    ev[1].max(0.0)
}

/// The congestion of the explicit routing of a standard family with its standard tree
/// ([`super::flow::UnitFlows::route`] with [`super::flow::Routing::Explicit`]): `C* = max_e Σᵢ
/// |gᵢ(e)|` exactly, the largest support `maxₑ #{i : gᵢ(e) ≠ 0}`, and the edge attaining `C*`.
/// `None` for graphs outside the standard families.
///
/// The flows are not built: every `|gᵢ(e)|` of these routings is a fraction `a/b` with a closed
/// form (a cycle, path or torus line carries the prefix sums of the Haar demand `∓1/|S_{ℓ,r}|`
/// along it; the hypercube puts `1/|S_ℓ|` on each edge of the matching between the halves; the
/// complete graph `1/(|S_ℓ||S_r|)` on each edge between them). One pass sums them in `f64`
/// (O(n·h + m)); every edge within a relative `10⁻⁹` of the largest `f64` load (far above the
/// rounding error of a sum of at most 64 terms) is then summed again in exact rationals, so the
/// maximum is exact. Equal lists of fractions are summed once.
///
/// ```
/// use balloc::graph::{Graph, tree::Tree, measures::explicit_congestion, flow::UnitFlows};
/// let g = Graph::cycle(8).unwrap();
/// let t = Tree::standard(&g).unwrap();
/// let (c, support, _) = explicit_congestion(&g, &t).unwrap().unwrap();
/// assert_eq!(c, balloc::exact::Q::new(9.into(), 4.into())); // as UnitFlows::route
/// assert_eq!(c, UnitFlows::route(&g, &t).unwrap().congestion());
/// assert_eq!(support, 3);
/// ```
pub fn explicit_congestion(g: &Graph, t: &Tree) -> Result<Option<(Q, usize, usize)>> {
    if g.family() == Family::General {
        return Ok(None);
    }
    if !is_standard_tree(g, t) {
        return Err(Error::invalid(
            "decomposition",
            "the explicit routing needs the standard tree of the family",
        ));
    }
    let m = g.m();
    let mut load = vec![0.0f64; m];
    let mut support = vec![0u32; m];
    for_each_term(g, t, &mut |e, a, b| {
        load[e] += a as f64 / b as f64;
        support[e] += 1;
    })?;
    let max = load.iter().copied().fold(0.0, f64::max);
    let floor = max * (1.0 - 1e-9);
    let mut memo: std::collections::HashMap<Vec<(u64, u64)>, Q> = Default::default();
    let mut best: Option<(Q, usize)> = None;
    for e in (0..m).filter(|&e| load[e] >= floor && load[e] > 0.0) {
        let mut key = edge_terms(g, t, e);
        key.sort_unstable();
        let v = memo
            .entry(key)
            .or_insert_with_key(|k| {
                k.iter().fold(Q::from_integer(Int::from(0)), |s, &(a, b)| {
                    s + Q::new(Int::from(a), Int::from(b))
                })
            })
            .clone();
        if best.as_ref().is_none_or(|(b, _)| v > *b) {
            best = Some((v, e));
        }
    }
    let (c, e) = best.unwrap_or((Q::from_integer(Int::from(0)), 0));
    let s = support.iter().copied().max().unwrap_or(0) as usize;
    Ok(Some((c, s, e)))
}

/// Whether `t` is [`Tree::standard`] of a standard family, checked node by node in O(n): the
/// leaves in natural order and every split the halving rule (cycle, path, hypercube, complete),
/// or the rectangle rule (torus).
fn is_standard_tree(g: &Graph, t: &Tree) -> bool {
    let n = g.n();
    if t.order.len() != n || t.nodes.is_empty() {
        return false;
    }
    let torus = matches!(g.family(), Family::Torus { .. });
    if !torus && t.order.iter().enumerate().any(|(i, &v)| i != v) {
        return false;
    }
    if let Family::Torus { w, h } = g.family() {
        let root = super::tree::Rect { x0: 0, y0: 0, w, h };
        if t.nodes[0].rect != Some(root) {
            return false;
        }
    }
    let width = match g.family() {
        Family::Torus { w, .. } => w,
        _ => 0,
    };
    t.nodes.iter().all(|node| {
        let Some((l, r)) = node.children else {
            // A torus leaf holds the cell of its 1 × 1 rectangle.
            return node.size() == 1
                && (!torus
                    || node.rect.map(|q| (q.w, q.h, q.y0 * width + q.x0))
                        == Some((1, 1, t.order[node.lo])));
        };
        let (ln, rn) = (&t.nodes[l], &t.nodes[r]);
        let size = node.size();
        if ln.lo != node.lo || rn.lo != ln.hi || rn.hi != node.hi {
            return false;
        }
        if !torus {
            return ln.size() == size / 2;
        }
        let (Some(p), Some(a), Some(b)) = (node.rect, ln.rect, rn.rect) else {
            return false;
        };
        let split = if p.w >= p.h {
            let k = p.w / 2;
            a == super::tree::Rect { w: k, ..p }
                && b == super::tree::Rect {
                    x0: p.x0 + k,
                    w: p.w - k,
                    ..p
                }
        } else {
            let k = p.h / 2;
            a == super::tree::Rect { h: k, ..p }
                && b == super::tree::Rect {
                    y0: p.y0 + k,
                    h: p.h - k,
                    ..p
                }
        };
        split && ln.size() == a.w * a.h && rn.size() == b.w * b.h
    })
}

/// The reduced fraction `a/b`.
fn frac(a: u64, b: u64) -> (u64, u64) {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    (a / x, b / x)
}

/// `|gᵢ(e)|` on a line (cycle or path arc, torus row or column) of a node whose left part covers
/// the first `left` places and whose parts have `sl`, `sr` vertices in all its lines (`per` lines):
/// the flow on the edge after place `j` is the prefix of the demand, `(j+1)/sl` on the left and
/// `(right − (j+1−left))/sr` on the right, with `right` places on the right.
/// Not reduced (the `f64` pass divides; [`edge_terms`] reduces).
#[inline]
fn line_term(j: usize, left: usize, right: usize, sl: usize, sr: usize) -> (u64, u64) {
    if j < left {
        (j as u64 + 1, sl as u64)
    } else {
        ((right - (j + 1 - left)) as u64, sr as u64)
    }
}

/// Calls `f(edge, a, b)` for every nonzero `|gᵢ(e)| = a/b` of the explicit routing.
fn for_each_term(g: &Graph, t: &Tree, f: &mut dyn FnMut(usize, u64, u64)) -> Result<()> {
    let edge = |a: usize, b: usize| {
        g.edge_index(a, b)
            .ok_or_else(|| Error::invalid("routing", format!("no edge {a}–{b}")))
    };
    for node in &t.nodes {
        let Some((l, r)) = node.children else {
            continue;
        };
        let (sl, sr) = (t.nodes[l].size(), t.nodes[r].size());
        let set = &t.order[node.lo..node.hi];
        match g.family() {
            Family::Cycle | Family::Path => {
                for j in 0..set.len() - 1 {
                    let (a, b) = line_term(j, sl, sr, sl, sr);
                    f(edge(set[j], set[j + 1])?, a, b);
                }
            }
            Family::Torus { w, .. } => {
                let (p, ra) = (node.rect.expect("rect"), t.nodes[l].rect.expect("rect"));
                let rows = ra.h == p.h;
                let (lines, len, left) = if rows {
                    (p.h, p.w, ra.w)
                } else {
                    (p.w, p.h, ra.h)
                };
                for k in 0..lines {
                    let at = |j: usize| {
                        if rows {
                            (p.y0 + k) * w + p.x0 + j
                        } else {
                            (p.y0 + j) * w + p.x0 + k
                        }
                    };
                    for j in 0..len - 1 {
                        let (a, b) = line_term(j, left, len - left, sl, sr);
                        f(edge(at(j), at(j + 1))?, a, b);
                    }
                }
            }
            Family::Hypercube { .. } => {
                for j in 0..sl {
                    f(edge(set[j], set[j + sl])?, 1, sl as u64);
                }
            }
            Family::Complete => {
                let (a, b) = (1, (sl * sr) as u64);
                for &u in &set[..sl] {
                    for &v in &set[sl..] {
                        f(edge(u, v)?, a, b);
                    }
                }
            }
            Family::General => {}
        }
    }
    Ok(())
}

/// The nonzero `|gᵢ(e)|` of one edge as reduced fractions: the nodes above both ends that route
/// through it.
fn edge_terms(g: &Graph, t: &Tree, e: usize) -> Vec<(u64, u64)> {
    let mut out = edge_terms_raw(g, t, e);
    for v in &mut out {
        *v = frac(v.0, v.1);
    }
    out
}

fn edge_terms_raw(g: &Graph, t: &Tree, e: usize) -> Vec<(u64, u64)> {
    let (u, v) = g.edges()[e];
    let mut out = Vec::new();
    let mut i = t.nodes[t.leaf[u]].parent;
    while let Some(k) = i {
        let node = &t.nodes[k];
        i = node.parent;
        if !t.contains(k, v) {
            continue;
        }
        let (l, r) = node.children.expect("internal");
        let (sl, sr) = (t.nodes[l].size(), t.nodes[r].size());
        let (pu, pv) = (t.pos[u] - node.lo, t.pos[v] - node.lo);
        match g.family() {
            Family::Cycle | Family::Path => {
                // Consecutive places of the arc only (the cycle's closing edge is never used).
                if pu.abs_diff(pv) == 1 {
                    out.push(line_term(pu.min(pv), sl, sr, sl, sr));
                }
            }
            Family::Torus { w, .. } => {
                let (p, ra) = (node.rect.expect("rect"), t.nodes[l].rect.expect("rect"));
                let (xu, yu, xv, yv) = (u % w, u / w, v % w, v / w);
                if ra.h == p.h && yu == yv && xu.abs_diff(xv) == 1 {
                    out.push(line_term(xu.min(xv) - p.x0, ra.w, p.w - ra.w, sl, sr));
                } else if ra.h != p.h && xu == xv && yu.abs_diff(yv) == 1 {
                    out.push(line_term(yu.min(yv) - p.y0, ra.h, p.h - ra.h, sl, sr));
                }
            }
            Family::Hypercube { .. } => {
                if pu.abs_diff(pv) == sl {
                    out.push((1, sl as u64));
                }
            }
            Family::Complete => {
                if t.contains(l, u) != t.contains(l, v) {
                    out.push((1, (sl * sr) as u64));
                }
            }
            Family::General => {}
        }
    }
    out
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
/// assert_eq!(d, balloc::exact::Q::new(1.into(), 4.into()));
/// ```
pub fn max_uniform_drift(g: &Graph, signs: &[i32]) -> Result<(Q, u32)> {
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
    let mut best: Option<(Q, u32)> = None;
    for mask in 1u32..(1u32 << n) {
        let s: i32 = (0..n)
            .filter(|&v| (mask >> v) & 1 == 1)
            .map(|v| signs[v])
            .sum();
        if s <= 0 {
            continue;
        }
        let v = Q::new(Int::from(boundary(g, mask)), Int::from(d as i64 * s as i64));
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
