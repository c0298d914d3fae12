//! Multidimensional balanced allocation (Narang–Dutta–Bhattacherjee, *Multidimensional Balanced
//! Allocation for Multiple Choice & (1+β) Processes*, IBM Research Report, arXiv:1111.0762; what was
//! available of it and the derived facts: `docs/derivations.md` §9).
//!
//! * `ball`: md-balls, 0/1 vectors with `f` ones among `D` dimensions (uniform, skewed, binomial).
//! * `state`: D-dimensional bin loads `l(a, b)`, normalised loads `x_b^a = l(a, b) − avg(a)`,
//!   the sum-load `s_b = Σ_a x_b^a`, per-dimension gaps `gap(a) = max_b l(a, b) − avg(a)`.
//! * `rule`: the sum-load rule of D and the max-over-populated-dimensions rule of D's ref. \[6\],
//!   for d-choice and (1+β).
//! * [`potential`]: D's rank-weighted equi-load-group potentials Φ, Ψ (two readings), Γ, and the
//!   standard potentials.
//! * [`expectation`]: exact one-step expectations over bins (by rank, with the tie rule) and over
//!   the supports of the ball; brute force and closed forms.
//! * [`claims`]: every checkable item of D as a function; [`search`]: the spaces searched;
//!   [`enclosed`]: the same items over exact sum loads with interval enclosures (trust `enclosure`).
//! * The simulator's md model and the gap-growth experiment live with the simulator
//!   ([`crate::sim::multidim`], [`crate::sim::multidim_experiment`]): the mathematics does not
//!   depend on it.
//!
//! The verdicts on D's printed statements are listed in `src/multidim/CHECKS.md`.
//!
//! ```
//! use balloc::multidim::{BallLaw, MdLoads, MdRule};
//! use rand::SeedableRng;
//! let law = BallLaw::parse("uniform(dims=4,f=2)").unwrap();
//! let rule = MdRule::parse("sum", "two-choice").unwrap();
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
//! let mut x = MdLoads::new(8, 4).unwrap();
//! for _ in 0..80 {
//!     let s = law.sample(&mut rng);
//!     let j = rule.choose(&x, s, &mut rng);
//!     x.add(j, s);
//! }
//! // 80 balls × 2 units = 160 units; Σ_b s_b = 0.
//! assert_eq!((0..4).map(|a| x.total(a)).sum::<i64>(), 160);
//! assert!(x.sum_loads::<f64>().iter().sum::<f64>().abs() < 1e-9);
//! ```

pub(crate) mod ball;
pub mod claims;
pub mod enclosed;
pub mod expectation;
pub mod group_enclosure;
pub mod potential;
pub(crate) mod rule;
pub mod search;
pub(crate) mod state;

pub use ball::{BallLaw, Support};
pub use potential::{GroupPotential, PsiReading, Which};
pub use rule::{Choice, Criterion, MdRule};
pub use state::MdLoads;
