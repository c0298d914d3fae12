//! The screen of the exhaustive enumeration ([`crate::search::Screen`]) for a claim whose names
//! are sums over the bins that separate the loads from the mean.
//!
//! The enumeration fixes the entries of a sorted vector (heaviest first) one at a time; the screen
//! keeps, for each prefix, the power sums and exponential sums of the loads that the claim's
//! potentials need ([`ShiftForm`]), plain and weighted by the rank law `q` (rank `r` is entry
//! `r − 1`; tied bins share their loads, so `Σᵢ pᵢ φ(xᵢ)` is `Σ_r q_r φ(x_(r))` whatever the tie
//! rule). At a complete vector, with `μ = W/n`, `μ' = (W + 1)/n` and unit balls one at a time:
//!
//! * `W`, `gap = x₀ − μ`, `ymin = x_{n−1} − μ`, `spread = x₀ − x_{n−1}`;
//! * `X = U(μ)` for a potential `X = Σᵢ φ(yᵢ)`, with `U(s) = Σᵢ φ(xᵢ − s)`;
//! * `E_X = U(μ') + Q(μ' − 1) − Q(μ')`, with `Q(s) = Σ_r q_r φ(x_(r) − s)`: the ball goes to the
//!   bin of rank `r` with probability `q_r`, which raises that bin's term from `φ(x − μ')` to
//!   `φ(x + 1 − μ')`; `dE_X = E_X − X`, `R_X = E_X/X`;
//!
//! each in time independent of `n`. The claim's formula is then evaluated on these values with a
//! running bound on the error ([`Bounded`]): how far the claim's own float evaluation (the same
//! formula on the values the state's routes compute, [`super::Inequality::float_atom`]) can be from
//! the screen's. The search evaluates in full every vector whose bounds do not show that it holds
//! and is no tighter than the states it keeps, so the screen changes the time of a search and
//! nothing it reports.
//!
//! A claim qualifies when its formula uses only numbers, `+ − · /`, integer powers, `exp`, `ln`,
//! `abs`, `min`, `max`, `cosh`, `sinh` and the names above (with `n`, `b` and the constants), its
//! potentials have a [`ShiftForm`] (Υ, Φ, Ψ, Γ), the expectations are of one step of unit balls
//! under a rank-based law (Two-Choice, d-Choice, (1+β), Quantile, or a vector of
//! `[setting.vectors]`), and it has no hypotheses and no per-bin form.

use super::Inequality;
use crate::claim::case::{Case, PotInst};
use crate::claim::env::StateEnv;
use crate::claim::quantity::{Quantity, Stat};
use crate::claim::state::State;
use crate::lang::{BinOp, Cmp, Env, Expr, Float64, Formula, Func};
use crate::potential::ShiftForm;
use crate::search::Screen;
use crate::weights::WeightLaw;

/// Twice the unit roundoff of `f64`: the rounding of one operation in either evaluation.
const U2: f64 = 2.0 * f64::EPSILON;

/// A float value and a bound on its distance from the claim's own float evaluation of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounded {
    /// The value.
    pub v: f64,
    /// The bound.
    pub e: f64,
}

impl Bounded {
    fn exact(v: f64) -> Bounded {
        Bounded { v, e: 0.0 }
    }
    fn add(a: Bounded, b: Bounded) -> Bounded {
        Bounded {
            v: a.v + b.v,
            e: a.e + b.e + U2 * (a.v.abs() + b.v.abs() + a.e + b.e),
        }
    }
    fn neg(a: Bounded) -> Bounded {
        Bounded { v: -a.v, e: a.e }
    }
    fn mul(a: Bounded, b: Bounded) -> Bounded {
        let (x, y) = (a.v.abs() + a.e, b.v.abs() + b.e);
        Bounded {
            v: a.v * b.v,
            e: a.v.abs() * b.e + b.v.abs() * a.e + a.e * b.e + U2 * x * y,
        }
    }
    fn div(a: Bounded, b: Bounded) -> Option<Bounded> {
        // |a'/b' − a/b| ≤ (|a' − a| + |a/b|·|b' − b|)/|b'|, |b'| ≥ |b| − e_b.
        let floor = b.v.abs() - b.e;
        if floor <= 0.0 {
            return None;
        }
        let v = a.v / b.v;
        Some(Bounded {
            v,
            e: (a.e + v.abs() * b.e) / floor + U2 * (a.v.abs() + a.e) / floor,
        })
    }
    fn exp(a: Bounded) -> Bounded {
        // |e^{a'} − e^a| ≤ e^{a + e_a}·e_a, and each exponential within 2 ulp.
        let top = (a.v + a.e).exp();
        Bounded {
            v: a.v.exp(),
            e: top * (a.e + 2.0 * U2),
        }
    }
    fn ln(a: Bounded) -> Option<Bounded> {
        let floor = a.v - a.e;
        if floor <= 0.0 {
            return None;
        }
        let v = a.v.ln();
        Some(Bounded {
            v,
            e: a.e / floor + 2.0 * U2 * (v.abs() + 1.0),
        })
    }
    fn powi(a: Bounded, k: i64) -> Option<Bounded> {
        // As the float domains form it: |k| products from 1, then the reciprocal.
        if k.abs() > 64 {
            return None;
        }
        let mut acc = Bounded::exact(1.0);
        for _ in 0..k.abs() {
            acc = Bounded::mul(acc, a);
        }
        if k < 0 {
            Bounded::div(Bounded::exact(1.0), acc)
        } else {
            Some(acc)
        }
    }
    fn finite(self) -> Option<Bounded> {
        (self.v.is_finite() && self.e.is_finite()).then_some(self)
    }
}

/// The formula compiled for the screen: names by slot, and every part that reads no state
/// (numbers, `n`, `b`, constants) folded into a constant once.
#[derive(Debug, Clone)]
enum Node {
    Const(Bounded),
    Slot(usize),
    Neg(Box<Node>),
    Op(BinOp, Box<Node>, Box<Node>),
    Pow(Box<Node>, i64),
    Call(Func, Vec<Node>),
}

/// The comparisons of the formula over [`Node`]s.
#[derive(Debug, Clone)]
enum Test {
    Cmp(Node, Cmp, Node),
    And(Box<Test>, Box<Test>),
    Or(Box<Test>, Box<Test>),
    Not(Box<Test>),
}

/// `e` as a [`Node`], with the slots of `fixed` as constants and constant parts folded (`None`
/// where the screen cannot evaluate it).
fn compile(e: &Expr, fixed: &dyn Fn(usize) -> Option<f64>) -> Option<Node> {
    let node = match e {
        Expr::Num(_, f) => Node::Const(Bounded::exact(*f)),
        Expr::Slot(s) => match fixed(*s) {
            Some(v) => Node::Const(Bounded::exact(v)),
            None => Node::Slot(*s),
        },
        Expr::Neg(a) => Node::Neg(Box::new(compile(a, fixed)?)),
        Expr::Op(BinOp::Pow, a, b) => match &**b {
            Expr::Num(q, _) if q.is_integer() && q.to_integer().bits() <= 6 => Node::Pow(
                Box::new(compile(a, fixed)?),
                num_traits::ToPrimitive::to_i64(&q.to_integer())?,
            ),
            _ => return None,
        },
        Expr::Op(op, a, b) => Node::Op(
            *op,
            Box::new(compile(a, fixed)?),
            Box::new(compile(b, fixed)?),
        ),
        Expr::Call(f, args)
            if matches!(
                f,
                Func::Exp | Func::Ln | Func::Abs | Func::Min | Func::Max | Func::Cosh | Func::Sinh
            ) =>
        {
            Node::Call(
                *f,
                args.iter()
                    .map(|a| compile(a, fixed))
                    .collect::<Option<_>>()?,
            )
        }
        _ => return None,
    };
    let constant = match &node {
        Node::Neg(a) | Node::Pow(a, _) => matches!(**a, Node::Const(_)),
        Node::Op(_, a, b) => matches!(**a, Node::Const(_)) && matches!(**b, Node::Const(_)),
        Node::Call(_, args) => args.iter().all(|a| matches!(a, Node::Const(_))),
        Node::Const(_) | Node::Slot(_) => false,
    };
    // A constant part that cannot be evaluated (a division by 0) stays as it is, and the screen
    // then bounds no vector: the claim's own evaluation reports it.
    Some(match constant.then(|| eval(&node, &[])).flatten() {
        Some(v) => Node::Const(v),
        None => node,
    })
}

fn compile_test(f: &Formula, fixed: &dyn Fn(usize) -> Option<f64>) -> Option<Test> {
    Some(match f {
        Formula::Cmp(a, c, b) => Test::Cmp(compile(a, fixed)?, *c, compile(b, fixed)?),
        Formula::And(a, b) => Test::And(
            Box::new(compile_test(a, fixed)?),
            Box::new(compile_test(b, fixed)?),
        ),
        Formula::Or(a, b) => Test::Or(
            Box::new(compile_test(a, fixed)?),
            Box::new(compile_test(b, fixed)?),
        ),
        Formula::Not(a) => Test::Not(Box::new(compile_test(a, fixed)?)),
    })
}

/// The value of `n` with its bound, the slots' values in `values`.
fn eval(n: &Node, values: &[Bounded]) -> Option<Bounded> {
    let r = match n {
        Node::Const(v) => *v,
        Node::Slot(s) => values[*s],
        Node::Neg(a) => Bounded::neg(eval(a, values)?),
        Node::Op(op, a, b) => {
            let (x, y) = (eval(a, values)?, eval(b, values)?);
            match op {
                BinOp::Add => Bounded::add(x, y),
                BinOp::Sub => Bounded::add(x, Bounded::neg(y)),
                BinOp::Mul => Bounded::mul(x, y),
                BinOp::Div => Bounded::div(x, y)?,
                BinOp::Pow => return None,
            }
        }
        Node::Pow(a, k) => Bounded::powi(eval(a, values)?, *k)?,
        Node::Call(f, args) => {
            let first = eval(&args[0], values)?;
            let mut acc = match f {
                Func::Exp => Bounded::exp(first),
                Func::Ln => Bounded::ln(first)?,
                Func::Abs => Bounded {
                    v: first.v.abs(),
                    e: first.e,
                },
                Func::Cosh | Func::Sinh => {
                    let (p, m) = (Bounded::exp(first), Bounded::exp(Bounded::neg(first)));
                    let s = if *f == Func::Cosh {
                        Bounded::add(p, m)
                    } else {
                        Bounded::add(p, Bounded::neg(m))
                    };
                    Bounded::mul(s, Bounded::exact(0.5))
                }
                Func::Min | Func::Max => first,
                _ => return None,
            };
            for a in &args[1..] {
                let y = eval(a, values)?;
                let pick = if *f == Func::Min {
                    acc.v.min(y.v)
                } else {
                    acc.v.max(y.v)
                };
                acc = Bounded {
                    v: pick,
                    e: acc.e.max(y.e),
                };
            }
            acc
        }
    };
    r.finite()
}

/// Where a slot's value comes from at a complete vector.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// A value that does not depend on the state (`n`, `b`, a constant).
    Fixed(f64),
    /// `W`.
    Total,
    /// `x₀ − μ`.
    Gap,
    /// `x_{n−1} − μ`.
    YMin,
    /// `x₀ − x_{n−1}`.
    Spread,
    /// A statistic of the potential at index `p` of [`ClaimScreen::forms`].
    Pot(usize, Stat),
    /// A slot the formula does not read.
    Unread,
}

/// A potential's form and where its sums sit in a row of prefix sums.
#[derive(Debug)]
struct FormAt {
    form: ShiftForm,
    /// The offset of its plain sums.
    plain: usize,
    /// The offset of its sums weighted by the rank law (when an expectation is read).
    ranked: Option<usize>,
    /// Per exponential term `e^{b y}`: `(e^{−b/n}, e^{b})`, which take its factor `e^{−bμ}` to
    /// `e^{−bμ'}` and `e^{−b(μ' − 1)}` (`μ' = μ + 1/n`).
    steps: Vec<(f64, f64)>,
}

/// The most exponential terms whose factors [`ClaimScreen::pot`] forms by products.
const SCALED: usize = 4;

/// The screen of one link of a claim at one case (module documentation).
pub(super) struct ClaimScreen {
    /// The formula, compiled.
    test: Test,
    tol: f64,
    n: usize,
    /// The rank law, heaviest rank first.
    q: Vec<f64>,
    forms: Vec<FormAt>,
    /// The slots the formula reads, with where their values come from.
    slots: Vec<(usize, Source)>,
    /// Row `i` holds the sums over entries `0..i`: column 0 is `W`, then each form's sums.
    rows: Vec<f64>,
    width: usize,
    /// The first and the last entry.
    first: f64,
    last: f64,
    /// Whether the last row already holds a last entry 0 (written with entry `n − 2`: the
    /// enumeration's vectors end in 0).
    zero_tail: bool,
    values: Vec<Bounded>,
}

/// The screen of link `link` of `ineq` at `case`, when the claim qualifies (module documentation).
pub(super) fn screen(ineq: &Inequality, link: usize, case: &Case) -> Option<ClaimScreen> {
    if ineq.per_bin || !ineq.given.is_empty() {
        return None;
    }
    let formula = &ineq.links[link].formula;
    // The slots the formula reads; whether the screen can evaluate it is decided when it is
    // compiled, below.
    let read = formula.uses().slots;
    let n = case.n;
    let one_step = case.setting.batch == 1 && case.setting.weights == WeightLaw::Unit;
    let q = case.alloc.rank_vector().filter(|q| q.len() == n);
    // The values that do not depend on the state, as the claim's own evaluation gives them.
    let zero = State::new(case, vec![0.0; n]).ok()?;
    let env = StateEnv::new(&zero, &Float64);
    let mut slots = vec![Source::Unread; case.tables.slots.len()];
    let mut forms: Vec<(usize, FormAt)> = Vec::new();
    let mut width = 1;
    for &s in &read {
        slots[s] = match case.tables.slots[s] {
            Quantity::N | Quantity::B | Quantity::Const(_) => {
                Source::Fixed(env.slot(&Float64, s).ok()?.v)
            }
            Quantity::Total => Source::Total,
            Quantity::Gap | Quantity::YMax => Source::Gap,
            Quantity::YMin => Source::YMin,
            Quantity::Spread => Source::Spread,
            Quantity::Pot(j, stat) => {
                let PotInst::Registered { pot, .. } = &case.pots[j] else {
                    return None;
                };
                let expectation = stat != Stat::Value;
                if expectation && (stat.steps() != 1 || !one_step || q.is_none()) {
                    return None;
                }
                let k = match forms.iter().position(|(i, _)| *i == j) {
                    Some(k) => k,
                    None => {
                        let form = pot.shift_form().filter(|f| !f.is_empty())?;
                        let plain = width;
                        width += form.len();
                        let steps = form
                            .exps
                            .iter()
                            .map(|&(_, b)| ((-b / n as f64).exp(), b.exp()))
                            .collect();
                        forms.push((
                            j,
                            FormAt {
                                form,
                                plain,
                                ranked: None,
                                steps,
                            },
                        ));
                        forms.len() - 1
                    }
                };
                let f = &mut forms[k].1;
                if expectation && f.ranked.is_none() {
                    f.ranked = Some(width);
                    width += f.form.len();
                }
                Source::Pot(k, stat)
            }
            _ => return None,
        };
    }
    let fixed = |s: usize| match slots[s] {
        Source::Fixed(v) => Some(v),
        _ => None,
    };
    let test = compile_test(formula, &fixed)?;
    Some(ClaimScreen {
        test,
        tol: crate::exact::to_f64(&ineq.setup.tolerance),
        n,
        q: q.map(<[f64]>::to_vec).unwrap_or_default(),
        forms: forms.into_iter().map(|(_, f)| f).collect(),
        slots: slots
            .into_iter()
            .enumerate()
            .filter(|(_, s)| !matches!(s, Source::Unread))
            .collect(),
        rows: vec![0.0; (n + 1) * width],
        width,
        first: 0.0,
        last: 0.0,
        zero_tail: false,
        values: vec![Bounded::exact(0.0); case.tables.slots.len()],
    })
}

impl ClaimScreen {
    /// The value of `form` summed plainly (`ranked = false`) or by the rank law, at shift `s`
    /// (with the factors `e^{−b s}` of its exponential terms when given), from the last row; its
    /// error bound covers the different order of the claim's own sums and the factors formed by
    /// products.
    #[inline]
    fn sum_at(&self, f: &FormAt, ranked: bool, s: f64, scale: Option<&[f64]>) -> Bounded {
        let row = &self.rows[self.n * self.width..];
        let off = if ranked {
            f.ranked.expect("ranked sums kept")
        } else {
            f.plain
        };
        let sums = &row[off..off + f.form.len()];
        let (v, m) = match scale {
            Some(k) => f.form.at_scaled(sums, s, k),
            None => f.form.at(sums, s),
        };
        Bounded {
            v,
            e: (self.n as f64 + 64.0) * 4.0 * U2 * m,
        }
    }

    /// The statistic `stat` of the potential of `forms[k]` (module documentation).
    #[inline]
    fn pot(&self, k: usize, stat: Stat, mu: f64, mu1: f64) -> Option<Bounded> {
        let f = &self.forms[k];
        let ne = f.steps.len();
        if ne == 0 || ne > SCALED {
            return self.pot_scaled(f, stat, [mu, mu1], [None; 3]);
        }
        // The factors e^{−bμ}, e^{−bμ'}, e^{−b(μ' − 1)}: one exponential per term.
        let (mut at_mu, mut at_mu1, mut below) = ([0.0; SCALED], [0.0; SCALED], [0.0; SCALED]);
        for (l, &(down, up)) in f.steps.iter().enumerate() {
            at_mu[l] = (-f.form.exps[l].1 * mu).exp();
            at_mu1[l] = at_mu[l] * down;
            below[l] = at_mu1[l] * up;
        }
        let scales = [Some(&at_mu[..ne]), Some(&at_mu1[..ne]), Some(&below[..ne])];
        self.pot_scaled(f, stat, [mu, mu1], scales)
    }

    /// [`ClaimScreen::pot`] with the factors of the exponential terms at μ, μ' and μ' − 1 given
    /// (or formed by [`ShiftForm::at`]).
    #[inline(always)]
    fn pot_scaled(
        &self,
        f: &FormAt,
        stat: Stat,
        [mu, mu1]: [f64; 2],
        [at_mu, at_mu1, below]: [Option<&[f64]>; 3],
    ) -> Option<Bounded> {
        let value = || self.sum_at(f, false, mu, at_mu);
        let next = || {
            let up = Bounded::add(
                self.sum_at(f, false, mu1, at_mu1),
                self.sum_at(f, true, mu1 - 1.0, below),
            );
            Bounded::add(up, Bounded::neg(self.sum_at(f, true, mu1, at_mu1)))
        };
        Some(match stat {
            Stat::Value => value(),
            Stat::Expected(_) => next(),
            Stat::Change(_) => Bounded::add(next(), Bounded::neg(value())),
            Stat::Ratio(_) => Bounded::div(next(), value())?,
        })
    }

    /// `(lo, hi)` around the slack of `f` as [`crate::claim::engine::float::float_formula`]
    /// forms it (`b + tol − a` for `a <= b`, `tol − |a − b|` for `a == b`, …; the tighter side of
    /// `&&`, the looser of `||`, the negation under `!`).
    fn slack_bounds(&self, f: &Test) -> Option<(f64, f64)> {
        Some(match f {
            Test::Cmp(a, c, b) => {
                let (x, y) = (eval(a, &self.values)?, eval(b, &self.values)?);
                let t = Bounded::exact(self.tol);
                let s = match c {
                    Cmp::Le | Cmp::Lt => Bounded::add(Bounded::add(y, Bounded::neg(x)), t),
                    Cmp::Ge | Cmp::Gt => Bounded::add(Bounded::add(x, Bounded::neg(y)), t),
                    Cmp::Eq | Cmp::Ne => {
                        let d = Bounded::add(x, Bounded::neg(y));
                        let d = Bounded {
                            v: d.v.abs(),
                            e: d.e,
                        };
                        if *c == Cmp::Eq {
                            Bounded::add(t, Bounded::neg(d))
                        } else {
                            Bounded::add(d, Bounded::neg(t))
                        }
                    }
                };
                let s = s.finite()?;
                (s.v - s.e, s.v + s.e)
            }
            Test::And(a, b) => {
                let (x, y) = (self.slack_bounds(a)?, self.slack_bounds(b)?);
                (x.0.min(y.0), x.1.min(y.1))
            }
            Test::Or(a, b) => {
                let (x, y) = (self.slack_bounds(a)?, self.slack_bounds(b)?);
                (x.0.max(y.0), x.1.max(y.1))
            }
            Test::Not(a) => {
                let (lo, hi) = self.slack_bounds(a)?;
                (-hi, -lo)
            }
        })
    }
}

impl ClaimScreen {
    /// Row `i + 1` from row `i` and entry `i = v`.
    #[inline]
    fn extend(&mut self, i: usize, v: f64) {
        let w = self.width;
        let (head, tail) = self.rows.split_at_mut((i + 1) * w);
        let (prev, next) = (&head[i * w..], &mut tail[..w]);
        // A row is a few numbers: a loop, not a call to copy memory.
        for (a, b) in next.iter_mut().zip(prev) {
            *a = *b;
        }
        next[0] += v;
        for f in &self.forms {
            let len = f.form.len();
            match f.ranked {
                // The plain and the ranked sums sit one after the other (built that way).
                Some(r) if r == f.plain + len => {
                    let (plain, ranked) = next[f.plain..r + len].split_at_mut(len);
                    f.form.add_bin_pair(plain, ranked, self.q[i], v);
                }
                Some(r) => {
                    f.form.add_bin(&mut next[f.plain..f.plain + len], 1.0, v);
                    f.form.add_bin(&mut next[r..r + len], self.q[i], v);
                }
                None => f.form.add_bin(&mut next[f.plain..f.plain + len], 1.0, v),
            }
        }
    }
}

impl Screen for ClaimScreen {
    #[inline]
    fn set(&mut self, i: usize, v: f64) {
        if i + 1 == self.n && v == 0.0 && self.zero_tail {
            self.last = 0.0;
            return;
        }
        self.extend(i, v);
        self.zero_tail = false;
        if i + 2 == self.n {
            // The vectors of the enumeration end in 0: the last row now, while row i + 1 is warm.
            self.extend(i + 1, 0.0);
            self.zero_tail = true;
        }
        if i == 0 {
            self.first = v;
        }
        self.last = v;
    }

    fn slack(&mut self) -> Option<(f64, f64)> {
        let n = self.n as f64;
        let total = self.rows[self.n * self.width];
        let (mu, mu1) = (total / n, (total + 1.0) / n);
        // The mean as the claim forms it (W/n) is within an ulp of `mu`.
        let m_err = U2 * mu.abs();
        for k in 0..self.slots.len() {
            let (s, source) = self.slots[k];
            let v = match source {
                Source::Unread => continue,
                Source::Fixed(v) => Bounded::exact(v),
                Source::Total => Bounded::exact(total),
                Source::Gap => Bounded {
                    v: self.first - mu,
                    e: m_err + U2 * (self.first + mu.abs()),
                },
                Source::YMin => Bounded {
                    v: self.last - mu,
                    e: m_err + U2 * (self.last + mu.abs()),
                },
                Source::Spread => Bounded::exact(self.first - self.last),
                Source::Pot(k, stat) => self.pot(k, stat, mu, mu1)?,
            };
            self.values[s] = v.finite()?;
        }
        self.slack_bounds(&self.test)
    }
}
