//! The law of the next state, for expectations `E[X' | x]` of potentials after one step, one
//! batch or `k` of them, in any number domain.
//!
//! * **Separable potentials** `Σᵢ f(yᵢ, xᵢ)` (over the bins where a predicate holds): through
//!   each bin's marginal. One step with outcomes `(bin j, k balls, P)` and a finite weight law:
//!   a total weight `s` of the `k` balls moves every bin by `−s/n` and bin `j` by `+s`, so
//!   `E = Σ_k Σ_s P(k, s) [T(s) + Σ_j P_j(k)/P(k)·(f(y_j + s − s/n) − f(y_j − s/n))]` with
//!   `T(s) = Σᵢ f(yᵢ − s/n)`. A batch of `b` unit balls on the frozen law: bin i receives
//!   `Bᵢ ~ Binomial(b, pᵢ)` and the mean moves by exactly `b/n`, so
//!   `E = Σᵢ Σ_m C(b, m) pᵢ^m (1 − pᵢ)^{b−m} f(yᵢ + m − b/n)`.
//!   Bins of equal load (and equal probabilities) are evaluated once.
//! * **Linear combinations** of such sums and of potentials with their own route, with
//!   coefficients that do not depend on the state.
//! * **Anything else**: enumeration of the outcome states (one step; the multisets of a batch),
//!   with at most [`MAX_OUTCOMES`] states; `E{k}_X` composes `k` steps by enumerating the first
//!   `k − 1` (a tree of outcome states, for `k ≤` [`super::env::TREE_STEPS`]) or, beyond, by the law of the
//!   state after `k − 1` steps ([`super::env::law`]).
//!
//! **The law after `k` steps** ([`super::env::law`]): a dynamic programme over the states. Step by step,
//! every state of positive probability is expanded into its one-step outcomes, and outcomes that
//! are the same load vector are merged (their probabilities added); when the allocation is
//! symmetric (a process that looks only at loads, ties broken uniformly at random:
//! [`crate::claim::case::Alloc::symmetric`]) and what is evaluated at the end does not tell the
//! bins apart (no bin index `i`, no per-bin name of the state paired with the next state's), the
//! law of the relabelled state is the relabelled law, so states equal up to a permutation of the
//! bins are merged too (each stored sorted, heaviest first). At most
//! [`crate::limits::NEXT_STATES`] distinct states a step. `P{k}(event)` and `E{k}(value)` of the
//! claim language are sums over this law ([`crate::lang::Expr::eval`]); loads are exact in every
//! domain (the probabilities are in the domain), so a float evaluation at a state can be
//! certified at the same state ([`super::env::decide_pair`]).

use super::case::PotInst;
use super::quantity::{PotDef, Quantity};
use super::state::{State, times};
use crate::exact::{Q, int};
use crate::lang::{BinVar, BinVars, Domain, Env, Eval, EvalError, Expr, Formula};
use num_traits::{One, Zero};

/// The most outcome states an enumeration may visit.
pub const MAX_OUTCOMES: usize = 200_000;
/// The most per-bin evaluations a separable batch expectation may make.
pub const MAX_TERMS: usize = 20_000_000;

/// Whether relabelling the bins relabels the law of the next state: a process that looks only
/// at the loads (or an allocation vector by rank) with ties broken uniformly at random.
pub fn symmetric(st: &State) -> bool {
    st.case.alloc.symmetric(&st.case.setting)
}

/// Whether potential `j` of the case takes the same value at every relabelling of the bins: a
/// registered potential (a sum over the bins), or a definition that reads no bin index (`i`, a
/// binder's name) and no function of the state, through potentials that are themselves
/// invariant. `seen`: the potentials on the path (a definition through itself is refused when
/// compiled).
pub fn pot_invariant(st: &State, j: usize, seen: &mut Vec<usize>) -> bool {
    match &st.case.pots[j] {
        PotInst::Registered { .. } => true,
        PotInst::Defined(i) => {
            if seen.contains(i) {
                return true;
            }
            seen.push(*i);
            let PotDef::Defined { expr, .. } = &st.case.tables.pots[*i] else {
                return false;
            };
            let u = expr.uses();
            !u.all_bin_vars.has(BinVar::Index)
                && !u.env_funcs
                && slots_invariant(st, &u.slots, seen)
        }
    }
}

/// Whether the quantities in `slots` are invariant under relabelling the bins (every quantity
/// is, but potentials that read a bin index: [`pot_invariant`]).
pub fn slots_invariant(st: &State, slots: &[usize], seen: &mut Vec<usize>) -> bool {
    slots.iter().all(|s| match st.case.tables.slots[*s] {
        Quantity::Pot(i, _) => pot_invariant(st, i, seen),
        _ => true,
    })
}

/// Whether an event or value over the next state (what it `reads`) may be evaluated on the
/// next states merged up to a permutation of the bins: the allocation is [`symmetric`], no
/// per-bin name of the state is read (it would pair a bin of the state with the same bin of the
/// next state) and every quantity read is invariant.
pub fn may_merge(st: &State, reads: &crate::lang::Uses) -> bool {
    symmetric(st)
        && reads.all_bin_vars.current().is_empty()
        && !reads.all_bin_vars.has_next(BinVar::Index)
        && !reads.env_funcs
        && slots_invariant(st, &reads.slots, &mut Vec::new())
}

/// The outcome states of one step or batch with exact loads, the probabilities in `d`.
pub(super) fn outcome_states_exact<D: Domain>(d: &D, st: &State) -> Eval<Vec<(D::N, Vec<Q>)>> {
    Ok(outcome_states_with(d, st, true)?
        .into_iter()
        .map(|(p, x)| match x {
            NextLoads::Exact(q) => (p, q),
            NextLoads::Float(f) => (
                p,
                f.iter()
                    .map(|v| crate::exact::from_float(*v).unwrap_or_default())
                    .collect(),
            ),
        })
        .collect())
}

/// The per-bin term `f·[pred]` at normalised load `y` and load `x`.
fn term<D: Domain>(
    d: &D,
    env: &dyn Env<D>,
    f: &Expr,
    pred: Option<&Formula>,
    y: &D::N,
    x: &D::N,
) -> Eval<D::N> {
    let mut fr = crate::lang::Frame::default();
    fr.set(BinVar::Y, y.clone());
    fr.set(BinVar::X, x.clone());
    if let Some(p) = pred
        && !p.truth(d, env, Some(&fr), None)?
    {
        return Ok(d.zero());
    }
    f.eval(d, env, Some(&fr))
}

/// A class of bins with equal load and equal probabilities: its load, normalised load, size,
/// and the total probability of each ball count of the outcomes that land in it.
struct Class<N> {
    y: N,
    x: N,
    /// `y` and `x` exactly (exact domains), so that moved loads are computed exactly and a
    /// predicate at a boundary is decided.
    yq: Option<Q>,
    xq: Option<Q>,
    count: usize,
    /// (balls, total probability over the class).
    prob: Vec<(u32, N)>,
}

/// `base + delta`, exactly when both are known exactly (so a predicate at its boundary is decided
/// in every domain), else in the domain.
fn moved<D: Domain>(
    d: &D,
    base: &D::N,
    base_q: &Option<Q>,
    delta: &D::N,
    delta_q: &Option<Q>,
) -> Eval<D::N> {
    match (base_q, delta_q) {
        (Some(b), Some(dq)) => d.rational(&(b + dq)),
        _ => d.add(base, delta),
    }
}

/// The classes of the state in the domain `d`.
fn classes<D: Domain>(d: &D, st: &State) -> Eval<Vec<Class<D::N>>> {
    let n = st.n();
    // Float and a rank vector: the grouped law (one entry per load level).
    if !d.exact_inputs()
        && let Some(ll) = st.level_law()
    {
        let lv = st.levels();
        let mut out = Vec::with_capacity(ll.y.len());
        for g in 0..ll.y.len() {
            out.push(Class {
                y: d.float(ll.y[g])?,
                x: d.float(lv.values[g])?,
                yq: None,
                xq: None,
                count: ll.counts[g],
                prob: vec![(1, d.float(ll.prob[g])?)],
            });
        }
        return Ok(out);
    }
    let symmetric = st.case.alloc.symmetric(&st.case.setting);
    let r = st.ranking();
    // Class of each bin: its tied group when the allocation is symmetric, else itself.
    let (class_of, reps): (Vec<usize>, Vec<(usize, usize)>) = if symmetric {
        let mut c = vec![0; n];
        for (g, range) in r.groups.iter().enumerate() {
            for k in range.clone() {
                c[r.order[k]] = g;
            }
        }
        (
            c,
            r.groups
                .iter()
                .map(|g| (r.order[g.start], g.len()))
                .collect(),
        )
    } else {
        ((0..n).collect(), (0..n).map(|b| (b, 1)).collect())
    };
    let mut out: Vec<Class<D::N>> = Vec::with_capacity(reps.len());
    for (bin, count) in reps {
        let (y, x, yq, xq) = if d.exact_inputs() {
            let (yq, xq) = (st.yq()[bin].clone(), st.xq()[bin].clone());
            (d.rational(&yq)?, d.rational(&xq)?, Some(yq), Some(xq))
        } else {
            (d.float(st.y()[bin])?, d.float(st.x()[bin])?, None, None)
        };
        out.push(Class {
            y,
            x,
            yq,
            xq,
            count,
            prob: Vec::new(),
        });
    }
    let mut add = |c: usize, balls: u32, p: D::N| -> Eval<()> {
        let cls = &mut out[c];
        match cls.prob.iter_mut().find(|(k, _)| *k == balls) {
            Some((_, acc)) => *acc = d.add(acc, &p)?,
            None => cls.prob.push((balls, p)),
        }
        Ok(())
    };
    if d.exact_inputs() {
        for o in &st.law_q_required()?.outcomes {
            if !o.prob.is_zero() {
                add(class_of[o.bin], o.balls, d.rational(&o.prob)?)?;
            }
        }
    } else {
        for o in &st.law_f()?.outcomes {
            if o.prob > 0.0 {
                add(class_of[o.bin], o.balls, d.float(o.prob)?)?;
            }
        }
    }
    Ok(out)
}

/// The law of the total weight of `k` balls, as (value, probability, exact value) in `d` (the
/// exact value in the exact domains).
#[allow(clippy::type_complexity)]
fn weight_sums<D: Domain>(d: &D, st: &State, k: u32) -> Eval<Vec<(D::N, D::N, Option<Q>)>> {
    if st.case.setting.weights.is_unit() {
        let q = Q::from_integer(k.into());
        return Ok(vec![(d.rational(&q)?, d.one(), Some(q))]);
    }
    if d.exact_inputs() {
        let w = st
            .case
            .exact_setting
            .as_ref()
            .and_then(|s| s.weights.support())
            .ok_or_else(|| {
                EvalError::Unavailable(format!(
                    "the weight law `{}` is not finite",
                    st.case.setting.weights.spec()
                ))
            })?;
        let mut acc: Vec<(Q, Q)> = vec![(Q::zero(), Q::one())];
        for _ in 0..k {
            let mut next: Vec<(Q, Q)> = Vec::new();
            for (s0, p0) in &acc {
                for (v, q) in &w {
                    let v = s0 + v;
                    let pq = p0 * q;
                    match next.iter_mut().find(|(t, _)| *t == v) {
                        Some((_, a)) => *a += pq,
                        None => next.push((v, pq)),
                    }
                }
            }
            if next.len() > 10_000 {
                return Err(EvalError::Unavailable(
                    "the weight sums of an outcome have more than 10000 values".into(),
                ));
            }
            acc = next;
        }
        return acc
            .into_iter()
            .map(|(v, p)| Ok((d.rational(&v)?, d.rational(&p)?, Some(v))))
            .collect();
    }
    let support: Vec<(D::N, D::N)> = if d.exact_inputs() {
        let w = st
            .case
            .exact_setting
            .as_ref()
            .and_then(|s| s.weights.support())
            .ok_or_else(|| {
                EvalError::Unavailable(format!(
                    "the weight law `{}` is not finite",
                    st.case.setting.weights.spec()
                ))
            })?;
        w.iter()
            .map(|(v, p)| Ok((d.rational(v)?, d.rational(p)?)))
            .collect::<Eval<_>>()?
    } else {
        let w = st.case.setting.weights.support().ok_or_else(|| {
            EvalError::Unavailable(format!(
                "the weight law `{}` is not finite",
                st.case.setting.weights.spec()
            ))
        })?;
        w.iter()
            .map(|(v, p)| Ok((d.float(*v)?, d.float(*p)?)))
            .collect::<Eval<_>>()?
    };
    let mut acc: Vec<(D::N, D::N)> = vec![(d.zero(), d.one())];
    for _ in 0..k {
        let mut next: Vec<(D::N, D::N)> = Vec::new();
        for (s, p) in &acc {
            for (w, q) in &support {
                let v = d.add(s, w)?;
                let pq = d.mul(p, q)?;
                match next
                    .iter_mut()
                    .find(|(t, _)| d.cmp(t, &v).ok() == Some(std::cmp::Ordering::Equal))
                {
                    Some((_, acc)) => *acc = d.add(acc, &pq)?,
                    None => next.push((v, pq)),
                }
            }
        }
        if next.len() > 10_000 {
            return Err(EvalError::Unavailable(
                "the weight sums of an outcome have more than 10000 values".into(),
            ));
        }
        acc = next;
    }
    Ok(acc.into_iter().map(|(v, p)| (v, p, None)).collect())
}

/// `E[Σ_{i: pred} f(yᵢ', xᵢ')]` after one step or batch (module documentation); an
/// [`EvalError::Unavailable`] for a batch with weights or several balls per outcome.
pub fn separable<D: Domain>(
    d: &D,
    st: &State,
    env: &dyn Env<D>,
    f: &Expr,
    pred: Option<&Formula>,
) -> Eval<D::N> {
    let n = st.n();
    let nn = d.float(n as f64)?;
    let cls = classes(d, st)?;
    let b = st.case.setting.batch;
    if b == 1 {
        // The ball counts that occur, and the total probability of each.
        let mut counts: Vec<u32> = cls
            .iter()
            .flat_map(|c| c.prob.iter().map(|(k, _)| *k))
            .collect();
        counts.sort_unstable();
        counts.dedup();
        let mut total = d.zero();
        for k in counts {
            let pk_total = {
                let mut acc = d.zero();
                for c in &cls {
                    if let Some((_, p)) = c.prob.iter().find(|(kk, _)| *kk == k) {
                        acc = d.add(&acc, p)?;
                    }
                }
                acc
            };
            for (s, ps, sq) in weight_sums(d, st, k)? {
                let shift = d.div(&s, &nn)?;
                let shift_q = sq.as_ref().map(|v| v / Q::from_integer(n.into()));
                // stay[c] = f(y − s/n, x) for a bin of class c that does not receive the balls;
                // T(s) = Σ_classes count · stay.
                let mut stay = Vec::with_capacity(cls.len());
                let mut t = d.zero();
                for c in &cls {
                    let ys = moved(
                        d,
                        &c.y,
                        &c.yq,
                        &d.neg(&shift)?,
                        &shift_q.clone().map(|v| -v),
                    )?;
                    let v = term(d, env, f, pred, &ys, &c.x)?;
                    t = d.add(&t, &times(d, &v, c.count)?)?;
                    stay.push(v);
                }
                let mut acc = d.mul(&pk_total, &t)?;
                let up_q = match (&sq, &shift_q) {
                    (Some(a), Some(b)) => Some(a - b),
                    _ => None,
                };
                let up_shift = d.sub(&s, &shift)?;
                for (c, stay) in cls.iter().zip(&stay) {
                    let Some((_, p)) = c.prob.iter().find(|(kk, _)| *kk == k) else {
                        continue;
                    };
                    let yu = moved(d, &c.y, &c.yq, &up_shift, &up_q)?;
                    let xu = moved(d, &c.x, &c.xq, &s, &sq)?;
                    let up = term(d, env, f, pred, &yu, &xu)?;
                    acc = d.add(&acc, &d.mul(p, &d.sub(&up, stay)?)?)?;
                }
                total = d.add(&total, &d.mul(&ps, &acc)?)?;
            }
        }
        return Ok(total);
    }
    // A batch: unit balls, one per outcome.
    if !st.case.setting.weights.is_unit() || cls.iter().any(|c| c.prob.iter().any(|(k, _)| *k != 1))
    {
        return Err(EvalError::Unavailable(
            "a batch with weights or several balls per outcome (enumeration instead)".into(),
        ));
    }
    if cls.len().saturating_mul(b as usize + 1) > MAX_TERMS {
        return Err(EvalError::Unavailable(format!(
            "the batch expectation needs more than {MAX_TERMS} per-bin evaluations"
        )));
    }
    let bb = d.float(b as f64)?;
    let shift = d.div(&bb, &nn)?;
    let mut total = d.zero();
    for c in &cls {
        // The probability of each bin of the class (uniform within the class).
        let pc = match c.prob.first() {
            Some((_, p)) => d.div(p, &d.float(c.count as f64)?)?,
            None => d.zero(),
        };
        let q = d.sub(&d.one(), &pc)?;
        // Σ_m C(b, m) p^m q^{b−m} f(y + m − b/n)
        let mut coef = d.one(); // C(b, m)
        let mut acc = d.zero();
        for m in 0..=b {
            if m > 0 {
                coef = d.div(
                    &d.mul(&coef, &d.float((b - m + 1) as f64)?)?,
                    &d.float(m as f64)?,
                )?;
            }
            let w = d.mul(
                &coef,
                &d.mul(&d.powi(&pc, m as i64)?, &d.powi(&q, (b - m) as i64)?)?,
            )?;
            let mm = d.float(m as f64)?;
            let mq = Q::from_integer(m.into());
            let dy_q = Some(&mq - Q::new((b as i64).into(), (n as i64).into()));
            let yv = moved(d, &c.y, &c.yq, &d.sub(&mm, &shift)?, &dy_q)?;
            let xv = moved(d, &c.x, &c.xq, &mm, &Some(mq))?;
            let v = term(d, env, f, pred, &yv, &xv)?;
            acc = d.add(&acc, &d.mul(&w, &v)?)?;
        }
        total = d.add(&total, &times(d, &acc, c.count)?)?;
    }
    Ok(total)
}

/// The outcome states of one step or batch: (probability, loads), the loads exact in the exact
/// domains.
#[allow(clippy::type_complexity)]
pub fn outcome_states<D: Domain>(d: &D, st: &State) -> Eval<Vec<(D::N, NextLoads)>> {
    outcome_states_with(d, st, d.exact_inputs())
}

/// [`outcome_states`] with exact loads when `exact_loads` (the probabilities in `d` either way).
#[allow(clippy::type_complexity)]
fn outcome_states_with<D: Domain>(
    d: &D,
    st: &State,
    exact_loads: bool,
) -> Eval<Vec<(D::N, NextLoads)>> {
    // Branches: (bin, total weight of the outcome's balls (exact), probability).
    let mut branches: Vec<(usize, Q, D::N)> = Vec::new();
    let weights: Vec<(Q, Q)> = if st.case.setting.weights.is_unit() {
        vec![(Q::one(), Q::one())]
    } else {
        st.case
            .exact_setting
            .as_ref()
            .and_then(|s| s.weights.support())
            .ok_or_else(|| {
                EvalError::Unavailable(format!(
                    "enumerating outcome states needs a finite weight law with rational values, not `{}`",
                    st.case.setting.weights.spec()
                ))
            })?
    };
    let mut push = |bin: usize, balls: u32, p: D::N| -> Eval<()> {
        let mut partial: Vec<(Q, Q)> = vec![(Q::zero(), Q::one())];
        for _ in 0..balls {
            let mut next = Vec::new();
            for (w0, p0) in &partial {
                for (w, q) in &weights {
                    next.push((w0 + w, p0 * q));
                }
            }
            partial = next;
            if partial.len() > MAX_OUTCOMES {
                return Err(EvalError::Unavailable(format!(
                    "more than {MAX_OUTCOMES} outcome states"
                )));
            }
        }
        for (w, q) in partial {
            branches.push((bin, w, d.mul(&p, &d.rational(&q)?)?));
        }
        Ok(())
    };
    if d.exact_inputs() {
        for o in &st.law_q_required()?.outcomes {
            if !o.prob.is_zero() {
                push(o.bin, o.balls, d.rational(&o.prob)?)?;
            }
        }
    } else {
        for o in &st.law_f()?.outcomes {
            if o.prob > 0.0 {
                push(o.bin, o.balls, d.float(o.prob)?)?;
            }
        }
    }
    let b = st.case.setting.batch as usize;
    // Multisets of b branches: C(K + b − 1, b) of them.
    let k = branches.len();
    let mut size = 1f64;
    for i in 0..b {
        size = size * (k + i) as f64 / (i + 1) as f64;
    }
    if size > MAX_OUTCOMES as f64 {
        return Err(EvalError::Unavailable(format!(
            "a batch of {b} over {k} outcomes has {size:.3e} outcome states, more than {MAX_OUTCOMES}"
        )));
    }
    let mut out = Vec::new();
    let mut counts = vec![0usize; k];
    multisets(d, st, &branches, b, 0, &mut counts, exact_loads, &mut out)?;
    Ok(out)
}

/// Loads after a step: exact or float.
#[derive(Debug, Clone)]
pub enum NextLoads {
    /// Exact loads.
    Exact(Vec<Q>),
    /// Float loads.
    Float(Vec<f64>),
}

#[allow(clippy::too_many_arguments)]
fn multisets<D: Domain>(
    d: &D,
    st: &State,
    branches: &[(usize, Q, D::N)],
    left: usize,
    from: usize,
    counts: &mut Vec<usize>,
    exact_loads: bool,
    out: &mut Vec<(D::N, NextLoads)>,
) -> Eval<()> {
    if left == 0 {
        // Multinomial coefficient b!/Π cᵢ! times Π pᵢ^{cᵢ}.
        let b = st.case.setting.batch as usize;
        let mut coef = Q::one();
        let mut used = 0usize;
        for &c in counts.iter() {
            for t in 1..=c {
                used += 1;
                coef = coef * int(used as i64) / int(t as i64);
            }
        }
        debug_assert_eq!(used, b);
        let mut p = d.rational(&coef)?;
        for (i, &c) in counts.iter().enumerate() {
            if c > 0 {
                p = d.mul(&p, &d.powi(&branches[i].2, c as i64)?)?;
            }
        }
        let loads = if exact_loads {
            let mut x = st.xq().to_vec();
            for (i, &c) in counts.iter().enumerate() {
                if c > 0 {
                    x[branches[i].0] += &branches[i].1 * int(c as i64);
                }
            }
            NextLoads::Exact(x)
        } else {
            let mut x = st.x().to_vec();
            for (i, &c) in counts.iter().enumerate() {
                if c > 0 {
                    x[branches[i].0] += crate::exact::to_f64(&branches[i].1) * c as f64;
                }
            }
            NextLoads::Float(x)
        };
        out.push((p, loads));
        return Ok(());
    }
    for i in from..branches.len() {
        counts[i] += 1;
        multisets(d, st, branches, left - 1, i, counts, exact_loads, out)?;
        counts[i] -= 1;
    }
    Ok(())
}

/// The state with the given next loads, in the same case.
pub fn next_state<'c>(st: &State<'c>, x: NextLoads) -> Eval<State<'c>> {
    match x {
        NextLoads::Exact(q) => State::exact(st.case, q).map_err(EvalError::from),
        NextLoads::Float(f) => State::new(st.case, f).map_err(EvalError::from),
    }
}

/// `Σᵢ f(yᵢ)` of a per-bin term at the state (the value of a sum-over-bins potential), grouping
/// tied bins.
pub fn per_bin_sum<D: Domain>(d: &D, st: &State, env: &dyn Env<D>, f: &Expr) -> Eval<D::N> {
    let r = st.ranking();
    let mut acc = d.zero();
    let vars = {
        let mut v = BinVars::default();
        v.add(BinVar::Y);
        v.add(BinVar::X);
        v
    };
    for g in &r.groups {
        let bin = r.order[g.start];
        let fr = st.frame(d, bin, vars, None, None)?;
        let v = f.eval(d, env, Some(&fr))?;
        acc = d.add(&acc, &times(d, &v, g.len())?)?;
    }
    Ok(acc)
}
