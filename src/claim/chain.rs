//! A chain of inequalities, `chain = [e0, "op1 e1", "op2 e2", …]` in `[claim]`: the links
//! `e0 op1 e1`, `e1 op2 e2`, … of a proof's chain, each searched on its own (in any setting
//! whose claims are formulas: load vectors, md states). The chain is refuted at its first
//! refuted link, inconclusive at its first inconclusive link, and holds when every link holds,
//! at the weakest trust of its links; the verdict lists every link's ([`LinkVerdict`]).

use super::schema::Theorem;
use super::verdict::{LinkVerdict, Status, Trust, Witness};
use crate::claim::setup::error_in_string;
use crate::lang::{Cmp, Expr, Formula, Scope};
use toml::Spanned;

/// The comparisons a link may start with (two-character ones first).
pub const OPERATORS: [(&str, Cmp); 6] = [
    ("<=", Cmp::Le),
    (">=", Cmp::Ge),
    ("==", Cmp::Eq),
    ("!=", Cmp::Ne),
    ("<", Cmp::Lt),
    (">", Cmp::Gt),
];

/// A link: its text as written (`A <= B`) and its formula.
#[derive(Debug, Clone)]
pub struct Link {
    /// `e_{k−1} op_k e_k`, as written.
    pub text: String,
    /// The comparison.
    pub formula: Formula,
}

/// The links of `chain` (the `[claim]` entry at `chain_at`), each side compiled by `side(text,
/// at, offset, what)`: the expression `text`, found `offset` bytes into the string at byte `at`
/// of the file, reported as `what` (`claim.chain[k]`). Errors: fewer than two entries, an entry
/// after the first that does not start with a comparison.
///
/// ```
/// // Over the multidimensional states of n = 2 bins with loads up to 1: 0 ≤ units ≤ 2·units.
/// let v = balloc::check_str(
///     "title = \"t\"\nkind = \"multidim\"\nexpected = \"holds\"\nstatement = \"s\"\n\
///      [source]\nlocator = \"x\"\nprovenance = \"derived\"\n[claim]\n\
///      chain = [\"0\", \"<= units\", \"<= 2*units\"]\nball = \"uniform(dims=1,f=1)\"\n\
///      rules = [\"sum two-choice\"]\n[domain]\nn = [2]\nmax_load = 1\n",
/// )
/// .unwrap();
/// let texts: Vec<&str> = v.links.iter().map(|l| l.link.as_str()).collect();
/// assert_eq!(texts, ["0 <= units", "units <= 2*units"]);
/// assert_eq!(v.verdict, balloc::claim::Status::Holds);
/// ```
pub fn links(
    t: &Theorem,
    chain: &[Spanned<String>],
    chain_at: Option<usize>,
    mut side: impl FnMut(&str, usize, usize, &str) -> Result<Expr, crate::claim::FileError>,
) -> Result<Vec<Link>, crate::claim::FileError> {
    if chain.len() < 2 {
        return Err(t.error_at(
            chain_at,
            "claim.chain needs a first expression and at least one link, e.g. [\"E_Gamma\", \"<= A\", \"<= B\"]",
        ));
    }
    let mut out = Vec::new();
    let mut prev_text = chain[0].get_ref().clone();
    let mut prev = side(&prev_text, chain[0].span().start, 0, "claim.chain[0]")?;
    for (k, entry) in chain.iter().enumerate().skip(1) {
        let raw = entry.get_ref().trim_start();
        let Some((sym, op)) = OPERATORS.iter().find(|(s, _)| raw.starts_with(s)) else {
            return Err(t.error_at(
                Some(entry.span().start),
                format!(
                    "claim.chain[{k}] must start with a comparison (<=, >=, <, >, ==, !=), e.g. \"<= 2*n\""
                ),
            ));
        };
        let rest = &raw[sym.len()..];
        let offset = entry.get_ref().len() - raw.len() + sym.len();
        let cur = side(
            rest,
            entry.span().start,
            offset,
            &format!("claim.chain[{k}]"),
        )?;
        out.push(Link {
            text: format!("{} {sym} {}", prev_text.trim(), rest.trim()),
            formula: Formula::Cmp(prev, *op, cur.clone()),
        });
        prev = cur;
        prev_text = rest.to_string();
    }
    Ok(out)
}

/// The claim of a `[claim]` section that has `expr` (a formula) or `chain` (exactly one of
/// them), compiled in `scope` (errors name `expr` or `claim.chain[k]` and point into the file;
/// `at` is the section's position): the formula searched — `expr`, or the conjunction of the
/// chain's links, the one the constant finder keeps a value of — and the chain's links (empty
/// for `expr`).
///
/// ```
/// // A graph claim with both `expr` and `chain`: a one-line error.
/// let e = balloc::check_str(
///     "title = \"t\"\nkind = \"graph\"\nexpected = \"holds\"\nstatement = \"s\"\n\
///      [source]\nlocator = \"x\"\nprovenance = \"derived\"\n[claim]\nexpr = \"n >= 1\"\n\
///      chain = [\"1\", \"<= n\"]\ngraphs = [\"cycle(8)\"]\n[domain]\nn = [8]\n",
/// )
/// .unwrap_err()
/// .to_string();
/// assert!(e.contains("exactly one of `expr` (a formula) and `chain`"), "{e}");
/// ```
pub fn expr_or_chain(
    t: &Theorem,
    expr: Option<&Spanned<String>>,
    chain: Option<&[Spanned<String>]>,
    at: Option<usize>,
    scope: &dyn Scope,
) -> Result<(Formula, Vec<Link>), crate::claim::FileError> {
    match (expr, chain) {
        (Some(e), None) => Ok((compile_formula_in(t, "expr", e, scope)?, Vec::new())),
        (None, Some(c)) => {
            let links = links(t, c, at, |text, a, offset, what| {
                let ast = crate::lang::parse(text).map_err(|x| {
                    error_in_string(t, a, offset + x.at, format!("{what}: {}", x.message))
                })?;
                crate::lang::compile_expr(&ast, scope, false).map_err(|x| {
                    error_in_string(t, a, offset + x.at, format!("{what}: {}", x.message))
                })
            })?;
            let all = links
                .iter()
                .map(|l| l.formula.clone())
                .reduce(|a, b| Formula::And(Box::new(a), Box::new(b)))
                .expect("a chain has at least one link");
            Ok((all, links))
        }
        _ => Err(t.error_at(
            at,
            "[claim] needs exactly one of `expr` (a formula) and `chain` (a chain of inequalities)",
        )),
    }
}

/// A `given` field written as one formula or a list of them (all must hold), each with its
/// position in the file.
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct C { given: balloc::claim::chain::Given }
/// let one: C = toml::from_str("given = \"x > 0\"").unwrap();
/// let text = "given = [\"x > 0\", \"y > 0\"]";
/// let two: C = toml::from_str(text).unwrap();
/// assert_eq!((one.given.0.len(), two.given.0.len()), (1, 2));
/// assert_eq!(two.given.0[1].get_ref(), "y > 0");
/// // The element's position is its quoted string in the file.
/// assert_eq!(&text[two.given.0[1].span()], "\"y > 0\"");
/// ```
#[derive(Debug, Clone, Default)]
pub struct Given(pub Vec<Spanned<String>>);

/// A string or a list of strings (the list's elements with their positions).
enum GivenForm {
    One(String),
    Many(Vec<Spanned<String>>),
}

impl<'de> serde::Deserialize<'de> for GivenForm {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<GivenForm, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = GivenForm;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a formula or a list of formulas")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> std::result::Result<GivenForm, E> {
                Ok(GivenForm::One(v.to_string()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<GivenForm, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = seq.next_element::<Spanned<String>>()? {
                    v.push(x);
                }
                Ok(GivenForm::Many(v))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> serde::Deserialize<'de> for Given {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Given, D::Error> {
        let s: Spanned<GivenForm> = Spanned::deserialize(d)?;
        let span = s.span();
        Ok(match s.into_inner() {
            GivenForm::Many(v) => Given(v),
            GivenForm::One(text) => Given(vec![Spanned::new(span, text)]),
        })
    }
}

/// The conjunction of the formulas of `given` (`None` for an empty list), compiled in `scope`.
pub fn compile_given_in(
    t: &Theorem,
    given: &Given,
    scope: &dyn Scope,
) -> Result<Option<Formula>, crate::claim::FileError> {
    let mut out: Option<Formula> = None;
    for g in &given.0 {
        let f = compile_formula_in(t, "given", g, scope)?;
        out = Some(match out {
            None => f,
            Some(acc) => Formula::And(Box::new(acc), Box::new(f)),
        });
    }
    Ok(out)
}

/// The formula `s` (the field `what` of the file) compiled in `scope`; errors name `what` and
/// point into the file.
pub fn compile_formula_in(
    t: &Theorem,
    what: &str,
    s: &Spanned<String>,
    scope: &dyn Scope,
) -> Result<Formula, crate::claim::FileError> {
    compile_formula_at(t, what, s, scope, false)
}

/// [`compile_formula_in`] for a claim at every bin (`forall_bins`): the formula may read the
/// per-bin names of its own bin ([`crate::claim::engine::every_bin`]).
pub fn compile_every_bin_in(
    t: &Theorem,
    what: &str,
    s: &Spanned<String>,
    scope: &dyn Scope,
) -> Result<Formula, crate::claim::FileError> {
    compile_formula_at(t, what, s, scope, true)
}

fn compile_formula_at(
    t: &Theorem,
    what: &str,
    s: &Spanned<String>,
    scope: &dyn Scope,
    per_bin: bool,
) -> Result<Formula, crate::claim::FileError> {
    let at = s.span().start;
    let ast = crate::lang::parse(s.get_ref())
        .map_err(|e| error_in_string(t, at, e.at, format!("{what}: {}", e.message)))?;
    crate::lang::compile_formula(&ast, scope, per_bin)
        .map_err(|e| error_in_string(t, at, e.at, format!("{what}: {}", e.message)))
}

/// What the search of one link found.
#[derive(Debug, Clone)]
pub struct LinkPart {
    /// Its verdict.
    pub status: Status,
    /// Its trust.
    pub trust: Trust,
    /// Its smallest slack (its counterexample's when refuted).
    pub slack: Option<f64>,
    /// Its tightest state or counterexample.
    pub witness: Option<Witness>,
    /// Its notes.
    pub notes: Vec<String>,
}

/// A chain's verdict from its links' ([module documentation](self)): the deciding link (the
/// first refuted, else the first inconclusive, else the tightest), the status, the trust, the
/// notes (every link's verdict, then the deciding link's notes) and the links' verdicts.
///
/// ```
/// use balloc::claim::chain::{combine, LinkPart};
/// use balloc::claim::{Status, Trust};
/// let part = |status, trust, slack| LinkPart { status, trust, slack, witness: None, notes: vec![] };
/// let texts = ["a <= b".to_string(), "b <= c".to_string()];
/// let (k, status, trust, notes, links) = combine(
///     &texts,
///     &[part(Status::Holds, Trust::Exact, Some(0.5)), part(Status::Holds, Trust::Enclosure, Some(0.1))],
/// );
/// // Both hold: the tightest link decides (slack 0.1), at the weaker trust of the two.
/// assert_eq!((k, status, trust), (1, Status::Holds, Trust::Enclosure));
/// assert_eq!(notes[0], "link 1 `a <= b`: holds (trust exact)");
/// assert_eq!(links.len(), 2);
/// let (k, status, ..) = combine(
///     &texts,
///     &[part(Status::Inconclusive, Trust::Float, None), part(Status::Refuted, Trust::Exact, Some(-1.0))],
/// );
/// assert_eq!((k, status), (1, Status::Refuted));
/// ```
pub fn combine(
    texts: &[String],
    parts: &[LinkPart],
) -> (usize, Status, Trust, Vec<String>, Vec<LinkVerdict>) {
    let links: Vec<LinkVerdict> = parts
        .iter()
        .zip(texts)
        .map(|(o, l)| LinkVerdict {
            link: l.clone(),
            verdict: o.status,
            trust: o.trust,
            slack: o.slack,
            witness: o.witness.clone(),
        })
        .collect();
    let mut notes = Vec::new();
    for (k, (o, l)) in parts.iter().zip(texts).enumerate() {
        notes.push(format!(
            "link {} `{}`: {} (trust {})",
            k + 1,
            l,
            o.status.name(),
            o.trust.name()
        ));
    }
    let first_bad = parts.iter().position(|o| o.status == Status::Refuted);
    let first_unsure = parts.iter().position(|o| o.status == Status::Inconclusive);
    let (k, status) = match (first_bad, first_unsure) {
        (Some(k), _) => (k, Status::Refuted),
        (None, Some(k)) => (k, Status::Inconclusive),
        (None, None) => {
            // Every link holds: report the tightest link.
            let k = parts
                .iter()
                .enumerate()
                .min_by(|a, b| {
                    let (x, y) = (
                        a.1.slack.unwrap_or(f64::INFINITY),
                        b.1.slack.unwrap_or(f64::INFINITY),
                    );
                    x.total_cmp(&y)
                })
                .map(|(k, _)| k)
                .unwrap_or(0);
            (k, Status::Holds)
        }
    };
    if status == Status::Refuted {
        notes.insert(
            0,
            format!(
                "the chain breaks at link {} `{}` (the first link that fails)",
                k + 1,
                texts[k]
            ),
        );
    }
    notes.extend(parts[k].notes.iter().cloned());
    let trust = match status {
        // The chain holds at the weakest trust of its links.
        Status::Holds => parts
            .iter()
            .map(|o| o.trust)
            .max_by_key(|t| match t {
                Trust::Exact => 0,
                Trust::Enclosure => 1,
                Trust::Float => 2,
                Trust::Statistical => 3,
            })
            .unwrap_or(Trust::Float),
        _ => parts[k].trust,
    };
    (k, status, trust, notes, links)
}

/// A chain searched link by link: the deciding link's part, the chain's status, trust and notes
/// ([`combine`]), every link's verdict, and what was searched, summed over the links.
#[derive(Debug, Clone)]
pub struct Chained {
    /// The part of the link that decides (the first refuted, …, or the tightest).
    pub deciding: LinkPart,
    /// The chain's verdict.
    pub status: Status,
    /// Its trust.
    pub trust: Trust,
    /// Every link's verdict, then the deciding link's notes.
    pub notes: Vec<String>,
    /// The links' verdicts.
    pub links: Vec<LinkVerdict>,
    /// The states searched, over all links.
    pub searched: super::Searched,
}

/// Searches every link by `run_link` (its part and what it searched) and combines them.
///
/// ```
/// use balloc::claim::chain::{run_links, Link, LinkPart};
/// use balloc::claim::{Searched, Status, Trust};
/// use balloc::lang::{compile_value, Cmp, Formula};
/// let link = |a: &str, b: &str| Link {
///     text: format!("{a} <= {b}"),
///     formula: Formula::Cmp(compile_value(a, &[]).unwrap(), Cmp::Le, compile_value(b, &[]).unwrap()),
/// };
/// // 1 <= 2 <= 1: the second link fails; each link "searched" 3 states.
/// let c = run_links(&[link("1", "2"), link("2", "1")], |l| {
///     let holds = l.text == "1 <= 2";
///     let status = if holds { Status::Holds } else { Status::Refuted };
///     let mut s = Searched::default();
///     s.add("listed", 3);
///     Ok((LinkPart { status, trust: Trust::Exact, slack: None, witness: None, notes: vec![] }, s))
/// })
/// .unwrap();
/// assert_eq!((c.status, c.searched.total), (Status::Refuted, 6));
/// assert_eq!(c.notes[0], "the chain breaks at link 2 `2 <= 1` (the first link that fails)");
/// ```
pub fn run_links(
    links: &[Link],
    mut run_link: impl FnMut(&Link) -> crate::Result<(LinkPart, super::Searched)>,
) -> crate::Result<Chained> {
    let mut parts = Vec::new();
    let mut searched = super::Searched::default();
    for l in links {
        let (part, s) = run_link(l)?;
        searched.merge(&s);
        searched.n = s.n.clone();
        searched.sources = s.sources;
        searched.constant_combinations = s.constant_combinations;
        parts.push(part);
    }
    let texts: Vec<String> = links.iter().map(|l| l.text.clone()).collect();
    let (k, status, trust, notes, links) = combine(&texts, &parts);
    Ok(Chained {
        deciding: parts.swap_remove(k),
        status,
        trust,
        notes,
        links,
        searched,
    })
}

/// The verdict of a chain whose links are searched by `run_link` as claims of their own
/// ([`run_links`]).
pub fn verdict(
    t: &Theorem,
    links: &[Link],
    mut run_link: impl FnMut(&Link) -> crate::Result<super::Verdict>,
) -> crate::Result<super::Verdict> {
    let c = run_links(links, |l| {
        let v = run_link(l)?;
        Ok((
            LinkPart {
                status: v.verdict,
                trust: v.trust,
                slack: v.slack,
                witness: v.witness,
                notes: v.notes,
            },
            v.searched,
        ))
    })?;
    Ok(super::Verdict::of(t, c.status, c.trust)
        .with_slack(c.deciding.slack)
        .with_witness(c.deciding.witness)
        .with_searched(c.searched)
        .with_notes(c.notes)
        .with_links(c.links))
}
