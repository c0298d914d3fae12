//! The engine: what every setting shares once. A setting (load vectors; a graph with loads; md
//! states; the two-point process; …) says what a state is, generates its states and evaluates a
//! claim at one of them in floats and in the certified domains ([`sweep::Setting`],
//! [`ladder::AtState`]); the engine owns the float stage ([`float`]), a claim at every bin
//! ([`every_bin`], `forall_bins`), the certification ladder ([`ladder`]) and the search policy that turns the evidence of many states into a verdict and
//! its trust ([`sweep`]).

pub mod every_bin;
pub mod float;
pub mod ladder;
pub mod sweep;
