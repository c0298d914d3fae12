//! D-dimensional bin loads `l(a, b)` (dimension `a`, bin `b`), the per-dimension normalised loads
//! `x_b^a = l(a, b) − avg(a)`, the sum-load `s_b = Σ_a x_b^a`, and the per-dimension gaps.
//!
//! Reference: Narang–Dutta–Bhattacherjee, arXiv:1111.0762, §1 and §3 (D.Def.md-ball,
//! D.Def.normalised in `docs/derivations.md` §9): `avg(a) = (Σ_b l(a, b))/n` (`= mf/(nD)` in expectation for the uniform law),
//! `gap(a) = max_b l(a, b) − avg(a)`, the objective `max_a gap(a)`, and
//! `s_i(t) = Σ_{d=1}^{D} x_i^d(t)` with `Σ_i x_i^d = 0` for every `d`.

use super::ball::Support;
use crate::error::{Error, Result};
use crate::exact::Field;

/// The loads of `n` md-bins in `D` dimensions (integers: one unit per populated dimension of each
/// ball), with the per-dimension totals, the per-bin sums and the per-dimension maxima.
///
/// ```
/// use balloc::multidim::MdLoads;
/// let mut x = MdLoads::new(2, 3).unwrap();
/// x.add(0, 0b011); // bin 0 gets a ball populating dimensions 0 and 1
/// x.add(1, 0b110);
/// // avg = (1/2, 1, 1/2); gap(0) = 1 − 1/2, gap(1) = 1 − 1, gap(2) = 1 − 1/2.
/// assert_eq!(x.gaps_f64(), vec![0.5, 0.0, 0.5]);
/// assert_eq!(x.max_gap_f64(), 0.5);
/// // s_0 = (1 − ½) + (1 − 1) + (0 − ½) = 0.
/// assert_eq!(x.sum_loads::<f64>(), vec![0.0, 0.0]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MdLoads {
    n: usize,
    dims: usize,
    /// Row-major: `l[b * dims + a]`.
    l: Vec<i64>,
    totals: Vec<i64>,
    bin_sums: Vec<i64>,
    maxima: Vec<i64>,
}

impl MdLoads {
    /// All-zero loads for `n ≥ 1` bins and `1 ≤ dims ≤ 64` dimensions
    /// ([`crate::limits::MD_DIMS`]).
    pub fn new(n: usize, dims: usize) -> Result<MdLoads> {
        if n == 0 {
            return Err(Error::invalid("n", "the number of bins must be at least 1"));
        }
        let max = crate::limits::MD_DIMS.max;
        if dims == 0 || dims as u64 > max {
            return Err(Error::invalid(
                "dims",
                format!(
                    "the number of dimensions must be in 1..={max}, got {dims} (limits::MD_DIMS; {})",
                    crate::limits::MD_DIMS.reason
                ),
            ));
        }
        Ok(MdLoads {
            n,
            dims,
            l: vec![0; n * dims],
            totals: vec![0; dims],
            bin_sums: vec![0; n],
            maxima: vec![0; dims],
        })
    }

    /// Loads given bin by bin: `rows[b][a] = l(a, b)`, non-negative, all rows of equal length.
    ///
    /// ```
    /// use balloc::multidim::MdLoads;
    /// assert!(MdLoads::from_rows(&[vec![1, 0], vec![2]]).is_err());
    /// assert!(MdLoads::from_rows(&[vec![1, -1]]).is_err());
    /// assert_eq!(MdLoads::from_rows(&[vec![1, 0], vec![2, 5]]).unwrap().load(1, 1), 5);
    /// ```
    pub fn from_rows(rows: &[Vec<i64>]) -> Result<MdLoads> {
        let dims = rows.first().map(|r| r.len()).unwrap_or(0);
        let mut x = MdLoads::new(rows.len(), dims)?;
        for (b, r) in rows.iter().enumerate() {
            if r.len() != dims {
                return Err(Error::invalid(
                    "md loads",
                    format!("bin {} has {} dimensions, bin 1 has {dims}", b + 1, r.len()),
                ));
            }
            for (a, &v) in r.iter().enumerate() {
                if v < 0 {
                    return Err(Error::invalid(
                        "md loads",
                        format!("load of dimension {} in bin {} is {v} < 0", a + 1, b + 1),
                    ));
                }
                x.set(a, b, v);
            }
        }
        Ok(x)
    }

    fn set(&mut self, a: usize, b: usize, v: i64) {
        let old = self.l[b * self.dims + a];
        self.l[b * self.dims + a] = v;
        self.totals[a] += v - old;
        self.bin_sums[b] += v - old;
        self.maxima[a] = (0..self.n)
            .map(|c| self.l[c * self.dims + a])
            .max()
            .unwrap_or(0);
    }

    /// The number of bins `n`.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The number of dimensions `D`.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// `l(a, b)`: the load of dimension `a` in bin `b` (0-based).
    pub fn load(&self, a: usize, b: usize) -> i64 {
        self.l[b * self.dims + a]
    }

    /// The loads of bin `b`, one per dimension.
    pub fn row(&self, b: usize) -> &[i64] {
        &self.l[b * self.dims..(b + 1) * self.dims]
    }

    /// `Σ_b l(a, b)`, the total of dimension `a`.
    pub fn total(&self, a: usize) -> i64 {
        self.totals[a]
    }

    /// `max_b l(a, b)`, the largest load of dimension `a` (0-based).
    ///
    /// ```
    /// use balloc::multidim::MdLoads;
    /// // Bins (rows) (2, 0), (0, 1), (1, 1): dimension 1 has loads 2, 0, 1.
    /// let x = MdLoads::from_rows(&[vec![2, 0], vec![0, 1], vec![1, 1]]).unwrap();
    /// assert_eq!((x.max_load(0), x.max_load(1)), (2, 1));
    /// ```
    pub fn max_load(&self, a: usize) -> i64 {
        self.maxima[a]
    }

    /// `min_b l(a, b)`, the smallest load of dimension `a` (0-based; O(n)).
    ///
    /// ```
    /// use balloc::multidim::MdLoads;
    /// let x = MdLoads::from_rows(&[vec![2, 0], vec![0, 1], vec![1, 1]]).unwrap();
    /// assert_eq!((x.min_load(0), x.min_load(1)), (0, 0));
    /// ```
    pub fn min_load(&self, a: usize) -> i64 {
        (0..self.n).map(|b| self.load(a, b)).min().unwrap_or(0)
    }

    /// `L_b = Σ_a l(a, b)`, the raw sum over dimensions of bin `b` (orders bins as `s_b` does).
    pub fn bin_sum(&self, b: usize) -> i64 {
        self.bin_sums[b]
    }

    /// Adds a ball with support `support` to bin `b`: `l(a, b) += 1` for every `a ∈ S`.
    pub fn add(&mut self, b: usize, support: Support) {
        let mut m = support;
        while m != 0 {
            let a = m.trailing_zeros() as usize;
            m &= m - 1;
            let v = &mut self.l[b * self.dims + a];
            *v += 1;
            self.totals[a] += 1;
            self.bin_sums[b] += 1;
            if *v > self.maxima[a] {
                self.maxima[a] = *v;
            }
        }
    }

    /// `x_b^a = l(a, b) − Σ_c l(a, c)/n` in the number type `T` (exact for `Q`).
    pub fn normalised<T: Field>(&self, a: usize, b: usize) -> T {
        let n = T::from_usize(self.n).expect("n is representable");
        T::from_i64(self.load(a, b)).expect("load is representable")
            - T::from_i64(self.totals[a]).expect("total is representable") / n
    }

    /// The sum-load `s_b = Σ_a x_b^a = L_b − (Σ_a total_a)/n` for every bin.
    pub fn sum_loads<T: Field>(&self) -> Vec<T> {
        let n = T::from_usize(self.n).expect("n is representable");
        let all: i64 = self.totals.iter().sum();
        let mean = T::from_i64(all).expect("total is representable") / n;
        self.bin_sums
            .iter()
            .map(|&v| T::from_i64(v).expect("load is representable") - mean.clone())
            .collect()
    }

    /// `gap(a) = max_b l(a, b) − avg(a)` in the number type `T`.
    pub fn gap<T: Field>(&self, a: usize) -> T {
        let n = T::from_usize(self.n).expect("n is representable");
        T::from_i64(self.maxima[a]).expect("load is representable")
            - T::from_i64(self.totals[a]).expect("total is representable") / n
    }

    /// `max_a gap(a)` in the number type `T`.
    pub fn max_gap<T: Field>(&self) -> T {
        let mut best = self.gap::<T>(0);
        for a in 1..self.dims {
            let g = self.gap::<T>(a);
            if g > best {
                best = g;
            }
        }
        best
    }

    /// Every `gap(a)` as `f64`.
    pub fn gaps_f64(&self) -> Vec<f64> {
        (0..self.dims)
            .map(|a| self.maxima[a] as f64 - self.totals[a] as f64 / self.n as f64)
            .collect()
    }

    /// `max_a gap(a)` as `f64` (O(D)).
    pub fn max_gap_f64(&self) -> f64 {
        self.gaps_f64()
            .into_iter()
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// `max_b s_b` as `f64` (the gap of the sum-load chain).
    pub fn sum_gap_f64(&self) -> f64 {
        let all: i64 = self.totals.iter().sum();
        let mx = self.bin_sums.iter().copied().max().unwrap_or(0);
        mx as f64 - all as f64 / self.n as f64
    }
}
