//! Verdicts (docs/conventions.md §3): never a bare bool. A verdict says what was searched, the smallest slack
//! and where it was attained, or the counterexample with both sides, and how far to trust it.

use super::schema::ExpectedStatus;
pub use crate::search::Searched;
use serde::Serialize;
use std::collections::BTreeMap;

/// The outcome of a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// No violation in the searched space (not a proof, unless the space is the whole domain and
    /// the trust is `exact`).
    Holds,
    /// A concrete state violates the claim.
    Refuted,
    /// The margin is below numerical resolution, or the re-check disagreed (for kind `real`:
    /// the budget ran out before every box was decided).
    Inconclusive,
    /// Every box of a real domain is certified (kind `real`), with a certificate that an
    /// independent checker re-verifies: a proof, not a search.
    Proved,
}

impl Status {
    /// The lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Status::Holds => "holds",
            Status::Refuted => "refuted",
            Status::Inconclusive => "inconclusive",
            Status::Proved => "proved",
        }
    }
}

pub use crate::trust::Trust;

/// A state at which a claim was evaluated: the worst one of a `holds` verdict, or the
/// counterexample of a `refuted` one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Witness {
    /// The number of bins.
    pub n: usize,
    /// The load vector (empty for claims that do not depend on the state).
    pub loads: Vec<f64>,
    /// The process spec or allocation vector label.
    pub source: String,
    /// The constants at which it was evaluated, as `f64` (a constant beyond the range of `f64` is
    /// given by `constants_text` alone).
    pub constants: BTreeMap<String, f64>,
    /// The constants as text, where a kind knows them better than as `f64`: exact rationals as
    /// `p/q`, other values in scientific notation at any magnitude (`3.0332153969064635e434294`).
    /// Empty when every constant is its `f64`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub constants_text: BTreeMap<String, String>,
    /// The two sides and the slack as exact rationals, when the certified evaluation was exact
    /// and the claim is one comparison (at the reported bin for a per-bin claim).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<ExactSides>,
    /// The left side (decimal; may exceed the range of f64).
    pub lhs: String,
    /// The right side.
    pub rhs: String,
    /// The slack (positive when the claim holds; decimal string, may be huge).
    pub slack: String,
    /// Where the state came from (exhaustive, a family, random, optimiser, ...).
    pub found_by: String,
    /// The independent re-check, when one was made.
    pub recheck: Option<String>,
}

/// The sides of a comparison in exact rationals (`p/q` text, as `balloc expect` writes its
/// `*_exact` fields).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExactSides {
    /// The left side.
    pub lhs: String,
    /// The right side.
    pub rhs: String,
    /// The slack (the claim holds iff it is ≥ 0, > 0 when strict).
    pub slack: String,
}

/// The verdict on one theorem file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// The theorem id.
    pub id: String,
    /// The outcome.
    pub verdict: Status,
    /// The status the file expects.
    pub expected: ExpectedStatus,
    /// How far to trust it.
    pub trust: Trust,
    /// The smallest slack found (the counterexample's for `refuted`); `None` if not
    /// representable as f64.
    pub slack: Option<f64>,
    /// The worst state or the counterexample.
    pub witness: Option<Witness>,
    /// What was searched.
    pub searched: Searched,
    /// Remarks (re-check details, resolution, why inconclusive).
    pub notes: Vec<String>,
    /// The verdict of each link of a chain of inequalities, in order (empty otherwise).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LinkVerdict>,
    /// The estimates of a statistical verdict, one per simulated configuration or fitted point
    /// (empty for the other kinds): what the blueprint and the LaTeX report plot.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub observations: Vec<Observation>,
}

/// One estimate behind a statistical verdict: the mean of its statistic at one size, with its
/// confidence interval (at the file's Bonferroni level), on a curve of configurations that differ
/// only in that size.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Observation {
    /// The curve: the configuration without the size (process, batch, balls).
    pub curve: String,
    /// The size the estimate was measured at (`n`, `b`, `m`, `β`, ...).
    pub x: f64,
    /// The name of the size (`n`, `b`, ...).
    pub x_name: String,
    /// The statistic (`E[max gap]`, ...).
    pub y_name: String,
    /// The estimate.
    pub mean: f64,
    /// The lower end of its confidence interval.
    pub ci_low: f64,
    /// The upper end of its confidence interval.
    pub ci_high: f64,
    /// The threshold the estimate is compared with, when there is one per configuration.
    pub threshold: Option<f64>,
}

/// The verdict of one link of a chain (`claim.chain` of the kind `inequality`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LinkVerdict {
    /// The link as written, e.g. `A <= B`.
    pub link: String,
    /// Its verdict.
    pub verdict: Status,
    /// Its trust level.
    pub trust: Trust,
    /// Its smallest slack (its counterexample's when refuted).
    pub slack: Option<f64>,
    /// Its tightest state or counterexample.
    pub witness: Option<Witness>,
}

impl Verdict {
    /// The verdict `status` at trust `trust` on the theorem with id `id` that expects `expected`:
    /// the one place a verdict is made. The rest starts empty (no slack, witness, notes, links or
    /// observations; nothing searched) and is added with the `with_*` methods.
    ///
    /// ```
    /// use balloc::claim::{Verdict, Status, Trust, ExpectedStatus, Searched};
    /// let v = Verdict::new("x/y", ExpectedStatus::Holds, Status::Refuted, Trust::Exact)
    ///     .with_slack(Some(-0.25))
    ///     .with_notes(vec!["exact rationals".into()]);
    /// assert_eq!((v.slack, v.notes.len(), v.witness.is_none()), (Some(-0.25), 1, true));
    /// assert!(v.contradicts()); // expected holds, refuted
    /// ```
    pub fn new(
        id: impl Into<String>,
        expected: ExpectedStatus,
        verdict: Status,
        trust: Trust,
    ) -> Verdict {
        Verdict {
            id: id.into(),
            verdict,
            expected,
            trust,
            slack: None,
            witness: None,
            searched: Searched::default(),
            notes: Vec::new(),
            links: Vec::new(),
            observations: Vec::new(),
        }
    }

    /// [`Verdict::new`] for the theorem file `t` (its id and expected status).
    pub fn of(t: &super::schema::Theorem, verdict: Status, trust: Trust) -> Verdict {
        Verdict::new(t.id.clone(), t.file.expected, verdict, trust)
    }

    /// With the smallest slack found.
    pub fn with_slack(mut self, slack: Option<f64>) -> Verdict {
        self.slack = slack;
        self
    }

    /// With the worst state or the counterexample.
    pub fn with_witness(mut self, witness: Option<Witness>) -> Verdict {
        self.witness = witness;
        self
    }

    /// With what was searched.
    pub fn with_searched(mut self, searched: Searched) -> Verdict {
        self.searched = searched;
        self
    }

    /// With remarks.
    pub fn with_notes(mut self, notes: Vec<String>) -> Verdict {
        self.notes = notes;
        self
    }

    /// With the verdicts of a chain's links.
    pub fn with_links(mut self, links: Vec<LinkVerdict>) -> Verdict {
        self.links = links;
        self
    }

    /// With the estimates of a statistical verdict.
    pub fn with_observations(mut self, observations: Vec<Observation>) -> Verdict {
        self.observations = observations;
        self
    }

    /// Whether the verdict contradicts the expected status: an expected `holds`, `proved` or
    /// `refuted` that is not obtained (an `inconclusive` verdict also contradicts it; `proved`
    /// meets an expected `holds`); `open` never does.
    ///
    /// ```
    /// use balloc::claim::{Verdict, Status, Trust, ExpectedStatus};
    /// let v = Verdict::new("x/y", ExpectedStatus::Refuted, Status::Holds, Trust::Float);
    /// assert!(v.contradicts());
    /// assert!(!Verdict::new("x/y", ExpectedStatus::Holds, Status::Proved, Trust::Exact).contradicts());
    /// ```
    pub fn contradicts(&self) -> bool {
        match self.expected {
            ExpectedStatus::Open => false,
            ExpectedStatus::Holds => !matches!(self.verdict, Status::Holds | Status::Proved),
            ExpectedStatus::Proved => self.verdict != Status::Proved,
            ExpectedStatus::Refuted => self.verdict != Status::Refuted,
        }
    }
}

/// A number parsed from a witness's decimal text, when it is one and finite.
fn number(text: &str) -> serde_json::Value {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => serde_json::json!(x),
        _ => serde_json::Value::Null,
    }
}

impl Witness {
    /// Every constant as text: its `constants_text` where the kind gave one (exact rationals as
    /// `p/q`, values beyond `f64` in scientific notation), else its `f64`.
    pub fn constants_all_text(&self) -> BTreeMap<String, String> {
        let mut out: BTreeMap<String, String> = self
            .constants
            .iter()
            .map(|(k, v)| (k.clone(), format!("{v}")))
            .collect();
        for (k, v) in &self.constants_text {
            out.insert(k.clone(), v.clone());
        }
        out
    }

    /// The constants for a text report: `{name = value, ...}`.
    ///
    /// ```
    /// use balloc::claim::Witness;
    /// let w = Witness { n: 2, loads: vec![], source: String::new(),
    ///     constants: [("c".to_string(), 0.5), ("d".to_string(), f64::INFINITY)].into(),
    ///     constants_text: [("d".to_string(), "1e400".to_string())].into(), exact: None,
    ///     lhs: "0".into(), rhs: "1".into(), slack: "1".into(), found_by: "x".into(), recheck: None };
    /// assert_eq!(w.constants_shown(), "{c = 0.5, d = 1e400}");
    /// ```
    pub fn constants_shown(&self) -> String {
        let parts: Vec<String> = self
            .constants_all_text()
            .into_iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        format!("{{{}}}", parts.join(", "))
    }

    /// The JSON of a witness (`balloc check --format json`, the Python `Witness.to_dict()`):
    /// `n`, `loads`, `source`, `constants` (numbers; null for a constant beyond the range of
    /// `f64`), `constants_text` (every constant as text: exact values as `p/q`, any magnitude in
    /// scientific notation), `found_by`, `recheck`, `exact` (`{lhs, rhs, slack}` as rationals
    /// `p/q` when the certified evaluation was exact, else null); `lhs`, `rhs`, `slack` are
    /// numbers (null when the side is not a finite `f64`, e.g. beyond its range, or a
    /// description), and `lhs_text`, `rhs_text`, `slack_text` always hold the full text.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "n": self.n,
            "loads": self.loads,
            "source": self.source,
            "constants": self
                .constants
                .iter()
                .map(|(k, v)| (k.clone(), v.is_finite().then_some(*v)))
                .collect::<BTreeMap<_, _>>(),
            "constants_text": self.constants_all_text(),
            "lhs": number(&self.lhs),
            "rhs": number(&self.rhs),
            "slack": number(&self.slack),
            "lhs_text": self.lhs,
            "rhs_text": self.rhs,
            "slack_text": self.slack,
            "found_by": self.found_by,
            "recheck": self.recheck,
            "exact": self.exact,
        })
    }
}

impl Verdict {
    /// The JSON object of a verdict (`balloc check --format json`, the Python
    /// `Verdict.to_dict()`): `id`, `verdict`, `expected`, `trust`, `slack`, `witness`,
    /// `searched` (the contract), and `precision_bits`, `confidence`, `notes`, `links`. Every
    /// field has one JSON type: `slack` and the witness's `lhs`/`rhs`/`slack` are numbers or
    /// null.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "id": self.id,
            "verdict": self.verdict.name(),
            "expected": self.expected.name(),
            "trust": self.trust.name(),
            "precision_bits": self.searched.precision_bits,
            "confidence": self.searched.confidence,
            "slack": self.slack.filter(|s| s.is_finite()),
            "witness": self.witness.as_ref().map(Witness::to_json),
            "searched": self.searched,
            "notes": self.notes,
            "links": self.links.iter().map(|l| serde_json::json!({
                "link": l.link,
                "verdict": l.verdict.name(),
                "trust": l.trust.name(),
                "slack": l.slack.filter(|s| s.is_finite()),
                "witness": l.witness.as_ref().map(Witness::to_json),
            })).collect::<Vec<_>>(),
        })
    }
}
