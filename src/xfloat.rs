//! Extended-range floating-point numbers `m · 2^e` (an `f64` mantissa and an `i64` binary
//! exponent), the arithmetic in which claim expressions are evaluated, so that `Γ = Σ 2cosh(α yᵢ)`
//! at a load vector with `α·|y| ≫ 700` compares correctly with the other side of an inequality
//! instead of overflowing to `inf` (docs/conventions.md §1: large exponents in the log domain).
//!
//! The relative precision is that of `f64` (53 bits); the range is `2^(±2^62)`.

use crate::scaled::Scaled;
use std::cmp::Ordering;

/// A real number `m · 2^e` with `|m| ∈ [½, 1)` (or `m = 0`, or `m` non-finite with `e = 0`).
///
/// ```
/// use balloc::claim::XFloat;
/// let big = XFloat::exp(XFloat::from_f64(1000.0));         // e^1000, beyond f64
/// let twice = big.add(big);
/// assert!((twice.ln().to_f64() - (1000.0 + 2f64.ln())).abs() < 1e-9);
/// assert!(twice.sub(big).sub(big).is_zero());
/// assert_eq!(XFloat::from_f64(3.0).mul(XFloat::from_f64(0.5)).to_f64(), 1.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct XFloat {
    m: f64,
    e: i64,
}

const LN2: f64 = std::f64::consts::LN_2;
const EXP_LIMIT: i64 = 1 << 62;

/// `x = m · 2^e` with `|m| ∈ [½, 1)` for finite non-zero `x`.
fn frexp(x: f64) -> (f64, i64) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let bits = x.to_bits();
    let raw = ((bits >> 52) & 0x7ff) as i64;
    if raw == 0 {
        // Subnormal: scale into the normal range first.
        let (m, e) = frexp(x * 2f64.powi(64));
        return (m, e - 64);
    }
    let m = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
    (m, raw - 1022)
}

/// `m · 2^k` for `|m| ≤ 1` and any `k` (saturating).
fn ldexp(m: f64, k: i64) -> f64 {
    if k > 1023 {
        if k > 2100 {
            return m * f64::INFINITY;
        }
        return m * 2f64.powi(1023) * 2f64.powi((k - 1023) as i32);
    }
    if k < -1022 {
        if k < -2200 {
            return m * 0.0;
        }
        return m * 2f64.powi(-1022) * 2f64.powi((k + 1022) as i32);
    }
    m * 2f64.powi(k as i32)
}

#[allow(clippy::should_implement_trait)]
impl XFloat {
    /// Zero.
    pub const ZERO: XFloat = XFloat { m: 0.0, e: 0 };

    /// Not a number (the result of an undefined operation).
    pub const NAN: XFloat = XFloat { m: f64::NAN, e: 0 };

    fn norm(m: f64, e: i64) -> XFloat {
        if m == 0.0 || !m.is_finite() {
            return XFloat { m, e: 0 };
        }
        let (mm, de) = frexp(m);
        let e = e.saturating_add(de);
        if e > EXP_LIMIT {
            return XFloat {
                m: mm.signum() * f64::INFINITY,
                e: 0,
            };
        }
        if e < -EXP_LIMIT {
            return XFloat::ZERO;
        }
        XFloat { m: mm, e }
    }

    /// An ordinary `f64` (infinities and NaN are kept as such).
    pub fn from_f64(x: f64) -> XFloat {
        XFloat::norm(x, 0)
    }

    /// Converts a [`Scaled`] number `mantissa · e^{log_scale}` without overflow.
    pub fn from_scaled(s: &Scaled) -> XFloat {
        if s.mantissa == 0.0 || !s.mantissa.is_finite() || !s.log_scale.is_finite() {
            if s.log_scale == f64::NEG_INFINITY {
                return XFloat::ZERO;
            }
            return XFloat::from_f64(s.mantissa * s.log_scale.exp());
        }
        XFloat::from_f64(s.mantissa).mul(XFloat::exp(XFloat::from_f64(s.log_scale)))
    }

    /// The value as an `f64`, saturating to `±inf` (or `0`) outside the range of `f64`.
    pub fn to_f64(self) -> f64 {
        if !self.m.is_finite() || self.m == 0.0 {
            return self.m;
        }
        ldexp(self.m, self.e)
    }

    /// Whether the value is NaN.
    pub fn is_nan(self) -> bool {
        self.m.is_nan()
    }

    /// Whether the value is finite (not NaN, not infinite).
    pub fn is_finite(self) -> bool {
        self.m.is_finite()
    }

    /// Whether the value is exactly zero.
    pub fn is_zero(self) -> bool {
        self.m == 0.0
    }

    /// −1, 0 or 1 (NaN for NaN).
    pub fn signum(self) -> f64 {
        if self.m == 0.0 { 0.0 } else { self.m.signum() }
    }

    /// `x + y`.
    pub fn add(self, o: XFloat) -> XFloat {
        if !self.m.is_finite() || !o.m.is_finite() {
            return XFloat::from_f64(self.m + o.m);
        }
        if self.m == 0.0 {
            return o;
        }
        if o.m == 0.0 {
            return self;
        }
        let (hi, lo) = if self.e >= o.e { (self, o) } else { (o, self) };
        let d = hi.e - lo.e;
        if d > 60 {
            return hi;
        }
        XFloat::norm(hi.m + lo.m * 2f64.powi(-(d as i32)), hi.e)
    }

    /// `−x`.
    pub fn neg(self) -> XFloat {
        XFloat {
            m: -self.m,
            e: self.e,
        }
    }

    /// `x − y`.
    pub fn sub(self, o: XFloat) -> XFloat {
        self.add(o.neg())
    }

    /// `x · y`.
    pub fn mul(self, o: XFloat) -> XFloat {
        if !self.m.is_finite() || !o.m.is_finite() || self.m == 0.0 || o.m == 0.0 {
            return XFloat::from_f64(self.m * o.m);
        }
        XFloat::norm(self.m * o.m, self.e + o.e)
    }

    /// `x / y` (NaN or ±inf for division by zero, as in `f64`).
    pub fn div(self, o: XFloat) -> XFloat {
        if !self.m.is_finite() || !o.m.is_finite() || self.m == 0.0 || o.m == 0.0 {
            return XFloat::from_f64(self.m / o.m);
        }
        XFloat::norm(self.m / o.m, self.e - o.e)
    }

    /// `|x|`.
    pub fn abs(self) -> XFloat {
        XFloat {
            m: self.m.abs(),
            e: self.e,
        }
    }

    /// `ln x` (NaN for negative `x`, −inf for 0).
    pub fn ln(self) -> XFloat {
        if self.m <= 0.0 || !self.m.is_finite() {
            return XFloat::from_f64(self.m.ln());
        }
        XFloat::from_f64(self.m.ln() + self.e as f64 * LN2)
    }

    /// `e^x`.
    pub fn exp(x: XFloat) -> XFloat {
        let t = x.to_f64();
        if !t.is_finite() {
            return XFloat::from_f64(t.exp());
        }
        if t.abs() < 700.0 {
            return XFloat::from_f64(t.exp());
        }
        // e^t = 2^k · e^r with k = round(t/ln 2), r = t − k ln 2 (ln 2 split for accuracy).
        let k = (t / LN2).round();
        if k.abs() > EXP_LIMIT as f64 {
            return if t > 0.0 {
                XFloat::from_f64(f64::INFINITY)
            } else {
                XFloat::ZERO
            };
        }
        const LN2_HI: f64 = 6.931_471_803_691_238e-1;
        const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
        let r = (t - k * LN2_HI) - k * LN2_LO;
        XFloat::norm(r.exp(), k as i64)
    }

    /// `√x` (NaN for negative `x`).
    pub fn sqrt(self) -> XFloat {
        if self.m <= 0.0 || !self.m.is_finite() {
            return XFloat::from_f64(self.m.sqrt());
        }
        if self.e % 2 == 0 {
            XFloat::norm(self.m.sqrt(), self.e / 2)
        } else {
            XFloat::norm((2.0 * self.m).sqrt(), (self.e - 1).div_euclid(2))
        }
    }

    /// `x^y`: repeated multiplication for integer `|y| ≤ 64` (any sign of `x`), otherwise
    /// `e^{y ln x}` for `x > 0` (NaN for negative `x` and a non-integer `y`).
    pub fn pow(self, y: XFloat) -> XFloat {
        let yf = y.to_f64();
        if yf.fract() == 0.0 && yf.abs() <= 64.0 {
            let mut acc = XFloat::from_f64(1.0);
            for _ in 0..(yf.abs() as u32) {
                acc = acc.mul(self);
            }
            return if yf < 0.0 {
                XFloat::from_f64(1.0).div(acc)
            } else {
                acc
            };
        }
        if self.m == 0.0 && yf > 0.0 {
            return XFloat::ZERO;
        }
        XFloat::exp(y.mul(self.ln()))
    }

    /// The larger of two values (NaN if either is NaN).
    pub fn max(self, o: XFloat) -> XFloat {
        match self.partial_cmp(&o) {
            Some(Ordering::Less) => o,
            Some(_) => self,
            None => XFloat::NAN,
        }
    }

    /// The smaller of two values (NaN if either is NaN).
    pub fn min(self, o: XFloat) -> XFloat {
        match self.partial_cmp(&o) {
            Some(Ordering::Greater) => o,
            Some(_) => self,
            None => XFloat::NAN,
        }
    }

    /// `⌊x⌋`.
    pub fn floor(self) -> XFloat {
        if self.e > 60 || !self.m.is_finite() {
            return self;
        }
        XFloat::from_f64(self.to_f64().floor())
    }

    /// `⌈x⌉`.
    pub fn ceil(self) -> XFloat {
        if self.e > 60 || !self.m.is_finite() {
            return self;
        }
        XFloat::from_f64(self.to_f64().ceil())
    }
}

impl PartialOrd for XFloat {
    fn partial_cmp(&self, o: &XFloat) -> Option<Ordering> {
        if self.m.is_nan() || o.m.is_nan() {
            return None;
        }
        if !self.m.is_finite() || !o.m.is_finite() || self.m == 0.0 || o.m == 0.0 {
            return self.to_f64().partial_cmp(&o.to_f64());
        }
        if self.m.signum() != o.m.signum() {
            return self.m.partial_cmp(&o.m);
        }
        let pos = self.m > 0.0;
        let c = self.e.cmp(&o.e).then(self.m.abs().total_cmp(&o.m.abs()));
        Some(if pos { c } else { c.reverse() })
    }
}

impl std::fmt::Display for XFloat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = self.to_f64();
        if v.is_finite() && (v == 0.0 || v.abs() > 1e-300) || !self.m.is_finite() {
            write!(f, "{v:e}")
        } else {
            // m·2^e = 10^{log10|m| + e·log10 2}
            let l = self.m.abs().log10() + self.e as f64 * std::f64::consts::LOG10_2;
            let (k, frac) = (l.floor(), l - l.floor());
            let sign = if self.m < 0.0 { "-" } else { "" };
            write!(f, "{sign}{}e{}", 10f64.powf(frac), k as i64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_agrees_with_f64_in_range() {
        let xs = [0.0, 1.0, -2.5, 3e10, -7e-5, 1e300, 2e-300];
        for &a in &xs {
            for &b in &xs {
                let (x, y) = (XFloat::from_f64(a), XFloat::from_f64(b));
                // Beyond the f64 range both saturate to ±inf (XFloat keeps the value; to_f64 saturates).
                let close =
                    |u: f64, v: f64| u == v || (u - v).abs() <= 1e-15 * u.abs().max(v.abs());
                assert!(close(x.add(y).to_f64(), a + b), "{a}+{b}");
                assert!(close(x.mul(y).to_f64(), a * b), "{a}*{b}");
                if b != 0.0 {
                    assert!(close(x.div(y).to_f64(), a / b), "{a}/{b}");
                }
                assert_eq!(x.partial_cmp(&y), a.partial_cmp(&b), "{a} vs {b}");
            }
        }
    }

    #[test]
    fn exp_and_ln_beyond_f64() {
        // e^{5000}: ln must come back to 5000; the f64 value saturates to inf.
        let x = XFloat::exp(XFloat::from_f64(5000.0));
        assert!((x.ln().to_f64() - 5000.0).abs() < 1e-9);
        assert_eq!(x.to_f64(), f64::INFINITY);
        assert!(x > XFloat::from_f64(f64::MAX));
        // e^{5000} · e^{−5000} = 1.
        let one = x.mul(XFloat::exp(XFloat::from_f64(-5000.0)));
        assert!((one.to_f64() - 1.0).abs() < 1e-9);
        // √(e^{5000}) = e^{2500}
        assert!((x.sqrt().ln().to_f64() - 2500.0).abs() < 1e-9);
        // Scaled e^{5000}·3 converts.
        let s = Scaled {
            mantissa: 3.0,
            log_scale: 5000.0,
        };
        assert!((XFloat::from_scaled(&s).ln().to_f64() - (5000.0 + 3f64.ln())).abs() < 1e-9);
    }

    #[test]
    fn pow_integer_and_real() {
        assert_eq!(
            XFloat::from_f64(-2.0).pow(XFloat::from_f64(3.0)).to_f64(),
            -8.0
        );
        assert_eq!(
            XFloat::from_f64(2.0).pow(XFloat::from_f64(-2.0)).to_f64(),
            0.25
        );
        let r = XFloat::from_f64(2.0).pow(XFloat::from_f64(0.5)).to_f64();
        assert!((r - 2f64.sqrt()).abs() < 1e-15);
        assert!(XFloat::from_f64(-2.0).pow(XFloat::from_f64(0.5)).is_nan());
    }
}
