//! Publication plots: one model ([`Plot`]), one style, two renderings — SVG ([`Plot::svg`]) and
//! PGF/TikZ for LaTeX papers ([`Plot::tikz`], a `pgfplots` axis).
//!
//! The style, the same for every plot of the crate (the simulator's gap plots, the Section 8
//! figures, the graphical and multidimensional experiments):
//!
//! * **ticks**: linear axes step by 1, 2 or 5 times a power of ten, and the axis range is widened
//!   to the ticks next to the data, so no tick label is cut off; an axis of integers
//!   ([`Axis::integer`]) never steps below 1 and its labels carry no decimals (`100000`, never
//!   `100000.0`); an axis reaching 10⁶ writes every label as `m·10ᴱ` with one `E` (`0.2·10⁶`,
//!   never `200000`);
//! * **log axes** are labelled at every decade and, when the range spans few decades, at 2 and 5
//!   times a decade (at most 1.2 decades: every integer multiple), with unlabelled minor ticks at
//!   the other multiples;
//! * **legend** to the right of the plotting area, never over the data;
//! * **error bars** are explained in the caption ([`Plot::caption`]), printed under the SVG and as
//!   a comment ready for `\caption{…}` in the TikZ output;
//! * colours of the Okabe–Ito palette (safe for colour-blind readers) and a distinct marker per
//!   series, so the series stay apart in greyscale.
//!
//! ```
//! use balloc::plot::{Axis, Plot, Point, Series};
//! let mut p = Plot::new("Two-Choice", Axis::linear("balls").integer(), Axis::linear("gap"));
//! p.series.push(Series::new("mean gap", vec![
//!     Point::with_interval(100000.0, 2.1, 2.0, 2.2),
//!     Point::with_interval(200000.0, 2.4, 2.3, 2.5),
//! ]));
//! p.caption = "Mean over 20 runs; bars: 95% Student-t intervals.".into();
//! let svg = p.svg().unwrap();
//! // Integer ticks from 100000 to 200000 by 20000: plain integers, no decimals.
//! assert!(svg.contains(">100000<") && svg.contains(">120000<") && !svg.contains("100000.0"));
//! assert!(p.tikz().unwrap().contains("\\addlegendentry{mean gap}"));
//! ```

use crate::error::{Error, Result};
use std::fmt::Write as _;

/// The scale of an axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// Linear.
    Linear,
    /// Base-10 logarithmic (positive values only).
    Log,
}

/// An axis: its label, scale and whether its values are integers.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The label (plain text; Unicode symbols such as `α`, `−`, `≤` are rendered in both formats).
    pub label: String,
    /// Linear or logarithmic.
    pub scale: Scale,
    /// The values are integers (tick step ≥ 1, labels without decimals).
    pub integer: bool,
    /// Include 0 in a linear range (e.g. a gap axis).
    pub from_zero: bool,
}

impl Axis {
    /// A linear axis.
    pub fn linear(label: &str) -> Axis {
        Axis {
            label: label.into(),
            scale: Scale::Linear,
            integer: false,
            from_zero: false,
        }
    }

    /// A base-10 logarithmic axis.
    pub fn log(label: &str) -> Axis {
        Axis {
            scale: Scale::Log,
            ..Axis::linear(label)
        }
    }

    /// The same axis with integer values.
    pub fn integer(mut self) -> Axis {
        self.integer = true;
        self
    }

    /// The same axis with 0 inside its range (linear axes).
    pub fn from_zero(mut self) -> Axis {
        self.from_zero = true;
        self
    }
}

/// A data point with an optional error bar `[lo, hi]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Abscissa.
    pub x: f64,
    /// Ordinate.
    pub y: f64,
    /// The error bar (lower and upper end), if any.
    pub bar: Option<(f64, f64)>,
}

impl Point {
    /// A point without an error bar.
    pub fn new(x: f64, y: f64) -> Point {
        Point { x, y, bar: None }
    }

    /// A point with an error bar from `lo` to `hi`.
    pub fn with_interval(x: f64, y: f64, lo: f64, hi: f64) -> Point {
        Point {
            x,
            y,
            bar: Some((lo, hi)),
        }
    }
}

/// A series: a legend label and points, joined by a line.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The legend label.
    pub label: String,
    /// The points (in the order they are joined).
    pub points: Vec<Point>,
    /// A reference curve (dashed, no markers), e.g. `ln ln n`.
    pub reference: bool,
}

impl Series {
    /// A data series.
    pub fn new(label: &str, points: Vec<Point>) -> Series {
        Series {
            label: label.into(),
            points,
            reference: false,
        }
    }

    /// A reference curve (dashed, no markers).
    pub fn reference(label: &str, points: Vec<Point>) -> Series {
        Series {
            reference: true,
            ..Series::new(label, points)
        }
    }
}

/// A plot: title, axes, series and the caption that explains what the points and bars are.
#[derive(Debug, Clone, PartialEq)]
pub struct Plot {
    /// The title.
    pub title: String,
    /// The horizontal axis.
    pub x: Axis,
    /// The vertical axis.
    pub y: Axis,
    /// The series.
    pub series: Vec<Series>,
    /// What the points and the error bars are (e.g. "means over 50 runs; bars: 95% Student-t
    /// intervals").
    pub caption: String,
    /// Width and height of the SVG in pixels (the legend is inside the width).
    pub size: (u32, u32),
}

/// Okabe–Ito colours.
const COLOURS: [&str; 7] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
];
/// pgfplots marks in the order of [`svg_marker`]'s shapes.
const TIKZ_MARKS: [&str; 4] = ["*", "square*", "triangle*", "diamond*"];

/// Ticks of an axis: the range, labelled ticks with their labels, minor ticks.
#[derive(Debug, Clone, PartialEq)]
pub struct Ticks {
    /// The axis range (data coordinates), ending on ticks.
    pub range: (f64, f64),
    /// Labelled ticks: value, plain (Unicode) label, LaTeX label.
    pub major: Vec<(f64, String, String)>,
    /// Unlabelled ticks.
    pub minor: Vec<f64>,
}

/// Unicode superscript digits of an integer exponent.
fn superscript(e: i32) -> String {
    e.to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            '0' => '⁰',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            '4' => '⁴',
            '5' => '⁵',
            '6' => '⁶',
            '7' => '⁷',
            '8' => '⁸',
            _ => '⁹',
        })
        .collect()
}

/// The label of `m·10^e` for an integer `m` (1 ≤ m ≤ 9 on log axes): plain digits between 10⁻³
/// and 10⁵, otherwise `m·10ᵉ` (`10ᵉ` for m = 1). Returns (plain, LaTeX).
fn power_label(m: i64, e: i32) -> (String, String) {
    if (-3..5).contains(&e) {
        let s = if e >= 0 {
            format!("{m}{}", "0".repeat(e as usize))
        } else {
            let digits = m.abs().to_string();
            let z = (-e) as usize;
            let s = if digits.len() > z {
                let (a, b) = digits.split_at(digits.len() - z);
                format!("{a}.{b}")
            } else {
                format!("0.{}{digits}", "0".repeat(z - digits.len()))
            };
            if m < 0 { format!("-{s}") } else { s }
        };
        (s.clone(), s)
    } else if m == 1 {
        (format!("10{}", superscript(e)), format!("$10^{{{e}}}$"))
    } else {
        (
            format!("{m}·10{}", superscript(e)),
            format!("${m}\\cdot 10^{{{e}}}$"),
        )
    }
}

/// The label of a linear tick `v` on a grid of step `step`: as many decimals as the step needs
/// (none on integer steps); with `exp = Some(E)` (axes reaching 10⁶), `m·10ᴱ` with the same `E`
/// on every tick of the axis.
fn linear_label(v: f64, step: f64, exp: Option<i32>) -> (String, String) {
    if v.abs() < 1e-9 * step {
        return ("0".into(), "0".into());
    }
    let (v, step) = match exp {
        Some(e) => (v / 10f64.powi(e), step / 10f64.powi(e)),
        None => (v, step),
    };
    let decimals = (-(step.log10() + 1e-9).floor()).max(0.0) as usize;
    let digits = format!("{v:.decimals$}");
    let (plain, tex) = (digits.replace('-', "−"), digits.replace('-', "$-$"));
    match exp {
        Some(e) => (
            format!("{plain}·10{}", superscript(e)),
            format!("${digits}\\cdot 10^{{{e}}}$"),
        ),
        None => (plain, tex),
    }
}

/// Ticks of a linear axis over the data range `[lo, hi]`: a step of 1, 2 or 5 times a power of
/// ten giving at most 8 intervals (at least 1 for integers), the range widened to the ticks
/// around the data.
///
/// ```
/// use balloc::plot::linear_ticks;
/// let t = linear_ticks(0.3, 9.2, false);
/// assert_eq!(t.range, (0.0, 10.0));
/// assert_eq!(t.major.iter().map(|m| m.1.as_str()).collect::<Vec<_>>(), ["0", "2", "4", "6", "8", "10"]);
/// // Integers: never a step below 1, never a decimal point.
/// let t = linear_ticks(1.0, 3.0, true);
/// assert_eq!(t.major.iter().map(|m| m.1.as_str()).collect::<Vec<_>>(), ["1", "2", "3"]);
/// ```
pub fn linear_ticks(lo: f64, hi: f64, integer: bool) -> Ticks {
    let (mut lo, mut hi) = if lo.is_finite() && hi.is_finite() && lo <= hi {
        (lo, hi)
    } else {
        (0.0, 1.0)
    };
    if hi - lo < 1e-12 * hi.abs().max(1.0) {
        let pad = if integer {
            1.0
        } else {
            0.5 * lo.abs().max(1.0)
        };
        lo -= pad;
        hi += pad;
    }
    let span = hi - lo;
    let mag = 10f64.powf((span / 8.0).log10().floor());
    let mut step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| span / s <= 8.0 + 1e-9)
        .unwrap_or(10.0 * mag);
    if integer {
        step = step.max(1.0).round();
    }
    // A data end within rounding of a tick ends the axis on that tick.
    let a = (lo / step + 1e-9).floor();
    let b = (hi / step - 1e-9).ceil();
    let biggest = (a * step).abs().max((b * step).abs());
    let exp = (biggest >= 1e6).then(|| biggest.log10().floor() as i32);
    let major: Vec<(f64, String, String)> = (0..=((b - a) as i64))
        .map(|i| {
            let v = (a + i as f64) * step;
            let (p, t) = linear_label(v, step, exp);
            (v, p, t)
        })
        .collect();
    Ticks {
        range: (a * step, b * step),
        major,
        minor: Vec::new(),
    }
}

/// Ticks of a log axis over the positive data range `[lo, hi]`: labels at every decade; also at
/// 2 and 5 times a decade when the range spans at most three decades, and at every integer
/// multiple up to 1.2 decades; minor ticks at the other multiples. The range ends on the ticks
/// around the data.
///
/// ```
/// use balloc::plot::log_ticks;
/// // n = 10, 20, 40, 80: labels at every multiple of 10 up to 80, not only at 10 and 20.
/// let t = log_ticks(10.0, 80.0);
/// assert_eq!(t.range, (10.0, 80.0));
/// let labels: Vec<&str> = t.major.iter().map(|m| m.1.as_str()).collect();
/// assert_eq!(labels, ["10", "20", "30", "40", "50", "60", "70", "80"]);
/// // Six decades: decades only, the multiples as minor ticks.
/// let t = log_ticks(1000.0, 1e9);
/// assert_eq!(t.major.iter().map(|m| m.1.as_str()).collect::<Vec<_>>(), ["1000", "10000", "10⁵", "10⁶", "10⁷", "10⁸", "10⁹"]);
/// assert_eq!(t.minor.len(), 6 * 8);
/// ```
pub fn log_ticks(lo: f64, hi: f64) -> Ticks {
    let (lo, hi) = if lo > 0.0 && hi >= lo && hi.is_finite() {
        (lo, hi)
    } else {
        (1.0, 10.0)
    };
    let span = (hi / lo).log10();
    let labelled: &[i64] = if span > 3.0 {
        &[1]
    } else if span > 1.2 {
        &[1, 2, 5]
    } else {
        &[1, 2, 3, 4, 5, 6, 7, 8, 9]
    };
    let d0 = lo.log10().floor() as i32 - 1;
    let d1 = hi.log10().ceil() as i32 + 1;
    let mut cands: Vec<(f64, i64, i32)> = Vec::new();
    for d in d0..=d1 {
        for m in 1..=9 {
            cands.push((m as f64 * 10f64.powi(d), m, d));
        }
    }
    let tol = 1e-9;
    let a = cands
        .iter()
        .rev()
        .find(|c| c.0 <= lo * (1.0 + tol))
        .map_or(lo, |c| c.0);
    let b = cands
        .iter()
        .find(|c| c.0 >= hi * (1.0 - tol))
        .map_or(hi, |c| c.0);
    let inside: Vec<&(f64, i64, i32)> = cands
        .iter()
        .filter(|c| c.0 >= a * (1.0 - tol) && c.0 <= b * (1.0 + tol))
        .collect();
    let mut major: Vec<(f64, String, String)> = Vec::new();
    let mut minor = Vec::new();
    for &&(v, m, d) in &inside {
        if labelled.contains(&m) {
            let (p, t) = power_label(m, d);
            major.push((v, p, t));
        } else {
            minor.push(v);
        }
    }
    if major.len() < 2 {
        major = inside
            .iter()
            .map(|&&(v, m, d)| {
                let (p, t) = power_label(m, d);
                (v, p, t)
            })
            .collect();
        minor.clear();
    }
    Ticks {
        range: (a, b),
        major,
        minor,
    }
}

/// The layout of an SVG plot: the picture's size, the plotting area `[left, right] × [top,
/// bottom]` (pixels, y downward), the ticks of both axes and the caption's lines.
struct SvgFrame {
    w: f64,
    h: f64,
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    xt: Ticks,
    yt: Ticks,
    x_scale: Scale,
    y_scale: Scale,
    caption_lines: Vec<String>,
}

impl SvgFrame {
    /// `v` on the axis with ticks `t` mapped linearly (in `log10` on a log axis) from the ticks'
    /// range to `[a, b]`.
    fn map(v: f64, t: &Ticks, scale: Scale, a: f64, b: f64) -> f64 {
        let f = |u: f64| if scale == Scale::Log { u.log10() } else { u };
        let (r0, r1) = (f(t.range.0), f(t.range.1));
        a + (f(v) - r0) / (r1 - r0) * (b - a)
    }

    /// The horizontal pixel of `x`.
    fn px(&self, x: f64) -> f64 {
        Self::map(x, &self.xt, self.x_scale, self.left, self.right)
    }

    /// The vertical pixel of `y`.
    fn py(&self, y: f64) -> f64 {
        Self::map(y, &self.yt, self.y_scale, self.bottom, self.top)
    }
}

impl Plot {
    /// An empty plot (720 × 480 pixels).
    pub fn new(title: &str, x: Axis, y: Axis) -> Plot {
        Plot {
            title: title.into(),
            x,
            y,
            series: Vec::new(),
            caption: String::new(),
            size: (720, 480),
        }
    }

    /// The data range of one axis (bars included), checked: finite, and positive on log axes.
    fn data_range(&self, horizontal: bool) -> Result<(f64, f64)> {
        let axis = if horizontal { &self.x } else { &self.y };
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        for s in &self.series {
            for p in &s.points {
                let mut vals = vec![if horizontal { p.x } else { p.y }];
                if let (false, Some((a, b))) = (horizontal, p.bar) {
                    vals.push(a);
                    vals.push(b);
                }
                for v in vals {
                    if !v.is_finite() {
                        return Err(Error::invalid(
                            "plot",
                            format!("series `{}` has a value that is not finite", s.label),
                        ));
                    }
                    if axis.scale == Scale::Log && v <= 0.0 {
                        return Err(Error::invalid(
                            "plot",
                            format!(
                                "series `{}`: {v} on the logarithmic axis `{}`",
                                s.label, axis.label
                            ),
                        ));
                    }
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
        }
        if !lo.is_finite() {
            return Err(Error::invalid("plot", "no points to plot"));
        }
        if axis.from_zero && axis.scale == Scale::Linear {
            lo = lo.min(0.0);
            hi = hi.max(0.0);
        }
        Ok((lo, hi))
    }

    /// The ticks of the horizontal (`true`) or vertical axis.
    pub fn ticks(&self, horizontal: bool) -> Result<Ticks> {
        let axis = if horizontal { &self.x } else { &self.y };
        let (lo, hi) = self.data_range(horizontal)?;
        Ok(match axis.scale {
            Scale::Linear => linear_ticks(lo, hi, axis.integer),
            Scale::Log => log_ticks(lo, hi),
        })
    }

    /// The plot as a standalone SVG document.
    pub fn svg(&self) -> Result<String> {
        let f = self.svg_frame()?;
        let (w, h) = (f.w, f.h);
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="Helvetica, Arial, sans-serif">"#
        );
        let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
        if !self.title.is_empty() {
            let _ = writeln!(
                s,
                r#"<text class="title" x="{}" y="26" font-size="15" text-anchor="middle">{}</text>"#,
                (f.left + f.right) / 2.0,
                xml(&self.title)
            );
        }
        self.svg_axes(&mut s, &f);
        self.svg_series(&mut s, &f);
        self.svg_legend(&mut s, &f);
        for (k, line) in f.caption_lines.iter().enumerate() {
            let _ = writeln!(
                s,
                r##"<text class="caption" x="10" y="{}" font-size="11" fill="#333">{}</text>"##,
                f.bottom + 60.0 + 15.0 * k as f64,
                xml(line)
            );
        }
        s.push_str("</svg>\n");
        Ok(s)
    }

    /// The layout of the SVG picture: the plotting area between the tick labels on the left, the
    /// legend on the right, the title above and the axis label and caption below.
    fn svg_frame(&self) -> Result<SvgFrame> {
        let xt = self.ticks(true)?;
        let yt = self.ticks(false)?;
        let (w, h) = (self.size.0 as f64, self.size.1 as f64);
        let char_w = 7.0;
        let legend_w = self
            .series
            .iter()
            .map(|s| s.label.chars().count())
            .max()
            .unwrap_or(0) as f64
            * char_w
            + 44.0;
        let ylab_w = yt
            .major
            .iter()
            .map(|m| m.1.chars().count())
            .max()
            .unwrap_or(1) as f64
            * char_w;
        let caption_lines = wrap(&self.caption, ((w - 20.0) / 6.2) as usize);
        let left = 30.0 + ylab_w + 10.0;
        let right = w - legend_w - 20.0;
        let top = if self.title.is_empty() { 20.0 } else { 44.0 };
        let bottom = h - 58.0 - 15.0 * caption_lines.len() as f64;
        if right - left < 100.0 || bottom - top < 100.0 {
            return Err(Error::invalid(
                "plot",
                "the picture is too small for its labels and legend",
            ));
        }
        Ok(SvgFrame {
            w,
            h,
            left,
            right,
            top,
            bottom,
            xt,
            yt,
            x_scale: self.x.scale,
            y_scale: self.y.scale,
            caption_lines,
        })
    }

    /// The grid, the ticks and their labels, the frame and the axis labels.
    fn svg_axes(&self, s: &mut String, f: &SvgFrame) {
        let (left, right, top, bottom) = (f.left, f.right, f.top, f.bottom);
        for (v, label, _) in &f.xt.major {
            let x = f.px(*v);
            let _ = writeln!(
                s,
                r##"<line x1="{x:.2}" y1="{top}" x2="{x:.2}" y2="{bottom}" stroke="#e4e4e4"/><line x1="{x:.2}" y1="{bottom}" x2="{x:.2}" y2="{}" stroke="black"/><text class="xtick" x="{x:.2}" y="{}" font-size="12" text-anchor="middle">{}</text>"##,
                bottom + 5.0,
                bottom + 19.0,
                xml(label)
            );
        }
        for v in &f.xt.minor {
            let x = f.px(*v);
            let _ = writeln!(
                s,
                r#"<line x1="{x:.2}" y1="{bottom}" x2="{x:.2}" y2="{}" stroke="black"/>"#,
                bottom + 3.0
            );
        }
        for (v, label, _) in &f.yt.major {
            let y = f.py(*v);
            let _ = writeln!(
                s,
                r##"<line x1="{left}" y1="{y:.2}" x2="{right}" y2="{y:.2}" stroke="#e4e4e4"/><line x1="{}" y1="{y:.2}" x2="{left}" y2="{y:.2}" stroke="black"/><text class="ytick" x="{}" y="{:.2}" font-size="12" text-anchor="end">{}</text>"##,
                left - 5.0,
                left - 8.0,
                y + 4.0,
                xml(label)
            );
        }
        for v in &f.yt.minor {
            let y = f.py(*v);
            let _ = writeln!(
                s,
                r#"<line x1="{}" y1="{y:.2}" x2="{left}" y2="{y:.2}" stroke="black"/>"#,
                left - 3.0
            );
        }
        let _ = writeln!(
            s,
            r#"<rect x="{left}" y="{top}" width="{}" height="{}" fill="none" stroke="black"/>"#,
            right - left,
            bottom - top
        );
        let _ = writeln!(
            s,
            r#"<text class="xlabel" x="{}" y="{}" font-size="13" text-anchor="middle">{}</text>"#,
            (left + right) / 2.0,
            bottom + 40.0,
            xml(&self.x.label)
        );
        let _ = writeln!(
            s,
            r#"<text class="ylabel" x="16" y="{0}" font-size="13" text-anchor="middle" transform="rotate(-90 16 {0})">{1}</text>"#,
            (top + bottom) / 2.0,
            xml(&self.y.label)
        );
    }

    /// The series: a polyline each (dashed for references), with markers and error bars (the
    /// range holds every point and bar, so nothing is clipped; markers on the frame stay whole).
    fn svg_series(&self, s: &mut String, f: &SvgFrame) {
        let _ = writeln!(s, r#"<g class="data">"#);
        for (i, ser) in self.series.iter().enumerate() {
            let c = COLOURS[i % COLOURS.len()];
            let pts: Vec<String> = ser
                .points
                .iter()
                .map(|p| format!("{:.2},{:.2}", f.px(p.x), f.py(p.y)))
                .collect();
            let dash = if ser.reference {
                r#" stroke-dasharray="6,4""#
            } else {
                ""
            };
            let _ = writeln!(
                s,
                r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="{}"{dash}/>"#,
                pts.join(" "),
                if ser.reference { 1.2 } else { 1.8 }
            );
            if ser.reference {
                continue;
            }
            for p in &ser.points {
                let (x, y) = (f.px(p.x), f.py(p.y));
                if let Some((lo, hi)) = p.bar {
                    let (y0, y1) = (f.py(lo), f.py(hi));
                    let _ = writeln!(
                        s,
                        r#"<path d="M{x:.2},{y0:.2}V{y1:.2}M{:.2},{y0:.2}h8M{:.2},{y1:.2}h8" stroke="{c}" stroke-width="1.2" fill="none"/>"#,
                        x - 4.0,
                        x - 4.0
                    );
                }
                s.push_str(&svg_marker(i, x, y, c));
            }
        }
        let _ = writeln!(s, "</g>");
    }

    /// The legend, right of the plotting area.
    fn svg_legend(&self, s: &mut String, f: &SvgFrame) {
        let lx = f.right + 16.0;
        for (i, ser) in self.series.iter().enumerate() {
            let c = COLOURS[i % COLOURS.len()];
            let y = f.top + 12.0 + 20.0 * i as f64;
            let dash = if ser.reference {
                r#" stroke-dasharray="6,4""#
            } else {
                ""
            };
            let _ = writeln!(
                s,
                r#"<line x1="{lx}" y1="{y}" x2="{}" y2="{y}" stroke="{c}" stroke-width="1.8"{dash}/>"#,
                lx + 24.0
            );
            if !ser.reference {
                s.push_str(&svg_marker(i, lx + 12.0, y, c));
            }
            let _ = writeln!(
                s,
                r#"<text class="legend" x="{}" y="{}" font-size="12">{}</text>"#,
                lx + 30.0,
                y + 4.0,
                xml(&ser.label)
            );
        }
    }

    /// The plot as a `pgfplots` axis in a `tikzpicture` (needs `\usepackage{pgfplots}`), with
    /// the same ticks and labels as the SVG, the legend below the axis (never over the data), the
    /// caption as a comment on top, and the whole picture within `\linewidth` (0.9 of it for the
    /// axis with its labels).
    pub fn tikz(&self) -> Result<String> {
        let xt = self.ticks(true)?;
        let yt = self.ticks(false)?;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "% balloc plot; needs \\usepackage{{pgfplots}} and \\pgfplotsset{{compat=1.16}}"
        );
        if !self.caption.is_empty() {
            let _ = writeln!(s, "% Caption: {}", self.caption.replace('\n', " "));
        }
        for (i, c) in COLOURS.iter().enumerate() {
            let _ = writeln!(
                s,
                "\\definecolor{{balloc{}}}{{HTML}}{{{}}}",
                letter(i),
                &c[1..]
            );
        }
        let _ = writeln!(s, "\\begin{{tikzpicture}}\n\\begin{{axis}}[");
        // The whole picture (labels and the legend below the axis) within \linewidth.
        let _ = writeln!(s, "  width=0.9\\linewidth, height=0.55\\linewidth,");
        if !self.title.is_empty() {
            let _ = writeln!(s, "  title={{{}}},", tex(&self.title));
        }
        let _ = writeln!(
            s,
            "  xlabel={{{}}}, ylabel={{{}}},",
            tex(&self.x.label),
            tex(&self.y.label)
        );
        for (name, axis, t) in [("x", &self.x, &xt), ("y", &self.y, &yt)] {
            if axis.scale == Scale::Log {
                let _ = writeln!(s, "  {name}mode=log, log basis {name}=10,");
            }
            let _ = writeln!(
                s,
                "  {name}min={}, {name}max={},",
                num(t.range.0),
                num(t.range.1)
            );
            let _ = writeln!(
                s,
                "  {name}tick={{{}}},",
                t.major
                    .iter()
                    .map(|m| num(m.0))
                    .collect::<Vec<_>>()
                    .join(",")
            );
            let _ = writeln!(
                s,
                "  {name}ticklabels={{{}}},",
                t.major
                    .iter()
                    .map(|m| format!("{{{}}}", m.2))
                    .collect::<Vec<_>>()
                    .join(",")
            );
            if !t.minor.is_empty() {
                let _ = writeln!(
                    s,
                    "  minor {name}tick={{{}}},",
                    t.minor
                        .iter()
                        .map(|v| num(*v))
                        .collect::<Vec<_>>()
                        .join(",")
                );
            }
        }
        let _ = writeln!(
            s,
            "  scaled ticks=false, grid=major, major grid style={{gray!20}},\n  legend style={{at={{(0.5,-0.22)}}, anchor=north, font=\\small}}, legend cell align=left,\n]"
        );
        for (i, ser) in self.series.iter().enumerate() {
            let c = format!("balloc{}", letter(i % COLOURS.len()));
            if ser.reference {
                let _ = writeln!(s, "\\addplot[color={c}, dashed, no markers] coordinates {{");
            } else {
                let bars = ser.points.iter().any(|p| p.bar.is_some());
                let _ = writeln!(
                    s,
                    "\\addplot[color={c}, mark={}, thick{}] coordinates {{",
                    TIKZ_MARKS[i % TIKZ_MARKS.len()],
                    if bars {
                        ", error bars/.cd, y dir=both, y explicit"
                    } else {
                        ""
                    }
                );
            }
            for p in &ser.points {
                match (ser.reference, p.bar) {
                    (false, Some((lo, hi))) => {
                        let _ = writeln!(
                            s,
                            "  ({}, {}) += (0, {}) -= (0, {})",
                            num(p.x),
                            num(p.y),
                            num(hi - p.y),
                            num(p.y - lo)
                        );
                    }
                    _ => {
                        let _ = writeln!(s, "  ({}, {})", num(p.x), num(p.y));
                    }
                }
            }
            let _ = writeln!(s, "}};\n\\addlegendentry{{{}}}", tex(&ser.label));
        }
        let _ = writeln!(s, "\\end{{axis}}\n\\end{{tikzpicture}}");
        Ok(s)
    }

    /// The plot in the format the extension of `path` names: `.svg` (SVG), `.tex`, `.tikz` or
    /// `.pgf` (a `pgfplots` picture, [`Plot::tikz`]), `.png` and `.pdf` (rendered from the SVG
    /// with resvg and svg2pdf; only with the cargo feature `png-pdf`). Any other extension is a
    /// one-line error listing the accepted ones, so a `.png` never receives SVG bytes.
    ///
    /// ```
    /// use balloc::plot::{Axis, Plot, Point, Series};
    /// let mut p = Plot::new("t", Axis::linear("x"), Axis::linear("y"));
    /// p.series.push(Series::new("s", vec![Point::new(1.0, 2.0), Point::new(2.0, 3.0)]));
    /// assert!(p.render(std::path::Path::new("a.svg")).unwrap().starts_with(b"<svg"));
    /// assert!(p.render(std::path::Path::new("a.pgf")).unwrap().starts_with(b"% balloc plot"));
    /// let e = p.render(std::path::Path::new("a.jpg")).unwrap_err().to_string();
    /// assert!(e.contains("`.jpg`") && e.contains(".svg"));
    /// ```
    pub fn render(&self, path: &std::path::Path) -> Result<Vec<u8>> {
        let ext = check_format(path)?;
        match ext.as_str() {
            "svg" => Ok(self.svg()?.into_bytes()),
            "tex" | "tikz" | "pgf" => Ok(self.tikz()?.into_bytes()),
            _ => raster::render(&self.svg()?, &ext)
                .map_err(|e| Error::invalid(format!("plot `{}`", path.display()), e)),
        }
    }

    /// Writes the plot to `path` in the format its extension names ([`Plot::render`]); written
    /// to a temporary file next to it and renamed, so the file is never seen half written.
    pub fn write(&self, path: &std::path::Path) -> Result<()> {
        let bytes = self.render(path)?;
        crate::output::write_atomic(path, &bytes)
            .map_err(|e| Error::invalid(format!("plot `{}`", path.display()), e.to_string()))
    }
}

/// The format of a plot file from its extension (lowercase: `svg`, `tex`, `tikz`, `pgf`, `png`,
/// `pdf`), checked before anything is computed: an unknown or missing extension, and PNG or PDF
/// without the cargo feature `png-pdf`, are one-line errors naming the file.
///
/// ```
/// use balloc::plot::check_format;
/// use std::path::Path;
/// assert_eq!(check_format(Path::new("gap.SVG")).unwrap(), "svg");
/// assert!(check_format(Path::new("gap")).unwrap_err().to_string().contains("no extension"));
/// assert!(check_format(Path::new("gap.gif")).unwrap_err().to_string().contains("`.gif`"));
/// ```
pub fn check_format(path: &std::path::Path) -> Result<String> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let what = || format!("plot `{}`", path.display());
    const ACCEPTED: &str = "accepted: .svg, .tex/.tikz/.pgf (pgfplots), .pdf, .png";
    match ext.as_str() {
        "svg" | "tex" | "tikz" | "pgf" => Ok(ext),
        "png" | "pdf" => raster::available(&ext)
            .map(|()| ext)
            .map_err(|e| Error::invalid(what(), e)),
        "" => Err(Error::invalid(
            what(),
            format!("the file name has no extension; {ACCEPTED}"),
        )),
        other => Err(Error::invalid(
            what(),
            format!("unsupported extension `.{other}`; {ACCEPTED}"),
        )),
    }
}

/// PNG and PDF from the SVG rendering: resvg (raster, twice the SVG's pixel size) and svg2pdf,
/// with the system's fonts; without the cargo feature `png-pdf` an error naming it.
mod raster {
    #[cfg(feature = "png-pdf")]
    pub fn render(svg: &str, ext: &str) -> std::result::Result<Vec<u8>, String> {
        use resvg::{tiny_skia, usvg};
        let mut options = usvg::Options::default();
        let db = options.fontdb_mut();
        db.load_system_fonts();
        // The SVG asks for Helvetica or Arial, then sans-serif: name a sans-serif family that
        // is installed (fontdb's default is Arial), or the text would be left out.
        let installed: Vec<String> = db
            .faces()
            .flat_map(|f| f.families.iter().map(|(name, _)| name.clone()))
            .collect();
        if let Some(family) = ["Helvetica", "Arial", "Liberation Sans", "DejaVu Sans"]
            .iter()
            .find(|f| installed.iter().any(|i| i == *f))
        {
            db.set_sans_serif_family(*family);
            options.font_family = family.to_string();
        }
        let tree = usvg::Tree::from_str(svg, &options).map_err(|e| e.to_string())?;
        if ext == "pdf" {
            return svg2pdf::to_pdf(
                &tree,
                svg2pdf::ConversionOptions::default(),
                svg2pdf::PageOptions::default(),
            )
            .map_err(|e| e.to_string());
        }
        let size = tree
            .size()
            .to_int_size()
            .scale_by(2.0)
            .ok_or("empty picture")?;
        let mut pixmap =
            tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("empty picture")?;
        resvg::render(
            &tree,
            tiny_skia::Transform::from_scale(2.0, 2.0),
            &mut pixmap.as_mut(),
        );
        pixmap.encode_png().map_err(|e| e.to_string())
    }

    #[cfg(feature = "png-pdf")]
    pub fn available(_ext: &str) -> std::result::Result<(), String> {
        Ok(())
    }

    #[cfg(not(feature = "png-pdf"))]
    pub fn available(ext: &str) -> std::result::Result<(), String> {
        Err(format!(
            "{} output needs the cargo feature `png-pdf` (cargo install --path . --features png-pdf); .svg and .tex/.pgf work without it",
            ext.to_uppercase()
        ))
    }

    #[cfg(not(feature = "png-pdf"))]
    pub fn render(_svg: &str, ext: &str) -> std::result::Result<Vec<u8>, String> {
        available(ext).map(|()| Vec::new())
    }
}

/// A spec string in words for titles: the name with its words capitalised (`two-choice` is
/// `Two-Choice`, `one-plus-beta` is `(1+β)`, `d-choice(d=3)` is `3-Choice`), the parameters
/// with Greek letters (`beta=0.5` is `β = 0.5`).
///
/// ```
/// use balloc::plot::words;
/// assert_eq!(words("two-choice"), "Two-Choice");
/// assert_eq!(words("one-plus-beta(beta=0.5)"), "(1+β), β = 0.5");
/// assert_eq!(words("d-choice(d=3)"), "3-Choice");
/// assert_eq!(words("quantile(delta=0.25)"), "Quantile, δ = 0.25");
/// assert_eq!(words("exp(1)"), "Exp(1)");
/// ```
pub fn words(spec: &str) -> String {
    let (name, params) = match spec.split_once('(') {
        Some((n, rest)) => (n.trim(), rest.trim_end_matches(')').trim()),
        None => (spec.trim(), ""),
    };
    let greek = |k: &str| -> String {
        match k.trim() {
            "alpha" => "α".into(),
            "beta" => "β".into(),
            "delta" => "δ".into(),
            "eps" | "epsilon" => "ε".into(),
            "kappa" => "κ".into(),
            "lambda" => "λ".into(),
            other => other.into(),
        }
    };
    let pairs: Vec<(String, String)> = params
        .split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
            None => (String::new(), p.trim().to_string()),
        })
        .collect();
    if name == "d-choice"
        && let Some((_, d)) = pairs.iter().find(|(k, _)| k == "d")
    {
        return format!("{d}-Choice");
    }
    let base = if name == "one-plus-beta" {
        "(1+β)".to_string()
    } else {
        name.split('-')
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join("-")
    };
    if pairs.iter().all(|(k, _)| k.is_empty()) && !pairs.is_empty() {
        let vals: Vec<&str> = pairs.iter().map(|(_, v)| v.as_str()).collect();
        return format!("{base}({})", vals.join(", "));
    }
    let mut out = base;
    for (k, v) in pairs {
        out.push_str(&format!(", {} = {v}", greek(&k)));
    }
    out
}

/// Series index `i` as a letter suffix for colour names (`a`, `b`, ...).
fn letter(i: usize) -> char {
    (b'a' + (i % 26) as u8) as char
}

/// A number for pgfplots (shortest round trip).
fn num(v: f64) -> String {
    format!("{v}")
}

/// The marker of series `i`: circle, square, triangle, diamond.
fn svg_marker(i: usize, x: f64, y: f64, c: &str) -> String {
    let m = match i % 4 {
        0 => format!(r#"<circle cx="{x:.2}" cy="{y:.2}" r="3.5" fill="{c}"/>"#),
        1 => format!(
            r#"<rect x="{:.2}" y="{:.2}" width="7" height="7" fill="{c}"/>"#,
            x - 3.5,
            y - 3.5
        ),
        2 => format!(
            r#"<path d="M{x:.2},{:.2}L{:.2},{:.2}L{:.2},{:.2}Z" fill="{c}"/>"#,
            y - 4.5,
            x + 4.0,
            y + 3.0,
            x - 4.0,
            y + 3.0
        ),
        _ => format!(
            r#"<path d="M{x:.2},{:.2}L{:.2},{y:.2}L{x:.2},{:.2}L{:.2},{y:.2}Z" fill="{c}"/>"#,
            y - 4.5,
            x + 4.5,
            y + 4.5,
            x - 4.5
        ),
    };
    m + "\n"
}

/// Escapes text for XML.
fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Text for LaTeX (see [`crate::latex::escape`]).
fn tex(s: &str) -> String {
    crate::latex::escape(s)
}

/// Splits text into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for para in text.lines() {
        let mut cur = String::new();
        for word in para.split_whitespace() {
            if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > width {
                lines.push(std::mem::take(&mut cur));
            }
            if !cur.is_empty() {
                cur.push(' ');
            }
            cur.push_str(word);
        }
        if !cur.is_empty() {
            lines.push(cur);
        }
    }
    lines
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    fn labels(t: &Ticks) -> Vec<String> {
        t.major.iter().map(|m| m.1.clone()).collect()
    }

    fn integer_axes_have_integer_labels_and_end_on_a_tick() {
        // Balls up to 10⁶: never `100000.0`, and the right-most tick inside the axis.
        let t = linear_ticks(20000.0, 1_000_000.0, true);
        assert_eq!(t.range.1, 1_000_000.0);
        assert!(
            labels(&t).iter().all(|l| !l.ends_with(".0")),
            "{:?}",
            labels(&t)
        );
        assert_eq!(labels(&t).last().unwrap(), "1.0·10⁶");
        assert_eq!(labels(&t)[1], "0.2·10⁶");
        // Below 10⁶: plain integers.
        let t = linear_ticks(0.0, 500_000.0, true);
        assert_eq!(labels(&t).last().unwrap(), "500000");
        // From 10⁶ on: one power of ten for the whole axis.
        let t = linear_ticks(0.0, 1.2e8, true);
        assert_eq!(
            labels(&t),
            [
                "0",
                "0.2·10⁸",
                "0.4·10⁸",
                "0.6·10⁸",
                "0.8·10⁸",
                "1.0·10⁸",
                "1.2·10⁸"
            ]
        );
        // A step of 0.5 would be chosen for reals; integers step by 1.
        let t = linear_ticks(1.0, 4.0, true);
        assert_eq!(labels(&t), ["1", "2", "3", "4"]);
        let t = linear_ticks(1.0, 4.0, false);
        assert_eq!(
            labels(&t),
            ["1.0", "1.5", "2.0", "2.5", "3.0", "3.5", "4.0"]
        );
    }

    fn linear_labels_have_the_decimals_of_the_step() {
        let t = linear_ticks(-0.03, 0.11, false);
        assert_eq!(
            labels(&t),
            [
                "−0.04", "−0.02", "0", "0.02", "0.04", "0.06", "0.08", "0.10", "0.12"
            ]
        );
    }

    fn log_axes_label_decades_and_sub_decades() {
        // 1.5 decades: 1, 2, 5 times each decade.
        let t = log_ticks(8.0, 300.0);
        assert_eq!(t.range, (8.0, 300.0));
        assert_eq!(labels(&t), ["10", "20", "50", "100", "200"]);
        // 8 and 300 are minor ticks: the axis ends on them.
        assert!(t.minor.contains(&8.0) && t.minor.contains(&300.0));
        // Small values.
        let t = log_ticks(0.002, 0.05);
        assert_eq!(labels(&t), ["0.002", "0.005", "0.01", "0.02", "0.05"]);
    }

    fn sample() -> Plot {
        let mut p = Plot::new(
            "greedy vs strategy",
            Axis::log("n (vertices)").integer(),
            Axis::log("gap"),
        );
        p.series.push(Series::new(
            "greedy",
            vec![
                Point::with_interval(10.0, 1.5, 1.4, 1.6),
                Point::with_interval(80.0, 3.0, 2.8, 3.3),
            ],
        ));
        p.series.push(Series::reference(
            "n^{1/2}",
            vec![Point::new(10.0, 1.0), Point::new(80.0, 2.8)],
        ));
        p.caption = "Points: means over 8 runs; bars: 95% Student-t intervals.".into();
        p
    }

    fn svg_has_every_label_and_the_legend_right_of_the_data() {
        let p = sample();
        let s = p.svg().unwrap();
        for text in [
            ">greedy vs strategy<",
            ">n (vertices)<",
            ">gap<",
            ">greedy<",
            ">n^{1/2}<",
            ">10<",
            ">80<",
            "bars: 95% Student-t intervals",
        ] {
            assert!(s.contains(text), "missing {text}");
        }
        // The legend's text starts right of the plotting area's right edge (the frame).
        let frame = s
            .lines()
            .find(|l| l.starts_with("<rect x=") && l.contains("fill=\"none\""))
            .unwrap();
        let attr = |name: &str| -> f64 {
            frame
                .split(&format!("{name}=\""))
                .nth(1)
                .and_then(|r| r.split('"').next())
                .unwrap()
                .parse()
                .unwrap()
        };
        let (area, width) = (attr("x"), attr("width"));
        let legend_x: f64 = s
            .split("class=\"legend\" x=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap()
            .parse()
            .unwrap();
        assert!(legend_x > area + width, "{legend_x} vs {}", area + width);
    }

    fn tikz_has_the_same_ticks_and_asymmetric_bars() {
        let p = sample();
        let t = p.tikz().unwrap();
        assert!(t.contains("xmode=log") && t.contains("ymode=log"));
        assert!(t.contains("legend style={at={(0.5,-0.22)}, anchor=north"));
        assert!(t.contains("\\addlegendentry{greedy}"));
        // The bar of (80, 3.0) runs from 2.8 to 3.3.
        assert!(
            t.contains("(80, 3) += (0, 0.2999999999999998) -= (0, 0.20000000000000018)"),
            "{t}"
        );
        assert!(t.contains("% Caption: Points: means over 8 runs"));
        let xt = p.ticks(true).unwrap();
        let ticks: Vec<String> = xt.major.iter().map(|m| num(m.0)).collect();
        assert!(t.contains(&format!("xtick={{{}}}", ticks.join(","))));
    }

    fn bad_data_is_an_error_not_a_picture() {
        let mut p = Plot::new("t", Axis::log("x"), Axis::linear("y"));
        p.series.push(Series::new("s", vec![Point::new(0.0, 1.0)]));
        assert!(p.svg().unwrap_err().to_string().contains("logarithmic"));
        let mut p = Plot::new("t", Axis::linear("x"), Axis::linear("y"));
        assert!(p.svg().is_err());
        p.series
            .push(Series::new("s", vec![Point::new(1.0, f64::NAN)]));
        assert!(p.tikz().is_err());
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "integer_axes_have_integer_labels_and_end_on_a_tick",
            run: integer_axes_have_integer_labels_and_end_on_a_tick,
            panics: None,
        },
        crate::unit::Test {
            name: "linear_labels_have_the_decimals_of_the_step",
            run: linear_labels_have_the_decimals_of_the_step,
            panics: None,
        },
        crate::unit::Test {
            name: "log_axes_label_decades_and_sub_decades",
            run: log_axes_label_decades_and_sub_decades,
            panics: None,
        },
        crate::unit::Test {
            name: "svg_has_every_label_and_the_legend_right_of_the_data",
            run: svg_has_every_label_and_the_legend_right_of_the_data,
            panics: None,
        },
        crate::unit::Test {
            name: "tikz_has_the_same_ticks_and_asymmetric_bars",
            run: tikz_has_the_same_ticks_and_asymmetric_bars,
            panics: None,
        },
        crate::unit::Test {
            name: "bad_data_is_an_error_not_a_picture",
            run: bad_data_is_an_error_not_a_picture,
            panics: None,
        },
    ];
}
