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
