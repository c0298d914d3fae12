//! Growth of a simulated statistic in a size parameter: the power-law exponent with a confidence
//! interval, and least-squares fits of the classes `ln x`, `ln² x`, `√x`, `x`.
//!
//! The exponent is the slope of `ln ȳ(x)` against `ln x` over the grid (ordinary least squares,
//! `a = Σ (uᵢ − ū)(vᵢ − v̄) / Σ (uᵢ − ū)²` with `uᵢ = ln xᵢ`, `vᵢ = ln ȳᵢ`). Its standard error comes
//! from the sampling error of the means: by the delta method `Var(ln ȳᵢ) ≈ (sᵢ/ȳᵢ)²` (`sᵢ` the
//! standard error of `ȳᵢ`), and the slope is linear in the `vᵢ`, so
//! `Var(a) = Σ cᵢ² (sᵢ/ȳᵢ)²` with `cᵢ = (uᵢ − ū)/Σ (uⱼ − ū)²`. The interval is the normal one,
//! `a ± z_{(1+c)/2}·sd(a)`. Over a grid `x ∈ [x₀, x₁]` the slope of `ln ln x` is
//! `(ln ln x₁ − ln ln x₀)/(ln x₁ − ln x₀)` (0.153 for x from 2⁶ to 2¹⁴), twice that for `ln² x`
//! and 1/2 for `√x`: an exponent bound between them separates polylogarithmic growth from `√x`.

use crate::error::{Error, Result};
use statrs::distribution::{ContinuousCDF, Normal};

/// One grid point: the size `x`, the sample mean `ȳ` and its standard error `s`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridMean {
    /// The size (n or b).
    pub x: f64,
    /// The sample mean.
    pub mean: f64,
    /// The standard error of the mean.
    pub stderr: f64,
}

/// The fitted exponent `a` of `ȳ ≈ C·x^a` with its interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct PowerFit {
    /// The exponent `a`.
    pub exponent: f64,
    /// Its standard error.
    pub stderr: f64,
    /// Lower end of the interval.
    pub ci_low: f64,
    /// Upper end of the interval.
    pub ci_high: f64,
    /// The coefficient `C = exp(v̄ − a ū)`.
    pub coefficient: f64,
}

/// The power-law fit of `points` at confidence `level` (see the module documentation).
///
/// ```
/// use balloc::sim::growth::{power_fit, GridMean};
/// // ȳ = 3√x exactly at x = 4, 16, 64: exponent 1/2, coefficient 3.
/// let pts: Vec<GridMean> = [4.0f64, 16.0, 64.0]
///     .iter().map(|&x| GridMean { x, mean: 3.0 * x.sqrt(), stderr: 0.0 }).collect();
/// let f = power_fit(&pts, 0.95).unwrap();
/// assert!((f.exponent - 0.5).abs() < 1e-12 && (f.coefficient - 3.0).abs() < 1e-12);
/// // Standard errors 0.1·ȳ at the two ends, 0 in the middle: u = ln 4·(1, 2, 3), ū = 2 ln 4,
/// // Σ(u − ū)² = 2 ln²4, c = ∓1/(2 ln 4): sd(a) = √2·0.1/(2 ln 4) = 0.0510.
/// let pts: Vec<GridMean> = [(4.0f64, 0.1), (16.0, 0.0), (64.0, 0.1)]
///     .iter().map(|&(x, r)| GridMean { x, mean: 3.0 * x.sqrt(), stderr: r * 3.0 * x.sqrt() }).collect();
/// let f = power_fit(&pts, 0.95).unwrap();
/// assert!((f.stderr - 2f64.sqrt() * 0.1 / (2.0 * 4f64.ln())).abs() < 1e-12);
/// assert!((f.ci_high - 0.5 - 1.959963984540054 * f.stderr).abs() < 1e-9);
/// ```
pub fn power_fit(points: &[GridMean], level: f64) -> Result<PowerFit> {
    if points.len() < 2 {
        return Err(Error::invalid(
            "growth",
            "a growth fit needs at least two sizes in the grid",
        ));
    }
    if !(level > 0.0 && level < 1.0) {
        return Err(Error::invalid(
            "confidence",
            format!("must lie in (0, 1), got {level}"),
        ));
    }
    if let Some(p) = points
        .iter()
        .find(|p| !(p.x > 0.0 && p.mean > 0.0 && p.mean.is_finite() && p.stderr >= 0.0))
    {
        return Err(Error::invalid(
            "growth",
            format!(
                "a power fit needs positive sizes and means, got mean {} at {}",
                p.mean, p.x
            ),
        ));
    }
    let k = points.len() as f64;
    let u: Vec<f64> = points.iter().map(|p| p.x.ln()).collect();
    let v: Vec<f64> = points.iter().map(|p| p.mean.ln()).collect();
    let ub = u.iter().sum::<f64>() / k;
    let vb = v.iter().sum::<f64>() / k;
    let sxx: f64 = u.iter().map(|x| (x - ub).powi(2)).sum();
    if sxx <= 0.0 {
        return Err(Error::invalid(
            "growth",
            "a growth fit needs at least two different sizes",
        ));
    }
    let a = u
        .iter()
        .zip(&v)
        .map(|(x, y)| (x - ub) * (y - vb))
        .sum::<f64>()
        / sxx;
    let var: f64 = points
        .iter()
        .zip(&u)
        .map(|(p, x)| ((x - ub) / sxx).powi(2) * (p.stderr / p.mean).powi(2))
        .sum();
    let sd = var.sqrt();
    let z = Normal::new(0.0, 1.0)
        .map_err(|e| Error::invalid("growth", e.to_string()))?
        .inverse_cdf((1.0 + level) / 2.0);
    Ok(PowerFit {
        exponent: a,
        stderr: sd,
        ci_low: a - z * sd,
        ci_high: a + z * sd,
        coefficient: (vb - a * ub).exp(),
    })
}

/// A named growth class `g(x)`.
pub type Class = (&'static str, fn(f64) -> f64);

/// The growth classes fitted by [`class_fits`].
pub const CLASSES: [Class; 4] = [
    ("ln", |x| x.ln()),
    ("ln^2", |x| x.ln() * x.ln()),
    ("sqrt", |x| x.sqrt()),
    ("linear", |x| x),
];

/// Least-squares fits `ȳ ≈ c·g(x)` of each class of [`CLASSES`] with relative residuals
/// (`c = Σ(g/ȳ)/Σ(g/ȳ)²`), as `(class, c, relative RMS residual)`, best first.
///
/// ```
/// use balloc::sim::growth::{class_fits, GridMean};
/// let pts: Vec<GridMean> = [8.0f64, 64.0, 512.0]
///     .iter().map(|&x| GridMean { x, mean: 2.0 * x.ln() * x.ln(), stderr: 0.0 }).collect();
/// let f = class_fits(&pts);
/// assert_eq!(f[0].0, "ln^2");
/// assert!((f[0].1 - 2.0).abs() < 1e-12 && f[0].2 < 1e-12);
/// ```
pub fn class_fits(points: &[GridMean]) -> Vec<(&'static str, f64, f64)> {
    let mut out: Vec<(&'static str, f64, f64)> = CLASSES
        .iter()
        .map(|&(name, g)| {
            let r: Vec<f64> = points
                .iter()
                .filter(|p| p.mean != 0.0)
                .map(|p| g(p.x) / p.mean)
                .collect();
            let s1: f64 = r.iter().sum();
            let s2: f64 = r.iter().map(|x| x * x).sum();
            let c = if s2 > 0.0 { s1 / s2 } else { 0.0 };
            let rms = if r.is_empty() {
                f64::NAN
            } else {
                (r.iter().map(|x| (1.0 - c * x).powi(2)).sum::<f64>() / r.len() as f64).sqrt()
            };
            (name, c, rms)
        })
        .collect();
    out.sort_by(|a, b| a.2.total_cmp(&b.2));
    out
}
