//! Trust level `enclosure`: interval enclosures of Φ, Ψ, Γ and their expectations contain
//! hand-derived values (evaluated independently to 45 digits), agree with the f64 closed forms,
//! overlap an independent interval enumeration, and decide near-tie comparisons that f64 cannot.

use balloc::enclosure::{
    self, Decision, Interval, Precisions, decide, decide_escalating, decide_f64, to_malachite,
};
use balloc::exact::{self, Q, int, normalized};
use balloc::loads::{Loads, TieRule};
use balloc::potential::enclosed::{ExpSpec, exponential};
use balloc::process::ExactStepLaw;
use balloc::setting::ExactSetting;
use balloc::setting::Setting;
use balloc::spec::parse_ratio;
use balloc::weights::ExactWeights;
use balloc::weights::WeightLaw;
use balloc::{expectation, potential, process};
use num_traits::{One, Zero};

/// `iv` contains the number whose 45-significant-digit decimal is `dec` (to the decimal's
/// truncation, 1e−43) and is no wider than `width`.
fn assert_encloses(iv: &Interval, dec: &str, width: &str) {
    let v = parse_ratio(dec).unwrap();
    let t = parse_ratio("1e-43").unwrap();
    assert!(
        *iv.lo() <= to_malachite(&(&v + &t)),
        "{iv} lies above {dec}"
    );
    assert!(
        *iv.hi() >= to_malachite(&(&v - &t)),
        "{iv} lies below {dec}"
    );
    let w = parse_ratio(width).unwrap();
    assert!(*iv.hi() <= to_malachite(&(&v + &w)) && *iv.lo() >= to_malachite(&(&v - &w)));
}

fn two_choice_n2() -> ExactStepLaw {
    // Two-Choice, n = 2, loads (1, 0): heavy bin 1/4, light bin 3/4.
    ExactStepLaw::unit_checked(vec![q(1, 4), q(3, 4)]).unwrap()
}

/// Worked cases, derived by hand; the decimals come from
/// `python3 -c "from mpmath import *; mp.dps=45; print(cosh(1)/2+mpf(3)/2)"` (and the same for
/// the other lines), cross-checked with `echo 'scale=45; (e(1)+e(-1))/4+3/2' | bc -l`.
#[test]
fn worked_cases_two_choice_n2() {
    let x = [int(1), int(0)]; // y = (½, −½)
    let law = two_choice_n2();
    let seq = ExactSetting::sequential();
    // α = 1. Heavy bin (1/4): loads (2, 0), y' = (1, −1), Φ' = Ψ' = e + e⁻¹.
    // Light bin (3/4): loads (1, 1), y' = 0, Φ' = Ψ' = 2.
    // E[Φ'] = (e + e⁻¹)/4 + 3/2 = cosh(1)/2 + 3/2; E[Γ'] = cosh(1) + 3; Γ = 4 cosh(½).
    let phi =
        exponential::enclose(&law, &ExpSpec::parse("phi(1)").unwrap(), &x, &seq, 160).unwrap();
    assert_encloses(
        &phi.expected_next,
        "2.27154031740762188923895281037853084130076456",
        "1e-40",
    );
    let gam =
        exponential::enclose(&law, &ExpSpec::parse("gamma(1)").unwrap(), &x, &seq, 160).unwrap();
    assert_encloses(
        &gam.expected_next,
        "4.54308063481524377847790562075706168260152911",
        "1e-40",
    );
    assert_encloses(
        &gam.value,
        "4.51050386082552314090490064561068805019138847",
        "1e-40",
    );
    // E[ΔΓ] = cosh(1) + 3 − 4cosh(½)
    assert_encloses(
        &gam.expected_change,
        "0.03257677398972063757300497514637363241014064",
        "1e-40",
    );

    // Exp(1) weights, α = ½, Φ: a = α/2 = ¼, c = −¼, M(s) = 1/(1 − s): M(¼) = 4/3, M(−¼) = 4/5.
    // Heavy bin: F = ¼·4/3 + ¾·4/5 = 14/15; light bin: F = ¾·4/3 + ¼·4/5 = 6/5.
    // E[Φ'] = e^{¼}·14/15 + e^{−¼}·6/5.
    let w = ExactSetting::new(1, ExactWeights::parse("exp(1)").unwrap()).unwrap();
    let e = exponential::enclose(&law, &ExpSpec::parse("phi(0.5)").unwrap(), &x, &w, 160).unwrap();
    assert_encloses(
        &e.expected_next,
        "2.13298466192757789369606351723225880453665556",
        "1e-40",
    );

    // Batch of b = 2 unit balls, α = 1, Φ: both heavy (1/16): loads (3, 0), Φ' = 2cosh(3/2);
    // one each (6/16): (2, 1); both light (9/16): (1, 2); both have Φ' = 2cosh(½).
    // E[Φ'] = 2cosh(3/2)/16 + (15/16)·2cosh(½).
    let b2 = ExactSetting::new(2, ExactWeights::Unit).unwrap();
    let e = exponential::enclose(&law, &ExpSpec::parse("phi(1)").unwrap(), &x, &b2, 160).unwrap();
    assert_encloses(
        &e.expected_next,
        "2.40834988666736988802013067331021554479895844",
        "1e-40",
    );
}

/// An independent route: `E[P'] = Σ over outcome sequences (prob · Σᵢ e^{σα y'ᵢ})`, every
/// exponential enclosed at the resulting exact loads (finite weight laws).
fn enumerate_interval(
    law: &ExactStepLaw,
    spec: &ExpSpec,
    x: &[Q],
    setting: &ExactSetting,
    prec: u64,
) -> Interval {
    let support = setting.weights.support().unwrap();
    let mut branches: Vec<(usize, Q, Q)> = Vec::new();
    for o in &law.outcomes {
        let mut partial = vec![(Q::zero(), o.prob.clone())];
        for _ in 0..o.balls {
            partial = partial
                .iter()
                .flat_map(|(w0, p0)| support.iter().map(move |(w, p)| (w0 + w, p0 * p)))
                .collect();
        }
        branches.extend(partial.into_iter().map(|(w, p)| (o.bin, w, p)));
    }
    let mut states = vec![(x.to_vec(), Q::one())];
    for _ in 0..setting.batch {
        let mut next = Vec::new();
        for (xs, p) in &states {
            for (bin, w, pb) in &branches {
                let mut x2 = xs.clone();
                x2[*bin] += w;
                next.push((x2, p * pb));
            }
        }
        states = next;
    }
    let mut acc = Interval::from_rational(&Q::zero(), prec);
    for (xs, p) in states {
        let v = exponential::value(spec, &xs, prec).unwrap();
        acc = acc.add(&v.mul_rational(&p, prec), prec);
    }
    acc
}

fn overlap(a: &Interval, b: &Interval) -> bool {
    a.lo() <= b.hi() && b.lo() <= a.hi()
}

/// Every (process, loads, potential, setting): the closed-form enclosure overlaps the enumerated
/// enclosure, both are tight, and the f64 closed form lies within 1e-12 relative.
#[test]
fn closed_form_enclosures_agree_with_enumeration_and_f64() {
    let processes = [
        "two-choice",
        "d-choice(d=3)",
        "one-plus-beta(beta=0.5)",
        "quantile(delta=0.5)",
    ];
    let loads: &[&[f64]] = &[&[1.0, 0.0], &[3.0, 0.0, 1.0, 0.0], &[2.0, 2.0, 0.0, 5.0]];
    let pots = ["phi(0.5)", "psi(1)", "gamma(0.25)"];
    let settings = [
        ("unit", 1),
        ("unit", 3),
        ("two-point(low=0.5,high=1.5,p=0.5)", 1),
        ("two-point(low=0.5,high=1.5,p=0.25)", 2),
    ];
    let mut n_cases = 0;
    for pname in processes {
        let p = process::parse(pname).unwrap();
        for &xs in loads {
            let l = Loads::new(xs.to_vec()).unwrap();
            let xq = l.exact();
            for ties in [TieRule::Random, TieRule::Fixed] {
                let law = ExactStepLaw::from_process(p.as_ref(), &l, ties).unwrap();
                for pot in pots {
                    let spec = ExpSpec::parse(pot).unwrap();
                    for (w, b) in settings {
                        let es = ExactSetting::new(b, ExactWeights::parse(w).unwrap()).unwrap();
                        let cf = exponential::enclose(&law, &spec, &xq, &es, 128).unwrap();
                        let en = enumerate_interval(&law, &spec, &xq, &es, 128);
                        assert!(
                            overlap(&cf.expected_next, &en),
                            "{pname} {xs:?} {pot} {w} b={b}"
                        );
                        assert!(cf.expected_next.rel_width() < 1e-30);
                        // change = next − value, enclosed separately
                        let diff = cf.expected_next.sub(&cf.value, 128);
                        assert!(overlap(&cf.expected_change, &diff));
                        let fs = Setting::new(b, WeightLaw::parse(w).unwrap(), ties).unwrap();
                        let f = expectation::expect(
                            p.as_ref(),
                            potential::parse(pot).unwrap().as_ref(),
                            &l,
                            &fs,
                        )
                        .unwrap()
                        .expected_next
                        .to_f64_checked()
                        .unwrap();
                        let m = cf.expected_next.mid_f64();
                        assert!((f - m).abs() <= 1e-12 * m, "{f} vs {m}");
                        // A coarse enclosure (30 bits) contains the f64 value outright.
                        let coarse = exponential::enclose(&law, &spec, &xq, &es, 30).unwrap();
                        assert!(coarse.expected_next.contains_f64(f));
                        n_cases += 1;
                    }
                }
            }
        }
    }
    assert_eq!(n_cases, 4 * 3 * 2 * 3 * 4);
}

/// Continuous weights: Exp and Geometric against the f64 closed form, including a batch.
#[test]
fn continuous_weight_laws_agree_with_f64() {
    let p = process::parse("two-choice").unwrap();
    let l = Loads::new(vec![4.0, 0.0, 1.0, 3.0, 0.0, 2.0]).unwrap();
    let xq = l.exact();
    let law = ExactStepLaw::from_process(p.as_ref(), &l, TieRule::Random).unwrap();
    for w in ["exp(1)", "geometric(mean=1)", "geometric(mean=2,start=1)"] {
        for b in [1, 6] {
            for pot in ["phi(0.25)", "gamma(0.5)"] {
                let es = ExactSetting::new(b, ExactWeights::parse(w).unwrap()).unwrap();
                let cf = exponential::enclose(&law, &ExpSpec::parse(pot).unwrap(), &xq, &es, 128)
                    .unwrap();
                let fs = Setting::new(b, WeightLaw::parse(w).unwrap(), TieRule::Random).unwrap();
                let f = expectation::expect(
                    p.as_ref(),
                    potential::parse(pot).unwrap().as_ref(),
                    &l,
                    &fs,
                )
                .unwrap()
                .expected_next
                .to_f64_checked()
                .unwrap();
                let m = cf.expected_next.mid_f64();
                assert!((f - m).abs() <= 1e-12 * m, "{w} b={b} {pot}: {f} vs {m}");
            }
        }
    }
    // Outside the MGF domain: α(1 − 1/n) ≥ ln 2 for Geometric(mean 1) is an error, not a number.
    let es = ExactSetting::new(1, ExactWeights::parse("geometric(mean=1)").unwrap()).unwrap();
    assert!(exponential::enclose(&law, &ExpSpec::parse("phi(1)").unwrap(), &xq, &es, 64).is_err());
}

/// Two-Choice, n = 16, Γ with α = ½ at a fixed state.
fn near_tie_state() -> (Box<dyn process::Process>, Loads, ExactStepLaw, Vec<Q>) {
    let p = process::parse("two-choice").unwrap();
    let l = Loads::new(vec![
        5.0, 0.0, 3.0, 1.0, 0.0, 2.0, 7.0, 1.0, 1.0, 0.0, 4.0, 2.0, 0.0, 0.0, 3.0, 1.0,
    ])
    .unwrap();
    let law = ExactStepLaw::from_process(p.as_ref(), &l, TieRule::Random).unwrap();
    let xq = l.exact();
    (p, l, law, xq)
}

/// The a-priori error estimate of the f64 closed form used by the float level: E[Γ'] is a sum of
/// 2n positive terms, each a product of a few (≤ 10) faithfully rounded operations, so its
/// relative error is at most (2n + 10)·2⁻⁵³ (standard recursive-summation bound γ_N with
/// N = 2n + 10), doubled for safety.
fn f64_error(value: f64, n: usize) -> f64 {
    2.0 * (2 * n + 10) as f64 * f64::EPSILON / 2.0 * value.abs()
}

/// A constructed near tie: `E[Γ']` against `E[Γ']·(1 ± 10⁻¹⁵)`. In f64 the difference is below
/// the error estimate (undecided); the enclosures decide it at 64 bits.
#[test]
fn near_tie_undecided_in_f64_decided_by_enclosure() {
    let (p, l, law, xq) = near_tie_state();
    let g = potential::parse("gamma(0.5)").unwrap();
    let lhs = expectation::expect(p.as_ref(), g.as_ref(), &l, &Setting::sequential())
        .unwrap()
        .expected_next
        .to_f64_checked()
        .unwrap();
    let rhs = lhs * (1.0 + 1e-15);
    let err = f64_error(lhs, l.n());
    assert!(
        (rhs - lhs).abs() < err,
        "difference {} vs estimate {err}",
        rhs - lhs
    );
    assert_eq!(decide_f64(lhs, err, rhs, 0.0), Decision::Undecided);

    let spec = ExpSpec::parse("gamma(0.5)").unwrap();
    let up = Q::one() + parse_ratio("1e-15").unwrap();
    let down = Q::one() - parse_ratio("1e-15").unwrap();
    for (factor, want) in [(&up, Decision::Less), (&down, Decision::Greater)] {
        let d = decide_escalating(Precisions::default(), |prec| {
            let e = exponential::enclose(&law, &spec, &xq, &ExactSetting::sequential(), prec)?;
            let r = e.expected_next.mul_rational(factor, prec);
            Ok((e.expected_next, r))
        })
        .unwrap();
        assert_eq!((d.decision, d.prec), (want, 64));
    }
}

/// Escalation: slack 10⁻³⁰ relative is below what 64 bits resolve (relative width ~1e−17) and
/// is decided at 128 bits; slack 10⁻⁷⁰ needs 256 bits.
#[test]
fn precision_escalation() {
    let (_, _, law, xq) = near_tie_state();
    let spec = ExpSpec::parse("gamma(0.5)").unwrap();
    for (slack, want_prec) in [("1e-30", 128), ("1e-70", 256)] {
        let factor = Q::one() + parse_ratio(slack).unwrap();
        let mut tried = Vec::new();
        let d = decide_escalating(Precisions::default(), |prec| {
            tried.push(prec);
            let e = exponential::enclose(&law, &spec, &xq, &ExactSetting::sequential(), prec)?;
            let r = e.expected_next.mul_rational(&factor, prec);
            Ok((e.expected_next, r))
        })
        .unwrap();
        assert_eq!((d.decision, d.prec), (Decision::Less, want_prec));
        assert_eq!(tried.first(), Some(&64));
        assert_eq!(tried.last(), Some(&want_prec));
    }
}

/// Two algebraically equal expressions along different routes (closed form vs enumeration):
/// undecided at every precision up to the limit (honestly `Undecided`, never a guess); with a
/// relative slack of 10⁻¹⁵ they are decided, while the f64 routes are within their error.
#[test]
fn equal_expressions_along_two_routes() {
    let (p, l, law, xq) = near_tie_state();
    let spec = ExpSpec::parse("gamma(0.5)").unwrap();
    let seq = ExactSetting::sequential();
    let limit = Precisions {
        start: 64,
        max: 512,
    };
    let d = decide_escalating(limit, |prec| {
        let cf = exponential::enclose(&law, &spec, &xq, &seq, prec)?;
        Ok((
            cf.expected_next,
            enumerate_interval(&law, &spec, &xq, &seq, prec),
        ))
    })
    .unwrap();
    assert_eq!((d.decision, d.prec), (Decision::Undecided, 512));
    assert!(d.lhs.rel_width() < 1e-150);

    let factor = Q::one() + parse_ratio("1e-15").unwrap();
    let d = decide_escalating(limit, |prec| {
        let cf = exponential::enclose(&law, &spec, &xq, &seq, prec)?;
        let en = enumerate_interval(&law, &spec, &xq, &seq, prec).mul_rational(&factor, prec);
        Ok((cf.expected_next, en))
    })
    .unwrap();
    assert_eq!(d.decision, Decision::Less);

    // The float routes: closed form and brute force differ by less than the estimate.
    let g = potential::parse("gamma(0.5)").unwrap();
    let cf = expectation::expect(p.as_ref(), g.as_ref(), &l, &Setting::sequential()).unwrap();
    let bf = expectation::brute_force(p.as_ref(), g.as_ref(), &l, &Setting::sequential()).unwrap();
    let (a, b) = (
        cf.expected_next.to_f64_checked().unwrap(),
        bf.to_f64_checked().unwrap() * (1.0 + 1e-15),
    );
    assert_eq!(
        decide_f64(a, f64_error(a, l.n()), b, f64_error(b, l.n())),
        Decision::Undecided
    );
}

/// Huge loads: Φ at y ≈ 7.5·10⁷ (e^{7.5e7}, far beyond f64) is enclosed, its logarithm agrees
/// with the log-domain f64 route; loads beyond the float range give an error, not a panic.
#[test]
fn huge_exponents() {
    use malachite::base::num::conversion::traits::RoundingFrom;
    use malachite::base::rounding_modes::RoundingMode::Nearest;
    let l = Loads::new(vec![1e8, 0.0, 0.0, 0.0]).unwrap();
    let xq = l.exact();
    let spec = ExpSpec::parse("phi(1)").unwrap();
    let v = exponential::value(&spec, &xq, 64).unwrap();
    assert!(v.is_finite());
    let ln = v.lo().ln_prec_round_ref(64, Nearest).0;
    let ln = f64::rounding_from(&ln, Nearest).0;
    let fl = potential::parse("phi(1)").unwrap().value(&l).ln_abs();
    assert!((ln - fl).abs() < 1e-6, "{ln} vs {fl}");
    let law = ExactStepLaw::from_process(
        process::parse("two-choice").unwrap().as_ref(),
        &l,
        TieRule::Random,
    )
    .unwrap();
    let e = exponential::enclose(&law, &spec, &xq, &ExactSetting::sequential(), 64).unwrap();
    assert_eq!(decide(&e.expected_next, &e.value), Decision::Less); // the heavy bin drains
    // y = (10⁹, −10⁹): e^{10⁹} is beyond 2^{2^30} ≈ e^{7.44·10⁸}.
    let big = Loads::new(vec![2e9, 0.0]).unwrap();
    assert!(exponential::value(&spec, &big.exact(), 64).is_err());
}

/// `enclosure` re-exports are what the verdict engine uses; a sanity check of Γ at balance.
#[test]
fn gamma_at_balance_is_2n() {
    let x = vec![int(7); 5];
    assert!(normalized(&x).iter().all(|v| v.is_zero()));
    let g = exponential::value(&ExpSpec::parse("gamma(0.3)").unwrap(), &x, 64).unwrap();
    assert_eq!(
        decide(&g, &Interval::from_rational(&int(10), 64)),
        Decision::Equal
    );
    let _ = enclosure::mgf::mgf(&ExactWeights::Unit, &q(1, 3), 64).unwrap();
}

// ---------------------------------------------------------------------------------------------
// The group potentials of the multidimensional paper and paper B's Λ.

use crate::common::q;
use balloc::multidim::claims::{self as mdclaims, Constants};
use balloc::multidim::enclosed::{self, ExactConstants, Item, Outcome, sum_loads};
use balloc::multidim::group_enclosure::{self as genc, GroupSpec};
use balloc::multidim::{GroupPotential, PsiReading, Which};

fn zeros(n: usize) -> Vec<Q> {
    vec![int(0); n]
}

fn two_choice_p(n: usize) -> (Vec<f64>, Vec<Q>) {
    let p = process::parse("two-choice").unwrap();
    (
        p.rank_probabilities(n).unwrap().unwrap(),
        p.rank_probabilities_exact(n).unwrap().unwrap(),
    )
}

/// Worked cases of the sum-load chain (n = 2 and n = 4 from s ≡ 0, Two-Choice): the decimals come
/// from `python3 -c "from mpmath import *; mp.dps=50; print(exp(mpf(1)/32)+exp(-mpf(1)/32)/2)"`
/// and the same for the second line.
#[test]
fn group_potential_worked_cases() {
    // n = 2, α = 1/16, f = 1: either bin becomes the unique heaviest, s' = (1/2, −1/2) sorted:
    // E[Φ'] = e^{1/32} + e^{−1/32}/2.
    let phi = GroupSpec::new(Which::Phi, q(1, 16), PsiReading::Printed).unwrap();
    let (_, p2) = two_choice_p(2);
    let e = genc::expected_next(&phi, &[int(0), int(0)], &p2, 1, 160).unwrap();
    assert_encloses(&e, "1.5163600247372747118628024119046835359968612", "1e-40");
    // n = 4, α = 1/8, f = 1: the chosen bin at 3/4 with weight 1, the others at −1/4 with weights
    // 1/2, 1/3, 1/4: E[Φ'] = e^{3/32} + e^{−1/32}·13/12 (Corollary 1's counterexample).
    let phi = GroupSpec::new(Which::Phi, q(1, 8), PsiReading::Printed).unwrap();
    let (_, p4) = two_choice_p(4);
    let e = genc::expected_next(&phi, &zeros(4), &p4, 1, 160).unwrap();
    assert_encloses(
        &e,
        "2.14828781099053193731899489360700223438161254",
        "1e-40",
    );
    // Γ(0) = 2H₄ = 25/6 exactly, both readings.
    for r in PsiReading::ALL {
        let g = GroupSpec::new(Which::Gamma, q(1, 8), r).unwrap();
        assert_eq!(g.value_exact(&zeros(4)), Some(q(25, 6)));
        assert!(genc::value(&g, &zeros(4), 64).unwrap().contains(&q(25, 6)));
    }
    // The certified Corollary 1 at n = 4 decides "fails" at 64 bits with the hand values.
    let c = ExactConstants {
        f: 1,
        eps: q(1, 4),
        gamma1: q(1, 4),
    };
    let cert = enclosed::certify(
        &Item::Corollary1,
        &sum_loads(&[0; 4]),
        &p4,
        &c,
        PsiReading::Printed,
    )
    .unwrap();
    assert_eq!((cert.outcome, cert.check.prec), (Outcome::Fails, 64));
    // rhs = (1 + 1/256)·25/12 = 2.0914713541666…
    assert!(
        cert.check.rhs.contains(&(q(257, 256) * q(25, 12))) || cert.check.rhs.rel_width() < 1e-18
    );
    assert!((cert.check.rhs.mid_f64() - 2.0914713541666667).abs() < 1e-15);
}

/// The enclosures agree with the f64 log-domain values of `crate::multidim` (value and one-step
/// expectation, Φ, Ψ in both readings, Γ) on every integer sum-load state with n ≤ 4 and L ≤ 3,
/// and on ramps and tied blocks at n = 8.
#[test]
fn group_enclosures_agree_with_f64() {
    let mut states: Vec<Vec<i64>> = Vec::new();
    for a in 0..=3 {
        for b in 0..=a {
            for c in 0..=b {
                states.push(vec![a, b, c, 0]);
                states.push(vec![a, b, 0]);
            }
        }
    }
    states.push((0..8).map(|i| 8 - i).collect());
    states.push((0..8).map(|i| (8 - i) / 3).collect());
    let alpha = q(1, 8);
    for l in &states {
        let n = l.len();
        let s = sum_loads(l);
        let sf: Vec<f64> = s.iter().map(exact::to_f64).collect();
        let (pf, pq) = two_choice_p(n);
        for which in [Which::Phi, Which::Psi, Which::Gamma] {
            for r in PsiReading::ALL {
                let g = GroupSpec::new(which, alpha.clone(), r).unwrap();
                let gf = GroupPotential::new(which, 0.125, r).unwrap();
                for f in [1u32, 2] {
                    let v = genc::value(&g, &s, 64).unwrap();
                    let vf = gf.value(&sf).to_f64_checked().unwrap();
                    assert!((v.mid_f64() - vf).abs() <= 1e-13 * vf, "{l:?} {which:?}");
                    assert!(v.rel_width() < 1e-17);
                    let e = genc::expected_next(&g, &s, &pq, f, 64).unwrap();
                    let ef = mdclaims::expected_next(&sf, &pf, f, gf)
                        .unwrap()
                        .to_f64_checked()
                        .unwrap();
                    assert!(
                        (e.mid_f64() - ef).abs() <= 1e-13 * ef,
                        "{l:?} {which:?} f={f}"
                    );
                    assert!(e.rel_width() < 1e-16);
                }
            }
        }
    }
}

/// A near tie for the multidim kind: Corollary 2 at s = (1, 0, 0, −1) with the constant c set to
/// its tightest value c* (from f64) ∓ 10⁻¹², a relative slack of about 4·10⁻¹⁵. The float check
/// (tolerance 10⁻¹⁰) cannot tell the two apart; the enclosures decide both at 64 bits: c* − 10⁻¹²
/// fails, c* + 10⁻¹² holds. (The f64 error of c* is about 5·10⁻¹⁴: ratio error 2·10⁻¹⁶ times
/// n/(αf)² = 256.)
#[test]
fn multidim_near_tie_undecided_in_f64_decided_by_enclosure() {
    let sf = [1.0, 0.0, 0.0, -1.0];
    let s = sum_loads(&[2, 1, 1, 0]);
    let (pf, pq) = two_choice_p(4);
    let cstar = mdclaims::corollary_2_constant(&sf, &pf, 1, 0.125, PsiReading::Printed).unwrap();
    let c = ExactConstants {
        f: 1,
        eps: q(1, 4),
        gamma1: q(1, 4),
    };
    assert_eq!(Constants::new(0.25, 0.25, 1).unwrap().alpha(), 0.125);
    for (delta, want) in [(-1e-12, Outcome::Fails), (1e-12, Outcome::Holds)] {
        let cv = cstar + delta;
        let fl = mdclaims::corollary_2(&sf, &pf, 1, 0.125, PsiReading::Printed, cv).unwrap();
        assert!(fl.holds && fl.margin.abs() < 1e-13, "float: {fl:?}");
        let item = Item::Corollary2(exact::from_f64(cv, "c").unwrap());
        let cert = enclosed::certify(&item, &s, &pq, &c, PsiReading::Printed).unwrap();
        assert_eq!(
            (cert.outcome, cert.check.prec),
            (want, 64),
            "{}",
            cert.check.describe()
        );
    }
}

/// Λ = Σ e^{α|yᵢ|}: a worked case, agreement with the f64 closed form for Mean-Thinning and
/// Twinning (exact step laws) and for the recovery potential V (α = κ/n), and Λ = n as a point at
/// balance.
#[test]
fn lambda_enclosures() {
    use balloc::potential::enclosed::lambda;
    // n = 2, x = 0, one ball to either bin: Λ' = 2e^{1/2} surely (α = 1); mpmath 45 digits.
    let law = ExactStepLaw::unit_checked(vec![q(1, 2), q(1, 2)]).unwrap();
    let e = lambda::enclose(
        &law,
        &int(1),
        &[int(0), int(0)],
        &ExactSetting::sequential(),
        160,
    )
    .unwrap();
    assert_encloses(
        &e.expected_next,
        "3.2974425414002562936973015756283271433075522",
        "1e-40",
    );
    assert_eq!(e.value.rel_width(), 0.0);
    assert!(e.value.contains(&int(2)));
    let setting = Setting::sequential();
    for spec in [
        "mean-thinning(boundary=over)",
        "mean-thinning(boundary=under)",
        "twinning(boundary=over)",
        "twinning(boundary=under)",
    ] {
        let p = process::parse(spec).unwrap();
        for x in [
            vec![3.0, 1.0, 0.0, 0.0],
            vec![5.0, 0.0, 2.0],
            vec![1.0, 1.0],
        ] {
            let loads = Loads::new(x.clone()).unwrap();
            let xs = loads.exact();
            let law_f = p.step_law(&loads, TieRule::Random).unwrap();
            let law_q = p
                .step_law_exact(&loads, TieRule::Random)
                .unwrap()
                .unwrap()
                .validated()
                .unwrap();
            for (pot, alpha) in [
                ("lambda(alpha=0.25)", q(1, 4)),
                ("recovery(kappa=2)", q(2, x.len() as i64)),
            ] {
                let pf = potential::parse(pot).unwrap();
                let ef = pf.expected_next(&law_f, &loads, &setting).unwrap().unwrap();
                let e =
                    lambda::enclose(&law_q, &alpha, &xs, &ExactSetting::sequential(), 64).unwrap();
                let (nf, cf) = (
                    ef.next.to_f64_checked().unwrap(),
                    ef.change.to_f64_checked().unwrap(),
                );
                assert!(
                    (e.expected_next.mid_f64() - nf).abs() <= 1e-13 * nf,
                    "{spec} {x:?} {pot}"
                );
                assert!(
                    (e.expected_change.mid_f64() - cf).abs() <= 1e-12 * nf,
                    "{spec} {x:?} {pot}"
                );
                let vf = pf.value(&loads).to_f64_checked().unwrap();
                assert!((e.value.mid_f64() - vf).abs() <= 1e-13 * vf);
            }
        }
    }
}

/// `Σ_{k=1}^{N} s^{k−1} x^k / k` in rationals (`s = ±1`): partial sums of the series of
/// `−ln(1 − x)` (`s = 1`) and `ln(1 + x)` (`s = −1`).
fn log_series(x: &Q, s: i64, terms: u32) -> Q {
    let mut acc = Q::zero();
    let mut pow = Q::one();
    let mut sign = Q::one();
    for k in 1..=terms {
        pow = &pow * x;
        acc += &sign * &pow / Q::from_integer(k.into());
        sign = &sign * Q::from_integer(s.into());
    }
    acc
}

#[test]
fn ln_and_sqrt_enclosures_against_independent_rational_routes() {
    // ln 2 = −ln(1 − 1/2) = Σ_{k≥1} 1/(k 2^k); after N terms the tail is at most
    // Σ_{k>N} 2^{−k}/(N+1) = 1/((N+1)2^N), so ln 2 ∈ [S_N, S_N + 1/((N+1)2^N)].
    let n = 200u32;
    let s = log_series(&q(1, 2), 1, n);
    let tail =
        Q::one() / (Q::from_integer((n + 1).into()) * Q::from_integer(2.into()).pow(n as i32));
    let ln2 = Interval::from_rational(&int(2), 160).ln(160).unwrap();
    assert!(*ln2.lo() <= to_malachite(&s) && to_malachite(&(&s + &tail)) <= *ln2.hi());
    assert!(ln2.rel_width() < 1e-46, "{ln2}");
    assert!((ln2.mid_f64() - 2f64.ln()).abs() <= 2e-16);
    // ln(5/4) = ln(1 + 1/4) = Σ (−1)^{k+1} 4^{−k}/k, alternating with decreasing terms: the true
    // value lies between consecutive partial sums S_N and S_{N+1}.
    let (a, b) = (log_series(&q(1, 4), -1, 100), log_series(&q(1, 4), -1, 101));
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    let l54 = Interval::from_rational(&q(5, 4), 192).ln(192).unwrap();
    assert!(*l54.lo() <= to_malachite(&lo) && to_malachite(&hi) <= *l54.hi());
    assert!((l54.mid_f64() - 1.25f64.ln()).abs() <= 1e-16);
    // √2 and √(1/3): the ends squared exactly bracket the argument.
    for (x, f) in [(int(2), 2f64.sqrt()), (q(1, 3), (1.0f64 / 3.0).sqrt())] {
        let r = Interval::from_rational(&x, 128).sqrt(128).unwrap();
        let lo = malachite::Rational::try_from(r.lo()).unwrap();
        let hi = malachite::Rational::try_from(r.hi()).unwrap();
        let xm = to_malachite(&x);
        assert!(&lo * &lo <= xm && xm <= &hi * &hi, "{r}");
        assert!(r.rel_width() < 1e-37);
        assert!((r.mid_f64() - f).abs() <= 2e-16 * f);
    }
    // The poles: ln of an enclosure reaching 0 and √ of one reaching below 0 are errors.
    assert!(Interval::from_f64(0.0).unwrap().ln(64).is_err());
    let straddle = Interval::from_f64(-1.0)
        .unwrap()
        .hull(&Interval::from_f64(1.0).unwrap());
    assert!(straddle.sqrt(64).is_err() && straddle.ln(64).is_err());
    assert_eq!(
        Interval::from_f64(0.0).unwrap().sqrt(64).unwrap(),
        Interval::from_f64(0.0).unwrap()
    );
}

#[test]
fn claim_expressions_enclose_ln_and_sqrt() {
    use balloc::lang::{Domain, Enclosure, Slots, compile_value};
    // ln(x) + sqrt(x) at x = 2: ln 2 + √2 = 2.10736074293304035821892084566787464664517200…
    // (0.693147180559945309417232121458176568075500… + 1.414213562373095048801688724209698078569…;
    // the 45 digits below were evaluated independently with Python's `decimal` at 60 digits).
    let d = Enclosure { prec: 160 };
    let e = compile_value("ln(x) + sqrt(x)", &["x"]).unwrap();
    let v = e
        .eval(&d, &Slots(&[d.rational(&int(2)).unwrap()]), None)
        .unwrap();
    assert_encloses(
        &v,
        "2.10736074293304035821892084566787464664517201",
        "1e-40",
    );
    assert!((v.mid_f64() - (2f64.ln() + 2f64.sqrt())).abs() <= 5e-16);
    // log(x) at x = 0 is undefined (an error, not a wrong number).
    let e = compile_value("log(x)", &["x"]).unwrap();
    let d = Enclosure { prec: 64 };
    assert!(
        e.eval(&d, &Slots(&[d.rational(&Q::zero()).unwrap()]), None)
            .is_err()
    );
}
