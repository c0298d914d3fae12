//! The `[vars]` table of a `real` file: each variable's range as written (`"(0, 1]"`,
//! `["0", "1"]`, `{ range = "[8, inf)", substitute = "u = 1/n" }`), its ends kept as text until
//! a case evaluates them in the constants.

use super::err;
use crate::claim::schema::{FileError, Theorem};
use crate::claim::setup::error_in_string;
use crate::lang::BinOp;
use crate::lang::syntax::Node as AstNode;
use num_traits::One;
use toml::Spanned;

/// One end of a range as written.
#[derive(Debug, Clone)]
pub(super) enum End {
    /// The end's text and its byte offset in the range string (`usize::MAX`: no offset).
    Finite(String, usize),
    PosInf,
    NegInf,
}

/// A variable as declared.
#[derive(Debug, Clone)]
pub(super) struct VarSpec {
    pub(super) name: String,
    pub(super) lo: End,
    pub(super) hi: End,
    pub(super) lo_open: bool,
    pub(super) hi_open: bool,
    /// `u = 1/name`: the prover variable `u`.
    pub(super) subst: Option<String>,
    /// Byte offset of the value in the file (its opening quote or bracket).
    pub(super) at: usize,
    /// Byte offset of the range string (for errors inside it).
    pub(super) text_at: usize,
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

/// The variable `name` of `[vars]` as written: a range string, a pair `[lo, hi]` or a table
/// with `range` and `substitute`.
pub(super) fn parse_var(
    t: &Theorem,
    name: &str,
    v: &Spanned<toml::Value>,
) -> std::result::Result<VarSpec, FileError> {
    let at = v.span().start;
    match v.get_ref() {
        toml::Value::String(s) => var_from_range(t, name, at, s, at, None),
        toml::Value::Array(a) => var_from_pair(t, name, at, a),
        toml::Value::Table(tb) => var_from_table(t, name, v, tb),
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

/// A variable from its range string `range` (at byte `text_at` of the file), the value being at
/// byte `at`.
fn var_from_range(
    t: &Theorem,
    name: &str,
    at: usize,
    range: &str,
    text_at: usize,
    subst: Option<String>,
) -> std::result::Result<VarSpec, FileError> {
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
}

/// A variable on the closed range `[lo, hi]` written as a pair (strings or numbers).
fn var_from_pair(
    t: &Theorem,
    name: &str,
    at: usize,
    a: &[toml::Value],
) -> std::result::Result<VarSpec, FileError> {
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

/// The byte offset of the string value of `key` inside the table value `v` (its start when not
/// found).
fn string_at(t: &Theorem, v: &Spanned<toml::Value>, key: &str) -> usize {
    let at = v.span().start;
    t.text
        .get(at..v.span().end)
        .and_then(|s| s.find(key))
        .and_then(|k| t.text[at + k..].find('"').map(|q| at + k + q))
        .unwrap_or(at)
}

/// A variable written as a table `{ range = "...", substitute = "u = 1/name" }`.
fn var_from_table(
    t: &Theorem,
    name: &str,
    v: &Spanned<toml::Value>,
    tb: &toml::map::Map<String, toml::Value>,
) -> std::result::Result<VarSpec, FileError> {
    let at = v.span().start;
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
            format!("variable `{name}`: `range` (a string such as \"[1, inf)\") is required"),
        ));
    };
    let range_at = string_at(t, v, "range");
    let subst = match tb.get("substitute") {
        None => None,
        Some(toml::Value::String(s)) => Some(parse_substitution(
            t,
            name,
            s,
            string_at(t, v, "substitute"),
        )?),
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
    var_from_range(t, name, at, range, range_at, subst)
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
