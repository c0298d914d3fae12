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
pub mod experiment;
pub mod flow;
pub mod greedy;
pub mod haar;
pub mod measures;
pub mod quantities;
pub mod sparse_cut;
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

    /// Reads an edge-list file whose relative `path` lies in `dir` (a theorem file's directory;
    /// `None`: the current directory). Errors name the file as read; the graph is named by `path`
    /// as written, so that names (and the run seeds derived from them) do not depend on `dir`.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join("balloc-doc-read-edge-list-in");
    /// std::fs::create_dir_all(&dir).unwrap();
    /// std::fs::write(dir.join("tri.edges"), "0 1\n1 2\n2 0\n").unwrap();
    /// let g = balloc::graph::Graph::read_edge_list_in("tri.edges", Some(&dir)).unwrap();
    /// assert_eq!((g.n(), g.name()), (3, "tri.edges"));
    /// let e = balloc::graph::Graph::read_edge_list_in("none.edges", Some(&dir)).unwrap_err();
    /// assert!(e.to_string().contains("none.edges") && e.to_string().contains("cannot read"));
    /// ```
    pub fn read_edge_list_in(path: &str, dir: Option<&std::path::Path>) -> Result<Graph> {
        let full = resolve(path, dir);
        let mut g = Graph::read_edge_list(&full.display().to_string())?;
        g.name = path.to_string();
        Ok(g)
    }

    /// Reads an edge-list file (see [`Graph::parse_edge_list`]).
    pub fn read_edge_list(path: &str) -> Result<Graph> {
        let meta = std::fs::metadata(path).map_err(|e| {
            Error::invalid(format!("graph file `{path}`"), format!("cannot read: {e}"))
        })?;
        crate::limits::INPUT_FILE_BYTES.check(&format!("graph file `{path}`"), meta.len())?;
        let text = std::fs::read_to_string(path).map_err(|e| {
            Error::invalid(format!("graph file `{path}`"), format!("cannot read: {e}"))
        })?;
        Graph::parse_edge_list(&text, path)
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

/// A graph description that can be instantiated at any admissible `n` (used by the process
/// spec, where `n` comes from the load vector): `cycle`, `path`, `torus` (square, side ≥ 3),
/// `hypercube` (`n` a power of two), `complete`, `regular` (with `d`, `seed`), `file` (with a path).
#[derive(Debug, Clone, PartialEq)]
pub enum GraphKind {
    /// `C_n`.
    Cycle,
    /// `P_n`.
    Path,
    /// The square torus `√n × √n`.
    Torus,
    /// `Q_{log₂ n}`.
    Hypercube,
    /// `K_n`.
    Complete,
    /// A random `d`-regular graph.
    Regular {
        /// The degree.
        d: usize,
        /// The ChaCha seed.
        seed: u64,
    },
    /// Two `d`-regular sides joined by `k` edges ([`sparse_cut::SparseCut`]).
    SparseCut {
        /// The degree (even).
        d: usize,
        /// The cut (even, `3k ≤ 2d`).
        k: usize,
        /// The size of the first side (`None`: `n/2`).
        a: Option<usize>,
    },
    /// An edge-list file (its `n` must match).
    File {
        /// The path as written (it names the graph, so run seeds do not depend on where the
        /// file lies).
        path: String,
        /// The directory a relative `path` is read from (a theorem file's directory); `None`:
        /// the current directory.
        dir: Option<std::path::PathBuf>,
    },
}

impl GraphKind {
    /// The accepted names.
    pub const NAMES: &'static [&'static str] = &[
        "cycle",
        "path",
        "torus",
        "hypercube",
        "complete",
        "regular",
        "sparse-cut",
        "file",
    ];

    /// The family `family` (one of [`GraphKind::NAMES`]) with its parameters read from `spec`:
    /// `d` (default 3) and `seed` (default 1) for `regular`, `d` (default 3), `k` (required) and
    /// `a` (the first side, default `n/2`) for `sparse-cut`, `file` (required; or the bare value,
    /// `file(PATH)`) for `file`, read from
    /// `spec.base` when relative. A parameter the family does not use is an error; `what` names
    /// the spec in errors.
    ///
    /// ```
    /// use balloc::{graph::GraphKind, spec::Spec};
    /// let s = Spec::parse("sparse-cut(d=24,k=2)").unwrap();
    /// assert_eq!(GraphKind::from_spec("sparse-cut", &s, "graph").unwrap(), GraphKind::SparseCut { d: 24, k: 2, a: None });
    /// let s = Spec::parse("cycle(d=4)").unwrap();
    /// assert!(GraphKind::from_spec("cycle", &s, "graph").unwrap_err().to_string().contains("`d`"));
    /// ```
    pub fn from_spec(family: &str, spec: &crate::spec::Spec, what: &str) -> Result<GraphKind> {
        let param = |k: &str| format!("parameter `{k}` of `{what}`");
        let file = spec.get("file").or_else(|| spec.get(""));
        let kind = match family {
            "cycle" => GraphKind::Cycle,
            "path" => GraphKind::Path,
            "torus" => GraphKind::Torus,
            "hypercube" => GraphKind::Hypercube,
            "complete" => GraphKind::Complete,
            "regular" => GraphKind::Regular {
                d: spec.get_u64("d", 3)? as usize,
                seed: spec.get_u64("seed", 1)?,
            },
            "sparse-cut" => {
                if spec.get("k").is_none() {
                    return Err(Error::invalid(
                        param("k"),
                        "is required with graph=sparse-cut (the number of edges across the cut)",
                    ));
                }
                GraphKind::SparseCut {
                    d: spec.get_u64("d", 3)? as usize,
                    k: spec.get_u64("k", 0)? as usize,
                    a: match spec.get("a") {
                        Some(_) => Some(spec.get_u64("a", 0)? as usize),
                        None => None,
                    },
                }
            }
            "file" => GraphKind::File {
                path: file
                    .ok_or_else(|| Error::invalid(param("file"), "is required with graph=file"))?
                    .to_string(),
                dir: spec.base.clone(),
            },
            other => return Err(Error::unknown("graph", other, GraphKind::NAMES)),
        };
        let uses = |k: &str| match k {
            "d" => matches!(
                kind,
                GraphKind::Regular { .. } | GraphKind::SparseCut { .. }
            ),
            "seed" => matches!(kind, GraphKind::Regular { .. }),
            "k" | "a" => matches!(kind, GraphKind::SparseCut { .. }),
            _ => matches!(kind, GraphKind::File { .. }),
        };
        for (k, used_by) in [
            ("file", "graph=file"),
            ("seed", "graph=regular"),
            ("d", "graph=regular and graph=sparse-cut"),
            ("k", "graph=sparse-cut"),
            ("a", "graph=sparse-cut"),
        ] {
            if spec.get(k).is_some() && !uses(k) {
                return Err(Error::invalid(
                    param(k),
                    format!("is only used with {used_by}"),
                ));
            }
        }
        Ok(kind)
    }

    /// Instantiates the graph on `n` vertices.
    ///
    /// ```
    /// use balloc::graph::GraphKind;
    /// assert_eq!(GraphKind::Torus.build(16).unwrap().regular_degree(), Some(4));
    /// assert!(GraphKind::Hypercube.build(12).is_err());
    /// ```
    pub fn build(&self, n: usize) -> Result<Graph> {
        crate::limits::GRAPH_N.check_usize("graph size n", n)?;
        match self {
            GraphKind::Cycle => Graph::cycle(n),
            GraphKind::Path => Graph::path(n),
            GraphKind::Torus => {
                let s = (n as f64).sqrt().round() as usize;
                if s * s != n {
                    return Err(Error::invalid(
                        "torus",
                        format!("n = {n} is not a perfect square"),
                    ));
                }
                Graph::torus(s, s)
            }
            GraphKind::Hypercube => {
                if !n.is_power_of_two() || n < 2 {
                    return Err(Error::invalid(
                        "hypercube",
                        format!("n = {n} is not a power of two ≥ 2"),
                    ));
                }
                Graph::hypercube(n.trailing_zeros())
            }
            GraphKind::Complete => Graph::complete(n),
            GraphKind::Regular { d, seed } => Graph::random_regular(n, *d, *seed),
            GraphKind::SparseCut { d, k, a: None } => Graph::sparse_cut(n, *d, *k),
            GraphKind::SparseCut { d, k, a: Some(a) } => {
                sparse_cut::SparseCut::new(n, *a, *d, *k)?.graph()
            }
            GraphKind::File { path, dir } => {
                let g = Graph::read_edge_list_in(path, dir.as_deref())?;
                if g.n() != n {
                    return Err(Error::invalid(
                        format!("graph file `{}`", resolve(path, dir.as_deref()).display()),
                        format!("has {} vertices but the load vector has {n} bins", g.n()),
                    ));
                }
                Ok(g)
            }
        }
    }
}

/// `path` read from `dir` when it is relative and `dir` is given; `path` itself otherwise.
///
/// ```
/// use std::path::Path;
/// let p = balloc::graph::resolve("g.edges", Some(Path::new("theorems/x")));
/// assert_eq!(p, Path::new("theorems/x/g.edges"));
/// assert_eq!(balloc::graph::resolve("/abs/g.edges", Some(Path::new("x"))), Path::new("/abs/g.edges"));
/// assert_eq!(balloc::graph::resolve("g.edges", None), Path::new("g.edges"));
/// ```
pub fn resolve(path: &str, dir: Option<&std::path::Path>) -> std::path::PathBuf {
    let p = std::path::Path::new(path);
    match dir {
        Some(d) if p.is_relative() => d.join(p),
        _ => p.to_path_buf(),
    }
}
