//! Enclosures of the exponential potentials `Φ = Σ e^{α yᵢ}`, `Ψ = Σ e^{−α yᵢ}`, `Γ = Φ + Ψ` and
//! of their exact expectations after one step or one batch.
//!
//! Reference: Peres–Talwar–Wieder (SODA 2010) §2; Los–Sauerwald, *Balanced Allocations in
//! Batches* (SPAA 2022) §3 (A.Def.Gamma). Closed form (docs/derivations.md §4, derived; the same as
//! `crate::potential::Exponential`): for `σ = ±1`, a sample putting the weight `S` of its `k`
//! balls into bin `j` changes `yᵢ` by `S(1{i=j} − 1/n)`, so
//!
//! `E[e^{σα y'ᵢ}] = e^{σα yᵢ}·Fᵢ`, `Fᵢ = 1 + g + extraᵢ`,
//! `g = Σ_o p_o (M(c)^{k_o} − 1)`, `extraᵢ = Σ_{o at i} p_o (M(a)^{k_o} − M(c)^{k_o})`,
//!
//! with `a = σα(1 − 1/n)`, `c = −σα/n` and `M` the weight MGF; a batch of `b` samples on the
//! frozen vector gives `e^{σα yᵢ}·Fᵢᵇ`. Every quantity is evaluated as an [`Interval`] with
//! outward rounding; `α` and the loads are exact rationals.

use crate::enclosure::mgf::mgf;
use crate::enclosure::{ExpCache, Interval};
use crate::error::{Error, Result};
use crate::exact::{Q, from_f64, int, normalized};
use crate::potential::{Exponential, Side};
use crate::process::ExactStepLaw;
use crate::setting::ExactSetting;
use crate::spec::Spec;
use num_traits::{One, Signed, Zero};
use std::collections::BTreeMap;

/// An exponential potential with an exact smoothing parameter `α > 0`.
///
/// ```
/// use balloc::potential::enclosed::ExpSpec;
/// use balloc::potential::Side;
/// let g = ExpSpec::parse("gamma(alpha=0.1)").unwrap();
/// assert_eq!(g.side, Side::Gamma);
/// assert_eq!(g.alpha.to_string(), "1/10"); // exactly as written, not the f64 0.1
/// assert!(ExpSpec::parse("quadratic").is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ExpSpec {
    /// Φ, Ψ or Γ.
    pub side: Side,
    /// The smoothing parameter α (exact).
    pub alpha: Q,
}

impl ExpSpec {
    /// A validated spec (`α > 0`).
    pub fn new(side: Side, alpha: Q) -> Result<ExpSpec> {
        if !alpha.is_positive() {
            return Err(Error::invalid("alpha", format!("must be > 0, got {alpha}")));
        }
        Ok(ExpSpec { side, alpha })
    }

    /// Parses `phi(alpha=…)`, `psi(…)`, `gamma(…)` (and their aliases), reading α exactly as
    /// written (`0.1` is `1/10`).
    pub fn parse(text: &str) -> Result<ExpSpec> {
        let pot = crate::potential::parse(text)?;
        let side = match pot.info().name {
            "phi" => Side::Phi,
            "psi" => Side::Psi,
            "gamma" => Side::Gamma,
            other => {
                return Err(Error::Unsupported(format!(
                    "enclosures cover the exponential potentials phi, psi, gamma, not `{other}` (use the exact level)"
                )));
            }
        };
        let spec = Spec::parse(text)?.with_bare_as("alpha");
        ExpSpec::new(side, spec.get_ratio("alpha", "1")?.1)
    }

    /// The spec of a float potential, with `α` its `f64` value taken exactly.
    pub fn from_potential(p: &Exponential, side: Side) -> Result<ExpSpec> {
        ExpSpec::new(side, from_f64(p.alpha(), "alpha")?)
    }

    fn signs(&self) -> &'static [i64] {
        signs(self.side)
    }
}

/// The signs `σ` of the exponentials `e^{σαy}` of a side: Φ `+1`, Ψ `−1`, Γ both.
fn signs(side: Side) -> &'static [i64] {
    match side {
        Side::Phi => &[1],
        Side::Psi => &[-1],
        Side::Gamma => &[1, -1],
    }
}

/// Enclosures of a potential at a state and of its expectation after one step or batch.
#[derive(Debug, Clone, PartialEq)]
pub struct Enclosed {
    /// `P(x)`.
    pub value: Interval,
    /// `E[P(next) | x]`.
    pub expected_next: Interval,
    /// `E[P(next) − P(x) | x]`, enclosed directly (`Σ e^{σαyᵢ}(Fᵢᵇ − 1)`), so it is much tighter
    /// than `expected_next − value`.
    pub expected_change: Interval,
    /// The working precision in bits.
    pub prec: u64,
}

/// An enclosure of `P(x)` for an exponential potential at the (exact) loads `x`.
///
/// ```
/// use balloc::potential::enclosed::{exponential, ExpSpec};
/// use balloc::exact::int;
/// // x = (1, 0), y = (½, −½), α = 1: Γ = 2(e^{1/2} + e^{−1/2}) = 4 cosh(1/2) = 4.510522...
/// let g = exponential::value(&ExpSpec::parse("gamma(1)").unwrap(), &[int(1), int(0)], 64).unwrap();
/// assert!(g.contains_f64(4.0 * 0.5f64.cosh()) || (g.mid_f64() - 4.0 * 0.5f64.cosh()).abs() < 1e-15);
/// assert!(g.rel_width() < 1e-18);
/// ```
pub fn value(spec: &ExpSpec, x: &[Q], prec: u64) -> Result<Interval> {
    let y = normalized(x);
    let mut acc = Interval::from_rational(&Q::zero(), prec);
    for &s in spec.signs() {
        let sa = &spec.alpha * int(s);
        let exps = ExpCache::new(prec);
        for v in &y {
            acc = acc.add(&exps.exp(&(&sa * v))?, prec);
        }
    }
    Ok(acc)
}

/// Enclosures of `P(x)`, `E[P(next) | x]` and `E[P(next) − P(x) | x]` for one step
/// (`setting.batch = 1`) or one batch of `b` samples of `law`, with the weight law of `setting`
/// (unit, finite rational, exponential, geometric), at working precision `prec` bits.
///
/// ```
/// use balloc::potential::enclosed::{exponential, ExpSpec};
/// use balloc::exact::{int, Q};
/// use balloc::setting::ExactSetting;
/// use balloc::process::ExactStepLaw;
/// // Two-Choice, n = 2, x = (1, 0), α = 1 (worked case): the heavy bin (prob. 1/4) gives
/// // y' = (1, −1), Φ' = e + e⁻¹; the light bin (prob. 3/4) gives y' = 0, Φ' = 2.
/// // E[Φ'] = (e + e⁻¹)/4 + 3/2 = cosh(1)/2 + 3/2 = 2.2715403174076218892...
/// let law = ExactStepLaw::unit_checked(vec![Q::new(1.into(), 4.into()), Q::new(3.into(), 4.into())]).unwrap();
/// let e = exponential::enclose(&law, &ExpSpec::parse("phi(1)").unwrap(), &[int(1), int(0)],
///                              &ExactSetting::sequential(), 128).unwrap();
/// assert!(e.expected_next.lo_f64() <= 2.2715403174076219 && 2.2715403174076218 <= e.expected_next.hi_f64());
/// assert!(e.expected_next.rel_width() < 1e-36);
/// ```
pub fn enclose(
    law: &ExactStepLaw,
    spec: &ExpSpec,
    x: &[Q],
    setting: &ExactSetting,
    prec: u64,
) -> Result<Enclosed> {
    enclose_with(law, spec.side, &Rate::Exact(&spec.alpha), x, setting, prec)
}

/// [`enclose`] with `α` known only by an enclosure (an irrational parameter such as
/// `α = 1/ln n`): the same closed form, with `α·v` and the MGF arguments as intervals. `α`
/// must be certainly positive.
///
/// ```
/// use balloc::enclosure::Interval;
/// use balloc::potential::enclosed::{exponential, ExpSpec};
/// use balloc::exact::{int, Q};
/// use balloc::setting::ExactSetting;
/// use balloc::process::ExactStepLaw;
/// use balloc::potential::Side;
/// // The worked case of `enclose` (E[Φ'] = cosh(1)/2 + 3/2 at α = 1), with α as the
/// // enclosure of ln(e) = 1: the same value, within the width of the enclosure of α.
/// let law = ExactStepLaw::unit_checked(vec![Q::new(1.into(), 4.into()), Q::new(3.into(), 4.into())]).unwrap();
/// let alpha = Interval::exp_of(&int(1), 128).unwrap().ln(128).unwrap();
/// let e = exponential::enclose_at(&law, Side::Phi, &alpha, &[int(1), int(0)],
///                                 &ExactSetting::sequential(), 128).unwrap();
/// assert!(e.expected_next.lo_f64() <= 2.2715403174076219 && 2.2715403174076218 <= e.expected_next.hi_f64());
/// assert!(e.expected_next.rel_width() < 1e-30);
/// ```
pub fn enclose_at(
    law: &ExactStepLaw,
    side: Side,
    alpha: &Interval,
    x: &[Q],
    setting: &ExactSetting,
    prec: u64,
) -> Result<Enclosed> {
    if *alpha.lo() <= 0u32 {
        return Err(Error::invalid(
            "alpha",
            format!("must be > 0, got an enclosure {alpha}"),
        ));
    }
    enclose_with(law, side, &Rate::Enclosed(alpha), x, setting, prec)
}

/// The smoothing parameter of [`enclose_with`]: exact (products with the loads stay exact
/// until the exponential) or an enclosure.
enum Rate<'a> {
    Exact(&'a Q),
    Enclosed(&'a Interval),
}

impl Rate<'_> {
    /// `e^{σα·v}`.
    fn exp_times(&self, sigma: i64, v: &Q, exps: &ExpCache, prec: u64) -> Result<Interval> {
        match self {
            Rate::Exact(a) => exps.exp(&(*a * int(sigma) * v)),
            Rate::Enclosed(a) => a.mul_rational(&(int(sigma) * v), prec).exp(prec),
        }
    }

    /// `M(σα·q)` for the weight law of `setting`.
    fn mgf_times(&self, sigma: i64, q: &Q, setting: &ExactSetting, prec: u64) -> Result<Interval> {
        match self {
            Rate::Exact(a) => mgf(&setting.weights, &(*a * int(sigma) * q), prec),
            Rate::Enclosed(a) => crate::enclosure::mgf::mgf_at(
                &setting.weights,
                &a.mul_rational(&(int(sigma) * q), prec),
                prec,
            ),
        }
    }
}

fn enclose_with(
    law: &ExactStepLaw,
    side: Side,
    rate: &Rate<'_>,
    x: &[Q],
    setting: &ExactSetting,
    prec: u64,
) -> Result<Enclosed> {
    if law.n != x.len() {
        return Err(Error::invalid(
            "allocation vector",
            format!("has {} bins but there are {} loads", law.n, x.len()),
        ));
    }
    let y = normalized(x);
    let n = int(y.len() as i64);
    let zero = Interval::from_rational(&Q::zero(), prec);
    let one = Interval::from_rational(&Q::one(), prec);
    let (mut value, mut next, mut change) = (zero.clone(), zero.clone(), zero.clone());
    for &s in signs(side) {
        let (ma, mc) = (
            rate.mgf_times(s, &(Q::one() - Q::one() / &n), setting, prec)?,
            rate.mgf_times(s, &(-Q::one() / &n), setting, prec)?,
        );
        // M(·)^k − 1 for every ball count k that occurs.
        let mut powers: BTreeMap<u32, (Interval, Interval)> = BTreeMap::new();
        for o in &law.outcomes {
            powers.entry(o.balls).or_insert_with(|| {
                (
                    ma.pow_nonneg(o.balls as u64, prec).sub(&one, prec),
                    mc.pow_nonneg(o.balls as u64, prec).sub(&one, prec),
                )
            });
        }
        let mut g = zero.clone();
        let mut extra: Vec<Option<Interval>> = vec![None; y.len()];
        for o in law.outcomes.iter().filter(|o| !o.prob.is_zero()) {
            let (ea, ec) = &powers[&o.balls];
            g = g.add(&ec.mul_rational(&o.prob, prec), prec);
            let d = ea.sub(ec, prec).mul_rational(&o.prob, prec);
            extra[o.bin] = Some(match extra[o.bin].take() {
                None => d,
                Some(e) => e.add(&d, prec),
            });
        }
        let f0 = one.add(&g, prec);
        let exps = ExpCache::new(prec);
        for (v, ex) in y.iter().zip(&extra) {
            let f = match ex {
                None => f0.clone(),
                Some(e) => f0.add(e, prec),
            };
            let fb = f.pow_nonneg(setting.batch, prec);
            let e = rate.exp_times(s, v, &exps, prec)?;
            value = value.add(&e, prec);
            next = next.add(&e.mul(&fb, prec), prec);
            change = change.add(&e.mul(&fb.sub(&one, prec), prec), prec);
        }
    }
    if !(next.is_finite() && change.is_finite()) {
        return Err(Error::invalid(
            "loads",
            "the enclosure overflowed (values beyond e^(7.4e8))",
        ));
    }
    Ok(Enclosed {
        value,
        expected_next: next,
        expected_change: change,
        prec,
    })
}
