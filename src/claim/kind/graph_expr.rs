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
//! given = "!is_root"                    # optional: the elements where it is false are skipped
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

use super::graph::{FAMILIES, check_elements, load_vector_count, load_vectors};
use super::{Check, ConstantReport, RunContext, bisect_constant};
use crate::claim::schema::{FileError, Theorem};
use crate::claim::setup::{CaseValues, Constants};
use crate::claim::verdict::{Searched, Status, Trust, Verdict, Witness};
use crate::error::{Error, Result};
use crate::exact::Q;
use crate::graph::family::parse_graph;
use crate::graph::flow::Routing;
use crate::graph::quantities::{
    Element, GLOBAL, GraphMeasures, GraphState, Over, Value, edge_name_uses_loads, edge_names,
    element_count, local_names, uses_loads,
};
use crate::graph::strategy::Strategy;
use crate::graph::tree_spec::TreeSpec;
use crate::lang::{
    BinVar, BinVars, Domain, Enclosure, Env, Eval, EvalError, Exact, Float, Formula, Frame,
    Resolved, Scope,
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
    expr: Spanned<String>,
    #[serde(default)]
    over: Option<Spanned<String>>,
    #[serde(default)]
    given: Option<Spanned<String>>,
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
    match f.truth(&Exact, env, None, None) {
        Ok(b) => return Ok(Decision::Decided(b, Trust::Exact)),
        Err(EvalError::Unavailable(_)) | Err(EvalError::Undecided(_)) => {}
        Err(e) => return Err(e.to_string()),
    }
    let mut last = String::new();
    for prec in [64u64, 128, 256, 512, 1024, 2048, 4096] {
        match f.truth(&Enclosure { prec }, env, None, None) {
            Ok(b) => return Ok(Decision::Decided(b, Trust::Enclosure)),
            Err(EvalError::Undecided(w)) => last = w,
            Err(EvalError::Unavailable(_)) => {
                last.clear();
                break;
            }
            Err(e) => return Err(e.to_string()),
        }
    }
    if !last.is_empty() {
        return Ok(Decision::Undecided(format!(
            "undecided by enclosures up to 4096 bits: {last}"
        )));
    }
    match f.truth(&Float, env, None, Some(tol)) {
        Ok(b) => Ok(Decision::Decided(b, Trust::Float)),
        Err(EvalError::Undecided(w)) => Ok(Decision::Undecided(w)),
        Err(e) => Err(e.to_string()),
    }
}

/// The values of the comparisons of `f` at an element (for the report of a violation).
fn show_atoms(f: &Formula, env: &ElementEnv) -> String {
    f.atoms()
        .iter()
        .map(|(a, c, b)| {
            let show = |e: &crate::lang::Expr| -> String {
                match e.eval(&Exact, env, None) {
                    Ok(q) => q.to_string(),
                    Err(_) => match e.eval(&Float, env, None) {
                        Ok(v) => format!("{:.12e}", v.v.to_f64()),
                        Err(err) => format!("({err})"),
                    },
                }
            };
            format!("{} {} {}", show(a), c.symbol(), show(b))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// A built expression claim over graphs.
pub struct GraphExpr {
    t: Theorem,
    over: Over,
    expr: Formula,
    given: Option<Formula>,
    slots: Vec<SlotName>,
    constants: Constants,
    /// (graph label, tree label, strategy).
    strategies: Vec<(String, String, Strategy)>,
    families: Vec<String>,
    loads: Vec<Vec<f64>>,
    reads_loads: bool,
    tol: Q,
}

fn compile_formula_in(
    t: &Theorem,
    what: &str,
    s: &Spanned<String>,
    scope: &GraphScope,
) -> std::result::Result<Formula, FileError> {
    let at = s.span().start;
    let text = s.get_ref();
    let ast = crate::lang::parse(text).map_err(|e| {
        crate::claim::setup::error_in_string(t, at, e.at, format!("{what}: {}", e.message))
    })?;
    crate::lang::compile_formula(&ast, scope, false).map_err(|e| {
        crate::claim::setup::error_in_string(t, at, e.at, format!("{what}: {}", e.message))
    })
}

impl GraphExpr {
    fn build(t: &Theorem) -> std::result::Result<GraphExpr, FileError> {
        let c: Spanned<Section> = t.claim_section()?;
        let c_start = c.span().start;
        let at = Some(c_start);
        let cs = c.into_inner();
        let over = match &cs.over {
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
        };
        let constants = Constants::parse(t)?;
        for (j, name) in constants.names.iter().enumerate() {
            let clash = GLOBAL.contains(&name.as_str())
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
        let expr = compile_formula_in(t, "expr", &cs.expr, &scope)?;
        let given = match &cs.given {
            Some(g) => Some(compile_formula_in(t, "given", g, &scope)?),
            None => None,
        };
        // Binders over the vertices read the loads; binders over the edges when they read a
        // load of an endpoint.
        let names = edge_names(over);
        let reads = |u: crate::lang::Uses| {
            u.binders
                || names
                    .iter()
                    .enumerate()
                    .any(|(k, n)| u.edge_vars & (1u64 << k) != 0 && edge_name_uses_loads(n))
        };
        let binders = reads(expr.uses()) || given.as_ref().is_some_and(|g| reads(g.uses()));
        let reads_loads = scope.reads_loads.get() || binders;
        let routing = match &cs.routing {
            None => Routing::Auto,
            Some(r) => Routing::parse(r.get_ref())
                .map_err(|e| t.error_at(Some(r.span().start), e.to_string()))?,
        };
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
            return Err(t.error_at(at, "`graphs` is empty: list at least one graph"));
        }
        let domain = t.file.domain.get_ref();
        let dir = t.path.parent().map(|p| p.to_path_buf());
        let mut strategies = Vec::new();
        for g in &cs.graphs {
            let gr = parse_graph(g.get_ref(), &crate::input::Dir::new(dir.as_deref()))
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
                    .build(&gr, dir.as_deref())
                    .map_err(|e| t.error_at(Some(*tat), e.to_string()))?;
                let s = Strategy::with_routing(&gr, tree, routing)
                    .map_err(|e| t.error_at(Some(*tat), e.to_string()))?;
                strategies.push((g.get_ref().trim().to_string(), label.clone(), s));
            }
        }
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
            given,
            slots,
            constants,
            strategies,
            families,
            loads: cs.loads,
            reads_loads,
            tol,
        })
    }
}

/// The first violation (or undecided element).
struct Found {
    n: usize,
    loads: Vec<f64>,
    source: String,
    family: String,
    constants: BTreeMap<String, f64>,
    what: String,
    values: String,
}

/// What one evaluation of the claim found.
struct Outcome {
    violation: Option<Found>,
    float_violation: Option<Found>,
    undecided: Option<Found>,
    weakest: Trust,
    searched: Searched,
}

impl GraphExpr {
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
        let mut violation: Option<Found> = None;
        let mut undecided: Option<Found> = None;
        let mut float_violation: Option<Found> = None;
        let mut weakest = Trust::Exact;
        let rank_of = |t: Trust| match t {
            Trust::Exact => 3,
            Trust::Enclosure => 2,
            _ => 1,
        };
        let file_err = |msg: String| Error::invalid(self.t.file_name(), msg);
        for (gname, tname, s) in &self.strategies {
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
            for pick in &picks {
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
                for (fam, x) in &vectors {
                    let st = GraphState::new(s, x, &measures)
                        .map_err(|e| file_err(format!("{gname}: {e}")))?;
                    let mut ranks: Vec<usize> = (0..n).collect();
                    ranks.sort_by(|&a, &b| x[b].total_cmp(&x[a]).then(a.cmp(&b)));
                    let mut count = 0u64;
                    for el in st.elements(self.over) {
                        let env = ElementEnv {
                            st: &st,
                            el,
                            over: self.over,
                            slots: &self.slots,
                            constants: &self.constants,
                            case: &case,
                            ranks: &ranks,
                        };
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
                        let found = |what: String| Found {
                            n,
                            loads: if self.reads_loads { x.clone() } else { vec![] },
                            source: format!("{gname}, tree {tname}"),
                            family: fam.clone(),
                            constants: named.clone(),
                            what,
                            values: show_atoms(&self.expr, &env),
                        };
                        match decide(&self.expr, &env, &self.tol)
                            .map_err(|e| file_err(format!("expr at {}: {e}", at())))?
                        {
                            Decision::Decided(true, tr) => {
                                if rank_of(tr) < rank_of(weakest) {
                                    weakest = tr;
                                }
                            }
                            Decision::Decided(false, Trust::Float) => {
                                if float_violation.is_none() {
                                    float_violation = Some(found(at()));
                                }
                                weakest = Trust::Float;
                            }
                            Decision::Decided(false, tr) => {
                                if violation.is_none() {
                                    violation = Some(found(at()));
                                    if rank_of(tr) < rank_of(weakest) {
                                        weakest = tr;
                                    }
                                }
                            }
                            Decision::Undecided(w) => {
                                if undecided.is_none() {
                                    undecided = Some(found(format!("{}: {w}", at())));
                                }
                            }
                        }
                    }
                    searched.add(&format!("{gname} {tname} {fam}"), count);
                }
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
        })
    }
}

impl Check for GraphExpr {
    fn run(&self, ctx: &mut RunContext) -> Result<Verdict> {
        let Outcome {
            violation,
            float_violation,
            undecided,
            weakest,
            searched,
        } = self.evaluate(&[], None, ctx)?;
        let mut notes = Vec::new();
        let (status, shown) = if let Some(v) = violation {
            notes.push("the first violation is the counterexample".into());
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
        Ok(Verdict {
            links: Vec::new(),
            observations: Vec::new(),
            id: self.t.id.clone(),
            verdict: status,
            expected: self.t.file.expected,
            trust: weakest,
            slack: None,
            witness,
            searched,
            notes,
        })
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
        let file_err = |m: String| Error::invalid(self.t.file_name(), m);
        let j = self
            .constants
            .index(name)
            .ok_or_else(|| file_err(format!("`{name}` is not a constant of the file")))?;
        let direction = *self
            .t
            .file
            .tighten
            .get(name)
            .ok_or_else(|| file_err(format!("[tighten] does not list `{name}`")))?;
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
        let vals: Vec<Q> = self.constants.defs[j]
            .iter()
            .filter_map(|d| d.expr.as_constant())
            .collect();
        if vals.len() < 2 {
            return Err(file_err(format!(
                "constant `{name}`: give a grid of two numbers [low, high] as the bracket of the search"
            )));
        }
        let lo0 = vals.iter().min().cloned().expect("two values");
        let hi0 = vals.iter().max().cloned().expect("two values");
        let mut per_n = Vec::new();
        for &n in &ns {
            let holds = |v: &Q, ctx: &mut RunContext| -> Result<(bool, Trust)> {
                let o = self.evaluate(&[(j, v.clone())], Some(n), ctx)?;
                if let Some(u) = o.float_violation.or(o.undecided) {
                    return Err(file_err(format!(
                        "`{name}` = {v}: {} is not decided exactly or by enclosures",
                        u.what
                    )));
                }
                Ok((o.violation.is_none(), o.weakest))
            };
            per_n.push(bisect_constant(n, &lo0, &hi0, direction, ctx, holds)?);
        }
        let points: Vec<(f64, f64)> = per_n.iter().map(|t| (t.n as f64, t.value)).collect();
        let fits = if points.len() >= 2 {
            crate::search::fit_growth(&points)
        } else {
            vec![]
        };
        Ok(ConstantReport {
            id: self.t.id.clone(),
            name: name.to_string(),
            direction,
            per_n,
            fits,
        })
    }
}
