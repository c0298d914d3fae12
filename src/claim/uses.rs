//! The `uses` relation between theorem files: `uses = ["<paper>/<name>", ...]` lists the items of
//! the catalogue that the proof of a file uses. It is a directed graph on ids (an edge from a file
//! to each item it uses) that must be acyclic: a proof cannot use itself, directly or through other
//! items. The blueprint draws it; `balloc check` validates it.
//!
//! Validation has two parts: every id a file names exists under the theorem directory (an unknown
//! id is an error at the entry, with the closest id as a suggestion), and the graph reachable from
//! the checked files has no cycle (an error naming the cycle, `a → b → a`).

use super::schema::{FileError, Theorem, discover, id_of};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The ids of every theorem file under `root` (empty when `root` is not a directory).
pub fn catalogue_ids(root: &Path) -> Vec<String> {
    if !root.is_dir() {
        return Vec::new();
    }
    discover(root)
        .map(|files| files.iter().map(|f| id_of(f, root)).collect())
        .unwrap_or_default()
}

/// Checks that every id in `t`'s `uses` names a theorem file under `root`, is not `t` itself and
/// is listed once: an error at the entry otherwise, with a "did you mean" among the catalogue's
/// ids.
pub fn check_ids(t: &Theorem, root: &Path) -> Result<(), FileError> {
    let mut seen = BTreeSet::new();
    for u in &t.file.uses {
        let id = u.get_ref();
        let at = Some(u.span().start);
        if id == &t.id {
            return Err(t.error_at(
                at,
                format!("uses: `{id}` is this file itself (a cycle: {id} → {id})"),
            ));
        }
        if !seen.insert(id.clone()) {
            return Err(t.error_at(at, format!("uses: `{id}` is listed twice")));
        }
        let file = root.join(format!("{id}.toml"));
        let plain = !id.is_empty()
            && !id.starts_with('/')
            && id
                .split('/')
                .all(|c| !c.is_empty() && c != "." && c != "..");
        if plain && file.is_file() {
            continue;
        }
        let ids = catalogue_ids(root);
        let hint = crate::error::did_you_mean(id, ids.iter().map(String::as_str))
            .map(|s| format!("; did you mean `{s}`?"))
            .unwrap_or_default();
        return Err(t.error_at(
            at,
            format!(
                "uses: unknown id `{}`{hint} (ids are paths under {} without `.toml`, e.g. `{}`)",
                crate::error::excerpt(id),
                root.display(),
                ids.first().map_or("paper/name", String::as_str)
            ),
        ));
    }
    Ok(())
}

/// The `uses` ids of the theorem file `root/<id>.toml`, read without building its check (an
/// empty list when it cannot be read; its own errors are reported when it is checked).
fn uses_of_file(root: &Path, id: &str) -> Vec<String> {
    #[derive(serde::Deserialize)]
    struct Uses {
        #[serde(default)]
        uses: Vec<String>,
    }
    std::fs::read_to_string(root.join(format!("{id}.toml")))
        .ok()
        .and_then(|text| toml::from_str::<Uses>(&text).ok())
        .map(|u| u.uses)
        .unwrap_or_default()
}

/// A cycle of the directed graph `edges` (each id to the ids it uses), as the path
/// `[a, b, ..., a]`, or `None` when the graph is acyclic. Depth-first search in the order of
/// the ids, so the cycle reported is the same on every run.
///
/// ```
/// use std::collections::BTreeMap;
/// use balloc::claim::uses::find_cycle;
/// let mut g: BTreeMap<String, Vec<String>> = BTreeMap::new();
/// g.insert("a".into(), vec!["b".into()]);
/// g.insert("b".into(), vec!["c".into()]);
/// g.insert("c".into(), vec![]);
/// assert_eq!(find_cycle(&g), None);
/// g.insert("c".into(), vec!["a".into()]);
/// assert_eq!(find_cycle(&g).unwrap(), ["a", "b", "c", "a"]);
/// ```
pub fn find_cycle(edges: &BTreeMap<String, Vec<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    let mut mark: BTreeMap<&str, Mark> = BTreeMap::new();
    for start in edges.keys() {
        if mark.contains_key(start.as_str()) {
            continue;
        }
        // An explicit stack of (node, index of the next edge to follow).
        let mut stack: Vec<(&str, usize)> = vec![(start, 0)];
        mark.insert(start, Mark::Open);
        while let Some((node, i)) = stack.last().copied() {
            let next = edges.get(node).and_then(|v| v.get(i));
            match next {
                Some(m) => {
                    if let Some(top) = stack.last_mut() {
                        top.1 += 1;
                    }
                    match mark.get(m.as_str()) {
                        Some(Mark::Open) => {
                            let from = stack.iter().position(|(s, _)| *s == m.as_str())?;
                            let mut cycle: Vec<String> =
                                stack[from..].iter().map(|(s, _)| s.to_string()).collect();
                            cycle.push(m.clone());
                            return Some(cycle);
                        }
                        Some(Mark::Done) => {}
                        None => {
                            mark.insert(m, Mark::Open);
                            stack.push((m, 0));
                        }
                    }
                }
                None => {
                    mark.insert(node, Mark::Done);
                    stack.pop();
                }
            }
        }
    }
    None
}

/// Checks the `uses` graph reachable from `theorems` for cycles: the files given supply their
/// own edges, the other items reached are read from `root`. An error at the first `uses` entry of
/// a file on the cycle, naming the cycle.
pub fn check_acyclic(theorems: &[&Theorem], root: &Path) -> Result<(), FileError> {
    let mut edges: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut todo: Vec<String> = Vec::new();
    for t in theorems {
        let out: Vec<String> = t.file.uses.iter().map(|u| u.get_ref().clone()).collect();
        todo.extend(out.iter().cloned());
        edges.insert(t.id.clone(), out);
    }
    while let Some(id) = todo.pop() {
        if edges.contains_key(&id) {
            continue;
        }
        let out = uses_of_file(root, &id);
        todo.extend(out.iter().cloned());
        edges.insert(id, out);
    }
    let Some(cycle) = find_cycle(&edges) else {
        return Ok(());
    };
    // Report it in a file of the selection on the cycle (with the position of its entry, the
    // cycle written from that file), or else in the first file of the cycle.
    for t in theorems {
        if let Some(k) = cycle.iter().position(|c| c == &t.id) {
            let ring = &cycle[..cycle.len() - 1];
            let mut from_t: Vec<&str> = ring[k..]
                .iter()
                .chain(&ring[..k])
                .map(String::as_str)
                .collect();
            from_t.push(&t.id);
            let text = from_t.join(" → ");
            let next = &cycle[k + 1];
            let at = t
                .file
                .uses
                .iter()
                .find(|u| u.get_ref() == next)
                .map(|u| u.span().start);
            return Err(t.error_at(at, format!("uses: a cycle: {text}")));
        }
    }
    let text = cycle.join(" → ");
    Err(FileError {
        file: root
            .join(format!("{}.toml", cycle[0]))
            .display()
            .to_string(),
        line: None,
        column: None,
        message: format!("uses: a cycle: {text}"),
    })
}

/// Both checks on a selection: known ids in every file, no cycle through any of them.
pub fn validate(theorems: &[&Theorem], root: &Path) -> Result<(), FileError> {
    for t in theorems {
        check_ids(t, root)?;
    }
    check_acyclic(theorems, root)
}
