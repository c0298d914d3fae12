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

/// One Bin(`n`, `p`) draw (rand_distr's BTPE / inversion).
#[inline]
pub fn binomial(rng: &mut SimRng, n: u64, p: f64) -> u64 {
    if p >= 1.0 {
        return n;
    }
    if p <= 0.0 || n == 0 {
        return 0;
    }
    Binomial::new(n, p).map(|d| d.sample(rng)).unwrap_or(0)
}
