//! Bisection for the tightest value of a constant for which a claim survives the search, in the
//! declared direction (the constant finder, [`crate::claim::tighten`], runs it per n; the growth
//! fit of the per-n values is [`crate::growth`]).

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
/// fail. `fails` is `None` when no failing value was found: the claim held at every value tried,
/// and `holds` is then the farthest of them (about `±2⁶⁴` times the start's scale: the constant
/// is unbounded in that direction as far as the search went).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bracket {
    /// The tightest value for which `holds` returned true.
    pub holds: f64,
    /// The nearest value on the other side for which it returned false.
    pub fails: Option<f64>,
}

/// [`bisect`], returning the bracket: the tightest value that holds and the nearest value that
/// fails, within relative precision `rel` of each other (or `rel·2⁻⁴⁰` of the start's scale
/// `max(|start|, 1)` when the threshold is 0). The search covers the whole real line: from a
/// positive start it halves toward 0 first (the usual case: a positive constant), then tries 0
/// and the negative values; from a start `≤ 0` it steps by doubling multiples of the scale.
///
/// ```
/// use balloc::claim::Direction;
/// let b = balloc::search::bisect_bracket(Direction::Smallest, 1.0, 1e-6, &mut |c| Ok(c >= 0.3)).unwrap();
/// assert!(b.holds >= 0.3 && b.fails.unwrap() < 0.3 && b.holds - b.fails.unwrap() < 1e-6);
/// // A negative threshold from a positive start: the smallest K with K ≥ −1.5.
/// let b = balloc::search::bisect_bracket(Direction::Smallest, 2.0, 1e-9, &mut |k| Ok(k >= -1.5)).unwrap();
/// assert!((b.holds + 1.5).abs() < 1e-8 && b.fails.unwrap() < -1.5);
/// // The largest α with α ≤ −0.25, from a start of 1.
/// let b = balloc::search::bisect_bracket(Direction::Largest, 1.0, 1e-9, &mut |a| Ok(a <= -0.25)).unwrap();
/// assert!((b.holds + 0.25).abs() < 1e-9 && b.fails.unwrap() > -0.25);
/// // Holding everywhere: no failing value, and the farthest value tried.
/// let b = balloc::search::bisect_bracket(Direction::Smallest, 1.0, 1e-6, &mut |_| Ok(true)).unwrap();
/// assert!(b.fails.is_none() && b.holds < -1e18);
/// ```
pub fn bisect_bracket(
    dir: Direction,
    start: f64,
    rel: f64,
    holds: &mut dyn FnMut(f64) -> Result<bool>,
) -> Result<Bracket> {
    let start = if start.is_finite() { start } else { 1.0 };
    // `Largest` is `Smallest` for the mirrored claim v ↦ holds(−v).
    let b = match dir {
        Direction::Smallest => smallest(start, rel, holds, false)?,
        Direction::Largest => {
            let mut mirrored = |v: f64| holds(-v);
            let b = smallest(-start, rel, &mut mirrored, true)?;
            Bracket {
                holds: -b.holds,
                fails: b.fails.map(|f| -f),
            }
        }
    };
    Ok(b)
}

/// The tightest value of a claim that holds for large values, over the whole real line
/// (`mirrored`: the caller negated the values, for the messages).
fn smallest(
    start: f64,
    rel: f64,
    holds: &mut dyn FnMut(f64) -> Result<bool>,
    mirrored: bool,
) -> Result<Bracket> {
    const DOUBLINGS: u32 = 64;
    let scale = start.abs().max(1.0);
    // `good` holds, `bad` fails, bad < good.
    let (good, bad) = if holds(start)? {
        let mut good = start;
        let mut bad = None;
        if start > 0.0 {
            // Halve toward 0 (a positive constant), then try 0.
            let mut v = start / 2.0;
            for _ in 0..60 {
                if holds(v)? {
                    good = v;
                    v /= 2.0;
                } else {
                    bad = Some(v);
                    break;
                }
            }
            if bad.is_none() {
                if holds(0.0)? {
                    good = 0.0;
                } else {
                    // Holds at every positive value tried and fails at 0.
                    return Ok(Bracket {
                        holds: good,
                        fails: Some(0.0),
                    });
                }
            }
        }
        if bad.is_none() {
            // Step down by doubling multiples of the scale.
            let mut step = scale;
            for _ in 0..DOUBLINGS {
                let v = good - step;
                if holds(v)? {
                    good = v;
                    step *= 2.0;
                } else {
                    bad = Some(v);
                    break;
                }
            }
        }
        match bad {
            Some(b) => (good, b),
            None => {
                return Ok(Bracket {
                    holds: good,
                    fails: None,
                });
            }
        }
    } else {
        let mut bad = start;
        let mut good = None;
        let mut step = scale;
        for _ in 0..DOUBLINGS {
            let v = if bad > 0.0 { bad * 2.0 } else { bad + step };
            if holds(v)? {
                good = Some(v);
                break;
            }
            bad = v;
            step *= 2.0;
        }
        match good {
            Some(g) => (g, bad),
            None => {
                let (dir, v) = if mirrored {
                    ("down", -bad)
                } else {
                    ("up", bad)
                };
                return Err(Error::Unsupported(format!(
                    "the claim fails for every value {dir} to {v:e}; nothing to tighten"
                )));
            }
        }
    };
    let (mut good, mut bad) = (good, bad);
    let floor = rel * scale * 2f64.powi(-40);
    for _ in 0..200 {
        let gap = (good - bad).abs();
        if gap <= rel * good.abs().max(bad.abs()) || gap <= floor {
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
