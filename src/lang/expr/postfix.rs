//! The body and predicate of a binder over the bins in postfix form.
//!
//! `sum(f, pred)` (and `max_bins`, `min_bins`) evaluates `f` and `pred` at every bin (class of
//! tied bins). The tree walk of [`Expr::eval`] pays, at every node of every bin, a call, a match
//! and the propagation of a `Result`, and it evaluates again at every bin the subtrees that read
//! no per-bin name (`1/n`, `delta*n`, a constant, a binder over the dimensions that reads none).
//! Here the two trees are flattened once, when the binder is built, into one sequence of
//! operations on a stack of numbers and a stack of truth values; each largest subtree that reads
//! no per-bin name of this binder becomes one constant of the program, evaluated (by the tree
//! walk, with the enclosing frame) the first time a run reaches it and kept for the other bins.
//!
//! It is the same evaluation, in every domain: every operation is the domain's own (`apply_op`,
//! `apply_func`, `apply_fold`, [`cmp_tol`] without a tolerance, [`Domain::indicator`],
//! `accumulate`, shared with the tree walk), applied to the same operands in the same order,
//! at the same bins (the tree walk's `each_element` visits them);
//! `&&` and `||` skip their right side exactly when the tree walk does; a constant has the
//! value the tree walk computes at every bin (the expressions are pure). So the result is the
//! tree walk's bit for bit, and the computations are the tree walk's, each constant once (a
//! domain that records what its comparisons needed, such as [`crate::lang::ExpSums`]'s
//! precision, records the same). On any error the run stops and the caller evaluates the
//! binder again by the tree walk, which gives the error (or, where the tree walk's
//! three-valued connectives absorb an error, `error && false`, the value). A body whose per-bin
//! part holds a node without a postfix form (`p(i)` or a function of the state at a per-bin
//! argument, a binder over the dimensions that reads a per-bin name, a nested binder that reads
//! this binder's bin) is not flattened and always takes the tree walk.
//!
//! Named binders: in `sum(i: sum(j: (x[j] > x[i]) * p[j]))` the inner body reads `x[i]`, a name
//! of the enclosing bin, which is the same at every bin `j`: a constant of the inner program,
//! evaluated once per run with the enclosing frame (the frame of bin `i`), where the tree walk
//! finds it at its level. The outer binder's body holds a nested binder that reads its bin, so
//! the outer binder takes the tree walk, and each run of the inner one its postfix program.
//! Primed names (`x'`, inside `P(...)`) are operations like the unprimed ones.
//!
//! ```
//! use balloc::lang::{compile_value, Expr};
//! let e = compile_value("sum(exp(-y) * (1/n - p), rank <= 2)", &["n"]).unwrap();
//! let Expr::Over(.., Some(flat), _) = &e else { panic!("a flattened sum") };
//! // The predicate: rank, the constant 2, <=; the body: y, −, exp, the constant 1/n, p, −, ·.
//! assert_eq!((flat.len(), flat.constants()), (3 + 7, 2));
//! // `n − 1` reads no per-bin name: one constant, evaluated once per sum.
//! let e = compile_value("sum((n - 1) * y)", &["n"]).unwrap();
//! let Expr::Over(.., Some(flat), _) = &e else { panic!("a flattened sum") };
//! assert_eq!((flat.len(), flat.constants()), (3, 1));
//! ```

use super::{
    Agg, BinVar, BinVars, Bind, Elements, Env, Expr, Formula, Frame, Func, accumulate, apply_fold,
    apply_func, apply_op, cmp_tol, each_element,
};
use crate::lang::domain::{Domain, Eval, EvalError};
use crate::lang::syntax::{BinOp, Cmp};

/// One operation of a [`Postfix`] program.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    /// Push constant `k` of the program: a subtree that reads no per-bin name, evaluated when
    /// a run first reaches it.
    Const(u32),
    /// Push a per-bin value.
    Bin(BinVar),
    /// Push a primed per-bin value (the same bin at the next state).
    NextBin(BinVar),
    /// Negate the top.
    Neg,
    /// Pop `y`, `x`; push `x op y`.
    Arith(BinOp),
    /// Apply a one-argument function to the top (the first argument of `min`/`max`).
    Call(Func),
    /// Pop `v`, `acc`; push `min`/`max` of the two.
    Fold(Func),
    /// Pop `y`, `x`; push the truth of `x cmp y`.
    Cmp(Cmp),
    /// `a && b` after `a`: when the top truth is false, jump to operation `k` of the part (the
    /// predicate or the body) and keep it; otherwise pop it and go on into `b`.
    And(u32),
    /// `a || b` after `a`: when the top truth is true, jump to operation `k` and keep it;
    /// otherwise pop it and go on into `b`.
    Or(u32),
    /// Negate the top truth.
    Not,
    /// Pop a truth; push its indicator.
    Ind,
}

/// The body (and predicate) of a binder over the bins as one postfix program (module
/// documentation): `ops[..pred]` leaves the predicate's truth on the truth stack (empty without
/// a predicate), `ops[pred..]` the body's value on the number stack.
#[derive(Debug, Clone, PartialEq)]
pub struct Postfix {
    ops: Vec<Op>,
    pred: Option<usize>,
    consts: Vec<Expr>,
    /// The deepest the number stack and the truth stack get.
    depth: (usize, usize),
    /// Where the part being compiled starts (jumps count from there).
    base: usize,
    /// The binder's level (what "this binder's bin" is for a nested name `x[i]`).
    level: u8,
}

impl Postfix {
    /// The program of `sum(f, pred)` (or `max_bins`, `min_bins`) of a binder at `level`, or
    /// `None` when a node of `f` or `pred` has no postfix form (see the module documentation).
    pub fn compile(f: &Expr, pred: Option<&Formula>, level: u8) -> Option<Postfix> {
        let mut p = Postfix {
            ops: Vec::new(),
            pred: None,
            consts: Vec::new(),
            depth: (0, 0),
            base: 0,
            level,
        };
        if let Some(fm) = pred {
            p.formula(fm)?;
            p.pred = Some(p.ops.len());
            p.base = p.ops.len();
        }
        p.expr(f)?;
        p.depth = p.depths()?;
        Some(p)
    }

    /// The largest heights of the two stacks over a run of the predicate and then the body, or
    /// `None` when an operation would pop an empty stack or a part does not leave exactly its
    /// one result (a program [`Postfix::compile`] never builds).
    fn depths(&self) -> Option<(usize, usize)> {
        let (mut num, mut truth, mut most) = (0usize, 0usize, (0, 0));
        for (k, op) in self.ops.iter().enumerate() {
            if Some(k) == self.pred {
                if (num, truth) != (0, 1) {
                    return None;
                }
                truth = 0;
            }
            let (pop_n, push_n, pop_t, push_t) = match op {
                Op::Const(_) | Op::Bin(_) | Op::NextBin(_) => (0, 1, 0, 0),
                Op::Neg | Op::Call(_) => (1, 1, 0, 0),
                Op::Arith(_) | Op::Fold(_) => (2, 1, 0, 0),
                Op::Cmp(_) => (2, 0, 0, 1),
                Op::And(_) | Op::Or(_) => (0, 0, 1, 0),
                Op::Not => (0, 0, 1, 1),
                Op::Ind => (0, 1, 1, 0),
            };
            num = num.checked_sub(pop_n)? + push_n;
            truth = truth.checked_sub(pop_t)? + push_t;
            most = (most.0.max(num), most.1.max(truth));
        }
        (num == 1 && truth == 0).then_some(most)
    }

    /// The number of operations (predicate and body).
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// The number of constants (subtrees evaluated once per run).
    pub fn constants(&self) -> usize {
        self.consts.len()
    }

    /// Whether the program has no operation (never: a body pushes its value).
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    fn expr(&mut self, e: &Expr) -> Option<()> {
        if !reads(e, self.level, false) {
            // A repeated constant (`delta*n` in two indicators) is evaluated once; the look-up
            // stops at the first 64 constants, so a body of many distinct ones compiles in
            // linear time.
            let k = match self.consts.iter().take(64).position(|c| c == e) {
                Some(k) => k,
                None => {
                    self.consts.push(e.clone());
                    self.consts.len() - 1
                }
            };
            self.ops.push(Op::Const(u32::try_from(k).ok()?));
            return Some(());
        }
        match e {
            Expr::Bin(v) => self.ops.push(Op::Bin(*v)),
            Expr::NextBin(v) => self.ops.push(Op::NextBin(*v)),
            Expr::Neg(a) => {
                self.expr(a)?;
                self.ops.push(Op::Neg);
            }
            Expr::Op(op, a, b) => {
                self.expr(a)?;
                self.expr(b)?;
                self.ops.push(Op::Arith(*op));
            }
            Expr::Call(f, args) => {
                let (first, rest) = args.split_first()?;
                self.expr(first)?;
                self.ops.push(Op::Call(*f));
                for a in rest {
                    self.expr(a)?;
                    self.ops.push(Op::Fold(*f));
                }
            }
            Expr::Ind(fm) => {
                self.formula(fm)?;
                self.ops.push(Op::Ind);
            }
            Expr::Num(..)
            | Expr::Slot(_)
            | Expr::Proc(..)
            | Expr::Over(..)
            | Expr::Count(..)
            | Expr::EnvCall(..)
            | Expr::Dim
            | Expr::NextSlot(_)
            | Expr::Outer(..)
            | Expr::Edge(..)
            | Expr::Prob(..)
            | Expr::Mean(..) => return None,
        }
        Some(())
    }

    fn formula(&mut self, f: &Formula) -> Option<()> {
        match f {
            Formula::Cmp(a, c, b) => {
                self.expr(a)?;
                self.expr(b)?;
                self.ops.push(Op::Cmp(*c));
            }
            Formula::And(a, b) | Formula::Or(a, b) => {
                self.formula(a)?;
                let at = self.ops.len();
                self.ops.push(Op::Not);
                self.formula(b)?;
                let end = u32::try_from(self.ops.len() - self.base).ok()?;
                self.ops[at] = if matches!(f, Formula::And(..)) {
                    Op::And(end)
                } else {
                    Op::Or(end)
                };
            }
            Formula::Not(a) => {
                self.formula(a)?;
                self.ops.push(Op::Not);
            }
        }
        Some(())
    }

    /// The aggregate `agg` of the body over the bins where the predicate holds, `vars` the
    /// per-bin names the two read, `bind` where the binder sits; `outer` the frame of an
    /// enclosing binder. `Ok(None)` when no bin satisfies the predicate. An error means:
    /// evaluate by the tree walk instead (module documentation).
    pub(super) fn run<D: Domain>(
        &self,
        d: &D,
        env: &dyn Env<D>,
        outer: Option<&Frame<D::N>>,
        agg: Agg,
        vars: BinVars,
        bind: Bind,
    ) -> Eval<Option<D::N>> {
        let mut m = Machine {
            d,
            env,
            outer,
            exprs: &self.consts,
            consts: vec![None; self.consts.len()],
            num: vec![d.zero(); self.depth.0],
            truth: vec![false; self.depth.1],
        };
        let (pred_ops, body_ops) = self.ops.split_at(self.pred.unwrap_or(0));
        let mut acc = None;
        each_element(d, env, outer, Elements::Bins, vars, bind, |fr, size| {
            if self.pred.is_some() {
                let held = m.exec(pred_ops, fr)?.1 - 1;
                if !m.truth[held] {
                    return Ok(());
                }
            }
            let top = m.exec(body_ops, fr)?.0 - 1;
            let v = std::mem::replace(&mut m.num[top], d.zero());
            acc = Some(accumulate(d, agg, acc.take(), v, size)?);
            Ok(())
        })?;
        Ok(acc)
    }
}

/// Whether `e` reads the bin of the binder at `level` whose body it is part of: a bare per-bin
/// name outside the nested binders over the bins or edges (`nested`: inside one, where the bare
/// names are the nested binder's own), or a name `x[i]` of that binder's bin at any depth.
fn reads(e: &Expr, level: u8, nested: bool) -> bool {
    match e {
        Expr::Bin(_) | Expr::NextBin(_) => !nested,
        Expr::Outer(l, ..) | Expr::Edge(l, _) => *l == level,
        Expr::Num(..) | Expr::Slot(_) | Expr::Dim | Expr::NextSlot(_) => false,
        // Inside a binder over the dimensions the per-bin names are still this binder's bin's.
        Expr::Over(Elements::Dims, _, f, p, ..) => {
            reads(f, level, nested)
                || p.as_deref()
                    .is_some_and(|p| formula_reads(p, level, nested))
        }
        Expr::Count(Elements::Dims, p, ..) => formula_reads(p, level, nested),
        Expr::Over(_, _, f, p, ..) => {
            reads(f, level, true) || p.as_deref().is_some_and(|p| formula_reads(p, level, true))
        }
        Expr::Count(_, p, ..) => formula_reads(p, level, true),
        Expr::Neg(a) | Expr::Proc(_, a) => reads(a, level, nested),
        Expr::Op(_, a, b) => reads(a, level, nested) || reads(b, level, nested),
        Expr::Call(_, args) | Expr::EnvCall(_, args) => {
            args.iter().any(|a| reads(a, level, nested))
        }
        Expr::Ind(f) => formula_reads(f, level, nested),
        // Never inside a binder (a compile error); as a whole, state-level.
        Expr::Prob(..) | Expr::Mean(..) => false,
    }
}

fn formula_reads(f: &Formula, level: u8, nested: bool) -> bool {
    match f {
        Formula::Cmp(a, _, b) => reads(a, level, nested) || reads(b, level, nested),
        Formula::And(a, b) | Formula::Or(a, b) => {
            formula_reads(a, level, nested) || formula_reads(b, level, nested)
        }
        Formula::Not(a) => formula_reads(a, level, nested),
    }
}

/// The two stacks of a [`Postfix`] run (as deep as [`Postfix::depths`] says), with the
/// literals and slots read once.
struct Machine<'a, D: Domain> {
    d: &'a D,
    env: &'a dyn Env<D>,
    outer: Option<&'a Frame<D::N>>,
    exprs: &'a [Expr],
    consts: Vec<Option<D::N>>,
    num: Vec<D::N>,
    truth: Vec<bool>,
}

impl<D: Domain> Machine<'_, D> {
    /// Runs `ops` from empty stacks; returns the heights of the two stacks at the end.
    #[inline]
    fn exec(&mut self, ops: &[Op], fr: &Frame<D::N>) -> Eval<(usize, usize)> {
        let d = self.d;
        let (num, truth) = (&mut self.num[..], &mut self.truth[..]);
        let (mut n, mut t, mut pc) = (0usize, 0usize, 0usize);
        while let Some(op) = ops.get(pc) {
            pc += 1;
            match *op {
                Op::Const(k) => {
                    let k = k as usize;
                    num[n] = match &self.consts[k] {
                        Some(v) => v.clone(),
                        None => {
                            let v = self.exprs[k].eval(d, self.env, self.outer)?;
                            self.consts[k] = Some(v.clone());
                            v
                        }
                    };
                    n += 1;
                }
                Op::Bin(v) => {
                    num[n] = fr
                        .get(v)
                        .ok_or_else(|| EvalError::Unavailable(format!("per-bin `{}`", v.name())))?
                        .clone();
                    n += 1;
                }
                Op::NextBin(v) => {
                    num[n] = fr
                        .get_next(v)
                        .ok_or_else(|| EvalError::Unavailable(format!("per-bin `{}'`", v.name())))?
                        .clone();
                    n += 1;
                }
                Op::Neg => num[n - 1] = d.neg(&num[n - 1])?,
                Op::Arith(o) => {
                    num[n - 2] = apply_op(d, o, &num[n - 2], &num[n - 1])?;
                    n -= 1;
                }
                Op::Call(f) => num[n - 1] = apply_func(d, f, &num[n - 1])?,
                Op::Fold(f) => {
                    num[n - 2] = apply_fold(d, f, &num[n - 2], &num[n - 1])?;
                    n -= 1;
                }
                Op::Cmp(c) => {
                    truth[t] = cmp_tol(d, &num[n - 2], c, &num[n - 1], None)?;
                    n -= 2;
                    t += 1;
                }
                Op::And(end) | Op::Or(end) => {
                    if truth[t - 1] == matches!(op, Op::Or(_)) {
                        pc = end as usize;
                    } else {
                        t -= 1;
                    }
                }
                Op::Not => truth[t - 1] = !truth[t - 1],
                Op::Ind => {
                    num[n] = d.indicator(truth[t - 1]);
                    n += 1;
                    t -= 1;
                }
            }
        }
        Ok((n, t))
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::exact::Q;
    use crate::lang::domain::{Enclosure, Exact, ExpSums, Float};
    use crate::lang::{Float64, compile_value};
    use proptest::prelude::*;

    /// Bins with the given loads `x` (integers), `y = x − mean`, `p = (bin + 1)/Σ`, rank by
    /// position, slot 0 = `n`; ties of `y` form classes when `rank` and `i` are not read.
    struct Bins(Vec<i64>);

    impl<D: Domain> Env<D> for Bins {
        fn slot(&self, d: &D, _: usize) -> Eval<D::N> {
            d.rational(&Q::from_integer((self.0.len() as i64).into()))
        }
        fn bins(&self) -> usize {
            self.0.len()
        }
        fn frame(&self, d: &D, bin: usize, vars: BinVars) -> Eval<Frame<D::N>> {
            let n = self.0.len() as i64;
            let total: i64 = self.0.iter().sum();
            let int = |k: i64| Q::from_integer(k.into());
            let mut f = Frame::default();
            let y = Q::new((self.0[bin] * n - total).into(), n.into());
            let p = Q::new((bin as i64 + 1).into(), (n * (n + 1) / 2).into());
            for (v, q) in [
                (BinVar::Y, y),
                (BinVar::X, int(self.0[bin])),
                (BinVar::P, p.clone()),
                (BinVar::W, p * int(2)),
                (BinVar::Rank, int(bin as i64 + 1)),
                (BinVar::Index, int(bin as i64 + 1)),
            ] {
                if vars.has(v) {
                    f.set(v, d.rational(&q)?);
                }
            }
            Ok(f)
        }
        fn classes(&self, vars: BinVars) -> Option<Vec<(usize, usize)>> {
            if vars.has(BinVar::Rank) || vars.has(BinVar::Index) || vars.has(BinVar::P) {
                return None;
            }
            let mut out: Vec<(usize, usize)> = Vec::new();
            for (b, x) in self.0.iter().enumerate() {
                match out.iter_mut().find(|(r, _)| self.0[*r] == *x) {
                    Some(c) => c.1 += 1,
                    None => out.push((b, 1)),
                }
            }
            Some(out)
        }
    }

    /// The binder `e` evaluated in `d` by its postfix program and by the tree walk alone, as
    /// text (value or error).
    fn both<D: Domain>(d: &D, e: &Expr, env: &Bins) -> (String, String) {
        both2(d, d, e, env)
    }

    /// [`both`] with the postfix route in `fast` and the tree walk in `tree`.
    fn both2<D: Domain>(fast: &D, tree_d: &D, e: &Expr, env: &Bins) -> (String, String) {
        let Expr::Over(on, agg, f, pred, vars, Some(_), bind) = e else {
            panic!("not a flattened binder: {e:?}");
        };
        let tree = Expr::Over(*on, *agg, f.clone(), pred.clone(), *vars, None, *bind);
        let show = |r: Eval<D::N>| match r {
            Ok(v) => format!("{v:?}"),
            Err(e) => format!("error: {e}"),
        };
        (
            show(e.eval(fast, env, None)),
            show(tree.eval(tree_d, env, None)),
        )
    }

    /// [`both`] in [`ExpSums`], each route with a fresh domain, with the precision the
    /// comparisons needed.
    fn both_sums(e: &Expr, env: &Bins) -> (String, String) {
        let (fast, tree) = (ExpSums::default(), ExpSums::default());
        let (a, b) = both2(&fast, &tree, e, env);
        (
            format!("{a} at {:?}", fast.enclosure_bits()),
            format!("{b} at {:?}", tree.enclosure_bits()),
        )
    }

    fn agree(e: &Expr, env: &Bins) {
        for (fast, tree) in [
            both(&Float64, e, env),
            both(&Float, e, env),
            both(&Exact, e, env),
            both_sums(e, env),
            both(&Enclosure { prec: 64 }, e, env),
        ] {
            assert_eq!(fast, tree, "{e:?} at {:?}", env.0);
        }
    }

    fn by_hand() {
        // Loads (3, 1, 1, 0): mean 5/4, y = (7/4, −1/4, −1/4, −5/4), p = (1, 2, 3, 4)/10.
        let env = Bins(vec![3, 1, 1, 0]);
        // Σ y² = (49 + 1 + 1 + 25)/16 = 19/4.
        let e = compile_value("sum(y^2)", &["n"]).unwrap();
        assert_eq!(
            e.eval(&Exact, &env, None).unwrap(),
            Q::new(19.into(), 4.into())
        );
        // Σ_{rank ≤ n/2} p·x = (1/10)(3) + (2/10)(1) = 1/2.
        let e = compile_value("sum(p*x, rank <= n/2)", &["n"]).unwrap();
        assert_eq!(
            e.eval(&Exact, &env, None).unwrap(),
            Q::new(1.into(), 2.into())
        );
        // The largest y·(n − 1) over y < 0: max(−1/4, −1/4, −5/4)·3 = −3/4.
        let e = compile_value("max_bins(y * (n - 1), y < 0)", &["n"]).unwrap();
        assert_eq!(
            e.eval(&Exact, &env, None).unwrap(),
            Q::new((-3).into(), 4.into())
        );
        // The tree walk skips ln(y) where y < 0 fails; the postfix run stops at ln of a
        // negative number and the tree walk gives the count: y ≥ 0 only at bin 1 (ln 7/4 > 0).
        let e = compile_value("sum(1, y >= 0 && ln(y) > 0)", &["n"]).unwrap();
        assert_eq!(e.eval(&Float64, &env, None).unwrap().v, 1.0);
        for e in [
            "sum(y^2)",
            "sum(p*x, rank <= n/2)",
            "max_bins(y * (n - 1), y < 0)",
            "sum(1, y >= 0 && ln(y) > 0)",
            "min_bins(exp(-y) * (1/n - p), !(i == 2) || x > 1)",
            "sum(y, y > 10)",
            "max_bins(y, y > 10)",
        ] {
            agree(&compile_value(e, &["n"]).unwrap(), &env);
        }
    }

    /// Random terms of the language over the per-bin names, `n`, literals and a nested binder.
    fn term() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("y".to_string()),
            Just("x".to_string()),
            Just("p".to_string()),
            Just("w".to_string()),
            Just("rank".to_string()),
            Just("i".to_string()),
            Just("n".to_string()),
            Just("1/3".to_string()),
            Just("2".to_string()),
            Just("0".to_string()),
        ];
        leaf.prop_recursive(4, 24, 3, |inner| {
            prop_oneof![
                (
                    inner.clone(),
                    inner.clone(),
                    prop_oneof![Just("+"), Just("-"), Just("*"), Just("/")]
                )
                    .prop_map(|(a, b, o)| format!("({a} {o} {b})")),
                (
                    inner.clone(),
                    prop_oneof![
                        Just("exp"),
                        Just("abs"),
                        Just("ln"),
                        Just("sqrt"),
                        Just("floor")
                    ]
                )
                    .prop_map(|(a, f)| format!("{f}({a})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("min({a}, {b})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("max({a}, {b}, 1)")),
                inner.clone().prop_map(|a| format!("(-{a})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} <= {b})")),
                (inner.clone(), inner.clone(), inner)
                    .prop_map(|(a, b, c)| format!("((({a} < {b}) && !({b} == {c})) || {c} > 0)")),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]
        /// Every binder the generator builds gives the tree walk's value or error, bit for bit,
        /// in every domain.
        fn postfix_is_the_tree_walk(
            body in term(),
            pred in proptest::option::of(term()),
            agg in prop_oneof![Just("sum"), Just("max_bins"), Just("min_bins")],
            loads in proptest::collection::vec(0i64..4, 1..6),
        ) {
            let text = match &pred {
                Some(p) => format!("{agg}({body}, {p} > 0)"),
                None => format!("{agg}({body})"),
            };
            let e = compile_value(&text, &["n"]).unwrap();
            if matches!(e, Expr::Over(.., Some(_), _)) {
                agree(&e, &Bins(loads));
            }
        }

        /// Named binders: an inner binder reading the outer bin (`x[i]`, and with an unnamed
        /// inner binder the bare names of its own bin) gives, with its postfix program, the value
        /// or error of the tree walk alone, in every domain.
        fn named_binders_are_the_tree_walk(
            body in term_over(&["x[j]", "y[j]", "p[j]", "w[j]", "rank[j]", "j", "x[i]", "y[i]", "rank[i]", "i", "n", "1/3", "2"]),
            pred in proptest::option::of(term_over(&["x[j]", "rank[j]", "x[i]", "i", "j", "1/3"])),
            inner in prop_oneof![Just("sum"), Just("max_bins"), Just("min_bins")],
            outer in prop_oneof![Just("sum"), Just("max_bins"), Just("min_bins")],
            loads in proptest::collection::vec(0i64..4, 1..6),
        ) {
            let text = match &pred {
                Some(p) => format!("{outer}(i: {inner}(j: {body}, {p} > 0))"),
                None => format!("{outer}(i: {inner}(j: {body}))"),
            };
            let e = compile_value(&text, &["n"]).unwrap();
            agree_stripped(&e, &Bins(loads));
        }

        /// An unnamed binder inside a named one: bare names are the inner bin's, `x[i]` the
        /// outer's.
        fn unnamed_inside_named_is_the_tree_walk(
            body in term_over(&["x", "y", "p", "rank", "i", "x[k]", "y[k]", "k", "n", "2"]),
            loads in proptest::collection::vec(0i64..4, 1..6),
        ) {
            let e = compile_value(&format!("sum(k: max_bins({body}))"), &["n"]).unwrap();
            agree_stripped(&e, &Bins(loads));
        }
    }

    /// Random terms over the given leaves (the generator of [`term`]).
    fn term_over(leaves: &[&'static str]) -> impl Strategy<Value = String> + use<> {
        let leaf = proptest::sample::select(leaves.to_vec()).prop_map(|s| s.to_string());
        leaf.prop_recursive(3, 16, 3, |inner| {
            prop_oneof![
                (
                    inner.clone(),
                    inner.clone(),
                    prop_oneof![Just("+"), Just("-"), Just("*"), Just("/")]
                )
                    .prop_map(|(a, b, o)| format!("({a} {o} {b})")),
                (
                    inner.clone(),
                    prop_oneof![Just("exp"), Just("abs"), Just("ln")]
                )
                    .prop_map(|(a, f)| format!("{f}({a})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("min({a}, {b})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} <= {b})")),
                (inner.clone(), inner.clone(), inner)
                    .prop_map(|(a, b, c)| format!("((({a} < {b}) && !({b} == {c})) || {c} > 0)")),
            ]
        })
    }

    /// `e` without any postfix program (every binder by the tree walk).
    fn strip(e: &Expr) -> Expr {
        let sf = |f: &Formula| strip_formula(f);
        match e {
            Expr::Over(on, agg, f, p, v, _, b) => Expr::Over(
                *on,
                *agg,
                Box::new(strip(f)),
                p.as_ref().map(|p| Box::new(sf(p))),
                *v,
                None,
                *b,
            ),
            Expr::Count(on, p, v, b) => Expr::Count(*on, Box::new(sf(p)), *v, *b),
            Expr::Neg(a) => Expr::Neg(Box::new(strip(a))),
            Expr::Op(o, a, b) => Expr::Op(*o, Box::new(strip(a)), Box::new(strip(b))),
            Expr::Call(f, args) => Expr::Call(*f, args.iter().map(strip).collect()),
            Expr::Ind(f) => Expr::Ind(Box::new(sf(f))),
            other => other.clone(),
        }
    }

    fn strip_formula(f: &Formula) -> Formula {
        match f {
            Formula::Cmp(a, c, b) => Formula::Cmp(strip(a), *c, strip(b)),
            Formula::And(a, b) => {
                Formula::And(Box::new(strip_formula(a)), Box::new(strip_formula(b)))
            }
            Formula::Or(a, b) => {
                Formula::Or(Box::new(strip_formula(a)), Box::new(strip_formula(b)))
            }
            Formula::Not(a) => Formula::Not(Box::new(strip_formula(a))),
        }
    }

    /// `e` with its postfix programs against `e` by the tree walk alone, in every domain, as
    /// text (value or error).
    fn agree_stripped(e: &Expr, env: &Bins) {
        let tree = strip(e);
        fn show<D: Domain>(r: Eval<D::N>) -> String {
            match r {
                Ok(v) => format!("{v:?}"),
                Err(e) => format!("error: {e}"),
            }
        }
        fn pair<D: Domain>(d: &D, a: &Expr, b: &Expr, env: &Bins) -> (String, String) {
            (
                show::<D>(a.eval(d, env, None)),
                show::<D>(b.eval(d, env, None)),
            )
        }
        let (fast, slow) = (ExpSums::default(), ExpSums::default());
        let sums = (
            format!(
                "{} at {:?}",
                show::<ExpSums>(e.eval(&fast, env, None)),
                fast.enclosure_bits()
            ),
            format!(
                "{} at {:?}",
                show::<ExpSums>(tree.eval(&slow, env, None)),
                slow.enclosure_bits()
            ),
        );
        for (a, b) in [
            pair(&Float64, e, &tree, env),
            pair(&Float, e, &tree, env),
            pair(&Exact, e, &tree, env),
            sums,
            pair(&Enclosure { prec: 64 }, e, &tree, env),
        ] {
            assert_eq!(a, b, "{e:?} at {:?}", env.0);
        }
    }

    fn named_binders_by_hand() {
        // Loads (3, 1, 1, 0), p = (1, 2, 3, 4)/10 by bin. Σ_i Σ_j [x_j > x_i] p_j: bin 1 (x = 3)
        // has none above; bins 2, 3 (x = 1) have bin 1 (p = 1/10); bin 4 (x = 0) has bins 1–3
        // (1 + 2 + 3)/10. Total 1/10 + 1/10 + 6/10 = 4/5.
        let env = Bins(vec![3, 1, 1, 0]);
        let e = compile_value("sum(i: sum(j: (x[j] > x[i]) * p[j]))", &["n"]).unwrap();
        assert_eq!(
            e.eval(&Exact, &env, None).unwrap(),
            Q::new(4.into(), 5.into())
        );
        // The inner binder is flattened with x[i] as a constant; the outer one, whose body reads
        // its bin inside the nested binder, is not.
        let Expr::Over(_, _, inner, _, _, None, _) = &e else {
            panic!("{e:?}")
        };
        let Expr::Over(.., Some(flat), b) = inner.as_ref() else {
            panic!("{inner:?}")
        };
        assert_eq!((flat.constants(), b.level, b.keep), (1, 1, true));
        agree_stripped(&e, &env);
        // The same with an unnamed inner binder: bare names are its own bin's.
        let e2 = compile_value("sum(i: sum((x > x[i]) * p))", &["n"]).unwrap();
        assert_eq!(
            e2.eval(&Exact, &env, None).unwrap(),
            Q::new(4.into(), 5.into())
        );
        // max over bins of the number of heavier bins: bin 4 has 3.
        let e3 = compile_value("max_bins(i: count(j: x[j] > x[i]))", &["n"]).unwrap();
        assert_eq!(
            e3.eval(&Exact, &env, None).unwrap(),
            Q::from_integer(3.into())
        );
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "by_hand",
            run: by_hand,
            panics: None,
        },
        crate::unit::Test {
            name: "postfix_is_the_tree_walk",
            run: postfix_is_the_tree_walk,
            panics: None,
        },
        crate::unit::Test {
            name: "named_binders_are_the_tree_walk",
            run: named_binders_are_the_tree_walk,
            panics: None,
        },
        crate::unit::Test {
            name: "unnamed_inside_named_is_the_tree_walk",
            run: unnamed_inside_named_is_the_tree_walk,
            panics: None,
        },
        crate::unit::Test {
            name: "named_binders_by_hand",
            run: named_binders_by_hand,
            panics: None,
        },
    ];
}
