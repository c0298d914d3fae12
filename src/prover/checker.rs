//! The independent checker of certificates: it walks the proof tree from the domain's box,
//! recomputes every sub-box from the split points (so the leaves cover the domain by
//! construction), re-derives the goal of every node from the rules, and re-evaluates each
//! decision at a higher precision than the search. It shares with the prover only the
//! evaluator of the claim language ([`Problem::goal_value`], [`Problem::hypotheses`]); the
//! search, the choice of decisions and the bookkeeping of strictness are not used, and the rules
//! are written out again here:
//!
//! * a goal is `s·∂_β g ≥ 0`, strict unless the box lies on an exempt hyperplane or an open end
//!   of the domain (a touching point of the file exempts nothing: it is in the domain);
//! * **direct**: the enclosure's lower end is `≥ 0` (`> 0` when strict);
//! * **mean value** at `c ∈ B`: `lower(f(c) + Σᵢ ∂ᵢf(B)·(Bᵢ − cᵢ)) ≥ 0` (`> 0` when strict),
//!   where `f(c)` is its enclosure, with the lower end raised to 0 when the exact value at `c`
//!   is `≥ 0`;
//! * **monotone** in `xᵢ` toward the face `F` on a box where every hypothesis holds (when the
//!   goal has hypotheses): the derivative goal `±∂ᵢ(s·∂_β g)` on `B` (sign `+` toward the
//!   lower face), exempt on the hyperplane of `F` and strict iff the goal is strict on `B` but
//!   not on `F`; the same goal on `F`, without hypotheses. A hypothesis holds on `B` when its
//!   enclosure there is true, or, for a bound hypothesis (below), when `B` lies in the closure
//!   of its region (decided in rationals): the two subgoals are proved on all of `B` and `F`,
//!   so the step proves the goal on all of `B` whatever the hypotheses, and the faces of strict
//!   bounds add nothing that needs proof;
//! * **outside**: the hypothesis is false on all of `B` — its enclosure there is false, or it is
//!   a bound hypothesis whose bounds, applied to `B` from left to right, leave no point of it
//!   (decided in rationals, strict bounds excluding their value);
//! * **clip** (format 4): the goal has hypotheses, and the checker finds the bound hypotheses
//!   itself in the problem's `given` (comparisons `v op c` or `c op v` of a variable with an
//!   expression without variables of exact rational value, alone or joined by `&&`; its own
//!   reading, written again here, not [`super::contract`]'s) and clips `B` by them in the order
//!   of `given`: a bound lowers an upper end or raises a lower end to its value, closed. The
//!   recorded hypotheses must be exactly those that cut, in that order, and the recorded ends
//!   exactly the clipped box's; the subtree is then checked on the box the checker clipped. A
//!   clip that changes nothing, names a hypothesis that does not exist or is not a bound, or
//!   appears in a certificate of a format before 4 is rejected. Sound: every point of `B` where
//!   the hypotheses hold lies in the clipped box (a strict bound `v < c` clips to the closed
//!   `v ≤ c`, a superset);
//! * **rewrites** before the tree ([`super::rewrite`]): each recorded rewrite must be the one the
//!   checker finds in the claim itself; a multiplied-out denominator's sign `D > 0` is proved by
//!   re-checking its recorded tree as a claim of its own, a derived name's range by the checker's
//!   own enclosure of it on the domain; the tree is then checked against the claim as the checker
//!   rewrote it;
//! * **exact**: `B` is a point and the sign of the goal there, decided in exact exponential sums,
//!   is `> 0` (or `= 0` where strictness is not needed);
//! * **Taylor model** about `c ∈ B` of order `K` (`super::taylor`): the recorded coefficients
//!   are every multi-index over the free coordinates of degree `≤ K`; the checker computes its
//!   own enclosures of the goal's Taylor coefficients — at `c` below the order, over `B` at the
//!   order — and each must lie inside the recorded rational interval (a recorded `[0, 0]` below
//!   the order that its enclosure does not prove is decided exactly at `c`: it must be exactly
//!   zero); then it decides the recorded model again in exact rational interval arithmetic, by
//!   the range of the polynomial (`> 0` when strict) or, with one free coordinate, by the
//!   factor `hᵐ` of the lowest nonzero coefficient (strictness at `c` only where `c` lies on an
//!   open end or an exempt hyperplane of the goal).

use super::boxes::{Bx, Side, parse_q, point_intervals, q_show};
use super::certificate::{Certificate, Node, RewriteRecord, Tally, Token};
use super::problem::Problem;
use crate::enclosure::Interval;
use crate::exact::Q;
use num_traits::Zero;

/// What the checker verified.
#[derive(Debug, Clone, PartialEq)]
pub struct Verified {
    /// The nodes checked, by kind.
    pub tally: Tally,
    /// The precision of the re-evaluation (bits).
    pub prec: u64,
}

#[derive(Clone)]
struct G {
    path: Vec<usize>,
    positive: bool,
    strict: bool,
    exempt: Vec<(usize, Q)>,
    hyps: bool,
}

fn strict_needed(p: &Problem, g: &G, b: &Bx) -> bool {
    if !g.strict {
        return false;
    }
    !(0..b.dim()).any(|i| {
        b.lo[i] == b.hi[i] && {
            let v = &b.lo[i];
            let var = &p.vars[i];
            (var.lo_open && *v == var.lo)
                || (var.hi_open && *v == var.hi)
                || g.exempt.iter().any(|(j, a)| *j == i && a == v)
        }
    })
}

fn lower_ok(lo: &malachite::Float, strict: bool) -> bool {
    if strict { *lo > 0u32 } else { *lo >= 0u32 }
}

/// Verifies `cert` as a proof of `p`, re-evaluating every decision at `prec` bits.
///
/// An error names the first node that fails (its index in preorder) and why.
pub fn verify(p: &Problem, cert: &Certificate, prec: u64) -> Result<Verified, String> {
    if !cert.lemmas.is_empty() || cert.reduced.is_some() {
        return Err(
            "the certificate derives its claim from lemmas: it is checked against the theorem files (verify_derived)".into(),
        );
    }
    same_claim(p, cert)?;
    if !cert.clips_allowed() {
        let proofs = cert.rewrites.iter().flat_map(|r| match r {
            RewriteRecord::Denominator { proof, .. } => proof.as_slice(),
            _ => &[],
        });
        if cert
            .tree
            .iter()
            .chain(proofs)
            .any(|t| matches!(t, Token::C(..)))
        {
            return Err(format!(
                "a clip by the hypotheses in a certificate of format `{}` (clips came with format 4)",
                cert.format
            ));
        }
    }
    // The rewrites, derived again from the claim and justified here.
    let mut q = p.clone();
    for (j, rec) in cert.rewrites.iter().enumerate() {
        q = rewritten(&q, rec, prec).map_err(|e| format!("rewrite {j}: {e}"))?;
    }
    let root = cert.root()?;
    let tally = walk(&q, &root, prec)?;
    Ok(Verified { tally, prec })
}

/// Checks the certificate of `claim` derived by `d` ([`super::lemma`]): the plan (directions,
/// ranges, the identity with the reduced claim, the derivative claims) is derived again from
/// `claim` and `d`, both built from the theorem files; each lemma's certificate is checked
/// against the lemma's claim, each sign certificate against the derivative claim derived here,
/// and the tree against the reduced claim. The tally is the tree's.
pub fn verify_derived(
    claim: &Problem,
    d: &super::lemma::Derivation,
    cert: &Certificate,
    prec: u64,
) -> Result<Verified, String> {
    same_claim(claim, cert)?;
    let plan = super::lemma::plan(claim, d, prec)?;
    if cert.lemmas.len() != d.bounds.len() {
        return Err(format!(
            "the certificate applies {} lemmas, the claim {}",
            cert.lemmas.len(),
            d.bounds.len()
        ));
    }
    for (j, ((b, (_, sign)), rec)) in d
        .bounds
        .iter()
        .zip(&plan.steps)
        .zip(&cert.lemmas)
        .enumerate()
    {
        if rec.lemma != b.lemma_id || rec.term != b.term_text || rec.by != b.by_text {
            return Err(format!(
                "bound {}: the certificate applies `{}` to `{}`, the claim `{}` to `{}`",
                j + 1,
                rec.lemma,
                rec.term,
                b.lemma_id,
                b.term_text
            ));
        }
        verify(&b.lemma, &rec.proof, prec)
            .map_err(|e| format!("bound {}: lemma `{}`: {e}", j + 1, b.lemma_id))?;
        verify(sign, &rec.monotone, prec)
            .map_err(|e| format!("bound {}: the derivative's sign: {e}", j + 1))?;
        let hyps = &plan.hypotheses[j];
        if rec.hypotheses.len() != hyps.len() {
            return Err(format!(
                "bound {}: the certificate proves {} hypotheses of the lemma, it has {}",
                j + 1,
                rec.hypotheses.len(),
                hyps.len()
            ));
        }
        for (h, c) in hyps.iter().zip(&rec.hypotheses) {
            verify(h, c, prec).map_err(|e| format!("bound {}: {}: {e}", j + 1, h.text))?;
        }
    }
    if cert.reduced.as_deref() != Some(d.reduced.text.as_str()) {
        return Err(format!(
            "the certificate proves the reduced claim `{}`, the file states `{}`",
            cert.reduced.as_deref().unwrap_or("(none)"),
            d.reduced.text
        ));
    }
    let tree = Certificate {
        claim: d.reduced.text.clone(),
        lemmas: Vec::new(),
        reduced: None,
        ..cert.clone()
    };
    verify(&d.reduced, &tree, prec)
}

/// Whether the certificate's claim and variables are those of `p`.
fn same_claim(p: &Problem, cert: &Certificate) -> Result<(), String> {
    if cert.vars.len() != p.dim() {
        return Err(format!(
            "the certificate has {} variables, the claim {}",
            cert.vars.len(),
            p.dim()
        ));
    }
    for (cv, v) in cert.vars.iter().zip(&p.vars) {
        let same = cv.name == v.name
            && parse_q(&cv.lo).as_ref() == Some(&v.lo)
            && parse_q(&cv.hi).as_ref() == Some(&v.hi)
            && cv.lo_open == v.lo_open
            && cv.hi_open == v.hi_open;
        if !same {
            return Err(format!(
                "variable `{}` of the certificate does not match the claim's `{}`",
                cv.name, v.name
            ));
        }
    }
    if cert.claim != p.text {
        return Err(format!(
            "the certificate proves `{}`, not `{}`",
            cert.claim, p.text
        ));
    }
    Ok(())
}

/// The claim after the recorded rewrite `rec`, derived from `q` by the checker: the rewrite must
/// be the one [`super::rewrite`] finds in `q`; a denominator's sign is proved by re-checking its
/// recorded tree, a derived name's range by the checker's own enclosure; a common exponential
/// needs no proof (`e^E > 0`).
fn rewritten(q: &Problem, rec: &RewriteRecord, prec: u64) -> Result<Problem, String> {
    use super::rewrite;
    match rec {
        RewriteRecord::CommonExp { exponent } => {
            let (r, w) = rewrite::common_exp(q)
                .ok_or_else(|| "no common exponential factor in the claim".to_string())?;
            match w {
                rewrite::Rewrite::CommonExp { text, .. } if text == *exponent => Ok(r),
                _ => Err(format!(
                    "the common exponential factor of the claim is not exp({exponent})"
                )),
            }
        }
        RewriteRecord::Denominator {
            index,
            factor,
            power,
            proof,
        } => {
            let ds = rewrite::denominators(q);
            let (d, k) = ds
                .get(*index)
                .ok_or_else(|| format!("the claim has no denominator {index}"))?;
            if rewrite::factor_text(q, d, *index) != *factor || *k != *power || *power <= 0 {
                return Err(format!(
                    "denominator {index} of the claim is not ({factor})^{power}"
                ));
            }
            let sign = rewrite::sign_problem(q, d);
            let tree = Node::from_tokens(proof)?;
            walk(&sign, &tree, prec)
                .map_err(|e| format!("the sign of ({factor}) is not proved: {e}"))?;
            Ok(rewrite::multiply(q, d, *k))
        }
        RewriteRecord::Range {
            slot,
            vars,
            lo,
            hi,
            name,
        } => {
            let (s, vs) = rewrite::range_candidate(q)
                .ok_or_else(|| "no derived name stands alone for its variables".to_string())?;
            if s != *slot || vs != *vars {
                return Err(format!(
                    "the derived name standing alone is slot {s} over variables {vs:?}, not slot {slot} over {vars:?}"
                ));
            }
            let (lo, hi) = (
                parse_q(lo).ok_or_else(|| format!("bad number {lo}"))?,
                parse_q(hi).ok_or_else(|| format!("bad number {hi}"))?,
            );
            let d = crate::lang::Enclosure { prec };
            let vals = q
                .values(&d, &q.root().intervals(prec), prec)
                .map_err(|e| format!("cannot evaluate the derived name: {e}"))?;
            let v = vals
                .get(s)
                .ok_or_else(|| "no such derived name".to_string())?;
            if !inside(v, &lo, &hi) {
                return Err(format!(
                    "the range of the derived name {v} is not inside the recorded [{lo}, {hi}]"
                ));
            }
            Ok(rewrite::replace_by_range(q, s, &vs, lo, hi, name))
        }
    }
}

/// Checks the proof tree `root` of the claim `p` from the domain's box.
fn walk(p: &Problem, root: &Node, prec: u64) -> Result<Tally, String> {
    let b0 = Bx {
        lo: p.vars.iter().map(|v| v.lo.clone()).collect(),
        hi: p.vars.iter().map(|v| v.hi.clone()).collect(),
    };
    let g0 = G {
        path: Vec::new(),
        positive: true,
        strict: matches!(p.cmp, crate::lang::Cmp::Lt | crate::lang::Cmp::Gt),
        exempt: Vec::new(),
        hyps: !p.given.is_empty(),
    };
    let bounds = own_bounds(p);
    let mut tally = Tally::default();
    let mut stack: Vec<(&Node, G, Bx)> = vec![(root, g0, b0)];
    let mut k = 0usize;
    while let Some((node, g, b)) = stack.pop() {
        let here = At {
            p,
            g: &g,
            b: &b,
            k,
            prec,
            bounds: &bounds,
        };
        match node {
            Node::Split { var, at, lo, hi } => {
                here.split(*var, at)?;
                tally.splits += 1;
                let mut bl = b.clone();
                bl.hi[*var] = at.clone();
                let mut bh = b;
                bh.lo[*var] = at.clone();
                stack.push((hi, g.clone(), bh));
                stack.push((lo, g, bl));
            }
            Node::Direct => {
                here.direct()?;
                tally.direct += 1;
            }
            Node::MeanValue { at } => {
                here.mean_value(at)?;
                tally.mean_value += 1;
            }
            Node::Monotone {
                var,
                side,
                derivative,
                face,
            } => {
                here.monotone(*var)?;
                let ((fg, fb), (dg, db)) = monotone_goals(p, g, b, *var, *side);
                tally.monotone += 1;
                stack.push((face, fg, fb));
                stack.push((derivative, dg, db));
            }
            Node::Exact => {
                here.exact()?;
                tally.exact += 1;
            }
            Node::Taylor(m) => {
                check_model(p, &g, &b, m, prec).map_err(|why| here.fail(why))?;
                tally.taylor += 1;
            }
            Node::Outside { hyp } => {
                here.outside(*hyp)?;
                tally.outside += 1;
            }
            Node::Clip { hyps, ends, inner } => {
                let clipped = here.clip(hyps, ends)?;
                tally.clipped += 1;
                stack.push((inner, g, clipped));
            }
        }
        k += 1;
    }
    Ok(tally)
}

/// The goals of a monotone step in coordinate `i` toward `side` on the box `b` (checked by
/// [`At::monotone`]): `(goal on the face, the face)` and `(derivative goal, b)`. The derivative
/// goal is `±∂ᵢ` of the goal (`+` toward the lower face), exempt on the face's hyperplane, strict
/// iff the goal is strict on `b` but not on the face; neither keeps the hypotheses.
fn monotone_goals(p: &Problem, g: G, b: Bx, i: usize, side: Side) -> ((G, Bx), (G, Bx)) {
    let at = match side {
        Side::Lo => b.lo[i].clone(),
        Side::Hi => b.hi[i].clone(),
    };
    let mut fb = b.clone();
    fb.lo[i] = at.clone();
    fb.hi[i] = at.clone();
    let here = strict_needed(p, &g, &b);
    let on_face = strict_needed(p, &g, &fb);
    let mut exempt = g.exempt.clone();
    exempt.push((i, at));
    let mut path = g.path.clone();
    path.push(i);
    let dg = G {
        path,
        positive: g.positive == (side == Side::Lo),
        strict: here && !on_face,
        exempt,
        hyps: false,
    };
    let fg = G { hyps: false, ..g };
    ((fg, fb), (dg, b))
}

/// A node of the tree being checked: the `k`-th in preorder, with its goal `g` on the box `b`.
struct At<'a> {
    p: &'a Problem,
    g: &'a G,
    b: &'a Bx,
    k: usize,
    prec: u64,
    /// The bounds of each bound hypothesis of `p` ([`own_bounds`]).
    bounds: &'a [Option<Vec<Cut>>],
}

impl At<'_> {
    /// The error `why` at this node, with its goal and box.
    fn fail(&self, why: String) -> String {
        let (p, g, b) = (self.p, self.g, self.b);
        let bx: Vec<String> = (0..b.dim())
            .map(|i| format!("{} ∈ [{}, {}]", p.vars[i].name, b.lo[i], b.hi[i]))
            .collect();
        let names: Vec<&str> = g.path.iter().map(|&i| p.vars[i].name.as_str()).collect();
        format!(
            "node {} (goal {}∂[{}]g ≥ 0 on {}): {why}",
            self.k,
            if g.positive { "" } else { "−" },
            names.join(", "),
            bx.join(", ")
        )
    }

    /// Whether strictness is needed on the box.
    fn strict(&self) -> bool {
        strict_needed(self.p, self.g, self.b)
    }

    /// A split at `at` in coordinate `var`: the point lies strictly inside the box.
    fn split(&self, var: usize, at: &Q) -> Result<(), String> {
        let b = self.b;
        if var >= b.dim() || !(b.lo[var] < *at && *at < b.hi[var]) {
            return Err(self.fail(format!("split point {at} is not inside coordinate {var}")));
        }
        Ok(())
    }

    /// A direct leaf: the enclosure of the goal on the box decides it.
    fn direct(&self) -> Result<(), String> {
        let (p, g) = (self.p, self.g);
        let x = self.b.intervals(self.prec);
        let (f, _) = p
            .goal_value(&g.path, g.positive, &x, self.prec, false)
            .map_err(|e| self.fail(format!("cannot evaluate: {e}")))?;
        if !lower_ok(f.lo(), self.strict()) {
            return Err(self.fail(format!("direct bound {f} does not decide the goal")));
        }
        Ok(())
    }

    /// A mean-value leaf at `at`: `f(c) + Σᵢ ∂ᵢf(B)·(Bᵢ − cᵢ)` decides the goal.
    fn mean_value(&self, at: &[Q]) -> Result<(), String> {
        let (p, g, b, prec) = (self.p, self.g, self.b, self.prec);
        if !b.contains(at) {
            return Err(self.fail("the expansion point is outside the box".into()));
        }
        let x = b.intervals(prec);
        let (_, gr) = p
            .goal_value(&g.path, g.positive, &x, prec, true)
            .map_err(|e| self.fail(format!("cannot evaluate the gradient: {e}")))?;
        let gr = gr.ok_or_else(|| format!("node {}: no gradient", self.k))?;
        // f(c): its enclosure, or [0, ·] where the exact value at c is ≥ 0.
        let (mut fc, _) = p
            .goal_value(&g.path, g.positive, &point_intervals(at, prec), prec, false)
            .map_err(|e| self.fail(format!("cannot evaluate at the point: {e}")))?;
        if *fc.lo() < 0u32
            && *fc.hi() >= 0u32
            && matches!(
                p.exact_sign(&g.path, g.positive, at),
                Some(std::cmp::Ordering::Greater | std::cmp::Ordering::Equal)
            )
        {
            fc = Interval::new(malachite::Float::from(0u32), fc.hi().clone())
                .map_err(|e| self.fail(e.to_string()))?;
        }
        let mut sum = fc;
        for i in 0..b.dim() {
            let lo = Interval::from_rational(&(&b.lo[i] - &at[i]), prec);
            let hi = Interval::from_rational(&(&b.hi[i] - &at[i]), prec);
            sum = sum.add(&gr[i].mul(&lo.hull(&hi), prec), prec);
        }
        if !lower_ok(sum.lo(), self.strict()) {
            return Err(self.fail(format!("mean-value bound {sum} does not decide the goal")));
        }
        Ok(())
    }

    /// A monotone step in coordinate `i`: the coordinate is free, and every hypothesis holds on
    /// the box when the goal has hypotheses.
    fn monotone(&self, i: usize) -> Result<(), String> {
        let (p, b) = (self.p, self.b);
        if i >= b.dim() || b.lo[i] == b.hi[i] {
            return Err(self.fail(format!("monotone step in a fixed coordinate {i}")));
        }
        if self.g.hyps {
            let hs = p.hypotheses(&b.intervals(self.prec), self.prec);
            for (j, h) in hs.iter().enumerate() {
                let in_closure = matches!(
                    self.bounds.get(j),
                    Some(Some(cuts)) if cuts.iter().all(|c| c.in_closure(b))
                );
                if !in_closure && !matches!(h, Ok(true)) {
                    return Err(
                        self.fail(format!("monotone step where hypothesis {j} is not certain"))
                    );
                }
            }
        }
        Ok(())
    }

    /// An exact leaf: the box is a point and the exact sign of the goal there decides it.
    fn exact(&self) -> Result<(), String> {
        let (p, g, b) = (self.p, self.g, self.b);
        if !(0..b.dim()).all(|i| b.lo[i] == b.hi[i]) {
            return Err(self.fail("an exact decision on a box that is not a point".into()));
        }
        let ok = match p.exact_sign(&g.path, g.positive, &b.lo) {
            Some(std::cmp::Ordering::Greater) => true,
            Some(std::cmp::Ordering::Equal) => !self.strict(),
            _ => false,
        };
        if !ok {
            return Err(self.fail("the exact value at the point does not decide the goal".into()));
        }
        Ok(())
    }

    /// An `outside` leaf: the goal has hypotheses and hypothesis `hyp` is false on the box.
    fn outside(&self, hyp: usize) -> Result<(), String> {
        if !self.g.hyps {
            return Err(self.fail("`outside` in a goal without hypotheses".into()));
        }
        if let Some(Some(cuts)) = self.bounds.get(hyp)
            && cut_by(cuts, self.b).is_none()
        {
            return Ok(());
        }
        match self
            .p
            .hypotheses(&self.b.intervals(self.prec), self.prec)
            .get(hyp)
        {
            Some(Ok(false)) => Ok(()),
            _ => Err(self.fail(format!("hypothesis {hyp} is not false on the box"))),
        }
    }
}

impl At<'_> {
    /// A clip of the box by the hypotheses `hyps` to the ends `ends`: derived again here from
    /// the problem's own bound hypotheses, and accepted only when it is the recorded one; the
    /// clipped box.
    fn clip(&self, hyps: &[usize], ends: &[(usize, Q, Q)]) -> Result<Bx, String> {
        let (p, b) = (self.p, self.b);
        if !self.g.hyps {
            return Err(self.fail("a clip in a goal without hypotheses".into()));
        }
        for &j in hyps {
            if j >= p.given.len() {
                return Err(self.fail(format!(
                    "the clip names hypothesis {j}; the claim has {}",
                    p.given.len()
                )));
            }
            if self.bounds[j].is_none() {
                return Err(self.fail(format!(
                    "the clip names hypothesis {j}, which does not bound one variable by a constant"
                )));
            }
        }
        let (cuts, c) = own_clip(self.bounds, b);
        if cuts.is_empty() {
            return Err(self.fail("a clip where no hypothesis cuts the box".into()));
        }
        if cuts != hyps {
            return Err(self.fail(format!(
                "the hypotheses {cuts:?} cut the box, the certificate names {hyps:?}"
            )));
        }
        let own: Vec<(usize, Q, Q)> = (0..b.dim())
            .filter(|&i| c.lo[i] != b.lo[i] || c.hi[i] != b.hi[i])
            .map(|i| (i, c.lo[i].clone(), c.hi[i].clone()))
            .collect();
        if own != ends {
            let show = |e: &[(usize, Q, Q)]| {
                e.iter()
                    .map(|(i, lo, hi)| {
                        let name = p.vars.get(*i).map_or("?", |v| v.name.as_str());
                        format!("{name} ∈ [{lo}, {hi}]")
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(self.fail(format!(
                "the hypotheses clip the box to {}, the certificate records {}",
                show(&own),
                show(ends)
            )));
        }
        Ok(c)
    }
}

/// A bound `x_var ≤ at` (`upper`) or `x_var ≥ at` of a hypothesis, strict or not: the checker's
/// own reading of the hypotheses.
struct Cut {
    var: usize,
    upper: bool,
    strict: bool,
    at: Q,
}

impl Cut {
    /// Whether the closed box lies in the closure of the bound's region.
    fn in_closure(&self, b: &Bx) -> bool {
        if self.upper {
            b.hi[self.var] <= self.at
        } else {
            b.lo[self.var] >= self.at
        }
    }
}

/// The bounds of each hypothesis of `p` that is a comparison of a variable with an expression
/// without variables of exact rational value, or a conjunction of such comparisons (left to
/// right); `None` for any other hypothesis.
fn own_bounds(p: &Problem) -> Vec<Option<Vec<Cut>>> {
    fn var_of(p: &Problem, e: &crate::lang::Expr) -> Option<usize> {
        let crate::lang::Expr::Slot(s) = e else {
            return None;
        };
        match p.slots.get(*s) {
            Some(super::problem::SlotDef::Var(i)) => Some(*i),
            _ => None,
        }
    }
    fn cuts(p: &Problem, f: &crate::lang::Formula, out: &mut Vec<Cut>) -> Option<()> {
        use crate::lang::{Cmp, Formula};
        match f {
            Formula::And(a, b) => {
                cuts(p, a, out)?;
                cuts(p, b, out)
            }
            Formula::Cmp(l, op, r) => {
                // `l op r` with `op` ≤ or < (`below`), or ≥ or >.
                let (below, strict) = match op {
                    Cmp::Le => (true, false),
                    Cmp::Lt => (true, true),
                    Cmp::Ge => (false, false),
                    Cmp::Gt => (false, true),
                    _ => return None,
                };
                let (var, at, upper) = if let Some(v) = var_of(p, l) {
                    (v, r.as_constant()?, below)
                } else {
                    (var_of(p, r)?, l.as_constant()?, !below)
                };
                out.push(Cut {
                    var,
                    upper,
                    strict,
                    at,
                });
                Some(())
            }
            _ => None,
        }
    }
    p.given
        .iter()
        .map(|f| {
            let mut out = Vec::new();
            cuts(p, f, &mut out).map(|_| out)
        })
        .collect()
}

/// The box `b` cut by the bounds of one hypothesis from left to right (closed), `None` when they
/// leave no point of it.
fn cut_by(cuts: &[Cut], b: &Bx) -> Option<Bx> {
    let mut c = b.clone();
    for cut in cuts {
        let i = cut.var;
        if cut.upper {
            if c.lo[i] > cut.at || (cut.strict && c.lo[i] == cut.at) {
                return None;
            }
            if cut.at < c.hi[i] {
                c.hi[i] = cut.at.clone();
            }
        } else {
            if c.hi[i] < cut.at || (cut.strict && c.hi[i] == cut.at) {
                return None;
            }
            if cut.at > c.lo[i] {
                c.lo[i] = cut.at.clone();
            }
        }
    }
    Some(c)
}

/// The checker's clip of `b` by the bound hypotheses in the order of `given`: the hypotheses
/// that cut and the box left (up to the first hypothesis that leaves no point, which is for an
/// `outside` leaf to decide).
fn own_clip(bounds: &[Option<Vec<Cut>>], b: &Bx) -> (Vec<usize>, Bx) {
    let mut cur = b.clone();
    let mut hyps = Vec::new();
    for (j, cuts) in bounds.iter().enumerate() {
        let Some(cuts) = cuts else { continue };
        match cut_by(cuts, &cur) {
            None => break,
            Some(c) => {
                if c != cur {
                    hyps.push(j);
                    cur = c;
                }
            }
        }
    }
    (hyps, cur)
}

/// Exact rational intervals `[lo, hi]` (the checker's own arithmetic for Taylor models).
#[derive(Clone, Debug)]
struct Qi {
    lo: Q,
    hi: Q,
}

impl Qi {
    fn point(q: Q) -> Qi {
        Qi {
            lo: q.clone(),
            hi: q,
        }
    }
    fn add(&self, o: &Qi) -> Qi {
        Qi {
            lo: &self.lo + &o.lo,
            hi: &self.hi + &o.hi,
        }
    }
    fn mul(&self, o: &Qi) -> Qi {
        let ps = [
            &self.lo * &o.lo,
            &self.lo * &o.hi,
            &self.hi * &o.lo,
            &self.hi * &o.hi,
        ];
        let lo = ps.iter().min().expect("four products").clone();
        let hi = ps.iter().max().expect("four products").clone();
        Qi { lo, hi }
    }
    /// `selfᵏ`: the exact range of `xᵏ` on the interval (`[0, ·]` for even `k` across 0).
    fn pow(&self, k: u32) -> Qi {
        let p = |q: &Q| num_traits::pow(q.clone(), k as usize);
        let zero = Q::from_integer(0.into());
        if k == 0 {
            return Qi::point(Q::from_integer(1.into()));
        }
        if k % 2 == 1 || self.lo >= zero {
            return Qi {
                lo: p(&self.lo),
                hi: p(&self.hi),
            };
        }
        if self.hi <= zero {
            return Qi {
                lo: p(&self.hi),
                hi: p(&self.lo),
            };
        }
        let (a, b) = (p(&self.lo), p(&self.hi));
        Qi {
            lo: zero,
            hi: if a > b { a } else { b },
        }
    }
}

/// Whether the recorded interval `[lo, hi]` contains the enclosure `e`.
fn inside(e: &Interval, lo: &Q, hi: &Q) -> bool {
    let (l, h) = (
        crate::enclosure::to_malachite(lo),
        crate::enclosure::to_malachite(hi),
    );
    l <= *e.lo() && *e.hi() <= h
}

/// Re-derives a Taylor-model leaf (see the module documentation).
fn check_model(
    p: &Problem,
    g: &G,
    b: &Bx,
    m: &super::taylor::Model,
    prec: u64,
) -> Result<(), String> {
    let free = model_shape(g, b, m)?;
    let beta = super::problem::multi_index(b.dim(), &g.path)
        .ok_or_else(|| "a derivative beyond the highest order".to_string())?;
    model_coefficients(p, g, b, m, &beta, prec)?;
    model_decides(p, g, b, m, &free)
}

/// The degree of a multi-index.
fn degree(a: &crate::lang::jet::MultiIndex) -> usize {
    a.iter().map(|&v| v as usize).sum::<usize>()
}

/// The shape of a Taylor model on the box: its order, its expansion point in the box, and its
/// coefficients every multi-index over the free coordinates of degree ≤ the order, once. Returns
/// the free coordinates.
fn model_shape(g: &G, b: &Bx, m: &super::taylor::Model) -> Result<Vec<usize>, String> {
    let k = b.dim();
    let free: Vec<usize> = (0..k).filter(|&i| b.lo[i] != b.hi[i]).collect();
    let order = m.order;
    if order == 0 || order > super::taylor::MAX_MODEL_ORDER {
        return Err(format!("a Taylor model of order {order}"));
    }
    if g.path.len() + order > super::problem::MAX_ORDER {
        return Err("a Taylor model beyond the highest derivative order".into());
    }
    if m.at.len() != k || !b.contains(&m.at) {
        return Err("the expansion point is outside the box".into());
    }
    // The coefficient set: every multi-index over the free coordinates of degree ≤ K, once.
    let mut seen = std::collections::HashSet::new();
    for (a, lo, hi) in &m.coeffs {
        if (0..a.len()).any(|i| a[i] > 0 && !free.contains(&i)) || degree(a) > order {
            return Err(format!("coefficient {a:?} is not a monomial of the model"));
        }
        if lo > hi {
            return Err(format!("coefficient {a:?} has lower end above upper end"));
        }
        if !seen.insert(*a) {
            return Err(format!("coefficient {a:?} appears twice"));
        }
    }
    // C(f + K, K) monomials of degree ≤ K in f variables.
    let mut count = 1usize;
    for j in 1..=order {
        count = count * (free.len() + j) / j;
    }
    if seen.len() != count {
        return Err(format!(
            "the model has {} coefficients, a model of order {order} in {} variables has {count}",
            seen.len(),
            free.len()
        ));
    }
    Ok(free)
}

/// The recorded coefficients against the checker's own enclosures of the goal's (`∂^β`)
/// Taylor coefficients: below the order at the expansion point (a recorded `[0, 0]` the
/// enclosure does not prove must be exactly 0 there), at the order over the box.
fn model_coefficients(
    p: &Problem,
    g: &G,
    b: &Bx,
    m: &super::taylor::Model,
    beta: &crate::lang::jet::MultiIndex,
    prec: u64,
) -> Result<(), String> {
    use crate::lang::jet::MultiIndex;
    let order = m.order;
    let low: Vec<&(MultiIndex, Q, Q)> = m.coeffs.iter().filter(|c| degree(&c.0) < order).collect();
    let top: Vec<&(MultiIndex, Q, Q)> = m.coeffs.iter().filter(|c| degree(&c.0) == order).collect();
    let at = Bx {
        lo: m.at.clone(),
        hi: m.at.clone(),
    };
    let arith = super::problem::Arith::Bits(prec);
    let alphas: Vec<MultiIndex> = low.iter().map(|c| c.0).collect();
    let own = p
        .goal_coefficients(arith, beta, g.positive, &at, &alphas)
        .map_err(|e| format!("cannot evaluate the coefficients at the point: {e}"))?;
    let mut unproved_zeros = Vec::new();
    for ((a, lo, hi), (e, _)) in low.iter().map(|c| (&c.0, &c.1, &c.2)).zip(&own) {
        if inside(e, lo, hi) {
            continue;
        }
        if lo.is_zero() && hi.is_zero() {
            unproved_zeros.push(*a);
            continue;
        }
        return Err(format!(
            "coefficient {a:?}: the enclosure {e} at the point is not inside the recorded [{lo}, {hi}]"
        ));
    }
    if !unproved_zeros.is_empty() {
        let signs = p
            .exact_signs(beta, g.positive, &m.at, &unproved_zeros)
            .ok_or_else(|| {
                "the recorded zero coefficients cannot be decided exactly".to_string()
            })?;
        if let Some(i) = signs
            .iter()
            .position(|s| *s != Some(std::cmp::Ordering::Equal))
        {
            return Err(format!(
                "coefficient {:?} is recorded as 0 but is not exactly 0 at the point",
                unproved_zeros[i]
            ));
        }
    }
    let alphas: Vec<MultiIndex> = top.iter().map(|c| c.0).collect();
    let own = p
        .goal_coefficients(arith, beta, g.positive, b, &alphas)
        .map_err(|e| format!("cannot evaluate the remainder over the box: {e}"))?;
    for ((a, lo, hi), (e, _)) in top.iter().map(|c| (&c.0, &c.1, &c.2)).zip(&own) {
        if !inside(e, lo, hi) {
            return Err(format!(
                "remainder coefficient {a:?}: the enclosure {e} over the box is not inside the recorded [{lo}, {hi}]"
            ));
        }
    }
    Ok(())
}

/// Decides the recorded model exactly: by the range of the polynomial over the box, or with one
/// free coordinate by the factor `hᵐ` of its lowest nonzero coefficient.
fn model_decides(
    p: &Problem,
    g: &G,
    b: &Bx,
    m: &super::taylor::Model,
    free: &[usize],
) -> Result<(), String> {
    let k = b.dim();
    let strict = strict_needed(p, g, b);
    let exempt_at_c = (0..k).any(|j| {
        let v = &m.at[j];
        let var = &p.vars[j];
        (var.lo_open && *v == var.lo)
            || (var.hi_open && *v == var.hi)
            || g.exempt.iter().any(|(i, a)| *i == j && a == v)
    });
    let h: Vec<Qi> = (0..k)
        .map(|i| Qi {
            lo: &b.lo[i] - &m.at[i],
            hi: &b.hi[i] - &m.at[i],
        })
        .collect();
    let zero = Q::from_integer(0.into());
    // The range of the polynomial.
    let mut acc = Qi::point(zero.clone());
    for (a, lo, hi) in &m.coeffs {
        let mut t = Qi {
            lo: lo.clone(),
            hi: hi.clone(),
        };
        for &i in free {
            t = t.mul(&h[i].pow(a[i] as u32));
        }
        acc = acc.add(&t);
    }
    if (strict && acc.lo > zero) || (!strict && acc.lo >= zero) {
        return Ok(());
    }
    if free.len() == 1
        && let Some(decided) = factor_decides(m, free[0], &h[free[0]], strict, exempt_at_c)
    {
        return decided;
    }
    Err(format!(
        "the Taylor model of order {} does not decide the goal (its range reaches {})",
        m.order,
        q_show(&acc.lo)
    ))
}

/// With one free coordinate `i` (`hh` = `Bᵢ − cᵢ`): the model as `hᵐ·Σⱼ cⱼ h^(j−m)` with `m`
/// the degree of its lowest nonzero coefficient, decided when the sign of `hᵐ` is fixed on the
/// box and the sum's bound has the right sign (`None`: not decided this way).
fn factor_decides(
    m: &super::taylor::Model,
    i: usize,
    hh: &Qi,
    strict: bool,
    exempt_at_c: bool,
) -> Option<Result<(), String>> {
    let zero = Q::from_integer(0.into());
    let mut cs: Vec<(u32, Qi)> = m
        .coeffs
        .iter()
        .map(|(a, lo, hi)| {
            (
                a[i] as u32,
                Qi {
                    lo: lo.clone(),
                    hi: hi.clone(),
                },
            )
        })
        .collect();
    cs.sort_by_key(|c| c.0);
    let nonzero = cs.iter().find(|(_, c)| !(c.lo.is_zero() && c.hi.is_zero()));
    let Some(&(mm, _)) = nonzero else {
        // The polynomial is 0: f = 0 on the box.
        return Some(if strict {
            Err("the model is identically 0 where the goal is strict".into())
        } else {
            Ok(())
        });
    };
    if mm == 0 || (strict && !exempt_at_c) {
        return None;
    }
    let sign = if hh.lo >= zero {
        1
    } else if hh.hi <= zero {
        if mm % 2 == 0 { 1 } else { -1 }
    } else if mm % 2 == 0 {
        1
    } else {
        return None;
    };
    let mut s = Qi::point(zero.clone());
    for (j, c) in cs.iter().filter(|(j, _)| *j >= mm) {
        s = s.add(&c.mul(&hh.pow(j - mm)));
    }
    let bound = if sign > 0 { s.lo } else { -s.hi };
    ((strict && bound > zero) || (!strict && bound >= zero)).then_some(Ok(()))
}
