//! A statistical file's `[claim]` section being compiled: the section, where it is in the file,
//! and the names and values of its constants. Its compiling steps are methods in the modules of
//! what they compile ([`super::build`], [`super::claim`], [`super::sources`],
//! [`super::statistic`]).

use super::section::ClaimSection;
use crate::claim::schema::{FileError, Theorem};

/// The result of a compiling step: a problem names the file, its line and the field.
pub(super) type Built<T> = std::result::Result<T, FileError>;

/// A `[claim]` section being compiled, with the names its expressions may use.
pub(super) struct Builder<'a> {
    pub t: &'a Theorem,
    pub cs: ClaimSection,
    /// The section's byte range in the file (to point at a field).
    pub span: std::ops::Range<usize>,
    /// The section's start.
    pub at: Option<usize>,
    /// Slot names: `n`, `b`, `m`, then the constants.
    pub names: Vec<String>,
    /// The constants' values, in the order of `names[3..]`.
    pub consts: Vec<f64>,
}
