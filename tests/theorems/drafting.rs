//! The drafting loop and its papercuts: `check --watch` on a file the test edits, drafts outside
//! `theorems/` without `statement` and `[source]`, `check ID` from a subdirectory, `uses`
//! (unknown ids, cycles), the blueprint and the report on a small selection (an unwritable
//! `--out`, a statement that cannot be typeset, the constant finder's bracket), plot formats by
//! extension, and the names of the claim language (a misspelt name, a potential declared by its
//! symbol).

use crate::common::{scratch_in, write};
use balloc::cli::run_args;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_balloc");

/// A draft with only the required fields: two-choice at n = 4, a claim over Υ.
fn draft(expr: &str) -> String {
    format!(
        "title = \"draft\"\nkind = \"inequality\"\nexpected = \"open\"\n[setting]\nprocesses = [\"two-choice\"]\n[claim]\nexpr = \"{expr}\"\n[domain]\nn = [4]\nexhaustive = {{ max_n = 4, max_load = 2 }}\n"
    )
}

/// A fresh scratch folder outside any theorem directory's paper folders.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("drafting-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes `text` to `path` as an editor does: a temporary file renamed over it.
fn save(path: &Path, text: &str) {
    let tmp = path.with_extension("swp");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

#[test]
fn watch_prints_a_change_of_verdict_once() {
    let dir = scratch("watch");
    let file = dir.join("draft.toml");
    // Υ ≥ 0 holds at every state; Υ < 0 is refuted at the first (exact rationals).
    save(&file, &draft("Upsilon >= 0"));
    let mut child = Command::new(BIN)
        .args(["check", "--watch", "draft.toml"])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (tx, rx) = channel();
    let out = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    let wait_for = |what: &str, within: Duration, lines: &mut Vec<String>| -> bool {
        let end = Instant::now() + within;
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match rx.recv_timeout(left) {
                Ok(l) => {
                    let hit = l.contains(what);
                    lines.push(l);
                    if hit {
                        return true;
                    }
                }
                Err(_) => return false,
            }
        }
        false
    };
    let started = wait_for("watching 1 file(s)", Duration::from_secs(120), &mut lines);
    assert!(started, "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("draft") && l.contains("holds")),
        "{lines:#?}"
    );
    save(&file, &draft("Upsilon < 0"));
    let changed = wait_for("changed:", Duration::from_secs(120), &mut lines);
    // The same content saved again changes no verdict: nothing more is printed.
    save(&file, &draft("Upsilon < 0"));
    wait_for("changed:", Duration::from_secs(3), &mut lines);
    let _ = child.kill();
    let _ = child.wait();
    assert!(changed, "{lines:#?}");
    let changes: Vec<&String> = lines.iter().filter(|l| l.starts_with("changed:")).collect();
    assert_eq!(changes.len(), 1, "{lines:#?}");
    assert!(
        changes[0].contains("holds (trust exact) → refuted (trust exact)"),
        "{lines:#?}"
    );
    // The new verdict's block follows, with its counterexample.
    assert!(
        lines.iter().any(|l| l.contains("counterexample: n = 4")),
        "{lines:#?}"
    );
}

#[test]
fn a_draft_needs_no_statement_or_source_but_a_catalogue_file_does() {
    let dir = scratch("draft");
    let file = dir.join("d.toml");
    std::fs::write(&file, draft("Upsilon >= 0")).unwrap();
    let o = run_args(["check", file.to_str().unwrap()]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("holds"), "{}", o.stdout);
    // The same file under a theorem directory names the missing field.
    let root = scratch_in("drafting", "catalogue");
    let p = write(&root, "d", &draft("Upsilon >= 0"));
    let o = run_args([
        "check",
        "--theorems",
        root.to_str().unwrap(),
        p.to_str().unwrap(),
    ]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("missing field `statement`"),
        "{}",
        o.stderr
    );
    assert_eq!(o.stderr.lines().count(), 1);
}

#[test]
fn check_finds_the_theorem_directory_upwards() {
    // From src/ (inside the repository): the id resolves against ../theorems.
    let o = Command::new(BIN)
        .args(["check", "ptw/real-ln-one-plus-x"])
        .current_dir("src")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        out.contains("ptw/real-ln-one-plus-x") && out.contains("proved"),
        "{out}"
    );
    // Outside any repository: the error says to give --theorems.
    let outside = std::env::temp_dir().join(format!("balloc-nowhere-{}", std::process::id()));
    std::fs::create_dir_all(&outside).unwrap();
    let o = Command::new(BIN)
        .args(["check", "ptw/real-ln-one-plus-x"])
        .current_dir(&outside)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    let _ = std::fs::remove_dir_all(&outside);
    if Path::new("/theorems").is_dir() {
        return; // a theorem directory at the file system's root would be found
    }
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--theorems"), "{err}");
}

/// A catalogue file with `uses`.
fn with_uses(uses: &[&str], expr: &str) -> String {
    let list: Vec<String> = uses.iter().map(|u| format!("\"{u}\"")).collect();
    format!(
        "title = \"t\"\nkind = \"inequality\"\nexpected = \"holds\"\nstatement = '''\\Upsilon \\ge 0'''\nuses = [{}]\n[source]\nlocator = \"test\"\nprovenance = \"derived\"\n[setting]\nprocesses = [\"two-choice\"]\n[claim]\nexpr = \"{expr}\"\n[domain]\nn = [4]\nexhaustive = {{ max_n = 4, max_load = 2 }}\n",
        list.join(", ")
    )
}

#[test]
fn unknown_uses_ids_and_cycles_are_errors() {
    let root = scratch_in("drafting", "uses");
    let r = root.to_str().unwrap();
    write(&root, "lemma", &with_uses(&[], "Upsilon >= 0"));
    write(&root, "theorem", &with_uses(&["t/lemmma"], "Upsilon >= 0"));
    let o = run_args(["check", "--theorems", r, "t/theorem"]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr
            .contains("uses: unknown id `t/lemmma`; did you mean `t/lemma`?"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("theorem.toml:5:"), "{}", o.stderr);
    // A cycle through two files.
    write(&root, "theorem", &with_uses(&["t/lemma"], "Upsilon >= 0"));
    write(&root, "lemma", &with_uses(&["t/theorem"], "Upsilon >= 0"));
    let o = run_args(["check", "--theorems", r, "t/theorem"]);
    assert_eq!(o.code, 2, "{}", o.stdout);
    assert!(
        o.stderr
            .contains("uses: a cycle: t/theorem → t/lemma → t/theorem"),
        "{}",
        o.stderr
    );
    // A file that uses itself.
    write(&root, "lemma", &with_uses(&["t/lemma"], "Upsilon >= 0"));
    let o = run_args(["check", "--theorems", r, "t/lemma"]);
    assert!(o.stderr.contains("is this file itself"), "{}", o.stderr);
}

#[test]
fn blueprint_and_report_of_a_small_selection() {
    let root = scratch_in("drafting", "blueprint");
    let r = root.to_str().unwrap();
    // The lemma's tightest constant: gap ≤ c at the single state (3, 0, 1, 0), whose gap is
    // 3 − 1 = 2 (W/n = 1): the finder brackets c = 2.
    write(
        &root,
        "lemma",
        "title = \"gap bound\"\nkind = \"inequality\"\nexpected = \"holds\"\nstatement = '''\\mathrm{gap} \\le c'''\n[source]\nlocator = \"test\"\nprovenance = \"derived\"\n[setting]\nprocesses = [\"two-choice\"]\n[constants]\nc = 5\n[tighten]\nc = \"smallest\"\n[claim]\nexpr = \"gap <= c\"\n[domain]\nstates = [[3, 0, 1, 0]]\nfamilies = []\n",
    );
    // The theorem uses it; its statement cannot be typeset (an unknown command).
    write(
        &root,
        "theorem",
        &with_uses(&["t/lemma"], "Upsilon >= 0").replace("\\Upsilon \\ge 0", "\\nosuchmacro{x}"),
    );
    let out = scratch("site");
    let o = run_args([
        "blueprint",
        "--theorems",
        r,
        "--out",
        out.to_str().unwrap(),
        "--constants",
        "t/theorem",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout
            .contains("2 item(s) of 1 paper(s) (1 checked), 1 statement(s) shown as source text"),
        "{}",
        o.stdout
    );
    assert!(o.stderr.contains("nosuchmacro"), "{}", o.stderr);
    let page = std::fs::read_to_string(out.join("t/theorem.html")).unwrap();
    assert!(page.contains("could not be typeset") && page.contains("\\nosuchmacro{x}"));
    assert!(page.contains("href=\"../t/lemma.html\""), "{page}");
    // The lemma was reached through `uses` only: a page, not checked.
    let lemma = std::fs::read_to_string(out.join("t/lemma.html")).unwrap();
    assert!(lemma.contains("Not checked in this run"), "{lemma}");
    let graph = std::fs::read_to_string(out.join("t/index.html")).unwrap();
    assert!(graph.contains("data-from=\"t/lemma\" data-to=\"t/theorem\""));
    // The lemma checked with the constant finder: its bracket around 2.
    let o = run_args([
        "blueprint",
        "--theorems",
        r,
        "--out",
        out.to_str().unwrap(),
        "--constants",
        "t/lemma",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let lemma = std::fs::read_to_string(out.join("t/lemma.html")).unwrap();
    let table = lemma
        .split("<table class=\"constants\">")
        .nth(1)
        .expect("a constant table");
    let row = table.split("</tr>").nth(1).unwrap();
    let cells: Vec<&str> = row
        .split("<td>")
        .skip(1)
        .map(|c| c.split('<').next().unwrap_or(c))
        .collect();
    let code = |i: usize| -> f64 {
        row.split("<code>")
            .nth(i)
            .unwrap()
            .split('<')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    // n = 4; holds at c ≥ 2 (exact), fails just below (exact), within the finder's 10⁻⁶.
    assert_eq!(cells[0], "4", "{row}");
    let (holds, fails) = (code(1), code(2));
    assert!(
        holds >= 2.0 && holds - 2.0 < 1e-5 && fails < 2.0 && 2.0 - fails < 1e-5,
        "{row}"
    );
    assert!(row.matches("exact").count() == 2, "{row}");
    // An unwritable --out (a path under a file) is refused before anything runs.
    let file = out.join("index.html");
    let bad = file.join("sub");
    let o = run_args([
        "blueprint",
        "--theorems",
        r,
        "--out",
        bad.to_str().unwrap(),
        "t/lemma",
    ]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.starts_with("error: --out: cannot create"),
        "{}",
        o.stderr
    );
    // The report of the same selection: LaTeX with the constant as a fraction, and Markdown.
    let o = run_args(["report", "--theorems", r, "--format", "latex", "t/lemma"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains("\\begin{longtable}") && o.stdout.contains("$\\mathit{c} = 5$"),
        "{}",
        o.stdout
    );
    let o = run_args(["report", "--theorems", r, "--format", "markdown", "t/lemma"]);
    assert!(o.stdout.contains("| `t/lemma` gap bound |"), "{}", o.stdout);
    let o = run_args([
        "report",
        "--theorems",
        r,
        "--format",
        "markdown",
        "--standalone",
        "t/lemma",
    ]);
    assert_eq!(o.code, 2);
}

#[test]
fn plots_are_written_in_the_format_their_extension_names() {
    let dir = scratch("plots");
    let run = |file: &str, extra: &[&str]| {
        let path = dir.join(file);
        let mut args = vec![
            "simulate",
            "--process",
            "two-choice",
            "--n",
            "16",
            "--balls",
            "160",
            "--runs",
            "3",
            "--plot",
            path.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        (run_args(args.iter().copied()), path)
    };
    let (o, path) = run("gap.pgf", &["--potential", "quadratic"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let pgf = std::fs::read_to_string(&path).unwrap();
    assert!(
        pgf.starts_with("% balloc plot") && pgf.contains("title={Two-Choice: gap, n = 16, b = 1}"),
        "{pgf}"
    );
    // The requested potential has its own plot next to it.
    let pot = std::fs::read_to_string(dir.join("gap-quadratic.pgf")).unwrap();
    assert!(pot.contains("\\addlegendentry{quadratic}"), "{pot}");
    let (o, path) = run("gap.svg", &[]);
    assert_eq!(o.code, 0);
    assert!(std::fs::read_to_string(&path).unwrap().starts_with("<svg"));
    // A format that is not known, or PNG without the feature, is refused before any run and
    // writes nothing (an existing file is kept).
    std::fs::write(dir.join("gap.jpg"), b"keep").unwrap();
    let (o, path) = run("gap.jpg", &[]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("unsupported extension `.jpg`"),
        "{}",
        o.stderr
    );
    assert_eq!(std::fs::read(&path).unwrap(), b"keep");
    let (o, path) = run("gap.png", &[]);
    if cfg!(feature = "png-pdf") {
        assert_eq!(o.code, 0);
        assert!(std::fs::read(&path).unwrap().starts_with(b"\x89PNG"));
    } else {
        assert_eq!(o.code, 2);
        assert!(o.stderr.contains("cargo feature `png-pdf`"), "{}", o.stderr);
        assert_eq!(o.stderr.lines().count(), 1);
        assert!(!path.exists());
    }
}

#[test]
fn sweep_plots_its_grid() {
    let dir = scratch("sweep");
    std::fs::write(
        dir.join("grid.toml"),
        "runs = 3\nseed = 1\noutput = \"grid\"\n[grid]\nprocess = [\"two-choice\", \"one-choice\"]\nn = [16]\nbatch = [1, 16]\nballs = [160]\n",
    )
    .unwrap();
    let plot = dir.join("grid.svg");
    let o = run_args([
        "sweep",
        dir.join("grid.toml").to_str().unwrap(),
        "--plot",
        plot.to_str().unwrap(),
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let svg = std::fs::read_to_string(&plot).unwrap();
    // Two series (one per process, in words) against the batch size.
    assert!(
        svg.contains("against batch")
            && svg.contains(">Two-Choice<")
            && svg.contains(">One-Choice<"),
        "{svg}"
    );
}

#[test]
fn names_of_the_claim_language() {
    let dir = scratch("names");
    let file = dir.join("d.toml");
    std::fs::write(&file, draft("dE_Upsilonn <= 1")).unwrap();
    let o = run_args(["check", file.to_str().unwrap()]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("did you mean `dE_Upsilon`?"),
        "{}",
        o.stderr
    );
    // A potential declared by the name the claim uses (its symbol) and by its registry name.
    for declared in ["Delta", "absolute"] {
        let text = draft("dE_Delta <= 1").replace(
            "[setting]\n",
            &format!("[setting]\npotentials = [\"{declared}\"]\n"),
        );
        std::fs::write(&file, text).unwrap();
        let o = run_args(["check", file.to_str().unwrap()]);
        assert_eq!(o.code, 0, "{declared}: {}", o.stderr);
    }
}
