//! Adversarial families of load vectors (docs/derivations.md §6,
//! families F1–F7 and F10): one heavy bin, one light bin, two-level splits of every size and
//! height, few-level vectors, tied groups, ramps, geometric tails, huge loads and random real
//! vectors. Loads are raw `x` (the claims only see `y = x − W/n`).

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A family of load vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Family {
    /// F1: one bin at +K, the others at 0.
    OneHeavy,
    /// F2: one bin at −K, the others at 0.
    OneLight,
    /// F3: k bins at +a, the rest at 0, for every size k and a grid of heights a.
    TwoLevel,
    /// F4: three levels (top, middle, bottom) with sizes around the quartiles, thirds and the
    /// median.
    FewLevel,
    /// F5: staircases of tied blocks and the all-equal vector.
    Tied,
    /// F6: arithmetic progressions with integer and finer spacing, full and half ramps.
    Ramp,
    /// F7: geometric tails from the top or from the bottom.
    Geometric,
    /// Huge loads (one heavy, one light, half/half) with K up to 10¹².
    Huge,
    /// F10: heavy-tailed random real vectors (seeded).
    RandomReal,
}

/// Every family with its name.
pub const FAMILIES: &[(&str, Family)] = &[
    ("one-heavy", Family::OneHeavy),
    ("one-light", Family::OneLight),
    ("two-level", Family::TwoLevel),
    ("few-level", Family::FewLevel),
    ("tied", Family::Tied),
    ("ramp", Family::Ramp),
    ("geometric", Family::Geometric),
    ("huge", Family::Huge),
    ("random-real", Family::RandomReal),
];

impl Family {
    /// Parses a family name.
    ///
    /// ```
    /// use balloc::search::Family;
    /// assert_eq!(Family::parse("two-level"), Some(Family::TwoLevel));
    /// assert_eq!(Family::parse("zigzag"), None);
    /// ```
    pub fn parse(s: &str) -> Option<Family> {
        FAMILIES.iter().find(|(n, _)| *n == s).map(|(_, f)| *f)
    }

    /// The name.
    pub fn name(self) -> &'static str {
        FAMILIES
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("?", |(n, _)| n)
    }

    /// The vectors of the family at `n` bins (rounded to integers when `integer`), generated
    /// deterministically from `seed`.
    ///
    /// ```
    /// use balloc::search::Family;
    /// // Two-level splits at n = 4: sizes 1, 2, 3 times 31 heights.
    /// assert_eq!(Family::TwoLevel.states(4, true, 0).len(), 3 * 31);
    /// assert!(Family::OneHeavy.states(4, true, 0).contains(&vec![1.0, 0.0, 0.0, 0.0]));
    /// ```
    pub fn states(self, n: usize, integer: bool, seed: u64) -> Vec<Vec<f64>> {
        let mut out = match self {
            Family::OneHeavy => heights().map(|k| one(n, k)).collect(),
            Family::OneLight => heights().map(|k| one(n, -k)).collect(),
            Family::TwoLevel => {
                let mut v = Vec::new();
                for k in sizes(n) {
                    for a in heights() {
                        v.push((0..n).map(|i| if i < k { a } else { 0.0 }).collect());
                    }
                }
                v
            }
            Family::FewLevel => {
                let mut v = Vec::new();
                let s = quantile_sizes(n);
                for &top in &s {
                    for &bottom in &s {
                        if top + bottom >= n {
                            continue;
                        }
                        for h1 in coarse() {
                            for h2 in coarse() {
                                v.push(
                                    (0..n)
                                        .map(|i| {
                                            if i < top {
                                                h1
                                            } else if i >= n - bottom {
                                                -h2
                                            } else {
                                                0.0
                                            }
                                        })
                                        .collect(),
                                );
                            }
                        }
                    }
                }
                v
            }
            Family::Tied => {
                let mut v = vec![vec![0.0; n]];
                let mut blocks: Vec<usize> = vec![2, 3, 4, n / 4, n / 3, n / 2];
                blocks.retain(|&b| b >= 2 && b < n);
                blocks.sort_unstable();
                blocks.dedup();
                for b in blocks {
                    for off in [0, b / 2] {
                        for h in coarse() {
                            v.push((0..n).map(|i| ((i + off) / b) as f64 * h).collect());
                        }
                    }
                }
                v
            }
            Family::Ramp => {
                let mut v = Vec::new();
                let mut steps = vec![1.0 / n as f64, 0.125, 0.25, 0.5];
                steps.extend(coarse());
                for h in steps {
                    v.push((0..n).map(|i| i as f64 * h).collect());
                    v.push((0..n).map(|i| (i.min(n / 2)) as f64 * h).collect());
                    v.push((0..n).map(|i| (i.max(n / 2) - n / 2) as f64 * h).collect());
                }
                v
            }
            Family::Geometric => {
                let mut v = Vec::new();
                for r in [0.5, 0.7, 0.9, 0.97] {
                    for k in coarse() {
                        let k = k * 4.0;
                        v.push((0..n).map(|i| k * f64::powi(r, i as i32)).collect());
                        v.push((0..n).map(|i| -k * f64::powi(r, i as i32)).collect());
                    }
                }
                v
            }
            Family::Huge => {
                let mut v = Vec::new();
                for k in [1e4, 1e6, 1e9, 1e12] {
                    v.push(one(n, k));
                    v.push(one(n, -k));
                    v.push((0..n).map(|i| if i < n / 2 { k } else { 0.0 }).collect());
                    v.push((0..n).map(|i| i as f64 * k / n as f64).collect());
                }
                v
            }
            Family::RandomReal => {
                let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x05ee_df10);
                (0..32)
                    .map(|j| {
                        let scale = 2f64.powi(j % 12);
                        (0..n)
                            .map(|_| {
                                // Pareto(1.5) tails on either side.
                                let u: f64 = rng.random_range(1e-9..1.0);
                                let s = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
                                s * scale * (u.powf(-1.0 / 1.5) - 1.0)
                            })
                            .collect()
                    })
                    .collect()
            }
        };
        if integer {
            for v in out.iter_mut() {
                for x in v.iter_mut() {
                    *x = x.round();
                }
            }
        }
        out
    }
}

fn one(n: usize, k: f64) -> Vec<f64> {
    let mut v = vec![0.0; n];
    v[0] = k;
    v
}

/// Heights 2^{j/2}, j = −2..=28 (0.5 to 16384): 31 values.
fn heights() -> impl Iterator<Item = f64> {
    (-2..=28).map(|j| 2f64.powf(j as f64 / 2.0))
}

/// A coarse grid of heights.
fn coarse() -> impl Iterator<Item = f64> {
    [1.0, 2.0, 4.0, 8.0, 16.0, 64.0, 256.0].into_iter()
}

/// Every split size 1..n−1 for n ≤ 128, else 127 sizes spread evenly.
fn sizes(n: usize) -> Vec<usize> {
    if n <= 128 {
        (1..n).collect()
    } else {
        let mut v: Vec<usize> = (1..128).map(|j| j * n / 128).filter(|&k| k >= 1).collect();
        v.dedup();
        v
    }
}

/// Sizes near the quantiles 1/8, 1/4, 1/3, 1/2, 2/3, 3/4 and the extremes.
fn quantile_sizes(n: usize) -> Vec<usize> {
    let mut v = vec![1, 2, 3];
    for (a, b) in [(1, 8), (1, 4), (1, 3), (1, 2), (2, 3), (3, 4)] {
        let k = a * n / b;
        v.extend([k.saturating_sub(1), k, k + 1]);
    }
    v.retain(|&k| k >= 1 && k < n);
    v.sort_unstable();
    v.dedup();
    v
}

/// Near-tie perturbations of a state: every tied group of `x` split by offsets of size `η`,
/// for `η = 2⁻¹, 2⁻², …, 2⁻⁴⁰`. Where ties change the law (random tie-breaking in a batch, or a
/// fixed tie rule), a tied state can have a smaller (or larger) expectation than every nearby
/// untied state, so a supremum over load vectors is approached along `η → 0` but not attained
/// at the tie itself; these states let the search find it. Two splits per group and η: a
/// symmetric spread `η·(j − (g − 1)/2)` (the total load unchanged) and one bin lifted by `η`.
///
/// ```
/// use balloc::search::near_ties;
/// let v = near_ties(&[1.0, 1.0, 0.0]);
/// // One tied group (two bins), 40 values of η, two splits each.
/// assert_eq!(v.len(), 80);
/// assert_eq!(v[0], vec![0.75, 1.25, 0.0]); // η = 1/2, symmetric
/// assert_eq!(v[1], vec![1.5, 1.0, 0.0]); // η = 1/2, one bin lifted
/// assert!(near_ties(&[2.0, 1.0, 0.0]).is_empty()); // no ties
/// ```
pub fn near_ties(x: &[f64]) -> Vec<Vec<f64>> {
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&a, &b| x[b].total_cmp(&x[a]).then(a.cmp(&b)));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &i in &order {
        match groups.last_mut() {
            Some(g) if x[g[0]] == x[i] => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    let mut out = Vec::new();
    for g in groups.iter().filter(|g| g.len() > 1) {
        for k in 1..=40 {
            let eta = 2f64.powi(-k);
            let mid = (g.len() - 1) as f64 / 2.0;
            let mut sym = x.to_vec();
            for (j, &bin) in g.iter().enumerate() {
                sym[bin] += eta * (j as f64 - mid);
            }
            out.push(sym);
            let mut lift = x.to_vec();
            lift[g[0]] += eta;
            out.push(lift);
        }
    }
    out
}
