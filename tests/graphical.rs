//! Graphical allocation: graphs, greedy, the Bansal–Feldheim strategy and the paper's checks.
//! Expected values come from independent routes (hand computations in comments, enumeration
//! against closed forms, rationals against f64, max-flow against subset enumeration).

use crate::common::q;
use balloc::exact::Q;
use balloc::graph::checks::{self, Finding};
use balloc::graph::strategy::Strategy;
use balloc::graph::tree::Tree;
use balloc::graph::{Graph, greedy, haar, measures};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn small_graphs() -> Vec<Graph> {
    vec![
        Graph::cycle(8).unwrap(),
        Graph::cycle(7).unwrap(),
        Graph::path(6).unwrap(),
        Graph::torus(4, 4).unwrap(),
        Graph::torus(3, 5).unwrap(),
        Graph::hypercube(3).unwrap(),
        Graph::complete(5).unwrap(),
        Graph::random_regular(10, 3, 1).unwrap(),
        Graph::parse_edge_list("0 1\n1 2\n2 3\n3 0\n0 2\n3 4\n4 5\n5 3\n", "kite").unwrap(),
    ]
}

/// Load families G1–G4 (`docs/derivations.md` §6): random integers, mixed sibling signs, all tied,
/// signs alternating by level (a ramp along the leaf order).
fn load_families(t: &Tree, rng: &mut ChaCha8Rng) -> Vec<Vec<f64>> {
    let n = t.pos.len();
    let mut out = vec![vec![3.0; n]];
    for _ in 0..6 {
        out.push((0..n).map(|_| rng.random_range(0..6) as f64).collect());
    }
    let mut ramp = vec![0.0; n];
    for (k, &v) in t.order.iter().enumerate() {
        ramp[v] = if k % 2 == 0 { k as f64 } else { (n - k) as f64 };
    }
    out.push(ramp);
    out
}

fn assert_holds(f: Finding, what: &str) {
    assert!(f.holds, "{what}: {:?}", f.violation);
    assert!(f.instances > 0, "{what}: nothing evaluated");
}

#[test]
fn exact_identities_of_the_strategy_on_small_graphs() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for g in small_graphs() {
        let s = Strategy::new(&g).unwrap();
        let name = g.name().to_string();
        assert_holds(checks::claim_3_1(&s.tree), &format!("{name} Claim 3.1"));
        assert_holds(checks::lemma_3_2(&s), &format!("{name} Lemma 3.2"));
        assert_holds(checks::lemma_3_3(&s), &format!("{name} Lemma 3.3"));
        assert_holds(checks::lemma_3_4(&s), &format!("{name} Lemma 3.4"));
        assert!(
            haar::orthogonality_defect(&s.tree) < 1e-12,
            "{name} Haar orthogonality"
        );
        for x in load_families(&s.tree, &mut rng) {
            assert_holds(
                checks::lemma_3_5(&s, &x).unwrap(),
                &format!("{name} Lemma 3.5 at {x:?}"),
            );
            if g.regular_degree().is_some() {
                assert_holds(
                    checks::lemma_3_6(&s, &x).unwrap(),
                    &format!("{name} Lemma 3.6 at {x:?}"),
                );
            }
            assert_holds(
                checks::telescope(&s.tree, &x).unwrap(),
                &format!("{name} telescope"),
            );
            assert_holds(
                checks::parent_child(&s.tree, &x).unwrap(),
                &format!("{name} (9)"),
            );
            assert_holds(
                checks::haar_basis(&s.tree, &x).unwrap(),
                &format!("{name} Haar basis"),
            );
            assert_holds(
                checks::gap_vs_deviation(&x).unwrap(),
                &format!("{name} gap"),
            );
        }
    }
}

#[test]
fn lemma_3_6_needs_a_regular_graph() {
    // Path 0–…–5 (irregular), all loads equal, so every Q_L(i) = 0 and q(v) = deg(v)/(2m) =
    // (1, 2, 2, 2, 2, 1)/10. Node {0, 1, 2} has children {0} and {1, 2}:
    // q({0})/1 − q({1, 2})/2 = 1/10 − 4/20 = −1/10, while Lemma 3.6 predicts 0.
    let s = Strategy::new(&Graph::path(6).unwrap()).unwrap();
    let f = checks::lemma_3_6(&s, &[3.0; 6]).unwrap();
    assert!(!f.holds);
    assert!(f.violation.unwrap().contains("-1/10"));
}

#[test]
fn greedy_edge_sum_equals_closed_form_and_brute_force() {
    use balloc::{expectation, loads::Loads, potential, process, setting::Setting};
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let pots = ["quadratic", "absolute", "gamma(alpha=0.5)", "phi(alpha=1)"];
    for (spec, n) in [
        ("graphical(graph=cycle)", 7),
        ("graphical(graph=torus)", 9),
        ("graphical(graph=hypercube)", 8),
        ("graphical(graph=complete)", 5),
        ("graphical(graph=regular,d=3,seed=2)", 10),
    ] {
        let p = process::parse(spec).unwrap();
        // The same graph by the direct constructors (n = 9 is the 3×3 torus, 8 the cube Q₃).
        let g = match spec {
            s if s.contains("cycle") => Graph::cycle(n),
            s if s.contains("torus") => Graph::torus(3, 3),
            s if s.contains("hypercube") => Graph::hypercube(3),
            s if s.contains("complete") => Graph::complete(n),
            _ => Graph::random_regular(n, 3, 2),
        }
        .unwrap();
        for _ in 0..5 {
            let x = Loads::new((0..n).map(|_| rng.random_range(0..4) as f64).collect()).unwrap();
            for ps in pots {
                let pot = potential::parse(ps).unwrap();
                let e = expectation::expect(p.as_ref(), pot.as_ref(), &x, &Setting::sequential())
                    .unwrap();
                let b =
                    expectation::brute_force(p.as_ref(), pot.as_ref(), &x, &Setting::sequential())
                        .unwrap();
                let s = balloc::potential::graphical::edge_sum_expectation(&g, pot.as_ref(), &x)
                    .unwrap();
                let (e, b, s) = (
                    e.expected_next.to_f64_checked().unwrap(),
                    b.to_f64_checked().unwrap(),
                    s.to_f64_checked().unwrap(),
                );
                assert!(
                    (e - s).abs() <= 1e-12 * s.abs().max(1.0),
                    "{spec} {ps} {x:?}: {e} vs edge sum {s}"
                );
                assert!(
                    (b - s).abs() <= 1e-12 * s.abs().max(1.0),
                    "{spec} {ps} {x:?}: {b} vs edge sum {s}"
                );
            }
            // f64 per-vertex probabilities equal the exact ones.
            let r = greedy::probabilities(&g, x.as_slice()).unwrap();
            let rx = greedy::probabilities_exact(&g, x.as_slice()).unwrap();
            for (a, b) in r.iter().zip(&rx) {
                assert_eq!(*a, num_traits::ToPrimitive::to_f64(b).unwrap());
            }
        }
    }
}

#[test]
fn greedy_eps_is_at_least_the_edge_expansion_and_attained_on_the_cut() {
    // Exhaustive over the orderings of distinct loads (only the order matters to greedy): all 720
    // permutations of 0..6 on C_6 and all 120 of 0..5 on K_5.
    for g in [Graph::cycle(6).unwrap(), Graph::complete(5).unwrap()] {
        let n = g.n();
        let mut perm: Vec<usize> = (0..n).collect();
        let mut count = 0;
        loop {
            let x: Vec<f64> = perm.iter().map(|&v| v as f64).collect();
            assert_holds(checks::greedy_eps_vs_expansion(&g, &x).unwrap(), g.name());
            count += 1;
            // next permutation in lexicographic order
            let Some(i) = (0..n - 1).rev().find(|&i| perm[i] < perm[i + 1]) else {
                break;
            };
            let j = (i + 1..n).rev().find(|&j| perm[j] > perm[i]).unwrap();
            perm.swap(i, j);
            perm[i + 1..].reverse();
        }
        assert_eq!(count, (1..=n).product::<usize>());
    }
    // With ties the statement fails: all loads equal, greedy is uniform, ε*(1/2) = 0 < β = 1/3.
    let f = checks::greedy_eps_vs_expansion(&Graph::cycle(6).unwrap(), &[2.0; 6]).unwrap();
    assert!(!f.holds && f.violation.unwrap().contains("= 0 < β = 1/3"));
    // Equality at the minimising cut: C_6 with {0, 1, 2} heavy. Prefix k = 3 holds e(S)/m = 2/6,
    // so 1 − n·P_3/3 = 1 − 6·(1/3)/3 = 1/3 = |∂S|/(d|S|) = 2/(2·3) = β.
    let g = Graph::cycle(6).unwrap();
    let x = balloc::loads::Loads::new(vec![1.0, 1.0, 1.0, 0.0, 0.0, 0.0]).unwrap();
    let (e, c) = greedy::conditions(&g, &x, 3).unwrap();
    let (h, _) = measures::edge_expansion(&g).unwrap();
    assert_eq!(e.eps, q(1, 3));
    assert_eq!(e.eps, h / Q::from_integer(2.into()));
    // C2: vertices 3 and 5 win 1 + 1/2 edges, vertex 4 wins 1/2 + 1/2 (m = 6), so the light tied
    // group {3, 4, 5} gets (1/4 + 1/6 + 1/4)/3 = 2/9 per rank (random tie-breaking among ranks):
    // C = n·max p = 6·2/9 = 4/3.
    assert_eq!(c.c, q(4, 3));
}

#[test]
fn measures_against_independent_routes() {
    // Edge connectivity: hand values.
    assert_eq!(
        measures::edge_connectivity(&Graph::torus(4, 4).unwrap()).unwrap(),
        4
    );
    assert_eq!(
        measures::edge_connectivity(&Graph::complete(6).unwrap()).unwrap(),
        5
    );
    let two = Graph::parse_edge_list("0 1\n1 2\n2 0\n3 4\n4 5\n5 3\n", "two triangles").unwrap();
    assert_eq!(measures::edge_connectivity(&two).unwrap(), 0);
    // Spectral gap of Q_h is 2 (eigenvalues 2j); of K_n is n.
    assert!((measures::spectral_gap(&Graph::hypercube(4).unwrap()).unwrap() - 2.0).abs() < 1e-9);
    assert!((measures::spectral_gap(&Graph::complete(7).unwrap()).unwrap() - 7.0).abs() < 1e-9);
    // Cheeger (normalised Laplacian of a d-regular graph: λ₂/d): λ/2 ≤ β ≤ √(2λ).
    for g in small_graphs()
        .into_iter()
        .filter(|g| g.regular_degree().is_some())
    {
        let d = g.regular_degree().unwrap() as f64;
        let lam = measures::spectral_gap(&g).unwrap() / d;
        let (h, _) = measures::edge_expansion(&g).unwrap();
        let beta = num_traits::ToPrimitive::to_f64(&h).unwrap() / d;
        assert!(
            lam / 2.0 <= beta + 1e-12 && beta <= (2.0 * lam).sqrt() + 1e-12,
            "{}: λ = {lam}, β = {beta}",
            g.name()
        );
    }
}

#[test]
fn edge_list_errors_name_the_line() {
    let cases = [
        ("0 1\n1 1\n", "line 2", "self-loop"),
        (
            "0 1\n# c\n\n1 0\n",
            "line 4",
            "repeats the edge 1 0 of line 1",
        ),
        ("0 1 2\n", "line 1", "expected two vertex numbers"),
        ("0 -1\n", "line 1", "not a vertex number"),
        ("# nothing\n", "g.txt", "contains no edge"),
    ];
    for (text, at, why) in cases {
        let e = Graph::parse_edge_list(text, "g.txt")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(at) && e.contains(why) && !e.contains('\n'),
            "{e}"
        );
    }
    assert!(
        balloc::input::read_edge_list("/nonexistent/g.txt")
            .unwrap_err()
            .to_string()
            .contains("/nonexistent/g.txt")
    );
    for bad in [
        "graphical(graph=torus)",
        "graphical(graph=mesh)",
        "graphical(graph=file)",
        "graphical(d=3)",
        "graphical(strategy=best)",
    ] {
        let r = balloc::process::parse(bad)
            .and_then(|p| p.step_law(&balloc::loads::Loads::zeros(8).unwrap(), Default::default()));
        assert!(r.is_err(), "{bad}");
    }
}

#[test]
fn flow_strategy_process_agrees_with_lemma_3_5_and_its_sampler() {
    // The registered process with strategy=flow gives the per-vertex probabilities of Lemma 3.5;
    // its sampler (and the fast simulation step) match them within a 5-sigma Monte Carlo band.
    use balloc::loads::Loads;
    let g = Graph::cycle(8).unwrap();
    let s = Strategy::new(&g).unwrap();
    let x = [5.0, 1.0, 0.0, 2.0, 2.0, 7.0, 3.0, 0.0];
    let p = balloc::process::parse("graphical(graph=cycle,strategy=flow)").unwrap();
    let law = p
        .step_law(&Loads::new(x.to_vec()).unwrap(), Default::default())
        .unwrap()
        .per_bin_probability();
    let exact = s.predicted_exact(&x).unwrap();
    for (a, b) in law.iter().zip(&exact) {
        assert!((a - num_traits::ToPrimitive::to_f64(b).unwrap()).abs() < 1e-15);
    }
    let loads = Loads::new(x.to_vec()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let trials = 200_000;
    let mut count = [0usize; 8];
    for _ in 0..trials {
        count[p
            .sample(&loads, &loads.ranking(), Default::default(), &mut rng)
            .0] += 1;
    }
    for v in 0..8 {
        let sd = (law[v] * (1.0 - law[v]) / trials as f64).sqrt();
        assert!(
            (count[v] as f64 / trials as f64 - law[v]).abs() < 5.0 * sd + 1e-12,
            "vertex {v}"
        );
    }
}

#[test]
fn greedy_sampler_matches_probabilities() {
    let g = Graph::torus(3, 3).unwrap();
    let x: Vec<f64> = vec![2.0, 0.0, 1.0, 1.0, 3.0, 0.0, 1.0, 1.0, 2.0];
    let r = greedy::probabilities(&g, &x).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let trials = 200_000;
    let mut c = [0usize; 9];
    for _ in 0..trials {
        c[greedy::sample(&g, &x, &mut rng)] += 1;
    }
    for v in 0..9 {
        let sd = (r[v] * (1.0 - r[v]) / trials as f64).sqrt();
        assert!(
            (c[v] as f64 / trials as f64 - r[v]).abs() < 5.0 * sd + 1e-12,
            "vertex {v}"
        );
    }
}

#[test]
fn general_graphs_use_spectral_trees_and_electrical_flows() {
    let g = Graph::random_regular(16, 3, 4).unwrap();
    let s = Strategy::new(&g).unwrap();
    // Auto keeps the smaller exact congestion of the two routings.
    use balloc::graph::flow::{Routing, UnitFlows};
    let mw = UnitFlows::route_with(&g, &s.tree, Routing::Electrical { rounds: 12 }).unwrap();
    let st = UnitFlows::route_with(&g, &s.tree, Routing::SpanningTree).unwrap();
    assert!(["electrical-mw", "spanning-tree"].contains(&s.flows.method));
    assert_eq!(s.congestion, mw.congestion().min(st.congestion()));
    assert!(haar::orthogonality_defect(&s.tree) < 1e-12);
    assert_holds(checks::lemma_3_4(&s), "regular(16,3) Lemma 3.4");
    assert_holds(checks::lemma_3_2(&s), "regular(16,3) Lemma 3.2");
    let x: Vec<f64> = (0..16).map(|v| ((v * 7) % 5) as f64).collect();
    assert_holds(
        checks::lemma_3_5(&s, &x).unwrap(),
        "regular(16,3) Lemma 3.5",
    );
    // Balanced: sizes of siblings differ by at most one.
    for i in s.tree.internal() {
        let (l, r) = s.tree.nodes[i].children.unwrap();
        assert!(s.tree.nodes[l].size().abs_diff(s.tree.nodes[r].size()) <= 1);
    }
}

#[test]
fn lemma_3_7_epsilon_printed_forms_fail_and_derived_forms_hold() {
    // C_8, standard tree, loads heavy on the left half {0..3}: the right half {4..7} lies on the
    // light side of the root, receives more than its share, q(S_i) > |S_i|/n, and the printed
    // bound (10) fails there.
    let s = Strategy::new(&Graph::cycle(8).unwrap()).unwrap();
    let x = [4.0, 4.0, 4.0, 4.0, 2.0, 2.0, 0.0, 1.0];
    let e = checks::lemma_3_7_epsilon(&s, &x).unwrap();
    assert_holds(e.derived_closed_form.clone(), "ε_t = βkQ/(2m q(S_i))");
    assert_holds(e.derived_bound.clone(), "|ε_t| ≥ βkn/(4m|S_i|)");
    assert!(
        !e.printed_closed_form.holds,
        "printed ε_t = βkQ/q(S_i) is off by the factor 2m"
    );
    assert!(!e.printed_bound_10.holds);
    let v = e.printed_bound_10.violation.unwrap();
    // Hand check of the first violating node {4..7} (|S_i| = 4): C* = 9/4 so βk = 4/9; m = 8.
    // Q(root) = +1 (L̄{0..3} = 4 > L̄{4..7} = 5/4); the root's drift gives +βk/4 to each of the
    // four vertices, the drifts of nodes inside {4..7} sum to zero on it (Lemma 3.2), so
    // q(S_i) = 4/8 + (1/16)·βk = 1/2 + 1/36 = 19/36 and ε_t = βk/(2m·q(S_i)) = (4/9)/(16·19/36) = 1/19,
    // while (10) asks for |ε_t| ≥ βkn/(2m|S_i|) = (4/9)·8/64 = 1/18.
    assert!(v.contains("ε_t = 1/19") && v.contains("= 1/18"), "{v}");
}

#[test]
fn two_point_lemma_one_step_and_printed_intermediate_claim() {
    use balloc::graph::twopoint::TwoPoint;
    let deltas: Vec<f64> = (-400..=400).map(|k| k as f64 * 0.25).collect();
    // Sweep the printed hypothesis range (restricted to valid probabilities).
    let mut worst = f64::INFINITY;
    let mut cases = 0;
    for a in 1..20 {
        let pi1 = a as f64 / 20.0;
        let pmin = pi1.min(1.0 - pi1);
        for b in 1..=4 {
            let eps = pmin / 2.0 * b as f64 / 4.0;
            for c in 1..=6 {
                let eps_t = eps + (pi1.max(1.0 - pi1) / 2.0 - eps) * c as f64 / 6.0;
                let tp = TwoPoint { pi1, eps, eps_t };
                if !(tp.hypotheses() && tp.valid()) {
                    continue;
                }
                cases += 1;
                let (f, w) = checks::two_point_one_step_f64(&tp, &deltas);
                assert_holds(f, &format!("{tp:?}"));
                worst = worst.min(w);
                // E[Δδ] = −ε_tγ for δ > 0 and E[(Δδ)²] ≤ 2γ (printed), at valid probabilities.
                assert!((tp.mean_step(1.0) + eps_t * tp.gamma()).abs() < 1e-12);
                assert!(
                    tp.second_moment(1.0) <= 2.0 * tp.gamma() + 1e-12
                        && tp.second_moment(-1.0) <= 2.0 * tp.gamma() + 1e-12
                );
            }
        }
    }
    assert!(
        cases > 100 && worst >= 0.0,
        "cases {cases}, worst slack {worst}"
    );
    // The printed step "ε_tγ ≤ 1" fails inside the hypotheses: π₁ = 0.4, ε = 0.2 = min(π)/2,
    // ε_t = 0.3 = max(π)/2 (probabilities 0.1 and 0.7 are valid); γ = 1/0.4 + 1/0.6 = 25/6 and
    // ε_tγ = 1.25 > 1. Exactly: π₁ = 2/5, ε = 1/5, ε_t = 3/10, ε_tγ = (3/10)(25/6) = 5/4.
    let tp = TwoPoint {
        pi1: 0.4,
        eps: 0.2,
        eps_t: 0.3,
    };
    assert!(tp.hypotheses() && tp.valid());
    assert!((tp.eps_t * tp.gamma() - 1.25).abs() < 1e-12);
    let q = |a: i64, b: i64| balloc::exact::Q::new(a.into(), b.into());
    let tq = balloc::graph::twopoint::TwoPointQ {
        pi1: q(2, 5),
        eps: q(1, 5),
        eps_t: q(3, 10),
    };
    assert!(tq.hypotheses() && tq.valid());
    let f = checks::two_point_eps_gamma(&tq);
    assert!(!f.holds && f.violation.unwrap().contains("= 5/4 > 1"));
    // The corrected step: ε_tγ = 5/4 ≤ 1/max(π) = 5/3.
    assert!(checks::two_point_eps_gamma_valid(&tq).holds);
    // E[Δδ] = ±ε_tγ exactly and E[(Δδ)²] ≤ 2γ: at δ > 0, p = 1/10,
    // E[(Δδ)²] = (1/10)/(4/25) + (9/10)/(9/25) = 5/8 + 5/2 = 25/8 ≤ 2γ = 25/3.
    assert_eq!(tq.second_moment(&q(1, 1)), q(25, 8));
    assert!(checks::two_point_moments(&tq, &[q(-1, 1), q(0, 1), q(1, 4)]).holds);
    // The printed hypotheses admit invalid probabilities: π₁ = 0.1, ε_t = 0.3 ≤ max(π)/2 = 0.45
    // gives P(bin 1) = π₁ − ε_t = −0.2.
    let bad = TwoPoint {
        pi1: 0.1,
        eps: 0.05,
        eps_t: 0.3,
    };
    assert!(bad.hypotheses() && !bad.valid() && bad.p1(1.0) < 0.0);
    let badq = balloc::graph::twopoint::TwoPointQ {
        pi1: q(1, 10),
        eps: q(1, 20),
        eps_t: q(3, 10),
    };
    let f = checks::two_point_hypotheses_valid(&badq);
    assert!(badq.hypotheses() && !f.holds, "{f:?}");
    assert!(f.violation.unwrap().contains("{-1/5, 2/5}"));
}

#[test]
fn cycle_drift_limitation_construction() {
    // C.Heur.first-attempt: δ* = 2/n, confirmed by max-flow on both sides of δ*.
    let mut lines = Vec::new();
    for n in [4usize, 6, 8, 12, 16] {
        let (d, mask, f) = checks::cycle_drift_limitation(n).unwrap();
        assert_holds(f, &format!("C_{n}"));
        let tight: Vec<usize> = (0..n).filter(|v| (mask >> v) & 1 == 1).collect();
        lines.push(format!(
            "C_{n}: overloaded 0..{}, delta* = {d} (= 2/n), tight set {tight:?}, |boundary| = {}",
            n / 2,
            measures::boundary(&Graph::cycle(n).unwrap(), mask)
        ));
    }
    insta::assert_snapshot!("cycle_drift_limitation", lines.join("\n"));
}

#[test]
fn lemma_4_1_arithmetic() {
    // (|S| − k/d)/n ≥ 1/3 for k ≤ d, |S| ≥ n/2, n ≥ 6; equality-tight at n = 6, |S| = 3, k = d.
    for n in 6..40 {
        for d in 1..6 {
            for k in 0..=d {
                assert_holds(checks::lemma_4_1_mean(n, d, k, n.div_ceil(2)), "L4.1");
            }
        }
    }
    // Below the hypothesis n ≥ 6 it can fail: n = 4, d = k = 2, |S| = 2 gives (2 − 1)/4 = 1/4 < 1/3.
    assert!(!checks::lemma_4_1_mean(4, 2, 2, 2).holds);
}

#[test]
fn fixed_seed_monte_carlo_agrees_with_exact_expectation() {
    // Greedy on C_6 from x: the mean of Υ after one step over 100 000 seeded samples is within
    // 5 standard errors of the exact edge-sum expectation.
    use balloc::{loads::Loads, potential};
    let g = Graph::cycle(6).unwrap();
    let x = Loads::new(vec![3.0, 0.0, 1.0, 4.0, 1.0, 2.0]).unwrap();
    let pot = potential::parse("quadratic").unwrap();
    let exact = balloc::potential::graphical::edge_sum_expectation(&g, pot.as_ref(), &x)
        .unwrap()
        .to_f64_checked()
        .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let k = 100_000;
    let vals: Vec<f64> = (0..k)
        .map(|_| {
            let mut y = x.clone();
            y.add(greedy::sample(&g, x.as_slice(), &mut rng), 1.0);
            pot.value(&y).to_f64_checked().unwrap()
        })
        .collect();
    let s = balloc::sim::statistic::mean_ci(&vals, 0.95).unwrap();
    assert!(
        (s.mean - exact).abs() < 5.0 * s.stderr,
        "{} vs {exact}",
        s.mean
    );
}

/// Every routing on every test graph: the net inflow of every stored flow equals the Haar vector
/// `h_i` exactly (rationals), so the realised per-vertex drift equals the designed drift
/// (Lemma 3.5), `Σ_i p_e(i) ≤ 1` and the support of `p_e` stays within the height (Lemma 3.4);
/// the certified cut bound is below every routing's congestion.
#[test]
fn every_routing_realises_the_haar_drifts_exactly() {
    use balloc::graph::flow::{Routing, UnitFlows, congestion_lower_bound};
    let mut graphs = small_graphs();
    for (n, d, seed) in [(16, 3, 4), (24, 4, 2), (32, 3, 9), (40, 5, 3)] {
        graphs.push(Graph::random_regular(n, d, seed).unwrap());
    }
    // An irregular edge-list graph: two triangles joined by two paths.
    graphs.push(
        Graph::parse_edge_list(
            "0 1\n1 2\n2 0\n2 3\n3 4\n4 5\n5 6\n6 7\n7 5\n1 8\n8 9\n9 6\n",
            "barbell",
        )
        .unwrap(),
    );
    let disconnected = |g: &Graph| {
        let t = Tree::standard(g).unwrap();
        t.internal()
            .into_iter()
            .filter(|&i| balloc::graph::electrical::Network::induced(g, &t.set(i)).is_none())
            .count()
    };
    // regular(16, 3, 4) has node sets S_i with G[S_i] disconnected (spectral bisection does not
    // promise connected parts): the connector of the electrical routing is exercised.
    assert!(disconnected(&Graph::random_regular(16, 3, 4).unwrap()) > 0);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for g in &graphs {
        let t = Tree::standard(g).unwrap();
        let (lb, _) = congestion_lower_bound(g, &t);
        let mut routings = vec![
            Routing::SpanningTree,
            Routing::Electrical { rounds: 1 },
            Routing::Electrical { rounds: 6 },
        ];
        if g.family() != balloc::graph::Family::General {
            routings.push(Routing::Explicit);
        }
        for r in routings {
            let what = format!("{} {r:?}", g.name());
            let f = UnitFlows::route_with(g, &t, r).unwrap();
            for (j, &i) in f.nodes.iter().enumerate() {
                assert_eq!(f.inflow(g, j), haar::vector(&t, i), "{what}: node {i}");
            }
            assert!(f.congestion() >= lb, "{what}: C* below the cut bound {lb}");
            let s = Strategy::with_routing(g, t.clone(), r).unwrap();
            assert_holds(checks::lemma_3_4(&s), &format!("{what} Lemma 3.4"));
            assert_holds(checks::lemma_3_2(&s), &format!("{what} Lemma 3.2"));
            for x in load_families(&t, &mut rng) {
                assert_holds(
                    checks::lemma_3_5(&s, &x).unwrap(),
                    &format!("{what} Lemma 3.5 at {x:?}"),
                );
            }
        }
    }
}

/// The `f64` electrical flow against an independent dense solve (nalgebra LU of the Laplacian
/// grounded at vertex 0), on a random regular graph with non-uniform resistances.
#[test]
fn electrical_flow_matches_a_dense_laplacian_solve() {
    use balloc::graph::electrical::Network;
    let g = Graph::random_regular(20, 3, 5).unwrap();
    let net = Network::whole(&g).unwrap();
    let res: Vec<f64> = (0..g.m()).map(|e| 1.0 + (e % 7) as f64 / 3.0).collect();
    let demand: Vec<f64> = (0..20).map(|v| (v % 5) as f64 - 2.0).collect(); // sums to 0
    let f = net.flow(&res, &demand).unwrap();
    let n = g.n();
    let mut l = nalgebra::DMatrix::<f64>::zeros(n - 1, n - 1);
    for (e, &(a, b)) in g.edges().iter().enumerate() {
        let c = 1.0 / res[e];
        for (u, w, sgn) in [(a, a, 1.0), (b, b, 1.0), (a, b, -1.0), (b, a, -1.0)] {
            if u > 0 && w > 0 {
                l[(u - 1, w - 1)] += sgn * c;
            }
        }
    }
    let rhs = nalgebra::DVector::from_iterator(n - 1, demand[1..].iter().map(|d| -d));
    let x = l.lu().solve(&rhs).unwrap();
    let pot = |v: usize| if v == 0 { 0.0 } else { x[v - 1] };
    for (k, &(e, _, _)) in net.edges.iter().enumerate() {
        let (a, b) = g.edges()[e];
        let want = (pot(a) - pot(b)) / res[e];
        assert!((f[k] - want).abs() < 1e-9, "edge {e}: {} vs {want}", f[k]);
    }
    // Net inflow = demand.
    for (v, want) in demand.iter().enumerate() {
        let mut inflow = 0.0;
        for (k, &(_, a, b)) in net.edges.iter().enumerate() {
            if b == v {
                inflow += f[k];
            }
            if a == v {
                inflow -= f[k];
            }
        }
        assert!((inflow - want).abs() < 1e-9, "vertex {v}");
    }
}

/// The cut bound's closed form (`|S_j|/|S_c|` per proper ancestor) against the direct sum
/// `Σ_i |Σ_{v∈S_j} h_i(v)|` over every internal node, on every node set of two trees.
#[test]
fn congestion_lower_bound_closed_form_matches_the_direct_sum() {
    use balloc::graph::flow::congestion_lower_bound;
    use num_traits::{Signed, Zero};
    for g in [
        Graph::random_regular(14, 3, 2).unwrap(),
        Graph::torus(3, 5).unwrap(),
    ] {
        let t = Tree::standard(&g).unwrap();
        let mut best = Q::zero();
        for j in 0..t.nodes.len() {
            let set = t.set(j);
            let mut demand = Q::zero();
            for i in t.internal() {
                let s: Q = set.iter().map(|&v| haar::value(&t, i, v)).sum();
                demand += s.abs();
            }
            let cut = g
                .edges()
                .iter()
                .filter(|&&(a, b)| set.contains(&a) != set.contains(&b))
                .count();
            if cut > 0 {
                best = best.max(demand / Q::from_integer(cut.into()));
            }
        }
        assert_eq!(congestion_lower_bound(&g, &t).0, best, "{}", g.name());
    }
}

/// The (1+β) graphical process: `q_v = (1 − β)/n + β·r_v` in exact rationals. C₄ at loads
/// (1, 0, 0, 0): greedy's r = (0, 3/8, 1/4, 3/8) (edges {0,1}, {3,0} go to 1 and 3, the tied edges
/// {1,2}, {2,3} split), so β = 1/2 gives 1/8 + (0, 3/16, 1/8, 3/16) = (1/8, 5/16, 1/4, 5/16) by hand.
#[test]
fn one_plus_beta_graphical_law_matches_the_hand_values() {
    use balloc::loads::{Loads, TieRule};
    let q = |a: i64, b: i64| Q::new(a.into(), b.into());
    let x = Loads::new(vec![1.0, 0.0, 0.0, 0.0]).unwrap();
    let p = balloc::process::parse("graphical(graph=cycle,beta=1/2)").unwrap();
    let law = p.step_law_exact(&x, TieRule::Random).unwrap().unwrap();
    assert_eq!(
        law.per_bin_probability(),
        vec![q(1, 8), q(5, 16), q(1, 4), q(5, 16)]
    );
    assert_eq!(p.spec(), "graphical(graph=cycle,strategy=greedy,beta=0.5)");
    // β = 0 is One-Choice: 1/4 everywhere.
    let p0 = balloc::process::parse("graphical(graph=cycle,beta=0)").unwrap();
    let law0 = p0.step_law_exact(&x, TieRule::Random).unwrap().unwrap();
    assert_eq!(law0.per_bin_probability(), vec![q(1, 4); 4]);
    for bad in ["graphical(beta=1.5)", "graphical(beta=-0.1)"] {
        let e = balloc::process::parse(bad).unwrap_err().to_string();
        assert!(e.contains("beta") && !e.contains('\n'), "{e}");
    }
}

/// The strategy's variants against One-Choice (a second route, the simulator's registered
/// process): with β = 0 every ball goes to a uniform vertex; with set loads never refreshed
/// (refresh ≥ m) every comparison is made on the empty state, a tie, so every edge is a fair coin
/// and on a regular graph q_v = d/(2m) = 1/n. Both are One-Choice in law: the mean spread over 400
/// runs agrees with One-Choice's within 4 combined standard errors. The plain strategy is far
/// below One-Choice, the strategy with every sign the adversary's (§3.5) far above.
#[test]
fn strategy_variants_without_information_are_one_choice() {
    use balloc::sim::graph::StrategyModel;
    use balloc::sim::{Config, Plan, simulate};
    let (n, m, runs) = (16usize, 64u64, 400u64);
    let stats = |v: &[f64]| {
        let k = v.len() as f64;
        let mean = v.iter().sum::<f64>() / k;
        let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1.0);
        (mean, (var / k).sqrt())
    };
    let one = Config::parse("one-choice", n, 1, "unit", "random").unwrap();
    let base = simulate(&one, &Plan::new(m, runs, 3), &|| {}).unwrap();
    let (mu, se) = stats(&base.runs.iter().map(|r| r.spread).collect::<Vec<_>>());
    let g = Graph::cycle(n).unwrap();
    for (beta, refresh) in [(0.0, 0u64), (1.0, 1 << 20)] {
        let model = StrategyModel::variant(&g, beta, refresh).unwrap();
        let out = simulate(&model, &Plan::new(m, runs, 4), &|| {}).unwrap();
        let (mv, sv) = stats(&out.runs.iter().map(|r| r.spread).collect::<Vec<_>>());
        assert!(
            (mv - mu).abs() <= 4.0 * (se * se + sv * sv).sqrt(),
            "beta {beta}, refresh {refresh}: mean spread {mv} vs One-Choice {mu}"
        );
    }
    // The plain strategy is not One-Choice: its mean spread is far below.
    let plain = StrategyModel::new(&g).unwrap();
    let out = simulate(&plain, &Plan::new(m, runs, 4), &|| {}).unwrap();
    let (mp, _) = stats(&out.runs.iter().map(|r| r.spread).collect::<Vec<_>>());
    assert!(mp < mu - 0.5, "plain strategy {mp} vs One-Choice {mu}");
    // With the adversary's sign on every decision (no difference of set averages exceeds 10⁹),
    // every request that is not a tie sends its ball toward the heavier set: the load gathers,
    // and the mean spread is far above One-Choice's (the strategy's information used against it).
    let against = StrategyModel::new(&g).unwrap().against(1e9).unwrap();
    let out = simulate(&against, &Plan::new(m, runs, 4), &|| {}).unwrap();
    let (ma, _) = stats(&out.runs.iter().map(|r| r.spread).collect::<Vec<_>>());
    assert!(ma > mu + 0.5, "adversarial signs {ma} vs One-Choice {mu}");
}

fn two_point_file(constants: &str, expr: &str, grid: &str, deltas: &str) -> String {
    format!(
        "title = \"t\"\nkind = \"graph\"\nexpected = \"open\"\nstatement = \"s\"\nnotes = \"n\"\n\
         [source]\nlocator = \"l\"\nprovenance = \"derived\"\n[constants]\n{constants}\n\
         [claim]\nover = \"two-point\"\nexpr = \"{expr}\"\ngrid = {grid}\ndeltas = {deltas}\n\
         [domain]\nn = [2]\n"
    )
}

/// `Emax_Phi` with one step is the one-step expectation of the proof: the induction bound at T = 1,
/// 2 − (1 − αεγ/2)(2 − Φ), is the one-step inequality E[Φ'] ≤ Φ − αεγ(Φ − 2)/2, so the adversary's
/// best one-step value refutes it at the counterexample the one-step file records (π₁ = 1/20,
/// ε = 1/160, ε_t = 127/320, δ = −1/2: the grid [20, 4, 6] has it at a = 1, b = 1, c = 5).
#[test]
fn two_point_adversary_one_step_refutes_at_the_recorded_counterexample() {
    let v = balloc::check_str(&two_point_file(
        "horizon = 1",
        "Emax_Phi <= 2 - (1 - alpha*eps*gamma/2)^horizon*(2 - Phi)",
        "[20, 4, 6]",
        "[-1, 1, 0.5]",
    ))
    .unwrap();
    assert_eq!(v.verdict, balloc::claim::Status::Refuted);
    let w = v.witness.unwrap().lhs;
    assert!(
        w.contains("π₁ = 1/20, ε = 1/160, ε_t = 127/320, δ = -1/2"),
        "{w}"
    );
}

/// The tail file can fail: a rate e^{−2x} instead of the lemma's e^{−x/8} is refuted on its grid,
/// and a missing constant is a one-line error naming it.
#[test]
fn two_point_tail_can_fail_and_needs_its_constants() {
    let v = balloc::check_str(&two_point_file(
        "horizon = [16, 48]\ntail = [4, 8]",
        "exp(-2*tail) >= Ptail_max",
        "[4, 2, 2]",
        "[0, 0, 1]",
    ))
    .unwrap();
    assert_eq!(v.verdict, balloc::claim::Status::Refuted);
    let e = balloc::check_str(&two_point_file(
        "horizon = 4",
        "Ptail_max <= 1",
        "[4, 2, 2]",
        "[0, 0, 1]",
    ))
    .unwrap_err()
    .to_string();
    assert!(e.contains("`tail`") && !e.contains('\n'), "{e}");
}

/// A chain over the two-point configurations (`claim::chain`): 0 ≤ ε ≤ ε_t holds by the
/// construction of the grid (ε ≤ min(π₁, π₂)/2 ≤ ε_t); ε_t ≤ π₁ fails at π₁ = 1/10, where ε_t
/// reaches max(π₁, π₂)/2 = 9/20.
#[test]
fn two_point_chains_break_at_their_first_false_link() {
    let file = |chain: &str| {
        two_point_file("c = 1", "0", "[10, 2, 3]", "[-1, 1, 1]")
            .replace("expr = \"0\"", &format!("chain = {chain}"))
    };
    let v = balloc::check_str(&file("[\"0\", \"<= eps\", \"<= eps_t\"]")).unwrap();
    assert_eq!(v.verdict, balloc::claim::Status::Holds);
    let v = balloc::check_str(&file("[\"0\", \"<= eps\", \"<= eps_t\", \"<= pi1\"]")).unwrap();
    assert_eq!(v.verdict, balloc::claim::Status::Refuted);
    assert_eq!(
        v.links.iter().map(|l| l.verdict).collect::<Vec<_>>(),
        [
            balloc::claim::Status::Holds,
            balloc::claim::Status::Holds,
            balloc::claim::Status::Refuted
        ]
    );
    assert!(
        v.notes[0].contains("link 3 `eps_t <= pi1`"),
        "{:?}",
        v.notes
    );
}
