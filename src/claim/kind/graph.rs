//! The kind `graph`: runs a named checkable item of Bansal–Feldheim, *The Power of Two Choices in
//! Graphical Allocation* (arXiv:2106.06051 v2), implemented in [`crate::graph::checks`], on the
//! graphs and load vectors the file lists, and turns its [`Finding`]s into a verdict: `holds` on
//! the evaluated instances (not a proof), or `refuted` with the first violation as the
//! counterexample. Trust is `exact` for the items computed in rationals (every item except
//! `two_point_one_step` and `lemma_4_1_tail`); the two-point sweep's configurations are exact
//! rationals. `two_point_one_step` (whose sides are sums of `cosh`) is swept in `f64` with a
//! relative allowance of 10⁻¹², and its tightest instance (or its violation) is then certified by
//! enclosures ([`TwoPointQ::one_step_enclosed`], 64…4096 bits): trust `enclosure` when the
//! enclosure confirms the sweep, `inconclusive` when it contradicts it, `float` when undecided.
//! `lemma_4_1_tail` encloses binomial tails (trust `enclosure`).
//!
//! `[claim]` table:
//!
//! ```toml
//! item = "lemma_3_2"                      # see ITEMS
//! graphs = ["cycle(8)", "torus(4,4)", "hypercube(3)", "complete(5)", "regular(10,3,1)",
//!           "path(6)", "sparse-cut(20,4,2)", "edges(0-1 1-2 2-0)", "file(c8.edges)"]
//! families = ["tied", "random", "zigzag"] # load vectors per graph; also "permutations" (n ≤ 8)
//! loads = [[4, 4, 4, 4, 2, 2, 0, 1]]      # explicit load vectors (each of a listed graph's size)
//! grid = [20, 4, 6]                       # two-point items: π₁, ε, ε_t steps
//! deltas = [-100, 100, 0.25]              # two-point items: δ range and step
//! require_valid = true                    # two-point items: only π₁ ± ε_t ∈ [0, 1]
//! d_max = 5                               # lemma_4_1_mean: degrees 1..=d_max
//! horizons = [0.0625]                     # lemma_4_1_tail: the c of T = ⌈c·n²d²/k²⌉;
//!                                         # coupon_collector: the c of T = ⌈c·n·ln n⌉
//! at_least = "1/50"                       # both: "constant probability" read as ≥ this
//! ```
//!
//! Graphs are sized specs of [`crate::graph::family`]; `file(path)` (an edge list) is read
//! from the theorem file's folder when `path` is relative, as are tree files. Sizes are checked
//! against [`crate::limits::GRAPH_N`], [`crate::limits::GRAPH_CLAIM_N`] and the work (load vectors
//! × vertices) against [`crate::limits::GRAPH_CLAIM_ELEMENTS`] before anything runs.
//!
//! Items: the names in `src/graph/CHECKS.md` (`lemma_3_7_epsilon` split into its four readings),
//! the two-point items, `lemma_4_1_tail` (the binomial step of Lemma 4.1 on each listed graph's
//! minimum cut, [`checks::lemma_4_1_tail`]), `coupon_collector` (the exact probability that some
//! vertex is untouched by `T` uniform edge requests, a bound for every strategy:
//! [`checks::coupon_collector`]), and `lemma_3_7_concentration`, `main_theorem_gap`
//! (statistical: reported `inconclusive`, never evaluated).
//!
//! `[domain] n` lists the graph sizes (each graph's n must be listed), or the n of the items
//! parametrised by n (`cycle_drift_limitation`, `lemma_4_1_mean`); `[domain] random` is the number
//! of random load vectors (integers in 0..6, ChaCha8 seeded with `[domain] seed`).

use super::{Check, KindInfo, RunContext};
use crate::claim::schema::{FileError, Theorem};
use crate::claim::verdict::{Searched, Status, Trust, Verdict, Witness};
use crate::enclosure::Decision;
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use crate::graph::Graph;
use crate::graph::checks::{self, Finding};
use crate::graph::family::parse_graph;
use crate::graph::strategy::Strategy;
use crate::graph::twopoint::TwoPointQ;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// The registry entry.
pub static INFO: KindInfo = KindInfo {
    name: "graph",
    summary: "a checkable item of the graphical-allocation paper (src/graph/checks.rs) on listed graphs and load vectors, exact or f64",
    build,
};

/// What an item needs.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Needs {
    /// The strategy of each graph.
    Strategy,
    /// The strategy of each graph and load vectors.
    Loads,
    /// Each `n` of the domain.
    N,
    /// The listed graphs only (no strategy, no loads).
    Graphs,
    /// The two-point sweep.
    TwoPoint,
    /// Nothing the engine can evaluate (statistical statement).
    Statistical,
}

/// The accepted items: name, needs, trust.
const ITEMS: &[(&str, Needs, Trust)] = &[
    ("gap_vs_deviation", Needs::Loads, Trust::Exact),
    ("bias_drift_flow", Needs::Loads, Trust::Exact),
    ("telescope", Needs::Loads, Trust::Exact),
    ("parent_child", Needs::Loads, Trust::Exact),
    ("haar_basis", Needs::Loads, Trust::Exact),
    ("claim_3_1", Needs::Strategy, Trust::Exact),
    ("lemma_3_2", Needs::Strategy, Trust::Exact),
    ("lemma_3_3", Needs::Strategy, Trust::Exact),
    ("lemma_3_4", Needs::Strategy, Trust::Exact),
    ("lemma_3_5", Needs::Loads, Trust::Exact),
    ("lemma_3_6", Needs::Loads, Trust::Exact),
    ("lemma_3_7_printed_closed_form", Needs::Loads, Trust::Exact),
    ("lemma_3_7_derived_closed_form", Needs::Loads, Trust::Exact),
    ("lemma_3_7_printed_bound_10", Needs::Loads, Trust::Exact),
    ("lemma_3_7_derived_bound", Needs::Loads, Trust::Exact),
    ("greedy_eps_vs_expansion", Needs::Loads, Trust::Exact),
    ("cycle_drift_limitation", Needs::N, Trust::Exact),
    ("lemma_4_1_mean", Needs::N, Trust::Exact),
    ("lemma_4_1_tail", Needs::Graphs, Trust::Enclosure),
    ("coupon_collector", Needs::Graphs, Trust::Exact),
    ("two_point_one_step", Needs::TwoPoint, Trust::Float),
    ("two_point_moments", Needs::TwoPoint, Trust::Exact),
    ("two_point_eps_gamma", Needs::TwoPoint, Trust::Exact),
    ("two_point_eps_gamma_valid", Needs::TwoPoint, Trust::Exact),
    ("two_point_hypotheses_valid", Needs::TwoPoint, Trust::Exact),
    (
        "lemma_3_7_concentration",
        Needs::Statistical,
        Trust::Statistical,
    ),
    ("main_theorem_gap", Needs::Statistical, Trust::Statistical),
];

/// The load families of the kind.
pub const FAMILIES: &[&str] = &["tied", "random", "zigzag", "permutations"];

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimSection {
    item: toml::Spanned<String>,
    #[serde(default)]
    graphs: Vec<toml::Spanned<String>>,
    #[serde(default)]
    families: Vec<toml::Spanned<String>>,
    #[serde(default)]
    loads: Vec<Vec<f64>>,
    #[serde(default)]
    grid: Option<[usize; 3]>,
    #[serde(default)]
    deltas: Option<[f64; 3]>,
    #[serde(default)]
    require_valid: bool,
    #[serde(default)]
    d_max: Option<usize>,
    #[serde(default)]
    horizons: Vec<f64>,
    #[serde(default)]
    at_least: Option<String>,
}

/// A built `graph` check.
pub struct GraphCheck {
    t: Theorem,
    item: &'static str,
    needs: Needs,
    trust: Trust,
    strategies: Vec<Strategy>,
    families: Vec<String>,
    loads: Vec<Vec<f64>>,
    grid: [usize; 3],
    deltas: Vec<f64>,
    require_valid: bool,
    d_max: usize,
    /// The graphs of `Needs::Graphs` items.
    graphs: Vec<Graph>,
    /// `lemma_4_1_tail`: the horizons `c` (`T = ⌈c·n²d²/k²⌉`) and the probability bound.
    horizons: Vec<Q>,
    at_least: Q,
}

fn build(t: &Theorem) -> std::result::Result<Box<dyn Check>, FileError> {
    let claim = t.file.claim.get_ref();
    if claim.contains_key("expr") {
        if claim.get("over").and_then(|v| v.as_str()) == Some("two-point") {
            // A claim about the two-point process of Lemma 3.8.
            return super::two_point::build(t);
        }
        // A claim written in the language over the graph quantities.
        return super::graph_expr::build(t);
    }
    let c: toml::Spanned<ClaimSection> = t.claim_section()?;
    let at = Some(c.span().start);
    let cs = c.into_inner();
    let (item, needs, trust) = ITEMS
        .iter()
        .find(|(n, _, _)| *n == cs.item.get_ref())
        .copied()
        .ok_or_else(|| {
            let names: Vec<&str> = ITEMS.iter().map(|i| i.0).collect();
            t.error_at(
                Some(cs.item.span().start),
                format!(
                    "unknown item `{}`; accepted: {}",
                    cs.item.get_ref(),
                    names.join(", ")
                ),
            )
        })?;
    let domain = t.file.domain.get_ref();
    let dir = t.path.parent();
    let mut strategies = Vec::new();
    let mut graphs = Vec::new();
    for g in &cs.graphs {
        let gr = parse_graph(g.get_ref(), &crate::input::Dir::new(dir))
            .and_then(|gr| {
                crate::limits::GRAPH_CLAIM_N
                    .check_usize("a graph of a `graph` claim, n", gr.n())?;
                Ok(gr)
            })
            .map_err(|e| t.error_at(Some(g.span().start), e.to_string()))?;
        if !domain.n.contains(&gr.n()) {
            return Err(t.error_at(
                Some(g.span().start),
                format!(
                    "graph `{}` has n = {}, which [domain] n does not list",
                    g.get_ref(),
                    gr.n()
                ),
            ));
        }
        if matches!(needs, Needs::Strategy | Needs::Loads) {
            let s =
                Strategy::new(&gr).map_err(|e| t.error_at(Some(g.span().start), e.to_string()))?;
            strategies.push(s);
        }
        graphs.push(gr);
    }
    let mut families = Vec::new();
    for f in &cs.families {
        if !FAMILIES.contains(&f.get_ref().as_str()) {
            return Err(t.error_at(
                Some(f.span().start),
                format!(
                    "unknown load family `{}`; accepted: {}",
                    f.get_ref(),
                    FAMILIES.join(", ")
                ),
            ));
        }
        families.push(f.get_ref().clone());
    }
    if cs.loads.iter().flatten().any(|v| !v.is_finite()) {
        return Err(t.error_at(at, "loads: every load must be a finite number"));
    }
    if let Some((i, l)) = cs
        .loads
        .iter()
        .enumerate()
        .find(|(_, l)| !graphs.iter().any(|g| g.n() == l.len()))
    {
        let sizes: Vec<String> = graphs.iter().map(|g| g.n().to_string()).collect();
        return Err(t.error_at(
            at,
            format!(
                "loads[{i}] has {} entries but no listed graph has that many vertices (sizes: {})",
                l.len(),
                if sizes.is_empty() {
                    "no graph".to_string()
                } else {
                    sizes.join(", ")
                }
            ),
        ));
    }
    let (horizons, at_least) = tail_parameters(t, &cs, needs, at)?;
    if needs == Needs::Loads {
        // Each load item evaluates every vertex or node of the graph at each load vector.
        let total = graphs.iter().fold(0u64, |acc, g| {
            load_vector_count(t, &families, &cs.loads, g.n())
                .saturating_mul(2 * g.n() as u64)
                .saturating_add(acc)
        });
        check_elements(t, total, at)?;
    }
    match needs {
        Needs::Strategy | Needs::Loads | Needs::Graphs if graphs.is_empty() => {
            return Err(t.error_at(at, format!("item `{item}` needs a non-empty `graphs` list")));
        }
        Needs::Loads if families.is_empty() && cs.loads.is_empty() => {
            return Err(t.error_at(
                at,
                format!("item `{item}` needs load vectors: `families` or `loads`"),
            ));
        }
        Needs::N => {
            crate::claim::setup::plain_ns(t)?;
        }
        _ => {}
    }
    let grid = cs.grid.unwrap_or([20, 4, 6]);
    if needs == Needs::TwoPoint {
        if grid.contains(&0) {
            return Err(t.error_at(at, "grid: every step count must be at least 1"));
        }
        for &g in &grid {
            crate::limits::TWO_POINT_STEPS
                .check_usize("grid: a step count", g)
                .map_err(|e| t.error_at(at, e.to_string()))?;
        }
    }
    let [lo, hi, step] = cs.deltas.unwrap_or([-100.0, 100.0, 0.25]);
    if !(lo.is_finite() && hi.is_finite() && step.is_finite() && step > 0.0 && lo <= hi) {
        return Err(t.error_at(
            at,
            "deltas: need [low, high, step] with finite low ≤ high and step > 0",
        ));
    }
    crate::limits::TWO_POINT_DELTAS
        .count_from_f64("deltas: the number of values of δ", (hi - lo) / step)
        .map_err(|e| t.error_at(at, e.to_string()))?;
    let d_max = cs.d_max.unwrap_or(5);
    crate::limits::LEMMA_4_1_D_MAX
        .check_usize("d_max", d_max)
        .map_err(|e| t.error_at(at, e.to_string()))?;
    let k = ((hi - lo) / step).floor() as usize;
    let deltas = (0..=k).map(|i| lo + i as f64 * step).collect();
    Ok(Box::new(GraphCheck {
        t: t.clone(),
        item,
        needs,
        trust,
        strategies,
        families,
        loads: cs.loads,
        grid,
        deltas,
        require_valid: cs.require_valid,
        d_max,
        graphs,
        horizons,
        at_least,
    }))
}

/// The `horizons` and `at_least` of `lemma_4_1_tail` and `coupon_collector` (only there):
/// horizons finite and positive, `at_least` an exact number in `[0, 1]`.
fn tail_parameters(
    t: &Theorem,
    cs: &ClaimSection,
    needs: Needs,
    at: Option<usize>,
) -> std::result::Result<(Vec<Q>, Q), FileError> {
    let zero = Q::from_integer(0.into());
    if needs != Needs::Graphs {
        if !cs.horizons.is_empty() || cs.at_least.is_some() {
            return Err(t.error_at(
                at,
                "`horizons` and `at_least` are fields of the items `lemma_4_1_tail` and `coupon_collector` only",
            ));
        }
        return Ok((Vec::new(), zero));
    }
    let item = cs.item.get_ref().as_str();
    if cs.horizons.is_empty() {
        return Err(t.error_at(
            at,
            if item == "coupon_collector" {
                "item `coupon_collector` needs `horizons` (the c of T = ⌈c·n·ln n⌉), e.g. [0.5]"
            } else {
                "item `lemma_4_1_tail` needs `horizons` (the c of T = ⌈c·n²d²/k²⌉), e.g. [0.0625]"
            },
        ));
    }
    let mut hs = Vec::new();
    for &c in &cs.horizons {
        match crate::exact::from_float(c) {
            Some(q) if q > zero => hs.push(q),
            _ => {
                return Err(t.error_at(
                    at,
                    format!("horizons: every c must be a finite number > 0, got {c}"),
                ));
            }
        }
    }
    let text = cs.at_least.as_deref().ok_or_else(|| {
        t.error_at(
            at,
            format!("item `{item}` needs `at_least` (the constant probability, e.g. \"1/50\")"),
        )
    })?;
    let q = crate::spec::parse_ratio(text).map_err(|e| t.error_at(at, format!("at_least: {e}")))?;
    if q < zero || q > Q::from_integer(1.into()) {
        return Err(t.error_at(
            at,
            format!("at_least: a probability lies in [0, 1], got {q}"),
        ));
    }
    Ok((hs, q))
}

/// Every permutation of `0..n` (Heap's algorithm), as loads.
pub(crate) fn permutations(n: usize) -> Vec<Vec<f64>> {
    let mut a: Vec<f64> = (0..n).map(|v| v as f64).collect();
    let mut out = vec![a.clone()];
    let mut c = vec![0usize; n];
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                a.swap(0, i);
            } else {
                a.swap(c[i], i);
            }
            out.push(a.clone());
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    out
}

/// The number of load vectors [`load_vectors`] gives on a graph of `n` vertices (without
/// building them; `n!` saturates).
pub(crate) fn load_vector_count(
    t: &Theorem,
    families: &[String],
    loads: &[Vec<f64>],
    n: usize,
) -> u64 {
    let listed = loads.iter().filter(|l| l.len() == n).count() as u64;
    families.iter().fold(listed, |acc, f| {
        let k = match f.as_str() {
            "random" => t.file.domain.get_ref().random as u64,
            "permutations" => (1..=n as u64)
                .try_fold(1u64, |p, i| p.checked_mul(i))
                .unwrap_or(u64::MAX),
            _ => 1,
        };
        acc.saturating_add(k)
    })
}

/// Checks a claim's work against [`crate::limits::GRAPH_CLAIM_ELEMENTS`] before it runs.
pub(crate) fn check_elements(
    t: &Theorem,
    total: u64,
    at: Option<usize>,
) -> std::result::Result<(), FileError> {
    crate::limits::GRAPH_CLAIM_ELEMENTS
        .check("the elements the claim evaluates", total)
        .map(|_| ())
        .map_err(|e| t.error_at(at, e.to_string()))
}

/// The first violation of an evaluation, with where it occurred.
struct Violation {
    n: usize,
    loads: Vec<f64>,
    source: String,
    family: String,
    what: String,
}

/// The load vectors of one strategy's graph, each with its family name: the listed vectors of
/// length `n` first (a hand-checked instance is evaluated before the families), then the
/// families (`tied`: all 3; `random`: `[domain] random` vectors in `0..6`, ChaCha8 seeded with
/// `[domain] seed` xor `n`; `zigzag` along the leaf order; `permutations` of `0..n`, `n ≤ 8`).
pub(crate) fn load_vectors(
    t: &Theorem,
    families: &[String],
    loads: &[Vec<f64>],
    s: &Strategy,
) -> Result<Vec<(String, Vec<f64>)>> {
    let n = s.graph.n();
    let mut out = Vec::new();
    for l in loads {
        if l.len() == n {
            out.push(("listed".into(), l.clone()));
        }
    }
    for f in families {
        match f.as_str() {
            "tied" => out.push((f.clone(), vec![3.0; n])),
            "random" => {
                let d = t.file.domain.get_ref();
                let mut rng = ChaCha8Rng::seed_from_u64(d.seed ^ n as u64);
                for _ in 0..d.random {
                    out.push((
                        f.clone(),
                        (0..n).map(|_| rng.random_range(0..6) as f64).collect(),
                    ));
                }
            }
            "zigzag" => {
                let mut z = vec![0.0; n];
                for (k, &v) in s.tree.order.iter().enumerate() {
                    z[v] = if k % 2 == 0 { k as f64 } else { (n - k) as f64 };
                }
                out.push((f.clone(), z));
            }
            "permutations" => {
                crate::limits::GRAPH_PERMUTATIONS_N.check_usize(
                    &format!(
                        "{}: family `permutations` (n! vectors), graph size n",
                        t.file_name()
                    ),
                    n,
                )?;
                out.extend(permutations(n).into_iter().map(|p| (f.clone(), p)));
            }
            other => {
                return Err(Error::invalid(
                    t.file_name(),
                    format!(
                        "unknown load family `{other}`; accepted: {}",
                        FAMILIES.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(out)
}

impl GraphCheck {
    /// The load vectors of one strategy's graph, each with its family name.
    fn load_vectors(&self, s: &Strategy) -> Result<Vec<(String, Vec<f64>)>> {
        load_vectors(&self.t, &self.families, &self.loads, s)
    }

    fn eval_loads(&self, s: &Strategy, x: &[f64]) -> Result<Finding> {
        let lemma_3_7 = |pick: fn(checks::EpsilonT) -> Finding| -> Result<Finding> {
            Ok(pick(checks::lemma_3_7_epsilon(s, x)?))
        };
        match self.item {
            "gap_vs_deviation" => checks::gap_vs_deviation(x),
            "bias_drift_flow" => checks::bias_drift_flow(&s.graph, &s.biases(x)?),
            "telescope" => checks::telescope(&s.tree, x),
            "parent_child" => checks::parent_child(&s.tree, x),
            "haar_basis" => checks::haar_basis(&s.tree, x),
            "lemma_3_5" => checks::lemma_3_5(s, x),
            "lemma_3_6" => checks::lemma_3_6(s, x),
            "lemma_3_7_printed_closed_form" => lemma_3_7(|e| e.printed_closed_form),
            "lemma_3_7_derived_closed_form" => lemma_3_7(|e| e.derived_closed_form),
            "lemma_3_7_printed_bound_10" => lemma_3_7(|e| e.printed_bound_10),
            "lemma_3_7_derived_bound" => lemma_3_7(|e| e.derived_bound),
            "greedy_eps_vs_expansion" => checks::greedy_eps_vs_expansion(&s.graph, x),
            other => unreachable!("{other} is not a load item"),
        }
    }

    fn eval_strategy(&self, s: &Strategy) -> Finding {
        match self.item {
            "claim_3_1" => checks::claim_3_1(&s.tree),
            "lemma_3_2" => checks::lemma_3_2(s),
            "lemma_3_3" => checks::lemma_3_3(s),
            "lemma_3_4" => checks::lemma_3_4(s),
            other => unreachable!("{other} is not a strategy item"),
        }
    }

    /// The two-point configurations of the sweep (`π₁ = a/A`,
    /// `ε = (min π/2)·b/B`, `ε_t = ε + (max π/2 − ε)·c/C`), in exact rationals, within the
    /// printed hypotheses and, with `require_valid`, with `π₁ ± ε_t ∈ [0, 1]` (decided exactly,
    /// so the boundary configurations `ε = min π/2`, `ε_t = max π/2` are kept).
    fn two_point_configs(&self) -> Vec<TwoPointQ> {
        let [na, nb, nc] = self.grid;
        let q = |a: usize, b: usize| Q::new(Int::from(a), Int::from(b));
        let one = Q::from_integer(1.into());
        let two = Q::from_integer(2.into());
        let mut out = Vec::new();
        for a in 1..na {
            let pi1 = q(a, na);
            let pi2 = &one - &pi1;
            let (pmin, pmax) = (pi1.clone().min(pi2.clone()), pi1.clone().max(pi2));
            for b in 1..=nb {
                let eps = &pmin / &two * q(b, nb);
                for c in 1..=nc {
                    let eps_t = &eps + (&pmax / &two - &eps) * q(c, nc);
                    let tp = TwoPointQ {
                        pi1: pi1.clone(),
                        eps: eps.clone(),
                        eps_t,
                    };
                    if tp.hypotheses() && (!self.require_valid || tp.valid()) {
                        out.push(tp);
                    }
                }
            }
        }
        out
    }
}

impl Check for GraphCheck {
    fn run(&self, ctx: &mut RunContext) -> Result<Verdict> {
        let d = self.t.file.domain.get_ref();
        let mut searched = Searched {
            n: d.n.clone(),
            sources: self.strategies.len().max(1),
            constant_combinations: 1,
            ..Searched::default()
        };
        let mut notes = Vec::new();
        let mut first: Option<Violation> = None;
        let mut worst_slack: Option<f64> = None;
        // The one-step item's tightest instance: (slack, configuration, δ index).
        let mut tightest: Option<(f64, TwoPointQ, usize)> = None;
        let mut record = |f: Finding, searched: &mut Searched, key: &str, v: Violation| {
            searched.add(key, f.instances as u64);
            if !f.holds && first.is_none() {
                first = Some(Violation {
                    what: f.violation.unwrap_or_default(),
                    ..v
                });
            }
        };
        let blank = |n: usize, source: String, family: &str| Violation {
            n,
            loads: vec![],
            source,
            family: family.into(),
            what: String::new(),
        };
        match self.needs {
            Needs::Statistical => {
                notes.push(
                    "a statistical statement about the whole process (an O(·) bound with an \
                     unspecified constant): the claim engine does not evaluate it; gap growth \
                     is measured by `balloc graph` experiments (experiments/graphical-2022/)"
                        .into(),
                );
                return Ok(Verdict {
                    links: Vec::new(),
                    observations: Vec::new(),
                    id: self.t.id.clone(),
                    verdict: Status::Inconclusive,
                    expected: self.t.file.expected,
                    trust: Trust::Statistical,
                    slack: None,
                    witness: None,
                    searched,
                    notes,
                });
            }
            Needs::Strategy => {
                for s in &self.strategies {
                    let name = s.graph.name().to_string();
                    if let Some(pr) = ctx.progress {
                        pr(&format!("{} {name}", self.t.id));
                    }
                    let f = self.eval_strategy(s);
                    record(
                        f,
                        &mut searched,
                        &name,
                        blank(s.graph.n(), name.clone(), "-"),
                    );
                }
            }
            Needs::Loads => {
                for s in &self.strategies {
                    let name = s.graph.name().to_string();
                    if let Some(pr) = ctx.progress {
                        pr(&format!("{} {name}", self.t.id));
                    }
                    for (fam, x) in self.load_vectors(s)? {
                        let f = self.eval_loads(s, &x).map_err(|e| {
                            Error::invalid(self.t.file_name(), format!("{name}, loads {x:?}: {e}"))
                        })?;
                        let v = Violation {
                            loads: x,
                            ..blank(s.graph.n(), name.clone(), &fam)
                        };
                        record(f, &mut searched, &format!("{name} {fam}"), v);
                    }
                }
            }
            Needs::Graphs => {
                for g in &self.graphs {
                    let name = g.name().to_string();
                    if let Some(pr) = ctx.progress {
                        pr(&format!("{} {name}", self.t.id));
                    }
                    let r = if self.item == "coupon_collector" {
                        checks::coupon_collector(g, &self.horizons, &self.at_least)
                    } else {
                        checks::lemma_4_1_tail(g, &self.horizons, &self.at_least)
                    }
                    .map_err(|e| Error::invalid(self.t.file_name(), e.to_string()))?;
                    notes.extend(r.lines);
                    record(
                        r.finding,
                        &mut searched,
                        &name,
                        blank(g.n(), name.clone(), "-"),
                    );
                }
            }
            Needs::N => {
                for &n in &d.n {
                    match self.item {
                        "cycle_drift_limitation" => {
                            let (delta, mask, f) = checks::cycle_drift_limitation(n)
                                .map_err(|e| Error::invalid(self.t.file_name(), e.to_string()))?;
                            notes.push(format!("C_{n}: δ* = {delta}, tight set mask {mask:#b}"));
                            record(f, &mut searched, "cycle", blank(n, format!("C_{n}"), "-"));
                        }
                        "lemma_4_1_mean" => {
                            for deg in 1..=self.d_max {
                                for k in 0..=deg {
                                    for sz in n.div_ceil(2)..=n {
                                        let f = checks::lemma_4_1_mean(n, deg, k, sz);
                                        record(
                                            f,
                                            &mut searched,
                                            "exact",
                                            blank(
                                                n,
                                                format!("d = {deg}, k = {k}, |S| = {sz}"),
                                                "-",
                                            ),
                                        );
                                    }
                                }
                            }
                        }
                        other => unreachable!("{other} is not an n item"),
                    }
                }
            }
            Needs::TwoPoint => {
                let configs = self.two_point_configs();
                if configs.is_empty() {
                    return Err(Error::invalid(
                        self.t.file_name(),
                        "the two-point grid has no configuration inside the hypotheses",
                    ));
                }
                let exact_deltas: Vec<Q> = self
                    .deltas
                    .iter()
                    .filter_map(|&d| crate::exact::from_float(d))
                    .collect();
                for c in &configs {
                    let f = match self.item {
                        "two_point_one_step" => {
                            let (f, w, k) =
                                checks::two_point_one_step_tightest(&c.to_f64(), &self.deltas);
                            worst_slack = Some(worst_slack.map_or(w, |s: f64| s.min(w)));
                            if tightest.as_ref().is_none_or(|t| w < t.0) {
                                tightest = Some((w, c.clone(), k));
                            }
                            f
                        }
                        "two_point_moments" => checks::two_point_moments(c, &exact_deltas),
                        "two_point_eps_gamma" => checks::two_point_eps_gamma(c),
                        "two_point_eps_gamma_valid" => checks::two_point_eps_gamma_valid(c),
                        "two_point_hypotheses_valid" => checks::two_point_hypotheses_valid(c),
                        other => unreachable!("{other} is not a two-point item"),
                    };
                    record(
                        f,
                        &mut searched,
                        "two-point",
                        blank(2, c.to_string(), "grid"),
                    );
                }
                notes.push(format!(
                    "{} two-point configurations (grid {:?}, printed hypotheses{}), δ ∈ {} points",
                    configs.len(),
                    self.grid,
                    if self.require_valid {
                        " and valid probabilities"
                    } else {
                        ""
                    },
                    self.deltas.len()
                ));
            }
        }
        if searched.total == 0 {
            return Err(Error::invalid(
                self.t.file_name(),
                "nothing was evaluated (no graph of a listed load size, or no internal node)",
            ));
        }
        let mut status = if first.is_some() {
            Status::Refuted
        } else {
            Status::Holds
        };
        let mut trust = self.trust;
        if let Some((_, c, k)) = &tightest {
            // Certify the tightest instance (the violation, if the sweep found one) by enclosures
            // (docs/conventions.md §3: a holds verdict carries the trust of its tightest state).
            let delta = crate::exact::from_float(self.deltas[*k]).expect("finite δ");
            let d = crate::enclosure::decide_escalating(
                crate::enclosure::Precisions::default(),
                |prec| c.one_step_enclosed(&delta, prec),
            );
            let at = format!("{c}, δ = {delta}");
            match d {
                Ok(d) => {
                    let ok = matches!(d.decision, Decision::Less | Decision::Equal);
                    let text = format!(
                        "E[Φ'] ∈ {}, Φ − αεγ(Φ − 2)/2 ∈ {} at {} bits",
                        d.lhs, d.rhs, d.prec
                    );
                    match (d.decision, status) {
                        (Decision::Undecided, _) => notes.push(format!(
                            "the tightest instance ({at}) is undecided by enclosures up to {}                              bits: {text}",
                            d.prec
                        )),
                        (_, Status::Holds) if ok => {
                            trust = Trust::Enclosure;
                            searched.precision_bits = Some(d.prec);
                            notes.push(format!(
                                "the tightest instance ({at}) is certified by enclosures: {text}"
                            ));
                        }
                        (_, Status::Refuted) if !ok => {
                            trust = Trust::Enclosure;
                            searched.precision_bits = Some(d.prec);
                            notes.push(format!(
                                "the violation ({at}) is certified by enclosures: {text}"
                            ));
                        }
                        _ => {
                            status = Status::Inconclusive;
                            notes.push(format!(
                                "the f64 sweep and the enclosure disagree at {at}: {text}"
                            ));
                        }
                    }
                }
                Err(e) => notes.push(format!("no enclosure of the tightest instance: {e}")),
            }
        }
        match status {
            Status::Holds => notes.push(format!(
                "holds on every evaluated instance ({} in all); this is evidence on the listed \
                 inputs, not a proof",
                searched.total
            )),
            _ => notes.push("the first violation is the counterexample".into()),
        }
        match self.trust {
            Trust::Float => notes.push("f64 sweep with a relative allowance of 1e-12".into()),
            Trust::Enclosure => notes.push(
                "exact rational arithmetic; binomial tails enclosed with outward rounding (64…4096 bits)"
                    .into(),
            ),
            _ => notes.push("exact rational arithmetic".into()),
        }
        let witness = first.map(|v| Witness {
            n: v.n,
            loads: v.loads,
            source: v.source,
            constants: BTreeMap::new(),
            constants_text: BTreeMap::new(),
            exact: None,
            lhs: v.what.clone(),
            rhs: "-".into(),
            slack: "-".into(),
            found_by: v.family,
            recheck: Some(v.what),
        });
        Ok(Verdict {
            links: Vec::new(),
            observations: Vec::new(),
            id: self.t.id.clone(),
            verdict: status,
            expected: self.t.file.expected,
            trust,
            slack: if status == Status::Holds {
                worst_slack
            } else {
                None
            },
            witness,
            searched,
            notes,
        })
    }
}
