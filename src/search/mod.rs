//! Adversarial search for load vectors that break a claim, shared by `cargo test` and the CLI.
//!
//! A claim at a fixed number of bins, process and constants is an [`Objective`]: a function from a
//! load vector to both sides of an inequality and their slack (positive when it holds). [`run`]
//! evaluates, in this order,
//! 1. exhaustive enumeration of sorted integer vectors for small n ([`enumerate_sorted`], F9);
//! 2. the adversarial families F1–F7, F10 and huge loads ([`Family`]);
//! 3. states supplied by the caller, e.g. from simulated trajectories (F8, the hook
//!    [`StateSource`]);
//! 4. random integer vectors drawn by a proptest strategy, which shrinks any violation to a
//!    minimal one and persists its seed under `proptest-regressions/` ([`random`]);
//! 5. a local optimiser that moves mass between bins to minimise the slack, started from the best
//!    states found ([`optimise`]);
//!
//! and then shrinks the first violation it finds ([`shrink`]). Every random choice comes from a ChaCha
//! generator seeded from the plan, so a search is reproducible.
//!
//! Reference for the families: docs/derivations.md §6.

use crate::error::Result;
use crate::xfloat::XFloat;
use std::path::PathBuf;

mod constant;
mod enumerate;
mod families;
pub mod optimise;
pub mod random;
mod searched;
pub mod shrink;

pub use constant::{Bracket, Direction, bisect, bisect_bracket};
pub use enumerate::{Screen, enumerate_sorted, enumerate_sorted_screened, enumeration_size};
pub use families::{FAMILIES, Family, near_ties};
pub use searched::Searched;

/// Both sides of a claim at a state and the slack (positive when the claim holds).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Eval {
    /// The left side.
    pub lhs: XFloat,
    /// The right side.
    pub rhs: XFloat,
    /// The slack.
    pub slack: XFloat,
}

/// A claim at a fixed number of bins (and process, constants): what the search minimises.
pub trait Objective {
    /// The number of bins.
    fn n(&self) -> usize;
    /// Both sides and the slack at a load vector of length `n`.
    fn eval(&self, loads: &[f64]) -> Result<Eval>;
    /// Whether an evaluation violates the claim (beyond its tolerance).
    fn violates(&self, e: &Eval) -> bool;
    /// A screen of the exhaustive enumeration ([`Screen`]): bounds on the slack of
    /// [`Objective::eval`] at sorted vectors, so that vectors that clearly hold and are not among
    /// the tightest are counted without the full evaluation. `None` (the default): every vector
    /// is evaluated.
    fn screen(&self) -> Option<Box<dyn Screen + '_>> {
        None
    }
}

/// A source of extra states, e.g. load vectors taken from simulated trajectories (F8).
pub trait StateSource {
    /// Load vectors with `n` bins.
    fn states(&mut self, n: usize) -> Box<dyn Iterator<Item = Vec<f64>> + '_>;
}

/// A [`StateSource`] from a fixed list of vectors (those of the wrong length are skipped).
///
/// ```
/// use balloc::search::{StateList, StateSource};
/// let mut s = StateList(vec![vec![1.0, 0.0], vec![3.0, 0.0, 0.0]]);
/// assert_eq!(s.states(2).count(), 1);
/// ```
#[derive(Debug, Clone, Default)]
pub struct StateList(pub Vec<Vec<f64>>);

impl StateSource for StateList {
    fn states(&mut self, n: usize) -> Box<dyn Iterator<Item = Vec<f64>> + '_> {
        Box::new(self.0.iter().filter(move |v| v.len() == n).cloned())
    }
}

/// What to search.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Adversarial families.
    pub families: Vec<Family>,
    /// Exhaustive enumeration: (max n, max load).
    pub exhaustive: Option<(usize, u32)>,
    /// Random cases (proptest).
    pub random: u32,
    /// Optimiser evaluations per start.
    pub optimise: u32,
    /// Optimiser starts.
    pub starts: usize,
    /// The seed.
    pub seed: u64,
    /// Integer loads only.
    pub integer: bool,
    /// Stop at the first phase that finds a violation.
    pub stop_at_violation: bool,
    /// Where proptest persists failing seeds (`None`: no persistence).
    pub regressions: Option<PathBuf>,
}

/// A state with its evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// The loads.
    pub loads: Vec<f64>,
    /// Both sides and the slack.
    pub eval: Eval,
    /// The phase or family that produced it.
    pub phase: String,
}

/// The result of a search on one objective.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Counts per phase.
    pub searched: Searched,
    /// The state of smallest slack.
    pub worst: Option<Found>,
    /// A violation, shrunk.
    pub violation: Option<Found>,
}

/// Keeps the `k` states of smallest slack and the first violation.
struct Tracker<'a> {
    obj: &'a dyn Objective,
    k: usize,
    best: Vec<Found>,
    /// The slack of the `k`-th state kept, once `k` are kept (`+∞` before): a state whose slack
    /// is at least this and positive changes nothing.
    floor: f64,
    violation: Option<Found>,
    report: Report,
}

impl<'a> Tracker<'a> {
    /// Whether a state whose slack is at least `lo > 0` can change nothing: it holds, and the
    /// `k` tightest states kept are all at least as tight.
    fn cleared(&self, lo: f64) -> bool {
        lo > 0.0 && self.floor <= lo
    }

    fn offer(&mut self, loads: &[f64], phase: &str) -> Result<()> {
        let eval = self.obj.eval(loads)?;
        self.record(loads, eval, phase);
        Ok(())
    }

    fn record(&mut self, loads: &[f64], eval: Eval, phase: &str) {
        let worse = |a: &XFloat, b: &XFloat| a.partial_cmp(b) == Some(std::cmp::Ordering::Less);
        if self.violation.is_none() && self.obj.violates(&eval) {
            self.violation = Some(Found {
                loads: loads.to_vec(),
                eval,
                phase: phase.to_string(),
            });
        }
        let pos = self
            .best
            .iter()
            .position(|f| worse(&eval.slack, &f.eval.slack));
        let enter = pos.is_some() || self.best.len() < self.k;
        if enter && !self.best.iter().any(|f| f.loads == loads) {
            let f = Found {
                loads: loads.to_vec(),
                eval,
                phase: phase.to_string(),
            };
            match pos {
                Some(p) => self.best.insert(p, f),
                None => self.best.push(f),
            }
            self.best.truncate(self.k);
            if self.best.len() >= self.k {
                self.floor = self
                    .best
                    .last()
                    .map_or(f64::INFINITY, |w| w.eval.slack.to_f64());
            }
        }
    }
}

/// Runs the search of the [`Plan`] on an objective; `extra` supplies trajectory states.
///
/// ```
/// use balloc::claim::XFloat;
/// use balloc::search::{run, Eval, Objective, Plan, Family, StateList};
/// // The claim max_i x_i − min_i x_i <= 5 (spread at most 5) at n = 3.
/// struct Spread;
/// impl Objective for Spread {
///     fn n(&self) -> usize { 3 }
///     fn eval(&self, x: &[f64]) -> balloc::Result<Eval> {
///         let s = x.iter().cloned().fold(f64::MIN, f64::max) - x.iter().cloned().fold(f64::MAX, f64::min);
///         let (l, r) = (XFloat::from_f64(s), XFloat::from_f64(5.0));
///         Ok(Eval { lhs: l, rhs: r, slack: r.sub(l) })
///     }
///     fn violates(&self, e: &Eval) -> bool { e.slack < XFloat::ZERO }
/// }
/// let plan = Plan { families: vec![Family::OneHeavy], exhaustive: Some((3, 4)), random: 0,
///     optimise: 0, starts: 1, seed: 0, integer: true, stop_at_violation: true, regressions: None };
/// let r = run(&Spread, &plan, &mut StateList::default()).unwrap();
/// assert_eq!(r.searched.states["exhaustive"], 15); // C(6, 2): spreads ≤ 4 all hold
/// // The family finds spread 6 (heights 2^{j/2} rounded) and shrinks it to the smallest: 6.
/// assert_eq!(r.violation.unwrap().loads, vec![6.0, 0.0, 0.0]);
/// ```
pub fn run(obj: &dyn Objective, plan: &Plan, extra: &mut dyn StateSource) -> Result<Report> {
    let n = obj.n();
    let mut t = Tracker {
        obj,
        k: plan.starts.max(1),
        best: Vec::new(),
        floor: f64::INFINITY,
        violation: None,
        report: Report::default(),
    };
    let stop = |t: &Tracker| plan.stop_at_violation && t.violation.is_some();

    // 1. Exhaustive enumeration.
    if let Some((max_n, max_load)) = plan.exhaustive
        && n <= max_n
    {
        let mut err = None;
        let mut visit = |t: &mut Tracker, x: &[f64]| match t.offer(x, "exhaustive") {
            Ok(()) => true,
            Err(e) => {
                err = Some(e);
                false
            }
        };
        let count = match obj.screen() {
            Some(mut screen) => {
                enumerate_sorted_screened(n, max_load, screen.as_mut(), &mut |x, bounds| {
                    // A vector the screen clears is searched: its slack is known to be positive
                    // and no smaller than the tightest states kept, so evaluating it in full
                    // would change nothing.
                    if bounds.is_some_and(|(lo, _)| t.cleared(lo)) {
                        return true;
                    }
                    visit(&mut t, x)
                })
            }
            None => enumerate_sorted(n, max_load, &mut |x| visit(&mut t, x)),
        };
        if let Some(e) = err {
            return Err(e);
        }
        t.report.searched.add("exhaustive", count);
    }
    // 2. Families.
    for fam in &plan.families {
        if stop(&t) {
            break;
        }
        let mut count = 0u64;
        for x in fam.iter(n, plan.integer, plan.seed) {
            t.offer(&x, fam.name())?;
            count += 1;
        }
        t.report.searched.add(fam.name(), count);
    }
    // 3. Supplied states (trajectories).
    if !stop(&t) {
        let mut k = 0;
        for x in extra.states(n) {
            t.offer(&x, "trajectory")?;
            k += 1;
        }
        t.report.searched.add("trajectory", k);
    }
    // 4. Random states with proptest shrinking.
    if !stop(&t) && plan.random > 0 {
        let r = random::run(obj, n, plan)?;
        t.report.searched.add("random", r.evaluations);
        for (x, e) in &r.sample {
            t.record(x, *e, "random");
        }
        if let Some(f) = r.failure {
            t.violation.get_or_insert(f);
        }
    }
    // 5. Local optimisation from the best states.
    if !stop(&t) && plan.optimise > 0 {
        let starts = t.best.clone();
        for (j, s) in starts.iter().enumerate() {
            let seed = plan.seed ^ (0x0971_3150 + j as u64);
            let (f, evals) = optimise::descend(
                obj,
                s,
                plan.optimise,
                plan.integer,
                seed,
                plan.stop_at_violation,
            )?;
            t.report.searched.add("optimiser", evals);
            t.record(&f.loads, f.eval, "optimiser");
            if stop(&t) {
                break;
            }
        }
    }
    // Shrink a violation that proptest did not already shrink.
    if let Some(v) = t.violation.take() {
        let v = if v.phase == "random" {
            v
        } else {
            let (s, evals) = shrink::shrink(obj, v, plan.integer)?;
            t.report.searched.add("shrink", evals);
            s
        };
        t.report.violation = Some(v);
    }
    t.report.worst = t.best.first().cloned();
    if let (Some(v), Some(w)) = (&t.report.violation, &t.report.worst)
        && v.eval.slack < w.eval.slack
    {
        t.report.worst = Some(v.clone());
    }
    Ok(t.report)
}
