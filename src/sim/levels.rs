//! The level-count (histogram) representation for the sequential setting with unit weights.
//!
//! In the sequential setting every registered process treats bins with equal loads alike: the
//! next load *multiset* depends only on the current multiset (a rank-based process picks a rank,
//! and every bin of that rank's load level is equivalent, whatever the tie rule; a thinning or
//! weight-bias process looks only at the sampled bin's load and at `W`). Every observer
//! (gap, spread, sum-over-bins potentials, mean quantile, histogram) is a function of the
//! multiset. So the state can be the number of bins at each load level: memory O(number of
//! levels) instead of O(n), which lets n = 10⁸ bins run in a few MiB
//! (up to [`TABLE_LIMIT`] bins a 4-byte-per-bin rank → level table speeds up lookups).
//!
//! Representation: `cum[i]` = number of bins with load ≥ `base + i` (non-increasing in `i`). A
//! 0-based rank `r` (0 = heaviest) lies at level `ℓ` iff `cum[ℓ + 1] ≤ r < cum[ℓ]`; moving one bin
//! from level `ℓ` to `ℓ + k` adds 1 to `cum[ℓ + 1 ..= ℓ + k]`.

use super::System;
use super::kernel::{Kernel, RankSampler};
use crate::error::{Error, Result};
use crate::rng::{SimRng, below, below_pair32};

/// Levels looked up without branches when the loads span fewer than this many levels.
const WINDOW: usize = 16;

/// Up to this many bins the engine keeps a rank → level table (4 bytes per bin, one load per
/// lookup); above it, lookups scan a window of levels or bisect (O(levels) memory).
pub const TABLE_LIMIT: usize = 1 << 24;

/// The sequential unit-weight engine on level counts.
#[derive(Debug, Clone)]
pub struct Levels {
    n: u64,
    base: i64,
    cum: Vec<u64>,
    table: Vec<u32>,
    lo: usize,
    hi: usize,
    balls: u64,
    steps: u64,
    kernel: Kernel,
    sampler: Option<RankSampler>,
}

impl Levels {
    /// All `n` bins empty. Fails for [`Kernel::Generic`] (it needs the loads of every bin).
    ///
    /// ```
    /// use balloc::sim::{System, levels::Levels, kernel::Kernel, rng::run_rng};
    /// let p = balloc::process::parse("one-choice").unwrap();
    /// let mut s = Levels::new(5, Kernel::for_process(p.as_ref(), 5).unwrap()).unwrap();
    /// s.run_until(12, &mut run_rng(3)).unwrap();
    /// assert_eq!(s.balls(), 12);
    /// assert_eq!(s.levels().iter().map(|l| l.1).sum::<u64>(), 5);
    /// assert_eq!(s.levels().iter().map(|l| l.0 * l.1 as f64).sum::<f64>(), 12.0);
    /// ```
    pub fn new(n: usize, kernel: Kernel) -> Result<Levels> {
        if matches!(kernel, Kernel::Generic) || n == 0 {
            return Err(Error::Unsupported(
                "the level-count engine needs a process kernel".into(),
            ));
        }
        let mut cum = vec![0; WINDOW + 4];
        cum[0] = n as u64;
        Ok(Levels {
            table: if n <= TABLE_LIMIT {
                vec![0; n]
            } else {
                Vec::new()
            },
            cum,
            n: n as u64,
            base: 0,
            lo: 0,
            hi: 0,
            balls: 0,
            steps: 0,
            sampler: kernel.rank_sampler(n),
            kernel,
        })
    }

    /// The level index of a 0-based rank.
    #[inline(always)]
    fn level_of(&self, r: u64) -> usize {
        if !self.table.is_empty() {
            return self.table[r as usize] as usize;
        }
        if self.hi - self.lo < WINDOW {
            // Branch-free: cum is non-increasing and 0 above hi, so the level is lo plus the
            // number of window entries above r (the vector always extends WINDOW past hi).
            let w = &self.cum[self.lo + 1..self.lo + 1 + WINDOW];
            self.lo + w.iter().map(|&c| (c > r) as usize).sum::<usize>()
        } else {
            self.lo + self.cum[self.lo + 1..=self.hi + 1].partition_point(|&c| c > r)
        }
    }

    /// Moves one bin from level `l` up by `k ≥ 1`; returns whether the top level rose.
    #[inline(always)]
    fn move_up(&mut self, mut l: usize, k: usize) -> bool {
        let mut top = l + k;
        if top + WINDOW + 1 >= self.cum.len() {
            let shift = self.grow(top + WINDOW + 2);
            l -= shift;
            top -= shift;
        }
        if self.table.is_empty() {
            for c in &mut self.cum[l + 1..=top] {
                *c += 1;
            }
        } else {
            // Rank cum[i] (the heaviest rank below level i) moves up to level i.
            for i in l + 1..=top {
                let c = self.cum[i];
                self.table[c as usize] = i as u32;
                self.cum[i] = c + 1;
            }
        }
        while self.cum[self.lo + 1] == self.n {
            self.lo += 1;
        }
        if top > self.hi {
            self.hi = top;
            true
        } else {
            false
        }
    }

    /// Makes room for index `len − 1`; returns by how much indices shifted down.
    #[cold]
    fn grow(&mut self, len: usize) -> usize {
        let mut shift = 0;
        // Drop the levels below `lo` once they are most of the vector.
        if self.lo > 64 && self.lo * 2 > self.cum.len() {
            shift = self.lo;
            self.cum.drain(..self.lo);
            let lo = self.lo as u32;
            for t in &mut self.table {
                *t -= lo;
            }
            self.base += self.lo as i64;
            self.hi -= self.lo;
            self.lo = 0;
        }
        let len = (len - shift).max(self.hi + WINDOW + 2);
        if self.cum.len() < len {
            let extra = (self.cum.len() / 2).max(len - self.cum.len());
            self.cum.resize(self.cum.len() + extra, 0);
        }
        shift
    }

    #[inline(always)]
    fn load(&self, l: usize) -> f64 {
        (self.base + l as i64) as f64
    }

    #[inline(always)]
    fn gap_now(&self) -> f64 {
        self.load(self.hi) - self.balls as f64 / self.n as f64
    }

    fn run_rank(&mut self, s: &RankSampler, target: u64, rng: &mut SimRng) -> f64 {
        let mut best = f64::NEG_INFINITY;
        let mut first = true;
        // Monomorphic loops for the common samplers.
        macro_rules! go {
            ($draw:expr) => {
                while self.balls < target {
                    let r = $draw;
                    let l = self.level_of(r);
                    let rose = self.move_up(l, 1);
                    self.balls += 1;
                    if rose || first {
                        first = false;
                        best = best.max(self.gap_now());
                    }
                }
            };
        }
        match *s {
            RankSampler::DChoice { n, d: 2 } if !self.table.is_empty() => {
                return self.run_two_choice_table(n, target, rng);
            }
            RankSampler::DChoice { n, d: 2 } if n <= 1 << 32 => {
                // (2³² − n) mod n: a 32-bit half below it is rejected (Lemire).
                let reject = ((1u64 << 32) - n) % n;
                go!({
                    let (a, b) = below_pair32(rng, n, reject);
                    a.max(b)
                })
            }
            RankSampler::DChoice { n, d: 2 } => go!(below(rng, n).max(below(rng, n))),
            RankSampler::Uniform { n } => go!(below(rng, n)),
            _ => go!(s.sample(rng)),
        }
        best
    }

    /// Two-Choice with the rank → level table, the state held in locals so that the hot loop
    /// keeps it in registers; growth of the level vector leaves the loop for [`Self::move_up`].
    /// Draws exactly what the generic loop draws, so results are identical.
    fn run_two_choice_table(&mut self, n: u64, target: u64, rng: &mut SimRng) -> f64 {
        let reject = ((1u64 << 32) - n) % n;
        let nf = n as f64;
        let mut best = f64::NEG_INFINITY;
        let mut first = true;
        while self.balls < target {
            let mut cum = std::mem::take(&mut self.cum);
            let mut table = std::mem::take(&mut self.table);
            let (mut lo, mut hi, mut balls, base) = (self.lo, self.hi, self.balls, self.base);
            let limit = cum.len() - WINDOW - 2;
            let mut pending = None;
            while balls < target {
                let (a, b) = below_pair32(rng, n, reject);
                let l = table[a.max(b) as usize] as usize;
                if l + 1 > limit {
                    pending = Some(l);
                    break;
                }
                let c = cum[l + 1];
                table[c as usize] = (l + 1) as u32;
                cum[l + 1] = c + 1;
                while cum[lo + 1] == n {
                    lo += 1;
                }
                balls += 1;
                let rose = l + 1 > hi;
                if rose || first {
                    if rose {
                        hi = l + 1;
                    }
                    first = false;
                    best = best.max((base + hi as i64) as f64 - balls as f64 / nf);
                }
            }
            self.cum = cum;
            self.table = table;
            (self.lo, self.hi, self.balls) = (lo, hi, balls);
            if let Some(l) = pending {
                let rose = self.move_up(l, 1);
                self.balls += 1;
                if rose || first {
                    first = false;
                    best = best.max(self.gap_now());
                }
            }
        }
        best
    }

    fn run_load(&mut self, target: u64, rng: &mut SimRng) -> f64 {
        let mut best = f64::NEG_INFINITY;
        let mut first = true;
        let nf = self.n as f64;
        let kernel = std::mem::replace(&mut self.kernel, Kernel::Generic);
        while self.balls < target {
            let w = self.balls as f64;
            let l = self.level_of(below(rng, self.n));
            let (l, k) = match &kernel {
                Kernel::Thinning(acc) => {
                    if acc.accepts(self.load(l), w, nf) {
                        (l, 1)
                    } else {
                        (self.level_of(below(rng, self.n)), 1)
                    }
                }
                Kernel::Twinning {
                    w_minus,
                    w_plus,
                    boundary,
                } => {
                    let k = if boundary.is_under(nf * self.load(l) - w, 0.0) {
                        *w_minus
                    } else {
                        *w_plus
                    };
                    (l, k as usize)
                }
                Kernel::Packing { boundary } => {
                    if boundary.is_under(nf * self.load(l) - w, 0.0) {
                        let target_load = (w / nf).ceil() + 1.0;
                        (l, (target_load - self.load(l)) as usize)
                    } else {
                        (l, 1)
                    }
                }
                _ => unreachable!("rank kernels go to run_rank, Generic is refused by new"),
            };
            let rose = self.move_up(l, k);
            self.balls += k as u64;
            self.steps += 1;
            if rose || first {
                first = false;
                best = best.max(self.gap_now());
            }
        }
        self.kernel = kernel;
        best
    }
}

impl System for Levels {
    fn n(&self) -> usize {
        self.n as usize
    }
    fn balls(&self) -> u64 {
        self.balls
    }
    fn steps(&self) -> u64 {
        if self.sampler.is_some() {
            self.balls
        } else {
            self.steps
        }
    }
    fn total(&self) -> f64 {
        self.balls as f64
    }
    fn max_load(&self) -> f64 {
        self.load(self.hi)
    }
    fn min_load(&self) -> f64 {
        self.load(self.lo)
    }
    fn run_until(&mut self, balls: u64, rng: &mut SimRng) -> Result<f64> {
        if let Some(s) = self.sampler.take() {
            let best = self.run_rank(&s, balls, rng);
            self.sampler = Some(s);
            Ok(best)
        } else {
            Ok(self.run_load(balls, rng))
        }
    }
    fn levels(&self) -> Vec<(f64, u64)> {
        (self.lo..=self.hi)
            .map(|l| (self.load(l), self.cum[l] - self.cum[l + 1]))
            .filter(|p| p.1 > 0)
            .collect()
    }
}
