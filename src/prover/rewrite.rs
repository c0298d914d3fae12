//! Symbolic simplification of a claim before enclosure: rewrites that interval arithmetic cannot
//! do for itself (the dependency problem: two enclosures of the same quantity never cancel).
//!
//! Each side is read as a **product form** `c · Πⱼ Fⱼ^{kⱼ} · e^{A}`: a rational `c`, factors
//! `Fⱼ` with integer powers (a quotient's denominator has a negative power), and one exponential
//! whose exponent `A` is a **polynomial** with rational coefficients in the named values (the
//! variables and derived names; `eᵃ·eᵇ = e^{a+b}`, `(eᵃ)ᵏ = e^{ka}`, `1/eᵃ = e^{−a}`). The rewrites:
//!
//! 1. **common exponential**: when the exponents `A` (left) and `B` (right) share monomials with
//!    equal coefficients, their sum `E` is divided out of both sides: `L·e^{−E} ≤ R·e^{−E}`,
//!    equivalent because `e^{−E} > 0` wherever `E` is defined, and `E` (a polynomial in named
//!    values that every evaluation computes anyway) is defined wherever the claim is
//!    (`e^{−α/n}(1 + p(e^α − 1)) ≤ e^{α(p − 1/n) + α²p}` becomes `1 + p(e^α − 1) ≤ e^{αp + α²p}`);
//! 2. **positive denominator**: a factor with a negative power `D^{−k}` on one side (or both) is
//!    multiplied out, `L·Dᵏ ≤ R·Dᵏ`, once `D > 0` on the whole domain has been **proved** (a proof
//!    tree of its own, recorded with the rewrite and re-checked by the checker);
//! 3. **derived name over its range**: when, after the rewrites above, a derived name `p` is the
//!    only way two or more variables enter the claim (and the hypotheses), those variables are
//!    replaced by one new variable ranging over an enclosure `[lo, hi]` of `p` on the domain
//!    (`∀x: g(x, p(x)) ≥ 0` follows from `∀q ∈ [lo, hi]: g(x, q) ≥ 0` because `p(x) ∈ [lo, hi]`).
//!    A sufficient condition, not an equivalence: a refutation of the rewritten claim is not one of
//!    the original, so the search then falls back to the original claim.
//!
//! Rewrites are made only for claims without a tolerance (dividing by a factor would change it).
//! The certificate records each rewrite; the checker derives the rewrites again from the claim
//! built from the theorem file, requires the recorded ones to be exactly those, proves the sign
//! of every multiplied-out denominator by re-checking its proof tree and the range of an
//! abstracted derived name by its own enclosure, and checks the proof tree against the claim it
//! rewrote itself.

use super::boxes::q_text;
use super::certificate::{Node, RewriteRecord};
use super::problem::{Problem, SlotDef, Var};
use crate::exact::Q;
use crate::lang::{BinOp, Expr, Func};
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::BTreeMap;

/// A monomial: the slots it multiplies, with their powers (sorted by slot).
pub type Monomial = Vec<(usize, u32)>;

/// A polynomial with rational coefficients in the slots of a problem.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Poly {
    /// Monomial → coefficient (no zero coefficients).
    pub terms: BTreeMap<Monomial, Q>,
}

impl Poly {
    fn constant(q: Q) -> Poly {
        let mut p = Poly::default();
        if !q.is_zero() {
            p.terms.insert(Vec::new(), q);
        }
        p
    }
    fn slot(s: usize) -> Poly {
        let mut p = Poly::default();
        p.terms.insert(vec![(s, 1)], Q::one());
        p
    }
    /// Whether the polynomial is 0.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }
    fn add(&self, o: &Poly, sign: i64) -> Poly {
        let mut p = self.clone();
        for (m, c) in &o.terms {
            let e = p.terms.entry(m.clone()).or_insert_with(Q::zero);
            *e += c * Q::from_integer(sign.into());
            if e.is_zero() {
                p.terms.remove(m);
            }
        }
        p
    }
    fn scale(&self, q: &Q) -> Poly {
        if q.is_zero() {
            return Poly::default();
        }
        Poly {
            terms: self.terms.iter().map(|(m, c)| (m.clone(), c * q)).collect(),
        }
    }
    fn mul(&self, o: &Poly) -> Option<Poly> {
        let mut p = Poly::default();
        for (m1, c1) in &self.terms {
            for (m2, c2) in &o.terms {
                let mut m: BTreeMap<usize, u32> = m1.iter().copied().collect();
                for &(s, k) in m2 {
                    *m.entry(s).or_insert(0) += k;
                }
                let m: Monomial = m.into_iter().collect();
                if m.iter().map(|(_, k)| *k).sum::<u32>() > 16 {
                    return None;
                }
                let e = p.terms.entry(m.clone()).or_insert_with(Q::zero);
                *e += c1 * c2;
                if e.is_zero() {
                    p.terms.remove(&m);
                }
            }
        }
        Some(p)
    }

    /// The polynomial of an expression built from slots, rational numbers, `+`, `−`, `·`,
    /// division by a number and non-negative integer powers (`None` otherwise).
    pub fn of(e: &Expr) -> Option<Poly> {
        match e {
            Expr::Num(q, _) => Some(Poly::constant(q.clone())),
            Expr::Slot(s) => Some(Poly::slot(*s)),
            Expr::Neg(a) => Some(Poly::of(a)?.scale(&-Q::one())),
            Expr::Op(op, a, b) => {
                let pa = Poly::of(a)?;
                match op {
                    BinOp::Add => Some(pa.add(&Poly::of(b)?, 1)),
                    BinOp::Sub => Some(pa.add(&Poly::of(b)?, -1)),
                    BinOp::Mul => pa.mul(&Poly::of(b)?),
                    BinOp::Div => match &**b {
                        Expr::Num(q, _) if !q.is_zero() => Some(pa.scale(&(Q::one() / q))),
                        _ => None,
                    },
                    BinOp::Pow => match &**b {
                        Expr::Num(q, _) if q.is_integer() && !q.is_negative() => {
                            let k = q.to_integer().to_u32().filter(|k| *k <= 8)?;
                            let mut acc = Poly::constant(Q::one());
                            for _ in 0..k {
                                acc = acc.mul(&pa)?;
                            }
                            Some(acc)
                        }
                        _ => None,
                    },
                }
            }
            _ => None,
        }
    }

    /// The expression `Σ c·Π slotᵏ`.
    pub fn expr(&self) -> Expr {
        use crate::lang::expr::num;
        let mut out: Option<Expr> = None;
        for (m, c) in &self.terms {
            let mut t: Option<Expr> = None;
            for &(s, k) in m {
                let f = if k == 1 {
                    Expr::Slot(s)
                } else {
                    Expr::Op(
                        BinOp::Pow,
                        Box::new(Expr::Slot(s)),
                        Box::new(num(Q::from_integer((k as i64).into()))),
                    )
                };
                t = Some(match t {
                    None => f,
                    Some(t) => Expr::Op(BinOp::Mul, Box::new(t), Box::new(f)),
                });
            }
            let (neg, c) = (c.is_negative(), c.abs());
            let t = match t {
                None => num(c),
                Some(t) if c.is_one() => t,
                Some(t) => Expr::Op(BinOp::Mul, Box::new(num(c)), Box::new(t)),
            };
            out = Some(match (out, neg) {
                (None, false) => t,
                (None, true) => Expr::Neg(Box::new(t)),
                (Some(o), false) => Expr::Op(BinOp::Add, Box::new(o), Box::new(t)),
                (Some(o), true) => Expr::Op(BinOp::Sub, Box::new(o), Box::new(t)),
            });
        }
        out.unwrap_or_else(|| num(Q::zero()))
    }

    /// The polynomial as text, slots named by `name`.
    pub fn text(&self, name: &dyn Fn(usize) -> String) -> String {
        if self.terms.is_empty() {
            return "0".into();
        }
        let mut s = String::new();
        for (j, (m, c)) in self.terms.iter().enumerate() {
            let neg = c.is_negative();
            let c = c.abs();
            if j == 0 {
                if neg {
                    s.push('-');
                }
            } else {
                s.push_str(if neg { " - " } else { " + " });
            }
            let mut parts: Vec<String> = Vec::new();
            if !c.is_one() || m.is_empty() {
                parts.push(q_text(&c));
            }
            for &(slot, k) in m {
                parts.push(if k == 1 {
                    name(slot)
                } else {
                    format!("{}^{k}", name(slot))
                });
            }
            s.push_str(&parts.join("*"));
        }
        s
    }
}

/// A side as a product `c · Π Fⱼ^{kⱼ} · e^{A}` (see the module documentation).
#[derive(Debug, Clone)]
pub struct Product {
    /// The rational factor.
    pub coef: Q,
    /// The other factors and their integer powers, in order of appearance.
    pub factors: Vec<(Expr, i64)>,
    /// The exponent of the exponential factor.
    pub exponent: Poly,
}

impl Product {
    /// The product form of an expression.
    pub fn of(e: &Expr) -> Product {
        match e {
            Expr::Num(q, _) => Product {
                coef: q.clone(),
                factors: Vec::new(),
                exponent: Poly::default(),
            },
            Expr::Neg(a) => {
                let mut p = Product::of(a);
                p.coef = -p.coef;
                p
            }
            Expr::Op(BinOp::Mul, a, b) => Product::of(a).times(&Product::of(b), 1),
            Expr::Op(BinOp::Div, a, b) => {
                let pb = Product::of(b);
                if pb.coef.is_zero() {
                    return Product::factor(e);
                }
                Product::of(a).times(&pb, -1)
            }
            Expr::Op(BinOp::Pow, a, b) => match (&**b, Product::of(a)) {
                (Expr::Num(q, _), pa)
                    if q.is_integer() && q.abs() <= Q::from_integer(16.into()) =>
                {
                    let k = q.to_integer().to_i64().unwrap_or(0);
                    if k < 0 && pa.coef.is_zero() {
                        return Product::factor(e);
                    }
                    let mut p = Product {
                        coef: Q::one(),
                        factors: Vec::new(),
                        exponent: Poly::default(),
                    };
                    for _ in 0..k.abs() {
                        p = p.times(&pa, if k < 0 { -1 } else { 1 });
                    }
                    p
                }
                _ => Product::factor(e),
            },
            Expr::Call(Func::Exp, args) if args.len() == 1 => match Poly::of(&args[0]) {
                Some(a) => Product {
                    coef: Q::one(),
                    factors: Vec::new(),
                    exponent: a,
                },
                None => Product::factor(e),
            },
            _ => Product::factor(e),
        }
    }

    fn factor(e: &Expr) -> Product {
        Product {
            coef: Q::one(),
            factors: vec![(e.clone(), 1)],
            exponent: Poly::default(),
        }
    }

    /// `self · other^{sign}` (`sign = ±1`).
    fn times(&self, o: &Product, sign: i64) -> Product {
        let coef = if sign > 0 {
            &self.coef * &o.coef
        } else {
            &self.coef / &o.coef
        };
        let mut factors = self.factors.clone();
        for (f, k) in &o.factors {
            factors.push((f.clone(), k * sign));
        }
        Product {
            coef,
            factors,
            exponent: self.exponent.add(&o.exponent, sign),
        }
    }

    /// The expression of the product.
    pub fn expr(&self) -> Expr {
        use crate::lang::expr::num;
        let mut num_part: Option<Expr> = None;
        let mut den_part: Option<Expr> = None;
        let mul = |a: Option<Expr>, b: Expr| match a {
            None => b,
            Some(a) => Expr::Op(BinOp::Mul, Box::new(a), Box::new(b)),
        };
        for (f, k) in &self.factors {
            if *k == 0 {
                continue;
            }
            let p = if k.abs() == 1 {
                f.clone()
            } else {
                Expr::Op(
                    BinOp::Pow,
                    Box::new(f.clone()),
                    Box::new(num(Q::from_integer(k.abs().into()))),
                )
            };
            if *k > 0 {
                num_part = Some(mul(num_part, p));
            } else {
                den_part = Some(mul(den_part, p));
            }
        }
        if !self.exponent.is_zero() {
            num_part = Some(mul(
                num_part,
                Expr::Call(Func::Exp, vec![self.exponent.expr()]),
            ));
        }
        let mut e = match num_part {
            None => num(self.coef.clone()),
            Some(n) if self.coef.is_one() => n,
            Some(n) if self.coef == -Q::one() => Expr::Neg(Box::new(n)),
            Some(n) => Expr::Op(BinOp::Mul, Box::new(num(self.coef.clone())), Box::new(n)),
        };
        if let Some(d) = den_part {
            e = Expr::Op(BinOp::Div, Box::new(e), Box::new(d));
        }
        e
    }
}

/// One rewrite of a claim (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub enum Rewrite {
    /// Both sides divided by `e^{E}`.
    CommonExp {
        /// `E`.
        exponent: Poly,
        /// `E` as text.
        text: String,
    },
    /// Both sides multiplied by `Dᵏ`, `D > 0` on the domain proved by `proof`.
    Denominator {
        /// `D`.
        factor: Expr,
        /// `k`.
        power: i64,
        /// The position of `D` among the claim's denominators ([`denominators`]).
        index: usize,
        /// `D` as text (for reports).
        text: String,
        /// The proof tree of `D > 0` on the domain.
        proof: Node,
    },
    /// The variables `vars` replaced by a new variable for the slot `slot` over `[lo, hi]`.
    Range {
        /// The derived name's slot.
        slot: usize,
        /// The variables it replaces (indices of the problem's variables).
        vars: Vec<usize>,
        /// The enclosure of the slot's value on the domain.
        lo: Q,
        /// See `lo`.
        hi: Q,
        /// The name of the new variable.
        name: String,
    },
}

impl Rewrite {
    /// A one-line description.
    pub fn describe(&self) -> String {
        match self {
            Rewrite::CommonExp { text, .. } => {
                format!("both sides divided by the common factor exp({text}) > 0")
            }
            Rewrite::Denominator { text, power, .. } => format!(
                "both sides multiplied by ({text}){} > 0 (its sign proved on the domain)",
                if *power == 1 {
                    String::new()
                } else {
                    format!("^{power}")
                }
            ),
            Rewrite::Range { name, lo, hi, .. } => format!(
                "a derived name is the only way its variables enter the claim: they are replaced by one variable `{name}` over its range [{}, {}]",
                q_text(lo),
                q_text(hi)
            ),
        }
    }
}

/// The name of a slot for texts: its variable's name, else `slot k`.
pub fn slot_name(p: &Problem, s: usize) -> String {
    match p.slots.get(s) {
        Some(SlotDef::Var(i)) => p.vars[*i].name.clone(),
        _ => format!("slot{s}"),
    }
}

/// The claim with the common exponential divided out (`None` when the exponents share no
/// monomial).
pub fn common_exp(p: &Problem) -> Option<(Problem, Rewrite)> {
    if !p.tol.is_zero() {
        return None;
    }
    let (l, r) = (Product::of(&p.lhs), Product::of(&p.rhs));
    let mut common = Poly::default();
    for (m, c) in &l.exponent.terms {
        if r.exponent.terms.get(m) == Some(c) {
            common.terms.insert(m.clone(), c.clone());
        }
    }
    if common.is_zero() {
        return None;
    }
    let strip = |mut x: Product| {
        x.exponent = x.exponent.add(&common, -1);
        x.expr()
    };
    let mut q = p.clone();
    q.lhs = strip(l);
    q.rhs = strip(r);
    let text = common.text(&|s| slot_name(p, s));
    Some((
        q,
        Rewrite::CommonExp {
            exponent: common,
            text,
        },
    ))
}

/// The denominators of the two sides' product forms (factors with negative powers) and the
/// largest power of each, in order of appearance.
pub fn denominators(p: &Problem) -> Vec<(Expr, i64)> {
    let mut out: Vec<(Expr, i64)> = Vec::new();
    for side in [&p.lhs, &p.rhs] {
        for (f, k) in Product::of(side).factors {
            if k < 0 {
                match out.iter_mut().find(|(g, _)| *g == f) {
                    Some(e) => e.1 = e.1.max(-k),
                    None => out.push((f, -k)),
                }
            }
        }
    }
    out
}

/// A denominator as text: its polynomial, else its position.
pub fn factor_text(p: &Problem, d: &Expr, index: usize) -> String {
    Poly::of(d).map_or_else(
        || format!("denominator {index}"),
        |x| x.text(&|s| slot_name(p, s)),
    )
}

/// The claim with both sides multiplied by `factorᵏ` (the sign is the caller's to prove).
pub fn multiply(p: &Problem, factor: &Expr, power: i64) -> Problem {
    let mut q = p.clone();
    let by = Product {
        coef: Q::one(),
        factors: vec![(factor.clone(), power)],
        exponent: Poly::default(),
    };
    let merge = |side: &Expr| {
        let mut x = Product::of(side).times(&by, 1);
        // Combine the powers of the same factor.
        let mut merged: Vec<(Expr, i64)> = Vec::new();
        for (f, k) in x.factors {
            match merged.iter_mut().find(|(g, _)| *g == f) {
                Some(e) => e.1 += k,
                None => merged.push((f, k)),
            }
        }
        x.factors = merged.into_iter().filter(|(_, k)| *k != 0).collect();
        x.expr()
    };
    q.lhs = merge(&p.lhs);
    q.rhs = merge(&p.rhs);
    q
}

/// The problem whose claim is `factor > 0` on the domain of `p` (the sign of a denominator).
pub fn sign_problem(p: &Problem, factor: &Expr) -> Problem {
    let mut q = p.clone();
    q.lhs = factor.clone();
    q.rhs = crate::lang::expr::num(Q::zero());
    q.cmp = crate::lang::Cmp::Gt;
    q.tol = Q::zero();
    q.given = Vec::new();
    q.touching = Vec::new();
    q.text = format!("{} > 0", factor_text(p, factor, 0));
    q
}

/// The slots an expression reads, and (recursively through derived names) the variables.
fn slots_of(e: &Expr) -> Vec<usize> {
    e.uses().slots
}

/// The variables a slot depends on.
fn vars_of_slot(p: &Problem, s: usize, memo: &mut BTreeMap<usize, Vec<usize>>) -> Vec<usize> {
    if let Some(v) = memo.get(&s) {
        return v.clone();
    }
    let v = match &p.slots[s] {
        SlotDef::Var(i) => vec![*i],
        SlotDef::Const(_) => Vec::new(),
        SlotDef::Let(e) => {
            let mut out = Vec::new();
            for t in slots_of(e) {
                for i in vars_of_slot(p, t, memo) {
                    if !out.contains(&i) {
                        out.push(i);
                    }
                }
            }
            out.sort_unstable();
            out
        }
    };
    memo.insert(s, v.clone());
    v
}

/// A derived name through which alone two or more variables enter the claim, with those
/// variables: the candidates of the range rewrite (none when the claim has hypotheses or
/// touching points).
pub fn range_candidate(p: &Problem) -> Option<(usize, Vec<usize>)> {
    if !p.given.is_empty() || !p.touching.is_empty() {
        return None;
    }
    let mut memo = BTreeMap::new();
    let mut read = slots_of(&p.lhs);
    read.extend(slots_of(&p.rhs));
    read.sort_unstable();
    read.dedup();
    for &s in &read {
        if !matches!(p.slots[s], SlotDef::Let(_)) {
            continue;
        }
        let vs = vars_of_slot(p, s, &mut memo);
        if vs.len() < 2 {
            continue;
        }
        let alone = read.iter().filter(|&&t| t != s).all(|&t| {
            vars_of_slot(p, t, &mut memo)
                .iter()
                .all(|i| !vs.contains(i))
        });
        if alone {
            return Some((s, vs));
        }
    }
    None
}

/// The claim with the variables `vars` replaced by one variable over `[lo, hi]` standing for
/// the slot `slot` (the new variable comes last).
pub fn replace_by_range(
    p: &Problem,
    slot: usize,
    vars: &[usize],
    lo: Q,
    hi: Q,
    name: &str,
) -> Problem {
    // New variables: the kept ones in order, then the new one.
    let kept: Vec<usize> = (0..p.dim()).filter(|i| !vars.contains(i)).collect();
    let new_var = kept.len();
    let var_map = |i: usize| kept.iter().position(|&k| k == i);
    // New slots: every slot that does not depend on the removed variables, with the slot
    // `slot` becoming the new variable; the others are dropped (nothing reads them).
    let mut memo = BTreeMap::new();
    let mut map: Vec<Option<usize>> = vec![None; p.slots.len()];
    let mut slots = Vec::new();
    for (s, def) in p.slots.iter().enumerate() {
        if s == slot {
            map[s] = Some(slots.len());
            slots.push(SlotDef::Var(new_var));
            continue;
        }
        let dep = vars_of_slot(p, s, &mut memo);
        if dep.iter().any(|i| vars.contains(i)) {
            continue;
        }
        let nd = match def {
            SlotDef::Var(i) => SlotDef::Var(var_map(*i).expect("a kept variable")),
            SlotDef::Const(f) => SlotDef::Const(f.clone()),
            SlotDef::Let(e) => SlotDef::Let(renumber(e, &map)),
        };
        map[s] = Some(slots.len());
        slots.push(nd);
    }
    let mut vs: Vec<Var> = kept.iter().map(|&i| p.vars[i].clone()).collect();
    vs.push(Var {
        name: name.to_string(),
        lo,
        hi,
        lo_open: false,
        hi_open: false,
    });
    Problem {
        vars: vs,
        slots,
        lhs: renumber(&p.lhs, &map),
        rhs: renumber(&p.rhs, &map),
        cmp: p.cmp,
        tol: p.tol.clone(),
        given: Vec::new(),
        touching: Vec::new(),
        text: p.text.clone(),
    }
}

/// The expression with its slots renumbered by `map` (every slot it reads must be mapped).
fn renumber(e: &Expr, map: &[Option<usize>]) -> Expr {
    let rec = |x: &Expr| Box::new(renumber(x, map));
    match e {
        Expr::Slot(s) => Expr::Slot(map[*s].expect("a slot the expression reads is kept")),
        Expr::Num(..) | Expr::Bin(_) | Expr::Dim => e.clone(),
        Expr::Neg(a) => Expr::Neg(rec(a)),
        Expr::Op(op, a, b) => Expr::Op(*op, rec(a), rec(b)),
        Expr::Call(f, args) => Expr::Call(*f, args.iter().map(|a| renumber(a, map)).collect()),
        Expr::Proc(f, a) => Expr::Proc(*f, rec(a)),
        Expr::Ind(f) => Expr::Ind(Box::new(renumber_formula(f, map))),
        Expr::Over(on, a, f, pr, ..) => Expr::over(
            *on,
            *a,
            renumber(f, map),
            pr.as_ref().map(|x| renumber_formula(x, map)),
        ),
        Expr::Count(on, pr, ..) => Expr::count(*on, renumber_formula(pr, map)),
        Expr::EnvCall(f, args) => {
            Expr::EnvCall(f.clone(), args.iter().map(|a| renumber(a, map)).collect())
        }
        // Names of nested binders, the next state and edges: not in the scope of kind `real`.
        Expr::NextSlot(_)
        | Expr::NextBin(_)
        | Expr::Outer(..)
        | Expr::Edge(..)
        | Expr::Prob(..)
        | Expr::Mean(..) => e.clone(),
    }
}

fn renumber_formula(f: &crate::lang::Formula, map: &[Option<usize>]) -> crate::lang::Formula {
    use crate::lang::Formula;
    match f {
        Formula::Cmp(a, c, b) => Formula::Cmp(renumber(a, map), *c, renumber(b, map)),
        Formula::And(a, b) => Formula::And(
            Box::new(renumber_formula(a, map)),
            Box::new(renumber_formula(b, map)),
        ),
        Formula::Or(a, b) => Formula::Or(
            Box::new(renumber_formula(a, map)),
            Box::new(renumber_formula(b, map)),
        ),
        Formula::Not(a) => Formula::Not(Box::new(renumber_formula(a, map))),
    }
}

/// The enclosure `[lo, hi]` of the slot's value over the domain at `prec` bits, as rationals
/// (`None` when it cannot be evaluated).
pub fn slot_range(p: &Problem, slot: usize, prec: u64) -> Option<(Q, Q)> {
    let d = crate::lang::Enclosure { prec };
    let vals = p.values(&d, &p.root().intervals(prec), prec).ok()?;
    let v = vals.get(slot)?;
    if !v.is_finite() {
        return None;
    }
    let to_q = |f: f64| crate::exact::from_float(f);
    Some((to_q(v.lo_f64())?, to_q(v.hi_f64())?))
}

impl Rewrite {
    /// The record of a rewrite.
    pub fn record(&self) -> RewriteRecord {
        match self {
            Rewrite::CommonExp { text, .. } => RewriteRecord::CommonExp {
                exponent: text.clone(),
            },
            Rewrite::Denominator {
                index,
                text,
                power,
                proof,
                ..
            } => RewriteRecord::Denominator {
                index: *index,
                factor: text.clone(),
                power: *power,
                proof: proof.tokens(),
            },
            Rewrite::Range {
                slot,
                vars,
                lo,
                hi,
                name,
            } => RewriteRecord::Range {
                slot: *slot,
                vars: vars.clone(),
                lo: q_text(lo),
                hi: q_text(hi),
                name: name.clone(),
            },
        }
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::lang::compile_value;

    fn product_forms_merge_exponentials() {
        // e^{−a·u}·(1 + p) and e^{a(p − u) + a²p}: exponents −au and ap − au + a²p.
        let names = ["a", "u", "p"];
        let l = Product::of(&compile_value("exp(-a*u)*(1 + p)", &names).unwrap());
        let r = Product::of(&compile_value("exp(a*(p - u) + a^2*p)", &names).unwrap());
        let n = |s: usize| names[s].to_string();
        assert_eq!(l.exponent.text(&n), "-a*u");
        // Monomials in the order of their (slot, power) lists: a·u = [(0,1),(1,1)] before
        // a·p = [(0,1),(2,1)] before a²·p = [(0,2),(2,1)].
        assert_eq!(r.exponent.text(&n), "-a*u + a*p + a^2*p");
        assert_eq!(l.factors.len(), 1);
        // e^a·e^{−a} = e^0; (e^a)^2/e^{a} = e^a.
        let x = Product::of(&compile_value("exp(a)*exp(-a)", &names).unwrap());
        assert!(x.exponent.is_zero());
        let y = Product::of(&compile_value("exp(a)^2/exp(a)", &names).unwrap());
        assert_eq!(y.exponent.text(&n), "a");
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[crate::unit::Test {
        name: "product_forms_merge_exponentials",
        run: product_forms_merge_exponentials,
        panics: None,
    }];
}
