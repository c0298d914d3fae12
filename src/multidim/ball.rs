//! md-balls: a ball is a 0/1 vector in `{0,1}^D`; its *support* is the set of populated
//! dimensions, stored as a bit mask (`D ≤ 64`).
//!
//! Three laws, from Narang–Dutta–Bhattacherjee, *Multidimensional Balanced Allocation for Multiple
//! Choice & (1+β) Processes* (arXiv:1111.0762), §1 (D.Def.md-ball, `docs/derivations.md` §9):
//! * `uniform(dims=D,f=F)`: exactly `f` ones, the support uniform over the `C(D, f)` subsets;
//! * `skewed(dims=D,f=F,r=R)`: exactly `f` ones, a fixed non-uniform law: a support containing
//!   dimension 1 has weight `r`, any other support weight 1 (normalised);
//! * `binomial(dims=D,q=Q)`: every dimension populated independently with probability `q`, so
//!   `f ~ Bin(D, q)` and, given `f`, the support is uniform (the "random f" variant).

use crate::error::{Error, Result};
use crate::exact::{Int, Q};
use crate::spec::Spec;
use num_traits::{One, ToPrimitive, Zero};
use rand::{Rng, RngExt};

/// A support: bit `a` set when dimension `a` (0-based) is populated.
pub type Support = u64;

/// The largest number of supports [`BallLaw::supports_exact`] enumerates
/// ([`crate::limits::MD_SUPPORTS`]).
pub const SUPPORT_LIMIT: u64 = crate::limits::MD_SUPPORTS.max;

/// The law of an md-ball.
///
/// ```
/// use balloc::multidim::BallLaw;
/// let b = BallLaw::parse("uniform(dims=4,f=2)").unwrap();
/// // C(4, 2) = 6 supports, each with probability 1/6.
/// let s = b.supports_exact().unwrap();
/// assert_eq!(s.len(), 6);
/// assert!(s.iter().all(|(m, p)| m.count_ones() == 2 && p.to_string() == "1/6"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum BallLaw {
    /// Exactly `f` ones, uniform over the `C(D, f)` supports.
    Uniform {
        /// The number of dimensions `D`.
        dims: u32,
        /// The number of ones `f`.
        f: u32,
    },
    /// Exactly `f` ones; a support containing dimension 0 has weight `r`, others weight 1.
    Skewed {
        /// The number of dimensions `D`.
        dims: u32,
        /// The number of ones `f`.
        f: u32,
        /// The relative weight of supports containing dimension 0 (exact).
        r: Q,
    },
    /// Every dimension independently with probability `q` (`f ~ Bin(D, q)`).
    Binomial {
        /// The number of dimensions `D`.
        dims: u32,
        /// The probability of each dimension (exact).
        q: Q,
    },
}

fn ratio(v: &Q) -> f64 {
    v.to_f64().unwrap_or(f64::NAN)
}

/// `C(n, k)` as an integer.
pub fn binomial_coefficient(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k as u128 {
        c = c * (n as u128 - i) / (i + 1);
    }
    c as u64
}

impl BallLaw {
    /// Exactly `f` of `dims` dimensions, uniformly: `1 ≤ f ≤ dims ≤ 64`.
    pub fn uniform(dims: u32, f: u32) -> Result<BallLaw> {
        check_dims(dims)?;
        if f == 0 || f > dims {
            return Err(Error::invalid(
                "f",
                format!("must be an integer in 1..={dims} (the number of dimensions), got {f}"),
            ));
        }
        Ok(BallLaw::Uniform { dims, f })
    }

    /// Exactly `f` ones with supports containing dimension 0 weighted `r > 0` (`f < dims`).
    pub fn skewed(dims: u32, f: u32, r: Q) -> Result<BallLaw> {
        BallLaw::uniform(dims, f)?;
        if f == dims {
            return Err(Error::invalid(
                "f",
                format!("skewed needs f < dims (a single support cannot be skewed), got f = {f}"),
            ));
        }
        if r <= Q::zero() {
            return Err(Error::invalid("r", format!("must be positive, got {r}")));
        }
        Ok(BallLaw::Skewed { dims, f, r })
    }

    /// Every dimension independently with probability `q ∈ (0, 1]`.
    pub fn binomial(dims: u32, q: Q) -> Result<BallLaw> {
        check_dims(dims)?;
        if q <= Q::zero() || q > Q::one() {
            return Err(Error::invalid("q", format!("must lie in (0, 1], got {q}")));
        }
        Ok(BallLaw::Binomial { dims, q })
    }

    /// Parses `uniform(dims=D,f=F)`, `skewed(dims=D,f=F,r=R)` or `binomial(dims=D,q=Q)`.
    ///
    /// ```
    /// use balloc::multidim::BallLaw;
    /// assert_eq!(BallLaw::parse("binomial(dims=3,q=0.5)").unwrap().mean_f(), 1.5);
    /// assert!(BallLaw::parse("uniform(dims=3,f=4)").is_err());
    /// assert!(BallLaw::parse("cube(dims=3)").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<BallLaw> {
        let spec = Spec::parse(text)?;
        let int = |key: &str| -> Result<u32> {
            let v = spec.get_u64(key, u64::MAX)?;
            if v == u64::MAX {
                return Err(Error::invalid(
                    format!("ball law `{text}`"),
                    format!("parameter `{key}` is required"),
                ));
            }
            u32::try_from(v).map_err(|_| Error::invalid(key, format!("too large: {v}")))
        };
        match spec.name.as_str() {
            "uniform" => {
                spec.check_keys(&["dims", "f"])?;
                BallLaw::uniform(int("dims")?, int("f")?)
            }
            "skewed" => {
                spec.check_keys(&["dims", "f", "r"])?;
                let (_, r) = spec.get_ratio("r", "2")?;
                BallLaw::skewed(int("dims")?, int("f")?, r)
            }
            "binomial" => {
                spec.check_keys(&["dims", "q"])?;
                let (_, q) = spec.get_ratio("q", "0.5")?;
                BallLaw::binomial(int("dims")?, q)
            }
            other => Err(Error::unknown(
                "ball law",
                other,
                &["uniform", "skewed", "binomial"],
            )),
        }
    }

    /// The canonical spec string.
    pub fn spec(&self) -> String {
        match self {
            BallLaw::Uniform { dims, f } => format!("uniform(dims={dims},f={f})"),
            BallLaw::Skewed { dims, f, r } => format!("skewed(dims={dims},f={f},r={r})"),
            BallLaw::Binomial { dims, q } => format!("binomial(dims={dims},q={q})"),
        }
    }

    /// The number of dimensions `D`.
    pub fn dims(&self) -> u32 {
        match self {
            BallLaw::Uniform { dims, .. }
            | BallLaw::Skewed { dims, .. }
            | BallLaw::Binomial { dims, .. } => *dims,
        }
    }

    /// The number of ones when it is fixed (`None` for the binomial law).
    pub fn fixed_f(&self) -> Option<u32> {
        match self {
            BallLaw::Uniform { f, .. } | BallLaw::Skewed { f, .. } => Some(*f),
            BallLaw::Binomial { .. } => None,
        }
    }

    /// `E[f]`: `f` for the fixed laws, `Dq` for the binomial law.
    pub fn mean_f(&self) -> f64 {
        match self {
            BallLaw::Uniform { f, .. } | BallLaw::Skewed { f, .. } => *f as f64,
            BallLaw::Binomial { dims, q } => *dims as f64 * ratio(q),
        }
    }

    /// The law of `f` (the number of ones), exactly: pairs `(f, P(f))` with positive probability.
    ///
    /// ```
    /// use balloc::multidim::BallLaw;
    /// let b = BallLaw::parse("binomial(dims=2,q=0.5)").unwrap();
    /// let l: Vec<String> = b.f_law().iter().map(|(f, p)| format!("{f}:{p}")).collect();
    /// assert_eq!(l, vec!["0:1/4", "1:1/2", "2:1/4"]);
    /// ```
    pub fn f_law(&self) -> Vec<(u32, Q)> {
        match self {
            BallLaw::Uniform { f, .. } | BallLaw::Skewed { f, .. } => {
                vec![(*f, Q::one())]
            }
            BallLaw::Binomial { dims, q } => {
                let one = Q::one();
                (0..=*dims)
                    .map(|k| {
                        let c = Q::from_integer(Int::from(binomial_coefficient(*dims, k)));
                        let p = c
                            * num_traits::pow(q.clone(), k as usize)
                            * num_traits::pow(&one - q, (*dims - k) as usize);
                        (k, p)
                    })
                    .filter(|(_, p)| !p.is_zero())
                    .collect()
            }
        }
    }

    /// Every support with its exact probability (an error beyond `SUPPORT_LIMIT` supports).
    pub fn supports_exact(&self) -> Result<Vec<(Support, Q)>> {
        let dims = self.dims();
        let count = match self {
            BallLaw::Uniform { f, .. } | BallLaw::Skewed { f, .. } => {
                binomial_coefficient(dims, *f)
            }
            BallLaw::Binomial { .. } => 1u64.checked_shl(dims).unwrap_or(u64::MAX),
        };
        if count > SUPPORT_LIMIT {
            return Err(Error::Unsupported(format!(
                "{} has {count} supports, more than the enumeration limit {SUPPORT_LIMIT} (limits::MD_SUPPORTS; {})",
                self.spec(),
                crate::limits::MD_SUPPORTS.reason
            )));
        }
        let all = (0..(1u64 << dims)).filter(|m| match self {
            BallLaw::Uniform { f, .. } | BallLaw::Skewed { f, .. } => m.count_ones() == *f,
            BallLaw::Binomial { .. } => true,
        });
        Ok(match self {
            BallLaw::Uniform { .. } => {
                let p = Q::new(Int::one(), Int::from(count));
                all.map(|m| (m, p.clone())).collect()
            }
            BallLaw::Skewed { r, .. } => {
                let w = |m: u64| {
                    if m & 1 == 1 { r.clone() } else { Q::one() }
                };
                let v: Vec<u64> = all.collect();
                let total: Q = v.iter().map(|&m| w(m)).sum();
                v.into_iter().map(|m| (m, w(m) / &total)).collect()
            }
            BallLaw::Binomial { q, .. } => {
                let one = Q::one();
                all.map(|m| {
                    let k = m.count_ones() as usize;
                    let p = num_traits::pow(q.clone(), k)
                        * num_traits::pow(&one - q, dims as usize - k);
                    (m, p)
                })
                .filter(|(_, p)| !p.is_zero())
                .collect()
            }
        })
    }

    /// `P(a ∈ S)` for dimension `a`, exactly.
    ///
    /// ```
    /// use balloc::multidim::BallLaw;
    /// // Uniform: f/D.  Skewed(D=3, f=1, r=2): supports {0},{1},{2} with weights 2,1,1 → 1/2.
    /// assert_eq!(BallLaw::parse("uniform(dims=4,f=3)").unwrap().marginal(1).to_string(), "3/4");
    /// assert_eq!(BallLaw::parse("skewed(dims=3,f=1,r=2)").unwrap().marginal(0).to_string(), "1/2");
    /// ```
    pub fn marginal(&self, a: u32) -> Q {
        match self {
            BallLaw::Uniform { dims, f } => Q::new(Int::from(*f), Int::from(*dims)),
            BallLaw::Binomial { q, .. } => q.clone(),
            BallLaw::Skewed { dims, f, r } => {
                // Supports containing 0: C(D−1, f−1) of weight r; others: C(D−1, f) of weight 1.
                let with0 = Q::from_integer(Int::from(binomial_coefficient(dims - 1, f - 1))) * r;
                let without0 = Q::from_integer(Int::from(binomial_coefficient(dims - 1, *f)));
                let total = &with0 + &without0;
                if a == 0 {
                    with0 / total
                } else {
                    // Among supports with 0, a given other dimension is in C(D−2, f−2) of them;
                    // among those without 0, in C(D−2, f−1).
                    let c = |n: u32, k: i64| {
                        if k < 0 {
                            Q::zero()
                        } else {
                            Q::from_integer(Int::from(binomial_coefficient(n, k as u32)))
                        }
                    };
                    (c(dims - 2, *f as i64 - 2) * r + c(dims - 2, *f as i64 - 1)) / total
                }
            }
        }
    }

    /// Samples a support.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Support {
        match self {
            BallLaw::Uniform { dims, f } => floyd(*dims, *f, rng),
            BallLaw::Skewed { dims, f, r } => {
                // P(0 ∈ S) = w; then the rest uniform among the remaining D−1 dimensions.
                let w = ratio(&self.marginal(0));
                let _ = r;
                if rng.random_bool(w) {
                    1 | (floyd(dims - 1, f - 1, rng) << 1)
                } else {
                    floyd(dims - 1, *f, rng) << 1
                }
            }
            BallLaw::Binomial { dims, q } => {
                let q = ratio(q);
                let mut m = 0;
                for a in 0..*dims {
                    if rng.random_bool(q) {
                        m |= 1 << a;
                    }
                }
                m
            }
        }
    }
}

fn check_dims(dims: u32) -> Result<()> {
    let max = crate::limits::MD_DIMS.max;
    if dims == 0 || u64::from(dims) > max {
        return Err(Error::invalid(
            "dims",
            format!(
                "the number of dimensions must be in 1..={max}, got {dims} (limits::MD_DIMS; {})",
                crate::limits::MD_DIMS.reason
            ),
        ));
    }
    Ok(())
}

/// Floyd's algorithm: a uniform `k`-subset of `0..n` as a bit mask.
fn floyd<R: Rng + ?Sized>(n: u32, k: u32, rng: &mut R) -> Support {
    let mut m: u64 = 0;
    for j in (n - k)..n {
        let t = rng.random_range(0..=j);
        if m & (1 << t) != 0 {
            m |= 1 << j;
        } else {
            m |= 1 << t;
        }
    }
    m
}
