//! Every operation of [`Int`] and of `Q = Ratio<Int>` against the same operation on `BigInt`
//! and `BigRational` (the independent route), on small values, values at the edges of `i64`
//! and values far beyond it.

use super::*;
use num_bigint::Sign;
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, RngSeed};
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};

pub(crate) fn config(cases: u32) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(0x1A7E_6E25),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/exact-int.txt",
        ))),
        ..Config::default()
    }
}

/// The canonical form: a big value never fits in `i64`.
pub(crate) fn canonical(x: &Int) -> bool {
    match &x.0 {
        Small(_) => true,
        Big(b) => b.to_i64().is_none(),
    }
}

pub(crate) fn int(b: &BigInt) -> Int {
    Int::from(b)
}

pub(crate) fn big(i: &Int) -> BigInt {
    BigInt::from(i)
}

/// i64::MIN, i64::MAX, 2³², u64::MAX, 2⁶⁴, 0, each ±2 and negated.
fn edges() -> Vec<BigInt> {
    let centres = [
        BigInt::from(i64::MIN),
        BigInt::from(i64::MAX),
        BigInt::from(1u64 << 32),
        BigInt::from(u64::MAX),
        BigInt::from(1u128 << 64),
        BigInt::from(0),
    ];
    let mut v = Vec::new();
    for c in &centres {
        for d in -2i64..=2 {
            v.push(c + d);
            v.push(-(c + d));
        }
    }
    v
}

pub(crate) fn large(digits: std::ops::Range<usize>) -> impl Strategy<Value = BigInt> {
    (any::<bool>(), prop::collection::vec(any::<u32>(), digits))
        .prop_map(|(neg, d)| BigInt::from_slice(if neg { Sign::Minus } else { Sign::Plus }, &d))
}

/// Small values, any `i64`, the edges of `i64`, and values up to 256 bits.
pub(crate) fn value() -> impl Strategy<Value = BigInt> {
    prop_oneof![
        (-1000i64..=1000).prop_map(BigInt::from),
        any::<i64>().prop_map(BigInt::from),
        prop::sample::select(edges()),
        large(1..9),
    ]
}

pub(crate) fn nonzero() -> impl Strategy<Value = BigInt> {
    value().prop_filter("non-zero", |b| !b.is_zero())
}

fn hash<T: std::hash::Hash>(x: &T) -> u64 {
    BuildHasherDefault::<DefaultHasher>::default().hash_one(x)
}

/// The assertions of one binary operation: same value as BigInt, canonical, and the owned and
/// assigning forms agree with the reference form.
macro_rules! check_op {
    ($a:expr, $b:expr, $ia:expr, $ib:expr, $op:tt, $op_assign:tt) => {{
        let r = &$ia $op &$ib;
        prop_assert_eq!(big(&r), &$a $op &$b, "{} {} {}", $a, stringify!($op), $b);
        prop_assert!(canonical(&r));
        prop_assert_eq!($ia.clone() $op $ib.clone(), r.clone());
        prop_assert_eq!($ia.clone() $op &$ib, r.clone());
        prop_assert_eq!(&$ia $op $ib.clone(), r.clone());
        let mut m = $ia.clone();
        m $op_assign &$ib;
        prop_assert_eq!(&m, &r);
        let mut m = $ia.clone();
        m $op_assign $ib.clone();
        prop_assert_eq!(&m, &r);
    }};
}

fn check_ring(a: &BigInt, b: &BigInt) -> Result<(), TestCaseError> {
    let (a, b) = (a.clone(), b.clone());
    let (ia, ib) = (int(&a), int(&b));
    check_op!(a, b, ia, ib, +, +=);
    check_op!(a, b, ia, ib, -, -=);
    check_op!(a, b, ia, ib, *, *=);
    prop_assert_eq!(ia.cmp(&ib), a.cmp(&b));
    prop_assert_eq!(ia.partial_cmp(&ib), a.partial_cmp(&b));
    prop_assert_eq!(ia == ib, a == b);
    prop_assert_eq!(big(&-&ia), -&a);
    prop_assert_eq!(big(&-ia.clone()), -&a);
    prop_assert!(canonical(&-&ia));
    prop_assert_eq!(big(&ia.abs()), a.abs());
    prop_assert!(canonical(&ia.abs()));
    prop_assert_eq!(big(&ia.signum()), a.signum());
    prop_assert_eq!(big(&ia.abs_sub(&ib)), a.abs_sub(&b));
    prop_assert_eq!(ia.is_positive(), a.is_positive());
    prop_assert_eq!(ia.is_negative(), a.is_negative());
    prop_assert_eq!(ia.is_zero(), a.is_zero());
    prop_assert_eq!(ia.is_one(), a.is_one());
    prop_assert_eq!(ia.is_even(), a.is_even());
    prop_assert_eq!(ia.is_odd(), a.is_odd());
    Ok(())
}

fn check_divisions(a: &BigInt, b: &BigInt) -> Result<(), TestCaseError> {
    let (a, b) = (a.clone(), b.clone());
    let (ia, ib) = (int(&a), int(&b));
    check_op!(a, b, ia, ib, /, /=);
    check_op!(a, b, ia, ib, %, %=);
    let (q, r) = ia.div_rem(&ib);
    prop_assert_eq!((big(&q), big(&r)), a.div_rem(&b));
    prop_assert!(canonical(&q) && canonical(&r));
    prop_assert_eq!(big(&ia.div_floor(&ib)), a.div_floor(&b));
    prop_assert_eq!(big(&ia.mod_floor(&ib)), a.mod_floor(&b));
    let (q, r) = ia.div_mod_floor(&ib);
    prop_assert_eq!((big(&q), big(&r)), a.div_mod_floor(&b));
    prop_assert!(canonical(&q) && canonical(&r));
    prop_assert_eq!(big(&ia.div_ceil(&ib)), Integer::div_ceil(&a, &b));
    Ok(())
}

fn check_gcd_lcm(a: &BigInt, b: &BigInt) -> Result<(), TestCaseError> {
    let (a, b) = (a.clone(), b.clone());
    let (ia, ib) = (int(&a), int(&b));
    let g = ia.gcd(&ib);
    prop_assert_eq!(big(&g), a.gcd(&b));
    prop_assert!(canonical(&g));
    let l = ia.lcm(&ib);
    prop_assert_eq!(big(&l), a.lcm(&b));
    prop_assert!(canonical(&l));
    let (g2, l2) = ia.gcd_lcm(&ib);
    prop_assert_eq!((g2, l2), (g, l));
    prop_assert_eq!(ia.is_multiple_of(&ib), a.is_multiple_of(&b));
    // A common factor makes the multiple test and the gcd non-trivial.
    let ab = &ia * &ib;
    prop_assert_eq!(ab.is_multiple_of(&ib), (&a * &b).is_multiple_of(&b));
    prop_assert_eq!(big(&ab.gcd(&ia)), (&a * &b).gcd(&a));
    Ok(())
}

proptest! {
    #![proptest_config(config(4000))]

    fn conversion_is_canonical_and_exact(a in value()) {
        let i = int(&a);
        prop_assert!(canonical(&i));
        prop_assert_eq!(big(&i), a.clone());
        prop_assert_eq!(i.to_bigint(), Some(a.clone()));
        prop_assert_eq!(BigInt::from(i.clone()), a.clone());
        prop_assert_eq!(Int::from(a.clone()), i.clone());
        prop_assert_eq!(i.bits(), a.bits());
        // The same value reached through arithmetic has the same representation and hash.
        let j = &(&i + &Int::from(u64::MAX)) - &Int::from(u64::MAX);
        prop_assert_eq!(&j, &i);
        prop_assert_eq!(hash(&j), hash(&i));
    }

    fn ring_operations_match_bigint(a in value(), b in value()) {
        check_ring(&a, &b)?;
    }

    fn divisions_match_bigint(a in value(), b in nonzero()) {
        check_divisions(&a, &b)?;
    }

    fn gcd_lcm_match_bigint(a in value(), b in value()) {
        check_gcd_lcm(&a, &b)?;
    }

    fn conversions_to_primitives_match_bigint(a in value()) {
        let ia = int(&a);
        prop_assert_eq!(ia.to_i64(), a.to_i64());
        prop_assert_eq!(ia.to_u64(), a.to_u64());
        prop_assert_eq!(ia.to_i128(), a.to_i128());
        prop_assert_eq!(ia.to_u128(), a.to_u128());
        prop_assert_eq!(ia.to_i32(), a.to_i32());
        prop_assert_eq!(ia.to_usize(), a.to_usize());
        prop_assert_eq!(ia.to_f64().map(f64::to_bits), a.to_f64().map(f64::to_bits));
        prop_assert_eq!(ia.to_f32().map(f32::to_bits), a.to_f32().map(f32::to_bits));
    }

    fn text_matches_bigint(a in value()) {
        let ia = int(&a);
        prop_assert_eq!(ia.to_string(), a.to_string());
        prop_assert_eq!(format!("{ia:?}"), format!("{a:?}"));
        prop_assert_eq!(format!("{ia:>30}|{ia:<25}|{ia:+}|{ia:^40}|{ia:030}"),
                        format!("{a:>30}|{a:<25}|{a:+}|{a:^40}|{a:030}"));
        for radix in [2, 10, 16, 36] {
            let s = a.to_str_radix(radix);
            prop_assert_eq!(Int::from_str_radix(&s, radix).map(|i| big(&i)), Ok(a.clone()));
        }
        prop_assert_eq!(ia.to_string().parse::<Int>().map(|i| big(&i)), Ok(a.clone()));
    }

    fn parsing_matches_bigint(s in "[-+_]{0,2}[0-9a-zA-Z_]{0,24}", radix in 2u32..=36) {
        let mine = Int::from_str_radix(&s, radix);
        let theirs = BigInt::from_str_radix(&s, radix);
        prop_assert_eq!(mine.as_ref().ok().map(big), theirs.as_ref().ok().cloned(), "{:?}", s);
        if let Ok(i) = &mine {
            prop_assert!(canonical(i));
        }
    }

    fn powers_and_roots_match_bigint(a in value(), e in 0u32..24) {
        let ia = int(&a);
        let p = Int::pow(&ia, e);
        prop_assert_eq!(big(&p), BigInt::pow(&a, e));
        prop_assert!(canonical(&p));
        prop_assert_eq!(Pow::pow(&ia, e as usize), p.clone());
        prop_assert_eq!(Pow::pow(ia.clone(), u64::from(e)), p.clone());
        prop_assert_eq!(num_traits::pow(ia.clone(), e as usize), p);
        let m = a.abs();
        prop_assert_eq!(big(&int(&m).sqrt()), m.sqrt());
        prop_assert_eq!(big(&ia.cbrt()), a.cbrt());
        prop_assert_eq!(big(&ia.nth_root(5)), a.nth_root(5));
    }

    fn floats_convert_like_bigint(bits in any::<u64>()) {
        let v = f64::from_bits(bits);
        let mine = Int::from_f64(v);
        prop_assert_eq!(mine.as_ref().map(big), BigInt::from_f64(v));
        if let Some(i) = &mine {
            prop_assert!(canonical(i));
        }
    }

    fn sums_and_products_match_bigint(v in prop::collection::vec(value(), 0..6)) {
        let ints: Vec<Int> = v.iter().map(int).collect();
        prop_assert_eq!(big(&ints.iter().sum::<Int>()), v.iter().sum::<BigInt>());
        prop_assert_eq!(big(&ints.iter().product::<Int>()), v.iter().product::<BigInt>());
        prop_assert_eq!(big(&ints.into_iter().sum::<Int>()), v.iter().sum::<BigInt>());
    }
}

fn division_by_zero_panics_like_bigint() {
    let _ = Int::from(1) / Int::zero();
}

fn edges_of_i64_written_out() {
    // i64::MIN = −2⁶³: its negation, absolute value and quotient by −1 are 2⁶³ = 9223372036854775808.
    let min = Int::from(i64::MIN);
    let two63 = "9223372036854775808";
    assert_eq!((-&min).to_string(), two63);
    assert_eq!(min.abs().to_string(), two63);
    assert_eq!((&min / &Int::from(-1)).to_string(), two63);
    assert_eq!(min.div_floor(&Int::from(-1)).to_string(), two63);
    assert_eq!(&min % &Int::from(-1), Int::zero());
    // gcd(−2⁶³, 0) = gcd(−2⁶³, −2⁶³) = 2⁶³.
    assert_eq!(min.gcd(&Int::zero()).to_string(), two63);
    assert_eq!(min.gcd(&min).to_string(), two63);
    // −2⁶³ mod 2⁶³ = 0 (truncating: −2⁶³ = −1 · 2⁶³ + 0).
    let p = -&min;
    assert_eq!(&min % &p, Int::zero());
    assert_eq!(&min / &p, Int::from(-1));
    // (2⁶³ − 1) + 1 and back: small → big → small.
    let max = Int::from(i64::MAX);
    assert!(canonical(&(&max + &Int::one())) && matches!((&max + &Int::one()).0, Big(_)));
    assert!(matches!(
        (&(&max + &Int::one()) - &Int::one()).0,
        Small(i64::MAX)
    ));
}

fn binary_operations_on_every_pair_of_edges() {
    let mut v = edges();
    v.extend((-3..=3).map(BigInt::from));
    for a in &v {
        for b in &v {
            check_ring(a, b).unwrap();
            check_gcd_lcm(a, b).unwrap();
            if !b.is_zero() {
                check_divisions(a, b).unwrap();
            }
        }
    }
}

/// The tests of this module, run by the test suite (`crate::unit`).
pub const TESTS: &[crate::unit::Test] = &[
    crate::unit::Test {
        name: "conversion_is_canonical_and_exact",
        run: conversion_is_canonical_and_exact,
        panics: None,
    },
    crate::unit::Test {
        name: "ring_operations_match_bigint",
        run: ring_operations_match_bigint,
        panics: None,
    },
    crate::unit::Test {
        name: "divisions_match_bigint",
        run: divisions_match_bigint,
        panics: None,
    },
    crate::unit::Test {
        name: "gcd_lcm_match_bigint",
        run: gcd_lcm_match_bigint,
        panics: None,
    },
    crate::unit::Test {
        name: "conversions_to_primitives_match_bigint",
        run: conversions_to_primitives_match_bigint,
        panics: None,
    },
    crate::unit::Test {
        name: "text_matches_bigint",
        run: text_matches_bigint,
        panics: None,
    },
    crate::unit::Test {
        name: "parsing_matches_bigint",
        run: parsing_matches_bigint,
        panics: None,
    },
    crate::unit::Test {
        name: "powers_and_roots_match_bigint",
        run: powers_and_roots_match_bigint,
        panics: None,
    },
    crate::unit::Test {
        name: "floats_convert_like_bigint",
        run: floats_convert_like_bigint,
        panics: None,
    },
    crate::unit::Test {
        name: "sums_and_products_match_bigint",
        run: sums_and_products_match_bigint,
        panics: None,
    },
    crate::unit::Test {
        name: "division_by_zero_panics_like_bigint",
        run: division_by_zero_panics_like_bigint,
        panics: Some("divide by zero"),
    },
    crate::unit::Test {
        name: "edges_of_i64_written_out",
        run: edges_of_i64_written_out,
        panics: None,
    },
    crate::unit::Test {
        name: "binary_operations_on_every_pair_of_edges",
        run: binary_operations_on_every_pair_of_edges,
        panics: None,
    },
];
