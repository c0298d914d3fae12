//! `balloc report`: the checked catalogue as text a paper or a repository can take.
//!
//! * [`latex`]: a section "Computer-checked steps" for a paper's appendix — per paper a
//!   `longtable` of its items (id and title, the statement typeset from the file's LaTeX, the
//!   verdict with its trust level, the tightest constants as `\frac`, the counterexample), then
//!   the `pgfplots` figures of the statistical items; with `standalone`, a whole `article` that
//!   `pdflatex` compiles. Words are never hyphenated (`\hyphenpenalty=10000`, ragged right).
//! * [`markdown`]: the same tables for a README.

use crate::blueprint::Item;
use crate::claim::{PaperFile, Status, Witness};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The LaTeX packages the section needs (written at the top of a section, used by the
/// standalone document).
pub const PACKAGES: &str = "amsmath,amssymb,longtable,booktabs,array,pgfplots";

/// Text for LaTeX: [`crate::latex::escape`], and any character it leaves that `pdflatex` with
/// T1 fonts cannot typeset (beyond Latin-1 and Latin Extended-A) as `?`.
///
/// ```
/// assert_eq!(balloc::report::tex_text("a_b ≤ ε ★ Räcke"), "a\\_b $\\le$ $\\varepsilon$ ? Räcke");
/// ```
pub fn tex_text(s: &str) -> String {
    typesettable(&crate::latex::escape(s))
}

/// `s` with every character beyond Latin-1 and Latin Extended-A (which `pdflatex` with T1
/// fonts rejects) replaced by `?`.
fn typesettable(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii() || ('\u{a0}'..='\u{17f}').contains(&c) {
                c
            } else {
                '?'
            }
        })
        .collect()
}

/// An identifier in typewriter type that may break after `-`, `/` and `_` (never hyphenated).
fn tex_id(id: &str) -> String {
    let mut out = String::new();
    for c in tex_text(id).chars() {
        out.push(c);
        if c == '-' || c == '/' {
            out.push_str("\\allowbreak{}");
        }
    }
    out.replace("\\_", "\\_\\allowbreak{}")
}

/// A number as LaTeX math: a fraction `p/q` as `\frac{p}{q}`; a decimal that is a fraction with
/// a small denominator (at most 10⁴, as `0.25` or `1e-3`) and below 10⁹ as that fraction; other numbers in
/// scientific notation with four significant digits; anything else as text.
///
/// ```
/// use balloc::report::tex_number;
/// assert_eq!(tex_number("1279/160"), "\\frac{1279}{160}");
/// assert_eq!(tex_number("0.25"), "\\frac{1}{4}");
/// assert_eq!(tex_number("-0.1"), "-\\frac{1}{10}");
/// assert_eq!(tex_number("3"), "3");
/// assert_eq!(tex_number("6.4082195032776805e-3"), "6.408 \\cdot 10^{-3}");
/// assert_eq!(tex_number("2.5e400"), "2.500 \\cdot 10^{400}");
/// ```
pub fn tex_number(text: &str) -> String {
    let t = text.trim();
    if let Some((p, q)) = t.split_once('/')
        && let (Ok(p), Ok(q)) = (p.trim().parse::<i128>(), q.trim().parse::<i128>())
        && q != 0
    {
        let q_ = crate::exact::Q::new(p.into(), q.into());
        return crate::latex::rational(&q_);
    }
    // Exact decimals with few digits: as fractions (the files write 1/4 as 0.25 or "1/4").
    let digits = t.chars().filter(|c| c.is_ascii_digit()).count();
    if digits <= 8
        && let Ok(r) = crate::spec::parse_ratio(t)
        && *r.denom() <= crate::exact::Int::from(10_000u64)
        && crate::exact::to_f64(&r).abs() < 1e9
    {
        return crate::latex::rational(&r);
    }
    // Scientific notation from the mantissa and exponent as written (values beyond f64 too).
    let (m, e) = match t.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i64>().ok()),
        None => (t, Some(0)),
    };
    if let (Ok(m), Some(e)) = (m.parse::<f64>(), e)
        && m.is_finite()
    {
        if m == 0.0 {
            return "0".into();
        }
        let shift = m.abs().log10().floor() as i64;
        let mant = m / 10f64.powi(shift as i32);
        let exp = e + shift;
        return if exp == 0 {
            format!("{mant:.3}")
        } else {
            format!("{mant:.3} \\cdot 10^{{{exp}}}")
        };
    }
    format!("\\text{{{}}}", tex_text(t))
}

/// The constants of a witness as `$c = \frac14$, ...`.
fn tex_constants(w: &Witness) -> String {
    w.constants
        .iter()
        .map(|(k, v)| {
            let name = if k.chars().all(|c| c.is_ascii_alphanumeric()) && k.len() <= 12 {
                match k.as_str() {
                    "alpha" | "beta" | "gamma" | "delta" | "eps" | "kappa" | "lambda" => {
                        let k = if k == "eps" { "varepsilon" } else { k.as_str() };
                        format!("\\{k}")
                    }
                    _ => format!("\\mathit{{{k}}}"),
                }
            } else {
                format!("\\text{{{}}}", tex_text(k))
            };
            format!("${name} = {}$", tex_number(&format!("{v}")))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The result cell of an item.
fn tex_result(it: &Item) -> String {
    let Some(v) = it.verdict else {
        return "not checked in this run".into();
    };
    let mut s = format!(
        "\\textbf{{{}}} ({}){}",
        v.verdict.name(),
        v.trust.name(),
        if v.contradicts() {
            format!(
                " \\textbf{{contradicts the expected {}}}",
                v.expected.name()
            )
        } else {
            String::new()
        }
    );
    if let Some(w) = &v.witness {
        let what = if v.verdict == Status::Refuted {
            "counterexample"
        } else {
            "tightest"
        };
        let mut at = Vec::new();
        if w.n > 0 {
            at.push(format!("$n = {}$", w.n));
        }
        if !w.loads.is_empty() {
            let shown: Vec<String> = w.loads.iter().take(8).map(|x| format!("{x}")).collect();
            let more = if w.loads.len() > 8 { ", \\ldots" } else { "" };
            at.push(format!("$x = ({}{more})$", shown.join(", ")));
        }
        if !w.constants.is_empty() {
            at.push(tex_constants(w));
        }
        if v.trust != crate::claim::Trust::Statistical {
            let lhs = tex_number(&w.lhs);
            let rhs = tex_number(&w.rhs);
            if !lhs.starts_with("\\text") && !rhs.starts_with("\\text") {
                at.push(format!("sides ${lhs}$ vs ${rhs}$"));
            }
        } else {
            at.push(tex_text(&w.lhs));
        }
        if !at.is_empty() {
            let _ = write!(s, " \\newline {what}: {}", at.join("; "));
        }
    }
    for r in &it.constants {
        let vals: Vec<String> = r
            .per_n
            .iter()
            .map(|t| format!("{}: {}", t.n, tex_number(&format!("{}", t.value))))
            .collect();
        let _ = write!(
            s,
            " \\newline tightest {}: ${}$",
            tex_text(&r.name),
            vals.join(",\\ ")
        );
    }
    s
}

/// The statement cell: the file's LaTeX as display-style math ([`tex_math`]), or a dash when
/// there is none.
fn tex_statement(it: &Item) -> String {
    let st = it.theorem.file.statement.trim();
    if st.is_empty() {
        return "---".into();
    }
    format!("{{\\small $\\displaystyle {}$}}", tex_math(st))
}

/// A statement's LaTeX (math mode) ready for `pdflatex`: characters outside ASCII become their
/// LaTeX symbol in `\ensuremath` (valid in math and in `\text`), `§` becomes `\S`, others `?`.
///
/// ```
/// assert_eq!(balloc::report::tex_math(r"x \le 1\ \text{(β)}"), r"x \le 1\ \text{(\ensuremath{\beta})}");
/// ```
pub fn tex_math(st: &str) -> String {
    let mut clean = String::with_capacity(st.len());
    for c in st.chars() {
        match c {
            c if c.is_ascii() => clean.push(c),
            '§' => clean.push_str("\\S "),
            c => match crate::latex::math_symbol(c) {
                Some(m) => clean.push_str(&format!("\\ensuremath{{{m}}}")),
                None => clean.push('?'),
            },
        }
    }
    clean
}

/// The items grouped by paper, in the order given.
fn by_paper<'a, 'b>(items: &'b [Item<'a>]) -> BTreeMap<String, Vec<&'b Item<'a>>> {
    let mut m: BTreeMap<String, Vec<&Item>> = BTreeMap::new();
    for it in items {
        m.entry(it.paper()).or_default().push(it);
    }
    m
}

/// The LaTeX report of `items` (see the module documentation). `papers` gives the titles of the
/// paper folders.
pub fn latex(items: &[Item], papers: &BTreeMap<String, PaperFile>, standalone: bool) -> String {
    let mut s = String::new();
    if standalone {
        let _ = write!(
            s,
            "\\documentclass{{article}}\n\\usepackage[T1]{{fontenc}}\n\\usepackage{{{PACKAGES}}}\n\\pgfplotsset{{compat=1.16}}\n\\begin{{document}}\n"
        );
    } else {
        let _ = writeln!(
            s,
            "% balloc report: needs \\usepackage{{{PACKAGES}}} and \\pgfplotsset{{compat=1.16}}"
        );
    }
    s.push_str(
        "\\section{Computer-checked steps}\n\
         Each step below is stated as a file of the \\texttt{balloc} catalogue and checked by \\texttt{balloc check}. \
         A verdict \\emph{holds} means that no violation was found on the searched space (evidence, not a proof); \
         \\emph{proved} means that every box of a real domain was certified by interval arithmetic and the certificate re-verified by an independent checker; \
         \\emph{refuted} comes with a certified counterexample. The trust level says what decided it: exact rational arithmetic, \
         outward-rounded enclosures, floating point with an error bound, or a statistical test at the stated confidence.\n\n",
    );
    s.push_str("\\begingroup\n\\hyphenpenalty=10000 \\exhyphenpenalty=10000\n");
    let col = "@{}>{\\raggedright\\arraybackslash}p{0.24\\linewidth}>{\\raggedright\\arraybackslash}p{0.44\\linewidth}>{\\raggedright\\arraybackslash}p{0.24\\linewidth}@{}";
    let groups = by_paper(items);
    for (paper, its) in &groups {
        let title = papers.get(paper).map_or(paper.clone(), |p| {
            format!("{} ({} {})", p.title, p.venue, p.year)
        });
        let _ = writeln!(s, "\\subsection*{{{}}}", tex_text(&title));
        let _ = writeln!(
            s,
            "\\begin{{longtable}}{{{col}}}\n\\toprule\nItem & Statement & Result \\\\\n\\midrule\n\\endhead\n\\bottomrule\n\\endfoot"
        );
        for it in its {
            let _ = writeln!(
                s,
                "\\texttt{{{}}} \\newline {{\\small {}}} & {} & {{\\small {}}} \\\\[3pt]",
                tex_id(&it.theorem.id),
                tex_text(&it.theorem.file.title),
                tex_statement(it),
                tex_result(it)
            );
        }
        s.push_str("\\end{longtable}\n");
    }
    s.push_str("\\endgroup\n");
    // Figures of the statistical items (not floats: as many as there are items).
    let figures: Vec<(&Item, String)> = items
        .iter()
        .filter_map(|it| {
            let v = it.verdict?;
            let p = crate::blueprint::figure::plot(v)?;
            p.tikz().ok().map(|t| (it, typesettable(&t)))
        })
        .collect();
    if !figures.is_empty() {
        s.push_str("\\subsection*{Figures of the statistical items}\n");
        for (it, tikz) in figures {
            let _ = writeln!(
                s,
                "\\par\\noindent\\begin{{minipage}}{{\\linewidth}}\\centering\n{tikz}\\par\\smallskip\\small \\texttt{{{}}}: {}\\end{{minipage}}\\par\\bigskip",
                tex_id(&it.theorem.id),
                tex_text(&it.theorem.file.title)
            );
        }
    }
    if standalone {
        s.push_str("\\end{document}\n");
    }
    s
}

/// A Markdown table cell: `|` escaped, line breaks as spaces.
fn md(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// The Markdown report of `items`: per paper a table (id, title, statement, verdict, trust,
/// tightest state or counterexample).
///
/// ```
/// use balloc::blueprint::Item;
/// use balloc::claim::{self, RunContext};
/// let root = std::path::Path::new("theorems");
/// let (t, c) = claim::prepare(&root.join("ptw/real-ln-one-plus-x.toml"), root).unwrap();
/// let v = c.run(&mut RunContext::default()).unwrap();
/// let item = Item { theorem: &t, verdict: Some(&v), certificates: vec![], constants: vec![] };
/// let md = balloc::report::markdown(&[item], &Default::default());
/// // One table row: the id, the statement as math, the verdict and its trust level.
/// let row = md.lines().find(|l| l.starts_with("| `ptw/real-ln-one-plus-x`")).unwrap();
/// assert!(row.contains("| proved | enclosure |") && row.contains("$\\ln"));
/// ```
pub fn markdown(items: &[Item], papers: &BTreeMap<String, PaperFile>) -> String {
    let mut s = String::from(
        "## Computer-checked steps\n\n`holds`: no violation on the searched space (evidence, not a proof); `proved`: certified over a real domain; `refuted`: a certified counterexample.\n",
    );
    for (paper, its) in &by_paper(items) {
        let title = papers.get(paper).map_or(paper.clone(), |p| p.title.clone());
        let _ = writeln!(s, "\n### {}\n", md(&title));
        s.push_str("| item | statement | verdict | trust | state |\n|---|---|---|---|---|\n");
        for it in its {
            let (verdict, trust, state) = match it.verdict {
                Some(v) => (
                    format!(
                        "{}{}",
                        v.verdict.name(),
                        if v.contradicts() { " ✗" } else { "" }
                    ),
                    v.trust.name().to_string(),
                    v.witness
                        .as_ref()
                        .map(|w| {
                            let c: Vec<String> = w
                                .constants
                                .iter()
                                .map(|(k, x)| format!("{k} = {x}"))
                                .collect();
                            let loads: Vec<String> =
                                w.loads.iter().take(8).map(|x| x.to_string()).collect();
                            format!(
                                "{}n = {}{}{}",
                                if v.verdict == Status::Refuted {
                                    "counterexample: "
                                } else {
                                    ""
                                },
                                w.n,
                                if loads.is_empty() {
                                    String::new()
                                } else {
                                    format!(", x = ({})", loads.join(", "))
                                },
                                if c.is_empty() {
                                    String::new()
                                } else {
                                    format!(", {}", c.join(", "))
                                }
                            )
                        })
                        .unwrap_or_default(),
                ),
                None => ("not checked".into(), String::new(), String::new()),
            };
            let st = it.theorem.file.statement.trim();
            let _ = writeln!(
                s,
                "| `{}` {} | {} | {} | {} | {} |",
                md(&it.theorem.id),
                md(&it.theorem.file.title),
                if st.is_empty() {
                    String::new()
                } else {
                    format!("${}$", md(st))
                },
                verdict,
                trust,
                md(&state)
            );
        }
    }
    s
}
