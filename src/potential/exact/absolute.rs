//! The absolute-value potential `Δ = Σ |yᵢ|` and its expectation after one step or one batch,
//! exactly.
//!
//! Reference: Los–Sauerwald–Sylvester, *Mean-Biased Processes* (arXiv:2308.05087), Fig. 4.2;
//! closed forms (derived, the same as `crate::potential::Absolute`): with `D(s) = Σᵢ |yᵢ − s|`, a
//! sample putting weight `S` into bin `j` gives `Δ' = D(S/n) − |yⱼ − S/n| + |yⱼ + S(1 − 1/n)|`;
//! a batch of `b` unit balls gives bin `i` a `K ~ Bin(b, rᵢ)` number of balls and
//! `E[Δ'] = Σᵢ E|cᵢ + K|` with `cᵢ = yᵢ − b/n`, where
//! `E|c + K| = c + b·r + 2·Σ_{0 ≤ k < −c} (−c − k)·C(b,k) rᵏ (1 − r)^{b−k}`.

use crate::error::{Error, Result};
use crate::exact::{Q, int, normalized};
use crate::process::ExactStepLaw;
use crate::setting::ExactSetting;
use num_traits::{One, Signed, Zero};
use std::collections::BTreeMap;

/// `Δ = Σ |yᵢ|` at the loads `x`.
///
/// ```
/// use balloc::exact::int;
/// use balloc::potential::exact::absolute;
/// // x = (4, 1, 1): y = (2, −1, −1), Δ = 4.
/// assert_eq!(absolute::value(&[int(4), int(1), int(1)]), int(4));
/// ```
pub fn value(x: &[Q]) -> Q {
    normalized(x)
        .iter()
        .map(|v| v.abs())
        .fold(Q::zero(), |a, b| a + b)
}

/// `D(s) = Σ |yᵢ − s|` in O(log n) per query (sorted values and prefix sums).
struct AbsDeviation {
    sorted: Vec<Q>,
    prefix: Vec<Q>,
}

impl AbsDeviation {
    fn new(y: &[Q]) -> Self {
        let mut sorted = y.to_vec();
        sorted.sort();
        let mut prefix = vec![Q::zero()];
        for v in &sorted {
            let last = prefix.last().cloned().unwrap_or_else(Q::zero);
            prefix.push(last + v);
        }
        AbsDeviation { sorted, prefix }
    }
    fn at(&self, s: &Q) -> Q {
        let k = self.sorted.partition_point(|v| v <= s);
        let n = self.sorted.len();
        let below = s * int(k as i64) - &self.prefix[k];
        let above = (&self.prefix[n] - &self.prefix[k]) - s * int((n - k) as i64);
        below + above
    }
}

/// The law of `S`, the sum of `k` i.i.d. weights from a finite support.
fn sum_law(support: &[(Q, Q)], k: u32) -> Vec<(Q, Q)> {
    let mut law: BTreeMap<Q, Q> = BTreeMap::new();
    law.insert(Q::zero(), Q::one());
    for _ in 0..k {
        let mut next: BTreeMap<Q, Q> = BTreeMap::new();
        for (s, p) in &law {
            for (w, q) in support {
                *next.entry(s + w).or_insert_with(Q::zero) += p * q;
            }
        }
        law = next;
    }
    law.into_iter().collect()
}

/// `E|c + K|` for `K ~ Bin(b, r)`, exactly.
///
/// ```
/// use balloc::exact::{int, Q};
/// use balloc::potential::exact::absolute::binomial_abs;
/// // K ~ Bin(2, 1/2), c = −1: |−1|·1/4 + |0|·1/2 + |1|·1/4 = 1/2.
/// assert_eq!(binomial_abs(&int(-1), 2, &Q::new(1.into(), 2.into())), Q::new(1.into(), 2.into()));
/// ```
pub fn binomial_abs(c: &Q, b: u64, r: &Q) -> Q {
    let bq = int(b as i64);
    let base = c + &bq * r;
    if !c.is_negative() {
        return base;
    }
    let one = Q::one();
    let mut extra = Q::zero();
    if r.is_one() {
        // K = b surely.
        if (c + &bq).is_negative() {
            extra = -(c + &bq);
        }
        return base + int(2) * extra;
    }
    let ratio = r / (&one - r);
    let mut pmf = num_traits::pow(&one - r, b as usize); // P(K = 0)
    let mut k: u64 = 0;
    while k <= b && int(k as i64) < -c {
        extra += (-c - int(k as i64)) * &pmf;
        // P(K = k+1) = P(K = k)·(b − k)/(k + 1)·r/(1 − r)
        pmf = pmf * int((b - k) as i64) / int((k + 1) as i64) * &ratio;
        k += 1;
    }
    base + int(2) * extra
}

/// `E[Δ' | x]` after one step of `law` with a finite weight law, or after one batch of `b` unit
/// balls from a unit law; [`Error::Unsupported`] otherwise (those expectations involve `e^{…}`
/// terms for continuous laws, or a multinomial over outcomes: use
/// [`super::enumerate::brute_force`] on small cases).
///
/// ```
/// use balloc::exact::{int, Q};
/// use balloc::potential::exact::absolute;
/// use balloc::setting::ExactSetting;
/// use balloc::process::ExactStepLaw;
/// // Two-Choice, n = 2, x = (1, 0), y = (½, −½), Δ = 1: the heavy bin (prob. 1/4) gives
/// // loads (2, 0), Δ' = 2; the light bin (prob. 3/4) gives (1, 1), Δ' = 0. E[Δ'] = 1/2.
/// let q = |a: i64, b: i64| Q::new(a.into(), b.into());
/// let law = ExactStepLaw::unit_checked(vec![q(1, 4), q(3, 4)]).unwrap();
/// let e = absolute::expected_next(&law, &[int(1), int(0)], &ExactSetting::sequential()).unwrap();
/// assert_eq!(e, q(1, 2));
/// ```
pub fn expected_next(law: &ExactStepLaw, x: &[Q], setting: &ExactSetting) -> Result<Q> {
    if law.n != x.len() {
        return Err(Error::invalid(
            "allocation vector",
            format!("has {} bins but there are {} loads", law.n, x.len()),
        ));
    }
    let y = normalized(x);
    let n = int(y.len() as i64);
    if setting.batch == 1 {
        let support = setting.weights.support().ok_or_else(|| {
            Error::Unsupported(
                "the exact Δ expectation needs a finite weight law (continuous laws give e^{…} terms)"
                    .to_string(),
            )
        })?;
        let dev = AbsDeviation::new(&y);
        let mut laws: BTreeMap<u32, Vec<(Q, Q)>> = BTreeMap::new();
        let one_minus = Q::one() - Q::one() / &n;
        let mut total = Q::zero();
        for o in &law.outcomes {
            let s_law = laws
                .entry(o.balls)
                .or_insert_with(|| sum_law(&support, o.balls));
            let v = &y[o.bin];
            for (s, ps) in s_law.iter() {
                let sn = s / &n;
                let next = dev.at(&sn) - (v - &sn).abs() + (v + s * &one_minus).abs();
                total += &o.prob * ps * next;
            }
        }
        return Ok(total);
    }
    if !(law.is_unit() && setting.weights.is_unit()) {
        return Err(Error::Unsupported(
            "the exact batched Δ expectation covers unit balls from a one-ball law".to_string(),
        ));
    }
    let b = setting.batch;
    let shift = int(b as i64) / &n;
    let r = law.per_bin_probability();
    Ok(y.iter()
        .zip(&r)
        .map(|(v, ri)| binomial_abs(&(v - &shift), b, ri))
        .fold(Q::zero(), |a, c| a + c))
}
