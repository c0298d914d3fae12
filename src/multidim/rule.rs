//! Allocation rules for md-balls: which of the sampled bins gets the ball.
//!
//! * [`Criterion::SumLoad`], the rule of Narang–Dutta–Bhattacherjee (arXiv:1111.0762, §3;
//!   D.Def.alloc in `docs/derivations.md` §9): the sampled bins are compared by the sum-load `s_i` (equivalently by the raw sum
//!   `L_i = Σ_a l(a, i)`), and the ball goes to the smallest.
//! * [`Criterion::MaxPopulated`], the earlier rule D contrasts with (its reference \[6\], "the max
//!   criteria … over the restricted set of f populated dimensions in the current md-ball"): the
//!   sampled bins are compared by `max_{a∈S} l(a, i)` for the ball's support `S`. Raw loads are
//!   compared \[reconstructed: the excerpt does not say raw or normalised\].
//!
//! The number of samples is given by a [`Choice`]: d-choice (`d` uniform samples with
//! replacement) or (1+β) (two samples with probability β, else one). Ties among the smallest
//! sampled values are broken by a [`TieRule`]: uniformly at random (the default), or by position
//! (the larger index counts as lighter, matching `loads::TieRule::Fixed`, where the smaller index
//! is the heavier rank).

use super::ball::Support;
use super::state::MdLoads;
use crate::error::{Error, Result};
use crate::exact::Q;
use crate::loads::TieRule;
use crate::process::{DChoice, OnePlusBeta, Process};
use rand::{Rng, RngExt};

/// How sampled bins are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Criterion {
    /// By the sum-load `s_i` (D's rule).
    SumLoad,
    /// By `max_{a∈S} l(a, i)` over the ball's populated dimensions (the rule of D's ref. \[6\]).
    MaxPopulated,
}

impl Criterion {
    /// Parses `sum` or `max`.
    ///
    /// ```
    /// use balloc::multidim::Criterion;
    /// assert_eq!(Criterion::parse("max").unwrap(), Criterion::MaxPopulated);
    /// assert!(Criterion::parse("min").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Criterion> {
        match s {
            "sum" | "sum-load" => Ok(Criterion::SumLoad),
            "max" | "max-populated" => Ok(Criterion::MaxPopulated),
            other => Err(Error::unknown("allocation rule", other, &["sum", "max"])),
        }
    }

    /// The short name (`sum` or `max`).
    pub fn name(self) -> &'static str {
        match self {
            Criterion::SumLoad => "sum",
            Criterion::MaxPopulated => "max",
        }
    }

    /// The key of bin `b` for a ball with support `s` (smaller = lighter).
    pub fn key(self, x: &MdLoads, b: usize, s: Support) -> i64 {
        match self {
            Criterion::SumLoad => x.bin_sum(b),
            Criterion::MaxPopulated => {
                let row = x.row(b);
                let mut m = s;
                let mut best = i64::MIN;
                while m != 0 {
                    let a = m.trailing_zeros() as usize;
                    m &= m - 1;
                    best = best.max(row[a]);
                }
                // An empty ball (binomial f = 0) compares every bin as equal.
                if best == i64::MIN { 0 } else { best }
            }
        }
    }
}

/// How many bins are sampled.
#[derive(Debug, Clone, PartialEq)]
pub enum Choice {
    /// `d ≥ 1` uniform samples with replacement; `p_i = (i^d − (i−1)^d)/n^d` by rank.
    D(u32),
    /// Two samples with probability β, else one; `p_i = (1−β)/n + β(2i−1)/n²`.
    OnePlusBeta(f64, Q),
}

impl Choice {
    /// Parses `d-choice(d=D)`, `two-choice` or `one-plus-beta(beta=B)` through the process registry.
    ///
    /// ```
    /// use balloc::multidim::Choice;
    /// assert_eq!(Choice::parse("d-choice(d=3)").unwrap(), Choice::D(3));
    /// assert!(Choice::parse("quantile(delta=0.5)").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Choice> {
        let p = crate::process::parse(text)?;
        match p.info().name {
            "two-choice" => Ok(Choice::D(2)),
            "one-choice" => Ok(Choice::D(1)),
            "d-choice" => {
                let spec = crate::spec::Spec::parse(text)?.with_bare_as("d");
                Ok(Choice::D(spec.get_f64("d", 2.0)? as u32))
            }
            "one-plus-beta" => {
                let spec = crate::spec::Spec::parse(text)?.with_bare_as("beta");
                let (b, r) = spec.get_ratio("beta", "0.5")?;
                Ok(Choice::OnePlusBeta(b, r))
            }
            other => Err(Error::invalid(
                "choice",
                format!(
                    "md-balls are allocated by d-choice, two-choice, one-choice or one-plus-beta, not `{other}`"
                ),
            )),
        }
    }

    /// The spine process with the same allocation vector by rank.
    pub fn process(&self) -> Result<Box<dyn Process>> {
        Ok(match self {
            Choice::D(d) => Box::new(DChoice::new(*d as u64)?),
            Choice::OnePlusBeta(_, r) => Box::new(OnePlusBeta::new(r.clone())?),
        })
    }

    /// The rank vector `p` of the choice at `n` bins, exactly: `p_k` is the probability that the
    /// ball goes to the bin of rank `k` (1 = heaviest, no ties): d-choice
    /// `p_k = (k^d − (k − 1)^d)/n^d`, (1+β) `p_k = (1 − β)/n + β(2k − 1)/n²`
    /// (Narang–Dutta–Bhattacherjee, arXiv:1111.0762, §3: the allocation vector of the analysis;
    /// `docs/derivations.md` §9, D.Def.alloc). Entry `k − 1` is `p_k`.
    ///
    /// ```
    /// use balloc::multidim::Choice;
    /// // Two-Choice, n = 4: p_3 = (3² − 2²)/4² = 5/16.
    /// let p = Choice::parse("two-choice").unwrap().rank_vector(4).unwrap();
    /// assert_eq!(p[2].to_string(), "5/16");
    /// // (1+β), β = 1/2, n = 4: p_1 = (1/2)/4 + (1/2)·1/16 = 1/8 + 1/32 = 5/32.
    /// let p = Choice::parse("one-plus-beta(beta=1/2)").unwrap().rank_vector(4).unwrap();
    /// assert_eq!(p[0].to_string(), "5/32");
    /// ```
    pub fn rank_vector(&self, n: usize) -> Result<Vec<Q>> {
        self.process()?
            .rank_probabilities_exact(n)?
            .ok_or_else(|| Error::Unsupported(format!("{} has no rank vector", self.spec())))
    }

    /// The spec string.
    pub fn spec(&self) -> String {
        match self {
            Choice::D(d) => format!("d-choice(d={d})"),
            Choice::OnePlusBeta(b, _) => format!("one-plus-beta(beta={b})"),
        }
    }

    /// The number of samples for one ball.
    pub fn samples<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        match self {
            Choice::D(d) => *d,
            Choice::OnePlusBeta(b, _) => {
                if rng.random_bool(*b) {
                    2
                } else {
                    1
                }
            }
        }
    }
}

/// An md allocation rule: a [`Choice`] of samples compared by a [`Criterion`].
///
/// ```
/// use balloc::multidim::{MdRule, MdLoads};
/// use rand::SeedableRng;
/// let rule = MdRule::parse("sum", "two-choice").unwrap();
/// let x = MdLoads::from_rows(&[vec![3, 0], vec![0, 0]]).unwrap();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// // Bin 1 is strictly lighter: it is chosen whenever it is sampled (probability 3/4).
/// let hits = (0..4000).filter(|_| rule.choose(&x, 0b01, &mut rng) == 1).count();
/// assert!((hits as f64 / 4000.0 - 0.75).abs() < 0.03);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct MdRule {
    /// How bins are compared.
    pub criterion: Criterion,
    /// How many bins are sampled.
    pub choice: Choice,
    /// How ties between sampled bins are broken.
    pub ties: TieRule,
}

impl MdRule {
    /// A rule from a criterion name (`sum`/`max`) and a choice spec, random ties.
    pub fn parse(criterion: &str, choice: &str) -> Result<MdRule> {
        Ok(MdRule {
            criterion: Criterion::parse(criterion)?,
            choice: Choice::parse(choice)?,
            ties: TieRule::Random,
        })
    }

    /// A short label such as `sum/d-choice(d=2)`.
    pub fn label(&self) -> String {
        format!("{}/{}", self.criterion.name(), self.choice.spec())
    }

    /// Samples bins and returns the chosen one for a ball with support `s` at loads `x`.
    pub fn choose<R: Rng + ?Sized>(&self, x: &MdLoads, s: Support, rng: &mut R) -> usize {
        let n = x.n();
        let k = self.choice.samples(rng);
        let mut best = rng.random_range(0..n);
        let mut best_key = self.criterion.key(x, best, s);
        let mut tied = 1u32;
        for _ in 1..k {
            let c = rng.random_range(0..n);
            let key = self.criterion.key(x, c, s);
            if key < best_key {
                best = c;
                best_key = key;
                tied = 1;
            } else if key == best_key {
                match self.ties {
                    // Uniform choice among the tied samples (with multiplicity): symmetric in the
                    // bin labels, so every bin of a tied group is equally likely.
                    TieRule::Random => {
                        tied += 1;
                        if rng.random_range(0..tied) == 0 {
                            best = c;
                        }
                    }
                    TieRule::Fixed => best = best.max(c),
                }
            }
        }
        best
    }
}
