//! Batched lower bounds (Los–Sauerwald, *Balanced Allocations in Batches*, SPAA 2022, §7; the
//! constructions are derived, A.Thm.Sec7 in `docs/derivations.md` §7, not the paper's text).
//!
//! In the `b`-batched setting the allocation vector is frozen at the start of a batch and the `b`
//! balls are i.i.d. given it, so the counts per bin are multinomial.
//! * **Fixed ties from `x = 0`**: all loads are tied, the rank probabilities apply by position, and
//!   the last bin receives `K ~ Bin(b, pₙ)` balls; its excess over the mean is `K − b/n`, with
//!   `E[K − b/n] = b(pₙ − 1/n)` (`= b(n − 1)/n²` for Two-Choice, `pₙ = (2n − 1)/n²`).
//! * **Random ties**: the first batch is a One-Choice batch; the laws of the heaviest
//!   (`max x − W/n`) and lightest (`W/n − min x`) bins after one and two batches follow by
//!   enumerating the multinomial outcomes with exact rationals (states up to relabelling: the
//!   process with random ties is symmetric under permutations of the bins).
//! * **Large largest probability**: a bin with probability `p` gains `b(p − 1/n)` on the mean in
//!   expectation during one batch; from `x = 0` with fixed ties this is [`expected_excess`] at
//!   the rank with the largest `pᵢ`.

use super::{Law, binomial, factorial};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use crate::loads::{Loads, TieRule};
use crate::process::Process;
use num_traits::{One, Zero};

/// `P(K = k)` for `K ~ Bin(b, p)`, `k = 0..=b`, exactly.
///
/// ```
/// use balloc::lower_bound::batched::binomial_pmf;
/// use balloc::exact::Q;
/// let pmf = binomial_pmf(2, &Q::new(1.into(), 3.into()));
/// assert_eq!(pmf[1], Q::new(4.into(), 9.into())); // 2·(1/3)(2/3)
/// ```
pub fn binomial_pmf(b: u64, p: &Q) -> Vec<Q> {
    let q = Q::one() - p;
    (0..=b)
        .map(|k| {
            Q::from_integer(binomial(b, k))
                * num_traits::pow(p.clone(), k as usize)
                * num_traits::pow(q.clone(), (b - k) as usize)
        })
        .collect()
}

/// `E[K − b/n] = b(p − 1/n)`: the expected gain on the mean of a bin with probability `p` over one
/// batch of `b` balls.
///
/// ```
/// use balloc::lower_bound::batched::expected_excess;
/// use balloc::exact::Q;
/// // Two-Choice, n = 4, last rank p = 7/16, b = 8: 8(7/16 − 4/16) = 3/2.
/// assert_eq!(expected_excess(&Q::new(7.into(), 16.into()), 4, 8), Q::new(3.into(), 2.into()));
/// ```
pub fn expected_excess(p: &Q, n: usize, b: u64) -> Q {
    Q::from_integer(b.into()) * (p - Q::new(1.into(), n.into()))
}

/// The per-bin probabilities of a rank-based process at `x = 0` under a tie rule.
fn per_bin_at_zero(process: &dyn Process, n: usize, ties: TieRule) -> Result<Vec<Q>> {
    let p = rank_vector(process, n)?;
    Ok(Loads::zeros(n)?.ranking().per_bin(&p, ties))
}

fn rank_vector(process: &dyn Process, n: usize) -> Result<Vec<Q>> {
    process.rank_probabilities_exact(n)?.ok_or_else(|| {
        Error::Unsupported(format!(
            "{} has no exact rank-indexed allocation vector",
            process.spec()
        ))
    })
}

/// The exact law of the excess `K − b/n` of bin `bin` after one batch of `b` balls from `x = 0`
/// with fixed tie-breaking (bin `n − 1` has the lightest rank), together with its probability.
///
/// ```
/// use balloc::lower_bound::{batched::fixed_ties_excess, mean};
/// use balloc::exact::Q;
/// let tc = balloc::process::parse("two-choice").unwrap();
/// let (p, law) = fixed_ties_excess(tc.as_ref(), 2, 1, 2).unwrap();
/// assert_eq!(p, Q::new(3.into(), 4.into())); // p₂ = 3/4 at n = 2
/// assert_eq!(mean(&law), Q::new(1.into(), 2.into())); // 2(3/4 − 1/2)
/// ```
pub fn fixed_ties_excess(process: &dyn Process, n: usize, bin: usize, b: u64) -> Result<(Q, Law)> {
    if bin >= n {
        return Err(Error::invalid(
            "bin",
            format!("must be < n = {n}, got {bin}"),
        ));
    }
    let p = per_bin_at_zero(process, n, TieRule::Fixed)?[bin].clone();
    let shift = Q::new(b.into(), n.into());
    let law = binomial_pmf(b, &p)
        .into_iter()
        .enumerate()
        .map(|(k, pr)| (Q::from_integer(k.into()) - &shift, pr))
        .filter(|(_, pr)| !pr.is_zero())
        .collect();
    Ok((p, law))
}

/// The laws of the heaviest bin (`max x − W/n`) and of the lightest bin (`W/n − min x`) after
/// some batches.
#[derive(Debug, Clone, PartialEq)]
pub struct Extremes {
    /// The law of `max xᵢ − W/n`.
    pub heaviest: Law,
    /// The law of `W/n − min xᵢ`.
    pub lightest: Law,
}

/// The largest number of multinomial outcomes × states [`batched_extremes`] visits.
pub const OUTCOME_LIMIT: u64 = 5_000_000;

/// Visits every composition `c` of `b` into `r.len()` parts with its multinomial probability.
fn compositions(r: &[Q], b: u64, visit: &mut dyn FnMut(&[u64], &Q)) {
    fn go(r: &[Q], left: u64, c: &mut Vec<u64>, prob: Q, visit: &mut dyn FnMut(&[u64], &Q)) {
        let i = c.len();
        if i + 1 == r.len() {
            c.push(left);
            let p = prob * num_traits::pow(r[i].clone(), left as usize)
                / Q::from_integer(factorial(left));
            visit(c, &p);
            c.pop();
            return;
        }
        for k in 0..=left {
            if k > 0 && r[i].is_zero() {
                break;
            }
            c.push(k);
            let p = prob.clone() * num_traits::pow(r[i].clone(), k as usize)
                / Q::from_integer(factorial(k));
            go(r, left - k, c, p, visit);
            c.pop();
        }
    }
    let start = Q::from_integer(factorial(b));
    go(r, b, &mut Vec::new(), start, visit);
}

/// The exact laws of the heaviest and lightest bins after `batches` batches of `b` balls of a
/// rank-based process from `x = 0` with random tie-breaking, by enumerating multinomial outcomes.
///
/// ```
/// use balloc::lower_bound::{batched::batched_extremes, mean};
/// use balloc::exact::Q;
/// let tc = balloc::process::parse("two-choice").unwrap();
/// // n = 2, b = 2, one batch (One-Choice): loads (2,0)/(0,2) w.p. 1/2, (1,1) w.p. 1/2.
/// let e = batched_extremes(tc.as_ref(), 2, 2, 1).unwrap();
/// assert_eq!(mean(&e.heaviest), Q::new(1.into(), 2.into()));
/// ```
pub fn batched_extremes(process: &dyn Process, n: usize, b: u64, batches: u32) -> Result<Extremes> {
    let p = rank_vector(process, n)?;
    let per_batch = binomial(b + n as u64 - 1, n as u64 - 1);
    let mut states: std::collections::BTreeMap<Vec<u64>, Q> = [(vec![0u64; n], Q::one())].into();
    for _ in 0..batches {
        let visits = Int::from(states.len()) * &per_batch;
        if visits > Int::from(OUTCOME_LIMIT) {
            return Err(Error::Unsupported(format!(
                "the enumeration would visit more than {OUTCOME_LIMIT} outcomes (n = {n}, b = {b}, {batches} batches)"
            )));
        }
        let mut next: std::collections::BTreeMap<Vec<u64>, Q> = Default::default();
        for (x, px) in &states {
            let loads = Loads::new(x.iter().map(|&v| v as f64).collect())?;
            let r = loads.ranking().per_bin(&p, TieRule::Random);
            compositions(&r, b, &mut |c, pc| {
                let mut y: Vec<u64> = x.iter().zip(c).map(|(a, k)| a + k).collect();
                y.sort_unstable_by(|a, b| b.cmp(a));
                *next.entry(y).or_insert_with(Q::zero) += px * pc;
            });
        }
        states = next;
    }
    let mut heaviest = Law::new();
    let mut lightest = Law::new();
    for (x, p) in states {
        let w: u64 = x.iter().sum();
        let mean = Q::new(w.into(), n.into());
        let (max, min) = (x[0], x[n - 1]);
        *heaviest
            .entry(Q::from_integer(max.into()) - &mean)
            .or_insert_with(Q::zero) += &p;
        *lightest
            .entry(&mean - Q::from_integer(min.into()))
            .or_insert_with(Q::zero) += &p;
    }
    Ok(Extremes { heaviest, lightest })
}

/// The largest per-bin probability at `x = 0` under fixed ties, its rank (1-based) and the
/// expected gain `b(max pᵢ − 1/n)` of that bin in one batch.
///
/// ```
/// use balloc::lower_bound::batched::largest_probability_gain;
/// use balloc::exact::Q;
/// let p = balloc::process::parse("d-choice(d=3)").unwrap();
/// // n = 2: p₂ = (8 − 1)/8 = 7/8; b = 4: 4(7/8 − 1/2) = 3/2.
/// let (rank, pmax, gain) = largest_probability_gain(p.as_ref(), 2, 4).unwrap();
/// assert_eq!((rank, pmax, gain), (2, Q::new(7.into(), 8.into()), Q::new(3.into(), 2.into())));
/// ```
pub fn largest_probability_gain(process: &dyn Process, n: usize, b: u64) -> Result<(usize, Q, Q)> {
    let p = rank_vector(process, n)?;
    let best = crate::condition::best_c(&p);
    let pmax = p[best.witness_i - 1].clone();
    let gain = expected_excess(&pmax, n, b);
    Ok((best.witness_i, pmax, gain))
}
