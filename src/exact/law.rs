//! Exact step laws: the rational counterpart of [`crate::process::StepLaw`].

use super::{Q, int};
use crate::error::{Error, Result};
use crate::loads::{Loads, TieRule};
use crate::process::{Outcome, Process, StepLaw};
use num_traits::{One, Signed, Zero};

/// One outcome of a step in exact arithmetic: bin `bin` receives `balls` balls with probability
/// `prob`.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactOutcome {
    /// The destination bin (index into the load vector).
    pub bin: usize,
    /// How many balls it receives.
    pub balls: u32,
    /// The exact probability.
    pub prob: Q,
}

/// The law of one step at a fixed load vector with rational probabilities summing exactly to 1.
///
/// For a rank-based process the per-bin probabilities are the rank vector `p` of the process
/// with the tie rule applied (DESIGN §1): `Random` gives every bin of a tied group the average of
/// the group's rank probabilities, `Fixed` gives the bin of rank `r` the entry `p_r`.
///
/// ```
/// use balloc::exact::{ExactStepLaw, Q};
/// use balloc::{loads::{Loads, TieRule}, process};
/// let two = process::parse("two-choice").unwrap();
/// // n = 3, p = (1, 3, 5)/9 by rank; loads (0, 1, 0): bin 1 is rank 1, bins 0 and 2 tie.
/// let x = Loads::new(vec![0.0, 1.0, 0.0]).unwrap();
/// let r = ExactStepLaw::from_process(two.as_ref(), &x, TieRule::Random).unwrap().per_bin_probability();
/// assert_eq!(r, vec![Q::new(4.into(), 9.into()), Q::new(1.into(), 9.into()), Q::new(4.into(), 9.into())]);
/// let f = ExactStepLaw::from_process(two.as_ref(), &x, TieRule::Fixed).unwrap().per_bin_probability();
/// assert_eq!(f, vec![Q::new(3.into(), 9.into()), Q::new(1.into(), 9.into()), Q::new(5.into(), 9.into())]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ExactStepLaw {
    /// The number of bins.
    pub n: usize,
    /// The outcomes.
    pub outcomes: Vec<ExactOutcome>,
}

impl ExactStepLaw {
    /// A validated law: bins in range, probabilities `≥ 0` summing exactly to 1, ball counts ≥ 1.
    pub fn new(n: usize, outcomes: Vec<ExactOutcome>) -> Result<ExactStepLaw> {
        if n == 0 {
            return Err(Error::invalid(
                "allocation vector",
                "has no bins (need n ≥ 1)",
            ));
        }
        let mut s = Q::zero();
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
            s += &o.prob;
        }
        if !s.is_one() {
            return Err(Error::invalid(
                "allocation vector",
                format!("probabilities sum to {s}, not exactly 1"),
            ));
        }
        Ok(ExactStepLaw { n, outcomes })
    }

    /// One ball; bin `j` receives it with probability `r[j]`.
    ///
    /// ```
    /// use balloc::exact::{ExactStepLaw, Q};
    /// let h = Q::new(1.into(), 2.into());
    /// assert!(ExactStepLaw::unit(vec![h.clone(), h.clone()]).is_ok());
    /// assert!(ExactStepLaw::unit(vec![h.clone(), h.clone(), h]).is_err()); // sums to 3/2
    /// ```
    pub fn unit(r: Vec<Q>) -> Result<ExactStepLaw> {
        let n = r.len();
        ExactStepLaw::new(
            n,
            r.into_iter()
                .enumerate()
                .map(|(bin, prob)| ExactOutcome {
                    bin,
                    balls: 1,
                    prob,
                })
                .collect(),
        )
    }

    /// A rank-indexed vector `p` (rank 1 = heaviest) applied to the bins of `loads` under `ties`.
    pub fn from_rank_vector(p: &[Q], loads: &Loads, ties: TieRule) -> Result<ExactStepLaw> {
        if p.len() != loads.n() {
            return Err(Error::invalid(
                "allocation vector",
                format!("has {} entries but there are {} bins", p.len(), loads.n()),
            ));
        }
        ExactStepLaw::unit(loads.ranking().per_bin(p, ties))
    }

    /// The law of a process at `loads`: [`Process::step_law_exact`] (the exact rank vector with
    /// the tie rule applied for rank-based processes; the load-dependent law for Mean-Thinning,
    /// Relative-Threshold, Twinning, Packing, ...), validated; an [`Error::Unsupported`] for
    /// processes without rational probabilities.
    ///
    /// ```
    /// use balloc::exact::{ExactStepLaw, Q};
    /// use balloc::{loads::{Loads, TieRule}, process};
    /// // Mean-Thinning at y = (−1, 0, 1), θ = 2/3: bin 0 gets (1 + θ)/n = 5/9 (see `Process`).
    /// let p = process::parse("mean-thinning").unwrap();
    /// let x = Loads::new(vec![0.0, 1.0, 2.0]).unwrap();
    /// let law = ExactStepLaw::from_process(p.as_ref(), &x, TieRule::Random).unwrap();
    /// assert_eq!(law.per_bin_probability()[0], Q::new(5.into(), 9.into()));
    /// ```
    pub fn from_process(
        process: &dyn Process,
        loads: &Loads,
        ties: TieRule,
    ) -> Result<ExactStepLaw> {
        let law = process.step_law_exact(loads, ties)?.ok_or_else(|| {
            Error::Unsupported(format!(
                "{} has no exact step law; exact evaluation covers processes with rational probabilities or an explicit ExactStepLaw",
                process.spec()
            ))
        })?;
        ExactStepLaw::from_process_law(&law)
    }

    /// The validated twin of a [`crate::process::ExactStepLaw`] (same outcomes).
    pub fn from_process_law(law: &crate::process::ExactStepLaw) -> Result<ExactStepLaw> {
        ExactStepLaw::new(
            law.n,
            law.outcomes
                .iter()
                .map(|o| ExactOutcome {
                    bin: o.bin,
                    balls: o.balls,
                    prob: o.prob.clone(),
                })
                .collect(),
        )
    }

    /// `P(bin j is the destination)` for every bin.
    pub fn per_bin_probability(&self) -> Vec<Q> {
        let mut r = vec![Q::zero(); self.n];
        for o in &self.outcomes {
            r[o.bin] += &o.prob;
        }
        r
    }

    /// Whether every outcome allocates exactly one ball.
    pub fn is_unit(&self) -> bool {
        self.outcomes.iter().all(|o| o.balls == 1)
    }

    /// The nearest `f64` law (for the float routes).
    ///
    /// ```
    /// use balloc::exact::{ExactStepLaw, Q};
    /// let l = ExactStepLaw::unit(vec![Q::new(1.into(), 4.into()), Q::new(3.into(), 4.into())]).unwrap();
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
                    prob: super::to_f64(&o.prob),
                })
                .collect(),
        }
    }

    /// The uniform law `1/n` on every bin (One-Choice).
    pub fn uniform(n: usize) -> Result<ExactStepLaw> {
        ExactStepLaw::unit(vec![Q::one() / int(n as i64); n])
    }
}
