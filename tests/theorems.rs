//! Runs every theorem file under `theorems/` and checks the engine on seeded claims.
//!
//! Fast tier: plain `cargo test`. Long tier: `BALLOC_LONG=1 cargo test --test suite theorems::`
//! (ten times the random and optimiser budgets of every file).

use balloc::claim::{self, RunContext, Status, Trust};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

fn effort() -> u32 {
    if std::env::var("BALLOC_LONG").is_ok_and(|v| v == "1") {
        10
    } else {
        1
    }
}

/// The whole catalogue, checked once per run of this test binary: the catalogue test, the
/// blueprint and the report share it (`blueprint.rs`). Proof certificates are written under
/// `target/tmp/catalogue-site/certificates`, where the blueprint's site links them.
pub struct Catalogue {
    /// The theorem files, in the order of `claim::discover`.
    pub theorems: Vec<claim::Theorem>,
    /// Their verdicts, in the same order.
    pub verdicts: Vec<claim::Verdict>,
    /// The folder of the blueprint site (certificates already in `certificates/`).
    pub site: PathBuf,
    /// Per file, for a statistical file's constants with a `[tighten]` direction: the constant,
    /// its value with the bound made twice as strict (halved for `smallest`, doubled for
    /// `largest`) and the verdict at that value, judged on the file's own runs
    /// (`Check::run_alternatives`; empty where the kind or the claim does not offer it).
    /// `statistical_wrong` reads them instead of simulating each halved file again.
    pub halved: Vec<Vec<(String, f64, claim::Verdict)>>,
}

/// The constants of a statistical file with a `[tighten]` direction, each with its value made
/// twice as strict: halved for `smallest`, doubled for `largest`.
fn stricter_constants(t: &claim::Theorem) -> Vec<(String, f64)> {
    if t.file.kind.get_ref() != "statistical" {
        return Vec::new();
    }
    t.file
        .tighten
        .iter()
        .filter_map(|(name, dir)| {
            let claim::schema::ConstValue::One(v) = t.file.constants.get(name)?.get_ref() else {
                return None;
            };
            let v = v.value().ok()?.0;
            Some((
                name.clone(),
                match dir {
                    claim::Direction::Smallest => v / 2.0,
                    claim::Direction::Largest => v * 2.0,
                },
            ))
        })
        .collect()
}

/// Every `.toml` file under `root` except `paper.toml`, by a plain recursive directory walk.
fn toml_files(root: &Path) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().map(Result::unwrap) {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "toml")
                && p.file_name().is_some_and(|f| f != "paper.toml")
            {
                out.insert(p);
            }
        }
    }
    out
}

pub fn catalogue() -> &'static Catalogue {
    static CATALOGUE: std::sync::OnceLock<Catalogue> = std::sync::OnceLock::new();
    CATALOGUE.get_or_init(|| {
        let root = Path::new("theorems");
        let files = claim::discover(root).unwrap();
        // Every theorem file on disk, found by a walk of our own: every `.toml` under
        // `theorems/` but the papers' bibliographic records (`paper.toml`), which
        // `claim::discover` skips by design.
        let on_disk = toml_files(root);
        let found: BTreeSet<PathBuf> = files.iter().cloned().collect();
        assert_eq!(
            found, on_disk,
            "claim::discover and the directory walk disagree"
        );
        assert!(files.len() > 200, "{} theorem files", files.len());
        let site = Path::new(env!("CARGO_TARGET_TMPDIR")).join("catalogue-site");
        let _ = std::fs::remove_dir_all(&site);
        // The files are checked on every core (each verdict depends only on its file, not on
        // the thread or the order), and reported in the order of `files`.
        let next = AtomicUsize::new(0);
        type Checked = (
            claim::Theorem,
            claim::Verdict,
            Vec<(String, f64, claim::Verdict)>,
        );
        let results: Mutex<Vec<Option<Checked>>> = Mutex::new(vec![None; files.len()]);
        let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
        std::thread::scope(|sc| {
            for _ in 0..jobs.min(files.len()) {
                sc.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        let Some(f) = files.get(i) else { break };
                        let mut ctx = RunContext {
                            effort: effort(),
                            regressions: Some(PathBuf::from("proptest-regressions/theorems")),
                            certificates: Some(site.join("certificates")),
                            ..RunContext::default()
                        };
                        let (t, c) = claim::prepare(f, root)
                            .unwrap_or_else(|e| panic!("{}: {e:#}", f.display()));
                        // A statistical file is judged at its stricter constants on the same
                        // runs; where that is not offered, it runs as written only.
                        let stricter = stricter_constants(&t);
                        let sets: Vec<Vec<(String, f64)>> =
                            stricter.iter().map(|a| vec![a.clone()]).collect();
                        let alternatives = if sets.is_empty() {
                            None
                        } else {
                            c.run_alternatives(&mut ctx, &sets).ok()
                        };
                        let (v, halved) = match alternatives {
                            Some((v, others)) => (
                                v,
                                stricter
                                    .into_iter()
                                    .zip(others)
                                    .map(|((name, value), o)| (name, value, o))
                                    .collect(),
                            ),
                            None => (
                                c.run(&mut ctx)
                                    .unwrap_or_else(|e| panic!("{}: {e:#}", f.display())),
                                Vec::new(),
                            ),
                        };
                        results.lock().unwrap()[i] = Some((t, v, halved));
                    }
                });
            }
        });
        let mut theorems = Vec::new();
        let mut verdicts = Vec::new();
        let mut halved = Vec::new();
        for r in results.into_inner().unwrap() {
            let (t, v, h) = r.expect("every file was checked");
            theorems.push(t);
            verdicts.push(v);
            halved.push(h);
        }
        // One verdict per file on disk, for the file itself.
        assert_eq!(verdicts.len(), on_disk.len());
        let checked: BTreeSet<PathBuf> = theorems.iter().map(|t| t.path.clone()).collect();
        assert_eq!(
            checked, on_disk,
            "the checked files are not the files on disk"
        );
        Catalogue {
            theorems,
            verdicts,
            site,
            halved,
        }
    })
}

#[path = "theorems/blueprint.rs"]
mod blueprint;
#[path = "theorems/cdp.rs"]
mod cdp;
#[path = "theorems/drafting.rs"]
mod drafting;

#[test]
fn every_theorem_file_meets_its_expected_status() {
    let cat = catalogue();
    // The `uses` of the catalogue name existing files and form no cycle.
    let all: Vec<&claim::Theorem> = cat.theorems.iter().collect();
    claim::uses::validate(&all, Path::new("theorems")).unwrap();
    let edges: usize = all.iter().map(|t| t.file.uses.len()).sum();
    assert!(edges >= 100, "{edges} uses edges");
    // Each paper's main theorem has its proof outline.
    for main in [
        "ptw/base-lemma-original",
        "batched-2022/gap-b-over-n-log-n",
        "mean-biased-2023/main-theorem",
        "graphical-2022/main-theorem-gap",
        "multidim-2011/gap-whp",
    ] {
        let t = all.iter().find(|t| t.id == main).unwrap();
        assert!(!t.file.uses.is_empty(), "{main} has no uses");
    }
    let mut bad = Vec::new();
    // Policy (`docs/conventions.md` §3): a refuted verdict of the multidimensional paper rests on exact
    // rationals or enclosures, never on float alone.
    let mut float_refuted = Vec::new();
    for v in &cat.verdicts {
        eprintln!(
            "{:<45} {:<12} expected {:<8} trust {}",
            v.id,
            v.verdict.name(),
            v.expected.name(),
            v.trust.name()
        );
        if v.id.starts_with("multidim-2011/")
            && v.verdict == Status::Refuted
            && v.trust == Trust::Float
        {
            float_refuted.push(v.id.clone());
        }
        if v.contradicts() {
            bad.push(format!(
                "{}: {} (expected {}) {:?}",
                v.id,
                v.verdict.name(),
                v.expected.name(),
                v.witness
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "verdicts contradicting their files: {bad:#?}"
    );
    assert!(
        float_refuted.is_empty(),
        "refuted at trust float: {float_refuted:?}"
    );
}

use crate::common;
use common::write;

fn scratch(name: &str) -> PathBuf {
    common::scratch_in("theorems", name)
}

const HEAD: &str = crate::common::head!("inequality");

fn run(root: &Path, p: &Path) -> claim::Verdict {
    claim::check(p, root, &mut RunContext::default()).unwrap()
}

#[test]
fn gamma_drift_without_additive_constant_is_refuted_at_the_all_equal_vector() {
    let root = scratch("gamma");
    let p = write(
        &root,
        "no-c",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[constants]\nalpha = 0.1\ndelta = \"1/2\"\n\
             [claim]\nexpr = \"E_Gamma <= Gamma * (1 - eps1(delta) * delta * alpha / (8 * n))\"\n\
             [domain]\nn = [4, 8]\nrandom = 20\noptimise = 20\n"
        ),
    );
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Refuted);
    let w = v.witness.unwrap();
    assert_eq!(w.n, 4);
    // Shrunk to the all-equal vector (translated to 0).
    assert_eq!(w.loads, vec![0.0; 4]);
    // Hand value at y = 0 (Σ pᵢ = 1): E[Γ'] = n(e^{−α/n} + e^{α/n}) + (e^α − 1)e^{−α/n} + (e^{−α} − 1)e^{α/n};
    // right side 2n(1 − εδα/(8n)) with ε = 1/2 (Two-Choice's best ε at δ = 1/2), δ = 1/2.
    let (n, a) = (4.0f64, 0.1f64);
    let lhs = n * ((-a / n).exp() + (a / n).exp())
        + (a.exp() - 1.0) * (-a / n).exp()
        + ((-a).exp() - 1.0) * (a / n).exp();
    let rhs = 2.0 * n * (1.0 - 0.5 * 0.5 * a / (8.0 * n));
    let got: f64 = w.lhs.parse().unwrap();
    assert!((got - lhs).abs() < 1e-12, "{got} vs {lhs}");
    assert!((w.rhs.parse::<f64>().unwrap() - rhs).abs() < 1e-12);
    assert!((v.slack.unwrap() - (rhs - lhs)).abs() < 1e-12);
    // Exponential potential, unit balls: both sides are exact exponential sums (rational
    // coefficients and exponents), so their difference is reduced exactly; it is not zero, so by
    // Lindemann–Weierstrass its sign is decided by enclosures (trust enclosure). The right side
    // is rational: 2n(1 − εδα/(8n)) = 8·(1 − 1/1280) = 1279/160 exactly.
    assert_eq!(v.trust, Trust::Enclosure);
    let prec = v.searched.precision_bits.expect("precision recorded");
    assert!((64..=4096).contains(&prec));
    let text = w.recheck.unwrap();
    assert!(
        text.contains("exponential sums") && text.contains("rhs = 1279/160"),
        "{text}"
    );
}

#[test]
fn near_tie_exponential_claim_is_decided_by_enclosures() {
    let root = scratch("near-tie");
    // Γ(1 − 10⁻¹⁵) < Γ holds at every state (Γ > 0); its relative slack 10⁻¹⁵ is far below the
    // float resolution (10⁻¹¹ relative), so f64 alone cannot decide it.
    let p = write(
        &root,
        "holds",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[constants]\nalpha = 0.1\n\
             [claim]\nexpr = \"Gamma * (1 - 1e-15) < Gamma\"\n[domain]\nn = [4]\nrandom = 5\noptimise = 5\n"
        ),
    );
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert!(
        v.notes
            .iter()
            .any(|n| n.contains("below the numerical resolution")),
        "{:?}",
        v.notes
    );
    // The claim is a sum of exponentials: the exponential-sum route decides it. At an all-equal
    // state Γ = 2n is rational (every exponent is 0), so the comparison is exact there; at any
    // other state the difference 10⁻¹⁵Γ is a non-zero exponential sum whose sign comes from an
    // enclosure. Every state is within the float resolution, so every evaluated state is
    // certified, and the verdict's trust is the weakest of them: the search evaluates states
    // with unequal loads (the families, random vectors), so it is `enclosure`.
    let w = v.witness.clone().unwrap();
    let certified = v
        .notes
        .iter()
        .find_map(|n| n.split_once(" evaluated state(s) certified"))
        .map(|(counts, _)| counts.split(" of ").map(str::to_string).collect::<Vec<_>>())
        .unwrap_or_else(|| panic!("no count of certified states: {:?}", v.notes));
    assert_eq!(certified[0], certified[1], "{:?}", v.notes);
    assert_eq!(v.trust, Trust::Enclosure, "{:?}", v.notes);
    if w.loads.iter().all(|x| *x == w.loads[0]) {
        // The spot itself is decided exactly (Γ = 8 at n = 4).
        assert!(
            w.recheck.as_deref().unwrap().contains("exact rationals"),
            "{w:?}"
        );
    } else {
        assert!(v.searched.precision_bits.is_some());
    }
    // The mirror claim Γ(1 + 10⁻¹⁵) ≤ Γ fails at every state; refuted at trust enclosure.
    let p = write(
        &root,
        "fails",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[constants]\nalpha = 0.1\n\
             [claim]\nexpr = \"E_Gamma * (1 + 1e-15) <= E_Gamma\"\n[domain]\nn = [4]\nrandom = 5\noptimise = 5\n"
        ),
    );
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert_eq!(v.trust, Trust::Enclosure);
}

/// States no certified domain reaches (loads 10¹² under Φ at α = 1: e^x far beyond the enclosure
/// range) are evidence only when the floats hold there within their resolution, and leave the
/// verdict inconclusive when the floats fail there; the engine's policy, the same in every
/// setting (`claim::engine::sweep`).
#[test]
fn states_no_certified_domain_reaches_are_evidence_only_and_never_decide() {
    let root = scratch("unreached");
    let file = |name: &str, expr: &str, families: &str| {
        write(
            &root,
            name,
            &format!(
                "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[constants]\nalpha = 1\n\
                 [claim]\nexpr = \"{expr}\"\n[domain]\nn = [4]\nfamilies = [{families}]\n\
                 random = 0\noptimise = 0\n"
            ),
        )
    };
    // Φ(1 − 10⁻¹⁵) < Φ holds everywhere (Φ > 0) with a relative slack below the float
    // resolution: at the small states of `one-heavy` the exponential-sum route decides it (by
    // enclosures), at the states of `huge` nothing certified reaches e^(10¹²).
    let v = run(
        &root,
        &file(
            "holds",
            "Phi * (1 - 1e-15) < Phi",
            "\"one-heavy\", \"huge\"",
        ),
    );
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert_eq!(v.trust, Trust::Enclosure, "{:?}", v.notes);
    let unreached = v
        .notes
        .iter()
        .find(|n| n.contains("where no certified domain reaches"))
        .unwrap_or_else(|| panic!("no note on the unreached states: {:?}", v.notes));
    assert!(unreached.contains("enclosure"), "{unreached}");
    // The witness is the tightest state the certified domains decide, not a huge one.
    let w = v.witness.unwrap();
    assert!(w.loads.iter().all(|x| *x < 1e6), "{w:?}");
    // The mirror Φ(1 + 10⁻¹⁵) <= Φ at the one listed state (10¹², 0, 0, 0) (no family, no
    // random state): the floats fail within their resolution and nothing certified decides, so
    // the verdict is inconclusive (never refuted on rounding, never holds).
    let v = run(
        &root,
        &file(
            "fails",
            "Phi * (1 + 1e-15) <= Phi",
            "]\nstates = [[1e12, 0, 0, 0]",
        ),
    );
    assert_eq!(v.verdict, Status::Inconclusive, "{:?}", v.notes);
    assert!(
        v.notes.iter().any(|n| n.contains("enclosure arithmetic")),
        "{:?}",
        v.notes
    );
}

#[test]
fn near_tie_claims_with_ln_and_sqrt_are_decided_by_enclosures() {
    let root = scratch("near-tie-ln");
    // ln Γ > 0 (Γ ≥ 2n = 8 at n = 4), so ln(Γ)(1 − 10⁻¹⁵) < ln Γ holds at every state, with a
    // relative slack far below the float resolution; likewise for √E[Γ'].
    for (name, expr, want) in [
        (
            "ln-holds",
            "ln(Gamma) * (1 - 1e-15) < ln(Gamma)",
            Status::Holds,
        ),
        (
            "sqrt-holds",
            "sqrt(E_Gamma) * (1 - 1e-15) < sqrt(E_Gamma)",
            Status::Holds,
        ),
        (
            "ln-fails",
            "ln(E_Gamma) * (1 + 1e-15) <= ln(E_Gamma)",
            Status::Refuted,
        ),
    ] {
        let p = write(
            &root,
            name,
            &format!(
                "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[constants]\nalpha = 0.1\n\
                 [claim]\nexpr = \"{expr}\"\n[domain]\nn = [4]\nrandom = 5\noptimise = 5\n"
            ),
        );
        let v = run(&root, &p);
        assert_eq!(v.verdict, want, "{name}: {:?}", v.notes);
        assert_eq!(v.trust, Trust::Enclosure, "{name}: {:?}", v.notes);
        assert!(v.searched.precision_bits.is_some(), "{name}");
    }
}

#[test]
fn load_dependent_quadratic_claim_is_refuted_exactly() {
    let root = scratch("mean-thinning");
    // Mean-Thinning at y = 0 (n = 2): θ = 1/2 of the bins are at or above the mean... the claim
    // dE_Upsilon <= 0 fails at the all-equal vector for any process: with y = 0 every ball
    // gives Υ' = (1 − 1/n)² + (n − 1)/n² = 1 − 1/n, so E[ΔΥ] = 1/2 at n = 2 (hand value).
    let p = write(
        &root,
        "mt",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"mean-thinning\"]\n[claim]\nexpr = \"dE_Upsilon <= 0\"\n[domain]\nn = [2, 4]\nrandom = 5\noptimise = 5\n"
        ),
    );
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert_eq!(v.trust, Trust::Exact, "{:?}", v.notes);
    let w = v.witness.unwrap();
    let text = w.recheck.unwrap();
    assert!(text.contains("exact rationals"), "{text}");
}

#[test]
fn quadratic_claims_are_decided_exactly() {
    let root = scratch("quadratic");
    // False: One-Choice increases Υ by exactly 1 − 1/n in expectation (Σ yᵢ = 0), so ≤ 0 fails
    // everywhere; the smallest counterexample is n = 2, y = 0, with E[ΔΥ] = 1/2.
    let p = write(
        &root,
        "false",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"one-choice\"]\n[claim]\nexpr = \"dE_Upsilon <= 0\"\n[domain]\nn = [2, 5]\nexhaustive = {{ max_n = 5, max_load = 3 }}\n"
        ),
    );
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Refuted);
    assert_eq!(v.trust, Trust::Exact);
    let w = v.witness.unwrap();
    assert_eq!((w.n, w.loads.clone()), (2, vec![0.0, 0.0]));
    assert!(w.recheck.unwrap().contains("lhs = 1/2"));
    // True and tight at y = 0 (derivation in theorems/batched-2022/quadratic-drift-two-choice).
    let p = write(
        &root,
        "true",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[claim]\nexpr = \"dE_Upsilon <= 1 - 1/n\"\n[domain]\nn = [2, 5]\nexhaustive = {{ max_n = 5, max_load = 3 }}\nrandom = 10\n"
        ),
    );
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert!(
        v.notes.iter().any(|n| n.contains("slack = 0")),
        "{:?}",
        v.notes
    );
}

#[test]
fn vector_quantifier_includes_the_extremal_vector() {
    let root = scratch("vectors");
    // q of eq. (3.2) at δ = 1/2, ε = 1/4 has max entry (1 + ε̃)/n with ε̃ = εδ/(1 − δ) = 1/4,
    // so C* = 5/4 and "C2 <= 6/5" is refuted exactly, while "C2 <= 2" holds (C2(2) is imposed).
    let text = |rhs: &str| {
        format!(
            "{HEAD}[setting]\nvectors = {{ delta = \"1/2\", eps = \"1/4\", c2 = 2, random = 3 }}\n[claim]\nexpr = \"C2 <= {rhs}\"\n[domain]\nn = [4, 8]\n"
        )
    };
    let v = run(&root, &write(&root, "c2-false", &text("6/5")));
    assert_eq!(v.verdict, Status::Refuted);
    assert_eq!(v.trust, Trust::Exact);
    assert!(v.witness.unwrap().source.starts_with("q("));
    let v = run(&root, &write(&root, "c2-true", &text("2")));
    assert_eq!(v.verdict, Status::Holds);
    assert_eq!(v.trust, Trust::Exact);
}

/// `[setting.vectors]` with δ and ε naming constants: one file ranges over C1(δ, ε) for every
/// (δ, ε) of the grid. Every C1 vector has max pᵢ at least the mean of its light suffix,
/// (1 + ε̃)/n with ε̃ = εδ/(1 − δ) (the suffix condition of C1), and q attains it, so
/// C2 ≥ 1 + εδ/(1 − δ) holds at every grid point (exact) and the strict version is refuted at q of
/// the grid point the witness names.
#[test]
fn vector_quantifier_reads_delta_and_eps_from_the_constants() {
    let root = scratch("vectors-grid");
    let text = |op: &str, vd: &str| {
        format!(
            "{HEAD}[setting]\nvectors = {{ delta = \"{vd}\", eps = \"eps\", c2 = 1000, random = 2 }}\n\
             [constants]\ndelta = [\"1/2\", \"3/4\"]\neps = [\"1/4\", \"1/2\"]\n\
             [claim]\nexpr = \"C2 {op} 1 + eps*delta/(1 - delta)\"\n[domain]\nn = [4, 8]\n"
        )
    };
    let v = run(&root, &write(&root, "grid-holds", &text(">=", "delta")));
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert_eq!(v.trust, Trust::Exact);
    assert_eq!(v.searched.constant_combinations, 4);
    let v = run(&root, &write(&root, "grid-strict", &text(">", "delta")));
    assert_eq!(v.verdict, Status::Refuted);
    let w = v.witness.unwrap();
    let (d, e) = (&w.constants_text["delta"], &w.constants_text["eps"]);
    assert_eq!(
        w.source,
        format!("q(delta={d},eps={e})"),
        "{:?}",
        w.constants_text
    );
    // With δ fixed at 1/2 in the quantifier while the claim reads the grid's δ, the vectors at
    // δ = 3/4 are not there: C2 of q(1/2, ε) is 1 + ε < 1 + 3ε, refuted at δ = 3/4.
    let v = run(&root, &write(&root, "grid-fixed", &text(">=", "1/2")));
    assert_eq!(v.verdict, Status::Refuted);
    assert_eq!(v.witness.unwrap().constants_text["delta"], "3/4");
    // A constant outside (0, 1) is refused where the vectors are built, naming the section.
    let bad = text(">=", "delta").replace("[\"1/2\", \"3/4\"]", "[\"1/2\", \"1\"]");
    let e = err_of("grid-bad", &bad);
    assert!(
        e.contains("[setting.vectors]") && e.contains("delta = 1"),
        "{e}"
    );
    // The evaluator of a fragment takes the first grid point: q(1/2, 1/4) has n·max q = 1 + 1/4.
    let frag = "[setting]\nvectors = { delta = \"delta\", eps = \"eps\", c2 = 1000 }\n\
                [constants]\ndelta = [\"1/2\", \"3/4\"]\neps = [\"1/4\", \"1/2\"]\n";
    let ev = claim::Evaluator::new(frag, "C2", 4).unwrap();
    assert_eq!(
        ev.exact(&[1.0, 0.0, 0.0, 0.0]).unwrap(),
        Some(balloc::exact::Q::new(5.into(), 4.into()))
    );
}

#[test]
fn constant_finder_matches_the_hand_value_at_the_all_equal_vector() {
    let root = Path::new("theorems");
    let (_, c) = claim::prepare(&root.join("ptw/gamma-drift-two-choice.toml"), root).unwrap();
    let r = c
        .tighten("c", Some(&[4]), &mut RunContext::default())
        .unwrap();
    // At y = 0 (where the file's search pins c): c*(n) = (E[Γ'] − 2n + εδα/4)/(εα).
    let (n, a, e, d) = (4.0f64, 0.1f64, 0.5, 0.5);
    let eg = n * ((-a / n).exp() + (a / n).exp())
        + (a.exp() - 1.0) * (-a / n).exp()
        + ((-a).exp() - 1.0) * (a / n).exp();
    let hand = (eg - 2.0 * n + e * d * a / 4.0) / (e * a);
    assert!(
        (r.per_n[0].value - hand).abs() < 1e-5 * hand,
        "{} vs {hand}",
        r.per_n[0].value
    );
}

fn err_of(name: &str, body: &str) -> String {
    common::build_error("theorems-bad", name, body)
}

#[test]
fn malformed_files_name_file_line_and_column() {
    let ok_rest = "[setting]\nprocesses = [\"two-choice\"]\n[claim]\nexpr = \"dE_Upsilon <= 1\"\n[domain]\nn = [4]\nrandom = 4\n";
    // Bad TOML: the unterminated string is on line 9 of the file.
    let e = err_of("syntax", &format!("{HEAD}[claim]\nexpr = \"E_Gamma <= \n"));
    assert!(e.contains("t/syntax.toml:9:"), "{e}");
    // Unknown field at the top level (line 8, column 1).
    let e = err_of("field", &format!("{HEAD}colour = 1\n{ok_rest}"));
    assert!(
        e.contains("t/field.toml:8:1:") && e.contains("colour"),
        "{e}"
    );
    // Unknown field in the kind's [claim] table.
    let e = err_of(
        "claimfield",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[claim]\nexpr = \"dE_Upsilon <= 1\"\nexpresion = 2\n[domain]\nn = [4]\nrandom = 4\n"
        ),
    );
    assert!(
        e.contains("t/claimfield.toml:") && e.contains("expresion"),
        "{e}"
    );
    // Unknown variable: points at the identifier (line 11, column of `Gama`).
    let e = err_of(
        "var",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[claim]\nexpr = \"E_Gamma <= Gama\"\n[constants]\nalpha = 0.1\n[domain]\nn = [4]\nrandom = 4\n"
        ),
    );
    assert!(
        e.contains("t/var.toml:11:20:")
            && e.contains("unknown name `Gama`")
            && e.contains("did you mean `Gamma`"),
        "{e}"
    );
    // Unknown function.
    let e = err_of(
        "fun",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[claim]\nexpr = \"Upsilon <= tanh(n)\"\n[domain]\nn = [4]\nrandom = 4\n"
        ),
    );
    assert!(
        e.contains("t/fun.toml:11:20:") && e.contains("unknown function `tanh`"),
        "{e}"
    );
    // Not a comparison.
    let e = err_of(
        "cmp",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[claim]\nexpr = \"Upsilon + 1\"\n[domain]\nn = [4]\nrandom = 4\n"
        ),
    );
    assert!(
        e.contains("t/cmp.toml:11:") && e.contains("comparison"),
        "{e}"
    );
    // Empty domain (no n), and no states at all.
    let e = err_of(
        "empty",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[claim]\nexpr = \"Upsilon <= 1\"\n[domain]\nn = []\n"
        ),
    );
    assert!(
        e.contains("t/empty.toml:12:1:") && e.contains("empty domain"),
        "{e}"
    );
    let e = err_of(
        "nostates",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[claim]\nexpr = \"Upsilon <= 1\"\n[domain]\nn = [4]\nfamilies = []\n"
        ),
    );
    assert!(
        e.contains("t/nostates.toml:12:1:") && e.contains("empty domain"),
        "{e}"
    );
    // Unknown kind, unknown process, δn not an integer.
    let e = err_of(
        "kind",
        &HEAD.replace("inequality", "flow").replace(
            "provenance = \"derived\"\n",
            &format!("provenance = \"derived\"\n{ok_rest}"),
        ),
    );
    assert!(
        e.contains("t/kind.toml:2:8:") && e.contains("unknown kind `flow`"),
        "{e}"
    );
    let e = err_of(
        "proc",
        &ok_rest
            .replace("two-choice", "three-choice")
            .replace("[setting]", &format!("{HEAD}[setting]")),
    );
    assert!(
        e.contains("t/proc.toml:9:") && e.contains("unknown process"),
        "{e}"
    );
    let e = err_of(
        "quantile",
        &ok_rest
            .replace("two-choice", "quantile(delta=0.25)")
            .replace("[setting]", &format!("{HEAD}[setting]"))
            .replace("n = [4]", "n = [6]"),
    );
    assert!(e.contains("t/quantile.toml:") && e.contains("n = 6"), "{e}");
    // Missing paper record.
    let root = scratch("nopaper");
    std::fs::remove_file(root.join("t/paper.toml")).unwrap();
    let p = write(&root, "x", &format!("{HEAD}{ok_rest}"));
    let e = claim::prepare(&p, &root).err().unwrap().to_string();
    assert!(e.contains("paper.toml"), "{e}");
}

#[test]
fn mean_bias_identities_are_settled_exactly() {
    let root = scratch("mean-bias");
    // Mean-Thinning: E[ΔΥ] = −Δ/n + 1 − 1/n (derived in theorems/mean-biased-2023/
    // upsilon-identity-mean-thinning). Shifting the right side by 1/1000 must be refuted exactly at
    // the first state searched, n = 2, y = 0: lhs = 1/2, rhs = 1/2 + 1/1000.
    let text = |rhs: &str| {
        format!(
            "{HEAD}[setting]\nprocesses = [\"mean-thinning(boundary=under)\"]\n[claim]\nexpr = \"dE_Upsilon == {rhs}\"\n[domain]\nn = [2, 3]\nexhaustive = {{ max_n = 3, max_load = 3 }}\nrandom = 4\noptimise = 4\n"
        )
    };
    let v = run(
        &root,
        &write(&root, "shifted", &text("-Delta / n + 1 - 1 / n + 1/1000")),
    );
    assert_eq!(v.verdict, Status::Refuted);
    assert_eq!(v.trust, Trust::Exact);
    let w = v.witness.unwrap();
    assert_eq!((w.n, w.loads.clone()), (2, vec![0.0, 0.0]));
    assert!(w.recheck.unwrap().contains("rhs = 501/1000"));
    let v = run(
        &root,
        &write(&root, "identity", &text("-Delta / n + 1 - 1 / n")),
    );
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert!(
        v.notes.iter().any(|n| n.contains("exact rationals")),
        "{:?}",
        v.notes
    );
}

#[test]
fn mean_bias_quantities_need_their_constant_and_a_process() {
    let e = err_of(
        "nok",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"mean-thinning\"]\n[claim]\nexpr = \"mb_prob >= 0\"\n[domain]\nn = [4]\nrandom = 4\n"
        ),
    );
    assert!(
        e.contains("t/nok.toml:") && e.contains("constant `k`"),
        "{e}"
    );
    let e = err_of(
        "noproc",
        &format!("{HEAD}[claim]\nexpr = \"delta_minus >= 0\"\n[domain]\nn = [4]\nrandom = 4\n"),
    );
    assert!(
        e.contains("t/noproc.toml:") && e.contains("processes"),
        "{e}"
    );
    // Probability bias is for one ball per step: Twinning is an error at the first state, not a verdict.
    let root = scratch("mb-shape");
    let p = write(
        &root,
        "tw",
        &format!(
            "{HEAD}[setting]\nprocesses = [\"twinning\"]\n[constants]\nk = 1\n[claim]\nexpr = \"mb_prob >= 0\"\n[domain]\nn = [2]\nrandom = 2\n"
        ),
    );
    let e = claim::check(&p, &root, &mut RunContext::default())
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("one ball per step"), "{e}");
}

#[test]
fn weighted_drift_outside_the_mgf_domain_is_an_error() {
    // Exp(1) has M(s) = 1/(1 − s), finite only for s < 1. The one-step expectation of Φ evaluates
    // M(α(1 − 1/n)); with α = 2 and n = 4 that is M(1.5): outside the domain, so the check must fail
    // with an error naming the weight law, never return a verdict.
    let root = scratch("mgf");
    let body = |alpha: &str| {
        format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\nweights = \"exp\"\n[constants]\nalpha = {alpha}\n\
             [claim]\nexpr = \"E_Gamma <= 10 * Gamma\"\n[domain]\nn = [4]\nrandom = 2\noptimise = 2\ninteger = false\n"
        )
    };
    let p = write(&root, "outside", &body("2"));
    let e =
        claim::check(&p, &root, &mut RunContext::default()).expect_err("outside the MGF domain");
    let msg = format!("{e:#}");
    assert!(msg.contains("exp") || msg.contains("xponential"), "{msg}");
    // Inside the domain (α(1 − 1/n) = 0.375 < 1) the same claim gets a verdict.
    let p = write(&root, "inside", &body("0.5"));
    let v = claim::check(&p, &root, &mut RunContext::default()).unwrap();
    assert_eq!(v.verdict, Status::Holds);
}

#[test]
fn first_order_terms_match_a_hand_computation_and_can_fail() {
    // n = 2, Two-Choice p = (1/4, 3/4) by rank, loads (1, 0): y = (1/2, −1/2), α = 1.
    // F_Phi = α Σ Φᵢ(pᵢ − 1/n) = e^{1/2}(−1/4) + e^{−1/2}(1/4) = −(1/2) sinh(1/2).
    // F_Psi = α Σ Ψᵢ(1/n − pᵢ) = e^{−1/2}(1/4) + e^{1/2}(−1/4) = −(1/2) sinh(1/2).
    let root = scratch("first-order");
    let s = -0.5 * 0.5f64.sinh();
    let claim = |expr: &str| {
        format!(
            "{HEAD}[setting]\nprocesses = [\"two-choice\"]\n[constants]\nalpha = 1\n[claim]\nexpr = \"{expr}\"\n\
             [domain]\nn = [2]\nfamilies = [\"one-heavy\"]\nexhaustive = {{ max_n = 2, max_load = 1 }}\nrandom = 0\noptimise = 0\n"
        )
    };
    // A claim that is false at (1, 0): F_Gamma >= 0 (F_Gamma = −sinh(1/2) there).
    let v = run(&root, &write(&root, "fg", &claim("F_Gamma >= 0")));
    assert_eq!(v.verdict, Status::Refuted);
    let w = v.witness.unwrap();
    assert_eq!(w.loads, vec![1.0, 0.0]);
    let got: f64 = w.lhs.parse().unwrap();
    assert!((got - 2.0 * s).abs() < 1e-15, "{got} vs {}", 2.0 * s);
    // The two halves separately.
    for (q, _) in [("F_Phi", s), ("F_Psi", s)] {
        let v = run(&root, &write(&root, q, &claim(&format!("{q} >= 0"))));
        assert_eq!(v.verdict, Status::Refuted, "{q}");
        let got: f64 = v.witness.unwrap().lhs.parse().unwrap();
        assert!((got - s).abs() < 1e-15, "{q}: {got} vs {s}");
    }
    // Fq_ without the vector quantifier is a file error.
    let e = err_of("fq", &claim("Fq_Phi <= 0"));
    assert!(e.contains("vectors"), "{e}");
    // The reversed extremal-vector claim is refuted (q strictly beats a larger-bias step vector).
    let text = format!(
        "{HEAD}[setting]\nvectors = {{ delta = \"1/2\", eps = \"1/4\", c2 = 2, random = 2 }}\n[constants]\nalpha = 1\n\
         [claim]\nexpr = \"Fq_Phi <= F_Phi\"\n[domain]\nn = [4]\ninteger = false\nrandom = 4\noptimise = 10\n"
    );
    let v = run(&root, &write(&root, "rev", &text));
    assert_eq!(v.verdict, Status::Refuted);
}

const MD_HEAD: &str = crate::common::head!("multidim");

#[test]
fn multidim_corollary_1_is_refuted_at_the_all_zero_state_with_the_hand_values() {
    let root = scratch("md-cor1");
    let p = write(
        &root,
        "cor1",
        &format!(
            "{MD_HEAD}[constants]\neps = \"1/8\"\n[potentials]\nPhi = \"sum(exp(eps/(2*f)*y)/rank)\"\n\
             [claim]\nexpr = \"E_Phi <= (1 + (eps/2)^2/n)*Phi\"\nball = \"uniform(dims=1,f=1)\"\n\
             rules = [\"sum two-choice\"]\nsum_chain = \"fixed-f\"\n\
             [domain]\nn = [8]\nexhaustive = {{ max_n = 3, max_load = 2 }}\nrandom = 4\nseed = 1\n"
        ),
    );
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Refuted);
    let w = v.witness.unwrap();
    assert_eq!((w.n, w.loads.clone()), (2, vec![0.0, 0.0]));
    // Hand computation (n = 2, α = 1/16, Two-Choice p = (1/4, 3/4)): Φ(0, 0) = 1 + 1/2; either bin
    // becomes the unique heaviest: E[Φ'] = e^{1/32} + e^{−1/32}/2; RHS = (1 + (1/16)²/2)·3/2.
    let lhs = (1.0f64 / 32.0).exp() + (-1.0f64 / 32.0).exp() / 2.0;
    // The right side is rational: (1 + 1/512)·3/2 = 513·3/1024 = 1539/1024, shown exactly.
    let (l, r) = w.rhs.split_once(" <= ").unwrap();
    let got_l: f64 = l.parse().unwrap();
    assert!((got_l - lhs).abs() < 1e-9 && r == "1539/1024", "{w:?}");
    // Decided by enclosures (the expectation over the md outcomes, enclosed exponentials).
    assert_eq!(v.trust, Trust::Enclosure);
}

#[test]
fn multidim_rejects_items_and_bad_chains() {
    let e = err_of(
        "md-item",
        &format!("{MD_HEAD}[claim]\nitem = \"lemma-9\"\n[domain]\nn = [8]\n"),
    );
    assert!(
        e.contains("t/md-item.toml:")
            && e.contains(
                "[claim] item: the multidim kind has no item list; state the claim with `expr`"
            ),
        "{e}"
    );
    let claim = |extra: &str, domain: &str| {
        format!(
            "{MD_HEAD}[claim]\nexpr = \"n >= 2\"\nball = \"uniform(dims=2,f=1)\"\nrules = [\"sum two-choice\"]\n{extra}[domain]\n{domain}"
        )
    };
    let e = err_of(
        "md-chain",
        &claim("sum_chain = \"reachable\"\n", "n = [8]\n"),
    );
    assert!(
        e.contains("sum_chain: unknown `reachable`; accepted: fixed-f, integer"),
        "{e}"
    );
    let e = err_of(
        "md-exh",
        &claim("", "n = [8]\nexhaustive = { max_n = 3, max_load = 2 }\n"),
    );
    assert!(
        e.contains("[domain] exhaustive: only with `sum_chain`"),
        "{e}"
    );
    let e = err_of(
        "md-binomial",
        &claim("sum_chain = \"fixed-f\"\n", "n = [8]\n")
            .replace("uniform(dims=2,f=1)", "binomial(dims=2,q=1/2)"),
    );
    assert!(
        e.contains("the sum-load chain needs balls of fixed f"),
        "{e}"
    );
}

const GRAPH_HEAD: &str = crate::common::head!("graph");

#[test]
fn graph_kind_refutes_bound_10_at_the_hand_checked_cycle_state() {
    let root = scratch("graph-b10");
    let body = |four: &str| {
        format!(
            "{GRAPH_HEAD}[claim]\nover = \"internal\"\ngiven = \"QL != 0\"\n\
             expr = \"abs(eps_t) >= betak*n/({four}*m*size)\"\ngraphs = [\"cycle(8)\"]\n\
             loads = [[4, 4, 4, 4, 2, 2, 0, 1]]\n[domain]\nn = [8]\n"
        )
    };
    let p = write(&root, "b10", &body("2"));
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Refuted);
    assert_eq!(v.trust, Trust::Exact);
    let w = v.witness.unwrap();
    assert_eq!(w.n, 8);
    assert!(w.source.starts_with("cycle(8)"), "{}", w.source);
    // The first violation is at the listed loads. Hand value (C_8, βk = 4/9, m = 8): at
    // S_i = {4..7}, q(S_i) = 1/2 + 1/36 = 19/36, so ε_t = βk/(2m q(S_i)) = 1/19, while (10) asks
    // for βkn/(2m|S_i|) = (4/9)·8/64 = 1/18. The reported counterexample is shrunk from there (to
    // fewer balls), and the notes keep the first one with its values.
    let first = v
        .notes
        .iter()
        .find(|n| n.starts_with("shrunk from cycle(8)"))
        .expect("a shrunk counterexample");
    assert!(
        first.contains("[4.0, 4.0, 4.0, 4.0, 2.0, 2.0, 0.0, 1.0]")
            && first.contains("1/19 >= 1/18"),
        "{first}"
    );
    assert!(w.loads.iter().sum::<f64>() < 21.0, "{:?}", w.loads);
    // The halved bound holds there. Nodes with Q_L(i) ≠ 0 at these loads (hand count): the root
    // (4 > 5/4), {4..7} (2 > 1/2) and {6, 7} (0 < 1); {0..3} and its children are tied, as is
    // {4, 5}. So three elements pass `given`.
    let p = write(&root, "b10c", &body("4"));
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Holds);
    assert!(v.witness.is_none());
    assert_eq!(v.searched.total, 3);
}

#[test]
fn graph_kind_two_point_formulas_and_no_items() {
    let root = scratch("graph-tp");
    // One-configuration grid: A = 5 gives π₁ ∈ {0.2, 0.4, 0.6, 0.8}; B = 1 gives ε = min(π)/2;
    // C = 1 gives ε_t = max(π)/2. At π₁ = 0.2: ε_t = 0.4 > min π = 0.2 (invalid, dropped). At
    // π₁ = 0.4: ε = 0.2, ε_t = 0.3, valid, and ε_tγ = 0.3/(0.4·0.6) = 1.25 > 1: the first violation.
    let p = write(
        &root,
        "eg",
        &format!(
            "{GRAPH_HEAD}[claim]\nover = \"two-point\"\nexpr = \"eps_t*gamma <= 1\"\n\
             given = \"eps < eps_t && valid == 1\"\ngrid = [5, 1, 1]\ndeltas = [0, 0, 1]\n[domain]\nn = [2]\n"
        ),
    );
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Refuted);
    assert_eq!(v.trust, Trust::Exact);
    let w = v.witness.unwrap();
    assert!(w.lhs.contains("π₁ = 2/5"), "{}", w.lhs);
    // π₁ = 0.4 is the first valid configuration, and it fails: one evaluation.
    assert_eq!(v.searched.total, 1);
    // A `graph` file naming a built-in item is refused, with the field named.
    let p = write(
        &root,
        "gap",
        &format!("{GRAPH_HEAD}[claim]\nitem = \"main_theorem_gap\"\n[domain]\nn = [8]\n"),
    );
    let e = claim::prepare(&p, &root).err().unwrap().to_string();
    assert!(
        e.contains("gap.toml:") && e.contains("item") && e.contains("`expr`") && !e.contains('\n'),
        "{e}"
    );
}

#[test]
fn graph_kind_one_step_is_decided_by_enclosures_with_its_slack() {
    let root = scratch("graph-one-step");
    // Grid [5, 2, 2], valid configurations only, δ ∈ {−2, −1.5, …, 2}: every element is decided by
    // enclosures (cosh), and the smallest relative slack is reported. At δ = 0 and π₁ = 1/2 the
    // right side is 1 − αεγ(1 − 2)/2 = 1 + αεγ/2 > 1 while E[Φ'] = cosh(2α) ≈ 1 + 2α²: the slack is
    // positive and below 1.
    let p = write(
        &root,
        "os",
        &format!(
            "{GRAPH_HEAD}[claim]\nover = \"two-point\"\nexpr = \"E_Phi <= Phi - alpha*eps*gamma*(Phi - 2)/2\"\n\
             given = \"eps < eps_t && valid == 1\"\ngrid = [5, 2, 2]\ndeltas = [-2, 2, 0.5]\n[domain]\nn = [2]\n"
        ),
    );
    let v = run(&root, &p);
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert_eq!(v.trust, Trust::Enclosure, "{:?}", v.notes);
    let s = v.slack.expect("one comparison: a slack");
    assert!(s > 0.0 && s < 1.0, "{s}");
}

#[test]
fn graph_kind_errors_name_file_and_field() {
    let root = scratch("graph-err");
    let e = |name: &str, claim: &str, n: &str| {
        let p = write(
            &root,
            name,
            &format!("{GRAPH_HEAD}[claim]\n{claim}\n[domain]\nn = {n}\n"),
        );
        claim::prepare(&p, &root).err().unwrap().to_string()
    };
    let m = e("item", "item = \"lemma_9_9\"", "[8]");
    assert!(
        m.contains("item.toml:") && m.contains("[claim] item") && m.contains("`expr`"),
        "{m}"
    );
    let m = e("spec", "expr = \"n >= 1\"\ngraphs = [\"star(4)\"]", "[4]");
    assert!(
        m.contains("spec.toml:10:") && m.contains("unknown graph"),
        "{m}"
    );
    let m = e("size", "expr = \"n >= 1\"\ngraphs = [\"cycle(8)\"]", "[6]");
    assert!(
        m.contains("has n = 8, which [domain] n does not list"),
        "{m}"
    );
    let m = e(
        "noloads",
        "expr = \"gap >= 0\"\ngraphs = [\"cycle(8)\"]",
        "[8]",
    );
    assert!(m.contains("reads the loads"), "{m}");
    let m = e(
        "fam",
        "expr = \"gap >= 0\"\ngraphs = [\"cycle(8)\"]\nfamilies = [\"wavy\"]",
        "[8]",
    );
    assert!(m.contains("unknown load family `wavy`"), "{m}");
    let m = e("extra", "expr = \"n >= 1\"\nwhatever = 1", "[8]");
    assert!(m.contains("extra.toml:") && m.contains("whatever"), "{m}");
}
