//! Random Räcke-shaped decompositions and their binarisation (C.Alg.pre.2).
//!
//! A Räcke tree `R` is a hierarchical decomposition whose children satisfy `|R_j| ≤ (3/4)|R_i|`
//! (C.Def.Räcke: "the tree is well balanced"), with any number of children. Here `R` is drawn at
//! random along a vertex order: a set `S` of size `s ≥ 2` gets `p` children (`p` uniform in
//! `2..=min(k, s)`), consecutive blocks of random sizes, each at most `max(1, ⌊3s/4⌋)` (drawn by
//! uniform cut points, rejecting compositions with a block that is too large; after 1000
//! rejections the blocks are as equal as possible).
//!
//! Binarisation (Bansal–Feldheim, arXiv:2106.06051 v2, §2.2, C.Alg.pre.2): while a node `i` has
//! `p > 2` children `j₁, …, j_p` with weights `w(h) = |S_{j_h}|/|S_i|`:
//! (a) if some `w(h) > 1/4`, `j_h` (here the first such child) becomes the left child of `i` and a
//! new right child receives the other `p − 1` children; (b) otherwise the children are split into
//! two groups `A`, `B` with `w(A), w(B) ∈ [1/4, 3/4]` (here: the shortest prefix with
//! `w(A) ≥ 1/4`, so `w(A) ≤ 1/2`). Claim 3.1 states that the result satisfies
//! `|S_b| ≤ (3/4)^{q/2}|S_a|` for every ancestor `a` of `b` at distance `q`.

use super::tree::Tree;
use crate::error::{Error, Result};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// The children of a Räcke node of size `s`: `p ∈ 2..=min(k, s)` consecutive block sizes, each in
/// `1..=max(1, ⌊3s/4⌋)`, summing to `s`.
fn block_sizes(s: usize, k: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let cap = (3 * s / 4).max(1);
    let p = rng.random_range(2..=k.min(s));
    for _ in 0..1000 {
        let mut cuts: Vec<usize> = Vec::with_capacity(p + 1);
        while cuts.len() < p - 1 {
            let c = rng.random_range(1..s);
            if !cuts.contains(&c) {
                cuts.push(c);
            }
        }
        cuts.sort_unstable();
        cuts.insert(0, 0);
        cuts.push(s);
        let sizes: Vec<usize> = cuts.windows(2).map(|w| w[1] - w[0]).collect();
        if sizes.iter().all(|&z| z <= cap) {
            return sizes;
        }
    }
    // As equal as possible (every block ≤ ⌈s/p⌉ ≤ ⌊3s/4⌋ for p ≥ 2, s ≥ 2).
    (0..p).map(|j| s / p + usize::from(j < s % p)).collect()
}

/// One binarisation step on the children `kids` of a node (C.Alg.pre.2, rules (a) and (b)):
/// the two groups of children, in order.
fn binarise_step(kids: Vec<Vec<usize>>) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let total: usize = kids.iter().map(Vec::len).sum();
    if let Some(h) = kids.iter().position(|c| 4 * c.len() > total) {
        let mut rest = kids;
        let left = rest.remove(h);
        return (vec![left], rest);
    }
    let mut acc = 0;
    let mut cut = 0;
    for (j, c) in kids.iter().enumerate() {
        acc += c.len();
        cut = j + 1;
        if 4 * acc >= total {
            break;
        }
    }
    let mut a = kids;
    let b = a.split_off(cut);
    (a, b)
}

/// A random Räcke-shaped decomposition with at most `k ≥ 2` children per node along `order`,
/// binarised by C.Alg.pre.2 (module documentation). Deterministic in `seed`.
///
/// ```
/// use balloc::graph::binarise::binarised;
/// let order: Vec<usize> = (0..40).collect();
/// let t = binarised(&order, 5, 1).unwrap();
/// assert!(t.check().is_ok());
/// assert_eq!(t.internal().len(), 39);
/// // The proof of Claim 3.1: of two consecutive steps one is a Räcke step or a rule-(a)/(b)
/// // step, which shrinks by at most 3/4; so |S_b| ≤ (3/4)^⌊q/2⌋ |S_a| for every ancestor a at
/// // distance q.
/// for b in 0..t.nodes.len() {
///     let (mut a, mut q) = (t.nodes[b].parent, 1u32);
///     while let Some(i) = a {
///         let h = q / 2;
///         assert!(4u128.pow(h) * t.nodes[b].size() as u128 <= 3u128.pow(h) * t.nodes[i].size() as u128);
///         a = t.nodes[i].parent;
///         q += 1;
///     }
/// }
/// assert_eq!(t, binarised(&order, 5, 1).unwrap());
/// ```
pub fn binarised(order: &[usize], k: usize, seed: u64) -> Result<Tree> {
    if k < 2 {
        return Err(Error::invalid(
            "binarised tree",
            format!("needs at most k ≥ 2 children per node, got k = {k}"),
        ));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Sets created by binarisation that still hold more than one Räcke child.
    let mut pending: HashMap<Vec<usize>, Vec<Vec<usize>>> = HashMap::new();
    Tree::build(order.len(), (order.to_vec(), None), &mut |(s, _)| {
        let kids = match pending.remove(s) {
            Some(k) => k,
            None => {
                let mut at = 0;
                block_sizes(s.len(), k, &mut rng)
                    .into_iter()
                    .map(|z| {
                        let c = s[at..at + z].to_vec();
                        at += z;
                        c
                    })
                    .collect()
            }
        };
        let (a, b) = if kids.len() == 2 {
            (vec![kids[0].clone()], vec![kids[1].clone()])
        } else {
            binarise_step(kids)
        };
        let mut side = |g: Vec<Vec<usize>>| -> Vec<usize> {
            let set: Vec<usize> = g.iter().flatten().copied().collect();
            if g.len() > 1 {
                pending.insert(set.clone(), g);
            }
            set
        };
        let (sa, sb) = (side(a), side(b));
        Ok(((sa, None), (sb, None)))
    })
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    fn rule_a_takes_the_first_heavy_child() {
        // Weights 1/8, 3/8, 1/2 of 8 vertices: the first child with w > 1/4 is the second.
        let kids = vec![vec![0], vec![1, 2, 3], vec![4, 5, 6, 7]];
        let (a, b) = binarise_step(kids);
        assert_eq!(a, vec![vec![1, 2, 3]]);
        assert_eq!(b, vec![vec![0], vec![4, 5, 6, 7]]);
    }

    fn rule_b_groups_light_children_within_quarter_and_three_quarters() {
        // Five children of 2 vertices (w = 1/5 each ≤ 1/4): prefix until w(A) ≥ 1/4: two
        // children, w(A) = 2/5, w(B) = 3/5, both in [1/4, 3/4].
        let kids: Vec<Vec<usize>> = (0..5).map(|j| vec![2 * j, 2 * j + 1]).collect();
        let (a, b) = binarise_step(kids);
        assert_eq!(a.len(), 2);
        assert_eq!(b.len(), 3);
    }

    fn blocks_respect_the_three_quarter_cap() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for s in 2..60 {
            for k in 2..6 {
                let b = block_sizes(s, k, &mut rng);
                assert_eq!(b.iter().sum::<usize>(), s);
                assert!(b.len() >= 2 && b.len() <= k.min(s));
                assert!(
                    b.iter().all(|&z| z >= 1 && 4 * z <= 3 * s || z == 1),
                    "{s} {b:?}"
                );
            }
        }
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "rule_a_takes_the_first_heavy_child",
            run: rule_a_takes_the_first_heavy_child,
            panics: None,
        },
        crate::unit::Test {
            name: "rule_b_groups_light_children_within_quarter_and_three_quarters",
            run: rule_b_groups_light_children_within_quarter_and_three_quarters,
            panics: None,
        },
        crate::unit::Test {
            name: "blocks_respect_the_three_quarter_cap",
            run: blocks_respect_the_three_quarter_cap,
            panics: None,
        },
    ];
}
