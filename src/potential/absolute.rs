//! The absolute-value ("linear") potential `Δ = Σ |yᵢ|`.
//!
//! Reference: Los–Sauerwald–Sylvester, *Mean-Biased Processes* (arXiv:2308.05087), Fig. 4.2
//! ("rounds with Δᵗ ≤ Cn").
//!
//! Closed forms (derived): with `D(s) = Σᵢ |yᵢ − s|`, a sample putting `S` into bin `j` gives
//! `Δ' = D(S/n) − |yⱼ − S/n| + |yⱼ + S(1 − 1/n)|`; expectations over `S` use
//! `E|a + tS| = 2E[(a + tS)⁺] − a − tE[S]`. A batch of `b` unit balls gives bin `i` a
//! `Bin(b, rᵢ)` number of balls: `E[Δ'] = Σᵢ E|yᵢ − b/n + Kᵢ|`.

use super::{Expected, Potential, PotentialInfo, abs_moment};
use crate::error::Result;
use crate::loads::Loads;
use crate::process::StepLaw;
use crate::setting::Setting;
use crate::xfloat::XFloat;

/// `Δ = Σ |yᵢ|`.
///
/// ```
/// use balloc::loads::Loads;
/// use balloc::potential::Potential;
/// let d = balloc::potential::parse("absolute").unwrap();
/// let x = Loads::new(vec![4.0, 1.0, 1.0]).unwrap(); // y = (2, −1, −1)
/// assert_eq!(d.value(&x).to_f64_checked(), Some(4.0));
/// ```
#[derive(Debug, Clone)]
pub struct Absolute;

pub(super) static INFO: PotentialInfo = PotentialInfo {
    name: "absolute",
    symbol: "Delta",
    aliases: &["linear", "abs"],
    params: &[],
    summary: "Δ = Σ_i |y_i|",
    reference: "Los–Sauerwald–Sylvester, Mean-Biased Processes (arXiv:2308.05087), Fig. 4.2",
    example: "absolute",
    build: |_| Ok(Box::new(Absolute)),
};

/// `D(s) = Σ |yᵢ − s|` in O(log n) per query from sorted values and prefix sums.
struct AbsDeviation {
    sorted: Vec<f64>,
    prefix: Vec<f64>,
}

impl AbsDeviation {
    fn new(y: &[f64]) -> Self {
        let mut sorted = y.to_vec();
        sorted.sort_by(f64::total_cmp);
        let mut prefix = Vec::with_capacity(sorted.len() + 1);
        prefix.push(0.0);
        for v in &sorted {
            prefix.push(prefix.last().copied().unwrap_or(0.0) + v);
        }
        AbsDeviation { sorted, prefix }
    }
    fn at(&self, s: f64) -> f64 {
        let k = self.sorted.partition_point(|&v| v <= s);
        let n = self.sorted.len();
        let below = s * k as f64 - self.prefix[k];
        let above = (self.prefix[n] - self.prefix[k]) - s * (n - k) as f64;
        below + above
    }
}

/// `E[(c + K)⁺]` for `K ~ Bin(b, r)`: `c + E K + Σ_{k < −c} (−c − k) P(K = k)`.
fn binomial_positive_part(c: f64, b: u64, r: f64) -> f64 {
    let mean = c + b as f64 * r;
    if c >= 0.0 {
        return mean;
    }
    let kmax = ((-c).ceil() as u64).min(b + 1); // k < −c
    if r <= 0.0 {
        return 0.0f64.max(c);
    }
    if r >= 1.0 {
        return (c + b as f64).max(0.0);
    }
    let (lr, lq) = (r.ln(), (1.0 - r).ln());
    let mut lpmf = b as f64 * lq; // ln P(K = 0)
    let mut extra = 0.0;
    for k in 0..kmax.min(b + 1) {
        let v = -c - k as f64;
        if v > 0.0 {
            extra += v * lpmf.exp();
        }
        // P(K = k+1)/P(K = k) = (b − k)/(k + 1) · r/(1 − r)
        lpmf += ((b - k) as f64 / (k + 1) as f64).ln() + lr - lq;
    }
    mean + extra
}

impl Potential for Absolute {
    fn info(&self) -> &'static PotentialInfo {
        &INFO
    }
    fn spec(&self) -> String {
        "absolute".into()
    }
    fn per_bin(&self, _n: usize) -> Option<String> {
        Some("abs(y)".into())
    }

    fn exact_expected(
        &self,
        law: &crate::process::ExactStepLaw,
        x: &[crate::exact::Q],
        setting: &crate::setting::ExactSetting,
    ) -> Result<Option<crate::exact::Q>> {
        match crate::potential::exact::absolute::expected_next(law, x, setting) {
            Ok(v) => Ok(Some(v)),
            Err(crate::Error::Unsupported(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn value(&self, loads: &Loads) -> XFloat {
        XFloat::from_f64(loads.normalized().iter().map(|v| v.abs()).sum())
    }
    fn term(&self, y: f64) -> Option<f64> {
        Some(y.abs())
    }
    fn expected_next(
        &self,
        law: &StepLaw,
        loads: &Loads,
        setting: &Setting,
    ) -> Result<Option<Expected>> {
        let y = loads.normalized();
        let n = y.len() as f64;
        let value: f64 = y.iter().map(|v| v.abs()).sum();
        let w = &setting.weights;
        let next = if setting.batch == 1 {
            if law.is_unit() {
                // E_W[D(W/n)] + Σ_j r_j E_W[|y_j + W(1 − 1/n)| − |y_j − W/n|]
                let mut s = 0.0;
                for &v in &y {
                    s += abs_moment(w, 1, v, -1.0 / n).unwrap_or(f64::NAN);
                }
                for o in &law.outcomes {
                    let v = y[o.bin];
                    s += o.prob
                        * (abs_moment(w, 1, v, 1.0 - 1.0 / n).unwrap_or(f64::NAN)
                            - abs_moment(w, 1, v, -1.0 / n).unwrap_or(f64::NAN));
                }
                s
            } else if w.is_unit() {
                let dev = AbsDeviation::new(&y);
                let mut s = 0.0;
                for o in &law.outcomes {
                    let k = o.balls as f64;
                    let v = y[o.bin];
                    s += o.prob
                        * (dev.at(k / n) - (v - k / n).abs() + (v + k * (1.0 - 1.0 / n)).abs());
                }
                s
            } else {
                return Ok(None);
            }
        } else if law.is_unit() && w.is_unit() {
            let b = setting.batch;
            let r = law.per_bin_probability();
            let shift = b as f64 / n;
            let mut s = 0.0;
            for (i, &v) in y.iter().enumerate() {
                let c = v - shift;
                // E|c + K| = 2E[(c + K)⁺] − c − E K
                s += 2.0 * binomial_positive_part(c, b, r[i]) - c - b as f64 * r[i];
            }
            s
        } else {
            return Ok(None);
        };
        Ok(Some(Expected {
            next: XFloat::from_f64(next),
            change: XFloat::from_f64(next - value),
        }))
    }
}
