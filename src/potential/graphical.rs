//! The expectation of a potential after one step of the greedy graphical process, summed edge
//! by edge: the direct route beside the per-vertex probabilities of
//! [`crate::graph::greedy::probabilities`] and the potential's closed form.
//!
//! Reference: Bansal–Feldheim (arXiv:2106.06051 v2), §1 (the greedy strategy: a uniform edge, the
//! ball to its strictly lighter endpoint, a fair coin on ties).

use super::Potential;
use crate::error::Result;
use crate::graph::{Graph, greedy};
use crate::loads::Loads;
use crate::xfloat::XFloat;

/// `E[P(x + e_dest)]` by summing over the `m` edges: each edge contributes `1/m` times the value
/// after allocating to its lighter endpoint (the average of both on a tie). This is the direct
/// route; the per-bin route goes through [`greedy::probabilities`] and the potential's closed form.
///
/// ```
/// use balloc::{graph::Graph, loads::Loads, potential::{self, graphical::edge_sum_expectation}};
/// // C_3, loads (1, 0, 0), Υ: edges {0,1}→1, {1,2} tie, {2,0}→2. Each outcome has y' with one
/// // bin at 1 − 4/3... every outcome gives loads (1,1,0) up to order: Υ' = 2·(1/3)² + (2/3)² = 2/3.
/// let q = potential::parse("quadratic").unwrap();
/// let e = edge_sum_expectation(&Graph::cycle(3).unwrap(), q.as_ref(), &Loads::new(vec![1.0, 0.0, 0.0]).unwrap()).unwrap();
/// assert!((e.to_f64_checked().unwrap() - 2.0 / 3.0).abs() < 1e-15);
/// ```
pub fn edge_sum_expectation(g: &Graph, pot: &dyn Potential, x: &Loads) -> Result<XFloat> {
    greedy::check(g, x.as_slice())?;
    let mut y = x.as_slice().to_vec();
    let mut after = |v: usize| -> Result<XFloat> {
        y[v] += 1.0;
        let r = pot.value(&Loads::new(y.clone())?);
        y[v] -= 1.0;
        Ok(r)
    };
    let w = 1.0 / g.m() as f64;
    let mut acc: Option<XFloat> = None;
    for &(a, b) in g.edges() {
        let xs = x.as_slice();
        let t = match xs[a].total_cmp(&xs[b]) {
            std::cmp::Ordering::Greater => after(b)?.scale(w),
            std::cmp::Ordering::Less => after(a)?.scale(w),
            std::cmp::Ordering::Equal => after(a)?.scale(w / 2.0).add(after(b)?.scale(w / 2.0)),
        };
        acc = Some(match acc {
            None => t,
            Some(s) => s.add(t),
        });
    }
    Ok(acc.expect("m ≥ 1"))
}
