//! Rational functions with opaque atoms: the exact identity test of two expressions.
//!
//! An expression built from slots, rational numbers, `+`, `−`, `·`, `/` and integer powers is a
//! rational function `N/D` of its slots, with `N` and `D` polynomials with rational
//! coefficients. Every other sub-expression (`cosh(x)`, `exp(a/16)`, `sqrt(y)`, a power with a
//! non-integer exponent) is an **atom**: a new indeterminate, the same indeterminate for two
//! atoms of the same function whose arguments are themselves identical rational functions (so
//! `sinh(a/16)` and `sinh(a·(1/16))` are one atom).
//!
//! Two expressions `e₁ = N₁/D₁` and `e₂ = N₂/D₂` are **identical** when the polynomial
//! `N₁·D₂ − N₂·D₁` is zero: expanded into monomials, the polynomial is in its normal form, so
//! the test is exact. The test is sufficient, not necessary: identities that need properties of
//! the atoms (`cosh² − sinh² = 1`) are not found. Where both sides are defined (no denominator
//! vanishes) identical expressions have equal values, since then `e₁ − e₂ = (N₁D₂ − N₂D₁)/(D₁D₂)`
//! and a polynomial that is zero as a polynomial is zero at every point, whatever values the
//! atoms take.
//!
//! ```
//! use balloc::lang::compile_value;
//! use balloc::prover::ratfun::identical;
//! let names = ["s", "a", "b"];
//! // Lemma 3.8's cancellation (Bansal–Feldheim §3.4): with ε = as/2, εₜ = ε + b(s − ε),
//! // p = s − εₜ, x₁ = a/16, x₂ = as/(16(1 − s)): p·x₁ − (1 − p)·x₂ = −a·εₜ/(16(1 − s)).
//! let et = "(a*s/2 + b*(s - a*s/2))";
//! let lhs = format!("(s - {et})*(a/16) - (1 - (s - {et}))*(a*s/(16*(1 - s)))");
//! let rhs = format!("-a*{et}/(16*(1 - s))");
//! let l = compile_value(&lhs, &names).unwrap();
//! assert!(identical(&l, &compile_value(&rhs, &names).unwrap()).unwrap());
//! // One coefficient off is not an identity.
//! let wrong = format!("-a*{et}/(15*(1 - s))");
//! assert!(!identical(&l, &compile_value(&wrong, &names).unwrap()).unwrap());
//! // Atoms with identical arguments are one indeterminate.
//! let c = compile_value("sinh(a/16)*2", &names).unwrap();
//! assert!(identical(&c, &compile_value("sinh(a*(1/16)) + sinh(a/16)", &names).unwrap()).unwrap());
//! ```

use crate::exact::Q;
use crate::lang::{BinOp, Expr, Func};
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::BTreeMap;

/// The most monomials a polynomial of an identity test may have (the test gives up beyond).
pub const MAX_TERMS: usize = 200_000;

/// The largest integer power expanded.
pub const MAX_POWER: u32 = 32;

/// Atoms are numbered from here (slots below).
const ATOM_BASE: usize = 1 << 32;

/// A monomial: indeterminates (slots, then atoms from `ATOM_BASE`) with their powers, sorted.
type Mono = Vec<(usize, u32)>;

/// A polynomial with rational coefficients (no zero coefficient).
#[derive(Debug, Clone, PartialEq, Default)]
struct Polyn {
    terms: BTreeMap<Mono, Q>,
}

impl Polyn {
    fn constant(q: Q) -> Polyn {
        let mut p = Polyn::default();
        if !q.is_zero() {
            p.terms.insert(Vec::new(), q);
        }
        p
    }

    fn var(v: usize) -> Polyn {
        let mut p = Polyn::default();
        p.terms.insert(vec![(v, 1)], Q::one());
        p
    }

    fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    fn is_one(&self) -> bool {
        self.terms.len() == 1 && self.terms.get(&Vec::new()).is_some_and(|c| c.is_one())
    }

    fn add(&self, o: &Polyn, sign: i64) -> Polyn {
        let mut p = self.clone();
        let s = Q::from_integer(sign.into());
        for (m, c) in &o.terms {
            let e = p.terms.entry(m.clone()).or_insert_with(Q::zero);
            *e += c * &s;
            if e.is_zero() {
                p.terms.remove(m);
            }
        }
        p
    }

    fn mul(&self, o: &Polyn) -> Result<Polyn, String> {
        if self.is_one() {
            return Ok(o.clone());
        }
        if o.is_one() {
            return Ok(self.clone());
        }
        let mut p = Polyn::default();
        for (m1, c1) in &self.terms {
            for (m2, c2) in &o.terms {
                let m = mono_mul(m1, m2);
                let e = p.terms.entry(m.clone()).or_insert_with(Q::zero);
                *e += c1 * c2;
                if e.is_zero() {
                    p.terms.remove(&m);
                }
            }
            if p.terms.len() > MAX_TERMS {
                return Err(format!(
                    "the identity test gives up: a polynomial of more than {MAX_TERMS} monomials"
                ));
            }
        }
        Ok(p)
    }
}

fn mono_mul(a: &Mono, b: &Mono) -> Mono {
    let mut m: BTreeMap<usize, u32> = a.iter().copied().collect();
    for &(v, k) in b {
        *m.entry(v).or_insert(0) += k;
    }
    m.into_iter().collect()
}

/// A rational function `num/den`.
#[derive(Debug, Clone)]
struct Rat {
    num: Polyn,
    den: Polyn,
}

impl Rat {
    fn poly(p: Polyn) -> Rat {
        Rat {
            num: p,
            den: Polyn::constant(Q::one()),
        }
    }

    fn add(&self, o: &Rat, sign: i64) -> Result<Rat, String> {
        if self.den == o.den {
            return Ok(Rat {
                num: self.num.add(&o.num, sign),
                den: self.den.clone(),
            });
        }
        Ok(Rat {
            num: self.num.mul(&o.den)?.add(&o.num.mul(&self.den)?, sign),
            den: self.den.mul(&o.den)?,
        })
    }

    fn mul(&self, o: &Rat) -> Result<Rat, String> {
        Ok(Rat {
            num: self.num.mul(&o.num)?,
            den: self.den.mul(&o.den)?,
        })
    }

    fn inverse(&self) -> Result<Rat, String> {
        if self.num.is_zero() {
            return Err("a division by an expression that is identically 0".into());
        }
        Ok(Rat {
            num: self.den.clone(),
            den: self.num.clone(),
        })
    }

    /// Whether `self − o` is the zero rational function.
    fn same(&self, o: &Rat) -> Result<bool, String> {
        Ok(self.num.mul(&o.den)? == o.num.mul(&self.den)?)
    }
}

/// What identifies an atom.
#[derive(Debug, Clone)]
enum Key {
    /// A function of the language at rational-function arguments.
    Call(Func, Vec<Rat>),
    /// `base^q` for a rational `q` that is not an integer (or too large to expand).
    Pow(Rat, Q),
    /// Any other sub-expression, by its structure.
    Other(Expr),
}

/// The atoms met so far, numbered in order.
#[derive(Default)]
struct Atoms {
    keys: Vec<Key>,
}

impl Atoms {
    /// The indeterminate of `key` (an earlier atom's when identical).
    fn of(&mut self, key: Key) -> Result<usize, String> {
        for (j, k) in self.keys.iter().enumerate() {
            let same = match (k, &key) {
                (Key::Call(f, a), Key::Call(g, b)) if f == g && a.len() == b.len() => {
                    let mut all = true;
                    for (x, y) in a.iter().zip(b) {
                        if !x.same(y)? {
                            all = false;
                            break;
                        }
                    }
                    all
                }
                (Key::Pow(a, p), Key::Pow(b, q)) => p == q && a.same(b)?,
                (Key::Other(a), Key::Other(b)) => a == b,
                _ => false,
            };
            if same {
                return Ok(ATOM_BASE + j);
            }
        }
        self.keys.push(key);
        Ok(ATOM_BASE + self.keys.len() - 1)
    }

    /// The rational function of `e`.
    fn rat(&mut self, e: &Expr) -> Result<Rat, String> {
        Ok(match e {
            Expr::Num(q, _) => Rat::poly(Polyn::constant(q.clone())),
            Expr::Slot(s) => Rat::poly(Polyn::var(*s)),
            Expr::Neg(a) => {
                let r = self.rat(a)?;
                Rat {
                    num: Polyn::default().add(&r.num, -1),
                    den: r.den,
                }
            }
            Expr::Op(op, a, b) => {
                if let (BinOp::Pow, Some(q)) = (op, number(b)) {
                    return self.power(a, &q);
                }
                let (ra, rb) = (self.rat(a)?, self.rat(b)?);
                match op {
                    BinOp::Add => ra.add(&rb, 1)?,
                    BinOp::Sub => ra.add(&rb, -1)?,
                    BinOp::Mul => ra.mul(&rb)?,
                    BinOp::Div => ra.mul(&rb.inverse()?)?,
                    BinOp::Pow => self.atom(Key::Other(e.clone()))?,
                }
            }
            Expr::Call(f, args) => {
                let mut rs = Vec::with_capacity(args.len());
                for a in args {
                    rs.push(self.rat(a)?);
                }
                self.atom(Key::Call(*f, rs))?
            }
            _ => self.atom(Key::Other(e.clone()))?,
        })
    }

    /// `a^q`: expanded for an integer `|q| ≤ MAX_POWER`, else an atom.
    fn power(&mut self, a: &Expr, q: &Q) -> Result<Rat, String> {
        let ra = self.rat(a)?;
        let k = q
            .is_integer()
            .then(|| q.abs().to_integer().to_u32())
            .flatten()
            .filter(|k| *k <= MAX_POWER);
        let Some(k) = k else {
            return self.atom(Key::Pow(ra, q.clone()));
        };
        let mut acc = Rat::poly(Polyn::constant(Q::one()));
        for _ in 0..k {
            acc = acc.mul(&ra)?;
        }
        if q.is_negative() {
            acc = acc.inverse()?;
        }
        Ok(acc)
    }

    fn atom(&mut self, key: Key) -> Result<Rat, String> {
        Ok(Rat::poly(Polyn::var(self.of(key)?)))
    }
}

/// The value of a literal number (possibly negated).
fn number(e: &Expr) -> Option<Q> {
    match e {
        Expr::Num(q, _) => Some(q.clone()),
        Expr::Neg(a) => number(a).map(|q| -q),
        _ => None,
    }
}

/// Whether `a` and `b` are the same rational function of their slots and atoms (see the module
/// documentation); an error when the test gives up (a polynomial too large) or a side divides
/// by an expression that is identically 0.
pub fn identical(a: &Expr, b: &Expr) -> Result<bool, String> {
    let mut atoms = Atoms::default();
    let (ra, rb) = (atoms.rat(a)?, atoms.rat(b)?);
    ra.same(&rb)
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::lang::compile_value;

    fn e(s: &str) -> Expr {
        compile_value(s, &["x", "y", "z"]).unwrap()
    }

    fn identities_and_non_identities() {
        // (x + y)² = x² + 2xy + y², expanded by hand.
        assert!(identical(&e("(x + y)^2"), &e("x^2 + 2*x*y + y^2")).unwrap());
        assert!(!identical(&e("(x + y)^2"), &e("x^2 + y^2")).unwrap());
        // 1/x + 1/y = (x + y)/(xy).
        assert!(identical(&e("1/x + 1/y"), &e("(x + y)/(x*y)")).unwrap());
        // x⁻² = 1/(x·x); (x/y)⁻¹ = y/x.
        assert!(identical(&e("x^(-2)"), &e("1/(x*x)")).unwrap());
        assert!(identical(&e("(x/y)^(-1)"), &e("y/x")).unwrap());
        // Atoms: cosh(2x/2) is cosh(x); cosh(x) and cosh(y) are different indeterminates, and
        // cosh² − sinh² = 1 is beyond the test (a property of the atoms).
        assert!(identical(&e("cosh(2*x/2) - cosh(x)"), &e("0")).unwrap());
        assert!(!identical(&e("cosh(x)"), &e("cosh(y)")).unwrap());
        assert!(!identical(&e("cosh(x)^2 - sinh(x)^2"), &e("1")).unwrap());
        // A non-integer power is an atom, equal for equal bases.
        assert!(identical(&e("x^(1/2)*(y + z)"), &e("y*x^(1/2) + x^(1/2)*z")).unwrap());
        // Division by an expression that is identically 0.
        assert!(identical(&e("x/(y - y)"), &e("0")).is_err());
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[crate::unit::Test {
        name: "identities_and_non_identities",
        run: identities_and_non_identities,
        panics: None,
    }];
}
