//! A local optimiser of the slack: from a start state, repeatedly move mass between two bins
//! (or add/remove mass at one bin, which changes `y` like moving it to/from all the others) and
//! keep the move when the slack decreases; the step halves after `2n` failed moves in a row.
//! Integer mode keeps the loads integral (steps ≥ 1).

use super::{Found, Objective};
use crate::error::Result;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Descends from `start` for at most `budget` evaluations; returns the best state and the number
/// of evaluations.
///
/// ```
/// use balloc::claim::XFloat;
/// use balloc::search::{Eval, Found, Objective, optimise::descend};
/// // Minimise x₀ − x₁ (claim "x₀ − x₁ ≥ −3"); from (0, 0) the optimiser pushes it below −3.
/// struct D;
/// impl Objective for D {
///     fn n(&self) -> usize { 2 }
///     fn eval(&self, x: &[f64]) -> balloc::Result<Eval> {
///         let (l, r) = (XFloat::from_f64(x[0] - x[1]), XFloat::from_f64(-3.0));
///         Ok(Eval { lhs: l, rhs: r, slack: l.sub(r) })
///     }
///     fn violates(&self, e: &Eval) -> bool { e.slack < XFloat::ZERO }
/// }
/// let start = Found { loads: vec![0.0, 0.0], eval: D.eval(&[0.0, 0.0]).unwrap(), phase: "x".into() };
/// let (best, _) = descend(&D, &start, 200, true, 7, true).unwrap();
/// assert!(D.violates(&best.eval));
/// ```
pub fn descend(
    obj: &dyn Objective,
    start: &Found,
    budget: u32,
    integer: bool,
    seed: u64,
    stop_at_violation: bool,
) -> Result<(Found, u64)> {
    let n = start.loads.len();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut x = start.loads.clone();
    let mut best = start.eval;
    let (lo, hi) = x
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let spread = if hi > lo { hi - lo } else { 1.0 };
    let min_step = if integer { 1.0 } else { spread.max(1.0) * 1e-6 };
    let mut step = (spread / 4.0).max(1.0);
    if integer {
        step = step.round();
    }
    let mut fails = 0usize;
    let mut evals = 0u64;
    while evals < budget as u64 {
        let i = rng.random_range(0..n);
        let mut j = rng.random_range(0..n);
        if n > 1 && j == i {
            j = (j + 1) % n;
        }
        let kind = rng.random_range(0..4u8);
        let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        let s = sign * step;
        let (oi, oj) = (x[i], x[j]);
        match kind {
            0 | 1 if n > 1 => {
                x[i] += s;
                x[j] -= s;
            }
            _ => x[i] += s,
        }
        let e = obj.eval(&x)?;
        evals += 1;
        if e.slack < best.slack {
            best = e;
            fails = 0;
            if stop_at_violation && obj.violates(&e) {
                break;
            }
        } else {
            x[i] = oi;
            x[j] = oj;
            fails += 1;
            if fails > 2 * n {
                fails = 0;
                if step > min_step {
                    step = if integer {
                        (step / 2.0).floor().max(1.0)
                    } else {
                        step / 2.0
                    };
                }
            }
        }
    }
    Ok((
        Found {
            loads: x,
            eval: best,
            phase: "optimiser".into(),
        },
        evals,
    ))
}
