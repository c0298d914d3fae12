//! Claims about graphical allocation written in the claim language: the kind `graph` with an
//! `expr` in its `[claim]` table. The expression is a formula over the graph quantities of
//! [`crate::graph::quantities`] (greedy's and the strategy's probabilities, Haar drifts, node
//! averages, sibling gaps, `ε_t`, flows, congestion, expansion, spectral gap, ...), the file's
//! constants, the binders over the vertices (`sum`, `max_bins`, `min_bins`, `count` with the
//! per-bin names `x`, `y`, `p` = greedy's probability, `w` = `p`, `rank`, `i`) and over the edges
//! (`sum_edges`, `max_edges`, `min_edges`, `count_edges` with the per-edge names of
//! [`crate::graph::quantities::edge_names`]: endpoints `a`, `b`, their loads `x_a`, `x_b`, `y_a`,
//! `y_b`, degrees `deg_a`, `deg_b`, probabilities `p_a`, `p_b`, `q_a`, `q_b`, and with
//! `over = "nodes"` the membership `in_a`, `in_b` in the node's set), quantified over the elements
//! named by `over` for every listed graph, tree and load vector.
//!
//! ```toml
//! kind = "graph"
//! [claim]
//! expr = "dsum <= 8*betak"              # a formula
//! over = "nodes"                        # state (default), vertices, nodes, internal, edges, pairs, ancestors
//! given = "!is_root"                    # optional (a formula or a list): elements where one is false are skipped
//! graphs = ["cycle(8)", "torus(4,4)"]
//! trees = ["standard", "split(1/4)", "binarised(4,1)", "file(c8.tree)"]   # default ["standard"]
//! routing = "auto"                      # auto, explicit, spanning-tree, electrical, electrical-mw
//! families = ["random", "zigzag"]       # load vectors, when the formula reads the loads
//! loads = [[4, 4, 4, 4, 2, 2, 0, 1]]
//! ```
//!
//! Every element is decided exactly (rationals) where every value is rational; a formula with
//! `sqrt`, `exp` or a non-integer power is decided by enclosures (64…4096 bits); one that reads
//! `spectral_gap` in floats (trust `float`; a float violation is reported `inconclusive`, never
//! `refuted`). The first violation is the counterexample, with the values of every comparison.

use super::graph_loads::{FAMILIES, check_elements, load_vector_count, load_vectors};
use super::{Check, ConstantReport, RunContext};
use crate::claim::chain::Link;
use crate::claim::engine::float::{Atom, float_atom, float_available};
use crate::claim::engine::ladder;
use crate::claim::engine::sweep::{Setting, Sweep};
use crate::claim::routes::Routes;
use crate::claim::schema::{FileError, Theorem};
use crate::claim::setup::{CaseValues, Constants};
use crate::claim::tighten::{Finder, Trial};
use crate::claim::trust::Certification;
use crate::claim::verdict::{Searched, Status, Trust, Verdict, Witness};
use crate::error::{Error, Result};
use crate::exact::Q;
use crate::graph::family::parse_graph;
use crate::graph::flow::Routing;
use crate::graph::quantities::{
    Element, FUNCTIONS, FnValue, GLOBAL, GraphMeasures, GraphState, Over, Value,
    edge_name_uses_loads, edge_names, element_count, function_uses_loads, local_names, uses_loads,
};
use crate::graph::strategy::Strategy;
use crate::graph::tree_spec::TreeSpec;
use crate::lang::{
    BinVar, BinVars, Domain, Enclosure, Env, EnvFunc, Eval, EvalError, Exact, Expr, Float, Formula,
    Frame, Resolved, Scope,
};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use toml::Spanned;

/// Builds the check (called by the `graph` kind when the claim has an `expr`).
pub(super) fn build(t: &Theorem) -> std::result::Result<Box<dyn Check>, FileError> {
    GraphExpr::build(t).map(|c| Box::new(c) as Box<dyn Check>)
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Section {
    #[serde(default)]
    expr: Option<Spanned<String>>,
    /// A chain of inequalities `[e0, "op1 e1", …]` (instead of `expr`).
    #[serde(default)]
    chain: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    over: Option<Spanned<String>>,
    /// A formula at every vertex (the bins of graphical allocation): `expr` with
    /// `over = "vertices"`.
    #[serde(default)]
    forall_bins: Option<Spanned<String>>,
    #[serde(default)]
    given: crate::claim::chain::Given,
    graphs: Vec<Spanned<String>>,
    #[serde(default)]
    trees: Vec<Spanned<String>>,
    #[serde(default)]
    routing: Option<Spanned<String>>,
    #[serde(default)]
    families: Vec<Spanned<String>>,
    #[serde(default)]
    loads: Vec<Vec<f64>>,
}

/// What a slot holds.
#[derive(Debug, Clone, PartialEq)]
enum SlotName {
    Graph(&'static str),
    Const(usize),
}

struct GraphScope<'a> {
    over: Over,
    constants: &'a Constants,
    slots: RefCell<Vec<SlotName>>,
    reads_loads: Cell<bool>,
}

impl GraphScope<'_> {
    fn slot(&self, s: SlotName) -> usize {
        let mut v = self.slots.borrow_mut();
        match v.iter().position(|x| *x == s) {
            Some(i) => i,
            None => {
                v.push(s);
                v.len() - 1
            }
        }
    }
}

fn known_name(name: &str, over: Over) -> Option<&'static str> {
    GLOBAL
        .iter()
        .chain(local_names(over))
        .find(|n| **n == name)
        .copied()
}

impl Scope for GraphScope<'_> {
    fn resolve(&self, name: &str) -> std::result::Result<Option<Resolved>, String> {
        if let Some(n) = known_name(name, self.over) {
            if uses_loads(n) {
                self.reads_loads.set(true);
            }
            return Ok(Some(Resolved::Slot(self.slot(SlotName::Graph(n)))));
        }
        if let Some(j) = self.constants.index(name) {
            return Ok(Some(Resolved::Slot(self.slot(SlotName::Const(j)))));
        }
        let elsewhere: Vec<&str> = Over::ALL
            .iter()
            .filter(|(o, _)| local_names(*o).contains(&name))
            .map(|(_, n)| *n)
            .collect();
        if !elsewhere.is_empty() {
            let here = Over::ALL
                .iter()
                .find(|(o, _)| *o == self.over)
                .map(|(_, n)| *n)
                .unwrap_or("state");
            let binder = if edge_names(self.over).contains(&name) {
                "; or a per-edge name inside sum_edges(...), max_edges(...), min_edges(...), count_edges(...)"
            } else {
                ""
            };
            return Err(format!(
                "`{name}` is a name of the quantifier(s) {} (`over = \"{}\"`), not of `{here}`{binder}",
                elsewhere.join(", "),
                elsewhere[0]
            ));
        }
        Ok(None)
    }

    fn known(&self) -> Vec<(String, Vec<String>)> {
        vec![
            (
                "graph".into(),
                GLOBAL.iter().map(|s| s.to_string()).collect(),
            ),
            (
                "element".into(),
                local_names(self.over)
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            ),
            ("constants".into(), self.constants.names.clone()),
        ]
    }

    fn has_process(&self) -> bool {
        false
    }

    fn edge_names(&self) -> Vec<&'static str> {
        edge_names(self.over)
    }

    fn functions(&self) -> Vec<EnvFunc> {
        FUNCTIONS
            .iter()
            .enumerate()
            .map(|(id, (name, params))| EnvFunc::new(id, name, params))
            .collect()
    }
}

/// The names of the functions of the state a formula calls (to know whether it reads the loads).
fn env_calls(f: &Formula, out: &mut Vec<String>) {
    match f {
        Formula::Cmp(a, _, b) => {
            expr_calls(a, out);
            expr_calls(b, out);
        }
        Formula::And(a, b) | Formula::Or(a, b) => {
            env_calls(a, out);
            env_calls(b, out);
        }
        Formula::Not(a) => env_calls(a, out),
    }
}

fn expr_calls(e: &Expr, out: &mut Vec<String>) {
    match e {
        Expr::EnvCall(f, args) => {
            out.push(f.name.clone());
            args.iter().for_each(|a| expr_calls(a, out));
        }
        Expr::Neg(a) | Expr::Proc(_, a) | Expr::Mean(_, a, _) => expr_calls(a, out),
        Expr::Op(_, a, b) => {
            expr_calls(a, out);
            expr_calls(b, out);
        }
        Expr::Call(_, args) => args.iter().for_each(|a| expr_calls(a, out)),
        Expr::Ind(f) | Expr::Count(_, f, _, _) | Expr::Prob(_, f, _) => env_calls(f, out),
        Expr::Over(_, _, body, pred, _, _, _) => {
            expr_calls(body, out);
            if let Some(p) = pred {
                env_calls(p, out);
            }
        }
        _ => {}
    }
}

/// The evaluation environment at one element.
struct ElementEnv<'a> {
    st: &'a GraphState<'a>,
    el: Element,
    over: Over,
    slots: &'a [SlotName],
    constants: &'a Constants,
    case: &'a CaseValues,
    /// Vertices by rank (heaviest first, ties by index).
    ranks: &'a [usize],
}

impl<D: Domain> Env<D> for ElementEnv<'_> {
    fn slot(&self, d: &D, slot: usize) -> Eval<D::N> {
        match &self.slots[slot] {
            SlotName::Const(j) => self.case.constant(self.constants, d, *j),
            SlotName::Graph(name) => match self.st.value(name, self.el) {
                Ok(Value::Exact(q)) => d.rational(&q),
                Ok(Value::Float(f)) => {
                    if d.exact_inputs() {
                        Err(EvalError::Unavailable(format!(
                            "`{name}` is a floating-point value"
                        )))
                    } else {
                        d.float(f)
                    }
                }
                Err(e) => Err(EvalError::Undefined(e.to_string())),
            },
        }
    }

    fn bins(&self) -> usize {
        self.st.s.graph.n()
    }

    fn edges(&self) -> Eval<usize> {
        Ok(self.st.s.graph.m())
    }

    fn call(&self, d: &D, f: &EnvFunc, args: &[i64]) -> Eval<D::N> {
        match self.st.call(&f.name, args) {
            Ok(FnValue::Exact(q)) => d.rational(&q),
            Ok(FnValue::Enclosed(lo, hi)) => d.hull(&lo, &hi),
            Err(e) => Err(EvalError::Undefined(e.to_string())),
        }
    }

    fn edge_value(&self, d: &D, edge: usize, k: u16) -> Eval<D::N> {
        let names = edge_names(self.over);
        let name = names.get(k as usize).copied().unwrap_or("?");
        match self.st.edge_value(name, edge, self.el) {
            Ok(Value::Exact(q)) => d.rational(&q),
            Ok(Value::Float(f)) => d.float(f),
            Err(e) => Err(EvalError::Undefined(e.to_string())),
        }
    }

    fn frame(&self, d: &D, bin: usize, vars: BinVars) -> Eval<Frame<D::N>> {
        let mut f = Frame::default();
        let get = |name: &str| -> Eval<D::N> {
            match self.st.value(name, Element::Vertex(bin)) {
                Ok(Value::Exact(q)) => d.rational(&q),
                Ok(Value::Float(v)) => d.float(v),
                Err(e) => Err(EvalError::Undefined(e.to_string())),
            }
        };
        for (v, name) in BinVar::ALL {
            if !vars.has(v) {
                continue;
            }
            let val = match v {
                BinVar::Y => get("y")?,
                BinVar::X => get("x")?,
                BinVar::P | BinVar::W => get("p")?,
                BinVar::Index => d.float(bin as f64 + 1.0)?,
                BinVar::Rank => {
                    let r = self.ranks.iter().position(|&u| u == bin).unwrap_or(0);
                    d.float(r as f64 + 1.0)?
                }
            };
            let _ = name;
            f.set(v, val);
        }
        Ok(f)
    }
}

/// How one element was decided.
enum Decision {
    Decided(bool, Trust),
    Undecided(String),
}

fn decide(f: &Formula, env: &ElementEnv, tol: &Q) -> std::result::Result<Decision, String> {
    match ladder::certify(&GraphAt(f, env), false) {
        Certification::Decided { holds, trust, .. } => Ok(Decision::Decided(holds, trust)),
        Certification::Undecided { bits, text } => Ok(Decision::Undecided(format!(
            "undecided by enclosures up to {bits} bits: {text}"
        ))),
        // A quantity without a certified value (`spectral_gap`): floats decide, trust `float`.
        Certification::NoRoute(_) => match f.truth(&Float, env, None, Some(tol)) {
            Ok(b) => Ok(Decision::Decided(b, Trust::Float)),
            Err(EvalError::Undecided(w)) => Ok(Decision::Undecided(w)),
            Err(e) => Err(e.to_string()),
        },
    }
}

/// The vertices by rank: heaviest first, ties by index.
fn ranks_of(x: &[f64]) -> Vec<usize> {
    let mut ranks: Vec<usize> = (0..x.len()).collect();
    ranks.sort_by(|&a, &b| x[b].total_cmp(&x[a]).then(a.cmp(&b)));
    ranks
}

/// A formula at one element, for the certification ladder.
struct GraphAt<'a>(&'a Formula, &'a ElementEnv<'a>);

impl ladder::AtState for GraphAt<'_> {
    fn truth<D: Routes>(&self, d: &D) -> Eval<bool> {
        self.0.truth(d, self.1, None, None)
    }
    fn sides<D: Routes>(&self, _: &D) -> String {
        show_atoms(self.0, self.1)
    }
}

/// One graph, loads and constant combination of a graph claim as a setting of the engine: its
/// states are the elements of the quantifier (bins, edges, pairs, …).
struct GraphSetting<'a> {
    claim: &'a GraphExpr,
    st: &'a GraphState<'a>,
    case: &'a CaseValues,
    ranks: &'a [usize],
}

impl GraphSetting<'_> {
    fn env(&self, el: Element) -> ElementEnv<'_> {
        ElementEnv {
            st: self.st,
            el,
            over: self.claim.over,
            slots: &self.claim.slots,
            constants: &self.claim.constants,
            case: self.case,
            ranks: self.ranks,
        }
    }
}

impl Setting for GraphSetting<'_> {
    type State = Element;
    fn float(&self, el: &Element) -> Result<Option<Atom>> {
        float_available(float_atom(
            &self.claim.expr,
            &self.env(*el),
            &self.claim.tol,
        ))
        .map_err(|e| {
            Error::invalid(
                self.claim.t.file_name(),
                format!("expr at {}: {e}", self.st.describe(*el)),
            )
        })
    }
    fn certify(&self, el: &Element) -> Result<Certification> {
        let env = self.env(*el);
        Ok(
            match ladder::certify(&GraphAt(&self.claim.expr, &env), false) {
                // Where no certified value exists, floats may show that the claim holds (trust
                // `float`); a float violation is never certified.
                Certification::NoRoute(why) => {
                    match self
                        .claim
                        .expr
                        .truth(&Float, &env, None, Some(&self.claim.tol))
                    {
                        Ok(true) => Certification::Decided {
                            holds: true,
                            trust: Trust::Float,
                            bits: None,
                            text: why,
                        },
                        _ => Certification::NoRoute(why),
                    }
                }
                c => c,
            },
        )
    }
}

/// The values of the comparisons of `f` at an element (for the report of a violation).
fn show_atoms(f: &Formula, env: &ElementEnv) -> String {
    f.atoms()
        .iter()
        .map(|(a, c, b)| {
            let show = |e: &crate::lang::Expr| -> String {
                match e.eval(&Exact, env, None) {
                    // A long exact rational is shown by its nearest f64 (marked exact).
                    Ok(q) => match q.to_string() {
                        t if t.len() > 40 => {
                            format!("{:.6e} (exact)", crate::exact::to_f64(&q))
                        }
                        t => t,
                    },
                    Err(_) => match e.eval(&Float, env, None) {
                        Ok(v) => format!("{:.12e}", v.v.to_f64()),
                        Err(err) => match e.eval(&Enclosure { prec: 128 }, env, None) {
                            Ok(v) => format!("{:.12e}", Enclosure { prec: 128 }.to_f64(&v)),
                            Err(_) => format!("({err})"),
                        },
                    },
                }
            };
            format!("{} {} {}", show(a), c.symbol(), show(b))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// A built expression claim over graphs.
#[derive(Clone)]
pub struct GraphExpr {
    t: Theorem,
    over: Over,
    /// The claim searched: `expr`, or the conjunction of a chain's links (what the constant
    /// finder keeps).
    expr: Formula,
    /// A chain's links, each searched as a claim of its own (empty for `expr`).
    links: Vec<Link>,
    given: Option<Formula>,
    slots: Vec<SlotName>,
    constants: Constants,
    /// (graph label, tree label, strategy).
    strategies: Vec<(String, String, Strategy)>,
    /// The tree of each strategy (to build it again on a smaller member of a graph family).
    specs: Vec<TreeSpec>,
    routing: Routing,
    /// The theorem file's folder (graph and tree files are read from it).
    dir: Option<std::path::PathBuf>,
    families: Vec<String>,
    loads: Vec<Vec<f64>>,
    reads_loads: bool,
    tol: Q,
}

impl GraphExpr {
    /// Validates the file and compiles the claim: the quantifier, the formula and hypothesis,
    /// whether they read the loads, the strategies (graphs × trees), the load families and
    /// vectors, and the work counted before it is done.
    fn build(t: &Theorem) -> std::result::Result<GraphExpr, FileError> {
        let c: Spanned<Section> = t.claim_section()?;
        let c_start = c.span().start;
        let at = Some(c_start);
        let cs = c.into_inner();
        let over = parse_over(t, &cs)?;
        let constants = Constants::parse(t)?;
        for (j, name) in constants.names.iter().enumerate() {
            let clash = GLOBAL.contains(&name.as_str())
                || FUNCTIONS.iter().any(|(f, _)| f == name)
                || Over::ALL
                    .iter()
                    .any(|(o, _)| local_names(*o).contains(&name.as_str()));
            if clash {
                return Err(t.error_at(
                    Some(constants.at[j]),
                    format!("constant `{name}` shadows a graph quantity"),
                ));
            }
        }
        let scope = GraphScope {
            over,
            constants: &constants,
            slots: RefCell::new(Vec::new()),
            reads_loads: Cell::new(false),
        };
        let (expr, links) = match &cs.forall_bins {
            Some(f) => (
                crate::claim::chain::compile_formula_in(t, "forall_bins", f, &scope)?,
                Vec::new(),
            ),
            None => crate::claim::chain::expr_or_chain(
                t,
                cs.expr.as_ref(),
                cs.chain.as_deref(),
                at,
                &scope,
            )?,
        };
        let given = crate::claim::chain::compile_given_in(t, &cs.given, &scope)?;
        let reads_loads = scope.reads_loads.get() || formulas_read_loads(over, &expr, &given);
        let routing = match &cs.routing {
            None => Routing::Auto,
            Some(r) => Routing::parse(r.get_ref())
                .map_err(|e| t.error_at(Some(r.span().start), e.to_string()))?,
        };
        let dir = t.path.parent().map(|p| p.to_path_buf());
        let (strategies, specs) = build_strategies(t, &cs, c_start, routing, dir.as_deref())?;
        let families = check_loads(t, &cs, at, &strategies)?;
        if reads_loads && families.is_empty() && cs.loads.is_empty() {
            return Err(t.error_at(
                at,
                "the formula reads the loads: give load vectors (`families` or `loads`)",
            ));
        }
        // The work, counted before it is done: elements × load vectors × constant combinations.
        let combos = constants.picks().len() as u64;
        let total = strategies.iter().fold(0u64, |acc, (_, _, s)| {
            let vectors = if reads_loads {
                load_vector_count(t, &families, &cs.loads, s.graph.n())
            } else {
                1
            };
            element_count(s, over)
                .saturating_mul(vectors)
                .saturating_mul(combos)
                .saturating_add(acc)
        });
        check_elements(t, total, at)?;
        let tol =
            crate::exact::from_float(t.file.tolerance).unwrap_or_else(|| Q::from_integer(0.into()));
        let slots = scope.slots.borrow().clone();
        Ok(GraphExpr {
            t: t.clone(),
            over,
            expr,
            links,
            given,
            slots,
            constants,
            strategies,
            specs,
            routing,
            dir,
            families,
            loads: cs.loads,
            reads_loads,
            tol,
        })
    }
}

/// The quantifier of `over` (the state when omitted).
fn parse_over(t: &Theorem, cs: &Section) -> std::result::Result<Over, FileError> {
    if let Some(f) = &cs.forall_bins {
        let at = Some(f.span().start);
        if cs.expr.is_some() || cs.chain.is_some() {
            return Err(t.error_at(
                at,
                "[claim] needs exactly one of `expr`, `chain` and `forall_bins` (a formula at every vertex)",
            ));
        }
        if cs.over.as_ref().is_some_and(|o| o.get_ref() != "vertices") {
            return Err(t.error_at(
                at,
                "`forall_bins` is the quantifier over the vertices: give no other `over` with it",
            ));
        }
        return Ok(Over::Vertices);
    }
    Ok(match &cs.over {
        None => Over::State,
        Some(o) => Over::parse(o.get_ref()).ok_or_else(|| {
            let names: Vec<&str> = Over::ALL.iter().map(|(_, n)| *n).collect();
            t.error_at(
                Some(o.span().start),
                format!(
                    "unknown quantifier `{}`; accepted: {}",
                    crate::lang::syntax::excerpt(o.get_ref(), 30),
                    names.join(", ")
                ),
            )
        })?,
    })
}

/// Whether the formula or hypothesis reads the loads through a binder or a function: binders
/// over the vertices read the loads; binders over the edges when they read a load of an
/// endpoint.
fn formulas_read_loads(over: Over, expr: &Formula, given: &Option<Formula>) -> bool {
    let names = edge_names(over);
    let reads = |u: crate::lang::Uses| {
        u.binders
            || names
                .iter()
                .enumerate()
                .any(|(k, n)| u.edge_vars & (1u64 << k) != 0 && edge_name_uses_loads(n))
    };
    let binders = reads(expr.uses()) || given.as_ref().is_some_and(|g| reads(g.uses()));
    let mut calls = Vec::new();
    env_calls(expr, &mut calls);
    if let Some(g) = given {
        env_calls(g, &mut calls);
    }
    let funcs = calls.iter().any(|c| function_uses_loads(c));
    binders || funcs
}

/// Strategies by graph and tree name.
type Strategies = Vec<(String, String, Strategy)>;

/// The strategies of the claim, one per graph of `graphs` (each with its n listed by
/// `[domain] n`) and tree of `trees` (the standard tree when omitted), with the tree specs.
fn build_strategies(
    t: &Theorem,
    cs: &Section,
    c_start: usize,
    routing: Routing,
    dir: Option<&std::path::Path>,
) -> std::result::Result<(Strategies, Vec<TreeSpec>), FileError> {
    let trees: Vec<(String, TreeSpec, usize)> = if cs.trees.is_empty() {
        vec![("standard".into(), TreeSpec::Standard, c_start)]
    } else {
        cs.trees
            .iter()
            .map(|s| {
                TreeSpec::parse(s.get_ref())
                    .map(|spec| (s.get_ref().trim().to_string(), spec, s.span().start))
                    .map_err(|e| t.error_at(Some(s.span().start), e.to_string()))
            })
            .collect::<std::result::Result<_, _>>()?
    };
    if cs.graphs.is_empty() {
        return Err(t.error_at(Some(c_start), "`graphs` is empty: list at least one graph"));
    }
    let domain = t.file.domain.get_ref();
    let mut strategies = Vec::new();
    let mut specs = Vec::new();
    for g in &cs.graphs {
        let gr = parse_graph(g.get_ref(), &crate::input::Dir::new(dir))
            .and_then(|gr| {
                crate::limits::GRAPH_CLAIM_N
                    .check_usize("a graph of a `graph` claim, n", gr.n())?;
                Ok(gr)
            })
            .map_err(|e| t.error_at(Some(g.span().start), e.to_string()))?;
        if !domain.n.contains(&gr.n()) {
            return Err(t.error_at(
                Some(g.span().start),
                format!(
                    "graph `{}` has n = {}, which [domain] n does not list",
                    g.get_ref(),
                    gr.n()
                ),
            ));
        }
        for (label, spec, tat) in &trees {
            let tree = spec
                .build(&gr, &crate::input::Dir::new(dir))
                .map_err(|e| t.error_at(Some(*tat), e.to_string()))?;
            let s = Strategy::with_routing(&gr, tree, routing)
                .map_err(|e| t.error_at(Some(*tat), e.to_string()))?;
            strategies.push((g.get_ref().trim().to_string(), label.clone(), s));
            specs.push(spec.clone());
        }
    }
    Ok((strategies, specs))
}

/// The load families of `families` (known names), after checking the explicit `loads`: finite,
/// each of the n of a listed graph.
fn check_loads(
    t: &Theorem,
    cs: &Section,
    at: Option<usize>,
    strategies: &[(String, String, Strategy)],
) -> std::result::Result<Vec<String>, FileError> {
    let mut families = Vec::new();
    for f in &cs.families {
        if !FAMILIES.contains(&f.get_ref().as_str()) {
            return Err(t.error_at(
                Some(f.span().start),
                format!(
                    "unknown load family `{}`; accepted: {}",
                    crate::lang::syntax::excerpt(f.get_ref(), 30),
                    FAMILIES.join(", ")
                ),
            ));
        }
        families.push(f.get_ref().clone());
    }
    for (k, l) in cs.loads.iter().enumerate() {
        if l.iter().any(|v| !v.is_finite()) {
            return Err(t.error_at(
                at,
                format!("loads[{k}]: every load must be a finite number"),
            ));
        }
        if !strategies.iter().any(|(_, _, s)| s.graph.n() == l.len()) {
            return Err(t.error_at(
                at,
                format!(
                    "loads[{k}] has {} entries but no listed graph has n = {}",
                    l.len(),
                    l.len()
                ),
            ));
        }
    }
    Ok(families)
}

/// The first violation (or undecided element).
struct Found {
    /// The index of the strategy (graph and tree) and of the constant combination.
    at: (usize, usize),
    n: usize,
    loads: Vec<f64>,
    source: String,
    family: String,
    constants: BTreeMap<String, f64>,
    what: String,
    values: String,
    /// The element.
    el: Element,
}

/// What one evaluation of the claim found.
struct Outcome {
    violation: Option<Found>,
    float_violation: Option<Found>,
    undecided: Option<Found>,
    weakest: Trust,
    searched: Searched,
    /// The values of the comparisons at the first elements evaluated (shown when there are few).
    shown: Vec<String>,
    /// The engine's notes on the search ([`crate::claim::engine::sweep::Outcome::notes`]).
    engine: Vec<String>,
}

/// At most this many elements have their values printed in the notes of a verdict.
const SHOWN_ELEMENTS: usize = 16;

/// One load vector of one strategy at one combination of the constants: what the sweep over
/// its elements needs.
struct VectorCase<'a> {
    /// The index of the strategy (graph and tree) and of the constant combination.
    at: (usize, usize),
    /// The graph's and the tree's names, and the strategy.
    gname: &'a str,
    tname: &'a str,
    s: &'a Strategy,
    /// The load family and the loads.
    fam: &'a str,
    x: &'a [f64],
    /// The constants' values, by name as numbers and as written.
    case: &'a CaseValues,
    named: &'a BTreeMap<String, f64>,
    named_text: &'a BTreeMap<String, String>,
}

impl GraphExpr {
    /// A chain: each link searched as a claim of its own, the verdict of
    /// [`crate::claim::chain::combine`].
    fn run_chain(&self, ctx: &mut RunContext) -> Result<Verdict> {
        crate::claim::chain::verdict(&self.t, &self.links, |l| {
            GraphExpr {
                expr: l.formula.clone(),
                links: Vec::new(),
                ..self.clone()
            }
            .run(ctx)
        })
    }

    /// Decides the claim at every element, with constants overridden (the constant finder) and
    /// optionally only on the graphs of one size `only_n`.
    fn evaluate(
        &self,
        overrides: &[(usize, Q)],
        only_n: Option<usize>,
        ctx: &mut RunContext,
    ) -> Result<Outcome> {
        let d = self.t.file.domain.get_ref();
        let mut searched = Searched {
            n: match only_n {
                Some(n) => vec![n],
                None => d.n.clone(),
            },
            sources: self.strategies.len(),
            ..Searched::default()
        };
        let picks = self.constants.picks();
        searched.constant_combinations = picks.len();
        let mut sweep: Sweep<Found> = Sweep::new(self.t.file.tolerance);
        let mut shown = Vec::new();
        let file_err = |msg: String| Error::invalid(self.t.file_name(), msg);
        for (si, (gname, tname, s)) in self.strategies.iter().enumerate() {
            let n = s.graph.n();
            if only_n.is_some_and(|m| m != n) {
                continue;
            }
            if let Some(pr) = ctx.progress {
                pr(&format!("{} {gname} {tname}", self.t.id));
            }
            let measures = GraphMeasures::new();
            let vectors = if self.reads_loads {
                load_vectors(&self.t, &self.families, &self.loads, s)?
            } else {
                vec![("-".to_string(), vec![0.0; n])]
            };
            for (pi, pick) in picks.iter().enumerate() {
                let consts = self
                    .constants
                    .evaluate(&self.t, n, Some(1), pick, overrides)
                    .map_err(|e| file_err(e.to_string()))?;
                let case = CaseValues {
                    n,
                    b: 1,
                    pick: pick.clone(),
                    consts,
                };
                let named = case.named(&self.constants);
                let named_text = case.named_text(&self.constants);
                for (fam, x) in &vectors {
                    let vc = VectorCase {
                        at: (si, pi),
                        gname,
                        tname,
                        s,
                        fam,
                        x,
                        case: &case,
                        named: &named,
                        named_text: &named_text,
                    };
                    let count = self.sweep_vector(&vc, &measures, &mut sweep, &mut shown)?;
                    searched.add(&format!("{gname} {tname} {fam}"), count);
                }
            }
            sweep.end_group(|f| self.certify_found(f, overrides))?;
        }
        let out = sweep.finish();
        let weakest = out.trust;
        let engine = out.notes();
        let (mut violation, mut float_violation, mut undecided) = (None, None, None);
        if let Some(spot) = out.spot {
            match out.status {
                Status::Refuted => violation = Some(spot.at),
                Status::Inconclusive => match spot.cert {
                    Some(Certification::Undecided { bits, text }) => {
                        let mut f = spot.at;
                        f.what = format!(
                            "{}: undecided by enclosures up to {bits} bits: {text}",
                            f.what
                        );
                        undecided = Some(f);
                    }
                    _ => float_violation = Some(spot.at),
                },
                _ => {}
            }
        }
        if searched.total == 0 {
            return Err(file_err(
                "nothing was evaluated (no element of the quantifier passes `given`, or no load vector of a listed graph's size)".into(),
            ));
        }
        Ok(Outcome {
            violation,
            float_violation,
            undecided,
            weakest,
            searched,
            shown,
            engine,
        })
    }

    /// Sweeps the elements of the quantifier at one load vector (`vc`): an element outside
    /// `given` is skipped, the values at the first [`SHOWN_ELEMENTS`] are kept for the notes,
    /// and each is visited by the sweep (which keeps the first violation or the tightest).
    /// Returns the number of elements evaluated.
    fn sweep_vector(
        &self,
        vc: &VectorCase,
        measures: &GraphMeasures,
        sweep: &mut Sweep<Found>,
        shown: &mut Vec<String>,
    ) -> Result<u64> {
        let file_err = |msg: String| Error::invalid(self.t.file_name(), msg);
        let (gname, tname, x) = (vc.gname, vc.tname, vc.x);
        let n = vc.s.graph.n();
        let st =
            GraphState::new(vc.s, x, measures).map_err(|e| file_err(format!("{gname}: {e}")))?;
        let ranks = ranks_of(x);
        let setting = GraphSetting {
            claim: self,
            st: &st,
            case: vc.case,
            ranks: &ranks,
        };
        let mut count = 0u64;
        for el in st.elements(self.over) {
            let env = setting.env(el);
            let at = || {
                format!(
                    "{gname}, tree {tname}, loads {}: {}",
                    if self.reads_loads {
                        format!("{x:?}")
                    } else {
                        "-".into()
                    },
                    st.describe(el)
                )
            };
            if let Some(g) = &self.given {
                match decide(g, &env, &self.tol)
                    .map_err(|e| file_err(format!("given at {}: {e}", at())))?
                {
                    Decision::Decided(false, _) => continue,
                    Decision::Decided(true, _) => {}
                    Decision::Undecided(w) => {
                        return Err(file_err(format!("given at {}: {w}", at())));
                    }
                }
            }
            count += 1;
            if shown.len() <= SHOWN_ELEMENTS {
                let mut line = format!("{}: {}", at(), show_atoms(&self.expr, &env));
                if !vc.named_text.is_empty() {
                    let cs: Vec<String> = vc
                        .named_text
                        .iter()
                        .map(|(k, v)| format!("{k} = {v}"))
                        .collect();
                    line = format!("{} ({line})", cs.join(", "));
                }
                shown.push(line);
            }
            let found = |what: String| Found {
                at: vc.at,
                n,
                loads: if self.reads_loads { x.to_vec() } else { vec![] },
                source: format!("{gname}, tree {tname}"),
                family: vc.fam.to_string(),
                constants: vc.named.clone(),
                what,
                values: show_atoms(&self.expr, &env),
                el,
            };
            sweep.visit(&setting, &el, 0.0, || found(at()))?;
        }
        Ok(count)
    }
}

impl GraphExpr {
    /// The certified evaluation at an element the search kept (rebuilt from its record).
    fn certify_found(&self, f: &Found, overrides: &[(usize, Q)]) -> Result<Certification> {
        let file_err = |msg: String| Error::invalid(self.t.file_name(), msg);
        let (gname, _, s) = &self.strategies[f.at.0];
        let x = if self.reads_loads {
            f.loads.clone()
        } else {
            vec![0.0; f.n]
        };
        let measures = GraphMeasures::new();
        let st =
            GraphState::new(s, &x, &measures).map_err(|e| file_err(format!("{gname}: {e}")))?;
        let ranks = ranks_of(&x);
        let pick = &self.constants.picks()[f.at.1];
        let consts = self
            .constants
            .evaluate(&self.t, f.n, Some(1), pick, overrides)
            .map_err(|e| file_err(e.to_string()))?;
        let case = CaseValues {
            n: f.n,
            b: 1,
            pick: pick.clone(),
            consts,
        };
        GraphSetting {
            claim: self,
            st: &st,
            case: &case,
            ranks: &ranks,
        }
        .certify(&f.el)
    }
}

impl Check for GraphExpr {
    fn run(&self, ctx: &mut RunContext) -> Result<Verdict> {
        if !self.links.is_empty() {
            return self.run_chain(ctx);
        }
        let Outcome {
            violation,
            float_violation,
            undecided,
            weakest,
            searched,
            shown,
            engine,
        } = self.evaluate(&[], None, ctx)?;
        let mut notes = Vec::new();
        if shown.len() <= SHOWN_ELEMENTS {
            notes.extend(shown);
        }
        notes.extend(engine);
        let (status, shown) = if let Some(v) = violation {
            notes.push("the first violation is the counterexample, shrunk".into());
            let (v, shrunk) = self.shrink(v, weakest)?;
            notes.extend(shrunk);
            (Status::Refuted, Some(v))
        } else if let Some(v) = float_violation {
            notes.push(
                "violated in floating point only (the formula reads `spectral_gap`); a float \
                 violation is not certified, so the verdict is inconclusive"
                    .into(),
            );
            (Status::Inconclusive, Some(v))
        } else if let Some(u) = undecided {
            notes.push("an element could not be decided".into());
            (Status::Inconclusive, Some(u))
        } else {
            notes.push(format!(
                "holds at every evaluated element ({} in all); evidence on the listed graphs, \
                 trees and loads, not a proof",
                searched.total
            ));
            (Status::Holds, None)
        };
        notes.push(match weakest {
            Trust::Exact => "decided in exact rational arithmetic".into(),
            Trust::Enclosure => {
                "decided exactly or by enclosures (outward-rounded intervals)".into()
            }
            _ => "some elements decided in floating point (spectral_gap)".into(),
        });
        let witness = shown.map(|v| Witness {
            n: v.n,
            loads: v.loads,
            source: v.source,
            constants: v.constants,
            constants_text: Default::default(),
            exact: None,
            lhs: v.what,
            rhs: v.values.clone(),
            slack: "-".into(),
            found_by: v.family,
            recheck: Some(v.values),
        });
        Ok(Verdict::of(&self.t, status, weakest)
            .with_witness(witness)
            .with_searched(searched)
            .with_notes(notes))
    }

    /// The tightest value of a constant per n (the sizes of the listed graphs, or `ns`) by
    /// bisection between the two values of its grid in the file (`[tighten]` says which side
    /// holds): at each candidate every element of every graph of that size is decided, and only a
    /// certified violation (exact or by enclosures) counts as failing; a float-only violation or
    /// an undecided element stops the search with an error naming the element.
    fn tighten(
        &self,
        name: &str,
        ns: Option<&[usize]>,
        ctx: &mut RunContext,
    ) -> Result<ConstantReport> {
        let finder = Finder::new(&self.t, name, &self.constants.names)?;
        let j = finder.index;
        let mut sizes: Vec<usize> = self
            .strategies
            .iter()
            .map(|(_, _, s)| s.graph.n())
            .collect();
        sizes.sort_unstable();
        sizes.dedup();
        let ns: Vec<usize> = match ns {
            None => sizes.clone(),
            Some(v) => {
                if let Some(m) = v.iter().find(|m| !sizes.contains(m)) {
                    return Err(Error::invalid(
                        "--n",
                        format!(
                            "{m} is not the size of a listed graph (sizes: {})",
                            sizes
                                .iter()
                                .map(|s| s.to_string())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
                v.to_vec()
            }
        };
        let (lo, hi) = finder.grid_of(&self.constants)?;
        let mut per_n = Vec::new();
        for &n in &ns {
            per_n.push(finder.within(n, &lo, &hi, |v| {
                let o = self.evaluate(&[(j, v.clone())], Some(n), ctx)?;
                if let Some(u) = o.float_violation.or(o.undecided) {
                    return Err(Error::invalid(
                        self.t.file_name(),
                        format!(
                            "`{name}` = {v}: {} is not decided exactly or by enclosures",
                            u.what
                        ),
                    ));
                }
                let kept = o.violation.is_none();
                Ok(Trial {
                    kept,
                    status: if kept { Status::Holds } else { Status::Refuted },
                    trust: o.weakest,
                    witness: None,
                })
            })?);
        }
        Ok(finder.report(per_n))
    }
}

/// A certified violation at one state.
struct StateViolation {
    what: String,
    values: String,
    trust: Trust,
}

/// The graph families with one size parameter, with their smallest member: `cycle(n)` from 3,
/// `path(n)` and `complete(n)` from 2, `hypercube(dim)` from 1. Returns the family, the size
/// written in `spec` and the smallest size.
fn sized_family(spec: &str) -> Option<(&'static str, u64, u64)> {
    let (name, rest) = spec.trim().split_once('(')?;
    let size: u64 = rest.strip_suffix(')')?.trim().parse().ok()?;
    let (fam, min) = match name.trim() {
        "cycle" => ("cycle", 3),
        "path" => ("path", 2),
        "complete" => ("complete", 2),
        "hypercube" => ("hypercube", 1),
        _ => return None,
    };
    Some((fam, size, min))
}

/// The most smaller members of a family (of sizes `[domain] n` lists) tried when a
/// counterexample is shrunk, the smallest first.
const SHRINK_MEMBERS: u64 = 24;

/// What the shrinker minimises on one graph: the claim fails (certified, at the verdict's trust
/// or stronger) at a load vector, or it does not.
struct ShrinkObjective<'a> {
    claim: &'a GraphExpr,
    s: &'a Strategy,
    label: &'a str,
    case: &'a CaseValues,
    measures: &'a GraphMeasures,
    min_rank: u8,
}

impl crate::search::Objective for ShrinkObjective<'_> {
    fn n(&self) -> usize {
        self.s.graph.n()
    }

    fn eval(&self, x: &[f64]) -> Result<crate::search::Eval> {
        let bad = self
            .claim
            .violation_at(self.s, self.label, x, self.case, self.measures)
            .is_some_and(|v| Trust::strength(v.trust) >= self.min_rank);
        let v = |f: f64| crate::xfloat::XFloat::from_f64(f);
        Ok(crate::search::Eval {
            lhs: v(f64::from(u8::from(bad))),
            rhs: v(0.0),
            slack: v(if bad { -1.0 } else { 1.0 }),
        })
    }

    fn violates(&self, e: &crate::search::Eval) -> bool {
        e.slack < crate::xfloat::XFloat::ZERO
    }
}

impl GraphExpr {
    /// The first certified violation of the claim at loads `x` on strategy `s` with the constants
    /// of `case`: elements where `given` is not decided true are skipped; undecided or float-only
    /// elements and evaluation errors are not violations.
    fn violation_at(
        &self,
        s: &Strategy,
        label: &str,
        x: &[f64],
        case: &CaseValues,
        measures: &GraphMeasures,
    ) -> Option<StateViolation> {
        let st = GraphState::new(s, x, measures).ok()?;
        let ranks = ranks_of(x);
        let setting = GraphSetting {
            claim: self,
            st: &st,
            case,
            ranks: &ranks,
        };
        for el in st.elements(self.over) {
            let env = setting.env(el);
            if let Some(g) = &self.given
                && !matches!(decide(g, &env, &self.tol), Ok(Decision::Decided(true, _)))
            {
                continue;
            }
            if let Ok(Decision::Decided(false, tr)) = decide(&self.expr, &env, &self.tol)
                && tr != Trust::Float
            {
                let loads = if self.reads_loads {
                    format!("{x:?}")
                } else {
                    "-".into()
                };
                return Some(StateViolation {
                    what: format!("{label}, loads {loads}: {}", st.describe(el)),
                    values: show_atoms(&self.expr, &env),
                    trust: tr,
                });
            }
        }
        None
    }

    /// The values of the constants at combination `pick` on a graph of `n` vertices (`None`
    /// when they cannot be evaluated there).
    fn case_at(&self, pick: &[usize], n: usize) -> Option<CaseValues> {
        let consts = self
            .constants
            .evaluate(&self.t, n, Some(1), pick, &[])
            .ok()?;
        Some(CaseValues {
            n,
            b: 1,
            pick: pick.to_vec(),
            consts,
        })
    }

    /// The smallest member of the sized family of graph `gname` (`cycle(k)`, `hypercube(k)`, …
    /// below its size, only the n that `[domain] n` lists, at most [`SHRINK_MEMBERS`]) where the
    /// claim fails at trust rank `min_rank` or above for some load vector, with the tree of
    /// strategy `si`: its spec, strategy, load family and loads.
    fn smallest_member(
        &self,
        si: usize,
        pick: &[usize],
        min_rank: u8,
    ) -> Option<(String, Strategy, String, Vec<f64>)> {
        let (gname, tname, _) = &self.strategies[si];
        let (fam, size, min) = sized_family(gname)?;
        // Only members whose n the file's `[domain] n` lists: the claim is about those.
        let listed = &self.t.file.domain.get_ref().n;
        let n_of = |k: u64| -> Option<usize> {
            let n = if fam == "hypercube" {
                1u64.checked_shl(u32::try_from(k).ok()?)?
            } else {
                k
            };
            usize::try_from(n).ok()
        };
        let sizes = (min..size).filter(|&k| n_of(k).is_some_and(|n| listed.contains(&n)));
        for k in sizes.take(SHRINK_MEMBERS as usize) {
            let spec = format!("{fam}({k})");
            let Ok(g) = parse_graph(&spec, &crate::input::Dir::new(self.dir.as_deref())) else {
                continue;
            };
            let Ok(tree) = self.specs[si].build(&g, &crate::input::Dir::new(self.dir.as_deref()))
            else {
                continue;
            };
            let Ok(strat) = Strategy::with_routing(&g, tree, self.routing) else {
                continue;
            };
            let Some(case) = self.case_at(pick, g.n()) else {
                continue;
            };
            let vectors = if self.reads_loads {
                load_vectors(&self.t, &self.families, &self.loads, &strat).unwrap_or_default()
            } else {
                vec![("-".to_string(), vec![0.0; g.n()])]
            };
            let measures = GraphMeasures::new();
            let label = format!("{spec}, tree {tname}");
            for (fam_name, x) in vectors {
                if self
                    .violation_at(&strat, &label, &x, &case, &measures)
                    .is_some_and(|w| Trust::strength(w.trust) >= min_rank)
                {
                    return Some((spec, strat, fam_name, x));
                }
            }
        }
        None
    }

    /// Shrinks a certified counterexample: first the smallest failing member of the graph's
    /// family (`cycle(n)`, `path(n)`, `complete(n)`, `hypercube(dim)`: up to [`SHRINK_MEMBERS`]
    /// sizes below the listed one whose n `[domain] n` lists, each with the file's tree, routing,
    /// constants and load families at that size), then the load vector by [`crate::search::shrink::shrink`] (the
    /// minimum load moved to 0, single loads lowered to 0, by half, by one while the claim still
    /// fails). Every kept state is certified at `trust` or stronger. Returns the counterexample
    /// and a note saying what was shrunk, if anything.
    fn shrink(&self, v: Found, trust: Trust) -> Result<(Found, Option<String>)> {
        let (si, pi) = v.at;
        let (gname, tname, s0) = &self.strategies[si];
        let pick = &self.constants.picks()[pi];
        let min_rank = Trust::strength(trust);
        // The smallest failing member of the family.
        let member = self.smallest_member(si, pick, min_rank);
        let (spec, strat, family, x0) = match member {
            Some((spec, strat, fam, x)) => (spec, std::borrow::Cow::Owned(strat), fam, x),
            None => (
                gname.clone(),
                std::borrow::Cow::Borrowed(s0),
                v.family.clone(),
                if self.reads_loads {
                    v.loads.clone()
                } else {
                    vec![0.0; s0.graph.n()]
                },
            ),
        };
        let n = strat.graph.n();
        let Some(case) = self.case_at(pick, n) else {
            return Ok((v, None));
        };
        let measures = GraphMeasures::new();
        let label = format!("{spec}, tree {tname}");
        let mut x = x0;
        let mut evals = 0;
        if self.reads_loads {
            let obj = ShrinkObjective {
                claim: self,
                s: &strat,
                label: &label,
                case: &case,
                measures: &measures,
                min_rank,
            };
            use crate::search::Objective;
            let start = crate::search::Found {
                eval: obj.eval(&x)?,
                loads: x.clone(),
                phase: family.clone(),
            };
            if obj.violates(&start.eval) {
                let integer = x.iter().all(|v| v.fract() == 0.0);
                let (small, e) = crate::search::shrink::shrink(&obj, start, integer)?;
                x = small.loads;
                evals = e;
            }
        }
        let Some(w) = self.violation_at(&strat, &label, &x, &case, &measures) else {
            return Ok((v, None));
        };
        let same_graph = spec == *gname;
        let same_loads = !self.reads_loads || x == v.loads;
        if same_graph && same_loads {
            return Ok((v, None));
        }
        let note = format!(
            "shrunk from {}{} ({}) to {}{}{}",
            v.source,
            if self.reads_loads {
                format!(" at loads {:?}", v.loads)
            } else {
                String::new()
            },
            v.values,
            label,
            if self.reads_loads {
                format!(" at loads {x:?}")
            } else {
                String::new()
            },
            if evals > 0 {
                format!(" ({evals} evaluations)")
            } else {
                String::new()
            }
        );
        Ok((
            Found {
                at: v.at,
                n,
                loads: if self.reads_loads { x } else { vec![] },
                source: label,
                family,
                constants: case.named(&self.constants),
                what: w.what,
                values: w.values,
                el: v.el,
            },
            Some(note),
        ))
    }
}
