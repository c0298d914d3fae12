//! `Q = Ratio<Int>` against `BigRational` (the independent route): construction, arithmetic,
//! order, text, `to_f64` (also far outside the range of `f64`) and [`from_float`](super::from_float).

use super::int::tests::{big, canonical, config, int, large, nonzero, value};
use super::{self as exact, Int, Q};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Pow, Signed, ToPrimitive, Zero};
use proptest::prelude::*;

fn q_of(r: &BigRational) -> Q {
    Q::new(int(r.numer()), int(r.denom()))
}

fn big_q(q: &Q) -> BigRational {
    BigRational::new_raw(big(q.numer()), big(q.denom()))
}

fn rational() -> impl Strategy<Value = BigRational> {
    (value(), nonzero()).prop_map(|(n, d)| BigRational::new(n, d))
}

/// Rationals whose value can lie beyond the range of `f64` or below its smallest subnormal,
/// with numerator and denominator of up to 1280 bits, and near-powers of two.
fn wide_rational() -> impl Strategy<Value = BigRational> {
    let part = prop_oneof![
        value(),
        large(30..41),
        (1000usize..1100, -2i32..=2).prop_map(|(k, d)| (BigInt::one() << k) + d),
        (1usize..70, -2i32..=2).prop_map(|(k, d)| (BigInt::one() << k) + d),
    ];
    (part.clone(), part.prop_filter("non-zero", |b| !b.is_zero()))
        .prop_map(|(n, d)| BigRational::new(n, d))
}

fn reduced(q: &Q) -> bool {
    canonical(q.numer())
        && canonical(q.denom())
        && q.denom().is_positive()
        && q.numer().gcd(q.denom()).is_one()
}

proptest! {
    #![proptest_config(config(3000))]

    fn rationals_match_bigrational(a in rational(), b in rational()) {
        let (qa, qb) = (q_of(&a), q_of(&b));
        prop_assert_eq!(big_q(&qa), a.clone());
        prop_assert!(reduced(&qa));
        for (r, expect) in [(&qa + &qb, &a + &b), (&qa - &qb, &a - &b), (&qa * &qb, &a * &b)] {
            prop_assert_eq!(big_q(&r), expect);
            prop_assert!(reduced(&r));
        }
        if !b.is_zero() {
            let r = &qa / &qb;
            prop_assert_eq!(big_q(&r), &a / &b);
            prop_assert!(reduced(&r));
        }
        prop_assert_eq!(qa.cmp(&qb), a.cmp(&b));
        prop_assert_eq!(qa == qb, a == b);
        prop_assert_eq!(big_q(&-&qa), -&a);
        prop_assert_eq!(big_q(&qa.abs()), a.abs());
        prop_assert_eq!(big_q(&qa.floor()), a.floor());
        prop_assert_eq!(big_q(&qa.ceil()), a.ceil());
        prop_assert_eq!(big_q(&qa.round()), a.round());
        prop_assert_eq!(big_q(&qa.trunc()), a.trunc());
        prop_assert_eq!(big(&qa.to_integer()), a.to_integer());
        prop_assert_eq!(qa.is_integer(), a.is_integer());
        prop_assert_eq!(qa.to_string(), a.to_string());
        prop_assert_eq!(format!("{qa:?}"), format!("{a:?}"));
        prop_assert_eq!(qa.to_string().parse::<Q>().ok().as_ref().map(big_q), Some(a.clone()));
        prop_assert_eq!(qa.to_f64().map(f64::to_bits), a.to_f64().map(f64::to_bits));
    }

    fn rational_powers_match_bigrational(a in rational(), k in -6i32..=6) {
        prop_assume!(k >= 0 || !a.is_zero());
        let qa = q_of(&a);
        let p = Pow::pow(&qa, k);
        prop_assert_eq!(big_q(&p), Pow::pow(&a, k));
        prop_assert!(reduced(&p));
    }

    fn to_f64_matches_bigrational_far_out(a in wide_rational()) {
        let qa = q_of(&a);
        prop_assert_eq!(qa.to_f64().map(f64::to_bits), a.to_f64().map(f64::to_bits), "{}", a);
        prop_assert_eq!(exact::to_f64(&qa).to_bits(), a.to_f64().unwrap_or(f64::NAN).to_bits());
    }

    fn from_float_matches_bigrational(bits in any::<u64>()) {
        let v = f64::from_bits(bits);
        let mine = exact::from_float(v);
        prop_assert_eq!(mine.as_ref().map(big_q), BigRational::from_float(v), "{:e}", v);
        if let Some(q) = &mine {
            prop_assert!(reduced(q));
            // And back: every finite f64 is a rational, so the round trip is exact.
            prop_assert_eq!(q.to_f64().map(f64::to_bits), Some((v + 0.0).to_bits()));
        }
    }

    fn from_float_of_moderate_values_matches_bigrational(
        m in -(1i64 << 53)..(1i64 << 53), e in -80i32..80,
    ) {
        // Dyadic values m·2ᵉ near the machine range, where the small and the big paths meet.
        let v = m as f64 * 2f64.powi(e);
        prop_assert_eq!(exact::from_float(v).as_ref().map(big_q), BigRational::from_float(v));
    }
}

fn from_float_edges_written_out() {
    // 2⁻¹⁰⁷⁴ is the smallest subnormal; 0.1 = 3602879701896397 / 2⁵⁵ exactly.
    let tiny = exact::from_float(f64::from_bits(1)).unwrap();
    assert_eq!(tiny.numer(), &Int::one());
    assert_eq!(tiny.denom(), &(Int::one() << 1074));
    let tenth = exact::from_float(0.1).unwrap();
    assert_eq!(tenth.to_string(), "3602879701896397/36028797018963968");
    // The denominator written out is 2⁵⁵.
    assert_eq!(Int::from(36028797018963968u64), Int::one() << 55);
    assert_eq!(exact::from_float(-0.0).unwrap(), Q::zero());
    assert_eq!(exact::from_float(f64::INFINITY), None);
    assert_eq!(exact::from_float(f64::NAN), None);
    // f64::MAX = (2⁵³ − 1) · 2⁹⁷¹.
    let max = exact::from_float(f64::MAX).unwrap();
    assert_eq!(max.numer(), &(Int::from((1u64 << 53) - 1) << 971));
}

/// The tests of this module, run by the test suite (`crate::unit`).
pub const TESTS: &[crate::unit::Test] = &[
    crate::unit::Test {
        name: "rationals_match_bigrational",
        run: rationals_match_bigrational,
        panics: None,
    },
    crate::unit::Test {
        name: "rational_powers_match_bigrational",
        run: rational_powers_match_bigrational,
        panics: None,
    },
    crate::unit::Test {
        name: "to_f64_matches_bigrational_far_out",
        run: to_f64_matches_bigrational_far_out,
        panics: None,
    },
    crate::unit::Test {
        name: "from_float_matches_bigrational",
        run: from_float_matches_bigrational,
        panics: None,
    },
    crate::unit::Test {
        name: "from_float_of_moderate_values_matches_bigrational",
        run: from_float_of_moderate_values_matches_bigrational,
        panics: None,
    },
    crate::unit::Test {
        name: "from_float_edges_written_out",
        run: from_float_edges_written_out,
        panics: None,
    },
];
