//! Binary hierarchical decompositions `T` of the vertex set (C.Def.T): the root is `V`, every
//! internal node `i` has two children whose sets `S_ℓ(i)`, `S_r(i)` partition `S_i`, and the
//! leaves are the singletons.
//!
//! Constructions (`docs/derivations.md` §8, derived): halving in the natural vertex order for cycles, paths,
//! hypercubes (the halves of an aligned block are the sub-cubes split by the top coordinate) and
//! complete graphs; recursive bisection of rectangles along the longer side (x on ties) for tori;
//! recursive spectral bisection for other graphs: split `S` at the median of the Fiedler vector
//! (eigenvector of the second smallest eigenvalue of the Laplacian of `G[S]`), ties by vertex
//! number; when `G[S]` is disconnected its components are listed whole (largest first) and the
//! list is cut at the middle. Every split is balanced (`⌊|S|/2⌋` and `⌈|S|/2⌉`), which is stronger
//! than the `[1/4, 3/4]` rule of C.Alg.pre.2.
//!
//! Reference: Bansal–Feldheim (arXiv:2106.06051 v2), §1.2 and §2.2 (binarisation), Claim 3.1.

use super::{Family, Graph};
use crate::error::{Error, Result};

/// A rectangle `[x0, x0 + w) × [y0, y0 + h)` of a torus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// Left column.
    pub x0: usize,
    /// Bottom row.
    pub y0: usize,
    /// Width.
    pub w: usize,
    /// Height.
    pub h: usize,
}

/// A node of the decomposition: the set `order[lo..hi]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Start of the set in [`Tree::order`].
    pub lo: usize,
    /// End (exclusive).
    pub hi: usize,
    /// `(ℓ(i), r(i))` for an internal node.
    pub children: Option<(usize, usize)>,
    /// The parent (None at the root).
    pub parent: Option<usize>,
    /// Distance from the root.
    pub depth: usize,
    /// The rectangle, for torus decompositions.
    pub rect: Option<Rect>,
}

impl Node {
    /// `|S_i|`.
    pub fn size(&self) -> usize {
        self.hi - self.lo
    }
}

/// A binary hierarchical decomposition; every node is a contiguous range of `order`.
///
/// ```
/// use balloc::graph::{Graph, tree::Tree};
/// let t = Tree::standard(&Graph::cycle(8).unwrap()).unwrap();
/// assert_eq!(t.internal().len(), 7);       // n − 1 internal nodes
/// assert_eq!(t.height(), 3);
/// assert_eq!(t.set(t.root()), (0..8).collect::<Vec<_>>());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    /// The vertices in leaf order.
    pub order: Vec<usize>,
    /// `pos[v]`: the index of `v` in `order`.
    pub pos: Vec<usize>,
    /// The nodes; index 0 is the root.
    pub nodes: Vec<Node>,
    /// `leaf[v]`: the leaf node of vertex `v`.
    pub leaf: Vec<usize>,
}

type Part = (Vec<usize>, Option<Rect>);

impl Tree {
    /// Builds a tree by splitting recursively; `split` receives a set of size ≥ 2 (with its
    /// rectangle) and returns two non-empty parts.
    pub fn build(
        n: usize,
        root: Part,
        split: &mut dyn FnMut(&Part) -> Result<(Part, Part)>,
    ) -> Result<Tree> {
        let mut t = Tree {
            order: Vec::with_capacity(n),
            pos: vec![usize::MAX; n],
            nodes: Vec::new(),
            leaf: vec![usize::MAX; n],
        };
        t.grow(root, None, 0, split)?;
        if t.order.len() != n || t.pos.contains(&usize::MAX) {
            return Err(Error::invalid(
                "decomposition",
                "the leaves are not exactly the vertices",
            ));
        }
        Ok(t)
    }

    fn grow(
        &mut self,
        part: Part,
        parent: Option<usize>,
        depth: usize,
        split: &mut dyn FnMut(&Part) -> Result<(Part, Part)>,
    ) -> Result<usize> {
        let id = self.nodes.len();
        let lo = self.order.len();
        self.nodes.push(Node {
            lo,
            hi: lo,
            children: None,
            parent,
            depth,
            rect: part.1,
        });
        if part.0.len() == 1 {
            let v = part.0[0];
            if v >= self.pos.len() || self.pos[v] != usize::MAX {
                return Err(Error::invalid(
                    "decomposition",
                    format!("vertex {v} appears twice or is out of range"),
                ));
            }
            self.pos[v] = lo;
            self.leaf[v] = id;
            self.order.push(v);
        } else {
            let (l, r) = split(&part)?;
            if l.0.is_empty() || r.0.is_empty() || l.0.len() + r.0.len() != part.0.len() {
                return Err(Error::invalid(
                    "decomposition",
                    "a split must give two non-empty parts",
                ));
            }
            let a = self.grow(l, Some(id), depth + 1, split)?;
            let b = self.grow(r, Some(id), depth + 1, split)?;
            self.nodes[id].children = Some((a, b));
        }
        self.nodes[id].hi = self.order.len();
        Ok(id)
    }

    /// Halving in the given vertex order: `S` splits into its first `⌊|S|/2⌋` and the rest.
    pub fn halving(order: &[usize]) -> Result<Tree> {
        Tree::build(order.len(), (order.to_vec(), None), &mut |(s, _)| {
            let h = s.len() / 2;
            Ok(((s[..h].to_vec(), None), (s[h..].to_vec(), None)))
        })
    }

    /// Unbalanced splits in the given vertex order: `S` splits into its first
    /// `min(max(⌈r·|S|⌉, 1), |S| − 1)` vertices and the rest, for a fraction `0 < r < 1`.
    /// `r = 1/4` is the most unbalanced split the `[1/4, 3/4]` rule of C.Alg.pre.2 allows;
    /// smaller `r` leaves the paper's hypothesis (Claim 3.1 then fails, see
    /// `theorems/graphical-2022/claim-3-1-unbalanced.toml`).
    ///
    /// ```
    /// use balloc::graph::tree::Tree;
    /// use balloc::exact::Q;
    /// // |S| = 8, r = 1/4: children of sizes ⌈2⌉ = 2 and 6; then 6 → ⌈3/2⌉ = 2 and 4, ...
    /// let t = Tree::split_fraction(&(0..8).collect::<Vec<_>>(), &Q::new(1.into(), 4.into())).unwrap();
    /// let (l, r) = t.nodes[0].children.unwrap();
    /// assert_eq!((t.nodes[l].size(), t.nodes[r].size()), (2, 6));
    /// assert_eq!(t.balance(), Q::new(3.into(), 4.into()));
    /// ```
    pub fn split_fraction(order: &[usize], r: &crate::exact::Q) -> Result<Tree> {
        use num_traits::{One, Signed, ToPrimitive, Zero};
        if !r.is_positive() || *r >= crate::exact::Q::one() {
            return Err(Error::invalid(
                "split fraction",
                format!("must lie strictly between 0 and 1, got {r}"),
            ));
        }
        let r = r.clone();
        Tree::build(order.len(), (order.to_vec(), None), &mut |(s, _)| {
            let size = s.len();
            let k = (&r * crate::exact::Q::from_integer(size.into()))
                .ceil()
                .to_integer();
            let k = if k.is_zero() {
                1
            } else {
                k.to_usize().unwrap_or(size)
            };
            let k = k.clamp(1, size - 1);
            Ok(((s[..k].to_vec(), None), (s[k..].to_vec(), None)))
        })
    }

    /// Recursive bisection of a `w × h` torus along the longer side (x on ties).
    pub fn torus(w: usize, h: usize) -> Result<Tree> {
        let members = |r: Rect| -> Vec<usize> {
            let mut v = Vec::new();
            for y in r.y0..r.y0 + r.h {
                for x in r.x0..r.x0 + r.w {
                    v.push(y * w + x);
                }
            }
            v
        };
        let root = Rect { x0: 0, y0: 0, w, h };
        Tree::build(w * h, (members(root), Some(root)), &mut |(_, r)| {
            let r = r.expect("torus parts carry rectangles");
            let (a, b) = if r.w >= r.h {
                let k = r.w / 2;
                (
                    Rect { w: k, ..r },
                    Rect {
                        x0: r.x0 + k,
                        w: r.w - k,
                        ..r
                    },
                )
            } else {
                let k = r.h / 2;
                (
                    Rect { h: k, ..r },
                    Rect {
                        y0: r.y0 + k,
                        h: r.h - k,
                        ..r
                    },
                )
            };
            Ok(((members(a), Some(a)), (members(b), Some(b))))
        })
    }

    /// Recursive spectral bisection (see the module documentation).
    pub fn spectral(g: &Graph) -> Result<Tree> {
        crate::limits::GRAPH_SPECTRAL_N
            .check_usize("spectral bisection (dense eigensolver), n", g.n())?;
        let all: Vec<usize> = (0..g.n()).collect();
        Tree::build(g.n(), (all, None), &mut |(s, _)| {
            let ordered = spectral_order(g, s);
            let h = ordered.len() / 2;
            Ok(((ordered[..h].to_vec(), None), (ordered[h..].to_vec(), None)))
        })
    }

    /// The explicit balanced tree of a standard graph, recursive spectral bisection otherwise.
    pub fn standard(g: &Graph) -> Result<Tree> {
        match g.family() {
            Family::Cycle | Family::Path | Family::Hypercube { .. } | Family::Complete => {
                Tree::halving(&(0..g.n()).collect::<Vec<_>>())
            }
            Family::Torus { w, h } => Tree::torus(w, h),
            Family::General => Tree::spectral(g),
        }
    }

    /// The balance factor: the largest `|S_c|/|S_i|` over the internal nodes `i` and their
    /// children `c` (`1/2` for exact halving; at most `3/4` under the `[1/4, 3/4]` rule).
    ///
    /// ```
    /// use balloc::graph::{Graph, tree::Tree};
    /// // C_6 halving: 6 → 3 + 3, 3 → 1 + 2: the largest ratio is 2/3.
    /// let t = Tree::standard(&Graph::cycle(6).unwrap()).unwrap();
    /// assert_eq!(t.balance(), balloc::exact::Q::new(2.into(), 3.into()));
    /// ```
    pub fn balance(&self) -> crate::exact::Q {
        let mut best = crate::exact::Q::from_integer(0.into());
        for i in self.internal() {
            let (l, r) = self.nodes[i].children.expect("internal");
            let big = self.nodes[l].size().max(self.nodes[r].size());
            let q = crate::exact::Q::new(big.into(), self.nodes[i].size().into());
            if q > best {
                best = q;
            }
        }
        best
    }

    /// Checks the invariants of a binary hierarchical decomposition of `0..n` (C.Def.T): every
    /// node is the range `order[lo..hi]`, the children of an internal node are the two halves
    /// `[lo, mid)` and `[mid, hi)` of its range (both non-empty), leaves are singletons, depths and
    /// parents are consistent, and `order`, `pos`, `leaf` agree. `Err` names the first defect.
    ///
    /// ```
    /// use balloc::graph::{Graph, tree::Tree};
    /// let mut t = Tree::standard(&Graph::cycle(8).unwrap()).unwrap();
    /// assert!(t.check().is_ok());
    /// t.nodes[1].hi += 1; // the left child overlaps its sibling
    /// assert!(t.check().is_err());
    /// ```
    pub fn check(&self) -> Result<()> {
        let n = self.order.len();
        let bad = |why: String| Err(Error::invalid("decomposition", why));
        if self.pos.len() != n || self.leaf.len() != n || self.nodes.is_empty() {
            return bad("order, pos and leaf differ in length".into());
        }
        for (k, &v) in self.order.iter().enumerate() {
            if v >= n || self.pos[v] != k {
                return bad(format!("order[{k}] = {v} disagrees with pos"));
            }
        }
        let root = &self.nodes[0];
        if root.lo != 0 || root.hi != n || root.parent.is_some() || root.depth != 0 {
            return bad("the root is not the whole vertex set".into());
        }
        let mut leaves = 0;
        for (i, node) in self.nodes.iter().enumerate() {
            if node.lo >= node.hi || node.hi > n {
                return bad(format!("node {i} is an empty or out-of-range range"));
            }
            match node.children {
                None => {
                    if node.size() != 1 {
                        return bad(format!("leaf {i} has {} vertices", node.size()));
                    }
                    let v = self.order[node.lo];
                    if self.leaf[v] != i {
                        return bad(format!("leaf {i} (vertex {v}) disagrees with leaf[]"));
                    }
                    leaves += 1;
                }
                Some((l, r)) => {
                    let (a, b) = (&self.nodes[l], &self.nodes[r]);
                    if a.lo != node.lo || a.hi != b.lo || b.hi != node.hi {
                        return bad(format!(
                            "the children {l}, {r} of node {i} do not split its range"
                        ));
                    }
                    for c in [l, r] {
                        if self.nodes[c].parent != Some(i) || self.nodes[c].depth != node.depth + 1
                        {
                            return bad(format!("node {c}: parent or depth inconsistent"));
                        }
                    }
                }
            }
        }
        if leaves != n {
            return bad(format!("{leaves} leaves for {n} vertices"));
        }
        Ok(())
    }

    /// The root (index 0).
    pub fn root(&self) -> usize {
        0
    }

    /// The internal nodes `I_T`, in creation (pre-)order.
    pub fn internal(&self) -> Vec<usize> {
        (0..self.nodes.len())
            .filter(|&i| self.nodes[i].children.is_some())
            .collect()
    }

    /// The set `S_i` in leaf order.
    pub fn set(&self, i: usize) -> Vec<usize> {
        self.order[self.nodes[i].lo..self.nodes[i].hi].to_vec()
    }

    /// Whether `v ∈ S_i`.
    pub fn contains(&self, i: usize, v: usize) -> bool {
        let p = self.pos[v];
        self.nodes[i].lo <= p && p < self.nodes[i].hi
    }

    /// The height (largest depth of a leaf).
    pub fn height(&self) -> usize {
        self.nodes.iter().map(|n| n.depth).max().unwrap_or(0)
    }

    /// The path from the leaf of `v` to the root: `v = i₀, i₁, …, i_h = r` (node indices).
    pub fn path_to_root(&self, v: usize) -> Vec<usize> {
        let mut p = vec![self.leaf[v]];
        while let Some(q) = self.nodes[*p.last().expect("non-empty")].parent {
            p.push(q);
        }
        p
    }

    /// `+1` if `v ∈ S_ℓ(i)`, `−1` if `v ∈ S_r(i)`, `0` otherwise (for internal `i`).
    pub fn side(&self, i: usize, v: usize) -> i32 {
        match self.nodes[i].children {
            Some((l, _)) if self.contains(l, v) => 1,
            Some((_, r)) if self.contains(r, v) => -1,
            _ => 0,
        }
    }
}

/// The vertices of `s` ordered for a spectral split.
fn spectral_order(g: &Graph, s: &[usize]) -> Vec<usize> {
    let k = s.len();
    let mut index = std::collections::HashMap::with_capacity(k);
    for (j, &v) in s.iter().enumerate() {
        index.insert(v, j);
    }
    // Components of G[S], by BFS.
    let mut comp = vec![usize::MAX; k];
    let mut comps: Vec<Vec<usize>> = Vec::new();
    for start in 0..k {
        if comp[start] != usize::MAX {
            continue;
        }
        let mut c = vec![start];
        comp[start] = comps.len();
        let mut q = 0;
        while q < c.len() {
            let j = c[q];
            q += 1;
            for &(u, _) in g.neighbours(s[j]) {
                if let Some(&ju) = index.get(&u)
                    && comp[ju] == usize::MAX
                {
                    comp[ju] = comps.len();
                    c.push(ju);
                }
            }
        }
        comps.push(c);
    }
    if comps.len() > 1 {
        comps.sort_by(|a, b| b.len().cmp(&a.len()).then(s[a[0]].cmp(&s[b[0]])));
        return comps
            .into_iter()
            .flat_map(|c| c.into_iter().map(|j| s[j]))
            .collect();
    }
    let mut l = nalgebra::DMatrix::<f64>::zeros(k, k);
    for (j, &v) in s.iter().enumerate() {
        for &(u, _) in g.neighbours(v) {
            if let Some(&ju) = index.get(&u) {
                l[(j, j)] += 1.0;
                l[(j, ju)] -= 1.0;
            }
        }
    }
    let eig = l.symmetric_eigen();
    let mut idx: Vec<usize> = (0..k).collect();
    idx.sort_by(|&a, &b| eig.eigenvalues[a].total_cmp(&eig.eigenvalues[b]));
    let f = eig.eigenvectors.column(idx[1.min(k - 1)]);
    // Fix the sign so that the result does not depend on the solver's choice.
    let sign = if f.iter().find(|x| x.abs() > 1e-12).copied().unwrap_or(1.0) < 0.0 {
        -1.0
    } else {
        1.0
    };
    let mut ord: Vec<usize> = (0..k).collect();
    ord.sort_by(|&a, &b| {
        (sign * f[a])
            .total_cmp(&(sign * f[b]))
            .then(s[a].cmp(&s[b]))
    });
    ord.into_iter().map(|j| s[j]).collect()
}
