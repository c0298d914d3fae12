//! Sweeps: a grid of configurations × runs described in a TOML file, split into shards that merge
//! into exactly the unsharded output, written atomically and resumable after an interruption.
//!
//! ```toml
//! runs = 50            # runs per configuration
//! seed = 1             # base seed (default 0)
//! confidence = 0.95    # summary intervals (default 0.95)
//! output = "out/grid"  # prefix, relative to the TOML file: writes grid.csv and grid.summary.csv
//!
//! [grid]               # the Cartesian product, process outermost
//! process = ["two-choice", "one-plus-beta(beta=0.5)"]
//! weights = ["unit", "exp(1)"]       # default ["unit"]
//! ties = ["random"]                  # default ["random"]
//! n = [1000]
//! batch_per_n = [1, 10, 50]          # or batch = [...] (default [1])
//! batches = [20]                     # balls = batches·b; or balls = [...], or balls_per_n = [...]
//! ```
//!
//! Work items are (configuration, run) pairs numbered `c·runs + r`; shard `i/k` (0-based `i`) runs
//! the items with number ≡ i (mod k). Each run's result depends only on (configuration, seed, run
//! index), so the rows of the shards are exactly the rows of the unsharded sweep; `merge` sorts
//! them and writes both files with the same code as the unsharded sweep (floats are written in
//! shortest round-trip form, so parsing them back is exact).
//!
//! Resumption: completed configurations are appended (one write per configuration, flushed) to
//! `PREFIX[.shard-i-of-k].partial.csv`; a restarted sweep keeps its complete lines and skips those
//! items. Final files are written to a temporary file in the same directory and renamed.
//!
//! Integrity:
//! * one sweep at a time per output folder: a run or a merge holds an exclusive lock on
//!   `.balloc-sweep.lock` in the folder (an OS file lock, released when the process ends, even
//!   when it is killed), and a second one fails at once with a one-line error;
//! * the partial files and the shard files start with a fingerprint line
//!   `# balloc sweep <hash>[ shard i/k]`, a hash of the grid (every configuration's canonical key
//!   and balls), runs, seed, confidence, the crate version and [`crate::sim::STREAM_VERSION`]: a
//!   resume or a merge refuses files of another sweep, seed or simulator version;
//! * every row of a partial or shard file carries a checksum of the sweep's fingerprint and the
//!   row (a last column `check`), so a row whose values were edited is refused when read back;
//! * every row read back is validated: its configuration fields match the grid, its run index is
//!   in range and belongs to the shard, its seed is the one [`crate::rng::run_seed`] gives that
//!   run, its numbers are finite and consistent (`balls ≥` the target, `max_gap ≥ final_gap`,
//!   `spread ≥ 0`), and no (configuration, run) pair appears twice;
//! * the bookkeeping is a hash lookup per work item and one pass over sorted rows, linear in the
//!   number of rows (up to [`MAX_ROWS`]);
//! * grid arithmetic (`batch_per_n·n`, `balls_per_n·n`, `batches·b`) is checked: an overflow is a
//!   one-line error naming the field.

use crate::error::{Error, Result};
use crate::sim::{Config, Model, Plan, RunResult, simulate, summarise};
use serde::Deserialize;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The most rows (configurations × runs) one sweep file may describe: every row of a merge is
/// held in memory (about 200 bytes each). Split a larger grid into several sweep files.
pub const MAX_ROWS: u64 = 10_000_000;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct SweepFile {
    runs: u64,
    #[serde(default)]
    seed: u64,
    confidence: Option<f64>,
    output: String,
    balls: Option<u64>,
    grid: Grid,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Grid {
    process: Vec<String>,
    n: Vec<usize>,
    weights: Option<Vec<String>>,
    ties: Option<Vec<String>>,
    batch: Option<Vec<u64>>,
    batch_per_n: Option<Vec<u64>>,
    balls: Option<Vec<u64>>,
    balls_per_n: Option<Vec<u64>>,
    batches: Option<Vec<u64>>,
}

/// One configuration of a sweep with its balls per run.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The configuration.
    pub config: Config,
    /// Balls per run.
    pub balls: u64,
}

/// A parsed sweep.
#[derive(Debug, Clone)]
pub struct Sweep {
    /// The configurations in grid order.
    pub entries: Vec<Entry>,
    /// Runs per configuration.
    pub runs: u64,
    /// Base seed.
    pub seed: u64,
    /// Confidence of the summary intervals.
    pub confidence: f64,
    /// The output prefix (resolved against the TOML file's directory).
    pub output: PathBuf,
    /// A hash of the sweep's content (guards resumption against a changed file).
    pub fingerprint: u64,
}

/// A shard `i/k`: 0 ≤ i < k.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Index, 0-based.
    pub index: u64,
    /// Number of shards.
    pub count: u64,
}

impl Shard {
    /// Parses `i/k` with `0 ≤ i < k`.
    ///
    /// ```
    /// use balloc::app::sweep::Shard;
    /// assert_eq!(Shard::parse("1/4").unwrap(), Shard { index: 1, count: 4 });
    /// assert!(Shard::parse("4/4").is_err());
    /// assert!(Shard::parse("x").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Shard> {
        let bad = |why: String| Error::invalid("--shard", why);
        let (i, k) = s
            .split_once('/')
            .ok_or_else(|| bad(format!("expected i/k, got `{s}`")))?;
        let i: u64 = i
            .trim()
            .parse()
            .map_err(|_| bad(format!("index `{i}` is not an integer")))?;
        let k: u64 = k
            .trim()
            .parse()
            .map_err(|_| bad(format!("count `{k}` is not an integer")))?;
        if k == 0 {
            return Err(bad("the number of shards must be at least 1".into()));
        }
        if i >= k {
            return Err(bad(format!(
                "index {i} is out of range for {k} shards (indices are 0..{})",
                k - 1
            )));
        }
        Ok(Shard { index: i, count: k })
    }
}

fn field(path: &Path, f: &str, why: impl std::fmt::Display) -> Error {
    Error::invalid(
        format!("sweep file `{}`, field `{f}`", path.display()),
        why.to_string(),
    )
}

impl SweepFile {
    /// Checks `runs`, `output` and `confidence`; returns the confidence (0.95 by default).
    fn check_settings(&self, path: &Path) -> Result<f64> {
        if self.runs == 0 {
            return Err(field(path, "runs", "must be at least 1"));
        }
        // The output is a file prefix: `grid` writes grid.csv and grid.summary.csv.
        let prefix = Path::new(&self.output);
        if self.output.trim().is_empty()
            || self.output.ends_with('/')
            || prefix.file_name().is_none_or(|n| n == "." || n == "..")
        {
            return Err(field(
                path,
                "output",
                format!(
                    "must name a file prefix such as \"out/grid\" (it writes PREFIX.csv and PREFIX.summary.csv), got {:?}",
                    self.output
                ),
            ));
        }
        let confidence = self.confidence.unwrap_or(0.95);
        if !(confidence > 0.0 && confidence < 1.0) {
            return Err(field(
                path,
                "confidence",
                format!("must lie in (0, 1), got {confidence}"),
            ));
        }
        Ok(confidence)
    }

    /// The configurations of the grid in order (process outermost, then weights, ties, n,
    /// batch), each with its balls per run.
    fn entries(&self, path: &Path) -> Result<Vec<Entry>> {
        let g = &self.grid;
        let weights = g.weights.clone().unwrap_or_else(|| vec!["unit".into()]);
        let ties = g.ties.clone().unwrap_or_else(|| vec!["random".into()]);
        let mut entries = Vec::new();
        for p in &g.process {
            for w in &weights {
                for t in &ties {
                    for &n in &g.n {
                        self.push_entries(path, (p, w, t, n), &mut entries)?;
                    }
                }
            }
        }
        Ok(entries)
    }

    /// The entries of process `p`, weights `w`, ties `t` on `n` bins: one per batch size and
    /// balls per run.
    fn push_entries(
        &self,
        path: &Path,
        (p, w, t, n): (&str, &str, &str, usize),
        entries: &mut Vec<Entry>,
    ) -> Result<()> {
        let g = &self.grid;
        let times = |what: &str, a: u64, b: u64| -> Result<u64> {
            a.checked_mul(b)
                .ok_or_else(|| field(path, what, format!("{a} × {b} overflows 64 bits (n = {n})")))
        };
        let batches: Vec<u64> = match (&g.batch, &g.batch_per_n) {
            (Some(b), _) => b.clone(),
            (None, Some(k)) => k
                .iter()
                .map(|&k| times("grid.batch_per_n", k, n as u64))
                .collect::<Result<_>>()?,
            (None, None) => vec![1],
        };
        for &b in &batches {
            let cfg =
                Config::parse_with(p, &crate::input::Dir::current(), n, b, w, t).map_err(|e| {
                    field(
                        path,
                        "grid",
                        format!(
                            "process `{p}`, n = {n}, batch = {b}, weights `{w}`, ties `{t}`: {e}"
                        ),
                    )
                })?;
            let balls: Vec<u64> = if let Some(m) = self.balls {
                vec![m]
            } else if let Some(m) = &g.balls {
                m.clone()
            } else if let Some(k) = &g.balls_per_n {
                k.iter()
                    .map(|&k| times("grid.balls_per_n", k, n as u64))
                    .collect::<Result<_>>()?
            } else {
                g.batches
                    .as_ref()
                    .map(|r| {
                        r.iter()
                            .map(|&r| times("grid.batches", r, b))
                            .collect::<Result<_>>()
                    })
                    .transpose()?
                    .unwrap_or_default()
            };
            for m in balls {
                if m == 0 {
                    return Err(field(path, "balls", "must be at least 1"));
                }
                entries.push(Entry {
                    config: cfg.clone(),
                    balls: m,
                });
            }
        }
        Ok(())
    }
}

impl Grid {
    /// Checks that no list is empty (an empty optional list would silently make the grid
    /// empty), at most one of `batch` and `batch_per_n`, and exactly one way of giving the
    /// balls (`top_balls`: the file's own `balls`).
    fn check_lists(&self, path: &Path, top_balls: bool) -> Result<()> {
        let nonempty = |name: &str, len: usize| -> Result<()> {
            if len == 0 {
                Err(field(path, &format!("grid.{name}"), "must not be empty"))
            } else {
                Ok(())
            }
        };
        nonempty("process", self.process.len())?;
        nonempty("n", self.n.len())?;
        for (name, list) in [
            ("weights", self.weights.as_ref().map(Vec::len)),
            ("ties", self.ties.as_ref().map(Vec::len)),
            ("batch", self.batch.as_ref().map(Vec::len)),
            ("batch_per_n", self.batch_per_n.as_ref().map(Vec::len)),
            ("balls", self.balls.as_ref().map(Vec::len)),
            ("balls_per_n", self.balls_per_n.as_ref().map(Vec::len)),
            ("batches", self.batches.as_ref().map(Vec::len)),
        ] {
            nonempty(name, list.unwrap_or(1))?;
        }
        if self.batch.is_some() && self.batch_per_n.is_some() {
            return Err(field(
                path,
                "grid.batch",
                "give batch or batch_per_n, not both",
            ));
        }
        let ball_fields = [
            top_balls,
            self.balls.is_some(),
            self.balls_per_n.is_some(),
            self.batches.is_some(),
        ];
        if ball_fields.iter().filter(|b| **b).count() != 1 {
            return Err(field(
                path,
                "balls",
                "give exactly one of balls, grid.balls, grid.balls_per_n, grid.batches",
            ));
        }
        Ok(())
    }
}

/// The fingerprint of a sweep: a hash of every configuration's canonical key and balls, the
/// runs, seed, confidence, the crate version and [`crate::sim::STREAM_VERSION`].
fn fingerprint(entries: &[Entry], f: &SweepFile, confidence: f64) -> u64 {
    let keys: Vec<String> = entries
        .iter()
        .map(|e| format!("{}#{}", e.config.key(), e.balls))
        .collect();
    crate::rng::fnv1a64(&format!(
        "{}|{}|{}|{}|balloc {}|stream {}",
        keys.join("|"),
        f.runs,
        f.seed,
        confidence,
        env!("CARGO_PKG_VERSION"),
        crate::sim::STREAM_VERSION
    ))
}

impl Sweep {
    /// Reads and validates a sweep file.
    pub fn load(path: &Path) -> Result<Sweep> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Error::invalid(format!("sweep file `{}`", path.display()), e.to_string())
        })?;
        Sweep::parse(&text, path)
    }

    /// Parses a sweep from its TOML text; `path` names it in errors and anchors `output`.
    pub fn parse(text: &str, path: &Path) -> Result<Sweep> {
        let f: SweepFile = toml::from_str(text).map_err(|e| {
            Error::invalid(
                format!("sweep file `{}`", path.display()),
                e.to_string().replace('\n', " "),
            )
        })?;
        let confidence = f.check_settings(path)?;
        f.grid.check_lists(path, f.balls.is_some())?;
        let entries = f.entries(path)?;
        let rows = (entries.len() as u64).checked_mul(f.runs);
        if rows.is_none_or(|r| r > MAX_ROWS) {
            return Err(field(
                path,
                "runs",
                format!(
                    "{} configurations × {} runs exceeds the limit of {MAX_ROWS} rows per sweep \
                     file; split the grid into several files",
                    entries.len(),
                    f.runs
                ),
            ));
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        let fingerprint = fingerprint(&entries, &f, confidence);
        Ok(Sweep {
            entries,
            runs: f.runs,
            seed: f.seed,
            confidence,
            output: dir.join(&f.output),
            fingerprint,
        })
    }

    fn path_with(&self, suffix: &str) -> PathBuf {
        let mut s = self.output.as_os_str().to_owned();
        s.push(suffix);
        PathBuf::from(s)
    }

    /// The file of all runs: `PREFIX.csv`.
    pub fn runs_path(&self) -> PathBuf {
        self.path_with(".csv")
    }

    /// The summary file: `PREFIX.summary.csv`.
    pub fn summary_path(&self) -> PathBuf {
        self.path_with(".summary.csv")
    }

    /// The output file of a shard: `PREFIX.shard-i-of-k.csv`.
    pub fn shard_path(&self, s: Shard) -> PathBuf {
        self.path_with(&format!(".shard-{}-of-{}.csv", s.index, s.count))
    }

    fn partial_path(&self, s: Option<Shard>) -> PathBuf {
        match s {
            Some(s) => self.path_with(&format!(".shard-{}-of-{}.partial.csv", s.index, s.count)),
            None => self.path_with(".partial.csv"),
        }
    }

    /// The fingerprint line of a partial file (`None`) or a shard file.
    fn header(&self, shard: Option<Shard>) -> String {
        match shard {
            None => format!("# balloc sweep {:016x}", self.fingerprint),
            Some(s) => format!(
                "# balloc sweep {:016x} shard {}/{}",
                self.fingerprint, s.index, s.count
            ),
        }
    }

    /// Takes the exclusive lock of the output folder (held until the returned file is dropped).
    fn lock(&self) -> Result<std::fs::File> {
        let dir = match self.output.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let path = dir.join(".balloc-sweep.lock");
        let f = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| io_err(&path, e))?;
        match f.try_lock() {
            Ok(()) => Ok(f),
            Err(std::fs::TryLockError::WouldBlock) => Err(Error::invalid(
                format!("output folder `{}`", dir.display()),
                format!(
                    "another balloc sweep is writing there (it holds `{}`); wait for it to end \
                     or choose another output",
                    path.display()
                ),
            )),
            Err(std::fs::TryLockError::Error(e)) => Err(io_err(&path, e)),
        }
    }

    /// Whether work item (configuration `c`, run `r`) belongs to `shard`.
    fn mine(&self, shard: Option<Shard>, c: usize, r: u64) -> bool {
        match shard {
            Some(s) => (c as u64 * self.runs + r) % s.count == s.index,
            None => true,
        }
    }

    /// The work items (configuration `c`, run `r`) of `shard` (every item when `None`), in grid
    /// order: item `c·runs + r` belongs to shard `i/k` when it is ≡ i (mod k).
    pub fn items(&self, shard: Option<Shard>) -> Vec<(usize, u64)> {
        (0..self.entries.len())
            .flat_map(|c| (0..self.runs).map(move |r| (c, r)))
            .filter(|&(c, r)| self.mine(shard, c, r))
            .collect()
    }

    /// Runs the work `items` in parallel on the current rayon pool (`super::run_one`, run `r`
    /// of configuration `c` seeded from (its key, the seed, `r`)), in the order given; `tick(1)`
    /// after each. When `stopped()` turns true the items not started are skipped and the result
    /// is the error `interrupted`.
    pub fn run_items(
        &self,
        items: &[(usize, u64)],
        tick: &(dyn Fn(u64) + Sync),
        stopped: &(dyn Fn() -> bool + Sync),
    ) -> Result<Vec<(usize, RunResult)>> {
        use rayon::prelude::*;
        let out: Vec<Option<Result<(usize, RunResult)>>> = items
            .par_iter()
            .map(|&(c, r)| {
                if stopped() {
                    return None;
                }
                let e = &self.entries[c];
                let plan = Plan::new(e.balls, self.runs, self.seed);
                let x = crate::sim::run_one(&e.config, &plan, r).map(|x| (c, x));
                tick(1);
                Some(x)
            })
            .collect();
        out.into_iter()
            .map(|x| x.unwrap_or(Err(Error::Interrupted)))
            .collect()
    }

    /// Runs the sweep (or one shard of it), resuming from a partial file if one exists, and
    /// writes the output files atomically. Returns the paths written.
    pub fn run(&self, shard: Option<Shard>, tick: &(dyn Fn(u64) + Sync)) -> Result<Vec<PathBuf>> {
        let finals = match shard {
            Some(s) => vec![self.shard_path(s)],
            None => vec![self.runs_path(), self.summary_path()],
        };
        for f in &finals {
            crate::output::check_writable(f).map_err(|e| io_err(f, e))?;
        }
        let _lock = self.lock()?;
        let partial = self.partial_path(shard);
        let mut done = self.read_partial(&partial, shard)?;
        let mut seen: HashSet<(usize, u64)> = done.iter().map(|d| (d.0, d.1.run)).collect();
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&partial)
            .map_err(|e| io_err(&partial, e))?;
        if std::fs::metadata(&partial).map(|m| m.len()).unwrap_or(0) == 0 {
            writeln!(file, "{}", self.header(None)).map_err(|e| io_err(&partial, e))?;
        }
        for (c, e) in self.entries.iter().enumerate() {
            let todo: Vec<(usize, u64)> = (0..self.runs)
                .filter(|&r| self.mine(shard, c, r) && !seen.contains(&(c, r)))
                .map(|r| (c, r))
                .collect();
            if todo.is_empty() {
                continue;
            }
            let rows = self.run_items(&todo, tick, &|| false)?;
            let mut text = String::new();
            for (_, r) in &rows {
                text.push_str(&self.sealed(row_line(c, e, r)));
                text.push('\n');
            }
            file.write_all(text.as_bytes())
                .and_then(|_| file.sync_data())
                .map_err(|e| io_err(&partial, e))?;
            seen.extend(rows.iter().map(|(_, r)| (c, r.run)));
            done.extend(rows);
        }
        done.sort_unstable_by_key(|d| (d.0, d.1.run));
        match shard {
            Some(s) => {
                let mut text = format!("{}\n{ROW_HEADER},check\n", self.header(Some(s)));
                for (c, r) in &done {
                    text.push_str(&self.sealed(row_line(*c, &self.entries[*c], r)));
                    text.push('\n');
                }
                write(self.shard_path(s), text.as_bytes())?
            }
            None => {
                write(self.runs_path(), self.rows_csv(&done).as_bytes())?;
                write(self.summary_path(), self.summary_csv(&done)?.as_bytes())?;
            }
        }
        let _ = std::fs::remove_file(&partial);
        Ok(finals)
    }

    /// Merges the `k` shard files into the unsharded outputs (byte for byte what the unsharded
    /// sweep writes). Fails if a shard is missing, incomplete, made by another sweep (another
    /// grid, seed or version: its fingerprint line differs) or holds an invalid row.
    pub fn merge(&self, k: u64) -> Result<Vec<PathBuf>> {
        if k == 0 {
            return Err(Error::invalid("--shards", "must be at least 1"));
        }
        let _lock = self.lock()?;
        let mut all = Vec::new();
        for i in 0..k {
            let shard = Shard { index: i, count: k };
            let p = self.shard_path(shard);
            let text = std::fs::read_to_string(&p).map_err(|e| io_err(&p, e))?;
            let mut lines = text.lines().enumerate();
            let want = self.header(Some(shard));
            match lines.next() {
                Some((_, h)) if h == want => {}
                Some((_, h)) if h.starts_with("# balloc sweep ") => {
                    return Err(Error::invalid(
                        format!("shard file `{}`", p.display()),
                        format!(
                            "was made by another sweep (`{h}`, expected `{want}`: the grid, \
                             seed or balloc version differ); run that shard again"
                        ),
                    ));
                }
                _ => {
                    return Err(Error::invalid(
                        format!("shard file `{}`", p.display()),
                        "lacks its fingerprint line; run that shard again",
                    ));
                }
            }
            lines.next(); // the column header
            for (ln, line) in lines {
                let row = self
                    .unseal(line)
                    .and_then(|l| self.parse_row(l))
                    .and_then(|d| self.check_row(d, Some(shard)));
                all.push(row.map_err(|e| {
                    Error::invalid(
                        format!("shard file `{}` line {}", p.display(), ln + 1),
                        e.to_string(),
                    )
                })?);
            }
        }
        all.sort_unstable_by_key(|d| (d.0, d.1.run));
        if let Some(w) = all
            .windows(2)
            .find(|w| (w[0].0, w[0].1.run) == (w[1].0, w[1].1.run))
        {
            return Err(Error::invalid(
                "shards",
                format!(
                    "run {} of configuration {} appears twice",
                    w[0].1.run, w[0].0
                ),
            ));
        }
        let expected = self.entries.len() as u64 * self.runs;
        if all.len() as u64 != expected {
            return Err(Error::invalid(
                "shards",
                format!(
                    "hold {} of the {expected} runs; run the missing shards first",
                    all.len()
                ),
            ));
        }
        write(self.runs_path(), self.rows_csv(&all).as_bytes())?;
        write(self.summary_path(), self.summary_csv(&all)?.as_bytes())?;
        Ok(vec![self.runs_path(), self.summary_path()])
    }

    fn read_partial(&self, p: &Path, shard: Option<Shard>) -> Result<Vec<(usize, RunResult)>> {
        let text = match std::fs::read_to_string(p) {
            Ok(t) => t,
            Err(_) => return Ok(Vec::new()),
        };
        let bad = |why: String| Error::invalid(format!("partial file `{}`", p.display()), why);
        let mut lines = text.split_inclusive('\n');
        match lines.next() {
            Some(h) if h.trim_end() == self.header(None) => {}
            Some(h) if !h.ends_with('\n') && self.header(None).starts_with(h) => {
                // The fingerprint line itself was cut: nothing was recorded.
                std::fs::remove_file(p).map_err(|e| io_err(p, e))?;
                return Ok(Vec::new());
            }
            Some(_) => {
                return Err(bad(
                    "belongs to a different sweep (the grid, seed or balloc version changed); \
                     delete it to start over"
                        .into(),
                ));
            }
            None => return Ok(Vec::new()),
        }
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut good = text.lines().next().map(|l| l.len() + 1).unwrap_or(0);
        for (i, l) in lines.enumerate() {
            // A line without its newline was cut by the interruption: drop it.
            if !l.ends_with('\n') {
                break;
            }
            let d = self
                .unseal(l.trim_end())
                .and_then(|l| self.parse_row(l))
                .and_then(|d| self.check_row(d, shard))
                .map_err(|e| {
                    bad(format!(
                        "line {}: {e}; delete the file to start over",
                        i + 2
                    ))
                })?;
            if !seen.insert((d.0, d.1.run)) {
                return Err(bad(format!(
                    "line {}: run {} of configuration {} appears twice; delete the file to \
                     start over",
                    i + 2,
                    d.1.run,
                    d.0
                )));
            }
            out.push(d);
            good += l.len();
        }
        // Truncate a torn tail so that appended rows start on a fresh line.
        if good < text.len() {
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(p)
                .map_err(|e| io_err(p, e))?;
            f.set_len(good as u64).map_err(|e| io_err(p, e))?;
        }
        Ok(out)
    }

    /// Validates a parsed row against the sweep: run index in range and in `shard`, the seed of
    /// that run, finite and consistent numbers.
    fn check_row(&self, d: (usize, RunResult), shard: Option<Shard>) -> Result<(usize, RunResult)> {
        let (c, r) = (d.0, &d.1);
        let e = &self.entries[c];
        let bad = |why: String| Err(Error::invalid("row", why));
        if r.run >= self.runs {
            return bad(format!(
                "run {} is out of range (runs = {})",
                r.run, self.runs
            ));
        }
        if !self.mine(shard, c, r.run) {
            return bad(format!(
                "run {} of configuration {c} does not belong to this shard",
                r.run
            ));
        }
        let seed = crate::rng::run_seed(&e.config.key(), self.seed, r.run);
        if r.seed != seed {
            return bad(format!(
                "seed {} is not the seed {seed} of run {} of configuration {c}",
                r.seed, r.run
            ));
        }
        let nums = [r.final_gap, r.max_gap, r.spread, r.mean_quantile];
        if nums.iter().any(|v| !v.is_finite()) {
            return bad("holds a number that is not finite".into());
        }
        if r.balls < e.balls || r.steps == 0 || r.max_gap < r.final_gap || r.spread < 0.0 {
            return bad(format!(
                "is inconsistent (balls {} < target {}, no steps, max_gap < final_gap or a \
                 negative spread)",
                r.balls, e.balls
            ));
        }
        Ok(d)
    }

    /// A row of a partial or shard file with its checksum: `,<hash>` of the sweep's fingerprint
    /// and the row, so that a row whose values were edited (or copied from another sweep) is
    /// detected when it is read back, as its seed already is.
    fn sealed(&self, line: String) -> String {
        let h = crate::rng::fnv1a64(&format!("{:016x}|{line}", self.fingerprint));
        format!("{line},{h:016x}")
    }

    /// The row of a sealed line, when its checksum is the one [`Sweep::sealed`] gives it.
    fn unseal<'l>(&self, line: &'l str) -> Result<&'l str> {
        let (row, sum) = line
            .rsplit_once(',')
            .ok_or_else(|| Error::invalid("row", "has no checksum"))?;
        let want = crate::rng::fnv1a64(&format!("{:016x}|{row}", self.fingerprint));
        if sum != format!("{want:016x}") {
            return Err(Error::invalid(
                "row",
                "does not match its checksum (its values were changed after it was written)",
            ));
        }
        Ok(row)
    }

    fn rows_csv(&self, rows: &[(usize, RunResult)]) -> String {
        let mut s = String::from(ROW_HEADER);
        s.push('\n');
        for (c, r) in rows {
            s.push_str(&row_line(*c, &self.entries[*c], r));
            s.push('\n');
        }
        s
    }

    fn summary_csv(&self, rows: &[(usize, RunResult)]) -> Result<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut head: Vec<String> = [
            "config", "process", "n", "batch", "weights", "ties", "balls", "runs",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for q in ["final_gap", "max_gap", "spread", "mean_quantile"] {
            for s in ["mean", "stderr", "ci_low", "ci_high"] {
                head.push(format!("{q}_{s}"));
            }
        }
        head.push("note".into());
        w.write_record(&head).map_err(csv_err)?;
        // Rows are sorted by configuration: one pass over consecutive runs of equal `c`.
        for group in rows.chunk_by(|a, b| a.0 == b.0) {
            let c = group[0].0;
            let e = &self.entries[c];
            let runs: Vec<RunResult> = group.iter().map(|d| d.1.clone()).collect();
            let sum = summarise(&runs, self.confidence, 0)?;
            let mut rec = config_fields(c, e);
            rec.push(runs.len().to_string());
            for q in ["final_gap", "max_gap", "spread", "mean_quantile"] {
                match sum.iter().find(|s| s.0 == q) {
                    Some((_, est)) => {
                        for v in [est.mean, est.stderr, est.ci_low, est.ci_high] {
                            // Undefined spread (one run): an empty field, said in `note`.
                            rec.push(if v.is_finite() {
                                fmt_f64(v)
                            } else {
                                String::new()
                            });
                        }
                    }
                    None => rec.extend(std::iter::repeat_n(String::new(), 4)),
                }
            }
            rec.push(if runs.len() < 2 {
                crate::sim::statistic::UNDEFINED_FOR_ONE_RUN.to_string()
            } else {
                String::new()
            });
            w.write_record(&rec).map_err(csv_err)?;
        }
        let bytes = w
            .into_inner()
            .map_err(|e| Error::invalid("csv", e.to_string()))?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    fn parse_row(&self, line: &str) -> Result<(usize, RunResult)> {
        let mut rd = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(line.as_bytes());
        let rec = rd
            .records()
            .next()
            .ok_or_else(|| Error::invalid("row", "is empty"))?
            .map_err(csv_err)?;
        let bad = || Error::invalid("row", format!("malformed: `{line}`"));
        if rec.len() != ROW_HEADER.split(',').count() {
            return Err(bad());
        }
        let u = |i: usize| rec[i].parse::<u64>().map_err(|_| bad());
        let f = |i: usize| -> Result<f64> {
            if rec[i].is_empty() {
                Ok(f64::NAN)
            } else {
                rec[i].parse::<f64>().map_err(|_| bad())
            }
        };
        let c = u(0)? as usize;
        let e = self.entries.get(c).ok_or_else(bad)?;
        if config_fields(c, e) != rec.iter().take(7).map(String::from).collect::<Vec<_>>() {
            return Err(Error::invalid(
                "row",
                format!("does not match this sweep's configuration {c}"),
            ));
        }
        Ok((
            c,
            RunResult {
                run: u(7)?,
                seed: u(8)?,
                final_gap: f(9)?,
                max_gap: f(10)?,
                spread: f(11)?,
                balls: u(12)?,
                steps: u(13)?,
                mean_quantile: f(14)?,
                potentials: Vec::new(),
                trajectory: Vec::new(),
                histogram: Vec::new(),
                observables: Vec::new(),
                mean_gap: None,
            },
        ))
    }
}

const ROW_HEADER: &str = "config,process,n,batch,weights,ties,balls_target,run,seed,final_gap,max_gap,spread,balls,steps,mean_quantile";

fn config_fields(c: usize, e: &Entry) -> Vec<String> {
    vec![
        c.to_string(),
        e.config.process.spec(),
        e.config.n.to_string(),
        e.config.batch.to_string(),
        e.config.weights.spec(),
        e.config.ties.name().to_string(),
        e.balls.to_string(),
    ]
}

/// Shortest round-trip form; NaN as the empty field.
fn fmt_f64(v: f64) -> String {
    if v.is_nan() {
        String::new()
    } else {
        v.to_string()
    }
}

fn row_line(c: usize, e: &Entry, r: &RunResult) -> String {
    let mut rec = config_fields(c, e);
    rec.extend([
        r.run.to_string(),
        r.seed.to_string(),
        fmt_f64(r.final_gap),
        fmt_f64(r.max_gap),
        fmt_f64(r.spread),
        r.balls.to_string(),
        r.steps.to_string(),
        fmt_f64(r.mean_quantile),
    ]);
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    let _ = w.write_record(&rec);
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8_lossy(&bytes).trim_end().to_string()
}

fn csv_err(e: csv::Error) -> Error {
    Error::invalid("csv", e.to_string())
}

fn io_err(p: &Path, e: std::io::Error) -> Error {
    crate::output::file_error(p, e)
}

/// Writes a file of the sweep atomically ([`crate::output::write_atomic`]).
fn write(path: impl AsRef<Path>, bytes: &[u8]) -> Result<()> {
    let path = path.as_ref();
    crate::output::write_atomic(path, bytes).map_err(|e| io_err(path, e))
}

/// Simulates a whole configuration (for callers that want [`crate::sim::SimOutput`] of one entry).
pub fn simulate_entry(e: &Entry, runs: u64, seed: u64) -> Result<crate::sim::SimOutput> {
    simulate(&e.config, &Plan::new(e.balls, runs, seed), &|| {})
}
