//! The named quantities a claim expression may use (DESIGN §3): `n`, `b`, the file's constants
//! (`alpha` among them for the exponential potentials), the potentials at the state and their
//! exact expectations after one step or batch, gap-type statistics and process constants.
//!
//! | name | meaning |
//! |---|---|
//! | `n`, `b` | bins, batch size |
//! | `Phi`, `Psi`, `Gamma` | `Σ e^{αyᵢ}`, `Σ e^{−αyᵢ}`, `Φ + Ψ` (α = the constant `alpha`) |
//! | `Upsilon`, `Delta` | `Σ yᵢ²`, `Σ |yᵢ|` |
//! | `E_X` | `E[X' | x]` after one step (one batch when b > 1), exact closed form |
//! | `dE_X` | `E[X' − X | x]`, computed without cancellation |
//! | `R_X` | `E[X' | x]/X` (computed in extended range) |
//! | `F_X` | first-order term of one step, X ∈ {Phi, Psi, Gamma}: `α Σᵢ Φᵢ(pᵢ − 1/n)`, `α Σᵢ Ψᵢ(1/n − pᵢ)`, their sum |
//! | `Fq_X` | the same with p replaced by the extremal vector q of eq. (3.2) (needs `vectors`) |
//! | `gap`, `spread` | `max xᵢ − W/n`, `max xᵢ − min xᵢ` |
//! | `ymax`, `ymin` | largest and smallest normalised load |
//! | `frac_over` | fraction of bins with `yᵢ ≥ 0` (overloaded, DESIGN default boundary) |
//! | `C2` | `n·max pᵢ`, the smallest C of condition C2 |
//! | `p(i)`, `eps1(δ)` | allocation probability of rank i; best ε of C1 at δ (functions) |
//! | `Lambda` | `Σ e^{α|yᵢ|}` (paper B's Λ, as recalled; `E_Lambda`, `dE_Lambda`, `R_Lambda` too) |
//! | `delta_minus`, `E_balls`, `drift_*`, `fig_*`, `samples_mt`, `mb_*` | mean-biased processes, exact ([`crate::claim::mean_bias`]) |
//! | `<term>_<set>` | `Σ_{i∈set} term(i)` over the bin classes `Gplus`, `Bplus`, `Gminus`, `Bminus`, `B1`, `B2`, `All` of Los–Sauerwald SPAA 2022 §3 (terms `N`, `Y`, `Phi`, `Psi`, `Gamma`, `Fq_Phi`, `Fq_Psi`, `Fq_Gamma`; [`crate::claim::bin_sets`]) |

/// A potential whose quantities a claim can use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pot {
    /// `Φ`
    Phi,
    /// `Ψ`
    Psi,
    /// `Γ`
    Gamma,
    /// `Υ`
    Upsilon,
    /// `Δ`
    Delta,
    /// `Λ = Σ e^{α|yᵢ|}` (paper B, as recalled)
    Lambda,
}

impl Pot {
    /// Every potential with its name in expressions.
    pub const ALL: [(Pot, &'static str); 6] = [
        (Pot::Phi, "Phi"),
        (Pot::Psi, "Psi"),
        (Pot::Gamma, "Gamma"),
        (Pot::Upsilon, "Upsilon"),
        (Pot::Delta, "Delta"),
        (Pot::Lambda, "Lambda"),
    ];

    /// Whether the potential is exponential (needs `alpha`, no exact rational value).
    pub fn exponential(self) -> bool {
        matches!(self, Pot::Phi | Pot::Psi | Pot::Gamma | Pot::Lambda)
    }

    /// The registry spec of the potential at smoothing parameter `alpha`.
    pub fn spec(self, alpha: f64) -> String {
        match self {
            Pot::Phi => format!("phi(alpha={alpha})"),
            Pot::Psi => format!("psi(alpha={alpha})"),
            Pot::Gamma => format!("gamma(alpha={alpha})"),
            Pot::Upsilon => "quadratic".into(),
            Pot::Delta => "absolute".into(),
            Pot::Lambda => format!("lambda(alpha={alpha})"),
        }
    }

    /// The registry name.
    pub fn registry_name(self) -> &'static str {
        match self {
            Pot::Phi => "phi",
            Pot::Psi => "psi",
            Pot::Gamma => "gamma",
            Pot::Upsilon => "quadratic",
            Pot::Delta => "absolute",
            Pot::Lambda => "lambda",
        }
    }
}

/// Which statistic of a potential.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stat {
    /// The value at the state.
    Value,
    /// The expected value after one step or batch.
    Expected,
    /// The expected change.
    Change,
    /// Expected value over value.
    Ratio,
    /// The first-order term of one step (Los–Sauerwald SPAA 2022 §3, outline item 3):
    /// `α Σᵢ Φᵢ(pᵢ − 1/n)` for Φ, `α Σᵢ Ψᵢ(1/n − pᵢ)` for Ψ, their sum for Γ.
    FirstOrder,
    /// [`Stat::FirstOrder`] with p replaced by the extremal vector q of eq. (3.2),
    /// `qᵢ = (1 − ε)/n` for `i ≤ δn` and `(1 + εδ/(1 − δ))/n` otherwise (δ, ε of `vectors`).
    FirstOrderQ,
}

/// A named quantity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// The number of bins.
    N,
    /// The batch size.
    B,
    /// The file's constant with this index (in name order).
    Const(usize),
    /// A potential statistic.
    Pot(Pot, Stat),
    /// `max xᵢ − W/n`.
    Gap,
    /// `max xᵢ − min xᵢ`.
    Spread,
    /// `max yᵢ`.
    YMax,
    /// `min yᵢ`.
    YMin,
    /// Fraction of bins with `yᵢ ≥ 0`.
    FracOver,
    /// `n·max pᵢ`.
    C2,
    /// A quantity of the mean-biased processes ([`crate::claim::mean_bias`]).
    Bias(crate::claim::mean_bias::BiasQ),
    /// A sum over a class of bins of the outline of Los–Sauerwald SPAA 2022 §3
    /// ([`crate::claim::bin_sets`]).
    Set(crate::claim::bin_sets::SetSum),
}

impl Quantity {
    /// Whether the quantity depends on the load vector (for a rank-based allocation vector).
    pub fn state_dependent(self) -> bool {
        !matches!(
            self,
            Quantity::N | Quantity::B | Quantity::Const(_) | Quantity::C2
        )
    }
}

/// The built-in quantity called `name`, if any.
///
/// ```
/// use balloc::claim::quantity::{builtin, Quantity, Pot, Stat};
/// assert_eq!(builtin("E_Gamma"), Some(Quantity::Pot(Pot::Gamma, Stat::Expected)));
/// assert_eq!(builtin("gap"), Some(Quantity::Gap));
/// assert_eq!(builtin("E_gamma"), None);
/// assert_eq!(builtin("F_Gamma"), Some(Quantity::Pot(Pot::Gamma, Stat::FirstOrder)));
/// assert_eq!(builtin("Fq_Phi"), Some(Quantity::Pot(Pot::Phi, Stat::FirstOrderQ)));
/// assert!(matches!(builtin("Fq_Phi_Bplus"), Some(Quantity::Set(_))));
/// ```
pub fn builtin(name: &str) -> Option<Quantity> {
    let simple = match name {
        "n" => Some(Quantity::N),
        "b" => Some(Quantity::B),
        "gap" => Some(Quantity::Gap),
        "spread" => Some(Quantity::Spread),
        "ymax" => Some(Quantity::YMax),
        "ymin" => Some(Quantity::YMin),
        "frac_over" => Some(Quantity::FracOver),
        "C2" => Some(Quantity::C2),
        _ => None,
    };
    if simple.is_some() {
        return simple;
    }
    if let Some(q) = crate::claim::mean_bias::lookup(name) {
        return Some(Quantity::Bias(q));
    }
    if let Some(q) = crate::claim::bin_sets::lookup(name) {
        return Some(Quantity::Set(q));
    }
    let (stat, rest) = if let Some(r) = name.strip_prefix("E_") {
        (Stat::Expected, r)
    } else if let Some(r) = name.strip_prefix("dE_") {
        (Stat::Change, r)
    } else if let Some(r) = name.strip_prefix("R_") {
        (Stat::Ratio, r)
    } else if let Some(r) = name.strip_prefix("Fq_") {
        (Stat::FirstOrderQ, r)
    } else if let Some(r) = name.strip_prefix("F_") {
        (Stat::FirstOrder, r)
    } else {
        (Stat::Value, name)
    };
    Pot::ALL
        .iter()
        .find(|(_, s)| *s == rest)
        .map(|(p, _)| Quantity::Pot(*p, stat))
}

/// Every built-in name, for error messages.
pub fn builtin_names() -> Vec<String> {
    let mut v: Vec<String> = ["n", "b", "gap", "spread", "ymax", "ymin", "frac_over", "C2"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for (_, p) in Pot::ALL {
        v.push(p.to_string());
    }
    for (_, name) in crate::claim::mean_bias::NAMES {
        v.push(name.to_string());
    }
    v.extend(crate::claim::bin_sets::names());
    for pre in ["E_", "dE_", "R_", "F_", "Fq_"] {
        for (_, p) in Pot::ALL {
            v.push(format!("{pre}{p}"));
        }
    }
    v
}
