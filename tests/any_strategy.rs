//! "Any strategy" on graphs: the exact steps of Bansal–Feldheim's lower bounds.
//!
//! * The coupon-collector probability `P[some vertex untouched by T uniform edge requests]`
//!   (`graph::coupon`): its three routes (transfer matrix on cycles, binomials on complete graphs,
//!   inclusion–exclusion over every vertex set) agree, and they agree with a brute force over all
//!   `m^T` request sequences on small graphs (the definition, counted directly), and with a Monte
//!   Carlo estimate on a larger graph.
//! * The `graph` item `coupon_collector` and the name `untouched` of statistical graph files:
//!   verdicts on small files, with the refuted reading derived by hand.

use balloc::claim::{self, RunContext, Status};
use balloc::exact::{Int, Q};
use balloc::graph::Graph;
use balloc::graph::coupon::{signed_counts, sum, untouched};
use num_traits::ToPrimitive;
use rand::{RngExt, SeedableRng};

use crate::common;

/// `P[some vertex untouched]` by counting the request sequences: every sequence of `t` edges,
/// each equally likely, and whether its edges cover every vertex.
fn brute_force(g: &Graph, t: u32) -> Q {
    let (n, m) = (g.n(), g.m());
    let total = (m as u64).pow(t);
    let mut bad = 0u64;
    for code in 0..total {
        let mut c = code;
        let mut touched = vec![false; n];
        for _ in 0..t {
            let (a, b) = g.edges()[(c % m as u64) as usize];
            c /= m as u64;
            touched[a] = true;
            touched[b] = true;
        }
        if touched.iter().any(|x| !x) {
            bad += 1;
        }
    }
    Q::new(Int::from(bad), Int::from(total))
}

#[test]
fn the_routes_agree_with_each_other_and_with_the_definition() {
    // Closed forms against inclusion–exclusion over every vertex set.
    for n in 3..=12 {
        let g = Graph::cycle(n).unwrap();
        let a = signed_counts(&g, false).unwrap();
        let b = signed_counts(&g, true).unwrap();
        assert_eq!(a.counts, b.counts, "cycle({n})");
    }
    for n in 2..=9 {
        let g = Graph::complete(n).unwrap();
        let a = signed_counts(&g, false).unwrap();
        let b = signed_counts(&g, true).unwrap();
        assert_eq!(a.counts, b.counts, "complete({n})");
    }
    // Exact probabilities against the brute force over request sequences.
    let graphs = [
        (Graph::cycle(4).unwrap(), 7),
        (Graph::cycle(5).unwrap(), 6),
        (Graph::complete(4).unwrap(), 6),
        (Graph::path(4).unwrap(), 8),
        (
            Graph::from_edges(4, vec![(0, 1), (0, 2), (0, 3)], "star").unwrap(),
            8,
        ),
        (
            Graph::from_edges(5, vec![(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)], "kite").unwrap(),
            6,
        ),
    ];
    for (g, tmax) in &graphs {
        for t in 0..=*tmax {
            let exact = untouched(g, u64::from(t)).unwrap();
            assert_eq!(exact, brute_force(g, t), "{} T = {t}", g.name());
        }
    }
    // Hand values: C₄ after 2 requests covers every vertex iff the two edges are opposite
    // ({01, 23} or {12, 30}, in either order: 4 of the 16 sequences): P = 12/16 = 3/4.
    assert_eq!(
        untouched(&Graph::cycle(4).unwrap(), 2).unwrap(),
        Q::new(3.into(), 4.into())
    );
    // The star K_{1,3} after T requests: a leaf is untouched unless all three edges appear:
    // 1 − (surjections of T onto 3)/3^T; T = 3: 1 − 6/27 = 7/9.
    assert_eq!(
        untouched(&graphs[4].0, 3).unwrap(),
        Q::new(7.into(), 9.into())
    );
}

#[test]
fn monte_carlo_agrees_with_the_exact_probability() {
    let g = Graph::random_regular(16, 3, 1).unwrap();
    let t = 23u64; // ⌈16 ln 16 / 2⌉
    let exact = untouched(&g, t).unwrap().to_f64().unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let trials = 40_000;
    let mut hits = 0;
    for _ in 0..trials {
        let mut touched = [false; 16];
        for _ in 0..t {
            let (a, b) = g.edges()[rng.random_range(0..g.m())];
            touched[a] = true;
            touched[b] = true;
        }
        if touched.iter().any(|x| !x) {
            hits += 1;
        }
    }
    let p = hits as f64 / trials as f64;
    let se = (exact * (1.0 - exact) / trials as f64).sqrt();
    assert!(
        (p - exact).abs() < 5.0 * se,
        "Monte Carlo {p}, exact {exact}"
    );
}

#[test]
fn horizon_zero_and_a_single_edge() {
    // K₂ (one edge): both vertices are touched by the first request; with T = 0 both are untouched.
    let counts = signed_counts(&Graph::complete(2).unwrap(), false).unwrap();
    assert_eq!(sum(&counts.counts, 1, 0), Q::from_integer(1.into()));
    assert_eq!(sum(&counts.counts, 1, 5), Q::from_integer(0.into()));
}

fn check(dir: &std::path::Path, name: &str, text: &str) -> claim::Verdict {
    let p = common::write(dir, name, text);
    claim::check(&p, dir, &mut RunContext::default()).unwrap_or_else(|e| panic!("{name}: {e:#}"))
}

#[test]
fn the_coupon_function_holds_and_is_refuted_where_derived() {
    let dir = common::scratch_in("any_strategy", "item");
    let file = |c: &str, at_least: &str| {
        format!(
            "title = \"coupon\"\nkind = \"graph\"\nexpected = \"open\"\nstatement = \"x\"\n[source]\nlocator = \"test\"\nprovenance = \"derived\"\n\n\
             [constants]\nc = \"{c}\"\nT = \"ceil(c*n*ln(n))\"\n\n[claim]\nexpr = \"untouched(T) >= {at_least}\"\n\
             graphs = [\"cycle(8)\", \"complete(8)\", \"hypercube(3)\"]\n\n[domain]\nn = [8]\n"
        )
    };
    // T = ⌈8 ln 8 / 2⌉ = ⌈8.32⌉ = 9: on a 2- or 3-regular graph of 8 vertices one vertex alone is
    // untouched with probability (1 − d/m)^9 ≥ (1 − 3/12)^9 = 0.075; P ≥ 1/20 holds, exactly (T is
    // exact: its enclosure is the single integer 9).
    let v = check(&dir, "holds", &file("1/2", "1/20"));
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert_eq!(v.trust, balloc::claim::Trust::Exact, "{:?}", v.notes);
    assert!(v.notes.iter().any(|n| n.contains("T = 9")), "{:?}", v.notes);
    // T = ⌈2·8 ln 8⌉ = ⌈33.27⌉ = 34: by the union bound P ≤ n(1 − d/m)^T ≤ 8·(3/4)^34 < 5.7·10⁻⁴
    // < 1/50.
    let v = check(&dir, "refuted", &file("2", "1/50"));
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert_eq!(v.trust, balloc::claim::Trust::Exact, "{:?}", v.notes);
    // Bad input: a function of the state takes its arguments.
    let p = common::write(
        &dir,
        "bad",
        "title = \"x\"\nkind = \"graph\"\nexpected = \"open\"\nstatement = \"x\"\n[source]\nlocator = \"test\"\nprovenance = \"derived\"\n\n[claim]\nexpr = \"untouched() >= 1/2\"\ngraphs = [\"cycle(8)\"]\n\n[domain]\nn = [8]\n",
    );
    let e = claim::check(&p, &dir, &mut RunContext::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("bad.toml:10:")
            && e.contains("`untouched()` needs an argument")
            && !e.contains('\n'),
        "{e}"
    );
}

#[test]
fn untouched_bounds_every_strategy_in_statistical_files() {
    let dir = common::scratch_in("any_strategy", "stat");
    let file = |probability: &str, balls: &str| {
        format!(
            "title = \"any strategy\"\nkind = \"statistical\"\nexpected = \"open\"\nstatement = \"x\"\n[source]\nlocator = \"test\"\nprovenance = \"derived\"\n\n[claim]\nstatistic = \"spread\"\n\
             graph = [\"cycle\", \"complete\"]\nstrategy = [\"greedy\", \"flow\"]\nprobability = \"{probability}\"\nq = \"1 - untouched\"\n\
             balls = \"{balls}\"\nruns = 400\nseed = 3\nconfidence = 0.95\n\n[domain]\nn = [8]\n"
        )
    };
    // Every strategy: an untouched vertex keeps load 0 while another holds ⌈m/n⌉.
    let v = check(&dir, "holds", &file(">= ceil(m / n)", "n * ln(n) / 2"));
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert!(
        v.notes
            .iter()
            .any(|n| n.contains("the worst of the 4 sources")),
        "{:?}",
        v.notes
    );
    // A false reading: with m = ⌈8 ln 8 / 4⌉ = 5 balls on 8 bins some bin is empty and some
    // holds a ball, so P[spread ≤ ⌈m/n⌉ − 1 = 0] = 0 for every strategy, below untouched (> 0:
    // 5 requests on C₈ touch every vertex only if they include a perfect matching, so most
    // sequences leave one untouched).
    for g in [Graph::cycle(8).unwrap(), Graph::complete(8).unwrap()] {
        let exact = untouched(&g, 5).unwrap().to_f64().unwrap();
        assert!(exact > 0.5, "{} {exact}", g.name());
    }
    let v = check(
        &dir,
        "refuted",
        &file("<= ceil(m / n) - 1", "n * ln(n) / 4"),
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    // untouched needs beta = 1.
    let p = common::write(
        &dir,
        "beta",
        &file(">= ceil(m / n)", "n * ln(n) / 2").replace(
            "strategy = [\"greedy\", \"flow\"]",
            "strategy = \"flow\"\nbeta = 0.5",
        ),
    );
    let e = claim::check(&p, &dir, &mut RunContext::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("beta = 1"), "{e}");
    // untouched bounds the spread from the empty start only.
    for (extra, field) in [
        ("burn_in = \"n\"\n", "burn_in"),
        ("start = \"one-bin(4)\"\n", "start"),
    ] {
        let p = common::write(
            &dir,
            "start",
            &file(">= ceil(m / n)", "n * ln(n) / 2")
                .replace("runs = 400\n", &format!("runs = 400\n{extra}")),
        );
        let e = claim::check(&p, &dir, &mut RunContext::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(field) && e.contains("empty start") && !e.contains('\n'),
            "{e}"
        );
    }
}
