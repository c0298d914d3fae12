//! Potential functions with a registry. Sum-over-bins potentials expose their per-bin term.
//!
//! * `phi(alpha)`: `Φ = Σ e^{α yᵢ}`; `psi(alpha)`: `Ψ = Σ e^{−α yᵢ}`; `gamma(alpha)`: `Γ = Φ + Ψ`
//!   (Peres–Talwar–Wieder; Los–Sauerwald, *Balanced Allocations in Batches*, §3).
//! * `quadratic`: `Υ = Σ yᵢ²`; `absolute`: `Δ = Σ |yᵢ|` (Los–Sauerwald–Sylvester,
//!   *Mean-Biased Processes*, §5 as reconstructed in docs/derivations.md §5).
//! * `lambda(alpha)`: `Λ = Σ e^{α|yᵢ|}`; `recovery(kappa)`: `V = Σ e^{(κ/n)|yᵢ|}`;
//!   `mean-quantile(boundary)`: `δ`, the fraction of overloaded bins (paper B, Figs. 4.1–4.2; the
//!   formulas are recalled, see each file).
//!
//! Each potential also carries its closed-form expectation after one step or one batch
//! ([`Potential::expected_next`]); `crate::expectation` falls back to enumeration otherwise.

use crate::error::{Error, Result};
use crate::loads::Loads;
use crate::process::{LevelLaw, Param, StepLaw};
use crate::setting::Setting;
use crate::spec::Spec;
use crate::xfloat::XFloat;

mod absolute;
pub mod enclosed;
pub mod exact;
pub(crate) mod exponential;
pub mod graphical;
mod lambda;
mod mean_quantile;
mod quadratic;
mod recovery;
pub(crate) mod shift_form;

pub use absolute::Absolute;
pub use exponential::{Exponential, Side};
pub use lambda::AbsExponential;
pub use mean_quantile::MeanQuantile;
pub use quadratic::{Quadratic, sum_of_squares};
pub use shift_form::ShiftForm;

/// The exact expectation of a potential after one step (or batch) and its change.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Expected {
    /// `E[P(next) | x]`.
    pub next: XFloat,
    /// `E[P(next) − P(x) | x]`, computed without cancellation where possible.
    pub change: XFloat,
}

/// A registry entry for a potential.
#[derive(Debug)]
pub struct PotentialInfo {
    /// The canonical name.
    pub name: &'static str,
    /// The name in claim expressions (`Gamma`, `Upsilon`, ...); with the prefixes `E_`, `dE_`,
    /// `R_` it names the expectations (see `theorems/README.md`).
    pub symbol: &'static str,
    /// Accepted alternative names.
    pub aliases: &'static [&'static str],
    /// The parameters.
    pub params: &'static [Param],
    /// The definition.
    pub summary: &'static str,
    /// The paper reference.
    pub reference: &'static str,
    /// An example spec used by conformance tests.
    pub example: &'static str,
    /// Builds the potential from a parsed spec.
    pub build: fn(&Spec) -> Result<Box<dyn Potential>>,
}

/// A potential function of a load vector.
pub trait Potential: Send + Sync + std::fmt::Debug {
    /// The registry entry.
    fn info(&self) -> &'static PotentialInfo;

    /// The canonical spec string.
    fn spec(&self) -> String;

    /// The value at a load vector (overflow-safe).
    fn value(&self, loads: &Loads) -> XFloat;

    /// The per-bin term `φ(y)` of a sum-over-bins potential `Σ φ(yᵢ)`, as `ln φ(y)` is not needed:
    /// `None` for potentials that are not a sum over bins.
    fn term(&self, y: f64) -> Option<f64>;

    /// The closed-form expectation after one step (or one batch) of the step law `law`, frozen at
    /// `loads`, in `setting`; `Ok(None)` when no closed form covers this combination.
    fn expected_next(
        &self,
        law: &StepLaw,
        loads: &Loads,
        setting: &Setting,
    ) -> Result<Option<Expected>>;

    /// The per-bin term `f` of `P = Σᵢ f(yᵢ)` in the claim language at `n` bins, with the
    /// parameters exactly as given (e.g. `exp((1/10)*y)` for `phi(alpha=0.1)`), when the
    /// potential is a sum over bins. Through it the claim engine evaluates the potential and its
    /// expectations in every number domain (exact rationals, exponential sums, enclosures).
    fn per_bin(&self, _n: usize) -> Option<String> {
        None
    }

    /// The per-bin term of [`Potential::per_bin`] with every numeric parameter written by its
    /// registry name instead of its value (e.g. `exp(alpha*y)` for `phi`, `exp(kappa/16*abs(y))`
    /// for `recovery` at `n = 16`). The claim engine binds the names to the parameters'
    /// expressions in each number domain, so a parameter that is not rational (`α = 1/ln n`) is
    /// enclosed rather than rounded. The default is [`Potential::per_bin`] (no numeric
    /// parameters).
    ///
    /// ```
    /// let p = balloc::potential::parse("recovery(kappa=2)").unwrap();
    /// assert_eq!(p.per_bin_named(16).unwrap(), "exp(kappa/16*abs(y))");
    /// assert_eq!(p.per_bin(16).unwrap(), "exp((2)/16*abs(y))");
    /// ```
    fn per_bin_named(&self, n: usize) -> Option<String> {
        self.per_bin(n)
    }

    /// Enclosures of `(P(x), E[P(next) | x], E[P(next) − P(x) | x])` as
    /// [`Potential::enclosed_expected`], with the numeric parameters given as enclosures
    /// (`params[k]` encloses parameter `k` of [`PotentialInfo::params`]) instead of the
    /// potential's own rational values; `Ok(None)` when none.
    fn enclosed_expected_at(
        &self,
        _params: &[crate::enclosure::Interval],
        _law: &crate::process::ExactStepLaw,
        _x: &[crate::exact::Q],
        _setting: &crate::setting::ExactSetting,
        _prec: u64,
    ) -> Result<Option<crate::potential::enclosed::Enclosed>> {
        Ok(None)
    }

    /// `E[P(next) | x]` in exact rationals, by a closed form that covers settings the per-bin
    /// route does not (e.g. continuous weight laws through their moments); `Ok(None)` when none.
    fn exact_expected(
        &self,
        _law: &crate::process::ExactStepLaw,
        _x: &[crate::exact::Q],
        _setting: &crate::setting::ExactSetting,
    ) -> Result<Option<crate::exact::Q>> {
        Ok(None)
    }

    /// Enclosures of `(P(x), E[P(next) | x], E[P(next) − P(x) | x])` at `prec` bits, by a closed
    /// form that covers settings the per-bin route does not (e.g. weight laws through their
    /// moment generating functions); `Ok(None)` when none.
    fn enclosed_expected(
        &self,
        _law: &crate::process::ExactStepLaw,
        _x: &[crate::exact::Q],
        _setting: &crate::setting::ExactSetting,
        _prec: u64,
    ) -> Result<Option<crate::potential::enclosed::Enclosed>> {
        Ok(None)
    }

    /// The per-bin term as a polynomial plus exponentials ([`ShiftForm`]), when it is one: then
    /// its sums at any mean are combinations of power sums and exponential sums of the loads,
    /// which the exhaustive enumeration extends bin by bin (`None`: the term is not of that form).
    ///
    /// ```
    /// let q = balloc::potential::parse("quadratic").unwrap();
    /// assert_eq!(q.shift_form().unwrap().poly, vec![0.0, 0.0, 1.0]); // y²
    /// let g = balloc::potential::parse("gamma(alpha=0.5)").unwrap();
    /// assert_eq!(g.shift_form().unwrap().exps, vec![(1.0, 0.5), (1.0, -0.5)]);
    /// assert!(balloc::potential::parse("absolute").unwrap().shift_form().is_none());
    /// ```
    fn shift_form(&self) -> Option<ShiftForm> {
        None
    }

    /// Whether [`Potential::level_expectation`] covers `setting` (so callers build a
    /// [`LevelLaw`] only when it will be used).
    fn has_level_form(&self, _setting: &Setting) -> bool {
        false
    }

    /// The value and the closed-form expectation after one step (or batch) from the grouped law
    /// `law` (one evaluation per load level instead of per bin; the same numbers as
    /// [`Potential::value`] and [`Potential::expected_next`] up to rounding). `Ok(None)` when no
    /// level form covers this combination (the caller then takes the per-bin route).
    fn level_expectation(
        &self,
        _law: &LevelLaw,
        _setting: &Setting,
    ) -> Result<Option<(XFloat, Expected)>> {
        Ok(None)
    }
}

/// Every registered potential.
pub static REGISTRY: &[&PotentialInfo] = &[
    &exponential::PHI,
    &exponential::PSI,
    &exponential::GAMMA,
    &quadratic::INFO,
    &absolute::INFO,
    &lambda::INFO,
    &recovery::INFO,
    &mean_quantile::INFO,
];

/// Parses a potential spec such as `gamma(alpha=0.5)`, `phi(0.1)` or `quadratic`.
///
/// ```
/// use balloc::loads::Loads;
/// let g = balloc::potential::parse("gamma(alpha=1)").unwrap();
/// let x = Loads::new(vec![1.0, -1.0]).unwrap(); // y = (1, −1)
/// // Γ = 2(e + e^{−1}) = 4 cosh 1
/// let v = g.value(&x).to_f64_checked().unwrap();
/// assert!((v - 4.0 * 1f64.cosh()).abs() < 1e-14);
/// ```
pub fn parse(text: &str) -> Result<Box<dyn Potential>> {
    let spec = Spec::parse(text)?;
    let info = REGISTRY
        .iter()
        .copied()
        .find(|i| i.name == spec.name || i.aliases.contains(&spec.name.as_str()))
        .ok_or_else(|| {
            let names: Vec<&str> = REGISTRY.iter().map(|i| i.name).collect();
            Error::unknown("potential", &spec.name, &names)
        })?;
    let keys: Vec<&str> = info.params.iter().map(|p| p.name).collect();
    let spec = if keys.len() == 1 {
        spec.with_bare_as(keys[0])
    } else {
        spec
    };
    spec.check_keys(&keys)?;
    (info.build)(&spec)
}

/// `E[|a + tS|]` where `S` is a sum of `k` i.i.d. weights, when computable in closed form.
pub(crate) fn abs_moment(
    weights: &crate::weights::WeightLaw,
    k: u32,
    a: f64,
    t: f64,
) -> Option<f64> {
    if k == 1 {
        return Some(2.0 * weights.positive_part(a, t) - a - t * weights.mean());
    }
    if weights.is_unit() {
        return Some((a + t * k as f64).abs());
    }
    None
}
