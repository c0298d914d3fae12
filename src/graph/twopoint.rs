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
