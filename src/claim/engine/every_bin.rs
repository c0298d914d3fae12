//! A claim at every bin, `forall_bins = "F"`: the formula `∀ b ∈ {1, …, n}: F(b)`, where `F`
//! reads the bin's own per-bin names (`y`, `x`, `rank`, `i`, and whatever else the setting
//! offers per bin) through the setting's frame ([`Env::frame`]), and a binder nested in `F`
//! reads them by their bare names (`count(j: x[j] > x)`). One implementation for every setting
//! whose states have bins (load vectors, md states); the graph kind's vertices are the same
//! quantifier (`over = "vertices"`).
//!
//! In floats the claim is decided by its worst bin: the first bin where `F` fails, the one of
//! smallest slack among them ([`float_every_bin`]). In a certified domain it is false at the
//! first bin where `F` is false, undecided when no bin is false and some bin is undecided, and
//! true otherwise ([`truth_every_bin`]).

use crate::exact::Q;
use crate::lang::{Domain, Env, Eval, EvalError, Float, Formula, Frame, ToApprox};

use super::float::{Atom, float_formula};

/// The float comparison that decides `∀ b: F(b)`: over the bins, a failing bin before a holding
/// one, and the smaller slack between two of the same kind. An error of one bin is the claim's.
///
/// ```
/// use balloc::claim::engine::every_bin::float_every_bin;
/// use balloc::lang::Float;
/// use balloc::exact::Q;
/// use balloc::lang::{compile_formula, parse, BinVar, BinVars, Domain, Env, Eval, EvalError, Frame, Resolved, Scope};
/// // A state known only by its per-bin `y`, and a scope with no names of its own.
/// struct Ys(Vec<i64>);
/// impl<D: Domain> Env<D> for Ys {
///     fn slot(&self, _: &D, s: usize) -> Eval<D::N> { Err(EvalError::Undefined(format!("slot {s}"))) }
///     fn bins(&self) -> usize { self.0.len() }
///     fn frame(&self, d: &D, bin: usize, _: BinVars) -> Eval<Frame<D::N>> {
///         let mut f = Frame::default();
///         f.set(BinVar::Y, d.rational(&Q::from_integer(self.0[bin].into()))?);
///         Ok(f)
///     }
/// }
/// struct NoNames;
/// impl Scope for NoNames {
///     fn resolve(&self, _: &str) -> Result<Option<Resolved>, String> { Ok(None) }
///     fn known(&self) -> Vec<(String, Vec<String>)> { vec![] }
/// }
/// let per_bin = |text: &str| compile_formula(&parse(text).unwrap(), &NoNames, true).unwrap();
/// // y ≤ 1 at y = (2, 0, −1, −1): bin 1 fails, by 1 − 2 = −1.
/// let a = float_every_bin(&Float, &per_bin("y <= 1"), &Ys(vec![2, 0, -1, -1]), &Q::from_integer(0.into())).unwrap();
/// assert!(!a.holds);
/// assert_eq!(a.slack.v.to_f64(), -1.0);
/// // y ≤ 3 holds at every bin; the tightest is bin 1, slack 3 − 2 = 1.
/// let a = float_every_bin(&Float, &per_bin("y <= 3"), &Ys(vec![2, 0, -1, -1]), &Q::from_integer(0.into())).unwrap();
/// assert_eq!((a.holds, a.slack.v.to_f64()), (true, 1.0));
/// ```
pub fn float_every_bin<D: ToApprox>(d: &D, f: &Formula, env: &dyn Env<D>, tol: &Q) -> Eval<Atom> {
    let vars = f.uses().frame_vars(0);
    let mut worst: Option<Atom> = None;
    for bin in 0..env.bins() {
        let fr = env.frame(d, bin, vars)?;
        let a = float_formula(d, f, env, Some(&fr), tol)?;
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

/// The truth of `∀ b: F(b)` in the domain `d`, each bin's `F` decided by `truth` at the bin's
/// frame: false at the first bin where it is false; else the error of an undecided bin, if any;
/// else true.
///
/// ```
/// use balloc::claim::engine::every_bin::truth_every_bin;
/// use balloc::lang::Exact;
/// use balloc::exact::Q;
/// use balloc::lang::{compile_formula, parse, BinVar, BinVars, Domain, Env, Eval, EvalError, Frame, Resolved, Scope};
/// // A state known only by its per-bin `y`, and a scope with no names of its own.
/// struct Ys(Vec<i64>);
/// impl<D: Domain> Env<D> for Ys {
///     fn slot(&self, _: &D, s: usize) -> Eval<D::N> { Err(EvalError::Undefined(format!("slot {s}"))) }
///     fn bins(&self) -> usize { self.0.len() }
///     fn frame(&self, d: &D, bin: usize, _: BinVars) -> Eval<Frame<D::N>> {
///         let mut f = Frame::default();
///         f.set(BinVar::Y, d.rational(&Q::from_integer(self.0[bin].into()))?);
///         Ok(f)
///     }
/// }
/// struct NoNames;
/// impl Scope for NoNames {
///     fn resolve(&self, _: &str) -> Result<Option<Resolved>, String> { Ok(None) }
///     fn known(&self) -> Vec<(String, Vec<String>)> { vec![] }
/// }
/// let per_bin = |text: &str| compile_formula(&parse(text).unwrap(), &NoNames, true).unwrap();
/// // At y = (1, −1): y ≤ 1 at both bins; y < 1 not at bin 1.
/// let env = Ys(vec![1, -1]);
/// let at_all = |text: &str| {
///     let f = per_bin(text);
///     truth_every_bin(&Exact, &f, &env, |fr| f.truth(&Exact, &env, Some(fr), None)).unwrap()
/// };
/// assert!(at_all("y <= 1"));
/// assert!(!at_all("y < 1"));
/// ```
pub fn truth_every_bin<D: Domain>(
    d: &D,
    f: &Formula,
    env: &dyn Env<D>,
    mut truth: impl FnMut(&Frame<D::N>) -> Eval<bool>,
) -> Eval<bool> {
    let vars = f.uses().frame_vars(0);
    let mut undecided = None;
    for bin in 0..env.bins() {
        let fr = env.frame(d, bin, vars)?;
        match truth(&fr) {
            Ok(false) => return Ok(false),
            Ok(true) => {}
            Err(e) => undecided = Some(e),
        }
    }
    match undecided {
        None => Ok(true),
        Some(e) => Err(e),
    }
}

/// The bin (0-based) a report of `∀ b: F(b)` shows: the first where `F` is false in `d`
/// (decided by `truth` at the bin's frame), else the tightest bin in floats (`float_env`, the
/// same state in floats; `tol` the float comparisons' tolerance). `None` when a frame cannot be
/// built.
pub fn reported_bin<D: Domain>(
    d: &D,
    f: &Formula,
    env: &dyn Env<D>,
    mut truth: impl FnMut(&Frame<D::N>) -> Eval<bool>,
    float_env: &dyn Env<Float>,
    tol: &Q,
) -> Option<usize> {
    let vars = f.uses().frame_vars(0);
    for bin in 0..env.bins() {
        let fr = env.frame(d, bin, vars).ok()?;
        if matches!(truth(&fr), Ok(false)) {
            return Some(bin);
        }
    }
    let mut best: Option<(usize, Atom)> = None;
    for bin in 0..float_env.bins() {
        let fr = float_env.frame(&Float, bin, vars).ok()?;
        if let Ok(x) = float_formula(&Float, f, float_env, Some(&fr), tol)
            && best.as_ref().is_none_or(|(_, w)| x.slack.v < w.slack.v)
        {
            best = Some((bin, x));
        }
    }
    best.map(|(b, _)| b)
}
