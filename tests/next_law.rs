//! The law of the next state in the claim language: `P{k}(event)`, `E{k}(value)` with primed
//! names, and `E{k}_X` beyond four steps by the dynamic programme over states. Every expected
//! value comes from a second route: a brute-force enumeration of the outcome law in rationals
//! written here (Two-Choice and One-Choice by their definitions: bins sampled uniformly, the
//! ball to the lighter, ties by a fair coin), or a hand computation in a comment.

use crate::common;

use crate::common::{exact_value as exact, q};
use balloc::exact::Q;
use num_traits::{One, Zero};

fn qs(x: &[i64]) -> Vec<Q> {
    x.iter().map(|v| Q::from_integer((*v).into())).collect()
}

/// One-Choice: every bin with probability 1/n.
fn one_choice(x: &[Q]) -> Vec<Q> {
    vec![q(1, x.len() as i64); x.len()]
}

/// Two-Choice by its definition: two bins `j`, `k` sampled uniformly with replacement, the ball
/// to the less loaded one, a tie broken by a fair coin (so `j = k` gives `j`).
fn two_choice(x: &[Q]) -> Vec<Q> {
    let n = x.len();
    let w = q(1, (n * n) as i64);
    let mut p = vec![Q::zero(); n];
    for j in 0..n {
        for k in 0..n {
            if x[j] < x[k] {
                p[j] += &w;
            } else if x[k] < x[j] {
                p[k] += &w;
            } else {
                p[j] += &w / Q::from_integer(2.into());
                p[k] += &w / Q::from_integer(2.into());
            }
        }
    }
    p
}

/// Two-Choice with ties broken by position: by rank (heaviest first, tied bins in index order)
/// rank r receives the ball with probability (2r − 1)/n².
fn two_choice_fixed(x: &[Q]) -> Vec<Q> {
    let n = x.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| x[b].cmp(&x[a]).then(a.cmp(&b)));
    let mut p = vec![Q::zero(); n];
    for (r, &bin) in order.iter().enumerate() {
        p[bin] = q(2 * r as i64 + 1, (n * n) as i64);
    }
    p
}

type Law = fn(&[Q]) -> Vec<Q>;

/// The law after `k` steps of unit balls, by enumerating every sequence of destinations.
fn steps(x: &[Q], k: usize, law: Law) -> Vec<(Q, Vec<Q>)> {
    let mut out = vec![(Q::one(), x.to_vec())];
    for _ in 0..k {
        let mut next = Vec::new();
        for (p, y) in &out {
            for (j, pj) in law(y).into_iter().enumerate() {
                if pj.is_zero() {
                    continue;
                }
                let mut z = y.clone();
                z[j] += Q::one();
                next.push((p * &pj, z));
            }
        }
        out = next;
    }
    out
}

fn mean(x: &[Q]) -> Q {
    x.iter().sum::<Q>() / Q::from_integer((x.len() as i64).into())
}
fn max(x: &[Q]) -> Q {
    x.iter().max().unwrap().clone()
}
fn min(x: &[Q]) -> Q {
    x.iter().min().unwrap().clone()
}
fn gap(x: &[Q]) -> Q {
    max(x) - mean(x)
}
fn spread(x: &[Q]) -> Q {
    max(x) - min(x)
}
fn upsilon(x: &[Q]) -> Q {
    let m = mean(x);
    x.iter().map(|v| (v - &m) * (v - &m)).sum()
}

/// An event of the state and the next state.
type Event = dyn Fn(&[Q], &[Q]) -> bool;

/// P[event] over `law` (the event of the state and the next state).
fn prob(law: &[(Q, Vec<Q>)], x: &[Q], event: &Event) -> Q {
    law.iter()
        .filter(|(_, y)| event(x, y))
        .map(|(p, _)| p.clone())
        .sum()
}

const TWO: &str = "[setting]\nprocesses = [\"two-choice\"]";
const ONE: &str = "[setting]\nprocesses = [\"one-choice\"]";

#[test]
#[allow(clippy::type_complexity)]
fn one_step_events_against_brute_force() {
    for x in [[2i64, 1, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0], [3, 3, 3, 1]] {
        let xq = qs(&x);
        let law = steps(&xq, 1, two_choice);
        let cases: [(&str, &Event); 5] = [
            ("P(gap' > gap)", &|a, b| gap(b) > gap(a)),
            ("P(gap' >= gap + 1/2)", &|a, b| gap(b) >= gap(a) + q(1, 2)),
            ("P(spread' < spread)", &|a, b| spread(b) < spread(a)),
            ("P(max_bins(x') >= 3 && min_bins(x') == 0)", &|_, b| {
                max(b) >= q(3, 1) && min(b).is_zero()
            }),
            // The bins keep their labels: one ball changes one load by one.
            ("P(sum((x' - x)^2) == 1)", &|_, _| true),
        ];
        for (expr, event) in cases {
            let want = prob(&law, &xq, event);
            assert_eq!(exact(TWO, expr, &x), want, "{expr} at {x:?}");
        }
    }
}

#[test]
fn gap_increase_of_two_choice_by_hand() {
    // gap' > gap iff the ball lands in a bin of largest load: both samples among the k such
    // bins, probability (k/n)². At (3, 3, 1, 0): k = 2, n = 4: 1/4; at (3, 1, 1, 0): 1/16.
    assert_eq!(exact(TWO, "P(gap' > gap)", &[3, 3, 1, 0]), q(1, 4));
    assert_eq!(exact(TWO, "P(gap' > gap)", &[3, 1, 1, 0]), q(1, 16));
    // One-Choice: k/n.
    assert_eq!(exact(ONE, "P(gap' > gap)", &[3, 3, 1, 0]), q(1, 2));
}

#[test]
fn expectations_of_the_next_state() {
    for x in [[2i64, 1, 0, 0], [1, 1, 0, 0], [5, 0, 2, 2]] {
        let xq = qs(&x);
        let law = steps(&xq, 1, two_choice);
        let e_gap: Q = law.iter().map(|(p, y)| p * gap(y)).sum();
        assert_eq!(exact(TWO, "E(gap')", &x), e_gap, "{x:?}");
        // E(Υ') by enumeration against the engine's E_Upsilon (closed form) and brute force.
        let e_ups: Q = law.iter().map(|(p, y)| p * upsilon(y)).sum();
        assert_eq!(exact(TWO, "E(Upsilon')", &x), e_ups);
        assert_eq!(exact(TWO, "E_Upsilon", &x), e_ups);
        // A value of both states: E[Σ (x'_i − x_i)·x_i] = Σ p_i x_i.
        let p = two_choice(&xq);
        let want: Q = p.iter().zip(&xq).map(|(a, b)| a * b).sum();
        assert_eq!(exact(TWO, "E(sum((x' - x) * x))", &x), want);
    }
}

#[test]
fn k_steps_against_brute_force() {
    // Two-Choice, n = 3: P2, P3 and E3 by the law after k steps against every sequence of
    // destinations (9 pairs a step).
    for x in [[0i64, 0, 0], [2, 1, 0], [1, 1, 0]] {
        let xq = qs(&x);
        for k in 2..=3usize {
            let law = steps(&xq, k, two_choice);
            let want = prob(&law, &xq, &|a, b| gap(b) >= gap(a) + q(1, 1));
            assert_eq!(exact(TWO, &format!("P{k}(gap' >= gap + 1)"), &x), want);
            let want = prob(&law, &xq, &|_, b| spread(b) <= q(1, 1));
            assert_eq!(exact(TWO, &format!("P{k}(spread' <= 1)"), &x), want);
            let e_max: Q = law.iter().map(|(p, y)| p * max(y)).sum();
            assert_eq!(exact(TWO, &format!("E{k}(max_bins(x'))"), &x), e_max);
            // The bins keep their labels over k steps: P[two balls in one bin] pairs x' with x.
            let want = prob(&law, &xq, &|a, b| {
                a.iter().zip(b).any(|(u, v)| v - u >= q(2, 1))
            });
            assert_eq!(
                exact(TWO, &format!("P{k}(max_bins(x' - x) >= 2)"), &x),
                want,
                "{k} at {x:?}"
            );
        }
    }
}

#[test]
fn two_choice_on_two_bins_by_hand() {
    // n = 2, the spread d: from d = 0 the ball makes d = 1; from d ≥ 1 both samples hit the
    // heavier bin with probability 1/4 (d + 1), else d − 1. From (0, 0):
    //   d1 = 1; d2 = 2 (1/4), 0 (3/4); d3 = 3 (1/16), 1 (15/16);
    //   d4 = 4 (1/64), 2 (3/64 + 15/64 = 18/64), 0 (45/64);
    //   d5 = 5 (1/256), 3 (3/256 + 18/256 = 21/256), 1 (54/256 + 180/256 = 234/256).
    // Υ = d²/2: E3 = (9·1 + 1·15)/16/2 = 3/4; E5 = (25 + 9·21 + 234)/256/2 = 448/512 = 7/8.
    assert_eq!(exact(TWO, "E3_Upsilon", &[0, 0]), q(3, 4));
    assert_eq!(exact(TWO, "E5_Upsilon", &[0, 0]), q(7, 8));
    assert_eq!(exact(TWO, "P5(spread' >= 3)", &[0, 0]), q(22, 256));
    assert_eq!(exact(TWO, "E5(spread'^2)/2", &[0, 0]), q(7, 8));
    // dE5 = E5 − Υ at (1, 0) (Υ = 1/2): from d = 1, five steps, by brute force.
    let law = steps(&qs(&[1, 0]), 5, two_choice);
    let e5: Q = law.iter().map(|(p, y)| p * upsilon(y)).sum();
    assert_eq!(exact(TWO, "E5_Upsilon", &[1, 0]), e5.clone());
    assert_eq!(exact(TWO, "dE5_Upsilon", &[1, 0]), &e5 - q(1, 2));
}

#[test]
fn k_step_routes_agree() {
    // E{k}_X for k > 2 goes through the law after k − 1 steps; E2_X through the tree of
    // outcomes. By the tower property E4 = E2[E2 at the state after two steps] = E[E3'].
    for x in [[0i64, 0, 0, 0], [3, 1, 0, 0], [2, 2, 1, 0]] {
        let a = exact(TWO, "E4_Upsilon", &x);
        assert_eq!(a, exact(TWO, "E2(E2_Upsilon')", &x), "{x:?}");
        assert_eq!(a, exact(TWO, "E(E3_Upsilon')", &x), "{x:?}");
        let law = steps(&qs(&x), 4, two_choice);
        let want: Q = law.iter().map(|(p, y)| p * upsilon(y)).sum();
        assert_eq!(a, want, "{x:?}");
    }
    // One-Choice adds exactly 1 − 1/n a step to Υ (E[Υ'] = Υ + 1 − 1/n): six steps at n = 3
    // add 6·2/3 = 4 at every state; and the brute force over 3⁶ sequences.
    for x in [[0i64, 0, 0], [4, 1, 0]] {
        let u = upsilon(&qs(&x));
        let law = steps(&qs(&x), 6, one_choice);
        let want: Q = law.iter().map(|(p, y)| p * upsilon(y)).sum();
        assert_eq!(want, &u + q(4, 1));
        assert_eq!(exact(ONE, "E6_Upsilon", &x), u + q(4, 1));
    }
}

#[test]
fn a_potential_defined_in_the_file_after_k_steps() {
    // A defined potential that reads ranks (not separable): the overload Σ_{y > 0} y after five
    // steps of Two-Choice at n = 3, against brute force.
    let frag =
        "[setting]\nprocesses = [\"two-choice\"]\n[potentials]\nOver = \"sum(y*(rank <= 1))\"";
    for x in [[0i64, 0, 0], [2, 0, 1]] {
        let law = steps(&qs(&x), 5, two_choice);
        let want: Q = law.iter().map(|(p, y)| p * gap(y)).sum();
        assert_eq!(exact(frag, "E5_Over", &x), want, "{x:?}");
    }
}

#[test]
fn batches_weights_and_tie_rules() {
    // A batch of two balls decided on the frozen loads: each ball independently by the
    // one-step law at the start of the batch.
    let batch = "[setting]\nprocesses = [\"two-choice\"]\nbatch = 2";
    for x in [[1i64, 0, 0], [2, 2, 0]] {
        let xq = qs(&x);
        let p = two_choice(&xq);
        let mut law = Vec::new();
        for (j, pj) in p.iter().enumerate() {
            for (k, pk) in p.iter().enumerate() {
                let mut y = xq.clone();
                y[j] += Q::one();
                y[k] += Q::one();
                law.push((pj * pk, y));
            }
        }
        let want = prob(&law, &xq, &|a, b| gap(b) > gap(a));
        assert_eq!(exact(batch, "P(gap' > gap)", &x), want, "{x:?}");
        let want = prob(&law, &xq, &|a, b| {
            a.iter().zip(b).any(|(u, v)| v - u == q(2, 1))
        });
        assert_eq!(exact(batch, "P(max_bins(x' - x) == 2)", &x), want);
    }
    // Weights 1/2 or 3/2 with probability 1/2 each: outcome (bin j, weight w).
    let weighted =
        "[setting]\nprocesses = [\"two-choice\"]\nweights = \"discrete(w=0.5;1.5,p=0.5;0.5)\"";
    let x = [2i64, 1, 1, 0];
    let xq = qs(&x);
    let mut law = Vec::new();
    for (j, pj) in two_choice(&xq).iter().enumerate() {
        for w in [q(1, 2), q(3, 2)] {
            let mut y = xq.clone();
            y[j] += &w;
            law.push((pj * q(1, 2), y));
        }
    }
    for (expr, event) in [
        (
            "P(gap' > gap)",
            &(|a: &[Q], b: &[Q]| gap(b) > gap(a)) as &dyn Fn(&[Q], &[Q]) -> bool,
        ),
        ("P(max_bins(x') >= 5/2)", &|_, b| max(b) >= q(5, 2)),
        ("P(W' == W + 3/2)", &|a, b| {
            b.iter().sum::<Q>() == a.iter().sum::<Q>() + q(3, 2)
        }),
    ] {
        assert_eq!(exact(weighted, expr, &x), prob(&law, &xq, event), "{expr}");
    }
    // Ties by position: the rank vector on the ranking with tied bins in index order.
    let fixed = "[setting]\nprocesses = [\"two-choice\"]\nties = \"fixed\"";
    for x in [[1i64, 1, 0, 0], [0, 0, 0, 0]] {
        let xq = qs(&x);
        for k in 1..=2 {
            let law = steps(&xq, k, two_choice_fixed);
            let want = prob(&law, &xq, &|a, b| b[0] > a[0]);
            assert_eq!(
                exact(
                    fixed,
                    &format!("P{k}(sum(x' * (i == 1)) > sum(x * (i == 1)))"),
                    &x
                ),
                want
            );
            let want = prob(&law, &xq, &|a, b| gap(b) > gap(a));
            assert_eq!(exact(fixed, &format!("P{k}(gap' > gap)"), &x), want);
        }
    }
}

#[test]
fn exponential_potentials_are_enclosed() {
    // P[Φ' ≥ (1 + t)Φ] with α = 1/2, t = 1/10: the comparison of two exponential sums. The
    // brute force in f64 (every margin below is above 10⁻³, far beyond rounding).
    let frag =
        "[setting]\nprocesses = [\"two-choice\"]\n[constants]\nalpha = \"1/2\"\nt = \"1/10\"";
    let phi = |x: &[Q]| {
        let m = balloc::exact::to_f64(&mean(x));
        x.iter()
            .map(|v| (0.5 * (balloc::exact::to_f64(v) - m)).exp())
            .sum::<f64>()
    };
    for x in [[2i64, 1, 0, 0], [3, 0, 0, 0], [0, 0, 0, 0]] {
        let xq = qs(&x);
        let mut want = 0.0;
        for (p, y) in steps(&xq, 1, two_choice) {
            let margin = phi(&y) - 1.1 * phi(&xq);
            assert!(margin.abs() > 1e-3, "{margin}");
            if margin >= 0.0 {
                want += balloc::exact::to_f64(&p);
            }
        }
        let xf: Vec<f64> = x.iter().map(|v| *v as f64).collect();
        let v = balloc::claim::evaluate(frag, "P(Phi' >= (1 + t)*Phi)", &xf).unwrap();
        assert!(v.exact.is_none(), "Φ' is not rational");
        let e = v.enclosure.expect("an enclosure");
        assert!(e.lo_f64() <= want && want <= e.hi_f64(), "{want} in {e}");
        assert!((v.float.to_f64() - want).abs() < 1e-15);
    }
}

#[test]
fn float_ties_are_decided_by_the_certified_domains() {
    // Weights 1/10 or 19/10: W' − W is 1/10 exactly with probability 1/2, but the float loads
    // (0.2 plus a tenth, rounded) give W' − W within rounding of 1/10. The float evaluation
    // re-decides such an event exactly, so its value is 1/2 as the exact one.
    let frag =
        "[setting]\nprocesses = [\"one-choice\"]\nweights = \"two-point(low=0.1,high=1.9,p=0.5)\"";
    let x = [0.2, 0.0, 0.7];
    let v = balloc::claim::evaluate(frag, "P(W' - W == 1/10)", &x).unwrap();
    assert_eq!(v.exact.unwrap(), q(1, 2));
    assert_eq!(v.float.to_f64(), 0.5);
}

const HEAD: &str = crate::common::head!("inequality");

fn err_of(name: &str, body: &str) -> String {
    common::build_error("next-law-bad", name, body)
}

#[test]
fn bad_input_is_one_line_naming_file_line_and_column() {
    let setting = "[setting]\nprocesses = [\"two-choice\"]\n";
    let dom = "[domain]\nn = [4]\nrandom = 2\n";
    let case = |name: &str, expr: &str| {
        let e = err_of(
            name,
            &format!("{HEAD}{setting}[constants]\nc = 1\n[claim]\nexpr = \"{expr}\"\n{dom}"),
        );
        assert!(!e.contains('\n'), "{e}");
        assert!(e.contains(&format!("{name}.toml:13:")), "{e}");
        e
    };
    // An unknown name inside P, with its column (`expr = "` is 8 characters, `P(` 2 more).
    let e = case("unknown", "P(gapp' > 1) <= 1");
    assert!(
        e.contains("unknown.toml:13:11:") && e.contains("did you mean `gap`"),
        "{e}"
    );
    // A prime outside P; a primed constant; P without a prime; k beyond the limit.
    let e = case("outside", "gap' <= 1");
    assert!(e.contains("use it inside P(...) or E(...)"), "{e}");
    let e = case("constant", "P(gap' > c') <= 1");
    assert!(e.contains("the same at every state"), "{e}");
    let e = case("noprime", "P(gap > 1) <= 1");
    assert!(e.contains("reads no primed name"), "{e}");
    let e = case("steps", "P300(gap' > 1) <= 1");
    assert!(e.contains("limits::NEXT_STEPS"), "{e}");
    let e = case("esteps", "E300_Upsilon <= 1");
    assert!(e.contains("limits::NEXT_STEPS"), "{e}");
    // Without a process there is no next state.
    let e = err_of(
        "noprocess",
        &format!("{HEAD}[claim]\nexpr = \"P(gap' > 1) <= 1\"\n{dom}"),
    );
    assert!(
        e.contains("noprocess.toml:") && e.contains("law of the next state"),
        "{e}"
    );
}

#[test]
fn too_many_states_is_an_error_naming_the_limit() {
    // Ties by position keep the bins apart (no merging up to permutations): a batch of 6 balls
    // into 16 bins has C(21, 6) = 54264 outcome states, two batches far more than 10⁵.
    let e = err_of(
        "states",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"one-choice\"]\nbatch = 6\nties = \"fixed\"\n[claim]\nexpr = \"P2(max_bins(x') >= 0) <= 1\"\n[domain]\nn = [16]\nrandom = 1\n"
        ),
    );
    assert!(!e.contains('\n'), "{e}");
    assert!(
        e.contains("states.toml:") && e.contains("limits::NEXT_STATES"),
        "{e}"
    );
}
