//! Ball weight laws: i.i.d. weights `W` with known moments and moment generating function
//! `M(s) = E[e^{sW}]`.
//!
//! Reference: Los–Sauerwald, *Balanced Allocations in Batches* (SPAA 2022), §2 (weights with
//! `E[W] = 1` and a finite MGF `E[e^{λW}] < S`), and Peres–Talwar–Wieder (SODA 2010), weighted case.
//! MGFs (derived): Exp(μ): `M(s) = 1/(1 − μs)` for `s < 1/μ`; Geometric on {0,1,...} with success
//! probability q: `M(s) = q/(1 − (1−q)eˢ)` for `s < −ln(1−q)`.

use crate::error::{Error, Result};
use crate::spec::{Spec, parse_f64};
use rand::{Rng, RngExt};

mod exact;

pub use exact::ExactWeights;

/// A law of ball weights.
///
/// ```
/// use balloc::weights::WeightLaw;
/// let w = WeightLaw::parse("exp(1)").unwrap();
/// assert_eq!(w.mean(), 1.0);
/// assert_eq!(w.second_moment(), 2.0);            // E[W²] = 2μ² for Exp(μ)
/// assert!((w.mgf(0.5).unwrap() - 2.0).abs() < 1e-15); // 1/(1 − 0.5)
/// assert!(w.mgf(1.0).is_err());                   // outside the domain s < 1
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum WeightLaw {
    /// Every ball has weight 1.
    Unit,
    /// Exponential with the given mean μ > 0.
    Exponential {
        /// The mean μ.
        mean: f64,
    },
    /// Geometric on {start, start+1, ...} with success probability `q`:
    /// `P(W = start + k) = q(1 − q)^k`.
    Geometric {
        /// The smallest value, 0 or 1.
        start: u32,
        /// The success probability q ∈ (0, 1].
        q: f64,
    },
    /// Any finite discrete law: (value, probability) pairs, values ≥ 0, probabilities summing to 1.
    Discrete(Vec<(f64, f64)>),
}

/// The registered weight laws with their parameters, for `balloc list weights` and error messages.
pub const WEIGHT_LAWS: &[(&str, &str, &str)] = &[
    ("unit", "", "every ball has weight 1"),
    (
        "exp",
        "mean=1",
        "exponential with mean μ; MGF 1/(1 − μs) for s < 1/μ (PTW weighted case; batched paper §2)",
    ),
    (
        "geometric",
        "mean=1, start=0",
        "geometric on {start, start+1, ...} with the given mean; start=0 and mean 1 gives P(W=k)=2^{-k-1}",
    ),
    (
        "two-point",
        "low, high, p",
        "weight `high` with probability p, otherwise `low`",
    ),
    (
        "discrete",
        "w=v1;v2;..., p=p1;p2;...",
        "any finite law: values w with probabilities p",
    ),
];

fn names() -> Vec<&'static str> {
    WEIGHT_LAWS.iter().map(|w| w.0).collect()
}

impl WeightLaw {
    /// Parses a weight spec: `unit`, `exp(1)`, `exp(mean=2)`, `geometric(mean=1)`,
    /// `geometric(mean=2,start=1)`, `two-point(low=0.5,high=1.5,p=0.5)`,
    /// `discrete(w=0.5;1.5,p=0.5;0.5)`.
    pub fn parse(text: &str) -> Result<WeightLaw> {
        let spec = Spec::parse(text)?;
        let ctx = |k: &str| format!("parameter `{k}` of weights `{}`", spec.name);
        let law = match spec.name.as_str() {
            "unit" | "one" => {
                spec.check_keys(&[])?;
                WeightLaw::Unit
            }
            "exp" | "exponential" => {
                let spec = spec.clone().with_bare_as("mean");
                spec.check_keys(&["mean"])?;
                WeightLaw::exponential(spec.get_f64("mean", 1.0)?)?
            }
            "geometric" | "geom" => {
                let spec = spec.clone().with_bare_as("mean");
                spec.check_keys(&["mean", "start"])?;
                let start = spec.get_u64("start", 0)?;
                WeightLaw::geometric(spec.get_f64("mean", 1.0)?, start)?
            }
            "two-point" => {
                spec.check_keys(&["low", "high", "p"])?;
                let need = |k: &str| {
                    spec.get(k)
                        .ok_or_else(|| Error::invalid(ctx(k), "is required"))
                        .and_then(|v| parse_f64(v).map_err(|e| Error::invalid(ctx(k), e)))
                };
                let (lo, hi, p) = (need("low")?, need("high")?, need("p")?);
                WeightLaw::discrete(vec![(lo, 1.0 - p), (hi, p)])?
            }
            "discrete" => {
                spec.check_keys(&["w", "p"])?;
                let list = |k: &str| -> Result<Vec<f64>> {
                    let v = spec
                        .get(k)
                        .ok_or_else(|| Error::invalid(ctx(k), "is required"))?;
                    v.split(';')
                        .map(|t| parse_f64(t).map_err(|e| Error::invalid(ctx(k), e)))
                        .collect()
                };
                let (w, p) = (list("w")?, list("p")?);
                if w.len() != p.len() {
                    return Err(Error::invalid(
                        format!("weights `{text}`"),
                        "w and p must have the same length",
                    ));
                }
                WeightLaw::discrete(w.into_iter().zip(p).collect())?
            }
            other => return Err(Error::unknown("weights", other, &names())),
        };
        Ok(law)
    }

    /// Exponential weights with mean `mean > 0`.
    ///
    /// The mean is at most [`crate::limits::WEIGHT`], so that every moment the closed forms use
    /// stays finite.
    /// ```
    /// use balloc::weights::WeightLaw;
    /// assert!(WeightLaw::exponential(1e12).is_ok());
    /// let e = WeightLaw::exponential(1e308).unwrap_err().to_string();
    /// assert!(e.starts_with("invalid mean of exp: 1e308 is above the limit of 1000000000000"));
    /// ```
    pub fn exponential(mean: f64) -> Result<WeightLaw> {
        if !(mean > 0.0 && mean.is_finite()) {
            return Err(Error::invalid(
                "mean of exp",
                format!("must be a finite number > 0, got {mean}"),
            ));
        }
        crate::limits::WEIGHT.check_f64("mean of exp", mean)?;
        Ok(WeightLaw::Exponential { mean })
    }

    /// Geometric weights on {start, start+1, ...} with the given mean
    /// (start = 0: mean > 0, q = 1/(1+mean); start = 1: mean ≥ 1, q = 1/mean), at most
    /// [`crate::limits::WEIGHT`].
    /// ```
    /// use balloc::weights::WeightLaw;
    /// // On {1, 2, ...} with mean 2: q = 1/2; W − 1 has mean 1 and variance (1 − q)/q² = 2,
    /// // so E[W²] = 2 + 2² = 6; the MGF q eˢ/(1 − (1 − q)eˢ) is finite for s < ln 2.
    /// let w = WeightLaw::geometric(2.0, 1).unwrap();
    /// assert_eq!((w.mean(), w.second_moment()), (2.0, 6.0));
    /// assert!((w.mgf_limit() - 2f64.ln()).abs() < 1e-15);
    /// assert!(WeightLaw::geometric(0.5, 1).is_err()); // mean < 1 on {1, 2, ...}
    /// ```
    pub fn geometric(mean: f64, start: u64) -> Result<WeightLaw> {
        let bad = |why: String| Error::invalid("geometric weights", why);
        if !mean.is_finite() {
            return Err(bad(format!("mean must be finite, got {mean}")));
        }
        crate::limits::WEIGHT.check_f64("mean of geometric weights", mean.abs())?;
        let q = match start {
            0 if mean > 0.0 => 1.0 / (1.0 + mean),
            1 if mean >= 1.0 => 1.0 / mean,
            0 => return Err(bad(format!("mean must be > 0 for start=0, got {mean}"))),
            1 => return Err(bad(format!("mean must be ≥ 1 for start=1, got {mean}"))),
            s => return Err(bad(format!("start must be 0 or 1, got {s}"))),
        };
        Ok(WeightLaw::Geometric {
            start: start as u32,
            q,
        })
    }

    /// A finite law; values must be finite, ≥ 0 and at most [`crate::limits::WEIGHT`],
    /// probabilities ≥ 0 summing to 1 (to 1e-12).
    /// ```
    /// use balloc::weights::WeightLaw;
    /// // 0.5 or 1.5 with probability ½ each: E[W] = 1, E[W²] = (0.25 + 2.25)/2 = 1.25.
    /// let w = WeightLaw::discrete(vec![(0.5, 0.5), (1.5, 0.5)]).unwrap();
    /// assert_eq!((w.mean(), w.second_moment()), (1.0, 1.25));
    /// assert!(WeightLaw::discrete(vec![(1.0, 0.9)]).is_err()); // probabilities sum to 0.9
    /// ```
    pub fn discrete(pairs: Vec<(f64, f64)>) -> Result<WeightLaw> {
        let bad = |why: String| Error::invalid("discrete weights", why);
        if pairs.is_empty() {
            return Err(bad("no values given".into()));
        }
        for &(w, p) in &pairs {
            if !(w.is_finite() && w >= 0.0) {
                return Err(bad(format!("weights must be finite and ≥ 0, got {w}")));
            }
            crate::limits::WEIGHT.check_f64("discrete weights", w)?;
            if !(p.is_finite() && (0.0..=1.0).contains(&p)) {
                return Err(bad(format!("probabilities must lie in [0, 1], got {p}")));
            }
        }
        let s: f64 = pairs.iter().map(|p| p.1).sum();
        if (s - 1.0).abs() > 1e-12 {
            return Err(bad(format!("probabilities must sum to 1, they sum to {s}")));
        }
        Ok(WeightLaw::Discrete(
            pairs.into_iter().filter(|p| p.1 > 0.0).collect(),
        ))
    }

    /// The canonical spec string.
    pub fn spec(&self) -> String {
        match self {
            WeightLaw::Unit => "unit".into(),
            WeightLaw::Exponential { mean } => format!("exp(mean={mean})"),
            WeightLaw::Geometric { start, q } => {
                format!(
                    "geometric(mean={},start={start})",
                    self.mean_of_geometric(*start, *q)
                )
            }
            WeightLaw::Discrete(v) => {
                let w: Vec<String> = v.iter().map(|p| p.0.to_string()).collect();
                let p: Vec<String> = v.iter().map(|p| p.1.to_string()).collect();
                format!("discrete(w={},p={})", w.join(";"), p.join(";"))
            }
        }
    }

    fn mean_of_geometric(&self, start: u32, q: f64) -> f64 {
        start as f64 + (1.0 - q) / q
    }

    /// Whether every ball has weight exactly 1.
    pub fn is_unit(&self) -> bool {
        matches!(self, WeightLaw::Unit)
    }

    /// The finite support as (value, probability) pairs, if the law is finite.
    pub fn support(&self) -> Option<Vec<(f64, f64)>> {
        match self {
            WeightLaw::Unit => Some(vec![(1.0, 1.0)]),
            WeightLaw::Discrete(v) => Some(v.clone()),
            _ => None,
        }
    }

    /// `E[W]`.
    pub fn mean(&self) -> f64 {
        match self {
            WeightLaw::Unit => 1.0,
            WeightLaw::Exponential { mean } => *mean,
            WeightLaw::Geometric { start, q } => self.mean_of_geometric(*start, *q),
            WeightLaw::Discrete(v) => v.iter().map(|(w, p)| w * p).sum(),
        }
    }

    /// `E[W²]`.
    pub fn second_moment(&self) -> f64 {
        match self {
            WeightLaw::Unit => 1.0,
            WeightLaw::Exponential { mean } => 2.0 * mean * mean,
            WeightLaw::Geometric { start, q } => {
                // K = W − start has mean r/q and variance r/q², r = 1 − q.
                let r = 1.0 - q;
                let (m, v) = (r / q, r / (q * q));
                let s = *start as f64;
                v + (m + s) * (m + s)
            }
            WeightLaw::Discrete(v) => v.iter().map(|(w, p)| w * w * p).sum(),
        }
    }

    /// The supremum of the MGF domain: `M(s) < ∞` exactly for `s < s_max` (∞ for finite laws).
    pub fn mgf_limit(&self) -> f64 {
        match self {
            WeightLaw::Exponential { mean } => 1.0 / mean,
            WeightLaw::Geometric { q, .. } if *q < 1.0 => -(1.0 - q).ln(),
            _ => f64::INFINITY,
        }
    }

    fn domain_error(&self, s: f64) -> Error {
        Error::invalid(
            format!("MGF argument of weights `{}`", self.spec()),
            format!(
                "E[e^(sW)] is infinite for s = {s}; the MGF exists only for s < {}",
                self.mgf_limit()
            ),
        )
    }

    /// `M(s) − 1 = E[e^{sW}] − 1`, computed without cancellation for small `s`.
    ///
    /// ```
    /// use balloc::weights::WeightLaw;
    /// // Geometric on {0,1,...} with mean 1: M(s) = 1/(2 − eˢ); M(0.1) − 1 = (e^0.1 − 1)/(2 − e^0.1).
    /// let g = WeightLaw::parse("geometric(mean=1)").unwrap();
    /// let e = 0.1f64.exp_m1();
    /// assert!((g.mgf_m1(0.1).unwrap() - e / (1.0 - e)).abs() < 1e-16);
    /// assert!(g.mgf_m1(0.7).is_err()); // ln 2 ≈ 0.693 is the limit
    /// ```
    pub fn mgf_m1(&self, s: f64) -> Result<f64> {
        if s.is_nan() {
            return Err(Error::invalid("MGF argument", "is NaN"));
        }
        if s >= self.mgf_limit() {
            return Err(self.domain_error(s));
        }
        Ok(match self {
            WeightLaw::Unit => s.exp_m1(),
            WeightLaw::Exponential { mean } => mean * s / (1.0 - mean * s),
            WeightLaw::Geometric { start, q } => {
                // M(s) = e^{s·start} q / (1 − r eˢ), r = 1 − q.
                // M − 1 = [e^{s·start} q − 1 + r eˢ] / (1 − r eˢ); write eˢ = 1 + e, e = expm1(s).
                let r = 1.0 - q;
                let e = s.exp_m1();
                let denom = q - r * e; // 1 − r(1 + e)
                if *start == 0 {
                    r * e / denom
                } else {
                    // e^{s} q − 1 + r eˢ = eˢ − 1 = e (since q + r = 1)
                    e / denom
                }
            }
            WeightLaw::Discrete(v) => v.iter().map(|(w, p)| p * (s * w).exp_m1()).sum(),
        })
    }

    /// `M(s) = E[e^{sW}]`, an error outside the domain of the MGF.
    pub fn mgf(&self, s: f64) -> Result<f64> {
        Ok(1.0 + self.mgf_m1(s)?)
    }

    /// `ln M(s)`, accurate for small `s` and without overflow for large `s`.
    /// ```
    /// use balloc::weights::WeightLaw;
    /// // Unit weights: ln M(s) = s, even where e^s overflows.
    /// assert_eq!(WeightLaw::Unit.ln_mgf(1000.0).unwrap(), 1000.0);
    /// // Exp(1): ln M(−1) = −ln 2.
    /// let e = WeightLaw::exponential(1.0).unwrap();
    /// assert!((e.ln_mgf(-1.0).unwrap() + 2f64.ln()).abs() < 1e-15);
    /// ```
    pub fn ln_mgf(&self, s: f64) -> Result<f64> {
        let m1 = self.mgf_m1(s)?;
        if m1.is_finite() && m1 < 1e300 {
            return Ok(m1.ln_1p());
        }
        // Large s: only laws with an unbounded MGF domain get here.
        Ok(match self {
            WeightLaw::Unit => s,
            WeightLaw::Discrete(v) => {
                let m = v
                    .iter()
                    .map(|(w, _)| s * w)
                    .fold(f64::NEG_INFINITY, f64::max);
                m + v
                    .iter()
                    .map(|(w, p)| p * (s * w - m).exp())
                    .sum::<f64>()
                    .ln()
            }
            _ => return Err(self.domain_error(s)),
        })
    }

    /// `E[(a + tW)⁺]`, the partial expectation used for the absolute-value potential.
    ///
    /// ```
    /// use balloc::weights::WeightLaw;
    /// // Exp(1), a = −1, t = 1: ∫₁^∞ (w − 1) e^{−w} dw = e^{−1}.
    /// let v = WeightLaw::parse("exp(1)").unwrap().positive_part(-1.0, 1.0);
    /// assert!((v - (-1.0f64).exp()).abs() < 1e-15);
    /// ```
    pub fn positive_part(&self, a: f64, t: f64) -> f64 {
        match self {
            WeightLaw::Unit => (a + t).max(0.0),
            WeightLaw::Discrete(v) => v.iter().map(|(w, p)| p * (a + t * w).max(0.0)).sum(),
            WeightLaw::Exponential { mean } => {
                let tm = t * mean;
                if t == 0.0 {
                    a.max(0.0)
                } else if t > 0.0 {
                    if a >= 0.0 {
                        a + tm
                    } else {
                        tm * (a / tm).exp()
                    }
                } else if a <= 0.0 {
                    0.0
                } else {
                    // E[a + tW] + E[(−a − tW)⁺] with −t > 0, −a < 0.
                    a + tm + (-tm) * (a / tm).exp()
                }
            }
            WeightLaw::Geometric { start, q } => {
                // W = start + K, K ~ Geom_0(q). Reduce to E[(c + tK)⁺], c = a + t·start.
                let c = a + t * (*start as f64);
                geometric_positive_part(c, t, *q)
            }
        }
    }

    /// Draws one weight.
    /// ```
    /// use balloc::weights::WeightLaw;
    /// use rand::SeedableRng;
    /// // The mean of 10⁴ Exp(1) draws is 1 within 5 standard errors (σ/√m = 0.01).
    /// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    /// let w = WeightLaw::exponential(1.0).unwrap();
    /// let m = (0..10_000).map(|_| w.sample(&mut rng)).sum::<f64>() / 1e4;
    /// assert!((m - 1.0).abs() < 0.05);
    /// ```
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        match self {
            WeightLaw::Unit => 1.0,
            WeightLaw::Exponential { mean } => {
                let u: f64 = rng.random::<f64>();
                -mean * (1.0 - u).ln()
            }
            WeightLaw::Geometric { start, q } => {
                if *q >= 1.0 {
                    return *start as f64;
                }
                let u: f64 = rng.random::<f64>();
                *start as f64 + ((1.0 - u).ln() / (1.0 - q).ln()).floor()
            }
            WeightLaw::Discrete(v) => {
                let u: f64 = rng.random::<f64>();
                let mut acc = 0.0;
                for &(w, p) in v {
                    acc += p;
                    if u < acc {
                        return w;
                    }
                }
                v.last().map(|p| p.0).unwrap_or(0.0)
            }
        }
    }
}

/// `E[(c + tK)⁺]` for `K ~ Geom₀(q)`, `P(K = k) = q rᵏ`, in closed form (arithmetico-geometric
/// partial sums, so huge loads cost O(1)).
fn geometric_positive_part(c: f64, t: f64, q: f64) -> f64 {
    let r = 1.0 - q;
    let mean_k = r / q;
    if q >= 1.0 || t == 0.0 {
        return c.max(0.0);
    }
    // F(K) = Σ_{k=0}^{K} (c + t k) q r^k.
    let partial = |kmax: f64| -> f64 {
        if kmax < 0.0 {
            return 0.0;
        }
        let rk1 = r.powf(kmax + 1.0);
        let s0 = 1.0 - rk1; // Σ q r^k
        // Σ k q r^k for k ≤ K = q r (1 − (K+1) r^K + K r^{K+1}) / (1 − r)².
        let rk = r.powf(kmax);
        let s1 = q * r * (1.0 - (kmax + 1.0) * rk + kmax * rk1) / (q * q);
        c * s0 + t * s1
    };
    let total = c + t * mean_k;
    if t > 0.0 {
        if c >= 0.0 {
            return total;
        }
        // terms with c + t k < 0 are k < −c/t: subtract them.
        let kneg = ((-c / t).ceil() - 1.0).max(-1.0);
        total - partial(kneg)
    } else {
        if c <= 0.0 {
            return 0.0;
        }
        // terms with c + t k > 0 are k < c/(−t).
        let kpos = ((c / -t).ceil() - 1.0).max(-1.0);
        partial(kpos)
    }
}
