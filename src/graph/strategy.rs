//! Bansal–Feldheim's strategy ("two choices on sets"): after preprocessing, every edge `e = (x, y)`
//! has a distribution `p_e` over the internal nodes `I_T ∪ {∅}` and signs `σ_e(i)`; on a request
//! for `e` a node `i` is drawn from `p_e`; for `∅` the ball goes to a uniform endpoint, otherwise
//! to `y` if `σ_e(i)·(L̄(S_ℓ(i)) − L̄(S_r(i))) > 0`, to `x` if `< 0`, to a uniform endpoint if `= 0`;
//! then the loads of the `O(log n)` sets containing the receiving vertex are updated.
//!
//! Preprocessing here (`docs/derivations.md` §8): a balanced tree ([`Tree::standard`]), unit flows
//! ([`UnitFlows::route`]) with congestion `C*`, and `p_e(i) = |g_i(e)|/C*`, `σ_e(i) = sgn g_i(e)`,
//! `p_e(∅) = 1 − Σ_i p_e(i)` (C eq. (4)), i.e. `βk = 1/C*` and the designed drift of node `i` is
//! `d_i = h_i/C*`.
//!
//! Reference: Bansal–Feldheim (arXiv:2106.06051 v2), §2.1 (the online algorithm), §2.2 eqs.
//! (1)–(4), §3.2 (eq. (8), Lemmas 3.5, 3.6), §3.5 (O(log n) per allocation).

use super::flow::{Routing, UnitFlows};
use super::tree::Tree;
use super::{Graph, haar};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use crate::rng::SimRng;
use num_traits::{Signed, Zero};
use rand::{Rng, RngExt};

/// One entry of `p_e`: node `node` with probability `prob` and sign `sign` (`±1`).
#[derive(Debug, Clone, PartialEq)]
pub struct EdgeChoice {
    /// The internal node `i`.
    pub node: usize,
    /// `p_e(i)` exactly.
    pub prob: Q,
    /// `σ_e(i)`, relative to the stored orientation `(x, y)` of the edge.
    pub sign: i8,
}

/// The preprocessed strategy.
#[derive(Debug, Clone)]
pub struct Strategy {
    /// The graph.
    pub graph: Graph,
    /// The decomposition.
    pub tree: Tree,
    /// The unit flows.
    pub flows: UnitFlows,
    /// `C*`.
    pub congestion: Q,
    /// `p_e` for every edge (nodes with `p_e(i) > 0` only).
    pub per_edge: Vec<Vec<EdgeChoice>>,
    /// The sampling table of the edges' `p_e`, flat.
    table: EdgeTable,
    /// `ancestors[v]`: the internal nodes whose set contains `v`.
    ancestors: Vec<Vec<usize>>,
    /// The nodes whose set load changes when `v` receives a ball (its leaf, then the internal
    /// nodes above it), flat: vertex `v`'s are `path[path_start[v]..path_start[v + 1]]`.
    path: Vec<u32>,
    /// Offsets into `path`, `n + 1` of them.
    path_start: Vec<usize>,
    /// The tables of [`Strategy::run_small`], when the tree has fewer than 2¹⁶ − 1 nodes.
    small: Option<SmallTables>,
}

/// The set loads of [`Strategy::run_small`]: one entry for each of the 2¹⁶ values of a `u16`
/// node index (so that no index is checked), the last one a scratch entry that the padding of the
/// paths adds to.
pub type SetLoads16 = [u64; 1 << 16];

/// The scratch entry of [`SetLoads16`].
const SCRATCH: u16 = u16::MAX;

/// [`EdgeTable`]'s entries with 16-bit nodes and the two sizes beside them, and the paths in rows
/// of one width (leaf first, padded with [`SCRATCH`]), for trees of fewer than 2¹⁶ − 1 nodes.
#[derive(Debug, Clone)]
struct SmallTables {
    entry: Vec<SmallEntry>,
    width: usize,
    path: Vec<u16>,
    leaf: Vec<u16>,
}

/// One entry of [`SmallTables`]: the cumulative probability, the two children `u`, `w` and
/// their sizes.
#[derive(Debug, Clone, Copy)]
struct SmallEntry {
    cum: f64,
    u: u16,
    w: u16,
    su: u16,
    sw: u16,
}

/// The distributions `p_e` of every edge in one flat table for sampling. Edge `e`'s header
/// `edge[e] = [x, y, start, end]` holds its endpoints and the range `start..end` of its entries;
/// entry `k` has the cumulative probability `cum[k] = Σ_{j ≤ k} p_e(i_j)` in `f64` and
/// `node[k] = [u, w, |S_w|, |S_u|]`: the node's two children ordered by the sign of the flow on
/// `e` (`u = S_ℓ`, `w = S_r` when `σ_e(i) = +1`, swapped when `−1`), so that the ball goes to `y`
/// exactly when `L(S_u)·|S_w| > L(S_w)·|S_u|`, i.e. `σ_e(i)·(L̄(S_ℓ) − L̄(S_r)) > 0`. One request
/// reads one header, one row of `cum` and one `node` entry.
#[derive(Debug, Clone, Default)]
struct EdgeTable {
    edge: Vec<[u32; 4]>,
    entry: Vec<Entry>,
    /// `|S_i|` by node.
    size: Vec<u32>,
}

/// One entry of a row of [`EdgeTable`]: the cumulative probability and the two children, side
/// by side, so that the entry a request selects is read with the row it scanned.
#[derive(Debug, Clone, Copy)]
struct Entry {
    cum: f64,
    u: u32,
    w: u32,
}

/// An entry of a row of cumulative probabilities ([`Entry`], [`SmallEntry`]).
trait Cumulative {
    /// `Σ_{j ≤ k} p_e(i_j)` of this entry `k`.
    fn cum(&self) -> f64;
}

impl Cumulative for Entry {
    #[inline(always)]
    fn cum(&self) -> f64 {
        self.cum
    }
}

impl Cumulative for SmallEntry {
    #[inline(always)]
    fn cum(&self) -> f64 {
        self.cum
    }
}

/// The position in `row` of the entry that a uniform `u ∈ [0, 1)` selects: the first `k` with
/// `u < cum[k]`, or `row.len()` when `u` is at least their total (no node: the tie-break). The
/// cumulative sums are nondecreasing, so that `k` is the number of sums `≤ u`: counted without a
/// branch (the supports are short, and a search would mispredict on random `u`).
#[inline(always)]
fn selected<E: Cumulative>(row: &[E], u: f64) -> usize {
    row.iter().map(|c| usize::from(c.cum() <= u)).sum()
}

/// `+1` when the ball goes to the second endpoint `y`, `−1` to `x`, `0` on equal averages: the
/// sign of `L(S_u)·|S_w| − L(S_w)·|S_u|` for the entry's children `u`, `w` (see [`EdgeTable`]).
#[inline(always)]
fn direction(load_u: u64, size_u: u64, load_w: u64, size_w: u64) -> i32 {
    (load_u as u128 * size_w as u128).cmp(&(load_w as u128 * size_u as u128)) as i32
}

/// The endpoint of edge `(x, y)` a request sends the ball to, from its [`direction`]: `y` for
/// `+1`, `x` for `−1`, and on 0 (a tie) `x` exactly when `coin(rng, true)`; `coin(rng, false)`
/// must return `false` without drawing.
#[inline(always)]
fn endpoint<R: Rng + ?Sized>(
    dir: i32,
    x: u32,
    y: u32,
    rng: &mut R,
    coin: impl FnOnce(&mut R, bool) -> bool,
) -> usize {
    let tie = dir == 0;
    let heads = coin(rng, tie);
    let to_x = if tie { heads } else { dir < 0 };
    (if to_x { x } else { y }) as usize
}

impl EdgeTable {
    /// The entry of a row `start..end` that a uniform `u ∈ [0, 1)` selects ([`selected`]);
    /// `None` when `u` is at least their total.
    #[inline(always)]
    fn pick(&self, start: u32, end: u32, u: f64) -> Option<usize> {
        let (a, b) = (start as usize, end as usize);
        let k = a + selected(&self.entry[a..b], u);
        (k < b).then_some(k)
    }

    /// `|L̄(u) − L̄(w)|` for the two sets of entry `k`; `set_load` is indexed by node.
    fn difference(&self, k: usize, set_load: &[u64]) -> f64 {
        let Entry { u, w, .. } = self.entry[k];
        let (u, w) = (u as usize, w as usize);
        let avg = |x: usize| set_load[x] as f64 / self.size[x] as f64;
        (avg(u) - avg(w)).abs()
    }

    /// [`direction`] of entry `k`; `set_load` is indexed by node.
    #[inline(always)]
    fn direction(&self, k: usize, set_load: &[u64]) -> i32 {
        let Entry { u, w, .. } = self.entry[k];
        let (u, w) = (u as usize, w as usize);
        direction(
            set_load[u],
            self.size[u] as u64,
            set_load[w],
            self.size[w] as u64,
        )
    }
}

impl SmallTables {
    /// The tables, or `None` when a node index, a set size or the number of vertices does not fit
    /// below [`SCRATCH`].
    fn new(
        table: &EdgeTable,
        path: &[u32],
        path_start: &[usize],
        leaf: &[usize],
    ) -> Option<SmallTables> {
        let narrow = |x: u64| u16::try_from(x).ok().filter(|&v| v < SCRATCH);
        if table.size.len() >= SCRATCH as usize || leaf.len() >= SCRATCH as usize {
            return None;
        }
        let entry = table
            .entry
            .iter()
            .map(|e| {
                Some(SmallEntry {
                    cum: e.cum,
                    u: narrow(e.u as u64)?,
                    w: narrow(e.w as u64)?,
                    su: narrow(table.size[e.u as usize] as u64)?,
                    sw: narrow(table.size[e.w as usize] as u64)?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let width = path_start.windows(2).map(|w| w[1] - w[0]).max()?;
        let mut rows = Vec::with_capacity(width * leaf.len());
        for w in path_start.windows(2) {
            for &i in &path[w[0]..w[1]] {
                rows.push(narrow(i as u64)?);
            }
            rows.resize(rows.len() + width - (w[1] - w[0]), SCRATCH);
        }
        let leaf = leaf
            .iter()
            .map(|&l| narrow(l as u64))
            .collect::<Option<Vec<_>>>()?;
        Some(SmallTables {
            entry,
            width,
            path: rows,
            leaf,
        })
    }
}

/// The sign `Q_L(i)` from the total loads and sizes of the two children: `+1` if `L̄(S_ℓ) > L̄(S_r)`.
fn sign_of(load_l: &Q, size_l: usize, load_r: &Q, size_r: usize) -> i32 {
    let a = load_l * Q::from_integer(Int::from(size_r));
    let b = load_r * Q::from_integer(Int::from(size_l));
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => 1,
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
    }
}

fn to_rat(x: f64) -> Result<Q> {
    crate::exact::from_float(x).ok_or_else(|| Error::invalid("loads", format!("{x} is not finite")))
}

impl Strategy {
    /// Preprocesses `g` with its standard tree and routing.
    ///
    /// ```
    /// let s = balloc::graph::strategy::Strategy::new(&balloc::graph::Graph::cycle(8).unwrap()).unwrap();
    /// assert_eq!(s.congestion, balloc::exact::Q::new(9.into(), 4.into()));
    /// assert!(s.support_size() <= s.tree.height()); // |supp p_e| ≤ depth (C §3.5)
    /// ```
    pub fn new(g: &Graph) -> Result<Strategy> {
        let t = Tree::standard(g)?;
        Strategy::with_tree(g, t)
    }

    /// Preprocesses `g` with a given tree (routing [`Routing::Auto`]).
    pub fn with_tree(g: &Graph, t: Tree) -> Result<Strategy> {
        Strategy::with_routing(g, t, Routing::Auto)
    }

    /// Preprocesses `g` with a given tree and routing.
    ///
    /// ```
    /// use balloc::graph::{Graph, tree::Tree, flow::Routing, strategy::Strategy};
    /// let g = Graph::path(8).unwrap();
    /// // Every G[S_i] of P_8 is a path, where the flow with given net inflows is unique: the
    /// // electrical routing is the explicit one, C* = 9/4 as on C_8 (the explicit cycle routing
    /// // never uses the edge 7–0; see `UnitFlows::route`).
    /// let a = Strategy::with_routing(&g, Tree::standard(&g).unwrap(), Routing::Electrical { rounds: 1 }).unwrap();
    /// assert_eq!(a.congestion, balloc::exact::Q::new(9.into(), 4.into()));
    /// ```
    pub fn with_routing(g: &Graph, t: Tree, routing: Routing) -> Result<Strategy> {
        if g.m() == 0 {
            return Err(Error::invalid(
                format!("graph `{}`", g.name()),
                "has no edges",
            ));
        }
        let flows = UnitFlows::route_with(g, &t, routing)?;
        let congestion = flows.congestion();
        if congestion.is_zero() {
            return Err(Error::invalid("strategy", "all flows vanish (n = 1?)"));
        }
        let mut per_edge: Vec<Vec<EdgeChoice>> = vec![Vec::new(); g.m()];
        for (j, f) in flows.flows.iter().enumerate() {
            for (e, v) in f {
                per_edge[*e].push(EdgeChoice {
                    node: flows.nodes[j],
                    prob: v.abs() / &congestion,
                    sign: if v.is_positive() { 1 } else { -1 },
                });
            }
        }
        let mut table = EdgeTable::default();
        let narrow = |x: usize, what: &str| {
            u32::try_from(x)
                .map_err(|_| Error::invalid("strategy", format!("{what} {x} exceeds 2^32 − 1")))
        };
        table.size = (0..t.nodes.len())
            .map(|i| narrow(t.nodes[i].size(), "set size"))
            .collect::<Result<_>>()?;
        for (c, &(x, y)) in per_edge.iter().zip(g.edges()) {
            let start = narrow(table.entry.len(), "table size")?;
            let mut acc = Q::zero();
            for ch in c {
                acc += &ch.prob;
                let (l, r) = t.nodes[ch.node].children.expect("a flow node is internal");
                let (u, w) = if ch.sign > 0 { (l, r) } else { (r, l) };
                table.entry.push(Entry {
                    cum: num_traits::ToPrimitive::to_f64(&acc).unwrap_or(1.0),
                    u: narrow(u, "node")?,
                    w: narrow(w, "node")?,
                });
            }
            let end = narrow(table.entry.len(), "table size")?;
            table
                .edge
                .push([narrow(x, "vertex")?, narrow(y, "vertex")?, start, end]);
        }
        let ancestors: Vec<Vec<usize>> = (0..g.n())
            .map(|v| t.path_to_root(v).into_iter().skip(1).collect())
            .collect();
        let mut path = Vec::new();
        let mut path_start = Vec::with_capacity(g.n() + 1);
        for (v, up) in ancestors.iter().enumerate() {
            path_start.push(path.len());
            path.push(t.leaf[v] as u32);
            path.extend(up.iter().map(|&i| i as u32));
        }
        path_start.push(path.len());
        let small = SmallTables::new(&table, &path, &path_start, &t.leaf);
        Ok(Strategy {
            graph: g.clone(),
            tree: t,
            flows,
            congestion,
            per_edge,
            table,
            ancestors,
            path,
            path_start,
            small,
        })
    }

    /// The largest support of a `p_e`.
    pub fn support_size(&self) -> usize {
        self.per_edge.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// `βk = 1/C*`.
    pub fn beta_k(&self) -> Q {
        self.congestion.recip()
    }

    /// The designed drift `d_i(v) = βk·h_i(v)` of internal node `i` (C eq. (2)).
    pub fn designed_drift(&self, i: usize, v: usize) -> Q {
        haar::value(&self.tree, i, v) * self.beta_k()
    }

    /// `Q_L(i)` for every node (0 for leaves), exactly, from loads `x`.
    pub fn signs(&self, x: &[f64]) -> Result<Vec<i32>> {
        let t = &self.tree;
        let mut total = vec![Q::zero(); t.nodes.len()];
        for (v, &xv) in x.iter().enumerate() {
            let r = to_rat(xv)?;
            for i in self.ancestors[v].iter().copied().chain([t.leaf[v]]) {
                total[i] += &r;
            }
        }
        Ok((0..t.nodes.len())
            .map(|i| match t.nodes[i].children {
                Some((l, r)) => sign_of(&total[l], t.nodes[l].size(), &total[r], t.nodes[r].size()),
                None => 0,
            })
            .collect())
    }

    /// The bias of every edge towards its second endpoint at loads `x`, evaluated from `p_e` as the
    /// algorithm acts: `b(x, y) = Σ_i p_e(i)·σ_e(i)·Q_L(i)` (C eq. (8)).
    pub fn biases(&self, x: &[f64]) -> Result<Vec<Q>> {
        let q = self.signs(x)?;
        Ok(self
            .per_edge
            .iter()
            .map(|c| {
                let mut b = Q::zero();
                for ch in c {
                    let s = ch.sign as i32 * q[ch.node];
                    if s != 0 {
                        b += &ch.prob * Q::from_integer(Int::from(s));
                    }
                }
                b
            })
            .collect())
    }

    /// The probability `q(v)` that the next ball goes to `v`, by enumerating the algorithm's
    /// outcomes on every edge: `q(v) = (1/m) Σ_{e∋v} P(ball to v | e)`.
    ///
    /// ```
    /// use balloc::graph::{Graph, strategy::Strategy};
    /// let s = Strategy::new(&Graph::cycle(4).unwrap()).unwrap();
    /// let q = s.probabilities_exact(&[0.0; 4]).unwrap();
    /// assert!(q.iter().all(|p| *p == balloc::exact::Q::new(1.into(), 4.into())));
    /// ```
    pub fn probabilities_exact(&self, x: &[f64]) -> Result<Vec<Q>> {
        let g = &self.graph;
        if x.len() != g.n() {
            return Err(Error::invalid(
                "loads",
                format!("{} bins but the graph has {} vertices", x.len(), g.n()),
            ));
        }
        let q = self.signs(x)?;
        let half = Q::new(1.into(), 2.into());
        let one = Q::from_integer(1.into());
        let mut r = vec![Q::zero(); g.n()];
        for (e, &(a, b)) in g.edges().iter().enumerate() {
            let mut to_b = Q::zero();
            let mut rest = one.clone();
            for ch in &self.per_edge[e] {
                rest -= &ch.prob;
                match (ch.sign as i32 * q[ch.node]).signum() {
                    1 => to_b += &ch.prob,
                    0 => to_b += &ch.prob * &half,
                    _ => {}
                }
            }
            to_b += rest * &half;
            r[a] += &one - &to_b;
            r[b] += to_b;
        }
        let m = Q::from_integer(Int::from(g.m()));
        Ok(r.into_iter().map(|v| v / &m).collect())
    }

    /// The probabilities in `f64`.
    pub fn probabilities(&self, x: &[f64]) -> Result<Vec<f64>> {
        Ok(self
            .probabilities_exact(x)?
            .iter()
            .map(|v| num_traits::ToPrimitive::to_f64(v).unwrap_or(f64::NAN))
            .collect())
    }

    /// The probability predicted by Lemma 3.5: `q(y) = deg(y)/(2m) + (1/(2m))·Σ_i d_i(y)Q_L(i)`
    /// (`deg(y)/(2m) = 1/n` on a regular graph).
    pub fn predicted_exact(&self, x: &[f64]) -> Result<Vec<Q>> {
        let q = self.signs(x)?;
        let g = &self.graph;
        let two_m = Q::from_integer(Int::from(2 * g.m()));
        Ok((0..g.n())
            .map(|y| {
                let mut s = Q::from_integer(Int::from(g.degree(y)));
                for &i in &self.ancestors[y] {
                    if q[i] != 0 {
                        s += self.designed_drift(i, y) * Q::from_integer(Int::from(q[i]));
                    }
                }
                s / &two_m
            })
            .collect())
    }

    /// One allocation at arbitrary loads `x` (as [`Strategy::step`], but the two set averages are
    /// summed from `x`: `O(|S_i|)`); used by the registered process's sampler.
    pub fn sample_at<R: Rng + ?Sized>(&self, x: &[f64], rng: &mut R) -> usize {
        let e = rng.random_range(0..self.graph.m());
        let [a, b, start, end] = self.table.edge[e];
        let (a, b) = (a as usize, b as usize);
        let u: f64 = rng.random();
        let mut dir = 0;
        if let Some(k) = self.table.pick(start, end, u) {
            let Entry { u: l, w: r, .. } = self.table.entry[k];
            let (size_r, size_l) = (self.table.size[r as usize], self.table.size[l as usize]);
            let sum = |k: u32| -> f64 { self.tree.set(k as usize).iter().map(|&v| x[v]).sum() };
            let lhs = sum(l) * size_r as f64;
            let rhs = sum(r) * size_l as f64;
            dir = lhs.total_cmp(&rhs) as i32;
        }
        match dir {
            1 => b,
            -1 => a,
            _ => {
                if rng.random::<bool>() {
                    a
                } else {
                    b
                }
            }
        }
    }

    /// A fresh simulation state (all loads zero).
    pub fn state(&self) -> State {
        State {
            loads: vec![0; self.graph.n()],
            set_load: vec![0; self.tree.nodes.len()],
            t: 0,
        }
    }

    /// One allocation: sample an edge, a node from `p_e`, compare the two set averages, allocate,
    /// update the set loads along the leaf-to-root path. Returns the receiving vertex.
    pub fn step<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) -> usize {
        let v = self.choose(&s.set_load, rng);
        self.place(s, v);
        v
    }

    /// [`Strategy::step`] with the simulator's generator ([`Strategy::choose_sim`]): the same
    /// vertex and the same draws.
    #[inline(always)]
    pub fn step_sim(&self, s: &mut State, rng: &mut SimRng) -> usize {
        let v = self.choose_sim(&s.set_load, rng);
        self.place(s, v);
        v
    }

    /// The receiving vertex of one request decided on the set loads `set_load` (indexed by node,
    /// as [`State::set_load`]): the current ones, or a stale copy (Remark 3.9 of Bansal–Feldheim:
    /// set loads refreshed only from time to time).
    pub fn choose<R: Rng + ?Sized>(&self, set_load: &[u64], rng: &mut R) -> usize {
        let e = rng.random_range(0..self.graph.m());
        self.choose_with(e, set_load, rng, |r, tie| tie && r.random::<bool>())
    }

    /// [`Strategy::choose`] with the simulator's generator: the same draws, but the coin of a tie
    /// is drawn without a branch on whether there is a tie ([`SimRng::coin_if`]); ties are
    /// frequent and unpredictable, so the branch would be mispredicted on many balls.
    #[inline(always)]
    pub fn choose_sim(&self, set_load: &[u64], rng: &mut SimRng) -> usize {
        let e = self.edge_sim(rng);
        self.choose_with(e, set_load, rng, |r, tie| r.coin_if(tie))
    }

    /// The uniform edge of a request, drawn by the simulator's generator as `choose_sim` and
    /// `choose_against` draw it.
    #[inline(always)]
    fn edge_sim(&self, rng: &mut SimRng) -> usize {
        if self.graph.m() as u64 <= u32::MAX as u64 {
            crate::rng::below_like_rand(rng, self.graph.m())
        } else {
            rng.random_range(0..self.graph.m())
        }
    }

    /// [`Strategy::choose_sim`] in the distributed version of Bansal–Feldheim §3.5, against an
    /// adversary: wherever the two set averages `L̄(S_ℓ(i))`, `L̄(S_r(i))` that decide a request
    /// differ by at most `within`, the sign is arbitrary, and the adversary takes the wrong one (the
    /// ball goes toward the heavier side); ties (equal averages, or no node) are decided by the
    /// coin as usual. `within = 0` decides every request as [`Strategy::choose_sim`] does, with
    /// the same draws.
    ///
    /// ```
    /// use balloc::graph::{Graph, strategy::Strategy};
    /// use balloc::sim::rng::run_rng;
    /// let s = Strategy::new(&Graph::cycle(8).unwrap()).unwrap();
    /// let mut set = s.state().set_load;
    /// // With `within = 0` no sign is the adversary's: the same vertices as `choose_sim`, draw for
    /// // draw (here with one ball at vertex 0, so that some requests are not ties).
    /// let (mut a, mut b) = (run_rng(3), run_rng(3));
    /// let mut st = s.state();
    /// s.place(&mut st, 0);
    /// set.copy_from_slice(&st.set_load);
    /// for _ in 0..200 {
    ///     assert_eq!(s.choose_against(&set, 0.0, &mut a), s.choose_sim(&set, &mut b));
    /// }
    /// ```
    #[inline(always)]
    pub fn choose_against(&self, set_load: &[u64], within: f64, rng: &mut SimRng) -> usize {
        let e = self.edge_sim(rng);
        let [a, b, start, end] = self.table.edge[e];
        let u: f64 = rng.random();
        let dir = match self.table.pick(start, end, u) {
            Some(k) => {
                let d = self.table.direction(k, set_load);
                if d != 0 && self.table.difference(k, set_load) <= within {
                    -d
                } else {
                    d
                }
            }
            None => 0,
        };
        endpoint(dir, a, b, rng, |r, tie| r.coin_if(tie))
    }

    /// One request for the edge `e = (x, y)` (drawn uniformly by the caller): `u` uniform, the
    /// node of `p_e` that `u` selects, the direction from its two set averages, and on a tie (no
    /// node, or equal averages) `coin(rng, true)`: `true` sends the ball to `x`.
    /// `coin(rng, false)` must return `false` without drawing.
    #[inline(always)]
    fn choose_with<R: Rng + ?Sized>(
        &self,
        e: usize,
        set_load: &[u64],
        rng: &mut R,
        coin: impl FnOnce(&mut R, bool) -> bool,
    ) -> usize {
        let [a, b, start, end] = self.table.edge[e];
        let u: f64 = rng.random();
        let dir = match self.table.pick(start, end, u) {
            Some(k) => self.table.direction(k, set_load),
            None => 0,
        };
        endpoint(dir, a, b, rng, coin)
    }

    /// Whether [`Strategy::run_small`] applies (the tree has fewer than 2¹⁶ − 1 nodes).
    pub fn has_small_tables(&self) -> bool {
        self.small.is_some()
    }

    /// `k` requests as [`Strategy::step_sim`] makes them (the same draws, the same vertices) on
    /// the set loads `set` ([`SetLoads16`], indexed by node), without the vertex loads or the
    /// time: the caller reads a vertex's load from its leaf (`set[leaf(v)]`). The node indices
    /// are `u16`, so no index into `set` is checked, and every path has the same length. Does
    /// nothing when [`Strategy::has_small_tables`] is false.
    ///
    /// ```
    /// use balloc::graph::{Graph, strategy::{SetLoads16, Strategy}};
    /// use balloc::sim::rng::run_rng;
    /// let s = Strategy::new(&Graph::cycle(8).unwrap()).unwrap();
    /// let mut set: Box<SetLoads16> = vec![0; 1 << 16].into_boxed_slice().try_into().unwrap();
    /// let mut st = s.state();
    /// let (mut a, mut b) = (run_rng(1), run_rng(1));
    /// s.run_small(&mut set, 50, &mut a);
    /// for _ in 0..50 {
    ///     s.step_sim(&mut st, &mut b);
    /// }
    /// let leaves = s.small_leaves().unwrap();
    /// let loads: Vec<u64> = leaves.iter().map(|&l| set[l as usize]).collect();
    /// assert_eq!(loads, st.loads);
    /// assert_eq!(loads.iter().sum::<u64>(), 50);
    /// ```
    #[inline(never)]
    pub fn run_small(&self, set: &mut SetLoads16, k: u64, rng: &mut SimRng) {
        let Some(sm) = &self.small else {
            return;
        };
        // Fewer than 2¹⁶ vertices, so m < 2³¹: the edge is drawn as `choose_sim` draws it.
        let m = self.graph.m();
        for _ in 0..k {
            let e = crate::rng::below_like_rand(rng, m);
            let [a, b, start, end] = self.table.edge[e];
            let u: f64 = rng.random();
            let (lo, hi) = (start as usize, end as usize);
            let row = &sm.entry[lo..hi];
            let dir = match row.get(selected(row, u)) {
                Some(c) => direction(
                    set[c.u as usize],
                    c.su as u64,
                    set[c.w as usize],
                    c.sw as u64,
                ),
                None => 0,
            };
            let v = endpoint(dir, a, b, rng, |r, tie| r.coin_if(tie));
            for &i in &sm.path[v * sm.width..(v + 1) * sm.width] {
                set[i as usize] += 1;
            }
        }
    }

    /// The node index of each vertex's leaf in the set loads of [`Strategy::run_small`] (`None`
    /// without its tables).
    pub fn small_leaves(&self) -> Option<&[u16]> {
        self.small.as_ref().map(|s| s.leaf.as_slice())
    }

    /// Adds one ball at `v`: its load, the loads of the sets containing it, the time.
    #[inline(always)]
    pub fn place(&self, s: &mut State, v: usize) {
        s.loads[v] += 1;
        let (a, b) = (self.path_start[v], self.path_start[v + 1]);
        for &i in &self.path[a..b] {
            s.set_load[i as usize] += 1;
        }
        s.t += 1;
    }
}

/// The state of a simulation of the strategy: vertex loads, set loads, time.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// `L^t(v)`.
    pub loads: Vec<u64>,
    /// `L^t(S_i)` for every node.
    pub set_load: Vec<u64>,
    /// The number of balls so far.
    pub t: u64,
}

impl State {
    /// The gap `max_v L(v) − t/n`.
    pub fn gap(&self) -> f64 {
        *self.loads.iter().max().unwrap_or(&0) as f64 - self.t as f64 / self.loads.len() as f64
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::rng::run_rng;

    /// [`Strategy::run_small`] against [`Strategy::step_sim`], ball for ball: after each stretch
    /// of requests the set loads of every node, the vertex loads read from the leaves and the
    /// next word of the generator agree.
    fn agrees_with_step_sim(g: &Graph, seed: u64) {
        let s = Strategy::new(g).unwrap();
        assert!(s.has_small_tables(), "{}", g.name());
        let leaves = s.small_leaves().unwrap();
        let mut st = s.state();
        let mut set: Box<SetLoads16> = vec![0u64; 1 << 16].into_boxed_slice().try_into().unwrap();
        let (mut a, mut b) = (run_rng(seed), run_rng(seed));
        for k in [1u64, 7, 100, 1000, 5000] {
            for _ in 0..k {
                s.step_sim(&mut st, &mut a);
            }
            s.run_small(&mut set, k, &mut b);
            assert_eq!(&set[..st.set_load.len()], &st.set_load[..], "{}", g.name());
            let loads: Vec<u64> = leaves.iter().map(|&l| set[l as usize]).collect();
            assert_eq!(loads, st.loads, "{}", g.name());
            assert_eq!(a.clone().next_u64(), b.clone().next_u64(), "{}", g.name());
        }
        // Every ball went to one vertex, and the padding of the paths only to the scratch entry.
        assert_eq!(st.loads.iter().sum::<u64>(), 1 + 7 + 100 + 1000 + 5000);
        assert!(
            set[st.set_load.len()..SCRATCH as usize]
                .iter()
                .all(|&v| v == 0)
        );
    }

    fn sixteen_bit_loop_makes_the_same_requests() {
        for g in [
            Graph::cycle(8).unwrap(),
            Graph::cycle(100).unwrap(),
            Graph::path(37).unwrap(),
            Graph::torus(6, 5).unwrap(),
            Graph::hypercube(5).unwrap(),
            Graph::complete(9).unwrap(),
            Graph::random_regular(64, 4, 3).unwrap(),
        ] {
            agrees_with_step_sim(&g, 11);
        }
    }

    fn sixteen_bit_tables_need_indices_below_the_scratch_entry() {
        let g = Graph::cycle(8).unwrap();
        let s = Strategy::new(&g).unwrap();
        // C_8's standard tree: 8 leaves and 7 internal nodes; its longest path has 4 nodes
        // (the leaf and three ancestors).
        let sm = s.small.as_ref().unwrap();
        assert_eq!((sm.leaf.len(), sm.width, sm.path.len()), (8, 4, 32));
        let too_many = vec![0usize; SCRATCH as usize];
        assert!(SmallTables::new(&s.table, &s.path, &s.path_start, &too_many).is_none());
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "sixteen_bit_loop_makes_the_same_requests",
            run: sixteen_bit_loop_makes_the_same_requests,
            panics: None,
        },
        crate::unit::Test {
            name: "sixteen_bit_tables_need_indices_below_the_scratch_entry",
            run: sixteen_bit_tables_need_indices_below_the_scratch_entry,
            panics: None,
        },
    ];
}
