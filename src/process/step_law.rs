//! The law of one step of a process at a fixed load vector, generic over the number type of its
//! probabilities: `StepLaw` (= `StepLaw<f64>`) for the float routes and [`ExactStepLaw`]
//! (= `StepLaw<Q>`) for the exact and enclosure routes. One type, two number domains.
//!
//! A step sends `balls` balls to bin `bin` with probability `prob`; most processes send one ball,
//! Twinning and Packing several (Los–Sauerwald–Sylvester, *Mean-Biased Processes*, Figs. 3.1–3.2).

use crate::error::{Error, Result};
use crate::exact::{Q, int};
use crate::loads::{Loads, TieRule};
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::ops::AddAssign;

/// One possible outcome of a step: bin `bin` receives `balls` balls, with probability `prob`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome<P = f64> {
    /// The destination bin (index into the load vector).
    pub bin: usize,
    /// How many balls it receives (each of i.i.d. weight in a weighted setting).
    pub balls: u32,
    /// The probability of this outcome.
    pub prob: P,
}

/// An outcome with an exact probability.
pub type ExactOutcome = Outcome<Q>;

/// The law of one step at a fixed load vector: a finite list of outcomes whose probabilities sum
/// to one.
///
/// ```
/// use balloc::process::StepLaw;
/// let law = StepLaw::unit(vec![0.25, 0.75]);
/// assert_eq!(law.per_bin_probability(), vec![0.25, 0.75]);
/// assert_eq!(law.expected_balls(), 1.0);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct StepLaw<P = f64> {
    /// The number of bins.
    pub n: usize,
    /// The outcomes (at most a few per bin).
    pub outcomes: Vec<Outcome<P>>,
}

/// A step law with exact rational probabilities.
///
/// For a rank-based process the per-bin probabilities are the rank vector `p` with the tie rule
/// applied: `Random` gives every bin of a tied group the average of the group's rank
/// probabilities, `Fixed` gives the bin of rank `r` the entry `p_r`.
///
/// ```
/// use balloc::exact::Q;
/// use balloc::process::ExactStepLaw;
/// use balloc::{loads::{Loads, TieRule}, process};
/// let two = process::parse("two-choice").unwrap();
/// // n = 3, p = (1, 3, 5)/9 by rank; loads (0, 1, 0): bin 1 is rank 1, bins 0 and 2 tie.
/// let x = Loads::new(vec![0.0, 1.0, 0.0]).unwrap();
/// let r = ExactStepLaw::from_process(two.as_ref(), &x, TieRule::Random).unwrap().per_bin_probability();
/// assert_eq!(r, vec![Q::new(4.into(), 9.into()), Q::new(1.into(), 9.into()), Q::new(4.into(), 9.into())]);
/// let f = ExactStepLaw::from_process(two.as_ref(), &x, TieRule::Fixed).unwrap().per_bin_probability();
/// assert_eq!(f, vec![Q::new(3.into(), 9.into()), Q::new(1.into(), 9.into()), Q::new(5.into(), 9.into())]);
/// ```
pub type ExactStepLaw = StepLaw<Q>;

impl<P: Clone + Zero + AddAssign + for<'a> AddAssign<&'a P>> StepLaw<P> {
    /// One ball; bin `j` receives it with probability `r[j]` (not validated; see
    /// [`StepLaw::unit_checked`] for exact laws).
    pub fn unit(r: Vec<P>) -> StepLaw<P> {
        StepLaw {
            n: r.len(),
            outcomes: r
                .into_iter()
                .enumerate()
                .map(|(bin, prob)| Outcome {
                    bin,
                    balls: 1,
                    prob,
                })
                .collect(),
        }
    }

    /// Whether every outcome allocates exactly one ball.
    pub fn is_unit(&self) -> bool {
        self.outcomes.iter().all(|o| o.balls == 1)
    }

    /// `P(bin j is the destination)` for every bin `j`.
    pub fn per_bin_probability(&self) -> Vec<P> {
        let mut r = vec![P::zero(); self.n];
        for o in &self.outcomes {
            r[o.bin] += &o.prob;
        }
        r
    }
}

impl StepLaw<f64> {
    /// The expected number of balls allocated to each bin in one step.
    /// ```
    /// use balloc::process::{Outcome, StepLaw};
    /// // Twinning at n = 2, bin 0 underloaded: (bin 0, 2 balls) or (bin 1, 1 ball), each with prob ½.
    /// let law = StepLaw { n: 2, outcomes: vec![
    ///     Outcome { bin: 0, balls: 2, prob: 0.5 },
    ///     Outcome { bin: 1, balls: 1, prob: 0.5 },
    /// ] };
    /// assert_eq!(law.per_bin_expected_balls(), vec![1.0, 0.5]);
    /// assert_eq!(law.per_bin_probability(), vec![0.5, 0.5]);
    /// assert!(!law.is_unit());
    /// ```
    pub fn per_bin_expected_balls(&self) -> Vec<f64> {
        let mut r = vec![0.0; self.n];
        for o in &self.outcomes {
            r[o.bin] += o.prob * o.balls as f64;
        }
        r
    }

    /// The expected number of balls allocated in one step.
    pub fn expected_balls(&self) -> f64 {
        self.outcomes.iter().map(|o| o.prob * o.balls as f64).sum()
    }
}

impl StepLaw<Q> {
    /// A validated law: bins in range, probabilities `≥ 0` summing exactly to 1, ball counts ≥ 1.
    pub fn new(n: usize, outcomes: Vec<ExactOutcome>) -> Result<ExactStepLaw> {
        if n == 0 {
            return Err(Error::invalid(
                "allocation vector",
                "has no bins (need n ≥ 1)",
            ));
        }
        let mut s = crate::exact::sum::QSum::default();
        for o in &outcomes {
            if o.bin >= n || o.prob.is_negative() || o.balls == 0 {
                return Err(Error::invalid(
                    "allocation vector",
                    format!(
                        "outcome (bin {}, balls {}, prob {}) is not a probability on one of {n} bins",
                        o.bin, o.balls, o.prob
                    ),
                ));
            }
            s.add(&o.prob);
        }
        let s = s.value();
        if !s.is_one() {
            return Err(Error::invalid(
                "allocation vector",
                format!("probabilities sum to {s}, not exactly 1"),
            ));
        }
        Ok(StepLaw { n, outcomes })
    }

    /// The same law, validated (see [`StepLaw::new`]).
    pub fn validated(self) -> Result<ExactStepLaw> {
        StepLaw::new(self.n, self.outcomes)
    }

    /// One ball; bin `j` receives it with probability `r[j]`, validated.
    ///
    /// ```
    /// use balloc::exact::Q;
    /// use balloc::process::ExactStepLaw;
    /// let h = Q::new(1.into(), 2.into());
    /// assert!(ExactStepLaw::unit_checked(vec![h.clone(), h.clone()]).is_ok());
    /// assert!(ExactStepLaw::unit_checked(vec![h.clone(), h.clone(), h]).is_err()); // sums to 3/2
    /// ```
    pub fn unit_checked(r: Vec<Q>) -> Result<ExactStepLaw> {
        let law = StepLaw::unit(r);
        StepLaw::new(law.n, law.outcomes)
    }

    /// A rank-indexed vector `p` (rank 1 = heaviest) applied to the bins of `loads` under `ties`.
    pub fn from_rank_vector(p: &[Q], loads: &Loads, ties: TieRule) -> Result<ExactStepLaw> {
        if p.len() != loads.n() {
            return Err(Error::invalid(
                "allocation vector",
                format!("has {} entries but there are {} bins", p.len(), loads.n()),
            ));
        }
        ExactStepLaw::unit_checked(loads.ranking().per_bin(p, ties))
    }

    /// The law of a process at `loads`: [`super::Process::step_law_exact`] (the exact rank vector
    /// with the tie rule applied for rank-based processes; the load-dependent law for
    /// Mean-Thinning, Relative-Threshold, Twinning, Packing, ...), validated; an
    /// [`Error::Unsupported`] for processes without rational probabilities.
    ///
    /// ```
    /// use balloc::exact::Q;
    /// use balloc::process::ExactStepLaw;
    /// use balloc::{loads::{Loads, TieRule}, process};
    /// // Mean-Thinning at y = (−1, 0, 1), θ = 2/3: bin 0 gets (1 + θ)/n = 5/9.
    /// let p = process::parse("mean-thinning").unwrap();
    /// let x = Loads::new(vec![0.0, 1.0, 2.0]).unwrap();
    /// let law = ExactStepLaw::from_process(p.as_ref(), &x, TieRule::Random).unwrap();
    /// assert_eq!(law.per_bin_probability()[0], Q::new(5.into(), 9.into()));
    /// ```
    pub fn from_process(
        process: &dyn super::Process,
        loads: &Loads,
        ties: TieRule,
    ) -> Result<ExactStepLaw> {
        let law = process.step_law_exact(loads, ties)?.ok_or_else(|| {
            Error::Unsupported(format!(
                "{} has no exact step law; exact evaluation covers processes with rational probabilities",
                process.spec()
            ))
        })?;
        StepLaw::new(law.n, law.outcomes)
    }

    /// The expected number of balls allocated to each bin in one step.
    pub fn per_bin_expected_balls(&self) -> Vec<Q> {
        let mut r = vec![Q::zero(); self.n];
        for o in &self.outcomes {
            if o.balls == 1 {
                r[o.bin] += &o.prob;
            } else {
                r[o.bin] += &o.prob * Q::from_integer(o.balls.into());
            }
        }
        r
    }

    /// The expected number of balls allocated in one step.
    pub fn expected_balls(&self) -> Q {
        let mut s = crate::exact::sum::QSum::default();
        for o in &self.outcomes {
            s.add_times(&o.prob, u64::from(o.balls));
        }
        s.value()
    }

    /// The nearest `f64` law (for the float routes).
    ///
    /// ```
    /// use balloc::exact::Q;
    /// use balloc::process::ExactStepLaw;
    /// let l = ExactStepLaw::unit_checked(vec![Q::new(1.into(), 4.into()), Q::new(3.into(), 4.into())]).unwrap();
    /// assert_eq!(l.to_f64().per_bin_probability(), vec![0.25, 0.75]);
    /// ```
    pub fn to_f64(&self) -> StepLaw {
        StepLaw {
            n: self.n,
            outcomes: self
                .outcomes
                .iter()
                .map(|o| Outcome {
                    bin: o.bin,
                    balls: o.balls,
                    prob: o.prob.to_f64().unwrap_or(f64::NAN),
                })
                .collect(),
        }
    }

    /// The uniform law `1/n` on every bin (One-Choice).
    pub fn uniform(n: usize) -> Result<ExactStepLaw> {
        ExactStepLaw::unit_checked(vec![Q::one() / int(n as i64); n])
    }
}
