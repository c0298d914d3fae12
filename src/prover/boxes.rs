//! Boxes `[lo₁, hi₁] × … × [lo_k, hi_k]` with exact rational ends, their enclosures, and the
//! split points of the bisection (short dyadic rationals near the midpoint).

use crate::enclosure::{Interval, Interval64};
use crate::exact::Q;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// The end of a coordinate: its lower or upper end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// `x_i = lo_i`
    Lo,
    /// `x_i = hi_i`
    Hi,
}

impl Side {
    /// `lo` or `hi`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Lo => "lo",
            Side::Hi => "hi",
        }
    }
}

/// A box with rational ends (`lo_i ≤ hi_i`; `lo_i = hi_i` is a degenerate coordinate, e.g. a
/// face of a larger box).
#[derive(Debug, Clone, PartialEq)]
pub struct Bx {
    /// Lower ends.
    pub lo: Vec<Q>,
    /// Upper ends.
    pub hi: Vec<Q>,
}

impl Bx {
    /// The number of coordinates.
    pub fn dim(&self) -> usize {
        self.lo.len()
    }

    /// Whether coordinate `i` is a single point.
    pub fn degenerate(&self, i: usize) -> bool {
        self.lo[i] == self.hi[i]
    }

    /// Whether every coordinate is a single point.
    pub fn is_point(&self) -> bool {
        (0..self.dim()).all(|i| self.degenerate(i))
    }

    /// The width `hi_i − lo_i`.
    pub fn width(&self, i: usize) -> Q {
        &self.hi[i] - &self.lo[i]
    }

    /// The two halves at `x_i = at` (`lo_i < at < hi_i`).
    pub fn split(&self, i: usize, at: &Q) -> (Bx, Bx) {
        let mut a = self.clone();
        let mut b = self.clone();
        a.hi[i] = at.clone();
        b.lo[i] = at.clone();
        (a, b)
    }

    /// The face `x_i = lo_i` or `x_i = hi_i`.
    pub fn face(&self, i: usize, side: Side) -> Bx {
        let mut f = self.clone();
        match side {
            Side::Lo => f.hi[i] = f.lo[i].clone(),
            Side::Hi => f.lo[i] = f.hi[i].clone(),
        }
        f
    }

    /// The end of coordinate `i` on `side`.
    pub fn end(&self, i: usize, side: Side) -> &Q {
        match side {
            Side::Lo => &self.lo[i],
            Side::Hi => &self.hi[i],
        }
    }

    /// The midpoint.
    pub fn center(&self) -> Vec<Q> {
        (0..self.dim())
            .map(|i| (&self.lo[i] + &self.hi[i]) / Q::from_integer(2.into()))
            .collect()
    }

    /// Whether the point `x` lies in the box.
    pub fn contains(&self, x: &[Q]) -> bool {
        x.len() == self.dim() && (0..self.dim()).all(|i| self.lo[i] <= x[i] && x[i] <= self.hi[i])
    }

    /// The enclosure of each coordinate at `prec` bits (the ends rounded outward).
    pub fn intervals(&self, prec: u64) -> Vec<Interval> {
        (0..self.dim())
            .map(|i| {
                let a = Interval::from_rational(&self.lo[i], prec);
                if self.degenerate(i) {
                    a
                } else {
                    a.hull(&Interval::from_rational(&self.hi[i], prec))
                }
            })
            .collect()
    }

    /// The enclosure of each coordinate in `f64` ([`Interval64`], the ends rounded outward);
    /// `Beyond64` when an end is beyond the range of `f64`.
    pub fn intervals64(&self) -> crate::lang::Eval<Vec<Interval64>> {
        (0..self.dim())
            .map(|i| {
                let a = Interval64::from_rational(&self.lo[i])
                    .map_err(|_| crate::lang::EvalError::Beyond64)?;
                if self.degenerate(i) {
                    Ok(a)
                } else {
                    let b = Interval64::from_rational(&self.hi[i])
                        .map_err(|_| crate::lang::EvalError::Beyond64)?;
                    Ok(a.hull(&b))
                }
            })
            .collect()
    }

    /// The volume as `f64`, over the coordinates that are not degenerate in `root` (so that the
    /// fraction of a root with a fixed coordinate is still meaningful).
    pub fn volume_in(&self, root: &Bx) -> f64 {
        (0..self.dim())
            .filter(|&i| !root.degenerate(i))
            .map(|i| crate::exact::to_f64(&self.width(i)))
            .product()
    }
}

/// The enclosure of a point with rational coordinates.
pub fn point_intervals(x: &[Q], prec: u64) -> Vec<Interval> {
    x.iter().map(|q| Interval::from_rational(q, prec)).collect()
}

/// A split point of `(lo, hi)`: the dyadic rational `m/2ᵏ` with the smallest `k` in the middle
/// half `[lo + w/4, hi − w/4]` (`w = hi − lo > 0`), so that split points stay short (the
/// midpoint of `[−5, 5]` is `0`, of `[0, 10]` it is `4`).
///
/// ```
/// use balloc::exact::Q;
/// use balloc::prover::boxes::split_point;
/// let q = |a: i64, b: i64| Q::new(a.into(), b.into());
/// assert_eq!(split_point(&q(-5, 1), &q(5, 1)), q(0, 1));
/// assert_eq!(split_point(&q(0, 1), &q(10, 1)), q(4, 1));
/// assert_eq!(split_point(&q(0, 1), &q(1, 3)), q(1, 4));
/// let s = split_point(&q(1, 3), &(&q(1, 3) + q(1, 1000)));
/// assert!(s > q(1, 3) && s < q(1, 3) + q(1, 1000) && s.denom().bits() <= 12);
/// ```
pub fn split_point(lo: &Q, hi: &Q) -> Q {
    let w = hi - lo;
    debug_assert!(w.is_positive());
    let four = Q::from_integer(4.into());
    let a = lo + &w / &four;
    let b = hi - &w / &four;
    // The largest power of two s with s ≤ w/2: the grid sℤ then meets [a, b] (length w/2).
    let half = &w / Q::from_integer(2.into());
    let e = crate::exact::to_f64(&half).log2().floor();
    let e = if e.is_finite() { e as i64 } else { 0 };
    let mut s = pow2(e);
    while s > half {
        s /= Q::from_integer(2.into());
    }
    while &s * Q::from_integer(2.into()) <= half {
        s *= Q::from_integer(2.into());
    }
    // The coarsest grid first: a coarser grid (2s, 4s, …) may also meet [a, b].
    let mut best = grid_point(&a, &s);
    let mut t = s.clone();
    for _ in 0..64 {
        t *= Q::from_integer(2.into());
        let p = grid_point(&a, &t);
        if p > b || p == best {
            break;
        }
        best = p;
    }
    if best > b || best < a {
        // Cannot happen (the grid of spacing s ≤ w/2 meets [a, b]); the midpoint is safe.
        return (lo + hi) / Q::from_integer(2.into());
    }
    best
}

fn grid_point(a: &Q, s: &Q) -> Q {
    (a / s).ceil() * s
}

fn pow2(e: i64) -> Q {
    let two = Q::from_integer(2.into());
    let k = e.unsigned_abs().min(4096) as usize;
    let p = num_traits::pow(two, k);
    if e >= 0 { p } else { Q::one() / p }
}

/// A rational as text (`-3/8`, `5`) for certificates and reports.
pub fn q_text(q: &Q) -> String {
    q.to_string()
}

/// Parses [`q_text`].
pub fn parse_q(s: &str) -> Option<Q> {
    let s = s.trim();
    match s.split_once('/') {
        Some((n, d)) => {
            let d: crate::exact::Int = d.trim().parse().ok()?;
            if d.is_zero() {
                return None;
            }
            Some(Q::new(n.trim().parse().ok()?, d))
        }
        None => Some(Q::from_integer(s.parse().ok()?)),
    }
}

/// A short decimal rendering of a rational for reports.
pub fn q_show(q: &Q) -> String {
    if q.is_integer() {
        return q.to_string();
    }
    let f = q.to_f64().unwrap_or(f64::NAN);
    let approx = if f != 0.0 && f.abs() < 1e-3 {
        format!("{f:.6e}")
    } else {
        format!("{f:.9}")
    };
    if q.denom().bits() <= 16 {
        format!("{q} (≈ {approx})")
    } else {
        approx
    }
}
