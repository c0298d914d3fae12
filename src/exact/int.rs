//! Integers for the exact rationals [`Q`](super::Q) = `Ratio<Int>`: a machine integer while the
//! value fits in `i64`, a heap [`BigInt`] otherwise.
//!
//! Almost every numerator and denominator met in exact evaluation fits in 64 bits; there the
//! arithmetic runs on `i64` with overflow checks (products and sums go through `i128`, the
//! binary gcd through `u64`), and only a result outside `[−2⁶³, 2⁶³ − 1]` becomes a `BigInt`.
//! The representation is canonical: a `BigInt` is kept only for a value that does not fit in
//! `i64`, so equal values have equal representations (and equal hashes).
//!
//! Every operation has the meaning of the same operation on `BigInt`: `/` and `%` truncate
//! toward zero (the remainder has the sign of the dividend), `div_floor`/`mod_floor` round toward
//! −∞ (the remainder has the sign of the divisor), `gcd` and `lcm` are non-negative, `Display`
//! and `from_str_radix` use the same text, and `to_f64` rounds to nearest, ties to even.
//!
//! ```
//! use balloc::exact::Int;
//! let a = Int::from(i64::MAX);
//! let b = &a + &Int::from(1); // 2⁶³ leaves the machine range
//! assert_eq!(b.to_string(), "9223372036854775808");
//! assert_eq!(&b - &Int::from(1), a); // and comes back
//! ```

use num_bigint::{BigInt, ParseBigIntError, ToBigInt};
use num_integer::{Integer, Roots};
use num_traits::{FromPrimitive, Num, One, Pow, Signed, ToPrimitive, Zero};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::iter::{Product, Sum};
use std::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};
use std::str::FromStr;

/// An integer of any size: `i64` inline, [`BigInt`] beyond (see the module documentation).
///
/// ```
/// use balloc::exact::Int;
/// use num_integer::Integer;
/// let a = Int::from(-7);
/// assert_eq!(&a / &Int::from(2), Int::from(-3)); // truncating, like BigInt
/// assert_eq!(a.div_floor(&Int::from(2)), Int::from(-4));
/// assert_eq!(Int::from(12).gcd(&Int::from(-18)), Int::from(6));
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Int(Repr);

/// Canonical: `Big(b)` only for `b` outside the range of `i64`.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    Small(i64),
    Big(BigInt),
}

use Repr::{Big, Small};

impl Int {
    /// The canonical form of a `BigInt`.
    fn big(b: BigInt) -> Int {
        match b.to_i64() {
            Some(v) => Int(Small(v)),
            None => Int(Big(b)),
        }
    }

    fn from_i128_value(v: i128) -> Int {
        match i64::try_from(v) {
            Ok(v) => Int(Small(v)),
            Err(_) => Int(Big(BigInt::from(v))),
        }
    }

    fn from_u128_value(v: u128) -> Int {
        match i64::try_from(v) {
            Ok(v) => Int(Small(v)),
            Err(_) => Int(Big(BigInt::from(v))),
        }
    }

    /// The value as a `BigInt` (borrowed when it is one).
    fn as_big(&self) -> Cow<'_, BigInt> {
        match &self.0 {
            Small(v) => Cow::Owned(BigInt::from(*v)),
            Big(b) => Cow::Borrowed(b),
        }
    }

    /// The number of bits of `|self|` (0 for 0), as `BigInt::bits`.
    ///
    /// ```
    /// use balloc::exact::Int;
    /// assert_eq!(Int::from(-8).bits(), 4);
    /// assert_eq!(Int::from(0).bits(), 0);
    /// assert_eq!((Int::from(1) << 100).bits(), 101);
    /// ```
    pub fn bits(&self) -> u64 {
        match &self.0 {
            Small(v) => u64::from(64 - v.unsigned_abs().leading_zeros()),
            Big(b) => b.bits(),
        }
    }

    /// `selfᵉ` (`0⁰ = 1`), as `BigInt::pow`.
    ///
    /// ```
    /// use balloc::exact::Int;
    /// assert_eq!(Int::from(-3).pow(3), Int::from(-27));
    /// assert_eq!(Int::from(10).pow(20).to_string(), "100000000000000000000");
    /// ```
    pub fn pow(&self, e: u32) -> Int {
        match &self.0 {
            Small(v) => match v.checked_pow(e) {
                Some(p) => Int(Small(p)),
                None => Int::big(BigInt::from(*v).pow(e)),
            },
            Big(b) => Int::big(b.pow(e)),
        }
    }
}

/// Binary gcd of two machine words (`gcd(0, b) = b`).
fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Arithmetic: each operation on references, the other forms call it.

fn add(a: &Int, b: &Int) -> Int {
    if let (Small(x), Small(y)) = (&a.0, &b.0) {
        return match x.checked_add(*y) {
            Some(s) => Int(Small(s)),
            None => Int::from_i128_value(i128::from(*x) + i128::from(*y)),
        };
    }
    Int::big(&*a.as_big() + &*b.as_big())
}

fn sub(a: &Int, b: &Int) -> Int {
    if let (Small(x), Small(y)) = (&a.0, &b.0) {
        return match x.checked_sub(*y) {
            Some(s) => Int(Small(s)),
            None => Int::from_i128_value(i128::from(*x) - i128::from(*y)),
        };
    }
    Int::big(&*a.as_big() - &*b.as_big())
}

fn mul(a: &Int, b: &Int) -> Int {
    if let (Small(x), Small(y)) = (&a.0, &b.0) {
        return Int::from_i128_value(i128::from(*x) * i128::from(*y));
    }
    Int::big(&*a.as_big() * &*b.as_big())
}

/// Truncating division (panics on division by zero, as `BigInt`).
fn div(a: &Int, b: &Int) -> Int {
    if let (Small(x), Small(y)) = (&a.0, &b.0) {
        assert!(*y != 0, "attempt to divide by zero");
        return match x.checked_div(*y) {
            Some(q) => Int(Small(q)),
            // i64::MIN / −1 = 2⁶³
            None => Int::from_i128_value(-i128::from(*x)),
        };
    }
    Int::big(&*a.as_big() / &*b.as_big())
}

/// Remainder of the truncating division (the sign of the dividend).
fn rem(a: &Int, b: &Int) -> Int {
    match (&a.0, &b.0) {
        (Small(x), Small(y)) => {
            assert!(
                *y != 0,
                "attempt to calculate the remainder with a divisor of zero"
            );
            // `None` only for i64::MIN % −1, which is 0.
            Int(Small(x.checked_rem(*y).unwrap_or(0)))
        }
        // |x| < |b| for a canonical big b (except i64::MIN against 2⁶³): the remainder is x.
        (Small(x), Big(_)) if *x != i64::MIN => a.clone(),
        (Big(x), Small(y)) => {
            assert!(
                *y != 0,
                "attempt to calculate the remainder with a divisor of zero"
            );
            Int::big(x % *y)
        }
        _ => Int::big(&*a.as_big() % &*b.as_big()),
    }
}

fn neg(a: &Int) -> Int {
    match &a.0 {
        Small(x) => match x.checked_neg() {
            Some(n) => Int(Small(n)),
            None => Int::from_i128_value(-i128::from(*x)),
        },
        Big(b) => Int::big(-b),
    }
}

macro_rules! binop {
    ($Tr:ident, $m:ident, $TrA:ident, $ma:ident, $f:ident) => {
        impl $Tr<&Int> for &Int {
            type Output = Int;
            #[inline]
            fn $m(self, o: &Int) -> Int {
                $f(self, o)
            }
        }
        impl $Tr<Int> for &Int {
            type Output = Int;
            #[inline]
            fn $m(self, o: Int) -> Int {
                $f(self, &o)
            }
        }
        impl $Tr<&Int> for Int {
            type Output = Int;
            #[inline]
            fn $m(self, o: &Int) -> Int {
                $f(&self, o)
            }
        }
        impl $Tr<Int> for Int {
            type Output = Int;
            #[inline]
            fn $m(self, o: Int) -> Int {
                $f(&self, &o)
            }
        }
        impl $TrA<&Int> for Int {
            #[inline]
            fn $ma(&mut self, o: &Int) {
                *self = $f(self, o);
            }
        }
        impl $TrA<Int> for Int {
            #[inline]
            fn $ma(&mut self, o: Int) {
                *self = $f(self, &o);
            }
        }
    };
}

binop!(Add, add, AddAssign, add_assign, add);
binop!(Sub, sub, SubAssign, sub_assign, sub);
binop!(Mul, mul, MulAssign, mul_assign, mul);
binop!(Div, div, DivAssign, div_assign, div);
binop!(Rem, rem, RemAssign, rem_assign, rem);

impl Neg for Int {
    type Output = Int;
    #[inline]
    fn neg(self) -> Int {
        neg(&self)
    }
}

impl Neg for &Int {
    type Output = Int;
    #[inline]
    fn neg(self) -> Int {
        neg(self)
    }
}

impl std::ops::Shl<usize> for Int {
    type Output = Int;
    /// `self · 2ᵏ`.
    fn shl(self, k: usize) -> Int {
        Int::big(self.as_big().into_owned() << k)
    }
}

impl Sum for Int {
    fn sum<I: Iterator<Item = Int>>(iter: I) -> Int {
        iter.fold(Int::zero(), |a, b| a + b)
    }
}

impl<'a> Sum<&'a Int> for Int {
    fn sum<I: Iterator<Item = &'a Int>>(iter: I) -> Int {
        iter.fold(Int::zero(), |a, b| a + b)
    }
}

impl Product for Int {
    fn product<I: Iterator<Item = Int>>(iter: I) -> Int {
        iter.fold(Int::one(), |a, b| a * b)
    }
}

impl<'a> Product<&'a Int> for Int {
    fn product<I: Iterator<Item = &'a Int>>(iter: I) -> Int {
        iter.fold(Int::one(), |a, b| a * b)
    }
}

// ---------------------------------------------------------------------------------------------
// Order, text

impl Ord for Int {
    fn cmp(&self, o: &Int) -> Ordering {
        match (&self.0, &o.0) {
            (Small(a), Small(b)) => a.cmp(b),
            // A canonical big value lies outside the range of every small one.
            (Small(_), Big(b)) => {
                if b.is_negative() {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
            (Big(a), Small(_)) => {
                if a.is_negative() {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            (Big(a), Big(b)) => a.cmp(b),
        }
    }
}

impl PartialOrd for Int {
    fn partial_cmp(&self, o: &Int) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Small(v) => fmt::Display::fmt(v, f),
            Big(b) => fmt::Display::fmt(b, f),
        }
    }
}

/// The same text as `Display` (as for `BigInt`).
impl fmt::Debug for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Default for Int {
    fn default() -> Int {
        Int(Small(0))
    }
}

impl FromStr for Int {
    type Err = ParseBigIntError;
    fn from_str(s: &str) -> Result<Int, ParseBigIntError> {
        Int::from_str_radix(s, 10)
    }
}

// ---------------------------------------------------------------------------------------------
// Conversions

macro_rules! from_signed {
    ($($t:ty),*) => {$(
        impl From<$t> for Int {
            #[inline]
            fn from(v: $t) -> Int {
                Int(Small(i64::from(v)))
            }
        }
    )*};
}
from_signed!(i8, i16, i32, i64, u8, u16, u32);

impl From<i128> for Int {
    fn from(v: i128) -> Int {
        Int::from_i128_value(v)
    }
}

impl From<u128> for Int {
    fn from(v: u128) -> Int {
        Int::from_u128_value(v)
    }
}

impl From<u64> for Int {
    fn from(v: u64) -> Int {
        Int::from_u128_value(u128::from(v))
    }
}

impl From<isize> for Int {
    fn from(v: isize) -> Int {
        Int::from_i128_value(v as i128)
    }
}

impl From<usize> for Int {
    fn from(v: usize) -> Int {
        Int::from_u128_value(v as u128)
    }
}

impl From<BigInt> for Int {
    fn from(b: BigInt) -> Int {
        Int::big(b)
    }
}

impl From<&BigInt> for Int {
    fn from(b: &BigInt) -> Int {
        match b.to_i64() {
            Some(v) => Int(Small(v)),
            None => Int(Big(b.clone())),
        }
    }
}

impl From<Int> for BigInt {
    fn from(i: Int) -> BigInt {
        match i.0 {
            Small(v) => BigInt::from(v),
            Big(b) => b,
        }
    }
}

impl From<&Int> for BigInt {
    fn from(i: &Int) -> BigInt {
        i.as_big().into_owned()
    }
}

/// The error of converting an [`Int`] to a machine integer type that cannot hold its value.
///
/// ```
/// use balloc::exact::{Int, OutOfRange};
/// assert_eq!(u8::try_from(&Int::from(255)), Ok(255));
/// assert_eq!(u8::try_from(&Int::from(256)), Err(OutOfRange));
/// assert_eq!(i64::try_from(Int::from(1u64 << 63)), Err(OutOfRange));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfRange;

impl fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the integer is out of the range of the target type")
    }
}

impl std::error::Error for OutOfRange {}

macro_rules! try_into_primitive {
    ($($t:ty),*) => {$(
        impl TryFrom<&Int> for $t {
            type Error = OutOfRange;
            fn try_from(i: &Int) -> Result<$t, OutOfRange> {
                match &i.0 {
                    Small(v) => <$t>::try_from(*v).map_err(|_| OutOfRange),
                    Big(b) => <$t>::try_from(b).map_err(|_| OutOfRange),
                }
            }
        }
        impl TryFrom<Int> for $t {
            type Error = OutOfRange;
            fn try_from(i: Int) -> Result<$t, OutOfRange> {
                <$t>::try_from(&i)
            }
        }
    )*};
}
try_into_primitive!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
);

impl ToBigInt for Int {
    fn to_bigint(&self) -> Option<BigInt> {
        Some(self.into())
    }
}

impl ToPrimitive for Int {
    fn to_i64(&self) -> Option<i64> {
        match &self.0 {
            Small(v) => Some(*v),
            Big(_) => None,
        }
    }
    fn to_u64(&self) -> Option<u64> {
        match &self.0 {
            Small(v) => u64::try_from(*v).ok(),
            Big(b) => b.to_u64(),
        }
    }
    fn to_i128(&self) -> Option<i128> {
        match &self.0 {
            Small(v) => Some(i128::from(*v)),
            Big(b) => b.to_i128(),
        }
    }
    fn to_u128(&self) -> Option<u128> {
        match &self.0 {
            Small(v) => u128::try_from(*v).ok(),
            Big(b) => b.to_u128(),
        }
    }
    fn to_f32(&self) -> Option<f32> {
        match &self.0 {
            Small(v) => Some(*v as f32),
            Big(b) => b.to_f32(),
        }
    }
    fn to_f64(&self) -> Option<f64> {
        match &self.0 {
            // Round to nearest, ties to even: the rounding of BigInt::to_f64.
            Small(v) => Some(*v as f64),
            Big(b) => b.to_f64(),
        }
    }
}

impl FromPrimitive for Int {
    fn from_i64(v: i64) -> Option<Int> {
        Some(Int(Small(v)))
    }
    fn from_u64(v: u64) -> Option<Int> {
        Some(Int::from(v))
    }
    fn from_i128(v: i128) -> Option<Int> {
        Some(Int::from(v))
    }
    fn from_u128(v: u128) -> Option<Int> {
        Some(Int::from(v))
    }
    fn from_f32(v: f32) -> Option<Int> {
        BigInt::from_f32(v).map(Int::big)
    }
    fn from_f64(v: f64) -> Option<Int> {
        BigInt::from_f64(v).map(Int::big)
    }
}

// ---------------------------------------------------------------------------------------------
// num-traits / num-integer

impl Zero for Int {
    #[inline]
    fn zero() -> Int {
        Int(Small(0))
    }
    #[inline]
    fn is_zero(&self) -> bool {
        matches!(self.0, Small(0))
    }
}

impl One for Int {
    #[inline]
    fn one() -> Int {
        Int(Small(1))
    }
    #[inline]
    fn is_one(&self) -> bool {
        matches!(self.0, Small(1))
    }
}

impl Num for Int {
    type FromStrRadixErr = ParseBigIntError;
    /// The text `BigInt::from_str_radix` accepts, with its value.
    fn from_str_radix(s: &str, radix: u32) -> Result<Int, ParseBigIntError> {
        // Every string `i64` accepts is accepted by BigInt with the same value; the rest
        // (overflow, `_` separators, errors) goes to BigInt.
        match i64::from_str_radix(s, radix) {
            Ok(v) => Ok(Int(Small(v))),
            Err(_) => BigInt::from_str_radix(s, radix).map(Int::big),
        }
    }
}

impl Signed for Int {
    fn abs(&self) -> Int {
        if self.is_negative() {
            neg(self)
        } else {
            self.clone()
        }
    }
    fn abs_sub(&self, o: &Int) -> Int {
        if self <= o { Int::zero() } else { self - o }
    }
    fn signum(&self) -> Int {
        match self.cmp(&Int::zero()) {
            Ordering::Less => Int(Small(-1)),
            Ordering::Equal => Int::zero(),
            Ordering::Greater => Int::one(),
        }
    }
    fn is_positive(&self) -> bool {
        match &self.0 {
            Small(v) => *v > 0,
            Big(b) => b.is_positive(),
        }
    }
    fn is_negative(&self) -> bool {
        match &self.0 {
            Small(v) => *v < 0,
            Big(b) => b.is_negative(),
        }
    }
}

/// Floor division and modulus of machine integers, `y ≠ 0`; `i64::MIN` by −1 through `i128`.
fn div_mod_floor_small(x: i64, y: i64) -> (Int, Int) {
    assert!(y != 0, "attempt to divide by zero");
    if y == -1 {
        return (neg(&Int(Small(x))), Int::zero());
    }
    let (q, r) = (x / y, x % y);
    if r != 0 && ((r < 0) != (y < 0)) {
        (Int(Small(q - 1)), Int(Small(r + y)))
    } else {
        (Int(Small(q)), Int(Small(r)))
    }
}

impl Integer for Int {
    fn div_floor(&self, o: &Int) -> Int {
        match (&self.0, &o.0) {
            (Small(x), Small(y)) => div_mod_floor_small(*x, *y).0,
            _ => Int::big(self.as_big().div_floor(&o.as_big())),
        }
    }
    fn mod_floor(&self, o: &Int) -> Int {
        match (&self.0, &o.0) {
            (Small(x), Small(y)) => div_mod_floor_small(*x, *y).1,
            _ => Int::big(self.as_big().mod_floor(&o.as_big())),
        }
    }
    fn div_mod_floor(&self, o: &Int) -> (Int, Int) {
        match (&self.0, &o.0) {
            (Small(x), Small(y)) => div_mod_floor_small(*x, *y),
            _ => {
                let (q, r) = self.as_big().div_mod_floor(&o.as_big());
                (Int::big(q), Int::big(r))
            }
        }
    }
    fn div_rem(&self, o: &Int) -> (Int, Int) {
        match (&self.0, &o.0) {
            (Small(_), Small(_)) => (div(self, o), rem(self, o)),
            _ => {
                let (q, r) = self.as_big().div_rem(&o.as_big());
                (Int::big(q), Int::big(r))
            }
        }
    }
    /// Non-negative.
    fn gcd(&self, o: &Int) -> Int {
        match (&self.0, &o.0) {
            (Small(x), Small(y)) => Int::from(gcd_u64(x.unsigned_abs(), y.unsigned_abs())),
            (Small(x), Big(b)) | (Big(b), Small(x)) => {
                if *x == 0 {
                    return Int::big(b.abs());
                }
                // gcd(b, x) = gcd(x, b mod x), and b mod x fits in i64.
                let r = (b % *x).to_i64().expect("a remainder by an i64 is an i64");
                Int::from(gcd_u64(x.unsigned_abs(), r.unsigned_abs()))
            }
            (Big(a), Big(b)) => Int::big(a.gcd(b)),
        }
    }
    /// Non-negative; 0 when either is 0.
    fn lcm(&self, o: &Int) -> Int {
        match (&self.0, &o.0) {
            (Small(x), Small(y)) => {
                if *x == 0 || *y == 0 {
                    return Int::zero();
                }
                let (x, y) = (x.unsigned_abs(), y.unsigned_abs());
                Int::from_u128_value(u128::from(x / gcd_u64(x, y)) * u128::from(y))
            }
            _ => Int::big(self.as_big().lcm(&o.as_big())),
        }
    }
    fn gcd_lcm(&self, o: &Int) -> (Int, Int) {
        (self.gcd(o), self.lcm(o))
    }
    fn is_multiple_of(&self, o: &Int) -> bool {
        match (&self.0, &o.0) {
            (Small(x), Small(y)) => {
                if *y == 0 {
                    *x == 0
                } else {
                    x.unsigned_abs() % y.unsigned_abs() == 0
                }
            }
            _ => self.as_big().is_multiple_of(&o.as_big()),
        }
    }
    fn is_even(&self) -> bool {
        match &self.0 {
            Small(v) => v & 1 == 0,
            Big(b) => b.is_even(),
        }
    }
    fn is_odd(&self) -> bool {
        !self.is_even()
    }
}

impl Roots for Int {
    fn nth_root(&self, n: u32) -> Int {
        match &self.0 {
            Small(v) => Int(Small(v.nth_root(n))),
            Big(b) => Int::big(b.nth_root(n)),
        }
    }
    fn sqrt(&self) -> Int {
        match &self.0 {
            Small(v) => Int(Small(v.sqrt())),
            Big(b) => Int::big(b.sqrt()),
        }
    }
}

macro_rules! pow_impl {
    ($($t:ty),*) => {$(
        impl Pow<$t> for &Int {
            type Output = Int;
            fn pow(self, e: $t) -> Int {
                match u32::try_from(e) {
                    Ok(e) => Int::pow(self, e),
                    Err(_) => Int::big(Pow::pow(&*self.as_big(), e)),
                }
            }
        }
        impl Pow<$t> for Int {
            type Output = Int;
            fn pow(self, e: $t) -> Int {
                Pow::pow(&self, e)
            }
        }
    )*};
}
pow_impl!(u8, u16, u32, u64, usize);

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests;
