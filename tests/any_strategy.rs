//! "Any strategy" on graphs: the exact steps of Bansal–Feldheim's lower bounds.
//!
//! * The coupon-collector probability `P[some vertex untouched by T uniform edge requests]`
//!   (`graph::coupon`): its three routes (transfer matrix on cycles, binomials on complete graphs,
//!   inclusion–exclusion over every vertex set) agree, and they agree with a brute force over all
//!   `m^T` request sequences on small graphs (the definition, counted directly), and with a Monte
//!   Carlo estimate on a larger graph.
//! * The `graph` item `coupon_collector` and the name `untouched` of statistical graph files:
//!   verdicts on small files, with the refuted reading derived by hand.

use balloc::claim::{self, RunContext, Status};
use balloc::exact::{Int, Q};
use balloc::graph::Graph;
use balloc::graph::coupon::{signed_counts, sum, untouched};
use num_traits::ToPrimitive;
use rand::{RngExt, SeedableRng};

use crate::common;

/// `P[some vertex untouched]` by counting the request sequences: every sequence of `t` edges,
/// each equally likely, and whether its edges cover every vertex.
fn brute_force(g: &Graph, t: u32) -> Q {
    let (n, m) = (g.n(), g.m());
    let total = (m as u64).pow(t);
    let mut bad = 0u64;
    for code in 0..total {
        let mut c = code;
        let mut touched = vec![false; n];
        for _ in 0..t {
            let (a, b) = g.edges()[(c % m as u64) as usize];
            c /= m as u64;
            touched[a] = true;
            touched[b] = true;
        }
        if touched.iter().any(|x| !x) {
            bad += 1;
        }
    }
    Q::new(Int::from(bad), Int::from(total))
}

#[test]
fn the_routes_agree_with_each_other_and_with_the_definition() {
    // Closed forms against inclusion–exclusion over every vertex set.
    for n in 3..=12 {
        let g = Graph::cycle(n).unwrap();
        let a = signed_counts(&g, false).unwrap();
        let b = signed_counts(&g, true).unwrap();
        assert_eq!(a.counts, b.counts, "cycle({n})");
    }
    for n in 2..=9 {
        let g = Graph::complete(n).unwrap();
        let a = signed_counts(&g, false).unwrap();
        let b = signed_counts(&g, true).unwrap();
        assert_eq!(a.counts, b.counts, "complete({n})");
    }
    // Exact probabilities against the brute force over request sequences.
    let graphs = [
        (Graph::cycle(4).unwrap(), 7),
        (Graph::cycle(5).unwrap(), 6),
        (Graph::complete(4).unwrap(), 6),
        (Graph::path(4).unwrap(), 8),
        (
            Graph::from_edges(4, vec![(0, 1), (0, 2), (0, 3)], "star").unwrap(),
            8,
        ),
        (
            Graph::from_edges(5, vec![(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)], "kite").unwrap(),
            6,
        ),
    ];
    for (g, tmax) in &graphs {
        for t in 0..=*tmax {
            let exact = untouched(g, u64::from(t)).unwrap();
            assert_eq!(exact, brute_force(g, t), "{} T = {t}", g.name());
        }
    }
    // Hand values: C₄ after 2 requests covers every vertex iff the two edges are opposite
    // ({01, 23} or {12, 30}, in either order: 4 of the 16 sequences): P = 12/16 = 3/4.
    assert_eq!(
        untouched(&Graph::cycle(4).unwrap(), 2).unwrap(),
        Q::new(3.into(), 4.into())
    );
    // The star K_{1,3} after T requests: a leaf is untouched unless all three edges appear:
    // 1 − (surjections of T onto 3)/3^T; T = 3: 1 − 6/27 = 7/9.
    assert_eq!(
        untouched(&graphs[4].0, 3).unwrap(),
        Q::new(7.into(), 9.into())
    );
}

#[test]
fn monte_carlo_agrees_with_the_exact_probability() {
    let g = Graph::random_regular(16, 3, 1).unwrap();
    let t = 23u64; // ⌈16 ln 16 / 2⌉
    let exact = untouched(&g, t).unwrap().to_f64().unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let trials = 40_000;
    let mut hits = 0;
    for _ in 0..trials {
        let mut touched = [false; 16];
        for _ in 0..t {
            let (a, b) = g.edges()[rng.random_range(0..g.m())];
            touched[a] = true;
            touched[b] = true;
        }
        if touched.iter().any(|x| !x) {
            hits += 1;
        }
    }
    let p = hits as f64 / trials as f64;
    let se = (exact * (1.0 - exact) / trials as f64).sqrt();
    assert!(
        (p - exact).abs() < 5.0 * se,
        "Monte Carlo {p}, exact {exact}"
    );
}

#[test]
fn horizon_zero_and_a_single_edge() {
    // K₂ (one edge): both vertices are touched by the first request; with T = 0 both are untouched.
    let counts = signed_counts(&Graph::complete(2).unwrap(), false).unwrap();
    assert_eq!(sum(&counts.counts, 1, 0), Q::from_integer(1.into()));
    assert_eq!(sum(&counts.counts, 1, 5), Q::from_integer(0.into()));
}

fn check(dir: &std::path::Path, name: &str, text: &str) -> claim::Verdict {
    let p = common::write(dir, name, text);
    claim::check(&p, dir, &mut RunContext::default()).unwrap_or_else(|e| panic!("{name}: {e:#}"))
}

#[test]
fn the_coupon_function_holds_and_is_refuted_where_derived() {
    let dir = common::scratch_in("any_strategy", "item");
    let file = |c: &str, at_least: &str| {
        format!(
            "title = \"coupon\"\nkind = \"graph\"\nexpected = \"open\"\nstatement = \"x\"\n[source]\nlocator = \"test\"\nprovenance = \"derived\"\n\n\
             [constants]\nc = \"{c}\"\nT = \"ceil(c*n*ln(n))\"\n\n[claim]\nexpr = \"untouched(T) >= {at_least}\"\n\
             graphs = [\"cycle(8)\", \"complete(8)\", \"hypercube(3)\"]\n\n[domain]\nn = [8]\n"
        )
    };
    // T = ⌈8 ln 8 / 2⌉ = ⌈8.32⌉ = 9: on a 2- or 3-regular graph of 8 vertices one vertex alone is
    // untouched with probability (1 − d/m)^9 ≥ (1 − 3/12)^9 = 0.075; P ≥ 1/20 holds, exactly (T is
    // exact: its enclosure is the single integer 9).
    let v = check(&dir, "holds", &file("1/2", "1/20"));
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert_eq!(v.trust, balloc::claim::Trust::Exact, "{:?}", v.notes);
    assert!(v.notes.iter().any(|n| n.contains("T = 9")), "{:?}", v.notes);
    // T = ⌈2·8 ln 8⌉ = ⌈33.27⌉ = 34: by the union bound P ≤ n(1 − d/m)^T ≤ 8·(3/4)^34 < 5.7·10⁻⁴
    // < 1/50.
    let v = check(&dir, "refuted", &file("2", "1/50"));
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    assert_eq!(v.trust, balloc::claim::Trust::Exact, "{:?}", v.notes);
    // Bad input: a function of the state takes its arguments.
    let p = common::write(
        &dir,
        "bad",
        "title = \"x\"\nkind = \"graph\"\nexpected = \"open\"\nstatement = \"x\"\n[source]\nlocator = \"test\"\nprovenance = \"derived\"\n\n[claim]\nexpr = \"untouched() >= 1/2\"\ngraphs = [\"cycle(8)\"]\n\n[domain]\nn = [8]\n",
    );
    let e = claim::check(&p, &dir, &mut RunContext::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("bad.toml:10:")
            && e.contains("`untouched()` needs an argument")
            && !e.contains('\n'),
        "{e}"
    );
}

#[test]
fn untouched_bounds_every_strategy_in_statistical_files() {
    let dir = common::scratch_in("any_strategy", "stat");
    let file = |probability: &str, balls: &str| {
        format!(
            "title = \"any strategy\"\nkind = \"statistical\"\nexpected = \"open\"\nstatement = \"x\"\n[source]\nlocator = \"test\"\nprovenance = \"derived\"\n\n[claim]\nstatistic = \"spread\"\n\
             graph = [\"cycle\", \"complete\"]\nstrategy = [\"greedy\", \"flow\"]\nprobability = \"{probability}\"\nq = \"1 - untouched\"\n\
             balls = \"{balls}\"\nruns = 400\nseed = 3\nconfidence = 0.95\n\n[domain]\nn = [8]\n"
        )
    };
    // Every strategy: an untouched vertex keeps load 0 while another holds ⌈m/n⌉.
    let v = check(&dir, "holds", &file(">= ceil(m / n)", "n * ln(n) / 2"));
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert!(
        v.notes
            .iter()
            .any(|n| n.contains("the worst of the 4 sources")),
        "{:?}",
        v.notes
    );
    // A false reading: with m = ⌈8 ln 8 / 4⌉ = 5 balls on 8 bins some bin is empty and some
    // holds a ball, so P[spread ≤ ⌈m/n⌉ − 1 = 0] = 0 for every strategy, below untouched (> 0:
    // 5 requests on C₈ touch every vertex only if they include a perfect matching, so most
    // sequences leave one untouched).
    for g in [Graph::cycle(8).unwrap(), Graph::complete(8).unwrap()] {
        let exact = untouched(&g, 5).unwrap().to_f64().unwrap();
        assert!(exact > 0.5, "{} {exact}", g.name());
    }
    let v = check(
        &dir,
        "refuted",
        &file("<= ceil(m / n) - 1", "n * ln(n) / 4"),
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    // untouched needs beta = 1.
    let p = common::write(
        &dir,
        "beta",
        &file(">= ceil(m / n)", "n * ln(n) / 2").replace(
            "strategy = [\"greedy\", \"flow\"]",
            "strategy = \"flow\"\nbeta = 0.5",
        ),
    );
    let e = claim::check(&p, &dir, &mut RunContext::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("beta = 1"), "{e}");
    // untouched bounds the spread from the empty start only.
    for (extra, field) in [
        ("burn_in = \"n\"\n", "burn_in"),
        ("start = \"one-bin(4)\"\n", "start"),
    ] {
        let p = common::write(
            &dir,
            "start",
            &file(">= ceil(m / n)", "n * ln(n) / 2")
                .replace("runs = 400\n", &format!("runs = 400\n{extra}")),
        );
        let e = claim::check(&p, &dir, &mut RunContext::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(field) && e.contains("empty start") && !e.contains('\n'),
            "{e}"
        );
    }
}

/// `P[Y ≥ j0]` for `Y ~ Binomial(t, p)` in exact rationals, term by term.
fn binomial_tail(t: u64, p: &Q, j0: u64) -> Q {
    let q = Q::from_integer(1.into()) - p;
    let mut sum = Q::from_integer(0.into());
    let mut c = Int::from(1u64);
    for j in 0..=t {
        if j >= j0 {
            sum += Q::from_integer(c.clone())
                * num_traits::pow(p.clone(), j as usize)
                * num_traits::pow(q.clone(), (t - j) as usize);
        }
        c = c * Int::from(t - j) / Int::from(j + 1);
    }
    sum
}

/// The least probability, over **every** allocation strategy, that `max L − W/n ≥ x` after `t`
/// more uniform edge requests from the loads `start` (total `W` at the end), as a count over the
/// `mᵗ` request sequences: a strategy sees the whole history and the requested edge; the event
/// depends on the loads at one time only and the requests are independent, so an optimal
/// strategy is a function of the current loads, and the backward recursion
/// `N(L, r) = Σ_{(u,v)} min(N(L + e_u, r − 1), N(L + e_v, r − 1))`, `N(L, 0) = [max L − W/n ≥ x]`,
/// gives its count (x = xn/xd, compared in integers: `n·max L − W ≥ n·x`).
fn least_over_strategies(g: &Graph, start: &[u8], t: u32, xn: i64, xd: i64) -> u64 {
    least_over_strategies_of(g, start, t, (xn, xd), false)
}

/// As [`least_over_strategies`], for the event `max − W/n ≥ x` or, with `two_sided`, the event
/// `max |L − W/n| ≥ x` (either the heaviest vertex `x` above the mean or the lightest `x` below).
fn least_over_strategies_of(
    g: &Graph,
    start: &[u8],
    t: u32,
    (xn, xd): (i64, i64),
    two_sided: bool,
) -> u64 {
    least_over_strategies_for(g, start, t, &|loads| {
        let n = loads.len() as i64;
        let w: i64 = loads.iter().map(|&l| i64::from(l)).sum();
        let max = i64::from(*loads.iter().max().unwrap());
        let min = i64::from(*loads.iter().min().unwrap());
        let above = (n * max - w) * xd >= n * xn;
        let below = two_sided && (w - n * min) * xd >= n * xn;
        above || below
    })
}

/// The least count, over **every** strategy, of the request sequences of length `t` after which
/// `event` holds at the loads, from `start`: the backward recursion
/// `N(L, r) = Σ_{(u,v)} min(N(L + e_u, r − 1), N(L + e_v, r − 1))`, `N(L, 0) = [event(L)]`.
fn least_over_strategies_for(
    g: &Graph,
    start: &[u8],
    t: u32,
    event: &dyn Fn(&[u8]) -> bool,
) -> u64 {
    use std::collections::HashMap;
    fn go(
        g: &Graph,
        loads: &mut Vec<u8>,
        r: u32,
        event: &dyn Fn(&[u8]) -> bool,
        memo: &mut HashMap<(Vec<u8>, u32), u64>,
    ) -> u64 {
        if r == 0 {
            return u64::from(event(loads));
        }
        if let Some(&v) = memo.get(&(loads.clone(), r)) {
            return v;
        }
        let mut total = 0;
        for &(a, b) in g.edges() {
            let mut best = u64::MAX;
            for v in [a, b] {
                loads[v] += 1;
                best = best.min(go(g, loads, r - 1, event, memo));
                loads[v] -= 1;
            }
            total += best;
        }
        memo.insert((loads.clone(), r), total);
        total
    }
    go(g, &mut start.to_vec(), t, event, &mut HashMap::new())
}

/// The two small graphs of the backward-recursion tests: a bowtie (two triangles joined by one
/// edge, a balanced cut) and K₄ joined to a triangle by one edge (an unbalanced cut).
fn cut_graphs() -> [Graph; 2] {
    let bowtie = Graph::from_edges(
        6,
        vec![(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5), (5, 3)],
        "bowtie",
    )
    .unwrap();
    let k4_triangle = Graph::from_edges(
        7,
        vec![
            (0, 1),
            (0, 2),
            (0, 3),
            (1, 2),
            (1, 3),
            (2, 3),
            (3, 4),
            (4, 5),
            (5, 6),
            (6, 4),
        ],
        "k4-triangle",
    )
    .unwrap();
    [bowtie, k4_triangle]
}

/// `(|s|, e_in(s), e_touch(s))` of the side `s = {v : side[v] == want}`, counted here edge by edge.
fn side_counts(g: &Graph, side: &[bool], want: bool) -> (usize, usize, usize) {
    let size = side.iter().filter(|&&v| v == want).count();
    let inside = g
        .edges()
        .iter()
        .filter(|&&(a, b)| side[a] == want && side[b] == want)
        .count();
    let touching = g
        .edges()
        .iter()
        .filter(|&&(a, b)| side[a] == want || side[b] == want)
        .count();
    (size, inside, touching)
}

/// The starts of the backward-recursion tests: equal loads, either side of the cut ahead by two
/// balls a vertex, and loads spread unevenly inside the sides.
fn starts(side: &[bool]) -> Vec<Vec<u8>> {
    let n = side.len();
    vec![
        vec![0u8; n],
        side.iter().map(|&s| if s { 2 } else { 0 }).collect(),
        side.iter().map(|&s| if s { 0 } else { 2 }).collect(),
        (0..n).map(|v| (v % 3) as u8).collect(),
    ]
}

/// `excess_bound`'s argument (the two sides of a minimum cut, every strategy, every start) against
/// the least probability over every strategy computed by backward recursion, on a bowtie (two
/// triangles joined by one edge) and on K₄ joined to a triangle by one edge, from the empty start
/// and from starts where either side is ahead, for every horizon T ≤ 9 and four excesses x.
#[test]
fn the_strategy_free_excess_bound_is_below_the_best_strategy() {
    use balloc::graph::binomial::excess_lower_bound;
    use balloc::graph::measures::minimum_cut;
    let mut positive = 0;
    for g in &cut_graphs() {
        let (k, side) = minimum_cut(g).unwrap();
        assert_eq!(k, 1, "{}", g.name());
        let sides: Vec<(usize, usize)> = [true, false]
            .iter()
            .map(|&want| {
                let (size, inside, _) = side_counts(g, &side, want);
                (size, inside)
            })
            .collect();
        // Hand counts: the bowtie's sides are its triangles (3 vertices, 3 edges each); K₄ + triangle
        // splits into K₄ (4 vertices, 6 edges) and the triangle (3, 3).
        let mut want = if g.n() == 6 {
            vec![(3, 3), (3, 3)]
        } else {
            vec![(4, 6), (3, 3)]
        };
        let mut got = sides.clone();
        want.sort();
        got.sort();
        assert_eq!(got, want, "{}", g.name());
        let n = g.n();
        let starts = starts(&side);
        for start in &starts {
            for t in 1..=9u32 {
                for (xn, xd) in [(1, 2), (1, 1), (3, 2), (2, 1)] {
                    let x = Q::new(xn.into(), xd.into());
                    let bound =
                        excess_lower_bound(u64::from(t), &sides, n, g.m(), &x, 128).unwrap();
                    let count = least_over_strategies(g, start, t, xn, xd);
                    let least = Q::new(count.into(), (g.m() as u64).pow(t).into());
                    // The bound in exact rationals, summed term by term (j₀ = ⌈|s|(T/n + x)⌉).
                    let exact = sides
                        .iter()
                        .map(|&(size, inside)| {
                            let need =
                                Q::from_integer(size.into()) * (Q::new(t.into(), n.into()) + &x);
                            let j0 = need.ceil().to_integer().to_u64().unwrap();
                            binomial_tail(u64::from(t), &Q::new(inside.into(), g.m().into()), j0)
                        })
                        .min()
                        .unwrap();
                    assert!(
                        bound.contains(&exact),
                        "{} T = {t} x = {x}: {bound:?} vs {exact}",
                        g.name()
                    );
                    assert!(
                        least >= exact,
                        "{} start {start:?} T = {t} x = {x}: a strategy reaches {least} < the bound {exact}",
                        g.name()
                    );
                    if bound.lo_f64() > 0.0 {
                        positive += 1;
                    }
                }
            }
        }
    }
    // The bound is not vacuous: it is positive in many of the cases compared.
    assert!(positive >= 40, "{positive}");
}

/// `P[Y ≥ j0]`, `Y ~ Binomial(t, p)`, in plain floats through logarithms: the terms from
/// `ln C(t, j) + j ln p + (t − j) ln(1 − p)` with `ln C` built up one factor at a time.
fn binomial_tail_f64(t: u64, p: f64, j0: u64) -> f64 {
    let mut ln_c = 0.0;
    let mut sum = 0.0;
    for j in 0..=t {
        if j >= j0 {
            sum += (ln_c + j as f64 * p.ln() + (t - j) as f64 * (1.0 - p).ln()).exp();
        }
        ln_c += ((t - j) as f64).ln() - ((j + 1) as f64).ln();
    }
    sum
}

/// The catalogue's `lemma-4-1-every-strategy` and its failing variant: `excess_bound` on the
/// balanced sparse-cut graphs against a float computation of the same tails, and the bound at
/// x = d/(2k), 2.5 standard deviations out by hand (notes of the file), refuted at ≥ 1/10.
#[test]
fn strategy_free_bounds_in_files_agree_with_floats_and_fail_where_derived() {
    use balloc::graph::binomial::excess_lower_bound;
    // sparse-cut(64, 24, 2): sides of 32 vertices with (24·32 − 2)/2 = 383 edges inside each,
    // m = 768; T = ⌈64²·24²/(16·2²)⌉ = 36 864, x = 24/16 = 3/2, j₀ = ⌈32·(576 + 3/2)⌉ = 18 480.
    let b = excess_lower_bound(
        36_864,
        &[(32, 383), (32, 383)],
        64,
        768,
        &Q::new(3.into(), 2.into()),
        128,
    )
    .unwrap();
    let f = binomial_tail_f64(36_864, 383.0 / 768.0, 18_480);
    assert!(
        (b.lo_f64() - f).abs() < 1e-9 * f && b.rel_width() < 1e-20,
        "{b:?} vs {f}"
    );
    // One standard deviation out (√T/2 = 96 = 18 480 − 18 384 = j₀ − E[Y]): about Φ̄(1) ≈ 0.159.
    assert!((f - 0.159).abs() < 0.01, "{f}");
    let dir = common::scratch_in("any_strategy", "excess");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/theorems/graphical-2022/lemma-4-1-every-strategy.toml"
    ))
    .unwrap();
    let v = check(&dir, "holds", &text);
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    let v = check(&dir, "wide", &text.replace("dmax, 8*k)", "dmax, 2*k)"));
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    // The deviation bound on the smaller side: sparse-cut(1024, 8, 2, 9) has a side of 9 vertices
    // with (8·9 − 2)/2 = 35 edges inside and (8·9 + 2)/2 = 37 touching, m = 4096; T = ⌈1024·9·8²/(8·2²)⌉
    // = 18 432, x = 8/16 = 1/2: above, Y ≥ ⌈9·(18 + 1/2)⌉ = 167 of Bin(T, 35/4096); below,
    // Y′ ≤ ⌊9·(18 − 1/2)⌋ = 157 of Bin(T, 37/4096). By hand both are 0.71 standard deviations out.
    use balloc::graph::binomial::deviation_lower_bound;
    let b = deviation_lower_bound(
        18_432,
        (9, 35, 37),
        1024,
        4096,
        &Q::new(1.into(), 2.into()),
        128,
    )
    .unwrap();
    let above = binomial_tail_f64(18_432, 35.0 / 4096.0, 167);
    let below = 1.0 - binomial_tail_f64(18_432, 37.0 / 4096.0, 158);
    let f = above.min(below);
    assert!(
        (b.lo_f64() - f).abs() < 1e-9 * f,
        "{b:?} vs {f} ({above}, {below})"
    );
    assert!((f - 0.24).abs() < 0.03, "{f}");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/theorems/graphical-2022/lemma-4-1-every-strategy-any-cut.toml"
    ))
    .unwrap()
    .replace("uses = [\"graphical-2022/lemma-4-1-every-strategy\", \"graphical-2022/lemma-4-1-tail-unbalanced\"]\n", "");
    let v = check(&dir, "any-cut", &text);
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    // x = d/(2k): (1/8 + 1/2)/√(1/8) = 1.77 standard deviations on the small sides (about 0.04).
    let v = check(
        &dir,
        "any-cut-wide",
        &text.replace("dmax, 8*k)", "dmax, 2*k)"),
    );
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
}

/// `deviation_bound`'s argument — one set s, above or below the mean at t − T, the requests inside
/// or touching it — against the least probability over every strategy of a deviation ≥ x (backward
/// recursion), for **each** side of the cut on two small graphs, including the unbalanced one
/// (K₄ joined to a triangle), from four starts, T ≤ 9 and four x; the library's value (the smaller
/// side) is the exact bound of that side.
#[test]
fn the_strategy_free_deviation_bound_is_below_the_best_strategy() {
    use balloc::graph::binomial::deviation_lower_bound;
    use balloc::graph::measures::minimum_cut;
    let mut positive = 0;
    for g in &cut_graphs() {
        let (_, side) = minimum_cut(g).unwrap();
        let n = g.n();
        let count = |want: bool| side_counts(g, &side, want);
        // Hand counts: K₄ + triangle: the triangle side has 3 vertices, 3 edges inside, 4 touching.
        if n == 7 {
            assert_eq!(count(false), (3, 3, 4));
        }
        let starts = starts(&side);
        for start in &starts {
            for t in 1..=9u32 {
                for (xn, xd) in [(1, 2), (1, 1), (3, 2), (2, 1)] {
                    let x = Q::new(xn.into(), xd.into());
                    let count_all = least_over_strategies_of(g, start, t, (xn, xd), true);
                    let least = Q::new(count_all.into(), (g.m() as u64).pow(t).into());
                    for want in [true, false] {
                        let (size, inside, touching) = count(want);
                        let s_q = Q::from_integer(size.into());
                        let tn = Q::new(t.into(), n.into());
                        let up = (s_q.clone() * (tn.clone() + &x))
                            .ceil()
                            .to_integer()
                            .to_u64()
                            .unwrap();
                        let above =
                            binomial_tail(u64::from(t), &Q::new(inside.into(), g.m().into()), up);
                        let down = (s_q * (tn - &x)).floor().to_integer();
                        let below = match down.to_u64() {
                            None => Q::from_integer(0.into()),
                            // P[Y′ ≤ j] = 1 − P[Y′ ≥ j + 1].
                            Some(j) => {
                                Q::from_integer(1.into())
                                    - binomial_tail(
                                        u64::from(t),
                                        &Q::new(touching.into(), g.m().into()),
                                        j + 1,
                                    )
                            }
                        };
                        let exact = above.min(below);
                        assert!(
                            least >= exact,
                            "{} side {want} start {start:?} T = {t} x = {x}: a strategy reaches {least} < {exact}",
                            g.name()
                        );
                        if !want {
                            let b = deviation_lower_bound(
                                u64::from(t),
                                (size, inside, touching),
                                n,
                                g.m(),
                                &x,
                                128,
                            )
                            .unwrap();
                            assert!(
                                b.contains(&exact),
                                "{} T = {t} x = {x}: {b:?} vs {exact}",
                                g.name()
                            );
                            positive += usize::from(exact > Q::from_integer(0.into()));
                        }
                    }
                }
            }
        }
    }
    assert!(positive >= 40, "{positive}");
}

/// Bad arguments of the strategy-free bounds are one-line errors naming the function.
#[test]
fn strategy_free_bounds_refuse_bad_arguments() {
    let dir = common::scratch_in("any_strategy", "bad");
    let sparse = "sparse-cut(20,4,2)";
    for (expr, graph, n, want) in [
        (
            "excess_bound(10, 1, 0) >= 0",
            sparse,
            20,
            "b must be positive",
        ),
        ("deviation_bound(0, 1, 2) >= 0", sparse, 20, "needs T ≥ 1"),
        (
            "excess_bound(10, 1) >= 0",
            sparse,
            20,
            "takes 3 argument(s), got 2",
        ),
        (
            "deviation_bound(99999999999, 1, 2) >= 0",
            sparse,
            20,
            "BINOMIAL_TRIALS",
        ),
        ("pair_bound(10, 3, 3) >= 0", sparse, 20, "0 < y < j"),
        ("pair_bound(10, 3, 1) >= 0", "path(6)", 6, "is not regular"),
    ] {
        let p = common::write(
            &dir,
            "bad",
            &format!(
                "title = \"x\"\nkind = \"graph\"\nexpected = \"open\"\nstatement = \"x\"\n[source]\nlocator = \"test\"\nprovenance = \"derived\"\n\n\
                 [claim]\nover = \"state\"\nexpr = \"{expr}\"\ngraphs = [\"{graph}\"]\n\n[domain]\nn = [{n}]\n"
            ),
        );
        let e = claim::check(&p, &dir, &mut RunContext::default())
            .unwrap_err()
            .to_string();
        let name = expr.split('(').next().unwrap();
        assert!(
            e.contains("bad.toml") && e.contains(name) && e.contains(want) && !e.contains('\n'),
            "{expr}: {e}"
        );
    }
}

/// The starts of the strategy-free tests on small regular graphs: equal loads, one vertex three
/// ahead, every other vertex two ahead, loads 0, 1, 2 in turn, and `last` (a test's own fifth).
fn small_starts(n: usize, last: Vec<u8>) -> Vec<Vec<u8>> {
    vec![
        vec![0; n],
        (0..n).map(|v| u8::from(v == 0) * 3).collect(),
        (0..n).map(|v| (v % 2) as u8 * 2).collect(),
        (0..n).map(|v| (v % 3) as u8).collect(),
        last,
    ]
}

/// The comparisons of a strategy-free bound with the best strategy: how many, and how many of them
/// with a positive threshold and bound (so that the test is not vacuous).
#[derive(Default)]
struct Comparisons {
    compared: usize,
    positive: usize,
}

impl Comparisons {
    /// Asserts that `want` is at most the least probability, over every strategy, that `event`
    /// holds after `t` uniform requests from each of `starts` (`label` names the case in a
    /// failure), and counts the starts compared (also as positive when `positive`).
    #[allow(clippy::too_many_arguments)]
    fn assert_below_best(
        &mut self,
        g: &Graph,
        starts: &[Vec<u8>],
        t: u32,
        event: &dyn Fn(&[u8]) -> bool,
        want: &Q,
        label: &str,
        positive: bool,
    ) {
        for start in starts {
            let least = least_over_strategies_for(g, start, t, event);
            let least = Q::new(least.into(), (g.m() as u64).pow(t).into());
            assert!(
                &least >= want,
                "{} start {start:?} {label}: a strategy reaches {least} < {want}",
                g.name()
            );
        }
        self.compared += starts.len();
        if positive {
            self.positive += starts.len();
        }
    }
}

/// The request counts of the `m` edges in the request sequence number `code` (base `m`, `t` digits).
fn request_counts(code: u64, m: usize, t: u32) -> Vec<u32> {
    let mut c = code;
    let mut counts = vec![0u32; m];
    for _ in 0..t {
        counts[(c % m as u64) as usize] += 1;
        c /= m as u64;
    }
    counts
}

/// `pair_bound`'s argument for Lemma 4.2 (every strategy, every start) on small regular graphs —
/// C₄, C₅, K₄ and the triangular prism — for every horizon T ≤ 6, every j ≤ 4 and 0 < y < j:
/// * the second-moment value `S₁²/(S₁ + m(m − 1)P₁₂)` counted here over all `mᵀ` request sequences
///   (S₁ from every edge's count, P₁₂ from the first two edges) lies in the library's enclosure,
///   which computes it from binomial laws instead, and is at most the exact `P[M_T ≥ j]` counted
///   over the same sequences;
/// * that value times `y/j` is at most the least probability over **every** strategy of
///   `max L − W/n ≥ (j − y)/2 − T/n` after T requests, from five starts (backward recursion).
///
/// The bound reaches 0.46 of the least probability (C₄ from equal loads, T = 6, j = 2, y = 1); with
/// the `− T/n` dropped from the threshold the comparison fails (C₄, T = 3, j = 2, y = 1: a strategy
/// reaches 1/8 against the bound 5/16) — checked.
#[test]
fn the_strategy_free_pair_bound_is_below_the_best_strategy() {
    use balloc::graph::binomial::pair_lower_bound;
    let prism = Graph::from_edges(
        6,
        vec![
            (0, 1),
            (1, 2),
            (2, 0),
            (3, 4),
            (4, 5),
            (5, 3),
            (0, 3),
            (1, 4),
            (2, 5),
        ],
        "prism",
    )
    .unwrap();
    let graphs = [
        Graph::cycle(4).unwrap(),
        Graph::cycle(5).unwrap(),
        Graph::complete(4).unwrap(),
        prism,
    ];
    let mut tally = Comparisons::default();
    for g in &graphs {
        let (n, m) = (g.n(), g.m());
        let starts = small_starts(n, (0..n).map(|v| u8::from(v + 1 == n) * 4).collect());
        for t in 1..=6u32 {
            let total = (m as u64).pow(t);
            let seqs: Vec<Vec<u32>> = (0..total).map(|c| request_counts(c, m, t)).collect();
            for j in 2..=4u32.min(t) {
                let count =
                    |f: &dyn Fn(&[u32]) -> bool| seqs.iter().filter(|c| f(c)).count() as u64;
                let frac = |k: u64| Q::new(k.into(), total.into());
                let exact = frac(count(&|c| c.iter().any(|&k| k >= j)));
                let s1 = (0..m)
                    .map(|e| frac(count(&|c| c[e] >= j)))
                    .fold(Q::from_integer(0.into()), |a, b| a + b);
                let p12 = frac(count(&|c| c[0] >= j && c[1] >= j));
                let pairs = Q::from_integer(((m * (m - 1)) as u64).into());
                let second = &s1 * &s1 / (&s1 + pairs * p12);
                assert!(
                    second <= exact,
                    "{} T = {t} j = {j}: {second} > {exact}",
                    g.name()
                );
                for y in 1..j {
                    let bound =
                        pair_lower_bound(u64::from(t), n, m, u64::from(j), u64::from(y), 128)
                            .unwrap();
                    let want = &second * Q::new(y.into(), j.into());
                    assert!(
                        bound.contains(&want),
                        "{} T = {t} j = {j} y = {y}: {bound:?} vs {want}",
                        g.name()
                    );
                    // The threshold (j − y)/2 − T/n = ((j − y)n − 2T)/(2n).
                    let (xn, xd) = (i64::from(j - y) * n as i64 - 2 * i64::from(t), 2 * n as i64);
                    let above = |l: &[u8]| {
                        let w: i64 = l.iter().map(|&x| i64::from(x)).sum();
                        let max = i64::from(*l.iter().max().unwrap());
                        (n as i64 * max - w) * xd >= n as i64 * xn
                    };
                    let label = format!("T = {t} j = {j} y = {y}");
                    let positive = xn > 0 && want > Q::from_integer(0.into());
                    tally.assert_below_best(g, &starts, t, &above, &want, &label, positive);
                }
            }
        }
    }
    // Not vacuous: many comparisons with a positive threshold and a positive bound.
    let Comparisons { compared, positive } = tally;
    assert!(compared >= 300 && positive >= 100, "{compared} {positive}");
}

/// `pair_bound` at the sizes of `graphical-2022/lemma-4-2-every-strategy` against the same
/// second-moment formula in plain floats (binomial terms through logarithms, `P₁₂` summed term by
/// term): cycles of 64 and 8192 vertices and a 3-regular graph's edge count at n = 1024, with the
/// file's T = ⌊n/2⌋, y = 1 and j = 3, 4.
#[test]
fn the_pair_bound_agrees_with_floats_at_the_files_sizes() {
    use balloc::graph::binomial::pair_lower_bound;
    for (n, m, j) in [(64usize, 64usize, 3u64), (8192, 8192, 4), (1024, 1536, 3)] {
        let t = (n / 2) as u64;
        let p1 = 1.0 / m as f64;
        let s1 = m as f64 * binomial_tail_f64(t, p1, j);
        let pmf = |a: u64| binomial_tail_f64(t, p1, a) - binomial_tail_f64(t, p1, a + 1);
        let p12: f64 = (j..=(t - j).min(j + 40))
            .map(|a| pmf(a) * binomial_tail_f64(t - a, 1.0 / (m - 1) as f64, j))
            .sum();
        let want = s1 * s1 / (s1 + (m * (m - 1)) as f64 * p12) / j as f64;
        let got = pair_lower_bound(t, n, m, j, 1, 128).unwrap();
        assert!(
            (got.mid_f64() / want - 1.0).abs() < 1e-9 && got.rel_width() < 1e-20,
            "n = {n}, m = {m}, j = {j}: {got:?} vs {want}"
        );
        assert!(want > 0.1, "n = {n}: {want}");
    }
}

/// `spread_bound`'s argument for Theorem 1.2's Ω(log n) at every time (every strategy, every start)
/// on small vertex-transitive graphs — C₄, C₅, K₄, the 3-cube and the 3 × 3 torus — for horizons
/// T ≤ 6 (T ≤ 4 on the torus) and 1 ≤ y ≤ b ≤ 3:
/// * the second-moment bound on `P[some vertex untouched]` lies below the exact probability
///   (`graph::coupon::untouched`) and its enclosure contains the same formula in rationals here;
/// * `min(P[Bin(T, d/m) ≤ b], that·y/b)` is at most the least probability over **every** strategy
///   of `max L − min L ≥ T/n − y` after T requests, from five starts (backward recursion).
///
/// On graphs this small the event's threshold T/n − y is below 1/2 and the bound reaches at most a
/// quarter of the optimum (C₅, T = 6, b = y = 1), so this checks the inequality, not its constants:
/// the bound's derivation is in `graph::spread`.
#[test]
fn the_strategy_free_spread_bound_is_below_the_best_strategy() {
    use balloc::graph::coupon::untouched;
    use balloc::graph::spread::{spread_lower_bound, untouched_lower_bound};
    let graphs = [
        (Graph::cycle(4).unwrap(), 6u32),
        (Graph::cycle(5).unwrap(), 6),
        (Graph::complete(4).unwrap(), 6),
        (Graph::hypercube(3).unwrap(), 5),
        (Graph::torus(3, 3).unwrap(), 4),
    ];
    let mut tally = Comparisons::default();
    for (g, horizon) in &graphs {
        let (n, m) = (g.n(), g.m());
        let d = g.regular_degree().unwrap();
        let starts = small_starts(n, (0..n).map(|v| u8::from(v + 1 != n) * 2).collect());
        let qq = |a: usize, b: usize| Q::new(a.into(), b.into());
        for t in 1..=*horizon {
            // (1 − k/m)^T in rationals, 0 for k ≥ m.
            let missed = |k: usize| {
                if k >= m {
                    Q::from_integer(0.into())
                } else {
                    num_traits::pow(qq(m - k, m), t as usize)
                }
            };
            let e1 = Q::from_integer(n.into()) * missed(d);
            let e2 = &e1
                + Q::from_integer((2 * m).into()) * missed(2 * d - 1)
                + Q::from_integer((n * (n - 1) - 2 * m).into()) * missed(2 * d);
            let second = &e1 * &e1 / e2;
            let exact = untouched(g, u64::from(t)).unwrap();
            assert!(second <= exact, "{} T = {t}: {second} > {exact}", g.name());
            let lib = untouched_lower_bound(g, u64::from(t), 128).unwrap();
            assert!(
                lib.contains(&second),
                "{} T = {t}: {lib:?} vs {second}",
                g.name()
            );
            for b in 1..=3u32 {
                let touched = Q::from_integer(1.into())
                    - binomial_tail(u64::from(t), &qq(d, m), u64::from(b) + 1);
                for y in 1..=b {
                    let want = std::cmp::min(touched.clone(), &second * Q::new(y.into(), b.into()));
                    let bound =
                        spread_lower_bound(g, u64::from(t), u64::from(b), u64::from(y), 128)
                            .unwrap();
                    assert!(
                        bound.contains(&want),
                        "{} T = {t} b = {b} y = {y}",
                        g.name()
                    );
                    // max − min ≥ T/n − y, in integers: n·(max − min) ≥ T − y·n.
                    let need = i64::from(t) - i64::from(y) * n as i64;
                    let spread = |l: &[u8]| {
                        let (max, min) = (l.iter().max().unwrap(), l.iter().min().unwrap());
                        n as i64 * i64::from(max - min) >= need
                    };
                    let label = format!("T = {t} b = {b} y = {y}");
                    let positive = need > 0 && want > Q::from_integer(0.into());
                    tally.assert_below_best(g, &starts, t, &spread, &want, &label, positive);
                }
            }
        }
    }
    let Comparisons { compared, positive } = tally;
    assert!(compared >= 500 && positive >= 20, "{compared} {positive}");
}

/// `spread_bound` at sizes of `graphical-2022/theorem-1-2-log-n-every-strategy` against the same
/// formula in plain floats: C₆₄, C₄₀₉₆, the 32 × 32 torus and the 10-cube, with the file's
/// T = ⌊n ln n/2⌋, b = ⌈ln n/2⌉, y = 1.
#[test]
fn the_spread_bound_agrees_with_floats_at_the_files_sizes() {
    use balloc::graph::spread::spread_lower_bound;
    for g in [
        Graph::cycle(64).unwrap(),
        Graph::cycle(4096).unwrap(),
        Graph::torus(32, 32).unwrap(),
        Graph::hypercube(10).unwrap(),
    ] {
        let (n, m) = (g.n() as f64, g.m() as f64);
        let d = g.regular_degree().unwrap() as f64;
        let t = (n * n.ln() / 2.0).floor();
        let b = (n.ln() / 2.0).ceil() as u64;
        let miss = |k: f64| (1.0 - k / m).max(0.0).powf(t);
        let e1 = n * miss(d);
        let e2 = e1 + 2.0 * m * miss(2.0 * d - 1.0) + (n * (n - 1.0) - 2.0 * m) * miss(2.0 * d);
        let touched = 1.0 - binomial_tail_f64(t as u64, d / m, b + 1);
        let want = touched.min(e1 * e1 / e2 / b as f64);
        let got = spread_lower_bound(&g, t as u64, b, 1, 128).unwrap();
        assert!(
            (got.mid_f64() / want - 1.0).abs() < 1e-9,
            "{}: {got:?} vs {want}",
            g.name()
        );
        assert!(want > 0.05, "{}: {want}", g.name());
    }
}
