//! The kind `condition`: an allocation-vector fact, checked exactly for every process and n of
//! the domain: the process's vector by rank satisfies C1(δ, ε) and C2(C) (Los–Sauerwald, SPAA
//! 2022, §2.2), where ε and C are expressions in `n` and the file's constants; with `tight = true`
//! also that ε is the best ε of C1 at δ and C the smallest C of C2, exactly.
//!
//! `[claim]` table: `delta = "1/2"`, `eps = "<expr in n>"`, `c2 = "<expr in n>"`, `tight = bool`.

use super::{Check, KindInfo, RunContext};
use crate::claim::schema::{FileError, Scalar, Theorem};
use crate::claim::verdict::{Searched, Status, Trust, Verdict, Witness};
use crate::condition::{best_c, best_eps, c1_violation, c2_violation, delta_n};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use crate::lang::{Exact, Expr, Slots};
use crate::process::Process;
use num_traits::ToPrimitive;
use std::collections::BTreeMap;

/// The registry entry.
pub static INFO: KindInfo = KindInfo {
    name: "condition",
    summary: "C1(δ, ε) and C2(C) of a process's allocation vector, exactly, with ε and C given as expressions in n (optionally tight)",
    build,
};

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimSection {
    delta: Scalar,
    eps: toml::Spanned<String>,
    c2: toml::Spanned<String>,
    #[serde(default)]
    tight: bool,
}

/// A built `condition` check.
pub struct Condition {
    t: Theorem,
    delta: Q,
    eps: Expr,
    c2: Expr,
    tight: bool,
    consts: Vec<Q>,
    processes: Vec<Box<dyn Process>>,
}

fn build(t: &Theorem) -> std::result::Result<Box<dyn Check>, FileError> {
    let c: toml::Spanned<ClaimSection> = t.claim_section()?;
    let cs = c.get_ref();
    let at = Some(c.span().start);
    let (_, delta) = cs
        .delta
        .value()
        .map_err(|e| t.error_at(at, format!("delta: {e}")))?;
    let mut names = vec!["n".to_string()];
    let mut consts = vec![Q::from_integer(0.into())];
    for (name, v) in &t.file.constants {
        match v.get_ref() {
            crate::claim::schema::ConstValue::One(s) => {
                let (_, r) = s.value().map_err(|e| {
                    t.error_at(Some(v.span().start), format!("constant `{name}`: {e}"))
                })?;
                names.push(name.clone());
                consts.push(r);
            }
            crate::claim::schema::ConstValue::Grid(_) => {
                return Err(t.error_at(
                    Some(v.span().start),
                    "the condition kind takes single-valued constants",
                ));
            }
        }
    }
    let name_refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let comp = |e: &toml::Spanned<String>, what: &str| {
        crate::lang::compile_value(e.get_ref(), &name_refs).map_err(|err| {
            crate::claim::setup::error_in_string(
                t,
                e.span().start,
                err.at,
                format!("{what}: {} (known: {})", err.message, names.join(", ")),
            )
        })
    };
    let eps = comp(&cs.eps, "eps")?;
    let c2 = comp(&cs.c2, "c2")?;
    let mut processes = Vec::new();
    for s in &t.file.setting.processes {
        let p = crate::process::parse(s.get_ref())
            .map_err(|e| t.error_at(Some(s.span().start), e.to_string()))?;
        if !p.info().rank_based {
            return Err(t.error_at(
                Some(s.span().start),
                format!(
                    "{} is not rank-based: its vector depends on the loads",
                    p.spec()
                ),
            ));
        }
        processes.push(p);
    }
    if processes.is_empty() {
        return Err(t.error_at(None, "[setting] processes is empty"));
    }
    let d = t.file.domain.get_ref();
    crate::claim::setup::plain_ns(t)?;
    for &n in &d.n {
        delta_n(n, &delta).map_err(|e| {
            t.error_at(Some(t.file.domain.span().start), format!("at n = {n}: {e}"))
        })?;
        for p in &processes {
            p.rank_probabilities_exact(n).map_err(|e| {
                t.error_at(Some(t.file.domain.span().start), format!("at n = {n}: {e}"))
            })?;
        }
    }
    Ok(Box::new(Condition {
        t: t.clone(),
        delta,
        eps,
        c2,
        tight: cs.tight,
        consts,
        processes,
    }))
}

impl Check for Condition {
    fn run(&self, ctx: &mut RunContext) -> Result<Verdict> {
        let d = self.t.file.domain.get_ref();
        let mut searched = Searched {
            n: d.n.clone(),
            sources: self.processes.len(),
            constant_combinations: 1,
            ..Searched::default()
        };
        let file = self.t.file_name();
        let mut worst: Option<(Q, Witness)> = None;
        for &n in &d.n {
            let mut vals = self.consts.clone();
            vals[0] = Q::from_integer(Int::from(n));
            let env = Slots(&vals);
            let eps = self
                .eps
                .eval(&Exact, &env, None)
                .map_err(|e| Error::invalid(&file, format!("eps at n = {n}: {e}")))?;
            let c2 = self
                .c2
                .eval(&Exact, &env, None)
                .map_err(|e| Error::invalid(&file, format!("c2 at n = {n}: {e}")))?;
            let k = delta_n(n, &self.delta)?;
            for p in &self.processes {
                let v = p.rank_probabilities_exact(n)?.ok_or_else(|| {
                    Error::Unsupported(format!("{} has no exact vector", p.spec()))
                })?;
                searched.add("exact", 1);
                let be = best_eps(&v, k)?;
                let bc = best_c(&v);
                // Slack: how far the claimed constants are from failing (≥ 0 iff both hold);
                // with `tight`, the larger deviation from the best constants, negated.
                let s1 = &be.eps - &eps;
                let s2 = &c2 - &bc.c;
                let mut slack = s1.clone().min(s2.clone());
                let mut what = format!(
                    "best ε*({}) = {} at k = {}, claimed ε = {eps}; smallest C = {} at rank {}, claimed C = {c2}",
                    self.delta, be.eps, be.witness_k, bc.c, bc.witness_i
                );
                let holds = c1_violation(&v, k, &eps).is_none() && c2_violation(&v, &c2).is_none();
                debug_assert_eq!(holds, slack >= Q::from_integer(0.into()));
                if self.tight {
                    let dev = num_traits::Signed::abs(&s1).max(num_traits::Signed::abs(&s2));
                    slack = -dev;
                    what.push_str(" (tight: both must be equal)");
                }
                let w = Witness {
                    n,
                    loads: vec![],
                    source: p.spec(),
                    constants: BTreeMap::new(),
                    constants_text: BTreeMap::new(),
                    exact: None,
                    lhs: format!("eps* = {}, C* = {}", be.eps, bc.c),
                    rhs: format!("eps = {eps}, C = {c2}"),
                    slack: slack.to_string(),
                    found_by: "exact".into(),
                    recheck: Some(what),
                };
                if let Some(pr) = ctx.progress {
                    pr(&format!("{} n={n} {}", self.t.id, p.spec()));
                }
                if worst.as_ref().is_none_or(|(s, _)| slack < *s) {
                    worst = Some((slack, w));
                }
            }
        }
        let (slack, w) = worst.ok_or_else(|| Error::Unsupported("nothing checked".into()))?;
        let zero = Q::from_integer(0.into());
        let status = if slack >= zero {
            Status::Holds
        } else {
            Status::Refuted
        };
        Ok(Verdict::of(&self.t, status, Trust::Exact)
            .with_slack(slack.to_f64())
            .with_witness(Some(w))
            .with_searched(searched)
            .with_notes(vec![
                "exact rational arithmetic for every listed n and process".into(),
            ]))
    }
}
