//! The grouped (per load level) routes against the per-bin routes they replace.
//!
//! * [`Loads::levels`] (counting by value or sorting keys) against the tied groups of the
//!   per-bin [`Loads::ranking`];
//! * the counting-sort ranking of integer loads against a comparison sort of `(−x, index)`;
//! * every rank-based process's `rank_range_probabilities` (cumulative closed forms) against sums
//!   of its exact rational rank vector;
//! * [`expect_levels`] (one evaluation per level) against [`expect_law`] on the per-bin step law,
//!   for Φ, Ψ, Γ, every rank-based process, finite and continuous weights, batches and both tie
//!   rules, on random vectors with random ties, all-distinct and all-equal loads; and against the
//!   brute-force enumerator on small vectors;
//! * the byte-level loads parser against `str::parse::<f64>` token by token.

use balloc::exact::Q;
use balloc::expectation::{Method, brute_force, expect, expect_law, expect_levels};
use balloc::loads::{Levels, Loads, TieRule};
use balloc::potential::{self, Potential};
use balloc::process::{self, LevelLaw, Process};
use balloc::setting::Setting;
use balloc::weights::WeightLaw;
use num_traits::ToPrimitive;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn rank_based() -> Vec<Box<dyn Process>> {
    [
        "one-choice",
        "two-choice",
        "d-choice(d=3)",
        "d-choice(d=7)",
        "one-plus-beta(beta=0.5)",
        "one-plus-beta(beta=0.3)",
        "quantile(delta=0.25)",
    ]
    .iter()
    .map(|s| process::parse(s).unwrap())
    .collect()
}

fn exponentials() -> Vec<Box<dyn Potential>> {
    [
        "phi(alpha=0.3)",
        "psi(alpha=0.3)",
        "gamma(alpha=0.1)",
        "gamma(alpha=2)",
    ]
    .iter()
    .map(|s| potential::parse(s).unwrap())
    .collect()
}

/// `|a − b| ≤ tol·max(|a|, |b|)`.
fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * a.abs().max(b.abs())
}

/// Random test vectors of `n` bins, each kind with its own generator: integer loads with many
/// ties, all-distinct integers, all-equal loads, non-integer loads with fixed ties (a few
/// distinct fractions), all-distinct reals, and integers spread over a range too wide to count.
fn vectors(n: usize, seed: u64) -> Vec<(&'static str, Vec<f64>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut perm: Vec<f64> = (0..n).map(|i| i as f64 * 3.0 - 7.0).collect();
    for i in (1..n).rev() {
        perm.swap(i, rng.random_range(0..=i));
    }
    vec![
        (
            "random ties",
            (0..n).map(|_| rng.random_range(0..5u32) as f64).collect(),
        ),
        ("all distinct", perm),
        ("all equal", vec![17.0; n]),
        (
            "fractional ties",
            (0..n)
                .map(|_| [0.25, 1.5, -2.75][rng.random_range(0..3usize)])
                .collect(),
        ),
        (
            "distinct reals",
            (0..n).map(|_| rng.random::<f64>() * 10.0 - 5.0).collect(),
        ),
        (
            "wide integers",
            (0..n)
                .map(|_| [0.0, 1e9, 5e12][rng.random_range(0..3usize)])
                .collect(),
        ),
    ]
}

/// The reference ranking: a comparison sort of the bins by (load descending, index).
fn reference_order(x: &[f64]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..x.len()).collect();
    idx.sort_by(|&a, &b| x[b].partial_cmp(&x[a]).unwrap().then(a.cmp(&b)));
    idx
}

#[test]
fn levels_are_the_tied_groups_of_the_ranking() {
    for n in [1, 2, 7, 64, 1500] {
        for (kind, x) in vectors(n, n as u64) {
            let loads = Loads::new(x.clone()).unwrap();
            let r = loads.ranking();
            let l = loads.levels();
            assert_eq!(l.n, n);
            assert_eq!(l.len(), r.groups.len(), "{kind}, n = {n}");
            for (g, range) in r.groups.iter().enumerate() {
                assert_eq!(l.counts[g], range.len(), "{kind}, n = {n}");
                assert_eq!(l.values[g], x[r.order[range.start]], "{kind}, n = {n}");
                assert_eq!(l.starts()[g], range.start);
            }
            // The same total bit for bit, so the normalised loads are the same numbers.
            assert_eq!(
                l.total.to_bits(),
                loads.total().to_bits(),
                "{kind}, n = {n}"
            );
            assert_eq!(l.mean().to_bits(), loads.mean().to_bits());
        }
    }
}

#[test]
fn signed_zeros_form_one_level() {
    let x = Loads::new(vec![0.0, -0.0, 1.0, -0.0]).unwrap();
    let l = x.levels();
    assert_eq!(l.values, vec![1.0, 0.0]);
    assert_eq!(l.counts, vec![1, 3]);
    // The sort path (a non-integer load) agrees.
    let l = Loads::new(vec![0.0, -0.0, 1.5, -0.0]).unwrap().levels();
    assert_eq!(l.values, vec![1.5, 0.0]);
    assert_eq!(l.counts, vec![1, 3]);
}

/// The levels by a comparison sort (the reference for counting by value): distinct values
/// heaviest first with their multiplicities (−0 and +0 one level, written +0).
fn sorted_levels(x: &[f64]) -> (Vec<f64>, Vec<usize>) {
    let mut v: Vec<f64> = x.iter().map(|&a| a + 0.0).collect();
    v.sort_by(|a, b| b.partial_cmp(a).unwrap());
    let (mut values, mut counts) = (Vec::<f64>::new(), Vec::new());
    for a in v {
        if values.last() == Some(&a) {
            *counts.last_mut().unwrap() += 1;
        } else {
            values.push(a);
            counts.push(1);
        }
    }
    (values, counts)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Counting by value in one pass (a window that grows both ways) and in two passes (an
    /// iterator of unknown length) give the sorted levels, or `None` exactly when the loads span
    /// more values than are counted by value (max(4096, 8n)).
    #[test]
    fn counted_levels_equal_the_sorted_levels(
        v in prop::collection::vec(prop_oneof![-300i64..300, -20_000i64..20_000, Just(5_000_000)], 1..400),
        scale in prop::sample::select(vec![1i64, 7, 64]),
        off in prop::sample::select(vec![0i64, -1_000_000, 1 << 40]),
    ) {
        let x: Vec<f64> = v.iter().map(|&a| (a * scale + off) as f64).collect();
        let (lo, hi) = x.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &a| (l.min(a), h.max(a)));
        let counted = hi - lo + 1.0 <= 4096f64.max(8.0 * x.len() as f64);
        let one = Levels::of_integral(x.iter().copied());
        let two = Levels::of_integral(x.iter().copied().filter(|_| true));
        prop_assert_eq!(&one, &two);
        prop_assert_eq!(one.is_some(), counted);
        if let Some(l) = one {
            let (values, counts) = sorted_levels(&x);
            prop_assert_eq!(&l.values, &values);
            prop_assert_eq!(&l.counts, &counts);
            prop_assert_eq!(l.n, x.len());
            prop_assert_eq!(l.total.to_bits(), Loads::new(x.clone()).unwrap().total().to_bits());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Above 1024 bins integer loads are ranked by counting; the order must be the stable one.
    #[test]
    fn counting_ranking_equals_comparison_sort(
        v in prop::collection::vec(-40i32..40, 1025..2500),
        off in prop::sample::select(vec![0.0, -0.0, 1e6, -3e15]),
    ) {
        let x: Vec<f64> = v.iter().map(|&a| a as f64 + off).collect();
        let r = Loads::new(x.clone()).unwrap().ranking();
        prop_assert_eq!(&r.order, &reference_order(&x));
        let l = Loads::new(x.clone()).unwrap().levels();
        prop_assert_eq!(l.len(), r.groups.len());
    }

    /// Loads already heaviest first are ranked without a sort (the order is the identity); the
    /// order must still be the stable one, with ties and zeros of either sign, and the same after
    /// one swap puts a bin out of order.
    #[test]
    fn presorted_ranking_equals_comparison_sort(
        v in prop::collection::vec((-6i32..6, any::<bool>()), 1..60),
        swap in any::<prop::sample::Index>(),
    ) {
        let mut x: Vec<f64> = v
            .iter()
            .map(|&(a, neg)| if a == 0 && neg { -0.0 } else { a as f64 / 2.0 })
            .collect();
        x.sort_by(|a, b| b.partial_cmp(a).unwrap());
        let r = Loads::new(x.clone()).unwrap().ranking();
        prop_assert_eq!(&r.order, &(0..x.len()).collect::<Vec<_>>());
        prop_assert_eq!(&r.order, &reference_order(&x));
        let i = swap.index(x.len());
        x.swap(0, i);
        let r = Loads::new(x.clone()).unwrap().ranking();
        prop_assert_eq!(&r.order, &reference_order(&x));
    }

    /// The fast parser reads the same numbers as `str::parse::<f64>` on every token.
    #[test]
    fn loads_parser_equals_str_parse(
        toks in prop::collection::vec(
            prop_oneof![
                any::<i64>().prop_map(|v| (v % 10_000_000_000_000_000).to_string()),
                (0u64..1000).prop_map(|v| format!("+{v}")),
                (0u64..1000).prop_map(|v| format!("-{v}")),
                any::<f64>()
                    .prop_filter("finite, within the accepted ±MAX/2", |v| v.abs() <= f64::MAX / 2.0)
                    .prop_map(|v| v.to_string()),
                (0u32..100).prop_map(|v| format!("{v}.0")),
                (0u32..100).prop_map(|v| format!("{v}e3")),
                Just("007".to_string()),
                Just("-0".to_string()),
                Just("123456789012345678".to_string()),
            ],
            1..40,
        ),
        seps in prop::collection::vec(
            prop::sample::select(vec![",", " ", "\n", "\r\n", "\t", ", ", ",,", "\u{b}", "\u{c}"]),
            40,
        ),
    ) {
        let mut text = String::new();
        for (t, s) in toks.iter().zip(&seps) {
            text.push_str(t);
            text.push_str(s);
        }
        let parsed = Loads::parse(&text).unwrap();
        let want: Vec<f64> = toks.iter().map(|t| t.parse::<f64>().unwrap()).collect();
        prop_assert_eq!(parsed.n(), want.len());
        for (a, b) in parsed.as_slice().iter().zip(&want) {
            prop_assert_eq!(a.to_bits(), b.to_bits(), "{} vs {}", a, b);
        }
    }
}

/// A reader that hands out its bytes in pieces of the given sizes, so that tokens straddle reads.
struct Pieces<'a> {
    data: &'a [u8],
    sizes: Vec<usize>,
    i: usize,
}

impl std::io::Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let k = self.sizes[self.i % self.sizes.len()]
            .min(buf.len())
            .min(self.data.len());
        self.i += 1;
        buf[..k].copy_from_slice(&self.data[..k]);
        self.data = &self.data[k..];
        Ok(k)
    }
}

/// The levels of parsed numbers by brute force: a map keyed by value with `−0` merged into
/// `+0`, heaviest first, and the left-to-right sum.
fn brute_levels(x: &[f64]) -> Levels {
    let mut m: std::collections::BTreeMap<i64, (f64, usize)> = Default::default();
    for &v in x {
        let v = v + 0.0; // −0 + 0 = +0
        // A total order on finite floats: the sign-magnitude bits made monotone.
        let b = v.to_bits() as i64;
        let key = if b < 0 { !(b & i64::MAX) } else { b };
        m.entry(key).or_insert((v, 0)).1 += 1;
    }
    let (values, counts) = m.values().rev().copied().unzip();
    Levels {
        values,
        counts,
        n: x.len(),
        total: x.iter().sum(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Counting while reading gives the levels of the parsed vector, whatever the piece sizes
    /// of the reads and however far apart the values are.
    #[test]
    fn streamed_levels_equal_parsed_levels(
        toks in prop::collection::vec(
            prop_oneof![
                (0u32..60).prop_map(|v| v.to_string()),
                (-5i64..5).prop_map(|v| v.to_string()),
                any::<i64>().prop_map(|v| (v % 10_000_000_000_000_000).to_string()),
                (0u32..100).prop_map(|v| format!("{v}.5")),
                any::<f64>()
                    .prop_filter("finite, within the accepted ±MAX/2", |v| v.abs() <= f64::MAX / 2.0)
                    .prop_map(|v| v.to_string()),
                Just("-0".to_string()),
                Just("+7".to_string()),
                Just("1e3".to_string()),
                Just("123456789012345678".to_string()),
            ],
            1..200,
        ),
        seps in prop::collection::vec(
            prop::sample::select(vec![",", " ", "\n", "\r\n", "\t", ", ", ",,", "\u{b}"]),
            200,
        ),
        sizes in prop::collection::vec(1usize..9, 1..5),
    ) {
        let mut text = String::new();
        for (t, s) in toks.iter().zip(&seps) {
            text.push_str(t);
            text.push_str(s);
        }
        let reader = Pieces { data: text.as_bytes(), sizes, i: 0 };
        let streamed = Levels::read(reader).unwrap().unwrap();
        let parsed: Vec<f64> = toks.iter().map(|t| t.parse::<f64>().unwrap()).collect();
        let want = brute_levels(&parsed);
        prop_assert_eq!(&streamed.values, &want.values);
        prop_assert_eq!(&streamed.counts, &want.counts);
        prop_assert_eq!(streamed.n, want.n);
        prop_assert_eq!(streamed.total.to_bits(), want.total.to_bits());
        prop_assert_eq!(&streamed, &Loads::parse(&text).unwrap().levels());
    }
}

#[test]
fn streamed_levels_give_the_same_errors_with_short_excerpts() {
    for text in [
        "1, 2,x,4", "1 2 3-", "inf 1 x", "1 inf 2", "1 NaN", " , \n", "",
    ] {
        let a = Loads::parse(text).unwrap_err().to_string();
        let b = Levels::read(text.as_bytes()).unwrap_err().to_string();
        assert_eq!(a, b, "{text:?}");
    }
    // A 1 MB token is quoted by a short excerpt (its beginning and end) and its length.
    let mut text = "1 2 ".to_string();
    text.push_str(&"9".repeat(1_000_000));
    text.push('x');
    let e = Levels::read(text.as_bytes()).unwrap_err().to_string();
    assert!(
        e.contains("entry 3 is `9999") && e.contains("(1000001 characters)"),
        "{e}"
    );
    assert!(e.len() < 200, "{} bytes", e.len());
    assert_eq!(e, Loads::parse(&text).unwrap_err().to_string());
    // Not ASCII: declined (the caller reads the text whole, where Unicode separators count).
    assert!(Levels::read("1\u{a0}2".as_bytes()).unwrap().is_none());
}

#[test]
fn expect_reads_a_loads_file_as_levels_with_the_same_output() {
    // `expect --loads @FILE` (counted while read) against the same loads given inline (parsed
    // into a vector): byte-identical JSON, for a process with a level route and one without.
    let dir = std::env::temp_dir().join(format!("balloc-levels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("loads.txt");
    let loads: Vec<String> = (0..3000).map(|i| ((i * 7919) % 97).to_string()).collect();
    std::fs::write(&file, loads.join("\n")).unwrap();
    let inline = loads.join(",");
    let at = format!("@{}", file.display());
    for (p, pot) in [
        ("two-choice", "gamma(alpha=0.1)"),
        ("quantile(delta=0.5)", "phi(alpha=0.2)"),
        ("mean-thinning", "gamma(alpha=0.1)"),
    ] {
        let run = |l: &str| {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_balloc"))
                .args([
                    "expect",
                    "--process",
                    p,
                    "--potential",
                    pot,
                    "--format",
                    "json",
                ])
                .args(["--loads", l])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            out.stdout
        };
        assert_eq!(run(&at), run(&inline), "{p} {pot}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn loads_parser_errors_and_unicode_separators() {
    let e = Loads::parse("1, 2,x,4").unwrap_err().to_string();
    assert!(e.contains("entry 3 is `x`"), "{e}");
    let e = Loads::parse("1 2 3-").unwrap_err().to_string();
    assert!(e.contains("entry 3 is `3-`"), "{e}");
    assert!(Loads::parse("1 NaN").is_err());
    assert!(Loads::parse(" , \n").is_err());
    // Non-ASCII white space (no-break space, em space) separates loads too.
    let x = Loads::parse("1\u{a0}2\u{2003}3").unwrap();
    assert_eq!(x.as_slice(), &[1.0, 2.0, 3.0]);
    let e = Loads::parse("1\u{a0}zwei").unwrap_err().to_string();
    assert!(e.contains("entry 2 is `zwei`"), "{e}");
}

#[test]
fn rank_range_probabilities_equal_sums_of_the_exact_rank_vector() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for p in rank_based() {
        for n in [4usize, 8, 12, 40, 1000] {
            if p.validate(n).is_err() {
                continue;
            }
            let exact = p.rank_probabilities_exact(n).unwrap().unwrap();
            // Random boundaries: every rank starts a range with probability ⅓, plus 0 and n.
            let mut bounds = vec![0];
            bounds.extend((1..n).filter(|_| rng.random_range(0..3u32) == 0));
            bounds.push(n);
            let got = p.rank_range_probabilities(n, &bounds).unwrap().unwrap();
            for (g, w) in bounds.windows(2).enumerate() {
                let want: Q = exact[w[0]..w[1]].iter().sum();
                let want = want.to_f64().unwrap();
                assert!(
                    close(got[g], want, 4.0 * f64::EPSILON),
                    "{} n = {n} ranks {w:?}: {} vs {want}",
                    p.spec(),
                    got[g]
                );
            }
        }
    }
    let two = process::parse("two-choice").unwrap();
    assert!(two.rank_range_probabilities(4, &[0, 2, 2, 4]).is_err());
    assert!(two.rank_range_probabilities(4, &[0, 3]).is_err());
    assert!(two.rank_range_probabilities(4, &[1, 4]).is_err());
    // The default route (sums of the rank vector) checks its boundaries too.
    let q = process::parse("quantile(delta=0.25)").unwrap();
    assert!(q.rank_range_probabilities(6, &[0, 6]).is_err()); // δn = 1.5
}

fn settings() -> Vec<Setting> {
    let mut v = Vec::new();
    for w in ["unit", "exp(1)", "two-point(low=0.5,high=1.5,p=0.5)"] {
        for b in [1, 2, 5] {
            for ties in [TieRule::Random, TieRule::Fixed] {
                v.push(Setting::new(b, WeightLaw::parse(w).unwrap(), ties).unwrap());
            }
        }
    }
    v
}

/// The grouped route against the per-bin closed form on every kind of vector.
#[test]
fn level_route_equals_per_bin_route() {
    let mut covered = 0;
    for n in [1usize, 4, 8, 64, 1200] {
        for (kind, x) in vectors(n, 100 + n as u64) {
            let loads = Loads::new(x).unwrap();
            for p in rank_based() {
                if p.validate(n).is_err() {
                    continue;
                }
                for pot in exponentials() {
                    for s in settings() {
                        let grouped = expect_levels(p.as_ref(), pot.as_ref(), &loads, &s);
                        let law = p.step_law(&loads, s.ties).unwrap();
                        let bins = expect_law(&law, pot.as_ref(), &loads, &s);
                        // An MGF outside its domain (α = 2 with exp(1) weights): the same error.
                        if let Err(e) = &grouped {
                            assert_eq!(e.to_string(), bins.unwrap_err().to_string());
                            continue;
                        }
                        let grouped = grouped.unwrap();
                        if s.batch > 1 && s.ties == TieRule::Fixed {
                            assert!(grouped.is_none(), "fixed ties in a batch split levels");
                            continue;
                        }
                        let bins = bins.unwrap();
                        let ctx = format!(
                            "{kind} n = {n} {} {} {} b = {} {:?}",
                            p.spec(),
                            pot.spec(),
                            s.weights.spec(),
                            s.batch,
                            s.ties
                        );
                        let grouped = grouped.unwrap_or_else(|| panic!("no level route: {ctx}"));
                        assert_eq!(bins.method, Method::ClosedForm);
                        let pairs = [
                            (grouped.value, bins.value, "value"),
                            (grouped.expected_next, bins.expected_next, "next"),
                        ];
                        for (a, b, what) in pairs {
                            // ln |a − b| − ln b ≤ ln 10⁻¹² (in the log domain: values reach
                            // e^{10¹³} on the wide vectors).
                            let rel = a.add(b.scale(-1.0)).ln_abs() - b.ln_abs();
                            assert!(
                                rel <= 1e-12f64.ln(),
                                "{what}: ln {} vs ln {} (relative error e^{rel}), {ctx}",
                                a.ln_abs(),
                                b.ln_abs()
                            );
                        }
                        // The change, relative to the value (it may be a small difference).
                        let scale = bins.value.ln_abs();
                        let (ca, cb) = (grouped.expected_change, bins.expected_change);
                        let diff = ca.add(cb.scale(-1.0));
                        assert!(
                            diff.ln_abs() - scale <= -25.0,
                            "change: {:?} vs {:?}, {ctx}",
                            ca.to_f64_checked(),
                            cb.to_f64_checked()
                        );
                        covered += 1;
                    }
                }
            }
        }
    }
    assert!(covered > 3000, "{covered} combinations compared");
}

/// The route `expect` takes for rank-based processes against the brute-force enumerator.
#[test]
fn level_route_equals_brute_force_on_small_vectors() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut compared = 0;
    for _ in 0..30 {
        let n = rng.random_range(1..=4usize);
        let x: Vec<f64> = (0..n).map(|_| rng.random_range(0..3u32) as f64).collect();
        let loads = Loads::new(x).unwrap();
        for p in rank_based() {
            if p.validate(n).is_err() {
                continue;
            }
            for pot in exponentials() {
                for w in ["unit", "two-point(low=0.5,high=1.5,p=0.5)"] {
                    for b in [1, 2] {
                        let s =
                            Setting::new(b, WeightLaw::parse(w).unwrap(), TieRule::Random).unwrap();
                        let e = expect_levels(p.as_ref(), pot.as_ref(), &loads, &s)
                            .unwrap()
                            .unwrap();
                        let brute = brute_force(p.as_ref(), pot.as_ref(), &loads, &s).unwrap();
                        let (a, bf) = (
                            e.expected_next.to_f64_checked().unwrap(),
                            brute.to_f64_checked().unwrap(),
                        );
                        assert!(
                            close(a, bf, 1e-12),
                            "{} {} {w} b = {b} at {:?}: {a} vs {bf}",
                            p.spec(),
                            pot.spec(),
                            loads.as_slice()
                        );
                        // `expect` takes this route.
                        let via = expect(p.as_ref(), pot.as_ref(), &loads, &s).unwrap();
                        assert_eq!(via.expected_next, e.expected_next);
                        compared += 1;
                    }
                }
            }
        }
    }
    assert!(compared > 500);
}

#[test]
fn level_route_declines_what_it_does_not_cover() {
    let x = Loads::new(vec![3.0, 1.0, 1.0, 0.0]).unwrap();
    let two = process::parse("two-choice").unwrap();
    let gamma = potential::parse("gamma(alpha=0.5)").unwrap();
    // Not rank-based.
    let mt = process::parse("mean-thinning").unwrap();
    let s = Setting::sequential();
    assert!(
        expect_levels(mt.as_ref(), gamma.as_ref(), &x, &s)
            .unwrap()
            .is_none()
    );
    // No level form.
    let q = potential::parse("quadratic").unwrap();
    assert!(
        expect_levels(two.as_ref(), q.as_ref(), &x, &s)
            .unwrap()
            .is_none()
    );
    // A batch under fixed ties.
    let s = Setting::new(2, WeightLaw::Unit, TieRule::Fixed).unwrap();
    assert!(
        expect_levels(two.as_ref(), gamma.as_ref(), &x, &s)
            .unwrap()
            .is_none()
    );
    // Quantile at an n where δn is not an integer: the same error as the per-bin route.
    let qt = process::parse("quantile(delta=0.25)").unwrap();
    let y = Loads::new(vec![1.0; 6]).unwrap();
    let a = expect_levels(qt.as_ref(), gamma.as_ref(), &y, &Setting::sequential()).unwrap_err();
    let b = qt.step_law(&y, TieRule::Random).unwrap_err();
    assert_eq!(a.to_string(), b.to_string());
}

#[test]
fn level_law_of_a_rank_vector_rejects_a_vector_that_is_not_a_law() {
    let x = Loads::new(vec![1.0, 0.0]).unwrap();
    let law = LevelLaw::of_rank_vector(&[0.5, 0.6], &x.levels(), TieRule::Random);
    let g = potential::parse("gamma(alpha=1)").unwrap();
    let e = balloc::expectation::expect_level_law(&law, g.as_ref(), &Setting::sequential());
    assert!(e.unwrap_err().to_string().contains("sum to"));
}

/// At a realistic size (n = 10⁵, loads in 0..100) the two routes agree to 1e-13 relative.
#[test]
fn level_route_at_a_large_vector() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let x: Vec<f64> = (0..100_000)
        .map(|_| rng.random_range(0..100u32) as f64)
        .collect();
    let loads = Loads::new(x).unwrap();
    let p = process::parse("two-choice").unwrap();
    let g = potential::parse("gamma(alpha=0.1)").unwrap();
    let s = Setting::sequential();
    let a = expect_levels(p.as_ref(), g.as_ref(), &loads, &s)
        .unwrap()
        .unwrap();
    let law = p.step_law(&loads, s.ties).unwrap();
    let b = expect_law(&law, g.as_ref(), &loads, &s).unwrap();
    let (a, b) = (
        a.expected_next.to_f64_checked().unwrap(),
        b.expected_next.to_f64_checked().unwrap(),
    );
    assert!(close(a, b, 1e-13), "{a} vs {b}");
}
