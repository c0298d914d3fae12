//! One configuration of a statistical file's grid with its per-run values: what the simulation
//! produces and the decisions, the class quantifiers and the constant finder read.

/// One configuration of the grid with its per-run values.
pub(super) struct Point {
    pub n: usize,
    pub b: u64,
    pub m: u64,
    /// The indices of the batch and ball-count expressions.
    pub bi: usize,
    pub mi: usize,
    pub source: usize,
    pub values: Vec<f64>,
    /// The per-source names of this configuration: the degree, edge connectivity and
    /// coupon-collector probability of a graph source's graph at `n` and `m`, and the source's β
    /// (each when read; else 0).
    pub dk: [f64; 4],
    /// The statistic on the first and second halves of the observation window, per run (with
    /// `steady_state`).
    pub halves: Option<(Vec<f64>, Vec<f64>)>,
    /// A class member's own label at this `n` (its vector's label).
    pub detail: Option<String>,
}
