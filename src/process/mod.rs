//! Allocation processes: one file per process and a registry.
//!
//! A process is described at a load vector by its [`StepLaw`]: the probability that bin `j` is the
//! destination of the step together with the number of balls it receives (one for most processes;
//! outcome-dependent for Twinning and Packing). Rank-based processes (One-, Two-, d-Choice, (1+β),
//! Quantile) also give their allocation vector `p` by rank alone, in `f64` and exactly.
//!
//! Reference: the processes of Los–Sauerwald, *Balanced Allocations in Batches* (SPAA 2022), §2,
//! and Los–Sauerwald–Sylvester, *Mean-Biased Processes* (arXiv:2308.05087); the per-bin
//! probabilities are derived in `docs/derivations.md` §1.

use crate::error::{Error, Result};
use crate::exact::Q;
use crate::graph::family::{GraphFiles, NoFiles};
use crate::loads::{Loads, Ranking, TieRule};
use crate::spec::Spec;
use rand::Rng;

mod d_choice;
mod graphical;
mod level_law;
mod mean_drift;
mod mean_thinning;
mod one_choice;
mod one_plus_beta;
mod packing;
mod quantile;
mod relative_threshold;
mod rule;
mod step_law;
mod twinning;
mod two_choice;
mod two_thinning;

pub use d_choice::DChoice;
pub use level_law::LevelLaw;
pub use mean_drift::MeanDrift;
pub use one_choice::OneChoice;
pub use one_plus_beta::OnePlusBeta;
pub use packing::Packing;
pub use quantile::Quantile;
pub use relative_threshold::RelativeThreshold;
pub use rule::{Accept, Rule};
pub use step_law::{ExactOutcome, ExactStepLaw, Outcome, StepLaw};
pub use twinning::Twinning;
pub use two_thinning::TwoThinning;

/// A declared parameter of a registered item.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// The key in the spec string.
    pub name: &'static str,
    /// The default value, if the parameter may be omitted.
    pub default: Option<&'static str>,
    /// Its meaning and accepted range.
    pub doc: &'static str,
}

/// A registry entry: everything `balloc list processes` shows and the constructor.
#[derive(Debug)]
pub struct ProcessInfo {
    /// The canonical name.
    pub name: &'static str,
    /// Accepted alternative names.
    pub aliases: &'static [&'static str],
    /// The parameters.
    pub params: &'static [Param],
    /// A one-line summary with the formula.
    pub summary: &'static str,
    /// The paper reference.
    pub reference: &'static str,
    /// Whether the allocation vector depends on ranks only.
    pub rank_based: bool,
    /// Whether a strictly heavier bin never expects more balls than a lighter one in one step
    /// (true for every process that looks only at its own samples' loads; false for graphical
    /// processes, where a bin's chances depend on its neighbours).
    pub monotone: bool,
    /// An example spec used by conformance tests.
    pub example: &'static str,
    /// Builds the process from a parsed spec (parameters validated); the edge-list files the
    /// spec names come from the caller's [`GraphFiles`].
    pub build: fn(&Spec, &dyn GraphFiles) -> Result<Box<dyn Process>>,
}

/// An allocation process.
pub trait Process: Send + Sync + std::fmt::Debug {
    /// The registry entry.
    fn info(&self) -> &'static ProcessInfo;

    /// The canonical spec string with every parameter.
    fn spec(&self) -> String;

    /// The allocation vector by rank (rank 1 = heaviest first) for `n` bins, for rank-based
    /// processes; `None` for processes whose probabilities depend on the loads.
    fn rank_probabilities(&self, _n: usize) -> Result<Option<Vec<f64>>> {
        Ok(None)
    }

    /// The allocation vector by rank in exact rational arithmetic (rank-based processes only).
    fn rank_probabilities_exact(&self, _n: usize) -> Result<Option<Vec<Q>>> {
        Ok(None)
    }

    /// The probabilities of consecutive rank ranges for `n` bins, for rank-based processes:
    /// given 0-based rank boundaries `0 = s₀ < s₁ < … < s_m = n`, entry `g` is
    /// `Σ_{sᵍ ≤ r < sᵍ⁺¹} p_{r+1}` (the ball's chance to land in ranks `s_g + 1 ..= s_{g+1}`).
    /// Processes with a closed form for the cumulative vector override it (O(1) per range); the
    /// default sums [`Process::rank_probabilities`] over each range (O(n)). `Ok(None)` for
    /// processes that are not rank-based.
    ///
    /// ```
    /// let p = balloc::process::parse("two-choice").unwrap();
    /// // n = 4, p = (1, 3, 5, 7)/16: ranks 1..=1, 2..=3, 4..=4.
    /// let g = p.rank_range_probabilities(4, &[0, 1, 3, 4]).unwrap().unwrap();
    /// assert_eq!(g, vec![1.0 / 16.0, 8.0 / 16.0, 7.0 / 16.0]);
    /// ```
    fn rank_range_probabilities(&self, n: usize, bounds: &[usize]) -> Result<Option<Vec<f64>>> {
        check_bounds(n, bounds)?;
        Ok(self.rank_probabilities(n)?.map(|p| range_sums(&p, bounds)))
    }

    /// How one step picks its destination at `n` bins ([`Rule`]; the simulator compiles it,
    /// `sim::kernel`). Processes with a sampling rule on loads override it; the default gives
    /// rank-based processes a rank drawn from [`Process::rank_probabilities`] and every other
    /// process [`Rule::StepLaw`] (a destination drawn from the step law). Errors where the
    /// process is undefined at `n`.
    ///
    /// ```
    /// use balloc::process::Rule;
    /// let p = balloc::process::parse("d-choice(d=3)").unwrap();
    /// assert!(matches!(p.rule(10).unwrap(), Rule::DChoice { d: 3 }));
    /// let q = balloc::process::parse("quantile(delta=0.25)").unwrap();
    /// assert!(matches!(q.rule(8).unwrap(), Rule::Quantile { k: 2 }));
    /// ```
    fn rule(&self, n: usize) -> Result<Rule> {
        if !self.info().rank_based {
            return Ok(Rule::StepLaw);
        }
        let p = self.rank_probabilities(n)?.ok_or_else(|| {
            Error::Unsupported(format!("{} gives no allocation vector", self.spec()))
        })?;
        Ok(Rule::Ranks(p))
    }

    /// The natural sampler of a rank-based process: a 0-based rank (0 = heaviest).
    fn sample_rank(&self, _n: usize, _rng: &mut dyn Rng) -> Option<usize> {
        None
    }

    /// The law of one step at the load vector `loads` under the tie rule `ties`.
    fn step_law(&self, loads: &Loads, ties: TieRule) -> Result<StepLaw> {
        let p = self.rank_probabilities(loads.n())?.ok_or_else(|| {
            Error::Unsupported(format!("{} defines no allocation vector", self.spec()))
        })?;
        Ok(StepLaw::unit(loads.ranking().per_bin(&p, ties)))
    }

    /// The law of one step in exact rationals, for processes whose probabilities are rational
    /// (rank-based processes with an exact allocation vector, Mean-Thinning, Relative-Threshold,
    /// Twinning, Packing); `Ok(None)` otherwise. It classifies bins exactly as [`Process::step_law`].
    fn step_law_exact(&self, loads: &Loads, ties: TieRule) -> Result<Option<ExactStepLaw>> {
        Ok(self
            .rank_probabilities_exact(loads.n())?
            .map(|p| ExactStepLaw::unit(loads.ranking().per_bin(&p, ties))))
    }

    /// Checks that the process is defined at `n` bins (δn an integer for Quantile, a graph that
    /// exists at this n for graphical processes, ...). [`Process::sample`] may be called only at
    /// sizes for which this returned `Ok`; simulators call it once before sampling.
    ///
    /// ```
    /// let q = balloc::process::parse("quantile(delta=0.25)").unwrap();
    /// assert!(q.validate(8).is_ok());
    /// assert!(q.validate(6).is_err()); // δn = 1.5
    /// ```
    fn validate(&self, n: usize) -> Result<()> {
        self.step_law(&Loads::zeros(n)?, TieRule::Random)
            .map(|_| ())
    }

    /// Samples one step: the destination bin and the number of balls. `ranking` must be the
    /// ranking of `loads`, and [`Process::validate`] must have accepted `loads.n()` (otherwise a
    /// process may panic).
    fn sample(
        &self,
        loads: &Loads,
        ranking: &Ranking,
        ties: TieRule,
        rng: &mut dyn Rng,
    ) -> (usize, u32) {
        let n = loads.n();
        let r = self
            .sample_rank(n, rng)
            .expect("a process without a rank sampler overrides `sample`");
        (bin_of_rank(ranking, r, ties, rng), 1)
    }
}

/// `Σ_{s_g ≤ r < s_{g+1}} p[r]` for consecutive boundaries `s` (the default of
/// [`Process::rank_range_probabilities`]).
pub(crate) fn range_sums(p: &[f64], bounds: &[usize]) -> Vec<f64> {
    bounds
        .windows(2)
        .map(|w| p[w[0]..w[1]].iter().sum())
        .collect()
}

/// Checks rank boundaries `0 = s₀ < s₁ < … < s_m = n`.
pub(crate) fn check_bounds(n: usize, bounds: &[usize]) -> Result<()> {
    let ok = bounds.first() == Some(&0)
        && bounds.last() == Some(&n)
        && bounds.windows(2).all(|w| w[0] < w[1]);
    if ok {
        Ok(())
    } else {
        Err(Error::invalid(
            "rank ranges",
            format!("boundaries must rise strictly from 0 to n = {n}, got {bounds:?}"),
        ))
    }
}

/// Maps a sampled 0-based rank to a bin under a tie rule: the bin at that rank (fixed), or a
/// uniformly random bin of the rank's tied group (random).
/// ```
/// use balloc::{loads::{Loads, TieRule}, process::bin_of_rank};
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
/// let r = Loads::new(vec![1.0, 1.0, 0.0]).unwrap().ranking(); // bins 0, 1 tied at ranks 1–2
/// assert_eq!(bin_of_rank(&r, 1, TieRule::Fixed, &mut rng), 1);
/// assert!(bin_of_rank(&r, 1, TieRule::Random, &mut rng) < 2);
/// assert_eq!(bin_of_rank(&r, 2, TieRule::Random, &mut rng), 2);
/// ```
pub fn bin_of_rank(ranking: &Ranking, r: usize, ties: TieRule, rng: &mut dyn Rng) -> usize {
    use rand::RngExt;
    match ties {
        TieRule::Fixed => ranking.order[r],
        TieRule::Random => {
            let g = &ranking.groups[ranking.group_of[r]];
            if g.len() == 1 {
                ranking.order[r]
            } else {
                ranking.order[rng.random_range(g.clone())]
            }
        }
    }
}

/// Every registered process.
pub static REGISTRY: &[&ProcessInfo] = &[
    &one_choice::INFO,
    &two_choice::INFO,
    &d_choice::INFO,
    &one_plus_beta::INFO,
    &quantile::INFO,
    &two_thinning::INFO,
    &relative_threshold::INFO,
    &mean_thinning::INFO,
    &mean_drift::INFO,
    &twinning::INFO,
    &packing::INFO,
    &graphical::INFO,
];

/// Looks up a registry entry by name or alias.
/// ```
/// assert_eq!(balloc::process::lookup("2-choice").unwrap().name, "two-choice");
/// assert!(balloc::process::lookup("three-choice").is_err());
/// ```
pub fn lookup(name: &str) -> Result<&'static ProcessInfo> {
    REGISTRY
        .iter()
        .copied()
        .find(|i| i.name == name || i.aliases.contains(&name))
        .ok_or_else(|| {
            let names: Vec<&str> = REGISTRY.iter().map(|i| i.name).collect();
            Error::unknown("process", name, &names)
        })
}

/// Parses a process spec such as `two-choice`, `d-choice(d=3)` or `quantile(delta=0.25)`.
///
/// ```
/// let p = balloc::process::parse("two-choice").unwrap();
/// // Two-Choice at n = 4: p_i = (2i − 1)/16.
/// assert_eq!(p.rank_probabilities(4).unwrap().unwrap(), vec![1.0/16.0, 3.0/16.0, 5.0/16.0, 7.0/16.0]);
/// assert!(balloc::process::parse("three-choice-ish").is_err());
/// ```
pub fn parse(text: &str) -> Result<Box<dyn Process>> {
    parse_with(text, &NoFiles)
}

/// [`parse`] with the edge-list files the spec names (`graphical(graph=file,file=PATH)`) read by
/// `files` (the caller's: a theorem file's directory, the current directory; the mathematics
/// reads no file).
///
/// ```
/// use balloc::graph::{Graph, family::GraphFiles};
/// struct C4;
/// impl GraphFiles for C4 {
///     fn edge_list(&self, path: &str) -> balloc::Result<Graph> {
///         Ok(Graph::parse_edge_list("0 1\n1 2\n2 3\n3 0\n", path)?.with_name(path))
///     }
/// }
/// let p = balloc::process::parse_with("graphical(graph=file,file=c4.edges)", &C4).unwrap();
/// // The spec names the file as written (run seeds derive from it), wherever it lies.
/// assert_eq!(p.spec(), "graphical(graph=file,file=c4.edges,strategy=greedy)");
/// let x = balloc::loads::Loads::new(vec![1.0, 0.0, 0.0, 0.0]).unwrap();
/// assert!(p.step_law(&x, balloc::loads::TieRule::Random).is_ok());
/// assert!(balloc::process::parse("graphical(graph=file,file=c4.edges)").is_err());
/// ```
pub fn parse_with(text: &str, files: &dyn GraphFiles) -> Result<Box<dyn Process>> {
    let spec = Spec::parse(text)?;
    let info = lookup(&spec.name)?;
    let keys: Vec<&str> = info.params.iter().map(|p| p.name).collect();
    let spec = if keys.len() == 1 {
        spec.with_bare_as(keys[0])
    } else {
        spec
    };
    spec.check_keys(&keys)?;
    (info.build)(&spec, files)
}

/// The graph a `graphical` spec runs on at `n` bins, with its files read by `files` (`None` for
/// every other process): validates a theorem file's graphical processes at each `n` of its
/// domain (an edge-list file of another size is an error there, not during a run).
///
/// ```
/// use balloc::graph::family::NoFiles;
/// let g = balloc::process::graph_at("graphical(graph=sparse-cut,d=4,k=2)", &NoFiles, 20).unwrap();
/// assert_eq!(g.unwrap().regular_degree(), Some(4));
/// assert!(balloc::process::graph_at("two-choice", &NoFiles, 20).unwrap().is_none());
/// assert!(balloc::process::graph_at("graphical(graph=hypercube)", &NoFiles, 12).is_err());
/// ```
pub fn graph_at(
    text: &str,
    files: &dyn GraphFiles,
    n: usize,
) -> Result<Option<crate::graph::Graph>> {
    let spec = Spec::parse(text)?;
    let info = lookup(&spec.name)?;
    if info.name != graphical::INFO.name {
        return Ok(None);
    }
    graphical::graph_spec(&spec, files)?
        .build(Some(n))
        .map(Some)
}

/// A uniform 0-based rank in `0..n`.
pub(crate) fn uniform_rank(n: usize, rng: &mut dyn Rng) -> usize {
    use rand::RngExt;
    rng.random_range(0..n)
}

/// A rational parameter as a spec value: the shortest decimal when it has one that reads back
/// as the same rational (`0.5`, `0.25`), else `p/q` (`1/3`), so a spec string always names the
/// exact parameter.
///
/// ```
/// use balloc::process::ratio_text;
/// use balloc::spec::parse_ratio;
/// assert_eq!(ratio_text(&parse_ratio("0.25").unwrap()), "0.25");
/// assert_eq!(ratio_text(&parse_ratio("1/3").unwrap()), "1/3");
/// ```
pub fn ratio_text(q: &Q) -> String {
    use num_traits::ToPrimitive;
    if let Some(f) = q.to_f64() {
        let s = format!("{f}");
        if crate::spec::parse_ratio(&s).ok().as_ref() == Some(q) {
            return s;
        }
    }
    q.to_string()
}

/// The rational a finite `f64` prints as (its shortest round-trip decimal), for the typed
/// constructors' `from_f64`; `what` names the parameter in the error.
pub(crate) fn decimal(what: &str, v: f64) -> Result<Q> {
    if !v.is_finite() {
        return Err(Error::invalid(
            format!("parameter `{what}`"),
            format!("must be a finite number, got {v}"),
        ));
    }
    crate::spec::parse_ratio(&format!("{v:e}"))
        .map_err(|e| Error::invalid(format!("parameter `{what}`"), e))
}
