//! Statistical estimates with confidence intervals, for reports and for statistical claims.
//!
//! * [`mean_ci`]: the sample mean with its standard error `s/√R` and the two-sided Student-t
//!   interval `mean ± t_{R−1, (1+c)/2} · s/√R` (statrs' inverse CDF; statrs has no interval helper).
//! * [`proportion_ci`]: a proportion with the exact Clopper–Pearson interval (Beta quantiles).
//! * [`estimate`]: simulate a configuration and estimate any per-run quantity; [`Estimate::decide`]
//!   turns an estimate into a verdict against a threshold, `inconclusive` when the interval
//!   straddles it. A claim engine calls these with the confidence level it states.
//!
//! The t interval assumes the per-run values are i.i.d. with finite variance (runs are independent
//! by construction, see [`crate::rng`]); it is approximate for small `R` and skewed values.

use super::{Model, Plan, RunResult, simulate};

/// What outputs say in place of a standard error and an interval computed from one run.
pub const UNDEFINED_FOR_ONE_RUN: &str = "undefined for one run";
use crate::error::{Error, Result};
use statrs::distribution::{Beta, ContinuousCDF, StudentsT};

/// A point estimate with a two-sided confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Estimate {
    /// The number of samples `R`.
    pub samples: usize,
    /// The estimate (sample mean or proportion).
    pub mean: f64,
    /// Its standard error (NaN when `R < 2` for a mean).
    pub stderr: f64,
    /// Lower end of the interval (−∞ when `R < 2` for a mean).
    pub ci_low: f64,
    /// Upper end of the interval (+∞ when `R < 2` for a mean).
    pub ci_high: f64,
    /// The confidence level `c` of the interval.
    pub confidence: f64,
}

/// A statistical verdict on "the quantity is below (or above) a threshold".
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// The whole interval is on the claimed side.
    Holds,
    /// The whole interval is on the other side.
    Refuted,
    /// The interval contains the threshold.
    Inconclusive,
}

/// Which side of a threshold a claim puts the quantity on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The quantity is claimed to be at most the threshold.
    AtMost,
    /// The quantity is claimed to be at least the threshold.
    AtLeast,
}

impl Estimate {
    /// The verdict of "quantity `side` `threshold`" at this interval's confidence.
    ///
    /// ```
    /// use balloc::sim::statistic::{mean_ci, Decision, Side};
    /// let e = mean_ci(&[1.0, 2.0, 3.0], 0.95).unwrap(); // 2 ± 4.303·0.577 = [−0.48, 4.48]
    /// assert_eq!(e.decide(Side::AtMost, 5.0), Decision::Holds);
    /// assert_eq!(e.decide(Side::AtMost, 3.0), Decision::Inconclusive);
    /// assert_eq!(e.decide(Side::AtLeast, 5.0), Decision::Refuted);
    /// ```
    pub fn decide(&self, side: Side, threshold: f64) -> Decision {
        let (below, above) = (self.ci_high <= threshold, self.ci_low >= threshold);
        match (side, below, above) {
            (Side::AtMost, true, _) | (Side::AtLeast, _, true) => Decision::Holds,
            (Side::AtMost, _, true) | (Side::AtLeast, true, _) => Decision::Refuted,
            _ => Decision::Inconclusive,
        }
    }
}

fn check_confidence(c: f64) -> Result<()> {
    if !(c > 0.0 && c < 1.0) {
        return Err(Error::invalid(
            "confidence",
            format!("must lie in (0, 1), got {c}"),
        ));
    }
    Ok(())
}

/// The mean of `xs` with its standard error and Student-t interval at confidence `c`.
///
/// ```
/// use balloc::sim::statistic::mean_ci;
/// // mean 2, s = 1, stderr = 1/√3; t_{2, 0.975} = 4.302652729911275 (tables: 4.303).
/// let e = mean_ci(&[1.0, 2.0, 3.0], 0.95).unwrap();
/// assert_eq!(e.mean, 2.0);
/// assert!((e.stderr - 1.0 / 3f64.sqrt()).abs() < 1e-15);
/// assert!((e.ci_high - (2.0 + 4.302652729911275 / 3f64.sqrt())).abs() < 1e-9);
/// ```
pub fn mean_ci(xs: &[f64], c: f64) -> Result<Estimate> {
    check_confidence(c)?;
    if xs.is_empty() {
        return Err(Error::invalid("samples", "need at least one value"));
    }
    if let Some(v) = xs.iter().find(|v| !v.is_finite()) {
        return Err(Error::invalid("samples", format!("contain {v}")));
    }
    let r = xs.len();
    let mean = xs.iter().sum::<f64>() / r as f64;
    if r < 2 {
        return Ok(Estimate {
            samples: r,
            mean,
            stderr: f64::NAN,
            ci_low: f64::NEG_INFINITY,
            ci_high: f64::INFINITY,
            confidence: c,
        });
    }
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (r - 1) as f64;
    let se = (var / r as f64).sqrt();
    let t = StudentsT::new(0.0, 1.0, (r - 1) as f64)
        .map_err(|e| Error::invalid("samples", e.to_string()))?
        .inverse_cdf((1.0 + c) / 2.0);
    Ok(Estimate {
        samples: r,
        mean,
        stderr: se,
        ci_low: mean - t * se,
        ci_high: mean + t * se,
        confidence: c,
    })
}

/// The proportion `k/r` with the exact (Clopper–Pearson) interval at confidence `c`.
///
/// ```
/// use balloc::sim::statistic::proportion_ci;
/// // 0 successes in 10: the upper end solves (1 − p)^10 = 0.025, p = 1 − 0.025^{1/10}.
/// let e = proportion_ci(0, 10, 0.95).unwrap();
/// assert_eq!(e.ci_low, 0.0);
/// assert!((e.ci_high - (1.0 - 0.025f64.powf(0.1))).abs() < 1e-9);
/// ```
pub fn proportion_ci(k: u64, r: u64, c: f64) -> Result<Estimate> {
    check_confidence(c)?;
    if r == 0 || k > r {
        return Err(Error::invalid(
            "proportion",
            format!("need 0 ≤ successes ≤ trials and trials ≥ 1, got {k}/{r}"),
        ));
    }
    let a = (1.0 - c) / 2.0;
    let beta = |x: f64, y: f64, q: f64| -> Result<f64> {
        Ok(Beta::new(x, y)
            .map_err(|e| Error::invalid("proportion", e.to_string()))?
            .inverse_cdf(q))
    };
    let (kf, rf) = (k as f64, r as f64);
    let lo = if k == 0 {
        0.0
    } else {
        beta(kf, rf - kf + 1.0, a)?
    };
    let hi = if k == r {
        1.0
    } else {
        beta(kf + 1.0, rf - kf, 1.0 - a)?
    };
    let p = kf / rf;
    Ok(Estimate {
        samples: r as usize,
        mean: p,
        stderr: (p * (1.0 - p) / rf).sqrt(),
        ci_low: lo,
        ci_high: hi,
        confidence: c,
    })
}

/// Simulates `model` under `plan` and estimates the mean of `f(run)` at confidence `c`.
///
/// ```
/// use balloc::sim::{Config, Plan, statistic::estimate};
/// // One-Choice, n = 1, m = 5: the gap is always 0.
/// let cfg = Config::parse("one-choice", 1, 1, "unit", "random").unwrap();
/// let e = estimate(&cfg, &Plan::new(5, 4, 1), 0.99, |r| r.final_gap).unwrap();
/// assert_eq!((e.mean, e.ci_low, e.ci_high), (0.0, 0.0, 0.0));
/// ```
pub fn estimate(
    model: &dyn Model,
    plan: &Plan,
    c: f64,
    f: impl Fn(&RunResult) -> f64,
) -> Result<Estimate> {
    let out = simulate(model, plan, &|| {})?;
    let xs: Vec<f64> = out.runs.iter().map(f).collect();
    mean_ci(&xs, c)
}

/// Simulates and estimates `P(pred(run))` with a Clopper–Pearson interval at confidence `c`
/// (e.g. "the gap stays below 2 ln n with probability at least 0.9").
pub fn estimate_probability(
    model: &dyn Model,
    plan: &Plan,
    c: f64,
    pred: impl Fn(&RunResult) -> bool,
) -> Result<Estimate> {
    let out = simulate(model, plan, &|| {})?;
    let k = out.runs.iter().filter(|r| pred(r)).count() as u64;
    proportion_ci(k, out.runs.len() as u64, c)
}
