//! Compiled expressions and formulas, and the one evaluator of the claim language.
//!
//! [`compile`] resolves the names of a syntax tree ([`crate::lang::syntax`]) against a [`Scope`]
//! (state-level quantities become slots, per-bin names become [`BinVar`]s inside a binder) and
//! checks types: a comparison is a formula; a formula used in arithmetic is its **indicator**
//! (`1` when it holds, `0` otherwise), so `sum(exp(alpha*y) * (y >= 0))` is `Σ_{yᵢ ≥ 0} e^{αyᵢ}`.
//!
//! [`Expr::eval`] and [`Formula::truth`] evaluate in any [`Domain`]: the same tree gives an
//! extended-range float for the search, an exact rational or exponential sum for certification,
//! or an enclosure at a working precision.
//!
//! Binders over the bins `i = 1..n`:
//!
//! | form | value |
//! |---|---|
//! | `sum(f)`, `sum(f, pred)` | `Σᵢ f(i)`, over the bins where `pred` holds |
//! | `max_bins(f)`, `min_bins(f)` (optionally with `pred`) | the largest / smallest `f(i)` (undefined over no bins) |
//! | `count(pred)` | the number of bins where `pred` holds |
//!
//! Per-bin names ([`BinVar`]), usable inside a binder (and in a per-bin claim): `y` (normalised
//! load `xᵢ − W/n`), `x` (load), `p` (probability that bin i receives the next ball), `w` (the
//! expected increase of `xᵢ` in one step or batch), `rank` (1 = heaviest; tied bins in index
//! order), `i` (the bin's index, 1-based).
//!
//! Binders over the dimensions `a = 1..D`, where the state has dimensions ([`Scope::has_dims`],
//! [`Env::dims`]; the multidimensional claims), with the per-dimension name `a` ([`DIM_VAR`]):
//!
//! | form | value |
//! |---|---|
//! | `sum_dims(f)`, `sum_dims(f, pred)` | `Σ_a f(a)`, over the dimensions where `pred` holds |
//! | `max_dims(f)`, `min_dims(f)` (optionally with `pred`) | the largest / smallest `f(a)` |
//! | `count_dims(pred)` | the number of dimensions where `pred` holds |
//!
//! They nest with the binders over the bins either way round (one level of each):
//! `sum(sum_dims(exp(alpha*(l(a, i) - avg(a)))))` is `Σ_b Σ_a e^{α(l(a, b) − avg(a))}`.
//!
//! Functions of the state ([`EnvFunc`]): a scope may offer functions `name(args…)` whose
//! arguments are exact integers (e.g. the md load `l(a, b)`); the evaluator checks that every
//! argument is an exact integer and the environment ([`Env::call`]) that it is in range. Their
//! value depends on the state and the arguments only (never on the bin of an enclosing binder),
//! so the binders may evaluate tied bins once as usual: a call that reads the bin passes `i`,
//! which makes every bin its own class.

use super::domain::{Domain, Eval, EvalError};
use super::postfix::Postfix;
use super::syntax::{Ast, BinOp, Cmp, Node};
use crate::exact::Q;
use num_traits::{One, Zero};
use std::cmp::Ordering;
use std::ops::Range;

/// A per-bin name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BinVar {
    /// `y`: the normalised load `xᵢ − W/n`.
    Y,
    /// `x`: the load.
    X,
    /// `p`: the probability that the bin receives the next ball (its own outcome probability in
    /// the step law, the tie rule applied).
    P,
    /// `w`: the expected increase of the load in one step (or batch), `b·E[balls]·E[W]` into this
    /// bin.
    W,
    /// `rank`: 1 for the heaviest bin; tied bins are ranked in index order.
    Rank,
    /// `i`: the index of the bin, 1-based.
    Index,
}

impl BinVar {
    /// Every per-bin name with its spelling.
    pub const ALL: [(BinVar, &'static str); 6] = [
        (BinVar::Y, "y"),
        (BinVar::X, "x"),
        (BinVar::P, "p"),
        (BinVar::W, "w"),
        (BinVar::Rank, "rank"),
        (BinVar::Index, "i"),
    ];

    /// The per-bin name spelled `s`.
    ///
    /// ```
    /// use balloc::lang::BinVar;
    /// assert_eq!(BinVar::parse("y"), Some(BinVar::Y));
    /// assert_eq!(BinVar::parse("Gamma"), None);
    /// ```
    pub fn parse(s: &str) -> Option<BinVar> {
        BinVar::ALL.iter().find(|(_, n)| *n == s).map(|(v, _)| *v)
    }

    /// Its spelling.
    pub fn name(self) -> &'static str {
        BinVar::ALL
            .iter()
            .find(|(v, _)| *v == self)
            .map_or("?", |(_, n)| n)
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of per-bin names (a bit set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct BinVars(pub u8);

impl BinVars {
    /// Whether `v` is in the set.
    pub fn has(self, v: BinVar) -> bool {
        self.0 & v.bit() != 0
    }
    /// Adds `v`.
    pub fn add(&mut self, v: BinVar) {
        self.0 |= v.bit();
    }
    /// The union.
    pub fn union(self, o: BinVars) -> BinVars {
        BinVars(self.0 | o.0)
    }
    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// A function of the language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Func {
    /// `exp(x)`
    Exp,
    /// `ln(x)` (also `log`)
    Ln,
    /// `sqrt(x)`
    Sqrt,
    /// `abs(x)`
    Abs,
    /// `floor(x)`
    Floor,
    /// `ceil(x)`
    Ceil,
    /// `cosh(x)`
    Cosh,
    /// `sinh(x)`
    Sinh,
    /// `min(a, b, ...)`
    Min,
    /// `max(a, b, ...)`
    Max,
}

/// A function of the allocation process at the state (evaluated by the environment).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProcFunc {
    /// `p(i)`: the allocation probability of rank `i` (1-based, heaviest first).
    P,
    /// `eps1(δ)`: the best ε of condition C1 at quantile δ (Los–Sauerwald, SPAA 2022, §2.2).
    Eps1,
}

/// The per-dimension name bound by the binders over the dimensions (`sum_dims`, `max_dims`,
/// `min_dims`, `count_dims`): the dimension's index, 1-based.
///
/// ```
/// use balloc::lang::{compile_expr, parse, EnvFunc, Env, Exact, Domain, Eval, Resolved, Scope};
/// // A scope and state with D = 3 dimensions and no bins: Σ_a a² = 1 + 4 + 9 = 14.
/// struct S;
/// impl Scope for S {
///     fn resolve(&self, _: &str) -> Result<Option<Resolved>, String> { Ok(None) }
///     fn known(&self) -> Vec<(String, Vec<String>)> { vec![] }
///     fn has_dims(&self) -> bool { true }
/// }
/// impl Env<Exact> for S {
///     fn slot(&self, _: &Exact, _: usize) -> Eval<balloc::exact::Q> { unreachable!() }
///     fn dims(&self) -> Eval<usize> { Ok(3) }
/// }
/// assert_eq!(balloc::lang::DIM_VAR, "a");
/// let e = compile_expr(&parse("sum_dims(a^2)").unwrap(), &S, false).unwrap();
/// assert_eq!(e.eval(&Exact, &S, None).unwrap().to_string(), "14");
/// ```
pub const DIM_VAR: &str = "a";

/// A function of the state offered by a [`Scope`]: `name(p₁, …, p_k)` with exact integer
/// arguments, evaluated by [`Env::call`] (e.g. `l(a, b)`, the load of dimension `a` in bin `b` of
/// a multidimensional state).
///
/// ```
/// use balloc::lang::EnvFunc;
/// let l = EnvFunc::new(0, "l", &["a", "b"]);
/// assert_eq!(l.signature(), "l(a, b)");
/// // Argument 1 (`a`) = 3 as a 0-based index into 1..=2 dimensions: out of range.
/// assert_eq!(l.index(0, 2, 2, "D").unwrap(), 1);
/// let e = l.index(0, 3, 2, "D").unwrap_err().to_string();
/// assert!(e.contains("l(a, b): a = 3 is outside 1..=2 (D = 2)"), "{e}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EnvFunc {
    /// The scope's id of the function, passed back to [`Env::call`].
    pub id: usize,
    /// Its name.
    pub name: String,
    /// Its parameters' names, one per argument (for messages).
    pub params: Vec<String>,
}

impl EnvFunc {
    /// A function `name(params…)` with the scope's `id`.
    ///
    /// ```
    /// let f = balloc::lang::EnvFunc::new(5, "s", &["b"]);
    /// assert_eq!((f.id, f.params.len()), (5, 1));
    /// ```
    pub fn new(id: usize, name: &str, params: &[&str]) -> EnvFunc {
        EnvFunc {
            id,
            name: name.to_string(),
            params: params.iter().map(|p| p.to_string()).collect(),
        }
    }

    /// `name(p₁, …, p_k)`.
    ///
    /// ```
    /// let f = balloc::lang::EnvFunc::new(0, "avg", &["a"]);
    /// assert_eq!(f.signature(), "avg(a)");
    /// ```
    pub fn signature(&self) -> String {
        format!("{}({})", self.name, self.params.join(", "))
    }

    /// The 1-based argument `v` of parameter `k` (0-based) as a 0-based index into `len`
    /// entries (`1 ≤ v ≤ len`), or an error naming the function, the parameter and the range;
    /// `what` names the size (`n`, `D`).
    ///
    /// ```
    /// let l = balloc::lang::EnvFunc::new(0, "l", &["a", "b"]);
    /// // Bin b = 3 of n = 3 bins is index 2; b = 0 is outside 1..=3.
    /// assert_eq!(l.index(1, 3, 3, "n").unwrap(), 2);
    /// assert!(l.index(1, 0, 3, "n").unwrap_err().to_string().contains("b = 0 is outside 1..=3 (n = 3)"));
    /// ```
    pub fn index(&self, k: usize, v: i64, len: usize, what: &str) -> Eval<usize> {
        match usize::try_from(v) {
            Ok(u) if (1..=len).contains(&u) => Ok(u - 1),
            _ => Err(EvalError::Undefined(format!(
                "{}: {} = {v} is outside 1..={len} ({what} = {len})",
                self.signature(),
                self.params.get(k).map_or("?", |p| p.as_str())
            ))),
        }
    }
}

/// An aggregate over the bins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Agg {
    /// `sum(f[, pred])`
    Sum,
    /// `max_bins(f[, pred])`
    Max,
    /// `min_bins(f[, pred])`
    Min,
}

/// What a binder ranges over: the bins `i = 1..n` (`sum`, `max_bins`, `min_bins`, `count`, with the
/// per-bin names) or the dimensions `a = 1..D` of a multidimensional state (`sum_dims`,
/// `max_dims`, `min_dims`, `count_dims`, with the name `a`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Elements {
    /// The bins.
    Bins,
    /// The dimensions.
    Dims,
}

impl Elements {
    /// The binder names `[sum, max, min, count]` over this range.
    fn names(self) -> [&'static str; 4] {
        match self {
            Elements::Bins => ["sum", "max_bins", "min_bins", "count"],
            Elements::Dims => ["sum_dims", "max_dims", "min_dims", "count_dims"],
        }
    }

    /// What the elements are called in messages.
    fn plural(self) -> &'static str {
        match self {
            Elements::Bins => "bins",
            Elements::Dims => "dimensions",
        }
    }
}

/// Every function name with what it compiles to.
pub const FUNCTIONS: &[&str] = &[
    "exp",
    "ln",
    "log",
    "sqrt",
    "abs",
    "floor",
    "ceil",
    "cosh",
    "sinh",
    "min",
    "max",
    "p",
    "eps1",
    "sum",
    "max_bins",
    "min_bins",
    "count",
    "sum_dims",
    "max_dims",
    "min_dims",
    "count_dims",
];

/// Whether `name` names a function of the language (`exp`, `min`, `sum`, ...), so that it cannot
/// also name a constant, a variable or a potential: `exp(x)` would call the function and a bare
/// `exp` read the constant. `with_process`: whether the process functions `p` and `eps1` count
/// (they exist only where a claim has a process).
///
/// ```
/// use balloc::lang::expr::is_function_name;
/// assert!(is_function_name("exp", true) && is_function_name("max", false));
/// assert!(is_function_name("p", true) && !is_function_name("p", false));
/// assert!(!is_function_name("alpha", true));
/// ```
pub fn is_function_name(name: &str, with_process: bool) -> bool {
    FUNCTIONS.contains(&name) && (with_process || !matches!(name, "p" | "eps1"))
}

/// A compiled arithmetic expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A literal: its exact value and the nearest `f64` (kept so that floats do not convert
    /// the rational at every evaluation).
    Num(Q, f64),
    /// A state-level quantity, by slot.
    Slot(usize),
    /// A per-bin name (inside a binder).
    Bin(BinVar),
    /// `−e`
    Neg(Box<Expr>),
    /// `a op b`
    Op(BinOp, Box<Expr>, Box<Expr>),
    /// `f(args)`
    Call(Func, Vec<Expr>),
    /// `p(i)`, `eps1(δ)`: the argument is evaluated and must be known exactly.
    Proc(ProcFunc, Box<Expr>),
    /// The indicator of a formula.
    Ind(Box<Formula>),
    /// An aggregate over the bins or the dimensions, with an optional predicate, the
    /// per-bin names the two read, and for a binder over the bins the two in postfix form when
    /// they have one (built by [`Expr::over`]).
    Over(
        Elements,
        Agg,
        Box<Expr>,
        Option<Box<Formula>>,
        BinVars,
        Option<Box<Postfix>>,
    ),
    /// `count(pred)`, `count_dims(pred)`, and the per-bin names `pred` reads (built by
    /// [`Expr::count`]).
    Count(Elements, Box<Formula>, BinVars),
    /// A function of the state at exact integer arguments ([`EnvFunc`]).
    EnvCall(EnvFunc, Vec<Expr>),
    /// The per-dimension name `a` (inside a binder over the dimensions).
    Dim,
}

/// A compiled formula.
#[derive(Debug, Clone, PartialEq)]
pub enum Formula {
    /// `a cmp b`
    Cmp(Expr, Cmp, Expr),
    /// `a && b`
    And(Box<Formula>, Box<Formula>),
    /// `a || b`
    Or(Box<Formula>, Box<Formula>),
    /// `!a`
    Not(Box<Formula>),
}

/// How a scope resolves a name.
#[derive(Debug, Clone, PartialEq)]
pub enum Resolved {
    /// A quantity in a slot.
    Slot(usize),
    /// A constant known exactly at compile time (inlined).
    Value(Q),
}

/// The names an expression may use.
pub trait Scope {
    /// Resolves a state-level name (not a function, not a per-bin name).
    fn resolve(&self, name: &str) -> Result<Option<Resolved>, String>;
    /// The accepted names, grouped by kind, for an error message.
    fn known(&self) -> Vec<(String, Vec<String>)>;
    /// Whether `p(i)` and `eps1(δ)` are available.
    fn has_process(&self) -> bool {
        true
    }
    /// The functions of the state this scope offers ([`EnvFunc`]; none by default), evaluated
    /// by [`Env::call`].
    ///
    /// ```
    /// use balloc::exact::Q;
    /// use balloc::lang::{compile_expr, parse, Domain, EnvFunc, Env, Eval, Exact, Resolved, Scope};
    /// // `sq(k) = k²`: sq(3) + sq(4) = 25; sq(1/2) is refused before the state is asked.
    /// struct S;
    /// impl Scope for S {
    ///     fn resolve(&self, _: &str) -> Result<Option<Resolved>, String> { Ok(None) }
    ///     fn known(&self) -> Vec<(String, Vec<String>)> { vec![] }
    ///     fn functions(&self) -> Vec<EnvFunc> { vec![EnvFunc::new(0, "sq", &["k"])] }
    /// }
    /// impl Env<Exact> for S {
    ///     fn slot(&self, _: &Exact, _: usize) -> Eval<Q> { unreachable!() }
    ///     fn call(&self, d: &Exact, _: &EnvFunc, args: &[i64]) -> Eval<Q> {
    ///         d.rational(&Q::from_integer((args[0] * args[0]).into()))
    ///     }
    /// }
    /// let e = compile_expr(&parse("sq(3) + sq(4)").unwrap(), &S, false).unwrap();
    /// assert_eq!(e.eval(&Exact, &S, None).unwrap().to_string(), "25");
    /// assert!(compile_expr(&parse("sq(1/2)").unwrap(), &S, false).is_err());
    /// ```
    fn functions(&self) -> Vec<EnvFunc> {
        Vec::new()
    }
    /// Whether the states have dimensions (the binders over the dimensions and `a`).
    fn has_dims(&self) -> bool {
        false
    }
}

/// A compile error at a byte offset of the expression text.
#[derive(Debug, Clone, PartialEq)]
pub struct CompileError {
    /// What is wrong.
    pub message: String,
    /// Byte offset in the expression text.
    pub at: usize,
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

fn cerr<T>(message: impl Into<String>, span: &Range<usize>) -> Result<T, CompileError> {
    Err(CompileError {
        message: message.into(),
        at: span.start,
    })
}

/// The closest of `candidates` to `name` by edit distance, if it is close enough to be a typo.
///
/// ```
/// let c = ["Gamma".to_string(), "Phi".to_string()];
/// assert_eq!(balloc::lang::expr::closest("Gama", c.iter()), Some("Gamma".to_string()));
/// assert_eq!(balloc::lang::expr::closest("zzz", c.iter()), None);
/// ```
pub fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a String>) -> Option<String> {
    let mut best: Option<(usize, &String)> = None;
    for c in candidates {
        let d = edit_distance(name, c);
        if best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
    }
    let (d, c) = best?;
    (d <= (name.chars().count().max(2) / 3).max(1)).then(|| c.clone())
}

/// The optimal-string-alignment distance: insertions, deletions, substitutions and swaps of
/// two neighbouring characters each cost 1 (`alpah` is one step from `alpha`).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, v) in d.iter_mut().enumerate().take(w) {
        *v = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

/// What a compiled tree uses.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Uses {
    /// Slots read (sorted, deduplicated).
    pub slots: Vec<usize>,
    /// Per-bin names read (inside binders, or at the top of a per-bin formula).
    pub bin_vars: BinVars,
    /// Whether `p(i)` or `eps1(δ)` are called.
    pub proc_funcs: bool,
    /// Whether the tree has a binder over the bins.
    pub binders: bool,
    /// Whether `exp`, `ln`, `sqrt`, `cosh`, `sinh` or a non-integer power may appear (no exact
    /// rational value in general).
    pub transcendental: bool,
    /// Whether functions of the state ([`EnvFunc`]) are called.
    pub env_funcs: bool,
    /// Whether the tree has a binder over the dimensions.
    pub dim_binders: bool,
    /// Whether the per-dimension name `a` is read.
    pub dim_var: bool,
}

impl Uses {
    fn add_binder(&mut self, on: Elements) {
        match on {
            Elements::Bins => self.binders = true,
            Elements::Dims => self.dim_binders = true,
        }
    }
}

struct Compiler<'a> {
    scope: &'a dyn Scope,
    /// Whether per-bin names are in scope (inside a binder, or a per-bin formula).
    in_bins: bool,
    /// Whether the per-dimension name is in scope (inside a binder over the dimensions).
    in_dims: bool,
}

/// Compiles an expression (a formula in arithmetic position is its indicator). `per_bin`: the
/// per-bin names are in scope at the top level (a per-bin claim).
pub fn compile_expr(ast: &Ast, scope: &dyn Scope, per_bin: bool) -> Result<Expr, CompileError> {
    Compiler {
        scope,
        in_bins: per_bin,
        in_dims: false,
    }
    .expr(ast)
}

/// Compiles a formula; an arithmetic expression where a formula is expected is an error.
pub fn compile_formula(
    ast: &Ast,
    scope: &dyn Scope,
    per_bin: bool,
) -> Result<Formula, CompileError> {
    Compiler {
        scope,
        in_bins: per_bin,
        in_dims: false,
    }
    .formula(ast)
}

fn is_formula(ast: &Ast) -> bool {
    matches!(
        ast.node,
        Node::Cmp(..) | Node::And(..) | Node::Or(..) | Node::Not(..)
    )
}

impl Compiler<'_> {
    fn formula(&self, ast: &Ast) -> Result<Formula, CompileError> {
        Ok(match &ast.node {
            Node::Cmp(a, c, b) => Formula::Cmp(self.expr(a)?, *c, self.expr(b)?),
            Node::And(a, b) => Formula::And(Box::new(self.formula(a)?), Box::new(self.formula(b)?)),
            Node::Or(a, b) => Formula::Or(Box::new(self.formula(a)?), Box::new(self.formula(b)?)),
            Node::Not(a) => Formula::Not(Box::new(self.formula(a)?)),
            _ => {
                return cerr(
                    "expected a comparison (<=, >=, <, >, ==, !=) or a combination of comparisons with &&, ||, !",
                    &ast.span,
                );
            }
        })
    }

    fn expr(&self, ast: &Ast) -> Result<Expr, CompileError> {
        if is_formula(ast) {
            return Ok(Expr::Ind(Box::new(self.formula(ast)?)));
        }
        Ok(match &ast.node {
            Node::Num(q) => num(q.clone()),
            Node::Name(name) => self.name(name, &ast.span)?,
            Node::Neg(a) => match self.expr(a)? {
                Expr::Num(q, _) => num(-q),
                e => Expr::Neg(Box::new(e)),
            },
            Node::Bin(op, a, b) => fold(Expr::Op(
                *op,
                Box::new(self.expr(a)?),
                Box::new(self.expr(b)?),
            )),
            Node::Call {
                name,
                name_span,
                args,
            } => self.call(name, name_span, args, &ast.span)?,
            Node::Cmp(..) | Node::And(..) | Node::Or(..) | Node::Not(..) => {
                unreachable!("formulas are handled above")
            }
        })
    }

    fn name(&self, name: &str, span: &Range<usize>) -> Result<Expr, CompileError> {
        if name == DIM_VAR && self.scope.has_dims() {
            let other = matches!(self.scope.resolve(name), Ok(Some(_)));
            if self.in_dims {
                if other {
                    return cerr(
                        format!(
                            "`{DIM_VAR}` is the dimension of the enclosing sum_dims/max_dims/min_dims/count_dims and also a name of the file (a constant or potential): rename the constant"
                        ),
                        span,
                    );
                }
                return Ok(Expr::Dim);
            }
            if !other {
                return cerr(
                    format!(
                        "`{DIM_VAR}` is the per-dimension name: use it inside sum_dims(...), max_dims(...), min_dims(...) or count_dims(...)"
                    ),
                    span,
                );
            }
        }
        if let Some(v) = BinVar::parse(name) {
            if self.in_bins {
                return Ok(Expr::Bin(v));
            }
            // A per-bin name outside a binder may still be a state-level name (e.g. a constant).
            if let Ok(Some(r)) = self.scope.resolve(name) {
                return Ok(resolved(r));
            }
            return cerr(
                format!(
                    "`{name}` is a per-bin name: use it inside sum(...), max_bins(...), min_bins(...), count(...) or in `forall_bins`"
                ),
                span,
            );
        }
        match self.scope.resolve(name) {
            Ok(Some(r)) => Ok(resolved(r)),
            Err(msg) => cerr(msg, span),
            Ok(None) => {
                if FUNCTIONS.contains(&name) {
                    return cerr(
                        format!("`{name}` is a function; call it as {name}(...)"),
                        span,
                    );
                }
                if let Some(f) = self.scope.functions().into_iter().find(|f| f.name == name) {
                    return cerr(
                        format!(
                            "`{name}` is a function of the state; call it as {}",
                            f.signature()
                        ),
                        span,
                    );
                }
                let mut known = self.scope.known();
                let all: Vec<String> = known.iter().flat_map(|(_, v)| v.iter().cloned()).collect();
                // A prefixed name (`dE_Upsilonn`) is matched by its base among the potentials.
                let prefixed = || {
                    let (prefix, base) = name.split_once('_')?;
                    let known_prefix = prefix == "E"
                        || prefix == "R"
                        || prefix
                            .strip_prefix("dE")
                            .or(prefix.strip_prefix('E'))
                            .is_some_and(|k| k.is_empty() || k.chars().all(|c| c.is_ascii_digit()));
                    if !known_prefix {
                        return None;
                    }
                    closest(base, all.iter()).map(|c| format!("{prefix}_{c}"))
                };
                let hint = closest(name, all.iter())
                    .or_else(prefixed)
                    .map(|c| format!("; did you mean `{c}`?"))
                    .unwrap_or_default();
                let functions: Vec<String> = self
                    .scope
                    .functions()
                    .iter()
                    .map(EnvFunc::signature)
                    .collect();
                if !functions.is_empty() {
                    known.push(("functions of the state".into(), functions));
                }
                let groups: Vec<String> = known
                    .iter()
                    .filter(|(_, v)| !v.is_empty())
                    .map(|(k, v)| {
                        let shown: Vec<&str> = v.iter().take(12).map(|s| s.as_str()).collect();
                        let more = if v.len() > 12 {
                            format!(", … ({} more)", v.len() - 12)
                        } else {
                            String::new()
                        };
                        format!("{k}: {}{more}", shown.join(", "))
                    })
                    .collect();
                cerr(
                    format!(
                        "unknown name `{}`{hint} (known {})",
                        super::syntax::excerpt(name, 40),
                        groups.join("; ")
                    ),
                    span,
                )
            }
        }
    }

    fn call(
        &self,
        name: &str,
        name_span: &Range<usize>,
        args: &[Ast],
        span: &Range<usize>,
    ) -> Result<Expr, CompileError> {
        let one_arg = |f: Func| -> Result<Expr, CompileError> {
            if args.len() != 1 {
                return cerr(
                    format!("`{name}` takes one argument, got {}", args.len()),
                    name_span,
                );
            }
            Ok(Expr::Call(f, vec![self.expr(&args[0])?]))
        };
        let bare = name.strip_prefix("math::").unwrap_or(name);
        match bare {
            "exp" => one_arg(Func::Exp),
            "ln" | "log" => one_arg(Func::Ln),
            "sqrt" => one_arg(Func::Sqrt),
            "abs" => one_arg(Func::Abs),
            "floor" => one_arg(Func::Floor),
            "ceil" => one_arg(Func::Ceil),
            "cosh" => one_arg(Func::Cosh),
            "sinh" => one_arg(Func::Sinh),
            "min" | "max" => {
                let f = if bare == "min" { Func::Min } else { Func::Max };
                Ok(Expr::Call(
                    f,
                    args.iter()
                        .map(|a| self.expr(a))
                        .collect::<Result<_, _>>()?,
                ))
            }
            "p" | "eps1" => {
                if !self.scope.has_process() {
                    return cerr(
                        format!(
                            "`{name}(...)` needs a process: list [setting] processes or [setting.vectors]"
                        ),
                        name_span,
                    );
                }
                if args.len() != 1 {
                    return cerr(format!("`{name}` takes one argument"), name_span);
                }
                let f = if bare == "p" {
                    ProcFunc::P
                } else {
                    ProcFunc::Eps1
                };
                Ok(Expr::Proc(f, Box::new(self.expr(&args[0])?)))
            }
            "sum" | "max_bins" | "min_bins" | "count" => {
                self.binder(Elements::Bins, bare, name, args, name_span)
            }
            "sum_dims" | "max_dims" | "min_dims" | "count_dims" => {
                if !self.scope.has_dims() {
                    return cerr(
                        format!(
                            "`{name}(...)` needs states with dimensions: only multidimensional claims (kind `multidim` with `expr`) have them"
                        ),
                        name_span,
                    );
                }
                self.binder(Elements::Dims, bare, name, args, name_span)
            }
            _ => {
                let functions = self.scope.functions();
                if let Some(f) = functions.iter().find(|f| f.name == name) {
                    return self.env_call(f, args, name_span);
                }
                let mut known: Vec<String> = FUNCTIONS.iter().map(|s| s.to_string()).collect();
                known.extend(functions.iter().map(|f| f.name.clone()));
                let hint = closest(bare, known.iter())
                    .map(|c| format!("did you mean `{c}`? "))
                    .unwrap_or_default();
                let _ = span;
                let mut accepted = FUNCTIONS.join(", ");
                for f in &functions {
                    accepted.push_str(", ");
                    accepted.push_str(&f.signature());
                }
                cerr(
                    format!(
                        "unknown function `{}`; {hint}accepted: {accepted}",
                        super::syntax::excerpt(name, 40),
                    ),
                    name_span,
                )
            }
        }
    }

    /// A call of a function of the state: the arity, and literal arguments that are not
    /// integers, are compile errors; other arguments are checked at evaluation.
    /// A binder `name(f[, pred])` or `count…(pred)` over `over` (`bare`: the name without a
    /// namespace): its body compiled with the elements' names in scope.
    fn binder(
        &self,
        over: Elements,
        bare: &str,
        name: &str,
        args: &[Ast],
        name_span: &Range<usize>,
    ) -> Result<Expr, CompileError> {
        let (nested, what, example, count_example) = match over {
            Elements::Bins => (self.in_bins, "per-bin", "exp(alpha*y), y >= 0", "y >= 0"),
            Elements::Dims => (
                self.in_dims,
                "per-dimension",
                "gap(a), avg(a) > 0",
                "gap(a) >= 1",
            ),
        };
        if nested {
            return cerr(
                format!(
                    "`{name}(...)` inside another binder over the {} is not allowed",
                    over.plural()
                ),
                name_span,
            );
        }
        let inner = Compiler {
            scope: self.scope,
            in_bins: self.in_bins || over == Elements::Bins,
            in_dims: self.in_dims || over == Elements::Dims,
        };
        let [sum, max, _, count] = over.names();
        if bare == count {
            if args.len() != 1 {
                return cerr(
                    format!("`{count}` takes one predicate, e.g. {count}({count_example})"),
                    name_span,
                );
            }
            return Ok(Expr::count(over, inner.formula(&args[0])?));
        }
        if args.is_empty() || args.len() > 2 {
            return cerr(
                format!(
                    "`{name}` takes a {what} expression and an optional predicate, e.g. {name}({example})"
                ),
                name_span,
            );
        }
        let agg = if bare == sum {
            Agg::Sum
        } else if bare == max {
            Agg::Max
        } else {
            Agg::Min
        };
        let f = inner.expr(&args[0])?;
        let pred = match args.get(1) {
            Some(a) => Some(inner.formula(a)?),
            None => None,
        };
        Ok(Expr::over(over, agg, f, pred))
    }

    fn env_call(
        &self,
        f: &EnvFunc,
        args: &[Ast],
        name_span: &Range<usize>,
    ) -> Result<Expr, CompileError> {
        if args.len() != f.params.len() {
            return cerr(
                format!(
                    "`{}` takes {} argument(s), got {}",
                    f.signature(),
                    f.params.len(),
                    args.len()
                ),
                name_span,
            );
        }
        let mut out = Vec::with_capacity(args.len());
        for (k, a) in args.iter().enumerate() {
            let e = self.expr(a)?;
            if let Expr::Num(q, _) = &e
                && !q.is_integer()
            {
                return cerr(
                    format!(
                        "`{}`: the argument `{}` must be an integer, got {q}",
                        f.signature(),
                        f.params[k]
                    ),
                    &a.span,
                );
            }
            out.push(e);
        }
        Ok(Expr::EnvCall(f.clone(), out))
    }
}

/// Folds an operation on two literals into a literal when its exact value is rational (so
/// `(1 - 1/4)/n` costs one division per evaluation, not three).
fn fold(e: Expr) -> Expr {
    if let Expr::Op(op, a, b) = &e
        && let (Expr::Num(x, _), Expr::Num(y, _)) = (a.as_ref(), b.as_ref())
        && let Ok(q) = apply_op(&super::domain::Exact, *op, x, y)
    {
        return num(q);
    }
    e
}

fn resolved(r: Resolved) -> Expr {
    match r {
        Resolved::Slot(s) => Expr::Slot(s),
        Resolved::Value(q) => num(q),
    }
}

/// The values of the per-bin names at one bin, and of the per-dimension name `a` at one
/// dimension, in the domain of the evaluation.
#[derive(Debug, Clone)]
pub struct Frame<N> {
    vals: [Option<N>; 6],
    dim: Option<N>,
}

impl<N> Default for Frame<N> {
    fn default() -> Self {
        Frame {
            vals: [None, None, None, None, None, None],
            dim: None,
        }
    }
}

impl<N: Clone> Frame<N> {
    /// Sets a per-bin value.
    pub fn set(&mut self, v: BinVar, x: N) {
        self.vals[v as usize] = Some(x);
    }
    /// A per-bin value.
    pub fn get(&self, v: BinVar) -> Option<&N> {
        self.vals[v as usize].as_ref()
    }
    /// Sets the per-dimension value `a`.
    ///
    /// ```
    /// let mut f = balloc::lang::Frame::<f64>::default();
    /// assert_eq!(f.dim(), None);
    /// f.set_dim(2.0);
    /// assert_eq!(f.dim(), Some(&2.0));
    /// ```
    pub fn set_dim(&mut self, x: N) {
        self.dim = Some(x);
    }
    /// The per-dimension value `a`, inside a binder over the dimensions (see
    /// [`Frame::set_dim`]).
    pub fn dim(&self) -> Option<&N> {
        self.dim.as_ref()
    }
}

/// What an evaluation needs from the state.
pub trait Env<D: Domain> {
    /// The value of a slot.
    fn slot(&self, d: &D, slot: usize) -> Eval<D::N>;
    /// `p(i)` or `eps1(δ)` at an exact argument.
    fn proc(&self, d: &D, f: ProcFunc, arg: &Q) -> Eval<D::N> {
        let _ = (d, arg);
        Err(EvalError::Unavailable(format!(
            "{} needs a process",
            match f {
                ProcFunc::P => "p(i)",
                ProcFunc::Eps1 => "eps1(δ)",
            }
        )))
    }
    /// The number of bins.
    fn bins(&self) -> usize {
        0
    }
    /// The per-bin values `vars` at bin `bin` (0-based).
    fn frame(&self, d: &D, bin: usize, vars: BinVars) -> Eval<Frame<D::N>> {
        let _ = (d, bin, vars);
        Err(EvalError::Unavailable(
            "per-bin names need a load vector".into(),
        ))
    }
    /// Classes of bins with equal values of `vars`, as (representative bin, size), when the
    /// environment knows them (tied loads); `None`: every bin is its own class.
    fn classes(&self, vars: BinVars) -> Option<Vec<(usize, usize)>> {
        let _ = vars;
        None
    }
    /// The number of dimensions `D` of the state (binders over the dimensions).
    fn dims(&self) -> Eval<usize> {
        Err(EvalError::Unavailable(
            "binders over the dimensions need a multidimensional state".into(),
        ))
    }
    /// A function of the state ([`EnvFunc`]) at exact integer arguments; an argument out of
    /// range is an [`EvalError::Undefined`] naming it ([`EnvFunc::index`]).
    fn call(&self, d: &D, f: &EnvFunc, args: &[i64]) -> Eval<D::N> {
        let _ = (d, args);
        Err(EvalError::Unavailable(format!(
            "{} needs a state that defines it",
            f.signature()
        )))
    }
}

/// An environment with slots only.
pub struct Slots<'a, N>(pub &'a [N]);

impl<D: Domain> Env<D> for Slots<'_, D::N> {
    fn slot(&self, _: &D, slot: usize) -> Eval<D::N> {
        self.0
            .get(slot)
            .cloned()
            .ok_or_else(|| EvalError::Undefined(format!("slot {slot}")))
    }
}

/// Argument `k` of a function of the state as an exact integer: `Unavailable` when the domain
/// does not know it exactly, `Undefined` when it is not an integer or beyond `i64`.
fn int_arg<D: Domain>(d: &D, v: &D::N, f: &EnvFunc, k: usize) -> Eval<i64> {
    let param = f.params.get(k).map_or("?", |p| p.as_str());
    let q = d.to_rational(v).ok_or_else(|| {
        EvalError::Unavailable(format!(
            "{}: the argument `{param}` must be known exactly, got {}",
            f.signature(),
            d.show(v)
        ))
    })?;
    if !q.is_integer() {
        return Err(EvalError::Undefined(format!(
            "{}: the argument `{param}` must be an integer, got {q}",
            f.signature()
        )));
    }
    num_traits::ToPrimitive::to_i64(&q.to_integer()).ok_or_else(|| {
        EvalError::Undefined(format!(
            "{}: the argument `{param}` = {q} is out of range",
            f.signature()
        ))
    })
}

fn exact_arg<D: Domain>(d: &D, v: &D::N, what: &str) -> Eval<Q> {
    d.to_rational(v).ok_or_else(|| {
        EvalError::Unavailable(format!(
            "the argument of {what} must be known exactly, got {}",
            d.show(v)
        ))
    })
}

impl Expr {
    /// Evaluates in the domain `d`; `frame` holds the per-bin values inside a binder.
    ///
    /// ```
    /// use balloc::lang::{compile_str, Domain, Exact, Float, Slots};
    /// let e = balloc::lang::compile_value("1/2 + n^2", &["n"]).unwrap();
    /// // Exactly 1/2 + 9 = 19/2, and 9.5 in floats.
    /// let q = e.eval(&Exact, &Slots(&[Exact.float(3.0).unwrap()]), None).unwrap();
    /// assert_eq!(q.to_string(), "19/2");
    /// let f = e.eval(&Float, &Slots(&[Float.float(3.0).unwrap()]), None).unwrap();
    /// assert_eq!(f.v.to_f64(), 9.5);
    /// let _ = compile_str;
    /// ```
    pub fn eval<D: Domain>(
        &self,
        d: &D,
        env: &dyn Env<D>,
        frame: Option<&Frame<D::N>>,
    ) -> Eval<D::N> {
        match self {
            Expr::Num(q, f) => d.literal(q, *f),
            Expr::Slot(s) => env.slot(d, *s),
            Expr::Bin(v) => frame
                .and_then(|f| f.get(*v))
                .cloned()
                .ok_or_else(|| EvalError::Unavailable(format!("per-bin `{}`", v.name()))),
            Expr::Neg(a) => d.neg(&a.eval(d, env, frame)?),
            Expr::Op(op, a, b) => {
                let x = a.eval(d, env, frame)?;
                let y = b.eval(d, env, frame)?;
                apply_op(d, *op, &x, &y)
            }
            Expr::Call(f, args) => {
                let first = args[0].eval(d, env, frame)?;
                let mut acc = apply_func(d, *f, &first)?;
                for a in &args[1..] {
                    acc = apply_fold(d, *f, &acc, &a.eval(d, env, frame)?)?;
                }
                Ok(acc)
            }
            Expr::Proc(f, a) => {
                let v = a.eval(d, env, frame)?;
                let q = exact_arg(
                    d,
                    &v,
                    if *f == ProcFunc::P {
                        "p(i)"
                    } else {
                        "eps1(δ)"
                    },
                )?;
                env.proc(d, *f, &q)
            }
            Expr::Ind(fm) => Ok(d.indicator(fm.truth(d, env, frame, None)?)),
            Expr::Over(on, agg, f, pred, vars, flat) => {
                if let Some(p) = flat
                    && let Ok(acc) = p.run(d, env, frame, *agg, *vars)
                {
                    return finish(*on, *agg, acc, d);
                }
                over(d, env, frame, (*on, *vars), *agg, f, pred.as_deref())
            }
            Expr::Count(on, pred, vars) => {
                let mut k = 0usize;
                each_element(d, env, frame, *on, *vars, |fr, size| {
                    if pred.truth(d, env, Some(fr), None)? {
                        k += size;
                    }
                    Ok(())
                })?;
                d.float(k as f64)
            }
            Expr::EnvCall(f, args) => {
                let mut ks = Vec::with_capacity(args.len());
                for (k, a) in args.iter().enumerate() {
                    ks.push(int_arg(d, &a.eval(d, env, frame)?, f, k)?);
                }
                env.call(d, f, &ks)
            }
            Expr::Dim => frame
                .and_then(|f| f.dim())
                .cloned()
                .ok_or_else(|| EvalError::Unavailable(format!("per-dimension `{DIM_VAR}`"))),
        }
    }

    /// The aggregate `agg` of `f` over the elements `on` where `pred` holds, with the per-bin
    /// names `f` and `pred` read found once, here, rather than at every evaluation.
    ///
    /// ```
    /// use balloc::lang::{compile_value, Agg, BinVar, Expr};
    /// // `sum(y*p)` reads y and p of every bin, and nothing else.
    /// let e = compile_value("sum(y*p)", &[]).unwrap();
    /// let Expr::Over(_, Agg::Sum, _, None, v, _) = e else { panic!("a sum") };
    /// assert!(v.has(BinVar::Y) && v.has(BinVar::P) && !v.has(BinVar::X));
    /// assert_eq!(v, e.uses().bin_vars);
    /// ```
    pub fn over(on: Elements, agg: Agg, f: Expr, pred: Option<Formula>) -> Expr {
        let mut vars = f.uses().bin_vars;
        if let Some(p) = &pred {
            vars = vars.union(p.uses().bin_vars);
        }
        let flat = match on {
            Elements::Bins => Postfix::compile(&f, pred.as_ref()).map(Box::new),
            Elements::Dims => None,
        };
        Expr::Over(on, agg, Box::new(f), pred.map(Box::new), vars, flat)
    }

    /// `count(pred)` over the elements `on`, with the per-bin names `pred` reads found once.
    ///
    /// ```
    /// use balloc::lang::{compile_value, BinVar, Expr};
    /// let e = compile_value("count(y >= 0)", &[]).unwrap();
    /// let Expr::Count(_, _, v) = e else { panic!("a count") };
    /// assert!(v.has(BinVar::Y) && !v.has(BinVar::P));
    /// assert_eq!(v.0.count_ones(), 1);
    /// ```
    pub fn count(on: Elements, pred: Formula) -> Expr {
        let vars = pred.uses().bin_vars;
        Expr::Count(on, Box::new(pred), vars)
    }

    /// What the expression uses.
    pub fn uses(&self) -> Uses {
        let mut u = Uses::default();
        self.collect(&mut u);
        u.slots.sort_unstable();
        u.slots.dedup();
        u
    }

    fn collect(&self, u: &mut Uses) {
        match self {
            Expr::Num(..) => {}
            Expr::Slot(s) => u.slots.push(*s),
            Expr::Bin(v) => u.bin_vars.add(*v),
            Expr::Neg(a) => a.collect(u),
            Expr::Op(op, a, b) => {
                if *op == BinOp::Pow && !matches!(**b, Expr::Num(ref q, _) if q.is_integer()) {
                    u.transcendental = true;
                }
                a.collect(u);
                b.collect(u);
            }
            Expr::Call(f, args) => {
                if matches!(
                    f,
                    Func::Exp | Func::Ln | Func::Sqrt | Func::Cosh | Func::Sinh
                ) {
                    u.transcendental = true;
                }
                args.iter().for_each(|a| a.collect(u));
            }
            Expr::Proc(_, a) => {
                u.proc_funcs = true;
                a.collect(u);
            }
            Expr::Ind(f) => f.collect(u),
            Expr::Over(on, _, f, p, ..) => {
                u.add_binder(*on);
                f.collect(u);
                if let Some(p) = p {
                    p.collect(u);
                }
            }
            Expr::Count(on, p, _) => {
                u.add_binder(*on);
                p.collect(u);
            }
            Expr::EnvCall(_, args) => {
                u.env_funcs = true;
                args.iter().for_each(|a| a.collect(u));
            }
            Expr::Dim => u.dim_var = true,
        }
    }

    /// The value when the expression is a constant known at compile time.
    pub fn as_constant(&self) -> Option<Q> {
        let u = self.uses();
        if !u.slots.is_empty()
            || u.proc_funcs
            || u.binders
            || !u.bin_vars.is_empty()
            || u.env_funcs
            || u.dim_binders
            || u.dim_var
        {
            return None;
        }
        self.eval(&super::domain::Exact, &Slots::<Q>(&[]), None)
            .ok()
    }
}

/// `x op y` in the domain `d`.
#[inline(always)]
pub(super) fn apply_op<D: Domain>(d: &D, op: BinOp, x: &D::N, y: &D::N) -> Eval<D::N> {
    match op {
        BinOp::Add => d.add(x, y),
        BinOp::Sub => d.sub(x, y),
        BinOp::Mul => d.mul(x, y),
        BinOp::Div => d.div(x, y),
        BinOp::Pow => d.pow(x, y),
    }
}

/// `f` at its first argument `x`: the value of a one-argument function, and `x` itself for
/// `min` and `max` (folded over the other arguments by [`apply_fold`]).
#[inline(always)]
pub(super) fn apply_func<D: Domain>(d: &D, f: Func, x: &D::N) -> Eval<D::N> {
    match f {
        Func::Exp => d.exp(x),
        Func::Ln => d.ln(x),
        Func::Sqrt => d.sqrt(x),
        Func::Abs => d.abs(x),
        Func::Floor => d.floor(x),
        Func::Ceil => d.ceil(x),
        Func::Cosh => d.cosh(x),
        Func::Sinh => d.sinh(x),
        Func::Min | Func::Max => Ok(x.clone()),
    }
}

/// One more argument `v` of `min`/`max` folded into `acc` (left to right).
#[inline(always)]
pub(super) fn apply_fold<D: Domain>(d: &D, f: Func, acc: &D::N, v: &D::N) -> Eval<D::N> {
    if f == Func::Min {
        d.min(acc, v)
    } else {
        d.max(acc, v)
    }
}

fn bin_classes<D: Domain>(env: &dyn Env<D>, vars: BinVars) -> Vec<(usize, usize)> {
    env.classes(vars)
        .unwrap_or_else(|| (0..env.bins()).map(|b| (b, 1)).collect())
}

/// The frame of one bin inside a binder over the bins, keeping the dimension of an enclosing
/// binder over the dimensions.
fn bin_frame<D: Domain>(
    d: &D,
    env: &dyn Env<D>,
    outer: Option<&Frame<D::N>>,
    bin: usize,
    vars: BinVars,
) -> Eval<Frame<D::N>> {
    let mut fr = env.frame(d, bin, vars)?;
    if let Some(a) = outer.and_then(|o| o.dim()) {
        fr.set_dim(a.clone());
    }
    Ok(fr)
}

/// The frame of dimension `a` (1-based) inside a binder over the dimensions, keeping the bin of
/// an enclosing binder over the bins.
fn dim_frame<D: Domain>(d: &D, outer: Option<&Frame<D::N>>, a: usize) -> Eval<Frame<D::N>> {
    let mut fr = outer.cloned().unwrap_or_default();
    fr.set_dim(d.rational(&Q::from_integer(a.into()))?);
    Ok(fr)
}

/// Adds `v` to an aggregate (`size` copies of it for a sum over a class of tied bins).
pub(super) fn accumulate<D: Domain>(
    d: &D,
    agg: Agg,
    acc: Option<D::N>,
    v: D::N,
    size: usize,
) -> Eval<D::N> {
    let times = |v: D::N| -> Eval<D::N> {
        if size == 1 {
            Ok(v)
        } else {
            d.mul(&v, &d.float(size as f64)?)
        }
    };
    Ok(match (agg, acc) {
        (Agg::Sum, None) => times(v)?,
        (Agg::Sum, Some(a)) => d.add(&a, &times(v)?)?,
        (Agg::Max, None) | (Agg::Min, None) => v,
        (Agg::Max, Some(a)) => d.max(&a, &v)?,
        (Agg::Min, Some(a)) => d.min(&a, &v)?,
    })
}

/// Calls `visit` with the frame of every element of a binder over `on` and the number of
/// elements it stands for: the classes of bins with equal values of `vars` (one frame per
/// class, when the environment knows them), or the dimensions `a = 1..D` one by one. The
/// frames keep the element of an enclosing binder over the other range.
pub(super) fn each_element<D: Domain>(
    d: &D,
    env: &dyn Env<D>,
    outer: Option<&Frame<D::N>>,
    on: Elements,
    vars: BinVars,
    mut visit: impl FnMut(&Frame<D::N>, usize) -> Eval<()>,
) -> Eval<()> {
    match on {
        Elements::Bins => {
            for (bin, size) in bin_classes(env, vars) {
                visit(&bin_frame(d, env, outer, bin, vars)?, size)?;
            }
        }
        Elements::Dims => {
            for a in 1..=env.dims()? {
                visit(&dim_frame(d, outer, a)?, 1)?;
            }
        }
    }
    Ok(())
}

/// The aggregate `agg` of `f` over the elements `on` where `pred` holds; `vars` are the per-bin
/// names the two read.
fn over<D: Domain>(
    d: &D,
    env: &dyn Env<D>,
    outer: Option<&Frame<D::N>>,
    (on, vars): (Elements, BinVars),
    agg: Agg,
    f: &Expr,
    pred: Option<&Formula>,
) -> Eval<D::N> {
    let mut acc: Option<D::N> = None;
    each_element(d, env, outer, on, vars, |fr, size| {
        if let Some(p) = pred
            && !p.truth(d, env, Some(fr), None)?
        {
            return Ok(());
        }
        let v = f.eval(d, env, Some(fr))?;
        acc = Some(accumulate(d, agg, acc.take(), v, size)?);
        Ok(())
    })?;
    finish(on, agg, acc, d)
}

/// The value of an aggregate from its accumulator: 0 for an empty sum, an error for the
/// maximum or minimum over no element.
fn finish<D: Domain>(on: Elements, agg: Agg, acc: Option<D::N>, d: &D) -> Eval<D::N> {
    match (agg, acc) {
        (_, Some(a)) => Ok(a),
        (Agg::Sum, None) => Ok(d.zero()),
        (_, None) => {
            let [_, max, min, _] = on.names();
            Err(EvalError::Undefined(format!(
                "{max}/{min} over no {} (the predicate holds nowhere)",
                on.plural()
            )))
        }
    }
}

impl Formula {
    /// Whether the formula holds, decided in the domain `d` (an [`EvalError::Undecided`] when
    /// an enclosure cannot tell). `tol` is the absolute tolerance of the comparisons at the top
    /// level of a claim: `a <= b` holds iff `a ≤ b + tol`, `a == b` iff `|a − b| ≤ tol`.
    /// Connectives are three-valued: `false && undecided` is `false`.
    pub fn truth<D: Domain>(
        &self,
        d: &D,
        env: &dyn Env<D>,
        frame: Option<&Frame<D::N>>,
        tol: Option<&Q>,
    ) -> Eval<bool> {
        match self {
            Formula::Cmp(a, c, b) => {
                let x = a.eval(d, env, frame)?;
                let y = b.eval(d, env, frame)?;
                cmp_tol(d, &x, *c, &y, tol)
            }
            Formula::And(a, b) => {
                let l = a.truth(d, env, frame, tol);
                if matches!(l, Ok(false)) {
                    return Ok(false);
                }
                let r = b.truth(d, env, frame, tol);
                match (l, r) {
                    (_, Ok(false)) => Ok(false),
                    (Ok(true), Ok(true)) => Ok(true),
                    (Err(e), _) | (_, Err(e)) => Err(e),
                    _ => unreachable!("all cases covered"),
                }
            }
            Formula::Or(a, b) => {
                let l = a.truth(d, env, frame, tol);
                if matches!(l, Ok(true)) {
                    return Ok(true);
                }
                let r = b.truth(d, env, frame, tol);
                match (l, r) {
                    (_, Ok(true)) => Ok(true),
                    (Ok(false), Ok(false)) => Ok(false),
                    (Err(e), _) | (_, Err(e)) => Err(e),
                    _ => unreachable!("all cases covered"),
                }
            }
            Formula::Not(a) => a.truth(d, env, frame, tol).map(|t| !t),
        }
    }

    /// What the formula uses.
    pub fn uses(&self) -> Uses {
        let mut u = Uses::default();
        self.collect(&mut u);
        u.slots.sort_unstable();
        u.slots.dedup();
        u
    }

    fn collect(&self, u: &mut Uses) {
        match self {
            Formula::Cmp(a, _, b) => {
                a.collect(u);
                b.collect(u);
            }
            Formula::And(a, b) | Formula::Or(a, b) => {
                a.collect(u);
                b.collect(u);
            }
            Formula::Not(a) => a.collect(u),
        }
    }

    /// The comparisons of the formula, left to right.
    pub fn atoms(&self) -> Vec<(&Expr, Cmp, &Expr)> {
        let mut out = Vec::new();
        self.walk(&mut |f| {
            if let Formula::Cmp(a, c, b) = f {
                out.push((a, *c, b));
            }
        });
        out
    }

    fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Formula)) {
        f(self);
        match self {
            Formula::And(a, b) | Formula::Or(a, b) => {
                a.walk(f);
                b.walk(f);
            }
            Formula::Not(a) => a.walk(f),
            Formula::Cmp(..) => {}
        }
    }
}

/// `x cmp y` with an absolute tolerance (see [`Formula::truth`]).
pub fn cmp_tol<D: Domain>(d: &D, x: &D::N, c: Cmp, y: &D::N, tol: Option<&Q>) -> Eval<bool> {
    let t = match tol {
        Some(t) if !t.is_zero() => Some(d.rational(t)?),
        _ => None,
    };
    let Some(t) = t else {
        return Ok(c.test(d.cmp(x, y)?));
    };
    Ok(match c {
        Cmp::Le => d.cmp(x, &d.add(y, &t)?)? != Ordering::Greater,
        Cmp::Lt => d.cmp(x, &d.add(y, &t)?)? == Ordering::Less,
        Cmp::Ge => d.cmp(&d.add(x, &t)?, y)? != Ordering::Less,
        Cmp::Gt => d.cmp(&d.add(x, &t)?, y)? == Ordering::Greater,
        Cmp::Eq => d.cmp(&d.abs(&d.sub(x, y)?)?, &t)? != Ordering::Greater,
        Cmp::Ne => d.cmp(&d.abs(&d.sub(x, y)?)?, &t)? == Ordering::Greater,
    })
}

/// The slack of `x cmp y` (positive when it holds, as far as floats can tell): `y − x` for `<=`,
/// `<`; `x − y` for `>=`, `>`; `tol − |x − y|` for `==`; `|x − y| − tol` for `!=`.
pub fn slack<D: Domain>(d: &D, x: &D::N, c: Cmp, y: &D::N, tol: &Q) -> Eval<D::N> {
    Ok(match c {
        Cmp::Le | Cmp::Lt => d.sub(y, x)?,
        Cmp::Ge | Cmp::Gt => d.sub(x, y)?,
        Cmp::Eq => d.sub(&d.rational(tol)?, &d.abs(&d.sub(x, y)?)?)?,
        Cmp::Ne => d.sub(&d.abs(&d.sub(x, y)?)?, &d.rational(tol)?)?,
    })
}

/// A scope of plain names, slot `k` for `names[k]` (for constants and tests).
pub struct NameScope<'a>(pub &'a [&'a str]);

impl Scope for NameScope<'_> {
    fn resolve(&self, name: &str) -> Result<Option<Resolved>, String> {
        Ok(self.0.iter().position(|n| *n == name).map(Resolved::Slot))
    }
    fn known(&self) -> Vec<(String, Vec<String>)> {
        vec![(
            "names".into(),
            self.0.iter().map(|s| s.to_string()).collect(),
        )]
    }
    fn has_process(&self) -> bool {
        false
    }
}

/// Parses and compiles an arithmetic expression over the given names (slot `k` for `names[k]`).
pub fn compile_value(text: &str, names: &[&str]) -> Result<Expr, CompileError> {
    let ast = super::syntax::parse(text).map_err(|e| CompileError {
        message: e.message,
        at: e.at,
    })?;
    compile_expr(&ast, &NameScope(names), false)
}

/// Parses and compiles a formula over the given names.
pub fn compile_str(text: &str, names: &[&str]) -> Result<Formula, CompileError> {
    let ast = super::syntax::parse(text).map_err(|e| CompileError {
        message: e.message,
        at: e.at,
    })?;
    compile_formula(&ast, &NameScope(names), false)
}

/// `1` (for callers building expressions).
pub fn one() -> Expr {
    num(Q::one())
}

/// A literal expression.
pub fn num(q: Q) -> Expr {
    let f = num_traits::ToPrimitive::to_f64(&q).unwrap_or(f64::NAN);
    Expr::Num(q, f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::domain::{Enclosure, Exact, ExpSums, Float};

    /// A three-bin state y = (1, 0, −1) with p = (1/6, 1/3, 1/2) and slot 0 = α = 1/2.
    struct Three;
    fn yq(b: usize) -> Q {
        Q::from_integer((1 - b as i64).into())
    }
    fn pq(b: usize) -> Q {
        Q::new((b as i64 + 1).into(), 6.into())
    }
    impl<D: Domain> Env<D> for Three {
        fn slot(&self, d: &D, _: usize) -> Eval<D::N> {
            d.rational(&Q::new(1.into(), 2.into()))
        }
        fn bins(&self) -> usize {
            3
        }
        fn frame(&self, d: &D, bin: usize, vars: BinVars) -> Eval<Frame<D::N>> {
            let mut f = Frame::default();
            if vars.has(BinVar::Y) {
                f.set(BinVar::Y, d.rational(&yq(bin))?);
            }
            if vars.has(BinVar::P) {
                f.set(BinVar::P, d.rational(&pq(bin))?);
            }
            if vars.has(BinVar::Index) {
                f.set(BinVar::Index, d.float(bin as f64 + 1.0)?);
            }
            Ok(f)
        }
    }

    fn formula(s: &str) -> Formula {
        compile_str(s, &["alpha"]).unwrap()
    }
    fn expr(s: &str) -> Expr {
        compile_value(s, &["alpha"]).unwrap()
    }

    #[test]
    fn binders_and_indicators() {
        // Σ p·y = (1/6)(1) + (1/3)(0) + (1/2)(−1) = −1/3; count(y >= 0) = 2;
        // Σ_{y≥0} y² = 1; max_bins(p) = 1/2; min_bins(y, p > 1/6) = −1.
        let e = expr("sum(p*y)");
        assert_eq!(
            e.eval(&Exact, &Three, None).unwrap(),
            Q::new((-1).into(), 3.into())
        );
        assert_eq!(
            expr("count(y >= 0)").eval(&Exact, &Three, None).unwrap(),
            Q::from_integer(2.into())
        );
        assert_eq!(
            expr("sum(y^2, y >= 0)").eval(&Exact, &Three, None).unwrap(),
            Q::one()
        );
        assert_eq!(
            expr("sum(y^2 * (y >= 0))")
                .eval(&Exact, &Three, None)
                .unwrap(),
            Q::one()
        );
        assert_eq!(
            expr("max_bins(p)").eval(&Exact, &Three, None).unwrap(),
            Q::new(1.into(), 2.into())
        );
        assert_eq!(
            expr("min_bins(y, p > 1/6)")
                .eval(&Exact, &Three, None)
                .unwrap(),
            -Q::one()
        );
        assert!(
            expr("max_bins(y, y > 5)")
                .eval(&Exact, &Three, None)
                .is_err()
        );
    }

    #[test]
    fn every_domain_agrees_on_an_exponential_sum() {
        // Σ e^{α y} = e^{1/2} + 1 + e^{−1/2} = 1 + 2cosh(1/2) = 3.2552519304127614...
        let e = expr("sum(exp(alpha*y))");
        let want = 1.0 + 2.0 * 0.5f64.cosh();
        assert!((e.eval(&Float, &Three, None).unwrap().v.to_f64() - want).abs() < 1e-15);
        let enc = Enclosure { prec: 128 };
        let iv = e.eval(&enc, &Three, None).unwrap();
        assert!(iv.lo_f64() <= want && want <= iv.hi_f64() && iv.rel_width() < 1e-35);
        let s = ExpSums::default();
        let v = e.eval(&s, &Three, None).unwrap();
        assert_eq!(v.len(), 3);
        assert!(matches!(
            e.eval(&Exact, &Three, None),
            Err(EvalError::Unavailable(_))
        ));
        // The identity Σ e^{αy} = 1 + 2 cosh(α) holds exactly as exponential sums.
        let f = formula("sum(exp(alpha*y)) == 1 + 2*cosh(alpha*2/2)");
        assert!(f.truth(&s, &Three, None, None).unwrap());
    }

    #[test]
    fn three_valued_connectives() {
        let enc = Enclosure { prec: 64 };
        // exp(1) == exp(1) is undecided by enclosures; `false && undecided` is false,
        // `true || undecided` is true.
        let und = formula("exp(alpha) == exp(alpha)");
        assert!(matches!(
            und.truth(&enc, &Three, None, None),
            Err(EvalError::Undecided(_))
        ));
        assert!(
            !formula("1 > 2 && exp(alpha) == exp(alpha)")
                .truth(&enc, &Three, None, None)
                .unwrap()
        );
        assert!(
            formula("1 < 2 || exp(alpha) == exp(alpha)")
                .truth(&enc, &Three, None, None)
                .unwrap()
        );
        assert!(
            formula("!(1 > 2)")
                .truth(&Exact, &Three, None, None)
                .unwrap()
        );
        // Tolerance at the top level: 1 <= 1.05 + ... ; |1 − 1.05| ≤ 1/10.
        let t = Q::new(1.into(), 10.into());
        assert!(
            formula("1.05 <= 1")
                .truth(&Exact, &Three, None, Some(&t))
                .unwrap()
        );
        assert!(
            formula("1.05 == 1")
                .truth(&Exact, &Three, None, Some(&t))
                .unwrap()
        );
        assert!(
            !formula("1.2 == 1")
                .truth(&Exact, &Three, None, Some(&t))
                .unwrap()
        );
    }

    /// A toy state with dimensions: D = 2, three bins, the function `t(a, b) = 10a + b`, slot 0 =
    /// `alpha` = 1/2. Every bin has the same `y` (0), so the environment groups all bins into one
    /// class unless the expression reads `i` or `rank`.
    struct Grid;
    struct GridScope;
    impl Scope for GridScope {
        fn resolve(&self, name: &str) -> Result<Option<Resolved>, String> {
            Ok((name == "alpha").then_some(Resolved::Slot(0)))
        }
        fn known(&self) -> Vec<(String, Vec<String>)> {
            vec![("names".into(), vec!["alpha".into()])]
        }
        fn has_process(&self) -> bool {
            false
        }
        fn functions(&self) -> Vec<EnvFunc> {
            vec![EnvFunc::new(0, "t", &["a", "b"])]
        }
        fn has_dims(&self) -> bool {
            true
        }
    }
    impl<D: Domain> Env<D> for Grid {
        fn slot(&self, d: &D, _: usize) -> Eval<D::N> {
            d.rational(&Q::new(1.into(), 2.into()))
        }
        fn bins(&self) -> usize {
            3
        }
        fn frame(&self, d: &D, bin: usize, vars: BinVars) -> Eval<Frame<D::N>> {
            let mut f = Frame::default();
            if vars.has(BinVar::Y) {
                f.set(BinVar::Y, d.zero());
            }
            if vars.has(BinVar::Index) {
                f.set(BinVar::Index, d.float(bin as f64 + 1.0)?);
            }
            Ok(f)
        }
        fn classes(&self, vars: BinVars) -> Option<Vec<(usize, usize)>> {
            (!vars.has(BinVar::Index) && !vars.has(BinVar::Rank)).then(|| vec![(0, 3)])
        }
        fn dims(&self) -> Eval<usize> {
            Ok(2)
        }
        fn call(&self, d: &D, f: &EnvFunc, args: &[i64]) -> Eval<D::N> {
            let a = f.index(0, args[0], 2, "D")? as f64 + 1.0;
            let b = f.index(1, args[1], 3, "n")? as f64 + 1.0;
            d.float(10.0 * a + b)
        }
    }

    fn grid(s: &str) -> Result<Expr, CompileError> {
        let ast = crate::lang::parse(s).unwrap();
        compile_expr(&ast, &GridScope, false)
    }

    fn grid_value(s: &str) -> Eval<Q> {
        grid(s).unwrap().eval(&Exact, &Grid, None)
    }

    #[test]
    fn binders_over_dimensions_and_functions_of_the_state() {
        let v = |s: &str| grid_value(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        let int = |k: i64| Q::from_integer(k.into());
        // Σ_b Σ_a (10a + b) = Σ_a (30a + 1 + 2 + 3) = 36 + 66 = 102, either order of the binders.
        assert_eq!(v("sum(sum_dims(t(a, i)))"), int(102));
        assert_eq!(v("sum_dims(sum(t(a, i)))"), int(102));
        // Σ_a max_b t(a, b) = 13 + 23; count of dimensions with t(a, 1) > 15: a = 2 only.
        assert_eq!(v("sum_dims(max_bins(t(a, i)))"), int(36));
        assert_eq!(v("count_dims(t(a, 1) > 15)"), int(1));
        assert_eq!(v("max_dims(a, a < 2) + min_dims(t(a, 3))"), int(1 + 13));
        assert_eq!(v("sum_dims(a^2)"), int(5));
        // The call reads the bin through `i`: every bin is evaluated, t(1, 1) + t(1, 2) + t(1, 3)
        // = 36, not three times the class representative's 11. Without `i` the class of three
        // tied bins is evaluated once and counted three times: 3·t(1, 2) = 36.
        assert_eq!(v("sum(t(1, i))"), int(36));
        assert_eq!(v("sum(t(1, 2))"), int(36));
        assert_eq!(v("sum(t(2, 4 - i), y == 0)"), int(21 + 22 + 23));
        // What a tree uses.
        let u = grid("sum(sum_dims(t(a, i)))").unwrap().uses();
        assert!(u.env_funcs && u.dim_binders && u.dim_var && u.binders);
        assert!(grid("t(1, 1)").unwrap().as_constant().is_none());
    }

    #[test]
    fn bad_arguments_and_misplaced_names_are_errors() {
        // A literal argument that is not an integer is a compile error at the argument.
        let e = grid("t(1/2, 1)").unwrap_err();
        assert!(
            e.message
                .contains("`t(a, b)`: the argument `a` must be an integer, got 1/2")
        );
        assert_eq!(e.at, 2);
        let e = grid("t(1)").unwrap_err();
        assert!(
            e.message.contains("takes 2 argument(s), got 1"),
            "{}",
            e.message
        );
        // At evaluation: a non-integer value, an index out of range.
        let e = grid_value("t(alpha, 1)").unwrap_err().to_string();
        assert!(
            e.contains("t(a, b): the argument `a` must be an integer, got 1/2"),
            "{e}"
        );
        let e = grid_value("t(1, 4)").unwrap_err().to_string();
        assert!(e.contains("t(a, b): b = 4 is outside 1..=3 (n = 3)"), "{e}");
        // `a` outside a binder over the dimensions; nested binders over the dimensions.
        let e = grid("a + 1").unwrap_err();
        assert!(e.message.contains("per-dimension name"), "{}", e.message);
        let e = grid("sum_dims(sum_dims(a))").unwrap_err();
        assert!(
            e.message
                .contains("inside another binder over the dimensions")
        );
        // The function without its arguments, and a typo.
        let e = grid("t + 1").unwrap_err();
        assert!(e.message.contains("call it as t(a, b)"), "{}", e.message);
        let e = grid("tt(1, 1)").unwrap_err();
        assert!(e.message.contains("did you mean `t`?"), "{}", e.message);
        assert!(e.message.contains("count_dims, t(a, b)"), "{}", e.message);
        let e = grid("alpah").unwrap_err();
        assert!(
            e.message.contains("did you mean `alpha`")
                && e.message.contains("functions of the state: t(a, b)"),
            "{}",
            e.message
        );
        // A scope without dimensions and functions: the binders and calls are rejected, and
        // `a` is an ordinary name.
        let e = compile_str("sum_dims(1) <= 1", &["alpha"]).unwrap_err();
        assert!(
            e.message.contains("needs states with dimensions"),
            "{}",
            e.message
        );
        let e = compile_str("t(1, 1) <= 1", &["alpha"]).unwrap_err();
        assert!(e.message.contains("unknown function `t`"), "{}", e.message);
        assert!(compile_str("a <= 1", &["a"]).is_ok());
    }

    #[test]
    fn compile_errors_name_the_token() {
        let e = compile_str("alpha <= y", &["alpha"]).unwrap_err();
        assert!(e.message.contains("per-bin"), "{}", e.message);
        assert_eq!(e.at, 9);
        let e = compile_str("alpha <= alpah", &["alpha"]).unwrap_err();
        assert!(e.message.contains("did you mean `alpha`"), "{}", e.message);
        let e = compile_str("alpha + 1", &["alpha"]).unwrap_err();
        assert!(e.message.contains("expected a comparison"));
        let e = compile_str("sum(sum(y)) <= 1", &["alpha"]).unwrap_err();
        assert!(e.message.contains("inside another binder"));
        let e = compile_str("foo(1) <= 1", &["alpha"]).unwrap_err();
        assert!(e.message.contains("unknown function"));
        assert!(
            compile_str("exp <= 1", &["alpha"])
                .unwrap_err()
                .message
                .contains("is a function")
        );
    }
}
