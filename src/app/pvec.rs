//! `balloc pvec` and the Python `pvec`, `c1`, `c2`: the allocation vector of a process by rank
//! (heaviest first), exact where the process has an exact one, and the constants of conditions
//! C1(δ, ε) and C2(C) of Los–Sauerwald (SPAA 2022, §2.2) on it.

use crate::condition::{BestC, BestEps, best_c, best_eps, delta_n};
use crate::exact::Q;
use crate::limits;
use crate::loads::{Loads, Ranking, TieRule};
use crate::process::Process;
use crate::spec::{parse_f64, parse_ratio};
use anyhow::{Context, Result, bail};
use num_traits::ToPrimitive;
use serde_json::{Map, Value, json};

fn to_f(q: &Q) -> f64 {
    q.to_f64().unwrap_or(f64::NAN)
}

/// An allocation vector by rank: exact rationals or floats.
#[derive(Debug, Clone, PartialEq)]
pub enum Vector {
    /// Exact.
    Exact(Vec<Q>),
    /// In floats.
    Float(Vec<f64>),
}

impl Vector {
    /// The number of bins.
    pub fn len(&self) -> usize {
        match self {
            Vector::Exact(q) => q.len(),
            Vector::Float(f) => f.len(),
        }
    }

    /// Whether the vector has no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Condition C1(δ, ε) on a vector: the best ε,
/// `ε*(δ) = min( min_{k≤δn} (1 − n·P_k/k), min_{k>δn} (n·S_k/(n−k+1) − 1)·(1 − δ)/δ )`, and the
/// index k attaining it (Los–Sauerwald, SPAA 2022, §2.2).
#[derive(Debug, Clone, PartialEq)]
pub struct C1Report {
    /// δ in floats (NaN when the text is no float).
    pub delta: f64,
    /// δ exactly.
    pub delta_exact: Q,
    /// The best ε in floats.
    pub eps: f64,
    /// The best ε exactly, when the vector is exact.
    pub eps_exact: Option<Q>,
    /// The index k attaining it.
    pub witness_k: usize,
}

impl C1Report {
    /// C1 on `p` at δ given as text (`"1/2"`, `"0.25"`); δn must be an integer in 1..n.
    ///
    /// ```
    /// use balloc::app::pvec::{C1Report, Vector};
    /// use balloc::exact::Q;
    /// // Two-Choice at n = 4, p = (1, 3, 5, 7)/16, δ = 1/2: the prefix terms 1 − 4·(1/16) = 3/4
    /// // and 1 − 4·(4/16)/2 = 1/2, the suffix terms 4·(12/16)/2 − 1 = 1/2 and 4·(7/16) − 1 =
    /// // 3/4: ε* = 1/2, first attained at k = 2.
    /// let p: Vec<Q> = [1, 3, 5, 7].iter().map(|&a| Q::new(a.into(), 16.into())).collect();
    /// let c1 = C1Report::of(&Vector::Exact(p), "1/2").unwrap();
    /// assert_eq!(c1.eps_exact, Some(Q::new(1.into(), 2.into())));
    /// assert_eq!(c1.witness_k, 2);
    /// ```
    pub fn of(p: &Vector, delta_text: &str) -> Result<C1Report> {
        let dr = parse_ratio(delta_text).map_err(|e| anyhow::anyhow!("invalid --delta: {e}"))?;
        let k = delta_n(p.len(), &dr).context("--delta")?;
        let delta = parse_f64(delta_text).unwrap_or(f64::NAN);
        Ok(match p {
            Vector::Exact(pe) => {
                let BestEps { eps, witness_k, .. } = best_eps(pe, k)?;
                C1Report {
                    delta,
                    delta_exact: dr,
                    eps: to_f(&eps),
                    eps_exact: Some(eps),
                    witness_k,
                }
            }
            Vector::Float(pf) => {
                let BestEps { eps, witness_k, .. } = best_eps(pf, k)?;
                C1Report {
                    delta,
                    delta_exact: dr,
                    eps,
                    eps_exact: None,
                    witness_k,
                }
            }
        })
    }

    /// The `c1` object of `balloc pvec --format json`.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("delta".into(), json!(self.delta));
        m.insert("eps".into(), json!(self.eps));
        if let Some(x) = &self.eps_exact {
            m.insert("eps_exact".into(), json!(x.to_string()));
        }
        m.insert("witness_k".into(), json!(self.witness_k));
        Value::Object(m)
    }
}

/// Condition C2(C) `max pᵢ ≤ C/n` on a vector: the smallest C, `C* = n·max pᵢ`, and the rank
/// attaining it (the first if several).
#[derive(Debug, Clone, PartialEq)]
pub struct C2Report {
    /// C* in floats.
    pub c: f64,
    /// C* exactly, when the vector is exact.
    pub c_exact: Option<Q>,
    /// The 1-based rank of the largest entry.
    pub witness_i: usize,
}

impl C2Report {
    /// C2 on `p`.
    ///
    /// ```
    /// use balloc::app::pvec::{C2Report, Vector};
    /// // p = (1/4, 3/4): C* = 2·3/4 = 3/2 at rank 2.
    /// let c2 = C2Report::of(&Vector::Float(vec![0.25, 0.75]));
    /// assert_eq!((c2.c, c2.witness_i), (1.5, 2));
    /// ```
    pub fn of(p: &Vector) -> C2Report {
        match p {
            Vector::Exact(pe) => {
                let BestC { c, witness_i } = best_c(pe);
                C2Report {
                    c: to_f(&c),
                    c_exact: Some(c),
                    witness_i,
                }
            }
            Vector::Float(pf) => {
                let BestC { c, witness_i } = best_c(pf);
                C2Report {
                    c,
                    c_exact: None,
                    witness_i,
                }
            }
        }
    }

    /// The `c2` object of `balloc pvec --format json`.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("c".into(), json!(self.c));
        if let Some(x) = &self.c_exact {
            m.insert("c_exact".into(), json!(x.to_string()));
        }
        m.insert("witness_i".into(), json!(self.witness_i));
        Value::Object(m)
    }
}

/// Where the vector is evaluated.
#[derive(Debug, Clone, Copy)]
pub enum PvecAt<'a> {
    /// At n bins (rank-based processes).
    Bins(usize),
    /// At a load vector (any process): the per-bin probabilities sorted by rank.
    Loads(&'a Loads),
}

/// What `balloc pvec` reports: the vector by rank (exact when known), the expected balls by
/// rank, and the constants of C1 (with δ) and C2.
#[derive(Debug, Clone, PartialEq)]
pub struct PvecReport {
    /// The process's canonical spec.
    pub process: String,
    /// The number of bins.
    pub n: usize,
    /// The vector by rank, in floats.
    pub p: Vec<f64>,
    /// The vector by rank, exactly (up to [`limits::PVEC_EXACT_N`] bins, when known).
    pub p_exact: Option<Vec<Q>>,
    /// The expected balls by rank, for processes that place several balls in a step.
    pub expected_balls: Option<Vec<f64>>,
    /// C1 at the δ given.
    pub c1: Option<C1Report>,
    /// C2.
    pub c2: C2Report,
}

impl PvecReport {
    /// The vector of `process` at `at` with ties `ties`, and C1 at `delta` when given.
    ///
    /// ```
    /// use balloc::app::pvec::{PvecAt, PvecReport};
    /// use balloc::loads::TieRule;
    /// // Two-Choice at n = 4: pᵢ = (2i − 1)/16, C* = 4·7/16 = 7/4.
    /// let p = balloc::process::parse("two-choice").unwrap();
    /// let r = PvecReport::new(p.as_ref(), PvecAt::Bins(4), TieRule::Random, None).unwrap();
    /// assert_eq!(r.p, vec![1.0 / 16.0, 3.0 / 16.0, 5.0 / 16.0, 7.0 / 16.0]);
    /// assert_eq!((r.c2.c, r.trust()), (1.75, "exact"));
    /// ```
    pub fn new(
        process: &dyn Process,
        at: PvecAt<'_>,
        ties: TieRule,
        delta: Option<&str>,
    ) -> Result<PvecReport> {
        let (n, p, p_exact, expected_balls) = match at {
            PvecAt::Bins(n) => at_n(process, n)?,
            PvecAt::Loads(l) => at_loads(process, l, ties)?,
        };
        let v = match &p_exact {
            Some(pe) => Vector::Exact(pe.clone()),
            None => Vector::Float(p.clone()),
        };
        let c1 = delta.map(|d| C1Report::of(&v, d)).transpose()?;
        Ok(PvecReport {
            process: process.spec(),
            n,
            p,
            p_exact,
            expected_balls,
            c1,
            c2: C2Report::of(&v),
        })
    }

    /// `exact` when the vector is exact, else `float`.
    pub fn trust(&self) -> &'static str {
        if self.p_exact.is_some() {
            "exact"
        } else {
            "float"
        }
    }

    /// The JSON document of `balloc pvec --format json`.
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("n".into(), json!(self.n));
        o.insert("process".into(), json!(self.process));
        o.insert("p".into(), json!(self.p));
        if let Some(pe) = &self.p_exact {
            let s: Vec<String> = pe.iter().map(|r| r.to_string()).collect();
            o.insert("p_exact".into(), json!(s));
        }
        if let Some(b) = &self.expected_balls {
            o.insert("expected_balls".into(), json!(b));
        }
        if let Some(c1) = &self.c1 {
            o.insert("c1".into(), c1.to_json());
        }
        o.insert("c2".into(), self.c2.to_json());
        o.insert("trust".into(), json!(self.trust()));
        Value::Object(o)
    }
}

/// n, the vector by rank, its exact form, the expected balls by rank.
type Evaluated = (usize, Vec<f64>, Option<Vec<Q>>, Option<Vec<f64>>);

/// The vector of a rank-based process on `n` bins (exact up to [`limits::PVEC_EXACT_N`] bins
/// when the process has an exact one).
fn at_n(proc_: &dyn Process, n: usize) -> Result<Evaluated> {
    if n == 0 {
        bail!("invalid --n: must be at least 1");
    }
    limits::BINS.check_usize("--n", n)?;
    let Some(p) = proc_.rank_probabilities(n)? else {
        bail!(
            "invalid --n: {} is not rank-based; give --loads to evaluate it at a load vector",
            proc_.spec()
        );
    };
    let exact = if n <= limits::PVEC_EXACT_N {
        proc_.rank_probabilities_exact(n)?
    } else {
        None
    };
    Ok((n, p, exact, None))
}

/// The per-bin probabilities at the loads by rank, with the expected balls per bin when a step
/// allocates more than one ball.
fn at_loads(proc_: &dyn Process, loads: &Loads, ties: TieRule) -> Result<Evaluated> {
    let law = proc_.step_law(loads, ties)?;
    let r = loads.ranking();
    let mut p = r.by_rank(&law.per_bin_probability());
    let balls = (!law.is_unit()).then(|| r.by_rank(&law.per_bin_expected_balls()));
    let exact = if loads.n() > limits::PVEC_EXACT_N {
        None
    } else if let Some(pe) = proc_.rank_probabilities_exact(loads.n())? {
        Some(r.by_rank(&r.per_bin(&pe, ties)))
    } else {
        // Load-dependent processes with an exact one-ball law (greedy graphical, ...): the
        // per-bin probabilities by rank; under random tie-breaking a tied group's ranks are
        // assigned uniformly, so each rank of the group gets its average.
        match proc_.step_law_exact(loads, ties)? {
            Some(ex) if ex.is_unit() => {
                let pe = by_rank_with_ties(&r, &ex.per_bin_probability(), ties);
                p = pe.iter().map(to_f).collect();
                Some(pe)
            }
            _ => None,
        }
    };
    Ok((loads.n(), p, exact, balls))
}

/// Per-bin values in rank order; under random tie-breaking every tied group's entries are
/// replaced by their average (ranks inside a tied group are uniform).
fn by_rank_with_ties(r: &Ranking, per_bin: &[Q], ties: TieRule) -> Vec<Q> {
    let mut p = r.by_rank(per_bin);
    if ties == TieRule::Random {
        for grp in &r.groups {
            let s: Q = p[grp.clone()].iter().sum();
            let avg = s / Q::from_integer(grp.len().into());
            p[grp.clone()].iter_mut().for_each(|v| *v = avg.clone());
        }
    }
    p
}
