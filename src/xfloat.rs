//! Extended-range floating-point numbers, the one number type for values far outside the range of
//! `f64`: potentials such as `Φ = Σ e^{α yᵢ}` at huge loads, their expectations, and the claim
//! expressions evaluated on them (`Γ = Σ 2cosh(α yᵢ)` at a load vector with `α·|y| ≫ 700` compares
//! correctly with the other side of an inequality instead of overflowing to `inf`;
//! `docs/conventions.md` §2: large exponents are handled in the log domain).
//!
//! A value is held in one of two forms:
//! * **binary** `m · 2^e` (an `f64` mantissa with `|m| ∈ [½, 1)` and an `i64` exponent): the form
//!   of every arithmetic result; relative precision that of `f64` (53 bits), range `2^(±2^62)`;
//! * **log domain** `m · e^s` (an `f64` mantissa and an `f64` natural-log scale): values built
//!   from exponentials ([`XFloat::exp_of`], [`XFloat::sum_exp`], [`XFloat::from_parts`]) keep
//!   `e^s` unevaluated, so `Σ e^{xᵢ} = (Σ e^{xᵢ − s})·e^s` with `s = max xᵢ` is formed without
//!   overflow and `ln|x| = ln|m| + s` is read off with a single rounding. Sums of log-domain values
//!   ([`XFloat::add`], aligned at the larger scale), [`XFloat::scale`], [`XFloat::neg`] and
//!   [`XFloat::abs`] stay in the log domain; every other operation converts its operands to the
//!   binary form first ([`XFloat::binary`]).
//!
//! Both forms denote the same real numbers; comparisons and equality are by value.

use serde::ser::SerializeStruct;
use std::cmp::Ordering;

/// A real number in binary form `m · 2^e` or in log-domain form `m · e^s` (see the module
/// documentation): `value = m · 2^e · e^s` with `s = 0` in binary form and `e = 0` in the log
/// domain.
///
/// ```
/// use balloc::xfloat::XFloat;
/// let big = XFloat::exp(XFloat::from_f64(1000.0));         // e^1000, beyond f64
/// let twice = big.add(big);
/// assert!((twice.ln().to_f64() - (1000.0 + 2f64.ln())).abs() < 1e-9);
/// assert!(twice.sub(big).sub(big).is_zero());
/// assert_eq!(XFloat::from_f64(3.0).mul(XFloat::from_f64(0.5)).to_f64(), 1.5);
/// // The same e^1000 in the log domain: ln|x| = 0 + 1000 exactly, and it does not fit an f64.
/// let log = XFloat::exp_of(1000.0);
/// assert_eq!(log.ln_abs(), 1000.0);
/// assert_eq!(log.to_f64_checked(), None);
/// assert!(log == big);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct XFloat {
    /// Binary form: `|m| ∈ [½, 1)`, or `m = 0`, or `m` non-finite (then `e = 0`).
    /// Log domain: any `f64`.
    m: f64,
    /// The binary exponent (0 in the log domain).
    e: i64,
    /// The natural-log scale: 0 in binary form, non-zero (or NaN) in the log domain.
    s: f64,
}

const LN2: f64 = std::f64::consts::LN_2;
const EXP_LIMIT: i64 = 1 << 62;

/// `x = m · 2^e` with `|m| ∈ [½, 1)` for finite non-zero `x`.
#[inline]
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
    m * pow2(k)
}

/// `2^k` exactly, for a normal exponent `k ∈ [−1022, 1023]` (built from its bits; `powi` is a
/// loop of multiplications in a library call).
#[inline]
fn pow2(k: i64) -> f64 {
    debug_assert!((-1022..=1023).contains(&k));
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// The binary exponents `e` for which `m · 2^e` (`|m| ∈ [½, 1)`) is a normal `f64`.
const NORMAL_EXPONENTS: std::ops::RangeInclusive<i64> = -1021..=1024;

#[allow(clippy::should_implement_trait)]
impl XFloat {
    /// Zero.
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert_eq!(XFloat::ZERO.to_f64(), 0.0);
    /// ```
    pub const ZERO: XFloat = XFloat {
        m: 0.0,
        e: 0,
        s: 0.0,
    };

    /// Not a number (the result of an undefined operation).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert!(XFloat::NAN.to_f64().is_nan());
    /// ```
    pub const NAN: XFloat = XFloat {
        m: f64::NAN,
        e: 0,
        s: 0.0,
    };

    /// `m · 2^e` for a normalised `|m| ∈ [½, 1)`: only the exponent range is checked (as in
    /// [`XFloat::norm`]).
    #[inline]
    fn ranged(m: f64, e: i64) -> XFloat {
        debug_assert!((0.5..1.0).contains(&m.abs()));
        if e > EXP_LIMIT {
            return XFloat {
                m: m.signum() * f64::INFINITY,
                e: 0,
                s: 0.0,
            };
        }
        if e < -EXP_LIMIT {
            return XFloat::ZERO;
        }
        XFloat { m, e, s: 0.0 }
    }

    /// The binary form of `m · 2^e`.
    #[inline]
    fn norm(m: f64, e: i64) -> XFloat {
        if m == 0.0 || !m.is_finite() {
            return XFloat { m, e: 0, s: 0.0 };
        }
        let (mm, de) = frexp(m);
        XFloat::ranged(mm, e.saturating_add(de))
    }

    /// An ordinary `f64` (infinities and NaN are kept as such).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert_eq!(XFloat::from_f64(-2.5).to_f64(), -2.5);
    /// ```
    #[inline]
    pub fn from_f64(x: f64) -> XFloat {
        XFloat::norm(x, 0)
    }

    /// `m · 2^e` in binary form, for any `e` (the mantissa is normalised; the result saturates
    /// beyond `2^(±2^62)`).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert_eq!(XFloat::from_binary(0.75, 3).to_f64(), 6.0);
    /// // 2^5000 is beyond f64: ln = 5000·ln 2.
    /// assert!((XFloat::from_binary(0.5, 5001).ln_abs() - 5000.0 * 2f64.ln()).abs() < 1e-9);
    /// ```
    pub fn from_binary(m: f64, e: i64) -> XFloat {
        XFloat::norm(m, e)
    }

    /// `mantissa · e^{log_scale}` in the log domain (the binary form when `log_scale = 0`).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// // 3·e^{5000}: ln = 5000 + ln 3, beyond f64.
    /// let x = XFloat::from_parts(3.0, 5000.0);
    /// assert_eq!(x.ln_abs(), 3f64.ln() + 5000.0);
    /// assert_eq!(x.parts(), (3.0, 5000.0));
    /// assert_eq!(XFloat::from_parts(1.5, 0.0).to_f64(), 1.5);
    /// ```
    pub fn from_parts(mantissa: f64, log_scale: f64) -> XFloat {
        if log_scale == 0.0 {
            return XFloat::from_f64(mantissa);
        }
        XFloat {
            m: mantissa,
            e: 0,
            s: log_scale,
        }
    }

    /// `e^x` in the log domain (`1 · e^x`): no overflow, and `ln` returns `x` exactly. For the
    /// binary form use [`XFloat::exp`].
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// // −2e^{800}: sign −1, ln|v| = 800 + ln 2.
    /// let v = XFloat::exp_of(800.0).scale(-2.0);
    /// assert_eq!(v.signum(), -1.0);
    /// assert!((v.ln_abs() - (800.0 + 2f64.ln())).abs() < 1e-12);
    /// assert_eq!(XFloat::exp_of(800.0).ln_abs(), 800.0);
    /// ```
    pub fn exp_of(x: f64) -> XFloat {
        XFloat::from_parts(1.0, x)
    }

    /// `Σ e^{xᵢ}` without overflow: log-sum-exp with the maximum `s = max xᵢ` as scale,
    /// `(Σ e^{xᵢ − s})·e^s` in the log domain (0 for no terms).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// // e^{1000} + e^{1000} = 2e^{1000}: ln = 1000 + ln 2, far beyond f64.
    /// let s = XFloat::sum_exp([1000.0, 1000.0]);
    /// assert_eq!(s.ln_abs(), 2f64.ln() + 1000.0);
    /// assert_eq!(s.to_f64_checked(), None);
    /// assert_eq!(XFloat::sum_exp([0.0, 0.0, 0.0]).to_f64(), 3.0);
    /// ```
    pub fn sum_exp(xs: impl IntoIterator<Item = f64> + Clone) -> XFloat {
        let m = xs.clone().into_iter().fold(f64::NEG_INFINITY, f64::max);
        if m == f64::NEG_INFINITY {
            return XFloat::ZERO;
        }
        XFloat::from_parts(xs.into_iter().map(|x| (x - m).exp()).sum(), m)
    }

    /// The same value in binary form `m · 2^e` (binary values are returned as they are; a
    /// log-domain `m · e^s` becomes `m · e^s` evaluated with [`XFloat::exp`] and one product).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// // 3·e^{5000} = 3·2^{5000/ln 2}: ln comes back to 5000 + ln 3.
    /// let b = XFloat::from_parts(3.0, 5000.0).binary();
    /// assert!((b.ln().to_f64() - (5000.0 + 3f64.ln())).abs() < 1e-9);
    /// assert_eq!(XFloat::from_parts(3.0, 1.0).binary().to_f64(), 3.0 * 1f64.exp());
    /// ```
    #[inline]
    pub fn binary(self) -> XFloat {
        if self.s == 0.0 {
            return self;
        }
        let (m, s) = (self.m, self.s);
        if m == 0.0 || !m.is_finite() || !s.is_finite() {
            if s == f64::NEG_INFINITY {
                return XFloat::ZERO;
            }
            return XFloat::from_f64(m * s.exp());
        }
        XFloat::from_f64(m).mul(XFloat::exp(XFloat::from_f64(s)))
    }

    /// The value as an `f64` when it is a binary value that an `f64` holds exactly (a normal or
    /// subnormal number, zero or non-finite).
    fn exact_f64(self) -> Option<f64> {
        if self.s != 0.0 {
            return None;
        }
        if self.m == 0.0 || !self.m.is_finite() || NORMAL_EXPONENTS.contains(&self.e) {
            return Some(ldexp(self.m, self.e));
        }
        if self.e > *NORMAL_EXPONENTS.end() {
            return None;
        }
        let v = ldexp(self.m, self.e);
        (frexp(v) == (self.m, self.e)).then_some(v)
    }

    /// `(mantissa, log_scale)` with `value = mantissa · e^{log_scale}`: the log-domain parts as
    /// they are, `(x, 0)` for a binary value `x` in the range of `f64`, and `(m, e ln 2)` for a
    /// binary `m · 2^e` beyond it. This pair is the JSON form of the number
    /// (`{"mantissa": …, "log_scale": …}`).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert_eq!(XFloat::from_f64(6.0).parts(), (6.0, 0.0));
    /// assert_eq!(XFloat::from_parts(2.0, -700.5).parts(), (2.0, -700.5));
    /// // 2^{2000} = ½·2^{2001}: mantissa ½, scale 2001 ln 2.
    /// let big = XFloat::from_f64(2f64.powi(1000)).mul(XFloat::from_f64(2f64.powi(1000)));
    /// assert_eq!(big.parts(), (0.5, 2001.0 * std::f64::consts::LN_2));
    /// let json = serde_json::to_string(&XFloat::from_parts(2.0, -700.5)).unwrap();
    /// assert_eq!(json, r#"{"mantissa":2.0,"log_scale":-700.5}"#);
    /// ```
    pub fn parts(self) -> (f64, f64) {
        if self.s != 0.0 {
            return (self.m, self.s);
        }
        match self.exact_f64() {
            Some(x) => (x, 0.0),
            None => (self.m, self.e as f64 * LN2),
        }
    }

    /// The value as an `f64`, saturating to `±inf` (or `0`) outside the range of `f64`; a
    /// log-domain `m · e^s` is rounded directly as `m · e^s`.
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert_eq!(XFloat::exp_of(2.0).to_f64(), 2f64.exp());
    /// assert_eq!(XFloat::exp_of(1000.0).to_f64(), f64::INFINITY);
    /// assert_eq!(XFloat::exp_of(-1000.0).to_f64(), 0.0);
    /// ```
    pub fn to_f64(self) -> f64 {
        if !self.m.is_finite() || self.m == 0.0 {
            return self.m;
        }
        if self.s != 0.0 {
            return self.m * self.s.exp();
        }
        ldexp(self.m, self.e)
    }

    /// The value as an `f64` if it is representable (finite), else `None` (zero is `0.0`).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert_eq!(XFloat::from_f64(3.0).to_f64_checked(), Some(3.0));
    /// assert_eq!(XFloat::exp_of(1000.0).to_f64_checked(), None);
    /// assert_eq!(XFloat::from_f64(-0.0).to_f64_checked(), Some(0.0));
    /// ```
    pub fn to_f64_checked(self) -> Option<f64> {
        if self.m == 0.0 {
            return Some(0.0);
        }
        let v = self.to_f64();
        if v.is_finite() { Some(v) } else { None }
    }

    /// `ln |x|` as an `f64` (−∞ for zero): `ln|m| + s` in the log domain, `ln|x|` of the `f64`
    /// for a binary value in the range of `f64`, `ln|m| + e ln 2` beyond it.
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert_eq!(XFloat::from_f64(-6.0).ln_abs(), 6f64.ln());
    /// assert_eq!(XFloat::from_parts(-2.0, 800.0).ln_abs(), 2f64.ln() + 800.0);
    /// assert_eq!(XFloat::ZERO.ln_abs(), f64::NEG_INFINITY);
    /// ```
    pub fn ln_abs(self) -> f64 {
        if self.s != 0.0 {
            return self.m.abs().ln() + self.s;
        }
        match self.exact_f64() {
            Some(x) => x.abs().ln(),
            None => self.m.abs().ln() + self.e as f64 * LN2,
        }
    }

    /// Whether the value is NaN.
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert!(XFloat::from_parts(1.0, f64::NAN).is_nan());
    /// assert!(!XFloat::exp_of(1e300).is_nan());
    /// ```
    pub fn is_nan(self) -> bool {
        self.m.is_nan() || self.s.is_nan()
    }

    /// Whether the value is finite (not NaN, not infinite).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert!(XFloat::exp_of(1e300).is_finite()); // e^{10³⁰⁰}: huge but finite
    /// assert!(!XFloat::exp_of(f64::INFINITY).is_finite());
    /// assert!(!XFloat::from_f64(f64::NEG_INFINITY).is_finite());
    /// ```
    pub fn is_finite(self) -> bool {
        self.m.is_finite() && self.s < f64::INFINITY
    }

    /// Whether the value is exactly zero (its mantissa is zero).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert!(XFloat::from_parts(0.0, 800.0).is_zero());
    /// assert!(!XFloat::exp_of(-800.0).is_zero());
    /// ```
    pub fn is_zero(self) -> bool {
        self.m == 0.0
    }

    /// −1, 0 or 1 (NaN for NaN).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert_eq!(XFloat::exp_of(900.0).neg().signum(), -1.0);
    /// assert_eq!(XFloat::ZERO.signum(), 0.0);
    /// ```
    pub fn signum(self) -> f64 {
        if self.m == 0.0 { 0.0 } else { self.m.signum() }
    }

    /// `x + y`. Two binary values: one rounding of the exact sum. Otherwise, when both are in the
    /// log domain or are `f64` values, the log-domain sum aligned at the larger scale
    /// `t = max(s₁, s₂)`: `(m₁e^{s₁−t} + m₂e^{s₂−t})·e^t`; else the binary sum.
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// // (e^{800} + e^{800})/e^{800} = 2.
    /// let a = XFloat::exp_of(800.0);
    /// assert_eq!(a.add(a).ln_abs(), 2f64.ln() + 800.0);
    /// assert!((a.add(a).div(a).to_f64() - 2.0).abs() < 1e-15);
    /// assert_eq!(XFloat::from_f64(0.1).add(XFloat::from_f64(0.2)).to_f64(), 0.1 + 0.2);
    /// ```
    #[inline]
    pub fn add(self, o: XFloat) -> XFloat {
        if self.s == 0.0 && o.s == 0.0 {
            return self.add_binary(o);
        }
        let log_parts = |x: XFloat| {
            if x.s != 0.0 {
                Some((x.m, x.s))
            } else {
                x.exact_f64().map(|v| (v, 0.0))
            }
        };
        match (log_parts(self), log_parts(o)) {
            (Some((m1, s1)), Some((m2, s2))) => {
                if m1 == 0.0 {
                    return o;
                }
                if m2 == 0.0 {
                    return self;
                }
                let t = s1.max(s2);
                XFloat::from_parts(m1 * (s1 - t).exp() + m2 * (s2 - t).exp(), t)
            }
            _ => self.binary().add_binary(o.binary()),
        }
    }

    /// `x + y` for binary values.
    #[inline]
    fn add_binary(self, o: XFloat) -> XFloat {
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
        XFloat::norm(hi.m + lo.m * pow2(-d), hi.e)
    }

    /// `−x` (in the same form).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert_eq!(XFloat::from_f64(2.5).neg().to_f64(), -2.5);
    /// assert_eq!(XFloat::exp_of(900.0).neg().parts(), (-1.0, 900.0));
    /// ```
    #[inline]
    pub fn neg(self) -> XFloat {
        XFloat {
            m: -self.m,
            e: self.e,
            s: self.s,
        }
    }

    /// `x − y` (= `x + (−y)`).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// // e^{1000} − e^{1000} = 0 exactly, in either form.
    /// let a = XFloat::exp_of(1000.0);
    /// assert!(a.sub(a).is_zero());
    /// assert_eq!(XFloat::from_f64(5.0).sub(XFloat::from_f64(7.5)).to_f64(), -2.5);
    /// ```
    #[inline]
    pub fn sub(self, o: XFloat) -> XFloat {
        self.add(o.neg())
    }

    /// `f · x` for an `f64` factor `f`: the mantissa times `f` in the log domain, else
    /// `x · f` in binary form.
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// // ¼·e^{2000}: ln = 2000 − ln 4.
    /// assert_eq!(XFloat::exp_of(2000.0).scale(0.25).ln_abs(), 0.25f64.ln() + 2000.0);
    /// assert_eq!(XFloat::from_f64(3.0).scale(-0.5).to_f64(), -1.5);
    /// ```
    pub fn scale(self, f: f64) -> XFloat {
        if self.s != 0.0 {
            return XFloat::from_parts(self.m * f, self.s);
        }
        self.mul(XFloat::from_f64(f))
    }

    /// `x · y` (binary form).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// // e^{1000}·e^{−999} = e.
    /// let e = XFloat::exp_of(1000.0).mul(XFloat::exp_of(-999.0));
    /// assert!((e.to_f64() - 1f64.exp()).abs() < 1e-12);
    /// assert_eq!(XFloat::from_f64(-3.0).mul(XFloat::from_f64(0.5)).to_f64(), -1.5);
    /// ```
    #[inline]
    pub fn mul(self, o: XFloat) -> XFloat {
        let (a, b) = (self.binary(), o.binary());
        if !a.m.is_finite() || !b.m.is_finite() || a.m == 0.0 || b.m == 0.0 {
            return XFloat::from_f64(a.m * b.m);
        }
        // |a.m|, |b.m| ∈ [½, 1), so |p| ∈ [¼, 1): at most one doubling normalises it (what
        // `norm` would find, without taking the float apart).
        let (p, e) = (a.m * b.m, a.e.saturating_add(b.e));
        if p.abs() >= 0.5 {
            XFloat::ranged(p, e)
        } else {
            XFloat::ranged(p * 2.0, e.saturating_sub(1))
        }
    }

    /// `x / y` (binary form; NaN or ±inf for division by zero, as in `f64`).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert_eq!(XFloat::from_f64(3.0).div(XFloat::from_f64(4.0)).to_f64(), 0.75);
    /// assert_eq!(XFloat::from_f64(1.0).div(XFloat::ZERO).to_f64(), f64::INFINITY);
    /// ```
    pub fn div(self, o: XFloat) -> XFloat {
        let (a, b) = (self.binary(), o.binary());
        if !a.m.is_finite() || !b.m.is_finite() || a.m == 0.0 || b.m == 0.0 {
            return XFloat::from_f64(a.m / b.m);
        }
        // |a.m/b.m| ∈ (½, 2): at most one halving normalises it.
        let (q, e) = (a.m / b.m, a.e.saturating_sub(b.e));
        if q.abs() < 1.0 {
            XFloat::ranged(q, e)
        } else {
            XFloat::ranged(q * 0.5, e.saturating_add(1))
        }
    }

    /// `|x|` (in the same form).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert_eq!(XFloat::from_f64(-4.0).abs().to_f64(), 4.0);
    /// assert_eq!(XFloat::from_parts(-3.0, 700.5).abs().parts(), (3.0, 700.5));
    /// ```
    pub fn abs(self) -> XFloat {
        XFloat {
            m: self.m.abs(),
            e: self.e,
            s: self.s,
        }
    }

    /// `ln x` (binary form; NaN for negative `x`, −inf for 0).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert!((XFloat::exp_of(5000.0).ln().to_f64() - 5000.0).abs() < 1e-9);
    /// assert!(XFloat::from_f64(-1.0).ln().is_nan());
    /// ```
    pub fn ln(self) -> XFloat {
        let x = self.binary();
        if x.m <= 0.0 || !x.m.is_finite() {
            return XFloat::from_f64(x.m.ln());
        }
        XFloat::from_f64(x.m.ln() + x.e as f64 * LN2)
    }

    /// `e^x` in binary form (for an `f64` exponent kept in the log domain, [`XFloat::exp_of`]).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert_eq!(XFloat::exp(XFloat::from_f64(1.0)).to_f64(), 1f64.exp());
    /// // e^{5000}: beyond f64, ln comes back to 5000.
    /// let x = XFloat::exp(XFloat::from_f64(5000.0));
    /// assert!((x.ln().to_f64() - 5000.0).abs() < 1e-9);
    /// ```
    pub fn exp(x: XFloat) -> XFloat {
        let t = x.binary().to_f64();
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

    /// `√x` (binary form; NaN for negative `x`).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert_eq!(XFloat::from_f64(6.25).sqrt().to_f64(), 2.5);
    /// // √(e^{5000}) = e^{2500}.
    /// assert!((XFloat::exp_of(5000.0).sqrt().ln().to_f64() - 2500.0).abs() < 1e-9);
    /// ```
    pub fn sqrt(self) -> XFloat {
        let x = self.binary();
        if x.m <= 0.0 || !x.m.is_finite() {
            return XFloat::from_f64(x.m.sqrt());
        }
        if x.e % 2 == 0 {
            XFloat::norm(x.m.sqrt(), x.e / 2)
        } else {
            XFloat::norm((2.0 * x.m).sqrt(), (x.e - 1).div_euclid(2))
        }
    }

    /// `x^y` (binary form): repeated multiplication for integer `|y| ≤ 64` (any sign of `x`),
    /// otherwise `e^{y ln x}` for `x > 0` (NaN for negative `x` and a non-integer `y`).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert_eq!(XFloat::from_f64(-2.0).pow(XFloat::from_f64(3.0)).to_f64(), -8.0);
    /// assert_eq!(XFloat::from_f64(2.0).pow(XFloat::from_f64(-2.0)).to_f64(), 0.25);
    /// ```
    pub fn pow(self, y: XFloat) -> XFloat {
        let (x, y) = (self.binary(), y.binary());
        let yf = y.to_f64();
        if yf.fract() == 0.0 && yf.abs() <= 64.0 {
            let mut acc = XFloat::from_f64(1.0);
            for _ in 0..(yf.abs() as u32) {
                acc = acc.mul(x);
            }
            return if yf < 0.0 {
                XFloat::from_f64(1.0).div(acc)
            } else {
                acc
            };
        }
        if x.m == 0.0 && yf > 0.0 {
            return XFloat::ZERO;
        }
        XFloat::exp(y.mul(x.ln()))
    }

    /// The larger of two values (NaN if either is NaN).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// let (a, b) = (XFloat::exp_of(800.0), XFloat::exp_of(900.0));
    /// assert_eq!(a.max(b).ln_abs(), 900.0);
    /// assert!(a.max(XFloat::NAN).is_nan());
    /// ```
    pub fn max(self, o: XFloat) -> XFloat {
        match self.partial_cmp(&o) {
            Some(Ordering::Less) => o,
            Some(_) => self,
            None => XFloat::NAN,
        }
    }

    /// The smaller of two values (NaN if either is NaN).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// let (a, b) = (XFloat::exp_of(800.0), XFloat::exp_of(900.0).neg());
    /// assert_eq!(a.min(b).signum(), -1.0);
    /// ```
    pub fn min(self, o: XFloat) -> XFloat {
        match self.partial_cmp(&o) {
            Some(Ordering::Greater) => o,
            Some(_) => self,
            None => XFloat::NAN,
        }
    }

    /// `⌊x⌋` (binary form; values beyond 2⁶⁰ are integers already).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert_eq!(XFloat::from_f64(-2.5).floor().to_f64(), -3.0);
    /// ```
    pub fn floor(self) -> XFloat {
        let x = self.binary();
        if x.e > 60 || !x.m.is_finite() {
            return x;
        }
        XFloat::from_f64(x.to_f64().floor())
    }

    /// `⌈x⌉` (binary form; values beyond 2⁶⁰ are integers already).
    ///
    /// ```
    /// use balloc::xfloat::XFloat;
    /// assert_eq!(XFloat::from_f64(-2.5).ceil().to_f64(), -2.0);
    /// ```
    pub fn ceil(self) -> XFloat {
        let x = self.binary();
        if x.e > 60 || !x.m.is_finite() {
            return x;
        }
        XFloat::from_f64(x.to_f64().ceil())
    }
}

/// Equality by value (a log-domain value equals its binary form).
impl PartialEq for XFloat {
    fn eq(&self, o: &XFloat) -> bool {
        self.partial_cmp(o) == Some(Ordering::Equal)
    }
}

/// Ordering by value, in binary form.
impl PartialOrd for XFloat {
    fn partial_cmp(&self, o: &XFloat) -> Option<Ordering> {
        let (a, b) = (self.binary(), o.binary());
        if a.m.is_nan() || b.m.is_nan() {
            return None;
        }
        if !a.m.is_finite() || !b.m.is_finite() || a.m == 0.0 || b.m == 0.0 {
            // Zero or an infinity on one side: a finite non-zero value compares as its sign ±1,
            // which lies strictly between 0 and ±∞ as the value does (also beyond f64, where
            // `to_f64` would saturate to 0 or ±∞).
            let key = |x: XFloat| {
                if x.m == 0.0 || !x.m.is_finite() {
                    x.m
                } else {
                    x.m.signum()
                }
            };
            return key(a).partial_cmp(&key(b));
        }
        if a.m.signum() != b.m.signum() {
            return a.m.partial_cmp(&b.m);
        }
        let pos = a.m > 0.0;
        let c = a.e.cmp(&b.e).then(a.m.abs().total_cmp(&b.m.abs()));
        Some(if pos { c } else { c.reverse() })
    }
}

/// The value in scientific notation (of its binary form), also beyond the range of `f64`.
impl std::fmt::Display for XFloat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let x = self.binary();
        let v = x.to_f64();
        if v.is_finite() && (v == 0.0 || v.abs() > 1e-300) || !x.m.is_finite() {
            write!(f, "{v:e}")
        } else {
            // m·2^e = 10^{log10|m| + e·log10 2}
            let l = x.m.abs().log10() + x.e as f64 * std::f64::consts::LOG10_2;
            let (k, frac) = (l.floor(), l - l.floor());
            let sign = if x.m < 0.0 { "-" } else { "" };
            write!(f, "{sign}{}e{}", 10f64.powf(frac), k as i64)
        }
    }
}

/// `{"mantissa": m, "log_scale": s}` with `value = m · e^s` ([`XFloat::parts`]).
impl serde::Serialize for XFloat {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let (mantissa, log_scale) = self.parts();
        let mut st = ser.serialize_struct("XFloat", 2)?;
        st.serialize_field("mantissa", &mantissa)?;
        st.serialize_field("log_scale", &log_scale)?;
        st.end()
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    /// Products and quotients normalised by one doubling or halving are the values that taking
    /// the float apart (`frexp` in `norm`) gives: same mantissa bits and exponent, across signs,
    /// mantissas at both ends of [½, 1) and exponents at and beyond the limits.
    fn product_and_quotient_match_full_normalisation() {
        let ms = [
            0.5,
            -0.5,
            0.75,
            0.5000000000000001,
            -0.9999999999999999,
            0.6180339887,
        ];
        let es = [
            0i64,
            1,
            -1,
            1000,
            -1074,
            EXP_LIMIT,
            -EXP_LIMIT,
            EXP_LIMIT - 1,
        ];
        for &ma in &ms {
            for &mb in &ms {
                for &ea in &es {
                    for &eb in &es {
                        let (a, b) = (
                            XFloat {
                                m: ma,
                                e: ea,
                                s: 0.0,
                            },
                            XFloat {
                                m: mb,
                                e: eb,
                                s: 0.0,
                            },
                        );
                        let p = XFloat::norm(ma * mb, ea.saturating_add(eb));
                        let q = XFloat::norm(ma / mb, ea.saturating_sub(eb));
                        let (pm, qm) = (a.mul(b), a.div(b));
                        assert_eq!(
                            (pm.m.to_bits(), pm.e),
                            (p.m.to_bits(), p.e),
                            "{ma}·2^{ea} × {mb}·2^{eb}"
                        );
                        assert_eq!(
                            (qm.m.to_bits(), qm.e),
                            (q.m.to_bits(), q.e),
                            "{ma}·2^{ea} / {mb}·2^{eb}"
                        );
                    }
                }
            }
        }
    }

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
        // 3·e^{5000} in the log domain converts to the binary 3·e^{5000}: ln = 5000 + ln 3.
        let s = XFloat::from_parts(3.0, 5000.0);
        assert!((s.binary().ln().to_f64() - (5000.0 + 3f64.ln())).abs() < 1e-9);
        assert_eq!(s.binary().parts().0, s.binary().m);
    }

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

    /// `a ≈ b` within `k` units in the last place of the larger.
    fn close(a: f64, b: f64, k: f64) -> bool {
        a == b || (a - b).abs() <= k * f64::EPSILON * a.abs().max(b.abs())
    }

    fn log_domain_agrees_with_f64_in_range() {
        // Log-domain values m·e^s in the range of f64, alone and mixed with binary values: every
        // operation agrees with f64 on the values m·e^s (a few ulps for the roundings of e^s).
        let parts = [
            (1.5, 2.0),
            (-3.0, -1.25),
            (0.5, 10.0),
            (7.0, -20.0),
            (0.0, 3.0),
        ];
        let mut xs: Vec<(XFloat, f64)> = parts
            .iter()
            .map(|&(m, s)| (XFloat::from_parts(m, s), m * f64::exp(s)))
            .collect();
        xs.extend([4.0, -0.125, 0.0].map(|v| (XFloat::from_f64(v), v)));
        for &(x, a) in &xs {
            assert!(close(x.to_f64(), a, 0.0), "{x:?}");
            assert_eq!(x.to_f64_checked(), Some(a + 0.0));
            // ln|m| + s against ln|m·e^s|: equal up to the roundings of both (absolute).
            let (l, la) = (x.ln_abs(), a.abs().ln());
            assert!(l == la || (l - la).abs() < 1e-14, "{x:?}");
            assert_eq!(x.signum(), if a == 0.0 { 0.0 } else { a.signum() });
            assert!(close(x.scale(-2.5).to_f64(), -2.5 * a, 4.0));
            for &(y, b) in &xs {
                assert!(close(x.add(y).to_f64(), a + b, 8.0), "{a} + {b}");
                assert!(close(x.sub(y).to_f64(), a - b, 8.0), "{a} − {b}");
                assert!(close(x.mul(y).to_f64(), a * b, 8.0), "{a}·{b}");
                if b != 0.0 {
                    assert!(close(x.div(y).to_f64(), a / b, 8.0), "{a}/{b}");
                }
                if !close(a, b, 8.0) {
                    assert_eq!(x.partial_cmp(&y), a.partial_cmp(&b), "{a} vs {b}");
                }
            }
        }
    }

    fn products_and_quotients_beyond_f64() {
        // e^{1000}·e^{−999} = e^{1000 − 999} = e: each factor is rounded to 53 bits once when
        // converted to binary form, so the product is e within a few ulps.
        let e = XFloat::exp_of(1000.0).mul(XFloat::exp_of(-999.0));
        assert!(close(e.to_f64(), std::f64::consts::E, 8.0), "{e:?}");
        // (e^{800} + e^{800})/e^{800} = 2: the sum is 2·e^{800} in the log domain (mantissa
        // 1 + 1 = 2, exact), and its binary form is 2 times the binary e^{800}, so the quotient
        // is exactly 2.
        let a = XFloat::exp_of(800.0);
        let sum = a.add(a);
        assert_eq!(sum.parts(), (2.0, 800.0));
        assert_eq!(sum.div(a).to_f64(), 2.0);
        // The binary route: e^{800} by XFloat::exp, doubled, divided: 2 as well.
        let b = XFloat::exp(XFloat::from_f64(800.0));
        assert_eq!(b.add(b).div(b).to_f64(), 2.0);
        // √(e^{3000}·e^{−1000}) = e^{1000}: ln = 1000 up to the roundings of e^{±…}.
        let r = XFloat::exp_of(3000.0).mul(XFloat::exp_of(-1000.0)).sqrt();
        assert!((r.ln().to_f64() - 1000.0).abs() < 1e-9);
        // (e^{500})² = e^{1000} (integer powers multiply): ln = 1000.
        let p = XFloat::exp_of(500.0).pow(XFloat::from_f64(2.0));
        assert!((p.ln_abs() - 1000.0).abs() < 1e-9);
    }

    fn ordering_beyond_f64() {
        // −e^{900} < −e^{800} < 0 < e^{800} < e^{900}, in the log domain, in binary form, and
        // mixed: ordering is by value.
        let (a, b) = (XFloat::exp_of(800.0), XFloat::exp_of(900.0));
        let ladder = [b.neg(), a.neg(), XFloat::ZERO, a, b];
        for (i, x) in ladder.iter().enumerate() {
            for (j, y) in ladder.iter().enumerate() {
                assert_eq!(x.partial_cmp(y), Some(i.cmp(&j)), "{i} vs {j}");
                assert_eq!(x.binary().partial_cmp(y), Some(i.cmp(&j)), "{i} vs {j}");
            }
        }
        // The two forms of e^{800} are equal; e^{800}(1 + 2⁻⁴⁰) is larger than both.
        assert_eq!(a, XFloat::exp(XFloat::from_f64(800.0)));
        let up = XFloat::from_parts(1.0 + 2f64.powi(-40), 800.0);
        assert!(up > a && up > a.binary() && a.binary() < up);
        // Every value beyond f64 lies above f64::MAX and below +∞; e^{−800} lies below the least
        // normal f64 and above 0, −e^{−800} below 0 (to_f64 of all three saturates).
        assert!(a > XFloat::from_f64(f64::MAX));
        let inf = XFloat::from_f64(f64::INFINITY);
        assert!(a < inf && a.binary() < inf && a.neg() > inf.neg());
        let tiny = XFloat::exp_of(-800.0);
        assert!(tiny > XFloat::ZERO && tiny < XFloat::from_f64(f64::MIN_POSITIVE));
        assert!(tiny.binary() > XFloat::ZERO && tiny.neg().binary() < XFloat::ZERO);
        assert!(tiny.neg() < XFloat::from_f64(-0.0) && XFloat::ZERO == XFloat::from_f64(-0.0));
        assert!(XFloat::ZERO.max(tiny) == tiny && tiny.binary() != XFloat::ZERO);
        assert!(a.max(b) == b && a.min(b.neg()) == b.neg());
        assert_eq!(XFloat::NAN.partial_cmp(&a), None);
        assert!(XFloat::from_parts(1.0, f64::NAN) != XFloat::from_parts(1.0, f64::NAN));
    }

    fn log_sum_exp_keeps_the_log_exact() {
        // Σ of three e^{1000}: scale 1000, mantissa e⁰ + e⁰ + e⁰ = 3, ln = ln 3 + 1000.
        let s = XFloat::sum_exp([1000.0, 1000.0, 1000.0]);
        assert_eq!(s.parts(), (3.0, 1000.0));
        assert_eq!(s.ln_abs(), 3f64.ln() + 1000.0);
        assert_eq!(s.to_f64_checked(), None);
        // e^{1000} + e^{−1000}: the smaller term is e^{−2000} relative to the larger, below one
        // ulp of the mantissa 1, so ln = 1000 exactly.
        let t = XFloat::exp_of(1000.0).add(XFloat::exp_of(-1000.0));
        assert_eq!(t.ln_abs(), 1000.0);
        // Cancellation: e^{1000}(1 + 10⁻¹⁰) − e^{1000} = 10⁻¹⁰·e^{1000} (the mantissa
        // 1 + 10⁻¹⁰ is rounded to 53 bits, a relative error of 10⁻⁶ in the difference).
        let d = XFloat::from_parts(1.0 + 1e-10, 1000.0).sub(XFloat::exp_of(1000.0));
        assert!((d.ln_abs() - (1000.0 + 1e-10f64.ln())).abs() < 1e-6);
        assert_eq!(d.signum(), 1.0);
        // e^{709} is an f64 (≈ 8.2·10³⁰⁷), e^{710} is not.
        assert_eq!(XFloat::exp_of(709.0).to_f64_checked(), Some(709f64.exp()));
        assert_eq!(XFloat::exp_of(710.0).to_f64_checked(), None);
        // A log-domain value plus a binary f64: aligned at the larger scale,
        // 2 + e^{1000}·… : (2e^{−1000} + 1)·e^{1000}, ln = 1000.
        assert_eq!(
            XFloat::from_f64(2.0).add(XFloat::exp_of(1000.0)).ln_abs(),
            1000.0
        );
        // No terms: zero.
        assert!(XFloat::sum_exp(std::iter::empty::<f64>()).is_zero());
    }

    fn special_values() {
        assert!(XFloat::from_parts(1.0, f64::NAN).is_nan());
        assert!(XFloat::from_parts(f64::NAN, 3.0).is_nan());
        assert!(!XFloat::exp_of(f64::INFINITY).is_finite());
        assert!(XFloat::exp_of(f64::NEG_INFINITY).is_finite());
        assert_eq!(XFloat::exp_of(f64::NEG_INFINITY).binary().to_f64(), 0.0);
        assert_eq!(XFloat::exp_of(1e300).to_f64(), f64::INFINITY);
        assert_eq!(XFloat::exp_of(1e300).neg().to_f64(), f64::NEG_INFINITY);
        // ln|x| of a binary value beyond f64: 2^{3000} = ½·2^{3001}, ln = ln ½ + 3001 ln 2.
        let big = XFloat::from_f64(2f64.powi(1000)).pow(XFloat::from_f64(3.0));
        assert_eq!(big.ln_abs(), 0.5f64.ln() + 3001.0 * LN2);
        assert_eq!(big.parts(), (0.5, 3001.0 * LN2));
        assert_eq!(big.to_f64_checked(), None);
        // The JSON form is the (mantissa, log_scale) pair.
        assert_eq!(
            serde_json::to_string(&XFloat::from_f64(-6.0)).unwrap(),
            r#"{"mantissa":-6.0,"log_scale":0.0}"#
        );
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "product_and_quotient_match_full_normalisation",
            run: product_and_quotient_match_full_normalisation,
            panics: None,
        },
        crate::unit::Test {
            name: "arithmetic_agrees_with_f64_in_range",
            run: arithmetic_agrees_with_f64_in_range,
            panics: None,
        },
        crate::unit::Test {
            name: "exp_and_ln_beyond_f64",
            run: exp_and_ln_beyond_f64,
            panics: None,
        },
        crate::unit::Test {
            name: "pow_integer_and_real",
            run: pow_integer_and_real,
            panics: None,
        },
        crate::unit::Test {
            name: "log_domain_agrees_with_f64_in_range",
            run: log_domain_agrees_with_f64_in_range,
            panics: None,
        },
        crate::unit::Test {
            name: "products_and_quotients_beyond_f64",
            run: products_and_quotients_beyond_f64,
            panics: None,
        },
        crate::unit::Test {
            name: "ordering_beyond_f64",
            run: ordering_beyond_f64,
            panics: None,
        },
        crate::unit::Test {
            name: "log_sum_exp_keeps_the_log_exact",
            run: log_sum_exp_keeps_the_log_exact,
            panics: None,
        },
        crate::unit::Test {
            name: "special_values",
            run: special_values,
            panics: None,
        },
    ];
}
