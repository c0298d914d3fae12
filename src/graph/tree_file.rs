//! Decompositions read from a file: one internal node per line, `left | right`, the vertex
//! numbers (0-based) of its two children separated by `|`; the first line is the root (its two
//! sides partition `0..n`), every other line splits a side of an earlier line, and every side of
//! two or more vertices is split by exactly one line (singletons need no line). Blank lines and
//! text after `#` are ignored. Errors name the file and the line.
//!
//! ```text
//! # C_4 split {0, 1} | {2, 3}
//! 0 1 | 2 3
//! 0 | 1
//! 2 | 3
//! ```

use super::tree::Tree;
use crate::error::{Error, Result};
use std::collections::HashMap;

/// One line: its number, the two sides as written.
struct Line {
    no: usize,
    left: Vec<usize>,
    right: Vec<usize>,
}

fn parse_side(text: &str, at: &dyn Fn() -> String, n_limit: usize) -> Result<Vec<usize>> {
    let mut out = Vec::new();
    for tok in text.split(|c: char| c.is_whitespace() || c == ',') {
        if tok.is_empty() {
            continue;
        }
        let v: usize = tok.parse().map_err(|_| {
            Error::invalid(
                at(),
                format!(
                    "`{}` is not a vertex number (0, 1, 2, ...)",
                    crate::lang::syntax::excerpt(tok, 20)
                ),
            )
        })?;
        if v >= n_limit {
            return Err(Error::invalid(
                at(),
                format!("vertex {v} is out of range (the graph has {n_limit} vertices)"),
            ));
        }
        out.push(v);
    }
    if out.is_empty() {
        return Err(Error::invalid(at(), "a side of `|` is empty"));
    }
    Ok(out)
}

/// Parses a decomposition of the vertices `0..n` (module documentation); `source` names the
/// input in errors.
///
/// ```
/// use balloc::graph::tree_file::parse;
/// let t = parse("0 1 | 2 3\n0 | 1\n2 | 3\n", 4, "c4.tree").unwrap();
/// assert_eq!(t.height(), 2);
/// // Line 3 names vertex 2 on both sides.
/// let e = parse("0 1 | 2 3\n0 | 1\n2 | 2\n", 4, "bad.tree").unwrap_err();
/// assert!(e.to_string().contains("`bad.tree` line 3"), "{e}");
/// ```
pub fn parse(text: &str, n: usize, source: &str) -> Result<Tree> {
    let mut lines: Vec<Line> = Vec::new();
    let mut by_set: HashMap<Vec<usize>, usize> = HashMap::new();
    for (no, raw) in text.lines().enumerate() {
        let no = no + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = || format!("tree file `{source}` line {no}");
        let Some((l, r)) = line.split_once('|') else {
            return Err(Error::invalid(
                at(),
                "expected `left vertices | right vertices`",
            ));
        };
        if r.contains('|') {
            return Err(Error::invalid(at(), "more than one `|`"));
        }
        let (left, right) = (parse_side(l, &at, n)?, parse_side(r, &at, n)?);
        let mut set: Vec<usize> = left.iter().chain(&right).copied().collect();
        set.sort_unstable();
        if let Some(w) = set.windows(2).find(|w| w[0] == w[1]) {
            return Err(Error::invalid(
                at(),
                format!("vertex {} appears twice", w[0]),
            ));
        }
        if lines.is_empty() && set.len() != n {
            return Err(Error::invalid(
                at(),
                format!(
                    "the first line is the root and must list all {n} vertices, got {}",
                    set.len()
                ),
            ));
        }
        if let Some(&j) = by_set.get(&set) {
            return Err(Error::invalid(
                at(),
                format!("splits the same set as line {}", lines[j].no),
            ));
        }
        by_set.insert(set, lines.len());
        lines.push(Line { no, left, right });
    }
    if lines.is_empty() {
        return Err(Error::invalid(
            format!("tree file `{source}`"),
            if n <= 1 {
                "a decomposition needs at least 2 vertices".to_string()
            } else {
                "contains no line".to_string()
            },
        ));
    }
    let mut used = vec![false; lines.len()];
    // The line whose side each set is (for errors about a side nobody splits).
    let mut side_of: HashMap<Vec<usize>, usize> = HashMap::new();
    let root: Vec<usize> = lines[0]
        .left
        .iter()
        .chain(&lines[0].right)
        .copied()
        .collect();
    let tree = Tree::build(n, (root, None), &mut |(s, _)| {
        let mut key = s.clone();
        key.sort_unstable();
        let Some(&j) = by_set.get(&key) else {
            let from = side_of.get(&key).map_or(1, |&k| lines[k].no);
            return Err(Error::invalid(
                format!("tree file `{source}` line {from}"),
                format!(
                    "the side {{{}}} is split by no line",
                    crate::lang::syntax::excerpt(
                        &s.iter()
                            .map(|v| v.to_string())
                            .collect::<Vec<_>>()
                            .join(" "),
                        40
                    )
                ),
            ));
        };
        used[j] = true;
        for side in [&lines[j].left, &lines[j].right] {
            let mut k = side.clone();
            k.sort_unstable();
            side_of.insert(k, j);
        }
        Ok((
            (lines[j].left.clone(), None),
            (lines[j].right.clone(), None),
        ))
    })?;
    if let Some(j) = used.iter().position(|u| !u) {
        return Err(Error::invalid(
            format!("tree file `{source}` line {}", lines[j].no),
            "its set is not a side of the root or of another line (the lines do not form one binary hierarchy)",
        ));
    }
    Ok(tree)
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    fn err(text: &str, n: usize) -> String {
        parse(text, n, "t.tree").unwrap_err().to_string()
    }

    fn bad_files_name_the_line() {
        assert!(err("0 1 | 2\n", 4).contains("line 1"));
        assert!(err("0 1 | 2 3\n0 1 | \n", 4).contains("line 2"));
        assert!(err("0 1 | 2 3\n0 | 1\n2 | 3\n0 | 1\n", 4).contains("line 4"));
        assert!(err("0 1 | 2 3\n0 | 1\n", 4).contains("split by no line"));
        assert!(err("0 1 | 2 3\n0 | 1\n2 | 3\n1 | 2\n", 4).contains("line 4"));
        assert!(err("0 1 | 2 9\n", 4).contains("out of range"));
        assert!(err("0 0 | 2 3\n", 4).contains("twice"));
        assert!(err("0 x | 2 3\n", 4).contains("`x`"));
        assert!(err("# nothing\n", 4).contains("no line"));
        assert!(err("0 1 2 3\n", 4).contains("line 1"));
    }

    fn a_file_gives_the_tree_it_describes() {
        // C_8 halving written out: the same tree as Tree::halving.
        let text = "0 1 2 3 | 4 5 6 7\n0 1 | 2 3\n0 | 1\n2 | 3\n4 5 | 6 7\n4 | 5\n6 | 7\n";
        let t = parse(text, 8, "h.tree").unwrap();
        assert_eq!(t, Tree::halving(&(0..8).collect::<Vec<_>>()).unwrap());
        assert!(t.check().is_ok());
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "bad_files_name_the_line",
            run: bad_files_name_the_line,
            panics: None,
        },
        crate::unit::Test {
            name: "a_file_gives_the_tree_it_describes",
            run: a_file_gives_the_tree_it_describes,
            panics: None,
        },
    ];
}
