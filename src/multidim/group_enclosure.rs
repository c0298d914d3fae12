//! Enclosures of the rank-weighted equi-load-group potentials `Φ`, `Ψ`, `Γ` of
//! Narang–Dutta–Bhattacherjee (arXiv:1111.0762, §3; [`crate::multidim::potential`]) and of their
//! exact expectations after one step of the sum-load chain.
//!
//! With the sum loads sorted heaviest first, `s_(1) ≥ … ≥ s_(n)`:
//! `Φ = Σ_i e^{α s_(i)}/i`, `Ψ = Σ_i e^{−α s_(i)}/w_i` (`w_i = i` printed, `n − i + 1` mirrored),
//! `Γ = Φ + Ψ`. One step of the chain (docs/derivations.md §9 (D.Def.chain)) puts a ball of weight `f` into bin `j`
//! with probability `p̃_j` (the rank vector with ties averaged over each equi-load group, exactly
//! [`crate::multidim::expectation::apply_ranks`] with random ties) and moves to
//! `s − (f/n)𝟙 + f e_j`, so `E[P(s') | s] = Σ_j p̃_j P(s − (f/n)𝟙 + f e_j)`.
//!
//! Everything except the exponentials is exact: the loads, `α`, the probabilities and the
//! weights `1/i` are rationals, the order of the next state is decided on exact rationals, and
//! each `e^{±α v}` is a correctly rounded enclosure ([`Interval::exp_of`]); sums and products are
//! rounded outward. Exponentials are cached by their exact argument, so a state of `n` bins
//! needs about `3n` of them, not `n²`.

use crate::enclosure::{ExpCache, Interval};
use crate::error::{Error, Result};
use crate::exact::{Q, int};
use crate::loads::TieRule;
use crate::multidim::expectation::s_chain_outcomes;
use crate::multidim::{PsiReading, Which};
use num_traits::{One, Signed, Zero};

/// A group potential with an exact parameter `α > 0`.
///
/// ```
/// use balloc::multidim::group_enclosure::{GroupSpec, value};
/// use balloc::exact::int;
/// use balloc::multidim::{PsiReading, Which};
/// let g = GroupSpec::new(Which::Gamma, int(1) / int(2), PsiReading::Printed).unwrap();
/// // s ≡ 0 on 4 bins: Γ = 2(1 + 1/2 + 1/3 + 1/4) = 25/6.
/// let v = value(&g, &[int(0), int(0), int(0), int(0)], 64).unwrap();
/// assert!(v.contains(&(int(25) / int(6))));
/// assert_eq!(g.value_exact(&vec![int(0); 4]), Some(int(25) / int(6)));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct GroupSpec {
    /// Φ, Ψ or Γ.
    pub which: Which,
    /// The smoothing parameter `α` (exact; the paper takes `α = ε/(2f)`).
    pub alpha: Q,
    /// The reading of `Ψ`'s weights.
    pub reading: PsiReading,
}

/// The sum loads sorted heaviest first (exact).
pub fn sorted_desc(s: &[Q]) -> Vec<Q> {
    let mut v = s.to_vec();
    v.sort_by(|a, b| b.cmp(a));
    v
}

impl GroupSpec {
    /// A validated spec (`α > 0`).
    pub fn new(which: Which, alpha: Q, reading: PsiReading) -> Result<GroupSpec> {
        if !alpha.is_positive() {
            return Err(Error::invalid("alpha", format!("must be > 0, got {alpha}")));
        }
        Ok(GroupSpec {
            which,
            alpha,
            reading,
        })
    }

    /// The same potential with another `which`.
    pub fn with(&self, which: Which) -> GroupSpec {
        GroupSpec {
            which,
            ..self.clone()
        }
    }

    /// The signs of the parts: `+1` for Φ, `−1` for Ψ, both for Γ.
    fn parts(&self) -> &'static [i64] {
        match self.which {
            Which::Phi => &[1],
            Which::Psi => &[-1],
            Which::Gamma => &[1, -1],
        }
    }

    /// The weight of 1-based position `i` of `n` for the part of sign `sign`.
    fn weight(&self, sign: i64, i: usize, n: usize) -> Q {
        let den = if sign < 0 && self.reading == PsiReading::Mirrored {
            n - i + 1
        } else {
            i
        };
        Q::one() / int(den as i64)
    }

    /// The exact value when every exponent `±α s_i` is 0 (that is, `s ≡ 0`), else `None`.
    pub fn value_exact(&self, s: &[Q]) -> Option<Q> {
        if s.iter().any(|v| !v.is_zero()) {
            return None;
        }
        let n = s.len();
        let mut acc = Q::zero();
        for &sign in self.parts() {
            for i in 1..=n {
                acc += self.weight(sign, i, n);
            }
        }
        Some(acc)
    }
}

/// An enclosure of `P(s)` (any order of `s`; sorted internally).
///
/// ```
/// use balloc::multidim::group_enclosure::{GroupSpec, value};
/// use balloc::exact::int;
/// use balloc::multidim::{PsiReading, Which};
/// // s = (1/2, −1/2), α = 1: Φ = e^{1/2} + e^{−1/2}/2 = 1.9520...
/// let phi = GroupSpec::new(Which::Phi, int(1), PsiReading::Printed).unwrap();
/// let v = value(&phi, &[int(-1) / int(2), int(1) / int(2)], 128).unwrap();
/// let f = 0.5f64.exp() + (-0.5f64).exp() / 2.0;
/// assert!((v.mid_f64() - f).abs() < 1e-15 && v.rel_width() < 1e-36);
/// ```
pub fn value(spec: &GroupSpec, s: &[Q], prec: u64) -> Result<Interval> {
    value_cached(spec, s, &ExpCache::new(prec))
}

/// [`value`] with a shared exponential cache.
pub fn value_cached(spec: &GroupSpec, s: &[Q], cache: &ExpCache) -> Result<Interval> {
    if s.is_empty() {
        return Err(Error::invalid("sum-loads", "empty (need n ≥ 1)"));
    }
    let prec = cache.prec();
    let v = sorted_desc(s);
    let n = v.len();
    let mut acc = Interval::from_rational(&Q::zero(), prec);
    for &sign in spec.parts() {
        let sa = &spec.alpha * int(sign);
        for (k, x) in v.iter().enumerate() {
            let e = cache.exp(&(&sa * x))?;
            acc = acc.add(&e.mul_rational(&spec.weight(sign, k + 1, n), prec), prec);
        }
    }
    Ok(acc)
}

/// The per-bin probabilities `p̃` of the chain at `s`: the exact rank vector `p` (rank 1 heaviest)
/// with every equi-load group given its average (random ties).
pub fn tie_averaged(s: &[Q], p: &[Q]) -> Result<Vec<Q>> {
    if p.len() != s.len() {
        return Err(Error::invalid(
            "allocation vector",
            format!("has {} entries but there are {} bins", p.len(), s.len()),
        ));
    }
    Ok(crate::multidim::expectation::apply_ranks(
        s,
        p,
        TieRule::Random,
    ))
}

/// An enclosure of `E[P(s') | s]` after one ball of weight `f` of the sum-load chain with the
/// exact rank vector `p` (random ties), at `prec` bits.
///
/// ```
/// use balloc::multidim::group_enclosure::{GroupSpec, expected_next};
/// use balloc::exact::{int, Q};
/// use balloc::multidim::{PsiReading, Which};
/// // n = 2, s = 0, Two-Choice p = (1/4, 3/4): every outcome gives s' = (1/2, −1/2) sorted, so
/// // E[Φ'] = e^{α/2} + e^{−α/2}/2; α = 1/16: 1.9994...
/// let phi = GroupSpec::new(Which::Phi, int(1) / int(16), PsiReading::Printed).unwrap();
/// let p = [int(1) / int(4), int(3) / int(4)];
/// let e = expected_next(&phi, &[int(0), int(0)], &p, 1, 64).unwrap();
/// let f = (1.0f64 / 32.0).exp() + (-1.0f64 / 32.0).exp() / 2.0;
/// assert!(e.lo_f64() <= f && f <= e.hi_f64());
/// ```
pub fn expected_next(spec: &GroupSpec, s: &[Q], p: &[Q], f: u32, prec: u64) -> Result<Interval> {
    expected_next_cached(spec, s, p, f, &ExpCache::new(prec))
}

/// [`expected_next`] with a shared exponential cache.
pub fn expected_next_cached(
    spec: &GroupSpec,
    s: &[Q],
    p: &[Q],
    f: u32,
    cache: &ExpCache,
) -> Result<Interval> {
    if p.len() != s.len() {
        return Err(Error::invalid(
            "allocation vector",
            format!("has {} entries but there are {} bins", p.len(), s.len()),
        ));
    }
    let prec = cache.prec();
    let mut acc = Interval::from_rational(&Q::zero(), prec);
    for (next, pr) in s_chain_outcomes(s, p, TieRule::Random, &[(int(f as i64), Q::one())])? {
        acc = acc.add(
            &value_cached(spec, &next, cache)?.mul_rational(&pr, prec),
            prec,
        );
    }
    Ok(acc)
}

/// An enclosure of `P(s − (f/n)𝟙 + f e_i) − P(s)`, the exact one-step change when bin `i`
/// (0-based index into `s`) gets the ball.
pub fn change_at(
    spec: &GroupSpec,
    s: &[Q],
    f: u32,
    i: usize,
    cache: &ExpCache,
) -> Result<Interval> {
    if i >= s.len() {
        return Err(Error::invalid(
            "i",
            format!("bin {i} out of range 0..{}", s.len()),
        ));
    }
    let n = int(s.len() as i64);
    let fq = int(f as i64);
    let next: Vec<Q> = s
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let v = v - &fq / &n;
            if k == i { v + &fq } else { v }
        })
        .collect();
    let prec = cache.prec();
    Ok(value_cached(spec, &next, cache)?.sub(&value_cached(spec, s, cache)?, prec))
}

/// The equi-load groups of exact sum loads, heaviest first: `(p₀, size, s)` with `p₀` the
/// 1-based first position.
pub fn groups(s: &[Q]) -> Vec<(usize, usize, Q)> {
    let mut out: Vec<(usize, usize, Q)> = Vec::new();
    for (i, x) in sorted_desc(s).into_iter().enumerate() {
        match out.last_mut() {
            Some(g) if g.2 == x => g.1 += 1,
            _ => out.push((i + 1, 1, x)),
        }
    }
    out
}
