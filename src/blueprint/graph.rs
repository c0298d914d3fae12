//! A paper's dependency graph as SVG (inline in its page): the [`super::layout`] drawing, boxes
//! coloured by [`super::Status`], refuted items marked `✗`, a dashed outline for items of other
//! papers (or not checked in this run), a thick dashed one for a verdict that contradicts its
//! file; each box a link to the item's page with the title as tooltip. An arrow from A to B means
//! that B's proof uses A.

use super::Status;
use super::html::escape;
use super::layout::{self, NODE_H};
use std::fmt::Write as _;

/// One node of the drawing.
#[derive(Debug, Clone)]
pub struct Node {
    /// The item's id.
    pub id: String,
    /// The label in the box (the file name of the id).
    pub label: String,
    /// The tooltip (title, verdict).
    pub tooltip: String,
    /// Its status.
    pub status: Status,
    /// The link to its page, relative to the page the drawing is in.
    pub href: String,
    /// Whether its verdict contradicts the expected status.
    pub contradicts: bool,
    /// An item of another paper or outside the run (dashed outline).
    pub external: bool,
}

/// Width of a character of the labels (12 px sans-serif), for the box widths.
const CHAR_W: f64 = 7.0;
/// Labels longer than this are cut with `…`.
const MAX_LABEL: usize = 38;

fn label_text(n: &Node) -> String {
    let mark = if n.status == Status::Refuted {
        "✗ "
    } else {
        ""
    };
    let mut l: String = n.label.chars().take(MAX_LABEL).collect();
    if n.label.chars().count() > MAX_LABEL {
        l.push('…');
    }
    format!("{mark}{l}")
}

/// The SVG element (no XML header) of the graph with `edges` `(a, b)`: a uses b.
///
/// ```
/// use balloc::blueprint::{Status, graph::{svg, Node}};
/// let node = |id: &str, s| Node { id: id.into(), label: id.into(), tooltip: id.into(), status: s,
///     href: format!("{id}.html"), contradicts: false, external: false };
/// let s = svg(&[node("lemma", Status::HoldsExact), node("theorem", Status::Refuted)], &[(1, 0)]);
/// assert!(s.starts_with("<svg") && s.contains("href=\"lemma.html\"") && s.contains("✗ theorem"));
/// assert_eq!(s.matches("class=\"edge\"").count(), 1);
/// ```
pub fn svg(nodes: &[Node], edges: &[(usize, usize)]) -> String {
    let widths: Vec<f64> = nodes
        .iter()
        .map(|n| (label_text(n).chars().count() as f64 * CHAR_W + 20.0).max(70.0))
        .collect();
    let l = layout::layered(&widths, edges);
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"uses-graph\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"12\">\n\
         <defs><marker id=\"bp-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0L10,5L0,10Z\" fill=\"#555\"/></marker></defs>\n",
        w = l.width,
        h = l.height
    );
    let valid: Vec<(usize, usize)> = edges
        .iter()
        .copied()
        .filter(|(a, b)| a != b && *a < nodes.len() && *b < nodes.len())
        .collect();
    for (k, (a, b)) in valid.iter().enumerate() {
        let pts = &l.edges[k];
        let mut d = format!("M{:.1},{:.1}", pts[0].0, pts[0].1);
        for w in pts.windows(2) {
            let ((x0, y0), (x1, y1)) = (w[0], w[1]);
            let my = (y0 + y1) / 2.0;
            let _ = write!(d, " C{x0:.1},{my:.1} {x1:.1},{my:.1} {x1:.1},{y1:.1}");
        }
        let _ = writeln!(
            s,
            "<path class=\"edge\" data-from=\"{}\" data-to=\"{}\" d=\"{d}\" fill=\"none\" stroke=\"#555\" stroke-width=\"1.3\" marker-end=\"url(#bp-arrow)\"/>",
            escape(&nodes[*b].id),
            escape(&nodes[*a].id)
        );
    }
    if let Some(y) = l.grid_caption_y {
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"#555\">Items without a uses edge:</text>",
            layout::MARGIN,
            y + 18.0
        );
    }
    for (i, n) in nodes.iter().enumerate() {
        let (x, y) = l.pos[i];
        let stroke = if n.contradicts {
            "stroke=\"#000\" stroke-width=\"3\" stroke-dasharray=\"6 3\""
        } else if n.external {
            "stroke=\"#333\" stroke-width=\"1.2\" stroke-dasharray=\"4 3\""
        } else if n.status == Status::Refuted {
            "stroke=\"#7a3d00\" stroke-width=\"2.2\""
        } else {
            "stroke=\"#333\" stroke-width=\"1\""
        };
        let _ = writeln!(
            s,
            "<a href=\"{href}\" data-id=\"{id}\"><title>{tip}</title><rect class=\"node s-{class}\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{NODE_H}\" rx=\"6\" fill=\"{fill}\" {stroke}/><text x=\"{tx:.1}\" y=\"{ty:.1}\" text-anchor=\"middle\" fill=\"#000\">{label}</text></a>",
            href = escape(&n.href),
            id = escape(&n.id),
            tip = escape(&n.tooltip),
            class = n.status.class(),
            w = widths[i],
            fill = n.status.fill(),
            tx = x + widths[i] / 2.0,
            ty = y + NODE_H / 2.0 + 4.0,
            label = escape(&label_text(n)),
        );
    }
    s.push_str("</svg>");
    s
}
