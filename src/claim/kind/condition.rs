//! The kind `condition`: an allocation-vector fact, checked exactly for every process and n of
//! the domain: the process's vector by rank satisfies C1(δ, ε) and C2(C) (Los–Sauerwald, SPAA
//! 2022, §2.2), where ε and C are expressions in `n` and the file's constants; with `tight = true`
//! also that ε is the best ε of C1 at δ and C the smallest C of C2, exactly.
//!
//! `[claim]` table: `delta = "1/2"`, `eps = "<expr in n>"`, `c2 = "<expr in n>"`, `tight = bool`.
//! `delta`, `eps` and `c2` are expressions in `n` and the file's constants; a constant may be a
//! grid (every combination is a case), and a process parameter whose value names a constant
//! takes the constant's value in each combination ([`with_constant_values`]:
//! `one-plus-beta(beta=beta)`), so that one file states a family over its parameter range. A
//! constant of `[tighten]` is bisected per n by the shared constant finder
//! ([`crate::claim::tighten::Finder`]), each value decided exactly.

use super::{Check, ConstantReport, KindInfo, RunContext};
use crate::claim::schema::{FileError, Scalar, Theorem};
use crate::claim::setup::Constants;
use crate::claim::tighten::{Finder, Trial};
use crate::claim::verdict::{Searched, Status, Trust, Verdict, Witness};
use crate::condition::{best_c, best_eps, c1_violation, c2_violation, delta_n};
use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use crate::lang::{Exact, Expr, Slots};
use crate::process::Process;
use num_traits::ToPrimitive;

/// The registry entry.
pub static INFO: KindInfo = KindInfo {
    name: "condition",
    summary: "C1(δ, ε) and C2(C) of a process's allocation vector, exactly, with ε and C given as expressions in n (optionally tight)",
    build,
};

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimSection {
    delta: toml::Spanned<Scalar>,
    eps: toml::Spanned<String>,
    c2: toml::Spanned<String>,
    #[serde(default)]
    tight: bool,
}

/// A built `condition` check.
pub struct Condition {
    t: Theorem,
    /// δ, ε and C: expressions in `n` and the constants (slot 0 is `n`, slot `1 + j` constant
    /// `j`).
    delta: Expr,
    eps: Expr,
    c2: Expr,
    tight: bool,
    constants: Constants,
    /// The processes as written: a parameter value that is the name of a constant takes the
    /// constant's value in each combination (`one-plus-beta(beta=beta)`).
    specs: Vec<toml::Spanned<String>>,
}

/// One (n, combination of the constants) of a condition claim: the constants' exact values, the
/// slots of `n` and the constants, δ and the processes built with the constants' values.
struct CaseAt {
    values: Vec<(String, Q)>,
    slots: Vec<Q>,
    delta: Q,
    processes: Vec<Box<dyn Process>>,
}

/// The spec `spec` with every parameter value that names a constant replaced by the constant's
/// exact value: `one-plus-beta(beta=beta)` with `beta = 1/16` is `one-plus-beta(beta=1/16)`.
///
/// ```
/// use balloc::claim::kind::condition::with_constant_values;
/// use balloc::exact::Q;
/// let beta = ("beta".to_string(), Q::new(1.into(), 16.into()));
/// assert_eq!(with_constant_values("one-plus-beta(beta=beta)", &[beta.clone()]), "one-plus-beta(beta=1/16)");
/// assert_eq!(with_constant_values("d-choice(d=3)", &[beta]), "d-choice(d=3)");
/// ```
pub fn with_constant_values(spec: &str, values: &[(String, Q)]) -> String {
    let Some((name, rest)) = spec.split_once('(') else {
        return spec.to_string();
    };
    let Some(args) = rest.strip_suffix(')') else {
        return spec.to_string();
    };
    let args: Vec<String> = args
        .split(',')
        .map(|a| {
            let (key, value) = match a.split_once('=') {
                Some((k, v)) => (Some(k), v),
                None => (None, a),
            };
            let value = match values.iter().find(|(c, _)| c == value.trim()) {
                Some((_, q)) => q.to_string(),
                None => value.to_string(),
            };
            match key {
                Some(k) => format!("{k}={value}"),
                None => value,
            }
        })
        .collect();
    format!("{name}({})", args.join(","))
}

fn build(t: &Theorem) -> std::result::Result<Box<dyn Check>, FileError> {
    let c: toml::Spanned<ClaimSection> = t.claim_section()?;
    let cs = c.get_ref();
    let constants = Constants::parse(t)?;
    let mut names = vec!["n".to_string()];
    names.extend(constants.names.iter().cloned());
    let name_refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let comp = |text: &str, at: usize, what: &str| {
        crate::lang::compile_value(text, &name_refs).map_err(|err| {
            crate::claim::setup::error_in_string(
                t,
                at,
                err.at,
                format!("{what}: {} (known: {})", err.message, names.join(", ")),
            )
        })
    };
    let delta_at = cs.delta.span().start;
    let delta = match cs.delta.get_ref() {
        Scalar::Text(text) => comp(text, delta_at, "delta")?,
        other => {
            let (_, q) = other
                .value()
                .map_err(|e| t.error_at(Some(delta_at), format!("delta: {e}")))?;
            comp(&q.to_string(), delta_at, "delta")?
        }
    };
    let check = Condition {
        t: t.clone(),
        delta,
        eps: comp(cs.eps.get_ref(), cs.eps.span().start, "eps")?,
        c2: comp(cs.c2.get_ref(), cs.c2.span().start, "c2")?,
        tight: cs.tight,
        constants,
        specs: t.file.setting.processes.clone(),
    };
    if check.specs.is_empty() {
        return Err(t.error_at(None, "[setting] processes is empty"));
    }
    crate::claim::setup::plain_ns(t)?;
    // Every case is built once here, so that a bad process, δ or constant is an error naming
    // its field before anything runs.
    for &n in &t.file.domain.get_ref().n {
        for pick in check.constants.picks() {
            check.case_at(n, &pick, &[])?;
        }
    }
    Ok(Box::new(check))
}

impl Condition {
    /// The case at `n` and the combination `pick` of the constants' grids; errors name the
    /// field.
    fn case_at(
        &self,
        n: usize,
        pick: &[usize],
        overrides: &[(usize, Q)],
    ) -> std::result::Result<CaseAt, FileError> {
        let t = &self.t;
        let domain_at = Some(t.file.domain.span().start);
        let consts = self.constants.evaluate(t, n, None, pick, overrides)?;
        let mut values = Vec::new();
        let mut slots = vec![Q::from_integer(Int::from(n))];
        for (j, v) in consts.iter().enumerate() {
            let q = v.exact.clone().ok_or_else(|| {
                t.error_at(
                    Some(self.constants.at[j]),
                    format!(
                        "constant `{}` is not rational at n = {n}: the condition kind is exact",
                        self.constants.names[j]
                    ),
                )
            })?;
            values.push((self.constants.names[j].clone(), q.clone()));
            slots.push(q);
        }
        let at_n = |e: &dyn std::fmt::Display| {
            let combo: Vec<String> = values.iter().map(|(c, q)| format!("{c} = {q}")).collect();
            let combo = if combo.is_empty() {
                String::new()
            } else {
                format!(", {}", combo.join(", "))
            };
            format!("at n = {n}{combo}: {e}")
        };
        let delta = self
            .delta
            .eval(&Exact, &Slots(&slots), None)
            .map_err(|e| t.error_at(domain_at, format!("delta {}", at_n(&e))))?;
        delta_n(n, &delta).map_err(|e| t.error_at(domain_at, at_n(&e)))?;
        let mut processes = Vec::new();
        for s in &self.specs {
            let spec = with_constant_values(s.get_ref(), &values);
            let p = crate::process::parse(&spec)
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
            p.rank_probabilities_exact(n)
                .map_err(|e| t.error_at(domain_at, at_n(&e)))?;
            processes.push(p);
        }
        Ok(CaseAt {
            values,
            slots,
            delta,
            processes,
        })
    }
}

impl Check for Condition {
    fn run(&self, ctx: &mut RunContext) -> Result<Verdict> {
        let ns = self.t.file.domain.get_ref().n.clone();
        self.verdict(&ns, &[], ctx)
    }

    /// The constant finder: the largest (or smallest) value of a constant of `[tighten]` for which
    /// the claim holds at every process and combination of the other constants, per n, by
    /// bisection from the file's value (each value decided exactly).
    fn tighten(
        &self,
        name: &str,
        ns: Option<&[usize]>,
        ctx: &mut RunContext,
    ) -> Result<ConstantReport> {
        let finder = Finder::new(&self.t, name, &self.constants.names)?;
        let j = finder.index;
        let ns: Vec<usize> = ns
            .map(|v| v.to_vec())
            .unwrap_or_else(|| self.t.file.domain.get_ref().n.clone());
        let mut per_n = Vec::new();
        for n in ns {
            let pick = vec![0; self.constants.names.len()];
            let start = self
                .case_at(n, &pick, &[])
                .map_err(|e| Error::invalid(self.t.file_name(), e.to_string()))?
                .values[j]
                .1
                .to_f64()
                .unwrap_or(1.0);
            per_n.push(finder.starting_at(n, start, 1e-9, |q| {
                let v = self.verdict(&[n], &[(j, q.clone())], ctx)?;
                let kept = v.verdict == Status::Holds;
                Ok(Trial::of(v, kept))
            })?);
        }
        Ok(finder.report(per_n))
    }
}

impl Condition {
    /// The verdict at the numbers of bins `ns`, with `overrides` fixing constants (the constant
    /// finder; an overridden constant's grid is not iterated).
    fn verdict(
        &self,
        ns: &[usize],
        overrides: &[(usize, Q)],
        ctx: &mut RunContext,
    ) -> Result<Verdict> {
        let mut picks = self.constants.picks();
        for (j, _) in overrides {
            picks.retain(|p| p[*j] == 0);
        }
        let mut searched = Searched {
            n: ns.to_vec(),
            sources: self.specs.len(),
            constant_combinations: picks.len(),
            ..Searched::default()
        };
        let file = self.t.file_name();
        let mut worst: Option<(Q, Witness)> = None;
        for &n in ns {
            for pick in &picks {
                let case = self
                    .case_at(n, pick, overrides)
                    .map_err(|e| Error::invalid(&file, e.to_string()))?;
                let env = Slots(&case.slots);
                let combo = || {
                    case.values
                        .iter()
                        .map(|(c, q)| format!(", {c} = {q}"))
                        .collect::<String>()
                };
                let eps = self.eps.eval(&Exact, &env, None).map_err(|e| {
                    Error::invalid(&file, format!("eps at n = {n}{}: {e}", combo()))
                })?;
                let c2 = self
                    .c2
                    .eval(&Exact, &env, None)
                    .map_err(|e| Error::invalid(&file, format!("c2 at n = {n}{}: {e}", combo())))?;
                let k = delta_n(n, &case.delta)?;
                for p in &case.processes {
                    let v = p.rank_probabilities_exact(n)?.ok_or_else(|| {
                        Error::Unsupported(format!("{} has no exact vector", p.spec()))
                    })?;
                    searched.add("exact", 1);
                    let (slack, w) = self.judge((n, k), &v, &case, (&eps, &c2), p.spec())?;
                    if let Some(pr) = ctx.progress {
                        pr(&format!("{} n={n} {}", self.t.id, p.spec()));
                    }
                    if worst.as_ref().is_none_or(|(s, _)| slack < *s) {
                        worst = Some((slack, w));
                    }
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
            .with_notes(vec![if self.constants.names.is_empty() {
                "exact rational arithmetic for every listed n and process".into()
            } else {
                format!(
                    "exact rational arithmetic for every listed n and process, at each of the {} combination(s) of the constants",
                    picks.len()
                )
            }]))
    }
}

impl Condition {
    /// The slack of the claimed ε and C at one vector `v` (δn = `k`) and the witness showing
    /// the best constants: `≥ 0` iff both hold; with `tight`, minus the larger deviation from
    /// the best constants.
    fn judge(
        &self,
        (n, k): (usize, usize),
        v: &[Q],
        case: &CaseAt,
        (eps, c2): (&Q, &Q),
        spec: String,
    ) -> Result<(Q, Witness)> {
        let be = best_eps(v, k)?;
        let bc = best_c(v);
        let s1 = &be.eps - eps;
        let s2 = c2 - &bc.c;
        let mut slack = s1.clone().min(s2.clone());
        let mut what = format!(
            "best ε*({}) = {} at k = {}, claimed ε = {eps}; smallest C = {} at rank {}, claimed C = {c2}",
            case.delta, be.eps, be.witness_k, bc.c, bc.witness_i
        );
        let holds = c1_violation(v, k, eps).is_none() && c2_violation(v, c2).is_none();
        debug_assert_eq!(holds, slack >= Q::from_integer(0.into()));
        if self.tight {
            let dev = num_traits::Signed::abs(&s1).max(num_traits::Signed::abs(&s2));
            slack = -dev;
            what.push_str(" (tight: both must be equal)");
        }
        let w = Witness {
            n,
            loads: vec![],
            source: spec,
            constants: case
                .values
                .iter()
                .map(|(c, q)| (c.clone(), q.to_f64().unwrap_or(f64::NAN)))
                .collect(),
            constants_text: case
                .values
                .iter()
                .map(|(c, q)| (c.clone(), q.to_string()))
                .collect(),
            exact: None,
            lhs: format!("eps* = {}, C* = {}", be.eps, bc.c),
            rhs: format!("eps = {eps}, C = {c2}"),
            slack: slack.to_string(),
            found_by: "exact".into(),
            recheck: Some(what),
        };
        Ok((slack, w))
    }
}
