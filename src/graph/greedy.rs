//! The greedy graphical process: a uniform edge `(u, v)` is requested and the ball goes to the
//! strictly lighter endpoint, to either with probability ½ on a tie.
//!
//! Per-vertex probability (S.GreedyGraphical, `docs/derivations.md` §8, derived):
//! `r_v = (#{u ∈ N(v) : x_u > x_v} + ½·#{u ∈ N(v) : x_u = x_v}) / m`.
//! For strict loads and `S_k` the `k` heaviest vertices, `Σ_{v∈S_k} r_v = e(S_k)/m =
//! k/n − |∂S_k|/(dn)` on a `d`-regular graph; hence the best ε of C1 at `δ ≤ ½` is at least the
//! edge expansion `β = min_{|S|≤n/2} |∂S|/(d|S|)` (C footnote 1), with equality when the heavy
//! vertices form a minimising set (Los–Sauerwald, *Balanced Allocations in Batches*, §6 applies
//! C1/C2 to graphical processes this way).
//!
//! Reference: Bansal–Feldheim (arXiv:2106.06051 v2), §1 (the greedy strategy); Peres–Talwar–Wieder
//! (Random Struct. Alg. 2015) for its `O(log n/β)` gap.

use super::Graph;
use crate::condition::{BestC, BestEps, best_c, best_eps};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use crate::loads::Loads;
use rand::{Rng, RngExt};

/// Checks that the loads have one entry a vertex of `g`.
pub(crate) fn check(g: &Graph, x: &[f64]) -> Result<()> {
    if x.len() != g.n() {
        return Err(Error::invalid(
            "loads",
            format!(
                "{} bins but the graph `{}` has {} vertices",
                x.len(),
                g.name(),
                g.n()
            ),
        ));
    }
    if g.m() == 0 {
        return Err(Error::invalid(
            format!("graph `{}`", g.name()),
            "has no edges",
        ));
    }
    Ok(())
}

/// Twice the number of edge-halves each vertex wins: `2·#{heavier neighbours} + #{tied neighbours}`.
fn half_counts(g: &Graph, x: &[f64]) -> Vec<u64> {
    let mut c = vec![0u64; g.n()];
    for &(a, b) in g.edges() {
        match x[a].total_cmp(&x[b]) {
            std::cmp::Ordering::Greater => c[b] += 2,
            std::cmp::Ordering::Less => c[a] += 2,
            std::cmp::Ordering::Equal => {
                c[a] += 1;
                c[b] += 1;
            }
        }
    }
    c
}

/// The per-vertex probabilities `r_v` of greedy at loads `x` (random tie-breaking).
///
/// ```
/// use balloc::graph::{Graph, greedy::probabilities};
/// // Path 0 – 1 – 2 with loads (0, 1, 1): edge {0,1} → 0; edge {1,2} tied → ½ each.
/// let r = probabilities(&Graph::path(3).unwrap(), &[0.0, 1.0, 1.0]).unwrap();
/// assert_eq!(r, vec![0.5, 0.25, 0.25]);
/// ```
pub fn probabilities(g: &Graph, x: &[f64]) -> Result<Vec<f64>> {
    check(g, x)?;
    let two_m = 2.0 * g.m() as f64;
    Ok(half_counts(g, x)
        .into_iter()
        .map(|c| c as f64 / two_m)
        .collect())
}

/// [`probabilities`] in exact rationals (every `r_v` is a multiple of `1/(2m)`).
pub fn probabilities_exact(g: &Graph, x: &[f64]) -> Result<Vec<Q>> {
    check(g, x)?;
    let two_m = Int::from(2 * g.m());
    Ok(half_counts(g, x)
        .into_iter()
        .map(|c| Q::new(Int::from(c), two_m.clone()))
        .collect())
}

/// The allocation vector by rank (heaviest first) at `x`, exactly: the per-vertex probabilities
/// sorted into rank order, each tied group replaced by its average (ranks inside a tied group are
/// assigned uniformly at random, `docs/conventions.md` §1); prefix sums at group ends are unchanged.
///
/// ```
/// use balloc::{graph::{Graph, greedy::rank_vector_exact}, loads::Loads};
/// use balloc::exact::Q;
/// // Path 0 – 1 – 2, loads (0, 1, 1): per vertex (1/2, 1/4, 1/4); ranks: the tied pair first.
/// let p = rank_vector_exact(&Graph::path(3).unwrap(), &Loads::new(vec![0.0, 1.0, 1.0]).unwrap()).unwrap();
/// let q = |a: i64, b: i64| Q::new(a.into(), b.into());
/// assert_eq!(p, vec![q(1, 4), q(1, 4), q(1, 2)]);
/// ```
pub fn rank_vector_exact(g: &Graph, x: &Loads) -> Result<Vec<Q>> {
    let r = probabilities_exact(g, x.as_slice())?;
    let rk = x.ranking();
    let mut p = rk.by_rank(&r);
    for grp in &rk.groups {
        let mut s = Q::from_integer(0.into());
        for v in &p[grp.clone()] {
            s += v;
        }
        let avg = s / Q::from_integer(Int::from(grp.len()));
        for v in &mut p[grp.clone()] {
            *v = avg.clone();
        }
    }
    Ok(p)
}

/// C1's best ε at quantile `δ = delta_n/n` and C2's smallest C of greedy's allocation vector at
/// `x`, exactly (Los–Sauerwald, *Balanced Allocations in Batches*, §6, applied to graphs).
///
/// ```
/// use balloc::{graph::{Graph, greedy::conditions}, loads::Loads};
/// // C_8, left half heavy: prefix k = 4 loses |∂S|/(dn) = 2/16, so 1 − n·P_4/4 = 1/4 = β(C_8).
/// let x = Loads::new(vec![1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]).unwrap();
/// let (e, _) = conditions(&Graph::cycle(8).unwrap(), &x, 4).unwrap();
/// assert_eq!(e.eps, balloc::exact::Q::new(1.into(), 4.into()));
/// ```
pub fn conditions(g: &Graph, x: &Loads, delta_n: usize) -> Result<(BestEps<Q>, BestC<Q>)> {
    let p = rank_vector_exact(g, x)?;
    Ok((best_eps(&p, delta_n)?, best_c(&p)))
}

/// One greedy step: a uniform edge, the lighter endpoint, a fair coin on ties.
pub fn sample<R: Rng + ?Sized>(g: &Graph, x: &[f64], rng: &mut R) -> usize {
    let (a, b) = g.edges()[rng.random_range(0..g.m())];
    match x[a].total_cmp(&x[b]) {
        std::cmp::Ordering::Greater => b,
        std::cmp::Ordering::Less => a,
        std::cmp::Ordering::Equal => {
            if rng.random::<bool>() {
                a
            } else {
                b
            }
        }
    }
}
