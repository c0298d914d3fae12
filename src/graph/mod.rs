//! Graphs for graphical allocation: the standard families (cycle, path, torus, hypercube, complete,
//! random d-regular), edge-list files, structural measures, and the machinery of Bansal–Feldheim's
//! strategy (hierarchical decompositions, Haar drifts, edge-bias flows).
//!
//! Reference: N. Bansal, O. N. Feldheim, *The Power of Two Choices in Graphical Allocation*
//! (arXiv:2106.06051 v2, STOC 2022), §1.2–§3; its items in
//! `src/graph/CHECKS.md`, the derived constructions in `docs/derivations.md` §8. The process: a fixed graph `G = (V, E)`, `n = |V|`,
//! `m = |E|`; each step requests a uniform edge and the ball goes to one endpoint.
//!
//! Vertex numbering of the standard graphs:
//! * cycle `C_n`: `i ~ i + 1 (mod n)`; path `P_n`: `i ~ i + 1`;
//! * torus `w × h`: vertex `(x, y)` is `y·w + x`, neighbours `(x ± 1, y)`, `(x, y ± 1)` mod `w`, `h`;
//! * hypercube `Q_h`: vertex = bit string, `v ~ v ⊕ 2^j`;
//! * complete `K_n`: every pair.

use crate::error::{Error, Result};
use std::collections::HashMap;

pub mod binarise;
pub mod binomial;
pub mod checks;
pub mod coupon;
pub mod electrical;
pub mod family;
pub mod flow;
pub mod greedy;
pub mod haar;
pub mod measures;
pub mod quantities;
pub mod sparse_cut;
pub mod spread;
pub mod strategy;
pub mod tree;
pub mod tree_file;
pub mod tree_spec;
pub mod twopoint;

/// Which standard family a graph belongs to (it selects the explicit decomposition and routing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// The cycle `C_n`.
    Cycle,
    /// The path `P_n`.
    Path,
    /// The torus `w × h`.
    Torus {
        /// Width.
        w: usize,
        /// Height.
        h: usize,
    },
    /// The hypercube `Q_dim` on `2^dim` vertices.
    Hypercube {
        /// The dimension.
        dim: u32,
    },
    /// The complete graph `K_n`.
    Complete,
    /// Any other graph (random regular, read from a file).
    General,
}

/// A finite simple undirected graph on vertices `0..n`; every edge is stored once with an
/// orientation `(a, b)` that fixes the sign of flows on it (positive = from `a` to `b`).
///
/// ```
/// let g = balloc::graph::Graph::cycle(5).unwrap();
/// assert_eq!((g.n(), g.m()), (5, 5));
/// assert_eq!(g.regular_degree(), Some(2));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Graph {
    n: usize,
    edges: Vec<(usize, usize)>,
    adj: Vec<Vec<(usize, usize)>>,
    family: Family,
    name: String,
}

impl Graph {
    /// Builds a graph from an edge list; rejects self-loops, repeated edges and out-of-range
    /// vertices with a one-line error naming the edge.
    pub fn from_edges(
        n: usize,
        edges: Vec<(usize, usize)>,
        name: impl Into<String>,
    ) -> Result<Graph> {
        let name = name.into();
        if n == 0 {
            return Err(Error::invalid(
                format!("graph `{name}`"),
                "needs at least one vertex",
            ));
        }
        let mut adj = vec![Vec::new(); n];
        let mut seen = HashMap::new();
        for (i, &(a, b)) in edges.iter().enumerate() {
            let bad = |why: String| {
                Error::invalid(format!("graph `{name}` edge {} ({a}, {b})", i + 1), why)
            };
            if a >= n || b >= n {
                return Err(bad(format!("vertex out of range 0..{n}")));
            }
            if a == b {
                return Err(bad("self-loops are not allowed".into()));
            }
            if let Some(j) = seen.insert((a.min(b), a.max(b)), i) {
                return Err(bad(format!("repeats edge {}", j + 1)));
            }
            adj[a].push((b, i));
            adj[b].push((a, i));
        }
        Ok(Graph {
            n,
            edges,
            adj,
            family: Family::General,
            name,
        })
    }

    fn with_family(mut self, f: Family) -> Graph {
        self.family = f;
        self
    }

    /// The cycle `C_n` (`n ≥ 3`; `n = 2` gives the single edge, `d = 1`).
    ///
    /// ```
    /// assert!(balloc::graph::Graph::cycle(1).is_err());
    /// assert_eq!(balloc::graph::Graph::cycle(2).unwrap().m(), 1);
    /// ```
    pub fn cycle(n: usize) -> Result<Graph> {
        crate::limits::GRAPH_N.check_usize("cycle n", n)?;
        if n < 2 {
            return Err(Error::invalid("cycle", format!("needs n ≥ 2, got {n}")));
        }
        let edges = if n == 2 {
            vec![(0, 1)]
        } else {
            (0..n).map(|i| (i, (i + 1) % n)).collect()
        };
        Ok(Graph::from_edges(n, edges, format!("cycle({n})"))?.with_family(Family::Cycle))
    }

    /// The path `P_n` (`n ≥ 2`), not regular: end degrees 1.
    pub fn path(n: usize) -> Result<Graph> {
        crate::limits::GRAPH_N.check_usize("path n", n)?;
        if n < 2 {
            return Err(Error::invalid("path", format!("needs n ≥ 2, got {n}")));
        }
        let edges = (0..n - 1).map(|i| (i, i + 1)).collect();
        Ok(Graph::from_edges(n, edges, format!("path({n})"))?.with_family(Family::Path))
    }

    /// The torus `w × h` (`w, h ≥ 3`), 4-regular.
    ///
    /// ```
    /// let g = balloc::graph::Graph::torus(3, 4).unwrap();
    /// assert_eq!((g.n(), g.m(), g.regular_degree()), (12, 24, Some(4)));
    /// ```
    pub fn torus(w: usize, h: usize) -> Result<Graph> {
        if w < 3 || h < 3 {
            return Err(Error::invalid(
                "torus",
                format!("needs both sides ≥ 3, got {w} × {h}"),
            ));
        }
        let n = crate::limits::checked_mul("torus w·h", w as u64, h as u64)?;
        crate::limits::GRAPH_N.check("torus w·h", n)?;
        let mut edges = Vec::with_capacity(2 * w * h);
        for y in 0..h {
            for x in 0..w {
                let v = y * w + x;
                edges.push((v, y * w + (x + 1) % w));
                edges.push((v, ((y + 1) % h) * w + x));
            }
        }
        Ok(Graph::from_edges(w * h, edges, format!("torus({w}x{h})"))?
            .with_family(Family::Torus { w, h }))
    }

    /// The hypercube `Q_dim` on `2^dim` vertices (`dim ≥ 1`, `2^dim` within
    /// [`crate::limits::GRAPH_N`], so `dim ≤ 20`), `dim`-regular.
    ///
    /// ```
    /// let g = balloc::graph::Graph::hypercube(3).unwrap();
    /// assert_eq!((g.n(), g.m()), (8, 12));
    /// ```
    pub fn hypercube(dim: u32) -> Result<Graph> {
        if dim == 0 || dim >= 64 {
            return Err(Error::invalid(
                "hypercube",
                format!("the dimension must be at least 1, got {dim}"),
            ));
        }
        crate::limits::GRAPH_N.check("hypercube 2^dim", 1u64 << dim)?;
        let n = 1usize << dim;
        let mut edges = Vec::new();
        for v in 0..n {
            for j in 0..dim {
                let u = v ^ (1 << j);
                if v < u {
                    edges.push((v, u));
                }
            }
        }
        Ok(Graph::from_edges(n, edges, format!("hypercube({dim})"))?
            .with_family(Family::Hypercube { dim }))
    }

    /// The complete graph `K_n` (`2 ≤ n ≤` [`crate::limits::GRAPH_COMPLETE_N`]).
    pub fn complete(n: usize) -> Result<Graph> {
        crate::limits::GRAPH_COMPLETE_N.check_usize("complete n", n)?;
        if n < 2 {
            return Err(Error::invalid("complete", format!("needs n ≥ 2, got {n}")));
        }
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                edges.push((a, b));
            }
        }
        Ok(Graph::from_edges(n, edges, format!("complete({n})"))?.with_family(Family::Complete))
    }

    /// A uniformly random simple `d`-regular graph on `n` vertices by the configuration model with
    /// rejection (restart until the pairing is simple), driven by ChaCha8 seeded with `seed`.
    /// Needs `n·d` even, `1 ≤ d < n`, `d ≤` [`crate::limits::GRAPH_REGULAR_DEGREE`] (rejection
    /// becomes hopeless for larger `d`) and `n ≤` [`crate::limits::GRAPH_N`].
    ///
    /// ```
    /// let g = balloc::graph::Graph::random_regular(10, 3, 7).unwrap();
    /// assert_eq!(g.regular_degree(), Some(3));
    /// assert_eq!(g, balloc::graph::Graph::random_regular(10, 3, 7).unwrap()); // deterministic
    /// ```
    pub fn random_regular(n: usize, d: usize, seed: u64) -> Result<Graph> {
        use rand::{SeedableRng, seq::SliceRandom};
        let what = "random regular graph";
        crate::limits::GRAPH_N.check_usize("random regular graph n", n)?;
        crate::limits::GRAPH_REGULAR_DEGREE.check_usize("random regular graph d", d)?;
        if d == 0 || d >= n || (n * d) % 2 == 1 {
            return Err(Error::invalid(
                what,
                format!("needs 1 ≤ d < n and n·d even, got n = {n}, d = {d}"),
            ));
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        'attempt: for _ in 0..100_000 {
            let mut stubs: Vec<usize> = (0..n * d).map(|s| s / d).collect();
            stubs.shuffle(&mut rng);
            let mut seen = std::collections::HashSet::new();
            let mut edges = Vec::with_capacity(n * d / 2);
            for c in stubs.chunks(2) {
                let (a, b) = (c[0].min(c[1]), c[0].max(c[1]));
                if a == b || !seen.insert((a, b)) {
                    continue 'attempt;
                }
                edges.push((a, b));
            }
            return Graph::from_edges(n, edges, format!("regular(n={n},d={d},seed={seed})"));
        }
        Err(Error::invalid(
            what,
            format!("no simple pairing found for n = {n}, d = {d}"),
        ))
    }

    /// Parses an edge list: one edge `u v` (0-based vertex numbers) per line; blank lines and
    /// lines starting with `#` are ignored; `n` is the largest vertex number plus one. `source`
    /// names the input in errors, which carry the line number.
    ///
    /// ```
    /// let g = balloc::graph::Graph::parse_edge_list("# a triangle\n0 1\n1 2\n2 0\n", "tri").unwrap();
    /// assert_eq!(g.regular_degree(), Some(2));
    /// let e = balloc::graph::Graph::parse_edge_list("0 1\n1 x\n", "f.txt").unwrap_err();
    /// assert!(e.to_string().contains("`f.txt` line 2"));
    /// ```
    pub fn parse_edge_list(text: &str, source: &str) -> Result<Graph> {
        let mut edges = Vec::new();
        let mut lines = Vec::new();
        for (no, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = || format!("graph file `{source}` line {}", no + 1);
            let toks: Vec<&str> = line
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
                .collect();
            if toks.len() != 2 {
                return Err(Error::invalid(
                    at(),
                    format!("expected two vertex numbers, got `{line}`"),
                ));
            }
            let mut uv = [0usize; 2];
            for (k, t) in toks.iter().enumerate() {
                uv[k] = t.parse().map_err(|_| {
                    Error::invalid(at(), format!("`{t}` is not a vertex number (0, 1, 2, ...)"))
                })?;
                if uv[k] >= crate::limits::GRAPH_N.max as usize {
                    return Err(Error::invalid(
                        at(),
                        format!(
                            "vertex {} is not below the limit of {} vertices (limits::GRAPH_N)",
                            uv[k],
                            crate::limits::GRAPH_N.max
                        ),
                    ));
                }
            }
            if uv[0] == uv[1] {
                return Err(Error::invalid(
                    at(),
                    format!("self-loop at vertex {}", uv[0]),
                ));
            }
            let limit = crate::limits::GRAPH_EDGES;
            if edges.len() as u64 >= limit.max {
                return Err(limit.exceeded(
                    &format!("graph file `{source}`"),
                    &format!("more than {}", limit.max),
                ));
            }
            edges.push((uv[0], uv[1]));
            lines.push(no + 1);
        }
        let n = edges
            .iter()
            .map(|&(a, b)| a.max(b) + 1)
            .max()
            .ok_or_else(|| Error::invalid(format!("graph file `{source}`"), "contains no edge"))?;
        let mut first = HashMap::new();
        for (&(a, b), &line) in edges.iter().zip(&lines) {
            if let Some(l0) = first.insert((a.min(b), a.max(b)), line) {
                return Err(Error::invalid(
                    format!("graph file `{source}` line {line}"),
                    format!("repeats the edge {a} {b} of line {l0}"),
                ));
            }
        }
        Graph::from_edges(n, edges, source)
    }

    /// The same graph named `name` (an edge-list file is named by its path as written, so that
    /// names, and the run seeds derived from them, do not depend on where it lies).
    pub fn with_name(mut self, name: &str) -> Graph {
        self.name = name.to_string();
        self
    }

    /// The number of vertices `n`.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The number of edges `m`.
    pub fn m(&self) -> usize {
        self.edges.len()
    }

    /// The edges, each with its orientation `(a, b)`.
    pub fn edges(&self) -> &[(usize, usize)] {
        &self.edges
    }

    /// The neighbours of `v` with the index of the connecting edge.
    pub fn neighbours(&self, v: usize) -> &[(usize, usize)] {
        &self.adj[v]
    }

    /// The degree of `v`.
    pub fn degree(&self, v: usize) -> usize {
        self.adj[v].len()
    }

    /// `Some(d)` if every vertex has degree `d`.
    pub fn regular_degree(&self) -> Option<usize> {
        let d = self.degree(0);
        (0..self.n).all(|v| self.degree(v) == d).then_some(d)
    }

    /// The index of the edge `{a, b}`, if present.
    pub fn edge_index(&self, a: usize, b: usize) -> Option<usize> {
        self.adj[a].iter().find(|&&(u, _)| u == b).map(|&(_, e)| e)
    }

    /// The family (selects explicit decompositions and routings).
    pub fn family(&self) -> Family {
        self.family
    }

    /// A short name such as `cycle(8)`.
    pub fn name(&self) -> &str {
        &self.name
    }
}
