//! The simulation of a statistical file's configurations: the model of a source at `(n, b, m)`
//! (a process, md-balls, a graph strategy, a class member or adversary), its plan (burn-in,
//! start state, checkpoints, random stream), and the per-run values of the statistic (with the
//! halves of the observation window for the steady-state check, or hitting times from their own
//! runs). Runs are seeded from (configuration, seed, run index).

use super::Statistical;
use super::claim::{Over, Test};
pub(super) use super::point::Point;
use super::quantifiers;
use super::sources::{GraphSource, Source};
use super::statistic::{Stat, Th};
use crate::error::{Error, Result};
use crate::multidim::{GroupPotential, PsiReading, Which};
use crate::sim::graph::Rule;
use crate::sim::multidim::MdSimConfig;
use crate::sim::{Config, Model, Plan, RunResult, simulate};
use std::sync::Arc;

/// The per-run values of one configuration, with the values on the two halves of the
/// observation window (steady-state check) and a class member's own label at this `n`.
pub(super) struct Sample {
    pub values: Vec<f64>,
    pub halves: Option<(Vec<f64>, Vec<f64>)>,
    pub detail: Option<String>,
}

impl Statistical {
    /// Simulates every configuration at `n`. When the runs of the smaller numbers of balls are
    /// prefixes of the larger ones ([`Statistical::simulate_prefixes`]), one run per seed serves
    /// every number of balls of the list; the values are the same as from separate runs.
    pub(super) fn simulate_n(&self, n: usize, runs: u64) -> Result<Vec<Point>> {
        let mut out = Vec::new();
        for (bi, be) in self.batch.iter().enumerate() {
            let b = self.batch_at(n, be)?;
            let ms = self
                .balls
                .iter()
                .map(|me| self.balls_at(n, b, me))
                .collect::<Result<Vec<_>>>()?;
            // by_source[si][mi]
            let mut by_source = Vec::with_capacity(self.sources.len());
            for s in &self.sources {
                by_source.push(match self.simulate_prefixes(s, n, b, &ms, runs)? {
                    Some(shared) => shared,
                    None => ms
                        .iter()
                        .map(|&m| self.simulate_one(s, n, b, m, runs))
                        .collect::<Result<Vec<_>>>()?,
                });
            }
            for (mi, &m) in ms.iter().enumerate() {
                for (si, row) in by_source.iter_mut().enumerate() {
                    let dk = self.dk_at(si, n, m)?;
                    let Sample {
                        mut values,
                        mut halves,
                        detail,
                    } = std::mem::replace(
                        &mut row[mi],
                        Sample {
                            values: Vec::new(),
                            halves: None,
                            detail: None,
                        },
                    );
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

    /// Whether the runs of source `s` at the numbers of balls `ms` may be read from one run per
    /// seed, before its model is built: a statistic read at the end of a run
    /// ([`Stat::reads_the_end_only`]), no steady-state halves, the same random stream at every
    /// `m` (not a paired comparison, whose stream names `m`, nor a fit in `m`, whose runs are
    /// independent per `m`), a model that does not depend on `m` (md-balls are built for their
    /// number of balls), and every stop a batch end (a run that ends inside a batch draws a
    /// partial batch, which a longer run draws whole).
    fn may_share_prefixes(&self, s: &Source, b: u64, burn: u64, ms: &[u64]) -> bool {
        let ends = |x: u64| x.is_multiple_of(b.max(1));
        ms.len() > 1
            && self.stat.reads_the_end_only()
            && !self.steady_state
            && !matches!(self.test, Test::Compare(_) | Test::Exponent(_, Over::M))
            && !matches!(s, Source::Md(..))
            && ends(burn)
            && ms.iter().all(|&m| ends(burn.saturating_add(m)))
    }

    /// The samples of source `s` at every number of balls of `ms` (in that order) from one run
    /// per seed to the largest, stopping at each (`Plan::stops`); `None` when the runs cannot be
    /// shared ([`Statistical::may_share_prefixes`], or a model whose stopped runs are not
    /// prefixes: [`crate::sim::Model::prefix_stops`]).
    fn simulate_prefixes(
        &self,
        s: &Source,
        n: usize,
        b: u64,
        ms: &[u64],
        runs: u64,
    ) -> Result<Option<Vec<Sample>>> {
        let burn = self.burn_in_at(n, b)?;
        if !self.may_share_prefixes(s, b, burn, ms) {
            return Ok(None);
        }
        let last = ms.iter().copied().max().unwrap_or(1);
        let (model, detail) = self.model(s, n, b, last)?;
        let cfg = model.as_ref();
        if !cfg.prefix_stops() {
            return Ok(None);
        }
        let mut stops: Vec<u64> = ms.iter().map(|&m| burn.saturating_add(m)).collect();
        stops.sort_unstable();
        stops.dedup();
        let mut plan = self.plan(cfg, n, b, last, runs, burn)?;
        plan.stops = stops.clone();
        let out = simulate(cfg, &plan, &|| {})?;
        ms.iter()
            .map(|&m| {
                let k = stops.binary_search(&burn.saturating_add(m)).map_err(|_| {
                    Error::invalid("[claim] balls", "a stop of the shared runs is missing")
                })?;
                let values = out
                    .runs
                    .iter()
                    .map(|r| {
                        r.trajectory
                            .get(k)
                            .ok_or_else(|| {
                                Error::invalid("[claim] balls", "a run did not record every stop")
                            })
                            .and_then(|p| self.at_stop(p))
                    })
                    .collect::<Result<Vec<_>>>()?;
                Ok(Sample {
                    values,
                    halves: None,
                    detail: detail.clone(),
                })
            })
            .collect::<Result<Vec<_>>>()
            .map(Some)
    }

    /// The per-run values of one configuration: the hitting times of their own runs, or the
    /// statistic of simulated runs (with the two halves of the observation window when the
    /// steady-state check is on).
    fn simulate_one(&self, s: &Source, n: usize, b: u64, m: u64, runs: u64) -> Result<Sample> {
        let (model, detail) = self.model(s, n, b, m)?;
        let cfg = model.as_ref();
        let burn = self.burn_in_at(n, b)?;
        let plan = self.plan(cfg, n, b, m, runs, burn)?;
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
        if self.stat == Stat::HittingTime {
            let values = self.hitting_times(cfg, &plan, n, b, m)?;
            return Ok(Sample {
                values,
                halves: None,
                detail,
            });
        }
        let out = simulate(cfg, &plan, &|| {})?;
        let values = out
            .runs
            .iter()
            .map(|r| self.per_run(r, &th))
            .collect::<Result<Vec<_>>>()?;
        let halves = if self.steady_state {
            Some(self.halves(&out.runs, &th, n, b, m)?)
        } else {
            None
        };
        Ok(Sample {
            values,
            halves,
            detail,
        })
    }

    /// The simulated model of a source at `(n, b, m)`, with a class member's own label.
    fn model(
        &self,
        s: &Source,
        n: usize,
        b: u64,
        m: u64,
    ) -> Result<(Box<dyn Model>, Option<String>)> {
        let mut detail = None;
        let model: Box<dyn Model> = match s {
            Source::Graph(g) => self.graph_model(g, n, b)?,
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
                let model = crate::sim::multidim::MdModel::new(MdSimConfig {
                    n,
                    balls: m,
                    law: law.clone(),
                    rule: rule.clone(),
                    batch: b,
                })?;
                match self.md_gamma(law)? {
                    Some(g) => Box::new(model.observing(g)),
                    None => Box::new(model),
                }
            }
        };
        Ok((model, detail))
    }

    /// D's `Γ` with `α = ε/(2f)` (Narang–Dutta–Bhattacherjee, arXiv:1111.0762, §3: the
    /// constants; `Ψ` as printed, weights `1/i`) when the statistic is `md_gamma`.
    fn md_gamma(&self, law: &crate::multidim::BallLaw) -> Result<Option<GroupPotential>> {
        let Stat::MdGamma { eps_milli } = self.stat else {
            return Ok(None);
        };
        let f = law
            .fixed_f()
            .ok_or_else(|| Error::invalid("[claim] law", "md_gamma needs a law with a fixed f"))?;
        let alpha = eps_milli as f64 / 1e6 / (2.0 * f as f64);
        GroupPotential::new(Which::Gamma, alpha, PsiReading::Printed).map(Some)
    }

    /// Greedy or Bansal–Feldheim's strategy on the source's graph at `n` (sequential only),
    /// observing a minimum cut for `cut_gap`.
    fn graph_model(&self, g: &GraphSource, n: usize, b: u64) -> Result<Box<dyn Model>> {
        if b != 1 {
            return Err(Error::invalid(
                "[claim] batch",
                "the graph strategies are simulated sequentially (batch 1)",
            ));
        }
        let graph = g.kind.build(Some(n))?;
        let cut = if self.stat == Stat::CutGap {
            Some(crate::sim::graph::Cut::minimum(&graph)?)
        } else {
            None
        };
        Ok(match g.rule {
            Rule::Greedy => {
                let m = crate::sim::graph::GreedyModel::new(&graph)?;
                match cut {
                    Some(c) => Box::new(m.observing(c)?),
                    None => Box::new(m),
                }
            }
            Rule::Flow => {
                let refresh = self.refresh_at(n, b)?;
                let m = crate::sim::graph::StrategyModel::variant(&graph, g.beta, refresh)?
                    .against(self.adversarial_at(n, b)?)?;
                match cut {
                    Some(c) => Box::new(m.observing(c)?),
                    None => Box::new(m),
                }
            }
        })
    }

    /// The simulation plan of one configuration: `burn + m` balls, the start state, the
    /// potential, the checkpoints the statistic (or the steady-state check) reads, and the
    /// random stream (common random numbers for comparisons, independent runs per `m` for fits
    /// in `m`).
    fn plan(
        &self,
        cfg: &dyn Model,
        n: usize,
        b: u64,
        m: u64,
        runs: u64,
        burn: u64,
    ) -> Result<Plan> {
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
        if self.steady_state {
            plan.trajectory = self.checkpoints.max(2);
        }
        Ok(plan)
    }

    /// The hitting times of the event `until` in runs of `plan` (checked every `every` balls up
    /// to `m`; +∞ when censored).
    fn hitting_times(
        &self,
        cfg: &dyn Model,
        plan: &Plan,
        n: usize,
        b: u64,
        m: u64,
    ) -> Result<Vec<f64>> {
        let checks = crate::sim::stopping::Checks {
            every: self.every_at(n, b)?,
            horizon: m,
        };
        let pot: Option<Arc<dyn crate::potential::Potential>> = match &self.potential {
            Some(p) => Some(Arc::from(crate::potential::parse(p)?)),
            None => None,
        };
        let hits = crate::sim::stopping::hitting_times(cfg, plan, checks, pot, &|o| {
            self.event(o, n, b, m)
        })?;
        Ok(hits.iter().map(|h| h.value()).collect())
    }

    /// The statistic on the first and second halves of each run's observation window.
    fn halves(
        &self,
        runs: &[RunResult],
        th: &Th,
        n: usize,
        b: u64,
        m: u64,
    ) -> Result<(Vec<f64>, Vec<f64>)> {
        let mut first = Vec::with_capacity(runs.len());
        let mut second = Vec::with_capacity(runs.len());
        for r in runs {
            let k = r.trajectory.len();
            if k < 2 {
                return Err(Error::invalid(
                    "[claim] steady_state",
                    format!(
                        "the observation window of {m} balls has fewer than two observation points at n = {n}, b = {b}"
                    ),
                ));
            }
            first.push(self.window_value(&r.trajectory[..k / 2], th)?);
            second.push(self.window_value(&r.trajectory[k / 2..], th)?);
        }
        Ok((first, second))
    }
}
