//! The kind `statistical`: a claim about the law of a simulated process (docs/conventions.md §3, trust level
//! `statistical`), decided by Monte Carlo with a stated confidence level.
//!
//! A file names the simulated configurations (the processes of `[setting]` with its weights and
//! tie rule; md-balls with a law and a rule; or graph strategies on graph families: greedy or
//! Bansal–Feldheim's, `strategy = "greedy"` / `"flow"` / a list, on `graph = "cycle"` or a list of
//! `cycle`, `path`, `torus`, `hypercube`, `complete`, `regular(d=…,seed=…)`,
//! `sparse-cut(d=…,k=…[,a=…])`, `file(PATH)` (read from the theorem file's folder), with
//! `beta` a number or a list (one source per graph, β and strategy)),
//! the grid (`[domain] n`, `[claim] batch` as expressions in `n`), the number of balls `m` as an
//! expression in `n` and `b`, runs, seed and confidence level `c`; a per-run statistic `X`; and a
//! claim on it:
//!
//! * `mean = "<= rhs"` (or `">= rhs"`): `E[X] ≤ rhs`, decided by the Student-t interval of the
//!   sample mean ([`crate::sim::statistic::mean_ci`]);
//! * `probability = "<= rhs"` with `q`: `P[X ≤ rhs] ≥ 1 − q`, decided by the exact
//!   Clopper–Pearson interval of the fraction of runs with `X ≤ rhs`
//!   ([`crate::sim::statistic::proportion_ci`]);
//! * `exponent = "<= a"` (`">= a"`, `"in [lo, hi]"`): the least-squares exponent of
//!   `E[X]/relative_to ≈ C·x^a` over the grid of `x ∈ {n, b, m}` or of a source parameter
//!   (`exponent_in = "beta"`, `"1/beta"`: the processes' or the strategy's β; `"d/k"`: degree over
//!   edge connectivity of the graph sources; one curve per group of sources that differ only in
//!   it), with its interval from the runs' standard errors ([`crate::growth::power_fit`]);
//! * `compare = "<="` (`">="`): `E[X]` of the first source against the second, by paired runs with
//!   common random numbers (the t interval of the per-run differences against 0).
//!
//! With graph sources the per-configuration fields (the rhs of `mean`/`probability`, `q`,
//! `relative_to`, `subtract`) also know `d` and `k`, the degree and edge connectivity of the
//! configuration's graph (e.g. `probability = ">= c * d / k"`), and the statistic `cut_gap` is
//! `max(L̄(S), L̄(S̄)) − t/n` for the larger side `S` of a minimum cut of the graph
//! ([`crate::sim::graph::Cut`]).
//!
//! Runs may start from a given state (`start`, `start_loads`), observe a window after a burn-in
//! (`burn_in`), and check that the window is at steady state (`steady_state`: the statistic on the
//! two halves of the window agrees within the interval of the paired differences; otherwise the
//! configuration is `inconclusive`). Every configuration's observed/bound ratio is reported.
//!
//! With `k` intervals (every n × process × batch × ball count of the grid, one per pair or fitted
//! curve for comparisons and growth claims, plus one per configuration for the steady-state check)
//! each interval is taken at the Bonferroni level `1 − (1 − c)/k`, so that with probability at
//! least `c` every interval covers its true value at once: the stated confidence is for the whole
//! file. Verdict: `holds` when every
//! interval lies on the claimed side of its threshold, `refuted` when one lies entirely on the
//! other side (the first such configuration is reported with its estimate and interval),
//! `inconclusive` otherwise. Runs are seeded from (configuration, seed, run index), so the verdict
//! does not depend on the thread count.
//!
//! The papers' quantifiers (`quantifiers`): with `[setting.vectors]` the sources are the members
//! of the class C1(δ, ε) ∩ C2(C) that the inequality kind's quantifier builds, plus the adaptive
//! adversary of [`crate::sim::adversary`] for each objective of `[claim] adversary` (the claim
//! must hold at all of them: for the worst); `statistic = "hitting_time"` is the first time the
//! formula `until` holds ([`crate::sim::stopping`]), with censored runs decided honestly; files
//! that range over a class or several strategies name the worst source at each grid point.
//!
//! The constant finder ([`Check::tighten`]) gives, per n, the tightest value of a constant of
//! `[tighten]` for which every configuration at that n holds at the file's per-configuration
//! level (the simulation is run once per n; the bisection only re-evaluates the thresholds).
//!
//! The modules: `section` (the `[claim]` section as written), `build` (compiling it, with
//! the scope of its expressions and the grid fields), `statistic` (the per-run statistic),
//! `claim` (the test and its right-hand side), `sources` (what is simulated),
//! `quantifiers` (classes, adversaries, stopping times), `grid` (the configurations and the
//! work limits), `simulate` (the runs of one configuration), `judge` (intervals and
//! decisions), `run` (the verdict), `growth` (exponent claims), `tighten` (the constant
//! finder).

use super::{Check, ConstantReport, KindInfo, RunContext};
use crate::claim::schema::Theorem;
use crate::claim::verdict::Verdict;
use crate::error::Result;
use crate::lang::Expr;

mod build;
mod builder;
mod claim;
mod grid;
mod growth;
mod judge;
mod point;
mod quantifiers;
mod run;
mod section;
mod simulate;
mod sources;
mod statistic;
mod tighten;

use claim::Test;
pub use judge::{Judgement, StatClaim, bonferroni, judge_values};
use sources::Source;
pub use statistic::STATISTICS;
use statistic::Stat;

/// The registry entry.
pub static INFO: KindInfo = KindInfo {
    name: "statistical",
    summary: "E[X] ≤/≥ rhs, P[X ≤/≥ rhs] ≥ 1 − q, the growth exponent of E[X] in n, b or m, or E[X] of two sources compared by paired runs, for a per-run statistic X of simulated runs (start states, burn-in, steady-state check), with a confidence level for the whole file (Bonferroni over the grid)",
    build: build::build,
};

/// The per-configuration names of graph sources: degree, edge connectivity, and the exact
/// probability that some vertex is untouched by the `m` edge requests of a run.
const GRAPH_NAMES: [&str; 3] = ["d", "k", "untouched"];

/// The per-configuration name of every source's β (the process parameter `beta`, an md rule's
/// `one-plus-beta` choice, or `[claim] beta` of a graph source): a bound such as
/// `K * ln(n) / beta` over sources with different β. Its slot follows the graph names; a constant
/// of the same name shadows it.
const SOURCE_BETA: &str = "beta";

/// The number of per-source slots after the constants (`d`, `k`, `untouched`, `beta`); the state
/// names of `until` follow them.
const PER_SOURCE_SLOTS: usize = 4;

/// The start state of a file, with its expressions in `n`.
enum StartSpec {
    Empty,
    OneBin(Expr),
    Gap(Expr),
    Loads(Vec<f64>),
}

/// A built `statistical` check.
pub struct Statistical {
    t: Theorem,
    stat: Stat,
    test: Test,
    rhs: Expr,
    q: Option<Expr>,
    /// The numbers of balls `m` (a grid: every entry is simulated).
    balls: Vec<Expr>,
    batch: Vec<Expr>,
    runs: u64,
    seed: u64,
    confidence: f64,
    potential: Option<String>,
    checkpoints: usize,
    sources: Vec<Source>,
    weights: String,
    ties: String,
    long_n: Vec<usize>,
    start: StartSpec,
    burn_in: Option<Expr>,
    steady_state: bool,
    relative_to: Option<Expr>,
    /// `below` of potential_fraction and `level` of recovery_time (expressions in n, b, m).
    below: Option<Expr>,
    level: Option<Expr>,
    /// The upper end of an exponent range `in [lo, hi]` (the lower end is `rhs`).
    exponent_hi: Option<Expr>,
    /// Subtracted from every per-run value (an expression in n, b, m), with its text.
    subtract: Option<(Expr, String)>,
    /// The parameter `beta` of each source (growth claims in β), else empty.
    betas: Vec<f64>,
    /// The curve of each source in a growth fit over a source parameter (`beta`, `d/k`), and the
    /// number of curves; one curve otherwise.
    curve: Vec<usize>,
    curves: usize,
    /// Whether `d`, `k` of the graph sources are read (by a per-configuration field or a fit in
    /// `d/k`): they are then computed per configuration.
    uses_dk: bool,
    /// Whether `untouched` is read (the coupon-collector probability of a graph source's graph at
    /// `m` steps): it is then computed per configuration.
    uses_untouched: bool,
    /// The β of each source when a per-configuration field reads `beta` (else empty).
    source_beta: Vec<f64>,
    /// The strategy deciding on set loads refreshed every `refresh` balls (an expression in n).
    refresh: Option<Expr>,
    /// The distributed version against an adversary: the largest difference of set averages
    /// whose sign is the adversary's (an expression in n).
    adversarial: Option<Expr>,
    /// `hitting_time`: the event (compiled over `n`, `b`, `m`, the constants, the four per-source slots,
    /// then `t`, `gap`, `spread`, `quantile`, `potential`) with its text, and the balls between
    /// checks (default `n`).
    until: Option<(crate::lang::Formula, String)>,
    every: Option<Expr>,
    /// Whether the notes name the worst source per grid point (class sources, several
    /// strategies, hitting times).
    report_worst: bool,
    /// Slot names: `n`, `b`, `m`, then the constants.
    names: Vec<String>,
    consts: Vec<f64>,
}

impl Check for Statistical {
    fn run(&self, ctx: &mut RunContext) -> Result<Verdict> {
        self.decide(ctx)
    }

    fn tighten(
        &self,
        name: &str,
        ns: Option<&[usize]>,
        ctx: &mut RunContext,
    ) -> Result<ConstantReport> {
        self.tighten_constant(name, ns, ctx)
    }

    fn run_alternatives(
        &self,
        ctx: &mut RunContext,
        alternatives: &[Vec<(String, f64)>],
    ) -> Result<(Verdict, Vec<Verdict>)> {
        self.decide_alternatives(ctx, alternatives)
    }
}
