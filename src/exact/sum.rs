//! Exact sums of many rationals that share a few denominators.
//!
//! Adding `a/b + c/d` as rationals reduces the result by a gcd every time; the laws of one step
//! (probabilities `k/n²`, `k/(2m)`, `1/n`, ...) add thousands of terms over two or three
//! distinct denominators. [`QSum`] keeps one integer numerator per distinct denominator and
//! reduces once, when the value is read: the same rational, with one gcd per denominator instead
//! of one per term.

use super::Q;
use crate::exact::Int;
use num_traits::Zero;

/// The most distinct denominators kept apart; past it the parts are folded into one rational.
const PARTS: usize = 8;

/// A running exact sum `Σ qᵢ`, kept as `Σ_d (N_d / d)` over the distinct denominators `d`.
///
/// ```
/// use balloc::exact::{Q, sum::QSum};
/// let q = |a: i64, b: i64| Q::new(a.into(), b.into());
/// let mut s = QSum::default();
/// for _ in 0..9 {
///     s.add(&q(1, 9));
/// }
/// s.add_times(&q(1, 6), 3); // 3 · 1/6 = 1/2
/// assert_eq!(s.value(), q(3, 2)); // 9/9 + 1/2
/// ```
#[derive(Debug, Clone, Default)]
pub struct QSum {
    /// `(d, N_d)`: the numerators added over the denominator `d` (positive, as in a reduced `Q`).
    parts: Vec<(Int, Int)>,
    /// The folded parts, once there were more than [`PARTS`] denominators.
    rest: Q,
}

impl QSum {
    /// Adds `q`.
    pub fn add(&mut self, q: &Q) {
        self.add_numer(q.denom(), q.numer().clone());
    }

    /// Adds `k·q`.
    pub fn add_times(&mut self, q: &Q, k: u64) {
        self.add_numer(q.denom(), q.numer() * Int::from(k));
    }

    fn add_numer(&mut self, d: &Int, n: Int) {
        if n.is_zero() {
            return;
        }
        if let Some((_, acc)) = self.parts.iter_mut().find(|(pd, _)| pd == d) {
            *acc += n;
            return;
        }
        if self.parts.len() == PARTS {
            let f = self.fold();
            self.rest += f;
        }
        self.parts.push((d.clone(), n));
    }

    /// `Σ_d N_d/d` of the parts held, which are cleared.
    fn fold(&mut self) -> Q {
        self.parts
            .drain(..)
            .map(|(d, n)| Q::new(n, d))
            .fold(Q::zero(), |a, b| a + b)
    }

    /// The sum (reduced).
    pub fn value(mut self) -> Q {
        let f = self.fold();
        self.rest + f
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    /// Against the plain rational sum of the same terms, in an order that cycles through more
    /// denominators than are kept apart (so the folding path is taken), with signs and zeros.
    fn equals_the_rational_sum() {
        let mut plain = Q::zero();
        let mut s = QSum::default();
        for i in 0..500i64 {
            let q = Q::new(((i * 7) % 11 - 5).into(), (1 + i % 13).into());
            plain += &q;
            if i % 3 == 0 {
                s.add_times(&q, 2);
                plain += &q;
            } else {
                s.add(&q);
            }
        }
        assert_eq!(s.value(), plain);
        assert_eq!(QSum::default().value(), Q::zero());
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[crate::unit::Test {
        name: "equals_the_rational_sum",
        run: equals_the_rational_sum,
        panics: None,
    }];
}
