//! Mean bias: the probability-bias and weight-bias conditions of Los–Sauerwald–Sylvester,
//! *Mean-Biased Processes for Balanced Allocations* (arXiv:2308.05087, "paper B"), evaluated
//! exactly in rationals at a load vector, together with the exact per-bin drifts
//! ([`drift`]), the outcome probabilities of Figs. 3.1 and 3.2 ([`outcome`]) and the exact
//! identities for the quadratic and absolute-value potentials ([`identity`]).
//!
//! **Provenance.** Paper B's formal definitions of the two conditions were not available; the
//! conditions below are a reconstruction of their shape (`docs/derivations.md` §5.2,
//! tagged *derived*: a guess at the shape, not the paper's definition). Every verdict
//! computed here is a verdict about that reconstruction.
//!
//! **Definition (reconstructed).** At a load vector `x` with normalised loads `y`, let `U` be
//! the set of underloaded bins (`yᵢ < 0`, or `yᵢ ≤ 0` with `boundary = under`), `δ₋ = |U|/n`,
//! `δ₊ = 1 − δ₋` (the mean quantile: the fraction of overloaded bins). Let `aᵢ` be the expected
//! number of balls bin `i` receives in one step, `E = Σ aᵢ`, and `ρᵢ = n·aᵢ/E` its share relative
//! to the uniform share (`ρ ≡ 1` for One-Choice). For a constant `k > 0` the *mean-bias
//! condition* `MB(k)` is
//!
//! * `ρᵢ ≤ 1 − k·δ₋` for every overloaded bin `i`, and
//! * `ρᵢ ≥ 1 + k·δ₊` for every underloaded bin `i`.
//!
//! *Probability bias* is `MB(k)` for a process that allocates one ball per step (then
//! `ρᵢ = n·rᵢ`); *weight bias* is `MB(k)` for a process that samples every bin with probability
//! `1/n` (the bias then comes from the number of balls). The largest `k` ([`BiasConstant::k`]):
//! `k* = min( min_{i∉U} (1 − ρᵢ)/δ₋, min_{i∈U} (ρᵢ − 1)/δ₊ )`, the minimum over the sides whose
//! opposite fraction is positive; when `δ₋ = 0` (or `δ₊ = 0`) the condition asks `ρᵢ ≤ 1`
//! (`ρᵢ ≥ 1`) on that side, which is [`BiasConstant::feasible`].
//!
//! Exact values (derived by hand, confirmed exhaustively in `tests/mean_biased.rs`):
//! Mean-Thinning has `ρ = θ = δ₊` on `U`'s complement and `1 + θ` on `U`, so `k* = 1` whenever
//! both sides are non-empty; Twinning has `ρᵢ = wᵢ/(1 + δ₋)`, so
//! `k* = (1 − 1/(1+δ₋))/δ₋ = 1/(1 + δ₋) ∈ [1/2, 1]` (and the same on `U`:
//! `(2/(1+δ₋) − 1)/δ₊ = 1/(1+δ₋)`). Relative-Threshold(f) with `f > 0` gives an overloaded bin with
//! `0 ≤ y ≤ f` the share `1 + θ_f > 1`, so `k* < 0` at such states: the reconstructed condition
//! fails there.
//!
//! The list of checkable items of paper B is in `docs/mean-biased-checks.md`.
//!
//! ```
//! use balloc::{bias, loads::{Boundary, Loads}, process};
//! use balloc::exact::Q;
//! let x = Loads::new(vec![0.0, 0.0, 3.0]).unwrap(); // y = (−1, −1, 2): δ₋ = 2/3
//! let tw = process::parse("twinning").unwrap();
//! let b = bias::best_bias(tw.as_ref(), &x, Boundary::Over).unwrap();
//! // k* = 1/(1 + δ₋) = 3/5
//! assert_eq!(b.k, Some(Q::new(3.into(), 5.into())));
//! assert!(bias::weight_bias(tw.as_ref(), &x, Boundary::Over, &Q::new(1.into(), 2.into())).unwrap());
//! ```

pub mod drift;
pub mod identity;
pub mod outcome;

use crate::error::{Error, Result};
use crate::exact::Q;
use crate::loads::{Boundary, Loads, TieRule};
use crate::process::{ExactStepLaw, Process};
use num_traits::{One, Zero};

/// `a/b` as an exact rational.
pub(crate) fn ratio(a: i64, b: i64) -> Q {
    Q::new(a.into(), b.into())
}

/// The two sides of the mean at a load vector: which bins are underloaded and `δ₋`.
///
/// ```
/// use balloc::{bias::Sides, loads::{Boundary, Loads}};
/// use balloc::exact::Q;
/// let x = Loads::new(vec![0.0, 1.0, 2.0]).unwrap(); // y = (−1, 0, 1)
/// assert_eq!(Sides::new(&x, Boundary::Over).delta_minus, Q::new(1.into(), 3.into()));
/// assert_eq!(Sides::new(&x, Boundary::Under).delta_minus, Q::new(2.into(), 3.into()));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Sides {
    /// `under[i]`: whether bin `i` is underloaded.
    pub under: Vec<bool>,
    /// `δ₋ = |U|/n`, the fraction of underloaded bins.
    pub delta_minus: Q,
    /// The convention at `y = 0`.
    pub boundary: Boundary,
}

impl Sides {
    /// The sides at a load vector (exactly: `y` is computed in rationals).
    pub fn new(loads: &Loads, boundary: Boundary) -> Sides {
        Sides::from_y(&loads.normalized_exact(), boundary)
    }

    /// The sides for exact normalised loads `y`.
    pub fn from_y(y: &[Q], boundary: Boundary) -> Sides {
        let zero = Q::zero();
        let under: Vec<bool> = y.iter().map(|v| boundary.is_under_ord(v, &zero)).collect();
        let count = under.iter().filter(|u| **u).count();
        Sides {
            delta_minus: ratio(count as i64, y.len() as i64),
            under,
            boundary,
        }
    }

    /// The number of bins.
    pub fn n(&self) -> usize {
        self.under.len()
    }

    /// `δ₊ = 1 − δ₋`, the mean quantile δᵗ of paper B (fraction of overloaded bins).
    pub fn delta_plus(&self) -> Q {
        Q::one() - &self.delta_minus
    }
}

/// The largest constant of the reconstructed mean-bias condition at one state.
#[derive(Debug, Clone, PartialEq)]
pub struct BiasConstant {
    /// The sides used.
    pub sides: Sides,
    /// `ρᵢ = n·aᵢ/E`, each bin's expected number of balls relative to the uniform share.
    pub shares: Vec<Q>,
    /// Whether the process allocates exactly one ball per step (probability-bias shape).
    pub unit: bool,
    /// Whether every bin is sampled with probability exactly `1/n` (weight-bias shape).
    pub uniform: bool,
    /// Whether the side constraints for an empty opposite side hold (`ρᵢ ≤ 1` on the overloaded
    /// side when `δ₋ = 0`, `ρᵢ ≥ 1` on the underloaded side when `δ₊ = 0`).
    pub feasible: bool,
    /// `k*`, the largest `k` with `MB(k)`; `None` when no bin constrains `k` (one side empty).
    pub k: Option<Q>,
    /// The bin attaining `k*` (or breaking feasibility).
    pub witness: Option<usize>,
}

impl BiasConstant {
    /// Whether `MB(k)` holds.
    pub fn holds(&self, k: &Q) -> bool {
        self.feasible && self.k.as_ref().is_none_or(|best| k <= best)
    }
}

/// `k*` and the shares for an exact step law at the given sides.
///
/// ```
/// use balloc::bias::{bias_constant, Sides};
/// use balloc::loads::{Boundary, Loads, TieRule};
/// use balloc::exact::Q;
/// let x = Loads::new(vec![0.0, 2.0]).unwrap();
/// let p = balloc::process::parse("one-choice").unwrap();
/// let law = p.step_law_exact(&x, TieRule::Random).unwrap().unwrap();
/// // One-Choice: ρ ≡ 1, so k* = 0: no bias.
/// let b = bias_constant(&law, Sides::new(&x, Boundary::Over));
/// assert_eq!(b.k, Some(Q::from_integer(0.into())));
/// ```
pub fn bias_constant(law: &ExactStepLaw, sides: Sides) -> BiasConstant {
    let n = law.n;
    let nn = Q::from_integer(n.into());
    let a = law.per_bin_expected_balls();
    let e: Q = a.iter().sum();
    let shares: Vec<Q> = a.iter().map(|ai| &nn * ai / &e).collect();
    let unit = law.is_unit();
    let inv_n = ratio(1, n as i64);
    let uniform = law.per_bin_probability().iter().all(|p| *p == inv_n);
    let one = Q::one();
    let (dm, dp) = (sides.delta_minus.clone(), sides.delta_plus());
    let mut feasible = true;
    let mut best: Option<(Q, usize)> = None;
    let mut bad: Option<usize> = None;
    for (i, rho) in shares.iter().enumerate() {
        let (slack, frac) = if sides.under[i] {
            (rho - &one, &dp)
        } else {
            (&one - rho, &dm)
        };
        if frac.is_zero() {
            if slack < Q::zero() && feasible {
                feasible = false;
                bad = Some(i);
            }
            continue;
        }
        let k = slack / frac;
        if best.as_ref().is_none_or(|(b, _)| k < *b) {
            best = Some((k, i));
        }
    }
    let witness = bad.or(best.as_ref().map(|b| b.1));
    BiasConstant {
        sides,
        shares,
        unit,
        uniform,
        feasible,
        k: best.map(|b| b.0),
        witness,
    }
}

fn exact_law(process: &dyn Process, loads: &Loads) -> Result<ExactStepLaw> {
    process
        .step_law_exact(loads, TieRule::Random)?
        .ok_or_else(|| {
            Error::Unsupported(format!(
                "{} has no exact step law; the mean-bias conditions need one",
                process.spec()
            ))
        })
}

/// `k*` of the reconstructed mean-bias condition for `process` at `loads` (random ties), with the
/// condition's own convention `boundary` at `y = 0`.
pub fn best_bias(process: &dyn Process, loads: &Loads, boundary: Boundary) -> Result<BiasConstant> {
    let law = exact_law(process, loads)?;
    Ok(bias_constant(&law, Sides::new(loads, boundary)))
}

fn check_k(k: &Q) -> Result<()> {
    if *k <= Q::zero() {
        return Err(Error::invalid("k", format!("must be > 0, got {k}")));
    }
    Ok(())
}

/// The probability-bias condition (reconstructed, `docs/derivations.md` §5.2): the process allocates one ball per
/// step and `MB(k)` holds. An error when the process allocates several balls in some outcome.
///
/// ```
/// use balloc::{bias, loads::{Boundary, Loads}, process};
/// use balloc::exact::Q;
/// let mt = process::parse("mean-thinning").unwrap();
/// let x = Loads::new(vec![0.0, 1.0, 5.0]).unwrap();
/// let one = Q::from_integer(1.into());
/// assert!(bias::probability_bias(mt.as_ref(), &x, Boundary::Over, &one).unwrap()); // k* = 1
/// assert!(bias::probability_bias(process::parse("twinning").unwrap().as_ref(), &x, Boundary::Over, &one).is_err());
/// ```
pub fn probability_bias(
    process: &dyn Process,
    loads: &Loads,
    boundary: Boundary,
    k: &Q,
) -> Result<bool> {
    check_k(k)?;
    let b = best_bias(process, loads, boundary)?;
    if !b.unit {
        return Err(Error::invalid(
            "process",
            format!(
                "{} allocates more than one ball in some outcome; probability bias is defined for one ball per step",
                process.spec()
            ),
        ));
    }
    Ok(b.holds(k))
}

/// The weight-bias condition (reconstructed, `docs/derivations.md` §5.2): every bin is sampled with probability
/// `1/n` and `MB(k)` holds for the expected numbers of balls. An error when the sampling is not
/// uniform.
pub fn weight_bias(
    process: &dyn Process,
    loads: &Loads,
    boundary: Boundary,
    k: &Q,
) -> Result<bool> {
    check_k(k)?;
    let b = best_bias(process, loads, boundary)?;
    if !b.uniform {
        return Err(Error::invalid(
            "process",
            format!(
                "{} does not sample every bin with probability 1/n; weight bias is defined for uniform sampling",
                process.spec()
            ),
        ));
    }
    Ok(b.holds(k))
}
