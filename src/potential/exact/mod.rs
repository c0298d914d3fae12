//! Exact expectations of the potentials that are rational: the quadratic potential
//! `Υ = Σ yᵢ²` and the absolute-value potential `Δ = Σ |yᵢ|` after one step and one batch
//! ([`quadratic`], [`absolute`]), by the same closed forms as the `f64` code of
//! [`crate::potential::Quadratic`] and [`crate::potential::Absolute`] (docs/derivations.md §4), and
//! an independent brute-force enumerator over every outcome ([`enumerate::brute_force`]), all in
//! the rationals of [`crate::exact`], over an exact step law
//! ([`crate::process::ExactStepLaw`]: the tie rule applied, docs/conventions.md §1) and an exact
//! setting ([`crate::setting::ExactSetting`]: the batch and a rational weight law).
//!
//! ```
//! use balloc::loads::{Loads, TieRule};
//! use balloc::potential::exact::quadratic;
//! use balloc::{exact::Q, process::{self, ExactStepLaw}, setting::ExactSetting};
//! // Two-Choice, n = 2, x = (1, 0): p = (1/4, 3/4) by rank; Υ' is 2 (heavy bin, prob. 1/4) or
//! // 0 (light bin, prob. 3/4), so E[Υ'] = 1/2 exactly.
//! let x = Loads::new(vec![1.0, 0.0]).unwrap();
//! let law = ExactStepLaw::from_process(process::parse("two-choice").unwrap().as_ref(),
//!                                      &x, TieRule::Random).unwrap();
//! let e = quadratic::expected_next(&law, &x.exact(), &ExactSetting::sequential()).unwrap();
//! assert_eq!(e, Q::new(1.into(), 2.into()));
//! ```

pub mod absolute;
pub mod enumerate;
pub mod quadratic;
