//! Limits on every size a user can request, as data.
//!
//! Each [`Limit`] states its largest accepted value, what it applies to and why it has that value.
//! Sizes are checked against their limit before anything is allocated or looped over, with a
//! one-line error that states the limit and, where raising it makes sense (memory and time limits,
//! not limits of the mathematics), where to raise it. [`ALL`] lists them for the README and for
//! `balloc`'s tests, which check that the README states every limit with its value.
//!
//! Derived sizes (products such as `n·D` or `m = (m/n)·n`) are computed with checked arithmetic
//! ([`checked_mul`]) and then checked like the sizes themselves; floats become sizes only through
//! [`Limit::count_from_f64`], which refuses NaN, infinities, negatives and values above the limit
//! instead of saturating.
//!
//! ```
//! use balloc::limits;
//! assert_eq!(limits::BINS.check("--n", 1000).unwrap(), 1000);
//! let e = limits::BINS.check("--n", 1 << 40).unwrap_err().to_string();
//! assert_eq!(
//!     e,
//!     "invalid --n: 1099511627776 is above the limit of 67108864 bins \
//!      (limits::BINS; about 70 bytes per bin at the peak, so about 4.7 GB at the limit; \
//!      raise it in src/limits.rs and rebuild)"
//! );
//! ```

use crate::error::{Error, Result};

/// An upper limit on a size given by a user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// The constant's name in this module (quoted in errors).
    pub name: &'static str,
    /// The largest accepted value.
    pub max: u64,
    /// The unit of the size, plural (`bins`, `balls`, `seconds`).
    pub unit: &'static str,
    /// Where the limit applies (command-line arguments, file fields).
    pub applies_to: &'static str,
    /// Why the limit has this value.
    pub reason: &'static str,
    /// Whether raising it makes sense (memory and time limits) or not (limits of the method).
    pub raisable: bool,
}

impl Limit {
    /// `value` if it is at most [`Limit::max`], else the one-line error naming `what` (the
    /// argument or field), the limit and how to raise it.
    pub fn check(&self, what: &str, value: u64) -> Result<u64> {
        if value <= self.max {
            Ok(value)
        } else {
            Err(self.exceeded(what, &value.to_string()))
        }
    }

    /// [`Limit::check`] for a product or sum computed in `u128` (a derived size that may exceed
    /// `u64`), with the true value in the error.
    /// ```
    /// use balloc::limits::SIM_WORK;
    /// assert!(SIM_WORK.check_u128("balls × runs", 1 << 20).is_ok());
    /// let e = SIM_WORK.check_u128("balls × runs", u64::MAX as u128 * 8).unwrap_err().to_string();
    /// assert!(e.contains("147573952589676412920 is above the limit"), "{e}");
    /// ```
    pub fn check_u128(&self, what: &str, value: u128) -> Result<u64> {
        if value <= u128::from(self.max) {
            Ok(value as u64)
        } else {
            Err(self.exceeded(what, &value.to_string()))
        }
    }

    /// [`Limit::check`] for `usize` sizes.
    /// ```
    /// assert!(balloc::limits::GRAPH_N.check_usize("--n", 1 << 20).is_ok());
    /// assert!(balloc::limits::GRAPH_N.check_usize("--n", (1 << 20) + 1).is_err());
    /// ```
    pub fn check_usize(&self, what: &str, value: usize) -> Result<usize> {
        match u64::try_from(value) {
            Ok(v) if v <= self.max => Ok(value),
            _ => Err(self.exceeded(what, &value.to_string())),
        }
    }

    /// A non-negative finite float at most [`Limit::max`] (a time budget, a weight).
    /// ```
    /// use balloc::limits::SEARCH_BUDGET;
    /// assert_eq!(SEARCH_BUDGET.check_f64("--budget", 2.5).unwrap(), 2.5);
    /// assert!(SEARCH_BUDGET.check_f64("--budget", 1e300).is_err());
    /// assert!(SEARCH_BUDGET.check_f64("--budget", f64::NAN).is_err());
    /// assert!(SEARCH_BUDGET.check_f64("--budget", -1.0).is_err());
    /// ```
    pub fn check_f64(&self, what: &str, x: f64) -> Result<f64> {
        if !(x.is_finite() && x >= 0.0) {
            return Err(Error::invalid(
                what,
                format!("must be a finite number ≥ 0, got {x}"),
            ));
        }
        if x > self.max as f64 {
            return Err(self.exceeded(what, &format!("{x:e}")));
        }
        Ok(x)
    }

    /// A size computed in floating point (`⌈factor·n^power⌉`, ...) as an integer: `⌈x⌉` when `x` is
    /// finite, non-negative and `⌈x⌉` is at most the limit; an error otherwise (never a
    /// saturating `as` cast).
    /// ```
    /// use balloc::limits::MD_BALLS;
    /// assert_eq!(MD_BALLS.count_from_f64("balls", 2.5).unwrap(), 3);
    /// assert!(MD_BALLS.count_from_f64("balls", 1e100).is_err());
    /// assert!(MD_BALLS.count_from_f64("balls", f64::INFINITY).is_err());
    /// ```
    pub fn count_from_f64(&self, what: &str, x: f64) -> Result<u64> {
        let c = self.check_f64(what, x.ceil())?;
        // c ≤ max ≤ 2⁶⁴ − 1 and c is an integer: the cast is exact for every limit below 2⁵³
        // (all of them) and otherwise rounds down into range.
        Ok(c as u64)
    }

    /// The error for a `value` (as text) above the limit, for sizes counted while reading.
    /// ```
    /// let e = balloc::limits::GRAPH_EDGES.exceeded("graph file `g.txt`", "more than 33554432");
    /// assert!(e.to_string().starts_with("invalid graph file `g.txt`: more than 33554432 is above"));
    /// ```
    pub fn exceeded(&self, what: &str, value: &str) -> Error {
        let raise = if self.raisable {
            "; raise it in src/limits.rs and rebuild"
        } else {
            ""
        };
        Error::invalid(
            what,
            format!(
                "{value} is above the limit of {} {} (limits::{}; {}{raise})",
                self.max, self.unit, self.name, self.reason
            ),
        )
    }
}

/// `a·b`, or an error naming `what` when the product overflows `u64` (a derived size).
/// ```
/// assert_eq!(balloc::limits::checked_mul("balls", 64, 1 << 20).unwrap(), 64 << 20);
/// assert!(balloc::limits::checked_mul("balls", u64::MAX, 2).is_err());
/// ```
pub fn checked_mul(what: &str, a: u64, b: u64) -> Result<u64> {
    a.checked_mul(b)
        .ok_or_else(|| Error::invalid(what, format!("{a}·{b} overflows a 64-bit count")))
}

/// Bins of a load vector (`expect --loads`, `pvec --loads`, `@FILE`) and `pvec --n`.
pub const BINS: Limit = Limit {
    name: "BINS",
    max: 1 << 26,
    unit: "bins",
    applies_to: "`expect --loads`, `pvec --loads`, `pvec --n` (a load vector or allocation vector)",
    reason: "about 70 bytes per bin at the peak, so about 4.7 GB at the limit",
    raisable: true,
};

/// Size of an input file read whole (`--loads @FILE`, graph edge lists), checked before reading.
pub const INPUT_FILE_BYTES: Limit = Limit {
    name: "INPUT_FILE_BYTES",
    max: 1 << 32,
    unit: "bytes",
    applies_to: "`--loads @FILE`, `--graph @FILE`, `graphical(graph=file,file=...)`",
    reason: "the file is read into memory whole",
    raisable: true,
};

/// Batch size of an exact expectation (`expect --batch`).
pub const EXPECT_BATCH: Limit = Limit {
    name: "EXPECT_BATCH",
    max: 1_000_000_000,
    unit: "balls",
    applies_to: "`expect --batch`",
    reason: "the slowest closed form (Δ under a batch) costs O(b), about 4·10⁻⁸ s a ball",
    raisable: true,
};

/// Largest ball weight and weight mean (`--weights`).
pub const WEIGHT: Limit = Limit {
    name: "WEIGHT",
    max: 1_000_000_000_000,
    unit: "for a weight value or mean",
    applies_to: "`--weights` values and means (the papers normalise E[W] = 1)",
    reason: "keeps every moment the closed forms use (b²·E[W²] up to the batch limit) finite in f64",
    raisable: false,
};

/// Time budget of `balloc search`, in seconds.
pub const SEARCH_BUDGET: Limit = Limit {
    name: "SEARCH_BUDGET",
    max: 1_000_000,
    unit: "seconds",
    applies_to: "`search --budget`",
    reason: "about 11.6 days; a deadline further away is not a budget",
    raisable: true,
};

/// Vertices of any graph built: `balloc graph info`, `graphical(graph=...)`, the graphs of
/// theorem files and every constructor of [`crate::graph::Graph`].
pub const GRAPH_N: Limit = Limit {
    name: "GRAPH_N",
    max: 1 << 20,
    unit: "vertices",
    applies_to: "`graph info --n`, `graph experiment --n`, `graphical(graph=...)` (n = bins), `graphs`/`graph` of theorem files (`cycle(n)`, `torus(w,h)`: w·h, `hypercube(dim)`: 2^dim, …), edge-list vertex numbers",
    reason: "the decomposition, flows and measures keep several values per edge and tree node",
    raisable: true,
};

/// Edges of a graph read from an edge list or built with a given degree.
pub const GRAPH_EDGES: Limit = Limit {
    name: "GRAPH_EDGES",
    max: 1 << 25,
    unit: "edges",
    applies_to: "edge-list files (`--graph @FILE`, `graphical(graph=file,...)`, `file(PATH)`, `edges(...)`), `sparse-cut` (n·d/2)",
    reason: "the preprocessing keeps flows on every edge",
    raisable: true,
};

/// Vertices of a complete graph `K_n`.
pub const GRAPH_COMPLETE_N: Limit = Limit {
    name: "GRAPH_COMPLETE_N",
    max: 5000,
    unit: "vertices",
    applies_to: "`complete(n)`, `graphical(graph=complete)`",
    reason: "K_n has n(n − 1)/2 edges: 12.5 million at the limit",
    raisable: true,
};

/// Degree of a random regular graph (configuration model with rejection).
pub const GRAPH_REGULAR_DEGREE: Limit = Limit {
    name: "GRAPH_REGULAR_DEGREE",
    max: 12,
    unit: "for the degree d",
    applies_to: "`regular(n,d,seed)`, `graphical(graph=regular,d=...)`",
    reason: "a random pairing is simple with probability about e^((1 − d²)/4), so rejection (at most 100 000 attempts) fails for large d",
    raisable: false,
};

/// Vertices of a graph in a `graph` claim (its strategy is preprocessed exactly).
pub const GRAPH_CLAIM_N: Limit = Limit {
    name: "GRAPH_CLAIM_N",
    max: 1 << 16,
    unit: "vertices",
    applies_to: "`graphs` of `graph` theorem files (items and formulas)",
    reason: "the strategy's flows are kept in exact rationals (explicit routings cost O(n log n) values; electrical routings of other graphs grow faster: 3 s at n = 1024)",
    raisable: true,
};

/// Elements a `graph` claim evaluates: (graph, tree, load vector, element of `over`) for a
/// formula, (graph, load vector) × n for an item that reads loads.
pub const GRAPH_CLAIM_ELEMENTS: Limit = Limit {
    name: "GRAPH_CLAIM_ELEMENTS",
    max: 10_000_000,
    unit: "elements",
    applies_to: "`graph` theorem files: graphs × trees × load vectors × constant combinations × elements of `over` (pairs: (n − 1)², ancestors: Σ depth), counted before evaluating",
    reason: "each element is evaluated in floats, the flagged ones certified in exact rationals or enclosures: microseconds to milliseconds each",
    raisable: true,
};

/// `n·m` of the max-flow computations of the edge connectivity and the minimum cut.
pub const GRAPH_CONNECTIVITY_WORK: Limit = Limit {
    name: "GRAPH_CONNECTIVITY_WORK",
    max: 50_000_000,
    unit: "for n·m",
    applies_to: "edge connectivity (`graph info`, `d`/`k` and `d/k` of statistical files, `k` and the minimum cut of `graph` claims) of graphs outside the standard families",
    reason: "n − 1 max-flows of O(δ·m) each: about a second at the limit",
    raisable: true,
};

/// Vertices of a graph whose spectral gap is computed by a dense eigensolver.
pub const GRAPH_SPECTRAL_N: Limit = Limit {
    name: "GRAPH_SPECTRAL_N",
    max: 3000,
    unit: "vertices",
    applies_to: "`spectral_gap` (`graph info`, graph formulas) of graphs outside the standard families",
    reason: "a dense symmetric eigensolver, O(n³) time and n² memory",
    raisable: true,
};

/// Vertices of a graph whose subsets are enumerated (edge expansion, largest uniform drift).
pub const GRAPH_EXHAUSTIVE_N: Limit = Limit {
    name: "GRAPH_EXHAUSTIVE_N",
    max: 20,
    unit: "vertices",
    applies_to: "`edge_expansion` (`expansion` of `graph` claims), `drift_max` of `graph` claims (2ⁿ vertex sets)",
    reason: "every one of the 2ⁿ vertex sets is visited",
    raisable: true,
};

/// Vertices for the load family `permutations` (all n! orderings).
pub const GRAPH_PERMUTATIONS_N: Limit = Limit {
    name: "GRAPH_PERMUTATIONS_N",
    max: 8,
    unit: "vertices",
    applies_to: "`families = [\"permutations\"]` of `graph` theorem files",
    reason: "n! load vectors (40 320 at the limit), each evaluated exactly",
    raisable: true,
};

/// Children per node of a Räcke-shaped tree before binarisation (`binarised(k, seed)`).
pub const TREE_BINARISED_K: Limit = Limit {
    name: "TREE_BINARISED_K",
    max: 64,
    unit: "children",
    applies_to: "`trees = [\"binarised(k, seed)\"]` of `graph` theorem files",
    reason: "the binarisation of C.Alg.pre.2 enumerates splits of a node's children",
    raisable: true,
};

/// Steps per axis of the two-point grid of formulas (`over = "two-point"`).
pub const TWO_POINT_EXPR_STEPS: Limit = Limit {
    name: "TWO_POINT_EXPR_STEPS",
    max: 1000,
    unit: "steps per axis",
    applies_to: "`grid` of `over = \"two-point\"` formulas",
    reason: "each configuration × δ is a formula decided exactly or by enclosures",
    raisable: true,
};

/// Values of δ of two-point formulas (`over = "two-point"`).
pub const TWO_POINT_EXPR_DELTAS: Limit = Limit {
    name: "TWO_POINT_EXPR_DELTAS",
    max: 100_000,
    unit: "values of δ",
    applies_to: "`deltas` of `over = \"two-point\"` formulas",
    reason: "each configuration × δ is a formula decided exactly or by enclosures",
    raisable: true,
};

/// Trials `T` of the binomial tails of Lemma 4.1 (`cut_tail(T)`, `excess_bound`, `deviation_bound` of
/// `graph` claims).
pub const BINOMIAL_TRIALS: Limit = Limit {
    name: "BINOMIAL_TRIALS",
    max: 1 << 24,
    unit: "trials",
    applies_to: "`cut_tail(T)`, `excess_bound(T, a, b)`, `deviation_bound(T, a, b)`, `pair_bound(T, j, y)`, `spread_bound(T, b, y)` of `graph` claims (Lemma 4.1: T = ⌈c·n²d²/k²⌉)",
    reason: "the enclosed tail costs O(T) interval operations, about a microsecond each",
    raisable: true,
};

/// Numbers of bins of a claim: `constant --n` (theorem files share it).
pub const CLAIM_N: Limit = Limit {
    name: "CLAIM_N",
    max: 1 << 20,
    unit: "bins",
    applies_to: "`constant --n` values",
    reason: "every searched state is a vector of n loads, evaluated many times",
    raisable: true,
};

/// Entries of the `constant --n` list.
pub const CONSTANT_NS: Limit = Limit {
    name: "CONSTANT_NS",
    max: 64,
    unit: "values of n",
    applies_to: "`constant --n` (length of the list)",
    reason: "each n is a separate bisection",
    raisable: true,
};

/// Cells `n·D` of a multidimensional load table.
pub const MD_CELLS: Limit = Limit {
    name: "MD_CELLS",
    max: 1 << 27,
    unit: "cells",
    applies_to: "`multidim simulate --n` times the ball law's dims",
    reason: "8 bytes a cell, so 1 GiB at the limit",
    raisable: true,
};

/// Balls of one multidimensional run (`multidim simulate --balls`, `--batch`, and
/// `(m/n)·n` of `multidim experiment`).
pub const MD_BALLS: Limit = Limit {
    name: "MD_BALLS",
    max: 1 << 40,
    unit: "balls",
    applies_to: "`multidim simulate --balls`, `multidim experiment` (heavy·n)",
    reason: "a run places about 10⁷ balls a second, so the limit is about a day per run",
    raisable: true,
};

/// Balls of one round of the parallel multidimensional process (`multidim ... --batch`).
pub const MD_BATCH: Limit = Limit {
    name: "MD_BATCH",
    max: 1 << 26,
    unit: "balls",
    applies_to: "`multidim simulate --batch`, `multidim experiment --batch`",
    reason: "a round keeps (bin, ball) for each of its balls: 16 bytes a ball, 1 GiB at the limit",
    raisable: true,
};

/// Runs of one multidimensional configuration.
pub const MD_RUNS: Limit = Limit {
    name: "MD_RUNS",
    max: 1_000_000,
    unit: "runs",
    applies_to: "`multidim simulate --runs`, `multidim experiment --runs`",
    reason: "every run's result is kept for the summary and the output",
    raisable: true,
};

/// Dimensions of an md-ball and of a multidimensional load table.
/// ```
/// assert!(balloc::limits::MD_DIMS.check("dims", 64).is_ok());
/// assert!(balloc::multidim::BallLaw::parse("uniform(dims=65,f=1)").is_err());
/// ```
pub const MD_DIMS: Limit = Limit {
    name: "MD_DIMS",
    max: 64,
    unit: "dimensions",
    applies_to: "md-ball laws (`uniform(dims=...)`, `skewed`, `binomial`), md load tables and md states, `[constants] f` of kind `multidim`",
    reason: "a ball's support is a 64-bit mask, one bit a dimension",
    raisable: false,
};

/// Supports of an md-ball law enumerated by an exact expectation.
/// ```
/// // uniform(dims=24, f=12) has C(24, 12) = 2704156 > 2²⁰ supports.
/// let law = balloc::multidim::BallLaw::parse("uniform(dims=24,f=12)").unwrap();
/// assert!(law.supports_exact().unwrap_err().to_string().contains("limits::MD_SUPPORTS"));
/// assert_eq!(balloc::limits::MD_SUPPORTS.max, 1 << 20);
/// ```
pub const MD_SUPPORTS: Limit = Limit {
    name: "MD_SUPPORTS",
    max: 1 << 20,
    unit: "supports",
    applies_to: "exact one-step expectations over md-balls (`C(D, f)` supports, `2^D` for `binomial`): `multidim` claims with `expr`, the md-level re-check",
    reason: "every support is an outcome of the expectation, n of them a support",
    raisable: true,
};

/// Cells `n·D` of every state of a multidimensional claim with `expr`.
/// ```
/// // n = 1024 bins of D = 4 dimensions: 4096 cells, the largest accepted.
/// assert!(balloc::limits::MD_CLAIM_CELLS.check("n·D", 1024 * 4).is_ok());
/// assert!(balloc::limits::MD_CLAIM_CELLS.check("n·D", 1025 * 4).is_err());
/// ```
pub const MD_CLAIM_CELLS: Limit = Limit {
    name: "MD_CLAIM_CELLS",
    max: 4096,
    unit: "cells",
    applies_to: "`multidim` claims with `expr`: n·D for every `[domain] n` and every explicit md state",
    reason: "every state is evaluated with its expectation over supports × n outcomes of n·D cells each (in floats; exactly where certified)",
    raisable: true,
};

/// States of the exhaustive enumeration of a multidimensional claim with `expr`, per n.
/// ```
/// // max_load = 1 at n = 4, D = 4: 2^16 = 65536 states, within the limit; D = 5 is not.
/// assert!(balloc::limits::MD_CLAIM_EXHAUSTIVE.check("max_load", 1 << 16).is_ok());
/// assert!(balloc::limits::MD_CLAIM_EXHAUSTIVE.check("max_load", 1 << 20).is_err());
/// ```
pub const MD_CLAIM_EXHAUSTIVE: Limit = Limit {
    name: "MD_CLAIM_EXHAUSTIVE",
    max: 100_000,
    unit: "states per n",
    applies_to: "`multidim` claims with `expr`: `max_load` enumerates (max_load + 1)^(n·D) states; with `sum_chain`, `exhaustive = { max_n, max_load }` enumerates C(max_load + n − 1, n − 1) sorted states",
    reason: "every state is evaluated with its one-step expectation (in floats; the flagged ones certified)",
    raisable: true,
};

/// Digits of an exact decimal number (`parse_ratio`: parameters, `--delta`, theorem constants).
pub const DECIMAL_DIGITS: Limit = Limit {
    name: "DECIMAL_DIGITS",
    max: 4096,
    unit: "characters",
    applies_to: "exact numbers: spec parameters, `pvec --delta`, theorem-file constants",
    reason: "a number is turned into a big-integer fraction",
    raisable: false,
};

/// Decimal exponent of an exact number (`1e-30`), in absolute value.
pub const DECIMAL_EXPONENT: Limit = Limit {
    name: "DECIMAL_EXPONENT",
    max: 4096,
    unit: "in absolute value",
    applies_to: "exact numbers: spec parameters, `pvec --delta`, theorem-file constants",
    reason: "10^e is computed exactly; f64 ends near 10^±308",
    raisable: false,
};

/// Work of one simulation, in ball steps (balls per run × runs, burn-in included): checked by
/// [`crate::sim::simulate`] for every caller, and summed over a statistical theorem file's
/// configurations before the first run.
pub const SIM_WORK: Limit = Limit {
    name: "SIM_WORK",
    max: 1 << 40,
    unit: "ball steps",
    applies_to: "`simulate` (--balls × --runs), each row of `sweep`, `graph experiment` (balls × runs per n), statistical theorem files (runs × (burn_in + balls), summed over the file's configurations), the Python `simulate`",
    reason: "about 10 hours on one core at 36 ns a ball (the graph strategy's loop; the registered processes are faster)",
    raisable: true,
};

/// Work of the adaptive adversaries of a statistical file (`[claim] adversary`): runs × decisions
/// (balls, or batches) × `n^lookahead`, summed over the configurations, checked before the first
/// run.
pub const ADVERSARY_WORK: Limit = Limit {
    name: "ADVERSARY_WORK",
    max: 1 << 40,
    unit: "rank operations",
    applies_to: "`[claim] adversary` with `lookahead` of statistical theorem files (runs × decisions × n^lookahead, summed over the configurations)",
    reason: "each decision is a linear maximisation over the class, O(n) per continuation value; about 30 minutes at a nanosecond per operation",
    raisable: true,
};

/// Work of the exact coupon-collector probability (`untouched(T)` of `graph` claims, the name
/// `untouched` of statistical graph files): the signed counts of the vertex sets by their number of
/// incident edges (`2^n · d` for inclusion–exclusion over every vertex set, `n²` for cycles by a
/// transfer matrix, `n` for complete graphs) plus `(m + 1)·T` for the exact sum of `(m − e)^T/m^T`.
pub const COUPON_WORK: Limit = Limit {
    name: "COUPON_WORK",
    max: 1 << 30,
    unit: "operations",
    applies_to: "`untouched(T)` of `graph` claims and the name `untouched` of statistical graph files",
    reason: "big-integer operations of a few tens of nanoseconds: about a minute at the limit",
    raisable: true,
};

/// Effort of `balloc check --effort` (a multiplier of the searches' random states, optimiser
/// evaluations and statistical runs).
pub const CHECK_EFFORT: Limit = Limit {
    name: "CHECK_EFFORT",
    max: 1000,
    unit: "times the file's budget",
    applies_to: "`check --effort`",
    reason: "the catalogue takes about 20 CPU-seconds at effort 1, so about 6 CPU-hours at the limit",
    raisable: true,
};

/// States one search of one case (n, allocation, constant combination) may evaluate:
/// `(random + optimise·starts)·effort`, checked before the search starts.
pub const SEARCH_STATES: Limit = Limit {
    name: "SEARCH_STATES",
    max: 100_000_000,
    unit: "states per case",
    applies_to: "`[domain] random`, `optimise`, `starts` of theorem files, times `check --effort`",
    reason: "about 20 minutes a case at 10 µs a state (a one-step expectation of a few hundred bins)",
    raisable: true,
};

/// Steps `k` of the law of the next states in claims: `E{k}_X`, `P{k}(...)`, `E{k}(...)`.
pub const NEXT_STEPS: Limit = Limit {
    name: "NEXT_STEPS",
    max: 256,
    unit: "steps",
    applies_to: "`E{k}_X`, `dE{k}_X`, `R{k}_X`, `P{k}(...)`, `E{k}(...)` in claims",
    reason: "the exact probabilities after k steps have denominators up to (n^d)^k (d samples a ball): at k = 256 and n = 16, numbers of 2048 bits",
    raisable: true,
};

/// Distinct states the law after `k` steps may hold at one step (the dynamic programme over
/// the states, merged when equal or equal up to a permutation of the bins).
pub const NEXT_STATES: Limit = Limit {
    name: "NEXT_STATES",
    max: 100_000,
    unit: "distinct states per step",
    applies_to: "`E{k}_X` (k > 4), `P{k}(...)`, `E{k}(...)` (k ≥ 2) in claims",
    reason: "every distinct state of a step is kept with its exact probability and expanded into its one-step outcomes (about n of them): some 10⁶ exact evaluations a step",
    raisable: true,
};

/// Boxes of the range values examined per searched state when a claim over a range of a
/// constant is decided at that state ([`crate::claim::range::decide_over`]).
pub const RANGE_BOXES: Limit = Limit {
    name: "RANGE_BOXES",
    max: 2048,
    unit: "boxes per state",
    applies_to: "constants over a range (`eps = \"(0, 1/2]\"`) in kind `inequality`",
    reason: "each box is one or two evaluations of the claim in enclosures and in the mean-value form (about a millisecond at n ≤ 8): a few seconds per state at most; a state whose boxes run out is undecided, never held",
    raisable: true,
};

/// Distinct states of one case kept to be decided over the ranges of range constants.
pub const RANGE_STATES: Limit = Limit {
    name: "RANGE_STATES",
    max: 100_000,
    unit: "states per case",
    applies_to: "constants over a range (`eps = \"(0, 1/2]\"`) in kind `inequality`",
    reason: "every state the search evaluates is kept (n numbers each) and decided over the range after the search; beyond the limit the verdict is `inconclusive`, never `holds`",
    raisable: true,
};

/// Every limit, for the README and the tests.
pub const ALL: &[&Limit] = &[
    &BINS,
    &INPUT_FILE_BYTES,
    &EXPECT_BATCH,
    &WEIGHT,
    &SEARCH_BUDGET,
    &GRAPH_N,
    &GRAPH_EDGES,
    &GRAPH_COMPLETE_N,
    &GRAPH_REGULAR_DEGREE,
    &GRAPH_CLAIM_N,
    &GRAPH_CLAIM_ELEMENTS,
    &GRAPH_CONNECTIVITY_WORK,
    &GRAPH_SPECTRAL_N,
    &GRAPH_EXHAUSTIVE_N,
    &GRAPH_PERMUTATIONS_N,
    &TREE_BINARISED_K,
    &TWO_POINT_EXPR_STEPS,
    &TWO_POINT_EXPR_DELTAS,
    &BINOMIAL_TRIALS,
    &CLAIM_N,
    &CONSTANT_NS,
    &MD_CELLS,
    &MD_BALLS,
    &MD_BATCH,
    &MD_RUNS,
    &MD_DIMS,
    &MD_SUPPORTS,
    &MD_CLAIM_CELLS,
    &MD_CLAIM_EXHAUSTIVE,
    &DECIMAL_DIGITS,
    &DECIMAL_EXPONENT,
    &SIM_WORK,
    &ADVERSARY_WORK,
    &COUPON_WORK,
    &CHECK_EFFORT,
    &SEARCH_STATES,
    &NEXT_STEPS,
    &NEXT_STATES,
    &RANGE_BOXES,
    &RANGE_STATES,
];

/// Largest `k` with `n = 2^k` in `multidim experiment` (`--max-log2-n`).
pub const MD_MAX_LOG2_N: u32 = 24;

/// The largest n for which `pvec` computes exact rational vectors (above it, `float` only).
pub const PVEC_EXACT_N: usize = 20_000;

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    fn names_are_unique_and_match_the_constants() {
        let mut names: Vec<&str> = ALL.iter().map(|l| l.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ALL.len());
        assert_eq!(BINS.name, "BINS");
        assert_eq!(MD_RUNS.name, "MD_RUNS");
    }

    fn every_limit_converts_exactly_to_f64() {
        // check_f64 compares against max as f64; below 2⁵³ that conversion is exact.
        for l in ALL {
            assert!(l.max < 1 << 53, "{}", l.name);
            assert_eq!(l.max as f64 as u64, l.max);
        }
    }

    fn errors_are_one_line_and_name_the_argument() {
        for l in ALL {
            let e = l.check("--x", l.max + 1).unwrap_err().to_string();
            assert!(!e.contains('\n'));
            assert!(e.starts_with("invalid --x: "), "{e}");
            assert!(e.contains(&format!("limits::{}", l.name)), "{e}");
            assert_eq!(e.contains("raise it"), l.raisable, "{e}");
            assert_eq!(l.check("--x", l.max).unwrap(), l.max);
        }
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "names_are_unique_and_match_the_constants",
            run: names_are_unique_and_match_the_constants,
            panics: None,
        },
        crate::unit::Test {
            name: "every_limit_converts_exactly_to_f64",
            run: every_limit_converts_exactly_to_f64,
            panics: None,
        },
        crate::unit::Test {
            name: "errors_are_one_line_and_name_the_argument",
            run: errors_are_one_line_and_name_the_argument,
            panics: None,
        },
    ];
}
