//! How one step of a process picks its destination, as the mathematics states it ([`Rule`]).
//! The simulator compiles a rule into the data its hot loops run (`sim::kernel::Kernel`:
//! alias tables, Bernoulli thresholds, edge tables); the processes know nothing of it.

use crate::graph::Graph;
use crate::loads::Boundary;
use std::sync::Arc;

/// The sampling rule of one step of a process at a fixed `n` (see [`super::Process::rule`]).
/// Every rule has the law of the process's step law (the proof, rule by rule, is in the
/// documentation of `sim::kernel`).
///
/// ```
/// use balloc::process::{self, Accept, Rule};
/// assert!(matches!(process::parse("d-choice(d=3)").unwrap().rule(10).unwrap(), Rule::DChoice { d: 3 }));
/// // Mean-Thinning keeps its first sample iff it is underloaded: Relative-Threshold with f = 0.
/// let r = process::parse("mean-thinning").unwrap().rule(4).unwrap();
/// assert!(matches!(r, Rule::Thinning(Accept::Relative { f, .. }) if f == 0.0));
/// ```
#[derive(Debug, Clone)]
pub enum Rule {
    /// One-Choice: a uniform bin.
    OneChoice,
    /// d-Choice: the least loaded of `d` uniform bins (the first of them on equal loads).
    DChoice {
        /// Samples per ball (`d ≥ 1`).
        d: u32,
    },
    /// (1+β): with probability `β ∈ [0, 1]` a Two-Choice step, else a uniform bin.
    OnePlusBeta {
        /// The probability of a Two-Choice step.
        beta: f64,
    },
    /// Quantile(δ): a uniform bin, replaced by a second uniform bin if it is among the `k = δn`
    /// heaviest.
    Quantile {
        /// `δn`.
        k: u64,
    },
    /// A rank drawn from the allocation vector `p` (index 0: rank 1, the heaviest).
    Ranks(Vec<f64>),
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
    Graph {
        /// The graph on the bins.
        graph: Arc<Graph>,
        /// The probability `β ∈ (0, 1]` that an edge is requested.
        beta: f64,
    },
    /// No sampling rule of its own: a destination drawn from the step law at the loads.
    StepLaw,
}

/// The acceptance rule of a thinning process for its first sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Accept {
    /// Two-Thinning: accept iff `x ≤ ℓ`.
    Absolute(f64),
    /// Relative-Threshold(f) and Mean-Thinning: accept iff `n·x − W` is under `n·f` by the
    /// boundary rule (the formula of `process::relative_threshold`, so decisions agree bit for bit).
    Relative {
        /// The offset `f`.
        f: f64,
        /// Where `y = f` counts.
        boundary: Boundary,
    },
}

impl Accept {
    /// Whether a first sample with load `x` is kept when the total weight is `w` and there are
    /// `n` bins.
    ///
    /// ```
    /// use balloc::{loads::Boundary, process::Accept};
    /// // Mean-Thinning at n = 4, W = 4: y = x − 1; y = 0 counts as overloaded by default.
    /// let a = Accept::Relative { f: 0.0, boundary: Boundary::Over };
    /// assert!(a.accepts(0.0, 4.0, 4.0) && !a.accepts(1.0, 4.0, 4.0));
    /// assert!(Accept::Absolute(2.0).accepts(2.0, 0.0, 1.0));
    /// ```
    #[inline(always)]
    pub fn accepts(&self, x: f64, w: f64, n: f64) -> bool {
        match *self {
            Accept::Absolute(l) => x <= l,
            Accept::Relative { f, boundary } => boundary.is_under(n * x - w, n * f),
        }
    }
}
