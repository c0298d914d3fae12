//! The load vectors graph claims are checked at: the families (`tied`, `random`, `zigzag`,
//! `permutations`) and explicit `states`, per graph size.

use crate::claim::schema::{FileError, Theorem};
use crate::error::{Error, Result};
use crate::graph::strategy::Strategy;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The load families of the kind.
pub const FAMILIES: &[&str] = &["tied", "random", "zigzag", "permutations"];

/// Every permutation of `0..n` (Heap's algorithm), as loads.
pub(crate) fn permutations(n: usize) -> Vec<Vec<f64>> {
    let mut a: Vec<f64> = (0..n).map(|v| v as f64).collect();
    let mut out = vec![a.clone()];
    let mut c = vec![0usize; n];
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                a.swap(0, i);
            } else {
                a.swap(c[i], i);
            }
            out.push(a.clone());
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    out
}

/// The number of load vectors [`load_vectors`] gives on a graph of `n` vertices (without
/// building them; `n!` saturates).
pub(crate) fn load_vector_count(
    t: &Theorem,
    families: &[String],
    loads: &[Vec<f64>],
    n: usize,
) -> u64 {
    let listed = loads.iter().filter(|l| l.len() == n).count() as u64;
    families.iter().fold(listed, |acc, f| {
        let k = match f.as_str() {
            "random" => t.file.domain.get_ref().random as u64,
            "permutations" => (1..=n as u64)
                .try_fold(1u64, |p, i| p.checked_mul(i))
                .unwrap_or(u64::MAX),
            _ => 1,
        };
        acc.saturating_add(k)
    })
}

/// Checks a claim's work against [`crate::limits::GRAPH_CLAIM_ELEMENTS`] before it runs.
pub(crate) fn check_elements(
    t: &Theorem,
    total: u64,
    at: Option<usize>,
) -> std::result::Result<(), FileError> {
    crate::limits::GRAPH_CLAIM_ELEMENTS
        .check("the elements the claim evaluates", total)
        .map(|_| ())
        .map_err(|e| t.error_at(at, e.to_string()))
}

/// The load vectors of one strategy's graph, each with its family name: the listed vectors of
/// length `n` first (a hand-checked instance is evaluated before the families), then the
/// families (`tied`: all 3; `random`: `[domain] random` vectors in `0..6`, ChaCha8 seeded with
/// `[domain] seed` xor `n`; `zigzag` along the leaf order; `permutations` of `0..n`, `n ≤ 8`).
pub(crate) fn load_vectors(
    t: &Theorem,
    families: &[String],
    loads: &[Vec<f64>],
    s: &Strategy,
) -> Result<Vec<(String, Vec<f64>)>> {
    let n = s.graph.n();
    let mut out = Vec::new();
    for l in loads {
        if l.len() == n {
            out.push(("listed".into(), l.clone()));
        }
    }
    for f in families {
        match f.as_str() {
            "tied" => out.push((f.clone(), vec![3.0; n])),
            "random" => {
                let d = t.file.domain.get_ref();
                let mut rng = ChaCha8Rng::seed_from_u64(d.seed ^ n as u64);
                for _ in 0..d.random {
                    out.push((
                        f.clone(),
                        (0..n).map(|_| rng.random_range(0..6) as f64).collect(),
                    ));
                }
            }
            "zigzag" => {
                let mut z = vec![0.0; n];
                for (k, &v) in s.tree.order.iter().enumerate() {
                    z[v] = if k % 2 == 0 { k as f64 } else { (n - k) as f64 };
                }
                out.push((f.clone(), z));
            }
            "permutations" => {
                crate::limits::GRAPH_PERMUTATIONS_N.check_usize(
                    &format!(
                        "{}: family `permutations` (n! vectors), graph size n",
                        t.file_name()
                    ),
                    n,
                )?;
                out.extend(permutations(n).into_iter().map(|p| (f.clone(), p)));
            }
            other => {
                return Err(Error::invalid(
                    t.file_name(),
                    format!(
                        "unknown load family `{other}`; accepted: {}",
                        FAMILIES.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(out)
}
