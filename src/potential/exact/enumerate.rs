//! The exact brute-force enumerator: `E[f(x') | x]` as a finite sum over every outcome sequence
//! of a batch and every weight of a finite weight law, in rationals. It is the independent route
//! against which the exact closed forms are tested (docs/derivations.md §4, "enumeration form").

use crate::error::{Error, Result};
use crate::exact::Q;
use crate::process::ExactStepLaw;
use crate::setting::ExactSetting;
use num_traits::{One, Zero};

/// The largest number of leaves the enumerator visits.
pub const LIMIT: u64 = 2_000_000;

/// `E[f(x') | x]` where `x'` is `x` after one batch of `setting.batch` samples of `law` (frozen at
/// `x`), each sample adding the weights of its balls (finite weight laws only) to its bin.
///
/// ```
/// use balloc::exact::int;
/// use balloc::potential::exact::enumerate;
/// use balloc::potential::exact::quadratic;
/// use balloc::setting::ExactSetting;
/// use balloc::process::ExactStepLaw;
/// // One-Choice, n = 2, from (0, 0): one ball gives Υ' = 1/2 whichever bin it hits.
/// let e = enumerate::brute_force(&ExactStepLaw::uniform(2).unwrap(), &[int(0), int(0)],
///                                &ExactSetting::sequential(), &quadratic::value).unwrap();
/// assert_eq!(e, balloc::exact::Q::new(1.into(), 2.into()));
/// ```
pub fn brute_force(
    law: &ExactStepLaw,
    x: &[Q],
    setting: &ExactSetting,
    f: &dyn Fn(&[Q]) -> Q,
) -> Result<Q> {
    let support = setting.weights.support().ok_or_else(|| {
        Error::Unsupported("exact enumeration needs a finite weight law".to_string())
    })?;
    if law.n != x.len() {
        return Err(Error::invalid(
            "allocation vector",
            format!("has {} bins but there are {} loads", law.n, x.len()),
        ));
    }
    let too_many = || {
        Error::Unsupported(format!(
            "the exact enumeration would visit more than {LIMIT} outcomes"
        ))
    };
    let mut branches: Vec<(usize, Q, Q)> = Vec::new();
    for o in law.outcomes.iter().filter(|o| !o.prob.is_zero()) {
        let mut partial = vec![(Q::zero(), o.prob.clone())];
        for _ in 0..o.balls {
            let mut next = Vec::new();
            for (w0, p0) in &partial {
                for (w, p) in &support {
                    next.push((w0 + w, p0 * p));
                }
            }
            partial = next;
            if partial.len() as u64 > LIMIT {
                return Err(too_many());
            }
        }
        branches.extend(partial.into_iter().map(|(w, p)| (o.bin, w, p)));
    }
    if (branches.len() as f64).powf(setting.batch as f64) > LIMIT as f64 {
        return Err(too_many());
    }
    let mut x = x.to_vec();
    let mut acc = Q::zero();
    recurse(&branches, setting.batch, &Q::one(), &mut x, f, &mut acc);
    Ok(acc)
}

fn recurse(
    branches: &[(usize, Q, Q)],
    left: u64,
    prob: &Q,
    x: &mut Vec<Q>,
    f: &dyn Fn(&[Q]) -> Q,
    acc: &mut Q,
) {
    if left == 0 {
        *acc += prob * f(x);
        return;
    }
    for (bin, w, p) in branches {
        x[*bin] += w;
        recurse(branches, left - 1, &(prob * p), x, f, acc);
        x[*bin] -= w;
    }
}
