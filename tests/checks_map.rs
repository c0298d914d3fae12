//! `theorems/CHECKS.md`, the map from the papers' printed items to the theorem files, is kept true:
//! every file it names exists, every theorem file is named, the totals equal the counts of the rows,
//! a refuted row names a file expected to be refuted, and each paper's `REPORT.md` lists the same
//! items with the same statuses and counts (its section "Items as printed", above "Verdicts").
//!
//! The audit is a function of the texts ([`audit`]), so that the tests below can also show that
//! each of these checks fails on a document that breaks it (a row removed, a file misnamed, a total
//! changed, a refuted row without a refuted file, a report out of step).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The statuses of an item, in the order of the totals table's columns.
const STATUSES: [&str; 5] = [
    "as stated",
    "weaker",
    "refuted",
    "not checkable",
    "not yet checked",
];

/// The header of the item tables of `CHECKS.md`.
const ITEM_HEADER: [&str; 3] = ["item", "status", "files"];
/// The header of the totals table of `CHECKS.md`.
const TOTALS_HEADER: [&str; 7] = [
    "paper",
    "as stated",
    "weaker",
    "refuted",
    "not checkable",
    "not yet checked",
    "items",
];
/// The header of the table under "Items as printed" in a `REPORT.md`.
const REPORT_HEADER: [&str; 4] = ["item", "printed statement (short)", "status", "files"];

/// One row of an item table: the paper (the section it stands in), the item, its status, the
/// files it names.
#[derive(Debug, Clone, PartialEq)]
struct Item {
    paper: String,
    item: String,
    status: usize,
    files: Vec<String>,
}

fn theorems_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("theorems")
}

/// The paper folders: the directories under `theorems/` with a `paper.toml`.
fn papers(theorems: &Path) -> BTreeSet<String> {
    std::fs::read_dir(theorems)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("paper.toml").is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

/// The ids (`<paper>/<name>`) of every theorem file other than `paper.toml`.
fn theorem_ids(theorems: &Path) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for paper in papers(theorems) {
        for e in std::fs::read_dir(theorems.join(&paper)).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix(".toml")
                && stem != "paper"
            {
                ids.insert(format!("{paper}/{stem}"));
            }
        }
    }
    ids
}

/// The cells of a table row `| a | b \| c |`: trimmed, `\|` kept as a literal bar.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut out = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                out.last_mut().unwrap().push('|');
                chars.next();
            }
            '|' => out.push(String::new()),
            _ => out.last_mut().unwrap().push(c),
        }
    }
    out.into_iter().map(|c| c.trim().to_string()).collect()
}

/// The text between backticks.
fn backticked(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The status a cell starts with (its index in [`STATUSES`]).
fn status_of(cell: &str) -> Option<usize> {
    STATUSES.iter().position(|s| cell.starts_with(s))
}

/// The tables of a markdown text: (the `## ` section they stand in, header cells, row cells).
fn tables(text: &str) -> Vec<(String, Vec<String>, Vec<Vec<String>>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut section = String::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(h) = line.strip_prefix("## ") {
            section = h.trim().to_string();
        }
        let is_table = line.trim_start().starts_with('|')
            && lines
                .get(i + 1)
                .is_some_and(|l| l.trim_start().starts_with("|---"));
        if !is_table {
            i += 1;
            continue;
        }
        let header = cells(line);
        let mut rows = Vec::new();
        i += 2;
        while i < lines.len() && lines[i].trim_start().starts_with('|') {
            rows.push(cells(lines[i]));
            i += 1;
        }
        out.push((section.clone(), header, rows));
    }
    out
}

/// The file ids of a files cell (`—` when none).
fn files_of(cell: &str) -> Vec<String> {
    backticked(cell)
}

/// The item rows of `CHECKS.md` and its totals (per paper: counts by status, number of items).
#[allow(clippy::type_complexity)]
fn parse_checks(
    text: &str,
    papers: &BTreeSet<String>,
    problems: &mut Vec<String>,
) -> (Vec<Item>, BTreeMap<String, ([usize; 5], usize)>) {
    let mut items = Vec::new();
    let mut totals = BTreeMap::new();
    for (section, header, rows) in tables(text) {
        if header == TOTALS_HEADER {
            for r in rows {
                let nums: Vec<Option<usize>> = r[1..].iter().map(|c| c.parse().ok()).collect();
                if r.len() != 7 || nums.iter().any(Option::is_none) {
                    problems.push(format!("CHECKS.md: malformed totals row {r:?}"));
                    continue;
                }
                let nums: Vec<usize> = nums.into_iter().map(Option::unwrap).collect();
                let by_status = [nums[0], nums[1], nums[2], nums[3], nums[4]];
                totals.insert(r[0].clone(), (by_status, nums[5]));
            }
        } else if header == ITEM_HEADER {
            let paper = section.split_whitespace().next().unwrap_or("").to_string();
            if !papers.contains(&paper) {
                problems.push(format!(
                    "CHECKS.md: an item table under \"## {section}\", which names no paper folder"
                ));
                continue;
            }
            for r in rows {
                if r.len() != 3 {
                    problems.push(format!("CHECKS.md: malformed item row {r:?}"));
                    continue;
                }
                let Some(status) = status_of(&r[1]) else {
                    problems.push(format!(
                        "CHECKS.md: {paper}, \"{}\": unknown status \"{}\"",
                        r[0], r[1]
                    ));
                    continue;
                };
                items.push(Item {
                    paper: paper.clone(),
                    item: r[0].clone(),
                    status,
                    files: files_of(&r[2]),
                });
            }
        }
    }
    (items, totals)
}

/// The rows of the section "Items as printed" of a `REPORT.md` (item, status) and its counts line.
fn parse_report(
    paper: &str,
    text: &str,
    problems: &mut Vec<String>,
) -> (Vec<(String, usize)>, Option<String>) {
    let start = text.find("\n## Items as printed\n");
    let verdicts = text.find("\n## Verdicts\n");
    let Some(start) = start else {
        problems.push(format!(
            "{paper}/REPORT.md: no section \"## Items as printed\""
        ));
        return (Vec::new(), None);
    };
    match verdicts {
        Some(v) if v > start => {}
        _ => problems.push(format!(
            "{paper}/REPORT.md: \"## Items as printed\" must stand above \"## Verdicts\""
        )),
    }
    let body = &text[start + 1..];
    let end = body[3..].find("\n## ").map_or(body.len(), |e| e + 3);
    let section = &body[..end];
    let counts = section
        .lines()
        .find_map(|l| l.strip_prefix("Counts: "))
        .map(str::to_string);
    let mut rows = Vec::new();
    for (_, header, table) in tables(section) {
        if header != REPORT_HEADER {
            continue;
        }
        for r in table {
            match (r.len(), r.get(2).and_then(|c| status_of(c.as_str()))) {
                (4, Some(s)) => rows.push((r[0].clone(), s)),
                _ => problems.push(format!("{paper}/REPORT.md: malformed item row {r:?}")),
            }
        }
    }
    (rows, counts)
}

/// The counts line of a report for these counts: `as stated 0, weaker 19, … (28 items).`
fn counts_line(by_status: &[usize; 5], items: usize) -> String {
    let parts: Vec<String> = STATUSES
        .iter()
        .zip(by_status)
        .map(|(s, c)| format!("{s} {c}"))
        .collect();
    format!("{} ({items} items).", parts.join(", "))
}

/// Everything wrong with `checks` (the text of `CHECKS.md`) and `reports` (paper → the text of its
/// `REPORT.md`) against the theorem files under `theorems`; empty when the map is true.
fn audit(checks: &str, reports: &BTreeMap<String, String>, theorems: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let papers = papers(theorems);
    let (items, totals) = parse_checks(checks, &papers, &mut problems);

    // (a) Every file named exists: `<paper>/<name>` is `<paper>/<name>.toml`, a name with an
    // extension (a tree file) is the file itself.
    let mut named = BTreeSet::new();
    for token in backticked(checks) {
        let mut parts = token.splitn(2, '/');
        let (Some(paper), Some(name)) = (parts.next(), parts.next()) else {
            continue;
        };
        if !papers.contains(paper) || name.is_empty() {
            continue;
        }
        let path = if name.contains('.') {
            theorems.join(paper).join(name)
        } else {
            theorems.join(paper).join(format!("{name}.toml"))
        };
        if !path.is_file() {
            problems.push(format!(
                "CHECKS.md names `{token}`, which does not exist ({})",
                path.display()
            ));
        }
        named.insert(token);
    }

    // (b) Every theorem file is named at least once.
    for id in theorem_ids(theorems) {
        if !named.contains(&id) {
            problems.push(format!("CHECKS.md does not name `{id}`"));
        }
    }

    // (c) The totals equal the counts of the rows, paper by paper.
    let mut counted: BTreeMap<String, ([usize; 5], usize)> = BTreeMap::new();
    for it in &items {
        let e = counted.entry(it.paper.clone()).or_default();
        e.0[it.status] += 1;
        e.1 += 1;
    }
    for paper in counted.keys().chain(totals.keys()).collect::<BTreeSet<_>>() {
        match (counted.get(paper), totals.get(paper)) {
            (Some(c), Some(t)) if c == t => {}
            (Some(c), Some(t)) => problems.push(format!(
                "CHECKS.md: the totals of {paper} say {} but its rows count {}",
                counts_line(&t.0, t.1),
                counts_line(&c.0, c.1)
            )),
            (Some(_), None) => problems.push(format!("CHECKS.md: no totals row for {paper}")),
            (None, _) => {
                problems.push(format!("CHECKS.md: totals for {paper}, which has no items"))
            }
        }
    }

    // (d) A checked row names its files; a refuted row names a file expected to be refuted.
    for it in &items {
        let checked = STATUSES[it.status] == "as stated"
            || STATUSES[it.status] == "weaker"
            || STATUSES[it.status] == "refuted";
        if checked && it.files.is_empty() {
            problems.push(format!(
                "CHECKS.md: {}, \"{}\" is {} but names no file",
                it.paper, it.item, STATUSES[it.status]
            ));
        }
        if STATUSES[it.status] == "refuted" {
            let refuting = it.files.iter().any(|f| {
                let path = theorems.join(format!("{f}.toml"));
                std::fs::read_to_string(&path)
                    .ok()
                    .and_then(|t| toml::from_str::<toml::Table>(&t).ok())
                    .and_then(|t| t.get("expected")?.as_str().map(|s| s == "refuted"))
                    .unwrap_or(false)
            });
            if !refuting {
                problems.push(format!(
                    "CHECKS.md: {}, \"{}\" is refuted but names no file expected to be refuted",
                    it.paper, it.item
                ));
            }
        }
    }

    // (e) Each paper's REPORT.md lists the same items, in the same order, with the same statuses
    // and counts.
    for (paper, (by_status, n)) in &counted {
        let Some(report) = reports.get(paper) else {
            problems.push(format!("{paper}/REPORT.md: missing"));
            continue;
        };
        let (rows, counts) = parse_report(paper, report, &mut problems);
        let ours: Vec<(String, usize)> = items
            .iter()
            .filter(|it| &it.paper == paper)
            .map(|it| (it.item.clone(), it.status))
            .collect();
        if rows != ours {
            let first = rows
                .iter()
                .zip(&ours)
                .position(|(a, b)| a != b)
                .unwrap_or(rows.len().min(ours.len()));
            problems.push(format!(
                "{paper}/REPORT.md: its items differ from CHECKS.md ({} rows against {}; first \
                 difference at row {}: {:?} against {:?})",
                rows.len(),
                ours.len(),
                first + 1,
                rows.get(first),
                ours.get(first)
            ));
        }
        let expected = counts_line(by_status, *n);
        if counts.as_deref() != Some(expected.as_str()) {
            problems.push(format!(
                "{paper}/REPORT.md: the counts line is {counts:?}, the rows give \"Counts: {expected}\""
            ));
        }
    }
    problems
}

/// The texts of the repository: `CHECKS.md` and every paper's `REPORT.md`.
fn repository() -> (String, BTreeMap<String, String>) {
    let theorems = theorems_dir();
    let checks = std::fs::read_to_string(theorems.join("CHECKS.md")).unwrap();
    let reports = papers(&theorems)
        .into_iter()
        .filter_map(|p| {
            let t = std::fs::read_to_string(theorems.join(&p).join("REPORT.md")).ok()?;
            Some((p, t))
        })
        .collect();
    (checks, reports)
}

#[test]
fn checks_map_is_true() {
    let (checks, reports) = repository();
    let problems = audit(&checks, &reports, &theorems_dir());
    assert!(
        problems.is_empty(),
        "theorems/CHECKS.md:\n{}",
        problems.join("\n")
    );
    // The map is not empty: four papers with items, each status used somewhere but "not yet
    // checked", which is empty once every checkable item has a file.
    let mut p = Vec::new();
    let (items, totals) = parse_checks(&checks, &papers(&theorems_dir()), &mut p);
    assert_eq!(totals.len(), 4, "{totals:?}");
    for (s, name) in STATUSES.iter().enumerate() {
        if *name != "not yet checked" {
            assert!(items.iter().any(|it| it.status == s), "no item is {name}");
        }
    }
}

/// The first item row of a paper's table in `CHECKS.md` (the line).
fn first_item_row<'a>(checks: &'a str, paper: &str) -> &'a str {
    let start = checks.find(&format!("\n## {paper}\n")).unwrap();
    checks[start..]
        .lines()
        .skip_while(|l| !l.starts_with("|---"))
        .nth(1)
        .unwrap()
}

#[test]
fn a_removed_row_breaks_the_totals_and_the_report() {
    let (checks, reports) = repository();
    let row = first_item_row(&checks, "batched-2022");
    let status = status_of(&cells(row)[1]).unwrap();
    // The rows then count one item fewer of that status than the totals say.
    let mut none = Vec::new();
    let (_, totals) = parse_checks(&checks, &papers(&theorems_dir()), &mut none);
    let (mut by_status, n) = totals["batched-2022"];
    let written = counts_line(&by_status, n);
    by_status[status] -= 1;
    let counted = counts_line(&by_status, n - 1);
    let fewer = checks.replacen(&format!("{row}\n"), "", 1);
    let problems = audit(&fewer, &reports, &theorems_dir());
    assert!(
        problems.contains(&format!(
            "CHECKS.md: the totals of batched-2022 say {written} but its rows count {counted}"
        )),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("batched-2022/REPORT.md: its items differ")),
        "{problems:?}"
    );
}

#[test]
fn a_misnamed_file_is_reported_and_so_is_the_file_left_unnamed() {
    let (checks, reports) = repository();
    // `gap-vs-deviation` is named once, in the row of §1.2.
    assert_eq!(
        checks.matches("`graphical-2022/gap-vs-deviation`").count(),
        1
    );
    let wrong = checks.replace(
        "`graphical-2022/gap-vs-deviation`",
        "`graphical-2022/gap-vs-deviations`",
    );
    let problems = audit(&wrong, &reports, &theorems_dir());
    assert!(
        problems
            .iter()
            .any(|p| p.contains("`graphical-2022/gap-vs-deviations`, which does not exist")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p == "CHECKS.md does not name `graphical-2022/gap-vs-deviation`"),
        "{problems:?}"
    );
}

#[test]
fn a_changed_total_is_reported() {
    let (checks, reports) = repository();
    let line = checks
        .lines()
        .find(|l| l.starts_with("| multidim-2011 |"))
        .unwrap();
    let mut c = cells(line);
    let refuted: usize = c[3].parse().unwrap();
    c[3] = (refuted + 1).to_string();
    let changed = checks.replace(line, &format!("| {} |", c.join(" | ")));
    let problems = audit(&changed, &reports, &theorems_dir());
    assert_eq!(
        problems.len(),
        1,
        "exactly the totals of multidim-2011: {problems:?}"
    );
    assert!(
        problems[0].starts_with("CHECKS.md: the totals of multidim-2011"),
        "{problems:?}"
    );
}

#[test]
fn a_refuted_row_without_a_refuted_file_is_reported() {
    let (checks, reports) = repository();
    // §1.2's telescoping sum is checked by `telescope`, expected to hold.
    let row = checks
        .lines()
        .find(|l| l.contains("`graphical-2022/telescope`") && l.contains("| as stated |"))
        .unwrap();
    let changed = checks.replace(row, &row.replace("| as stated |", "| refuted |"));
    let problems = audit(&changed, &reports, &theorems_dir());
    assert!(
        problems.iter().any(|p| p.contains(
            "\"§1.2, the telescoping sum\" is refuted but names no file expected to be refuted"
        )),
        "{problems:?}"
    );
}

#[test]
fn a_report_out_of_step_is_reported() {
    let (checks, mut reports) = repository();
    let report = reports.get_mut("mean-biased-2023").unwrap();
    let counts = report
        .lines()
        .find(|l| l.starts_with("Counts: "))
        .unwrap()
        .to_string();
    *report = report.replace(&counts, "Counts: as stated 0.");
    let problems = audit(&checks, &reports, &theorems_dir());
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("mean-biased-2023/REPORT.md: the counts line")),
        "{problems:?}"
    );
}

#[test]
fn table_cells_keep_escaped_bars() {
    assert_eq!(
        cells("| a | b \\| c | `x/y` |"),
        vec!["a".to_string(), "b | c".to_string(), "`x/y`".to_string()]
    );
    assert_eq!(backticked("`a/b`, `c/d` and e"), vec!["a/b", "c/d"]);
    assert_eq!(status_of("not yet checked: no file"), Some(4));
    assert_eq!(status_of("weaker: fixed β"), Some(1));
    assert_eq!(status_of("holds"), None);
}
