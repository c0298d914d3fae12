//! Exhaustive enumeration (docs/derivations.md §6, F9): every sorted (non-increasing) integer load vector with
//! minimum 0 and maximum at most `max_load`. Up to relabelling of the bins and translation (the
//! claims see only `y = x − W/n`, and the random tie rule is symmetric), this is every integer
//! load vector with spread at most `max_load`.
//!
//! With a [`Screen`] ([`enumerate_sorted_screened`]) the walk tells the screen each entry as it
//! fixes it, so that a screen keeping sums of the prefix bounds the claim's slack at every vector
//! in time independent of `n`; the search evaluates in full only the vectors the bounds do not
//! clear ([`crate::search::run`]).

/// Calls `f` on every non-increasing integer vector of length `n` with last entry 0 and first
/// entry at most `max_load`; stops early when `f` returns `false`. Returns the number visited.
///
/// ```
/// use balloc::search::enumerate_sorted;
/// let mut all = Vec::new();
/// enumerate_sorted(3, 2, &mut |x| { all.push(x.to_vec()); true });
/// // C(2 + 2, 2) = 6 vectors: (0,0,0) (1,0,0) (1,1,0) (2,0,0) (2,1,0) (2,2,0)
/// assert_eq!(all.len(), 6);
/// assert!(all.contains(&vec![2.0, 1.0, 0.0]));
/// ```
pub fn enumerate_sorted(n: usize, max_load: u32, f: &mut dyn FnMut(&[f64]) -> bool) -> u64 {
    if n == 0 {
        return 0;
    }
    let mut x = vec![0.0; n];
    let mut count = 0;
    rec(&mut x, 0, max_load, f, &mut count);
    count
}

fn rec(
    x: &mut [f64],
    i: usize,
    cap: u32,
    f: &mut dyn FnMut(&[f64]) -> bool,
    count: &mut u64,
) -> bool {
    let n = x.len();
    if i == n - 1 {
        x[i] = 0.0;
        *count += 1;
        return f(x);
    }
    for v in 0..=cap {
        x[i] = v as f64;
        if !rec(x, i + 1, v, f, count) {
            return false;
        }
    }
    true
}

/// The number of vectors [`enumerate_sorted`] visits: `C(max_load + n − 1, n − 1)`.
///
/// ```
/// assert_eq!(balloc::search::enumeration_size(3, 2), 6);
/// assert_eq!(balloc::search::enumeration_size(6, 8), 1287); // C(13, 5)
/// ```
pub fn enumeration_size(n: usize, max_load: u32) -> u128 {
    if n == 0 {
        return 0;
    }
    let (a, k) = (max_load as u128 + n as u128 - 1, n as u128 - 1);
    let mut r: u128 = 1;
    for j in 0..k {
        r = r * (a - j) / (j + 1);
    }
    r
}

/// Bounds on a claim's slack at sorted vectors, from sums the screen extends entry by entry.
pub trait Screen {
    /// Entry `i` of the vector (heaviest first) is now `v`; the entries before `i` are as last
    /// set, those after `i` not yet set.
    fn set(&mut self, i: usize, v: f64);
    /// At a complete vector: `(lo, hi)` with the slack that the claim's own float evaluation
    /// gives within `[lo, hi]`, or `None` where the screen cannot tell (the vector is then
    /// evaluated in full).
    fn slack(&mut self) -> Option<(f64, f64)>;
}

/// What [`enumerate_sorted_screened`] calls at each vector: the vector and the screen's bounds on
/// its slack; `false` stops the walk.
pub type ScreenedVisit<'a> = dyn FnMut(&[f64], Option<(f64, f64)>) -> bool + 'a;

/// [`enumerate_sorted`] with a screen: `f` receives each vector with the screen's bounds on its
/// slack. Returns the number of vectors visited.
///
/// ```
/// use balloc::search::{enumerate_sorted_screened, Screen};
/// // The slack of `max x <= 1` is 1 − x₀, exactly: the screen reads the first entry.
/// struct First(f64);
/// impl Screen for First {
///     fn set(&mut self, i: usize, v: f64) { if i == 0 { self.0 = v; } }
///     fn slack(&mut self) -> Option<(f64, f64)> { Some((1.0 - self.0, 1.0 - self.0)) }
/// }
/// let mut bad = 0;
/// let n = enumerate_sorted_screened(3, 2, &mut First(0.0), &mut |_, b| {
///     if b.unwrap().0 < 0.0 { bad += 1; }
///     true
/// });
/// // 6 vectors; those with x₀ = 2: (2,0,0) (2,1,0) (2,2,0).
/// assert_eq!((n, bad), (6, 3));
/// ```
pub fn enumerate_sorted_screened(
    n: usize,
    max_load: u32,
    screen: &mut dyn Screen,
    f: &mut ScreenedVisit<'_>,
) -> u64 {
    if n == 0 {
        return 0;
    }
    let mut x = vec![0.0; n];
    let mut count = 0;
    rec_screened(&mut x, 0, max_load, screen, f, &mut count);
    count
}

fn rec_screened(
    x: &mut [f64],
    i: usize,
    cap: u32,
    screen: &mut dyn Screen,
    f: &mut ScreenedVisit<'_>,
    count: &mut u64,
) -> bool {
    let n = x.len();
    if i == n - 1 {
        x[i] = 0.0;
        screen.set(i, 0.0);
        *count += 1;
        let b = screen.slack();
        return f(x, b);
    }
    for v in 0..=cap {
        x[i] = v as f64;
        screen.set(i, x[i]);
        if !rec_screened(x, i + 1, v, screen, f, count) {
            return false;
        }
    }
    true
}
