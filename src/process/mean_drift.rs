//! Mean-Drift(δ): the process with a uniform drift δ toward the mean, the "first attempt" of
//! Bansal–Feldheim's graphical allocation (§1.2): every underloaded bin is chosen with
//! probability at least `(1 + δ)/n` and every overloaded bin with at most `(1 − δ)/n`.
//!
//! One step: sample a bin `i` uniformly; if it is underloaded the ball goes to `i`; otherwise,
//! with probability `r`, to a uniform underloaded bin, else to `i`. With `k₋` underloaded and
//! `k₊` overloaded bins, `r = min(1, δ·max(1, k₋/k₊))`, so that
//!
//! `qᵢ = (1 − r)/n` (overloaded), `qᵢ = (1 + r·k₊/k₋)/n` (underloaded).
//!
//! When `k₊ ≥ k₋` this gives `(1 − δ)/n` to the overloaded bins exactly and at least `(1 + δ)/n`
//! to the underloaded ones; when `k₋ > k₊` it gives `(1 + δ)/n` to the underloaded bins exactly
//! and at most `(1 − δ)/n` to the others. Both bounds together need `k₋(1 + δ) ≤ n` (the
//! underloaded bins' mass is at most 1): where that fails (few overloaded bins) every ball goes to
//! an underloaded bin (`r = 1`), the most drift the state allows, and the underloaded bounds hold
//! with `1/k₋ < (1 + δ)/n` only. With no underloaded bin (equal loads) the step is uniform.
//! Reference: Bansal–Feldheim, *The power of two choices in graphical allocation*
//! (arXiv:2106.06051), §1.2 (the first attempt: "drift ≥ δd, resp. ≤ −δd").

use super::{Param, Process, ProcessInfo, StepLaw, uniform_rank};
use crate::error::{Error, Result};
use crate::exact::Q;
use crate::loads::{Boundary, Loads, Ranking, TieRule};
use crate::spec::Spec;
use num_traits::{One, ToPrimitive, Zero};
use rand::{Rng, RngExt};

/// Mean-Drift(δ) with a boundary rule for `y = 0`.
///
/// ```
/// use balloc::loads::{Loads, TieRule};
/// let p = balloc::process::parse("mean-drift(delta=0.5)").unwrap();
/// // Mean 1, y = (−1, 0, 1, 0): one underloaded bin, three overloaded (y = 0 counts as over);
/// // r = min(1, δ) = 1/2: q = (1 + 3/2, 1/2, 1/2, 1/2)/4 = (5/8, 1/8, 1/8, 1/8).
/// let x = Loads::new(vec![0.0, 1.0, 2.0, 1.0]).unwrap();
/// let q = p.step_law(&x, TieRule::Random).unwrap().per_bin_probability();
/// assert_eq!(q, vec![0.625, 0.125, 0.125, 0.125]);
/// ```
#[derive(Debug, Clone)]
pub struct MeanDrift {
    delta: f64,
    delta_exact: Q,
    boundary: Boundary,
}

pub(super) static INFO: ProcessInfo = ProcessInfo {
    name: "mean-drift",
    aliases: &["first-attempt"],
    params: &[
        Param {
            name: "delta",
            default: Some("0.5"),
            doc: "the drift δ ∈ (0, 1]: underloaded bins get ≥ (1+δ)/n, overloaded ≤ (1−δ)/n",
        },
        Param {
            name: "boundary",
            default: Some("over"),
            doc: "y = 0 counts as over (default) or under",
        },
    ],
    summary: "uniform drift δ toward the mean: q_i ≥ (1+δ)/n if y_i < 0, ≤ (1−δ)/n otherwise (where k₋(1+δ) ≤ n)",
    reference: "Bansal–Feldheim, graphical allocation (arXiv:2106.06051), §1.2, the first attempt",
    rank_based: false,
    monotone: true,
    example: "mean-drift(delta=0.25)",
    build,
};

fn build(spec: &Spec, _files: &dyn crate::graph::family::GraphFiles) -> Result<Box<dyn Process>> {
    let (_, delta) = spec.get_ratio("delta", "0.5")?;
    let boundary = Boundary::parse(&spec.get_choice("boundary", &["over", "under"], "over")?)?;
    Ok(Box::new(MeanDrift::new(delta, boundary)?))
}

impl MeanDrift {
    /// Mean-Drift with drift `δ ∈ (0, 1]` (exact).
    ///
    /// ```
    /// use balloc::exact::Q;
    /// use balloc::process::{MeanDrift, Process};
    /// let p = MeanDrift::new(Q::new(1.into(), 4.into()), Default::default()).unwrap();
    /// assert_eq!(p.spec(), "mean-drift(delta=0.25,boundary=over)");
    /// assert!(MeanDrift::new(Q::new(3.into(), 2.into()), Default::default()).is_err());
    /// ```
    pub fn new(delta: Q, boundary: Boundary) -> Result<MeanDrift> {
        if !(delta > Q::zero() && delta <= Q::one()) {
            return Err(Error::invalid(
                "parameter `delta` of `mean-drift`",
                format!("must lie in (0, 1], got {delta}"),
            ));
        }
        Ok(MeanDrift {
            delta: delta.to_f64().unwrap_or(f64::NAN),
            delta_exact: delta,
            boundary,
        })
    }

    /// Which bins are underloaded (`n·xᵢ − W` below 0 under the boundary rule; exact for
    /// integer loads).
    fn under(&self, loads: &Loads) -> Vec<bool> {
        let n = loads.n() as f64;
        let w = loads.total();
        loads
            .as_slice()
            .iter()
            .map(|&x| self.boundary.is_under(n * x - w, 0.0))
            .collect()
    }

    /// The redirect probability `r = min(1, δ·max(1, k₋/k₊))` for `k₋, k₊ ≥ 1`.
    fn redirect(&self, k_under: usize, k_over: usize) -> f64 {
        (self.delta * (k_under as f64 / k_over as f64).max(1.0)).min(1.0)
    }

    /// [`MeanDrift::redirect`] in exact rationals.
    fn redirect_exact(&self, k_under: usize, k_over: usize) -> Q {
        let ratio = Q::new((k_under as i64).into(), (k_over as i64).into());
        let r = &self.delta_exact * if ratio > Q::one() { ratio } else { Q::one() };
        if r > Q::one() { Q::one() } else { r }
    }
}

impl Process for MeanDrift {
    fn info(&self) -> &'static ProcessInfo {
        &INFO
    }
    fn spec(&self) -> String {
        format!(
            "mean-drift(delta={},boundary={})",
            super::ratio_text(&self.delta_exact),
            self.boundary.name()
        )
    }
    fn step_law(&self, loads: &Loads, _ties: TieRule) -> Result<StepLaw> {
        let under = self.under(loads);
        let n = under.len();
        let ku = under.iter().filter(|u| **u).count();
        if ku == 0 || ku == n {
            return Ok(StepLaw::unit(vec![1.0 / n as f64; n]));
        }
        let ko = n - ku;
        let r = self.redirect(ku, ko);
        let nf = n as f64;
        let (qu, qo) = ((1.0 + r * ko as f64 / ku as f64) / nf, (1.0 - r) / nf);
        Ok(StepLaw::unit(
            under.iter().map(|&u| if u { qu } else { qo }).collect(),
        ))
    }
    fn step_law_exact(&self, loads: &Loads, _ties: TieRule) -> Result<Option<super::ExactStepLaw>> {
        let under = self.under(loads);
        let n = under.len();
        let ku = under.iter().filter(|u| **u).count();
        let nq = Q::from_integer((n as i64).into());
        if ku == 0 || ku == n {
            return Ok(Some(super::ExactStepLaw::unit(vec![Q::one() / nq; n])));
        }
        let ko = n - ku;
        let r = self.redirect_exact(ku, ko);
        let share = Q::new((ko as i64).into(), (ku as i64).into());
        let qu = (Q::one() + &r * share) / &nq;
        let qo = (Q::one() - r) / nq;
        Ok(Some(super::ExactStepLaw::unit(
            under
                .iter()
                .map(|&u| if u { qu.clone() } else { qo.clone() })
                .collect(),
        )))
    }
    fn sample(&self, loads: &Loads, _r: &Ranking, _t: TieRule, rng: &mut dyn Rng) -> (usize, u32) {
        let n = loads.n();
        let under = self.under(loads);
        let i = uniform_rank(n, rng);
        if under[i] {
            return (i, 1);
        }
        let ku = under.iter().filter(|u| **u).count();
        if ku == 0 || !rng.random_bool(self.redirect(ku, n - ku)) {
            return (i, 1);
        }
        // The `j`-th underloaded bin, `j` uniform.
        let j = uniform_rank(ku, rng);
        let bin = under
            .iter()
            .enumerate()
            .filter(|(_, u)| **u)
            .nth(j)
            .map_or(i, |(b, _)| b);
        (bin, 1)
    }
}
