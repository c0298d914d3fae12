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
