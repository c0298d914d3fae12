//! d-regular graphs with a sparse minimum cut: two dense d-regular sides joined by `k` edges, the
//! graphs on which Bansal–Feldheim's lower bound Ω(d/k) (Lemma 4.1, Theorem 1.2) is large.
//!
//! Construction (sides `A = {0, …, a − 1}` and `B = {a, …, n − 1}`, `b = n − a`, `d` even, `k`
//! even):
//!
//! 1. each side is the circulant `C_s(1, 2, …, d/2)` (vertex `i` of the side adjacent to
//!    `i ± 1, …, i ± d/2` mod the side's size `s`), which is `d`-regular when `s ≥ d + 1`
//!    (`s = d + 1` gives the complete graph `K_{d+1}`);
//! 2. the `k/2` edges `{2j, 2j + 1}` (`j < k/2`, offset 1) are removed from each side, so the first
//!    `k` vertices of each side have degree `d − 1`;
//! 3. these are joined across by the `k` edges `{j, a + j}`, `j < k`.
//!
//! Every vertex has degree `d` again, and the cut `(A, B)` has exactly `k` edges.
//!
//! **Edge connectivity.** `λ(G) = k` when `3k ≤ 2d`. A circulant is a connected vertex-transitive
//! graph, so its edge connectivity equals its degree `d` (Mader, 1971); removing `k/2` edges lowers
//! every cut of a side by at most `k/2`. A cut of `G` that splits a side therefore has at least
//! `d − k/2 ≥ k` edges, and the only cuts that split no side are `(A, B)` itself, with `k` edges.
//! The constructor demands `3k ≤ 2d`; the tests recompute `λ` by max-flows and, on small graphs,
//! by enumerating every vertex set.
//!
//! Reference: Bansal–Feldheim, *The Power of Two Choices in Graphical Allocation*
//! (arXiv:2106.06051 v2), §4.1, Lemma 4.1 (a minimum cut `(S, S̄)` with `|S| ≥ n/2` and
//! `(d|S| − k)/2` edges inside `S`); the construction is this crate's.

use super::Graph;
use crate::error::{Error, Result};

/// The parameters of a sparse-cut graph: `n` vertices, the first side of `a` vertices, degree
/// `d`, cut `k`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SparseCut {
    /// The number of vertices.
    pub n: usize,
    /// The size of the first side `A = {0, …, a − 1}`.
    pub a: usize,
    /// The degree (even).
    pub d: usize,
    /// The number of edges across the cut (even), the edge connectivity.
    pub k: usize,
}

impl SparseCut {
    /// Validates the parameters: `d` even, `k` even with `2 ≤ k` and `3k ≤ 2d`, both sides of at
    /// least `d + 1` vertices, and `n·d/2` edges within [`crate::limits::GRAPH_EDGES`].
    ///
    /// ```
    /// use balloc::graph::sparse_cut::SparseCut;
    /// assert!(SparseCut::new(64, 32, 24, 2).is_ok());
    /// assert!(SparseCut::new(64, 32, 24, 3).unwrap_err().to_string().contains("even"));
    /// assert!(SparseCut::new(64, 32, 24, 18).unwrap_err().to_string().contains("3k ≤ 2d"));
    /// assert!(SparseCut::new(40, 20, 24, 2).unwrap_err().to_string().contains("d + 1"));
    /// ```
    pub fn new(n: usize, a: usize, d: usize, k: usize) -> Result<SparseCut> {
        let bad = |why: String| Error::invalid("graph `sparse-cut`", why);
        crate::limits::GRAPH_N.check_usize("graph `sparse-cut` n", n)?;
        if d < 2 || !d.is_multiple_of(2) {
            return Err(bad(format!(
                "the degree d must be even and at least 2 (each side is a circulant), got {d}"
            )));
        }
        if k < 2 || !k.is_multiple_of(2) {
            return Err(bad(format!(
                "the cut k must be even and at least 2 (every d-regular side has an even number \
                 of cut edges when d is even), got {k}"
            )));
        }
        if 3 * k > 2 * d {
            return Err(bad(format!(
                "needs 3k ≤ 2d so that the cut between the sides is a minimum cut, got d = {d}, \
                 k = {k}"
            )));
        }
        if a > n || a < d + 1 || n - a < d + 1 {
            return Err(bad(format!(
                "each side needs at least d + 1 = {} vertices, got sides {a} and {}",
                d + 1,
                n.saturating_sub(a)
            )));
        }
        let edges = crate::limits::checked_mul("graph `sparse-cut` edges", n as u64, d as u64)? / 2;
        crate::limits::GRAPH_EDGES.check("graph `sparse-cut` edges n·d/2", edges)?;
        Ok(SparseCut { n, a, d, k })
    }

    /// Two equal sides: `a = n/2` (`n` even).
    ///
    /// ```
    /// let p = balloc::graph::sparse_cut::SparseCut::halves(64, 24, 2).unwrap();
    /// assert_eq!((p.a, p.d, p.k), (32, 24, 2));
    /// assert!(balloc::graph::sparse_cut::SparseCut::halves(65, 24, 2).is_err());
    /// ```
    pub fn halves(n: usize, d: usize, k: usize) -> Result<SparseCut> {
        if !n.is_multiple_of(2) {
            return Err(Error::invalid(
                "graph `sparse-cut`",
                format!("two equal sides need an even n, got {n}"),
            ));
        }
        SparseCut::new(n, n / 2, d, k)
    }

    /// The graph's name: `sparse-cut(n,d,k)` for equal sides, `sparse-cut(n,d,k,a)` otherwise.
    ///
    /// ```
    /// use balloc::graph::sparse_cut::SparseCut;
    /// assert_eq!(SparseCut::new(64, 32, 24, 2).unwrap().name(), "sparse-cut(64,24,2)");
    /// assert_eq!(SparseCut::new(64, 25, 24, 2).unwrap().name(), "sparse-cut(64,24,2,25)");
    /// ```
    pub fn name(&self) -> String {
        if 2 * self.a == self.n {
            format!("sparse-cut({},{},{})", self.n, self.d, self.k)
        } else {
            format!("sparse-cut({},{},{},{})", self.n, self.d, self.k, self.a)
        }
    }

    /// The edges of one side (vertices `off..off + s`): the circulant `C_s(1..d/2)` without the
    /// offset-1 edges `{2j, 2j + 1}`, `j < k/2`.
    fn side(&self, off: usize, s: usize, out: &mut Vec<(usize, usize)>) {
        for i in 0..s {
            for step in 1..=self.d / 2 {
                let j = (i + step) % s;
                // Each unordered pair once: s ≥ d + 1 makes the offsets 1..d/2 and s − d/2..s − 1
                // disjoint, so (i, i + step) is listed from i only.
                let removed = step == 1 && i % 2 == 0 && i + 1 < self.k && j == i + 1;
                if !removed {
                    out.push((off + i, off + j));
                }
            }
        }
    }

    /// Builds the graph (module documentation).
    ///
    /// ```
    /// use balloc::graph::sparse_cut::SparseCut;
    /// let g = SparseCut::halves(20, 4, 2).unwrap().graph().unwrap();
    /// assert_eq!((g.n(), g.m(), g.regular_degree()), (20, 40, Some(4)));
    /// // The cut between {0..9} and {10..19}: the edges {0, 10} and {1, 11}.
    /// let cut: Vec<_> = g.edges().iter().filter(|&&(x, y)| (x < 10) != (y < 10)).collect();
    /// assert_eq!(cut, vec![&(0, 10), &(1, 11)]);
    /// ```
    pub fn graph(&self) -> Result<Graph> {
        let mut edges = Vec::with_capacity(self.n * self.d / 2);
        self.side(0, self.a, &mut edges);
        self.side(self.a, self.n - self.a, &mut edges);
        edges.extend((0..self.k).map(|j| (j, self.a + j)));
        Graph::from_edges(self.n, edges, self.name())
    }
}

impl Graph {
    /// The sparse-cut graph with two equal sides ([`SparseCut`]): `d`-regular, `k`
    /// edge-connected, the cut between `{0, …, n/2 − 1}` and the rest has `k` edges.
    ///
    /// ```
    /// let g = balloc::graph::Graph::sparse_cut(64, 24, 2).unwrap();
    /// assert_eq!((g.m(), g.regular_degree()), (64 * 24 / 2, Some(24)));
    /// ```
    pub fn sparse_cut(n: usize, d: usize, k: usize) -> Result<Graph> {
        SparseCut::halves(n, d, k)?.graph()
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::graph::measures::{boundary, edge_connectivity_by_flows};

    /// Connected: a search from vertex 0 reaches every vertex.
    fn connected(g: &Graph) -> bool {
        let mut seen = vec![false; g.n()];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(v) = stack.pop() {
            for &(u, _) in g.neighbours(v) {
                if !seen[u] {
                    seen[u] = true;
                    stack.push(u);
                }
            }
        }
        seen.iter().all(|&s| s)
    }

    /// The smallest `|∂S|` over every proper non-empty vertex set (brute force, `n ≤ 20`).
    fn min_cut_brute_force(g: &Graph) -> usize {
        (1u32..(1u32 << g.n()) - 1)
            .map(|mask| boundary(g, mask))
            .min()
            .unwrap()
    }

    fn regular_connected_with_the_designed_cut() {
        for (n, a, d, k) in [
            (20, 10, 4, 2),
            (14, 7, 6, 2),
            (14, 7, 6, 4),
            (16, 7, 6, 4),
            (64, 32, 24, 2),
            (64, 32, 24, 8),
            (64, 32, 24, 16),
            (50, 9, 8, 2),
            (80, 40, 32, 20),
        ] {
            let p = SparseCut::new(n, a, d, k).unwrap();
            let g = p.graph().unwrap();
            assert_eq!(g.regular_degree(), Some(d), "{}", g.name());
            assert_eq!(g.m(), n * d / 2);
            assert!(connected(&g), "{}", g.name());
            let cut = g
                .edges()
                .iter()
                .filter(|&&(x, y)| (x < a) != (y < a))
                .count();
            assert_eq!(cut, k, "{}", g.name());
            // λ by unit-capacity max-flows (an independent route to the closed form k).
            assert_eq!(edge_connectivity_by_flows(&g), k, "{}", g.name());
        }
    }

    fn edge_connectivity_by_enumerating_every_set() {
        // n ≤ 16: every one of the 2^n − 2 proper vertex sets.
        for (n, a, d, k) in [(10, 5, 4, 2), (14, 7, 6, 2), (14, 7, 6, 4), (16, 9, 6, 4)] {
            let g = SparseCut::new(n, a, d, k).unwrap().graph().unwrap();
            assert_eq!(min_cut_brute_force(&g), k, "{}", g.name());
        }
    }

    fn a_side_of_d_plus_one_vertices_is_complete() {
        // Side A of 5 = d + 1 vertices: K_5 without the edge {0, 1}, plus the cut edges {0, 5},
        // {1, 6}.
        let g = SparseCut::new(12, 5, 4, 2).unwrap().graph().unwrap();
        for x in 0..5 {
            for y in x + 1..5 {
                assert_eq!(g.edge_index(x, y).is_some(), (x, y) != (0, 1), "{x} {y}");
            }
        }
        assert!(g.edge_index(0, 5).is_some() && g.edge_index(1, 6).is_some());
        assert_eq!(g.name(), "sparse-cut(12,4,2,5)");
    }

    fn invalid_parameters_are_one_line_errors() {
        for (n, a, d, k, what) in [
            (20, 10, 5, 2, "even"),
            (20, 10, 0, 2, "even"),
            (20, 10, 4, 0, "even"),
            (20, 10, 6, 6, "3k ≤ 2d"),
            (20, 4, 4, 2, "d + 1"),
            (20, 25, 4, 2, "d + 1"),
            (1 << 30, 1 << 29, 4, 2, "GRAPH_N"),
        ] {
            let e = SparseCut::new(n, a, d, k).unwrap_err().to_string();
            assert!(e.contains(what) && !e.contains('\n'), "{e}");
        }
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "regular_connected_with_the_designed_cut",
            run: regular_connected_with_the_designed_cut,
            panics: None,
        },
        crate::unit::Test {
            name: "edge_connectivity_by_enumerating_every_set",
            run: edge_connectivity_by_enumerating_every_set,
            panics: None,
        },
        crate::unit::Test {
            name: "a_side_of_d_plus_one_vertices_is_complete",
            run: a_side_of_d_plus_one_vertices_is_complete,
            panics: None,
        },
        crate::unit::Test {
            name: "invalid_parameters_are_one_line_errors",
            run: invalid_parameters_are_one_line_errors,
            panics: None,
        },
    ];
}
