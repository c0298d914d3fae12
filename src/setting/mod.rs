//! Settings: how one step happens. A [`Setting`] fixes the batch size `b` (b balls decided on the
//! load vector at the start of the batch; `b = 1` is the sequential setting), the weight law of
//! the balls and the tie rule.
//!
//! Reference: Los–Sauerwald, *Balanced Allocations in Batches* (SPAA 2022), §1–§2 (b-batched
//! setting of Berenbrink et al., weighted balls).

use crate::error::{Error, Result};
use crate::loads::TieRule;
use crate::weights::{ExactWeights, WeightLaw};

/// The setting of one step: batch size, weights, ties.
///
/// ```
/// use balloc::setting::Setting;
/// let s = Setting::sequential();
/// assert_eq!(s.batch, 1);
/// assert!(Setting::new(0, balloc::weights::WeightLaw::Unit, Default::default()).is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Setting {
    /// The batch size `b ≥ 1` (1 = sequential).
    pub batch: u64,
    /// The law of the ball weights.
    pub weights: WeightLaw,
    /// How ties are broken when a rank-indexed vector is applied.
    pub ties: TieRule,
}

impl Setting {
    /// A validated setting (`batch ≥ 1`).
    pub fn new(batch: u64, weights: WeightLaw, ties: TieRule) -> Result<Setting> {
        if batch == 0 {
            return Err(Error::invalid("batch", "must be at least 1, got 0"));
        }
        Ok(Setting {
            batch,
            weights,
            ties,
        })
    }

    /// Sequential, unit weights, random ties.
    pub fn sequential() -> Setting {
        Setting {
            batch: 1,
            weights: WeightLaw::Unit,
            ties: TieRule::Random,
        }
    }

    /// A `b`-batched setting with unit weights and random ties.
    /// ```
    /// assert_eq!(balloc::setting::Setting::batched(3).unwrap().batch, 3);
    /// assert!(balloc::setting::Setting::batched(0).is_err());
    /// ```
    pub fn batched(b: u64) -> Result<Setting> {
        Setting::new(b, WeightLaw::Unit, TieRule::Random)
    }
}

/// The setting of an exact evaluation: batch size `b ≥ 1` and a rational weight law. (The tie
/// rule is already applied in the [`crate::process::ExactStepLaw`].)
#[derive(Debug, Clone, PartialEq)]
pub struct ExactSetting {
    /// The batch size (1 = sequential).
    pub batch: u64,
    /// The weight law.
    pub weights: ExactWeights,
}

impl ExactSetting {
    /// A validated setting.
    ///
    /// ```
    /// use balloc::{setting::ExactSetting, weights::ExactWeights};
    /// assert!(ExactSetting::new(0, ExactWeights::Unit).is_err());
    /// assert_eq!(ExactSetting::new(4, ExactWeights::Unit).unwrap().batch, 4);
    /// ```
    pub fn new(batch: u64, weights: ExactWeights) -> Result<ExactSetting> {
        if batch == 0 {
            return Err(Error::invalid("batch", "must be at least 1, got 0"));
        }
        Ok(ExactSetting { batch, weights })
    }

    /// One unit ball.
    pub fn sequential() -> ExactSetting {
        ExactSetting {
            batch: 1,
            weights: ExactWeights::Unit,
        }
    }

    /// The exact counterpart of a float [`Setting`] (weights via
    /// [`ExactWeights::from_law`]; the tie rule belongs to the step law).
    ///
    /// ```
    /// use balloc::setting::{ExactSetting, Setting};
    /// let s = ExactSetting::from_setting(&Setting::batched(3).unwrap()).unwrap();
    /// assert_eq!(s.batch, 3);
    /// ```
    pub fn from_setting(s: &Setting) -> Result<ExactSetting> {
        ExactSetting::new(s.batch, ExactWeights::from_law(&s.weights)?)
    }
}
