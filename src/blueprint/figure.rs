//! The figure of a statistical item: its [`Observation`]s (the estimate per simulated size with
//! its confidence interval) as a [`Plot`], one series per curve and the thresholds as dashed
//! reference lines; drawn as SVG in the blueprint and as `pgfplots` in the LaTeX report.

use crate::claim::{Observation, Verdict};
use crate::plot::{Axis, Plot, Point, Series};
use std::collections::BTreeMap;

/// The plot of `v`'s observations, or `None` when it has none (every kind but `statistical`).
/// The size axis is logarithmic when every size is positive and they span a factor of 8 or more.
///
/// ```
/// use balloc::claim::{Observation, Verdict, Status, Trust, ExpectedStatus};
/// let o = |x: f64, m: f64| Observation { curve: "two-choice".into(), x, x_name: "n".into(),
///     y_name: "E[max_gap]".into(), mean: m, ci_low: m - 0.1, ci_high: m + 0.1, threshold: Some(5.0) };
/// let v = Verdict::new("x/y", ExpectedStatus::Holds, Status::Holds, Trust::Statistical)
///     .with_observations(vec![o(16.0, 2.0), o(256.0, 3.0)]);
/// let p = balloc::blueprint::figure::plot(&v).unwrap();
/// assert_eq!(p.series.len(), 2); // the estimates and the threshold
/// assert!(p.svg().unwrap().contains("E[max_gap]"));
/// ```
pub fn plot(v: &Verdict) -> Option<Plot> {
    let obs: &[Observation] = &v.observations;
    let first = obs.first()?;
    let xs: Vec<f64> = obs.iter().map(|o| o.x).collect();
    let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let log = lo > 0.0 && hi / lo >= 8.0;
    let integer = xs.iter().all(|x| x.fract() == 0.0);
    let mut x = if log {
        Axis::log(&first.x_name)
    } else {
        Axis::linear(&first.x_name)
    };
    if integer {
        x = x.integer();
    }
    let title = format!("{}: {}", v.id, first.y_name);
    let mut p = Plot::new(&title, x, Axis::linear(&first.y_name));
    let mut curves: BTreeMap<&str, Vec<&Observation>> = BTreeMap::new();
    for o in obs {
        if o.mean.is_finite() && o.ci_low.is_finite() && o.ci_high.is_finite() {
            curves.entry(o.curve.as_str()).or_default().push(o);
        }
    }
    if curves.is_empty() {
        return None;
    }
    let mut thresholds: BTreeMap<&str, Vec<Point>> = BTreeMap::new();
    for (name, points) in &curves {
        let mut pts: Vec<&Observation> = points.clone();
        pts.sort_by(|a, b| a.x.total_cmp(&b.x));
        p.series.push(Series::new(
            name,
            pts.iter()
                .map(|o| Point::with_interval(o.x, o.mean, o.ci_low, o.ci_high))
                .collect(),
        ));
        let t: Vec<Point> = pts
            .iter()
            .filter_map(|o| {
                o.threshold
                    .filter(|t| t.is_finite())
                    .map(|t| Point::new(o.x, t))
            })
            .collect();
        if !t.is_empty() {
            thresholds.insert(name, t);
        }
    }
    let one = thresholds.len() == 1;
    for (name, t) in thresholds {
        let label = if one {
            "threshold".to_string()
        } else {
            format!("threshold ({name})")
        };
        p.series.push(Series::reference(&label, t));
    }
    p.caption = format!(
        "Points: estimates over the simulated runs; bars: their confidence intervals at the file's per-interval level{}.",
        v.searched
            .confidence
            .map(|c| format!(" (confidence {c} for the whole file)"))
            .unwrap_or_default()
    );
    Some(p)
}
