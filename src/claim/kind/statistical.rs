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
//!   it), with its interval from the runs' standard errors ([`crate::sim::growth::power_fit`]);
//! * `compare = "<="` (`">="`): `E[X]` of the first source against the second, by paired runs with
//!   common random numbers (the t interval of the per-run differences against 0).
//!
//! With graph sources the per-configuration fields (the rhs of `mean`/`probability`, `q`,
//! `relative_to`, `subtract`) also know `d` and `k`, the degree and edge connectivity of the
//! configuration's graph (e.g. `probability = ">= c * d / k"`), and the statistic `cut_gap` is
//! `max(L̄(S), L̄(S̄)) − t/n` for the larger side `S` of a minimum cut of the graph
//! ([`crate::graph::experiment::Cut`]).
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
//! The papers' quantifiers ([`quantifiers`]): with `[setting.vectors]` the sources are the members
//! of the class C1(δ, ε) ∩ C2(C) that the inequality kind's quantifier builds, plus the adaptive
//! adversary of [`crate::sim::adversary`] for each objective of `[claim] adversary` (the claim
//! must hold at all of them: for the worst); `statistic = "hitting_time"` is the first time the
//! formula `until` holds ([`crate::sim::stopping`]), with censored runs decided honestly; files
//! that range over a class or several strategies name the worst source at each grid point.
//!
//! The constant finder ([`Check::tighten`]) gives, per n, the tightest value of a constant of
//! `[tighten]` for which every configuration at that n holds at the file's per-configuration
//! level (the simulation is run once per n; the bisection only re-evaluates the thresholds).

use super::{Check, ConstantReport, KindInfo, RunContext, Tightest};
use crate::claim::schema::{ConstValue, FileError, Theorem};
use crate::claim::verdict::{Observation, Searched, Status, Trust, Verdict, Witness};
use crate::error::{Error, Result};
use crate::graph::experiment::Rule;
use crate::graph::family::GraphSpec;
use crate::lang::{Expr, Float, Slots};
use crate::multidim::{BallLaw, MdRule, sim::MdSimConfig};
use crate::sim::statistic::{Decision, Estimate, Side, mean_ci, proportion_ci};
use crate::sim::{Config, Model, Plan, RunResult, simulate};
use std::collections::BTreeMap;
use std::sync::Arc;

mod quantifiers;
use quantifiers::{ClassSource, class_sources, class_spec};

/// The registry entry.
pub static INFO: KindInfo = KindInfo {
    name: "statistical",
    summary: "E[X] ≤/≥ rhs, P[X ≤/≥ rhs] ≥ 1 − q, the growth exponent of E[X] in n, b or m, or E[X] of two sources compared by paired runs, for a per-run statistic X of simulated runs (start states, burn-in, steady-state check), with a confidence level for the whole file (Bonferroni over the grid)",
    build,
};

/// The per-configuration names of graph sources: degree, edge connectivity, and the exact
/// probability that some vertex is untouched by the `m` edge requests of a run.
const GRAPH_NAMES: [&str; 3] = ["d", "k", "untouched"];

/// The per-run statistics, by name.
pub const STATISTICS: &[&str] = &[
    "potential_fraction",
    "recovery_time",
    "hitting_time",
    "final_gap",
    "max_gap",
    "spread",
    "potential_final",
    "potential_mean",
    "mean_quantile_fraction",
    "md_max_gap",
    "md_sum_gap",
    "sibling_gap",
    "cut_gap",
];

#[derive(serde::Deserialize)]
#[serde(untagged)]
enum NumOrExpr {
    Num(f64),
    Text(String),
}

#[derive(serde::Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(NumOrExpr),
    Many(Vec<NumOrExpr>),
}

impl NumOrExpr {
    fn text(&self) -> String {
        match self {
            NumOrExpr::Num(x) => format!("{x:e}"),
            NumOrExpr::Text(t) => t.clone(),
        }
    }
}

/// `graph = "cycle"` or `graph = ["sparse-cut(d=24,k=2)", "sparse-cut(d=24,k=8)"]`.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Graphs {
    One(String),
    Many(Vec<String>),
}

/// `beta = 0.25` or `beta = [1, 0.5, 0.25]`.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Betas {
    One(f64),
    Many(Vec<f64>),
}

/// `strategy = "greedy"` or `strategy = ["flow", "greedy"]`.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Strategies {
    One(String),
    Many(Vec<String>),
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimSection {
    statistic: String,
    #[serde(default)]
    mean: Option<String>,
    #[serde(default)]
    probability: Option<String>,
    #[serde(default)]
    q: Option<NumOrExpr>,
    balls: OneOrMany,
    #[serde(default)]
    batch: Option<Vec<NumOrExpr>>,
    runs: u64,
    #[serde(default)]
    seed: u64,
    confidence: f64,
    #[serde(default)]
    potential: Option<String>,
    #[serde(default)]
    checkpoints: Option<usize>,
    #[serde(default)]
    eps: Option<f64>,
    #[serde(default)]
    law: Option<String>,
    #[serde(default)]
    rule: Option<String>,
    #[serde(default)]
    graph: Option<Graphs>,
    #[serde(default)]
    strategy: Option<Strategies>,
    #[serde(default)]
    long_n: Vec<usize>,
    #[serde(default)]
    start: Option<String>,
    #[serde(default)]
    start_loads: Option<Vec<f64>>,
    #[serde(default)]
    burn_in: Option<NumOrExpr>,
    #[serde(default)]
    steady_state: bool,
    #[serde(default)]
    exponent: Option<String>,
    #[serde(default)]
    exponent_in: Option<String>,
    #[serde(default)]
    relative_to: Option<String>,
    #[serde(default)]
    compare: Option<String>,
    #[serde(default)]
    subtract: Option<NumOrExpr>,
    #[serde(default)]
    below: Option<NumOrExpr>,
    #[serde(default)]
    level: Option<NumOrExpr>,
    #[serde(default)]
    beta: Option<Betas>,
    #[serde(default)]
    refresh: Option<NumOrExpr>,
    #[serde(default)]
    adversary: Option<Strategies>,
    #[serde(default)]
    lookahead: Option<usize>,
    #[serde(default)]
    class: Option<String>,
    #[serde(default)]
    until: Option<String>,
    #[serde(default)]
    every: Option<NumOrExpr>,
}

/// The start state of a file, with its expressions in `n`.
enum StartSpec {
    Empty,
    OneBin(Expr),
    Gap(Expr),
    Loads(Vec<f64>),
}

/// The size a growth claim is fitted over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Over {
    N,
    B,
    M,
    /// The parameter `beta` of the processes of `[setting]` or of the graph strategies (one curve
    /// per graph and strategy).
    Beta,
    /// `1/beta` (the same curves as `Beta`; the exponent changes sign).
    InvBeta,
    /// `d/k` of the graph sources: degree over edge connectivity (one curve per strategy and
    /// `beta`).
    DOverK,
}

impl Over {
    fn name(self) -> &'static str {
        match self {
            Over::N => "n",
            Over::B => "b",
            Over::M => "m",
            Over::Beta => "beta",
            Over::InvBeta => "1/beta",
            Over::DOverK => "d/k",
        }
    }
}

/// The per-run statistic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stat {
    FinalGap,
    MaxGap,
    Spread,
    PotentialFinal,
    PotentialMean,
    MeanQuantileFraction {
        eps_milli: u64,
    },
    MdMaxGap,
    MdSumGap,
    SiblingGap,
    /// `max(L̄(S), L̄(S̄)) − t/n` for the larger side `S` of a minimum cut of the graph (graph
    /// sources).
    CutGap,
    /// The fraction of checkpoints with the potential at most `below`.
    PotentialFraction,
    /// Balls from the start of the window to the first checkpoint with gap at most `level`
    /// (+∞ if none).
    RecoveryTime,
    /// Balls from the start of the window to the first check (every `every` balls) at which the
    /// formula `until` holds (+∞ if none by `m`: censored).
    HittingTime,
}

/// The thresholds of the trajectory statistics at one configuration, and where its window starts.
#[derive(Debug, Clone, Copy, Default)]
struct Th {
    below: f64,
    level: f64,
    start: u64,
}

/// What is simulated per grid point.
enum Source {
    /// A registered process spec in the sequential / batched / weighted setting.
    Process(String),
    /// md-balls with a rule (criterion, choice).
    Md(MdRule, BallLaw),
    /// A graphical strategy (greedy, or Bansal–Feldheim's flow strategy) on a graph family.
    Graph(GraphSource),
    /// A member of the class of `[setting.vectors]`, or its adversary.
    Class(ClassSource),
}

/// One graph source: a family, a strategy and the `beta` of the (1+β) model.
struct GraphSource {
    kind: GraphSpec,
    /// The family as written, with `beta` and `refresh` when given.
    label: String,
    rule: Rule,
    beta: f64,
    /// The positions of the graph, the `beta` and the strategy in their lists (the curves of
    /// growth fits in `beta` and `d/k`).
    graph_i: usize,
    beta_i: usize,
    rule_i: usize,
}

impl Source {
    fn label(&self) -> String {
        match self {
            Source::Process(s) => s.clone(),
            Source::Md(r, l) => format!("md {} {}", r.label(), l.spec()),
            Source::Graph(g) => match g.rule {
                Rule::Flow => format!("Bansal–Feldheim strategy on {}", g.label),
                Rule::Greedy => format!("greedy on {}", g.label),
            },
            Source::Class(c) => c.label(),
        }
    }
}

/// Which way the claim goes and what is estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Test {
    /// `E[X] side rhs`.
    Mean(Side),
    /// `P[X side rhs] ≥ 1 − q`.
    Probability(Side),
    /// The exponent `a` of `E[X] ≈ C·x^a` over the grid of `x` (n or b) `side rhs`.
    Exponent(Side, Over),
    /// `E[X_first] side E[X_second]` for the two sources, by paired runs.
    Compare(Side),
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
    /// The strategy deciding on set loads refreshed every `refresh` balls (an expression in n).
    refresh: Option<Expr>,
    /// `hitting_time`: the event (compiled over `n`, `b`, `m`, the constants, three graph slots,
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

fn parse_side(s: &str) -> Option<(Side, &str)> {
    let s = s.trim();
    if let Some(r) = s.strip_prefix("<=") {
        Some((Side::AtMost, r))
    } else if let Some(r) = s.strip_prefix(">=") {
        Some((Side::AtLeast, r))
    } else {
        None
    }
}

fn build(t: &Theorem) -> std::result::Result<Box<dyn Check>, FileError> {
    let c: toml::Spanned<ClaimSection> = t.claim_section()?;
    let at = Some(c.span().start);
    let span = c.span();
    let cs = c.into_inner();
    let field_at = |name: &str| t.find_in(span.clone(), name).or(at);
    let bad =
        |name: &str, msg: String| t.error_at(field_at(name), format!("[claim] {name}: {msg}"));

    // Constants (single values).
    let mut names = vec!["n".to_string(), "b".to_string(), "m".to_string()];
    let mut consts = Vec::new();
    for (name, v) in &t.file.constants {
        match v.get_ref() {
            ConstValue::One(s) => {
                let (f, _) = s.value().map_err(|e| {
                    t.error_at(Some(v.span().start), format!("constant `{name}`: {e}"))
                })?;
                names.push(name.clone());
                consts.push(f);
            }
            ConstValue::Grid(_) => {
                return Err(t.error_at(
                    Some(v.span().start),
                    format!(
                        "constant `{name}`: the statistical kind takes single-valued constants"
                    ),
                ));
            }
        }
    }
    for name in t.file.tighten.keys() {
        if !names[3..].contains(name) {
            return Err(t.error_at(
                None,
                format!("[tighten] `{name}` is not a constant of the file"),
            ));
        }
    }
    // With graph sources, the fields evaluated per configuration (the claim's rhs, q, relative_to,
    // subtract) also know `d` and `k`: the degree and edge connectivity of the configuration's
    // graph. Their slots follow the constants (placeholders elsewhere, so slot numbers agree).
    let graph_names = cs.graph.is_some();
    if graph_names
        && let Some(c) = names[3..]
            .iter()
            .find(|c| GRAPH_NAMES.contains(&c.as_str()))
    {
        return Err(t.error_at(
            None,
            format!(
                "constant `{c}`: with `[claim] graph` the names d, k and untouched are the graph's degree, edge connectivity and coupon-collector probability"
            ),
        ));
    }
    let comp = |text: &str, field: &str, allowed: usize| {
        // Names not yet defined at this field (b in a batch, m in balls) are out of scope.
        let mut scoped: Vec<&str> = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                if i < allowed || i >= 3 {
                    n.as_str()
                } else {
                    "\u{0}"
                }
            })
            .collect();
        let per_point = graph_names
            && matches!(
                field,
                "mean" | "probability" | "q" | "relative_to" | "subtract"
            );
        if per_point {
            scoped.extend(GRAPH_NAMES);
        } else {
            scoped.extend(["\u{0}"; 3]);
        }
        crate::lang::compile_value(text, &scoped).map_err(|err| {
            let mut known: Vec<&str> = names[..allowed].iter().map(|s| s.as_str()).collect();
            known.extend(names[3..].iter().map(|s| s.as_str()));
            if per_point {
                known.extend(GRAPH_NAMES);
            }
            bad(
                field,
                format!("`{text}`: {} (known: {})", err.message, known.join(", ")),
            )
        })
    };

    let stat = match cs.statistic.as_str() {
        "final_gap" => Stat::FinalGap,
        "max_gap" => Stat::MaxGap,
        "spread" => Stat::Spread,
        "potential_final" => Stat::PotentialFinal,
        "potential_mean" => Stat::PotentialMean,
        "potential_fraction" => Stat::PotentialFraction,
        "recovery_time" => Stat::RecoveryTime,
        "hitting_time" => Stat::HittingTime,
        "mean_quantile_fraction" => {
            let eps = cs.eps.ok_or_else(|| {
                bad(
                    "statistic",
                    "mean_quantile_fraction needs `eps` (the band [eps, 1 − eps])".into(),
                )
            })?;
            if !(eps > 0.0 && eps < 0.5) {
                return Err(bad("eps", format!("must lie in (0, 1/2), got {eps}")));
            }
            Stat::MeanQuantileFraction {
                eps_milli: (eps * 1e6).round() as u64,
            }
        }
        "md_max_gap" => Stat::MdMaxGap,
        "md_sum_gap" => Stat::MdSumGap,
        "sibling_gap" => Stat::SiblingGap,
        "cut_gap" => Stat::CutGap,
        other => {
            return Err(bad(
                "statistic",
                format!(
                    "unknown statistic `{other}`; accepted: {}",
                    STATISTICS.join(", ")
                ),
            ));
        }
    };
    if cs.eps.is_some() && !matches!(stat, Stat::MeanQuantileFraction { .. }) {
        return Err(bad(
            "eps",
            "only used with statistic = \"mean_quantile_fraction\"".into(),
        ));
    }
    // The event of a hitting time, over the names of the per-configuration fields (the three
    // graph slots are placeholders) and the state's names.
    let until = match (&cs.until, stat) {
        (Some(text), Stat::HittingTime) => {
            let mut scoped: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
            scoped.extend(["\u{0}"; 3]);
            scoped.extend(quantifiers::STOP_NAMES);
            let f = crate::lang::compile_str(text, &scoped).map_err(|err| {
                let mut known: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
                known.extend(quantifiers::STOP_NAMES);
                bad(
                    "until",
                    format!("`{text}`: {} (known: {})", err.message, known.join(", ")),
                )
            })?;
            Some((f, text.clone()))
        }
        (None, Stat::HittingTime) => {
            return Err(bad(
                "until",
                "hitting_time needs `until`, a formula over t, gap, spread, quantile, potential, n, b, m and the constants (e.g. \"quantile >= 1/4 && quantile <= 3/4\")".into(),
            ));
        }
        (Some(_), _) => return Err(bad("until", "only used with hitting_time".into())),
        (None, _) => None,
    };
    if cs.every.is_some() && stat != Stat::HittingTime {
        return Err(bad("every", "only used with hitting_time".into()));
    }
    if stat == Stat::HittingTime && cs.steady_state {
        return Err(bad(
            "steady_state",
            "a hitting time is one value per run, not a window statistic".into(),
        ));
    }
    let until_potential = until
        .as_ref()
        .is_some_and(|(f, _)| quantifiers::uses_potential(f, names.len() + 3));
    let needs_potential = matches!(
        stat,
        Stat::PotentialFinal | Stat::PotentialMean | Stat::PotentialFraction
    ) || until_potential;
    let below = match (&cs.below, stat) {
        (Some(e), Stat::PotentialFraction) => Some(comp(&e.text(), "below", 3)?),
        (None, Stat::PotentialFraction) => {
            return Err(bad(
                "below",
                "potential_fraction needs `below` (the fraction of checkpoints with the potential at most `below`)".into(),
            ));
        }
        (Some(_), _) => return Err(bad("below", "only used with potential_fraction".into())),
        (None, _) => None,
    };
    let level = match (&cs.level, stat) {
        (Some(e), Stat::RecoveryTime) => Some(comp(&e.text(), "level", 3)?),
        (None, Stat::RecoveryTime) => {
            return Err(bad(
                "level",
                "recovery_time needs `level` (the first checkpoint with gap at most `level`)"
                    .into(),
            ));
        }
        (Some(_), _) => return Err(bad("level", "only used with recovery_time".into())),
        (None, _) => None,
    };
    if stat == Stat::RecoveryTime
        && (cs.mean.is_some() || cs.exponent.is_some() || cs.compare.is_some() || cs.steady_state)
    {
        return Err(bad(
            "statistic",
            "recovery_time is +∞ for runs that do not recover in the window: use a `probability` claim (P[time <= rhs] >= 1 - q), without `steady_state`".into(),
        ));
    }
    match (&cs.potential, needs_potential) {
        (None, true) => {
            return Err(bad(
                "potential",
                format!("statistic `{}` needs a potential", cs.statistic),
            ));
        }
        (Some(_), false) => {
            return Err(bad(
                "potential",
                format!("not used by statistic `{}`", cs.statistic),
            ));
        }
        (Some(p), true) => {
            crate::potential::parse(p).map_err(|e| bad("potential", e.to_string()))?;
        }
        _ => {}
    }

    // The claim.
    let given = [
        cs.mean.is_some(),
        cs.probability.is_some(),
        cs.exponent.is_some(),
        cs.compare.is_some(),
    ];
    if given.iter().filter(|g| **g).count() != 1 {
        return Err(t.error_at(
            at,
            "[claim]: give exactly one of `mean` (E[X] <= rhs), `probability` (P[X <= rhs] >= 1 - q), `exponent` (growth exponent of E[X] <= a) and `compare` (E[X_first] <= E[X_second])",
        ));
    }
    let over = match cs.exponent_in.as_deref() {
        None | Some("n") => Over::N,
        Some("b") => Over::B,
        Some("m") => Over::M,
        Some("beta") => Over::Beta,
        Some("1/beta") => Over::InvBeta,
        Some("d/k") => Over::DOverK,
        Some(o) => {
            return Err(bad(
                "exponent_in",
                format!("must be \"n\", \"b\", \"m\", \"beta\", \"1/beta\" or \"d/k\", got `{o}`"),
            ));
        }
    };
    if cs.exponent.is_none() && (cs.exponent_in.is_some() || cs.relative_to.is_some()) {
        return Err(bad(
            if cs.exponent_in.is_some() {
                "exponent_in"
            } else {
                "relative_to"
            },
            "only used with `exponent`".into(),
        ));
    }
    let mut exponent_hi = None;
    let (test, rhs_text) = match (&cs.mean, &cs.probability) {
        _ if cs.exponent.is_some() => {
            let e = cs.exponent.as_deref().unwrap_or_default();
            if let Some(r) = e.trim().strip_prefix("in") {
                // `in [lo, hi]`: the lower end is the rhs, the upper end `exponent_hi`.
                let inner = r
                    .trim()
                    .strip_prefix('[')
                    .and_then(|r| r.strip_suffix(']'))
                    .and_then(|r| r.split_once(','))
                    .ok_or_else(|| {
                        bad(
                            "exponent",
                            format!("a range is written `in [lo, hi]`, got `{e}`"),
                        )
                    })?;
                exponent_hi = Some(comp(inner.1.trim(), "exponent", 0)?);
                (
                    Test::Exponent(Side::AtLeast, over),
                    inner.0.trim().to_string(),
                )
            } else {
                let (side, r) = parse_side(e).ok_or_else(|| {
                    bad(
                        "exponent",
                        format!("must start with <=, >= or `in [lo, hi]`, got `{e}`"),
                    )
                })?;
                (Test::Exponent(side, over), r.trim().to_string())
            }
        }
        _ if cs.compare.is_some() => {
            let c = cs.compare.as_deref().unwrap_or_default().trim();
            let side = match c {
                "<=" => Side::AtMost,
                ">=" => Side::AtLeast,
                _ => {
                    return Err(bad(
                        "compare",
                        format!("must be \"<=\" (E[X_first] <= E[X_second]) or \">=\", got `{c}`"),
                    ));
                }
            };
            (Test::Compare(side), "0".to_string())
        }
        (Some(m), None) => {
            let (side, r) = parse_side(m)
                .ok_or_else(|| bad("mean", format!("must start with <= or >=, got `{m}`")))?;
            (Test::Mean(side), r.trim().to_string())
        }
        (None, Some(p)) => {
            let (side, r) = parse_side(p).ok_or_else(|| {
                bad(
                    "probability",
                    format!("must start with <= or >=, got `{p}`"),
                )
            })?;
            (Test::Probability(side), r.trim().to_string())
        }
        _ => {
            return Err(t.error_at(
                at,
                "[claim]: give exactly one of `mean` (E[X] <= rhs) and `probability` (P[X <= rhs] >= 1 - q)",
            ));
        }
    };
    let (field, allowed) = match test {
        Test::Mean(_) => ("mean", 3),
        Test::Probability(_) => ("probability", 3),
        Test::Exponent(..) => ("exponent", 0),
        Test::Compare(_) => ("compare", 0),
    };
    let rhs = comp(&rhs_text, field, allowed)?;
    let relative_to = match &cs.relative_to {
        Some(r) => Some(comp(r, "relative_to", 3)?),
        None => None,
    };
    let subtract = match &cs.subtract {
        Some(e) => Some((comp(&e.text(), "subtract", 3)?, e.text())),
        None => None,
    };
    let burn_in = match &cs.burn_in {
        Some(b) => Some(comp(&b.text(), "burn_in", 2)?),
        None => None,
    };
    let start = match (cs.start.as_deref().map(str::trim), &cs.start_loads) {
        (None | Some("empty"), None) => StartSpec::Empty,
        (None | Some("loads"), Some(v)) => StartSpec::Loads(v.clone()),
        (Some(s), None) => {
            let arg = |name: &str| {
                s.strip_prefix(name)
                    .and_then(|r| r.trim().strip_prefix('('))
                    .and_then(|r| r.strip_suffix(')'))
            };
            if let Some(a) = arg("one-bin") {
                StartSpec::OneBin(comp(a, "start", 1)?)
            } else if let Some(a) = arg("gap") {
                StartSpec::Gap(comp(a, "start", 1)?)
            } else {
                return Err(bad(
                    "start",
                    format!(
                        "unknown start state `{s}`; accepted: empty, one-bin(<balls in n>), gap(<gap in n>), or a load vector in `start_loads`"
                    ),
                ));
            }
        }
        (Some(_), Some(_)) => {
            return Err(bad(
                "start_loads",
                "give either `start` or `start_loads`, not both".into(),
            ));
        }
    };
    let q = match (&cs.q, test) {
        (Some(q), Test::Probability(_)) => Some(comp(&q.text(), "q", 3)?),
        (None, Test::Probability(_)) => {
            return Err(bad(
                "q",
                "a probability claim needs `q` (P[X <= rhs] >= 1 - q)".into(),
            ));
        }
        (Some(_), _) => {
            return Err(bad("q", "only used with `probability`".into()));
        }
        (None, _) => None,
    };
    let balls = match &cs.balls {
        OneOrMany::One(e) => vec![comp(&e.text(), "balls", 2)?],
        OneOrMany::Many(v) if v.is_empty() => {
            return Err(bad("balls", "lists no number of balls".into()));
        }
        OneOrMany::Many(v) => v
            .iter()
            .map(|e| comp(&e.text(), "balls", 2))
            .collect::<std::result::Result<Vec<_>, _>>()?,
    };
    let batch = match &cs.batch {
        Some(v) if v.is_empty() => return Err(bad("batch", "lists no batch size".into())),
        Some(v) => v
            .iter()
            .map(|b| comp(&b.text(), "batch", 1))
            .collect::<std::result::Result<Vec<_>, _>>()?,
        None => vec![
            comp(&t.file.setting.batch.to_string(), "batch", 1)
                .map_err(|e| t.error_at(None, e.message))?,
        ],
    };
    if cs.runs < 2 {
        return Err(bad(
            "runs",
            format!(
                "must be at least 2 (an interval needs two runs), got {}",
                cs.runs
            ),
        ));
    }
    if !(cs.confidence > 0.0 && cs.confidence < 1.0) {
        return Err(bad(
            "confidence",
            format!("must lie in (0, 1), got {}", cs.confidence),
        ));
    }
    let checkpoints = cs.checkpoints.unwrap_or(100);
    if checkpoints == 0 {
        return Err(bad("checkpoints", "must be at least 1".into()));
    }

    // Sources: md-balls when `law` is given, the strategy when `graph` is given, otherwise the
    // processes of [setting].
    let procs: Vec<&toml::Spanned<String>> = t.file.setting.processes.iter().collect();
    let d_ns: Vec<usize> = t.file.domain.get_ref().n.clone();
    let mut sources = Vec::new();
    let is_md = matches!(stat, Stat::MdMaxGap | Stat::MdSumGap);
    if cs.law.is_some() != is_md {
        return Err(bad(
            "law",
            "md-balls (`law`) go with the statistics md_max_gap and md_sum_gap, and only with them"
                .into(),
        ));
    }
    if cs.rule.is_some() && !is_md {
        return Err(bad("rule", "only used with md-balls (`law`)".into()));
    }
    if stat == Stat::CutGap && cs.graph.is_none() {
        return Err(bad(
            "graph",
            "cut_gap is an observable of the graph strategies: give a graph family".into(),
        ));
    }
    if stat == Stat::SiblingGap && cs.graph.is_none() {
        return Err(bad(
            "graph",
            "sibling_gap needs a graph family for the strategy (cycle, torus, hypercube, ...)"
                .into(),
        ));
    }
    if cs.strategy.is_some() && cs.graph.is_none() {
        return Err(bad(
            "strategy",
            "only used with `graph` (the graph family the strategies run on)".into(),
        ));
    }
    let dir = t.path.parent();
    let beta_values: Vec<f64> = match &cs.beta {
        None => vec![1.0],
        Some(Betas::One(b)) => vec![*b],
        Some(Betas::Many(v)) => v.clone(),
    };
    if beta_values.is_empty() {
        return Err(bad("beta", "lists no value".into()));
    }
    if let Some(b) = beta_values.iter().find(|b| !(0.0..=1.0).contains(*b)) {
        return Err(bad("beta", format!("must lie in [0, 1], got {b}")));
    }
    if let Some(g) = &cs.graph {
        let names: Vec<String> = match &cs.strategy {
            None => vec!["flow".into()],
            Some(Strategies::One(s)) => vec![s.clone()],
            Some(Strategies::Many(v)) => v.clone(),
        };
        if names.is_empty() {
            return Err(bad("strategy", "lists no strategy".into()));
        }
        let rules = names
            .iter()
            .map(|s| Rule::parse(s).map_err(|e| bad("strategy", e.to_string())))
            .collect::<std::result::Result<Vec<_>, _>>()?;
        if !matches!(
            stat,
            Stat::FinalGap | Stat::MaxGap | Stat::SiblingGap | Stat::Spread | Stat::CutGap
        ) {
            return Err(bad(
                "graph",
                format!(
                    "the graph strategies give final_gap, max_gap, spread, cut_gap and (flow) sibling_gap, not `{}`",
                    cs.statistic
                ),
            ));
        }
        if stat == Stat::SiblingGap && rules.contains(&Rule::Greedy) {
            return Err(bad(
                "strategy",
                "sibling_gap is an observable of the flow strategy's decomposition, not of greedy"
                    .into(),
            ));
        }
        let texts: Vec<String> = match g {
            Graphs::One(s) => vec![s.clone()],
            Graphs::Many(v) => v.clone(),
        };
        if texts.is_empty() {
            return Err(bad("graph", "lists no graph family".into()));
        }
        let mut kinds = Vec::new();
        for text in &texts {
            let kind = GraphSpec::parse(text, &crate::input::Dir::new(dir))
                .map_err(|e| bad("graph", e.to_string()))?;
            // Every size of the grid builds (an edge-list file of another size, a torus at a
            // non-square n, … are errors here, not during a run).
            for &n in d_ns.iter().chain(&cs.long_n) {
                kind.build(Some(n))
                    .map_err(|e| bad("graph", format!("`{}` at n = {n}: {e}", text.trim())))?;
            }
            kinds.push((text.trim().to_string(), kind));
        }
        if !procs.is_empty() {
            return Err(bad(
                "graph",
                "the strategy model takes no [setting] processes".into(),
            ));
        }
        if names.iter().any(|n| n != "flow") && (cs.beta.is_some() || cs.refresh.is_some()) {
            return Err(bad(
                if cs.beta.is_some() { "beta" } else { "refresh" },
                "applies to the flow strategy only (not to greedy)".into(),
            ));
        }
        for (graph_i, (g, kind)) in kinds.iter().enumerate() {
            for (beta_i, &b) in beta_values.iter().enumerate() {
                let label = if b != 1.0 {
                    format!("{g}, beta = {b}")
                } else {
                    g.to_string()
                };
                let label = match &cs.refresh {
                    Some(r) => format!("{label}, set loads refreshed every {} balls", r.text()),
                    None => label,
                };
                for (rule_i, &rule) in rules.iter().enumerate() {
                    sources.push(Source::Graph(GraphSource {
                        kind: kind.clone(),
                        label: label.clone(),
                        rule,
                        beta: b,
                        graph_i,
                        beta_i,
                        rule_i,
                    }));
                }
            }
        }
    } else if let Some(law) = cs.law.as_deref() {
        let law = BallLaw::parse(law).map_err(|e| bad("law", e.to_string()))?;
        let crit = cs.rule.as_deref().unwrap_or("sum");
        for p in &procs {
            let r = MdRule::parse(crit, p.get_ref())
                .map_err(|e| t.error_at(Some(p.span().start), e.to_string()))?;
            sources.push(Source::Md(r, law.clone()));
        }
    } else {
        for p in &procs {
            crate::process::parse_with(p.get_ref(), &crate::input::Dir::new(dir))
                .map_err(|e| t.error_at(Some(p.span().start), e.to_string()))?;
            // A graphical process's graph at every size of the grid.
            for &n in d_ns.iter().chain(&cs.long_n) {
                crate::process::graph_at(p.get_ref(), &crate::input::Dir::new(dir), n)
                    .map_err(|e| t.error_at(Some(p.span().start), format!("at n = {n}: {e}")))?;
            }
            sources.push(Source::Process(p.get_ref().clone()));
        }
    }
    // The class of [setting.vectors]: its members and adversaries.
    let class = class_spec(t, cs.class.as_deref()).map_err(|e| {
        t.error_at(
            t.file
                .setting
                .vectors
                .as_ref()
                .map(|v| v.span().start)
                .or(at),
            e,
        )
    })?;
    let aims: Vec<crate::sim::adversary::Aim> = match &cs.adversary {
        None => Vec::new(),
        Some(a) => {
            let texts = match a {
                Strategies::One(s) => vec![s.clone()],
                Strategies::Many(v) => v.clone(),
            };
            if texts.is_empty() {
                return Err(bad("adversary", "lists no objective".into()));
            }
            texts
                .iter()
                .map(|s| {
                    crate::sim::adversary::Aim::parse(s)
                        .map_err(|e| bad("adversary", e.to_string()))
                })
                .collect::<std::result::Result<_, _>>()?
        }
    };
    match &class {
        None => {
            for (f, given) in [
                ("adversary", cs.adversary.is_some()),
                ("lookahead", cs.lookahead.is_some()),
                ("class", cs.class.is_some()),
            ] {
                if given {
                    return Err(bad(
                        f,
                        "needs the class of [setting.vectors] (delta, eps, c2, random)".into(),
                    ));
                }
            }
        }
        Some(spec) => {
            if cs.graph.is_some() || cs.law.is_some() {
                return Err(bad(
                    if cs.graph.is_some() { "graph" } else { "law" },
                    "the class of [setting.vectors] is simulated in the sequential and batched settings, not with graphs or md-balls".into(),
                ));
            }
            if !t
                .file
                .setting
                .weights
                .get_ref()
                .trim()
                .eq_ignore_ascii_case("unit")
            {
                return Err(t.error_at(
                    None,
                    "[setting] weights: the class members and adversaries run with unit weights",
                ));
            }
            let lookahead = cs.lookahead.unwrap_or(1);
            if aims.is_empty() && cs.lookahead.is_some() {
                return Err(bad("lookahead", "only used with `adversary`".into()));
            }
            let ns: Vec<usize> = d_ns.iter().chain(&cs.long_n).copied().collect();
            let extra = class_sources(spec, &ns, &aims, lookahead).map_err(|e| {
                t.error_at(
                    t.file.setting.vectors.as_ref().map(|v| v.span().start),
                    e.to_string(),
                )
            })?;
            sources.extend(extra);
        }
    }
    if sources.is_empty() {
        return Err(t.error_at(None, "[setting] processes is empty"));
    }
    if cs.graph.is_none() && (cs.beta.is_some() || cs.refresh.is_some()) {
        return Err(bad(
            if cs.beta.is_some() { "beta" } else { "refresh" },
            "only used with the strategy (`graph`)".into(),
        ));
    }
    let refresh = match &cs.refresh {
        Some(r) => Some(comp(&r.text(), "refresh", 1)?),
        None => None,
    };
    let no_md = sources.iter().all(|s| !matches!(s, Source::Md(..)));
    if !no_md && (cs.start.is_some() || cs.start_loads.is_some()) {
        return Err(bad(
            if cs.start.is_some() {
                "start"
            } else {
                "start_loads"
            },
            "start states apply to the processes of [setting] and the strategy (md-balls start empty)"
                .into(),
        ));
    }
    if matches!(test, Test::Compare(_)) && sources.len() != 2 {
        return Err(bad(
            "compare",
            format!(
                "compares exactly two sources (the first two processes of [setting]), got {}",
                sources.len()
            ),
        ));
    }
    let mut betas = Vec::new();
    let by_param =
        matches!(over, Over::Beta | Over::InvBeta | Over::DOverK) && cs.exponent.is_some();
    if matches!(over, Over::Beta | Over::InvBeta) && cs.exponent.is_some() {
        for (i, src) in sources.iter().enumerate() {
            let beta = match src {
                Source::Process(spec) => crate::spec::Spec::parse(spec)
                    .ok()
                    .and_then(|sp| sp.get("beta").map(crate::spec::parse_f64)),
                Source::Graph(g) => Some(Ok(g.beta)),
                _ => None,
            };
            match beta {
                Some(Ok(b)) if b > 0.0 => betas.push(b),
                _ => {
                    return Err(bad(
                        "exponent_in",
                        format!(
                            "\"beta\" fits over the parameter `beta` of the processes of [setting] or of `[claim] beta`; source {} ({}) has no positive `beta`",
                            i + 1,
                            src.label()
                        ),
                    ));
                }
            }
        }
    }
    if over == Over::DOverK
        && cs.exponent.is_some()
        && !sources.iter().all(|s| matches!(s, Source::Graph(_)))
    {
        return Err(bad(
            "exponent_in",
            "\"d/k\" fits over the graphs of `[claim] graph` (a list of regular graph families)"
                .into(),
        ));
    }
    // The curves of a fit over a source parameter: the sources that differ only in it.
    let curve: Vec<usize> = sources
        .iter()
        .map(|s| match (s, over) {
            (Source::Graph(g), Over::DOverK) => g.rule_i * beta_values.len() + g.beta_i,
            (Source::Graph(g), Over::Beta | Over::InvBeta) => g.rule_i * 1_000_000 + g.graph_i,
            _ => 0,
        })
        .collect();
    let mut ids = curve.clone();
    ids.sort_unstable();
    ids.dedup();
    let curve: Vec<usize> = curve
        .iter()
        .map(|c| ids.iter().position(|x| x == c).unwrap_or(0))
        .collect();
    let curves = if by_param { ids.len() } else { 1 };
    if by_param {
        for c in 0..curves {
            let members = curve.iter().filter(|&&x| x == c).count();
            if members < 2 {
                return Err(bad(
                    "exponent_in",
                    format!(
                        "a growth fit in {} needs at least two sources per curve with different values (one curve has {members})",
                        over.name()
                    ),
                ));
            }
        }
    }
    let d = t.file.domain.get_ref();
    crate::claim::setup::plain_ns(t)?;
    if let Some(&n) = d.n.iter().chain(&cs.long_n).find(|&&n| n == 0) {
        return Err(t.error_at(
            Some(t.file.domain.span().start),
            format!("[domain] n: {n} bins"),
        ));
    }
    let check = Statistical {
        t: t.clone(),
        stat,
        test,
        rhs,
        q,
        balls,
        batch,
        runs: cs.runs,
        seed: cs.seed,
        confidence: cs.confidence,
        potential: cs.potential.clone(),
        checkpoints,
        sources,
        weights: t.file.setting.weights.get_ref().clone(),
        ties: t.file.setting.ties.name().to_string(),
        long_n: cs.long_n,
        start,
        burn_in,
        steady_state: cs.steady_state,
        relative_to,
        below,
        level,
        exponent_hi,
        subtract,
        betas,
        curve,
        curves,
        uses_dk: false,
        uses_untouched: false,
        refresh,
        every: match &cs.every {
            Some(e) => Some(comp(&e.text(), "every", 2)?),
            None => None,
        },
        until,
        report_worst: false,
        names,
        consts,
    };
    let mut check = check;
    check.report_worst = matches!(check.test, Test::Mean(_) | Test::Probability(_))
        && (check.sources.iter().any(|s| matches!(s, Source::Class(_)))
            || check.stat == Stat::HittingTime
            || matches!(&cs.strategy, Some(Strategies::Many(v)) if v.len() > 1));
    let dk_slots = [check.names.len(), check.names.len() + 1];
    let untouched_slot = check.names.len() + 2;
    check.uses_untouched = [
        Some(&check.rhs),
        check.q.as_ref(),
        check.relative_to.as_ref(),
    ]
    .into_iter()
    .flatten()
    .chain(check.subtract.as_ref().map(|s| &s.0))
    .any(|e| e.uses().slots.contains(&untouched_slot));
    if check.uses_untouched
        && check
            .sources
            .iter()
            .any(|s| matches!(s, Source::Graph(g) if g.beta != 1.0))
    {
        return Err(bad(
            "beta",
            "`untouched` assumes an edge request at every step (beta = 1)".into(),
        ));
    }
    if check.uses_untouched && (check.burn_in.is_some() || !matches!(check.start, StartSpec::Empty))
    {
        return Err(bad(
            if check.burn_in.is_some() { "burn_in" } else { "start" },
            "`untouched` bounds the spread from the empty start only (an untouched vertex then holds 0 balls)".into(),
        ));
    }
    check.uses_dk = over == Over::DOverK && cs.exponent.is_some()
        || [
            Some(&check.rhs),
            check.q.as_ref(),
            check.relative_to.as_ref(),
        ]
        .into_iter()
        .flatten()
        .chain(check.subtract.as_ref().map(|s| &s.0))
        .any(|e| e.uses().slots.iter().any(|s| dk_slots.contains(s)));
    // Validate the grid at its first point (batch and balls evaluate, configurations build).
    for &n in &d.n {
        for b in &check.batch {
            let bv = check
                .batch_at(n, b)
                .map_err(|e| t.error_at(at, e.to_string()))?;
            for me in &check.balls {
                check
                    .balls_at(n, bv, me)
                    .map_err(|e| t.error_at(at, e.to_string()))?;
            }
            check
                .burn_in_at(n, bv)
                .map_err(|e| t.error_at(field_at("burn_in"), e.to_string()))?;
            check
                .start_at(n)
                .map_err(|e| t.error_at(field_at("start"), e.to_string()))?;
        }
    }
    Ok(Box::new(check))
}

/// Hitting times come from their own runs ([`crate::sim::stopping`]), not from a trajectory.
fn hitting_is_per_run() -> Error {
    Error::Unsupported("a hitting time is computed by its own runs, not from a trajectory".into())
}

/// Observable `i` of a model (the strategy's sibling gap; md-balls' per-dimension and sum gaps).
fn observable(v: &[f64], i: usize) -> Result<f64> {
    v.get(i).copied().ok_or_else(|| {
        Error::invalid(
            "[claim] statistic",
            "the statistic is an observable of another model (sibling_gap: `graph`, md_*: `law`)",
        )
    })
}

fn decision_name(d: Decision) -> &'static str {
    match d {
        Decision::Holds => "holds",
        Decision::Refuted => "refuted",
        Decision::Inconclusive => "inconclusive",
    }
}

/// One configuration of the grid with its per-run values.
struct Point {
    n: usize,
    b: u64,
    m: u64,
    /// The indices of the batch and ball-count expressions.
    bi: usize,
    mi: usize,
    source: usize,
    values: Vec<f64>,
    /// The degree, edge connectivity and coupon-collector probability of a graph source's graph
    /// at `n` and `m` (when read; else 0).
    dk: (f64, f64, f64),
    /// The statistic on the first and second halves of the observation window, per run (with
    /// `steady_state`).
    halves: Option<(Vec<f64>, Vec<f64>)>,
    /// A class member's own label at this `n` (its vector's label).
    detail: Option<String>,
}

/// A claim on the per-run values of one configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StatClaim {
    /// `E[X] ≤ threshold` (`Side::AtMost`) or `≥` (`Side::AtLeast`).
    Mean(Side),
    /// `P[X ≤ threshold] ≥ 1 − q` (`Side::AtMost`) or `P[X ≥ threshold] ≥ 1 − q`.
    Probability {
        /// Which side of the threshold the event puts `X` on.
        side: Side,
        /// The allowed failure probability `q ∈ [0, 1]`.
        q: f64,
    },
}

/// The decision at one configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Judgement {
    /// The estimate of `E[X]` (t interval) or of the event's probability (Clopper–Pearson).
    pub estimate: Estimate,
    /// What the estimate is compared with: the threshold (mean) or `1 − q` (probability).
    pub target: f64,
    /// `holds` / `refuted` / `inconclusive`.
    pub decision: Decision,
    /// The signed distance of the interval from the target on the claimed side (≥ 0 iff holds).
    pub margin: f64,
}

/// The Bonferroni per-configuration level `1 − (1 − c)/k`: with `k` intervals at this level,
/// all cover their true values at once with probability at least `c` (union bound).
///
/// ```
/// use balloc::claim::kind::statistical::bonferroni;
/// assert!((bonferroni(0.95, 4) - 0.9875).abs() < 1e-15);
/// ```
pub fn bonferroni(c: f64, k: usize) -> f64 {
    1.0 - (1.0 - c) / k.max(1) as f64
}

/// Decides `claim` on the per-run `values` of one configuration at confidence `level`.
///
/// ```
/// use balloc::claim::kind::statistical::{judge_values, StatClaim};
/// use balloc::sim::statistic::{Decision, Side};
/// // Mean 2, s = 1, t_{2, 0.975} = 4.302653: the 95% interval is [−0.484, 4.484].
/// let j = judge_values(&[1.0, 2.0, 3.0], StatClaim::Mean(Side::AtMost), 5.0, 0.95).unwrap();
/// assert_eq!(j.decision, Decision::Holds);
/// assert!((j.margin - (3.0 - 4.302652729911275 / 3f64.sqrt())).abs() < 1e-9);
/// ```
pub fn judge_values(
    values: &[f64],
    claim: StatClaim,
    threshold: f64,
    level: f64,
) -> Result<Judgement> {
    let (estimate, side, target) = match claim {
        StatClaim::Mean(side) => (mean_ci(values, level)?, side, threshold),
        StatClaim::Probability { side, q } => {
            if !(0.0..=1.0).contains(&q) {
                return Err(Error::invalid(
                    "[claim] q",
                    format!("must lie in [0, 1], got {q}"),
                ));
            }
            let k = values
                .iter()
                .filter(|&&x| match side {
                    Side::AtMost => x <= threshold,
                    Side::AtLeast => x >= threshold,
                })
                .count() as u64;
            (
                proportion_ci(k, values.len() as u64, level)?,
                Side::AtLeast,
                1.0 - q,
            )
        }
    };
    let decision = estimate.decide(side, target);
    let margin = match side {
        Side::AtMost => target - estimate.ci_high,
        Side::AtLeast => estimate.ci_low - target,
    };
    Ok(Judgement {
        estimate,
        target,
        decision,
        margin,
    })
}

impl Statistical {
    fn eval(&self, e: &Expr, n: usize, b: u64, m: u64, consts: &[f64], what: &str) -> Result<f64> {
        self.eval_dk(e, n, b, m, consts, (0.0, 0.0, 0.0), what)
    }

    /// [`Statistical::eval`] with the graph's degree and edge connectivity `(d, k)` (the names
    /// `d`, `k` of the per-configuration fields).
    #[allow(clippy::too_many_arguments)]
    fn eval_dk(
        &self,
        e: &Expr,
        n: usize,
        b: u64,
        m: u64,
        consts: &[f64],
        dk: (f64, f64, f64),
        what: &str,
    ) -> Result<f64> {
        let mut vals = vec![n as f64, b as f64, m as f64];
        vals.extend_from_slice(consts);
        vals.extend([dk.0, dk.1, dk.2]);
        let slots: Vec<crate::lang::Approx> = vals
            .iter()
            .map(|v| crate::lang::Domain::float(&Float, *v))
            .collect::<std::result::Result<_, _>>()
            .map_err(|err| Error::invalid(format!("[claim] {what}"), err.to_string()))?;
        let v = e
            .eval(&Float, &Slots(&slots), None)
            .map_err(|err| Error::invalid(format!("[claim] {what}"), err.to_string()))?
            .v
            .to_f64();
        if !v.is_finite() {
            return Err(Error::invalid(
                format!("[claim] {what}"),
                format!("is {v} at n = {n}, b = {b}"),
            ));
        }
        Ok(v)
    }

    fn batch_at(&self, n: usize, e: &Expr) -> Result<u64> {
        let v = self.eval(e, n, 0, 0, &self.consts, "batch")?;
        let r = v.round();
        if (v - r).abs() > 1e-9 || !(1.0..=1e15).contains(&r) {
            return Err(Error::invalid(
                "[claim] batch",
                format!("must be a positive integer, got {v} at n = {n}"),
            ));
        }
        Ok(r as u64)
    }

    fn balls_at(&self, n: usize, b: u64, e: &Expr) -> Result<u64> {
        let v = self.eval(e, n, b, 0, &self.consts, "balls")?;
        if !(1.0..=1e15).contains(&v.ceil()) {
            return Err(Error::invalid(
                "[claim] balls",
                format!("must be at least 1, got {v} at n = {n}, b = {b}"),
            ));
        }
        Ok(v.ceil() as u64)
    }

    /// The burn-in at `(n, b)` in balls (0 without one).
    fn burn_in_at(&self, n: usize, b: u64) -> Result<u64> {
        let Some(e) = &self.burn_in else {
            return Ok(0);
        };
        let v = self.eval(e, n, b, 0, &self.consts, "burn_in")?;
        if !(0.0..=1e15).contains(&v) {
            return Err(Error::invalid(
                "[claim] burn_in",
                format!("must lie in [0, 10^15] balls, got {v} at n = {n}, b = {b}"),
            ));
        }
        Ok(v.ceil() as u64)
    }

    /// The start state at `n`.
    fn start_at(&self, n: usize) -> Result<Option<crate::loads::Loads>> {
        use crate::sim::start::Start;
        let count = |e: &Expr| -> Result<f64> { self.eval(e, n, 0, 0, &self.consts, "start") };
        let s = match &self.start {
            StartSpec::Empty => Start::Empty,
            StartSpec::OneBin(e) => {
                let v = count(e)?;
                if !(0.0..=crate::sim::start::MAX_START_BALLS as f64).contains(&v) {
                    return Err(Error::invalid(
                        "[claim] start",
                        format!("one-bin needs 0 to 2^50 balls, got {v} at n = {n}"),
                    ));
                }
                Start::OneBin(v.round() as u64)
            }
            StartSpec::Gap(e) => Start::Gap(count(e)?),
            StartSpec::Loads(v) => Start::Loads(v.clone()),
        };
        s.loads(n)
            .map_err(|e| Error::invalid("[claim] start", e.to_string()))
    }

    /// The grid of n for an effort (the long tier adds `long_n`).
    fn grid_n(&self, effort: u32) -> Vec<usize> {
        let mut ns = self.t.file.domain.get_ref().n.clone();
        if effort > 1 {
            ns.extend(&self.long_n);
        }
        ns
    }

    /// The simulation work of the file at the numbers of bins `ns` and `runs` runs per
    /// configuration, in ball steps (`runs × (burn_in + balls)` summed over the configurations,
    /// plus `n` per check of a hitting time), checked against [`crate::limits::SIM_WORK`] before
    /// the first run; the adversaries' linear maximisations (`n^lookahead` rank operations per
    /// decision) against [`crate::limits::ADVERSARY_WORK`].
    fn check_work(&self, ns: &[usize], runs: u64, effort: u32) -> Result<()> {
        crate::limits::CHECK_EFFORT.check("effort", u64::from(effort))?;
        let mut total: u128 = 0;
        let mut adversary: u128 = 0;
        for &n in ns {
            for be in &self.batch {
                let b = self.batch_at(n, be)?;
                let burn = self.burn_in_at(n, b)?;
                for me in &self.balls {
                    let m = self.balls_at(n, b, me)?;
                    let mut per_run = u128::from(burn) + u128::from(m);
                    if self.stat == Stat::HittingTime {
                        let every = self.every_at(n, b)?;
                        per_run += (u128::from(m / every) + 2) * n as u128;
                    }
                    total += per_run * u128::from(runs) * self.sources.len() as u128;
                    let decisions = (u128::from(burn) + u128::from(m)).div_ceil(u128::from(b));
                    for s in &self.sources {
                        if let Source::Class(ClassSource {
                            role: quantifiers::ClassRole::Adversary(_, h),
                            ..
                        }) = s
                        {
                            let per = (n as u128).saturating_pow(*h as u32);
                            adversary =
                                adversary.saturating_add(decisions * u128::from(runs) * per);
                        }
                    }
                }
            }
        }
        crate::limits::ADVERSARY_WORK.check_u128(
            "[claim] the adversaries' work: runs × decisions × n^lookahead, summed over the configurations",
            adversary,
        )?;
        crate::limits::SIM_WORK
            .check_u128(
                "[claim] runs × (burn_in + balls + n per check of a hitting time), summed over the configurations",
                total,
            )
            .map(|_| ())
    }

    /// The number of configurations at an effort (the Bonferroni divisor).
    fn configurations(&self, effort: u32) -> usize {
        self.grid_n(effort).len() * self.batch.len() * self.balls.len() * self.sources.len()
    }

    /// Simulates every configuration at `n`.
    fn simulate_n(&self, n: usize, runs: u64) -> Result<Vec<Point>> {
        let mut out = Vec::new();
        for (bi, be) in self.batch.iter().enumerate() {
            let b = self.batch_at(n, be)?;
            for (mi, me) in self.balls.iter().enumerate() {
                let m = self.balls_at(n, b, me)?;
                for (si, s) in self.sources.iter().enumerate() {
                    let dk = self.dk_at(s, n, m)?;
                    let (mut values, mut halves, detail) = self.simulate_one(s, n, b, m, runs)?;
                    if let Some((e, _)) = &self.subtract {
                        let c = self.eval_dk(e, n, b, m, &self.consts, dk, "subtract")?;
                        values.iter_mut().for_each(|v| *v -= c);
                        if let Some((x, y)) = &mut halves {
                            x.iter_mut().chain(y.iter_mut()).for_each(|v| *v -= c);
                        }
                    }
                    out.push(Point {
                        n,
                        b,
                        m,
                        bi,
                        mi,
                        source: si,
                        values,
                        dk,
                        halves,
                        detail,
                    });
                }
            }
        }
        Ok(out)
    }

    /// `(d, k, untouched)` of a graph source's graph at `n` (degree, edge connectivity, and the
    /// exact probability that `m` uniform edge requests leave some vertex untouched,
    /// [`crate::graph::coupon::untouched`]) when the file reads them; zeros otherwise.
    fn dk_at(&self, s: &Source, n: usize, m: u64) -> Result<(f64, f64, f64)> {
        let Source::Graph(g) = s else {
            return Ok((0.0, 0.0, 0.0));
        };
        let untouched = if self.uses_untouched {
            use num_traits::ToPrimitive;
            let gr = g.kind.build(Some(n))?;
            crate::graph::coupon::untouched(&gr, m)?
                .to_f64()
                .unwrap_or(f64::NAN)
        } else {
            0.0
        };
        if !self.uses_dk {
            return Ok((0.0, 0.0, untouched));
        }
        let gr = g.kind.build(Some(n))?;
        let d = gr.regular_degree().ok_or_else(|| {
            Error::invalid(
                "[claim] graph",
                format!("d and k need a regular graph; `{}` is not", gr.name()),
            )
        })?;
        let k = crate::graph::measures::edge_connectivity(&gr)?;
        if k == 0 {
            return Err(Error::invalid(
                "[claim] graph",
                format!("`{}` is disconnected (k = 0)", gr.name()),
            ));
        }
        Ok((d as f64, k as f64, untouched))
    }

    /// The per-run values of one configuration, with the values on the two halves of the
    /// observation window when the steady-state check is on.
    #[allow(clippy::type_complexity)]
    fn simulate_one(
        &self,
        s: &Source,
        n: usize,
        b: u64,
        m: u64,
        runs: u64,
    ) -> Result<(Vec<f64>, Option<(Vec<f64>, Vec<f64>)>, Option<String>)> {
        let mut detail = None;
        match s {
            Source::Process(_) | Source::Graph(..) | Source::Md(..) | Source::Class(_) => {
                let model: Box<dyn Model> = match s {
                    Source::Graph(GraphSource {
                        kind, rule, beta, ..
                    }) => {
                        if b != 1 {
                            return Err(Error::invalid(
                                "[claim] batch",
                                "the graph strategies are simulated sequentially (batch 1)",
                            ));
                        }
                        let graph = kind.build(Some(n))?;
                        let cut = if self.stat == Stat::CutGap {
                            Some(crate::graph::experiment::Cut::minimum(&graph)?)
                        } else {
                            None
                        };
                        match rule {
                            Rule::Greedy => {
                                let m = crate::graph::experiment::GreedyModel::new(&graph)?;
                                match cut {
                                    Some(c) => Box::new(m.observing(c)?),
                                    None => Box::new(m),
                                }
                            }
                            Rule::Flow => {
                                let refresh = match &self.refresh {
                                    Some(e) => {
                                        let v = self.eval(e, n, b, 0, &self.consts, "refresh")?;
                                        if !(1.0..=1e15).contains(&v) {
                                            return Err(Error::invalid(
                                                "[claim] refresh",
                                                format!(
                                                    "must lie in [1, 10^15] balls, got {v} at n = {n}"
                                                ),
                                            ));
                                        }
                                        v.ceil() as u64
                                    }
                                    None => 0,
                                };
                                let m = crate::graph::experiment::StrategyModel::variant(
                                    &graph, *beta, refresh,
                                )?;
                                match cut {
                                    Some(c) => Box::new(m.observing(c)?),
                                    None => Box::new(m),
                                }
                            }
                        }
                    }
                    Source::Process(spec) => Box::new(Config::parse_with(
                        spec,
                        &crate::input::Dir::new(self.t.path.parent()),
                        n,
                        b,
                        &self.weights,
                        &self.ties,
                    )?),
                    Source::Class(c) => {
                        let (model, label) = c.model(n, b, &self.ties)?;
                        if matches!(c.role, quantifiers::ClassRole::Member(_)) {
                            detail = Some(label);
                        }
                        Box::new(model)
                    }
                    Source::Md(rule, law) => {
                        Box::new(crate::multidim::sim::MdModel::new(MdSimConfig {
                            n,
                            balls: m,
                            law: law.clone(),
                            rule: rule.clone(),
                            batch: b,
                        })?)
                    }
                };
                let cfg = model.as_ref();
                let burn = self.burn_in_at(n, b)?;
                let mut plan = Plan::new(burn.saturating_add(m), runs, self.seed);
                plan.burn_in = burn;
                plan.start = self.start_at(n)?.map(Arc::new);
                if matches!(self.test, Test::Compare(_)) {
                    // Common random numbers: both sources draw run i from the same generator.
                    plan.stream = Some(format!("compare;n={n};b={b};m={m}"));
                }
                if matches!(self.test, Test::Exponent(_, Over::M)) {
                    // Independent runs per m (the fit's variance assumes independent points);
                    // otherwise the runs of a smaller m would be prefixes of the larger ones.
                    plan.stream = Some(format!("{};m={m}", cfg.key()));
                }
                if let Some(p) = &self.potential {
                    plan.potentials = vec![Arc::from(crate::potential::parse(p)?)];
                }
                if matches!(
                    self.stat,
                    Stat::PotentialMean
                        | Stat::MeanQuantileFraction { .. }
                        | Stat::PotentialFraction
                        | Stat::RecoveryTime
                ) {
                    plan.trajectory = self.checkpoints;
                }
                let th = Th {
                    below: match &self.below {
                        Some(e) => self.eval(e, n, b, m, &self.consts, "below")?,
                        None => 0.0,
                    },
                    level: match &self.level {
                        Some(e) => self.eval(e, n, b, m, &self.consts, "level")?,
                        None => 0.0,
                    },
                    // The window starts at the burn-in rounded up to a batch end.
                    start: burn.div_ceil(cfg.batch().max(1)) * cfg.batch().max(1),
                };
                if self.steady_state {
                    plan.trajectory = self.checkpoints.max(2);
                }
                if self.stat == Stat::HittingTime {
                    let checks = crate::sim::stopping::Checks {
                        every: self.every_at(n, b)?,
                        horizon: m,
                    };
                    let pot: Option<Arc<dyn crate::potential::Potential>> = match &self.potential {
                        Some(p) => Some(Arc::from(crate::potential::parse(p)?)),
                        None => None,
                    };
                    let hits =
                        crate::sim::stopping::hitting_times(cfg, &plan, checks, pot, &|o| {
                            self.event(o, n, b, m)
                        })?;
                    return Ok((hits.iter().map(|h| h.value()).collect(), None, detail));
                }
                let out = simulate(cfg, &plan, &|| {})?;
                let values = out
                    .runs
                    .iter()
                    .map(|r| self.per_run(r, &th))
                    .collect::<Result<Vec<_>>>()?;
                let halves = if self.steady_state {
                    let mut first = Vec::with_capacity(out.runs.len());
                    let mut second = Vec::with_capacity(out.runs.len());
                    for r in &out.runs {
                        let k = r.trajectory.len();
                        if k < 2 {
                            return Err(Error::invalid(
                                "[claim] steady_state",
                                format!(
                                    "the observation window of {m} balls has fewer than two observation points at n = {n}, b = {b}"
                                ),
                            ));
                        }
                        first.push(self.window_value(&r.trajectory[..k / 2], &th)?);
                        second.push(self.window_value(&r.trajectory[k / 2..], &th)?);
                    }
                    Some((first, second))
                } else {
                    None
                };
                Ok((values, halves, detail))
            }
        }
    }

    /// The statistic on a part of a run's trajectory (one half of the observation window): the
    /// value at its last checkpoint for the final-value statistics, the largest gap at its
    /// observation points for `max_gap`, the average or fraction over its checkpoints otherwise.
    fn window_value(&self, pts: &[crate::sim::Point], th: &Th) -> Result<f64> {
        let last = pts.last().ok_or_else(|| {
            Error::invalid(
                "[claim] steady_state",
                "an empty half of the observation window",
            )
        })?;
        let pot = |p: &crate::sim::Point| {
            p.potentials.first().copied().flatten().ok_or_else(|| {
                Error::invalid(
                    "[claim] potential",
                    "its value is not representable as f64 on a simulated state",
                )
            })
        };
        Ok(match self.stat {
            Stat::FinalGap => last.gap,
            Stat::MaxGap => pts
                .iter()
                .map(|p| p.window_max_gap)
                .fold(f64::NEG_INFINITY, f64::max),
            Stat::Spread => last.spread,
            Stat::PotentialFinal => pot(last)?,
            Stat::PotentialMean => {
                let mut s = 0.0;
                for p in pts {
                    s += pot(p)?;
                }
                s / pts.len() as f64
            }
            Stat::MeanQuantileFraction { eps_milli } => {
                let eps = eps_milli as f64 / 1e6;
                pts.iter()
                    .filter(|p| p.mean_quantile >= eps && p.mean_quantile <= 1.0 - eps)
                    .count() as f64
                    / pts.len() as f64
            }
            Stat::SiblingGap | Stat::MdMaxGap => observable(&last.observables, 0)?,
            Stat::MdSumGap => observable(&last.observables, 1)?,
            Stat::CutGap => observable(&last.observables, last.observables.len().max(1) - 1)?,
            Stat::PotentialFraction | Stat::RecoveryTime => self.trajectory_value(pts, th)?,
            Stat::HittingTime => return Err(hitting_is_per_run()),
        })
    }

    /// `potential_fraction` and `recovery_time` on the checkpoints `pts`.
    fn trajectory_value(&self, pts: &[crate::sim::Point], th: &Th) -> Result<f64> {
        match self.stat {
            Stat::PotentialFraction => {
                let mut k = 0usize;
                for p in pts {
                    let v = p.potentials.first().copied().flatten().ok_or_else(|| {
                        Error::invalid(
                            "[claim] potential",
                            "its value is not representable as f64 on a simulated state",
                        )
                    })?;
                    if v <= th.below {
                        k += 1;
                    }
                }
                Ok(k as f64 / pts.len().max(1) as f64)
            }
            _ => Ok(pts
                .iter()
                .find(|p| p.gap <= th.level)
                .map_or(f64::INFINITY, |p| (p.balls - th.start) as f64)),
        }
    }

    fn per_run(&self, r: &RunResult, th: &Th) -> Result<f64> {
        let pot = |v: Option<f64>| {
            v.ok_or_else(|| {
                Error::invalid(
                    "[claim] potential",
                    "its value is not representable as f64 on a simulated state",
                )
            })
        };
        Ok(match self.stat {
            Stat::FinalGap => r.final_gap,
            Stat::MaxGap => r.max_gap,
            Stat::Spread => r.spread,
            Stat::PotentialFinal => pot(r.potentials.first().copied().flatten())?,
            Stat::PotentialMean => {
                let mut s = 0.0;
                for p in &r.trajectory {
                    s += pot(p.potentials.first().copied().flatten())?;
                }
                s / r.trajectory.len().max(1) as f64
            }
            Stat::MeanQuantileFraction { eps_milli } => {
                let eps = eps_milli as f64 / 1e6;
                let k = r
                    .trajectory
                    .iter()
                    .filter(|p| p.mean_quantile >= eps && p.mean_quantile <= 1.0 - eps)
                    .count();
                k as f64 / r.trajectory.len().max(1) as f64
            }
            Stat::SiblingGap | Stat::MdMaxGap => observable(&r.observables, 0)?,
            Stat::MdSumGap => observable(&r.observables, 1)?,
            // The last observable of a graph model built with a cut.
            Stat::CutGap => observable(&r.observables, r.observables.len().max(1) - 1)?,
            Stat::PotentialFraction | Stat::RecoveryTime => {
                self.trajectory_value(&r.trajectory, th)?
            }
            Stat::HittingTime => return Err(hitting_is_per_run()),
        })
    }

    /// Decides one configuration at per-configuration level `level` with constants `consts`.
    fn judge(&self, p: &Point, level: f64, consts: &[f64]) -> Result<Judgement> {
        let threshold = self.eval_dk(&self.rhs, p.n, p.b, p.m, consts, p.dk, "rhs")?;
        if self.stat == Stat::HittingTime {
            return self
                .judge_time(p, level, consts, threshold)
                .map(|c| Judgement {
                    estimate: c.estimate,
                    target: c.target,
                    decision: c.decision,
                    margin: c.margin,
                });
        }
        let claim = match self.test {
            Test::Mean(side) => StatClaim::Mean(side),
            Test::Probability(side) => {
                let q = self.eval_dk(
                    self.q.as_ref().expect("probability claims have q"),
                    p.n,
                    p.b,
                    p.m,
                    consts,
                    p.dk,
                    "q",
                )?;
                StatClaim::Probability { side, q }
            }
            Test::Exponent(..) | Test::Compare(_) => {
                return Err(Error::Unsupported(
                    "growth and comparison claims are judged over several configurations".into(),
                ));
            }
        };
        judge_values(&p.values, claim, threshold, level)
    }

    fn level(&self, effort: u32) -> f64 {
        bonferroni(self.confidence, self.intervals(effort))
    }

    /// The number of intervals the file's confidence is shared by (the Bonferroni divisor): one
    /// per configuration (mean, probability), per pair (compare) or per fitted curve (exponent),
    /// plus one per configuration for the steady-state check.
    fn intervals(&self, effort: u32) -> usize {
        let k = self.configurations(effort);
        let base = match self.test {
            Test::Mean(_) | Test::Probability(_) => k,
            Test::Compare(_) => k / 2,
            Test::Exponent(_, Over::N) => self.batch.len() * self.balls.len() * self.sources.len(),
            Test::Exponent(_, Over::B) => {
                self.grid_n(effort).len() * self.balls.len() * self.sources.len()
            }
            Test::Exponent(_, Over::M) => {
                self.grid_n(effort).len() * self.batch.len() * self.sources.len()
            }
            Test::Exponent(_, Over::Beta | Over::InvBeta | Over::DOverK) => {
                self.grid_n(effort).len() * self.batch.len() * self.balls.len() * self.curves
            }
        };
        base + if self.steady_state { k } else { 0 }
    }

    /// `observed / bound` of one configuration: the mean over the threshold (mean claims), the
    /// empirical `(1 − q)`-quantile (`q`-quantile for `>=`) over the threshold (probability
    /// claims).
    fn ratio(&self, p: &Point, threshold: f64) -> Result<f64> {
        // Censored hitting times count at the horizon (the ratio is then a lower bound).
        let capped: Vec<f64> = p.values.iter().map(|v| v.min(p.m as f64)).collect();
        let p = &Point {
            values: capped,
            halves: None,
            detail: None,
            ..*p
        };
        let observed = match self.test {
            Test::Probability(side) => {
                let q = self.eval_dk(
                    self.q.as_ref().expect("probability claims have q"),
                    p.n,
                    p.b,
                    p.m,
                    &self.consts,
                    p.dk,
                    "q",
                )?;
                let mut v = p.values.clone();
                v.sort_by(f64::total_cmp);
                let level = match side {
                    Side::AtMost => 1.0 - q,
                    Side::AtLeast => q,
                };
                let i = ((level * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1;
                v[i]
            }
            _ => p.values.iter().sum::<f64>() / p.values.len().max(1) as f64,
        };
        Ok(observed / threshold)
    }

    /// The steady-state check of one configuration: the paired difference (second half − first
    /// half of the observation window) has an interval containing 0. Returns the note and whether
    /// the two halves agree.
    fn steady(&self, p: &Point, level: f64) -> Result<Option<(String, bool)>> {
        let Some((a, b)) = &p.halves else {
            return Ok(None);
        };
        let d: Vec<f64> = b.iter().zip(a).map(|(y, x)| y - x).collect();
        let e = mean_ci(&d, level)?;
        let ma = a.iter().sum::<f64>() / a.len() as f64;
        let mb = b.iter().sum::<f64>() / b.len() as f64;
        let agree = e.ci_low <= 0.0 && e.ci_high >= 0.0;
        Ok(Some((
            format!(
                "n = {}, {}, b = {}: steady state: first half {ma:.4}, second half {mb:.4}, difference {:.4} in [{:.4}, {:.4}]: {}",
                p.n,
                self.point_label(p),
                p.b,
                e.mean,
                e.ci_low,
                e.ci_high,
                if agree {
                    "the halves agree"
                } else {
                    "DRIFTING (the statistic has not settled: lengthen the burn-in)"
                }
            ),
            agree,
        )))
    }

    /// The abscissa of a point in a growth fit: `n`, `b`, `m`, the source's `beta`, `1/beta`, or
    /// `d/k` of its graph at `n` (degree over edge connectivity).
    fn fit_x(&self, over: Over, p: &Point) -> Result<f64> {
        Ok(match over {
            Over::N => p.n as f64,
            Over::B => p.b as f64,
            Over::M => p.m as f64,
            Over::Beta => self.betas[p.source],
            Over::InvBeta => 1.0 / self.betas[p.source],
            Over::DOverK => {
                if p.dk.1 <= 0.0 {
                    return Err(Error::invalid(
                        "[claim] exponent_in",
                        "d/k is a parameter of the graph sources",
                    ));
                }
                p.dk.0 / p.dk.1
            }
        })
    }

    /// What a fitted curve is about: the source, or (fits over a source parameter) what its
    /// sources share.
    fn curve_label(&self, over: Over, source: usize) -> String {
        match (&self.sources[source], over) {
            (Source::Process(_), Over::Beta | Over::InvBeta) => "processes of [setting]".into(),
            (Source::Graph(g), Over::Beta | Over::InvBeta) => {
                let graph = g.label.split(", beta = ").next().unwrap_or(&g.label);
                match g.rule {
                    Rule::Flow => format!("Bansal–Feldheim strategy on {graph}"),
                    Rule::Greedy => format!("greedy on {graph}"),
                }
            }
            (Source::Graph(g), Over::DOverK) => {
                let rule = match g.rule {
                    Rule::Flow => "Bansal–Feldheim strategy",
                    Rule::Greedy => "greedy",
                };
                if g.beta == 1.0 {
                    format!("{rule} on the graphs of [claim] graph")
                } else {
                    format!("{rule} on the graphs of [claim] graph, beta = {}", g.beta)
                }
            }
            (s, _) => s.label(),
        }
    }

    fn lhs_name(&self) -> String {
        let x = match &self.subtract {
            Some((_, text)) => format!("{} − ({text})", self.stat_name()),
            None => self.stat_name(),
        };
        match self.test {
            Test::Mean(_) => format!("E[{x}]"),
            Test::Exponent(_, Over::N) => format!("growth exponent in n of E[{x}]"),
            Test::Exponent(_, Over::B) => format!("growth exponent in b of E[{x}]"),
            Test::Exponent(_, Over::M) => format!("growth exponent in m of E[{x}]"),
            Test::Exponent(_, Over::Beta) => format!("growth exponent in beta of E[{x}]"),
            Test::Exponent(_, Over::InvBeta) => format!("growth exponent in 1/beta of E[{x}]"),
            Test::Exponent(_, Over::DOverK) => format!("growth exponent in d/k of E[{x}]"),
            Test::Compare(_) => format!("E[{x}] of the first source − E[{x}] of the second"),
            Test::Probability(Side::AtMost) => format!("P[{x} <= rhs]"),
            Test::Probability(Side::AtLeast) => format!("P[{x} >= rhs]"),
        }
    }

    fn stat_name(&self) -> String {
        match self.stat {
            Stat::FinalGap => "final_gap".into(),
            Stat::MaxGap => "max_gap".into(),
            Stat::Spread => "spread".into(),
            Stat::PotentialFinal => format!(
                "{} at the end",
                self.potential.as_deref().unwrap_or_default()
            ),
            Stat::PotentialMean => format!(
                "time average of {}",
                self.potential.as_deref().unwrap_or_default()
            ),
            Stat::MeanQuantileFraction { eps_milli } => format!(
                "fraction of checkpoints with mean quantile in [{e}, 1 - {e}]",
                e = eps_milli as f64 / 1e6
            ),
            Stat::MdMaxGap => "max over dimensions of the per-dimension gap".into(),
            Stat::MdSumGap => "sum-load gap".into(),
            Stat::SiblingGap => "max sibling gap of average loads".into(),
            Stat::CutGap => "max(L̄(S), L̄(S̄)) − t/n on a minimum cut".into(),
            Stat::PotentialFraction => format!(
                "fraction of checkpoints with {} <= below",
                self.potential.as_deref().unwrap_or_default()
            ),
            Stat::RecoveryTime => "balls until the first checkpoint with gap <= level".into(),
            Stat::HittingTime => format!(
                "balls until `{}`",
                self.until
                    .as_ref()
                    .map(|u| u.1.as_str())
                    .unwrap_or_default()
            ),
        }
    }

    fn witness(&self, p: &Point, j: &Judgement, consts: &[f64], runs: u64) -> Witness {
        let constants: BTreeMap<String, f64> = self.names[3..]
            .iter()
            .cloned()
            .zip(consts.iter().copied())
            .collect();
        let target = match self.test {
            Test::Probability(_) => "1 - q".to_string(),
            _ => "threshold".to_string(),
        };
        Witness {
            n: p.n,
            loads: vec![],
            source: format!("{}, b = {}, m = {}", self.point_label(p), p.b, p.m),
            constants,
            constants_text: BTreeMap::new(),
            exact: None,
            lhs: format!(
                "{} ≈ {:.6} in [{:.6}, {:.6}] ({} runs, level {:.6})",
                self.lhs_name(),
                j.estimate.mean,
                j.estimate.ci_low,
                j.estimate.ci_high,
                runs,
                j.estimate.confidence
            ),
            rhs: format!("{target} {:.6}", j.target),
            slack: format!("{:.6}", j.margin),
            found_by: "simulation".into(),
            recheck: None,
        }
    }
}

impl Check for Statistical {
    fn run(&self, ctx: &mut RunContext) -> Result<Verdict> {
        let effort = ctx.effort.max(1);
        let runs = self.runs.saturating_mul(effort as u64);
        let ns = self.grid_n(effort);
        self.check_work(&ns, runs, effort)?;
        let k = self.intervals(effort);
        let level = self.level(effort);
        let mut searched = Searched {
            n: ns.clone(),
            sources: self.sources.len(),
            constant_combinations: 1,
            confidence: Some(self.confidence),
            ..Searched::default()
        };
        let mut notes = vec![format!(
            "statistical: confidence {} for the whole file; {k} interval(s), each at the Bonferroni level 1 - (1 - {})/{k} = {level:.6}; {runs} runs per configuration, seed {}",
            self.confidence, self.confidence, self.seed
        )];
        let mut points = Vec::new();
        for &n in &ns {
            if let Some(pr) = ctx.progress {
                pr(&format!("{} n={n}", self.t.id));
            }
            for p in self.simulate_n(n, runs)? {
                searched.add("runs", p.values.len() as u64);
                points.push(p);
            }
        }
        // The steady-state check, per configuration.
        let mut drifting = vec![false; points.len()];
        for (i, p) in points.iter().enumerate() {
            if let Some((note, agree)) = self.steady(p, level)? {
                notes.push(note);
                drifting[i] = !agree;
            }
        }
        let mut outcomes: Vec<(Decision, f64, Witness)> = Vec::new();
        let mut observations: Vec<Observation> = Vec::new();
        // A curve is a source with its batch and ball-count expressions; the expressions are
        // numbered when there are several.
        let several = |f: fn(&Point) -> usize| points.iter().any(|p| f(p) > 0);
        let (several_b, several_m) = (several(|p| p.bi), several(|p| p.mi));
        let curve_of = |p: &Point| {
            let mut c = self.sources[p.source].label();
            if several_b {
                c.push_str(&format!(", batch size #{}", p.bi + 1));
            }
            if several_m {
                c.push_str(&format!(", balls #{}", p.mi + 1));
            }
            c
        };
        match self.test {
            Test::Mean(_) | Test::Probability(_) => {
                let mut ratios = Vec::new();
                let mut margins = Vec::new();
                for (i, p) in points.iter().enumerate() {
                    let mut j = self.judge(p, level, &self.consts)?;
                    let rhs = self.eval_dk(&self.rhs, p.n, p.b, p.m, &self.consts, p.dk, "rhs")?;
                    margins.push(j.margin);
                    if let Some(note) = self.censoring_note(p, rhs) {
                        notes.push(note);
                    }
                    let ratio = self.ratio(p, rhs)?;
                    ratios.push(ratio);
                    let lo = p.values.iter().copied().fold(f64::INFINITY, f64::min);
                    let hi = p.values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    if drifting[i] {
                        j.decision = Decision::Inconclusive;
                    }
                    notes.push(format!(
                        "n = {}, {}, b = {}, m = {}: {} = {:.4} in [{:.4}, {:.4}] vs {:.4}: {} (values {lo:.4} … {hi:.4}, rhs {rhs:.4}, observed/bound {ratio:.3})",
                        p.n,
                        self.point_label(p),
                        p.b,
                        p.m,
                        self.lhs_name(),
                        j.estimate.mean,
                        j.estimate.ci_low,
                        j.estimate.ci_high,
                        j.target,
                        decision_name(j.decision)
                    ));
                    observations.push(Observation {
                        curve: curve_of(p),
                        x: p.n as f64,
                        x_name: "n".into(),
                        y_name: self.lhs_name(),
                        mean: j.estimate.mean,
                        ci_low: j.estimate.ci_low,
                        ci_high: j.estimate.ci_high,
                        threshold: Some(j.target),
                    });
                    outcomes.push((
                        j.decision,
                        j.margin,
                        self.witness(p, &j, &self.consts, runs),
                    ));
                }
                if self.report_worst {
                    notes.extend(self.worst_notes(&points, &margins));
                }
                let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                notes.push(format!(
                    "observed/bound ({}): {lo:.3} … {hi:.3}",
                    if matches!(self.test, Test::Mean(_)) {
                        "mean over threshold"
                    } else {
                        "empirical quantile at the claimed probability over threshold"
                    }
                ));
            }
            Test::Compare(side) => {
                for (i, pair) in points.chunks(2).enumerate() {
                    let [a, b] = pair else {
                        return Err(Error::Unsupported("a comparison needs two sources".into()));
                    };
                    if a.n != b.n || a.b != b.b || a.values.len() != b.values.len() {
                        return Err(Error::invalid(
                            "[claim] compare",
                            "the two sources must run on the same n, batch and number of runs",
                        ));
                    }
                    let censored = a.values.iter().chain(&b.values).any(|v| v.is_infinite());
                    let d: Vec<f64> = a
                        .values
                        .iter()
                        .zip(&b.values)
                        .map(|(x, y)| x.min(a.m as f64) - y.min(b.m as f64))
                        .collect();
                    let mut j = judge_values(&d, StatClaim::Mean(side), 0.0, level)?;
                    if censored {
                        // A censored time has no known value: no paired difference is known.
                        j.decision = Decision::Inconclusive;
                        notes.push(format!(
                            "n = {}, b = {}, m = {}: censored runs (the event did not hold by m balls): the comparison is inconclusive",
                            a.n, a.b, a.m
                        ));
                    }
                    if drifting[2 * i] || drifting[2 * i + 1] {
                        j.decision = Decision::Inconclusive;
                    }
                    let ma = a.values.iter().sum::<f64>() / a.values.len() as f64;
                    let mb = b.values.iter().sum::<f64>() / b.values.len() as f64;
                    notes.push(format!(
                        "n = {}, b = {}, m = {}: E[X] {} = {ma:.4}, {} = {mb:.4}; paired difference (common random numbers) {:.4} in [{:.4}, {:.4}]: {} (ratio first/second {:.3})",
                        a.n,
                        a.b,
                        a.m,
                        self.point_label(a),
                        self.point_label(b),
                        j.estimate.mean,
                        j.estimate.ci_low,
                        j.estimate.ci_high,
                        decision_name(j.decision),
                        ma / mb
                    ));
                    observations.push(Observation {
                        curve: format!(
                            "{} − {}",
                            self.sources[a.source].label(),
                            self.sources[b.source].label()
                        ),
                        x: a.n as f64,
                        x_name: "n".into(),
                        y_name: format!("E[{} difference]", self.stat_name()),
                        mean: j.estimate.mean,
                        ci_low: j.estimate.ci_low,
                        ci_high: j.estimate.ci_high,
                        threshold: Some(0.0),
                    });
                    let mut w = self.witness(a, &j, &self.consts, runs);
                    w.source = format!(
                        "{} vs {}, b = {}, m = {}",
                        self.point_label(a),
                        self.point_label(b),
                        a.b,
                        a.m
                    );
                    outcomes.push((j.decision, j.margin, w));
                }
            }
            Test::Exponent(side, over) => {
                let rhs = self.eval(&self.rhs, 0, 0, 0, &self.consts, "exponent")?;
                let hi = match &self.exponent_hi {
                    Some(e) => Some(self.eval(e, 0, 0, 0, &self.consts, "exponent")?),
                    None => None,
                };
                // Curves: the points sharing everything but the fitted size.
                let mut groups: BTreeMap<(usize, usize, usize, usize), Vec<usize>> =
                    BTreeMap::new();
                for (i, p) in points.iter().enumerate() {
                    // The expressions' indices: the sizes they give differ across n.
                    let key = match over {
                        Over::N => (0, p.bi, p.mi, p.source),
                        Over::B => (p.n, 0, p.mi, p.source),
                        Over::M => (p.n, p.bi, 0, p.source),
                        Over::Beta | Over::InvBeta | Over::DOverK => {
                            (p.n, p.bi, p.mi, self.curve[p.source])
                        }
                    };
                    groups.entry(key).or_default().push(i);
                }
                for idx in groups.values() {
                    let mut grid = Vec::new();
                    let mut raw = Vec::new();
                    let censored = idx
                        .iter()
                        .any(|&i| points[i].values.iter().any(|v| v.is_infinite()));
                    for &i in idx {
                        let p = &points[i];
                        let p = &Point {
                            values: p.values.iter().map(|v| v.min(p.m as f64)).collect(),
                            halves: None,
                            detail: None,
                            ..*p
                        };
                        let rel = match &self.relative_to {
                            Some(e) => {
                                self.eval_dk(e, p.n, p.b, p.m, &self.consts, p.dk, "relative_to")?
                            }
                            None => 1.0,
                        };
                        if rel.is_nan() || rel <= 0.0 {
                            return Err(Error::invalid(
                                "[claim] relative_to",
                                format!("must be positive, got {rel} at n = {}, b = {}", p.n, p.b),
                            ));
                        }
                        let e = mean_ci(&p.values, level)?;
                        let x = self.fit_x(over, p)?;
                        observations.push(Observation {
                            curve: self.curve_label(over, p.source),
                            x,
                            x_name: over.name().to_string(),
                            y_name: if self.relative_to.is_some() {
                                format!("E[{}] / relative_to", self.stat_name())
                            } else {
                                format!("E[{}]", self.stat_name())
                            },
                            mean: e.mean / rel,
                            ci_low: e.ci_low / rel,
                            ci_high: e.ci_high / rel,
                            threshold: None,
                        });
                        raw.push(crate::sim::growth::GridMean {
                            x,
                            mean: e.mean,
                            stderr: e.stderr,
                        });
                        grid.push(crate::sim::growth::GridMean {
                            x,
                            mean: e.mean / rel,
                            stderr: e.stderr / rel,
                        });
                    }
                    let f = crate::sim::growth::power_fit(&grid, level)?;
                    let est = Estimate {
                        samples: grid.len(),
                        mean: f.exponent,
                        stderr: f.stderr,
                        ci_low: f.ci_low,
                        ci_high: f.ci_high,
                        confidence: level,
                    };
                    let mut decision = est.decide(side, rhs);
                    let mut margin = match side {
                        Side::AtMost => rhs - f.ci_high,
                        Side::AtLeast => f.ci_low - rhs,
                    };
                    let mut target = format!("{rhs}");
                    if let Some(hi) = hi {
                        // Both ends: holds iff the interval lies inside [lo, hi].
                        let upper = est.decide(Side::AtMost, hi);
                        decision = match (decision, upper) {
                            (Decision::Refuted, _) | (_, Decision::Refuted) => Decision::Refuted,
                            (Decision::Holds, Decision::Holds) => Decision::Holds,
                            _ => Decision::Inconclusive,
                        };
                        margin = margin.min(hi - f.ci_high);
                        target = format!("[{rhs}, {hi}]");
                    }
                    if idx.iter().any(|&i| drifting[i]) {
                        decision = Decision::Inconclusive;
                    }
                    if censored {
                        decision = Decision::Inconclusive;
                        notes.push(
                            "censored runs (the event did not hold by m balls): the means are restricted to m and the fit is inconclusive; lengthen `balls`".into(),
                        );
                    }
                    let first = &points[idx[0]];
                    let means: Vec<String> = grid
                        .iter()
                        .map(|g| format!("{} → {:.4}", g.x, g.mean))
                        .collect();
                    let classes: Vec<String> = crate::sim::growth::class_fits(&raw)
                        .iter()
                        .map(|(c, a, r)| format!("{a:.4}·{c} (rel. RMS {r:.3})"))
                        .collect();
                    let label = self.curve_label(over, first.source);
                    notes.push(format!(
                        "{}{}: E[{}]{} at {} = {}: exponent {:.4} in [{:.4}, {:.4}] (coefficient {:.4}) vs {target}: {}; class fits of E[X]: {}",
                        label,
                        match over {
                            Over::N => String::new(),
                            Over::B => format!(" at n = {}", first.n),
                            Over::M => format!(" at n = {}, b = {}", first.n, first.b),
                            Over::Beta | Over::InvBeta | Over::DOverK => {
                                format!(" at n = {}, b = {}, m = {}", first.n, first.b, first.m)
                            }
                        },
                        self.stat_name(),
                        if self.relative_to.is_some() {
                            " / relative_to"
                        } else {
                            ""
                        },
                        over.name(),
                        means.join(", "),
                        f.exponent,
                        f.ci_low,
                        f.ci_high,
                        f.coefficient,
                        decision_name(decision),
                        classes.join(", ")
                    ));
                    let constants: BTreeMap<String, f64> = self.names[3..]
                        .iter()
                        .cloned()
                        .zip(self.consts.iter().copied())
                        .collect();
                    let w = Witness {
                        n: first.n,
                        loads: vec![],
                        source: format!(
                            "{}, {} grid {:?}",
                            label,
                            over.name(),
                            grid.iter().map(|g| g.x).collect::<Vec<_>>()
                        ),
                        constants,
                        exact: None,
                        constants_text: BTreeMap::new(),
                        lhs: format!(
                            "{} ≈ {:.6} in [{:.6}, {:.6}] ({} runs per size, level {:.6})",
                            self.lhs_name(),
                            f.exponent,
                            f.ci_low,
                            f.ci_high,
                            runs,
                            level
                        ),
                        rhs: format!("threshold {target}"),
                        slack: format!("{margin:.6}"),
                        found_by: "simulation".into(),
                        recheck: None,
                    };
                    outcomes.push((decision, margin, w));
                }
            }
        }
        let drift = drifting.iter().filter(|d| **d).count();
        if drift > 0 {
            notes.push(format!(
                "{drift} configuration(s) not at steady state: their decisions are inconclusive"
            ));
        }
        let undecided = outcomes
            .iter()
            .filter(|o| o.0 == Decision::Inconclusive)
            .count();
        let refuted = outcomes.iter().find(|o| o.0 == Decision::Refuted);
        let worst = outcomes.iter().min_by(|a, b| a.1.total_cmp(&b.1));
        let (status, (slack, w)) = match refuted {
            Some(r) => (Status::Refuted, (r.1, r.2.clone())),
            None => {
                let w = worst.ok_or_else(|| Error::Unsupported("no configuration".into()))?;
                (
                    if undecided > 0 {
                        Status::Inconclusive
                    } else {
                        Status::Holds
                    },
                    (w.1, w.2.clone()),
                )
            }
        };
        if status == Status::Inconclusive && undecided > drift {
            notes.push(format!(
                "{undecided} interval(s) contain their threshold: more runs could decide them"
            ));
        }
        Ok(Verdict {
            links: Vec::new(),
            observations,
            id: self.t.id.clone(),
            verdict: status,
            expected: self.t.file.expected,
            trust: Trust::Statistical,
            slack: Some(slack),
            witness: Some(w),
            searched,
            notes,
        })
    }

    fn tighten(
        &self,
        name: &str,
        ns: Option<&[usize]>,
        ctx: &mut RunContext,
    ) -> Result<ConstantReport> {
        let dir = *self.t.file.tighten.get(name).ok_or_else(|| {
            Error::invalid(
                "--name",
                format!("`{name}` is not declared in the file's [tighten] table"),
            )
        })?;
        let slot = self.names[3..]
            .iter()
            .position(|s| s == name)
            .ok_or_else(|| Error::invalid("--name", format!("`{name}` is not a constant")))?;
        let effort = ctx.effort.max(1);
        let runs = self.runs.saturating_mul(effort as u64);
        let level = self.level(effort);
        let grid = ns
            .map(|v| v.to_vec())
            .unwrap_or_else(|| self.grid_n(effort));
        self.check_work(&grid, runs, effort)?;
        let mut per_n = Vec::new();
        for &n in &grid {
            if let Some(pr) = ctx.progress {
                pr(&format!("{} n={n}", self.t.id));
            }
            let points = self.simulate_n(n, runs)?;
            let mut consts = self.consts.clone();
            let start = consts[slot];
            let mut holds = |v: f64| -> Result<bool> {
                consts[slot] = v;
                for p in &points {
                    if self.judge(p, level, &consts)?.decision != Decision::Holds {
                        return Ok(false);
                    }
                }
                Ok(true)
            };
            let bracket = crate::search::bisect_bracket(dir, start, 1e-6, &mut holds)?;
            let value = bracket.holds;
            let mut consts = self.consts.clone();
            consts[slot] = value;
            let mut tight: Option<(f64, Witness)> = None;
            for p in &points {
                let j = self.judge(p, level, &consts)?;
                if tight.as_ref().is_none_or(|(m, _)| j.margin < *m) {
                    tight = Some((j.margin, self.witness(p, &j, &consts, runs)));
                }
            }
            per_n.push(Tightest {
                fails: bracket.fails,
                trust_holds: None,
                trust_fails: None,
                fails_unproved: false,
                n,
                value,
                witness: tight.map(|t| t.1),
            });
        }
        let pts: Vec<(f64, f64)> = per_n.iter().map(|t| (t.n as f64, t.value)).collect();
        Ok(ConstantReport {
            id: self.t.id.clone(),
            name: name.to_string(),
            direction: dir,
            per_n,
            fits: crate::search::fit_growth(&pts),
        })
    }
}
