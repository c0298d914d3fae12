//! `balloc expect` and the Python `expect`: the expectation of a potential P after one step (or
//! one batch) at a load vector x — P(x), E[P(next) | x] and E[P(next) − P(x) | x] — by the f64
//! closed form or enumeration ([`crate::expectation::expect`]), certified where a certified route
//! exists ([`crate::certify_expectation`]: exact rationals, or outward-rounded enclosures).

use super::json::{json_f64, put_scaled};
use crate::exact::Q;
use crate::expectation::{CERTIFY_LIMIT, Expectation, Method};
use crate::loads::{Levels, Loads, TieRule};
use crate::potential::Potential;
use crate::process::Process;
use crate::setting::Setting;
use crate::weights::WeightLaw;
use crate::xfloat::XFloat;
use crate::{Certified, limits};
use anyhow::{Context, Result};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The three quantities of a report, in order.
pub const QUANTITIES: [&str; 3] = ["value", "expected_next", "expected_change"];

/// A validated request: the process, the potential (with the text it was given as, which the
/// certified route parses again) and the setting (batch, weights, ties).
pub struct ExpectRequest {
    /// The process.
    pub process: Arc<dyn Process>,
    /// The potential.
    pub potential: Arc<dyn Potential>,
    /// The potential as given (a spec).
    pub potential_text: String,
    /// Batch size, weight law and tie rule.
    pub setting: Setting,
}

impl ExpectRequest {
    /// The request of already-parsed process and potential with the weight law, batch size and
    /// tie rule as the command line gives them; errors name `--weights`, `--ties`, `--batch`.
    pub fn new(
        process: Arc<dyn Process>,
        potential: Arc<dyn Potential>,
        potential_text: &str,
        weights: &str,
        batch: u64,
        ties: &str,
    ) -> Result<ExpectRequest> {
        let weights = WeightLaw::parse(weights).context("--weights")?;
        let ties = TieRule::parse(ties).context("--ties")?;
        limits::EXPECT_BATCH.check("--batch", batch)?;
        let setting = Setting::new(batch, weights, ties).context("--batch")?;
        Ok(ExpectRequest {
            process,
            potential,
            potential_text: potential_text.to_string(),
            setting,
        })
    }

    /// The request of spec texts (`--process`, `--potential`, ...), as the command line has them.
    ///
    /// ```
    /// use balloc::app::expect::ExpectRequest;
    /// let r = ExpectRequest::parse("two-choice", "quadratic", "unit", 1, "random").unwrap();
    /// // Two-Choice, Υ = Σ yᵢ² at x = (3, 0, 1, 0): y = (2, −1, 0, −1), Υ = 6; ranks 1..4 get the
    /// // ball w.p. (1, 3, 5, 7)/16, the two empty bins tied at 6/16 each; Υ' = Υ + 2y_J + 1 − 1/n,
    /// // so E[Υ'] = 6 + 2·(2·1/16 + 0·5/16 − 1·12/16) + 3/4 = 6 − 5/4 + 3/4 = 11/2.
    /// let rep = r.at(&balloc::loads::Loads::new(vec![3.0, 0.0, 1.0, 0.0]).unwrap(), true).unwrap();
    /// assert_eq!(rep.trust(), "exact");
    /// assert_eq!(rep.exact(1).unwrap().to_string(), "11/2");
    /// assert_eq!(rep.to_json()["expected_next_exact"], "11/2");
    /// let e = ExpectRequest::parse("two-choice", "quadratic", "unit", 0, "random").err().unwrap();
    /// assert!(format!("{e:#}").starts_with("--batch"), "{e:#}");
    /// ```
    pub fn parse(
        process: &str,
        potential: &str,
        weights: &str,
        batch: u64,
        ties: &str,
    ) -> Result<ExpectRequest> {
        let proc_ = crate::process::parse_with(process, &crate::input::Dir::current())
            .context("--process")?;
        let pot = crate::potential::parse(potential).context("--potential")?;
        ExpectRequest::new(proc_.into(), pot.into(), potential, weights, batch, ties)
    }

    /// The report at the loads `x`, certified when `certify` ([`ExpectRequest::certified`]).
    pub fn at(&self, x: &Loads, certify: bool) -> Result<ExpectReport> {
        let e = crate::expectation::expect(
            self.process.as_ref(),
            self.potential.as_ref(),
            x,
            &self.setting,
        )?;
        let cert = if certify { self.certified(x) } else { None };
        self.report(e, cert)
    }

    /// The certified values at the loads `x` when `n ≤` [`CERTIFY_LIMIT`] and a certified route
    /// exists (exact rationals, or enclosures); `None` otherwise.
    pub fn certified(&self, x: &Loads) -> Option<Certified> {
        if x.n() > CERTIFY_LIMIT {
            return None;
        }
        crate::certify_expectation(
            self.process.as_ref(),
            &self.potential_text,
            x,
            &self.setting,
        )
        .ok()
        .flatten()
    }

    /// The f64 expectation from the load levels alone (loads counted by value, memory
    /// O(levels)), when the expectation needs only them ([`ExpectRequest::levels_suffice`]).
    /// `Ok(None)` when that route does not apply.
    pub fn expectation_at_levels(&self, levels: &Levels) -> Result<Option<Expectation>> {
        if !self.levels_suffice() {
            return Ok(None);
        }
        Ok(crate::expectation::expect_counted(
            self.process.as_ref(),
            self.potential.as_ref(),
            levels,
            &self.setting,
        )?)
    }

    /// Whether the load levels suffice: a rank-based process, a potential with a level form, and
    /// one ball or random ties.
    pub fn levels_suffice(&self) -> bool {
        self.process.info().rank_based
            && self.potential.has_level_form(&self.setting)
            && (self.setting.batch == 1 || self.setting.ties == TieRule::Random)
    }

    /// The report of an expectation and its certified values. Every reported number is finite:
    /// a float value that is not finite even in the log domain is an error naming the potential
    /// (an exact value is kept whatever its size).
    pub fn report(&self, e: Expectation, cert: Option<Certified>) -> Result<ExpectReport> {
        if !matches!(cert, Some(Certified::Exact(_)))
            && let Some(why) = e.not_finite(&self.potential.spec())
        {
            anyhow::bail!(why);
        }
        Ok(ExpectReport {
            n: e.n,
            process: self.process.spec(),
            potential: self.potential.spec(),
            weights: self.setting.weights.spec(),
            batch: self.setting.batch,
            ties: self.setting.ties.name(),
            method: match e.method {
                Method::ClosedForm => "closed-form",
                Method::Enumeration => "enumeration",
            },
            floats: [e.value, e.expected_next, e.expected_change],
            cert,
        })
    }
}

/// The result: the three quantities by the f64 route, and their certified values when there are
/// some.
#[derive(Debug, Clone)]
pub struct ExpectReport {
    /// The number of bins.
    pub n: usize,
    /// The process's canonical spec.
    pub process: String,
    /// The potential's canonical spec.
    pub potential: String,
    /// The weight law's spec.
    pub weights: String,
    /// The batch size.
    pub batch: u64,
    /// The tie rule's name.
    pub ties: &'static str,
    /// The f64 route: `closed-form` or `enumeration`.
    pub method: &'static str,
    /// P(x), E[P(next) | x], E[P(next) − P(x) | x] by the f64 route.
    pub floats: [XFloat; 3],
    /// The certified values, when a certified route exists.
    pub cert: Option<Certified>,
}

impl ExpectReport {
    /// The trust level: `exact`, `enclosure` or `float`.
    pub fn trust(&self) -> &'static str {
        match &self.cert {
            Some(Certified::Exact(_)) => "exact",
            Some(Certified::Enclosure(..)) => "enclosure",
            None => "float",
        }
    }

    /// Quantity `i` as reported: the nearest f64 of the exact value when there is one, the
    /// midpoint of the enclosure when there is one (so the number lies inside it), else the
    /// float.
    pub fn reported(&self, i: usize) -> XFloat {
        match &self.cert {
            Some(Certified::Exact(q)) => crate::exact::to_xfloat(&q[i]),
            Some(Certified::Enclosure(iv, _)) => iv[i].mid_x(),
            None => self.floats[i],
        }
    }

    /// Quantity `i` exactly, when the trust level is `exact`.
    pub fn exact(&self, i: usize) -> Option<&Q> {
        match &self.cert {
            Some(Certified::Exact(q)) => Some(&q[i]),
            _ => None,
        }
    }

    /// The ends `(lo, hi)` of quantity `i`'s enclosure, when the trust level is `enclosure`.
    pub fn enclosure(&self, i: usize) -> Option<(f64, f64)> {
        match &self.cert {
            Some(Certified::Enclosure(iv, _)) => Some((iv[i].lo_f64(), iv[i].hi_f64())),
            _ => None,
        }
    }

    /// The working precision of the enclosures in bits, when the trust level is `enclosure`.
    pub fn precision_bits(&self) -> Option<u64> {
        match &self.cert {
            Some(Certified::Enclosure(_, p)) => Some(*p),
            _ => None,
        }
    }

    /// The JSON document of `balloc expect --format json`: `n`, `process`, `potential`,
    /// `weights`, `batch`, `ties`, `method`, `trust`, the three quantities (with their
    /// logarithms, [`put_scaled`]), `*_exact` (rationals as `p/q` text) when exact, and
    /// `enclosure` (`precision_bits`, each quantity's ends as numbers and as outward-rounded
    /// text) when enclosed.
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("n".into(), json!(self.n));
        o.insert("process".into(), json!(self.process));
        o.insert("potential".into(), json!(self.potential));
        o.insert("weights".into(), json!(self.weights));
        o.insert("batch".into(), json!(self.batch));
        o.insert("ties".into(), json!(self.ties));
        o.insert("method".into(), json!(self.method));
        o.insert("trust".into(), json!(self.trust()));
        for (i, name) in QUANTITIES.iter().enumerate() {
            put_scaled(&mut o, name, &self.reported(i), i == 2);
        }
        match &self.cert {
            Some(Certified::Exact(q)) => {
                for (i, name) in QUANTITIES.iter().enumerate() {
                    o.insert(format!("{name}_exact"), json!(q[i].to_string()));
                }
            }
            Some(Certified::Enclosure(iv, prec)) => {
                let mut m = Map::new();
                m.insert("precision_bits".into(), json!(prec));
                for (i, name) in QUANTITIES.iter().enumerate() {
                    m.insert(
                        (*name).into(),
                        json!([json_f64(iv[i].lo_f64()), json_f64(iv[i].hi_f64())]),
                    );
                    // The ends as text, rounded outward, at any magnitude.
                    m.insert(
                        format!("{name}_text"),
                        json!([
                            crate::enclosure::sci(iv[i].lo(), false),
                            crate::enclosure::sci(iv[i].hi(), true)
                        ]),
                    );
                }
                o.insert("enclosure".into(), Value::Object(m));
            }
            None => {}
        }
        Value::Object(o)
    }
}
