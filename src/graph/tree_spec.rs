//! Which decomposition a claim uses, by name: `standard` (the explicit balanced tree of a
//! standard graph, spectral bisection otherwise; [`Tree::standard`]), `halving` (halving in the
//! natural vertex order), `spectral` (recursive spectral bisection), `torus` (rectangles; torus
//! graphs only), `split(r)` (unbalanced splits with the first `⌈r|S|⌉` vertices on the left,
//! [`Tree::split_fraction`]), `binarised(k, seed)` (a random Räcke-shaped tree with at most `k`
//! children per node, binarised by C.Alg.pre.2; [`crate::graph::binarise`]) and `file(path)` (a
//! decomposition file, [`crate::graph::tree_file`]; a relative path is read from the directory
//! of the theorem file).

use super::family::GraphFiles;
use super::tree::Tree;
use super::{Family, Graph};
use crate::error::{Error, Result};
use crate::exact::Q;
use std::path::PathBuf;

/// A named decomposition.
#[derive(Debug, Clone, PartialEq)]
pub enum TreeSpec {
    /// [`Tree::standard`].
    Standard,
    /// Halving in the natural order `0, 1, …, n − 1`.
    Halving,
    /// [`Tree::spectral`].
    Spectral,
    /// [`Tree::torus`] (torus graphs).
    Torus,
    /// [`Tree::split_fraction`] in the natural order.
    Split(Q),
    /// [`crate::graph::binarise::binarised`] in the natural order.
    Binarised {
        /// The largest number of children of a Räcke node.
        k: usize,
        /// The seed.
        seed: u64,
    },
    /// A decomposition file.
    File(PathBuf),
}

/// The accepted forms (for errors).
pub const FORMS: &str =
    "standard, halving, spectral, torus, split(r), binarised(k, seed), file(path)";

impl TreeSpec {
    /// Parses a tree name.
    ///
    /// ```
    /// use balloc::graph::tree_spec::TreeSpec;
    /// assert_eq!(TreeSpec::parse("binarised(4, 2)").unwrap(), TreeSpec::Binarised { k: 4, seed: 2 });
    /// assert!(TreeSpec::parse("split(1/4)").is_ok());
    /// assert!(TreeSpec::parse("split(5/4)").is_err());
    /// assert!(TreeSpec::parse("random").is_err());
    /// ```
    pub fn parse(spec: &str) -> Result<TreeSpec> {
        let s = spec.trim();
        let bad = |why: String| {
            Error::invalid(
                format!("tree `{}`", crate::lang::syntax::excerpt(s, 40)),
                why,
            )
        };
        let (name, args) = match s.split_once('(') {
            Some((name, rest)) => (
                name.trim(),
                Some(
                    rest.strip_suffix(')')
                        .ok_or_else(|| bad("missing closing parenthesis".into()))?,
                ),
            ),
            None => (s, None),
        };
        let no_args = |t: TreeSpec| match args {
            None => Ok(t),
            Some(_) => Err(bad(format!("`{name}` takes no arguments"))),
        };
        match name {
            "standard" => no_args(TreeSpec::Standard),
            "halving" => no_args(TreeSpec::Halving),
            "spectral" => no_args(TreeSpec::Spectral),
            "torus" => no_args(TreeSpec::Torus),
            "split" => {
                let a = args.ok_or_else(|| bad("write split(r), e.g. split(1/4)".into()))?;
                let r = crate::spec::parse_ratio(a.trim()).map_err(bad)?;
                let zero = Q::from_integer(0.into());
                let one = Q::from_integer(1.into());
                if r <= zero || r >= one {
                    return Err(bad(format!(
                        "the fraction must lie strictly between 0 and 1, got {r}"
                    )));
                }
                Ok(TreeSpec::Split(r))
            }
            "binarised" => {
                let a = args.ok_or_else(|| bad("write binarised(k, seed)".into()))?;
                let parts: Vec<&str> = a.split(',').map(str::trim).collect();
                if parts.len() != 2 {
                    return Err(bad("write binarised(k, seed)".into()));
                }
                let k: usize = parts[0]
                    .parse()
                    .map_err(|_| bad(format!("k = `{}` is not an integer", parts[0])))?;
                if k < 2 {
                    return Err(bad(format!("k must be at least 2, got {k}")));
                }
                crate::limits::TREE_BINARISED_K.check_usize(
                    &format!("tree `{}`: k", crate::lang::syntax::excerpt(s, 40)),
                    k,
                )?;
                let seed: u64 = parts[1].parse().map_err(|_| {
                    bad(format!("seed `{}` is not a non-negative integer", parts[1]))
                })?;
                Ok(TreeSpec::Binarised { k, seed })
            }
            "file" => {
                let a = args.ok_or_else(|| bad("write file(path)".into()))?.trim();
                if a.is_empty() {
                    return Err(bad("empty path".into()));
                }
                Ok(TreeSpec::File(PathBuf::from(a)))
            }
            _ => Err(bad(format!("unknown tree; accepted: {FORMS}"))),
        }
    }

    /// Builds the decomposition of `g`; `dir` is the directory relative paths are read from.
    ///
    /// ```
    /// use balloc::graph::{Graph, family::NoFiles, tree_spec::TreeSpec};
    /// // Torus 3 × 4 (vertex (x, y) = 3y + x): the longer side is y, so the root splits into
    /// // the rows y < 2 and y ≥ 2.
    /// let g = Graph::torus(3, 4).unwrap();
    /// let t = TreeSpec::parse("torus").unwrap().build(&g, &NoFiles).unwrap();
    /// let mut left = t.set(t.nodes[0].children.unwrap().0);
    /// left.sort_unstable(); // the leaf order follows the later splits
    /// assert_eq!(left, vec![0, 1, 2, 3, 4, 5]);
    /// assert!(TreeSpec::Torus.build(&Graph::cycle(4).unwrap(), &NoFiles).is_err());
    /// // A decomposition file is read by the caller's `GraphFiles`; `NoFiles` reads none.
    /// let e = TreeSpec::parse("file(t.tree)").unwrap().build(&g, &NoFiles).unwrap_err();
    /// assert!(e.to_string().contains("tree file `t.tree`"));
    /// ```
    pub fn build(&self, g: &Graph, files: &dyn GraphFiles) -> Result<Tree> {
        let natural: Vec<usize> = (0..g.n()).collect();
        let t = match self {
            TreeSpec::Standard => Tree::standard(g)?,
            TreeSpec::Halving => Tree::halving(&natural)?,
            TreeSpec::Spectral => Tree::spectral(g)?,
            TreeSpec::Torus => match g.family() {
                Family::Torus { w, h } => Tree::torus(w, h)?,
                _ => {
                    return Err(Error::invalid(
                        "tree `torus`",
                        format!("needs a torus graph, got `{}`", g.name()),
                    ));
                }
            },
            TreeSpec::Split(r) => Tree::split_fraction(&natural, r)?,
            TreeSpec::Binarised { k, seed } => super::binarise::binarised(&natural, *k, *seed)?,
            TreeSpec::File(p) => {
                let (text, shown) = files.tree_text(&p.display().to_string())?;
                super::tree_file::parse(&text, g.n(), &shown)?
            }
        };
        t.check()?;
        Ok(t)
    }
}
