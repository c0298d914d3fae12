//! Claim expressions: a comparison between two arithmetic expressions over named quantities.
//!
//! The text is parsed by the `evalexpr` crate (tokenizer, precedence, parentheses, function-call
//! syntax); the resulting operator tree is then compiled into [`Expr`], with every name resolved to
//! a slot. Evaluation is ours, for three reasons: `evalexpr` divides integer literals as integers
//! (`1/2 = 0`), which would silently change a claim; the same tree must be evaluated both in
//! extended-range floating point ([`XFloat`], so that `Γ ≈ e^{5000}` still compares correctly) and
//! in exact rationals (the independent re-check of DESIGN §3); and slot lookup is much faster than
//! name lookup in the hot loop of the search.
//!
//! Grammar (that of `evalexpr`): numbers, names, `+ - * / ^`, parentheses, function calls
//! `f(a)` and `f(a, b)`; the root must be one comparison `<=`, `>=`, `<`, `>` or `==`.
//! Functions: `exp`, `ln` (`log`), `sqrt`, `abs`, `min`, `max`, `floor`, `ceil`, and the process
//! constants `p(i)` (allocation probability of rank `i`, 1-based, heaviest first) and `eps1(δ)`
//! (best ε of condition C1 at quantile δ; Los–Sauerwald, SPAA 2022, §2.2).

use super::xfloat::XFloat;
use evalexpr::{Node, Operator, Value};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `==` (up to the file's tolerance)
    Eq,
}

impl Cmp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            Cmp::Le => "<=",
            Cmp::Ge => ">=",
            Cmp::Lt => "<",
            Cmp::Gt => ">",
            Cmp::Eq => "==",
        }
    }
}

/// A binary arithmetic operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `^`
    Pow,
}

/// A built-in function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    /// `exp(x)`
    Exp,
    /// `ln(x)`, also `log(x)`
    Ln,
    /// `sqrt(x)`
    Sqrt,
    /// `abs(x)`
    Abs,
    /// `min(a, b, ...)`
    Min,
    /// `max(a, b, ...)`
    Max,
    /// `floor(x)`
    Floor,
    /// `ceil(x)`
    Ceil,
    /// `p(i)`: the allocation probability of rank `i` (1-based).
    P,
    /// `eps1(δ)`: the best ε of C1 at quantile δ.
    Eps1,
}

/// The accepted function names.
pub const FUNCTIONS: &[(&str, Func)] = &[
    ("exp", Func::Exp),
    ("math::exp", Func::Exp),
    ("ln", Func::Ln),
    ("log", Func::Ln),
    ("math::ln", Func::Ln),
    ("sqrt", Func::Sqrt),
    ("math::sqrt", Func::Sqrt),
    ("abs", Func::Abs),
    ("math::abs", Func::Abs),
    ("min", Func::Min),
    ("max", Func::Max),
    ("floor", Func::Floor),
    ("ceil", Func::Ceil),
    ("p", Func::P),
    ("eps1", Func::Eps1),
];

/// A compiled arithmetic expression; names are resolved to slots.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A literal with its exact decimal value.
    Num(f64, BigRational),
    /// A quantity, by slot.
    Var(usize),
    /// `−e`
    Neg(Box<Expr>),
    /// `a op b`
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// `f(args)`
    Call(Func, Vec<Expr>),
}

/// A compiled claim `lhs cmp rhs`.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The left side.
    pub lhs: Expr,
    /// The operator.
    pub cmp: Cmp,
    /// The right side.
    pub rhs: Expr,
}

/// Why an expression does not compile; `name` is the offending identifier, when there is one, so
/// that the caller can point at its line and column in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct ExprError {
    /// The message.
    pub message: String,
    /// The offending identifier.
    pub name: Option<String>,
}

fn err(message: impl Into<String>) -> ExprError {
    ExprError {
        message: message.into(),
        name: None,
    }
}

/// Parses and compiles a claim. `resolve` maps a variable name to its slot.
///
/// ```
/// use balloc::claim::expr::{compile, Cmp};
/// let slots = ["n", "Gamma"];
/// let c = compile("Gamma <= 2*n + 1/2", &|s| slots.iter().position(|v| *v == s)).unwrap();
/// assert_eq!(c.cmp, Cmp::Le);
/// assert!(compile("Gamma + 1", &|s| slots.iter().position(|v| *v == s)).is_err());
/// let e = compile("Gama <= 1", &|s| slots.iter().position(|v| *v == s)).unwrap_err();
/// assert_eq!(e.name.as_deref(), Some("Gama"));
/// ```
pub fn compile(
    text: &str,
    resolve: &dyn Fn(&str) -> Option<usize>,
) -> Result<Comparison, ExprError> {
    let tree: Node = evalexpr::build_operator_tree(text)
        .map_err(|e| err(format!("cannot parse the expression: {e}")))?;
    let root = unwrap_root(&tree)?;
    let cmp = match root.operator() {
        Operator::Leq => Cmp::Le,
        Operator::Geq => Cmp::Ge,
        Operator::Lt => Cmp::Lt,
        Operator::Gt => Cmp::Gt,
        Operator::Eq => Cmp::Eq,
        other => {
            return Err(err(format!(
                "the claim must be one comparison (<=, >=, <, >, ==) at the top level, found `{other}`"
            )));
        }
    };
    let [l, r] = root.children() else {
        return Err(err("a comparison needs two sides"));
    };
    Ok(Comparison {
        lhs: build(l, resolve)?,
        cmp,
        rhs: build(r, resolve)?,
    })
}

/// Compiles a single arithmetic expression (no comparison), e.g. a constant such as `2 - 1/n`.
pub fn compile_value(
    text: &str,
    resolve: &dyn Fn(&str) -> Option<usize>,
) -> Result<Expr, ExprError> {
    let tree: Node = evalexpr::build_operator_tree(text)
        .map_err(|e| err(format!("cannot parse the expression: {e}")))?;
    build(unwrap_root(&tree)?, resolve)
}

fn unwrap_root(node: &Node) -> Result<&Node, ExprError> {
    let mut node = node;
    while node.operator() == &Operator::RootNode {
        match node.children() {
            [only] => node = only,
            [] => return Err(err("the expression is empty")),
            _ => {
                return Err(err(
                    "the expression has several parts; write one expression",
                ));
            }
        }
    }
    Ok(node)
}

fn build(node: &Node, resolve: &dyn Fn(&str) -> Option<usize>) -> Result<Expr, ExprError> {
    let node = unwrap_root(node)?;
    let kids = node.children();
    let two = |op: BinOp| -> Result<Expr, ExprError> {
        match kids {
            [a, b] => Ok(Expr::Bin(
                op,
                Box::new(build(a, resolve)?),
                Box::new(build(b, resolve)?),
            )),
            _ => Err(err(format!(
                "operator `{}` needs two operands",
                node.operator()
            ))),
        }
    };
    match node.operator() {
        Operator::Add => two(BinOp::Add),
        Operator::Sub => two(BinOp::Sub),
        Operator::Mul => two(BinOp::Mul),
        Operator::Div => two(BinOp::Div),
        Operator::Exp => two(BinOp::Pow),
        Operator::Neg => match kids {
            [a] => Ok(Expr::Neg(Box::new(build(a, resolve)?))),
            _ => Err(err("unary minus needs one operand")),
        },
        Operator::Const { value } => match value {
            Value::Int(i) => Ok(Expr::Num(
                *i as f64,
                BigRational::from_integer(BigInt::from(*i)),
            )),
            Value::Float(f) => {
                // The shortest decimal that round-trips is the number as written.
                let exact = crate::spec::parse_ratio(&format!("{f:e}"))
                    .map_err(|e| err(format!("number {f}: {e}")))?;
                Ok(Expr::Num(*f, exact))
            }
            other => Err(err(format!("only numbers are allowed, found `{other}`"))),
        },
        Operator::VariableIdentifierRead { identifier } => match resolve(identifier) {
            Some(slot) => Ok(Expr::Var(slot)),
            None => {
                let message = if FUNCTIONS.iter().any(|(f, _)| f == identifier) {
                    format!("`{identifier}` is a function; call it as {identifier}(...)")
                } else {
                    format!("unknown variable `{identifier}`")
                };
                Err(ExprError {
                    message,
                    name: Some(identifier.clone()),
                })
            }
        },
        Operator::FunctionIdentifier { identifier } => {
            let Some((_, f)) = FUNCTIONS.iter().find(|(name, _)| name == identifier) else {
                let names: Vec<&str> = FUNCTIONS.iter().map(|(n, _)| *n).collect();
                return Err(ExprError {
                    message: format!(
                        "unknown function `{identifier}`; accepted: {}",
                        names.join(", ")
                    ),
                    name: Some(identifier.clone()),
                });
            };
            let arg = match kids {
                [a] => unwrap_root(a)?,
                _ => {
                    return Err(err(format!(
                        "`{identifier}` needs arguments in parentheses"
                    )));
                }
            };
            let args: Vec<Expr> = if arg.operator() == &Operator::Tuple {
                arg.children()
                    .iter()
                    .map(|c| build(c, resolve))
                    .collect::<Result<_, _>>()?
            } else {
                vec![build(arg, resolve)?]
            };
            let arity_ok = match f {
                Func::Min | Func::Max => !args.is_empty(),
                _ => args.len() == 1,
            };
            if !arity_ok {
                return Err(ExprError {
                    message: format!("`{identifier}` takes one argument, got {}", args.len()),
                    name: Some(identifier.clone()),
                });
            }
            Ok(Expr::Call(*f, args))
        }
        Operator::Eq | Operator::Leq | Operator::Geq | Operator::Lt | Operator::Gt => Err(err(
            "a comparison may appear only once, at the top level of the claim",
        )),
        other => Err(err(format!("operator `{other}` is not allowed in a claim"))),
    }
}

/// What an expression needs from the state at which it is evaluated.
pub trait Env {
    /// The value of slot `slot`.
    fn var(&self, slot: usize) -> XFloat;
    /// `p(i)` for a 1-based rank `i`.
    fn p(&self, i: usize) -> Result<XFloat, String>;
    /// `eps1(δ)`.
    fn eps1(&self, delta: f64) -> Result<XFloat, String>;
}

/// What an expression needs for exact evaluation; `None` means "not available exactly".
pub trait ExactEnv {
    /// The exact value of slot `slot`.
    fn var(&self, slot: usize) -> Option<BigRational>;
    /// The exact `p(i)`.
    fn p(&self, i: usize) -> Option<BigRational>;
    /// The exact `eps1(δ)`.
    fn eps1(&self, delta: &BigRational) -> Option<BigRational>;
}

/// What an expression needs for evaluation over directed-rounding intervals (trust level
/// `enclosure`, DESIGN §3): an enclosure of a slot at `prec` bits, or `None` to fall back to the
/// exact value of [`ExactEnv::var`]. Arguments of `p(i)` and `eps1(δ)` are evaluated exactly.
pub trait IntervalEnv: ExactEnv {
    /// An enclosure of slot `slot` at working precision `prec`, when it is not rational.
    fn var_interval(&self, slot: usize, prec: u64) -> Option<crate::enclosure::Interval>;
}

/// Why an exact evaluation did not give a number.
#[derive(Debug, Clone, PartialEq)]
pub enum ExactError {
    /// The expression uses an operation without an exact rational value (exp, ln, sqrt, a
    /// non-integer power) or a quantity not available exactly.
    NotExact(String),
    /// The expression is undefined (division by zero, index out of range).
    Undefined(String),
}

fn rank_index(v: f64) -> Result<usize, String> {
    if v.fract() != 0.0 || v < 1.0 {
        return Err(format!("p(i) needs a rank i ≥ 1, got {v}"));
    }
    Ok(v as usize)
}

impl Expr {
    /// Evaluates in extended-range floating point.
    ///
    /// ```
    /// use balloc::claim::{expr::{compile_value, Env}, XFloat};
    /// struct E;
    /// impl Env for E {
    ///     fn var(&self, _: usize) -> XFloat { XFloat::from_f64(4.0) }
    ///     fn p(&self, i: usize) -> Result<XFloat, String> { Ok(XFloat::from_f64(i as f64 / 10.0)) }
    ///     fn eps1(&self, d: f64) -> Result<XFloat, String> { Ok(XFloat::from_f64(d)) }
    /// }
    /// let e = compile_value("1/2 + sqrt(n) * p(2)", &|s| (s == "n").then_some(0)).unwrap();
    /// assert_eq!(e.eval(&E).unwrap().to_f64(), 0.5 + 2.0 * 0.2); // 1/2 is 0.5, not 0
    /// ```
    pub fn eval(&self, env: &dyn Env) -> Result<XFloat, String> {
        Ok(match self {
            Expr::Num(f, _) => XFloat::from_f64(*f),
            Expr::Var(s) => env.var(*s),
            Expr::Neg(a) => a.eval(env)?.neg(),
            Expr::Bin(op, a, b) => {
                let (x, y) = (a.eval(env)?, b.eval(env)?);
                match op {
                    BinOp::Add => x.add(y),
                    BinOp::Sub => x.sub(y),
                    BinOp::Mul => x.mul(y),
                    BinOp::Div => x.div(y),
                    BinOp::Pow => x.pow(y),
                }
            }
            Expr::Call(f, args) => {
                let first = args[0].eval(env)?;
                match f {
                    Func::Exp => XFloat::exp(first),
                    Func::Ln => first.ln(),
                    Func::Sqrt => first.sqrt(),
                    Func::Abs => first.abs(),
                    Func::Floor => first.floor(),
                    Func::Ceil => first.ceil(),
                    Func::Min | Func::Max => {
                        let mut acc = first;
                        for a in &args[1..] {
                            let v = a.eval(env)?;
                            acc = if *f == Func::Min {
                                acc.min(v)
                            } else {
                                acc.max(v)
                            };
                        }
                        acc
                    }
                    Func::P => env.p(rank_index(first.to_f64())?)?,
                    Func::Eps1 => env.eps1(first.to_f64())?,
                }
            }
        })
    }

    /// Evaluates over intervals with outward rounding at working precision `prec` bits: the
    /// result contains the true value of the expression. `exp`, `ln` and `sqrt` are monotone and
    /// enclosed end by end with malachite's correctly rounded functions (`Floor` below,
    /// `Ceiling` above); `ln` of an enclosure that is not positive and `sqrt` of one reaching
    /// below 0 are `NotExact` (no enclosure), as are `floor` and `ceil` of a non-rational
    /// argument.
    ///
    /// ```
    /// use balloc::claim::expr::{compile, ExactEnv, IntervalEnv};
    /// use balloc::enclosure::Interval;
    /// use num_rational::BigRational;
    /// struct E;
    /// impl ExactEnv for E {
    ///     fn var(&self, _: usize) -> Option<BigRational> { Some(BigRational::from_integer(2.into())) }
    ///     fn p(&self, _: usize) -> Option<BigRational> { None }
    ///     fn eps1(&self, _: &BigRational) -> Option<BigRational> { None }
    /// }
    /// impl IntervalEnv for E {
    ///     fn var_interval(&self, _: usize, _: u64) -> Option<Interval> { None }
    /// }
    /// // exp(x) * x − 1 at x = 2: 2e² − 1 = 13.7781121978613...
    /// let c = compile("exp(x) * x - 1 <= 0", &|_| Some(0)).unwrap();
    /// let v = c.lhs.eval_interval(&E, 128).unwrap();
    /// assert!(v.lo_f64() <= 13.778112197861301 && 13.7781121978613 <= v.hi_f64());
    /// assert!(v.rel_width() < 1e-30);
    /// ```
    pub fn eval_interval(
        &self,
        env: &dyn IntervalEnv,
        prec: u64,
    ) -> Result<crate::enclosure::Interval, ExactError> {
        use crate::enclosure::Interval;
        use ExactError::*;
        let enc = |e: crate::error::Error| NotExact(e.to_string());
        Ok(match self {
            Expr::Num(_, r) => Interval::from_rational(r, prec),
            Expr::Var(s) => match env.var_interval(*s, prec) {
                Some(v) => v,
                None => Interval::from_rational(
                    &env.var(*s)
                        .ok_or_else(|| NotExact(format!("quantity in slot {s}")))?,
                    prec,
                ),
            },
            Expr::Neg(a) => a.eval_interval(env, prec)?.neg(),
            Expr::Bin(op, a, b) => {
                let x = a.eval_interval(env, prec)?;
                match op {
                    BinOp::Add => x.add(&b.eval_interval(env, prec)?, prec),
                    BinOp::Sub => x.sub(&b.eval_interval(env, prec)?, prec),
                    BinOp::Mul => x.mul(&b.eval_interval(env, prec)?, prec),
                    BinOp::Div => {
                        let y = b.eval_interval(env, prec)?;
                        if y.lo_f64() <= 0.0 && y.hi_f64() >= 0.0 {
                            return Err(NotExact("a divisor enclosure that contains 0".into()));
                        }
                        x.div(&y, prec).map_err(enc)?
                    }
                    BinOp::Pow => {
                        // Integer exponents only (evaluated exactly), as in `eval_exact`.
                        let y = b
                            .eval_exact(env)
                            .map_err(|_| NotExact("a non-rational power".into()))?;
                        if !y.is_integer() || y.abs() > BigRational::from_integer(256.into()) {
                            return Err(NotExact("a non-integer power".into()));
                        }
                        let k = y.to_integer().to_i64().unwrap_or(0);
                        let mut acc = Interval::from_rational(&BigRational::one(), prec);
                        for _ in 0..k.unsigned_abs() {
                            acc = acc.mul(&x, prec);
                        }
                        if k < 0 {
                            if acc.lo_f64() <= 0.0 && acc.hi_f64() >= 0.0 {
                                return Err(NotExact("a negative power of 0".into()));
                            }
                            Interval::from_rational(&BigRational::one(), prec)
                                .div(&acc, prec)
                                .map_err(enc)?
                        } else {
                            acc
                        }
                    }
                }
            }
            Expr::Call(f, args) => match f {
                Func::Exp => args[0].eval_interval(env, prec)?.exp(prec).map_err(enc)?,
                Func::Abs => {
                    let x = args[0].eval_interval(env, prec)?;
                    if *x.lo() >= 0u32 {
                        x
                    } else if *x.hi() <= 0u32 {
                        x.neg()
                    } else {
                        let m = fmax(x.neg().hi(), x.hi());
                        Interval::new(malachite::Float::from(0u32), m).map_err(enc)?
                    }
                }
                Func::Min | Func::Max => {
                    let mut acc = args[0].eval_interval(env, prec)?;
                    for a in &args[1..] {
                        let v = a.eval_interval(env, prec)?;
                        let (lo, hi) = if *f == Func::Min {
                            (fmin(acc.lo(), v.lo()), fmin(acc.hi(), v.hi()))
                        } else {
                            (fmax(acc.lo(), v.lo()), fmax(acc.hi(), v.hi()))
                        };
                        acc = Interval::new(lo, hi).map_err(enc)?;
                    }
                    acc
                }
                Func::P | Func::Eps1 | Func::Floor | Func::Ceil => {
                    Interval::from_rational(&self.eval_exact(env)?, prec)
                }
                Func::Ln => args[0].eval_interval(env, prec)?.ln(prec).map_err(enc)?,
                Func::Sqrt => args[0].eval_interval(env, prec)?.sqrt(prec).map_err(enc)?,
            },
        })
    }

    /// Evaluates in exact rational arithmetic.
    pub fn eval_exact(&self, env: &dyn ExactEnv) -> Result<BigRational, ExactError> {
        use ExactError::*;
        Ok(match self {
            Expr::Num(_, r) => r.clone(),
            Expr::Var(s) => env
                .var(*s)
                .ok_or_else(|| NotExact(format!("quantity in slot {s}")))?,
            Expr::Neg(a) => -a.eval_exact(env)?,
            Expr::Bin(op, a, b) => {
                let (x, y) = (a.eval_exact(env)?, b.eval_exact(env)?);
                match op {
                    BinOp::Add => x + y,
                    BinOp::Sub => x - y,
                    BinOp::Mul => x * y,
                    BinOp::Div => {
                        if y.is_zero() {
                            return Err(Undefined("division by zero".into()));
                        }
                        x / y
                    }
                    BinOp::Pow => {
                        if !y.is_integer() || y.abs() > BigRational::from_integer(256.into()) {
                            return Err(NotExact("a non-integer power".into()));
                        }
                        let k = y.to_integer().to_i32().unwrap_or(0);
                        if k < 0 && x.is_zero() {
                            return Err(Undefined("zero to a negative power".into()));
                        }
                        num_traits::pow::Pow::pow(&x, k)
                    }
                }
            }
            Expr::Call(f, args) => {
                let first = args[0].eval_exact(env)?;
                match f {
                    Func::Exp | Func::Ln | Func::Sqrt => {
                        return Err(NotExact(format!("{f:?}").to_lowercase()));
                    }
                    Func::Abs => first.abs(),
                    Func::Floor => first.floor(),
                    Func::Ceil => first.ceil(),
                    Func::Min | Func::Max => {
                        let mut acc = first;
                        for a in &args[1..] {
                            let v = a.eval_exact(env)?;
                            let take = if *f == Func::Min { v < acc } else { v > acc };
                            if take {
                                acc = v;
                            }
                        }
                        acc
                    }
                    Func::P => {
                        if !first.is_integer() || first < BigRational::one() {
                            return Err(Undefined(format!("p(i) needs a rank i ≥ 1, got {first}")));
                        }
                        let i = first.to_integer().to_usize().unwrap_or(usize::MAX);
                        env.p(i)
                            .ok_or_else(|| NotExact(format!("p({i}) exactly")))?
                    }
                    Func::Eps1 => env
                        .eps1(&first)
                        .ok_or_else(|| NotExact("eps1 exactly".into()))?,
                }
            }
        })
    }

    /// Visits every node.
    pub fn visit(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match self {
            Expr::Neg(a) => a.visit(f),
            Expr::Bin(_, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Expr::Call(_, args) => args.iter().for_each(|a| a.visit(f)),
            _ => {}
        }
    }

    /// Whether the expression calls `func`.
    pub fn calls(&self, func: Func) -> bool {
        let mut found = false;
        self.visit(&mut |e| {
            if let Expr::Call(g, _) = e {
                found |= *g == func;
            }
        });
        found
    }

    /// The slots the expression reads.
    pub fn slots(&self) -> Vec<usize> {
        let mut out = Vec::new();
        self.visit(&mut |e| {
            if let Expr::Var(s) = e {
                out.push(*s);
            }
        });
        out
    }
}

impl Comparison {
    /// The slots either side reads.
    pub fn slots(&self) -> Vec<usize> {
        let mut s = self.lhs.slots();
        s.extend(self.rhs.slots());
        s.sort_unstable();
        s.dedup();
        s
    }

    /// Whether either side calls `func`.
    pub fn calls(&self, func: Func) -> bool {
        self.lhs.calls(func) || self.rhs.calls(func)
    }

    /// The slack of the comparison: how far it is from failing, positive when it holds.
    /// `a <= b`, `a < b`: `b − a`; `a >= b`, `a > b`: `a − b`; `a == b`: `tol − |a − b|`.
    /// For the strict comparisons a slack of exactly 0 is a violation (see [`Comparison::holds`]).
    ///
    /// ```
    /// use balloc::claim::{expr::{compile, Cmp}, XFloat};
    /// let c = compile("x <= 1", &|_| Some(0)).unwrap();
    /// assert_eq!(c.slack(XFloat::from_f64(0.25), XFloat::from_f64(1.0), 0.0).to_f64(), 0.75);
    /// ```
    pub fn slack(&self, lhs: XFloat, rhs: XFloat, tol: f64) -> XFloat {
        match self.cmp {
            Cmp::Le | Cmp::Lt => rhs.sub(lhs),
            Cmp::Ge | Cmp::Gt => lhs.sub(rhs),
            Cmp::Eq => XFloat::from_f64(tol).sub(lhs.sub(rhs).abs()),
        }
    }

    /// Exact slack, as [`Comparison::slack`].
    pub fn slack_exact(
        &self,
        lhs: &BigRational,
        rhs: &BigRational,
        tol: &BigRational,
    ) -> BigRational {
        match self.cmp {
            Cmp::Le | Cmp::Lt => rhs - lhs,
            Cmp::Ge | Cmp::Gt => lhs - rhs,
            Cmp::Eq => tol - (lhs - rhs).abs(),
        }
    }

    /// Whether a slack means the comparison holds, with tolerance `tol` for the non-strict and
    /// strict inequalities (`==` has its tolerance inside the slack).
    pub fn holds(&self, slack: XFloat, tol: f64) -> bool {
        match self.cmp {
            Cmp::Le | Cmp::Ge => slack >= XFloat::from_f64(-tol),
            Cmp::Lt | Cmp::Gt => slack > XFloat::from_f64(-tol),
            Cmp::Eq => slack >= XFloat::ZERO,
        }
    }

    /// [`Comparison::holds`] over enclosures: `Some(true)` when the comparison (with tolerance
    /// `tol`) certainly holds for every pair of values in `lhs × rhs`, `Some(false)` when it
    /// certainly fails, `None` when the enclosures do not decide it at their precision.
    ///
    /// ```
    /// use balloc::claim::expr::compile;
    /// use balloc::enclosure::Interval;
    /// use balloc::exact::Q;
    /// let c = compile("x <= y", &|_| Some(0)).unwrap();
    /// let third = Interval::from_rational(&Q::new(1.into(), 3.into()), 64);
    /// let half = Interval::from_rational(&Q::new(1.into(), 2.into()), 64);
    /// assert_eq!(c.holds_interval(&third, &half, &Q::from_integer(0.into()), 64), Some(true));
    /// assert_eq!(c.holds_interval(&half, &third, &Q::from_integer(0.into()), 64), Some(false));
    /// assert_eq!(c.holds_interval(&third, &third, &Q::from_integer(0.into()), 64), None);
    /// ```
    pub fn holds_interval(
        &self,
        lhs: &crate::enclosure::Interval,
        rhs: &crate::enclosure::Interval,
        tol: &BigRational,
        prec: u64,
    ) -> Option<bool> {
        // The slack as an interval, then the rule of `holds_exact` on its ends.
        let slack = match self.cmp {
            Cmp::Le | Cmp::Lt => rhs.sub(lhs, prec),
            Cmp::Ge | Cmp::Gt => lhs.sub(rhs, prec),
            Cmp::Eq => {
                let d = lhs.sub(rhs, prec);
                let zero = malachite::Float::from(0u32);
                let abs = if *d.lo() >= 0u32 {
                    d
                } else if *d.hi() <= 0u32 {
                    d.neg()
                } else {
                    let m = fmax(d.neg().hi(), d.hi());
                    crate::enclosure::Interval::new(zero, m).ok()?
                };
                abs.neg().add_rational(tol, prec)
            }
        };
        let bound = match self.cmp {
            Cmp::Eq => BigRational::zero(),
            _ => -tol.clone(),
        };
        let b = crate::enclosure::to_malachite(&bound);
        let strict = matches!(self.cmp, Cmp::Lt | Cmp::Gt);
        let (lo, hi) = (slack.lo(), slack.hi());
        let lo_ok = if strict { *lo > b } else { *lo >= b };
        let hi_bad = if strict { *hi <= b } else { *hi < b };
        if lo_ok {
            Some(true)
        } else if hi_bad {
            Some(false)
        } else {
            None
        }
    }

    /// [`Comparison::holds`] in exact arithmetic.
    pub fn holds_exact(&self, slack: &BigRational, tol: &BigRational) -> bool {
        match self.cmp {
            Cmp::Le | Cmp::Ge => *slack >= -tol.clone(),
            Cmp::Lt | Cmp::Gt => *slack > -tol.clone(),
            Cmp::Eq => !slack.is_negative(),
        }
    }
}

fn fmin(a: &malachite::Float, b: &malachite::Float) -> malachite::Float {
    if a <= b { a.clone() } else { b.clone() }
}

fn fmax(a: &malachite::Float, b: &malachite::Float) -> malachite::Float {
    if a >= b { a.clone() } else { b.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &str) -> Option<usize> {
        ["n", "a", "b"].iter().position(|v| *v == s)
    }

    struct Vals;
    impl Env for Vals {
        fn var(&self, s: usize) -> XFloat {
            XFloat::from_f64([8.0, 0.5, -3.0][s])
        }
        fn p(&self, i: usize) -> Result<XFloat, String> {
            Ok(XFloat::from_f64(i as f64))
        }
        fn eps1(&self, d: f64) -> Result<XFloat, String> {
            Ok(XFloat::from_f64(1.0 - d))
        }
    }

    #[test]
    fn precedence_and_functions() {
        // 1 + 2·3² − 8/4 = 17; max(a, b, 1) = 1; ln(exp(2)) = 2.
        let e = compile_value("1 + 2*3^2 - n/4 + max(a, b, 1) + ln(exp(2))", &names).unwrap();
        assert_eq!(
            e.eval(&Vals).unwrap().to_f64(),
            1.0 + 18.0 - 2.0 + 1.0 + 2.0
        );
        let e = compile_value("p(3) * eps1(1/4)", &names).unwrap();
        assert_eq!(e.eval(&Vals).unwrap().to_f64(), 3.0 * 0.75);
    }

    #[test]
    fn rejects_non_comparisons_and_unknown_names() {
        assert!(
            compile("n + 1", &names)
                .unwrap_err()
                .message
                .contains("comparison")
        );
        assert!(compile("n <= 1 <= 2", &names).is_err());
        let e = compile("n <= foo(2)", &names).unwrap_err();
        assert_eq!(e.name.as_deref(), Some("foo"));
        let e = compile("n <= zeta", &names).unwrap_err();
        assert_eq!(e.name.as_deref(), Some("zeta"));
        assert!(compile("n <= ", &names).is_err());
        assert!(compile("n = 3", &names).is_err());
    }

    #[test]
    fn exact_evaluation_is_rational() {
        struct X;
        impl ExactEnv for X {
            fn var(&self, s: usize) -> Option<BigRational> {
                Some(BigRational::from_integer([8, 1, -3][s].into()))
            }
            fn p(&self, _: usize) -> Option<BigRational> {
                None
            }
            fn eps1(&self, _: &BigRational) -> Option<BigRational> {
                None
            }
        }
        let e = compile_value("1/3 + n^-1 + 0.1", &names).unwrap();
        // 1/3 + 1/8 + 1/10 = (40 + 15 + 12)/120 = 67/120
        assert_eq!(
            e.eval_exact(&X).unwrap(),
            BigRational::new(67.into(), 120.into())
        );
        let e = compile_value("sqrt(n)", &names).unwrap();
        assert!(matches!(e.eval_exact(&X), Err(ExactError::NotExact(_))));
        let e = compile_value("p(2)", &names).unwrap();
        assert!(matches!(e.eval_exact(&X), Err(ExactError::NotExact(_))));
    }
}
