//! The kind `graph`: claims about graphical allocation (Bansal–Feldheim, *The Power of Two
//! Choices in Graphical Allocation*, arXiv:2106.06051 v2) written in the claim language. A
//! `[claim]` with `expr` is a formula over the graph quantities and functions of
//! [`crate::graph::quantities`] ([`super::graph_expr`]); with `over = "two-point"` a formula over
//! the two-point process of Lemma 3.8 ([`super::two_point`]). The load families the graph
//! claims share are in [`super::graph_loads`] (graph specs are [`crate::graph::family`]'s).
//!
//! A `[claim]` with `item` (a name of a built-in check) is refused with a one-line error that
//! names the field and says to write `expr`.

use super::{Check, KindInfo};
use crate::claim::schema::{FileError, Theorem};

/// The registry entry.
pub static INFO: KindInfo = KindInfo {
    name: "graph",
    summary: "a formula over graph quantities (greedy's and the strategy's probabilities, Haar drifts, flows, cuts, ...) at every element of the listed graphs, trees and loads, or over the two-point process of Lemma 3.8; exact or enclosed",
    build,
};

fn build(t: &Theorem) -> std::result::Result<Box<dyn Check>, FileError> {
    let claim = t.file.claim.get_ref();
    if claim.contains_key("item") {
        return Err(t.error_at(
            Some(t.file.claim.span().start),
            "[claim] item: kind `graph` has no built-in items; write the claim as `expr` (a formula over the graph quantities, theorems/README.md \"Graph claims in the language\")",
        ));
    }
    if claim.get("over").and_then(|v| v.as_str()) == Some("two-point") {
        // A claim about the two-point process of Lemma 3.8.
        return super::two_point::build(t);
    }
    // A claim written in the language over the graph quantities.
    super::graph_expr::build(t)
}
