//! quickcheck [`Arbitrary`] impls for the core types (crate feature `arbitrary`), so that their
//! algebraic laws can be stated as quickcheck properties (`tests/laws.rs`).
//!
//! * [`Loads`]: 1 to 12 bins whose loads are drawn from a small pool of values (integers, halves
//!   and a large offset), so ties are frequent;
//! * [`AllocationVector`]: a rank-indexed allocation vector with rational entries `cᵢ/Σc`;
//! * [`WeightLaw`]: every kind of law (unit, exponential, geometric on {0,...} and {1,...},
//!   finite discrete laws with up to four atoms);
//! * [`TieRule`].
//!
//! ```
//! use balloc::arbitrary::AllocationVector;
//! use quickcheck::{Arbitrary, Gen};
//! let p = AllocationVector::arbitrary(&mut Gen::from_size_and_seed(10, 1));
//! // Entries are cᵢ/Σc: exactly a probability vector.
//! let sum: balloc::exact::Q = p.exact().into_iter().sum();
//! assert_eq!(sum, balloc::exact::Q::from_integer(1.into()));
//! ```

use crate::exact::{Int, Q};
use crate::loads::{Loads, TieRule};
use crate::weights::WeightLaw;
use quickcheck::{Arbitrary, Gen};

fn below(g: &mut Gen, n: u32) -> u32 {
    u32::arbitrary(g) % n
}

impl Arbitrary for Loads {
    fn arbitrary(g: &mut Gen) -> Loads {
        let n = 1 + below(g, 12) as usize;
        // A pool of at most 4 distinct values: frequent ties.
        let offset = *g.choose(&[0.0, 0.0, -3.0, 1e3]).unwrap_or(&0.0);
        let pool: Vec<f64> = (0..1 + below(g, 4))
            .map(|_| {
                let v = below(g, 41) as f64 - 10.0;
                (if bool::arbitrary(g) { v } else { v / 2.0 }) + offset
            })
            .collect();
        Loads::new((0..n).map(|_| *g.choose(&pool).unwrap_or(&0.0)).collect())
            .expect("finite, non-empty")
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Loads>> {
        let x = self.as_slice().to_vec();
        Box::new(
            x.shrink()
                .filter_map(|v| Loads::new(v.into_iter().map(|t: f64| t.round()).collect()).ok()),
        )
    }
}

/// A rank-indexed allocation vector `pᵢ = cᵢ/Σc` (rank 1 = heaviest) with small non-negative
/// integer counts `cᵢ`, not all zero, for `n ∈ 2..=10`: exact as rationals, and as `f64`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllocationVector {
    /// The counts `cᵢ`.
    pub counts: Vec<u32>,
}

impl AllocationVector {
    /// The number of ranks `n`.
    pub fn n(&self) -> usize {
        self.counts.len()
    }

    /// `pᵢ = cᵢ/Σc` exactly.
    pub fn exact(&self) -> Vec<Q> {
        let s: u64 = self.counts.iter().map(|&c| c as u64).sum();
        self.counts
            .iter()
            .map(|&c| Q::new(Int::from(c), Int::from(s)))
            .collect()
    }

    /// `pᵢ` rounded to `f64`.
    pub fn to_f64(&self) -> Vec<f64> {
        let s: u64 = self.counts.iter().map(|&c| c as u64).sum();
        self.counts.iter().map(|&c| c as f64 / s as f64).collect()
    }
}

impl Arbitrary for AllocationVector {
    fn arbitrary(g: &mut Gen) -> AllocationVector {
        let n = 2 + below(g, 9) as usize;
        let mut counts: Vec<u32> = (0..n).map(|_| below(g, 21)).collect();
        if counts.iter().all(|&c| c == 0) {
            counts[n - 1] = 1;
        }
        // Half of the vectors are sorted (non-decreasing in rank, as for rank-based processes).
        if bool::arbitrary(g) {
            counts.sort_unstable();
        }
        AllocationVector { counts }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = AllocationVector>> {
        Box::new(
            self.counts
                .shrink()
                .filter(|c| c.len() >= 2 && c.iter().any(|&v| v > 0))
                .map(|counts| AllocationVector { counts }),
        )
    }
}

impl Arbitrary for WeightLaw {
    fn arbitrary(g: &mut Gen) -> WeightLaw {
        let mean = 0.25 * (1 + below(g, 16)) as f64; // 0.25 ..= 4
        match below(g, 5) {
            0 => WeightLaw::Unit,
            1 => WeightLaw::exponential(mean).expect("mean > 0"),
            2 => WeightLaw::geometric(mean, 0).expect("mean > 0"),
            3 => WeightLaw::geometric(1.0 + mean, 1).expect("mean ≥ 1"),
            _ => {
                let k = 1 + below(g, 4) as usize;
                let counts: Vec<u32> = (0..k).map(|_| 1 + below(g, 5)).collect();
                let s: u32 = counts.iter().sum();
                let pairs = counts
                    .iter()
                    .map(|&c| (0.25 * below(g, 21) as f64, c as f64 / s as f64))
                    .collect();
                WeightLaw::discrete(pairs).expect("a valid finite law")
            }
        }
    }
}

impl Arbitrary for TieRule {
    fn arbitrary(g: &mut Gen) -> TieRule {
        *g.choose(&[TieRule::Random, TieRule::Fixed])
            .unwrap_or(&TieRule::Random)
    }
}
