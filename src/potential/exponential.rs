//! The exponential potentials `Φ = Σ e^{α yᵢ}`, `Ψ = Σ e^{−α yᵢ}` and the hyperbolic cosine
//! potential `Γ = Φ + Ψ = Σ 2cosh(α yᵢ)`.
//!
//! Reference: Peres–Talwar–Wieder, *The (1+β)-choice process and weighted balls-into-bins*
//! (SODA 2010), §2; Los–Sauerwald, *Balanced Allocations in Batches* (SPAA 2022), §3 (A.Def.Gamma).
//!
//! Closed form (docs/derivations.md §4, derived): a single sample that puts `S` (a sum of `k` i.i.d. weights)
//! into bin `j` changes `yᵢ` by `S(1{i=j} − 1/n)`, so for `σ = ±1`
//! `E[e^{σα y'ᵢ}] = e^{σα yᵢ} · Fᵢ` with `Fᵢ = Σ_o p_o M(σα(1{bin_o=i} − 1/n))^{k_o}`;
//! a batch of `b` samples on the frozen vector multiplies the factors: `e^{σα yᵢ} · Fᵢᵇ`.

use super::{Expected, Potential, PotentialInfo};
use crate::compensated::CompensatedSum;
use crate::error::{Error, Result};
use crate::loads::Loads;
use crate::process::{LevelLaw, Param, StepLaw};
use crate::setting::Setting;
use crate::spec::Spec;
use crate::xfloat::XFloat;

/// Which exponential potential.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// `Φ = Σ e^{α yᵢ}` (overload part).
    Phi,
    /// `Ψ = Σ e^{−α yᵢ}` (underload part).
    Psi,
    /// `Γ = Φ + Ψ`.
    Gamma,
}

/// An exponential potential with smoothing parameter `α > 0`.
///
/// ```
/// use balloc::loads::Loads;
/// use balloc::potential::{Exponential, Side, Potential};
/// let phi = Exponential::new(Side::Phi, 2.0).unwrap();
/// let x = Loads::new(vec![1.0, 0.0, 2.0]).unwrap(); // y = (0, −1, 1)
/// let v = phi.value(&x).to_f64_checked().unwrap();
/// assert!((v - (1.0 + (-2f64).exp() + 2f64.exp())).abs() < 1e-14);
/// ```
#[derive(Debug, Clone)]
pub struct Exponential {
    side: Side,
    alpha: f64,
    /// α exactly as written (the binary value of `alpha` when built from an `f64`).
    alpha_exact: crate::exact::Q,
}

const ALPHA: Param = Param {
    name: "alpha",
    default: None,
    doc: "smoothing parameter α > 0",
};

pub(super) static PHI: PotentialInfo = PotentialInfo {
    name: "phi",
    symbol: "Phi",
    aliases: &["Φ", "overload"],
    params: &[ALPHA],
    summary: "Φ = Σ_i exp(α y_i)",
    reference: "Peres–Talwar–Wieder (SODA 2010) §2; Los–Sauerwald, Balanced Allocations in Batches (SPAA 2022) §3",
    example: "phi(alpha=0.5)",
    build: |s| build(s, Side::Phi),
};

pub(super) static PSI: PotentialInfo = PotentialInfo {
    name: "psi",
    symbol: "Psi",
    aliases: &["Ψ", "underload"],
    params: &[ALPHA],
    summary: "Ψ = Σ_i exp(−α y_i)",
    reference: "Peres–Talwar–Wieder (SODA 2010) §2; Los–Sauerwald, Balanced Allocations in Batches (SPAA 2022) §3",
    example: "psi(alpha=0.5)",
    build: |s| build(s, Side::Psi),
};

pub(super) static GAMMA: PotentialInfo = PotentialInfo {
    name: "gamma",
    symbol: "Gamma",
    aliases: &["Γ", "cosh", "hyperbolic-cosine"],
    params: &[ALPHA],
    summary: "Γ = Φ + Ψ = Σ_i 2cosh(α y_i)",
    reference: "Peres–Talwar–Wieder (SODA 2010) §2; Los–Sauerwald, Balanced Allocations in Batches (SPAA 2022) §3",
    example: "gamma(alpha=0.5)",
    build: |s| build(s, Side::Gamma),
};

fn build(spec: &Spec, side: Side) -> Result<Box<dyn Potential>> {
    if spec.get("alpha").is_none() {
        return Err(Error::invalid(
            format!("parameter `alpha` of `{}`", spec.name),
            format!("is required, e.g. {}(alpha=0.5)", spec.name),
        ));
    }
    let (alpha, exact) = spec.get_ratio("alpha", "0")?;
    let mut e = Exponential::new(side, alpha)?;
    e.alpha_exact = exact;
    Ok(Box::new(e))
}

impl Exponential {
    /// An exponential potential; `alpha` must be finite and `> 0`.
    /// ```
    /// use balloc::potential::{Exponential, Side};
    /// assert_eq!(Exponential::new(Side::Gamma, 0.5).unwrap().alpha(), 0.5);
    /// assert!(Exponential::new(Side::Phi, 0.0).is_err());
    /// ```
    pub fn new(side: Side, alpha: f64) -> Result<Exponential> {
        if !(alpha > 0.0 && alpha.is_finite()) {
            return Err(Error::invalid(
                "alpha",
                format!("must be a finite number > 0, got {alpha}"),
            ));
        }
        Ok(Exponential {
            side,
            alpha,
            alpha_exact: crate::exact::from_float(alpha).unwrap_or_default(),
        })
    }

    /// α exactly (as written in the spec; the binary value of the `f64` otherwise).
    ///
    /// ```
    /// let p = balloc::potential::parse("phi(alpha=0.1)").unwrap();
    /// assert_eq!(p.per_bin(4).unwrap(), "exp((1/10)*y)");
    /// ```
    pub fn alpha_exact(&self) -> &crate::exact::Q {
        &self.alpha_exact
    }

    /// The smoothing parameter α.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    fn signs(&self) -> &'static [f64] {
        match self.side {
            Side::Phi => &[1.0],
            Side::Psi => &[-1.0],
            Side::Gamma => &[1.0, -1.0],
        }
    }

    /// `E[Σ e^{σα y'ᵢ}]` and its change for one sign `σ`.
    fn one_side(
        &self,
        sigma: f64,
        law: &StepLaw,
        y: &[f64],
        setting: &Setting,
    ) -> Result<Expected> {
        let n = y.len() as f64;
        let a = sigma * self.alpha * (1.0 - 1.0 / n); // exponent per unit weight at the destination
        let c = -sigma * self.alpha / n; // exponent per unit weight elsewhere
        let w = &setting.weights;
        let (lm_a, lm_c) = (w.ln_mgf(a)?, w.ln_mgf(c)?);
        let max_balls = law.outcomes.iter().map(|o| o.balls).max().unwrap_or(1) as f64;
        if max_balls * lm_a.abs().max(lm_c.abs()) > LOG_PATH_EXPONENT {
            return Ok(self.one_side_log(sigma, law, y, setting, lm_a, lm_c));
        }
        // E(lm, k) = M(s)^k − 1 = e^{k ln M(s)} − 1 without cancellation.
        // (The one-ball values are computed once: most outcomes have k = 1.)
        let em1 = |lm: f64, e1: f64, k: u32| if k == 1 { e1 } else { (k as f64 * lm).exp_m1() };
        let (ea1, ec1) = (lm_a.exp_m1(), lm_c.exp_m1());
        // D_i = F_i − 1 = Σ_o p_o E(c, k_o) + Σ_{o at i} p_o (E(a, k_o) − E(c, k_o)).
        let mut g = 0.0;
        let mut extra = vec![0.0; y.len()];
        for o in &law.outcomes {
            let ec = em1(lm_c, ec1, o.balls);
            g += o.prob * ec;
            extra[o.bin] += o.prob * (em1(lm_a, ea1, o.balls) - ec);
        }
        // One pass, no allocation: with uᵢ = σα yᵢ and Fᵢ = 1 + Dᵢ,
        // E[e^{σα y'ᵢ}] = e^{uᵢ} Fᵢᵇ and the change is e^{uᵢ}(Fᵢᵇ − 1). The common scale
        // m = max uᵢ + b ln(1 + max Dᵢ⁺) bounds every exponent, so nothing overflows.
        let b = setting.batch;
        let (ymin, ymax) = y
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
                (lo.min(v), hi.max(v))
            });
        let u_max = if sigma > 0.0 {
            sigma * self.alpha * ymax
        } else {
            sigma * self.alpha * ymin
        };
        let d_max = extra.iter().fold(f64::NEG_INFINITY, |m, &x| m.max(g + x));
        let m = u_max + b as f64 * d_max.max(0.0).ln_1p();
        let (mut next_sum, mut change_sum) = (CompensatedSum::default(), CompensatedSum::default());
        if b == 1 {
            // Fᵢ = 1 + Dᵢ: one exponential per bin.
            for (v, x) in y.iter().zip(&extra) {
                let d = g + x;
                let t = (sigma * self.alpha * v - m).exp();
                next_sum.add(t * (1.0 + d));
                change_sum.add(t * d);
            }
        } else {
            let bf = b as f64;
            for (v, x) in y.iter().zip(&extra) {
                let u = sigma * self.alpha * v - m;
                let l = bf * (g + x).ln_1p();
                let t = u.exp();
                if l.abs() < 1.0 {
                    let em = l.exp_m1();
                    next_sum.add(t + t * em);
                    change_sum.add(t * em);
                } else {
                    let tl = (u + l).exp();
                    next_sum.add(tl);
                    change_sum.add(tl - t);
                }
            }
        }
        let (next_mant, mant) = (next_sum.value(), change_sum.value());
        let next = XFloat::from_parts(next_mant, m);
        if next.is_nan() || mant.is_nan() {
            return Err(Error::invalid(
                "loads",
                "the expectation is not a number (check the loads and α)",
            ));
        }
        Ok(Expected {
            next,
            change: XFloat::from_parts(mant, m),
        })
    }
}

impl Exponential {
    /// The log-domain route of [`Exponential::one_side`] for outcomes with many balls (Packing at
    /// large loads), where `M(s)^k` overflows: `Fᵢ = Σ_{o at i} p_o M(a)^{k_o} + Σ_{o not at i}
    /// p_o M(c)^{k_o}` is summed as [`XFloat`] numbers (the exclusive sums from prefix and suffix
    /// sums, so nothing cancels), and `E[e^{σα y'ᵢ}] = e^{σα yᵢ + b ln Fᵢ}`. The change is
    /// `next − value`, accurate relative to the larger of the two.
    fn one_side_log(
        &self,
        sigma: f64,
        law: &StepLaw,
        y: &[f64],
        setting: &Setting,
        lm_a: f64,
        lm_c: f64,
    ) -> Expected {
        let n = y.len();
        let zero = XFloat::from_f64(0.0);
        let mut at_c = vec![zero; n];
        let mut at_a = vec![zero; n];
        for o in law.outcomes.iter().filter(|o| o.prob > 0.0) {
            let (lp, k) = (o.prob.ln(), o.balls as f64);
            at_c[o.bin] = at_c[o.bin].add(XFloat::exp_of(lp + k * lm_c));
            at_a[o.bin] = at_a[o.bin].add(XFloat::exp_of(lp + k * lm_a));
        }
        let mut suffix = vec![zero; n + 1];
        for i in (0..n).rev() {
            suffix[i] = suffix[i + 1].add(at_c[i]);
        }
        let b = setting.batch as f64;
        let mut prefix = zero;
        let mut exps = Vec::with_capacity(n);
        for i in 0..n {
            let f = prefix.add(suffix[i + 1]).add(at_a[i]);
            exps.push(sigma * self.alpha * y[i] + b * f.ln_abs());
            prefix = prefix.add(at_c[i]);
        }
        let next = XFloat::sum_exp(exps.iter().copied());
        let value = XFloat::sum_exp(y.iter().map(|v| sigma * self.alpha * v));
        Expected {
            next,
            change: next.add(value.scale(-1.0)),
        }
    }
}

impl Exponential {
    /// `Σ_g k_g e^{σα y_g}` with the largest exponent as scale.
    fn level_value(&self, sigma: f64, law: &LevelLaw) -> XFloat {
        let m = law
            .y
            .iter()
            .fold(f64::NEG_INFINITY, |m, &v| m.max(sigma * self.alpha * v));
        let mut mant = CompensatedSum::default();
        for (v, &k) in law.y.iter().zip(&law.counts) {
            mant.add(k as f64 * (sigma * self.alpha * v - m).exp());
        }
        XFloat::from_parts(mant.value(), m)
    }

    /// [`Exponential::one_side`] from the grouped law: one exponential per load level.
    ///
    /// Every bin of level `g` has `Fᵢ = 1 + g₀ + rᵢ Δ` with `g₀ = M(c) − 1`, `Δ = M(a) − M(c)` and
    /// `rᵢ` its probability, so for one ball the level contributes
    /// `e^{σα y_g}(k_g(1 + g₀) + P_g Δ)` whatever the split of `P_g` inside it; for a batch the
    /// split is uniform (`rᵢ = P_g/k_g`) and the level contributes `k_g e^{σα y_g} F_gᵇ`.
    /// `None` when `|ln M(s)|` needs the log-domain route.
    fn level_side(
        &self,
        sigma: f64,
        law: &LevelLaw,
        setting: &Setting,
    ) -> Result<Option<Expected>> {
        let n = law.n as f64;
        let a = sigma * self.alpha * (1.0 - 1.0 / n);
        let c = -sigma * self.alpha / n;
        let w = &setting.weights;
        let (lm_a, lm_c) = (w.ln_mgf(a)?, w.ln_mgf(c)?);
        if lm_a.abs().max(lm_c.abs()) > LOG_PATH_EXPONENT {
            return Ok(None);
        }
        let (ea1, ec1) = (lm_a.exp_m1(), lm_c.exp_m1());
        let delta = ea1 - ec1;
        // g₀ = Σ_o p_o (M(c) − 1), as in the per-bin route.
        let mut psum = CompensatedSum::default();
        for &p in &law.prob {
            psum.add(p);
        }
        let g0 = psum.value() * ec1;
        let b = setting.batch;
        // Dᵍ = g₀ + (P_g/k_g)Δ, the average of Fᵢ − 1 over the level; the scale m bounds every
        // exponent as in the per-bin route.
        let d_of = |p: f64, k: usize| g0 + p / k as f64 * delta;
        let u_max = law
            .y
            .iter()
            .fold(f64::NEG_INFINITY, |m, &v| m.max(sigma * self.alpha * v));
        let d_max = law
            .prob
            .iter()
            .zip(&law.counts)
            .fold(f64::NEG_INFINITY, |m, (&p, &k)| m.max(d_of(p, k)));
        let m = u_max + b as f64 * d_max.max(0.0).ln_1p();
        let (mut next_sum, mut change_sum) = (CompensatedSum::default(), CompensatedSum::default());
        if b == 1 {
            for ((v, &k), &p) in law.y.iter().zip(&law.counts).zip(&law.prob) {
                let t = (sigma * self.alpha * v - m).exp();
                let kf = k as f64;
                next_sum.add(t * (kf * (1.0 + g0) + p * delta));
                change_sum.add(t * (kf * g0 + p * delta));
            }
        } else {
            if !law.uniform_within {
                return Ok(None);
            }
            let bf = b as f64;
            for ((v, &k), &p) in law.y.iter().zip(&law.counts).zip(&law.prob) {
                let kf = k as f64;
                let u = sigma * self.alpha * v - m;
                let l = bf * d_of(p, k).ln_1p();
                let t = u.exp();
                if l.abs() < 1.0 {
                    let em = l.exp_m1();
                    next_sum.add(kf * (t + t * em));
                    change_sum.add(kf * (t * em));
                } else {
                    let tl = (u + l).exp();
                    next_sum.add(kf * tl);
                    change_sum.add(kf * (tl - t));
                }
            }
        }
        let (next_mant, mant) = (next_sum.value(), change_sum.value());
        if next_mant.is_nan() || mant.is_nan() {
            return Err(Error::invalid(
                "loads",
                "the expectation is not a number (check the loads and α)",
            ));
        }
        Ok(Some(Expected {
            next: XFloat::from_parts(next_mant, m),
            change: XFloat::from_parts(mant, m),
        }))
    }
}

/// Above this `|k ln M(s)|` (k balls in one outcome) the closed form switches to the log domain.
const LOG_PATH_EXPONENT: f64 = 30.0;

impl Potential for Exponential {
    fn info(&self) -> &'static PotentialInfo {
        match self.side {
            Side::Phi => &PHI,
            Side::Psi => &PSI,
            Side::Gamma => &GAMMA,
        }
    }

    fn spec(&self) -> String {
        format!("{}(alpha={})", self.info().name, self.alpha)
    }

    fn per_bin(&self, _n: usize) -> Option<String> {
        let a = &self.alpha_exact;
        Some(match self.side {
            Side::Phi => format!("exp(({a})*y)"),
            Side::Psi => format!("exp(-({a})*y)"),
            Side::Gamma => format!("exp(({a})*y) + exp(-({a})*y)"),
        })
    }

    fn per_bin_named(&self, _n: usize) -> Option<String> {
        Some(match self.side {
            Side::Phi => "exp(alpha*y)".into(),
            Side::Psi => "exp(-alpha*y)".into(),
            Side::Gamma => "exp(alpha*y) + exp(-alpha*y)".into(),
        })
    }

    fn enclosed_expected_at(
        &self,
        params: &[crate::enclosure::Interval],
        law: &crate::process::ExactStepLaw,
        x: &[crate::exact::Q],
        setting: &crate::setting::ExactSetting,
        prec: u64,
    ) -> Result<Option<crate::potential::enclosed::Enclosed>> {
        let [alpha] = params else {
            return Ok(None);
        };
        crate::potential::enclosed::exponential::enclose_at(law, self.side, alpha, x, setting, prec)
            .map(Some)
    }

    fn enclosed_expected(
        &self,
        law: &crate::process::ExactStepLaw,
        x: &[crate::exact::Q],
        setting: &crate::setting::ExactSetting,
        prec: u64,
    ) -> Result<Option<crate::potential::enclosed::Enclosed>> {
        let spec = crate::potential::enclosed::ExpSpec::new(self.side, self.alpha_exact.clone())?;
        crate::potential::enclosed::exponential::enclose(law, &spec, x, setting, prec).map(Some)
    }

    fn value(&self, loads: &Loads) -> XFloat {
        let y = loads.normalized();
        let (ymin, ymax) = y
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
                (lo.min(v), hi.max(v))
            });
        let mut total = XFloat::from_f64(0.0);
        for &s in self.signs() {
            // Σ e^{sα yᵢ} with the largest exponent as scale.
            let m = if s > 0.0 {
                self.alpha * ymax
            } else {
                -self.alpha * ymin
            };
            let mut mant = CompensatedSum::default();
            // Equal loads come in runs (level states, sorted vectors): the term of the previous
            // bin is reused for an equal argument (the same number, so the same sum).
            let mut last: Option<(f64, f64)> = None;
            for v in &y {
                let arg = s * self.alpha * v - m;
                let term = match last {
                    Some((a, t)) if a.to_bits() == arg.to_bits() => t,
                    _ => arg.exp(),
                };
                last = Some((arg, term));
                mant.add(term);
            }
            let mant = mant.value();
            total = total.add(XFloat::from_parts(mant, m));
        }
        total
    }

    fn term(&self, y: f64) -> Option<f64> {
        Some(
            self.signs()
                .iter()
                .map(|s| (s * self.alpha * y).exp())
                .sum(),
        )
    }

    fn shift_form(&self) -> Option<super::ShiftForm> {
        Some(super::ShiftForm {
            poly: Vec::new(),
            exps: self.signs().iter().map(|s| (1.0, s * self.alpha)).collect(),
        })
    }

    fn has_level_form(&self, _setting: &Setting) -> bool {
        true
    }

    /// ```
    /// use balloc::loads::{Loads, TieRule};
    /// use balloc::potential::Potential;
    /// use balloc::process::{self, LevelLaw};
    /// use balloc::setting::Setting;
    /// // Two-Choice at x = (1, 1, 0, 0), y = (½, ½, −½, −½), Φ with α = ln 2: the heavy level
    /// // (ranks 1–2) gets 1/16 + 3/16 = ¼ of the ball, the light level ¾. With n = 4, one ball
    /// // multiplies e^{αyᵢ} by 2^{3/4} at its bin and by 2^{−1/4} elsewhere:
    /// // E[Φ'] = 2^{−1/4}·Φ + (2^{3/4} − 2^{−1/4})·Σ rᵢ e^{αyᵢ} with rᵢ = ⅛ on the heavy bins and
    /// // ⅜ on the light ones: Σ rᵢ e^{αyᵢ} = 2·⅛·2^{½} + 2·⅜·2^{−½}.
    /// let a = 2f64.ln();
    /// let phi = balloc::potential::parse(&format!("phi(alpha={a})")).unwrap();
    /// let x = Loads::new(vec![1.0, 1.0, 0.0, 0.0]).unwrap();
    /// let p = process::parse("two-choice").unwrap();
    /// let law = LevelLaw::of_process(p.as_ref(), &x, TieRule::Random).unwrap().unwrap();
    /// let (value, e) = phi.level_expectation(&law, &Setting::sequential()).unwrap().unwrap();
    /// let v = 2.0 * 2f64.sqrt() + 2.0 / 2f64.sqrt();
    /// let hand = 2f64.powf(-0.25) * v
    ///     + (2f64.powf(0.75) - 2f64.powf(-0.25)) * (0.25 * 2f64.sqrt() + 0.75 / 2f64.sqrt());
    /// assert!((value.to_f64_checked().unwrap() - v).abs() < 1e-14);
    /// assert!((e.next.to_f64_checked().unwrap() - hand).abs() < 1e-14);
    /// ```
    fn level_expectation(
        &self,
        law: &LevelLaw,
        setting: &Setting,
    ) -> Result<Option<(XFloat, Expected)>> {
        let mut value = XFloat::from_f64(0.0);
        let mut total: Option<Expected> = None;
        for &s in self.signs() {
            let Some(e) = self.level_side(s, law, setting)? else {
                return Ok(None);
            };
            value = value.add(self.level_value(s, law));
            total = Some(match total {
                None => e,
                Some(t) => Expected {
                    next: t.next.add(e.next),
                    change: t.change.add(e.change),
                },
            });
        }
        Ok(total.map(|t| (value, t)))
    }

    fn expected_next(
        &self,
        law: &StepLaw,
        loads: &Loads,
        setting: &Setting,
    ) -> Result<Option<Expected>> {
        let y = loads.normalized();
        let mut total: Option<Expected> = None;
        for &s in self.signs() {
            let e = self.one_side(s, law, &y, setting)?;
            total = Some(match total {
                None => e,
                Some(t) => Expected {
                    next: t.next.add(e.next),
                    change: t.change.add(e.change),
                },
            });
        }
        Ok(total)
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    /// Runs of equal loads reuse the term of the previous bin: the value is still the sum of
    /// `e^{±α yᵢ}` over every bin, computed here term by term in plain `f64` (relative 10⁻¹⁴),
    /// for vectors with runs, without runs, and with one run only.
    fn runs_of_equal_loads_count_every_bin() {
        let vectors: [&[f64]; 4] = [
            &[3.0, 3.0, 3.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 5.0],
            &[0.5, 1.5, 0.5, 2.5, 0.5, 1.5],
            &[2.0; 7],
            &[4.0, 0.0, 4.0, 0.0, 4.0, 0.0, 0.0],
        ];
        for x in vectors {
            let mean = x.iter().sum::<f64>() / x.len() as f64;
            for (side, signs) in [
                (Side::Phi, &[1.0][..]),
                (Side::Psi, &[-1.0][..]),
                (Side::Gamma, &[1.0, -1.0][..]),
            ] {
                let alpha = 0.7;
                let p = Exponential::new(side, alpha).unwrap();
                let got = p
                    .value(&Loads::new(x.to_vec()).unwrap())
                    .to_f64_checked()
                    .unwrap();
                let want: f64 = signs
                    .iter()
                    .flat_map(|s| x.iter().map(move |v| (s * alpha * (v - mean)).exp()))
                    .sum();
                assert!(
                    (got - want).abs() <= 1e-14 * want,
                    "{x:?} {side:?}: {got} vs {want}"
                );
            }
        }
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[crate::unit::Test {
        name: "runs_of_equal_loads_count_every_bin",
        run: runs_of_equal_loads_count_every_bin,
        panics: None,
    }];
}
