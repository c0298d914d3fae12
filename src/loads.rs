//! Load vectors and the conventions of `docs/conventions.md` §1: total weight `W = Σ xᵢ`,
//! normalised loads `yᵢ = xᵢ − W/n`, ranks heaviest first, tie rules, gap and spread.
//!
//! Reference: Los–Sauerwald, *Balanced Allocations in Batches* (SPAA 2022), §2 (notation).

use crate::error::{Error, Result, excerpt};

/// How ties between equal loads are broken when a rank-indexed allocation vector is applied to bins.
///
/// * `Random`: uniformly random tie-breaking; every bin of a tied group receives the average of the
///   group's rank probabilities.
/// * `Fixed`: ties are broken by position; among equal loads the bin with the smaller index is
///   treated as the heavier (it gets the smaller rank).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TieRule {
    /// Average over the tied group (the default).
    #[default]
    Random,
    /// By bin index: lower index = heavier rank.
    Fixed,
}

impl TieRule {
    /// Parses `random` or `fixed`.
    ///
    /// ```
    /// use balloc::loads::TieRule;
    /// assert_eq!(TieRule::parse("fixed").unwrap(), TieRule::Fixed);
    /// assert!(TieRule::parse("coin").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<TieRule> {
        match s {
            "random" => Ok(TieRule::Random),
            "fixed" => Ok(TieRule::Fixed),
            other => Err(Error::unknown("tie rule", other, &["random", "fixed"])),
        }
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            TieRule::Random => "random",
            TieRule::Fixed => "fixed",
        }
    }
}

/// Where a bin whose load equals the mean (y = 0) is counted. Papers differ on it (N1): the
/// Twinning page counts y = 0 as overloaded, the Mean-Thinning pseudo-code accepts y ≤ 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Boundary {
    /// y ≥ threshold is overloaded (the default, `docs/conventions.md` §1).
    #[default]
    Over,
    /// y ≤ threshold is underloaded.
    Under,
}

impl Boundary {
    /// Parses `over` or `under`.
    pub fn parse(s: &str) -> Result<Boundary> {
        match s {
            "over" => Ok(Boundary::Over),
            "under" => Ok(Boundary::Under),
            other => Err(Error::unknown("boundary", other, &["over", "under"])),
        }
    }

    /// The name used in spec strings.
    pub fn name(self) -> &'static str {
        match self {
            Boundary::Over => "over",
            Boundary::Under => "under",
        }
    }

    /// Whether a value `v` counts as underloaded relative to the threshold `t`.
    ///
    /// ```
    /// use balloc::loads::Boundary;
    /// assert!(!Boundary::Over.is_under(0.0, 0.0));
    /// assert!(Boundary::Under.is_under(0.0, 0.0));
    /// ```
    pub fn is_under(self, v: f64, t: f64) -> bool {
        match self {
            Boundary::Over => v < t,
            Boundary::Under => v <= t,
        }
    }

    /// [`Boundary::is_under`] for any ordered number type (exact rationals in particular).
    ///
    /// ```
    /// use balloc::loads::Boundary;
    /// use balloc::exact::Q;
    /// let z = Q::from_integer(0.into());
    /// assert!(Boundary::Under.is_under_ord(&z, &z) && !Boundary::Over.is_under_ord(&z, &z));
    /// ```
    pub fn is_under_ord<T: PartialOrd>(self, v: &T, t: &T) -> bool {
        match self {
            Boundary::Over => v < t,
            Boundary::Under => v <= t,
        }
    }
}

/// A load vector `x ∈ ℝⁿ` with finite entries and `n ≥ 1`.
///
/// ```
/// use balloc::loads::Loads;
/// let x = Loads::new(vec![3.0, 1.0, 1.0, 3.0]).unwrap();
/// assert_eq!(x.total(), 8.0);
/// assert_eq!(x.normalized(), vec![1.0, -1.0, -1.0, 1.0]);
/// assert_eq!(x.gap(), 1.0);     // max x − W/n = 3 − 2
/// assert_eq!(x.spread(), 2.0);  // max x − min x
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Loads {
    x: Vec<f64>,
}

impl Loads {
    /// Validates and wraps a load vector: non-empty, every entry finite and within ±f64::MAX/2,
    /// the total finite (so `W`, `W/n` and every `yᵢ` are finite).
    /// ```
    /// use balloc::loads::Loads;
    /// assert!(Loads::new(vec![1e308, 1e308]).is_err()); // W overflows
    /// assert!(Loads::new(vec![1.7e308, -1.7e308]).is_err()); // y would overflow
    /// assert!(Loads::new(vec![8e307, -8e307]).is_ok());
    /// ```
    pub fn new(x: Vec<f64>) -> Result<Loads> {
        if x.is_empty() {
            return Err(Error::invalid(
                "loads",
                "the load vector is empty (need n ≥ 1)",
            ));
        }
        // One pass: every entry finite with |xᵢ| ≤ MAX/2 (the common case), and the total.
        let half = f64::MAX / 2.0;
        let mut ok = true;
        let mut total = 0.0;
        for &v in &x {
            ok &= v.abs() <= half; // false for NaN and ±inf as well
            total += v;
        }
        if !ok {
            if let Some(i) = x.iter().position(|v| !v.is_finite()) {
                return Err(Error::invalid(
                    "loads",
                    format!("entry {} is {}, loads must be finite numbers", i + 1, x[i]),
                ));
            }
            // |xᵢ| ≤ MAX/2 and a finite total keep W, W/n and every yᵢ = xᵢ − W/n finite.
            let i = x
                .iter()
                .position(|v| v.abs() > half)
                .expect("an entry failed the check");
            return Err(Error::invalid(
                "loads",
                format!(
                    "entry {} is {:e}, loads must lie within ±{:e}",
                    i + 1,
                    x[i],
                    half
                ),
            ));
        }
        if !total.is_finite() {
            return Err(Error::invalid(
                "loads",
                "the total load Σxᵢ overflows f64 (above 1.8e308); scale the loads down",
            ));
        }
        Ok(Loads { x })
    }

    /// The all-zero vector with `n` bins.
    pub fn zeros(n: usize) -> Result<Loads> {
        Loads::new(vec![0.0; n])
    }

    /// Parses loads separated by commas and/or white space (`1,2,3` or `1 2 3`).
    ///
    /// ```
    /// let x = balloc::loads::Loads::parse("1, 2\n3").unwrap();
    /// assert_eq!(x.n(), 3);
    /// assert!(balloc::loads::Loads::parse("1,x").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Loads> {
        if text.is_ascii() {
            return Loads::new(parse_ascii(text.as_bytes())?);
        }
        let mut x = Vec::new();
        for (i, tok) in text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .enumerate()
        {
            let v: f64 = tok.parse().map_err(|_| {
                Error::invalid(
                    "loads",
                    format!("entry {} is `{tok}`, expected a number", i + 1),
                )
            })?;
            x.push(v);
        }
        Loads::new(x)
    }

    /// The raw loads.
    pub fn as_slice(&self) -> &[f64] {
        &self.x
    }

    /// The number of bins `n`.
    pub fn n(&self) -> usize {
        self.x.len()
    }

    /// The total weight `W = Σ xᵢ`.
    pub fn total(&self) -> f64 {
        self.x.iter().sum()
    }

    /// The mean load `W/n`.
    pub fn mean(&self) -> f64 {
        self.total() / self.n() as f64
    }

    /// The normalised loads `yᵢ = xᵢ − W/n` (so `Σ yᵢ = 0` up to rounding).
    pub fn normalized(&self) -> Vec<f64> {
        let m = self.mean();
        self.x.iter().map(|v| v - m).collect()
    }

    /// The loads as exact rationals (every finite `f64` is a dyadic rational, converted exactly).
    ///
    /// ```
    /// let x = balloc::loads::Loads::new(vec![2.0, 0.5]).unwrap();
    /// assert_eq!(x.exact()[1].to_string(), "1/2");
    /// ```
    pub fn exact(&self) -> Vec<crate::exact::Q> {
        self.x
            .iter()
            .map(|&v| crate::exact::from_float(v).expect("loads are finite"))
            .collect()
    }

    /// The normalised loads `yᵢ = xᵢ − W/n` in exact rationals (`Σ yᵢ = 0` exactly; for integer
    /// loads `y ∈ ℤ/n`).
    ///
    /// ```
    /// use balloc::exact::Q;
    /// let x = balloc::loads::Loads::new(vec![1.0, 0.0, 0.0]).unwrap();
    /// let y = x.normalized_exact();
    /// assert_eq!(y[0], Q::new(2.into(), 3.into()));
    /// assert_eq!(y.iter().sum::<Q>(), Q::from_integer(0.into()));
    /// ```
    pub fn normalized_exact(&self) -> Vec<crate::exact::Q> {
        let x = self.exact();
        let mean: crate::exact::Q =
            x.iter().sum::<crate::exact::Q>() / crate::exact::Q::from_integer(self.n().into());
        x.into_iter().map(|v| v - &mean).collect()
    }

    /// The gap `max xᵢ − W/n` (the quantity bounded by paper A).
    pub fn gap(&self) -> f64 {
        self.max() - self.mean()
    }

    /// The spread `max xᵢ − min xᵢ` (the quantity bounded by paper B).
    pub fn spread(&self) -> f64 {
        self.max() - self.min()
    }

    /// The largest load.
    pub fn max(&self) -> f64 {
        self.x.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    }

    /// The smallest load.
    pub fn min(&self) -> f64 {
        self.x.iter().copied().fold(f64::INFINITY, f64::min)
    }

    /// Adds `w` to bin `j`.
    /// ```
    /// let mut x = balloc::loads::Loads::new(vec![1.0, 4.0]).unwrap();
    /// x.add(0, 2.5); // (3.5, 4)
    /// assert_eq!(x.mean(), 3.75);
    /// assert_eq!((x.max(), x.min()), (4.0, 3.5));
    /// assert!(!x.is_integral());
    /// ```
    pub fn add(&mut self, j: usize, w: f64) {
        self.x[j] += w;
    }

    /// The ranking of the bins, heaviest first, ties by index.
    pub fn ranking(&self) -> Ranking {
        Ranking::new(&self.x)
    }

    /// The distinct loads heaviest first with their multiplicities (the tied groups of the
    /// ranking without the bins): see [`Levels`].
    pub fn levels(&self) -> Levels {
        Levels::new(&self.x)
    }

    /// Whether every load is an integer.
    pub fn is_integral(&self) -> bool {
        self.x.iter().all(|v| v.fract() == 0.0)
    }
}

/// Whether `c` separates loads: a comma or an ASCII character with `char::is_whitespace`.
fn is_separator(c: u8) -> bool {
    matches!(c, b',' | b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// [`Loads::parse`] for ASCII text in one pass over the bytes: a token of at most 15 decimal
/// digits with an optional sign is an integer below 10¹⁵ < 2⁵³, converted exactly (the same
/// number `str::parse::<f64>` gives); every other token goes through `str::parse::<f64>`.
fn parse_ascii(text: &[u8]) -> Result<Vec<f64>> {
    let mut x = Vec::with_capacity(text.len() / 2 + 1);
    let mut i = 0;
    while i < text.len() {
        if is_separator(text[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < text.len() && !is_separator(text[i]) {
            i += 1;
        }
        x.push(parse_token(&text[start..i], x.len())?);
    }
    Ok(x)
}

/// The number of an ASCII token (entry `index`, 0-based, for the error message): see
/// [`parse_ascii`].
#[inline]
fn parse_token(tok: &[u8], index: usize) -> Result<f64> {
    let (neg, digits) = match tok[0] {
        b'-' => (true, &tok[1..]),
        b'+' => (false, &tok[1..]),
        _ => (false, tok),
    };
    if !digits.is_empty() && digits.len() <= 15 && digits.iter().all(u8::is_ascii_digit) {
        let m = digits
            .iter()
            .fold(0u64, |m, &d| m * 10 + u64::from(d - b'0')) as f64;
        return Ok(if neg { -m } else { m });
    }
    // ASCII, so every byte boundary is a char boundary.
    let text = std::str::from_utf8(tok).expect("ASCII is UTF-8");
    text.parse().map_err(|_| {
        Error::invalid(
            "loads",
            format!(
                "entry {} is `{}`, expected a number",
                index + 1,
                excerpt(text)
            ),
        )
    })
}

/// Counts loads by value while they are read: integers in a window of values in a dense array,
/// everything else by the bits of its [`heaviest_first_key`].
struct LevelCounter {
    lo: i64,
    dense: Vec<u64>,
    other: std::collections::HashMap<u64, u64>,
    n: usize,
    total: f64,
    /// The first entry that is not finite (reported after the whole text parsed, as
    /// `Loads::new` does after `Loads::parse` read every token).
    bad: Option<(usize, f64)>,
}

impl LevelCounter {
    /// The widest window of integer values counted densely.
    const WINDOW: usize = 1 << 22;

    fn new() -> LevelCounter {
        LevelCounter {
            lo: 0,
            dense: Vec::new(),
            other: std::collections::HashMap::new(),
            n: 0,
            // The identity `Iterator::sum` starts from, so that the running sum is the same
            // number as `Loads::total`'s left-to-right sum.
            total: std::iter::empty::<f64>().sum(),
            bad: None,
        }
    }

    /// Adds an integer token of at most 15 digits (the common case, kept inline).
    #[inline(always)]
    fn add_digits(&mut self, v: u64) {
        let d = (v as i64).wrapping_sub(self.lo);
        if (d as u64) < self.dense.len() as u64 {
            self.n += 1;
            self.total += v as f64;
            self.dense[d as usize] += 1;
        } else {
            self.add(v as f64);
        }
    }

    /// Adds any number.
    fn add(&mut self, v: f64) {
        if !v.is_finite() {
            self.n += 1;
            self.bad.get_or_insert((self.n, v));
            return;
        }
        self.n += 1;
        self.total += v;
        let i = v as i64;
        if i as f64 == v && i.unsigned_abs() < 1 << 53 {
            let d = i.wrapping_sub(self.lo);
            if d >= 0 && (d as usize) < self.dense.len() {
                self.dense[d as usize] += 1;
                return;
            }
            if self.grow(i) {
                self.dense[(i - self.lo) as usize] += 1;
                return;
            }
        }
        *self.other.entry(heaviest_first_key(v)).or_insert(0) += 1;
    }

    /// Extends the dense window to hold `i` if it stays within [`Self::WINDOW`] values.
    #[cold]
    fn grow(&mut self, i: i64) -> bool {
        if self.dense.is_empty() {
            self.lo = i;
            self.dense = vec![0; 64];
            return true;
        }
        let hi = self.lo + self.dense.len() as i64;
        let (lo, hi) = (self.lo.min(i), hi.max(i + 1));
        if (hi - lo) as usize > Self::WINDOW {
            return false;
        }
        // Grow by at least half the current size on the side that needs it.
        let len = self.dense.len() as i64;
        let (lo, hi) = if i < self.lo {
            (lo.min(self.lo - len / 2).max(hi - Self::WINDOW as i64), hi)
        } else {
            (
                lo,
                hi.max(self.lo + len + len / 2)
                    .min(lo + Self::WINDOW as i64),
            )
        };
        let mut d = vec![0u64; (hi - lo) as usize];
        let shift = (self.lo - lo) as usize;
        d[shift..shift + self.dense.len()].copy_from_slice(&self.dense);
        self.dense = d;
        self.lo = lo;
        true
    }

    fn finish(self) -> Result<Levels> {
        if self.n == 0 {
            return Err(Error::invalid(
                "loads",
                "the load vector is empty (need n ≥ 1)",
            ));
        }
        if let Some((i, v)) = self.bad {
            return Err(Error::invalid(
                "loads",
                format!("entry {i} is {v}, loads must be finite numbers"),
            ));
        }
        let mut by_key: Vec<(u64, u64)> = self.other.into_iter().collect();
        for (d, &c) in self.dense.iter().enumerate() {
            if c > 0 {
                by_key.push((heaviest_first_key((self.lo + d as i64) as f64), c));
            }
        }
        by_key.sort_unstable();
        let (mut values, mut counts) = (Vec::new(), Vec::<usize>::new());
        let mut prev = None;
        for (k, c) in by_key {
            if prev == Some(k) {
                *counts.last_mut().expect("a level exists") += c as usize;
            } else {
                values.push(key_value(k));
                counts.push(c as usize);
                prev = Some(k);
            }
        }
        Ok(Levels {
            values,
            counts,
            n: self.n,
            total: self.total,
        })
    }
}

/// The distinct loads of a load vector, heaviest first, with their multiplicities: the tied
/// groups of [`Ranking`] without the bins. Group `g` holds `counts[g]` bins of load `values[g]`
/// and occupies the 0-based ranks `starts[g]..starts[g] + counts[g]`.
///
/// Integer loads in a range of at most [`Levels::COUNTING_RANGE`] values (or `8n`, whichever is
/// larger) are counted by value in one pass (no sort); other loads are sorted by a monotone key.
/// The total `W` is the same number as [`Loads::total`] (exact for integer loads whose absolute
/// sum stays below 2⁵³, otherwise the same left-to-right sum).
///
/// ```
/// use balloc::loads::Loads;
/// let x = Loads::new(vec![1.0, 5.0, 1.0, 0.0]).unwrap();
/// let l = x.levels();
/// assert_eq!(l.values, vec![5.0, 1.0, 0.0]);
/// assert_eq!(l.counts, vec![1, 2, 1]);
/// assert_eq!(l.starts(), vec![0, 1, 3]);
/// assert_eq!(l.total, 7.0);
/// // The same groups as the ranking's.
/// assert_eq!(x.ranking().groups, vec![0..1, 1..3, 3..4]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Levels {
    /// The distinct loads, heaviest first (`−0.0` and `+0.0` are one level, stored as `+0.0`).
    pub values: Vec<f64>,
    /// How many bins carry each load.
    pub counts: Vec<usize>,
    /// The number of bins `n = Σ counts`.
    pub n: usize,
    /// The total weight `W = Σ xᵢ`.
    pub total: f64,
}

impl Levels {
    /// The largest value range (max − min + 1) counted by value regardless of `n`; beyond it,
    /// ranges up to `8n` (counting costs O(n + range), a table of the range; sorting
    /// O(n log n): a few bins with far-apart loads are sorted).
    pub const COUNTING_RANGE: u64 = 1 << 12;

    /// Whether integer loads of `n` bins in a value range of `range` values are counted by value.
    ///
    /// ```
    /// use balloc::loads::Levels;
    /// assert!(Levels::counts_by_value(4096.0, 64));
    /// assert!(!Levels::counts_by_value(65536.0, 64)); // 64 bins are sorted
    /// assert!(Levels::counts_by_value(65536.0, 10_000));
    /// ```
    pub fn counts_by_value(range: f64, n: usize) -> bool {
        range <= Levels::COUNTING_RANGE.max(8 * n as u64) as f64
    }

    /// The levels of `x` (non-empty, finite entries).
    pub fn new(x: &[f64]) -> Levels {
        let n = x.len();
        if let Some(l) = Levels::by_counting(x) {
            return l;
        }
        let mut keys: Vec<u64> = x.iter().map(|&v| heaviest_first_key(v)).collect();
        keys.sort_unstable();
        let (mut values, mut counts) = (Vec::new(), Vec::<usize>::new());
        let mut prev = None;
        for k in keys {
            if prev == Some(k) {
                *counts.last_mut().expect("a level exists") += 1;
            } else {
                values.push(key_value(k));
                counts.push(1);
                prev = Some(k);
            }
        }
        Levels {
            values,
            counts,
            n,
            total: x.iter().sum(),
        }
    }

    /// The levels of the loads in a text stream (numbers separated by commas or white space, as
    /// [`Loads::parse`] reads them), counted while reading in blocks of 1 MiB: memory
    /// O(distinct loads) instead of 8 bytes per bin. The result is the same as
    /// `Loads::parse(text)?.levels()` (same values, counts and total `W`; same errors, with the
    /// input quoted by a short excerpt). `Ok(None)` when the text is not ASCII (the caller then
    /// reads it whole).
    ///
    /// ```
    /// use balloc::loads::{Levels, Loads};
    /// let text = "3, 1 1\n0 3,2.5 -0 0";
    /// let l = Levels::read(text.as_bytes()).unwrap().unwrap();
    /// assert_eq!(l, Loads::parse(text).unwrap().levels());
    /// assert_eq!(l.values, vec![3.0, 2.5, 1.0, 0.0]);
    /// assert_eq!(l.counts, vec![2, 1, 2, 3]);
    /// assert!(Levels::read("1 x".as_bytes()).is_err());
    /// ```
    pub fn read<R: std::io::Read>(mut r: R) -> Result<Option<Levels>> {
        const BLOCK: usize = 1 << 20;
        let mut c = LevelCounter::new();
        let mut buf: Vec<u8> = Vec::with_capacity(BLOCK);
        let mut eof = false;
        while !eof {
            // Append up to a block after the carried partial token.
            let start = buf.len();
            buf.resize(start + BLOCK, 0);
            let got = loop {
                match r.read(&mut buf[start..]) {
                    Ok(k) => break k,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(Error::invalid("loads", e.to_string())),
                }
            };
            buf.truncate(start + got);
            eof = got == 0;
            if !buf[start..].is_ascii() {
                return Ok(None);
            }
            // Tokens up to the last separator are complete (all of them at the end of input).
            let end = if eof {
                buf.len()
            } else {
                match buf.iter().rposition(|&b| is_separator(b)) {
                    Some(p) => p + 1,
                    None => continue,
                }
            };
            let text = &buf[..end];
            let mut i = 0;
            while i < text.len() {
                if is_separator(text[i]) {
                    i += 1;
                    continue;
                }
                let s0 = i;
                let mut v: u64 = 0;
                while i < text.len() && text[i].is_ascii_digit() {
                    v = v.wrapping_mul(10).wrapping_add(u64::from(text[i] - b'0'));
                    i += 1;
                }
                if (i == text.len() || is_separator(text[i])) && i > s0 && i - s0 <= 15 {
                    // The common token: up to 15 digits, no sign (exactly `parse_token`'s value).
                    c.add_digits(v);
                    continue;
                }
                while i < text.len() && !is_separator(text[i]) {
                    i += 1;
                }
                c.add(parse_token(&text[s0..i], c.n)?);
            }
            buf.drain(..end);
        }
        c.finish().map(Some)
    }

    /// Counting by value for integer loads in a small range; `None` otherwise.
    fn by_counting(x: &[f64]) -> Option<Levels> {
        Levels::of_integral(x.iter().copied())
    }

    /// The levels of loads given one by one (e.g. from an array buffer, with no vector of n
    /// loads) when every load is an integer in a range that is counted by value
    /// ([`Levels::counts_by_value`]): the same levels as `Loads::new(x).levels()`; `None`
    /// otherwise (a fraction, a non-finite entry, a wide range, no entry: the caller then builds
    /// the [`Loads`], which also gives every error message).
    ///
    /// ```
    /// use balloc::loads::{Levels, Loads};
    /// let x = [3.0, 1.0, 1.0, -0.0, 3.0, -2.0];
    /// let lv = Levels::of_integral(x.iter().copied()).unwrap();
    /// assert_eq!(lv, Loads::new(x.to_vec()).unwrap().levels());
    /// assert_eq!(lv.values, vec![3.0, 1.0, 0.0, -2.0]);
    /// assert!(Levels::of_integral([0.5, 1.0].into_iter()).is_none());
    /// assert!(Levels::of_integral([f64::NAN].into_iter()).is_none());
    /// ```
    pub fn of_integral(x: impl Iterator<Item = f64> + Clone) -> Option<Levels> {
        // One pass: each load is counted into a window of consecutive integer values that grows
        // (at least doubling) when a load falls outside it; the pass stops at the first
        // non-integer load, or as soon as the loads seen span more values than are counted by
        // value (`n` is known in advance from the exact length of slice iterators; other
        // iterators take the two-pass route).
        let n = match x.size_hint() {
            (lo, Some(hi)) if lo == hi => lo,
            _ => return Levels::of_integral_two_pass(x),
        };
        let limit = Levels::COUNTING_RANGE.max(8 * n as u64);
        let mut it = x.clone();
        let first = it.next()?;
        let f = first as i64;
        // `(v as i64) as f64 == v` holds for the integers up to 2⁶³ in magnitude and for nothing
        // else (NaN and ±∞ included).
        if f as f64 != first {
            return None;
        }
        let (mut lo, mut hi) = (f, f);
        let mut base = f.saturating_sub(32);
        let mut count = vec![0usize; 64];
        count[(f - base) as usize] += 1;
        for v in it {
            let k = v as i64;
            if k as f64 != v {
                return None;
            }
            lo = lo.min(k);
            hi = hi.max(k);
            let d = k.wrapping_sub(base) as u64;
            if d >= count.len() as u64 {
                // The span hi − lo + 1 (as i128: the loads may be ±2⁶³ apart).
                if (hi as i128 - lo as i128 + 1) as f64 > limit as f64 {
                    return None;
                }
                let len = (count.len() as i64 * 2).max(hi - lo + 1).min(limit as i64);
                let new_base = if k < base {
                    (hi - len + 1).min(lo)
                } else {
                    base.min(lo)
                };
                let mut grown = vec![0usize; (len.max(hi - new_base + 1)) as usize];
                let shift = (base - new_base) as usize;
                let keep = count.len().min(grown.len() - shift);
                grown[shift..shift + keep].copy_from_slice(&count[..keep]);
                count = grown;
                base = new_base;
            }
            count[(k - base) as usize] += 1;
        }
        Levels::from_window(x, n, base, lo, hi, &count)
    }

    /// The two-pass form of [`Levels::of_integral`] (the range first, then the counts) for
    /// iterators whose length is not known in advance.
    fn of_integral_two_pass(x: impl Iterator<Item = f64> + Clone) -> Option<Levels> {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        let mut integral = true;
        let mut n = 0usize;
        for v in x.clone() {
            // Branch-free; see `of_integral` for the integrality test.
            lo = if v < lo { v } else { lo };
            hi = if v > hi { v } else { hi };
            integral &= (v as i64) as f64 == v;
            n += 1;
        }
        if n == 0 || !integral || !Levels::counts_by_value(hi - lo + 1.0, n) {
            return None;
        }
        let mut count = vec![0usize; (hi - lo) as usize + 1];
        for v in x.clone() {
            // Exact: v − lo is an integer in 0..=hi − lo.
            count[(v - lo) as usize] += 1;
        }
        Levels::from_window(x, n, lo as i64, lo as i64, hi as i64, &count)
    }

    /// The levels from counts by value: `count[d]` loads equal `base + d`, all in `lo..=hi`.
    fn from_window(
        x: impl Iterator<Item = f64>,
        n: usize,
        base: i64,
        lo: i64,
        hi: i64,
        count: &[usize],
    ) -> Option<Levels> {
        let (mut values, mut counts) = (Vec::new(), Vec::new());
        let window = &count[(lo - base) as usize..=(hi - base) as usize];
        for (d, &c) in window.iter().enumerate().rev() {
            if c > 0 {
                values.push((lo + d as i64) as f64);
                counts.push(c);
            }
        }
        // Every partial sum of integers with Σ|xᵢ| < 2⁵³ is exact, so Σ value·count is the same
        // number as the left-to-right sum of `Loads::total`.
        let (lo, hi) = (lo as f64, hi as f64);
        let total = if lo.abs().max(hi.abs()) * (n as f64) < 9_007_199_254_740_992.0 {
            values.iter().zip(&counts).map(|(v, &c)| v * c as f64).sum()
        } else {
            x.sum()
        };
        Some(Levels {
            values,
            counts,
            n,
            total,
        })
    }

    /// The number of distinct loads.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there is no level (never for a [`Loads`]).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The mean load `W/n` (the same number as [`Loads::mean`]).
    pub fn mean(&self) -> f64 {
        self.total / self.n as f64
    }

    /// The first 0-based rank of each level.
    pub fn starts(&self) -> Vec<usize> {
        let mut s = Vec::with_capacity(self.counts.len());
        let mut acc = 0;
        for &c in &self.counts {
            s.push(acc);
            acc += c;
        }
        s
    }
}

/// The bins sorted heaviest first (ties by index), with the tied groups.
///
/// ```
/// use balloc::loads::Loads;
/// let r = Loads::new(vec![1.0, 5.0, 1.0, 0.0]).unwrap().ranking();
/// assert_eq!(r.order, vec![1, 0, 2, 3]);
/// assert_eq!(r.groups, vec![0..1, 1..3, 3..4]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Ranking {
    /// `order[r]` is the bin of rank `r + 1` (0-based rank `r`).
    pub order: Vec<usize>,
    /// The tied groups as ranges of 0-based ranks, heaviest group first.
    pub groups: Vec<std::ops::Range<usize>>,
    /// `group_of[r]` is the index in `groups` of the group containing 0-based rank `r`.
    pub group_of: Vec<usize>,
}

impl Ranking {
    /// Sorts the bins heaviest first, ties by index, and finds the tied groups.
    pub fn new(x: &[f64]) -> Ranking {
        let keys: Vec<u64> = x.iter().map(|&v| heaviest_first_key(v)).collect();
        // Integer loads in a small range: a stable counting sort by value (one pass to count,
        // one to place); otherwise the radix sort of the monotone keys.
        // Loads already heaviest first (level states, sorted searches) need no sort: with ties
        // by index the order is the identity. The test stops at the first bin out of order.
        let order = if keys.windows(2).all(|w| w[0] <= w[1]) {
            (0..x.len()).collect()
        } else {
            match integer_range(x) {
                Some((lo, hi)) if x.len() > 1024 => counting_order(x, lo, hi),
                _ => radix_order(&keys),
            }
        };
        let mut groups = Vec::new();
        let mut group_of = vec![0; x.len()];
        let mut start = 0;
        for r in 1..=x.len() {
            if r == x.len() || keys[order[r]] != keys[order[start]] {
                for g in group_of.iter_mut().take(r).skip(start) {
                    *g = groups.len();
                }
                groups.push(start..r);
                start = r;
            }
        }
        Ranking {
            order,
            groups,
            group_of,
        }
    }

    /// Applies a rank-indexed allocation vector `p` (rank 1 first) to the bins under a tie rule
    /// and returns the per-bin probabilities.
    ///
    /// ```
    /// use balloc::loads::{Loads, TieRule};
    /// let r = Loads::new(vec![0.0, 0.0]).unwrap().ranking();
    /// // Two-Choice at n = 2 has p = (1/4, 3/4); two tied bins share it equally.
    /// assert_eq!(r.per_bin(&[0.25, 0.75], TieRule::Random), vec![0.5, 0.5]);
    /// assert_eq!(r.per_bin(&[0.25, 0.75], TieRule::Fixed), vec![0.25, 0.75]);
    /// ```
    pub fn per_bin<T>(&self, p: &[T], ties: TieRule) -> Vec<T>
    where
        T: Clone + num_traits::Zero + std::ops::Div<Output = T> + crate::exact::FromMachineInt,
    {
        let n = self.order.len();
        let mut out = vec![T::zero(); n];
        match ties {
            TieRule::Fixed => {
                for (r, &bin) in self.order.iter().enumerate() {
                    out[bin] = p[r].clone();
                }
            }
            TieRule::Random => {
                for g in &self.groups {
                    let mut s = T::zero();
                    for v in &p[g.clone()] {
                        s = s + v.clone();
                    }
                    let avg = s / T::from_usize(g.len()).expect("group size is representable");
                    for r in g.clone() {
                        out[self.order[r]] = avg.clone();
                    }
                }
            }
        }
        out
    }

    /// Sorts per-bin values into rank order (heaviest bin first).
    /// ```
    /// let x = balloc::loads::Loads::new(vec![1.0, 5.0, 0.0]).unwrap();
    /// // Ranks heaviest first: bin 1 (load 5), bin 0 (load 1), bin 2 (load 0).
    /// assert_eq!(x.ranking().by_rank(&["a", "b", "c"]), vec!["b", "a", "c"]);
    /// ```
    pub fn by_rank<T: Clone>(&self, per_bin: &[T]) -> Vec<T> {
        self.order.iter().map(|&b| per_bin[b].clone()).collect()
    }
}

/// A `u64` whose ascending order is the descending order of the load `v` (IEEE-754 bits made
/// monotone; `−0.0` and `+0.0` share a key, so they are tied).
fn heaviest_first_key(v: f64) -> u64 {
    let bits = (v + 0.0).to_bits();
    let ascending = if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    };
    !ascending
}

/// The smallest and largest load when every load is an integer and the range `max − min + 1`
/// is at most `max(`[`Levels::COUNTING_RANGE`]`, 8n)` (so counting by value costs O(n)).
fn integer_range(x: &[f64]) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut integral = true;
    for &v in x {
        // Branch-free comparisons and a truncating conversion (no libm call per entry):
        // `(v as i64) as f64 == v` holds for every integer of magnitude at most 2⁶³ and for no
        // other number (the cast truncates, and saturates beyond ±2⁶³); larger integers take the
        // sorting path.
        lo = if v < lo { v } else { lo };
        hi = if v > hi { v } else { hi };
        integral &= (v as i64) as f64 == v;
    }
    (integral && Levels::counts_by_value(hi - lo + 1.0, x.len())).then_some((lo, hi))
}

/// `count[d]` = the number of loads equal to `lo + d`, for integer loads in `lo..=hi`.
fn count_by_value(x: &[f64], lo: f64, hi: f64) -> Vec<usize> {
    let mut count = vec![0usize; (hi - lo) as usize + 1];
    for &v in x {
        // Exact: v − lo is an integer in 0..=hi − lo.
        count[(v - lo) as usize] += 1;
    }
    count
}

/// The stable order heaviest first of integer loads in `lo..=hi`, by counting (ties by index).
fn counting_order(x: &[f64], lo: f64, hi: f64) -> Vec<usize> {
    let count = count_by_value(x, lo, hi);
    // pos[d]: the first 0-based rank of load lo + d (heavier loads come first).
    let mut pos = vec![0usize; count.len()];
    let mut acc = 0;
    for d in (0..count.len()).rev() {
        pos[d] = acc;
        acc += count[d];
    }
    let mut order = vec![0usize; x.len()];
    for (i, &v) in x.iter().enumerate() {
        let d = (v - lo) as usize;
        order[pos[d]] = i;
        pos[d] += 1;
    }
    order
}

/// The load whose [`heaviest_first_key`] is `k` (`+0.0` for the shared key of `±0.0`).
fn key_value(k: u64) -> f64 {
    let ascending = !k;
    let bits = if ascending >> 63 == 1 {
        ascending & !(1 << 63)
    } else {
        !ascending
    };
    f64::from_bits(bits)
}

/// The indices `0..keys.len()` sorted by key, ties by index: a stable LSD radix sort with 11-bit
/// digits that skips the digits on which all keys agree (O(n) per distinct digit; integer loads
/// differ in only two or three digits).
fn radix_order(keys: &[u64]) -> Vec<usize> {
    const BITS: usize = 11;
    const BUCKETS: usize = 1 << BITS;
    const DIGITS: usize = 64_usize.div_ceil(BITS);
    let n = keys.len();
    if n <= 1024 {
        // Small vectors: a comparison sort of (key, index) pairs is cheaper than clearing the
        // 2¹¹-entry bucket arrays of every radix pass; the index makes the order the same.
        let mut pairs: Vec<(u64, usize)> = keys.iter().copied().zip(0..n).collect();
        pairs.sort_unstable();
        return pairs.into_iter().map(|(_, i)| i).collect();
    }
    // The bits in which some key differs from the first; only digits containing one need a pass.
    let first = keys.first().copied().unwrap_or(0);
    let varying = keys.iter().fold(0u64, |m, &k| m | (k ^ first));
    let active: Vec<usize> = (0..DIGITS)
        .filter(|d| (varying >> (d * BITS)) & (BUCKETS as u64 - 1) != 0)
        .collect();
    let mut cur: Vec<(u64, usize)> = keys.iter().copied().zip(0..n).collect();
    if active.is_empty() {
        return (0..n).collect();
    }
    let mut tmp = cur.clone();
    for d in active {
        let mut c = [0usize; BUCKETS];
        for &k in keys {
            c[((k >> (d * BITS)) as usize) & (BUCKETS - 1)] += 1;
        }
        let mut pos = [0usize; BUCKETS];
        let mut acc = 0;
        for (p, &m) in pos.iter_mut().zip(c.iter()) {
            *p = acc;
            acc += m;
        }
        for &(k, i) in &cur {
            let b = ((k >> (d * BITS)) as usize) & (BUCKETS - 1);
            tmp[pos[b]] = (k, i);
            pos[b] += 1;
        }
        std::mem::swap(&mut cur, &mut tmp);
    }
    cur.into_iter().map(|(_, i)| i).collect()
}
