//! Claim quantities of the mean-biased processes (Los–Sauerwald–Sylvester, *Mean-Biased
//! Processes for Balanced Allocations*, arXiv:2308.05087, "paper B"), evaluated exactly in
//! rationals by the functions of [`crate::bias`] at one load vector.
//!
//! The *sides* of a state are the underloaded set `U` and its complement `O`, with the process's
//! own convention at `y = 0`: the `boundary` parameter of `mean-thinning` and `twinning`
//! (`over`: `U = {y < 0}`; `under`: `U = {y ≤ 0}`), and `over` for every other process.
//!
//! | name | meaning | route |
//! |---|---|---|
//! | `delta_minus` | `δ₋ = |U|/n` (so `θ = δ₊ = 1 − δ₋`, the mean quantile) | [`crate::bias::Sides`] |
//! | `E_balls` | `E[W' − W | x]`, expected balls of one step | [`crate::bias::drift::expected_total_increase`] |
//! | `drift_sum_U`, `drift_sq_U` | `Σ_{i∈U} dᵢ`, `Σ_{i∈U} dᵢ²`, `dᵢ = E[yᵢ' − yᵢ | x]` (0 when `U = ∅`) | [`crate::bias::drift::per_bin_drift`] |
//! | `drift_sum_O`, `drift_sq_O` | the same over `O` | as above |
//! | `fig_mt_1`, `fig_mt_2`, `fig_mt_3` | Fig. 3.2 outcomes (i), (ii), (iii) of a thinning step with acceptance set `U`, enumerated over the `n²` sample pairs | [`crate::bias::outcome::thinning_outcomes`] |
//! | `samples_mt` | expected samples per ball of that step | as above |
//! | `fig_tw_1`, `fig_tw_2` | Fig. 3.1 outcomes (i) one ball to `O`, (ii) two balls to `U`, enumerated over the `n` samples | [`crate::bias::outcome::twinning_outcomes`] |
//! | `mb_prob`, `mb_weight` | margin of the reconstructed mean-bias condition `MB(k)` at the file's constant `k`: `min( min_{frac>0} (sᵢ − k·fracᵢ), min_{frac=0} sᵢ )` with `sᵢ = 1 − ρᵢ`, `fracᵢ = δ₋` on `O` and `sᵢ = ρᵢ − 1`, `fracᵢ = δ₊` on `U`; `MB(k)` holds iff the margin is ≥ 0. `mb_prob` is an error unless the process allocates one ball per step, `mb_weight` unless it samples uniformly | [`crate::bias::bias_constant`] |
//!
//! | `dE_Delta_rule` | `E[Δ' − Δ | x]` by the one-ball step rule of docs/derivations.md §4 (valid for `y ∈ ℤ/n`); an error for several balls per outcome | [`crate::bias::identity::expected_absolute_change`] |
//!
//! Sum-of-squares form of a per-bin statement: every `dᵢ` equals `c_U` on `U` and `c_O` on `O` iff
//! `Σ_U (dᵢ − c_U)² + Σ_O (dᵢ − c_O)² = drift_sq_U − 2c_U·drift_sum_U + |U|c_U² + (same for O) = 0`.

use crate::bias::{Sides, bias_constant, drift, outcome};
use crate::error::{Error, Result};
use crate::exact::Q;
use crate::loads::{Boundary, Loads, TieRule};
use crate::process::{ExactStepLaw, Process};
use num_traits::{One, Zero};

/// A mean-bias quantity (see the module table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BiasQ {
    /// `δ₋`.
    DeltaMinus,
    /// `E[W' − W]`.
    Balls,
    /// `Σ_U dᵢ`.
    DriftSumU,
    /// `Σ_U dᵢ²`.
    DriftSqU,
    /// `Σ_O dᵢ`.
    DriftSumO,
    /// `Σ_O dᵢ²`.
    DriftSqO,
    /// Fig. 3.2 (i), (ii), (iii): index 0, 1, 2.
    FigMt(u8),
    /// Expected samples per ball of the thinning step.
    SamplesMt,
    /// Fig. 3.1 (i), (ii): index 0, 1.
    FigTw(u8),
    /// Margin of `MB(k)`, probability-bias shape.
    MbProb,
    /// Margin of `MB(k)`, weight-bias shape.
    MbWeight,
    /// `E[Δ' − Δ]` by the step rule of docs/derivations.md §4 (one ball per step).
    AbsRule,
}

/// Every mean-bias quantity with its name in expressions.
pub const NAMES: [(BiasQ, &str); 15] = [
    (BiasQ::DeltaMinus, "delta_minus"),
    (BiasQ::Balls, "E_balls"),
    (BiasQ::DriftSumU, "drift_sum_U"),
    (BiasQ::DriftSqU, "drift_sq_U"),
    (BiasQ::DriftSumO, "drift_sum_O"),
    (BiasQ::DriftSqO, "drift_sq_O"),
    (BiasQ::FigMt(0), "fig_mt_1"),
    (BiasQ::FigMt(1), "fig_mt_2"),
    (BiasQ::FigMt(2), "fig_mt_3"),
    (BiasQ::SamplesMt, "samples_mt"),
    (BiasQ::FigTw(0), "fig_tw_1"),
    (BiasQ::FigTw(1), "fig_tw_2"),
    (BiasQ::MbProb, "mb_prob"),
    (BiasQ::MbWeight, "mb_weight"),
    (BiasQ::AbsRule, "dE_Delta_rule"),
];

/// The quantity called `name`.
///
/// ```
/// use balloc::claim::mean_bias::{lookup, BiasQ};
/// assert_eq!(lookup("fig_mt_3"), Some(BiasQ::FigMt(2)));
/// assert_eq!(lookup("theta"), None);
/// ```
pub fn lookup(name: &str) -> Option<BiasQ> {
    NAMES.iter().find(|(_, s)| *s == name).map(|(q, _)| *q)
}

impl BiasQ {
    /// Whether the quantity needs the constant `k`.
    pub fn needs_k(self) -> bool {
        matches!(self, BiasQ::MbProb | BiasQ::MbWeight)
    }
}

/// The process's convention at `y = 0` for the sides (module doc).
pub fn boundary_of(process: &dyn Process) -> Boundary {
    let spec = process.spec();
    let named = spec.starts_with("mean-thinning") || spec.starts_with("twinning");
    if named && spec.contains("boundary=under") {
        Boundary::Under
    } else {
        Boundary::Over
    }
}

/// The exact step law and sides at one state, computed once and shared by all quantities.
pub struct BiasState {
    law: ExactStepLaw,
    sides: Sides,
    y: Vec<Q>,
}

impl BiasState {
    /// The exact step law of `process` at `loads` (unit weights, one step) and its sides.
    pub fn new(process: &dyn Process, loads: &Loads, ties: TieRule) -> Result<BiasState> {
        let law = process.step_law_exact(loads, ties)?.ok_or_else(|| {
            Error::Unsupported(format!(
                "{} has no exact step law; the mean-bias quantities need one",
                process.spec()
            ))
        })?;
        let y = loads.normalized_exact();
        let sides = Sides::from_y(&y, boundary_of(process));
        Ok(BiasState { law, sides, y })
    }

    /// The exact step law.
    pub fn law(&self) -> &ExactStepLaw {
        &self.law
    }

    /// The value of `q` (`k`: the file's constant `k`, needed by `mb_prob`/`mb_weight`).
    pub fn value(&self, q: BiasQ, k: Option<&Q>) -> Result<Q> {
        let s = &self.sides;
        let zero = Q::zero();
        let side_sum = |under: bool, sq: bool| -> Q {
            drift::per_bin_drift(&self.law)
                .into_iter()
                .zip(&s.under)
                .filter(|(_, u)| **u == under)
                .map(|(d, _)| if sq { &d * &d } else { d })
                .fold(zero.clone(), |a, b| a + b)
        };
        Ok(match q {
            BiasQ::DeltaMinus => s.delta_minus.clone(),
            BiasQ::AbsRule => crate::bias::identity::expected_absolute_change(&self.law, &self.y)?,
            BiasQ::Balls => drift::expected_total_increase(&self.law),
            BiasQ::DriftSumU => side_sum(true, false),
            BiasQ::DriftSqU => side_sum(true, true),
            BiasQ::DriftSumO => side_sum(false, false),
            BiasQ::DriftSqO => side_sum(false, true),
            BiasQ::FigMt(i) => {
                let o = outcome::thinning_outcomes(&s.under, &s.under);
                [o.first, o.second_under, o.second_over][i as usize].clone()
            }
            BiasQ::SamplesMt => outcome::thinning_outcomes(&s.under, &s.under).samples,
            BiasQ::FigTw(i) => outcome::twinning_outcomes(&s.under).0[i as usize].clone(),
            BiasQ::MbProb | BiasQ::MbWeight => {
                let k = k.ok_or_else(|| {
                    Error::invalid("constants", "mb_prob/mb_weight need the constant `k`")
                })?;
                let b = bias_constant(&self.law, s.clone());
                if q == BiasQ::MbProb && !b.unit {
                    return Err(Error::invalid(
                        "mb_prob",
                        "the process allocates more than one ball in some outcome; probability bias is for one ball per step",
                    ));
                }
                if q == BiasQ::MbWeight && !b.uniform {
                    return Err(Error::invalid(
                        "mb_weight",
                        "the process does not sample every bin with probability 1/n; weight bias is for uniform sampling",
                    ));
                }
                margin(&b.shares, s, k)
            }
        })
    }
}

/// `min( min_{frac>0} (sᵢ − k·fracᵢ), min_{frac=0} sᵢ )` (module doc): `MB(k)` holds iff ≥ 0.
fn margin(shares: &[Q], s: &Sides, k: &Q) -> Q {
    let one = Q::one();
    let (dm, dp) = (s.delta_minus.clone(), s.delta_plus());
    shares
        .iter()
        .zip(&s.under)
        .map(|(rho, &u)| {
            let (slack, frac) = if u {
                (rho - &one, &dp)
            } else {
                (&one - rho, &dm)
            };
            slack - k * frac
        })
        .min()
        .expect("at least one bin")
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    fn q(a: i64, b: i64) -> Q {
        Q::new(a.into(), b.into())
    }

    fn margin_agrees_with_best_bias() {
        // Relative-Threshold(f=1) at x = (0, 2, 4): k* = −1 (tests/mean_biased.rs, by hand);
        // so MB(k) fails for every k > 0 and the margin at k is −1·δ₋ − k·δ₋ < 0 at bin 1:
        // ρ₁ = 4/3, s₁ = −1/3, δ₋ = 1/3: margin(k = 1/10) = −1/3 − 1/30 = −11/30.
        let p = crate::process::parse("relative-threshold(f=1)").unwrap();
        let x = Loads::new(vec![0.0, 2.0, 4.0]).unwrap();
        let st = BiasState::new(p.as_ref(), &x, TieRule::Random).unwrap();
        assert_eq!(
            st.value(BiasQ::MbProb, Some(&q(1, 10))).unwrap(),
            q(-11, 30)
        );
        // Mean-Thinning: k* = 1, so the margin at k = 1 is 0 and at k = 1/2 positive.
        let mt = crate::process::parse("mean-thinning").unwrap();
        let st = BiasState::new(mt.as_ref(), &x, TieRule::Random).unwrap();
        assert_eq!(st.value(BiasQ::MbProb, Some(&q(1, 1))).unwrap(), q(0, 1));
        assert!(st.value(BiasQ::MbWeight, Some(&q(1, 1))).is_err());
    }

    fn drift_sums_match_the_formula() {
        // Twinning at x = (0, 2): y = (−1, 1), δ₋ = 1/2: d = (1/4, −1/4) (drift.rs doc test).
        let tw = crate::process::parse("twinning").unwrap();
        let x = Loads::new(vec![0.0, 2.0]).unwrap();
        let st = BiasState::new(tw.as_ref(), &x, TieRule::Random).unwrap();
        assert_eq!(st.value(BiasQ::DriftSumU, None).unwrap(), q(1, 4));
        assert_eq!(st.value(BiasQ::DriftSqO, None).unwrap(), q(1, 16));
        assert_eq!(st.value(BiasQ::Balls, None).unwrap(), q(3, 2));
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "margin_agrees_with_best_bias",
            run: margin_agrees_with_best_bias,
            panics: None,
        },
        crate::unit::Test {
            name: "drift_sums_match_the_formula",
            run: drift_sums_match_the_formula,
            panics: None,
        },
    ];
}
