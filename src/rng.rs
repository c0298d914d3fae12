//! Randomness of the simulator: per-run seeds derived from (configuration, base seed, run index)
//! with ChaCha20, a ChaCha8 generator per run, and Lemire's bounded integers.
//!
//! Determinism (`docs/conventions.md` §5): the result of a run depends only on (configuration, seed, run index), never on the
//! thread count, because every run owns its generator and runs never share one.

use rand::{Rng, SeedableRng, TryRng};
use rand_chacha::{ChaCha8Rng, ChaCha20Rng};
use std::convert::Infallible;

/// The generator of one run: xoshiro256++ seeded with four words of a ChaCha8 stream (see
/// [`run_rng`]). The hot loops draw one or two words per ball, and `BENCHMARKS.md` ("generator")
/// shows that ChaCha8 costs about 1.8× as much for the two ranks of a Two-Choice ball.
pub type SimRng = Xoshiro256pp;

/// xoshiro256++ (Blackman–Vigna, 2019): 256 bits of state, period 2²⁵⁶ − 1, output
/// `rotl(s0 + s3, 23) + s0`. Only ever seeded from ChaCha output ([`run_rng`]).
///
/// ```
/// use balloc::sim::rng::Xoshiro256pp;
/// use rand::Rng;
/// // Reference value: state (1, 2, 3, 4) gives rotl(1 + 4, 23) + 1 = 5·2²³ + 1 first.
/// let mut x = Xoshiro256pp::from_state([1, 2, 3, 4]);
/// assert_eq!(x.next_u64(), 5 * (1 << 23) + 1);
/// ```
#[derive(Debug, Clone)]
pub struct Xoshiro256pp {
    s: [u64; 4],
}

impl Xoshiro256pp {
    /// A generator with the given state (not all zero; an all-zero state is replaced by a fixed
    /// non-zero one).
    pub fn from_state(s: [u64; 4]) -> Xoshiro256pp {
        if s == [0; 4] {
            return Xoshiro256pp { s: [1, 0, 0, 0] };
        }
        Xoshiro256pp { s }
    }

    #[inline(always)]
    fn step(&mut self) -> u64 {
        let s = &mut self.s;
        let out = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        out
    }
}

impl Xoshiro256pp {
    /// When `draw`, the fair coin `rng.random::<bool>()` would give (the sign bit of the next
    /// `u32`, i.e. bit 63 of the next word), advancing the generator by one word; when `!draw`,
    /// `false` and the generator is left as it was. The next state is computed either way and
    /// kept by a select, so no branch depends on `draw`.
    ///
    /// ```
    /// use balloc::sim::rng::Xoshiro256pp;
    /// use rand::RngExt;
    /// let (mut a, mut b) = (Xoshiro256pp::from_state([1, 2, 3, 4]), Xoshiro256pp::from_state([1, 2, 3, 4]));
    /// assert!(!a.coin_if(false));
    /// // The first word is 5·2²³ + 1 < 2⁶³: tails, as rand's `bool` says.
    /// assert_eq!(a.coin_if(true), b.random::<bool>());
    /// assert_eq!(a.coin_if(true), b.random::<bool>());
    /// ```
    #[inline(always)]
    pub fn coin_if(&mut self, draw: bool) -> bool {
        let mut next = self.clone();
        let out = next.step();
        let keep = (draw as u64).wrapping_neg();
        for (s, n) in self.s.iter_mut().zip(next.s) {
            *s = (n & keep) | (*s & !keep);
        }
        draw & ((out >> 63) == 1)
    }
}

impl TryRng for Xoshiro256pp {
    type Error = Infallible;
    #[inline(always)]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok((self.step() >> 32) as u32)
    }
    #[inline(always)]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.step())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            let v = self.step().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }
}

/// FNV-1a, 64 bits: a stable hash of the canonical configuration key (not cryptographic; it only
/// separates the seed streams of different configurations).
///
/// ```
/// // FNV-1a of the empty string is the offset basis.
/// assert_eq!(balloc::sim::rng::fnv1a64(""), 0xcbf2_9ce4_8422_2325);
/// ```
pub fn fnv1a64(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The seed of run `run` of the configuration with canonical key `key` under base seed `seed`:
/// the first word of ChaCha20 keyed with `(seed, fnv1a64(key), run, "balloc")`.
///
/// ```
/// use balloc::sim::rng::run_seed;
/// assert_eq!(run_seed("k", 1, 0), run_seed("k", 1, 0));
/// assert_ne!(run_seed("k", 1, 0), run_seed("k", 1, 1));
/// assert_ne!(run_seed("k", 1, 0), run_seed("other", 1, 0));
/// ```
pub fn run_seed(key: &str, seed: u64, run: u64) -> u64 {
    let mut k = [0u8; 32];
    k[0..8].copy_from_slice(&seed.to_le_bytes());
    k[8..16].copy_from_slice(&fnv1a64(key).to_le_bytes());
    k[16..24].copy_from_slice(&run.to_le_bytes());
    k[24..32].copy_from_slice(b"balloc\0\0");
    ChaCha20Rng::from_seed(k).next_u64()
}

/// The generator of a run with the given run seed: xoshiro256++ whose state is the first four
/// words of `ChaCha8Rng::seed_from_u64(run_seed)`.
pub fn run_rng(run_seed: u64) -> SimRng {
    let mut c = ChaCha8Rng::seed_from_u64(run_seed);
    Xoshiro256pp::from_state([c.next_u64(), c.next_u64(), c.next_u64(), c.next_u64()])
}

/// A uniform integer in `0..n` (`n ≥ 1`) by Lemire's multiply-and-reject method: exact, and one
/// 64-bit word per draw except with probability `< n/2⁶⁴`.
///
/// ```
/// let mut r = balloc::sim::rng::run_rng(7);
/// for _ in 0..1000 { assert!(balloc::sim::rng::below(&mut r, 3) < 3); }
/// ```
#[inline(always)]
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    let mut m = (rng.next_u64() as u128) * (n as u128);
    if (m as u64) < n {
        let t = n.wrapping_neg() % n;
        while (m as u64) < t {
            m = (rng.next_u64() as u128) * (n as u128);
        }
    }
    (m >> 64) as u64
}

/// A uniform integer in `0..n` (`1 ≤ n < 2³²`) drawn exactly as `rand`'s
/// `random_range(0..n)` draws it for `usize` (so a stream that used it keeps its numbers), but
/// inlined: one 32-bit word `w`, `(hi, lo) = w·n` in 64 bits; when `lo > 2³² − n` a second word
/// `w'` decides whether `hi` is carried up by one (`lo + ⌊w'·n/2³²⌋ ≥ 2³²`). The result is
/// `⌊(w + w'/2³²)·n/2³²⌋`, uniform up to a bias below `n/2⁶⁴`.
///
/// ```
/// use balloc::sim::rng::{below_like_rand, run_rng};
/// use rand::RngExt;
/// let (mut a, mut b) = (run_rng(5), run_rng(5));
/// for n in [1usize, 2, 3, 7, 1000, 4_000_000_000] {
///     for _ in 0..1000 {
///         assert_eq!(below_like_rand(&mut a, n), b.random_range(0..n));
///     }
/// }
/// ```
#[inline(always)]
pub fn below_like_rand(rng: &mut SimRng, n: usize) -> usize {
    debug_assert!(n >= 1 && n as u64 <= u32::MAX as u64);
    let range = n as u32;
    let m = (rng.next_u32() as u64) * (range as u64);
    let (mut hi, lo) = ((m >> 32) as u32, m as u32);
    if lo > range.wrapping_neg() {
        let new_hi = (((rng.next_u32() as u64) * (range as u64)) >> 32) as u32;
        hi += u32::from(lo.checked_add(new_hi).is_none());
    }
    hi as usize
}

/// A uniform `f64` in `[0, 1)` with 53 random bits.
#[inline(always)]
pub fn unit_f64<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// `true` with probability `threshold / 2⁶⁴` (see [`bernoulli_threshold`]).
#[inline(always)]
pub fn bernoulli<R: Rng + ?Sized>(rng: &mut R, threshold: u64) -> bool {
    rng.next_u64() < threshold
}

/// The threshold of [`bernoulli`] for probability `p ∈ [0, 1]` (`p = 1` saturates at 2⁶⁴ − 1,
/// so that case is off by 2⁻⁶⁴).
pub fn bernoulli_threshold(p: f64) -> u64 {
    if p >= 1.0 {
        u64::MAX
    } else if p <= 0.0 {
        0
    } else {
        (p * 18_446_744_073_709_551_616.0) as u64
    }
}

/// Two independent uniform integers in `0..n` (`1 ≤ n ≤ 2³²`) from one 64-bit word when possible:
/// Lemire's method on each 32-bit half, redrawing a half that falls in the rejection zone.
///
/// ```
/// let mut r = balloc::sim::rng::run_rng(9);
/// let (a, b) = balloc::sim::rng::below_pair32(&mut r, 5, (1u64 << 32) % 5);
/// assert!(a < 5 && b < 5);
/// ```
#[inline(always)]
pub fn below_pair32<R: Rng + ?Sized>(rng: &mut R, n: u64, reject: u64) -> (u64, u64) {
    let w = rng.next_u64();
    let mut a = (w & 0xffff_ffff) * n;
    let mut b = (w >> 32) * n;
    while (a & 0xffff_ffff) < reject {
        a = (rng.next_u64() >> 32) * n;
    }
    while (b & 0xffff_ffff) < reject {
        b = (rng.next_u64() >> 32) * n;
    }
    (a >> 32, b >> 32)
}
