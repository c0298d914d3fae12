//! The layers of `src`: the file-level import graph has no circle, and every import between
//! top-level modules goes down the layers of ARCHITECTURE.md ("Layers").
//!
//! An *import* of a file is every path it names through `crate::`, `super::`, `self::`, a child
//! module or a module alias, in `use` declarations and inline (`crate::sim::kernel::Kernel::new`
//! counts as much as `use crate::sim::kernel::Kernel`), outside comments and string literals; it
//! goes to the file of the longest module prefix of the path. A module's face (`lib.rs`, a
//! `mod.rs`, or `x.rs` beside its folder `x/`) may name its own descendants — declaring them,
//! re-exporting them, listing them in its registry — without that being an import; every other
//! import is an arrow, and the arrows may form no circle.
//!
//! And only the modules whose work is files touch the file system: the reading and writing
//! sides (`input`, `output`), the application layer (`app`), the command line (`cli`) and the
//! theorem-file loader (`claim::schema`, `claim::uses`); the mathematics, the simulator, the
//! searches and the prover hand their bytes to `output`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Comments, string and character literals blanked (newlines kept).
fn strip(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let blank = |s: &str, out: &mut String| {
        for c in s.chars() {
            out.push(if c == '\n' { '\n' } else { ' ' });
        }
    };
    let mut i = 0;
    while i < b.len() {
        let rest = &src[i..];
        if rest.starts_with("//") {
            let j = rest.find('\n').unwrap_or(rest.len());
            blank(&rest[..j], &mut out);
            i += j;
        } else if rest.starts_with("/*") {
            let (mut depth, mut j) = (0, 0);
            while j < rest.len() {
                if rest[j..].starts_with("/*") {
                    depth += 1;
                    j += 2;
                } else if rest[j..].starts_with("*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += rest[j..].chars().next().map_or(1, char::len_utf8);
                }
            }
            blank(&rest[..j], &mut out);
            i += j;
        } else if (rest.starts_with("r\"") || rest.starts_with("r#"))
            && !src[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_')
        {
            let hashes = rest[1..].chars().take_while(|&c| c == '#').count();
            if rest[1 + hashes..].starts_with('"') {
                let close = format!("\"{}", "#".repeat(hashes));
                let end = rest[2 + hashes..]
                    .find(&close)
                    .map_or(rest.len(), |k| k + 2 + hashes + close.len());
                blank(&rest[..end], &mut out);
                i += end;
            } else {
                out.push('r');
                i += 1;
            }
        } else if rest.starts_with('"') {
            let mut j = 1;
            while j < rest.len() && !rest[j..].starts_with('"') {
                j += if rest[j..].starts_with('\\') { 2 } else { 1 };
                while !rest.is_char_boundary(j.min(rest.len())) {
                    j += 1;
                }
            }
            let end = (j + 1).min(rest.len());
            blank(&rest[..end], &mut out);
            i += end;
        } else if let Some(body) = rest.strip_prefix('\'') {
            // A character literal ('a', '\n', '\u{1F600}', '\''); a lifetime ('a) stays.
            let end = if let Some(esc) = body.strip_prefix('\\') {
                esc[1..].find('\'').map(|k| k + 4)
            } else {
                let c = body.chars().next().map_or(1, char::len_utf8);
                body[c..].starts_with('\'').then_some(2 + c)
            };
            match end {
                Some(end) => {
                    blank(&rest[..end], &mut out);
                    i += end;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let c = rest.chars().next().expect("not at the end");
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// `src` (stripped) without its unit-test modules: `#[cfg(test)] mod … { … }`, and the library's
/// own `#[cfg(feature = "unit-tests")] #[doc(hidden)] pub mod tests { … }` (run by the suite
/// through `balloc::unit`; stripping blanks the feature's name, so it is looked for blank).
fn without_tests(src: &str) -> String {
    let feature = format!("#[cfg(feature = {})]", " ".repeat("\"unit-tests\"".len()));
    let marks = ["#[cfg(test)]", feature.as_str()];
    let mut out = src.to_string();
    let mut from = 0;
    while let Some((at, len)) = marks
        .iter()
        .filter_map(|m| out[from..].find(m).map(|k| (from + k, m.len())))
        .min()
    {
        let mut rest = out[at + len..].trim_start();
        rest = rest
            .strip_prefix("#[doc(hidden)]")
            .unwrap_or(rest)
            .trim_start();
        rest = rest.strip_prefix("pub ").unwrap_or(rest);
        let start = out.len() - rest.len();
        if !rest.starts_with("mod ") || rest.split('{').next().is_none_or(|h| h.contains(';')) {
            from = at + len;
            continue;
        }
        let open = start + rest.find('{').expect("a module body");
        let mut depth = 0;
        let mut end = open;
        for (k, c) in out[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                end = open + k + 1;
                break;
            }
        }
        let blank: String = out[at..end]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        out.replace_range(at..end, &blank);
        from = at + blank.len();
    }
    out
}

/// The paths of a `use` tree (`a::{b, c::{d, e as f}}` → `a::b`, `a::c::d`, `a::c::e`).
fn use_paths(tree: &str) -> Vec<Vec<String>> {
    fn rec(prefix: &[String], t: &str, out: &mut Vec<Vec<String>>) {
        let t = t.trim();
        if let (Some(open), true) = (t.find('{'), t.ends_with('}')) {
            let mut pre = prefix.to_vec();
            pre.extend(
                t[..open]
                    .split("::")
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(String::from),
            );
            let inner = &t[open + 1..t.len() - 1];
            let (mut depth, mut start) = (0, 0);
            for (k, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        rec(&pre, &inner[start..k], out);
                        start = k + 1;
                    }
                    _ => {}
                }
            }
            rec(&pre, &inner[start..], out);
            return;
        }
        if t.is_empty() {
            return;
        }
        let t = t.split(" as ").next().unwrap_or(t);
        let mut p = prefix.to_vec();
        p.extend(t.split("::").map(|s| s.trim().to_string()));
        if p.last().is_some_and(|s| s == "self" || s == "*") {
            p.pop();
        }
        out.push(p);
    }
    let mut out = Vec::new();
    rec(&[], tree, &mut out);
    out
}

/// The import graph of the files `files` (path → source), as module paths (`["claim", "state"]`)
/// → the files they name; faces naming their descendants left out; with `tests` false, the
/// `#[cfg(test)]` modules left out too.
fn arrows(
    files: &BTreeMap<Vec<String>, String>,
    tests: bool,
) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let is_mod = |m: &[String]| files.contains_key(m);
    let resolve = |p: &[String]| -> Option<Vec<String>> {
        (0..=p.len())
            .rev()
            .map(|k| p[..k].to_vec())
            .find(|m| is_mod(m))
    };
    let mut graph = BTreeMap::new();
    for (module, src) in files {
        let src = if tests {
            strip(src)
        } else {
            without_tests(&strip(src))
        };
        let mut aliases: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let absolute =
            |segs: &[String], aliases: &BTreeMap<String, Vec<String>>| -> Option<Vec<String>> {
                let first = segs.first()?.as_str();
                let mut m = module.clone();
                match first {
                    "crate" => Some(segs[1..].to_vec()),
                    "self" => {
                        m.extend_from_slice(&segs[1..]);
                        Some(m)
                    }
                    "super" => {
                        let ups = segs.iter().take_while(|s| *s == "super").count();
                        m.truncate(m.len().saturating_sub(ups));
                        m.extend_from_slice(&segs[ups..]);
                        Some(m)
                    }
                    a if aliases.contains_key(a) => {
                        let mut p = aliases[a].clone();
                        p.extend_from_slice(&segs[1..]);
                        Some(p)
                    }
                    a => {
                        m.push(a.to_string());
                        if is_mod(&m) {
                            m.extend_from_slice(&segs[1..]);
                            Some(m)
                        } else {
                            None
                        }
                    }
                }
            };
        let mut to = BTreeSet::new();
        let mut uses = Vec::new();
        let mut rest = src.as_str();
        let mut offset = 0;
        while let Some(k) = find_word(rest, "use") {
            let after = &rest[k + 3..];
            let Some(end) = after.find(';') else { break };
            uses.push((offset + k, offset + k + 3 + end));
            for p in use_paths(&after[..end]) {
                if let Some(a) = absolute(&p, &aliases) {
                    if let Some(f) = resolve(&a) {
                        to.insert(f);
                    }
                    if is_mod(&a) {
                        let name = after[..end]
                            .split(" as ")
                            .nth(1)
                            .map(|s| s.trim().trim_end_matches('}').trim().to_string());
                        aliases.insert(
                            name.filter(|n| !n.contains([',', '{']))
                                .unwrap_or_else(|| a.last().cloned().unwrap_or_default()),
                            a,
                        );
                    }
                }
            }
            offset += k + 3 + end;
            rest = &src[offset..];
        }
        // Inline paths `a::b::c` outside the use declarations.
        let bytes = src.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i] as char;
            let word_start = (c.is_ascii_alphabetic() || c == '_')
                && (i == 0
                    || !(bytes[i - 1].is_ascii_alphanumeric()
                        || bytes[i - 1] == b'_'
                        || bytes[i - 1] == b':'));
            if !word_start || uses.iter().any(|&(a, b)| a <= i && i < b) {
                i += 1;
                continue;
            }
            let mut segs = Vec::new();
            let mut j = i;
            loop {
                let s = j;
                while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
                    j += 1;
                }
                segs.push(src[s..j].to_string());
                let mut k = j;
                while k < bytes.len() && bytes[k] == b' ' {
                    k += 1;
                }
                if src[k..].starts_with("::")
                    && src[k + 2..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                {
                    j = k + 2;
                } else {
                    break;
                }
            }
            if segs.len() > 1
                && let Some(a) = absolute(&segs, &aliases)
                && let Some(f) = resolve(&a)
            {
                to.insert(f);
            }
            i = j.max(i + 1);
        }
        to.remove(module);
        // A face names its descendants without importing them.
        to.retain(|t| !(t.len() > module.len() && t.starts_with(module)));
        // `unit`, the harness of the library's unit tests, names every module's tests and every
        // test names it, as the compiler's test harness does: it is not part of the layers.
        to.remove(&vec!["unit".to_string()]);
        graph.insert(module.clone(), to);
    }
    graph.remove(&vec!["unit".to_string()]);
    graph
}

fn find_word(s: &str, w: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(k) = s[from..].find(w) {
        let k = from + k;
        let before = k == 0 || !(b[k - 1].is_ascii_alphanumeric() || b[k - 1] == b'_');
        let after = b.get(k + w.len()).is_some_and(|c| c.is_ascii_whitespace());
        if before && after {
            return Some(k);
        }
        from = k + w.len();
    }
    None
}

/// The strongly connected components of more than one module (Tarjan).
fn circles(g: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<String>> {
    struct T<'a> {
        g: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, (usize, usize)>,
        stack: Vec<&'a Vec<String>>,
        on: BTreeSet<&'a Vec<String>>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a Vec<String>) {
        let i = t.index.len();
        t.index.insert(v, (i, i));
        t.stack.push(v);
        t.on.insert(v);
        for w in t.g.get(v).into_iter().flatten() {
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.index[w].1;
                t.index.get_mut(v).expect("visited").1 = t.index[v].1.min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w].0;
                t.index.get_mut(v).expect("visited").1 = t.index[v].1.min(iw);
            }
        }
        if t.index[v].0 == t.index[v].1 {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.push(w.join("/"));
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    t.out.sort();
    t.out
}

/// The crate's files by module path (`lib.rs` is `[]`, `a/mod.rs` and `a.rs` are `["a"]`).
fn crate_files(root: &Path) -> BTreeMap<Vec<String>, String> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<Vec<String>, String>) {
        for e in std::fs::read_dir(dir).expect("src is readable").flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, root, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(root).expect("under src").with_extension("");
                let mut m: Vec<String> = rel
                    .iter()
                    .map(|s| s.to_string_lossy().into_owned())
                    .collect();
                if m == ["main"] {
                    continue;
                }
                if m == ["lib"] || m.last().is_some_and(|s| s == "mod") {
                    m.pop();
                }
                out.insert(m, std::fs::read_to_string(&p).expect("a source file"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// The layers of ARCHITECTURE.md, bottom first: a top-level module may import its own layer's
/// modules and those of lower layers only.
const LAYERS: &[&[&str]] = &[
    &[
        "error",
        "limits",
        "trust",
        "xfloat",
        "compensated",
        "latex",
        "exact",
        "spec",
        "rng",
        "output",
    ],
    &[
        "weights",
        "loads",
        "condition",
        "setting",
        "enclosure",
        "plot",
        "growth",
    ],
    &[
        "lang",
        "graph",
        "process",
        "potential",
        "expectation",
        "bias",
        "lower_bound",
        "multidim",
    ],
    &["sim", "search", "prover", "strategy", "arbitrary", "input"],
    &["claim"],
    &["app", "blueprint", "report", "cli"],
];

/// The imports between top-level modules that go up a layer, each with the reason it remains.
/// None: the simulator models of the graph and md settings live in `sim`, and the generators a
/// strategy draws from in `rng` (layer 0).
const UPWARD: &[(&str, &str)] = &[];

#[test]
fn the_import_graph_finds_a_circle_and_ignores_comments_and_faces() {
    let files: BTreeMap<Vec<String>, String> = [
        (vec![], "pub mod a;\npub mod b;\npub mod c;\npub use a::A;\n".to_string()),
        (vec!["a".to_string()], "use crate::b::B; // use crate::c::C;\npub struct A;".to_string()),
        (vec!["b".to_string()], "pub struct B(crate::a::A);\nconst S: &str = \"crate::c::C\";".to_string()),
        (
            vec!["c".to_string()],
            "use super::a;\nfn f() -> a::A { a::A }\n#[cfg(test)]\nmod tests {\n    use crate::b::B;\n}\n".to_string(),
        ),
    ]
    .into_iter()
    .collect();
    let g = arrows(&files, true);
    // a → b (use), b → a (inline path); the comment and the string name c in vain; c → a
    // through its alias; the crate root re-exports its children (a face).
    assert_eq!(circles(&g), vec![vec!["a".to_string(), "b".to_string()]]);
    assert!(g[&vec!["c".to_string()]].contains(&vec!["a".to_string()]));
    assert!(!g[&vec!["a".to_string()]].contains(&vec!["c".to_string()]));
    assert!(g[&vec![]].is_empty());
    // c's test module imports b; without the tests it does not.
    assert!(g[&vec!["c".to_string()]].contains(&vec!["b".to_string()]));
    assert!(!arrows(&files, false)[&vec!["c".to_string()]].contains(&vec!["b".to_string()]));
    // The library's own unit-test modules (feature `unit-tests`) are left out alike, and the
    // harness `unit` that names them is no node.
    let mut with_unit = files.clone();
    with_unit.insert(
        vec!["b".to_string()],
        "pub struct B;\n#[cfg(feature = \"unit-tests\")]\n#[doc(hidden)]\npub mod tests {\n    use crate::c::C;\n    pub const TESTS: &[crate::unit::Test] = &[];\n}\n".to_string(),
    );
    with_unit.insert(
        vec!["unit".to_string()],
        "const M: &[u8] = crate::b::tests::TESTS;\n".to_string(),
    );
    let g = arrows(&with_unit, true);
    assert!(g[&vec!["b".to_string()]].contains(&vec!["c".to_string()]));
    assert!(!g.contains_key(&vec!["unit".to_string()]));
    assert!(!g[&vec!["b".to_string()]].contains(&vec!["unit".to_string()]));
    assert!(!arrows(&with_unit, false)[&vec!["b".to_string()]].contains(&vec!["c".to_string()]));
    assert_eq!(
        use_paths("x::{y, z::{u as v, w}, self}"),
        vec![
            vec!["x", "y"],
            vec!["x", "z", "u"],
            vec!["x", "z", "w"],
            vec!["x"],
        ]
        .into_iter()
        .map(|p| p.into_iter().map(String::from).collect::<Vec<_>>())
        .collect::<Vec<_>>()
    );
}

#[test]
fn src_has_no_import_circle() {
    let g = arrows(
        &crate_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src")),
        true,
    );
    assert!(g.len() > 150, "{} files", g.len());
    assert_eq!(circles(&g), Vec::<Vec<String>>::new());
}

/// Test modules may check against any layer (an independent route), so they are left out here.
#[test]
fn imports_between_top_level_modules_go_down_the_layers() {
    let g = arrows(
        &crate_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src")),
        false,
    );
    let layer = |m: &str| LAYERS.iter().position(|l| l.contains(&m));
    let mut up = BTreeSet::new();
    for (from, tos) in &g {
        let Some(a) = from.first() else { continue };
        let la = layer(a).unwrap_or_else(|| panic!("module `{a}` is in no layer of LAYERS"));
        for to in tos {
            let Some(b) = to.first() else { continue };
            let lb = layer(b).unwrap_or_else(|| panic!("module `{b}` is in no layer of LAYERS"));
            if lb > la && !UPWARD.contains(&(a.as_str(), b.as_str())) {
                up.insert(format!("{} -> {}", from.join("/"), to.join("/")));
            }
        }
    }
    assert!(
        up.is_empty(),
        "imports up the layers:\n{}",
        up.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// The modules that may touch the file system (module path prefixes).
const FILE_MODULES: &[&[&str]] = &[
    &["input"],
    &["output"],
    &["app"],
    &["cli"],
    &["claim", "schema"],
    &["claim", "uses"],
];

/// The files of `files` (outside their tests, comments and strings) that name the file system
/// (`fs::`, `File::`, `OpenOptions`) and are not under a prefix of [`FILE_MODULES`].
fn touching_files(files: &BTreeMap<Vec<String>, String>) -> Vec<String> {
    files
        .iter()
        .filter(|(m, _)| {
            !FILE_MODULES
                .iter()
                .any(|p| m.starts_with(&p.iter().map(|s| s.to_string()).collect::<Vec<_>>()))
        })
        .filter(|(_, src)| {
            let code = without_tests(&strip(src));
            ["fs::", "File::", "OpenOptions"]
                .iter()
                .any(|w| code.contains(w))
        })
        .map(|(m, _)| m.join("/"))
        .collect()
}

#[test]
fn only_the_file_modules_touch_the_file_system() {
    // The check finds a write outside them, and ignores comments, strings and tests.
    let files: BTreeMap<Vec<String>, String> = [
        (vec!["sim".to_string()], "fn f() { std::fs::write(\"a\", b\"\").unwrap(); }".to_string()),
        (vec!["search".to_string()], "// std::fs::write\nconst S: &str = \"File::create\";\n#[cfg(test)]\nmod tests {\n    fn g() { std::fs::read(\"x\").unwrap(); }\n}\n".to_string()),
        (vec!["app".to_string(), "x".to_string()], "fn f() { std::fs::write(\"a\", b\"\").unwrap(); }".to_string()),
    ]
    .into_iter()
    .collect();
    assert_eq!(touching_files(&files), vec!["sim".to_string()]);
    let files = crate_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert_eq!(touching_files(&files), Vec::<String>::new());
}
