//! Closed intervals `[lo, hi]` of arbitrary-precision binary floats with outward rounding.
//!
//! Every operation rounds its lower end toward −∞ (`Floor`) and its upper end toward +∞
//! (`Ceiling`), so the exact result of the operation on any points of the operands lies in the
//! result. The floats are malachite's `Float` (correctly rounded `exp` with directed rounding,
//! exponents up to about `2^{2^30}`, i.e. values up to about `e^{7.4·10⁸}`).

use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use malachite::base::num::conversion::traits::RoundingFrom;
use malachite::base::rounding_modes::RoundingMode::{self, Ceiling, Floor};
use malachite::{Float, Natural, Rational};
use num_traits::{Signed, ToPrimitive};
use std::cmp::Ordering;

/// The exact malachite rational of a `Q`.
///
/// ```
/// use balloc::enclosure::to_malachite;
/// let r = to_malachite(&balloc::exact::Q::new((-3).into(), 8.into()));
/// assert_eq!(r.to_string(), "-3/8");
/// ```
pub fn to_malachite(q: &Q) -> Rational {
    let nat = |b: &Int| match b.to_i64() {
        Some(v) => Natural::from(v.unsigned_abs()),
        None => {
            Natural::from_owned_limbs_asc(num_bigint::BigInt::from(b).magnitude().to_u64_digits())
        }
    };
    Rational::from_sign_and_naturals(!q.numer().is_negative(), nat(q.numer()), nat(q.denom()))
}

/// A closed interval `[lo, hi]` of binary floats containing the quantity it encloses.
///
/// ```
/// use balloc::enclosure::Interval;
/// use balloc::exact::int;
/// // e ∈ [2.718281828459045, 2.718281828459046] (the f64 neighbours of e at 53 bits)
/// let e = Interval::exp_of(&int(1), 53).unwrap();
/// assert!(e.lo_f64() <= std::f64::consts::E && std::f64::consts::E <= e.hi_f64());
/// assert!(e.hi_f64() - e.lo_f64() <= 4.5e-16);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Interval {
    lo: Float,
    hi: Float,
}

fn round_pair(f: impl Fn(RoundingMode) -> Float) -> (Float, Float) {
    (f(Floor), f(Ceiling))
}

fn overflow(what: &str) -> Error {
    Error::invalid(
        what,
        "exceeds the range of the enclosure arithmetic (about e^(7.4e8)); the value is too large to enclose",
    )
}

impl Interval {
    /// `[lo, hi]` from two floats; an error when `lo > hi` or an end is NaN.
    pub fn new(lo: Float, hi: Float) -> Result<Interval> {
        if lo.is_nan() || hi.is_nan() || lo > hi {
            return Err(Error::invalid(
                "interval",
                format!("[{lo}, {hi}] is not an interval"),
            ));
        }
        Ok(Interval { lo, hi })
    }

    /// The smallest enclosure of a rational at `prec` bits.
    ///
    /// ```
    /// use balloc::{enclosure::Interval, exact::Q};
    /// let third = Interval::from_rational(&Q::new(1.into(), 3.into()), 64);
    /// assert!(third.lo_f64() <= 1.0 / 3.0 && 1.0 / 3.0 <= third.hi_f64());
    /// assert!(third.contains(&Q::new(1.into(), 3.into())));
    /// ```
    pub fn from_rational(q: &Q, prec: u64) -> Interval {
        let r = to_malachite(q);
        let (lo, hi) = round_pair(|rm| Float::from_rational_prec_round_ref(&r, prec, rm).0);
        Interval { lo, hi }
    }

    /// The point interval of a finite `f64` (exact).
    pub fn from_f64(v: f64) -> Result<Interval> {
        if !v.is_finite() {
            return Err(Error::invalid(
                "interval end",
                format!("must be finite, got {v}"),
            ));
        }
        Ok(Interval {
            lo: Float::from(v),
            hi: Float::from(v),
        })
    }

    /// The enclosure of `e^q` for a rational `q`: both ends correctly rounded (`Floor`,
    /// `Ceiling`) by malachite's `exp`. An error when `e^q` exceeds the float range.
    pub fn exp_of(q: &Q, prec: u64) -> Result<Interval> {
        let r = to_malachite(q);
        let (lo, hi) = round_pair(|rm| Float::exp_rational_prec_round_ref(&r, prec, rm).0);
        if !hi.is_finite() {
            return Err(overflow("e^x"));
        }
        Ok(Interval { lo, hi })
    }

    /// The lower end.
    pub fn lo(&self) -> &Float {
        &self.lo
    }

    /// The upper end.
    pub fn hi(&self) -> &Float {
        &self.hi
    }

    /// The lower end rounded down to an `f64` (−∞ or the largest `f64` below it when out of range).
    pub fn lo_f64(&self) -> f64 {
        f64::rounding_from(&self.lo, Floor).0
    }

    /// The upper end rounded up to an `f64`.
    pub fn hi_f64(&self) -> f64 {
        f64::rounding_from(&self.hi, Ceiling).0
    }

    /// The midpoint, to the nearest `f64` (for display).
    pub fn mid_f64(&self) -> f64 {
        let m = self
            .lo
            .add_prec_round_ref_ref(&self.hi, self.prec() + 1, Floor)
            .0;
        f64::rounding_from(&m, RoundingMode::Nearest).0 / 2.0
    }

    /// The midpoint as an extended-range number ([`crate::xfloat::XFloat`], rounded to the nearest
    /// 53-bit mantissa): the value to print beside the interval, inside it at any magnitude.
    ///
    /// ```
    /// use balloc::{enclosure::Interval, exact::{int, Q}};
    /// let third = Interval::from_rational(&Q::new(1.into(), 3.into()), 64);
    /// let m = third.mid_x().to_f64();
    /// assert!(third.lo_f64() <= m && m <= third.hi_f64());
    /// // e^1000000 ≈ 10^434294.48: beyond f64, finite here.
    /// let big = Interval::exp_of(&int(1_000_000), 64).unwrap().mid_x();
    /// assert!((big.ln_abs() - 1e6).abs() < 1e-6);
    /// ```
    pub fn mid_x(&self) -> crate::xfloat::XFloat {
        // lo + hi (exact at one more bit than the ends), halved through the exponent.
        let sum = self
            .lo
            .add_prec_round_ref_ref(&self.hi, self.prec() + 1, RoundingMode::Nearest)
            .0;
        match sum.get_exponent() {
            Some(e) => {
                let mant = f64::rounding_from(&(sum >> e), RoundingMode::Nearest).0;
                crate::xfloat::XFloat::from_binary(mant, i64::from(e) - 1)
            }
            None => crate::xfloat::XFloat::from_f64(0.0),
        }
    }

    /// The precision of the ends in bits (the larger of the two).
    pub fn prec(&self) -> u64 {
        self.lo
            .get_prec()
            .unwrap_or(1)
            .max(self.hi.get_prec().unwrap_or(1))
    }

    /// Whether the `f64` value `v` lies in the interval.
    pub fn contains_f64(&self, v: f64) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// Whether the rational `q` lies in the interval.
    pub fn contains(&self, q: &Q) -> bool {
        let r = to_malachite(q);
        self.lo <= r && r <= self.hi
    }

    /// Whether both ends are finite.
    pub fn is_finite(&self) -> bool {
        self.lo.is_finite() && self.hi.is_finite()
    }

    /// The width relative to the magnitude, `(hi − lo)/max(|lo|, |hi|)`, as an `f64` (0 for
    /// the point 0).
    ///
    /// ```
    /// use balloc::{enclosure::Interval, exact::Q};
    /// let i = Interval::from_rational(&Q::new(1.into(), 3.into()), 64);
    /// assert!(i.rel_width() > 0.0 && i.rel_width() <= 2f64.powi(-62));
    /// ```
    pub fn rel_width(&self) -> f64 {
        let w = self.hi.sub_prec_round_ref_ref(&self.lo, 64, Ceiling).0;
        let lo = f64::rounding_from(&self.lo, Floor).0.abs();
        let hi = f64::rounding_from(&self.hi, Ceiling).0.abs();
        let m = lo.max(hi);
        if m == 0.0 {
            0.0
        } else {
            f64::rounding_from(&w, Ceiling).0 / m
        }
    }

    /// `self + other`.
    pub fn add(&self, other: &Interval, prec: u64) -> Interval {
        Interval {
            lo: self.lo.add_prec_round_ref_ref(&other.lo, prec, Floor).0,
            hi: self.hi.add_prec_round_ref_ref(&other.hi, prec, Ceiling).0,
        }
    }

    /// `self − other`.
    pub fn sub(&self, other: &Interval, prec: u64) -> Interval {
        Interval {
            lo: self.lo.sub_prec_round_ref_ref(&other.hi, prec, Floor).0,
            hi: self.hi.sub_prec_round_ref_ref(&other.lo, prec, Ceiling).0,
        }
    }

    /// `−self` (exact).
    pub fn neg(&self) -> Interval {
        Interval {
            lo: -self.hi.clone(),
            hi: -self.lo.clone(),
        }
    }

    /// `self + q` for a rational `q`.
    pub fn add_rational(&self, q: &Q, prec: u64) -> Interval {
        let r = to_malachite(q);
        Interval {
            lo: self.lo.add_rational_prec_round_ref_ref(&r, prec, Floor).0,
            hi: self.hi.add_rational_prec_round_ref_ref(&r, prec, Ceiling).0,
        }
    }

    /// `self · q` for a rational `q`.
    ///
    /// ```
    /// use balloc::{enclosure::Interval, exact::{int, Q}};
    /// let i = Interval::from_rational(&int(3), 64).mul_rational(&Q::new((-1).into(), 3.into()), 64);
    /// assert!(i.contains(&int(-1)));
    /// ```
    pub fn mul_rational(&self, q: &Q, prec: u64) -> Interval {
        let r = to_malachite(q);
        let (a, b) = if q.is_negative() {
            (&self.hi, &self.lo)
        } else {
            (&self.lo, &self.hi)
        };
        Interval {
            lo: a.mul_rational_prec_round_ref_ref(&r, prec, Floor).0,
            hi: b.mul_rational_prec_round_ref_ref(&r, prec, Ceiling).0,
        }
    }

    fn is_nonneg(&self) -> bool {
        self.lo >= 0u32
    }

    /// The hull of `op` applied to the four pairs of end points, each result rounded down for
    /// the lower end and up for the upper end (outward rounding of a monotone-in-each-argument
    /// operation such as `·` or `/` away from 0 in the divisor).
    fn hull_of_ends(
        &self,
        other: &Interval,
        op: impl Fn(&Float, &Float, RoundingMode) -> Float,
    ) -> Interval {
        let ends = [
            (&self.lo, &other.lo),
            (&self.lo, &other.hi),
            (&self.hi, &other.lo),
            (&self.hi, &other.hi),
        ];
        let lo = ends
            .iter()
            .map(|(a, b)| op(a, b, Floor))
            .min_by(|a, b| a.partial_cmp(b).unwrap_or(Ordering::Equal))
            .expect("four end points");
        let hi = ends
            .iter()
            .map(|(a, b)| op(a, b, Ceiling))
            .max_by(|a, b| a.partial_cmp(b).unwrap_or(Ordering::Equal))
            .expect("four end points");
        Interval { lo, hi }
    }

    /// The side of 0 of an interval whose ends are finite and nonzero: `1` above, `−1` below,
    /// `0` across; `None` when an end is 0 or not finite.
    fn strict_side(&self) -> Option<i8> {
        let nonzero = |f: &Float| f.is_finite() && *f != 0u32;
        if !(nonzero(&self.lo) && nonzero(&self.hi)) {
            return None;
        }
        Some(if self.lo > 0u32 {
            1
        } else if self.hi < 0u32 {
            -1
        } else {
            0
        })
    }

    /// `self · other` (the hull of the four end products, each rounded outward).
    ///
    /// When both intervals have finite nonzero ends, the sides of 0 tell which end products
    /// are the least and the greatest (Moore's nine cases), and only those are computed: the
    /// same ends as the hull, since rounding is monotone (the least of the products rounded
    /// down is the least product rounded down), and no zero product whose sign could differ.
    ///
    /// ```
    /// use balloc::{enclosure::Interval, exact::{int, Q}};
    /// let a = Interval::from_rational(&int(-2), 64).hull(&Interval::from_rational(&int(3), 64));
    /// let b = Interval::from_rational(&int(-5), 64).hull(&Interval::from_rational(&int(7), 64));
    /// // [−2, 3]·[−5, 7] = [min(−14, −15), max(10, 21)] = [−15, 21].
    /// let p = a.mul(&b, 64);
    /// assert!(p.contains(&int(-15)) && p.contains(&int(21)));
    /// assert!(!p.contains(&Q::new((-151).into(), 10.into())) && !p.contains(&Q::new(211.into(), 10.into())));
    /// ```
    pub fn mul(&self, other: &Interval, prec: u64) -> Interval {
        if self.is_nonneg() && other.is_nonneg() {
            return Interval {
                lo: self.lo.mul_prec_round_ref_ref(&other.lo, prec, Floor).0,
                hi: self.hi.mul_prec_round_ref_ref(&other.hi, prec, Ceiling).0,
            };
        }
        let (Some(s), Some(t)) = (self.strict_side(), other.strict_side()) else {
            return self.hull_of_ends(other, |a, b, r| a.mul_prec_round_ref_ref(b, prec, r).0);
        };
        let m = |x: &Float, y: &Float, r| x.mul_prec_round_ref_ref(y, prec, r).0;
        let (a, b, c, d) = (&self.lo, &self.hi, &other.lo, &other.hi);
        let (lo, hi) = match (s, t) {
            (1, 1) => (m(a, c, Floor), m(b, d, Ceiling)),
            (1, -1) => (m(b, c, Floor), m(a, d, Ceiling)),
            (1, _) => (m(b, c, Floor), m(b, d, Ceiling)),
            (-1, 1) => (m(a, d, Floor), m(b, c, Ceiling)),
            (-1, -1) => (m(b, d, Floor), m(a, c, Ceiling)),
            (-1, _) => (m(a, d, Floor), m(a, c, Ceiling)),
            (_, 1) => (m(a, d, Floor), m(b, d, Ceiling)),
            (_, -1) => (m(b, c, Floor), m(a, c, Ceiling)),
            _ => (
                least(m(a, d, Floor), m(b, c, Floor)),
                greatest(m(a, c, Ceiling), m(b, d, Ceiling)),
            ),
        };
        Interval { lo, hi }
    }

    /// `self / other`; an error when `other` contains 0.
    ///
    /// ```
    /// use balloc::{enclosure::Interval, exact::{int, Q}};
    /// let i = Interval::from_rational(&int(1), 64).div(&Interval::from_rational(&int(3), 64), 64).unwrap();
    /// assert!(i.contains(&Q::new(1.into(), 3.into())));
    /// assert!(i.div(&Interval::from_rational(&int(0), 64), 64).is_err());
    /// ```
    pub fn div(&self, other: &Interval, prec: u64) -> Result<Interval> {
        if other.lo <= 0u32 && other.hi >= 0u32 {
            return Err(Error::invalid(
                "divisor",
                "the enclosure of the divisor contains 0",
            ));
        }
        // The divisor lies on one side of 0; with finite nonzero ends the sides tell which two
        // end quotients bound the result (as for `mul`, the same ends as the hull).
        let (Some(s), Some(t)) = (self.strict_side(), other.strict_side()) else {
            return Ok(self.hull_of_ends(other, |a, b, r| a.div_prec_round_ref_ref(b, prec, r).0));
        };
        let q = |x: &Float, y: &Float, r| x.div_prec_round_ref_ref(y, prec, r).0;
        let (a, b, c, d) = (&self.lo, &self.hi, &other.lo, &other.hi);
        let (lo, hi) = match (s, t > 0) {
            (1, true) => (q(a, d, Floor), q(b, c, Ceiling)),
            (-1, true) => (q(a, c, Floor), q(b, d, Ceiling)),
            (_, true) => (q(a, c, Floor), q(b, c, Ceiling)),
            (1, false) => (q(b, d, Floor), q(a, c, Ceiling)),
            (-1, false) => (q(b, c, Floor), q(a, d, Ceiling)),
            (_, false) => (q(b, d, Floor), q(a, d, Ceiling)),
        };
        Ok(Interval { lo, hi })
    }

    /// `selfᵏ` for an interval of non-negative numbers (repeated squaring, each step rounded
    /// outward; a slightly negative lower end, possible only through rounding, is clamped to 0
    /// by the caller's guarantee that the true value is positive).
    pub fn pow_nonneg(&self, k: u64, prec: u64) -> Interval {
        let zero = Float::from(0u32);
        let clamp = |f: &Float| if *f < 0u32 { zero.clone() } else { f.clone() };
        let pow = |base: Float, rm: RoundingMode| -> Float {
            let mut result = Float::from(1u32);
            let mut base = base;
            let mut e = k;
            while e > 0 {
                if e & 1 == 1 {
                    result = result.mul_prec_round_ref_ref(&base, prec, rm).0;
                }
                e >>= 1;
                if e > 0 {
                    base = base.square_prec_round_ref(prec, rm).0;
                }
            }
            result
        };
        Interval {
            lo: pow(clamp(&self.lo), Floor),
            hi: pow(clamp(&self.hi), Ceiling),
        }
    }

    /// `e^{self}` (monotone: the ends are exponentiated with `Floor` and `Ceiling`).
    pub fn exp(&self, prec: u64) -> Result<Interval> {
        let lo = exp_memo::exp(&self.lo, prec, Floor);
        let hi = exp_memo::exp(&self.hi, prec, Ceiling);
        if !hi.is_finite() {
            return Err(overflow("e^x"));
        }
        Ok(Interval { lo, hi })
    }

    /// `ln(self)` for an interval of positive numbers. `ln` is increasing, so the ends are
    /// `ln(lo)` rounded toward −∞ and `ln(hi)` rounded toward +∞; malachite's `ln` is correctly
    /// rounded in the requested direction (MPFR semantics), so the true logarithm of every point
    /// of `self` lies in the result. An error when `lo ≤ 0` (the enclosure reaches the pole).
    ///
    /// ```
    /// use balloc::{enclosure::Interval, exact::Q};
    /// // ln 2 = 0.693147180559945309417232121458…
    /// let v = Interval::from_rational(&Q::from_integer(2.into()), 128).ln(128).unwrap();
    /// assert!((v.mid_f64() - std::f64::consts::LN_2).abs() <= 1e-16 && v.rel_width() < 1e-36);
    /// assert!(Interval::from_f64(0.0).unwrap().ln(64).is_err());
    /// ```
    pub fn ln(&self, prec: u64) -> Result<Interval> {
        if self.lo <= 0u32 {
            return Err(Error::invalid(
                "ln",
                format!(
                    "the argument's enclosure [{:e}, {:e}] is not positive",
                    self.lo_f64(),
                    self.hi_f64()
                ),
            ));
        }
        Ok(Interval {
            lo: self.lo.ln_prec_round_ref(prec, Floor).0,
            hi: self.hi.ln_prec_round_ref(prec, Ceiling).0,
        })
    }

    /// `√self` for an interval of non-negative numbers: `√` is increasing, the ends are rounded
    /// outward by malachite's correctly rounded square root. An error when `lo < 0` (the true
    /// argument may be negative; an argument that is exactly 0 is enclosed by `[0, ·]`).
    ///
    /// ```
    /// use balloc::{enclosure::Interval, exact::Q};
    /// // √2 = 1.414213562373095048801688724209…
    /// let v = Interval::from_rational(&Q::from_integer(2.into()), 128).sqrt(128).unwrap();
    /// assert!((v.mid_f64() - std::f64::consts::SQRT_2).abs() <= 3e-16 && v.rel_width() < 1e-36);
    /// assert!(Interval::from_f64(-1e-30).unwrap().sqrt(64).is_err());
    /// ```
    pub fn sqrt(&self, prec: u64) -> Result<Interval> {
        if self.lo < 0u32 {
            return Err(Error::invalid(
                "sqrt",
                format!(
                    "the argument's enclosure [{:e}, {:e}] reaches below 0",
                    self.lo_f64(),
                    self.hi_f64()
                ),
            ));
        }
        Ok(Interval {
            lo: self.lo.sqrt_prec_round_ref(prec, Floor).0,
            hi: self.hi.sqrt_prec_round_ref(prec, Ceiling).0,
        })
    }

    /// `sinh(self)`: `sinh` is increasing, the ends are rounded outward by malachite's correctly
    /// rounded `sinh` (relative accuracy also for tiny arguments, where `(eˣ − e⁻ˣ)/2` would
    /// cancel). An error when the value exceeds the float range.
    ///
    /// ```
    /// use balloc::{enclosure::Interval, exact::Q};
    /// // sinh(10⁻³⁰) = 10⁻³⁰ + 10⁻⁹⁰/6: relative width 2⁻¹²⁷ at 128 bits, not 2⁻¹²⁸/10⁻³⁰.
    /// let v = Interval::from_rational(&Q::new(1.into(), num_traits::pow(balloc::exact::Int::from(10), 30)), 128).sinh(128).unwrap();
    /// assert!(v.rel_width() < 1e-37 && (v.mid_f64() - 1e-30).abs() < 1e-45);
    /// ```
    pub fn sinh(&self, prec: u64) -> Result<Interval> {
        let lo = self.lo.sinh_prec_round_ref(prec, Floor).0;
        let hi = self.hi.sinh_prec_round_ref(prec, Ceiling).0;
        if !(lo.is_finite() && hi.is_finite()) {
            return Err(overflow("sinh x"));
        }
        Ok(Interval { lo, hi })
    }

    /// `cosh(self)`: `cosh` is decreasing below 0 and increasing above, so its range is
    /// `[cosh(the point nearest 0), cosh(the point farthest from 0)]` (`[1, ·]` across 0), the
    /// ends rounded outward by malachite's correctly rounded `cosh`.
    ///
    /// ```
    /// use balloc::{enclosure::Interval, exact::int};
    /// // cosh([−1, 2]) = [1, cosh 2], not [(e⁻¹ + e⁻²)/2, ·] as (eˣ + e⁻ˣ)/2 in intervals.
    /// let v = Interval::from_rational(&int(-1), 64).hull(&Interval::from_rational(&int(2), 64)).cosh(64).unwrap();
    /// assert!(v.contains(&int(1)) && v.lo_f64() == 1.0 && (v.hi_f64() - 2f64.cosh()).abs() < 1e-15);
    /// ```
    pub fn cosh(&self, prec: u64) -> Result<Interval> {
        let (near, far) = if self.lo >= 0u32 {
            (Some(&self.lo), &self.hi)
        } else if self.hi <= 0u32 {
            (Some(&self.hi), &self.lo)
        } else {
            let far = if -self.lo.clone() > self.hi {
                &self.lo
            } else {
                &self.hi
            };
            (None, far)
        };
        let lo = match near {
            Some(x) => x.cosh_prec_round_ref(prec, Floor).0,
            None => Float::from(1u32),
        };
        let hi = far.cosh_prec_round_ref(prec, Ceiling).0;
        if !(lo.is_finite() && hi.is_finite()) {
            return Err(overflow("cosh x"));
        }
        Ok(Interval { lo, hi })
    }

    /// The enclosure of `ln q` for a rational `q > 0` (correctly rounded ends).
    pub fn ln_of(q: &Q, prec: u64) -> Result<Interval> {
        if !q.is_positive() {
            return Err(Error::invalid(
                "ln argument",
                format!("must be > 0, got {q}"),
            ));
        }
        let r = to_malachite(q);
        let (lo, hi) = round_pair(|rm| Float::ln_rational_prec_round_ref(&r, prec, rm).0);
        Ok(Interval { lo, hi })
    }

    /// The smallest interval containing both.
    pub fn hull(&self, other: &Interval) -> Interval {
        Interval {
            lo: if self.lo <= other.lo {
                self.lo.clone()
            } else {
                other.lo.clone()
            },
            hi: if self.hi >= other.hi {
                self.hi.clone()
            } else {
                other.hi.clone()
            },
        }
    }

    /// An enclosure of `min(x, y)` for `x` in `self` and `y` in `other`: `[min lo, min hi]`.
    ///
    /// ```
    /// use balloc::enclosure::Interval;
    /// let a = Interval::from_f64(1.0).unwrap().hull(&Interval::from_f64(4.0).unwrap());
    /// let b = Interval::from_f64(2.0).unwrap().hull(&Interval::from_f64(3.0).unwrap());
    /// let m = a.min(&b);
    /// assert_eq!((m.lo_f64(), m.hi_f64()), (1.0, 3.0));
    /// ```
    pub fn min(&self, other: &Interval) -> Interval {
        let pick = |a: &Float, b: &Float| if a <= b { a.clone() } else { b.clone() };
        Interval {
            lo: pick(&self.lo, &other.lo),
            hi: pick(&self.hi, &other.hi),
        }
    }

    /// An enclosure of `max(x, y)` for `x` in `self` and `y` in `other`: `[max lo, max hi]`.
    ///
    /// ```
    /// use balloc::enclosure::Interval;
    /// let a = Interval::from_f64(1.0).unwrap().hull(&Interval::from_f64(4.0).unwrap());
    /// let b = Interval::from_f64(2.0).unwrap().hull(&Interval::from_f64(3.0).unwrap());
    /// let m = a.max(&b);
    /// assert_eq!((m.lo_f64(), m.hi_f64()), (2.0, 4.0));
    /// ```
    pub fn max(&self, other: &Interval) -> Interval {
        let pick = |a: &Float, b: &Float| if a >= b { a.clone() } else { b.clone() };
        Interval {
            lo: pick(&self.lo, &other.lo),
            hi: pick(&self.hi, &other.hi),
        }
    }
}

/// The ends in scientific notation, rounded outward ([`sci`]): `[lo, hi]`, also beyond the
/// range of `f64`.
impl std::fmt::Display for Interval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}, {}]", sci(&self.lo, false), sci(&self.hi, true))
    }
}

/// `x` in scientific notation, rounded toward +∞ when `up`, else toward −∞, at any magnitude the
/// floats reach (up to about `e^{7.4·10⁸}`): the `f64` rounded in that direction where it is a
/// normal `f64` (all its digits), otherwise `d·10^k` with the digits that the decimal exponent
/// leaves exact (`log10|x|` is formed in `f64` from the binary exponent, with an error of at most
/// `|log10 x|·2⁻⁵¹`; the printed mantissa is rounded outward past that error). Never `inf`.
///
/// ```
/// use balloc::enclosure::{Interval, sci};
/// use balloc::exact::int;
/// // e^1000000 = 3.0332153968...·10^434294 (1000000·log10 e = 434294.4819...).
/// let e = Interval::exp_of(&int(1_000_000), 64).unwrap();
/// let (lo, hi) = (sci(e.lo(), false), sci(e.hi(), true));
/// assert!(lo.starts_with("3.03321") && lo.ends_with("e434294"), "{lo}");
/// assert!(hi.starts_with("3.03321") && hi.ends_with("e434294"), "{hi}");
/// assert!(!e.to_string().contains("inf"));
/// // In the range of f64: the f64 rounded outward.
/// let third = Interval::from_rational(&balloc::exact::Q::new(1.into(), 3.into()), 64);
/// assert_eq!(third.to_string(), "[3.333333333333333e-1, 3.3333333333333337e-1]");
/// ```
pub fn sci(x: &Float, up: bool) -> String {
    let dir = if up { Ceiling } else { Floor };
    let v = f64::rounding_from(x, dir).0;
    if v == 0.0 && *x == 0u32 || v.is_finite() && v.abs() >= f64::MIN_POSITIVE && v.abs() < f64::MAX
    {
        return format!("{v:e}");
    }
    if x.is_nan() {
        return "NaN".into();
    }
    let positive = *x > 0u32;
    let Some(e) = x.get_exponent() else {
        return format!("{v:e}");
    };
    // |x| = m·2^e with m ∈ [1/2, 1).
    let m_float = malachite::base::num::arithmetic::traits::Abs::abs(x.clone()) >> e;
    let m = f64::rounding_from(&m_float, RoundingMode::Nearest).0;
    let l = m.log10() + f64::from(e) * std::f64::consts::LOG10_2;
    let delta = l.abs() * 2f64.powi(-51) + 1e-15;
    // The magnitude rounded up when the value is, or when it is negative and rounded down.
    let mag_up = up == positive;
    let bound = if mag_up { l + delta } else { l - delta };
    let mut k = bound.floor();
    let mut d = 10f64.powf(bound - k);
    d = if mag_up {
        d * (1.0 + 1e-15)
    } else {
        d * (1.0 - 1e-15)
    };
    if d >= 10.0 {
        d /= 10.0;
        k += 1.0;
    } else if d < 1.0 {
        d *= 10.0;
        k -= 1.0;
    }
    let digits = (-(delta * std::f64::consts::LN_10).log10())
        .floor()
        .clamp(1.0, 16.0) as i32;
    let scale = 10f64.powi(digits - 1);
    let r = if mag_up {
        (d * scale).ceil() / scale
    } else {
        (d * scale).floor() / scale
    };
    let sign = if positive { "" } else { "-" };
    format!("{sign}{r}e{}", k as i64)
}

/// A per-thread memo of directed-rounded `e^x` for the last few arguments.
///
/// Expressions evaluate `e^x` of the same end many times (`cosh x` and `sinh x` both need `e^{±x}`,
/// and forward-mode derivatives repeat them: `(cosh x)' = sinh x`), and each correctly rounded `e^x`
/// recomputes `ln 2` at the working precision. The memo returns the very float the computation
/// would return (the result depends only on the value of `x`, the precision and the rounding
/// direction), so it changes no enclosure, only the time.
/// The lesser of two floats (the first when they compare equal, as `min_by` in the hull).
fn least(x: Float, y: Float) -> Float {
    if y < x { y } else { x }
}

/// The greater of two floats (the second when they compare equal, as `max_by` in the hull).
fn greatest(x: Float, y: Float) -> Float {
    if y >= x { y } else { x }
}

pub(crate) mod exp_memo {
    use malachite::Float;
    use malachite::base::rounding_modes::RoundingMode;
    use std::cell::RefCell;

    /// How many arguments are remembered per thread (a ring, oldest replaced first).
    const SLOTS: usize = 32;

    struct Entry {
        x: Float,
        prec: u64,
        rm: RoundingMode,
        value: Float,
    }

    thread_local! {
        static RING: RefCell<(Vec<Entry>, usize)> = const { RefCell::new((Vec::new(), 0)) };
    }

    /// `e^x` at `prec` bits rounded by `rm` (malachite's correctly rounded `exp`), remembered.
    pub(super) fn exp(x: &Float, prec: u64, rm: RoundingMode) -> Float {
        // `==` on floats: NaN never matches (it is recomputed); +0 and −0 match and e^{±0} = 1.
        let hit = RING.with(|r| {
            let r = r.borrow();
            r.0.iter()
                .find(|e| e.prec == prec && e.rm == rm && e.x == *x)
                .map(|e| e.value.clone())
        });
        if let Some(v) = hit {
            return v;
        }
        let value = x.exp_prec_round_ref(prec, rm).0;
        RING.with(|r| {
            let mut r = r.borrow_mut();
            let entry = Entry {
                x: x.clone(),
                prec,
                rm,
                value: value.clone(),
            };
            let (ring, next) = &mut *r;
            if ring.len() < SLOTS {
                ring.push(entry);
            } else {
                ring[*next] = entry;
                *next = (*next + 1) % SLOTS;
            }
        });
        value
    }

    #[cfg(feature = "unit-tests")]
    #[doc(hidden)]
    pub mod tests {
        use super::*;
        use malachite::base::rounding_modes::RoundingMode::{Ceiling, Floor};

        fn remembered_values_are_the_computed_ones() {
            // 3 passes over 50 arguments (more than the ring holds, so entries are replaced), both
            // directions, two precisions: every answer equals a fresh malachite computation, and
            // the two directions bracket e^x (lo < hi since e^x is irrational for x ≠ 0).
            for pass in 0..3 {
                for k in 0..50i32 {
                    let x = Float::from(f64::from(k - 25) / 7.0);
                    for prec in [64, 128] {
                        let lo = exp(&x, prec, Floor);
                        let hi = exp(&x, prec, Ceiling);
                        assert_eq!(lo, x.exp_prec_round_ref(prec, Floor).0, "pass {pass}");
                        assert_eq!(hi, x.exp_prec_round_ref(prec, Ceiling).0, "pass {pass}");
                        assert!(k == 25 || lo < hi);
                    }
                }
            }
        }

        /// The tests of this module, run by the test suite (`crate::unit`).
        pub const TESTS: &[crate::unit::Test] = &[crate::unit::Test {
            name: "remembered_values_are_the_computed_ones",
            run: remembered_values_are_the_computed_ones,
            panics: None,
        }];
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use proptest::prelude::*;

    /// An interval from two `f64` ends (in either order) at `prec` bits.
    fn interval(x: f64, y: f64, prec: u64) -> Interval {
        let (lo, hi) = if x <= y { (x, y) } else { (y, x) };
        let end = |v: f64, rm| {
            let mut f = Float::from(v);
            f.set_prec_round(prec, rm);
            f
        };
        Interval {
            lo: end(lo, Floor),
            hi: end(hi, Ceiling),
        }
    }

    /// Ends drawn so that zero ends, equal ends, ends of one sign and ends across 0 all occur.
    fn end() -> impl Strategy<Value = f64> {
        prop_oneof![
            Just(0.0),
            Just(-0.0),
            Just(1.5),
            Just(-1.5),
            -1e6f64..1e6,
            (-30i32..30).prop_map(|k| 2f64.powi(k) / 3.0),
        ]
    }

    /// Both ends equal as values and in precision.
    fn same(x: &Interval, y: &Interval) -> bool {
        let eq = |a: &Float, b: &Float| {
            a == b && a.get_prec() == b.get_prec() && a.is_sign_negative() == b.is_sign_negative()
        };
        eq(&x.lo, &y.lo) && eq(&x.hi, &y.hi)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]
        /// The product and the quotient by the sides of 0 are the hull of the four end
        /// results, bit for bit (including the sign of a zero end).
        fn sides_of_zero_give_the_hull_of_the_end_results(
            a in end(), b in end(), c in end(), d in end(), prec in prop_oneof![Just(24u64), Just(64), Just(113)]
        ) {
            let (x, y) = (interval(a, b, prec), interval(c, d, prec));
            let hull = x.hull_of_ends(&y, |p, q, r| p.mul_prec_round_ref_ref(q, prec, r).0);
            prop_assert!(same(&x.mul(&y, prec), &hull), "{x:?} · {y:?}");
            if let Ok(q) = x.div(&y, prec) {
                let hull = x.hull_of_ends(&y, |p, q, r| p.div_prec_round_ref_ref(q, prec, r).0);
                prop_assert!(same(&q, &hull), "{x:?} / {y:?}");
            }
        }
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[crate::unit::Test {
        name: "sides_of_zero_give_the_hull_of_the_end_results",
        run: sides_of_zero_give_the_hull_of_the_end_results,
        panics: None,
    }];
}
