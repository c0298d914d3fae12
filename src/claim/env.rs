//! The claim language at a state: [`StateEnv`] evaluates every quantity of a case at a
//! [`State`] in any number domain, and the expectations over the next state (`E_X`, `E{k}_X`,
//! `P{k}(…)`, `E{k}(…)`) evaluate the language again at the next states (module documentation of
//! [`super::next_state`], which gives the law of one step that these compose).

use super::case::PotInst;
use super::next_state::{
    MAX_OUTCOMES, may_merge, next_state, outcome_states, outcome_states_exact, pot_invariant,
    separable, symmetric,
};
use super::quantity::{PotDef, Quantity, Stat};
use super::routes::Routes;
use super::state::{BinLaw, State};
use crate::exact::Q;
use crate::lang::{
    BinOp, BinVar, BinVars, Domain, Elements, Env, Eval, EvalError, Expr, Formula, Frame,
    NextVisit, ProcFunc, Uses,
};
use num_traits::{Signed, ToPrimitive};
use std::cell::{OnceCell, RefCell};

impl State<'_> {
    /// The value of a quantity in the domain `d` (uncached; see `StateEnv`).
    pub fn quantity<D: Routes>(&self, d: &D, env: &StateEnv<'_, '_, D>, q: Quantity) -> Eval<D::N> {
        let n = self.n();
        let exact = d.exact_inputs();
        match q {
            Quantity::N => d.float(n as f64),
            Quantity::B => d.float(self.case.setting.batch as f64),
            Quantity::Const(j) => self.constant(d, j),
            Quantity::Total => {
                if exact {
                    d.rational(&self.xq().iter().sum::<Q>())
                } else {
                    d.float(self.loads().total())
                }
            }
            Quantity::Gap | Quantity::YMax => {
                if exact {
                    d.rational(self.yq().iter().max().expect("n ≥ 1"))
                } else {
                    d.float(self.y().iter().copied().fold(f64::NEG_INFINITY, f64::max))
                }
            }
            Quantity::YMin => {
                if exact {
                    d.rational(self.yq().iter().min().expect("n ≥ 1"))
                } else {
                    d.float(self.y().iter().copied().fold(f64::INFINITY, f64::min))
                }
            }
            Quantity::Spread => {
                if exact {
                    let y = self.yq();
                    d.rational(&(y.iter().max().expect("n ≥ 1") - y.iter().min().expect("n ≥ 1")))
                } else {
                    d.float(self.loads().spread())
                }
            }
            Quantity::FracOver => {
                let k = if exact {
                    self.yq().iter().filter(|v| !v.is_negative()).count()
                } else {
                    self.y().iter().filter(|v| **v >= 0.0).count()
                };
                d.rational(&Q::new((k as i64).into(), (n as i64).into()))
            }
            Quantity::C2 => {
                let p = self.p_by_rank(d)?;
                let mut m = p[0].clone();
                for v in &p[1..] {
                    m = d.max(&m, v)?;
                }
                d.mul(&d.float(n as f64)?, &m)
            }
            Quantity::Bias(b) => {
                let v = self
                    .bias()?
                    .value(b, self.case.k().as_ref())
                    .map_err(EvalError::from)?;
                d.rational(&v)
            }
            Quantity::Pot(j, stat) => self.potential(d, env, j, stat),
        }
    }

    fn potential<D: Routes>(
        &self,
        d: &D,
        env: &StateEnv<'_, '_, D>,
        j: usize,
        stat: Stat,
    ) -> Eval<D::N> {
        match stat {
            Stat::Value => self.pot_value(d, env, j),
            Stat::Expected(k) => Ok(expected(d, self, j, k)?.0),
            Stat::Change(k) => Ok(expected(d, self, j, k)?.1),
            Stat::Ratio(k) => {
                let (next, _) = expected(d, self, j, k)?;
                let v = self.pot_value(d, env, j)?;
                d.div(&next, &v)
            }
        }
    }

    /// The value of potential `j` of the case at this state.
    pub fn pot_value<D: Routes>(&self, d: &D, env: &StateEnv<'_, '_, D>, j: usize) -> Eval<D::N> {
        match &self.case.pots[j] {
            PotInst::Registered { .. } => d.reg_value(self, j),
            PotInst::Defined(i) => match &self.case.tables.pots[*i] {
                PotDef::Defined { expr, .. } => expr.eval(d, env, None),
                PotDef::Registered { .. } => unreachable!("a defined instance has a definition"),
            },
        }
    }
}

/// The evaluation environment of a state in one domain: slot values are computed once.
pub struct StateEnv<'s, 'c, D: Domain> {
    /// The state.
    pub st: &'s State<'c>,
    d: &'s D,
    cache: RefCell<Vec<Option<D::N>>>,
    pw: OnceCell<Eval<BinLaw<D::N>>>,
    ranks: OnceCell<Vec<usize>>,
}

impl<'s, 'c, D: Routes> StateEnv<'s, 'c, D> {
    /// The value of `slot`, computed and kept (the first read of a slot; out of line, so that
    /// the reads of kept values stay short).
    #[inline(never)]
    fn compute_slot(&self, d: &D, slot: usize) -> Eval<D::N> {
        let q = self.st.case.tables.slots[slot];
        let v = self.st.quantity(d, self, q)?;
        if let Some(c) = self.cache.borrow_mut().get_mut(slot) {
            *c = Some(v.clone());
        }
        Ok(v)
    }

    /// The environment of `st` in `d`.
    pub fn new(st: &'s State<'c>, d: &'s D) -> StateEnv<'s, 'c, D> {
        StateEnv {
            st,
            d,
            cache: RefCell::new(vec![None; st.case.tables.slots.len()]),
            pw: OnceCell::new(),
            ranks: OnceCell::new(),
        }
    }

    fn ranks(&self) -> &[usize] {
        self.ranks.get_or_init(|| {
            let mut r = vec![0; self.st.n()];
            for (k, &bin) in self.st.ranking().order.iter().enumerate() {
                r[bin] = k;
            }
            r
        })
    }
}

impl<D: Routes> Env<D> for StateEnv<'_, '_, D> {
    fn slot(&self, d: &D, slot: usize) -> Eval<D::N> {
        if let Some(Some(v)) = self.cache.borrow().get(slot) {
            return Ok(v.clone());
        }
        self.compute_slot(d, slot)
    }

    fn proc(&self, d: &D, f: ProcFunc, arg: &Q) -> Eval<D::N> {
        match f {
            ProcFunc::P => {
                let p = self.st.p_by_rank(d)?;
                let i = arg
                    .to_integer()
                    .to_usize()
                    .filter(|i| arg.is_integer() && *i >= 1 && *i <= p.len())
                    .ok_or_else(|| {
                        EvalError::Undefined(format!(
                            "p({arg}): the rank must be in 1..={}",
                            p.len()
                        ))
                    })?;
                Ok(p[i - 1].clone())
            }
            ProcFunc::Eps1 => self.st.eps1(d, arg),
        }
    }

    fn bins(&self) -> usize {
        self.st.n()
    }

    fn frame(&self, d: &D, bin: usize, vars: BinVars) -> Eval<Frame<D::N>> {
        let pw = if vars.has(BinVar::P) || vars.has(BinVar::W) {
            match self.pw.get_or_init(|| self.st.per_bin_law(self.d)) {
                Ok(v) => Some(v),
                Err(e) => return Err(e.clone()),
            }
        } else {
            None
        };
        let ranks = vars.has(BinVar::Rank).then(|| self.ranks());
        self.st.frame(d, bin, vars, pw, ranks)
    }

    /// The law of the state after `steps` steps ([`law`]), merged up to
    /// permutations where what is read allows it ([`may_merge`]); in the float
    /// domains an event is re-decided at a state by the certified domains on request
    /// ([`decide_pair`]).
    fn next_law(&self, d: &D, steps: u32, reads: &Uses, visit: &mut NextVisit<'_, D>) -> Eval<()> {
        let canon = may_merge(self.st, reads);
        for (p, next) in law(d, self.st, steps, canon)? {
            let env = StateEnv::new(&next, d);
            let certified = d.exact_inputs();
            let recheck = |f: &Formula| -> Option<bool> {
                if certified {
                    None
                } else {
                    decide_pair(self.st, &next, f)
                }
            };
            visit(&p, &env, &recheck)?;
        }
        Ok(())
    }

    fn classes(&self, vars: BinVars) -> Option<Vec<(usize, usize)>> {
        // Bins of equal load share y and x; they share p and w when the allocation is symmetric.
        let only_load = !vars.has(BinVar::Rank) && !vars.has(BinVar::Index);
        let law_vars = vars.has(BinVar::P) || vars.has(BinVar::W);
        if !only_load || (law_vars && !self.st.case.alloc.symmetric(&self.st.case.setting)) {
            return None;
        }
        if !law_vars {
            // Loads only: the groups of equal load, without ranking the bins.
            return self.st.load_classes().map(<[_]>::to_vec);
        }
        let r = self.st.ranking();
        if r.groups.len() == r.order.len() {
            return None;
        }
        Some(
            r.groups
                .iter()
                .map(|g| (r.order[g.start], g.len()))
                .collect(),
        )
    }
}

/// The most steps `E{k}_X` takes by the tree of outcome states (beyond, by [`law`], whose
/// merged states cost less than the tree's `(outcomes)^{k−1}` leaves: BENCHMARKS.md).
pub const TREE_STEPS: u32 = 2;

/// `(E[X'], E[X' − X])` after `k` steps (or batches) for potential `j` of the case.
pub fn expected<D: Routes>(d: &D, st: &State, j: usize, k: u32) -> Eval<(D::N, D::N)> {
    if k <= 1 {
        return one_step(d, st, j);
    }
    let next = if k <= TREE_STEPS {
        let mut budget = MAX_OUTCOMES;
        k_steps(d, st, j, k, &mut budget)?
    } else {
        // E[X_k] = Σ over the law after k − 1 steps of P(x)·E[X' | x].
        let canon = symmetric(st) && pot_invariant(st, j, &mut Vec::new());
        let mut acc = d.zero();
        for (p, x) in law(d, st, k - 1, canon)? {
            let v = one_step(d, &x, j)?.0;
            acc = d.add(&acc, &d.mul(&p, &v)?)?;
        }
        acc
    };
    let env = StateEnv::new(st, d);
    let v = st.pot_value(d, &env, j)?;
    let change = d.sub(&next, &v)?;
    Ok((next, change))
}

/// A load vector as a key of the merged law (sorted, heaviest first, when `canon`).
fn key_of(mut x: Vec<Q>, canon: bool) -> Vec<Q> {
    if canon {
        x.sort_unstable_by(|a, b| b.cmp(a));
    }
    x
}

/// The law of the state after `steps` steps (or batches) from `st`: (probability, state) for
/// every state of positive probability, in the domain `d` (loads exact). States equal as load
/// vectors are merged; with `canon` (see [`may_merge`]), states equal up to a permutation of the
/// bins, each kept sorted heaviest first (module documentation). At most
/// [`crate::limits::NEXT_STATES`] distinct states a step, else an error naming the limit.
///
/// The probabilities of the states sum to 1, exactly in the exact domains (tested).
pub fn law<'c, D: Routes>(
    d: &D,
    st: &State<'c>,
    steps: u32,
    canon: bool,
) -> Eval<Vec<(D::N, State<'c>)>> {
    let limit = crate::limits::NEXT_STATES;
    let mut level: Vec<(D::N, State<'c>)> = Vec::new();
    for step in 0..steps {
        let mut keys: std::collections::BTreeMap<Vec<Q>, usize> = Default::default();
        let mut next: Vec<(D::N, Vec<Q>)> = Vec::new();
        let mut expand = |p: Option<&D::N>, from: &State<'c>| -> Eval<()> {
            for (q, x) in outcome_states_exact(d, from)? {
                let pq = match p {
                    Some(p) => d.mul(p, &q)?,
                    None => q,
                };
                let x = key_of(x, canon);
                match keys.get(&x) {
                    Some(&k) => next[k].0 = d.add(&next[k].0, &pq)?,
                    None => {
                        if next.len() as u64 >= limit.max {
                            return Err(EvalError::Error(Box::new(limit.exceeded(
                                &format!(
                                    "the law of the state after {} step(s) from n = {}",
                                    step + 1,
                                    from.n()
                                ),
                                &format!("more than {}", limit.max),
                            ))));
                        }
                        keys.insert(x.clone(), next.len());
                        next.push((pq, x));
                    }
                }
            }
            Ok(())
        };
        if step == 0 {
            expand(None, st)?;
        } else {
            for (p, from) in &level {
                expand(Some(p), from)?;
            }
        }
        level = next
            .into_iter()
            .map(|(p, x)| Ok((p, State::exact(st.case, x).map_err(EvalError::from)?)))
            .collect::<Eval<_>>()?;
    }
    Ok(level)
}

/// Whether `event` holds at the pair (state `cur`, next state `next`), decided in the certified
/// domains: exact rationals, exact exponential sums, enclosures of 64…4096 bits; `None` when
/// none decides it. A float evaluation of `P(...)` asks this for the events it finds within
/// rounding ([`crate::lang::Domain::fragile`]).
pub fn decide_pair(cur: &State, next: &State, event: &Formula) -> Option<bool> {
    fn at<D: Routes>(d: &D, cur: &State, next: &State, event: &Formula) -> Eval<bool> {
        let (c, n) = (StateEnv::new(cur, d), StateEnv::new(next, d));
        event.truth(d, &crate::lang::NextEnv { cur: &c, next: &n }, None, None)
    }
    match at(&crate::lang::Exact, cur, next, event) {
        Ok(t) => return Some(t),
        Err(EvalError::Unavailable(_)) => {}
        Err(_) => return None,
    }
    match at(&crate::lang::ExpSums::default(), cur, next, event) {
        Ok(t) => return Some(t),
        Err(EvalError::Unavailable(_)) | Err(EvalError::Undecided(_)) => {}
        Err(_) => return None,
    }
    for prec in crate::enclosure::Precisions::default().steps() {
        match at(&crate::lang::Enclosure { prec }, cur, next, event) {
            Ok(t) => return Some(t),
            Err(EvalError::Undecided(_)) => {}
            Err(_) => return None,
        }
    }
    None
}

fn k_steps<D: Routes>(d: &D, st: &State, j: usize, k: u32, budget: &mut usize) -> Eval<D::N> {
    if k == 1 {
        return Ok(one_step(d, st, j)?.0);
    }
    let outcomes = outcome_states(d, st)?;
    if outcomes.len() > *budget {
        return Err(EvalError::Unavailable(format!(
            "E{k}_ needs more than {MAX_OUTCOMES} outcome states"
        )));
    }
    *budget -= outcomes.len();
    let mut acc = d.zero();
    for (p, x) in outcomes {
        let next = next_state(st, x)?;
        let v = k_steps(d, &next, j, k - 1, budget)?;
        acc = d.add(&acc, &d.mul(&p, &v)?)?;
    }
    Ok(acc)
}

/// `(E[X'], E[X' − X])` after one step (or batch) for potential `j`.
pub fn one_step<D: Routes>(d: &D, st: &State, j: usize) -> Eval<(D::N, D::N)> {
    match &st.case.pots[j] {
        PotInst::Registered { .. } => d.reg_expected(st, j),
        PotInst::Defined(i) => {
            let PotDef::Defined { expr, .. } = &st.case.tables.pots[*i] else {
                unreachable!("a defined instance has a definition");
            };
            let env = StateEnv::new(st, d);
            let value = expr.eval(d, &env, None)?;
            let next = match linear(d, st, &env, expr)? {
                Some(v) => v,
                None => enumerate(d, st, expr)?,
            };
            let change = d.sub(&next, &value)?;
            Ok((next, change))
        }
    }
}

/// Whether `e` does not depend on the state (numbers, `n`, `b`, constants).
fn state_free(st: &State, e: &Expr) -> bool {
    let u = e.uses();
    !u.binders
        && !u.next_law
        && !u.primed
        && !u.proc_funcs
        && u.bin_vars.is_empty()
        && u.slots.iter().all(|s| {
            matches!(
                st.case.tables.slots[*s],
                Quantity::N | Quantity::B | Quantity::Const(_)
            )
        })
}

/// `E[e(x')]` by linearity, when `e` is a linear combination (state-free coefficients) of
/// separable sums, potentials and state-free terms; `None` otherwise.
fn linear<D: Routes>(d: &D, st: &State, env: &StateEnv<'_, '_, D>, e: &Expr) -> Eval<Option<D::N>> {
    if state_free(st, e) {
        return e.eval(d, env, None).map(Some);
    }
    Ok(match e {
        Expr::Slot(s) => match st.case.tables.slots[*s] {
            Quantity::Pot(i, super::quantity::Stat::Value) => Some(one_step(d, st, i)?.0),
            _ => None,
        },
        Expr::Neg(a) => match linear(d, st, env, a)? {
            Some(v) => Some(d.neg(&v)?),
            None => None,
        },
        Expr::Op(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            match (linear(d, st, env, a)?, linear(d, st, env, b)?) {
                (Some(x), Some(y)) => Some(if *op == BinOp::Add {
                    d.add(&x, &y)?
                } else {
                    d.sub(&x, &y)?
                }),
                _ => None,
            }
        }
        Expr::Op(BinOp::Mul, a, b) if state_free(st, a) => match linear(d, st, env, b)? {
            Some(v) => Some(d.mul(&a.eval(d, env, None)?, &v)?),
            None => None,
        },
        Expr::Op(BinOp::Mul, a, b) if state_free(st, b) => match linear(d, st, env, a)? {
            Some(v) => Some(d.mul(&v, &b.eval(d, env, None)?)?),
            None => None,
        },
        Expr::Op(BinOp::Div, a, b) if state_free(st, b) => match linear(d, st, env, a)? {
            Some(v) => Some(d.div(&v, &b.eval(d, env, None)?)?),
            None => None,
        },
        Expr::Over(Elements::Bins, crate::lang::Agg::Sum, f, pred, ..) => {
            separable_if(d, st, env, f, pred.as_deref())?
        }
        Expr::Count(Elements::Bins, pred, ..) => {
            separable_if(d, st, env, &crate::lang::expr::one(), Some(pred))?
        }
        _ => None,
    })
}

fn separable_if<D: Routes>(
    d: &D,
    st: &State,
    env: &StateEnv<'_, '_, D>,
    f: &Expr,
    pred: Option<&Formula>,
) -> Eval<Option<D::N>> {
    let mut u = f.uses();
    if let Some(p) = pred {
        let pu = p.uses();
        u.slots.extend(pu.slots);
        u.bin_vars = u.bin_vars.union(pu.bin_vars);
        u.proc_funcs |= pu.proc_funcs;
        u.binders |= pu.binders;
        u.next_law |= pu.next_law;
        u.outer.extend(pu.outer);
        u.dim_binders |= pu.dim_binders;
    }
    // A term that reads other bins (a nested binder) or the next state is not a function of
    // its own bin's load.
    if u.binders || u.next_law || u.dim_binders || !u.outer.is_empty() {
        return Ok(None);
    }
    let load_only = !u.bin_vars.has(BinVar::P)
        && !u.bin_vars.has(BinVar::W)
        && !u.bin_vars.has(BinVar::Rank)
        && !u.bin_vars.has(BinVar::Index);
    let slots_free = u.slots.iter().all(|s| {
        matches!(
            st.case.tables.slots[*s],
            Quantity::N | Quantity::B | Quantity::Const(_)
        )
    });
    if !load_only || !slots_free || u.proc_funcs {
        return Ok(None);
    }
    match separable(d, st, env, f, pred) {
        Ok(v) => Ok(Some(v)),
        Err(EvalError::Unavailable(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// `E[e(x')]` by enumerating the outcome states of one step (or batch).
fn enumerate<D: Routes>(d: &D, st: &State, e: &Expr) -> Eval<D::N> {
    let mut acc = d.zero();
    for (p, x) in outcome_states(d, st)? {
        let next = next_state(st, x)?;
        let env = StateEnv::new(&next, d);
        let v = e.eval(d, &env, None)?;
        acc = d.add(&acc, &d.mul(&p, &v)?)?;
    }
    Ok(acc)
}
