//! `graph info` at scale: the closed forms and the fast explicit congestion of the standard
//! families against independent routes (max-flows, the dense eigensolver, the flows built in exact
//! rationals, the cut bound by its definition), and the command on a large cycle.

use balloc::exact::{Int, Q};
use balloc::graph::flow::{Routing, UnitFlows, congestion_lower_bound};
use balloc::graph::tree::Tree;
use balloc::graph::{Graph, measures};

/// Small members of every standard family, sizes on both sides of powers of two.
fn standard_graphs() -> Vec<Graph> {
    let mut v = Vec::new();
    for n in [2usize, 3, 4, 5, 7, 8, 9, 13, 16, 31, 33, 64] {
        v.push(Graph::cycle(n).unwrap());
        v.push(Graph::path(n).unwrap());
    }
    for (w, h) in [(3, 3), (4, 4), (3, 5), (5, 3), (6, 7), (8, 8)] {
        v.push(Graph::torus(w, h).unwrap());
    }
    for d in 1..=6 {
        v.push(Graph::hypercube(d).unwrap());
    }
    for n in [2usize, 3, 5, 8, 11] {
        v.push(Graph::complete(n).unwrap());
    }
    v
}

#[test]
fn closed_forms_equal_max_flows_and_the_dense_eigensolver() {
    for g in standard_graphs() {
        assert_eq!(
            measures::edge_connectivity(&g).unwrap(),
            measures::edge_connectivity_by_flows(&g),
            "{}",
            g.name()
        );
        let (a, b) = (
            measures::spectral_gap(&g).unwrap(),
            measures::spectral_gap_dense(&g),
        );
        assert!(
            (a - b).abs() <= 1e-9 * b.max(1.0),
            "{}: {a} vs {b}",
            g.name()
        );
    }
}

#[test]
fn fast_explicit_congestion_equals_the_exact_flows() {
    // Independent route: every flow built in exact rationals by the explicit routing
    // (`UnitFlows::route_with(.., Explicit)`), its congestion and the largest number of flows
    // through one edge.
    for g in standard_graphs() {
        let t = Tree::standard(&g).unwrap();
        let (c, support, e) = measures::explicit_congestion(&g, &t).unwrap().unwrap();
        let f = UnitFlows::route_with(&g, &t, Routing::Explicit).unwrap();
        assert_eq!(c, f.congestion(), "{}", g.name());
        assert_eq!(c, f.edge_loads(&g)[e], "{}: the reported edge", g.name());
        let mut per_edge = vec![0usize; g.m()];
        for fl in &f.flows {
            for (e, _) in fl {
                per_edge[*e] += 1;
            }
        }
        assert_eq!(support, per_edge.into_iter().max().unwrap(), "{}", g.name());
    }
    // Another tree of a standard graph is refused (the closed forms assume the standard one).
    let g = Graph::cycle(8).unwrap();
    let other = Tree::halving(&[1, 0, 2, 3, 4, 5, 6, 7]).unwrap();
    assert!(measures::explicit_congestion(&g, &other).is_err());
    let g = Graph::torus(4, 4).unwrap();
    let other = Tree::halving(&(0..16).collect::<Vec<_>>()).unwrap();
    assert!(measures::explicit_congestion(&g, &other).is_err());
    let general = Graph::random_regular(20, 3, 1).unwrap();
    let t = Tree::standard(&general).unwrap();
    assert!(
        measures::explicit_congestion(&general, &t)
            .unwrap()
            .is_none()
    );
}

/// The cut bound by its definition: for every node, the demand `Σ |S_j|/|S_c|` over `j` and its
/// ancestors below the root, over the number of edges leaving `S_j`, scanning nodes in order.
fn cut_bound_by_definition(g: &Graph, t: &Tree) -> (Q, usize) {
    let mut best = (Q::from_integer(Int::from(0)), t.root());
    for j in 0..t.nodes.len() {
        let mut demand = Q::from_integer(Int::from(0));
        let (mut c, mut a) = (j, t.nodes[j].parent);
        while let Some(p) = a {
            demand += Q::new(t.nodes[j].size().into(), t.nodes[c].size().into());
            c = p;
            a = t.nodes[p].parent;
        }
        let cut = g
            .edges()
            .iter()
            .filter(|&&(u, v)| t.contains(j, u) != t.contains(j, v))
            .count();
        if cut > 0 {
            let b = demand / Q::from_integer(cut.into());
            if b > best.0 {
                best = (b, j);
            }
        }
    }
    best
}

#[test]
fn cut_bound_equals_its_definition() {
    let mut graphs = standard_graphs();
    graphs.push(Graph::random_regular(30, 3, 2).unwrap());
    graphs.push(Graph::random_regular(24, 4, 5).unwrap());
    for g in graphs {
        let t = Tree::standard(&g).unwrap();
        assert_eq!(
            congestion_lower_bound(&g, &t),
            cut_bound_by_definition(&g, &t),
            "{}",
            g.name()
        );
    }
}

#[test]
fn graph_info_on_a_cycle_of_a_hundred_thousand_vertices() {
    // Used to take 18 s at n = 3000 and not finish at 10⁵ (dense eigensolver, n max-flows, the
    // cut bound over all node × edge pairs).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_balloc"))
        .args([
            "graph", "info", "--graph", "cycle", "--n", "100000", "--format", "json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["edge_connectivity"], 2);
    let lam = 2.0 - 2.0 * (2.0 * std::f64::consts::PI / 1e5).cos();
    assert!((v["spectral_gap"].as_f64().unwrap() - lam).abs() < 1e-15);
    assert!(v["edge_expansion"].is_null());
    assert!(
        v["notes"]["edge_expansion"]
            .as_str()
            .unwrap()
            .contains("n ≤ 20")
    );
    assert_eq!(v["tree_height"], 17); // ⌈log₂ 10⁵⌉
    assert_eq!(v["routing"], "explicit");
    // C* lies between the certified cut bound and the height + 1 (every level adds at most 1).
    let (c, lb) = (
        v["congestion"].as_f64().unwrap(),
        v["congestion_lower_bound"].as_f64().unwrap(),
    );
    assert!(lb <= c && c <= 18.0, "{lb} ≤ {c} ≤ 18");
    assert!(v["max_support"].as_u64().unwrap() <= 17);
}

#[test]
fn graph_info_takes_the_sized_specs_of_theorem_files() {
    // sparse-cut(20,4,2): two 4-regular halves of 10 vertices joined by k = 2 edges, so the
    // graph is 4-regular with m = 20·4/2 = 40 edges, and its edge connectivity (a max-flow
    // computation in `graph info`) is the k of the construction.
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_balloc"))
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&[
        "graph",
        "info",
        "--graph",
        "sparse-cut(20,4,2)",
        "--format",
        "json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["n"].as_u64(), v["m"].as_u64()), (Some(20), Some(40)));
    assert_eq!(v["degree"], 4);
    assert_eq!(v["edge_connectivity"], 2);
    // A sized spec with --n is a one-line error naming both.
    let out = run(&["graph", "info", "--graph", "torus(4,8)", "--n", "32"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("torus(4,8)") && err.contains("--n"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}
