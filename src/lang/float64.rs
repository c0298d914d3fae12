//! The float domain on plain `f64`: the values of [`Float`], bit for bit, while every number stays
//! a normal `f64`.
//!
//! [`Float`] evaluates in extended-range floats ([`XFloat`], `m·2^e` with `|m| ∈ [½, 1)`), so
//! that `e^{αy}` never overflows. Each of its operations rounds the mantissa exactly as the same
//! `f64` operation would round the value and then rescales by a power of two, which is exact:
//! `XFloat(a) ∘ XFloat(b) = XFloat(a ∘ b)` for `∘ ∈ {+, −, ·, /, √}`, `⌊·⌋`, `⌈·⌉` and for `e^a`
//! with `|a| < 700`, as long as the operands and the result are normal `f64` numbers (or zero).
//! [`Float64`] computes those operations in `f64` and checks that condition on every result; where
//! it fails (a subnormal or infinite value, an exponent `|a| ≥ 700`, an integer power beyond 64,
//! an operation [`Float`] reports as undefined) it stops with [`EvalError::Beyond64`], and the
//! caller evaluates again in [`Float`] ([`eval_float`]). So a float verdict, its slack and its
//! witness are the same in either route, and the common case costs one `f64` operation and one
//! range check per step instead of two extended-range operations.
//!
//! ```
//! use balloc::lang::{compile_value, Domain, Float, Float64, Slots};
//! let e = compile_value("exp(a)*b - sqrt(b)/3 + ln(b)^2", &["a", "b"]).unwrap();
//! let fast = e.eval(&Float64, &Slots(&[Float64.float(0.3).unwrap(), Float64.float(1.7).unwrap()]), None).unwrap();
//! let wide = e.eval(&Float, &Slots(&[Float.float(0.3).unwrap(), Float.float(1.7).unwrap()]), None).unwrap();
//! // e^{0.3}·1.7 − √1.7/3 + (ln 1.7)² ≈ 2.29476 − 0.43461 + 0.28157 ≈ 2.14171: the same bits in
//! // both domains.
//! assert_eq!(fast.v.to_bits(), wide.v.to_f64().to_bits());
//! let direct = 0.3f64.exp() * 1.7 - 1.7f64.sqrt() / 3.0 + 1.7f64.ln().powi(2);
//! assert!((fast.v - direct).abs() < 1e-12 && (fast.v - 2.14171).abs() < 1e-5);
//! ```

use super::domain::{Approx, Domain, Eval, EvalError, Float};
use crate::exact::Q;
use crate::trust::Trust;
use crate::xfloat::XFloat;
use num_traits::Zero;
use std::cmp::Ordering;

/// A number of the [`Float64`] domain: the value `v` and the magnitude `m ≥ |v|` of the terms it
/// was computed from (as [`Approx`], in `f64`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Approx64 {
    /// The value.
    pub v: f64,
    /// The magnitude of the terms it was computed from.
    pub m: f64,
}

/// [`Float`] on plain `f64` (module documentation): the same numbers while they are normal
/// `f64` values, [`EvalError::Beyond64`] otherwise.
///
/// ```
/// use balloc::lang::{Domain, EvalError, Float, Float64};
/// let d = Float64;
/// let x = d.exp(&d.float(2.0).unwrap()).unwrap();
/// assert_eq!(x.v, Float.exp(&Float.float(2.0).unwrap()).unwrap().v.to_f64());
/// // e^{800} is beyond f64: the extended-range domain takes over.
/// assert_eq!(d.exp(&d.float(800.0).unwrap()), Err(EvalError::Beyond64));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Float64;

/// A value both domains hold alike: zero or a normal finite `f64`.
///
/// Read from the bits: the biased exponent of a normal number is in `1..=2046` (0 is zero or
/// subnormal, 2047 infinite or NaN), and a zero has every bit but the sign clear.
#[inline(always)]
fn normal(v: f64) -> bool {
    let b = v.to_bits();
    let e = (b >> 52) & 0x7ff;
    e.wrapping_sub(1) < 0x7fe || b << 1 == 0
}

#[inline]
fn ok(v: f64) -> Eval<f64> {
    if normal(v) {
        Ok(v)
    } else {
        Err(EvalError::Beyond64)
    }
}

#[inline]
fn num(v: f64, m: f64) -> Eval<Approx64> {
    Ok(Approx64 {
        v: ok(v)?,
        m: ok(m)?,
    })
}

#[inline]
fn exact(v: f64) -> Eval<Approx64> {
    num(v, v.abs())
}

/// `a + b` as [`XFloat::add`] forms it: a zero operand returns the other one (so the sign of a
/// zero sum is that of the operand, not the `f64` rule `(+0) + (−0) = +0`).
#[inline]
fn add(a: f64, b: f64) -> f64 {
    if a == 0.0 {
        b
    } else if b == 0.0 {
        a
    } else {
        a + b
    }
}

/// A product of two normal factors whose result is zero underflowed (extended range keeps it).
#[inline]
fn mul(a: f64, b: f64) -> Eval<f64> {
    let p = a * b;
    if p == 0.0 && a != 0.0 && b != 0.0 {
        return Err(EvalError::Beyond64);
    }
    ok(p)
}

#[inline]
fn div(a: f64, b: f64) -> Eval<f64> {
    let q = a / b;
    if q == 0.0 && a != 0.0 {
        return Err(EvalError::Beyond64);
    }
    ok(q)
}

/// The larger of two values, as [`XFloat::max`] picks it (the first on equality).
#[inline]
fn max(a: f64, b: f64) -> f64 {
    if a < b { b } else { a }
}

/// `x^k` for `|k| ≤ 64` as [`XFloat::pow`] forms it: `|k|` multiplications from 1, then the
/// reciprocal for `k < 0`, every intermediate product a normal `f64`.
fn powi(x: f64, k: i64) -> Eval<f64> {
    if k.abs() > 64 {
        return Err(EvalError::Beyond64);
    }
    let mut acc = 1.0;
    for _ in 0..k.abs() {
        acc = mul(acc, x)?;
    }
    if k < 0 { div(1.0, acc) } else { Ok(acc) }
}

impl Domain for Float64 {
    type N = Approx64;
    fn trust(&self) -> Trust {
        Trust::Float
    }
    fn name(&self) -> String {
        "float".into()
    }
    fn exact_inputs(&self) -> bool {
        false
    }
    #[inline]
    fn rational(&self, q: &Q) -> Eval<Approx64> {
        exact(crate::exact::to_f64(q))
    }
    #[inline]
    fn literal(&self, q: &Q, f: f64) -> Eval<Approx64> {
        if f.is_finite() && (f != 0.0 || q.is_zero()) {
            return exact(f);
        }
        self.rational(q)
    }
    #[inline]
    fn float(&self, v: f64) -> Eval<Approx64> {
        exact(v)
    }
    fn xfloat(&self, v: XFloat) -> Eval<Approx64> {
        exact(v.binary().to_f64())
    }
    #[inline]
    fn add(&self, a: &Approx64, b: &Approx64) -> Eval<Approx64> {
        num(add(a.v, b.v), add(a.m, b.m))
    }
    #[inline]
    fn sub(&self, a: &Approx64, b: &Approx64) -> Eval<Approx64> {
        num(add(a.v, -b.v), add(a.m, b.m))
    }
    #[inline]
    fn mul(&self, a: &Approx64, b: &Approx64) -> Eval<Approx64> {
        num(mul(a.v, b.v)?, mul(a.m, b.m)?)
    }
    #[inline]
    fn div(&self, a: &Approx64, b: &Approx64) -> Eval<Approx64> {
        if b.v == 0.0 {
            return Err(EvalError::Beyond64);
        }
        num(div(a.v, b.v)?, div(a.m, b.v.abs())?)
    }
    #[inline]
    fn neg(&self, a: &Approx64) -> Eval<Approx64> {
        Ok(Approx64 { v: -a.v, m: a.m })
    }
    fn powi(&self, a: &Approx64, k: i64) -> Eval<Approx64> {
        if k < 0 && a.v == 0.0 {
            return Err(EvalError::Beyond64);
        }
        let v = powi(a.v, k)?;
        num(v, max(powi(a.m, k)?.abs(), v.abs()))
    }
    #[inline]
    fn exp(&self, a: &Approx64) -> Eval<Approx64> {
        // XFloat::exp rounds e^t as f64 does for |t| < 700.
        if a.v.abs() >= 700.0 {
            return Err(EvalError::Beyond64);
        }
        let v = a.v.exp();
        num(v, mul(v, max(1.0, a.m))?)
    }
    fn ln(&self, a: &Approx64) -> Eval<Approx64> {
        if a.v <= 0.0 {
            return Err(EvalError::Beyond64);
        }
        // ln(m·2^e) = ln m + e ln 2, as the extended-range form computes it.
        let v = XFloat::from_f64(a.v).ln().to_f64();
        num(v, add(v.abs(), div(a.m, a.v)?))
    }
    fn sqrt(&self, a: &Approx64) -> Eval<Approx64> {
        if a.v < 0.0 {
            return Err(EvalError::Beyond64);
        }
        let v = a.v.sqrt();
        num(v, max(a.m.sqrt(), v))
    }
    #[inline]
    fn abs(&self, a: &Approx64) -> Eval<Approx64> {
        Ok(Approx64 {
            v: a.v.abs(),
            m: a.m,
        })
    }
    fn floor(&self, a: &Approx64) -> Eval<Approx64> {
        exact(a.v.floor())
    }
    fn ceil(&self, a: &Approx64) -> Eval<Approx64> {
        exact(a.v.ceil())
    }
    #[inline]
    fn cmp(&self, a: &Approx64, b: &Approx64) -> Eval<Ordering> {
        a.v.partial_cmp(&b.v).ok_or(EvalError::Beyond64)
    }
    /// As [`Float`]'s ([`Domain::fragile`]): within `2⁻⁴⁰` of the magnitudes.
    fn fragile(&self, a: &Approx64, b: &Approx64) -> bool {
        Float.fragile(&self.approx(a), &self.approx(b))
    }
    fn blur(&self, v: &Approx64, by: &Approx64) -> Eval<Approx64> {
        let w = Float.blur(&self.approx(v), &self.approx(by))?;
        let m = w.m.to_f64();
        if !m.is_finite() {
            return Err(EvalError::Beyond64);
        }
        Ok(Approx64 { v: v.v, m })
    }
    #[inline]
    fn to_f64(&self, a: &Approx64) -> f64 {
        a.v
    }
    fn to_rational(&self, a: &Approx64) -> Option<Q> {
        if a.m == a.v.abs() {
            crate::exact::from_float(a.v)
        } else {
            None
        }
    }
    fn show(&self, a: &Approx64) -> String {
        XFloat::from_f64(a.v).to_string()
    }
    fn pow(&self, a: &Approx64, b: &Approx64) -> Eval<Approx64> {
        // The default's test (the exponent known exactly and an integer), without forming the
        // rational: an integer f64 with m = |v| is an integer rational.
        if b.m == b.v.abs() && b.v.fract() == 0.0 {
            if b.v.abs() > super::domain::MAX_INTEGER_POWER as f64 {
                return Err(EvalError::Beyond64);
            }
            return self.powi(a, b.v as i64);
        }
        let l = self.ln(a)?;
        self.exp(&self.mul(b, &l)?)
    }
    #[inline]
    fn zero(&self) -> Approx64 {
        Approx64 { v: 0.0, m: 0.0 }
    }
    #[inline]
    fn one(&self) -> Approx64 {
        Approx64 { v: 1.0, m: 1.0 }
    }
}

/// The float domains, whose numbers convert to [`Approx`].
pub trait ToApprox: Domain {
    /// The number as an extended-range [`Approx`] (the same value and magnitude).
    fn approx(&self, a: &Self::N) -> Approx;
}

impl ToApprox for Float {
    fn approx(&self, a: &Approx) -> Approx {
        *a
    }
}

impl ToApprox for Float64 {
    fn approx(&self, a: &Approx64) -> Approx {
        Approx {
            v: XFloat::from_f64(a.v),
            m: XFloat::from_f64(a.m),
        }
    }
}

/// `run` in [`Float64`], and again in [`Float`] when a number leaves the normal range of `f64`:
/// the [`Float`] result either way (module documentation).
///
/// ```
/// use balloc::lang::{compile_str, Float, Slots, ToApprox, float64::eval_float};
/// use balloc::lang::{Domain, Formula};
/// let f = compile_str("exp(a) <= 1e300", &["a"]).unwrap();
/// let at = |a: f64| eval_float(|d| f.truth(d, &Slots(&[d.float(a)?]), None, None),
///                              |d| f.truth(d, &Slots(&[d.float(a)?]), None, None));
/// assert_eq!(at(2.0).unwrap(), true);
/// assert_eq!(at(800.0).unwrap(), false); // e^{800} ≈ 10^{347}: decided in extended range
/// ```
pub fn eval_float<T>(
    fast: impl FnOnce(&Float64) -> Eval<T>,
    wide: impl FnOnce(&Float) -> Eval<T>,
) -> Eval<T> {
    match fast(&Float64) {
        Err(EvalError::Beyond64) => wide(&Float),
        r => r,
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::lang::{Slots, compile_value};
    use proptest::prelude::*;

    /// The expression in both domains: where [`Float64`] gives a number, the same bits as
    /// [`Float`] (value and magnitude); where it stops, [`eval_float`] gives [`Float`]'s result.
    fn agree(text: &str, a: f64, b: f64) -> bool {
        let e = compile_value(text, &["a", "b"]).unwrap();
        let wide = e.eval(
            &Float,
            &Slots(&[Float.float(a).unwrap(), Float.float(b).unwrap()]),
            None,
        );
        let fast = Float64.float(a).and_then(|x| {
            let y = Float64.float(b)?;
            e.eval(&Float64, &Slots(&[x, y]), None)
        });
        match (fast, &wide) {
            (Ok(f), Ok(w)) => {
                assert_eq!(f.v.to_bits(), w.v.to_f64().to_bits(), "{text} at {a}, {b}");
                assert_eq!(f.m.to_bits(), w.m.to_f64().to_bits(), "{text} at {a}, {b}");
                assert_eq!(Float64.approx(&f), *w);
                true
            }
            (Ok(f), Err(w)) => panic!("{text} at {a}, {b}: f64 gave {f:?}, extended range {w}"),
            (Err(EvalError::Beyond64), _) => {
                let both = eval_float(
                    |d| {
                        e.eval(d, &Slots(&[d.float(a)?, d.float(b)?]), None)
                            .map(|x| d.approx(&x))
                    },
                    |d| {
                        e.eval(d, &Slots(&[d.float(a)?, d.float(b)?]), None)
                            .map(|x| d.approx(&x))
                    },
                );
                assert_eq!(both, wide, "{text} at {a}, {b}");
                false
            }
            (Err(e), _) => panic!("{text} at {a}, {b}: unexpected {e}"),
        }
    }

    const EXPRS: [&str; 10] = [
        "a + b",
        "a - b",
        "a * b - b / 3",
        "a / b",
        "exp(a) * b - exp(-b)",
        "ln(abs(a) + 1) * sqrt(abs(b))",
        "a^3 - b^2 + a^-2",
        "a^b",
        "floor(a) + ceil(b) - abs(a - b)",
        "cosh(a) - sinh(b) + max(a, b) * min(a, b)",
    ];

    fn zeros_keep_the_sign_of_the_extended_range_sum() {
        // (+0) − (+0): XFloat returns −(+0) = −0 (a zero operand returns the other one), f64 +0.
        let z = Float64.float(0.0).unwrap();
        let d = Float64.sub(&z, &z).unwrap();
        assert!(d.v == 0.0 && d.v.is_sign_negative());
        let w = Float.sub(&Float.float(0.0).unwrap(), &Float.float(0.0).unwrap());
        assert!(w.unwrap().v.to_f64().is_sign_negative());
        assert!(agree("a - b", 0.0, 0.0));
        assert!(agree("a + b", -0.0, 0.0));
    }

    fn beyond_f64_the_extended_range_decides() {
        // e^{800}: the exponent is past 700.
        assert!(!agree("exp(a) * b", 800.0, 1.0));
        // 1e-200 · 1e-200 underflows in f64; 1e300 · 1e300 overflows.
        assert!(!agree("a * b", 1e-200, 1e-200));
        assert!(!agree("a * b", 1e300, 1e300));
        // A subnormal input (5e-324) and a subnormal result (2^-1022 / 4).
        assert!(!agree("a + b", 5e-324, 1.0));
        assert!(!agree("a / b", f64::MIN_POSITIVE, 4.0));
        // An integer power beyond 64 and a division by zero (undefined: the same error).
        assert!(!agree("a^b", 1.01, 65.0));
        assert!(!agree("a / b", 1.0, 0.0));
        assert!(!agree("ln(a)", -1.0, 0.0));
        // Within range: e^{699}, 2^{-1000}·2^{-21}.
        assert!(agree("exp(a) * b", 699.0, 1.0));
        assert!(agree("a * b", 2f64.powi(-1000), 2f64.powi(-21)));
    }

    /// The definition of [`normal`] on the value: zero, or finite with `|v| ≥ 2^-1022`.
    fn normal_by_value(v: f64) -> bool {
        v == 0.0 || (v.is_finite() && v.abs() >= f64::MIN_POSITIVE)
    }

    fn normal_reads_the_class_from_the_bits() {
        let edge = [
            0.0,
            -0.0,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            f64::MIN_POSITIVE / 2.0,
            5e-324,
            -5e-324,
            f64::from_bits(f64::MIN_POSITIVE.to_bits() - 1),
            f64::MAX,
            f64::MIN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            1.0,
        ];
        let expected = [
            true, true, true, true, false, false, false, false, true, true, false, false, false,
            false, true,
        ];
        for (v, e) in edge.iter().zip(expected) {
            assert_eq!(normal(*v), e, "{v:e}");
            assert_eq!(normal_by_value(*v), e, "{v:e}");
        }
    }

    proptest! {
        fn normal_agrees_with_its_definition(bits in any::<u64>()) {
            let v = f64::from_bits(bits);
            prop_assert_eq!(normal(v), normal_by_value(v));
        }

        fn the_same_bits_as_the_extended_range_domain(
            k in 0..EXPRS.len(),
            a in prop_oneof![-50.0..50.0f64, -1e-3..1e-3f64, (-40i32..40).prop_map(f64::from)],
            b in prop_oneof![-50.0..50.0f64, 1e-300..1e-290f64, (-40i32..40).prop_map(f64::from)],
        ) {
            agree(EXPRS[k], a, b);
        }
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "zeros_keep_the_sign_of_the_extended_range_sum",
            run: zeros_keep_the_sign_of_the_extended_range_sum,
            panics: None,
        },
        crate::unit::Test {
            name: "beyond_f64_the_extended_range_decides",
            run: beyond_f64_the_extended_range_decides,
            panics: None,
        },
        crate::unit::Test {
            name: "normal_reads_the_class_from_the_bits",
            run: normal_reads_the_class_from_the_bits,
            panics: None,
        },
        crate::unit::Test {
            name: "normal_agrees_with_its_definition",
            run: normal_agrees_with_its_definition,
            panics: None,
        },
        crate::unit::Test {
            name: "the_same_bits_as_the_extended_range_domain",
            run: the_same_bits_as_the_extended_range_domain,
            panics: None,
        },
    ];
}
