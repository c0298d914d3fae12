//! Multinomial counts by the conditional binomial chain: a whole batch in O(K) binomial draws
//! for K categories, whatever the number of balls.
//!
//! **Why a batch can be drawn this way.** In the b-batched setting (Los–Sauerwald, *Balanced
//! Allocations in Batches*, SPAA 2022, §2; notes §4.3) the law of one step is frozen at the load
//! vector at the start of the batch and the b steps are drawn independently from it. Let outcome
//! `o` (a destination bin with a ball count; for a rank-based process, a bin with the probability
//! of its rank after the tie rule) have probability `q_o`. The b steps are i.i.d. categorical, so
//! the outcome counts `(N_1, …, N_K)` are Multinomial(b; q), with pmf
//! `b!/(∏ N_o!) · ∏ q_o^{N_o}`, and the batch's effect on the loads is a function of the counts
//! only (bin `o` receives `N_o·balls_o` balls; their weights are i.i.d. and independent of the
//! counts). The multinomial pmf factorises as
//! `P(N_1 = k_1) · P(N_2 = k_2 | N_1 = k_1) ⋯`, where, given `N_1 = k_1, …, N_{o−1} = k_{o−1}`,
//! the remaining `b − Σ k` steps are i.i.d. on outcomes `o, …, K` with probabilities
//! `q_j / (q_o + … + q_K)`, hence `N_o | N_{<o} ~ Bin(b − Σ_{j<o} k_j, q_o / Σ_{j≥o} q_j)`.
//! Drawing the counts along this chain therefore has exactly the law of ball-by-ball sampling.
//! `tests/sim_batch.rs` checks it against the natural ball-by-ball sampler of each process with
//! chi-square tests at fixed seeds.

use super::rng::SimRng;
use rand_distr::{Binomial, Distribution};

/// Draws `(N_o)` ~ Multinomial(`b`; `q`) into `out` (resized to `q.len()`). `q` must be
/// non-negative with a positive sum (it is used up to normalisation).
///
/// ```
/// use balloc::sim::multinomial::multinomial;
/// let mut out = Vec::new();
/// multinomial(&mut balloc::sim::rng::run_rng(5), 1000, &[0.2, 0.0, 0.8], &mut out);
/// assert_eq!(out.iter().sum::<u64>(), 1000);
/// assert_eq!(out[1], 0);
/// ```
pub fn multinomial(rng: &mut SimRng, b: u64, q: &[f64], out: &mut Vec<u64>) {
    out.clear();
    out.resize(q.len(), 0);
    // Suffix sums computed once, so that rounding does not accumulate along the chain.
    let mut tail = vec![0.0; q.len() + 1];
    for i in (0..q.len()).rev() {
        tail[i] = tail[i + 1] + q[i];
    }
    let last = match q.iter().rposition(|&v| v > 0.0) {
        Some(l) => l,
        None => return,
    };
    let mut rem = b;
    for i in 0..=last {
        if rem == 0 {
            break;
        }
        if q[i] <= 0.0 {
            continue;
        }
        let k = if i == last {
            rem
        } else {
            let p = (q[i] / tail[i]).clamp(0.0, 1.0);
            binomial(rng, rem, p)
        };
        out[i] = k;
        rem -= k;
    }
}

/// One Bin(`n`, `p`) draw: Hörmann's transformed rejection with squeeze (BTRS) when
/// `n·min(p, 1 − p) ≥ 10`, else rand_distr's inversion. `tests/sim.rs` checks both against the
/// exact pmf with chi-square tests.
#[inline]
pub fn binomial(rng: &mut SimRng, n: u64, p: f64) -> u64 {
    if p >= 1.0 {
        return n;
    }
    if p <= 0.0 || n == 0 {
        return 0;
    }
    let (pp, flipped) = if p > 0.5 { (1.0 - p, true) } else { (p, false) };
    if n as f64 * pp >= 10.0 {
        let k = btrs(rng, n, pp);
        return if flipped { n - k } else { k };
    }
    Binomial::new(n, p).map(|d| d.sample(rng)).unwrap_or(0)
}

/// `ln k! − [(k + ½) ln(k + 1) − (k + 1) + ½ ln 2π]`, the remainder of Stirling's formula:
/// exact (from `ln k!` summed in f64) for k ≤ 9, else the series
/// `1/(12(k+1)) − 1/(360(k+1)³) + 1/(1260(k+1)⁵)` (error below 10⁻¹¹ for k ≥ 10).
fn stirling_tail(k: f64) -> f64 {
    if k <= 9.0 {
        let mut lf = 0.0;
        let mut j = 2.0;
        while j <= k {
            lf += f64::ln(j);
            j += 1.0;
        }
        return lf
            - ((k + 0.5) * (k + 1.0).ln() - (k + 1.0) + 0.5 * (2.0 * std::f64::consts::PI).ln());
    }
    let k1 = k + 1.0;
    let k1sq = k1 * k1;
    (1.0 / 12.0 - (1.0 / 360.0 - 1.0 / 1260.0 / k1sq) / k1sq) / k1
}

/// BTRS (W. Hörmann, *The generation of binomial random variates*, J. Stat. Comput. Simul. 46,
/// 1993): transformed rejection from a table-mountain hat, a box where the draw is accepted at
/// once, and otherwise an exact acceptance test `ln v ≤ ln(f(k)/f(m))` with `f` the pmf and `m`
/// the mode, evaluated through Stirling remainders. Needs `p ≤ ½` and `n·p ≥ 10`.
fn btrs(rng: &mut SimRng, n: u64, p: f64) -> u64 {
    use super::rng::unit_f64;
    let nf = n as f64;
    let q = 1.0 - p;
    let spq = (nf * p * q).sqrt();
    let b = 1.15 + 2.53 * spq;
    let a = -0.0873 + 0.0248 * b + 0.01 * p;
    let c = nf * p + 0.5;
    let v_r = 0.92 - 4.2 / b;
    let r = p / q;
    let alpha = (2.83 + 5.1 / b) * spq;
    let m = ((nf + 1.0) * p).floor();
    let tail_m = stirling_tail(m) + stirling_tail(nf - m);
    loop {
        let u = unit_f64(rng) - 0.5;
        let v = unit_f64(rng);
        let us = 0.5 - u.abs();
        let k = ((2.0 * a / us + b) * u + c).floor();
        if k < 0.0 || k > nf {
            continue;
        }
        if us >= 0.07 && v <= v_r {
            return k as u64;
        }
        let lv = (v * alpha / (a / (us * us) + b)).ln();
        let bound = (m + 0.5) * ((m + 1.0) / (r * (nf - m + 1.0))).ln()
            + (nf + 1.0) * ((nf - m + 1.0) / (nf - k + 1.0)).ln()
            + (k + 0.5) * (r * (nf - k + 1.0) / (k + 1.0)).ln()
            + tail_m
            - stirling_tail(k)
            - stirling_tail(nf - k);
        if lv <= bound {
            return k as u64;
        }
    }
}
