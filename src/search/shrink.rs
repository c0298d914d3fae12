//! Shrinking a violation to a small one: translate so that the minimum load is 0 (the claims see
//! only `y = x − W/n`), round to integers if the violation survives, then greedily lower single
//! loads (to the minimum, by half, by one) while the claim still fails.

use super::{Found, Objective};
use crate::error::Result;

/// The largest number of evaluations spent shrinking.
pub const SHRINK_BUDGET: u64 = 4000;

/// Shrinks a violating state; returns the smallest violating state found and the evaluations.
///
/// ```
/// use balloc::claim::XFloat;
/// use balloc::search::{Eval, Found, Objective, shrink::shrink};
/// // Claim: x₀ + x₁ + x₂ − 3·min ≤ 4 (sum of excesses). (9, 7, 5) violates it.
/// struct S;
/// impl Objective for S {
///     fn n(&self) -> usize { 3 }
///     fn eval(&self, x: &[f64]) -> balloc::Result<Eval> {
///         let m = x.iter().cloned().fold(f64::MAX, f64::min);
///         let l = XFloat::from_f64(x.iter().map(|v| v - m).sum());
///         let r = XFloat::from_f64(4.0);
///         Ok(Eval { lhs: l, rhs: r, slack: r.sub(l) })
///     }
///     fn violates(&self, e: &Eval) -> bool { e.slack < XFloat::ZERO }
/// }
/// let x = vec![9.0, 7.0, 5.0];
/// let v = Found { eval: S.eval(&x).unwrap(), loads: x, phase: "t".into() };
/// let (s, _) = shrink(&S, v, true).unwrap();
/// assert_eq!(s.loads.iter().sum::<f64>(), 5.0); // the smallest violating excess
/// ```
pub fn shrink(obj: &dyn Objective, v: Found, integer: bool) -> Result<(Found, u64)> {
    let mut evals = 0u64;
    let mut best = v;
    let try_state = |x: Vec<f64>, best: &mut Found, evals: &mut u64| -> Result<bool> {
        *evals += 1;
        let e = obj.eval(&x)?;
        if obj.violates(&e) {
            *best = Found {
                loads: x,
                eval: e,
                phase: best.phase.clone(),
            };
            return Ok(true);
        }
        Ok(false)
    };
    let min = best.loads.iter().copied().fold(f64::INFINITY, f64::min);
    if min != 0.0 && min.is_finite() {
        let x: Vec<f64> = best.loads.iter().map(|v| v - min).collect();
        try_state(x, &mut best, &mut evals)?;
    }
    if !best.loads.iter().all(|v| v.fract() == 0.0) {
        let x: Vec<f64> = best.loads.iter().map(|v| v.round()).collect();
        try_state(x, &mut best, &mut evals)?;
    }
    let int = integer || best.loads.iter().all(|v| v.fract() == 0.0);
    let mut changed = true;
    while changed && evals < SHRINK_BUDGET {
        changed = false;
        for i in 0..best.loads.len() {
            let cur = best.loads[i];
            if cur <= 0.0 {
                continue;
            }
            let half = if int { (cur / 2.0).floor() } else { cur / 2.0 };
            let mut cands = vec![0.0, half];
            if int {
                cands.push(cur - 1.0);
            }
            for c in cands {
                if c >= cur || evals >= SHRINK_BUDGET {
                    continue;
                }
                let mut x = best.loads.clone();
                x[i] = c;
                if try_state(x, &mut best, &mut evals)? {
                    changed = true;
                    break;
                }
            }
        }
    }
    Ok((best, evals))
}
