//! A load vector of a case and the evaluation of the claim's quantities there, in any number
//! domain. Everything a quantity needs (normalised loads, the ranking, the step law in floats or
//! rationals, the grouped law, the mean-bias sides) is built on first use and kept.

use super::case::{Alloc, Case, PotInst};
use super::mean_bias::BiasState;
use super::quantity::{PotDef, Quantity, Stat};
use super::routes::Routes;
use crate::error::{Error, Result};
use crate::exact::{ExactStepLaw, Q, int};
use crate::lang::{
    BinVar, BinVars, Domain, Env, Eval, EvalError, Formula, Frame, NextVisit, ProcFunc, Uses,
};
use crate::loads::{Levels, Loads, Ranking};
use crate::process::{LevelLaw, StepLaw};
use num_traits::{Signed, ToPrimitive};
use std::cell::{OnceCell, RefCell};

/// The per-bin law of a state in a domain: each bin's probability of receiving the next ball
/// (`p`) and its expected increase in one step or batch (`w`).
#[derive(Debug, Clone)]
pub struct BinLaw<N> {
    /// `pᵢ`
    pub p: Vec<N>,
    /// `wᵢ`
    pub w: Vec<N>,
}

/// A load vector of a case.
pub struct State<'c> {
    /// The case.
    pub case: &'c Case<'c>,
    x: Vec<f64>,
    xq: OnceCell<Vec<Q>>,
    loads: OnceCell<Loads>,
    y: OnceCell<Vec<f64>>,
    yq: OnceCell<Vec<Q>>,
    ranking: OnceCell<Ranking>,
    law_f: OnceCell<std::result::Result<StepLaw, Error>>,
    rank_law_f: OnceCell<Vec<f64>>,
    law_q: OnceCell<std::result::Result<Option<ExactStepLaw>, Error>>,
    level: OnceCell<Option<LevelLaw>>,
    levels: OnceCell<Levels>,
    load_classes: OnceCell<Option<Vec<(usize, usize)>>>,
    bias: OnceCell<std::result::Result<BiasState, Error>>,
}

fn err(e: &Error) -> EvalError {
    EvalError::from(e.clone())
}

impl<'c> State<'c> {
    /// The state `x` (finite loads) of `case`.
    pub fn new(case: &'c Case<'c>, x: Vec<f64>) -> Result<State<'c>> {
        let loads = Loads::new(x.clone())?;
        let s = State::bare(case, x);
        let _ = s.loads.set(loads);
        Ok(s)
    }

    /// The state with exact loads `xq` (its float loads are the nearest `f64`s).
    pub fn exact(case: &'c Case<'c>, xq: Vec<Q>) -> Result<State<'c>> {
        let x: Vec<f64> = xq.iter().map(crate::exact::to_f64).collect();
        let s = State::new(case, x)?;
        let _ = s.xq.set(xq);
        Ok(s)
    }

    fn bare(case: &'c Case<'c>, x: Vec<f64>) -> State<'c> {
        State {
            case,
            x,
            xq: OnceCell::new(),
            loads: OnceCell::new(),
            y: OnceCell::new(),
            yq: OnceCell::new(),
            ranking: OnceCell::new(),
            law_f: OnceCell::new(),
            rank_law_f: OnceCell::new(),
            law_q: OnceCell::new(),
            level: OnceCell::new(),
            levels: OnceCell::new(),
            load_classes: OnceCell::new(),
            bias: OnceCell::new(),
        }
    }

    /// The loads as given.
    pub fn x(&self) -> &[f64] {
        &self.x
    }
    /// The number of bins.
    pub fn n(&self) -> usize {
        self.x.len()
    }
    /// The loads.
    pub fn loads(&self) -> &Loads {
        self.loads
            .get_or_init(|| Loads::new(self.x.clone()).expect("validated in State::new"))
    }
    /// The distinct loads, heaviest first, with their counts (computed once).
    pub fn levels(&self) -> &Levels {
        self.levels.get_or_init(|| self.loads().levels())
    }

    /// The bins grouped by load, heaviest first: (a bin of the group, the group's size); `None`
    /// when every load is distinct. Found from the [`Levels`] without ranking the bins (a
    /// sum over the bins of a term in `y` and `x` only needs one bin per load).
    pub fn load_classes(&self) -> Option<&[(usize, usize)]> {
        self.load_classes
            .get_or_init(|| {
                let lv = self.levels();
                (lv.values.len() < self.x.len()).then(|| {
                    representatives(&self.x, lv)
                        .into_iter()
                        .zip(lv.counts.iter().copied())
                        .collect()
                })
            })
            .as_deref()
    }

    /// The exact loads.
    pub fn xq(&self) -> &[Q] {
        self.xq.get_or_init(|| {
            self.x
                .iter()
                .map(|v| crate::exact::from_float(*v).unwrap_or_default())
                .collect()
        })
    }
    /// The normalised loads `yᵢ = xᵢ − W/n`.
    pub fn y(&self) -> &[f64] {
        self.y.get_or_init(|| self.loads().normalized())
    }
    /// The normalised loads, exactly.
    pub fn yq(&self) -> &[Q] {
        self.yq.get_or_init(|| crate::exact::normalized(self.xq()))
    }
    /// The ranking (heaviest first, tied groups).
    pub fn ranking(&self) -> &Ranking {
        self.ranking.get_or_init(|| self.loads().ranking())
    }

    /// The float step law (per-bin probabilities with the tie rule applied).
    pub fn law_f(&self) -> Eval<&StepLaw> {
        self.law_f
            .get_or_init(|| {
                let ties = self.case.setting.ties;
                match self.case.alloc {
                    Alloc::None => Err(Error::Unsupported("no allocation".into())),
                    Alloc::Process {
                        process, p: None, ..
                    } => process.step_law(self.loads(), ties),
                    _ => Ok(StepLaw::unit(
                        self.rank_law_f().expect("a rank vector").to_vec(),
                    )),
                }
            })
            .as_ref()
            .map_err(err)
    }

    /// Each bin's probability of the next ball when the allocation is a rank vector `p`: `p` by
    /// rank with the tie rule applied ([`Ranking::per_bin`]); `None` for other allocations.
    fn rank_law_f(&self) -> Option<&[f64]> {
        let p = self.case.alloc.rank_vector()?;
        Some(
            self.rank_law_f
                .get_or_init(|| self.ranking().per_bin(p, self.case.setting.ties)),
        )
    }

    /// The exact step law (`None` when the process has no rational probabilities).
    pub fn law_q(&self) -> Eval<Option<&ExactStepLaw>> {
        self.law_q
            .get_or_init(|| {
                let ties = self.case.setting.ties;
                match self.case.alloc {
                    Alloc::None => Ok(None),
                    Alloc::Process {
                        process,
                        exact: None,
                        ..
                    } => process
                        .step_law_exact(self.loads(), ties)?
                        .map(|l| l.validated())
                        .transpose(),
                    a => {
                        let p = a.rank_vector_exact().expect("exact rank vector");
                        Ok(Some(ExactStepLaw::unit(self.ranking().per_bin(p, ties))))
                    }
                }
            })
            .as_ref()
            .map(|o| o.as_ref())
            .map_err(err)
    }

    /// The exact step law, or an [`EvalError::Unavailable`].
    pub fn law_q_required(&self) -> Eval<&ExactStepLaw> {
        self.law_q()?.ok_or_else(|| {
            EvalError::Unavailable(format!("{} has no exact step law", self.case.alloc.label()))
        })
    }

    /// The grouped law (a rank vector, and one ball or random ties), for the float routes.
    pub fn level_law(&self) -> Option<&LevelLaw> {
        self.level
            .get_or_init(|| {
                let s = &self.case.setting;
                let p = self.case.alloc.rank_vector()?;
                if s.batch > 1 && s.ties != crate::loads::TieRule::Random {
                    return None;
                }
                Some(LevelLaw::of_rank_vector(p, self.levels(), s.ties))
            })
            .as_ref()
    }

    /// The mean-bias data at the state.
    pub fn bias(&self) -> Eval<&BiasState> {
        self.bias
            .get_or_init(|| match self.case.alloc.process() {
                Some(p) => BiasState::new(p, self.loads(), self.case.setting.ties),
                None => Err(Error::Unsupported(
                    "the mean-bias quantities need a process".into(),
                )),
            })
            .as_ref()
            .map_err(err)
    }

    /// The allocation probabilities by rank (heaviest first), in the domain `d`.
    pub fn p_by_rank<D: Domain>(&self, d: &D) -> Eval<Vec<D::N>> {
        if d.exact_inputs() {
            if let Some(p) = self.case.alloc.rank_vector_exact() {
                return p.iter().map(|v| d.rational(v)).collect();
            }
            let law = self.law_q_required()?;
            let per_bin = law.per_bin_probability();
            return self
                .ranking()
                .by_rank(&per_bin)
                .iter()
                .map(|v| d.rational(v))
                .collect();
        }
        if let Some(p) = self.case.alloc.rank_vector() {
            return p.iter().map(|v| d.float(*v)).collect();
        }
        let per_bin = self.law_f()?.per_bin_probability();
        self.ranking()
            .by_rank(&per_bin)
            .iter()
            .map(|v| d.float(*v))
            .collect()
    }

    /// The per-bin probability and expected increase (one step or batch) of every bin.
    fn per_bin_law<D: Domain>(&self, d: &D) -> Eval<BinLaw<D::N>> {
        let b = self.case.setting.batch as f64;
        if d.exact_inputs() {
            let law = self.law_q_required()?;
            let mean = self
                .case
                .exact_setting
                .as_ref()
                .map(|s| s.weights.mean())
                .ok_or_else(|| {
                    EvalError::Unavailable("a weight law with rational parameters".into())
                })?;
            let p: Vec<D::N> = law
                .per_bin_probability()
                .iter()
                .map(|v| d.rational(v))
                .collect::<Eval<_>>()?;
            let w: Vec<D::N> = law
                .per_bin_expected_balls()
                .iter()
                .map(|v| d.rational(&(v * &mean * int(self.case.setting.batch as i64))))
                .collect::<Eval<_>>()?;
            return Ok(BinLaw { p, w });
        }
        let mean = self.case.setting.weights.mean();
        if self.case.alloc.rank_vector().is_some() {
            // A rank vector allocates one ball per step, so the expected number of balls of a
            // bin is its probability: the values of the step law's two sums (each `0 + pᵢ`),
            // read without building the law.
            let per_bin = self.rank_law_f().expect("a rank vector");
            let mut p = Vec::with_capacity(per_bin.len());
            let mut w = Vec::with_capacity(per_bin.len());
            for &v in per_bin {
                let v = 0.0 + v;
                p.push(d.float(v)?);
                w.push(d.float(v * mean * b)?);
            }
            return Ok(BinLaw { p, w });
        }
        let law = self.law_f()?;
        let p = law
            .per_bin_probability()
            .iter()
            .map(|v| d.float(*v))
            .collect::<Eval<_>>()?;
        let w = law
            .per_bin_expected_balls()
            .iter()
            .map(|v| d.float(v * mean * b))
            .collect::<Eval<_>>()?;
        Ok(BinLaw { p, w })
    }

    /// The best ε of C1 at δ for the allocation vector by rank (cached in the case when the
    /// allocation has a rank vector, so that it does not depend on the state).
    fn eps1<D: Domain>(&self, d: &D, delta: &Q) -> Eval<D::N> {
        let exact = d.exact_inputs();
        let fixed = if exact {
            self.case.alloc.rank_vector_exact().is_some()
        } else {
            self.case.alloc.rank_vector().is_some()
        };
        if fixed {
            let cache = self.case.eps1_cache.lock().expect("not poisoned");
            if let Some(e) = cache.iter().find(|e| &e.delta == delta) {
                match (exact, &e.float, &e.exact) {
                    (true, _, Some(q)) => return d.rational(q),
                    (false, Some(f), _) => return d.float(*f),
                    _ => {}
                }
            }
        }
        let n = self.n();
        let k = crate::condition::delta_n(n, delta).map_err(EvalError::from)?;
        let remember = |float: Option<f64>, exactv: Option<Q>| {
            if !fixed {
                return;
            }
            let mut cache = self.case.eps1_cache.lock().expect("not poisoned");
            let e = match cache.iter_mut().position(|e| &e.delta == delta) {
                Some(i) => &mut cache[i],
                None => {
                    cache.push(crate::claim::case::Eps1 {
                        delta: delta.clone(),
                        float: None,
                        exact: None,
                    });
                    cache.last_mut().expect("just pushed")
                }
            };
            if float.is_some() {
                e.float = float;
            }
            if exactv.is_some() {
                e.exact = exactv;
            }
        };
        if exact {
            let p: Vec<Q> = match self.case.alloc.rank_vector_exact() {
                Some(p) => p.to_vec(),
                None => self
                    .ranking()
                    .by_rank(&self.law_q_required()?.per_bin_probability()),
            };
            let b = crate::condition::best_eps(&p, k).map_err(EvalError::from)?;
            remember(None, Some(b.eps.clone()));
            return d.rational(&b.eps);
        }
        let b = match self.case.alloc.rank_vector() {
            Some(p) => crate::condition::best_eps(p, k),
            None => crate::condition::best_eps(
                &self.ranking().by_rank(&self.law_f()?.per_bin_probability()),
                k,
            ),
        }
        .map_err(EvalError::from)?;
        remember(Some(b.eps), None);
        d.float(b.eps)
    }

    /// The value of a quantity in the domain `d` (uncached; see [`StateEnv`]).
    pub fn quantity<D: Routes>(&self, d: &D, env: &StateEnv<'_, '_, D>, q: Quantity) -> Eval<D::N> {
        let n = self.n();
        let exact = d.exact_inputs();
        match q {
            Quantity::N => d.float(n as f64),
            Quantity::B => d.float(self.case.setting.batch as f64),
            Quantity::Const(j) => self.case.constant(d, j),
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
            Stat::Expected(k) => Ok(super::next_state::expected(d, self, j, k)?.0),
            Stat::Change(k) => Ok(super::next_state::expected(d, self, j, k)?.1),
            Stat::Ratio(k) => {
                let (next, _) = super::next_state::expected(d, self, j, k)?;
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

    /// The per-bin values `vars` of bin `bin` in the domain `d`, with the probabilities and
    /// expected increases `pw` when they are needed.
    pub fn frame<D: Domain>(
        &self,
        d: &D,
        bin: usize,
        vars: BinVars,
        pw: Option<&BinLaw<D::N>>,
        ranks: Option<&[usize]>,
    ) -> Eval<Frame<D::N>> {
        let mut f = Frame::default();
        let exact = d.exact_inputs();
        if vars.has(BinVar::Y) {
            f.set(
                BinVar::Y,
                if exact {
                    d.rational(&self.yq()[bin])?
                } else {
                    d.float(self.y()[bin])?
                },
            );
        }
        if vars.has(BinVar::X) {
            f.set(
                BinVar::X,
                if exact {
                    d.rational(&self.xq()[bin])?
                } else {
                    d.float(self.x[bin])?
                },
            );
        }
        if vars.has(BinVar::P) || vars.has(BinVar::W) {
            let law = pw.ok_or_else(|| EvalError::Unavailable("the step law".into()))?;
            if vars.has(BinVar::P) {
                f.set(BinVar::P, law.p[bin].clone());
            }
            if vars.has(BinVar::W) {
                f.set(BinVar::W, law.w[bin].clone());
            }
        }
        if vars.has(BinVar::Rank) {
            let r = ranks.ok_or_else(|| EvalError::Unavailable("ranks".into()))?[bin];
            f.set(BinVar::Rank, d.float((r + 1) as f64)?);
        }
        if vars.has(BinVar::Index) {
            f.set(BinVar::Index, d.float((bin + 1) as f64)?);
        }
        Ok(f)
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

    /// The law of the state after `steps` steps ([`super::next_state::law`]), merged up to
    /// permutations where what is read allows it ([`super::next_state::may_merge`]); in the float
    /// domains an event is re-decided at a state by the certified domains on request
    /// ([`super::next_state::decide_pair`]).
    fn next_law(&self, d: &D, steps: u32, reads: &Uses, visit: &mut NextVisit<'_, D>) -> Eval<()> {
        let canon = super::next_state::may_merge(self.st, reads);
        for (p, next) in super::next_state::law(d, self.st, steps, canon)? {
            let env = StateEnv::new(&next, d);
            let certified = d.exact_inputs();
            let recheck = |f: &Formula| -> Option<bool> {
                if certified {
                    None
                } else {
                    super::next_state::decide_pair(self.st, &next, f)
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

/// For each level of `lv` (the levels of `x`), the first bin that carries it.
///
/// ```
/// use balloc::claim::state::representatives;
/// use balloc::loads::Loads;
/// let x = [1.0, 3.0, 1.0, -0.0, 3.0, 0.0];
/// let lv = Loads::new(x.to_vec()).unwrap().levels(); // levels 3, 1, 0 (−0 and +0 are one)
/// assert_eq!(representatives(&x, &lv), vec![1, 0, 3]);
/// let y = [0.5, 2.5, 0.5];
/// assert_eq!(representatives(&y, &Loads::new(y.to_vec()).unwrap().levels()), vec![1, 0]);
/// ```
pub fn representatives(x: &[f64], lv: &Levels) -> Vec<usize> {
    let m = lv.values.len();
    let mut first = vec![usize::MAX; m];
    let mut found = 0;
    let (hi, lo) = (lv.values[0], lv.values[m - 1]);
    let dense = lv.values.iter().all(|v| v.fract() == 0.0)
        && Levels::counts_by_value(hi - lo + 1.0, x.len());
    if dense {
        // Integer loads in a short range: the level of a value by a table indexed by value.
        let mut level_of = vec![usize::MAX; (hi - lo) as usize + 1];
        for (g, v) in lv.values.iter().enumerate() {
            level_of[(v - lo) as usize] = g;
        }
        for (i, v) in x.iter().enumerate() {
            let g = level_of[(v - lo) as usize];
            if first[g] == usize::MAX {
                first[g] = i;
                found += 1;
                if found == m {
                    break;
                }
            }
        }
    } else {
        let key = |v: f64| if v == 0.0 { 0u64 } else { v.to_bits() };
        let level_of: std::collections::HashMap<u64, usize> = lv
            .values
            .iter()
            .enumerate()
            .map(|(g, v)| (key(*v), g))
            .collect();
        for (i, v) in x.iter().enumerate() {
            let g = level_of[&key(*v)];
            if first[g] == usize::MAX {
                first[g] = i;
                found += 1;
                if found == m {
                    break;
                }
            }
        }
    }
    first
}

/// `k·v`: the sum of `k` equal terms.
pub fn times<D: Domain>(d: &D, v: &D::N, k: usize) -> Eval<D::N> {
    if k == 1 {
        return Ok(v.clone());
    }
    d.mul(v, &d.float(k as f64)?)
}
