//! The kind `lower-bound`: the exact parts of the batched lower-bound constructions of
//! Los–Sauerwald, *Balanced Allocations in Batches* (SPAA 2022), §7 (constructions as derived in
//! docs/derivations.md §7; [`crate::lower_bound::batched`]), compared in exact rationals with values
//! the file states.
//!
//! `[claim]` table:
//! * `item = "fixed-ties-excess"`: from `x = 0` with fixed tie-breaking, the last bin receives
//!   `Bin(b, pₙ)` balls in the first batch; checks `E[K − b/n] = value` (an expression in `n` and
//!   `b`) and, when given, `pₙ = p` (an expression in `n`), for every n of the domain and every
//!   `b` of the list `b`;
//! * `item = "largest-probability-gain"`: the bin with the largest probability gains
//!   `b(max pᵢ − 1/n)` on the mean in expectation during one batch; checks the gain (`value`),
//!   and optionally `max pᵢ` (`p`);
//! * `item = "random-ties-extremes"`: the exact laws of the heaviest bin (`max x − W/n`) and of
//!   the lightest bin (`W/n − min x`) after `batches` batches of `b` balls from `x = 0` with random
//!   tie-breaking, against the laws listed in `laws` (each `{ n, b, batches, heaviest = { "v" =
//!   "prob", ... }, lightest = { ... } }`, values and probabilities exact decimals or fractions);
//!   optionally the expected heaviest excess (`mean_heaviest`).
//!
//! Every process of `[setting] processes` must be rank-based. The verdict is `holds` when every
//! instance agrees exactly, `refuted` at the first disagreement (trust `exact`).

use super::{Check, KindInfo, RunContext};
use crate::claim::schema::{FileError, Theorem};
use crate::claim::verdict::{Searched, Status, Trust, Verdict, Witness};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use crate::lang::{Exact, Expr, Slots};
use crate::lower_bound::{Law, batched, mean};
use crate::process::Process;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// The registry entry.
pub static INFO: KindInfo = KindInfo {
    name: "lower-bound",
    summary: "exact laws and expectations of the batched lower-bound constructions (fixed ties, random ties, largest allocation probability) against stated values",
    build,
};

/// The accepted items.
pub const ITEMS: [&str; 3] = [
    "fixed-ties-excess",
    "largest-probability-gain",
    "random-ties-extremes",
];

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct LawSpec {
    n: usize,
    b: u64,
    batches: u32,
    heaviest: BTreeMap<String, String>,
    lightest: BTreeMap<String, String>,
    #[serde(default)]
    mean_heaviest: Option<String>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimSection {
    item: toml::Spanned<String>,
    #[serde(default)]
    b: Vec<u64>,
    #[serde(default)]
    value: Option<toml::Spanned<String>>,
    #[serde(default)]
    p: Option<toml::Spanned<String>>,
    #[serde(default)]
    laws: Vec<toml::Spanned<LawSpec>>,
}

/// One law as stated in the file.
struct StatedLaw {
    n: usize,
    b: u64,
    batches: u32,
    heaviest: Law,
    lightest: Law,
    mean_heaviest: Option<Q>,
}

/// A built `lower-bound` check.
pub struct LowerBound {
    t: Theorem,
    item: String,
    b: Vec<u64>,
    value: Option<Expr>,
    p: Option<Expr>,
    laws: Vec<StatedLaw>,
    processes: Vec<Box<dyn Process>>,
}

fn ratio(s: &str) -> std::result::Result<Q, String> {
    crate::spec::parse_ratio(s.trim()).map_err(|e| e.to_string())
}

fn build(t: &Theorem) -> std::result::Result<Box<dyn Check>, FileError> {
    let c: toml::Spanned<ClaimSection> = t.claim_section()?;
    let cs = c.get_ref();
    let item = cs.item.get_ref().clone();
    if !ITEMS.contains(&item.as_str()) {
        return Err(t.error_at(
            Some(cs.item.span().start),
            format!("unknown item `{item}`; accepted: {}", ITEMS.join(", ")),
        ));
    }
    let names = ["n", "b"];
    let comp = |e: &Option<toml::Spanned<String>>, what: &str| {
        e.as_ref()
            .map(|e| {
                crate::lang::compile_value(e.get_ref(), &names).map_err(|err| {
                    crate::claim::setup::error_in_string(
                        t,
                        e.span().start,
                        err.at,
                        format!("{what}: {} (known: n, b)", err.message),
                    )
                })
            })
            .transpose()
    };
    let value = comp(&cs.value, "value")?;
    let p = comp(&cs.p, "p")?;
    let at = Some(c.span().start);
    let mut laws = Vec::new();
    match item.as_str() {
        "random-ties-extremes" => {
            if cs.laws.is_empty() {
                return Err(t.error_at(at, "random-ties-extremes needs `laws`"));
            }
            if value.is_some() || p.is_some() || !cs.b.is_empty() {
                return Err(t.error_at(
                    at,
                    "random-ties-extremes takes `laws` only (not `b`, `value`, `p`)",
                ));
            }
            for l in &cs.laws {
                let lat = Some(l.span().start);
                let ls = l.get_ref();
                if ls.n < 2 || ls.b == 0 || ls.batches == 0 {
                    return Err(t.error_at(lat, "a law needs n ≥ 2, b ≥ 1 and batches ≥ 1"));
                }
                let parse = |m: &BTreeMap<String, String>, what: &str| {
                    let mut law = Law::new();
                    for (k, v) in m {
                        let kv = ratio(k)
                            .map_err(|e| t.error_at(lat, format!("{what}: value `{k}`: {e}")))?;
                        let pv = ratio(v).map_err(|e| {
                            t.error_at(lat, format!("{what}: probability `{v}`: {e}"))
                        })?;
                        if pv <= Q::zero() || pv > Q::one() {
                            return Err(t.error_at(
                                lat,
                                format!("{what}: probability {v} of value {k} is not in (0, 1]"),
                            ));
                        }
                        law.insert(kv, pv);
                    }
                    Ok(law)
                };
                let mean_heaviest = ls
                    .mean_heaviest
                    .as_ref()
                    .map(|m| ratio(m).map_err(|e| t.error_at(lat, format!("mean_heaviest: {e}"))))
                    .transpose()?;
                laws.push(StatedLaw {
                    n: ls.n,
                    b: ls.b,
                    batches: ls.batches,
                    heaviest: parse(&ls.heaviest, "heaviest")?,
                    lightest: parse(&ls.lightest, "lightest")?,
                    mean_heaviest,
                });
            }
        }
        _ => {
            if value.is_none() || cs.b.is_empty() {
                return Err(t.error_at(at, format!("{item} needs `value` and a list `b`")));
            }
            if !cs.laws.is_empty() {
                return Err(t.error_at(at, format!("{item} takes no `laws`")));
            }
            if cs.b.contains(&0) {
                return Err(t.error_at(at, "every batch size in `b` must be ≥ 1"));
            }
        }
    }
    let wanted = if item == "random-ties-extremes" {
        crate::loads::TieRule::Random
    } else {
        crate::loads::TieRule::Fixed
    };
    if t.file.setting.ties != wanted {
        return Err(t.error_at(
            None,
            format!(
                "{item} is a construction with {wanted:?} ties: set [setting] ties accordingly"
            ),
        ));
    }
    let mut processes = Vec::new();
    for s in &t.file.setting.processes {
        let pr = crate::process::parse(s.get_ref())
            .map_err(|e| t.error_at(Some(s.span().start), e.to_string()))?;
        if !pr.info().rank_based {
            return Err(t.error_at(
                Some(s.span().start),
                format!("{} is not rank-based", pr.spec()),
            ));
        }
        processes.push(pr);
    }
    if processes.is_empty() {
        return Err(t.error_at(None, "[setting] processes is empty"));
    }
    let d = t.file.domain.get_ref();
    if item != "random-ties-extremes" || !d.n.is_empty() {
        crate::claim::setup::plain_ns(t)?;
    }
    Ok(Box::new(LowerBound {
        t: t.clone(),
        item,
        b: cs.b.clone(),
        value,
        p,
        laws,
        processes,
    }))
}

fn show(law: &Law) -> String {
    let parts: Vec<String> = law.iter().map(|(v, p)| format!("{v}: {p}")).collect();
    format!("{{{}}}", parts.join(", "))
}

impl LowerBound {
    fn eval(&self, e: &Expr, n: usize, b: u64, what: &str) -> Result<Q> {
        let vals = [Q::from_integer(Int::from(n)), Q::from_integer(Int::from(b))];
        e.eval(&Exact, &Slots(&vals), None).map_err(|err| {
            Error::invalid(
                self.t.file_name(),
                format!("{what} at n = {n}, b = {b}: {err}"),
            )
        })
    }

    /// Every instance: (n, process, b, computed, stated, agrees).
    fn instances(&self, ctx: &mut RunContext) -> Result<Vec<Witness>> {
        let mut out = Vec::new();
        let wit =
            |n: usize, src: String, lhs: String, rhs: String, ok: bool, what: String| Witness {
                n,
                loads: vec![],
                source: src,
                constants: BTreeMap::new(),
                constants_text: BTreeMap::new(),
                exact: None,
                lhs,
                rhs,
                slack: if ok { "0".into() } else { "-1".into() },
                found_by: "exact".into(),
                recheck: Some(what),
            };
        for pr in &self.processes {
            if self.item == "random-ties-extremes" {
                for l in &self.laws {
                    let e = batched::batched_extremes(pr.as_ref(), l.n, l.b, l.batches)?;
                    let ok_h = e.heaviest == l.heaviest;
                    let ok_l = e.lightest == l.lightest;
                    let ok_m = l
                        .mean_heaviest
                        .as_ref()
                        .is_none_or(|m| mean(&e.heaviest) == *m);
                    let total: Q = e.heaviest.values().sum();
                    let ok = ok_h && ok_l && ok_m && total.is_one();
                    out.push(wit(
                        l.n,
                        pr.spec(),
                        format!(
                            "heaviest {}, lightest {}, E[heaviest] = {}",
                            show(&e.heaviest),
                            show(&e.lightest),
                            mean(&e.heaviest)
                        ),
                        format!(
                            "heaviest {}, lightest {}{}",
                            show(&l.heaviest),
                            show(&l.lightest),
                            l.mean_heaviest
                                .as_ref()
                                .map(|m| format!(", E[heaviest] = {m}"))
                                .unwrap_or_default()
                        ),
                        ok,
                        format!(
                            "b = {}, {} batches, random ties, from x = 0",
                            l.b, l.batches
                        ),
                    ));
                    if let Some(p) = ctx.progress {
                        p(&format!("{} n={} {}", self.t.id, l.n, pr.spec()));
                    }
                }
                continue;
            }
            for &n in &self.t.file.domain.get_ref().n {
                for &b in &self.b {
                    let (rank, prob, computed, law_mean) = match self.item.as_str() {
                        "fixed-ties-excess" => {
                            let (p, law) = batched::fixed_ties_excess(pr.as_ref(), n, n - 1, b)?;
                            let m = mean(&law);
                            (n, p.clone(), batched::expected_excess(&p, n, b), m)
                        }
                        _ => {
                            let (rank, pmax, gain) =
                                batched::largest_probability_gain(pr.as_ref(), n, b)?;
                            let (_, law) = batched::fixed_ties_excess(pr.as_ref(), n, rank - 1, b)?;
                            (rank, pmax, gain, mean(&law))
                        }
                    };
                    let stated = self.eval(self.value.as_ref().expect("checked"), n, b, "value")?;
                    let stated_p = self
                        .p
                        .as_ref()
                        .map(|e| self.eval(e, n, b, "p"))
                        .transpose()?;
                    // Two routes: the closed form b(p − 1/n) and the mean of the exact binomial law.
                    let ok = computed == stated
                        && law_mean == stated
                        && stated_p.as_ref().is_none_or(|q| *q == prob);
                    out.push(wit(
                        n,
                        pr.spec(),
                        format!(
                            "rank {rank}: p = {prob}, b(p − 1/n) = {computed}, mean of the binomial law = {law_mean}"
                        ),
                        format!(
                            "value = {stated}{}",
                            stated_p.map(|q| format!(", p = {q}")).unwrap_or_default()
                        ),
                        ok,
                        format!("b = {b}, fixed ties, from x = 0"),
                    ));
                }
                if let Some(p) = ctx.progress {
                    p(&format!("{} n={n} {}", self.t.id, pr.spec()));
                }
            }
        }
        Ok(out)
    }
}

impl Check for LowerBound {
    fn run(&self, ctx: &mut RunContext) -> Result<Verdict> {
        let inst = self.instances(ctx)?;
        let mut ns: Vec<usize> = inst.iter().map(|w| w.n).collect();
        ns.sort_unstable();
        ns.dedup();
        let mut searched = Searched {
            n: ns,
            sources: self.processes.len(),
            constant_combinations: 1,
            ..Searched::default()
        };
        searched.add("exact", inst.len() as u64);
        let bad = inst.iter().find(|w| w.slack != "0").cloned();
        let (status, w) = match bad {
            Some(w) => (Status::Refuted, Some(w)),
            None => (Status::Holds, inst.last().cloned()),
        };
        Ok(Verdict {
            links: Vec::new(),
            observations: Vec::new(),
            id: self.t.id.clone(),
            verdict: status,
            expected: self.t.file.expected,
            trust: Trust::Exact,
            slack: Some(if status == Status::Holds { 0.0 } else { -1.0 }),
            witness: w,
            searched,
            notes: vec![format!(
                "{}: {} instances computed in exact rationals (closed form and exact law)",
                self.item,
                inst.len()
            )],
        })
    }
}
