//! Trust level **`enclosure`**: directed-rounding interval enclosures of the exponential
//! potentials and of their exact expectations, and certified comparisons.
//!
//! docs/conventions.md §3 names four trust levels; this is the second strongest, for quantities that are not
//! rational (`e^{α y}`). Every enclosed number is an [`Interval`] `[lo, hi]` of malachite binary
//! floats, rounded outward at every operation, with correctly rounded `exp` (malachite's
//! `exp_rational_prec_round` with `Floor`/`Ceiling`), so the true value is inside. A comparison
//! is decided ([`decide`]) only when the enclosures of both sides are disjoint; otherwise the
//! precision is raised ([`decide_escalating`], 64, 128, ..., 4096 bits by default) and the result
//! is `Undecided` at the limit. Exponents up to about `e^{7.4·10⁸}` are represented directly
//! (malachite floats have 30-bit exponents), so `Φ` at huge loads does not overflow.
//!
//! Covered: `Φ`, `Ψ`, `Γ` at a state ([`exponential::value`]) and their expectations after one
//! step or one batch ([`exponential::enclose`]) for any exact step law (rank-based processes
//! with ties applied, or an explicit law with ball counts), with unit, finite rational,
//! exponential or geometric weights (their MGFs are rational functions of `eˢ` or `s`, [`mgf`]).
//! Also: the rank-weighted group potentials of the multidimensional paper and their one-step
//! expectations on the sum-load chain ([`group`]), and paper B's `Λ = Σ e^{α|yᵢ|}` (and the
//! recovery potential of the same shape) with its one-step expectation ([`lambda`]).
//!
//! ```
//! use balloc::enclosure::{self, decide, Decision, ExpSpec, Interval};
//! use balloc::exact::{self, ExactSetting, ExactStepLaw};
//! use balloc::{loads::{Loads, TieRule}, process};
//! // Two-Choice at x = 0 (n = 8), Γ with α = 1/2: Γ = 16 and E[Γ'] > Γ (Γ grows at balance).
//! let x = Loads::zeros(8).unwrap();
//! let law = ExactStepLaw::from_process(process::parse("two-choice").unwrap().as_ref(), &x, TieRule::Random).unwrap();
//! let e = enclosure::exponential::enclose(&law, &ExpSpec::parse("gamma(0.5)").unwrap(),
//!                                         &exact::loads(&x).unwrap(), &ExactSetting::sequential(), 64).unwrap();
//! assert_eq!(decide(&e.expected_next, &e.value), Decision::Greater);
//! assert!(e.value.contains_f64(16.0));
//! ```

mod decide;
mod exp_cache;
pub mod exponential;
mod interval;
pub mod interval64;
pub mod lambda;
pub mod mgf;

pub use decide::{Decided, Decision, Precisions, decide, decide_escalating, decide_f64};
pub use exp_cache::ExpCache;
pub use exponential::{Enclosed, ExpSpec};
pub use interval::{Interval, sci, to_malachite};
pub use interval64::Interval64;
