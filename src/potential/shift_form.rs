//! Per-bin terms whose sums over the bins separate the loads from the mean.
//!
//! A sum-over-bins potential `P = Σᵢ φ(yᵢ)` with `yᵢ = xᵢ − W/n` reads every load through the
//! mean. When `φ(y) = Σ_k a_k y^k + Σ_l c_l e^{b_l y}` (a polynomial plus exponentials: the
//! quadratic potential `Υ`, and `Φ`, `Ψ`, `Γ` of Peres–Talwar–Wieder as used by Los–Sauerwald,
//! *Balanced Allocations in Batches*, §3), a weighted sum at any shift `s` is a combination of
//! power sums and exponential sums of the loads alone:
//!
//! `Σᵢ wᵢ φ(xᵢ − s) = Σ_k a_k Σ_{j ≤ k} C(k, j) (−s)^{k−j} S_j + Σ_l c_l e^{−b_l s} E_l`,
//!
//! with `S_j = Σᵢ wᵢ xᵢ^j` and `E_l = Σᵢ wᵢ e^{b_l xᵢ}` ([`ShiftForm::at`]). The sums of a prefix
//! of a load vector extend bin by bin ([`ShiftForm::add_bin`]), so a walk over sorted vectors that
//! fixes one entry at a time evaluates `P`, and the one-step expectations built from these sums,
//! in time independent of `n` per vector (the screen of the exhaustive enumeration,
//! [`crate::search::Screen`]).

/// `φ(y) = Σ_k poly[k]·y^k + Σ_l exps[l].0·e^{exps[l].1·y}`.
///
/// ```
/// use balloc::potential::ShiftForm;
/// // Υ: φ(y) = y². At x = (3, 1, 0, 0), W/n = 1: Σ (xᵢ − 1)² = 4 + 0 + 1 + 1 = 6.
/// let f = ShiftForm { poly: vec![0.0, 0.0, 1.0], exps: vec![] };
/// let mut sums = vec![0.0; f.len()];
/// for x in [3.0, 1.0, 0.0, 0.0] {
///     f.add_bin(&mut sums, 1.0, x);
/// }
/// let (v, m) = f.at(&sums, 1.0);
/// assert_eq!(v, 6.0);
/// assert!(m >= v); // the magnitude of the terms the value was formed from
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ShiftForm {
    /// The coefficients of the polynomial part, by degree.
    pub poly: Vec<f64>,
    /// The exponential part: (coefficient `c`, rate `b`) of each `c·e^{b y}`.
    pub exps: Vec<(f64, f64)>,
}

impl ShiftForm {
    /// The number of sums the form reads: the power sums `S_0 … S_deg`, then one exponential sum
    /// per exponential term.
    pub fn len(&self) -> usize {
        self.poly.len() + self.exps.len()
    }

    /// Whether the form has no terms (`φ = 0`).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds bin `x` with weight `w` to the sums (laid out as [`ShiftForm::len`] says).
    #[inline]
    pub fn add_bin(&self, sums: &mut [f64], w: f64, x: f64) {
        let d = self.poly.len();
        if x == 0.0 {
            // An empty bin: x^0 = e^0 = 1, every other power 0.
            if d > 0 {
                sums[0] += w;
            }
            for s in &mut sums[d..] {
                *s += w;
            }
            return;
        }
        let mut p = w;
        for s in &mut sums[..d] {
            *s += p;
            p *= x;
        }
        for (s, &(_, b)) in sums[d..].iter_mut().zip(&self.exps) {
            *s += w * (b * x).exp();
        }
    }

    /// [`ShiftForm::add_bin`] of bin `x` to two sets of sums at once, with weights 1 and `w`
    /// (each power and exponential of `x` formed once).
    ///
    /// ```
    /// use balloc::potential::ShiftForm;
    /// let f = ShiftForm { poly: vec![0.0, 1.0], exps: vec![(1.0, 0.5)] };
    /// let (mut a, mut b) = (vec![0.0; 3], vec![0.0; 3]);
    /// f.add_bin_pair(&mut a, &mut b, 0.25, 2.0);
    /// // S_0, S_1, Σ e^{x/2}: (1, 2, e) and a quarter of it.
    /// assert_eq!(a, vec![1.0, 2.0, 1f64.exp()]);
    /// assert_eq!(b, vec![0.25, 0.5, 0.25 * 1f64.exp()]);
    /// ```
    #[inline]
    pub fn add_bin_pair(&self, plain: &mut [f64], weighted: &mut [f64], w: f64, x: f64) {
        let d = self.poly.len();
        let mut p = 1.0;
        for (a, b) in plain[..d].iter_mut().zip(&mut weighted[..d]) {
            *a += p;
            *b += w * p;
            p *= x;
        }
        for ((a, b), &(_, r)) in plain[d..]
            .iter_mut()
            .zip(&mut weighted[d..])
            .zip(&self.exps)
        {
            let e = (r * x).exp();
            *a += e;
            *b += w * e;
        }
    }

    /// `(Σᵢ wᵢ φ(xᵢ − s), m)` from the sums of the bins, with `m` the sum of the magnitudes of
    /// the terms it was formed from (a bound on the size of its rounding error, in units of the
    /// relative precision, when the loads and weights are non-negative).
    #[inline]
    pub fn at(&self, sums: &[f64], s: f64) -> (f64, f64) {
        let (mut v, mut m) = self.poly_part(sums, s);
        for (e, &(c, b)) in sums[self.poly.len()..].iter().zip(&self.exps) {
            let t = c * (-b * s).exp() * e;
            v += t;
            m += t.abs();
        }
        (v, m)
    }

    /// [`ShiftForm::at`] with the factors `e^{−b_l s}` of the exponential terms given
    /// (`scale[l]`, one per term), so that a caller evaluating at several related shifts forms
    /// them by products rather than exponentials.
    ///
    /// ```
    /// use balloc::potential::ShiftForm;
    /// let f = ShiftForm { poly: vec![], exps: vec![(1.0, 0.5)] };
    /// let mut sums = vec![0.0; 1];
    /// f.add_bin(&mut sums, 1.0, 2.0);
    /// // e^{(2 − 1)/2} = e^{1/2}, with the factor e^{−1/2} given.
    /// let (v, _) = f.at_scaled(&sums, 1.0, &[(-0.5f64).exp()]);
    /// assert!((v - 0.5f64.exp()).abs() < 1e-15);
    /// ```
    #[inline]
    pub fn at_scaled(&self, sums: &[f64], s: f64, scale: &[f64]) -> (f64, f64) {
        let (mut v, mut m) = self.poly_part(sums, s);
        for ((e, &(c, _)), k) in sums[self.poly.len()..].iter().zip(&self.exps).zip(scale) {
            let t = c * k * e;
            v += t;
            m += t.abs();
        }
        (v, m)
    }

    /// The polynomial part of [`ShiftForm::at`]: its value and magnitude.
    #[inline(always)]
    fn poly_part(&self, sums: &[f64], s: f64) -> (f64, f64) {
        let d = self.poly.len();
        if d <= 3 {
            // Degree ≤ 2 written out: Σ a_k (x − s)^k from S_0, S_1, S_2; the terms bounded as
            // below.
            let a = |k: usize| self.poly.get(k).copied().unwrap_or(0.0);
            let s0 = sums[0..d].first().copied().unwrap_or(0.0);
            let s1 = if d > 1 { sums[1] } else { 0.0 };
            let s2 = if d > 2 { sums[2] } else { 0.0 };
            let v = a(0) * s0 + a(1) * (s1 - s * s0) + a(2) * (s2 - 2.0 * s * s1 + s * s * s0);
            let sa = s.abs();
            let m = a(0).abs() * 2.0 * s0
                + a(1).abs() * (s1 + sa * s0)
                + a(2).abs() * 2.0 * (s2 + sa * sa * s0);
            (v, m)
        } else if d <= SHIFT_MAX {
            // The coefficients of p(x − s) in x by a Taylor shift (multiplications and additions
            // only), against the power sums. The terms of the expansion are bounded by
            // Σ_k |a_k| Σᵢ wᵢ(xᵢ + |s|)^k ≤ Σ_k |a_k| 2^{k−1}(S_k + |s|^k S_0) (x ≥ 0).
            let mut c = [0.0; SHIFT_MAX];
            c[..d].copy_from_slice(&self.poly);
            taylor_shift(&mut c[..d], -s);
            let (mut v, mut m, mut sk, mut half) = (0.0, 0.0, 1.0, 0.5f64);
            for j in 0..d {
                v += c[j] * sums[j];
                m += self.poly[j].abs() * half.max(1.0) * (sums[j] + sk * sums[0]);
                sk *= s.abs();
                half *= 2.0;
            }
            (v, m)
        } else {
            self.poly_at(sums, s)
        }
    }

    /// The polynomial part of [`ShiftForm::at`] term by term (any degree).
    fn poly_at(&self, sums: &[f64], s: f64) -> (f64, f64) {
        let (mut v, mut m) = (0.0, 0.0);
        for (k, &a) in self.poly.iter().enumerate() {
            // Σ_j C(k, j) (−s)^{k−j} S_j, j from k down to 0.
            let (mut c, mut pw) = (1.0, 1.0);
            for j in (0..=k).rev() {
                let t = a * c * pw * sums[j];
                v += t;
                m += t.abs();
                // C(k, j−1) = C(k, j)·j/(k − j + 1); the power of −s grows by one.
                c = c * j as f64 / (k - j + 1) as f64;
                pw *= -s;
            }
        }
        (v, m)
    }
}

/// The most polynomial coefficients [`ShiftForm::at`] shifts on the stack.
const SHIFT_MAX: usize = 8;

/// The coefficients of `p(x + t)` from those of `p(x)` (lowest degree first), in place.
fn taylor_shift(c: &mut [f64], t: f64) {
    let d = c.len();
    for i in 0..d.saturating_sub(1) {
        for j in (i..d - 1).rev() {
            c[j] += t * c[j + 1];
        }
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The separated form against the sum of the terms bin by bin, for a polynomial of degree
        /// 4 and two exponentials, at random loads, weights and shifts.
        fn separated_sums_equal_the_direct_sums(
            xs in proptest::collection::vec((0u32..40, 0.0f64..1.0), 1..12),
            s in -5.0f64..45.0,
            a in proptest::collection::vec(-2.0f64..2.0, 5),
        ) {
            let f = ShiftForm { poly: a.clone(), exps: vec![(0.7, 0.1), (-1.3, -0.05)] };
            let phi = |y: f64| {
                a.iter().enumerate().map(|(k, c)| c * y.powi(k as i32)).sum::<f64>()
                    + 0.7 * (0.1 * y).exp() - 1.3 * (-0.05 * y).exp()
            };
            let mut sums = vec![0.0; f.len()];
            let mut direct = 0.0;
            for &(x, w) in &xs {
                f.add_bin(&mut sums, w, x as f64);
                direct += w * phi(x as f64 - s);
            }
            let (v, m) = f.at(&sums, s);
            prop_assert!((v - direct).abs() <= 1e-12 * m.max(1.0), "{v} vs {direct} (m = {m})");
            // The Taylor shift and the term-by-term form agree, value and magnitude.
            let (pv, pm) = f.poly_at(&sums, s);
            let (ev, em) = ShiftForm { poly: vec![], exps: f.exps.clone() }.at(&sums[a.len()..], s);
            prop_assert!((v - (pv + ev)).abs() <= 1e-12 * m.max(1.0));
            // The magnitude bounds the terms of the expansion.
            prop_assert!(m >= (pm + em) * (1.0 - 1e-12));
            // Degree ≤ 2 (written out) against the bin-by-bin sums too.
            let g = ShiftForm { poly: a[..3].to_vec(), exps: vec![] };
            let mut gs = vec![0.0; g.len()];
            let mut gd = 0.0;
            for &(x, w) in &xs {
                g.add_bin(&mut gs, w, x as f64);
                let y = x as f64 - s;
                gd += w * (a[0] + a[1] * y + a[2] * y * y);
            }
            let (gv, gm) = g.at(&gs, s);
            prop_assert!((gv - gd).abs() <= 1e-12 * gm.max(1.0), "{gv} vs {gd} (m = {gm})");
            let (gpv, gpm) = g.poly_at(&gs, s);
            prop_assert!((gv - gpv).abs() <= 1e-12 * gm.max(1.0) && gm >= gpm * (1.0 - 1e-12));
        }
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[crate::unit::Test {
        name: "separated_sums_equal_the_direct_sums",
        run: separated_sums_equal_the_direct_sums,
        panics: None,
    }];
}
