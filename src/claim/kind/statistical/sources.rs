//! The simulated sources of a statistical file ([`Source`]): the processes of `[setting]`,
//! md-balls with a law and a rule, greedy and Bansal–Feldheim's strategy on graph families (with
//! `beta`, `refresh`), and the members and adversaries of the class of `[setting.vectors]`
//! ([`super::quantifiers`]); and the graph names `d`, `k`, `untouched` of a configuration.

use super::Statistical;
use super::builder::{Builder, Built};
use super::claim::Test;
use super::quantifiers::{ClassSource, class_sources, class_spec};
use super::section::{Betas, Graphs, Strategies};
use super::statistic::Stat;
use crate::error::{Error, Result};
use crate::graph::family::GraphSpec;
use crate::lang::Expr;
use crate::multidim::{BallLaw, MdRule};
use crate::sim::adversary::Aim;
use crate::sim::graph::Rule;

/// What is simulated per grid point.
pub(super) enum Source {
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
pub(super) struct GraphSource {
    pub kind: GraphSpec,
    /// The family as written, with `beta` and `refresh` when given.
    pub label: String,
    pub rule: Rule,
    pub beta: f64,
    /// The positions of the graph, the `beta` and the strategy in their lists (the curves of
    /// growth fits in `beta` and `d/k`).
    pub graph_i: usize,
    pub beta_i: usize,
    pub rule_i: usize,
}

impl Source {
    /// The source's parameter `param` (`beta`, `delta`): from the process spec, and for `beta`
    /// also an md rule's `one-plus-beta` choice or a graph source's `[claim] beta`; `None` when
    /// the source has none, `Some(Err)` when the spec's value does not parse.
    pub(super) fn param(&self, param: &str) -> Option<std::result::Result<f64, String>> {
        match self {
            Source::Process(spec) => crate::spec::Spec::parse(spec)
                .ok()
                .and_then(|sp| sp.get(param).map(crate::spec::parse_f64)),
            Source::Graph(g) if param == "beta" => Some(Ok(g.beta)),
            Source::Md(r, _) if param == "beta" => match r.choice {
                crate::multidim::Choice::OnePlusBeta(b, _) => Some(Ok(b)),
                crate::multidim::Choice::D(_) => None,
            },
            _ => None,
        }
    }

    /// The source as notes name it.
    pub(super) fn label(&self) -> String {
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

impl Builder<'_> {
    /// The simulated sources: md-balls when `law` is given, the strategies on graph families when
    /// `graph` is given, otherwise the processes of `[setting]`; with the values of `beta` (1
    /// without `[claim] beta`).
    pub fn sources(&self, stat: Stat) -> Built<(Vec<Source>, Vec<f64>)> {
        let t = self.t;
        self.check_source_fields(stat)?;
        let beta_values = self.beta_values()?;
        let procs: Vec<&toml::Spanned<String>> = t.file.setting.processes.iter().collect();
        let sources = if let Some(g) = &self.cs.graph {
            self.graph_sources(g, stat, &beta_values, procs.len())?
        } else if let Some(law) = self.cs.law.as_deref() {
            let law = BallLaw::parse(law).map_err(|e| self.bad("law", e.to_string()))?;
            if matches!(stat, Stat::MdGamma { .. }) && law.fixed_f().is_none() {
                return Err(self.bad(
                    "law",
                    format!(
                        "md_gamma: α = ε/(2f) needs a law with a fixed f (uniform, skewed), got `{}`",
                        law.spec()
                    ),
                ));
            }
            let crit = self.cs.rule.as_deref().unwrap_or("sum");
            let mut sources = Vec::new();
            for p in &procs {
                let r = MdRule::parse(crit, p.get_ref())
                    .map_err(|e| t.error_at(Some(p.span().start), e.to_string()))?;
                sources.push(Source::Md(r, law.clone()));
            }
            sources
        } else {
            self.process_sources(&procs)?
        };
        Ok((sources, beta_values))
    }

    /// The sizes of the grid at every effort: `[domain] n`, then `long_n`.
    fn all_ns(&self) -> Vec<usize> {
        let d_ns = &self.t.file.domain.get_ref().n;
        d_ns.iter().chain(&self.cs.long_n).copied().collect()
    }

    /// `law` and `rule` go with the md statistics, `graph` with `cut_gap` and `sibling_gap`,
    /// `strategy` with `graph`.
    fn check_source_fields(&self, stat: Stat) -> Built<()> {
        let cs = &self.cs;
        let is_md = matches!(stat, Stat::MdMaxGap | Stat::MdSumGap | Stat::MdGamma { .. });
        if cs.law.is_some() != is_md {
            return Err(self.bad(
                "law",
                "md-balls (`law`) go with the statistics md_max_gap, md_sum_gap and md_gamma, and only with them"
                    .into(),
            ));
        }
        if cs.rule.is_some() && !is_md {
            return Err(self.bad("rule", "only used with md-balls (`law`)".into()));
        }
        if stat == Stat::CutGap && cs.graph.is_none() {
            return Err(self.bad(
                "graph",
                "cut_gap is an observable of the graph strategies: give a graph family".into(),
            ));
        }
        if stat == Stat::SiblingGap && cs.graph.is_none() {
            return Err(self.bad(
                "graph",
                "sibling_gap needs a graph family for the strategy (cycle, torus, hypercube, ...)"
                    .into(),
            ));
        }
        if cs.strategy.is_some() && cs.graph.is_none() {
            return Err(self.bad(
                "strategy",
                "only used with `graph` (the graph family the strategies run on)".into(),
            ));
        }
        Ok(())
    }

    /// The values of `[claim] beta` (1 without it), each in [0, 1].
    fn beta_values(&self) -> Built<Vec<f64>> {
        let beta_values: Vec<f64> = match &self.cs.beta {
            None => vec![1.0],
            Some(Betas::One(b)) => vec![*b],
            Some(Betas::Many(v)) => v.clone(),
        };
        if beta_values.is_empty() {
            return Err(self.bad("beta", "lists no value".into()));
        }
        if let Some(b) = beta_values.iter().find(|b| !(0.0..=1.0).contains(*b)) {
            return Err(self.bad("beta", format!("must lie in [0, 1], got {b}")));
        }
        Ok(beta_values)
    }

    /// The graph sources: one per graph family, `beta` and strategy (in that nesting).
    fn graph_sources(
        &self,
        g: &Graphs,
        stat: Stat,
        beta_values: &[f64],
        processes: usize,
    ) -> Built<Vec<Source>> {
        let cs = &self.cs;
        let (names, rules) = self.strategies(stat)?;
        let kinds = self.graph_kinds(g)?;
        if processes > 0 {
            return Err(self.bad(
                "graph",
                "the strategy model takes no [setting] processes".into(),
            ));
        }
        let flow_only = [
            ("beta", cs.beta.is_some()),
            ("refresh", cs.refresh.is_some()),
            ("adversarial", cs.adversarial.is_some()),
        ];
        if names.iter().any(|n| n != "flow")
            && let Some((field, _)) = flow_only.iter().find(|(_, set)| *set)
        {
            return Err(self.bad(
                field,
                "applies to the flow strategy only (not to greedy)".into(),
            ));
        }
        let mut sources = Vec::new();
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
                let label = match &cs.adversarial {
                    Some(a) => format!(
                        "{label}, adversarial signs where the set averages differ by at most {}",
                        a.text()
                    ),
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
        Ok(sources)
    }

    /// The strategies of `strategy` (default `flow`) as written and parsed; the statistic must
    /// be one the graph strategies give.
    fn strategies(&self, stat: Stat) -> Built<(Vec<String>, Vec<Rule>)> {
        let cs = &self.cs;
        let names: Vec<String> = match &cs.strategy {
            None => vec!["flow".into()],
            Some(Strategies::One(s)) => vec![s.clone()],
            Some(Strategies::Many(v)) => v.clone(),
        };
        if names.is_empty() {
            return Err(self.bad("strategy", "lists no strategy".into()));
        }
        let rules = names
            .iter()
            .map(|s| Rule::parse(s).map_err(|e| self.bad("strategy", e.to_string())))
            .collect::<std::result::Result<Vec<_>, _>>()?;
        if !matches!(
            stat,
            Stat::FinalGap | Stat::MaxGap | Stat::SiblingGap | Stat::Spread | Stat::CutGap
        ) {
            return Err(self.bad(
                "graph",
                format!(
                    "the graph strategies give final_gap, max_gap, spread, cut_gap and (flow) sibling_gap, not `{}`",
                    cs.statistic
                ),
            ));
        }
        if stat == Stat::SiblingGap && rules.contains(&Rule::Greedy) {
            return Err(self.bad(
                "strategy",
                "sibling_gap is an observable of the flow strategy's decomposition, not of greedy"
                    .into(),
            ));
        }
        Ok((names, rules))
    }

    /// The graph families of `graph`, as written (trimmed) and parsed; every size of the grid
    /// builds (an edge-list file of another size, a torus at a non-square n, … are errors here,
    /// not during a run).
    fn graph_kinds(&self, g: &Graphs) -> Built<Vec<(String, GraphSpec)>> {
        let dir = self.t.path.parent();
        let texts: Vec<String> = match g {
            Graphs::One(s) => vec![s.clone()],
            Graphs::Many(v) => v.clone(),
        };
        if texts.is_empty() {
            return Err(self.bad("graph", "lists no graph family".into()));
        }
        let mut kinds = Vec::new();
        for text in &texts {
            let kind = GraphSpec::parse(text, &crate::input::Dir::new(dir))
                .map_err(|e| self.bad("graph", e.to_string()))?;
            for n in self.all_ns() {
                kind.build(Some(n))
                    .map_err(|e| self.bad("graph", format!("`{}` at n = {n}: {e}", text.trim())))?;
            }
            kinds.push((text.trim().to_string(), kind));
        }
        Ok(kinds)
    }

    /// The processes of `[setting]`, each parsed, with a graphical process's graph built at
    /// every size of the grid.
    fn process_sources(&self, procs: &[&toml::Spanned<String>]) -> Built<Vec<Source>> {
        let t = self.t;
        let dir = t.path.parent();
        let mut sources = Vec::new();
        for p in procs {
            crate::process::parse_with(p.get_ref(), &crate::input::Dir::new(dir))
                .map_err(|e| t.error_at(Some(p.span().start), e.to_string()))?;
            for n in self.all_ns() {
                crate::process::graph_at(p.get_ref(), &crate::input::Dir::new(dir), n)
                    .map_err(|e| t.error_at(Some(p.span().start), format!("at n = {n}: {e}")))?;
            }
            sources.push(Source::Process(p.get_ref().clone()));
        }
        Ok(sources)
    }

    /// The class of `[setting.vectors]`: its members and adversaries (`adversary`, `lookahead`,
    /// `class` need it), simulated in the sequential and batched settings with unit weights.
    pub fn class_sources(&self) -> Built<Vec<Source>> {
        let (t, cs) = (self.t, &self.cs);
        let vectors_at = t.file.setting.vectors.as_ref().map(|v| v.span().start);
        let class = class_spec(t, cs.class.as_deref())
            .map_err(|e| t.error_at(vectors_at.or(self.at), e))?;
        let aims = self.aims()?;
        let Some(spec) = &class else {
            for (f, given) in [
                ("adversary", cs.adversary.is_some()),
                ("lookahead", cs.lookahead.is_some()),
                ("class", cs.class.is_some()),
            ] {
                if given {
                    return Err(self.bad(
                        f,
                        "needs the class of [setting.vectors] (delta, eps, c2, random)".into(),
                    ));
                }
            }
            return Ok(Vec::new());
        };
        if cs.graph.is_some() || cs.law.is_some() {
            return Err(self.bad(
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
            return Err(self.bad("lookahead", "only used with `adversary`".into()));
        }
        class_sources(spec, &self.all_ns(), &aims, lookahead)
            .map_err(|e| t.error_at(vectors_at, e.to_string()))
    }

    /// The objectives of `adversary`.
    fn aims(&self) -> Built<Vec<Aim>> {
        let Some(a) = &self.cs.adversary else {
            return Ok(Vec::new());
        };
        let texts = match a {
            Strategies::One(s) => vec![s.clone()],
            Strategies::Many(v) => v.clone(),
        };
        if texts.is_empty() {
            return Err(self.bad("adversary", "lists no objective".into()));
        }
        texts
            .iter()
            .map(|s| Aim::parse(s).map_err(|e| self.bad("adversary", e.to_string())))
            .collect()
    }

    /// Checks the sources against the fields that apply to some of them only (at least one
    /// source; `beta`, `refresh`, `adversarial` with graphs; start states not with md-balls; two
    /// sources for `compare`), and compiles `refresh` and `adversarial` (expressions in `n`).
    pub fn check_sources(
        &self,
        sources: &[Source],
        test: Test,
    ) -> Built<(Option<Expr>, Option<Expr>)> {
        let (t, cs) = (self.t, &self.cs);
        if sources.is_empty() {
            return Err(t.error_at(None, "[setting] processes is empty"));
        }
        let graph_only = [
            ("beta", cs.beta.is_some()),
            ("refresh", cs.refresh.is_some()),
            ("adversarial", cs.adversarial.is_some()),
        ];
        if cs.graph.is_none()
            && let Some((field, _)) = graph_only.iter().find(|(_, set)| *set)
        {
            return Err(self.bad(field, "only used with the strategy (`graph`)".into()));
        }
        let refresh = match &cs.refresh {
            Some(r) => Some(self.comp(&r.text(), "refresh", 1)?),
            None => None,
        };
        let adversarial = match &cs.adversarial {
            Some(a) => Some(self.comp(&a.text(), "adversarial", 1)?),
            None => None,
        };
        // A constant margin is checked now; one that depends on n where it is evaluated.
        if let Some(v) = adversarial.as_ref().and_then(|e| e.as_constant())
            && v < crate::exact::Q::from_integer(0.into())
        {
            return Err(self.bad(
                "adversarial",
                format!("must be a finite number ≥ 0, got {v}"),
            ));
        }
        let no_md = sources.iter().all(|s| !matches!(s, Source::Md(..)));
        if !no_md && (cs.start.is_some() || cs.start_loads.is_some()) {
            return Err(self.bad(
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
            return Err(self.bad(
                "compare",
                format!(
                    "compares exactly two sources (the first two processes of [setting]), got {}",
                    sources.len()
                ),
            ));
        }
        Ok((refresh, adversarial))
    }
}

impl Statistical {
    /// The per-source names of a configuration: `d`, `k`, `untouched` of a graph source's graph
    /// at `n` (degree, edge connectivity, and the exact probability that `m` uniform edge
    /// requests leave some vertex untouched, [`crate::graph::coupon::untouched`]) and the
    /// source's `beta`, each when the file reads it; zeros otherwise.
    pub(super) fn dk_at(&self, si: usize, n: usize, m: u64) -> Result<[f64; 4]> {
        let beta = self.source_beta.get(si).copied().unwrap_or(0.0);
        let Source::Graph(g) = &self.sources[si] else {
            return Ok([0.0, 0.0, 0.0, beta]);
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
            return Ok([0.0, 0.0, untouched, beta]);
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
        Ok([d as f64, k as f64, untouched, beta])
    }
}
