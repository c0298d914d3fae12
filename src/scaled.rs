//! Numbers of huge magnitude: `mantissa · e^{log_scale}`, so that exponential potentials such as
//! `Φ = Σ e^{α yᵢ}` never overflow (`docs/conventions.md` §2: large exponents are handled in the log domain).

use serde::Serialize;

/// A real number stored as `mantissa · e^{log_scale}`.
///
/// ```
/// use balloc::scaled::Scaled;
/// // e^{1000} + e^{1000} = 2e^{1000}: ln = 1000 + ln 2, far beyond f64.
/// let s = Scaled::exp_of(1000.0).add(Scaled::exp_of(1000.0));
/// assert!((s.ln_abs() - (1000.0 + 2f64.ln())).abs() < 1e-12);
/// assert_eq!(s.to_f64_checked(), None);
/// assert_eq!(Scaled::from_f64(3.0).to_f64_checked(), Some(3.0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Scaled {
    /// The mantissa (may be negative or zero).
    mantissa: f64,
    /// The natural logarithm of the scale.
    log_scale: f64,
}

#[allow(clippy::should_implement_trait)]
impl Scaled {
    /// An ordinary `f64`.
    pub fn from_f64(v: f64) -> Scaled {
        Scaled {
            mantissa: v,
            log_scale: 0.0,
        }
    }

    /// `mantissa · e^{log_scale}`.
    pub fn from_parts(mantissa: f64, log_scale: f64) -> Scaled {
        Scaled {
            mantissa,
            log_scale,
        }
    }

    /// `(mantissa, log_scale)`.
    pub fn parts(self) -> (f64, f64) {
        (self.mantissa, self.log_scale)
    }

    /// Whether the mantissa is zero.
    pub fn is_zero(self) -> bool {
        self.mantissa == 0.0
    }

    /// `e^{x}` without overflow.
    pub fn exp_of(x: f64) -> Scaled {
        Scaled {
            mantissa: 1.0,
            log_scale: x,
        }
    }

    /// `Σ e^{xᵢ}` without overflow (log-sum-exp with the maximum as scale).
    pub fn sum_exp(xs: impl IntoIterator<Item = f64> + Clone) -> Scaled {
        let m = xs.clone().into_iter().fold(f64::NEG_INFINITY, f64::max);
        if m == f64::NEG_INFINITY {
            return Scaled::from_f64(0.0);
        }
        Scaled {
            mantissa: xs.into_iter().map(|x| (x - m).exp()).sum(),
            log_scale: m,
        }
    }

    /// The sum of two scaled numbers.
    pub fn add(self, other: Scaled) -> Scaled {
        if self.mantissa == 0.0 {
            return other;
        }
        if other.mantissa == 0.0 {
            return self;
        }
        let m = self.log_scale.max(other.log_scale);
        Scaled {
            mantissa: self.mantissa * (self.log_scale - m).exp()
                + other.mantissa * (other.log_scale - m).exp(),
            log_scale: m,
        }
    }

    /// Multiplication by an ordinary `f64`.
    /// ```
    /// use balloc::scaled::Scaled;
    /// // −2e^{800}: sign −1, ln|v| = 800 + ln 2.
    /// let v = Scaled::exp_of(800.0).scale(-2.0);
    /// assert_eq!(v.signum(), -1.0);
    /// assert!((v.ln_abs() - (800.0 + 2f64.ln())).abs() < 1e-12);
    /// ```
    pub fn scale(self, f: f64) -> Scaled {
        Scaled {
            mantissa: self.mantissa * f,
            log_scale: self.log_scale,
        }
    }

    /// The value as an `f64` if it is representable (finite), else `None`.
    pub fn to_f64_checked(self) -> Option<f64> {
        if self.mantissa == 0.0 {
            return Some(0.0);
        }
        let v = self.mantissa * self.log_scale.exp();
        if v.is_finite() { Some(v) } else { None }
    }

    /// `ln |value|` (−∞ for zero).
    pub fn ln_abs(self) -> f64 {
        self.mantissa.abs().ln() + self.log_scale
    }

    /// The sign of the value: −1, 0 or 1.
    pub fn signum(self) -> f64 {
        if self.mantissa == 0.0 {
            0.0
        } else {
            self.mantissa.signum()
        }
    }

    /// Whether the value is NaN.
    pub fn is_nan(self) -> bool {
        self.mantissa.is_nan() || self.log_scale.is_nan()
    }
}

/// A compensated (Neumaier) running sum: the error of `n` additions stays at a few ulps of the
/// result instead of growing with `n`, for the million-term sums of the potentials.
///
/// ```
/// use balloc::scaled::CompensatedSum;
/// // 1 + 10⁻¹⁶ + 10⁻¹⁶ (ten thousand times) = 1 + 10⁻¹²; naive summation returns 1.
/// let mut s = CompensatedSum::default();
/// s.add(1.0);
/// for _ in 0..10_000 {
///     s.add(1e-16);
/// }
/// assert!((s.value() - (1.0 + 1e-12)).abs() < 1e-15);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct CompensatedSum {
    sum: f64,
    compensation: f64,
}

impl CompensatedSum {
    /// Adds `x`.
    #[inline]
    pub fn add(&mut self, x: f64) {
        let t = self.sum + x;
        if self.sum.abs() >= x.abs() {
            self.compensation += (self.sum - t) + x;
        } else {
            self.compensation += (x - t) + self.sum;
        }
        self.sum = t;
    }

    /// The sum.
    pub fn value(&self) -> f64 {
        self.sum + self.compensation
    }
}
