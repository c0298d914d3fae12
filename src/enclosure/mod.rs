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
//! What is enclosed lives with its object: the exponential potentials and their expectations in
//! [`crate::potential::enclosed`], the group potentials of the multidimensional paper in
//! `crate::multidim`; here are the numbers ([`Interval`], [`Interval64`]), the weight MGFs
//! ([`mgf`]) and the certified comparisons.
//!
//! ```
//! use balloc::enclosure::{decide, Decision, Interval};
//! // e = 2.71828… is enclosed at 64 bits tightly enough to compare as greater than 2.718.
//! let e = Interval::from_f64(1.0).unwrap().exp(64).unwrap();
//! assert_eq!(decide(&e, &Interval::from_f64(2.718).unwrap()), Decision::Greater);
//! ```

mod decide;
mod exp_cache;
pub(crate) mod interval;
pub(crate) mod interval64;
pub mod mgf;

pub use decide::{Decided, Decision, Precisions, decide, decide_escalating, decide_f64};
pub use exp_cache::ExpCache;
pub use interval::{Interval, sci, to_malachite};
pub use interval64::Interval64;
