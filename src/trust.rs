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
