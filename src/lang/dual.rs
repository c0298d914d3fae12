//! Forward-mode automatic differentiation as a number domain: [`Dual<D>`] evaluates an
//! expression and its gradient with respect to `k` variables in any inner domain `D`.
//!
//! A number of `Dual<D>` is `(v, ∇v)` with `v` and the `k` partial derivatives in `D`; every
//! operation applies the chain rule (`(ab)' = a'b + ab'`, `(a/b)' = (a' − (a/b)b')/b`,
//! `(eᵃ)' = eᵃa'`, `(ln a)' = a'/a`, `(√a)' = a'/(2√a)`, `(aᵏ)' = k·aᵏ⁻¹a'`,
//! `(cosh a)' = sinh(a)a'`, `(sinh a)' = cosh(a)a'`). Over [`Enclosure`] the value and every
//! partial derivative are intervals with outward rounding: evaluated on a box, the result
//! encloses `f(x)` and `∂ᵢf(x)` for **every** `x` of the box (the derivative rules hold pointwise
//! and interval arithmetic encloses every pointwise evaluation). Nesting gives higher
//! derivatives: in `Dual<Dual<Enclosure>>` the gradient entries are themselves dual numbers,
//! so `∂ⱼ∂ᵢf` is the `j`-th partial of the `i`-th entry ([`Seed::partial`]).
//!
//! Where a function has no derivative on part of the argument's range (`|a|` or `min`/`max` at
//! an undecided comparison, `√a` with `0` in the enclosure, `⌊a⌋` at a jump), the operation
//! returns [`EvalError::Undecided`] (or `Undefined`), never a wrong derivative.
//!
//! ```
//! use balloc::lang::{compile_value, Dual, Enclosure, Seed, Slots};
//! use balloc::enclosure::Interval;
//! // f(x, y) = x²y at (3, 2): f = 18, ∂f/∂x = 2xy = 12, ∂f/∂y = x² = 9.
//! let e = compile_value("x^2 * y", &["x", "y"]).unwrap();
//! let d = Dual::new(Enclosure { prec: 64 }, 2);
//! let x = d.seed(&Interval::from_f64(3.0).unwrap(), 0);
//! let y = d.seed(&Interval::from_f64(2.0).unwrap(), 1);
//! let f = e.eval(&d, &Slots(&[x, y]), None).unwrap();
//! assert!(d.partial(&f, &[]).unwrap().contains_f64(18.0));
//! assert!(d.partial(&f, &[0]).unwrap().contains_f64(12.0));
//! assert!(d.partial(&f, &[1]).unwrap().contains_f64(9.0));
//! ```

use super::domain::{Domain, Enclosure, Eval, EvalError};
use crate::enclosure::Interval;
use crate::exact::Q;
use crate::trust::Trust;
use std::cmp::Ordering;

/// Forward-mode differentiation over the inner domain `D` with respect to `vars` variables, or
/// along one variable only (a directional derivative: one partial instead of `vars`, which keeps
/// nested derivatives such as `∂ₐ∂ₐ∇f` small).
#[derive(Debug, Clone, Copy)]
pub struct Dual<D> {
    /// The domain of the value and of each partial derivative.
    pub inner: D,
    /// The number of variables (the length of every gradient; 1 along one variable).
    pub vars: usize,
    /// The one variable differentiated, when not all are.
    pub along: Option<usize>,
}

impl<D> Dual<D> {
    /// Differentiation with respect to `vars` variables over `inner`.
    pub fn new(inner: D, vars: usize) -> Dual<D> {
        Dual {
            inner,
            vars,
            along: None,
        }
    }

    /// Differentiation with respect to variable `var` only.
    ///
    /// ```
    /// use balloc::lang::{compile_value, Dual, Enclosure, Seed, Slots};
    /// use balloc::enclosure::Interval;
    /// // ∂²(x³y)/∂x² = 6xy = 36 at (3, 2), with one derivative per level.
    /// let d = Dual::along(Dual::along(Enclosure { prec: 64 }, 0), 0);
    /// let v = |x: f64, i| d.seed(&Interval::from_f64(x).unwrap(), i);
    /// let f = compile_value("x^3*y", &["x", "y"]).unwrap().eval(&d, &Slots(&[v(3.0, 0), v(2.0, 1)]), None).unwrap();
    /// assert!(d.partial(&f, &[0, 0]).unwrap().contains_f64(36.0));
    /// assert!(d.partial(&f, &[1]).is_none()); // not differentiated along y
    /// ```
    pub fn along(inner: D, var: usize) -> Dual<D> {
        Dual {
            inner,
            vars: 1,
            along: Some(var),
        }
    }
}

/// A dual number: a value and its gradient. An empty gradient means every partial derivative is
/// `0` (a constant), which saves the arithmetic on literals and constants.
#[derive(Debug, Clone)]
pub struct DualNum<N> {
    /// The value.
    pub v: N,
    /// The partial derivatives (empty: all zero).
    pub g: Vec<N>,
}

impl<N> DualNum<N> {
    /// A constant (zero gradient).
    pub fn constant(v: N) -> DualNum<N> {
        DualNum { v, g: Vec::new() }
    }
}

fn undecided<T>(what: impl Into<String>) -> Eval<T> {
    Err(EvalError::Undecided(what.into()))
}

impl<D: Domain> Dual<D> {
    /// `∇(scale·a)` for a gradient `a` (empty stays empty).
    fn scale(&self, s: &D::N, a: &[D::N]) -> Eval<Vec<D::N>> {
        a.iter().map(|x| self.inner.mul(s, x)).collect()
    }

    /// `αa + βb` of two gradients, where `None` stands for a coefficient of 1.
    fn combine(
        &self,
        a: &[D::N],
        sa: Option<&D::N>,
        b: &[D::N],
        sb: Option<&D::N>,
        sub: bool,
    ) -> Eval<Vec<D::N>> {
        let d = &self.inner;
        let term = |x: &D::N, s: Option<&D::N>| -> Eval<D::N> {
            match s {
                Some(s) => d.mul(s, x),
                None => Ok(x.clone()),
            }
        };
        match (a.is_empty(), b.is_empty()) {
            (true, true) => Ok(Vec::new()),
            (false, true) => a.iter().map(|x| term(x, sa)).collect(),
            (true, false) => b
                .iter()
                .map(|y| {
                    let t = term(y, sb)?;
                    if sub { d.neg(&t) } else { Ok(t) }
                })
                .collect(),
            (false, false) => a
                .iter()
                .zip(b)
                .map(|(x, y)| {
                    let (x, y) = (term(x, sa)?, term(y, sb)?);
                    if sub { d.sub(&x, &y) } else { d.add(&x, &y) }
                })
                .collect(),
        }
    }

    /// `f(a)` with `f' (a)` given: the chain rule `∇f(a) = f'(a)·∇a`.
    fn chain(
        &self,
        v: D::N,
        a: &DualNum<D::N>,
        fprime: impl FnOnce() -> Eval<D::N>,
    ) -> Eval<DualNum<D::N>> {
        if a.g.is_empty() {
            return Ok(DualNum::constant(v));
        }
        let s = fprime()?;
        Ok(DualNum {
            v,
            g: self.scale(&s, &a.g)?,
        })
    }

    fn is_constant(&self, a: &DualNum<D::N>) -> bool {
        a.g.is_empty()
    }
}

impl<D: Domain> Domain for Dual<D> {
    type N = DualNum<D::N>;

    fn trust(&self) -> Trust {
        self.inner.trust()
    }
    fn name(&self) -> String {
        format!("derivatives over {}", self.inner.name())
    }
    fn exact_inputs(&self) -> bool {
        self.inner.exact_inputs()
    }
    fn rational(&self, q: &Q) -> Eval<Self::N> {
        Ok(DualNum::constant(self.inner.rational(q)?))
    }
    fn literal(&self, q: &Q, f: f64) -> Eval<Self::N> {
        Ok(DualNum::constant(self.inner.literal(q, f)?))
    }
    fn float(&self, v: f64) -> Eval<Self::N> {
        Ok(DualNum::constant(self.inner.float(v)?))
    }
    fn xfloat(&self, v: crate::xfloat::XFloat) -> Eval<Self::N> {
        Ok(DualNum::constant(self.inner.xfloat(v)?))
    }
    fn add(&self, a: &Self::N, b: &Self::N) -> Eval<Self::N> {
        Ok(DualNum {
            v: self.inner.add(&a.v, &b.v)?,
            g: self.combine(&a.g, None, &b.g, None, false)?,
        })
    }
    fn sub(&self, a: &Self::N, b: &Self::N) -> Eval<Self::N> {
        Ok(DualNum {
            v: self.inner.sub(&a.v, &b.v)?,
            g: self.combine(&a.g, None, &b.g, None, true)?,
        })
    }
    fn mul(&self, a: &Self::N, b: &Self::N) -> Eval<Self::N> {
        // (ab)' = b·a' + a·b'
        Ok(DualNum {
            v: self.inner.mul(&a.v, &b.v)?,
            g: self.combine(&a.g, Some(&b.v), &b.g, Some(&a.v), false)?,
        })
    }
    fn div(&self, a: &Self::N, b: &Self::N) -> Eval<Self::N> {
        let d = &self.inner;
        let v = d.div(&a.v, &b.v)?;
        if self.is_constant(b) {
            // (a/c)' = a'/c
            let g = a.g.iter().map(|x| d.div(x, &b.v)).collect::<Eval<_>>()?;
            return Ok(DualNum { v, g });
        }
        // (a/b)' = (a' − (a/b)·b')/b
        let num = self.combine(&a.g, None, &b.g, Some(&v), true)?;
        let g = num.iter().map(|x| d.div(x, &b.v)).collect::<Eval<_>>()?;
        Ok(DualNum { v, g })
    }
    fn neg(&self, a: &Self::N) -> Eval<Self::N> {
        Ok(DualNum {
            v: self.inner.neg(&a.v)?,
            g: a.g.iter().map(|x| self.inner.neg(x)).collect::<Eval<_>>()?,
        })
    }
    fn powi(&self, a: &Self::N, k: i64) -> Eval<Self::N> {
        let d = &self.inner;
        let v = d.powi(&a.v, k)?;
        if k == 0 {
            return Ok(DualNum::constant(v));
        }
        // (aᵏ)' = k·aᵏ⁻¹·a'
        self.chain(v, a, || {
            let km1 = if k == 1 {
                d.one()
            } else {
                d.powi(&a.v, k - 1)?
            };
            d.mul(&d.float(k as f64)?, &km1)
        })
    }
    fn exp(&self, a: &Self::N) -> Eval<Self::N> {
        let v = self.inner.exp(&a.v)?;
        let s = v.clone();
        self.chain(v, a, || Ok(s))
    }
    fn ln(&self, a: &Self::N) -> Eval<Self::N> {
        let d = &self.inner;
        let v = d.ln(&a.v)?;
        self.chain(v, a, || d.div(&d.one(), &a.v))
    }
    fn sqrt(&self, a: &Self::N) -> Eval<Self::N> {
        let d = &self.inner;
        let v = d.sqrt(&a.v)?;
        let s = v.clone();
        // (√a)' = 1/(2√a): undefined (an error) when the enclosure of √a reaches 0.
        self.chain(v, a, || d.div(&d.one(), &d.mul(&d.float(2.0)?, &s)?))
    }
    fn cosh(&self, a: &Self::N) -> Eval<Self::N> {
        let d = &self.inner;
        let v = d.cosh(&a.v)?;
        self.chain(v, a, || d.sinh(&a.v))
    }
    fn sinh(&self, a: &Self::N) -> Eval<Self::N> {
        let d = &self.inner;
        let v = d.sinh(&a.v)?;
        self.chain(v, a, || d.cosh(&a.v))
    }
    fn abs(&self, a: &Self::N) -> Eval<Self::N> {
        if self.is_constant(a) {
            return Ok(DualNum::constant(self.inner.abs(&a.v)?));
        }
        match self.inner.cmp(&a.v, &self.inner.zero()) {
            Ok(Ordering::Greater) => Ok(a.clone()),
            Ok(Ordering::Less) => self.neg(a),
            _ => undecided("|a| where the sign of a is not decided has no derivative"),
        }
    }
    fn floor(&self, a: &Self::N) -> Eval<Self::N> {
        let v = self.inner.floor(&a.v)?;
        if self.is_constant(a) || self.inner.to_rational(&v).is_some() {
            // Constant on the enclosure (no integer inside): derivative 0.
            return Ok(DualNum::constant(v));
        }
        undecided("floor(a) jumps inside the enclosure of a")
    }
    fn ceil(&self, a: &Self::N) -> Eval<Self::N> {
        let v = self.inner.ceil(&a.v)?;
        if self.is_constant(a) || self.inner.to_rational(&v).is_some() {
            return Ok(DualNum::constant(v));
        }
        undecided("ceil(a) jumps inside the enclosure of a")
    }
    fn cmp(&self, a: &Self::N, b: &Self::N) -> Eval<Ordering> {
        self.inner.cmp(&a.v, &b.v)
    }
    fn min(&self, a: &Self::N, b: &Self::N) -> Eval<Self::N> {
        match self.inner.cmp(&a.v, &b.v)? {
            Ordering::Less => Ok(a.clone()),
            Ordering::Greater => Ok(b.clone()),
            Ordering::Equal if self.is_constant(a) && self.is_constant(b) => Ok(a.clone()),
            Ordering::Equal => undecided("min(a, b) at a = b has no derivative"),
        }
    }
    fn max(&self, a: &Self::N, b: &Self::N) -> Eval<Self::N> {
        match self.inner.cmp(&a.v, &b.v)? {
            Ordering::Greater => Ok(a.clone()),
            Ordering::Less => Ok(b.clone()),
            Ordering::Equal if self.is_constant(a) && self.is_constant(b) => Ok(a.clone()),
            Ordering::Equal => undecided("max(a, b) at a = b has no derivative"),
        }
    }
    fn to_f64(&self, a: &Self::N) -> f64 {
        self.inner.to_f64(&a.v)
    }
    fn to_rational(&self, a: &Self::N) -> Option<Q> {
        // Exact only for a constant: a variable at a point value is not a constant (its
        // derivative is 1), so `x^y` at an integer point y is not mistaken for an integer power.
        if self.is_constant(a) {
            self.inner.to_rational(&a.v)
        } else {
            None
        }
    }
    fn show(&self, a: &Self::N) -> String {
        self.inner.show(&a.v)
    }
}

/// Domains whose numbers can be seeded with variables from interval enclosures and whose
/// (partial derivatives of) results can be read back as intervals: [`Enclosure`] (order 0) and
/// [`Dual`] over such a domain (one order more).
pub trait Seed: Domain {
    /// The highest order of partial derivatives this domain computes.
    fn order(&self) -> usize;
    /// The number of variables.
    fn vars(&self) -> usize;
    /// Variable `i` ranging over the enclosure `x` (derivative `eᵢ`).
    fn seed(&self, x: &Interval, i: usize) -> Self::N;
    /// A constant known by its enclosure (all derivatives 0).
    fn constant(&self, x: &Interval) -> Self::N;
    /// The enclosure of `∂_{path[0]} ∂_{path[1]} … f` (the value when `path` is empty); `None`
    /// when `path` is longer than [`Seed::order`].
    fn partial(&self, a: &Self::N, path: &[usize]) -> Option<Interval>;
}

impl Seed for Enclosure {
    fn order(&self) -> usize {
        0
    }
    fn vars(&self) -> usize {
        0
    }
    fn seed(&self, x: &Interval, _: usize) -> Interval {
        x.clone()
    }
    fn constant(&self, x: &Interval) -> Interval {
        x.clone()
    }
    fn partial(&self, a: &Interval, path: &[usize]) -> Option<Interval> {
        path.is_empty().then(|| a.clone())
    }
}

impl<D: Seed> Seed for Dual<D> {
    fn order(&self) -> usize {
        self.inner.order() + 1
    }
    fn vars(&self) -> usize {
        self.vars
    }
    fn seed(&self, x: &Interval, i: usize) -> Self::N {
        let one = Interval::from_f64(1.0).expect("1 is finite");
        let zero = Interval::from_f64(0.0).expect("0 is finite");
        if let Some(a) = self.along {
            return DualNum {
                v: self.inner.seed(x, i),
                g: if i == a {
                    vec![self.inner.constant(&one)]
                } else {
                    Vec::new()
                },
            };
        }
        DualNum {
            v: self.inner.seed(x, i),
            g: (0..self.vars)
                .map(|j| self.inner.constant(if j == i { &one } else { &zero }))
                .collect(),
        }
    }
    fn constant(&self, x: &Interval) -> Self::N {
        DualNum::constant(self.inner.constant(x))
    }
    fn partial(&self, a: &Self::N, path: &[usize]) -> Option<Interval> {
        match path.split_first() {
            None => self.inner.partial(&a.v, &[]),
            Some((&i, rest)) => {
                let slot = match self.along {
                    Some(v) if v == i => 0,
                    Some(_) => return None,
                    None => i,
                };
                if slot >= self.vars || rest.len() > self.inner.order() {
                    return None;
                }
                match a.g.get(slot) {
                    Some(gi) => self.inner.partial(gi, rest),
                    None => Some(Interval::from_f64(0.0).expect("0 is finite")),
                }
            }
        }
    }
}

/// First derivatives over enclosures.
pub type Dual1 = Dual<Enclosure>;
/// Second derivatives over enclosures.
pub type Dual2 = Dual<Dual<Enclosure>>;
/// Third derivatives over enclosures.
pub type Dual3 = Dual<Dual<Dual<Enclosure>>>;

/// The domain of derivatives up to `order` (0 to 3) over enclosures at `prec` bits for `vars`
/// variables.
///
/// ```
/// use balloc::lang::dual::{dual1, dual3};
/// use balloc::lang::Seed;
/// assert_eq!(dual3(64, 2).order(), 3);
/// assert_eq!(dual1(64, 2).vars(), 2);
/// ```
pub fn dual1(prec: u64, vars: usize) -> Dual1 {
    Dual::new(Enclosure { prec }, vars)
}

/// See [`dual1`].
pub fn dual2(prec: u64, vars: usize) -> Dual2 {
    Dual::new(dual1(prec, vars), vars)
}

/// See [`dual1`].
pub fn dual3(prec: u64, vars: usize) -> Dual3 {
    Dual::new(dual2(prec, vars), vars)
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::lang::{Slots, compile_value};

    fn pt(v: f64) -> Interval {
        Interval::from_f64(v).unwrap()
    }

    fn eval<D: Seed>(d: &D, text: &str, names: &[&str], at: &[Interval]) -> D::N {
        let e = compile_value(text, names).unwrap();
        let vals: Vec<D::N> = at.iter().enumerate().map(|(i, x)| d.seed(x, i)).collect();
        e.eval(d, &Slots(&vals), None).unwrap()
    }

    /// Central difference quotient of an f64 function, for an independent check of derivatives.
    fn diff(f: impl Fn(f64) -> f64, x: f64) -> f64 {
        let h = 1e-6;
        (f(x + h) - f(x - h)) / (2.0 * h)
    }

    fn first_derivatives_match_difference_quotients() {
        // f(x) = exp(x)·ln(1 + x²)/sqrt(2 + x) + cosh(x)·sinh(x/2) − x^3, at x = 0.7.
        let f = |x: f64| {
            x.exp() * (1.0 + x * x).ln() / (2.0 + x).sqrt() + x.cosh() * (x / 2.0).sinh()
                - x.powi(3)
        };
        let d = dual1(128, 1);
        let r = eval(
            &d,
            "exp(x)*ln(1 + x^2)/sqrt(2 + x) + cosh(x)*sinh(x/2) - x^3",
            &["x"],
            &[pt(0.7)],
        );
        let v = d.partial(&r, &[]).unwrap();
        let g = d.partial(&r, &[0]).unwrap();
        assert!(v.contains_f64(f(0.7)) || (v.mid_f64() - f(0.7)).abs() < 1e-15);
        assert!(
            (g.mid_f64() - diff(f, 0.7)).abs() < 1e-8,
            "{g} vs {}",
            diff(f, 0.7)
        );
        assert!(g.rel_width() < 1e-30);
    }

    fn nested_duals_give_mixed_partials() {
        // f(x, y) = x³y² + exp(xy): ∂x∂y f = 6x²y + exp(xy)(1 + xy); ∂x∂x∂y f = 12xy +
        // exp(xy)(2y + xy²). At (1/2, 3): 6·(1/4)·3 + e^{3/2}(5/2) and 18 + e^{3/2}(6 + 9/2).
        let d = dual3(128, 2);
        let r = eval(&d, "x^3*y^2 + exp(x*y)", &["x", "y"], &[pt(0.5), pt(3.0)]);
        let e = 1.5f64.exp();
        let dxy = d.partial(&r, &[0, 1]).unwrap();
        let dyx = d.partial(&r, &[1, 0]).unwrap();
        assert!((dxy.mid_f64() - (4.5 + 2.5 * e)).abs() < 1e-12);
        assert!((dyx.mid_f64() - (4.5 + 2.5 * e)).abs() < 1e-12);
        let dxxy = d.partial(&r, &[0, 0, 1]).unwrap();
        assert!((dxxy.mid_f64() - (18.0 + 10.5 * e)).abs() < 1e-11);
        assert!(d.partial(&r, &[0, 0, 0, 0]).is_none());
    }

    fn enclosures_over_a_box_contain_every_pointwise_derivative() {
        // f(x) = x·exp(−x) on [0, 2]: f'(x) = (1 − x)e^{−x} ranges over [−e^{−2}, 1]; the
        // interval derivative must contain every sampled value.
        let d = dual1(64, 1);
        let bx = Interval::new(malachite::Float::from(0u32), malachite::Float::from(2u32)).unwrap();
        let r = eval(&d, "x*exp(-x)", &["x"], &[bx]);
        let g = d.partial(&r, &[0]).unwrap();
        for k in 0..=200 {
            let x = k as f64 / 100.0;
            assert!(g.contains_f64((1.0 - x) * (-x).exp()), "x = {x}: {g}");
        }
    }

    fn no_derivative_where_a_function_has_none() {
        let d = dual1(64, 1);
        let bx =
            Interval::new(malachite::Float::from(-1i32), malachite::Float::from(1u32)).unwrap();
        let e = compile_value("abs(x)", &["x"]).unwrap();
        let x = d.seed(&bx, 0);
        assert!(matches!(
            e.eval(&d, &Slots(std::slice::from_ref(&x)), None),
            Err(EvalError::Undecided(_))
        ));
        let e = compile_value("sqrt(x^2)", &["x"]).unwrap();
        assert!(e.eval(&d, &Slots(&[x]), None).is_err());
        // A variable at an integer point is not an integer constant: x^y at y = 2 has
        // ∂/∂y = x^y ln x = 9 ln 3 at x = 3.
        let d = dual1(128, 2);
        let r = eval(&d, "x^y", &["x", "y"], &[pt(3.0), pt(2.0)]);
        let dy = d.partial(&r, &[1]).unwrap();
        assert!((dy.mid_f64() - 9.0 * 3f64.ln()).abs() < 1e-13);
    }

    fn hyperbolic_derivatives_are_exact_at_zero() {
        // d/dx cosh(x) at x = 0 is sinh(0) = 0 exactly (not a difference of two enclosures).
        let d = dual1(64, 1);
        let r = eval(&d, "cosh(x)", &["x"], &[pt(0.0)]);
        let g = d.partial(&r, &[0]).unwrap();
        assert!(g.contains_f64(0.0) && g.rel_width() == 0.0);
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "first_derivatives_match_difference_quotients",
            run: first_derivatives_match_difference_quotients,
            panics: None,
        },
        crate::unit::Test {
            name: "nested_duals_give_mixed_partials",
            run: nested_duals_give_mixed_partials,
            panics: None,
        },
        crate::unit::Test {
            name: "enclosures_over_a_box_contain_every_pointwise_derivative",
            run: enclosures_over_a_box_contain_every_pointwise_derivative,
            panics: None,
        },
        crate::unit::Test {
            name: "no_derivative_where_a_function_has_none",
            run: no_derivative_where_a_function_has_none,
            panics: None,
        },
        crate::unit::Test {
            name: "hyperbolic_derivatives_are_exact_at_zero",
            run: hyperbolic_derivatives_are_exact_at_zero,
            panics: None,
        },
    ];
}
