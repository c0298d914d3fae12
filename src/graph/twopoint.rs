//! The 2-point process of C §3.4 (Lemma 3.8) as exact one-step formulas.
//!
//! Two bins with stationary probabilities `π₁ + π₂ = 1`, loads `ℓ₁, ℓ₂`, `δ = ℓ₁/π₁ − ℓ₂/π₂`. At
//! each step a parameter `ε_t > ε` is chosen; the ball goes to bin 1 with probability `π₁ − ε_t`
//! if `δ > 0`, `π₁ + ε_t` if `δ < 0`, `π₁` if `δ = 0`. Printed hypotheses: `ε ≤ min(π₁, π₂)/2`
//! and `ε_t ≤ max(π₁, π₂)/2` almost surely. The proof uses `Φ = cosh(αδ)`, `α = ε/8`,
//! `γ = 1/π₁ + 1/π₂` and the one-step bound `E[Φ(t+1) | δ] ≤ Φ − αεγ(Φ − 2)/2`.
//!
//! Reference: Bansal–Feldheim (arXiv:2106.06051 v2), §3.4, Lemma 3.8 and its proof.

/// One configuration of the 2-point process.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TwoPoint {
    /// `π₁` (and `π₂ = 1 − π₁`).
    pub pi1: f64,
    /// The lower bound `ε` on the bias.
    pub eps: f64,
    /// The bias `ε_t` used at this step.
    pub eps_t: f64,
}

impl TwoPoint {
    /// `π₂ = 1 − π₁`.
    pub fn pi2(&self) -> f64 {
        1.0 - self.pi1
    }

    /// `γ = 1/π₁ + 1/π₂`.
    pub fn gamma(&self) -> f64 {
        1.0 / self.pi1 + 1.0 / self.pi2()
    }

    /// The printed hypotheses: `0 < π₁ < 1`, `0 < ε ≤ min(π₁, π₂)/2`, `ε < ε_t ≤ max(π₁, π₂)/2`.
    pub fn hypotheses(&self) -> bool {
        let (p1, p2) = (self.pi1, self.pi2());
        0.0 < p1
            && p1 < 1.0
            && 0.0 < self.eps
            && self.eps <= p1.min(p2) / 2.0
            && self.eps < self.eps_t
            && self.eps_t <= p1.max(p2) / 2.0
    }

    /// Whether `π₁ ± ε_t` are probabilities (`ε_t ≤ min(π₁, π₂)`); not implied by the hypotheses.
    ///
    /// ```
    /// use balloc::graph::twopoint::TwoPoint;
    /// let c = TwoPoint { pi1: 0.1, eps: 0.05, eps_t: 0.3 };
    /// assert!(c.hypotheses() && !c.valid()); // π₁ − ε_t = −0.2
    /// ```
    pub fn valid(&self) -> bool {
        self.eps_t <= self.pi1.min(self.pi2())
    }

    /// `P(ball to bin 1 | δ)`.
    pub fn p1(&self, delta: f64) -> f64 {
        if delta > 0.0 {
            self.pi1 - self.eps_t
        } else if delta < 0.0 {
            self.pi1 + self.eps_t
        } else {
            self.pi1
        }
    }

    /// `E[Δδ | δ]` (printed: `−ε_tγ` for `δ > 0`).
    pub fn mean_step(&self, delta: f64) -> f64 {
        let p = self.p1(delta);
        p / self.pi1 - (1.0 - p) / self.pi2()
    }

    /// `E[(Δδ)² | δ]` (printed: `γ + ε_t(−1/π₁² + 1/π₂²)` for `δ > 0`, bounded by `2γ`).
    pub fn second_moment(&self, delta: f64) -> f64 {
        let p = self.p1(delta);
        p / (self.pi1 * self.pi1) + (1.0 - p) / (self.pi2() * self.pi2())
    }

    /// `(E[Φ(t+1) | δ], Φ − αεγ(Φ − 2)/2)` with `Φ = cosh(αδ)`, `α = ε/8`: the two sides of the
    /// one-step inequality of the proof of Lemma 3.8 (the exact two-outcome expectation).
    ///
    /// ```
    /// use balloc::graph::twopoint::TwoPoint;
    /// let c = TwoPoint { pi1: 0.5, eps: 0.25, eps_t: 0.25 };
    /// // α = ε/8 = 1/32, γ = 4. δ = 0: E = cosh(2α)/2 + cosh(−2α)/2 = cosh(1/16);
    /// // rhs = Φ − αεγ(Φ − 2)/2 = 1 + (1/32)(1/4)(4)/2 = 1 + 1/64.
    /// let (l, r) = c.one_step(0.0);
    /// assert!((l - (1.0f64 / 16.0).cosh()).abs() < 1e-15 && (r - 1.015625).abs() < 1e-15);
    /// ```
    pub fn one_step(&self, delta: f64) -> (f64, f64) {
        let a = self.eps / 8.0;
        let p = self.p1(delta);
        let lhs = p * (a * (delta + 1.0 / self.pi1)).cosh()
            + (1.0 - p) * (a * (delta - 1.0 / self.pi2())).cosh();
        let phi = (a * delta).cosh();
        (lhs, phi - a * self.eps * self.gamma() * (phi - 2.0) / 2.0)
    }
}

use crate::exact::Q;

/// [`TwoPoint`] in exact rationals: the same configuration, with the hypotheses, the validity
/// test and the two moments evaluated without rounding (every quantity of Lemma 3.8 except the
/// potential `cosh(αδ)` is a rational function of `π₁, ε, ε_t, δ`).
///
/// ```
/// use balloc::graph::twopoint::TwoPointQ;
/// use balloc::exact::Q;
/// let q = |a: i64, b: i64| Q::new(a.into(), b.into());
/// // π₁ = 2/5, ε = 1/5, ε_t = 3/10: γ = 5/2 + 5/3 = 25/6 and ε_tγ = 5/4 (Lemma 3.8's "ε_tγ ≤ 1" fails).
/// let c = TwoPointQ { pi1: q(2, 5), eps: q(1, 5), eps_t: q(3, 10) };
/// assert!(c.hypotheses() && c.valid());
/// assert_eq!(&c.eps_t * c.gamma(), q(5, 4));
/// assert_eq!(c.mean_step(&q(1, 1)), -(&c.eps_t * c.gamma()));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct TwoPointQ {
    /// `π₁` (and `π₂ = 1 − π₁`).
    pub pi1: Q,
    /// The lower bound `ε` on the bias.
    pub eps: Q,
    /// The bias `ε_t` used at this step.
    pub eps_t: Q,
}

impl TwoPointQ {
    /// `π₂ = 1 − π₁`.
    pub fn pi2(&self) -> Q {
        Q::from_integer(1.into()) - &self.pi1
    }

    /// `γ = 1/π₁ + 1/π₂` (requires `0 < π₁ < 1`).
    pub fn gamma(&self) -> Q {
        self.pi1.recip() + self.pi2().recip()
    }

    /// The printed hypotheses: `0 < π₁ < 1`, `0 < ε ≤ min(π₁, π₂)/2`, `ε < ε_t ≤ max(π₁, π₂)/2`.
    pub fn hypotheses(&self) -> bool {
        let (p1, p2) = (self.pi1.clone(), self.pi2());
        let zero = Q::from_integer(0.into());
        let two = Q::from_integer(2.into());
        zero < p1
            && zero < p2
            && zero < self.eps
            && self.eps <= p1.clone().min(p2.clone()) / &two
            && self.eps < self.eps_t
            && self.eps_t <= p1.max(p2) / &two
    }

    /// Whether `π₁ ± ε_t` are probabilities (`ε_t ≤ min(π₁, π₂)`).
    pub fn valid(&self) -> bool {
        self.eps_t <= self.pi1.clone().min(self.pi2())
    }

    /// `P(ball to bin 1 | δ)`.
    pub fn p1(&self, delta: &Q) -> Q {
        use num_traits::Signed;
        if delta.is_positive() {
            &self.pi1 - &self.eps_t
        } else if delta.is_negative() {
            &self.pi1 + &self.eps_t
        } else {
            self.pi1.clone()
        }
    }

    /// `E[Δδ | δ] = p/π₁ − (1 − p)/π₂`.
    pub fn mean_step(&self, delta: &Q) -> Q {
        let p = self.p1(delta);
        let one = Q::from_integer(1.into());
        &p / &self.pi1 - (one - &p) / self.pi2()
    }

    /// `E[(Δδ)² | δ] = p/π₁² + (1 − p)/π₂²`.
    pub fn second_moment(&self, delta: &Q) -> Q {
        let p = self.p1(delta);
        let one = Q::from_integer(1.into());
        let p2 = self.pi2();
        &p / (&self.pi1 * &self.pi1) + (one - &p) / (&p2 * &p2)
    }

    /// The two sides of the one-step inequality of the proof of Lemma 3.8 ([`TwoPoint::one_step`])
    /// as enclosures at `prec` bits: `E[Φ(t+1) | δ] = p·cosh(α(δ + 1/π₁)) + (1 − p)·cosh(α(δ − 1/π₂))`
    /// and `Φ − αεγ(Φ − 2)/2 = Φ(1 − αεγ/2) + αεγ`, `Φ = cosh(αδ)`, `α = ε/8`. Every `cosh` has a
    /// rational argument `q` and is enclosed as `(e^q + e^{−q})/2` with correctly rounded `exp`.
    ///
    /// ```
    /// use balloc::graph::twopoint::TwoPointQ;
    /// use balloc::enclosure::{decide, Decision};
    /// use balloc::exact::Q;
    /// let q = |a: i64, b: i64| Q::new(a.into(), b.into());
    /// // As in `TwoPoint::one_step`: δ = 0 gives cosh(1/16) = 1.001953760…  and 1 + 1/64.
    /// let c = TwoPointQ { pi1: q(1, 2), eps: q(1, 4), eps_t: q(1, 4) };
    /// let (l, r) = c.one_step_enclosed(&q(0, 1), 64).unwrap();
    /// assert!((l.mid_f64() - (1.0f64 / 16.0).cosh()).abs() <= 1e-15 && r.contains(&q(65, 64)));
    /// assert_eq!(decide(&l, &r), Decision::Less);
    /// ```
    pub fn one_step_enclosed(
        &self,
        delta: &Q,
        prec: u64,
    ) -> crate::error::Result<(crate::enclosure::Interval, crate::enclosure::Interval)> {
        use crate::enclosure::Interval;
        let half = Q::new(1.into(), 2.into());
        let cosh = |x: Q| -> crate::error::Result<Interval> {
            let a = Interval::exp_of(&x, prec)?;
            let b = Interval::exp_of(&-x, prec)?;
            Ok(a.add(&b, prec).mul_rational(&half, prec))
        };
        let one = Q::from_integer(1.into());
        let a = &self.eps / Q::from_integer(8.into());
        let p = self.p1(delta);
        let up = cosh(&a * (delta + self.pi1.recip()))?;
        let down = cosh(&a * (delta - self.pi2().recip()))?;
        let lhs = up
            .mul_rational(&p, prec)
            .add(&down.mul_rational(&(&one - &p), prec), prec);
        let k = &a * &self.eps * self.gamma();
        let phi = cosh(&a * delta)?;
        let rhs = phi
            .mul_rational(&(&one - &k * &half), prec)
            .add_rational(&k, prec);
        Ok((lhs, rhs))
    }

    /// The nearest `f64` configuration (for the `cosh` one-step inequality, evaluated in `f64`).
    pub fn to_f64(&self) -> TwoPoint {
        use num_traits::ToPrimitive;
        let f = |x: &Q| x.to_f64().unwrap_or(f64::NAN);
        TwoPoint {
            pi1: f(&self.pi1),
            eps: f(&self.eps),
            eps_t: f(&self.eps_t),
        }
    }
}

impl std::fmt::Display for TwoPointQ {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "π₁ = {}, ε = {}, ε_t = {}",
            self.pi1, self.eps, self.eps_t
        )
    }
}
