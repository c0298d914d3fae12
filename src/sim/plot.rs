//! SVG line plots (plotters, SVG backend only): series of (x, y) points with optional error bars.

use crate::error::{Error, Result};
use plotters::prelude::*;

/// One series of a plot.
#[derive(Debug, Clone)]
pub struct Series {
    /// The legend label.
    pub label: String,
    /// Points `(x, y, half-width of the error bar)`.
    pub points: Vec<(f64, f64, f64)>,
}

const COLORS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
];

/// Renders a line chart with error bars to an SVG string.
///
/// ```
/// use balloc::sim::plot::{svg, Series};
/// let s = svg("t", "x", "y", &[Series { label: "a".into(), points: vec![(0.0, 1.0, 0.1), (1.0, 2.0, 0.1)] }]).unwrap();
/// assert!(s.starts_with("<svg") && s.contains("</svg>"));
/// ```
pub fn svg(title: &str, xlabel: &str, ylabel: &str, series: &[Series]) -> Result<String> {
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (800, 500)).into_drawing_area();
        draw(&root, title, xlabel, ylabel, series).map_err(|e| Error::invalid("plot", e))?;
        root.present()
            .map_err(|e| Error::invalid("plot", e.to_string()))?;
    }
    Ok(buf)
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    xlabel: &str,
    ylabel: &str,
    series: &[Series],
) -> std::result::Result<(), String> {
    draw_inner(root, title, xlabel, ylabel, series).map_err(|e| e.to_string())
}

fn draw_inner<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    xlabel: &str,
    ylabel: &str,
    series: &[Series],
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let pts = series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y, e) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y - e);
        y1 = y1.max(y + e);
    }
    if x0 > x1 {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    if x1 <= x0 {
        x1 = x0 + 1.0;
    }
    let pad = ((y1 - y0) * 0.05).max(1e-9);
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(55)
        .build_cartesian_2d(x0..x1, (y0 - pad).min(0.0f64.max(y0 - pad))..(y1 + pad))?;
    chart
        .configure_mesh()
        .x_desc(xlabel)
        .y_desc(ylabel)
        .draw()?;
    for (i, s) in series.iter().enumerate() {
        let c = COLORS[i % COLORS.len()];
        chart
            .draw_series(LineSeries::new(
                s.points.iter().map(|p| (p.0, p.1)),
                c.stroke_width(2),
            ))?
            .label(s.label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
        chart.draw_series(
            s.points
                .iter()
                .filter(|p| p.2 > 0.0)
                .map(|&(x, y, e)| ErrorBar::new_vertical(x, y - e, y, y + e, c.filled(), 4)),
        )?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    Ok(())
}
