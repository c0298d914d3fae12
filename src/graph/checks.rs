//! The checkable items of Bansal–Feldheim as functions that evaluate a statement on given inputs
//! and return a [`Finding`]: whether it holds there, how many instances were evaluated, and the
//! first violation (or the tightest case). The list with references and statuses is
//! `src/graph/CHECKS.md`; a claim engine can call these functions directly.
//!
//! Every function here is exact (rational arithmetic) unless its name ends in `_f64`;
//! [`lemma_4_1_tail`] decides its binomial tails by enclosures (trust `enclosure`).
//!
//! Reference: Bansal–Feldheim, *The Power of Two Choices in Graphical Allocation*
//! (arXiv:2106.06051 v2); item names as in `src/graph/CHECKS.md`.

use super::strategy::Strategy;
use super::tree::Tree;
use super::twopoint::{TwoPoint, TwoPointQ};
use super::{Graph, haar, measures};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use num_traits::{One, Signed, Zero};

fn q(a: i64, b: i64) -> Q {
    Q::new(Int::from(a), Int::from(b))
}
fn qi(a: usize) -> Q {
    Q::from_integer(Int::from(a))
}

/// The outcome of evaluating a statement on given inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// Whether every evaluated instance satisfies the statement.
    pub holds: bool,
    /// How many instances (vertices, nodes, edges, pairs) were evaluated.
    pub instances: usize,
    /// The first violation, or `None`.
    pub violation: Option<String>,
}

impl Finding {
    fn new() -> Finding {
        Finding {
            holds: true,
            instances: 0,
            violation: None,
        }
    }
    fn test(&mut self, ok: bool, why: impl FnOnce() -> String) {
        self.instances += 1;
        if !ok && self.holds {
            self.holds = false;
            self.violation = Some(why());
        }
    }
}

fn rat_loads(x: &[f64]) -> Result<Vec<Q>> {
    x.iter()
        .map(|&v| {
            crate::exact::from_float(v)
                .ok_or_else(|| Error::invalid("loads", format!("{v} is not finite")))
        })
        .collect()
}

/// `L̄(S_i)` for every node.
fn averages(t: &Tree, x: &[Q]) -> Vec<Q> {
    t.nodes
        .iter()
        .map(|nd| {
            let s: Q = t.order[nd.lo..nd.hi].iter().map(|&v| x[v].clone()).sum();
            s / qi(nd.size())
        })
        .collect()
}

/// C.Def.q-and-drift and C.Obs.flow: for a bias table `b` (bias towards the second endpoint of each
/// stored edge, each in `[−1, 1]`), the probability obtained by enumerating the edges equals
/// `1/n + Σ_{u∈N(v)} b(u, v)/(2m)`, the drift `2m(q(v) − 1/n)` equals the net inflow of `b` read as
/// a flow, `d(v) ∈ [−d, d]` and `q(v) ∈ [0, 2/n]` (regular graphs).
pub fn bias_drift_flow(g: &Graph, b: &[Q]) -> Result<Finding> {
    let d = g
        .regular_degree()
        .ok_or_else(|| Error::invalid("graph", "needs a regular graph"))?;
    if b.len() != g.m() || b.iter().any(|v| v.abs() > Q::one()) {
        return Err(Error::invalid(
            "biases",
            "need one value in [−1, 1] per edge",
        ));
    }
    let (n, m) = (g.n(), g.m());
    let mut qv = vec![Q::zero(); n];
    let mut inflow = vec![Q::zero(); n];
    let half = q(1, 2);
    for (e, &(a, bb)) in g.edges().iter().enumerate() {
        // enumeration: the ball goes to bb with probability (1 + b)/2
        let pb = (Q::one() + &b[e]) * &half;
        qv[bb] += &pb / qi(m);
        qv[a] += (Q::one() - pb) / qi(m);
        inflow[bb] += &b[e];
        inflow[a] -= &b[e];
    }
    let mut f = Finding::new();
    for v in 0..n {
        let formula = q(1, n as i64) + &inflow[v] / qi(2 * m);
        f.test(qv[v] == formula, || {
            format!("q({v}) = {} but 1/n + Σb/(2m) = {formula}", qv[v])
        });
        let drift = (&qv[v] - q(1, n as i64)) * qi(2 * m);
        f.test(drift == inflow[v], || {
            format!("drift({v}) = {drift} ≠ inflow {}", inflow[v])
        });
        f.test(drift.abs() <= qi(d), || {
            format!("|drift({v})| = {drift} > d")
        });
        f.test(!qv[v].is_negative() && qv[v] <= q(2, n as i64), || {
            format!("q({v}) = {} ∉ [0, 2/n]", qv[v])
        });
    }
    Ok(f)
}

/// C.Def.gap: `max_u |L(u) − t/n| ≤ max L − min L ≤ 2·max_u |L(u) − t/n|` with `t = Σ L`.
pub fn gap_vs_deviation(x: &[f64]) -> Result<Finding> {
    let x = rat_loads(x)?;
    let mean: Q = x.iter().cloned().sum::<Q>() / qi(x.len());
    let dev = x
        .iter()
        .map(|v| (v - &mean).abs())
        .max()
        .unwrap_or_else(Q::zero);
    let gap = x.iter().max().cloned().unwrap_or_else(Q::zero)
        - x.iter().min().cloned().unwrap_or_else(Q::zero);
    let mut f = Finding::new();
    f.test(dev <= gap, || format!("deviation {dev} > gap {gap}"));
    f.test(gap <= &dev * qi(2), || {
        format!("gap {gap} > 2·deviation {dev}")
    });
    Ok(f)
}

/// C.Id.telescope: `L(u) − t/n = Σ_j (L̄(S_{i_{j−1}}) − L̄(S_{i_j}))` along the leaf-to-root path,
/// and `|L(u) − t/n| ≤ Σ_j |…|`, for every vertex `u`.
pub fn telescope(t: &Tree, x: &[f64]) -> Result<Finding> {
    let xr = rat_loads(x)?;
    let avg = averages(t, &xr);
    let mean = avg[t.root()].clone();
    let mut f = Finding::new();
    for (u, xu) in xr.iter().enumerate() {
        let p = t.path_to_root(u);
        let terms: Vec<Q> = p.windows(2).map(|w| &avg[w[0]] - &avg[w[1]]).collect();
        let sum: Q = terms.iter().cloned().sum();
        let abs: Q = terms.iter().map(|v| v.abs()).sum();
        let dev = xu - &mean;
        f.test(dev == sum, || {
            format!("vertex {u}: L − t/n = {dev} ≠ telescoped {sum}")
        });
        f.test(dev.abs() <= abs, || {
            format!("vertex {u}: |L − t/n| = {dev} > Σ|…| = {abs}")
        });
    }
    Ok(f)
}

/// C.Ineq.(9): for a child `j` of `i` with sibling `j′`,
/// `L̄(S_j) − L̄(S_{j′}) = (|S_i|/|S_{j′}|)(L̄(S_j) − L̄(S_i))` and `|L̄(S_j) − L̄(S_{j′})| ≥ |L̄(S_j) − L̄(S_i)|`.
pub fn parent_child(t: &Tree, x: &[f64]) -> Result<Finding> {
    let avg = averages(t, &rat_loads(x)?);
    let mut f = Finding::new();
    for i in t.internal() {
        let (l, r) = t.nodes[i].children.expect("internal");
        for (j, jp) in [(l, r), (r, l)] {
            let sib = &avg[j] - &avg[jp];
            let pc = &avg[j] - &avg[i];
            let rhs = qi(t.nodes[i].size()) / qi(t.nodes[jp].size()) * &pc;
            f.test(sib == rhs, || {
                format!("node {i}, child {j}: sibling gap {sib} ≠ {rhs}")
            });
            f.test(sib.abs() >= pc.abs(), || {
                format!("node {i}, child {j}: |{sib}| < |{pc}|")
            });
        }
    }
    Ok(f)
}

/// C.Def.Haar-drift (derived properties): `⟨h_i, 𝟙⟩ = 0`, `⟨h_i, h_j⟩ = 0` (`i ≠ j`),
/// `‖h_i‖² = 1/|S_ℓ| + 1/|S_r|`, `⟨h_i, L⟩ = L̄(S_r) − L̄(S_ℓ)` and
/// `L − (t/n)𝟙 = Σ_i (⟨L, h_i⟩/‖h_i‖²) h_i`, exactly; `O(n³)` (for small trees).
pub fn haar_basis(t: &Tree, x: &[f64]) -> Result<Finding> {
    let xr = rat_loads(x)?;
    let n = xr.len();
    let avg = averages(t, &xr);
    let internal = t.internal();
    let h: Vec<Vec<Q>> = internal.iter().map(|&i| haar::vector(t, i)).collect();
    let dot = |a: &[Q], b: &[Q]| -> Q { a.iter().zip(b).map(|(u, v)| u * v).sum() };
    let mut f = Finding::new();
    let mut recon = vec![avg[t.root()].clone(); n];
    for (a, &i) in internal.iter().enumerate() {
        let (l, r) = t.nodes[i].children.expect("internal");
        f.test(h[a].iter().cloned().sum::<Q>().is_zero(), || {
            format!("⟨h_{i}, 1⟩ ≠ 0")
        });
        for (b, &j) in internal.iter().enumerate().skip(a + 1) {
            f.test(dot(&h[a], &h[b]).is_zero(), || {
                format!("⟨h_{i}, h_{j}⟩ ≠ 0")
            });
        }
        let norm2 = dot(&h[a], &h[a]);
        let expect = q(1, t.nodes[l].size() as i64) + q(1, t.nodes[r].size() as i64);
        f.test(norm2 == expect, || format!("‖h_{i}‖² = {norm2} ≠ {expect}"));
        let c = dot(&h[a], &xr);
        f.test(c == &avg[r] - &avg[l], || {
            format!("⟨h_{i}, L⟩ = {c} ≠ L̄(S_r) − L̄(S_ℓ)")
        });
        let coef = c / norm2;
        for v in 0..n {
            recon[v] += &coef * &h[a][v];
        }
    }
    for v in 0..n {
        f.test(recon[v] == xr[v], || {
            format!("Haar expansion at {v}: {} ≠ {}", recon[v], xr[v])
        });
    }
    Ok(f)
}

/// C.Claim3.1: `|S_b| ≤ (3/4)^{q/2}|S_a|` for every ancestor `a` of `b` at distance `q`, checked
/// as `4^q |S_b|² ≤ 3^q |S_a|²` in integers.
pub fn claim_3_1(t: &Tree) -> Finding {
    let mut f = Finding::new();
    for b in 0..t.nodes.len() {
        let mut a = t.nodes[b].parent;
        let mut dist = 1u32;
        while let Some(an) = a {
            let sb = Int::from(t.nodes[b].size());
            let sa = Int::from(t.nodes[an].size());
            let ok = num_traits::pow(Int::from(4), dist as usize) * &sb * &sb
                <= num_traits::pow(Int::from(3), dist as usize) * &sa * &sa;
            f.test(ok, || {
                format!("|S_{b}| = {sb} > (3/4)^({dist}/2)·|S_{an}| = (3/4)^({dist}/2)·{sa}")
            });
            a = t.nodes[an].parent;
            dist += 1;
        }
    }
    f
}

/// `d_i(S)` = Σ_{v∈S} d_i(v).
fn drift_on(s: &Strategy, i: usize, node: usize) -> Q {
    let t = &s.tree;
    t.order[t.nodes[node].lo..t.nodes[node].hi]
        .iter()
        .map(|&v| s.designed_drift(i, v))
        .sum()
}

/// C.L3.2: for `i ≠ j`, `d_i(S_ℓ(j))/|S_ℓ(j)| − d_i(S_r(j))/|S_r(j)| = 0` (eq. (5)); for `j = i`
/// it equals `−βk(1/|S_ℓ(i)| + 1/|S_r(i)|)` (eq. (6)); all pairs of internal nodes.
pub fn lemma_3_2(s: &Strategy) -> Finding {
    let t = &s.tree;
    let bk = s.beta_k();
    let mut f = Finding::new();
    let internal = t.internal();
    for &i in &internal {
        for &j in &internal {
            let (l, r) = t.nodes[j].children.expect("internal");
            let (sl, sr) = (t.nodes[l].size(), t.nodes[r].size());
            let lhs = drift_on(s, i, l) / qi(sl) - drift_on(s, i, r) / qi(sr);
            let rhs = if i == j {
                -(&bk) * (q(1, sl as i64) + q(1, sr as i64))
            } else {
                Q::zero()
            };
            f.test(lhs == rhs, || format!("(i, j) = ({i}, {j}): {lhs} ≠ {rhs}"));
        }
    }
    f
}

/// C.L3.3: `Σ_{i∈I_T} |d_i(S_j)| ≤ 8βk` for every node `j` (leaves included).
pub fn lemma_3_3(s: &Strategy) -> Finding {
    let t = &s.tree;
    let bound = s.beta_k() * qi(8);
    let mut f = Finding::new();
    for j in 0..t.nodes.len() {
        let sum: Q = t
            .internal()
            .into_iter()
            .map(|i| drift_on(s, i, j).abs())
            .sum();
        f.test(sum <= bound, || {
            format!("node {j}: Σ|d_i(S_j)| = {sum} > 8βk = {bound}")
        });
    }
    f
}

/// C.L3.4 and C.Alg.pre.3/4: every unit flow has net inflow `h_i`, the per-edge probabilities
/// satisfy `Σ_i p_e(i) ≤ 1`, and the support of `p_e` is at most the tree height (C §3.5).
pub fn lemma_3_4(s: &Strategy) -> Finding {
    let g = &s.graph;
    let mut f = Finding::new();
    for (j, &i) in s.flows.nodes.iter().enumerate() {
        let inflow = s.flows.inflow(g, j);
        for (v, d) in inflow.iter().enumerate() {
            let h = haar::value(&s.tree, i, v);
            f.test(*d == h, || {
                format!("flow of node {i}: inflow at {v} is {d}, Haar demand {h}")
            });
        }
    }
    for (e, c) in s.per_edge.iter().enumerate() {
        let sum: Q = c.iter().map(|ch| ch.prob.clone()).sum();
        f.test(sum <= Q::one(), || {
            format!("edge {e}: Σ p_e(i) = {sum} > 1")
        });
        f.test(c.len() <= s.tree.height(), || {
            format!("edge {e}: support {} > height {}", c.len(), s.tree.height())
        });
    }
    f
}

/// C.eq(8) and C.L3.5 at loads `x`: the bias realised on every edge equals `Σ_i g_i(e)Q_L(i)/C*`,
/// and the probability of every vertex obtained by enumerating the algorithm's outcomes equals
/// `1/n + (1/(2m)) Σ_i d_i(y) Q_L(i)` (`deg(y)/(2m)` in place of `1/n` on irregular graphs).
pub fn lemma_3_5(s: &Strategy, x: &[f64]) -> Result<Finding> {
    let g = &s.graph;
    let qs = s.signs(x)?;
    let b = s.biases(x)?;
    let mut f = Finding::new();
    let mut flow_bias = vec![Q::zero(); g.m()];
    for (j, &i) in s.flows.nodes.iter().enumerate() {
        for (e, v) in &s.flows.flows[j] {
            flow_bias[*e] += v * qi(1) * Q::from_integer(Int::from(qs[i])) / &s.congestion;
        }
    }
    for e in 0..g.m() {
        f.test(b[e] == flow_bias[e], || {
            format!("edge {e}: bias {} ≠ Σ g_i Q_i = {}", b[e], flow_bias[e])
        });
    }
    let real = s.probabilities_exact(x)?;
    let pred = s.predicted_exact(x)?;
    for y in 0..g.n() {
        f.test(real[y] == pred[y], || {
            format!("vertex {y}: q = {} ≠ predicted {}", real[y], pred[y])
        });
    }
    Ok(f)
}

/// C.L3.6 at loads `x`: `q(S_ℓ)/|S_ℓ| − q(S_r)/|S_r| = −(βkQ_L(i)/(2m))(1/|S_ℓ| + 1/|S_r|)` for
/// every internal node, with `q` from enumerating the algorithm's outcomes.
pub fn lemma_3_6(s: &Strategy, x: &[f64]) -> Result<Finding> {
    let t = &s.tree;
    let qv = s.probabilities_exact(x)?;
    let qs = s.signs(x)?;
    let two_m = qi(2 * s.graph.m());
    let mut f = Finding::new();
    for i in t.internal() {
        let (l, r) = t.nodes[i].children.expect("internal");
        let (sl, sr) = (t.nodes[l].size(), t.nodes[r].size());
        let ql: Q = t.set(l).iter().map(|&v| qv[v].clone()).sum();
        let qr: Q = t.set(r).iter().map(|&v| qv[v].clone()).sum();
        let lhs = ql / qi(sl) - qr / qi(sr);
        let rhs = -(s.beta_k() * Q::from_integer(Int::from(qs[i])) / &two_m)
            * (q(1, sl as i64) + q(1, sr as i64));
        f.test(lhs == rhs, || format!("node {i}: {lhs} ≠ {rhs}"));
    }
    Ok(f)
}

/// The four readings of the 2-point bias of C.L3.7-proof at loads `x`, every node with
/// `Q_L(i) ≠ 0`: `ε_t` defined by `π₁ − ε_t = q(S_ℓ)/q(S_i)`.
#[derive(Debug, Clone, PartialEq)]
pub struct EpsilonT {
    /// `ε_t = βkQ_L(i)/q(S_i)` as printed.
    pub printed_closed_form: Finding,
    /// `ε_t = βkQ_L(i)/(2m·q(S_i))` (derived from Lemma 3.6).
    pub derived_closed_form: Finding,
    /// `|ε_t| ≥ βkn/(2m|S_i|)`, the printed (10).
    pub printed_bound_10: Finding,
    /// `|ε_t| ≥ βkn/(4m|S_i|)` (derived from `q(S_i) ≤ 2|S_i|/n`).
    pub derived_bound: Finding,
}

/// Evaluates [`EpsilonT`] at loads `x`.
pub fn lemma_3_7_epsilon(s: &Strategy, x: &[f64]) -> Result<EpsilonT> {
    let t = &s.tree;
    let qv = s.probabilities_exact(x)?;
    let qs = s.signs(x)?;
    let (n, m) = (qi(s.graph.n()), qi(s.graph.m()));
    let bk = s.beta_k();
    let mut out = EpsilonT {
        printed_closed_form: Finding::new(),
        derived_closed_form: Finding::new(),
        printed_bound_10: Finding::new(),
        derived_bound: Finding::new(),
    };
    for i in t.internal() {
        if qs[i] == 0 {
            continue;
        }
        let (l, _) = t.nodes[i].children.expect("internal");
        let si = t.nodes[i].size();
        let q_i: Q = t.set(i).iter().map(|&v| qv[v].clone()).sum();
        let q_l: Q = t.set(l).iter().map(|&v| qv[v].clone()).sum();
        let pi1 = qi(t.nodes[l].size()) / qi(si);
        let eps_t = pi1 - q_l / &q_i;
        let sign = Q::from_integer(Int::from(qs[i]));
        let printed = &bk * &sign / &q_i;
        let derived = &bk * &sign / (qi(2) * &m * &q_i);
        let b10 = &bk * &n / (qi(2) * &m * qi(si));
        let bd = &bk * &n / (qi(4) * &m * qi(si));
        let at = |what: &str, v: &Q| {
            format!("node {i} (|S_i| = {si}), loads {x:?}: ε_t = {eps_t}, {what} = {v}")
        };
        out.printed_closed_form
            .test(eps_t == printed, || at("βkQ/q(S_i)", &printed));
        out.derived_closed_form
            .test(eps_t == derived, || at("βkQ/(2m q(S_i))", &derived));
        out.printed_bound_10
            .test(eps_t.abs() >= b10, || at("bound (10) βkn/(2m|S_i|)", &b10));
        out.derived_bound
            .test(eps_t.abs() >= bd, || at("βkn/(4m|S_i|)", &bd));
    }
    Ok(out)
}

/// C.Heur.first-attempt on the cycle: with the first half of `C_n` overloaded and the second
/// underloaded, the largest uniform drift realisable by a flow of at most 1 per edge is
/// `δ* = 2/n` (Gale enumeration), and a max-flow computation confirms `δ*` feasible and
/// `δ*·(1 + 1/n)` infeasible. Returns `(δ*, tight set mask, finding)`; `4 ≤ n ≤ 20`, `n` even.
pub fn cycle_drift_limitation(n: usize) -> Result<(Q, u32, Finding)> {
    if !(4..=measures::EXHAUSTIVE_LIMIT).contains(&n) || n % 2 == 1 {
        return Err(Error::invalid(
            "n",
            format!("needs an even n in 4..={}", measures::EXHAUSTIVE_LIMIT),
        ));
    }
    let g = Graph::cycle(n)?;
    let signs: Vec<i32> = (0..n).map(|v| if v < n / 2 { -1 } else { 1 }).collect();
    let (delta, mask) = measures::max_uniform_drift(&g, &signs)?;
    let mut f = Finding::new();
    let expect = q(2, n as i64);
    f.test(delta == expect, || format!("δ* = {delta} ≠ 2/n"));
    let (num, den) = (
        delta.numer().try_into().unwrap_or(0i64),
        delta.denom().try_into().unwrap_or(1i64),
    );
    f.test(measures::drift_feasible(&g, &signs, num, den)?, || {
        "max-flow: δ* infeasible".into()
    });
    f.test(
        !measures::drift_feasible(&g, &signs, num * (n as i64 + 1), den * n as i64)?,
        || "max-flow: δ*(1 + 1/n) feasible".into(),
    );
    Ok((delta, mask, f))
}

/// Greedy and expansion (S.GreedyGraphical, `docs/derivations.md` §8, derived): at every load vector of a regular graph
/// with pairwise distinct loads, the best ε of C1 at `δ = 1/2` for greedy's allocation vector is
/// at least the edge expansion in C's normalisation `β = min_{|S| ≤ n/2} |∂S|/(d|S|)`, because the
/// `k` heaviest vertices receive `k/n − |∂S_k|/(dn)`. With ties the statement fails (all loads
/// equal: greedy is uniform and ε* = 0); the function evaluates it on any input. `n ≤ 20`.
pub fn greedy_eps_vs_expansion(g: &Graph, x: &[f64]) -> Result<Finding> {
    let d = g
        .regular_degree()
        .ok_or_else(|| Error::invalid("graph", "needs a regular graph"))?;
    let (h, _) = measures::edge_expansion(g)?;
    let beta = h / qi(d);
    let loads = crate::loads::Loads::new(x.to_vec())?;
    let (e, _) = super::greedy::conditions(g, &loads, g.n() / 2)?;
    let mut f = Finding::new();
    f.test(e.eps >= beta, || {
        format!("loads {x:?}: ε*(1/2) = {} < β = {beta}", e.eps)
    });
    Ok(f)
}

/// C.L4.1 arithmetic: with `k ≤ d` and `|S| ≥ n/2`, `E[Y]/T = (|S| − k/d)/n ≥ 1/3` when `n ≥ 6`.
pub fn lemma_4_1_mean(n: usize, d: usize, k: usize, s: usize) -> Finding {
    let mut f = Finding::new();
    let lhs = (qi(s) - qi(k) / qi(d)) / qi(n);
    f.test(lhs >= q(1, 3), || {
        format!("n = {n}, d = {d}, k = {k}, |S| = {s}: (|S| − k/d)/n = {lhs} < 1/3")
    });
    f
}

/// What [`lemma_4_1_tail`] found on one graph: the finding and a line per horizon.
#[derive(Debug, Clone, PartialEq)]
pub struct CutTail {
    /// The identities of the mean and the tail bounds, per horizon.
    pub finding: Finding,
    /// One line per horizon: `T`, the threshold `j₀` and the enclosure of `P[Y ≥ E[Y] + √T]`.
    pub lines: Vec<String>,
}

/// C.L4.1 proof, on a graph: take a minimum cut `(S, S̄)` with `|S| ≥ n/2`
/// ([`measures::minimum_cut`]: `k` edges), count the edges `e(S)` with both ends in `S`, and check
///
/// * `e(S) = (d|S| − k)/2` (the proof's count) and `E[Y]/T = e(S)/m = (|S| − k/d)/n`, exactly;
/// * for every horizon `c`, with `T = ⌈c·n²d²/k²⌉` (the proof's choice of `T`) and
///   `Y ~ Binomial(T, e(S)/m)` (each step requests a uniform edge): the proof's event
///   "with constant probability `Y ≥ E[Y] + √T`" read as `P[Y ≥ E[Y] + √T] ≥ at_least`, the
///   probability enclosed ([`super::binomial::upper_tail`], 64…4096 bits).
///
/// Needs a regular graph. An enclosure that does not separate from `at_least` at 4096 bits is an
/// error (not a verdict).
///
/// ```
/// use balloc::graph::{Graph, checks::lemma_4_1_tail};
/// use balloc::exact::Q;
/// let g = Graph::sparse_cut(20, 4, 2).unwrap();
/// // |S| = 10, e(S) = (4·10 − 2)/2 = 19, m = 40: p = 19/40; c = 1/16: T = ⌈400·16/4/16⌉ = 100,
/// // E[Y] = 47.5, √T = 10: Y ≥ 58, P = 0.0226… ≥ 1/50.
/// let r = lemma_4_1_tail(&g, &[Q::new(1.into(), 16.into())], &Q::new(1.into(), 50.into())).unwrap();
/// assert!(r.finding.holds, "{:?}", r.finding.violation);
/// assert!(r.lines[0].contains("T = 100") && r.lines[0].contains("Y ≥ 58"), "{}", r.lines[0]);
/// ```
pub fn lemma_4_1_tail(g: &Graph, horizons: &[Q], at_least: &Q) -> Result<CutTail> {
    use crate::enclosure::{Decision, Interval, Precisions, decide_escalating};
    let name = g.name();
    let d = g.regular_degree().ok_or_else(|| {
        Error::invalid(format!("graph `{name}`"), "Lemma 4.1 needs a regular graph")
    })?;
    let (k, side) = measures::minimum_cut(g)?;
    let (n, m) = (g.n(), g.m());
    let s = side.iter().filter(|&&x| x).count();
    let inside = g
        .edges()
        .iter()
        .filter(|&&(a, b)| side[a] && side[b])
        .count();
    let mut f = Finding::new();
    f.test(2 * inside + k == d * s, || {
        format!("{name}: e(S) = {inside} ≠ (d|S| − k)/2 with d = {d}, |S| = {s}, k = {k}")
    });
    let p = qi(inside) / qi(m);
    let mean = (qi(s) - qi(k) / qi(d)) / qi(n);
    f.test(p == mean, || {
        format!("{name}: E[Y]/T = e(S)/m = {p} ≠ (|S| − k/d)/n = {mean}")
    });
    let mut lines = Vec::new();
    for c in horizons {
        let t = (c * qi(n * n) * qi(d * d) / qi(k * k)).ceil().to_integer();
        let t = u64::try_from(&t)
            .map_err(|_| Error::invalid(format!("horizon {c}"), format!("T = {t} is too large")))?;
        crate::limits::BINOMIAL_TRIALS.check(&format!("horizon {c}: T"), t)?;
        if t == 0 {
            return Err(Error::invalid(
                format!("horizon {c}"),
                "gives T = 0 (it must be positive)",
            ));
        }
        let j0 = super::binomial::mean_plus_sqrt(t, &p);
        let dec = decide_escalating(Precisions::default(), |prec| {
            Ok((
                super::binomial::upper_tail(t, &p, j0, prec)?,
                Interval::from_rational(at_least, prec),
            ))
        })?;
        let tail = format!("[{:.6e}, {:.6e}]", dec.lhs.lo_f64(), dec.lhs.hi_f64());
        let ok = match dec.decision {
            Decision::Greater | Decision::Equal => true,
            Decision::Less => false,
            Decision::Undecided => {
                return Err(Error::invalid(
                    format!("graph `{name}`, horizon {c}"),
                    format!(
                        "P[Y ≥ E[Y] + √T] ∈ {tail} is not separated from {at_least} at {} bits",
                        dec.prec
                    ),
                ));
            }
        };
        let line = format!(
            "{name}: d = {d}, k = {k}, |S| = {s}, e(S) = {inside}, p = {p}; c = {c}: T = {t}, \
             Y ≥ {j0}: P[Y ≥ E[Y] + √T] ∈ {tail}"
        );
        f.test(ok, || format!("{line} < {at_least}"));
        lines.push(line);
    }
    Ok(CutTail { finding: f, lines })
}

/// The horizon `T = ⌈c·n·ln n⌉` of the coupon-collector item (`c > 0` rational); an error when
/// `c·n·ln n` lies within `10⁻⁹` of an integer (the ceiling would rest on rounding).
///
/// ```
/// use balloc::exact::Q;
/// // n = 16, c = 1/2: 8·ln 16 = 22.18…: T = 23.
/// assert_eq!(balloc::graph::checks::coupon_horizon(16, &Q::new(1.into(), 2.into())).unwrap(), 23);
/// ```
pub fn coupon_horizon(n: usize, c: &Q) -> Result<u64> {
    use num_traits::ToPrimitive;
    let cf = c.to_f64().unwrap_or(f64::NAN);
    let x = cf * n as f64 * (n as f64).ln();
    if !(x.is_finite() && x >= 0.0) {
        return Err(Error::invalid(
            format!("horizon {c}"),
            format!("c·n·ln n = {x} at n = {n}"),
        ));
    }
    if n > 1 && (x - x.round()).abs() < 1e-9 {
        return Err(Error::invalid(
            format!("horizon {c}"),
            format!("c·n·ln n = {x} at n = {n} is too close to an integer for its ceiling"),
        ));
    }
    crate::limits::COUPON_WORK.count_from_f64(&format!("horizon {c}: T = ⌈c·n·ln n⌉"), x)
}

/// C.LB.log n (footnote 2 of §4.1, the Ω(log n) part of Theorem 1.2), on a graph: for each horizon
/// `c`, `T = ⌈c·n·ln n⌉` steps of uniform edge requests, the exact probability that some vertex
/// has none of its incident edges requested ([`super::coupon::untouched`], inclusion–exclusion in
/// rationals), against `at_least`. For **every** strategy, from the empty start, that probability
/// is a lower bound on `P[max L − min L ≥ ⌈T/n⌉]` (an untouched vertex keeps load 0).
///
/// ```
/// use balloc::graph::{Graph, checks::coupon_collector};
/// use balloc::exact::Q;
/// let g = Graph::cycle(16).unwrap();
/// let r = coupon_collector(&g, &[Q::new(1.into(), 2.into())], &Q::new(1.into(), 2.into())).unwrap();
/// assert!(r.finding.holds, "{:?}", r.finding.violation);
/// assert!(r.lines[0].contains("T = 23"), "{}", r.lines[0]);
/// ```
pub fn coupon_collector(g: &Graph, horizons: &[Q], at_least: &Q) -> Result<CutTail> {
    use num_traits::ToPrimitive;
    let name = g.name();
    let (n, m) = (g.n(), g.m());
    let counts = super::coupon::signed_counts(g, false)?;
    let mut f = Finding::new();
    let mut lines = Vec::new();
    for c in horizons {
        let t = coupon_horizon(n, c)?;
        crate::limits::COUPON_WORK.check_u128(
            &format!("graph `{name}`, T = {t}: the exact sum (m + 1)·T"),
            (m as u128 + 1) * u128::from(t.max(1)),
        )?;
        let p = super::coupon::sum(&counts.counts, m, t);
        let pf = p.to_f64().unwrap_or(f64::NAN);
        let line = format!(
            "{name}: n = {n}, m = {m}; c = {c}: T = {t}: P[some vertex untouched] = {pf:.6e} ({}); for every strategy from the empty start, P[max L − min L ≥ {}] ≥ this",
            counts.route.name(),
            t.div_ceil(n as u64)
        );
        f.test(p >= *at_least, || format!("{line} < {at_least}"));
        lines.push(line);
    }
    Ok(CutTail { finding: f, lines })
}

/// C.L3.8 (proof, one step), in `f64`: under the printed hypotheses and valid probabilities,
/// `E[Φ(t+1) | δ] ≤ Φ − αεγ(Φ − 2)/2`, evaluated at every `δ` of `deltas`. Returns the finding and
/// the smallest slack `rhs − lhs` (relative to `rhs`).
pub fn two_point_one_step_f64(c: &TwoPoint, deltas: &[f64]) -> (Finding, f64) {
    let (f, w, _) = two_point_one_step_tightest(c, deltas);
    (f, w)
}

/// [`two_point_one_step_f64`] with the index in `deltas` of the smallest relative slack (the
/// instance a certified evaluation should confirm; a violation when the finding fails).
pub fn two_point_one_step_tightest(c: &TwoPoint, deltas: &[f64]) -> (Finding, f64, usize) {
    let mut f = Finding::new();
    let mut worst = (f64::INFINITY, 0);
    for (k, &d) in deltas.iter().enumerate() {
        let (l, r) = c.one_step(d);
        let slack = (r - l) / r.abs().max(1.0);
        if slack < worst.0 {
            worst = (slack, k);
        }
        // a relative rounding allowance of 1e-12
        f.test(slack >= -1e-12, || {
            format!("{c:?}, δ = {d}: E[Φ'] = {l} > {r}")
        });
    }
    (f, worst.0, worst.1)
}

/// C.L3.8 (proof): the printed intermediate claim `ε_t·γ ≤ 1` ("uses the fact that ε_tγ ≤ 1"),
/// exactly.
///
/// ```
/// use balloc::graph::{checks, twopoint::TwoPointQ};
/// use balloc::exact::Q;
/// let q = |a: i64, b: i64| Q::new(a.into(), b.into());
/// // π₁ = 2/5, ε_t = 3/10: ε_tγ = (3/10)(5/2 + 5/3) = 5/4 > 1.
/// let f = checks::two_point_eps_gamma(&TwoPointQ { pi1: q(2, 5), eps: q(1, 5), eps_t: q(3, 10) });
/// assert!(!f.holds && f.violation.unwrap().contains("ε_t·γ = 5/4 > 1"));
/// ```
pub fn two_point_eps_gamma(c: &TwoPointQ) -> Finding {
    let mut f = Finding::new();
    let v = &c.eps_t * c.gamma();
    f.test(v <= Q::one(), || format!("{c}: ε_t·γ = {v} > 1"));
    f
}

/// C.L3.8 (proof), in `f64`: `E[Δδ | δ] = −ε_tγ` for `δ > 0` (and `+ε_tγ` for `δ < 0`) and
/// `E[(Δδ)² | δ] ≤ 2γ`, at every `δ` of `deltas` (relative allowance `1e-12`). Meaningful when
/// `π₁ ± ε_t` are probabilities ([`TwoPoint::valid`]).
pub fn two_point_moments_f64(c: &TwoPoint, deltas: &[f64]) -> Finding {
    let mut f = Finding::new();
    let g = c.gamma();
    for &d in deltas {
        let m = c.mean_step(d);
        let want = if d > 0.0 {
            -c.eps_t * g
        } else if d < 0.0 {
            c.eps_t * g
        } else {
            0.0
        };
        f.test((m - want).abs() <= 1e-12 * g.max(1.0), || {
            format!("{c:?}, δ = {d}: E[Δδ] = {m} ≠ {want}")
        });
        let s = c.second_moment(d);
        f.test(s <= 2.0 * g * (1.0 + 1e-12), || {
            format!("{c:?}, δ = {d}: E[(Δδ)²] = {s} > 2γ = {}", 2.0 * g)
        });
    }
    f
}

/// C.L3.8 (proof), exactly: `E[Δδ | δ] = −ε_tγ` for `δ > 0` (`+ε_tγ` for `δ < 0`, `0` at
/// `δ = 0`) and `E[(Δδ)² | δ] ≤ 2γ`, at every `δ` of `deltas`. Meaningful when `π₁ ± ε_t` are
/// probabilities ([`TwoPointQ::valid`]).
pub fn two_point_moments(c: &TwoPointQ, deltas: &[Q]) -> Finding {
    let mut f = Finding::new();
    let g = c.gamma();
    let two_g = &g * qi(2);
    // The step law depends on δ only through its sign (`TwoPointQ::p1`), so the two moments and
    // the claimed mean are computed once per sign: `[δ < 0, δ = 0, δ > 0]`.
    let eg = &c.eps_t * &g;
    let by_sign: [(Q, Q, Q); 3] =
        [(-1, eg.clone()), (0, Q::zero()), (1, -eg)].map(|(s, want): (i32, Q)| {
            let delta = Q::from_integer(s.into());
            (c.mean_step(&delta), c.second_moment(&delta), want)
        });
    for d in deltas {
        let (m, s, want) = &by_sign[if d.is_negative() {
            0
        } else if d.is_zero() {
            1
        } else {
            2
        }];
        f.test(m == want, || format!("{c}, δ = {d}: E[Δδ] = {m} ≠ {want}"));
        f.test(*s <= two_g, || {
            format!("{c}, δ = {d}: E[(Δδ)²] = {s} > 2γ = {two_g}")
        });
    }
    f
}

/// C.L3.8 (proof), corrected intermediate step: when `π₁ ± ε_t` are probabilities
/// (`ε_t ≤ min(π₁, π₂)`), `ε_tγ = ε_t/(π₁π₂) ≤ 1/max(π₁, π₂) ≤ 2` (derived; `γ = 1/(π₁π₂)`).
pub fn two_point_eps_gamma_valid(c: &TwoPointQ) -> Finding {
    let mut f = Finding::new();
    let v = &c.eps_t * c.gamma();
    let bound = c.pi1.clone().max(c.pi2()).recip();
    f.test(v <= bound && bound <= qi(2), || {
        format!("{c}: ε_t·γ = {v} > 1/max(π) = {bound}")
    });
    f
}

/// C.L3.8 hypotheses: whether the printed hypotheses make `π₁ ± ε_t` probabilities.
pub fn two_point_hypotheses_valid(c: &TwoPointQ) -> Finding {
    let mut f = Finding::new();
    f.test(c.valid(), || {
        format!(
            "{c}: P(bin 1) ∈ {{{}, {}}} is not a probability",
            &c.pi1 - &c.eps_t,
            &c.pi1 + &c.eps_t
        )
    });
    f
}
