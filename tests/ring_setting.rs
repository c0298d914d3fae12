//! A new setting added in one file: loads on a ring of n bins, where a ball picks a bin i
//! uniformly and lands on the lesser loaded of i and i + 1 (mod n), ties to i. The file gives
//! what a state is, the names it offers the claim language (`n`, `Q` = Σ yᵢ², `E_Q` = E[Q'] after
//! one ball, the constant `c`), its states and smaller states; the engine gives the rest: the
//! float search with flagged and tightest states certified (`Sweep`), the certification ladder,
//! chained comparisons, shrinking, the constant finder and its growth fit.
//!
//! The truth, by hand. With y = x − mean, a ball to bin j changes Q by 2y_j + 1 − 1/n (y_j rises
//! by 1 − 1/n, every other y by −1/n, and Σy = 0), so
//! E[ΔQ] = (2/n) Σᵢ min(y_i, y_{i+1}) + 1 − 1/n ≤ 1 − 1/n,
//! since Σᵢ min(y_i, y_{i+1}) ≤ Σᵢ (y_i + y_{i+1})/2 = 0, with equality exactly when all loads
//! are equal. So `E_Q <= Q + c` holds at every state iff c ≥ 1 − 1/n, and the balanced states are
//! its counterexamples below that.

use crate::common;
use balloc::claim::engine::float::{Atom, float_atom, float_available};
use balloc::claim::engine::ladder::{AtState, certify};
use balloc::claim::engine::sweep::{Setting, Sweep, shrink};
use balloc::claim::routes::Routes;
use balloc::claim::tighten::{Finder, Trial};
use balloc::claim::trust::Certification;
use balloc::claim::{Status, Trust};
use balloc::exact::Q;
use balloc::lang::{Domain, Env, Eval, Formula, compile_str};
use num_traits::Zero;

fn q(a: i64, b: i64) -> Q {
    common::q(a, b)
}

/// Q = Σ (x_i − mean)², exact.
fn quad(x: &[i64]) -> Q {
    let n = x.len() as i64;
    let s: i64 = x.iter().sum();
    x.iter().fold(Q::zero(), |acc, &v| {
        let y = q(v * n - s, n);
        acc + &y * &y
    })
}

/// E[Q'] after one ball of the ring rule, exact: each i with probability 1/n.
fn expected_quad(x: &[i64]) -> Q {
    let n = x.len();
    (0..n).fold(Q::zero(), |acc, i| {
        let j = (i + 1) % n;
        let dest = if x[j] < x[i] { j } else { i };
        let mut y = x.to_vec();
        y[dest] += 1;
        acc + quad(&y) * q(1, n as i64)
    })
}

/// The names a ring state offers the language, in slot order.
const NAMES: [&str; 4] = ["n", "Q", "E_Q", "c"];

/// The ring state with the value of the constant `c`.
struct RingEnv<'a> {
    x: &'a [i64],
    c: &'a Q,
}

impl<D: Domain> Env<D> for RingEnv<'_> {
    fn slot(&self, d: &D, slot: usize) -> Eval<D::N> {
        match slot {
            0 => d.rational(&q(self.x.len() as i64, 1)),
            1 => d.rational(&quad(self.x)),
            2 => d.rational(&expected_quad(self.x)),
            _ => d.rational(self.c),
        }
    }
}

struct RingAt<'a>(&'a Formula, RingEnv<'a>);

impl AtState for RingAt<'_> {
    fn truth<D: Routes>(&self, d: &D) -> Eval<bool> {
        self.0.truth(d, &self.1, None, None)
    }
    fn sides<D: Routes>(&self, _: &D) -> String {
        String::new()
    }
}

/// The ring setting: a claim and the constant `c` as a function of n.
struct Ring<'a> {
    claim: &'a Formula,
    c: &'a dyn Fn(usize) -> Q,
}

impl Setting for Ring<'_> {
    type State = Vec<i64>;
    fn float(&self, x: &Vec<i64>) -> balloc::Result<Option<Atom>> {
        let c = (self.c)(x.len());
        float_available(float_atom(self.claim, &RingEnv { x, c: &c }, &Q::zero()))
            .map_err(|e| balloc::Error::Unsupported(e.to_string()))
    }
    fn certify(&self, x: &Vec<i64>) -> balloc::Result<Certification> {
        let c = (self.c)(x.len());
        Ok(certify(&RingAt(self.claim, RingEnv { x, c: &c }), false))
    }
    /// Every load lowered by one (all positive), one bin removed (n ≥ 3), one load lowered.
    fn smaller(&self, x: &Vec<i64>) -> Vec<Vec<i64>> {
        let mut out = Vec::new();
        if x.iter().all(|&v| v > 0) {
            out.push(x.iter().map(|v| v - 1).collect());
        }
        if x.len() > 2 {
            for b in 0..x.len() {
                let mut y = x.clone();
                y.remove(b);
                out.push(y);
            }
        }
        for b in 0..x.len() {
            if x[b] > 0 {
                let mut y = x.clone();
                y[b] -= 1;
                out.push(y);
            }
        }
        out
    }
}

/// Every ring state with n bins and loads in 0..=m, in lexicographic order.
fn states(n: usize, m: i64) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|p: Vec<i64>| {
                (0..=m).map(move |v| {
                    let mut p = p.clone();
                    p.push(v);
                    p
                })
            })
            .collect();
    }
    out
}

/// The engine's verdict on `claim` over every state with n ∈ ns bins and loads ≤ m.
fn search_to(
    claim: &Formula,
    c: &dyn Fn(usize) -> Q,
    ns: &[usize],
    m: i64,
) -> balloc::claim::engine::sweep::Outcome<Vec<i64>> {
    let ring = Ring { claim, c };
    let mut sweep = Sweep::new(0.0);
    for &n in ns {
        for x in states(n, m) {
            let size = x.iter().sum::<i64>() as f64;
            sweep.visit(&ring, &x, size, || x.clone()).unwrap();
        }
        sweep.end_group(|x| ring.certify(x)).unwrap();
    }
    sweep.finish()
}

/// [`search_to`] with loads ≤ 3.
fn search(
    claim: &Formula,
    c: &dyn Fn(usize) -> Q,
    ns: &[usize],
) -> balloc::claim::engine::sweep::Outcome<Vec<i64>> {
    search_to(claim, c, ns, 3)
}

/// The claim as a chain of comparisons: E[Q'] ≤ Q + c ≤ Q + 1.
fn chain() -> Formula {
    compile_str("E_Q <= Q + c <= Q + 1", &NAMES).unwrap()
}

#[test]
fn the_ring_setting_holds_at_its_tight_constant() {
    // c = 1 − 1/n: the bound of the module comment, attained at the balanced states.
    let out = search(&chain(), &|n| q(n as i64 - 1, n as i64), &[3, 4, 5]);
    assert_eq!((out.status, out.trust), (Status::Holds, Trust::Exact));
    // Every state was evaluated (4³ + 4⁴ + 4⁵ loads vectors) ...
    assert_eq!(out.tally.evaluated, 64 + 256 + 1024);
    // ... the tightest is a balanced state (slack 0 there, by the module comment), so the
    // flagged states are the balanced ones: 4 per n (loads 0..=3), plus nothing else.
    let spot = out.spot.unwrap();
    assert!(spot.at.iter().all(|&v| v == spot.at[0]), "{:?}", spot.at);
    assert_eq!(out.tally.certified, 3 * 4);
}

#[test]
fn the_ring_setting_refutes_below_the_tight_constant_and_shrinks() {
    // c = 1 − 2/n < 1 − 1/n: refuted at a balanced state, the smallest being all zeros.
    let c = |n: usize| q(n as i64 - 2, n as i64);
    let out = search(&chain(), &c, &[3, 4]);
    assert_eq!((out.status, out.trust), (Status::Refuted, Trust::Exact));
    assert_eq!(out.spot.unwrap().at, vec![0, 0, 0]);
    // Shrinking from a large counterexample: every load lowered by one while balanced (3
    // steps), then bins removed down to n = 2 (2 steps), where E[ΔQ] = 1/2 > c = 0 still: five
    // certified evaluations, each a success.
    let claim = chain();
    let ring = Ring {
        claim: &claim,
        c: &c,
    };
    assert_eq!(shrink(&ring, vec![3, 3, 3, 3]).unwrap(), (vec![0, 0], 5));
    // The second link of the chain fails on its own at c = 2 > 1.
    let out = search(&chain(), &|_| q(2, 1), &[3]);
    assert_eq!(out.status, Status::Refuted);
}

#[test]
fn the_constant_finder_and_growth_fit_serve_the_ring_setting() {
    let root = common::scratch_in("ring", "tighten");
    let path = common::write(
        &root,
        "ring",
        "title = \"ring\"\nkind = \"inequality\"\nexpected = \"holds\"\nstatement = \"s\"\n\
         [source]\nlocator = \"x\"\nprovenance = \"derived\"\n\
         [claim]\nexpr = \"c >= 0\"\n[constants]\nc = [\"0\", \"1\"]\n\
         [tighten]\nc = \"smallest\"\n[domain]\nn = [3]\n",
    );
    let t = balloc::claim::schema::load(&path, &root).unwrap();
    let finder = Finder::new(&t, "c", &NAMES).unwrap();
    let claim = compile_str("E_Q <= Q + c", &NAMES).unwrap();
    let mut per_n = Vec::new();
    for n in [3usize, 4, 5, 6] {
        per_n.push(
            finder
                .within(n, &q(0, 1), &q(1, 1), |v| {
                    let out = search_to(&claim, &|_| v.clone(), &[n], 2);
                    Ok(Trial {
                        kept: out.status == Status::Holds,
                        status: out.status,
                        trust: out.trust,
                        witness: None,
                    })
                })
                .unwrap(),
        );
    }
    let report = finder.report(per_n);
    for t in &report.per_n {
        // The bracket holds 1 − 1/n (module comment): kept above, refuted below, 10⁻⁶ wide.
        let tight = 1.0 - 1.0 / t.n as f64;
        let fails = t.fails.unwrap();
        assert!(t.value >= tight && fails < tight, "{t:?}");
        assert!(t.value - fails <= 1e-6, "{t:?}");
        assert_eq!(t.trust_fails, Some(Trust::Exact));
    }
    // The growth fit of the finder's values is the fit of the hand values 1 − 1/n.
    let hand: Vec<(f64, f64)> = [3.0, 4.0, 5.0, 6.0]
        .iter()
        .map(|&n: &f64| (n, 1.0 - 1.0 / n))
        .collect();
    let fits = balloc::growth::fit_growth(&hand);
    assert_eq!(report.fits[0].model, fits[0].model);
    assert!((report.fits[0].coefficient - fits[0].coefficient).abs() < 1e-5);
}
