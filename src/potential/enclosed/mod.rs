//! Trust level `enclosure` for the exponential potentials: `Φ`, `Ψ`, `Γ` at a state
//! ([`exponential::value`]) and their expectations after one step or one batch
//! ([`exponential::enclose`]) for any exact step law (rank-based processes with ties applied, or
//! an explicit law with ball counts), with unit, finite rational, exponential or geometric
//! weights (their MGFs, [`crate::enclosure::mgf`]); paper B's `Λ = Σ e^{α|yᵢ|}` (and the recovery
//! potential of the same shape) with its one-step expectation ([`lambda`]). Every number is an
//! outward-rounded [`crate::enclosure::Interval`].
//!
//! ```
//! use balloc::enclosure::{decide, Decision};
//! use balloc::potential::enclosed::{exponential, ExpSpec};
//! use balloc::setting::ExactSetting;
//! use balloc::process::ExactStepLaw;
//! use balloc::{loads::{Loads, TieRule}, process};
//! // Two-Choice at x = 0 (n = 8), Γ with α = 1/2: Γ = 16 and E[Γ'] > Γ (Γ grows at balance).
//! let x = Loads::zeros(8).unwrap();
//! let law = ExactStepLaw::from_process(process::parse("two-choice").unwrap().as_ref(), &x, TieRule::Random).unwrap();
//! let e = exponential::enclose(&law, &ExpSpec::parse("gamma(0.5)").unwrap(),
//!                             &x.exact(), &ExactSetting::sequential(), 64).unwrap();
//! assert_eq!(decide(&e.expected_next, &e.value), Decision::Greater);
//! assert!(e.value.contains_f64(16.0));
//! ```

pub mod exponential;
pub mod lambda;

pub use exponential::{Enclosed, ExpSpec};
