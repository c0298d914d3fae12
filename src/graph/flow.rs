//! Edge-bias flows realising the Haar drifts (C.Alg.pre.3, notes §7): for every internal node `i`
//! a flow `g_i` on the edges of `G` with net inflow `h_i(v)` at every vertex `v` (the unit Haar
//! demand), exact in rationals. Routings:
//! * cycle and path: along the arc `S_i` (a path has a unique flow with given net inflows);
//! * torus: every row (split along x) or column (split along y) of the rectangle carries its own
//!   share, routed along the row as on a path; wrap-around edges are not used;
//! * hypercube: across the perfect matching between the two child sub-cubes, `1/|S_ℓ(i)|` per edge;
//! * complete graph: `1/(|S_ℓ||S_r|)` directly on every edge `uv`, `u ∈ S_ℓ`, `v ∈ S_r`;
//! * any other graph: along a BFS spanning tree of `G[S_i]` rooted at the first vertex of `S_i`
//!   (of `G` when `G[S_i]` is disconnected); the flow on a tree edge is forced: the edge into the
//!   subtree of `v` carries the subtree's total demand.
//!
//! The congestion is `C* = max_e Σ_i |g_i(e)|`; scaling every flow by `1/C*` gives biases with
//! `Σ_i p_e(i) ≤ 1` (Lemma 3.4), and `βk = 1/C*` plays the role of `k/(8α_G)`.
//!
//! Reference: Bansal–Feldheim (arXiv:2106.06051 v2), §1.2 (C.Obs.flow), §2.2 eqs. (1)–(4).

use super::tree::Tree;
use super::{Family, Graph, haar};
use crate::error::{Error, Result};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

/// One flow: `(edge index, value)`, positive = along the stored orientation `(a, b)` of the edge.
pub type Flow = Vec<(usize, BigRational)>;

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

fn rat(a: i64, b: i64) -> BigRational {
    BigRational::new(BigInt::from(a), BigInt::from(b))
}

/// Adds `value` of flow from `a` to `b` on their edge.
fn push(g: &Graph, flow: &mut Flow, a: usize, b: usize, value: BigRational) -> Result<()> {
    let e = g
        .edge_index(a, b)
        .ok_or_else(|| Error::invalid("routing", format!("no edge {a}–{b}")))?;
    let v = if g.edges()[e].0 == a { value } else { -value };
    flow.push((e, v));
    Ok(())
}

/// Routes `demand` (net inflow per vertex of `seq`, summing to zero) along the path `seq`.
fn path_route(g: &Graph, flow: &mut Flow, seq: &[usize], demand: &[BigRational]) -> Result<()> {
    let mut acc = BigRational::zero();
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
    let mut m: std::collections::BTreeMap<usize, BigRational> = Default::default();
    for (e, v) in flow {
        *m.entry(e).or_insert_with(BigRational::zero) += v;
    }
    m.into_iter().filter(|(_, v)| !v.is_zero()).collect()
}

/// Routes a demand on a BFS spanning tree of `G[S]` (or of `G` if `G[S]` is disconnected).
fn tree_route(
    g: &Graph,
    flow: &mut Flow,
    s: &[usize],
    demand: &dyn Fn(usize) -> BigRational,
) -> Result<()> {
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
    let mut sub: Vec<BigRational> = vec![BigRational::zero(); g.n()];
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

impl UnitFlows {
    /// The explicit routing for a standard graph with its standard tree, the spanning-tree routing
    /// otherwise (see the module documentation).
    ///
    /// ```
    /// use balloc::graph::{Graph, tree::Tree, flow::UnitFlows};
    /// let g = Graph::cycle(8).unwrap();
    /// let t = Tree::standard(&g).unwrap();
    /// let f = UnitFlows::route(&g, &t).unwrap();
    /// // Edge 2→3 carries 3/4 for the root (prefix {0,1,2} holds demand −3/4), 1/2 for the node
    /// // {0..3} (prefix {0,1,2} holds −1/2 − 1/2 + 1/2) and 1 for the node {2,3}: C* = 9/4, the
    /// // largest edge sum (edge 3→4 carries only the root's 1).
    /// assert_eq!(f.congestion(), num_rational::BigRational::new(9.into(), 4.into()));
    /// ```
    pub fn route(g: &Graph, t: &Tree) -> Result<UnitFlows> {
        if t.pos.len() != g.n() {
            return Err(Error::invalid(
                "decomposition",
                "its leaves do not match the graph's vertices",
            ));
        }
        let nodes = t.internal();
        let standard = match g.family() {
            Family::General => false,
            Family::Torus { w, h } => {
                t.nodes[0].rect == Some(super::tree::Rect { x0: 0, y0: 0, w, h })
            }
            _ => *t == Tree::standard(g)?,
        };
        let mut flows = Vec::with_capacity(nodes.len());
        for &i in &nodes {
            let (l, r) = t.nodes[i].children.expect("internal");
            let (sl, sr) = (t.nodes[l].size() as i64, t.nodes[r].size() as i64);
            let set = t.set(i);
            let h = |v: usize| haar::value(t, i, v);
            let mut f = Flow::new();
            match (standard, g.family()) {
                (true, Family::Cycle | Family::Path) => {
                    let d: Vec<BigRational> = set.iter().map(|&v| h(v)).collect();
                    path_route(g, &mut f, &set, &d)?;
                }
                (true, Family::Torus { w, .. }) => {
                    let (ra, rb) = (
                        t.nodes[l].rect.expect("rect"),
                        t.nodes[r].rect.expect("rect"),
                    );
                    let p = t.nodes[i].rect.expect("rect");
                    let lines: Vec<Vec<usize>> = if ra.h == p.h && rb.h == p.h && ra.w + rb.w == p.w
                    {
                        (p.y0..p.y0 + p.h)
                            .map(|y| (p.x0..p.x0 + p.w).map(|x| y * w + x).collect())
                            .collect()
                    } else {
                        (p.x0..p.x0 + p.w)
                            .map(|x| (p.y0..p.y0 + p.h).map(|y| y * w + x).collect())
                            .collect()
                    };
                    for line in lines {
                        let d: Vec<BigRational> = line.iter().map(|&v| h(v)).collect();
                        path_route(g, &mut f, &line, &d)?;
                    }
                }
                (true, Family::Hypercube { .. }) => {
                    let half = set.len() / 2;
                    for j in 0..half {
                        push(g, &mut f, set[j], set[j + half], rat(1, sl))?;
                    }
                }
                (true, Family::Complete) => {
                    for &u in &set[..sl as usize] {
                        for &v in &set[sl as usize..] {
                            push(g, &mut f, u, v, rat(1, sl * sr))?;
                        }
                    }
                }
                _ => tree_route(g, &mut f, &set, &h)?,
            }
            flows.push(normalise(f));
        }
        Ok(UnitFlows {
            nodes,
            flows,
            method: if standard {
                "explicit"
            } else {
                "spanning-tree"
            },
        })
    }

    /// The net inflow of flow `j` at every vertex: `Σ_{u∈N(v)} g(u, v)`.
    pub fn inflow(&self, g: &Graph, j: usize) -> Vec<BigRational> {
        let mut d = vec![BigRational::zero(); g.n()];
        for (e, v) in &self.flows[j] {
            let (a, b) = g.edges()[*e];
            d[b] += v;
            d[a] -= v;
        }
        d
    }

    /// `Σ_i |g_i(e)|` for every edge.
    pub fn edge_loads(&self, g: &Graph) -> Vec<BigRational> {
        let mut c = vec![BigRational::zero(); g.m()];
        for f in &self.flows {
            for (e, v) in f {
                c[*e] += v.abs();
            }
        }
        c
    }

    /// The congestion `C* = max_e Σ_i |g_i(e)|`.
    pub fn congestion(&self) -> BigRational {
        let n = self
            .flows
            .iter()
            .flat_map(|f| f.iter().map(|(e, _)| *e))
            .max()
            .map_or(0, |e| e + 1);
        let mut c = vec![BigRational::zero(); n];
        for f in &self.flows {
            for (e, v) in f {
                c[*e] += v.abs();
            }
        }
        c.into_iter().max().unwrap_or_else(BigRational::zero)
    }
}
