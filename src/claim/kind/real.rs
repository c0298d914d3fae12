//! The kind `real`: a claim over a few real variables on a box, **proved** by certified branch
//! and bound ([`crate::prover`]), **refuted** by a certified point, or honestly
//! **inconclusive** when the budget runs out.
//!
//! ```toml
//! kind = "real"
//! expected = "proved"
//!
//! [constants]
//! C = 2
//!
//! [vars]
//! alpha = "(0, 1]"                                      # open or closed ends, exact numbers or constant expressions
//! t = ["0", "1"]                                        # the closed interval [0, 1]
//! n = { range = "[8, inf)", substitute = "u = 1/n" }    # an unbounded range through u = 1/n ∈ (0, 1/8]
//!
//! [claim]
//! let = { p = "C*t/n" }                                  # derived names (dependent ranges: p ∈ [0, C/n])
//! given = ["alpha <= 1"]                                 # hypotheses
//! expr = "1 + p*(exp(alpha) - 1) <= exp(alpha*p + alpha^2*p)"
//! touching = [{ alpha = "0", t = "0", n = "8" }]         # points where the claim is tight (optional)
//! max_boxes = 200000                                     # budget (box evaluations), at most 10⁷
//! max_seconds = 60                                       # time budget, at most 3600
//! ```
//!
//! After a substitution `u = 1/n` both names may be used; `n` is replaced by `1/u` and
//! `a/(1/u)` simplified to `a·u`, so that `alpha/n` stays bounded as `u → 0`. Every grid
//! combination of the constants is a separate proof. The verdict is `proved` when every
//! combination is proved and each certificate passes the independent checker at
//! [`CHECK_PREC`] bits; `refuted` when one has a certified counterexample; otherwise
//! `inconclusive`, with the boxes left. With `RunContext::certificates` set, each certificate
//! is written to `<dir>/<id>.json` (`<id>.<k>.json` for grid combination `k`).

use super::{Check, ConstantReport, KindInfo, RunContext, Tightest};
use crate::claim::schema::{FileError, Theorem};
use crate::claim::setup::{CaseValues, Constants, error_in_string};
use crate::claim::verdict::{Searched, Status, Trust, Verdict, Witness};
use crate::error::{Error, Result};
use crate::exact::Q;
use crate::lang::syntax::Node as AstNode;
use crate::lang::{BinOp, Cmp, Domain, Enclosure, Expr, Formula, Resolved, Scope};
use crate::prover::{self, Options, Outcome, Problem, SlotDef, Var, boxes::q_show, checker};
use num_traits::{One, ToPrimitive, Zero};
use std::collections::BTreeMap;
use std::sync::Arc;
use toml::Spanned;

/// The registry entry.
pub static INFO: KindInfo = KindInfo {
    name: "real",
    summary: "a claim over a few real variables on a box, proved by certified branch and bound (interval arithmetic, interval derivatives), with a certificate and an independent checker",
    build,
};

/// The largest box budget a file may ask for.
pub const MAX_BOXES: u64 = 10_000_000;
/// The largest time budget a file may ask for (seconds).
pub const MAX_SECONDS: f64 = 3600.0;
/// The most variables a claim may have.
pub const MAX_VARS: usize = 8;
/// The precision (bits) at which the independent checker re-evaluates a certificate.
pub const CHECK_PREC: u64 = 128;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimSection {
    expr: Spanned<String>,
    #[serde(default)]
    given: Vec<Spanned<String>>,
    #[serde(default, rename = "let")]
    lets: BTreeMap<String, Spanned<String>>,
    #[serde(default)]
    touching: Vec<Spanned<BTreeMap<String, Spanned<toml::Value>>>>,
    #[serde(default)]
    max_boxes: Option<Spanned<i64>>,
    #[serde(default)]
    max_seconds: Option<Spanned<f64>>,
}

/// One end of a range as written.
#[derive(Debug, Clone)]
enum End {
    Finite(String, usize),
    PosInf,
    NegInf,
}

/// A variable as declared.
#[derive(Debug, Clone)]
struct VarSpec {
    name: String,
    lo: End,
    hi: End,
    lo_open: bool,
    hi_open: bool,
    /// `u = 1/name`: the prover variable `u`.
    subst: Option<String>,
    /// Byte offset of the value in the file (its opening quote or bracket).
    at: usize,
    /// Byte offset of the range string (for errors inside it).
    text_at: usize,
}

/// A built `real` check.
pub struct Real {
    t: Theorem,
    constants: Constants,
    vars: Vec<VarSpec>,
    claim: ClaimSection,
    options: Options,
}

fn err(t: &Theorem, at: usize, msg: impl Into<String>) -> FileError {
    t.error_at(Some(at), msg.into())
}

/// Splits `[a, b)` into its brackets and ends (a comma at parenthesis depth 0 separates them);
/// offsets are relative to `s`.
/// A range as written: whether the lower end is open, the two ends (text and offset), whether
/// the upper end is open.
type RangeParts = (bool, (String, usize), (String, usize), bool);

fn parse_range(s: &str) -> std::result::Result<RangeParts, (usize, String)> {
    let trimmed_start = s.len() - s.trim_start().len();
    let body = s.trim();
    let (open_lo, open_hi) = match (body.chars().next(), body.chars().last()) {
        (Some(a @ ('[' | '(')), Some(b @ (']' | ')'))) if body.len() >= 2 => (a == '(', b == ')'),
        _ => {
            return Err((
                trimmed_start,
                format!(
                    "expected an interval such as \"[0, 1]\", \"(0, 1]\" or \"[1, inf)\", got `{}`",
                    crate::lang::syntax::excerpt(body, 40)
                ),
            ));
        }
    };
    let inner = &body[1..body.len() - 1];
    let mut depth = 0i32;
    let mut comma = None;
    for (i, c) in inner.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                if comma.is_some() {
                    return Err((trimmed_start + 1 + i, "an interval has two ends".into()));
                }
                comma = Some(i);
            }
            _ => {}
        }
    }
    let Some(c) = comma else {
        return Err((
            trimmed_start,
            "an interval needs two ends separated by a comma".into(),
        ));
    };
    let base = trimmed_start + 1;
    Ok((
        open_lo,
        (inner[..c].to_string(), base),
        (inner[c + 1..].to_string(), base + c + 1),
        open_hi,
    ))
}

fn end_of(text: &str, at: usize) -> End {
    let s = text.trim();
    let lead = text.len() - text.trim_start().len();
    match s {
        "inf" | "+inf" | "infinity" | "+infinity" | "∞" | "+∞" => End::PosInf,
        "-inf" | "-infinity" | "-∞" | "−∞" => End::NegInf,
        _ => End::Finite(s.to_string(), at + lead),
    }
}

fn parse_var(
    t: &Theorem,
    name: &str,
    v: &Spanned<toml::Value>,
) -> std::result::Result<VarSpec, FileError> {
    let at = v.span().start;
    let mk = |range: &str,
              text_at: usize,
              subst: Option<String>|
     -> std::result::Result<VarSpec, FileError> {
        let (lo_open, (lo, lo_at), (hi, hi_at), hi_open) = parse_range(range)
            .map_err(|(o, m)| error_in_string(t, text_at, o, format!("variable `{name}`: {m}")))?;
        Ok(VarSpec {
            name: name.to_string(),
            lo: end_of(&lo, lo_at),
            hi: end_of(&hi, hi_at),
            lo_open,
            hi_open,
            subst,
            at,
            text_at,
        })
    };
    match v.get_ref() {
        toml::Value::String(s) => mk(s, at, None),
        toml::Value::Array(a) => {
            if a.len() != 2 {
                return Err(err(
                    t,
                    at,
                    format!(
                        "variable `{name}`: a range [lo, hi] has two entries, got {}",
                        a.len()
                    ),
                ));
            }
            let end = |x: &toml::Value| -> std::result::Result<String, FileError> {
                match x {
                    toml::Value::String(s) => Ok(s.clone()),
                    toml::Value::Integer(i) => Ok(i.to_string()),
                    toml::Value::Float(f) if f.is_finite() => Ok(format!("{f:e}")),
                    other => Err(err(
                        t,
                        at,
                        format!("variable `{name}`: `{other}` is not a number"),
                    )),
                }
            };
            let (lo, hi) = (end(&a[0])?, end(&a[1])?);
            Ok(VarSpec {
                name: name.to_string(),
                lo: end_of(&lo, usize::MAX),
                hi: end_of(&hi, usize::MAX),
                lo_open: false,
                hi_open: false,
                subst: None,
                at,
                text_at: usize::MAX,
            })
        }
        toml::Value::Table(tb) => {
            for k in tb.keys() {
                if k != "range" && k != "substitute" {
                    return Err(err(
                        t,
                        at,
                        format!(
                            "variable `{name}`: unknown field `{k}` (expected `range` and `substitute`)"
                        ),
                    ));
                }
            }
            let Some(toml::Value::String(range)) = tb.get("range") else {
                return Err(err(
                    t,
                    at,
                    format!(
                        "variable `{name}`: `range` (a string such as \"[1, inf)\") is required"
                    ),
                ));
            };
            let range_at = t
                .text
                .get(at..v.span().end)
                .and_then(|s| s.find("range"))
                .and_then(|k| t.text[at + k..].find('"').map(|q| at + k + q))
                .unwrap_or(at);
            let subst = match tb.get("substitute") {
                None => None,
                Some(toml::Value::String(s)) => {
                    let sub_at = t
                        .text
                        .get(at..v.span().end)
                        .and_then(|x| x.find("substitute"))
                        .and_then(|k| t.text[at + k..].find('"').map(|q| at + k + q))
                        .unwrap_or(at);
                    Some(parse_substitution(t, name, s, sub_at)?)
                }
                Some(_) => {
                    return Err(err(
                        t,
                        at,
                        format!(
                            "variable `{name}`: `substitute` must be a string such as \"u = 1/{name}\""
                        ),
                    ));
                }
            };
            mk(range, range_at, subst)
        }
        other => Err(err(
            t,
            at,
            format!(
                "variable `{name}`: expected a range such as \"[0, 1]\", [\"0\", \"1\"] or {{ range = \"[1, inf)\", substitute = \"u = 1/{name}\" }}, got {}",
                other.type_str()
            ),
        )),
    }
}

/// `u = 1/name`: the new name `u`.
fn parse_substitution(
    t: &Theorem,
    name: &str,
    s: &str,
    at: usize,
) -> std::result::Result<String, FileError> {
    let bad = |o: usize, m: String| error_in_string(t, at, o, format!("variable `{name}`: {m}"));
    let Some((lhs, rhs)) = s.split_once('=') else {
        return Err(bad(0, format!("expected a substitution `u = 1/{name}`")));
    };
    let u = lhs.trim();
    let ident = !u.is_empty()
        && u.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
        && u.chars().all(|c| c.is_alphanumeric() || c == '_');
    if !ident {
        return Err(bad(
            0,
            format!("`{u}` is not a name (expected `u = 1/{name}`)"),
        ));
    }
    let roff = lhs.len() + 1;
    let ast = crate::lang::parse(rhs).map_err(|e| bad(roff + e.at, e.message))?;
    let ok = match &ast.node {
        AstNode::Bin(BinOp::Div, a, b) => {
            matches!(&a.node, AstNode::Num(q) if q.is_one())
                && matches!(&b.node, AstNode::Name(n) if n == name)
        }
        _ => false,
    };
    if !ok {
        return Err(bad(
            roff,
            format!(
                "only the substitution `{u} = 1/{name}` is supported (got `{}`)",
                rhs.trim()
            ),
        ));
    }
    if u == name {
        return Err(bad(0, "the new variable needs a name of its own".into()));
    }
    Ok(u.to_string())
}

/// The search limits of a file of kind `real`: [`Options::default`] with its `max_boxes` and
/// `max_seconds` (checked against their bounds).
fn search_options_of(t: &Theorem, claim: &ClaimSection) -> std::result::Result<Options, FileError> {
    let mut options = Options::default();
    if let Some(b) = &claim.max_boxes {
        let v = *b.get_ref();
        if v < 1 || v as u64 > MAX_BOXES {
            return Err(err(
                t,
                b.span().start,
                format!("max_boxes = {v} is outside 1..={MAX_BOXES}"),
            ));
        }
        options.max_boxes = v as u64;
    }
    if let Some(s) = &claim.max_seconds {
        let v = *s.get_ref();
        if !(v > 0.0 && v <= MAX_SECONDS) {
            return Err(err(
                t,
                s.span().start,
                format!("max_seconds = {v} is outside (0, {MAX_SECONDS}]"),
            ));
        }
        options.max_seconds = v;
    }
    Ok(options)
}

/// The search limits a file of kind `real` sets (`max_boxes`, `max_seconds`; the defaults
/// otherwise), e.g. for running [`crate::prover::prove`] on its [`problems`] as `balloc check`
/// does.
///
/// ```
/// let t = balloc::claim::load(
///     std::path::Path::new("theorems/ptw/real-ln-one-plus-x.toml"),
///     std::path::Path::new("theorems"),
/// )
/// .unwrap();
/// let o = balloc::claim::kind::real::search_options(&t).unwrap();
/// assert!(o.max_boxes >= 1 && o.fast);
/// ```
pub fn search_options(t: &Theorem) -> std::result::Result<Options, FileError> {
    let claim: Spanned<ClaimSection> = t.claim_section()?;
    search_options_of(t, claim.get_ref())
}

fn build(t: &Theorem) -> std::result::Result<Box<dyn Check>, FileError> {
    let c: Spanned<ClaimSection> = t.claim_section()?;
    let claim = c.into_inner();
    let f = &t.file;
    if f.domain.span() != (0..0) {
        return Err(err(
            t,
            f.domain.span().start,
            "kind `real` has no [domain]: its variables and their ranges are in [vars]",
        ));
    }
    if let Some(p) = f.setting.processes.first() {
        return Err(err(
            t,
            p.span().start,
            "kind `real` takes no processes: its claim is over the real variables of [vars]",
        ));
    }
    if f.vars.is_empty() {
        return Err(t.error_at(
            None,
            "kind `real` needs [vars]: e.g. x = \"[-5, 5]\" (open ends with ( ), unbounded ranges with a substitution)",
        ));
    }
    if f.vars.len() > MAX_VARS {
        let at = f.vars.values().next().map(|v| v.span().start);
        return Err(t.error_at(
            at,
            format!(
                "{} variables; the limit is {MAX_VARS} (the number of boxes grows exponentially with it)",
                f.vars.len()
            ),
        ));
    }
    let constants = Constants::parse(t)?;
    for (j, g) in constants.defs.iter().enumerate() {
        for d in g {
            if d.expr.uses().slots.iter().any(|&s| s < 2) {
                return Err(err(
                    t,
                    constants.at[j],
                    format!(
                        "constant `{}` reads n or b; a real claim has no bins (declare n in [vars])",
                        constants.names[j]
                    ),
                ));
            }
        }
    }
    let mut vars = Vec::new();
    for (name, v) in &f.vars {
        let spec = parse_var(t, name, v)?;
        if crate::lang::expr::is_function_name(name, false) {
            return Err(err(
                t,
                v.span().start,
                format!(
                    "variable `{name}` is named like a function of the language (`{name}(...)`); choose another name"
                ),
            ));
        }
        if constants.index(name).is_some() {
            return Err(err(
                t,
                v.span().start,
                format!("`{name}` is both a constant and a variable"),
            ));
        }
        vars.push(spec);
    }
    let options = search_options_of(t, &claim)?;
    let me = Real {
        t: t.clone(),
        constants,
        vars,
        claim,
        options,
    };
    // Validate every case now (ranges, names, expressions), so that errors come before any search.
    for pick in me.constants.picks() {
        me.problem(&pick, &[])?;
    }
    for name in t.file.tighten.keys() {
        if me.constants.index(name).is_none() {
            return Err(t.error_at(
                None,
                format!("[tighten] names `{name}`, which is not a constant"),
            ));
        }
    }
    Ok(Box::new(me))
}

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
struct RealScope<'a> {
    names: &'a [(String, Resolved)],
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

/// Replaces slot `from` by `1/u` (slot `u`) and simplifies `a/(1/u)` to `a·u` and `(1/u)^k`
/// to `u^(−k)`.
fn substitute(e: &Expr, from: usize, u: usize) -> Expr {
    use crate::lang::expr::num;
    let rec = |x: &Expr| Box::new(substitute(x, from, u));
    let inv = || Expr::Op(BinOp::Div, Box::new(num(Q::one())), Box::new(Expr::Slot(u)));
    let is_inv = |x: &Expr| matches!(x, Expr::Op(BinOp::Div, a, b) if matches!(**a, Expr::Num(ref q, _) if q.is_one()) && **b == Expr::Slot(u));
    match e {
        Expr::Slot(s) if *s == from => inv(),
        Expr::Num(..) | Expr::Slot(_) | Expr::Bin(_) => e.clone(),
        Expr::Neg(a) => Expr::Neg(rec(a)),
        Expr::Op(op, a, b) => {
            let (a, b) = (substitute(a, from, u), substitute(b, from, u));
            match op {
                BinOp::Div if is_inv(&b) => {
                    Expr::Op(BinOp::Mul, Box::new(a), Box::new(Expr::Slot(u)))
                }
                BinOp::Pow if is_inv(&a) => match &b {
                    Expr::Num(q, _) => Expr::Op(
                        BinOp::Pow,
                        Box::new(Expr::Slot(u)),
                        Box::new(num(-q.clone())),
                    ),
                    _ => Expr::Op(*op, Box::new(a), Box::new(b)),
                },
                _ => Expr::Op(*op, Box::new(a), Box::new(b)),
            }
        }
        Expr::Call(f, args) => {
            Expr::Call(*f, args.iter().map(|a| substitute(a, from, u)).collect())
        }
        Expr::Proc(f, a) => Expr::Proc(*f, rec(a)),
        Expr::Ind(f) => Expr::Ind(Box::new(substitute_formula(f, from, u))),
        Expr::Over(on, a, f, p, ..) => Expr::over(
            *on,
            *a,
            substitute(f, from, u),
            p.as_ref().map(|p| substitute_formula(p, from, u)),
        ),
        Expr::Count(on, p, ..) => Expr::count(*on, substitute_formula(p, from, u)),
        Expr::EnvCall(f, args) => Expr::EnvCall(
            f.clone(),
            args.iter().map(|a| substitute(a, from, u)).collect(),
        ),
        Expr::Dim => Expr::Dim,
        // Names of nested binders, the next state and edges: not in the scope of kind `real`.
        Expr::NextSlot(_)
        | Expr::NextBin(_)
        | Expr::Outer(..)
        | Expr::Edge(..)
        | Expr::Prob(..)
        | Expr::Mean(..) => e.clone(),
    }
}

fn substitute_formula(f: &Formula, from: usize, u: usize) -> Formula {
    match f {
        Formula::Cmp(a, c, b) => Formula::Cmp(substitute(a, from, u), *c, substitute(b, from, u)),
        Formula::And(a, b) => Formula::And(
            Box::new(substitute_formula(a, from, u)),
            Box::new(substitute_formula(b, from, u)),
        ),
        Formula::Or(a, b) => Formula::Or(
            Box::new(substitute_formula(a, from, u)),
            Box::new(substitute_formula(b, from, u)),
        ),
        Formula::Not(a) => Formula::Not(Box::new(substitute_formula(a, from, u))),
    }
}

/// What a case of the claim is: the problem and the constants for reports.
struct Case {
    problem: Problem,
    constants: BTreeMap<String, String>,
    constants_f64: BTreeMap<String, f64>,
    /// The original name and the prover variable of each substitution.
    substituted: Vec<(String, usize)>,
}

impl Real {
    fn file_err(&self, e: FileError) -> Error {
        Error::invalid(self.t.file_name(), e.to_string())
    }

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
    fn problem(
        &self,
        pick: &[usize],
        overrides: &[(usize, Q)],
    ) -> std::result::Result<Case, FileError> {
        let t = &self.t;
        let consts = self.constants.evaluate(t, 2, Some(1), pick, overrides)?;
        let cv = Arc::new(CaseValues {
            n: 2,
            b: 1,
            pick: pick.to_vec(),
            consts: consts.clone(),
        });
        let cdefs = Arc::new(self.constants.clone());
        // Names: constants first (values inlined when exact, else a slot with its enclosure).
        let mut names: Vec<(String, Resolved)> = Vec::new();
        let mut slots: Vec<SlotDef> = Vec::new();
        let mut shown = BTreeMap::new();
        let mut shown_f64 = BTreeMap::new();
        for (j, name) in self.constants.names.iter().enumerate() {
            shown_f64.insert(name.clone(), cv.float(j));
            match &consts[j].exact {
                Some(q) => {
                    shown.insert(name.clone(), q.to_string());
                    names.push((name.clone(), Resolved::Value(q.clone())));
                }
                None => {
                    let def = &self.constants.defs[j][pick[j]].text;
                    shown.insert(name.clone(), def.clone());
                    let (cv, cdefs) = (cv.clone(), cdefs.clone());
                    let f: prover::ConstFn = Arc::new(move |prec| {
                        cv.constant(&cdefs, &Enclosure { prec }, j)
                            .map_err(|e| e.to_string())
                    });
                    names.push((name.clone(), Resolved::Slot(slots.len())));
                    slots.push(SlotDef::Const(f));
                }
            }
        }
        // Variables (with their ranges, exact).
        let mut vars: Vec<Var> = Vec::new();
        let mut substituted: Vec<(String, usize, usize)> = Vec::new(); // (name, slot of name, var)
        {
            let const_names = names.clone();
            let const_scope = RealScope {
                names: &const_names,
            };
            for v in &self.vars {
                let lo = match &v.lo {
                    End::Finite(s, at) => Some(self.end_value(v, s, *at, &const_scope, "lower")?),
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
                    End::Finite(s, at) => Some(self.end_value(v, s, *at, &const_scope, "upper")?),
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
                match &v.subst {
                    None => {
                        let (Some(lo), Some(hi)) = (lo, hi) else {
                            return Err(err(
                                t,
                                v.at,
                                format!(
                                    "variable `{}` has an unbounded range; give a substitution, e.g. {} = {{ range = \"[1, inf)\", substitute = \"u = 1/{}\" }}",
                                    v.name, v.name, v.name
                                ),
                            ));
                        };
                        names.push((v.name.clone(), Resolved::Slot(slots.len())));
                        slots.push(SlotDef::Var(vars.len()));
                        vars.push(Var {
                            name: v.name.clone(),
                            lo,
                            hi,
                            lo_open: v.lo_open,
                            hi_open: v.hi_open,
                        });
                    }
                    Some(u) => {
                        // u = 1/x maps [a, b] (0 outside) to [1/b, 1/a], an infinite end to 0 (open).
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
                        if self.constants.index(u).is_some()
                            || self.vars.iter().any(|w| w.name == *u)
                        {
                            return Err(err(
                                t,
                                v.at,
                                format!("variable `{}`: the name `{u}` is taken", v.name),
                            ));
                        }
                        let uslot = slots.len();
                        names.push((u.clone(), Resolved::Slot(uslot)));
                        slots.push(SlotDef::Var(vars.len()));
                        // The original name: a slot that is rewritten to 1/u after compilation.
                        let nslot = usize::MAX - substituted.len();
                        names.push((v.name.clone(), Resolved::Slot(nslot)));
                        substituted.push((v.name.clone(), nslot, uslot));
                        vars.push(Var {
                            name: u.clone(),
                            lo: ulo,
                            hi: uhi,
                            lo_open: ulo_open,
                            hi_open: uhi_open,
                        });
                    }
                }
            }
        }
        let subs = substituted.clone();
        let rewrite = |e: Expr| -> Expr {
            subs.iter()
                .fold(e, |e, (_, from, u)| substitute(&e, *from, *u))
        };
        let rewrite_f = |f: Formula| -> Formula {
            subs.iter()
                .fold(f, |f, (_, from, u)| substitute_formula(&f, *from, *u))
        };
        let check_uses = |u: crate::lang::Uses,
                          at: usize,
                          what: &str|
         -> std::result::Result<(), FileError> {
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
        };
        // Derived names, in an order where each reads only earlier ones.
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
            if names.iter().any(|(n, _)| n == *name) {
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
                let (name, v) = pending[k];
                let ast = crate::lang::parse(v.get_ref()).map_err(|e| {
                    error_in_string(
                        t,
                        v.span().start,
                        e.at,
                        format!("let `{name}`: {}", e.message),
                    )
                })?;
                let scope = RealScope { names: &names };
                match crate::lang::compile_expr(&ast, &scope, false) {
                    Ok(e) => {
                        check_uses(e.uses(), v.span().start, &format!("let `{name}`"))?;
                        names.push((name.clone(), Resolved::Slot(slots.len())));
                        slots.push(SlotDef::Let(rewrite(e)));
                        pending.remove(k);
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
                                format!("let `{name}`: {}", real_message(&e, &names)),
                            ));
                        }
                        k += 1;
                    }
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
        let scope = RealScope { names: &names };
        // The claim: one comparison.
        let ce = &self.claim.expr;
        let at = ce.span().start;
        let ast = crate::lang::parse(ce.get_ref())
            .map_err(|e| error_in_string(t, at, e.at, format!("claim: {}", e.message)))?;
        let (l, cmp, r) = match &ast.node {
            AstNode::Cmp(l, c @ (Cmp::Le | Cmp::Lt | Cmp::Ge | Cmp::Gt), r) => (l, *c, r),
            _ => {
                return Err(error_in_string(
                    t,
                    at,
                    0,
                    "claim: kind `real` proves one comparison `lhs <= rhs` (or <, >=, >); state a chain or a conjunction as separate files".into(),
                ));
            }
        };
        let comp = |a: &crate::lang::Ast| {
            crate::lang::compile_expr(a, &scope, false).map_err(|e| {
                error_in_string(t, at, e.at, format!("claim: {}", real_message(&e, &names)))
            })
        };
        let (lhs, rhs) = (comp(l)?, comp(r)?);
        check_uses(lhs.uses(), at, "claim")?;
        check_uses(rhs.uses(), at, "claim")?;
        let mut given = Vec::new();
        for g in &self.claim.given {
            let gat = g.span().start;
            let ast = crate::lang::parse(g.get_ref())
                .map_err(|e| error_in_string(t, gat, e.at, format!("given: {}", e.message)))?;
            let f = crate::lang::compile_formula(&ast, &scope, false).map_err(|e| {
                error_in_string(t, gat, e.at, format!("given: {}", real_message(&e, &names)))
            })?;
            check_uses(f.uses(), gat, "given")?;
            given.push(rewrite_f(f));
        }
        let tol = if t.file.tolerance == 0.0 {
            Q::zero()
        } else if t.file.tolerance.is_finite() && t.file.tolerance > 0.0 {
            crate::spec::parse_ratio(&format!("{:e}", t.file.tolerance))
                .unwrap_or_else(|_| Q::zero())
        } else {
            return Err(t.error_at(
                None,
                format!(
                    "tolerance must be a finite number ≥ 0, got {}",
                    t.file.tolerance
                ),
            ));
        };
        // Touching points.
        let mut touching = Vec::new();
        for tp in &self.claim.touching {
            let tat = tp.span().start;
            let mut x: Vec<Option<Q>> = vec![None; vars.len()];
            for (name, val) in tp.get_ref() {
                let text = match val.get_ref() {
                    toml::Value::String(s) => s.clone(),
                    toml::Value::Integer(i) => i.to_string(),
                    toml::Value::Float(f) if f.is_finite() => format!("{f:e}"),
                    other => {
                        return Err(err(
                            t,
                            val.span().start,
                            format!("touching point: `{other}` is not a number"),
                        ));
                    }
                };
                let vat = val.span().start;
                let ast = crate::lang::parse(&text)
                    .map_err(|e| err(t, vat, format!("touching point `{name}`: {}", e.message)))?;
                let e = crate::lang::compile_expr(
                    &ast,
                    &RealScope {
                        names: &names[..self.constants.names.len()],
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
                let (idx, q) = if let Some(i) = vars.iter().position(|v| v.name == *name) {
                    (i, q)
                } else if let Some((_, _, u)) = substituted.iter().find(|(n, _, _)| n == name) {
                    let i = match &slots[*u] {
                        SlotDef::Var(i) => *i,
                        _ => unreachable!("a substituted variable is a variable slot"),
                    };
                    if q.is_zero() {
                        return Err(err(
                            t,
                            vat,
                            format!("touching point `{name}` = 0 has no 1/{name}"),
                        ));
                    }
                    (i, Q::one() / q)
                } else {
                    return Err(err(
                        t,
                        vat,
                        format!("touching point: `{name}` is not a variable"),
                    ));
                };
                x[idx] = Some(q);
            }
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
            touching.push(point);
        }
        let substituted = substituted
            .into_iter()
            .map(|(n, _, u)| match &slots[u] {
                SlotDef::Var(i) => (n, *i),
                _ => unreachable!("a substituted variable is a variable slot"),
            })
            .collect();
        Ok(Case {
            problem: Problem {
                vars,
                slots,
                lhs: rewrite(lhs),
                rhs: rewrite(rhs),
                cmp,
                tol,
                given,
                touching,
                text: ce.get_ref().clone(),
            },
            constants: shown,
            constants_f64: shown_f64,
            substituted,
        })
    }

    fn certificate_path(
        &self,
        dir: &std::path::Path,
        k: usize,
        cases: usize,
    ) -> std::path::PathBuf {
        if cases == 1 {
            dir.join(format!("{}.json", self.t.id))
        } else {
            dir.join(format!("{}.{k}.json", self.t.id))
        }
    }

    /// Proves every combination (with `overrides`); the verdict and, per case, the certificate.
    fn prove_all(&self, ctx: &mut RunContext, overrides: &[(usize, Q)]) -> Result<Verdict> {
        let mut picks = self.constants.picks();
        for (j, _) in overrides {
            picks.retain(|p| p[*j] == 0);
        }
        let ncases = picks.len();
        let mut searched = Searched {
            constant_combinations: ncases,
            precision_bits: Some(self.options.prec),
            ..Searched::default()
        };
        let mut notes = Vec::new();
        let mut worst: Option<(u8, Verdict)> = None;
        for (k, pick) in picks.iter().enumerate() {
            let case = self
                .problem(pick, overrides)
                .map_err(|e| self.file_err(e))?;
            if let Some(pr) = ctx.progress {
                pr(&format!("{} case {}/{ncases}", self.t.id, k + 1));
            }
            let out = prover::prove(&case.problem, &self.options);
            let (rank, v) = self.verdict_of(&case, out, k, ncases, ctx, &mut notes)?;
            searched.merge(&v.searched);
            if worst.as_ref().is_none_or(|(r, _)| rank < *r) {
                worst = Some((rank, v));
            }
            if rank == 0 {
                // A certified counterexample settles the file.
                break;
            }
        }
        let (_, mut v) = worst.ok_or_else(|| Error::Unsupported("no case to prove".into()))?;
        v.searched = searched;
        v.notes.splice(0..0, notes);
        Ok(v)
    }

    /// A witness at the point `x`; `sides` = (lhs, rhs, slack) as text.
    fn point_witness(
        &self,
        case: &Case,
        x: &[Q],
        sides: (String, String, String),
        found_by: &str,
        recheck: Option<String>,
    ) -> Witness {
        let (lhs, rhs, slack) = sides;
        let mut constants = case.constants_f64.clone();
        for (i, v) in case.problem.vars.iter().enumerate() {
            constants.insert(v.name.clone(), x[i].to_f64().unwrap_or(f64::NAN));
        }
        for (n, i) in &case.substituted {
            if !x[*i].is_zero() {
                constants.insert(n.clone(), (Q::one() / &x[*i]).to_f64().unwrap_or(f64::NAN));
            }
        }
        let coords: Vec<String> = case
            .problem
            .vars
            .iter()
            .zip(x)
            .map(|(v, q)| format!("{} = {}", v.name, q_show(q)))
            .collect();
        Witness {
            n: 0,
            loads: vec![],
            source: format!("point ({})", coords.join(", ")),
            constants,
            constants_text: Default::default(),
            exact: None,
            lhs,
            rhs,
            slack,
            found_by: found_by.into(),
            recheck,
        }
    }

    /// The verdict of one case, ranked (0 refuted, 1 inconclusive, 2 proved) so the worst wins.
    fn verdict_of(
        &self,
        case: &Case,
        out: Outcome,
        k: usize,
        ncases: usize,
        ctx: &mut RunContext,
        notes: &mut Vec<String>,
    ) -> Result<(u8, Verdict)> {
        let p = &case.problem;
        let label = if ncases > 1 {
            format!("case {} of {ncases} ({:?})", k + 1, case.constants)
        } else {
            "the claim".to_string()
        };
        let mut searched = Searched::default();
        let base = |status, trust, slack, witness, notes| Verdict {
            id: self.t.id.clone(),
            verdict: status,
            expected: self.t.file.expected,
            trust,
            slack,
            witness,
            searched: Searched::default(),
            notes,
            links: Vec::new(),
            observations: Vec::new(),
        };
        match out {
            Outcome::Proved {
                tree,
                rewrites,
                stats,
            } => {
                let cert = prover::certificate_with(
                    p,
                    &self.t.id,
                    case.constants.clone(),
                    &rewrites,
                    &tree,
                    self.options.prec,
                );
                let checked = checker::verify(p, &cert, CHECK_PREC).map_err(|e| {
                    Error::Unsupported(format!(
                        "{}: the independent checker rejected the certificate of {label}: {e}",
                        self.t.id
                    ))
                })?;
                let tl = &checked.tally;
                searched.add("boxes", stats.boxes);
                searched.add("leaves", tl.leaves());
                let mut msg = format!(
                    "{label} proved: {} leaf boxes (direct {}, mean value {}, Taylor model {}, exact {}, outside the hypotheses {}), {} monotone steps, {} splits; {} box evaluations ({} repeated at {} bits after f64 enclosures); certificate re-checked by the independent checker at {CHECK_PREC} bits",
                    tl.leaves(),
                    tl.direct,
                    tl.mean_value,
                    tl.taylor,
                    tl.exact,
                    tl.outside,
                    tl.monotone,
                    tl.splits,
                    stats.boxes,
                    stats.escalated,
                    self.options.prec
                );
                if !rewrites.is_empty() {
                    let r: Vec<String> = rewrites.iter().map(|r| r.describe()).collect();
                    msg.push_str(&format!(
                        "; proved after rewriting the claim ({}), each rewrite derived and justified again by the checker",
                        r.join("; ")
                    ));
                }
                if let Some(dir) = &ctx.certificates {
                    let path = self.certificate_path(dir, k, ncases);
                    cert.write(&path).map_err(|e| {
                        Error::invalid(
                            path.display().to_string(),
                            format!("cannot write the certificate: {e}"),
                        )
                    })?;
                    msg.push_str(&format!("; written to {}", path.display()));
                }
                notes.push(msg);
                let mut v = base(Status::Proved, Trust::Enclosure, None, None, vec![]);
                v.searched = searched;
                Ok((2, v))
            }
            Outcome::Refuted {
                point,
                lhs,
                rhs,
                g,
                found_by,
                stats,
            } => {
                searched.add("boxes", stats.boxes);
                // Re-check at a higher precision.
                let again = p.sides_at(&point, CHECK_PREC).ok();
                let by_enclosure = again.as_ref().is_some_and(|(g2, _, _)| {
                    if p.strict() {
                        *g2.hi() <= 0u32
                    } else {
                        *g2.hi() < 0u32
                    }
                });
                // At a point where the two sides are exactly equal (g = 0 at a non-dyadic point,
                // which no enclosure shows) the sign is decided exactly.
                let exact = (!by_enclosure)
                    .then(|| p.exact_sign(&[], true, &point))
                    .flatten()
                    .filter(|s| {
                        *s == std::cmp::Ordering::Less
                            || (p.strict() && *s == std::cmp::Ordering::Equal)
                    });
                if !by_enclosure && exact.is_none() {
                    return Err(Error::Unsupported(format!(
                        "{}: the counterexample of {label} is not confirmed at {CHECK_PREC} bits",
                        self.t.id
                    )));
                }
                let slack = Enclosure { prec: 64 }.to_f64(&g);
                let w = self.point_witness(
                    case,
                    &point,
                    (lhs.to_string(), rhs.to_string(), format!("{slack:e}")),
                    found_by,
                    Some(match exact {
                        None => format!(
                            "certified by enclosures: the claim as g ≥ 0 has g ∈ {g} at {} bits and g ∈ {} at {CHECK_PREC} bits (the point lies in the domain and every hypothesis holds there)",
                            self.options.prec,
                            again.map(|a| a.0.to_string()).unwrap_or_default()
                        ),
                        Some(s) => format!(
                            "decided exactly (rational arithmetic and exact exponential sums): the claim as g ≥ 0 has g {} 0 at the point (the point lies in the domain and every hypothesis holds there)",
                            if s == std::cmp::Ordering::Equal { "=" } else { "<" }
                        ),
                    }),
                );
                let mut v = base(
                    Status::Refuted,
                    Trust::Enclosure,
                    Some(slack),
                    Some(w),
                    vec![format!(
                        "{label} refuted: a certified counterexample found by {found_by}, after {} box evaluations of the bisection",
                        stats.boxes
                    )],
                );
                v.searched = searched;
                Ok((0, v))
            }
            Outcome::Inconclusive {
                reason,
                remaining,
                remaining_count,
                volume_fraction,
                tightest,
                stats,
            } => {
                searched.add("boxes", stats.boxes);
                let mut msgs = vec![format!(
                    "{label} inconclusive: {reason}; {remaining_count} box(es) left, {:.3e} of the domain's volume",
                    volume_fraction
                )];
                let witness = tightest.map(|(b, g)| {
                    let boxes: Vec<String> = p
                        .vars
                        .iter()
                        .enumerate()
                        .map(|(i, v)| {
                            format!("{} ∈ [{}, {}]", v.name, q_show(&b.lo[i]), q_show(&b.hi[i]))
                        })
                        .collect();
                    msgs.push(format!(
                        "tightest box left: {} (g at its center ≈ {g:e})",
                        boxes.join(", ")
                    ));
                    let c = b.center();
                    let (l, r) = p
                        .sides_at(&c, 64)
                        .map(|(_, l, r)| (l.to_string(), r.to_string()))
                        .unwrap_or_default();
                    self.point_witness(
                        case,
                        &c,
                        (l, r, format!("{g:e}")),
                        "center of the tightest box left",
                        None,
                    )
                });
                let _ = remaining;
                let mut v = base(
                    Status::Inconclusive,
                    Trust::Enclosure,
                    witness.as_ref().and_then(|w| w.slack.parse().ok()),
                    witness,
                    msgs,
                );
                v.searched = searched;
                Ok((1, v))
            }
        }
    }
}

/// The problem of every grid combination of the constants of a `real` theorem file, with the
/// path of its certificate under `dir` (for re-checking written certificates).
///
/// ```
/// let t = balloc::claim::load(
///     std::path::Path::new("theorems/ptw/real-ln-one-plus-x.toml"),
///     std::path::Path::new("theorems"),
/// ).unwrap();
/// let cases = balloc::claim::kind::real::problems(&t, std::path::Path::new("certs")).unwrap();
/// assert_eq!(cases.len(), 1);
/// assert_eq!(cases[0].0.vars[0].name, "x");
/// assert_eq!(cases[0].1, std::path::Path::new("certs/ptw/real-ln-one-plus-x.json"));
/// ```
pub fn problems(
    t: &Theorem,
    dir: &std::path::Path,
) -> std::result::Result<Vec<(Problem, std::path::PathBuf)>, FileError> {
    if t.file.kind.get_ref() != INFO.name {
        return Err(t.error_at(None, format!("not of kind `{}`", INFO.name)));
    }
    let c = build(t)?;
    let _ = c;
    // Rebuild the typed check (build returns it boxed as a trait object).
    let claim: Spanned<ClaimSection> = t.claim_section()?;
    let constants = Constants::parse(t)?;
    let mut vars = Vec::new();
    for (name, v) in &t.file.vars {
        vars.push(parse_var(t, name, v)?);
    }
    let me = Real {
        t: t.clone(),
        constants,
        vars,
        claim: claim.into_inner(),
        options: Options::default(),
    };
    let picks = me.constants.picks();
    let n = picks.len();
    picks
        .iter()
        .enumerate()
        .map(|(k, pick)| {
            Ok((
                me.problem(pick, &[])?.problem,
                me.certificate_path(dir, k, n),
            ))
        })
        .collect()
}

impl Check for Real {
    fn run(&self, ctx: &mut RunContext) -> Result<Verdict> {
        self.prove_all(ctx, &[])
    }

    fn tighten(
        &self,
        name: &str,
        ns: Option<&[usize]>,
        ctx: &mut RunContext,
    ) -> Result<ConstantReport> {
        let c = &self.constants;
        let idx = c.index(name).ok_or_else(|| {
            Error::unknown(
                "constant",
                name,
                &c.names.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
            )
        })?;
        let dir = *self.t.file.tighten.get(name).ok_or_else(|| {
            Error::invalid(
                "--name",
                format!(
                    "`{name}` has no direction in the file's [tighten] table (smallest or largest)"
                ),
            )
        })?;
        if ns.is_some() {
            return Err(Error::invalid(
                "--n",
                "a real claim has no numbers of bins (n is a variable if anything)",
            ));
        }
        let start = self
            .constants
            .evaluate(&self.t, 2, Some(1), &vec![0; c.names.len()], &[])
            .map_err(|e| self.file_err(e))?[idx]
            .float
            .v
            .to_f64();
        let mut verdicts: Vec<(f64, Verdict)> = Vec::new();
        let mut holds = |v: f64| -> Result<bool> {
            let q = crate::spec::parse_ratio(&format!("{v:e}"))
                .map_err(|e| Error::invalid("constant", e))?;
            let verdict = match self.prove_all(ctx, &[(idx, q)]) {
                Ok(v) => v,
                // A value outside what the file allows (e.g. an empty range) does not hold.
                Err(Error::Invalid { .. }) => return Ok(false),
                Err(e) => return Err(e),
            };
            let ok = verdict.verdict == Status::Proved;
            verdicts.push((v, verdict));
            Ok(ok)
        };
        let bracket = crate::search::bisect_bracket(dir, start, 1e-4, &mut holds)?;
        let at = |v: f64| {
            verdicts
                .iter()
                .find(|(x, _)| *x == v)
                .map(|(_, w)| w.clone())
        };
        let good = at(bracket.holds);
        let bad = bracket.fails.and_then(at);
        Ok(ConstantReport {
            id: self.t.id.clone(),
            name: name.to_string(),
            direction: dir,
            per_n: vec![Tightest {
                n: 0,
                value: bracket.holds,
                fails: bracket.fails,
                trust_holds: good
                    .as_ref()
                    .filter(|v| v.verdict == Status::Proved)
                    .map(|v| v.trust),
                trust_fails: bad
                    .as_ref()
                    .filter(|v| v.verdict == Status::Refuted)
                    .map(|v| v.trust),
                fails_unproved: bad.as_ref().is_some_and(|v| v.verdict != Status::Refuted),
                witness: bad.and_then(|v| v.witness),
            }],
            fits: vec![],
        })
    }
}
