//! The upper tail of a binomial law, enclosed: `P[Y ≥ j₀]` for `Y ~ Binomial(T, p)` with a
//! rational `p`, as an interval of binary floats that contains the exact value (trust
//! `enclosure`), and the threshold `j₀ = ⌈E[Y] + √T⌉` of Bansal–Feldheim's Lemma 4.1.
//!
//! In the proof of Lemma 4.1 (arXiv:2106.06051 v2, §4.1) `Y` counts the requested edges with both
//! endpoints in the larger side `S` of a minimum cut during `T` steps: each step requests a
//! uniform edge independently, so `Y ~ Binomial(T, e(S)/m)` exactly, and the proof uses the event
//! `Y ≥ E[Y] + √T` "with constant probability".
//!
//! Method: `t_j = C(T, j)pʲ(1 − p)^{T−j}` from `t_0 = (1 − p)^T` by the ratios
//! `t_{j+1}/t_j = (T − j)p/((j + 1)(1 − p))`, each an exact rational applied with outward
//! rounding (32 ratios multiplied exactly per interval operation up to `j₀`), summed from `j₀`;
//! the ratios decrease in `j`, so once a ratio `r < 1` the rest of the tail after `t_j` is at most
//! `t_j·r/(1 − r)`, and the sum stops when that bound is below `2^{−(prec+8)}` times the partial
//! sum, with `[0, bound]` added for the rest. Cost `O(T/32)` interval operations and `O(T)` small
//! integer products up to `j₀`, then a few standard deviations of terms; `T` is limited by
//! [`crate::limits::BINOMIAL_TRIALS`].

use crate::enclosure::Interval;
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use malachite::Float;
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

/// The smallest integer `j` with `j ≥ T·p + √T` (exact: `j − Tp ≥ 0` and `(j − Tp)² ≥ T`).
///
/// ```
/// use balloc::graph::binomial::mean_plus_sqrt;
/// let half = balloc::exact::Q::new(1.into(), 2.into());
/// assert_eq!(mean_plus_sqrt(4, &half), 4);   // 2 + 2
/// assert_eq!(mean_plus_sqrt(5, &half), 5);   // 2.5 + 2.236… = 4.736…
/// assert_eq!(mean_plus_sqrt(9, &half), 8);   // 4.5 + 3 = 7.5
/// ```
pub fn mean_plus_sqrt(t: u64, p: &Q) -> u64 {
    let mu = Q::from_integer(Int::from(t)) * p;
    let tq = Q::from_integer(Int::from(t));
    // ⌈μ⌉ + ⌊√T⌋ − 1 is below the threshold; step up (at most a few steps).
    let mut j = (mu.ceil().to_integer() + Int::from(t.isqrt())) - Int::one();
    if j.is_negative() {
        j = Int::zero();
    }
    loop {
        let diff = Q::from_integer(j.clone()) - &mu;
        if !diff.is_negative() && &diff * &diff >= tq {
            return u64::try_from(&j).unwrap_or(u64::MAX);
        }
        j += Int::one();
    }
}

/// `P[Y ≥ j0]` for `Y ~ Binomial(t, p)`, `0 < p < 1`, enclosed at `prec` bits (module
/// documentation). `j0 > t` gives the point 0.
///
/// ```
/// use balloc::graph::binomial::upper_tail;
/// use balloc::exact::Q;
/// // Binomial(4, 1/2): P[Y ≥ 3] = (4 + 1)/16 = 5/16, a binary point.
/// let p = upper_tail(4, &Q::new(1.into(), 2.into()), 3, 64).unwrap();
/// assert!(p.contains(&Q::new(5.into(), 16.into())));
/// // Binomial(3, 1/3): P[Y ≥ 2] = 3·(1/9)(2/3) + 1/27 = 7/27.
/// let p = upper_tail(3, &Q::new(1.into(), 3.into()), 2, 64).unwrap();
/// assert!(p.contains(&Q::new(7.into(), 27.into())) && p.rel_width() < 1e-15);
/// ```
pub fn upper_tail(t: u64, p: &Q, j0: u64, prec: u64) -> Result<Interval> {
    let zero = Q::zero();
    let one = Q::one();
    if !(p > &zero && p < &one) {
        return Err(Error::invalid(
            "binomial tail",
            format!("needs 0 < p < 1, got {p}"),
        ));
    }
    crate::limits::BINOMIAL_TRIALS.check("binomial tail T", t)?;
    if j0 > t {
        return Interval::from_f64(0.0);
    }
    let q = &one - p;
    let odds = p / &q;
    let (a, b) = (&BigInt::from(odds.numer()), &BigInt::from(odds.denom()));
    // t_0 = (1 − p)^T, then t_{j0} by the ratios, CHUNK of them multiplied exactly at a time
    // (unreduced: the enclosure arithmetic reduces the fraction once).
    let mut term = Interval::from_rational(&q, prec).pow_nonneg(t, prec);
    let mut j = 0;
    while j < j0 {
        let end = (j + CHUNK).min(j0);
        let (mut num, mut den) = (BigInt::one(), BigInt::one());
        for i in j..end {
            num *= BigInt::from(t - i) * a;
            den *= BigInt::from(i + 1) * b;
        }
        term = term.mul_rational(&Q::new_raw(num.into(), den.into()), prec);
        j = end;
    }
    let mut sum = Interval::from_f64(0.0)?;
    loop {
        sum = sum.add(&term, prec);
        if j == t {
            return Ok(sum);
        }
        let (rn, rd) = (BigInt::from(t - j) * a, BigInt::from(j + 1) * b);
        // The ratios decrease in j, so with r < 1 the rest after t_j is at most t_j·r/(1 − r).
        if (j - j0).is_multiple_of(16) && rn < rd {
            let rest = term.mul_rational(&Q::new_raw(Int::from(&rn), Int::from(&rd - &rn)), prec);
            if negligible(&rest, &sum, prec) {
                let rest = Interval::new(Float::from(0u32), rest.hi().clone())?;
                return Ok(sum.add(&rest, prec));
            }
        }
        term = term.mul_rational(&Q::new_raw(rn.into(), rd.into()), prec);
        j += 1;
    }
}

/// Ratios multiplied exactly before one interval operation.
const CHUNK: u64 = 32;

/// `rest.hi ≤ 2^{−(prec+8)}·sum.lo`.
fn negligible(term: &Interval, sum: &Interval, prec: u64) -> bool {
    if *sum.lo() <= 0u32 {
        return false;
    }
    let scale =
        Interval::from_rational(&Q::new(Int::one(), Int::one() << (prec + 8) as usize), prec);
    let bound = sum.mul(&scale, prec);
    term.hi() <= bound.lo()
}

/// The event of Lemma 4.1's proof (Bansal–Feldheim arXiv:2106.06051 v2, §4.1): `P[Y ≥ E[Y] + √T]`
/// for `Y ~ Binomial(T, p)`, i.e. [`upper_tail`] from `j₀ = ⌈Tp + √T⌉` ([`mean_plus_sqrt`]),
/// enclosed at `prec` bits; `T ≥ 1`.
///
/// ```
/// use balloc::graph::binomial::lemma_4_1_tail;
/// use balloc::exact::Q;
/// // T = 4, p = 1/2: E[Y] + √T = 2 + 2 = 4, so P[Y ≥ 4] = (1/2)⁴ = 1/16.
/// let p = lemma_4_1_tail(4, &Q::new(1.into(), 2.into()), 64).unwrap();
/// assert!(p.contains(&Q::new(1.into(), 16.into())));
/// // T = 9, p = 1/3: 3 + 3 = 6, P[Y ≥ 6] = (84·8 + 36·4 + 9·2 + 1)/3⁹ = 835/19683.
/// let p = lemma_4_1_tail(9, &Q::new(1.into(), 3.into()), 64).unwrap();
/// assert!(p.contains(&Q::new(835.into(), 19683.into())) && p.rel_width() < 1e-15);
/// assert!(lemma_4_1_tail(0, &Q::new(1.into(), 2.into()), 64).is_err());
/// ```
pub fn lemma_4_1_tail(t: u64, p: &Q, prec: u64) -> Result<Interval> {
    if t == 0 {
        return Err(Error::invalid("T", "must be at least 1"));
    }
    crate::limits::BINOMIAL_TRIALS.check("binomial tail T", t)?;
    upper_tail(t, p, mean_plus_sqrt(t, p), prec)
}

/// A lower bound on `P[max_u L_t(u) − t/n ≥ x]` that holds for **every allocation strategy** and
/// every time `t ≥ T` (also `t = T` from a start with equal loads): for a partition of the
/// vertices into sides `s`, each given as `(|s|, e(s))` (its vertices and the edges with both
/// endpoints in it),
///
/// `min_s P[Y_s ≥ ⌈|s|·(T/n + x)⌉]`,  `Y_s ~ Binomial(T, e(s)/m)`,
///
/// enclosed at `prec` bits (the minimum of the sides' enclosures). This is the argument of
/// Bansal–Feldheim's Lemma 4.1 (arXiv:2106.06051 v2, §4.1, with a minimum cut as the partition)
/// made free of the strategy: at time `t − T` some side `s*` has average load at least the mean
/// `(t − T)/n` (the sides' averages, weighted by their sizes, average to the mean), and `s*` is
/// known at `t − T`. Each of the next `T` requests of an edge inside `s*` puts its ball in `s*`
/// whatever the strategy does, and the requests are independent of the past, so
/// `L_t(s*) ≥ L_{t−T}(s*) + Y_{s*}` with `Y_{s*}` distributed as above given the past; the heaviest
/// vertex carries at least the average of `s*`, hence `max L_t − t/n ≥ Y_{s*}/|s*| − T/n`, and
/// `P[Y_{s*} ≥ |s*|(T/n + x) | F_{t−T}] ≥ min_s P[Y_s ≥ |s|(T/n + x)]`.
///
/// ```
/// use balloc::graph::binomial::excess_lower_bound;
/// use balloc::exact::Q;
/// // C₄ cut into two paths of 2 vertices, 1 edge inside each (m = 4): with T = 2 and x = 1/2
/// // each side needs Y ≥ ⌈2·(2/4 + 1/2)⌉ = 2 of Binomial(2, 1/4): 1/16 on either side.
/// let b = excess_lower_bound(2, &[(2, 1), (2, 1)], 4, 4, &Q::new(1.into(), 2.into()), 64).unwrap();
/// assert!(b.contains(&Q::new(1.into(), 16.into())) && b.rel_width() == 0.0);
/// // A side without inner edges never gains for sure: the bound is 0 when it needs a ball.
/// let b = excess_lower_bound(2, &[(1, 0), (3, 3)], 4, 4, &Q::new(1.into(), 2.into()), 64).unwrap();
/// assert_eq!(b.hi_f64(), 0.0);
/// ```
pub fn excess_lower_bound(
    t: u64,
    sides: &[(usize, usize)],
    n: usize,
    m: usize,
    x: &Q,
    prec: u64,
) -> Result<Interval> {
    if t == 0 || n == 0 || m == 0 || sides.is_empty() {
        return Err(Error::invalid(
            "strategy-free excess bound",
            "needs T ≥ 1, a graph with edges and at least one side",
        ));
    }
    crate::limits::BINOMIAL_TRIALS.check("binomial tail T", t)?;
    let q = |k: u64| Q::from_integer(Int::from(k));
    let mut best: Option<Interval> = None;
    for &(size, inside) in sides {
        if size == 0 || inside > m {
            return Err(Error::invalid(
                "strategy-free excess bound",
                format!("a side with {size} vertices and {inside} of {m} edges inside"),
            ));
        }
        // j₀ = ⌈|s|·(T/n + x)⌉, exactly; a threshold ≤ 0 is met with certainty.
        let need = q(size as u64) * (q(t) / q(n as u64) + x);
        let j0 = need.ceil().to_integer();
        let tail = if !j0.is_positive() {
            Interval::from_f64(1.0)?
        } else {
            let j0 = u64::try_from(&j0).unwrap_or(u64::MAX);
            let p = q(inside as u64) / q(m as u64);
            if inside == 0 {
                Interval::from_f64(0.0)?
            } else if inside == m {
                Interval::from_f64(if j0 <= t { 1.0 } else { 0.0 })?
            } else {
                upper_tail(t, &p, j0, prec)?
            }
        };
        best = Some(match best {
            None => tail,
            Some(b) => b.min(&tail),
        });
    }
    best.ok_or_else(|| Error::invalid("strategy-free excess bound", "no side"))
}

/// A lower bound on `P[max_u |L_t(u) − t/n| ≥ x]` (so on the gap `max L_t − min L_t`) that holds
/// for **every allocation strategy** and every time `t ≥ T`, from one set `s` of vertices, given as
/// `(|s|, e_in(s), e_touch(s))` (its vertices, the edges with both endpoints in it, the edges with
/// at least one):
///
/// `min(P[Y ≥ ⌈|s|(T/n + x)⌉], P[Y′ ≤ ⌊|s|(T/n − x)⌋])`,  `Y ~ Bin(T, e_in/m)`, `Y′ ~ Bin(T, e_touch/m)`,
///
/// enclosed at `prec` bits. At time `t − T` the average load of `s` is either at least the mean
/// `(t − T)/n` or below it, and which is known then. In the first case the requests of edges inside
/// `s` during the next `T` steps land in `s` whatever the strategy does, so the heaviest vertex ends
/// at least `Y/|s| − T/n` above the mean `t/n`; in the second only requests of edges touching `s` can
/// land in `s`, so the lightest vertex ends at least `T/n − Y′/|s|` below it. The requests are
/// independent of the past, so either way the conditional probability of a deviation `≥ x` is at
/// least the smaller of the two tails. With the smaller side of a sparse cut and
/// `T = c·n·|s|·d²/k²` both events are a constant number of standard deviations out, whatever the
/// balance of the cut — the repair of the binomial step in the proof of Bansal–Feldheim's Lemma 4.1
/// (arXiv:2106.06051 v2, §4.1), which uses the larger side only and fails on unbalanced cuts.
///
/// ```
/// use balloc::graph::binomial::deviation_lower_bound;
/// use balloc::exact::Q;
/// // C₄ and s = {0, 1}: 1 edge inside, 3 touching (m = 4). T = 2, x = 1/2: above, Y ≥ ⌈2·1⌉ = 2 of
/// // Bin(2, 1/4): 1/16; below, Y′ ≤ ⌊2·0⌋ = 0 of Bin(2, 3/4): 1/16. The bound is 1/16.
/// let b = deviation_lower_bound(2, (2, 1, 3), 4, 4, &Q::new(1.into(), 2.into()), 64).unwrap();
/// assert!(b.contains(&Q::new(1.into(), 16.into())) && b.rel_width() == 0.0);
/// ```
pub fn deviation_lower_bound(
    t: u64,
    (size, inside, touching): (usize, usize, usize),
    n: usize,
    m: usize,
    x: &Q,
    prec: u64,
) -> Result<Interval> {
    if t == 0 || n == 0 || m == 0 || size == 0 || inside > touching || touching > m {
        return Err(Error::invalid(
            "strategy-free deviation bound",
            format!(
                "needs T ≥ 1 and a set with 0 ≤ e_in ≤ e_touch ≤ m, got T = {t}, |s| = {size}, \
                 e_in = {inside}, e_touch = {touching}, m = {m}"
            ),
        ));
    }
    let above = excess_lower_bound(t, &[(size, inside)], n, m, x, prec)?;
    // P[Y′ ≤ j] = P[T − Y′ ≥ T − j] with T − Y′ ~ Bin(T, 1 − e_touch/m); j < 0 is impossible.
    let q = |k: u64| Q::from_integer(Int::from(k));
    let j = (q(size as u64) * (q(t) / q(n as u64) - x))
        .floor()
        .to_integer();
    let below = if j.is_negative() {
        Interval::from_f64(0.0)?
    } else {
        let j = u64::try_from(&j).unwrap_or(u64::MAX).min(t);
        if touching == m {
            Interval::from_f64(if j >= t { 1.0 } else { 0.0 })?
        } else if touching == 0 {
            Interval::from_f64(1.0)?
        } else {
            let p_out = Q::one() - q(touching as u64) / q(m as u64);
            upper_tail(t, &p_out, t - j, prec)?
        }
    };
    Ok(above.min(&below))
}

/// A lower bound on `P[M_T ≥ j]`, `M_T` the largest number of requests of one edge among `T`
/// uniform requests of the `m` edges (the second-moment inequality `P[N ≥ 1] ≥ E[N]²/E[N²]` for
/// `N` the number of edges requested at least `j` times):
///
/// `S₁²/(S₁ + m(m − 1)·P₁₂)`,  `S₁ = m·P[Bin(T, 1/m) ≥ j]`,
/// `P₁₂ = P[two given edges both ≥ j] = Σ_{a ≥ j} P[Bin(T, 1/m) = a]·P[Bin(T − a, 1/(m − 1)) ≥ j]`,
///
/// enclosed at `prec` bits (the terms of `P₁₂` summed while they matter, the rest bounded by the
/// tail `P[Bin(T, 1/m) > a]`; the bound decreases in `P₁₂` and increases in `S₁`, so the interval
/// evaluation encloses it). `j = 0` or `m = 1` (with `T ≥ j`) give 1; `j > T` gives 0.
///
/// ```
/// use balloc::graph::binomial::max_requests_lower_bound;
/// use balloc::exact::Q;
/// // Two edges, T = 2, j = 2: S₁ = 2·(1/2)² = 1/2 and no two edges can both be requested twice
/// // (P₁₂ = 0), so the bound is S₁ = 1/2, the exact P[both requests on one edge] = 2/4.
/// let b = max_requests_lower_bound(2, 2, 2, 64).unwrap();
/// assert!(b.contains(&Q::new(1.into(), 2.into())));
/// // Three edges, T = 4, j = 2: S₁ = 3·P[Bin(4, 1/3) ≥ 2] = 3·(1 − 16/81 − 32/81) = 11/9 and
/// // P₁₂ = P[2 and 2] = C(4, 2)/81 = 6/81, so the bound is (121/81)/(11/9 + 6·6/81) = 121/135,
/// // below the exact P[M₄ ≥ 2] = 1 (four requests on three edges always repeat one).
/// let b = max_requests_lower_bound(4, 3, 2, 64).unwrap();
/// assert!(b.contains(&Q::new(121.into(), 135.into())));
/// ```
pub fn max_requests_lower_bound(t: u64, m: usize, j: u64, prec: u64) -> Result<Interval> {
    if m == 0 {
        return Err(Error::invalid(
            "largest request count",
            "needs a graph with edges",
        ));
    }
    crate::limits::BINOMIAL_TRIALS.check("binomial tail T", t)?;
    if j == 0 {
        return Interval::from_f64(1.0);
    }
    if j > t {
        return Interval::from_f64(0.0);
    }
    if m == 1 {
        return Interval::from_f64(1.0);
    }
    let q = |k: u64| Q::from_integer(Int::from(k));
    let p1 = Q::new(Int::one(), Int::from(m as u64));
    let p2 = Q::new(Int::one(), Int::from(m as u64 - 1));
    let s1 = upper_tail(t, &p1, j, prec)?.mul_rational(&q(m as u64), prec);
    if *s1.hi() <= 0u32 {
        return Interval::from_f64(0.0);
    }
    // P₁₂ term by term: P[N₁ = a] = P[N₁ ≥ a] − P[N₁ ≥ a + 1].
    // Terms with a > T − j vanish (the other edge cannot get j of the remaining requests).
    let mut p12 = Interval::from_f64(0.0)?;
    let mut above = upper_tail(t, &p1, j, prec)?;
    let mut a = j;
    while a <= t - j {
        let next = upper_tail(t, &p1, a + 1, prec)?;
        let pmf = above.sub(&next, prec).max(&Interval::from_f64(0.0)?);
        let second = upper_tail(t - a, &p2, j, prec)?;
        p12 = p12.add(&pmf.mul(&second, prec), prec);
        a += 1;
        above = next;
        // The rest, Σ_{a' ≥ a} P[N₁ = a']·(a probability ≤ 1), is at most P[N₁ ≥ a].
        if a <= t - j && negligible(&above, &p12, prec) {
            p12 = p12.add(&Interval::new(Float::from(0u32), above.hi().clone())?, prec);
            break;
        }
    }
    let pairs = q(m as u64) * q(m as u64 - 1);
    let den = s1.add(&p12.mul_rational(&pairs, prec), prec);
    s1.mul(&s1, prec).div(&den, prec)
}

/// A lower bound on `P[max_u L_t(u) − t/n ≥ (j − y)/2 − T/n]` that holds for **every allocation
/// strategy** on a `d`-regular graph with `n` vertices and `m = nd/2` edges and every `t ≥ T`:
///
/// `P[M_T ≥ j]·y/j` (through [`max_requests_lower_bound`]), `0 < y < j`.
///
/// The argument (derived here for Bansal–Feldheim's Lemma 4.2, arXiv:2106.06051 v2, §4.2, for
/// every strategy): let `x = (j − y)/2` and look at the state at `t − T`, which the requests of
/// the last `T` steps do not depend on. If some vertex is then `x` above the mean, it still is
/// `x − T/n` above it at `t` (loads never decrease). Otherwise pick, among the edges requested at
/// least `j` times in the window, one uniformly at random: given that there is one, it is a
/// uniform edge `(u, v)` independent of the state, so `A = L(u) + L(v)` at `t − T` has mean
/// `2(t − T)/n` (each vertex lies on `d` of the `m` edges) and is below `2(t − T)/n + 2x`; hence
/// `A ≥ 2(t − T)/n − y` with probability at least `y/(2x + y) = y/j`. Each of the `≥ j` balls of
/// that edge lands on `u` or `v`, so the heavier of the two ends at least `(A + j)/2`, which is
/// `(j − y)/2 − T/n` above the mean `t/n`.
///
/// ```
/// use balloc::graph::binomial::pair_lower_bound;
/// use balloc::exact::Q;
/// // The three edges of a triangle, T = 4, j = 2, y = 1: (121/135)·(1/2) = 121/270.
/// let b = pair_lower_bound(4, 3, 3, 2, 1, 64).unwrap();
/// assert!(b.contains(&Q::new(121.into(), 270.into())));
/// assert!(pair_lower_bound(4, 3, 3, 2, 2, 64).is_err()); // y must be below j
/// ```
pub fn pair_lower_bound(t: u64, n: usize, m: usize, j: u64, y: u64, prec: u64) -> Result<Interval> {
    if t == 0 || n == 0 || m == 0 || y == 0 || y >= j {
        return Err(Error::invalid(
            "strategy-free pair bound",
            format!("needs T ≥ 1, a graph with edges and 0 < y < j, got T = {t}, y = {y}, j = {j}"),
        ));
    }
    max_requests_lower_bound(t, m, j, prec)
        .map(|p| p.mul_rational(&Q::new(Int::from(y), Int::from(j)), prec))
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    /// The exact tail as a rational sum of `C(T, j)pʲ(1 − p)^{T−j}`.
    fn exact_tail(t: u64, p: &Q, j0: u64) -> Q {
        let q = Q::one() - p;
        let mut c = BigInt::one();
        let mut sum = Q::zero();
        for j in 0..=t {
            if j >= j0 {
                sum += Q::from_integer(Int::from(&c))
                    * num_traits::pow(p.clone(), j as usize)
                    * num_traits::pow(q.clone(), (t - j) as usize);
            }
            c = c * BigInt::from(t - j) / BigInt::from(j + 1);
        }
        sum
    }

    fn the_enclosure_contains_the_exact_rational_tail() {
        for (t, a, b) in [
            (1u64, 1, 2),
            (7, 1, 3),
            (20, 383, 768),
            (30, 5, 6),
            (40, 1, 50),
        ] {
            let p = Q::new(a.into(), b.into());
            for j0 in [0, 1, t / 2, t - 1, t, t + 1] {
                let e = upper_tail(t, &p, j0, 128).unwrap();
                let x = exact_tail(t, &p, j0);
                assert!(e.contains(&x), "T = {t}, p = {p}, j0 = {j0}: {e:?} vs {x}");
                // 128 bits and at most ~T roundings: the width is far below 1e-30 relative.
                assert!(e.rel_width() <= 1e-30, "{}", e.rel_width());
            }
        }
    }

    /// A long tail against the normal limit: T = 40 000, p = 1/2, j₀ = T/2 + √T = 20 200 (two
    /// standard deviations): P ≈ Φ̄((j₀ − 1/2 − T/2)/(√T/2)) = Φ̄(1.995) ≈ 0.02302 (continuity
    /// correction; the error of the approximation is O(1/T) here by symmetry).
    fn a_long_tail_matches_the_normal_limit() {
        let half = Q::new(1.into(), 2.into());
        let j0 = mean_plus_sqrt(40_000, &half);
        assert_eq!(j0, 20_200);
        let e = upper_tail(40_000, &half, j0, 64).unwrap();
        assert!(e.rel_width() < 1e-12);
        assert!((e.lo_f64() - 0.023_02).abs() < 2e-4, "{}", e.lo_f64());
    }

    fn invalid_inputs() {
        let e = upper_tail(10, &Q::one(), 3, 64).unwrap_err().to_string();
        assert!(e.contains("0 < p < 1"), "{e}");
        let e = upper_tail(u64::MAX, &Q::new(1.into(), 2.into()), 3, 64)
            .unwrap_err()
            .to_string();
        assert!(e.contains("BINOMIAL_TRIALS"), "{e}");
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "the_enclosure_contains_the_exact_rational_tail",
            run: the_enclosure_contains_the_exact_rational_tail,
            panics: None,
        },
        crate::unit::Test {
            name: "a_long_tail_matches_the_normal_limit",
            run: a_long_tail_matches_the_normal_limit,
            panics: None,
        },
        crate::unit::Test {
            name: "invalid_inputs",
            run: invalid_inputs,
            panics: None,
        },
    ];
}
