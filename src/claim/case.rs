//! One case of a claim: a number of bins, an allocation (a process, an allocation vector of the
//! C1/C2 quantifier, or none), the values of the constants and the batch size, and the
//! potentials of the claim instantiated with their parameters.

use super::quantity::{ParamSource, PotDef, Quantity};
use super::setup::{CaseValues, Constants};
use crate::error::{Error, Result};
use crate::exact::Q;
use crate::lang::{BinVar, Domain, Exact, Expr, Float, Resolved, Scope};
use crate::potential::Potential;
use crate::process::Process;
use crate::setting::ExactSetting;
use crate::setting::Setting;
use crate::weights::WeightLaw;
use std::sync::Arc;

/// Where the allocation vector comes from at one n.
#[derive(Debug, Clone)]
pub enum Alloc {
    /// A registered process; `p`/`exact` are its rank vector when it is rank-based.
    Process {
        /// The process.
        process: Arc<dyn Process>,
        /// The rank vector (rank-based processes).
        p: Option<Vec<f64>>,
        /// The exact rank vector (rank-based processes with rational probabilities).
        exact: Option<Vec<Q>>,
    },
    /// An explicit vector by rank (the C1/C2 quantifier).
    Vector {
        /// Its label in reports.
        label: String,
        /// The vector.
        p: Vec<f64>,
        /// The vector, exactly.
        exact: Vec<Q>,
    },
    /// No allocation (the claim uses no process quantity).
    None,
}

impl Alloc {
    /// The label in reports.
    pub fn label(&self) -> String {
        match self {
            Alloc::Process { process, .. } => process.spec(),
            Alloc::Vector { label, .. } => label.clone(),
            Alloc::None => "-".into(),
        }
    }
    /// The rank vector, when the allocation has one.
    pub fn rank_vector(&self) -> Option<&[f64]> {
        match self {
            Alloc::Process { p: Some(p), .. } => Some(p),
            Alloc::Vector { p, .. } => Some(p),
            _ => None,
        }
    }
    /// The exact rank vector, when the allocation has one.
    pub fn rank_vector_exact(&self) -> Option<&[Q]> {
        match self {
            Alloc::Process { exact: Some(p), .. } => Some(p),
            Alloc::Vector { exact, .. } => Some(exact),
            _ => None,
        }
    }
    /// The process, when there is one.
    pub fn process(&self) -> Option<&dyn Process> {
        match self {
            Alloc::Process { process, .. } => Some(process.as_ref()),
            _ => None,
        }
    }
    /// Whether equal loads always get equal probabilities (so bins may be grouped by load).
    pub fn symmetric(&self, setting: &Setting) -> bool {
        let random = setting.ties == crate::loads::TieRule::Random;
        match self {
            Alloc::Process { process, .. } => random && process.info().monotone,
            Alloc::Vector { .. } => random,
            Alloc::None => true,
        }
    }
}

/// The compiled parts of a claim shared by its cases.
#[derive(Debug, Clone)]
pub struct Tables {
    /// What each slot holds.
    pub slots: Vec<Quantity>,
    /// The potentials used.
    pub pots: Vec<PotDef>,
    /// The constants.
    pub constants: Constants,
}

/// A potential of one case.
pub enum PotInst {
    /// A registered potential, built with the case's parameters; `per_bin` is its term compiled
    /// in the claim language (the certified routes); `exact` whether every parameter was exact.
    Registered {
        /// The potential.
        pot: Box<dyn Potential>,
        /// Its per-bin term over the per-bin names.
        per_bin: Option<Expr>,
        /// Whether the parameters are exact rationals. When they are, `per_bin` holds their
        /// values; otherwise it reads parameter `k` from slot `k`, whose value in each domain is
        /// `params[k]` ([`Case::param_values`]): an irrational parameter is enclosed, not rounded.
        exact: bool,
        /// The parameters as expressions over `n`, `b` and the constants (empty when `exact`).
        params: Vec<Expr>,
    },
    /// A potential defined by an expression (index into [`Tables::pots`]).
    Defined(usize),
}

/// A scope with only the per-bin names and the parameters of a registered potential (parameter
/// `k` in slot `k`), for the per-bin terms of registered potentials.
struct BinsOnly<'a>(&'a [&'a str]);

impl Scope for BinsOnly<'_> {
    fn resolve(&self, name: &str) -> std::result::Result<Option<Resolved>, String> {
        Ok(self.0.iter().position(|p| *p == name).map(Resolved::Slot))
    }
    fn known(&self) -> Vec<(String, Vec<String>)> {
        vec![
            (
                "per-bin names".into(),
                BinVar::ALL.iter().map(|(_, s)| s.to_string()).collect(),
            ),
            (
                "parameters".into(),
                self.0.iter().map(|s| s.to_string()).collect(),
            ),
        ]
    }
    fn has_process(&self) -> bool {
        false
    }
}

/// The per-bin term `text` of a registered potential, compiled.
pub fn compile_per_bin(text: &str) -> Result<Expr> {
    compile_per_bin_with(text, &[])
}

/// The per-bin term `text` of a registered potential, compiled with parameter `params[k]` read
/// from slot `k`.
fn compile_per_bin_with(text: &str, params: &[&str]) -> Result<Expr> {
    let ast = crate::lang::parse(text)
        .map_err(|e| Error::invalid("per-bin term", format!("`{text}`: {}", e.message)))?;
    crate::lang::compile_expr(&ast, &BinsOnly(params), true)
        .map_err(|e| Error::invalid("per-bin term", format!("`{text}`: {}", e.message)))
}

/// One case.
pub struct Case<'a> {
    /// The shared tables.
    pub tables: &'a Tables,
    /// The number of bins.
    pub n: usize,
    /// The allocation.
    pub alloc: &'a Alloc,
    /// The constants and the batch size.
    pub values: CaseValues,
    /// The float setting (batch, weights, ties).
    pub setting: Setting,
    /// The exact setting, when the weight law has rational parameters.
    pub exact_setting: Option<ExactSetting>,
    /// The potentials.
    pub pots: Vec<PotInst>,
    /// The constant `k` of the mean-bias margins, if the file defines it.
    pub k_const: Option<usize>,
    /// The best ε of C1 by δ, when the allocation has a rank vector (then ε does not depend on
    /// the state): (δ, float ε, exact ε once computed).
    pub eps1_cache: std::sync::Mutex<Vec<Eps1>>,
}

/// A cached best ε of C1 at one δ (see [`Case::eps1_cache`]).
#[derive(Debug, Clone)]
pub struct Eps1 {
    /// δ.
    pub delta: Q,
    /// ε*(δ) in floating point, once computed.
    pub float: Option<f64>,
    /// ε*(δ) exactly, once computed.
    pub exact: Option<Q>,
}

impl<'a> Case<'a> {
    /// Builds a case: instantiates the registered potentials with their parameters.
    pub fn new(
        tables: &'a Tables,
        alloc: &'a Alloc,
        values: CaseValues,
        weights: &WeightLaw,
        ties: crate::loads::TieRule,
    ) -> Result<Case<'a>> {
        let setting = Setting::new(values.b, weights.clone(), ties)?;
        let exact_setting = ExactSetting::from_setting(&setting).ok();
        let mut pots = Vec::with_capacity(tables.pots.len());
        for (i, def) in tables.pots.iter().enumerate() {
            pots.push(match def {
                PotDef::Defined { .. } => PotInst::Defined(i),
                PotDef::Registered {
                    symbol,
                    info,
                    params,
                } => {
                    let mut parts = Vec::new();
                    let mut exact = true;
                    let mut param_exprs = Vec::with_capacity(params.len());
                    for (k, src) in params {
                        let v = match src {
                            ParamSource::Literal(s) => {
                                param_exprs.push(crate::lang::compile_value(s, &[]).map_err(
                                    |e| {
                                        Error::invalid(
                                            format!("parameter `{k}` of `{symbol}`"),
                                            e.message,
                                        )
                                    },
                                )?);
                                s.clone()
                            }
                            ParamSource::Expr(e) => {
                                param_exprs.push(e.clone());
                                let env = BuildEnv {
                                    c: &tables.constants,
                                    v: &values,
                                };
                                // A parameter that reads a range constant is never baked into
                                // the per-bin term: each domain reads it (a box, a point).
                                let ranged = tables.constants.range_read_by(e).is_some();
                                match e.eval(&Exact, &env, None).ok().filter(|_| !ranged) {
                                    Some(q) => q.to_string(),
                                    None => {
                                        exact = false;
                                        let f = e.eval(&Float, &env, None).map_err(|err| {
                                            Error::invalid(
                                                format!("parameter `{k}` of `{symbol}`"),
                                                err.to_string(),
                                            )
                                        })?;
                                        format!("{:e}", f.v.to_f64())
                                    }
                                }
                            }
                        };
                        parts.push(format!("{k}={v}"));
                    }
                    let spec = if parts.is_empty() {
                        info.name.to_string()
                    } else {
                        format!("{}({})", info.name, parts.join(","))
                    };
                    let pot = crate::potential::parse(&spec).map_err(|e| {
                        Error::invalid(format!("`{symbol}` at n = {}", values.n), e.to_string())
                    })?;
                    let (per_bin, param_exprs) = if exact {
                        (pot.per_bin(values.n), Vec::new())
                    } else {
                        (pot.per_bin_named(values.n), param_exprs)
                    };
                    let names: Vec<&str> = if exact {
                        Vec::new()
                    } else {
                        params.iter().map(|(k, _)| k.as_str()).collect()
                    };
                    let per_bin = match per_bin {
                        Some(t) => Some(compile_per_bin_with(&t, &names)?),
                        None => None,
                    };
                    PotInst::Registered {
                        pot,
                        per_bin,
                        exact,
                        params: param_exprs,
                    }
                }
            });
        }
        let k_const = tables.constants.index("k");
        Ok(Case {
            tables,
            n: values.n,
            alloc,
            values,
            setting,
            exact_setting,
            pots,
            k_const,
            eps1_cache: Default::default(),
        })
    }

    /// The parameters of registered potential `j` in domain `d`, in the order of its declaration
    /// (the order of its registry entry; empty when they are exact: its per-bin term then holds
    /// their values).
    pub fn param_values<D: Domain>(&self, d: &D, j: usize) -> crate::lang::Eval<Vec<D::N>> {
        self.param_values_with(d, j, &|d: &D, k: usize| self.constant(d, k))
    }

    /// [`Case::param_values`] with constant `k` read from `constant(d, k)` (a range constant
    /// fixed to a box: [`super::state::State::set_range`]).
    pub fn param_values_with<D: Domain>(
        &self,
        d: &D,
        j: usize,
        constant: &dyn Fn(&D, usize) -> crate::lang::Eval<D::N>,
    ) -> crate::lang::Eval<Vec<D::N>> {
        match &self.pots[j] {
            PotInst::Registered { params, .. } => {
                let env = ParamEnv {
                    v: &self.values,
                    constant,
                };
                params.iter().map(|e| e.eval(d, &env, None)).collect()
            }
            PotInst::Defined(_) => Ok(Vec::new()),
        }
    }

    /// The value of constant `j` in domain `d`.
    pub fn constant<D: Domain>(&self, d: &D, j: usize) -> crate::lang::Eval<D::N> {
        self.values.constant(&self.tables.constants, d, j)
    }

    /// The constant `k`, exactly.
    pub fn k(&self) -> Option<Q> {
        self.k_const
            .and_then(|j| self.values.consts[j].exact.clone())
    }

    /// The constants by name (for reports).
    pub fn named_constants(&self) -> std::collections::BTreeMap<String, f64> {
        self.values.named(&self.tables.constants)
    }

    /// The constants as text (`CaseValues::named_text`).
    pub fn named_constants_text(&self) -> std::collections::BTreeMap<String, String> {
        self.values.named_text(&self.tables.constants)
    }
}

struct ParamEnv<'a, D: Domain> {
    v: &'a CaseValues,
    constant: &'a dyn Fn(&D, usize) -> crate::lang::Eval<D::N>,
}

impl<D: Domain> crate::lang::Env<D> for ParamEnv<'_, D> {
    fn slot(&self, d: &D, slot: usize) -> crate::lang::Eval<D::N> {
        match slot {
            0 => d.float(self.v.n as f64),
            1 => d.float(self.v.b as f64),
            j => (self.constant)(d, j - 2),
        }
    }
}

/// The constants while a case is built (before its potentials exist).
struct BuildEnv<'a> {
    c: &'a Constants,
    v: &'a CaseValues,
}

impl<D: Domain> crate::lang::Env<D> for BuildEnv<'_> {
    fn slot(&self, d: &D, slot: usize) -> crate::lang::Eval<D::N> {
        match slot {
            0 => d.float(self.v.n as f64),
            1 => d.float(self.v.b as f64),
            j => self.v.constant(self.c, d, j - 2),
        }
    }
}
