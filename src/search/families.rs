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
    /// deterministically from `seed`: [`Family::iter`] collected.
    ///
    /// ```
    /// use balloc::search::Family;
    /// // Two-level splits at n = 4: sizes 1, 2, 3 times 31 heights.
    /// assert_eq!(Family::TwoLevel.states(4, true, 0).len(), 3 * 31);
    /// assert!(Family::OneHeavy.states(4, true, 0).contains(&vec![1.0, 0.0, 0.0, 0.0]));
    /// ```
    pub fn states(self, n: usize, integer: bool, seed: u64) -> Vec<Vec<f64>> {
        self.iter(n, integer, seed).collect()
    }

    /// The vectors of the family one at a time, in the order of [`Family::states`]: a search
    /// holds one vector of `n` loads at a time, not the family (3 937 two-level vectors at
    /// n = 65 536 are 2 GB).
    ///
    /// ```
    /// use balloc::search::Family;
    /// // Sizes 1..=127 spread over n = 2¹⁶ (every 512th), 31 heights each: 127·31 vectors.
    /// assert_eq!(Family::TwoLevel.iter(1 << 16, true, 0).count(), 127 * 31);
    /// let mut it = Family::Geometric.iter(3, false, 0);
    /// assert_eq!(it.next(), Some(vec![4.0, 2.0, 1.0])); // ratio 1/2 from 4
    /// ```
    pub fn iter(self, n: usize, integer: bool, seed: u64) -> Box<dyn Iterator<Item = Vec<f64>>> {
        let it: Box<dyn Iterator<Item = Vec<f64>>> = match self {
            Family::OneHeavy => Box::new(heights().map(move |k| one(n, k))),
            Family::OneLight => Box::new(heights().map(move |k| one(n, -k))),
            Family::TwoLevel => Box::new(sizes(n).into_iter().flat_map(move |k| {
                heights().map(move |a| (0..n).map(|i| if i < k { a } else { 0.0 }).collect())
            })),
            Family::FewLevel => {
                let s = quantile_sizes(n);
                let pairs: Vec<(usize, usize)> = s
                    .iter()
                    .flat_map(|&top| s.iter().map(move |&bottom| (top, bottom)))
                    .filter(|&(top, bottom)| top + bottom < n)
                    .collect();
                Box::new(pairs.into_iter().flat_map(move |(top, bottom)| {
                    coarse().flat_map(move |h1| {
                        coarse().map(move |h2| {
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
                                .collect()
                        })
                    })
                }))
            }
            Family::Tied => {
                let mut blocks: Vec<usize> = vec![2, 3, 4, n / 4, n / 3, n / 2];
                blocks.retain(|&b| b >= 2 && b < n);
                blocks.sort_unstable();
                blocks.dedup();
                let steps = blocks.into_iter().flat_map(move |b| {
                    [0, b / 2].into_iter().flat_map(move |off| {
                        coarse().map(move |h| (0..n).map(|i| ((i + off) / b) as f64 * h).collect())
                    })
                });
                Box::new(std::iter::once(vec![0.0; n]).chain(steps))
            }
            Family::Ramp => {
                let mut steps = vec![1.0 / n as f64, 0.125, 0.25, 0.5];
                steps.extend(coarse());
                Box::new(steps.into_iter().flat_map(move |h| {
                    (0..3).map(move |shape| {
                        (0..n)
                            .map(|i| match shape {
                                0 => i as f64 * h,
                                1 => (i.min(n / 2)) as f64 * h,
                                _ => (i.max(n / 2) - n / 2) as f64 * h,
                            })
                            .collect()
                    })
                }))
            }
            Family::Geometric => Box::new([0.5, 0.7, 0.9, 0.97].into_iter().flat_map(move |r| {
                coarse().flat_map(move |k| {
                    let k = k * 4.0;
                    [k, -k]
                        .into_iter()
                        .map(move |k| (0..n).map(|i| k * f64::powi(r, i as i32)).collect())
                })
            })),
            Family::Huge => Box::new([1e4, 1e6, 1e9, 1e12].into_iter().flat_map(move |k| {
                (0..4).map(move |shape| match shape {
                    0 => one(n, k),
                    1 => one(n, -k),
                    2 => (0..n).map(|i| if i < n / 2 { k } else { 0.0 }).collect(),
                    _ => (0..n).map(|i| i as f64 * k / n as f64).collect(),
                })
            })),
            Family::RandomReal => {
                let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x05ee_df10);
                Box::new((0..32).map(move |j| {
                    let scale = 2f64.powi(j % 12);
                    (0..n)
                        .map(|_| {
                            // Pareto(1.5) tails on either side.
                            let u: f64 = rng.random_range(1e-9..1.0);
                            let s = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
                            s * scale * (u.powf(-1.0 / 1.5) - 1.0)
                        })
                        .collect()
                }))
            }
        };
        if integer {
            Box::new(it.map(|mut v: Vec<f64>| {
                for x in v.iter_mut() {
                    *x = x.round();
                }
                v
            }))
        } else {
            it
        }
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
