//! A chain of inequalities, `chain = [e0, "op1 e1", "op2 e2", …]` in `[claim]`: the links
//! `e0 op1 e1`, `e1 op2 e2`, … of a proof's chain, each searched on its own (in any setting
//! whose claims are formulas: load vectors, md states). The chain is refuted at its first
//! refuted link, inconclusive at its first inconclusive link, and holds when every link holds,
//! at the weakest trust of its links; the verdict lists every link's ([`LinkVerdict`]).

use super::schema::Theorem;
use super::verdict::{LinkVerdict, Status, Trust, Witness};
use crate::lang::{Cmp, Expr, Formula};
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

/// The verdict of a chain whose links are searched by `run_link(k)` as claims of their own
/// (their verdicts combined by [`combine`]; what was searched, summed over the links).
pub fn verdict(
    t: &Theorem,
    links: &[Link],
    mut run_link: impl FnMut(&Link) -> crate::Result<super::Verdict>,
) -> crate::Result<super::Verdict> {
    let mut parts = Vec::new();
    let mut searched = super::Searched::default();
    for l in links {
        let v = run_link(l)?;
        searched.merge(&v.searched);
        searched.n = v.searched.n.clone();
        searched.sources = v.searched.sources;
        searched.constant_combinations = v.searched.constant_combinations;
        parts.push(LinkPart {
            status: v.verdict,
            trust: v.trust,
            slack: v.slack,
            witness: v.witness,
            notes: v.notes,
        });
    }
    let texts: Vec<String> = links.iter().map(|l| l.text.clone()).collect();
    let (k, status, trust, notes, link_verdicts) = combine(&texts, &parts);
    Ok(super::Verdict::of(t, status, trust)
        .with_slack(parts[k].slack)
        .with_witness(parts[k].witness.clone())
        .with_searched(searched)
        .with_notes(notes)
        .with_links(link_verdicts))
}
