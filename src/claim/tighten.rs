//! The constant finder, one for every kind: the tightest value of a constant that a file's
//! `[tighten]` table names, per number of bins, bracketed by the nearest value where the claim
//! fails, with the growth fit of the per-n values ([`crate::growth::fit_growth`]).
//!
//! A kind supplies what it alone knows: its constants' names, the sizes to run, where the
//! search starts, and a decision at one value of the constant (a [`Trial`]: kept or not, with the
//! verdict's status, trust and witness). The finder owns the rest: resolving the name and its
//! declared direction (one error wording for every kind), the bisection (from a start value over
//! the whole real line, [`crate::search::bisect_bracket`], or inside the two ends of the file's
//! grid), the report of each size ([`Tightest`]) and the growth fit.

use super::schema::{Direction, Theorem};
use super::verdict::{Status, Trust, Verdict, Witness};
use crate::error::{Error, Result};
use crate::exact::{Q, to_f64};
use crate::growth::GrowthFit;

/// The tightest value of a constant at one n.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Tightest {
    /// The number of bins (0 for a claim without one, kind `real`).
    pub n: usize,
    /// The tightest value for which the claim survives the search (shown to hold).
    pub value: f64,
    /// The nearest value shown to fail (a `refuted` verdict), bracketing the tightest value with
    /// `value`; `None` when no failing value was found.
    pub fails: Option<f64>,
    /// The trust level of the verdict at `value`.
    pub trust_holds: Option<Trust>,
    /// The trust level of the refutation at `fails`.
    pub trust_fails: Option<Trust>,
    /// Whether `fails` is a value where the claim was not shown to hold (an `inconclusive`
    /// verdict: a claim over a range of a constant kept only where proved over the whole range)
    /// rather than refuted.
    pub fails_unproved: bool,
    /// The state that pins it: the counterexample just past the tightest value, else the tightest
    /// state where it holds.
    pub witness: Option<Witness>,
}

/// The constant finder's result.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ConstantReport {
    /// The theorem id.
    pub id: String,
    /// The constant.
    pub name: String,
    /// The direction.
    pub direction: Direction,
    /// Per n.
    pub per_n: Vec<Tightest>,
    /// Growth fits, best first (empty with fewer than two sizes).
    pub fits: Vec<GrowthFit>,
}

/// A kind's decision at one value of the constant.
#[derive(Debug, Clone)]
pub struct Trial {
    /// Whether the claim is kept at the value (it holds, or is proved where the kind keeps only
    /// proofs).
    pub kept: bool,
    /// The verdict's status there: a value not kept is a failure when `Refuted`, otherwise only
    /// not shown to hold.
    pub status: Status,
    /// The verdict's trust.
    pub trust: Trust,
    /// Its witness (the counterexample when refuted, else the tightest state).
    pub witness: Option<Witness>,
}

impl Trial {
    /// The trial of a whole verdict, kept or not as the kind decides.
    pub fn of(v: Verdict, kept: bool) -> Trial {
        Trial {
            kept,
            status: v.verdict,
            trust: v.trust,
            witness: v.witness,
        }
    }
}

/// The constant finder of one constant of one file.
pub struct Finder<'t> {
    t: &'t Theorem,
    /// The constant's name.
    pub name: String,
    /// Its index in the kind's list of constants.
    pub index: usize,
    /// The direction declared in the file's `[tighten]` table.
    pub direction: Direction,
}

impl<'t> Finder<'t> {
    /// The finder of constant `name` among the kind's `names`: an unknown name is an error listing
    /// the constants, a constant without a direction in `[tighten]` one naming the table.
    pub fn new<S: AsRef<str>>(t: &'t Theorem, name: &str, names: &[S]) -> Result<Finder<'t>> {
        let index = names
            .iter()
            .position(|s| s.as_ref() == name)
            .ok_or_else(|| {
                let all: Vec<&str> = names.iter().map(|s| s.as_ref()).collect();
                Error::unknown("constant", name, &all)
            })?;
        let direction = *t.file.tighten.get(name).ok_or_else(|| {
            Error::invalid(
                "--name",
                format!(
                    "`{name}` has no direction in the file's [tighten] table (smallest or largest)"
                ),
            )
        })?;
        Ok(Finder {
            t,
            name: name.to_string(),
            index,
            direction,
        })
    }

    /// The tightest value at size `n` by bisection over the whole real line from `start`, to
    /// relative precision `rel` ([`crate::search::bisect_bracket`]); each value is decided by
    /// `decide` at its exact rational (the shortest decimal of the float).
    pub fn starting_at(
        &self,
        n: usize,
        start: f64,
        rel: f64,
        mut decide: impl FnMut(&Q) -> Result<Trial>,
    ) -> Result<Tightest> {
        let mut trials: Vec<(f64, Trial)> = Vec::new();
        let mut holds = |v: f64| -> Result<bool> {
            let q = crate::spec::parse_ratio(&format!("{v:e}"))
                .map_err(|e| Error::invalid("constant", e))?;
            let trial = decide(&q)?;
            let kept = trial.kept;
            trials.push((v, trial));
            Ok(kept)
        };
        let bracket = crate::search::bisect_bracket(self.direction, start, rel, &mut holds)?;
        let at = |v: f64| trials.iter().find(|(x, _)| *x == v).map(|(_, t)| t);
        Ok(tightest(
            n,
            (bracket.holds, at(bracket.holds)),
            bracket.fails.map(|f| (f, at(f))),
        ))
    }

    /// The tightest value at size `n` by bisection between the two ends `lo < hi` of the file's
    /// grid: `Smallest` keeps `hi`, `Largest` keeps `lo`; the bracket is halved until it is at most
    /// 10⁻⁶ of `hi − lo` wide (20 halvings). When the kept end already fails, that value is
    /// reported as failing; when the other end holds, as holding (the grid does not bracket the
    /// tightest value).
    pub fn within(
        &self,
        n: usize,
        lo: &Q,
        hi: &Q,
        mut decide: impl FnMut(&Q) -> Result<Trial>,
    ) -> Result<Tightest> {
        use num_traits::Signed;
        let (mut good, mut bad) = match self.direction {
            Direction::Smallest => (hi.clone(), lo.clone()),
            Direction::Largest => (lo.clone(), hi.clone()),
        };
        let mut good_trial = decide(&good)?;
        if !good_trial.kept {
            let g = to_f64(&good);
            return Ok(tightest(n, (g, None), Some((g, Some(&good_trial)))));
        }
        let mut bad_trial = decide(&bad)?;
        if bad_trial.kept {
            return Ok(tightest(n, (to_f64(&bad), Some(&bad_trial)), None));
        }
        let width = (hi - lo) * Q::new(1.into(), 1_000_000.into());
        while (&good - &bad).abs() > width {
            let mid = (&good + &bad) / Q::from_integer(2.into());
            let trial = decide(&mid)?;
            if trial.kept {
                (good, good_trial) = (mid, trial);
            } else {
                (bad, bad_trial) = (mid, trial);
            }
        }
        Ok(tightest(
            n,
            (to_f64(&good), Some(&good_trial)),
            Some((to_f64(&bad), Some(&bad_trial))),
        ))
    }

    /// The two ends `lo < hi` of the file's grid of this finder's constant in `constants` (the
    /// bracket of the kinds that bisect between them): its literal values, through
    /// [`Finder::grid_ends`].
    pub fn grid_of(&self, constants: &super::setup::Constants) -> Result<(Q, Q)> {
        let values: Vec<Q> = constants.defs[self.index]
            .iter()
            .filter_map(|d| d.expr.as_constant())
            .collect();
        self.grid_ends(&values)
    }

    /// The two ends `lo < hi` of the grid of a constant with values `values` (the file's list):
    /// an error naming the constant when it has fewer than two.
    pub fn grid_ends(&self, values: &[Q]) -> Result<(Q, Q)> {
        match (values.iter().min(), values.iter().max()) {
            (Some(lo), Some(hi)) if lo < hi => Ok((lo.clone(), hi.clone())),
            _ => Err(Error::invalid(
                self.t.file_name(),
                format!(
                    "constant `{}`: give a grid of two numbers [low, high] as the bracket of the search",
                    self.name
                ),
            )),
        }
    }

    /// The report of the per-size values, with their growth fit when there are two sizes or more.
    pub fn report(&self, per_n: Vec<Tightest>) -> ConstantReport {
        let mut sizes: Vec<usize> = per_n.iter().map(|t| t.n).filter(|&n| n > 0).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let fits = if sizes.len() >= 2 {
            let pts: Vec<(f64, f64)> = per_n.iter().map(|t| (t.n as f64, t.value)).collect();
            crate::growth::fit_growth(&pts)
        } else {
            vec![]
        };
        ConstantReport {
            id: self.t.id.clone(),
            name: self.name.clone(),
            direction: self.direction,
            per_n,
            fits,
        }
    }
}

/// The report of one size from the kept value and its trial, and the failing value and its trial
/// (when one was found).
fn tightest(
    n: usize,
    kept: (f64, Option<&Trial>),
    fails: Option<(f64, Option<&Trial>)>,
) -> Tightest {
    let good = kept.1.filter(|t| t.kept);
    let bad = fails.and_then(|f| f.1);
    Tightest {
        n,
        value: kept.0,
        fails: fails.map(|f| f.0),
        trust_holds: good.map(|t| t.trust),
        trust_fails: bad.filter(|t| t.status == Status::Refuted).map(|t| t.trust),
        fails_unproved: bad.is_some_and(|t| t.status != Status::Refuted),
        witness: bad
            .and_then(|t| t.witness.clone())
            .or_else(|| good.and_then(|t| t.witness.clone())),
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    fn theorem(tighten: &str) -> Theorem {
        let text = format!(
            "title = \"t\"\nkind = \"inequality\"\nexpected = \"open\"\nstatement = \"s\"\n\
             [source]\nlocator = \"x\"\nprovenance = \"derived\"\n[claim]\nexpr = \"c >= 0\"\n\
             [tighten]\n{tighten}\n"
        );
        Theorem {
            id: "t/x".into(),
            path: "t/x.toml".into(),
            text: text.clone(),
            file: crate::claim::schema::parse_file("t/x.toml", &text).unwrap(),
            paper: None,
        }
    }

    /// The claim "c ≥ 1/3" (kept from 1/3 up, refuted below, exactly): the trial at a rational.
    fn at_least_a_third(q: &Q) -> Result<Trial> {
        let kept = *q >= Q::new(1.into(), 3.into());
        Ok(Trial {
            kept,
            status: if kept { Status::Holds } else { Status::Refuted },
            trust: Trust::Exact,
            witness: None,
        })
    }

    fn bisection_inside_a_grid_brackets_the_threshold() {
        let t = theorem("c = \"smallest\"");
        let f = Finder::new(&t, "c", &["b", "c"]).unwrap();
        assert_eq!((f.index, f.direction), (1, Direction::Smallest));
        let (lo, hi) = f
            .grid_ends(&[Q::from_integer(1.into()), Q::from_integer(0.into())])
            .unwrap();
        let r = f.within(8, &lo, &hi, at_least_a_third).unwrap();
        // 20 halvings of [0, 1]: the kept end within 2⁻²⁰ < 10⁻⁶ above 1/3, the other below.
        let fails = r.fails.unwrap();
        assert!(r.value >= 1.0 / 3.0 && r.value - fails <= 1e-6, "{r:?}");
        assert!(fails < 1.0 / 3.0);
        assert_eq!(
            (r.trust_holds, r.trust_fails),
            (Some(Trust::Exact), Some(Trust::Exact))
        );
        assert!(!r.fails_unproved);
        // A grid whose kept end fails: that end is reported as failing, nothing holds.
        let (lo, hi) = (Q::new(0.into(), 1.into()), Q::new(1.into(), 4.into()));
        let r = f.within(8, &lo, &hi, at_least_a_third).unwrap();
        assert_eq!((r.value, r.fails, r.trust_holds), (0.25, Some(0.25), None));
    }

    fn bisection_from_a_start_and_the_report() {
        let t = theorem("c = \"smallest\"");
        let f = Finder::new(&t, "c", &["c"]).unwrap();
        let per_n: Vec<Tightest> = [4usize, 16]
            .iter()
            .map(|&n| f.starting_at(n, 1.0, 1e-9, at_least_a_third).unwrap())
            .collect();
        for r in &per_n {
            assert!((r.value - 1.0 / 3.0).abs() < 1e-9 && r.fails.unwrap() < 1.0 / 3.0);
        }
        // Two sizes with the same value: the constant model fits with residual 0.
        let rep = f.report(per_n);
        assert_eq!(rep.fits[0].model, crate::growth::Growth::Constant);
        assert!(rep.fits[0].rel_rms < 1e-9);
        // A value that is not refuted but not kept either is "not shown to hold".
        let undecided = |q: &Q| {
            let mut tr = at_least_a_third(q)?;
            if !tr.kept {
                tr.status = Status::Inconclusive;
            }
            Ok(tr)
        };
        let r = f.starting_at(4, 1.0, 1e-6, undecided).unwrap();
        assert!(r.fails_unproved && r.trust_fails.is_none());
    }

    fn names_and_directions_are_checked() {
        let t = theorem("c = \"largest\"");
        let e = Finder::new(&t, "d", &["c"]).err().unwrap().to_string();
        assert!(e.contains("`d`") && e.contains("c"), "{e}");
        let e = Finder::new(&t, "b", &["b", "c"]).err().unwrap().to_string();
        assert!(
            e.contains("has no direction in the file's [tighten] table"),
            "{e}"
        );
        let f = Finder::new(&t, "c", &["b", "c"]).unwrap();
        let e = f
            .grid_ends(&[Q::from_integer(1.into())])
            .unwrap_err()
            .to_string();
        assert!(e.contains("give a grid of two numbers"), "{e}");
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "bisection_inside_a_grid_brackets_the_threshold",
            run: bisection_inside_a_grid_brackets_the_threshold,
            panics: None,
        },
        crate::unit::Test {
            name: "bisection_from_a_start_and_the_report",
            run: bisection_from_a_start_and_the_report,
            panics: None,
        },
        crate::unit::Test {
            name: "names_and_directions_are_checked",
            run: names_and_directions_are_checked,
            panics: None,
        },
    ];
}
