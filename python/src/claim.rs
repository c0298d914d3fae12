//! Claims (theorem files), their verdicts, the counterexample search and the constant finder.
//!
//! A claim is a TOML theorem file (the schema of `theorems/README.md`), given as text
//! (`Claim.from_str`, id `inline`) or as a file or id (`Claim.load`; a file outside the theorem
//! directory needs no `paper.toml`). Its verdict is never a bare bool: `holds` (no violation in
//! the searched space, with the smallest slack and where it was attained), `refuted` (a
//! certified counterexample) or `inconclusive`, each with a trust level (`exact`, `enclosure`,
//! `float`, `statistical`).
//!
//! The functions run what `balloc check`, `balloc search` and `balloc constant` run, with the
//! same seeds and proptest regression files, so their results equal the command line's JSON.

use crate::convert;
use crate::error::{IntoPy, to_py};
use crate::progress::{self, Progress};
use anyhow::{Context, Result};
use balloc::app::constant::ConstantAnswer;
use balloc::claim::{self, Check, RunContext, Status, Theorem};
use balloc::limits;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A state at which a claim was evaluated: the tightest state of a `holds` verdict or the
/// counterexample of a `refuted` one.
///
/// `n`, `loads` (numpy array; empty for claims that do not depend on a state), `source` (the
/// process or allocation vector), `constants` (dict), `lhs`, `rhs`, `slack` (floats, `None`
/// when not a finite f64 or descriptive text; `lhs_text`, `rhs_text`, `slack_text` always hold
/// the full decimal text), `found_by` (the search phase), `recheck` (the independent re-check,
/// if one was made). The slack is rhs − lhs, positive when the claim holds there.
#[pyclass(frozen, module = "balloc")]
pub struct Witness {
    inner: claim::Witness,
}

fn number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|x| x.is_finite())
}

impl Witness {
    fn exact_part<'py>(
        &self,
        py: Python<'py>,
        f: impl Fn(&claim::ExactSides) -> &String,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        match &self.inner.exact {
            Some(e) => {
                let q = balloc::spec::parse_ratio(f(e))
                    .map_err(pyo3::exceptions::PyValueError::new_err)?;
                Ok(Some(convert::fraction(py, &q)?))
            }
            None => Ok(None),
        }
    }
}

#[pymethods]
impl Witness {
    /// The number of bins.
    #[getter]
    fn n(&self) -> usize {
        self.inner.n
    }
    /// The load vector (read-only numpy array).
    #[getter]
    fn loads<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::frozen(py, &self.inner.loads)
    }
    /// The process spec or allocation vector label.
    #[getter]
    fn source(&self) -> &str {
        &self.inner.source
    }
    /// The constants at which the claim was evaluated.
    #[getter]
    fn constants<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::json(py, &json!(self.inner.constants))
    }
    /// The left side (`None` if not a finite f64).
    #[getter]
    fn lhs(&self) -> Option<f64> {
        number(&self.inner.lhs)
    }
    /// The right side (`None` if not a finite f64).
    #[getter]
    fn rhs(&self) -> Option<f64> {
        number(&self.inner.rhs)
    }
    /// The slack rhs − lhs (`None` if not a finite f64).
    #[getter]
    fn slack(&self) -> Option<f64> {
        number(&self.inner.slack)
    }
    /// The left side as text (may exceed the range of f64).
    #[getter]
    fn lhs_text(&self) -> &str {
        &self.inner.lhs
    }
    /// The right side as text.
    #[getter]
    fn rhs_text(&self) -> &str {
        &self.inner.rhs
    }
    /// The slack as text.
    #[getter]
    fn slack_text(&self) -> &str {
        &self.inner.slack
    }
    /// The search phase that found the state.
    #[getter]
    fn found_by(&self) -> &str {
        &self.inner.found_by
    }
    /// The independent re-check, when one was made.
    #[getter]
    fn recheck(&self) -> Option<&str> {
        self.inner.recheck.as_deref()
    }
    /// The left side as a `fractions.Fraction` when the certified evaluation was exact, else
    /// `None`.
    #[getter]
    fn lhs_exact<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.exact_part(py, |e| &e.lhs)
    }
    /// The right side as a `fractions.Fraction` (exact evaluations only).
    #[getter]
    fn rhs_exact<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.exact_part(py, |e| &e.rhs)
    }
    /// The slack as a `fractions.Fraction` (exact evaluations only).
    #[getter]
    fn slack_exact<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.exact_part(py, |e| &e.slack)
    }
    /// The constants as text (exact rationals as `p/q`, any magnitude in scientific notation).
    #[getter]
    fn constants_text<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::json(py, &json!(self.inner.constants_all_text()))
    }
    /// The `witness` object of `balloc check --format json` as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::json(py, &self.inner.to_json())
    }
    fn __repr__(&self) -> String {
        let x = &self.inner.loads;
        let head: Vec<String> = x.iter().take(8).map(|v| format!("{v}")).collect();
        let more = if x.len() > 8 { ", …" } else { "" };
        format!(
            "Witness(n={}, loads=[{}{more}], source={:?}, lhs={}, rhs={}, slack={})",
            self.inner.n,
            head.join(", "),
            self.inner.source,
            self.inner.lhs,
            self.inner.rhs,
            self.inner.slack
        )
    }
}

/// The verdict on one claim.
///
/// `id`, `verdict` (`holds`, `refuted` or `inconclusive`), `expected` (the file's status:
/// `holds`, `refuted`, `open`), `contradicts` (whether the verdict contradicts it), `trust`
/// (`exact`, `enclosure`, `float`, `statistical`), `slack` (the smallest slack found, or the
/// counterexample's; `None` if not a finite f64), `witness` (a `Witness` or `None`),
/// `searched` (dict: the n, sources, states per search phase, total evaluations, ...),
/// `precision_bits`, `confidence`, `notes`, `links` (per link of a chain of inequalities).
///
/// `to_dict()` is the verdict's object in `balloc check --format json`.
#[pyclass(frozen, module = "balloc")]
pub struct Verdict {
    inner: claim::Verdict,
}

#[pymethods]
impl Verdict {
    /// The theorem id (`inline` for a claim given as text).
    #[getter]
    fn id(&self) -> &str {
        &self.inner.id
    }
    /// `holds`, `refuted` or `inconclusive`.
    #[getter]
    fn verdict(&self) -> &'static str {
        self.inner.verdict.name()
    }
    /// The status the file expects: `holds`, `refuted` or `open`.
    #[getter]
    fn expected(&self) -> &'static str {
        self.inner.expected.name()
    }
    /// Whether the verdict contradicts the expected status (`open` never does).
    #[getter]
    fn contradicts(&self) -> bool {
        self.inner.contradicts()
    }
    /// `exact`, `enclosure`, `float` or `statistical`.
    #[getter]
    fn trust(&self) -> &'static str {
        self.inner.trust.name()
    }
    /// The smallest slack found (the counterexample's when refuted), `None` if not a finite f64.
    #[getter]
    fn slack(&self) -> Option<f64> {
        self.inner.slack.filter(|s| s.is_finite())
    }
    /// The tightest state or the counterexample.
    #[getter]
    fn witness(&self) -> Option<Witness> {
        self.inner.witness.clone().map(|inner| Witness { inner })
    }
    /// What was searched (dict).
    #[getter]
    fn searched<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::json(py, &json!(self.inner.searched))
    }
    /// The working precision of the enclosures that decided the verdict, if any.
    #[getter]
    fn precision_bits(&self) -> Option<u64> {
        self.inner.searched.precision_bits
    }
    /// The confidence level of a statistical verdict, if any.
    #[getter]
    fn confidence(&self) -> Option<f64> {
        self.inner.searched.confidence
    }
    /// Remarks (re-check details, resolution, why inconclusive).
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.inner.notes.clone()
    }
    /// The verdict of each link of a chain of inequalities (list of dicts).
    #[getter]
    fn links<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::json(py, &self.inner.to_json()["links"])
    }
    /// The verdict's object of `balloc check --format json` as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::json(py, &self.inner.to_json())
    }
    fn __repr__(&self) -> String {
        format!(
            "Verdict(id={:?}, verdict={:?}, expected={:?}, trust={:?}, slack={})",
            self.inner.id,
            self.inner.verdict.name(),
            self.inner.expected.name(),
            self.inner.trust.name(),
            self.inner
                .slack
                .map(|s| format!("{s:e}"))
                .unwrap_or_else(|| "None".into())
        )
    }
}

/// The tightest value of a constant per n and its growth across n (`balloc constant`).
///
/// `id`, `name`, `direction` (`smallest`: the claim holds for large values; `largest`),
/// `n` (numpy int array), `values` (the tightest value per n, shown to hold), `fails` (the
/// nearest value shown to fail, NaN when none was found), `witnesses` (the state pinning each
/// value), `fits` (least-squares fits value ≈ a·g(n), g ∈ {1, ln n, √n, n, n ln n}, best first,
/// each a dict with `model`, `coefficient` a and `rel_rms`, the root mean square of the
/// relative residuals), `fits_note` (why there is no fit, if none).
///
/// `to_dict()` is the JSON document of `balloc constant --format json`.
#[pyclass(frozen, module = "balloc")]
pub struct ConstantReport {
    inner: claim::ConstantReport,
    fits_note: Option<String>,
}

#[pymethods]
impl ConstantReport {
    /// The theorem id.
    #[getter]
    fn id(&self) -> &str {
        &self.inner.id
    }
    /// The constant.
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }
    /// `smallest` or `largest`.
    #[getter]
    fn direction(&self) -> &'static str {
        match self.inner.direction {
            claim::Direction::Smallest => "smallest",
            claim::Direction::Largest => "largest",
        }
    }
    /// The numbers of bins (numpy array).
    #[getter]
    fn n<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v: Vec<u64> = self.inner.per_n.iter().map(|t| t.n as u64).collect();
        convert::frozen(py, &v)
    }
    /// The tightest value per n (numpy array).
    #[getter]
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v: Vec<f64> = self.inner.per_n.iter().map(|t| t.value).collect();
        convert::frozen(py, &v)
    }
    /// The nearest failing value per n (numpy array, NaN when none was found).
    #[getter]
    fn fails<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v: Vec<f64> = self
            .inner
            .per_n
            .iter()
            .map(|t| t.fails.unwrap_or(f64::NAN))
            .collect();
        convert::frozen(py, &v)
    }
    /// The state pinning each value.
    #[getter]
    fn witnesses(&self) -> Vec<Option<Witness>> {
        self.inner
            .per_n
            .iter()
            .map(|t| t.witness.clone().map(|inner| Witness { inner }))
            .collect()
    }
    /// The growth fits, best first (list of dicts).
    #[getter]
    fn fits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::json(py, &json!(self.inner.fits))
    }
    /// Why there is no growth fit (a single n, or every value 0), else `None`.
    #[getter]
    fn fits_note(&self) -> Option<&str> {
        self.fits_note.as_deref()
    }
    /// The JSON document of `balloc constant --format json` as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let answer = ConstantAnswer {
            report: self.inner.clone(),
            fits_note: self.fits_note.clone(),
        };
        convert::json(py, &answer.to_json())
    }
    fn __repr__(&self) -> String {
        let per: Vec<String> = self
            .inner
            .per_n
            .iter()
            .map(|t| format!("{}: {}", t.n, t.value))
            .collect();
        format!(
            "ConstantReport(id={:?}, name={:?}, {} {{{}}})",
            self.inner.id,
            self.inner.name,
            self.direction(),
            per.join(", ")
        )
    }
}

/// A claim: one theorem file (schema of `theorems/README.md`) with its check built.
///
/// `Claim.from_str(text)` (id `inline`, no `paper.toml`) or `Claim.load(path_or_id,
/// theorems="theorems")` (a file, or an id `<paper>/<name>` under the theorem directory).
/// `check()` runs its search and returns a `Verdict`; `search(budget)` keeps searching with fresh
/// seeds for `budget` seconds; `constant(name, n)` finds the tightest value of a constant
/// declared in its `[tighten]` table.
#[pyclass(frozen, module = "balloc")]
pub struct Claim {
    theorem: Theorem,
    check: Box<dyn Check>,
    regressions: Option<PathBuf>,
}

/// The proptest regression directory next to a theorem directory.
fn regressions_dir(root: &Path) -> PathBuf {
    root.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .join("proptest-regressions")
        .join("theorems")
}

/// Where the search of theorem `t` persists proptest failures: the regression directory of a
/// file of the theorem directory; none for a draft outside it.
fn regressions_for(t: &Theorem, root: &Path) -> Option<PathBuf> {
    let inside = !t.id.starts_with('/') && !t.id.starts_with("..") && {
        let by_id = root.join(format!("{}.toml", t.id));
        by_id.is_file() && std::fs::canonicalize(&by_id).ok() == std::fs::canonicalize(&t.path).ok()
    };
    inside.then(|| regressions_dir(root))
}

/// A theorem from TOML text, with id `inline` and no paper record.
fn theorem_from_str(text: &str) -> Result<Theorem> {
    let file = claim::schema::parse_file("inline", text)?;
    Ok(Theorem {
        id: "inline".into(),
        path: PathBuf::from("inline"),
        text: text.to_string(),
        file,
        paper: None,
    })
}

/// How bad a verdict is for its claim: a counterexample first, then an inconclusive verdict,
/// then the smallest slack (a missing slack last).
fn badness(v: &claim::Verdict) -> (u8, f64) {
    let rank = match v.verdict {
        Status::Refuted => 0,
        Status::Inconclusive => 1,
        Status::Holds | Status::Proved => 2,
    };
    (rank, v.slack.unwrap_or(f64::INFINITY))
}

/// Of two verdicts on the same claim, the worse for the claim, with both tallies.
fn keep_worst(a: claim::Verdict, b: claim::Verdict) -> claim::Verdict {
    let (ra, rb) = (badness(&a), badness(&b));
    let a_first = ra.0 < rb.0 || (ra.0 == rb.0 && ra.1 <= rb.1);
    let (mut keep, other) = if a_first { (a, b) } else { (b, a) };
    keep.searched.merge(&other.searched);
    keep
}

fn callback(progress: Option<Bound<'_, PyAny>>) -> Option<Py<PyAny>> {
    progress.map(|p| p.unbind())
}

impl Claim {
    fn load_inner(id: &str, root: &Path) -> Result<Claim> {
        let files = claim::resolve(std::slice::from_ref(&id.to_string()), root)?;
        let [file] = files.as_slice() else {
            anyhow::bail!(
                "invalid ID: `{id}` names {} files; give one theorem",
                files.len()
            );
        };
        let (theorem, check) = claim::prepare(file, root)?;
        let regressions = regressions_for(&theorem, root);
        Ok(Claim {
            theorem,
            check,
            regressions,
        })
    }

    fn from_text(text: &str) -> Result<Claim> {
        let theorem = theorem_from_str(text)?;
        let check = claim::kind::build(&theorem)?;
        Ok(Claim {
            theorem,
            check,
            regressions: None,
        })
    }

    fn context<'a>(&self, effort: u32, tick: &'a dyn Fn(&str)) -> RunContext<'a> {
        RunContext {
            effort: effort.max(1),
            regressions: self.regressions.clone(),
            progress: Some(tick),
            ..RunContext::default()
        }
    }

    /// The check as `balloc check` runs it.
    fn run(&self, effort: u32, p: &Progress) -> Result<claim::Verdict> {
        let tick = |m: &str| p.note(m);
        let v = self.check.run(&mut self.context(effort, &tick))?;
        p.advance(1, &self.theorem.id);
        Ok(v)
    }

    /// The search as `balloc search` runs it: the file's own search, then fresh seeds until the
    /// budget is spent; the worse verdict of the two.
    fn search_inner(&self, budget: f64, p: &Progress) -> Result<claim::Verdict> {
        let tick = |m: &str| p.note(m);
        let start = Instant::now();
        let first = self.check.run(&mut self.context(1, &tick))?;
        if first.verdict == Status::Refuted || start.elapsed().as_secs_f64() >= budget {
            return Ok(first);
        }
        let mut ctx = self.context(1, &tick);
        ctx.deadline = Some(start + Duration::from_secs_f64(budget));
        let more = self.check.run(&mut ctx)?;
        let mut v = keep_worst(first, more);
        v.notes.push(format!(
            "search: the file's own search and further rounds with fresh seeds for {:.1} s; the worst state of all is reported",
            start.elapsed().as_secs_f64()
        ));
        Ok(v)
    }

    fn constant_inner(
        &self,
        name: &str,
        ns: Option<&[usize]>,
        p: &Progress,
    ) -> Result<ConstantReport> {
        let tick = |m: &str| p.note(m);
        let r = self
            .check
            .tighten(name, ns, &mut self.context(1, &tick))
            .context("--name")?;
        let answer = ConstantAnswer::of(r)?;
        Ok(ConstantReport {
            inner: answer.report,
            fits_note: answer.fits_note,
        })
    }
}

/// `--n` of `balloc constant`: distinct numbers of bins in 1..=`limits::CLAIM_N`, at most
/// `limits::CONSTANT_NS` of them.
fn ns_arg(n: &Bound<'_, PyAny>) -> Result<Vec<usize>> {
    let items: Vec<Bound<'_, PyAny>> = match n.try_iter() {
        Ok(it) => it.collect::<PyResult<_>>()?,
        Err(_) => vec![n.clone()],
    };
    limits::CONSTANT_NS.check("--n (number of values)", items.len() as u64)?;
    let mut ns: Vec<usize> = Vec::with_capacity(items.len());
    for t in &items {
        let v = t
            .extract::<usize>()
            .ok()
            .filter(|&v| v >= 1)
            .with_context(|| {
                format!(
                    "invalid --n: `{}` is not a number of bins ≥ 1",
                    t.str().map(|s| s.to_string()).unwrap_or_default()
                )
            })?;
        limits::CLAIM_N.check_usize("--n", v)?;
        if ns.contains(&v) {
            anyhow::bail!("invalid --n: {v} is given twice (a growth fit needs distinct n)");
        }
        ns.push(v);
    }
    Ok(ns)
}

#[pymethods]
impl Claim {
    /// A claim from TOML text (the schema of `theorems/README.md`; no `paper.toml`), id
    /// `inline`. Errors name the line and column: `inline:3:7: ...`.
    #[staticmethod]
    fn from_str(text: &str) -> PyResult<Claim> {
        Claim::from_text(text).py_err()
    }

    /// A claim from a theorem file or an id `<paper>/<name>` under the theorem directory
    /// `theorems` (relative to the current directory). A file outside it needs no `paper.toml`.
    #[staticmethod]
    #[pyo3(signature = (path_or_id, theorems=PathBuf::from("theorems")),
        text_signature = "(path_or_id, theorems='theorems')")]
    fn load(path_or_id: PathBuf, theorems: PathBuf) -> PyResult<Claim> {
        Claim::load_inner(&path_or_id.to_string_lossy(), &theorems).py_err()
    }

    /// The theorem id.
    #[getter]
    fn id(&self) -> &str {
        &self.theorem.id
    }
    /// The one-line title.
    #[getter]
    fn title(&self) -> &str {
        &self.theorem.file.title
    }
    /// The kind of check (`inequality`, `condition`, `statistical`, ...).
    #[getter]
    fn kind(&self) -> &str {
        self.theorem.file.kind.get_ref()
    }
    /// The expected status: `holds`, `refuted` or `open`.
    #[getter]
    fn expected(&self) -> &'static str {
        self.theorem.file.expected.name()
    }
    /// The statement in LaTeX.
    #[getter]
    fn statement(&self) -> &str {
        &self.theorem.file.statement
    }
    /// The constants declared in `[tighten]` with their direction.
    #[getter]
    fn tighten<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::json(py, &json!(self.theorem.file.tighten))
    }
    /// The file's text.
    #[getter]
    fn text(&self) -> &str {
        &self.theorem.text
    }

    /// Runs the claim's search (what `balloc check` runs for the file) and returns its
    /// `Verdict`. `effort` multiplies the file's random and optimiser budgets. `progress`, if
    /// given, is called as `progress(done, total, message)` after each searched case. The GIL
    /// is released; Ctrl-C is handled when the search ends.
    #[pyo3(signature = (*, effort=1, progress=None))]
    fn check(
        &self,
        py: Python<'_>,
        effort: u32,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Verdict> {
        let p = Progress::new(callback(progress), Some(1));
        let v = progress::run(py, &p, || self.run(effort, &p))?.py_err()?;
        Ok(Verdict { inner: v })
    }

    /// The counterexample search of `balloc search`: the file's own search, then further rounds
    /// with fresh seeds until `budget` seconds have passed (or a counterexample is found); the
    /// worst state of all is reported, so it is never weaker than `check()`.
    #[pyo3(signature = (budget=10.0, *, progress=None))]
    fn search(
        &self,
        py: Python<'_>,
        budget: f64,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Verdict> {
        limits::SEARCH_BUDGET
            .check_f64("--budget", budget)
            .py_err()?;
        let p = Progress::new(callback(progress), None);
        let v = progress::run(py, &p, || self.search_inner(budget, &p))?.py_err()?;
        Ok(Verdict { inner: v })
    }

    /// The constant finder of `balloc constant`: the tightest value of constant `name` (declared
    /// in the file's `[tighten]` table) per n — by bisection in the declared direction, each
    /// value shown to hold by the claim's search — and its growth fits across n. `n` is a list
    /// of distinct numbers of bins (default: the file's domain).
    #[pyo3(signature = (name, n=None, *, progress=None))]
    fn constant(
        &self,
        py: Python<'_>,
        name: &str,
        n: Option<Bound<'_, PyAny>>,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<ConstantReport> {
        let ns = n.as_ref().map(ns_arg).transpose().py_err()?;
        let p = Progress::new(callback(progress), None);
        progress::run(py, &p, || self.constant_inner(name, ns.as_deref(), &p))?.py_err()
    }

    fn __repr__(&self) -> String {
        format!(
            "Claim(id={:?}, kind={:?}, expected={:?}, title={:?})",
            self.theorem.id,
            self.theorem.file.kind.get_ref(),
            self.theorem.file.expected.name(),
            self.theorem.file.title
        )
    }
}

/// Runs theorem files as `balloc check` does and returns their verdicts in the order given.
///
/// `paths` are files, directories or ids (`<paper>/<name>`) under the theorem directory
/// `theorems`; none means every file under it. Every file is validated before any search; a
/// malformed file raises `BallocError` with `file:line:column: message`. Files run on `jobs`
/// threads (default: every core); the verdicts do not depend on it. `progress`, if given, is
/// called as `progress(done, total, message)` after each file and each searched case. Ctrl-C
/// stops before the next file.
#[pyfunction]
#[pyo3(signature = (*paths, theorems="theorems".into(), effort=1, jobs=None, progress=None),
    text_signature = "(*paths, theorems='theorems', effort=1, jobs=None, progress=None)")]
pub fn check(
    py: Python<'_>,
    paths: &Bound<'_, PyTuple>,
    theorems: PathBuf,
    effort: u32,
    jobs: Option<usize>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Vec<Verdict>> {
    let args: Vec<String> = paths
        .iter()
        .map(|p| {
            p.extract::<PathBuf>()
                .map(|p| p.to_string_lossy().into_owned())
        })
        .collect::<PyResult<_>>()?;
    let claims = (|| -> Result<Vec<Claim>> {
        let files = claim::resolve(&args, &theorems)?;
        let mut out = Vec::new();
        for f in &files {
            let (theorem, check) = claim::prepare(f, &theorems)?;
            let regressions = regressions_for(&theorem, &theorems);
            out.push(Claim {
                theorem,
                check,
                regressions,
            });
        }
        Ok(out)
    })()
    .py_err()?;
    let jobs = match jobs {
        Some(0) => return Err(to_py(anyhow::anyhow!("invalid --jobs: must be at least 1"))),
        Some(j) => j,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let p = Progress::new(callback(progress), Some(claims.len() as u64));
    let results = progress::run(py, &p, || run_all(&claims, effort, jobs, &p))?;
    let mut out = Vec::with_capacity(results.len());
    for r in results {
        out.push(Verdict { inner: r.py_err()? });
    }
    Ok(out)
}

/// Runs the claims on `jobs` threads taking the files in order; the first error (in file order)
/// stops the rest.
fn run_all(
    claims: &[Claim],
    effort: u32,
    jobs: usize,
    p: &Progress,
) -> Vec<Result<claim::Verdict>> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let results: Mutex<Vec<Option<Result<claim::Verdict>>>> =
        Mutex::new((0..claims.len()).map(|_| None).collect());
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let worker = || {
        loop {
            let i = next.fetch_add(1, Ordering::SeqCst);
            if i >= claims.len() || failed.load(Ordering::SeqCst) || p.stopped() {
                break;
            }
            let c = &claims[i];
            let r = c
                .run(effort, p)
                .with_context(|| c.theorem.path.display().to_string());
            if r.is_err() {
                failed.store(true, Ordering::SeqCst);
            }
            results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
        }
    };
    std::thread::scope(|s| {
        for _ in 0..jobs.min(claims.len().max(1)) {
            s.spawn(worker);
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut out = Vec::with_capacity(results.len());
    for r in results {
        match r {
            Some(Ok(v)) => out.push(Ok(v)),
            Some(Err(e)) => {
                out.push(Err(e));
                break;
            }
            None => {
                out.push(Err(anyhow::anyhow!("a check did not run")));
                break;
            }
        }
    }
    out
}

/// Runs a claim given as TOML text (the schema of `theorems/README.md`; id `inline`, no
/// `paper.toml`) with the file's own search budget and returns its `Verdict`; the same as
/// `Claim.from_str(text).check()`.
#[pyfunction]
#[pyo3(signature = (text, *, effort=1, progress=None))]
pub fn check_str(
    py: Python<'_>,
    text: &str,
    effort: u32,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Verdict> {
    Claim::from_text(text).py_err()?.check(py, effort, progress)
}
