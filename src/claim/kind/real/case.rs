//! One case of a `real` claim (one grid combination of the constants): its names declared in
//! order (constants, variables with their exact ranges, substitutions `u = 1/x`, derived names),
//! the claim and its hypotheses compiled against them, the tolerance and the touching points,
//! assembled into the prover's [`Problem`].

use super::substitute::{substitute, substitute_formula};
use super::vars::{End, VarSpec};
use super::{Real, err};
use crate::claim::schema::FileError;
use crate::claim::setup::{CaseValues, error_in_string};
use crate::exact::Q;
use crate::lang::syntax::Node as AstNode;
use crate::lang::{Cmp, Enclosure, Expr, Formula, Resolved, Scope};
use crate::prover::{self, Problem, SlotDef, Var, boxes::q_show};
use num_traits::{One, Zero};
use std::collections::BTreeMap;
use std::sync::Arc;
use toml::Spanned;

/// A compile error's message, with the per-bin names of load-vector claims (`y`, `x`, `p`, …)
/// treated as the unknown names they are in a real claim.
fn real_message(e: &crate::lang::CompileError, known: &[(String, Resolved)]) -> String {
    if let Some(rest) = e.message.strip_prefix('`')
        && let Some((name, tail)) = rest.split_once('`')
        && tail.starts_with(" is a per-bin name")
    {
        let names: Vec<&str> = known.iter().map(|(n, _)| n.as_str()).collect();
        return format!(
            "unknown name `{name}` (known variables, derived names and constants: {})",
            names.join(", ")
        );
    }
    e.message.clone()
}

/// The names of a real claim: variables, substituted names, derived names and constants.
pub(super) struct RealScope<'a> {
    pub(super) names: &'a [(String, Resolved)],
}

impl Scope for RealScope<'_> {
    fn resolve(&self, name: &str) -> std::result::Result<Option<Resolved>, String> {
        Ok(self
            .names
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, r)| r.clone()))
    }
    fn known(&self) -> Vec<(String, Vec<String>)> {
        vec![(
            "variables, derived names and constants".into(),
            self.names.iter().map(|(n, _)| n.clone()).collect(),
        )]
    }
    fn has_process(&self) -> bool {
        false
    }
}

/// What a case of the claim is: the problem and the constants for reports.
pub(super) struct Case {
    /// The prover's problem.
    pub(super) problem: Problem,
    /// The constants as shown in reports (exact values, else their definitions).
    pub(super) constants: BTreeMap<String, String>,
    /// The constants' float values (for witnesses).
    pub(super) constants_f64: BTreeMap<String, f64>,
    /// The original name and the prover variable of each substitution.
    pub(super) substituted: Vec<(String, usize)>,
    /// The bounds by lemmas and the reduced claim, when the file derives the claim.
    pub(super) derivation: Option<prover::lemma::Derivation>,
}

impl Case {
    /// How reports name case `k` of `ncases`: "the claim" when it is the only one.
    pub(super) fn label(&self, k: usize, ncases: usize) -> String {
        if ncases > 1 {
            format!("case {} of {ncases} ({:?})", k + 1, self.constants)
        } else {
            "the claim".to_string()
        }
    }
}

/// The constants of a case as reports show them: exact values (else their definitions), and
/// their float values.
type Shown = (BTreeMap<String, String>, BTreeMap<String, f64>);

/// The names of a case as declared so far and the prover's slots and variables behind them.
struct Declared {
    names: Vec<(String, Resolved)>,
    slots: Vec<SlotDef>,
    vars: Vec<Var>,
    /// Per substitution `u = 1/x`: `x`, the slot standing for `x` until the rewrite, the slot of
    /// `u`.
    substituted: Vec<(String, usize, usize)>,
}

impl Declared {
    fn scope(&self) -> RealScope<'_> {
        RealScope { names: &self.names }
    }

    /// `e` with every substituted name replaced by `1/u`.
    fn rewrite(&self, e: Expr) -> Expr {
        self.substituted
            .iter()
            .fold(e, |e, (_, from, u)| substitute(&e, *from, *u))
    }

    /// [`Declared::rewrite`] in a formula.
    fn rewrite_formula(&self, f: Formula) -> Formula {
        self.substituted
            .iter()
            .fold(f, |f, (_, from, u)| substitute_formula(&f, *from, *u))
    }

    /// The prover variable of the variable slot `slot`.
    fn var_of_slot(&self, slot: usize) -> usize {
        match &self.slots[slot] {
            SlotDef::Var(i) => *i,
            _ => unreachable!("a substituted variable is a variable slot"),
        }
    }
}

/// Refuses sums over bins and process functions in `what` (at byte `at`): a real claim has no
/// load vector.
fn check_uses(
    t: &crate::claim::schema::Theorem,
    u: crate::lang::Uses,
    at: usize,
    what: &str,
) -> std::result::Result<(), FileError> {
    if u.binders || u.proc_funcs || !u.bin_vars.is_empty() {
        return Err(error_in_string(
            t,
            at,
            0,
            format!(
                "{what}: sums over bins and process functions need a load vector; a real claim has none"
            ),
        ));
    }
    Ok(())
}

/// The text of a touching point's value (a string or a number).
fn touching_text(
    t: &crate::claim::schema::Theorem,
    val: &Spanned<toml::Value>,
) -> std::result::Result<String, FileError> {
    match val.get_ref() {
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Float(f) if f.is_finite() => Ok(format!("{f:e}")),
        other => Err(err(
            t,
            val.span().start,
            format!("touching point: `{other}` is not a number"),
        )),
    }
}

impl Real {
    /// An exact end of a range (an expression in the constants).
    fn end_value(
        &self,
        v: &VarSpec,
        text: &str,
        at: usize,
        scope: &RealScope,
        which: &str,
    ) -> std::result::Result<Q, FileError> {
        let t = &self.t;
        let wrap = |o: usize, m: String| {
            if at == usize::MAX {
                err(t, v.at, format!("variable `{}`, {which} end: {m}", v.name))
            } else {
                error_in_string(
                    t,
                    v.text_at,
                    at + o,
                    format!("variable `{}`, {which} end: {m}", v.name),
                )
            }
        };
        let ast = crate::lang::parse(text).map_err(|e| wrap(e.at, e.message))?;
        let e = crate::lang::compile_expr(&ast, scope, false).map_err(|e| wrap(e.at, e.message))?;
        if !e.uses().slots.is_empty() {
            return Err(wrap(0, "the ends of a range are numbers or expressions in the constants, not in the variables".into()));
        }
        e.as_constant().ok_or_else(|| {
            wrap(
                0,
                format!(
                    "`{}` is not an exact rational number (ends must be rational)",
                    text.trim()
                ),
            )
        })
    }

    /// The problem of one grid combination of the constants (with `overrides` from the
    /// constant finder).
    pub(super) fn problem(
        &self,
        pick: &[usize],
        overrides: &[(usize, Q)],
    ) -> std::result::Result<Case, FileError> {
        let (mut d, (shown, shown_f64)) = self.declare_constants(pick, overrides)?;
        self.declare_vars(&mut d)?;
        self.declare_lets(&mut d)?;
        let (lhs, cmp, rhs) = self.compile_claim(&d, &self.claim.expr, "claim")?;
        let given = self.compile_given(&d)?;
        let tol = self.tolerance()?;
        let touching = self.touching_points(&d)?;
        let substituted = d
            .substituted
            .iter()
            .map(|(n, _, u)| (n.clone(), d.var_of_slot(*u)))
            .collect();
        let (lhs, rhs) = (d.rewrite(lhs), d.rewrite(rhs));
        let parts = self.derivation_parts(&d)?;
        let problem = Problem {
            vars: d.vars,
            slots: d.slots,
            lhs,
            rhs,
            cmp,
            tol,
            given,
            touching,
            text: self.claim.expr.get_ref().clone(),
        };
        let derivation = parts.map(|(bounds, reduced)| {
            let reduced = match reduced {
                Some((l, c, r, text)) => Problem {
                    lhs: l,
                    rhs: r,
                    cmp: c,
                    text,
                    ..problem.clone()
                },
                // The claim with every bound applied, as it is (the identity is then plain).
                None => prover::lemma::with_bounds(&problem, &bounds),
            };
            prover::lemma::Derivation { bounds, reduced }
        });
        Ok(Case {
            problem,
            constants: shown,
            constants_f64: shown_f64,
            substituted,
            derivation,
        })
    }

    /// The bounds of `[[claim.bound]]` and the reduced claim `reduced` (its sides, comparison and
    /// text), compiled against the names of the case; `None` when the file has neither.
    #[allow(clippy::type_complexity)]
    fn derivation_parts(
        &self,
        d: &Declared,
    ) -> std::result::Result<
        Option<(Vec<prover::lemma::Bound>, Option<(Expr, Cmp, Expr, String)>)>,
        FileError,
    > {
        if self.claim.bound.is_empty() && self.claim.reduced.is_none() {
            return Ok(None);
        }
        let mut bounds = Vec::new();
        for (b, (id, lemma)) in self.claim.bound.iter().zip(&self.lemmas) {
            let b = b.get_ref();
            let value = |s: &Spanned<String>, what: &str| self.compile_one(d, s, what);
            let mut at = Vec::new();
            for v in &lemma.vars {
                let Some(e) = b.at.get(&v.name) else {
                    return Err(err(
                        &self.t,
                        b.lemma.span().start,
                        format!(
                            "bound with lemma `{id}`: `at` gives no value for its variable `{}`",
                            v.name
                        ),
                    ));
                };
                at.push(value(e, &format!("bound at {}", v.name))?);
            }
            if let Some((name, e)) =
                b.at.iter()
                    .find(|(n, _)| !lemma.vars.iter().any(|v| &v.name == *n))
            {
                return Err(err(
                    &self.t,
                    e.span().start,
                    format!("bound with lemma `{id}`: the lemma has no variable `{name}`"),
                ));
            }
            bounds.push(prover::lemma::Bound {
                lemma_id: id.clone(),
                lemma: lemma.clone(),
                at,
                term: value(&b.term, "bound term")?,
                by: value(&b.by, "bound by")?,
                term_text: b.term.get_ref().clone(),
                by_text: b.by.get_ref().clone(),
            });
        }
        let reduced = match &self.claim.reduced {
            None => None,
            Some(r) => {
                let (l, c, rr) = self.compile_claim(d, r, "reduced")?;
                Some((d.rewrite(l), c, d.rewrite(rr), r.get_ref().clone()))
            }
        };
        Ok(Some((bounds, reduced)))
    }

    /// One expression (`what` at `s`) compiled against the names of the case, rewritten.
    fn compile_one(
        &self,
        d: &Declared,
        s: &Spanned<String>,
        what: &str,
    ) -> std::result::Result<Expr, FileError> {
        let t = &self.t;
        let at = s.span().start;
        let ast = crate::lang::parse(s.get_ref())
            .map_err(|e| error_in_string(t, at, e.at, format!("{what}: {}", e.message)))?;
        let e = crate::lang::compile_expr(&ast, &d.scope(), false).map_err(|e| {
            error_in_string(
                t,
                at,
                e.at,
                format!("{what}: {}", real_message(&e, &d.names)),
            )
        })?;
        check_uses(t, e.uses(), at, what)?;
        Ok(d.rewrite(e))
    }

    /// The constants of the case, first among the names: values inlined when exact, else a slot
    /// with their enclosure at any precision.
    fn declare_constants(
        &self,
        pick: &[usize],
        overrides: &[(usize, Q)],
    ) -> std::result::Result<(Declared, Shown), FileError> {
        let consts = self
            .constants
            .evaluate(&self.t, 2, Some(1), pick, overrides)?;
        let cv = Arc::new(CaseValues {
            n: 2,
            b: 1,
            pick: pick.to_vec(),
            consts,
        });
        let cdefs = Arc::new(self.constants.clone());
        let mut d = Declared {
            names: Vec::new(),
            slots: Vec::new(),
            vars: Vec::new(),
            substituted: Vec::new(),
        };
        let mut shown = BTreeMap::new();
        let mut shown_f64 = BTreeMap::new();
        for (j, name) in self.constants.names.iter().enumerate() {
            shown_f64.insert(name.clone(), cv.float(j));
            match &cv.consts[j].exact {
                Some(q) => {
                    shown.insert(name.clone(), q.to_string());
                    d.names.push((name.clone(), Resolved::Value(q.clone())));
                }
                None => {
                    let def = &self.constants.defs[j][pick[j]].text;
                    shown.insert(name.clone(), def.clone());
                    let (cv, cdefs) = (cv.clone(), cdefs.clone());
                    let f: prover::ConstFn = Arc::new(move |prec| {
                        cv.constant(&cdefs, &Enclosure { prec }, j)
                            .map_err(|e| e.to_string())
                    });
                    d.names.push((name.clone(), Resolved::Slot(d.slots.len())));
                    d.slots.push(SlotDef::Const(f));
                }
            }
        }
        Ok((d, (shown, shown_f64)))
    }

    /// The variables with their exact ranges (ends evaluated in the constants), in the order of
    /// `[vars]`.
    fn declare_vars(&self, d: &mut Declared) -> std::result::Result<(), FileError> {
        let const_names = d.names.clone();
        let const_scope = RealScope {
            names: &const_names,
        };
        for v in &self.vars {
            let (lo, hi) = self.var_ends(v, &const_scope)?;
            match &v.subst {
                None => self.declare_var(d, v, lo, hi)?,
                Some(u) => self.declare_substituted(d, v, u, lo, hi)?,
            }
        }
        Ok(())
    }

    /// The ends of the range of `v` (`None`: infinite), refusing an empty range.
    fn var_ends(
        &self,
        v: &VarSpec,
        const_scope: &RealScope,
    ) -> std::result::Result<(Option<Q>, Option<Q>), FileError> {
        let t = &self.t;
        let lo = match &v.lo {
            End::Finite(s, at) => Some(self.end_value(v, s, *at, const_scope, "lower")?),
            End::NegInf => None,
            End::PosInf => {
                return Err(err(
                    t,
                    v.at,
                    format!("variable `{}`: the lower end is +inf", v.name),
                ));
            }
        };
        let hi = match &v.hi {
            End::Finite(s, at) => Some(self.end_value(v, s, *at, const_scope, "upper")?),
            End::PosInf => None,
            End::NegInf => {
                return Err(err(
                    t,
                    v.at,
                    format!("variable `{}`: the upper end is -inf", v.name),
                ));
            }
        };
        if let (Some(a), Some(b)) = (&lo, &hi) {
            let empty = a > b || (a == b && (v.lo_open || v.hi_open));
            if empty {
                return Err(err(
                    t,
                    v.at,
                    format!(
                        "variable `{}`: the range is empty (lower end {} > upper end {}, or equal with an open end)",
                        v.name,
                        q_show(a),
                        q_show(b)
                    ),
                ));
            }
        }
        Ok((lo, hi))
    }

    /// A variable on a bounded range: a prover variable of its own.
    fn declare_var(
        &self,
        d: &mut Declared,
        v: &VarSpec,
        lo: Option<Q>,
        hi: Option<Q>,
    ) -> std::result::Result<(), FileError> {
        let (Some(lo), Some(hi)) = (lo, hi) else {
            return Err(err(
                &self.t,
                v.at,
                format!(
                    "variable `{}` has an unbounded range; give a substitution, e.g. {} = {{ range = \"[1, inf)\", substitute = \"u = 1/{}\" }}",
                    v.name, v.name, v.name
                ),
            ));
        };
        d.names
            .push((v.name.clone(), Resolved::Slot(d.slots.len())));
        d.slots.push(SlotDef::Var(d.vars.len()));
        d.vars.push(Var {
            name: v.name.clone(),
            lo,
            hi,
            lo_open: v.lo_open,
            hi_open: v.hi_open,
        });
        Ok(())
    }

    /// A variable under `u = 1/x`: the prover variable `u` on the image of the range (`[a, b]`
    /// on one side of 0 goes to `[1/b, 1/a]`, an infinite end to 0, open), and `x` a slot
    /// rewritten to `1/u` after compilation.
    fn declare_substituted(
        &self,
        d: &mut Declared,
        v: &VarSpec,
        u: &String,
        lo: Option<Q>,
        hi: Option<Q>,
    ) -> std::result::Result<(), FileError> {
        let t = &self.t;
        let zero = Q::zero();
        let positive = lo.as_ref().is_some_and(|a| *a > zero);
        let negative = hi.as_ref().is_some_and(|b| *b < zero);
        if !positive && !negative {
            return Err(err(
                t,
                v.at,
                format!(
                    "variable `{}`: `{u} = 1/{}` needs a range on one side of 0 (0 excluded)",
                    v.name, v.name
                ),
            ));
        }
        let inv = |x: &Option<Q>| x.as_ref().map_or(Q::zero(), |q| Q::one() / q);
        let (ulo, uhi) = (inv(&hi), inv(&lo));
        let ulo_open = if hi.is_none() { true } else { v.hi_open };
        let uhi_open = if lo.is_none() { true } else { v.lo_open };
        if self.constants.index(u).is_some() || self.vars.iter().any(|w| w.name == *u) {
            return Err(err(
                t,
                v.at,
                format!("variable `{}`: the name `{u}` is taken", v.name),
            ));
        }
        let uslot = d.slots.len();
        d.names.push((u.clone(), Resolved::Slot(uslot)));
        d.slots.push(SlotDef::Var(d.vars.len()));
        // The original name: a slot that is rewritten to 1/u after compilation.
        let nslot = usize::MAX - d.substituted.len();
        d.names.push((v.name.clone(), Resolved::Slot(nslot)));
        d.substituted.push((v.name.clone(), nslot, uslot));
        d.vars.push(Var {
            name: u.clone(),
            lo: ulo,
            hi: uhi,
            lo_open: ulo_open,
            hi_open: uhi_open,
        });
        Ok(())
    }

    /// The derived names of `let`, in an order where each reads only earlier ones.
    fn declare_lets(&self, d: &mut Declared) -> std::result::Result<(), FileError> {
        let t = &self.t;
        let mut pending: Vec<(&String, &Spanned<String>)> = self.claim.lets.iter().collect();
        for (name, v) in &pending {
            if crate::lang::expr::is_function_name(name, false) {
                return Err(err(
                    t,
                    v.span().start,
                    format!(
                        "derived name `{name}` is named like a function of the language (`{name}(...)`); choose another name"
                    ),
                ));
            }
            if d.names.iter().any(|(n, _)| n == *name) {
                return Err(err(
                    t,
                    v.span().start,
                    format!("derived name `{name}` is already a variable or constant"),
                ));
            }
        }
        while !pending.is_empty() {
            let before = pending.len();
            let mut k = 0;
            while k < pending.len() {
                if self.declare_let(d, &pending, k)? {
                    pending.remove(k);
                } else {
                    k += 1;
                }
            }
            if pending.len() == before {
                let (name, v) = pending[0];
                return Err(err(
                    t,
                    v.span().start,
                    format!("derived name `{name}` depends on itself through other derived names"),
                ));
            }
        }
        Ok(())
    }

    /// Declares `pending[k]` when it compiles; `false` when it reads another pending name (it
    /// waits for it), an error for any other compile error.
    fn declare_let(
        &self,
        d: &mut Declared,
        pending: &[(&String, &Spanned<String>)],
        k: usize,
    ) -> std::result::Result<bool, FileError> {
        let t = &self.t;
        let (name, v) = pending[k];
        let ast = crate::lang::parse(v.get_ref()).map_err(|e| {
            error_in_string(
                t,
                v.span().start,
                e.at,
                format!("let `{name}`: {}", e.message),
            )
        })?;
        let compiled = crate::lang::compile_expr(&ast, &d.scope(), false);
        match compiled {
            Ok(e) => {
                check_uses(t, e.uses(), v.span().start, &format!("let `{name}`"))?;
                d.names.push((name.clone(), Resolved::Slot(d.slots.len())));
                let e = d.rewrite(e);
                d.slots.push(SlotDef::Let(e));
                Ok(true)
            }
            Err(e) => {
                let other_let = pending
                    .iter()
                    .any(|(n, _)| e.message.contains(&format!("`{n}`")));
                if !other_let {
                    return Err(error_in_string(
                        t,
                        v.span().start,
                        e.at,
                        format!("let `{name}`: {}", real_message(&e, &d.names)),
                    ));
                }
                Ok(false)
            }
        }
    }

    /// The claim: one comparison `lhs cmp rhs` (before the substitutions' rewrite).
    fn compile_claim(
        &self,
        d: &Declared,
        ce: &Spanned<String>,
        what: &str,
    ) -> std::result::Result<(Expr, Cmp, Expr), FileError> {
        let t = &self.t;
        let scope = d.scope();
        let at = ce.span().start;
        let ast = crate::lang::parse(ce.get_ref())
            .map_err(|e| error_in_string(t, at, e.at, format!("{what}: {}", e.message)))?;
        let (l, cmp, r) = match &ast.node {
            AstNode::Cmp(l, c @ (Cmp::Le | Cmp::Lt | Cmp::Ge | Cmp::Gt), r) => (l, *c, r),
            _ => {
                return Err(error_in_string(
                    t,
                    at,
                    0,
                    format!(
                        "{what}: kind `real` proves one comparison `lhs <= rhs` (or <, >=, >); state a chain or a conjunction as separate files"
                    ),
                ));
            }
        };
        let comp = |a: &crate::lang::Ast| {
            crate::lang::compile_expr(a, &scope, false).map_err(|e| {
                error_in_string(
                    t,
                    at,
                    e.at,
                    format!("{what}: {}", real_message(&e, &d.names)),
                )
            })
        };
        let (lhs, rhs) = (comp(l)?, comp(r)?);
        check_uses(t, lhs.uses(), at, what)?;
        check_uses(t, rhs.uses(), at, what)?;
        Ok((lhs, cmp, rhs))
    }

    /// The hypotheses of `given`, rewritten.
    fn compile_given(&self, d: &Declared) -> std::result::Result<Vec<Formula>, FileError> {
        let t = &self.t;
        let scope = d.scope();
        let mut given = Vec::new();
        for g in &self.claim.given {
            let gat = g.span().start;
            let ast = crate::lang::parse(g.get_ref())
                .map_err(|e| error_in_string(t, gat, e.at, format!("given: {}", e.message)))?;
            let f = crate::lang::compile_formula(&ast, &scope, false).map_err(|e| {
                error_in_string(
                    t,
                    gat,
                    e.at,
                    format!("given: {}", real_message(&e, &d.names)),
                )
            })?;
            check_uses(t, f.uses(), gat, "given")?;
            given.push(d.rewrite_formula(f));
        }
        Ok(given)
    }

    /// The file's tolerance, exact (0 when not given).
    fn tolerance(&self) -> std::result::Result<Q, FileError> {
        let t = &self.t;
        if t.file.tolerance == 0.0 {
            Ok(Q::zero())
        } else if t.file.tolerance.is_finite() && t.file.tolerance > 0.0 {
            Ok(crate::spec::parse_ratio(&format!("{:e}", t.file.tolerance))
                .unwrap_or_else(|_| Q::zero()))
        } else {
            Err(t.error_at(
                None,
                format!(
                    "tolerance must be a finite number ≥ 0, got {}",
                    t.file.tolerance
                ),
            ))
        }
    }

    /// The touching points, each a point of the prover's variables inside their ranges.
    fn touching_points(&self, d: &Declared) -> std::result::Result<Vec<Vec<Q>>, FileError> {
        let mut touching = Vec::new();
        for tp in &self.claim.touching {
            let mut x: Vec<Option<Q>> = vec![None; d.vars.len()];
            for (name, val) in tp.get_ref() {
                let (idx, q) = self.touching_coordinate(d, name, val)?;
                x[idx] = Some(q);
            }
            touching.push(self.touching_point(d, tp.span().start, x)?);
        }
        Ok(touching)
    }

    /// One coordinate `name = val` of a touching point: the prover variable and its exact
    /// value (`1/val` for a substituted name).
    fn touching_coordinate(
        &self,
        d: &Declared,
        name: &String,
        val: &Spanned<toml::Value>,
    ) -> std::result::Result<(usize, Q), FileError> {
        let t = &self.t;
        let text = touching_text(t, val)?;
        let vat = val.span().start;
        let ast = crate::lang::parse(&text)
            .map_err(|e| err(t, vat, format!("touching point `{name}`: {}", e.message)))?;
        let e = crate::lang::compile_expr(
            &ast,
            &RealScope {
                names: &d.names[..self.constants.names.len()],
            },
            false,
        )
        .map_err(|e| err(t, vat, format!("touching point `{name}`: {}", e.message)))?;
        let q = e.as_constant().ok_or_else(|| {
            err(
                t,
                vat,
                format!("touching point `{name}`: not an exact rational number"),
            )
        })?;
        if let Some(i) = d.vars.iter().position(|v| v.name == *name) {
            Ok((i, q))
        } else if let Some((_, _, u)) = d.substituted.iter().find(|(n, _, _)| n == name) {
            let i = d.var_of_slot(*u);
            if q.is_zero() {
                return Err(err(
                    t,
                    vat,
                    format!("touching point `{name}` = 0 has no 1/{name}"),
                ));
            }
            Ok((i, Q::one() / q))
        } else {
            Err(err(
                t,
                vat,
                format!("touching point: `{name}` is not a variable"),
            ))
        }
    }

    /// A touching point from its coordinates (at byte `tat`): every variable given, inside its
    /// range.
    fn touching_point(
        &self,
        d: &Declared,
        tat: usize,
        x: Vec<Option<Q>>,
    ) -> std::result::Result<Vec<Q>, FileError> {
        let t = &self.t;
        let vars = &d.vars;
        let mut point = Vec::new();
        for (i, q) in x.into_iter().enumerate() {
            let q = q.ok_or_else(|| {
                err(
                    t,
                    tat,
                    format!("touching point: no value for variable `{}`", vars[i].name),
                )
            })?;
            if q < vars[i].lo || q > vars[i].hi {
                return Err(err(
                    t,
                    tat,
                    format!(
                        "touching point: `{}` = {} is outside its range",
                        vars[i].name,
                        q_show(&q)
                    ),
                ));
            }
            point.push(q);
        }
        Ok(point)
    }
}
