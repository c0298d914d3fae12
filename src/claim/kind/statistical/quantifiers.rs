//! The papers' quantifiers in statistical claims: classes of processes (`[setting.vectors]` with
//! `[claim] adversary`), stopping times (`statistic = "hitting_time"` with `until` and `every`),
//! and the worst of the simulated sources.
//!
//! * **Classes.** "Any process satisfying C1(δ, ε) and C2(C)" is simulated as the class's members
//!   that the inequality kind's quantifier builds (`q` of eq. (3.2), the step vectors with a larger
//!   bias or a later step, `random` vectors pushed to the boundary of C1) plus, per entry of
//!   `adversary`, the adaptive adversary of [`crate::sim::adversary`] for that objective; the file's
//!   claim must hold at every one of them, i.e. for the worst.
//! * **Stopping times.** `until` is a formula in the claim language over `t` (balls since the
//!   window's start), `gap`, `spread`, `quantile` (the fraction of bins with `y ≥ 0`), `potential`
//!   (the value of `[claim] potential`), `n`, `b`, `m` and the constants; the per-run value is the
//!   first check (every `every` balls, default `n` rounded up to a batch) at which it holds, or
//!   censored when it does not hold by `m` balls ([`crate::sim::stopping`]).

use super::claim::Test;
use super::point::Point;
use super::{Source, Statistical};
use crate::claim::schema::Theorem;
use crate::error::{Error, Result};
use crate::exact::Q;
use crate::lang::{Approx, Domain, Float, Formula, Slots};
use crate::sim::adversary::{Aim, Class, ClassModel, Policy, Shape};
use crate::sim::statistic::Side;
use crate::sim::stopping::Observation;
use std::collections::BTreeMap;

/// The class of `[setting.vectors]` in a statistical file.
#[derive(Debug, Clone)]
pub(super) struct ClassSpec {
    pub delta: Q,
    pub eps: Q,
    pub c2: Q,
    pub random: usize,
    /// The seed of the random members (`[domain] seed`, as the inequality kind uses).
    pub seed: u64,
    pub shape: Shape,
}

/// One class source: a member by its position in the quantifier's list at each `n`, or an
/// adversary.
#[derive(Debug, Clone)]
pub(super) enum ClassRole {
    Member(usize),
    Adversary(Aim, usize),
}

impl ClassSpec {
    /// The fixed members at `n`: `(label, vector)`.
    pub fn members(&self, n: usize) -> Result<Vec<(String, Vec<f64>)>> {
        let v = crate::claim::kind::inequality::vectors::vectors(
            n,
            &self.delta,
            &self.eps,
            &self.c2,
            self.random,
            self.seed,
        )?;
        Ok(v.into_iter()
            .filter_map(|a| match a {
                crate::claim::case::Alloc::Vector { label, p, .. } => Some((label, p)),
                _ => None,
            })
            .collect())
    }

    /// The class at `n`.
    pub fn class(&self, n: usize) -> Result<Class> {
        Class::new(n, &self.delta, &self.eps, &self.c2, self.shape)
    }

    /// `C1(δ, ε) ∩ C2(C)` as text.
    pub fn text(&self) -> String {
        format!(
            "C1({}, {}) ∩ C2({}), {}",
            self.delta,
            self.eps,
            self.c2,
            match self.shape {
                Shape::Sorted => "sorted vectors",
                Shape::Any => "any vectors",
            }
        )
    }
}

/// Reads `[setting.vectors]` for a statistical file, with `class` (`sorted`/`any`).
pub(super) fn class_spec(
    t: &Theorem,
    shape: Option<&str>,
) -> std::result::Result<Option<ClassSpec>, String> {
    let Some(v) = &t.file.setting.vectors else {
        return Ok(None);
    };
    let vs = v.get_ref();
    let g = |s: &crate::claim::schema::Scalar, what: &str| {
        s.value()
            .map(|x| x.1)
            .map_err(|e| format!("[setting.vectors] {what}: {e}"))
    };
    let shape = match shape {
        None => Shape::Sorted,
        Some(s) => Shape::parse(s).map_err(|e| e.to_string())?,
    };
    Ok(Some(ClassSpec {
        delta: g(&vs.delta, "delta")?,
        eps: g(&vs.eps, "eps")?,
        c2: g(&vs.c2, "c2")?,
        random: vs.random,
        seed: t.file.domain.get_ref().seed,
        shape,
    }))
}

/// The class sources of a file: every member (checked to be the same list of kinds at every `n`
/// of the grid), then one adversary per objective.
pub(super) fn class_sources(
    spec: &ClassSpec,
    ns: &[usize],
    aims: &[Aim],
    lookahead: usize,
) -> Result<Vec<Source>> {
    let kind = |l: &str| l.split(['(', '#']).next().unwrap_or("").to_string();
    let mut first: Option<(usize, Vec<String>)> = None;
    for &n in ns {
        // Every n builds its class (δn an integer, C2 not empty).
        spec.class(n)?;
        let m = spec.members(n)?;
        let kinds: Vec<String> = m.iter().map(|(l, _)| kind(l)).collect();
        match &first {
            None => first = Some((n, kinds)),
            Some((n0, k0)) if *k0 != kinds => {
                return Err(Error::invalid(
                    "[setting.vectors]",
                    format!(
                        "the class members differ between n = {n0} ({}) and n = {n} ({}); the configurations of a file must be the same at every n: choose other n",
                        k0.join(", "),
                        kinds.join(", ")
                    ),
                ));
            }
            _ => {}
        }
    }
    let count = first.map(|f| f.1.len()).unwrap_or(0);
    let mut out: Vec<Source> = (0..count)
        .map(|i| {
            Source::Class(ClassSource {
                spec: spec.clone(),
                role: ClassRole::Member(i),
            })
        })
        .collect();
    for a in aims {
        out.push(Source::Class(ClassSource {
            spec: spec.clone(),
            role: ClassRole::Adversary(a.clone(), lookahead),
        }));
    }
    Ok(out)
}

/// One class source.
#[derive(Debug, Clone)]
pub(super) struct ClassSource {
    pub spec: ClassSpec,
    pub role: ClassRole,
}

impl ClassSource {
    /// The source's label (a member's own label at `n` is in the point's detail).
    pub fn label(&self) -> String {
        match &self.role {
            ClassRole::Member(i) => format!("member {} of {}", i + 1, self.spec.text()),
            ClassRole::Adversary(a, 1) => {
                format!("adversary({}) in {}", a.label(), self.spec.text())
            }
            ClassRole::Adversary(a, h) => format!(
                "adversary({}, lookahead {h}) in {}",
                a.label(),
                self.spec.text()
            ),
        }
    }

    /// The model at `n` and batch `b` with the tie rule `ties`, and its label at `n`.
    pub fn model(&self, n: usize, b: u64, ties: &str) -> Result<(ClassModel, String)> {
        let class = self.spec.class(n)?;
        let ties = crate::loads::TieRule::parse(ties)?;
        let (policy, label) = match &self.role {
            ClassRole::Member(i) => {
                let m = self.spec.members(n)?;
                let (label, p) = m.get(*i).cloned().ok_or_else(|| {
                    Error::invalid(
                        "[setting.vectors]",
                        format!("member {} does not exist at n = {n}", i + 1),
                    )
                })?;
                (
                    Policy::Fixed {
                        label: label.clone(),
                        p,
                    },
                    label,
                )
            }
            ClassRole::Adversary(a, h) => (Policy::Adversary(a.clone(), *h), self.label()),
        };
        Ok((ClassModel::new(class, policy, b, ties)?, label))
    }
}

/// The names of `until`, after `n`, `b`, `m`, the constants and the three graph slots.
pub(super) const STOP_NAMES: [&str; 5] = ["t", "gap", "spread", "quantile", "potential"];

/// Whether the compiled event reads the potential (slot of `potential`).
pub(super) fn uses_potential(f: &Formula, base: usize) -> bool {
    f.uses().slots.contains(&(base + 4))
}

impl Statistical {
    /// Whether the event `until` holds at an observation, at configuration `(n, b, m)`.
    pub(super) fn event(&self, o: &Observation, n: usize, b: u64, m: u64) -> Result<bool> {
        let Some((f, _)) = &self.until else {
            return Err(Error::invalid(
                "[claim] until",
                "hitting_time needs `until`",
            ));
        };
        let fl = |v: f64| -> Result<Approx> {
            Float
                .float(v)
                .map_err(|e| Error::invalid("[claim] until", e.to_string()))
        };
        let mut slots = vec![fl(n as f64)?, fl(b as f64)?, fl(m as f64)?];
        for &c in &self.consts {
            slots.push(fl(c)?);
        }
        // The four per-source slots (d, k, untouched, beta) are placeholders in `until`.
        for _ in 0..super::PER_SOURCE_SLOTS {
            slots.push(fl(0.0)?);
        }
        slots.push(fl(o.balls as f64)?);
        slots.push(fl(o.gap)?);
        slots.push(fl(o.spread)?);
        slots.push(fl(o.quantile)?);
        slots.push(match o.potential {
            Some(x) => Approx::exact(x),
            None => fl(0.0)?,
        });
        f.truth(&Float, &Slots(&slots), None, None).map_err(|e| {
            Error::invalid(
                "[claim] until",
                format!("{e} at t = {} (n = {n}, b = {b})", o.balls),
            )
        })
    }

    /// The balls between checks of a hitting time at `(n, b)`: `every` (default `n`), rounded up
    /// to a multiple of the batch.
    pub(super) fn every_at(&self, n: usize, b: u64) -> Result<u64> {
        let v = match &self.every {
            Some(e) => self.eval(e, n, b, 0, &self.consts, "every")?,
            None => n as f64,
        };
        if !(1.0..=1e15).contains(&v.ceil()) {
            return Err(Error::invalid(
                "[claim] every",
                format!("must lie in [1, 10^15] balls, got {v} at n = {n}, b = {b}"),
            ));
        }
        let e = v.ceil() as u64;
        Ok(e.div_ceil(b.max(1)) * b.max(1))
    }

    /// The label of a point: a class member's own label at its `n` when it has one.
    pub(super) fn point_label(&self, p: &Point) -> String {
        match &p.detail {
            Some(d) => d.clone(),
            None => self.sources[p.source].label(),
        }
    }

    /// Notes naming the worst source at each `(n, b, m)` of the grid, for files whose sources a
    /// quantifier ranges over (a class, several strategies): the smallest margin, and among equal
    /// margins (every source without a failing run has the same Clopper–Pearson end) the
    /// observed/bound ratio nearest the wrong side (the largest for `<=`, the smallest for `>=`).
    pub(super) fn worst_notes(
        &self,
        points: &[Point],
        margins: &[f64],
        ratios: &[f64],
    ) -> Vec<String> {
        let at_most = matches!(
            self.test,
            Test::Mean(Side::AtMost) | Test::Probability(Side::AtMost)
        );
        let toward_failing = |i: usize| if at_most { -ratios[i] } else { ratios[i] };
        let mut groups: BTreeMap<(usize, u64, u64), Vec<usize>> = BTreeMap::new();
        for (i, p) in points.iter().enumerate() {
            groups.entry((p.n, p.b, p.m)).or_default().push(i);
        }
        let mut out = Vec::new();
        for ((n, b, m), idx) in groups {
            if idx.len() < 2 {
                continue;
            }
            let Some(&w) = idx.iter().min_by(|&&x, &&y| {
                margins[x]
                    .total_cmp(&margins[y])
                    .then(toward_failing(x).total_cmp(&toward_failing(y)))
            }) else {
                continue;
            };
            out.push(format!(
                "n = {n}, b = {b}, m = {m}: the worst of the {} sources (smallest margin {:.4}, observed/bound {:.3}) is {}",
                idx.len(),
                margins[w],
                ratios[w],
                self.point_label(&points[w])
            ));
        }
        out
    }
}

impl Statistical {
    /// Decides a hitting-time claim at one configuration with censoring at `m` balls.
    pub(super) fn judge_time(
        &self,
        p: &Point,
        level: f64,
        consts: &[f64],
        threshold: f64,
    ) -> Result<crate::sim::stopping::Censored> {
        use crate::sim::stopping::{TimeClaim, judge};
        let claim = match self.test {
            super::Test::Mean(side) => TimeClaim::Mean(side),
            super::Test::Probability(side) => {
                let q = self.q_at(p, consts)?;
                TimeClaim::Probability { side, q }
            }
            _ => {
                return Err(Error::Unsupported(
                    "growth and comparison claims are judged over several configurations".into(),
                ));
            }
        };
        judge(&p.values, p.m as f64, claim, threshold, level)
    }

    /// The censoring note of a hitting-time configuration (`None` when no run is censored).
    pub(super) fn censoring_note(&self, p: &Point, threshold: f64) -> Option<String> {
        let censored = p.values.iter().filter(|v| v.is_infinite()).count();
        if self.stat != super::Stat::HittingTime || censored == 0 {
            return None;
        }
        let unknown = matches!(self.test, super::Test::Probability(_)) && threshold > p.m as f64;
        Some(format!(
            "n = {}, {}, b = {}, m = {}: {censored} of {} runs censored (the event did not hold by m balls){}",
            p.n,
            self.point_label(p),
            p.b,
            p.m,
            p.values.len(),
            if unknown {
                "; the threshold lies past m, so their event is unknown: the interval spans both cases"
            } else if matches!(self.test, super::Test::Mean(_)) {
                "; the mean's interval is that of E[min(T, m)] ≤ E[T], open above"
            } else {
                ""
            }
        ))
    }
}
