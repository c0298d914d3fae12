//! The per-run statistic `X` of a statistical file: its name (`statistic`) and fields (`eps`,
//! `below`, `level`, `until`, `every`, `potential`), and its value on a simulated run or on a
//! part of its trajectory (the halves of the observation window of the steady-state check).

use super::Statistical;
use super::builder::{Builder, Built};
use super::quantifiers;
use crate::error::{Error, Result};
use crate::lang::{Expr, Formula};
use crate::sim::RunResult;

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
    "md_gamma",
    "sibling_gap",
    "cut_gap",
];

/// The per-run statistic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stat {
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
    /// D's rank-weighted `Γ = Σ_i (e^{α s_(i)} + e^{−α s_(i)})/i` of the normalised sum-loads,
    /// `α = ε/(2f)` (`eps` = ε in millionths).
    MdGamma {
        eps_milli: u64,
    },
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

impl Stat {
    /// Whether the statistic reads only the state a run ends with (its gap, largest gap so far,
    /// spread or potential): then a run stopped after `m` balls on its way to more gives the
    /// value of a run of `m` balls (`Plan::stops`).
    pub(super) fn reads_the_end_only(self) -> bool {
        matches!(
            self,
            Stat::FinalGap | Stat::MaxGap | Stat::Spread | Stat::PotentialFinal
        )
    }
}

/// The thresholds of the trajectory statistics at one configuration, and where its window starts.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Th {
    pub below: f64,
    pub level: f64,
    pub start: u64,
}

/// Hitting times come from their own runs ([`crate::sim::stopping`]), not from a trajectory.
fn hitting_is_per_run() -> Error {
    Error::Unsupported("a hitting time is computed by its own runs, not from a trajectory".into())
}

/// The first potential's value at a simulated state, or an error naming `[claim] potential` when
/// it is not representable as an `f64` there.
fn first_potential(values: &[Option<f64>]) -> Result<f64> {
    values.first().copied().flatten().ok_or_else(|| {
        Error::invalid(
            "[claim] potential",
            "its value is not representable as f64 on a simulated state",
        )
    })
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

impl Builder<'_> {
    /// The statistic named by `statistic` (with `eps` for `mean_quantile_fraction`, and only
    /// then).
    pub fn statistic(&self) -> Built<Stat> {
        let cs = &self.cs;
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
                    self.bad(
                        "statistic",
                        "mean_quantile_fraction needs `eps` (the band [eps, 1 − eps])".into(),
                    )
                })?;
                if !(eps > 0.0 && eps < 0.5) {
                    return Err(self.bad("eps", format!("must lie in (0, 1/2), got {eps}")));
                }
                Stat::MeanQuantileFraction {
                    eps_milli: (eps * 1e6).round() as u64,
                }
            }
            "md_max_gap" => Stat::MdMaxGap,
            "md_sum_gap" => Stat::MdSumGap,
            "md_gamma" => {
                // Narang–Dutta–Bhattacherjee (arXiv:1111.0762), §3: α = ε/(2f) with ε ≤ 1/4.
                let eps = cs.eps.ok_or_else(|| {
                    self.bad(
                        "statistic",
                        "md_gamma needs `eps` (ε of α = ε/(2f), in (0, 1/4])".into(),
                    )
                })?;
                if !(eps > 0.0 && eps <= 0.25) {
                    return Err(self.bad("eps", format!("must lie in (0, 1/4], got {eps}")));
                }
                Stat::MdGamma {
                    eps_milli: (eps * 1e6).round() as u64,
                }
            }
            "sibling_gap" => Stat::SiblingGap,
            "cut_gap" => Stat::CutGap,
            other => {
                return Err(self.bad(
                    "statistic",
                    format!(
                        "unknown statistic `{other}`; accepted: {}",
                        STATISTICS.join(", ")
                    ),
                ));
            }
        };
        if cs.eps.is_some()
            && !matches!(
                stat,
                Stat::MeanQuantileFraction { .. } | Stat::MdGamma { .. }
            )
        {
            return Err(self.bad(
                "eps",
                "only used with statistic = \"mean_quantile_fraction\" or \"md_gamma\"".into(),
            ));
        }
        Ok(stat)
    }

    /// The event `until` of a hitting time, compiled over the names of the per-configuration
    /// fields (the four per-source slots are placeholders) and the state's names; `every` and
    /// `steady_state` are checked against the statistic.
    pub fn until(&self, stat: Stat) -> Built<Option<(Formula, String)>> {
        let (cs, names) = (&self.cs, &self.names);
        let until = match (&cs.until, stat) {
            (Some(text), Stat::HittingTime) => {
                let mut scoped: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
                scoped.extend(["\u{0}"; super::PER_SOURCE_SLOTS]);
                scoped.extend(quantifiers::STOP_NAMES);
                let f = crate::lang::compile_str(text, &scoped).map_err(|err| {
                    let mut known: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
                    known.extend(quantifiers::STOP_NAMES);
                    self.bad(
                        "until",
                        format!("`{text}`: {} (known: {})", err.message, known.join(", ")),
                    )
                })?;
                Some((f, text.clone()))
            }
            (None, Stat::HittingTime) => {
                return Err(self.bad(
                    "until",
                    "hitting_time needs `until`, a formula over t, gap, spread, quantile, potential, n, b, m and the constants (e.g. \"quantile >= 1/4 && quantile <= 3/4\")".into(),
                ));
            }
            (Some(_), _) => return Err(self.bad("until", "only used with hitting_time".into())),
            (None, _) => None,
        };
        if cs.every.is_some() && stat != Stat::HittingTime {
            return Err(self.bad("every", "only used with hitting_time".into()));
        }
        if stat == Stat::HittingTime && cs.steady_state {
            return Err(self.bad(
                "steady_state",
                "a hitting time is one value per run, not a window statistic".into(),
            ));
        }
        Ok(until)
    }

    /// `below` of `potential_fraction` and `level` of `recovery_time` (each needed by its
    /// statistic and used by no other), expressions in `n`, `b`, `m`.
    pub fn thresholds(&self, stat: Stat) -> Built<(Option<Expr>, Option<Expr>)> {
        let cs = &self.cs;
        let below = match (&cs.below, stat) {
            (Some(e), Stat::PotentialFraction) => Some(self.comp(&e.text(), "below", 3)?),
            (None, Stat::PotentialFraction) => {
                return Err(self.bad(
                    "below",
                    "potential_fraction needs `below` (the fraction of checkpoints with the potential at most `below`)".into(),
                ));
            }
            (Some(_), _) => {
                return Err(self.bad("below", "only used with potential_fraction".into()));
            }
            (None, _) => None,
        };
        let level = match (&cs.level, stat) {
            (Some(e), Stat::RecoveryTime) => Some(self.comp(&e.text(), "level", 3)?),
            (None, Stat::RecoveryTime) => {
                return Err(self.bad(
                    "level",
                    "recovery_time needs `level` (the first checkpoint with gap at most `level`)"
                        .into(),
                ));
            }
            (Some(_), _) => return Err(self.bad("level", "only used with recovery_time".into())),
            (None, _) => None,
        };
        if stat == Stat::RecoveryTime
            && (cs.mean.is_some()
                || cs.exponent.is_some()
                || cs.compare.is_some()
                || cs.steady_state)
        {
            return Err(self.bad(
                "statistic",
                "recovery_time is +∞ for runs that do not recover in the window: use a `probability` claim (P[time <= rhs] >= 1 - q), without `steady_state`".into(),
            ));
        }
        Ok((below, level))
    }

    /// `potential`: given exactly when the statistic (or the event `until`) reads a potential,
    /// and a potential the registry parses.
    pub fn check_potential(&self, stat: Stat, until: Option<&(Formula, String)>) -> Built<()> {
        let (cs, names) = (&self.cs, &self.names);
        let until_potential = until.is_some_and(|(f, _)| {
            quantifiers::uses_potential(f, names.len() + super::PER_SOURCE_SLOTS)
        });
        let needs_potential = matches!(
            stat,
            Stat::PotentialFinal | Stat::PotentialMean | Stat::PotentialFraction
        ) || until_potential;
        match (&cs.potential, needs_potential) {
            (None, true) => {
                return Err(self.bad(
                    "potential",
                    format!("statistic `{}` needs a potential", cs.statistic),
                ));
            }
            (Some(_), false) => {
                return Err(self.bad(
                    "potential",
                    format!("not used by statistic `{}`", cs.statistic),
                ));
            }
            (Some(p), true) => {
                crate::potential::parse(p).map_err(|e| self.bad("potential", e.to_string()))?;
            }
            _ => {}
        }

        Ok(())
    }
}

impl Statistical {
    /// The statistic on a part of a run's trajectory (one half of the observation window): the
    /// value at its last checkpoint for the final-value statistics, the largest gap at its
    /// observation points for `max_gap`, the average or fraction over its checkpoints otherwise.
    pub(super) fn window_value(&self, pts: &[crate::sim::Point], th: &Th) -> Result<f64> {
        let last = pts.last().ok_or_else(|| {
            Error::invalid(
                "[claim] steady_state",
                "an empty half of the observation window",
            )
        })?;
        let pot = |p: &crate::sim::Point| first_potential(&p.potentials);
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
            Stat::MdGamma { .. } => observable(&last.observables, 2)?,
            Stat::CutGap => observable(&last.observables, last.observables.len().max(1) - 1)?,
            Stat::PotentialFraction | Stat::RecoveryTime => self.trajectory_value(pts, th)?,
            Stat::HittingTime => return Err(hitting_is_per_run()),
        })
    }

    /// `potential_fraction` and `recovery_time` on the checkpoints `pts`.
    pub(super) fn trajectory_value(&self, pts: &[crate::sim::Point], th: &Th) -> Result<f64> {
        match self.stat {
            Stat::PotentialFraction => {
                let mut k = 0usize;
                for p in pts {
                    let v = first_potential(&p.potentials)?;
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

    /// The statistic on one simulated run (its final state, its maxima, or its checkpoints).
    pub(super) fn per_run(&self, r: &RunResult, th: &Th) -> Result<f64> {
        Ok(match self.stat {
            Stat::FinalGap => r.final_gap,
            Stat::MaxGap => r.max_gap,
            Stat::Spread => r.spread,
            Stat::PotentialFinal => first_potential(&r.potentials)?,
            Stat::PotentialMean => {
                let mut s = 0.0;
                for p in &r.trajectory {
                    s += first_potential(&p.potentials)?;
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
            Stat::MdGamma { .. } => observable(&r.observables, 2)?,
            // The last observable of a graph model built with a cut.
            Stat::CutGap => observable(&r.observables, r.observables.len().max(1) - 1)?,
            Stat::PotentialFraction | Stat::RecoveryTime => {
                self.trajectory_value(&r.trajectory, th)?
            }
            Stat::HittingTime => return Err(hitting_is_per_run()),
        })
    }

    /// The statistic at a stop of a shared run (`Plan::stops`): what a run of that many balls
    /// ends with, for the statistics read at the end of a run ([`Stat::reads_the_end_only`]).
    pub(super) fn at_stop(&self, p: &crate::sim::Point) -> Result<f64> {
        Ok(match self.stat {
            Stat::FinalGap => p.gap,
            // A run that passed no observation point reports its final gap (`run_one`).
            Stat::MaxGap if p.max_gap.is_finite() => p.max_gap,
            Stat::MaxGap => p.gap,
            Stat::Spread => p.spread,
            Stat::PotentialFinal => first_potential(&p.potentials)?,
            _ => {
                return Err(Error::invalid(
                    "[claim] statistic",
                    format!("{} is not read at a stop of a shared run", self.stat_name()),
                ));
            }
        })
    }

    /// The statistic as notes name it.
    pub(super) fn stat_name(&self) -> String {
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
            Stat::MdGamma { eps_milli } => format!(
                "rank-weighted Γ at the end (α = ε/(2f), ε = {})",
                eps_milli as f64 / 1e6
            ),
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
}
