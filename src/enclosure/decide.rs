//! Deciding a comparison `lhs ⋚ rhs` between two enclosed quantities, raising the precision until
//! the enclosures separate or a limit is reached.

use super::Interval;
use crate::error::{Error, Result};

/// The outcome of comparing two enclosures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// `lhs < rhs` is certain (`lhs.hi < rhs.lo`).
    Less,
    /// `lhs > rhs` is certain (`lhs.lo > rhs.hi`).
    Greater,
    /// Both are the same point, so `lhs = rhs` is certain.
    Equal,
    /// The enclosures overlap: the comparison is not decided at this precision.
    Undecided,
}

/// Compares two enclosures.
///
/// ```
/// use balloc::enclosure::{decide, Decision, Interval};
/// use balloc::exact::{int, Q};
/// let third = Interval::from_rational(&Q::new(1.into(), 3.into()), 64);
/// let half = Interval::from_rational(&Q::new(1.into(), 2.into()), 64);
/// assert_eq!(decide(&third, &half), Decision::Less);
/// assert_eq!(decide(&half, &third), Decision::Greater);
/// assert_eq!(decide(&third, &third), Decision::Undecided); // 1/3 is not a binary point
/// assert_eq!(decide(&half, &half), Decision::Equal);       // 1/2 is
/// ```
pub fn decide(lhs: &Interval, rhs: &Interval) -> Decision {
    if lhs.hi() < rhs.lo() {
        Decision::Less
    } else if lhs.lo() > rhs.hi() {
        Decision::Greater
    } else if lhs.lo() == lhs.hi() && rhs.lo() == rhs.hi() && lhs.lo() == rhs.lo() {
        Decision::Equal
    } else {
        Decision::Undecided
    }
}

/// The float-level rule (trust level `float`): `lhs ± lhs_err` against `rhs ± rhs_err`, with
/// error estimates supplied by the caller; `Undecided` when the bands overlap.
///
/// ```
/// use balloc::enclosure::{decide_f64, Decision};
/// assert_eq!(decide_f64(1.0, 1e-16, 1.0 + 1e-15, 1e-16), Decision::Less);
/// assert_eq!(decide_f64(1.0, 1e-15, 1.0 + 1e-15, 1e-15), Decision::Undecided);
/// ```
pub fn decide_f64(lhs: f64, lhs_err: f64, rhs: f64, rhs_err: f64) -> Decision {
    if lhs + lhs_err < rhs - rhs_err {
        Decision::Less
    } else if lhs - lhs_err > rhs + rhs_err {
        Decision::Greater
    } else {
        Decision::Undecided
    }
}

/// The precision schedule: `start`, `2·start`, `4·start`, ... up to `max` bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Precisions {
    /// The first working precision in bits (≥ 2).
    pub start: u64,
    /// The largest working precision tried.
    pub max: u64,
}

impl Default for Precisions {
    /// 64, 128, 256, ..., 4096 bits.
    fn default() -> Self {
        Precisions {
            start: 64,
            max: 4096,
        }
    }
}

impl Precisions {
    /// The precisions tried, in order.
    ///
    /// ```
    /// use balloc::enclosure::Precisions;
    /// assert_eq!(Precisions { start: 64, max: 256 }.steps(), vec![64, 128, 256]);
    /// assert_eq!(Precisions::default().steps().len(), 7);
    /// ```
    pub fn steps(&self) -> Vec<u64> {
        let mut v = Vec::new();
        let mut p = self.start.max(2);
        while p <= self.max {
            v.push(p);
            p = p.saturating_mul(2);
        }
        v
    }
}

/// The result of [`decide_escalating`].
#[derive(Debug, Clone, PartialEq)]
pub struct Decided {
    /// The decision at the last precision tried (`Undecided` when the limit was reached).
    pub decision: Decision,
    /// The precision (bits) at which it was reached.
    pub prec: u64,
    /// The enclosure of the left side at that precision.
    pub lhs: Interval,
    /// The enclosure of the right side at that precision.
    pub rhs: Interval,
}

/// Evaluates both sides with `sides(prec)` at the precisions of `precisions` in turn and
/// returns at the first decided comparison (`Less`, `Greater` or `Equal`), else `Undecided` with
/// the largest precision.
///
/// ```
/// use balloc::enclosure::{decide_escalating, Decision, Interval, Precisions};
/// use balloc::exact::{int, Q};
/// // e vs e·(1 + 10⁻³⁰): undecided at 64 bits (relative width ~1e−19), decided at 128.
/// let f = Q::from_integer(1.into()) + Q::new(1.into(), num_traits::pow(balloc::exact::Int::from(10), 30));
/// let d = decide_escalating(Precisions::default(), |p| {
///     let e = Interval::exp_of(&int(1), p)?;
///     Ok((e.clone(), e.mul_rational(&f, p)))
/// }).unwrap();
/// assert_eq!((d.decision, d.prec), (Decision::Less, 128));
/// ```
pub fn decide_escalating(
    precisions: Precisions,
    mut sides: impl FnMut(u64) -> Result<(Interval, Interval)>,
) -> Result<Decided> {
    let mut last = None;
    for p in precisions.steps() {
        let (lhs, rhs) = sides(p)?;
        let decision = decide(&lhs, &rhs);
        let done = decision != Decision::Undecided;
        last = Some(Decided {
            decision,
            prec: p,
            lhs,
            rhs,
        });
        if done {
            break;
        }
    }
    last.ok_or_else(|| Error::invalid("precisions", "the schedule is empty (need start ≤ max)"))
}
