//! Every checkable item of Narang–Dutta–Bhattacherjee (arXiv:1111.0762, §3) as a function that
//! evaluates the statement at given inputs, so that a claim engine (or a test) can call it.
//!
//! The states are sum-load vectors `s` of the sum-load chain (D.Def.chain, `docs/derivations.md` §9): any order, sorted
//! internally, `Σ s_i = 0` for states of the chain. `p` is the allocation vector by rank (rank 1
//! heaviest), e.g. Two-Choice `p_i = (2i − 1)/n²`, the paper's case `d = 2`. `f` is the fixed number of
//! populated dimensions ("fixed-f case"), `α = ε/(2f)`.
//!
//! Provenance tags (`docs/conventions.md` §6): the statement of `Γ(0)`, the mass facts and the contraction are
//! \[read\]; the formula of `Δ_i`, eq. (3.16), the corollaries and Lemmas 3.5/3.6 are
//! \[reconstructed\] from the prose around missing displays; the "PTW shape" of Lemmas 3.5/3.6 is
//! \[recalled\] from Peres–Talwar–Wieder. See `src/multidim/CHECKS.md` for the verdicts.
//!
//! Numerics: expectations of exponential potentials are computed exactly up to `f64` rounding in
//! the log domain ([`XFloat`]); a statement `lhs ≤ rhs` counts as violated when the relative margin
//! `(rhs − lhs)/max(|lhs|, |rhs|)` is below `−TOLERANCE` (trust level: float). Rational items
//! (`Γ(0)`, the mass facts) are exact.

use super::expectation::expect_s_chain;
use super::potential::{GroupPotential, PsiReading, Which, check_s, groups, sorted_desc};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use crate::loads::TieRule;
use crate::xfloat::XFloat;
use num_traits::{One, ToPrimitive, Zero};

/// Relative tolerance below which a float margin counts as a violation.
pub const TOLERANCE: f64 = 1e-10;

/// The paper's constants (D §3; D.Const in `docs/derivations.md` §9): `0 < ε ≤ 1/4`, `0 < γ₁ < 1/2`, `γ₂ = 1 − γ₁`,
/// `θ = 1/γ₁`, fixed `f ≥ 1`, `α = ε/(2f)`.
///
/// ```
/// use balloc::multidim::claims::Constants;
/// let c = Constants::new(0.25, 0.25, 2).unwrap();
/// assert_eq!(c.alpha(), 0.0625);
/// assert_eq!(c.gamma2(), 0.75);
/// assert!(Constants::new(0.3, 0.25, 1).is_err()); // ε ≤ 1/4
/// ```
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Constants {
    /// ε, with `0 < ε ≤ 1/4`.
    pub eps: f64,
    /// γ₁, with `0 < γ₁ < 1/2`.
    pub gamma1: f64,
    /// The fixed number of populated dimensions.
    pub f: u32,
}

impl Constants {
    /// Validated constants.
    pub fn new(eps: f64, gamma1: f64, f: u32) -> Result<Constants> {
        if !(eps > 0.0 && eps <= 0.25) {
            return Err(Error::invalid(
                "eps",
                format!("must lie in (0, 1/4], got {eps}"),
            ));
        }
        if !(gamma1 > 0.0 && gamma1 < 0.5) {
            return Err(Error::invalid(
                "gamma1",
                format!("must lie in (0, 1/2), got {gamma1}"),
            ));
        }
        if f == 0 {
            return Err(Error::invalid("f", "must be at least 1"));
        }
        Ok(Constants { eps, gamma1, f })
    }

    /// `α = ε/(2f)`.
    pub fn alpha(&self) -> f64 {
        self.eps / (2.0 * self.f as f64)
    }

    /// `γ₂ = 1 − γ₁`.
    pub fn gamma2(&self) -> f64 {
        1.0 - self.gamma1
    }
}

/// The outcome of evaluating `lhs ≤ rhs` at one input.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Check {
    /// Whether the hypothesis of the statement holds at this input (vacuous otherwise).
    pub applicable: bool,
    /// The left side.
    pub lhs: XFloat,
    /// The right side.
    pub rhs: XFloat,
    /// `(rhs − lhs)/max(|lhs|, |rhs|)` (0 when both vanish).
    pub margin: f64,
    /// `!applicable || margin ≥ −TOLERANCE`.
    pub holds: bool,
}

impl Check {
    /// Compares `lhs ≤ rhs`.
    pub fn le(lhs: XFloat, rhs: XFloat, applicable: bool) -> Check {
        let d = rhs.add(lhs.scale(-1.0));
        let den = lhs.ln_abs().max(rhs.ln_abs());
        let margin = if d.is_zero() || den == f64::NEG_INFINITY {
            0.0
        } else {
            d.signum() * (d.ln_abs() - den).exp()
        };
        Check {
            applicable,
            lhs,
            rhs,
            margin,
            holds: !applicable || margin >= -TOLERANCE,
        }
    }
}

fn s_f(v: f64) -> XFloat {
    XFloat::from_f64(v)
}

fn check_p(s: &[f64], p: &[f64]) -> Result<()> {
    check_s(s)?;
    if p.len() != s.len() {
        return Err(Error::invalid(
            "allocation vector",
            format!("has {} entries but there are {} bins", p.len(), s.len()),
        ));
    }
    Ok(())
}

/// `E[P(s') | s]` for a group potential after one ball of weight `f`, allocation vector `p`.
pub fn expected_next(s: &[f64], p: &[f64], f: u32, pot: GroupPotential) -> Result<XFloat> {
    check_p(s, p)?;
    expect_s_chain(s, p, TieRule::Random, &[(f as f64, 1.0)], |v| pot.value(v))
}

/// The 1-based position `⌈nγ⌉` clamped to `1..=n` (the index `nγ` of the text, rounded up).
pub fn position(n: usize, gamma: f64) -> usize {
    ((n as f64 * gamma - 1e-9).ceil() as usize).clamp(1, n)
}

// ---------------------------------------------------------------------------------------------
// D.Claim.Γ(0)

/// `Γ` at time 0 against the printed value `2 ln n`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GammaAtZero {
    /// The number of bins.
    pub n: usize,
    /// `Γ(0) = 2 H_n = 2 Σ_{i≤n} 1/i` exactly (both readings of `Ψ`), as a fraction.
    pub exact: String,
    /// The same as `f64`.
    pub value: f64,
    /// The printed value `2 ln n`.
    pub claimed: f64,
    /// `value / claimed` (→ 1 as n → ∞).
    pub ratio: f64,
    /// Whether `Γ(0) = 2 ln n` (up to [`TOLERANCE`]).
    pub holds: bool,
}

/// D.Claim.Γ(0) \[read\]: "s_i = 0 ∀i and hence Γ(0) = 2 ln(n)". At `s ≡ 0` every weight counts
/// once in `Φ` and once in `Ψ`, so `Γ(0) = 2H_n` exactly, under both readings of `Ψ`.
///
/// ```
/// let g = balloc::multidim::claims::gamma_at_zero(4).unwrap();
/// assert_eq!(g.exact, "25/6"); // 2(1 + 1/2 + 1/3 + 1/4)
/// assert!(!g.holds);           // 2 ln 4 = 2.77…
/// ```
pub fn gamma_at_zero(n: usize) -> Result<GammaAtZero> {
    if n == 0 || n > 20_000 {
        return Err(Error::invalid(
            "n",
            format!("must lie in 1..=20000 (exact harmonic numbers), got {n}"),
        ));
    }
    let mut h = Q::zero();
    for i in 1..=n {
        h += Q::new(Int::one(), Int::from(i));
    }
    let exact = h * Q::from_integer(Int::from(2));
    let value = exact.to_f64().unwrap_or(f64::NAN);
    let claimed = 2.0 * (n as f64).ln();
    Ok(GammaAtZero {
        n,
        exact: exact.to_string(),
        value,
        claimed,
        ratio: value / claimed,
        holds: (value - claimed).abs() <= TOLERANCE * value.abs().max(claimed.abs()),
    })
}

// ---------------------------------------------------------------------------------------------
// D.Fact.mass

/// The two mass facts at one `n`, exactly.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MassFacts {
    /// `k₁ = ⌊nγ₁⌋`.
    pub k1: usize,
    /// `Σ_{i≤nγ₁} p_i`.
    pub prefix: String,
    /// `γ₁²`.
    pub prefix_bound: String,
    /// `Σ_{i≤nγ₁} p_i ≤ γ₁²`.
    pub prefix_holds: bool,
    /// `k₂ = ⌈nγ₂⌉`.
    pub k2: usize,
    /// `Σ_{i≥nγ₂} p_i`.
    pub suffix: String,
    /// `1 − γ₂²`.
    pub suffix_bound: String,
    /// `Σ_{i≥nγ₂} p_i ≥ 1 − γ₂²`.
    pub suffix_holds: bool,
}

/// D.Fact.mass \[read\]: "Σ_{i≥nγ₂} p_i ≥ 1 − γ₂² and Σ_{i≤nγ₁} p_i ≤ γ₁²" for `d = 2`, with
/// `γ₂ = 1 − γ₁`, evaluated exactly for an exact allocation vector `p` (rank 1 heaviest).
///
/// ```
/// use balloc::multidim::claims::mass_facts;
/// use balloc::process;
/// use balloc::spec::parse_ratio;
/// let p = process::parse("two-choice").unwrap().rank_probabilities_exact(8).unwrap().unwrap();
/// let m = mass_facts(&p, &parse_ratio("1/4").unwrap()).unwrap();
/// // k₁ = 2: (2/8)² = 1/16 ≤ 1/16; k₂ = 6: 1 − (5/8)² = 39/64 ≥ 1 − 9/16 = 7/16.
/// assert_eq!((m.prefix.as_str(), m.suffix.as_str()), ("1/16", "39/64"));
/// assert!(m.prefix_holds && m.suffix_holds);
/// ```
pub fn mass_facts(p: &[Q], gamma1: &Q) -> Result<MassFacts> {
    let zero = Q::zero();
    let one = Q::one();
    let half = Q::new(Int::one(), Int::from(2));
    if !(*gamma1 > zero && *gamma1 < half) {
        return Err(Error::invalid(
            "gamma1",
            format!("must lie in (0, 1/2), got {gamma1}"),
        ));
    }
    let n = p.len();
    if n == 0 {
        return Err(Error::invalid("allocation vector", "is empty"));
    }
    let nn = Q::from_integer(Int::from(n));
    let gamma2 = &one - gamma1;
    let k1 = (&nn * gamma1).floor().to_integer().to_usize().unwrap_or(0);
    let k2 = (&nn * &gamma2)
        .ceil()
        .to_integer()
        .to_usize()
        .unwrap_or(n)
        .max(1);
    let prefix: Q = p[..k1].iter().sum();
    let suffix: Q = p[(k2 - 1).min(n)..].iter().sum();
    let b1 = gamma1 * gamma1;
    let b2 = &one - &gamma2 * &gamma2;
    Ok(MassFacts {
        k1,
        prefix_holds: prefix <= b1,
        prefix: prefix.to_string(),
        prefix_bound: b1.to_string(),
        k2,
        suffix_holds: suffix >= b2,
        suffix: suffix.to_string(),
        suffix_bound: b2.to_string(),
    })
}

// ---------------------------------------------------------------------------------------------
// D.L.Δ_i

/// The one-step change of a group potential when bin `i` gets the ball: exact and as
/// reconstructed.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct DeltaI {
    /// `P(sort(s − (f/n)𝟙 + f e_i)) − P(s)`, by re-sorting and re-evaluating.
    pub exact: XFloat,
    /// The reconstructed formula (see [`delta_i`]).
    pub formula: XFloat,
    /// Whether they agree: `|exact − formula| ≤ TOLERANCE·P(s)`.
    pub holds: bool,
}

/// D.L.Δ_i \[reconstructed\]: "when an md-ball is committed to bin i, then it moves to the end of the
/// previous equi-load group or it creates a new equi-load group and hence can be located at index
/// p₀". With `p₀(i)` the first position of the group of bin `i`:
/// * `Φ`: `Δ_i = e^{α s_i} e^{−αf/n} (e^{αf} − 1)/p₀(i) + (e^{−αf/n} − 1)·Φ`;
/// * `Ψ`: `Δ_i = e^{−α s_i} e^{αf/n} (e^{−αf} − 1)/w + (e^{αf/n} − 1)·Ψ`, `w = p₀(i)` (printed) or
///   `n − p₀(i) + 1` (mirrored).
///
/// `i` is a 0-based index into `s` (any order). `which` must be `Phi` or `Psi`.
///
/// ```
/// use balloc::multidim::claims::delta_i;
/// use balloc::multidim::{GroupPotential, PsiReading, Which};
/// let phi = GroupPotential::new(Which::Phi, 0.125, PsiReading::Printed).unwrap();
/// // s = (1, 0, −1), f = 1: bin 1 (s = 0) rises to 2/3 < 1, no overtaking: the formula is exact.
/// assert!(delta_i(&[1.0, 0.0, -1.0], 1, 1, phi).unwrap().holds);
/// ```
pub fn delta_i(s: &[f64], f: u32, i: usize, pot: GroupPotential) -> Result<DeltaI> {
    check_s(s)?;
    if i >= s.len() {
        return Err(Error::invalid(
            "i",
            format!("bin {i} out of range 0..{}", s.len()),
        ));
    }
    if pot.which == Which::Gamma {
        return Err(Error::invalid(
            "which",
            "Δ_i is stated for Φ and Ψ separately",
        ));
    }
    let n = s.len();
    let (fl, nf, a) = (f as f64, n as f64, pot.alpha);
    let mut next: Vec<f64> = s.iter().map(|v| v - fl / nf).collect();
    next[i] += fl;
    let before = pot.value(s);
    let exact = pot.value(&next).add(before.scale(-1.0));
    let p0 = groups(s)
        .into_iter()
        .find(|g| g.s == s[i])
        .map(|g| g.p0)
        .expect("bin i lies in a group");
    let formula = match pot.which {
        Which::Phi => XFloat::exp_of(a * s[i] - a * fl / nf)
            .scale((a * fl).exp_m1() / p0 as f64)
            .add(before.scale((-a * fl / nf).exp_m1())),
        _ => {
            let w = match pot.reading {
                PsiReading::Printed => p0,
                PsiReading::Mirrored => n - p0 + 1,
            };
            XFloat::exp_of(-a * s[i] + a * fl / nf)
                .scale((-a * fl).exp_m1() / w as f64)
                .add(before.scale((a * fl / nf).exp_m1()))
        }
    };
    // Both sides are differences of numbers of the size of P(s): compare relative to P(s).
    let diff = exact.add(formula.scale(-1.0));
    Ok(DeltaI {
        exact,
        formula,
        holds: diff.ln_abs() <= before.ln_abs() + TOLERANCE.ln(),
    })
}

// ---------------------------------------------------------------------------------------------
// Eq. (3.16), Corollaries

/// Eq. (3.16) \[reconstructed\]: `E[ΔΦ] ≲ Σ_i p_i (αf + (αf)²) e^{α s_(i)}/i − (αf/n)·Φ`, read as
/// an inequality `E[Φ(t+1)] − Φ(t) ≤ RHS` (the text drops `(αf)²/n` terms and uses `≲`).
pub fn eq_3_16(s: &[f64], p: &[f64], f: u32, alpha: f64) -> Result<Check> {
    let pot = GroupPotential::new(Which::Phi, alpha, PsiReading::Printed)?;
    let phi = pot.value(s);
    let lhs = expected_next(s, p, f, pot)?.add(phi.scale(-1.0));
    let af = alpha * f as f64;
    let v = sorted_desc(s);
    let weighted = XFloat::sum_exp(
        v.iter()
            .enumerate()
            .filter(|(i, _)| p[*i] > 0.0)
            .map(|(i, &x)| alpha * x - ((i + 1) as f64).ln() + p[i].ln()),
    );
    let rhs = weighted
        .scale(af + af * af)
        .add(phi.scale(-af / s.len() as f64));
    Ok(Check::le(lhs, rhs, true))
}

/// Which statement of eq. (3.16) is evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Eq316Form {
    /// As reconstructed from the text ([`eq_3_16`]): weights `1/i`, `≲` read as `≤`.
    Printed,
    /// The exact identity on the fixed-`f` chain [derived here]:
    /// `E[ΔΦ] = e^{−αf/n}(e^{αf} − 1)·W − (1 − e^{−αf/n})·Φ`, with
    /// `W = Σ_G P_G e^{α s_G}/p₀(G)` over the equi-load groups `G` (first position `p₀(G)`,
    /// `P_G = Σ_{i∈G} p_i`). It follows from `Δ_i` (which is exact when no bin overtakes the
    /// previous group, as on the fixed-`f` chain) averaged over the bin with tie-averaged
    /// probabilities. Checked as `|lhs − rhs| ≤ TOLERANCE·Φ`.
    Identity,
    /// The corrected inequality [derived here]: for `αf ≤ 1`,
    /// `E[ΔΦ] ≤ (αf + (αf)²)·W − (αf/n)(1 − αf/(2n))·Φ`, from the identity with
    /// `e^{−αf/n} ≤ 1`, `e^{x} − 1 ≤ x + x²` (`0 ≤ x ≤ 1`) and `1 − e^{−x} ≥ x − x²/2`.
    /// It differs from the printed form by `1/p₀(G)` for `1/i` and the `(αf/n)²/2` term.
    Corrected,
}

/// `ln W` for `W = Σ_G P_G e^{α s_G}/p₀(G)` (see [`Eq316Form::Identity`]), `p` by rank.
fn group_weighted_phi(v: &[f64], p: &[f64], alpha: f64) -> XFloat {
    let mut terms = Vec::new();
    for g in groups(v) {
        let mass: f64 = p[g.p0 - 1..g.p0 - 1 + g.size].iter().sum();
        if mass > 0.0 {
            terms.push(alpha * g.s + mass.ln() - (g.p0 as f64).ln());
        }
    }
    XFloat::sum_exp(terms)
}

/// Eq. (3.16) in the form `form` (see [`Eq316Form`]); [`Eq316Form::Printed`] is [`eq_3_16`].
///
/// ```
/// use balloc::multidim::claims::{eq_3_16_form, Eq316Form};
/// // s ≡ 0, n = 4, Two-Choice, f = 1, α = 1/8: the printed form fails, the identity and the
/// // corrected bound hold.
/// let p = [1.0 / 16.0, 3.0 / 16.0, 5.0 / 16.0, 7.0 / 16.0];
/// assert!(!eq_3_16_form(&[0.0; 4], &p, 1, 0.125, Eq316Form::Printed).unwrap().holds);
/// assert!(eq_3_16_form(&[0.0; 4], &p, 1, 0.125, Eq316Form::Identity).unwrap().holds);
/// assert!(eq_3_16_form(&[0.0; 4], &p, 1, 0.125, Eq316Form::Corrected).unwrap().holds);
/// ```
pub fn eq_3_16_form(s: &[f64], p: &[f64], f: u32, alpha: f64, form: Eq316Form) -> Result<Check> {
    if form == Eq316Form::Printed {
        return eq_3_16(s, p, f, alpha);
    }
    check_p(s, p)?;
    let pot = GroupPotential::new(Which::Phi, alpha, PsiReading::Printed)?;
    let phi = pot.value(s);
    let lhs = expected_next(s, p, f, pot)?.add(phi.scale(-1.0));
    let af = alpha * f as f64;
    let n = s.len() as f64;
    let w = group_weighted_phi(&sorted_desc(s), p, alpha);
    if form == Eq316Form::Identity {
        let rhs = w
            .scale((-af / n).exp() * af.exp_m1())
            .add(phi.scale((-af / n).exp_m1()));
        let d = lhs.add(rhs.scale(-1.0));
        let margin = if d.is_zero() {
            0.0
        } else {
            -(d.ln_abs() - phi.ln_abs()).exp()
        };
        return Ok(Check {
            applicable: true,
            lhs,
            rhs,
            margin,
            holds: margin >= -TOLERANCE,
        });
    }
    let rhs = w
        .scale(af + af * af)
        .add(phi.scale(-(af / n) * (1.0 - af / (2.0 * n))));
    Ok(Check::le(lhs, rhs, true))
}

/// D.Cor.1 \[reconstructed\]: `E[Φ(t+1) | x(t)] ≤ (1 + (αf)²/n)·Φ(t)` (`= (1 + ε²/(4n))Φ`).
///
/// ```
/// use balloc::multidim::claims::corollary_1;
/// // s ≡ 0, n = 4, two-choice, f = 1, α = 1/8: the ball's bin becomes the unique heaviest (weight
/// // 1): E[Φ'] = e^{3/32} + e^{−1/32}(H₄ − 1) = 2.1483… > (1 + 1/256)·H₄ = 2.0915….
/// let p = [1.0 / 16.0, 3.0 / 16.0, 5.0 / 16.0, 7.0 / 16.0];
/// let c = corollary_1(&[0.0; 4], &p, 1, 0.125).unwrap();
/// assert!(!c.holds);
/// ```
pub fn corollary_1(s: &[f64], p: &[f64], f: u32, alpha: f64) -> Result<Check> {
    let pot = GroupPotential::new(Which::Phi, alpha, PsiReading::Printed)?;
    let af = alpha * f as f64;
    let lhs = expected_next(s, p, f, pot)?;
    let rhs = pot.value(s).scale(1.0 + af * af / s.len() as f64);
    Ok(Check::le(lhs, rhs, true))
}

/// D.Cor.2 \[reconstructed\]: `E[Ψ(t+1) | x(t)] ≤ (1 + αf/n + c(αf)²/n)·Ψ(t)`, the `O((αf)²/n)`
/// term made explicit with the constant `c`.
pub fn corollary_2(
    s: &[f64],
    p: &[f64],
    f: u32,
    alpha: f64,
    reading: PsiReading,
    c: f64,
) -> Result<Check> {
    let pot = GroupPotential::new(Which::Psi, alpha, reading)?;
    let af = alpha * f as f64;
    let n = s.len() as f64;
    let lhs = expected_next(s, p, f, pot)?;
    let rhs = pot.value(s).scale(1.0 + af / n + c * af * af / n);
    Ok(Check::le(lhs, rhs, true))
}

/// The smallest `c` for which [`corollary_2`] holds at `s`: `(E[Ψ']/Ψ − 1 − αf/n)·n/(αf)²`.
pub fn corollary_2_constant(
    s: &[f64],
    p: &[f64],
    f: u32,
    alpha: f64,
    reading: PsiReading,
) -> Result<f64> {
    let pot = GroupPotential::new(Which::Psi, alpha, reading)?;
    let af = alpha * f as f64;
    let n = s.len() as f64;
    let ratio = (expected_next(s, p, f, pot)?.ln_abs() - pot.value(s).ln_abs()).exp();
    Ok((ratio - 1.0 - af / n) * n / (af * af))
}

// ---------------------------------------------------------------------------------------------
// Lemmas 3.5, 3.6

/// How "the expected value decreases" of Lemmas 3.5/3.6 is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LemmaForm {
    /// `E[P(t+1)] ≤ P(t)` [reconstructed from "the expected value of Φ decreases"].
    Decrease,
    /// `E[P(t+1)] ≤ (1 − αε/n)·P(t) + 1`, the shape of the PTW lemmas D mirrors \[recalled\].
    PtwShape,
}

fn lemma_rhs(form: LemmaForm, value: XFloat, c: &Constants, n: usize) -> XFloat {
    match form {
        LemmaForm::Decrease => value,
        LemmaForm::PtwShape => value
            .scale(1.0 - c.alpha() * c.eps / n as f64)
            .add(s_f(1.0)),
    }
}

/// D.L3.5 \[reconstructed\]: "for s_(nγ₂) ≤ 0, the expected value of Φ decreases"; the position
/// `nγ₂` is rounded up ([`position`]).
///
/// ```
/// use balloc::multidim::claims::{Constants, LemmaForm, lemma_3_5};
/// let c = Constants::new(0.25, 0.25, 1).unwrap();
/// let p = [1.0 / 16.0, 3.0 / 16.0, 5.0 / 16.0, 7.0 / 16.0];
/// // s ≡ 0 satisfies s_(3) ≤ 0, yet Φ grows in expectation (see corollary_1).
/// assert!(!lemma_3_5(&[0.0; 4], &p, &c, LemmaForm::Decrease).unwrap().holds);
/// ```
pub fn lemma_3_5(s: &[f64], p: &[f64], c: &Constants, form: LemmaForm) -> Result<Check> {
    check_p(s, p)?;
    let v = sorted_desc(s);
    let applicable = v[position(s.len(), c.gamma2()) - 1] <= 0.0;
    let pot = GroupPotential::new(Which::Phi, c.alpha(), PsiReading::Printed)?;
    let lhs = expected_next(s, p, c.f, pot)?;
    Ok(Check::le(
        lhs,
        lemma_rhs(form, pot.value(s), c, s.len()),
        applicable,
    ))
}

/// D.L3.6 \[reconstructed\]: "for s_(nγ₁) ≥ 0, the expected value of Ψ decreases" (position rounded
/// up, clamped to ≥ 1).
pub fn lemma_3_6(
    s: &[f64],
    p: &[f64],
    c: &Constants,
    reading: PsiReading,
    form: LemmaForm,
) -> Result<Check> {
    check_p(s, p)?;
    let v = sorted_desc(s);
    let applicable = v[position(s.len(), c.gamma1) - 1] >= 0.0;
    let pot = GroupPotential::new(Which::Psi, c.alpha(), reading)?;
    let lhs = expected_next(s, p, c.f, pot)?;
    Ok(Check::le(
        lhs,
        lemma_rhs(form, pot.value(s), c, s.len()),
        applicable,
    ))
}

// ---------------------------------------------------------------------------------------------
// D.Thm.contract

/// D.Thm.contract \[read\]: "if Γ(x(t)) ≥ a ln(n) for some a > 0, then
/// E[Γ(t+1) | x(t)] ≤ (1 − ε/(8n(1 + εγ₁)))·Γ(t)", for a given `a`.
///
/// ```
/// use balloc::multidim::claims::{Constants, contraction};
/// use balloc::multidim::PsiReading;
/// let c = Constants::new(0.25, 0.25, 1).unwrap();
/// let p = [1.0 / 16.0, 3.0 / 16.0, 5.0 / 16.0, 7.0 / 16.0];
/// // Γ(0) = 2H₄ ≥ 2 ln 4 and one ball always raises Γ from s ≡ 0.
/// assert!(!contraction(&[0.0; 4], &p, &c, 2.0, PsiReading::Printed).unwrap().holds);
/// ```
pub fn contraction(
    s: &[f64],
    p: &[f64],
    c: &Constants,
    a: f64,
    reading: PsiReading,
) -> Result<Check> {
    check_p(s, p)?;
    if !(a > 0.0 && a.is_finite()) {
        return Err(Error::invalid(
            "a",
            format!("must be a finite number > 0, got {a}"),
        ));
    }
    let n = s.len() as f64;
    let pot = GroupPotential::new(Which::Gamma, c.alpha(), reading)?;
    let gamma = pot.value(s);
    let applicable = gamma.ln_abs() >= (a * n.ln()).ln();
    let lhs = expected_next(s, p, c.f, pot)?;
    let rhs = gamma.scale(1.0 - c.eps / (8.0 * n * (1.0 + c.eps * c.gamma1)));
    Ok(Check::le(lhs, rhs, applicable))
}
