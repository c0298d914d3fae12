//! The tally of a search: how many states each phase or family evaluated, over which numbers of
//! bins, sources and constant combinations (reported with every verdict).

use serde::Serialize;
use std::collections::BTreeMap;

/// What was searched.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Searched {
    /// The numbers of bins.
    pub n: Vec<usize>,
    /// Processes or allocation vectors, per n.
    pub sources: usize,
    /// Constant combinations.
    pub constant_combinations: usize,
    /// Exhaustive bound (max n, max load) if enumeration was used.
    pub exhaustive_bound: Option<(usize, u32)>,
    /// States per phase or family (`exhaustive`, `one-heavy`, ..., `random`, `optimiser`,
    /// `trajectory`, `exact`).
    pub states: BTreeMap<String, u64>,
    /// The total number of evaluations.
    pub total: u64,
    /// The working precision (bits) of the enclosures that decided the verdict, when enclosures
    /// were used (trust level `enclosure`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision_bits: Option<u64>,
    /// The confidence level of a statistical verdict, for the whole file (trust level
    /// `statistical`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
}

impl Searched {
    /// Adds `k` states under `what`.
    pub fn add(&mut self, what: &str, k: u64) {
        if k > 0 {
            *self.states.entry(what.to_string()).or_insert(0) += k;
            self.total += k;
        }
    }

    /// Merges another tally.
    pub fn merge(&mut self, o: &Searched) {
        for (k, v) in &o.states {
            self.add(k, *v);
        }
    }

    /// A one-line summary; the numbers of bins and the sources are left out when the claim has
    /// none (a claim over real variables).
    ///
    /// ```
    /// use balloc::search::Searched;
    /// let mut s = Searched { constant_combinations: 1, ..Default::default() };
    /// s.add("boxes", 75);
    /// assert_eq!(s.summary(), "75 evaluations, 1 constant combination(s): boxes 75");
    /// s.n = vec![4, 8];
    /// s.sources = 2;
    /// assert_eq!(s.summary(), "75 evaluations over n ∈ [4, 8], 2 source(s), 1 constant combination(s): boxes 75");
    /// ```
    pub fn summary(&self) -> String {
        let parts: Vec<String> = self
            .states
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let ex = self
            .exhaustive_bound
            .map(|(n, l)| format!("; exhaustive up to n = {n}, loads ≤ {l}"))
            .unwrap_or_default();
        let over = if self.n.is_empty() && self.sources == 0 {
            String::new()
        } else {
            format!(" over n ∈ {:?}, {} source(s)", self.n, self.sources)
        };
        format!(
            "{} evaluations{over}, {} constant combination(s){ex}: {}",
            self.total,
            self.constant_combinations,
            parts.join(", ")
        )
    }
}
