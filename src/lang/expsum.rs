//! Exact exponential sums `Σⱼ cⱼ·e^{aⱼ}` with rational coefficients `cⱼ` and rational exponents
//! `aⱼ`: an exact route for claims that are linear (or polynomial) in the exponential potentials
//! `Φ = Σ e^{αyᵢ}`, `Ψ = Σ e^{−αyᵢ}`, their sums over sets of bins and their first-order terms.
//!
//! Two sides of a claim are evaluated as exponential sums, the difference is reduced (equal
//! exponents merged, zero coefficients dropped), and:
//! * an empty difference means the two sides are **equal exactly** (e.g. the tight state of a set
//!   inequality where every bad bin has the load of the last good one);
//! * a difference with only the exponent 0 is a rational number, compared exactly;
//! * otherwise the difference is **not zero**: by the Lindemann–Weierstrass theorem, `e^{a₁}, …,
//!   e^{a_k}` are linearly independent over the algebraic numbers for distinct algebraic (here
//!   rational) `aⱼ`, so a non-empty reduced sum with rational coefficients never vanishes, and
//!   its sign is decided by outward-rounded enclosures at increasing precision
//!   ([`ExpSum::sign`]).
//!
//! This is what makes margin-0 claims over the exponential potentials certifiable, where a plain
//! interval evaluation of `rhs − lhs` would contain 0 at every precision.

use crate::enclosure::{Interval, Precisions};
use crate::exact::Q;
use num_traits::{One, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

/// The largest number of terms an evaluation may build (products multiply term counts).
pub const TERM_LIMIT: usize = 100_000;

/// `Σ coefficient·e^{exponent}`, keyed by exponent; never stores a zero coefficient.
///
/// ```
/// use balloc::lang::expsum::ExpSum;
/// use balloc::exact::{int, Q};
/// // e^{1/2}·2 − 2·e^{1/2} = 0 exactly; e^1 − 2 > 0.
/// let a = ExpSum::exp(Q::new(1.into(), 2.into())).scale(&int(2));
/// assert!(a.sub(&a).is_zero());
/// let d = ExpSum::exp(int(1)).sub(&ExpSum::rational(int(2)));
/// assert_eq!(d.sign().unwrap(), std::cmp::Ordering::Greater);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExpSum {
    terms: BTreeMap<Q, Q>,
}

impl ExpSum {
    /// The rational number `c` (the exponent 0).
    pub fn rational(c: Q) -> ExpSum {
        ExpSum::term(c, Q::zero())
    }

    /// `e^{a}`.
    pub fn exp(a: Q) -> ExpSum {
        ExpSum::term(Q::one(), a)
    }

    /// `c·e^{a}`.
    pub fn term(c: Q, a: Q) -> ExpSum {
        let mut s = ExpSum::default();
        s.push(c, a);
        s
    }

    /// Adds `c·e^{a}` in place.
    pub fn push(&mut self, c: Q, a: Q) {
        if c.is_zero() {
            return;
        }
        match self.terms.entry(a) {
            Entry::Occupied(mut o) => {
                *o.get_mut() += c;
                if o.get().is_zero() {
                    o.remove();
                }
            }
            Entry::Vacant(v) => {
                v.insert(c);
            }
        }
    }

    /// Whether the sum is exactly 0.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// The number of terms.
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    /// Whether there are no terms (the sum is 0).
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The value when the sum is a rational number (no exponent other than 0).
    pub fn as_rational(&self) -> Option<Q> {
        match self.terms.len() {
            0 => Some(Q::zero()),
            1 => self.terms.get(&Q::zero()).cloned(),
            _ => None,
        }
    }

    /// `self + o`.
    pub fn add(&self, o: &ExpSum) -> ExpSum {
        let mut s = self.clone();
        for (a, c) in &o.terms {
            s.push(c.clone(), a.clone());
        }
        s
    }

    /// `self − o`.
    pub fn sub(&self, o: &ExpSum) -> ExpSum {
        self.add(&o.scale(&-Q::one()))
    }

    /// `q·self`.
    pub fn scale(&self, q: &Q) -> ExpSum {
        if q.is_zero() {
            return ExpSum::default();
        }
        ExpSum {
            terms: self.terms.iter().map(|(a, c)| (a.clone(), c * q)).collect(),
        }
    }

    /// `self·o` (`e^{a}·e^{b} = e^{a+b}`); `None` beyond [`TERM_LIMIT`] terms.
    pub fn mul(&self, o: &ExpSum) -> Option<ExpSum> {
        if self.len().saturating_mul(o.len()) > TERM_LIMIT {
            return None;
        }
        let mut s = ExpSum::default();
        for (a, c) in &self.terms {
            for (b, d) in &o.terms {
                s.push(c * d, a + b);
            }
        }
        Some(s)
    }

    /// `(c·e^{a})^k = c^k·e^{ka}` for a single term (`None` for several terms, or `c = 0` with
    /// `k < 0`).
    ///
    /// ```
    /// use balloc::lang::expsum::ExpSum;
    /// use balloc::exact::{int, Q};
    /// // (2e^{1/2})^{-2} = e^{-1}/4
    /// let t = ExpSum::term(int(2), Q::new(1.into(), 2.into())).monomial_pow(-2).unwrap();
    /// assert!(t.sub(&ExpSum::term(Q::new(1.into(), 4.into()), int(-1))).is_zero());
    /// ```
    pub fn monomial_pow(&self, k: i64) -> Option<ExpSum> {
        if self.terms.len() != 1 || k.unsigned_abs() > 4096 {
            return None;
        }
        let (a, c) = self.terms.iter().next()?;
        if c.is_zero() && k < 0 {
            return None;
        }
        let ck = num_traits::pow::Pow::pow(c, k as i32);
        Some(ExpSum::term(ck, a * Q::from_integer(k.into())))
    }

    /// `ln(e^{a}) = a` for a single term with coefficient 1 (`None` otherwise: `ln c` is
    /// irrational for a rational `c ≠ 1`).
    ///
    /// ```
    /// use balloc::lang::expsum::ExpSum;
    /// use balloc::exact::Q;
    /// let a = Q::new(3.into(), 7.into());
    /// assert_eq!(ExpSum::exp(a.clone()).monomial_ln().unwrap().as_rational(), Some(a));
    /// ```
    pub fn monomial_ln(&self) -> Option<ExpSum> {
        if self.terms.len() != 1 {
            return None;
        }
        let (a, c) = self.terms.iter().next()?;
        c.is_one().then(|| ExpSum::rational(a.clone()))
    }

    /// An enclosure of the value at `prec` bits (outward rounding).
    pub fn enclose(&self, prec: u64) -> crate::error::Result<Interval> {
        let mut acc = Interval::from_rational(&Q::zero(), prec);
        for (a, c) in &self.terms {
            let t = if a.is_zero() {
                Interval::from_rational(c, prec)
            } else {
                Interval::exp_of(a, prec)?.mul_rational(c, prec)
            };
            acc = acc.add(&t, prec);
        }
        Ok(acc)
    }

    /// The exact sign: `Equal` iff the reduced sum is empty; a rational sum is compared exactly;
    /// otherwise enclosures at 64, 128, … bits until 0 is excluded (a non-empty reduced sum is
    /// not 0 by Lindemann–Weierstrass). `Err` only when the enclosures overflow or the
    /// precision steps run out.
    pub fn sign(&self) -> crate::error::Result<Ordering> {
        self.sign_with_precision().map(|(s, _)| s)
    }

    /// [`ExpSum::sign`] with the working precision of the enclosure that decided it (`None` when
    /// the sum is rational and was compared exactly).
    pub fn sign_with_precision(&self) -> crate::error::Result<(Ordering, Option<u64>)> {
        if let Some(q) = self.as_rational() {
            return Ok((q.cmp(&Q::zero()), None));
        }
        let mut last = String::new();
        for prec in Precisions::default().steps() {
            let iv = self.enclose(prec)?;
            if *iv.lo() > 0u32 {
                return Ok((Ordering::Greater, Some(prec)));
            }
            if *iv.hi() < 0u32 {
                return Ok((Ordering::Less, Some(prec)));
            }
            last = format!("[{:e}, {:e}] at {prec} bits", iv.lo_f64(), iv.hi_f64());
        }
        Err(crate::error::Error::Unsupported(format!(
            "the sign of a non-zero exponential sum was not separated from 0: {last}"
        )))
    }

    /// A float approximation (for reports).
    pub fn to_f64(&self) -> f64 {
        self.terms
            .iter()
            .map(|(a, c)| c.to_f64().unwrap_or(f64::NAN) * a.to_f64().unwrap_or(f64::NAN).exp())
            .sum()
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::exact::int;

    fn cancellation_and_sign() {
        // 3e^{1/3} − e^{1/3} − 2e^{1/3} = 0; e^{1/3} − 1.3956 ≈ 0.0000124 > 0
        // (e^{1/3} = 1.395612425...).
        let t = ExpSum::exp(Q::new(1.into(), 3.into()));
        assert!(t.scale(&int(3)).sub(&t).sub(&t.scale(&int(2))).is_zero());
        let d = t.sub(&ExpSum::rational(Q::new(13956.into(), 10000.into())));
        assert_eq!(d.sign().unwrap(), Ordering::Greater);
        let d = t.sub(&ExpSum::rational(Q::new(13957.into(), 10000.into())));
        assert_eq!(d.sign().unwrap(), Ordering::Less);
        // A rational sum is compared exactly.
        assert_eq!(ExpSum::rational(int(0)).sign().unwrap(), Ordering::Equal);
    }

    fn products_add_exponents() {
        // (e^{1} + e^{-1})·(e^{1} − e^{-1}) = e^{2} − e^{-2}.
        let a = ExpSum::exp(int(1)).add(&ExpSum::exp(int(-1)));
        let b = ExpSum::exp(int(1)).sub(&ExpSum::exp(int(-1)));
        let p = a.mul(&b).unwrap();
        assert!(
            p.sub(&ExpSum::exp(int(2)).sub(&ExpSum::exp(int(-2))))
                .is_zero()
        );
        assert!((p.to_f64() - (2f64.exp() - (-2f64).exp())).abs() < 1e-12);
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "cancellation_and_sign",
            run: cancellation_and_sign,
            panics: None,
        },
        crate::unit::Test {
            name: "products_add_exponents",
            run: products_add_exponents,
            panics: None,
        },
    ];
}
