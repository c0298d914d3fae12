//! Running the claim: the load-vector setting's states (explicit states of `[domain]`, then the
//! rounds of [`crate::search::run`], then near-tie perturbations of the tightest states where
//! ties change the law) are judged one by one by the engine's search policy
//! ([`crate::claim::engine::sweep`], one sweep over every case of a link, a case a group): a
//! state the floats flag (a violation, or a margin within the float resolution) is certified on
//! the spot, and the search goes on past a state the certification clears. The search stops at
//! its first counterexample in search order and shrinks it; the verdict rests on that state, or
//! else on the sweep's outcome (an undecided flagged state, else the tightest state of all
//! cases, with the weakest trust of the states certified).

use super::Inequality;
use crate::claim::XFloat;
use crate::claim::case::{Alloc, Case};
use crate::claim::engine::float::Atom;
use crate::claim::engine::sweep::{self, Setting, Sweep};
use crate::claim::kind::RunContext;
use crate::claim::range::{BoxOutcome, RangeAt, RangePoint, box_text};
use crate::claim::state::State;
use crate::claim::trust::{Certification, Evidence, decide};
use crate::claim::verdict::{Searched, Status, Trust, Verdict, Witness};
use crate::error::{Error, Result};
use crate::exact::Q;
use crate::lang::EvalError;
use crate::search::{self, Eval, Family, Found, Objective, Plan, StateList};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

fn lib(e: EvalError, file: &str) -> Error {
    match e {
        EvalError::Error(e) => *e,
        other => Error::invalid(file, other.to_string()),
    }
}

/// The states evaluated, in order, and their keys.
type Evaluated = (Vec<Vec<f64>>, HashSet<Vec<u64>>);

/// A state of the load-vector setting as the engine keeps it: its case (`n`, the source of
/// loads, the combination of the constants) and its loads.
#[derive(Debug, Clone)]
struct LinkState {
    n: usize,
    alloc: usize,
    case: usize,
    loads: Vec<f64>,
}

/// The search objective of one link at one case: each state the search evaluates is judged by
/// the link's sweep.
struct LinkObjective<'a> {
    ineq: &'a Inequality,
    link: usize,
    case: &'a Case<'a>,
    /// The case among the link's cases: (`n`, source, combination).
    at: (usize, usize, usize),
    /// The engine's search policy over every case of the link.
    sweep: &'a RefCell<Sweep<LinkState>>,
    /// Certifications made, by state.
    certified: RefCell<HashMap<Vec<u64>, Certification>>,
    /// With range constants: every state evaluated, in order (each decided over the ranges
    /// after the search, [`Inequality::decide_ranges`]), and their keys.
    seen: Option<RefCell<Evaluated>>,
}

fn key(x: &[f64]) -> Vec<u64> {
    x.iter().map(|v| v.to_bits()).collect()
}

impl LinkObjective<'_> {
    fn certification(&self, x: &[f64]) -> Result<Certification> {
        if let Some(c) = self.certified.borrow().get(&key(x)) {
            return Ok(c.clone());
        }
        let st = State::new(self.case, x.to_vec())?;
        let c = self.ineq.certify_with(self.link, &st, false);
        self.certified.borrow_mut().insert(key(x), c.clone());
        Ok(c)
    }

    /// The engine's description of the state `loads` of this case.
    fn state(&self, loads: &[f64]) -> LinkState {
        let (n, alloc, case) = self.at;
        LinkState {
            n,
            alloc,
            case,
            loads: loads.to_vec(),
        }
    }
}

/// The load-vector setting at one state of one case, as the engine's search policy sees it.
struct AtLoads<'o, 's> {
    obj: &'o LinkObjective<'o>,
    st: &'s State<'s>,
}

impl Setting for AtLoads<'_, '_> {
    type State = ();
    fn float(&self, _: &()) -> Result<Option<Atom>> {
        let o = self.obj;
        let a = o.ineq.float_atom(o.link, self.st).map_err(|e| {
            Error::invalid(
                o.ineq.t.file_name(),
                format!(
                    "the claim cannot be evaluated at n = {}, loads {:?}: {e}",
                    o.case.n,
                    crate::lang::syntax::excerpt(&format!("{:?}", self.st.x()), 120)
                ),
            )
        })?;
        Ok(Some(a))
    }
    fn certify(&self, _: &()) -> Result<Certification> {
        self.obj.certification(self.st.x())
    }
    fn inside(&self, _: &()) -> Result<Option<bool>> {
        let o = self.obj;
        if o.ineq.given.is_empty() {
            return Ok(None);
        }
        let inside = o
            .ineq
            .given_holds(self.st)
            .map_err(|e| lib(e, &o.ineq.t.file_name()))?;
        Ok(Some(inside))
    }
}

impl Objective for LinkObjective<'_> {
    fn n(&self) -> usize {
        self.case.n
    }

    fn eval(&self, loads: &[f64]) -> Result<Eval> {
        if let Some(seen) = &self.seen {
            let mut s = seen.borrow_mut();
            // Beyond the limit a state is not kept (the verdict then cannot be `holds`).
            let cap = crate::limits::RANGE_STATES.max as usize;
            if s.1.len() <= cap && s.1.insert(key(loads)) {
                s.0.push(loads.to_vec());
            }
        }
        let st = State::new(self.case, loads.to_vec())?;
        let size: f64 = loads.iter().sum();
        let (seen, a) = self.sweep.borrow_mut().visit_atom(
            &AtLoads { obj: self, st: &st },
            &(),
            size,
            || self.state(loads),
        )?;
        let mut slack = a.slack.v;
        match seen {
            sweep::Seen::Outside => {
                // Outside the hypotheses: not a state the claim is about. An enormous slack
                // keeps it out of violations and tightest states.
                let huge = XFloat::exp(XFloat::from_f64(1e15));
                return Ok(Eval {
                    lhs: XFloat::ZERO,
                    rhs: XFloat::ZERO,
                    slack: huge,
                });
            }
            // Certified to hold: a tight state, never a violation.
            sweep::Seen::Holds => slack = slack.abs(),
            sweep::Seen::Violation => {
                slack = XFloat::from_f64(-f64::MIN_POSITIVE).min(slack.abs().neg());
            }
            // Within the float resolution past the certification budget: a tie within
            // rounding, not a counterexample (the engine counts it as evidence only).
            sweep::Seen::Unchecked => slack = slack.abs(),
            sweep::Seen::Clear | sweep::Seen::Open => {
                if !a.holds && slack >= XFloat::ZERO {
                    // A strict comparison at slack exactly 0 fails.
                    slack = XFloat::from_f64(-f64::MIN_POSITIVE);
                }
            }
        }
        Ok(Eval {
            lhs: a.lhs.v,
            rhs: a.rhs.v,
            slack,
        })
    }

    fn violates(&self, e: &Eval) -> bool {
        e.slack < XFloat::ZERO
    }

    fn screen(&self) -> Option<Box<dyn search::Screen + '_>> {
        // With range constants every state is kept for the decision over the ranges.
        if self.seen.is_some() {
            return None;
        }
        Some(Box::new(super::screen::screen(
            self.ineq, self.link, self.case,
        )?))
    }
}

/// The outcome of one link: verdict parts.
struct LinkOutcome {
    status: Status,
    trust: Trust,
    slack: Option<f64>,
    witness: Option<Witness>,
    searched: Searched,
    notes: Vec<String>,
}

/// The time budget of a link's search (`balloc search --budget`), shared evenly by its cases:
/// case `k` of `total` searches in fresh rounds until `t0 + (deadline − t0)·k/total`.
struct CaseClock {
    /// When the search of the link started.
    t0: std::time::Instant,
    /// The end of the budget (`None`: no budget, one round per case).
    deadline: Option<std::time::Instant>,
    /// The number of cases (at least 1).
    total: usize,
}

impl CaseClock {
    /// The instant case `k` (counted from 1) stops starting fresh rounds.
    fn until(&self, k: usize) -> Option<std::time::Instant> {
        self.deadline.map(|d| {
            self.t0
                + d.saturating_duration_since(self.t0)
                    .mul_f64(k as f64 / self.total as f64)
        })
    }
}

/// What the search of one link gathered over its cases, before the spot is certified.
#[derive(Default)]
struct LinkTally {
    /// The space searched.
    searched: Searched,
    /// The tightest state over all cases.
    worst: Option<Spot>,
    /// The first counterexample (the search stops there).
    violation: Option<Spot>,
    /// The engine's conclusion over every state the search evaluated.
    outcome: Option<sweep::Outcome<LinkState>>,
    /// The states decided over the ranges.
    range_tally: RangeTally,
    /// The most sources of loads and combinations of the constants at one `n`.
    sources: usize,
    combos: usize,
}

impl LinkTally {
    /// Keeps case (`n`, `alloc`, `case`)'s tightest state if it is the tightest so far, and its
    /// violation (with the point of the ranges, if found there); true when that violation ends
    /// the search.
    fn record(
        &mut self,
        n: usize,
        alloc: usize,
        case: usize,
        best: Option<Found>,
        found: Option<Found>,
        mut range_point: Option<RangePoint>,
    ) -> bool {
        if let Some(b) = best
            && self
                .worst
                .as_ref()
                .is_none_or(|w| b.eval.slack < w.found.eval.slack)
        {
            self.worst = Some(Spot {
                found: b,
                n,
                alloc,
                case,
                point: Vec::new(),
            });
        }
        if let Some(v) = found
            && self.violation.is_none()
        {
            self.violation = Some(Spot {
                found: v,
                n,
                alloc,
                case,
                point: range_point.take().unwrap_or_default(),
            });
            return true;
        }
        false
    }
}

/// The states decided over the ranges of the range constants.
#[derive(Default)]
struct RangeTally {
    /// States decided.
    states: u64,
    /// Boxes examined in all.
    boxes: usize,
    /// States where a box was left undecided.
    undecided: u64,
    /// The first of them, with the box.
    first_undecided: Option<String>,
    /// The ranges, `eps ∈ (0, 1/2]`.
    text: String,
}

/// A state found by the search, with where it was found.
struct Spot {
    found: Found,
    n: usize,
    alloc: usize,
    case: usize,
    /// The values of the range constants at a counterexample found over the ranges.
    point: RangePoint,
}

impl Spot {
    /// The state the engine's outcome names, with its float evaluation.
    fn of(st: LinkState, atom: &Atom) -> Spot {
        Spot {
            found: Found {
                loads: st.loads,
                eval: Eval {
                    lhs: atom.lhs.v,
                    rhs: atom.rhs.v,
                    slack: atom.slack.v,
                },
                phase: "search".into(),
            },
            n: st.n,
            alloc: st.alloc,
            case: st.case,
            point: Vec::new(),
        }
    }
}

impl Inequality {
    fn plan(&self, ctx: &RunContext, n: usize, case: usize, round: u64) -> Plan {
        let d = self.t.file.domain.get_ref();
        let families = match &d.families {
            None => search::FAMILIES.iter().map(|(_, f)| *f).collect(),
            Some(v) => v
                .iter()
                .filter_map(|s| Family::parse(s.get_ref()))
                .collect(),
        };
        let regressions = ctx.regressions.as_ref().map(|dir| {
            let suffix = if self.chain {
                format!("-link{case}")
            } else {
                String::new()
            };
            let _ = suffix;
            dir.join(format!("{}.txt", self.t.id))
        });
        Plan {
            families: if round == 0 { families } else { vec![] },
            exhaustive: if round == 0 {
                d.exhaustive.map(|e| (e.max_n, e.max_load))
            } else {
                None
            },
            // Later rounds (`balloc search --budget`) run random states and the optimiser only.
            random: if round == 0 {
                d.random
            } else {
                d.random.max(64)
            }
            .saturating_mul(ctx.effort),
            optimise: if round == 0 {
                d.optimise
            } else {
                d.optimise.max(200)
            }
            .saturating_mul(ctx.effort),
            starts: d.starts,
            seed: d
                .seed
                .wrapping_add((n as u64) << 32)
                .wrapping_add(case as u64 * 0x9e37_79b9)
                .wrapping_add(round.wrapping_mul(0x2545_f491_4f6c_dd1d)),
            integer: d.integer,
            stop_at_violation: true,
            regressions,
        }
    }

    /// Whether near-tie states can matter: ties change the law (random ties in a batch, or fixed
    /// ties) and the domain has real loads.
    fn near_ties_matter(&self, case: &Case) -> bool {
        let d = self.t.file.domain.get_ref();
        let ties_matter =
            case.setting.batch > 1 || case.setting.ties == crate::loads::TieRule::Fixed;
        !d.integer && ties_matter && !matches!(case.alloc, Alloc::None)
    }

    /// Runs every link; a chain reports the first link that fails.
    pub(super) fn run_links(
        &self,
        ctx: &mut RunContext,
        ns: &[usize],
        overrides: &[(usize, Q)],
    ) -> Result<Verdict> {
        if !self.chain {
            let o = self.run_link(ctx, 0, ns, overrides)?;
            return Ok(Verdict::of(&self.t, o.status, o.trust)
                .with_slack(o.slack)
                .with_witness(o.witness)
                .with_searched(o.searched)
                .with_notes(o.notes));
        }
        let mut outcomes = Vec::new();
        for k in 0..self.links.len() {
            outcomes.push(self.run_link(ctx, k, ns, overrides)?);
        }
        let mut searched = Searched::default();
        for o in &outcomes {
            searched.merge(&o.searched);
        }
        searched.n = ns.to_vec();
        searched.sources = outcomes
            .iter()
            .map(|o| o.searched.sources)
            .max()
            .unwrap_or(0);
        searched.constant_combinations = outcomes
            .iter()
            .map(|o| o.searched.constant_combinations)
            .max()
            .unwrap_or(0);
        searched.exhaustive_bound = outcomes.iter().find_map(|o| o.searched.exhaustive_bound);
        let texts: Vec<String> = self.links.iter().map(|l| l.text.clone()).collect();
        let parts: Vec<crate::claim::chain::LinkPart> = outcomes
            .iter()
            .map(|o| crate::claim::chain::LinkPart {
                status: o.status,
                trust: o.trust,
                slack: o.slack,
                witness: o.witness.clone(),
                notes: o.notes.clone(),
            })
            .collect();
        let (k, status, trust, notes, links) = crate::claim::chain::combine(&texts, &parts);
        Ok(Verdict::of(&self.t, status, trust)
            .with_slack(outcomes[k].slack)
            .with_witness(outcomes[k].witness.clone())
            .with_searched(searched)
            .with_notes(notes)
            .with_links(links))
    }

    fn witness(&self, case: &Case, f: &Found) -> Witness {
        Witness {
            n: case.n,
            loads: if self.state_dependent {
                f.loads.clone()
            } else {
                vec![]
            },
            source: case.alloc.label(),
            constants: {
                let mut c = case.named_constants();
                if self.setup.batch.len() > 1 || case.setting.batch > 1 {
                    c.insert("b".into(), case.setting.batch as f64);
                }
                c
            },
            constants_text: {
                let mut c = case.named_constants_text();
                if self.setup.batch.len() > 1 || case.setting.batch > 1 {
                    c.insert("b".into(), case.setting.batch.to_string());
                }
                c
            },
            exact: None,
            lhs: f.eval.lhs.to_string(),
            rhs: f.eval.rhs.to_string(),
            // −0 is 0 (a tie).
            slack: if f.eval.slack.is_zero() {
                XFloat::ZERO.to_string()
            } else {
                f.eval.slack.to_string()
            },
            found_by: f.phase.clone(),
            recheck: None,
        }
    }

    /// Searches link `link` over every case at the numbers of bins `ns`: the search gathers the
    /// first counterexample or else the tightest state ([`Self::search_link`]), which is then
    /// certified into the link's outcome ([`Self::certify_spot`]).
    fn run_link(
        &self,
        ctx: &mut RunContext,
        link: usize,
        ns: &[usize],
        overrides: &[(usize, Q)],
    ) -> Result<LinkOutcome> {
        let mut tally = self.search_link(ctx, link, ns, overrides)?;
        let outcome = tally
            .outcome
            .take()
            .expect("the search ends with the sweep's outcome");
        tally.searched.sources = tally.sources;
        tally.searched.constant_combinations = tally.combos;
        tally.searched.add("certified", outcome.tally.certified);
        let notes = outcome.notes();
        if !self.given.is_empty() && outcome.tally.inside == 0 {
            return Ok(LinkOutcome {
                status: Status::Inconclusive,
                trust: Trust::Float,
                slack: None,
                witness: None,
                searched: tally.searched,
                notes,
            });
        }
        // The verdict rests on the search's first counterexample (shrunk); else on the state
        // the engine's outcome names where it is not `holds` (a flagged state left undecided,
        // a group's tightest state certified false); else on the tightest state searched.
        let spot = match (tally.violation.take(), tally.worst.take()) {
            (Some(v), _) => v,
            (None, w) => match (outcome.status, outcome.spot, w) {
                (Status::Holds, _, Some(w)) => w,
                (_, Some(o), _) => Spot::of(o.at, &o.atom),
                (_, None, Some(w)) => w,
                (_, None, None) => {
                    return Err(Error::Unsupported("nothing was searched".into()));
                }
            },
        };
        let mut o = self.certify_spot(
            link,
            spot,
            overrides,
            tally.searched,
            &tally.range_tally,
            notes,
        )?;
        if o.status == Status::Holds {
            // Every state the engine certified on the way is evidence of the verdict too.
            o.trust = o.trust.weaker(outcome.trust);
        }
        Ok(o)
    }

    /// The time budget of a link's search over the cases at `ns` (`balloc search --budget`),
    /// started now and shared evenly by the cases.
    fn case_clock(
        &self,
        ctx: &RunContext,
        ns: &[usize],
        overrides: &[(usize, Q)],
    ) -> Result<CaseClock> {
        let file = self.t.file_name();
        let seed = self.t.file.domain.get_ref().seed;
        let t0 = std::time::Instant::now();
        let mut total_cases = 0usize;
        for &n in ns {
            let cases = self
                .setup
                .cases(&self.t, n, overrides)
                .map_err(|e| Error::invalid(&file, e.to_string()))?;
            total_cases += self
                .allocs_by_case(n, seed, &cases)?
                .iter()
                .map(Vec::len)
                .sum::<usize>();
        }
        Ok(CaseClock {
            t0,
            deadline: ctx.deadline,
            total: total_cases.max(1),
        })
    }

    /// Searches link `link` case by case (every source of loads, every combination of the
    /// constants, at each `n` of `ns`), stopping at the first counterexample; with range
    /// constants, every state searched in a case is then decided over the ranges.
    fn search_link(
        &self,
        ctx: &mut RunContext,
        link: usize,
        ns: &[usize],
        overrides: &[(usize, Q)],
    ) -> Result<LinkTally> {
        let f = &self.t.file;
        let file = self.t.file_name();
        let seed = f.domain.get_ref().seed;
        let mut tally = LinkTally {
            searched: Searched {
                n: ns.to_vec(),
                exhaustive_bound: f.domain.get_ref().exhaustive.map(|e| (e.max_n, e.max_load)),
                ..Searched::default()
            },
            ..LinkTally::default()
        };
        let has_ranges = self.setup.constants.ranges.iter().any(Option::is_some);
        let clock = self.case_clock(ctx, ns, overrides)?;
        let sweep = RefCell::new(Sweep::new(crate::exact::to_f64(&self.setup.tolerance)));
        let mut case_index = 0;
        for &n in ns {
            let cases = self
                .setup
                .cases(&self.t, n, overrides)
                .map_err(|e| Error::invalid(&file, e.to_string()))?;
            let by_case = self.allocs_by_case(n, seed, &cases)?;
            let sources = by_case.iter().map(Vec::len).max().unwrap_or(0);
            tally.sources = tally.sources.max(sources);
            tally.combos = tally.combos.max(cases.len());
            for ai in 0..sources {
                for (ci, values) in cases.iter().enumerate() {
                    let Some(alloc) = by_case[ci].get(ai) else {
                        continue;
                    };
                    case_index += 1;
                    let case = Case::new(
                        &self.tables,
                        alloc,
                        values.clone(),
                        &self.setup.weights,
                        self.setup.ties,
                    )?;
                    let obj = LinkObjective {
                        ineq: self,
                        link,
                        case: &case,
                        at: (n, ai, ci),
                        sweep: &sweep,
                        certified: RefCell::new(HashMap::new()),
                        seen: has_ranges.then(|| RefCell::new(Default::default())),
                    };
                    let mut range_point: Option<RangePoint> = None;
                    // The ranges are valid at the case before anything is searched.
                    let ranges = if has_ranges {
                        self.ranges_at(&case)?
                    } else {
                        Vec::new()
                    };
                    let (mut found, best) =
                        self.search_case(ctx, &obj, case_index, &clock, &mut tally.searched)?;
                    if let Some(seen) = &obj.seen
                        && found.is_none()
                        && tally.range_tally.undecided == 0
                        && let Some((x, point)) = self.decide_seen_over_ranges(
                            link,
                            &case,
                            seen,
                            &ranges,
                            &mut tally.range_tally,
                        )?
                    {
                        found = Some(x);
                        range_point = Some(point);
                    }
                    if let Some(p) = ctx.progress {
                        p(&format!("{} n={n} {}", self.t.id, alloc.label()));
                    }
                    // The case's tightest state is certified unless it already was.
                    sweep
                        .borrow_mut()
                        .end_group(|w| obj.certification(&w.loads))?;
                    if tally.record(n, ai, ci, best, found, range_point) {
                        tally.outcome = Some(sweep.into_inner().finish());
                        return Ok(tally);
                    }
                }
            }
        }
        tally.outcome = Some(sweep.into_inner().finish());
        Ok(tally)
    }

    /// Searches one case of link `obj.link`: the single point of a claim that does not depend
    /// on the loads; otherwise the explicit states, then rounds of the search (fresh seeds
    /// while the case's share of the time budget lasts), then the near ties of the tightest
    /// state where ties change the law. Returns the first violation and the tightest state.
    fn search_case(
        &self,
        ctx: &mut RunContext,
        obj: &LinkObjective,
        case_index: usize,
        clock: &CaseClock,
        searched: &mut Searched,
    ) -> Result<(Option<Found>, Option<Found>)> {
        let n = obj.case.n;
        let mut found: Option<Found> = None;
        let mut best: Option<Found> = None;
        let offer = |x: Vec<f64>,
                     phase: &str,
                     found: &mut Option<Found>,
                     best: &mut Option<Found>|
         -> Result<()> {
            let e = obj.eval(&x)?;
            let fnd = Found {
                loads: x,
                eval: e,
                phase: phase.to_string(),
            };
            if obj.violates(&e) && found.is_none() {
                *found = Some(fnd.clone());
            }
            if best.as_ref().is_none_or(|b| e.slack < b.eval.slack) {
                *best = Some(fnd);
            }
            Ok(())
        };
        if !self.state_dependent {
            offer(vec![0.0; n], "point", &mut found, &mut best)?;
            searched.add("point", 1);
            return Ok((found, best));
        }
        // Explicit states first.
        let mut k = 0;
        for x in self.setup.states.iter().filter(|s| s.len() == n) {
            offer(x.clone(), "states", &mut found, &mut best)?;
            k += 1;
            if found.is_some() {
                break;
            }
        }
        searched.add("states", k);
        let mut round = 0u64;
        let mut local = StateList::default();
        while found.is_none() {
            let plan = self.plan(ctx, n, case_index, round);
            let states: &mut dyn search::StateSource = match ctx.states.as_mut() {
                Some(s) if round == 0 => &mut **s,
                _ => &mut local,
            };
            let r = search::run(obj, &plan, states)?;
            searched.merge(&r.searched);
            if let Some(w) = r.worst
                && best.as_ref().is_none_or(|b| w.eval.slack < b.eval.slack)
            {
                best = Some(w);
            }
            if r.violation.is_some() {
                found = r.violation;
                break;
            }
            let until = clock.until(case_index.min(clock.total));
            if until.is_none_or(|d| std::time::Instant::now() >= d) {
                break;
            }
            round += 1;
        }
        // Near ties of the tightest state, where ties change the law.
        if found.is_none() && self.near_ties_matter(obj.case) {
            let base = best.as_ref().map(|b| b.loads.clone());
            let mut k = 0;
            for x in base.iter().flat_map(|b| search::near_ties(b)) {
                offer(x, "near-tie", &mut found, &mut best)?;
                k += 1;
                if found.is_some() {
                    break;
                }
            }
            searched.add("near-tie", k);
        }
        Ok((found, best))
    }

    /// Decides every state the search of one case evaluated (`seen`, in order) over the ranges
    /// of the range constants ([`Self::decide_ranges`]), counting into `tally`. Stops at the
    /// first state refuted over the ranges (returned, with the point of the ranges where it
    /// fails) or left undecided (then the verdict can no longer be `holds`).
    fn decide_seen_over_ranges(
        &self,
        link: usize,
        case: &Case,
        seen: &RefCell<Evaluated>,
        ranges: &[RangeAt],
        tally: &mut RangeTally,
    ) -> Result<Option<(Found, RangePoint)>> {
        let file = self.t.file_name();
        let n = case.n;
        let mut refuted = None;
        let states = std::mem::take(&mut seen.borrow_mut().0);
        let cap = crate::limits::RANGE_STATES.max as usize;
        if states.len() > cap {
            tally.undecided += 1;
            tally.first_undecided = Some(format!(
                "n = {n}: the search evaluated more than {cap} states (limits::RANGE_STATES); the range is decided at none of them"
            ));
        }
        for x in states.into_iter().take_while(|_| tally.undecided == 0) {
            let st = State::new(case, x.clone())?;
            tally.states += 1;
            match self
                .decide_ranges(link, &st, ranges)
                .map_err(|e| lib(e, &file))?
            {
                BoxOutcome::Proved { boxes } => tally.boxes += boxes,
                BoxOutcome::Refuted { point, boxes } => {
                    tally.boxes += boxes;
                    let found = Found {
                        loads: x,
                        eval: search::Eval {
                            lhs: XFloat::ZERO,
                            rhs: XFloat::ZERO,
                            slack: XFloat::from_f64(-f64::MIN_POSITIVE),
                        },
                        phase: "range".into(),
                    };
                    refuted = Some((found, point));
                    break;
                }
                BoxOutcome::Undecided { at, why, boxes } => {
                    // The verdict can no longer be `holds`: the pass stops here
                    // (a refutation at the remaining states is left unsearched).
                    tally.boxes += boxes;
                    tally.undecided += 1;
                    tally.first_undecided = Some(format!(
                        "n = {n}, loads {}: {} ({why})",
                        crate::lang::syntax::excerpt(&format!("{x:?}"), 120),
                        box_text(ranges, &at)
                    ));
                    break;
                }
            }
        }
        if tally.text.is_empty() {
            tally.text = ranges
                .iter()
                .map(|r| format!("{} ∈ {}", r.name, r.text()))
                .collect::<Vec<_>>()
                .join(", ");
        }
        Ok(refuted)
    }

    /// Certifies link `link` at `spot` (the first counterexample, or else the tightest state)
    /// and builds the link's outcome: status and trust decided from the float and certified
    /// evidence ([`decide`]), the verdict over the ranges, the witness with its exact sides.
    fn certify_spot(
        &self,
        link: usize,
        spot: Spot,
        overrides: &[(usize, Q)],
        mut searched: Searched,
        range_tally: &RangeTally,
        mut notes: Vec<String>,
    ) -> Result<LinkOutcome> {
        let file = self.t.file_name();
        let tol = crate::exact::to_f64(&self.setup.tolerance);
        let seed = self.t.file.domain.get_ref().seed;
        let has_ranges = self.setup.constants.ranges.iter().any(Option::is_some);
        // The evidence at the counterexample or tightest state.
        let values = self.spot_values(&spot, overrides)?;
        let allocs = self.allocs(spot.n, seed, Some(&values))?;
        let case = Case::new(
            &self.tables,
            &allocs[spot.alloc],
            values,
            &self.setup.weights,
            self.setup.ties,
        )?;
        let st = State::new(&case, spot.found.loads.clone())?;
        let atom = self.float_atom(link, &st).map_err(|e| lib(e, &file))?;
        let cert = self.certify(link, &st);
        let resolution = atom.resolution(tol);
        let evidence = Evidence {
            float_holds: atom.holds,
            margin: atom.slack.v.abs(),
            resolution,
            error_bound: None,
            certified: cert.clone(),
        };
        let (mut status, mut trust) = decide(&evidence);
        let mut w = self.witness(&case, &spot.found);
        let mut s = spot.found.eval.slack.to_f64() + 0.0;
        if !spot.point.is_empty() {
            // A counterexample found over the ranges: its sides at the point.
            w.lhs = atom.lhs.v.to_string();
            w.rhs = atom.rhs.v.to_string();
            w.slack = atom.slack.v.to_string();
            s = atom.slack.v.to_f64() + 0.0;
            notes.push(format!(
                "refuted over the ranges ({}): certified false at {} at this state (found by bisecting the ranges)",
                range_tally.text,
                self.point_text(&spot.point)
            ));
        } else if has_ranges && status == Status::Holds {
            searched.add("range", range_tally.states);
            if range_tally.undecided > 0 {
                status = Status::Inconclusive;
            } else if trust == Trust::Exact {
                trust = Trust::Enclosure;
            }
            notes.push(range_holds_note(range_tally));
        }
        let (recheck, bits) = recheck_text(&cert);
        searched.precision_bits = bits;
        self.evidence_notes(&evidence, s, status, trust, &mut notes);
        if trust == Trust::Exact
            && let Some([l, r, s]) = self.exact_sides(link, &st)
        {
            w.exact = Some(crate::claim::verdict::ExactSides {
                lhs: l.to_string(),
                rhs: r.to_string(),
                slack: s.to_string(),
            });
        }
        w.recheck = Some(recheck.clone());
        notes.push(recheck);
        Ok(LinkOutcome {
            status,
            trust,
            slack: Some(s).filter(|s| s.is_finite()),
            witness: Some(w),
            searched,
            notes,
        })
    }

    /// The values of the constants at `spot`: its combination of the constants, with the range
    /// constants at the point where a counterexample over the ranges was found.
    fn spot_values(
        &self,
        spot: &Spot,
        overrides: &[(usize, Q)],
    ) -> Result<crate::claim::setup::CaseValues> {
        let file = self.t.file_name();
        let mut values = self
            .setup
            .cases(&self.t, spot.n, overrides)
            .map_err(|e| Error::invalid(&file, e.to_string()))?
            .swap_remove(spot.case);
        for (j, q) in &spot.point {
            values.consts[*j] = crate::claim::setup::ConstValueAt {
                exact: Some(q.clone()),
                float: crate::lang::Domain::rational(&crate::lang::Float, q)
                    .map_err(|e| lib(e, &file))?,
            };
        }
        Ok(values)
    }

    /// The values of the range constants at `point`, `eps = 1/4, c = 2`.
    fn point_text(&self, point: &RangePoint) -> String {
        point
            .iter()
            .map(|(j, q)| format!("{} = {q}", self.setup.constants.names[*j]))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The notes on how the link's verdict was reached from the `evidence` at its spot (float
    /// slack `s`): decided by the certified evaluation below the float resolution, a float
    /// violation left unconfirmed, a `holds` that is evidence only.
    fn evidence_notes(
        &self,
        evidence: &Evidence,
        s: f64,
        status: Status,
        trust: Trust,
        notes: &mut Vec<String>,
    ) {
        let resolution = evidence.resolution;
        if evidence.margin <= resolution {
            notes.push(format!(
                "the smallest float slack {s:e} is below the numerical resolution {resolution}: decided by the certified evaluation"
            ));
        }
        if status == Status::Inconclusive && !evidence.float_holds {
            notes.push(
                "the floats see a violation that no certified evaluation confirms: not refuted"
                    .into(),
            );
        }
        if !self.state_dependent && status == Status::Holds && trust == Trust::Exact {
            // A claim that does not depend on the load vector is decided at one point per case.
        } else if status == Status::Holds {
            notes.push("holds on the searched space; this is evidence, not a proof".into());
        }
    }
}

/// The note on a link that held at every sample point of the ranges: decided over the ranges
/// at every searched state, or left undecided at one (the pass stops there).
fn range_holds_note(range_tally: &RangeTally) -> String {
    if range_tally.undecided > 0 {
        format!(
            "held at every sample point, but over the ranges ({}) a state was left undecided after {} state(s) were decided (the pass stops there): {}",
            range_tally.text,
            range_tally.states.saturating_sub(1),
            range_tally.first_undecided.clone().unwrap_or_default()
        )
    } else {
        format!(
            "holds at every searched state for every value of the ranges ({}): each of the {} state(s) decided over the ranges by {} box(es) of certified enclosures; the tightest state below is at a sample point of the ranges",
            range_tally.text, range_tally.states, range_tally.boxes
        )
    }
}

/// The recheck line of a witness (what the certified evaluation concluded) and the precision
/// it reached in bits.
fn recheck_text(cert: &Certification) -> (String, Option<u64>) {
    match cert {
        Certification::Decided { text, bits, .. } => (format!("certified: {text}"), *bits),
        Certification::Undecided { bits, text } => (
            format!("the enclosures do not separate up to {bits} bits: {text}"),
            Some(*bits),
        ),
        Certification::NoRoute(why) => (format!("not certified: {why}"), None),
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::search::enumerate_sorted_screened;

    /// The objective with its screen turned off: every vector evaluated in full.
    struct Unscreened<'a>(&'a LinkObjective<'a>);

    impl Objective for Unscreened<'_> {
        fn n(&self) -> usize {
            self.0.n()
        }
        fn eval(&self, loads: &[f64]) -> Result<Eval> {
            self.0.eval(loads)
        }
        fn violates(&self, e: &Eval) -> bool {
            self.0.violates(e)
        }
    }

    fn file(process: &str, potentials: &str, constants: &str, expr: &str) -> String {
        format!(
            "title = \"screen\"\nkind = \"inequality\"\nexpected = \"open\"\nstatement = \"s\"\n\
             source = {{ locator = \"l\", provenance = \"derived\" }}\n\
             [setting]\nprocesses = [\"{process}\"]\npotentials = [{potentials}]\n\
             [constants]\n{constants}\n[claim]\nexpr = \"{expr}\"\n\
             [domain]\nn = [5]\nexhaustive = {{ max_n = 5, max_load = 7 }}\n"
        )
    }

    /// Runs `f` on the built claim of `text` and its first case at n = 5.
    fn at_first_case(text: &str, f: impl FnOnce(&Inequality, &Case)) {
        let t = crate::theorem_from_str(text).unwrap();
        let ineq = Inequality::new(&t).unwrap();
        let alloc = ineq.allocs(5, 0, None).unwrap().remove(0);
        let values = ineq.setup.cases(&t, 5, &[]).unwrap().remove(0);
        let (w, ties) = (&ineq.setup.weights, ineq.setup.ties);
        let case = Case::new(&ineq.tables, &alloc, values, w, ties).unwrap();
        f(&ineq, &case);
    }

    /// For each claim: at every sorted vector of n = 5 with loads ≤ 7 (C(11, 4) = 330), the
    /// screen's bounds contain the slack the full float evaluation gives, and the search (the
    /// tightest states kept, the violation, the counts) is the same with and without the screen.
    fn the_screen_bounds_the_full_evaluation_and_changes_no_search() {
        let claims = [
            ("two-choice", "", "", "E_Upsilon <= Upsilon + 1"),
            ("two-choice", "", "", "dE_Upsilon <= 1 - 2*gap/n"),
            // False at many vectors: the first violation and its shrinking must be the same.
            ("two-choice", "", "", "dE_Upsilon <= 0.5"),
            (
                "one-plus-beta(beta=0.5)",
                "\"gamma(alpha=0.2)\"",
                "c = 3",
                "E_Gamma <= Gamma*(1 - 0.01/n) + c",
            ),
            (
                "quantile(delta=0.4)",
                "\"phi(alpha=0.3)\", \"psi(alpha=0.3)\"",
                "",
                "R_Phi <= 1.1 && dE_Psi < 1 || spread > 5",
            ),
            (
                "d-choice(d=3)",
                "\"quadratic\"",
                "k = 2",
                "!(Upsilon^2 >= exp(gap) * ln(W + 2) - k) || abs(ymin) == max(spread, 1)",
            ),
            (
                "two-choice",
                "\"gamma(alpha=0.5)\"",
                "",
                "cosh(gap) + sinh(ymin) <= min(Gamma, W + 1) / (1 + spread)",
            ),
        ];
        for (process, pots, constants, expr) in claims {
            at_first_case(&file(process, pots, constants, expr), |ineq, case| {
                let sweep = RefCell::new(Sweep::new(0.0));
                let objective = || LinkObjective {
                    ineq,
                    link: 0,
                    case,
                    at: (case.n, 0, 0),
                    sweep: &sweep,
                    certified: RefCell::new(HashMap::new()),
                    seen: None,
                };
                let obj = objective();
                let mut screen = obj
                    .screen()
                    .unwrap_or_else(|| panic!("no screen for {expr}"));
                let mut bounded = 0;
                let visited = enumerate_sorted_screened(5, 7, screen.as_mut(), &mut |x, b| {
                    let full = obj.eval(x).unwrap().slack.to_f64();
                    if let Some((lo, hi)) = b {
                        assert!(
                            lo <= full && full <= hi,
                            "{expr} at {x:?}: {full} outside [{lo}, {hi}]"
                        );
                        assert!(
                            hi - lo <= 1e-6 * (1.0 + full.abs()),
                            "{expr} at {x:?}: [{lo}, {hi}] is wide"
                        );
                        bounded += 1;
                    }
                    true
                });
                assert_eq!(visited, 330);
                // Division by Υ = 0 and the like leave a few vectors to the full evaluation.
                assert!(bounded >= 320, "{expr}: {bounded} of 330 bounded");
                let plan = Plan {
                    families: vec![],
                    exhaustive: Some((5, 7)),
                    random: 0,
                    optimise: 0,
                    starts: 3,
                    seed: 1,
                    integer: true,
                    stop_at_violation: false,
                    regressions: None,
                };
                let (a, b) = (objective(), objective());
                let with = search::run(&a, &plan, &mut StateList::default()).unwrap();
                let without =
                    search::run(&Unscreened(&b), &plan, &mut StateList::default()).unwrap();
                assert_eq!(with.worst, without.worst, "{expr}");
                assert_eq!(with.violation, without.violation, "{expr}");
                assert_eq!(with.searched.states, without.searched.states, "{expr}");
            });
        }
    }

    /// Claims the screen cannot bound get none: hypotheses, per-bin sums, a potential without a
    /// shift form, expectations under a law that is not rank-based, two steps.
    fn claims_outside_the_screen_have_none() {
        let claims = [
            ("two-choice", "\"absolute\"", "Delta <= W"),
            ("two-choice", "", "sum(y^2) <= Upsilon + 1"),
            ("mean-thinning", "", "E_Upsilon <= Upsilon + 1"),
            ("two-choice", "", "E2_Upsilon <= Upsilon + 2"),
            ("two-choice", "", "floor(gap) <= spread"),
            ("two-choice", "", "sqrt(Upsilon) <= spread * n"),
        ];
        for (process, pots, expr) in claims {
            at_first_case(&file(process, pots, "", expr), |ineq, case| {
                assert!(
                    super::super::screen::screen(ineq, 0, case).is_none(),
                    "{expr}"
                );
            });
        }
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "the_screen_bounds_the_full_evaluation_and_changes_no_search",
            run: the_screen_bounds_the_full_evaluation_and_changes_no_search,
            panics: None,
        },
        crate::unit::Test {
            name: "claims_outside_the_screen_have_none",
            run: claims_outside_the_screen_have_none,
            panics: None,
        },
    ];
}
