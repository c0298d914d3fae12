//! The kind `multidim`: claims about multidimensional allocation (Narang–Dutta–Bhattacherjee,
//! arXiv:1111.0762) written in the claim language, `expr` in `[claim]`
//! ([`super::multidim_expr`]). The paper's computations (the group potentials with either
//! reading of `Ψ`, the one-step expectations over md outcomes, `Δ_i` as `Delta_P(b)`, the group
//! start `p₀(b)`, the rank vector `p(k)`, the sum-load chain as states) are names and functions
//! of the md setting, usable in any expression; there is no list of built-in items.
//!
//! ```
//! // A file that names an item gets a one-line error that says what to write instead.
//! let text = "title = \"t\"\nkind = \"multidim\"\nexpected = \"open\"\nstatement = \"s\"\n\
//!             [source]\nlocator = \"x\"\nprovenance = \"derived\"\n[claim]\nitem = \"corollary-1\"\n\
//!             [domain]\nn = [8]\n";
//! let e = balloc::check_str(text).unwrap_err().to_string();
//! assert!(e.contains("[claim] item: the multidim kind has no item list; state the claim with `expr`"));
//! ```

use super::{Check, KindInfo};
use crate::claim::schema::{FileError, Theorem};

/// The registry entry.
pub static INFO: KindInfo = KindInfo {
    name: "multidim",
    summary: "a formula over md states (Narang–Dutta–Bhattacherjee): per-dimension loads, sum loads, group potentials and their exact one-step expectations, states of the sum-load chain",
    build,
};

fn build(t: &Theorem) -> std::result::Result<Box<dyn Check>, FileError> {
    if t.file.claim.get_ref().contains_key("item") {
        return Err(t.error_at(
            Some(t.file.claim.span().start),
            "[claim] item: the multidim kind has no item list; state the claim with `expr` (the md names and functions are listed in theorems/README.md)",
        ));
    }
    super::multidim_expr::build(t)
}
