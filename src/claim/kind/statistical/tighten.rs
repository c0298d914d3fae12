//! The constant finder of statistical files: per `n`, the tightest value of a constant of
//! `[tighten]` for which every configuration at that `n` holds at the file's per-configuration
//! level. The simulation is run once per `n`; the bisection
//! ([`crate::search::bisect_bracket`]) only re-evaluates the thresholds, and the growth of the
//! values in `n` is fitted by [`crate::growth::fit_growth`].

use super::Statistical;
use super::simulate::Point;
use crate::claim::kind::{ConstantReport, RunContext, Tightest};
use crate::claim::verdict::Witness;
use crate::error::{Error, Result};
use crate::search::Direction;
use crate::sim::statistic::Decision;

impl Statistical {
    /// The tightest value of constant `name` per `n` of `ns` (the file's grid by default).
    pub(super) fn tighten_constant(
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
            per_n.push(self.tightest_at(n, &points, dir, slot, level, runs)?);
        }
        let pts: Vec<(f64, f64)> = per_n.iter().map(|t| (t.n as f64, t.value)).collect();
        Ok(ConstantReport {
            id: self.t.id.clone(),
            name: name.to_string(),
            direction: dir,
            per_n,
            fits: crate::growth::fit_growth(&pts),
        })
    }

    /// The tightest value at one `n` of the constant in `slot`, by bisection from its value in
    /// the file, with the witness of the configuration of smallest margin at that value.
    fn tightest_at(
        &self,
        n: usize,
        points: &[Point],
        dir: Direction,
        slot: usize,
        level: f64,
        runs: u64,
    ) -> Result<Tightest> {
        let mut consts = self.consts.clone();
        let start = consts[slot];
        let mut holds = |v: f64| -> Result<bool> {
            consts[slot] = v;
            for p in points {
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
        for p in points {
            let j = self.judge(p, level, &consts)?;
            if tight.as_ref().is_none_or(|(m, _)| j.margin < *m) {
                tight = Some((j.margin, self.witness(p, &j, &consts, runs)));
            }
        }
        Ok(Tightest {
            fails: bracket.fails,
            trust_holds: None,
            trust_fails: None,
            fails_unproved: false,
            n,
            value,
            witness: tight.map(|t| t.1),
        })
    }
}
