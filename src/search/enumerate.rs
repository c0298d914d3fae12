//! Exhaustive enumeration (docs/derivations.md §6, F9): every sorted (non-increasing) integer load vector with
//! minimum 0 and maximum at most `max_load`. Up to relabelling of the bins and translation (the
//! claims see only `y = x − W/n`, and the random tie rule is symmetric), this is every integer
//! load vector with spread at most `max_load`.

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
