//! Edge-bias flows realising the Haar drifts (C.Alg.pre.3; `docs/derivations.md` §8): for every internal node `i`
//! a flow `g_i` on the edges of `G` with net inflow `h_i(v)` at every vertex `v` (the unit Haar
//! demand), exact in rationals. Routings:
//! * cycle and path: along the arc `S_i` (a path has a unique flow with given net inflows);
//! * torus: every row (split along x) or column (split along y) of the rectangle carries its own
//!   share, routed along the row as on a path; wrap-around edges are not used;
//! * hypercube: across the perfect matching between the two child sub-cubes, `1/|S_ℓ(i)|` per edge;
//! * complete graph: `1/(|S_ℓ||S_r|)` directly on every edge `uv`, `u ∈ S_ℓ`, `v ∈ S_r`;
//! * any other graph (and any graph on request): **electrical flows with multiplicative
//!   weights** ([`Routing::Electrical`]), see below; [`Routing::Auto`] keeps the spanning-tree
//!   routing instead when its exact congestion is smaller;
//! * on request ([`Routing::SpanningTree`]): along a BFS spanning tree of `G[S_i]` rooted at the
//!   first vertex of `S_i` (of `G` when `G[S_i]` is disconnected); the flow on a tree edge is
//!   forced: the edge into the subtree of `v` carries the subtree's total demand. Exact, but every
//!   demand crowds onto the `|S_i| − 1` tree edges.
//!
//! The congestion is `C* = max_e Σ_i |g_i(e)|`; scaling every flow by `1/C*` gives biases with
//! `Σ_i p_e(i) ≤ 1` (Lemma 3.4), and `βk = 1/C*` plays the role of `k/(8α_G)`.
//!
//! **Electrical routing, method.** For every internal node `i` the demand `h_i` is routed inside
//! `G[S_i]`, so an edge `uv` carries flow only for the ancestors of the lowest common node of `u`
//! and `v`: the support of `p_e` stays at most the height (C §3.5). When `G[S_i]` is
//! disconnected (spectral bisection does not promise connected parts), the net demand of each
//! component is first moved to the component's first vertex and routed between these vertices
//! along a BFS spanning tree of `G` (exactly); only this connector leaves `S_i`, and the
//! balanced remainder of each component is routed electrically inside it. Round 1 takes the electrical flow of `h_i` with unit resistances
//! ([`super::electrical`]). Rounds `2..=R` are multiplicative weights on the edges: after a
//! round with edge loads `ℓ_e = Σ_i |g_i(e)|` and congestion `C = max_e ℓ_e` every resistance
//! is multiplied by `exp(η ℓ_e/C)` (`η = 1/2`), so congested edges repel the next round's
//! flows. The candidate after round `t` is the average of the flows of rounds `1..t` (an
//! average of flows with net inflow `h_i` has net inflow `h_i`); the candidate of smallest
//! congestion is kept.
//!
//! **Exactness.** The chosen `f64` flow `f̃_i` is rounded to the grid `2⁻⁴⁰`, and its divergence
//! is repaired exactly: the residual `r_i = h_i − inflow(f̃_i)` (a rational vector summing to 0
//! on `S_i`) is routed along a BFS spanning tree of the network and added. So the net inflow of
//! every stored flow equals `h_i` exactly, whatever the solver's accuracy.
//!
//! **Guarantees.** (i) Exact net inflows (above; checked by Lemma 3.5's test). (ii) Round 1 is a
//! candidate, so the `f64` congestion of the result is at most that of the plain electrical
//! routing; the repair adds at most `Σ_i ‖r_i‖₁/2` to any edge (each `r_i(v)` is at most
//! `deg(v)·(solver error + 2⁻⁴¹)`). (iii) No optimality is claimed; [`congestion_lower_bound`]
//! gives a certified lower bound on the congestion of *any* routing of the same demands (a cut
//! bound), reported next to `C*`. Cost: `R` rounds of `|V| − 1` conjugate-gradient solves on
//! the node subgraphs (`Σ_i |E(G[S_i])| ≤ |E|·height` edges per round).
//!
//! Reference: Bansal–Feldheim (arXiv:2106.06051 v2), §1.2 (C.Obs.flow), §2.2 eqs. (1)–(4).

use super::electrical::Network;
use super::tree::Tree;
use super::{Family, Graph, haar};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use num_traits::{Signed, Zero};

/// One flow: `(edge index, value)`, positive = along the stored orientation `(a, b)` of the edge.
pub type Flow = Vec<(usize, Q)>;

/// The unit flows `g_i` of every internal node, in the order of [`Tree::internal`].
#[derive(Debug, Clone)]
pub struct UnitFlows {
    /// The internal nodes.
    pub nodes: Vec<usize>,
    /// `flows[j]` routes the unit Haar demand of `nodes[j]`.
    pub flows: Vec<Flow>,
    /// How the flows were routed.
    pub method: &'static str,
}

fn rat(a: i64, b: i64) -> Q {
    Q::new(Int::from(a), Int::from(b))
}

/// Adds `value` of flow from `a` to `b` on their edge.
fn push(g: &Graph, flow: &mut Flow, a: usize, b: usize, value: Q) -> Result<()> {
    let e = g
        .edge_index(a, b)
        .ok_or_else(|| Error::invalid("routing", format!("no edge {a}–{b}")))?;
    let v = if g.edges()[e].0 == a { value } else { -value };
    flow.push((e, v));
    Ok(())
}

/// Routes `demand` (net inflow per vertex of `seq`, summing to zero) along the path `seq`.
fn path_route(g: &Graph, flow: &mut Flow, seq: &[usize], demand: &[Q]) -> Result<()> {
    let mut acc = Q::zero();
    for j in 0..seq.len() - 1 {
        acc += &demand[j];
        // flow seq[j] → seq[j+1] is −(demand of the prefix)
        if !acc.is_zero() {
            push(g, flow, seq[j], seq[j + 1], -acc.clone())?;
        }
    }
    Ok(())
}

/// Merges repeated edges of a flow and drops zeros.
fn normalise(flow: Flow) -> Flow {
    let mut m: std::collections::BTreeMap<usize, Q> = Default::default();
    for (e, v) in flow {
        *m.entry(e).or_insert_with(Q::zero) += v;
    }
    m.into_iter().filter(|(_, v)| !v.is_zero()).collect()
}

/// Routes a demand on a BFS spanning tree of `G[S]` (or of `G` if `G[S]` is disconnected).
fn tree_route(g: &Graph, flow: &mut Flow, s: &[usize], demand: &dyn Fn(usize) -> Q) -> Result<()> {
    let inside: std::collections::HashSet<usize> = s.iter().copied().collect();
    let bfs = |restrict: bool| -> (Vec<usize>, Vec<usize>) {
        let mut parent = vec![usize::MAX; g.n()];
        let mut order = vec![s[0]];
        parent[s[0]] = s[0];
        let mut q = 0;
        while q < order.len() {
            let v = order[q];
            q += 1;
            for &(u, _) in g.neighbours(v) {
                if parent[u] == usize::MAX && (!restrict || inside.contains(&u)) {
                    parent[u] = v;
                    order.push(u);
                }
            }
        }
        (order, parent)
    };
    let (mut order, mut parent) = bfs(true);
    if order.len() < s.len() {
        (order, parent) = bfs(false);
        if s.iter().any(|&v| parent[v] == usize::MAX) {
            return Err(Error::invalid(
                format!("graph `{}`", g.name()),
                "is disconnected: a drift between its parts cannot be routed",
            ));
        }
    }
    let mut sub: Vec<Q> = vec![Q::zero(); g.n()];
    for &v in order.iter().rev() {
        sub[v] += demand(v);
        if parent[v] != v {
            let (p, x) = (parent[v], sub[v].clone());
            if !x.is_zero() {
                push(g, flow, p, v, x.clone())?;
            }
            sub[p] += x;
        }
    }
    Ok(())
}

/// How the unit flows are routed (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Routing {
    /// The explicit construction for a standard graph with its standard tree; otherwise electrical
    /// flows with [`Routing::MW_ROUNDS`] rounds of multiplicative weights, or the spanning-tree
    /// routing when its exact congestion is smaller.
    Auto,
    /// The explicit construction (standard graphs with their standard trees only).
    Explicit,
    /// Along BFS spanning trees.
    SpanningTree,
    /// Electrical flows with `rounds` rounds of multiplicative weights (`1`: plain electrical).
    Electrical {
        /// The number of rounds `R ≥ 1`.
        rounds: usize,
    },
}

impl Routing {
    /// The default number of multiplicative-weights rounds.
    pub const MW_ROUNDS: usize = 12;

    /// Parses `auto`, `explicit`, `spanning-tree`, `electrical` (one round) or `electrical-mw`
    /// ([`Routing::MW_ROUNDS`] rounds).
    ///
    /// ```
    /// use balloc::graph::flow::Routing;
    /// assert_eq!(Routing::parse("electrical").unwrap(), Routing::Electrical { rounds: 1 });
    /// assert!(Routing::parse("shortest").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Routing> {
        Ok(match s {
            "auto" => Routing::Auto,
            "explicit" => Routing::Explicit,
            "spanning-tree" => Routing::SpanningTree,
            "electrical" => Routing::Electrical { rounds: 1 },
            "electrical-mw" => Routing::Electrical {
                rounds: Routing::MW_ROUNDS,
            },
            other => {
                return Err(Error::unknown(
                    "routing",
                    other,
                    &[
                        "auto",
                        "explicit",
                        "spanning-tree",
                        "electrical",
                        "electrical-mw",
                    ],
                ));
            }
        })
    }
}

/// The multiplicative-weights step size `η`.
const ETA: f64 = 0.5;

/// The rounding grid of electrical flows: `2^GRID_BITS`.
const GRID_BITS: u32 = 40;

/// Whether `t` is the standard tree of a standard graph (the explicit routings apply).
fn is_standard(g: &Graph, t: &Tree) -> Result<bool> {
    Ok(match g.family() {
        Family::General => false,
        Family::Torus { w, h } => t.nodes[0].rect == Some(super::tree::Rect { x0: 0, y0: 0, w, h }),
        _ => *t == Tree::standard(g)?,
    })
}

/// The explicit flow of internal node `i` (standard graph, standard tree).
fn explicit(g: &Graph, t: &Tree, i: usize) -> Result<Flow> {
    let (l, r) = t.nodes[i].children.expect("internal");
    let (sl, sr) = (t.nodes[l].size() as i64, t.nodes[r].size() as i64);
    let set = t.set(i);
    let h = |v: usize| haar::value(t, i, v);
    let mut f = Flow::new();
    match g.family() {
        Family::Cycle | Family::Path => {
            let d: Vec<Q> = set.iter().map(|&v| h(v)).collect();
            path_route(g, &mut f, &set, &d)?;
        }
        Family::Torus { w, .. } => {
            let (ra, rb) = (
                t.nodes[l].rect.expect("rect"),
                t.nodes[r].rect.expect("rect"),
            );
            let p = t.nodes[i].rect.expect("rect");
            let lines: Vec<Vec<usize>> = if ra.h == p.h && rb.h == p.h && ra.w + rb.w == p.w {
                (p.y0..p.y0 + p.h)
                    .map(|y| (p.x0..p.x0 + p.w).map(|x| y * w + x).collect())
                    .collect()
            } else {
                (p.x0..p.x0 + p.w)
                    .map(|x| (p.y0..p.y0 + p.h).map(|y| y * w + x).collect())
                    .collect()
            };
            for line in lines {
                let d: Vec<Q> = line.iter().map(|&v| h(v)).collect();
                path_route(g, &mut f, &line, &d)?;
            }
        }
        Family::Hypercube { .. } => {
            let half = set.len() / 2;
            for j in 0..half {
                push(g, &mut f, set[j], set[j + half], rat(1, sl))?;
            }
        }
        Family::Complete => {
            for &u in &set[..sl as usize] {
                for &v in &set[sl as usize..] {
                    push(g, &mut f, u, v, rat(1, sl * sr))?;
                }
            }
        }
        Family::General => unreachable!("no explicit routing for general graphs"),
    }
    Ok(f)
}

/// One electrically routed part of a node's demand: a connected network and the demand routed
/// in it (local order, exact and `f64`).
struct Piece {
    /// Index of the node in the list of internal nodes.
    j: usize,
    net: Network,
    demand: Vec<Q>,
    demand_f64: Vec<f64>,
}

/// The connected components of `G[set]` (each in `set` order).
fn components(g: &Graph, set: &[usize]) -> Vec<Vec<usize>> {
    let mut comp = vec![usize::MAX; g.n()];
    for &v in set {
        comp[v] = usize::MAX - 1;
    }
    let mut out: Vec<Vec<usize>> = Vec::new();
    for &v in set {
        if comp[v] != usize::MAX - 1 {
            continue;
        }
        let c = out.len();
        comp[v] = c;
        let mut members = vec![v];
        let mut k = 0;
        while k < members.len() {
            let x = members[k];
            k += 1;
            for &(u, _) in g.neighbours(x) {
                if comp[u] == usize::MAX - 1 {
                    comp[u] = c;
                    members.push(u);
                }
            }
        }
        let pos: std::collections::HashSet<usize> = members.iter().copied().collect();
        out.push(set.iter().copied().filter(|x| pos.contains(x)).collect());
    }
    out
}

/// Splits the demand of node `i` into electrically routed pieces and an exact connector flow.
/// When `G[S_i]` is connected: one piece, no connector. Otherwise the net demand `σ_c` of every
/// component `c` is moved to its first vertex and routed between these representatives along a
/// BFS spanning tree of `G` (the connector); what remains is balanced inside each component and
/// is routed electrically there. Only the connector leaves `S_i`.
fn pieces(g: &Graph, t: &Tree, i: usize, j: usize) -> Result<(Vec<Piece>, Flow)> {
    let set = t.set(i);
    let h = |v: usize| haar::value(t, i, v);
    let comps = components(g, &set);
    let mut connector = Flow::new();
    let mut sigma: Vec<Q> = Vec::with_capacity(comps.len());
    if comps.len() > 1 {
        let reps: Vec<usize> = comps.iter().map(|c| c[0]).collect();
        let mut at = vec![Q::zero(); g.n()];
        for (c, &r) in comps.iter().zip(&reps) {
            let s: Q = c.iter().map(|&v| h(v)).sum();
            at[r] = s.clone();
            sigma.push(s);
        }
        tree_route(g, &mut connector, &reps, &|v| at[v].clone())?;
    } else {
        sigma.push(Q::zero());
    }
    let mut out = Vec::new();
    for (c, s) in comps.into_iter().zip(sigma) {
        if c.len() < 2 {
            continue;
        }
        let mut demand: Vec<Q> = c.iter().map(|&v| h(v)).collect();
        demand[0] -= s;
        let demand_f64 = demand
            .iter()
            .map(|q| num_traits::ToPrimitive::to_f64(q).unwrap_or(0.0))
            .collect();
        let net = Network::induced(g, &c).expect("a connected component");
        out.push(Piece {
            j,
            net,
            demand,
            demand_f64,
        });
    }
    Ok((out, normalise(connector)))
}

/// `Σ |flow(e)|` per edge of `G`: the `f64` piece flows plus the fixed connector loads.
fn loads_f64(base: &[f64], pieces: &[Piece], flows: &[Vec<f64>]) -> Vec<f64> {
    let mut load = base.to_vec();
    for (p, f) in pieces.iter().zip(flows) {
        for (&(e, _, _), v) in p.net.edges.iter().zip(f) {
            load[e] += v.abs();
        }
    }
    load
}

/// Electrical flows with `rounds` rounds of multiplicative weights (module documentation), then
/// rounded and repaired exactly: the flows of the internal `nodes`.
fn electrical(g: &Graph, t: &Tree, nodes: &[usize], rounds: usize) -> Result<Vec<Flow>> {
    if rounds == 0 {
        return Err(Error::invalid("routing", "electrical rounds must be ≥ 1"));
    }
    let mut all = Vec::new();
    let mut connectors = Vec::with_capacity(nodes.len());
    for (j, &i) in nodes.iter().enumerate() {
        let (p, c) = pieces(g, t, i, j)?;
        all.extend(p);
        connectors.push(c);
    }
    let mut base = vec![0.0; g.m()];
    for c in &connectors {
        for (e, v) in c {
            base[*e] += num_traits::ToPrimitive::to_f64(&v.abs()).unwrap_or(0.0);
        }
    }
    let mut resistance = vec![1.0; g.m()];
    let mut avg: Vec<Vec<f64>> = all.iter().map(|p| vec![0.0; p.net.edges.len()]).collect();
    let mut best: Option<(f64, Vec<Vec<f64>>)> = None;
    for round in 1..=rounds {
        let cur: Vec<Vec<f64>> = all
            .iter()
            .map(|p| p.net.flow(&resistance, &p.demand_f64))
            .collect::<Result<_>>()?;
        for (a, c) in avg.iter_mut().zip(&cur) {
            for (x, y) in a.iter_mut().zip(c) {
                *x += (y - *x) / round as f64;
            }
        }
        let c_avg = loads_f64(&base, &all, &avg).into_iter().fold(0.0, f64::max);
        if best.as_ref().is_none_or(|(b, _)| c_avg < *b) {
            best = Some((c_avg, avg.clone()));
        }
        if round < rounds {
            let load = loads_f64(&base, &all, &cur);
            let c = load.iter().copied().fold(0.0, f64::max);
            if c > 0.0 {
                for (r, l) in resistance.iter_mut().zip(&load) {
                    *r *= (ETA * l / c).exp();
                }
            }
        }
    }
    let (_, chosen) = best.expect("rounds ≥ 1");
    let mut flows = connectors;
    for (p, f) in all.iter().zip(&chosen) {
        let exact = exact_from_f64(g, p, f)?;
        flows[p.j].extend(exact);
    }
    Ok(flows.into_iter().map(normalise).collect())
}

/// Rounds a piece's `f64` flow to the grid `2⁻⁴⁰` and repairs its divergence exactly along a
/// BFS spanning tree of the piece's network (module documentation).
fn exact_from_f64(g: &Graph, p: &Piece, f: &[f64]) -> Result<Flow> {
    let den = Int::from(1u64) << GRID_BITS as usize;
    let scale = (GRID_BITS as f64).exp2();
    let mut flow = Flow::new();
    let mut residual = vec![Q::zero(); g.n()];
    for (&v, d) in p.net.vertices.iter().zip(&p.demand) {
        residual[v] = d.clone();
    }
    for (&(e, _, _), v) in p.net.edges.iter().zip(f) {
        if !v.is_finite() {
            return Err(Error::invalid(
                "electrical flow",
                "a flow value is not finite",
            ));
        }
        let k = (v * scale).round();
        if k != 0.0 {
            let q = Q::new(Int::from(k as i64), den.clone());
            let (a, b) = g.edges()[e];
            residual[b] -= &q;
            residual[a] += &q;
            flow.push((e, q));
        }
    }
    tree_route(g, &mut flow, &p.net.vertices, &|v| residual[v].clone())?;
    Ok(flow)
}

/// A certified lower bound on the congestion of *any* flows `g_i` with net inflows `h_i`: for a
/// vertex set `S`, the flows cross the cut `∂S` with total `Σ_i |h_i(S)|`, and each cut edge
/// carries at most `C*`, so `C* ≥ Σ_i |h_i(S)|/|∂S|`. Evaluated on every node set `S_j` of the
/// tree (singletons included): `h_a(S_j) = ±|S_j|/|S_c|` for a proper ancestor `a` of `j` whose
/// child `c` contains `S_j`, and `0` for every other internal node (disjoint, or `S_a ⊆ S_j` and
/// `Σ h_a = 0`). Returns the bound and the node attaining it.
///
/// ```
/// use balloc::graph::{Graph, tree::Tree, flow::{congestion_lower_bound, UnitFlows}};
/// // C_8, standard tree: the leaf {3} has ancestors with child sizes 4, 2, 1 (for {0..7},
/// // {0..3}, {2,3}): Σ = 1/4 + 1/2 + 1 = 7/4 over 2 boundary edges → 7/8.
/// // The half {4..7} gives 1/2; {2,3} gives 2/4 + 2/2 = 3/2 over 2 → 3/4.
/// let g = Graph::cycle(8).unwrap();
/// let t = Tree::standard(&g).unwrap();
/// let (lb, _) = congestion_lower_bound(&g, &t);
/// assert_eq!(lb, balloc::exact::Q::new(7.into(), 8.into()));
/// assert!(UnitFlows::route(&g, &t).unwrap().congestion() >= lb);
/// ```
pub fn congestion_lower_bound(g: &Graph, t: &Tree) -> (Q, usize) {
    // Cost O(m·h + n·h) (h the height), not O(n·m): an edge is in the boundary of exactly the
    // nodes strictly below the lowest common node of its ends' leaves, found by walking up.
    let k = t.nodes.len();
    let mut cut = vec![0u64; k];
    let up = |i: usize| t.nodes[i].parent.expect("below the lowest common node");
    for &(u, v) in g.edges() {
        let (mut a, mut b) = (t.leaf[u], t.leaf[v]);
        while a != b {
            let (da, db) = (t.nodes[a].depth, t.nodes[b].depth);
            if da >= db {
                cut[a] += 1;
                a = up(a);
            }
            if db >= da {
                cut[b] += 1;
                b = up(b);
            }
        }
    }
    // demand_j = |S_j|·Σ 1/|S_c| over j and its ancestors below the root, in f64 (parents come
    // before their children in `t.nodes`).
    let mut inv = vec![0.0f64; k];
    let mut bound = vec![0.0f64; k];
    for j in 0..k {
        if let Some(p) = t.nodes[j].parent {
            inv[j] = inv[p] + 1.0 / t.nodes[j].size() as f64;
            if cut[j] > 0 {
                bound[j] = t.nodes[j].size() as f64 * inv[j] / cut[j] as f64;
            }
        }
    }
    // Exact values for the nodes within a relative 10⁻⁹ of the largest bound (the f64 sums of at
    // most 64 terms are far more accurate), equal size chains computed once; ties keep the first
    // node, as a scan in node order does.
    let max = bound.iter().copied().fold(0.0, f64::max);
    let mut memo: std::collections::HashMap<(Vec<usize>, u64), Q> = Default::default();
    let mut best = (Q::zero(), t.root());
    for j in (0..k).filter(|&j| cut[j] > 0 && bound[j] >= max * (1.0 - 1e-9)) {
        let mut sizes = Vec::new();
        let mut c = j;
        while let Some(p) = t.nodes[c].parent {
            sizes.push(t.nodes[c].size());
            c = p;
        }
        let size = t.nodes[j].size() as i64;
        let b = memo
            .entry((sizes, cut[j]))
            .or_insert_with_key(|(sizes, cut)| {
                let demand = sizes
                    .iter()
                    .fold(Q::zero(), |acc, &sc| acc + rat(size, sc as i64));
                demand / Q::from_integer(Int::from(*cut))
            })
            .clone();
        if b > best.0 {
            best = (b, j);
        }
    }
    best
}

impl UnitFlows {
    /// The routing [`Routing::Auto`]: the explicit construction for a standard graph with its
    /// standard tree, otherwise the better (smaller exact congestion) of electrical flows with
    /// multiplicative weights and the spanning-tree routing.
    ///
    /// ```
    /// use balloc::graph::{Graph, tree::Tree, flow::UnitFlows};
    /// let g = Graph::cycle(8).unwrap();
    /// let t = Tree::standard(&g).unwrap();
    /// let f = UnitFlows::route(&g, &t).unwrap();
    /// // Edge 2→3 carries 3/4 for the root (prefix {0,1,2} holds demand −3/4), 1/2 for the node
    /// // {0..3} (prefix {0,1,2} holds −1/2 − 1/2 + 1/2) and 1 for the node {2,3}: C* = 9/4, the
    /// // largest edge sum (edge 3→4 carries only the root's 1).
    /// assert_eq!(f.congestion(), balloc::exact::Q::new(9.into(), 4.into()));
    /// ```
    pub fn route(g: &Graph, t: &Tree) -> Result<UnitFlows> {
        UnitFlows::route_with(g, t, Routing::Auto)
    }

    /// Routes every unit Haar demand of `t` on `g` as `routing` says (module documentation).
    /// The net inflow of every flow equals `h_i` exactly, whatever the routing.
    ///
    /// ```
    /// use balloc::graph::{Graph, tree::Tree, flow::{Routing, UnitFlows}};
    /// // K_4 split {0,1} | {2,3}: the explicit routing puts 1/4 on each of the four crossing
    /// // edges; the electrical flow of h = (−1/2, −1/2, 1/2, 1/2) is the same by symmetry
    /// // (potentials ∓1/8, the edges 0–1 and 2–3 carry nothing).
    /// let g = Graph::complete(4).unwrap();
    /// let t = Tree::standard(&g).unwrap();
    /// let e = UnitFlows::route_with(&g, &t, Routing::Electrical { rounds: 1 }).unwrap();
    /// let x = UnitFlows::route_with(&g, &t, Routing::Explicit).unwrap();
    /// assert_eq!(e.flows[0], x.flows[0]);
    /// ```
    pub fn route_with(g: &Graph, t: &Tree, routing: Routing) -> Result<UnitFlows> {
        if t.pos.len() != g.n() {
            return Err(Error::invalid(
                "decomposition",
                "its leaves do not match the graph's vertices",
            ));
        }
        let nodes = t.internal();
        let standard = is_standard(g, t)?;
        let routing = match routing {
            Routing::Auto if standard => Routing::Explicit,
            Routing::Auto => {
                // The smaller exact congestion of electrical-mw and the spanning-tree routing
                // (at the bottom of a decomposition G[S_i] is often a tree or disconnected, the
                // flow there is forced, and the two routings come close).
                let e = UnitFlows::route_with(
                    g,
                    t,
                    Routing::Electrical {
                        rounds: Routing::MW_ROUNDS,
                    },
                )?;
                let s = UnitFlows::route_with(g, t, Routing::SpanningTree)?;
                return Ok(if s.congestion() < e.congestion() {
                    s
                } else {
                    e
                });
            }
            Routing::Explicit if !standard => {
                return Err(Error::invalid(
                    "routing",
                    format!(
                        "`explicit` needs a standard graph with its standard tree; `{}` is not",
                        g.name()
                    ),
                ));
            }
            r => r,
        };
        let (flows, method) = match routing {
            Routing::Explicit => (
                nodes
                    .iter()
                    .map(|&i| explicit(g, t, i).map(normalise))
                    .collect::<Result<Vec<_>>>()?,
                "explicit",
            ),
            Routing::SpanningTree => (
                nodes
                    .iter()
                    .map(|&i| {
                        let mut f = Flow::new();
                        tree_route(g, &mut f, &t.set(i), &|v| haar::value(t, i, v))?;
                        Ok(normalise(f))
                    })
                    .collect::<Result<Vec<_>>>()?,
                "spanning-tree",
            ),
            Routing::Electrical { rounds } => (
                electrical(g, t, &nodes, rounds)?,
                if rounds == 1 {
                    "electrical"
                } else {
                    "electrical-mw"
                },
            ),
            Routing::Auto => unreachable!("resolved above"),
        };
        Ok(UnitFlows {
            nodes,
            flows,
            method,
        })
    }

    /// The net inflow of flow `j` at every vertex: `Σ_{u∈N(v)} g(u, v)`.
    pub fn inflow(&self, g: &Graph, j: usize) -> Vec<Q> {
        let mut d = vec![Q::zero(); g.n()];
        for (e, v) in &self.flows[j] {
            let (a, b) = g.edges()[*e];
            d[b] += v;
            d[a] -= v;
        }
        d
    }

    /// `Σ_i |g_i(e)|` for every edge.
    pub fn edge_loads(&self, g: &Graph) -> Vec<Q> {
        let mut c = vec![Q::zero(); g.m()];
        for f in &self.flows {
            for (e, v) in f {
                c[*e] += v.abs();
            }
        }
        c
    }

    /// The congestion `C* = max_e Σ_i |g_i(e)|`.
    pub fn congestion(&self) -> Q {
        let n = self
            .flows
            .iter()
            .flat_map(|f| f.iter().map(|(e, _)| *e))
            .max()
            .map_or(0, |e| e + 1);
        let mut c = vec![Q::zero(); n];
        for f in &self.flows {
            for (e, v) in f {
                c[*e] += v.abs();
            }
        }
        c.into_iter().max().unwrap_or_else(Q::zero)
    }
}
