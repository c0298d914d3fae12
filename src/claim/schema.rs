//! The theorem-file schema: one claim per TOML file under `theorems/<paper>/<name>.toml`, its id
//! the path without `.toml`; a `paper.toml` per paper folder. Unknown fields are errors; every
//! error names the file and, where the TOML parser or a span knows it, the line and column.

use crate::exact::Q;
use crate::loads::TieRule;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// An error in a theorem file: `file:line:column: message`.
///
/// ```
/// use balloc::claim::FileError;
/// let e = FileError::at("theorems/x/y.toml", "a = 1\nb = ?\n", Some(10), "bad value");
/// assert_eq!(e.to_string(), "theorems/x/y.toml:2:5: bad value");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FileError {
    /// The file (as given on the command line or found under `theorems/`).
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column (in characters), when known.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "{}:{l}:{c}: {}", self.file, self.message),
            _ => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for FileError {}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

impl FileError {
    /// An error at a byte offset of `text` (or without a position).
    pub fn at(
        file: impl Into<String>,
        text: &str,
        offset: Option<usize>,
        message: impl Into<String>,
    ) -> FileError {
        let (line, column) = match offset {
            Some(o) => {
                let (l, c) = line_col(text, o);
                (Some(l), Some(c))
            }
            None => (None, None),
        };
        FileError {
            file: file.into(),
            line,
            column,
            message: message.into(),
        }
    }

    fn from_toml(file: &str, text: &str, e: toml::de::Error) -> FileError {
        let msg = e.message().trim().replace('\n', " ");
        FileError::at(file, text, e.span().map(|s| s.start), msg)
    }
}

/// The status a theorem file expects (docs/conventions.md §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ExpectedStatus {
    /// The claim should survive the search.
    Holds,
    /// The search should find a counterexample (a finding, explained in the file).
    Refuted,
    /// Unknown; any verdict is accepted.
    Open,
    /// The claim must be proved (kind `real`: every box of the domain certified).
    Proved,
}

impl ExpectedStatus {
    /// The lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            ExpectedStatus::Holds => "holds",
            ExpectedStatus::Refuted => "refuted",
            ExpectedStatus::Open => "open",
            ExpectedStatus::Proved => "proved",
        }
    }
}

/// How a statement is known (the tags of the paper notes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Provenance {
    /// Read in the primary text.
    Read,
    /// Rebuilt from surrounding prose; not a quotation.
    Reconstructed,
    /// From memory of the paper; constants and hypotheses unverified.
    Recalled,
    /// Standard mathematics worked out independently; not a statement of the paper.
    Derived,
}

/// Where the statement comes from.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceSection {
    /// Section, lemma/theorem/equation number, e.g. `A §3, Theorem 3.1 (key inequality)`.
    pub locator: String,
    /// How the statement is known.
    pub provenance: Provenance,
}

/// A number as written in TOML: a float/integer or a string (`"1/3"`, `"0.1"`).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Scalar {
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
    /// A string holding a decimal or a fraction.
    Text(String),
}

impl Scalar {
    /// The value as `f64` and as the exact rational written.
    pub fn value(&self) -> Result<(f64, Q), String> {
        let text = match self {
            Scalar::Int(i) => i.to_string(),
            Scalar::Float(f) => {
                if !f.is_finite() {
                    return Err(format!("{f} is not a finite number"));
                }
                format!("{f:e}")
            }
            Scalar::Text(t) => t.clone(),
        };
        let f = crate::spec::parse_f64(&text)?;
        let r = crate::spec::parse_ratio(&text)?;
        Ok((f, r))
    }
}

/// A constant: one value or a grid of values.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum ConstValue {
    /// A single value.
    One(Scalar),
    /// A grid; the claim is checked at every value (every combination with other grids).
    Grid(Vec<Scalar>),
}

pub use crate::search::Direction;

/// The quantifier over allocation vectors: every sorted `p` with C1(δ, ε) and C2(C).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VectorSection {
    /// The quantile δ of C1 (δn must be an integer at every n).
    pub delta: Scalar,
    /// The ε of C1.
    pub eps: Scalar,
    /// The C of C2.
    pub c2: Scalar,
    /// How many random vectors meeting the conditions, besides the extremal ones.
    #[serde(default)]
    pub random: usize,
}

/// A batch size as written: an integer, an expression in `n` and the constants (`"n"`,
/// `"4*n"`, `"n*ceil(ln(n))"`), or a list of them (a grid).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum BatchValue {
    /// A fixed batch size.
    Int(u64),
    /// An expression.
    Text(String),
    /// A grid of sizes or expressions; every one is checked.
    Grid(Vec<BatchItem>),
}

/// One entry of a batch grid.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum BatchItem {
    /// A fixed batch size.
    Int(u64),
    /// An expression.
    Text(String),
}

impl BatchValue {
    /// The entries as expression texts.
    ///
    /// ```
    /// use balloc::claim::schema::BatchValue;
    /// assert_eq!(BatchValue::Int(4).texts(), vec!["4".to_string()]);
    /// assert_eq!(BatchValue::Text("4*n".into()).texts(), vec!["4*n".to_string()]);
    /// ```
    pub fn texts(&self) -> Vec<String> {
        match self {
            BatchValue::Int(b) => vec![b.to_string()],
            BatchValue::Text(t) => vec![t.clone()],
            BatchValue::Grid(g) => g
                .iter()
                .map(|i| match i {
                    BatchItem::Int(b) => b.to_string(),
                    BatchItem::Text(t) => t.clone(),
                })
                .collect(),
        }
    }

    /// The fixed batch size, when it is one integer.
    pub fn fixed(&self) -> Option<u64> {
        match self {
            BatchValue::Int(b) => Some(*b),
            BatchValue::Text(t) => t.trim().parse().ok(),
            BatchValue::Grid(_) => None,
        }
    }
}

impl std::fmt::Display for BatchValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BatchValue::Int(b) => write!(f, "{b}"),
            BatchValue::Text(t) => f.write_str(t),
            BatchValue::Grid(_) => write!(f, "[{}]", self.texts().join(", ")),
        }
    }
}

fn default_batch() -> Spanned<BatchValue> {
    Spanned::new(0..0, BatchValue::Int(1))
}

fn default_weights() -> Spanned<String> {
    Spanned::new(0..0, "unit".to_string())
}

/// Processes, potentials and the setting of one step.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingSection {
    /// Process specs (e.g. `two-choice`, `one-plus-beta(beta=0.5)`).
    #[serde(default)]
    pub processes: Vec<Spanned<String>>,
    /// The quantifier over allocation vectors.
    #[serde(default)]
    pub vectors: Option<Spanned<VectorSection>>,
    /// Potentials the claim is about (`phi`, `psi`, `gamma`, `quadratic`, `absolute`); the
    /// exponential ones take `alpha` from the constants.
    #[serde(default)]
    pub potentials: Vec<Spanned<String>>,
    /// Batch size b (1 = sequential): an integer, an expression in `n` and the constants, or a
    /// grid of them.
    #[serde(default = "default_batch")]
    pub batch: Spanned<BatchValue>,
    /// Weight law spec (`unit`, `exp(1)`, ...).
    #[serde(default = "default_weights")]
    pub weights: Spanned<String>,
    /// Tie rule.
    #[serde(default)]
    pub ties: TieRule,
}

impl Default for SettingSection {
    fn default() -> Self {
        SettingSection {
            processes: Vec::new(),
            vectors: None,
            potentials: Vec::new(),
            batch: default_batch(),
            weights: default_weights(),
            ties: TieRule::Random,
        }
    }
}

/// Exhaustive enumeration bounds.
#[derive(Debug, Clone, Copy, Deserialize, serde::Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Exhaustive {
    /// Enumerate only for n up to this.
    pub max_n: usize,
    /// Sorted integer vectors with minimum 0 and maximum at most this.
    pub max_load: u32,
}

fn default_starts() -> usize {
    4
}

fn default_true() -> bool {
    true
}

/// One entry of `[domain] states` as written: a load vector (a list of numbers), or a
/// multidimensional state (a list of rows, one list of integer loads per bin).
#[derive(Debug, Clone, PartialEq)]
enum StateEntry {
    Loads(Vec<f64>),
    Md(Vec<Vec<i64>>),
}

impl<'de> Deserialize<'de> for StateEntry {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        use toml::Value;
        let items = Vec::<Value>::deserialize(de)?;
        if items
            .iter()
            .all(|v| matches!(v, Value::Integer(_) | Value::Float(_)))
        {
            return Ok(StateEntry::Loads(
                items
                    .iter()
                    .map(|v| match v {
                        Value::Integer(i) => *i as f64,
                        Value::Float(f) => *f,
                        _ => unreachable!("checked above"),
                    })
                    .collect(),
            ));
        }
        let mut rows = Vec::with_capacity(items.len());
        for (b, v) in items.iter().enumerate() {
            let Value::Array(row) = v else {
                return Err(D::Error::custom(
                    "a state is a list of loads (numbers), or for kind multidim a list of rows (one list of integer loads per bin, e.g. [[1, 0], [0, 2]])",
                ));
            };
            let mut out = Vec::with_capacity(row.len());
            for x in row {
                match x {
                    Value::Integer(i) => out.push(*i),
                    other => {
                        return Err(D::Error::custom(format!(
                            "row {} of an md state: the loads are integers, got {other}",
                            b + 1
                        )));
                    }
                }
            }
            rows.push(out);
        }
        Ok(StateEntry::Md(rows))
    }
}

/// `[domain]` as written; [`Domain`] splits its `states` into load vectors and md states.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDomain {
    #[serde(default)]
    n: Vec<usize>,
    #[serde(default)]
    states: Vec<StateEntry>,
    #[serde(default)]
    max_load: Option<u32>,
    #[serde(default)]
    families: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    exhaustive: Option<Exhaustive>,
    #[serde(default)]
    random: u32,
    #[serde(default)]
    optimise: u32,
    #[serde(default = "default_starts")]
    starts: usize,
    #[serde(default)]
    seed: u64,
    #[serde(default = "default_true")]
    integer: bool,
}

impl TryFrom<RawDomain> for Domain {
    type Error = String;
    fn try_from(r: RawDomain) -> Result<Domain, String> {
        let mut states = Vec::new();
        let mut md_states = Vec::new();
        for e in r.states {
            match e {
                StateEntry::Loads(v) => states.push(v),
                StateEntry::Md(rows) => md_states.push(rows),
            }
        }
        if !states.is_empty() && !md_states.is_empty() {
            return Err(
                "states mixes load vectors (lists of numbers) and md states (lists of rows)".into(),
            );
        }
        // The search budget of one case, before any search (`check --effort` multiplies it,
        // checked again when the search starts).
        let budget = u128::from(r.random) + u128::from(r.optimise) * r.starts as u128;
        crate::limits::SEARCH_STATES
            .check_u128("[domain] random + optimise × starts", budget)
            .map_err(|e| e.to_string())?;
        Ok(Domain {
            n: r.n,
            states,
            md_states,
            max_load: r.max_load,
            families: r.families,
            exhaustive: r.exhaustive,
            random: r.random,
            optimise: r.optimise,
            starts: r.starts,
            seed: r.seed,
            integer: r.integer,
        })
    }
}

/// The state domain and the search budget.
///
/// `states` holds load vectors (lists of numbers) or, for multidimensional claims, md states
/// (lists of rows, one list of integer loads per bin), never both:
///
/// ```
/// use balloc::claim::schema::Domain;
/// let d: Domain = toml::from_str("n = [2]\nstates = [[3, 0], [1, 1]]").unwrap();
/// assert_eq!((d.states.len(), d.md_states.len()), (2, 0));
/// let d: Domain = toml::from_str("states = [[[2, 0], [0, 1]]]\nmax_load = 1").unwrap();
/// assert_eq!((d.states.len(), d.md_states[0][1][1], d.max_load), (0, 1, Some(1)));
/// assert!(toml::from_str::<Domain>("states = [[1, 0], [[1], [0]]]").is_err());
/// assert!(toml::from_str::<Domain>("states = [[[1.5, 0]]]").is_err());
/// ```
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "RawDomain")]
pub struct Domain {
    /// The numbers of bins (may be omitted when `states` gives every load vector).
    pub n: Vec<usize>,
    /// Explicit load vectors, evaluated first (each of a length in `n`; when `n` is omitted, the
    /// lengths of these vectors are the numbers of bins).
    pub states: Vec<Vec<f64>>,
    /// Explicit multidimensional states (`states` written as lists of rows, kind `multidim` with
    /// `expr`): `md_states[k][b][a]` is the load of dimension `a + 1` in bin `b + 1`.
    pub md_states: Vec<Vec<Vec<i64>>>,
    /// Every multidimensional state with loads in `0..=max_load` (kind `multidim` with `expr`).
    pub max_load: Option<u32>,
    /// Adversarial families (default: all of them).
    pub families: Option<Vec<Spanned<String>>>,
    /// Exhaustive enumeration for small n.
    pub exhaustive: Option<Exhaustive>,
    /// Random states (proptest cases) per n, process and constant combination; for kind
    /// `multidim` with `expr`, the states reached by the rule from zero.
    pub random: u32,
    /// Local-optimiser evaluations per start.
    pub optimise: u32,
    /// Optimiser starts (the best states found so far).
    pub starts: usize,
    /// The seed of every random choice.
    pub seed: u64,
    /// Integer loads only (unit balls); families are rounded.
    pub integer: bool,
}

impl Default for Domain {
    /// No numbers of bins, the defaults of every field (a file without `[domain]`: an empty
    /// domain for the kinds that need one).
    fn default() -> Self {
        Domain {
            n: Vec::new(),
            states: Vec::new(),
            md_states: Vec::new(),
            max_load: None,
            families: None,
            exhaustive: None,
            random: 0,
            optimise: 0,
            starts: default_starts(),
            seed: 0,
            integer: true,
        }
    }
}

fn default_domain() -> Spanned<Domain> {
    Spanned::new(0..0, Domain::default())
}

/// A theorem file (the fields common to every kind; the `[claim]` table is read by the kind).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TheoremFile {
    /// A one-line title.
    pub title: String,
    /// The kind of check (`inequality`, `condition`, ...): see [`super::kind::KINDS`].
    pub kind: Spanned<String>,
    /// The expected status.
    pub expected: ExpectedStatus,
    /// The statement in LaTeX (math mode). Required under the theorem directory; a draft
    /// outside it may omit it (then empty).
    #[serde(default)]
    pub statement: String,
    /// Free-text notes (derivations, findings, constants found).
    #[serde(default)]
    pub notes: String,
    /// Where the statement comes from. Required under the theorem directory; a draft outside it
    /// may omit it.
    #[serde(default)]
    pub source: Option<SourceSection>,
    /// The ids of the catalogue's items that the proof of this one uses (`<paper>/<name>`): the
    /// edges of the blueprint's dependency graph. Unknown ids and cycles are errors
    /// ([`crate::claim::uses`]).
    #[serde(default)]
    pub uses: Vec<Spanned<String>>,
    /// Processes, potentials and setting.
    #[serde(default)]
    pub setting: SettingSection,
    /// Named constants: values or grids.
    #[serde(default)]
    pub constants: BTreeMap<String, Spanned<ConstValue>>,
    /// Potentials defined in the file: `Name = "sum(<per-bin expression>)"` (any expression over
    /// the bins) or a registry spec with parameters, e.g. `Phi2 = "phi(alpha = 2*alpha)"`.
    #[serde(default)]
    pub potentials: BTreeMap<String, Spanned<String>>,
    /// Constants the constant finder may tighten, with their direction.
    #[serde(default)]
    pub tighten: BTreeMap<String, Direction>,
    /// Absolute tolerance of the comparison (default 0).
    #[serde(default)]
    pub tolerance: f64,
    /// The claim (its fields depend on the kind).
    pub claim: Spanned<toml::Table>,
    /// The state domain (absent: empty, span `0..0`; kind `real` has none).
    #[serde(default = "default_domain")]
    pub domain: Spanned<Domain>,
    /// The real variables and their ranges (kind `real`): `x = "[-5, 5]"`, `a = "(0, 1]"`,
    /// `n = { range = "[8, inf)", substitute = "u = 1/n" }`.
    #[serde(default)]
    pub vars: BTreeMap<String, Spanned<toml::Value>>,
    /// Recorded results (counterexamples, constants found); not read by the engine.
    #[serde(default)]
    pub record: Option<toml::Table>,
}

/// `paper.toml`: the bibliographic record of a paper folder.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct PaperFile {
    /// The authors.
    pub authors: Vec<String>,
    /// The title.
    pub title: String,
    /// Venue (conference or journal).
    pub venue: String,
    /// Year.
    pub year: u32,
    /// arXiv identifier, if any.
    #[serde(default)]
    pub arxiv: Option<String>,
    /// Free-text notes.
    #[serde(default)]
    pub notes: String,
}

/// A loaded theorem file.
#[derive(Debug, Clone)]
pub struct Theorem {
    /// `<paper>/<name>`.
    pub id: String,
    /// The file path.
    pub path: PathBuf,
    /// The raw text (for positions).
    pub text: String,
    /// The parsed common fields.
    pub file: TheoremFile,
    /// The paper record of the folder (`None` for a scratch file outside the theorem directory
    /// whose folder has no `paper.toml`).
    pub paper: Option<PaperFile>,
}

impl Theorem {
    /// The file name for messages.
    pub fn file_name(&self) -> String {
        self.path.display().to_string()
    }

    /// An error at a byte offset of the file.
    pub fn error_at(&self, offset: Option<usize>, message: impl Into<String>) -> FileError {
        FileError::at(self.file_name(), &self.text, offset, message)
    }

    /// Re-reads the `[claim]` table as the kind's own type `T` (which should deny unknown
    /// fields), with positions.
    pub fn claim_section<T: serde::de::DeserializeOwned>(&self) -> Result<Spanned<T>, FileError> {
        #[derive(Deserialize)]
        #[serde(bound = "T: serde::de::DeserializeOwned")]
        struct Doc<T> {
            claim: Spanned<T>,
        }
        toml::from_str::<Doc<T>>(&self.text)
            .map(|d| d.claim)
            .map_err(|e| FileError::from_toml(&self.file_name(), &self.text, e))
    }

    /// The byte offset of the first occurrence of `needle` as a whole word inside the span
    /// `within` (to point at an identifier inside an expression string).
    pub fn find_in(&self, within: std::ops::Range<usize>, needle: &str) -> Option<usize> {
        let hay = self.text.get(within.clone())?;
        let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
        let mut from = 0;
        while let Some(i) = hay[from..].find(needle) {
            let s = from + i;
            let e = s + needle.len();
            let before = hay[..s].chars().next_back().is_none_or(|c| !is_word(c));
            let after = hay[e..].chars().next().is_none_or(|c| !is_word(c));
            if before && after {
                return Some(within.start + s);
            }
            from = e;
        }
        None
    }
}

/// Parses theorem-file text (no paper record check); `file` names it in errors.
pub fn parse_file(file: &str, text: &str) -> Result<TheoremFile, FileError> {
    let f: TheoremFile = toml::from_str(text).map_err(|e| FileError::from_toml(file, text, e))?;
    // A constant named like a function would be read by `name` and called by `name(...)`.
    for (name, v) in &f.constants {
        if crate::lang::expr::is_function_name(name, true) {
            return Err(FileError::at(
                file,
                text,
                Some(v.span().start),
                format!(
                    "constant `{name}` is named like a function of the language (`{name}(...)`); choose another name"
                ),
            ));
        }
    }
    Ok(f)
}

/// Reads and validates `paper.toml` in `dir`: `Ok(None)` when `required` is false and the folder
/// has no `paper.toml` (a scratch file outside the theorem directory); an error naming the file
/// when it is required and missing, or present and malformed.
pub fn load_paper(dir: &Path, required: bool) -> Result<Option<PaperFile>, FileError> {
    let path = dir.join("paper.toml");
    let name = path.display().to_string();
    if !required && !path.exists() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path).map_err(|e| FileError {
        file: name.clone(),
        line: None,
        column: None,
        message: format!(
            "cannot read the paper record (every paper folder under the theorem directory needs one): {e}"
        ),
    })?;
    toml::from_str(&text)
        .map(Some)
        .map_err(|e| FileError::from_toml(&name, &text, e))
}

/// Loads one theorem file; `root` is the `theorems/` directory that defines its id.
///
/// A file under `root` needs the `paper.toml` of its folder; a file elsewhere (a private draft)
/// does not, and its id is its cleaned path without `.toml` (see [`id_of`]).
pub fn load(path: &Path, root: &Path) -> Result<Theorem, FileError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| FileError {
        file: name.clone(),
        line: None,
        column: None,
        message: format!("cannot read: {e}"),
    })?;
    let file = parse_file(&name, &text)?;
    let id = id_of(path, root);
    let dir = path.parent().unwrap_or(Path::new("."));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let inside = is_under(path, root);
    if inside {
        require_catalogue_fields(&name, &text)?;
    }
    let paper = load_paper(dir, inside)?;
    Ok(Theorem {
        id,
        path: path.to_path_buf(),
        text,
        file,
        paper,
    })
}

/// A file of the theorem directory states its `statement` and `[source]` (a draft outside it
/// needs only `title`, `kind`, `expected` and its claim): a one-line error naming the file and the
/// missing field otherwise.
///
/// ```
/// use balloc::claim::schema::require_catalogue_fields;
/// let draft = "title = \"t\"\nkind = \"inequality\"\nexpected = \"holds\"\n[claim]\nexpr = \"n >= 1\"\n";
/// let e = require_catalogue_fields("theorems/x/y.toml", draft).unwrap_err();
/// assert!(e.to_string().starts_with("theorems/x/y.toml: missing field `statement`"));
/// ```
pub fn require_catalogue_fields(file: &str, text: &str) -> Result<(), FileError> {
    #[derive(Deserialize)]
    struct Present {
        statement: Option<serde::de::IgnoredAny>,
        source: Option<serde::de::IgnoredAny>,
    }
    let p: Present = toml::from_str(text).map_err(|e| FileError::from_toml(file, text, e))?;
    for (field, present) in [
        ("statement", p.statement.is_some()),
        ("source", p.source.is_some()),
    ] {
        if !present {
            let what = if field == "source" { "[source]" } else { field };
            return Err(FileError::at(
                file,
                text,
                None,
                format!(
                    "missing field `{field}`: every file under the theorem directory states its {what} (a draft outside it may leave it out)"
                ),
            ));
        }
    }
    Ok(())
}

/// The path with `.` components dropped and `a/..` pairs removed (lexically, no file access).
fn clean(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                let last_is_normal =
                    matches!(out.components().next_back(), Some(Component::Normal(_)));
                if last_is_normal {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The path of `path` relative to `root`, when `path` lies under it (lexically, or after
/// resolving symbolic links and relative paths).
fn relative_to(path: &Path, root: &Path) -> Option<PathBuf> {
    if let Ok(r) = clean(path).strip_prefix(clean(root)) {
        return Some(r.to_path_buf());
    }
    let (p, r) = (
        std::fs::canonicalize(path).ok()?,
        std::fs::canonicalize(root).ok()?,
    );
    p.strip_prefix(r).ok().map(Path::to_path_buf)
}

/// Whether `path` lies under the theorem directory `root`.
fn is_under(path: &Path, root: &Path) -> bool {
    relative_to(path, root).is_some()
}

/// The id of a file: its path under `root` without `.toml`, with `/` separators
/// (`<paper>/<name>`); for a file outside `root`, its cleaned path without `.toml`
/// (relative to the current directory when it lies below it).
///
/// ```
/// use balloc::claim::schema::id_of;
/// use std::path::Path;
/// let root = Path::new("theorems");
/// assert_eq!(id_of(Path::new("theorems/ptw/a.toml"), root), "ptw/a");
/// assert_eq!(id_of(Path::new("./theorems/ptw/a.toml"), root), "ptw/a");
/// assert_eq!(id_of(Path::new("/tmp/draft/b.toml"), root), "/tmp/draft/b");
/// assert_eq!(id_of(Path::new("drafts/./x/../c.toml"), root), "drafts/c");
/// ```
pub fn id_of(path: &Path, root: &Path) -> String {
    use std::path::Component;
    let rel = match relative_to(path, root) {
        Some(r) => r,
        None => {
            let c = clean(path);
            let cwd = std::env::current_dir().ok().map(|d| clean(&d));
            match cwd.as_ref().and_then(|d| c.strip_prefix(d).ok()) {
                Some(r) if c.is_absolute() && !r.as_os_str().is_empty() => r.to_path_buf(),
                _ => c,
            }
        }
    };
    let rel = rel.with_extension("");
    let mut s = String::new();
    for c in rel.components() {
        match c {
            Component::RootDir => s.push('/'),
            Component::Prefix(p) => s.push_str(&p.as_os_str().to_string_lossy()),
            Component::CurDir => {}
            other => {
                if !s.is_empty() && !s.ends_with('/') {
                    s.push('/');
                }
                s.push_str(&other.as_os_str().to_string_lossy());
            }
        }
    }
    s
}

/// Every theorem file under `root` (recursively; `paper.toml` excluded), sorted. Symbolic links
/// are followed, but every directory is entered once (a link loop is not walked again).
pub fn discover(root: &Path) -> Result<Vec<PathBuf>, FileError> {
    fn walk(
        dir: &Path,
        seen: &mut std::collections::HashSet<PathBuf>,
        out: &mut Vec<PathBuf>,
    ) -> std::io::Result<()> {
        let key = std::fs::canonicalize(dir)?;
        if !seen.insert(key) {
            return Ok(());
        }
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            entries.push(entry?.path());
        }
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, seen, out)?;
            } else if p.extension().is_some_and(|e| e == "toml")
                && p.file_name().is_some_and(|f| f != "paper.toml")
                && p.is_file()
            {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(root, &mut std::collections::HashSet::new(), &mut out).map_err(|e| FileError {
        file: root.display().to_string(),
        line: None,
        column: None,
        message: format!("cannot list theorem files: {e}"),
    })?;
    out.sort();
    // One entry per file, even when links reach it by several paths.
    let mut files = std::collections::HashSet::new();
    out.retain(|p| files.insert(std::fs::canonicalize(p).unwrap_or_else(|_| p.clone())));
    Ok(out)
}

/// Resolves command-line arguments (files, directories or ids under `root`) to theorem files,
/// in the order given (each file once). An argument that names no file, and a selection with no
/// theorem file at all, are errors.
pub fn resolve(args: &[String], root: &Path) -> Result<Vec<PathBuf>, FileError> {
    let empty = |what: &Path| FileError {
        file: what.display().to_string(),
        line: None,
        column: None,
        message: "no theorem files (*.toml other than paper.toml) here".into(),
    };
    if args.is_empty() {
        let out = discover(root)?;
        if out.is_empty() {
            return Err(empty(root));
        }
        return Ok(out);
    }
    let mut out = Vec::new();
    for a in args {
        let p = PathBuf::from(a);
        let found = if p.is_dir() {
            discover(&p)?
        } else if p.is_file() {
            vec![p.clone()]
        } else {
            let by_id = root.join(format!("{a}.toml"));
            let as_dir = root.join(a);
            if by_id.is_file() {
                vec![by_id]
            } else if as_dir.is_dir() {
                discover(&as_dir)?
            } else {
                return Err(FileError {
                    file: a.clone(),
                    line: None,
                    column: None,
                    message: format!(
                        "no such theorem file, directory or id under {}",
                        root.display()
                    ),
                });
            }
        };
        if found.is_empty() {
            return Err(empty(&p));
        }
        out.extend(found);
    }
    let mut files = std::collections::HashSet::new();
    out.retain(|p| files.insert(std::fs::canonicalize(p).unwrap_or_else(|_| p.clone())));
    Ok(out)
}
