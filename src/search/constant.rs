//! The constant finder: the tightest value of a constant for which a claim survives the search
//! (bisection in the declared direction), and a least-squares growth fit of the per-n values
//! over the models `a·g(n)` with `g ∈ {1, ln n, √n, n, n ln n}`.

use serde::Deserialize;

/// The declared direction in which a constant is tightened by the constant finder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// The claim holds for large values; find the smallest.
    Smallest,
    /// The claim holds for small values; find the largest.
    Largest,
}

use crate::error::{Error, Result};

/// Bisection for the tightest value `v` such that `holds(v)`, assuming `holds` is monotone in the
/// declared direction (true for large values when `Smallest`, for small values when `Largest`).
/// `start` is a first guess (e.g. the file's value); the bracket is widened by doubling until it
/// brackets the threshold (at most 60 doublings). Returns the tightest value that holds, to
/// relative precision `rel`.
///
/// ```
/// use balloc::claim::Direction;
/// // The smallest c with c ≥ 0.3 is 0.3.
/// let c = balloc::search::bisect(Direction::Smallest, 1.0, 1e-9, &mut |c| Ok(c >= 0.3)).unwrap();
/// assert!((c - 0.3).abs() < 1e-9);
/// // The largest α with α ≤ 2.5.
/// let a = balloc::search::bisect(Direction::Largest, 1.0, 1e-9, &mut |a| Ok(a <= 2.5)).unwrap();
/// assert!((a - 2.5).abs() < 1e-8);
/// ```
pub fn bisect(
    dir: Direction,
    start: f64,
    rel: f64,
    holds: &mut dyn FnMut(f64) -> Result<bool>,
) -> Result<f64> {
    bisect_bracket(dir, start, rel, holds).map(|b| b.holds)
}

/// The result of a bisection: the tightest value shown to hold and the nearest value shown to
/// fail (`None` when the claim held down to 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bracket {
    /// The tightest value for which `holds` returned true.
    pub holds: f64,
    /// The nearest value on the other side for which it returned false.
    pub fails: Option<f64>,
}

/// [`bisect`], returning the bracket: the tightest value that holds and the nearest value that
/// fails, within relative precision `rel` of each other.
///
/// ```
/// use balloc::claim::Direction;
/// let b = balloc::search::bisect_bracket(Direction::Smallest, 1.0, 1e-6, &mut |c| Ok(c >= 0.3)).unwrap();
/// assert!(b.holds >= 0.3 && b.fails.unwrap() < 0.3 && b.holds - b.fails.unwrap() < 1e-6);
/// ```
pub fn bisect_bracket(
    dir: Direction,
    start: f64,
    rel: f64,
    holds: &mut dyn FnMut(f64) -> Result<bool>,
) -> Result<Bracket> {
    let start = if start > 0.0 && start.is_finite() {
        start
    } else {
        1.0
    };
    // `good` holds, `bad` fails; for Smallest, bad < good; for Largest, good < bad.
    let (mut good, mut bad) = match dir {
        Direction::Smallest => {
            let mut hi = start;
            let mut k = 0;
            while !holds(hi)? {
                hi *= 2.0;
                k += 1;
                if k > 60 {
                    return Err(Error::Unsupported(format!(
                        "the claim fails for every value up to {hi:e}; nothing to tighten"
                    )));
                }
            }
            let mut lo = hi / 2.0;
            let mut k = 0;
            while holds(lo)? {
                if lo == 0.0 {
                    return Ok(Bracket {
                        holds: 0.0,
                        fails: None,
                    });
                }
                lo /= 2.0;
                k += 1;
                if k > 60 {
                    // Holds down to ~0: check 0 and negative values are not bracketed.
                    return if holds(0.0)? {
                        Ok(Bracket {
                            holds: 0.0,
                            fails: None,
                        })
                    } else {
                        Ok(Bracket {
                            holds: lo,
                            fails: Some(0.0),
                        })
                    };
                }
            }
            (hi, lo)
        }
        Direction::Largest => {
            let mut lo = start;
            let mut k = 0;
            while !holds(lo)? {
                lo /= 2.0;
                k += 1;
                if k > 60 {
                    return Err(Error::Unsupported(format!(
                        "the claim fails for every value down to {lo:e}; nothing to tighten"
                    )));
                }
            }
            let mut hi = lo * 2.0;
            let mut k = 0;
            while holds(hi)? {
                hi *= 2.0;
                k += 1;
                if k > 60 {
                    return Err(Error::Unsupported(format!(
                        "the claim holds for every value up to {hi:e}; the constant is unbounded"
                    )));
                }
            }
            (lo, hi)
        }
    };
    for _ in 0..200 {
        if (good - bad).abs() <= rel * good.abs().max(bad.abs()).max(1e-300) {
            break;
        }
        let mid = 0.5 * (good + bad);
        if holds(mid)? {
            good = mid;
        } else {
            bad = mid;
        }
    }
    Ok(Bracket {
        holds: good,
        fails: Some(bad),
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
    /// `√n`
    Sqrt,
    /// `n`
    Linear,
    /// `n ln n`
    NLogN,
}

impl Growth {
    /// Every model.
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

/// Fits every model to the points `(n, v)`, best (smallest relative RMS residual) first. The fit
/// minimises the relative residuals (weights `1/v²`), so small and large n count alike.
///
/// ```
/// // v = 3 ln n exactly: the log model fits with residual 0 and coefficient 3.
/// let pts: Vec<(f64, f64)> = [4.0, 16.0, 64.0, 256.0].iter().map(|&n: &f64| (n, 3.0 * n.ln())).collect();
/// let fits = balloc::search::fit_growth(&pts);
/// assert_eq!(fits[0].model, balloc::search::Growth::Log);
/// assert!((fits[0].coefficient - 3.0).abs() < 1e-12 && fits[0].rel_rms < 1e-12);
/// ```
pub fn fit_growth(points: &[(f64, f64)]) -> Vec<GrowthFit> {
    let mut fits: Vec<GrowthFit> = Growth::ALL
        .iter()
        .map(|&m| {
            // Minimise Σ ((v − a g)/v)² = Σ (1 − a g/v)²: a = Σ (g/v) / Σ (g/v)².
            let (mut s1, mut s2) = (0.0, 0.0);
            for &(n, v) in points {
                if v != 0.0 {
                    let r = m.at(n) / v;
                    s1 += r;
                    s2 += r * r;
                }
            }
            let a = if s2 > 0.0 { s1 / s2 } else { 0.0 };
            let mut ss = 0.0;
            let mut k = 0;
            for &(n, v) in points {
                if v != 0.0 {
                    ss += (1.0 - a * m.at(n) / v).powi(2);
                    k += 1;
                }
            }
            GrowthFit {
                model: m,
                coefficient: a,
                rel_rms: if k > 0 {
                    (ss / k as f64).sqrt()
                } else {
                    f64::NAN
                },
            }
        })
        .collect();
    fits.sort_by(|a, b| a.rel_rms.total_cmp(&b.rel_rms));
    fits
}
