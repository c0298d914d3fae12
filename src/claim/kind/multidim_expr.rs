//! Claims about multidimensional allocation written in the claim language: the kind `multidim`
//! with an `expr` in its `[claim]` table. The expression is a formula over md states (D-dimensional
//! bin loads `l(a, b)`, Narang–Dutta–Bhattacherjee, arXiv:1111.0762), for every ball law, every md
//! rule and every combination of the constants.
//!
//! Names: `n`, `D`, `f` (the number of ones of a ball with fixed `f`), `fbar` (`E|S|`), `f2bar`
//! (`E|S|²`), the
//! constants, `units` (`Σ_a Σ_b l(a, b)`), `gap_max` (`max_a gap(a)`, `gap(a) = max_b l(a, b) −
//! avg(a)`), `gap_sum` (`Σ_a gap(a)`), the file's `[potentials]` (expressions over the bins) with the
//! prefixes `E_`, `dE_`, `R_` (the exact one-step expectation, its change, its ratio), and the binders
//! over the bins (`sum`, `max_bins`, `min_bins`, `count`) with per-bin `y` = the sum load
//! `s_b = Σ_a (l(a, b) − avg(a))`, `x` = `Σ_a l(a, b)`, `rank` = the position of `b` when the sum loads
//! are sorted heaviest first (ties by bin index), `i` = `b` (1-based). A group potential with any
//! rank weights is one line: D's `Φ = Σ_i e^{α s_(i)}/i` is `sum(exp(alpha*y)/rank)` (inside an
//! equi-load group every position carries the same `e^{α s}`, so the order of ties does not matter).
//!
//! With `forall_bins = "F"` instead of `expr` the claim is `F` at every bin of every state, its
//! per-bin names the bin's own ([`crate::claim::engine::every_bin`]: worst bin in floats, bin by
//! bin in the certified domains; `given ⇒ F` is decided at each bin, which is `given ⇒ ∀ b: F(b)`
//! as the hypotheses read no bin of their own).
//!
//! Per-dimension quantities ([`FUNCTIONS`], dimensions `a` and bins `b` 1-based, exact integer
//! arguments, an argument out of range is an error naming it): `l(a, b)`, `avg(a)`, `gap(a)`,
//! `lmax(a)`, `lmin(a)`, `s(b)`; and the binders over the dimensions `sum_dims(f[, pred])`,
//! `max_dims`, `min_dims`, `count_dims(pred)` with the per-dimension name `a`, alone or nested in
//! the binders over the bins either way round. The per-dimension exponential potential
//! `Σ_b Σ_a e^{α(l(a, b) − avg(a))}` is `sum(sum_dims(exp(alpha*(l(a, i) - avg(a)))))`.
//!
//! `E_X` sums `P(S)·q_j(S)·X(x + S at bin j)` over every (support, bin) outcome of one step
//! ([`crate::multidim::expectation::outcomes`], exact rationals): the sum-load rule and the
//! max-over-populated-dimensions rule, d-choice and (1+β), with random ties. Bins of tied sum
//! loads are separate outcomes (each next state is a whole md state), so potentials that read
//! per-dimension loads get their exact expectation.
//!
//! ```toml
//! kind = "multidim"
//! [potentials]
//! Phi = "sum(exp(alpha*y)/rank)"
//! [constants]
//! alpha = "1/8"
//! c = [1, 2]
//! [claim]
//! expr = "E_Phi <= (1 - alpha/(c*n))*Phi + 1"
//! ball = "uniform(dims=4,f=2)"
//! rules = ["sum two-choice", "max two-choice"]
//! [domain]
//! n = [2]
//! states = [[[1, 0, 0, 0], [0, 0, 0, 0]]]   # explicit md states (rows are bins), checked first
//! max_load = 1                             # every state with loads 0..=max_load
//! random = 20                              # states reached by the rule from zero (seeded)
//! seed = 1
//! ```
//!
//! `states`, `max_load` and `random` may also be given in `[claim]` (the format before `[domain]`
//! held them), not in both. Sizes: `n·D ≤` [`limits::MD_CLAIM_CELLS`] for every n and every
//! explicit state, at most [`limits::MD_CLAIM_EXHAUSTIVE`] states per n for `max_load`.
//!
//! Every state is decided exactly where every value is rational, otherwise by enclosures (64…4096
//! bits); a state no enclosure decides makes the verdict `inconclusive`.
//!
//! ```
//! // l, avg and gap at the md state with bins (2, 0) and (0, 1): avg = (1, 1/2),
//! // gap(1) = 2 − 1 = 1, gap(2) = 1 − 1/2 = 1/2, so Σ_a gap(a) = 3/2 (exactly).
//! let v = balloc::check_str(
//!     "title = \"t\"\nkind = \"multidim\"\nexpected = \"holds\"\nstatement = \"s\"\n\
//!      [source]\nlocator = \"x\"\nprovenance = \"derived\"\n[claim]\n\
//!      expr = \"sum_dims(gap(a)) == 3/2 && l(1, 1) - avg(1) == 1\"\n\
//!      ball = \"uniform(dims=2,f=1)\"\nrules = [\"sum one-choice\"]\n\
//!      [domain]\nstates = [[[2, 0], [0, 1]]]\n",
//! )
//! .unwrap();
//! assert_eq!(v.verdict, balloc::claim::Status::Holds);
//! assert_eq!(v.searched.total, 1);
//! ```

use super::{Check, ConstantReport, RunContext};
use crate::claim::chain::{Link, LinkPart};
use crate::claim::engine::every_bin;
use crate::claim::engine::float::{Atom, float_atom, float_available};
use crate::claim::engine::ladder;
use crate::claim::engine::sweep::{Seen, Setting, Spot as SweepSpot, Sweep};
use crate::claim::quantity::{Stat, split_prefix};
use crate::claim::routes::Routes;
use crate::claim::schema::{FileError, Theorem};
use crate::claim::setup::{CaseValues, Constants};
use crate::claim::tighten::{Finder, Trial};
use crate::claim::trust::Certification;
use crate::claim::verdict::{LinkVerdict, Searched, Status, Trust, Verdict, Witness};
use crate::error::{Error, Result};
use crate::exact::Q;
use crate::lang::{
    BinVar, BinVars, Domain, Env, EnvFunc, Eval, EvalError, Exact, Expr, Formula, Frame, ProcFunc,
    Resolved, Scope, eval_float,
};
use crate::limits;
use crate::multidim::expectation::{landings, outcomes};
use crate::multidim::potential::group_start;
use crate::multidim::search::{families, integer_exhaustive, random_states, reachable_exhaustive};
use crate::multidim::{BallLaw, MdLoads, MdRule};
use crate::search::shrink::{SHRINK_BUDGET, shrink};
use crate::search::{Eval as SearchEval, Found, Objective};
use crate::xfloat::XFloat;
use num_traits::ToPrimitive;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cell::RefCell;
use toml::Spanned;

/// The most states of the exhaustive enumeration per n ([`limits::MD_CLAIM_EXHAUSTIVE`]).
pub const MAX_EXHAUSTIVE: u64 = limits::MD_CLAIM_EXHAUSTIVE.max;

/// The largest load of an explicit md state (so that sums of loads and the next states stay far
/// from the range of `i64`).
const MAX_LOAD_VALUE: i64 = 1_000_000_000_000_000;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Section {
    #[serde(default)]
    expr: Option<Spanned<String>>,
    /// A chain of inequalities `[e0, "op1 e1", …]` (instead of `expr`).
    #[serde(default)]
    chain: Option<Vec<Spanned<String>>>,
    /// A formula at every bin (instead of `expr`): its per-bin names are the bin's own.
    #[serde(default)]
    forall_bins: Option<Spanned<String>>,
    /// Hypotheses: the claim is about the states where every one holds.
    #[serde(default)]
    given: Vec<Spanned<String>>,
    ball: Spanned<Balls>,
    rules: Vec<Spanned<String>>,
    #[serde(default)]
    sum_chain: Option<Spanned<String>>,
    #[serde(default)]
    states: Option<Vec<Vec<Vec<i64>>>>,
    #[serde(default)]
    max_load: Option<u32>,
    #[serde(default)]
    random: Option<u32>,
}

/// One ball law or a list of them.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Balls {
    One(String),
    Many(Vec<String>),
}

/// The states of the sum-load chain searched instead of (or besides) md grids (`sum_chain` in
/// `[claim]`), as md states: the sum loads `s` of the chain embedded as integer loads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Chain {
    /// `sum_chain = "fixed-f"`: `s = f(b − mean b)` for ball counts `b`; bin `i` holds `b_i` balls
    /// of the support `{1, …, f}` (`l(a, i) = b_i` for `a ≤ f`), a state the md process reaches.
    FixedF,
    /// `sum_chain = "integer"`: every integer sum-load vector `s = L − mean L` (the sum chain of
    /// balls of random `f`); bin `i` holds `L_i` units in dimension 1.
    Integer,
}

/// The fields of `[domain]` a multidimensional claim reads; the others are errors.
const DOMAIN_FIELDS: &[&str] = &["n", "states", "max_load", "random", "seed", "exhaustive"];

/// The keys written in the file's `[domain]` table.
fn domain_keys(t: &Theorem) -> Vec<String> {
    toml::from_str::<toml::Table>(&t.text)
        .ok()
        .and_then(|doc| {
            doc.get("domain")
                .and_then(|d| d.as_table())
                .map(|d| d.keys().cloned().collect())
        })
        .unwrap_or_default()
}

/// The states to search, from `[domain]` (or, as written before `[domain]` held them,
/// `[claim]`): explicit md states with the field they came from, `max_load`, `random`.
struct StateFields {
    explicit: Vec<Vec<Vec<i64>>>,
    explicit_field: &'static str,
    max_load: Option<u32>,
    random: u32,
}

/// Merges the state fields of `[claim]` and `[domain]`; a field given in both is an error.
fn state_fields(
    t: &Theorem,
    cs: &Section,
    c_at: usize,
) -> std::result::Result<StateFields, FileError> {
    let keys = domain_keys(t);
    let d = t.file.domain.get_ref();
    let dat = Some(t.file.domain.span().start);
    if let Some(k) = keys.iter().find(|k| !DOMAIN_FIELDS.contains(&k.as_str())) {
        return Err(t.error_at(
            dat,
            format!(
                "[domain] {k}: not read by multidimensional claims with `expr` (they read {})",
                DOMAIN_FIELDS.join(", ")
            ),
        ));
    }
    let in_domain = |f: &str| keys.iter().any(|k| k == f);
    for (field, in_claim) in [
        ("states", cs.states.is_some()),
        ("max_load", cs.max_load.is_some()),
        ("random", cs.random.is_some()),
    ] {
        if in_claim && in_domain(field) {
            return Err(t.error_at(
                Some(c_at),
                format!(
                    "`{field}` is given in both [claim] and [domain]; give it once (in [domain])"
                ),
            ));
        }
    }
    if !d.states.is_empty() {
        return Err(t.error_at(
            dat,
            "[domain] states: a multidimensional state is a list of rows, one list of integer loads per bin (rows are bins), e.g. states = [[[1, 0], [0, 2]]]",
        ));
    }
    let (explicit, explicit_field) = match &cs.states {
        Some(s) => (s.clone(), "[claim] states"),
        None => (d.md_states.clone(), "[domain] states"),
    };
    Ok(StateFields {
        explicit,
        explicit_field,
        max_load: cs.max_load.or(d.max_load),
        random: cs.random.unwrap_or(d.random),
    })
}

/// What a slot holds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Slot {
    N,
    D,
    F,
    FBar,
    F2Bar,
    Units,
    GapMax,
    GapSum,
    Const(usize),
    Pot(usize, Stat),
}

/// The functions of an md state ([`EnvFunc`], by id = position): name, parameters, meaning.
/// Dimensions `a` and bins `b` are 1-based; every value is exact.
///
/// ```
/// use balloc::claim::kind::multidim_expr::FUNCTIONS;
/// let names: Vec<&str> = FUNCTIONS.iter().map(|(n, ..)| *n).collect();
/// assert_eq!(names, ["l", "avg", "gap", "lmax", "lmin", "s", "p0"]);
/// assert_eq!(FUNCTIONS[0].1.len(), 2); // l(a, b)
/// ```
pub const FUNCTIONS: &[(&str, &[&str], &str)] = &[
    ("l", &["a", "b"], "the load of dimension a in bin b"),
    ("avg", &["a"], "avg(a) = Σ_b l(a, b)/n"),
    ("gap", &["a"], "gap(a) = max_b l(a, b) − avg(a)"),
    ("lmax", &["a"], "max_b l(a, b)"),
    ("lmin", &["a"], "min_b l(a, b)"),
    ("s", &["b"], "the sum load s_b = Σ_a (l(a, b) − avg(a))"),
    (
        "p0",
        &["b"],
        "p₀(b) = 1 + #{j : s_j > s_b}, the first position of the equi-load group of bin b",
    ),
];

/// The prefix of the functions `Delta_P(b)` of the file's potentials `P`: the change of `P` when
/// the ball is committed to bin `b`, `Σ_S P(S)·P(x + 𝟙_S e_b) − P(x)`
/// ([`crate::multidim::expectation::landings`]).
pub const DELTA_PREFIX: &str = "Delta_";

const SIMPLE: &[(&str, Slot)] = &[
    ("n", Slot::N),
    ("D", Slot::D),
    ("f", Slot::F),
    ("fbar", Slot::FBar),
    ("f2bar", Slot::F2Bar),
    ("units", Slot::Units),
    ("gap_max", Slot::GapMax),
    ("gap_sum", Slot::GapSum),
];

struct MdScope<'a> {
    t: &'a Theorem,
    constants: &'a Constants,
    slots: RefCell<Vec<Slot>>,
    /// The potentials (name, compiled definition), compiled on first use.
    pots: RefCell<Vec<(String, Option<Expr>)>>,
}

impl MdScope<'_> {
    fn slot(&self, s: Slot) -> usize {
        let mut v = self.slots.borrow_mut();
        match v.iter().position(|x| *x == s) {
            Some(i) => i,
            None => {
                v.push(s);
                v.len() - 1
            }
        }
    }

    fn potential(&self, name: &str) -> std::result::Result<Option<usize>, String> {
        if let Some(i) = self.pots.borrow().iter().position(|(n, _)| n == name) {
            if self.pots.borrow()[i].1.is_none() {
                return Err(format!("potential `{name}` is defined through itself"));
            }
            return Ok(Some(i));
        }
        let Some(def) = self.t.file.potentials.get(name) else {
            return Ok(None);
        };
        let idx = {
            let mut p = self.pots.borrow_mut();
            p.push((name.to_string(), None));
            p.len() - 1
        };
        let ast = crate::lang::parse(def.get_ref())
            .map_err(|e| format!("[potentials] {name}: {}", e.message))?;
        let e = crate::lang::compile_expr(&ast, self, false)
            .map_err(|e| format!("[potentials] {name}: {}", e.message))?;
        if e.uses()
            .slots
            .iter()
            .any(|&s| matches!(self.slots.borrow()[s], Slot::Pot(_, st) if st != Stat::Value))
        {
            return Err(format!(
                "[potentials] {name}: a potential cannot use an expectation (E_, dE_, R_)"
            ));
        }
        self.pots.borrow_mut()[idx].1 = Some(e);
        Ok(Some(idx))
    }
}

impl Scope for MdScope<'_> {
    fn resolve(&self, name: &str) -> std::result::Result<Option<Resolved>, String> {
        if let Some((_, s)) = SIMPLE.iter().find(|(n, _)| *n == name) {
            return Ok(Some(Resolved::Slot(self.slot(*s))));
        }
        if let Some(j) = self.constants.index(name) {
            return Ok(Some(Resolved::Slot(self.slot(Slot::Const(j)))));
        }
        let (stat, base) = split_prefix(name)?;
        if stat.steps() > 1 {
            return Err(format!(
                "`{name}`: multidimensional claims have one-step expectations only (E_, dE_, R_)"
            ));
        }
        match self.potential(base)? {
            Some(i) => Ok(Some(Resolved::Slot(self.slot(Slot::Pot(i, stat))))),
            None => Ok(None),
        }
    }

    fn known(&self) -> Vec<(String, Vec<String>)> {
        vec![
            (
                "state".into(),
                SIMPLE.iter().map(|(n, _)| n.to_string()).collect(),
            ),
            ("constants".into(), self.constants.names.clone()),
            (
                "potentials".into(),
                self.t.file.potentials.keys().cloned().collect(),
            ),
        ]
    }

    /// `p(k)`: the rank vector of the rule's choice.
    fn has_process(&self) -> bool {
        true
    }

    fn functions(&self) -> Vec<EnvFunc> {
        let mut out: Vec<EnvFunc> = FUNCTIONS
            .iter()
            .enumerate()
            .map(|(id, (name, params, _))| EnvFunc::new(id, name, params))
            .collect();
        for (k, name) in self.t.file.potentials.keys().enumerate() {
            out.push(EnvFunc::new(
                FUNCTIONS.len() + k,
                &format!("{DELTA_PREFIX}{name}"),
                &["b"],
            ));
        }
        out
    }

    fn has_dims(&self) -> bool {
        true
    }
}

/// One md state with its sum loads and ranks (exact).
struct MdState {
    x: MdLoads,
    s: Vec<Q>,
    /// `rank[b]`: the 1-based position of bin b, heaviest sum load first, ties by index.
    rank: Vec<usize>,
}

impl MdState {
    fn new(x: MdLoads) -> MdState {
        let s: Vec<Q> = x.sum_loads::<Q>();
        // s_b = (bin b's sum of loads) − W/n: the integer sums give the same order.
        let mut order: Vec<usize> = (0..x.n()).collect();
        order.sort_by(|&a, &b| x.bin_sum(b).cmp(&x.bin_sum(a)).then(a.cmp(&b)));
        let mut rank = vec![0; x.n()];
        for (k, &b) in order.iter().enumerate() {
            rank[b] = k + 1;
        }
        MdState { x, s, rank }
    }
}

/// The evaluation environment at one state.
struct MdEnv<'a> {
    st: &'a MdState,
    c: &'a MdCheckCase<'a>,
    /// Next states with their probabilities (for `E_`), computed once per state.
    next: &'a [(MdState, Q)],
}

/// What every state of one (law, rule, constants) case shares.
struct MdCheckCase<'a> {
    law: &'a BallLaw,
    /// The rank vector of the rule's choice at this n (`p(k)`).
    pvec: &'a [Q],
    /// For each potential of the file (in name order), its index in `pots` (`Delta_P(b)`).
    delta_pots: &'a [usize],
    slots: &'a [Slot],
    pots: &'a [Expr],
    constants: &'a Constants,
    case: &'a CaseValues,
}

fn qi(v: i64) -> Q {
    Q::from_integer(v.into())
}

impl MdEnv<'_> {
    /// The value of potential `i` at state `st` in domain `d`.
    fn potential_at<D: Domain>(&self, d: &D, i: usize, st: &MdState) -> Eval<D::N> {
        let env = MdEnv {
            st,
            c: self.c,
            next: &[],
        };
        self.c.pots[i].eval(d, &env, None)
    }

    /// `Δ_b P = Σ_S P(S)·P(x + 𝟙_S e_b) − P(x)` for potential `i`.
    fn delta<D: Domain>(&self, d: &D, i: usize, b: usize) -> Eval<D::N> {
        let next =
            landings(&self.st.x, self.c.law, b).map_err(|e| EvalError::Undefined(e.to_string()))?;
        let mut acc = d.zero();
        for (y, p) in next {
            let v = self.potential_at(d, i, &MdState::new(y))?;
            acc = d.add(&acc, &d.mul(&d.rational(&p)?, &v)?)?;
        }
        d.sub(&acc, &self.potential_at(d, i, self.st)?)
    }
}

impl<D: Domain> Env<D> for MdEnv<'_> {
    fn slot(&self, d: &D, slot: usize) -> Eval<D::N> {
        let x = &self.st.x;
        match self.c.slots[slot] {
            Slot::N => d.rational(&qi(x.n() as i64)),
            Slot::D => d.rational(&qi(x.dims() as i64)),
            Slot::F => match self.c.law.fixed_f() {
                Some(f) => d.rational(&qi(f as i64)),
                None => Err(EvalError::Undefined(format!(
                    "`f`: the ball law {} has no fixed f (use `fbar`)",
                    self.c.law.spec()
                ))),
            },
            Slot::FBar => {
                let m: Q = self
                    .c
                    .law
                    .f_law()
                    .into_iter()
                    .map(|(f, p)| qi(f as i64) * p)
                    .sum();
                d.rational(&m)
            }
            Slot::F2Bar => {
                let m: Q = self
                    .c
                    .law
                    .f_law()
                    .into_iter()
                    .map(|(f, p)| qi(f as i64 * f as i64) * p)
                    .sum();
                d.rational(&m)
            }
            Slot::Units => d.rational(&qi((0..x.dims()).map(|a| x.total(a)).sum())),
            Slot::GapMax => d.rational(&x.max_gap::<Q>()),
            Slot::GapSum => {
                let g: Q = (0..x.dims()).map(|a| x.gap::<Q>(a)).sum();
                d.rational(&g)
            }
            Slot::Const(j) => self.c.case.constant(self.c.constants, d, j),
            Slot::Pot(i, stat) => {
                let value = |st: &MdState| -> Eval<D::N> {
                    let env = MdEnv {
                        st,
                        c: self.c,
                        next: &[],
                    };
                    self.c.pots[i].eval(d, &env, None)
                };
                match stat {
                    Stat::Value => value(self.st),
                    _ => {
                        let mut acc = d.zero();
                        for (nx, p) in self.next {
                            acc = d.add(&acc, &d.mul(&d.rational(p)?, &value(nx)?)?)?;
                        }
                        match stat {
                            Stat::Expected(_) => Ok(acc),
                            Stat::Change(_) => d.sub(&acc, &value(self.st)?),
                            _ => d.div(&acc, &value(self.st)?),
                        }
                    }
                }
            }
        }
    }

    fn bins(&self) -> usize {
        self.st.x.n()
    }

    fn dims(&self) -> Eval<usize> {
        Ok(self.st.x.dims())
    }

    /// The functions of [`FUNCTIONS`] at 1-based dimensions and bins (Narang–Dutta–Bhattacherjee,
    /// arXiv:1111.0762, §1: `l(a, b)`, `avg(a)`, `gap(a) = max_b l(a, b) − avg(a)`; §3:
    /// `s_i = Σ_d x_i^d`).
    fn call(&self, d: &D, f: &EnvFunc, args: &[i64]) -> Eval<D::N> {
        let x = &self.st.x;
        let dim = |k: usize| f.index(k, args[k], x.dims(), "D");
        let bin = |k: usize| f.index(k, args[k], x.n(), "n");
        let avg = |a: usize| Q::new(x.total(a).into(), (x.n() as i64).into());
        let q = match FUNCTIONS.get(f.id).map(|(name, ..)| *name) {
            Some("l") => {
                let a = dim(0)?;
                qi(x.load(a, bin(1)?))
            }
            Some("avg") => avg(dim(0)?),
            Some("gap") => x.gap::<Q>(dim(0)?),
            Some("lmax") => qi(x.max_load(dim(0)?)),
            Some("lmin") => qi(x.min_load(dim(0)?)),
            Some("s") => self.st.s[bin(0)?].clone(),
            Some("p0") => qi(group_start(&self.st.s, bin(0)?) as i64),
            None if f.id >= FUNCTIONS.len() => {
                let pot = self
                    .c
                    .delta_pots
                    .get(f.id - FUNCTIONS.len())
                    .copied()
                    .ok_or_else(|| {
                        EvalError::Unavailable(format!("{} is not a function", f.signature()))
                    })?;
                return self.delta(d, pot, bin(0)?);
            }
            _ => {
                return Err(EvalError::Unavailable(format!(
                    "{} is not a function of md states",
                    f.signature()
                )));
            }
        };
        d.rational(&q)
    }

    /// `p(k)`: `p_k` of the rule's choice at n bins (rank 1 the heaviest).
    fn proc(&self, d: &D, f: ProcFunc, arg: &Q) -> Eval<D::N> {
        let p = self.c.pvec;
        match f {
            ProcFunc::P => {
                let k = arg
                    .to_integer()
                    .to_usize()
                    .filter(|k| arg.is_integer() && *k >= 1 && *k <= p.len())
                    .ok_or_else(|| {
                        EvalError::Undefined(format!(
                            "p({arg}): the rank must be in 1..={}",
                            p.len()
                        ))
                    })?;
                d.rational(&p[k - 1])
            }
            ProcFunc::Eps1 => Err(EvalError::Unavailable(
                "eps1(δ) is not defined for multidimensional claims".into(),
            )),
        }
    }

    fn frame(&self, d: &D, bin: usize, vars: BinVars) -> Eval<Frame<D::N>> {
        let mut f = Frame::default();
        for (v, name) in BinVar::ALL {
            if !vars.has(v) {
                continue;
            }
            let val = match v {
                BinVar::Y => d.rational(&self.st.s[bin])?,
                BinVar::X => d.rational(&qi(self.st.x.bin_sum(bin)))?,
                BinVar::Rank => d.rational(&qi(self.st.rank[bin] as i64))?,
                BinVar::Index => d.rational(&qi(bin as i64 + 1))?,
                BinVar::P | BinVar::W => {
                    return Err(EvalError::Unavailable(format!(
                        "per-bin `{name}` in a multidimensional claim (use E_ of a potential)"
                    )));
                }
            };
            f.set(v, val);
        }
        Ok(f)
    }
}

/// A built multidimensional expression claim.
#[derive(Clone)]
pub struct MdExpr {
    t: Theorem,
    /// The claim's links: one for `expr`, one per link of a `chain`; each `given ⇒ link` when
    /// the file has hypotheses.
    links: Vec<Link>,
    /// Whether the claim is a chain (its verdict lists the links').
    is_chain: bool,
    /// Whether the claim is at every bin (`forall_bins`, [`every_bin`]): each link `given ⇒ F`
    /// is then decided at every bin, which is `given ⇒ ∀ b: F(b)` since `given` reads no bin of
    /// its own.
    every_bin: bool,
    /// The hypotheses (`given`), each decided in floats to skip the states outside them.
    given: Vec<Formula>,
    slots: Vec<Slot>,
    pots: Vec<Expr>,
    needs_next: bool,
    /// For each potential of the file (in name order), its index in `pots` (`Delta_P(b)`).
    delta_pots: Vec<usize>,
    constants: Constants,
    laws: Vec<BallLaw>,
    rules: Vec<(String, MdRule)>,
    explicit: Vec<MdLoads>,
    max_load: Option<u32>,
    random: u32,
    /// The states of the sum-load chain (`sum_chain`), with `[domain] exhaustive`.
    chain: Option<Chain>,
    exhaustive: Option<(usize, u32)>,
    /// The numbers of bins (`[domain] n`, or those of the explicit states; with `sum_chain` and
    /// `exhaustive`, also `2..=max_n`).
    ns: Vec<usize>,
}

/// Builds the check (called by the `multidim` kind when the claim has an `expr`).
pub(super) fn build(t: &Theorem) -> std::result::Result<Box<dyn Check>, FileError> {
    MdExpr::build(t).map(|c| Box::new(c) as Box<dyn Check>)
}

/// The links of the claim: `expr` or `forall_bins` as one link, or the links of `chain`
/// (exactly one of them); whether it is a chain, and whether it is at every bin.
fn compile_links(
    t: &Theorem,
    cs: &Section,
    c_at: usize,
    scope: &dyn crate::lang::Scope,
) -> std::result::Result<(Vec<Link>, bool, bool), FileError> {
    if let Some(f) = &cs.forall_bins {
        if cs.expr.is_some() || cs.chain.is_some() {
            return Err(t.error_at(
                Some(c_at),
                "[claim] needs exactly one of `expr` (a formula), `chain` (a chain of inequalities) and `forall_bins` (a formula at every bin)",
            ));
        }
        let link = Link {
            text: f.get_ref().clone(),
            formula: crate::claim::chain::compile_every_bin_in(t, "forall_bins", f, scope)?,
        };
        return Ok((vec![link], false, true));
    }
    let (formula, links) = crate::claim::chain::expr_or_chain(
        t,
        cs.expr.as_ref(),
        cs.chain.as_deref(),
        Some(c_at),
        scope,
    )?;
    Ok(match (links.is_empty(), &cs.expr) {
        (true, Some(e)) => (
            vec![Link {
                text: e.get_ref().clone(),
                formula,
            }],
            false,
            false,
        ),
        _ => (links, true, false),
    })
}

/// Compiles the hypotheses `given = ["<formula>", ...]`; errors name `given[k]`.
fn compile_given(
    t: &Theorem,
    given: &[Spanned<String>],
    scope: &dyn crate::lang::Scope,
) -> std::result::Result<Vec<Formula>, FileError> {
    given
        .iter()
        .enumerate()
        .map(|(k, g)| crate::claim::chain::compile_formula_in(t, &format!("given[{k}]"), g, scope))
        .collect()
}

/// Checks that no constant shadows a quantity or a potential of the file.
fn check_constant_names(t: &Theorem, constants: &Constants) -> std::result::Result<(), FileError> {
    for (j, name) in constants.names.iter().enumerate() {
        if SIMPLE.iter().any(|(n, _)| n == name) || t.file.potentials.contains_key(name) {
            return Err(t.error_at(
                Some(constants.at[j]),
                format!("constant `{name}` shadows a quantity or potential"),
            ));
        }
    }
    Ok(())
}

/// Checks the size of the grid `max_load = k`: `(k + 1)^(n·D)` states at each n at most
/// [`MAX_EXHAUSTIVE`].
fn check_grid(
    t: &Theorem,
    max_load: Option<u32>,
    ns: &[usize],
    dims: usize,
    c_at: usize,
) -> std::result::Result<(), FileError> {
    let Some(k) = max_load else {
        return Ok(());
    };
    for &n in ns {
        let count = (k as u64 + 1).checked_pow((n * dims) as u32);
        if count.is_none_or(|c| c > MAX_EXHAUSTIVE) {
            return Err(t.error_at(
                    Some(c_at),
                    format!(
                        "max_load = {k} at n = {n}, D = {dims}: ({k} + 1)^(n·D) states exceed the limit of {MAX_EXHAUSTIVE} (limits::MD_CLAIM_EXHAUSTIVE)"
                    ),
                ));
        }
    }
    Ok(())
}

/// The ball laws of `ball` (one law or a list, at least one).
fn parse_laws(t: &Theorem, cs: &Section) -> std::result::Result<Vec<BallLaw>, FileError> {
    let ball_at = Some(cs.ball.span().start);
    let ball_texts = match cs.ball.get_ref() {
        Balls::One(b) => vec![b.clone()],
        Balls::Many(v) => v.clone(),
    };
    if ball_texts.is_empty() {
        return Err(t.error_at(
            ball_at,
            "`ball` is an empty list: give a ball law, e.g. \"uniform(dims=4,f=2)\"",
        ));
    }
    let mut laws = Vec::new();
    for b in &ball_texts {
        laws.push(BallLaw::parse(b).map_err(|e| t.error_at(ball_at, format!("ball: {e}")))?);
    }
    Ok(laws)
}

/// The md rules of `rules`, each `<criterion> <choice>` with its text (at least one).
fn parse_rules(
    t: &Theorem,
    cs: &Section,
    c_at: usize,
) -> std::result::Result<Vec<(String, MdRule)>, FileError> {
    if cs.rules.is_empty() {
        return Err(t.error_at(
            Some(c_at),
            "`rules` is empty: list md rules, e.g. \"sum two-choice\"",
        ));
    }
    let mut rules = Vec::new();
    for r in &cs.rules {
        let text = r.get_ref().trim();
        let (crit, choice) = text.split_once(char::is_whitespace).ok_or_else(|| {
            t.error_at(
                Some(r.span().start),
                "write `<criterion> <choice>`, e.g. \"sum two-choice\" or \"max one-plus-beta(beta=1/2)\"",
            )
        })?;
        let rule = MdRule::parse(crit.trim(), choice.trim())
            .map_err(|e| t.error_at(Some(r.span().start), e.to_string()))?;
        rules.push((text.to_string(), rule));
    }
    Ok(rules)
}

/// The sum-load chain of `sum_chain` (`fixed-f` or `integer`), which needs balls of fixed f.
fn parse_chain(
    t: &Theorem,
    cs: &Section,
    laws: &[BallLaw],
) -> std::result::Result<Option<Chain>, FileError> {
    let chain = match cs
        .sum_chain
        .as_ref()
        .map(|c| (c.get_ref().as_str(), c.span().start))
    {
        None => None,
        Some(("fixed-f", _)) => Some(Chain::FixedF),
        Some(("integer", _)) => Some(Chain::Integer),
        Some((o, at)) => {
            return Err(t.error_at(
                Some(at),
                format!("sum_chain: unknown `{o}`; accepted: fixed-f, integer"),
            ));
        }
    };
    if chain.is_some()
        && let Some(l) = laws.iter().find(|l| l.fixed_f().is_none())
    {
        return Err(t.error_at(
            Some(cs.ball.span().start),
            format!(
                "sum_chain: the sum-load chain needs balls of fixed f; {} has a random f",
                l.spec()
            ),
        ));
    }
    Ok(chain)
}

/// The size check of md states with `dims` dimensions: `n·D` cells at most
/// [`limits::MD_CLAIM_CELLS`], errors reported at `at`.
struct Cells<'a> {
    /// The file.
    t: &'a Theorem,
    /// Where errors point (the field of the explicit states).
    at: Option<usize>,
    /// D, the number of dimensions.
    dims: usize,
}

impl Cells<'_> {
    /// The number of cells `n·D` of a state of `n` bins, checked against the limit.
    fn check(&self, n: usize, what: &str) -> std::result::Result<u64, FileError> {
        let dims = self.dims;
        limits::checked_mul(what, n as u64, dims as u64)
            .and_then(|c| limits::MD_CLAIM_CELLS.check(what, c))
            .map_err(|e| {
                self.t
                    .error_at(self.at, format!("{e} (n·D with n = {n}, D = {dims})"))
            })
    }
}

/// The explicit states (rows are bins, one load per dimension), each checked: D loads per row,
/// size, loads at most 10^15, n listed by `[domain] n` when it is given.
fn explicit_states(
    t: &Theorem,
    fields: &StateFields,
    cells: &Cells,
) -> std::result::Result<Vec<MdLoads>, FileError> {
    let (at, dims) = (cells.at, cells.dims);
    let sf = fields.explicit_field;
    let domain = t.file.domain.get_ref();
    let mut explicit = Vec::new();
    for (k, rows) in fields.explicit.iter().enumerate() {
        let field = format!("{sf}[{k}]");
        if let Some((b, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != dims) {
            return Err(t.error_at(
                at,
                format!(
                    "{field} has {} dimensions in row {} but the ball law has D = {dims} (rows are bins, one load per dimension)",
                    r.len(),
                    b + 1
                ),
            ));
        }
        cells.check(rows.len(), &field)?;
        if let Some(v) = rows.iter().flatten().find(|v| **v > MAX_LOAD_VALUE) {
            return Err(t.error_at(at, format!("{field}: the load {v} is above 10^15")));
        }
        let x = MdLoads::from_rows(rows).map_err(|e| t.error_at(at, format!("{field}: {e}")))?;
        if !domain.n.is_empty() && !domain.n.contains(&x.n()) {
            return Err(t.error_at(
                at,
                format!("{field} has n = {}, which [domain] n does not list", x.n()),
            ));
        }
        explicit.push(x);
    }
    Ok(explicit)
}

/// The numbers of bins searched: `[domain] n`, or when it is omitted those of the explicit
/// states; with an exhaustive sum-load chain also `2..=max_n`, each of at most
/// `C(max_load + n − 1, n − 1)` ≤ [`MAX_EXHAUSTIVE`] sorted states. Each n is at least 1 and
/// within the cell limit.
fn numbers_of_bins(
    t: &Theorem,
    explicit: &[MdLoads],
    exhaustive: Option<(usize, u32)>,
    cells: &Cells,
) -> std::result::Result<Vec<usize>, FileError> {
    let domain = t.file.domain.get_ref();
    let mut ns = domain.n.clone();
    if ns.is_empty() {
        for x in explicit {
            if !ns.contains(&x.n()) {
                ns.push(x.n());
            }
        }
    }
    if let Some((max_n, max_load)) = exhaustive {
        limits::MD_CLAIM_CELLS
            .check("[domain] exhaustive max_n", max_n as u64)
            .map_err(|e| t.error_at(Some(t.file.domain.span().start), e.to_string()))?;
        for n in 2..=max_n {
            // C(max_load + n − 1, n − 1) sorted states with the lightest bin at 0.
            let count = (1..n as u128).try_fold(1u128, |c, k| {
                c.checked_mul(max_load as u128 + k).map(|v| v / k)
            });
            if count.is_none_or(|c| c > MAX_EXHAUSTIVE as u128) {
                return Err(t.error_at(
                    Some(t.file.domain.span().start),
                    format!(
                        "exhaustive = {{ max_n = {max_n}, max_load = {max_load} }} at n = {n}: C(max_load + n − 1, n − 1) states exceed the limit of {MAX_EXHAUSTIVE} (limits::MD_CLAIM_EXHAUSTIVE)"
                    ),
                ));
            }
            if !ns.contains(&n) {
                ns.push(n);
            }
        }
        ns.sort_unstable();
    }
    if ns.is_empty() {
        return Err(t.error_at(
            Some(t.file.domain.span().start),
            "empty domain: [domain] n lists no number of bins (and no states are given)",
        ));
    }
    for &n in &ns {
        if n == 0 {
            return Err(t.error_at(
                Some(t.file.domain.span().start),
                "[domain] n must be at least 1",
            ));
        }
        cells.check(n, "[domain] n")?;
    }
    Ok(ns)
}

/// Compiles every potential of the file (a `Delta_P(b)` may name any of them); their indices
/// among the scope's potentials, in name order.
fn compile_potentials(t: &Theorem, scope: &MdScope) -> std::result::Result<Vec<usize>, FileError> {
    let mut delta_pots = Vec::new();
    for (name, def) in &t.file.potentials {
        if def.get_ref().contains(DELTA_PREFIX) {
            return Err(t.error_at(
                Some(def.span().start),
                format!(
                    "[potentials] {name}: a potential cannot call the functions {DELTA_PREFIX}P(b)"
                ),
            ));
        }
        let i = scope
            .potential(name)
            .map_err(|e| t.error_at(Some(def.span().start), e))?
            .expect("a potential of the file");
        delta_pots.push(i);
    }
    Ok(delta_pots)
}

impl MdExpr {
    /// The formula of a claim with one link (every search is of one: a chain's links are
    /// searched as claims of their own).
    fn formula(&self) -> &Formula {
        &self.links[0].formula
    }

    /// Validates the file and compiles the claim: the formula, the ball laws and rules, the
    /// sum-load chain, the explicit states, the numbers of bins and the potentials.
    fn build(t: &Theorem) -> std::result::Result<MdExpr, FileError> {
        let c: Spanned<Section> = t.claim_section()?;
        let c_at = c.span().start;
        let cs = c.into_inner();
        let constants = Constants::parse(t)?;
        check_constant_names(t, &constants)?;
        let scope = MdScope {
            t,
            constants: &constants,
            slots: RefCell::new(Vec::new()),
            pots: RefCell::new(Vec::new()),
        };
        let (links, is_chain, every_bin) = compile_links(t, &cs, c_at, &scope)?;
        let given = compile_given(t, &cs.given, &scope)?;
        // The claim certified at a state: `given ⇒ link`, so a state the floats put inside the
        // hypotheses by mistake is still decided correctly.
        let links = links
            .into_iter()
            .map(|l| Link {
                formula: given.iter().rev().fold(l.formula, |e, g| {
                    Formula::Or(Box::new(Formula::Not(Box::new(g.clone()))), Box::new(e))
                }),
                text: l.text,
            })
            .collect();
        let ball_at = Some(cs.ball.span().start);
        let laws = parse_laws(t, &cs)?;
        let rules = parse_rules(t, &cs, c_at)?;
        let chain = parse_chain(t, &cs, &laws)?;
        let exhaustive = t
            .file
            .domain
            .get_ref()
            .exhaustive
            .as_ref()
            .map(|e| (e.max_n, e.max_load));
        if exhaustive.is_some() && chain.is_none() {
            return Err(t.error_at(
                Some(t.file.domain.span().start),
                "[domain] exhaustive: only with `sum_chain` in [claim] (the sorted states of the sum-load chain); md grids are `max_load`",
            ));
        }
        let dims = laws.iter().map(|l| l.dims() as usize).max().unwrap_or(1);
        let fields = state_fields(t, &cs, c_at)?;
        if !fields.explicit.is_empty()
            && let Some(l) = laws.iter().find(|l| l.dims() as usize != dims)
        {
            return Err(t.error_at(
                ball_at,
                format!(
                    "ball: with explicit states every law needs the same D; {} has D = {}, another D = {dims}",
                    l.spec(),
                    l.dims()
                ),
            ));
        }
        let cells = Cells {
            t,
            at: if fields.explicit_field.starts_with("[domain]") {
                Some(t.file.domain.span().start)
            } else {
                Some(c_at)
            },
            dims,
        };
        let explicit = explicit_states(t, &fields, &cells)?;
        let ns = numbers_of_bins(t, &explicit, exhaustive, &cells)?;
        check_grid(t, fields.max_load, &ns, dims, c_at)?;
        if explicit.is_empty() && fields.max_load.is_none() && fields.random == 0 && chain.is_none()
        {
            return Err(t.error_at(
                Some(c_at),
                "no states: give `states`, `max_load` or `random` (in [domain])",
            ));
        }
        let delta_pots = compile_potentials(t, &scope)?;
        let slots = scope.slots.borrow().clone();
        let pots: Vec<Expr> = scope
            .pots
            .borrow()
            .iter()
            .map(|(_, e)| e.clone().expect("compiled"))
            .collect();
        let needs_next = slots
            .iter()
            .any(|s| matches!(s, Slot::Pot(_, st) if *st != Stat::Value));
        Ok(MdExpr {
            t: t.clone(),
            links,
            is_chain,
            every_bin,
            given,
            slots,
            pots,
            needs_next,
            delta_pots,
            constants,
            laws,
            rules,
            explicit,
            max_load: fields.max_load,
            random: fields.random,
            chain,
            exhaustive,
            ns,
        })
    }

    /// The states of one n for one ball law: explicit first, then the exhaustive grid, the
    /// random states reached by the rule, and with `sum_chain` the states of the sum-load chain
    /// (exhaustive for `n ≤ max_n`, then at the n of `[domain]` the families F1–F7 with level
    /// boundaries at `γ₁ =` the constant `gamma1` (1/4 without one) and the seeded random ones).
    fn states(
        &self,
        n: usize,
        law: &BallLaw,
        rule: &MdRule,
        gamma1: f64,
        effort: u32,
    ) -> Result<Vec<(String, Embedding, Vec<i64>)>> {
        let dims = law.dims() as usize;
        let cells = Embedding::Cells { dims };
        let flat =
            |x: &MdLoads| -> Vec<i64> { (0..x.n()).flat_map(|b| x.row(b).to_vec()).collect() };
        let mut out: Vec<(String, Embedding, Vec<i64>)> = self
            .explicit
            .iter()
            .filter(|x| x.n() == n)
            .map(|x| ("listed".to_string(), cells, flat(x)))
            .collect();
        if let Some(k) = self.max_load {
            let cells_n = n * dims;
            let mut digits = vec![0i64; cells_n];
            loop {
                out.push(("exhaustive".into(), cells, digits.clone()));
                let mut c = 0;
                while c < cells_n && digits[c] == k as i64 {
                    digits[c] = 0;
                    c += 1;
                }
                if c == cells_n {
                    break;
                }
                digits[c] += 1;
            }
        }
        let d = self.t.file.domain.get_ref();
        if let Some(chain) = self.chain {
            let f = law.fixed_f().expect("chain laws have a fixed f");
            let emb = Embedding::Chain { chain, f, dims };
            let ff = if chain == Chain::Integer { 1 } else { f };
            let mut sums: Vec<(&str, Vec<Vec<f64>>)> = Vec::new();
            if let Some((max_n, max_load)) = self.exhaustive
                && n <= max_n
            {
                sums.push((
                    "exhaustive",
                    match chain {
                        Chain::FixedF => reachable_exhaustive(n, max_load, f),
                        Chain::Integer => integer_exhaustive(n, max_load),
                    },
                ));
            }
            if d.n.contains(&n) {
                sums.push(("families", families(n, ff, gamma1)));
                if d.random > 0 {
                    let r = d.random as usize * effort as usize;
                    sums.push(("random", random_states(n, ff, r, 10, d.seed)));
                }
            }
            for (what, list) in sums {
                for s in list {
                    out.push((what.to_string(), emb, emb.coords_of_sums(&s)?));
                }
            }
            return Ok(out);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(d.seed ^ (n as u64).rotate_left(17));
        for _ in 0..self.random {
            let balls = rng.random_range(1..=4 * n);
            let mut x = MdLoads::new(n, dims)?;
            for _ in 0..balls {
                let s = law.sample(&mut rng);
                let j = rule.choose(&x, s, &mut rng);
                x.add(j, s);
            }
            out.push(("random".into(), cells, flat(&x)));
        }
        Ok(out)
    }

    /// The constants of one pick at n bins.
    fn case_values(
        &self,
        n: usize,
        pick: &[usize],
        overrides: &[(usize, Q)],
    ) -> Result<CaseValues> {
        let consts = self
            .constants
            .evaluate(&self.t, n, Some(1), pick, overrides)
            .map_err(|e| Error::invalid(self.t.file_name(), e.to_string()))?;
        Ok(CaseValues {
            n,
            b: 1,
            pick: pick.to_vec(),
            consts,
        })
    }

    /// Decides the formula at the md state `x`; with `text`, also both sides of its comparisons
    /// (for a witness).
    fn decide_state(
        &self,
        spot: &Spot<'_>,
        case: &CaseValues,
        pvec: &[Q],
        x: &MdLoads,
        text: bool,
    ) -> Result<(Option<(bool, Trust)>, String)> {
        let setting = MdSetting {
            claim: self,
            spot,
            case,
            pvec,
        };
        setting.with_env(x, |env| {
            let verdict = match setting.certified(x, env)? {
                Certification::Decided { holds, trust, .. } => Some((holds, trust)),
                _ => None,
            };
            let shown = if text {
                show_atoms(self.formula(), env, self.every_bin)
            } else {
                String::new()
            };
            Ok((verdict, shown))
        })
    }

    /// The rank vector of the rule's choice at n bins (`p(k)`; empty when the claim does not
    /// need it and the choice has none).
    fn pvec(&self, rule: &MdRule, n: usize) -> Result<Vec<Q>> {
        rule.choice.rank_vector(n)
    }

    /// Shrinks a violation ([`crate::search::shrink`]): in the state's own coordinates (md cells,
    /// or the ball counts / loads of the sum-load chain) loads are lowered while the formula is
    /// still decided false, and a bin is removed where the claim is also stated at n − 1 bins
    /// (`ns`); the coordinates of the chain are sorted heaviest first at the end when the
    /// violation survives it. Returns the smallest violation and the evaluations spent.
    fn shrink(
        &self,
        spot: &Spot<'_>,
        emb: Embedding,
        coords: Vec<i64>,
        pick: &[usize],
        overrides: &[(usize, Q)],
        ns: &[usize],
    ) -> Result<(Vec<i64>, u64)> {
        let mut best = coords;
        let mut evals = 0u64;
        loop {
            let n = emb.bins(&best);
            let obj = MdObjective {
                claim: self,
                spot,
                emb,
                case: self.case_values(n, pick, overrides)?,
                pvec: self.pvec(spot.rule, n)?,
                len: best.len(),
            };
            let start = Found {
                loads: best.iter().map(|&v| v as f64).collect(),
                eval: marker(true),
                phase: String::new(),
            };
            let (found, k) = shrink(&obj, start, true)?;
            evals += k;
            best = found.loads.iter().map(|&v| v as i64).collect();
            if emb.is_chain() {
                let mut sorted = best.clone();
                sorted.sort_unstable_by(|a, b| b.cmp(a));
                evals += 1;
                if sorted != best && obj.violates_at(&sorted)? {
                    best = sorted;
                }
            }
            // One bin fewer where the claim is stated at n − 1 bins.
            if n < 2 || !ns.contains(&(n - 1)) || evals >= SHRINK_BUDGET {
                return Ok((best, evals));
            }
            let smaller = MdObjective {
                case: self.case_values(n - 1, pick, overrides)?,
                pvec: self.pvec(spot.rule, n - 1)?,
                len: emb.len_for(n - 1),
                ..obj
            };
            let mut removed = None;
            for b in 0..n {
                let cand = emb.without_bin(&best, b);
                evals += 1;
                if smaller.violates_at(&cand)? {
                    removed = Some(cand);
                    break;
                }
            }
            match removed {
                Some(c) => best = c,
                None => return Ok((best, evals)),
            }
        }
    }

    /// Runs the claim with constants overridden (the constant finder): the status, the weakest
    /// trust of the decisions, the counterexample or the first undecided state, what was
    /// searched. A violating listed state is the counterexample as written; otherwise at the first
    /// n with a violation every case of that n is searched and the smallest violation (fewest
    /// units above the lightest coordinate, the first found among equals) is shrunk.
    /// The claim's verdict parts: its one link's, or a chain's ([`crate::claim::chain::combine`])
    /// with every link searched on its own.
    fn evaluate(
        &self,
        overrides: &[(usize, Q)],
        ns: &[usize],
        ctx: &mut RunContext,
    ) -> Result<Evaluation> {
        if !self.is_chain {
            return self.evaluate_formula(overrides, ns, ctx);
        }
        let c = crate::claim::chain::run_links(&self.links, |l| {
            // The link as a claim of its own (the search of a single formula).
            let view = MdExpr {
                links: vec![l.clone()],
                is_chain: false,
                ..self.clone()
            };
            let e = view.evaluate(overrides, ns, ctx)?;
            Ok((
                LinkPart {
                    status: e.status,
                    trust: e.trust,
                    slack: e.slack,
                    witness: e.witness,
                    notes: e.notes,
                },
                e.searched,
            ))
        })?;
        Ok(Evaluation {
            status: c.status,
            slack: c.deciding.slack,
            trust: c.trust,
            witness: c.deciding.witness,
            searched: c.searched,
            notes: c.notes,
            links: c.links,
        })
    }

    /// The search of the claim's one formula over every state, law, rule and constant pick.
    fn evaluate_formula(
        &self,
        overrides: &[(usize, Q)],
        ns: &[usize],
        ctx: &mut RunContext,
    ) -> Result<Evaluation> {
        let picks = self.constants.picks();
        let mut searched = Searched {
            n: ns.to_vec(),
            sources: self.rules.len() * self.laws.len(),
            constant_combinations: picks.len(),
            ..Searched::default()
        };
        let mut sweep: Sweep<Violation> = Sweep::new(0.0);
        let gamma1 = self.constants.index("gamma1");
        for &n in ns {
            for (li, law) in self.laws.iter().enumerate() {
                for (ri, (label, rule)) in self.rules.iter().enumerate() {
                    if let Some(pr) = ctx.progress {
                        pr(&format!("{} n = {n} {} / {label}", self.t.id, law.spec()));
                    }
                    let spot = Spot { law, label, rule };
                    let pvec = self.pvec(rule, n)?;
                    for pick in &picks {
                        let case = self.case_values(n, pick, overrides)?;
                        let g1 = gamma1.map_or(0.25, |j| case.float(j));
                        let states = self.states(n, law, rule, g1, ctx.effort.max(1))?;
                        let setting = MdSetting {
                            claim: self,
                            spot: &spot,
                            case: &case,
                            pvec: &pvec,
                        };
                        let mut count = 0u64;
                        for (fam, emb, coords) in states {
                            let x = emb.state(&coords)?;
                            count += 1;
                            let v = || Violation {
                                law: li,
                                rule: ri,
                                pick: pick.clone(),
                                emb,
                                coords: coords.clone(),
                                fam: fam.clone(),
                            };
                            let seen = sweep.visit(&setting, &x, emb.size(&coords) as f64, &v)?;
                            if seen == Seen::Violation && fam == "listed" {
                                searched.add(&format!("n={n} {label}"), count);
                                return self.report(v(), overrides, ns, searched, false);
                            }
                        }
                        searched.add(&format!("n={n} {label}"), count);
                    }
                }
            }
            sweep.end_group(|v| self.certify_at(v, overrides))?;
            if sweep.refuted() {
                break;
            }
        }
        if searched.total == 0 {
            return Err(Error::invalid(self.t.file_name(), "no state was evaluated"));
        }
        let out = sweep.finish();
        let mut notes = out.notes();
        match (out.status, out.spot) {
            (Status::Refuted, Some(spot)) => {
                let mut e = self.report(spot.at, overrides, ns, searched, true)?;
                notes.append(&mut e.notes);
                e.notes = notes;
                Ok(e)
            }
            (Status::Inconclusive, Some(spot)) => {
                let what = match spot.cert {
                    None => "a float violation past the budget of certified states",
                    Some(_) => "undecided by enclosures up to 4096 bits",
                };
                let w = self.kept_witness(&spot.at, overrides, what)?;
                Ok(Evaluation {
                    status: Status::Inconclusive,
                    slack: None,
                    trust: out.trust,
                    witness: Some(w),
                    searched,
                    notes,
                    links: Vec::new(),
                })
            }
            (status, spot) => {
                // Holds: the witness is the tightest state (the smallest float slack).
                let spot_slack = spot
                    .as_ref()
                    .filter(|s| s.atom.holds)
                    .map(|s| s.atom.slack.v.to_f64() + 0.0);
                let witness = match spot {
                    Some(spot) => Some(self.tightest_witness(&spot, overrides)?),
                    None => None,
                };
                Ok(Evaluation {
                    status,
                    slack: spot_slack,
                    trust: out.trust,
                    witness,
                    searched,
                    notes,
                    links: Vec::new(),
                })
            }
        }
    }

    /// The witness at a state the search kept: the md state, `what` it shows, the values of
    /// the comparisons there.
    fn kept_witness(&self, v: &Violation, overrides: &[(usize, Q)], what: &str) -> Result<Witness> {
        let (law, (label, rule)) = (&self.laws[v.law], &self.rules[v.rule]);
        let spot = Spot { law, label, rule };
        let x = v.emb.state(&v.coords)?;
        let case = self.case_values(x.n(), &v.pick, overrides)?;
        let pvec = self.pvec(rule, x.n())?;
        let shown = self.decide_state(&spot, &case, &pvec, &x, true)?.1;
        Ok(self.witness(&spot, &case, &x, v.emb, shown, v.fam.clone(), what))
    }

    /// The witness of a claim that holds: its tightest state, both sides of the deciding
    /// comparison in floats and the float slack.
    fn tightest_witness(
        &self,
        spot: &SweepSpot<Violation>,
        overrides: &[(usize, Q)],
    ) -> Result<Witness> {
        let mut w = self.kept_witness(
            &spot.at,
            overrides,
            "the tightest state (the smallest float slack of the deciding comparison)",
        )?;
        w.slack = format!("{:e}", spot.atom.slack.v.to_f64());
        Ok(w)
    }

    /// The certified evaluation at a state the search kept.
    fn certify_at(&self, v: &Violation, overrides: &[(usize, Q)]) -> Result<Certification> {
        let (law, (label, rule)) = (&self.laws[v.law], &self.rules[v.rule]);
        let spot = Spot { law, label, rule };
        let x = v.emb.state(&v.coords)?;
        let case = self.case_values(x.n(), &v.pick, overrides)?;
        let pvec = self.pvec(rule, x.n())?;
        MdSetting {
            claim: self,
            spot: &spot,
            case: &case,
            pvec: &pvec,
        }
        .certify(&x)
    }

    /// The verdict at a violation, shrunk first when `shrink`.
    fn report(
        &self,
        v: Violation,
        overrides: &[(usize, Q)],
        ns: &[usize],
        mut searched: Searched,
        shrink: bool,
    ) -> Result<Evaluation> {
        let law = &self.laws[v.law];
        let (label, rule) = &self.rules[v.rule];
        let spot = Spot { law, label, rule };
        let (small, evals) = if shrink {
            self.shrink(&spot, v.emb, v.coords.clone(), &v.pick, overrides, ns)?
        } else {
            (v.coords.clone(), 0)
        };
        if evals > 0 {
            searched.add("shrink", evals);
        }
        let y = v.emb.state(&small)?;
        let case = self.case_values(y.n(), &v.pick, overrides)?;
        let pvec = self.pvec(rule, y.n())?;
        let (d, shown) = self.decide_state(&spot, &case, &pvec, &y, true)?;
        let Some((false, trust)) = d else {
            return Err(Error::Unsupported(format!(
                "{}: the violation is no longer decided false",
                self.t.id
            )));
        };
        let mut notes = Vec::new();
        let found_by = if small != v.coords {
            let x = v.emb.state(&v.coords)?;
            notes.push(format!(
                "the smallest violation of the first n with one (found by {}) at n = {}, md state (rows = bins) {}, sum loads {:?}; shrunk in {evals} evaluation(s)",
                v.fam,
                x.n(),
                rows_text(&x),
                sorted_sums(&x, v.emb.is_chain())
            ));
            format!("{}, shrunk", v.fam)
        } else {
            v.fam.clone()
        };
        let w = self.witness(
            &spot,
            &case,
            &y,
            v.emb,
            shown,
            found_by,
            "the formula is false",
        );
        Ok(Evaluation {
            status: Status::Refuted,
            slack: None,
            trust,
            witness: Some(w),
            searched,
            notes,
            links: Vec::new(),
        })
    }

    /// The witness at the md state `x`.
    #[allow(clippy::too_many_arguments)]
    fn witness(
        &self,
        spot: &Spot<'_>,
        case: &CaseValues,
        x: &MdLoads,
        emb: Embedding,
        shown: String,
        found_by: String,
        what: &str,
    ) -> Witness {
        Witness {
            n: x.n(),
            loads: sorted_sums(x, emb.is_chain()),
            source: format!("{} / {}", spot.law.spec(), spot.label),
            constants: case.named(&self.constants),
            constants_text: case.named_text(&self.constants),
            exact: None,
            lhs: format!("md state (rows = bins) {}: {what}", rows_text(x)),
            rhs: shown,
            slack: "-".into(),
            found_by,
            recheck: None,
        }
    }
}

/// The result of [`MdExpr::evaluate`].
struct Evaluation {
    status: Status,
    /// The float slack of the tightest state of a claim that holds.
    slack: Option<f64>,
    trust: Trust,
    /// The (shrunk) violation, or the first undecided state.
    witness: Option<Witness>,
    searched: Searched,
    notes: Vec<String>,
    /// The links' verdicts, for a chain.
    links: Vec<LinkVerdict>,
}

/// A violating state of the search: which law, rule and constants, its coordinates.
struct Violation {
    law: usize,
    rule: usize,
    pick: Vec<usize>,
    emb: Embedding,
    coords: Vec<i64>,
    /// How it was found (`listed`, `exhaustive`, `families`, `random`).
    fam: String,
}

/// A ball law and a rule of the search.
struct Spot<'a> {
    law: &'a BallLaw,
    label: &'a str,
    rule: &'a MdRule,
}

/// How a state's coordinates (what the search enumerates and shrinking lowers) make an md state.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Embedding {
    /// The md cells `l(a, b)`, bin after bin.
    Cells { dims: usize },
    /// One coordinate per bin on the sum-load chain ([`Chain`]).
    Chain { chain: Chain, f: u32, dims: usize },
}

impl Embedding {
    /// The size of a state for choosing among violations: the units above the lightest
    /// coordinate (md cells: `Σ (l(a, b) − min)`; chain: `Σ (s_i − min s)`, units of sum load
    /// above the lightest bin).
    fn size(self, coords: &[i64]) -> i64 {
        let min = coords.iter().copied().min().unwrap_or(0);
        let units: i64 = coords.iter().map(|c| c - min).sum();
        match self {
            Embedding::Chain {
                chain: Chain::FixedF,
                f,
                ..
            } => units * f as i64,
            _ => units,
        }
    }

    fn is_chain(self) -> bool {
        matches!(self, Embedding::Chain { .. })
    }

    /// The coordinates per bin.
    fn per_bin(self) -> usize {
        match self {
            Embedding::Cells { dims } => dims,
            Embedding::Chain { .. } => 1,
        }
    }

    fn bins(self, coords: &[i64]) -> usize {
        coords.len() / self.per_bin()
    }

    fn len_for(self, n: usize) -> usize {
        n * self.per_bin()
    }

    fn without_bin(self, coords: &[i64], b: usize) -> Vec<i64> {
        let k = self.per_bin();
        coords
            .iter()
            .enumerate()
            .filter(|(i, _)| i / k != b)
            .map(|(_, v)| *v)
            .collect()
    }

    /// The md state of the coordinates.
    fn state(self, coords: &[i64]) -> Result<MdLoads> {
        let rows: Vec<Vec<i64>> = match self {
            Embedding::Cells { dims } => coords.chunks(dims).map(|c| c.to_vec()).collect(),
            Embedding::Chain { chain, f, dims } => coords
                .iter()
                .map(|&c| {
                    (0..dims)
                        .map(|a| match chain {
                            Chain::FixedF if a < f as usize => c,
                            Chain::Integer if a == 0 => c,
                            _ => 0,
                        })
                        .collect()
                })
                .collect(),
        };
        MdLoads::from_rows(&rows)
    }

    /// The chain coordinates of a sum-load vector `s` of the chain (any order): sorted heaviest
    /// first, `L = s − min s` (integers), ball counts `L/f` for the fixed-`f` chain.
    fn coords_of_sums(self, s: &[f64]) -> Result<Vec<i64>> {
        let Embedding::Chain { chain, f, .. } = self else {
            return Err(Error::Unsupported("sum loads of md cells".into()));
        };
        let mut v = s.to_vec();
        v.sort_by(|a, b| b.total_cmp(a));
        let min = v.last().copied().unwrap_or(0.0);
        let div = if chain == Chain::FixedF {
            f as f64
        } else {
            1.0
        };
        v.iter()
            .map(|x| {
                let c = (x - min) / div;
                if (c - c.round()).abs() > 1e-6 || !c.is_finite() || c > MAX_LOAD_VALUE as f64 {
                    Err(Error::invalid(
                        "chain state",
                        format!("{s:?} is not a state of the chain"),
                    ))
                } else {
                    Ok(c.round() as i64)
                }
            })
            .collect()
    }
}

/// The shrinker's evaluation of a state: slack −1 where violated, +1 otherwise (the formula is
/// decided, not measured).
fn marker(violated: bool) -> SearchEval {
    SearchEval {
        lhs: XFloat::ZERO,
        rhs: XFloat::ZERO,
        slack: XFloat::from_f64(if violated { -1.0 } else { 1.0 }),
    }
}

/// A claim at one (law, rule, constants, n) as the shrinker's objective over the coordinates of
/// an [`Embedding`]: slack −1 where the formula is decided false, +1 otherwise.
struct MdObjective<'a> {
    claim: &'a MdExpr,
    spot: &'a Spot<'a>,
    emb: Embedding,
    case: CaseValues,
    pvec: Vec<Q>,
    len: usize,
}

impl MdObjective<'_> {
    fn violates_at(&self, coords: &[i64]) -> Result<bool> {
        if coords.len() != self.len || coords.iter().any(|&c| c < 0) {
            return Ok(false);
        }
        let x = self.emb.state(coords)?;
        let (v, _) = self
            .claim
            .decide_state(self.spot, &self.case, &self.pvec, &x, false)?;
        Ok(matches!(v, Some((false, _))))
    }
}

impl Objective for MdObjective<'_> {
    fn n(&self) -> usize {
        self.len
    }

    fn eval(&self, loads: &[f64]) -> Result<SearchEval> {
        let coords: Vec<i64> = loads.iter().map(|&v| v.round() as i64).collect();
        Ok(marker(self.violates_at(&coords)?))
    }

    fn violates(&self, e: &SearchEval) -> bool {
        e.slack < XFloat::ZERO
    }
}

/// The rows of an md state, `[[l(1, 1), …], …]`.
fn rows_text(x: &MdLoads) -> String {
    format!(
        "{:?}",
        (0..x.n()).map(|b| x.row(b).to_vec()).collect::<Vec<_>>()
    )
}

/// The sum loads of an md state, sorted heaviest first for states of the chain.
fn sorted_sums(x: &MdLoads, sort: bool) -> Vec<f64> {
    let mut s = x.sum_loads::<f64>();
    if sort {
        s.sort_by(|a, b| b.total_cmp(a));
    }
    s
}

/// Every next state of one step with its probability: one per (support, bin) outcome with
/// positive probability (bins of tied sum loads are separate outcomes, so a potential that reads
/// per-dimension loads sees each of them).
fn next_states(x: &MdLoads, law: &BallLaw, rule: &MdRule) -> Result<Vec<(MdState, Q)>> {
    Ok(outcomes::<Q>(x, law, rule)?
        .into_iter()
        .map(|(s, j, p)| {
            let mut y = x.clone();
            y.add(j, s);
            (MdState::new(y), p)
        })
        .collect())
}

/// The claim at one md state, for the certification ladder: its formula, the state, and
/// whether it is at every bin.
struct MdAt<'a>(&'a Formula, &'a MdEnv<'a>, bool);

impl ladder::AtState for MdAt<'_> {
    fn truth<D: Routes>(&self, d: &D) -> Eval<bool> {
        let MdAt(f, env, every) = *self;
        if every {
            every_bin::truth_every_bin(d, f, env, |fr| f.truth(d, env, Some(fr), None))
        } else {
            f.truth(d, env, None, None)
        }
    }
    fn sides<D: Routes>(&self, _: &D) -> String {
        show_atoms(self.0, self.1, self.2)
    }
}

/// One (law, rule, constants) case of an md claim as a setting of the engine: its states are
/// md states.
struct MdSetting<'a> {
    claim: &'a MdExpr,
    spot: &'a Spot<'a>,
    case: &'a CaseValues,
    pvec: &'a [Q],
}

impl MdSetting<'_> {
    fn with_env<T>(&self, x: &MdLoads, f: impl FnOnce(&MdEnv) -> Result<T>) -> Result<T> {
        let m = self.claim;
        let cc = MdCheckCase {
            law: self.spot.law,
            pvec: self.pvec,
            delta_pots: &m.delta_pots,
            slots: &m.slots,
            pots: &m.pots,
            constants: &m.constants,
            case: self.case,
        };
        let st = MdState::new(x.clone());
        let next = if m.needs_next {
            next_states(x, self.spot.law, self.spot.rule)?
        } else {
            Vec::new()
        };
        f(&MdEnv {
            st: &st,
            c: &cc,
            next: &next,
        })
    }
}

impl MdSetting<'_> {
    /// An evaluation error at the state `x`, naming the file, n, the law and rule, and the state.
    fn state_error(&self, x: &MdLoads, e: impl std::fmt::Display) -> Error {
        Error::invalid(
            self.claim.t.file_name(),
            format!(
                "n = {}, {}, state {:?}: {e}",
                x.n(),
                self.spot.label,
                x.sum_loads::<f64>()
            ),
        )
    }

    /// The certification ladder at the state `x` (its environment `env`); a quantity with no
    /// certified value is an error naming the state.
    fn certified(&self, x: &MdLoads, env: &MdEnv) -> Result<Certification> {
        match ladder::certify(
            &MdAt(self.claim.formula(), env, self.claim.every_bin),
            false,
        ) {
            Certification::NoRoute(e) => Err(self.state_error(x, e)),
            c => Ok(c),
        }
    }
}

impl Setting for MdSetting<'_> {
    type State = MdLoads;
    fn float(&self, x: &MdLoads) -> Result<Option<Atom>> {
        self.with_env(x, |env| {
            let f = self.claim.formula();
            let atom = if self.claim.every_bin {
                eval_float(
                    |d| every_bin::float_every_bin(d, f, env, &qi(0)),
                    |d| every_bin::float_every_bin(d, f, env, &qi(0)),
                )
            } else {
                float_atom(f, env, &qi(0))
            };
            float_available(atom).map_err(|e| self.state_error(x, e))
        })
    }
    fn certify(&self, x: &MdLoads) -> Result<Certification> {
        self.with_env(x, |env| self.certified(x, env))
    }
    fn inside(&self, x: &MdLoads) -> Result<Option<bool>> {
        if self.claim.given.is_empty() {
            return Ok(None);
        }
        self.with_env(x, |env| {
            for g in &self.claim.given {
                let a = float_atom(g, env, &qi(0))
                    .map_err(|e| self.state_error(x, format!("given: {e}")))?;
                if !a.holds {
                    return Ok(Some(false));
                }
            }
            Ok(Some(true))
        })
    }
}

/// Both sides of each comparison of `f` at the state (exact where rational, else in floats);
/// at every bin (`every`): at the first bin where `f` is false, else at the tightest one.
fn show_atoms(f: &Formula, env: &MdEnv, every: bool) -> String {
    let (bin, at) = if every {
        let zero = qi(0);
        let bin = every_bin::reported_bin(
            &Exact,
            f,
            env,
            |fr| f.truth(&Exact, env, Some(fr), None),
            env,
            &zero,
        );
        match bin {
            Some(b) => (Some(b), format!("at bin {}: ", b + 1)),
            None => return String::new(),
        }
    } else {
        (None, String::new())
    };
    let vars = f.uses().frame_vars(0);
    let exact_frame = bin.and_then(|b| env.frame(&Exact, b, vars).ok());
    let float_frame = bin.and_then(|b| env.frame(&crate::lang::Float, b, vars).ok());
    let shown = f
        .atoms()
        .iter()
        .map(|(a, c, b)| {
            let show = |e: &Expr| -> String {
                match e.eval(&Exact, env, exact_frame.as_ref()) {
                    Ok(q) => q.to_string(),
                    Err(_) => match e.eval(&crate::lang::Float, env, float_frame.as_ref()) {
                        Ok(v) => format!("{:.12e}", v.v.to_f64()),
                        Err(err) => format!("({err})"),
                    },
                }
            };
            format!("{} {} {}", show(a), c.symbol(), show(b))
        })
        .collect::<Vec<_>>()
        .join("; ");
    format!("{at}{shown}")
}

impl Check for MdExpr {
    fn run(&self, ctx: &mut RunContext) -> Result<Verdict> {
        let ns = self.ns.clone();
        let Evaluation {
            status,
            slack,
            trust,
            witness,
            searched,
            notes: found,
            links,
        } = self.evaluate(&[], &ns, ctx)?;
        let mut notes = vec![match status {
            Status::Holds => format!(
                "holds at every evaluated md state ({} in all); evidence, not a proof",
                searched.total
            ),
            Status::Refuted => "the counterexample: a violating listed state as written, else the smallest violation at the first n with one, shrunk (loads lowered, bins removed where the claim is stated at n − 1)".into(),
            _ if witness.is_none() => "no state was decided: see the notes below".into(),
            _ => "a state could not be decided".into(),
        }];
        notes.extend(found);
        notes.push(match trust {
            Trust::Exact => "the certified states were decided in exact arithmetic (rationals, or exact exponential sums)".into(),
            _ => "the certified states were decided exactly or by enclosures (outward-rounded intervals)".into(),
        });
        Ok(Verdict::of(&self.t, status, trust)
            .with_slack(slack)
            .with_witness(witness)
            .with_searched(searched)
            .with_notes(notes)
            .with_links(links))
    }

    /// The tightest value of a constant per n by bisection between the values the file gives
    /// (`[tighten]` says the direction): the claim is decided at every state for each candidate.
    fn tighten(
        &self,
        name: &str,
        ns: Option<&[usize]>,
        ctx: &mut RunContext,
    ) -> Result<ConstantReport> {
        let finder = Finder::new(&self.t, name, &self.constants.names)?;
        let j = finder.index;
        let ns: Vec<usize> = ns.map(|v| v.to_vec()).unwrap_or_else(|| self.ns.clone());
        // The bracket: the extremes of the file's grid of the constant.
        let (lo, hi) = finder.grid_of(&self.constants)?;
        let mut per_n = Vec::new();
        for &n in &ns {
            per_n.push(finder.within(n, &lo, &hi, |v| {
                let e = self.evaluate(&[(j, v.clone())], &[n], ctx)?;
                Ok(Trial {
                    kept: e.status == Status::Holds,
                    status: e.status,
                    trust: e.trust,
                    witness: e.witness,
                })
            })?);
        }
        Ok(finder.report(per_n))
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::lang::Enclosure;
    use crate::lang::{ExpSums, Float};

    const HEAD: &str = "title = \"t\"\nkind = \"multidim\"\nexpected = \"open\"\nstatement = \"s\"\n\
                        [source]\nlocator = \"x\"\nprovenance = \"derived\"\n";

    /// A built claim whose formula is `<lhs> == 0`, with the file's constants and potentials.
    fn claim(lhs: &str, extra: &str, ball: &str, rule: &str) -> MdExpr {
        let text = format!(
            "{HEAD}{extra}[claim]\nexpr = \"{lhs} == 0\"\nball = \"{ball}\"\nrules = [\"{rule}\"]\n\
             random = 1\n[domain]\nn = [3]\n"
        );
        let t = Theorem {
            id: "t/x".into(),
            path: "t/x.toml".into(),
            text: text.clone(),
            file: crate::claim::schema::parse_file("t/x.toml", &text).unwrap(),
            paper: None,
        };
        MdExpr::build(&t).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The left-hand side of the claim at the md state `rows` (rows are bins), in domain `d`.
    fn lhs_at<D: Domain>(m: &MdExpr, rows: &[Vec<i64>], d: &D) -> Eval<D::N> {
        let x = MdLoads::from_rows(rows).unwrap();
        let pick = m.constants.picks().remove(0);
        let consts = m
            .constants
            .evaluate(&m.t, x.n(), Some(1), &pick, &[])
            .unwrap();
        let case = CaseValues {
            n: x.n(),
            b: 1,
            pick,
            consts,
        };
        let pvec = m.rules[0].1.choice.rank_vector(x.n()).unwrap();
        let cc = MdCheckCase {
            law: &m.laws[0],
            pvec: &pvec,
            delta_pots: &m.delta_pots,
            slots: &m.slots,
            pots: &m.pots,
            constants: &m.constants,
            case: &case,
        };
        let st = MdState::new(x.clone());
        let next = next_states(&x, &m.laws[0], &m.rules[0].1).unwrap();
        let env = MdEnv {
            st: &st,
            c: &cc,
            next: &next,
        };
        m.links[0].formula.atoms()[0].0.eval(d, &env, None)
    }

    fn q(s: &str) -> Q {
        s.parse().unwrap()
    }

    /// The state of the hand computations: n = 3 bins, D = 2, rows are bins:
    /// bin 1 = (2, 0), bin 2 = (0, 1), bin 3 = (1, 1).
    fn state() -> Vec<Vec<i64>> {
        vec![vec![2, 0], vec![0, 1], vec![1, 1]]
    }

    fn exact(lhs: &str) -> Q {
        let m = claim(lhs, "", "uniform(dims=2,f=1)", "sum two-choice");
        lhs_at(&m, &state(), &Exact).unwrap_or_else(|e| panic!("{lhs}: {e}"))
    }

    fn per_dimension_names_by_hand() {
        // Dimension 1 has loads (2, 0, 1): total 3, avg(1) = 1, max 2, min 0, gap(1) = 2 − 1 = 1.
        // Dimension 2 has loads (0, 1, 1): total 2, avg(2) = 2/3, max 1, min 0,
        // gap(2) = 1 − 2/3 = 1/3. Bin sums L = (2, 1, 2), mean 5/3: s = (1/3, −2/3, 1/3).
        assert_eq!(exact("l(1, 1)"), q("2"));
        assert_eq!(exact("l(2, 3)"), q("1"));
        assert_eq!(exact("l(2, 1)"), q("0"));
        assert_eq!(exact("avg(1)"), q("1"));
        assert_eq!(exact("avg(2)"), q("2/3"));
        assert_eq!(exact("gap(1)"), q("1"));
        assert_eq!(exact("gap(2)"), q("1/3"));
        assert_eq!(
            exact("lmax(1) + 10*lmin(1) + 100*lmax(2) + 1000*lmin(2)"),
            q("102")
        );
        assert_eq!(exact("s(1)"), q("1/3"));
        assert_eq!(exact("s(2)"), q("-2/3"));
        assert_eq!(exact("s(3)"), q("1/3"));
        // Binders over the dimensions: Σ_a gap(a) = 4/3, max 1, min 1/3, #{gap(a) ≥ 1/2} = 1,
        // Σ_{a: avg(a) < 1} avg(a) = 2/3.
        assert_eq!(exact("sum_dims(gap(a))"), q("4/3"));
        assert_eq!(exact("max_dims(gap(a))"), q("1"));
        assert_eq!(exact("min_dims(gap(a))"), q("1/3"));
        assert_eq!(exact("count_dims(gap(a) >= 1/2)"), q("1"));
        assert_eq!(exact("sum_dims(avg(a), avg(a) < 1)"), q("2/3"));
        // a itself: Σ_a a·gap(a) = 1·1 + 2·(1/3) = 5/3.
        assert_eq!(exact("sum_dims(a*gap(a))"), q("5/3"));
        // Nested both ways: Σ_b Σ_a l(a, b) = 3 + 2 = 5 = units; Σ_a Σ_b l(a, b)·i =
        // dimension 1: 2·1 + 0·2 + 1·3 = 5, dimension 2: 0·1 + 1·2 + 1·3 = 5: 10.
        assert_eq!(exact("sum(sum_dims(l(a, i)))"), q("5"));
        assert_eq!(exact("sum_dims(sum(l(a, i)*i))"), q("10"));
        // s(b) is the per-bin y: Σ_b (y − s(b))² = 0; Σ_b s(b)·rank: bins 1, 3 tie (ranks 1, 2 by
        // index), bin 2 rank 3: 1/3·1 + (−2/3)·3 + 1/3·2 = −1.
        assert_eq!(exact("sum((y - s(i))^2)"), q("0"));
        assert_eq!(exact("sum(s(i)*rank)"), q("-1"));
        // The normalised loads x_b^a = l(a, b) − avg(a) sum to 0 in every dimension (D §3).
        assert_eq!(exact("sum_dims(sum(l(a, i) - avg(a))^2)"), q("0"));
        // Σ_b max_a (l(a, b) − avg(a)): bin 1 max(1, −2/3) = 1, bin 2 max(−1, 1/3) = 1/3,
        // bin 3 max(0, 1/3) = 1/3: 5/3.
        assert_eq!(exact("sum(max_dims(l(a, i) - avg(a)))"), q("5/3"));
        // The identities against the built-in names: max_a gap(a) = gap_max, Σ_a gap(a) = gap_sum.
        assert_eq!(exact("max_dims(gap(a)) - gap_max"), q("0"));
        assert_eq!(exact("sum_dims(gap(a)) - gap_sum"), q("0"));
        assert_eq!(exact("sum_dims(avg(a))*n - units"), q("0"));
    }

    fn exponential_sum_over_dimensions_and_bins_exactly_and_in_floats() {
        // α = 1/2; the normalised loads x_b^a = l(a, b) − avg(a) are dimension 1: (1, −1, 0),
        // dimension 2: (−2/3, 1/3, 1/3), so Σ_b Σ_a e^{α x_b^a} =
        // e^{1/2} + e^{−1/2} + e^0 + e^{−1/3} + 2e^{1/6}.
        let m = claim(
            "sum(sum_dims(exp(alpha*(l(a, i) - avg(a)))))",
            "[constants]\nalpha = \"1/2\"\n",
            "uniform(dims=2,f=1)",
            "sum two-choice",
        );
        let hand = 0.5f64.exp()
            + (-0.5f64).exp()
            + 1.0
            + (-1.0f64 / 3.0).exp()
            + 2.0 * (1.0f64 / 6.0).exp();
        let f = lhs_at(&m, &state(), &Float).unwrap().v.to_f64();
        assert!((f - hand).abs() < 1e-14, "{f} vs {hand}");
        // Exactly, as an exponential sum: the difference from the hand sum is empty.
        let s = ExpSums::default();
        let v = lhs_at(&m, &state(), &s).unwrap();
        let want = [("1/2", 1), ("-1/2", 1), ("0", 1), ("-1/3", 1), ("1/6", 2)]
            .iter()
            .map(|(e, c)| {
                s.mul(
                    &s.rational(&q(&c.to_string())).unwrap(),
                    &s.exp(&s.rational(&q(e)).unwrap()).unwrap(),
                )
                .unwrap()
            })
            .fold(s.zero(), |acc, t| s.add(&acc, &t).unwrap());
        assert_eq!(s.cmp(&v, &want).unwrap(), std::cmp::Ordering::Equal);
        // Not rational: the exact domain declines.
        assert!(matches!(
            lhs_at(&m, &state(), &Exact),
            Err(EvalError::Unavailable(_))
        ));
        let iv = lhs_at(&m, &state(), &Enclosure { prec: 128 }).unwrap();
        assert!(iv.lo_f64() <= hand && hand <= iv.hi_f64());
    }

    fn bad_arguments_are_errors_naming_the_function() {
        let at = |lhs: &str| {
            let m = claim(lhs, "", "uniform(dims=2,f=1)", "sum two-choice");
            lhs_at(&m, &state(), &Exact).unwrap_err().to_string()
        };
        let e = at("l(0, 1)");
        assert!(e.contains("l(a, b): a = 0 is outside 1..=2 (D = 2)"), "{e}");
        let e = at("l(1, n + 1)");
        assert!(e.contains("l(a, b): b = 4 is outside 1..=3 (n = 3)"), "{e}");
        let e = at("gap(3)");
        assert!(e.contains("gap(a): a = 3 is outside 1..=2"), "{e}");
        let e = at("s(0)");
        assert!(e.contains("s(b): b = 0 is outside 1..=3"), "{e}");
        let e = at("l(n/2, 1)");
        assert!(e.contains("must be an integer, got 3/2"), "{e}");
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "per_dimension_names_by_hand",
            run: per_dimension_names_by_hand,
            panics: None,
        },
        crate::unit::Test {
            name: "exponential_sum_over_dimensions_and_bins_exactly_and_in_floats",
            run: exponential_sum_over_dimensions_and_bins_exactly_and_in_floats,
            panics: None,
        },
        crate::unit::Test {
            name: "bad_arguments_are_errors_naming_the_function",
            run: bad_arguments_are_errors_naming_the_function,
            panics: None,
        },
    ];
}
