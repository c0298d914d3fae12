//! Evaluating a link of the claim at one state: in floats (the deciding comparison, its slack
//! and magnitude) and in the certified domains (exact rationals, exact exponential sums,
//! enclosures at 64, 128, …, 4096 bits).

use super::Inequality;
use crate::claim::XFloat;
use crate::claim::routes::Routes;
use crate::claim::state::{State, StateEnv};
use crate::claim::trust::Certification;
use crate::claim::verdict::Trust;
use crate::enclosure::Precisions;
use crate::exact::Q;
use crate::lang::{
    Approx, Cmp, Domain, Enclosure, Env, Eval, EvalError, Exact, ExpSums, Float, Formula, Frame,
    ToApprox, eval_float,
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
}

impl Atom {
    /// The numerical resolution: the tolerance plus 10⁻¹¹ of the magnitude of the terms the two
    /// sides were computed from.
    pub fn resolution(&self, tol: f64) -> XFloat {
        let m = self.lhs.m.max(self.rhs.m).max(self.slack.m);
        XFloat::from_f64(tol).add(XFloat::from_f64(1e-11).mul(m))
    }
}

fn atom_of(c: Cmp, a: Approx, b: Approx, tol: &Q) -> Eval<Atom> {
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
    })
}

fn float_formula<D: ToApprox>(
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
        let vars = f.uses().frame_vars(0);
        let mut worst: Option<Atom> = None;
        for bin in 0..st.n() {
            let fr = env.frame(d, bin, vars)?;
            let a = float_formula(d, f, &env, Some(&fr), tol)?;
            let replace = match &worst {
                None => true,
                Some(w) => (w.holds && !a.holds) || (w.holds == a.holds && a.slack.v < w.slack.v),
            };
            if replace {
                worst = Some(a);
            }
        }
        worst.ok_or_else(|| EvalError::Undefined("no bins".into()))
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
        let env = StateEnv::new(st, d);
        let tol = &self.setup.tolerance;
        // Hypotheses: a state outside them is outside the claim.
        let mut pending = None;
        for g in &self.given {
            match g.truth(d, &env, None, None) {
                Ok(false) => return Ok(true),
                Ok(true) => {}
                Err(e) => pending = Some(e),
            }
        }
        let f = &self.links[link].formula;
        let claim = if self.per_bin {
            let vars = f.uses().frame_vars(0);
            let mut undecided = None;
            let mut all = true;
            for bin in 0..st.n() {
                let fr = env.frame(d, bin, vars)?;
                match f.truth(d, &env, Some(&fr), Some(tol)) {
                    Ok(false) => {
                        all = false;
                        break;
                    }
                    Ok(true) => {}
                    Err(e) => undecided = Some(e),
                }
            }
            match (all, undecided) {
                (false, _) => Ok(false),
                (true, None) => Ok(true),
                (true, Some(e)) => Err(e),
            }
        } else {
            f.truth(d, &env, None, Some(tol))
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
        let vars = f.uses().frame_vars(0);
        let tol = &self.setup.tolerance;
        let env = StateEnv::new(st, d);
        for bin in 0..st.n() {
            let fr = env.frame(d, bin, vars).ok()?;
            if matches!(f.truth(d, &env, Some(&fr), Some(tol)), Ok(false)) {
                return Some(bin);
            }
        }
        let fenv = StateEnv::new(st, &Float);
        let mut best: Option<(usize, Atom)> = None;
        for bin in 0..st.n() {
            let fr = fenv.frame(&Float, bin, vars).ok()?;
            if let Ok(x) = float_formula(&Float, f, &fenv, Some(&fr), tol)
                && best.as_ref().is_none_or(|(_, w)| x.slack.v < w.slack.v)
            {
                best = Some((bin, x));
            }
        }
        best.map(|(bin, _)| bin)
    }

    /// Certifies link `link` at the state: exact rationals, then exact exponential sums, then
    /// enclosures of rising precision.
    pub(super) fn certify(&self, link: usize, st: &State) -> Certification {
        self.certify_with(link, st, true)
    }

    /// [`Inequality::certify`]; `text`: whether to render both sides for the report (the
    /// search certifies many states and needs only the decision).
    pub(super) fn certify_with(&self, link: usize, st: &State, text: bool) -> Certification {
        let sides = |d: &dyn Fn() -> String| if text { d() } else { String::new() };
        match self.truth_in(link, st, &Exact) {
            Ok(holds) => {
                return Certification::Decided {
                    holds,
                    trust: Trust::Exact,
                    bits: None,
                    text: format!(
                        "exact rationals: {}",
                        sides(&|| self.sides_in(link, st, &Exact))
                    ),
                };
            }
            Err(EvalError::Error(e)) => return Certification::NoRoute(e.to_string()),
            Err(_) => {}
        }
        let sums = ExpSums::default();
        match self.truth_in(link, st, &sums) {
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
                        sides(&|| self.sides_in(link, st, &ExpSums::default()))
                    ),
                };
            }
            Err(EvalError::Error(e)) => return Certification::NoRoute(e.to_string()),
            Err(_) => {}
        }
        let mut last: Option<(u64, String)> = None;
        for prec in Precisions::default().steps() {
            let d = Enclosure { prec };
            match self.truth_in(link, st, &d) {
                Ok(holds) => {
                    return Certification::Decided {
                        holds,
                        trust: Trust::Enclosure,
                        bits: Some(prec),
                        text: format!(
                            "enclosures at {prec} bits (outward rounding): {}",
                            sides(&|| self.sides_in(link, st, &d))
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
}
