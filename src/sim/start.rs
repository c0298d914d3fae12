//! Start states of simulated runs: every bin empty, all balls in one bin, a given gap, or an
//! explicit load vector.
//!
//! A run that starts away from the empty state shows recovery (how fast the gap comes down,
//! Los–Sauerwald–Sylvester 2023, Fig. 4.1) and, with a burn-in ([`super::Plan::burn_in`]), lets
//! an observation window begin after the start's influence has gone.

use crate::error::{Error, Result};
use crate::loads::Loads;

/// The most balls a constructed start state holds (the loads are stored as f64 and must stay
/// exact integers).
pub const MAX_START_BALLS: u64 = 1 << 50;

/// A start state, resolved to numbers (expressions in `n` are evaluated by the caller).
#[derive(Debug, Clone, PartialEq)]
pub enum Start {
    /// Every bin empty.
    Empty,
    /// `k` balls in bin 0, the other bins empty: gap `k(n − 1)/n`.
    OneBin(u64),
    /// Bin 0 holds `⌈g·n/(n − 1)⌉` balls, the other bins are empty: the smallest such state
    /// with gap `x₀(n − 1)/n ≥ g` (for `n ≥ 2`).
    Gap(f64),
    /// An explicit load vector (non-negative integers, length `n`).
    Loads(Vec<f64>),
}

impl Start {
    /// The load vector at `n` bins (`None` for [`Start::Empty`]).
    ///
    /// ```
    /// use balloc::sim::start::Start;
    /// // Gap 3 on 4 bins: x₀ = ⌈3·4/3⌉ = 4, gap 4 − 4/4 = 3.
    /// let l = Start::Gap(3.0).loads(4).unwrap().unwrap();
    /// assert_eq!(l.as_slice(), &[4.0, 0.0, 0.0, 0.0]);
    /// assert_eq!(l.gap(), 3.0);
    /// assert_eq!(Start::OneBin(6).loads(3).unwrap().unwrap().gap(), 4.0);
    /// assert!(Start::Loads(vec![1.0, 2.0]).loads(3).is_err());
    /// ```
    pub fn loads(&self, n: usize) -> Result<Option<Loads>> {
        let place = |k: u64| -> Result<Loads> {
            if k > MAX_START_BALLS {
                return Err(Error::invalid(
                    "start",
                    format!("{k} balls exceed the limit of 2^50 for a start state"),
                ));
            }
            let mut x = vec![0.0; n];
            x[0] = k as f64;
            Loads::new(x)
        };
        match self {
            Start::Empty => Ok(None),
            Start::OneBin(k) => Ok(Some(place(*k)?)),
            Start::Gap(g) => {
                if !(g.is_finite() && *g >= 0.0) {
                    return Err(Error::invalid(
                        "start",
                        format!("a gap must be a finite number ≥ 0, got {g}"),
                    ));
                }
                if n < 2 {
                    return Err(Error::invalid(
                        "start",
                        "a positive gap needs at least 2 bins",
                    ));
                }
                let k = (g * n as f64 / (n - 1) as f64 - 1e-9).ceil().max(0.0);
                if k > MAX_START_BALLS as f64 {
                    return Err(Error::invalid(
                        "start",
                        format!("gap {g} needs more than 2^50 balls in one bin"),
                    ));
                }
                Ok(Some(place(k as u64)?))
            }
            Start::Loads(x) => {
                if x.len() != n {
                    return Err(Error::invalid(
                        "start",
                        format!("the load vector has {} entries for n = {n} bins", x.len()),
                    ));
                }
                if let Some(v) = x
                    .iter()
                    .find(|v| !(v.is_finite() && **v >= 0.0 && v.fract() == 0.0))
                {
                    return Err(Error::invalid(
                        "start",
                        format!("loads must be non-negative integers, got {v}"),
                    ));
                }
                if x.iter().sum::<f64>() > MAX_START_BALLS as f64 {
                    return Err(Error::invalid(
                        "start",
                        "the load vector holds more than 2^50 balls",
                    ));
                }
                Ok(Some(Loads::new(x.clone())?))
            }
        }
    }

    /// A short label for reports.
    pub fn label(&self) -> String {
        match self {
            Start::Empty => "empty".into(),
            Start::OneBin(k) => format!("{k} balls in one bin"),
            Start::Gap(g) => format!("gap {g}"),
            Start::Loads(x) => format!("loads of {} bins", x.len()),
        }
    }
}
