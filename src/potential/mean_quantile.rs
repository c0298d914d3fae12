//! The mean quantile `δᵗ` of paper B: the fraction of overloaded bins,
//! `δ = #{i : yᵢ ≥ 0}/n` (`boundary = over`, the default) or `#{i : yᵢ > 0}/n`
//! (`boundary = under`, a bin at the mean counts as underloaded).
//!
//! Reference: Los–Sauerwald–Sylvester, *Mean-Biased Processes* (arXiv:2308.05087), Fig. 4.2
//! ("rounds t with δ^t ∈ [ε, 1 − ε]") and the abstract ("mean quantile stabilization"); the
//! rule at ties is recalled (docs/derivations.md §5.4), hence the parameter.
//!
//! Bins are classified by the sign of `n·xᵢ − W`, exact for integer loads below 2⁵³/n.
//! Closed form (derived; sequential, unit weights): an outcome putting `k` balls into `j` turns
//! `dᵢ = n·xᵢ − W` into `dᵢ − k` for `i ≠ j` and `dⱼ + k(n − 1)`, so
//! `E[δ'] = Σ_o p_o (Cₖ − 1{dⱼ − k over} + 1{dⱼ + k(n−1) over})/n` with `Cₖ = #{i : dᵢ − k over}`
//! counted on the sorted `d` (O(n log n)). Batches and non-unit weights: `Ok(None)`.

use super::{Expected, Potential, PotentialInfo};
use crate::error::Result;
use crate::loads::{Boundary, Loads};
use crate::process::{Param, StepLaw};
use crate::setting::Setting;
use crate::spec::Spec;
use crate::xfloat::XFloat;

/// The mean quantile `δ` (fraction of overloaded bins).
///
/// ```
/// use balloc::loads::Loads;
/// let d = balloc::potential::parse("mean-quantile").unwrap();
/// let x = Loads::new(vec![0.0, 1.0, 2.0, 1.0]).unwrap(); // y = (−1, 0, 1, 0)
/// assert_eq!(d.value(&x).to_f64_checked(), Some(0.75));
/// let d = balloc::potential::parse("mean-quantile(boundary=under)").unwrap();
/// assert_eq!(d.value(&x).to_f64_checked(), Some(0.25));
/// ```
#[derive(Debug, Clone)]
pub struct MeanQuantile {
    boundary: Boundary,
}

pub(super) static INFO: PotentialInfo = PotentialInfo {
    name: "mean-quantile",
    symbol: "MeanQuantile",
    aliases: &["delta-t", "δ"],
    params: &[Param {
        name: "boundary",
        default: Some("over"),
        doc: "y = 0 counts as over (default) or under",
    }],
    summary: "δ = #{i : y_i overloaded}/n, the fraction of overloaded bins",
    reference: "Los–Sauerwald–Sylvester, Mean-Biased Processes (arXiv:2308.05087), Fig. 4.2, abstract",
    example: "mean-quantile(boundary=under)",
    build,
};

fn build(spec: &Spec) -> Result<Box<dyn Potential>> {
    Ok(Box::new(MeanQuantile {
        boundary: Boundary::parse(&spec.get_choice("boundary", &["over", "under"], "over")?)?,
    }))
}

impl MeanQuantile {
    fn over(&self, d: f64) -> bool {
        !self.boundary.is_under(d, 0.0)
    }

    fn deviations(loads: &Loads) -> Vec<f64> {
        let n = loads.n() as f64;
        let w = loads.total();
        loads.as_slice().iter().map(|&x| n * x - w).collect()
    }
}

impl Potential for MeanQuantile {
    fn info(&self) -> &'static PotentialInfo {
        &INFO
    }
    fn spec(&self) -> String {
        format!("mean-quantile(boundary={})", self.boundary.name())
    }
    fn per_bin(&self, n: usize) -> Option<String> {
        // Overloaded: y ≥ 0 when y = 0 counts as over, y > 0 otherwise.
        Some(match self.boundary {
            Boundary::Over => format!("(y >= 0)/{n}"),
            Boundary::Under => format!("(y > 0)/{n}"),
        })
    }

    fn value(&self, loads: &Loads) -> XFloat {
        let d = Self::deviations(loads);
        let c = d.iter().filter(|&&v| self.over(v)).count();
        XFloat::from_f64(c as f64 / loads.n() as f64)
    }
    fn term(&self, _y: f64) -> Option<f64> {
        None
    }
    fn expected_next(
        &self,
        law: &StepLaw,
        loads: &Loads,
        setting: &Setting,
    ) -> Result<Option<Expected>> {
        if setting.batch != 1 || !setting.weights.is_unit() {
            return Ok(None);
        }
        let d = Self::deviations(loads);
        let n = d.len();
        let mut sorted = d.clone();
        sorted.sort_by(f64::total_cmp);
        // #{i : dᵢ − k over}: dᵢ ≥ k (over) or dᵢ > k (under).
        let count = |k: f64| match self.boundary {
            Boundary::Over => n - sorted.partition_point(|&v| v < k),
            Boundary::Under => n - sorted.partition_point(|&v| v <= k),
        };
        let mut next = 0.0;
        for o in law.outcomes.iter().filter(|o| o.prob > 0.0) {
            let k = o.balls as f64;
            let dj = d[o.bin];
            let c = count(k) as f64 - f64::from(u8::from(self.over(dj - k)))
                + f64::from(u8::from(self.over(dj + k * (n as f64 - 1.0))));
            next += o.prob * c;
        }
        let next = next / n as f64;
        let value = self.value(loads).to_f64();
        Ok(Some(Expected {
            next: XFloat::from_f64(next),
            change: XFloat::from_f64(next - value),
        }))
    }
}
