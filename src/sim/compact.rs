//! The compact engine: unit weights, integer loads stored as narrow offsets `xᵢ = base + oᵢ`
//! with `oᵢ` a `u8` while the loads span fewer than 256 levels, widened to `u16` and `u32` when
//! they do not. Sequential steps apply at once; a batch draws its balls one by one on the loads
//! frozen at the batch start (the kernels of [`super::kernel`], which explains why that is the
//! b-batched law) into a per-bin count, then adds the counts.
//!
//! Why narrow offsets: a step reads one or two random bins, so the cost of large `n` is cache
//! misses. One byte per bin keeps `n = 10⁷` bins in 10 MB instead of 40 MB (`u32`) or 80 MB
//! (`f64`). The offsets are re-based (the minimum subtracted, O(n)) when the top offset would
//! overflow; for the processes here the loads span a few dozen levels, so that happens about once
//! per 200·n balls.

use super::System;
use super::kernel::{AnyStep, Frame, Ints, Kernel, Offset, Step};
use crate::error::{Error, Result};
use crate::loads::{Loads, TieRule};
use crate::rng::{SimRng, below_pair32};
use crate::with_step;

/// The offsets of every bin, in the narrowest type that holds them.
#[derive(Debug, Clone)]
enum Store {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
}

macro_rules! with_store {
    ($store:expr, |$x:ident| $body:expr) => {
        match $store {
            Store::U8($x) => $body,
            Store::U16($x) => $body,
            Store::U32($x) => $body,
        }
    };
}

/// The compact engine (unit weights, any kernel with a [`Step`]).
#[derive(Debug, Clone)]
pub struct Compact {
    store: Store,
    base: u64,
    max_off: u64,
    total: u64,
    balls: u64,
    steps: u64,
    batch: u64,
    kernel: Kernel,
    ties: TieRule,
    counts: Vec<u32>,
    /// One-Choice: the second bin of the last word drawn, not used yet.
    spare: Option<usize>,
}

/// Why a loop stopped before its target.
enum Stop {
    /// The target was reached.
    Done,
    /// Bin `j` needs `k` more balls than the offset type holds.
    Overflow(usize, u64),
}

impl Compact {
    /// All `n` bins empty. The kernel must have a step ([`Kernel::has_step`]); `batch ≥ 2` needs
    /// `batch < 2³²` (per-bin counts are 32-bit).
    ///
    /// ```
    /// use balloc::sim::{System, compact::Compact, kernel::Kernel, rng::run_rng};
    /// use balloc::loads::TieRule;
    /// let mut s = Compact::new(5, Kernel::DChoice { d: 2 }, 1, TieRule::Random).unwrap();
    /// s.run_until(12, &mut run_rng(3)).unwrap();
    /// assert_eq!((s.balls(), s.total()), (12, 12.0));
    /// assert_eq!(s.levels().iter().map(|l| l.1).sum::<u64>(), 5);
    /// assert_eq!(s.levels().iter().map(|l| l.0 * l.1 as f64).sum::<f64>(), 12.0);
    /// ```
    pub fn new(n: usize, kernel: Kernel, batch: u64, ties: TieRule) -> Result<Compact> {
        if !kernel.has_step() {
            return Err(Error::Unsupported(
                "the compact engine needs a kernel with a step on loads".into(),
            ));
        }
        if n == 0 || batch == 0 || batch > u32::MAX as u64 {
            return Err(Error::invalid(
                "compact engine",
                format!("needs n ≥ 1 and 1 ≤ batch < 2^32, got n = {n}, batch = {batch}"),
            ));
        }
        Ok(Compact {
            store: Store::U8(vec![0; n]),
            base: 0,
            max_off: 0,
            total: 0,
            balls: 0,
            steps: 0,
            batch,
            kernel,
            ties,
            counts: Vec::new(),
            spare: None,
        })
    }

    /// Starts from a load vector of non-negative integers below 2³² instead of zeros.
    pub fn with_loads(mut self, loads: &Loads) -> Result<Compact> {
        let x = loads.as_slice();
        if x.len() != self.n() || !x.iter().all(|&v| v >= 0.0 && v.fract() == 0.0 && v < 4e9) {
            return Err(Error::invalid(
                "loads",
                "the compact engine starts from n integer loads in 0..2^32",
            ));
        }
        let min = loads.min() as u64;
        let off: Vec<u32> = x.iter().map(|&v| (v as u64 - min) as u32).collect();
        self.base = min;
        self.max_off = off.iter().copied().max().unwrap_or(0) as u64;
        self.total = x.iter().map(|&v| v as u64).sum();
        self.store = Store::U32(off);
        self.narrow();
        Ok(self)
    }

    /// The loads.
    pub fn loads(&self) -> Vec<f64> {
        let b = self.base as f64;
        with_store!(&self.store, |x| x
            .iter()
            .map(|v| b + v.get() as f64)
            .collect())
    }

    /// The smallest offset.
    fn min_off(&self) -> u64 {
        with_store!(&self.store, |x| x
            .iter()
            .copied()
            .min()
            .unwrap_or_default()
            .get())
    }

    /// Subtracts the smallest offset from every offset.
    fn rebase(&mut self) {
        let m = self.min_off();
        if m == 0 {
            return;
        }
        with_store!(&mut self.store, |x| for v in x.iter_mut() {
            *v = Offset::of(v.get() - m);
        });
        self.base += m;
        self.max_off -= m;
    }

    /// Makes room for a bin of load `load`: re-bases, then widens as far as needed.
    fn room(&mut self, load: u64) -> Result<()> {
        self.rebase();
        let need = load - self.base;
        let cap = |s: &Store| match s {
            Store::U8(_) => u8::MAX as u64,
            Store::U16(_) => u16::MAX as u64,
            Store::U32(_) => u32::MAX as u64,
        };
        while need > cap(&self.store) {
            self.store = match std::mem::replace(&mut self.store, Store::U8(Vec::new())) {
                Store::U8(x) => Store::U16(x.into_iter().map(u16::from).collect()),
                Store::U16(x) => Store::U32(x.into_iter().map(u32::from).collect()),
                Store::U32(_) => {
                    return Err(Error::invalid(
                        "loads",
                        "the loads span 2^32 levels or more; the compact engine stops here",
                    ));
                }
            };
        }
        Ok(())
    }

    /// Narrows the store when the offsets fit a smaller type.
    fn narrow(&mut self) {
        if self.max_off <= u8::MAX as u64 && !matches!(self.store, Store::U8(_)) {
            let x: Vec<u8> =
                with_store!(&self.store, |x| x.iter().map(|v| v.get() as u8).collect());
            self.store = Store::U8(x);
        } else if self.max_off <= u16::MAX as u64 && matches!(self.store, Store::U32(_)) {
            let x: Vec<u16> =
                with_store!(&self.store, |x| x.iter().map(|v| v.get() as u16).collect());
            self.store = Store::U16(x);
        }
    }

    #[inline(always)]
    fn gap(base: u64, max_off: u64, total: u64, n: f64) -> f64 {
        (base + max_off) as f64 - total as f64 / n
    }

    /// Sequential steps until `target` balls; returns the largest gap after any step.
    fn run_sequential(&mut self, target: u64, rng: &mut SimRng) -> Result<f64> {
        let mut best = f64::NEG_INFINITY;
        while self.balls < target {
            let stop = with_store!(&mut self.store, |x| {
                let mut st = Seq {
                    base: self.base,
                    max_off: self.max_off,
                    total: self.total,
                    balls: self.balls,
                    steps: self.steps,
                    best,
                };
                let f = Ints {
                    x: &x[..],
                    base: st.base as f64,
                    total: st.total as f64,
                };
                let any = AnyStep::of(&self.kernel, &f, self.ties).expect("a step kernel");
                let stop = if let AnyStep::OneChoice(_) = any {
                    sequential_one_choice(x, &mut st, target, rng, &mut self.spare)
                } else if any.depends_on_frame() {
                    // Quantile's cut moves with the loads: rebuilt at every step (O(n); the
                    // level-count engine is the fast sequential route for it).
                    sequential_rebuilt(x, &self.kernel, self.ties, &mut st, target, rng)
                } else {
                    with_step!(any, |s| sequential(x, &s, &mut st, target, rng))
                };
                (self.max_off, self.total, self.balls, self.steps, best) =
                    (st.max_off, st.total, st.balls, st.steps, st.best);
                stop
            });
            if let Stop::Overflow(j, k) = stop {
                // Room for bin j's new load, then the step it could not take.
                let load = self.base + self.offset(j) + k;
                self.room(load)?;
                let v = self.offset(j) + k;
                self.set_offset(j, v);
                self.total += k;
                self.balls += k;
                self.steps += 1;
                if v > self.max_off {
                    self.max_off = v;
                }
                best = best.max(Self::gap(
                    self.base,
                    self.max_off,
                    self.total,
                    self.n() as f64,
                ));
            }
        }
        Ok(best)
    }

    fn offset(&self, j: usize) -> u64 {
        with_store!(&self.store, |x| x[j].get())
    }

    fn set_offset(&mut self, j: usize, v: u64) {
        with_store!(&mut self.store, |x| x[j] = Offset::of(v));
    }

    /// Batches of `self.batch` balls (the last cut at the target) until `target`; returns the
    /// largest gap at a batch end.
    fn run_batched(&mut self, target: u64, rng: &mut SimRng) -> Result<f64> {
        let n = self.n();
        let mut best = f64::NEG_INFINITY;
        let mut counts = std::mem::take(&mut self.counts);
        counts.clear();
        counts.resize(n, 0);
        while self.balls < target {
            let steps = self.batch.min(target - self.balls);
            // Picks on the frozen loads, then the balls each destination receives (frozen rule).
            let mut adds: Vec<(usize, u64)> = Vec::new();
            let (base, total, ties) = (self.base as f64, self.total as f64, self.ties);
            let added = with_store!(&self.store, |x| {
                let f = Ints {
                    x: &x[..],
                    base,
                    total,
                };
                let any = AnyStep::of(&self.kernel, &f, ties).expect("a step kernel");
                with_step!(any, |s| frozen(&f, &s, steps, rng, &mut counts, &mut adds))
            });
            self.apply(&mut counts, &adds)?;
            self.total += added;
            self.balls += added;
            self.steps += steps;
            best = best.max(Self::gap(self.base, self.max_off, self.total, n as f64));
        }
        self.counts = counts;
        Ok(best)
    }

    /// Adds the batch's counts (and the multi-ball additions `adds`) to the loads, widening
    /// the store when an offset would overflow; zeroes `counts`.
    fn apply(&mut self, counts: &mut [u32], adds: &[(usize, u64)]) -> Result<()> {
        let mut from = 0;
        loop {
            let max_off = &mut self.max_off;
            let r = with_store!(&mut self.store, |x| add_counts(x, counts, from, max_off));
            match r {
                None => break,
                Some(j) => {
                    let need = self.base + self.offset(j) + counts[j] as u64;
                    self.room(need)?;
                    from = j;
                }
            }
        }
        for &(j, k) in adds {
            let v = self.offset(j) + k;
            if v > self.cap() {
                self.room(self.base + v)?;
            }
            let v = self.offset(j) + k;
            self.set_offset(j, v);
            self.max_off = self.max_off.max(v);
        }
        Ok(())
    }

    fn cap(&self) -> u64 {
        match self.store {
            Store::U8(_) => u8::MAX as u64,
            Store::U16(_) => u16::MAX as u64,
            Store::U32(_) => u32::MAX as u64,
        }
    }
}

/// The running state of a sequential loop, copied into locals.
struct Seq {
    base: u64,
    max_off: u64,
    total: u64,
    balls: u64,
    steps: u64,
    best: f64,
}

/// The sequential loop for one step type, the state in locals.
#[inline(never)]
fn sequential<T: Offset, S>(x: &mut [T], s: &S, st: &mut Seq, target: u64, rng: &mut SimRng) -> Stop
where
    S: for<'a> Step<Ints<'a, T>>,
{
    let n = x.len() as f64;
    let base = st.base;
    let (mut max_off, mut total, mut balls, mut steps, mut best) =
        (st.max_off, st.total, st.balls, st.steps, st.best);
    // The gap max x − W/n only rises when the maximum does, so it is recorded then; the first
    // step of a call is an observation point too, so `max_off` starts below every offset there.
    let mut top = if best == f64::NEG_INFINITY {
        0
    } else {
        max_off + 1
    };
    let mut stop = Stop::Done;
    while balls < target {
        let f = Ints {
            x: &*x,
            base: base as f64,
            total: total as f64,
        };
        let j = s.pick(&f, rng);
        let k = s.balls(&f, j);
        let v = x[j].get() + k;
        if v > T::MAX {
            stop = Stop::Overflow(j, k);
            break;
        }
        x[j] = T::of(v);
        total += k;
        balls += k;
        steps += 1;
        if v >= top {
            max_off = max_off.max(v);
            top = max_off + 1;
            best = best.max((base + max_off) as f64 - total as f64 / n);
        }
    }
    (st.max_off, st.total, st.balls, st.steps, st.best) = (max_off, total, balls, steps, best);
    stop
}

/// One-Choice: two balls per 64-bit word (a uniform bin from each 32-bit half, Lemire's method
/// with rejection, so both are exactly uniform and independent); the bins do not depend on the
/// loads, so the two balls are applied one after the other.
#[inline(never)]
fn sequential_one_choice<T: Offset>(
    x: &mut [T],
    st: &mut Seq,
    target: u64,
    rng: &mut SimRng,
    spare: &mut Option<usize>,
) -> Stop {
    let nu = x.len() as u64;
    let n = nu as f64;
    let reject = ((1u64 << 32) - nu) % nu;
    let base = st.base;
    let (mut max_off, mut total, mut best) = (st.max_off, st.total, st.best);
    let mut top = if best == f64::NEG_INFINITY {
        0
    } else {
        max_off + 1
    };
    let end = total + target.saturating_sub(st.balls);
    let mut stop = Stop::Done;
    macro_rules! ball {
        ($j:expr) => {{
            let j = $j as usize;
            let v = x[j].get() + 1;
            if v > T::MAX {
                stop = Stop::Overflow(j, 1);
                break;
            }
            x[j] = T::of(v);
            total += 1;
            if v >= top {
                max_off = max_off.max(v);
                top = max_off + 1;
                best = best.max((base + max_off) as f64 - total as f64 / n);
            }
        }};
    }
    // A bin drawn by the last call and not used yet comes first, so that the random stream does
    // not depend on where the calls (the checkpoints) fall.
    #[allow(clippy::never_loop)]
    loop {
        if total < end
            && let Some(j) = spare.take()
        {
            ball!(j);
        }
        break;
    }
    while matches!(stop, Stop::Done) && total < end {
        let (a, b) = below_pair32(rng, nu, reject);
        *spare = Some(b as usize);
        ball!(a);
        if total < end {
            *spare = None;
            ball!(b);
        }
    }
    let done = total - st.total;
    (st.max_off, st.total, st.balls, st.steps, st.best) =
        (max_off, total, st.balls + done, st.steps + done, best);
    stop
}

/// The sequential loop when the step depends on the whole frame (Quantile's cut): rebuilt at
/// every step.
fn sequential_rebuilt<T: Offset>(
    x: &mut [T],
    kernel: &Kernel,
    ties: TieRule,
    st: &mut Seq,
    target: u64,
    rng: &mut SimRng,
) -> Stop {
    let n = x.len() as f64;
    while st.balls < target {
        let f = Ints {
            x: &*x,
            base: st.base as f64,
            total: st.total as f64,
        };
        let any = AnyStep::of(kernel, &f, ties).expect("a step kernel");
        let (j, k) = with_step!(any, |s| {
            let j = s.pick(&f, rng);
            (j, s.balls(&f, j))
        });
        let v = x[j].get() + k;
        if v > T::MAX {
            return Stop::Overflow(j, k);
        }
        x[j] = T::of(v);
        st.total += k;
        st.balls += k;
        st.steps += 1;
        st.max_off = st.max_off.max(v);
        st.best = st
            .best
            .max((st.base + st.max_off) as f64 - st.total as f64 / n);
    }
    Stop::Done
}

/// Draws `steps` destinations on the frozen frame into `counts`; destinations that receive more
/// than one ball per step are listed in `adds` with their extra balls. Returns the balls added.
#[inline(never)]
fn frozen<F: Frame, S: Step<F>>(
    f: &F,
    s: &S,
    steps: u64,
    rng: &mut SimRng,
    counts: &mut [u32],
    adds: &mut Vec<(usize, u64)>,
) -> u64 {
    for _ in 0..steps {
        let j = s.pick(f, rng);
        counts[j] += 1;
    }
    // Multi-ball rules (Twinning, Packing): bin j's balls per step are fixed by the frozen loads.
    let mut balls = steps;
    for (j, c) in counts.iter().enumerate() {
        if *c > 0 {
            let k = s.balls(f, j);
            if k != 1 {
                adds.push((j, (k - 1) * *c as u64));
                balls += (k - 1) * *c as u64;
            }
        }
    }
    balls
}

/// Adds `counts[from..]` to the offsets and zeroes them; stops at the first bin whose offset
/// would overflow and returns it.
#[inline(never)]
fn add_counts<T: Offset>(
    x: &mut [T],
    counts: &mut [u32],
    from: usize,
    max_off: &mut u64,
) -> Option<usize> {
    let mut m = *max_off;
    for j in from..x.len() {
        let c = counts[j];
        if c == 0 {
            continue;
        }
        let v = x[j].get() + c as u64;
        if v > T::MAX {
            *max_off = m;
            return Some(j);
        }
        x[j] = T::of(v);
        counts[j] = 0;
        m = m.max(v);
    }
    *max_off = m;
    None
}

impl System for Compact {
    fn n(&self) -> usize {
        with_store!(&self.store, |x| x.len())
    }
    fn balls(&self) -> u64 {
        self.balls
    }
    fn steps(&self) -> u64 {
        self.steps
    }
    fn total(&self) -> f64 {
        self.total as f64
    }
    fn max_load(&self) -> f64 {
        (self.base + self.max_off) as f64
    }
    fn min_load(&self) -> f64 {
        (self.base + self.min_off()) as f64
    }
    fn run_until(&mut self, balls: u64, rng: &mut SimRng) -> Result<f64> {
        if self.batch <= 1 {
            self.run_sequential(balls, rng)
        } else {
            self.run_batched(balls, rng)
        }
    }
    fn levels(&self) -> Vec<(f64, u64)> {
        let n = self.n() as u64;
        let b = self.base;
        if self.max_off <= n.max(1 << 16) {
            let mut count = vec![0u64; self.max_off as usize + 1];
            with_store!(&self.store, |x| for v in x.iter() {
                count[v.get() as usize] += 1;
            });
            return count
                .iter()
                .enumerate()
                .filter(|c| *c.1 > 0)
                .map(|(o, &c)| ((b + o as u64) as f64, c))
                .collect();
        }
        let mut v: Vec<u64> = with_store!(&self.store, |x| x.iter().map(|v| v.get()).collect());
        v.sort_unstable();
        let mut out: Vec<(f64, u64)> = Vec::new();
        for o in v {
            let load = (b + o) as f64;
            match out.last_mut() {
                Some(l) if l.0 == load => l.1 += 1,
                _ => out.push((load, 1)),
            }
        }
        out
    }
}
