//! Graphical allocation: a uniform edge of a graph is requested and the ball goes to one endpoint,
//! chosen by the greedy rule (the strictly lighter endpoint, a fair coin on ties) or by
//! Bansal–Feldheim's strategy (`strategy=flow`: compare the average loads of a sibling pair of the
//! decomposition drawn from the edge's distribution). The graph is built on `n` = the number of
//! bins of the load vector: `graph=cycle|path|torus|hypercube|complete|regular|file`, with `d` and
//! `seed` for `regular` and `file=PATH` (an edge list) for `file`.
//!
//! Greedy: `r_v = (#{u ∈ N(v): x_u > x_v} + ½#{u ∈ N(v): x_u = x_v})/m`.
//!
//! The (1+β) graphical model (`beta`, default 1; Bansal–Feldheim Remark 1.1, after
//! Peres–Talwar–Wieder): with probability β an edge is requested and the rule above decides,
//! otherwise the ball goes to a uniform bin, so `q_v = (1 − β)/n + β·r_v`.
//! Reference: Bansal–Feldheim, *The Power of Two Choices in Graphical Allocation*
//! (arXiv:2106.06051 v2, STOC 2022), §1.2, §2.1; Peres–Talwar–Wieder (RSA 2015) for greedy.

use super::{ExactStepLaw, Param, Process, ProcessInfo, StepLaw};
use crate::error::{Error, Result};
use crate::graph::family::{GraphFiles, GraphSpec};
use crate::graph::strategy::Strategy;
use crate::graph::{Graph, greedy};
use crate::loads::{Loads, Ranking, TieRule};
use crate::spec::Spec;
use rand::{Rng, RngExt};
use std::sync::{Arc, Mutex};

pub(super) static INFO: ProcessInfo = ProcessInfo {
    name: "graphical",
    aliases: &["graph", "greedy-graphical"],
    params: &[
        Param {
            name: "graph",
            default: Some("cycle"),
            doc: "cycle, path, torus (n a square), hypercube (n a power of 2), complete, regular, sparse-cut, file",
        },
        Param {
            name: "strategy",
            default: Some("greedy"),
            doc: "greedy (lighter endpoint) or flow (Bansal–Feldheim sibling-set comparison)",
        },
        Param {
            name: "beta",
            default: Some("1"),
            doc: "probability in [0, 1] that an edge is requested; otherwise a uniform bin ((1+β) graphical model)",
        },
        Param {
            name: "d",
            default: Some("3"),
            doc: "degree of graph=regular (1 ≤ d ≤ 12, n·d even) and of graph=sparse-cut (even)",
        },
        Param {
            name: "k",
            default: None,
            doc: "cut of graph=sparse-cut (even, 2 ≤ k, 3k ≤ 2d): two d-regular halves joined by k edges",
        },
        Param {
            name: "a",
            default: None,
            doc: "first side of graph=sparse-cut (default n/2; both sides at least d + 1)",
        },
        Param {
            name: "seed",
            default: Some("1"),
            doc: "ChaCha seed of graph=regular",
        },
        Param {
            name: "file",
            default: None,
            doc: "edge-list file of graph=file (lines `u v`, 0-based)",
        },
    ],
    summary: "uniform edge, ball to an endpoint: greedy r_v = (#heavier nbrs + ½#tied nbrs)/m, or the flow strategy",
    reference: "Bansal–Feldheim, The Power of Two Choices in Graphical Allocation (STOC 2022), §1.2, §2.1",
    rank_based: false,
    monotone: false,
    example: "graphical(graph=cycle)",
    build,
};

/// The graph and strategy last built, with its `n`.
type Cached = (usize, Arc<Graph>, Option<Arc<Strategy>>);

/// The greedy or flow strategy on a graph family instantiated at the load vector's `n`.
///
/// ```
/// use balloc::loads::{Loads, TieRule};
/// let p = balloc::process::parse("graphical(graph=cycle)").unwrap();
/// // C_4, loads (1, 0, 0, 0): edges {0,1}, {3,0} send the ball to 1 and 3; {1,2}, {2,3} are ties.
/// let r = p.step_law(&Loads::new(vec![1.0, 0.0, 0.0, 0.0]).unwrap(), TieRule::Random).unwrap();
/// assert_eq!(r.per_bin_probability(), vec![0.0, 0.375, 0.25, 0.375]);
/// ```
#[derive(Debug)]
pub struct Graphical {
    graph: GraphSpec,
    flow: bool,
    /// The probability that an edge is requested (1: the plain graphical process).
    beta: f64,
    beta_exact: crate::exact::Q,
    cache: Mutex<Option<Cached>>,
}

fn build(spec: &Spec, files: &dyn GraphFiles) -> Result<Box<dyn Process>> {
    let graph = graph_spec(spec, files)?;
    let flow = spec.get_choice("strategy", &["greedy", "flow"], "greedy")? == "flow";
    let (beta, beta_exact) = spec.get_ratio("beta", "1")?;
    let zero = crate::exact::Q::from_integer(0.into());
    let one = crate::exact::Q::from_integer(1.into());
    if beta_exact < zero || beta_exact > one {
        return Err(Error::invalid(
            "parameter `beta` of `graphical`",
            format!("must lie in [0, 1], got {beta_exact}"),
        ));
    }
    Ok(Box::new(Graphical {
        graph,
        flow,
        beta,
        beta_exact,
        cache: Mutex::new(None),
    }))
}

impl Graphical {
    /// The graph (and the preprocessed strategy) at `n` bins, cached for the last `n`.
    fn at(&self, n: usize) -> Result<(Arc<Graph>, Option<Arc<Strategy>>)> {
        let mut c = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((m, g, s)) = c.as_ref()
            && *m == n
        {
            return Ok((g.clone(), s.clone()));
        }
        let g = Arc::new(self.graph.build(Some(n))?);
        let s = if self.flow {
            Some(Arc::new(Strategy::new(&g)?))
        } else {
            None
        };
        *c = Some((n, g.clone(), s.clone()));
        Ok((g, s))
    }
}

impl Process for Graphical {
    fn info(&self) -> &'static ProcessInfo {
        &INFO
    }
    fn spec(&self) -> String {
        let args = self.graph.flat_args();
        let g = if args.is_empty() {
            self.graph.family().name.to_string()
        } else {
            format!("{},{args}", self.graph.family().name)
        };
        let beta = if self.beta_exact == crate::exact::Q::from_integer(1.into()) {
            String::new()
        } else {
            format!(",beta={}", super::ratio_text(&self.beta_exact))
        };
        format!(
            "graphical(graph={g},strategy={}{beta})",
            if self.flow { "flow" } else { "greedy" }
        )
    }
    /// The per-vertex probabilities at `loads`; ties between endpoints are always broken by a fair
    /// coin (the `ties` rule concerns ranks and does not apply).
    ///
    /// With `beta < 1`: `(1 − β)/n + β·r_v`. On C₄ at loads (1, 0, 0, 0) and β = 1/2, greedy's
    /// (0, 3/8, 1/4, 3/8) becomes (1/8, 5/16, 1/4, 5/16) (each entry halved plus 1/8).
    ///
    /// ```
    /// use balloc::loads::{Loads, TieRule};
    /// let p = balloc::process::parse("graphical(graph=cycle,beta=1/2)").unwrap();
    /// let r = p.step_law(&Loads::new(vec![1.0, 0.0, 0.0, 0.0]).unwrap(), TieRule::Random).unwrap();
    /// assert_eq!(r.per_bin_probability(), vec![0.125, 0.3125, 0.25, 0.3125]);
    /// ```
    fn step_law(&self, loads: &Loads, _ties: TieRule) -> Result<StepLaw> {
        let (g, s) = self.at(loads.n())?;
        let r = match s {
            Some(s) => s.probabilities(loads.as_slice())?,
            None => greedy::probabilities(&g, loads.as_slice())?,
        };
        if self.beta == 1.0 {
            return Ok(StepLaw::unit(r));
        }
        let base = (1.0 - self.beta) / loads.n() as f64;
        Ok(StepLaw::unit(
            r.into_iter().map(|v| base + self.beta * v).collect(),
        ))
    }
    /// The per-vertex probabilities in exact rationals: greedy's edge count
    /// `(2·#{heavier nbrs} + #{tied nbrs})/(2m)` ([`greedy::probabilities_exact`]), or the flow
    /// strategy's enumeration over edges and sibling pairs.
    ///
    /// ```
    /// use balloc::loads::{Loads, TieRule};
    /// use balloc::exact::Q;
    /// let p = balloc::process::parse("graphical(graph=cycle)").unwrap();
    /// // C_4, loads (1, 0, 0, 0): as in `step_law`, (0, 3/8, 1/4, 3/8) exactly.
    /// let law = p.step_law_exact(&Loads::new(vec![1.0, 0.0, 0.0, 0.0]).unwrap(), TieRule::Random).unwrap().unwrap();
    /// let q = |a: i64, b: i64| Q::new(a.into(), b.into());
    /// assert_eq!(law.per_bin_probability(), vec![q(0, 1), q(3, 8), q(1, 4), q(3, 8)]);
    /// ```
    fn step_law_exact(&self, loads: &Loads, _ties: TieRule) -> Result<Option<ExactStepLaw>> {
        let (g, s) = self.at(loads.n())?;
        let r = match s {
            Some(s) => s.probabilities_exact(loads.as_slice())?,
            None => greedy::probabilities_exact(&g, loads.as_slice())?,
        };
        let one = crate::exact::Q::from_integer(1.into());
        if self.beta_exact == one {
            return Ok(Some(ExactStepLaw::unit(r)));
        }
        let base = (&one - &self.beta_exact) / crate::exact::Q::from_integer(loads.n().into());
        Ok(Some(ExactStepLaw::unit(
            r.into_iter()
                .map(|v| &base + &self.beta_exact * v)
                .collect(),
        )))
    }
    /// Greedy's rule is a uniform edge and its lighter endpoint ([`super::Rule::Graph`]: O(1)
    /// per ball in the simulator); the flow strategy decides from set averages and takes its step
    /// law.
    ///
    /// ```
    /// use balloc::process::Rule;
    /// let p = balloc::process::parse("graphical(graph=cycle)").unwrap();
    /// assert!(matches!(p.rule(8).unwrap(), Rule::Graph { ref graph, .. } if graph.m() == 8));
    /// let s = balloc::process::parse("graphical(graph=cycle,strategy=flow)").unwrap();
    /// assert!(matches!(s.rule(8).unwrap(), Rule::StepLaw));
    /// ```
    fn rule(&self, n: usize) -> Result<super::Rule> {
        let (graph, s) = self.at(n)?;
        if s.is_some() {
            return Ok(super::Rule::StepLaw);
        }
        Ok(super::Rule::Graph {
            graph,
            beta: self.beta,
        })
    }
    fn sample(&self, loads: &Loads, _r: &Ranking, _t: TieRule, rng: &mut dyn Rng) -> (usize, u32) {
        let (g, s) = self
            .at(loads.n())
            .expect("step_law validated the graph at this n");
        if self.beta < 1.0 && !rng.random_bool(self.beta) {
            return (rng.random_range(0..loads.n()), 1);
        }
        match s {
            None => (greedy::sample(g.as_ref(), loads.as_slice(), rng), 1),
            Some(s) => {
                // The strategy decides from set averages; rebuild them from the loads.
                let u = s.sample_at(loads.as_slice(), rng);
                (u, 1)
            }
        }
    }
}

/// The graph family of a `graphical` spec (`graph`, with `d`, `seed`, `k`, `a`, `file`: the flat
/// form of [`GraphSpec::from_flat`]).
pub(super) fn graph_spec(spec: &Spec, files: &dyn GraphFiles) -> Result<GraphSpec> {
    GraphSpec::from_flat(spec.get("graph").unwrap_or("cycle"), spec, files)
}
