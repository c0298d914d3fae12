//! The claim language: every number domain of the one evaluator agrees with the others where
//! both apply (proptest over random expression trees and random rational inputs), and the
//! expectations of potentials defined in files agree with brute-force enumeration of the step
//! written out here and with Monte Carlo.

use balloc::enclosure::Interval;
use balloc::exact::Q;
use balloc::lang::{Domain, Enclosure, EvalError, Exact, ExpSums, Float, Slots, compile_value};
use num_traits::ToPrimitive;
use proptest::prelude::*;

/// A random expression over `a`, `b`, `c` with the operations every domain has, and (with
/// `exp`) the ones only some have.
fn expr(depth: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        Just("a".to_string()),
        Just("b".to_string()),
        Just("c".to_string()),
        (-9i32..10).prop_map(|k| format!("{k}")),
        (1i32..9, 1i32..9).prop_map(|(p, q)| format!("({p}/{q})")),
    ];
    leaf.prop_recursive(depth, 24, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("({x} + {y})")),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("({x} - {y})")),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("({x} * {y})")),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("({x} / {y})")),
            (inner.clone(), 0u32..4).prop_map(|(x, k)| format!("({x})^{k}")),
            inner.clone().prop_map(|x| format!("abs({x})")),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("max({x}, {y})")),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("({x} <= {y})")),
            inner.clone().prop_map(|x| format!("exp(({x})/8)")),
        ]
    })
    .boxed()
}

fn rational() -> impl Strategy<Value = Q> {
    (-40i64..41, 1i64..9).prop_map(|(p, q)| Q::new(p.into(), q.into()))
}

fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn the_domains_agree(text in expr(4), a in rational(), b in rational(), c in rational()) {
        let e = compile_value(&text, &["a", "b", "c"]).unwrap();
        let vals = [a, b, c];
        let exact = e.eval(&Exact, &Slots(&vals), None);
        let fl: Vec<_> = vals.iter().map(|v| Float.rational(v).unwrap()).collect();
        let float = e.eval(&Float, &Slots(&fl), None);
        let enc = Enclosure { prec: 256 };
        let iv: Vec<Interval> = vals.iter().map(|v| enc.rational(v).unwrap()).collect();
        let interval = e.eval(&enc, &Slots(&iv), None);
        let sums = ExpSums::default();
        let es: Vec<_> = vals.iter().map(|v| sums.rational(v).unwrap()).collect();
        let expsum = e.eval(&sums, &Slots(&es), None);
        // Undefined (division by zero) in one domain is undefined in every domain that decides
        // it: never a number in one and an error in another.
        if let Err(EvalError::Undefined(_)) = exact {
            prop_assert!(float.is_err(), "{text}: exact undefined, float {float:?}");
        }
        if let Ok(q) = &exact {
            let x = q.to_f64().unwrap();
            // Exact rationals against the float domain and the enclosures.
            if let Ok(f) = &float {
                prop_assert!(close(f.v.to_f64(), x), "{text}: float {} vs exact {x}", f.v);
            }
            if let Ok(iv) = &interval {
                prop_assert!(iv.contains(q), "{text}: {iv} does not contain {q}");
            }
            if let Ok(s) = &expsum {
                prop_assert_eq!(s.as_rational(), Some(q.clone()), "{}", text);
            }
        }
        // Exponential sums (exact) against the enclosures and the floats.
        if let Ok(s) = &expsum {
            let v = s.to_f64();
            if let Ok(iv) = &interval
                && v.is_finite() && v.abs() < 1e12
            {
                prop_assert!(
                    iv.lo_f64() - 1e-9 * (1.0 + v.abs()) <= v && v <= iv.hi_f64() + 1e-9 * (1.0 + v.abs()),
                    "{text}: expsum {v} outside {iv}"
                );
            }
            if let Ok(f) = &float
                && v.is_finite() && v.abs() < 1e12
            {
                prop_assert!(close(f.v.to_f64(), v), "{text}: float {} vs expsum {v}", f.v);
            }
        }
        // Floats against enclosures where both exist (transcendental parts included).
        if let (Ok(f), Ok(iv)) = (&float, &interval) {
            let v = f.v.to_f64();
            if v.is_finite() && v.abs() < 1e12 && iv.rel_width() < 1e-20 {
                prop_assert!(close(v, iv.mid_f64()), "{text}: float {v} vs enclosure {iv}");
            }
        }
    }
}

/// The expectation of a defined potential after one step, by brute force: enumerate the exact
/// outcomes of the process's step law, move the loads, evaluate the potential directly.
fn brute_one_step(process: &str, x: &[f64], f: &dyn Fn(&[f64]) -> f64) -> f64 {
    use balloc::loads::{Loads, TieRule};
    let p = balloc::process::parse(process).unwrap();
    let law = p
        .step_law(&Loads::new(x.to_vec()).unwrap(), TieRule::Random)
        .unwrap();
    let mut acc = 0.0;
    for o in &law.outcomes {
        let mut y = x.to_vec();
        y[o.bin] += o.balls as f64;
        acc += o.prob * f(&y);
    }
    acc
}

/// Φ over the overloaded bins at loads `x`, written out: Σ_{xᵢ ≥ W/n} e^{α(xᵢ − W/n)}.
fn phi_over(x: &[f64], alpha: f64) -> f64 {
    let mean = x.iter().sum::<f64>() / x.len() as f64;
    x.iter()
        .map(|v| v - mean)
        .filter(|y| *y >= 0.0)
        .map(|y| (alpha * y).exp())
        .sum()
}

#[test]
fn defined_potential_expectation_agrees_with_brute_force() {
    let frag = |p: &str| {
        format!(
            "[setting]\nprocesses = [\"{p}\"]\n[potentials]\nOmega = \"sum(exp(alpha*y), y >= 0)\"\n\
             [constants]\nalpha = \"1/3\""
        )
    };
    for p in [
        "two-choice",
        "one-plus-beta(beta=0.5)",
        "mean-thinning",
        "twinning",
    ] {
        for x in [
            vec![0.0, 0.0, 0.0],
            vec![3.0, 0.0, 1.0, 1.0],
            vec![2.0, 2.0, 0.0, 5.0, 1.0],
            vec![0.5, 1.25, 0.0],
        ] {
            let v = balloc::claim::evaluate(&frag(p), "E_Omega", &x).unwrap();
            let want = brute_one_step(p, &x, &|y| phi_over(y, 1.0 / 3.0));
            let got = v.float.to_f64();
            assert!(
                (got - want).abs() <= 1e-12 * want.abs().max(1.0),
                "{p} at {x:?}: engine {got}, brute force {want}"
            );
            // The enclosure (separable route in intervals) contains the brute-force value up
            // to its own float rounding.
            let iv = v.enclosure.expect("an enclosure");
            assert!(
                iv.lo_f64() - 1e-12 <= want && want <= iv.hi_f64() + 1e-12,
                "{p} at {x:?}: {iv} vs {want}"
            );
        }
    }
}

#[test]
fn defined_potential_batch_expectation_agrees_with_enumeration_and_monte_carlo() {
    use rand::SeedableRng;
    // A batch of b = 3 balls with the law frozen at x: enumerate the 3^n … sequences by hand
    // (n = 3 bins, Two-Choice, p = (1, 3, 5)/9 by rank).
    let x = [2.0, 0.0, 1.0];
    let frag = "[setting]\nprocesses = [\"two-choice\"]\nbatch = 3\n[potentials]\n\
                Top = \"sum(y^2, y > 0)\"";
    let v = balloc::claim::evaluate(frag, "E_Top", &x).unwrap();
    // Per-bin probabilities: bin 0 (heaviest) 1/9, bin 2 3/9, bin 1 5/9.
    let p = [1.0 / 9.0, 5.0 / 9.0, 3.0 / 9.0];
    let top = |z: &[f64]| {
        let m = z.iter().sum::<f64>() / 3.0;
        z.iter()
            .map(|v| v - m)
            .filter(|y| *y > 0.0)
            .map(|y| y * y)
            .sum::<f64>()
    };
    let mut want = 0.0;
    for a in 0..3 {
        for b in 0..3 {
            for c in 0..3 {
                let mut z = x.to_vec();
                z[a] += 1.0;
                z[b] += 1.0;
                z[c] += 1.0;
                want += p[a] * p[b] * p[c] * top(&z);
            }
        }
    }
    let exact = v
        .exact
        .expect("a rational potential has an exact expectation");
    assert!(
        (exact.to_f64().unwrap() - want).abs() < 1e-12,
        "{exact} vs {want}"
    );
    assert!((v.float.to_f64() - want).abs() < 1e-12);
    // Monte Carlo: 200 000 batches sampled from the per-bin probabilities; the mean is within
    // five standard errors.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let (mut s, mut s2) = (0.0, 0.0);
    let k = 200_000;
    for _ in 0..k {
        let mut z = x.to_vec();
        for _ in 0..3 {
            let u: f64 = rand::RngExt::random(&mut rng);
            let bin = if u < p[0] {
                0
            } else if u < p[0] + p[1] {
                1
            } else {
                2
            };
            z[bin] += 1.0;
        }
        let t = top(&z);
        s += t;
        s2 += t * t;
    }
    let mean = s / k as f64;
    let se = ((s2 / k as f64 - mean * mean) / k as f64).sqrt();
    assert!(
        (mean - want).abs() < 5.0 * se,
        "Monte Carlo {mean} ± {se} vs {want}"
    );
}

#[test]
fn two_step_expectation_agrees_with_enumeration() {
    // E2_X by the engine against a hand enumeration of two steps of Two-Choice, each step's law
    // recomputed at the intermediate state, for X = Σ_{y > 0} y (the overload).
    let x = [1.0, 0.0, 0.0, 2.0];
    let frag = "[setting]\nprocesses = [\"two-choice\"]\n[potentials]\nOver = \"sum(y, y > 0)\"";
    let over = |z: &[f64]| {
        let m = z.iter().sum::<f64>() / z.len() as f64;
        z.iter().map(|v| v - m).filter(|y| *y > 0.0).sum::<f64>()
    };
    let want = brute_two_steps("two-choice", &x, &over);
    let v = balloc::claim::evaluate(frag, "E2_Over", &x).unwrap();
    let exact = v.exact.expect("rational").to_f64().unwrap();
    assert!((exact - want).abs() < 1e-12, "{exact} vs {want}");
}

fn brute_two_steps(process: &str, x: &[f64], f: &dyn Fn(&[f64]) -> f64) -> f64 {
    use balloc::loads::{Loads, TieRule};
    let p = balloc::process::parse(process).unwrap();
    let law = p
        .step_law(&Loads::new(x.to_vec()).unwrap(), TieRule::Random)
        .unwrap();
    let mut acc = 0.0;
    for o in &law.outcomes {
        let mut y = x.to_vec();
        y[o.bin] += o.balls as f64;
        acc += o.prob * brute_one_step(process, &y, f);
    }
    acc
}

use crate::common;

const HEAD: &str = crate::common::head!("inequality");

fn err_of(name: &str, body: &str) -> String {
    common::build_error("lang-bad", name, body)
}

#[test]
fn bad_claims_are_one_line_errors_naming_file_line_and_column() {
    let dom = "[domain]\nn = [4]\nrandom = 4\n";
    let one_line = |e: &str| assert!(!e.contains('\n') && e.len() < 1500, "{e}");
    // An expression nested too deeply: at most 128 levels of parentheses.
    let deep = format!("{}1{}", "(".repeat(200), ")".repeat(200));
    let e = err_of(
        "deep",
        &format!("{HEAD}[claim]\nexpr = \"n <= {deep}\"\n{dom}"),
    );
    one_line(&e);
    assert!(
        e.contains("deep.toml:9:") && e.contains("nested deeper"),
        "{e}"
    );
    // Too large: a flat sum of 5000 terms is beyond the tree depth the evaluator accepts.
    let big = vec!["1"; 5000].join("+");
    let e = err_of(
        "large",
        &format!("{HEAD}[claim]\nexpr = \"n <= {big}\"\n{dom}"),
    );
    one_line(&e);
    assert!(
        e.contains("large.toml:9:") && e.contains("too large"),
        "{e}"
    );
    // A name the setting does not provide: a per-bin name outside a binder, at its column
    // (line 9, `expr = "` is 8 characters, `n <= ` 5 more: column 14).
    let e = err_of(
        "perbin",
        &format!("{HEAD}[claim]\nexpr = \"n <= y\"\n{dom}"),
    );
    one_line(&e);
    assert!(
        e.contains("perbin.toml:9:14:") && e.contains("per-bin"),
        "{e}"
    );
    // Process quantities without a process.
    let e = err_of(
        "noproc",
        &format!("{HEAD}[claim]\nexpr = \"E_Upsilon <= n\"\n{dom}"),
    );
    assert!(
        e.contains("noproc.toml:9:") && e.contains("processes"),
        "{e}"
    );
    // A constant part that is not a finite number: 1/0, ln(0).
    let e = err_of(
        "div0",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[claim]\nexpr = \"dE_Upsilon <= 1/(n - n)\"\n{dom}"
        ),
    );
    one_line(&e);
    assert!(
        e.contains("div0.toml:") && e.contains("not a finite number"),
        "{e}"
    );
    let e = err_of(
        "ln0",
        &format!("{HEAD}[constants]\nc = \"ln(n - 4)\"\n[claim]\nexpr = \"n <= c\"\n{dom}"),
    );
    one_line(&e);
    assert!(e.contains("ln0.toml:9:") && e.contains("`c`"), "{e}");
    // A defined potential whose expectation needs an enumeration beyond the limit: max_bins is
    // not separable, a batch of 40 over 4 bins has C(43, 3) = 12341 outcome states … and over
    // 16 bins C(55, 15) ≈ 4.1·10¹³.
    let e = err_of(
        "enum",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\nbatch = 40\n[potentials]\nTop = \"max_bins(y)\"\n\
             [claim]\nexpr = \"E_Top <= n\"\n[domain]\nn = [16]\nrandom = 4\n"
        ),
    );
    one_line(&e);
    assert!(
        e.contains("enum.toml:") && e.contains("outcome states"),
        "{e}"
    );
    // A potential defined through itself.
    let e = err_of(
        "cycle",
        &format!(
            "{HEAD}[potentials]\nA = \"B + 1\"\nB = \"A * 2\"\n[claim]\nexpr = \"A <= n\"\n{dom}"
        ),
    );
    assert!(
        e.contains("cycle.toml:") && e.contains("through itself"),
        "{e}"
    );
    // A batch that is not an integer.
    let e = err_of(
        "batch",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\nbatch = \"n/3\"\n[claim]\nexpr = \"dE_Upsilon <= n\"\n{dom}"
        ),
    );
    assert!(e.contains("batch.toml:") && e.contains("integer"), "{e}");
}
