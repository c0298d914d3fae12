//! Trust level **`exact`**: the exact numbers.
//!
//! docs/conventions.md §3 names four trust levels for a verdict; this module holds the numbers of
//! the strongest one: exact rationals [`Q`] = `Ratio<Int>` (numerator and denominator are
//! [`Int`]s, machine integers while they fit in `i64` and `BigInt`s beyond, see [`int`](mod@int)), sums of
//! many rationals over a few denominators ([`sum::QSum`]), the exact value of an `f64`
//! ([`from_float`]: integer and dyadic loads are represented without error), and the number
//! types the generic code runs in ([`Field`]: `f64` or `Q`). It depends on nothing else of the
//! crate but its error type and [`crate::xfloat`]; what is computed in these numbers lives with
//! its object: the exact step laws in [`crate::process`] (`ExactStepLaw`), C1/C2 in
//! [`crate::condition`] (generic over [`Field`]), the exact expectations of Υ and Δ and the
//! brute-force enumerator in [`crate::potential::exact`], rational weight laws in
//! [`crate::weights`] (`ExactWeights`).
//!
//! ```
//! use balloc::exact::{from_float, normalized, Q};
//! // 0.1 is not 1/10 in binary: its exact value has the denominator 2⁵⁵.
//! assert_eq!(from_float(0.1).unwrap().denom().to_string(), (1u64 << 55).to_string());
//! // y = x − W/n exactly: (1, 0, 0) ↦ (2/3, −1/3, −1/3).
//! let y = normalized(&[Q::from_integer(1.into()), Q::from_integer(0.into()), Q::from_integer(0.into())]);
//! assert_eq!(y[0], Q::new(2.into(), 3.into()));
//! ```

use crate::error::{Error, Result};
use num_bigint::BigInt;
use num_rational::Ratio;
use num_traits::{ToPrimitive, Zero};

mod field;
pub mod int;
pub mod sum;

pub use field::{Field, FromMachineInt};
pub use int::{Int, OutOfRange};

/// Exact rationals `a/b` in lowest terms with `b > 0`, over the integers [`Int`]. The same
/// values, order, text and `to_f64` as `BigRational` (checked against it in the tests).
///
/// ```
/// use balloc::exact::{Int, Q};
/// let q = Q::new(Int::from(6), Int::from(-4));
/// assert_eq!(q.to_string(), "-3/2");
/// assert_eq!(num_traits::ToPrimitive::to_f64(&q), Some(-1.5));
/// ```
pub type Q = Ratio<Int>;

/// The integer `v` as a rational.
///
/// ```
/// assert_eq!(balloc::exact::int(3).to_string(), "3");
/// ```
pub fn int(v: i64) -> Q {
    Q::from_integer(Int::from(v))
}

/// The nearest `f64` to `q` (ties to even; ±∞ beyond the range, as `Ratio::to_f64` returns
/// `None` only for NaN): when numerator and denominator are both at most 2⁵³ in magnitude they
/// are exact in `f64` and their IEEE quotient is the correctly rounded value, computed directly;
/// otherwise `Ratio::to_f64`. The float domains convert every rational input through this.
///
/// ```
/// use balloc::exact::{to_f64, Int, Q};
/// assert_eq!(to_f64(&Q::new(Int::from(1), Int::from(4))), 0.25);
/// assert_eq!(to_f64(&Q::new(Int::from(1), Int::from(3))), 1.0 / 3.0);
/// // 2⁵³ + 1 is not an f64: the general route rounds it to 2⁵³ (ties to even).
/// let big = Q::from_integer(Int::from((1i64 << 53) + 1));
/// assert_eq!(to_f64(&big), 9007199254740992.0);
/// ```
pub fn to_f64(q: &Q) -> f64 {
    const EXACT: i64 = 1 << 53;
    if let (Some(n), Some(d)) = (q.numer().to_i64(), q.denom().to_i64())
        && n.unsigned_abs() <= EXACT as u64
        && d.unsigned_abs() <= EXACT as u64
    {
        return n as f64 / d as f64;
    }
    q.to_f64().unwrap_or(f64::NAN)
}

/// The exact value of a finite `f64` (`None` for NaN and ±∞): `v = m·2ᵉ` with an odd integer
/// `m`, so `m/2^{−e}` is already in lowest terms when `e < 0` — the value of
/// `BigRational::from_float`.
///
/// ```
/// use balloc::exact::{from_float, Int, Q};
/// assert_eq!(from_float(-0.375), Some(Q::new(Int::from(-3), Int::from(8))));
/// assert_eq!(from_float(1e20).unwrap().to_string(), "100000000000000000000");
/// assert_eq!(from_float(f64::NAN), None);
/// ```
pub fn from_float(v: f64) -> Option<Q> {
    if !v.is_finite() {
        return None;
    }
    if v == 0.0 {
        return Some(Q::zero());
    }
    // v = ±f·2^(E−1075) for a biased exponent E ≥ 1 (f with the hidden bit), ±f·2^(−1074) for
    // subnormals (E = 0).
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1 << 52) - 1);
    let (m, e) = if biased == 0 {
        (frac, -1074)
    } else {
        (frac | (1 << 52), biased - 1075)
    };
    let tz = m.trailing_zeros();
    let (m, e) = (m >> tz, e + i64::from(tz));
    let signed = |x: Int| if v < 0.0 { -x } else { x };
    if e >= 0 {
        // m < 2⁵³: m·2ᵉ stays a machine integer while e ≤ 10.
        let numer = if e <= 10 {
            Int::from(m << e)
        } else {
            Int::from(BigInt::from(m) << e as usize)
        };
        Some(Q::from_integer(signed(numer)))
    } else {
        let denom = if e > -63 {
            Int::from(1i64 << -e)
        } else {
            Int::from(BigInt::from(1) << (-e) as usize)
        };
        Some(Q::new_raw(signed(Int::from(m)), denom))
    }
}

/// The exact rational value of a finite `f64`; an error naming `what` otherwise.
///
/// ```
/// use balloc::exact::{from_f64, Q};
/// assert_eq!(from_f64(0.375, "x").unwrap(), Q::new(3.into(), 8.into()));
/// assert!(from_f64(f64::NAN, "x").is_err());
/// ```
pub fn from_f64(v: f64, what: &str) -> Result<Q> {
    from_float(v).ok_or_else(|| Error::invalid(what, format!("must be a finite number, got {v}")))
}

/// A rational as an [`XFloat`](crate::xfloat::XFloat), also beyond the range of `f64`: the value
/// itself when it is a finite `f64`, else `(a/2ᵏ)/(b/2ʲ) · e^{(k − j) ln 2}` in the log domain
/// with numerator and denominator cut to their leading 64 bits (relative error below 2⁻⁶⁰
/// before the final roundings).
///
/// ```
/// use balloc::exact::{Q, to_xfloat};
/// use balloc::exact::Int;
/// // 10³²⁰/4 = 2.5·10³¹⁹: ln = 320 ln 10 − ln 4.
/// let q = Q::new(Int::from(10).pow(320), Int::from(4));
/// let s = to_xfloat(&q);
/// assert_eq!(s.to_f64_checked(), None);
/// assert!((s.ln_abs() - (320.0 * 10f64.ln() - 4f64.ln())).abs() < 1e-12);
/// assert_eq!(to_xfloat(&Q::new(11.into(), 2.into())).to_f64_checked(), Some(5.5));
/// ```
pub fn to_xfloat(q: &Q) -> crate::xfloat::XFloat {
    use crate::xfloat::XFloat;
    if let Some(v) = q
        .to_f64()
        .filter(|v| v.is_finite() && (*v != 0.0 || q.is_zero()))
    {
        return XFloat::from_f64(v);
    }
    // Leading 64 bits of |numer| and denom, and the binary exponent removed from each.
    let lead = |b: &Int| -> (f64, i64) {
        let b = BigInt::from(b);
        let bits = b.bits() as i64;
        let cut = (bits - 64).max(0);
        let top = (b.magnitude() >> cut as u64).to_f64().unwrap_or(f64::NAN);
        (top, cut)
    };
    let (a, ka) = lead(q.numer());
    let (b, kb) = lead(q.denom());
    let sign = if num_traits::Signed::is_negative(q) {
        -1.0
    } else {
        1.0
    };
    XFloat::from_parts(sign * a / b, (ka - kb) as f64 * std::f64::consts::LN_2)
}

/// The normalised loads `yᵢ = xᵢ − W/n` in exact arithmetic (so `Σ yᵢ = 0` exactly).
///
/// ```
/// use balloc::exact::{int, normalized, Q};
/// let y = normalized(&[int(1), int(0), int(0)]);
/// assert_eq!(y, vec![Q::new(2.into(), 3.into()), Q::new((-1).into(), 3.into()), Q::new((-1).into(), 3.into())]);
/// ```
pub fn normalized(x: &[Q]) -> Vec<Q> {
    let mean = x.iter().fold(Q::zero(), |a, b| a + b) / int(x.len() as i64);
    x.iter().map(|v| v - &mean).collect()
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests;
