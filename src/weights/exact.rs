//! Weight laws with rational parameters (the exact counterpart of [`crate::weights::WeightLaw`]).

use super::WeightLaw;
use crate::error::{Error, Result};
use crate::exact::{Q, int};
use crate::spec::{Spec, parse_ratio};
use num_traits::{One, Signed, Zero};

/// A law of i.i.d. ball weights with rational parameters.
///
/// Moments (derived): Exp(μ): `E[W] = μ`, `E[W²] = 2μ²`, MGF `1/(1 − μs)` for `s < 1/μ`;
/// Geometric on `{start, start+1, ...}` with success probability `q` (`r = 1 − q`):
/// `E[W] = start + r/q`, `E[W²] = r/q² + (start + r/q)²`, MGF `e^{s·start} q/(1 − r eˢ)` for
/// `r eˢ < 1` (Los–Sauerwald, *Balanced Allocations in Batches*, §2; docs/derivations.md §3).
///
/// ```
/// use balloc::exact::Q;
/// use balloc::weights::ExactWeights;
/// let g = ExactWeights::parse("geometric(mean=1)").unwrap(); // q = 1/2 on {0, 1, ...}
/// assert_eq!(g.mean(), Q::from_integer(1.into()));
/// assert_eq!(g.second_moment(), Q::from_integer(3.into())); // 2 + 1
/// let d = ExactWeights::parse("two-point(low=0.5,high=1.5,p=0.1)").unwrap();
/// assert_eq!(d.mean(), Q::new(6.into(), 10.into()));         // 0.9·0.5 + 0.1·1.5
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum ExactWeights {
    /// Every ball has weight 1.
    Unit,
    /// Exponential with mean `mean > 0`.
    Exponential {
        /// The mean μ.
        mean: Q,
    },
    /// Geometric on `{start, start+1, ...}`: `P(W = start + k) = q(1 − q)^k`.
    Geometric {
        /// The smallest value, 0 or 1.
        start: u32,
        /// The success probability `q ∈ (0, 1]`.
        q: Q,
    },
    /// A finite law: (value ≥ 0, probability > 0) pairs, probabilities summing exactly to 1.
    Discrete(Vec<(Q, Q)>),
}

impl ExactWeights {
    /// Parses the same spec strings as [`WeightLaw::parse`], reading every number exactly as
    /// written (`0.1` is `1/10`, `1/3` is `1/3`).
    pub fn parse(text: &str) -> Result<ExactWeights> {
        let spec = Spec::parse(text)?;
        // Validate names, keys and ranges through the float parser first (same messages).
        WeightLaw::parse(text)?;
        let ratio = |k: &str, default: &str| -> Result<Q> { Ok(spec.get_ratio(k, default)?.1) };
        let list = |k: &str| -> Result<Vec<Q>> {
            let v = spec.get(k).unwrap_or("");
            v.split(';')
                .map(|t| {
                    parse_ratio(t).map_err(|e| {
                        Error::invalid(format!("parameter `{k}` of weights `{}`", spec.name), e)
                    })
                })
                .collect()
        };
        match spec.name.as_str() {
            "unit" | "one" => Ok(ExactWeights::Unit),
            "exp" | "exponential" => {
                let spec = spec.clone().with_bare_as("mean");
                Ok(ExactWeights::Exponential {
                    mean: spec.get_ratio("mean", "1")?.1,
                })
            }
            "geometric" | "geom" => {
                let spec = spec.clone().with_bare_as("mean");
                let mean = spec.get_ratio("mean", "1")?.1;
                let start = spec.get_u64("start", 0)? as u32;
                ExactWeights::geometric(mean, start)
            }
            "two-point" => {
                let (lo, hi, p) = (ratio("low", "0")?, ratio("high", "0")?, ratio("p", "0")?);
                ExactWeights::discrete(vec![(lo, Q::one() - &p), (hi, p)])
            }
            "discrete" => ExactWeights::discrete(list("w")?.into_iter().zip(list("p")?).collect()),
            other => Err(Error::unknown(
                "weights",
                other,
                &["unit", "exp", "geometric", "two-point", "discrete"],
            )),
        }
    }

    /// The exact counterpart of a float law. Every `f64` parameter is read as its shortest
    /// round-trip decimal (the number as a user writes it, e.g. `0.1` → `1/10`); a geometric law
    /// is rebuilt from its mean. Prefer [`ExactWeights::parse`] on the original spec text.
    ///
    /// ```
    /// use balloc::{exact::Q, weights::{ExactWeights, WeightLaw}};
    /// let w = ExactWeights::from_law(&WeightLaw::parse("exp(1)").unwrap()).unwrap();
    /// assert_eq!(w, ExactWeights::Exponential { mean: Q::from_integer(1.into()) });
    /// ```
    pub fn from_law(law: &WeightLaw) -> Result<ExactWeights> {
        let dec = |v: f64| -> Result<Q> {
            parse_ratio(&format!("{v:e}")).map_err(|e| Error::invalid("weight parameter", e))
        };
        match law {
            WeightLaw::Unit => Ok(ExactWeights::Unit),
            WeightLaw::Exponential { mean } => Ok(ExactWeights::Exponential { mean: dec(*mean)? }),
            WeightLaw::Geometric { start, q } => {
                let mean = *start as f64 + (1.0 - q) / q;
                ExactWeights::geometric(dec(mean)?, *start)
            }
            WeightLaw::Discrete(v) => ExactWeights::discrete(
                v.iter()
                    .map(|(w, p)| Ok((dec(*w)?, dec(*p)?)))
                    .collect::<Result<Vec<_>>>()?,
            ),
        }
    }

    /// A geometric law on `{start, ...}` with an exact mean (`q = 1/(1 + mean)` for start 0,
    /// `q = 1/mean` for start 1).
    pub fn geometric(mean: Q, start: u32) -> Result<ExactWeights> {
        let bad = |why: String| Error::invalid("geometric weights", why);
        let q = match start {
            0 if mean.is_positive() => Q::one() / (Q::one() + &mean),
            1 if mean >= Q::one() => Q::one() / &mean,
            0 | 1 => {
                return Err(bad(format!(
                    "mean {mean} is out of range for start={start}"
                )));
            }
            s => return Err(bad(format!("start must be 0 or 1, got {s}"))),
        };
        Ok(ExactWeights::Geometric { start, q })
    }

    /// A finite law; values `≥ 0`, probabilities in `[0, 1]` summing exactly to 1 (zero
    /// probabilities are dropped).
    pub fn discrete(pairs: Vec<(Q, Q)>) -> Result<ExactWeights> {
        let bad = |why: String| Error::invalid("discrete weights", why);
        if pairs.is_empty() {
            return Err(bad("no values given".into()));
        }
        let mut s = Q::zero();
        for (w, p) in &pairs {
            if w.is_negative() {
                return Err(bad(format!("weights must be ≥ 0, got {w}")));
            }
            if p.is_negative() || *p > Q::one() {
                return Err(bad(format!("probabilities must lie in [0, 1], got {p}")));
            }
            s += p;
        }
        if !s.is_one() {
            return Err(bad(format!(
                "probabilities must sum exactly to 1, they sum to {s}"
            )));
        }
        Ok(ExactWeights::Discrete(
            pairs.into_iter().filter(|p| !p.1.is_zero()).collect(),
        ))
    }

    /// Whether every ball has weight 1.
    pub fn is_unit(&self) -> bool {
        matches!(self, ExactWeights::Unit)
    }

    /// The finite support as (value, probability) pairs, if the law is finite.
    pub fn support(&self) -> Option<Vec<(Q, Q)>> {
        match self {
            ExactWeights::Unit => Some(vec![(Q::one(), Q::one())]),
            ExactWeights::Discrete(v) => Some(v.clone()),
            _ => None,
        }
    }

    /// `E[W]`.
    pub fn mean(&self) -> Q {
        match self {
            ExactWeights::Unit => Q::one(),
            ExactWeights::Exponential { mean } => mean.clone(),
            ExactWeights::Geometric { start, q } => int(*start as i64) + (Q::one() - q) / q,
            ExactWeights::Discrete(v) => v.iter().map(|(w, p)| w * p).fold(Q::zero(), |a, b| a + b),
        }
    }

    /// `E[W²]`.
    pub fn second_moment(&self) -> Q {
        match self {
            ExactWeights::Unit => Q::one(),
            ExactWeights::Exponential { mean } => int(2) * mean * mean,
            ExactWeights::Geometric { start, q } => {
                let r = Q::one() - q;
                let m = int(*start as i64) + &r / q;
                &r / (q * q) + &m * &m
            }
            ExactWeights::Discrete(v) => v
                .iter()
                .map(|(w, p)| w * w * p)
                .fold(Q::zero(), |a, b| a + b),
        }
    }
}
