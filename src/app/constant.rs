//! `balloc constant` and the Python `Check.constant`: the constant finder's report
//! ([`crate::claim::ConstantReport`]) as both give it — refused when a tightest value is not
//! finite, with the growth fits that are finite and a note saying why there is no fit when there
//! is none.

use crate::claim::ConstantReport;
use anyhow::Result;
use serde_json::Value;

/// A constant finder's report with the note on its growth fit.
#[derive(Debug, Clone)]
pub struct ConstantAnswer {
    /// The report (only finite fits kept).
    pub report: ConstantReport,
    /// Why there is no growth fit, when there is none: a single n, or every tightest value 0
    /// (the relative residuals divide by the values).
    pub fits_note: Option<String>,
}

impl ConstantAnswer {
    /// The answer of a report: an error naming the constant and n when a tightest value is not
    /// finite.
    ///
    /// ```
    /// use balloc::app::constant::ConstantAnswer;
    /// use balloc::claim::{ConstantReport, Direction, Tightest};
    /// let at = |n, value| Tightest { n, value, fails: None, trust_holds: None, trust_fails: None,
    ///     fails_unproved: false, witness: None };
    /// let r = ConstantReport { id: "x/y".into(), name: "c".into(), direction: Direction::Smallest,
    ///     per_n: vec![at(4, 1.0)], fits: vec![] };
    /// let a = ConstantAnswer::of(r.clone()).unwrap();
    /// assert_eq!(a.fits_note.as_deref(), Some("a growth fit needs at least two values of n"));
    /// assert_eq!(a.to_json()["fits_note"], "a growth fit needs at least two values of n");
    /// let bad = ConstantReport { per_n: vec![at(4, f64::INFINITY)], ..r };
    /// let e = ConstantAnswer::of(bad).unwrap_err().to_string();
    /// assert!(e.contains("returned inf for `c` at n = 4"), "{e}");
    /// ```
    pub fn of(mut report: ConstantReport) -> Result<ConstantAnswer> {
        if let Some(t) = report.per_n.iter().find(|t| !t.value.is_finite()) {
            anyhow::bail!(
                "the constant finder returned {} for `{}` at n = {}; no finite tightest value",
                t.value,
                report.name,
                t.n
            );
        }
        let fits_note = if report.per_n.len() < 2 {
            Some("a growth fit needs at least two values of n".to_string())
        } else if report.per_n.iter().all(|t| t.value == 0.0) {
            Some("every tightest value is 0, so the relative residuals are undefined".to_string())
        } else {
            None
        };
        report
            .fits
            .retain(|f| f.coefficient.is_finite() && f.rel_rms.is_finite());
        Ok(ConstantAnswer { report, fits_note })
    }

    /// The JSON document of `balloc constant --format json`: the report's fields, and
    /// `fits_note` when there is one.
    pub fn to_json(&self) -> Value {
        let mut v = serde_json::to_value(&self.report).unwrap_or(Value::Null);
        if let (Some(note), Some(o)) = (&self.fits_note, v.as_object_mut()) {
            o.insert("fits_note".into(), serde_json::json!(note));
        }
        v
    }
}
