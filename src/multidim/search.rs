//! Seeded search spaces of sum-load states for the checks of [`super::claims`], and a driver that
//! reports the worst margin (the families F1–F10 of `docs/derivations.md` §6).
//!
//! * [`reachable_exhaustive`]: every state of the fixed-`f` chain with `n` bins and at most
//!   `max_balls` balls per bin above the lightest: `s = f·(b − mean(b))`, `b` non-increasing with
//!   `min b = 0` (the potentials only see sorted `s`, and `s` is invariant under `b → b + c`).
//! * [`integer_exhaustive`]: every non-increasing integer `L` with `min L = 0` and
//!   `L₁ ≤ max_load`, `s = L − mean(L)`: the states of the sum chain of a general md process
//!   (random `f`); for fixed `f ≥ 2` most of them are unreachable.
//! * [`families`]: one heavy / one light bin at many magnitudes, two- and three-level vectors with
//!   boundaries at `nγ₁`, `n/2`, `nγ₂`, tied blocks, ramps, geometric tails (F1–F7), all reachable
//!   for fixed `f`.
//! * [`random_states`]: reachable states from uniform and heavy-tailed ball counts (F10), seeded
//!   ChaCha.

use super::claims::Check;
use crate::error::Result;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn centre(v: Vec<f64>) -> Vec<f64> {
    let m = v.iter().sum::<f64>() / v.len() as f64;
    v.into_iter().map(|x| x - m).collect()
}

/// Every non-increasing vector in `{0..=max}^n` with last entry 0.
fn monotone(n: usize, max: u32) -> Vec<Vec<u32>> {
    fn rec(n: usize, cap: u32, cur: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if cur.len() == n - 1 {
            let mut v = cur.clone();
            v.push(0);
            out.push(v);
            return;
        }
        for x in 0..=cap {
            cur.push(x);
            rec(n, x, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    if n == 0 {
        return out;
    }
    rec(n, max, &mut Vec::new(), &mut out);
    out
}

/// Every reachable state of the fixed-`f` chain with `n` bins and ball counts `b₁ ≤ max_balls`
/// (lightest 0).
///
/// ```
/// use balloc::multidim::search::reachable_exhaustive;
/// // n = 2, up to 1 ball: b ∈ {(0,0), (1,0)} → s ∈ {(0,0), (f/2, −f/2)}.
/// assert_eq!(reachable_exhaustive(2, 1, 2), vec![vec![0.0, 0.0], vec![1.0, -1.0]]);
/// ```
pub fn reachable_exhaustive(n: usize, max_balls: u32, f: u32) -> Vec<Vec<f64>> {
    monotone(n, max_balls)
        .into_iter()
        .map(|b| centre(b.into_iter().map(|x| (x * f) as f64).collect()))
        .collect()
}

/// Every integer sum-load state with `n` bins and `L₁ ≤ max_load` (lightest 0).
pub fn integer_exhaustive(n: usize, max_load: u32) -> Vec<Vec<f64>> {
    reachable_exhaustive(n, max_load, 1)
}

/// The families F1–F7 at `n` bins for fixed `f`, with level boundaries at `⌊nγ₁⌋`, `n/2`, `⌈nγ₂⌉`.
pub fn families(n: usize, f: u32, gamma1: f64) -> Vec<Vec<f64>> {
    let f = f as f64;
    let mut out = Vec::new();
    let mags = [1.0, 2.0, 3.0, 5.0, 10.0, 30.0, 100.0, 1000.0, 1e5];
    let k1 = ((n as f64 * gamma1).floor() as usize).max(1);
    let k2 = ((n as f64 * (1.0 - gamma1)).ceil() as usize)
        .min(n - 1)
        .max(1);
    let cuts = [1, k1, n / 2, k2, n.saturating_sub(1)];
    for &h in &mags {
        for &k in &cuts {
            if k == 0 || k >= n {
                continue;
            }
            // F1/F3: top k bins at h; F2: bottom n − k bins at 0 (the same vectors), and the
            // mirrored F2': bottom k bins at −h.
            out.push(centre(
                (0..n).map(|i| if i < k { h * f } else { 0.0 }).collect(),
            ));
            out.push(centre(
                (0..n)
                    .map(|i| if i >= n - k { 0.0 } else { h * f })
                    .collect(),
            ));
            // F4: three levels.
            out.push(centre(
                (0..n)
                    .map(|i| {
                        if i < k {
                            2.0 * h * f
                        } else if i < (k + n) / 2 {
                            h * f
                        } else {
                            0.0
                        }
                    })
                    .collect(),
            ));
        }
        // F6: ramps; F7: geometric tails at the top and the bottom.
        out.push(centre((0..n).map(|i| h * f * (n - i) as f64).collect()));
        out.push(centre(
            (0..n)
                .map(|i| (h.min(60.0) * 2f64.powi(-(i as i32))).floor() * f)
                .collect(),
        ));
        out.push(centre(
            (0..n)
                .map(|i| -(h.min(60.0) * 2f64.powi(-((n - 1 - i) as i32))).floor() * f)
                .collect(),
        ));
    }
    // F5: all tied, and tied blocks of sizes 2 and 3.
    out.push(vec![0.0; n]);
    for block in [2usize, 3] {
        out.push(centre(
            (0..n).map(|i| ((n - 1 - i) / block) as f64 * f).collect(),
        ));
    }
    out
}

/// `count` reachable random states (ball counts uniform in `0..=max_balls`, or heavy-tailed
/// `⌊u^{−2}⌋`), from a seeded ChaCha stream.
pub fn random_states(n: usize, f: u32, count: usize, max_balls: u32, seed: u64) -> Vec<Vec<f64>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|k| {
            let b: Vec<f64> = (0..n)
                .map(|_| {
                    if k % 2 == 0 {
                        rng.random_range(0..=max_balls) as f64
                    } else {
                        let u: f64 = rng.random_range(1e-3..1.0);
                        (u.powi(-2)).floor().min(1e6)
                    }
                })
                .collect();
            centre(b.into_iter().map(|x| x * f as f64).collect())
        })
        .collect()
}

/// The result of evaluating a check over a space of states.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SearchReport {
    /// How many states were evaluated.
    pub states: usize,
    /// How many satisfied the hypothesis.
    pub applicable: usize,
    /// How many of those violated the statement.
    pub violations: usize,
    /// The smallest margin over applicable states (`+∞` if none).
    pub worst_margin: f64,
    /// The state attaining it, sorted heaviest first.
    pub worst: Option<Vec<f64>>,
    /// The first violating state found (sorted), if any.
    pub first_violation: Option<Vec<f64>>,
}

impl SearchReport {
    /// Whether no violation was found.
    pub fn holds(&self) -> bool {
        self.violations == 0
    }
}

/// Evaluates `check` on every state and reports violations and the worst margin.
pub fn search<'a>(
    states: impl IntoIterator<Item = &'a Vec<f64>>,
    check: impl Fn(&[f64]) -> Result<Check>,
) -> Result<SearchReport> {
    let mut r = SearchReport {
        states: 0,
        applicable: 0,
        violations: 0,
        worst_margin: f64::INFINITY,
        worst: None,
        first_violation: None,
    };
    for s in states {
        r.states += 1;
        let c = check(s)?;
        if !c.applicable {
            continue;
        }
        r.applicable += 1;
        let sorted = super::potential::sorted_desc(s);
        if c.margin < r.worst_margin {
            r.worst_margin = c.margin;
            r.worst = Some(sorted.clone());
        }
        if !c.holds {
            r.violations += 1;
            if r.first_violation.is_none() {
                r.first_violation = Some(sorted);
            }
        }
    }
    Ok(r)
}
