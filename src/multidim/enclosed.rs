//! The items of [`super::claims`] over exact sum loads with directed-rounding enclosures (trust
//! level `enclosure`; `docs/conventions.md` §3).
//!
//! A state is given by exact rational sum loads `s` (for the search states: integer sums
//! `L_i` minus their mean), the exact rank vector `p`, and exact constants (`ε`, `γ₁`, `a`, `c`
//! as rationals, `α = ε/(2f)`). The group potentials and their one-step expectations are
//! enclosed by [`crate::multidim::group_enclosure`]; hypotheses on the order of `s` (Lemmas 3.5/3.6) are
//! decided on the rationals, the hypothesis `Γ ≥ a ln n` of the contraction claim on enclosures
//! of `Γ` and `ln n`. [`EnclosedCheck::decide`] says whether the statement holds, fails or is
//! undecided at the working precision; [`certify`] raises the precision (64, 128, …, 4096 bits)
//! until it is decided.
//!
//! Statements `lhs ≤ rhs` are decided strictly (no tolerance): `lhs.hi ≤ rhs.lo` holds,
//! `lhs.lo > rhs.hi` fails. Identities (`Δ_i`, eq. (3.16) as an identity) are decided as
//! `|lhs − rhs| ≤ TOLERANCE·P(s)`, the float check's own reading of `=`.

use super::claims::{Eq316Form, LemmaForm, TOLERANCE};
use super::{PsiReading, Which};
use crate::enclosure::{ExpCache, Interval, Precisions};
use crate::error::{Error, Result};
use crate::exact::{Q, from_f64, int};
use crate::multidim::group_enclosure::{
    GroupSpec, change_at, expected_next_cached, groups, sorted_desc, value_cached,
};
use num_traits::{One, Zero};

/// Exact constants of the paper (D §3): `f`, `ε`, `γ₁`, with `α = ε/(2f)`.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactConstants {
    /// The fixed number of populated dimensions (the ball's weight on the chain).
    pub f: u32,
    /// ε.
    pub eps: Q,
    /// γ₁.
    pub gamma1: Q,
}

impl ExactConstants {
    /// `α = ε/(2f)`.
    pub fn alpha(&self) -> Q {
        &self.eps / int(2 * self.f as i64)
    }
}

/// How the two sides are compared.
#[derive(Debug, Clone, PartialEq)]
pub enum Relation {
    /// `lhs ≤ rhs`.
    Le,
    /// `|lhs − rhs| ≤ TOLERANCE·scale` (an identity read with the float check's tolerance).
    Within(Interval),
}

/// One item evaluated over enclosures at one state.
#[derive(Debug, Clone, PartialEq)]
pub struct EnclosedCheck {
    /// Whether the hypothesis holds: `Some(b)` decided, `None` undecided at this precision.
    pub applicable: Option<bool>,
    /// The left side.
    pub lhs: Interval,
    /// The right side.
    pub rhs: Interval,
    /// The comparison.
    pub relation: Relation,
    /// The working precision.
    pub prec: u64,
}

/// The outcome of [`EnclosedCheck::decide`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The statement holds at the state (or its hypothesis fails there).
    Holds,
    /// The hypothesis holds and the statement fails.
    Fails,
    /// The enclosures do not decide it at this precision.
    Undecided,
}

impl EnclosedCheck {
    /// Decides the statement from the enclosures.
    pub fn decide(&self) -> Outcome {
        match self.applicable {
            Some(false) => return Outcome::Holds,
            None => return Outcome::Undecided,
            Some(true) => {}
        }
        match &self.relation {
            Relation::Le => {
                if self.lhs.hi() <= self.rhs.lo() {
                    Outcome::Holds
                } else if self.lhs.lo() > self.rhs.hi() {
                    Outcome::Fails
                } else {
                    Outcome::Undecided
                }
            }
            Relation::Within(scale) => {
                let p = self.prec;
                let d = self.lhs.sub(&self.rhs, p);
                let tol = scale.mul_rational(&tolerance(), p);
                // |d| ≤ tol for every point: max(−d.lo, d.hi) ≤ tol.lo; |d| > tol for every
                // point: d.lo > tol.hi or −d.hi > tol.hi.
                let nd = d.neg();
                let dmax = if nd.hi() >= d.hi() {
                    nd.hi().clone()
                } else {
                    d.hi().clone()
                };
                let dmin_pos = if *d.lo() > 0u32 {
                    Some(d.lo().clone())
                } else if *d.hi() < 0u32 {
                    Some(nd.lo().clone())
                } else {
                    None
                };
                if dmax <= *tol.lo() {
                    Outcome::Holds
                } else if dmin_pos.is_some_and(|m| m > *tol.hi()) {
                    Outcome::Fails
                } else {
                    Outcome::Undecided
                }
            }
        }
    }

    /// A one-line description of both sides.
    pub fn describe(&self) -> String {
        let rel = match &self.relation {
            Relation::Le => "lhs ≤ rhs".to_string(),
            Relation::Within(s) => format!(
                "|lhs − rhs| ≤ {TOLERANCE:e}·P(s), P(s) ∈ [{:e}, {:e}]",
                s.lo_f64(),
                s.hi_f64()
            ),
        };
        let d = self.rhs.sub(&self.lhs, self.prec);
        format!(
            "enclosures at {} bits: lhs ∈ [{:e}, {:e}], rhs ∈ [{:e}, {:e}], rhs − lhs ∈ [{:e}, {:e}] ({rel}; outward rounding)",
            self.prec,
            self.lhs.lo_f64(),
            self.lhs.hi_f64(),
            self.rhs.lo_f64(),
            self.rhs.hi_f64(),
            d.lo_f64(),
            d.hi_f64()
        )
    }
}

/// [`TOLERANCE`] as the exact rational `10⁻¹⁰`.
fn tolerance() -> Q {
    Q::one() / Q::from_integer(num_traits::pow(crate::exact::Int::from(10), 10))
}

/// An item with its parameters (the exact counterpart of the items of [`super::claims`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// Eq. (3.16) in a form.
    Eq316(Eq316Form),
    /// Corollary 1.
    Corollary1,
    /// Corollary 2 with the constant `c` of the `O((αf)²/n)` term.
    Corollary2(Q),
    /// Lemma 3.5.
    Lemma35(LemmaForm),
    /// Lemma 3.6.
    Lemma36(LemmaForm),
    /// The contraction claim with threshold `a ln n`.
    Contraction(Q),
    /// `Δ_i` for Φ or Ψ at bin `i` (0-based index into `s`).
    DeltaI(Which, usize),
}

/// The exact sum loads of integer sums `L`: `s_i = L_i − mean(L)`.
///
/// ```
/// use balloc::multidim::enclosed::sum_loads;
/// let s = sum_loads(&[2, 0, 0]);
/// assert_eq!(s.iter().map(|v| v.to_string()).collect::<Vec<_>>(), vec!["4/3", "-2/3", "-2/3"]);
/// ```
pub fn sum_loads(l: &[i64]) -> Vec<Q> {
    let n = int(l.len() as i64);
    let mean = l.iter().map(|&v| int(v)).sum::<Q>() / n;
    l.iter().map(|&v| int(v) - &mean).collect()
}

/// Recovers the integer sums of a float state of the search (`s = L − mean L` in `f64`): `L_i =
/// round(s_i − min s)`; an error when a difference is not within `10⁻⁶` of an integer.
pub fn integer_sums(s: &[f64]) -> Result<Vec<i64>> {
    let min = s.iter().cloned().fold(f64::INFINITY, f64::min);
    s.iter()
        .map(|v| {
            let d = v - min;
            if !d.is_finite() || d > 9.0e15 || (d - d.round()).abs() > 1e-6 {
                Err(Error::Unsupported(format!(
                    "the state is not an integer sum-load vector (s − min s = {d})"
                )))
            } else {
                Ok(d.round() as i64)
            }
        })
        .collect()
}

/// `⌈nγ⌉` clamped to `1..=n` (exact; the position `nγ` of the text rounded up).
pub fn position(n: usize, gamma: &Q) -> usize {
    let v = (int(n as i64) * gamma).ceil().to_integer();
    let v: i64 = v.try_into().unwrap_or(i64::MAX);
    v.clamp(1, n as i64) as usize
}

fn spec(which: Which, alpha: &Q, reading: PsiReading) -> Result<GroupSpec> {
    GroupSpec::new(which, alpha.clone(), reading)
}

/// `W = Σ_G P_G e^{α s_G}/p₀(G)` (eq. (3.16) as corrected), enclosed.
fn group_weighted_phi(s: &[Q], p: &[Q], alpha: &Q, cache: &ExpCache) -> Result<Interval> {
    let prec = cache.prec();
    let mut acc = Interval::from_rational(&Q::zero(), prec);
    for (p0, size, v) in groups(s) {
        let mass: Q = p[p0 - 1..p0 - 1 + size].iter().sum();
        if mass.is_zero() {
            continue;
        }
        let w = mass / int(p0 as i64);
        acc = acc.add(&cache.exp(&(alpha * &v))?.mul_rational(&w, prec), prec);
    }
    Ok(acc)
}

/// Evaluates `item` at the exact state `s` (any order) with the exact rank vector `p` (rank 1
/// heaviest) at `prec` bits.
///
/// ```
/// use balloc::multidim::enclosed::{evaluate, ExactConstants, Item, Outcome, sum_loads};
/// use balloc::multidim::PsiReading;
/// use balloc::exact::int;
/// // Corollary 1 at s ≡ 0, n = 4, Two-Choice, f = 1, ε = 1/4 (α = 1/8):
/// // E[Φ'] = e^{3/32} + e^{−1/32}(H₄ − 1) = 2.1483… > (1 + 1/256)·25/12 = 2.0915… (hand values).
/// let c = ExactConstants { f: 1, eps: int(1) / int(4), gamma1: int(1) / int(4) };
/// let p: Vec<_> = [1, 3, 5, 7].iter().map(|&k| int(k) / int(16)).collect();
/// let e = evaluate(&Item::Corollary1, &sum_loads(&[0; 4]), &p, &c, PsiReading::Printed, 64).unwrap();
/// assert_eq!(e.decide(), Outcome::Fails);
/// let lhs = (3.0f64 / 32.0).exp() + (-1.0f64 / 32.0).exp() * (25.0 / 12.0 - 1.0);
/// assert!((e.lhs.mid_f64() - lhs).abs() < 1e-14);
/// ```
pub fn evaluate(
    item: &Item,
    s: &[Q],
    p: &[Q],
    c: &ExactConstants,
    reading: PsiReading,
    prec: u64,
) -> Result<EnclosedCheck> {
    if s.len() != p.len() || s.is_empty() {
        return Err(Error::invalid(
            "allocation vector",
            format!("has {} entries but there are {} bins", p.len(), s.len()),
        ));
    }
    let cache = ExpCache::new(prec);
    let alpha = c.alpha();
    let n = int(s.len() as i64);
    let af = &alpha * int(c.f as i64);
    let one = Q::one();
    let v = sorted_desc(s);
    let done = |applicable: Option<bool>, lhs: Interval, rhs: Interval, relation: Relation| {
        Ok(EnclosedCheck {
            applicable,
            lhs,
            rhs,
            relation,
            prec,
        })
    };
    let ptw = |form: LemmaForm, value: &Interval| -> Interval {
        match form {
            LemmaForm::Decrease => value.clone(),
            LemmaForm::PtwShape => value
                .mul_rational(&(&one - &alpha * &c.eps / &n), prec)
                .add_rational(&one, prec),
        }
    };
    match item {
        Item::Eq316(form) => {
            let (lhs, rhs, relation) = eq316_sides(form, s, p, c, prec, &cache)?;
            done(Some(true), lhs, rhs, relation)
        }
        Item::Corollary1 => {
            let phi = spec(Which::Phi, &alpha, PsiReading::Printed)?;
            let lhs = expected_next_cached(&phi, s, p, c.f, &cache)?;
            let rhs = value_cached(&phi, s, &cache)?.mul_rational(&(&one + &af * &af / &n), prec);
            done(Some(true), lhs, rhs, Relation::Le)
        }
        Item::Corollary2(cc) => {
            let psi = spec(Which::Psi, &alpha, reading)?;
            let lhs = expected_next_cached(&psi, s, p, c.f, &cache)?;
            let k = &one + &af / &n + cc * &af * &af / &n;
            let rhs = value_cached(&psi, s, &cache)?.mul_rational(&k, prec);
            done(Some(true), lhs, rhs, Relation::Le)
        }
        Item::Lemma35(form) => {
            let phi = spec(Which::Phi, &alpha, PsiReading::Printed)?;
            let applicable = v[position(s.len(), &(&one - &c.gamma1)) - 1] <= Q::zero();
            let lhs = expected_next_cached(&phi, s, p, c.f, &cache)?;
            let rhs = ptw(*form, &value_cached(&phi, s, &cache)?);
            done(Some(applicable), lhs, rhs, Relation::Le)
        }
        Item::Lemma36(form) => {
            let psi = spec(Which::Psi, &alpha, reading)?;
            let applicable = v[position(s.len(), &c.gamma1) - 1] >= Q::zero();
            let lhs = expected_next_cached(&psi, s, p, c.f, &cache)?;
            let rhs = ptw(*form, &value_cached(&psi, s, &cache)?);
            done(Some(applicable), lhs, rhs, Relation::Le)
        }
        Item::Contraction(a) => {
            let gamma = spec(Which::Gamma, &alpha, reading)?;
            let value = value_cached(&gamma, s, &cache)?;
            let threshold = Interval::ln_of(&n, prec)?.mul_rational(a, prec);
            let applicable = if value.lo() >= threshold.hi() {
                Some(true)
            } else if value.hi() < threshold.lo() {
                Some(false)
            } else {
                None
            };
            let lhs = expected_next_cached(&gamma, s, p, c.f, &cache)?;
            let k = &one - &c.eps / (int(8) * &n * (&one + &c.eps * &c.gamma1));
            let rhs = value.mul_rational(&k, prec);
            done(applicable, lhs, rhs, Relation::Le)
        }
        Item::DeltaI(which, i) => {
            let (lhs, rhs, relation) = delta_i_sides(*which, *i, s, c, reading, prec, &cache)?;
            done(Some(true), lhs, rhs, relation)
        }
    }
}

/// The sides of eq. (3.16), `E[Φ'] − Φ` against its bound, in form `form` (as printed, the
/// group identity, or corrected to second order), at the state `s` with rank vector `p`.
fn eq316_sides(
    form: &Eq316Form,
    s: &[Q],
    p: &[Q],
    c: &ExactConstants,
    prec: u64,
    cache: &ExpCache,
) -> Result<(Interval, Interval, Relation)> {
    let alpha = c.alpha();
    let n = int(s.len() as i64);
    let af = &alpha * int(c.f as i64);
    let one = Q::one();
    let v = sorted_desc(s);
    let phi = spec(Which::Phi, &alpha, PsiReading::Printed)?;
    let value = value_cached(&phi, s, cache)?;
    let next = expected_next_cached(&phi, s, p, c.f, cache)?;
    let lhs = next.sub(&value, prec);
    match form {
        Eq316Form::Printed => {
            let mut w = Interval::from_rational(&Q::zero(), prec);
            for (i, x) in v.iter().enumerate() {
                let coef = &p[i] / int(i as i64 + 1);
                w = w.add(&cache.exp(&(&alpha * x))?.mul_rational(&coef, prec), prec);
            }
            let rhs = w
                .mul_rational(&(&af + &af * &af), prec)
                .sub(&value.mul_rational(&(&af / &n), prec), prec);
            Ok((lhs, rhs, Relation::Le))
        }
        Eq316Form::Identity => {
            let w = group_weighted_phi(s, p, &alpha, cache)?;
            let shrink = cache.exp(&(-&af / &n))?;
            let grow = cache.exp(&af)?.add_rational(&-one.clone(), prec);
            let rhs = w.mul(&shrink.mul(&grow, prec), prec).sub(
                &value.mul(&shrink.neg().add_rational(&one, prec), prec),
                prec,
            );
            Ok((lhs, rhs, Relation::Within(value)))
        }
        Eq316Form::Corrected => {
            let w = group_weighted_phi(s, p, &alpha, cache)?;
            let x = &af / &n;
            let rhs = w
                .mul_rational(&(&af + &af * &af), prec)
                .sub(&value.mul_rational(&(&x - &x * &x / int(2)), prec), prec);
            Ok((lhs, rhs, Relation::Le))
        }
    }
}

/// The sides of the one-bin change `Δ_i` of Φ or Ψ (`which`): the exact change when bin `i`
/// receives the balls against its closed form, within the potential's value.
fn delta_i_sides(
    which: Which,
    i: usize,
    s: &[Q],
    c: &ExactConstants,
    reading: PsiReading,
    prec: u64,
    cache: &ExpCache,
) -> Result<(Interval, Interval, Relation)> {
    let alpha = c.alpha();
    let n = int(s.len() as i64);
    let one = Q::one();
    let pot = spec(which, &alpha, reading)?;
    if which == Which::Gamma {
        return Err(Error::invalid(
            "which",
            "Δ_i is stated for Φ and Ψ separately",
        ));
    }
    let lhs = change_at(&pot, s, c.f, i, cache)?;
    let value = value_cached(&pot, s, cache)?;
    let fq = int(c.f as i64);
    let p0 = groups(s)
        .into_iter()
        .find(|g| g.2 == s[i])
        .map(|g| g.0)
        .expect("bin i lies in a group");
    let (sign, w) = match (which, reading) {
        (Which::Phi, _) => (int(1), p0),
        (_, PsiReading::Printed) => (int(-1), p0),
        (_, PsiReading::Mirrored) => (int(-1), s.len() - p0 + 1),
    };
    // Φ: e^{α(s_i − f/n)}(e^{αf} − 1)/p₀ + (e^{−αf/n} − 1)Φ; Ψ: α → −α, weight 1/w.
    let head = cache
        .exp(&(&sign * &alpha * (&s[i] - &fq / &n)))?
        .mul(
            &cache
                .exp(&(&sign * &alpha * &fq))?
                .add_rational(&-one.clone(), prec),
            prec,
        )
        .mul_rational(&(&one / int(w as i64)), prec);
    let tail = value.mul(
        &cache
            .exp(&(-&sign * &alpha * &fq / &n))?
            .add_rational(&-one.clone(), prec),
        prec,
    );
    Ok((lhs, head.add(&tail, prec), Relation::Within(value)))
}

/// The result of [`certify`].
#[derive(Debug, Clone, PartialEq)]
pub struct Certified {
    /// `Holds`, `Fails`, or `Undecided` at the largest precision.
    pub outcome: Outcome,
    /// The evaluation at the precision that decided it (or the last one tried).
    pub check: EnclosedCheck,
}

/// Evaluates `item` at 64, 128, …, 4096 bits until [`EnclosedCheck::decide`] decides it.
pub fn certify(
    item: &Item,
    s: &[Q],
    p: &[Q],
    c: &ExactConstants,
    reading: PsiReading,
) -> Result<Certified> {
    let mut last = None;
    for prec in Precisions::default().steps() {
        let check = evaluate(item, s, p, c, reading, prec)?;
        let outcome = check.decide();
        let done = outcome != Outcome::Undecided;
        last = Some(Certified { outcome, check });
        if done {
            break;
        }
    }
    last.ok_or_else(|| Error::invalid("precisions", "the schedule is empty"))
}

/// An exact rational from a constant given as `f64` in a file (exact binary value).
pub fn exact_constant(v: f64, what: &str) -> Result<Q> {
    from_f64(v, what)
}
