//! The named quantities of claim expressions and how names resolve.
//!
//! | name | meaning |
//! |---|---|
//! | `n`, `b`, `W` | bins, batch size, total load `Σ xᵢ` |
//! | constants | the file's `[constants]` (values, fractions or expressions in `n`, `b`, other constants) |
//! | `X` | a potential at the state: every registered potential by its symbol (`Phi`, `Psi`, `Gamma`, `Upsilon`, `Delta`, `Lambda`, `V`, `MeanQuantile`), a potential of the file's `[potentials]`, or a definition of the prelude below |
//! | `E_X`, `dE_X`, `R_X` | `E[X' | x]` after one step (one batch when b > 1), `E[X' − X | x]`, `E[X' | x]/X` |
//! | `E2_X`, `dE2_X`, `R2_X`, … | the same after `k` steps (or batches), `k ≤` [`MAX_STEPS`] (the law after `k − 1` steps: `crate::claim::env::law`) |
//! | `P(event)`, `P{k}(event)`, `E(value)`, `E{k}(value)` | the probability of an event, the expectation of a value, over the exact law of the state after one step (batch) or `k`; primed names (`gap'`, `Phi'`, `x'` in a binder) read that state |
//! | `gap`, `spread`, `ymax`, `ymin`, `frac_over` | `max x − W/n`, `max x − min x`, `max y`, `min y`, `#{y ≥ 0}/n` |
//! | `C2` | `n·max pᵢ` (the smallest C of condition C2) |
//! | `p(i)`, `eps1(δ)` | the allocation probability of rank i; the best ε of C1 at δ |
//! | mean-bias names | `delta_minus`, `E_balls`, `drift_*`, `fig_*`, `samples_mt`, `mb_*`, `dE_Delta_rule` ([`crate::claim::mean_bias`]) |
//!
//! The **prelude** defines further quantities in the claim language itself (so they have every
//! number domain, and exact certification, for free):
//!
//! | name | definition |
//! |---|---|
//! | `F_Phi`, `F_Psi`, `F_Gamma` | `α Σᵢ e^{αyᵢ}(pᵢ − 1/n)`, `α Σᵢ e^{−αyᵢ}(1/n − pᵢ)`, their sum: the first-order term of one step (Los–Sauerwald, SPAA 2022, §3, outline item 3) |
//! | `Fq_Phi`, `Fq_Psi`, `Fq_Gamma` | the same with `p` replaced by the extremal vector q of eq. (3.2) of `[setting.vectors]` |
//! | `<term>_<set>` | `Σ_{i∈set} term(i)` over the bin classes of the same §3 (`Gplus`, `Bplus`, `Gminus`, `Bminus`, `B1`, `B2`, `All`; terms `N`, `Y`, `Phi`, `Psi`, `Gamma`, `Fq_Phi`, `Fq_Psi`, `Fq_Gamma`), with the constants `delta` (and `eps`, `alpha`) |

use crate::claim::mean_bias::BiasQ;
use crate::lang::Expr;

/// The most steps a `E{k}_X` quantity may take ([`crate::limits::NEXT_STEPS`]).
pub const MAX_STEPS: u32 = crate::limits::NEXT_STEPS.max as u32;

/// Which statistic of a potential.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stat {
    /// The value at the state.
    Value,
    /// `E[X' | x]` after `k` steps.
    Expected(u32),
    /// `E[X' − X | x]` after `k` steps.
    Change(u32),
    /// `E[X' | x]/X` after `k` steps.
    Ratio(u32),
}

impl Stat {
    /// The number of steps (0 for the value).
    pub fn steps(self) -> u32 {
        match self {
            Stat::Value => 0,
            Stat::Expected(k) | Stat::Change(k) | Stat::Ratio(k) => k,
        }
    }
}

/// A named quantity at a state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Quantity {
    /// The number of bins.
    N,
    /// The batch size.
    B,
    /// The total load `W`.
    Total,
    /// A constant of the file.
    Const(usize),
    /// `max xᵢ − W/n`.
    Gap,
    /// `max xᵢ − min xᵢ`.
    Spread,
    /// `max yᵢ`.
    YMax,
    /// `min yᵢ`.
    YMin,
    /// `#{yᵢ ≥ 0}/n`.
    FracOver,
    /// `n·max pᵢ`.
    C2,
    /// A mean-bias quantity.
    Bias(BiasQ),
    /// A statistic of a potential (index into the claim's potential table).
    Pot(usize, Stat),
}

/// Where a parameter of a registered potential comes from.
#[derive(Debug, Clone)]
pub enum ParamSource {
    /// A literal value of the spec (as written).
    Literal(String),
    /// An expression over slot 0 = `n`, 1 = `b`, `2 + j` = constant `j`.
    Expr(Expr),
}

/// A potential a claim uses.
#[derive(Debug, Clone)]
pub enum PotDef {
    /// A registered potential with its parameters.
    Registered {
        /// Its name in expressions.
        symbol: String,
        /// The registry entry.
        info: &'static crate::potential::PotentialInfo,
        /// The parameters (name, source).
        params: Vec<(String, ParamSource)>,
    },
    /// A potential defined by an expression (the file's `[potentials]` or the prelude).
    Defined {
        /// Its name.
        name: String,
        /// The definition as written.
        text: String,
        /// The compiled definition (over the claim's slots).
        expr: Expr,
    },
}

impl PotDef {
    /// Its name in expressions.
    pub fn name(&self) -> &str {
        match self {
            PotDef::Registered { symbol, .. } => symbol,
            PotDef::Defined { name, .. } => name,
        }
    }
}

/// The simple names (not potentials).
pub const SIMPLE: &[(&str, Quantity)] = &[
    ("n", Quantity::N),
    ("b", Quantity::B),
    ("W", Quantity::Total),
    ("gap", Quantity::Gap),
    ("spread", Quantity::Spread),
    ("ymax", Quantity::YMax),
    ("ymin", Quantity::YMin),
    ("frac_over", Quantity::FracOver),
    ("C2", Quantity::C2),
];

/// Splits a prefixed potential name: `E_Gamma` → (`Expected(1)`, `Gamma`), `dE3_Phi` →
/// (`Change(3)`, `Phi`), `Gamma` → (`Value`, `Gamma`). `Err` for a step count out of range.
///
/// ```
/// use balloc::claim::quantity::{split_prefix, Stat};
/// assert_eq!(split_prefix("E_Gamma").unwrap(), (Stat::Expected(1), "Gamma"));
/// assert_eq!(split_prefix("dE2_Omega").unwrap(), (Stat::Change(2), "Omega"));
/// assert_eq!(split_prefix("R_Phi").unwrap(), (Stat::Ratio(1), "Phi"));
/// assert_eq!(split_prefix("Gamma").unwrap(), (Stat::Value, "Gamma"));
/// assert_eq!(split_prefix("E9_Gamma").unwrap(), (Stat::Expected(9), "Gamma"));
/// assert!(split_prefix("E257_Gamma").unwrap_err().contains("limits::NEXT_STEPS"));
/// ```
pub fn split_prefix(name: &str) -> Result<(Stat, &str), String> {
    for (pre, make) in [
        ("dE", Stat::Change as fn(u32) -> Stat),
        ("E", Stat::Expected as fn(u32) -> Stat),
        ("R", Stat::Ratio as fn(u32) -> Stat),
    ] {
        let Some(rest) = name.strip_prefix(pre) else {
            continue;
        };
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        let Some(base) = rest[digits.len()..].strip_prefix('_') else {
            continue;
        };
        if base.is_empty() {
            continue;
        }
        let k: u32 = if digits.is_empty() {
            1
        } else {
            digits
                .parse()
                .map_err(|_| format!("`{name}`: bad step count"))?
        };
        if k == 0 || k > MAX_STEPS {
            return Err(format!(
                "`{name}`: {k} steps; E{{k}}_X takes 1 ≤ k ≤ {MAX_STEPS} (limits::NEXT_STEPS; {})",
                crate::limits::NEXT_STEPS.reason
            ));
        }
        return Ok((make(k), base));
    }
    Ok((Stat::Value, name))
}

/// The prelude: definitions in the claim language, by name. `{vd}`, `{ve}` stand for δ and ε of
/// `[setting.vectors]` (exact literals), substituted when the name is used.
///
/// ```
/// use balloc::claim::quantity::prelude;
/// assert!(prelude("F_Gamma").unwrap().contains("sum("));
/// assert!(prelude("Phi_Gplus").unwrap().contains("rank <= delta*n"));
/// assert!(prelude("Gama").is_none());
/// ```
pub fn prelude(name: &str) -> Option<String> {
    let phi = "exp(alpha*y)";
    let psi = "exp(-alpha*y)";
    // The extremal vector q of eq. (3.2): (1 − ε)/n on ranks ≤ δn, (1 + εδ/(1 − δ))/n after.
    let qv = "((rank <= {vd}*n)*(1 - {ve}) + (rank > {vd}*n)*(1 + {ve}*{vd}/(1 - {vd})))/n";
    // The same with the file's constants delta and eps (the set sums of §3).
    let qc = "((rank <= delta*n)*(1 - eps) + (rank > delta*n)*(1 + eps*delta/(1 - delta)))/n";
    let first = |prob: &str, which: &str| -> String {
        match which {
            "Phi" => format!("alpha*{phi}*({prob} - 1/n)"),
            "Psi" => format!("alpha*{psi}*(1/n - {prob})"),
            _ => format!("alpha*({phi} - {psi})*({prob} - 1/n)"),
        }
    };
    if let Some(w) = name.strip_prefix("F_")
        && ["Phi", "Psi", "Gamma"].contains(&w)
    {
        return Some(format!("sum({})", first("p", w)));
    }
    if let Some(w) = name.strip_prefix("Fq_")
        && ["Phi", "Psi", "Gamma"].contains(&w)
    {
        return Some(format!("sum({})", first(qv, w)));
    }
    // Set sums <term>_<set>.
    let (head, set) = name.rsplit_once('_')?;
    let over = "y >= 0";
    let good = "rank <= delta*n";
    let b1_end = "rank <= delta*n + floor((n - delta*n)/2)";
    let pred = match set {
        "Gplus" => format!("{over} && {good}"),
        "Bplus" => format!("{over} && !({good})"),
        "Gminus" => format!("!({over}) && !({good})"),
        "Bminus" => format!("!({over}) && {good}"),
        "B1" => format!("{over} && !({good}) && {b1_end}"),
        "B2" => format!("{over} && !({good}) && !({b1_end})"),
        "All" => "1 == 1".to_string(),
        _ => return None,
    };
    let term = match head {
        "N" => "1".to_string(),
        "Y" => "y".to_string(),
        "Phi" => phi.to_string(),
        "Psi" => psi.to_string(),
        "Gamma" => format!("{phi} + {psi}"),
        "Fq_Phi" => first(qc, "Phi"),
        "Fq_Psi" => first(qc, "Psi"),
        "Fq_Gamma" => first(qc, "Gamma"),
        _ => return None,
    };
    Some(format!("sum({term}, {pred})"))
}

/// Every prelude name (for error messages).
pub fn prelude_names() -> Vec<String> {
    let mut v: Vec<String> = ["F_", "Fq_"]
        .iter()
        .flat_map(|p| ["Phi", "Psi", "Gamma"].map(|w| format!("{p}{w}")))
        .collect();
    for t in [
        "N", "Y", "Phi", "Psi", "Gamma", "Fq_Phi", "Fq_Psi", "Fq_Gamma",
    ] {
        for s in ["Gplus", "Bplus", "Gminus", "Bminus", "B1", "B2", "All"] {
            v.push(format!("{t}_{s}"));
        }
    }
    v
}

/// Substitutes δ and ε of `[setting.vectors]` into a prelude definition: the texts that stand for
/// them, a number in parentheses (`"(1/2)"`) or a constant's name in parentheses (`"(delta)"`).
///
/// ```
/// use balloc::claim::quantity::substitute_vectors;
/// assert_eq!(substitute_vectors("{vd}*n + {ve}", "(1/2)", "(eps)"), "(1/2)*n + (eps)");
/// ```
pub fn substitute_vectors(text: &str, delta: &str, eps: &str) -> String {
    text.replace("{vd}", delta).replace("{ve}", eps)
}
