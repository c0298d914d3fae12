//! How each number domain evaluates a registered potential and its expectation: the potential
//! owns its routes (its float closed forms, its per-bin term in the claim language, its exact
//! and enclosure closed forms for weighted settings), and each domain takes the best route it
//! has. A potential added to the registry is usable in claims in every domain its routes cover,
//! without touching `src/claim`.
//!
//! | domain | value | one-step / one-batch expectation |
//! |---|---|---|
//! | float (and its `f64` form) | [`Potential::value`] | grouped law ([`Potential::level_expectation`]), else [`Potential::expected_next`], else enumeration |
//! | exact | `Σ f(yᵢ)` of [`Potential::per_bin`] | [`Potential::exact_expected`], else the separable expectation of the per-bin term |
//! | enclosure | `Σ f(yᵢ)` over intervals | [`Potential::enclosed_expected`], else the separable expectation |
//! | exponential sums | `Σ f(yᵢ)` | the separable expectation |

use super::case::PotInst;
use super::next_state::{per_bin_sum, separable};
use super::state::State;
use crate::lang::{
    Approx, Approx64, Domain, Enclosure, Eval, EvalError, Exact, ExpSums, Float, Float64,
};
use crate::potential::Potential;

/// A domain that knows how to evaluate registered potentials.
pub trait Routes: Domain + Sized {
    /// The value of registered potential `j` of the case at the state.
    fn reg_value(&self, st: &State, j: usize) -> Eval<Self::N> {
        let (_, per_bin) = certified(st, j)?;
        let params = st.case.param_values(self, j)?;
        per_bin_sum(self, st, &crate::lang::Slots(&params), per_bin)
    }

    /// `(E[P'], E[P' − P])` after one step or batch for registered potential `j`.
    fn reg_expected(&self, st: &State, j: usize) -> Eval<(Self::N, Self::N)> {
        if let Some(r) = self.closed_form(st, j)? {
            return Ok(r);
        }
        let (_, per_bin) = certified(st, j)?;
        let params = st.case.param_values(self, j)?;
        let env = crate::lang::Slots(&params);
        let next = separable(self, st, &env, per_bin, None)?;
        let v = self.reg_value(st, j)?;
        let change = self.sub(&next, &v)?;
        Ok((next, change))
    }

    /// A closed form of the domain for `(E[P'], E[P' − P])`, when the potential has one.
    fn closed_form(&self, st: &State, j: usize) -> Eval<Option<(Self::N, Self::N)>> {
        let _ = (st, j);
        Ok(None)
    }
}

/// The potential and its per-bin term, for the certified routes: the term holds the
/// parameters' values when they are rational, else reads them from slots
/// ([`super::case::Case::param_values`]), so that each domain evaluates them itself (an
/// irrational parameter is enclosed in the enclosure domain and unavailable in the exact ones).
fn certified<'s>(st: &'s State, j: usize) -> Eval<(&'s dyn Potential, &'s crate::lang::Expr)> {
    match &st.case.pots[j] {
        PotInst::Registered { pot, per_bin, .. } => {
            let f = per_bin.as_ref().ok_or_else(|| {
                EvalError::Unavailable(format!("{} is not a sum over bins", pot.spec()))
            })?;
            Ok((pot.as_ref(), f))
        }
        PotInst::Defined(_) => unreachable!("registered potentials only"),
    }
}

/// Whether the parameters of registered potential `j` are exact (the closed forms of the
/// exact and enclosure domains read the potential's own rational parameters).
fn exact_params(st: &State, j: usize) -> bool {
    matches!(&st.case.pots[j], PotInst::Registered { exact: true, .. })
}

fn registered<'s>(st: &'s State, j: usize) -> &'s dyn Potential {
    match &st.case.pots[j] {
        PotInst::Registered { pot, .. } => pot.as_ref(),
        PotInst::Defined(_) => unreachable!("registered potentials only"),
    }
}

fn lib(e: crate::Error) -> EvalError {
    match e {
        crate::Error::Unsupported(s) => EvalError::Unavailable(s),
        other => EvalError::from(other),
    }
}

impl Routes for Float {
    fn reg_value(&self, st: &State, j: usize) -> Eval<Approx> {
        let v = registered(st, j).value(st.loads());
        self.xfloat(v)
    }

    fn reg_expected(&self, st: &State, j: usize) -> Eval<(Approx, Approx)> {
        let pot = registered(st, j);
        let setting = &st.case.setting;
        if pot.has_level_form(setting)
            && let Some(ll) = st.level_law()
            && let Some((_, e)) =
                crate::expectation::expect_level_law(ll, pot, setting).map_err(lib)?
        {
            return Ok((self.xfloat(e.next)?, self.xfloat(e.change)?));
        }
        let law = st.law_f()?;
        let e = crate::expectation::expect_law(law, pot, st.loads(), setting).map_err(lib)?;
        Ok((
            self.xfloat(e.expected_next)?,
            self.xfloat(e.expected_change)?,
        ))
    }
}

/// The registered potentials in [`Float64`]: the [`Float`] values, when they are normal `f64`
/// numbers ([`crate::lang::float64`]).
impl Routes for Float64 {
    fn reg_value(&self, st: &State, j: usize) -> Eval<Approx64> {
        to64(Float.reg_value(st, j)?)
    }

    fn reg_expected(&self, st: &State, j: usize) -> Eval<(Approx64, Approx64)> {
        let (next, change) = Float.reg_expected(st, j)?;
        Ok((to64(next)?, to64(change)?))
    }
}

/// A [`Float`] number in [`Float64`] (its value and magnitude, both normal `f64` numbers).
fn to64(a: Approx) -> Eval<Approx64> {
    let (v, m) = (Float64.xfloat(a.v)?, Float64.xfloat(a.m)?);
    Ok(Approx64 { v: v.v, m: m.v })
}

impl Routes for Exact {
    fn closed_form(
        &self,
        st: &State,
        j: usize,
    ) -> Eval<Option<(crate::exact::Q, crate::exact::Q)>> {
        let (pot, _) = match certified(st, j) {
            Ok(v) if exact_params(st, j) => v,
            _ => return Ok(None),
        };
        let Some(setting) = &st.case.exact_setting else {
            return Ok(None);
        };
        let law = st.law_q_required()?;
        match pot.exact_expected(law, st.xq(), setting).map_err(lib)? {
            Some(next) => {
                let v = self.reg_value(st, j)?;
                let change = &next - &v;
                Ok(Some((next, change)))
            }
            None => Ok(None),
        }
    }
}

impl Routes for Enclosure {
    fn closed_form(
        &self,
        st: &State,
        j: usize,
    ) -> Eval<Option<(crate::enclosure::Interval, crate::enclosure::Interval)>> {
        let (pot, _) = match certified(st, j) {
            Ok(v) => v,
            Err(_) => return Ok(None),
        };
        let Some(setting) = &st.case.exact_setting else {
            return Ok(None);
        };
        let law = st.law_q_required()?;
        if !exact_params(st, j) {
            // Irrational parameters: the closed form with the parameters enclosed.
            let params = st.case.param_values(self, j)?;
            return Ok(pot
                .enclosed_expected_at(&params, law, st.xq(), setting, self.prec)
                .map_err(lib)?
                .map(|e| (e.expected_next, e.expected_change)));
        }
        match pot
            .enclosed_expected(law, st.xq(), setting, self.prec)
            .map_err(lib)?
        {
            Some(e) => Ok(Some((e.expected_next, e.expected_change))),
            None => {
                // An exact closed form is an enclosure too.
                match pot.exact_expected(law, st.xq(), setting).map_err(lib)? {
                    Some(next) => {
                        let v = Exact.reg_value(st, j)?;
                        Ok(Some((self.rational(&next)?, self.rational(&(&next - &v))?)))
                    }
                    None => Ok(None),
                }
            }
        }
    }
}

impl Routes for ExpSums {}
