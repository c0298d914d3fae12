//! The `[claim]` section of a statistical file as written (its TOML shape), and the sides of a
//! claim (`<= rhs`, `>= rhs`).

use crate::sim::statistic::Side;

/// A number or an expression (`balls = 100` or `balls = "n * log(n)"`).
#[derive(serde::Deserialize)]
#[serde(untagged)]
pub(super) enum NumOrExpr {
    Num(f64),
    Text(String),
}

/// One entry or a list (`balls`).
#[derive(serde::Deserialize)]
#[serde(untagged)]
pub(super) enum OneOrMany {
    One(NumOrExpr),
    Many(Vec<NumOrExpr>),
}

impl NumOrExpr {
    /// The text to compile: a number in exponent notation, an expression as written.
    pub(super) fn text(&self) -> String {
        match self {
            NumOrExpr::Num(x) => format!("{x:e}"),
            NumOrExpr::Text(t) => t.clone(),
        }
    }
}

/// `graph = "cycle"` or `graph = ["sparse-cut(d=24,k=2)", "sparse-cut(d=24,k=8)"]`.
#[derive(serde::Deserialize)]
#[serde(untagged)]
pub(super) enum Graphs {
    One(String),
    Many(Vec<String>),
}

/// `beta = 0.25` or `beta = [1, 0.5, 0.25]`.
#[derive(serde::Deserialize)]
#[serde(untagged)]
pub(super) enum Betas {
    One(f64),
    Many(Vec<f64>),
}

/// `strategy = "greedy"` or `strategy = ["flow", "greedy"]`.
#[derive(serde::Deserialize)]
#[serde(untagged)]
pub(super) enum Strategies {
    One(String),
    Many(Vec<String>),
}

/// The `[claim]` section of a statistical file (the fields are described in the module
/// documentation of [`super`]).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ClaimSection {
    pub statistic: String,
    #[serde(default)]
    pub mean: Option<String>,
    #[serde(default)]
    pub probability: Option<String>,
    #[serde(default)]
    pub q: Option<NumOrExpr>,
    pub balls: OneOrMany,
    #[serde(default)]
    pub batch: Option<Vec<NumOrExpr>>,
    pub runs: u64,
    #[serde(default)]
    pub seed: u64,
    pub confidence: f64,
    #[serde(default)]
    pub potential: Option<String>,
    #[serde(default)]
    pub checkpoints: Option<usize>,
    #[serde(default)]
    pub eps: Option<f64>,
    #[serde(default)]
    pub law: Option<String>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub graph: Option<Graphs>,
    #[serde(default)]
    pub strategy: Option<Strategies>,
    #[serde(default)]
    pub long_n: Vec<usize>,
    #[serde(default)]
    pub start: Option<String>,
    #[serde(default)]
    pub start_loads: Option<Vec<f64>>,
    #[serde(default)]
    pub burn_in: Option<NumOrExpr>,
    #[serde(default)]
    pub steady_state: bool,
    #[serde(default)]
    pub exponent: Option<String>,
    #[serde(default)]
    pub exponent_in: Option<String>,
    #[serde(default)]
    pub relative_to: Option<String>,
    #[serde(default)]
    pub compare: Option<String>,
    #[serde(default)]
    pub subtract: Option<NumOrExpr>,
    #[serde(default)]
    pub below: Option<NumOrExpr>,
    #[serde(default)]
    pub level: Option<NumOrExpr>,
    #[serde(default)]
    pub beta: Option<Betas>,
    #[serde(default)]
    pub refresh: Option<NumOrExpr>,
    /// The distributed version of the strategy against an adversary: set averages within this
    /// (an expression in n) of each other get the wrong sign.
    #[serde(default)]
    pub adversarial: Option<NumOrExpr>,
    #[serde(default)]
    pub adversary: Option<Strategies>,
    #[serde(default)]
    pub lookahead: Option<usize>,
    #[serde(default)]
    pub class: Option<String>,
    #[serde(default)]
    pub until: Option<String>,
    #[serde(default)]
    pub every: Option<NumOrExpr>,
}

/// `"<= rhs"` or `">= rhs"`: the side and the rest of the text.
pub(super) fn parse_side(s: &str) -> Option<(Side, &str)> {
    let s = s.trim();
    if let Some(r) = s.strip_prefix("<=") {
        Some((Side::AtMost, r))
    } else if let Some(r) = s.strip_prefix(">=") {
        Some((Side::AtLeast, r))
    } else {
        None
    }
}
