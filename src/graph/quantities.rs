//! The graph quantities of claims: for a graph `G`, a hierarchical decomposition `T` with the
//! strategy built on it ([`Strategy`]) and a load vector `L`, every named number of
//! Bansal–Feldheim (arXiv:2106.06051 v2) a claim can use, at the state or at one element of a
//! quantifier (a vertex, a node of `T`, an edge, a pair of internal nodes, an ancestor pair).
//!
//! Every value is an exact rational except `spectral_gap` (`f64`). Notation: `S_i` the set of
//! node `i`, `ℓ(i)`, `r(i)` its children, `L̄(S) = Σ_{v∈S} L(v)/|S|`, `h_i` the Haar vector
//! (`−1/|S_ℓ|` on `S_ℓ(i)`, `+1/|S_r|` on `S_r(i)`), `βk = 1/C*` with `C*` the congestion of the
//! unit flows, `d_i = βk·h_i` the designed drift (C eq. (2)), `Q_L(i)` the sign of
//! `L̄(S_ℓ(i)) − L̄(S_r(i))`, `p` greedy's per-vertex probabilities, `q` the strategy's.
//!
//! | name | where | value |
//! |---|---|---|
//! | `n`, `m`, `h` | everywhere | vertices, edges, height of `T` |
//! | `dmin`, `dmax` | everywhere | smallest and largest degree |
//! | `k` | everywhere | edge connectivity ([`measures::edge_connectivity`]) |
//! | `betak`, `Cstar` | everywhere | `βk = 1/C*`, the congestion `C* = max_e Σ_i |g_i(e)|` |
//! | `expansion` | everywhere | `h(G) = min_{|S| ≤ n/2} |∂S|/|S|` (exact, `n ≤ 20`; C's `β` is `h/d`) |
//! | `spectral_gap` | everywhere | `λ₂` of the Laplacian (`f64`) |
//! | `balance` | everywhere | the tree's balance factor `max |S_c|/|S_i|` ([`Tree::balance`]) |
//! | `support_max` | everywhere | `max_e |supp p_e|` |
//! | `W`, `gap` | everywhere | `Σ L(v)`, `max L − W/n` |
//! | `v`, `x`, `y`, `deg`, `depth` | `vertices` | index (0-based), `L(v)`, `L(v) − W/n`, degree, depth of its leaf |
//! | `p`, `q` | `vertices` | greedy's and the strategy's probability of `v` |
//! | `drift` | `vertices` | `Σ_i d_i(v) Q_L(i)` (C.L3.5) |
//! | `node`, `size`, `depth`, `Lbar`, `is_leaf`, `is_root` | `nodes`, `internal` | index, `|S_j|`, depth, `L̄(S_j)`, indicators |
//! | `dsum` | `nodes`, `internal` | `Σ_{i∈I_T} |d_i(S_j)|` (C.L3.3) |
//! | `cut`, `connected` | `nodes`, `internal` | `|∂S_j|`; 1 if `G[S_j]` is connected, else 0 |
//! | `cross` | `nodes`, `internal` | `Σ_{e∈∂S_j} Σ_i p_e(i)`: the strategy's flow probability on the cut of `S_j` (C.L3.4) |
//! | `p_S`, `q_S` | `nodes`, `internal` | `p(S_j)`, `q(S_j)` |
//! | `size_l`, `size_r`, `Lbar_l`, `Lbar_r` | internal nodes | the children's sizes and averages |
//! | `sib_gap`, `QL` | internal nodes | `L̄(S_ℓ) − L̄(S_r)`, `Q_L(i)` |
//! | `q_l`, `q_r`, `pi1`, `eps_t` | internal nodes | `q(S_ℓ)`, `q(S_r)`, `π₁ = |S_ℓ|/|S_i|`, `ε_t = π₁ − q(S_ℓ)/q(S_i)` (C.L3.7-proof) |
//! | `flow_max`, `hnorm2` | internal nodes | `max_e |g_i(e)|` of the node's unit flow, `‖h_i‖² = 1/|S_ℓ| + 1/|S_r|` |
//! | `size_parent`, `Lbar_parent`, `size_sib`, `Lbar_sib` | nodes but the root | parent's and sibling's size and average |
//! | `e`, `a`, `b`, `x_a`, `x_b` | `edges` | index, endpoints (stored orientation), their loads |
//! | `support`, `p_sum`, `flow`, `bias` | `edges` | `|supp p_e|`, `Σ_i p_e(i)`, `Σ_i |g_i(e)|`, the realised bias towards `b` (C eq. (8)) |
//! | `same`, `anc`, `dl`, `dr`, `size_l`, `size_r` | `pairs` `(i, j)` | `i = j`, `i` a proper ancestor of `j`, `d_i(S_ℓ(j))`, `d_i(S_r(j))`, the sizes of `j`'s children (C.L3.2) |
//! | `size_a`, `size_b`, `dist` | `ancestors` `(a, b)` | sizes of an ancestor `a` and a descendant `b`, their distance `q` (Claim 3.1) |

use super::strategy::Strategy;
use super::tree::Tree;
use super::{greedy, measures};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use num_traits::{Signed, Zero};
use std::cell::OnceCell;

/// What a claim quantifies over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Over {
    /// Once per state.
    State,
    /// Every vertex.
    Vertices,
    /// Every node of the tree (leaves included).
    Nodes,
    /// Every internal node.
    Internal,
    /// Every edge.
    Edges,
    /// Every ordered pair `(i, j)` of internal nodes.
    Pairs,
    /// Every pair `(a, b)` with `a` a proper ancestor of `b` (any nodes).
    Ancestors,
}

impl Over {
    /// Every quantifier with its name.
    pub const ALL: [(Over, &'static str); 7] = [
        (Over::State, "state"),
        (Over::Vertices, "vertices"),
        (Over::Nodes, "nodes"),
        (Over::Internal, "internal"),
        (Over::Edges, "edges"),
        (Over::Pairs, "pairs"),
        (Over::Ancestors, "ancestors"),
    ];

    /// By name.
    ///
    /// ```
    /// use balloc::graph::quantities::Over;
    /// assert_eq!(Over::parse("edges"), Some(Over::Edges));
    /// assert_eq!(Over::parse("leaves"), None);
    /// ```
    pub fn parse(s: &str) -> Option<Over> {
        Over::ALL.iter().find(|(_, n)| *n == s).map(|(o, _)| *o)
    }
}

/// One element of a quantifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Element {
    /// The state.
    State,
    /// A vertex.
    Vertex(usize),
    /// A node.
    Node(usize),
    /// An edge.
    Edge(usize),
    /// A pair of internal nodes `(i, j)`.
    Pair(usize, usize),
    /// An ancestor `a` of `b` at distance `q`.
    Ancestor(usize, usize, usize),
}

/// A value: exact, or a float where no exact value exists.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// An exact rational.
    Exact(Q),
    /// An `f64` (the spectral gap).
    Float(f64),
}

/// Names available at every element.
pub const GLOBAL: &[&str] = &[
    "n",
    "m",
    "h",
    "dmin",
    "dmax",
    "k",
    "betak",
    "Cstar",
    "expansion",
    "spectral_gap",
    "balance",
    "support_max",
    "W",
    "gap",
    "haar_residual",
    "cut_S",
    "cut_in",
    "drift_max",
];

/// The functions of the state (integer arguments; [`GraphState::call`]): `untouched(T)`, the
/// exact probability that some vertex has none of its incident edges requested in `T` uniform
/// edge requests ([`super::coupon::untouched`], footnote 2 of §4.1); `cut_tail(T)`, Lemma 4.1's
/// `P[Y ≥ E[Y] + √T]` with `Y ~ Binomial(T, e(S)/m)` on the larger side `S` of a minimum cut
/// ([`super::binomial::lemma_4_1_tail`], enclosed); `excess_bound(T, a, b)`, a lower bound on
/// `P[max L_t − t/n ≥ a/b]` for every strategy and every `t ≥ T`, from both sides of that cut
/// ([`super::binomial::excess_lower_bound`], enclosed); `deviation_bound(T, a, b)`, a lower bound on
/// `P[max_u |L_t(u) − t/n| ≥ a/b]` for every strategy and every `t ≥ T`, from the smaller side of
/// that cut alone ([`super::binomial::deviation_lower_bound`], enclosed); `pair_bound(T, j, y)`, a
/// lower bound on `P[max L_t − t/n ≥ (j − y)/2 − T/n]` for every strategy and every `t ≥ T` on a
/// regular graph, from the edges requested at least `j` times ([`super::binomial::pair_lower_bound`],
/// enclosed); `spread_bound(T, b, y)`, a lower bound on `P[max L_t − min L_t ≥ T/n − y]` for every
/// strategy and every `t ≥ T` on a cycle, torus, hypercube or complete graph
/// ([`super::spread::spread_lower_bound`], enclosed); `eps1_greedy(k)`, the best ε of C1 at
/// `δ = k/n` of greedy's allocation vector by rank at the loads ([`greedy::conditions`]);
/// `drift_feasible(a, b)`, 1 when the uniform drift `δ = a/b` of the loads' sign pattern is
/// realisable by a flow of at most 1 per edge (max-flow, [`measures::drift_feasible`]), else 0.
pub const FUNCTIONS: &[(&str, &[&str])] = &[
    ("untouched", &["T"]),
    ("cut_tail", &["T"]),
    ("excess_bound", &["T", "a", "b"]),
    ("deviation_bound", &["T", "a", "b"]),
    ("pair_bound", &["T", "j", "y"]),
    ("spread_bound", &["T", "b", "y"]),
    ("eps1_greedy", &["k"]),
    ("drift_feasible", &["a", "b"]),
];

/// Whether a function of the state ([`FUNCTIONS`]) depends on the load vector.
///
/// ```
/// use balloc::graph::quantities::function_uses_loads;
/// assert!(function_uses_loads("eps1_greedy") && !function_uses_loads("untouched"));
/// ```
pub fn function_uses_loads(name: &str) -> bool {
    matches!(name, "eps1_greedy" | "drift_feasible")
}

/// An enclosure's rational ends, or an error naming the call `what` (e.g. `` `cut_tail(12)` ``).
fn rational_ends(iv: &crate::enclosure::Interval, what: &str) -> Result<(Q, Q)> {
    let end = |f: &malachite::Float| {
        crate::lang::domain::float_to_rational(f)
            .ok_or_else(|| undefined(format!("{what}: an infinite end")))
    };
    Ok((end(iv.lo())?, end(iv.hi())?))
}

/// The value of a function of the state: exact, or an enclosure `[lo, hi]` with rational ends.
#[derive(Debug, Clone, PartialEq)]
pub enum FnValue {
    /// An exact rational.
    Exact(Q),
    /// A certified enclosure.
    Enclosed(Q, Q),
}

/// The names of one quantifier (besides [`GLOBAL`]).
pub fn local_names(over: Over) -> &'static [&'static str] {
    match over {
        Over::State => &[],
        Over::Vertices => &[
            "v", "x", "y", "deg", "depth", "p", "q", "drift", "path_sum", "path_abs",
        ],
        Over::Nodes | Over::Internal => &[
            "node",
            "size",
            "depth",
            "Lbar",
            "is_leaf",
            "is_root",
            "dsum",
            "cut",
            "connected",
            "cross",
            "p_S",
            "q_S",
            "size_l",
            "size_r",
            "Lbar_l",
            "Lbar_r",
            "sib_gap",
            "QL",
            "q_l",
            "q_r",
            "pi1",
            "eps_t",
            "flow_max",
            "hnorm2",
            "size_parent",
            "Lbar_parent",
            "size_sib",
            "Lbar_sib",
            "h_one",
            "h_norm2",
            "h_L",
            "h_orth",
            "flow_residual",
        ],
        Over::Edges => &[
            "e",
            "a",
            "b",
            "x_a",
            "x_b",
            "support",
            "p_sum",
            "flow",
            "bias",
            "flow_bias",
        ],
        Over::Pairs => &["same", "anc", "dl", "dr", "size_l", "size_r"],
        Over::Ancestors => &["size_a", "size_b", "dist"],
    }
}

/// The per-edge names of the binders over the edges (`sum_edges(f[, pred])`, `max_edges`,
/// `min_edges`, `count_edges(pred)`) of `graph` claims, at an edge `{a, b}` (stored orientation):
/// `e` its index (0-based), `a`, `b` its endpoints (0-based), `x_a`, `x_b` their loads, `y_a`,
/// `y_b` their loads minus `W/n`, `deg_a`, `deg_b` their degrees, `p_a`, `p_b` greedy's and `q_a`,
/// `q_b` the strategy's probabilities of the endpoints, `bias` the realised bias towards `b` (C eq.
/// (8)), `flow_bias` = `Σ_i g_i(e)Q_L(i)/C*` (C.L3.5), `support` = `|supp p_e|`, `p_sum` =
/// `Σ_i p_e(i)`; with `over = "nodes"` or `"internal"`,
/// `in_a`, `in_b` (1 when the endpoint is in the node's set `S_j`, else 0), so that
/// `count_edges(in_a != in_b)` is `|∂S_j|`.
pub fn edge_names(over: Over) -> Vec<&'static str> {
    let mut v = vec![
        "e",
        "a",
        "b",
        "x_a",
        "x_b",
        "y_a",
        "y_b",
        "deg_a",
        "deg_b",
        "p_a",
        "p_b",
        "q_a",
        "q_b",
        "bias",
        "flow_bias",
        "support",
        "p_sum",
    ];
    if matches!(over, Over::Nodes | Over::Internal) {
        v.extend(["in_a", "in_b"]);
    }
    v
}

/// Whether a per-edge name depends on the load vector.
///
/// ```
/// use balloc::graph::quantities::edge_name_uses_loads;
/// assert!(edge_name_uses_loads("x_a") && edge_name_uses_loads("q_b"));
/// assert!(!edge_name_uses_loads("deg_a") && !edge_name_uses_loads("in_b"));
/// ```
pub fn edge_name_uses_loads(name: &str) -> bool {
    matches!(
        name,
        "x_a" | "x_b" | "y_a" | "y_b" | "p_a" | "p_b" | "q_a" | "q_b" | "bias" | "flow_bias"
    )
}

/// Whether a name depends on the load vector (a claim using one needs loads).
///
/// ```
/// use balloc::graph::quantities::uses_loads;
/// assert!(uses_loads("q") && uses_loads("sib_gap"));
/// assert!(!uses_loads("dsum") && !uses_loads("size"));
/// ```
pub fn uses_loads(name: &str) -> bool {
    matches!(
        name,
        "W" | "gap"
            | "x"
            | "y"
            | "p"
            | "q"
            | "drift"
            | "Lbar"
            | "p_S"
            | "q_S"
            | "Lbar_l"
            | "Lbar_r"
            | "sib_gap"
            | "QL"
            | "q_l"
            | "q_r"
            | "eps_t"
            | "Lbar_parent"
            | "Lbar_sib"
            | "x_a"
            | "x_b"
            | "bias"
            | "flow_bias"
            | "path_sum"
            | "path_abs"
            | "h_L"
            | "haar_residual"
            | "drift_max"
    )
}

fn qi(v: usize) -> Q {
    Q::from_integer(Int::from(v))
}

fn range_overlap(a: (usize, usize), b: (usize, usize)) -> usize {
    a.1.min(b.1).saturating_sub(a.0.max(b.0))
}

/// `Σ_{v∈S_j} h_i(v)` from range overlaps (every node is a range of the leaf order).
///
/// ```
/// use balloc::graph::{Graph, tree::Tree, quantities::haar_on};
/// let t = Tree::standard(&Graph::cycle(8).unwrap()).unwrap();
/// let (l, r) = t.nodes[0].children.unwrap();
/// // h_root = −1/4 on {0..3}, +1/4 on {4..7}: on S_ℓ the sum is −1, on S_r it is +1.
/// assert_eq!(haar_on(&t, 0, l), balloc::exact::Q::from_integer((-1).into()));
/// assert_eq!(haar_on(&t, 0, r), balloc::exact::Q::from_integer(1.into()));
/// ```
pub fn haar_on(t: &Tree, i: usize, j: usize) -> Q {
    let (l, r) = t.nodes[i].children.expect("an internal node");
    let rng = |k: usize| (t.nodes[k].lo, t.nodes[k].hi);
    let ol = range_overlap(rng(j), rng(l));
    let or = range_overlap(rng(j), rng(r));
    Q::new(Int::from(or), Int::from(1)) / qi(t.nodes[r].size())
        - Q::new(Int::from(ol), Int::from(1)) / qi(t.nodes[l].size())
}

/// One state: a strategy (graph and tree) and a load vector, with lazily computed tables.
pub struct GraphState<'a> {
    /// The strategy.
    pub s: &'a Strategy,
    /// The loads as given.
    pub xf: Vec<f64>,
    x: Vec<Q>,
    greedy: OnceCell<Vec<Q>>,
    q: OnceCell<Vec<Q>>,
    signs: OnceCell<Vec<i32>>,
    totals: OnceCell<Vec<Q>>,
    biases: OnceCell<Vec<Q>>,
    edge_loads: OnceCell<Vec<Q>>,
    flow_index: OnceCell<Vec<Option<usize>>>,
    flow_biases: OnceCell<Vec<Q>>,
    tails: std::cell::RefCell<Vec<(u64, Q, Q)>>,
    measures: &'a GraphMeasures,
}

/// The measures of a graph that do not depend on the tree or the loads (computed on first use).
#[derive(Default)]
pub struct GraphMeasures {
    connectivity: OnceCell<std::result::Result<usize, String>>,
    min_cut: OnceCell<std::result::Result<(usize, Vec<bool>), String>>,
    coupon: OnceCell<std::result::Result<super::coupon::SignedCounts, String>>,
    expansion: OnceCell<std::result::Result<Q, String>>,
    spectral: OnceCell<std::result::Result<f64, String>>,
}

impl GraphMeasures {
    /// No measure computed yet.
    pub fn new() -> GraphMeasures {
        GraphMeasures::default()
    }
}

fn undefined(what: String) -> Error {
    Error::invalid("graph quantity", what)
}

impl<'a> GraphState<'a> {
    /// The state of `s` at loads `x` (`x.len() = n`, finite).
    ///
    /// ```
    /// use balloc::graph::{Graph, strategy::Strategy, quantities::{GraphMeasures, GraphState, Element, Value}};
    /// use balloc::exact::Q;
    /// let s = Strategy::new(&Graph::cycle(4).unwrap()).unwrap();
    /// let m = GraphMeasures::new();
    /// let st = GraphState::new(&s, &[2.0, 0.0, 0.0, 0.0], &m).unwrap();
    /// // Greedy on C_4 with one loaded vertex: vertex 0 loses both its edges: p(0) = 0.
    /// assert_eq!(st.value("p", Element::Vertex(0)).unwrap(), Value::Exact(Q::from_integer(0.into())));
    /// assert!(GraphState::new(&s, &[1.0, 2.0], &m).is_err());
    /// ```
    pub fn new(s: &'a Strategy, x: &[f64], measures: &'a GraphMeasures) -> Result<GraphState<'a>> {
        if x.len() != s.graph.n() {
            return Err(Error::invalid(
                "loads",
                format!(
                    "{} loads but graph `{}` has n = {}",
                    x.len(),
                    s.graph.name(),
                    s.graph.n()
                ),
            ));
        }
        let xq = x
            .iter()
            .map(|&v| crate::exact::from_f64(v, "loads"))
            .collect::<Result<Vec<Q>>>()?;
        Ok(GraphState {
            s,
            xf: x.to_vec(),
            x: xq,
            greedy: OnceCell::new(),
            q: OnceCell::new(),
            signs: OnceCell::new(),
            totals: OnceCell::new(),
            biases: OnceCell::new(),
            edge_loads: OnceCell::new(),
            flow_index: OnceCell::new(),
            flow_biases: OnceCell::new(),
            tails: std::cell::RefCell::new(Vec::new()),
            measures,
        })
    }

    fn t(&self) -> &Tree {
        &self.s.tree
    }

    /// The elements of a quantifier, in a fixed order.
    ///
    /// Their number, without building them, is [`element_count`].
    pub fn elements(&self, over: Over) -> Vec<Element> {
        let t = self.t();
        match over {
            Over::State => vec![Element::State],
            Over::Vertices => (0..self.s.graph.n()).map(Element::Vertex).collect(),
            Over::Nodes => (0..t.nodes.len()).map(Element::Node).collect(),
            Over::Internal => t.internal().into_iter().map(Element::Node).collect(),
            Over::Edges => (0..self.s.graph.m()).map(Element::Edge).collect(),
            Over::Pairs => {
                let int = t.internal();
                int.iter()
                    .flat_map(|&i| int.iter().map(move |&j| Element::Pair(i, j)))
                    .collect()
            }
            Over::Ancestors => {
                let mut out = Vec::new();
                for b in 0..t.nodes.len() {
                    let (mut a, mut q) = (t.nodes[b].parent, 1);
                    while let Some(i) = a {
                        out.push(Element::Ancestor(i, b, q));
                        a = t.nodes[i].parent;
                        q += 1;
                    }
                }
                out
            }
        }
    }

    /// A short description of an element for reports.
    pub fn describe(&self, el: Element) -> String {
        let t = self.t();
        let set = |i: usize| {
            let s = t.set(i);
            if s.len() <= 8 {
                format!(
                    "{{{}}}",
                    s.iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                format!("{} vertices", s.len())
            }
        };
        match el {
            Element::State => "the state".into(),
            Element::Vertex(v) => format!("vertex {v}"),
            Element::Node(i) => format!("node {i} (S = {}, depth {})", set(i), t.nodes[i].depth),
            Element::Edge(e) => {
                let (a, b) = self.s.graph.edges()[e];
                format!("edge {e} ({a}–{b})")
            }
            Element::Pair(i, j) => {
                format!("nodes i = {i} (S = {}), j = {j} (S = {})", set(i), set(j))
            }
            Element::Ancestor(a, b, q) => format!(
                "ancestor {a} (|S| = {}) of node {b} (|S| = {}) at distance {q}",
                t.nodes[a].size(),
                t.nodes[b].size()
            ),
        }
    }

    /// A minimum cut `(k, side)` with its larger side marked (computed once per graph).
    fn min_cut(&self) -> Result<&(usize, Vec<bool>)> {
        self.measures
            .min_cut
            .get_or_init(|| measures::minimum_cut(&self.s.graph).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| undefined(format!("the minimum cut: {e}")))
    }

    /// The sign pattern of the loads for the uniform drift of C.Heur.first-attempt: `−1` at an
    /// overloaded vertex (`y > 0`), `+1` at an underloaded one (`y < 0`); an error at `y = 0`.
    fn load_signs(&self, what: &str) -> Result<Vec<i32>> {
        let n = qi(self.s.graph.n());
        let w: Q = self.x.iter().sum();
        let mean = w / n;
        self.x
            .iter()
            .enumerate()
            .map(|(v, xv)| match xv.cmp(&mean) {
                std::cmp::Ordering::Greater => Ok(-1),
                std::cmp::Ordering::Less => Ok(1),
                std::cmp::Ordering::Equal => Err(undefined(format!(
                    "`{what}` needs every vertex over- or underloaded; vertex {v} is at the mean"
                ))),
            })
            .collect()
    }

    /// `Σ_i g_i(e)Q_L(i)/C*` for every edge (C eq. (8) read through the flows, C.L3.5).
    fn flow_biases(&self) -> Result<&Vec<Q>> {
        if let Some(v) = self.flow_biases.get() {
            return Ok(v);
        }
        let signs = self.signs()?;
        let mut b = vec![Q::zero(); self.s.graph.m()];
        for (j, &i) in self.s.flows.nodes.iter().enumerate() {
            if signs[i] == 0 {
                continue;
            }
            let sign = Q::from_integer(Int::from(signs[i]));
            for (e, v) in &self.s.flows.flows[j] {
                b[*e] += v * &sign / &self.s.congestion;
            }
        }
        Ok(self.flow_biases.get_or_init(|| b))
    }

    /// A function of the state ([`FUNCTIONS`]) at integer arguments.
    ///
    /// ```
    /// use balloc::graph::{Graph, strategy::Strategy, quantities::{FnValue, GraphMeasures, GraphState}};
    /// use balloc::exact::Q;
    /// // C₄, T = 1: one request touches two of the four vertices, so some vertex is untouched
    /// // with probability 1; T = 2: untouched unless the two edges are disjoint ({0–1, 2–3} or
    /// // {1–2, 3–0} in either order: 4 of the 4·4 ordered pairs): 1 − 4/16 = 3/4.
    /// let s = Strategy::new(&Graph::cycle(4).unwrap()).unwrap();
    /// let m = GraphMeasures::new();
    /// let st = GraphState::new(&s, &[1.0, 1.0, 0.0, 0.0], &m).unwrap();
    /// assert_eq!(st.call("untouched", &[1]).unwrap(), FnValue::Exact(Q::from_integer(1.into())));
    /// assert_eq!(st.call("untouched", &[2]).unwrap(), FnValue::Exact(Q::new(3.into(), 4.into())));
    /// // Greedy at (1, 1, 0, 0): the heavy pair {0, 1} receives only through its edge 0–1 (tied,
    /// // 1/4), so k = 2 gives p₁ + p₂ = 1/4 = (1 − ε)·2/4: ε*(1/2) = 1/2 (= β(C₄)).
    /// assert_eq!(st.call("eps1_greedy", &[2]).unwrap(), FnValue::Exact(Q::new(1.into(), 2.into())));
    /// // The halves of C₄ can exchange at most 2 units over the two cut edges: δ·d·2 ≤ 2 with
    /// // d = 2, so δ* = 1/2: feasible at 1/2, not at 3/4.
    /// assert_eq!(st.call("drift_feasible", &[1, 2]).unwrap(), FnValue::Exact(Q::from_integer(1.into())));
    /// assert_eq!(st.call("drift_feasible", &[3, 4]).unwrap(), FnValue::Exact(Q::from_integer(0.into())));
    /// assert!(st.call("untouched", &[-1]).is_err());
    /// ```
    pub fn call(&self, name: &str, args: &[i64]) -> Result<FnValue> {
        let g = &self.s.graph;
        let arg = |k: usize| -> Result<u64> {
            args.get(k)
                .and_then(|&a| u64::try_from(a).ok())
                .ok_or_else(|| undefined(format!("`{name}`: argument {} must be ≥ 0", k + 1)))
        };
        match name {
            "untouched" => {
                let t = arg(0)?;
                crate::limits::COUPON_WORK.check_u128(
                    &format!(
                        "`untouched`: graph `{}`, T = {t}: the exact sum (m + 1)·T",
                        g.name()
                    ),
                    (g.m() as u128 + 1) * u128::from(t.max(1)),
                )?;
                let counts = self
                    .measures
                    .coupon
                    .get_or_init(|| {
                        super::coupon::signed_counts(g, false).map_err(|e| e.to_string())
                    })
                    .as_ref()
                    .map_err(|e| undefined(format!("`untouched`: {e}")))?;
                Ok(FnValue::Exact(super::coupon::sum(&counts.counts, g.m(), t)))
            }
            "cut_tail" => {
                let t = arg(0)?;
                if let Some((_, lo, hi)) = self.tails.borrow().iter().find(|(k, _, _)| *k == t) {
                    return Ok(FnValue::Enclosed(lo.clone(), hi.clone()));
                }
                let (_, side) = self.min_cut()?;
                let inside = g
                    .edges()
                    .iter()
                    .filter(|&&(a, b)| side[a] && side[b])
                    .count();
                let p = qi(inside) / qi(g.m());
                let iv = super::binomial::lemma_4_1_tail(t, &p, 256)
                    .map_err(|e| undefined(format!("`cut_tail({t})`: {e}")))?;
                let (lo, hi) = rational_ends(&iv, &format!("`cut_tail({t})`"))?;
                self.tails.borrow_mut().push((t, lo.clone(), hi.clone()));
                Ok(FnValue::Enclosed(lo, hi))
            }
            "excess_bound" | "deviation_bound" => {
                let (t, a, b) = (arg(0)?, arg(1)?, arg(2)?);
                if b == 0 {
                    return Err(undefined(format!("`{name}(T, a, b)`: b must be positive")));
                }
                let (_, side) = self.min_cut()?;
                // |s|, the edges inside s and the edges touching s, for each side of the cut.
                let count = |want: bool| {
                    let size = side.iter().filter(|&&v| v == want).count();
                    let (mut inside, mut touching) = (0, 0);
                    for &(u, v) in g.edges() {
                        inside += usize::from(side[u] == want && side[v] == want);
                        touching += usize::from(side[u] == want || side[v] == want);
                    }
                    (size, inside, touching)
                };
                let x = Q::new(Int::from(a), Int::from(b));
                let iv = if name == "excess_bound" {
                    let sides = [true, false].map(|w| {
                        let (size, inside, _) = count(w);
                        (size, inside)
                    });
                    super::binomial::excess_lower_bound(t, &sides, g.n(), g.m(), &x, 256)
                } else {
                    // The smaller side (the marked side is the larger one).
                    super::binomial::deviation_lower_bound(t, count(false), g.n(), g.m(), &x, 256)
                }
                .map_err(|e| undefined(format!("`{name}({t}, {a}, {b})`: {e}")))?;
                let (lo, hi) = rational_ends(&iv, &format!("`{name}({t}, {a}, {b})`"))?;
                Ok(FnValue::Enclosed(lo, hi))
            }
            "pair_bound" => {
                let (t, j, y) = (arg(0)?, arg(1)?, arg(2)?);
                if g.regular_degree().is_none() {
                    return Err(undefined(format!(
                        "`pair_bound({t}, {j}, {y})`: graph `{}` is not regular (the bound \
                         averages the loads over the edges, which weights a vertex by its degree)",
                        g.name()
                    )));
                }
                let iv = super::binomial::pair_lower_bound(t, g.n(), g.m(), j, y, 256)
                    .map_err(|e| undefined(format!("`pair_bound({t}, {j}, {y})`: {e}")))?;
                let (lo, hi) = rational_ends(&iv, &format!("`pair_bound({t}, {j}, {y})`"))?;
                Ok(FnValue::Enclosed(lo, hi))
            }
            "spread_bound" => {
                let (t, b, y) = (arg(0)?, arg(1)?, arg(2)?);
                let iv = super::spread::spread_lower_bound(g, t, b, y, 256)
                    .map_err(|e| undefined(format!("`spread_bound({t}, {b}, {y})`: {e}")))?;
                let (lo, hi) = rational_ends(&iv, &format!("`spread_bound({t}, {b}, {y})`"))?;
                Ok(FnValue::Enclosed(lo, hi))
            }
            "eps1_greedy" => {
                let k = usize::try_from(arg(0)?).unwrap_or(usize::MAX);
                if k == 0 || k >= g.n() {
                    return Err(undefined(format!(
                        "`eps1_greedy({k})`: k = δn must be in 1..{}",
                        g.n()
                    )));
                }
                let loads = crate::loads::Loads::new(self.xf.clone())?;
                let (e, _) = greedy::conditions(g, &loads, k)?;
                Ok(FnValue::Exact(e.eps))
            }
            "drift_feasible" => {
                let (a, b) = (arg(0)?, arg(1)?);
                let (a, b) = (
                    i64::try_from(a).unwrap_or(i64::MAX),
                    i64::try_from(b).unwrap_or(i64::MAX),
                );
                if b == 0 {
                    return Err(undefined(
                        "`drift_feasible(a, b)`: b must be positive".into(),
                    ));
                }
                let signs = self.load_signs("drift_feasible")?;
                let ok = measures::drift_feasible(g, &signs, a, b)
                    .map_err(|e| undefined(format!("`drift_feasible`: {e}")))?;
                Ok(FnValue::Exact(qi(usize::from(ok))))
            }
            _ => Err(undefined(format!(
                "`{name}` is not a function of graph states"
            ))),
        }
    }

    fn greedy(&self) -> Result<&Vec<Q>> {
        if let Some(v) = self.greedy.get() {
            return Ok(v);
        }
        let v = greedy::probabilities_exact(&self.s.graph, &self.xf)?;
        Ok(self.greedy.get_or_init(|| v))
    }

    fn q(&self) -> Result<&Vec<Q>> {
        if let Some(v) = self.q.get() {
            return Ok(v);
        }
        let v = self.s.probabilities_exact(&self.xf)?;
        Ok(self.q.get_or_init(|| v))
    }

    fn signs(&self) -> Result<&Vec<i32>> {
        if let Some(v) = self.signs.get() {
            return Ok(v);
        }
        let v = self.s.signs(&self.xf)?;
        Ok(self.signs.get_or_init(|| v))
    }

    fn biases(&self) -> Result<&Vec<Q>> {
        if let Some(v) = self.biases.get() {
            return Ok(v);
        }
        let v = self.s.biases(&self.xf)?;
        Ok(self.biases.get_or_init(|| v))
    }

    /// `L(S_j)` for every node.
    fn totals(&self) -> &Vec<Q> {
        self.totals.get_or_init(|| {
            let t = self.t();
            // Prefix sums along the leaf order: every node is a range.
            let mut pre = vec![Q::zero()];
            for &v in &t.order {
                let last = pre.last().expect("non-empty").clone();
                pre.push(last + &self.x[v]);
            }
            t.nodes.iter().map(|nd| &pre[nd.hi] - &pre[nd.lo]).collect()
        })
    }

    fn edge_loads(&self) -> &Vec<Q> {
        self.edge_loads
            .get_or_init(|| self.s.flows.edge_loads(&self.s.graph))
    }

    fn flow_of(&self, i: usize) -> Option<usize> {
        self.flow_index.get_or_init(|| {
            let mut idx = vec![None; self.t().nodes.len()];
            for (j, &node) in self.s.flows.nodes.iter().enumerate() {
                idx[node] = Some(j);
            }
            idx
        })[i]
    }

    fn lbar(&self, i: usize) -> Q {
        &self.totals()[i] / qi(self.t().nodes[i].size())
    }

    fn mass(&self, probs: &[Q], i: usize) -> Q {
        let t = self.t();
        t.order[t.nodes[i].lo..t.nodes[i].hi]
            .iter()
            .map(|&v| probs[v].clone())
            .sum()
    }

    fn children(&self, i: usize, name: &str) -> Result<(usize, usize)> {
        self.t().nodes[i].children.ok_or_else(|| {
            undefined(format!(
                "`{name}` at node {i}, a leaf (use it over `internal`, or guard with `is_leaf ||`)"
            ))
        })
    }

    fn parent_sib(&self, i: usize, name: &str) -> Result<(usize, usize)> {
        let t = self.t();
        let p = t.nodes[i]
            .parent
            .ok_or_else(|| undefined(format!("`{name}` at the root (guard with `is_root ||`)")))?;
        let (l, r) = t.nodes[p].children.expect("a parent is internal");
        Ok((p, if l == i { r } else { l }))
    }

    fn dsum(&self, j: usize) -> Q {
        let t = self.t();
        let bk = self.s.beta_k();
        // Only proper ancestors i of j have d_i(S_j) ≠ 0 (d_j(S_j) = βk(−1 + 1) = 0, and
        // disjoint or lower nodes contribute 0).
        let mut sum = Q::zero();
        let mut a = t.nodes[j].parent;
        while let Some(i) = a {
            sum += (haar_on(t, i, j) * &bk).abs();
            a = t.nodes[i].parent;
        }
        sum
    }

    fn cut(&self, i: usize) -> usize {
        let t = self.t();
        self.s
            .graph
            .edges()
            .iter()
            .filter(|&&(a, b)| t.contains(i, a) != t.contains(i, b))
            .count()
    }

    fn cross(&self, i: usize) -> Q {
        let t = self.t();
        let g = &self.s.graph;
        let mut sum = Q::zero();
        for (e, &(a, b)) in g.edges().iter().enumerate() {
            if t.contains(i, a) != t.contains(i, b) {
                for ch in &self.s.per_edge[e] {
                    sum += &ch.prob;
                }
            }
        }
        sum
    }

    fn connected(&self, i: usize) -> bool {
        let t = self.t();
        let set = t.set(i);
        let mut seen = vec![false; self.s.graph.n()];
        let mut stack = vec![set[0]];
        seen[set[0]] = true;
        let mut count = 1;
        while let Some(v) = stack.pop() {
            for &(u, _) in self.s.graph.neighbours(v) {
                if !seen[u] && t.contains(i, u) {
                    seen[u] = true;
                    count += 1;
                    stack.push(u);
                }
            }
        }
        count == set.len()
    }

    fn global(&self, name: &str) -> Result<Option<Value>> {
        let g = &self.s.graph;
        let ex = |q: Q| Ok(Some(Value::Exact(q)));
        let degs = || (0..g.n()).map(|v| g.degree(v));
        match name {
            "n" => ex(qi(g.n())),
            "m" => ex(qi(g.m())),
            "h" => ex(qi(self.t().height())),
            "dmin" => ex(qi(degs().min().unwrap_or(0))),
            "dmax" => ex(qi(degs().max().unwrap_or(0))),
            "k" => {
                let r = self
                    .measures
                    .connectivity
                    .get_or_init(|| measures::edge_connectivity(g).map_err(|e| e.to_string()));
                match r {
                    Ok(k) => ex(qi(*k)),
                    Err(e) => Err(undefined(format!("`k`: {e}"))),
                }
            }
            "betak" => ex(self.s.beta_k()),
            "Cstar" => ex(self.s.congestion.clone()),
            "expansion" => {
                let r = self.measures.expansion.get_or_init(|| {
                    measures::edge_expansion(g)
                        .map(|(h, _)| h)
                        .map_err(|e| e.to_string())
                });
                match r {
                    Ok(h) => ex(h.clone()),
                    Err(e) => Err(undefined(format!("`expansion`: {e}"))),
                }
            }
            "spectral_gap" => {
                let r = self
                    .measures
                    .spectral
                    .get_or_init(|| measures::spectral_gap(g).map_err(|e| e.to_string()));
                match r {
                    Ok(v) => Ok(Some(Value::Float(*v))),
                    Err(e) => Err(undefined(format!("`spectral_gap`: {e}"))),
                }
            }
            "balance" => ex(self.t().balance()),
            "support_max" => ex(qi(self.s.support_size())),
            "W" => ex(self.x.iter().sum()),
            "gap" => {
                let w: Q = self.x.iter().sum();
                let max = self.x.iter().max().cloned().unwrap_or_else(Q::zero);
                ex(max - w / qi(g.n()))
            }
            "haar_residual" => ex(super::haar::expansion_residual(self.t(), &self.x)),
            "cut_S" | "cut_in" => {
                let (_, side) = self.min_cut()?;
                ex(qi(if name == "cut_S" {
                    side.iter().filter(|&&v| v).count()
                } else {
                    g.edges()
                        .iter()
                        .filter(|&&(a, b)| side[a] && side[b])
                        .count()
                }))
            }
            "drift_max" => {
                let signs = self.load_signs("drift_max")?;
                let (d, _) = measures::max_uniform_drift(g, &signs)
                    .map_err(|e| undefined(format!("`drift_max`: {e}")))?;
                ex(d)
            }
            _ => Ok(None),
        }
    }

    /// Per-edge name `name` ([`edge_names`]) at edge `e`, inside the element `at` of the
    /// quantifier (`in_a`, `in_b` read the set of a node).
    ///
    /// ```
    /// use balloc::graph::{Graph, strategy::Strategy, quantities::{GraphMeasures, GraphState, Element, Value}};
    /// use balloc::exact::Q;
    /// // C_4 with loads (3, 1, 0, 0): edge 0 is 0–1, so y_a = 3 − 1 = 2 and deg_b = 2.
    /// let s = Strategy::new(&Graph::cycle(4).unwrap()).unwrap();
    /// let m = GraphMeasures::new();
    /// let st = GraphState::new(&s, &[3.0, 1.0, 0.0, 0.0], &m).unwrap();
    /// let q = |v: i64| Value::Exact(Q::from_integer(v.into()));
    /// assert_eq!(st.edge_value("y_a", 0, Element::State).unwrap(), q(2));
    /// assert_eq!(st.edge_value("deg_b", 0, Element::State).unwrap(), q(2));
    /// assert!(st.edge_value("in_a", 0, Element::State).is_err());
    /// ```
    pub fn edge_value(&self, name: &str, e: usize, at: Element) -> Result<Value> {
        let g = &self.s.graph;
        let (a, b) = *g
            .edges()
            .get(e)
            .ok_or_else(|| undefined(format!("no edge {e}")))?;
        let ex = |q: Q| Ok(Value::Exact(q));
        let end = |suffix: &str| if suffix == "a" { a } else { b };
        match name {
            "e" | "a" | "b" | "x_a" | "x_b" | "bias" | "flow_bias" | "support" | "p_sum" => {
                self.value(name, Element::Edge(e))
            }
            "y_a" | "y_b" => {
                let w: Q = self.x.iter().sum();
                ex(&self.x[end(&name[2..])] - w / qi(g.n()))
            }
            "deg_a" | "deg_b" => ex(qi(g.degree(end(&name[4..])))),
            "p_a" | "p_b" => ex(self.greedy()?[end(&name[2..])].clone()),
            "q_a" | "q_b" => ex(self.q()?[end(&name[2..])].clone()),
            "in_a" | "in_b" => match at {
                Element::Node(j) => {
                    let nd = &self.t().nodes[j];
                    let v = end(&name[3..]);
                    let pos = self.t().pos[v];
                    Ok(Value::Exact(qi(usize::from((nd.lo..nd.hi).contains(&pos)))))
                }
                _ => Err(undefined(format!(
                    "`{name}` is the membership of an endpoint in a node's set: use over = \"nodes\" or \"internal\""
                ))),
            },
            _ => Err(undefined(format!("`{name}` is not a per-edge name"))),
        }
    }

    /// The value of `name` at `el`; `Err` when the name is undefined there (e.g. `size_l` at a
    /// leaf) or a measure is beyond its limit; `Ok(None)` for a name this module does not know.
    pub fn value(&self, name: &str, el: Element) -> Result<Value> {
        if let Some(v) = self.global(name)? {
            return Ok(v);
        }
        let v = match el {
            Element::State => None,
            Element::Vertex(v) => self.vertex_value(name, v)?,
            Element::Node(i) => self.node_value(name, i)?,
            Element::Edge(e) => self.per_edge_value(name, e)?,
            Element::Pair(i, j) => self.pair_value(name, i, j)?,
            Element::Ancestor(a, b, q) => match name {
                "size_a" => Some(Value::Exact(qi(self.t().nodes[a].size()))),
                "size_b" => Some(Value::Exact(qi(self.t().nodes[b].size()))),
                "dist" => Some(Value::Exact(qi(q))),
                _ => None,
            },
        };
        v.ok_or_else(|| undefined(format!("`{name}` is not defined at {}", self.describe(el))))
    }

    /// The per-vertex value of `name` at vertex `v` (`None`: not a per-vertex name).
    fn vertex_value(&self, name: &str, v: usize) -> Result<Option<Value>> {
        let t = self.t();
        let g = &self.s.graph;
        let n = g.n();
        let ex = |q: Q| Ok(Some(Value::Exact(q)));
        match name {
            "v" => ex(qi(v)),
            "x" => ex(self.x[v].clone()),
            "y" => {
                let w: Q = self.x.iter().sum();
                ex(&self.x[v] - w / qi(n))
            }
            "deg" => ex(qi(g.degree(v))),
            "depth" => ex(qi(t.nodes[t.leaf[v]].depth)),
            "p" => ex(self.greedy()?[v].clone()),
            "q" => ex(self.q()?[v].clone()),
            "path_sum" | "path_abs" => {
                // The telescoping terms L̄(S_{i_{j−1}}) − L̄(S_{i_j}) along the leaf-to-root
                // path (C.Id.telescope), summed, or their absolute values summed.
                let p = t.path_to_root(v);
                let terms = p.windows(2).map(|w| self.lbar(w[0]) - self.lbar(w[1]));
                ex(if name == "path_sum" {
                    terms.sum()
                } else {
                    terms.map(|d| d.abs()).sum()
                })
            }
            "drift" => {
                let signs = self.signs()?;
                let mut s = Q::zero();
                for &i in &t.path_to_root(v)[1..] {
                    if signs[i] != 0 {
                        s += self.s.designed_drift(i, v) * Q::from_integer(Int::from(signs[i]));
                    }
                }
                ex(s)
            }
            _ => Ok(None),
        }
    }

    /// The per-node value of `name` at node `i` of the tree, including those of its children
    /// and of its parent and sibling (`None`: not a per-node name).
    fn node_value(&self, name: &str, i: usize) -> Result<Option<Value>> {
        let t = self.t();
        let g = &self.s.graph;
        let nd = &t.nodes[i];
        let ex = |q: Q| Ok(Some(Value::Exact(q)));
        let ind = |b: bool| Ok(Some(Value::Exact(qi(usize::from(b)))));
        match name {
            "node" => ex(qi(i)),
            "size" => ex(qi(nd.size())),
            "depth" => ex(qi(nd.depth)),
            "Lbar" => ex(self.lbar(i)),
            "is_leaf" => ind(nd.children.is_none()),
            "is_root" => ind(nd.parent.is_none()),
            "dsum" => ex(self.dsum(i)),
            "cut" => ex(qi(self.cut(i))),
            "connected" => ind(self.connected(i)),
            "cross" => ex(self.cross(i)),
            "p_S" => ex(self.mass(self.greedy()?, i)),
            "q_S" => ex(self.mass(self.q()?, i)),
            "size_l" | "size_r" | "Lbar_l" | "Lbar_r" | "sib_gap" | "QL" | "q_l" | "q_r"
            | "pi1" | "eps_t" | "flow_max" | "hnorm2" | "h_one" | "h_norm2" | "h_L" | "h_orth"
            | "flow_residual" => {
                let (l, r) = self.children(i, name)?;
                let (sl, sr) = (qi(t.nodes[l].size()), qi(t.nodes[r].size()));
                match name {
                    "size_l" => ex(sl),
                    "size_r" => ex(sr),
                    "Lbar_l" => ex(self.lbar(l)),
                    "Lbar_r" => ex(self.lbar(r)),
                    "sib_gap" => ex(self.lbar(l) - self.lbar(r)),
                    "QL" => ex(Q::from_integer(Int::from(self.signs()?[i]))),
                    "q_l" => ex(self.mass(self.q()?, l)),
                    "q_r" => ex(self.mass(self.q()?, r)),
                    "pi1" => ex(sl / qi(nd.size())),
                    "eps_t" => {
                        let qs = self.mass(self.q()?, i);
                        if qs.is_zero() {
                            return Err(undefined(format!("`eps_t` at node {i}: q(S_i) = 0")));
                        }
                        ex(sl / qi(nd.size()) - self.mass(self.q()?, l) / qs)
                    }
                    "flow_max" => ex(self
                        .flow_of(i)
                        .and_then(|j| self.s.flows.flows[j].iter().map(|(_, v)| v.abs()).max())
                        .unwrap_or_else(Q::zero)),
                    "h_one" => ex(super::haar::vector(t, i).into_iter().sum()),
                    "h_norm2" => ex(super::haar::dot(t, i, i)),
                    "h_L" => ex(super::haar::dot_loads(t, i, &self.x)),
                    "h_orth" => ex(t
                        .internal()
                        .into_iter()
                        .filter(|&j| j != i)
                        .map(|j| super::haar::dot(t, i, j).abs())
                        .max()
                        .unwrap_or_else(Q::zero)),
                    "flow_residual" => {
                        let j = self.flow_of(i).ok_or_else(|| {
                            undefined(format!("`flow_residual` at node {i}: no unit flow"))
                        })?;
                        let inflow = self.s.flows.inflow(g, j);
                        ex(inflow
                            .iter()
                            .enumerate()
                            .map(|(v, d)| (d - super::haar::value(t, i, v)).abs())
                            .sum())
                    }
                    _ => ex(sl.recip() + sr.recip()),
                }
            }
            "size_parent" | "Lbar_parent" | "size_sib" | "Lbar_sib" => {
                let (p, sib) = self.parent_sib(i, name)?;
                match name {
                    "size_parent" => ex(qi(t.nodes[p].size())),
                    "Lbar_parent" => ex(self.lbar(p)),
                    "size_sib" => ex(qi(t.nodes[sib].size())),
                    _ => ex(self.lbar(sib)),
                }
            }
            _ => Ok(None),
        }
    }

    /// The per-edge value of `name` at edge `e` (`None`: not a per-edge name).
    fn per_edge_value(&self, name: &str, e: usize) -> Result<Option<Value>> {
        let g = &self.s.graph;
        let (a, b) = g.edges()[e];
        let ch = &self.s.per_edge[e];
        let ex = |q: Q| Ok(Some(Value::Exact(q)));
        match name {
            "e" => ex(qi(e)),
            "a" => ex(qi(a)),
            "b" => ex(qi(b)),
            "x_a" => ex(self.x[a].clone()),
            "x_b" => ex(self.x[b].clone()),
            "support" => ex(qi(ch.len())),
            "p_sum" => ex(ch.iter().map(|c| c.prob.clone()).sum()),
            "flow" => ex(self.edge_loads()[e].clone()),
            "bias" => ex(self.biases()?[e].clone()),
            "flow_bias" => ex(self.flow_biases()?[e].clone()),
            _ => Ok(None),
        }
    }

    /// The value of `name` at the pair of internal nodes (`i`, `j`) (`None`: not a per-pair
    /// name).
    fn pair_value(&self, name: &str, i: usize, j: usize) -> Result<Option<Value>> {
        let t = self.t();
        let ex = |q: Q| Ok(Some(Value::Exact(q)));
        let ind = |b: bool| Ok(Some(Value::Exact(qi(usize::from(b)))));
        match name {
            "same" => ind(i == j),
            "anc" => {
                let mut a = t.nodes[j].parent;
                while let Some(k) = a {
                    if k == i {
                        return ind(true);
                    }
                    a = t.nodes[k].parent;
                }
                ind(false)
            }
            "dl" | "dr" | "size_l" | "size_r" => {
                let (l, r) = t.nodes[j].children.expect("pairs are internal");
                let c = if name.ends_with('l') { l } else { r };
                match name {
                    "dl" | "dr" => ex(haar_on(t, i, c) * self.s.beta_k()),
                    _ => ex(qi(t.nodes[c].size())),
                }
            }
            _ => Ok(None),
        }
    }
}

/// The number of elements of a quantifier on a strategy's graph and tree (what
/// [`GraphState::elements`] lists): 1, `n`, the nodes, the internal nodes, `m`, the internal nodes
/// squared, or `Σ_b depth(b)` (proper ancestor pairs). Counts a claim's work before it runs.
///
/// ```
/// use balloc::graph::{Graph, strategy::Strategy, quantities::{element_count, Over}};
/// // C_8 with the halving tree: 15 nodes, 7 internal, depths 0, 1, 1, 2 × 4, 3 × 8 → 34 pairs.
/// let s = Strategy::new(&Graph::cycle(8).unwrap()).unwrap();
/// assert_eq!(element_count(&s, Over::Nodes), 15);
/// assert_eq!(element_count(&s, Over::Pairs), 49);
/// assert_eq!(element_count(&s, Over::Ancestors), 34);
/// ```
pub fn element_count(s: &Strategy, over: Over) -> u64 {
    let t = &s.tree;
    let internal = t.internal().len() as u64;
    match over {
        Over::State => 1,
        Over::Vertices => s.graph.n() as u64,
        Over::Nodes => t.nodes.len() as u64,
        Over::Internal => internal,
        Over::Edges => s.graph.m() as u64,
        Over::Pairs => internal.saturating_mul(internal),
        Over::Ancestors => t.nodes.iter().map(|nd| nd.depth as u64).sum(),
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::graph::Graph;

    fn q(a: i64, b: i64) -> Q {
        Q::new(a.into(), b.into())
    }

    fn exact(st: &GraphState, name: &str, el: Element) -> Q {
        match st.value(name, el).unwrap() {
            Value::Exact(v) => v,
            Value::Float(f) => panic!("{name} is a float {f}"),
        }
    }

    fn every_listed_name_is_defined_somewhere() {
        let s = Strategy::new(&Graph::cycle(8).unwrap()).unwrap();
        let m = GraphMeasures::new();
        let st = GraphState::new(&s, &[4.0, 4.0, 4.0, 4.0, 2.0, 2.0, 0.0, 1.0], &m).unwrap();
        for (over, _) in Over::ALL {
            for name in GLOBAL.iter().chain(local_names(over)) {
                let ok = st
                    .elements(over)
                    .iter()
                    .any(|&el| st.value(name, el).is_ok());
                assert!(ok, "{name} over {over:?}");
            }
        }
        assert!(st.value("size_l", Element::Node(s.tree.leaf[0])).is_err());
        assert!(st.value("nonsense", Element::State).is_err());
    }

    fn c4_by_hand() {
        // C_4: edges 0–1, 1–2, 2–3, 3–0; halving tree: root {0,1,2,3} → {0,1} | {2,3}.
        // Explicit routing along the arc 0–1–2–3 (the wrap edge 3–0 unused):
        //   root: h = (−1/2, −1/2, 1/2, 1/2): edge 0→1 carries 1/2, 1→2 carries 1, 2→3 carries 1/2;
        //   {0,1}: h = (−1, 1, 0, 0): edge 0→1 carries 1; {2,3}: edge 2→3 carries 1.
        // Edge sums: 0–1: 3/2, 1–2: 1, 2–3: 3/2, 3–0: 0, so C* = 3/2 and βk = 2/3.
        let s = Strategy::new(&Graph::cycle(4).unwrap()).unwrap();
        let m = GraphMeasures::new();
        let st = GraphState::new(&s, &[3.0, 1.0, 0.0, 0.0], &m).unwrap();
        assert_eq!(exact(&st, "Cstar", Element::State), q(3, 2));
        assert_eq!(exact(&st, "betak", Element::State), q(2, 3));
        assert_eq!(exact(&st, "support_max", Element::State), q(2, 1));
        // Loads (3, 1, 0, 0), W = 4: gap = 3 − 1 = 2.
        assert_eq!(exact(&st, "gap", Element::State), q(2, 1));
        // Greedy: edge 0–1 → 1, 1–2 → 2, 2–3 tied → ½ each, 3–0 → 3; each edge has mass 1/4:
        // p = (0, 1/4, 3/8, 3/8).
        let p: Vec<Q> = (0..4)
            .map(|v| exact(&st, "p", Element::Vertex(v)))
            .collect();
        assert_eq!(p, vec![q(0, 1), q(1, 4), q(3, 8), q(3, 8)]);
        // Strategy: root: L̄({0,1}) = 2 > L̄({2,3}) = 0: Q = +1; {0,1}: 3 > 1: Q = +1;
        // {2,3}: tied, Q = 0. Edge 0–1: p(root) = (1/2)/(3/2) = 1/3 with σ = +1 (towards 1),
        // p({0,1}) = 2/3 with σ = +1: the ball goes to 1 with probability 1.
        // Edge 1–2: p(root) = 2/3, σ = +1, Q = +1: to 2 with 2/3; p(∅) = 1/3: halves: 2 gets
        // 2/3 + 1/6 = 5/6, 1 gets 1/6. Edge 2–3: root 1/3 → 3; node {2,3} 2/3 with Q = 0: ½.
        // So 3 gets 1/3 + 1/3 = 2/3, 2 gets 1/3. Edge 3–0: p(∅) = 1: ½ each.
        // q = (1/2, 1 + 1/6, 5/6 + 1/3, 2/3 + 1/2)/4 = (1/8, 7/24, 7/24, 7/24).
        let qv: Vec<Q> = (0..4)
            .map(|v| exact(&st, "q", Element::Vertex(v)))
            .collect();
        assert_eq!(qv, vec![q(1, 8), q(7, 24), q(7, 24), q(7, 24)]);
        // Lemma 3.5: drift(v) = Σ_i d_i(v)Q_L(i): vertex 0: root −1/2·2/3 + {0,1} −1·2/3 = −1;
        // q(0) = 1/4 + (1/8)(−1) = 1/8. ✓
        assert_eq!(exact(&st, "drift", Element::Vertex(0)), q(-1, 1));
        // Node {0,1} (index 1): Lbar = 2, sibling gap 3 − 1 = 2, ε_t = 1/2 − q(0)/q(S) =
        // 1/2 − (1/8)/(1/8 + 7/24) = 1/2 − 3/10 = 1/5.
        let (l, r) = s.tree.nodes[0].children.unwrap();
        assert_eq!(exact(&st, "Lbar", Element::Node(l)), q(2, 1));
        assert_eq!(exact(&st, "sib_gap", Element::Node(l)), q(2, 1));
        assert_eq!(exact(&st, "eps_t", Element::Node(l)), q(1, 5));
        // Root: ε_t = 1/2 − (1/8 + 7/24)/1 = 1/2 − 5/12 = 1/12 = βk·Q/(2m·q(S)) = (2/3)/8. ✓
        assert_eq!(exact(&st, "eps_t", Element::Node(0)), q(1, 12));
        // Lemma 3.3 at node {2,3}: only the root contributes, |d_root({2,3})| = βk = 2/3.
        assert_eq!(exact(&st, "dsum", Element::Node(r)), q(2, 3));
        // Edge expansion of C_4: an arc of 2 vertices has 2 boundary edges: h = 1.
        assert_eq!(exact(&st, "expansion", Element::State), q(1, 1));
        assert_eq!(exact(&st, "k", Element::State), q(2, 1));
        // Edge 3–0 (index 3) is unused: support 0, flow 0, bias 0.
        assert_eq!(exact(&st, "flow", Element::Edge(3)), q(0, 1));
        assert_eq!(exact(&st, "flow", Element::Edge(0)), q(3, 2));
        // λ₂(C_4) = 2 − 2cos(2π/4) = 2 (up to the rounding of cos).
        match st.value("spectral_gap", Element::State).unwrap() {
            Value::Float(g) => assert!((g - 2.0).abs() < 1e-12, "{g}"),
            other => panic!("{other:?}"),
        }
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "every_listed_name_is_defined_somewhere",
            run: every_listed_name_is_defined_somewhere,
            panics: None,
        },
        crate::unit::Test {
            name: "c4_by_hand",
            run: c4_by_hand,
            panics: None,
        },
    ];
}
