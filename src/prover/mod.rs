//! Certified branch and bound for claims over a few real variables (theorem files of kind
//! `real`).
//!
//! A claim `lhs ≤ rhs` (or `<`, `≥`, `>`) over a box of real variables, under hypotheses, is
//! **proved** when every sub-box of a bisection of the box is decided by interval arithmetic
//! with outward rounding (the [`crate::lang::Enclosure`] domain: malachite floats, correctly
//! rounded `exp`/`ln`/`sqrt`), possibly with interval derivatives from forward-mode automatic
//! differentiation ([`crate::lang::Dual`]). The decisions are described in `search`; the tree
//! of splits and decisions is a [`Certificate`], which [`checker::verify`] re-checks without
//! the search, at a higher precision. A point of the domain where the claim is certainly false
//! **refutes** it. When a budget runs out the outcome is **inconclusive**, with the boxes left,
//! their volume fraction and the tightest of them. Before a box of the claim is evaluated it is
//! clipped by the hypotheses that bound one variable by a constant ([`contract`]), so a claim
//! tight on the boundary of its hypothesis is decided on the part of the box it is about.
//!
//! The method is the one of the interval-arithmetic provers (Flyspeck's nonlinear
//! inequalities, MetiTarski, dReal, Coq's `interval` tactic), written here from its definition:
//! bisection, the natural interval extension, the mean-value form `f(B) ⊆ f(c) + ∇f(B)·(B − c)`,
//! monotonicity (a sign-definite partial derivative moves the minimum to a face), and for tight
//! claims Taylor models of higher order and the same first-order steps applied to the
//! derivatives (the Taylor argument).
//!
//! ```
//! use balloc::prover::{Problem, Var, SlotDef, Options, Outcome, prove, checker, certificate_of};
//! use balloc::lang::{compile_value, Cmp};
//! use balloc::exact::int;
//! // e^x ≥ 1 + x on [−5, 5] (tight at x = 0).
//! let p = Problem {
//!     vars: vec![Var { name: "x".into(), lo: int(-5), hi: int(5), lo_open: false, hi_open: false }],
//!     slots: vec![SlotDef::Var(0)],
//!     lhs: compile_value("exp(x)", &["x"]).unwrap(),
//!     rhs: compile_value("1 + x", &["x"]).unwrap(),
//!     cmp: Cmp::Ge, tol: int(0), given: vec![], touching: vec![],
//!     text: "exp(x) >= 1 + x".into(),
//! };
//! let Outcome::Proved { tree, .. } = prove(&p, &Options::default()) else { panic!() };
//! let cert = certificate_of(&p, "doc/exp", Default::default(), &tree, 64);
//! let v = checker::verify(&p, &cert, 128).unwrap();
//! // One Taylor model about 0 decides all of [−5, 5]: eˣ − 1 − x = e^ξ·x²/2 with ξ between 0
//! // and x, coefficients 0, 0 at 0 (exact) and e^{[−5, 5]}/2 > 0 over the box.
//! assert_eq!((v.tally.leaves(), v.tally.taylor), (1, 1));
//! ```

pub mod boxes;
pub mod certificate;
pub mod checker;
pub mod contract;
pub mod lemma;
pub(crate) mod problem;
pub mod ratfun;
pub mod rewrite;
pub(crate) mod search;
pub(crate) mod taylor;

pub use boxes::{Bx, Side};
pub use certificate::{CertVar, Certificate, LemmaRecord, Node, RewriteRecord, Tally};
pub use problem::{Arith, ConstFn, Problem, SlotDef, Var};
pub use search::{Options, Outcome, Stats, prove};

use std::collections::BTreeMap;

/// The certificate of a proof tree of `p` (without rewrites).
pub fn certificate_of(
    p: &Problem,
    id: &str,
    constants: BTreeMap<String, String>,
    tree: &Node,
    prec: u64,
) -> Certificate {
    certificate_with(p, id, constants, &[], tree, prec)
}

/// The certificate of a proof of `p`: the rewrites of the claim, then the tree of the rewritten
/// claim.
pub fn certificate_with(
    p: &Problem,
    id: &str,
    constants: BTreeMap<String, String>,
    rewrites: &[rewrite::Rewrite],
    tree: &Node,
    prec: u64,
) -> Certificate {
    Certificate {
        format: certificate::FORMAT.into(),
        id: id.into(),
        claim: p.text.clone(),
        constants,
        vars: p
            .vars
            .iter()
            .map(|v| CertVar {
                name: v.name.clone(),
                lo: boxes::q_text(&v.lo),
                hi: boxes::q_text(&v.hi),
                lo_open: v.lo_open,
                hi_open: v.hi_open,
            })
            .collect(),
        prec,
        rewrites: rewrites.iter().map(rewrite::Rewrite::record).collect(),
        lemmas: Vec::new(),
        reduced: None,
        tally: tree.tally(),
        tree: tree.tokens(),
    }
}
