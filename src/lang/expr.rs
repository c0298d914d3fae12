//! Compiled expressions and formulas, and the one evaluator of the claim language.
//!
//! `compile` resolves the names of a syntax tree ([`crate::lang::syntax`]) against a [`Scope`]
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
//! **Named binders.** `sum(j: f, pred)` (and `max_bins(j: …)`, `min_bins(j: …)`, `count(j: pred)`)
//! names its bin `j`: inside, `x[j]`, `y[j]`, `p[j]`, `w[j]`, `rank[j]` are the per-bin names at
//! bin `j` and `j` itself is its index. Binders nest when they are named, and an inner binder reads
//! the outer bin: `sum(i: sum(j: (x[j] > x[i]) * p[j]))` is `Σᵢ Σⱼ [xⱼ > xᵢ] pⱼ`. Names resolve
//! lexically, innermost first: a bare `x` is the bin of the innermost *unnamed* binder (or of a
//! per-bin claim), so `forall_bins = "p == count(j: x[j] > x)/n"` compares each bin with the others,
//! and `sum(i: sum((x > x[i]) * p))` is the same double sum with an unnamed inner binder. A binder
//! may not reuse the name of an enclosing one, nor a per-bin name (`i` only where no unnamed binder
//! over the bins encloses it), a function or a name of the claim; unnamed binders over the bins do
//! not nest (the inner `x` would hide the outer). At most [`MAX_BINDER_LEVELS`] levels.
//!
//! **The next state.** `P(event)` is the probability, over the exact law of the state after one
//! step (one batch when `b > 1`), that `event` holds; `P2(event)`, `P3(event)`, … after `k` steps;
//! `E(value)`, `E{k}(value)` the expectation. Inside them a prime reads the next state: `gap'`,
//! `Phi'`, `E_Phi'` (any quantity of the state), and in a binder `x'`, `y'`, `p'`, `w'`, `rank'`
//! (the same bin at the next state: the bins keep their labels, so `sum((x' - x)^2)` is the squared
//! change). Plain names read the current state: `P(Phi' >= (1 + t)*Phi)`. The environment gives
//! the law ([`Env::next_law`]); a scope says whether it has one ([`Scope::has_next`]).
//!
//! **Binders over the edges** of a graph (the scope's [`Scope::edge_names`]): `sum_edges(f[, pred])`,
//! `max_edges`, `min_edges`, `count_edges(pred)`, with per-edge names such as `x_a`, `x_b`,
//! `deg_a` (the graph claims: [`crate::graph::quantities::edge_names`]); named like the binders over
//! the bins (`sum_edges(f: x_a[f])`).
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
pub(crate) mod postfix;

use super::syntax::{Ast, BinOp, Cmp, Node};
use crate::exact::Q;
use num_traits::{One, Zero};
use postfix::Postfix;
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

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// A set of per-bin names (a bit set): the names of the state (`x`, `y`, …, bits 0–5) and the
/// primed names of the next state (`x'`, `y'`, …, bits 8–13; inside `P(...)` and `E(...)`).
///
/// ```
/// use balloc::lang::{BinVar, BinVars};
/// let mut v = BinVars::default();
/// v.add(BinVar::X);
/// v.add_next(BinVar::Y);
/// assert!(v.has(BinVar::X) && !v.has(BinVar::Y) && v.has_next(BinVar::Y));
/// assert_eq!(v.current().0.count_ones(), 1);
/// assert!(v.next().has(BinVar::Y) && !v.next().has(BinVar::X));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct BinVars(pub u16);

impl BinVars {
    /// Whether `v` is in the set.
    pub fn has(self, v: BinVar) -> bool {
        self.0 & v.bit() != 0
    }
    /// Adds `v`.
    pub fn add(&mut self, v: BinVar) {
        self.0 |= v.bit();
    }
    /// Whether the primed `v'` (the next state's) is in the set.
    pub fn has_next(self, v: BinVar) -> bool {
        self.0 & (v.bit() << 8) != 0
    }
    /// Adds the primed `v'`.
    pub fn add_next(&mut self, v: BinVar) {
        self.0 |= v.bit() << 8;
    }
    /// The names of the state (the unprimed ones).
    pub fn current(self) -> BinVars {
        BinVars(self.0 & 0xff)
    }
    /// The primed names, as the names of the next state (unprimed bits).
    pub fn next(self) -> BinVars {
        BinVars(self.0 >> 8)
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
/// per-bin names), the dimensions `a = 1..D` of a multidimensional state (`sum_dims`,
/// `max_dims`, `min_dims`, `count_dims`, with the name `a`), or the edges of a graph
/// (`sum_edges`, `max_edges`, `min_edges`, `count_edges`, with the per-edge names the scope
/// offers, [`Scope::edge_names`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Elements {
    /// The bins.
    Bins,
    /// The dimensions.
    Dims,
    /// The edges of a graph.
    Edges,
}

impl Elements {
    /// The binder names `[sum, max, min, count]` over this range.
    fn names(self) -> [&'static str; 4] {
        match self {
            Elements::Bins => ["sum", "max_bins", "min_bins", "count"],
            Elements::Dims => ["sum_dims", "max_dims", "min_dims", "count_dims"],
            Elements::Edges => ["sum_edges", "max_edges", "min_edges", "count_edges"],
        }
    }

    /// What the elements are called in messages.
    fn plural(self) -> &'static str {
        match self {
            Elements::Bins => "bins",
            Elements::Dims => "dimensions",
            Elements::Edges => "edges",
        }
    }
}

/// Where a binder over the bins or the edges sits among the enclosing ones: its `level` (the
/// number of binders over the bins or edges around it, a per-bin claim's own bin counting as
/// one), and whether its elements' frames must keep the enclosing elements (`keep`: the body
/// reads a name of an enclosing binder's element, `x[i]` inside `sum(j: ...)` of `sum(i: ...)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bind {
    /// The nesting level (0 for a binder at the top of a claim).
    pub level: u8,
    /// Whether the frames keep the enclosing elements.
    pub keep: bool,
}

/// The most binders over the bins and edges nested in one another.
pub const MAX_BINDER_LEVELS: usize = 8;

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
    "sum_edges",
    "max_edges",
    "min_edges",
    "count_edges",
    "P",
    "E",
];

/// The number of steps `k` of `P{k}` or `E{k}` (the probability or expectation over the state
/// after `k` steps or batches; `P` and `E` are one step), when `name` is one of them.
///
/// ```
/// use balloc::lang::expr::next_law_steps;
/// assert_eq!(next_law_steps("P"), Some(("P", 1)));
/// assert_eq!(next_law_steps("E3"), Some(("E", 3)));
/// assert_eq!(next_law_steps("P0"), Some(("P", 0)));
/// assert_eq!(next_law_steps("Phi"), None);
/// ```
pub fn next_law_steps(name: &str) -> Option<(&'static str, u64)> {
    let (head, rest) = match name.as_bytes().first()? {
        b'P' => ("P", &name[1..]),
        b'E' => ("E", &name[1..]),
        _ => return None,
    };
    if rest.is_empty() {
        return Some((head, 1));
    }
    if !rest.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    // Beyond u64: the largest value, which every limit refuses.
    Some((head, rest.parse().unwrap_or(u64::MAX)))
}

/// Whether `name` names a function of the language (`exp`, `min`, `sum`, ...), so that it cannot
/// also name a constant, a variable or a potential: `exp(x)` would call the function and a bare
/// `exp` read the constant. `with_process`: whether the process functions `p` and `eps1` count
/// (they exist only where a claim has a process).
///
/// ```
/// use balloc::lang::expr::is_function_name;
/// assert!(is_function_name("exp", true) && is_function_name("max", false));
/// assert!(is_function_name("p", true) && !is_function_name("p", false));
/// assert!(is_function_name("P2", true) && is_function_name("E", true));
/// assert!(!is_function_name("alpha", true) && !is_function_name("Phi", true));
/// ```
pub fn is_function_name(name: &str, with_process: bool) -> bool {
    (FUNCTIONS.contains(&name) || next_law_steps(name).is_some())
        && (with_process || !(matches!(name, "p" | "eps1") || next_law_steps(name).is_some()))
}

/// A compiled arithmetic expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A literal: its exact value and the nearest `f64` (kept so that floats do not convert
    /// the rational at every evaluation).
    Num(Q, f64),
    /// A state-level quantity, by slot.
    Slot(usize),
    /// A per-bin name at the bin of the innermost binder over the bins (or of a per-bin claim).
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
    /// An aggregate over the bins, the dimensions or the edges, with an optional predicate, the
    /// per-bin names the two read at this binder's bin, for a binder over the bins the two in
    /// postfix form when they have one (built by [`Expr::over`]), and where the binder sits.
    Over(
        Elements,
        Agg,
        Box<Expr>,
        Option<Box<Formula>>,
        BinVars,
        Option<Box<Postfix>>,
        Bind,
    ),
    /// `count(pred)`, `count_dims(pred)`, `count_edges(pred)`, the per-bin names `pred` reads
    /// (built by [`Expr::count`]), and where the binder sits.
    Count(Elements, Box<Formula>, BinVars, Bind),
    /// A function of the state at exact integer arguments ([`EnvFunc`]).
    EnvCall(EnvFunc, Vec<Expr>),
    /// The per-dimension name `a` (inside a binder over the dimensions).
    Dim,
    /// A quantity of the next state (`gap'`, `Phi'`): slot `s` evaluated at the state after the
    /// step(s) of the enclosing `P(...)` or `E(...)`.
    NextSlot(usize),
    /// A primed per-bin name (`x'`, `y'`, `p'`, `w'`, `rank'`) at the bin of the innermost binder:
    /// its value at the next state.
    NextBin(BinVar),
    /// A per-bin name at the bin of the enclosing binder at `level` (`x[i]` inside `sum(j: ...)`
    /// of `sum(i: ...)`; a bare `x` inside `sum(j: ...)` of a per-bin claim), primed or not.
    Outer(u8, BinVar, bool),
    /// Per-edge name `k` ([`Scope::edge_names`]) at the edge of the binder over the edges at
    /// `level`.
    Edge(u8, u16),
    /// `P{k}(event)`: the probability, over the exact law of the state after `k` steps (or
    /// batches), that the event holds; the event reads the next state through primed names.
    /// With what the event uses (for the environment: which states may be merged).
    Prob(u32, Box<Formula>, Box<Uses>),
    /// `E{k}(f)`: the expectation of `f` over the same law.
    Mean(u32, Box<Expr>, Box<Uses>),
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
    /// Whether the law of the next state is known, so that `P(...)`, `E(...)` and primed names
    /// (`gap'`) may be used.
    fn has_next(&self) -> bool {
        false
    }
    /// Resolves a primed name `name'` (given without its prime): the quantity at the next state.
    /// By default the name's slot ([`Scope::resolve`]); a scope refuses names that do not change
    /// from one state to the next (constants).
    fn resolve_next(&self, name: &str) -> Result<Option<Resolved>, String> {
        self.resolve(name)
    }
    /// The per-edge names of the binders over the edges (`sum_edges`, ...), in the order the
    /// environment numbers them ([`Env::edge_value`]); none by default (no edges).
    fn edge_names(&self) -> Vec<&'static str> {
        Vec::new()
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
    /// Slots read (sorted, deduplicated), primed ones (`gap'`) included.
    pub slots: Vec<usize>,
    /// Per-bin names read at the tree's own bin: at the top of a per-bin formula, or in the body
    /// of a binder over the bins, outside the binders over the bins or edges nested in it (whose
    /// bare per-bin names are their own bins'); primed names as [`BinVars::has_next`].
    pub bin_vars: BinVars,
    /// Per-bin names read at every bin of the tree: its own, nested binders', enclosing
    /// binders' (`x[i]`), primed or not (permutation invariance: no `i`).
    pub all_bin_vars: BinVars,
    /// Per-bin names read at the bins of enclosing binders, by their level (`x[i]`); a level whose
    /// edge is read (a per-edge name) is listed with the names it reads at its bin (maybe none).
    pub outer: Vec<(u8, BinVars)>,
    /// Per-edge names read (bit `k`: [`Scope::edge_names`]`[k]`), at any binder over the edges.
    pub edge_vars: u64,
    /// Whether `p(i)` or `eps1(δ)` are called.
    pub proc_funcs: bool,
    /// Whether the tree has a binder over the bins.
    pub binders: bool,
    /// Whether the tree has a binder over the edges.
    pub edge_binders: bool,
    /// Whether `exp`, `ln`, `sqrt`, `cosh`, `sinh` or a non-integer power may appear (no exact
    /// rational value in general).
    pub transcendental: bool,
    /// Whether functions of the state ([`EnvFunc`]) are called.
    pub env_funcs: bool,
    /// Whether the tree has a binder over the dimensions.
    pub dim_binders: bool,
    /// Whether the per-dimension name `a` is read.
    pub dim_var: bool,
    /// Whether the tree reads the next state: `P(...)`, `E(...)`.
    pub next_law: bool,
    /// Whether a primed name is read (inside `P(...)`, `E(...)`).
    pub primed: bool,
}

impl Uses {
    fn add_binder(&mut self, on: Elements) {
        match on {
            Elements::Bins => self.binders = true,
            Elements::Edges => self.edge_binders = true,
            Elements::Dims => self.dim_binders = true,
        }
    }

    fn add_outer(&mut self, level: u8, v: BinVar, primed: bool) {
        let k = match self.outer.iter().position(|(l, _)| *l == level) {
            Some(k) => k,
            None => {
                self.outer.push((level, BinVars::default()));
                self.outer.len() - 1
            }
        };
        if primed {
            self.outer[k].1.add_next(v);
            self.all_bin_vars.add_next(v);
        } else {
            self.outer[k].1.add(v);
            self.all_bin_vars.add(v);
        }
    }

    /// The per-bin names read at the bin of the binder at `level`, through `x[j]` or a bare name
    /// of an enclosing bin.
    pub fn outer_at(&self, level: u8) -> BinVars {
        self.outer
            .iter()
            .filter(|(l, _)| *l == level)
            .fold(BinVars::default(), |a, (_, v)| a.union(*v))
    }

    /// The per-bin names the frame of a bin at `level` must hold for this tree: those read at
    /// its own bin and those nested binders read there (`x[i]`).
    ///
    /// ```
    /// use balloc::lang::{compile_value, BinVar};
    /// // Σ_i Σ_j [x_j > x_i] p_j: the outer bin's frame needs x (read by the inner sum).
    /// let e = compile_value("sum(i: sum(j: (x[j] > x[i]) * p[j]))", &[]).unwrap();
    /// let v = e.uses().frame_vars(0);
    /// assert!(v.has(BinVar::X) && !v.has(BinVar::P));
    /// ```
    pub fn frame_vars(&self, level: u8) -> BinVars {
        self.bin_vars.union(self.outer_at(level))
    }

    /// Whether the tree reads a per-bin name of an enclosing binder's bin below `level`.
    fn reads_below(&self, level: u8) -> bool {
        self.outer.iter().any(|(l, _)| *l < level)
    }

    /// Merges `o` into `self` (the per-bin names at the own bin only when `own`).
    fn absorb(&mut self, o: Uses, own: bool) {
        self.slots.extend(o.slots);
        if own {
            self.bin_vars = self.bin_vars.union(o.bin_vars);
        }
        self.all_bin_vars = self.all_bin_vars.union(o.all_bin_vars);
        for (l, v) in o.outer {
            match self.outer.iter_mut().find(|(m, _)| *m == l) {
                Some(e) => e.1 = e.1.union(v),
                None => self.outer.push((l, v)),
            }
        }
        self.edge_vars |= o.edge_vars;
        self.proc_funcs |= o.proc_funcs;
        self.binders |= o.binders;
        self.edge_binders |= o.edge_binders;
        self.transcendental |= o.transcendental;
        self.env_funcs |= o.env_funcs;
        self.dim_binders |= o.dim_binders;
        self.dim_var |= o.dim_var;
        self.next_law |= o.next_law;
        self.primed |= o.primed;
    }
}

/// A binder (or a per-bin claim's bin) around the part being compiled.
#[derive(Debug, Clone)]
struct Ctx {
    /// What it ranges over.
    on: Elements,
    /// Its name (`j` in `sum(j: ...)`), if it has one.
    name: Option<String>,
    /// Its level among the binders over the bins and edges (unused for dimensions).
    level: u8,
}

struct Compiler<'a> {
    scope: &'a dyn Scope,
    /// The binders around, innermost last (a per-bin claim's bin first).
    stack: Vec<Ctx>,
    /// Inside `P{k}(...)` or `E{k}(...)`: `k`.
    next: Option<u32>,
}

/// Compiles an expression (a formula in arithmetic position is its indicator). `per_bin`: the
/// per-bin names are in scope at the top level (a per-bin claim).
pub fn compile_expr(ast: &Ast, scope: &dyn Scope, per_bin: bool) -> Result<Expr, CompileError> {
    Compiler::new(scope, per_bin).expr(ast)
}

/// Compiles a formula; an arithmetic expression where a formula is expected is an error.
pub fn compile_formula(
    ast: &Ast,
    scope: &dyn Scope,
    per_bin: bool,
) -> Result<Formula, CompileError> {
    Compiler::new(scope, per_bin).formula(ast)
}

fn is_formula(ast: &Ast) -> bool {
    matches!(
        ast.node,
        Node::Cmp(..) | Node::And(..) | Node::Or(..) | Node::Not(..)
    )
}

/// A name without its prime, and whether it had one.
fn unprime(name: &str) -> (&str, bool) {
    match name.strip_suffix('\'') {
        Some(b) => (b, true),
        None => (name, false),
    }
}

/// What a name bound by a binder stands for.
enum Bound {
    /// A per-bin name at the bin of the binder at `level`.
    Bin(u8, BinVar),
    /// Per-edge name `k` at the edge of the binder at `level`.
    Edge(u8, u16),
    /// The dimension of the innermost binder over the dimensions.
    Dim,
}

impl<'a> Compiler<'a> {
    fn new(scope: &'a dyn Scope, per_bin: bool) -> Compiler<'a> {
        Compiler {
            scope,
            stack: if per_bin {
                vec![Ctx {
                    on: Elements::Bins,
                    name: None,
                    level: 0,
                }]
            } else {
                Vec::new()
            },
            next: None,
        }
    }

    /// The level of the innermost binder over the bins or edges (whose bare names need no
    /// look-up: [`Expr::Bin`]).
    fn own_level(&self) -> Option<u8> {
        self.stack
            .iter()
            .rev()
            .find(|c| c.on != Elements::Dims)
            .map(|c| c.level)
    }

    fn in_dims(&self) -> bool {
        self.stack.iter().any(|c| c.on == Elements::Dims)
    }

    /// The expression reading `b` (primed or not).
    fn bound_expr(&self, b: Bound, primed: bool) -> Expr {
        match b {
            Bound::Bin(level, v) => {
                if Some(level) == self.own_level() {
                    if primed {
                        Expr::NextBin(v)
                    } else {
                        Expr::Bin(v)
                    }
                } else {
                    Expr::Outer(level, v, primed)
                }
            }
            Bound::Edge(level, k) => Expr::Edge(level, k),
            Bound::Dim => Expr::Dim,
        }
    }

    /// The element name `name` bound by the innermost binder that binds it (lexical scope): a
    /// named binder's own name (its index: `i` for bins, `e` for edges), an unnamed binder's
    /// per-element names, the dimension `a`.
    fn lookup(&self, name: &str) -> Option<Bound> {
        let edge_names = self.scope.edge_names();
        for c in self.stack.iter().rev() {
            match (&c.name, c.on) {
                (Some(n), Elements::Bins) if n == name => {
                    return Some(Bound::Bin(c.level, BinVar::Index));
                }
                (Some(n), Elements::Edges) if n == name => {
                    let k = edge_names.iter().position(|e| *e == "e")?;
                    return Some(Bound::Edge(c.level, k as u16));
                }
                (None, Elements::Bins) => {
                    if let Some(v) = BinVar::parse(name) {
                        return Some(Bound::Bin(c.level, v));
                    }
                }
                (None, Elements::Edges) => {
                    if let Some(k) = edge_names.iter().position(|e| *e == name) {
                        return Some(Bound::Edge(c.level, k as u16));
                    }
                }
                (None, Elements::Dims) if name == DIM_VAR => return Some(Bound::Dim),
                _ => {}
            }
        }
        None
    }

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
            Node::Index {
                name,
                binder,
                binder_span,
            } => self.index(name, binder, &ast.span, binder_span)?,
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
                binder,
                args,
            } => self.call(name, name_span, binder.as_ref(), args, &ast.span)?,
            Node::Cmp(..) | Node::And(..) | Node::Or(..) | Node::Not(..) => {
                unreachable!("formulas are handled above")
            }
        })
    }

    /// Checks a prime on a name bound by a binder: only per-bin names of the state (not the
    /// index), inside `P(...)` or `E(...)`.
    fn check_prime(&self, b: &Bound, name: &str, span: &Range<usize>) -> Result<(), CompileError> {
        match b {
            _ if self.next.is_none() => cerr(
                format!(
                    "`{name}'` is the value at the next state: use it inside P(...) or E(...), e.g. P({name}' > {name})"
                ),
                span,
            ),
            Bound::Bin(_, BinVar::Index) => cerr(
                format!("`{name}'`: the index of a bin does not change from one state to the next"),
                span,
            ),
            Bound::Bin(..) => Ok(()),
            Bound::Edge(..) => cerr(
                format!("`{name}'`: per-edge names have no next-state value"),
                span,
            ),
            Bound::Dim => cerr(
                format!("`{name}'`: the dimension does not change from one state to the next"),
                span,
            ),
        }
    }

    fn name(&self, raw: &str, span: &Range<usize>) -> Result<Expr, CompileError> {
        let (name, primed) = unprime(raw);
        if name == DIM_VAR && self.scope.has_dims() && !primed {
            let other = matches!(self.scope.resolve(name), Ok(Some(_)));
            if self.in_dims() {
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
        if let Some(b) = self.lookup(name) {
            if primed {
                self.check_prime(&b, name, span)?;
            }
            return Ok(self.bound_expr(b, primed));
        }
        if primed {
            return self.primed_name(name, span);
        }
        if BinVar::parse(name).is_some() {
            // A per-bin name outside a binder may still be a state-level name (e.g. a constant).
            if let Ok(Some(r)) = self.scope.resolve(name) {
                return Ok(resolved(r));
            }
            if let Some(c) = self.stack.iter().rev().find(|c| c.name.is_some()) {
                let j = c.name.as_deref().unwrap_or("j");
                return cerr(
                    format!(
                        "`{name}` is a per-bin name: inside {}({j}: ...) write {name}[{j}]",
                        c.on.names()[0]
                    ),
                    span,
                );
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
                if is_function_name(name, true) {
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
                if self.scope.edge_names().contains(&name) {
                    return cerr(
                        format!(
                            "`{name}` is a per-edge name: use it inside sum_edges(...), max_edges(...), min_edges(...) or count_edges(...)"
                        ),
                        span,
                    );
                }
                cerr(self.unknown(name), span)
            }
        }
    }

    /// The message for an unknown name: a "did you mean" and the known names by kind.
    fn unknown(&self, name: &str) -> String {
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
        format!(
            "unknown name `{}`{hint} (known {})",
            super::syntax::excerpt(name, 40),
            groups.join("; ")
        )
    }

    /// A primed state-level name (`gap'`, `Phi'`): the quantity at the next state.
    fn primed_name(&self, name: &str, span: &Range<usize>) -> Result<Expr, CompileError> {
        if self.next.is_none() {
            let hint = if self.scope.has_next() {
                format!("use it inside P(...) or E(...), e.g. P({name}' >= {name})")
            } else {
                "this claim has no law of the next state (P(...) and E(...) need an `inequality` claim with a process)".to_string()
            };
            return cerr(
                format!("`{name}'` is the value of `{name}` at the next state: {hint}"),
                span,
            );
        }
        match self.scope.resolve_next(name) {
            Ok(Some(Resolved::Slot(s))) => Ok(Expr::NextSlot(s)),
            Ok(Some(Resolved::Value(_))) => cerr(
                format!(
                    "`{name}'`: `{name}` is a constant, the same at every state; write `{name}`"
                ),
                span,
            ),
            Err(msg) => cerr(msg, span),
            Ok(None) => {
                if is_function_name(name, true) {
                    return cerr(
                        format!(
                            "`{name}'`: a prime names a quantity of the next state, not a function"
                        ),
                        span,
                    );
                }
                cerr(self.unknown(name), span)
            }
        }
    }

    /// `x[j]`: a per-element name at the element of the enclosing binder named `j`.
    fn index(
        &self,
        raw: &str,
        binder: &str,
        span: &Range<usize>,
        binder_span: &Range<usize>,
    ) -> Result<Expr, CompileError> {
        let (name, primed) = unprime(raw);
        let Some(c) = self
            .stack
            .iter()
            .rev()
            .find(|c| c.name.as_deref() == Some(binder))
        else {
            let named: Vec<String> = self.stack.iter().filter_map(|c| c.name.clone()).collect();
            return cerr(
                if named.is_empty() {
                    format!(
                        "`{raw}[{binder}]`: no enclosing binder is named `{binder}`; name one, e.g. sum({binder}: {raw}[{binder}])"
                    )
                } else {
                    format!(
                        "`{raw}[{binder}]`: no enclosing binder is named `{binder}` (the enclosing binders are named {})",
                        named.join(", ")
                    )
                },
                binder_span,
            );
        };
        let b = match c.on {
            Elements::Bins => match BinVar::parse(name) {
                Some(v) => Bound::Bin(c.level, v),
                None => {
                    let names: Vec<&str> = BinVar::ALL.iter().map(|(_, s)| *s).collect();
                    return cerr(
                        format!(
                            "`{raw}[{binder}]`: `{name}` is not a per-bin name (per-bin names: {})",
                            names.join(", ")
                        ),
                        span,
                    );
                }
            },
            Elements::Edges => {
                let names = self.scope.edge_names();
                match names.iter().position(|e| *e == name) {
                    Some(k) => Bound::Edge(c.level, k as u16),
                    None => {
                        return cerr(
                            format!(
                                "`{raw}[{binder}]`: `{name}` is not a per-edge name (per-edge names: {})",
                                names.join(", ")
                            ),
                            span,
                        );
                    }
                }
            }
            Elements::Dims => unreachable!("binders over the dimensions have no name"),
        };
        if primed {
            self.check_prime(&b, name, span)?;
        }
        Ok(self.bound_expr(b, primed))
    }

    fn call(
        &self,
        raw: &str,
        name_span: &Range<usize>,
        binder: Option<&(String, Range<usize>)>,
        args: &[Ast],
        span: &Range<usize>,
    ) -> Result<Expr, CompileError> {
        let (name, primed) = unprime(raw);
        if primed {
            return cerr(
                format!(
                    "`{raw}(...)`: a prime names a quantity of the next state, not a function; write the function of primed arguments"
                ),
                name_span,
            );
        }
        let bare = name.strip_prefix("math::").unwrap_or(name);
        let is_binder = matches!(
            bare,
            "sum"
                | "max_bins"
                | "min_bins"
                | "count"
                | "sum_dims"
                | "max_dims"
                | "min_dims"
                | "count_dims"
                | "sum_edges"
                | "max_edges"
                | "min_edges"
                | "count_edges"
        );
        if let Some((b, bsp)) = binder
            && !is_binder
        {
            return cerr(
                format!(
                    "`{name}({b}: ...)`: only the binders sum, max_bins, min_bins, count (and their _edges forms) name their element"
                ),
                bsp,
            );
        }
        let one_arg = |f: Func| -> Result<Expr, CompileError> {
            if args.len() != 1 {
                return cerr(
                    format!("`{name}` takes one argument, got {}", args.len()),
                    name_span,
                );
            }
            Ok(Expr::Call(f, vec![self.expr(&args[0])?]))
        };
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
                self.binder(Elements::Bins, bare, name, binder, args, name_span)
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
                self.binder(Elements::Dims, bare, name, binder, args, name_span)
            }
            "sum_edges" | "max_edges" | "min_edges" | "count_edges" => {
                if self.scope.edge_names().is_empty() {
                    return cerr(
                        format!(
                            "`{name}(...)` needs a graph: only `graph` claims with `expr` have edges"
                        ),
                        name_span,
                    );
                }
                self.binder(Elements::Edges, bare, name, binder, args, name_span)
            }
            _ if next_law_steps(bare).is_some() => self.next_law(bare, args, name_span),
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

    /// `P{k}(event)` or `E{k}(f)`: the probability of an event, or the expectation of a value,
    /// over the exact law of the state after `k` steps (batches); primed names read that state.
    fn next_law(
        &self,
        name: &str,
        args: &[Ast],
        name_span: &Range<usize>,
    ) -> Result<Expr, CompileError> {
        let (head, k) = next_law_steps(name).expect("checked by the caller");
        let what = if head == "P" { "P(event)" } else { "E(value)" };
        if !self.scope.has_next() {
            return cerr(
                format!(
                    "`{name}(...)` needs the law of the next state: only `inequality` claims with a process ([setting] processes or [setting.vectors]) have it"
                ),
                name_span,
            );
        }
        if self.next.is_some() {
            return cerr(
                format!(
                    "`{name}(...)` inside another P(...) or E(...): write one {what} over k steps, P{{k}}(...)"
                ),
                name_span,
            );
        }
        if self.stack.iter().any(|c| c.on != Elements::Dims) {
            return cerr(
                format!(
                    "`{name}(...)` inside a binder over the bins (or a per-bin claim) is not supported: put the binder inside, e.g. P(max_bins(x') >= 2)"
                ),
                name_span,
            );
        }
        let max = crate::limits::NEXT_STEPS.max;
        if k == 0 || k > max {
            return cerr(
                format!(
                    "`{name}(...)`: {k} steps; {head}{{k}} takes 1 ≤ k ≤ {max} (limits::NEXT_STEPS; {})",
                    crate::limits::NEXT_STEPS.reason
                ),
                name_span,
            );
        }
        if args.len() != 1 {
            return cerr(
                format!(
                    "`{name}` takes one argument, got {}: {what}, e.g. {}",
                    args.len(),
                    if head == "P" {
                        "P(gap' >= 2)"
                    } else {
                        "E(gap')"
                    }
                ),
                name_span,
            );
        }
        let inner = Compiler {
            scope: self.scope,
            stack: self.stack.clone(),
            next: Some(k as u32),
        };
        let e = if head == "P" {
            if !is_formula(&args[0]) {
                return cerr(
                    format!(
                        "`{name}(...)` takes an event (a comparison such as {name}(gap' >= 2)); for the expectation of a value write E{}(...)",
                        &name[1..]
                    ),
                    &args[0].span,
                );
            }
            let f = inner.formula(&args[0])?;
            let u = f.uses();
            if !u.primed {
                return cerr(
                    format!(
                        "`{name}(...)` reads no primed name: the next state's quantities are written with a prime, e.g. {name}(gap' >= gap)"
                    ),
                    &args[0].span,
                );
            }
            Expr::Prob(k as u32, Box::new(f), Box::new(u))
        } else {
            let f = inner.expr(&args[0])?;
            let u = f.uses();
            if !u.primed {
                return cerr(
                    format!(
                        "`{name}(...)` reads no primed name: the next state's quantities are written with a prime, e.g. {name}(gap')"
                    ),
                    &args[0].span,
                );
            }
            Expr::Mean(k as u32, Box::new(f), Box::new(u))
        };
        Ok(e)
    }

    /// Checks the name `j` of a binder `sum(j: ...)`: not an enclosing binder's, not a per-bin
    /// or per-edge name (`i` only where no unnamed binder over the bins encloses it), not a
    /// function, not a name of the scope.
    fn check_binder_name(&self, j: &str, span: &Range<usize>) -> Result<(), CompileError> {
        if j.ends_with('\'') {
            return cerr(format!("the binder name `{j}` has a prime"), span);
        }
        if self.stack.iter().any(|c| c.name.as_deref() == Some(j)) {
            return cerr(
                format!(
                    "the binder name `{j}` is already the name of an enclosing binder: give the inner one another name"
                ),
                span,
            );
        }
        if j == "i" {
            if self
                .stack
                .iter()
                .any(|c| c.on == Elements::Bins && c.name.is_none())
            {
                return cerr(
                    "the binder name `i` is already the index of the enclosing bin (of sum(...) or of a per-bin claim): give the binder another name",
                    span,
                );
            }
        } else if BinVar::parse(j).is_some() {
            return cerr(
                format!("the binder name `{j}` is a per-bin name: name the binder e.g. `j`"),
                span,
            );
        }
        if self.scope.edge_names().contains(&j) || (j == DIM_VAR && self.scope.has_dims()) {
            return cerr(
                format!("the binder name `{j}` is a per-element name: name the binder e.g. `j`"),
                span,
            );
        }
        if is_function_name(j, true) {
            return cerr(format!("the binder name `{j}` is a function"), span);
        }
        if matches!(self.scope.resolve(j), Ok(Some(_))) {
            return cerr(
                format!(
                    "the binder name `{j}` is already a name of the claim (a quantity, constant or potential): name the binder differently"
                ),
                span,
            );
        }
        Ok(())
    }

    /// A binder `name([j:] f[, pred])` or `count…([j:] pred)` over `over` (`bare`: the name
    /// without a namespace): its body compiled with the elements' names in scope.
    fn binder(
        &self,
        over: Elements,
        bare: &str,
        name: &str,
        binder: Option<&(String, Range<usize>)>,
        args: &[Ast],
        name_span: &Range<usize>,
    ) -> Result<Expr, CompileError> {
        let (what, example, count_example) = match over {
            Elements::Bins => ("per-bin", "exp(alpha*y), y >= 0", "y >= 0"),
            Elements::Dims => ("per-dimension", "gap(a), avg(a) > 0", "gap(a) >= 1"),
            Elements::Edges => ("per-edge", "abs(x_a - x_b), deg_a > 2", "x_a != x_b"),
        };
        if let Some((j, bsp)) = binder {
            if over == Elements::Dims {
                return cerr(
                    format!(
                        "`{name}({j}: ...)`: the binders over the dimensions are not named; their dimension is `{DIM_VAR}`"
                    ),
                    bsp,
                );
            }
            self.check_binder_name(j, bsp)?;
        } else {
            let nested = match over {
                Elements::Dims => self.in_dims(),
                on => self.stack.iter().any(|c| c.on == on && c.name.is_none()),
            };
            if nested {
                let hint = match over {
                    Elements::Bins => {
                        ": name the binders, e.g. sum(i: sum(j: (x[j] > x[i]) * p[j]))"
                    }
                    Elements::Edges => ": name the binders, e.g. sum_edges(f: sum_edges(g: ...))",
                    Elements::Dims => "",
                };
                return cerr(
                    format!(
                        "`{name}(...)` inside another binder over the {} is not allowed{hint}",
                        over.plural()
                    ),
                    name_span,
                );
            }
        }
        let level = self.stack.iter().filter(|c| c.on != Elements::Dims).count();
        if over != Elements::Dims && level >= MAX_BINDER_LEVELS {
            return cerr(
                format!(
                    "`{name}(...)`: binders over the bins and edges nest at most {MAX_BINDER_LEVELS} deep"
                ),
                name_span,
            );
        }
        let level = level as u8;
        let mut stack = self.stack.clone();
        stack.push(Ctx {
            on: over,
            name: binder.map(|(j, _)| j.clone()),
            level,
        });
        let inner = Compiler {
            scope: self.scope,
            stack,
            next: self.next,
        };
        let [sum, max, _, count] = over.names();
        if bare == count {
            if args.len() != 1 {
                return cerr(
                    format!("`{count}` takes one predicate, e.g. {count}({count_example})"),
                    name_span,
                );
            }
            return Ok(Expr::count_at(over, inner.formula(&args[0])?, level));
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
        Ok(Expr::over_at(over, agg, f, pred, level))
    }

    /// A call of a function of the state: the arity, and literal arguments that are not
    /// integers, are compile errors; other arguments are checked at evaluation.
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

/// The values of the per-bin names at one bin (and of the primed ones at the same bin of the
/// next state, inside `P(...)`/`E(...)`), the edge of a binder over the edges, the per-dimension
/// name `a` at one dimension, in the domain of the evaluation; and, inside nested binders, the
/// frames of the enclosing bins and edges (`x[i]`), by level.
#[derive(Debug, Clone)]
pub struct Frame<N> {
    vals: [Option<N>; 6],
    dim: Option<N>,
    next: Option<Box<[Option<N>; 6]>>,
    edge: Option<usize>,
    level: Option<u8>,
    outer: Vec<Frame<N>>,
}

impl<N> Default for Frame<N> {
    fn default() -> Self {
        Frame {
            vals: [None, None, None, None, None, None],
            dim: None,
            next: None,
            edge: None,
            level: None,
            outer: Vec::new(),
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
    /// Sets the value of the primed per-bin name `v'` (the same bin at the next state).
    ///
    /// ```
    /// use balloc::lang::{BinVar, Frame};
    /// let mut f = Frame::<f64>::default();
    /// f.set(BinVar::X, 2.0);
    /// f.set_next(BinVar::X, 3.0);
    /// assert_eq!((f.get(BinVar::X), f.get_next(BinVar::X)), (Some(&2.0), Some(&3.0)));
    /// ```
    pub fn set_next(&mut self, v: BinVar, x: N) {
        self.next
            .get_or_insert_with(|| Box::new([None, None, None, None, None, None]))[v as usize] =
            Some(x);
    }
    /// The value of the primed per-bin name `v'`.
    pub fn get_next(&self, v: BinVar) -> Option<&N> {
        self.next.as_ref().and_then(|n| n[v as usize].as_ref())
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
    /// The edge (0-based) of a binder over the edges.
    pub fn edge(&self) -> Option<usize> {
        self.edge
    }
    /// The frame of the binder at `level`: this one, or an enclosing one it keeps.
    fn at_level(&self, level: u8) -> Option<&Frame<N>> {
        if self.level == Some(level) {
            return Some(self);
        }
        self.outer.iter().find(|f| f.level == Some(level))
    }
    /// This frame without the enclosing ones.
    fn shallow(&self) -> Frame<N> {
        Frame {
            vals: self.vals.clone(),
            dim: self.dim.clone(),
            next: self.next.clone(),
            edge: self.edge,
            level: self.level,
            outer: Vec::new(),
        }
    }
}

/// The visitor of [`Env::next_law`]: called with the probability of each next state, its
/// environment, and a certified re-evaluation of an event at that state (for the float domains,
/// whose comparisons may be within rounding).
pub type NextVisit<'a, D> =
    dyn FnMut(&<D as Domain>::N, &dyn Env<D>, &dyn Fn(&Formula) -> Option<bool>) -> Eval<()> + 'a;

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
    /// The number of edges (binders over the edges).
    fn edges(&self) -> Eval<usize> {
        Err(EvalError::Unavailable(
            "binders over the edges need a graph".into(),
        ))
    }
    /// Per-edge name `k` ([`Scope::edge_names`]) at edge `edge` (0-based); the environment may
    /// read its own element (e.g. the set of the node a graph claim is evaluated at).
    fn edge_value(&self, d: &D, edge: usize, k: u16) -> Eval<D::N> {
        let _ = (d, edge, k);
        Err(EvalError::Unavailable("per-edge names need a graph".into()))
    }
    /// The value of slot `slot` at the next state (inside `P(...)`/`E(...)`: [`NextEnv`]).
    fn next_slot(&self, d: &D, slot: usize) -> Eval<D::N> {
        let _ = (d, slot);
        Err(EvalError::Unavailable(
            "a primed name (the next state) outside P(...) or E(...)".into(),
        ))
    }
    /// The exact law of the state after `steps` steps (or batches): `visit(p, next, recheck)`
    /// once per state of positive probability `p` (states that are equal, or equal up to a
    /// permutation of the bins where `reads` allows it, may be merged). `reads`: what the event
    /// or value reads (its primed names pair bins of the two states).
    fn next_law(&self, d: &D, steps: u32, reads: &Uses, visit: &mut NextVisit<'_, D>) -> Eval<()> {
        let _ = (d, steps, reads, visit);
        Err(EvalError::Unavailable(
            "P(...) and E(...) need the law of the next state".into(),
        ))
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

/// A state and one of its next states, as one environment: plain names read the state, primed
/// names (`gap'`, `x'`) the next state, bin by bin (the bins keep their labels).
pub struct NextEnv<'a, D: Domain> {
    /// The state.
    pub cur: &'a dyn Env<D>,
    /// The next state.
    pub next: &'a dyn Env<D>,
}

impl<D: Domain> Env<D> for NextEnv<'_, D> {
    fn slot(&self, d: &D, slot: usize) -> Eval<D::N> {
        self.cur.slot(d, slot)
    }
    fn next_slot(&self, d: &D, slot: usize) -> Eval<D::N> {
        self.next.slot(d, slot)
    }
    fn proc(&self, d: &D, f: ProcFunc, arg: &Q) -> Eval<D::N> {
        self.cur.proc(d, f, arg)
    }
    fn bins(&self) -> usize {
        self.cur.bins()
    }
    fn frame(&self, d: &D, bin: usize, vars: BinVars) -> Eval<Frame<D::N>> {
        let mut f = if vars.current().is_empty() {
            Frame::default()
        } else {
            self.cur.frame(d, bin, vars.current())?
        };
        if !vars.next().is_empty() {
            let nf = self.next.frame(d, bin, vars.next())?;
            f.next = Some(Box::new(nf.vals));
        }
        Ok(f)
    }
    fn classes(&self, vars: BinVars) -> Option<Vec<(usize, usize)>> {
        match (vars.current().is_empty(), vars.next().is_empty()) {
            (_, true) => self.cur.classes(vars),
            (true, false) => self.next.classes(vars.next()),
            // Bins of equal current values may differ at the next state: each bin on its own.
            (false, false) => None,
        }
    }
    fn dims(&self) -> Eval<usize> {
        self.cur.dims()
    }
    fn call(&self, d: &D, f: &EnvFunc, args: &[i64]) -> Eval<D::N> {
        self.cur.call(d, f, args)
    }
    fn edges(&self) -> Eval<usize> {
        self.cur.edges()
    }
    fn edge_value(&self, d: &D, edge: usize, k: u16) -> Eval<D::N> {
        self.cur.edge_value(d, edge, k)
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

/// The truth of `f` and whether a comparison that decided it is within rounding
/// ([`Domain::fragile`]; never in the certified domains).
fn truth_fragile<D: Domain>(
    d: &D,
    f: &Formula,
    env: &dyn Env<D>,
    frame: Option<&Frame<D::N>>,
) -> Eval<(bool, bool)> {
    match f {
        Formula::Cmp(a, c, b) => {
            let x = a.eval(d, env, frame)?;
            let y = b.eval(d, env, frame)?;
            Ok((c.test(d.cmp(&x, &y)?), d.fragile(&x, &y)))
        }
        Formula::And(a, b) | Formula::Or(a, b) => {
            let or = matches!(f, Formula::Or(..));
            let (l, lf) = truth_fragile(d, a, env, frame)?;
            if l == or {
                return Ok((l, lf));
            }
            let (r, rf) = truth_fragile(d, b, env, frame)?;
            Ok((r, lf || rf))
        }
        Formula::Not(a) => truth_fragile(d, a, env, frame).map(|(t, fr)| (!t, fr)),
    }
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
            Expr::NextBin(v) => frame
                .and_then(|f| f.get_next(*v))
                .cloned()
                .ok_or_else(|| EvalError::Unavailable(format!("per-bin `{}'`", v.name()))),
            Expr::Outer(l, v, primed) => {
                let f = frame.and_then(|f| f.at_level(*l));
                let x = if *primed {
                    f.and_then(|f| f.get_next(*v))
                } else {
                    f.and_then(|f| f.get(*v))
                };
                x.cloned().ok_or_else(|| {
                    EvalError::Unavailable(format!(
                        "per-bin `{}{}` of the enclosing binder at level {l}",
                        v.name(),
                        if *primed { "'" } else { "" }
                    ))
                })
            }
            Expr::Edge(l, k) => {
                let e = frame
                    .and_then(|f| f.at_level(*l))
                    .and_then(|f| f.edge)
                    .ok_or_else(|| {
                        EvalError::Unavailable(format!("per-edge name {k} outside its binder"))
                    })?;
                env.edge_value(d, e, *k)
            }
            Expr::NextSlot(s) => env.next_slot(d, *s),
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
            Expr::Over(on, agg, f, pred, vars, flat, bind) => {
                if let Some(p) = flat
                    && let Ok(acc) = p.run(d, env, frame, *agg, *vars, *bind)
                {
                    return finish(*on, *agg, acc, d);
                }
                over(d, env, frame, (*on, *vars, *bind), *agg, f, pred.as_deref())
            }
            Expr::Count(on, pred, vars, bind) => {
                // In the float domains an element whose predicate is decided within rounding
                // blurs the count (Domain::blur), so that a verdict resting on it is left to the
                // certified domains.
                let (mut k, mut blurred) = (0usize, 0usize);
                each_element(d, env, frame, *on, *vars, *bind, |fr, size| {
                    let (holds, fragile) = if d.exact_inputs() {
                        (pred.truth(d, env, Some(fr), None)?, false)
                    } else {
                        truth_fragile(d, pred, env, Some(fr))?
                    };
                    if holds {
                        k += size;
                    }
                    if fragile {
                        blurred += size;
                    }
                    Ok(())
                })?;
                let v = d.float(k as f64)?;
                if blurred == 0 {
                    Ok(v)
                } else {
                    d.blur(&v, &d.float(blurred as f64)?)
                }
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
            Expr::Prob(k, event, reads) => {
                // Σ over the next states of P(state)·[event]; in the float domains an event
                // decided within rounding is decided again by the certified domains, and where
                // they cannot, its probability blurs the value (Domain::blur) so that no verdict
                // rests on it.
                let (mut acc, mut blurred) = (d.zero(), d.zero());
                env.next_law(d, *k, reads, &mut |p, next, recheck| {
                    let pair = NextEnv { cur: env, next };
                    let (mut holds, fragile) = truth_fragile(d, event, &pair, frame)?;
                    if fragile {
                        match recheck(event) {
                            Some(t) => holds = t,
                            None => blurred = d.add(&blurred, p)?,
                        }
                    }
                    if holds {
                        acc = d.add(&acc, p)?;
                    }
                    Ok(())
                })?;
                d.blur(&acc, &blurred)
            }
            Expr::Mean(k, value, reads) => {
                let mut acc = d.zero();
                env.next_law(d, *k, reads, &mut |p, next, _| {
                    let pair = NextEnv { cur: env, next };
                    let v = value.eval(d, &pair, frame)?;
                    acc = d.add(&acc, &d.mul(p, &v)?)?;
                    Ok(())
                })?;
                Ok(acc)
            }
        }
    }

    /// The aggregate `agg` of `f` over the elements `on` where `pred` holds, with the per-bin
    /// names `f` and `pred` read found once, here, rather than at every evaluation; a binder at
    /// the top of a claim ([`Expr::over_at`] at level 0).
    ///
    /// ```
    /// use balloc::lang::{compile_value, Agg, BinVar, Expr};
    /// // `sum(y*p)` reads y and p of every bin, and nothing else.
    /// let e = compile_value("sum(y*p)", &[]).unwrap();
    /// let Expr::Over(_, Agg::Sum, f, None, v, ..) = &e else { panic!("a sum") };
    /// assert!(v.has(BinVar::Y) && v.has(BinVar::P) && !v.has(BinVar::X));
    /// assert_eq!(*v, f.uses().bin_vars);
    /// // Outside the binder no per-bin name is read.
    /// assert!(e.uses().bin_vars.is_empty() && e.uses().binders);
    /// ```
    pub fn over(on: Elements, agg: Agg, f: Expr, pred: Option<Formula>) -> Expr {
        Expr::over_at(on, agg, f, pred, 0)
    }

    /// [`Expr::over`] for a binder at `level` among the binders over the bins and edges (its
    /// frames keep the enclosing ones when the body reads them, `x[i]`).
    pub fn over_at(on: Elements, agg: Agg, f: Expr, pred: Option<Formula>, level: u8) -> Expr {
        let (vars, bind) = binding(on, &f.uses(), pred.as_ref().map(Formula::uses), level);
        let flat = match on {
            Elements::Bins => Postfix::compile(&f, pred.as_ref(), level).map(Box::new),
            Elements::Dims | Elements::Edges => None,
        };
        Expr::Over(on, agg, Box::new(f), pred.map(Box::new), vars, flat, bind)
    }

    /// `count(pred)` over the elements `on`, with the per-bin names `pred` reads found once.
    ///
    /// ```
    /// use balloc::lang::{compile_value, BinVar, Expr};
    /// let e = compile_value("count(y >= 0)", &[]).unwrap();
    /// let Expr::Count(_, _, v, _) = e else { panic!("a count") };
    /// assert!(v.has(BinVar::Y) && !v.has(BinVar::P));
    /// assert_eq!(v.0.count_ones(), 1);
    /// ```
    pub fn count(on: Elements, pred: Formula) -> Expr {
        Expr::count_at(on, pred, 0)
    }

    /// [`Expr::count`] for a binder at `level` ([`Expr::over_at`]).
    pub fn count_at(on: Elements, pred: Formula, level: u8) -> Expr {
        let (vars, bind) = binding(on, &pred.uses(), None, level);
        Expr::Count(on, Box::new(pred), vars, bind)
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
            Expr::Bin(v) => {
                u.bin_vars.add(*v);
                u.all_bin_vars.add(*v);
            }
            Expr::NextBin(v) => {
                u.bin_vars.add_next(*v);
                u.all_bin_vars.add_next(*v);
                u.primed = true;
            }
            Expr::Outer(l, v, primed) => {
                u.add_outer(*l, *v, *primed);
                u.primed |= *primed;
            }
            Expr::Edge(l, k) => {
                u.edge_vars |= 1u64 << (*k).min(63);
                // The edge of the binder at level l is read: its frame must be kept.
                if !u.outer.iter().any(|(m, _)| m == l) {
                    u.outer.push((*l, BinVars::default()));
                }
            }
            Expr::NextSlot(s) => {
                u.slots.push(*s);
                u.primed = true;
            }
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
                let mut inner = Uses::default();
                f.collect(&mut inner);
                if let Some(p) = p {
                    p.collect(&mut inner);
                }
                u.add_binder(*on);
                // A binder over the dimensions shares the bin of its body's names.
                u.absorb(inner, *on == Elements::Dims);
            }
            Expr::Count(on, p, ..) => {
                let mut inner = Uses::default();
                p.collect(&mut inner);
                u.add_binder(*on);
                u.absorb(inner, *on == Elements::Dims);
            }
            Expr::EnvCall(_, args) => {
                u.env_funcs = true;
                args.iter().for_each(|a| a.collect(u));
            }
            Expr::Dim => u.dim_var = true,
            Expr::Prob(_, _, reads) | Expr::Mean(_, _, reads) => {
                let primed = u.primed;
                u.absorb((**reads).clone(), true);
                // The primes belong to the P(...)/E(...), not to the expression around it.
                u.primed = primed;
                u.next_law = true;
            }
        }
    }

    /// The value when the expression is a constant known at compile time.
    pub fn as_constant(&self) -> Option<Q> {
        let u = self.uses();
        if !u.slots.is_empty()
            || u.proc_funcs
            || u.binders
            || u.edge_binders
            || !u.bin_vars.is_empty()
            || !u.outer.is_empty()
            || u.edge_vars != 0
            || u.env_funcs
            || u.dim_binders
            || u.dim_var
            || u.next_law
            || u.primed
        {
            return None;
        }
        self.eval(&super::domain::Exact, &Slots::<Q>(&[]), None)
            .ok()
    }
}

/// The per-bin names a binder at `level` over `on` reads at its bin, and where it sits.
fn binding(on: Elements, f: &Uses, pred: Option<Uses>, level: u8) -> (BinVars, Bind) {
    let mut vars = f.frame_vars(level);
    let mut keep = f.reads_below(level);
    if let Some(p) = pred {
        vars = vars.union(p.frame_vars(level));
        keep |= p.reads_below(level);
    }
    match on {
        Elements::Dims => (vars, Bind::default()),
        Elements::Bins | Elements::Edges => (vars, Bind { level, keep }),
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

/// Places the frame of an element of a binder at `bind` inside the enclosing frame `outer`: it
/// keeps the enclosing binder's dimension, and (when the body reads them) the enclosing bins and
/// edges.
fn nest<N: Clone>(fr: &mut Frame<N>, outer: Option<&Frame<N>>, bind: Bind) {
    fr.level = Some(bind.level);
    let Some(o) = outer else { return };
    if let Some(a) = o.dim() {
        fr.dim = Some(a.clone());
    }
    if bind.keep {
        fr.outer = o.outer.clone();
        if o.level.is_some() {
            fr.outer.push(o.shallow());
        } else if bind.level > 0 {
            // The claim's own bin (`forall_bins`): the frame at level 0, which a binder nested
            // in the claim reads by its bare per-bin names (`count(j: x[j] >= x)`).
            let mut own = o.shallow();
            own.level = Some(0);
            fr.outer.push(own);
        }
    }
}

/// The frame of one bin inside a binder over the bins ([`nest`]).
fn bin_frame<D: Domain>(
    d: &D,
    env: &dyn Env<D>,
    outer: Option<&Frame<D::N>>,
    bin: usize,
    vars: BinVars,
    bind: Bind,
) -> Eval<Frame<D::N>> {
    let mut fr = env.frame(d, bin, vars)?;
    nest(&mut fr, outer, bind);
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
/// class, when the environment knows them), the edges one by one, or the dimensions
/// `a = 1..D` one by one. The frames keep the element of an enclosing binder over another
/// range, and the enclosing bins and edges the body reads (`bind`).
pub(super) fn each_element<D: Domain>(
    d: &D,
    env: &dyn Env<D>,
    outer: Option<&Frame<D::N>>,
    on: Elements,
    vars: BinVars,
    bind: Bind,
    mut visit: impl FnMut(&Frame<D::N>, usize) -> Eval<()>,
) -> Eval<()> {
    match on {
        Elements::Bins => {
            for (bin, size) in bin_classes(env, vars) {
                visit(&bin_frame(d, env, outer, bin, vars, bind)?, size)?;
            }
        }
        Elements::Edges => {
            for e in 0..env.edges()? {
                let mut fr = Frame {
                    edge: Some(e),
                    ..Frame::default()
                };
                nest(&mut fr, outer, bind);
                visit(&fr, 1)?;
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
/// names the two read, `bind` where the binder sits.
fn over<D: Domain>(
    d: &D,
    env: &dyn Env<D>,
    outer: Option<&Frame<D::N>>,
    (on, vars, bind): (Elements, BinVars, Bind),
    agg: Agg,
    f: &Expr,
    pred: Option<&Formula>,
) -> Eval<D::N> {
    let mut acc: Option<D::N> = None;
    each_element(d, env, outer, on, vars, bind, |fr, size| {
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

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
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
        assert!(e.message.contains("count_dims, sum_edges"), "{}", e.message);
        assert!(e.message.contains("P, E, t(a, b)"), "{}", e.message);
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

    /// A walk: the state is one number `s` (slot 0), and each step adds ±1 with probability
    /// 1/2 each, so after k steps `s' = s + 2m − k` with probability C(k, m)/2^k.
    struct Walk(i64);
    struct WalkScope;
    impl Scope for WalkScope {
        fn resolve(&self, name: &str) -> Result<Option<Resolved>, String> {
            Ok((name == "s").then_some(Resolved::Slot(0)))
        }
        fn known(&self) -> Vec<(String, Vec<String>)> {
            vec![("names".into(), vec!["s".into()])]
        }
        fn has_next(&self) -> bool {
            true
        }
    }
    impl<D: Domain> Env<D> for Walk {
        fn slot(&self, d: &D, _: usize) -> Eval<D::N> {
            d.float(self.0 as f64)
        }
        fn next_law(&self, d: &D, steps: u32, _: &Uses, visit: &mut NextVisit<'_, D>) -> Eval<()> {
            let k = steps as i64;
            let mut c = Q::one();
            for m in 0..=k {
                if m > 0 {
                    c = c * Q::from_integer((k - m + 1).into()) / Q::from_integer(m.into());
                }
                let p = &c / Q::from_integer((1i64 << k).into());
                visit(&d.rational(&p)?, &Walk(self.0 + 2 * m - k), &|_| None)?;
            }
            Ok(())
        }
    }

    fn walk(s: &str) -> Result<Expr, CompileError> {
        compile_expr(&crate::lang::parse(s).unwrap(), &WalkScope, false)
    }

    fn probabilities_and_expectations_of_the_next_state() {
        let q = |a: i64, b: i64| Q::new(a.into(), b.into());
        let v = |e: &str, s: i64| walk(e).unwrap().eval(&Exact, &Walk(s), None).unwrap();
        // One step: s' = s ± 1. P(s' > s) = 1/2; P(s' >= s + 1 || s' <= s - 1) = 1.
        assert_eq!(v("P(s' > s)", 5), q(1, 2));
        assert_eq!(v("P(s' >= s + 1 || s' <= s - 1)", 5), q(1, 1));
        // Two steps: s' − s ∈ {−2, 0, 2} with 1/4, 1/2, 1/4.
        assert_eq!(v("P2(s' == s)", 0), q(1, 2));
        assert_eq!(v("P2(s' >= 2)", 0), q(1, 4));
        // E[(s + X)²] with X a sum of three ±1: s² + 3 (the X are centred, E[X²] = 3).
        assert_eq!(v("E3(s'^2)", 4), q(19, 1));
        assert_eq!(v("E(s') - s", 7), q(0, 1));
        // In floats too (no comparison within rounding here).
        let f = walk("P3(s' > s)")
            .unwrap()
            .eval(&Float, &Walk(1), None)
            .unwrap();
        assert_eq!(f.v.to_f64(), 0.5);
        let u = walk("P(s' > s)").unwrap().uses();
        assert!(u.next_law && !u.primed && u.slots == vec![0]);
    }

    fn next_state_errors_name_the_token() {
        let err = |s: &str| walk(s).unwrap_err();
        // A prime outside P/E.
        let e = err("s' > 1");
        assert!(
            e.message.contains("use it inside P(...) or E(...)"),
            "{}",
            e.message
        );
        assert_eq!(e.at, 0);
        // P of an event without a prime; P of a value; E of nothing primed.
        assert!(
            err("P(s > 1) <= 1")
                .message
                .contains("reads no primed name")
        );
        assert!(err("P(s') <= 1").message.contains("takes an event"));
        assert!(err("E(s) <= 1").message.contains("reads no primed name"));
        // Nested P; P inside a binder; k = 0 and beyond the limit.
        assert!(
            err("P(P(s' > 0) > 0) <= 1")
                .message
                .contains("inside another P")
        );
        assert!(
            err("sum(P(s' > 0)) <= 1")
                .message
                .contains("inside a binder")
        );
        let e = err("P0(s' > 0) <= 1");
        assert!(e.message.contains("1 ≤ k ≤ 256"), "{}", e.message);
        let e = err("P257(s' > 0) <= 1");
        assert!(e.message.contains("limits::NEXT_STEPS"), "{}", e.message);
        assert_eq!(e.at, 0);
        // A primed function, a doubled prime.
        assert!(
            err("P(exp'(s) > 0) <= 1")
                .message
                .contains("not a function")
        );
        assert!(
            crate::lang::parse("P(s'' > 0)")
                .unwrap_err()
                .message
                .contains("two primes")
        );
        // A scope without the law of the next state.
        let e = compile_str("P(alpha' > 0) <= 1", &["alpha"]).unwrap_err();
        assert!(
            e.message.contains("needs the law of the next state"),
            "{}",
            e.message
        );
    }

    fn named_binders_compile_and_refuse_bad_names() {
        let ok = |s: &str| compile_str(s, &["alpha"]).unwrap_or_else(|e| panic!("{s}: {e}"));
        let err = |s: &str| compile_str(s, &["alpha"]).unwrap_err();
        ok("sum(i: sum(j: (x[j] > x[i]) * p[j])) <= 1");
        ok("sum(i: max_bins(j: y[j] - y[i], rank[j] < rank[i])) <= alpha");
        ok("sum(i: count(x > x[i])) >= 0");
        // The named binder's own name is its index.
        ok("sum(j: j * x[j]) >= 0");
        // Reusing a name, naming a binder like a per-bin name, a constant or a function.
        let e = err("sum(i: sum(i: x[i])) <= 1");
        assert!(
            e.message
                .contains("already the name of an enclosing binder"),
            "{}",
            e.message
        );
        assert_eq!(e.at, 11);
        assert!(
            err("sum(x: x[x]) <= 1")
                .message
                .contains("is a per-bin name")
        );
        assert!(
            err("sum(alpha: x[alpha]) <= 1")
                .message
                .contains("already a name of the claim")
        );
        assert!(
            err("sum(exp: x[exp]) <= 1")
                .message
                .contains("is a function")
        );
        // `i` names a binder only where no unnamed bin encloses it.
        assert!(
            err("sum(sum(i: x[i])) <= 1")
                .message
                .contains("already the index")
        );
        // Unknown binder, a per-bin name that is not one, bare names inside a named binder.
        let e = err("sum(j: x[k]) <= 1");
        assert!(
            e.message.contains("no enclosing binder is named `k`"),
            "{}",
            e.message
        );
        assert_eq!(e.at, 9);
        assert!(
            err("sum(j: q[j]) <= 1")
                .message
                .contains("not a per-bin name")
        );
        let e = err("sum(j: x) <= 1");
        assert!(e.message.contains("write x[j]"), "{}", e.message);
        // Unnamed in unnamed is still refused, with the hint.
        assert!(err("sum(sum(y)) <= 1").message.contains("name the binders"));
        // Binders over the dimensions are not named; a name on a function that binds nothing.
        assert!(err("exp(j: 1) <= 1").message.contains("name their element"));
        // Levels.
        let u = compile_value("sum(i: sum(j: x[i] * p[j]))", &[])
            .unwrap()
            .uses();
        assert!(u.bin_vars.is_empty() && u.frame_vars(0).has(BinVar::X));
        assert!(u.all_bin_vars.has(BinVar::P) && u.all_bin_vars.has(BinVar::X));
    }

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

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "binders_and_indicators",
            run: binders_and_indicators,
            panics: None,
        },
        crate::unit::Test {
            name: "every_domain_agrees_on_an_exponential_sum",
            run: every_domain_agrees_on_an_exponential_sum,
            panics: None,
        },
        crate::unit::Test {
            name: "three_valued_connectives",
            run: three_valued_connectives,
            panics: None,
        },
        crate::unit::Test {
            name: "binders_over_dimensions_and_functions_of_the_state",
            run: binders_over_dimensions_and_functions_of_the_state,
            panics: None,
        },
        crate::unit::Test {
            name: "bad_arguments_and_misplaced_names_are_errors",
            run: bad_arguments_and_misplaced_names_are_errors,
            panics: None,
        },
        crate::unit::Test {
            name: "probabilities_and_expectations_of_the_next_state",
            run: probabilities_and_expectations_of_the_next_state,
            panics: None,
        },
        crate::unit::Test {
            name: "next_state_errors_name_the_token",
            run: next_state_errors_name_the_token,
            panics: None,
        },
        crate::unit::Test {
            name: "named_binders_compile_and_refuse_bad_names",
            run: named_binders_compile_and_refuse_bad_names,
            panics: None,
        },
        crate::unit::Test {
            name: "compile_errors_name_the_token",
            run: compile_errors_name_the_token,
            panics: None,
        },
    ];
}
