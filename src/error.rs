//! Errors of the library: every one renders as a single line that names the offending argument,
//! field or value and, where it helps, what is accepted.
//!
//! Two rules keep the line short and useful whatever the input:
//!
//! * a quoted input is at most a short excerpt ([`excerpt`]): a 100 MB token in a load file or a
//!   spec string gives an error of a few dozen characters, with the token's length;
//! * an unknown name comes with the closest accepted name when one is close
//!   ([`did_you_mean`], by edit distance) and the accepted names, grouped by kind where there
//!   are several kinds ([`Error::unknown_grouped`]).

use std::borrow::Cow;
use thiserror::Error;

/// Characters of an input quoted in an error message ([`excerpt`]).
pub const EXCERPT_CHARS: usize = 60;

/// Non-blank runs longer than this are shortened to an excerpt in error messages
/// ([`shorten_tokens`]).
pub const TOKEN_CHARS: usize = 80;

/// The error type of every fallible operation in `balloc`.
///
/// Rendering shortens every run of more than [`TOKEN_CHARS`] non-blank
/// characters to an [`excerpt`], so a message stays short whatever it quotes.
///
/// ```
/// let e = balloc::Error::invalid("beta", "must lie in [0, 1], got 1.5");
/// assert_eq!(e.to_string(), "invalid beta: must lie in [0, 1], got 1.5");
/// // A 10⁶-character token is quoted as a short excerpt with its length.
/// let long = "7".repeat(1_000_000);
/// let e = balloc::Error::invalid("loads", format!("entry 1 is `{long}`, expected a number"));
/// assert!(e.to_string().len() < 200);
/// // The quoted token is "`7…7`," : 10⁶ digits, two backquotes and a comma.
/// assert!(e.to_string().contains("(1000003 characters)"));
/// ```
#[derive(Debug, Clone, PartialEq, Error)]
pub enum Error {
    /// A parameter or argument has a value outside its domain.
    #[error("invalid {}: {}", shorten_tokens(.what), shorten_tokens(.why))]
    Invalid {
        /// The name of the parameter or argument.
        what: String,
        /// What is wrong and what is accepted.
        why: String,
    },
    /// A name (process, potential, weight law, ...) is not registered.
    #[error(
        "unknown {kind} `{}`{}; accepted: {accepted}",
        excerpt(.name),
        suggestion.as_deref().map(|s| format!("; did you mean `{s}`?")).unwrap_or_default()
    )]
    Unknown {
        /// What kind of name (process, potential, weights, parameter of X).
        kind: String,
        /// The name that was given.
        name: String,
        /// The closest accepted name, if one is close (see [`did_you_mean`]).
        suggestion: Option<String>,
        /// The accepted names, comma separated (`kind: a, b; kind: c` when grouped).
        accepted: String,
    },
    /// A quantity has no evaluation route for the given combination.
    #[error("unsupported: {}", shorten_tokens(.0))]
    Unsupported(String),
    /// The work was stopped by its caller before it ended (a Ctrl-C in the Python package).
    #[error("interrupted")]
    Interrupted,
}

impl Error {
    /// Builds an [`Error::Invalid`].
    pub fn invalid(what: impl Into<String>, why: impl Into<String>) -> Self {
        Error::Invalid {
            what: what.into(),
            why: why.into(),
        }
    }

    /// Builds an [`Error::Unknown`] with the closest accepted name as a suggestion.
    /// ```
    /// let e = balloc::Error::unknown("process", "3-choice", &["one-choice", "two-choice"]);
    /// assert_eq!(e.to_string(), "unknown process `3-choice`; accepted: one-choice, two-choice");
    /// let e = balloc::Error::unknown("process", "two-chioce", &["one-choice", "two-choice"]);
    /// assert_eq!(
    ///     e.to_string(),
    ///     "unknown process `two-chioce`; did you mean `two-choice`?; accepted: one-choice, two-choice"
    /// );
    /// ```
    pub fn unknown(kind: impl Into<String>, name: impl Into<String>, accepted: &[&str]) -> Self {
        let name = name.into();
        Error::Unknown {
            kind: kind.into(),
            suggestion: did_you_mean(&name, accepted.iter().copied()).map(str::to_string),
            name,
            accepted: accepted.join(", "),
        }
    }

    /// Builds an [`Error::Unknown`] whose accepted names come in groups, one per kind of name
    /// (`kind: a, b; kind: c, d`); the suggestion is the closest name of any group.
    /// ```
    /// let e = balloc::Error::unknown_grouped(
    ///     "variable",
    ///     "E_Gama",
    ///     &[("values", &["Phi", "Gamma"]), ("expectations", &["E_Phi", "E_Gamma"])],
    /// );
    /// assert_eq!(
    ///     e.to_string(),
    ///     "unknown variable `E_Gama`; did you mean `E_Gamma`?; \
    ///      accepted: values: Phi, Gamma; expectations: E_Phi, E_Gamma"
    /// );
    /// ```
    pub fn unknown_grouped(
        kind: impl Into<String>,
        name: impl Into<String>,
        groups: &[(&str, &[&str])],
    ) -> Self {
        let name = name.into();
        Error::Unknown {
            kind: kind.into(),
            suggestion: did_you_mean(&name, groups.iter().flat_map(|g| g.1.iter().copied()))
                .map(str::to_string),
            name,
            accepted: grouped(groups),
        }
    }
}

/// `kind: a, b; kind: c, d` (groups without names are left out).
///
/// ```
/// let g = balloc::error::grouped(&[("loads", &["n", "gap"]), ("empty", &[]), ("values", &["Phi"])]);
/// assert_eq!(g, "loads: n, gap; values: Phi");
/// ```
pub fn grouped(groups: &[(&str, &[&str])]) -> String {
    groups
        .iter()
        .filter(|g| !g.1.is_empty())
        .map(|(kind, names)| format!("{kind}: {}", names.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// A sentence for messages that are built as text (theorem files, claim expressions):
/// the suggestion, if any, then the accepted names grouped by kind.
///
/// ```
/// let m = balloc::error::unknown_name_hint("gama", &[("potentials", &["phi", "gamma"])]);
/// assert_eq!(m, "did you mean `gamma`? accepted: potentials: phi, gamma");
/// ```
pub fn unknown_name_hint(name: &str, groups: &[(&str, &[&str])]) -> String {
    let accepted = grouped(groups);
    match did_you_mean(name, groups.iter().flat_map(|g| g.1.iter().copied())) {
        Some(s) => format!("did you mean `{s}`? accepted: {accepted}"),
        None => format!("accepted: {accepted}"),
    }
}

/// Result alias used throughout the crate.
pub type Result<T> = std::result::Result<T, Error>;

/// The restricted Damerau–Levenshtein distance (insertions, deletions, substitutions and
/// transpositions of adjacent characters, each of cost 1; "optimal string alignment"), on
/// characters, ignoring ASCII case.
///
/// ```
/// use balloc::error::edit_distance;
/// assert_eq!(edit_distance("gama", "gamma"), 1);      // one insertion
/// assert_eq!(edit_distance("two-chioce", "two-choice"), 1); // one transposition
/// assert_eq!(edit_distance("Gamma", "gamma"), 0);     // case is ignored
/// assert_eq!(edit_distance("kitten", "sitting"), 3);  // k→s, e→i, +g
/// ```
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    // d[i][j] = distance between a[..i] and b[..j]; three rows suffice for transpositions.
    let w = b.len() + 1;
    let mut prev2 = vec![0usize; w];
    let mut prev: Vec<usize> = (0..w).collect();
    let mut cur = vec![0usize; w];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..w {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(prev2[j - 2] + 1);
            }
            cur[j] = d;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[w - 1]
}

/// The accepted name closest to `name` by [`edit_distance`], if it is close: at most one edit per
/// four characters of the longer name (at least one edit; none below three characters, where only
/// a difference of case counts), and never `name` itself. The first of equally close names wins.
/// Names longer than [`TOKEN_CHARS`] get no suggestion.
///
/// ```
/// use balloc::error::did_you_mean;
/// let names = ["cycle", "path", "torus", "hypercube"];
/// assert_eq!(did_you_mean("cyle", names), Some("cycle"));
/// assert_eq!(did_you_mean("Torus", names), Some("torus"));
/// assert_eq!(did_you_mean("grid", names), None); // nothing close
/// assert_eq!(did_you_mean("x", ["d", "f"]), None); // one-letter names are not guessed
/// assert_eq!(did_you_mean("D", ["d", "f"]), Some("d"));
/// ```
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    if name.chars().count() > TOKEN_CHARS {
        return None;
    }
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        if c == name {
            continue;
        }
        let d = edit_distance(name, c);
        let longer = name.chars().count().max(c.chars().count());
        // Names of one or two characters are all within one edit of each other: only a case
        // difference is suggested there.
        let allowed = if longer < 3 { 0 } else { (longer / 4).max(1) };
        if d <= allowed && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// At most [`EXCERPT_CHARS`] characters of `s`: the text itself when it is short,
/// else its beginning and end around `…` with the total length.
///
/// ```
/// use balloc::error::excerpt;
/// assert_eq!(excerpt("two-choice"), "two-choice");
/// let long = format!("{}x", "1".repeat(999));
/// assert_eq!(excerpt(&long), format!("{}…{}x (1000 characters)", "1".repeat(40), "1".repeat(11)));
/// ```
pub fn excerpt(s: &str) -> Cow<'_, str> {
    let head = EXCERPT_CHARS * 2 / 3;
    let tail = EXCERPT_CHARS - head - 8;
    // Count only as far as needed: a 100 MB string is not walked twice.
    if s.chars().nth(EXCERPT_CHARS).is_none() {
        return Cow::Borrowed(s);
    }
    let total = s.chars().count();
    let start: String = s.chars().take(head).collect();
    let end: String = s.chars().skip(total - tail).collect();
    Cow::Owned(format!("{start}…{end} ({total} characters)"))
}

/// Replaces every run of more than [`TOKEN_CHARS`] non-blank characters of `s` by
/// its [`excerpt`] (so an error message that quotes a huge input stays one short line).
///
/// ```
/// use balloc::error::shorten_tokens;
/// assert_eq!(shorten_tokens("unknown `gama`"), "unknown `gama`");
/// let msg = format!("bad value `{}` here", "9".repeat(5000));
/// let short = shorten_tokens(&msg);
/// assert!(short.starts_with("bad value `999") && short.ends_with("here"));
/// assert!(short.contains("(5002 characters)")); // the token with its two backquotes
/// ```
pub fn shorten_tokens(s: &str) -> Cow<'_, str> {
    let limit = TOKEN_CHARS;
    let long = s
        .split(char::is_whitespace)
        .any(|t| t.len() > limit && t.chars().nth(limit).is_some());
    if !long {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len().min(4 * limit));
    let mut rest = s;
    while !rest.is_empty() {
        let ws = rest.len() - rest.trim_start_matches(char::is_whitespace).len();
        out.push_str(&rest[..ws]);
        rest = &rest[ws..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let tok = &rest[..end];
        if tok.chars().nth(limit).is_some() {
            out.push_str(&excerpt(tok));
        } else {
            out.push_str(tok);
        }
        rest = &rest[end..];
    }
    Cow::Owned(out)
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    /// The plain Levenshtein recurrence with transpositions, written out with a full table, as an
    /// independent route for the three-row version.
    fn osa_table(a: &str, b: &str) -> usize {
        let a: Vec<char> = a.to_ascii_lowercase().chars().collect();
        let b: Vec<char> = b.to_ascii_lowercase().chars().collect();
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in d[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                d[i][j] = (d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1)
                    .min(d[i - 1][j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
                }
            }
        }
        d[a.len()][b.len()]
    }

    fn edit_distance_matches_the_full_table() {
        let words = [
            "",
            "a",
            "ab",
            "ba",
            "gamma",
            "gama",
            "E_Gamma",
            "E_Gama",
            "dE_Gamma",
            "two-choice",
            "two-chioce",
            "one-choice",
            "ca",
            "abc",
            "Ψ-psi",
            "psi",
        ];
        for a in words {
            for b in words {
                assert_eq!(edit_distance(a, b), osa_table(a, b), "{a} vs {b}");
                assert_eq!(edit_distance(a, b), edit_distance(b, a), "{a} vs {b}");
            }
        }
    }

    fn suggestions_prefer_the_closest_and_refuse_far_names() {
        let names = ["phi", "psi", "gamma", "quadratic", "absolute"];
        assert_eq!(did_you_mean("phl", names), Some("phi"));
        assert_eq!(did_you_mean("quadratc", names), Some("quadratic"));
        assert_eq!(did_you_mean("zzz", names), None);
        assert_eq!(
            did_you_mean("gamma", names),
            None,
            "an accepted name gets no suggestion"
        );
        assert_eq!(did_you_mean(&"g".repeat(10_000), names), None);
    }

    fn excerpts_keep_multibyte_characters_whole() {
        let s = "Ψ".repeat(500);
        let e = excerpt(&s);
        assert!(e.chars().count() < EXCERPT_CHARS + 20);
        assert!(e.ends_with("(500 characters)"));
        let msg = format!("a {s} b");
        assert_eq!(shorten_tokens(&msg), format!("a {e} b"));
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "edit_distance_matches_the_full_table",
            run: edit_distance_matches_the_full_table,
            panics: None,
        },
        crate::unit::Test {
            name: "suggestions_prefer_the_closest_and_refuse_far_names",
            run: suggestions_prefer_the_closest_and_refuse_far_names,
            panics: None,
        },
        crate::unit::Test {
            name: "excerpts_keep_multibyte_characters_whole",
            run: excerpts_keep_multibyte_characters_whole,
            panics: None,
        },
    ];
}
