//! Graph families by name: one registry ([`FAMILIES`]) and one grammar ([`GraphSpec`]), used by
//! every place that names a graph — theorem files (`graphs = ["cycle(8)"]`, `graph =
//! "regular(d=3)"`), the process spec (`graphical(graph=regular,d=4)`) and the command line
//! (`balloc graph info --graph torus(4,4)`).
//!
//! **Grammar.** `NAME` or `NAME(ARG, ...)`, an argument either a value (positional, in the order of
//! the family's parameters) or `key=value`. A family whose size parameters are all given is
//! *sized* (`cycle(8)`, `torus(4,6)`, `regular(10,3,1)`); otherwise it is instantiated at the `n`
//! of its use (a load vector's bins, a claim's grid: `cycle`, `regular(d=4,seed=2)`,
//! `sparse-cut(k=2)`). `edges(u-v u-v …)` (an explicit edge list) and `file(PATH)` (an edge-list
//! file) carry their own size. The process spec writes the same arguments flat
//! (`graphical(graph=sparse-cut,d=4,k=2)`, [`GraphSpec::from_flat`]).
//!
//! **Files.** The mathematics reads no file: `file(PATH)` is resolved when the spec is parsed, by
//! the [`GraphFiles`] the caller passes (a theorem file's directory, the current directory of the
//! command line; [`NoFiles`] refuses every path). The graph is named by the path as written, so
//! run seeds do not depend on where the file lies.
//!
//! An unknown family is the same one-line error everywhere: `unknown graph family `star`;
//! accepted: cycle, path, torus, hypercube, complete, regular, sparse-cut, edges, file` (with a
//! did-you-mean). Every size is checked against [`crate::limits::GRAPH_N`] before anything is
//! built.
//!
//! ```
//! use balloc::graph::family::{GraphSpec, NoFiles};
//! // The 4×6 torus: 24 vertices of degree 4, 48 edges.
//! let g = GraphSpec::parse("torus(4,6)", &NoFiles).unwrap().build(None).unwrap();
//! assert_eq!((g.n(), g.m(), g.regular_degree()), (24, 48, Some(4)));
//! // Unsized: the square torus at n = 16.
//! let t = GraphSpec::parse("torus", &NoFiles).unwrap();
//! assert_eq!(t.build(Some(16)).unwrap().m(), 32);
//! let e = GraphSpec::parse("star(4)", &NoFiles).unwrap_err().to_string();
//! assert!(e.starts_with("unknown graph family `star`; accepted: cycle, path, torus"), "{e}");
//! ```

use super::Graph;
use crate::error::{Error, Result};
use crate::limits::GRAPH_N;
use std::sync::Arc;

/// A parameter of a graph family.
#[derive(Debug, Clone, Copy)]
pub struct FamilyParam {
    /// The key (`n`, `d`, `seed`, …), also its position in the sized form.
    pub name: &'static str,
    /// The default when omitted; `None`: required, or (a size parameter) taken from the use.
    pub default: Option<&'static str>,
    /// Its meaning and accepted range.
    pub doc: &'static str,
}

/// A registered graph family.
#[derive(Debug)]
pub struct FamilyInfo {
    /// The name in specs.
    pub name: &'static str,
    /// The parameters, in the order of the positional form.
    pub params: &'static [FamilyParam],
    /// How many leading parameters are the size (given all, or none: then from the use).
    pub size_params: usize,
    /// The graph, with its formula.
    pub summary: &'static str,
    /// A sized example.
    pub example: &'static str,
}

const N: FamilyParam = FamilyParam {
    name: "n",
    default: None,
    doc: "number of vertices (from the use when omitted)",
};

/// The graph families, in the order errors list them.
pub static FAMILIES: &[FamilyInfo] = &[
    FamilyInfo {
        name: "cycle",
        params: &[N],
        size_params: 1,
        summary: "C_n: vertices 0..n, edges {i, i+1 mod n}",
        example: "cycle(8)",
    },
    FamilyInfo {
        name: "path",
        params: &[N],
        size_params: 1,
        summary: "P_n: vertices 0..n, edges {i, i+1}",
        example: "path(6)",
    },
    FamilyInfo {
        name: "torus",
        params: &[
            FamilyParam {
                name: "w",
                default: None,
                doc: "width ≥ 3 (unsized: the square torus, w = h = √n)",
            },
            FamilyParam {
                name: "h",
                default: None,
                doc: "height ≥ 3",
            },
        ],
        size_params: 2,
        summary: "the w×h torus C_w □ C_h (4-regular)",
        example: "torus(4,4)",
    },
    FamilyInfo {
        name: "hypercube",
        params: &[FamilyParam {
            name: "dim",
            default: None,
            doc: "dimension (unsized: n = 2^dim)",
        }],
        size_params: 1,
        summary: "Q_dim: vertices 0..2^dim, edges between labels one bit apart",
        example: "hypercube(3)",
    },
    FamilyInfo {
        name: "complete",
        params: &[N],
        size_params: 1,
        summary: "K_n: every pair of vertices",
        example: "complete(5)",
    },
    FamilyInfo {
        name: "regular",
        params: &[
            N,
            FamilyParam {
                name: "d",
                default: Some("3"),
                doc: "degree (1 ≤ d ≤ 12, n·d even)",
            },
            FamilyParam {
                name: "seed",
                default: Some("1"),
                doc: "ChaCha seed of the random pairing",
            },
        ],
        size_params: 1,
        summary: "a random d-regular graph (configuration model, ChaCha-seeded)",
        example: "regular(10,3,1)",
    },
    FamilyInfo {
        name: "sparse-cut",
        params: &[
            N,
            FamilyParam {
                name: "d",
                default: Some("3"),
                doc: "degree (even)",
            },
            FamilyParam {
                name: "k",
                default: None,
                doc: "edges across the cut (even, 2 ≤ k, 3k ≤ 2d; required)",
            },
            FamilyParam {
                name: "a",
                default: None,
                doc: "first side (default n/2; both sides at least d + 1)",
            },
        ],
        size_params: 1,
        summary: "two d-regular circulant sides joined by k edges (edge connectivity k)",
        example: "sparse-cut(20,4,2)",
    },
    FamilyInfo {
        name: "edges",
        params: &[FamilyParam {
            name: "edges",
            default: None,
            doc: "the edges `u-v` (0-based vertex numbers) separated by spaces",
        }],
        size_params: 0,
        summary: "an explicit edge list; n is one more than the largest vertex",
        example: "edges(0-1 1-2 2-0)",
    },
    FamilyInfo {
        name: "file",
        params: &[FamilyParam {
            name: "file",
            default: None,
            doc: "an edge-list file: lines `u v`, 0-based; `#` comments",
        }],
        size_params: 0,
        summary: "an edge list read from a file (by the caller's GraphFiles)",
        example: "file(c8.edges)",
    },
];

/// The names of [`FAMILIES`].
pub fn names() -> Vec<&'static str> {
    FAMILIES.iter().map(|f| f.name).collect()
}

/// The family named `name`, else the one error for an unknown family (with a did-you-mean).
///
/// ```
/// let e = balloc::graph::family::family("cylce").unwrap_err().to_string();
/// assert!(e.contains("did you mean `cycle`?"), "{e}");
/// ```
pub fn family(name: &str) -> Result<&'static FamilyInfo> {
    FAMILIES
        .iter()
        .find(|f| f.name == name)
        .ok_or_else(|| Error::unknown("graph family", name, &names()))
}

/// The graph of a sized spec (`cycle(8)`, `torus(4,6)`, `edges(0-1 1-2)`, `file(PATH)` read by
/// `files`): [`GraphSpec::parse`] then [`GraphSpec::build`] at the spec's own size.
///
/// ```
/// use balloc::graph::family::{parse_graph, NoFiles};
/// assert_eq!(parse_graph("torus(3,5)", &NoFiles).unwrap().m(), 30);
/// assert_eq!(parse_graph("edges(0-1 1-2 2-0 2-3)", &NoFiles).unwrap().n(), 4);
/// assert_eq!(parse_graph("sparse-cut(20,4,2)", &NoFiles).unwrap().regular_degree(), Some(4));
/// assert!(parse_graph("cycle", &NoFiles).unwrap_err().to_string().contains("cycle(8)"));
/// assert!(parse_graph("cycle(4294967296)", &NoFiles).unwrap_err().to_string().contains("GRAPH_N"));
/// ```
pub fn parse_graph(text: &str, files: &dyn GraphFiles) -> Result<Graph> {
    GraphSpec::parse(text, files)?.build(None)
}

/// Where the files a spec names come from — the edge lists of `file(PATH)`, the decomposition
/// files of a tree `file(PATH)` — : the caller reads them (a theorem file's directory, the
/// current directory); the mathematics reads none. A graph is named by `path` as written.
pub trait GraphFiles {
    /// The graph of the edge-list file `path`.
    fn edge_list(&self, path: &str) -> Result<Graph>;
    /// The text of the decomposition file `path` and the name it is shown by in errors
    /// ([`crate::graph::tree_file::parse`] reads it); by default no such file is read.
    fn tree_text(&self, path: &str) -> Result<(String, String)> {
        Err(Error::invalid(
            format!("tree file `{}`", crate::error::excerpt(path)),
            "no file is read here; name the decomposition where files are read (a theorem file)",
        ))
    }
}

/// No files: `file(PATH)` is an error (for specs that name no file).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoFiles;

impl GraphFiles for NoFiles {
    fn edge_list(&self, path: &str) -> Result<Graph> {
        Err(Error::invalid(
            format!("graph file `{}`", crate::error::excerpt(path)),
            "no file is read here; give the graph as edges(u-v …) or name it where files are read (a theorem file, the command line)",
        ))
    }
}

/// A parsed graph description: a family and its arguments (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct GraphSpec {
    family: &'static FamilyInfo,
    /// The numeric arguments given, by parameter index.
    values: Vec<Option<u64>>,
    /// The graph of `edges(…)` and `file(…)`, with the text that names it.
    given: Option<(String, Arc<Graph>)>,
}

impl PartialEq for FamilyInfo {
    fn eq(&self, other: &FamilyInfo) -> bool {
        self.name == other.name
    }
}

impl GraphSpec {
    /// Parses `NAME` or `NAME(ARG, ...)`; `file(PATH)` is read by `files`.
    ///
    /// ```
    /// use balloc::graph::family::{GraphSpec, NoFiles};
    /// let r = GraphSpec::parse("regular(d=4,seed=7)", &NoFiles).unwrap();
    /// assert_eq!(r.build(Some(10)).unwrap().regular_degree(), Some(4));
    /// assert_eq!(r.to_string(), "regular(d=4,seed=7)");
    /// // Positional and named arguments are the same parameters.
    /// let a = GraphSpec::parse("regular(10,4,7)", &NoFiles).unwrap().build(None).unwrap();
    /// assert_eq!(a, r.build(Some(10)).unwrap());
    /// assert!(GraphSpec::parse("cycle(4,5)", &NoFiles).unwrap_err().to_string().contains("at most 1"));
    /// ```
    pub fn parse(text: &str, files: &dyn GraphFiles) -> Result<GraphSpec> {
        let s = text.trim();
        let bad =
            |why: String| Error::invalid(format!("graph `{}`", crate::error::excerpt(text)), why);
        let (name, args) = match s.split_once('(') {
            None => (s, None),
            Some((name, rest)) => (
                name.trim(),
                Some(
                    rest.strip_suffix(')')
                        .ok_or_else(|| bad("missing closing parenthesis".into()))?,
                ),
            ),
        };
        let f = family(name)?;
        match (f.name, args) {
            ("edges", Some(list)) => return GraphSpec::edges(text, list),
            ("file", Some(a)) => {
                let path = a.trim();
                let path = path.strip_prefix("file=").unwrap_or(path).trim();
                if path.is_empty() {
                    return Err(bad("write file(PATH)".into()));
                }
                return GraphSpec::file(path, files);
            }
            ("edges" | "file", None) => {
                return Err(bad(format!("write {}", f.example)));
            }
            _ => {}
        }
        let mut named = Vec::new();
        let mut positional = Vec::new();
        for a in args.into_iter().flat_map(|a| a.split(',')) {
            let a = a.trim();
            if a.is_empty() && args.is_some_and(|t| t.trim().is_empty()) {
                continue;
            }
            match a.split_once('=') {
                Some((k, v)) => named.push((k.trim(), v.trim())),
                None => positional.push(a),
            }
        }
        GraphSpec::from_args(f, text, &positional, &named)
    }

    /// The flat form of the process spec: the family `name` with its arguments among `spec`'s
    /// keys (`graphical(graph=sparse-cut,d=4,k=2)`, `graph=file,file=PATH`); `what` names the spec
    /// in errors. Keys that no family uses are the caller's to check.
    ///
    /// ```
    /// use balloc::{graph::family::{GraphSpec, NoFiles}, spec::Spec};
    /// let s = Spec::parse("graphical(graph=sparse-cut,d=24,k=2)").unwrap();
    /// let g = GraphSpec::from_flat("sparse-cut", &s, &NoFiles).unwrap();
    /// assert_eq!(g.to_string(), "sparse-cut(d=24,k=2)");
    /// let s = Spec::parse("graphical(graph=cycle,d=4)").unwrap();
    /// assert!(GraphSpec::from_flat("cycle", &s, &NoFiles).unwrap_err().to_string().contains("`d`"));
    /// ```
    pub fn from_flat(
        name: &str,
        spec: &crate::spec::Spec,
        files: &dyn GraphFiles,
    ) -> Result<GraphSpec> {
        let f = family(name)?;
        if f.name == "file" {
            let path = spec.get("file").or_else(|| spec.get("")).ok_or_else(|| {
                Error::invalid(
                    format!("parameter `file` of `{}`", spec.name),
                    "is required with graph=file",
                )
            })?;
            return GraphSpec::file(path, files);
        }
        if f.name == "edges" {
            return Err(Error::invalid(
                format!("parameter `graph` of `{}`", spec.name),
                "graph=edges has no flat form; use graph=file with an edge-list file",
            ));
        }
        for k in ["d", "seed", "k", "a", "file"] {
            if spec.get(k).is_some() && !f.params.iter().any(|p| p.name == k) {
                let users: Vec<String> = FAMILIES
                    .iter()
                    .filter(|g| g.params.iter().any(|p| p.name == k))
                    .map(|g| format!("graph={}", g.name))
                    .collect();
                return Err(Error::invalid(
                    format!("parameter `{k}` of `{}`", spec.name),
                    format!("is only used with {}", users.join(" and ")),
                ));
            }
        }
        let named: Vec<(&str, &str)> = f.params[f.size_params..]
            .iter()
            .filter_map(|p| spec.get(p.name).map(|v| (p.name, v)))
            .collect();
        GraphSpec::from_args(f, &spec.name, &[], &named)
    }

    fn from_args(
        f: &'static FamilyInfo,
        text: &str,
        positional: &[&str],
        named: &[(&str, &str)],
    ) -> Result<GraphSpec> {
        let bad =
            |why: String| Error::invalid(format!("graph `{}`", crate::error::excerpt(text)), why);
        if positional.len() > f.params.len() {
            return Err(bad(format!(
                "takes at most {} argument(s): {}",
                f.params.len(),
                f.example
            )));
        }
        let mut values: Vec<Option<u64>> = vec![None; f.params.len()];
        let number = |k: &str, v: &str| {
            v.parse::<u64>().map_err(|_| {
                bad(format!(
                    "argument `{k}` must be a non-negative integer, got `{}`",
                    crate::error::excerpt(v)
                ))
            })
        };
        for (i, v) in positional.iter().enumerate() {
            values[i] = Some(number(f.params[i].name, v)?);
        }
        for (k, v) in named {
            let i = f.params.iter().position(|p| p.name == *k).ok_or_else(|| {
                let ps: Vec<&str> = f.params.iter().map(|p| p.name).collect();
                bad(format!(
                    "unknown argument `{}` of {}; accepted: {}",
                    crate::error::excerpt(k),
                    f.name,
                    ps.join(", ")
                ))
            })?;
            if values[i].is_some() {
                return Err(bad(format!("argument `{k}` is given twice")));
            }
            values[i] = Some(number(k, v)?);
        }
        let sized = values[..f.size_params]
            .iter()
            .filter(|v| v.is_some())
            .count();
        if sized != 0 && sized != f.size_params {
            return Err(bad(format!(
                "give every size argument or none: {}",
                f.example
            )));
        }
        if f.name == "sparse-cut" && values[2].is_none() {
            return Err(Error::invalid(
                format!("parameter `k` of `{}`", crate::error::excerpt(text)),
                "is required with graph=sparse-cut (the number of edges across the cut)",
            ));
        }
        Ok(GraphSpec {
            family: f,
            values,
            given: None,
        })
    }

    fn edges(text: &str, list: &str) -> Result<GraphSpec> {
        // Each edge exactly `u-v` with two vertex numbers (`1--2`, `1-`, `1-2-3` are errors).
        let mut lines = String::new();
        for e in list.split_whitespace() {
            let ok = e.split_once('-').filter(|(u, v)| {
                let num = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
                num(u) && num(v)
            });
            let Some((u, v)) = ok else {
                return Err(Error::invalid(
                    format!("graph `{}`", crate::error::excerpt(text)),
                    format!(
                        "edge `{}` is not of the form u-v with two vertex numbers",
                        crate::error::excerpt(e)
                    ),
                ));
            };
            lines.push_str(&format!("{u} {v}\n"));
        }
        let g = Graph::parse_edge_list(&lines, text)?;
        Ok(GraphSpec {
            family: family("edges")?,
            values: vec![None],
            given: Some((
                list.split_whitespace().collect::<Vec<_>>().join(" "),
                Arc::new(g),
            )),
        })
    }

    fn file(path: &str, files: &dyn GraphFiles) -> Result<GraphSpec> {
        let g = files.edge_list(path)?;
        Ok(GraphSpec {
            family: family("file")?,
            values: vec![None],
            given: Some((path.to_string(), Arc::new(g))),
        })
    }

    /// The family.
    pub fn family(&self) -> &'static FamilyInfo {
        self.family
    }

    /// The number of vertices the spec gives itself (`cycle(8)`: 8; `torus(4,6)`: 24;
    /// `edges(…)`, `file(…)`: the graph's), `None` when it takes `n` from its use.
    pub fn size(&self) -> Option<u64> {
        if let Some((_, g)) = &self.given {
            return Some(g.n() as u64);
        }
        let v = &self.values;
        match self.family.name {
            _ if self.family.size_params == 0 || v[0].is_none() => None,
            "torus" => Some(v[0]?.saturating_mul(v[1]?)),
            "hypercube" => Some(if v[0]? < 64 { 1u64 << v[0]? } else { u64::MAX }),
            _ => v[0],
        }
    }

    fn value(&self, name: &str) -> Option<u64> {
        let i = self.family.params.iter().position(|p| p.name == name)?;
        self.values[i].or_else(|| self.family.params[i].default?.parse().ok())
    }

    /// The graph: at the spec's own size, or at `n` when the spec takes its size from the use.
    /// A sized spec built at another `n` is an error, as is an unsized one without `n`.
    ///
    /// ```
    /// use balloc::graph::family::{GraphSpec, NoFiles};
    /// let h = GraphSpec::parse("hypercube", &NoFiles).unwrap();
    /// assert_eq!(h.build(Some(8)).unwrap().m(), 12); // Q₃: 8·3/2 edges
    /// assert!(h.build(Some(12)).is_err()); // not a power of two
    /// let c = GraphSpec::parse("cycle(8)", &NoFiles).unwrap();
    /// assert!(c.build(Some(8)).is_ok() && c.build(Some(9)).is_err());
    /// ```
    pub fn build(&self, n: Option<usize>) -> Result<Graph> {
        if let Some((_, g)) = &self.given {
            if let Some(n) = n.filter(|&n| n != g.n()) {
                return Err(Error::invalid(
                    format!("graph `{self}`"),
                    format!("has {} vertices, not the {n} bins of its use", g.n()),
                ));
            }
            return Ok((**g).clone());
        }
        let text = self.to_string();
        let size = |what: &str, v: u64| -> Result<usize> {
            GRAPH_N.check(&format!("graph `{text}` {what}"), v)?;
            Ok(v as usize)
        };
        let n = match (self.size(), n) {
            (Some(own), Some(n)) if own != n as u64 => {
                return Err(Error::invalid(
                    format!("graph `{text}`"),
                    format!("has {own} vertices, not the {n} bins of its use"),
                ));
            }
            (Some(own), _) => own,
            (None, Some(n)) => n as u64,
            (None, None) => {
                return Err(Error::invalid(
                    format!("graph `{text}`"),
                    format!(
                        "takes its size from its use; give it, e.g. {}",
                        self.family.example
                    ),
                ));
            }
        };
        let sized = self.size().is_some();
        let get = |k: &str| self.value(k).unwrap_or(0);
        match self.family.name {
            "cycle" => Graph::cycle(size("n", n)?),
            "path" => Graph::path(size("n", n)?),
            "complete" => Graph::complete(size("n", n)?),
            "torus" if sized => {
                let (w, h) = (get("w"), get("h"));
                crate::limits::checked_mul(&format!("graph `{text}` w·h"), w, h)?;
                size("w·h", n)?;
                Graph::torus(w as usize, h as usize)
            }
            "torus" => {
                let n = size("n", n)?;
                let s = (n as f64).sqrt().round() as usize;
                if s * s != n {
                    return Err(Error::invalid(
                        "torus",
                        format!("n = {n} is not a perfect square"),
                    ));
                }
                Graph::torus(s, s)
            }
            "hypercube" if sized => {
                let d = u32::try_from(get("dim"))
                    .ok()
                    .filter(|&d| d < 64)
                    .ok_or_else(|| {
                        Error::invalid(format!("graph `{text}`"), "dimension too large")
                    })?;
                size("2^dim", n)?;
                Graph::hypercube(d)
            }
            "hypercube" => {
                let n = size("n", n)?;
                if !n.is_power_of_two() || n < 2 {
                    return Err(Error::invalid(
                        "hypercube",
                        format!("n = {n} is not a power of two ≥ 2"),
                    ));
                }
                Graph::hypercube(n.trailing_zeros())
            }
            "regular" => Graph::random_regular(size("n", n)?, size("d", get("d"))?, get("seed")),
            "sparse-cut" => {
                let (n, d, k) = (size("n", n)?, size("d", get("d"))?, size("k", get("k"))?);
                match self.value("a") {
                    None => Graph::sparse_cut(n, d, k),
                    Some(a) => super::sparse_cut::SparseCut::new(n, size("a", a)?, d, k)?.graph(),
                }
            }
            other => unreachable!("family `{other}` carries its graph"),
        }
    }

    /// The arguments after the size, flat, as the process spec writes them (`d=4,seed=7`; `file=
    /// PATH` for a file); empty when there are none.
    pub fn flat_args(&self) -> String {
        if let Some((path, _)) = &self.given {
            return format!("{}={path}", self.family.name);
        }
        let mut out = Vec::new();
        for (i, p) in self
            .family
            .params
            .iter()
            .enumerate()
            .skip(self.family.size_params)
        {
            if let Some(v) = self.values[i]
                .map(|v| v.to_string())
                .or(p.default.map(str::to_string))
            {
                out.push(format!("{}={v}", p.name));
            }
        }
        out.join(",")
    }
}

/// The canonical text: `cycle`, `cycle(8)`, `torus(4,6)`, `regular(d=4,seed=7)` (named arguments
/// when unsized), `edges(0-1 1-2)`, `file(PATH)`.
impl std::fmt::Display for GraphSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = self.family.name;
        if let Some((text, _)) = &self.given {
            return write!(f, "{name}({text})");
        }
        // Positional while every earlier parameter is given (a sized spec's leading ones), named
        // after the first gap.
        let mut positional = self.size().is_some();
        let mut args = Vec::new();
        for (i, p) in self.family.params.iter().enumerate() {
            match self.values[i] {
                Some(v) if positional => args.push(v.to_string()),
                Some(v) => args.push(format!("{}={v}", p.name)),
                None => positional = false,
            }
        }
        if args.is_empty() {
            write!(f, "{name}")
        } else {
            write!(f, "{name}({})", args.join(","))
        }
    }
}
