//! Bansal–Feldheim's lower bound Ω(d/k) (Lemma 4.1, Theorem 1.2) and Remark 1.1's 1/β: the
//! sparse-cut graphs through every route (graph specs, the `graphical` process, the statistical
//! kind), minimum cuts against brute force, the exact binomial tail of the proof against an
//! independent float sum, the cut observable by hand, per-configuration `d`, `k` and growth fits
//! over `d/k` and `1/beta`, and bad input.

use balloc::claim::Status;
use balloc::graph::family::{NoFiles, parse_graph};
use balloc::graph::measures::{boundary, minimum_cut};
use balloc::graph::{Graph, greedy};
use balloc::loads::{Loads, TieRule};
use balloc::sim::graph::{Cut, GreedyModel, StrategyModel};
use balloc::sim::{Plan, simulate};

const STAT: &str = "title = \"t\"\nkind = \"statistical\"\nexpected = \"open\"\nstatement = \"s\"\n[source]\nlocator = \"x\"\nprovenance = \"derived\"\n";
const GRAPH: &str = "title = \"t\"\nkind = \"graph\"\nexpected = \"open\"\nstatement = \"s\"\n[source]\nlocator = \"x\"\nprovenance = \"derived\"\n";

fn err(text: &str) -> String {
    balloc::check_str(text).map(|_| ()).unwrap_err().to_string()
}

#[test]
fn every_route_builds_the_same_sparse_cut_graph() {
    let g = Graph::sparse_cut(20, 4, 2).unwrap();
    assert_eq!(parse_graph("sparse-cut(20,4,2)", &NoFiles).unwrap(), g);
    assert_eq!(
        parse_graph("sparse-cut(20,4,2,10)", &NoFiles)
            .unwrap()
            .edges(),
        g.edges()
    );
    // The process on the same graph: greedy's law at a load vector equals the closed form on the
    // constructor's graph.
    let p = balloc::process::parse("graphical(graph=sparse-cut,d=4,k=2)").unwrap();
    let x: Vec<f64> = (0..20).map(|i| ((i * 7) % 5) as f64).collect();
    let law = p
        .step_law(&Loads::new(x.clone()).unwrap(), TieRule::Random)
        .unwrap();
    assert_eq!(
        law.per_bin_probability(),
        greedy::probabilities(&g, &x).unwrap()
    );
    assert_eq!(
        p.spec(),
        "graphical(graph=sparse-cut,d=4,k=2,strategy=greedy)"
    );
    let p = balloc::process::parse("graphical(graph=sparse-cut,d=4,k=2,a=7)").unwrap();
    assert!(p.spec().contains("a=7"));
    // Parameters that the family does not use, or a missing k.
    for (spec, what) in [
        ("graphical(graph=sparse-cut,d=4)", "`k`"),
        ("graphical(graph=cycle,k=2)", "`k`"),
        ("graphical(graph=cycle,a=2)", "`a`"),
        ("graphical(graph=sparse-cut,d=4,k=2,seed=3)", "`seed`"),
    ] {
        let e = balloc::process::parse(spec).unwrap_err().to_string();
        assert!(e.contains(what) && !e.contains('\n'), "{spec}: {e}");
    }
}

/// The smallest boundary over every vertex set, and whether `side` attains it (n ≤ 16).
fn brute_min_cut(g: &Graph) -> usize {
    (1u32..(1u32 << g.n()) - 1)
        .map(|m| boundary(g, m))
        .min()
        .unwrap()
}

#[test]
fn minimum_cuts_agree_with_brute_force_and_take_the_larger_side() {
    for spec in [
        "sparse-cut(10,4,2)",
        "sparse-cut(14,6,4)",
        "sparse-cut(16,6,4,7)",
        "cycle(9)",
        "torus(3,4)",
        "hypercube(3)",
    ] {
        let g = parse_graph(spec, &NoFiles).unwrap();
        let (k, side) = minimum_cut(&g).unwrap();
        assert_eq!(k, brute_min_cut(&g), "{spec}");
        let mask: u32 = side.iter().enumerate().map(|(v, &s)| (s as u32) << v).sum();
        assert_eq!(
            boundary(&g, mask),
            k,
            "{spec}: the side attains the minimum"
        );
        assert!(2 * side.iter().filter(|&&s| s).count() >= g.n(), "{spec}");
    }
    // On sparse-cut the minimum cut is the designed one: sides {0..a−1} and the rest.
    let (k, side) = minimum_cut(&parse_graph("sparse-cut(64,24,2,25)", &NoFiles).unwrap()).unwrap();
    assert_eq!(k, 2);
    assert_eq!(side, (0..64).map(|v| v >= 25).collect::<Vec<_>>());
    let disconnected = Graph::parse_edge_list("0 1\n2 3\n", "two edges").unwrap();
    assert!(
        minimum_cut(&disconnected)
            .unwrap_err()
            .to_string()
            .contains("disconnected")
    );
}

/// `P[Bin(T, p) ≥ j0]` in f64 by summing `exp(ln C(T, j) + j ln p + (T − j) ln(1 − p))` with
/// `ln C` from sums of logarithms: an independent route to the enclosure.
fn float_tail(t: u64, p: f64, j0: u64) -> f64 {
    let ln_fact = |k: u64| (1..=k).map(|i| (i as f64).ln()).sum::<f64>();
    let lt = ln_fact(t);
    (j0..=t)
        .map(|j| {
            (lt - ln_fact(j) - ln_fact(t - j) + j as f64 * p.ln() + (t - j) as f64 * (1.0 - p).ln())
                .exp()
        })
        .sum()
}

#[test]
fn the_binomial_step_of_lemma_4_1_against_an_independent_sum() {
    use balloc::exact::Q;
    use balloc::graph::checks::lemma_4_1_tail;
    // sparse-cut(20, 4, 2): S = one side of 10 vertices; C_10(1, 2) has 20 edges, one removed:
    // e(S) = 19 = (4·10 − 2)/2, m = 40, p = 19/40. c = 1/16: T = ⌈400·16/(4·16)⌉ = 100,
    // E[Y] = 47.5, √T = 10, so j₀ = 58.
    let g = Graph::sparse_cut(20, 4, 2).unwrap();
    let r = lemma_4_1_tail(
        &g,
        &[Q::new(1.into(), 16.into())],
        &Q::new(1.into(), 50.into()),
    )
    .unwrap();
    assert!(r.finding.holds);
    assert!(r.lines[0].contains("e(S) = 19") && r.lines[0].contains("Y ≥ 58"));
    let want = float_tail(100, 19.0 / 40.0, 58);
    let lo: f64 = r.lines[0]
        .rsplit('[')
        .next()
        .and_then(|s| s.split(',').next())
        .unwrap()
        .parse()
        .unwrap();
    assert!((lo - want).abs() <= 1e-6 * want, "{lo} vs {want}");
    // An unbalanced minimum cut (a side K_9 minus an edge): p = (119 − 1/4)/128 = 475/512, and the
    // event is 3.9 standard deviations above the mean.
    let g = parse_graph("sparse-cut(128,8,2,9)", &NoFiles).unwrap();
    let r = lemma_4_1_tail(
        &g,
        &[Q::new(1.into(), 64.into())],
        &Q::new(1.into(), 50.into()),
    )
    .unwrap();
    assert!(!r.finding.holds);
    // T = ⌈128²·64/(4·64)⌉ = 4096, j₀ = ⌈4096·475/512 + 64⌉ = 3864.
    assert!(r.lines[0].contains("T = 4096, Y ≥ 3864"), "{}", r.lines[0]);
    let want = float_tail(4096, 475.0 / 512.0, 3864);
    assert!((want - 3.71e-5).abs() < 1e-7, "{want}");
    assert!(
        r.finding
            .violation
            .as_ref()
            .unwrap()
            .contains("3.710038e-5"),
        "{:?}",
        r.finding.violation
    );
    // Not regular: an error, not a verdict.
    let e = lemma_4_1_tail(
        &Graph::path(5).unwrap(),
        &[Q::new(1.into(), 2.into())],
        &Q::new(1.into(), 50.into()),
    )
    .unwrap_err();
    assert!(e.to_string().contains("regular"), "{e}");
}

#[test]
fn the_tail_function_in_a_theorem_file() {
    let file = |graphs: &str, c: &str| {
        format!(
            "{GRAPH}[constants]\nc = {c}\n[claim]\n\
             expr = \"2*cut_in + k == dmax*cut_S && cut_tail(ceil(c*n^2*dmax^2/k^2)) >= 1/50\"\n\
             graphs = [{graphs}]\ntrees = [\"halving\"]\nrouting = \"spanning-tree\"\n[domain]\nn = [20, 128]\n"
        )
    };
    // sparse-cut(20, 4, 2): |S| = 10, e(S) = (4·10 − 2)/2 = 19 = (d|S| − k)/2; c = 1/16 gives
    // T = ⌈400·16/4/16⌉ = 100 and P[Y ≥ 58] ≈ 0.0226 ≥ 1/50 (the doc test of lemma_4_1_tail);
    // c = 1/4 gives T = 400, P ≈ 0.0255 (an independent float computation in the file's notes).
    let v = balloc::check_str(&file("\"sparse-cut(20,4,2)\"", "[0.0625, 0.25]")).unwrap();
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert_eq!(v.trust, balloc::claim::Trust::Enclosure);
    // One state per constant.
    assert_eq!(v.searched.total, 2);
    let v = balloc::check_str(&file(
        "\"sparse-cut(20,4,2)\", \"sparse-cut(128,8,2,9)\"",
        "0.015625",
    ))
    .unwrap();
    assert_eq!(v.verdict, Status::Refuted);
    assert_eq!(v.trust, balloc::claim::Trust::Enclosure);
    assert_eq!(v.witness.unwrap().n, 128);
    // T beyond the limit: an error naming it, not a verdict.
    let e = err(&file("\"sparse-cut(20,4,2)\"", "1e9"));
    assert!(e.contains("BINOMIAL_TRIALS") && !e.contains('\n'), "{e}");
    // `item` is refused with the field named.
    let e = err(&format!(
        "{GRAPH}[claim]\nitem = \"lemma_4_1_tail\"\ngraphs = [\"cycle(6)\"]\n[domain]\nn = [6]\n"
    ));
    assert!(
        e.contains("item") && e.contains("`expr`") && !e.contains('\n'),
        "{e}"
    );
}

#[test]
fn the_cut_observable_by_hand_and_without_changing_the_runs() {
    // One ball on sparse-cut(20, 4, 2) with S = one side of 10: wherever it lands, the larger
    // side average is 1/10 and t/n = 1/20, so cut_gap = 1/20.
    let g = Graph::sparse_cut(20, 4, 2).unwrap();
    let cut = Cut::minimum(&g).unwrap();
    let m = GreedyModel::new(&g)
        .unwrap()
        .observing(cut.clone())
        .unwrap();
    let out = simulate(&m, &Plan::new(1, 4, 3), &|| {}).unwrap();
    assert!(out.runs.iter().all(|r| r.observables == vec![0.05]));
    // Observing does not change the runs (same key, same stream), and cut_gap ≤ final_gap.
    let plain = GreedyModel::new(&g).unwrap();
    let a = simulate(&plain, &Plan::new(5000, 6, 7), &|| {}).unwrap();
    let b = simulate(&m, &Plan::new(5000, 6, 7), &|| {}).unwrap();
    for (x, y) in a.runs.iter().zip(&b.runs) {
        assert_eq!(x.final_gap, y.final_gap);
        assert!(y.observables[0] <= y.final_gap + 1e-12);
    }
    let s = StrategyModel::new(&g).unwrap();
    let so = StrategyModel::new(&g).unwrap().observing(cut).unwrap();
    let a = simulate(&s, &Plan::new(3000, 4, 9), &|| {}).unwrap();
    let b = simulate(&so, &Plan::new(3000, 4, 9), &|| {}).unwrap();
    for (x, y) in a.runs.iter().zip(&b.runs) {
        assert_eq!(
            (x.final_gap, x.observables[0]),
            (y.final_gap, y.observables[0])
        );
        assert_eq!(y.observables.len(), 2);
        assert!(y.observables[1] <= y.final_gap + 1e-12);
    }
}

#[test]
fn d_and_k_are_each_configurations_degree_and_connectivity() {
    let v = balloc::check_str(&format!(
        "{STAT}[claim]\nstatistic = \"final_gap\"\ngraph = [\"sparse-cut(d=24,k=16)\", \"sparse-cut(d=24,k=2,a=25)\", \"cycle\"]\nstrategy = \"greedy\"\nprobability = \">= d / k - 100\"\nq = \"1/2\"\nballs = \"n\"\nruns = 20\nconfidence = 0.9\n[domain]\nn = [64]\n"
    ))
    .unwrap();
    // rhs = d/k − 100: 24/16 − 100, 24/2 − 100, 2/2 − 100.
    let notes = v.notes.join("\n");
    for rhs in ["rhs -98.5000", "rhs -88.0000", "rhs -99.0000"] {
        assert!(notes.contains(rhs), "{rhs}: {notes}");
    }
    assert_eq!(v.verdict, Status::Holds);
}

#[test]
fn growth_fits_over_d_over_k_and_one_over_beta_use_the_source_parameters() {
    let v = balloc::check_str(&format!(
        "{STAT}[claim]\nstatistic = \"cut_gap\"\ngraph = [\"sparse-cut(d=24,k=16)\", \"sparse-cut(d=24,k=8)\", \"sparse-cut(d=24,k=4)\"]\nstrategy = \"greedy\"\nexponent = \">= -10\"\nexponent_in = \"d/k\"\nballs = \"n * 8\"\nruns = 4\nconfidence = 0.9\n[domain]\nn = [64]\n"
    ))
    .unwrap();
    let w = v.witness.unwrap();
    assert!(
        w.source.contains("d/k grid [1.5, 3.0, 6.0]"),
        "{}",
        w.source
    );
    let v = balloc::check_str(&format!(
        "{STAT}[claim]\nstatistic = \"final_gap\"\ngraph = \"cycle\"\nbeta = [1, 0.5, 0.25]\nexponent = \">= -10\"\nexponent_in = \"1/beta\"\nballs = \"n * 8\"\nruns = 4\nconfidence = 0.9\n[domain]\nn = [16]\n"
    ))
    .unwrap();
    let w = v.witness.unwrap();
    assert!(
        w.source.contains("1/beta grid [1.0, 2.0, 4.0]"),
        "{}",
        w.source
    );
    assert!(w.lhs.contains("growth exponent in 1/beta"), "{}", w.lhs);
    // The same runs fitted in beta give the opposite exponent.
    let v2 = balloc::check_str(&format!(
        "{STAT}[claim]\nstatistic = \"final_gap\"\ngraph = \"cycle\"\nbeta = [1, 0.5, 0.25]\nexponent = \">= -10\"\nexponent_in = \"beta\"\nballs = \"n * 8\"\nruns = 4\nconfidence = 0.9\n[domain]\nn = [16]\n"
    ))
    .unwrap();
    let a = |lhs: &str| -> f64 {
        lhs.split('≈')
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let (x, y) = (a(&w.lhs), a(&v2.witness.unwrap().lhs));
    assert!((x + y).abs() < 1e-5, "{x} vs {y}");
}

#[test]
fn bad_statistical_graph_input_is_one_line() {
    let file = |claim: &str| {
        format!(
            "{STAT}{}[claim]\nstatistic = \"final_gap\"\n{claim}\nballs = \"n\"\nruns = 4\nconfidence = 0.9\n[domain]\nn = [64]\n",
            if claim.contains("d_const") {
                "[constants]\nd = 1\n"
            } else {
                ""
            }
        )
    };
    for (claim, what) in [
        ("graph = \"sparse-cut(d=24)\"\nmean = \"<= 100\"", "`k`"),
        (
            "graph = \"sparse-cut(d=24,k=2,seed=1)\"\nmean = \"<= 100\"",
            "seed",
        ),
        ("graph = \"star\"\nmean = \"<= 100\"", "unknown graph"),
        (
            "graph = \"sparse-cut(d=40,k=2)\"\nmean = \"<= 100\"",
            "d + 1",
        ),
        (
            "graph = \"sparse-cut(d=24,k=2)\"\nmean = \"<= d\" # d_const",
            "names d, k and untouched",
        ),
        (
            "graph = [\"sparse-cut(d=24,k=2)\"]\nexponent = \"<= 2\"\nexponent_in = \"d/k\"",
            "at least two sources per curve",
        ),
        (
            "graph = \"cycle\"\nbeta = [1, 1.5]\nmean = \"<= 100\"",
            "[0, 1]",
        ),
        (
            "graph = \"cycle\"\nstatistic2 = 1\nmean = \"<= 100\"",
            "statistic2",
        ),
    ] {
        let e = err(&file(claim));
        assert!(e.contains(what) && !e.contains('\n'), "{claim}: {e}");
    }
    // d and k only where a configuration is at hand (not in the number of balls).
    let e = err(&format!(
        "{STAT}[claim]\nstatistic = \"final_gap\"\ngraph = \"cycle\"\nmean = \"<= 100\"\nballs = \"n * d\"\nruns = 4\nconfidence = 0.9\n[domain]\nn = [64]\n"
    ));
    assert!(e.contains("balls") && e.contains("`d`"), "{e}");
    // cut_gap needs a graph.
    let e = err(&format!(
        "{STAT}[setting]\nprocesses = [\"two-choice\"]\n[claim]\nstatistic = \"cut_gap\"\nmean = \"<= 100\"\nballs = \"n\"\nruns = 4\nconfidence = 0.9\n[domain]\nn = [64]\n"
    ));
    assert!(e.contains("cut_gap"), "{e}");
}
