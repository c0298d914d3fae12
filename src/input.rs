//! The files that specs name, read for the mathematics (which reads none): edge lists of graphs
//! (`file(PATH)`, `graphical(graph=file,file=PATH)`), relative to a directory — a theorem file's
//! own, or the current directory of the command line and the Python package.
//!
//! ```
//! use balloc::graph::family::GraphSpec;
//! let dir = std::env::temp_dir().join("balloc-doc-input-dir");
//! std::fs::create_dir_all(&dir).unwrap();
//! std::fs::write(dir.join("p3.edges"), "0 1\n1 2\n").unwrap();
//! let files = balloc::input::Dir::new(Some(&dir));
//! let g = GraphSpec::parse("file(p3.edges)", &files).unwrap().build(None).unwrap();
//! // The graph is named by the path as written, wherever the file lies.
//! assert_eq!((g.n(), g.m(), g.name()), (3, 2, "p3.edges"));
//! let e = GraphSpec::parse("file(none.edges)", &files).unwrap_err().to_string();
//! assert!(e.contains("none.edges") && e.contains("cannot read"), "{e}");
//! ```

use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::graph::family::GraphFiles;
use std::path::{Path, PathBuf};

/// Edge-list files read from a directory (`None`: the current directory); an absolute path is
/// read as it is.
#[derive(Debug, Clone, Default)]
pub struct Dir(Option<PathBuf>);

impl Dir {
    /// Files relative to `dir` (`None`: the current directory).
    pub fn new(dir: Option<&Path>) -> Dir {
        Dir(dir.map(Path::to_path_buf))
    }

    /// Files relative to the current directory.
    pub fn current() -> Dir {
        Dir(None)
    }

    /// Where `path` is read from: `path` itself when it is absolute or no directory is set, else
    /// the directory joined with it.
    ///
    /// ```
    /// use std::path::Path;
    /// let d = balloc::input::Dir::new(Some(Path::new("theorems/x")));
    /// assert_eq!(d.resolve("g.edges"), Path::new("theorems/x/g.edges"));
    /// assert_eq!(d.resolve("/abs/g.edges"), Path::new("/abs/g.edges"));
    /// assert_eq!(balloc::input::Dir::current().resolve("g.edges"), Path::new("g.edges"));
    /// ```
    pub fn resolve(&self, path: &str) -> PathBuf {
        let p = Path::new(path);
        match &self.0 {
            Some(d) if p.is_relative() => d.join(p),
            _ => p.to_path_buf(),
        }
    }
}

impl GraphFiles for Dir {
    fn edge_list(&self, path: &str) -> Result<Graph> {
        let full = self.resolve(path);
        Ok(read_edge_list(&full.display().to_string())?.with_name(path))
    }
    fn tree_text(&self, path: &str) -> Result<(String, String)> {
        let shown = self.resolve(path).display().to_string();
        Ok((read_text(&shown, "tree file")?, shown))
    }
}

/// The text of the file `path`, at most [`crate::limits::INPUT_FILE_BYTES`] long; errors name it
/// as `what` `path`.
fn read_text(path: &str, what: &str) -> Result<String> {
    let cannot =
        |e: std::io::Error| Error::invalid(format!("{what} `{path}`"), format!("cannot read: {e}"));
    let meta = std::fs::metadata(path).map_err(cannot)?;
    crate::limits::INPUT_FILE_BYTES.check(&format!("{what} `{path}`"), meta.len())?;
    std::fs::read_to_string(path).map_err(cannot)
}

/// Reads an edge-list file ([`Graph::parse_edge_list`]: lines `u v`, 0-based, `#` comments), at
/// most [`crate::limits::INPUT_FILE_BYTES`] long; errors name the file as read.
pub fn read_edge_list(path: &str) -> Result<Graph> {
    Graph::parse_edge_list(&read_text(path, "graph file")?, path)
}
