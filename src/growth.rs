//! Growth of a quantity in a size parameter: least-squares fits `v(x) ≈ a·g(x)` of the models
//! `g ∈ {1, ln x, ln² x, √x, x, x ln x}` with relative residuals (the constant finder's per-n values,
//! a simulated statistic's means), and the power-law exponent of simulated means with a
//! confidence interval.
//!
//! **The model fit.** With weights `1/v²` (relative residuals, so small and large sizes count
//! alike), `Σ ((v − a g)/v)² = Σ (1 − a r)²` with `r = g/v` is least at `a = Σ r / Σ r²`; the
//! residual reported is the root mean square of `1 − a r` (0 for a perfect fit). Points with
//! `v = 0` carry no relative residual and are left out.
//!
//! **The exponent.**
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
/// use balloc::growth::{power_fit, GridMean};
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

/// A growth model `g(n)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Growth {
    /// `1`
    Constant,
    /// `ln n`
    Log,
    /// `ln² n`
    LogSquared,
    /// `√n`
    Sqrt,
    /// `n`
    Linear,
    /// `n ln n`
    NLogN,
}

impl Growth {
    /// The models the constant finder fits to its per-n values.
    pub const ALL: [Growth; 5] = [
        Growth::Constant,
        Growth::Log,
        Growth::Sqrt,
        Growth::Linear,
        Growth::NLogN,
    ];

    /// `g(n)`.
    pub fn at(self, n: f64) -> f64 {
        match self {
            Growth::Constant => 1.0,
            Growth::Log => n.ln(),
            Growth::LogSquared => n.ln() * n.ln(),
            Growth::Sqrt => n.sqrt(),
            Growth::Linear => n,
            Growth::NLogN => n * n.ln(),
        }
    }

    /// The name as printed.
    pub fn name(self) -> &'static str {
        match self {
            Growth::Constant => "1",
            Growth::Log => "ln n",
            Growth::LogSquared => "ln^2 n",
            Growth::Sqrt => "sqrt n",
            Growth::Linear => "n",
            Growth::NLogN => "n ln n",
        }
    }
}

/// The least-squares fit `v(n) ≈ a·g(n)` of one model.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GrowthFit {
    /// The model.
    pub model: Growth,
    /// The coefficient `a = Σ v g / Σ g²`.
    pub coefficient: f64,
    /// The root mean square of the relative residuals `(v − a g)/v` (0 for a perfect fit).
    pub rel_rms: f64,
}

/// Fits each model of `models` to the points `(n, v)`, best (smallest relative RMS residual)
/// first (see the module documentation).
///
/// ```
/// use balloc::growth::{fit, Growth};
/// // v = 2 ln² n at n = 8, 64, 512: ln² fits exactly, coefficient 2.
/// let pts: Vec<(f64, f64)> = [8.0f64, 64.0, 512.0].iter().map(|&n| (n, 2.0 * n.ln() * n.ln())).collect();
/// let f = fit(&pts, &[Growth::Log, Growth::LogSquared, Growth::Sqrt]);
/// assert_eq!(f[0].model, Growth::LogSquared);
/// assert!((f[0].coefficient - 2.0).abs() < 1e-12 && f[0].rel_rms < 1e-12);
/// // Against ln n alone: r = ln n/(2 ln² n) = 1/(2 ln n), a = Σr/Σr², a residual > 0.
/// assert!(f[1].rel_rms > 0.1);
/// ```
pub fn fit(points: &[(f64, f64)], models: &[Growth]) -> Vec<GrowthFit> {
    let mut fits: Vec<GrowthFit> = models
        .iter()
        .map(|&m| {
            let r: Vec<f64> = points
                .iter()
                .filter(|&&(_, v)| v != 0.0)
                .map(|&(n, v)| m.at(n) / v)
                .collect();
            let s1: f64 = r.iter().sum();
            let s2: f64 = r.iter().map(|x| x * x).sum();
            let a = if s2 > 0.0 { s1 / s2 } else { 0.0 };
            let rel_rms = if r.is_empty() {
                f64::NAN
            } else {
                (r.iter().map(|x| (1.0 - a * x).powi(2)).sum::<f64>() / r.len() as f64).sqrt()
            };
            GrowthFit {
                model: m,
                coefficient: a,
                rel_rms,
            }
        })
        .collect();
    fits.sort_by(|a, b| a.rel_rms.total_cmp(&b.rel_rms));
    fits
}

/// Fits every model of [`Growth::ALL`] to the points `(n, v)`, best first (the constant finder's
/// fit of its per-n values).
///
/// ```
/// // v = 3 ln n exactly: the log model fits with residual 0 and coefficient 3.
/// let pts: Vec<(f64, f64)> = [4.0, 16.0, 64.0, 256.0].iter().map(|&n: &f64| (n, 3.0 * n.ln())).collect();
/// let fits = balloc::growth::fit_growth(&pts);
/// assert_eq!(fits[0].model, balloc::growth::Growth::Log);
/// assert!((fits[0].coefficient - 3.0).abs() < 1e-12 && fits[0].rel_rms < 1e-12);
/// ```
pub fn fit_growth(points: &[(f64, f64)]) -> Vec<GrowthFit> {
    fit(points, &Growth::ALL)
}

/// The growth classes of a simulated statistic's means, with their names in a statistical
/// verdict: `ln`, `ln^2`, `sqrt`, `linear`.
pub const CLASSES: [(&str, Growth); 4] = [
    ("ln", Growth::Log),
    ("ln^2", Growth::LogSquared),
    ("sqrt", Growth::Sqrt),
    ("linear", Growth::Linear),
];

/// [`fit`] of the [`CLASSES`] to the means of `points`, as `(class, c, relative RMS residual)`,
/// best first.
///
/// ```
/// use balloc::growth::{class_fits, GridMean};
/// let pts: Vec<GridMean> = [8.0f64, 64.0, 512.0]
///     .iter().map(|&x| GridMean { x, mean: 2.0 * x.ln() * x.ln(), stderr: 0.0 }).collect();
/// let f = class_fits(&pts);
/// assert_eq!(f[0].0, "ln^2");
/// assert!((f[0].1 - 2.0).abs() < 1e-12 && f[0].2 < 1e-12);
/// ```
pub fn class_fits(points: &[GridMean]) -> Vec<(&'static str, f64, f64)> {
    let pts: Vec<(f64, f64)> = points.iter().map(|p| (p.x, p.mean)).collect();
    let models: Vec<Growth> = CLASSES.iter().map(|c| c.1).collect();
    fit(&pts, &models)
        .into_iter()
        .map(|f| {
            let name = CLASSES.iter().find(|c| c.1 == f.model).map_or("?", |c| c.0);
            (name, f.coefficient, f.rel_rms)
        })
        .collect()
}
