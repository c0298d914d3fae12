//! Lower-bound constructions, computed exactly (rationals) where they are finite.
//!
//! * [`batched`]: Los–Sauerwald, *Balanced Allocations in Batches* (SPAA 2022), §7 ("for any
//!   b ≥ n, there are processes falling into our framework that produce … a gap of
//!   Ω(b/n + log n)"; A.Thm.Sec7 in `docs/derivations.md` §7). The paper's constructions were
//!   not available; the ones here are derived: Two-Choice in batches from `x = 0` with fixed
//!   tie-breaking (the last bin receives `Bin(b, pₙ)` balls), with random tie-breaking (exact
//!   laws of the heaviest and lightest bins after one and two batches), and processes with a
//!   large largest allocation probability (expected gain `b(max pᵢ − 1/n)` in one batch).
//! * [`mean_biased`]: Los–Sauerwald–Sylvester, *Mean-Biased Processes* (arXiv:2308.05087),
//!   "tight for many such processes, including Mean-Thinning and Twinning" (abstract; the
//!   constructions were not retrieved). Reconstructed here: a bin that is never sampled keeps
//!   load 0 while the mean grows by at least one ball per step, which gives
//!   `P(max − min ≥ T/n after T steps) ≥ P(some bin is missed by 2T (Mean-Thinning) or T
//!   (Twinning) uniform samples)`, an exact coupon-collector probability; with `T = Θ(n log n)`
//!   this is the Ω(log n) lower bound for the spread. Exact spread laws at small `n` pin it.
//!
//! Snapshot tests (`tests/lower_bound.rs`) pin the exact numbers.

pub mod batched;
pub mod mean_biased;

use crate::exact::{Int, Q};
use std::collections::BTreeMap;

/// A finite probability law on exact rationals: value → probability, ordered by value.
pub type Law = BTreeMap<Q, Q>;

/// `E[X]` of a finite law.
///
/// ```
/// use balloc::lower_bound::{Law, mean};
/// use balloc::exact::Q;
/// let h = Q::new(1.into(), 2.into());
/// let law: Law = [(Q::from_integer(0.into()), h.clone()), (Q::from_integer(2.into()), h)].into();
/// assert_eq!(mean(&law), Q::from_integer(1.into()));
/// ```
pub fn mean(law: &Law) -> Q {
    law.iter().map(|(v, p)| v * p).sum()
}

/// `P(X ≥ t)` of a finite law.
pub fn tail(law: &Law, t: &Q) -> Q {
    law.range(t.clone()..).map(|(_, p)| p.clone()).sum()
}

/// `n!` as a big integer.
pub(crate) fn factorial(n: u64) -> Int {
    (1..=n).fold(Int::from(1), |a, k| a * Int::from(k))
}

/// `C(n, k)` as a big integer.
pub(crate) fn binomial(n: u64, k: u64) -> Int {
    factorial(n) / (factorial(k) * factorial(n - k))
}

/// Renders a law as lines `value ≈ float : probability ≈ float` (deterministic, for snapshots).
pub fn render(law: &Law) -> String {
    use num_traits::ToPrimitive;
    let mut s = String::new();
    for (v, p) in law {
        s.push_str(&format!(
            "  {v} ({:.6}): {p} ({:.6})\n",
            v.to_f64().unwrap_or(f64::NAN),
            p.to_f64().unwrap_or(f64::NAN)
        ));
    }
    s
}
