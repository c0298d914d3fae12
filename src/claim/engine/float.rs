//! The float stage of the engine: a formula evaluated in floats gives the comparison that
//! decides it ([`Atom`]: its sides, its slack `s` and the numerical resolution `r`). A state is
//! *clear* when `s > r` (it holds with a margin floats can see) and *flagged* otherwise (a float
//! violation, or a margin within rounding); only flagged states go up the certification ladder
//! ([`super::ladder`]).

use crate::claim::XFloat;
use crate::exact::Q;
use crate::lang::{
    Approx, Cmp, Domain, Env, Eval, EvalError, Float, Float64, Formula, Frame, ToApprox, eval_float,
};

/// The comparison that decides a formula in floats, with its sides and slack.
#[derive(Debug, Clone, Copy)]
pub struct Atom {
    /// Whether the formula holds (as floats say).
    pub holds: bool,
    /// The slack of the deciding comparison, tolerance included: `b + tol − a` for `a <= b`,
    /// `tol − |a − b|` for `a == b`, ...; `holds` iff it is ≥ 0 (> 0 for strict comparisons).
    pub slack: Approx,
    /// The left side of the deciding comparison.
    pub lhs: Approx,
    /// The right side.
    pub rhs: Approx,
    /// Whether floats gave the values (false: a placeholder for a state only the certified
    /// domains could evaluate, [`Atom::unknown`]).
    pub known: bool,
}

impl Atom {
    /// A placeholder for a state floats cannot evaluate: `holds` as certified, every value 0.
    pub fn unknown(holds: bool) -> Atom {
        let zero = Approx::exact(XFloat::ZERO);
        Atom {
            holds,
            slack: zero,
            lhs: zero,
            rhs: zero,
            known: false,
        }
    }

    /// The numerical resolution: the tolerance plus 10⁻¹¹ of the magnitude of the terms the two
    /// sides were computed from.
    pub fn resolution(&self, tol: f64) -> XFloat {
        let m = self.lhs.m.max(self.rhs.m).max(self.slack.m);
        XFloat::from_f64(tol).add(XFloat::from_f64(1e-11).mul(m))
    }
}

/// The float comparison `a c b` with the absolute tolerance `tol`: its slack (`b + tol − a` for
/// `<=`, `tol − |a − b|` for `==`, …) and whether it holds (`slack ≥ 0`, `> 0` when strict).
pub fn atom_of(c: Cmp, a: Approx, b: Approx, tol: &Q) -> Eval<Atom> {
    let d = Float;
    let t = d.rational(tol)?;
    let slack = match c {
        Cmp::Le | Cmp::Lt => d.add(&d.sub(&b, &a)?, &t)?,
        Cmp::Ge | Cmp::Gt => d.add(&d.sub(&a, &b)?, &t)?,
        Cmp::Eq => d.sub(&t, &d.abs(&d.sub(&a, &b)?)?)?,
        Cmp::Ne => d.sub(&d.abs(&d.sub(&a, &b)?)?, &t)?,
    };
    let strict = matches!(c, Cmp::Lt | Cmp::Gt | Cmp::Ne);
    let holds = if strict {
        slack.v > XFloat::ZERO
    } else {
        slack.v >= XFloat::ZERO
    };
    Ok(Atom {
        holds,
        slack,
        lhs: a,
        rhs: b,
        known: true,
    })
}

/// The comparison that decides `f` in a float domain: for `&&` the failing side (else the
/// tighter), for `||` the holding side (else the looser), for `!` the negated slack.
pub fn float_formula<D: ToApprox>(
    d: &D,
    f: &Formula,
    env: &dyn Env<D>,
    frame: Option<&Frame<D::N>>,
    tol: &Q,
) -> Eval<Atom> {
    Ok(match f {
        Formula::Cmp(a, c, b) => {
            let x = a.eval(d, env, frame)?;
            let y = b.eval(d, env, frame)?;
            atom_of(*c, d.approx(&x), d.approx(&y), tol)?
        }
        Formula::And(a, b) => {
            let (x, y) = (
                float_formula(d, a, env, frame, tol)?,
                float_formula(d, b, env, frame, tol)?,
            );
            let pick = match (x.holds, y.holds) {
                (true, false) => y,
                (false, true) => x,
                _ if y.slack.v < x.slack.v => y,
                _ => x,
            };
            Atom {
                holds: x.holds && y.holds,
                ..pick
            }
        }
        Formula::Or(a, b) => {
            let (x, y) = (
                float_formula(d, a, env, frame, tol)?,
                float_formula(d, b, env, frame, tol)?,
            );
            let pick = match (x.holds, y.holds) {
                (true, false) => x,
                (false, true) => y,
                _ if y.slack.v > x.slack.v => y,
                _ => x,
            };
            Atom {
                holds: x.holds || y.holds,
                ..pick
            }
        }
        Formula::Not(a) => {
            let x = float_formula(d, a, env, frame, tol)?;
            Atom {
                holds: !x.holds,
                slack: Approx {
                    v: x.slack.v.neg(),
                    m: x.slack.m,
                },
                ..x
            }
        }
    })
}

/// The float evaluation of `f` at an environment that offers both float domains: in plain
/// `f64` first, in extended range where a value leaves it ([`eval_float`]).
///
/// ```
/// use balloc::claim::engine::float::float_atom;
/// use balloc::exact::Q;
/// use balloc::lang::{compile_str, Domain, Env, Eval};
/// // An environment whose one name `a` is 3/2 in every domain.
/// struct A;
/// impl<D: Domain> Env<D> for A {
///     fn slot(&self, d: &D, _: usize) -> Eval<D::N> { d.float(1.5) }
/// }
/// let f = compile_str("a * a <= 2", &["a"]).unwrap();
/// let at = float_atom(&f, &A, &Q::from_integer(0.into())).unwrap();
/// // 2 − 1.5² = −0.25: a float violation.
/// assert!(!at.holds);
/// assert_eq!(at.slack.v.to_f64(), -0.25);
/// ```
pub fn float_atom<E: Env<Float64> + Env<Float>>(f: &Formula, env: &E, tol: &Q) -> Eval<Atom> {
    eval_float(
        |d| float_formula(d, f, env, None, tol),
        |d| float_formula(d, f, env, None, tol),
    )
}

/// A float evaluation with "no float value here" ([`EvalError::Unavailable`]: a quantity that
/// only the certified domains hold, such as a range) as `None`.
///
/// ```
/// use balloc::claim::engine::float::float_available;
/// use balloc::lang::EvalError;
/// assert_eq!(float_available::<u8>(Err(EvalError::Unavailable("a range".into()))), Ok(None));
/// assert_eq!(float_available(Ok(3u8)), Ok(Some(3)));
/// ```
pub fn float_available<T>(r: Eval<T>) -> Eval<Option<T>> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(EvalError::Unavailable(_)) => Ok(None),
        Err(e) => Err(e),
    }
}
