//! The kind `graph`: claims about graphical allocation (Bansal–Feldheim, *The Power of Two
//! Choices in Graphical Allocation*, arXiv:2106.06051 v2) written in the claim language. A
//! `[claim]` with `expr` is a formula over the graph quantities and functions of
//! [`crate::graph::quantities`] ([`super::graph_expr`]); with `over = "two-point"` a formula over
//! the two-point process of Lemma 3.8 ([`super::two_point`]). The graph specs and the load
//! families the graph claims share are here: [`parse_graph`] ([`GRAPH_FORMS`]), [`FAMILIES`]
//! and [`load_vectors`].
//!
//! A `[claim]` with `item` (a name of a built-in check) is refused with a one-line error that
//! names the field and says to write `expr`.

use super::{Check, KindInfo};
use crate::claim::schema::{FileError, Theorem};
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::graph::strategy::Strategy;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The registry entry.
pub static INFO: KindInfo = KindInfo {
    name: "graph",
    summary: "a formula over graph quantities (greedy's and the strategy's probabilities, Haar drifts, flows, cuts, ...) at every element of the listed graphs, trees and loads, or over the two-point process of Lemma 3.8; exact or enclosed",
    build,
};

/// The load families of the kind.
pub const FAMILIES: &[&str] = &["tied", "random", "zigzag", "permutations"];

/// The graph specs [`parse_graph`] accepts (for errors and docs).
pub const GRAPH_FORMS: &str = "cycle(n), path(n), torus(w,h), hypercube(dim), complete(n), \
     regular(n,d,seed), sparse-cut(n,d,k), sparse-cut(n,d,k,a), edges(a-b c-d …), file(path)";

/// Parses a graph spec: `cycle(n)`, `path(n)`, `torus(w,h)`, `hypercube(dim)`, `complete(n)`,
/// `regular(n,d,seed)`, `sparse-cut(n,d,k)` (two `d`-regular halves joined by `k` edges,
/// [`crate::graph::sparse_cut`]), `sparse-cut(n,d,k,a)` (sides of `a` and `n − a` vertices),
/// `edges(a-b c-d …)`, `file(path)` (an edge-list file read from the current directory; see
/// [`parse_graph_in`]). Every size is checked against [`crate::limits::GRAPH_N`] before anything
/// is built.
///
/// ```
/// use balloc::claim::kind::graph::parse_graph;
/// assert_eq!(parse_graph("torus(3,5)").unwrap().m(), 30);
/// assert_eq!(parse_graph("edges(0-1 1-2 2-0 2-3)").unwrap().n(), 4);
/// assert_eq!(parse_graph("sparse-cut(20,4,2)").unwrap().regular_degree(), Some(4));
/// assert!(parse_graph("star(4)").is_err());
/// assert!(parse_graph("cycle(4294967296)").unwrap_err().to_string().contains("GRAPH_N"));
/// ```
pub fn parse_graph(spec: &str) -> Result<Graph> {
    parse_graph_in(spec, None)
}

/// [`parse_graph`] with `file(path)` read from `dir` when `path` is relative (a theorem file's
/// directory; `None`: the current directory). The graph is named by the path as written.
///
/// ```
/// use balloc::claim::kind::graph::parse_graph_in;
/// let dir = std::env::temp_dir().join("balloc-doc-parse-graph-in");
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("p3.edges"), "0 1\n1 2\n").unwrap();
/// let g = parse_graph_in("file(p3.edges)", Some(&dir)).unwrap();
/// assert_eq!((g.n(), g.m(), g.name()), (3, 2, "p3.edges"));
/// let e = parse_graph_in("file(none.edges)", Some(&dir)).unwrap_err().to_string();
/// assert!(e.contains("none.edges") && e.contains("cannot read"), "{e}");
/// ```
pub fn parse_graph_in(spec: &str, dir: Option<&std::path::Path>) -> Result<Graph> {
    let s = spec.trim();
    let bad = |why: &str| Error::invalid(format!("graph `{spec}`"), why.to_string());
    let (name, rest) = s.split_once('(').ok_or_else(|| {
        bad(&format!(
            "expected name(arguments); accepted: {GRAPH_FORMS}"
        ))
    })?;
    let args = rest
        .strip_suffix(')')
        .ok_or_else(|| bad("missing closing parenthesis"))?;
    match name.trim() {
        "edges" => {
            // Each edge exactly `u-v` with two vertex numbers (`1--2`, `1-`, `1-2-3` are errors).
            let mut text = String::new();
            for e in args.split_whitespace() {
                let ok = e.split_once('-').filter(|(u, v)| {
                    let num = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
                    num(u) && num(v)
                });
                let Some((u, v)) = ok else {
                    return Err(bad(&format!(
                        "edge `{}` is not of the form u-v with two vertex numbers",
                        crate::error::excerpt(e)
                    )));
                };
                text.push_str(&format!("{u} {v}\n"));
            }
            return Graph::parse_edge_list(&text, spec);
        }
        "file" => {
            let path = args.trim();
            if path.is_empty() {
                return Err(bad("write file(path)"));
            }
            return Graph::read_edge_list_in(path, dir);
        }
        _ => {}
    }
    let nums: Vec<u64> = args
        .split(',')
        .map(|a| a.trim().parse::<u64>())
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| bad("arguments must be non-negative integers"))?;
    let arity = |k: usize| {
        if nums.len() == k {
            Ok(())
        } else {
            Err(bad(&format!("takes {k} argument(s)")))
        }
    };
    // Sizes are checked before any allocation (a count above usize is above the limit too).
    let size = |what: &str, v: u64| -> Result<usize> {
        crate::limits::GRAPH_N.check(&format!("graph `{spec}` {what}"), v)?;
        Ok(v as usize)
    };
    match name.trim() {
        "cycle" => arity(1).and_then(|_| Graph::cycle(size("n", nums[0])?)),
        "path" => arity(1).and_then(|_| Graph::path(size("n", nums[0])?)),
        "torus" => arity(2).and_then(|_| {
            let n = crate::limits::checked_mul(&format!("graph `{spec}` w·h"), nums[0], nums[1])?;
            size("w·h", n)?;
            Graph::torus(nums[0] as usize, nums[1] as usize)
        }),
        "hypercube" => arity(1).and_then(|_| {
            let d = u32::try_from(nums[0])
                .ok()
                .filter(|&d| d < 64)
                .ok_or_else(|| bad("dimension too large"))?;
            size("2^dim", 1u64 << d)?;
            Graph::hypercube(d)
        }),
        "complete" => arity(1).and_then(|_| Graph::complete(size("n", nums[0])?)),
        "regular" => arity(3)
            .and_then(|_| Graph::random_regular(size("n", nums[0])?, size("d", nums[1])?, nums[2])),
        "sparse-cut" => {
            let n = nums.first().map(|&v| size("n", v)).transpose()?;
            let d = nums.get(1).map(|&v| size("d", v)).transpose()?;
            let k = nums.get(2).map(|&v| size("k", v)).transpose()?;
            match (nums.len(), n, d, k) {
                (3, Some(n), Some(d), Some(k)) => Graph::sparse_cut(n, d, k),
                (4, Some(n), Some(d), Some(k)) => {
                    crate::graph::sparse_cut::SparseCut::new(n, size("a", nums[3])?, d, k)?.graph()
                }
                _ => Err(bad("write sparse-cut(n,d,k) or sparse-cut(n,d,k,a)")),
            }
        }
        _ => Err(bad(&format!("unknown graph; accepted: {GRAPH_FORMS}"))),
    }
}

fn build(t: &Theorem) -> std::result::Result<Box<dyn Check>, FileError> {
    let claim = t.file.claim.get_ref();
    if claim.contains_key("item") {
        return Err(t.error_at(
            Some(t.file.claim.span().start),
            "[claim] item: kind `graph` has no built-in items; write the claim as `expr` (a formula over the graph quantities, theorems/README.md \"Graph claims in the language\")",
        ));
    }
    if claim.get("over").and_then(|v| v.as_str()) == Some("two-point") {
        // A claim about the two-point process of Lemma 3.8.
        return super::two_point::build(t);
    }
    // A claim written in the language over the graph quantities.
    super::graph_expr::build(t)
}

/// Every permutation of `0..n` (Heap's algorithm), as loads.
pub(crate) fn permutations(n: usize) -> Vec<Vec<f64>> {
    let mut a: Vec<f64> = (0..n).map(|v| v as f64).collect();
    let mut out = vec![a.clone()];
    let mut c = vec![0usize; n];
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                a.swap(0, i);
            } else {
                a.swap(c[i], i);
            }
            out.push(a.clone());
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    out
}

/// The number of load vectors [`load_vectors`] gives on a graph of `n` vertices (without
/// building them; `n!` saturates).
pub(crate) fn load_vector_count(
    t: &Theorem,
    families: &[String],
    loads: &[Vec<f64>],
    n: usize,
) -> u64 {
    let listed = loads.iter().filter(|l| l.len() == n).count() as u64;
    families.iter().fold(listed, |acc, f| {
        let k = match f.as_str() {
            "random" => t.file.domain.get_ref().random as u64,
            "permutations" => (1..=n as u64)
                .try_fold(1u64, |p, i| p.checked_mul(i))
                .unwrap_or(u64::MAX),
            _ => 1,
        };
        acc.saturating_add(k)
    })
}

/// Checks a claim's work against [`crate::limits::GRAPH_CLAIM_ELEMENTS`] before it runs.
pub(crate) fn check_elements(
    t: &Theorem,
    total: u64,
    at: Option<usize>,
) -> std::result::Result<(), FileError> {
    crate::limits::GRAPH_CLAIM_ELEMENTS
        .check("the elements the claim evaluates", total)
        .map(|_| ())
        .map_err(|e| t.error_at(at, e.to_string()))
}

/// The load vectors of one strategy's graph, each with its family name: the listed vectors of
/// length `n` first (a hand-checked instance is evaluated before the families), then the
/// families (`tied`: all 3; `random`: `[domain] random` vectors in `0..6`, ChaCha8 seeded with
/// `[domain] seed` xor `n`; `zigzag` along the leaf order; `permutations` of `0..n`, `n ≤ 8`).
pub(crate) fn load_vectors(
    t: &Theorem,
    families: &[String],
    loads: &[Vec<f64>],
    s: &Strategy,
) -> Result<Vec<(String, Vec<f64>)>> {
    let n = s.graph.n();
    let mut out = Vec::new();
    for l in loads {
        if l.len() == n {
            out.push(("listed".into(), l.clone()));
        }
    }
    for f in families {
        match f.as_str() {
            "tied" => out.push((f.clone(), vec![3.0; n])),
            "random" => {
                let d = t.file.domain.get_ref();
                let mut rng = ChaCha8Rng::seed_from_u64(d.seed ^ n as u64);
                for _ in 0..d.random {
                    out.push((
                        f.clone(),
                        (0..n).map(|_| rng.random_range(0..6) as f64).collect(),
                    ));
                }
            }
            "zigzag" => {
                let mut z = vec![0.0; n];
                for (k, &v) in s.tree.order.iter().enumerate() {
                    z[v] = if k % 2 == 0 { k as f64 } else { (n - k) as f64 };
                }
                out.push((f.clone(), z));
            }
            "permutations" => {
                crate::limits::GRAPH_PERMUTATIONS_N.check_usize(
                    &format!(
                        "{}: family `permutations` (n! vectors), graph size n",
                        t.file_name()
                    ),
                    n,
                )?;
                out.extend(permutations(n).into_iter().map(|p| (f.clone(), p)));
            }
            other => {
                return Err(Error::invalid(
                    t.file_name(),
                    format!(
                        "unknown load family `{other}`; accepted: {}",
                        FAMILIES.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(out)
}
