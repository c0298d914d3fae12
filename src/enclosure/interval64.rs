//! Closed intervals `[lo, hi]` of `f64` with outward rounding: the fast (53-bit) enclosures of the
//! prover, with the arbitrary-precision [`Interval`] as the escalation.
//!
//! **Why it is sound.** IEEE 754 requires `+`, `−`, `×`, `÷` and `√` to be correctly rounded, and
//! Rust's `f64` operators and `f64::sqrt` are exactly those operations (no contraction into fused
//! operations, no extended precision), as is `f64::mul_add` (one rounding of `a·b + c`). Each end
//! of a result is computed in round-to-nearest and then moved outward by one unit in the last
//! place (`next_down`/`next_up`) **unless an error-free transformation shows the rounded result
//! is already on the right side of the exact one**: for a sum `s = a + b` Knuth's TwoSum gives
//! the exact error `e = (a + b) − s`; for a product `p = a·b` the error is `fma(a, b, −p)`; for a
//! quotient `q = a/b` the remainder `fma(−q, b, a) = a − q·b` has the sign of `(a/b − q)·b`;
//! for `s = √a`, `fma(−s, s, a) = a − s²`. These error terms are exact whenever the result is
//! not tiny (`|result| ≥ 2⁻⁹⁶⁰`, far from the subnormal range); tiny results are moved outward on
//! both sides regardless. Since round-to-nearest lands on one of the two floats around the exact
//! value, moving one float outward always reaches past it. So exact operations stay exact (a
//! structural zero stays `[0, 0]`, which the prover's face steps rely on), and the others cost
//! one float of width per end.
//!
//! `exp`, `ln`, `sinh` and `cosh` are not correctly rounded in any standard library, so they are
//! not taken from `libm`: they are computed here **in this interval arithmetic** from their
//! Taylor series with an explicit Lagrange bound on the truncation — `eˣ = 2ᵏ·eʳ` with
//! `r = x − k·ln 2` enclosed through an enclosure of `ln 2`, `eʳ = Σ_{j≤14} rʲ/j! + R` with
//! `|R| ≤ e^{0.36}|r|¹⁵/15!`; `ln x = e·ln 2 + 2·atanh(s)`, `s = (m − 1)/(m + 1)`,
//! `atanh(s) = Σ_{j≤10} s^{2j+1}/(2j+1) + R`, `|R| ≤ |s|²³/(23(1 − s²))`; `sinh` by its odd series
//! near 0 — so every result contains the exact value by construction, whatever the platform's
//! `libm` does. Values beyond the normal range of `f64` (`eˣ` for `x` outside `[−708, 709]`,
//! subnormal arguments of `ln`, overflowing products) are errors: the caller escalates to
//! [`Interval`].
//!
//! The property tests check every operation against the 256-bit [`Interval`]: the fast enclosure
//! contains the whole 256-bit enclosure (so in particular its midpoint).
//!
//! ```
//! use balloc::enclosure::Interval64;
//! let third = Interval64::div(&Interval64::point(1.0), &Interval64::point(3.0)).unwrap();
//! assert!(third.lo() < 1.0 / 3.0 + 1e-16 && third.hi() > 1.0 / 3.0 - 1e-16);
//! assert_eq!(third.hi(), third.lo().next_up()); // one float wide
//! // Exact operations stay exact: 0.5 + 0.25 = 0.75, 3·0 = 0.
//! let s = Interval64::point(0.5).add(&Interval64::point(0.25)).unwrap();
//! assert_eq!((s.lo(), s.hi()), (0.75, 0.75));
//! let e = Interval64::point(1.0).exp().unwrap();
//! assert!(e.lo() <= std::f64::consts::E && std::f64::consts::E <= e.hi());
//! assert!(e.hi() - e.lo() < 4e-15);
//! ```

use super::Interval;
use crate::exact::Q;
use num_traits::ToPrimitive;

/// `[lo, hi]` with finite `f64` ends, `lo ≤ hi` (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval64 {
    lo: f64,
    hi: f64,
}

/// Why a fast enclosure gave no interval: a value outside the normal range of `f64` (the caller
/// escalates to the arbitrary-precision [`Interval`]), or an operation that is undefined on the
/// operand (division by an interval containing 0, `ln` of a non-positive interval).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Beyond the range where this arithmetic is exact enough (overflow, tiny arguments).
    Range,
    /// The divisor contains 0.
    DivisorContainsZero,
    /// The argument of `ln` or `√` reaches a non-positive (negative) value.
    Domain,
}

/// `2⁻⁹⁶⁰`: results below this magnitude are widened on both sides (their error terms might not
/// be representable).
const TINY: f64 = f64::from_bits((1023 - 960) << 52);

#[inline]
fn tiny(x: f64) -> bool {
    x.abs() < TINY
}

/// `a + b` rounded down and up.
#[inline]
fn add_dir(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    if tiny(s) && s != 0.0 {
        return (s.next_down(), s.next_up());
    }
    // TwoSum: e = (a + b) − s exactly.
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    if e > 0.0 {
        (s, s.next_up())
    } else if e < 0.0 {
        (s.next_down(), s)
    } else {
        (s, s)
    }
}

#[inline]
fn add_down(a: f64, b: f64) -> f64 {
    add_dir(a, b).0
}

#[inline]
fn add_up(a: f64, b: f64) -> f64 {
    add_dir(a, b).1
}

/// `a·b` rounded down and up.
#[inline]
fn mul_dir(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    if a == 0.0 || b == 0.0 {
        return (0.0, 0.0);
    }
    if tiny(p) {
        return (p.next_down(), p.next_up());
    }
    let e = a.mul_add(b, -p);
    if e > 0.0 {
        (p, p.next_up())
    } else if e < 0.0 {
        (p.next_down(), p)
    } else {
        (p, p)
    }
}

#[inline]
fn mul_down(a: f64, b: f64) -> f64 {
    mul_dir(a, b).0
}

#[inline]
fn mul_up(a: f64, b: f64) -> f64 {
    mul_dir(a, b).1
}

/// `a/b` (`b ≠ 0`) rounded down and up.
#[inline]
fn div_dir(a: f64, b: f64) -> (f64, f64) {
    let q = a / b;
    if a == 0.0 {
        return (0.0, 0.0);
    }
    if tiny(q) || tiny(a) {
        return (q.next_down(), q.next_up());
    }
    // r = a − q·b exactly; a/b − q = r/b.
    let r = (-q).mul_add(b, a);
    let s = if b > 0.0 { r } else { -r };
    if s > 0.0 {
        (q, q.next_up())
    } else if s < 0.0 {
        (q.next_down(), q)
    } else {
        (q, q)
    }
}

#[inline]
fn div_down(a: f64, b: f64) -> f64 {
    div_dir(a, b).0
}

#[inline]
fn div_up(a: f64, b: f64) -> f64 {
    div_dir(a, b).1
}

/// `√a` (`a ≥ 0`) rounded down and up.
#[inline]
fn sqrt_dir(a: f64) -> (f64, f64) {
    let s = a.sqrt();
    if a == 0.0 {
        return (0.0, 0.0);
    }
    if tiny(a) {
        return (s.next_down().max(0.0), s.next_up());
    }
    let r = (-s).mul_add(s, a);
    if r > 0.0 {
        (s, s.next_up())
    } else if r < 0.0 {
        (s.next_down(), s)
    } else {
        (s, s)
    }
}

/// The enclosure `[LN2_LO, LN2_HI]` of ln 2: the two `f64` around it (checked against the 256-bit
/// value in the tests).
#[allow(clippy::approx_constant)]
const LN2_LO: f64 = 0.693_147_180_559_945_3;
const LN2_HI: f64 = 0.693_147_180_559_945_4;

/// Terms of the series of `eʳ` (degree 14; `|r| ≤ 0.35`, remainder below 2⁻⁶³ relative).
const EXP_TERMS: usize = 14;
/// Terms of the series of `atanh(s)/s` in `s²` (`j ≤ 10`; `|s| ≤ 0.1716`).
const ATANH_TERMS: usize = 10;
/// Terms of the odd series of `sinh(x)/x` in `x²` (`j ≤ 10`; `|x| ≤ 1/2`).
const SINH_TERMS: usize = 10;

impl Interval64 {
    /// `[lo, hi]`; `None` unless both ends are finite and `lo ≤ hi`.
    pub fn new(lo: f64, hi: f64) -> Option<Interval64> {
        (lo.is_finite() && hi.is_finite() && lo <= hi).then_some(Interval64 { lo, hi })
    }

    /// The point `[v, v]` (`v` finite).
    ///
    /// # Panics
    /// When `v` is not finite.
    pub fn point(v: f64) -> Interval64 {
        assert!(v.is_finite(), "a point interval needs a finite value");
        Interval64 { lo: v, hi: v }
    }

    /// The lower end.
    pub fn lo(&self) -> f64 {
        self.lo
    }

    /// The upper end.
    pub fn hi(&self) -> f64 {
        self.hi
    }

    /// Whether both ends are equal.
    pub fn is_point(&self) -> bool {
        self.lo == self.hi
    }

    /// The largest magnitude `max(|lo|, |hi|)`.
    pub fn mag(&self) -> f64 {
        self.lo.abs().max(self.hi.abs())
    }

    fn checked(lo: f64, hi: f64) -> Result<Interval64, Fault> {
        if lo.is_finite() && hi.is_finite() {
            Ok(Interval64 { lo, hi })
        } else {
            Err(Fault::Range)
        }
    }

    /// The smallest enclosure of a rational by two floats: exact when `q` is an `f64`, else the
    /// two floats around it (the quotient of its numerator and denominator when both are exact
    /// `f64`s, else through a 53-bit [`Interval`]).
    ///
    /// ```
    /// use balloc::{enclosure::Interval64, exact::Q};
    /// let t = Interval64::from_rational(&Q::new(1.into(), 10.into())).unwrap();
    /// assert!(t.lo() < 0.1 || t.hi() > 0.1);
    /// assert_eq!(t.hi(), t.lo().next_up());
    /// assert!(Interval64::from_rational(&Q::new(3.into(), 4.into())).unwrap().is_point());
    /// ```
    pub fn from_rational(q: &Q) -> Result<Interval64, Fault> {
        const EXACT: f64 = 9_007_199_254_740_992.0; // 2⁵³
        if let (Some(n), Some(d)) = (q.numer().to_i64(), q.denom().to_i64()) {
            let (nf, df) = (n as f64, d as f64);
            if nf.abs() <= EXACT && df <= EXACT {
                let (lo, hi) = div_dir(nf, df);
                return Interval64::checked(lo, hi);
            }
        }
        Interval64::from_interval(&Interval::from_rational(q, 53))
    }

    /// The enclosure of a malachite interval by two floats (its ends rounded outward to `f64`).
    pub fn from_interval(i: &Interval) -> Result<Interval64, Fault> {
        Interval64::checked(i.lo_f64(), i.hi_f64())
    }

    /// The same interval as a malachite [`Interval`] (exact: `f64` ends).
    pub fn to_interval(&self) -> Interval {
        Interval::new(
            malachite::Float::from(self.lo),
            malachite::Float::from(self.hi),
        )
        .expect("finite ordered ends")
    }

    /// `self + other`.
    pub fn add(&self, o: &Interval64) -> Result<Interval64, Fault> {
        Interval64::checked(add_down(self.lo, o.lo), add_up(self.hi, o.hi))
    }

    /// `self − other`.
    pub fn sub(&self, o: &Interval64) -> Result<Interval64, Fault> {
        Interval64::checked(add_down(self.lo, -o.hi), add_up(self.hi, -o.lo))
    }

    /// `−self` (exact).
    pub fn neg(&self) -> Interval64 {
        Interval64 {
            lo: -self.hi,
            hi: -self.lo,
        }
    }

    /// `self · other`, from the two end products the signs select (Moore's nine cases).
    pub fn mul(&self, o: &Interval64) -> Result<Interval64, Fault> {
        let (a, b, c, d) = (self.lo, self.hi, o.lo, o.hi);
        let s = side(a, b);
        let t = side(c, d);
        let (lo, hi) = match (s, t) {
            (1, 1) => (mul_down(a, c), mul_up(b, d)),
            (1, -1) => (mul_down(b, c), mul_up(a, d)),
            (1, _) => (mul_down(b, c), mul_up(b, d)),
            (-1, 1) => (mul_down(a, d), mul_up(b, c)),
            (-1, -1) => (mul_down(b, d), mul_up(a, c)),
            (-1, _) => (mul_down(a, d), mul_up(a, c)),
            (_, 1) => (mul_down(a, d), mul_up(b, d)),
            (_, -1) => (mul_down(b, c), mul_up(a, c)),
            _ => (
                mul_down(a, d).min(mul_down(b, c)),
                mul_up(a, c).max(mul_up(b, d)),
            ),
        };
        Interval64::checked(lo, hi)
    }

    /// `self / other`; an error when `other` contains 0.
    pub fn div(&self, o: &Interval64) -> Result<Interval64, Fault> {
        let (a, b, c, d) = (self.lo, self.hi, o.lo, o.hi);
        if c <= 0.0 && d >= 0.0 {
            return Err(Fault::DivisorContainsZero);
        }
        let s = side(a, b);
        let (lo, hi) = if c > 0.0 {
            match s {
                1 => (div_down(a, d), div_up(b, c)),
                -1 => (div_down(a, c), div_up(b, d)),
                _ => (div_down(a, c), div_up(b, c)),
            }
        } else {
            match s {
                1 => (div_down(b, d), div_up(a, c)),
                -1 => (div_down(b, c), div_up(a, d)),
                _ => (div_down(b, d), div_up(a, d)),
            }
        };
        Interval64::checked(lo, hi)
    }

    /// `self²` (`[0, max²]` across 0, tighter than `self·self`).
    pub fn square(&self) -> Result<Interval64, Fault> {
        if self.lo < 0.0 && self.hi > 0.0 {
            let m = self.mag();
            Interval64::checked(0.0, mul_up(m, m))
        } else if self.lo >= 0.0 {
            Interval64::checked(mul_down(self.lo, self.lo), mul_up(self.hi, self.hi))
        } else {
            Interval64::checked(mul_down(self.hi, self.hi), mul_up(self.lo, self.lo))
        }
    }

    /// `selfᵏ` for `k ≥ 0` (repeated squaring; exact signs of odd powers).
    pub fn powu(&self, k: u64) -> Result<Interval64, Fault> {
        let mut acc = Interval64::point(1.0);
        let mut base = *self;
        let mut e = k;
        while e > 0 {
            if e & 1 == 1 {
                acc = acc.mul(&base)?;
            }
            e >>= 1;
            if e > 0 {
                base = base.square()?;
            }
        }
        Ok(acc)
    }

    /// `√self`; an error when the interval reaches below 0.
    pub fn sqrt(&self) -> Result<Interval64, Fault> {
        if self.lo < 0.0 {
            return Err(Fault::Domain);
        }
        Interval64::checked(sqrt_dir(self.lo).0, sqrt_dir(self.hi).1)
    }

    /// `e^self` (increasing: the ends' enclosures).
    pub fn exp(&self) -> Result<Interval64, Fault> {
        let lo = exp_point(self.lo)?.lo;
        let hi = if self.is_point() {
            exp_point(self.lo)?.hi
        } else {
            exp_point(self.hi)?.hi
        };
        Interval64::checked(lo, hi)
    }

    /// `ln self`; an error when the interval reaches 0 or below.
    pub fn ln(&self) -> Result<Interval64, Fault> {
        if self.lo <= 0.0 {
            return Err(Fault::Domain);
        }
        let lo = ln_point(self.lo)?.lo;
        let hi = if self.is_point() {
            ln_point(self.lo)?.hi
        } else {
            ln_point(self.hi)?.hi
        };
        Interval64::checked(lo, hi)
    }

    /// `sinh self` (increasing).
    pub fn sinh(&self) -> Result<Interval64, Fault> {
        let lo = sinh_point(self.lo)?.lo;
        let hi = if self.is_point() {
            sinh_point(self.lo)?.hi
        } else {
            sinh_point(self.hi)?.hi
        };
        Interval64::checked(lo, hi)
    }

    /// `cosh self` (decreasing below 0, increasing above; `[1, ·]` across 0).
    pub fn cosh(&self) -> Result<Interval64, Fault> {
        if self.lo >= 0.0 {
            let lo = cosh_point(self.lo)?.lo;
            let hi = cosh_point(self.hi)?.hi;
            Interval64::checked(lo, hi)
        } else if self.hi <= 0.0 {
            let lo = cosh_point(self.hi)?.lo;
            let hi = cosh_point(self.lo)?.hi;
            Interval64::checked(lo, hi)
        } else {
            let hi = cosh_point(self.mag())?.hi;
            Interval64::checked(1.0, hi)
        }
    }

    /// `|self|`.
    pub fn abs(&self) -> Interval64 {
        if self.lo >= 0.0 {
            *self
        } else if self.hi <= 0.0 {
            self.neg()
        } else {
            Interval64 {
                lo: 0.0,
                hi: self.mag(),
            }
        }
    }

    /// The smallest interval containing both.
    pub fn hull(&self, o: &Interval64) -> Interval64 {
        Interval64 {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }
}

/// The side of 0 of `[a, b]` with nonzero ends: 1 above, −1 below, 0 across or touching 0.
#[inline]
fn side(a: f64, b: f64) -> i8 {
    if a > 0.0 {
        1
    } else if b < 0.0 {
        -1
    } else {
        0
    }
}

/// `1/j!` as an interval, for `j ≤ 24` (computed once).
fn inv_factorial(j: usize) -> Interval64 {
    static TABLE: std::sync::LazyLock<Vec<Interval64>> = std::sync::LazyLock::new(|| {
        let (mut lo, mut hi) = (1.0f64, 1.0f64);
        (0..=24)
            .map(|j| {
                if j >= 2 {
                    lo = mul_down(lo, j as f64);
                    hi = mul_up(hi, j as f64);
                }
                Interval64 {
                    lo: div_down(1.0, hi),
                    hi: div_up(1.0, lo),
                }
            })
            .collect()
    });
    TABLE[j]
}

fn ln2() -> Interval64 {
    Interval64 {
        lo: LN2_LO,
        hi: LN2_HI,
    }
}

/// `e^x` at a point `x`.
fn exp_point(x: f64) -> Result<Interval64, Fault> {
    if x == 0.0 {
        return Ok(Interval64::point(1.0));
    }
    if !(-708.0..=709.0).contains(&x) {
        return Err(Fault::Range);
    }
    let k = (x * std::f64::consts::LOG2_E).round();
    // r = x − k·ln 2 (k an integer with |k| ≤ 1023, exact).
    let r = Interval64::point(x).sub(&Interval64::point(k).mul(&ln2())?)?;
    let er = exp_small(&r)?;
    let scale = Interval64::point(2f64.powi(k as i32));
    er.mul(&scale)
}

/// `eʳ` for a small interval `r` (`|r| ≤ 0.36`), by its Taylor series with the Lagrange bound.
fn exp_small(r: &Interval64) -> Result<Interval64, Fault> {
    debug_assert!(r.mag() <= 0.36);
    let mut acc = inv_factorial(EXP_TERMS);
    for j in (0..EXP_TERMS).rev() {
        acc = acc.mul(r)?.add(&inv_factorial(j))?;
    }
    // |R| ≤ e^{0.36}·|r|^{15}/15! ≤ 1.44·|r|^{15}/15!.
    let m = r.mag();
    if m == 0.0 {
        return Ok(acc);
    }
    let bound = mul_up(
        Interval64::point(m).powu(EXP_TERMS as u64 + 1)?.hi,
        mul_up(1.44, inv_factorial(EXP_TERMS + 1).hi),
    );
    acc.add(&Interval64 {
        lo: -bound,
        hi: bound,
    })
}

/// `ln x` at a point `x > 0` (normal).
fn ln_point(x: f64) -> Result<Interval64, Fault> {
    if x == 1.0 {
        return Ok(Interval64::point(0.0));
    }
    if !(x.is_normal() && x > 0.0) {
        return Err(Fault::Range);
    }
    // x = m·2ᵉ with m ∈ [1, 2), then m ∈ [√½, √2).
    let bits = x.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
    if m > std::f64::consts::SQRT_2 {
        m /= 2.0; // exact
        e += 1;
    }
    // s = (m − 1)/(m + 1); m − 1 is exact (Sterbenz, m ∈ [1/2, 2]).
    let num = Interval64::point(m - 1.0);
    let den = Interval64::point(m).add(&Interval64::point(1.0))?;
    let s = num.div(&den)?;
    let t = s.square()?;
    // atanh(s)/s = Σ_j t^j/(2j + 1).
    let coef = |j: usize| {
        let (lo, hi) = div_dir(1.0, (2 * j + 1) as f64);
        Interval64 { lo, hi }
    };
    let mut acc = coef(ATANH_TERMS);
    for j in (0..ATANH_TERMS).rev() {
        acc = acc.mul(&t)?.add(&coef(j))?;
    }
    let mut lnm = s.mul(&acc)?.mul(&Interval64::point(2.0))?;
    let sm = s.mag();
    if sm > 0.0 {
        // 2·Σ_{j > J} |s|^{2j+1}/(2j+1) ≤ 2|s|^{2J+3}/((2J+3)(1 − s²)), and s² ≤ 0.03.
        let p = Interval64::point(sm).powu(2 * ATANH_TERMS as u64 + 3)?.hi;
        let bound = div_up(mul_up(2.0, p), mul_down((2 * ATANH_TERMS + 3) as f64, 0.97));
        lnm = lnm.add(&Interval64 {
            lo: -bound,
            hi: bound,
        })?;
    }
    Interval64::point(e as f64).mul(&ln2())?.add(&lnm)
}

/// `sinh x` at a point.
fn sinh_point(x: f64) -> Result<Interval64, Fault> {
    if x == 0.0 {
        return Ok(Interval64::point(0.0));
    }
    if x.abs() <= 0.5 {
        // sinh(x)/x = Σ_j x^{2j}/(2j+1)!, remainder ≤ cosh(1/2)·x^{2J+2}/(2J+3)!.
        let xx = Interval64::point(x);
        let t = xx.square()?;
        let mut acc = inv_factorial(2 * SINH_TERMS + 1);
        for j in (0..SINH_TERMS).rev() {
            acc = acc.mul(&t)?.add(&inv_factorial(2 * j + 1))?;
        }
        let bound = mul_up(
            mul_up(
                1.13,
                Interval64::point(t.hi).powu(SINH_TERMS as u64 + 1)?.hi,
            ),
            inv_factorial(2 * SINH_TERMS + 3).hi,
        );
        let acc = acc.add(&Interval64 {
            lo: -bound,
            hi: bound,
        })?;
        return xx.mul(&acc);
    }
    let a = exp_point(x)?;
    let b = exp_point(-x)?;
    a.sub(&b)?.mul(&Interval64::point(0.5))
}

/// `cosh x` at a point.
fn cosh_point(x: f64) -> Result<Interval64, Fault> {
    if x == 0.0 {
        return Ok(Interval64::point(1.0));
    }
    let a = exp_point(x)?;
    let b = exp_point(-x)?;
    let c = a.add(&b)?.mul(&Interval64::point(0.5))?;
    // cosh ≥ 1.
    Interval64::checked(c.lo.max(1.0), c.hi.max(1.0))
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use malachite::Float;
    use proptest::prelude::*;

    const P: u64 = 256;

    fn big(x: f64) -> Interval {
        Interval::from_f64(x).unwrap()
    }

    /// The fast enclosure contains the whole 256-bit one.
    fn contains(fast: &Interval64, exact: &Interval) {
        let lo = Float::from(fast.lo);
        let hi = Float::from(fast.hi);
        assert!(
            lo <= *exact.lo() && *exact.hi() <= hi,
            "fast {fast:?} does not contain the 256-bit {exact}"
        );
    }

    fn interval(x: f64, y: f64) -> (Interval64, Interval) {
        let (a, b) = if x <= y { (x, y) } else { (y, x) };
        (
            Interval64::new(a, b).unwrap(),
            Interval::new(Float::from(a), Float::from(b)).unwrap(),
        )
    }

    fn end() -> impl Strategy<Value = f64> {
        prop_oneof![
            Just(0.0),
            Just(1.0),
            Just(-1.0),
            Just(0.5),
            -1e6f64..1e6,
            -2.0f64..2.0,
            (-60i32..60).prop_map(|k| 2f64.powi(k) / 3.0),
            (-60i32..60).prop_map(|k| -(2f64.powi(k)) / 7.0),
        ]
    }

    fn ln2_encloses_ln_2() {
        let l = Interval::ln_of(&Q::from_integer(2.into()), P).unwrap();
        assert!(*l.lo() > LN2_LO && *l.hi() < LN2_HI);
        assert_eq!(LN2_HI, LN2_LO.next_up());
    }

    fn exact_operations_stay_exact() {
        let p = Interval64::point;
        assert_eq!(p(0.0).mul(&p(3.7)).unwrap(), p(0.0));
        assert_eq!(p(0.1).sub(&p(0.1)).unwrap(), p(0.0));
        assert_eq!(p(1.5).mul(&p(-2.0)).unwrap(), p(-3.0));
        assert_eq!(p(1.0).div(&p(4.0)).unwrap(), p(0.25));
        assert_eq!(p(9.0).sqrt().unwrap(), p(3.0));
        assert_eq!(p(0.0).exp().unwrap(), p(1.0));
        assert_eq!(p(1.0).ln().unwrap(), p(0.0));
        assert_eq!(p(0.0).sinh().unwrap(), p(0.0));
        assert_eq!(p(0.0).cosh().unwrap(), p(1.0));
        // Out of range: an error, never inf.
        assert_eq!(p(1000.0).exp(), Err(Fault::Range));
        assert_eq!(p(1e300).mul(&p(1e300)), Err(Fault::Range));
        assert_eq!(
            p(1.0).div(&Interval64::new(-1.0, 1.0).unwrap()),
            Err(Fault::DivisorContainsZero)
        );
    }

    fn elementary_functions_are_a_few_floats_wide() {
        // e, ln 10, sinh(1/4), cosh(3) against the 256-bit values, and their widths.
        for (fast, exact) in [
            (
                Interval64::point(1.0).exp().unwrap(),
                big(1.0).exp(P).unwrap(),
            ),
            (
                Interval64::point(10.0).ln().unwrap(),
                big(10.0).ln(P).unwrap(),
            ),
            (
                Interval64::point(0.25).sinh().unwrap(),
                crate::lang::Domain::sinh(&crate::lang::Enclosure { prec: P }, &big(0.25)).unwrap(),
            ),
            (
                Interval64::point(3.0).cosh().unwrap(),
                crate::lang::Domain::cosh(&crate::lang::Enclosure { prec: P }, &big(3.0)).unwrap(),
            ),
        ] {
            contains(&fast, &exact);
            let ulps = (fast.hi - fast.lo) / (fast.hi.abs() * f64::EPSILON);
            assert!(ulps <= 8.0, "{fast:?}: {ulps} ulps");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]
        fn arithmetic_contains_the_256_bit_result(a in end(), b in end(), c in end(), d in end()) {
            let (x, bx) = interval(a, b);
            let (y, by) = interval(c, d);
            contains(&x.add(&y).unwrap(), &bx.add(&by, P));
            contains(&x.sub(&y).unwrap(), &bx.sub(&by, P));
            contains(&x.mul(&y).unwrap(), &bx.mul(&by, P));
            if let Ok(q) = x.div(&y) {
                contains(&q, &bx.div(&by, P).unwrap());
            }
            contains(&x.square().unwrap(), &crate::lang::Domain::powi(&crate::lang::Enclosure { prec: P }, &bx, 2).unwrap());
            if let Ok(s) = x.abs().sqrt() {
                let e = crate::lang::Enclosure { prec: P };
                contains(&s, &crate::lang::Domain::sqrt(&e, &crate::lang::Domain::abs(&e, &bx).unwrap()).unwrap());
            }
        }

        fn elementary_functions_contain_the_256_bit_result(a in -700.0f64..700.0, w in 0.0f64..3.0) {
            // The enclosure over [a, a + w] contains the 256-bit enclosures of the points a,
            // a + w/2 and a + w (the 256-bit interval versions of cosh and sinh are wider than
            // the range, (e^x ± e^{−x})/2 has the dependency problem, so points are compared).
            let (x, _) = interval(a, a + w);
            let e = crate::lang::Enclosure { prec: P };
            for p in [a, a + w / 2.0, a + w] {
                let bp = big(p);
                contains(&x.exp().unwrap(), &bp.exp(P).unwrap());
                contains(&Interval64::point(p).exp().unwrap(), &bp.exp(P).unwrap());
                if x.mag() < 700.0 {
                    contains(&x.sinh().unwrap(), &crate::lang::Domain::sinh(&e, &bp).unwrap());
                    contains(&x.cosh().unwrap(), &crate::lang::Domain::cosh(&e, &bp).unwrap());
                }
                if a > 0.0 {
                    contains(&x.ln().unwrap(), &bp.ln(P).unwrap());
                }
            }
        }

        fn small_arguments_near_zero(a in -1e-3f64..1e-3, k in -300i32..0) {
            let v = a * 10f64.powi(k / 10);
            let (x, bx) = interval(v, v);
            let e = crate::lang::Enclosure { prec: P };
            contains(&x.exp().unwrap(), &bx.exp(P).unwrap());
            contains(&x.sinh().unwrap(), &crate::lang::Domain::sinh(&e, &bx).unwrap());
            if v > 0.0 {
                contains(&x.ln().unwrap(), &bx.ln(P).unwrap());
                let one = Interval64::point(1.0).add(&x).unwrap();
                contains(&one.ln().unwrap(), &big(1.0).add(&bx, P).ln(P).unwrap());
            }
        }

        fn rationals_are_enclosed(n in -1_000_000_000i64..1_000_000_000, d in 1i64..1_000_000_007) {
            let q = Q::new(n.into(), d.into());
            let f = Interval64::from_rational(&q).unwrap();
            let b = Interval::from_rational(&q, P);
            contains(&f, &b);
            prop_assert!(f.hi() <= f.lo().next_up());
        }
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "ln2_encloses_ln_2",
            run: ln2_encloses_ln_2,
            panics: None,
        },
        crate::unit::Test {
            name: "exact_operations_stay_exact",
            run: exact_operations_stay_exact,
            panics: None,
        },
        crate::unit::Test {
            name: "elementary_functions_are_a_few_floats_wide",
            run: elementary_functions_are_a_few_floats_wide,
            panics: None,
        },
        crate::unit::Test {
            name: "arithmetic_contains_the_256_bit_result",
            run: arithmetic_contains_the_256_bit_result,
            panics: None,
        },
        crate::unit::Test {
            name: "elementary_functions_contain_the_256_bit_result",
            run: elementary_functions_contain_the_256_bit_result,
            panics: None,
        },
        crate::unit::Test {
            name: "small_arguments_near_zero",
            run: small_arguments_near_zero,
            panics: None,
        },
        crate::unit::Test {
            name: "rationals_are_enclosed",
            run: rationals_are_enclosed,
            panics: None,
        },
    ];
}
