//! The search policy of the engine over the states of a setting: every state is evaluated in
//! floats; a *flagged* state (a float violation, or a margin within the float resolution) goes
//! up the certification ladder while the budget lasts; the tightest state of every group (a
//! size, a graph) is certified at the group's end. The verdict:
//!
//! | found | verdict, trust |
//! |---|---|
//! | a state certified false | `refuted`, the trust of its certification (the smallest such state) |
//! | a flagged state no certified domain decides (undecided enclosures; a float violation with no route) | `inconclusive` |
//! | hypotheses (`given`, [`Setting::inside`]) that no evaluated state meets | `inconclusive` |
//! | otherwise | `holds`, the weakest trust of the certified states (the tightest of every group among them) |
//!
//! A state where the floats hold within their resolution, or a group's tightest state, that no
//! certified domain reaches (an exponent beyond the enclosure range, …) is evidence only, like
//! every state evaluated in floats alone: counted, the first named in the notes
//! ([`Outcome::notes`]); it lowers no trust. A float violation
//! beyond the resolution is always certified. States within the resolution
//! past the budget are counted and named in the notes: they are evidence only (the tightest of
//! their group is certified at its end). This is the policy of the trust table ([`crate::claim::trust`]) applied
//! to a whole search.

use super::float::Atom;
use crate::claim::trust::{Certification, Evidence, decide};
use crate::claim::verdict::{Status, Trust};
use crate::error::Result;

/// The most flagged states certified in one search of a claim (the tightest state of each group
/// is certified in any case).
pub const CERTIFIED_STATES: u64 = 2000;

/// What a setting offers the search at one of its states.
pub trait Setting {
    /// A state of the setting.
    type State;
    /// The float evaluation of the claim at the state (None: a quantity has no float value
    /// there, only a certified one; the state is then certified).
    fn float(&self, st: &Self::State) -> Result<Option<Atom>>;
    /// The certified evaluation of the claim at the state ([`super::ladder::certify`]).
    fn certify(&self, st: &Self::State) -> Result<Certification>;
    /// Whether the state meets the claim's hypotheses (`given`), decided in floats: `None` when
    /// the claim has none (the default). A state outside them is skipped and counted; the
    /// setting certifies `given ⇒ claim`, so a state the floats put inside by mistake is still
    /// decided correctly.
    fn inside(&self, st: &Self::State) -> Result<Option<bool>> {
        let _ = st;
        Ok(None)
    }
    /// Smaller states to try when shrinking a counterexample (loads lowered, a bin removed, …),
    /// most promising first; none by default.
    fn smaller(&self, st: &Self::State) -> Vec<Self::State> {
        let _ = st;
        Vec::new()
    }
}

/// The most certified evaluations one shrinking spends.
pub const SHRINK_EVALUATIONS: u64 = 2000;

/// Shrinks a certified counterexample of a setting: while one of [`Setting::smaller`]'s states
/// is still certified false, move to it (the first such, greedily); at most
/// [`SHRINK_EVALUATIONS`] certified evaluations. Returns the smallest state reached and the
/// evaluations spent.
///
/// ```
/// use balloc::claim::engine::float::Atom;
/// use balloc::claim::engine::sweep::{shrink, Setting};
/// use balloc::claim::trust::Certification;
/// use balloc::claim::Trust;
/// // The claim k² < 10 over integers k ≥ 0; smaller states are k − 1.
/// struct Squares;
/// impl Setting for Squares {
///     type State = i64;
///     fn float(&self, _: &i64) -> balloc::Result<Option<Atom>> { Ok(None) }
///     fn certify(&self, k: &i64) -> balloc::Result<Certification> {
///         Ok(Certification::Decided { holds: k * k < 10, trust: Trust::Exact, bits: None,
///             text: String::new() })
///     }
///     fn smaller(&self, k: &i64) -> Vec<i64> { if *k > 0 { vec![k - 1] } else { vec![] } }
/// }
/// // From 9 down to 4, the smallest k with k² ≥ 10: five steps and the failed try at 3.
/// assert_eq!(shrink(&Squares, 9).unwrap(), (4, 6));
/// ```
pub fn shrink<S: Setting>(s: &S, start: S::State) -> Result<(S::State, u64)> {
    let mut best = start;
    let mut evals = 0u64;
    'outer: loop {
        for cand in s.smaller(&best) {
            if evals >= SHRINK_EVALUATIONS {
                break 'outer;
            }
            evals += 1;
            if matches!(
                s.certify(&cand)?,
                Certification::Decided { holds: false, .. }
            ) {
                best = cand;
                continue 'outer;
            }
        }
        break;
    }
    Ok((best, evals))
}

/// A state the search keeps (the counterexample, the tightest, an undecided one): what the
/// caller needs to name and rebuild it (`at`), its size, its float evaluation and its
/// certification when it has one.
#[derive(Debug, Clone)]
pub struct Spot<W> {
    /// The caller's description of the state.
    pub at: W,
    /// The state's size (a smaller counterexample is preferred).
    pub size: f64,
    /// The float evaluation.
    pub atom: Atom,
    /// The certification, when the state was certified.
    pub cert: Option<Certification>,
}

/// Counts of a search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// States evaluated.
    pub evaluated: u64,
    /// States certified.
    pub certified: u64,
    /// Float violations the certification cleared (the claim holds there).
    pub cleared: u64,
    /// Flagged states left uncertified (past the budget).
    pub uncertified: u64,
    /// States inside the hypotheses (`given`), when the claim has hypotheses.
    pub inside: u64,
    /// States outside them (skipped).
    pub outside: u64,
    /// States where the floats hold (within their resolution, or a group's tightest state) and
    /// no certified domain has a route: evidence only.
    pub unreached: u64,
}

/// The notes on a claim's hypotheses: at how many of the evaluated states they held, and a
/// warning when none did (the search then says nothing about the claim).
///
/// ```
/// use balloc::claim::engine::sweep::hypothesis_notes;
/// assert_eq!(hypothesis_notes(3, 10)[0], "hypotheses (given) held at 3 of 10 evaluated states; the others are outside the claim");
/// assert_eq!(hypothesis_notes(0, 10).len(), 2);
/// ```
pub fn hypothesis_notes(inside: u64, evaluated: u64) -> Vec<String> {
    let mut out = vec![format!(
        "hypotheses (given) held at {inside} of {evaluated} evaluated states; the others are outside the claim"
    )];
    if inside == 0 {
        out.push("no searched state meets the hypotheses: the search says nothing".into());
    }
    out
}

impl Tally {
    /// The notes a verdict carries about the certification.
    pub fn notes(&self) -> Vec<String> {
        let mut out = if self.inside + self.outside > 0 {
            hypothesis_notes(self.inside, self.inside + self.outside)
        } else {
            Vec::new()
        };
        out.push(format!(
            "{} of {} evaluated state(s) certified (the flagged states — float violations and margins within the float resolution — up to {CERTIFIED_STATES}, and the tightest state of every group); the others were evaluated in floats only",
            self.certified, self.evaluated
        ));
        if self.cleared > 0 {
            out.push(format!(
                "{} state(s) the floats flagged as violations were certified to hold",
                self.cleared
            ));
        }
        if self.uncertified > 0 {
            out.push(format!(
                "{} state(s) within the float resolution past the budget of {CERTIFIED_STATES} certified states were not certified: evidence only",
                self.uncertified
            ));
        }
        out
    }
}

impl<W> Outcome<W> {
    /// The notes a verdict carries about the search: the counts ([`Tally::notes`]) and the
    /// states no certified domain reaches, with the reason at the first of them.
    pub fn notes(&self) -> Vec<String> {
        let mut out = self.tally.notes();
        if self.tally.unreached > 0 {
            out.push(format!(
                "{} state(s) hold in floats (within their resolution, or the tightest of a group) where no certified domain reaches ({}): evidence only",
                self.tally.unreached,
                self.unreached.as_deref().unwrap_or("no certified route")
            ));
        }
        out
    }
}

/// What the search concluded ([module documentation](self)).
#[derive(Debug, Clone)]
pub struct Outcome<W> {
    /// The verdict.
    pub status: Status,
    /// Its trust.
    pub trust: Trust,
    /// The state the verdict rests on: the counterexample, the undecided state, or the tightest.
    pub spot: Option<Spot<W>>,
    /// The counts.
    pub tally: Tally,
    /// Why the first state no certified domain reaches was not certified ([`Tally::unreached`]).
    pub unreached: Option<String>,
}

/// How one state was judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seen {
    /// Holds in floats with a margin beyond rounding.
    Clear,
    /// Certified to hold.
    Holds,
    /// Certified false.
    Violation,
    /// Flagged and neither certified false nor to hold.
    Open,
    /// Within the float resolution past the certification budget: not certified, evidence only.
    Unchecked,
    /// Outside the claim's hypotheses: skipped.
    Outside,
}

/// A search in progress ([module documentation](self)).
#[derive(Debug)]
pub struct Sweep<W> {
    tol: f64,
    budget: u64,
    tally: Tally,
    violation: Option<Spot<W>>,
    open: Option<Spot<W>>,
    group: Option<Spot<W>>,
    tightest: Option<Spot<W>>,
    weakest: Option<Trust>,
    /// Why the first state no certified domain reaches was not certified.
    unreached: Option<String>,
}

fn weaker(a: Option<Trust>, b: Trust) -> Option<Trust> {
    Some(a.map_or(b, |a| a.weaker(b)))
}

impl<W> Sweep<W> {
    /// A search whose comparisons have the absolute tolerance `tol`.
    ///
    /// ```
    /// use balloc::claim::engine::float::Atom;
    /// use balloc::claim::engine::sweep::{Seen, Setting, Sweep};
    /// use balloc::claim::trust::Certification;
    /// use balloc::claim::{Status, Trust, XFloat};
    /// use balloc::lang::Approx;
    /// // The states are integers k; the claim k² ≤ 10 is decided exactly.
    /// struct Squares;
    /// impl Setting for Squares {
    ///     type State = i64;
    ///     fn float(&self, k: &i64) -> balloc::Result<Option<Atom>> {
    ///         let (l, r) = ((k * k) as f64, 10.0);
    ///         let a = |v: f64| Approx::exact(XFloat::from_f64(v));
    ///         Ok(Some(Atom { holds: l <= r, slack: a(r - l), lhs: a(l), rhs: a(r), known: true }))
    ///     }
    ///     fn certify(&self, k: &i64) -> balloc::Result<Certification> {
    ///         Ok(Certification::Decided { holds: k * k <= 10, trust: Trust::Exact, bits: None,
    ///             text: String::new() })
    ///     }
    /// }
    /// let mut s = Sweep::new(0.0);
    /// for k in [1i64, 2, 3, 5, 4] {
    ///     s.visit(&Squares, &k, k as f64, || k).unwrap();
    /// }
    /// let out = s.finish();
    /// // 4² = 16 and 5² = 25 exceed 10; the smaller counterexample is kept.
    /// assert_eq!((out.status, out.trust), (Status::Refuted, Trust::Exact));
    /// assert_eq!(out.spot.unwrap().at, 4);
    /// ```
    pub fn new(tol: f64) -> Sweep<W> {
        Sweep {
            tol,
            budget: CERTIFIED_STATES,
            tally: Tally::default(),
            violation: None,
            open: None,
            group: None,
            tightest: None,
            weakest: None,
            unreached: None,
        }
    }

    /// Evaluates the claim at one state of size `size`; `at` describes it (called only when the
    /// state is kept).
    pub fn visit<S: Setting>(
        &mut self,
        s: &S,
        st: &S::State,
        size: f64,
        at: impl FnOnce() -> W,
    ) -> Result<Seen> {
        Ok(self.visit_atom(s, st, size, at)?.0)
    }

    /// [`Sweep::visit`], with the state's float evaluation ([`Atom::unknown`] when the state
    /// has none, or lies outside the hypotheses) for a caller that steers its own search by the
    /// float slack.
    pub fn visit_atom<S: Setting>(
        &mut self,
        s: &S,
        st: &S::State,
        size: f64,
        at: impl FnOnce() -> W,
    ) -> Result<(Seen, Atom)> {
        self.tally.evaluated += 1;
        match s.inside(st)? {
            Some(false) => {
                self.tally.outside += 1;
                return Ok((Seen::Outside, Atom::unknown(true)));
            }
            Some(true) => self.tally.inside += 1,
            None => {}
        }
        // An error in floats (an integer argument that floats cannot know exactly, …) is
        // reported as the certified domains see it, when they see one.
        let atom = match s.float(st) {
            Ok(Some(a)) => a,
            Ok(None) => {
                // No float value: the certified domains decide alone.
                let cert = s.certify(st)?;
                self.tally.certified += 1;
                let holds = matches!(cert, Certification::Decided { holds: true, .. });
                let atom = Atom::unknown(holds);
                let seen = self.judge(atom, atom.resolution(self.tol), cert, size, at);
                return Ok((seen, atom));
            }
            Err(e) => return Err(s.certify(st).err().unwrap_or(e)),
        };
        let resolution = atom.resolution(self.tol);
        let clear = atom.holds && atom.slack.v > resolution;
        if clear {
            self.offer_group(atom, size, at);
            return Ok((Seen::Clear, atom));
        }
        // A float violation beyond the resolution is always certified (it may be a
        // counterexample); a margin within rounding only while the budget lasts.
        let within = atom.slack.v.abs() <= resolution;
        if within && self.tally.certified >= self.budget {
            self.tally.uncertified += 1;
            self.offer_group(atom, size, at);
            return Ok((Seen::Unchecked, atom));
        }
        let cert = s.certify(st)?;
        self.tally.certified += 1;
        Ok((self.judge(atom, resolution, cert, size, at), atom))
    }

    /// Keeps an uncertified state as its group's tightest when its float slack is the smallest
    /// so far.
    fn offer_group(&mut self, atom: Atom, size: f64, at: impl FnOnce() -> W) {
        if self
            .group
            .as_ref()
            .is_none_or(|g| atom.slack.v < g.atom.slack.v)
        {
            self.group = Some(Spot {
                at: at(),
                size,
                atom,
                cert: None,
            });
        }
    }

    fn judge(
        &mut self,
        atom: Atom,
        resolution: crate::claim::XFloat,
        cert: Certification,
        size: f64,
        at: impl FnOnce() -> W,
    ) -> Seen {
        match &cert {
            Certification::Decided {
                holds: true, trust, ..
            } => {
                if !atom.holds {
                    self.tally.cleared += 1;
                }
                self.weakest = weaker(self.weakest, *trust);
                let slack = atom.slack.v.abs();
                if atom.known
                    && self.group.as_ref().is_none_or(|g| {
                        slack < g.atom.slack.v || g.cert.is_none() && slack <= g.atom.slack.v
                    })
                {
                    let mut atom = atom;
                    atom.slack.v = slack;
                    self.group = Some(Spot {
                        at: at(),
                        size,
                        atom,
                        cert: Some(cert),
                    });
                }
                Seen::Holds
            }
            Certification::Decided { holds: false, .. } => {
                if self.violation.as_ref().is_none_or(|v| size < v.size) {
                    self.violation = Some(Spot {
                        at: at(),
                        size,
                        atom,
                        cert: Some(cert),
                    });
                }
                Seen::Violation
            }
            Certification::NoRoute(why) if atom.holds && atom.slack.v.abs() <= resolution => {
                // Floats hold within their resolution and no certified domain reaches the state
                // (e^x beyond the enclosure range, …): evidence only, like a state past the
                // budget, counted and named in the notes.
                self.tally.unreached += 1;
                if self.unreached.is_none() {
                    self.unreached = Some(why.clone());
                }
                Seen::Open
            }
            _ => {
                let evidence = Evidence {
                    float_holds: atom.holds,
                    margin: atom.slack.v.abs(),
                    resolution,
                    error_bound: None,
                    certified: cert.clone(),
                };
                if decide(&evidence).0 != Status::Holds && self.open.is_none() {
                    self.open = Some(Spot {
                        at: at(),
                        size,
                        atom,
                        cert: Some(cert),
                    });
                }
                Seen::Open
            }
        }
    }

    /// Ends a group of states (a size, a graph): its tightest state is certified (by
    /// `certify`, from its description) unless it already was, and kept if it is the tightest
    /// so far.
    pub fn end_group(&mut self, certify: impl FnOnce(&W) -> Result<Certification>) -> Result<()> {
        let Some(mut g) = self.group.take() else {
            return Ok(());
        };
        if g.cert.is_none() {
            let cert = certify(&g.at)?;
            self.tally.certified += 1;
            match &cert {
                Certification::Decided {
                    holds: true, trust, ..
                } => self.weakest = weaker(self.weakest, *trust),
                Certification::Decided { holds: false, .. } => {
                    // Floats saw a margin beyond rounding the certified domains contradict: a
                    // certified counterexample all the same.
                    if self.violation.as_ref().is_none_or(|v| g.size < v.size) {
                        self.violation = Some(Spot {
                            cert: Some(cert),
                            ..g
                        });
                    }
                    return Ok(());
                }
                Certification::NoRoute(why) => {
                    // Clear in floats where no certified domain reaches: float evidence like
                    // every uncertified state, counted and named in the notes.
                    self.tally.unreached += 1;
                    if self.unreached.is_none() {
                        self.unreached = Some(why.clone());
                    }
                }
                _ => self.weakest = weaker(self.weakest, Trust::Float),
            }
            g.cert = Some(cert);
        }
        if self
            .tightest
            .as_ref()
            .is_none_or(|t| g.atom.slack.v < t.atom.slack.v)
        {
            self.tightest = Some(g);
        }
        Ok(())
    }

    /// Whether a state was certified false.
    pub fn refuted(&self) -> bool {
        self.violation.is_some()
    }

    /// The counts so far.
    pub fn tally(&self) -> Tally {
        self.tally
    }

    /// The verdict ([module documentation](self)); call [`Sweep::end_group`] for the last
    /// group first.
    pub fn finish(self) -> Outcome<W> {
        if let Some(v) = self.violation {
            let trust = match &v.cert {
                Some(Certification::Decided { trust, .. }) => *trust,
                _ => Trust::Float,
            };
            return Outcome {
                status: Status::Refuted,
                trust,
                spot: Some(v),
                tally: self.tally,
                unreached: self.unreached,
            };
        }
        if let Some(o) = self.open {
            let trust = match &o.cert {
                Some(Certification::Undecided { .. }) => Trust::Enclosure,
                _ => Trust::Float,
            };
            return Outcome {
                status: Status::Inconclusive,
                trust,
                spot: Some(o),
                tally: self.tally,
                unreached: self.unreached,
            };
        }
        if self.tally.inside == 0 && self.tally.outside > 0 {
            // Hypotheses that no searched state meets: the search says nothing.
            return Outcome {
                status: Status::Inconclusive,
                trust: Trust::Float,
                spot: None,
                tally: self.tally,
                unreached: self.unreached,
            };
        }
        let tightest = self.tightest.or(self.group);
        Outcome {
            status: Status::Holds,
            trust: self.weakest.unwrap_or(Trust::Float),
            spot: tightest,
            tally: self.tally,
            unreached: self.unreached,
        }
    }
}
