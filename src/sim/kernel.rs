//! Fast per-step kernels: what one step of a registered process does, in a form the hot loops can
//! run without dynamic dispatch or per-step allocation.
//!
//! A kernel is recognised from the process's registry name and its canonical spec (every
//! parameter is printed by [`Process::spec`]), and validated against the process itself by the
//! tests in `tests/sim.rs` (per-rank frequencies against `rank_probabilities`; simulated steps
//! against the exact expectation and the natural samplers). Processes without a kernel run
//! through the generic path ([`Kernel::Generic`]), which asks the process for its step law:
//! correct, but O(n) per step.
//!
//! Reference: process definitions of Los–Sauerwald, *Balanced Allocations in Batches* (SPAA 2022),
//! §2, and Los–Sauerwald–Sylvester, *Mean-Biased Processes* (arXiv:2308.05087);
//! `docs/derivations.md` §1.

use super::rng::{SimRng, below, bernoulli, bernoulli_threshold, unit_f64};
use crate::error::{Error, Result};
use crate::loads::Boundary;
use crate::process::Process;
use crate::spec::Spec;

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
        /// `β·2⁶⁴` (see [`super::rng::bernoulli`]).
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
        let info = p.info();
        if !info.rank_based {
            return Ok(None);
        }
        let spec = Spec::parse(&p.spec())?;
        let nn = n as u64;
        Ok(Some(match info.name {
            "one-choice" => RankSampler::Uniform { n: nn },
            "two-choice" => RankSampler::DChoice { n: nn, d: 2 },
            "d-choice" => RankSampler::DChoice {
                n: nn,
                d: spec.get_u64("d", 2)? as u32,
            },
            "one-plus-beta" => RankSampler::OnePlusBeta {
                n: nn,
                threshold: bernoulli_threshold(spec.get_f64("beta", 0.5)?),
            },
            "quantile" => {
                // k = δn, which must be an integer (as in `process::Quantile::k`).
                let (_, delta) = spec.get_ratio("delta", "0.5")?;
                let k = delta * num_rational::BigRational::from_integer(n.into());
                if !k.is_integer() {
                    return Err(Error::invalid(
                        "parameter `delta` of `quantile`",
                        format!(
                            "δn = {k} is not an integer at n = {n}; choose δ as a multiple of 1/{n}"
                        ),
                    ));
                }
                use num_traits::ToPrimitive;
                RankSampler::Quantile {
                    n: nn,
                    k: k.to_integer().to_u64().unwrap_or(nn),
                }
            }
            _ => {
                let p = p.rank_probabilities(n)?.ok_or_else(|| {
                    Error::Unsupported(format!("{} gives no allocation vector", p.spec()))
                })?;
                RankSampler::Alias(Alias::new(&p)?)
            }
        }))
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
    #[inline(always)]
    pub fn accepts(&self, x: f64, w: f64, n: f64) -> bool {
        match *self {
            Accept::Absolute(l) => x <= l,
            Accept::Relative { f, boundary } => boundary.is_under(n * x - w, n * f),
        }
    }
}

/// What a step of a process does, in a form the engines run directly.
#[derive(Debug, Clone)]
pub enum Kernel {
    /// A rank-based process: draw a rank, allocate one ball to a bin of that rank.
    Rank(RankSampler),
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
    /// Packing: a uniform underloaded bin is raised to `⌈W/n⌉ + 1`, an overloaded one gets a ball.
    Packing {
        /// Where `y = 0` counts.
        boundary: Boundary,
    },
    /// No kernel: the engine asks the process for its step law at every step.
    Generic,
}

impl Kernel {
    /// The kernel of a process at `n` bins.
    ///
    /// ```
    /// use balloc::sim::kernel::Kernel;
    /// let k = Kernel::for_process(balloc::process::parse("twinning").unwrap().as_ref(), 8).unwrap();
    /// assert!(matches!(k, Kernel::Twinning { w_minus: 2, w_plus: 1, .. }));
    /// ```
    pub fn for_process(p: &dyn Process, n: usize) -> Result<Kernel> {
        if let Some(s) = RankSampler::for_process(p, n)? {
            return Ok(Kernel::Rank(s));
        }
        let spec = Spec::parse(&p.spec())?;
        let boundary = |default: &str| -> Result<Boundary> {
            Boundary::parse(&spec.get_choice("boundary", &["over", "under"], default)?)
        };
        Ok(match p.info().name {
            "two-thinning" => Kernel::Thinning(Accept::Absolute(spec.get_f64("threshold", 0.0)?)),
            "mean-thinning" => Kernel::Thinning(Accept::Relative {
                f: 0.0,
                boundary: boundary("over")?,
            }),
            "relative-threshold" => Kernel::Thinning(Accept::Relative {
                f: spec.get_f64("f", 0.0)?,
                boundary: boundary("under")?,
            }),
            "twinning" => Kernel::Twinning {
                w_minus: spec.get_u64("w_minus", 2)? as u32,
                w_plus: spec.get_u64("w_plus", 1)? as u32,
                boundary: boundary("over")?,
            },
            "packing" => Kernel::Packing {
                boundary: boundary("over")?,
            },
            _ => Kernel::Generic,
        })
    }
}
