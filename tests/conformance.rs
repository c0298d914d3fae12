//! Registry-wide conformance: every registered process (at its `example` spec) and every
//! registered potential is run through the registry-wide laws ("a registry-wide conformance test
//! runs every registered item through its laws").
//!
//! * step laws are probability distributions (non-negative, summing to 1) at many load vectors,
//!   with and without ties, under both tie rules;
//! * declared monotonicity: rank-based `p` is non-decreasing in rank (lighter bins are favoured),
//!   and for every process a strictly heavier bin never expects more balls than a lighter one;
//! * the sampler (`Process::sample`) agrees with the step law: a chi-square goodness-of-fit test
//!   (statrs quantile, fixed ChaCha seed) on the joint law of (bin, balls);
//! * parameters out of range and unknown parameter keys are rejected;
//! * for rank-based processes the `f64` vector equals the exact rational vector rounded to `f64`.

use balloc::loads::{Loads, TieRule};
use balloc::process::{self, Process};
use balloc::{potential, spec::Spec};
use num_traits::ToPrimitive;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use statrs::distribution::{ChiSquared, ContinuousCDF};
use std::collections::BTreeMap;

/// Load vectors exercising ties, a single bin, fractional loads and a large offset.
fn load_vectors() -> Vec<Vec<f64>> {
    let mut v = vec![
        vec![0.0],
        vec![5.0],
        vec![0.0, 0.0],
        vec![1.0, 0.0],
        vec![0.0, 0.0, 0.0, 0.0],
        vec![3.0, 0.0, 1.0, 0.0],
        vec![2.0, 2.0, 2.0, 0.0, 0.0, 7.0],
        vec![4.0, 1.0, 1.0, 4.0, 1.0, 4.0, 0.0, 0.0],
        vec![1000.0, 1001.0, 1000.0, 999.0],
        vec![10.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    ];
    // A deterministic pseudo-random integer vector with many ties (n = 40, values 0..5).
    let mut s: u64 = 12345;
    let mut w = Vec::new();
    for _ in 0..40 {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        w.push(((s >> 33) % 6) as f64);
    }
    v.push(w);
    v
}

/// Processes whose step law needs integer loads (Packing), a δn that is an integer (Quantile) or
/// a graph that exists at this n (graphical: a cycle needs n ≥ 2) return an error on other
/// inputs; everything else must succeed.
fn law_or_skip(p: &dyn Process, x: &Loads, ties: TieRule) -> Option<process::StepLaw> {
    match p.step_law(x, ties) {
        Ok(l) => Some(l),
        Err(e) => {
            let name = p.info().name;
            assert!(
                name == "quantile" || name == "packing" || name == "graphical",
                "{} failed at {:?}: {e}",
                p.spec(),
                x.as_slice()
            );
            None
        }
    }
}

fn examples() -> Vec<Box<dyn Process>> {
    process::REGISTRY
        .iter()
        .map(|i| process::parse(i.example).unwrap_or_else(|e| panic!("{}: {e}", i.example)))
        .collect()
}

#[test]
fn registry_names_are_unique_and_examples_parse() {
    let mut seen = std::collections::HashSet::new();
    for i in process::REGISTRY {
        for name in std::iter::once(&i.name).chain(i.aliases.iter()) {
            assert!(seen.insert(*name), "process name `{name}` registered twice");
        }
        let p = process::parse(i.example).unwrap();
        assert_eq!(p.info().name, i.name);
        // The canonical spec parses back to the same process.
        assert_eq!(process::parse(&p.spec()).unwrap().spec(), p.spec());
    }
    for i in potential::REGISTRY {
        for name in std::iter::once(&i.name).chain(i.aliases.iter()) {
            assert!(
                seen.insert(*name),
                "potential name `{name}` registered twice"
            );
        }
        let p = potential::parse(i.example).unwrap();
        assert_eq!(p.info().name, i.name);
        assert_eq!(potential::parse(&p.spec()).unwrap().spec(), p.spec());
    }
}

#[test]
fn step_laws_are_probability_distributions() {
    let mut checked = 0;
    for p in examples() {
        for x in load_vectors() {
            let x = Loads::new(x).unwrap();
            for ties in [TieRule::Random, TieRule::Fixed] {
                let Some(law) = law_or_skip(p.as_ref(), &x, ties) else {
                    continue;
                };
                assert_eq!(law.n, x.n());
                let mut s = 0.0;
                for o in &law.outcomes {
                    assert!(o.prob >= 0.0, "{}: negative probability {o:?}", p.spec());
                    assert!(
                        o.bin < x.n() && o.balls >= 1,
                        "{}: bad outcome {o:?}",
                        p.spec()
                    );
                    s += o.prob;
                }
                assert!(
                    (s - 1.0).abs() < 1e-12,
                    "{} at {:?}: probabilities sum to {s}",
                    p.spec(),
                    x.as_slice()
                );
                checked += 1;
            }
        }
    }
    // Every process is checked at most vectors (Quantile(1/4) only where 4 | n, Packing only on
    // integer loads, which all of these are).
    assert!(checked > 150, "only {checked} laws checked");
}

#[test]
fn rank_vectors_are_distributions_non_decreasing_in_rank() {
    for p in examples() {
        if !p.info().rank_based {
            assert!(p.rank_probabilities(4).unwrap().is_none());
            continue;
        }
        for n in [1usize, 2, 4, 8, 12, 40, 100, 1000] {
            let v = match p.rank_probabilities(n) {
                Ok(v) => v.unwrap(),
                Err(_) => {
                    assert_eq!(p.info().name, "quantile");
                    continue;
                }
            };
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|&q| q >= 0.0));
            assert!((v.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{}", p.spec());
            for i in 1..n {
                assert!(
                    v[i] >= v[i - 1],
                    "{} at n = {n}: p_{} = {} < p_{} = {}",
                    p.spec(),
                    i + 1,
                    v[i],
                    i,
                    v[i - 1]
                );
            }
        }
    }
}

#[test]
fn heavier_bins_expect_no_more_balls() {
    for p in examples() {
        if !p.info().monotone {
            continue;
        }
        for x in load_vectors() {
            let x = Loads::new(x).unwrap();
            for ties in [TieRule::Random, TieRule::Fixed] {
                let Some(law) = law_or_skip(p.as_ref(), &x, ties) else {
                    continue;
                };
                let e = law.per_bin_expected_balls();
                let xs = x.as_slice();
                for i in 0..x.n() {
                    for j in 0..x.n() {
                        if xs[i] > xs[j] {
                            assert!(
                                e[i] <= e[j] + 1e-15,
                                "{} ({ties:?}) at {xs:?}: bin {i} (load {}) expects {} balls, \
                                 lighter bin {j} (load {}) only {}",
                                p.spec(),
                                xs[i],
                                e[i],
                                xs[j],
                                e[j]
                            );
                        }
                    }
                }
                // Under random ties, equal loads expect equal numbers of balls.
                if ties == TieRule::Random {
                    for i in 0..x.n() {
                        for j in 0..x.n() {
                            if xs[i] == xs[j] {
                                assert!((e[i] - e[j]).abs() < 1e-15, "{}", p.spec());
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Pearson's chi-square statistic of `counts` against the law `probs` (over the same cells), and
/// the number of cells with positive probability.
fn chi_square(
    counts: &BTreeMap<(usize, u32), u64>,
    probs: &BTreeMap<(usize, u32), f64>,
) -> (f64, usize) {
    let total: u64 = counts.values().sum();
    let mut stat = 0.0;
    let mut cells = 0;
    for (k, &p) in probs {
        if p <= 0.0 {
            continue;
        }
        cells += 1;
        let expected = p * total as f64;
        let o = *counts.get(k).unwrap_or(&0) as f64;
        stat += (o - expected).powi(2) / expected;
    }
    for k in counts.keys() {
        assert!(
            probs.get(k).is_some_and(|&p| p > 0.0),
            "the sampler produced the impossible outcome {k:?}"
        );
    }
    (stat, cells)
}

#[test]
fn sampler_agrees_with_step_law() {
    const DRAWS: u64 = 40_000;
    // Vectors with ties and with under- and overloaded bins (integer, for Packing; n = 4 or 8 so
    // that Quantile(1/4) is defined).
    let vectors = [
        vec![3.0, 0.0, 1.0, 0.0],
        vec![4.0, 1.0, 1.0, 4.0, 1.0, 4.0, 0.0, 2.0],
    ];
    let mut tests = 0;
    for (pi, p) in examples().into_iter().enumerate() {
        for (vi, x) in vectors.iter().enumerate() {
            let x = Loads::new(x.clone()).unwrap();
            let ranking = x.ranking();
            for (ti, ties) in [TieRule::Random, TieRule::Fixed].into_iter().enumerate() {
                let law = p.step_law(&x, ties).unwrap();
                let mut probs: BTreeMap<(usize, u32), f64> = BTreeMap::new();
                for o in &law.outcomes {
                    *probs.entry((o.bin, o.balls)).or_default() += o.prob;
                }
                let mut rng = ChaCha8Rng::seed_from_u64(1000 + (pi * 10 + vi * 2 + ti) as u64);
                let mut counts: BTreeMap<(usize, u32), u64> = BTreeMap::new();
                for _ in 0..DRAWS {
                    *counts
                        .entry(p.sample(&x, &ranking, ties, &mut rng))
                        .or_default() += 1;
                }
                let (stat, cells) = chi_square(&counts, &probs);
                if cells < 2 {
                    continue;
                }
                // Significance 1e-4 per test; with ~40 tests the family-wise false-alarm rate is
                // below 0.5% (the seeds are fixed, so the outcome is reproducible).
                let crit = ChiSquared::new((cells - 1) as f64)
                    .unwrap()
                    .inverse_cdf(1.0 - 1e-4);
                assert!(
                    stat <= crit,
                    "{} ({ties:?}) at {:?}: chi-square {stat:.2} > {crit:.2} ({cells} cells)",
                    p.spec(),
                    x.as_slice()
                );
                tests += 1;
            }
        }
    }
    assert_eq!(tests, process::REGISTRY.len() * 4);
}

#[test]
fn sampler_detects_a_wrong_law() {
    // The chi-square test above has power: Two-Choice samples checked against One-Choice's
    // uniform law at loads (3, 0, 1, 0) are rejected.
    let two = process::parse("two-choice").unwrap();
    let one = process::parse("one-choice").unwrap();
    let x = Loads::new(vec![3.0, 0.0, 1.0, 0.0]).unwrap();
    let r = x.ranking();
    let law = one.step_law(&x, TieRule::Random).unwrap();
    let probs: BTreeMap<(usize, u32), f64> = law
        .outcomes
        .iter()
        .map(|o| ((o.bin, o.balls), o.prob))
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut counts = BTreeMap::new();
    for _ in 0..40_000 {
        *counts
            .entry(two.sample(&x, &r, TieRule::Random, &mut rng))
            .or_insert(0u64) += 1;
    }
    let (stat, cells) = chi_square(&counts, &probs);
    let crit = ChiSquared::new((cells - 1) as f64)
        .unwrap()
        .inverse_cdf(1.0 - 1e-4);
    assert!(stat > crit);
}

#[test]
fn out_of_range_parameters_are_rejected() {
    for bad in [
        "one-plus-beta(beta=1.5)",
        "one-plus-beta(beta=-0.1)",
        "one-plus-beta(beta=nan)",
        "d-choice(d=0)",
        "d-choice(d=-1)",
        "d-choice(d=2.5)",
        "quantile(delta=0)",
        "quantile(delta=1.5)",
        "quantile(delta=-0.25)",
        "twinning(w_minus=0)",
        "twinning(w_plus=1.5)",
        "two-thinning",
        "two-thinning(threshold=inf)",
        "mean-thinning(boundary=sideways)",
        "mean-drift(delta=0)",
        "mean-drift(delta=1.5)",
        "mean-drift(delta=nan)",
        "no-such-process",
        "two-choice(",
    ] {
        assert!(process::parse(bad).is_err(), "`{bad}` was accepted");
    }
    // Boundary values are accepted.
    for ok in [
        "one-plus-beta(beta=0)",
        "one-plus-beta(beta=1)",
        "d-choice(d=1)",
        "quantile(delta=1)",
    ] {
        assert!(process::parse(ok).is_ok(), "`{ok}` was rejected");
    }
    // δn not an integer: Quantile(1/4) at n = 6.
    let q = process::parse("quantile(delta=0.25)").unwrap();
    let e = q.rank_probabilities(6).unwrap_err().to_string();
    assert!(e.contains("delta"), "{e}");
    assert!(q.rank_probabilities_exact(6).is_err());
    assert!(
        q.step_law(&Loads::zeros(6).unwrap(), TieRule::Random)
            .is_err()
    );
    for bad in [
        "phi(alpha=0)",
        "psi(alpha=-1)",
        "gamma(alpha=-0.5)",
        "gamma(alpha=inf)",
        "gamma",
        "quadratic(alpha=1)",
        "no-such-potential",
    ] {
        assert!(potential::parse(bad).is_err(), "`{bad}` was accepted");
    }
}

#[test]
fn unknown_parameter_keys_are_rejected() {
    for i in process::REGISTRY {
        // The example with one extra, unknown key.
        let spec = Spec::parse(i.example).unwrap();
        let mut params: Vec<String> = spec
            .params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        params.push("bogus=1".into());
        let text = format!("{}({})", spec.name, params.join(","));
        let e = process::parse(&text).unwrap_err().to_string();
        assert!(e.contains("bogus"), "{text}: {e}");
    }
    for i in potential::REGISTRY {
        let spec = Spec::parse(i.example).unwrap();
        let mut params: Vec<String> = spec
            .params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        params.push("bogus=1".into());
        let text = format!("{}({})", spec.name, params.join(","));
        let e = potential::parse(&text).unwrap_err().to_string();
        assert!(e.contains("bogus"), "{text}: {e}");
    }
}

#[test]
fn rank_vectors_match_exact_rationals() {
    for p in examples() {
        if !p.info().rank_based {
            assert!(p.rank_probabilities_exact(4).unwrap().is_none());
            continue;
        }
        for n in [1usize, 2, 3, 4, 8, 12, 40, 100, 1000] {
            let (Ok(f), Ok(e)) = (p.rank_probabilities(n), p.rank_probabilities_exact(n)) else {
                assert_eq!(p.info().name, "quantile");
                continue;
            };
            let (f, e) = (f.unwrap(), e.unwrap());
            assert_eq!(f.len(), e.len());
            let one = balloc::exact::Q::from_integer(1.into());
            assert_eq!(e.iter().sum::<balloc::exact::Q>(), one, "{}", p.spec());
            for (i, (a, r)) in f.iter().zip(&e).enumerate() {
                let b = r.to_f64().unwrap();
                // The f64 formulas are a few roundings away from the correctly rounded rational.
                assert!(
                    (a - b).abs() <= 4.0 * f64::EPSILON * b,
                    "{} n = {n} rank {}: f64 {a} vs exact {r} = {b}",
                    p.spec(),
                    i + 1
                );
            }
        }
    }
}

#[test]
fn potentials_agree_with_their_per_bin_terms() {
    for i in potential::REGISTRY {
        let pot = potential::parse(i.example).unwrap();
        for x in load_vectors() {
            let x = Loads::new(x).unwrap();
            let Some(sum) = x
                .normalized()
                .iter()
                .map(|&y| pot.term(y))
                .sum::<Option<f64>>()
            else {
                continue;
            };
            let v = pot.value(&x).to_f64_checked().unwrap();
            assert!(
                (v - sum).abs() <= 1e-12 * sum.abs().max(1.0),
                "{}",
                pot.spec()
            );
        }
    }
}

/// Every vector the engine builds sums to 1 exactly: the exact rank vectors of the rank-based
/// processes, the vectors of the `[setting.vectors]` quantifier (the extremal q of eq. (3.2),
/// the step vectors, the random boundary vectors), and the prelude's q in the `Fq_…` set sums.
#[test]
fn every_vector_the_engine_builds_sums_to_one() {
    use balloc::exact::Q;
    use num_traits::{One, Zero};
    for p in examples() {
        if !p.info().rank_based {
            continue;
        }
        for n in [1usize, 2, 3, 4, 7, 12, 40] {
            if let Ok(Some(q)) = p.rank_probabilities_exact(n) {
                let s = q.iter().fold(Q::zero(), |a, b| a + b);
                assert_eq!(s, Q::one(), "{} at n = {n}", p.spec());
            }
        }
    }
    let r = |s: &str| balloc::spec::parse_ratio(s).unwrap();
    for (n, delta) in [
        (4usize, "1/4"),
        (6, "1/3"),
        (10, "3/10"),
        (12, "1/2"),
        (20, "3/4"),
    ] {
        for eps in ["1/10", "1/4"] {
            let (d, e, c2) = (r(delta), r(eps), r("3"));
            let vs =
                balloc::claim::kind::inequality::vectors::vectors(n, &d, &e, &c2, 8, 7).unwrap();
            assert!(vs.len() >= 2);
            let k = (d.clone() * Q::from_integer((n as i64).into()))
                .to_integer()
                .to_usize()
                .unwrap();
            for v in vs {
                let balloc::claim::case::Alloc::Vector { exact, label, .. } = v else {
                    panic!("a vector")
                };
                let s = exact.iter().fold(Q::zero(), |a, b| a + b);
                assert_eq!(s, Q::one(), "{label} at n = {n}, δ = {delta}");
                // Sorted (non-decreasing by rank) and C1: Σ_{i ≤ δn} pᵢ ≤ (1 − ε)δ.
                assert!(exact.windows(2).all(|w| w[0] <= w[1]), "{label}");
                let head = exact[..k].iter().fold(Q::zero(), |a, b| a + b);
                assert!(head <= (Q::one() - e.clone()) * d.clone(), "{label}");
            }
        }
    }
    // The prelude's q with the file's delta and eps: at the balanced state y ≡ 0,
    // Fq_Phi_All = Σ α·e⁰·(qᵢ − 1/n) = α(Σ qᵢ − 1), so it is 0 exactly iff q sums to 1
    // (δn integral: δ = 1/3 at n = 6).
    let claim = |n: usize, delta: &str| {
        format!(
            "title = \"q\"\nkind = \"inequality\"\nexpected = \"holds\"\nstatement = \"x\"\n[source]\nlocator = \"test\"\nprovenance = \"derived\"\n[constants]\nalpha = 1\ndelta = \"{delta}\"\neps = \"1/10\"\n[claim]\nexpr = \"Fq_Phi_All == 0\"\n[domain]\nstates = [{:?}]\nfamilies = []\n",
            vec![0; n]
        )
    };
    let v = balloc::certify(&claim(6, "1/3")).unwrap();
    assert_eq!(v.trust, balloc::claim::Trust::Exact);
    // δ = 1/5 at n = 6 (δn = 6/5): the step at rank δn is no probability vector (one rank at
    // (1 − ε)/6 and five at (1 + εδ/(1 − δ))/6 = (1 + ε/4)/6 sum to 1 + ε/24, 1.0042 at
    // ε = 1/10); refused, as C1 and [setting.vectors] refuse it.
    let e = balloc::check_str(&claim(6, "1/5")).unwrap_err().to_string();
    assert!(
        e.contains("not an integer") && e.contains("q of eq. (3.2)"),
        "{e}"
    );
}
