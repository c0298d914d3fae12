//! Proof certificates: the tree of a proof (splits and the decision at each leaf box) with the
//! problem it proves, written as JSON. The tree is stored flat, in preorder, so that deep trees
//! need no recursion to read.
//!
//! Decisions at a box `B` for a goal `s·∂_β g ≥ 0` (`g ≥ 0` is the claim, `β` a list of
//! derivative indices, empty for the claim itself):
//!
//! | token | decision |
//! |---|---|
//! | `D` | **direct**: the enclosure of `s·∂_β g` on `B` is `≥ 0` (`> 0` where strictness is needed) |
//! | `V` | **mean value** at a point `c ∈ B`: `f(c) + Σᵢ ∂ᵢf(B)·(Bᵢ − cᵢ) ≥ 0` |
//! | `M` | **monotone** in `xᵢ` toward a face: `±∂ᵢf ≥ 0` on `B` (first subtree) and `f ≥ 0` on the face (second subtree) |
//! | `O` | **outside**: hypothesis `j` is false on all of `B` |
//! | `X` | **exact** at a point (`B` a single point): the sign of the goal decided in exact exponential sums |
//! | `T` | **Taylor model** about a point `c ∈ B` of order `K`: the coefficients below `K` at `c` and the remainder's coefficients of order `K` over `B`, as rational intervals (`super::taylor`) |
//! | `S` | **split** at `xᵢ = a`: the lower half (first subtree), then the upper half |
//! | `C` | **clip** by the hypotheses: the hypotheses that cut the box and the clipped ends ([`super::contract`]); the subtree proves the goal on the clipped box |
//!
//! Format `balloc-real-certificate/2` added `T` (and the rewrites of the claim before the tree);
//! a certificate of format `/1` has neither and is read and checked unchanged. Format `/3` is a
//! claim derived from lemmas ([`super::lemma`]): per bound, the certificates of the lemma and of
//! the sign of the derivative, then the tree of the reduced claim; it is checked against the
//! theorem files with [`super::checker::verify_derived`]. Format `/4` added `C`; it is written
//! for both kinds (a derived certificate is the one with lemmas or a reduced claim), and the
//! earlier formats are read and checked unchanged (a `C` in one of them is rejected).

use super::boxes::{Side, parse_q, q_text};
use super::taylor::Model;
use crate::exact::Q;
use crate::lang::jet::{MAX_VARS, MultiIndex};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The proof tree of a box.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// Split at `x_var = at`: the two halves.
    Split {
        /// The coordinate.
        var: usize,
        /// The split point.
        at: Q,
        /// `x_var ≤ at`.
        lo: Box<Node>,
        /// `x_var ≥ at`.
        hi: Box<Node>,
    },
    /// The enclosure of the goal on the box is non-negative (positive where required).
    Direct,
    /// The mean-value form at the point `at`.
    MeanValue {
        /// The expansion point (inside the box).
        at: Vec<Q>,
    },
    /// Monotone in `x_var` toward the face on `side`.
    Monotone {
        /// The coordinate.
        var: usize,
        /// The face the goal reduces to (`lo`: the goal is non-decreasing in `x_var`).
        side: Side,
        /// The proof of the sign of the derivative on the box.
        derivative: Box<Node>,
        /// The proof of the goal on the face.
        face: Box<Node>,
    },
    /// Hypothesis `hyp` is false on the whole box.
    Outside {
        /// Its index in `given`.
        hyp: usize,
    },
    /// The box is a point where the goal is decided exactly ([`super::Problem::exact_sign`]).
    Exact,
    /// A Taylor model of the goal on the box decides it (`super::taylor`).
    Taylor(Model),
    /// The box clipped by the bound hypotheses ([`super::contract`]): the subtree proves the
    /// goal on the clipped box.
    Clip {
        /// The hypotheses that cut the box, in the order applied.
        hyps: Vec<usize>,
        /// The clipped coordinates and their new ends `(coordinate, lo, hi)`.
        ends: Vec<(usize, Q, Q)>,
        /// The proof on the clipped box.
        inner: Box<Node>,
    },
}

/// Counts of leaf decisions (and splits) in a tree.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Split nodes.
    pub splits: u64,
    /// Direct leaves.
    pub direct: u64,
    /// Mean-value leaves.
    pub mean_value: u64,
    /// Monotone reductions.
    pub monotone: u64,
    /// Boxes outside the hypotheses.
    pub outside: u64,
    /// Points decided exactly.
    #[serde(default)]
    pub exact: u64,
    /// Taylor-model leaves.
    #[serde(default)]
    pub taylor: u64,
    /// Boxes clipped by the hypotheses (format 4).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub clipped: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Tally {
    /// Leaves (every node but splits and the monotone nodes, whose subtrees hold leaves).
    pub fn leaves(&self) -> u64 {
        self.direct + self.mean_value + self.outside + self.exact + self.taylor
    }
}

impl Node {
    /// Counts the nodes by kind.
    pub fn tally(&self) -> Tally {
        let mut t = Tally::default();
        let mut stack = vec![self];
        while let Some(n) = stack.pop() {
            match n {
                Node::Split { lo, hi, .. } => {
                    t.splits += 1;
                    stack.push(lo);
                    stack.push(hi);
                }
                Node::Direct => t.direct += 1,
                Node::MeanValue { .. } => t.mean_value += 1,
                Node::Monotone {
                    derivative, face, ..
                } => {
                    t.monotone += 1;
                    stack.push(derivative);
                    stack.push(face);
                }
                Node::Outside { .. } => t.outside += 1,
                Node::Exact => t.exact += 1,
                Node::Taylor(_) => t.taylor += 1,
                Node::Clip { inner, .. } => {
                    t.clipped += 1;
                    stack.push(inner);
                }
            }
        }
        t
    }

    /// The nodes in preorder as tokens.
    pub fn tokens(&self) -> Vec<Token> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(n) = stack.pop() {
            match n {
                Node::Split { var, at, lo, hi } => {
                    out.push(Token::S(*var, q_text(at)));
                    stack.push(hi);
                    stack.push(lo);
                }
                Node::Direct => out.push(Token::D),
                Node::MeanValue { at } => out.push(Token::V(at.iter().map(q_text).collect())),
                Node::Monotone {
                    var,
                    side,
                    derivative,
                    face,
                } => {
                    out.push(Token::M(*var, side.name().to_string()));
                    stack.push(face);
                    stack.push(derivative);
                }
                Node::Outside { hyp } => out.push(Token::O(*hyp)),
                Node::Exact => out.push(Token::X),
                Node::Taylor(m) => out.push(Token::T(
                    m.at.iter().map(q_text).collect(),
                    m.order,
                    m.coeffs
                        .iter()
                        .map(|(a, lo, hi)| (a.to_vec(), q_text(lo), q_text(hi)))
                        .collect(),
                )),
                Node::Clip { hyps, ends, inner } => {
                    out.push(Token::C(
                        hyps.clone(),
                        ends.iter()
                            .map(|(i, lo, hi)| (*i, q_text(lo), q_text(hi)))
                            .collect(),
                    ));
                    stack.push(inner);
                }
            }
        }
        out
    }

    /// Rebuilds a tree from preorder tokens (an error for a malformed sequence).
    pub fn from_tokens(tokens: &[Token]) -> Result<Node, String> {
        // Iterative: a stack of partially built nodes waiting for their children.
        enum Open {
            Split(usize, Q, Option<Node>),
            Mono(usize, Side, Option<Node>),
            Clip(Vec<usize>, Vec<(usize, Q, Q)>),
        }
        let mut stack: Vec<Open> = Vec::new();
        let mut it = tokens.iter().enumerate();
        loop {
            let (k, t) = it
                .next()
                .ok_or_else(|| "the certificate ends inside the tree".to_string())?;
            let mut done = match t {
                Token::S(var, at) => {
                    let at = parse_q(at).ok_or_else(|| format!("token {k}: bad number {at}"))?;
                    stack.push(Open::Split(*var, at, None));
                    continue;
                }
                Token::M(var, side) => {
                    let side = match side.as_str() {
                        "lo" => Side::Lo,
                        "hi" => Side::Hi,
                        s => return Err(format!("token {k}: bad side {s}")),
                    };
                    stack.push(Open::Mono(*var, side, None));
                    continue;
                }
                Token::C(hyps, ends) => {
                    let num =
                        |s: &String| parse_q(s).ok_or_else(|| format!("token {k}: bad number {s}"));
                    let ends = ends
                        .iter()
                        .map(|(i, lo, hi)| Ok((*i, num(lo)?, num(hi)?)))
                        .collect::<Result<_, String>>()?;
                    stack.push(Open::Clip(hyps.clone(), ends));
                    continue;
                }
                Token::D => Node::Direct,
                Token::V(at) => Node::MeanValue {
                    at: at
                        .iter()
                        .map(|s| parse_q(s).ok_or_else(|| format!("token {k}: bad number {s}")))
                        .collect::<Result<_, _>>()?,
                },
                Token::O(h) => Node::Outside { hyp: *h },
                Token::X => Node::Exact,
                Token::T(at, order, coeffs) => {
                    let num =
                        |s: &String| parse_q(s).ok_or_else(|| format!("token {k}: bad number {s}"));
                    let mut cs = Vec::with_capacity(coeffs.len());
                    for (a, lo, hi) in coeffs {
                        if a.len() > MAX_VARS {
                            return Err(format!("token {k}: a multi-index of {} entries", a.len()));
                        }
                        let mut m: MultiIndex = [0; MAX_VARS];
                        m[..a.len()].copy_from_slice(a);
                        cs.push((m, num(lo)?, num(hi)?));
                    }
                    Node::Taylor(Model {
                        at: at.iter().map(num).collect::<Result<_, _>>()?,
                        order: *order,
                        coeffs: cs,
                    })
                }
            };
            // Attach the finished node to its parents.
            loop {
                match stack.pop() {
                    None => {
                        if it.next().is_some() {
                            return Err("tokens after the end of the tree".into());
                        }
                        return Ok(done);
                    }
                    Some(Open::Split(v, at, None)) => {
                        stack.push(Open::Split(v, at, Some(done)));
                        break;
                    }
                    Some(Open::Split(v, at, Some(lo))) => {
                        done = Node::Split {
                            var: v,
                            at,
                            lo: Box::new(lo),
                            hi: Box::new(done),
                        };
                    }
                    Some(Open::Mono(v, s, None)) => {
                        stack.push(Open::Mono(v, s, Some(done)));
                        break;
                    }
                    Some(Open::Mono(v, s, Some(d))) => {
                        done = Node::Monotone {
                            var: v,
                            side: s,
                            derivative: Box::new(d),
                            face: Box::new(done),
                        };
                    }
                    Some(Open::Clip(hyps, ends)) => {
                        done = Node::Clip {
                            hyps,
                            ends,
                            inner: Box::new(done),
                        };
                    }
                }
            }
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        // Deep trees are dropped without recursion.
        let mut stack = Vec::new();
        match self {
            Node::Split { lo, hi, .. } => {
                stack.push(std::mem::replace(lo.as_mut(), Node::Direct));
                stack.push(std::mem::replace(hi.as_mut(), Node::Direct));
            }
            Node::Monotone {
                derivative, face, ..
            } => {
                stack.push(std::mem::replace(derivative.as_mut(), Node::Direct));
                stack.push(std::mem::replace(face.as_mut(), Node::Direct));
            }
            Node::Clip { inner, .. } => stack.push(std::mem::replace(inner.as_mut(), Node::Direct)),
            _ => return,
        }
        while let Some(mut n) = stack.pop() {
            match &mut n {
                Node::Split { lo, hi, .. } => {
                    stack.push(std::mem::replace(lo.as_mut(), Node::Direct));
                    stack.push(std::mem::replace(hi.as_mut(), Node::Direct));
                }
                Node::Monotone {
                    derivative, face, ..
                } => {
                    stack.push(std::mem::replace(derivative.as_mut(), Node::Direct));
                    stack.push(std::mem::replace(face.as_mut(), Node::Direct));
                }
                Node::Clip { inner, .. } => {
                    stack.push(std::mem::replace(inner.as_mut(), Node::Direct));
                }
                _ => {}
            }
        }
    }
}

/// One node of a tree in preorder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Token {
    /// Split: coordinate, point.
    S(usize, String),
    /// Direct.
    D,
    /// Mean value at a point.
    V(Vec<String>),
    /// Monotone: coordinate, `lo`/`hi`.
    M(usize, String),
    /// Outside hypothesis `j`.
    O(usize),
    /// Exact at a point.
    X,
    /// Taylor model: the expansion point, the order, `(α, lo, hi)` per coefficient.
    T(Vec<String>, usize, Vec<(Vec<u8>, String, String)>),
    /// Clip by the hypotheses (format 4): the hypotheses that cut, `(coordinate, lo, hi)` per
    /// clipped coordinate; the subtree follows.
    C(Vec<usize>, Vec<(usize, String, String)>),
}

/// A variable as recorded in a certificate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CertVar {
    /// Its name.
    pub name: String,
    /// The lower end (exact rational text).
    pub lo: String,
    /// The upper end.
    pub hi: String,
    /// Whether the lower end is excluded.
    pub lo_open: bool,
    /// Whether the upper end is excluded.
    pub hi_open: bool,
}

/// The format tag of the certificates written: format 4, whose trees may clip boxes by the
/// hypotheses (`C`), for plain certificates and for those of claims derived from lemmas.
pub const FORMAT: &str = "balloc-real-certificate/4";

/// An earlier format, still read: the trees of format 4 without clips, with rewrites.
pub const FORMAT_2: &str = "balloc-real-certificate/2";

/// The earliest format, still read: its trees use a subset of the decisions and it has no
/// rewrites.
pub const FORMAT_1: &str = "balloc-real-certificate/1";

/// A rewrite of the claim as recorded in a certificate ([`super::rewrite`]); the checker derives
/// each again from the claim and requires it to be this one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "rewrite", rename_all = "kebab-case")]
pub enum RewriteRecord {
    /// Both sides divided by `exp(exponent)`.
    CommonExp {
        /// The exponent as text.
        exponent: String,
    },
    /// Both sides multiplied by a positive denominator.
    Denominator {
        /// Its position among the claim's denominators.
        index: usize,
        /// The factor as text.
        factor: String,
        /// The power multiplied out.
        power: i64,
        /// The proof tree of `factor > 0` on the domain, in preorder.
        proof: Vec<Token>,
    },
    /// Variables replaced by one over the range of a derived name.
    Range {
        /// The derived name's slot.
        slot: usize,
        /// The variables replaced.
        vars: Vec<usize>,
        /// The lower end of the range (exact rational text).
        lo: String,
        /// The upper end.
        hi: String,
        /// The new variable's name.
        name: String,
    },
}

/// An earlier format of a certificate of a claim derived from lemmas, still read (its trees
/// without clips).
pub const FORMAT_3: &str = "balloc-real-certificate/3";

/// One bound of a derivation as recorded in a certificate ([`super::lemma`]): which lemma, at
/// which term, and the proofs the checker re-checks against the claims it derives itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LemmaRecord {
    /// The lemma's theorem id.
    pub lemma: String,
    /// The term bounded, as written.
    pub term: String,
    /// Its bound, as written.
    pub by: String,
    /// The certificate of the lemma.
    pub proof: Box<Certificate>,
    /// The certificate of the sign of the claim's derivative in the term.
    pub monotone: Box<Certificate>,
    /// The certificates of the lemma's hypotheses at the point of application.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hypotheses: Vec<Certificate>,
}

/// A proof certificate (see the module documentation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Certificate {
    /// [`FORMAT`].
    pub format: String,
    /// The theorem id.
    pub id: String,
    /// The claim as written.
    pub claim: String,
    /// The constants of this case (as written or evaluated).
    pub constants: BTreeMap<String, String>,
    /// The variables and their ranges.
    pub vars: Vec<CertVar>,
    /// The working precision of the search (bits).
    pub prec: u64,
    /// The rewrites of the claim before the tree, in order (format 2; none in format 1).
    #[serde(default)]
    pub rewrites: Vec<RewriteRecord>,
    /// The bounds by lemmas before the tree (formats 3 and 4; none before).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lemmas: Vec<LemmaRecord>,
    /// The reduced claim the tree proves, as written (formats 3 and 4; the claim itself before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduced: Option<String>,
    /// The counts of the tree's nodes.
    pub tally: Tally,
    /// The tree in preorder.
    pub tree: Vec<Token>,
}

impl Certificate {
    /// The proof tree.
    pub fn root(&self) -> Result<Node, String> {
        Node::from_tokens(&self.tree)
    }

    /// The JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a certificate serializes")
    }

    /// Parses the JSON text.
    pub fn from_json(text: &str) -> Result<Certificate, String> {
        let c: Certificate =
            serde_json::from_str(text).map_err(|e| format!("not a certificate: {e}"))?;
        if ![FORMAT, FORMAT_3, FORMAT_2, FORMAT_1].contains(&c.format.as_str()) {
            return Err(format!(
                "unknown certificate format `{}` (expected {FORMAT}, {FORMAT_3}, {FORMAT_2} or {FORMAT_1})",
                c.format
            ));
        }
        Ok(c)
    }

    /// Whether the format admits clips (`C`, format 4): those of earlier formats are rejected by
    /// the checker.
    ///
    /// ```
    /// use balloc::prover::certificate::{Certificate, FORMAT, FORMAT_2};
    /// let json = |f: &str| format!(
    ///     r#"{{"format":"{f}","id":"t","claim":"x <= 1","constants":{{}},"vars":[],"prec":64,
    ///     "tally":{{"splits":0,"direct":1,"mean_value":0,"monotone":0,"outside":0}},"tree":["D"]}}"#
    /// );
    /// assert_eq!(FORMAT, "balloc-real-certificate/4");
    /// assert!(Certificate::from_json(&json(FORMAT)).unwrap().clips_allowed());
    /// let old = Certificate::from_json(&json(FORMAT_2)).unwrap();
    /// assert!(!old.clips_allowed());
    /// assert_eq!(old.tally.clipped, 0); // absent in format 2: read as 0
    /// ```
    pub fn clips_allowed(&self) -> bool {
        self.format == FORMAT
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    fn tokens_round_trip() {
        let q = |a: i64, b: i64| Q::new(a.into(), b.into());
        let t = Node::Split {
            var: 0,
            at: q(1, 2),
            lo: Box::new(Node::Monotone {
                var: 1,
                side: Side::Hi,
                derivative: Box::new(Node::Direct),
                face: Box::new(Node::MeanValue {
                    at: vec![q(1, 4), q(3, 1)],
                }),
            }),
            hi: Box::new(Node::Clip {
                hyps: vec![0, 2],
                ends: vec![(1, q(0, 1), q(1, 3))],
                inner: Box::new(Node::Outside { hyp: 2 }),
            }),
        };
        let tok = t.tokens();
        // Split, monotone, direct, mean value, clip, outside.
        assert_eq!(tok.len(), 6);
        assert_eq!(
            tok[4],
            Token::C(vec![0, 2], vec![(1, "0".into(), "1/3".into())])
        );
        assert_eq!(Node::from_tokens(&tok).unwrap(), t);
        let tally = t.tally();
        assert_eq!(
            (tally.splits, tally.monotone, tally.clipped, tally.leaves()),
            (1, 1, 1, 3)
        );
        // Truncated and overlong sequences are errors (a clip without its subtree too).
        assert!(Node::from_tokens(&tok[..4]).is_err());
        assert!(Node::from_tokens(&tok[..5]).is_err());
        let mut long = tok.clone();
        long.push(Token::D);
        assert!(Node::from_tokens(&long).is_err());
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[crate::unit::Test {
        name: "tokens_round_trip",
        run: tokens_round_trip,
        panics: None,
    }];
}
