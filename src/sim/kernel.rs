//! Simulation kernels: what one step of a registered process does, in a form the hot loops run
//! without dynamic dispatch or per-step allocation.
//!
//! Every process states its sampling rule ([`Process::rule`], a [`Rule`]: no lookup by name) and
//! [`Kernel::for_process`] compiles it: a [`Kernel`] is plain data (the sample count `d`, the threshold of a Bernoulli draw, the cut
//! `k = δn`, an acceptance rule, ...). An engine matches on it once per run (or per batch) and then
//! runs a loop specialised to one [`Step`] type, with the state of the run in locals.
//!
//! A [`Step`] picks the destination of one step on a [`Frame`], a read-only view of the loads:
//! the live loads in the sequential setting, the loads frozen at the start of the batch in the
//! b-batched setting. The same kernels therefore serve every setting (sequential, batched, with or
//! without weights); engines differ only in how loads are stored ([`super::compact`]: narrow
//! integers, [`super::dense`]: `f64`) and when the frame is refreshed.
//!
//! **Why sampling on the loads has the law of the allocation vector.** For a rank-based process
//! with allocation vector `p` (rank 1 heaviest), random tie-breaking gives every bin of a tied
//! group `G` (0-based ranks `s..t`, `t − s = |G|`) the average `(P(rank ≤ t) − P(rank ≤ s))/|G|`
//! of its ranks' probabilities. Sampling on the loads:
//!
//! * d-Choice draws `d` uniform bins and keeps the *first* of the least loaded ones. The least
//!   load among the samples is the load of `G` with probability `(t/n)ᵈ − (s/n)ᵈ` (every sample
//!   in the `t` bins of load ≥ that of `G`, not all in the `s` heavier ones). Given the groups the
//!   samples fall in, each sample is uniform within its group, independently, so the first
//!   sample of the least loaded group is uniform on `G`: each bin of `G` has probability
//!   `((t/n)ᵈ − (s/n)ᵈ)/|G|`, the random-tie average of `pᵢ = (iᵈ − (i−1)ᵈ)/nᵈ` over `G`.
//!   Under fixed ties (the smaller index is the heavier rank) the kept sample is the one with the
//!   largest rank: the least load, then the largest index; that is `pᵢ` for the bin of rank `i`.
//! * (1+β) is Two-Choice with probability β and One-Choice otherwise: the mixture of the two.
//! * Quantile(δ), `k = δn`: a uniform bin `i` is replaced by a second uniform bin iff its rank is
//!   below `k`. Let `τ` be the load of rank `k` (1-based), `s = #{x > τ}`, `t = #{x ≥ τ}`. Bins
//!   heavier than `τ` have ranks `< s ≤ k`: always replaced; lighter ones never; a bin at `τ` has,
//!   under random ties, a uniform rank in `s..t`, below `k` with probability `(k − s)/(t − s)`
//!   ([`QuantileCut`] draws exactly that), and under fixed ties the first `k − s` bins of load `τ`
//!   in index order are the heavy ones. Then `P(j) = (1/n)·P(kept | j) + (k/n)·(1/n)`, and for `j`
//!   at `τ` with random ties `P(kept | j) = (t − k)/(t − s)`: the average of
//!   `p_r = 1{r ≥ k}/n + k/n²` over the ranks `r ∈ s..t`.
//! * The thinning, twinning and packing rules look only at the sampled bin's load and at `W`.
//!
//! So the b balls of a batch drawn one by one on the frozen loads are b i.i.d. draws of the step
//! law at the start of the batch: the b-batched setting. `tests/sim.rs` checks every kernel
//! against the process's allocation vector or step law and against its natural sampler
//! (chi-square tests at fixed seeds).
//!
//! Reference: process definitions of Los–Sauerwald, *Balanced Allocations in Batches* (SPAA 2022),
//! §2, and Los–Sauerwald–Sylvester, *Mean-Biased Processes* (arXiv:2308.05087).

use crate::error::{Error, Result};
use crate::loads::{Boundary, TieRule};
use crate::process::{Accept, Process, Rule};
use crate::rng::{SimRng, below, below_pair32, bernoulli, bernoulli_threshold, unit_f64};

/// What one step of a process does, as data (compiled from [`Process::rule`] by
/// [`Kernel::for_process`]).
#[derive(Debug, Clone)]
pub enum Kernel {
    /// One-Choice: a uniform bin.
    OneChoice,
    /// d-Choice: the least loaded of `d` uniform bins.
    DChoice {
        /// Samples per ball (`d ≥ 1`).
        d: u32,
    },
    /// (1+β): with probability β a Two-Choice step, else a uniform bin.
    OnePlusBeta {
        /// `β·2⁶⁴` (see [`crate::rng::bernoulli`]).
        threshold: u64,
    },
    /// Quantile(δ): a uniform bin, replaced by a second uniform bin if it is among the `k = δn`
    /// heaviest.
    Quantile {
        /// `δn`.
        k: u64,
    },
    /// Any other rank-based process: a rank from Walker's alias table over its allocation vector.
    Ranks(Alias),
    /// A thinning process: a uniform bin, kept if accepted, else a second uniform bin.
    Thinning(Accept),
    /// Twinning: a uniform bin receives `w_minus` balls if underloaded, `w_plus` otherwise.
    Twinning {
        /// Balls for an underloaded bin.
        w_minus: u32,
        /// Balls for an overloaded bin.
        w_plus: u32,
        /// Where `y = 0` counts.
        boundary: Boundary,
    },
    /// Packing: a uniform underloaded bin is raised to `⌈W/n⌉ + 1`, an overloaded one gets a ball
    /// (integer loads only).
    Packing {
        /// Where `y = 0` counts.
        boundary: Boundary,
    },
    /// Greedy on a graph (the graphical process): a uniform edge, its lighter endpoint (a fair
    /// coin on equal loads); in the (1+β) model a uniform bin instead with probability `1 − β`.
    Graph(GraphStep),
    /// No kernel: the engine asks the process for its step law (O(n) per step or batch).
    Generic,
}

impl Kernel {
    /// The kernel of a process at `n` bins, compiled from its sampling rule ([`Process::rule`]);
    /// for processes without one ([`Rule::StepLaw`]), [`Process::validate`] is checked so that an
    /// undefined size fails here.
    ///
    /// ```
    /// use balloc::sim::kernel::Kernel;
    /// let k = Kernel::for_process(balloc::process::parse("twinning").unwrap().as_ref(), 8).unwrap();
    /// assert!(matches!(k, Kernel::Twinning { w_minus: 2, w_plus: 1, .. }));
    /// let q = balloc::process::parse("quantile(delta=0.25)").unwrap();
    /// assert!(matches!(Kernel::for_process(q.as_ref(), 8).unwrap(), Kernel::Quantile { k: 2 }));
    /// assert!(Kernel::for_process(q.as_ref(), 6).is_err()); // δn = 1.5
    /// let g = balloc::process::parse("graphical(graph=cycle)").unwrap();
    /// assert!(matches!(Kernel::for_process(g.as_ref(), 8).unwrap(), Kernel::Graph(_)));
    /// let f = balloc::process::parse("graphical(graph=cycle,strategy=flow)").unwrap();
    /// assert!(matches!(Kernel::for_process(f.as_ref(), 8).unwrap(), Kernel::Generic));
    /// ```
    pub fn for_process(p: &dyn Process, n: usize) -> Result<Kernel> {
        if n == 0 {
            return Err(Error::invalid("n", "must be at least 1, got 0"));
        }
        Ok(match p.rule(n)? {
            Rule::OneChoice => Kernel::OneChoice,
            Rule::DChoice { d } => Kernel::DChoice { d },
            Rule::OnePlusBeta { beta } => Kernel::one_plus_beta(beta),
            Rule::Quantile { k } => Kernel::Quantile { k },
            Rule::Ranks(prob) => Kernel::Ranks(Alias::new(&prob)?),
            Rule::Thinning(accept) => Kernel::Thinning(accept),
            Rule::Twinning {
                w_minus,
                w_plus,
                boundary,
            } => Kernel::Twinning {
                w_minus,
                w_plus,
                boundary,
            },
            Rule::Packing { boundary } => Kernel::Packing { boundary },
            Rule::Graph { graph, beta } => Kernel::Graph(GraphStep::new(&graph, beta)?),
            Rule::StepLaw => {
                p.validate(n)?;
                Kernel::Generic
            }
        })
    }

    /// Whether the step depends on ranks only (its batch can also be drawn as a multinomial over
    /// ranks, [`super::dense`]).
    pub fn is_rank_based(&self) -> bool {
        matches!(
            self,
            Kernel::OneChoice
                | Kernel::DChoice { .. }
                | Kernel::OnePlusBeta { .. }
                | Kernel::Quantile { .. }
                | Kernel::Ranks(_)
        )
    }

    /// Whether the kernel needs integer loads (Packing fills bins up to an integer level).
    pub fn needs_integer_loads(&self) -> bool {
        matches!(self, Kernel::Packing { .. })
    }

    /// Whether the kernel runs on loads through a [`Step`] (everything but [`Kernel::Ranks`] and
    /// [`Kernel::Generic`], which need the ranking or the step law).
    pub fn has_step(&self) -> bool {
        !matches!(self, Kernel::Ranks(_) | Kernel::Generic)
    }

    /// The sampler of 0-based ranks for a rank-based kernel at `n` bins (the level-count engine
    /// draws ranks); `None` otherwise.
    ///
    /// ```
    /// use balloc::sim::kernel::{Kernel, RankSampler};
    /// let k = Kernel::DChoice { d: 3 };
    /// assert!(matches!(k.rank_sampler(10), Some(RankSampler::DChoice { n: 10, d: 3 })));
    /// ```
    pub fn rank_sampler(&self, n: usize) -> Option<RankSampler> {
        let n = n as u64;
        Some(match self {
            Kernel::OneChoice => RankSampler::Uniform { n },
            Kernel::DChoice { d } => RankSampler::DChoice { n, d: *d },
            Kernel::OnePlusBeta { threshold } => RankSampler::OnePlusBeta {
                n,
                threshold: *threshold,
            },
            Kernel::Quantile { k } => RankSampler::Quantile { n, k: *k },
            Kernel::Ranks(a) => RankSampler::Alias(a.clone()),
            _ => return None,
        })
    }

    /// The (1+β) kernel for `β ∈ [0, 1]`.
    pub fn one_plus_beta(beta: f64) -> Kernel {
        Kernel::OnePlusBeta {
            threshold: bernoulli_threshold(beta),
        }
    }
}

/// A sampler of 0-based ranks (0 = heaviest) for a rank-based process at a fixed `n`.
#[derive(Debug, Clone)]
pub enum RankSampler {
    /// One-Choice: a uniform rank.
    Uniform {
        /// Bins.
        n: u64,
    },
    /// d-Choice: the largest (lightest) of `d` uniform ranks, `P(rank ≤ k) = (k/n)ᵈ`.
    DChoice {
        /// Bins.
        n: u64,
        /// Samples.
        d: u32,
    },
    /// (1+β): with probability β a Two-Choice rank, else a uniform rank.
    OnePlusBeta {
        /// Bins.
        n: u64,
        /// `β·2⁶⁴` (see [`crate::rng::bernoulli`]).
        threshold: u64,
    },
    /// Quantile(δ) with `k = δn`: a uniform rank, redrawn once if it is among the `k` heaviest.
    Quantile {
        /// Bins.
        n: u64,
        /// `δn`.
        k: u64,
    },
    /// Any other rank-based process: Walker's alias table over its allocation vector.
    Alias(Alias),
}

impl RankSampler {
    /// The sampler of a rank-based process at `n` bins; `None` when the process is not
    /// rank-based.
    ///
    /// ```
    /// use balloc::sim::kernel::RankSampler;
    /// let p = balloc::process::parse("d-choice(d=3)").unwrap();
    /// assert!(matches!(RankSampler::for_process(p.as_ref(), 10).unwrap(),
    ///                  Some(RankSampler::DChoice { n: 10, d: 3 })));
    /// ```
    pub fn for_process(p: &dyn Process, n: usize) -> Result<Option<RankSampler>> {
        Ok(Kernel::for_process(p, n)?.rank_sampler(n))
    }

    /// Draws a 0-based rank.
    #[inline(always)]
    pub fn sample(&self, rng: &mut SimRng) -> u64 {
        match self {
            RankSampler::Uniform { n } => below(rng, *n),
            RankSampler::DChoice { n, d } => {
                let mut r = below(rng, *n);
                for _ in 1..*d {
                    r = r.max(below(rng, *n));
                }
                r
            }
            RankSampler::OnePlusBeta { n, threshold } => {
                let r = below(rng, *n);
                if bernoulli(rng, *threshold) {
                    r.max(below(rng, *n))
                } else {
                    r
                }
            }
            RankSampler::Quantile { n, k } => {
                let r = below(rng, *n);
                if r >= *k { r } else { below(rng, *n) }
            }
            RankSampler::Alias(a) => a.sample(rng) as u64,
        }
    }
}

/// Walker's alias table: O(n) set-up, O(1) per draw (one uniform index, one uniform real).
///
/// ```
/// use balloc::sim::kernel::Alias;
/// let a = Alias::new(&[0.25, 0.75]).unwrap();
/// let mut r = balloc::sim::rng::run_rng(1);
/// let ones = (0..100_000).filter(|_| a.sample(&mut r) == 1).count();
/// assert!((ones as f64 / 1e5 - 0.75).abs() < 0.01); // 0.01 is over 7 standard errors
/// ```
#[derive(Debug, Clone)]
pub struct Alias {
    prob: Vec<f64>,
    alias: Vec<u32>,
}

impl Alias {
    /// Builds the table of a probability vector (non-negative, positive sum; it is normalised).
    pub fn new(p: &[f64]) -> Result<Alias> {
        let n = p.len();
        let s: f64 = p.iter().sum();
        if n == 0 || n > u32::MAX as usize || !(s > 0.0 && s.is_finite()) {
            return Err(Error::invalid(
                "allocation vector",
                "needs 1..2^32 entries with a positive finite sum",
            ));
        }
        let mut prob: Vec<f64> = p.iter().map(|v| v * n as f64 / s).collect();
        let mut alias = vec![0u32; n];
        let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| prob[i] < 1.0);
        while let (Some(&l), Some(&g)) = (small.last(), large.last()) {
            small.pop();
            alias[l] = g as u32;
            prob[g] -= 1.0 - prob[l];
            if prob[g] < 1.0 {
                large.pop();
                small.push(g);
            }
        }
        for i in small.into_iter().chain(large) {
            prob[i] = 1.0;
        }
        Ok(Alias { prob, alias })
    }

    /// Draws an index.
    #[inline(always)]
    pub fn sample(&self, rng: &mut SimRng) -> usize {
        let i = below(rng, self.prob.len() as u64) as usize;
        if unit_f64(rng) < self.prob[i] {
            i
        } else {
            self.alias[i] as usize
        }
    }
}

/// A read-only view of a load vector for one step: bin loads (as comparable keys and as numbers)
/// and the total weight `W`.
pub trait Frame {
    /// The stored form of a load, ordered as the loads.
    type Key: Copy + PartialOrd;
    /// The number of bins.
    fn n(&self) -> u64;
    /// The stored form of bin `i`'s load.
    fn key(&self, i: usize) -> Self::Key;
    /// Bin `i`'s load.
    fn load(&self, i: usize) -> f64;
    /// The total weight `W`.
    fn total(&self) -> f64;
    /// The cut of Quantile with `k` heavy ranks, `1 ≤ k < n` (see [`QuantileCut`]).
    fn quantile_cut(&self, k: u64, ties: TieRule) -> QuantileCut<Self::Key>;
}

/// Loads stored as `base + offset` with integer offsets of type `T` (`u8`, `u16`, `u32`).
#[derive(Debug, Clone, Copy)]
pub struct Ints<'a, T> {
    /// The offsets.
    pub x: &'a [T],
    /// The load of offset 0.
    pub base: f64,
    /// `W`.
    pub total: f64,
}

/// Loads stored as `f64`.
#[derive(Debug, Clone, Copy)]
pub struct Reals<'a> {
    /// The loads.
    pub x: &'a [f64],
    /// `W`.
    pub total: f64,
}

/// An unsigned integer offset type of [`Ints`].
pub trait Offset: Copy + Ord + Default + Send + Sync + std::fmt::Debug + 'static {
    /// The largest offset.
    const MAX: u64;
    /// As `u64`.
    fn get(self) -> u64;
    /// From `u64` (the caller guarantees `v ≤ MAX`).
    fn of(v: u64) -> Self;
}

macro_rules! offset {
    ($t:ty) => {
        impl Offset for $t {
            const MAX: u64 = <$t>::MAX as u64;
            #[inline(always)]
            fn get(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn of(v: u64) -> Self {
                v as $t
            }
        }
    };
}
offset!(u8);
offset!(u16);
offset!(u32);

impl<T: Offset> Frame for Ints<'_, T> {
    type Key = T;
    #[inline(always)]
    fn n(&self) -> u64 {
        self.x.len() as u64
    }
    #[inline(always)]
    fn key(&self, i: usize) -> T {
        self.x[i]
    }
    #[inline(always)]
    fn load(&self, i: usize) -> f64 {
        self.base + self.x[i].get() as f64
    }
    #[inline(always)]
    fn total(&self) -> f64 {
        self.total
    }
    fn quantile_cut(&self, k: u64, ties: TieRule) -> QuantileCut<T> {
        // Offsets in a small range are counted; others are selected.
        let max = self.x.iter().copied().max().unwrap_or_default().get();
        if max < 1 << 20 {
            let mut count = vec![0u64; max as usize + 1];
            for &v in self.x {
                count[v.get() as usize] += 1;
            }
            let mut s = 0;
            for v in (0..=max as usize).rev() {
                if s + count[v] >= k {
                    return QuantileCut::new(self, T::of(v as u64), s, s + count[v], k, ties);
                }
                s += count[v];
            }
            unreachable!("k < n bins lie above the lowest offset")
        }
        select_cut(self, k, ties)
    }
}

impl Frame for Reals<'_> {
    type Key = f64;
    #[inline(always)]
    fn n(&self) -> u64 {
        self.x.len() as u64
    }
    #[inline(always)]
    fn key(&self, i: usize) -> f64 {
        self.x[i]
    }
    #[inline(always)]
    fn load(&self, i: usize) -> f64 {
        self.x[i]
    }
    #[inline(always)]
    fn total(&self) -> f64 {
        self.total
    }
    fn quantile_cut(&self, k: u64, ties: TieRule) -> QuantileCut<f64> {
        select_cut(self, k, ties)
    }
}

/// The cut of a frame by selection: the `k`-th largest key (1-based) and the counts around it.
fn select_cut<F: Frame>(f: &F, k: u64, ties: TieRule) -> QuantileCut<F::Key> {
    let n = f.n() as usize;
    let mut keys: Vec<F::Key> = (0..n).map(|i| f.key(i)).collect();
    let desc = |a: &F::Key, b: &F::Key| b.partial_cmp(a).unwrap_or(std::cmp::Ordering::Equal);
    let (_, tau, _) = keys.select_nth_unstable_by(k as usize - 1, desc);
    let tau = *tau;
    let (mut s, mut t) = (0, 0);
    for i in 0..n {
        let v = f.key(i);
        s += (v > tau) as u64;
        t += (v >= tau) as u64;
    }
    QuantileCut::new(f, tau, s, t, k, ties)
}

/// Which bins Quantile(δ) treats as among its `k` heaviest ranks on a frozen load vector: every
/// bin heavier than `tau`, and of the `t − s` bins at `tau` (`s` heavier, `t` at least as heavy),
/// under random ties each with probability `(k − s)/(t − s)` (drawn exactly as
/// `below(t − s) < k − s`), under fixed ties the first `k − s` in index order.
#[derive(Debug, Clone, Copy)]
pub struct QuantileCut<K> {
    /// The load (key) of rank `k`.
    pub tau: K,
    /// `t − s`: bins at `tau`.
    pub at: u64,
    /// `k − s`: heavy ranks among them.
    pub heavy_at: u64,
    /// Fixed ties: the largest index of a heavy bin at `tau`; `None` for random ties.
    pub last_heavy: Option<usize>,
}

impl<K: Copy + PartialOrd> QuantileCut<K> {
    fn new<F: Frame<Key = K>>(f: &F, tau: K, s: u64, t: u64, k: u64, ties: TieRule) -> Self {
        let heavy_at = k - s;
        let last_heavy = match ties {
            TieRule::Random => None,
            TieRule::Fixed => (0..f.n() as usize)
                .filter(|&i| f.key(i) == tau)
                .nth(heavy_at as usize - 1),
        };
        QuantileCut {
            tau,
            at: t - s,
            heavy_at,
            last_heavy,
        }
    }

    /// Whether bin `i` with key `v` is among the `k` heaviest ranks (one draw for a random tie).
    #[inline(always)]
    pub fn heavy(&self, i: usize, v: K, rng: &mut SimRng) -> bool {
        if v > self.tau {
            return true;
        }
        if v < self.tau {
            return false;
        }
        match self.last_heavy {
            Some(last) => i <= last,
            None => below(rng, self.at) < self.heavy_at,
        }
    }
}

/// One step of a kernel on a frame of type `F`: the destination bin and its number of balls.
pub trait Step<F: Frame> {
    /// The destination of one step.
    fn pick(&self, f: &F, rng: &mut SimRng) -> usize;
    /// The balls bin `j` receives when it is the destination (1 unless the rule says otherwise).
    #[inline(always)]
    fn balls(&self, _f: &F, _j: usize) -> u64 {
        1
    }
}

/// Whether `c` is strictly preferred to the current choice `j` by a min-load rule under `ties`
/// (random: strictly lighter, so the first of the lightest samples is kept; fixed: lighter, or as
/// light with a larger index, i.e. a larger rank).
#[inline(always)]
fn prefer<F: Frame>(f: &F, fixed: bool, c: usize, j: usize) -> bool {
    let (kc, kj) = (f.key(c), f.key(j));
    kc < kj || (fixed && kc == kj && c > j)
}

/// Greedy on a graph `G` with edge list `edges` (Bansal–Feldheim, arXiv:2106.06051, §1: a ball
/// requests a uniform edge `{a, b}` and is placed on the endpoint of smaller load, a fair coin
/// deciding between equal loads). In the (1+β) model (Remark 1.1 there) a step is that with
/// probability β and a uniform bin otherwise. Every vertex `v` then receives the ball with
/// probability `(1 − β)/n + β·(2·#{heavier neighbours} + #{tied neighbours})/(2m)`, the graphical
/// process's step law.
///
/// ```
/// use balloc::graph::Graph;
/// use balloc::sim::kernel::{Frame, GraphStep, Reals, Step};
/// use balloc::sim::rng::run_rng;
/// // Path 0 – 1 – 2 with loads (0, 1, 1): edge {0, 1} always gives 0, edge {1, 2} a coin,
/// // so vertex 0 receives half of the balls and vertices 1 and 2 a quarter each.
/// let s = GraphStep::new(&Graph::path(3).unwrap(), 1.0).unwrap();
/// let x = [0.0, 1.0, 1.0];
/// let f = Reals { x: &x, total: 2.0 };
/// let mut rng = run_rng(1);
/// let mut c = [0u32; 3];
/// for _ in 0..40_000 {
///     c[s.pick(&f, &mut rng)] += 1;
/// }
/// assert!((c[0] as f64 / 40_000.0 - 0.5).abs() < 0.01);
/// assert!((c[1] as f64 / 40_000.0 - 0.25).abs() < 0.01);
/// ```
#[derive(Debug, Clone)]
pub struct GraphStep {
    edges: std::sync::Arc<[[u32; 2]]>,
    n: u64,
    /// `β·2⁶⁴` when `β < 1` (see [`crate::rng::bernoulli`]); `None` for the graphical process.
    threshold: Option<u64>,
}

impl GraphStep {
    /// The step of greedy on `g` with probability `beta ∈ (0, 1]` of a graph step.
    pub fn new(g: &crate::graph::Graph, beta: f64) -> Result<GraphStep> {
        let narrow = |v: usize| {
            u32::try_from(v).map_err(|_| {
                Error::invalid(
                    format!("graph `{}`", g.name()),
                    format!("vertex {v} exceeds 2^32 − 1"),
                )
            })
        };
        if g.m() == 0 {
            return Err(Error::invalid(
                format!("graph `{}`", g.name()),
                "has no edges",
            ));
        }
        if !(beta > 0.0 && beta <= 1.0) {
            return Err(Error::invalid(
                "beta",
                format!("must be in (0, 1], got {beta}"),
            ));
        }
        let edges = g
            .edges()
            .iter()
            .map(|&(a, b)| Ok([narrow(a)?, narrow(b)?]))
            .collect::<Result<Vec<_>>>()?;
        Ok(GraphStep {
            edges: edges.into(),
            n: g.n() as u64,
            threshold: (beta < 1.0).then(|| bernoulli_threshold(beta)),
        })
    }
}

impl<F: Frame> Step<F> for GraphStep {
    #[inline(always)]
    fn pick(&self, f: &F, rng: &mut SimRng) -> usize {
        if let Some(t) = self.threshold
            && !bernoulli(rng, t)
        {
            return below(rng, self.n) as usize;
        }
        let [a, b] = self.edges[below(rng, self.edges.len() as u64) as usize];
        let (a, b) = (a as usize, b as usize);
        let (ka, kb) = (f.key(a), f.key(b));
        if ka < kb {
            a
        } else if kb < ka {
            b
        } else if rand::Rng::next_u64(rng) >> 63 == 1 {
            a
        } else {
            b
        }
    }
}

/// One-Choice: a uniform bin.
#[derive(Debug, Clone, Copy)]
pub struct OneChoiceStep;

impl<F: Frame> Step<F> for OneChoiceStep {
    #[inline(always)]
    fn pick(&self, f: &F, rng: &mut SimRng) -> usize {
        below(rng, f.n()) as usize
    }
}

/// Two-Choice: two uniform bins from one 64-bit word (`n ≤ 2³²`), the lighter kept.
#[derive(Debug, Clone, Copy)]
pub struct TwoChoiceStep {
    n: u64,
    reject: u64,
    fixed: bool,
}

impl TwoChoiceStep {
    /// Two-Choice at `n` bins under `ties` (the one-word pair needs `n ≤ 2³²`).
    pub fn new(n: u64, ties: TieRule) -> TwoChoiceStep {
        TwoChoiceStep {
            n,
            reject: if n <= 1 << 32 {
                ((1u64 << 32) - n) % n
            } else {
                0
            },
            fixed: ties == TieRule::Fixed,
        }
    }
}

impl<F: Frame> Step<F> for TwoChoiceStep {
    #[inline(always)]
    fn pick(&self, f: &F, rng: &mut SimRng) -> usize {
        let (a, b) = below_pair32(rng, self.n, self.reject);
        let (a, b) = (a as usize, b as usize);
        if prefer(f, self.fixed, b, a) { b } else { a }
    }
}

/// d-Choice: the least loaded of `d` uniform bins.
#[derive(Debug, Clone, Copy)]
pub struct DChoiceStep {
    d: u32,
    fixed: bool,
}

impl<F: Frame> Step<F> for DChoiceStep {
    #[inline(always)]
    fn pick(&self, f: &F, rng: &mut SimRng) -> usize {
        let n = f.n();
        let mut j = below(rng, n) as usize;
        for _ in 1..self.d {
            let c = below(rng, n) as usize;
            if prefer(f, self.fixed, c, j) {
                j = c;
            }
        }
        j
    }
}

/// (1+β): with probability β the lighter of two uniform bins, else the first. One word decides
/// the coin, one more gives both bins (`n ≤ 2³²`); the choice is a select, not a branch, since
/// the coin is unpredictable.
#[derive(Debug, Clone, Copy)]
pub struct OnePlusBetaStep {
    threshold: u64,
    pair: TwoChoiceStep,
}

impl<F: Frame> Step<F> for OnePlusBetaStep {
    #[inline(always)]
    fn pick(&self, f: &F, rng: &mut SimRng) -> usize {
        let coin = bernoulli(rng, self.threshold);
        let p = &self.pair;
        let (a, b) = if p.n <= 1 << 32 {
            let (a, b) = below_pair32(rng, p.n, p.reject);
            (a as usize, b as usize)
        } else {
            (below(rng, p.n) as usize, below(rng, p.n) as usize)
        };
        let c = if prefer(f, p.fixed, b, a) { b } else { a };
        let mask = (coin as usize).wrapping_neg();
        (c & mask) | (a & !mask)
    }
}

/// Quantile(δ) on a frame whose cut was computed for it.
#[derive(Debug, Clone, Copy)]
pub struct QuantileStep<K> {
    /// The cut; `None` when no rank is heavy (`k = 0`) or every rank is (`k = n`), where the
    /// destination is uniform either way.
    pub cut: Option<QuantileCut<K>>,
}

impl<K: Copy + PartialOrd> QuantileStep<K> {
    /// The step with `k` heavy ranks on frame `f`.
    pub fn new<F: Frame<Key = K>>(f: &F, k: u64, ties: TieRule) -> QuantileStep<K> {
        QuantileStep {
            cut: (k > 0 && k < f.n()).then(|| f.quantile_cut(k, ties)),
        }
    }
}

/// The thinning rules: both samples drawn from one word (`n ≤ 2³²`), the second taken when the
/// first is rejected (a select, not a branch: acceptance is unpredictable).
#[derive(Debug, Clone, Copy)]
pub struct ThinningStep {
    accept: Accept,
    pair: TwoChoiceStep,
}

impl ThinningStep {
    /// The thinning step with rule `accept` at `n` bins.
    pub fn new(accept: Accept, n: u64) -> ThinningStep {
        ThinningStep {
            accept,
            pair: TwoChoiceStep::new(n, TieRule::Random),
        }
    }
}

impl<F: Frame> Step<F> for ThinningStep {
    #[inline(always)]
    fn pick(&self, f: &F, rng: &mut SimRng) -> usize {
        let p = &self.pair;
        let (a, b) = if p.n <= 1 << 32 {
            let (a, b) = below_pair32(rng, p.n, p.reject);
            (a as usize, b as usize)
        } else {
            (below(rng, p.n) as usize, below(rng, p.n) as usize)
        };
        let keep = self.accept.accepts(f.load(a), f.total(), p.n as f64);
        let mask = (keep as usize).wrapping_neg();
        (a & mask) | (b & !mask)
    }
}

/// Twinning: a uniform bin; `w_minus` balls if it is underloaded, `w_plus` otherwise.
#[derive(Debug, Clone, Copy)]
pub struct TwinningStep {
    w_minus: u32,
    w_plus: u32,
    boundary: Boundary,
}

impl<F: Frame> Step<F> for TwinningStep {
    #[inline(always)]
    fn pick(&self, f: &F, rng: &mut SimRng) -> usize {
        below(rng, f.n()) as usize
    }
    #[inline(always)]
    fn balls(&self, f: &F, j: usize) -> u64 {
        let n = f.n() as f64;
        if self.boundary.is_under(n * f.load(j) - f.total(), 0.0) {
            self.w_minus as u64
        } else {
            self.w_plus as u64
        }
    }
}

/// Packing: a uniform bin; raised to `⌈W/n⌉ + 1` if underloaded, one ball otherwise.
#[derive(Debug, Clone, Copy)]
pub struct PackingStep {
    boundary: Boundary,
}

impl<F: Frame> Step<F> for PackingStep {
    #[inline(always)]
    fn pick(&self, f: &F, rng: &mut SimRng) -> usize {
        below(rng, f.n()) as usize
    }
    #[inline(always)]
    fn balls(&self, f: &F, j: usize) -> u64 {
        let n = f.n() as f64;
        let (x, w) = (f.load(j), f.total());
        if self.boundary.is_under(n * x - w, 0.0) {
            ((w / n).ceil() + 1.0 - x) as u64
        } else {
            1
        }
    }
}

/// The step of a kernel at one frame, as one enum over the concrete step types; engines match on
/// it once and run a loop monomorphised for the arm (see [`with_step!`]).
#[derive(Debug, Clone)]
pub enum AnyStep<K> {
    /// One-Choice.
    OneChoice(OneChoiceStep),
    /// Two-Choice (`n ≤ 2³²`).
    TwoChoice(TwoChoiceStep),
    /// d-Choice.
    DChoice(DChoiceStep),
    /// (1+β).
    OnePlusBeta(OnePlusBetaStep),
    /// Quantile with its cut for the current frame.
    Quantile(QuantileStep<K>),
    /// Thinning.
    Thinning(ThinningStep),
    /// Twinning.
    Twinning(TwinningStep),
    /// Packing.
    Packing(PackingStep),
    /// Greedy on a graph.
    Graph(GraphStep),
}

impl<K: Copy + PartialOrd> AnyStep<K> {
    /// The step of `kernel` on frame `f` under `ties` (Quantile computes its cut on `f`, O(n));
    /// `None` for [`Kernel::Ranks`] and [`Kernel::Generic`].
    pub fn of<F: Frame<Key = K>>(kernel: &Kernel, f: &F, ties: TieRule) -> Option<AnyStep<K>> {
        let fixed = ties == TieRule::Fixed;
        Some(match kernel {
            Kernel::OneChoice => AnyStep::OneChoice(OneChoiceStep),
            Kernel::DChoice { d: 2 } if f.n() <= 1 << 32 => {
                AnyStep::TwoChoice(TwoChoiceStep::new(f.n(), ties))
            }
            Kernel::DChoice { d } => AnyStep::DChoice(DChoiceStep { d: *d, fixed }),
            Kernel::OnePlusBeta { threshold } => AnyStep::OnePlusBeta(OnePlusBetaStep {
                threshold: *threshold,
                pair: TwoChoiceStep::new(f.n(), ties),
            }),
            Kernel::Quantile { k } => AnyStep::Quantile(QuantileStep::new(f, *k, ties)),
            Kernel::Thinning(a) => AnyStep::Thinning(ThinningStep::new(*a, f.n())),
            Kernel::Twinning {
                w_minus,
                w_plus,
                boundary,
            } => AnyStep::Twinning(TwinningStep {
                w_minus: *w_minus,
                w_plus: *w_plus,
                boundary: *boundary,
            }),
            Kernel::Packing { boundary } => AnyStep::Packing(PackingStep {
                boundary: *boundary,
            }),
            Kernel::Graph(g) => AnyStep::Graph(g.clone()),
            Kernel::Ranks(_) | Kernel::Generic => return None,
        })
    }

    /// Whether the step must be rebuilt whenever the loads change (Quantile's cut).
    pub fn depends_on_frame(&self) -> bool {
        matches!(self, AnyStep::Quantile(_))
    }
}

impl<F: Frame> Step<F> for QuantileStep<F::Key> {
    #[inline(always)]
    fn pick(&self, f: &F, rng: &mut SimRng) -> usize {
        let n = f.n();
        let i = below(rng, n) as usize;
        match &self.cut {
            Some(c) if c.heavy(i, f.key(i), rng) => below(rng, n) as usize,
            _ => i,
        }
    }
}

/// Runs `$body` with `$s` bound to the concrete step of `$any` (an [`AnyStep`]), so that the
/// body is compiled once per step type.
#[macro_export]
#[doc(hidden)]
macro_rules! with_step {
    ($any:expr, |$s:ident| $body:expr) => {
        match $any {
            $crate::sim::kernel::AnyStep::OneChoice($s) => $body,
            $crate::sim::kernel::AnyStep::TwoChoice($s) => $body,
            $crate::sim::kernel::AnyStep::DChoice($s) => $body,
            $crate::sim::kernel::AnyStep::OnePlusBeta($s) => $body,
            $crate::sim::kernel::AnyStep::Quantile($s) => $body,
            $crate::sim::kernel::AnyStep::Thinning($s) => $body,
            $crate::sim::kernel::AnyStep::Twinning($s) => $body,
            $crate::sim::kernel::AnyStep::Packing($s) => $body,
            $crate::sim::kernel::AnyStep::Graph($s) => $body,
        }
    };
}
pub use with_step;

/// The `k` heaviest ranks of Quantile maintained while loads only grow, one bin at a time (the
/// sequential setting with weights, where a cut computed afresh would cost O(n) per step).
///
/// Under random ties it keeps the multiset of loads (a count per distinct load), the load `τ` of
/// rank `k` and `s = #{x > τ}`, `t = #{x ≥ τ}` (so `s < k ≤ t`). When a bin grows from `x` to
/// `x' > x`, `s` and `t` change by at most one each, `t` never falls below `k`, and while
/// `s ≥ k` the cut moves up to the next distinct load. Under fixed ties (rank order: heavier
/// first, then the smaller index) it keeps the bins in rank order and the bin `b` of rank `k`: a
/// bin that grows past `b` from below takes its place among the `k` heaviest and `b` becomes the
/// last of them. Each update is O(log n); [`QuantileTracker::heavy`] answers as
/// [`QuantileCut::heavy`] does on a cut computed afresh (same draws).
#[derive(Debug, Clone)]
pub enum QuantileTracker {
    /// No rank is heavy (`k = 0`) or every rank is (`k = n`): the step is uniform.
    Uniform,
    /// Random ties.
    Random {
        /// Heavy ranks.
        k: u64,
        /// Bins per distinct load (by [`ascending_key`]).
        count: std::collections::BTreeMap<u64, u64>,
        /// The key of the load of rank `k`.
        tau: u64,
        /// `#{x > τ}`.
        s: u64,
        /// `#{x ≥ τ}`.
        t: u64,
    },
    /// Fixed ties.
    Fixed {
        /// Every bin as (key of its load in descending order, index): rank order.
        order: std::collections::BTreeSet<(u64, usize)>,
        /// The entry of rank `k`.
        last: (u64, usize),
    },
}

/// A `u64` whose order is the order of the finite loads (`−0.0` and `+0.0` share a key).
///
/// ```
/// use balloc::sim::kernel::ascending_key;
/// assert!(ascending_key(-1.5) < ascending_key(0.0) && ascending_key(0.0) < ascending_key(2.0));
/// assert_eq!(ascending_key(-0.0), ascending_key(0.0));
/// ```
pub fn ascending_key(v: f64) -> u64 {
    let bits = (v + 0.0).to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}

impl QuantileTracker {
    /// The tracker of `k` heavy ranks on the loads `x` under `ties` (O(n log n)).
    pub fn new(x: &[f64], k: u64, ties: TieRule) -> QuantileTracker {
        let n = x.len() as u64;
        if k == 0 || k >= n {
            return QuantileTracker::Uniform;
        }
        match ties {
            TieRule::Random => {
                let mut count = std::collections::BTreeMap::new();
                for &v in x {
                    *count.entry(ascending_key(v)).or_insert(0u64) += 1;
                }
                let mut s = 0;
                for (&key, &c) in count.iter().rev() {
                    if s + c >= k {
                        return QuantileTracker::Random {
                            k,
                            tau: key,
                            s,
                            t: s + c,
                            count,
                        };
                    }
                    s += c;
                }
                unreachable!("k < n bins lie above the lightest load")
            }
            TieRule::Fixed => {
                let order: std::collections::BTreeSet<(u64, usize)> = x
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| (!ascending_key(v), i))
                    .collect();
                let last = *order.iter().nth(k as usize - 1).expect("k < n");
                QuantileTracker::Fixed { order, last }
            }
        }
    }

    /// Whether bin `i` with load `x` is among the `k` heaviest ranks (one draw for a random tie).
    #[inline]
    pub fn heavy(&self, i: usize, x: f64, rng: &mut SimRng) -> bool {
        match self {
            QuantileTracker::Uniform => false,
            QuantileTracker::Random { k, tau, s, t, .. } => {
                let key = ascending_key(x);
                key > *tau || (key == *tau && below(rng, t - s) < k - s)
            }
            QuantileTracker::Fixed { last, .. } => (!ascending_key(x), i) <= *last,
        }
    }

    /// Bin `i` grew from `old` to `new > old`.
    pub fn grow(&mut self, i: usize, old: f64, new: f64) {
        match self {
            QuantileTracker::Uniform => {}
            QuantileTracker::Random {
                k,
                count,
                tau,
                s,
                t,
            } => {
                let (a, b) = (ascending_key(old), ascending_key(new));
                if a == b {
                    return;
                }
                let c = count.get_mut(&a).expect("the bin's load is counted");
                *c -= 1;
                if *c == 0 {
                    count.remove(&a);
                }
                *count.entry(b).or_insert(0) += 1;
                // Leaving its old load and reaching its new one.
                if a == *tau {
                    *t -= 1;
                }
                if a < *tau && b == *tau {
                    *t += 1;
                }
                if a <= *tau && b > *tau {
                    *s += 1;
                    *t += 1;
                }
                while *s >= *k {
                    let (&next, &c) = count
                        .range((std::ops::Bound::Excluded(*tau), std::ops::Bound::Unbounded))
                        .next()
                        .expect("s ≥ k > 0 bins lie above the cut");
                    *tau = next;
                    *t = *s;
                    *s -= c;
                }
            }
            QuantileTracker::Fixed { order, last } => {
                let (was, now) = ((!ascending_key(old), i), (!ascending_key(new), i));
                if was == now {
                    return;
                }
                order.remove(&was);
                order.insert(now);
                if was <= *last {
                    // Still among the k heaviest; the last of them is the greater of the bin's
                    // new entry and the entry just before the old last one.
                    if was == *last {
                        let before = order
                            .range(..*last)
                            .next_back()
                            .copied()
                            .filter(|&e| e != now);
                        *last = before.map_or(now, |e| e.max(now));
                    }
                } else if now < *last {
                    // Joins the k heaviest; the old last one leaves them.
                    let before = order
                        .range(..*last)
                        .next_back()
                        .copied()
                        .expect("the bin now lies before the old last entry");
                    *last = before;
                }
            }
        }
    }
}
