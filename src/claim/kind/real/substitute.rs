//! The substitution `u = 1/x` of an unbounded variable: its slot replaced by `1/u` in the
//! compiled claim, with `a/(1/u)` simplified to `a·u` and `(1/u)^k` to `u^(−k)`.

use crate::exact::Q;
use crate::lang::{BinOp, Expr, Formula};
use num_traits::One;

/// Replaces slot `from` by `1/u` (slot `u`) and simplifies `a/(1/u)` to `a·u` and `(1/u)^k`
/// to `u^(−k)`.
pub(super) fn substitute(e: &Expr, from: usize, u: usize) -> Expr {
    use crate::lang::expr::num;
    let rec = |x: &Expr| Box::new(substitute(x, from, u));
    let inv = || Expr::Op(BinOp::Div, Box::new(num(Q::one())), Box::new(Expr::Slot(u)));
    let is_inv = |x: &Expr| matches!(x, Expr::Op(BinOp::Div, a, b) if matches!(**a, Expr::Num(ref q, _) if q.is_one()) && **b == Expr::Slot(u));
    match e {
        Expr::Slot(s) if *s == from => inv(),
        Expr::Num(..) | Expr::Slot(_) | Expr::Bin(_) => e.clone(),
        Expr::Neg(a) => Expr::Neg(rec(a)),
        Expr::Op(op, a, b) => {
            let (a, b) = (substitute(a, from, u), substitute(b, from, u));
            match op {
                BinOp::Div if is_inv(&b) => {
                    Expr::Op(BinOp::Mul, Box::new(a), Box::new(Expr::Slot(u)))
                }
                BinOp::Pow if is_inv(&a) => match &b {
                    Expr::Num(q, _) => Expr::Op(
                        BinOp::Pow,
                        Box::new(Expr::Slot(u)),
                        Box::new(num(-q.clone())),
                    ),
                    _ => Expr::Op(*op, Box::new(a), Box::new(b)),
                },
                _ => Expr::Op(*op, Box::new(a), Box::new(b)),
            }
        }
        Expr::Call(f, args) => {
            Expr::Call(*f, args.iter().map(|a| substitute(a, from, u)).collect())
        }
        Expr::Proc(f, a) => Expr::Proc(*f, rec(a)),
        Expr::Ind(f) => Expr::Ind(Box::new(substitute_formula(f, from, u))),
        Expr::Over(on, a, f, p, ..) => Expr::over(
            *on,
            *a,
            substitute(f, from, u),
            p.as_ref().map(|p| substitute_formula(p, from, u)),
        ),
        Expr::Count(on, p, ..) => Expr::count(*on, substitute_formula(p, from, u)),
        Expr::EnvCall(f, args) => Expr::EnvCall(
            f.clone(),
            args.iter().map(|a| substitute(a, from, u)).collect(),
        ),
        Expr::Dim => Expr::Dim,
        // Names of nested binders, the next state and edges: not in the scope of kind `real`.
        Expr::NextSlot(_)
        | Expr::NextBin(_)
        | Expr::Outer(..)
        | Expr::Edge(..)
        | Expr::Prob(..)
        | Expr::Mean(..) => e.clone(),
    }
}

/// [`substitute`] in every expression of a formula.
pub(super) fn substitute_formula(f: &Formula, from: usize, u: usize) -> Formula {
    match f {
        Formula::Cmp(a, c, b) => Formula::Cmp(substitute(a, from, u), *c, substitute(b, from, u)),
        Formula::And(a, b) => Formula::And(
            Box::new(substitute_formula(a, from, u)),
            Box::new(substitute_formula(b, from, u)),
        ),
        Formula::Or(a, b) => Formula::Or(
            Box::new(substitute_formula(a, from, u)),
            Box::new(substitute_formula(b, from, u)),
        ),
        Formula::Not(a) => Formula::Not(Box::new(substitute_formula(a, from, u))),
    }
}
