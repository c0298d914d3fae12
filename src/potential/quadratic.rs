//! The quadratic potential `Υ = Σ yᵢ²`.
//!
//! Reference: Los–Sauerwald–Sylvester, *Mean-Biased Processes* (arXiv:2308.05087), the quadratic
//! potential of the abstract ("linear, quadratic and exponential potential functions").
//!
//! Closed form (docs/derivations.md §4, derived): one sample changes `yᵢ` by `ζᵢ = S(1{bin=i} − 1/n)`; with
//! `μᵢ = E[ζᵢ]`, `νᵢ = E[ζᵢ²]` and `b` i.i.d. samples on the frozen vector,
//! `E[Υ'] = Σᵢ [yᵢ² + 2b yᵢ μᵢ + b νᵢ + b(b − 1) μᵢ²]`.

use super::{Expected, Potential, PotentialInfo};
use crate::error::Result;
use crate::loads::Loads;
use crate::process::StepLaw;
use crate::setting::Setting;
use crate::xfloat::XFloat;

/// `Υ = Σ yᵢ²`.
///
/// ```
/// use balloc::loads::Loads;
/// use balloc::potential::Potential;
/// let q = balloc::potential::parse("quadratic").unwrap();
/// let x = Loads::new(vec![3.0, 1.0]).unwrap(); // y = (1, −1)
/// assert_eq!(q.value(&x).to_f64_checked(), Some(2.0));
/// ```
#[derive(Debug, Clone)]
pub struct Quadratic;

pub(super) static INFO: PotentialInfo = PotentialInfo {
    name: "quadratic",
    symbol: "Upsilon",
    aliases: &["upsilon", "Υ"],
    params: &[],
    summary: "Υ = Σ_i y_i^2",
    reference: "Los–Sauerwald–Sylvester, Mean-Biased Processes (arXiv:2308.05087), §5",
    example: "quadratic",
    build: |_| Ok(Box::new(Quadratic)),
};

impl Potential for Quadratic {
    fn info(&self) -> &'static PotentialInfo {
        &INFO
    }
    fn spec(&self) -> String {
        "quadratic".into()
    }
    fn per_bin(&self, _n: usize) -> Option<String> {
        Some("y^2".into())
    }

    fn exact_expected(
        &self,
        law: &crate::process::ExactStepLaw,
        x: &[crate::exact::Q],
        setting: &crate::setting::ExactSetting,
    ) -> Result<Option<crate::exact::Q>> {
        crate::potential::exact::quadratic::expected_next(law, x, setting).map(Some)
    }

    fn value(&self, loads: &Loads) -> XFloat {
        sum_of_squares(&loads.normalized())
    }
    fn term(&self, y: f64) -> Option<f64> {
        Some(y * y)
    }
    fn shift_form(&self) -> Option<super::ShiftForm> {
        Some(super::ShiftForm {
            poly: vec![0.0, 0.0, 1.0],
            exps: Vec::new(),
        })
    }
    fn expected_next(
        &self,
        law: &StepLaw,
        loads: &Loads,
        setting: &Setting,
    ) -> Result<Option<Expected>> {
        let y = loads.normalized();
        let n = y.len() as f64;
        let (m1, m2) = (setting.weights.mean(), setting.weights.second_moment());
        // Moments of S_k, a sum of k i.i.d. weights.
        let es = |k: u32| k as f64 * m1;
        let es2 = |k: u32| k as f64 * m2 + (k as f64) * (k as f64 - 1.0) * m1 * m1;
        // a_i = Σ_{o at i} p_o E[S], b_i = Σ_{o at i} p_o E[S²]; A, B the totals.
        let (mut a_tot, mut b_tot) = (0.0, 0.0);
        let mut a = vec![0.0; y.len()];
        let mut bb = vec![0.0; y.len()];
        for o in &law.outcomes {
            a[o.bin] += o.prob * es(o.balls);
            bb[o.bin] += o.prob * es2(o.balls);
            a_tot += o.prob * es(o.balls);
            b_tot += o.prob * es2(o.balls);
        }
        let b = setting.batch as f64;
        let mut change = 0.0;
        for i in 0..y.len() {
            let mu = a[i] - a_tot / n;
            // ν_i = b_i(1 − 1/n)² + (B − b_i)/n²
            let nu = bb[i] * (1.0 - 1.0 / n).powi(2) + (b_tot - bb[i]) / (n * n);
            change += 2.0 * b * y[i] * mu + b * nu + b * (b - 1.0) * mu * mu;
        }
        let change = XFloat::from_f64(change);
        Ok(Some(Expected {
            next: sum_of_squares(&y).add(change),
            change,
        }))
    }
}

/// `Σ yᵢ²` without overflow: the plain sum when it is finite, else `M²·Σ (yᵢ/M)²` with
/// `M = max |yᵢ|` in the log domain (`ln = 2 ln M + ln Σ (yᵢ/M)²`; docs/conventions.md §2).
///
/// ```
/// use balloc::potential::sum_of_squares;
/// assert_eq!(sum_of_squares(&[3.0, -4.0]).to_f64_checked(), Some(25.0));
/// // y = ±5e159: Σ y² = 5e319 > f64::MAX, ln = ln 5 + 319 ln 10.
/// let s = sum_of_squares(&[5e159, -5e159]);
/// assert_eq!(s.to_f64_checked(), None);
/// assert!((s.ln_abs() - (5f64.ln() + 319.0 * 10f64.ln())).abs() < 1e-12);
/// ```
pub fn sum_of_squares(y: &[f64]) -> XFloat {
    let plain: f64 = y.iter().map(|v| v * v).sum();
    if plain.is_finite() {
        return XFloat::from_f64(plain);
    }
    let m = y.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    let s: f64 = y.iter().map(|v| (v / m) * (v / m)).sum();
    XFloat::from_parts(s, 2.0 * m.ln())
}
