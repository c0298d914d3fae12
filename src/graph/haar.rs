//! The Haar drift vectors of a decomposition (C.Def.Haar-drift, C eq. (2)): for an internal node
//! `i`, `h_i(u) = −1/|S_ℓ(i)|` on `S_ℓ(i)`, `+1/|S_r(i)|` on `S_r(i)`, `0` elsewhere; the demand
//! vector of node `i` is `d_i = βk·h_i`. Together with `𝟙` they form an orthogonal basis of `ℝⁿ`
//! (derived), and `⟨h_i, L⟩ = L̄(S_r(i)) − L̄(S_ℓ(i))`.
//!
//! Reference: Bansal–Feldheim (arXiv:2106.06051 v2), §1.2 ("we set the balancing drift to be the
//! Haar measure associated with node i"), eq. (2), Lemma 3.2.

use super::tree::Tree;
use crate::exact::{Int, Q};

/// `h_i(v)` exactly.
///
/// ```
/// use balloc::graph::{Graph, tree::Tree, haar::value};
/// let t = Tree::standard(&Graph::cycle(6).unwrap()).unwrap();
/// // Root: S_ℓ = {0, 1, 2}, S_r = {3, 4, 5}.
/// assert_eq!(value(&t, 0, 0), balloc::exact::Q::new((-1).into(), 3.into()));
/// assert_eq!(value(&t, 0, 5), balloc::exact::Q::new(1.into(), 3.into()));
/// ```
pub fn value(t: &Tree, i: usize, v: usize) -> Q {
    let (l, r) = t.nodes[i].children.expect("an internal node");
    match t.side(i, v) {
        1 => Q::new(Int::from(-1), Int::from(t.nodes[l].size())),
        -1 => Q::new(Int::from(1), Int::from(t.nodes[r].size())),
        _ => Q::from_integer(Int::from(0)),
    }
}

/// The dense vector `h_i`.
pub fn vector(t: &Tree, i: usize) -> Vec<Q> {
    (0..t.pos.len()).map(|v| value(t, i, v)).collect()
}

/// `h_i(v)` in `f64`.
pub fn value_f64(t: &Tree, i: usize, v: usize) -> f64 {
    let (l, r) = t.nodes[i].children.expect("an internal node");
    match t.side(i, v) {
        1 => -1.0 / t.nodes[l].size() as f64,
        -1 => 1.0 / t.nodes[r].size() as f64,
        _ => 0.0,
    }
}

/// The largest entry of `|MᵀM − I|`, where `M` has the columns `h_i/‖h_i‖` (every internal `i`)
/// and `𝟙/√n`: zero up to rounding iff the vectors are orthonormal after scaling; `M` is square
/// because a full binary tree on `n` leaves has `n − 1` internal nodes. Checked with nalgebra.
///
/// ```
/// use balloc::graph::{Graph, tree::Tree, haar::orthogonality_defect};
/// let t = Tree::standard(&Graph::torus(3, 4).unwrap()).unwrap();
/// assert!(orthogonality_defect(&t) < 1e-12);
/// ```
pub fn orthogonality_defect(t: &Tree) -> f64 {
    let n = t.pos.len();
    let internal = t.internal();
    let mut m = nalgebra::DMatrix::<f64>::zeros(n, internal.len() + 1);
    for (c, &i) in internal.iter().enumerate() {
        let col: Vec<f64> = (0..n).map(|v| value_f64(t, i, v)).collect();
        let norm = col.iter().map(|x| x * x).sum::<f64>().sqrt();
        for v in 0..n {
            m[(v, c)] = col[v] / norm;
        }
    }
    for v in 0..n {
        m[(v, internal.len())] = 1.0 / (n as f64).sqrt();
    }
    let g = m.transpose() * &m
        - nalgebra::DMatrix::<f64>::identity(internal.len() + 1, internal.len() + 1);
    g.iter().fold(0.0, |a, x| a.max(x.abs()))
}

/// `⟨h_i, h_j⟩ = Σ_v h_i(v)·h_j(v)`, summed over the vertices (not the closed form): `0` for
/// `i ≠ j`, `‖h_i‖² = 1/|S_ℓ(i)| + 1/|S_r(i)|` for `i = j` (derived; Bansal–Feldheim
/// arXiv:2106.06051 v2 §1.2, eq. (2)).
///
/// ```
/// use balloc::graph::{Graph, tree::Tree, haar::dot};
/// use balloc::exact::Q;
/// let t = Tree::standard(&Graph::cycle(6).unwrap()).unwrap();
/// let (l, _) = t.nodes[0].children.unwrap();
/// // h_root = (−1/3, −1/3, −1/3, 1/3, 1/3, 1/3): ‖h‖² = 6/9 = 2/3 = 1/3 + 1/3. Node {0, 1, 2}
/// // splits into {0} | {1, 2} (or {0, 1} | {2}): its vector lives on the left half, where h_root
/// // is constant, and sums to zero there, so the dot product is 0.
/// assert_eq!(dot(&t, 0, 0), Q::new(2.into(), 3.into()));
/// assert_eq!(dot(&t, 0, l), Q::from_integer(0.into()));
/// ```
pub fn dot(t: &Tree, i: usize, j: usize) -> Q {
    (0..t.pos.len())
        .map(|v| value(t, i, v) * value(t, j, v))
        .sum()
}

/// `⟨h_i, L⟩ = Σ_v h_i(v)·L(v)`, summed over the vertices; equals `L̄(S_r(i)) − L̄(S_ℓ(i))`
/// (derived, Bansal–Feldheim §1.2).
///
/// ```
/// use balloc::graph::{Graph, tree::Tree, haar::dot_loads};
/// use balloc::exact::Q;
/// let t = Tree::standard(&Graph::cycle(4).unwrap()).unwrap();
/// // Root {0, 1} | {2, 3}, loads (3, 1, 0, 0): −(3 + 1)/2 + (0 + 0)/2 = −2 = L̄(S_r) − L̄(S_ℓ).
/// let x: Vec<Q> = [3, 1, 0, 0].iter().map(|&v| Q::from_integer(v.into())).collect();
/// assert_eq!(dot_loads(&t, 0, &x), Q::from_integer((-2).into()));
/// ```
pub fn dot_loads(t: &Tree, i: usize, x: &[Q]) -> Q {
    x.iter()
        .enumerate()
        .map(|(v, xv)| value(t, i, v) * xv)
        .sum()
}

/// The residual of the Haar expansion of a load vector,
/// `Σ_v |L(v) − t/n − Σ_i (⟨L, h_i⟩/‖h_i‖²)·h_i(v)|` over the internal nodes `i`, with
/// `t = Σ L` and the dot products summed over the vertices ([`dot`], [`dot_loads`]): `0` exactly
/// when `L − (t/n)𝟙 = Σ_i (⟨L, h_i⟩/‖h_i‖²)h_i` (the vectors `h_i` with `𝟙` are an orthogonal
/// basis; derived, Bansal–Feldheim §1.2). `O(n²)` for a tree of `n` leaves.
///
/// ```
/// use balloc::graph::{Graph, tree::Tree, haar::expansion_residual};
/// use balloc::exact::Q;
/// let t = Tree::standard(&Graph::cycle(4).unwrap()).unwrap();
/// // Loads (3, 1, 0, 0), t/n = 1: root coefficient −2/(1/2 + 1/2) = −2 times (−1/2, −1/2, 1/2,
/// // 1/2) gives (1, 1, −1, −1); node {0, 1}: ⟨h, L⟩ = −3 + 1 = −2 over ‖h‖² = 2 gives
/// // −1·(−1, 1, 0, 0) = (1, −1, 0, 0); node {2, 3}: 0. Sum + 1 = (3, 1, 0, 0): residual 0.
/// let x: Vec<Q> = [3, 1, 0, 0].iter().map(|&v| Q::from_integer(v.into())).collect();
/// assert_eq!(expansion_residual(&t, &x), Q::from_integer(0.into()));
/// ```
pub fn expansion_residual(t: &Tree, x: &[Q]) -> Q {
    use num_traits::Signed;
    let n = x.len();
    let total: Q = x.iter().sum();
    let mut recon = vec![total / Q::from_integer(Int::from(n)); n];
    for i in t.internal() {
        let h = vector(t, i);
        let norm2: Q = h.iter().map(|v| v * v).sum();
        let c: Q = h.iter().zip(x).map(|(a, b)| a * b).sum::<Q>() / norm2;
        for (r, hv) in recon.iter_mut().zip(&h) {
            *r += &c * hv;
        }
    }
    recon.iter().zip(x).map(|(r, xv)| (r - xv).abs()).sum()
}
