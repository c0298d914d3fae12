//! The blueprint and the report of the whole catalogue, built from the one catalogue check of
//! this test binary ([`super::catalogue`]):
//!
//! * the site in a real browser (headless Chromium through the DevTools protocol, [`super::cdp`]),
//!   from `file://`: every item page reachable from the index, every statement rendered as MathML
//!   (a `<math>` element with a height, no `$` left), every edge of every graph between nodes that
//!   link to existing pages, no console error; the screenshots under `docs/` match what it renders;
//! * the LaTeX report compiled by `pdflatex` without an error, and a plot's PGF within the line
//!   width of a standard `article`.
//!
//! Without Chromium or `pdflatex` these tests print why and pass, unless `BALLOC_REQUIRE_TOOLS=1`
//! (set by `.ci/run`), when a missing tool fails them. `BALLOC_UPDATE_SCREENSHOTS=1` rewrites the
//! screenshots under `docs/` instead of comparing them.

use super::{catalogue, cdp};
use balloc::blueprint::{Item, site};
use balloc::claim::{self, PaperFile};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Whether a missing browser or `pdflatex` fails the test (CI) rather than skipping it.
fn required() -> bool {
    std::env::var("BALLOC_REQUIRE_TOOLS").is_ok_and(|v| v == "1")
}

/// Skips (prints why) or fails when a tool is missing.
fn missing(tool: &str) {
    assert!(
        !required(),
        "{tool} is required (BALLOC_REQUIRE_TOOLS=1) but was not found"
    );
    eprintln!(
        "skipped: {tool} not found (install it, or set BALLOC_REQUIRE_TOOLS=1 to make this a failure)"
    );
}

/// The items of the catalogue with the certificates the check wrote into the site.
fn items(cat: &super::Catalogue) -> Vec<Item<'_>> {
    cat.theorems
        .iter()
        .zip(&cat.verdicts)
        .map(|(t, v)| {
            let certificates = if v.verdict == claim::Status::Proved {
                claim::kind::real::problems(t, &cat.site.join("certificates"))
                    .unwrap()
                    .into_iter()
                    .map(|(_, p)| {
                        p.strip_prefix(&cat.site)
                            .unwrap()
                            .to_string_lossy()
                            .into_owned()
                    })
                    .collect()
            } else {
                Vec::new()
            };
            Item {
                theorem: t,
                verdict: Some(v),
                certificates,
                constants: Vec::new(),
            }
        })
        .collect()
}

fn papers(cat: &super::Catalogue) -> BTreeMap<String, PaperFile> {
    let mut m = BTreeMap::new();
    for t in &cat.theorems {
        let p = t
            .paper
            .clone()
            .expect("catalogue files have a paper record");
        m.insert(balloc::blueprint::paper_of(&t.id, true), p);
    }
    m
}

/// The site of the whole catalogue, written once (the browser test and the structure test
/// share it).
fn site_dir() -> &'static PathBuf {
    static SITE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    SITE.get_or_init(|| {
        let cat = catalogue();
        let items = items(cat);
        let s = site::build(&items, &papers(cat));
        // Every statement of the catalogue is typeset: a statement shown as source text is a
        // malformed statement to fix in its file.
        assert!(
            s.warnings.is_empty(),
            "{} statement(s) shown as source text: {:#?}",
            s.warnings.len(),
            s.warnings
        );
        for (rel, bytes) in &s.files {
            let p = cat.site.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, bytes).unwrap();
        }
        cat.site.clone()
    })
}

#[test]
fn every_item_has_a_page_and_every_proved_item_its_certificate() {
    let cat = catalogue();
    let dir = site_dir();
    let html = |p: &str| std::fs::read_to_string(dir.join(p)).unwrap();
    let index = html("index.html");
    let mut pages = 0;
    for (t, v) in cat.theorems.iter().zip(&cat.verdicts) {
        let (paper, name) = t.id.split_once('/').unwrap();
        let page = html(&format!("{paper}/{name}.html"));
        pages += 1;
        assert!(page.contains("<math"), "{}: no MathML", t.id);
        assert!(
            page.contains(&format!("{} ({})", v.verdict.name(), v.trust.name())),
            "{}",
            t.id
        );
        // The internal structure: the chain's links (with their verdicts) and the hypotheses.
        let claim = t.file.claim.get_ref();
        if claim.contains_key("chain") {
            assert!(page.contains("<ol class=\"chain\">"), "{}", t.id);
            assert!(page.contains("<h2>Links of the chain</h2>"), "{}", t.id);
            assert_eq!(
                page.matches("<tr><td><code>").count(),
                v.links.len(),
                "{}: one row per link",
                t.id
            );
        }
        if claim.contains_key("given") {
            assert!(page.contains("<ul class=\"given\">"), "{}", t.id);
        }
        if v.verdict == claim::Status::Proved {
            assert!(page.contains("download"), "{}: no certificate link", t.id);
            for (_, p) in claim::kind::real::problems(t, &dir.join("certificates")).unwrap() {
                let text = std::fs::read_to_string(&p).unwrap();
                assert!(text.trim_start().starts_with('{'), "{}", p.display());
            }
        }
        assert!(index.contains(&format!("href=\"{paper}/index.html\"")));
    }
    assert_eq!(pages, cat.theorems.len());
}

/// The page's facts for the test, gathered by the browser.
const FACTS: &str = r#"(() => {
  const st = [...document.querySelectorAll('.statement')].map(d => {
    const m = d.querySelector('math');
    return { id: d.dataset.id, math: !!m && (m instanceof MathMLElement),
             height: m ? m.getBoundingClientRect().height : 0,
             dollar: d.textContent.includes('$'), warning: !!d.querySelector('.warning') };
  });
  const abs = h => new URL(h, document.baseURI).href.split('#')[0];
  const hrefs = [...document.querySelectorAll('a[href]')].map(a => abs(a.getAttribute('href')));
  const nodes = {};
  document.querySelectorAll('svg a[data-id]').forEach(a => { nodes[a.dataset.id] = abs(a.getAttribute('href')); });
  const edges = [...document.querySelectorAll('path.edge')].map(p => [p.dataset.from, p.dataset.to]);
  return { title: document.title, st, hrefs, nodes, edges };
})()"#;

/// Compares two PNG images (base64) in the page: whether the sizes agree, and the fraction of
/// pixels whose colour differs by more than 48 (of 255) in a channel.
fn compare_js(a: &str, b: &str) -> String {
    format!(
        r#"(async () => {{
  const load = s => new Promise((ok, no) => {{ const i = new Image(); i.onload = () => ok(i); i.onerror = () => no('decode'); i.src = 'data:image/png;base64,' + s; }});
  const [a, b] = await Promise.all([load('{a}'), load('{b}')]);
  if (a.width !== b.width || a.height !== b.height) return {{ same_size: false, size: [a.width, a.height, b.width, b.height], diff: 1 }};
  const px = img => {{ const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
    const x = c.getContext('2d'); x.drawImage(img, 0, 0); return x.getImageData(0, 0, img.width, img.height).data; }};
  const da = px(a), db = px(b); let bad = 0;
  for (let i = 0; i < da.length; i += 4) {{
    if (Math.max(Math.abs(da[i] - db[i]), Math.abs(da[i + 1] - db[i + 1]), Math.abs(da[i + 2] - db[i + 2])) > 48) bad++;
  }}
  return {{ same_size: true, size: [a.width, a.height], diff: bad / (da.length / 4) }};
}})()"#
    )
}

/// The largest fraction of differing pixels a screenshot may have against the committed one
/// (anti-aliasing and font hinting differ slightly between builds of the same browser).
const SCREENSHOT_TOLERANCE: f64 = 0.002;

/// Takes the screenshot `clip` of the open page and compares it with (or, with
/// `BALLOC_UPDATE_SCREENSHOTS=1`, writes it to) `docs/<name>`.
fn screenshot(b: &mut cdp::Browser, clip: (f64, f64, f64, f64), name: &str) {
    let shot = b.screenshot(clip);
    let file = Path::new("docs").join(name);
    if std::env::var("BALLOC_UPDATE_SCREENSHOTS").is_ok_and(|v| v == "1") {
        std::fs::write(&file, cdp::unbase64(&shot)).unwrap();
        eprintln!("wrote {}", file.display());
        return;
    }
    let committed = std::fs::read(&file).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; create it with BALLOC_UPDATE_SCREENSHOTS=1 cargo test --test suite theorems::blueprint",
            file.display()
        )
    });
    let r = b.eval(&compare_js(&shot, &cdp::base64(&committed)));
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&out, cdp::unbase64(&shot)).unwrap();
    assert!(
        r["same_size"] == true && r["diff"].as_f64().unwrap() <= SCREENSHOT_TOLERANCE,
        "{} differs from what the browser renders now ({r}); the new one is {}; refresh with BALLOC_UPDATE_SCREENSHOTS=1 cargo test --test suite theorems::blueprint",
        file.display(),
        out.display()
    );
}

#[test]
fn blueprint_site_in_a_real_browser() {
    let cat = catalogue();
    let dir = site_dir();
    let Some(exe) = cdp::find() else {
        missing("chromium");
        return;
    };
    let root_url = format!("file://{}/", std::fs::canonicalize(dir).unwrap().display());
    let mut b = cdp::Browser::start(&exe, 1280, 900);
    // Crawl from the index.
    let mut queue = vec![format!("{root_url}index.html")];
    let mut seen: BTreeSet<String> = queue.iter().cloned().collect();
    let mut statements: BTreeMap<String, serde_json::Value> = BTreeMap::new();
    let mut edges = 0;
    let mut broken = Vec::new();
    while let Some(url) = queue.pop() {
        if let Err(e) = b.open(&url) {
            broken.push(format!("{url}: {e}"));
            continue;
        }
        let facts = b.eval(FACTS);
        for s in facts["st"].as_array().unwrap() {
            statements.insert(s["id"].as_str().unwrap().to_string(), s.clone());
        }
        for e in facts["edges"].as_array().unwrap() {
            edges += 1;
            for end in [&e[0], &e[1]] {
                let id = end.as_str().unwrap();
                let href = facts["nodes"][id].as_str().unwrap_or_else(|| {
                    panic!("{url}: the edge {e} ends at `{id}`, which is no node of the graph")
                });
                assert!(href.starts_with(&root_url), "{url}: {href}");
            }
        }
        let nodes = facts["nodes"].as_object().unwrap().values();
        let hrefs = facts["hrefs"].as_array().unwrap().iter().chain(nodes);
        for h in hrefs {
            let h = h.as_str().unwrap().to_string();
            let Some(rel) = h.strip_prefix(&root_url) else {
                continue;
            };
            if h.ends_with(".html") {
                if seen.insert(h.clone()) {
                    queue.push(h);
                }
            } else {
                // A download (certificate): the file exists.
                assert!(
                    dir.join(rel).is_file(),
                    "{url} links {h}, which does not exist"
                );
            }
        }
    }
    assert!(broken.is_empty(), "pages that did not load: {broken:#?}");
    assert!(edges > 0, "no dependency edge drawn");
    // Every item page was reached, and its statement is MathML that the browser lays out.
    for t in &cat.theorems {
        let (paper, name) = t.id.split_once('/').unwrap();
        let page = format!("{root_url}{paper}/{name}.html");
        assert!(
            seen.contains(&page),
            "{} is not reachable from the index",
            t.id
        );
        let s = &statements[&t.id];
        assert!(
            s["math"] == true && s["height"].as_f64().unwrap() > 0.0,
            "{}: the statement is not rendered as MathML ({s})",
            t.id
        );
        assert!(
            s["dollar"] == false && s["warning"] == false,
            "{}: {s}",
            t.id
        );
    }
    // The screenshots of the batched paper's graph and of one item page.
    b.open(&format!("{root_url}batched-2022/index.html"))
        .unwrap();
    let rect = b.eval(
        "(() => { const r = document.querySelector('.graph svg').getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY, r.width, r.height]; })()",
    );
    let r: Vec<f64> = rect
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    screenshot(
        &mut b,
        (r[0], r[1], r[2].min(1600.0), r[3].min(1400.0)),
        "blueprint-batched-graph.png",
    );
    b.open(&format!(
        "{root_url}batched-2022/key-inequality-delta-1-2.html"
    ))
    .unwrap();
    screenshot(&mut b, (0.0, 0.0, 1280.0, 900.0), "blueprint-item.png");
    assert!(
        b.errors.is_empty(),
        "the console shows errors: {:#?}",
        b.errors
    );
}

/// Runs `pdflatex` on `tex` in `dir` (twice when `twice`, for longtable's column widths);
/// returns the log, or `None` (after [`missing`]) without `pdflatex`.
fn pdflatex(dir: &Path, name: &str, tex: &str, twice: bool) -> Option<String> {
    let found = std::process::Command::new("pdflatex")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        missing("pdflatex");
        return None;
    }
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join(format!("{name}.tex")), tex).unwrap();
    for _ in 0..if twice { 2 } else { 1 } {
        let out = std::process::Command::new("pdflatex")
            .args([
                "-interaction=nonstopmode",
                "-halt-on-error",
                &format!("{name}.tex"),
            ])
            .current_dir(dir)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let log = std::fs::read_to_string(dir.join(format!("{name}.log"))).unwrap_or_default();
        let errors: Vec<&str> = log.lines().filter(|l| l.starts_with('!')).collect();
        assert!(
            out.status.success() && errors.is_empty(),
            "pdflatex failed on {}: {errors:#?}\n{}",
            dir.join(format!("{name}.tex")).display(),
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .rev()
                .take(30)
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    assert!(dir.join(format!("{name}.pdf")).is_file());
    Some(std::fs::read_to_string(dir.join(format!("{name}.log"))).unwrap())
}

#[test]
fn latex_report_of_the_catalogue_compiles() {
    let cat = catalogue();
    let items = items(cat);
    let tex = balloc::report::latex(&items, &papers(cat), true);
    // Every item is in the table, and every statistical item with observations has its figure.
    for t in &cat.theorems {
        let title = balloc::report::tex_text(&t.file.title);
        assert!(
            tex.contains(&title),
            "{}: its title is not in the report",
            t.id
        );
    }
    let figures = cat
        .verdicts
        .iter()
        .filter(|v| !v.observations.is_empty())
        .count();
    assert!(figures > 0, "no statistical item has observations");
    assert_eq!(tex.matches("\\begin{tikzpicture}").count(), figures);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-latex");
    let Some(_log) = pdflatex(&dir, "report", &tex, false) else {
        return;
    };
    // Markdown: one row per item.
    let md = balloc::report::markdown(&items, &papers(cat));
    for t in &cat.theorems {
        assert!(md.contains(&format!("`{}`", t.id)), "{}", t.id);
    }
}

#[test]
fn a_pgf_plot_fits_the_line_width_of_an_article() {
    use balloc::plot::{Axis, Plot, Point, Series};
    // Two series with long legend entries and large integer ticks, as `simulate --plot` writes.
    let mut p = Plot::new(
        "Two-Choice: gap, n = 1000, b = 1",
        Axis::linear("balls").integer().from_zero(),
        Axis::linear("gap (max x − W/n)").from_zero(),
    );
    let pts = |k: f64| {
        (1..=10)
            .map(|i| Point::with_interval(i as f64 * 1e5, k + i as f64 / 10.0, k, k + 1.0))
            .collect::<Vec<_>>()
    };
    p.series.push(Series::new("gap", pts(1.0)));
    p.series.push(Series::new(
        "max gap so far, averaged over the runs",
        pts(2.0),
    ));
    let tex = format!(
        "\\documentclass{{article}}\n\\usepackage[T1]{{fontenc}}\n\\usepackage{{pgfplots}}\n\\pgfplotsset{{compat=1.16}}\n\\begin{{document}}\n\\noindent {}\\end{{document}}\n",
        p.tikz().unwrap()
    );
    assert!(tex.contains("0.2\\cdot 10^{6}"), "ticks as powers of ten");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pgf-width");
    let Some(log) = pdflatex(&dir, "plot", &tex, false) else {
        return;
    };
    assert!(
        !log.contains("Overfull \\hbox"),
        "the picture is wider than \\linewidth: {}",
        log.lines()
            .filter(|l| l.contains("Overfull"))
            .collect::<Vec<_>>()
            .join("; ")
    );
}
