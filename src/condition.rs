//! Conditions C1 (quantile bias) and C2 (no large bias) on a rank-indexed allocation vector
//! `p` (rank 1 = heaviest), with witnesses and best constants, generic over the number type so the
//! same code runs in `f64` and in exact rationals (`Q`).
//!
//! Reference: Los–Sauerwald, *Balanced Allocations in Batches* (SPAA 2022), §2.2 (conditions C1
//! and C2; the display is recalled, consistent with the extremal vector of eq. (3.2)):
//! * **C1(δ, ε)**: `Σ_{i≤k} pᵢ ≤ (1 − ε)·k/n` for every `k ≤ δn`, and
//!   `Σ_{i≥k} pᵢ ≥ (1 + ε̃)·(n − k + 1)/n` for every `k > δn`, with `ε̃ = εδ/(1 − δ)`;
//! * **C2(C)**: `max pᵢ ≤ C/n`.
//!
//! The best ε for a given δ (`docs/derivations.md` §2, derived) is
//! `ε*(δ) = min( min_{k≤δn} (1 − n·P_k/k), min_{k>δn} (n·S_k/(n−k+1) − 1)·(1 − δ)/δ )`
//! and the smallest C is `C* = n·max pᵢ`.

use crate::error::{Error, Result};
use crate::exact::{Field, Int, Q};

/// The best ε of C1 at a quantile, with the index attaining it.
#[derive(Debug, Clone, PartialEq)]
pub struct BestEps<T> {
    /// `k_δ = δn`, the number of ranks in the heavy part.
    pub delta_n: usize,
    /// `ε*(δ)`; C1(δ, ε) holds for every `0 < ε ≤ ε*` and for no ε > 0 when `ε* ≤ 0`.
    pub eps: T,
    /// The 1-based prefix/suffix index `k` attaining the minimum.
    pub witness_k: usize,
}

/// The smallest C of C2 with the rank attaining it.
#[derive(Debug, Clone, PartialEq)]
pub struct BestC<T> {
    /// `C* = n·max pᵢ`.
    pub c: T,
    /// The 1-based rank `i` of the largest entry (the first one if several).
    pub witness_i: usize,
}

/// `δn` for `δ ∈ (0, 1)` given exactly; an error when `δn` is not an integer in `1..n`.
///
/// ```
/// use balloc::spec::parse_ratio;
/// assert_eq!(balloc::condition::delta_n(8, &parse_ratio("0.25").unwrap()).unwrap(), 2);
/// assert!(balloc::condition::delta_n(6, &parse_ratio("0.25").unwrap()).is_err());
/// ```
pub fn delta_n(n: usize, delta: &Q) -> Result<usize> {
    use num_traits::ToPrimitive;
    let k = delta * Q::from_integer(Int::from(n));
    if !k.is_integer() {
        return Err(Error::invalid(
            "delta",
            format!("δn = {k} is not an integer at n = {n}; choose δ as a multiple of 1/{n}"),
        ));
    }
    let k = k.to_integer().to_usize().unwrap_or(0);
    if k == 0 || k >= n {
        return Err(Error::invalid(
            "delta",
            format!("must lie strictly between 0 and 1 (δn = {k} at n = {n})"),
        ));
    }
    Ok(k)
}

fn from_usize<T: Field>(v: usize) -> T {
    T::from_usize(v).expect("usize is representable")
}

/// `ε*(δ)` with `δ = k_δ/n` and its witness index (`docs/derivations.md` §2).
///
/// ```
/// use balloc::condition::best_eps;
/// // Two-Choice at n = 4: p = (1, 3, 5, 7)/16, δ = 1/2 (k_δ = 2).
/// // Prefix terms: k = 1: 1 − 4·(1/16)/1 = 3/4; k = 2: 1 − 4·(4/16)/2 = 1/2.
/// // Suffix terms, factor (1 − δ)/δ = 1: k = 3: 4·(12/16)/2 − 1 = 1/2; k = 4: 4·(7/16) − 1 = 3/4.
/// let p: Vec<f64> = [1.0, 3.0, 5.0, 7.0].iter().map(|v| v / 16.0).collect();
/// let b = best_eps(&p, 2).unwrap();
/// assert_eq!(b.eps, 0.5);
/// assert_eq!(b.witness_k, 2);
/// ```
pub fn best_eps<T: Field>(p: &[T], delta_n: usize) -> Result<BestEps<T>> {
    let n = p.len();
    if delta_n == 0 || delta_n >= n {
        return Err(Error::invalid(
            "delta",
            format!("δn must lie in 1..{n}, got {delta_n}"),
        ));
    }
    let nn: T = from_usize(n);
    let one = T::one();
    let mut best: Option<(T, usize)> = None;
    let mut consider = |v: T, k: usize| {
        if best.as_ref().is_none_or(|(b, _)| v < *b) {
            best = Some((v, k));
        }
    };
    let mut prefix = T::zero();
    for (i, pi) in p.iter().enumerate().take(delta_n) {
        prefix = prefix + pi.clone();
        let k = i + 1;
        consider(one.clone() - nn.clone() * prefix.clone() / from_usize(k), k);
    }
    // (1 − δ)/δ = (n − k_δ)/k_δ
    let factor: T = from_usize::<T>(n - delta_n) / from_usize(delta_n);
    let mut suffix = T::zero();
    for k in (delta_n + 1..=n).rev() {
        suffix = suffix + p[k - 1].clone();
        let len: T = from_usize(n - k + 1);
        consider(
            (nn.clone() * suffix.clone() / len - one.clone()) * factor.clone(),
            k,
        );
    }
    let (eps, witness_k) = best.expect("n ≥ 2 gives at least one term");
    Ok(BestEps {
        delta_n,
        eps,
        witness_k,
    })
}

/// Whether C1(δ, ε) holds; `Err`-free: returns the first violating 1-based `k`, or `None`.
///
/// ```
/// use balloc::condition::c1_violation;
/// let p: Vec<f64> = [1.0, 3.0, 5.0, 7.0].iter().map(|v| v / 16.0).collect();
/// assert_eq!(c1_violation(&p, 2, &0.5), None);       // ε* = 1/2
/// assert_eq!(c1_violation(&p, 2, &0.6), Some(2));    // k = 2 breaks first
/// ```
pub fn c1_violation<T: Field>(p: &[T], delta_n: usize, eps: &T) -> Option<usize> {
    let n = p.len();
    let nn: T = from_usize(n);
    let one = T::one();
    let mut prefix = T::zero();
    for (i, pi) in p.iter().enumerate().take(delta_n) {
        prefix = prefix + pi.clone();
        let k = i + 1;
        // Σ_{i≤k} p_i ≤ (1 − ε) k/n
        if prefix.clone() > (one.clone() - eps.clone()) * from_usize::<T>(k) / nn.clone() {
            return Some(k);
        }
    }
    let eps_tilde =
        eps.clone() * from_usize::<T>(delta_n) / from_usize::<T>(n - delta_n.min(n - 1));
    let mut suffix: Vec<T> = vec![T::zero(); n + 2];
    for k in (1..=n).rev() {
        suffix[k] = suffix[k + 1].clone() + p[k - 1].clone();
    }
    for (k, sk) in suffix.iter().enumerate().take(n + 1).skip(delta_n + 1) {
        // Σ_{i≥k} p_i ≥ (1 + ε̃)(n − k + 1)/n
        if *sk < (one.clone() + eps_tilde.clone()) * from_usize::<T>(n - k + 1) / nn.clone() {
            return Some(k);
        }
    }
    None
}

/// The smallest C of C2 and its witness rank.
///
/// ```
/// use balloc::condition::best_c;
/// let p: Vec<f64> = [1.0, 3.0, 5.0, 7.0].iter().map(|v| v / 16.0).collect();
/// let c = best_c(&p);
/// assert_eq!(c.c, 1.75); // 4 · 7/16
/// assert_eq!(c.witness_i, 4);
/// ```
pub fn best_c<T: Field>(p: &[T]) -> BestC<T> {
    let mut best = 0;
    for i in 1..p.len() {
        if p[i] > p[best] {
            best = i;
        }
    }
    BestC {
        c: from_usize::<T>(p.len()) * p[best].clone(),
        witness_i: best + 1,
    }
}

/// Whether C2(C) holds: the first 1-based rank with `pᵢ > C/n`, or `None`.
///
/// ```
/// let p = [0.25, 0.75];
/// assert_eq!(balloc::condition::c2_violation(&p, &1.5), None);
/// assert_eq!(balloc::condition::c2_violation(&p, &1.4), Some(2));
/// ```
pub fn c2_violation<T: Field>(p: &[T], c: &T) -> Option<usize> {
    let nn: T = from_usize(p.len());
    p.iter()
        .position(|pi| pi.clone() * nn.clone() > c.clone())
        .map(|i| i + 1)
}
