//! Electrical flows: for a connected network with edge resistances `r_e > 0` and a demand `h`
//! (net inflow per vertex, `Σ_v h(v) = 0`), the electrical flow is `f(a→b) = (x_a − x_b)/r_e`
//! where the potentials solve the Laplacian system `L x = −h`, `L = Σ_e (1/r_e)(χ_a − χ_b)(χ_a − χ_b)ᵀ`
//! (so `(Lx)_v` is the net outflow at `v`). It is the unique flow with net inflow `h` that
//! minimises the energy `Σ_e r_e f_e²` (Thomson's principle), and it spreads the demand over all
//! short paths instead of one spanning tree.
//!
//! The system is solved in `f64` by the conjugate-gradient method with the Jacobi (weighted
//! degree) preconditioner; `L` is singular with kernel `𝟙`, and `h ⊥ 𝟙` lies in its range, so
//! the iteration converges (the constant component of `x` does not affect the flow). Stopping
//! rule: relative residual `‖h + Lx‖₂ ≤ 10⁻¹³‖h‖₂` or `10·|V| + 100` iterations. The result is
//! approximate; [`crate::graph::flow`] rounds it to rationals and repairs the divergence exactly,
//! so no guarantee rests on this solver's accuracy.
//!
//! Used by the Bansal–Feldheim preprocessing (arXiv:2106.06051 v2, §2.2, C.Alg.pre.3: "a flow
//! with net inflow `h_i` of low congestion"); the electrical flow is a standard choice for such
//! routings, not the paper's (the paper takes its routing from Räcke's oblivious routing).

use super::Graph;
use crate::error::{Error, Result};

/// A network: the subgraph of `G` induced by a vertex set, with its edges' resistances.
#[derive(Debug, Clone)]
pub struct Network {
    /// The vertices (local index `k` is `vertices[k]`).
    pub vertices: Vec<usize>,
    /// The edges inside the set: `(edge index in G, local a, local b)`, oriented as in `G`.
    pub edges: Vec<(usize, usize, usize)>,
}

impl Network {
    /// The subgraph of `g` induced by `set`; `None` when it is disconnected (or `set` is empty).
    ///
    /// ```
    /// use balloc::graph::{Graph, electrical::Network};
    /// let g = Graph::cycle(6).unwrap();
    /// assert_eq!(Network::induced(&g, &[0, 1, 2]).unwrap().edges.len(), 2);
    /// assert!(Network::induced(&g, &[0, 2]).is_none()); // no edge 0–2 in C_6
    /// ```
    pub fn induced(g: &Graph, set: &[usize]) -> Option<Network> {
        if set.is_empty() {
            return None;
        }
        let mut local = vec![usize::MAX; g.n()];
        for (k, &v) in set.iter().enumerate() {
            local[v] = k;
        }
        let mut edges = Vec::new();
        for (e, &(a, b)) in g.edges().iter().enumerate() {
            if local[a] != usize::MAX && local[b] != usize::MAX {
                edges.push((e, local[a], local[b]));
            }
        }
        let net = Network {
            vertices: set.to_vec(),
            edges,
        };
        net.connected().then_some(net)
    }

    /// The whole graph; `None` when it is disconnected.
    pub fn whole(g: &Graph) -> Option<Network> {
        Network::induced(g, &(0..g.n()).collect::<Vec<_>>())
    }

    fn connected(&self) -> bool {
        let s = self.vertices.len();
        let mut adj = vec![Vec::new(); s];
        for &(_, a, b) in &self.edges {
            adj[a].push(b);
            adj[b].push(a);
        }
        let mut seen = vec![false; s];
        let mut stack = vec![0];
        seen[0] = true;
        let mut count = 1;
        while let Some(v) = stack.pop() {
            for &u in &adj[v] {
                if !seen[u] {
                    seen[u] = true;
                    count += 1;
                    stack.push(u);
                }
            }
        }
        count == s
    }

    /// `y = L x` for conductances `c` (one per edge of the network).
    fn apply(&self, c: &[f64], x: &[f64], y: &mut [f64]) {
        y.iter_mut().for_each(|v| *v = 0.0);
        for (k, &(_, a, b)) in self.edges.iter().enumerate() {
            let f = c[k] * (x[a] - x[b]);
            y[a] += f;
            y[b] -= f;
        }
    }

    /// The electrical flow of `demand` (net inflow per local vertex, summing to 0 up to
    /// rounding) with resistances `resistance` (indexed by the edge index in `G`): the flow
    /// value along each network edge's orientation, in the order of [`Network::edges`].
    ///
    /// ```
    /// use balloc::graph::{Graph, electrical::Network};
    /// // C_4 with unit resistances, one unit from 0 to 2: two parallel paths of resistance 2,
    /// // half a unit on each; edge 0→1 carries +1/2, edge (3, 0) carries −1/2 (it flows 0 → 3).
    /// let g = Graph::cycle(4).unwrap();
    /// let net = Network::whole(&g).unwrap();
    /// let f = net.flow(&[1.0; 4], &[-1.0, 0.0, 1.0, 0.0]).unwrap();
    /// assert!((f[0] - 0.5).abs() < 1e-12 && (f[3] + 0.5).abs() < 1e-12);
    /// ```
    pub fn flow(&self, resistance: &[f64], demand: &[f64]) -> Result<Vec<f64>> {
        let s = self.vertices.len();
        if demand.len() != s {
            return Err(Error::invalid(
                "electrical flow",
                format!("{} demands for {s} vertices", demand.len()),
            ));
        }
        let c: Vec<f64> = self
            .edges
            .iter()
            .map(|&(e, _, _)| 1.0 / resistance[e])
            .collect();
        if c.iter().any(|v| !(v.is_finite() && *v > 0.0)) {
            return Err(Error::invalid(
                "electrical flow",
                "resistances must be positive and finite",
            ));
        }
        let mut diag = vec![0.0; s];
        for (k, &(_, a, b)) in self.edges.iter().enumerate() {
            diag[a] += c[k];
            diag[b] += c[k];
        }
        // Solve L x = b with b = −demand (projected onto 𝟙⊥ against rounding in the demand).
        let mean = demand.iter().sum::<f64>() / s as f64;
        let b: Vec<f64> = demand.iter().map(|d| -(d - mean)).collect();
        let bnorm = b.iter().map(|v| v * v).sum::<f64>().sqrt();
        let mut x = vec![0.0; s];
        if bnorm > 0.0 {
            let mut r = b.clone();
            let mut z: Vec<f64> = r.iter().zip(&diag).map(|(r, d)| r / d).collect();
            let mut p = z.clone();
            let mut rz: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
            let mut ap = vec![0.0; s];
            for _ in 0..10 * s + 100 {
                self.apply(&c, &p, &mut ap);
                let pap: f64 = p.iter().zip(&ap).map(|(a, b)| a * b).sum();
                if pap <= 0.0 || !pap.is_finite() {
                    break;
                }
                let alpha = rz / pap;
                for k in 0..s {
                    x[k] += alpha * p[k];
                    r[k] -= alpha * ap[k];
                }
                let rn = r.iter().map(|v| v * v).sum::<f64>().sqrt();
                if rn <= 1e-13 * bnorm {
                    break;
                }
                for k in 0..s {
                    z[k] = r[k] / diag[k];
                }
                let rz_new: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
                let beta = rz_new / rz;
                rz = rz_new;
                for k in 0..s {
                    p[k] = z[k] + beta * p[k];
                }
            }
        }
        Ok(self
            .edges
            .iter()
            .enumerate()
            .map(|(k, &(_, a, b))| c[k] * (x[a] - x[b]))
            .collect())
    }
}
