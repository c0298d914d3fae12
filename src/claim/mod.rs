//! Lemmas as files: the theorem-file schema, claim expressions, check kinds and verdicts
//! (docs/conventions.md §3).
//!
//! A lemma is one TOML file under `theorems/<paper>/<name>.toml` (its id is `<paper>/<name>`);
//! `theorems/README.md` documents the schema with a worked example. [`load`] reads a file,
//! [`check`] runs it and returns a [`Verdict`]: `holds` (with what was searched and the smallest
//! slack), `refuted` (with a shrunk counterexample re-checked independently) or `inconclusive`,
//! each with a [`Trust`] level.

pub mod case;
pub mod chain;
pub mod engine;
pub(crate) mod env;
pub mod kind;
pub mod mean_bias;
pub(crate) mod next_state;
pub mod quantity;
pub mod range;
pub mod routes;
pub mod schema;
pub(crate) mod scope;
pub(crate) mod setup;
pub mod state;
pub mod tighten;
pub mod trust;
pub mod uses;
mod verdict;

pub use crate::xfloat::XFloat;
pub use kind::inequality::{Evaluator, Values, evaluate};
pub use kind::{Check, ConstantReport, KINDS, KindInfo, RunContext, Tightest};
pub use schema::{
    Direction, ExpectedStatus, FileError, PaperFile, Provenance, Theorem, TheoremFile, discover,
    load, resolve,
};
pub use verdict::{
    ExactSides, LinkVerdict, Observation, Searched, Status, Trust, Verdict, Witness,
};

/// Loads a file and builds its check (all validation of the claim happens here, before any
/// search). Its `uses` do not take part in the verdict; the commands validate them against the
/// theorem directory ([`uses::validate`]).
pub fn prepare(
    path: &std::path::Path,
    root: &std::path::Path,
) -> Result<(Theorem, Box<dyn Check>), FileError> {
    let t = load(path, root)?;
    let c = kind::build(&t)?;
    Ok((t, c))
}

/// Loads, builds and runs one theorem file.
pub fn check(
    path: &std::path::Path,
    root: &std::path::Path,
    ctx: &mut RunContext,
) -> anyhow::Result<Verdict> {
    let (_, c) = prepare(path, root)?;
    Ok(c.run(ctx)?)
}
