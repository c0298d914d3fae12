//! Evaluating a link of the claim at one state: in floats (the deciding comparison, its slack
//! and magnitude) and in the certified domains (exact rationals, exact exponential sums,
//! enclosures at 64, 128, …, 4096 bits).

use super::Inequality;
use crate::claim::engine::every_bin;
use crate::claim::engine::float::{Atom, float_formula};
use crate::claim::env::StateEnv;
use crate::claim::range::{BoxOutcome, RANGE_BOXES, RangeAt, decide_over};
use crate::claim::routes::Routes;
use crate::claim::state::State;
use crate::claim::trust::Certification;
use crate::exact::Q;
use crate::lang::{
    Centered, CenteredNum, Cmp, Domain, Enclosure, Env, Eval, EvalError, Exact, Float, Formula,
    Frame, ToApprox, eval_float,
};
use num_traits::Zero;

/// How a formula is decided at a frame with a tolerance, in a domain.
type FormulaTruth<'a, D> =
    dyn Fn(&Formula, &dyn Env<D>, Option<&Frame<<D as Domain>::N>>, Option<&Q>) -> Eval<bool> + 'a;

/// The truth of a formula over a box of range constants in the mean-value form: each `<`, `<=`,
/// `>`, `>=` by the sign of its slack (tolerance included) over the box
/// ([`Centered::enclosure`]: a slack `≥ 0` everywhere, reaching 0 only at a corner where it is
/// exactly 0, decides `<=`), `==` and `!=` by the domain's comparison; `&&`, `||`, `!` as
/// [`Formula::truth`].
fn centered_truth(
    d: &Centered,
    f: &Formula,
    env: &dyn Env<Centered>,
    fr: Option<&Frame<CenteredNum>>,
    tol: Option<&Q>,
) -> Eval<bool> {
    match f {
        Formula::Cmp(a, c, b) if !matches!(c, Cmp::Eq | Cmp::Ne) => {
            let x = a.eval(d, env, fr)?;
            let y = b.eval(d, env, fr)?;
            let mut s = crate::lang::expr::slack(d, &x, *c, &y, &Q::zero())?;
            if let Some(t) = tol.filter(|t| !t.is_zero()) {
                s = d.add(&s, &d.rational(t)?)?;
            }
            let [ge0, gt0, lt0, le0] = d.sign(&s)?;
            let strict = matches!(c, Cmp::Lt | Cmp::Gt);
            if (strict && gt0) || (!strict && ge0) {
                Ok(true)
            } else if (strict && le0) || (!strict && lt0) {
                Ok(false)
            } else {
                Err(EvalError::Undecided(format!(
                    "the mean-value form {} of a slack contains 0 at {} bits",
                    d.show(&s),
                    d.at.prec
                )))
            }
        }
        Formula::Cmp(..) => f.truth(d, env, fr, tol),
        Formula::And(a, b) => {
            let l = centered_truth(d, a, env, fr, tol);
            if matches!(l, Ok(false)) {
                return Ok(false);
            }
            match (l, centered_truth(d, b, env, fr, tol)) {
                (_, Ok(false)) => Ok(false),
                (Ok(true), Ok(true)) => Ok(true),
                (Err(e), _) | (_, Err(e)) => Err(e),
                _ => unreachable!("all cases covered"),
            }
        }
        Formula::Or(a, b) => {
            let l = centered_truth(d, a, env, fr, tol);
            if matches!(l, Ok(true)) {
                return Ok(true);
            }
            match (l, centered_truth(d, b, env, fr, tol)) {
                (_, Ok(true)) => Ok(true),
                (Ok(false), Ok(false)) => Ok(false),
                (Err(e), _) | (_, Err(e)) => Err(e),
                _ => unreachable!("all cases covered"),
            }
        }
        Formula::Not(a) => centered_truth(d, a, env, fr, tol).map(|t| !t),
    }
}

impl Inequality {
    /// The float evaluation of link `link` at the state: the deciding comparison (per bin: the
    /// tightest bin).
    pub(super) fn float_atom(&self, link: usize, st: &State) -> Eval<Atom> {
        eval_float(
            |d| self.float_atom_in(d, link, st),
            |d| self.float_atom_in(d, link, st),
        )
    }

    fn float_atom_in<D: Routes + ToApprox>(&self, d: &D, link: usize, st: &State) -> Eval<Atom> {
        let env = StateEnv::new(st, d);
        let f = &self.links[link].formula;
        let tol = &self.setup.tolerance;
        if !self.per_bin {
            return float_formula(d, f, &env, None, tol);
        }
        every_bin::float_every_bin(d, f, &env, tol)
    }

    /// Whether the hypotheses hold at the state (in floats).
    pub(super) fn given_holds(&self, st: &State) -> Eval<bool> {
        eval_float(|d| self.given_in(d, st), |d| self.given_in(d, st))
    }

    fn given_in<D: Routes>(&self, d: &D, st: &State) -> Eval<bool> {
        let env = StateEnv::new(st, d);
        for g in &self.given {
            if !g.truth(d, &env, None, None)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The truth of `given ⇒ link` at the state in the domain `d` (three-valued: an
    /// [`EvalError::Undecided`] when the domain cannot tell).
    fn truth_in<D: Routes>(&self, link: usize, st: &State, d: &D) -> Eval<bool> {
        self.truth_by(link, st, d, &|f, env, fr, tol| f.truth(d, env, fr, tol))
    }

    /// [`Inequality::truth_in`] with each formula decided by `truth` (at a frame, with a
    /// tolerance).
    fn truth_by<D: Routes>(
        &self,
        link: usize,
        st: &State,
        d: &D,
        truth: &FormulaTruth<'_, D>,
    ) -> Eval<bool> {
        let env = StateEnv::new(st, d);
        let tol = &self.setup.tolerance;
        // Hypotheses: a state outside them is outside the claim.
        let mut pending = None;
        for g in &self.given {
            match truth(g, &env, None, None) {
                Ok(false) => return Ok(true),
                Ok(true) => {}
                Err(e) => pending = Some(e),
            }
        }
        let f = &self.links[link].formula;
        let claim = if self.per_bin {
            every_bin::truth_every_bin(d, f, &env, |fr| truth(f, &env, Some(fr), Some(tol)))
        } else {
            truth(f, &env, None, Some(tol))
        };
        match (claim, pending) {
            (Ok(true), _) => Ok(true),
            (Ok(false), None) => Ok(false),
            (Ok(false), Some(e)) | (Err(e), _) => Err(e),
        }
    }

    /// Both sides of each comparison of the link in the domain `d`, for reports: for a per-bin
    /// claim at the first bin where the domain finds the formula false (else at the tightest
    /// bin in floats). A formula of one comparison gives `lhs = …, rhs = …, slack = …`; one of
    /// several (`&&`, `||`, `!`) gives each comparison as written with its sides, slack and
    /// truth, so that the part that fails is shown.
    fn sides_in<D: Routes>(&self, link: usize, st: &State, d: &D) -> String {
        let env = StateEnv::new(st, d);
        let f = &self.links[link].formula;
        let tol = &self.setup.tolerance;
        let atoms = f.atoms();
        if atoms.is_empty() {
            return String::new();
        }
        let (frame, at) = if self.per_bin {
            let Some(bin) = self.reported_bin(link, st, d) else {
                return String::new();
            };
            match env.frame(d, bin, f.uses().frame_vars(0)) {
                Ok(fr) => (Some(fr), format!("at bin {}: ", bin + 1)),
                Err(_) => return String::new(),
            }
        } else {
            (None, String::new())
        };
        let sides = |a: &crate::lang::Expr, c: Cmp, b: &crate::lang::Expr| -> Option<String> {
            let x = a.eval(d, &env, frame.as_ref()).ok()?;
            let y = b.eval(d, &env, frame.as_ref()).ok()?;
            let slack = crate::lang::expr::slack(d, &x, c, &y, tol)
                .map(|s| format!(", slack = {}", d.show(&s)))
                .unwrap_or_default();
            Some(format!("lhs = {}, rhs = {}{slack}", d.show(&x), d.show(&y)))
        };
        if let [(a, c, b)] = atoms[..] {
            return sides(a, c, b)
                .map(|s| format!("{at}{s}"))
                .unwrap_or_default();
        }
        let texts = crate::lang::syntax::comparison_texts(&self.links[link].text)
            .filter(|t| t.len() == atoms.len());
        let parts: Vec<String> = atoms
            .iter()
            .enumerate()
            .map(|(k, &(a, c, b))| {
                let name = match &texts {
                    Some(t) => format!("`{}`", t[k]),
                    None => format!("comparison {}", k + 1),
                };
                let truth =
                    Formula::Cmp(a.clone(), c, b.clone()).truth(d, &env, frame.as_ref(), Some(tol));
                let truth = match truth {
                    Ok(true) => "true",
                    Ok(false) => "false",
                    Err(_) => "undecided",
                };
                match sides(a, c, b) {
                    Some(s) => format!("{name} is {truth} ({s})"),
                    None => format!("{name} is {truth}"),
                }
            })
            .collect();
        format!("{at}{}", parts.join("; "))
    }

    /// The sides and the slack of the link in exact rationals, when it is one comparison and
    /// every quantity is rational at the state (per bin: at the reported bin). The slack is the
    /// one [`crate::lang::expr::slack`] gives, plus the tolerance for `<`, `<=`, `>`, `>=`.
    pub(super) fn exact_sides(&self, link: usize, st: &State) -> Option<[Q; 3]> {
        let d = Exact;
        let f = &self.links[link].formula;
        let [(a, c, b)] = f.atoms()[..] else {
            return None;
        };
        let env = StateEnv::new(st, &d);
        let frame = if self.per_bin {
            let bin = self.reported_bin(link, st, &d)?;
            Some(env.frame(&d, bin, f.uses().frame_vars(0)).ok()?)
        } else {
            None
        };
        let x = a.eval(&d, &env, frame.as_ref()).ok()?;
        let y = b.eval(&d, &env, frame.as_ref()).ok()?;
        let tol = &self.setup.tolerance;
        let mut slack = crate::lang::expr::slack(&d, &x, c, &y, tol).ok()?;
        if matches!(c, Cmp::Le | Cmp::Lt | Cmp::Ge | Cmp::Gt) {
            slack += tol;
        }
        Some([x, y, slack])
    }

    /// The bin a per-bin report shows: the first where the formula is false in `d`, else the
    /// tightest in floats.
    fn reported_bin<D: Routes>(&self, link: usize, st: &State, d: &D) -> Option<usize> {
        let f = &self.links[link].formula;
        let tol = &self.setup.tolerance;
        let env = StateEnv::new(st, d);
        let fenv = StateEnv::new(st, &Float);
        every_bin::reported_bin(
            d,
            f,
            &env,
            |fr| f.truth(d, &env, Some(fr), Some(tol)),
            &fenv,
            tol,
        )
    }

    /// Certifies link `link` at the state: exact rationals, then exact exponential sums, then
    /// enclosures of rising precision.
    pub(super) fn certify(&self, link: usize, st: &State) -> Certification {
        self.certify_with(link, st, true)
    }

    /// [`Inequality::certify`]; `text`: whether to render both sides for the report (the
    /// search certifies many states and needs only the decision).
    pub(super) fn certify_with(&self, link: usize, st: &State, text: bool) -> Certification {
        crate::claim::engine::ladder::certify(
            &LinkAt {
                ineq: self,
                link,
                st,
            },
            text,
        )
    }
}

/// Link `link` of the claim at one state, for the certification ladder.
struct LinkAt<'a> {
    ineq: &'a Inequality,
    link: usize,
    st: &'a State<'a>,
}

impl crate::claim::engine::ladder::AtState for LinkAt<'_> {
    fn truth<D: Routes>(&self, d: &D) -> Eval<bool> {
        self.ineq.truth_in(self.link, self.st, d)
    }
    fn sides<D: Routes>(&self, d: &D) -> String {
        self.ineq.sides_in(self.link, self.st, d)
    }
}

impl Inequality {
    /// The ranges of the file's range constants at the case, with exact ends (an end that is
    /// not rational at the case, or an empty range, is an error naming the constant and n).
    pub(super) fn ranges_at(
        &self,
        case: &crate::claim::case::Case,
    ) -> crate::error::Result<Vec<RangeAt>> {
        let c = &self.setup.constants;
        let mut out = Vec::new();
        for (j, r) in c.ranges.iter().enumerate() {
            let Some(r) = r else { continue };
            let what = || {
                format!(
                    "constant `{}` = \"{}\" at n = {}",
                    c.names[j], r.text, case.n
                )
            };
            let end = |e: &crate::lang::Expr| {
                case.values.eval_over(c, &Exact, e).map_err(|err| {
                    crate::error::Error::invalid(
                        self.t.file_name(),
                        format!(
                            "{}: the ends of a range must be rational at every case ({err})",
                            what()
                        ),
                    )
                })
            };
            let (lo, hi) = (end(&r.lo)?, end(&r.hi)?);
            let empty = if r.lo_open || r.hi_open {
                lo >= hi
            } else {
                lo > hi
            };
            if empty {
                return Err(crate::error::Error::invalid(
                    self.t.file_name(),
                    format!("{}: the range is empty ({lo} to {hi})", what()),
                ));
            }
            out.push(RangeAt {
                j,
                name: c.names[j].clone(),
                lo,
                hi,
                lo_open: r.lo_open,
                hi_open: r.hi_open,
            });
        }
        Ok(out)
    }

    /// Decides link `link` at the state for every value of the range constants
    /// ([`crate::claim::range::decide_over`]): a box by enclosures at 128 bits (512 bits once
    /// it is narrower than 2⁻²⁰ of its range), a point by the certification ladder
    /// ([`Inequality::certify_with`]). The state's range values are restored afterwards.
    pub(super) fn decide_ranges(
        &self,
        link: usize,
        st: &State,
        ranges: &[RangeAt],
    ) -> Eval<BoxOutcome> {
        let narrow = |b: &[(usize, Q, Q)]| {
            b.iter().all(|(j, lo, hi)| {
                let r = ranges.iter().find(|r| r.j == *j).expect("a range");
                let w = &r.hi - &r.lo;
                w.is_zero() || (hi - lo) * Q::from_integer(crate::exact::Int::from(1u64 << 20)) <= w
            })
        };
        let out = decide_over(
            ranges,
            RANGE_BOXES,
            |b| {
                st.set_range(b);
                // Naive enclosures, then the mean-value form (the two sides of a comparison
                // move together with the range constants), then both at 512 bits.
                let bounds: Vec<(Q, Q)> = b
                    .iter()
                    .map(|(_, lo, hi)| (lo.clone(), hi.clone()))
                    .collect();
                let mut r = self.truth_in(link, st, &Enclosure { prec: 128 });
                for prec in [128, 512] {
                    // Any failure of the naive enclosures (an overlap, a parameter whose
                    // closed form needs it positive, an exponent beyond range) moves on.
                    if r.is_ok() || (prec > 128 && !narrow(b)) {
                        break;
                    }
                    let c = Centered::new(prec, &bounds);
                    r = self.truth_by(link, st, &c, &|f, env, fr, tol| {
                        centered_truth(&c, f, env, fr, tol)
                    });
                }
                // An enclosure that fails over a box (an exponent beyond the enclosure range,
                // `ln` of an enclosure reaching 0) decides nothing about it; the points of the
                // box are certified on their own.
                r.map_err(|e| match e {
                    EvalError::Unavailable(w) => EvalError::Unavailable(w),
                    other => EvalError::Undecided(other.to_string()),
                })
            },
            |p| {
                let b: Vec<(usize, Q, Q)> =
                    p.iter().map(|(j, v)| (*j, v.clone(), v.clone())).collect();
                st.set_range(&b);
                match self.certify_with(link, st, false) {
                    Certification::Decided { holds, .. } => Some(holds),
                    _ => None,
                }
            },
        );
        st.set_range(&[]);
        out
    }
}
