//! The claim language: one expression language for every claim of a theorem file, evaluated by
//! one evaluator in any number domain.
//!
//! * [`syntax`]: text → syntax tree with spans (exact literals, bounded size and depth);
//! * [`expr`]: names resolved against a [`Scope`], formulas and indicators, binders over the bins
//!   (`sum`, `max_bins`, `min_bins`, `count`; named, `sum(j: x[j])`, so that they nest), over the
//!   dimensions of multidimensional states (`sum_dims`, `max_dims`, `min_dims`, `count_dims`) and
//!   over the edges of graphs (`sum_edges`, …), functions of the state at exact integer arguments
//!   ([`EnvFunc`], e.g. `l(a, b)`), probabilities and expectations over the law of the next state
//!   (`P(gap' > gap)`, `E3(Phi')`, primed names), and the evaluator [`Expr::eval`] /
//!   [`Formula::truth`];
//! * [`domain`]: the number domains — [`Float`] (extended-range floats with an error magnitude),
//!   [`Exact`] (rationals), [`Enclosure`] (outward-rounded intervals) and [`ExpSums`] (exact
//!   exponential sums, signs by Lindemann–Weierstrass and enclosures);
//! * [`float64`]: the float domain on plain `f64` ([`Float64`]), the same numbers as [`Float`]
//!   while they stay normal `f64` values, and [`eval_float`], which falls back to [`Float`];
//! * `expr::postfix` (a part of [`expr`]: an expression holds the flattened form of each of
//!   its binders over the bins, whose constants are expressions again): the bodies of binders
//!   over the bins flattened once, with the subtrees that
//!   read no per-bin name evaluated once per binder rather than once per bin;
//! * [`expsum`]: the exponential sums themselves;
//! * [`dual`]: forward-mode derivatives as a domain ([`Dual`] over any domain, nested for
//!   higher orders);
//! * [`jet`]: truncated multivariate Taylor arithmetic ([`Jet`] over any domain: derivatives of
//!   any order along any lower set of multi-indices), used by the prover of claims over real
//!   variables for its derivative goals and Taylor models;
//! * `enclosure64`: the fast enclosure domain on outward-rounded `f64` intervals
//!   ([`Enclosure64`]), the prover's first evaluation before the arbitrary-precision one.
//!
//! ```
//! use balloc::lang::{compile_str, Exact, Float, Slots, Domain};
//! // A formula over two names, evaluated exactly and in floats.
//! let f = compile_str("a^2 <= 2*b && a > 0", &["a", "b"]).unwrap();
//! let (a, b) = (Exact.float(3.0).unwrap(), Exact.float(4.5).unwrap());
//! assert!(f.truth(&Exact, &Slots(&[a, b]), None, None).unwrap()); // 9 <= 9
//! let (a, b) = (Float.float(3.0).unwrap(), Float.float(4.4).unwrap());
//! assert!(!f.truth(&Float, &Slots(&[a, b]), None, None).unwrap()); // 9 > 8.8
//! ```

pub(crate) mod centered;
pub mod domain;
pub mod dual;
pub(crate) mod enclosure64;
pub mod expr;
pub mod expsum;
pub mod float64;
pub mod jet;
pub mod syntax;

pub use centered::{Centered, CenteredNum};
pub use domain::{Approx, Domain, Enclosure, Eval, EvalError, Exact, ExpSums, Float};
pub use dual::{Dual, DualNum, Seed};
pub use enclosure64::Enclosure64;
pub use expr::{
    Agg, BinVar, BinVars, Bind, CompileError, DIM_VAR, Elements, Env, EnvFunc, Expr, Formula,
    Frame, Func, NextEnv, NextVisit, ProcFunc, Resolved, Scope, Slots, Uses, compile_expr,
    compile_formula, compile_str, compile_value,
};
pub use float64::{Approx64, Float64, ToApprox, eval_float};
pub use jet::{IntervalDomain, Jet, JetNum, Shape};
pub use syntax::{Ast, BinOp, Cmp, parse};
