//! The trust policy: one pure function from the evidence at a state (the float evaluation and
//! what the certified domains said) to a verdict and its trust level.
//!
//! | certified evaluation | float evaluation | verdict, trust |
//! |---|---|---|
//! | decided: holds / fails (exact rationals or exponential sums decided exactly) | any | holds / refuted, `exact` |
//! | decided by enclosures (or an exponential-sum sign needing them) | any | holds / refuted, `enclosure` |
//! | undecided, or no certified route | error bound known and margin beyond it | holds / refuted, `float` |
//! | undecided, or no certified route | holds with margin beyond the resolution | holds, `float` |
//! | undecided, or no certified route | fails, or margin within the resolution | inconclusive (`enclosure` if enclosures were tried, else `float`) |
//!
//! So a `refuted` verdict always rests on a certified evaluation, or on a float margin that a
//! rigorous error bound shows to be real; never on rounding alone.

use super::XFloat;
use super::verdict::{Status, Trust};

/// What the certified domains said at a state.
#[derive(Debug, Clone, PartialEq)]
pub enum Certification {
    /// Decided: whether the claim holds there, at which trust, with which enclosure precision.
    Decided {
        /// Whether the claim holds at the state.
        holds: bool,
        /// `Exact` or `Enclosure`.
        trust: Trust,
        /// The enclosure precision that decided it (None: exact).
        bits: Option<u64>,
        /// Both sides as the certified domain gave them.
        text: String,
    },
    /// Enclosures were evaluated but overlap up to the largest precision.
    Undecided {
        /// The largest precision tried.
        bits: u64,
        /// The last enclosures.
        text: String,
    },
    /// Some quantity has neither an exact value nor an enclosure at this state.
    NoRoute(String),
}

/// The evidence at one state.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    /// Whether the float evaluation says the claim holds.
    pub float_holds: bool,
    /// The absolute float slack `|slack|` (extended range: sides beyond `f64` are common).
    pub margin: XFloat,
    /// The numerical resolution of the float evaluation (tolerance + 10⁻¹¹ of the magnitudes of
    /// the terms).
    pub resolution: XFloat,
    /// A rigorous bound on the error of the float slack, when one is known.
    pub error_bound: Option<XFloat>,
    /// The certified evaluation.
    pub certified: Certification,
}

/// The verdict and trust the evidence supports (see the module table).
///
/// ```
/// use balloc::claim::trust::{decide, Certification, Evidence};
/// use balloc::claim::{Status, Trust, XFloat};
/// let undecided = Evidence { float_holds: false, margin: XFloat::from_f64(1e-18),
///     resolution: XFloat::from_f64(1e-11), error_bound: None,
///     certified: Certification::NoRoute("no enclosure".into()) };
/// // A float violation below the resolution without a certified route is never `refuted`.
/// assert_eq!(decide(&undecided), (Status::Inconclusive, Trust::Float));
/// ```
pub fn decide(e: &Evidence) -> (Status, Trust) {
    match &e.certified {
        Certification::Decided { holds, trust, .. } => (
            if *holds {
                Status::Holds
            } else {
                Status::Refuted
            },
            *trust,
        ),
        other => {
            let tried = match other {
                Certification::Undecided { .. } => Trust::Enclosure,
                _ => Trust::Float,
            };
            if let Some(b) = e.error_bound
                && e.margin > b
            {
                return (
                    if e.float_holds {
                        Status::Holds
                    } else {
                        Status::Refuted
                    },
                    Trust::Float,
                );
            }
            if e.float_holds && e.margin > e.resolution {
                (Status::Holds, Trust::Float)
            } else {
                (Status::Inconclusive, tried)
            }
        }
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    fn ev(float_holds: bool, margin: f64, bound: Option<f64>, c: Certification) -> Evidence {
        Evidence {
            float_holds,
            margin: XFloat::from_f64(margin),
            resolution: XFloat::from_f64(1e-9),
            error_bound: bound.map(XFloat::from_f64),
            certified: c,
        }
    }

    fn decided(holds: bool, trust: Trust) -> Certification {
        Certification::Decided {
            holds,
            trust,
            bits: None,
            text: String::new(),
        }
    }

    fn the_policy_table() {
        let und = Certification::Undecided {
            bits: 4096,
            text: String::new(),
        };
        let none = Certification::NoRoute(String::new());
        // (float holds, margin, error bound, certification) → (status, trust), row by row of the
        // module table.
        let rows: Vec<(Evidence, (Status, Trust))> = vec![
            // Certified decisions win whatever the float says.
            (
                ev(true, 1.0, None, decided(false, Trust::Exact)),
                (Status::Refuted, Trust::Exact),
            ),
            (
                ev(false, 1.0, None, decided(true, Trust::Exact)),
                (Status::Holds, Trust::Exact),
            ),
            (
                ev(false, 1e-20, None, decided(false, Trust::Enclosure)),
                (Status::Refuted, Trust::Enclosure),
            ),
            (
                ev(true, 1e-20, None, decided(true, Trust::Enclosure)),
                (Status::Holds, Trust::Enclosure),
            ),
            // No certification: a rigorous error bound makes the float margin real.
            (
                ev(false, 1e-6, Some(1e-8), none.clone()),
                (Status::Refuted, Trust::Float),
            ),
            (
                ev(true, 1e-6, Some(1e-8), none.clone()),
                (Status::Holds, Trust::Float),
            ),
            // ... but not a margin inside the bound.
            (
                ev(false, 1e-9, Some(1e-8), none.clone()),
                (Status::Inconclusive, Trust::Float),
            ),
            // Without a bound: a float violation is never refuted.
            (
                ev(false, 1.0, None, none.clone()),
                (Status::Inconclusive, Trust::Float),
            ),
            (
                ev(false, 1.0, None, und.clone()),
                (Status::Inconclusive, Trust::Enclosure),
            ),
            // A float `holds` beyond the resolution stays holds at float trust.
            (
                ev(true, 1e-3, None, none.clone()),
                (Status::Holds, Trust::Float),
            ),
            (
                ev(true, 1e-3, None, und.clone()),
                (Status::Holds, Trust::Float),
            ),
            // Within the resolution: inconclusive.
            (
                ev(true, 1e-12, None, none),
                (Status::Inconclusive, Trust::Float),
            ),
            (
                ev(true, 1e-12, None, und),
                (Status::Inconclusive, Trust::Enclosure),
            ),
        ];
        for (k, (e, want)) in rows.iter().enumerate() {
            assert_eq!(decide(e), *want, "row {k}: {e:?}");
        }
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[crate::unit::Test {
        name: "the_policy_table",
        run: the_policy_table,
        panics: None,
    }];
}
