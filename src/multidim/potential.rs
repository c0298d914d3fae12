//! The rank-weighted equi-load-group potentials of Narang–Dutta–Bhattacherjee (arXiv:1111.0762,
//! §3; D.Def.groups in `docs/derivations.md` §9) and the standard potentials for comparison.
//!
//! Bins are sorted by sum-load, heaviest first: `s_(1) ≥ s_(2) ≥ … ≥ s_(n)`. An equi-load group
//! `G_p` is a maximal run of equal `s` occupying the 1-based positions `p₀, …, p₀ + |G_p| − 1`.
//! * `Φ(G_p) = Σ_{k=0}^{|G_p|−1} e^{α s_k}/(p₀ + k)` \[read\], `Φ = Σ_p Φ(G_p) = Σ_i e^{α s_(i)}/i`
//!   \[reconstructed: the display of the global sum is missing\];
//! * `Ψ(G_p) = Σ_k e^{−α s_k}/(p₀ + k)` as printed ([`PsiReading::Printed`]); the mirrored weight
//!   `1/(n − (p₀ + k) + 1)` is the other possible reading ([`PsiReading::Mirrored`]);
//! * `Γ = Φ + Ψ`.
//!
//! Every value is computed in the log domain ([`XFloat`]), so `e^{α s}` never overflows.
//! The standard potentials (`Σ e^{±α s_i}`, and the per-dimension `Σ_a Σ_i e^{±α x_i^a}`) reuse
//! [`crate::potential::Exponential`].

use super::state::MdLoads;
use crate::error::{Error, Result};
use crate::loads::Loads;
use crate::potential::{Exponential, Potential, Side};
use crate::xfloat::XFloat;

/// The reading of the weights of `Ψ` (the text is ambiguous; `docs/derivations.md` §9, D.Def.groups).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PsiReading {
    /// `1/(p₀ + k)`: the same rank weights as `Φ` (heaviest first), as printed.
    Printed,
    /// `1/(n − i + 1)`: rank counted from the lightest bin.
    Mirrored,
}

impl PsiReading {
    /// Both readings, printed first.
    pub const ALL: [PsiReading; 2] = [PsiReading::Printed, PsiReading::Mirrored];

    /// The label used in reports.
    pub fn name(self) -> &'static str {
        match self {
            PsiReading::Printed => "printed",
            PsiReading::Mirrored => "mirrored",
        }
    }
}

/// Which group potential.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Which {
    /// `Φ = Σ_i e^{α s_(i)}/i`.
    Phi,
    /// `Ψ = Σ_i e^{−α s_(i)}/w_i` (`w_i = i` or `n − i + 1`).
    Psi,
    /// `Γ = Φ + Ψ`.
    Gamma,
}

/// A rank-weighted group potential with parameter `α > 0` and a reading of `Ψ`.
///
/// ```
/// use balloc::multidim::{GroupPotential, PsiReading, Which};
/// let g = GroupPotential::new(Which::Gamma, 0.5, PsiReading::Printed).unwrap();
/// // s ≡ 0 on n = 4 bins: Γ = 2(1 + 1/2 + 1/3 + 1/4) = 25/6.
/// let v = g.value(&[0.0; 4]).to_f64_checked().unwrap();
/// assert!((v - 25.0 / 6.0).abs() < 1e-14);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroupPotential {
    /// Which of Φ, Ψ, Γ.
    pub which: Which,
    /// The parameter `α > 0` (the paper takes `α = ε/(2f)`).
    pub alpha: f64,
    /// The reading of `Ψ`'s weights.
    pub reading: PsiReading,
}

/// An equi-load group: 1-based start position `p0`, size and common sum-load.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Group {
    /// The first (1-based) position of the group in the heaviest-first order.
    pub p0: usize,
    /// The number of bins in the group.
    pub size: usize,
    /// The common value of `s`.
    pub s: f64,
}

/// The sum-loads sorted heaviest first (NaN is rejected by callers; `total_cmp` orders it).
pub fn sorted_desc(s: &[f64]) -> Vec<f64> {
    let mut v = s.to_vec();
    v.sort_by(|a, b| b.total_cmp(a));
    v
}

/// `p₀(b)`: the first (1-based) position of the equi-load group of bin `b` (0-based index into
/// `s`, any order) when the bins are sorted heaviest first, `p₀(b) = 1 + #{j : s_j > s_b}`
/// (Narang–Dutta–Bhattacherjee, arXiv:1111.0762, §3: the groups `G_p` of the potentials and the
/// weight `1/p₀` of the step `Δ_i`; `docs/derivations.md` §9, D.Def.groups).
///
/// ```
/// use balloc::multidim::potential::group_start;
/// // s = (1, −1, 1, −1, 0): sorted (1, 1, 0, −1, −1); the group of bin 5 (s = 0) starts at
/// // position 3, those of bins 2 and 4 (s = −1) at position 4, those of bins 1 and 3 at 1.
/// let s = [1, -1, 1, -1, 0];
/// assert_eq!((0..5).map(|b| group_start(&s, b)).collect::<Vec<_>>(), vec![1, 4, 1, 4, 3]);
/// ```
pub fn group_start<T: PartialOrd>(s: &[T], b: usize) -> usize {
    1 + s.iter().filter(|v| **v > s[b]).count()
}

/// The equi-load groups of `s`, heaviest first.
///
/// ```
/// use balloc::multidim::potential::groups;
/// let g = groups(&[1.0, -1.0, 1.0, -1.0, 0.0]);
/// assert_eq!(g.iter().map(|g| (g.p0, g.size)).collect::<Vec<_>>(), vec![(1, 2), (3, 1), (4, 2)]);
/// ```
pub fn groups(s: &[f64]) -> Vec<Group> {
    let v = sorted_desc(s);
    let mut out: Vec<Group> = Vec::new();
    for (i, &x) in v.iter().enumerate() {
        match out.last_mut() {
            Some(g) if g.s == x => g.size += 1,
            _ => out.push(Group {
                p0: i + 1,
                size: 1,
                s: x,
            }),
        }
    }
    out
}

/// Validates a sum-load vector: non-empty, finite.
pub fn check_s(s: &[f64]) -> Result<()> {
    if s.is_empty() {
        return Err(Error::invalid("sum-loads", "empty (need n ≥ 1)"));
    }
    if let Some(i) = s.iter().position(|v| !v.is_finite()) {
        return Err(Error::invalid(
            "sum-loads",
            format!("entry {} is {}, must be finite", i + 1, s[i]),
        ));
    }
    Ok(())
}

impl GroupPotential {
    /// A group potential; `alpha` must be finite and positive.
    pub fn new(which: Which, alpha: f64, reading: PsiReading) -> Result<GroupPotential> {
        if !(alpha > 0.0 && alpha.is_finite()) {
            return Err(Error::invalid(
                "alpha",
                format!("must be a finite number > 0, got {alpha}"),
            ));
        }
        Ok(GroupPotential {
            which,
            alpha,
            reading,
        })
    }

    /// The same potential with another `which`.
    pub fn with(self, which: Which) -> GroupPotential {
        GroupPotential { which, ..self }
    }

    /// `ln` of the weight denominator at 1-based position `i` of `n`, read from the table
    /// `ln[k] = ln k` of [`with_ln_ints`].
    fn ln_den(&self, ln: &[f64], psi: bool, i: usize, n: usize) -> f64 {
        if psi && self.reading == PsiReading::Mirrored {
            ln[n - i + 1]
        } else {
            ln[i]
        }
    }

    /// The value at sum-loads `s` (any order; sorted internally), overflow-safe.
    pub fn value(&self, s: &[f64]) -> XFloat {
        let v = sorted_desc(s);
        self.value_sorted(&v)
    }

    /// The value at sum-loads already sorted heaviest first.
    pub fn value_sorted(&self, v: &[f64]) -> XFloat {
        let n = v.len();
        with_ln_ints(n, |ln| {
            let term = |psi: bool, k: usize, x: f64| {
                let sign = if psi { -1.0 } else { 1.0 };
                sign * self.alpha * x - self.ln_den(ln, psi, k + 1, n)
            };
            let phi = || XFloat::sum_exp(v.iter().enumerate().map(|(k, &x)| term(false, k, x)));
            let psi = || XFloat::sum_exp(v.iter().enumerate().map(|(k, &x)| term(true, k, x)));
            match self.which {
                Which::Phi => phi(),
                Which::Psi => psi(),
                Which::Gamma => phi().add(psi()),
            }
        })
    }

    /// The value computed group by group, literally as printed:
    /// `Σ_p Σ_{k=0}^{|G_p|−1} e^{±α s_k}/(p₀ + k)` (a second route to [`Self::value`]).
    pub fn value_by_groups(&self, s: &[f64]) -> XFloat {
        let n = s.len();
        with_ln_ints(n, |ln| {
            let mut acc = XFloat::from_f64(0.0);
            for g in groups(s) {
                for k in 0..g.size {
                    let pos = g.p0 + k;
                    if self.which != Which::Psi {
                        acc = acc.add(XFloat::exp_of(
                            self.alpha * g.s - self.ln_den(ln, false, pos, n),
                        ));
                    }
                    if self.which != Which::Phi {
                        acc = acc.add(XFloat::exp_of(
                            -self.alpha * g.s - self.ln_den(ln, true, pos, n),
                        ));
                    }
                }
            }
            acc
        })
    }
}

/// The standard exponential potential of the sum-loads, `Σ_i e^{±α s_i}` (or both), through the
/// spine's [`Exponential`] applied to the raw sums `L_i` (whose normalised loads are `s_i`).
///
/// ```
/// use balloc::multidim::{MdLoads, potential::standard_sum};
/// use balloc::potential::Side;
/// let x = MdLoads::from_rows(&[vec![1, 1], vec![0, 0]]).unwrap(); // s = (1, −1)
/// let v = standard_sum(&x, Side::Gamma, 1.0).unwrap().to_f64_checked().unwrap();
/// assert!((v - 4.0 * 1f64.cosh()).abs() < 1e-12);
/// ```
pub fn standard_sum(x: &MdLoads, side: Side, alpha: f64) -> Result<XFloat> {
    let p = Exponential::new(side, alpha)?;
    let l = Loads::new((0..x.n()).map(|b| x.bin_sum(b) as f64).collect())?;
    Ok(p.value(&l))
}

/// The per-dimension standard potential `Σ_a Σ_i e^{±α x_i^a}` (or both for `Side::Gamma`).
///
/// ```
/// use balloc::multidim::{MdLoads, potential::standard_per_dimension};
/// use balloc::potential::Side;
/// let x = MdLoads::from_rows(&[vec![2, 0], vec![0, 0]]).unwrap(); // x^0 = (1, −1), x^1 = (0, 0)
/// let v = standard_per_dimension(&x, Side::Phi, 1.0).unwrap().to_f64_checked().unwrap();
/// assert!((v - (1f64.exp() + (-1f64).exp() + 2.0)).abs() < 1e-12);
/// ```
pub fn standard_per_dimension(x: &MdLoads, side: Side, alpha: f64) -> Result<XFloat> {
    let p = Exponential::new(side, alpha)?;
    let mut acc = XFloat::from_f64(0.0);
    for a in 0..x.dims() {
        let l = Loads::new((0..x.n()).map(|b| x.load(a, b) as f64).collect())?;
        acc = acc.add(p.value(&l));
    }
    Ok(acc)
}

/// Runs `f` on the table `ln[k] = ln k` for `k = 0, …, n` (`ln 0 = −∞`), the very floats of
/// `(k as f64).ln()`, remembered per thread for `n` below 2¹⁶ (the potentials ask for
/// `ln 1, …, ln n` at every state of an expectation): one look-up of the thread's table for a
/// whole potential. The table is borrowed while `f` runs, so `f` must not call this function.
fn with_ln_ints<T>(n: usize, f: impl FnOnce(&[f64]) -> T) -> T {
    if n >= LN_CACHED {
        let table: Vec<f64> = (0..=n).map(|k| (k as f64).ln()).collect();
        return f(&table);
    }
    LN_TABLE.with(|t| {
        let mut t = t.borrow_mut();
        if t.len() <= n {
            let from = t.len();
            t.extend((from..=n).map(|j| (j as f64).ln()));
        }
        f(&t[..=n])
    })
}

/// `ln k` is remembered per thread for `k` up to this.
const LN_CACHED: usize = 1 << 16;

thread_local! {
    static LN_TABLE: std::cell::RefCell<Vec<f64>> = const { std::cell::RefCell::new(Vec::new()) };
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    /// The table of [`super::with_ln_ints`] holds the very floats `(k as f64).ln()` gives, in and
    /// beyond the cached range, after a smaller and a larger request.
    fn ln_table_is_ln() {
        for n in [3usize, 40, 7, 70_000] {
            super::with_ln_ints(n, |t| {
                assert_eq!(t.len(), n + 1);
                for (k, v) in t.iter().enumerate() {
                    assert_eq!(v.to_bits(), (k as f64).ln().to_bits(), "k = {k}");
                }
            });
        }
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[crate::unit::Test {
        name: "ln_table_is_ln",
        run: ln_table_is_ln,
        panics: None,
    }];
}
