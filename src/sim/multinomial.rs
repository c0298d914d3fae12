//! Multinomial counts by the conditional binomial chain: a whole batch in O(K) binomial draws
//! for K categories, whatever the number of balls.
//!
//! **Why a batch can be drawn this way.** In the b-batched setting (Los–Sauerwald, *Balanced
//! Allocations in Batches*, SPAA 2022, §2; `docs/derivations.md` §3) the law of one step is frozen at the load
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
//! `tests/sim.rs` checks it against the natural ball-by-ball sampler of each process with
//! chi-square tests at fixed seeds.

use crate::rng::{SimRng, unit_f64};

/// Draws `(N_o)` ~ Multinomial(`b`; `q`) into `out` (resized to `q.len()`). `q` must be
/// non-negative with a positive sum (it is used up to normalisation). A convenience wrapper of
/// [`Multinomial::draw`] that allocates its scratch space on every call.
///
/// ```
/// use balloc::sim::multinomial::multinomial;
/// let mut out = Vec::new();
/// multinomial(&mut balloc::sim::rng::run_rng(5), 1000, &[0.2, 0.0, 0.8], &mut out);
/// assert_eq!(out.iter().sum::<u64>(), 1000);
/// assert_eq!(out[1], 0);
/// ```
pub fn multinomial(rng: &mut SimRng, b: u64, q: &[f64], out: &mut Vec<u64>) {
    Multinomial::default().draw(rng, b, q, out);
}

/// The binomial chain with its scratch space (the suffix sums of `q`) kept between draws, so
/// that a batch costs no allocation.
#[derive(Debug, Clone, Default)]
pub struct Multinomial {
    tail: Vec<f64>,
    tree: Vec<u64>,
}

impl Multinomial {
    /// [`uniform_split`] with this sampler's scratch space.
    pub fn split_uniform(&mut self, rng: &mut SimRng, c: u64, out: &mut [u64]) {
        uniform_split_with(rng, c, out, &mut self.tree);
    }

    /// Draws `(N_o)` ~ Multinomial(`b`; `q`) into `out` (resized to `q.len()`), by the chain
    /// `N_o | N_{<o} ~ Bin(b − Σ_{j<o} N_j, q_o / Σ_{j≥o} q_j)` (module documentation). `q` must
    /// be non-negative with a positive sum; an all-zero `q` leaves `out` at zero.
    ///
    /// ```
    /// use balloc::sim::multinomial::Multinomial;
    /// let (mut m, mut out) = (Multinomial::default(), Vec::new());
    /// let mut rng = balloc::sim::rng::run_rng(3);
    /// m.draw(&mut rng, 50, &[0.0, 1.0, 0.0], &mut out);
    /// assert_eq!(out, vec![0, 50, 0]); // a single outcome with positive probability takes all
    /// ```
    pub fn draw(&mut self, rng: &mut SimRng, b: u64, q: &[f64], out: &mut Vec<u64>) {
        out.clear();
        out.resize(q.len(), 0);
        // Suffix sums computed once, so that rounding does not accumulate along the chain.
        let tail = &mut self.tail;
        tail.clear();
        tail.resize(q.len() + 1, 0.0);
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
}

/// Adds to `out` the counts of `c` balls thrown independently and uniformly into `out.len()`
/// cells, i.e. a Multinomial(`c`; 1/L, …, 1/L) draw with `L = out.len()` (nothing happens when
/// `c = 0`; `L = 0` with `c > 0` is a caller error and panics).
///
/// **Method.** Each ball picks one of `S = 2^⌈log₂ L⌉` slots uniformly by `log₂ S` fair binary
/// choices; the counts are split down the binary tree of slots with Bin(·, ½) draws
/// ([`half_binomial`]: a popcount of random bits, no floating point). Balls that land in a slot
/// `≥ L` are thrown again. Every ball independently ends in the first slot `< L` it hits, which
/// is uniform on `0..L`, so the counts are exactly Multinomial(`c`; uniform). A round costs about
/// `c·log₂S/64` random words, and rounds shrink geometrically (at most half the balls are thrown
/// again, in expectation).
///
/// This splits a tied group: under random tie-breaking every bin of a group of equal loads has
/// the same probability, so a batch's count for the group is shared out uniformly
/// (`Dense::rank_batch`).
///
/// ```
/// use balloc::sim::multinomial::uniform_split;
/// let mut out = vec![0u64; 5];
/// uniform_split(&mut balloc::sim::rng::run_rng(2), 1000, &mut out);
/// assert_eq!(out.iter().sum::<u64>(), 1000);
/// ```
pub fn uniform_split(rng: &mut SimRng, c: u64, out: &mut [u64]) {
    uniform_split_with(rng, c, out, &mut Vec::new());
}

/// [`uniform_split`] with caller-provided scratch space (`tree`, resized as needed), so that
/// splitting many groups allocates nothing.
///
/// The slot tree is kept flat in `tree[0..S]`: a node of width `w` starting at slot `j` holds
/// its count in `tree[j]`; splitting it moves the right half's share to `tree[j + w/2]`. Widths
/// go `S, S/2, …, 2`, so after the last pass `tree[j]` is the count of slot `j`.
pub fn uniform_split_with(rng: &mut SimRng, c: u64, out: &mut [u64], tree: &mut Vec<u64>) {
    let l = out.len();
    if c == 0 {
        return;
    }
    assert!(l > 0, "uniform_split: {c} balls and no cell");
    if l == 1 {
        out[0] += c;
        return;
    }
    let size = l.next_power_of_two();
    tree.clear();
    tree.resize(size, 0);
    let mut c = c;
    while c > 0 {
        tree[0] = c;
        let mut w = size;
        while w > 1 {
            let h = w / 2;
            // Nodes starting at or beyond L hold only slots ≥ L: they are never split.
            let mut j = 0;
            while j < l {
                let cj = tree[j];
                if cj > 0 {
                    let k = half_binomial(rng, cj);
                    tree[j] = k;
                    tree[j + h] = cj - k;
                }
                j += w;
            }
            w = h;
        }
        // Slots ≥ L: their balls are thrown again.
        c = 0;
        for (slot, t) in tree.iter_mut().enumerate() {
            if slot < l {
                out[slot] += *t;
            } else {
                c += *t;
            }
            *t = 0;
        }
    }
}

/// One Bin(`c`, ½) draw: the number of ones among `c` independent fair bits (one 64-bit word per
/// 64 trials, the last word masked), or [`btrs`] when `c > 2048` (32 words cost more than one
/// BTRS draw).
///
/// ```
/// use balloc::sim::multinomial::half_binomial;
/// let mut rng = balloc::sim::rng::run_rng(4);
/// assert_eq!(half_binomial(&mut rng, 0), 0);
/// assert!(half_binomial(&mut rng, 1) <= 1);
/// ```
#[inline]
pub fn half_binomial(rng: &mut SimRng, c: u64) -> u64 {
    use rand::Rng;
    if c > 2048 {
        return btrs(rng, c, 0.5);
    }
    if c <= 64 {
        let w = rng.next_u64();
        return if c == 64 { w } else { w & ((1u64 << c) - 1) }.count_ones() as u64;
    }
    let mut k = 0u64;
    let mut left = c;
    while left >= 64 {
        k += rng.next_u64().count_ones() as u64;
        left -= 64;
    }
    if left > 0 {
        k += (rng.next_u64() & ((1u64 << left) - 1)).count_ones() as u64;
    }
    k
}

/// One Bin(`n`, `p`) draw. With `p' = min(p, 1 − p)` (a draw for `1 − p` is `n` minus a draw for
/// `p`): Hörmann's transformed rejection with squeeze ([`btrs`]) when `n·p' ≥ 10`, else
/// sequential inversion from 0 ([`binv`]). Both are exact up to floating-point rounding;
/// `tests/sim.rs` checks them against the exact pmf with chi-square tests.
///
/// ```
/// use balloc::sim::multinomial::binomial;
/// let mut rng = balloc::sim::rng::run_rng(1);
/// assert_eq!(binomial(&mut rng, 7, 0.0), 0);
/// assert_eq!(binomial(&mut rng, 7, 1.0), 7);
/// let mean = (0..20_000).map(|_| binomial(&mut rng, 1000, 0.3)).sum::<u64>() as f64 / 20_000.0;
/// assert!((mean - 300.0).abs() < 0.5); // sd of the mean: √(1000·0.3·0.7/20000) ≈ 0.1
/// ```
#[inline]
pub fn binomial(rng: &mut SimRng, n: u64, p: f64) -> u64 {
    if p >= 1.0 {
        return n;
    }
    if p.is_nan() || p <= 0.0 || n == 0 {
        return 0;
    }
    let (pp, flipped) = if p > 0.5 { (1.0 - p, true) } else { (p, false) };
    let k = if n as f64 * pp >= 10.0 {
        btrs(rng, n, pp)
    } else {
        binv(rng, n, pp)
    };
    if flipped { n - k } else { k }
}

/// Sequential inversion from 0 (BINV, Kachitvichyanukul–Schmeiser, *Binomial random variate
/// generation*, CACM 31, 1988): `u` uniform, subtract `f(0), f(1), …` until it is used up, with
/// `f(0) = (1 − p)ⁿ` and `f(x) = f(x − 1)·((n + 1)·s/x − s)`, `s = p/(1 − p)`. Needs
/// `p ≤ ½` and `n·p < 10` (then `f(0) ≥ e^{−14}` and the expected number of steps is `n·p`).
/// If rounding leaves `u` unspent after `x = n` (probability of the order of 10⁻¹⁶), the draw
/// restarts.
pub fn binv(rng: &mut SimRng, n: u64, p: f64) -> u64 {
    let s = p / (1.0 - p);
    let a = (n as f64 + 1.0) * s;
    let f0 = (n as f64 * (-p).ln_1p()).exp();
    'draw: loop {
        let mut u = unit_f64(rng);
        let mut f = f0;
        let mut x = 0u64;
        while u >= f {
            u -= f;
            x += 1;
            if x > n {
                continue 'draw;
            }
            f *= a / x as f64 - s;
        }
        return x;
    }
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

/// Candidates at most this far from the mode are tested with the product of pmf ratios (no
/// transcendental call); farther ones in the log domain through Stirling remainders.
const RATIO_STEPS: f64 = 48.0;

/// BTRS (W. Hörmann, *The generation of binomial random variates*, J. Stat. Comput. Simul. 46,
/// 1993): transformed rejection from a table-mountain hat, a box where the draw is accepted at
/// once, and otherwise the exact acceptance test `v·α/(a/u_s² + b) ≤ f(k)/f(m)` with `f` the pmf
/// and `m = ⌊(n + 1)p⌋` the mode. Needs `p ≤ ½` and `n·p ≥ 10`.
///
/// The ratio `f(k)/f(m)` is the product of the consecutive ratios
/// `f(i)/f(i − 1) = (n − i + 1)·p / (i·(1 − p))` between `m` and `k`. Every factor is below 1
/// on the way from the mode outwards (`i > (n + 1)p` for `k > m`, `i ≤ (n + 1)p` for `k < m`),
/// so the partial product decreases and the candidate is rejected as soon as it falls under the
/// hat value. When `|k − m|` exceeds `RATIO_STEPS` the test is made in the log domain instead
/// (Hörmann's form with Stirling remainders), which needs four logarithms.
pub fn btrs(rng: &mut SimRng, n: u64, p: f64) -> u64 {
    let nf = n as f64;
    let q = 1.0 - p;
    let spq = (nf * p * q).sqrt();
    let b = 1.15 + 2.53 * spq;
    let a = -0.0873 + 0.0248 * b + 0.01 * p;
    let two_a = 2.0 * a;
    let c = nf * p + 0.5;
    let inv_b = 1.0 / b;
    let v_r = 0.92 - 4.2 * inv_b;
    let r = p / q;
    let alpha = (2.83 + 5.1 * inv_b) * spq;
    // ⌊·⌋ of non-negative values by truncation (`f64::floor` is a library call on the baseline
    // x86-64 target, and it dominated the profile).
    let m = ((nf + 1.0) * p) as u64 as f64;
    loop {
        let u = unit_f64(rng) - 0.5;
        let v = unit_f64(rng);
        let us = 0.5 - u.abs();
        // The candidate k = ⌊y⌋ lies in 0..=n iff 0 ≤ y < n + 1 (a NaN fails both tests).
        let y = (two_a / us + b) * u + c;
        if !(y >= 0.0 && y < nf + 1.0) {
            continue;
        }
        let k = y as u64 as f64;
        if us >= 0.07 && v <= v_r {
            return k as u64;
        }
        let h = v * alpha / (a / (us * us) + b);
        let accept = if (k - m).abs() <= RATIO_STEPS {
            h <= ratio_to_mode(nf, r, m, k, h)
        } else {
            h.ln() <= log_ratio_to_mode(nf, r, m, k)
        };
        if accept {
            return k as u64;
        }
    }
}

/// `f(k)/f(m)` for the Bin(n, p) pmf `f` with mode `m = ⌊(n + 1)p⌋` and `r = p/(1 − p)`, as the
/// product of the ratios `f(i)/f(i − 1) = (n − i + 1)·r/i` from the mode to `k`. The factors are
/// at most 1, so once the partial product is below `stop` it is returned early (any value below
/// `stop` then answers the acceptance test the same way; `stop = 0` gives the full product).
#[inline]
fn ratio_to_mode(nf: f64, r: f64, m: f64, k: f64, stop: f64) -> f64 {
    let mut ratio = 1.0;
    let mut i = m;
    if k > m {
        while i < k && ratio >= stop {
            i += 1.0;
            ratio *= (nf - i + 1.0) * r / i;
        }
    } else {
        while i > k && ratio >= stop {
            ratio *= i / ((nf - i + 1.0) * r);
            i -= 1.0;
        }
    }
    ratio
}

/// `ln(f(k)/f(m))` as in Hörmann's BTRS: Stirling's formula for the four factorials with their
/// remainders ([`stirling_tail`]).
fn log_ratio_to_mode(nf: f64, r: f64, m: f64, k: f64) -> f64 {
    (m + 0.5) * ((m + 1.0) / (r * (nf - m + 1.0))).ln()
        + (nf + 1.0) * ((nf - m + 1.0) / (nf - k + 1.0)).ln()
        + (k + 0.5) * (r * (nf - k + 1.0) / (k + 1.0)).ln()
        + stirling_tail(m)
        + stirling_tail(nf - m)
        - stirling_tail(k)
        - stirling_tail(nf - k)
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use statrs::function::factorial::ln_binomial;

    /// Both forms of the acceptance bound against `ln C(n, k) − ln C(n, m) + (k − m) ln r`
    /// from statrs' log-factorials (an independent route).
    fn ratio_and_log_forms_agree_with_log_factorials() {
        for &(n, p) in &[
            (30u64, 0.5f64),
            (200, 0.05),
            (50_000, 0.001),
            (1_000_000, 0.4),
        ] {
            let (nf, r) = (n as f64, p / (1.0 - p));
            let m = ((nf + 1.0) * p).floor();
            let sd = (nf * p * (1.0 - p)).sqrt();
            let lo = (m - 6.0 * sd).max(0.0) as u64;
            let hi = ((m + 6.0 * sd) as u64).min(n);
            for k in lo..=hi {
                let kf = k as f64;
                let want = ln_binomial(n, k) - ln_binomial(n, m as u64) + (kf - m) * r.ln();
                // statrs evaluates ln C(n, ·) through ln Γ above 170 (relative accuracy near
                // 10⁻¹⁵ of values up to ~10⁶ here), so the tolerance scales with ln C(n, m).
                let tol = 1e-9 + 1e-13 * ln_binomial(n, m as u64);
                let log_form = log_ratio_to_mode(nf, r, m, kf);
                assert!((log_form - want).abs() < tol, "log form n={n} p={p} k={k}");
                if (kf - m).abs() <= 200.0 {
                    let prod = ratio_to_mode(nf, r, m, kf, 0.0).ln();
                    assert!((prod - want).abs() < tol, "product n={n} p={p} k={k}");
                }
            }
        }
    }

    fn ratio_stops_early_below_the_threshold_and_never_exceeds_one() {
        // Bin(100, 0.3): mode 30. f(40)/f(30) is about 0.1 by the normal approximation
        // (exp(−10²/(2·21)) ≈ 0.09); stopping at 0.5 returns a partial product already below 0.5.
        let (nf, r, m) = (100.0, 0.3 / 0.7, 30.0);
        let full = ratio_to_mode(nf, r, m, 40.0, 0.0);
        assert!(full > 0.05 && full < 0.2, "{full}");
        let part = ratio_to_mode(nf, r, m, 40.0, 0.5);
        assert!(part < 0.5 && part > full);
        for k in 0..=100 {
            assert!(ratio_to_mode(nf, r, m, k as f64, 0.0) <= 1.0);
        }
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "ratio_and_log_forms_agree_with_log_factorials",
            run: ratio_and_log_forms_agree_with_log_factorials,
            panics: None,
        },
        crate::unit::Test {
            name: "ratio_stops_early_below_the_threshold_and_never_exceeds_one",
            run: ratio_stops_early_below_the_threshold_and_never_exceeds_one,
            panics: None,
        },
    ];
}
