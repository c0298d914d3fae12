//! The certification ladder: a claim at one state decided in exact rationals, then in exact
//! exponential sums (a zero test by Lindemann–Weierstrass, signs by enclosures), then in
//! outward-rounded enclosures at 64, 128, …, 4096 bits. The first domain that decides gives the
//! verdict and its trust (`exact`, or `enclosure` where an enclosure decided); a state no domain
//! decides is [`Certification::Undecided`] (the enclosures overlap at every precision) or
//! [`Certification::NoRoute`] (a quantity has neither an exact value nor an enclosure).

use crate::claim::routes::Routes;
use crate::claim::trust::Certification;
use crate::claim::verdict::Trust;
use crate::enclosure::Precisions;
use crate::lang::{Domain, Enclosure, Eval, EvalError, Exact, ExpSums};

/// A claim at one state of a setting, decidable in every certified domain.
pub trait AtState {
    /// Whether the claim holds at the state, decided in `d` (three-valued:
    /// [`EvalError::Undecided`] when an enclosure cannot tell, [`EvalError::Unavailable`] when
    /// the domain has no value for a quantity).
    fn truth<D: Routes>(&self, d: &D) -> Eval<bool>;
    /// Both sides of the deciding comparisons as `d` gives them (for a witness).
    fn sides<D: Routes>(&self, d: &D) -> String;
}

/// The claim at the state decided by the first domain of the ladder that can (module
/// documentation); with `text`, the certification carries both sides in that domain.
///
/// ```
/// use balloc::claim::engine::ladder::{certify, AtState};
/// use balloc::claim::routes::Routes;
/// use balloc::claim::trust::Certification;
/// use balloc::claim::Trust;
/// use balloc::lang::{compile_str, Domain, Eval, Slots};
/// // e^{1/2} ≤ 33/20 (e^{1/2} = 1.6487…): no rational value, decided by enclosures.
/// struct Claim;
/// impl AtState for Claim {
///     fn truth<D: Routes>(&self, d: &D) -> Eval<bool> {
///         let f = compile_str("exp(1/2) <= 33/20", &[]).unwrap();
///         f.truth(d, &Slots::<D::N>(&[]), None, None)
///     }
///     fn sides<D: Routes>(&self, _: &D) -> String { String::new() }
/// }
/// match certify(&Claim, false) {
///     Certification::Decided { holds, trust, .. } => {
///         assert!(holds);
///         assert_eq!(trust, Trust::Enclosure);
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn certify(c: &impl AtState, text: bool) -> Certification {
    let sides = |d: &dyn Fn() -> String| if text { d() } else { String::new() };
    match c.truth(&Exact) {
        Ok(holds) => {
            return Certification::Decided {
                holds,
                trust: Trust::Exact,
                bits: None,
                text: format!("exact rationals: {}", sides(&|| c.sides(&Exact))),
            };
        }
        Err(EvalError::Error(e)) => return Certification::NoRoute(e.to_string()),
        Err(_) => {}
    }
    let sums = ExpSums::default();
    match c.truth(&sums) {
        Ok(holds) => {
            let bits = sums.enclosure_bits();
            let how = match bits {
                None => "decided exactly".to_string(),
                Some(b) => format!(
                    "a non-zero sum (Lindemann–Weierstrass) whose sign enclosures decided at {b} bits"
                ),
            };
            return Certification::Decided {
                holds,
                trust: sums.trust(),
                bits,
                text: format!(
                    "exact exponential sums, {how}: {}",
                    sides(&|| c.sides(&ExpSums::default()))
                ),
            };
        }
        Err(EvalError::Error(e)) => return Certification::NoRoute(e.to_string()),
        Err(_) => {}
    }
    let mut last: Option<(u64, String)> = None;
    for prec in Precisions::default().steps() {
        let d = Enclosure { prec };
        match c.truth(&d) {
            Ok(holds) => {
                return Certification::Decided {
                    holds,
                    trust: Trust::Enclosure,
                    bits: Some(prec),
                    text: format!(
                        "enclosures at {prec} bits (outward rounding): {}",
                        sides(&|| c.sides(&d))
                    ),
                };
            }
            Err(EvalError::Undecided(why)) => last = Some((prec, why)),
            Err(e) => {
                return Certification::NoRoute(format!("no certified route: {e}"));
            }
        }
    }
    let (bits, text) = last.unwrap_or((0, String::new()));
    Certification::Undecided { bits, text }
}
