//! Named binders (`sum(i: sum(j: (x[j] > x[i]) * p[j]))`, per-bin claims that sum over the other
//! bins) and sums over the edges of graph claims (`sum_edges`, `count_edges` with the endpoints'
//! loads, degrees and set membership). Every expected value comes from a second route: a
//! brute-force computation in rationals written here, or a hand computation in a comment.

use crate::common::{exact_value as exact, q};
use balloc::claim::{Status, Trust};
use balloc::exact::Q;
use num_traits::Zero;

/// Two-Choice by its definition: two bins sampled uniformly with replacement, the ball to the
/// less loaded one, a tie broken by a fair coin.
fn two_choice(x: &[i64]) -> Vec<Q> {
    let n = x.len();
    let w = q(1, (n * n) as i64);
    let half = q(1, 2);
    let mut p = vec![Q::zero(); n];
    for j in 0..n {
        for k in 0..n {
            if x[j] < x[k] {
                p[j] += &w;
            } else if x[k] < x[j] {
                p[k] += &w;
            } else {
                p[j] += &w * &half;
                p[k] += &w * &half;
            }
        }
    }
    p
}

const TWO: &str = "[setting]\nprocesses = [\"two-choice\"]";

#[test]
fn nested_sums_over_pairs_of_bins() {
    for x in [vec![3i64, 1, 1, 0], vec![0, 0, 0], vec![2, 5, 2, 2, 0]] {
        let p = two_choice(&x);
        let n = x.len();
        // Σ_i Σ_j [x_j > x_i] p_j: the mass above each bin, summed.
        let mut want = Q::zero();
        for i in 0..n {
            for j in 0..n {
                if x[j] > x[i] {
                    want += &p[j];
                }
            }
        }
        assert_eq!(
            exact(TWO, "sum(i: sum(j: (x[j] > x[i]) * p[j]))", &x),
            want,
            "{x:?}"
        );
        // The same with an unnamed inner binder (bare names are its own bin's).
        assert_eq!(exact(TWO, "sum(i: sum((x > x[i]) * p))", &x), want);
        // max_i #{j : x_j > x_i} and Σ_i Σ_{j ≠ i} |x_i − x_j| (each pair twice).
        let most = (0..n)
            .map(|i| (0..n).filter(|&j| x[j] > x[i]).count() as i64)
            .max()
            .unwrap();
        assert_eq!(
            exact(TWO, "max_bins(i: count(j: x[j] > x[i]))", &x),
            q(most, 1)
        );
        let pairs: i64 = (0..n)
            .flat_map(|i| (0..n).map(move |j| (i, j)))
            .filter(|(i, j)| i != j)
            .map(|(i, j)| (x[i] - x[j]).abs())
            .sum();
        assert_eq!(
            exact(TWO, "sum(i: sum(j: abs(x[i] - x[j]), j != i))", &x),
            q(pairs, 1)
        );
        // The index of a named binder is its name; rank[j] reads the rank.
        let idx: i64 = (0..n).map(|i| (i as i64 + 1) * x[i]).sum();
        assert_eq!(exact(TWO, "sum(j: j * x[j])", &x), q(idx, 1));
    }
}

fn head(expected: &str) -> String {
    format!(
        "title = \"binders\"\nkind = \"inequality\"\nexpected = \"{expected}\"\nstatement = \"x\"\n\
         [source]\nlocator = \"test\"\nprovenance = \"derived\"\n[setting]\nprocesses = [\"two-choice\"]\n"
    )
}

fn verdict(expected: &str, claim: &str, domain: &str) -> balloc::claim::Verdict {
    let text = format!("{}[claim]\n{claim}\n[domain]\n{domain}", head(expected));
    balloc::check_str(&text).unwrap_or_else(|e| panic!("{claim}: {e}"))
}

#[test]
fn tie_aware_per_bin_probability_of_two_choice() {
    // A bin with a strictly heavier bins and t bins of its load (itself included) shares the
    // ranks a + 1 … a + t, whose Two-Choice probabilities (2r − 1)/n² average to
    // ((a + t)² − a²)/(t n²). Per bin, with sums over the other bins (bare x is the claim's bin).
    let claim = "forall_bins = \"p == (count(j: x[j] >= x)^2 - count(j: x[j] > x)^2) / (count(j: x[j] == x) * n^2)\"";
    let v = verdict(
        "holds",
        claim,
        "n = [2, 3, 4, 5]\nexhaustive = { max_n = 5, max_load = 3 }\nrandom = 8",
    );
    assert_eq!((v.verdict, v.trust), (Status::Holds, Trust::Exact), "{v:?}");
    // Without the ties (rank a + 1 for every tied bin) it fails at the balanced state, where
    // p = 1/n but (2·0 + 1)/n² = 1/n².
    let claim = "forall_bins = \"p == (2*count(j: x[j] > x) + 1) / n^2\"";
    let v = verdict(
        "refuted",
        claim,
        "n = [2, 3]\nstates = [[0, 0]]\nrandom = 2",
    );
    assert_eq!(
        (v.verdict, v.trust),
        (Status::Refuted, Trust::Exact),
        "{v:?}"
    );
    // The same values by brute force at one state: (2, 2, 1): the two heavy bins have a = 0,
    // t = 2: (4 − 0)/(2·9) = 2/9 each, as the pair sampling gives.
    let p = two_choice(&[2, 2, 1]);
    assert_eq!((p[0].clone(), p[2].clone()), (q(2, 9), q(5, 9)));
}

fn graph_claim(expected: &str, over: &str, expr: &str, extra: &str) -> balloc::claim::Verdict {
    let text = format!(
        "title = \"edges\"\nkind = \"graph\"\nexpected = \"{expected}\"\nstatement = \"x\"\n\
         [source]\nlocator = \"test\"\nprovenance = \"derived\"\n[claim]\nover = \"{over}\"\n\
         expr = \"{expr}\"\ngraphs = [\"cycle(4)\"]\nloads = [[3, 1, 0, 0]]\n{extra}[domain]\nn = [4]\n"
    );
    balloc::check_str(&text).unwrap_or_else(|e| panic!("{expr}: {e}"))
}

#[test]
fn sums_over_edges_by_hand() {
    // C₄ (edges 0–1, 1–2, 2–3, 3–0) with loads (3, 1, 0, 0): |x_a − x_b| = 2, 1, 0, 3 (sum 6);
    // one edge with equal loads; degrees 2 everywhere (Σ (deg_a + deg_b) = 16); Σ (y_a + y_b)
    // = Σ_v deg(v)·y_v = 2·Σ y = 0.
    for (expr, expected) in [
        ("sum_edges(abs(x_a - x_b)) == 6", "holds"),
        ("count_edges(x_a == x_b) == 1", "holds"),
        ("sum_edges(deg_a + deg_b) == 16", "holds"),
        ("sum_edges(y_a + y_b) == 0", "holds"),
        (
            "max_edges(abs(x_a - x_b)) == 3 && min_edges(x_a + x_b, x_a != x_b) == 1",
            "holds",
        ),
        // Binders over the vertices and the edges nest either way: Σ_v Σ_{e ∋ v} x_v = Σ_v deg(v)
        // x_v = 2·4 and Σ_e Σ_v [v ∈ e] x_v = Σ_e (x_a + x_b) = 8.
        (
            "sum(sum_edges(((a == i - 1) + (b == i - 1)) * x)) == 8",
            "holds",
        ),
        (
            "sum_edges(sum(((i == a + 1) + (i == b + 1)) * x)) == 8",
            "holds",
        ),
        ("sum_edges(abs(x_a - x_b)) == 5", "refuted"),
    ] {
        let v = graph_claim(expected, "state", expr, "");
        let want = if expected == "holds" {
            Status::Holds
        } else {
            Status::Refuted
        };
        assert_eq!((v.verdict, v.trust), (want, Trust::Exact), "{expr}: {v:?}");
    }
}

#[test]
fn greedy_probability_by_its_edges() {
    // Greedy: a uniform edge, the ball to the lighter endpoint, a tie by a fair coin. So
    // p(v) = Σ_{e ∋ v} ([v lighter] + [tie]/2)/m, against the engine's `p` (greedy.rs). On C₄
    // at (3, 1, 0, 0) the quantity tests give p = (0, 1/4, 3/8, 3/8).
    let expr = "p == sum_edges((a == v) * ((x_a < x_b) + (x_a == x_b)/2) + (b == v) * ((x_b < x_a) + (x_a == x_b)/2)) / m";
    let v = graph_claim(
        "holds",
        "vertices",
        expr,
        "families = [\"tied\", \"random\"]\n",
    );
    assert_eq!((v.verdict, v.trust), (Status::Holds, Trust::Exact), "{v:?}");
    // Without the ties it fails at a tied edge.
    let expr = "p == sum_edges((a == v) * (x_a < x_b) + (b == v) * (x_b < x_a)) / m";
    let v = graph_claim("refuted", "vertices", expr, "");
    assert_eq!(v.verdict, Status::Refuted, "{v:?}");
}

#[test]
fn cut_of_a_node_by_membership() {
    // |∂S_j| counted over the edges with one endpoint in S_j, against the quantity `cut`.
    let v = graph_claim("holds", "nodes", "cut == count_edges(in_a != in_b)", "");
    assert_eq!((v.verdict, v.trust), (Status::Holds, Trust::Exact), "{v:?}");
    // The halving tree of C₄: the root's children {0, 1} and {2, 3} each have 2 cut edges;
    // the leaves 2 each; the root 0: at most 2 everywhere, and 2 at a leaf.
    let v = graph_claim(
        "holds",
        "nodes",
        "count_edges(in_a != in_b) <= 2 && (is_leaf == 0 || count_edges(in_a != in_b) == 2)",
        "",
    );
    assert_eq!(v.verdict, Status::Holds, "{v:?}");
}

#[test]
fn bad_edge_and_binder_claims_are_errors() {
    let err = |over: &str, expr: &str| {
        let text = format!(
            "title = \"edges\"\nkind = \"graph\"\nexpected = \"open\"\nstatement = \"x\"\n\
             [source]\nlocator = \"test\"\nprovenance = \"derived\"\n[claim]\nover = \"{over}\"\n\
             expr = \"{expr}\"\ngraphs = [\"cycle(4)\"]\nloads = [[3, 1, 0, 0]]\n[domain]\nn = [4]\n"
        );
        let e = balloc::check_str(&text).unwrap_err().to_string();
        assert!(!e.contains('\n'), "{e}");
        e
    };
    // A per-edge name outside its binder; membership where there is no node.
    let e = err("vertices", "x_a <= 1");
    assert!(e.contains("sum_edges"), "{e}");
    let e = err("vertices", "sum_edges(in_a) <= 1");
    assert!(e.contains("unknown name `in_a`"), "{e}");
    // Unnamed edge binders do not nest; a named one reusing a name.
    let e = err("state", "sum_edges(sum_edges(x_a)) <= 1");
    assert!(e.contains("name the binders"), "{e}");
    let e = err("state", "sum_edges(f: sum_edges(f: x_a[f])) <= 1");
    assert!(e.contains("already the name of an enclosing binder"), "{e}");
    // Sums over edges outside graph claims.
    let text = format!(
        "{}[claim]\nexpr = \"sum_edges(x_a) <= 1\"\n[domain]\nn = [4]\nrandom = 1\n",
        head("open")
    );
    let e = balloc::check_str(&text).unwrap_err().to_string();
    assert!(e.contains("needs a graph"), "{e}");
}
