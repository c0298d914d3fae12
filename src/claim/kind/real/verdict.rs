//! The verdict of one case of a `real` claim from the prover's [`Outcome`]: a proof whose
//! certificate the independent checker re-derives, a counterexample confirmed at
//! [`CHECK_PREC`] bits (or decided exactly), or an inconclusive search with its tightest box.

use super::case::Case;
use super::{CHECK_PREC, Real};
use crate::claim::kind::RunContext;
use crate::claim::verdict::{Searched, Status, Trust, Verdict, Witness};
use crate::error::{Error, Result};
use crate::exact::Q;
use crate::lang::{Domain, Enclosure};
use crate::prover::boxes::Bx;
use crate::prover::{self, Outcome, Stats, boxes::q_show, checker};
use num_traits::{One, ToPrimitive, Zero};

impl Real {
    /// A witness at the point `x`; `sides` = (lhs, rhs, slack) as text.
    fn point_witness(
        &self,
        case: &Case,
        x: &[Q],
        sides: (String, String, String),
        found_by: &str,
        recheck: Option<String>,
    ) -> Witness {
        let (lhs, rhs, slack) = sides;
        let mut constants = case.constants_f64.clone();
        for (i, v) in case.problem.vars.iter().enumerate() {
            constants.insert(v.name.clone(), x[i].to_f64().unwrap_or(f64::NAN));
        }
        for (n, i) in &case.substituted {
            if !x[*i].is_zero() {
                constants.insert(n.clone(), (Q::one() / &x[*i]).to_f64().unwrap_or(f64::NAN));
            }
        }
        let coords: Vec<String> = case
            .problem
            .vars
            .iter()
            .zip(x)
            .map(|(v, q)| format!("{} = {}", v.name, q_show(q)))
            .collect();
        Witness {
            n: 0,
            loads: vec![],
            source: format!("point ({})", coords.join(", ")),
            constants,
            constants_text: Default::default(),
            exact: None,
            lhs,
            rhs,
            slack,
            found_by: found_by.into(),
            recheck,
        }
    }

    /// The verdict of one case, ranked (0 refuted, 1 inconclusive, 2 proved) so the worst wins.
    pub(super) fn verdict_of(
        &self,
        case: &Case,
        out: Outcome,
        k: usize,
        ncases: usize,
        ctx: &mut RunContext,
        notes: &mut Vec<String>,
    ) -> Result<(u8, Verdict)> {
        let label = case.label(k, ncases);
        match out {
            Outcome::Proved {
                tree,
                rewrites,
                stats,
            } => {
                let proof = Proof {
                    tree: &tree,
                    rewrites: &rewrites,
                    stats: &stats,
                };
                let v = self.proved(case, proof, &label, (k, ncases), ctx, notes)?;
                Ok((2, v))
            }
            Outcome::Refuted {
                point,
                lhs,
                rhs,
                g,
                found_by,
                stats,
            } => {
                let sides = (lhs.to_string(), rhs.to_string());
                let v = self.refuted(case, &point, sides, &g, found_by, &stats, &label)?;
                Ok((0, v))
            }
            Outcome::Inconclusive {
                reason,
                remaining,
                remaining_count,
                volume_fraction,
                tightest,
                stats,
            } => {
                let _ = remaining;
                let left = (remaining_count, volume_fraction);
                let v = self.inconclusive(case, &reason, left, tightest, &stats, &label);
                Ok((1, v))
            }
        }
    }

    /// A verdict of this file with trust `enclosure`.
    fn verdict(
        &self,
        status: Status,
        slack: Option<f64>,
        witness: Option<Witness>,
        notes: Vec<String>,
        searched: Searched,
    ) -> Verdict {
        Verdict::of(&self.t, status, Trust::Enclosure)
            .with_slack(slack)
            .with_witness(witness)
            .with_searched(searched)
            .with_notes(notes)
    }

    /// A proved case: its certificate re-checked by the independent checker at [`CHECK_PREC`]
    /// bits (an error when rejected) and written when `ctx.certificates` is set; the proof's
    /// tally goes to `notes`.
    fn proved(
        &self,
        case: &Case,
        proof: Proof,
        label: &str,
        kn: (usize, usize),
        ctx: &mut RunContext,
        notes: &mut Vec<String>,
    ) -> Result<Verdict> {
        let (rewrites, stats) = (proof.rewrites, proof.stats);
        let cert = prover::certificate_with(
            &case.problem,
            &self.t.id,
            case.constants.clone(),
            rewrites,
            proof.tree,
            self.options.prec,
        );
        let mut how = String::new();
        if !rewrites.is_empty() {
            let r: Vec<String> = rewrites.iter().map(|r| r.describe()).collect();
            how = format!(
                "; proved after rewriting the claim ({}), each rewrite derived and justified again by the checker",
                r.join("; ")
            );
        }
        self.certified(case, &cert, None, stats, &how, label, kn, ctx, notes)
    }

    /// A case proved through its lemmas ([`prover::lemma`]): the certificate (with its lemmas;
    /// format 4, format 3 before clips) checked against the lemmas' files, the bounds and the
    /// reduced claim.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn derived_proved(
        &self,
        case: &Case,
        cert: &prover::Certificate,
        stats: &Stats,
        label: &str,
        kn: (usize, usize),
        ctx: &mut RunContext,
        notes: &mut Vec<String>,
    ) -> Result<Verdict> {
        let steps: Vec<String> = cert
            .lemmas
            .iter()
            .map(|l| format!("`{}` bounded by `{}` (lemma {})", l.term, l.by, l.lemma))
            .collect();
        let how = format!(
            "; derived from lemmas: {}{}each lemma's certificate, the sign of the claim's derivative in each bounded term and the exact identity with the reduced claim `{}` re-derived and re-checked by the checker",
            steps.join(", "),
            if steps.is_empty() { "" } else { "; " },
            cert.reduced.as_deref().unwrap_or_default()
        );
        let d = case.derivation.as_ref();
        self.certified(case, cert, d, stats, &how, label, kn, ctx, notes)
    }

    /// The verdict of a case whose certificate `cert` the search made (through the lemmas of
    /// `derived`, or directly): re-checked by the independent checker at [`CHECK_PREC`] bits (an
    /// error when rejected), written when `ctx.certificates` is set, the tally and `how` in
    /// `notes`.
    #[allow(clippy::too_many_arguments)]
    fn certified(
        &self,
        case: &Case,
        cert: &prover::Certificate,
        derived: Option<&prover::lemma::Derivation>,
        stats: &Stats,
        how: &str,
        label: &str,
        (k, ncases): (usize, usize),
        ctx: &mut RunContext,
        notes: &mut Vec<String>,
    ) -> Result<Verdict> {
        let p = &case.problem;
        let checked = match derived {
            None => checker::verify(p, cert, CHECK_PREC),
            Some(d) => checker::verify_derived(p, d, cert, CHECK_PREC),
        }
        .map_err(|e| {
            Error::Unsupported(format!(
                "{}: the independent checker rejected the certificate of {label}: {e}",
                self.t.id
            ))
        })?;
        let tl = &checked.tally;
        let mut searched = Searched::default();
        searched.add("boxes", stats.boxes);
        searched.add("leaves", tl.leaves());
        // Shown only where contraction clipped a box (the notes of other proofs unchanged).
        let clips = if tl.clipped > 0 {
            format!(", {} boxes clipped by the hypotheses", tl.clipped)
        } else {
            String::new()
        };
        let mut msg = format!(
            "{label} proved: {} leaf boxes (direct {}, mean value {}, Taylor model {}, exact {}, outside the hypotheses {}), {} monotone steps, {} splits{clips}; {} box evaluations ({} repeated at {} bits after f64 enclosures); certificate re-checked by the independent checker at {CHECK_PREC} bits{how}",
            tl.leaves(),
            tl.direct,
            tl.mean_value,
            tl.taylor,
            tl.exact,
            tl.outside,
            tl.monotone,
            tl.splits,
            stats.boxes,
            stats.escalated,
            self.options.prec
        );
        if let Some(dir) = &ctx.certificates {
            let path = self.certificate_path(dir, k, ncases);
            crate::output::write_atomic(&path, cert.to_json().as_bytes()).map_err(|e| {
                Error::invalid(
                    path.display().to_string(),
                    format!("cannot write the certificate: {e}"),
                )
            })?;
            msg.push_str(&format!("; written to {}", path.display()));
        }
        notes.push(msg);
        Ok(self.verdict(Status::Proved, None, None, vec![], searched))
    }

    /// A refuted case: the counterexample `point` confirmed again at [`CHECK_PREC`] bits, or
    /// decided exactly where no enclosure separates the sides (an error when neither does).
    #[allow(clippy::too_many_arguments)]
    fn refuted(
        &self,
        case: &Case,
        point: &[Q],
        (lhs, rhs): (String, String),
        g: &crate::enclosure::Interval,
        found_by: &str,
        stats: &Stats,
        label: &str,
    ) -> Result<Verdict> {
        let p = &case.problem;
        let mut searched = Searched::default();
        searched.add("boxes", stats.boxes);
        // The point is in the domain and inside the hypotheses, re-checked here (bound hypotheses
        // exactly, the others by enclosures at the higher precision).
        let bounds = crate::prover::contract::bound_hypotheses(p);
        if !p.in_domain(point)
            || !crate::prover::contract::hypotheses_hold_at(p, &bounds, point, CHECK_PREC)
        {
            return Err(Error::Unsupported(format!(
                "{}: the counterexample of {label} is not confirmed inside the domain and the hypotheses",
                self.t.id
            )));
        }
        // Re-check at a higher precision.
        let again = p.sides_at(point, CHECK_PREC).ok();
        let by_enclosure = again.as_ref().is_some_and(|(g2, _, _)| {
            if p.strict() {
                *g2.hi() <= 0u32
            } else {
                *g2.hi() < 0u32
            }
        });
        // At a point where the two sides are exactly equal (g = 0 at a non-dyadic point,
        // which no enclosure shows) the sign is decided exactly.
        let exact = (!by_enclosure)
            .then(|| p.exact_sign(&[], true, point))
            .flatten()
            .filter(|s| {
                *s == std::cmp::Ordering::Less || (p.strict() && *s == std::cmp::Ordering::Equal)
            });
        if !by_enclosure && exact.is_none() {
            return Err(Error::Unsupported(format!(
                "{}: the counterexample of {label} is not confirmed at {CHECK_PREC} bits",
                self.t.id
            )));
        }
        let slack = Enclosure { prec: 64 }.to_f64(g);
        let recheck = match exact {
            None => format!(
                "certified by enclosures: the claim as g ≥ 0 has g ∈ {g} at {} bits and g ∈ {} at {CHECK_PREC} bits (the point lies in the domain and every hypothesis holds there)",
                self.options.prec,
                again.map(|a| a.0.to_string()).unwrap_or_default()
            ),
            Some(s) => format!(
                "decided exactly (rational arithmetic and exact exponential sums): the claim as g ≥ 0 has g {} 0 at the point (the point lies in the domain and every hypothesis holds there)",
                if s == std::cmp::Ordering::Equal {
                    "="
                } else {
                    "<"
                }
            ),
        };
        let w = self.point_witness(
            case,
            point,
            (lhs, rhs, format!("{slack:e}")),
            found_by,
            Some(recheck),
        );
        Ok(self.verdict(
            Status::Refuted,
            Some(slack),
            Some(w),
            vec![format!(
                "{label} refuted: a certified counterexample found by {found_by}, after {} box evaluations of the bisection",
                stats.boxes
            )],
            searched,
        ))
    }

    /// An inconclusive case: why the search stopped, how much is left (`(boxes, fraction of the
    /// volume)`), and a witness at the center of the tightest box left.
    fn inconclusive(
        &self,
        case: &Case,
        reason: &str,
        (remaining_count, volume_fraction): (usize, f64),
        tightest: Option<(Bx, f64)>,
        stats: &Stats,
        label: &str,
    ) -> Verdict {
        let p = &case.problem;
        let mut searched = Searched::default();
        searched.add("boxes", stats.boxes);
        let mut msgs = vec![format!(
            "{label} inconclusive: {reason}; {remaining_count} box(es) left, {:.3e} of the domain's volume",
            volume_fraction
        )];
        let witness = tightest.map(|(b, g)| {
            let boxes: Vec<String> = p
                .vars
                .iter()
                .enumerate()
                .map(|(i, v)| format!("{} ∈ [{}, {}]", v.name, q_show(&b.lo[i]), q_show(&b.hi[i])))
                .collect();
            msgs.push(format!(
                "tightest box left: {} (g at its center ≈ {g:e})",
                boxes.join(", ")
            ));
            let c = b.center();
            let (l, r) = p
                .sides_at(&c, 64)
                .map(|(_, l, r)| (l.to_string(), r.to_string()))
                .unwrap_or_default();
            self.point_witness(
                case,
                &c,
                (l, r, format!("{g:e}")),
                "center of the tightest box left",
                None,
            )
        });
        let slack = witness.as_ref().and_then(|w| w.slack.parse().ok());
        self.verdict(Status::Inconclusive, slack, witness, msgs, searched)
    }
}

/// A proof found by the search: its tree, the rewrites of the claim it is for, the search's
/// counts.
struct Proof<'a> {
    tree: &'a prover::Node,
    rewrites: &'a [prover::rewrite::Rewrite],
    stats: &'a Stats,
}
