//! The allocation vectors of the quantifier "every sorted p with C1(δ, ε) and C2(C)" of
//! `[setting.vectors]`: the extremal step vector q of eq. (3.2) of Los–Sauerwald (SPAA 2022),
//! step vectors with a larger bias or a later step that still meet both conditions, and random
//! sorted vectors pushed to the boundary of C1.

use crate::claim::case::Alloc;
use crate::condition::{best_c, c1_violation, c2_violation};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use num_traits::{One, ToPrimitive, Zero};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn ratio_f64(r: &Q) -> f64 {
    r.to_f64().unwrap_or(f64::NAN)
}

/// The allocation vectors of the quantifier "every sorted p with C1(δ, ε) and C2(C)" at n: step
/// vectors (eq. (3.2) of Los–Sauerwald, SPAA 2022, and step vectors with a larger bias or a later
/// step that still meet both conditions) and `random` vectors mixing a random non-decreasing
/// vector with the most biased step vector, pushed to the boundary of C1 by bisection.
pub fn vectors(
    n: usize,
    delta: &Q,
    eps: &Q,
    c2: &Q,
    random: usize,
    seed: u64,
) -> Result<Vec<Alloc>> {
    let k = crate::condition::delta_n(n, delta)?;
    let nn = Q::from_integer(Int::from(n));
    let one = Q::one();
    let step = |kk: usize, e: &Q| -> Option<Vec<Q>> {
        // heavy part (1 − e)/n on ranks ≤ kk, light part chosen so the sum is 1.
        let a = (&one - e) / &nn;
        let rest = &one - &a * Q::from_integer(Int::from(kk));
        let b = rest / Q::from_integer(Int::from(n - kk));
        if b < a {
            return None;
        }
        Some(
            (0..n)
                .map(|i| if i < kk { a.clone() } else { b.clone() })
                .collect(),
        )
    };
    let ok = |p: &[Q]| c1_violation(p, k, eps).is_none() && c2_violation(p, c2).is_none();
    // The largest bias whose step vector at k meets C2: 1 + e·k/(n − k) ≤ C.
    let kn = Q::from_integer(Int::from(k));
    let nk = Q::from_integer(Int::from(n - k));
    let emax = ((c2 - &one) * &nk / &kn).min(one.clone() - Q::new(1.into(), 1000.into()));
    let mut cands: Vec<(String, Vec<Q>)> = Vec::new();
    let q = step(k, eps).ok_or_else(|| Error::invalid("vectors", "ε ≥ 1 leaves no step vector"))?;
    if !ok(&q) {
        return Err(Error::invalid(
            "[setting.vectors]",
            format!(
                "the extremal vector q of eq. (3.2) violates C2({c2}) at n = {n}: C must be at least n·max q = {}",
                best_c(&q).c
            ),
        ));
    }
    cands.push((format!("q(delta={delta},eps={eps})"), q));
    let emid = (eps + &emax) / Q::from_integer(2.into());
    for e in [emid, emax.clone()] {
        for kk in [k, k + 1, k + 2, (k + n) / 2] {
            if kk >= 1
                && kk < n
                && let Some(v) = step(kk, &e)
                && ok(&v)
                && !cands.iter().any(|(_, c)| *c == v)
            {
                cands.push((format!("step(k={kk},eps={e})"), v));
            }
        }
    }
    let strongest = step(k, &emax)
        .filter(|v| ok(v))
        .unwrap_or_else(|| cands[0].1.clone());
    let strongest_f: Vec<f64> = strongest.iter().map(ratio_f64).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (n as u64).wrapping_mul(0x51_7cc1_b727_220a));
    let eps_f = ratio_f64(eps);
    let c2_f = ratio_f64(c2);
    for j in 0..random {
        let mut r: Vec<f64> = (0..n)
            .map(|_| rng.random_range(0.0..1.0f64).powi(1 + (j % 3) as i32))
            .collect();
        r.sort_by(|a, b| a.total_cmp(b));
        let s: f64 = r.iter().sum();
        r.iter_mut().for_each(|v| *v /= s);
        let mix = |l: f64| -> Vec<f64> {
            r.iter()
                .zip(&strongest_f)
                .map(|(a, b)| (1.0 - l) * a + l * b)
                .collect()
        };
        let pass = |p: &[f64]| {
            c1_violation(p, k, &(eps_f * (1.0 + 1e-9))).is_none()
                && c2_violation(p, &(c2_f * (1.0 - 1e-9))).is_none()
        };
        let (mut lo, mut hi) = (0.0, 1.0);
        if pass(&mix(0.0)) {
            hi = 0.0;
        } else {
            for _ in 0..40 {
                let m = 0.5 * (lo + hi);
                if pass(&mix(m)) {
                    hi = m;
                } else {
                    lo = m;
                }
            }
        }
        let p = mix(hi);
        if !pass(&p) {
            continue;
        }
        // Exact companion: the dyadic values, renormalised to sum 1.
        let ex: Vec<Q> = p
            .iter()
            .map(|v| crate::exact::from_float(*v).unwrap_or_else(Q::zero))
            .collect();
        let sum: Q = ex.iter().fold(Q::zero(), |a, b| a + b);
        let ex: Vec<Q> = ex.into_iter().map(|v| v / &sum).collect();
        cands.push((format!("random#{j}"), ex));
    }
    Ok(cands
        .into_iter()
        .map(|(label, exact)| Alloc::Vector {
            label,
            p: exact.iter().map(ratio_f64).collect(),
            exact,
        })
        .collect())
}
