//! The kind `statistical`: a claim about the law of a simulated process (DESIGN §3, trust level
//! `statistical`), decided by Monte Carlo with a stated confidence level.
//!
//! A file names the simulated configurations (the processes of `[setting]` with its weights and
//! tie rule; md-balls with a law and a rule; or Bansal–Feldheim's strategy on a graph family),
//! the grid (`[domain] n`, `[claim] batch` as expressions in `n`), the number of balls `m` as an
//! expression in `n` and `b`, runs, seed and confidence level `c`; a per-run statistic `X`; and a
//! claim on it:
//!
//! * `mean = "<= rhs"` (or `">= rhs"`): `E[X] ≤ rhs`, decided by the Student-t interval of the
//!   sample mean ([`crate::sim::statistic::mean_ci`]);
//! * `probability = "<= rhs"` with `q`: `P[X ≤ rhs] ≥ 1 − q`, decided by the exact
//!   Clopper–Pearson interval of the fraction of runs with `X ≤ rhs`
//!   ([`crate::sim::statistic::proportion_ci`]).
//!
//! With `k` configurations (every n × process × batch of the grid) each interval is taken at the
//! Bonferroni level `1 − (1 − c)/k`, so that with probability at least `c` every interval covers
//! its true value at once: the stated confidence is for the whole file. Verdict: `holds` when every
//! interval lies on the claimed side of its threshold, `refuted` when one lies entirely on the
//! other side (the first such configuration is reported with its estimate and interval),
//! `inconclusive` otherwise. Runs are seeded from (configuration, seed, run index), so the verdict
//! does not depend on the thread count.
//!
//! The constant finder ([`Check::tighten`]) gives, per n, the tightest value of a constant of
//! `[tighten]` for which every configuration at that n holds at the file's per-configuration
//! level (the simulation is run once per n; the bisection only re-evaluates the thresholds).

use super::{Check, ConstantReport, KindInfo, RunContext, Tightest};
use crate::claim::schema::{ConstValue, FileError, Theorem};
use crate::claim::verdict::{Searched, Status, Trust, Verdict, Witness};
use crate::error::{Error, Result};
use crate::graph::GraphKind;
use crate::lang::{Expr, Float, Slots};
use crate::multidim::{BallLaw, MdRule, sim::MdSimConfig};
use crate::sim::statistic::{Decision, Estimate, Side, mean_ci, proportion_ci};
use crate::sim::{Config, Plan, RunResult, simulate};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The registry entry.
pub static INFO: KindInfo = KindInfo {
    name: "statistical",
    summary: "E[X] ≤/≥ rhs or P[X ≤/≥ rhs] ≥ 1 − q for a per-run statistic X of simulated runs, with a confidence level for the whole file (Bonferroni over the grid)",
    build,
};

/// The per-run statistics, by name.
pub const STATISTICS: &[&str] = &[
    "final_gap",
    "max_gap",
    "spread",
    "potential_final",
    "potential_mean",
    "mean_quantile_fraction",
    "md_max_gap",
    "md_sum_gap",
    "sibling_gap",
];

#[derive(serde::Deserialize)]
#[serde(untagged)]
enum NumOrExpr {
    Num(f64),
    Text(String),
}

impl NumOrExpr {
    fn text(&self) -> String {
        match self {
            NumOrExpr::Num(x) => format!("{x:e}"),
            NumOrExpr::Text(t) => t.clone(),
        }
    }
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
    balls: NumOrExpr,
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
    graph: Option<String>,
    #[serde(default)]
    long_n: Vec<usize>,
}

/// The per-run statistic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stat {
    FinalGap,
    MaxGap,
    Spread,
    PotentialFinal,
    PotentialMean,
    MeanQuantileFraction { eps_milli: u64 },
    MdMaxGap,
    MdSumGap,
    SiblingGap,
}

/// What is simulated per grid point.
enum Source {
    /// A registered process spec in the sequential / batched / weighted setting.
    Process(String),
    /// md-balls with a rule (criterion, choice).
    Md(MdRule, BallLaw),
    /// Bansal–Feldheim's strategy on a graph family.
    Strategy(GraphKind, String),
}

impl Source {
    fn label(&self) -> String {
        match self {
            Source::Process(s) => s.clone(),
            Source::Md(r, l) => format!("md {} {}", r.label(), l.spec()),
            Source::Strategy(_, g) => format!("Bansal–Feldheim strategy on {g}"),
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
}

/// A built `statistical` check.
pub struct Statistical {
    t: Theorem,
    stat: Stat,
    test: Test,
    rhs: Expr,
    q: Option<Expr>,
    balls: Expr,
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
    let comp = |text: &str, field: &str, allowed: usize| {
        // Names not yet defined at this field (b in a batch, m in balls) are out of scope.
        let scoped: Vec<&str> = names
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
        crate::lang::compile_value(text, &scoped).map_err(|err| {
            let mut known: Vec<&str> = names[..allowed].iter().map(|s| s.as_str()).collect();
            known.extend(names[3..].iter().map(|s| s.as_str()));
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
    let needs_potential = matches!(stat, Stat::PotentialFinal | Stat::PotentialMean);
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
    let (test, rhs_text) = match (&cs.mean, &cs.probability) {
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
    let field = if matches!(test, Test::Mean(_)) {
        "mean"
    } else {
        "probability"
    };
    let rhs = comp(&rhs_text, field, 3)?;
    let q = match (&cs.q, test) {
        (Some(q), Test::Probability(_)) => Some(comp(&q.text(), "q", 3)?),
        (None, Test::Probability(_)) => {
            return Err(bad(
                "q",
                "a probability claim needs `q` (P[X <= rhs] >= 1 - q)".into(),
            ));
        }
        (Some(_), Test::Mean(_)) => {
            return Err(bad("q", "only used with `probability`".into()));
        }
        (None, Test::Mean(_)) => None,
    };
    let balls = comp(&cs.balls.text(), "balls", 2)?;
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
    if stat == Stat::SiblingGap && cs.graph.is_none() {
        return Err(bad(
            "graph",
            "sibling_gap needs a graph family for the strategy (cycle, torus, hypercube, ...)"
                .into(),
        ));
    }
    if let Some(g) = &cs.graph {
        if !matches!(stat, Stat::FinalGap | Stat::MaxGap | Stat::SiblingGap) {
            return Err(bad(
                "graph",
                format!(
                    "the strategy model gives final_gap, max_gap and sibling_gap, not `{}`",
                    cs.statistic
                ),
            ));
        }
        let kind = match g.as_str() {
            "cycle" => GraphKind::Cycle,
            "path" => GraphKind::Path,
            "torus" => GraphKind::Torus,
            "hypercube" => GraphKind::Hypercube,
            "complete" => GraphKind::Complete,
            other => {
                return Err(bad(
                    "graph",
                    format!(
                        "unknown graph family `{other}`; accepted: cycle, path, torus, hypercube, complete"
                    ),
                ));
            }
        };
        if !procs.is_empty() {
            return Err(bad(
                "graph",
                "the strategy model takes no [setting] processes".into(),
            ));
        }
        sources.push(Source::Strategy(kind, g.to_string()));
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
            crate::process::parse(p.get_ref())
                .map_err(|e| t.error_at(Some(p.span().start), e.to_string()))?;
            sources.push(Source::Process(p.get_ref().clone()));
        }
    }
    if sources.is_empty() {
        return Err(t.error_at(None, "[setting] processes is empty"));
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
        names,
        consts,
    };
    // Validate the grid at its first point (batch and balls evaluate, configurations build).
    for &n in &d.n {
        for b in &check.batch {
            let bv = check
                .batch_at(n, b)
                .map_err(|e| t.error_at(at, e.to_string()))?;
            check
                .balls_at(n, bv)
                .map_err(|e| t.error_at(at, e.to_string()))?;
        }
    }
    Ok(Box::new(check))
}

/// One configuration of the grid with its per-run values.
struct Point {
    n: usize,
    b: u64,
    m: u64,
    source: usize,
    values: Vec<f64>,
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
        let mut vals = vec![n as f64, b as f64, m as f64];
        vals.extend_from_slice(consts);
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

    fn balls_at(&self, n: usize, b: u64) -> Result<u64> {
        let v = self.eval(&self.balls, n, b, 0, &self.consts, "balls")?;
        if !(1.0..=1e15).contains(&v.ceil()) {
            return Err(Error::invalid(
                "[claim] balls",
                format!("must be at least 1, got {v} at n = {n}, b = {b}"),
            ));
        }
        Ok(v.ceil() as u64)
    }

    /// The grid of n for an effort (the long tier adds `long_n`).
    fn grid_n(&self, effort: u32) -> Vec<usize> {
        let mut ns = self.t.file.domain.get_ref().n.clone();
        if effort > 1 {
            ns.extend(&self.long_n);
        }
        ns
    }

    /// The number of configurations at an effort (the Bonferroni divisor).
    fn configurations(&self, effort: u32) -> usize {
        self.grid_n(effort).len() * self.batch.len() * self.sources.len()
    }

    /// Simulates every configuration at `n`.
    fn simulate_n(&self, n: usize, runs: u64) -> Result<Vec<Point>> {
        let mut out = Vec::new();
        for be in &self.batch {
            let b = self.batch_at(n, be)?;
            let m = self.balls_at(n, b)?;
            for (si, s) in self.sources.iter().enumerate() {
                let values = self.simulate_one(s, n, b, m, runs)?;
                out.push(Point {
                    n,
                    b,
                    m,
                    source: si,
                    values,
                });
            }
        }
        Ok(out)
    }

    fn simulate_one(&self, s: &Source, n: usize, b: u64, m: u64, runs: u64) -> Result<Vec<f64>> {
        match s {
            Source::Process(spec) => {
                let cfg = Config::parse(spec, n, b, &self.weights, &self.ties)?;
                let mut plan = Plan::new(m, runs, self.seed);
                if let Some(p) = &self.potential {
                    plan.potentials = vec![Arc::from(crate::potential::parse(p)?)];
                }
                if matches!(
                    self.stat,
                    Stat::PotentialMean | Stat::MeanQuantileFraction { .. }
                ) {
                    plan.trajectory = self.checkpoints;
                }
                let out = simulate(&cfg, &plan, &|| {})?;
                out.runs.iter().map(|r| self.per_run(r)).collect()
            }
            Source::Md(rule, law) => {
                let cfg = MdSimConfig {
                    n,
                    balls: m,
                    law: law.clone(),
                    rule: rule.clone(),
                    batch: b,
                };
                let key = format!("md;{};{};n={n};b={b};m={m}", rule.label(), law.spec());
                let seed = crate::sim::rng::run_seed(&key, self.seed, 0);
                let runs = cfg.runs(seed, runs)?;
                Ok(runs
                    .iter()
                    .map(|r| match self.stat {
                        Stat::MdSumGap => r.sum_gap,
                        _ => r.max_gap,
                    })
                    .collect())
            }
            Source::Strategy(kind, _) => {
                if b != 1 {
                    return Err(Error::invalid(
                        "[claim] batch",
                        "the strategy is simulated sequentially (batch 1)",
                    ));
                }
                let g = kind.build(n)?;
                let runs = crate::graph::experiment::strategy_runs(&g, m, runs, self.seed)?;
                Ok(runs
                    .iter()
                    .map(|r| match self.stat {
                        Stat::FinalGap => r.final_gap,
                        Stat::MaxGap => r.max_gap,
                        _ => r.sibling_gap,
                    })
                    .collect())
            }
        }
    }

    fn per_run(&self, r: &RunResult) -> Result<f64> {
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
            Stat::MdMaxGap | Stat::MdSumGap | Stat::SiblingGap => {
                unreachable!("not a process statistic")
            }
        })
    }

    /// Decides one configuration at per-configuration level `level` with constants `consts`.
    fn judge(&self, p: &Point, level: f64, consts: &[f64]) -> Result<Judgement> {
        let threshold = self.eval(&self.rhs, p.n, p.b, p.m, consts, "rhs")?;
        let claim = match self.test {
            Test::Mean(side) => StatClaim::Mean(side),
            Test::Probability(side) => {
                let q = self.eval(
                    self.q.as_ref().expect("probability claims have q"),
                    p.n,
                    p.b,
                    p.m,
                    consts,
                    "q",
                )?;
                StatClaim::Probability { side, q }
            }
        };
        judge_values(&p.values, claim, threshold, level)
    }

    fn level(&self, effort: u32) -> f64 {
        bonferroni(self.confidence, self.configurations(effort))
    }

    fn lhs_name(&self) -> String {
        let x = self.stat_name();
        match self.test {
            Test::Mean(_) => format!("E[{x}]"),
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
        }
    }

    fn witness(&self, p: &Point, j: &Judgement, consts: &[f64], runs: u64) -> Witness {
        let constants: BTreeMap<String, f64> = self.names[3..]
            .iter()
            .cloned()
            .zip(consts.iter().copied())
            .collect();
        let target = match self.test {
            Test::Mean(_) => "threshold".to_string(),
            Test::Probability(_) => "1 - q".to_string(),
        };
        Witness {
            n: p.n,
            loads: vec![],
            source: format!(
                "{}, b = {}, m = {}",
                self.sources[p.source].label(),
                p.b,
                p.m
            ),
            constants,
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
        let runs = self.runs * effort as u64;
        let ns = self.grid_n(effort);
        let k = self.configurations(effort);
        let level = self.level(effort);
        let mut searched = Searched {
            n: ns.clone(),
            sources: self.sources.len(),
            constant_combinations: 1,
            confidence: Some(self.confidence),
            ..Searched::default()
        };
        let mut notes = vec![format!(
            "statistical: confidence {} for the whole file; {k} configuration(s), each interval at the Bonferroni level 1 - (1 - {})/{k} = {level:.6}; {runs} runs per configuration, seed {}",
            self.confidence, self.confidence, self.seed
        )];
        let mut worst: Option<(f64, Witness)> = None;
        let mut refuted: Option<(f64, Witness)> = None;
        let mut undecided = 0usize;
        for &n in &ns {
            if let Some(pr) = ctx.progress {
                pr(&format!("{} n={n}", self.t.id));
            }
            for p in self.simulate_n(n, runs)? {
                searched.add("runs", p.values.len() as u64);
                let j = self.judge(&p, level, &self.consts)?;
                let rhs = self.eval(&self.rhs, p.n, p.b, p.m, &self.consts, "rhs")?;
                let lo = p.values.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = p.values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                notes.push(format!(
                    "n = {}, {}, b = {}, m = {}: {} = {:.4} in [{:.4}, {:.4}] vs {:.4}: {} (values {lo:.4} … {hi:.4}, rhs {rhs:.4})",
                    p.n,
                    self.sources[p.source].label(),
                    p.b,
                    p.m,
                    self.lhs_name(),
                    j.estimate.mean,
                    j.estimate.ci_low,
                    j.estimate.ci_high,
                    j.target,
                    match j.decision {
                        Decision::Holds => "holds",
                        Decision::Refuted => "refuted",
                        Decision::Inconclusive => "inconclusive",
                    }
                ));
                let w = self.witness(&p, &j, &self.consts, runs);
                match j.decision {
                    Decision::Refuted if refuted.is_none() => refuted = Some((j.margin, w)),
                    Decision::Inconclusive => undecided += 1,
                    _ => {}
                }
                if worst.as_ref().is_none_or(|(m, _)| j.margin < *m) {
                    worst = Some((j.margin, self.witness(&p, &j, &self.consts, runs)));
                }
            }
        }
        let (status, (slack, w)) = match refuted {
            Some(r) => (Status::Refuted, r),
            None => (
                if undecided > 0 {
                    Status::Inconclusive
                } else {
                    Status::Holds
                },
                worst.ok_or_else(|| Error::Unsupported("no configuration".into()))?,
            ),
        };
        if status == Status::Inconclusive {
            notes.push(format!(
                "{undecided} interval(s) contain their threshold: more runs could decide them"
            ));
        }
        Ok(Verdict {
            links: Vec::new(),
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
        let runs = self.runs * effort as u64;
        let level = self.level(effort);
        let grid = ns
            .map(|v| v.to_vec())
            .unwrap_or_else(|| self.grid_n(effort));
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
            let value = crate::search::bisect(dir, start, 1e-6, &mut holds)?;
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
                fails: None,
                trust_holds: None,
                trust_fails: None,
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
