//! The trust levels of a verdict: how a number was obtained (exact rationals, enclosures with
//! outward rounding, floating point, Monte Carlo). Each number domain of the claim language has
//! one ([`crate::lang::Domain::trust`]); the policy that maps evidence to a verdict and its level
//! is [`crate::claim::trust`].

use serde::Serialize;

/// How far a verdict can be trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Trust {
    /// Exact rational arithmetic.
    Exact,
    /// Directed-rounding enclosures (malachite floats rounded outward, `crate::enclosure`).
    Enclosure,
    /// Floating point (53-bit mantissa, extended exponent) with an error estimate.
    Float,
    /// Monte Carlo with a confidence level.
    Statistical,
}

impl Trust {
    /// How strong the trust is: exact 3 > enclosure 2 > float 1 > statistical 0.
    ///
    /// ```
    /// use balloc::trust::Trust;
    /// assert!(Trust::Exact.strength() > Trust::Enclosure.strength());
    /// assert_eq!(Trust::Float.strength(), 1);
    /// ```
    pub fn strength(self) -> u8 {
        match self {
            Trust::Exact => 3,
            Trust::Enclosure => 2,
            Trust::Float => 1,
            Trust::Statistical => 0,
        }
    }

    /// The weaker of two trusts ([`Trust::strength`]): the trust of a conclusion that rests on
    /// evidence of both.
    ///
    /// ```
    /// use balloc::trust::Trust;
    /// assert_eq!(Trust::Exact.weaker(Trust::Enclosure), Trust::Enclosure);
    /// assert_eq!(Trust::Float.weaker(Trust::Exact), Trust::Float);
    /// ```
    pub fn weaker(self, other: Trust) -> Trust {
        if other.strength() < self.strength() {
            other
        } else {
            self
        }
    }

    /// The lowercase name.
    ///
    /// ```
    /// assert_eq!(balloc::trust::Trust::Enclosure.name(), "enclosure");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Trust::Exact => "exact",
            Trust::Enclosure => "enclosure",
            Trust::Float => "float",
            Trust::Statistical => "statistical",
        }
    }
}
