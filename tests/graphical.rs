//! Graphical allocation: graphs, greedy, the Bansal–Feldheim strategy and the paper's checks.
//! Expected values come from independent routes (hand computations in comments, enumeration
//! against closed forms, rationals against f64, max-flow against subset enumeration).

use balloc::graph::checks::{self, Finding};
use balloc::graph::strategy::Strategy;
use balloc::graph::tree::Tree;
use balloc::graph::{Graph, greedy, haar, measures};
use num_rational::BigRational;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn q(a: i64, b: i64) -> BigRational {
    BigRational::new(a.into(), b.into())
}

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

/// Load families G1–G4 of the notes (§5): random integers, mixed sibling signs, all tied,
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
