//! Taylor models of a goal on a box: a polynomial in `h = x − c` about a point `c` of the box
//! whose coefficients below the model's order `K` enclose the goal's Taylor coefficients **at
//! `c`**, plus a remainder of order `K` whose coefficients enclose the goal's `K`-th Taylor
//! coefficients **over the whole box** (the Lagrange form):
//!
//! `f(x) ∈ Σ_{|α| < K} C_α hᵅ + Σ_{|α| = K} R_α hᵅ` for every `x ∈ B`,
//!
//! by Taylor's theorem along the segment from `c` to `x` (which lies in the convex box `B`):
//! `f(x) = Σ_{|α|<K} f_α(c) hᵅ + Σ_{|α|=K} f_α(ξ) hᵅ` for some `ξ` on the segment, with `f_α`
//! the Taylor coefficients `∂ᵅf/α!`. Only the box's non-degenerate coordinates enter (`hᵢ = 0`
//! on the others). The coefficients come from Taylor arithmetic ([`crate::lang::Jet`]); a
//! coefficient below the order that is exactly zero (a structural zero of the arithmetic, or a
//! zero decided in exact exponential sums at a rational `c`) is recorded as `[0, 0]`.
//!
//! The model decides the goal `f ≥ 0` (or `> 0`) on `B` by one of two rules:
//!
//! 1. **range**: `Σ_α lower(C_α · Πᵢ Hᵢ^{αᵢ}) ≥ 0` (`> 0` when strict), with `Hᵢ = Bᵢ − cᵢ`
//!    and exact interval powers (even powers are `≥ 0`);
//! 2. **contact** (one free coordinate): when `C_0 = … = C_{m−1} = [0, 0]` and `C_m ≠ [0, 0]`,
//!    `f(x) = hᵐ·S(h)` with `S(h) ∈ Σ_{j ≥ m} C_j h^{j−m}`; with `σ` the sign of `hᵐ` on `H`
//!    (`H ≥ 0`: `+1`; `H ≤ 0`: `(−1)ᵐ`; across 0 only for even `m`: `+1`), `f ≥ 0` when
//!    `σ·S ≥ 0` on `H` (and `f > 0` away from `c` when `σ·S > 0`; at `c` itself `f = 0`, so a
//!    strict goal needs `c` exempt: on an open end of the domain or on the hyperplane of a
//!    monotone step). This is how a claim with contact of order `m` at `c` is decided on a box
//!    around `c` once `K > m`.
//!
//! The search rounds the coefficients outward to rationals and records them in the certificate;
//! the checker recomputes its own enclosures at a higher precision, requires each to lie inside
//! the recorded interval (a zero recorded below the order must be exactly zero in exact
//! arithmetic), and decides the recorded model again with its own exact rational arithmetic.

use super::boxes::Bx;
use super::problem::{Arith, Problem};
use crate::enclosure::{Interval, Interval64};
use crate::exact::Q;
use crate::lang::jet::{MAX_VARS, MultiIndex};
use num_traits::Zero;
use std::cmp::Ordering;

/// The largest order of a Taylor model.
pub const MAX_MODEL_ORDER: usize = 10;

/// A Taylor model of a goal on a box (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// The expansion point `c` (in the box).
    pub at: Vec<Q>,
    /// The order `K` (the degree of the remainder).
    pub order: usize,
    /// `(α, lo, hi)` for every multi-index over the free coordinates with `|α| ≤ K`: the point
    /// coefficients (`|α| < K`) and the remainder's (`|α| = K`).
    pub coeffs: Vec<(MultiIndex, Q, Q)>,
}

/// `|α|`.
pub fn degree(a: &MultiIndex) -> usize {
    a.iter().map(|&v| v as usize).sum()
}

/// The coordinates of `b` that are not single points.
pub fn free(b: &Bx) -> Vec<usize> {
    (0..b.dim()).filter(|&i| !b.degenerate(i)).collect()
}

/// Every multi-index over the coordinates `free` with `|α| ≤ order`, by degree then
/// lexicographically (the order of a model's coefficients).
pub fn indices(free: &[usize], order: usize) -> Vec<MultiIndex> {
    fn rec(free: &[usize], left: usize, cur: &mut MultiIndex, out: &mut Vec<MultiIndex>) {
        match free.split_first() {
            None => out.push(*cur),
            Some((&i, rest)) => {
                for v in 0..=left {
                    cur[i] = v as u8;
                    rec(rest, left - v, cur, out);
                }
                cur[i] = 0;
            }
        }
    }
    let mut out = Vec::new();
    rec(free, order, &mut [0; MAX_VARS], &mut out);
    out.sort_by(|a, b| degree(a).cmp(&degree(b)).then_with(|| b.cmp(a)));
    out
}

/// The coefficients a search needs for models of every order up to `kmax` at a point `c`: the
/// point coefficients of degree `< kmax` at `c` and the box coefficients of degree `1..=kmax`
/// (each with whether it is an exact zero). The box coefficients do not depend on `c`.
pub struct Coefficients {
    point: Vec<(MultiIndex, Interval, bool)>,
    boxed: Vec<(MultiIndex, Interval, bool)>,
}

/// The box coefficients of `s·∂^β g` over `b` of degree `1..=kmax` (`positive`: `s = +1`).
pub fn box_coefficients(
    p: &Problem,
    arith: Arith,
    beta: &MultiIndex,
    positive: bool,
    b: &Bx,
    kmax: usize,
) -> crate::lang::Eval<Vec<(MultiIndex, Interval, bool)>> {
    let top: Vec<MultiIndex> = indices(&free(b), kmax)
        .into_iter()
        .filter(|a| degree(a) >= 1)
        .collect();
    Ok(top
        .iter()
        .zip(p.goal_coefficients(arith, beta, positive, b, &top)?)
        .map(|(a, (i, z))| (*a, i, z))
        .collect())
}

impl Coefficients {
    /// The point coefficients of `s·∂^β g` at `c` of degree `< kmax`, with the box coefficients
    /// `boxed` ([`box_coefficients`]). Point coefficients whose enclosure contains 0 without
    /// being exactly 0 are decided in exact exponential sums where possible (a zero there
    /// becomes an exact zero).
    #[allow(clippy::too_many_arguments)]
    pub fn at(
        p: &Problem,
        arith: Arith,
        beta: &MultiIndex,
        positive: bool,
        b: &Bx,
        c: &[Q],
        kmax: usize,
        boxed: Vec<(MultiIndex, Interval, bool)>,
    ) -> crate::lang::Eval<Coefficients> {
        let low: Vec<MultiIndex> = indices(&free(b), kmax.saturating_sub(1));
        let cb = Bx {
            lo: c.to_vec(),
            hi: c.to_vec(),
        };
        let mut point: Vec<(MultiIndex, Interval, bool)> = low
            .iter()
            .zip(p.goal_coefficients(arith, beta, positive, &cb, &low)?)
            .map(|(a, (i, z))| (*a, i, z))
            .collect();
        let unsure: Vec<usize> = (0..point.len())
            .filter(|&j| !point[j].2 && *point[j].1.lo() <= 0u32 && *point[j].1.hi() >= 0u32)
            .collect();
        if !unsure.is_empty() {
            let alphas: Vec<MultiIndex> = unsure.iter().map(|&j| point[j].0).collect();
            if let Some(signs) = p.exact_signs(beta, positive, c, &alphas) {
                for (j, s) in unsure.iter().zip(signs) {
                    if s == Some(Ordering::Equal) {
                        point[*j].1 = Interval::from_f64(0.0).expect("0 is finite");
                        point[*j].2 = true;
                    }
                }
            }
        }
        Ok(Coefficients { point, boxed })
    }

    /// The model of order `k` (`1 ≤ k ≤ kmax`), its intervals rounded outward to rationals
    /// (widened by a relative `2⁻⁴⁰` unless exactly zero, so that the checker's enclosures at a
    /// higher precision fit inside).
    pub fn model(&self, c: &[Q], k: usize) -> Model {
        let mut coeffs = Vec::new();
        for (a, i, z) in &self.point {
            if degree(a) < k {
                let (lo, hi) = widen(i, *z);
                coeffs.push((*a, lo, hi));
            }
        }
        for (a, i, z) in &self.boxed {
            if degree(a) == k {
                let (lo, hi) = widen(i, *z);
                coeffs.push((*a, lo, hi));
            }
        }
        Model {
            at: c.to_vec(),
            order: k,
            coeffs,
        }
    }
}

/// The interval's ends as rationals, moved outward by `2⁻⁴⁰` of its magnitude (exact zeros
/// stay `[0, 0]`).
fn widen(i: &Interval, exact_zero: bool) -> (Q, Q) {
    let zero = Q::from_integer(0.into());
    if exact_zero || (*i.lo() == 0u32 && *i.hi() == 0u32) {
        return (zero.clone(), zero);
    }
    let (lo, hi) = (i.lo_f64(), i.hi_f64());
    let m = lo.abs().max(hi.abs());
    let pad = m * 2f64.powi(-40);
    let lo = (lo - pad).next_down();
    let hi = (hi + pad).next_up();
    (
        crate::exact::from_float(lo).unwrap_or(zero.clone()),
        crate::exact::from_float(hi).unwrap_or(zero),
    )
}

/// How a model decides its goal (see the module documentation), in `f64` interval arithmetic
/// (the checker decides again in exact rationals). `strict` is whether the goal must be `> 0`
/// on the box; `exempt_at_c` whether it may be 0 at the expansion point.
pub fn decides(m: &Model, b: &Bx, strict: bool, exempt_at_c: bool) -> bool {
    let fr = free(b);
    let h: Option<Vec<Interval64>> = (0..b.dim())
        .map(|i| {
            let lo = Interval64::from_rational(&(&b.lo[i] - &m.at[i])).ok()?;
            let hi = Interval64::from_rational(&(&b.hi[i] - &m.at[i])).ok()?;
            Some(lo.hull(&hi))
        })
        .collect();
    let Some(h) = h else { return false };
    let coef = |lo: &Q, hi: &Q| -> Option<Interval64> {
        let a = Interval64::from_rational(lo).ok()?;
        let b = Interval64::from_rational(hi).ok()?;
        Some(a.hull(&b))
    };
    // Rule 1: the range of the polynomial with interval coefficients.
    let range = || -> Option<f64> {
        let mut acc = Interval64::point(0.0);
        for (a, lo, hi) in &m.coeffs {
            let mut t = coef(lo, hi)?;
            for &i in &fr {
                if a[i] > 0 {
                    t = t.mul(&h[i].powu(a[i] as u64).ok()?).ok()?;
                }
            }
            acc = acc.add(&t).ok()?;
        }
        Some(acc.lo())
    };
    if let Some(l) = range()
        && (if strict { l > 0.0 } else { l >= 0.0 })
    {
        return true;
    }
    // Rule 2: contact at c along one free coordinate.
    if fr.len() != 1 {
        return false;
    }
    let i = fr[0];
    let mut cs: Vec<(usize, &Q, &Q)> = m
        .coeffs
        .iter()
        .map(|(a, lo, hi)| (a[i] as usize, lo, hi))
        .collect();
    cs.sort_by_key(|c| c.0);
    let Some(mm) = cs
        .iter()
        .find(|(_, lo, hi)| !(lo.is_zero() && hi.is_zero()))
        .map(|c| c.0)
    else {
        return !strict || exempt_at_c;
    };
    if mm == 0 || (strict && !exempt_at_c) {
        return false;
    }
    let hi_ = h[i];
    let sigma = if hi_.lo() >= 0.0 {
        1.0
    } else if hi_.hi() <= 0.0 {
        if mm % 2 == 0 { 1.0 } else { -1.0 }
    } else if mm % 2 == 0 {
        1.0
    } else {
        return false;
    };
    let mut s = Interval64::point(0.0);
    for (j, lo, hi) in &cs {
        if *j < mm {
            continue;
        }
        let Some(c) = coef(lo, hi) else { return false };
        let Ok(t) = hi_.powu((*j - mm) as u64).and_then(|p| c.mul(&p)) else {
            return false;
        };
        match s.add(&t) {
            Ok(v) => s = v,
            Err(_) => return false,
        }
    }
    let bound = if sigma > 0.0 { s.lo() } else { -s.hi() };
    if strict { bound > 0.0 } else { bound >= 0.0 }
}
