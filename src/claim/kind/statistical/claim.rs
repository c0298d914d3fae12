//! The claim of a statistical file: which way it goes and what is estimated ([`Test`]: `mean`,
//! `probability`, `exponent` over a size [`Over`], `compare`), its right-hand side, and the name
//! of the estimated quantity in notes and witnesses.

use super::Statistical;
use super::builder::{Builder, Built};
use super::section::parse_side;
use crate::lang::Expr;
use crate::sim::statistic::Side;

/// The size a growth claim is fitted over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Over {
    N,
    B,
    M,
    /// A parameter of the sources (`beta` of the processes of `[setting]` or of the graph
    /// strategies, one curve per graph and strategy; `delta` of the processes), or its inverse
    /// (the same curves; the exponent changes sign).
    Param {
        param: SourceParam,
        inverse: bool,
    },
    /// `d/k` of the graph sources: degree over edge connectivity (one curve per strategy and
    /// `beta`).
    DOverK,
}

/// The parameter of the sources a growth fit runs over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SourceParam {
    /// `beta`: of the processes of `[setting]`, or `[claim] beta` of the strategy.
    Beta,
    /// `delta`: of the processes of `[setting]` (e.g. the drift of `mean-drift`).
    Delta,
}

impl Over {
    /// The name of the size as written in `exponent_in`.
    pub(super) fn name(self) -> &'static str {
        match self {
            Over::N => "n",
            Over::B => "b",
            Over::M => "m",
            Over::Param { param, inverse } => match (param, inverse) {
                (SourceParam::Beta, false) => "beta",
                (SourceParam::Beta, true) => "1/beta",
                (SourceParam::Delta, false) => "delta",
                (SourceParam::Delta, true) => "1/delta",
            },
            Over::DOverK => "d/k",
        }
    }

    /// The source parameter a fit over it reads (`beta` or `delta`), if any.
    pub(super) fn param(self) -> Option<&'static str> {
        match self {
            Over::Param {
                param: SourceParam::Beta,
                ..
            } => Some("beta"),
            Over::Param {
                param: SourceParam::Delta,
                ..
            } => Some("delta"),
            _ => None,
        }
    }
}

/// Which way the claim goes and what is estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Test {
    /// `E[X] side rhs`.
    Mean(Side),
    /// `P[X side rhs] ≥ 1 − q`.
    Probability(Side),
    /// The exponent `a` of `E[X] ≈ C·x^a` over the grid of `x` (n or b) `side rhs`.
    Exponent(Side, Over),
    /// `E[X_first] side E[X_second]` for the two sources, by paired runs.
    Compare(Side),
}

/// The claim as compiled: its test, the size of a growth fit, its right-hand side, and the upper
/// end of an exponent range `in [lo, hi]` (the lower end is `rhs`).
pub(super) struct Claim {
    pub test: Test,
    pub over: Over,
    pub rhs: Expr,
    pub exponent_hi: Option<Expr>,
}

impl Builder<'_> {
    /// The claim: exactly one of `mean`, `probability`, `exponent` (with `exponent_in`,
    /// `relative_to`) and `compare`, with its right-hand side compiled.
    pub fn claim(&self) -> Built<Claim> {
        let cs = &self.cs;
        let given = [
            cs.mean.is_some(),
            cs.probability.is_some(),
            cs.exponent.is_some(),
            cs.compare.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            return Err(self.t.error_at(
                self.at,
                "[claim]: give exactly one of `mean` (E[X] <= rhs), `probability` (P[X <= rhs] >= 1 - q), `exponent` (growth exponent of E[X] <= a) and `compare` (E[X_first] <= E[X_second])",
            ));
        }
        let over = self.over()?;
        let (test, rhs_text, exponent_hi) = match (&cs.mean, &cs.probability) {
            _ if cs.exponent.is_some() => self.exponent(over)?,
            _ if cs.compare.is_some() => (self.compare()?, "0".to_string(), None),
            (Some(m), None) => {
                let (side, r) = parse_side(m).ok_or_else(|| {
                    self.bad("mean", format!("must start with <= or >=, got `{m}`"))
                })?;
                (Test::Mean(side), r.trim().to_string(), None)
            }
            (None, Some(p)) => {
                let (side, r) = parse_side(p).ok_or_else(|| {
                    self.bad(
                        "probability",
                        format!("must start with <= or >=, got `{p}`"),
                    )
                })?;
                (Test::Probability(side), r.trim().to_string(), None)
            }
            _ => {
                return Err(self.t.error_at(
                    self.at,
                    "[claim]: give exactly one of `mean` (E[X] <= rhs) and `probability` (P[X <= rhs] >= 1 - q)",
                ));
            }
        };
        let (field, allowed) = match test {
            Test::Mean(_) => ("mean", 3),
            Test::Probability(_) => ("probability", 3),
            Test::Exponent(..) => ("exponent", 0),
            Test::Compare(_) => ("compare", 0),
        };
        Ok(Claim {
            test,
            over,
            rhs: self.comp(&rhs_text, field, allowed)?,
            exponent_hi,
        })
    }

    /// The size of a growth fit (`exponent_in`, default `n`); `exponent_in` and `relative_to`
    /// only with `exponent`.
    fn over(&self) -> Built<Over> {
        let cs = &self.cs;
        let over = match cs.exponent_in.as_deref() {
            None | Some("n") => Over::N,
            Some("b") => Over::B,
            Some("m") => Over::M,
            Some(text @ ("beta" | "1/beta" | "delta" | "1/delta")) => Over::Param {
                param: if text.ends_with("beta") {
                    SourceParam::Beta
                } else {
                    SourceParam::Delta
                },
                inverse: text.starts_with("1/"),
            },
            Some("d/k") => Over::DOverK,
            Some(o) => {
                return Err(self.bad(
                    "exponent_in",
                    format!(
                        "must be \"n\", \"b\", \"m\", \"beta\", \"1/beta\", \"delta\", \"1/delta\" or \"d/k\", got `{o}`"
                    ),
                ));
            }
        };
        if cs.exponent.is_none() && (cs.exponent_in.is_some() || cs.relative_to.is_some()) {
            return Err(self.bad(
                if cs.exponent_in.is_some() {
                    "exponent_in"
                } else {
                    "relative_to"
                },
                "only used with `exponent`".into(),
            ));
        }
        Ok(over)
    }

    /// `exponent = "<= a"`, `">= a"` or `"in [lo, hi]"`: the test, the text of its right-hand
    /// side (the lower end of a range) and the compiled upper end of a range.
    fn exponent(&self, over: Over) -> Built<(Test, String, Option<Expr>)> {
        let e = self.cs.exponent.as_deref().unwrap_or_default();
        if let Some(r) = e.trim().strip_prefix("in") {
            // `in [lo, hi]`: the lower end is the rhs, the upper end `exponent_hi`.
            let inner = r
                .trim()
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .and_then(|r| r.split_once(','))
                .ok_or_else(|| {
                    self.bad(
                        "exponent",
                        format!("a range is written `in [lo, hi]`, got `{e}`"),
                    )
                })?;
            let hi = self.comp(inner.1.trim(), "exponent", 0)?;
            Ok((
                Test::Exponent(Side::AtLeast, over),
                inner.0.trim().to_string(),
                Some(hi),
            ))
        } else {
            let (side, r) = parse_side(e).ok_or_else(|| {
                self.bad(
                    "exponent",
                    format!("must start with <=, >= or `in [lo, hi]`, got `{e}`"),
                )
            })?;
            Ok((Test::Exponent(side, over), r.trim().to_string(), None))
        }
    }

    /// `compare = "<="` (E[X_first] <= E[X_second]) or `">="`.
    fn compare(&self) -> Built<Test> {
        let c = self.cs.compare.as_deref().unwrap_or_default().trim();
        let side = match c {
            "<=" => Side::AtMost,
            ">=" => Side::AtLeast,
            _ => {
                return Err(self.bad(
                    "compare",
                    format!("must be \"<=\" (E[X_first] <= E[X_second]) or \">=\", got `{c}`"),
                ));
            }
        };
        Ok(Test::Compare(side))
    }
}

impl Statistical {
    /// The estimated quantity, as notes and witnesses name it (`E[X]`, `P[X <= rhs]`, the growth
    /// exponent, the paired difference).
    pub(super) fn lhs_name(&self) -> String {
        let x = match &self.subtract {
            Some((_, text)) => format!("{} − ({text})", self.stat_name()),
            None => self.stat_name(),
        };
        match self.test {
            Test::Mean(_) => format!("E[{x}]"),
            Test::Exponent(_, over) => format!("growth exponent in {} of E[{x}]", over.name()),
            Test::Compare(_) => format!("E[{x}] of the first source − E[{x}] of the second"),
            Test::Probability(Side::AtMost) => format!("P[{x} <= rhs]"),
            Test::Probability(Side::AtLeast) => format!("P[{x} >= rhs]"),
        }
    }
}
