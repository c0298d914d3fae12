//! A load vector of a case and the evaluation of the claim's quantities there, in any number
//! domain. Everything a quantity needs (normalised loads, the ranking, the step law in floats or
//! rationals, the grouped law, the mean-bias sides) is built on first use and kept.

use super::case::{Alloc, Case};
use super::mean_bias::BiasState;
use crate::error::{Error, Result};
use crate::exact::{Q, int};
use crate::lang::{BinVar, BinVars, Domain, Eval, EvalError, Frame};
use crate::loads::{Levels, Loads, Ranking};
use crate::process::ExactStepLaw;
use crate::process::{LevelLaw, StepLaw};
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
    /// Range constants fixed to a box or a point while a claim is decided over its ranges
    /// ([`crate::claim::range`]): `(constant, lo, hi)`, a point when `lo == hi`.
    range: RefCell<Vec<(usize, Q, Q)>>,
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
            range: RefCell::new(Vec::new()),
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
    pub(super) fn per_bin_law<D: Domain>(&self, d: &D) -> Eval<BinLaw<D::N>> {
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
    pub(super) fn eps1<D: Domain>(&self, d: &D, delta: &Q) -> Eval<D::N> {
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

    /// Fixes range constants to a box (`lo < hi`: variable `i` of the box for the `i`-th entry,
    /// [`Domain::range_var`]: an enclosure in the domains that have one, unavailable in the
    /// others) or a point (`lo == hi`) for the evaluations that follow; an empty list restores
    /// the case's values.
    pub fn set_range(&self, b: &[(usize, Q, Q)]) {
        *self.range.borrow_mut() = b.to_vec();
    }

    /// The value of constant `j` in domain `d`: the case's, unless [`State::set_range`] fixed
    /// it to a box or a point.
    pub fn constant<D: Domain>(&self, d: &D, j: usize) -> Eval<D::N> {
        if let Some((i, (_, lo, hi))) = self.range.borrow().iter().enumerate().find(|r| r.1.0 == j)
        {
            return if lo == hi {
                d.rational(lo)
            } else {
                d.range_var(lo, hi, i)
            };
        }
        self.case.constant(d, j)
    }

    /// The parameters of registered potential `j` in domain `d` ([`Case::param_values`]), with
    /// the range constants as [`State::set_range`] fixed them.
    pub fn param_values<D: Domain>(&self, d: &D, j: usize) -> Eval<Vec<D::N>> {
        self.case
            .param_values_with(d, j, &|d: &D, k: usize| self.constant(d, k))
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
