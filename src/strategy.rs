//! Composable [proptest] strategies for a researcher's own property tests (crate feature
//! `strategy`): load vectors of any n (uniform, near-balanced, and the adversarial families that
//! `balloc check` searches), allocation vectors meeting C1(δ, ε) and C2(C), weight laws and
//! settings.
//!
//! Uniform random vectors rarely hit the near-balanced or two-level states at which drift bounds
//! are tight; [`adversarial`] mixes the search's families ([`crate::search::Family`]) with
//! uniform and near-balanced vectors, so a property test that should fail does fail.
//!
//! ```
//! use balloc::strategy;
//! use proptest::prelude::*;
//! use proptest::test_runner::{Config, TestRunner};
//! // Γ ≥ 2n at every state (the terms e^{αy} + e^{−αy} = 2cosh(αy) ≥ 2), in the log domain:
//! // the families include huge loads, where Γ exceeds the range of f64.
//! let gamma = balloc::potential::parse("gamma(alpha=0.5)").unwrap();
//! let mut runner = TestRunner::new(Config { failure_persistence: None, ..Config::default() });
//! runner
//!     .run(&strategy::adversarial(2..=16), |x| {
//!         let ln_g = gamma.value(&x).ln_abs();
//!         prop_assert!(ln_g >= (2.0 * x.n() as f64).ln() - 1e-12);
//!         Ok(())
//!     })
//!     .unwrap();
//! ```

use crate::condition::{c1_violation, c2_violation, delta_n};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use crate::loads::{Loads, TieRule};
use crate::search::{FAMILIES, Family};
use crate::setting::Setting;
use crate::weights::WeightLaw;
use proptest::prelude::*;
use std::ops::RangeInclusive;

/// Integer load vectors with `n` in `n` and loads in `0..=max_load`, uniformly.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// let x = balloc::strategy::loads(3..=5, 9).new_tree(&mut TestRunner::deterministic()).unwrap().current();
/// assert!((3..=5).contains(&x.n()) && x.as_slice().iter().all(|v| v.fract() == 0.0 && *v <= 9.0));
/// ```
pub fn loads(n: RangeInclusive<usize>, max_load: u32) -> impl Strategy<Value = Loads> {
    valid_n(n)
        .prop_flat_map(move |n| proptest::collection::vec(0..=max_load, n))
        .prop_map(|v| Loads::new(v.into_iter().map(f64::from).collect()).expect("finite"))
}

/// Near-balanced integer vectors: every load in `base..=base + spread` for a common `base` in
/// `0..=100` (the states where the normalised loads are all small).
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// let x = balloc::strategy::near_balanced(4..=4, 1).new_tree(&mut TestRunner::deterministic()).unwrap().current();
/// let (lo, hi) = x.as_slice().iter().fold((f64::MAX, f64::MIN), |(a, b), &v| (a.min(v), b.max(v)));
/// assert!(x.n() == 4 && hi - lo <= 1.0);
/// ```
pub fn near_balanced(n: RangeInclusive<usize>, spread: u32) -> impl Strategy<Value = Loads> {
    (valid_n(n), 0u32..=100)
        .prop_flat_map(move |(n, base)| proptest::collection::vec(base..=base + spread, n))
        .prop_map(|v| Loads::new(v.into_iter().map(f64::from).collect()).expect("finite"))
}

/// The states of one adversarial family ([`Family`]: one heavy bin, two-level splits, tied
/// groups, ramps, geometric tails, huge loads, ...) at `n` in `n`, integer when `integer`; a state
/// is chosen among the family's states at that n (shrinking towards the family's first state).
///
/// ```
/// use balloc::search::Family;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// let s = balloc::strategy::family(Family::OneHeavy, 4..=4, true);
/// let x = s.new_tree(&mut TestRunner::deterministic()).unwrap().current();
/// // One bin above the others, which are equal.
/// let mut v = x.as_slice().to_vec();
/// v.sort_by(|a, b| b.total_cmp(a));
/// assert!(v[0] > v[1] && v[1] == v[3]);
/// ```
pub fn family(
    family: Family,
    n: RangeInclusive<usize>,
    integer: bool,
) -> impl Strategy<Value = Loads> {
    valid_n(n)
        .prop_flat_map(move |n| {
            let states: Vec<Loads> = family
                .states(n, integer, 0)
                .into_iter()
                .filter_map(|v| Loads::new(v).ok())
                .collect();
            proptest::sample::select(if states.is_empty() {
                vec![Loads::zeros(n).expect("n ≥ 1")]
            } else {
                states
            })
        })
        .boxed()
}

/// Every adversarial family, uniform integer vectors (loads up to 4n) and near-balanced vectors,
/// with equal weight: the mixture a negative property test needs.
pub fn adversarial(n: RangeInclusive<usize>) -> BoxedStrategy<Loads> {
    let mut parts: Vec<BoxedStrategy<Loads>> = FAMILIES
        .iter()
        .map(|(_, f)| family(*f, n.clone(), true).boxed())
        .collect();
    let hi = 4 * *n.end() as u32;
    parts.push(loads(n.clone(), hi.max(8)).boxed());
    parts.push(near_balanced(n, 2).boxed());
    proptest::strategy::Union::new(parts).boxed()
}

/// Rank-indexed allocation vectors (rank 1 = heaviest) meeting C1(δ, ε) and C2(C) exactly, at
/// `n` in `n` (every n with δn an integer in `1..n`): a random non-decreasing vector mixed with
/// the extremal step vector `q` of the quantifier (Los–Sauerwald, SPAA 2022, eq. (3.2):
/// `(1 − ε)/n` on the δn heaviest ranks, `(1 + εδ/(1 − δ))/n` on the others) with the largest
/// weight `t ∈ {1, 1/2, …, 1/2¹⁰, 0}` at which both conditions hold. An error when no n of the
/// range admits δn, or when `q` itself breaks C2 (then no vector meets both).
///
/// ```
/// use balloc::condition::{c1_violation, c2_violation, delta_n};
/// use balloc::spec::parse_ratio;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// let (d, e, c) = (parse_ratio("1/4").unwrap(), parse_ratio("1/10").unwrap(), parse_ratio("2").unwrap());
/// let s = balloc::strategy::allocation_vectors(4..=16, &d, &e, &c).unwrap();
/// let mut runner = TestRunner::deterministic();
/// for _ in 0..20 {
///     let p = s.new_tree(&mut runner).unwrap().current();
///     let k = delta_n(p.len(), &d).unwrap();
///     assert!(c1_violation(&p, k, &e).is_none() && c2_violation(&p, &c).is_none());
///     assert_eq!(p.iter().sum::<balloc::exact::Q>(), balloc::exact::Q::from_integer(1.into()));
/// }
/// ```
pub fn allocation_vectors(
    n: RangeInclusive<usize>,
    delta: &Q,
    eps: &Q,
    c2: &Q,
) -> Result<BoxedStrategy<Vec<Q>>> {
    let ns: Vec<usize> = n
        .clone()
        .filter(|&m| m >= 2 && delta_n(m, delta).is_ok())
        .collect();
    if ns.is_empty() {
        return Err(Error::invalid(
            "allocation_vectors",
            format!("no n in {n:?} makes δn = {delta}·n an integer in 1..n"),
        ));
    }
    let q_ok = ns
        .iter()
        .all(|&m| c2_violation(&step_vector(m, delta, eps), c2).is_none());
    if !q_ok {
        return Err(Error::invalid(
            "allocation_vectors",
            format!("the extremal vector breaks C2({c2}) at ε = {eps}: no vector meets C1 and C2"),
        ));
    }
    let (delta, eps, c2) = (delta.clone(), eps.clone(), c2.clone());
    Ok(proptest::sample::select(ns)
        .prop_flat_map(|m| proptest::collection::vec(1u32..=20, m))
        .prop_map(move |mut counts| {
            counts.sort_unstable();
            let m = counts.len();
            let k = delta_n(m, &delta).expect("checked above");
            let total: u64 = counts.iter().map(|&c| c as u64).sum();
            let r: Vec<Q> = counts
                .iter()
                .map(|&c| Q::new(Int::from(c), Int::from(total)))
                .collect();
            let q = step_vector(m, &delta, &eps);
            let ok = |p: &[Q]| c1_violation(p, k, &eps).is_none() && c2_violation(p, &c2).is_none();
            for j in 0..=10 {
                let t = Q::new(1.into(), Int::from(1u64 << j));
                let p: Vec<Q> = r
                    .iter()
                    .zip(&q)
                    .map(|(a, b)| &t * a + (Q::from_integer(1.into()) - &t) * b)
                    .collect();
                if ok(&p) {
                    return p;
                }
            }
            q
        })
        .boxed())
}

/// The extremal step vector of C1(δ, ε) at n (eq. (3.2) of Los–Sauerwald, SPAA 2022).
fn step_vector(n: usize, delta: &Q, eps: &Q) -> Vec<Q> {
    let one = Q::from_integer(1.into());
    let nn = Q::from_integer(Int::from(n));
    let k = delta_n(n, delta).unwrap_or(0);
    let eps_tilde = eps * delta / (&one - delta);
    (0..n)
        .map(|i| {
            if i < k {
                (&one - eps) / &nn
            } else {
                (&one + &eps_tilde) / &nn
            }
        })
        .collect()
}

/// Weight laws with mean 1: unit, exponential, geometric from 0 and from 1, and two-point laws
/// `{a, b}` with rational-looking atoms.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// let mut r = TestRunner::deterministic();
/// for _ in 0..20 {
///     let w = balloc::strategy::weights().new_tree(&mut r).unwrap().current();
///     assert!((w.mean() - 1.0).abs() < 1e-12);
/// }
/// ```
pub fn weights() -> impl Strategy<Value = WeightLaw> {
    prop_oneof![
        Just(WeightLaw::Unit),
        Just(WeightLaw::exponential(1.0).expect("valid")),
        (0u64..=1).prop_map(|s| WeightLaw::geometric(1.0, s).expect("valid")),
        // Two atoms a < 1 < b with mean 1: P(b) = (1 − a)/(b − a).
        (0u32..=3, 2u32..=4).prop_map(|(a2, b)| {
            let a = a2 as f64 / 4.0;
            let b = b as f64;
            let pb = (1.0 - a) / (b - a);
            WeightLaw::discrete(vec![(a, 1.0 - pb), (b, pb)]).expect("valid")
        }),
    ]
}

/// Settings: batch sizes in `batch`, weights from [`weights`], both tie rules.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// let s = balloc::strategy::settings(1..=8).new_tree(&mut TestRunner::deterministic()).unwrap().current();
/// assert!((1..=8).contains(&s.batch));
/// ```
pub fn settings(batch: RangeInclusive<u64>) -> impl Strategy<Value = Setting> {
    let lo = (*batch.start()).max(1);
    let hi = (*batch.end()).max(lo);
    (
        lo..=hi,
        weights(),
        prop_oneof![Just(TieRule::Random), Just(TieRule::Fixed)],
    )
        .prop_map(|(b, w, t)| Setting::new(b, w, t).expect("batch ≥ 1"))
}

/// `n` restricted to at least one bin.
fn valid_n(n: RangeInclusive<usize>) -> RangeInclusive<usize> {
    let lo = (*n.start()).max(1);
    lo..=(*n.end()).max(lo)
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    fn adversarial_states_include_near_ties_that_uniform_vectors_miss() {
        // The all-equal vector with one extra ball (y = (1 − 1/n, −1/n, ...)) at n = 12: the
        // families produce it (one heavy bin of height 1); uniform loads in 0..=48 hit a vector
        // of spread ≤ 1 with probability at most 48·2^12/49^12 < 10^-14.
        let mut r = TestRunner::deterministic();
        let s = adversarial(12..=12);
        let hits = (0..400)
            .filter(|_| {
                let x = s.new_tree(&mut r).unwrap().current();
                let v = x.as_slice();
                let (lo, hi) = v
                    .iter()
                    .fold((f64::MAX, f64::MIN), |(a, b), &t| (a.min(t), b.max(t)));
                hi - lo <= 1.0
            })
            .count();
        assert!(hits >= 10, "{hits}");
    }

    fn allocation_vectors_refuse_impossible_conditions() {
        let r = |s: &str| crate::spec::parse_ratio(s).unwrap();
        // δ = 1/4 needs n divisible by 4.
        assert!(allocation_vectors(5..=7, &r("1/4"), &r("1/10"), &r("2")).is_err());
        // q's light part is (1 + ε/3)/n > C/n for C = 1.
        assert!(allocation_vectors(4..=4, &r("1/4"), &r("1/2"), &r("1")).is_err());
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "adversarial_states_include_near_ties_that_uniform_vectors_miss",
            run: adversarial_states_include_near_ties_that_uniform_vectors_miss,
            panics: None,
        },
        crate::unit::Test {
            name: "allocation_vectors_refuse_impossible_conditions",
            run: allocation_vectors_refuse_impossible_conditions,
            panics: None,
        },
    ];
}
