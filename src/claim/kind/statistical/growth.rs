//! Growth claims: the least-squares exponent `a` of `E[X]/relative_to ≈ C·x^a` over the grid
//! of a size `x` (`n`, `b`, `m`) or of a source parameter (`beta`, `1/beta`, `d/k`: one curve
//! per group of sources that differ only in it), with its interval from the runs' standard
//! errors ([`crate::growth::power_fit`]), decided against `exponent = "<= a"`, `">= a"` or
//! `"in [lo, hi]"`.

use super::Statistical;
use super::builder::{Builder, Built};
use super::claim::Over;
use super::judge::decision_name;
use super::run::{Findings, Outcome, Sampled};
use super::simulate::Point;
use super::sources::Source;
use crate::claim::verdict::{Observation, Witness};
use crate::error::{Error, Result};
use crate::growth::{GridMean, PowerFit};
use crate::sim::graph::Rule;
use crate::sim::statistic::{Decision, Estimate, Side, mean_ci};
use std::collections::BTreeMap;

impl Builder<'_> {
    /// The parameter `beta` of each source for a fit in `beta` or `1/beta` (positive, from the
    /// process spec, an md rule's `one-plus-beta` choice or `[claim] beta`), else empty; a fit in `d/k` needs graph sources.
    pub fn betas(&self, sources: &[Source], over: Over) -> Built<Vec<f64>> {
        let exponent = self.cs.exponent.is_some();
        let mut betas = Vec::new();
        if let (Some(param), true) = (over.param(), exponent) {
            for (i, src) in sources.iter().enumerate() {
                let beta = src.param(param);
                match beta {
                    Some(Ok(b)) if b > 0.0 => betas.push(b),
                    _ => {
                        return Err(self.bad(
                            "exponent_in",
                            format!(
                                "\"{param}\" fits over the parameter `{param}` of the processes of [setting]{}; source {} ({}) has no positive `{param}`",
                                if param == "beta" { " or of `[claim] beta`" } else { "" },
                                i + 1,
                                src.label()
                            ),
                        ));
                    }
                }
            }
        }
        if over == Over::DOverK
            && exponent
            && !sources.iter().all(|s| matches!(s, Source::Graph(_)))
        {
            return Err(self.bad(
                "exponent_in",
                "\"d/k\" fits over the graphs of `[claim] graph` (a list of regular graph families)"
                    .into(),
            ));
        }
        Ok(betas)
    }

    /// The curve of each source in a fit over a source parameter (the sources that differ only
    /// in it; at least two per curve), and the number of curves; one curve otherwise.
    pub fn curves(
        &self,
        sources: &[Source],
        over: Over,
        beta_count: usize,
    ) -> Built<(Vec<usize>, usize)> {
        let by_param =
            (over.param().is_some() || over == Over::DOverK) && self.cs.exponent.is_some();
        let curve: Vec<usize> = sources
            .iter()
            .map(|s| match (s, over) {
                (Source::Graph(g), Over::DOverK) => g.rule_i * beta_count + g.beta_i,
                (Source::Graph(g), Over::Param { .. }) => g.rule_i * 1_000_000 + g.graph_i,
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
                    return Err(self.bad(
                        "exponent_in",
                        format!(
                            "a growth fit in {} needs at least two sources per curve with different values (one curve has {members})",
                            over.name()
                        ),
                    ));
                }
            }
        }
        Ok((curve, curves))
    }
}

/// The decision of a fitted exponent (over `samples` grid points) against `rhs` on `side`, or (with `hi`) against the range
/// `[rhs, hi]`: the decision, the margin and the target as notes print it.
fn decide_exponent(
    f: &PowerFit,
    samples: usize,
    level: f64,
    side: Side,
    rhs: f64,
    hi: Option<f64>,
) -> (Decision, f64, String) {
    let est = Estimate {
        samples,
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
    (decision, margin, target)
}

/// One fitted curve of a growth claim: its first point (where its note and witness are
/// placed), its means over `relative_to` and raw, the fit, and its decision against the target.
struct CurveFit<'a> {
    first: &'a Point,
    grid: Vec<GridMean>,
    raw: Vec<GridMean>,
    fit: PowerFit,
    target: String,
    decision: Decision,
    margin: f64,
}

impl Statistical {
    /// Fits and decides every curve of a growth claim.
    pub(super) fn fit_exponents(
        &self,
        side: Side,
        over: Over,
        sampled: &Sampled,
        found: &mut Findings,
    ) -> Result<()> {
        let Sampled {
            points,
            drifting,
            level,
            runs,
        } = sampled;
        let rhs = self.eval(&self.rhs, 0, 0, 0, &self.consts, "exponent")?;
        let hi = match &self.exponent_hi {
            Some(e) => Some(self.eval(e, 0, 0, 0, &self.consts, "exponent")?),
            None => None,
        };
        for idx in self.curve_groups(over, points).values() {
            let censored = idx
                .iter()
                .any(|&i| points[i].values.iter().any(|v| v.is_infinite()));
            let (grid, raw) = self.curve_means(over, points, idx, *level, found)?;
            let fit = crate::growth::power_fit(&grid, *level)?;
            let (mut decision, margin, target) =
                decide_exponent(&fit, grid.len(), *level, side, rhs, hi);
            if idx.iter().any(|&i| drifting[i]) {
                decision = Decision::Inconclusive;
            }
            if censored {
                decision = Decision::Inconclusive;
                found.notes.push(
                    "censored runs (the event did not hold by m balls): the means are restricted to m and the fit is inconclusive; lengthen `balls`".into(),
                );
            }
            let curve = CurveFit {
                first: &points[idx[0]],
                grid,
                raw,
                fit,
                target,
                decision,
                margin,
            };
            found.notes.push(self.exponent_note(over, &curve));
            found.outcomes.push(Outcome {
                decision,
                margin,
                witness: self.exponent_witness(over, &curve, *runs, *level),
            });
        }
        Ok(())
    }

    /// The curves of a growth fit: the indices of the points sharing everything but the fitted
    /// size (keyed by the expressions' indices: the sizes they give differ across n).
    fn curve_groups(
        &self,
        over: Over,
        points: &[Point],
    ) -> BTreeMap<(usize, usize, usize, usize), Vec<usize>> {
        let mut groups: BTreeMap<(usize, usize, usize, usize), Vec<usize>> = BTreeMap::new();
        for (i, p) in points.iter().enumerate() {
            let key = match over {
                Over::N => (0, p.bi, p.mi, p.source),
                Over::B => (p.n, 0, p.mi, p.source),
                Over::M => (p.n, p.bi, 0, p.source),
                Over::Param { .. } | Over::DOverK => (p.n, p.bi, p.mi, self.curve[p.source]),
            };
            groups.entry(key).or_default().push(i);
        }
        groups
    }

    /// The means of one curve's points, over `relative_to` (for the fit) and raw (for the class
    /// fits), with censored hitting times restricted to `m`; each point is also an observation.
    #[allow(clippy::type_complexity)]
    fn curve_means(
        &self,
        over: Over,
        points: &[Point],
        idx: &[usize],
        level: f64,
        found: &mut Findings,
    ) -> Result<(Vec<GridMean>, Vec<GridMean>)> {
        let mut grid = Vec::new();
        let mut raw = Vec::new();
        for &i in idx {
            let p = &points[i];
            let p = &Point {
                values: p.values.iter().map(|v| v.min(p.m as f64)).collect(),
                halves: None,
                detail: None,
                ..*p
            };
            let rel = match &self.relative_to {
                Some(e) => self.eval_dk(e, p.n, p.b, p.m, &self.consts, p.dk, "relative_to")?,
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
            found.observations.push(Observation {
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
            raw.push(GridMean {
                x,
                mean: e.mean,
                stderr: e.stderr,
            });
            grid.push(GridMean {
                x,
                mean: e.mean / rel,
                stderr: e.stderr / rel,
            });
        }
        Ok((grid, raw))
    }

    /// The note of one fitted curve: its means, the exponent with its interval against the
    /// target, the decision, and the class fits of the raw means.
    fn exponent_note(&self, over: Over, c: &CurveFit) -> String {
        let CurveFit {
            first,
            grid,
            raw,
            fit: f,
            target,
            decision,
            ..
        } = c;
        let means: Vec<String> = grid
            .iter()
            .map(|g| format!("{} → {:.4}", g.x, g.mean))
            .collect();
        let classes: Vec<String> = crate::growth::class_fits(raw)
            .iter()
            .map(|(c, a, r)| format!("{a:.4}·{c} (rel. RMS {r:.3})"))
            .collect();
        format!(
            "{}{}: E[{}]{} at {} = {}: exponent {:.4} in [{:.4}, {:.4}] (coefficient {:.4}) vs {target}: {}; class fits of E[X]: {}",
            self.curve_label(over, first.source),
            match over {
                Over::N => String::new(),
                Over::B => format!(" at n = {}", first.n),
                Over::M => format!(" at n = {}, b = {}", first.n, first.b),
                Over::Param { .. } | Over::DOverK => {
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
            decision_name(*decision),
            classes.join(", ")
        )
    }

    /// The witness of one fitted curve.
    fn exponent_witness(&self, over: Over, c: &CurveFit, runs: u64, level: f64) -> Witness {
        let CurveFit {
            first,
            grid,
            fit: f,
            target,
            margin,
            ..
        } = c;
        let constants: BTreeMap<String, f64> = self.names[3..]
            .iter()
            .cloned()
            .zip(self.consts.iter().copied())
            .collect();
        Witness {
            n: first.n,
            loads: vec![],
            source: format!(
                "{}, {} grid {:?}",
                self.curve_label(over, first.source),
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
        }
    }

    /// The abscissa of a point in a growth fit: `n`, `b`, `m`, the source's `beta`, `1/beta`, or
    /// `d/k` of its graph at `n` (degree over edge connectivity).
    pub(super) fn fit_x(&self, over: Over, p: &Point) -> Result<f64> {
        Ok(match over {
            Over::N => p.n as f64,
            Over::B => p.b as f64,
            Over::M => p.m as f64,
            Over::Param { inverse: false, .. } => self.betas[p.source],
            Over::Param { inverse: true, .. } => 1.0 / self.betas[p.source],
            Over::DOverK => {
                if p.dk[1] <= 0.0 {
                    return Err(Error::invalid(
                        "[claim] exponent_in",
                        "d/k is a parameter of the graph sources",
                    ));
                }
                p.dk[0] / p.dk[1]
            }
        })
    }

    /// What a fitted curve is about: the source, or (fits over a source parameter) what its
    /// sources share.
    pub(super) fn curve_label(&self, over: Over, source: usize) -> String {
        match (&self.sources[source], over) {
            (Source::Process(_), Over::Param { .. }) => "processes of [setting]".into(),
            (Source::Graph(g), Over::Param { .. }) => {
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
}
