//! Certifying a refuted state at n = 1000: Two-Choice, Γ with α = 1/2, loads xᵢ = i mod 7.
//! The claim `E[Γ'] ≤ Γ·(1 − 1/(8n))` is refuted there (Γ grows near balance); the bench encloses
//! E[Γ'] and Γ and decides the comparison, starting at 64 bits.

use balloc::enclosure::{Decision, Precisions, decide_escalating};
use balloc::exact::{Q, int};
use balloc::loads::{Loads, TieRule};
use balloc::potential::enclosed::{ExpSpec, exponential};
use balloc::process;
use balloc::process::ExactStepLaw;
use balloc::setting::ExactSetting;
use criterion::{Criterion, criterion_group, criterion_main};
use num_traits::One;

fn certify(n: usize) -> (Decision, u64) {
    let loads = Loads::new((0..n).map(|i| (i % 7) as f64).collect()).unwrap();
    let p = process::parse("two-choice").unwrap();
    let law = ExactStepLaw::from_process(p.as_ref(), &loads, TieRule::Random).unwrap();
    let x = loads.exact();
    let spec = ExpSpec::parse("gamma(alpha=1/2)").unwrap();
    let factor = Q::one() - Q::one() / int(8 * n as i64);
    let d = decide_escalating(Precisions::default(), |prec| {
        let e = exponential::enclose(&law, &spec, &x, &ExactSetting::sequential(), prec)?;
        Ok((e.expected_next, e.value.mul_rational(&factor, prec)))
    })
    .unwrap();
    (d.decision, d.prec)
}

fn bench(c: &mut Criterion) {
    assert_eq!(certify(1000), (Decision::Greater, 64));
    c.bench_function("certify_refuted_two_choice_gamma_n1000", |b| {
        b.iter(|| certify(std::hint::black_box(1000)))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
