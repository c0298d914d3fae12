//! # balloc — a proof companion for balanced allocations
//!
//! `balloc` computes, exactly, the expected one-step (or one-batch) change of potential functions
//! of allocation processes at any load vector, checks conditions on allocation vectors, and
//! (through its CLI) serves researchers who draft proofs about balls-into-bins processes.
//!
//! ## Catalogue
//! * **Processes** ([`process`]): One-Choice, Two-Choice, d-Choice, (1+β), Quantile(δ),
//!   Two-Thinning, Relative-Threshold(f), Mean-Thinning, Twinning, Packing.
//! * **Potentials** ([`potential`]): Φ, Ψ, Γ (exponential, parameter α), Υ (quadratic),
//!   Δ (absolute value).
//! * **Settings** ([`setting`]): sequential, b-batched, weighted ([`weights`]), with random or
//!   fixed tie-breaking ([`loads::TieRule`]).
//! * **Expectations** ([`expectation`]): closed forms and a brute-force enumerator.
//! * **Graphical allocation** ([`graph`]): cycles, paths, tori, hypercubes, complete and random
//!   regular graphs, edge-list files; greedy and Bansal–Feldheim's strategy (process `graphical`),
//!   hierarchical decompositions, Haar drifts, edge-bias flows, the paper's checks.
//! * **Multidimensional** ([`multidim`]): md-balls, the sum-load and max-populated rules,
//!   rank-weighted group potentials and the checks of Narang–Dutta–Bhattacherjee.
//! * **Conditions** ([`condition`]): C1(δ, ε) and C2(C) with witnesses and best constants, in
//!   `f64` and in exact rationals.
//!
//! * **Mean bias** ([`bias`]): paper B's probability/weight-bias conditions (reconstructed),
//!   drifts, outcome laws and identities, exactly; potentials Λ, V and the mean quantile δ.
//! * **Lower bounds** ([`lower_bound`]): exact parts of the batched and mean-biased constructions.
//!
//! Conventions (DESIGN §1): loads `x`, total `W`, normalised loads `yᵢ = xᵢ − W/n`, ranks heaviest
//! first, gap `max xᵢ − W/n`, spread `max xᵢ − min xᵢ`.
//!
//! ```
//! use balloc::{expectation, loads::Loads, process, potential, setting::Setting};
//! let e = expectation::expect(
//!     process::parse("one-choice").unwrap().as_ref(),
//!     potential::parse("quadratic").unwrap().as_ref(),
//!     &Loads::zeros(4).unwrap(),
//!     &Setting::sequential(),
//! ).unwrap();
//! // From y = 0 one ball gives Υ' = (1 − 1/n)² + (n − 1)/n² = 1 − 1/n = 0.75.
//! assert!((e.expected_next.to_f64().unwrap() - 0.75).abs() < 1e-15);
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

#[cfg(feature = "arbitrary")]
pub mod arbitrary;
pub mod bias;
pub mod claim;
#[cfg(feature = "cli")]
pub mod cli;
pub mod condition;
pub mod enclosure;
pub mod error;
pub mod exact;
pub mod expectation;
pub mod graph;
pub mod loads;
pub mod lower_bound;
pub mod multidim;
pub mod potential;
pub mod process;
pub mod scaled;
pub mod search;
pub mod setting;
pub mod sim;
pub mod spec;
pub mod weights;

pub use error::{Error, Result};
