//! Stopping times of simulated runs: the first time an event of the state holds, as a per-run
//! statistic, with runs that never see it within the budget kept as **censored**.
//!
//! A run starts from the model's start state (after an optional burn-in, which opens the window)
//! and is checked at the window's start and then every `every` balls (a multiple of the batch, so
//! every check is an observation point) up to `horizon` balls; the hitting time `T` is the number
//! of balls from the window's start to the first check at which the event holds. The true first
//! time lies in `(T − every, T]`; a run whose event never holds at a check is censored: `T >
//! horizon`. The event sees an [`Observation`]: the gap, the spread, the fraction of bins with
//! `y ≥ 0` (the mean quantile), a potential's value (overflow-safe) and the balls so far.
//!
//! Decisions under censoring ([`judge`], `docs/derivations.md` §14):
//!
//! * `P[T ≤ t] ≥ 1 − q` / `P[T ≥ t] ≥ 1 − q`: a censored run is known to fail (`≤`) or succeed
//!   (`≥`) when `t ≤ horizon`; when `t > horizon` it is unknown, and the Clopper–Pearson interval
//!   runs from the lower end for the known successes to the upper end for the known successes plus
//!   the unknown runs (it covers the true probability at the level whatever the unknown runs do);
//! * `E[T] ≤ t` / `E[T] ≥ t`: without censored runs the Student-t interval of the sample mean;
//!   with censored runs the interval of the restricted mean `E[min(T, horizon)] ≤ E[T]`, whose
//!   lower end bounds `E[T]` from below while its upper end is `+∞`: such a claim can then be
//!   refuted (`≤`) or hold (`≥`), never the other way; a probability claim says more.
//!
//! Runs are seeded exactly as [`crate::sim::run_one`] seeds them (configuration key, seed, run
//! index), in parallel, so the times do not depend on the thread count.

use super::statistic::{Decision, Estimate, Side, mean_ci, proportion_ci};
use super::{Model, Plan};
use crate::error::{Error, Result};
use crate::loads::Loads;
use crate::potential::Potential;
use crate::rng::{run_rng, run_seed};
use crate::xfloat::XFloat;
use rayon::prelude::*;
use std::sync::Arc;

/// The state of a run at a check.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Observation {
    /// Balls since the window's start.
    pub balls: u64,
    /// `max x − W/n`.
    pub gap: f64,
    /// `max x − min x`.
    pub spread: f64,
    /// The fraction of bins with `y ≥ 0` (`n·x ≥ W`, exact for integer loads).
    pub quantile: f64,
    /// The value of the watched potential (`None` without one).
    pub potential: Option<XFloat>,
}

/// When a run is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checks {
    /// Balls between checks (a positive multiple of the model's batch).
    pub every: u64,
    /// The budget: the last check is at `horizon` balls after the window's start.
    pub horizon: u64,
}

/// A hitting time: the balls to the first check where the event held, or censored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hit {
    /// The event held at this check (balls since the window's start).
    At(u64),
    /// The event did not hold at any check up to the horizon.
    Censored,
}

impl Hit {
    /// The time as a number, `+∞` when censored.
    pub fn value(self) -> f64 {
        match self {
            Hit::At(t) => t as f64,
            Hit::Censored => f64::INFINITY,
        }
    }
}

/// The observation of a system (the potential only when asked for).
fn observe(
    sys: &dyn super::System,
    balls: u64,
    potential: Option<&dyn Potential>,
) -> Result<Observation> {
    let n = sys.n();
    let nf = n as f64;
    let w = sys.total();
    let levels = sys.levels();
    let quantile = levels
        .iter()
        .filter(|l| nf * l.0 - w >= 0.0)
        .map(|l| l.1)
        .sum::<u64>() as f64
        / nf;
    let potential = match potential {
        None => None,
        Some(p) => {
            let mut x = Vec::with_capacity(n);
            for &(v, c) in &levels {
                x.extend(std::iter::repeat_n(v, c as usize));
            }
            Some(p.value(&Loads::new(x)?))
        }
    };
    Ok(Observation {
        balls,
        gap: sys.max_load() - w / nf,
        spread: sys.max_load() - sys.min_load(),
        quantile,
        potential,
    })
}

/// The hitting time of run `run` of `model` under `plan` (its start state, burn-in, seed and
/// stream; `plan.balls` is ignored: the window is `checks.horizon` balls).
pub fn first_hit(
    model: &dyn Model,
    plan: &Plan,
    run: u64,
    checks: Checks,
    potential: Option<&dyn Potential>,
    event: &(dyn Fn(&Observation) -> Result<bool> + Sync),
) -> Result<Hit> {
    let key = plan.stream.clone().unwrap_or_else(|| model.key());
    let mut rng = run_rng(run_seed(&key, plan.seed, run));
    let mut sys = match &plan.start {
        Some(s) => model.build_from(s)?,
        None => model.build()?,
    };
    if plan.burn_in > 0 {
        sys.run_until(plan.burn_in, &mut rng)?;
    }
    let b0 = sys.balls();
    let mut next = b0;
    loop {
        let t = sys.balls() - b0;
        if event(&observe(sys.as_ref(), t, potential)?)? {
            return Ok(Hit::At(t));
        }
        if t >= checks.horizon {
            return Ok(Hit::Censored);
        }
        next = (next + checks.every).min(b0 + checks.horizon);
        sys.run_until(next, &mut rng)?;
    }
}

/// The hitting times of `plan.runs` runs in index order (parallel; the same times at any thread
/// count). `checks.every` must be a positive multiple of the model's batch.
///
/// ```
/// use balloc::sim::{Config, Plan, start::Start, stopping::{hitting_times, Checks, Hit}};
/// use std::sync::Arc;
/// // Two-Choice on 4 bins from (8, 0, 0, 0): the gap 6 must come down to at most 2, which takes
/// // at least (6 − 2)·4 = 16 balls for any process (the heavy bin never loses load; the mean
/// // rises by 1/4 a ball). Two-Choice gets there (its gap returns to O(1)).
/// let cfg = Config::parse("two-choice", 4, 1, "unit", "random").unwrap();
/// let mut plan = Plan::new(1, 20, 3);
/// plan.start = Some(Arc::new(Start::Loads(vec![8.0, 0.0, 0.0, 0.0]).loads(4).unwrap().unwrap()));
/// let checks = Checks { every: 1, horizon: 10_000 };
/// let t = hitting_times(&cfg, &plan, checks, None, &|o| Ok(o.gap <= 2.0)).unwrap();
/// assert!(t.iter().all(|h| matches!(h, Hit::At(x) if *x >= 16)));
/// ```
pub fn hitting_times(
    model: &dyn Model,
    plan: &Plan,
    checks: Checks,
    potential: Option<Arc<dyn Potential>>,
    event: &(dyn Fn(&Observation) -> Result<bool> + Sync),
) -> Result<Vec<Hit>> {
    let b = model.batch().max(1);
    if checks.every == 0 || !checks.every.is_multiple_of(b) {
        return Err(Error::invalid(
            "every",
            format!(
                "must be a positive multiple of the batch size {b}, got {}",
                checks.every
            ),
        ));
    }
    if checks.horizon == 0 {
        return Err(Error::invalid(
            "balls",
            "the horizon must be at least 1 ball",
        ));
    }
    // Validate before spawning work.
    match &plan.start {
        Some(s) => model.build_from(s)?,
        None => model.build()?,
    };
    let pot = potential.as_deref();
    (0..plan.runs)
        .into_par_iter()
        .map(|i| first_hit(model, plan, i, checks, pot, event))
        .collect()
}

/// The per-configuration decision on hitting times with censoring (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Censored {
    /// The interval for the claimed quantity (probability or mean).
    pub estimate: Estimate,
    /// What the estimate is compared with (`1 − q`, or the mean's threshold).
    pub target: f64,
    /// `holds` / `refuted` / `inconclusive`.
    pub decision: Decision,
    /// The signed distance of the interval from the target on the claimed side (≥ 0 iff holds).
    pub margin: f64,
    /// Runs censored at the horizon.
    pub censored: usize,
    /// Runs whose event status is unknown because of censoring (probability claims).
    pub unknown: usize,
}

/// The claim on hitting times at one configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimeClaim {
    /// `E[T] side threshold`.
    Mean(Side),
    /// `P[T side threshold] ≥ 1 − q`.
    Probability {
        /// `≤` or `≥`.
        side: Side,
        /// The allowed failure probability.
        q: f64,
    },
}

/// Decides a claim on the hitting times `times` (`+∞` = censored) of one configuration whose
/// horizon is `horizon` balls, at confidence `level`.
///
/// ```
/// use balloc::sim::stopping::{judge, TimeClaim};
/// use balloc::sim::statistic::{Decision, Side};
/// let t = [5.0, 7.0, f64::INFINITY, 6.0];
/// // P[T ≤ 10] with horizon 20: the censored run is known to fail (T > 20): 3 of 4.
/// let j = judge(&t, 20.0, TimeClaim::Probability { side: Side::AtMost, q: 0.5 }, 10.0, 0.9).unwrap();
/// assert_eq!((j.censored, j.unknown), (1, 0));
/// // With the threshold past the horizon the censored run is unknown.
/// let j = judge(&t, 20.0, TimeClaim::Probability { side: Side::AtMost, q: 0.5 }, 30.0, 0.9).unwrap();
/// assert_eq!(j.unknown, 1);
/// // E[T] ≤ 100 cannot hold with a censored run (E[T] may be infinite) ...
/// let j = judge(&t, 20.0, TimeClaim::Mean(Side::AtMost), 100.0, 0.9).unwrap();
/// assert_eq!(j.decision, Decision::Inconclusive);
/// assert_eq!(j.estimate.ci_high, f64::INFINITY);
/// // ... but E[T] ≥ 1 holds: the restricted mean of (5, 7, 20, 6) is far above 1.
/// let j = judge(&t, 20.0, TimeClaim::Mean(Side::AtLeast), 1.0, 0.9).unwrap();
/// assert_eq!(j.decision, Decision::Holds);
/// ```
pub fn judge(
    times: &[f64],
    horizon: f64,
    claim: TimeClaim,
    threshold: f64,
    level: f64,
) -> Result<Censored> {
    let censored = times.iter().filter(|t| t.is_infinite()).count();
    match claim {
        TimeClaim::Probability { side, q } => {
            if !(0.0..=1.0).contains(&q) {
                return Err(Error::invalid(
                    "[claim] q",
                    format!("must lie in [0, 1], got {q}"),
                ));
            }
            let (mut yes, mut unknown) = (0u64, 0usize);
            for &t in times {
                let known = match (t.is_finite(), side) {
                    (true, Side::AtMost) => Some(t <= threshold),
                    (true, Side::AtLeast) => Some(t >= threshold),
                    // Censored: T > horizon.
                    (false, Side::AtMost) => (threshold <= horizon).then_some(false),
                    (false, Side::AtLeast) => (threshold <= horizon).then_some(true),
                };
                match known {
                    Some(true) => yes += 1,
                    Some(false) => {}
                    None => unknown += 1,
                }
            }
            let r = times.len() as u64;
            let lo = proportion_ci(yes, r, level)?;
            let hi = proportion_ci(yes + unknown as u64, r, level)?;
            let estimate = Estimate {
                ci_high: hi.ci_high,
                ..lo
            };
            let target = 1.0 - q;
            let decision = estimate.decide(Side::AtLeast, target);
            Ok(Censored {
                estimate,
                target,
                decision,
                margin: estimate.ci_low - target,
                censored,
                unknown,
            })
        }
        TimeClaim::Mean(side) => {
            let capped: Vec<f64> = times.iter().map(|t| t.min(horizon)).collect();
            let mut estimate = mean_ci(&capped, level)?;
            if censored > 0 {
                estimate.ci_high = f64::INFINITY;
            }
            let decision = estimate.decide(side, threshold);
            let margin = match side {
                Side::AtMost => threshold - estimate.ci_high,
                Side::AtLeast => estimate.ci_low - threshold,
            };
            Ok(Censored {
                estimate,
                target: threshold,
                decision,
                margin,
                censored,
                unknown: 0,
            })
        }
    }
}
