//! The pages of the blueprint: `index.html` (the papers), `<paper>/index.html` (its graph and
//! its items), `<paper>/<name>.html` (one item) and `style.css`; the certificates of proved items
//! are written by the check under `certificates/` and linked. Links are relative, so the folder
//! can be moved, opened from `file://` or served as it is.

use super::html::{badge, escape, page, segment, style};
use super::math::{Rendered, render};
use super::{Item, Status};
use crate::claim::{PaperFile, Verdict, Witness};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// The generated site: its files (path relative to the output folder, contents) and the
/// statements that could not be typeset.
#[derive(Debug, Clone, Default)]
pub struct Site {
    /// Every file, in a fixed order.
    pub files: Vec<(String, Vec<u8>)>,
    /// One line per statement shown as source text instead of MathML: `id: reason`.
    pub warnings: Vec<String>,
}

/// The page path of every item (relative to the site root), unique even when two ids map to the
/// same file name.
fn page_paths(items: &[Item]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut taken = BTreeSet::new();
    for it in items {
        let paper = it.paper();
        let rest = if paper == "drafts" && !it.theorem.id.starts_with("drafts/") {
            it.theorem.id.clone()
        } else {
            it.theorem
                .id
                .split_once('/')
                .map_or(it.theorem.id.clone(), |(_, r)| r.to_string())
        };
        let base = format!("{}/{}", segment(&paper), segment(&rest));
        let mut path = format!("{base}.html");
        let mut k = 2;
        while !taken.insert(path.clone()) {
            path = format!("{base}-{k}.html");
            k += 1;
        }
        out.insert(it.theorem.id.clone(), path);
    }
    out
}

/// The link from the page at `from` to the page at `to` (both relative to the root, at most one
/// folder deep).
fn rel(from: &str, to: &str) -> String {
    let depth = from.matches('/').count();
    format!("{}{to}", "../".repeat(depth))
}

/// The last component of an id (`case-a-offset` of `batched-2022/case-a-offset`).
fn short_name(id: &str) -> &str {
    id.rsplit('/').next().unwrap_or(id)
}

/// A status badge with the verdict's words: `holds (exact)`, `not checked`.
fn status_badge(it: &Item) -> String {
    let text = match it.verdict {
        Some(v) => format!("{} ({})", v.verdict.name(), v.trust.name()),
        None => "not checked in this run".into(),
    };
    badge(it.status(), &text, it.contradicts())
}

/// The legend of the colours.
fn legend() -> String {
    let mut s = String::from("<p class=\"legend\">Status: ");
    for st in Status::ALL {
        s.push_str(&badge(st, st.label(), false));
    }
    s.push_str(
        " A dashed outline marks an item of another paper; a thick dashed one, a verdict that contradicts the file's expected status; <b>✗</b> a refuted item. An arrow from A to B: B's proof uses A.</p>",
    );
    s
}

/// Builds the site from the items (every item whose page is linked must be among them) and the
/// paper records by folder.
///
/// ```
/// use balloc::blueprint::{Item, site};
/// use balloc::claim::{self, RunContext};
/// let root = std::path::Path::new("theorems");
/// let (t, c) = claim::prepare(&root.join("ptw/real-ln-one-plus-x.toml"), root).unwrap();
/// let v = c.run(&mut RunContext::default()).unwrap();
/// let item = Item { theorem: &t, verdict: Some(&v), certificates: vec![], constants: vec![] };
/// let papers = [("ptw".to_string(), t.paper.clone().unwrap())].into_iter().collect();
/// let s = site::build(&[item], &papers);
/// // The style sheet, the index, the paper's page and the item's page; every statement typeset.
/// let names: Vec<&str> = s.files.iter().map(|f| f.0.as_str()).collect();
/// assert_eq!(names, ["style.css", "index.html", "ptw/index.html", "ptw/real-ln-one-plus-x.html"]);
/// assert!(s.warnings.is_empty());
/// let page = String::from_utf8(s.files[3].1.clone()).unwrap();
/// assert!(page.contains("<math") && page.contains("proved (enclosure)"));
/// ```
pub fn build(items: &[Item], papers: &BTreeMap<String, PaperFile>) -> Site {
    let paths = page_paths(items);
    let by_id: BTreeMap<&str, &Item> = items
        .iter()
        .map(|it| (it.theorem.id.as_str(), it))
        .collect();
    let mut used_by: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for it in items {
        for u in &it.theorem.file.uses {
            used_by
                .entry(u.get_ref().as_str())
                .or_default()
                .push(it.theorem.id.as_str());
        }
    }
    let mut by_paper: BTreeMap<String, Vec<&Item>> = BTreeMap::new();
    for it in items {
        by_paper.entry(it.paper()).or_default().push(it);
    }
    let mut site = Site::default();
    site.files.push(("style.css".into(), style().into_bytes()));
    site.files.push((
        "index.html".into(),
        page("Blueprint", "", &[], &index_body(&by_paper, papers)).into_bytes(),
    ));
    // The papers.
    for (paper, its) in &by_paper {
        let here = format!("{}/index.html", segment(paper));
        let body = paper_body(paper, its, papers, &here, &paths, &by_id);
        let title = papers
            .get(paper)
            .map_or(paper.as_str(), |p| p.title.as_str());
        site.files.push((
            here.clone(),
            page(
                title,
                "../",
                &[("Blueprint".into(), "../index.html".into())],
                &body,
            )
            .into_bytes(),
        ));
    }
    // The items.
    for it in items {
        let here = paths[&it.theorem.id].clone();
        let html = item_page(it, &here, &paths, &by_id, &used_by, papers, &mut site);
        site.files.push((here.clone(), html.into_bytes()));
    }
    site
}

/// The body of the index: the legend and a row per paper with its items' statuses counted.
fn index_body(
    by_paper: &BTreeMap<String, Vec<&Item>>,
    papers: &BTreeMap<String, PaperFile>,
) -> String {
    let mut body = String::from(
        "<h1>Blueprint</h1>\n<p>Every lemma of the catalogue with its machine-checked status. <code>holds</code> is evidence on a searched space, not a proof; <code>proved</code> is a proof over a real domain whose certificate an independent checker re-verified.</p>\n",
    );
    body.push_str(&legend());
    body.push_str(
        "<table class=\"papers\">\n<tr><th>paper</th><th>items</th><th>status</th></tr>\n",
    );
    for (paper, its) in by_paper {
        let title = papers.get(paper).map_or_else(
            || paper.clone(),
            |p| {
                format!(
                    "{} — {} ({} {})",
                    p.title,
                    p.authors.join(", "),
                    p.venue,
                    p.year
                )
            },
        );
        let mut counts: BTreeMap<Status, usize> = BTreeMap::new();
        for it in its {
            *counts.entry(it.status()).or_default() += 1;
        }
        let badges: Vec<String> = counts
            .iter()
            .map(|(s, k)| badge(*s, &format!("{} {k}", s.label()), false))
            .collect();
        let _ = writeln!(
            body,
            "<tr><td><a href=\"{}/index.html\">{}</a><br><span class=\"id\">{}</span></td><td>{}</td><td>{}</td></tr>",
            segment(paper),
            escape(&title),
            escape(paper),
            its.len(),
            badges.join(" ")
        );
    }
    body.push_str("</table>\n");
    body
}

/// The dependency graph of a paper's items `its` (page `here`): a node per item, then a node
/// per item of another paper that one of them uses (marked external), and an edge per use.
fn paper_graph(
    its: &[&Item],
    here: &str,
    paths: &BTreeMap<String, String>,
    by_id: &BTreeMap<&str, &Item>,
) -> (Vec<super::graph::Node>, Vec<(usize, usize)>) {
    let mut nodes = Vec::new();
    let mut index_of: BTreeMap<&str, usize> = BTreeMap::new();
    let node_of = |it: &Item, external: bool| super::graph::Node {
        id: it.theorem.id.clone(),
        label: if external {
            it.theorem.id.clone()
        } else {
            short_name(&it.theorem.id).to_string()
        },
        tooltip: format!(
            "{} — {}",
            it.theorem.file.title,
            it.verdict
                .map_or("not checked in this run".to_string(), |v| format!(
                    "{} ({}), expected {}",
                    v.verdict.name(),
                    v.trust.name(),
                    v.expected.name()
                ))
        ),
        status: it.status(),
        href: rel(here, &paths[&it.theorem.id]),
        contradicts: it.contradicts(),
        external,
    };
    for it in its {
        index_of.insert(&it.theorem.id, nodes.len());
        nodes.push(node_of(it, false));
    }
    let mut edges = Vec::new();
    for it in its {
        let a = index_of[it.theorem.id.as_str()];
        for u in &it.theorem.file.uses {
            let Some(target) = by_id.get(u.get_ref().as_str()) else {
                continue;
            };
            let b = match index_of.get(u.get_ref().as_str()) {
                Some(&b) => b,
                None => {
                    index_of.insert(&target.theorem.id, nodes.len());
                    nodes.push(node_of(target, true));
                    nodes.len() - 1
                }
            };
            edges.push((a, b));
        }
    }
    (nodes, edges)
}

/// The body of a paper's page (`here`): its heading, the legend, the dependency graph and the
/// table of its items.
fn paper_body(
    paper: &str,
    its: &[&Item],
    papers: &BTreeMap<String, PaperFile>,
    here: &str,
    paths: &BTreeMap<String, String>,
    by_id: &BTreeMap<&str, &Item>,
) -> String {
    let (nodes, edges) = paper_graph(its, here, paths, by_id);
    let mut body = String::new();
    match papers.get(paper) {
        Some(p) => {
            let _ = writeln!(
                body,
                "<h1>{}</h1>\n<p>{} — {} {}{}</p>",
                escape(&p.title),
                escape(&p.authors.join(", ")),
                escape(&p.venue),
                p.year,
                p.arxiv
                    .as_ref()
                    .map(|a| format!(", arXiv:{}", escape(a)))
                    .unwrap_or_default()
            );
            if !p.notes.trim().is_empty() {
                let _ = writeln!(body, "<p>{}</p>", escape(p.notes.trim()));
            }
        }
        None => {
            let _ = writeln!(body, "<h1>{}</h1>", escape(paper));
        }
    }
    body.push_str(&legend());
    let _ = writeln!(
        body,
        "<h2>Dependency graph</h2>\n<div class=\"graph\">{}</div>",
        super::graph::svg(&nodes, &edges)
    );
    body.push_str("<h2>Items</h2>\n<table class=\"items\">\n<tr><th>item</th><th>kind</th><th>status</th><th>expected</th><th>uses</th></tr>\n");
    for it in its {
        let _ = writeln!(
            body,
            "<tr><td><a href=\"{}\">{}</a><br><span class=\"id\">{}</span></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            rel(here, &paths[&it.theorem.id]),
            escape(&it.theorem.file.title),
            escape(&it.theorem.id),
            escape(it.theorem.file.kind.get_ref()),
            status_badge(it),
            it.theorem.file.expected.name(),
            it.theorem.file.uses.len()
        );
    }
    body.push_str("</table>\n");
    body
}

/// A witness as a definition list.
fn witness_html(w: &Witness) -> String {
    let mut s = String::from("<dl class=\"facts\">");
    let mut row = |k: &str, v: String| {
        if !v.is_empty() {
            let _ = write!(s, "<dt>{}</dt><dd>{}</dd>", escape(k), v);
        }
    };
    if w.n > 0 {
        row("n", w.n.to_string());
    }
    row("source", escape(&w.source));
    if !w.loads.is_empty() {
        let shown: Vec<String> = w.loads.iter().take(200).map(|x| format!("{x}")).collect();
        let more = if w.loads.len() > 200 {
            format!(", … ({} loads)", w.loads.len())
        } else {
            String::new()
        };
        row(
            "loads",
            format!("<code>({}{more})</code>", shown.join(", ")),
        );
    }
    if !w.constants.is_empty() {
        let c: Vec<String> = w
            .constants
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        row("constants", escape(&c.join(", ")));
    }
    row("left side", format!("<code>{}</code>", escape(&w.lhs)));
    row("right side", format!("<code>{}</code>", escape(&w.rhs)));
    row("slack", format!("<code>{}</code>", escape(&w.slack)));
    row("found by", escape(&w.found_by));
    if let Some(r) = &w.recheck {
        row("re-check", escape(r));
    }
    s.push_str("</dl>");
    s
}

/// Text with blank lines as paragraph breaks.
fn paragraphs(text: &str) -> String {
    text.split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| format!("<p>{}</p>", escape(p)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One item's page.
fn item_page(
    it: &Item,
    here: &str,
    paths: &BTreeMap<String, String>,
    by_id: &BTreeMap<&str, &Item>,
    used_by: &BTreeMap<&str, Vec<&str>>,
    papers: &BTreeMap<String, PaperFile>,
    site: &mut Site,
) -> String {
    let t = it.theorem;
    let f = &t.file;
    let mut b = String::new();
    let _ = writeln!(
        b,
        "<h1>{}</h1>\n<p><span class=\"id\">{}</span> · kind <code>{}</code> · expected <code>{}</code> · {}{}</p>",
        escape(&f.title),
        escape(&t.id),
        escape(f.kind.get_ref()),
        f.expected.name(),
        status_badge(it),
        if it.contradicts() {
            " <span class=\"warning\">the verdict contradicts the file's expected status</span>"
        } else {
            ""
        }
    );
    // The statement.
    let rendered = render(&f.statement);
    if let Rendered::Source { reason, .. } = &rendered {
        site.warnings.push(format!("{}: {reason}", t.id));
    }
    let _ = writeln!(
        b,
        "<h2>Statement</h2>\n<div class=\"statement\" data-id=\"{}\">{}</div>",
        escape(&t.id),
        rendered.html()
    );
    if let Some(src) = &f.source {
        let _ = writeln!(
            b,
            "<p><b>Source:</b> {} <span class=\"badge\">{}</span></p>",
            escape(&src.locator),
            escape(&format!("{:?}", src.provenance).to_lowercase())
        );
    }
    // Dependencies.
    let link = |id: &str| -> String {
        match (paths.get(id), by_id.get(id)) {
            (Some(p), Some(other)) => format!(
                "<a href=\"{}\">{}</a> {} <span class=\"id\">{}</span>",
                rel(here, p),
                escape(&other.theorem.file.title),
                status_badge(other),
                escape(id)
            ),
            _ => format!("<span class=\"id\">{}</span>", escape(id)),
        }
    };
    if !f.uses.is_empty() {
        b.push_str("<h2>Uses</h2>\n<ul class=\"links uses\">\n");
        for u in &f.uses {
            let _ = writeln!(b, "<li>{}</li>", link(u.get_ref()));
        }
        b.push_str("</ul>\n");
    }
    if let Some(users) = used_by.get(t.id.as_str()) {
        b.push_str("<h2>Used by</h2>\n<ul class=\"links used-by\">\n");
        for u in users {
            let _ = writeln!(b, "<li>{}</li>", link(u));
        }
        b.push_str("</ul>\n");
    }
    claim_html(&mut b, f.claim.get_ref());
    match it.verdict {
        None => b.push_str(
            "<h2>Verdict</h2>\n<p>Not checked in this run: the item is used by a checked item outside its selection. Run <code>balloc blueprint</code> on it (or on the whole catalogue) for its verdict.</p>\n",
        ),
        Some(v) => verdict_html(&mut b, it, v, here),
    }
    if !f.notes.trim().is_empty() {
        let _ = writeln!(
            b,
            "<h2>Notes</h2>\n<div class=\"notes\">{}</div>",
            paragraphs(&f.notes)
        );
    }
    let _ = writeln!(
        b,
        "<details><summary>The theorem file</summary><pre>{}</pre></details>",
        escape(&t.text)
    );
    let paper = it.paper();
    let paper_title = papers
        .get(&paper)
        .map_or(paper.clone(), |p| p.title.clone());
    let crumbs = [
        ("Blueprint".to_string(), rel(here, "index.html")),
        (
            paper_title,
            rel(here, &format!("{}/index.html", segment(&paper))),
        ),
    ];
    page(&f.title, &rel(here, ""), &crumbs, &b)
}

/// The internal structure of an `inequality` claim: its formula, the links of its chain and its
/// hypotheses (`given`), as written in the file.
fn claim_html(b: &mut String, claim: &toml::Table) {
    let text = |k: &str| claim.get(k).and_then(|v| v.as_str()).map(str::to_string);
    // A list of formulas, or one formula (`given = "QL != 0"` in the graph kinds).
    let list = |k: &str| -> Vec<String> {
        match claim.get(k) {
            Some(toml::Value::String(one)) => vec![one.clone()],
            Some(toml::Value::Array(a)) => a
                .iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        }
    };
    let (chain, given) = (list("chain"), list("given"));
    let formula =
        text("expr").or_else(|| text("forall_bins").map(|f| format!("for every bin: {f}")));
    if formula.is_none() && chain.is_empty() && given.is_empty() {
        return;
    }
    b.push_str("<h2>Claim</h2>\n");
    if let Some(f) = formula {
        let _ = writeln!(b, "<p><code>{}</code></p>", escape(&f));
    }
    if !chain.is_empty() {
        b.push_str(
            "<p>A chain of inequalities, each link checked on its own:</p>\n<ol class=\"chain\">\n",
        );
        for l in &chain {
            let _ = writeln!(b, "<li><code>{}</code></li>", escape(l));
        }
        b.push_str("</ol>\n");
    }
    if !given.is_empty() {
        b.push_str("<p>Hypotheses (<code>given</code>): the claim is about the states where all hold.</p>\n<ul class=\"given\">\n");
        for g in &given {
            let _ = writeln!(b, "<li><code>{}</code></li>", escape(g));
        }
        b.push_str("</ul>\n");
    }
}

/// The verdict part of an item page.
fn verdict_html(b: &mut String, it: &Item, v: &Verdict, here: &str) {
    let _ = writeln!(
        b,
        "<h2>Verdict</h2>\n<dl class=\"facts\"><dt>verdict</dt><dd>{}</dd><dt>trust</dt><dd>{}</dd><dt>expected</dt><dd>{}</dd>{}{}<dt>searched</dt><dd>{}</dd></dl>",
        v.verdict.name(),
        v.trust.name(),
        v.expected.name(),
        v.slack
            .filter(|s| s.is_finite())
            .map(|s| format!("<dt>smallest slack</dt><dd><code>{s:e}</code></dd>"))
            .unwrap_or_default(),
        v.searched
            .confidence
            .map(|c| format!("<dt>confidence</dt><dd>{c}</dd>"))
            .unwrap_or_default(),
        escape(&v.searched.summary())
    );
    if let Some(w) = &v.witness {
        let head = if v.verdict == crate::claim::Status::Refuted {
            "Counterexample"
        } else {
            "Tightest state"
        };
        let _ = writeln!(b, "<h2>{head}</h2>\n{}", witness_html(w));
    }
    if !v.links.is_empty() {
        b.push_str("<h2>Links of the chain</h2>\n<table class=\"chain\"><tr><th>link</th><th>verdict</th><th>trust</th><th>slack</th><th>state</th></tr>\n");
        for l in &v.links {
            let st = Status::of(l.verdict, l.trust, v.expected);
            let state = l
                .witness
                .as_ref()
                .map(|w| {
                    let loads: Vec<String> =
                        w.loads.iter().take(12).map(|x| x.to_string()).collect();
                    format!("n = {}, loads ({})", w.n, loads.join(", "))
                })
                .unwrap_or_default();
            let _ = writeln!(
                b,
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td></tr>",
                escape(&l.link),
                badge(st, l.verdict.name(), false),
                l.trust.name(),
                l.slack.map(|s| format!("{s:e}")).unwrap_or_default(),
                escape(&state)
            );
        }
        b.push_str("</table>\n");
    }
    let f = &it.theorem.file;
    if !f.tighten.is_empty() {
        b.push_str("<h2>Constant finder</h2>\n");
        if it.constants.is_empty() {
            let names: Vec<String> = f
                .tighten
                .iter()
                .map(|(k, d)| format!("<code>{}</code> ({d:?})", escape(k)))
                .collect();
            let _ = writeln!(
                b,
                "<p>Constants to tighten: {}. Not run for this site: <code>balloc blueprint --constants</code> runs it for every item, <code>balloc constant {} --name NAME</code> for this one.</p>",
                names.join(", "),
                escape(&it.theorem.id)
            );
        }
        for r in &it.constants {
            let _ = writeln!(
                b,
                "<p><code>{}</code> ({:?}): the tightest value shown to hold and the nearest value shown to fail, per n.</p>\n<table class=\"constants\"><tr><th>n</th><th>holds at</th><th>trust</th><th>fails at</th><th>trust</th></tr>",
                escape(&r.name),
                r.direction
            );
            for tn in &r.per_n {
                let trust = |t: Option<crate::claim::Trust>| t.map_or("", |t| t.name());
                let _ = writeln!(
                    b,
                    "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td><code>{}</code></td><td>{}</td></tr>",
                    tn.n,
                    tn.value,
                    trust(tn.trust_holds),
                    tn.fails
                        .map(|x| x.to_string())
                        .unwrap_or_else(|| "—".into()),
                    trust(tn.trust_fails)
                );
            }
            b.push_str("</table>\n");
            if let Some(fit) = r.fits.first() {
                let _ = writeln!(
                    b,
                    "<p>Best growth fit: {:.4} · {} (relative RMS residual {:.3}).</p>",
                    fit.coefficient,
                    escape(fit.model.name()),
                    fit.rel_rms
                );
            }
        }
    }
    if let Some(p) = super::figure::plot(v)
        && let Ok(svg) = p.svg()
    {
        let _ = writeln!(b, "<h2>Plot</h2>\n<div class=\"plot\">{svg}</div>");
    }
    if v.verdict == crate::claim::Status::Proved {
        b.push_str("<h2>Certificate</h2>\n");
        if it.certificates.is_empty() {
            b.push_str("<p>No certificate was written in this run.</p>\n");
        } else {
            b.push_str("<p>The proof certificate, re-verified by the independent checker (JSON, to download):</p>\n<ul class=\"certificates\">\n");
            for c in &it.certificates {
                let name = c.rsplit('/').next().unwrap_or(c);
                let _ = writeln!(
                    b,
                    "<li><a href=\"{}\" download>{}</a></li>",
                    escape(&rel(here, c)),
                    escape(name)
                );
            }
            b.push_str("</ul>\n");
        }
    }
    if !v.notes.is_empty() {
        b.push_str("<h2>Notes of the check</h2>\n<ul class=\"check-notes\">\n");
        for n in &v.notes {
            let _ = writeln!(b, "<li>{}</li>", escape(n));
        }
        b.push_str("</ul>\n");
    }
}
