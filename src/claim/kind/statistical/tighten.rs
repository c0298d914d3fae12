//! The constant finder of statistical files: per `n`, the tightest value of a constant of
//! `[tighten]` for which every configuration at that `n` holds at the file's per-configuration
//! level. The simulation is run once per `n`; the bisection of the constant finder
//! ([`crate::claim::tighten::Finder`]) only re-evaluates the thresholds.

use super::Statistical;
use super::simulate::Point;
use crate::claim::kind::{ConstantReport, RunContext, Tightest};
use crate::claim::tighten::{Finder, Trial};
use crate::claim::verdict::{Status, Trust, Witness};
use crate::error::Result;
use crate::exact::to_f64;
use crate::sim::statistic::Decision;

impl Statistical {
    /// The tightest value of constant `name` per `n` of `ns` (the file's grid by default).
    pub(super) fn tighten_constant(
        &self,
        name: &str,
        ns: Option<&[usize]>,
        ctx: &mut RunContext,
    ) -> Result<ConstantReport> {
        let finder = Finder::new(&self.t, name, &self.names[3..])?;
        self.judged_only(name, finder.index)?;
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
            per_n.push(self.tightest_at(&finder, n, &points, level, runs)?);
        }
        Ok(finder.report(per_n))
    }

    /// Constant `name` (index `i` among the constants) is read only where the runs are judged,
    /// so other values of it can be judged on the same runs (the constant finder,
    /// [`crate::claim::kind::Check::run_alternatives`]); otherwise a one-line error naming the
    /// field that the runs read it in.
    pub(super) fn judged_only(&self, name: &str, i: usize) -> crate::Result<()> {
        match self.simulation_reads(3 + i) {
            Some(field) => Err(crate::Error::invalid(
                format!("[claim] {field}"),
                format!(
                    "reads the constant `{name}`: the runs depend on it, so other values of it cannot be judged on the same runs"
                ),
            )),
            None => Ok(()),
        }
    }

    /// The first field of the claim that the simulation reads (the grid, the start, the burn-in,
    /// the statistic's parameters, `subtract`) and that reads slot `slot`, if any: a constant
    /// there changes the runs, not only the thresholds they are judged against.
    pub(super) fn simulation_reads(&self, slot: usize) -> Option<&'static str> {
        let reads = |e: &crate::lang::Expr| e.uses().slots.contains(&slot);
        let start = match &self.start {
            super::StartSpec::OneBin(e) | super::StartSpec::Gap(e) => Some(e),
            _ => None,
        };
        let fields: [(&'static str, Vec<&crate::lang::Expr>); 10] = [
            ("balls", self.balls.iter().collect()),
            ("batch", self.batch.iter().collect()),
            ("burn_in", self.burn_in.iter().collect()),
            ("start", start.into_iter().collect()),
            ("subtract", self.subtract.iter().map(|s| &s.0).collect()),
            ("below", self.below.iter().collect()),
            ("level", self.level.iter().collect()),
            ("every", self.every.iter().collect()),
            ("refresh", self.refresh.iter().collect()),
            ("adversarial", self.adversarial.iter().collect()),
        ];
        if let Some((field, _)) = fields.iter().find(|(_, es)| es.iter().any(|e| reads(e))) {
            return Some(field);
        }
        self.until
            .as_ref()
            .filter(|(f, _)| f.uses().slots.contains(&slot))
            .map(|_| "until")
    }

    /// The tightest value at one `n` of the finder's constant, by bisection from its value in the
    /// file (a value is kept when every configuration holds at the level), with the witness of
    /// the configuration of smallest margin at that value.
    fn tightest_at(
        &self,
        finder: &Finder,
        n: usize,
        points: &[Point],
        level: f64,
        runs: u64,
    ) -> Result<Tightest> {
        let slot = finder.index;
        let mut consts = self.consts.clone();
        let start = consts[slot];
        let mut t = finder.starting_at(n, start, 1e-6, |q| {
            consts[slot] = to_f64(q);
            let mut kept = true;
            for p in points {
                if self.judge(p, level, &consts)?.decision != Decision::Holds {
                    kept = false;
                    break;
                }
            }
            Ok(Trial {
                kept,
                status: if kept { Status::Holds } else { Status::Refuted },
                trust: Trust::Statistical,
                witness: None,
            })
        })?;
        // The pinning configuration: one that fails just past the tightest value (of those, the
        // smallest margin there); without a failing value, the smallest margin at the value. At
        // the value itself margins can tie (every configuration without a failing run has the
        // same Clopper–Pearson end), so the margin there does not name the binding one.
        let pinning = |value: f64, failing_only: bool| -> Result<Option<Witness>> {
            let mut consts = self.consts.clone();
            consts[slot] = value;
            let mut tight: Option<(f64, Witness)> = None;
            for p in points {
                let j = self.judge(p, level, &consts)?;
                if (!failing_only || j.decision != Decision::Holds)
                    && tight.as_ref().is_none_or(|(m, _)| j.margin < *m)
                {
                    tight = Some((j.margin, self.witness(p, &j, &consts, runs)));
                }
            }
            Ok(tight.map(|t| t.1))
        };
        let past = match t.fails {
            Some(f) => pinning(f, true)?,
            None => None,
        };
        let tight = match past {
            Some(w) => Some(w),
            None => pinning(t.value, false)?,
        };
        t.witness = tight;
        Ok(t)
    }
}
