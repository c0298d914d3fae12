//! Random states drawn by a proptest strategy: integer load vectors at three scales (loads up to
//! 8, up to 4n, up to 1000). A violation is shrunk by proptest to a minimal vector (every entry
//! as small as it can be while the claim still fails) and its seed is persisted in a regression
//! file, replayed first on the next run. The generator is proptest's ChaCha, seeded from the plan.

use super::{Eval, Found, Objective, Plan};
use crate::error::Result;
use proptest::prelude::*;
use proptest::test_runner::{
    Config, FileFailurePersistence, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner,
};
use std::cell::{Cell, RefCell};

/// What the random phase found.
#[derive(Debug, Clone, Default)]
pub struct RandomOutcome {
    /// The number of evaluations (cases and shrink steps).
    pub evaluations: u64,
    /// The shrunk violation, if any.
    pub failure: Option<Found>,
    /// The few states of smallest slack among the cases (optimiser starts).
    pub sample: Vec<(Vec<f64>, Eval)>,
}

/// The strategy: integer load vectors of length `n` at three scales.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// let s = balloc::search::random::loads_strategy(5);
/// let v = s.new_tree(&mut TestRunner::deterministic()).unwrap().current();
/// assert_eq!(v.len(), 5);
/// assert!(v.iter().all(|x| x.fract() == 0.0 && *x >= 0.0 && *x <= 1000.0));
/// ```
pub fn loads_strategy(n: usize) -> impl Strategy<Value = Vec<f64>> {
    let wide = (4 * n as u32).max(8);
    prop_oneof![
        proptest::collection::vec(0u32..=8, n),
        proptest::collection::vec(0u32..=wide, n),
        proptest::collection::vec(0u32..=1000, n),
    ]
    .prop_map(|v| v.into_iter().map(f64::from).collect())
}

/// The regression file for a plan, leaked to the `'static` lifetime proptest requires (one
/// small string per theorem file and n).
fn persistence(plan: &Plan) -> Option<Box<dyn proptest::test_runner::FailurePersistence>> {
    let path = plan.regressions.as_ref()?;
    if let Some(dir) = path.parent() {
        let _ = crate::output::ensure_dir(dir);
    }
    let s: &'static str = Box::leak(path.display().to_string().into_boxed_str());
    Some(Box::new(FileFailurePersistence::Direct(s)))
}

/// Runs `plan.random` proptest cases at `n` bins.
pub fn run(obj: &dyn Objective, n: usize, plan: &Plan) -> Result<RandomOutcome> {
    let config = Config {
        cases: plan.random,
        failure_persistence: persistence(plan),
        max_shrink_iters: 4096,
        fork: false,
        timeout: 0,
        verbose: 0,
        rng_algorithm: RngAlgorithm::ChaCha,
        ..Config::default()
    };
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&plan.seed.to_le_bytes());
    seed[8..16].copy_from_slice(&(n as u64).to_le_bytes());
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
    let evaluations = Cell::new(0u64);
    let error: RefCell<Option<crate::Error>> = RefCell::new(None);
    let sample: RefCell<Vec<(Vec<f64>, Eval)>> = RefCell::new(Vec::new());
    let keep = plan.starts.max(1);
    let result = runner.run(&loads_strategy(n), |x| {
        evaluations.set(evaluations.get() + 1);
        match obj.eval(&x) {
            Ok(e) => {
                if obj.violates(&e) {
                    return Err(TestCaseError::fail(format!("slack {}", e.slack)));
                }
                let mut s = sample.borrow_mut();
                if s.len() < keep || s.iter().any(|(_, f)| e.slack < f.slack) {
                    s.push((x, e));
                    s.sort_by(|a, b| {
                        a.1.slack
                            .partial_cmp(&b.1.slack)
                            .unwrap_or(std::cmp::Ordering::Equal)
                    });
                    s.truncate(keep);
                }
                Ok(())
            }
            Err(err) => {
                error.borrow_mut().get_or_insert(err);
                Ok(())
            }
        }
    });
    if let Some(e) = error.into_inner() {
        return Err(e);
    }
    let failure = match result {
        Ok(()) => None,
        Err(TestError::Fail(_, x)) => {
            let eval = obj.eval(&x)?;
            Some(Found {
                loads: x,
                eval,
                phase: "random".into(),
            })
        }
        Err(TestError::Abort(r)) => {
            return Err(crate::Error::Unsupported(format!(
                "random search aborted: {r}"
            )));
        }
    };
    Ok(RandomOutcome {
        evaluations: evaluations.get(),
        failure,
        sample: sample.into_inner(),
    })
}
