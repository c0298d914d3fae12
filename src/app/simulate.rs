//! `balloc simulate` and the Python `simulate`: Monte Carlo runs of a process with a summary.
//! A [`SimulateRequest`] is a validated configuration ([`crate::sim::Config`]) and plan
//! ([`crate::sim::Plan`]); its errors name the command line's flags (`--n`, `--runs`, …) in both
//! front ends, and both run it the same way ([`crate::sim::run_all`]).
//!
//! The summary intervals are Student-t intervals of the mean,
//! `mean ± t_{(1+c)/2, R−1}·s/√R` at confidence c over R runs; run `i` is seeded from
//! (configuration, seed, `i`), so the output depends on neither the thread count nor the machine.

use crate::loads::TieRule;
use crate::potential::Potential;
use crate::process::Process;
use crate::sim::{self, Config, Plan, SimOutput};
use crate::weights::WeightLaw;
use anyhow::{Context, Result, bail};
use std::sync::Arc;

/// The numbers and names of a simulation request besides its process and potentials, with the
/// command line's defaults ([`SimulateArgs::new`]).
#[derive(Debug, Clone)]
pub struct SimulateArgs {
    /// Number of bins n ≥ 1 (`--n`).
    pub n: usize,
    /// Balls per run m ≥ 1 (`--balls`).
    pub balls: u64,
    /// Batch size b ≥ 1 (`--batch`; 1 = sequential).
    pub batch: u64,
    /// Weight law (`--weights`), e.g. `unit`, `exp(1)`.
    pub weights: String,
    /// Tie rule (`--ties`): `random` or `fixed`.
    pub ties: String,
    /// Runs R ≥ 1 (`--runs`).
    pub runs: u64,
    /// Base seed (`--seed`).
    pub seed: u64,
    /// Confidence level c ∈ (0, 1) of the summary intervals (`--confidence`).
    pub confidence: f64,
    /// Checkpoints of a trajectory to record (`--trajectory`; 0 = none).
    pub trajectory: usize,
    /// Record the final loads (`--histogram`).
    pub histogram: bool,
}

impl SimulateArgs {
    /// `n` bins and `balls` balls a run, with the defaults of `balloc simulate`: b = 1, unit
    /// weights, random ties, 10 runs, seed 0, 95 % intervals, no trajectory, no histogram.
    pub fn new(n: usize, balls: u64) -> SimulateArgs {
        SimulateArgs {
            n,
            balls,
            batch: 1,
            weights: "unit".into(),
            ties: "random".into(),
            runs: 10,
            seed: 0,
            confidence: 0.95,
            trajectory: 0,
            histogram: false,
        }
    }
}

/// A validated simulation: the configuration and the plan.
pub struct SimulateRequest {
    /// The process with n, b, the weight law and the tie rule.
    pub config: Config,
    /// Balls, runs, seed, potentials, trajectory, histogram and confidence.
    pub plan: Plan,
}

/// The library's error with the plan's and configuration's field names replaced by the command
/// line's flags (`invalid runs:` → `invalid --runs:`).
fn flagged(e: crate::Error) -> anyhow::Error {
    let mut s = e.to_string();
    for (field, flag) in [
        ("invalid n:", "invalid --n:"),
        ("invalid batch:", "invalid --batch:"),
        ("invalid runs:", "invalid --runs:"),
        ("invalid balls × runs:", "invalid --balls × --runs:"),
        ("invalid trajectory:", "invalid --trajectory:"),
    ] {
        s = s.replace(field, flag);
    }
    anyhow::anyhow!("{s}")
}

/// A process of the request from its spec (graph files read from the current folder).
pub fn process(spec: &str) -> Result<Arc<dyn Process>> {
    Ok(Arc::from(
        crate::process::parse_with(spec, &crate::input::Dir::current()).map_err(flagged)?,
    ))
}

/// A potential of the request from its spec; errors name `--potential` and the spec.
pub fn potential(spec: &str) -> Result<Arc<dyn Potential>> {
    Ok(Arc::from(
        crate::potential::parse(spec).with_context(|| format!("--potential `{spec}`"))?,
    ))
}

impl SimulateRequest {
    /// The request of a parsed process and potentials: validates the configuration at n, the
    /// runs, balls and confidence, and the plan's limits ([`sim::check_plan`]); errors name the
    /// flags.
    ///
    /// ```
    /// use balloc::app::simulate::{SimulateArgs, SimulateRequest};
    /// let mut a = SimulateArgs::new(4, 8);
    /// a.runs = 0;
    /// let e = SimulateRequest::parse("two-choice", &[], &a).err().unwrap();
    /// assert_eq!(e.to_string(), "invalid --runs: must be at least 1, got 0");
    /// a.runs = 3;
    /// let out = SimulateRequest::parse("one-choice", &[], &a).unwrap().run(&|| {}, &|| false).unwrap();
    /// // Three runs of 8 balls: each run's loads sum to 8, so its mean load is 8/4 = 2.
    /// assert_eq!(out.runs.len(), 3);
    /// assert!(out.runs.iter().all(|r| r.balls == 8));
    /// ```
    pub fn new(
        process: Arc<dyn Process>,
        potentials: Vec<Arc<dyn Potential>>,
        a: &SimulateArgs,
    ) -> Result<SimulateRequest> {
        let config = (|| {
            Config::new(
                process,
                a.n,
                a.batch,
                WeightLaw::parse(&a.weights)?,
                TieRule::parse(&a.ties)?,
            )
        })()
        .map_err(flagged)?;
        check_numbers(a)?;
        SimulateRequest::of(config, potentials, a)
    }

    /// The request of spec texts, as the command line has them (`--process`, `--potential`).
    pub fn parse(
        process_spec: &str,
        potentials: &[String],
        a: &SimulateArgs,
    ) -> Result<SimulateRequest> {
        let process = process(process_spec)?;
        let pots = potentials
            .iter()
            .map(|p| potential(p))
            .collect::<Result<Vec<_>>>()?;
        SimulateRequest::new(process, pots, a)
    }

    /// The request of a validated configuration and numbers: the plan and its limits.
    fn of(
        config: Config,
        potentials: Vec<Arc<dyn Potential>>,
        a: &SimulateArgs,
    ) -> Result<SimulateRequest> {
        let mut plan = Plan::new(a.balls, a.runs, a.seed);
        plan.confidence = a.confidence;
        plan.histogram = a.histogram;
        plan.trajectory = a.trajectory;
        plan.potentials = potentials;
        sim::check_plan(&config, &plan).map_err(flagged)?;
        Ok(SimulateRequest { config, plan })
    }

    /// Runs the request on the current rayon pool ([`sim::run_all`]): `tick` after each run;
    /// when `stopped()` turns true, the runs not started are skipped and the result is the error
    /// `interrupted`.
    pub fn run(
        &self,
        tick: &(dyn Fn() + Sync),
        stopped: &(dyn Fn() -> bool + Sync),
    ) -> Result<SimOutput> {
        let runs = sim::run_all(&self.config, &self.plan, tick, stopped).map_err(flagged)?;
        Ok(sim::output(&self.config, &self.plan, runs)?)
    }
}

/// The runs, balls and confidence of the arguments: at least one run and one ball, c ∈ (0, 1).
fn check_numbers(a: &SimulateArgs) -> Result<()> {
    if a.runs == 0 {
        bail!("invalid --runs: must be at least 1, got 0");
    }
    if a.balls == 0 {
        bail!("invalid --balls: must be at least 1, got 0");
    }
    if !(a.confidence > 0.0 && a.confidence < 1.0) {
        bail!(
            "invalid --confidence: must lie in (0, 1), got {}",
            a.confidence
        );
    }
    Ok(())
}
