//! The blueprint: the structure of each paper's proofs with their machine-checked status, as a
//! static site (`balloc blueprint`) that works offline from `file://` and from any web server,
//! without JavaScript or anything fetched from elsewhere.
//!
//! * an index of the papers, with the count of items per status;
//! * per paper, the dependency graph of its items (edges from the `uses` lists of the theorem
//!   files, [`crate::claim::uses`]), laid out in layers ([`layout`]) and drawn as SVG ([`graph`]):
//!   nodes coloured by status ([`Status`]), refuted items marked, each node a link to its page;
//! * per item, a page ([`site`]) with the statement typeset as MathML ([`math`]), the verdict and
//!   its trust level, what was searched, the tightest state or the counterexample, the constant
//!   finder's bracket (when it was run), the links of a chain with their own verdicts, the proof
//!   certificate of a `proved` item (downloadable), the plots of a statistical item (inline SVG),
//!   the notes and the source locator.
//!
//! Everything here is pure: [`site::build`] returns the files as bytes; the command line writes
//! them.

pub mod figure;
pub mod graph;
pub mod html;
pub mod layout;
pub mod math;
pub mod site;

use crate::claim::{ConstantReport, ExpectedStatus, Status as Verdict, Theorem, Trust};

/// The status an item is drawn with: the verdict with the trust level it rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// Every box certified with a re-checked certificate (kind `real`).
    Proved,
    /// Holds on the searched space, decided in exact arithmetic.
    HoldsExact,
    /// Holds on the searched space, decided by outward-rounded enclosures.
    HoldsEnclosure,
    /// Holds on the searched space in floating point, with a margin beyond the resolution.
    HoldsFloat,
    /// Holds at the file's confidence level (Monte Carlo).
    HoldsStatistical,
    /// A certified counterexample (or a statistical refutation).
    Refuted,
    /// Not decided.
    Inconclusive,
    /// The file expects `open` and the run did not decide it.
    Open,
    /// Used by a checked item but not checked in this run (outside the selection).
    Unchecked,
}

impl Status {
    /// Every status, in the order of the legend.
    pub const ALL: [Status; 9] = [
        Status::Proved,
        Status::HoldsExact,
        Status::HoldsEnclosure,
        Status::HoldsFloat,
        Status::HoldsStatistical,
        Status::Refuted,
        Status::Inconclusive,
        Status::Open,
        Status::Unchecked,
    ];

    /// The status of a verdict.
    ///
    /// ```
    /// use balloc::blueprint::Status;
    /// use balloc::claim::{ExpectedStatus, Status as V, Trust};
    /// assert_eq!(Status::of(V::Holds, Trust::Enclosure, ExpectedStatus::Holds), Status::HoldsEnclosure);
    /// assert_eq!(Status::of(V::Inconclusive, Trust::Float, ExpectedStatus::Open), Status::Open);
    /// assert_eq!(Status::of(V::Refuted, Trust::Exact, ExpectedStatus::Refuted), Status::Refuted);
    /// ```
    pub fn of(verdict: Verdict, trust: Trust, expected: ExpectedStatus) -> Status {
        match (verdict, trust) {
            (Verdict::Proved, _) => Status::Proved,
            (Verdict::Refuted, _) => Status::Refuted,
            (Verdict::Holds, Trust::Exact) => Status::HoldsExact,
            (Verdict::Holds, Trust::Enclosure) => Status::HoldsEnclosure,
            (Verdict::Holds, Trust::Float) => Status::HoldsFloat,
            (Verdict::Holds, Trust::Statistical) => Status::HoldsStatistical,
            (Verdict::Inconclusive, _) if expected == ExpectedStatus::Open => Status::Open,
            (Verdict::Inconclusive, _) => Status::Inconclusive,
        }
    }

    /// The CSS class (`proved`, `holds-exact`, ...).
    pub fn class(self) -> &'static str {
        match self {
            Status::Proved => "proved",
            Status::HoldsExact => "holds-exact",
            Status::HoldsEnclosure => "holds-enclosure",
            Status::HoldsFloat => "holds-float",
            Status::HoldsStatistical => "holds-statistical",
            Status::Refuted => "refuted",
            Status::Inconclusive => "inconclusive",
            Status::Open => "open",
            Status::Unchecked => "unchecked",
        }
    }

    /// The label of the legend.
    pub fn label(self) -> &'static str {
        match self {
            Status::Proved => "proved",
            Status::HoldsExact => "holds, exact",
            Status::HoldsEnclosure => "holds, enclosure",
            Status::HoldsFloat => "holds, float",
            Status::HoldsStatistical => "holds, statistical",
            Status::Refuted => "refuted",
            Status::Inconclusive => "inconclusive",
            Status::Open => "open",
            Status::Unchecked => "not checked in this run",
        }
    }

    /// The fill colour (the Okabe–Ito palette and its lighter tints; the text on it is black).
    pub fn fill(self) -> &'static str {
        match self {
            Status::Proved => "#009E73",
            Status::HoldsExact => "#7FCFB9",
            Status::HoldsEnclosure => "#BFE7DC",
            Status::HoldsFloat => "#F0E442",
            Status::HoldsStatistical => "#56B4E9",
            Status::Refuted => "#E69F00",
            Status::Inconclusive => "#BBBBBB",
            Status::Open => "#CC79A7",
            Status::Unchecked => "#FFFFFF",
        }
    }
}

/// One item of the blueprint: a theorem file with its verdict, and what else was computed for
/// it.
#[derive(Debug, Clone)]
pub struct Item<'a> {
    /// The theorem file.
    pub theorem: &'a Theorem,
    /// Its verdict (`None`: an item used by a checked one but not checked in this run).
    pub verdict: Option<&'a crate::claim::Verdict>,
    /// The proof certificates of a `proved` item (one per combination of its constants), as
    /// paths relative to the site's root, when they were written there.
    pub certificates: Vec<String>,
    /// The constant finder's reports for the file's `[tighten]` constants, when it was run.
    pub constants: Vec<ConstantReport>,
}

impl Item<'_> {
    /// The item's status.
    pub fn status(&self) -> Status {
        match self.verdict {
            Some(v) => Status::of(v.verdict, v.trust, v.expected),
            None => Status::Unchecked,
        }
    }

    /// Whether its verdict contradicts the file's expected status.
    pub fn contradicts(&self) -> bool {
        self.verdict.is_some_and(|v| v.contradicts())
    }

    /// The paper folder of the item (`batched-2022`), or `drafts` for a file outside the
    /// theorem directory.
    pub fn paper(&self) -> String {
        paper_of(&self.theorem.id, self.theorem.paper.is_some())
    }
}

/// The paper folder of an id: its first component for a catalogue file (`<paper>/<name>`),
/// `drafts` for a draft outside the theorem directory.
///
/// ```
/// assert_eq!(balloc::blueprint::paper_of("ptw/gamma-drift", true), "ptw");
/// assert_eq!(balloc::blueprint::paper_of("/tmp/x/draft", false), "drafts");
/// ```
pub fn paper_of(id: &str, in_catalogue: bool) -> String {
    match id.split_once('/') {
        Some((p, _)) if in_catalogue && !p.is_empty() && p != ".." => p.to_string(),
        _ => "drafts".into(),
    }
}
