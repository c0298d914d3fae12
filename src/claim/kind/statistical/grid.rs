//! The grid of configurations of a statistical file: its expressions evaluated at a
//! configuration (`n`, `b`, `m`, the constants, the graph names), the batch sizes, numbers of
//! balls, burn-in, start state and `refresh` at each size, the sizes per effort, and the
//! simulation work checked against the limits before the first run.

use super::quantifiers::{self, ClassSource};
use super::sources::Source;
use super::statistic::Stat;
use super::{StartSpec, Statistical};
use crate::error::{Error, Result};
use crate::lang::{Expr, Float, Slots};

impl Statistical {
    /// The value of `e` at `(n, b, m)` with constants `consts` (the graph names are 0); `what`
    /// names the field in errors.
    pub(super) fn eval(
        &self,
        e: &Expr,
        n: usize,
        b: u64,
        m: u64,
        consts: &[f64],
        what: &str,
    ) -> Result<f64> {
        self.eval_dk(e, n, b, m, consts, [0.0; 4], what)
    }

    /// The quantile level `q` of a probability claim at configuration `p` (an expression in `n`,
    /// `b`, `m`, the constants, the graph's `d`, `k`, `untouched` and the source's `beta`).
    pub(super) fn q_at(&self, p: &super::point::Point, consts: &[f64]) -> Result<f64> {
        let q = self.q.as_ref().expect("probability claims have q");
        self.eval_dk(q, p.n, p.b, p.m, consts, p.dk, "q")
    }

    /// [`Statistical::eval`] with the per-source names of the configuration: the graph's `d`,
    /// `k`, `untouched` and the source's `beta`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn eval_dk(
        &self,
        e: &Expr,
        n: usize,
        b: u64,
        m: u64,
        consts: &[f64],
        dk: [f64; 4],
        what: &str,
    ) -> Result<f64> {
        let mut vals = vec![n as f64, b as f64, m as f64];
        vals.extend_from_slice(consts);
        vals.extend(dk);
        let slots: Vec<crate::lang::Approx> = vals
            .iter()
            .map(|v| crate::lang::Domain::float(&Float, *v))
            .collect::<std::result::Result<_, _>>()
            .map_err(|err| Error::invalid(format!("[claim] {what}"), err.to_string()))?;
        let v = e
            .eval(&Float, &Slots(&slots), None)
            .map_err(|err| Error::invalid(format!("[claim] {what}"), err.to_string()))?
            .v
            .to_f64();
        if !v.is_finite() {
            return Err(Error::invalid(
                format!("[claim] {what}"),
                format!("is {v} at n = {n}, b = {b}"),
            ));
        }
        Ok(v)
    }

    /// The batch size of expression `e` at `n` (a positive integer).
    pub(super) fn batch_at(&self, n: usize, e: &Expr) -> Result<u64> {
        let v = self.eval(e, n, 0, 0, &self.consts, "batch")?;
        let r = v.round();
        if (v - r).abs() > 1e-9 || !(1.0..=1e15).contains(&r) {
            return Err(Error::invalid(
                "[claim] batch",
                format!("must be a positive integer, got {v} at n = {n}"),
            ));
        }
        Ok(r as u64)
    }

    /// The number of balls of expression `e` at `(n, b)` (rounded up, at least 1).
    pub(super) fn balls_at(&self, n: usize, b: u64, e: &Expr) -> Result<u64> {
        let v = self.eval(e, n, b, 0, &self.consts, "balls")?;
        if !(1.0..=1e15).contains(&v.ceil()) {
            return Err(Error::invalid(
                "[claim] balls",
                format!("must be at least 1, got {v} at n = {n}, b = {b}"),
            ));
        }
        Ok(v.ceil() as u64)
    }

    /// The burn-in at `(n, b)` in balls (0 without one).
    pub(super) fn burn_in_at(&self, n: usize, b: u64) -> Result<u64> {
        let Some(e) = &self.burn_in else {
            return Ok(0);
        };
        let v = self.eval(e, n, b, 0, &self.consts, "burn_in")?;
        if !(0.0..=1e15).contains(&v) {
            return Err(Error::invalid(
                "[claim] burn_in",
                format!("must lie in [0, 10^15] balls, got {v} at n = {n}, b = {b}"),
            ));
        }
        Ok(v.ceil() as u64)
    }

    /// The start state at `n`.
    pub(super) fn start_at(&self, n: usize) -> Result<Option<crate::loads::Loads>> {
        use crate::sim::start::Start;
        let count = |e: &Expr| -> Result<f64> { self.eval(e, n, 0, 0, &self.consts, "start") };
        let s = match &self.start {
            StartSpec::Empty => Start::Empty,
            StartSpec::OneBin(e) => {
                let v = count(e)?;
                if !(0.0..=crate::sim::start::MAX_START_BALLS as f64).contains(&v) {
                    return Err(Error::invalid(
                        "[claim] start",
                        format!("one-bin needs 0 to 2^50 balls, got {v} at n = {n}"),
                    ));
                }
                Start::OneBin(v.round() as u64)
            }
            StartSpec::Gap(e) => Start::Gap(count(e)?),
            StartSpec::Loads(v) => Start::Loads(v.clone()),
        };
        s.loads(n)
            .map_err(|e| Error::invalid("[claim] start", e.to_string()))
    }

    /// The grid of n for an effort (the long tier adds `long_n`).
    pub(super) fn grid_n(&self, effort: u32) -> Vec<usize> {
        let mut ns = self.t.file.domain.get_ref().n.clone();
        if effort > 1 {
            ns.extend(&self.long_n);
        }
        ns
    }

    /// The simulation work of the file at the numbers of bins `ns` and `runs` runs per
    /// configuration, in ball steps (`runs × (burn_in + balls)` summed over the configurations,
    /// plus `n` per check of a hitting time), checked against [`crate::limits::SIM_WORK`] before
    /// the first run; the adversaries' linear maximisations (`n^lookahead` rank operations per
    /// decision) against [`crate::limits::ADVERSARY_WORK`].
    pub(super) fn check_work(&self, ns: &[usize], runs: u64, effort: u32) -> Result<()> {
        crate::limits::CHECK_EFFORT.check("effort", u64::from(effort))?;
        let mut total: u128 = 0;
        let mut adversary: u128 = 0;
        for &n in ns {
            for be in &self.batch {
                let b = self.batch_at(n, be)?;
                let burn = self.burn_in_at(n, b)?;
                for me in &self.balls {
                    let m = self.balls_at(n, b, me)?;
                    let mut per_run = u128::from(burn) + u128::from(m);
                    if self.stat == Stat::HittingTime {
                        let every = self.every_at(n, b)?;
                        per_run += (u128::from(m / every) + 2) * n as u128;
                    }
                    total += per_run * u128::from(runs) * self.sources.len() as u128;
                    let decisions = (u128::from(burn) + u128::from(m)).div_ceil(u128::from(b));
                    for s in &self.sources {
                        if let Source::Class(ClassSource {
                            role: quantifiers::ClassRole::Adversary(_, h),
                            ..
                        }) = s
                        {
                            let per = (n as u128).saturating_pow(*h as u32);
                            adversary =
                                adversary.saturating_add(decisions * u128::from(runs) * per);
                        }
                    }
                }
            }
        }
        crate::limits::ADVERSARY_WORK.check_u128(
            "[claim] the adversaries' work: runs × decisions × n^lookahead, summed over the configurations",
            adversary,
        )?;
        crate::limits::SIM_WORK
            .check_u128(
                "[claim] runs × (burn_in + balls + n per check of a hitting time), summed over the configurations",
                total,
            )
            .map(|_| ())
    }

    /// The number of configurations at an effort (the Bonferroni divisor).
    pub(super) fn configurations(&self, effort: u32) -> usize {
        self.grid_n(effort).len() * self.batch.len() * self.balls.len() * self.sources.len()
    }

    /// The largest difference of set averages whose sign the adversary chooses, at `(n, b)`
    /// (0: the strategy itself).
    pub(super) fn adversarial_at(&self, n: usize, b: u64) -> Result<f64> {
        let Some(e) = &self.adversarial else {
            return Ok(0.0);
        };
        let v = self.eval(e, n, b, 0, &self.consts, "adversarial")?;
        if !(v.is_finite() && v >= 0.0) {
            return Err(Error::invalid(
                "[claim] adversarial",
                format!("must be a finite number ≥ 0, got {v} at n = {n}"),
            ));
        }
        Ok(v)
    }

    /// The balls between refreshes of the set loads the flow strategy decides on, at `(n, b)`
    /// (0: decisions on the current loads).
    pub(super) fn refresh_at(&self, n: usize, b: u64) -> Result<u64> {
        let Some(e) = &self.refresh else {
            return Ok(0);
        };
        let v = self.eval(e, n, b, 0, &self.consts, "refresh")?;
        if !(1.0..=1e15).contains(&v) {
            return Err(Error::invalid(
                "[claim] refresh",
                format!("must lie in [1, 10^15] balls, got {v} at n = {n}"),
            ));
        }
        Ok(v.ceil() as u64)
    }
}
