//! The validated setting of a theorem file, parsed once and shared by the kinds: the numbers of
//! bins and explicit states of `[domain]`, the constants of `[constants]` (numbers, exact
//! fractions or expressions in `n`, `b` and other constants, each possibly a grid), the batch
//! size(s) of `[setting] batch` (an expression in `n` and the constants, or a grid), the weight
//! law and the tie rule. Every error names the file, line and column.
//!
//! Limits (a theorem file cannot ask for more): `n ≤` [`MAX_N`], batch `≤` [`MAX_BATCH`], at most
//! [`MAX_CASES`] combinations of constants and batch sizes, exhaustive enumeration of at most
//! [`MAX_EXHAUSTIVE`] states per n.

use super::schema::{ConstValue, FileError, Scalar, Theorem};
use crate::exact::Q;
use crate::lang::{
    Approx, CompileError, Domain, Enclosure, Eval, EvalError, Exact, Expr, Float, Resolved, Scope,
};
use crate::loads::TieRule;
use crate::weights::WeightLaw;
use num_traits::{Signed, ToPrimitive, Zero};

/// The largest number of bins a theorem file may use.
pub const MAX_N: usize = 1 << 20;
/// The largest batch size a theorem file may use.
pub const MAX_BATCH: u64 = 1 << 24;
/// The largest number of cases (constant combinations × batch sizes) per n.
pub const MAX_CASES: usize = 10_000;
/// The largest number of states an exhaustive enumeration may visit per n.
pub const MAX_EXHAUSTIVE: u128 = 10_000_000;

/// Names a constant may not take (they mean something else in expressions).
pub const RESERVED: &[&str] = &["n", "b", "y", "x", "p", "w", "rank", "i"];

/// One definition of a constant (one grid entry).
#[derive(Debug, Clone)]
pub struct ConstDef {
    /// As written.
    pub text: String,
    /// Compiled over slot 0 = `n`, slot 1 = `b`, slot `2 + j` = constant `j`.
    pub expr: Expr,
    /// Whether it reads `b`.
    pub uses_b: bool,
}

/// The constants of a file.
#[derive(Debug, Clone, Default)]
pub struct Constants {
    /// The names, in the file's (alphabetical) order.
    pub names: Vec<String>,
    /// The definitions (a grid) per constant.
    pub defs: Vec<Vec<ConstDef>>,
    /// An evaluation order (every constant after the constants it reads).
    pub order: Vec<usize>,
    /// Byte offset of each constant's value in the file.
    pub at: Vec<usize>,
    /// The range of each constant that ranges over an interval (`eps = "(0, 1/2]"`,
    /// [`crate::claim::range`]); its grid is then its sample points.
    pub ranges: Vec<Option<super::range::RangeDef>>,
}

/// The value of one constant in one case.
#[derive(Debug, Clone)]
pub struct ConstValueAt {
    /// The exact value, when the definition is rational at this case.
    pub exact: Option<Q>,
    /// The float value.
    pub float: Approx,
}

/// The numbers of bins, constants and batch sizes of one case.
#[derive(Debug, Clone)]
pub struct CaseValues {
    /// The number of bins.
    pub n: usize,
    /// The batch size.
    pub b: u64,
    /// The grid index of each constant.
    pub pick: Vec<usize>,
    /// The value of each constant.
    pub consts: Vec<ConstValueAt>,
}

impl CaseValues {
    /// The value of constant `j` in the domain `d`: exact when known, else its definition
    /// evaluated in `d` (e.g. an enclosure of `ln(n)`).
    pub fn constant<D: Domain>(&self, c: &Constants, d: &D, j: usize) -> Eval<D::N> {
        if !d.exact_inputs() {
            return d.xfloat(self.consts[j].float.v);
        }
        if let Some(q) = &self.consts[j].exact {
            return d.rational(q);
        }
        let def = &c.defs[j][self.pick[j]];
        def.expr.eval(d, &ConstEnv { c, v: self }, None)
    }

    /// An expression over slot 0 = `n`, 1 = `b`, `2 + j` = constant `j` (a range's end) in the
    /// domain `d`.
    pub fn eval_over<D: Domain>(&self, c: &Constants, d: &D, e: &Expr) -> Eval<D::N> {
        e.eval(d, &ConstEnv { c, v: self }, None)
    }

    /// Constant `j` as a float.
    pub fn float(&self, j: usize) -> f64 {
        self.consts[j].float.v.to_f64()
    }

    /// The constants as `(name, text)` pairs for reports: an exact value as the rational `p/q`,
    /// another in scientific notation at any magnitude (never `inf`).
    pub fn named_text(&self, c: &Constants) -> std::collections::BTreeMap<String, String> {
        c.names
            .iter()
            .enumerate()
            .map(|(j, name)| {
                let text = match &self.consts[j].exact {
                    Some(q) => q.to_string(),
                    None => self.consts[j].float.v.to_string(),
                };
                (name.clone(), text)
            })
            .collect()
    }

    /// The constants as `(name, f64)` pairs for reports.
    pub fn named(&self, c: &Constants) -> std::collections::BTreeMap<String, f64> {
        c.names
            .iter()
            .enumerate()
            .map(|(j, name)| (name.clone(), self.float(j)))
            .collect()
    }
}

struct ConstEnv<'a> {
    c: &'a Constants,
    v: &'a CaseValues,
}

impl<D: Domain> crate::lang::Env<D> for ConstEnv<'_> {
    fn slot(&self, d: &D, slot: usize) -> Eval<D::N> {
        match slot {
            0 => d.float(self.v.n as f64),
            1 => d.float(self.v.b as f64),
            j => self.v.constant(self.c, d, j - 2),
        }
    }
}

/// Partial values while the constants of a case are being evaluated.
struct Partial<'a> {
    n: usize,
    b: Option<u64>,
    exact: &'a [Option<Option<Q>>],
    float: &'a [Option<Approx>],
}

impl crate::lang::Env<Exact> for Partial<'_> {
    fn slot(&self, d: &Exact, slot: usize) -> Eval<Q> {
        match slot {
            0 => d.float(self.n as f64),
            1 => match self.b {
                Some(b) => d.float(b as f64),
                None => Err(EvalError::Undefined("b is not known yet".into())),
            },
            j => match &self.exact[j - 2] {
                Some(Some(q)) => Ok(q.clone()),
                Some(None) => Err(EvalError::Unavailable("an irrational constant".into())),
                None => Err(EvalError::Undefined("a constant not yet evaluated".into())),
            },
        }
    }
}

impl crate::lang::Env<crate::lang::Enclosure> for Partial<'_> {
    fn slot(&self, d: &crate::lang::Enclosure, slot: usize) -> Eval<crate::enclosure::Interval> {
        match slot {
            0 => d.float(self.n as f64),
            1 => match self.b {
                Some(b) => d.float(b as f64),
                None => Err(EvalError::Undefined("b is not known yet".into())),
            },
            j => match &self.exact[j - 2] {
                Some(Some(q)) => d.rational(q),
                Some(None) => Err(EvalError::Unavailable("an irrational constant".into())),
                None => Err(EvalError::Undefined("a constant not yet evaluated".into())),
            },
        }
    }
}

/// The exact value of a constant that exact arithmetic cannot reach but whose enclosure is a
/// single point (a floor or ceiling of an irrational, `ceil(n*ln(n)/2)`), at 128, 1024 or 4096
/// bits: the enclosure contains the value, so a point enclosure is the value.
fn point_value(e: &crate::lang::Expr, env: &Partial) -> Option<Q> {
    [128u64, 1024, 4096].into_iter().find_map(|prec| {
        let d = crate::lang::Enclosure { prec };
        e.eval(&d, env, None).ok().and_then(|v| d.to_rational(&v))
    })
}

impl crate::lang::Env<Float> for Partial<'_> {
    fn slot(&self, d: &Float, slot: usize) -> Eval<Approx> {
        match slot {
            0 => d.float(self.n as f64),
            1 => match self.b {
                Some(b) => d.float(b as f64),
                None => Err(EvalError::Undefined("b is not known yet".into())),
            },
            j => self.float[j - 2]
                .ok_or_else(|| EvalError::Undefined("a constant not yet evaluated".into())),
        }
    }
}

/// A range constant `name = text` at byte `at`, split into `parts` (open low end, low end, high
/// end, open high end): its sample points (as definitions, [`super::range::sample_texts`]) and
/// its range with the ends compiled (expressions over `n`, `b` and other constants).
fn parse_range(
    t: &Theorem,
    scope: &ConstScope,
    name: &str,
    at: usize,
    text: &str,
    parts: (bool, String, String, bool),
) -> Result<(Vec<ConstDef>, super::range::RangeDef), FileError> {
    let (lo_open, lo, hi, hi_open) = parts;
    let what = format!("constant `{name}`, the range `{text}`");
    let end = |e: &str| -> Result<Expr, FileError> {
        let ast = crate::lang::parse(e)
            .map_err(|err| t.error_at(Some(at), format!("{what}: end `{e}`: {}", err.message)))?;
        let x = crate::lang::compile_expr(&ast, scope, false)
            .map_err(|err| t.error_at(Some(at), format!("{what}: end `{e}`: {}", err.message)))?;
        let u = x.uses();
        if u.binders || u.proc_funcs {
            return Err(t.error_at(
                Some(at),
                format!("{what}: an end may use only n, b, numbers and other constants"),
            ));
        }
        Ok(x)
    };
    let (lo_e, hi_e) = (end(&lo)?, end(&hi)?);
    if matches!(name, "k" | "delta") {
        return Err(t.error_at(
            Some(at),
            format!(
                "constant `{name}` is read at a point by the engine (the margins of `k`, the sets of `delta`): it cannot be a range"
            ),
        ));
    }
    let mut defs = Vec::new();
    for s in super::range::sample_texts(lo_open, &lo, &hi, hi_open) {
        let expr = end(&s)?;
        defs.push(ConstDef {
            uses_b: expr.uses().slots.contains(&1),
            text: s,
            expr,
        });
    }
    let range = super::range::RangeDef {
        text: text.to_string(),
        lo: lo_e,
        hi: hi_e,
        lo_open,
        hi_open,
    };
    Ok((defs, range))
}

/// The definitions of constant `name` (one value or a grid, at least one): integers, finite
/// floats (as `{f:e}`) and expressions over `n`, `b`, numbers and other constants.
fn parse_grid(
    t: &Theorem,
    scope: &ConstScope,
    name: &str,
    v: &toml::Spanned<ConstValue>,
) -> Result<Vec<ConstDef>, FileError> {
    let at = v.span().start;
    let scalars: Vec<&Scalar> = match v.get_ref() {
        ConstValue::One(s) => vec![s],
        ConstValue::Grid(g) => g.iter().collect(),
    };
    if scalars.is_empty() {
        return Err(t.error_at(Some(at), format!("constant `{name}` has an empty grid")));
    }
    let mut defs = Vec::new();
    for s in scalars {
        let text = match s {
            Scalar::Int(i) => i.to_string(),
            Scalar::Float(f) => {
                if !f.is_finite() {
                    return Err(t.error_at(
                        Some(at),
                        format!("constant `{name}`: {f} is not a finite number"),
                    ));
                }
                format!("{f:e}")
            }
            Scalar::Text(s) => s.clone(),
        };
        let offset = if matches!(v.get_ref(), ConstValue::One(Scalar::Text(_))) {
            at
        } else {
            usize::MAX
        };
        let expr = if offset == usize::MAX {
            let ast = crate::lang::parse(&text)
                .map_err(|e| t.error_at(Some(at), format!("constant `{name}`: {}", e.message)))?;
            crate::lang::compile_expr(&ast, scope, false)
                .map_err(|e| t.error_at(Some(at), format!("constant `{name}`: {}", e.message)))?
        } else {
            compile_in(
                t,
                &format!("constant `{name}`"),
                &text,
                offset,
                scope,
                false,
            )?
        };
        let u = expr.uses();
        if u.binders || u.proc_funcs {
            return Err(t.error_at(
                Some(at),
                format!("constant `{name}` may use only n, b, numbers and other constants"),
            ));
        }
        defs.push(ConstDef {
            text,
            uses_b: u.slots.contains(&1),
            expr,
        });
    }
    Ok(defs)
}

struct ConstScope<'a> {
    names: &'a [String],
}

impl Scope for ConstScope<'_> {
    fn resolve(&self, name: &str) -> Result<Option<Resolved>, String> {
        Ok(match name {
            "n" => Some(Resolved::Slot(0)),
            "b" => Some(Resolved::Slot(1)),
            _ => self
                .names
                .iter()
                .position(|c| c == name)
                .map(|j| Resolved::Slot(2 + j)),
        })
    }
    fn known(&self) -> Vec<(String, Vec<String>)> {
        vec![
            ("setting".into(), vec!["n".into(), "b".into()]),
            ("constants".into(), self.names.to_vec()),
        ]
    }
    fn has_process(&self) -> bool {
        false
    }
}

/// An error at byte `at + offset` of the file, where `at` is the start of a TOML string value
/// (its opening quote) and `offset` a byte offset inside the string.
pub fn error_in_string(t: &Theorem, at: usize, offset: usize, message: String) -> FileError {
    // Skip the opening quote(s) of a basic or literal string (`"`, `'`, `"""`, `'''`).
    let text = &t.text;
    let mut start = at;
    let quote = text.as_bytes().get(at).copied();
    if matches!(quote, Some(b'"') | Some(b'\'')) {
        let q = quote.expect("checked");
        start += 1;
        if text.as_bytes().get(at + 1) == Some(&q) && text.as_bytes().get(at + 2) == Some(&q) {
            start += 2;
        }
    }
    t.error_at(Some(start + offset), message)
}

/// Compiles an expression string of the file (with its span) against a scope.
pub fn compile_in(
    t: &Theorem,
    what: &str,
    text: &str,
    at: usize,
    scope: &dyn Scope,
    per_bin: bool,
) -> Result<Expr, FileError> {
    let ast = crate::lang::parse(text)
        .map_err(|e| error_in_string(t, at, e.at, format!("{what}: {}", e.message)))?;
    crate::lang::compile_expr(&ast, scope, per_bin)
        .map_err(|e: CompileError| error_in_string(t, at, e.at, format!("{what}: {}", e.message)))
}

impl Constants {
    /// Parses `[constants]`: every value a number, a string (an exact decimal or fraction, or an
    /// expression in `n`, `b` and other constants) or a list of them (a grid). A range
    /// (`"(0, 1/2]"`) is an error naming the kinds that decide ranges.
    pub fn parse(t: &Theorem) -> Result<Constants, FileError> {
        let c = Constants::parse_with_ranges(t)?;
        if let Some(j) = c.ranges.iter().position(Option::is_some) {
            return Err(t.error_at(
                Some(c.at[j]),
                format!(
                    "constant `{}` is a range: ranges of constants are decided per state in kind `inequality` (in kind `real`, a range is a variable of `[vars]`)",
                    c.names[j]
                ),
            ));
        }
        Ok(c)
    }

    /// Whether constant `j` ranges over an interval.
    pub fn is_range(&self, j: usize) -> bool {
        self.ranges.get(j).is_some_and(Option::is_some)
    }

    /// The first range constant an expression over slot 0 = `n`, 1 = `b`, `2 + j` = constant `j`
    /// reads, by name.
    pub fn range_read_by(&self, e: &Expr) -> Option<&str> {
        e.uses()
            .slots
            .iter()
            .find(|&&s| s >= 2 && self.is_range(s - 2))
            .map(|&s| self.names[s - 2].as_str())
    }

    /// [`Constants::parse`], with constants that range over an interval
    /// ([`crate::claim::range`]): `eps = "(0, 1/2]"`, the ends expressions over `n`, `b` and the
    /// other constants. A range may be read only by the claim (a constant, a batch size or
    /// another range that reads it is an error).
    pub fn parse_with_ranges(t: &Theorem) -> Result<Constants, FileError> {
        let names: Vec<String> = t.file.constants.keys().cloned().collect();
        let mut c = Constants {
            names: names.clone(),
            ..Constants::default()
        };
        let scope = ConstScope { names: &names };
        for (name, v) in &t.file.constants {
            let at = v.span().start;
            if RESERVED.contains(&name.as_str()) {
                return Err(t.error_at(
                    Some(at),
                    format!(
                        "constant `{name}` uses a reserved name ({})",
                        RESERVED.join(", ")
                    ),
                ));
            }
            if let ConstValue::One(Scalar::Text(text)) = v.get_ref()
                && let Some(parts) = super::range::split(text)
            {
                let (defs, range) = parse_range(t, &scope, name, at, text, parts)?;
                c.defs.push(defs);
                c.at.push(at);
                c.ranges.push(Some(range));
                continue;
            }
            c.defs.push(parse_grid(t, &scope, name, v)?);
            c.at.push(at);
            c.ranges.push(None);
        }
        c.check_ranges_unread(t)?;
        c.order = c.evaluation_order(t)?;
        Ok(c)
    }

    /// Checks that a range is read by the claim only: its sample points must not leak into
    /// another constant (or another range's ends), which would be evaluated at one point.
    fn check_ranges_unread(&self, t: &Theorem) -> Result<(), FileError> {
        for (j, defs) in self.defs.iter().enumerate() {
            let mut read: Vec<&Expr> = defs.iter().map(|d| &d.expr).collect();
            if let Some(r) = &self.ranges[j] {
                read = vec![&r.lo, &r.hi];
            }
            if let Some(other) = read.iter().find_map(|e| self.range_read_by(e)) {
                return Err(t.error_at(
                    Some(self.at[j]),
                    format!(
                        "constant `{}` reads the range constant `{other}`: a range is decided by the claim alone (write the expression into the claim)",
                        self.names[j]
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The evaluation order of the constants: a topological sort of "reads" (each constant
    /// after those its definitions read); a circle of reads is an error.
    fn evaluation_order(&self, t: &Theorem) -> Result<Vec<usize>, FileError> {
        let k = self.names.len();
        let reads: Vec<Vec<usize>> = self
            .defs
            .iter()
            .map(|g| {
                let mut r: Vec<usize> = g
                    .iter()
                    .flat_map(|d| d.expr.uses().slots)
                    .filter(|s| *s >= 2)
                    .map(|s| s - 2)
                    .collect();
                r.sort_unstable();
                r.dedup();
                r
            })
            .collect();
        let mut order = Vec::with_capacity(k);
        let mut done = vec![false; k];
        while order.len() < k {
            let next = (0..k).find(|&j| !done[j] && reads[j].iter().all(|&r| done[r]));
            match next {
                Some(j) => {
                    done[j] = true;
                    order.push(j);
                }
                None => {
                    let j = (0..k).find(|&j| !done[j]).expect("some constant left");
                    return Err(t.error_at(
                        Some(self.at[j]),
                        format!(
                            "constant `{}` depends on itself through other constants",
                            self.names[j]
                        ),
                    ));
                }
            }
        }
        Ok(order)
    }

    /// The index of the constant `name`.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|c| c == name)
    }

    /// The grid picks: every combination of one definition per constant, with `overrides`
    /// replacing a constant's grid by a single number.
    pub fn picks(&self) -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = vec![vec![]];
        for g in &self.defs {
            out = out
                .into_iter()
                .flat_map(|p| {
                    (0..g.len()).map(move |i| {
                        let mut p = p.clone();
                        p.push(i);
                        p
                    })
                })
                .collect();
        }
        out
    }

    /// Evaluates the constants of one case: `b = None` while the batch itself is being
    /// evaluated (then a constant that reads `b` is an error). `overrides` fixes constants to
    /// given values (the constant finder).
    pub fn evaluate(
        &self,
        t: &Theorem,
        n: usize,
        b: Option<u64>,
        pick: &[usize],
        overrides: &[(usize, Q)],
    ) -> Result<Vec<ConstValueAt>, FileError> {
        let k = self.names.len();
        let mut exact: Vec<Option<Option<Q>>> = vec![None; k];
        let mut float: Vec<Option<Approx>> = vec![None; k];
        for &j in &self.order {
            if let Some((_, q)) = overrides.iter().find(|(i, _)| *i == j) {
                exact[j] = Some(Some(q.clone()));
                float[j] = Some(Float.rational(q).map_err(|e| {
                    t.error_at(
                        Some(self.at[j]),
                        format!("constant `{}`: {e}", self.names[j]),
                    )
                })?);
                continue;
            }
            let def = &self.defs[j][pick[j]];
            let reads_pending = def
                .expr
                .uses()
                .slots
                .iter()
                .any(|&s| s == 1 || (s >= 2 && float[s - 2].is_none()));
            if b.is_none() && reads_pending {
                // Reads b (directly or through another constant): evaluated once b is known.
                continue;
            }
            let env = Partial {
                n,
                b,
                exact: &exact,
                float: &float,
            };
            let e = match def.expr.eval(&Exact, &env, None) {
                Err(EvalError::Unavailable(w)) => {
                    point_value(&def.expr, &env).ok_or(EvalError::Unavailable(w))
                }
                other => other,
            };
            let f = def.expr.eval(&Float, &env, None);
            let bad = |why: String| {
                t.error_at(
                    Some(self.at[j]),
                    format!(
                        "constant `{}` = `{}` is not a finite number at n = {n}{}: {why}",
                        self.names[j],
                        crate::lang::syntax::excerpt(&def.text, 60),
                        b.map(|b| format!(", b = {b}")).unwrap_or_default()
                    ),
                )
            };
            match (&e, &f) {
                (Err(EvalError::Undefined(w)), _) | (_, Err(EvalError::Undefined(w))) => {
                    return Err(bad(w.clone()));
                }
                (_, Err(other)) => return Err(bad(other.to_string())),
                _ => {}
            }
            exact[j] = Some(e.ok());
            float[j] = Some(f.expect("checked"));
        }
        Ok((0..k)
            .map(|j| ConstValueAt {
                exact: exact[j].clone().flatten(),
                // A constant that reads b, before b is known: NaN (reading it is an error).
                float: float[j].unwrap_or(Approx::exact(crate::claim::XFloat::NAN)),
            })
            .collect())
    }
}

/// An error when `[domain]` has md states (`states` as lists of rows) or `max_load`, which only
/// the kind `multidim` with `expr` reads.
///
/// ```
/// let text = "title = \"t\"\nkind = \"inequality\"\nexpected = \"open\"\nstatement = \"s\"\n\
///             [source]\nlocator = \"x\"\nprovenance = \"derived\"\n[claim]\nexpr = \"n >= 2\"\n\
///             [domain]\nn = [2]\nmax_load = 2\n";
/// let e = balloc::check_str(text).unwrap_err().to_string();
/// assert!(e.contains("[domain] max_load: multidimensional states are read by kind `multidim` with `expr`"));
/// ```
pub fn reject_md_states(t: &Theorem) -> Result<(), FileError> {
    let d = t.file.domain.get_ref();
    if d.md_states.is_empty() && d.max_load.is_none() {
        return Ok(());
    }
    let kind = t.file.kind.get_ref();
    Err(t.error_at(
        Some(t.file.domain.span().start),
        format!(
            "[domain] {}: multidimensional states are read by kind `multidim` with `expr`, not by `{kind}`{}",
            if d.md_states.is_empty() {
                "max_load"
            } else {
                "states (lists of rows)"
            },
            if d.md_states.is_empty() {
                " (exhaustive enumeration: `exhaustive = { max_n, max_load }`)"
            } else {
                ""
            }
        ),
    ))
}

/// The numbers of bins of `[domain]`, validated: at least one, each in `2..=MAX_N`; when `n` is
/// omitted, the lengths of `states`. The one check of every kind ("empty domain").
pub fn domain_ns(t: &Theorem) -> Result<Vec<usize>, FileError> {
    let d = t.file.domain.get_ref();
    let at = Some(t.file.domain.span().start);
    reject_md_states(t)?;
    let mut ns = d.n.clone();
    if ns.is_empty() {
        for s in &d.states {
            if !ns.contains(&s.len()) {
                ns.push(s.len());
            }
        }
    }
    if ns.is_empty() {
        return Err(t.error_at(
            at,
            "empty domain: [domain] n lists no number of bins (and no states are given)",
        ));
    }
    if let Some(bad) = ns.iter().find(|&&n| n < 2) {
        return Err(t.error_at(at, format!("[domain] n must be at least 2, got {bad}")));
    }
    if let Some(bad) = ns.iter().find(|&&n| n > MAX_N) {
        return Err(t.error_at(
            at,
            format!("[domain] n = {bad} exceeds the limit {MAX_N} of theorem files"),
        ));
    }
    Ok(ns)
}

/// [`domain_ns`] for a kind without explicit states: `[domain] states` is an error there.
pub fn plain_ns(t: &Theorem) -> Result<Vec<usize>, FileError> {
    if !t.file.domain.get_ref().states.is_empty() {
        return Err(t.error_at(
            Some(t.file.domain.span().start),
            format!(
                "[domain] states: explicit load vectors are read by the inequality kind, not by `{}`",
                t.file.kind.get_ref()
            ),
        ));
    }
    domain_ns(t)
}

/// The explicit states of `[domain]`, validated: finite loads, each of a length in `ns`.
pub fn domain_states(t: &Theorem, ns: &[usize]) -> Result<Vec<Vec<f64>>, FileError> {
    let d = t.file.domain.get_ref();
    let at = Some(t.file.domain.span().start);
    for (k, s) in d.states.iter().enumerate() {
        if !ns.contains(&s.len()) {
            return Err(t.error_at(
                at,
                format!(
                    "[domain] states[{k}] has {} loads, but n lists {ns:?}",
                    s.len()
                ),
            ));
        }
        if let Some(v) = s.iter().find(|v| !v.is_finite() || v.abs() > 1e15) {
            return Err(t.error_at(
                at,
                format!("[domain] states[{k}]: the load {v} is not a finite number up to 1e15"),
            ));
        }
    }
    Ok(d.states.clone())
}

/// Validates the exhaustive bound of `[domain]` against [`MAX_EXHAUSTIVE`].
pub fn check_exhaustive(t: &Theorem, ns: &[usize]) -> Result<(), FileError> {
    let d = t.file.domain.get_ref();
    if let Some(e) = d.exhaustive {
        for &n in ns.iter().filter(|&&n| n <= e.max_n) {
            let size = crate::search::enumeration_size(n, e.max_load);
            if size > MAX_EXHAUSTIVE {
                return Err(t.error_at(
                    Some(t.file.domain.span().start),
                    format!(
                        "exhaustive = {{ max_n = {}, max_load = {} }} enumerates {size} states at n = {n}; the limit is {MAX_EXHAUSTIVE} (lower max_n or max_load)",
                        e.max_n, e.max_load
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The validated setting of a file (see the module documentation).
#[derive(Debug, Clone)]
pub struct Setup {
    /// The numbers of bins.
    pub ns: Vec<usize>,
    /// Explicit states, evaluated first.
    pub states: Vec<Vec<f64>>,
    /// The constants.
    pub constants: Constants,
    /// The batch sizes (expressions over slot 0 = `n`, 1 = `b` (not allowed), `2 + j` =
    /// constant `j`).
    pub batch: Vec<(String, Expr)>,
    /// The weight law.
    pub weights: WeightLaw,
    /// The tie rule.
    pub ties: TieRule,
    /// The tolerance of the top-level comparisons, exactly.
    pub tolerance: Q,
}

impl Setup {
    /// Parses and validates the common parts of a theorem file.
    pub fn parse(t: &Theorem) -> Result<Setup, FileError> {
        let f = &t.file;
        let ns = domain_ns(t)?;
        let states = domain_states(t, &ns)?;
        check_exhaustive(t, &ns)?;
        let constants = Constants::parse_with_ranges(t)?;
        let weights = WeightLaw::parse(f.setting.weights.get_ref())
            .map_err(|e| t.error_at(Some(f.setting.weights.span().start), e.to_string()))?;
        if !(f.tolerance >= 0.0 && f.tolerance.is_finite()) {
            return Err(t.error_at(
                None,
                format!("tolerance must be a finite number ≥ 0, got {}", f.tolerance),
            ));
        }
        let tolerance = crate::exact::from_float(f.tolerance).unwrap_or_else(Q::zero);
        let tolerance =
            crate::spec::parse_ratio(&format!("{:e}", f.tolerance)).unwrap_or(tolerance);
        let scope = ConstScope {
            names: &constants.names,
        };
        let bspan = f.setting.batch.span();
        let mut batch = Vec::new();
        for text in f.setting.batch.get_ref().texts() {
            let ast = crate::lang::parse(&text).map_err(|e| {
                t.error_at(
                    Some(bspan.start),
                    format!("[setting] batch `{text}`: {}", e.message),
                )
            })?;
            let e = crate::lang::compile_expr(&ast, &scope, false).map_err(|e| {
                t.error_at(
                    Some(bspan.start),
                    format!("[setting] batch `{text}`: {}", e.message),
                )
            })?;
            if let Some(r) = constants.range_read_by(&e) {
                return Err(t.error_at(
                    Some(bspan.start),
                    format!(
                        "[setting] batch `{text}` reads the range constant `{r}`: a batch size is one number per case"
                    ),
                ));
            }
            if e.uses().slots.contains(&1) {
                return Err(t.error_at(
                    Some(bspan.start),
                    "[setting] batch cannot read b (it defines it)",
                ));
            }
            batch.push((text, e));
        }
        for name in f.tighten.keys() {
            if constants.index(name).is_none() {
                return Err(t.error_at(
                    None,
                    format!("[tighten] names `{name}`, which is not a constant"),
                ));
            }
        }
        let setup = Setup {
            ns,
            states,
            constants,
            batch,
            weights,
            ties: f.setting.ties,
            tolerance,
        };
        // Every case must evaluate: constants finite, batch sizes integers in range.
        for &n in &setup.ns {
            let cases = setup.cases(t, n, &[])?;
            if cases.len() > MAX_CASES {
                return Err(t.error_at(
                    None,
                    format!(
                        "{} combinations of constants and batch sizes at n = {n}; the limit is {MAX_CASES}",
                        cases.len()
                    ),
                ));
            }
        }
        Ok(setup)
    }

    /// Every case at `n`: each combination of the constants' grids and each batch size.
    /// `overrides` fixes constants (the constant finder).
    pub fn cases(
        &self,
        t: &Theorem,
        n: usize,
        overrides: &[(usize, Q)],
    ) -> Result<Vec<CaseValues>, FileError> {
        let mut out = Vec::new();
        let mut picks = self.constants.picks();
        // An overridden constant has one value: keep one pick of its grid.
        for (j, _) in overrides {
            picks.retain(|p| p[*j] == 0);
        }
        let bspan = t.file.setting.batch.span().start;
        for pick in picks {
            // The batch sizes first, from the constants that do not read b.
            let pre = self.constants.evaluate(t, n, None, &pick, overrides)?;
            for (text, be) in &self.batch {
                let reads_b_constant = be
                    .uses()
                    .slots
                    .iter()
                    .any(|&s| s >= 2 && pre[s - 2].float.v.is_nan());
                if reads_b_constant {
                    return Err(t.error_at(
                        Some(bspan),
                        format!("[setting] batch `{text}` reads a constant that reads b: a cycle"),
                    ));
                }
                let v = CaseValues {
                    n,
                    b: 0,
                    pick: pick.clone(),
                    consts: pre.clone(),
                };
                let b = batch_value(t, bspan, text, be, &self.constants, &v)?;
                let consts = self.constants.evaluate(t, n, Some(b), &pick, overrides)?;
                out.push(CaseValues {
                    n,
                    b,
                    pick: pick.clone(),
                    consts,
                });
            }
        }
        Ok(out)
    }
}

/// The batch size of `expr` at a case: an exact integer in `1..=MAX_BATCH`.
fn batch_value(
    t: &Theorem,
    at: usize,
    text: &str,
    expr: &Expr,
    c: &Constants,
    v: &CaseValues,
) -> Result<u64, FileError> {
    let env = ConstEnv { c, v };
    let exact = match expr.eval(&Exact, &env, None) {
        Ok(q) => Some(q),
        Err(EvalError::Unavailable(_)) => {
            // Irrational parts (ln n): an enclosure decides the integer part of floor/ceil.
            let d = Enclosure { prec: 256 };
            expr.eval(&d, &env, None)
                .ok()
                .and_then(|iv| d.to_rational(&iv))
        }
        Err(e) => {
            return Err(t.error_at(
                Some(at),
                format!("[setting] batch `{text}` at n = {}: {e}", v.n),
            ));
        }
    };
    let q = exact.ok_or_else(|| {
        t.error_at(
            Some(at),
            format!(
                "[setting] batch `{text}` at n = {} is not an exact integer (use floor or ceil)",
                v.n
            ),
        )
    })?;
    if !q.is_integer() || !q.is_positive() || q > Q::from_integer(MAX_BATCH.into()) {
        return Err(t.error_at(
            Some(at),
            format!(
                "[setting] batch `{text}` is {q} at n = {}; it must be an integer in 1..={MAX_BATCH}",
                v.n
            ),
        ));
    }
    Ok(q.to_integer().to_u64().unwrap_or(1))
}
