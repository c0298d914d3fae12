//! The surface syntax of the claim language: a tokenizer and a precedence-climbing parser that
//! turn a string such as `E_Gamma <= Gamma*(1 - alpha/n) + c && sum((y >= 0)*y) <= n` into an
//! [`Ast`] whose every node carries its byte span in the source, so that an error can name the
//! line and column of the offending token in a theorem file.
//!
//! Grammar (loosest binding first):
//!
//! ```text
//! formula := and ('||' and)*
//! and     := not ('&&' not)*
//! not     := '!' not | cmp
//! cmp     := sum (('<=' | '>=' | '<' | '>' | '==' | '!=') sum)*     a <= b <= c means a <= b && b <= c
//! sum     := prod (('+' | '-') prod)*
//! prod    := unary (('*' | '/') unary)*
//! unary   := ('-' | '+') unary | power
//! power   := atom ('^' unary)?                                      right-associative: -2^2 = -(2^2)
//! atom    := number | name | name '[' ident ']' | name '(' (ident ':')? formula (',' formula)* ')'
//!          | '(' formula ')'
//! ```
//!
//! Numbers are decimals with an optional exponent (`0.25`, `1e-3`) and are kept **exactly** as
//! written (`0.1` is `1/10`, never the nearest `f64`). Names are `[A-Za-z_][A-Za-z0-9_]*`,
//! optionally followed by one prime `'` (`gap'`, `Phi'`, `x'`: the value at the next state,
//! inside `P(...)` and `E(...)`). `sum(j: f, pred)` names the bin of a binder `j`, and `x[j]`
//! reads the per-element name `x` at the element of the binder named `j` (see
//! [`crate::lang::expr`]).
//!
//! The parser is written here rather than taken from an expression crate because it must (a)
//! give a span for every token, (b) keep literals exact, (c) bound the size and nesting depth of
//! its input so that a hostile file gives a one-line error instead of a stack overflow, and (d)
//! parse the language's own constructs (binders over bins, chained comparisons).

use crate::exact::Q;
use std::ops::Range;

/// The longest expression text accepted (bytes).
pub const MAX_LEN: usize = 65_536;
/// The deepest nesting of parentheses, unary operators and calls accepted while parsing.
pub const MAX_DEPTH: usize = 128;
/// The deepest syntax tree accepted (a flat sum of k terms is k levels deep): evaluation recurses
/// over the tree, so its depth is bounded.
pub const MAX_TREE_DEPTH: usize = 400;
/// The most nodes a syntax tree may have.
pub const MAX_NODES: usize = 20_000;

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `==` (up to the file's tolerance at the top level of a claim)
    Eq,
    /// `!=`
    Ne,
}

impl Cmp {
    /// The operator as written.
    ///
    /// ```
    /// assert_eq!(balloc::lang::Cmp::Le.symbol(), "<=");
    /// ```
    pub fn symbol(self) -> &'static str {
        match self {
            Cmp::Le => "<=",
            Cmp::Ge => ">=",
            Cmp::Lt => "<",
            Cmp::Gt => ">",
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
        }
    }

    /// Whether `ord` (the order of the left side against the right side) satisfies the operator.
    ///
    /// ```
    /// use std::cmp::Ordering::*;
    /// use balloc::lang::Cmp;
    /// assert!(Cmp::Le.test(Equal) && !Cmp::Lt.test(Equal) && Cmp::Ne.test(Less));
    /// ```
    pub fn test(self, ord: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            Cmp::Le => ord != Greater,
            Cmp::Ge => ord != Less,
            Cmp::Lt => ord == Less,
            Cmp::Gt => ord == Greater,
            Cmp::Eq => ord == Equal,
            Cmp::Ne => ord != Equal,
        }
    }

    /// The negated operator (`!(a <= b)` is `a > b`).
    pub fn negate(self) -> Cmp {
        match self {
            Cmp::Le => Cmp::Gt,
            Cmp::Ge => Cmp::Lt,
            Cmp::Lt => Cmp::Ge,
            Cmp::Gt => Cmp::Le,
            Cmp::Eq => Cmp::Ne,
            Cmp::Ne => Cmp::Eq,
        }
    }
}

/// A binary arithmetic operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

/// A node of the syntax tree.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// A literal, exactly as written.
    Num(Q),
    /// A name.
    Name(String),
    /// `-e`
    Neg(Box<Ast>),
    /// `a op b`
    Bin(BinOp, Box<Ast>, Box<Ast>),
    /// `a cmp b`
    Cmp(Box<Ast>, Cmp, Box<Ast>),
    /// `a && b`
    And(Box<Ast>, Box<Ast>),
    /// `a || b`
    Or(Box<Ast>, Box<Ast>),
    /// `!a`
    Not(Box<Ast>),
    /// `f(a, b, ...)`; the span of the call is that of the whole call, `name_span` of the name.
    /// A binder may name its element: `sum(j: f, pred)` has `binder = Some(("j", span))`.
    Call {
        /// The function name.
        name: String,
        /// Where the name is.
        name_span: Range<usize>,
        /// The name the call binds (`j` in `sum(j: ...)`) and where it is written.
        binder: Option<(String, Range<usize>)>,
        /// The arguments.
        args: Vec<Ast>,
    },
    /// `x[j]`: the per-element name `x` (possibly primed, `x'[j]`) at the element of the
    /// enclosing binder named `j`.
    Index {
        /// The per-element name, as written (with its prime).
        name: String,
        /// The binder's name.
        binder: String,
        /// Where the binder's name is.
        binder_span: Range<usize>,
    },
}

/// A syntax tree node with its byte span in the source text.
#[derive(Debug, Clone, PartialEq)]
pub struct Ast {
    /// The node.
    pub node: Node,
    /// Its bytes in the source.
    pub span: Range<usize>,
}

/// A syntax error: a message and the byte offset it refers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// What is wrong.
    pub message: String,
    /// Byte offset in the expression text.
    pub at: usize,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(Q),
    Name(String),
    Op(&'static str),
    LParen,
    RParen,
    Comma,
    Colon,
    LBracket,
    RBracket,
}

/// At most `max` characters of `s`, with `…` when cut (error messages quote short excerpts).
///
/// ```
/// assert_eq!(balloc::lang::syntax::excerpt("abcdef", 3), "abc…");
/// assert_eq!(balloc::lang::syntax::excerpt("ab", 3), "ab");
/// ```
pub fn excerpt(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

fn tokenize(text: &str) -> Result<Vec<(Tok, Range<usize>)>, SyntaxError> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
                let mut j = i + 1;
                if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
                    j += 1;
                }
                if j < b.len() && b[j].is_ascii_digit() {
                    i = j;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                }
            }
            let lit = &text[start..i];
            // The exact number, with the size limits of every exact number (digits, exponent).
            let q = decimal(lit).map_err(|why| SyntaxError {
                message: why,
                at: start,
            })?;
            out.push((Tok::Num(q), start..i));
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            // `math::exp` style names (accepted for compatibility) keep their prefix.
            while i + 2 < b.len()
                && b[i] == b':'
                && b[i + 1] == b':'
                && (b[i + 2].is_ascii_alphabetic() || b[i + 2] == b'_')
            {
                i += 2;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
            }
            // One prime: `gap'` is the value of `gap` at the next state.
            if i < b.len() && b[i] == b'\'' {
                i += 1;
                if i < b.len() && b[i] == b'\'' {
                    return Err(SyntaxError {
                        message: format!(
                            "`{}` has two primes: the state after k steps is written P{{k}}(...) or E{{k}}(...) with one prime",
                            excerpt(&text[start..=i], 40)
                        ),
                        at: i,
                    });
                }
            }
            out.push((Tok::Name(text[start..i].to_string()), start..i));
            continue;
        }
        let two = text.get(i..i + 2).unwrap_or("");
        let op: Option<&'static str> = match two {
            "<=" => Some("<="),
            ">=" => Some(">="),
            "==" => Some("=="),
            "!=" => Some("!="),
            "&&" => Some("&&"),
            "||" => Some("||"),
            _ => None,
        };
        if let Some(op) = op {
            out.push((Tok::Op(op), i..i + 2));
            i += 2;
            continue;
        }
        let tok = match c {
            b'+' => Tok::Op("+"),
            b'-' => Tok::Op("-"),
            b'*' => Tok::Op("*"),
            b'/' => Tok::Op("/"),
            b'^' => Tok::Op("^"),
            b'<' => Tok::Op("<"),
            b'>' => Tok::Op(">"),
            b'!' => Tok::Op("!"),
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b',' => Tok::Comma,
            b':' => Tok::Colon,
            b'[' => Tok::LBracket,
            b']' => Tok::RBracket,
            b'\'' => {
                return Err(SyntaxError {
                    message:
                        "a prime `'` follows a name (`gap'`, `x'`): the value at the next state"
                            .into(),
                    at: i,
                });
            }
            b'=' => {
                return Err(SyntaxError {
                    message: "`=` is not an operator: write `==` to compare".into(),
                    at: i,
                });
            }
            _ => {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err(SyntaxError {
                    message: format!("unexpected character `{ch}`"),
                    at: i,
                });
            }
        };
        out.push((tok, i..i + 1));
        i += 1;
    }
    Ok(out)
}

/// The exact value of a decimal literal `ddd.ddd[e±dd]`.
/// A number literal as an exact rational, through [`crate::spec::parse_ratio`] (the size limits
/// `DECIMAL_DIGITS` and `DECIMAL_EXPONENT` of every exact number); a malformed literal
/// (`1.2.3`) is an error naming it.
fn decimal(s: &str) -> Result<Q, String> {
    if s.matches('.').count() > 1 {
        return Err(format!("malformed number `{}`", excerpt(s, 40)));
    }
    crate::spec::parse_ratio(s).map_err(|e| {
        if e.starts_with("expected a number") {
            format!("malformed number `{}`", excerpt(s, 40))
        } else {
            e
        }
    })
}

struct Parser<'a> {
    toks: &'a [(Tok, Range<usize>)],
    pos: usize,
    depth: usize,
    len: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }
    fn at(&self) -> usize {
        self.toks.get(self.pos).map_or(self.len, |t| t.1.start)
    }
    fn eat_op(&mut self, ops: &[&'static str]) -> Option<(&'static str, Range<usize>)> {
        match self.toks.get(self.pos) {
            Some((Tok::Op(o), sp)) if ops.contains(o) => {
                self.pos += 1;
                Some((o, sp.clone()))
            }
            _ => None,
        }
    }
    fn enter(&mut self) -> Result<(), SyntaxError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(SyntaxError {
                message: format!("the expression is nested deeper than {MAX_DEPTH} levels"),
                at: self.at(),
            });
        }
        Ok(())
    }

    fn formula(&mut self) -> Result<Ast, SyntaxError> {
        self.enter()?;
        let mut a = self.and()?;
        while self.eat_op(&["||"]).is_some() {
            let b = self.and()?;
            let span = a.span.start..b.span.end;
            a = Ast {
                node: Node::Or(Box::new(a), Box::new(b)),
                span,
            };
        }
        self.depth -= 1;
        Ok(a)
    }

    fn and(&mut self) -> Result<Ast, SyntaxError> {
        let mut a = self.not()?;
        while self.eat_op(&["&&"]).is_some() {
            let b = self.not()?;
            let span = a.span.start..b.span.end;
            a = Ast {
                node: Node::And(Box::new(a), Box::new(b)),
                span,
            };
        }
        Ok(a)
    }

    fn not(&mut self) -> Result<Ast, SyntaxError> {
        if let Some((_, sp)) = self.eat_op(&["!"]) {
            self.enter()?;
            let a = self.not()?;
            self.depth -= 1;
            let span = sp.start..a.span.end;
            return Ok(Ast {
                node: Node::Not(Box::new(a)),
                span,
            });
        }
        self.cmp()
    }

    fn cmp(&mut self) -> Result<Ast, SyntaxError> {
        let first = self.sum()?;
        let mut links: Vec<(Cmp, Ast)> = Vec::new();
        while let Some((o, _)) = self.eat_op(&["<=", ">=", "<", ">", "==", "!="]) {
            let c = match o {
                "<=" => Cmp::Le,
                ">=" => Cmp::Ge,
                "<" => Cmp::Lt,
                ">" => Cmp::Gt,
                "==" => Cmp::Eq,
                _ => Cmp::Ne,
            };
            links.push((c, self.sum()?));
        }
        if links.is_empty() {
            return Ok(first);
        }
        // a op1 b op2 c  =>  (a op1 b) && (b op2 c)
        let mut prev = first;
        let mut acc: Option<Ast> = None;
        for (c, next) in links {
            let span = prev.span.start..next.span.end;
            let link = Ast {
                node: Node::Cmp(Box::new(prev), c, Box::new(next.clone())),
                span,
            };
            acc = Some(match acc {
                None => link,
                Some(a) => {
                    let span = a.span.start..link.span.end;
                    Ast {
                        node: Node::And(Box::new(a), Box::new(link)),
                        span,
                    }
                }
            });
            prev = next;
        }
        Ok(acc.expect("at least one link"))
    }

    fn sum(&mut self) -> Result<Ast, SyntaxError> {
        let mut a = self.prod()?;
        while let Some((o, _)) = self.eat_op(&["+", "-"]) {
            let b = self.prod()?;
            let span = a.span.start..b.span.end;
            let op = if o == "+" { BinOp::Add } else { BinOp::Sub };
            a = Ast {
                node: Node::Bin(op, Box::new(a), Box::new(b)),
                span,
            };
        }
        Ok(a)
    }

    fn prod(&mut self) -> Result<Ast, SyntaxError> {
        let mut a = self.unary()?;
        while let Some((o, _)) = self.eat_op(&["*", "/"]) {
            let b = self.unary()?;
            let span = a.span.start..b.span.end;
            let op = if o == "*" { BinOp::Mul } else { BinOp::Div };
            a = Ast {
                node: Node::Bin(op, Box::new(a), Box::new(b)),
                span,
            };
        }
        Ok(a)
    }

    fn unary(&mut self) -> Result<Ast, SyntaxError> {
        if let Some((o, sp)) = self.eat_op(&["-", "+"]) {
            self.enter()?;
            let a = self.unary()?;
            self.depth -= 1;
            let span = sp.start..a.span.end;
            return Ok(if o == "-" {
                Ast {
                    node: Node::Neg(Box::new(a)),
                    span,
                }
            } else {
                Ast { node: a.node, span }
            });
        }
        self.power()
    }

    fn power(&mut self) -> Result<Ast, SyntaxError> {
        let a = self.atom()?;
        if self.eat_op(&["^"]).is_some() {
            self.enter()?;
            let b = self.unary()?;
            self.depth -= 1;
            let span = a.span.start..b.span.end;
            return Ok(Ast {
                node: Node::Bin(BinOp::Pow, Box::new(a), Box::new(b)),
                span,
            });
        }
        Ok(a)
    }

    fn atom(&mut self) -> Result<Ast, SyntaxError> {
        let Some((tok, sp)) = self.toks.get(self.pos).cloned() else {
            return Err(SyntaxError {
                message: "the expression ends where a number, a name or `(` was expected".into(),
                at: self.len,
            });
        };
        self.pos += 1;
        match tok {
            Tok::Num(q) => Ok(Ast {
                node: Node::Num(q),
                span: sp,
            }),
            Tok::Name(name) => {
                if self.peek() == Some(&Tok::LParen) {
                    self.pos += 1;
                    self.enter()?;
                    let mut args = Vec::new();
                    if self.peek() == Some(&Tok::RParen) {
                        return Err(SyntaxError {
                            message: format!("`{name}()` needs an argument"),
                            at: self.at(),
                        });
                    }
                    // `sum(j: ...)`: the binder's name.
                    let mut binder = None;
                    if let (Some((Tok::Name(b), bsp)), Some((Tok::Colon, _))) =
                        (self.toks.get(self.pos), self.toks.get(self.pos + 1))
                    {
                        binder = Some((b.clone(), bsp.clone()));
                        self.pos += 2;
                    }
                    loop {
                        args.push(self.formula()?);
                        match self.toks.get(self.pos) {
                            Some((Tok::Comma, _)) => self.pos += 1,
                            Some((Tok::RParen, end)) => {
                                let end = end.end;
                                self.pos += 1;
                                self.depth -= 1;
                                return Ok(Ast {
                                    node: Node::Call {
                                        name,
                                        name_span: sp.clone(),
                                        binder,
                                        args,
                                    },
                                    span: sp.start..end,
                                });
                            }
                            _ => {
                                return Err(SyntaxError {
                                    message: format!(
                                        "the call `{name}(` is not closed: expected `,` or `)`"
                                    ),
                                    at: self.at(),
                                });
                            }
                        }
                    }
                }
                if self.peek() == Some(&Tok::LBracket) {
                    // `x[j]`: a per-element name at the element of the binder named `j`.
                    self.pos += 1;
                    let (binder, bsp) = match self.toks.get(self.pos) {
                        Some((Tok::Name(b), bsp)) if !b.ends_with('\'') => (b.clone(), bsp.clone()),
                        _ => {
                            return Err(SyntaxError {
                                message: format!(
                                    "`{}[` expects the name of an enclosing binder, e.g. {}[j] inside sum(j: ...)",
                                    excerpt(&name, 40),
                                    excerpt(&name, 40)
                                ),
                                at: self.at(),
                            });
                        }
                    };
                    self.pos += 1;
                    let Some((Tok::RBracket, end)) = self.toks.get(self.pos) else {
                        return Err(SyntaxError {
                            message: format!("`{}[{binder}` is not closed: expected `]`", excerpt(&name, 40)),
                            at: self.at(),
                        });
                    };
                    let end = end.end;
                    self.pos += 1;
                    return Ok(Ast {
                        node: Node::Index {
                            name,
                            binder,
                            binder_span: bsp,
                        },
                        span: sp.start..end,
                    });
                }
                Ok(Ast {
                    node: Node::Name(name),
                    span: sp,
                })
            }
            Tok::LParen => {
                self.enter()?;
                let inner = self.formula()?;
                self.depth -= 1;
                match self.toks.get(self.pos) {
                    Some((Tok::RParen, end)) => {
                        let end = end.end;
                        self.pos += 1;
                        Ok(Ast {
                            node: inner.node,
                            span: sp.start..end,
                        })
                    }
                    _ => Err(SyntaxError {
                        message: "`(` is not closed".into(),
                        at: sp.start,
                    }),
                }
            }
            Tok::RParen => Err(SyntaxError {
                message: "unexpected `)`".into(),
                at: sp.start,
            }),
            Tok::Comma => Err(SyntaxError {
                message: "unexpected `,` outside a function call".into(),
                at: sp.start,
            }),
            Tok::Colon => Err(SyntaxError {
                message: "unexpected `:`: a binder names its element first, e.g. sum(j: x[j]^2)"
                    .into(),
                at: sp.start,
            }),
            Tok::LBracket | Tok::RBracket => Err(SyntaxError {
                message: "unexpected bracket: `x[j]` reads a per-element name at the element of the binder named `j`"
                    .into(),
                at: sp.start,
            }),
            Tok::Op(o) => Err(SyntaxError {
                message: format!("unexpected operator `{o}`"),
                at: sp.start,
            }),
        }
    }
}

/// The source text of each comparison of a formula, left to right (chained comparisons
/// `a <= b < c` give `a <= b` and `b < c`), in the order of [`crate::lang::Formula::atoms`]:
/// the comparisons joined by `&&`, `||` and `!`, not those inside arithmetic (indicators).
/// `None` when the text does not parse.
///
/// ```
/// use balloc::lang::syntax::comparison_texts;
/// assert_eq!(comparison_texts("rank > n/2 || w <= 1/n").unwrap(), vec!["rank > n/2", "w <= 1/n"]);
/// assert_eq!(comparison_texts("0 <= x < 1").unwrap(), vec!["0 <= x", "x < 1"]);
/// assert_eq!(comparison_texts("(x > 0) + 1 >= 1").unwrap(), vec!["(x > 0) + 1 >= 1"]);
/// ```
pub fn comparison_texts(text: &str) -> Option<Vec<String>> {
    fn walk(a: &Ast, text: &str, out: &mut Vec<String>) {
        match &a.node {
            Node::Cmp(..) => out.push(text.get(a.span.clone()).unwrap_or_default().to_string()),
            Node::And(x, y) | Node::Or(x, y) => {
                walk(x, text, out);
                walk(y, text, out);
            }
            Node::Not(x) => walk(x, text, out),
            _ => {}
        }
    }
    let ast = parse(text).ok()?;
    let mut out = Vec::new();
    walk(&ast, text, &mut out);
    Some(out)
}

/// Parses an expression or formula.
///
/// ```
/// use balloc::lang::syntax::{parse, Node};
/// let a = parse("1/2 + x").unwrap();
/// assert!(matches!(a.node, Node::Bin(..)));
/// // Chained comparisons: a <= b <= c is (a <= b) && (b <= c).
/// assert!(matches!(parse("a <= b <= c").unwrap().node, Node::And(..)));
/// let e = parse("a <= (b").unwrap_err();
/// assert_eq!(e.at, 5);
/// ```
pub fn parse(text: &str) -> Result<Ast, SyntaxError> {
    if text.len() > MAX_LEN {
        return Err(SyntaxError {
            message: format!(
                "the expression is {} bytes long; the limit is {MAX_LEN}",
                text.len()
            ),
            at: 0,
        });
    }
    let toks = tokenize(text)?;
    if toks.is_empty() {
        return Err(SyntaxError {
            message: "the expression is empty".into(),
            at: 0,
        });
    }
    let mut p = Parser {
        toks: &toks,
        pos: 0,
        depth: 0,
        len: text.len(),
    };
    let ast = p.formula()?;
    if p.pos < toks.len() {
        let what = match &toks[p.pos].0 {
            Tok::Num(_) => "a number".to_string(),
            Tok::Name(n) => format!("`{}`", excerpt(n, 40)),
            Tok::Op(o) => format!("`{o}`"),
            Tok::LParen => "`(`".into(),
            Tok::RParen => "an unmatched `)`".into(),
            Tok::Comma => "`,`".into(),
            Tok::Colon => "`:`".into(),
            Tok::LBracket => "`[`".into(),
            Tok::RBracket => "`]`".into(),
        };
        return Err(SyntaxError {
            message: format!("unexpected {what} after a complete expression"),
            at: toks[p.pos].1.start,
        });
    }
    let (depth, nodes) = shape(&ast);
    if depth > MAX_TREE_DEPTH || nodes > MAX_NODES {
        return Err(SyntaxError {
            message: format!(
                "the expression is too large ({nodes} nodes, {depth} levels deep); the limits are {MAX_NODES} nodes and {MAX_TREE_DEPTH} levels"
            ),
            at: 0,
        });
    }
    Ok(ast)
}

/// The depth and the number of nodes of a tree, without recursion.
fn shape(ast: &Ast) -> (usize, usize) {
    let mut stack = vec![(ast, 1usize)];
    let (mut depth, mut nodes) = (0, 0);
    while let Some((a, d)) = stack.pop() {
        nodes += 1;
        depth = depth.max(d);
        match &a.node {
            Node::Num(_) | Node::Name(_) | Node::Index { .. } => {}
            Node::Neg(x) | Node::Not(x) => stack.push((x, d + 1)),
            Node::Bin(_, x, y) | Node::Cmp(x, _, y) | Node::And(x, y) | Node::Or(x, y) => {
                stack.push((x, d + 1));
                stack.push((y, d + 1));
            }
            Node::Call { args, .. } => stack.extend(args.iter().map(|x| (x, d + 1))),
        }
    }
    (depth, nodes)
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    fn q(a: i64, b: i64) -> Q {
        Q::new(a.into(), b.into())
    }

    fn literals_are_exact() {
        // 0.1 is one tenth; 2.5e-3 is 1/400; 1e3 is 1000.
        assert_eq!(parse("0.1").unwrap().node, Node::Num(q(1, 10)));
        assert_eq!(parse("2.5e-3").unwrap().node, Node::Num(q(1, 400)));
        assert_eq!(parse("1e3").unwrap().node, Node::Num(q(1000, 1)));
        assert_eq!(parse(".5").unwrap().node, Node::Num(q(1, 2)));
        assert!(parse("1.2.3").is_err());
    }

    fn precedence() {
        // -2^2 parses as -(2^2); 2*3+4 as (2*3)+4; a-b-c as (a-b)-c.
        match parse("-2^2").unwrap().node {
            Node::Neg(inner) => assert!(matches!(inner.node, Node::Bin(BinOp::Pow, ..))),
            other => panic!("{other:?}"),
        }
        match parse("a-b-c").unwrap().node {
            Node::Bin(BinOp::Sub, l, _) => assert!(matches!(l.node, Node::Bin(BinOp::Sub, ..))),
            other => panic!("{other:?}"),
        }
        match parse("a || b && c").unwrap().node {
            Node::Or(_, r) => assert!(matches!(r.node, Node::And(..))),
            other => panic!("{other:?}"),
        }
    }

    fn spans_point_at_tokens() {
        let a = parse("foo + bar(x, 2)").unwrap();
        let Node::Bin(_, l, r) = a.node else { panic!() };
        assert_eq!(l.span, 0..3);
        let Node::Call {
            name_span, args, ..
        } = r.node
        else {
            panic!()
        };
        assert_eq!(name_span, 6..9);
        assert_eq!(args.len(), 2);
        assert_eq!(r.span, 6..15);
    }

    fn primes_binder_names_and_brackets() {
        // `gap'` is one name with its prime; `sum(j: ...)` names its binder; `x'[j]` reads the
        // primed name at the bin of the binder `j`.
        let Node::Call {
            name, binder, args, ..
        } = parse("sum(j: x'[j] - x[j], j > 1)").unwrap().node
        else {
            panic!("a call")
        };
        assert_eq!(
            (name.as_str(), binder.map(|b| b.0)),
            ("sum", Some("j".to_string()))
        );
        assert_eq!(args.len(), 2);
        let Node::Bin(_, l, _) = &args[0].node else {
            panic!("{:?}", args[0])
        };
        assert_eq!(
            l.node,
            Node::Index {
                name: "x'".into(),
                binder: "j".into(),
                binder_span: 10..11
            }
        );
        assert_eq!(l.span, 7..12);
        assert_eq!(parse("gap'").unwrap().node, Node::Name("gap'".into()));
        // Errors: two primes, a prime alone, a bracket without a binder name, a stray colon.
        assert!(parse("gap''").unwrap_err().message.contains("two primes"));
        assert_eq!(parse("1 + 'a").unwrap_err().at, 4);
        assert!(
            parse("x[1]")
                .unwrap_err()
                .message
                .contains("name of an enclosing binder")
        );
        assert!(parse("x[j").unwrap_err().message.contains("not closed"));
        assert!(
            parse(": b")
                .unwrap_err()
                .message
                .contains("names its element first")
        );
    }

    fn errors_and_limits() {
        assert_eq!(parse("a = 1").unwrap_err().at, 2);
        assert!(parse("").is_err());
        assert!(parse("f()").is_err());
        assert!(
            parse("1 2")
                .unwrap_err()
                .message
                .contains("after a complete")
        );
        assert!(
            parse("a $ b")
                .unwrap_err()
                .message
                .contains("unexpected character")
        );
        let deep = format!(
            "{}1{}",
            "(".repeat(MAX_DEPTH + 5),
            ")".repeat(MAX_DEPTH + 5)
        );
        assert!(parse(&deep).unwrap_err().message.contains("nested deeper"));
        let long = "1+".repeat(MAX_LEN);
        assert!(parse(&long).unwrap_err().message.contains("limit"));
        // A flat sum of 300 terms parses; one of 10 000 terms is too deep to evaluate safely.
        assert!(parse(&format!("{}1", "1+".repeat(300))).is_ok());
        let flat = parse(&format!("{}1", "1+".repeat(10_000))).unwrap_err();
        assert!(flat.message.contains("too large"), "{}", flat.message);
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "literals_are_exact",
            run: literals_are_exact,
            panics: None,
        },
        crate::unit::Test {
            name: "precedence",
            run: precedence,
            panics: None,
        },
        crate::unit::Test {
            name: "spans_point_at_tokens",
            run: spans_point_at_tokens,
            panics: None,
        },
        crate::unit::Test {
            name: "primes_binder_names_and_brackets",
            run: primes_binder_names_and_brackets,
            panics: None,
        },
        crate::unit::Test {
            name: "errors_and_limits",
            run: errors_and_limits,
            panics: None,
        },
    ];
}
