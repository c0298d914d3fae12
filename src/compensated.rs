//! Compensated summation of `f64` terms, for the million-term sums of the potentials (the
//! mantissas of `Φ = Σ e^{α yᵢ − s}` and of its expectation).

/// A compensated (Neumaier) running sum: the error of `n` additions stays at a few ulps of the
/// result instead of growing with `n`. Neumaier, *Rundungsfehleranalyse einiger Verfahren zur
/// Summation endlicher Summen*, ZAMM 54 (1974): `t = s + x`, and the lost low part
/// `(s − t) + x` (or `(x − t) + s` when `|x| > |s|`) is accumulated separately.
///
/// ```
/// use balloc::compensated::CompensatedSum;
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
    ///
    /// ```
    /// use balloc::compensated::CompensatedSum;
    /// // 10¹⁶ + 1 − 10¹⁶ = 1 (the plain f64 sum gives 0).
    /// let mut s = CompensatedSum::default();
    /// for x in [1e16, 1.0, -1e16] {
    ///     s.add(x);
    /// }
    /// assert_eq!(s.value(), 1.0);
    /// ```
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
    ///
    /// ```
    /// use balloc::compensated::CompensatedSum;
    /// let mut s = CompensatedSum::default();
    /// s.add(0.5);
    /// s.add(0.25);
    /// assert_eq!(s.value(), 0.75);
    /// ```
    pub fn value(&self) -> f64 {
        self.sum + self.compensation
    }
}
