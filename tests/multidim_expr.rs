//! Multidimensional claims in the claim language: a group potential's one-step expectation against
//! a hand computation, the quadratic identity of the sum loads, bad input as one-line errors.

use balloc::claim::Status;

const HEAD: &str = "title = \"t\"\nkind = \"multidim\"\nexpected = \"open\"\nstatement = \"s\"\n[source]\nlocator = \"x\"\nprovenance = \"derived\"\n";

fn check(body: &str) -> balloc::claim::Verdict {
    balloc::check_str(&format!("{HEAD}{body}")).unwrap()
}

fn err(body: &str) -> String {
    let e = balloc::check_str(&format!("{HEAD}{body}"))
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert_eq!(e.trim().lines().count(), 1, "{e}");
    e
}

/// D's Γ at the all-zero state of n = 4 bins, D = 4, f = 2, α = 1/16 (printed reading).
fn gamma_at_zero(expr: &str, rule: &str) -> Status {
    let body = format!(
        "[potentials]\nGamma = \"sum((exp(alpha*y) + exp(-alpha*y))/rank)\"\n[constants]\nalpha = \"1/16\"\n\
         [claim]\nexpr = \"{expr}\"\nball = \"uniform(dims=4,f=2)\"\nrules = [\"{rule}\"]\n\
         states = [[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]]\n[domain]\nn = [4]\n"
    );
    check(&body).verdict
}

#[test]
fn group_potential_expectation_matches_the_hand_value() {
    // Γ(0) = Σ_i 2/i = 2H_4 = 25/6. After one ball (any support, any bin) one sum load is
    // f − f/n = 3/2 and three are −f/n = −1/2: sorted, the heavy bin has rank 1, so
    // Γ' = 2cosh(3/32) + 2cosh(1/32)(1/2 + 1/3 + 1/4), the same for every outcome.
    for rule in ["sum two-choice", "max two-choice", "sum one-choice"] {
        let hand = "2*cosh(3/32) + 2*cosh(1/32)*(13/12)";
        assert_eq!(
            gamma_at_zero(&format!("E_Gamma <= {hand} + 1/10^12"), rule),
            Status::Holds,
            "{rule}"
        );
        assert_eq!(
            gamma_at_zero(&format!("E_Gamma <= {hand} - 1/10^12"), rule),
            Status::Refuted,
            "{rule}"
        );
        assert_eq!(gamma_at_zero("Gamma == 25/6", rule), Status::Holds);
        assert_eq!(gamma_at_zero("R_Gamma > 1", rule), Status::Holds);
    }
}

#[test]
fn per_bin_names_and_gaps_by_hand() {
    // n = 2, D = 2, loads l(·, bin 1) = (2, 0), l(·, bin 2) = (0, 1): averages (1, 1/2);
    // sum loads s = (1 + (−1/2), −1 + 1/2) = (1/2, −1/2); gaps: dimension 1: 2 − 1 = 1,
    // dimension 2: 1 − 1/2 = 1/2: gap_max = 1, gap_sum = 3/2; units = 3.
    let body = "[claim]\nexpr = \"sum(y*rank) == -1/2 && gap_max == 1 && gap_sum == 3/2 && units == 3 && max_bins(x) == 2 && D == 2\"\n\
                ball = \"uniform(dims=2,f=1)\"\nrules = [\"sum one-choice\"]\nstates = [[[2, 0], [0, 1]]]\n[domain]\nn = [2]\n";
    let v = check(body);
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert_eq!(v.trust, balloc::claim::Trust::Exact);
}

#[test]
fn bad_multidim_claims_are_one_line_errors() {
    let base = |claim: &str| format!("[claim]\n{claim}\n[domain]\nn = [2]\n");
    let e = err(&base(
        "expr = \"n >= 1\"\nball = \"uniform(dims=3,f=1)\"\nrules = [\"sum two-choice\"]\nstates = [[[1, 0], [0, 1]]]",
    ));
    assert!(e.contains("states[0] has 2 dimensions"), "{e}");
    let e = err(&base(
        "expr = \"f >= 1\"\nball = \"binomial(dims=3,q=1/2)\"\nrules = [\"sum two-choice\"]\nrandom = 2",
    ));
    assert!(e.contains("no fixed f"), "{e}");
    let e = err(&base(
        "expr = \"n >= 1\"\nball = \"uniform(dims=3,f=1)\"\nrules = [\"two-choice\"]\nrandom = 2",
    ));
    assert!(e.contains("<criterion> <choice>"), "{e}");
    let e = err(&base(
        "expr = \"n >= 1\"\nball = \"uniform(dims=3,f=1)\"\nrules = [\"sum two-choice\"]",
    ));
    assert!(e.contains("no states"), "{e}");
    let e = err(&base(
        "expr = \"n >= 1\"\nball = \"uniform(dims=3,f=1)\"\nrules = [\"sum two-choice\"]\nmax_load = 9",
    ));
    assert!(e.contains("exceed the limit"), "{e}");
    let e = err(&format!(
        "[potentials]\nX = \"sum(y^2)\"\n{}",
        base(
            "expr = \"E2_X >= 0\"\nball = \"uniform(dims=3,f=1)\"\nrules = [\"sum two-choice\"]\nrandom = 1"
        )
    ));
    assert!(e.contains("one-step"), "{e}");
    let e = err(&base(
        "expr = \"sum(p) == 1\"\nball = \"uniform(dims=3,f=1)\"\nrules = [\"sum two-choice\"]\nrandom = 1",
    ));
    assert!(e.contains("per-bin `p`"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Per-dimension names and binders over the dimensions

use balloc::exact::Q;

fn q(s: &str) -> Q {
    s.parse().unwrap()
}

/// The test state: n = 3 bins, D = 2 dimensions, rows are bins: bin 1 = (2, 0), bin 2 = (0, 1),
/// bin 3 = (1, 1). Bin sums (2, 1, 2): bins 1 and 3 tie in sum load (s = 1/3, −2/3, 1/3) but not
/// in their per-dimension loads.
fn test_state() -> Vec<Vec<i64>> {
    vec![vec![2, 0], vec![0, 1], vec![1, 1]]
}

/// `P = Σ_b Σ_a (l(a, b) − avg(a))²` written out directly.
fn per_dim_quadratic(rows: &[Vec<i64>]) -> Q {
    let n = rows.len() as i64;
    let mut acc = q("0");
    for a in 0..rows[0].len() {
        let total: i64 = rows.iter().map(|r| r[a]).sum();
        let avg = Q::new(total.into(), n.into());
        for r in rows {
            let v = Q::from_integer(r[a].into()) - &avg;
            acc += &v * &v;
        }
    }
    acc
}

/// `M = Σ_b max_a (l(a, b) − avg(a))` written out directly.
fn per_bin_max(rows: &[Vec<i64>]) -> Q {
    let n = rows.len() as i64;
    let dims = rows[0].len();
    let avg: Vec<Q> = (0..dims)
        .map(|a| Q::new(rows.iter().map(|r| r[a]).sum::<i64>().into(), n.into()))
        .collect();
    rows.iter()
        .map(|r| {
            (0..dims)
                .map(|a| Q::from_integer(r[a].into()) - &avg[a])
                .max()
                .unwrap()
        })
        .sum()
}

/// `Q = Σ_b Σ_a e^{α(l(a, b) − avg(a))}` in floats.
fn per_dim_exp(rows: &[Vec<i64>], alpha: f64) -> f64 {
    let n = rows.len() as f64;
    let mut acc = 0.0;
    for a in 0..rows[0].len() {
        let avg = rows.iter().map(|r| r[a] as f64).sum::<f64>() / n;
        for r in rows {
            acc += (alpha * (r[a] as f64 - avg)).exp();
        }
    }
    acc
}

/// The one-step outcomes of Two-Choice at the test state, uniform(dims=2, f=1) balls (support
/// {dim 1} or {dim 2}, 1/2 each), written out by hand: (support dimension, bin, probability).
/// Two-Choice at n = 3 gives rank r the probability (2r − 1)/9: 1/9, 3/9, 5/9 (rank 1 =
/// heaviest), a tied group the average of its ranks' probabilities.
/// * Sum rule: keys are the bin sums (2, 1, 2): bins 1 and 3 share ranks 1, 2 → (1/9 + 3/9)/2 =
///   2/9 each; bin 2 has rank 3 → 5/9. The same for both supports.
/// * Max rule, support {dim 1}: keys l(1, ·) = (2, 0, 1): ranks 1, 3, 2 → (1/9, 5/9, 3/9);
///   support {dim 2}: keys l(2, ·) = (0, 1, 1): bins 2, 3 tie at ranks 1, 2 → 2/9 each, bin 1
///   has rank 3 → (5/9, 2/9, 2/9).
fn hand_outcomes(rule: &str) -> Vec<(usize, usize, Q)> {
    let q_of = |v: [&str; 3]| v.map(q);
    let per_support = match rule {
        "sum" => [q_of(["2/9", "5/9", "2/9"]), q_of(["2/9", "5/9", "2/9"])],
        _ => [q_of(["1/9", "5/9", "3/9"]), q_of(["5/9", "2/9", "2/9"])],
    };
    let mut out = Vec::new();
    for (a, qs) in per_support.into_iter().enumerate() {
        for (b, p) in qs.into_iter().enumerate() {
            out.push((a, b, q("1/2") * p));
        }
    }
    out
}

fn after(rows: &[Vec<i64>], a: usize, b: usize) -> Vec<Vec<i64>> {
    let mut y = rows.to_vec();
    y[b][a] += 1;
    y
}

fn md_file(potentials: &str, expr: &str, rule: &str) -> String {
    format!(
        "[potentials]\n{potentials}\n[constants]\nalpha = \"1/2\"\n[claim]\nexpr = \"{expr}\"\n\
         ball = \"uniform(dims=2,f=1)\"\nrules = [\"{rule}\"]\n[domain]\nn = [3]\n\
         states = [[[2, 0], [0, 1], [1, 1]]]\n"
    )
}

#[test]
fn expectation_of_a_per_dimension_potential_matches_the_hand_enumeration() {
    let x = test_state();
    let pots = "P = \"sum(sum_dims((l(a, i) - avg(a))^2))\"\nQ = \"sum(sum_dims(exp(alpha*(l(a, i) - avg(a)))))\"\nM = \"sum(max_dims(l(a, i) - avg(a)))\"";
    for rule in ["sum", "max"] {
        let outs = hand_outcomes(rule);
        assert_eq!(outs.iter().map(|o| o.2.clone()).sum::<Q>(), q("1"));
        // Exact: E[P'] by the hand enumeration.
        let e_p: Q = outs
            .iter()
            .map(|(a, b, p)| p * per_dim_quadratic(&after(&x, *a, *b)))
            .sum();
        let r = format!("{rule} two-choice");
        // E[M'] exactly: M is not a function of the sum loads, so a route that grouped the tied
        // bins 1 and 3 of the sum rule (bin 1's outcome counted for both) would give another
        // value, which the claim tells apart.
        let e_m: Q = outs
            .iter()
            .map(|(a, b, p)| p * per_bin_max(&after(&x, *a, *b)))
            .sum();
        if rule == "sum" {
            let grouped: Q = outs
                .iter()
                .map(|(a, b, p)| p * per_bin_max(&after(&x, *a, if *b == 2 { 0 } else { *b })))
                .sum();
            assert_ne!(grouped, e_m);
            let v = check(&md_file(pots, &format!("E_M == {grouped}"), &r));
            assert_eq!(v.verdict, Status::Refuted);
        }
        let v = check(&md_file(pots, &format!("E_M == {e_m}"), &r));
        assert_eq!(v.verdict, Status::Holds, "{rule}: {:?}", v.notes);
        let v = check(&md_file(pots, &format!("E_P == {e_p}"), &r));
        assert_eq!(v.verdict, Status::Holds, "{rule}: {:?}", v.notes);
        assert_eq!(v.trust, balloc::claim::Trust::Exact);
        let v = check(&md_file(pots, &format!("E_P == {e_p} + 1/1000"), &r));
        assert_eq!(v.verdict, Status::Refuted, "{rule}");
        // A second route for the change: the library's closed form of E[ΔΥ_md].
        let law = balloc::multidim::BallLaw::parse("uniform(dims=2,f=1)").unwrap();
        let md_rule = balloc::multidim::MdRule::parse(rule, "two-choice").unwrap();
        let xl = balloc::multidim::MdLoads::from_rows(&x).unwrap();
        let closed: Q =
            balloc::multidim::expectation::expected_quadratic_change(&xl, &law, &md_rule).unwrap();
        assert_eq!(&e_p - per_dim_quadratic(&x), closed, "{rule}");
        let v = check(&md_file(pots, &format!("dE_P == {closed}"), &r));
        assert_eq!(v.verdict, Status::Holds, "{rule}");
        // Floats: E[Q'] by the hand enumeration, α = 1/2; the claim decides by enclosures.
        let e_q: f64 = outs
            .iter()
            .map(|(a, b, p)| {
                num_traits::ToPrimitive::to_f64(p).unwrap() * per_dim_exp(&after(&x, *a, *b), 0.5)
            })
            .sum();
        let band = format!("E_Q >= {:.15} - 1/10^9 && E_Q <= {:.15} + 1/10^9", e_q, e_q);
        let v = check(&md_file(pots, &band, &r));
        assert_eq!(v.verdict, Status::Holds, "{rule}: {band}");
        assert_eq!(v.trust, balloc::claim::Trust::Enclosure);
        let v = check(&md_file(pots, &format!("E_Q <= {e_q:.15} - 1/10^6"), &r));
        assert_eq!(v.verdict, Status::Refuted, "{rule}");
    }
}

#[test]
fn bad_per_dimension_arguments_are_one_line_errors() {
    let file = |expr: &str| {
        format!(
            "[claim]\nexpr = \"{expr}\"\nball = \"uniform(dims=2,f=1)\"\nrules = [\"sum one-choice\"]\n\
             [domain]\nstates = [[[2, 0], [0, 1], [1, 1]]]\n"
        )
    };
    let e = err(&file("l(0, 1) >= 0"));
    assert!(e.contains("l(a, b): a = 0 is outside 1..=2 (D = 2)"), "{e}");
    let e = err(&file("l(1, n + 1) >= 0"));
    assert!(e.contains("l(a, b): b = 4 is outside 1..=3 (n = 3)"), "{e}");
    let e = err(&file("l(1/2, 1) >= 0"));
    // Line 9 of the file is `expr = "l(1/2, 1) >= 0"`: column 11 is the argument `1/2`.
    assert!(
        e.contains("the argument `a` must be an integer, got 1/2") && e.contains(":9:11:"),
        "{e}"
    );
    let e = err(&file("l(sqrt(2), 1) >= 0"));
    assert!(e.contains("must be known exactly"), "{e}");
    let e = err(&file("l(1) >= 0"));
    assert!(e.contains("takes 2 argument(s), got 1"), "{e}");
    let e = err(&file("avgg(1) >= 0"));
    assert!(
        e.contains("did you mean `avg`?") && e.contains("l(a, b), avg(a)"),
        "{e}"
    );
    let e = err(&file("a >= 0"));
    assert!(e.contains("per-dimension name"), "{e}");
    let e = err(&file("gap >= 0"));
    assert!(e.contains("call it as gap(a)"), "{e}");
    // A constant named `a` is fine outside the binders, an error inside them.
    let e = err(&format!("[constants]\na = 2\n{}", file("sum_dims(a) >= 0")));
    assert!(e.contains("rename the constant"), "{e}");
    let v = check(&format!("[constants]\na = 2\n{}", file("a*gap_max == 2")));
    assert_eq!(v.verdict, Status::Holds);
}

#[test]
fn other_kinds_reject_the_multidimensional_names() {
    let ineq = |expr: &str| {
        format!(
            "title = \"t\"\nkind = \"inequality\"\nexpected = \"open\"\nstatement = \"s\"\n[source]\n\
             locator = \"x\"\nprovenance = \"derived\"\n[setting]\nprocesses = [\"two-choice\"]\n\
             [claim]\nexpr = \"{expr}\"\n[domain]\nn = [3]\nrandom = 1\n"
        )
    };
    let e1 = |text: &str| {
        let e = balloc::check_str(text).map(|_| ()).unwrap_err().to_string();
        assert_eq!(e.trim().lines().count(), 1, "{e}");
        e
    };
    let e = e1(&ineq("sum_dims(1) >= 0"));
    assert!(e.contains("needs states with dimensions"), "{e}");
    let e = e1(&ineq("l(1, 1) >= 0"));
    assert!(
        e.contains("unknown function `l`") && e.contains("sum_dims"),
        "{e}"
    );
    let e = e1(&ineq("avg(1) >= 0"));
    assert!(e.contains("unknown function `avg`"), "{e}");
    let e = e1(&ineq("s(1) >= 0"));
    assert!(e.contains("unknown function `s`"), "{e}");
    let e = e1(&ineq("sum(y*a) >= 0"));
    assert!(e.contains("unknown name `a`"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Md states in [domain]

fn domain_file(claim_extra: &str, domain: &str) -> String {
    format!(
        "[claim]\nexpr = \"units >= 0\"\nball = \"uniform(dims=2,f=1)\"\nrules = [\"sum two-choice\"]\n\
         {claim_extra}[domain]\n{domain}"
    )
}

#[test]
fn md_states_max_load_and_random_in_domain() {
    // Explicit states in [domain]; n taken from them. Two states: units 3 and 5.
    let v = check(&domain_file(
        "",
        "states = [[[2, 0], [0, 1]], [[2, 0], [0, 1], [1, 1]]]\n",
    ));
    assert_eq!(v.verdict, Status::Holds);
    assert_eq!(v.searched.total, 2);
    assert_eq!(v.searched.n, vec![2, 3]);
    // max_load in [domain]: (1 + 1)^(2·2) = 16 states at n = 2.
    let v = check(&domain_file("", "n = [2]\nmax_load = 1\n"));
    assert_eq!(v.searched.total, 16);
    // random in [domain]: 5 reached states at n = 2 and 5 at n = 3.
    let v = check(&domain_file("", "n = [2, 3]\nrandom = 5\nseed = 3\n"));
    assert_eq!(v.searched.total, 10);
    // The same fields in [claim] still work and give the same states.
    let d = check(&domain_file(
        "",
        "n = [2]\nmax_load = 1\nrandom = 4\nseed = 7\n",
    ));
    let c = check(&domain_file(
        "max_load = 1\nrandom = 4\n",
        "n = [2]\nseed = 7\n",
    ));
    assert_eq!((d.searched.total, c.searched.total), (20, 20));
    // The first violation is the first explicit state, wherever the field is written.
    let refuted = |claim_extra: &str, domain: &str| {
        let text = format!(
            "[claim]\nexpr = \"units <= 3\"\nball = \"uniform(dims=2,f=1)\"\nrules = [\"sum two-choice\"]\n\
             {claim_extra}[domain]\n{domain}"
        );
        let v = check(&text);
        assert_eq!(v.verdict, Status::Refuted);
        v.witness.unwrap().lhs
    };
    let a = refuted("", "states = [[[2, 0], [0, 1], [1, 1]]]\n");
    let b = refuted("states = [[[2, 0], [0, 1], [1, 1]]]\n", "n = [3]\n");
    assert_eq!(a, b);
    assert!(a.contains("[[2, 0], [0, 1], [1, 1]]"), "{a}");
}

#[test]
fn bad_domain_states_are_one_line_errors_naming_the_field() {
    let e = err(&domain_file("random = 2\n", "n = [2]\nrandom = 3\n"));
    assert!(
        e.contains("`random` is given in both [claim] and [domain]"),
        "{e}"
    );
    let e = err(&domain_file("max_load = 1\n", "n = [2]\nmax_load = 1\n"));
    assert!(e.contains("`max_load` is given in both"), "{e}");
    let e = err(&domain_file(
        "states = [[[1, 0], [0, 1]]]\n",
        "states = [[[1, 0], [0, 1]]]\n",
    ));
    assert!(e.contains("`states` is given in both"), "{e}");
    // Ragged rows, negative loads, a state whose D is not the ball's, n·D above the limit.
    let e = err(&domain_file("", "states = [[[1, 0], [0]]]\n"));
    assert!(
        e.contains("[domain] states[0] has 1 dimensions in row 2 but the ball law has D = 2"),
        "{e}"
    );
    let e = err(&domain_file("", "states = [[[1, 0], [0, -1]]]\n"));
    assert!(
        e.contains("[domain] states[0]") && e.contains("-1 < 0"),
        "{e}"
    );
    let e = err(&domain_file("", "states = [[[1, 0, 0], [0, 1, 0]]]\n"));
    assert!(
        e.contains("has 3 dimensions in row 1 but the ball law has D = 2"),
        "{e}"
    );
    let big = format!("states = [[{}]]\n", vec!["[0, 0]"; 2049].join(", "));
    let e = err(&domain_file("", &big));
    assert!(
        e.contains("[domain] states[0]") && e.contains("limits::MD_CLAIM_CELLS"),
        "{e}"
    );
    let e = err(&domain_file("", "n = [2049]\nrandom = 1\n"));
    assert!(
        e.contains("[domain] n") && e.contains("limits::MD_CLAIM_CELLS"),
        "{e}"
    );
    let e = err(&domain_file(
        "",
        "states = [[[1, 0], [0, 1000000000000000001]]]\n",
    ));
    assert!(e.contains("above 10^15"), "{e}");
    // The states' n must be listed when [domain] n is given.
    let e = err(&domain_file("", "n = [3]\nstates = [[[1, 0], [0, 1]]]\n"));
    assert!(
        e.contains("[domain] states[0] has n = 2, which [domain] n does not list"),
        "{e}"
    );
    // Shapes: flat load vectors are not md states; non-integer loads; mixed lists.
    let e = err(&domain_file("", "states = [[1, 0]]\n"));
    assert!(
        e.contains("a multidimensional state is a list of rows"),
        "{e}"
    );
    let e = err(&domain_file("", "states = [[[1.5, 0], [0, 1]]]\n"));
    assert!(e.contains("the loads are integers"), "{e}");
    let e = err(&domain_file("", "states = [[1, 0], [[1, 0], [0, 1]]]\n"));
    assert!(e.contains("mixes load vectors"), "{e}");
    // Fields of [domain] the md claims do not read.
    let e = err(&domain_file(
        "",
        "n = [2]\nrandom = 1\nfamilies = [\"tied\"]\n",
    ));
    assert!(
        e.contains("[domain] families: not read by multidimensional claims"),
        "{e}"
    );
    let e = err(&domain_file("", "n = [2]\n"));
    assert!(e.contains("no states"), "{e}");
}

#[test]
fn other_kinds_reject_md_states_and_max_load_in_domain() {
    let ineq = |domain: &str| {
        format!(
            "title = \"t\"\nkind = \"inequality\"\nexpected = \"open\"\nstatement = \"s\"\n[source]\n\
             locator = \"x\"\nprovenance = \"derived\"\n[setting]\nprocesses = [\"two-choice\"]\n\
             [claim]\nexpr = \"gap >= 0\"\n[domain]\nn = [2]\n{domain}"
        )
    };
    let e1 = |text: &str| {
        let e = balloc::check_str(text).map(|_| ()).unwrap_err().to_string();
        assert_eq!(e.trim().lines().count(), 1, "{e}");
        e
    };
    let e = e1(&ineq("states = [[[1, 0], [0, 1]]]\n"));
    assert!(
        e.contains(
            "[domain] states (lists of rows): multidimensional states are read by kind `multidim`"
        ),
        "{e}"
    );
    let e = e1(&ineq("max_load = 2\n"));
    assert!(
        e.contains("[domain] max_load") && e.contains("exhaustive = { max_n, max_load }"),
        "{e}"
    );
    // Every other kind, e.g. graph claims, and the multidim items.
    let graph = "title = \"t\"\nkind = \"graph\"\nexpected = \"open\"\nstatement = \"s\"\n[source]\n\
                 locator = \"x\"\nprovenance = \"derived\"\n[claim]\nexpr = \"n >= 1\"\ngraphs = [\"cycle(4)\"]\n\
                 [domain]\nn = [4]\nstates = [[[1, 0], [0, 1]]]\n";
    let e = e1(graph);
    assert!(e.contains("not by `graph`"), "{e}");
    let item = "title = \"t\"\nkind = \"multidim\"\nexpected = \"open\"\nstatement = \"s\"\n[source]\n\
                locator = \"x\"\nprovenance = \"derived\"\n[claim]\nitem = \"corollary-1\"\n\
                [domain]\nn = [8]\nmax_load = 2\n";
    let e = e1(item);
    assert!(
        e.contains("[claim] item: the multidim kind has no item list"),
        "{e}"
    );
}

#[test]
fn chain_states_check_their_sizes_against_the_limits() {
    let claim = |domain: &str| {
        format!(
            "title = \"t\"\nkind = \"multidim\"\nexpected = \"open\"\nstatement = \"s\"\n[source]\n\
             locator = \"x\"\nprovenance = \"derived\"\n[constants]\neps = \"1/8\"\n\
             [potentials]\nPhi = \"sum(exp(eps/(2*f)*y)/rank)\"\n\
             [claim]\nexpr = \"E_Phi <= (1 + (eps/2)^2/n)*Phi\"\nball = \"uniform(dims=1,f=1)\"\n\
             rules = [\"sum two-choice\"]\nsum_chain = \"fixed-f\"\n[domain]\n{domain}"
        )
    };
    let e1 = |text: &str| {
        let e = balloc::check_str(text).map(|_| ()).unwrap_err().to_string();
        assert_eq!(e.trim().lines().count(), 1, "{e}");
        e
    };
    // max_load = 20: C(20 + n − 1, n − 1) sorted states at n: n = 6 gives C(25, 5) = 53130
    // (within 10⁵), n = 7 gives C(26, 6) = 26·25·24·23·22·21/720 = 230230, the first n above it.
    let e = e1(&claim(
        "n = [8]\nexhaustive = { max_n = 20, max_load = 20 }\n",
    ));
    assert!(
        e.contains("at n = 7: C(max_load + n − 1, n − 1) states exceed the limit of 100000")
            && e.contains("limits::MD_CLAIM_EXHAUSTIVE"),
        "{e}"
    );
    let e = e1(&claim(
        "n = [8]\nexhaustive = { max_n = 30000, max_load = 0 }\n",
    ));
    assert!(
        e.contains("exhaustive max_n") && e.contains("MD_CLAIM_CELLS"),
        "{e}"
    );
    // Within the limits the claim runs (Corollary 1 is refuted at the all-zero state).
    let v = balloc::check_str(&claim(
        "n = [8]\nexhaustive = { max_n = 3, max_load = 2 }\n",
    ))
    .unwrap();
    assert_eq!(v.verdict, Status::Refuted);
}

/// Hypotheses (`given`) through the engine: the states outside are skipped and counted, the
/// claim is decided at the others, and hypotheses no state meets leave the search inconclusive.
#[test]
fn hypotheses_select_the_states_and_are_counted() {
    let body = |given: &str, max_load: u32| {
        format!(
            "[claim]\nexpr = \"gap_max == 1\"\ngiven = [\"{given}\"]\nball = \"uniform(dims=1,f=1)\"\n\
             rules = [\"sum two-choice\"]\n[domain]\nn = [2]\nmax_load = {max_load}\n"
        )
    };
    // n = 2, D = 1, loads (a, b) ∈ {0, 1, 2}²: 9 states; gap_max = max(a, b) − (a + b)/2 =
    // |a − b|/2, so gap_max ≥ 1 ⟺ |a − b| = 2: (2, 0) and (0, 2), where gap_max = 1.
    let v = check(&body("gap_max >= 1", 2));
    assert_eq!(v.verdict, Status::Holds);
    assert!(
        v.notes
            .iter()
            .any(|n| n.starts_with("hypotheses (given) held at 2 of 9 evaluated states")),
        "{:?}",
        v.notes
    );
    // Loads up to 3: 16 states, 6 with |a − b| ≥ 2; (3, 0) has gap_max = 3/2: refuted there.
    let v = check(&body("gap_max >= 1", 3));
    assert_eq!(v.verdict, Status::Refuted);
    let w = v.witness.unwrap();
    // The witness's loads are the sum loads s = l − W/n: (3 − 3/2, 0 − 3/2).
    assert_eq!(w.loads, vec![1.5, -1.5]);
    // Without the hypothesis the claim fails at the all-zero state (gap_max = 0).
    let v = check(&body("n >= 1", 2));
    assert_eq!(v.verdict, Status::Refuted);
    // No state has gap_max ≥ 5 when loads are at most 2: the search says nothing.
    let v = check(&body("gap_max >= 5", 2));
    assert_eq!(v.verdict, Status::Inconclusive);
    assert!(
        v.notes
            .iter()
            .any(|n| n == "no searched state meets the hypotheses: the search says nothing"),
        "{:?}",
        v.notes
    );
    // A hypothesis that does not compile names `given[0]`.
    let e = err(&body("gap_mx >= 1", 2));
    assert!(e.contains("given[0]") && e.contains("gap_mx"), "{e}");
}

/// A chain of inequalities over md states: each link searched on its own, the verdict at the
/// first link that fails, every link's verdict listed.
#[test]
fn chains_of_md_claims_break_at_their_first_false_link() {
    let body = |chain: &str| {
        format!(
            "[claim]\nchain = {chain}\nball = \"uniform(dims=1,f=1)\"\nrules = [\"sum two-choice\"]\n\
             [domain]\nn = [2]\nmax_load = 2\n"
        )
    };
    // n = 2, D = 1, loads (a, b) ∈ {0, 1, 2}²: gap_max = |a − b|/2 ≤ a + b = units ≤ 4 holds at
    // all 9 states; units ≤ 1 fails wherever a + b ≥ 2, e.g. (1, 1).
    let v = check(&body("[\"gap_max\", \"<= units\", \"<= 4\"]"));
    assert_eq!(v.verdict, Status::Holds);
    let links: Vec<(&str, Status)> = v
        .links
        .iter()
        .map(|l| (l.link.as_str(), l.verdict))
        .collect();
    assert_eq!(
        links,
        [
            ("gap_max <= units", Status::Holds),
            ("units <= 4", Status::Holds)
        ]
    );
    let v = check(&body("[\"gap_max\", \"<= units\", \"<= 1\"]"));
    assert_eq!(v.verdict, Status::Refuted);
    assert_eq!(v.links[0].verdict, Status::Holds);
    assert_eq!(v.links[1].verdict, Status::Refuted);
    assert!(
        v.notes
            .iter()
            .any(|n| n == "the chain breaks at link 2 `units <= 1` (the first link that fails)"),
        "{:?}",
        v.notes
    );
    // One entry, or both `expr` and `chain`: one-line errors.
    let e = err(&body("[\"units\"]"));
    assert!(e.contains("claim.chain needs a first expression"), "{e}");
    let e = err(&body("[\"units\", \"<= 4\"]\nexpr = \"units >= 0\""));
    assert!(e.contains("exactly one of `expr`"), "{e}");
    let e = err(&body("[\"units\", \"4\"]"));
    assert!(
        e.contains("claim.chain[1] must start with a comparison"),
        "{e}"
    );
}

/// `forall_bins` over md states: the formula at every bin, its per-bin names the bin's own.
#[test]
fn a_claim_at_every_bin_of_an_md_state_by_hand() {
    let body = |claim: &str| {
        format!(
            "[claim]\nforall_bins = \"{claim}\"\nball = \"uniform(dims=2,f=1)\"\n\
             rules = [\"sum one-choice\"]\nstates = [[[2, 0], [0, 1]]]\n[domain]\nn = [2]\n"
        )
    };
    // The state of `per_bin_names_and_gaps_by_hand`: x = (2, 1), W = 3, s = (1/2, −1/2), so
    // y = x − W/n at both bins, rank = (1, 2) and i = (1, 2).
    let v = check(&body("y == x - 3/2 && rank == i"));
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    assert_eq!(v.trust, balloc::claim::Trust::Exact);
    // y ≤ 0 fails at bin 1 only (y = 1/2), and the witness shows that bin's sides.
    let v = check(&body("y <= 0"));
    assert_eq!(v.verdict, Status::Refuted);
    let w = v.witness.unwrap();
    assert!(w.rhs.contains("at bin 1: 1/2 <= 0"), "{w:?}");
    // y ≥ −1/2 holds at both bins, tight at bin 2 (slack 0).
    let v = check(&body("y >= -1/2"));
    assert_eq!(v.verdict, Status::Holds);
    assert_eq!(v.slack, Some(0.0));
    // A binder nested in the claim reads the claim's bin by the bare names: the number of bins
    // heavier than this one is rank − 1 (the sums 2 and 1 are distinct).
    let v = check(&body("count(j: x[j] > x) == rank - 1"));
    assert_eq!(v.verdict, Status::Holds, "{:?}", v.notes);
    // `forall_bins` with `expr` is an error naming both.
    let e = err(&body("y <= 1").replace("[claim]\n", "[claim]\nexpr = \"n >= 1\"\n"));
    assert!(e.contains("forall_bins") && e.contains("expr"), "{e}");
}
