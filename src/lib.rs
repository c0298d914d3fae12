//! # balloc — a proof companion for balanced allocations
//!
//! `balloc` computes, exactly, the expected one-step (or one-batch) change of potential functions
//! of allocation processes at any load vector, checks conditions on allocation vectors, and
//! (through its CLI) serves researchers who draft proofs about balls-into-bins processes.
//!
//! ## Catalogue
//! * **Processes** ([`process`]): One-Choice, Two-Choice, d-Choice, (1+β), Quantile(δ),
//!   Two-Thinning, Relative-Threshold(f), Mean-Thinning, Twinning, Packing.
//! * **Potentials** ([`potential`]): Φ, Ψ, Γ (exponential, parameter α), Υ (quadratic),
//!   Δ (absolute value).
//! * **Settings** ([`setting`]): sequential, b-batched, weighted ([`weights`]), with random or
//!   fixed tie-breaking ([`loads::TieRule`]).
//! * **Expectations** ([`expectation`]): closed forms and a brute-force enumerator.
//! * **Graphical allocation** ([`graph`]): cycles, paths, tori, hypercubes, complete and random
//!   regular graphs, edge-list files; greedy and Bansal–Feldheim's strategy (process `graphical`),
//!   hierarchical decompositions, Haar drifts, edge-bias flows, the paper's checks.
//! * **Multidimensional** ([`multidim`]): md-balls, the sum-load and max-populated rules,
//!   rank-weighted group potentials and the checks of Narang–Dutta–Bhattacherjee.
//! * **Conditions** ([`condition`]): C1(δ, ε) and C2(C) with witnesses and best constants, in
//!   `f64` and in exact rationals.
//!
//! * **Mean bias** ([`bias`]): paper B's probability/weight-bias conditions (reconstructed),
//!   drifts, outcome laws and identities, exactly; potentials Λ, V and the mean quantile δ.
//! * **Lower bounds** ([`lower_bound`]): exact parts of the batched and mean-biased constructions.
//!
//! Conventions (`docs/conventions.md` §1): loads `x`, total `W`, normalised loads `yᵢ = xᵢ − W/n`, ranks heaviest
//! first, gap `max xᵢ − W/n`, spread `max xᵢ − min xᵢ`.
//!
//! ```
//! use balloc::{expectation, loads::Loads, process, potential, setting::Setting};
//! let e = expectation::expect(
//!     process::parse("one-choice").unwrap().as_ref(),
//!     potential::parse("quadratic").unwrap().as_ref(),
//!     &Loads::zeros(4).unwrap(),
//!     &Setting::sequential(),
//! ).unwrap();
//! // From y = 0 one ball gives Υ' = (1 − 1/n)² + (n − 1)/n² = 1 − 1/n = 0.75.
//! assert!((e.expected_next.to_f64_checked().unwrap() - 0.75).abs() < 1e-15);
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod app;
#[cfg(feature = "arbitrary")]
pub mod arbitrary;
pub mod bias;
#[cfg(feature = "blueprint")]
pub mod blueprint;
pub mod claim;
#[cfg(feature = "cli")]
pub mod cli;
pub mod compensated;
pub mod condition;
pub mod enclosure;
pub mod error;
pub mod exact;
pub mod expectation;
pub mod graph;
pub mod growth;
pub mod input;
pub mod lang;
pub mod latex;
pub mod limits;
pub mod loads;
pub mod lower_bound;
pub mod multidim;
pub mod output;
pub mod plot;
pub mod potential;
pub mod process;
pub mod prover;
#[cfg(feature = "blueprint")]
pub mod report;
pub mod rng;
pub mod search;
pub mod setting;
pub mod sim;
pub mod spec;
#[cfg(feature = "strategy")]
pub mod strategy;
pub mod trust;
#[cfg(feature = "unit-tests")]
#[doc(hidden)]
pub mod unit;
pub mod weights;
pub mod xfloat;

pub use error::{Error, Result};

/// Runs a theorem given as TOML text (the schema of `theorems/README.md`; no `paper.toml`
/// needed) with the file's own search budget and returns its [`claim::Verdict`] (id `inline`).
/// Errors name the line and column of the text.
///
/// ```
/// // Υ after one Two-Choice ball from the all-equal state at n = 4: E[ΔΥ] = 1 − 1/n = 3/4.
/// let v = balloc::check_str(r#"
/// title = "one ball from equal loads"
/// kind = "inequality"
/// expected = "holds"
/// statement = '\mathbb E[\Delta\Upsilon] \le 1'
/// source = { locator = "worked example", provenance = "derived" }
/// [setting]
/// processes = ["two-choice"]
/// [claim]
/// expr = "dE_Upsilon <= 1"
/// [domain]
/// n = [4]
/// exhaustive = { max_n = 4, max_load = 3 }
/// "#).unwrap();
/// assert_eq!(v.verdict, balloc::claim::Status::Holds);
/// assert_eq!(v.trust, balloc::claim::Trust::Exact);
/// ```
pub fn check_str(toml: &str) -> anyhow::Result<claim::Verdict> {
    let t = theorem_from_str(toml)?;
    let c = claim::kind::build(&t)?;
    Ok(c.run(&mut claim::RunContext::default())?)
}

/// [`check_str`] for a test: `Ok(verdict)` when the verdict agrees with the file's `expected`
/// status (`holds`, `refuted`; `open` accepts any), otherwise an error that states the verdict,
/// its trust level and witness. One call in a `#[test]`:
/// `balloc::certify(include_str!("my_lemma.toml")).unwrap();`.
///
/// ```
/// let lemma = r#"
/// title = "a false bound"
/// kind = "inequality"
/// expected = "holds"
/// statement = '\mathbb E[\Delta\Upsilon] \le 0'
/// source = { locator = "worked example", provenance = "derived" }
/// [setting]
/// processes = ["two-choice"]
/// [claim]
/// expr = "dE_Upsilon <= 0"
/// [domain]
/// n = [4]
/// exhaustive = { max_n = 4, max_load = 2 }
/// "#;
/// let e = balloc::certify(lemma).unwrap_err().to_string();
/// assert!(e.contains("refuted") && e.contains("expected holds"), "{e}");
/// ```
pub fn certify(toml: &str) -> anyhow::Result<claim::Verdict> {
    let v = check_str(toml)?;
    if v.contradicts() {
        let w = v
            .witness
            .as_ref()
            .map(|w| {
                format!(
                    "; at n = {}, loads {:?} ({}): lhs = {}, rhs = {}, slack = {}",
                    w.n, w.loads, w.source, w.lhs, w.rhs, w.slack
                )
            })
            .unwrap_or_default();
        anyhow::bail!(
            "{}: {} (trust {}), expected {}{w}",
            v.id,
            v.verdict.name(),
            v.trust.name(),
            v.expected.name()
        );
    }
    Ok(v)
}

/// A theorem from TOML text, with id `inline` and no paper record.
fn theorem_from_str(toml: &str) -> std::result::Result<claim::Theorem, claim::FileError> {
    let file = claim::schema::parse_file("inline", toml)?;
    Ok(claim::Theorem {
        id: "inline".into(),
        path: std::path::PathBuf::from("inline"),
        text: toml.to_string(),
        file,
        paper: None,
    })
}

/// The certified values of an expectation ([`certify_expectation`]).
#[derive(Debug, Clone)]
pub enum Certified {
    /// Exact rationals: `[P(x), E[P(next)], E[P(next) − P(x)]]` (trust level `exact`).
    Exact([crate::exact::Q; 3]),
    /// Outward-rounded enclosures of the same three, and their precision in bits (trust level
    /// `enclosure`).
    Enclosure([enclosure::Interval; 3], u64),
}

/// The expectation of a potential after one step or batch, certified: in exact rationals for the
/// quadratic (Υ) and absolute-value (Δ) potentials, by enclosures (128 bits) for Φ, Ψ, Γ, and
/// for Λ and V after one step of unit balls, when the process has a rational step law and the
/// weights an exact form; `Ok(None)` when there is no
/// certified route (the `f64` value of [`expectation::expect`] is then the only one). `potential`
/// is the spec text (its parameters are read exactly: `alpha=0.1` is 1/10).
///
/// ```
/// use balloc::{certify_expectation, Certified, loads::Loads, process, setting::Setting};
/// let two = process::parse("two-choice").unwrap();
/// let x = Loads::new(vec![3.0, 0.0, 1.0, 0.0]).unwrap();
/// let c = certify_expectation(two.as_ref(), "quadratic", &x, &Setting::sequential()).unwrap();
/// // y = (2, −1, 0, −1), Υ = 6. A ball into bin j gives Υ' = Υ + 2y_j + 1 − 1/n. Two-Choice puts
/// // it on ranks 1..4 with (1, 3, 5, 7)/16, the two empty bins tied at 6/16 each, so
/// // E[y_J] = 2·1/16 + 0·3/16 − 1·12/16 = −5/8 and E[Υ'] = 6 + 3/4 − 5/4 = 11/2.
/// let Some(Certified::Exact(v)) = c else { panic!() };
/// assert_eq!(v[1].to_string(), "11/2");
/// ```
pub fn certify_expectation(
    process: &dyn process::Process,
    potential: &str,
    loads: &loads::Loads,
    setting: &setting::Setting,
) -> Result<Option<Certified>> {
    use potential::exact::{absolute, quadratic};
    use process::ExactStepLaw;
    use setting::ExactSetting;
    let pot = potential::parse(potential)?;
    let law = match ExactStepLaw::from_process(process, loads, setting.ties) {
        Ok(l) => l,
        Err(Error::Unsupported(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    let Ok(es) = ExactSetting::from_setting(setting) else {
        return Ok(None);
    };
    let x = loads.exact();
    Ok(match pot.info().name {
        "quadratic" => {
            let v = quadratic::value(&x);
            let next = quadratic::expected_next(&law, &x, &es)?;
            Some(Certified::Exact([v.clone(), next.clone(), next - v]))
        }
        "absolute" => {
            let v = absolute::value(&x);
            let next = absolute::expected_next(&law, &x, &es)?;
            Some(Certified::Exact([v.clone(), next.clone(), next - v]))
        }
        "phi" | "psi" | "gamma" => {
            let spec = potential::enclosed::ExpSpec::parse(potential)?;
            let prec = 128;
            match potential::enclosed::exponential::enclose(&law, &spec, &x, &es, prec) {
                Ok(e) => Some(Certified::Enclosure(
                    [e.value, e.expected_next, e.expected_change],
                    prec,
                )),
                Err(_) => None,
            }
        }
        "lambda" | "recovery" => {
            // Λ with α, V with α = κ/n, both exact as written (`0.25` is 1/4).
            let spec = spec::Spec::parse(potential)?;
            let alpha = if pot.info().name == "lambda" {
                spec.with_bare_as("alpha").get_ratio("alpha", "1")?.1
            } else {
                spec.with_bare_as("kappa").get_ratio("kappa", "1")?.1
                    / exact::Q::from_integer((x.len() as i64).into())
            };
            let prec = 128;
            match potential::enclosed::lambda::enclose(&law, &alpha, &x, &es, prec) {
                Ok(e) => Some(Certified::Enclosure(
                    [e.value, e.expected_next, e.expected_change],
                    prec,
                )),
                Err(_) => None,
            }
        }
        _ => None,
    })
}
