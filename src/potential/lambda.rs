//! The exponential potential of paper B, `Λ = Σᵢ exp(α|yᵢ|)`, as recalled.
//!
//! Reference: Los–Sauerwald–Sylvester, *Mean-Biased Processes* (arXiv:2308.05087), Fig. 4.1
//! ("a round s₀ with Λ^{s₀} ≤ cn … which allows us to infer that Gap(m) = O(log n)"). The
//! formula itself was not retrieved: docs/derivations.md §5.4 records, recalled, `Λ = Σ exp(α|yᵢ|)` for a constant
//! `α`, consistent with `Λ ≤ cn ⇒ max|yᵢ| ≤ ln(cn)/α`. If the paper uses a shifted or truncated
//! form (e.g. `exp(α(|yᵢ| − c))` or only the overloaded side), the values here are those of the
//! recalled form only.
//!
//! Closed form (derived; sequential setting, unit weights, any step law with ball counts): an
//! outcome putting `k` balls into `j` moves every `yᵢ` by `−k/n` and `yⱼ` by `+k`. With
//! `φ(z) = e^{α|z|}` and `Aₖ = Σᵢ [φ(yᵢ − k/n) − φ(yᵢ)]`,
//! `E[Λ' − Λ] = Σ_o p_o (A_{k_o} − [φ(yⱼ − k/n) − φ(yⱼ)] + [φ(yⱼ + k − k/n) − φ(yⱼ)])`,
//! which costs O(n) per distinct ball count. Each difference is evaluated as
//! `e^{α|z|}·expm1(α(|z'| − |z|))` in the log domain ([`XFloat`]), so nothing overflows and
//! small changes keep their relative precision. Batches and non-unit weights: `Ok(None)` (the
//! enumerator handles finite weight laws).

use super::{Expected, Potential, PotentialInfo};
use crate::error::{Error, Result};
use crate::loads::Loads;
use crate::process::{Param, StepLaw};
use crate::setting::Setting;
use crate::spec::Spec;
use crate::xfloat::XFloat;

/// How the smoothing parameter is chosen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Smoothing {
    /// A constant `α` (Λ).
    Constant(f64),
    /// `α = κ/n` (the recovery potential V).
    PerBin(f64),
}

/// The exact value of a parameter as written (the binary value of the `f64` otherwise).
fn exact_of(v: f64) -> crate::exact::Q {
    crate::spec::parse_ratio(&format!("{v:e}"))
        .unwrap_or_else(|_| crate::exact::from_float(v).unwrap_or_default())
}

/// `Σᵢ exp(α|yᵢ|)`: `Λ` (constant `α`) or `V` (`α = κ/n`, see the potential `recovery`).
///
/// ```
/// use balloc::loads::Loads;
/// let l = balloc::potential::parse("lambda(alpha=1)").unwrap();
/// let x = Loads::new(vec![2.0, 0.0]).unwrap(); // y = (1, −1)
/// assert!((l.value(&x).to_f64_checked().unwrap() - 2.0 * 1f64.exp()).abs() < 1e-13);
/// // Huge loads stay finite in the log domain: ln Λ = 1000 + ln 2.
/// let big = Loads::new(vec![2000.0, 0.0]).unwrap();
/// assert!((l.value(&big).ln_abs() - (1000.0 + 2f64.ln())).abs() < 1e-9);
/// ```
#[derive(Debug, Clone)]
pub struct AbsExponential {
    pub(super) smoothing: Smoothing,
    /// The registry entry: `lambda`, or `recovery` for `V` (`super::recovery`).
    pub(super) info: &'static PotentialInfo,
}

pub(super) static INFO: PotentialInfo = PotentialInfo {
    name: "lambda",
    symbol: "Lambda",
    aliases: &["Λ", "abs-exp"],
    params: &[Param {
        name: "alpha",
        default: None,
        doc: "smoothing parameter α > 0",
    }],
    summary: "Λ = Σ_i exp(α |y_i|) (as recalled)",
    reference: "Los–Sauerwald–Sylvester, Mean-Biased Processes (arXiv:2308.05087), Fig. 4.1; formula recalled (docs/derivations.md §5.4)",
    example: "lambda(alpha=0.5)",
    build,
};

fn build(spec: &Spec) -> Result<Box<dyn Potential>> {
    if spec.get("alpha").is_none() {
        return Err(Error::invalid(
            "parameter `alpha` of `lambda`",
            "is required, e.g. lambda(alpha=0.5)",
        ));
    }
    Ok(Box::new(AbsExponential::lambda(
        spec.get_f64("alpha", 0.0)?,
    )?))
}

pub(super) fn positive(name: &str, v: f64) -> Result<f64> {
    if v > 0.0 && v.is_finite() {
        Ok(v)
    } else {
        Err(Error::invalid(
            name,
            format!("must be a finite number > 0, got {v}"),
        ))
    }
}

impl AbsExponential {
    /// `Λ` with smoothing parameter `alpha` (finite, `> 0`).
    pub fn lambda(alpha: f64) -> Result<AbsExponential> {
        Ok(AbsExponential {
            smoothing: Smoothing::Constant(positive("alpha", alpha)?),
            info: &INFO,
        })
    }

    /// The smoothing parameter at `n` bins.
    pub fn alpha(&self, n: usize) -> f64 {
        match self.smoothing {
            Smoothing::Constant(a) => a,
            Smoothing::PerBin(k) => k / n as f64,
        }
    }
}

/// `φ(z') − φ(z)` for `φ = e^{α|·|}` as a scaled number, without cancellation.
fn diff(alpha: f64, z: f64, z_next: f64) -> XFloat {
    XFloat::from_parts((alpha * (z_next.abs() - z.abs())).exp_m1(), alpha * z.abs())
}

impl Potential for AbsExponential {
    fn info(&self) -> &'static PotentialInfo {
        self.info
    }

    fn spec(&self) -> String {
        match self.smoothing {
            Smoothing::Constant(a) => format!("lambda(alpha={a})"),
            Smoothing::PerBin(k) => format!("recovery(kappa={k})"),
        }
    }

    fn per_bin_named(&self, n: usize) -> Option<String> {
        Some(match self.smoothing {
            Smoothing::Constant(_) => "exp(alpha*abs(y))".into(),
            Smoothing::PerBin(_) => format!("exp(kappa/{n}*abs(y))"),
        })
    }

    fn per_bin(&self, n: usize) -> Option<String> {
        Some(match self.smoothing {
            Smoothing::Constant(a) => format!("exp(({})*abs(y))", exact_of(a)),
            Smoothing::PerBin(k) => format!("exp(({})/{n}*abs(y))", exact_of(k)),
        })
    }

    fn value(&self, loads: &Loads) -> XFloat {
        let a = self.alpha(loads.n());
        XFloat::sum_exp(
            loads
                .normalized()
                .iter()
                .map(|v| a * v.abs())
                .collect::<Vec<_>>(),
        )
    }

    fn term(&self, y: f64) -> Option<f64> {
        match self.smoothing {
            Smoothing::Constant(a) => Some((a * y.abs()).exp()),
            Smoothing::PerBin(_) => None,
        }
    }

    fn expected_next(
        &self,
        law: &StepLaw,
        loads: &Loads,
        setting: &Setting,
    ) -> Result<Option<Expected>> {
        if setting.batch != 1 || !setting.weights.is_unit() {
            return Ok(None);
        }
        let y = loads.normalized();
        let n = y.len() as f64;
        let alpha = self.alpha(y.len());
        // Total probability of each ball count, and A_k.
        let mut counts: Vec<(u32, f64)> = Vec::new();
        for o in &law.outcomes {
            match counts.iter_mut().find(|(k, _)| *k == o.balls) {
                Some(c) => c.1 += o.prob,
                None => counts.push((o.balls, o.prob)),
            }
        }
        let mut change = XFloat::from_f64(0.0);
        for &(k, p) in &counts {
            let s = k as f64 / n;
            for &v in &y {
                change = change.add(diff(alpha, v, v - s).scale(p));
            }
        }
        for o in law.outcomes.iter().filter(|o| o.prob > 0.0) {
            let k = o.balls as f64;
            let v = y[o.bin];
            let fix = diff(alpha, v, v + k - k / n).add(diff(alpha, v, v - k / n).scale(-1.0));
            change = change.add(fix.scale(o.prob));
        }
        let value = self.value(loads);
        let next = value.add(change);
        if next.is_nan() || change.is_nan() {
            return Err(Error::invalid(
                "loads",
                "the expectation is not a number (check the loads and α)",
            ));
        }
        Ok(Some(Expected { next, change }))
    }
}
