//! A layered drawing of a directed acyclic graph (the `uses` graph of a paper), in the manner of
//! Sugiyama, Tagawa and Toda (1981):
//!
//! 1. **layers**: an item that uses nothing drawn is on layer 0; an item is one layer below the
//!    lowest item it uses (longest path), so every edge points downwards;
//! 2. **dummy nodes** on every layer an edge crosses, so long edges are routed between the items;
//! 3. **order** within the layers by the barycentre heuristic: sweeps down and up, each layer
//!    sorted by the mean position of its neighbours on the layer before;
//! 4. **rows**: a layer wider than a page is wrapped into several rows, in its order;
//! 5. **coordinates**: each row centred, then each node moved towards the mean x of its
//!    neighbours above as far as the order, the spacing and the drawing's width allow.
//!
//! Items without any edge are set apart below the layers, in rows (a grid).
//! Deterministic: the same graph gives the same drawing.

/// Height of a node box.
pub const NODE_H: f64 = 34.0;
/// Vertical distance between layers (box top to box top).
const LAYER_H: f64 = 86.0;
/// Horizontal gap between neighbouring boxes.
const GAP: f64 = 22.0;
/// Width reserved for a dummy node.
const DUMMY_W: f64 = 10.0;
/// Margin around the drawing.
pub const MARGIN: f64 = 16.0;
/// The width at which the grid of unlinked items wraps (at least the layers' width).
const GRID_W: f64 = 960.0;
/// The width at which a layer is wrapped into several rows.
const ROW_W: f64 = 1100.0;
/// Space above the grid for its caption.
pub const GRID_CAPTION: f64 = 30.0;

/// The drawing: a box per node, a polyline per edge, the size.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Top-left corner of each node's box, in the order of the input.
    pub pos: Vec<(f64, f64)>,
    /// Per edge `(from, to)` of the input: the points from the bottom centre of `to`'s box (the
    /// item used, above) through the dummy nodes to the top centre of `from`'s box.
    pub edges: Vec<Vec<(f64, f64)>>,
    /// The y of the caption of the grid of unlinked items, when there are any.
    pub grid_caption_y: Option<f64>,
    /// Width of the drawing.
    pub width: f64,
    /// Height of the drawing.
    pub height: f64,
}

/// Lays out nodes of the given widths with edges `(a, b)` meaning "a uses b" (b is drawn above
/// a). Edges must form no cycle (the `uses` graph is validated acyclic); a self-edge is ignored.
///
/// ```
/// use balloc::blueprint::layout::{layered, NODE_H};
/// // c uses a and b; b uses a: three layers, a on top.
/// let l = layered(&[100.0, 100.0, 100.0], &[(2, 0), (2, 1), (1, 0)]);
/// let (ya, yb, yc) = (l.pos[0].1, l.pos[1].1, l.pos[2].1);
/// assert!(ya < yb && yb < yc);
/// // The long edge c → a passes a dummy node on b's layer: three points.
/// assert_eq!(l.edges[0].len(), 3);
/// assert_eq!(l.edges[0][0].1, ya + NODE_H);
/// ```
pub fn layered(widths: &[f64], edges: &[(usize, usize)]) -> Layout {
    let n = widths.len();
    let edges: Vec<(usize, usize)> = edges
        .iter()
        .copied()
        .filter(|(a, b)| a != b && *a < n && *b < n)
        .collect();
    let mut uses: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut linked = vec![false; n];
    for &(a, b) in &edges {
        uses[a].push(b);
        linked[a] = true;
        linked[b] = true;
    }
    let layer = longest_path_layers(&uses);
    let g = Cells::new(widths, &edges, &linked, &layer);
    let rows = g.ordered_rows();
    let lines = g.wrap(&rows);
    let total = lines.iter().map(|l| g.line_w(l)).fold(0.0f64, f64::max);
    let (x, line_of) = g.coordinates(&lines, total);
    let mut width = MARGIN + total + MARGIN;
    let y_of = |c: usize| MARGIN + line_of[c] as f64 * LAYER_H;
    let mut pos = vec![(0.0, 0.0); n];
    for v in 0..n {
        if linked[v] {
            let c = g.cell_of[v];
            pos[v] = (x[c], y_of(c));
        }
    }
    let edge_points = g.edge_points(&x, &y_of);
    let mut height = if lines.is_empty() {
        MARGIN
    } else {
        MARGIN + (lines.len() - 1) as f64 * LAYER_H + NODE_H + MARGIN
    };
    // The grid of unlinked items.
    let unlinked: Vec<usize> = (0..n).filter(|&v| !linked[v]).collect();
    let mut grid_caption_y = None;
    if !unlinked.is_empty() {
        let caption = height + if lines.is_empty() { 0.0 } else { 10.0 };
        grid_caption_y = Some(caption);
        (width, height) = place_grid(widths, &unlinked, caption, width, &mut pos);
    }
    Layout {
        pos,
        edges: edge_points,
        grid_caption_y,
        width,
        height,
    }
}

/// 1. Longest-path layers of the items using `uses[a]` (at most n rounds; a cycle would only
///    stop growing there).
fn longest_path_layers(uses: &[Vec<usize>]) -> Vec<usize> {
    let n = uses.len();
    let mut layer = vec![0usize; n];
    for _ in 0..n {
        let mut changed = false;
        for a in 0..n {
            for &b in &uses[a] {
                if layer[a] < layer[b] + 1 && layer[b] + 1 < n.max(1) {
                    layer[a] = layer[b] + 1;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    layer
}

/// Places the `unlinked` items in rows below the layers (the caption at `caption`), wrapping at
/// the drawing's width `width` (at least [`GRID_W`]); returns the new width and height.
fn place_grid(
    widths: &[f64],
    unlinked: &[usize],
    caption: f64,
    width: f64,
    pos: &mut [(f64, f64)],
) -> (f64, f64) {
    let wrap = width.max(GRID_W);
    let mut width = width;
    let mut cx = MARGIN;
    let mut cy = caption + GRID_CAPTION;
    for &v in unlinked {
        if cx > MARGIN && cx + widths[v] > wrap - MARGIN {
            cx = MARGIN;
            cy += NODE_H + 14.0;
        }
        pos[v] = (cx, cy);
        cx += widths[v] + 14.0;
        width = width.max(cx - 14.0 + MARGIN);
    }
    (width, cy + NODE_H + MARGIN)
}

/// A node of the layered part: a linked item or a dummy node.
struct Cell {
    width: f64,
    layer: usize,
}

/// 2. The layered part of the drawing: a cell per linked item, then the dummy nodes; each edge
///    as a chain of cells from the upper item down to the lower one; each cell's neighbours
///    above and below.
struct Cells {
    cells: Vec<Cell>,
    /// The cell of each item (`usize::MAX` when unlinked).
    cell_of: Vec<usize>,
    chains: Vec<Vec<usize>>,
    up: Vec<Vec<usize>>,
    down: Vec<Vec<usize>>,
    layers: usize,
}

impl Cells {
    fn new(widths: &[f64], edges: &[(usize, usize)], linked: &[bool], layer: &[usize]) -> Cells {
        let n = widths.len();
        let mut cells: Vec<Cell> = Vec::new();
        let mut cell_of = vec![usize::MAX; n];
        for v in 0..n {
            if linked[v] {
                cell_of[v] = cells.len();
                cells.push(Cell {
                    width: widths[v],
                    layer: layer[v],
                });
            }
        }
        let mut chains: Vec<Vec<usize>> = Vec::with_capacity(edges.len());
        for &(a, b) in edges {
            let mut chain = vec![cell_of[b]];
            for l in layer[b] + 1..layer[a] {
                chain.push(cells.len());
                cells.push(Cell {
                    width: DUMMY_W,
                    layer: l,
                });
            }
            chain.push(cell_of[a]);
            chains.push(chain);
        }
        let layers = cells.iter().map(|c| c.layer + 1).max().unwrap_or(0);
        let mut up: Vec<Vec<usize>> = vec![Vec::new(); cells.len()];
        let mut down: Vec<Vec<usize>> = vec![Vec::new(); cells.len()];
        for ch in &chains {
            for w in ch.windows(2) {
                down[w[0]].push(w[1]);
                up[w[1]].push(w[0]);
            }
        }
        Cells {
            cells,
            cell_of,
            chains,
            up,
            down,
            layers,
        }
    }

    /// 3. The cells of each layer in barycentre order: four sweeps down and up, each layer
    ///    sorted by the mean position of its neighbours on the layer before (ties by position).
    fn ordered_rows(&self) -> Vec<Vec<usize>> {
        let layers = self.layers;
        let mut rows: Vec<Vec<usize>> = vec![Vec::new(); layers];
        for (i, c) in self.cells.iter().enumerate() {
            rows[c.layer].push(i);
        }
        let mut index = vec![0usize; self.cells.len()];
        let reindex = |rows: &Vec<Vec<usize>>, index: &mut Vec<usize>| {
            for r in rows {
                for (k, &c) in r.iter().enumerate() {
                    index[c] = k;
                }
            }
        };
        reindex(&rows, &mut index);
        for _ in 0..4 {
            for pass in [true, false] {
                let order: Vec<usize> = if pass {
                    (1..layers).collect()
                } else {
                    (0..layers.saturating_sub(1)).rev().collect()
                };
                for l in order {
                    let nb = if pass { &self.up } else { &self.down };
                    let mut keyed: Vec<(f64, usize, usize)> = rows[l]
                        .iter()
                        .map(|&c| {
                            let ns = &nb[c];
                            let key = if ns.is_empty() {
                                index[c] as f64
                            } else {
                                ns.iter().map(|&m| index[m] as f64).sum::<f64>() / ns.len() as f64
                            };
                            (key, index[c], c)
                        })
                        .collect();
                    keyed.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
                    rows[l] = keyed.into_iter().map(|k| k.2).collect();
                    reindex(&rows, &mut index);
                }
            }
        }
        rows
    }

    /// 4. Lines: a layer wider than [`ROW_W`] is wrapped into several rows (in its order), so
    ///    that a wide layer of foundations does not make the drawing wider than a page.
    fn wrap(&self, rows: &[Vec<usize>]) -> Vec<Vec<usize>> {
        let mut lines: Vec<Vec<usize>> = Vec::new();
        for row in rows {
            let mut cur: Vec<usize> = Vec::new();
            let mut w = 0.0;
            for &c in row {
                if !cur.is_empty() && w + self.cells[c].width > ROW_W {
                    lines.push(std::mem::take(&mut cur));
                    w = 0.0;
                }
                w += self.cells[c].width + GAP;
                cur.push(c);
            }
            if !cur.is_empty() {
                lines.push(cur);
            }
        }
        lines
    }

    /// The width of a line of cells with their gaps.
    fn line_w(&self, line: &[usize]) -> f64 {
        line.iter().map(|&c| self.cells[c].width).sum::<f64>()
            + GAP * line.len().saturating_sub(1) as f64
    }

    /// 5. The x of each cell and its line: each line centred in the width `total`, then each box
    ///    moved towards the mean centre of its neighbours above as far as the order, the spacing
    ///    and the drawing's width allow.
    fn coordinates(&self, lines: &[Vec<usize>], total: f64) -> (Vec<f64>, Vec<usize>) {
        let cells = &self.cells;
        let mut x = vec![0.0f64; cells.len()];
        let mut line_of = vec![0usize; cells.len()];
        for (k, line) in lines.iter().enumerate() {
            let mut at = MARGIN + (total - self.line_w(line)) / 2.0;
            for &c in line {
                line_of[c] = k;
                x[c] = at;
                at += cells[c].width + GAP;
            }
        }
        for line in lines {
            let want: Vec<f64> = line
                .iter()
                .map(|&c| {
                    let up = &self.up[c];
                    if up.is_empty() {
                        x[c]
                    } else {
                        up.iter().map(|&m| x[m] + cells[m].width / 2.0).sum::<f64>()
                            / up.len() as f64
                            - cells[c].width / 2.0
                    }
                })
                .collect();
            // Left to right: as wanted, never overlapping the box before.
            let mut right = MARGIN - GAP;
            for (k, &c) in line.iter().enumerate() {
                x[c] = want[k].max(right + GAP);
                right = x[c] + cells[c].width;
            }
            // Right to left: within the drawing's width, never overlapping the box after.
            let mut left = MARGIN + total + GAP;
            for &c in line.iter().rev() {
                x[c] = x[c].min(left - GAP - cells[c].width);
                left = x[c];
            }
        }
        (x, line_of)
    }

    /// The polyline of each edge: from the bottom centre of the item used, through the centres
    /// of its dummy nodes, to the top centre of the item using it.
    fn edge_points(&self, x: &[f64], y_of: &dyn Fn(usize) -> f64) -> Vec<Vec<(f64, f64)>> {
        let mut edge_points = Vec::with_capacity(self.chains.len());
        for ch in &self.chains {
            let mut pts = Vec::with_capacity(ch.len());
            for (k, &c) in ch.iter().enumerate() {
                let cx = x[c] + self.cells[c].width / 2.0;
                let top = y_of(c);
                if k == 0 {
                    pts.push((cx, top + NODE_H));
                } else if k + 1 == ch.len() {
                    pts.push((cx, top));
                } else {
                    pts.push((cx, top + NODE_H / 2.0));
                }
            }
            edge_points.push(pts);
        }
        edge_points
    }
}

#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod tests {
    use super::*;

    /// The number of pairs of edges between the same two layers whose ends are in opposite
    /// orders (crossings), counted by brute force over the drawn segments.
    fn crossings(l: &Layout) -> usize {
        let segs: Vec<((f64, f64), (f64, f64))> = l
            .edges
            .iter()
            .flat_map(|e| e.windows(2).map(|w| (w[0], w[1])).collect::<Vec<_>>())
            .collect();
        let mut k = 0;
        for i in 0..segs.len() {
            for j in i + 1..segs.len() {
                let (a, b) = (segs[i], segs[j]);
                let same_band = (a.0.1 - b.0.1).abs() < 1e-9 || (a.1.1 - b.1.1).abs() < 1e-9;
                if same_band && (a.0.0 - b.0.0) * (a.1.0 - b.1.0) < 0.0 {
                    k += 1;
                }
            }
        }
        k
    }

    fn edges_point_down_and_boxes_do_not_overlap() {
        // A diamond with a long edge: d uses b, c; b, c use a; d uses a.
        let w = [80.0, 120.0, 60.0, 90.0, 70.0];
        let l = layered(&w, &[(3, 1), (3, 2), (1, 0), (2, 0), (3, 0)]);
        for (a, b) in [(3, 1), (3, 2), (1, 0), (2, 0), (3, 0)] {
            assert!(l.pos[b].1 < l.pos[a].1, "{b} above {a}");
        }
        // Node 4 has no edge: in the grid, below every layer.
        assert!(l.pos[4].1 > l.pos[3].1 && l.grid_caption_y.is_some());
        for i in 0..w.len() {
            for j in i + 1..w.len() {
                let (pi, pj) = (l.pos[i], l.pos[j]);
                let overlap_x = pi.0 < pj.0 + w[j] && pj.0 < pi.0 + w[i];
                let overlap_y = pi.1 < pj.1 + NODE_H && pj.1 < pi.1 + NODE_H;
                assert!(!(overlap_x && overlap_y), "{i} and {j} overlap");
            }
        }
        assert!(
            l.width
                >= l.pos
                    .iter()
                    .zip(&w)
                    .map(|(p, w)| p.0 + w)
                    .fold(0.0, f64::max)
        );
    }

    fn barycentre_order_removes_the_crossing_of_two_chains() {
        // Two chains given crosswise: x0 → y1 and x1 → y0 (yi uses xj). The order of the
        // second layer follows the first: no crossing.
        let l = layered(&[50.0; 4], &[(3, 0), (2, 1)]);
        assert_eq!(crossings(&l), 0);
        assert!(l.pos[3].0 < l.pos[2].0);
    }

    fn same_graph_same_drawing() {
        let e = [(1, 0), (2, 0), (3, 1), (3, 2), (4, 3), (4, 0)];
        assert_eq!(layered(&[60.0; 5], &e), layered(&[60.0; 5], &e));
    }

    /// The tests of this module, run by the test suite (`crate::unit`).
    pub const TESTS: &[crate::unit::Test] = &[
        crate::unit::Test {
            name: "edges_point_down_and_boxes_do_not_overlap",
            run: edges_point_down_and_boxes_do_not_overlap,
            panics: None,
        },
        crate::unit::Test {
            name: "barycentre_order_removes_the_crossing_of_two_chains",
            run: barycentre_order_removes_the_crossing_of_two_chains,
            panics: None,
        },
        crate::unit::Test {
            name: "same_graph_same_drawing",
            run: same_graph_same_drawing,
            panics: None,
        },
    ];
}
