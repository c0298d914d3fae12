//! Exact one-step and one-batch expectations `E[P(next) | x]`.
//!
//! Two routes:
//! * closed forms, owned by each potential ([`crate::potential::Potential::expected_next`]);
//! * a brute-force enumerator ([`brute_force`]) over every outcome of the step law (every
//!   destination and ball count), every sequence of outcomes in a batch and every weight of a
//!   finite weight law; it evaluates the potential on each resulting load vector and serves as the
//!   independent route in tests and as the general path for potentials without a closed form.
//!
//! Reference: `docs/derivations.md` §4 ("Exact one-step and one-batch expectations",
//! derived); Los–Sauerwald, *Balanced Allocations in Batches* (SPAA 2022), §3.

use crate::error::{Error, Result};
use crate::loads::{Levels, Loads};
use crate::potential::Potential;
use crate::process::{LevelLaw, Process, StepLaw};
use crate::setting::Setting;
use crate::xfloat::XFloat;

/// How an expectation was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// A closed form (O(n) or O(n log n)).
    ClosedForm,
    /// Enumeration of every outcome.
    Enumeration,
}

/// The exact expectation of a potential after one step or one batch.
#[derive(Debug, Clone, PartialEq)]
pub struct Expectation {
    /// The number of bins.
    pub n: usize,
    /// The potential at the current state.
    pub value: XFloat,
    /// `E[P(next) | x]`.
    pub expected_next: XFloat,
    /// `E[P(next) − P(x) | x]`.
    pub expected_change: XFloat,
    /// The route taken.
    pub method: Method,
}

/// The most bins for which `balloc expect` (and Python's `expect`) adds certified values (exact
/// rationals or enclosures) to the floating-point ones.
pub const CERTIFY_LIMIT: usize = 20_000;

impl Expectation {
    /// Why the expectation cannot be shown, if it cannot: a value that is not finite even in the
    /// log domain (NaN, or `ln|v| = ∞`). `potential` is the potential's spec, quoted in the message.
    ///
    /// ```
    /// use balloc::expectation::{Expectation, Method};
    /// use balloc::xfloat::XFloat;
    /// let mut e = Expectation { n: 2, value: XFloat::exp_of(800.0), expected_next: XFloat::from_f64(1.0),
    ///     expected_change: XFloat::from_f64(0.0), method: Method::ClosedForm };
    /// assert_eq!(e.not_finite("gamma"), None); // e^800 is finite in the log domain
    /// e.expected_next = XFloat::from_f64(f64::INFINITY);
    /// assert!(e.not_finite("gamma").unwrap().starts_with("cannot evaluate expected_next of gamma"));
    /// ```
    pub fn not_finite(&self, potential: &str) -> Option<String> {
        [
            ("value", &self.value),
            ("expected_next", &self.expected_next),
            ("expected_change", &self.expected_change),
        ]
        .into_iter()
        .find(|(_, v)| v.is_nan() || v.ln_abs() == f64::INFINITY)
        .map(|(field, _)| {
            format!(
                "cannot evaluate {field} of {potential} at these loads: the result is not finite \
                 even in the log domain (loads or parameters beyond the range of f64)"
            )
        })
    }
}

/// The largest number of leaves the enumerator visits before it refuses.
pub const ENUMERATION_LIMIT: u64 = 20_000_000;

/// `E[P(next) | x]` for `process` in `setting`: a closed form when the potential has one for this
/// combination, otherwise enumeration (when the outcome space is small enough).
///
/// ```
/// use balloc::{expectation, loads::Loads, process, potential, setting::Setting};
/// // Two-Choice, n = 2, x = (1, 0) (y = (½, −½)), Υ = ½. The ball goes to the lighter bin with
/// // probability 3/4 (Υ' = 0 ... loads (1,1)) and to the heavier with 1/4 (loads (2,0), Υ' = 2).
/// let e = expectation::expect(
///     process::parse("two-choice").unwrap().as_ref(),
///     potential::parse("quadratic").unwrap().as_ref(),
///     &Loads::new(vec![1.0, 0.0]).unwrap(),
///     &Setting::sequential(),
/// ).unwrap();
/// assert!((e.expected_next.to_f64_checked().unwrap() - 0.5).abs() < 1e-15); // 3/4·0 + 1/4·2
/// ```
pub fn expect(
    process: &dyn Process,
    potential: &dyn Potential,
    loads: &Loads,
    setting: &Setting,
) -> Result<Expectation> {
    if let Some(e) = expect_levels(process, potential, loads, setting)? {
        return Ok(e);
    }
    let law = process.step_law(loads, setting.ties)?;
    expect_law(&law, potential, loads, setting)
}

/// The grouped route of [`expect`]: for a rank-based process and a potential with a level form
/// ([`Potential::level_expectation`]), one evaluation per distinct load instead of per bin
/// (the loads are counted by value, the rank ranges of the tied groups get their probability
/// from the process's cumulative closed form). `Ok(None)` when the route does not apply (a
/// process that is not rank-based, a potential without a level form, a batch under fixed ties,
/// outcomes that need the log domain); [`expect`] then takes the per-bin route.
///
/// ```
/// use balloc::{expectation, loads::Loads, process, potential, setting::Setting};
/// let p = process::parse("two-choice").unwrap();
/// let g = potential::parse("gamma(alpha=0.5)").unwrap();
/// let x = Loads::new(vec![3.0, 0.0, 3.0, 1.0, 0.0, 0.0]).unwrap();
/// let s = Setting::sequential();
/// let levels = expectation::expect_levels(p.as_ref(), g.as_ref(), &x, &s).unwrap().unwrap();
/// // The per-bin route on the same state.
/// let law = p.step_law(&x, s.ties).unwrap();
/// let bins = expectation::expect_law(&law, g.as_ref(), &x, &s).unwrap();
/// let (a, b) = (levels.expected_next.to_f64_checked().unwrap(), bins.expected_next.to_f64_checked().unwrap());
/// assert!((a - b).abs() <= 1e-14 * b);
/// ```
pub fn expect_levels(
    process: &dyn Process,
    potential: &dyn Potential,
    loads: &Loads,
    setting: &Setting,
) -> Result<Option<Expectation>> {
    expect_counted(process, potential, &loads.levels(), setting)
}

/// [`expect_levels`] from the load levels alone (the loads counted by value, e.g. while reading a
/// file or from an integer array, with no vector of n loads): the same numbers as [`expect`] on
/// the loads, or `None` when the process is not rank-based or the potential has no level form.
///
/// ```
/// use balloc::{expectation, loads::Loads, potential, process, setting::Setting};
/// let p = process::parse("two-choice").unwrap();
/// let g = potential::parse("gamma(alpha=0.5)").unwrap();
/// let x = Loads::new(vec![3.0, 0.0, 0.0, 1.0]).unwrap();
/// let s = Setting::sequential();
/// let a = expectation::expect_counted(p.as_ref(), g.as_ref(), &x.levels(), &s).unwrap().unwrap();
/// let b = expectation::expect(p.as_ref(), g.as_ref(), &x, &s).unwrap();
/// assert_eq!(a.expected_next, b.expected_next);
/// ```
pub fn expect_counted(
    process: &dyn Process,
    potential: &dyn Potential,
    levels: &Levels,
    setting: &Setting,
) -> Result<Option<Expectation>> {
    if !potential.has_level_form(setting)
        || (setting.batch > 1 && setting.ties != crate::loads::TieRule::Random)
    {
        return Ok(None);
    }
    let Some(law) = LevelLaw::of_levels(process, levels, setting.ties)? else {
        return Ok(None);
    };
    Ok(
        expect_level_law(&law, potential, setting)?.map(|(value, e)| Expectation {
            n: law.n,
            value,
            expected_next: e.next,
            expected_change: e.change,
            method: Method::ClosedForm,
        }),
    )
}

/// [`expect_levels`] for an explicit grouped law (for example built from an allocation vector
/// with [`LevelLaw::of_rank_vector`]): the value and the expectation, or `None` when the
/// potential has no level form for this setting.
pub fn expect_level_law(
    law: &LevelLaw,
    potential: &dyn Potential,
    setting: &Setting,
) -> Result<Option<(XFloat, crate::potential::Expected)>> {
    let total: f64 = law.prob.iter().sum();
    if law.prob.iter().any(|p| !(*p >= 0.0 && p.is_finite())) || (total - 1.0).abs() > 1e-9 {
        return Err(Error::invalid(
            "allocation vector",
            format!("level probabilities sum to {total}, not 1 (or one is negative)"),
        ));
    }
    potential.level_expectation(law, setting)
}

/// As [`expect`], for an explicit step law (for example an allocation vector that is not a
/// registered process).
/// ```
/// use balloc::{expectation, loads::Loads, potential, process::StepLaw, setting::Setting};
/// // The ball always goes to bin 0: x = (1, 0) → (2, 0); Υ goes from ½ (y = (½, −½)) to 2.
/// let law = StepLaw::unit(vec![1.0, 0.0]);
/// let q = potential::parse("quadratic").unwrap();
/// let e = expectation::expect_law(&law, q.as_ref(), &Loads::new(vec![1.0, 0.0]).unwrap(),
///     &Setting::sequential()).unwrap();
/// assert_eq!(e.expected_next.to_f64_checked(), Some(2.0));
/// assert_eq!(e.expected_change.to_f64_checked(), Some(1.5));
/// ```
pub fn expect_law(
    law: &StepLaw,
    potential: &dyn Potential,
    loads: &Loads,
    setting: &Setting,
) -> Result<Expectation> {
    check_law(law, loads)?;
    let value = potential.value(loads);
    if let Some(e) = potential.expected_next(law, loads, setting)? {
        return Ok(Expectation {
            n: loads.n(),
            value,
            expected_next: e.next,
            expected_change: e.change,
            method: Method::ClosedForm,
        });
    }
    let next = brute_force_law(law, potential, loads, setting)?;
    let change = next.add(value.scale(-1.0));
    Ok(Expectation {
        n: loads.n(),
        value,
        expected_next: next,
        expected_change: change,
        method: Method::Enumeration,
    })
}

fn check_law(law: &StepLaw, loads: &Loads) -> Result<()> {
    if law.n != loads.n() {
        return Err(Error::invalid(
            "allocation vector",
            format!("has {} entries but there are {} bins", law.n, loads.n()),
        ));
    }
    let mut s = 0.0;
    for o in &law.outcomes {
        if !(o.prob >= 0.0 && o.prob.is_finite()) || o.bin >= law.n {
            return Err(Error::invalid(
                "allocation vector",
                format!("outcome {:?} is not a probability on a bin", o),
            ));
        }
        s += o.prob;
    }
    if (s - 1.0).abs() > 1e-9 {
        return Err(Error::invalid(
            "allocation vector",
            format!("probabilities sum to {s}, not 1"),
        ));
    }
    Ok(())
}

/// The brute-force expectation `E[P(next) | x]` by enumeration of every outcome sequence of the
/// batch (the law frozen at `loads`) and every weight of a finite weight law.
///
/// ```
/// use balloc::{expectation, loads::Loads, process, potential, setting::Setting};
/// let p = process::parse("two-choice").unwrap();
/// let g = potential::parse("gamma(alpha=0.5)").unwrap();
/// let x = Loads::new(vec![2.0, 0.0, 1.0]).unwrap();
/// let s = Setting::batched(2).unwrap();
/// let exact = expectation::expect(p.as_ref(), g.as_ref(), &x, &s).unwrap();
/// let brute = expectation::brute_force(p.as_ref(), g.as_ref(), &x, &s).unwrap();
/// let (a, b) = (exact.expected_next.to_f64_checked().unwrap(), brute.to_f64_checked().unwrap());
/// assert!((a - b).abs() < 1e-12 * a);
/// ```
pub fn brute_force(
    process: &dyn Process,
    potential: &dyn Potential,
    loads: &Loads,
    setting: &Setting,
) -> Result<XFloat> {
    let law = process.step_law(loads, setting.ties)?;
    brute_force_law(&law, potential, loads, setting)
}

/// [`brute_force`] for an explicit step law.
/// ```
/// use balloc::{expectation, loads::Loads, potential, process::StepLaw, setting::Setting};
/// // Two balls, each to bin 0 or 1 with probability ½, at x = (0, 0), Δ = Σ|yᵢ|:
/// // same bin (prob ½): y = (±1, ∓1), Δ = 2; split (prob ½): Δ = 0. E[Δ'] = 1.
/// let law = StepLaw::unit(vec![0.5, 0.5]);
/// let d = potential::parse("absolute").unwrap();
/// let e = expectation::brute_force_law(&law, d.as_ref(), &Loads::zeros(2).unwrap(),
///     &Setting::batched(2).unwrap()).unwrap();
/// assert_eq!(e.to_f64_checked(), Some(1.0));
/// ```
pub fn brute_force_law(
    law: &StepLaw,
    potential: &dyn Potential,
    loads: &Loads,
    setting: &Setting,
) -> Result<XFloat> {
    let support = setting.weights.support().ok_or_else(|| {
        Error::Unsupported(format!(
            "enumeration needs a finite weight law, `{}` is not finite; no closed form covers {} with these settings",
            setting.weights.spec(),
            potential.spec()
        ))
    })?;
    // Branches of one sample: each outcome with each combination of its balls' weights.
    let mut branches: Vec<(usize, f64, f64)> = Vec::new(); // (bin, total weight, probability)
    for o in law.outcomes.iter().filter(|o| o.prob > 0.0) {
        // Refuse before building: the weight combinations of one outcome number |support|^balls.
        if (support.len() as f64).powf(o.balls as f64) > ENUMERATION_LIMIT as f64 {
            return Err(too_many());
        }
        let mut partial = vec![(0.0f64, o.prob)];
        for _ in 0..o.balls {
            let mut next = Vec::with_capacity(partial.len() * support.len());
            for &(w0, p0) in &partial {
                for &(w, p) in &support {
                    next.push((w0 + w, p0 * p));
                }
            }
            partial = next;
            if partial.len() as u64 > ENUMERATION_LIMIT {
                return Err(too_many());
            }
        }
        branches.extend(partial.into_iter().map(|(w, p)| (o.bin, w, p)));
    }
    let leaves = (branches.len() as f64).powf(setting.batch as f64);
    if leaves > ENUMERATION_LIMIT as f64 {
        return Err(too_many());
    }
    let mut x = loads.as_slice().to_vec();
    let mut acc: Option<XFloat> = None;
    recurse(&branches, setting.batch, 1.0, &mut x, potential, &mut acc)?;
    Ok(acc.unwrap_or(XFloat::from_f64(0.0)))
}

fn too_many() -> Error {
    Error::Unsupported(format!(
        "the enumeration would visit more than {ENUMERATION_LIMIT} outcomes; use a closed form or a smaller case"
    ))
}

fn recurse(
    branches: &[(usize, f64, f64)],
    left: u64,
    prob: f64,
    x: &mut Vec<f64>,
    potential: &dyn Potential,
    acc: &mut Option<XFloat>,
) -> Result<()> {
    if left == 0 {
        let v = potential.value(&Loads::new(x.clone())?).scale(prob);
        *acc = Some(match acc {
            None => v,
            Some(a) => a.add(v),
        });
        return Ok(());
    }
    for &(bin, w, p) in branches {
        x[bin] += w;
        recurse(branches, left - 1, prob * p, x, potential, acc)?;
        x[bin] -= w;
    }
    Ok(())
}
