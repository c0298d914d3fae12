//! Trust level **`exact`**: rational evaluation of every quantity that is rational.
//!
//! docs/conventions.md §3 names four trust levels for a verdict; this module is the strongest one. It evaluates,
//! in exact rationals ([`Q`] = `Ratio<Int>`: numerator and denominator are [`Int`]s, machine
//! integers while they fit in `i64` and `BigInt`s beyond, see [`int`]):
//!
//! * the per-bin allocation vectors of rank-based processes with the tie rule applied
//!   ([`ExactStepLaw::from_process`]; random ties give every bin of a tied group the group
//!   average, fixed ties keep the rank order, docs/conventions.md §1);
//! * C1/C2 (already generic: call [`crate::condition`] with `Q`);
//! * the quadratic potential `Υ = Σ yᵢ²` and the absolute-value potential `Δ = Σ |yᵢ|`, and
//!   their expectations after one step and one batch ([`quadratic`], [`absolute`]), by the same
//!   closed forms as the `f64` code in `crate::potential` (docs/derivations.md §4);
//! * an independent brute-force enumerator over every outcome ([`enumerate::brute_force`]).
//!
//! Loads given as `f64` are converted exactly ([`from_float`]), so integer loads and
//! dyadic loads are represented without error. Weight laws carry rational parameters
//! ([`ExactWeights`]).
//!
//! ```
//! use balloc::exact::{self, ExactSetting, ExactStepLaw, Q};
//! use balloc::{loads::{Loads, TieRule}, process};
//! // Two-Choice, n = 2, x = (1, 0): p = (1/4, 3/4) by rank; Υ' is 2 (heavy bin, prob. 1/4) or
//! // 0 (light bin, prob. 3/4), so E[Υ'] = 1/2 exactly.
//! let x = Loads::new(vec![1.0, 0.0]).unwrap();
//! let law = ExactStepLaw::from_process(process::parse("two-choice").unwrap().as_ref(),
//!                                      &x, TieRule::Random).unwrap();
//! let e = exact::quadratic::expected_next(&law, &exact::loads(&x).unwrap(),
//!                                         &ExactSetting::sequential()).unwrap();
//! assert_eq!(e, Q::new(1.into(), 2.into()));
//! ```

use crate::error::{Error, Result};
use crate::loads::Loads;
use num_bigint::BigInt;
use num_rational::Ratio;
use num_traits::{ToPrimitive, Zero};

pub mod absolute;
pub mod enumerate;
pub mod int;
pub mod quadratic;
pub mod sum;
mod weights;

pub use crate::process::{ExactOutcome, ExactStepLaw};
pub use int::{Int, OutOfRange};
pub use weights::ExactWeights;

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

/// The nearest `f64` to a rational (for comparisons with the float routes).
///
/// ```
/// assert_eq!(balloc::exact::to_f64(&balloc::exact::Q::new(1.into(), 4.into())), 0.25);
/// ```
pub fn to_f64(q: &Q) -> f64 {
    q.to_f64().unwrap_or(f64::NAN)
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

/// The loads as exact rationals (every finite `f64` is a rational).
///
/// ```
/// let x = balloc::loads::Loads::new(vec![2.0, 0.5]).unwrap();
/// assert_eq!(balloc::exact::loads(&x).unwrap()[1].to_string(), "1/2");
/// ```
pub fn loads(x: &Loads) -> Result<Vec<Q>> {
    x.as_slice()
        .iter()
        .enumerate()
        .map(|(i, v)| from_f64(*v, &format!("load {}", i + 1)))
        .collect()
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

/// The setting of an exact evaluation: batch size `b ≥ 1` and a rational weight law. (The tie
/// rule is already applied in the [`ExactStepLaw`].)
#[derive(Debug, Clone, PartialEq)]
pub struct ExactSetting {
    /// The batch size (1 = sequential).
    pub batch: u64,
    /// The weight law.
    pub weights: ExactWeights,
}

impl ExactSetting {
    /// A validated setting.
    ///
    /// ```
    /// use balloc::exact::{ExactSetting, ExactWeights};
    /// assert!(ExactSetting::new(0, ExactWeights::Unit).is_err());
    /// assert_eq!(ExactSetting::new(4, ExactWeights::Unit).unwrap().batch, 4);
    /// ```
    pub fn new(batch: u64, weights: ExactWeights) -> Result<ExactSetting> {
        if batch == 0 {
            return Err(Error::invalid("batch", "must be at least 1, got 0"));
        }
        Ok(ExactSetting { batch, weights })
    }

    /// One unit ball.
    pub fn sequential() -> ExactSetting {
        ExactSetting {
            batch: 1,
            weights: ExactWeights::Unit,
        }
    }

    /// The exact counterpart of a float [`crate::setting::Setting`] (weights via
    /// [`ExactWeights::from_law`]; the tie rule belongs to the step law).
    ///
    /// ```
    /// use balloc::{exact::ExactSetting, setting::Setting};
    /// let s = ExactSetting::from_setting(&Setting::batched(3).unwrap()).unwrap();
    /// assert_eq!(s.batch, 3);
    /// ```
    pub fn from_setting(s: &crate::setting::Setting) -> Result<ExactSetting> {
        ExactSetting::new(s.batch, ExactWeights::from_law(&s.weights)?)
    }
}

#[cfg(test)]
mod tests;
