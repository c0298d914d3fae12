//! Sums of a per-bin term over the bin classes of the proof outline of Los–Sauerwald,
//! *Balanced Allocations in Batches: Simplified and Generalized* (SPAA 2022), §3, items 4–7.
//!
//! Ranks `i = 1..n` sort the loads heaviest first; with `k = δn` (an integer; δ is the file's
//! constant `delta`) and a bin *overloaded* when `yᵢ ≥ 0` (the DESIGN default boundary):
//!
//! | set | bins | outline |
//! |---|---|---|
//! | `Gplus` | overloaded, `i ≤ δn` | good overloaded `G₊` (`qᵢ = (1 − ε)/n`) |
//! | `Bplus` | overloaded, `i > δn` | bad overloaded `B₊` (`qᵢ = (1 + ε̃)/n`) |
//! | `Gminus` | underloaded, `i > δn` | good underloaded `G₋` |
//! | `Bminus` | underloaded, `i ≤ δn` | bad underloaded `B₋` |
//! | `B1` | the first `⌊(n − δn)/2⌋` bins of `B₊` by rank | Case B's `B₁` ("the first (n/2)(1 − δ)") |
//! | `B2` | the rest of `B₊` | Case B's `B₂` |
//! | `All` | every bin | |
//!
//! Per-bin terms: `N` (1, so `N_S = |S|`), `Y` (`yᵢ`), `Phi` (`e^{αyᵢ}`), `Psi` (`e^{−αyᵢ}`),
//! `Gamma` (their sum), and the first-order terms at the extremal vector q of eq. (3.2),
//! `Fq_Phi` (`α·Φᵢ·(qᵢ − 1/n)`), `Fq_Psi` (`α·Ψᵢ·(1/n − qᵢ)`), `Fq_Gamma` (their sum), with
//! `qᵢ = (1 − ε)/n` for `i ≤ δn` and `(1 + ε̃)/n` otherwise, `ε̃ = εδ/(1 − δ)` (ε is the constant
//! `eps`). The name of a set sum is `<term>_<set>`, e.g. `Phi_Bplus`, `N_B2`, `Fq_Psi_Gminus`.
//!
//! Tied loads: the classes are defined by rank, and the terms of tied bins are equal, so every
//! sum is the same for every order of the tied bins (only the number of bins of a tied block on
//! each side of rank δn matters).

use crate::claim::expsum::ExpSum;
use crate::claim::xfloat::XFloat;
use crate::exact::Q;
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

/// A class of bins of the outline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinSet {
    /// `G₊`: overloaded bins of rank `≤ δn`.
    Gplus,
    /// `B₊`: overloaded bins of rank `> δn`.
    Bplus,
    /// `G₋`: underloaded bins of rank `> δn`.
    Gminus,
    /// `B₋`: underloaded bins of rank `≤ δn`.
    Bminus,
    /// `B₁`: the first `⌊(n − δn)/2⌋` bins of `B₊` (by rank).
    B1,
    /// `B₂`: `B₊ ∖ B₁`.
    B2,
    /// Every bin.
    All,
}

/// A per-bin term.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Term {
    /// `1` (the set's size).
    Count,
    /// `yᵢ`.
    Y,
    /// `e^{αyᵢ}`.
    Phi,
    /// `e^{−αyᵢ}`.
    Psi,
    /// `e^{αyᵢ} + e^{−αyᵢ}`.
    Gamma,
    /// `α·e^{αyᵢ}·(qᵢ − 1/n)`.
    FqPhi,
    /// `α·e^{−αyᵢ}·(1/n − qᵢ)`.
    FqPsi,
    /// `FqPhi + FqPsi`.
    FqGamma,
}

impl Term {
    /// Whether the term needs `alpha`.
    pub fn needs_alpha(self) -> bool {
        !matches!(self, Term::Count | Term::Y)
    }
    /// Whether the term needs `eps` (the extremal vector q).
    pub fn needs_eps(self) -> bool {
        matches!(self, Term::FqPhi | Term::FqPsi | Term::FqGamma)
    }
    /// Whether the term is exponential (no rational value).
    pub fn exponential(self) -> bool {
        self.needs_alpha()
    }
}

/// A set sum `Σ_{i ∈ set} term(i)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetSum {
    /// The per-bin term.
    pub term: Term,
    /// The set.
    pub set: BinSet,
}

/// Set names in expressions.
pub const SETS: [(BinSet, &str); 7] = [
    (BinSet::Gplus, "Gplus"),
    (BinSet::Bplus, "Bplus"),
    (BinSet::Gminus, "Gminus"),
    (BinSet::Bminus, "Bminus"),
    (BinSet::B1, "B1"),
    (BinSet::B2, "B2"),
    (BinSet::All, "All"),
];

/// Term names in expressions.
pub const TERMS: [(Term, &str); 8] = [
    (Term::Count, "N"),
    (Term::Y, "Y"),
    (Term::Phi, "Phi"),
    (Term::Psi, "Psi"),
    (Term::Gamma, "Gamma"),
    (Term::FqPhi, "Fq_Phi"),
    (Term::FqPsi, "Fq_Psi"),
    (Term::FqGamma, "Fq_Gamma"),
];

/// The set sum called `name` (`<term>_<set>`), if any.
///
/// ```
/// use balloc::claim::bin_sets::{lookup, BinSet, Term};
/// let s = lookup("Fq_Phi_Bplus").unwrap();
/// assert_eq!((s.term, s.set), (Term::FqPhi, BinSet::Bplus));
/// assert_eq!(lookup("N_B2").unwrap().set, BinSet::B2);
/// assert!(lookup("Phi_Bad").is_none());
/// ```
pub fn lookup(name: &str) -> Option<SetSum> {
    let (head, set) = name.rsplit_once('_')?;
    let set = SETS.iter().find(|(_, s)| *s == set)?.0;
    let term = TERMS.iter().find(|(_, t)| *t == head)?.0;
    Some(SetSum { term, set })
}

/// Every set-sum name.
pub fn names() -> Vec<String> {
    let mut v = Vec::new();
    for (_, t) in TERMS {
        for (_, s) in SETS {
            v.push(format!("{t}_{s}"));
        }
    }
    v
}

/// Membership of the ranks `0..n` (heaviest first) in a set, for sorted `overloaded` flags and
/// `k = δn`.
fn members(set: BinSet, overloaded: &[bool], k: usize) -> Vec<bool> {
    let n = overloaded.len();
    let b1 = (n - k) / 2;
    let mut seen_bplus = 0usize;
    (0..n)
        .map(|i| {
            let over = overloaded[i];
            let good_rank = i < k;
            let bplus = over && !good_rank;
            let in_b1 = bplus && {
                seen_bplus += 1;
                seen_bplus <= b1
            };
            match set {
                BinSet::Gplus => over && good_rank,
                BinSet::Bplus => bplus,
                BinSet::Gminus => !over && !good_rank,
                BinSet::Bminus => !over && good_rank,
                BinSet::B1 => in_b1,
                BinSet::B2 => bplus && !in_b1,
                BinSet::All => true,
            }
        })
        .collect()
}

/// The parameters of the set sums at one case: `n`, `k = δn`, α, ε̃-vector q.
#[derive(Debug, Clone)]
pub struct Params {
    /// `δn`.
    pub k: usize,
    /// α (exact), when the file defines it.
    pub alpha: Option<Q>,
    /// `qᵢ − 1/n` for `i ≤ δn` and for `i > δn` (exact), when the file defines `eps`.
    pub excess: Option<(Q, Q)>,
}

impl Params {
    /// The parameters at `n` for δ, and optionally α and ε. An error when δn is not an integer.
    ///
    /// ```
    /// use balloc::claim::bin_sets::Params;
    /// use balloc::exact::{int, Q};
    /// let h = Q::new(1.into(), 2.into());
    /// let p = Params::new(8, &h, Some(int(1)), Some(&Q::new(1.into(), 4.into()))).unwrap();
    /// assert_eq!(p.k, 4);
    /// // q − 1/n = −ε/n = −1/32 on the first half, +ε̃/n = +1/32 on the second (ε̃ = ε at δ = 1/2).
    /// assert_eq!(p.excess.unwrap(), (Q::new((-1).into(), 32.into()), Q::new(1.into(), 32.into())));
    /// assert!(Params::new(6, &Q::new(1.into(), 4.into()), None, None).is_err());
    /// ```
    pub fn new(
        n: usize,
        delta: &Q,
        alpha: Option<Q>,
        eps: Option<&Q>,
    ) -> crate::error::Result<Params> {
        let k = crate::condition::delta_n(n, delta)?;
        let nn = Q::from_integer(BigInt::from(n));
        let excess = eps.map(|e| {
            let tilde = e * delta / (Q::one() - delta);
            (-e / &nn, tilde / &nn)
        });
        Ok(Params { k, alpha, excess })
    }
}

/// Sorted (heaviest first) values and flags.
fn sorted<T: Clone + PartialOrd>(y: &[T], nonneg: impl Fn(&T) -> bool) -> (Vec<T>, Vec<bool>) {
    let mut ys = y.to_vec();
    ys.sort_by(|a, b| b.partial_cmp(a).unwrap_or(std::cmp::Ordering::Equal));
    let over = ys.iter().map(nonneg).collect();
    (ys, over)
}

/// The set sum in extended-range floating point at normalised loads `y`.
///
/// ```
/// use balloc::claim::bin_sets::{lookup, value, Params};
/// use balloc::exact::{int, Q};
/// // n = 4, δ = 1/2, y = (1, 1, 0, −2): G₊ = ranks 1, 2; B₊ = rank 3 (y = 0); G₋ = rank 4.
/// let p = Params::new(4, &Q::new(1.into(), 2.into()), Some(int(1)), None).unwrap();
/// let y = [1.0, 0.0, -2.0, 1.0];
/// assert_eq!(value(lookup("N_Bplus").unwrap(), &y, &p).to_f64(), 1.0);
/// assert!((value(lookup("Phi_Gplus").unwrap(), &y, &p).to_f64() - 2.0 * 1f64.exp()).abs() < 1e-12);
/// assert!((value(lookup("Psi_Gminus").unwrap(), &y, &p).to_f64() - 2f64.exp()).abs() < 1e-12);
/// ```
pub fn value(s: SetSum, y: &[f64], p: &Params) -> XFloat {
    let (ys, over) = sorted(y, |v| *v >= 0.0);
    let mem = members(s.set, &over, p.k);
    let alpha = p
        .alpha
        .as_ref()
        .map(|a| num_traits::ToPrimitive::to_f64(a).unwrap_or(f64::NAN))
        .unwrap_or(f64::NAN);
    let exc = p.excess.as_ref().map(|(a, b)| {
        (
            num_traits::ToPrimitive::to_f64(a).unwrap_or(f64::NAN),
            num_traits::ToPrimitive::to_f64(b).unwrap_or(f64::NAN),
        )
    });
    let mut acc = XFloat::ZERO;
    for (i, v) in ys.iter().enumerate() {
        if !mem[i] {
            continue;
        }
        let d = exc
            .map(|(a, b)| if i < p.k { a } else { b })
            .unwrap_or(f64::NAN);
        let phi = || XFloat::exp(XFloat::from_f64(alpha * v));
        let psi = || XFloat::exp(XFloat::from_f64(-alpha * v));
        let a = XFloat::from_f64(alpha);
        let dd = XFloat::from_f64(d);
        let t = match s.term {
            Term::Count => XFloat::from_f64(1.0),
            Term::Y => XFloat::from_f64(*v),
            Term::Phi => phi(),
            Term::Psi => psi(),
            Term::Gamma => phi().add(psi()),
            Term::FqPhi => a.mul(phi()).mul(dd),
            Term::FqPsi => a.mul(psi()).mul(dd).neg(),
            Term::FqGamma => a.mul(phi().sub(psi())).mul(dd),
        };
        acc = acc.add(t);
    }
    acc
}

/// The set sum as an exact exponential sum at exact normalised loads `y` (`None` when a needed
/// parameter is missing).
///
/// ```
/// use balloc::claim::bin_sets::{lookup, exact, Params};
/// use balloc::exact::{int, Q};
/// let p = Params::new(4, &Q::new(1.into(), 2.into()), Some(int(1)), None).unwrap();
/// let y = [int(1), int(0), int(-2), int(1)];
/// // Φ over G₊ = 2e¹ exactly; |G₋| = 1.
/// assert_eq!(exact(lookup("Phi_Gplus").unwrap(), &y, &p).unwrap().len(), 1);
/// assert_eq!(exact(lookup("N_Gminus").unwrap(), &y, &p).unwrap().as_rational(), Some(int(1)));
/// ```
pub fn exact(s: SetSum, y: &[Q], p: &Params) -> Option<ExpSum> {
    let (ys, over) = sorted(y, |v| !v.is_negative());
    let mem = members(s.set, &over, p.k);
    let mut acc = ExpSum::default();
    for (i, v) in ys.iter().enumerate() {
        if !mem[i] {
            continue;
        }
        match s.term {
            Term::Count => acc.push(Q::one(), Q::zero()),
            Term::Y => acc.push(v.clone(), Q::zero()),
            _ => {
                let a = p.alpha.as_ref()?;
                let (phi_c, psi_c) = match s.term {
                    Term::Phi => (Q::one(), Q::zero()),
                    Term::Psi => (Q::zero(), Q::one()),
                    Term::Gamma => (Q::one(), Q::one()),
                    _ => {
                        let (lo, hi) = p.excess.as_ref()?;
                        let d = if i < p.k { lo } else { hi };
                        let c = a * d;
                        match s.term {
                            Term::FqPhi => (c, Q::zero()),
                            Term::FqPsi => (Q::zero(), -c),
                            _ => (c.clone(), -c),
                        }
                    }
                };
                acc.push(phi_c, a * v);
                acc.push(psi_c, -(a * v));
            }
        }
    }
    Some(acc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::int;

    /// Hand example: n = 8, δ = 1/2 (k = 4), y sorted = (3, 2, 1, 1, 1, 0, −4, −4).
    /// G₊ = ranks 1–4, B₊ = ranks 5–6 (y = 1, 0), B₁ = first ⌊(8 − 4)/2⌋ = 2 of B₊ = both,
    /// B₂ = ∅, G₋ = ranks 7–8, B₋ = ∅. Σ_{G₊} y = 7, Σ_{G₋} y = −8.
    #[test]
    fn classes_by_hand() {
        let p = Params::new(8, &Q::new(1.into(), 2.into()), Some(int(1)), None).unwrap();
        let y = [1.0, -4.0, 3.0, 0.0, 1.0, 2.0, -4.0, 1.0];
        let v = |name: &str| value(lookup(name).unwrap(), &y, &p).to_f64();
        assert_eq!(
            [
                v("N_Gplus"),
                v("N_Bplus"),
                v("N_B1"),
                v("N_B2"),
                v("N_Gminus"),
                v("N_Bminus")
            ],
            [4.0, 2.0, 2.0, 0.0, 2.0, 0.0]
        );
        assert_eq!((v("Y_Gplus"), v("Y_Gminus"), v("Y_All")), (7.0, -8.0, 0.0));
    }

    /// B₂ is non-empty once more than ⌊(n − δn)/2⌋ bins past rank δn are overloaded:
    /// n = 8, δ = 1/4 (k = 2), y = (1, 1, 1, 1, 1, 1, −3, −3): B₊ = ranks 3–6, B₁ = ranks 3–5
    /// (⌊6/2⌋ = 3), B₂ = rank 6. With α = 1, ε = 1/4: ε̃ = 1/12, q − 1/n = +1/96 past rank 2, so
    /// Fq_Phi over B₂ = e/96 and Fq_Psi over G₋ = −2e³/96.
    #[test]
    fn case_b_split_and_first_order_terms() {
        let d = Q::new(1.into(), 4.into());
        let p = Params::new(8, &d, Some(int(1)), Some(&d)).unwrap();
        let y = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -3.0, -3.0];
        let v = |name: &str| value(lookup(name).unwrap(), &y, &p).to_f64();
        assert_eq!((v("N_B1"), v("N_B2")), (3.0, 1.0));
        let e = 1f64.exp();
        assert!((v("Fq_Phi_B2") - e / 96.0).abs() < 1e-15);
        assert!((v("Fq_Psi_Gminus") + 2.0 * e.powi(3) / 96.0).abs() < 1e-14);
        // The exact route agrees with the float one.
        let yq: Vec<Q> = y.iter().map(|v| Q::from_float(*v).unwrap()).collect();
        for name in names() {
            let s = lookup(&name).unwrap();
            let x = exact(s, &yq, &p).unwrap().to_f64();
            let f = value(s, &y, &p).to_f64();
            assert!(
                (x - f).abs() <= 1e-12 * (1.0 + f.abs()),
                "{name}: {x} vs {f}"
            );
        }
    }
}
