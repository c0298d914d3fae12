//! Exact one-step expectations for md-balls.
//!
//! * Over bins, by rank with the tie rule: the per-bin probabilities apply the rank vector `p` of
//!   the [`Choice`] to the ranking by the rule's key ([`bin_probabilities`]).
//! * Over the supports of the ball, for per-dimension quantities: every pair (support `S`, bin
//!   `j`) with probability `P(S)·q_j(S)` ([`outcomes`], [`expect`]). For the sum-load rule `q` does
//!   not depend on `S`; for the max rule it does (`docs/derivations.md` §9, D.Def.alloc).
//! * The sum-load chain of D (D.Def.chain, `docs/derivations.md` §9): `s' = sort(s − (f/n)𝟙 + f·e_j)`,
//!   `E[F(s') | s] = Σ_f P(f) Σ_j p̃_j F(s')` ([`s_chain_outcomes`]).
//!
//! Closed forms checked against the brute force in the tests: the per-dimension quadratic
//! ([`expected_quadratic_change`], derived below) and the standard exponential of the sum-loads
//! ([`expected_standard_phi`]).
//!
//! Reference: Narang–Dutta–Bhattacherjee, arXiv:1111.0762, §3; the exact recipes of
//! `docs/derivations.md` §9 (derived).

use super::ball::{BallLaw, Support};
use super::rule::{Choice, Criterion, MdRule};
use super::state::MdLoads;
use crate::error::{Error, Result};
use crate::exact::Field;
use crate::exact::Q;
use crate::loads::TieRule;
use crate::xfloat::XFloat;
use num_traits::ToPrimitive;

/// A number type for md expectations: `f64` or `Q`.
pub trait MdNum: Field {
    /// The rank vector of a choice at `n` bins.
    fn rank_probs(choice: &Choice, n: usize) -> Result<Vec<Self>>;
    /// A rational converted to this type.
    fn from_ratio(r: &Q) -> Self;
}

impl MdNum for f64 {
    fn rank_probs(choice: &Choice, n: usize) -> Result<Vec<f64>> {
        choice
            .process()?
            .rank_probabilities(n)?
            .ok_or_else(|| Error::Unsupported(format!("{} has no rank vector", choice.spec())))
    }
    fn from_ratio(r: &Q) -> f64 {
        r.to_f64().unwrap_or(f64::NAN)
    }
}

impl MdNum for Q {
    fn rank_probs(choice: &Choice, n: usize) -> Result<Vec<Q>> {
        choice
            .process()?
            .rank_probabilities_exact(n)?
            .ok_or_else(|| Error::Unsupported(format!("{} has no rank vector", choice.spec())))
    }
    fn from_ratio(r: &Q) -> Q {
        r.clone()
    }
}

/// Applies a rank vector (rank 1 = heaviest) to per-bin `keys` (larger = heavier) under a tie
/// rule: with random ties every bin of a tied group gets the group's average; with fixed ties the
/// smaller index is the heavier rank (as [`crate::loads::Ranking::per_bin`]).
pub fn apply_ranks<K: PartialOrd, T: Field>(keys: &[K], p: &[T], ties: TieRule) -> Vec<T> {
    let n = keys.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        keys[b]
            .partial_cmp(&keys[a])
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    });
    let mut out = vec![T::zero(); n];
    let mut start = 0;
    for r in 1..=n {
        if r == n || keys[order[r]] != keys[order[start]] {
            match ties {
                TieRule::Fixed => {
                    for q in start..r {
                        out[order[q]] = p[q].clone();
                    }
                }
                TieRule::Random => {
                    let mut s = T::zero();
                    for v in &p[start..r] {
                        s = s + v.clone();
                    }
                    let avg = s / T::from_usize(r - start).expect("size is representable");
                    for q in start..r {
                        out[order[q]] = avg.clone();
                    }
                }
            }
            start = r;
        }
    }
    out
}

/// `q_j(S)`: the probability that bin `j` receives a ball with support `s` under `rule` at `x`.
///
/// ```
/// use balloc::multidim::{MdLoads, MdRule, expectation::bin_probabilities};
/// use balloc::exact::Q;
/// // Two-Choice, max rule, support {dim 1}: keys (0, 3) → bin 1 heavier, q = (3/4, 1/4).
/// let x = MdLoads::from_rows(&[vec![5, 0], vec![0, 3]]).unwrap();
/// let r = MdRule::parse("max", "two-choice").unwrap();
/// let q: Vec<Q> = bin_probabilities(&x, &r, 0b10).unwrap();
/// assert_eq!(q.iter().map(|v| v.to_string()).collect::<Vec<_>>(), vec!["3/4", "1/4"]);
/// ```
pub fn bin_probabilities<T: MdNum>(x: &MdLoads, rule: &MdRule, s: Support) -> Result<Vec<T>> {
    let keys: Vec<i64> = (0..x.n()).map(|b| rule.criterion.key(x, b, s)).collect();
    let p = T::rank_probs(&rule.choice, x.n())?;
    Ok(apply_ranks(&keys, &p, rule.ties))
}

/// The states after one ball lands in bin `b` (0-based): one per support `S` of the ball law,
/// `x + 𝟙_S e_b` with probability `P(S)` (positive probabilities only). A quantity's change when
/// the ball is committed to bin `b`, `Δ_b Q = Σ_S P(S) Q(x + 𝟙_S e_b) − Q(x)`, is the step `Δ_i`
/// of Narang–Dutta–Bhattacherjee (arXiv:1111.0762, §3, "when an md-ball is committed to bin i";
/// `docs/derivations.md` §9, D.Def.chain); for a ball of fixed `f` the sum loads become
/// `s − (f/n)𝟙 + f·e_b` whatever `S`.
///
/// ```
/// use balloc::multidim::{BallLaw, MdLoads, expectation::landings};
/// // n = 2 empty bins, D = 3, uniform f = 2: the supports {1,2}, {1,3}, {2,3} each with
/// // probability 1/3; in bin 2 the support {1,3} gives the row (1, 0, 1).
/// let x = MdLoads::new(2, 3).unwrap();
/// let law = BallLaw::parse("uniform(dims=3,f=2)").unwrap();
/// let next = landings(&x, &law, 1).unwrap();
/// assert_eq!(next.len(), 3);
/// assert!(next.iter().all(|(_, p)| p.to_string() == "1/3"));
/// assert!(next.iter().any(|(y, _)| y.row(1) == [1, 0, 1] && y.row(0) == [0, 0, 0]));
/// ```
pub fn landings(x: &MdLoads, law: &BallLaw, b: usize) -> Result<Vec<(MdLoads, Q)>> {
    check_dims(x, law)?;
    if b >= x.n() {
        return Err(Error::invalid(
            "bin",
            format!("{} is outside 1..={}", b + 1, x.n()),
        ));
    }
    Ok(law
        .supports_exact()?
        .into_iter()
        .filter(|(_, p)| *p != Q::from_integer(0.into()))
        .map(|(s, p)| {
            let mut y = x.clone();
            y.add(b, s);
            (y, p)
        })
        .collect())
}

/// Every outcome `(S, j, P(S)·q_j(S))` of one step with positive probability.
pub fn outcomes<T: MdNum>(
    x: &MdLoads,
    law: &BallLaw,
    rule: &MdRule,
) -> Result<Vec<(Support, usize, T)>> {
    check_dims(x, law)?;
    let supports = law.supports_exact()?;
    let shared = if rule.criterion == Criterion::SumLoad {
        Some(bin_probabilities::<T>(x, rule, 0)?)
    } else {
        None
    };
    let mut out = Vec::new();
    for (s, ps) in supports {
        let q = match &shared {
            Some(q) => q.clone(),
            None => bin_probabilities::<T>(x, rule, s)?,
        };
        let ps = T::from_ratio(&ps);
        for (j, qj) in q.into_iter().enumerate() {
            if qj != T::zero() {
                out.push((s, j, ps.clone() * qj));
            }
        }
    }
    Ok(out)
}

fn check_dims(x: &MdLoads, law: &BallLaw) -> Result<()> {
    if x.dims() != law.dims() as usize {
        return Err(Error::invalid(
            "ball law",
            format!(
                "{} has {} dimensions but the bins have {}",
                law.spec(),
                law.dims(),
                x.dims()
            ),
        ));
    }
    Ok(())
}

/// `E[Q(x') | x]` by enumeration of every (support, bin) outcome (the brute force).
///
/// ```
/// use balloc::multidim::{BallLaw, MdLoads, MdRule, expectation::expect};
/// use balloc::exact::Q;
/// // One bin per side, D = 2, f = 1, one-choice: E[max_a gap(a)] after one ball from zero.
/// // Every outcome gives one dimension with loads (1, 0): gap 1/2.
/// let x = MdLoads::new(2, 2).unwrap();
/// let law = BallLaw::parse("uniform(dims=2,f=1)").unwrap();
/// let rule = MdRule::parse("sum", "one-choice").unwrap();
/// let e: Q = expect(&x, &law, &rule, |y| y.max_gap::<Q>()).unwrap();
/// assert_eq!(e.to_string(), "1/2");
/// ```
pub fn expect<T: MdNum>(
    x: &MdLoads,
    law: &BallLaw,
    rule: &MdRule,
    q: impl Fn(&MdLoads) -> T,
) -> Result<T> {
    let mut acc = T::zero();
    for (s, j, p) in outcomes::<T>(x, law, rule)? {
        let mut y = x.clone();
        y.add(j, s);
        acc = acc + p * q(&y);
    }
    Ok(acc)
}

/// The per-dimension quadratic `Υ_md = Σ_a Σ_i (x_i^a)²`.
pub fn per_dimension_quadratic<T: Field>(x: &MdLoads) -> T {
    let mut acc = T::zero();
    for a in 0..x.dims() {
        for b in 0..x.n() {
            let v: T = x.normalised(a, b);
            acc = acc + v.clone() * v;
        }
    }
    acc
}

/// Closed form of `E[Υ_md(x') − Υ_md(x) | x]` \[derived\]: a ball with support `S` into bin `j`
/// changes `x_i^a` by `𝟙{a∈S}(𝟙{i=j} − 1/n)`; with `Σ_i x_i^a = 0` and
/// `Σ_i (𝟙{i=j} − 1/n)² = 1 − 1/n`,
/// `ΔΥ_md = Σ_{a∈S} (2x_j^a + 1 − 1/n)`, hence
/// `E[ΔΥ_md] = Σ_S P(S) Σ_j q_j(S) Σ_{a∈S} (2x_j^a + 1 − 1/n)`.
/// For the sum-load rule `q` does not depend on `S`, and the sum over supports collapses to the
/// marginals: `Σ_j q_j Σ_a P(a∈S)(2x_j^a + 1 − 1/n)` (this route never enumerates supports).
pub fn expected_quadratic_change<T: MdNum>(x: &MdLoads, law: &BallLaw, rule: &MdRule) -> Result<T> {
    check_dims(x, law)?;
    let n = T::from_usize(x.n()).expect("n is representable");
    let one = T::one();
    let two = one.clone() + one.clone();
    let term = |j: usize, a: usize| {
        two.clone() * x.normalised::<T>(a, j) + one.clone() - one.clone() / n.clone()
    };
    let mut acc = T::zero();
    match rule.criterion {
        Criterion::SumLoad => {
            let q = bin_probabilities::<T>(x, rule, 0)?;
            for (j, qj) in q.iter().enumerate() {
                for a in 0..x.dims() {
                    let m = T::from_ratio(&law.marginal(a as u32));
                    acc = acc + qj.clone() * m * term(j, a);
                }
            }
        }
        Criterion::MaxPopulated => {
            for (s, ps) in law.supports_exact()? {
                let q = bin_probabilities::<T>(x, rule, s)?;
                let ps = T::from_ratio(&ps);
                for (j, qj) in q.iter().enumerate() {
                    for a in 0..x.dims() {
                        if s & (1 << a) != 0 {
                            acc = acc + ps.clone() * qj.clone() * term(j, a);
                        }
                    }
                }
            }
        }
    }
    Ok(acc)
}

/// The outcomes of one step of the sum-load chain: for each `f` of `f_law` (pairs `(f, P(f))`) and
/// each bin `j`, the next state `s − (f/n)𝟙 + f·e_j` (unsorted; potentials sort) with probability
/// `P(f)·p̃_j`, where `p̃ = apply_ranks(s, p, ties)`.
pub fn s_chain_outcomes<T: Field>(
    s: &[T],
    p: &[T],
    ties: TieRule,
    f_law: &[(T, T)],
) -> Result<Vec<(Vec<T>, T)>> {
    if p.len() != s.len() {
        return Err(Error::invalid(
            "allocation vector",
            format!("has {} entries but there are {} bins", p.len(), s.len()),
        ));
    }
    let n = T::from_usize(s.len()).expect("n is representable");
    let q = apply_ranks(s, p, ties);
    let mut out = Vec::with_capacity(s.len() * f_law.len());
    for (f, pf) in f_law {
        let shift = f.clone() / n.clone();
        for (j, qj) in q.iter().enumerate() {
            if *qj == T::zero() {
                continue;
            }
            let next: Vec<T> = s
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let v = v.clone() - shift.clone();
                    if i == j { v + f.clone() } else { v }
                })
                .collect();
            out.push((next, pf.clone() * qj.clone()));
        }
    }
    Ok(out)
}

/// `E[F(s') | s]` for the sum-load chain with an overflow-safe potential `F` (f64 states).
///
/// ```
/// use balloc::multidim::expectation::expect_s_chain;
/// use balloc::loads::TieRule;
/// use balloc::xfloat::XFloat;
/// // n = 2, one-choice, f = 1, F = Σ s²: from s = 0 every outcome gives s' = (½, −½): F = ½.
/// let e = expect_s_chain(&[0.0, 0.0], &[0.5, 0.5], TieRule::Random, &[(1.0, 1.0)],
///     |v| XFloat::from_f64(v.iter().map(|x| x * x).sum())).unwrap();
/// assert_eq!(e.to_f64_checked(), Some(0.5));
/// ```
pub fn expect_s_chain(
    s: &[f64],
    p: &[f64],
    ties: TieRule,
    f_law: &[(f64, f64)],
    potential: impl Fn(&[f64]) -> XFloat,
) -> Result<XFloat> {
    let mut acc = XFloat::from_f64(0.0);
    for (next, pr) in s_chain_outcomes(s, p, ties, f_law)? {
        acc = acc.add(potential(&next).scale(pr));
    }
    Ok(acc)
}

/// `E[F(s') | s]` for a rational-valued `F` of the sum-load chain, exactly (any [`Field`]).
pub fn expect_s_chain_exact<T: Field>(
    s: &[T],
    p: &[T],
    ties: TieRule,
    f_law: &[(T, T)],
    potential: impl Fn(&[T]) -> T,
) -> Result<T> {
    let mut acc = T::zero();
    for (next, pr) in s_chain_outcomes(s, p, ties, f_law)? {
        acc = acc + pr * potential(&next);
    }
    Ok(acc)
}

/// Closed form of the standard `E[Σ_i e^{α s'_i} | s]` for the sum-load chain [derived; the scalar
/// formula with weight `f`]: `Σ_f P(f) Σ_i e^{α s_i} e^{−αf/n} (1 + p̃_i (e^{αf} − 1))`.
pub fn expected_standard_phi(
    s: &[f64],
    p: &[f64],
    ties: TieRule,
    f_law: &[(f64, f64)],
    alpha: f64,
) -> XFloat {
    let n = s.len() as f64;
    let q = apply_ranks(s, p, ties);
    let mut acc = XFloat::from_f64(0.0);
    for &(f, pf) in f_law {
        for (i, &si) in s.iter().enumerate() {
            let factor = 1.0 + q[i] * (alpha * f).exp_m1();
            acc = acc.add(XFloat::exp_of(alpha * si - alpha * f / n).scale(pf * factor));
        }
    }
    acc
}
