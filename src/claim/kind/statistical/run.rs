//! The verdict of a statistical file: every configuration of the grid simulated, the
//! steady-state check per configuration, the claim decided per configuration (mean,
//! probability), per pair of sources (compare, by paired runs) or per fitted curve (exponent,
//! [`super::growth`]), and the verdict: `refuted` at the first interval on the wrong side,
//! `holds` when every interval lies on the claimed side, `inconclusive` otherwise.

use super::Statistical;
use super::claim::Test;
use super::judge::{StatClaim, decision_name, judge_values};
use super::simulate::Point;
use crate::claim::kind::RunContext;
use crate::claim::verdict::{Observation, Searched, Status, Trust, Verdict, Witness};
use crate::error::{Error, Result};
use crate::sim::statistic::{Decision, Side};

/// One decided interval: its decision, its margin on the claimed side (≥ 0 iff it holds) and
/// its witness.
pub(super) struct Outcome {
    pub decision: Decision,
    pub margin: f64,
    pub witness: Witness,
}

/// The simulated grid of a file at one effort, as its decisions read it.
pub(super) struct Sampled {
    /// Every configuration with its per-run values.
    pub points: Vec<Point>,
    /// Whether each configuration failed its steady-state check.
    pub drifting: Vec<bool>,
    /// The per-configuration (Bonferroni) level.
    pub level: f64,
    /// The runs per configuration.
    pub runs: u64,
}

/// What deciding a file collects: its notes, the observations of its plots and the outcome of
/// every interval.
#[derive(Default)]
pub(super) struct Findings {
    pub notes: Vec<String>,
    pub observations: Vec<Observation>,
    pub outcomes: Vec<Outcome>,
}

impl Statistical {
    /// Simulates the grid at the context's effort and decides the claim (the verdict of
    /// [`crate::claim::kind::Check::run`]).
    pub(super) fn decide(&self, ctx: &mut RunContext) -> Result<Verdict> {
        let (sampled, searched, notes) = self.sample(ctx)?;
        self.conclude(&sampled, searched, notes, &self.consts)
    }

    /// The verdict as written and, on the same runs, with each set of constants replaced
    /// (`alternatives`: name and value): a mean or probability claim reads its constants only
    /// when it judges the runs, so other values cost no simulation — unless the runs read the
    /// constant too (`balls`, `start`, `subtract`, …), which is a one-line error naming the field.
    pub(super) fn decide_alternatives(
        &self,
        ctx: &mut RunContext,
        alternatives: &[Vec<(String, f64)>],
    ) -> Result<(Verdict, Vec<Verdict>)> {
        if !matches!(self.test, Test::Mean(_) | Test::Probability(_)) {
            return Err(Error::Unsupported(
                "other constants on the same runs: only mean and probability claims".into(),
            ));
        }
        let mut sets = Vec::with_capacity(alternatives.len());
        for alt in alternatives {
            let mut consts = self.consts.clone();
            for (name, value) in alt {
                let i = self.names[3..]
                    .iter()
                    .position(|c| c == name)
                    .ok_or_else(|| {
                        Error::invalid(
                            "constant",
                            format!("`{name}` is not a constant of the file"),
                        )
                    })?;
                self.judged_only(name, i)?;
                consts[i] = *value;
            }
            sets.push(consts);
        }
        let (sampled, searched, notes) = self.sample(ctx)?;
        let first = self.conclude(&sampled, searched.clone(), notes.clone(), &self.consts)?;
        let rest = sets
            .iter()
            .map(|c| self.conclude(&sampled, searched.clone(), notes.clone(), c))
            .collect::<Result<Vec<_>>>()?;
        Ok((first, rest))
    }

    /// Simulates the grid at the context's effort: the runs, what was searched, and the notes
    /// that do not depend on the constants (the level, the steady-state checks).
    fn sample(&self, ctx: &mut RunContext) -> Result<(Sampled, Searched, Vec<String>)> {
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
        let drifting = self.steady_checks(&points, level, &mut notes)?;
        let sampled = Sampled {
            points,
            drifting,
            level,
            runs,
        };
        Ok((sampled, searched, notes))
    }

    /// Decides the claim on simulated runs with the constants `consts` (the file's, or another
    /// set for mean and probability claims).
    fn conclude(
        &self,
        sampled: &Sampled,
        searched: Searched,
        notes: Vec<String>,
        consts: &[f64],
    ) -> Result<Verdict> {
        let mut found = Findings {
            notes,
            ..Findings::default()
        };
        match self.test {
            Test::Mean(_) | Test::Probability(_) => {
                self.judge_configurations(sampled, &mut found, consts)?;
            }
            Test::Compare(side) => self.compare_pairs(side, sampled, &mut found)?,
            Test::Exponent(side, over) => self.fit_exponents(side, over, sampled, &mut found)?,
        }
        self.verdict(found, &sampled.drifting, searched)
    }

    /// The steady-state check of every configuration (with `steady_state`): its notes, and
    /// whether each configuration drifts.
    fn steady_checks(
        &self,
        points: &[Point],
        level: f64,
        notes: &mut Vec<String>,
    ) -> Result<Vec<bool>> {
        let mut drifting = vec![false; points.len()];
        for (i, p) in points.iter().enumerate() {
            if let Some((note, agree)) = self.steady(p, level)? {
                notes.push(note);
                drifting[i] = !agree;
            }
        }
        Ok(drifting)
    }

    /// The curve of each point in the plots: its source with its batch and ball-count
    /// expressions (numbered when there are several).
    fn curve_names(&self, points: &[Point]) -> Vec<String> {
        let several = |f: fn(&Point) -> usize| points.iter().any(|p| f(p) > 0);
        let (several_b, several_m) = (several(|p| p.bi), several(|p| p.mi));
        points
            .iter()
            .map(|p| {
                let mut c = self.sources[p.source].label();
                if several_b {
                    c.push_str(&format!(", batch size #{}", p.bi + 1));
                }
                if several_m {
                    c.push_str(&format!(", balls #{}", p.mi + 1));
                }
                c
            })
            .collect()
    }

    /// Decides a mean or probability claim at every configuration, with its note, observation
    /// and the observed/bound ratios (and the worst source per grid point when reported).
    fn judge_configurations(
        &self,
        sampled: &Sampled,
        found: &mut Findings,
        consts: &[f64],
    ) -> Result<()> {
        let Sampled {
            points,
            drifting,
            level,
            runs,
        } = sampled;
        let (level, runs) = (*level, *runs);
        let curves = self.curve_names(points);
        let mut ratios = Vec::new();
        let mut margins = Vec::new();
        for (i, p) in points.iter().enumerate() {
            let mut j = self.judge(p, level, consts)?;
            let rhs = self.eval_dk(&self.rhs, p.n, p.b, p.m, consts, p.dk, "rhs")?;
            margins.push(j.margin);
            if let Some(note) = self.censoring_note(p, rhs) {
                found.notes.push(note);
            }
            let ratio = self.ratio(p, rhs, consts)?;
            ratios.push(ratio);
            let lo = p.values.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = p.values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if drifting[i] {
                j.decision = Decision::Inconclusive;
            }
            found.notes.push(format!(
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
            found.observations.push(Observation {
                curve: curves[i].clone(),
                x: p.n as f64,
                x_name: "n".into(),
                y_name: self.lhs_name(),
                mean: j.estimate.mean,
                ci_low: j.estimate.ci_low,
                ci_high: j.estimate.ci_high,
                threshold: Some(j.target),
            });
            found.outcomes.push(Outcome {
                decision: j.decision,
                margin: j.margin,
                witness: self.witness(p, &j, consts, runs),
            });
        }
        if self.report_worst {
            found
                .notes
                .extend(self.worst_notes(points, &margins, &ratios));
        }
        let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        found.notes.push(format!(
            "observed/bound ({}): {lo:.3} … {hi:.3}",
            if matches!(self.test, Test::Mean(_)) {
                "mean over threshold"
            } else {
                "empirical quantile at the claimed probability over threshold"
            }
        ));
        Ok(())
    }

    /// Decides a comparison at every pair of configurations (the two sources at the same
    /// `(n, b, m)`): the t interval of the per-run differences of paired runs against 0.
    fn compare_pairs(&self, side: Side, sampled: &Sampled, found: &mut Findings) -> Result<()> {
        let Sampled {
            points,
            drifting,
            level,
            runs,
        } = sampled;
        let (level, runs) = (*level, *runs);
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
                found.notes.push(format!(
                    "n = {}, b = {}, m = {}: censored runs (the event did not hold by m balls): the comparison is inconclusive",
                    a.n, a.b, a.m
                ));
            }
            if drifting[2 * i] || drifting[2 * i + 1] {
                j.decision = Decision::Inconclusive;
            }
            let ma = a.values.iter().sum::<f64>() / a.values.len() as f64;
            let mb = b.values.iter().sum::<f64>() / b.values.len() as f64;
            found.notes.push(format!(
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
            found.observations.push(Observation {
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
            found.outcomes.push(Outcome {
                decision: j.decision,
                margin: j.margin,
                witness: w,
            });
        }
        Ok(())
    }

    /// The verdict from the outcomes: `refuted` with the first refuted interval as witness;
    /// otherwise `holds` (every interval decided) or `inconclusive`, with the smallest margin's
    /// witness.
    fn verdict(
        &self,
        mut found: Findings,
        drifting: &[bool],
        searched: Searched,
    ) -> Result<Verdict> {
        let notes = &mut found.notes;
        let drift = drifting.iter().filter(|d| **d).count();
        if drift > 0 {
            notes.push(format!(
                "{drift} configuration(s) not at steady state: their decisions are inconclusive"
            ));
        }
        let outcomes = &found.outcomes;
        let undecided = outcomes
            .iter()
            .filter(|o| o.decision == Decision::Inconclusive)
            .count();
        let refuted = outcomes.iter().find(|o| o.decision == Decision::Refuted);
        let worst = outcomes.iter().min_by(|a, b| a.margin.total_cmp(&b.margin));
        let (status, (slack, w)) = match refuted {
            Some(r) => (Status::Refuted, (r.margin, r.witness.clone())),
            None => {
                let w = worst.ok_or_else(|| Error::Unsupported("no configuration".into()))?;
                (
                    if undecided > 0 {
                        Status::Inconclusive
                    } else {
                        Status::Holds
                    },
                    (w.margin, w.witness.clone()),
                )
            }
        };
        if status == Status::Inconclusive && undecided > drift {
            notes.push(format!(
                "{undecided} interval(s) contain their threshold: more runs could decide them"
            ));
        }
        Ok(Verdict::of(&self.t, status, Trust::Statistical)
            .with_slack(Some(slack))
            .with_witness(Some(w))
            .with_searched(searched)
            .with_notes(found.notes)
            .with_observations(found.observations))
    }
}
