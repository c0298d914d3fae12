//! Shrinking of multidimensional counterexamples: a false md claim whose first violation is a
//! large state is reported at a minimal one (loads lowered, bins removed where the claim is also
//! stated at n − 1 bins), the minimum derived by hand.

use balloc::claim::Status;

const HEAD: &str = "title = \"t\"\nkind = \"multidim\"\nexpected = \"open\"\nstatement = \"s\"\n\
                    [source]\nlocator = \"x\"\nprovenance = \"derived\"\n";

#[test]
fn a_large_md_violation_is_shrunk_to_the_minimal_state() {
    // Claim: l(1, 1) ≤ 3, over the states of the integer sum-load chain (bin i holds L_i units in
    // dimension 1 of D = 2, sorted heaviest first, so bin 1 is the heaviest), n ∈ {2, 3}: the
    // exhaustive states at n = 2 (L₁ ≤ 1) hold; at n = 3 the families F1–F7 violate it where
    // L₁ ≥ 4, and the smallest of those (fewest units above the lightest bin) is F1 with h = 5,
    // L = (5, 0, 0), 5 units (F4 with h = 2 gives (4, 2, 0), 6 units; F7 with h = 5 gives
    // (4, 1, 0), 5 units, found after F1); it is shrunk.
    // By hand: a state violates the claim exactly when L₁ ≥ 4; the smallest number of bins the
    // claim is stated at is n = 2; so the unique minimal violation is n = 2, L = (4, 0): rows
    // (4, 0), (0, 0). Its sum loads: avg(1) = 4/2 = 2, avg(2) = 0, s = (4 − 2, 0 − 2) = (2, −2).
    let text = format!(
        "{HEAD}[claim]\nexpr = \"l(1, 1) <= 3\"\nball = \"uniform(dims=2,f=1)\"\nrules = [\"sum two-choice\"]\n\
         sum_chain = \"integer\"\n[domain]\nn = [3]\nexhaustive = {{ max_n = 2, max_load = 1 }}\n"
    );
    let v = balloc::check_str(&text).unwrap();
    assert_eq!(v.verdict, Status::Refuted);
    let w = v.witness.unwrap();
    assert_eq!(w.n, 2, "{w:?}");
    assert_eq!(w.loads, vec![2.0, -2.0], "{w:?}");
    assert!(w.lhs.contains("[[4, 0], [0, 0]]"), "{}", w.lhs);
    assert_eq!(w.found_by, "families, shrunk");
    // The violation before shrinking is named in the notes, and the shrinking is counted.
    assert!(
        v.notes
            .iter()
            .any(|n| n.contains("(found by families) at n = 3")
                && n.contains("[[5, 0], [0, 0], [0, 0]]")),
        "{:?}",
        v.notes
    );
    assert!(v.searched.states.get("shrink").is_some_and(|&k| k > 0));
}

#[test]
fn without_n_minus_one_the_bins_stay_and_the_loads_shrink() {
    // The same claim stated at n = 3 only: no bin can be removed. By hand the minimum at n = 3 is
    // L = (4, 0, 0): avg(1) = 4/3, so s = (8/3, −4/3, −4/3).
    let text = format!(
        "{HEAD}[claim]\nexpr = \"l(1, 1) <= 3\"\nball = \"uniform(dims=2,f=1)\"\nrules = [\"sum two-choice\"]\n\
         sum_chain = \"integer\"\n[domain]\nn = [3]\n"
    );
    let v = balloc::check_str(&text).unwrap();
    let w = v.witness.unwrap();
    assert_eq!(w.n, 3);
    assert!(w.lhs.contains("[[4, 0], [0, 0], [0, 0]]"), "{}", w.lhs);
    let want = [8.0 / 3.0, -4.0 / 3.0, -4.0 / 3.0];
    assert!(
        w.loads.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12),
        "{:?}",
        w.loads
    );
}

#[test]
fn a_listed_violation_is_reported_as_written() {
    // Explicit states are the author's: a violating one is the counterexample unchanged (as for
    // load vectors), here rows (9, 3), (5, 1), (2, 6) with sum loads L − mean L, L = (12, 6, 8),
    // mean 26/3: s = (10/3, −8/3, −2/3).
    let text = format!(
        "{HEAD}[claim]\nexpr = \"l(1, 1) <= 3\"\nball = \"uniform(dims=2,f=1)\"\nrules = [\"sum two-choice\"]\n\
         [domain]\nn = [2, 3]\nstates = [[[9, 3], [5, 1], [2, 6]]]\n"
    );
    let v = balloc::check_str(&text).unwrap();
    let w = v.witness.unwrap();
    assert_eq!((w.n, w.found_by.as_str()), (3, "listed"));
    assert!(w.lhs.contains("[[9, 3], [5, 1], [2, 6]]"), "{}", w.lhs);
    let want = [10.0 / 3.0, -8.0 / 3.0, -2.0 / 3.0];
    assert!(
        w.loads.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12),
        "{:?}",
        w.loads
    );
}

#[test]
fn a_chain_violation_shrinks_along_the_chain() {
    // On the fixed-f chain with f = 2, D = 2 (bin i holds b_i balls: l(1, i) = l(2, i) = b_i, so
    // the per-bin x = 2b_i) the claim max_b x − min_b x ≤ 6 fails exactly when
    // b_max − b_min ≥ 4. The exhaustive states (n ≤ 3, b₁ ≤ 1) satisfy it; the first violation
    // is a family state at n = 4 (e.g. F4's levels (8, 4, 0, 0)). By hand the smallest violation
    // over the n the claim is stated at ({2, 3} and 4) is n = 2, b = (4, 0): rows (4, 4), (0, 0),
    // sum loads s = 2(b − 2) = (4, −4); shrinking reaches it because lowering every bin but the
    // heaviest to 0 and the heaviest to 4 keeps the violation, and so does removing a bin at 0.
    let text = format!(
        "{HEAD}[claim]\nexpr = \"max_bins(x) - min_bins(x) <= 6\"\nball = \"uniform(dims=2,f=2)\"\n\
         rules = [\"sum two-choice\"]\nsum_chain = \"fixed-f\"\n\
         [domain]\nn = [4]\nexhaustive = {{ max_n = 3, max_load = 1 }}\n"
    );
    let v = balloc::check_str(&text).unwrap();
    assert_eq!(v.verdict, Status::Refuted);
    let w = v.witness.unwrap();
    assert_eq!((w.n, w.loads.clone()), (2, vec![4.0, -4.0]), "{w:?}");
    assert!(w.lhs.contains("[[4, 4], [0, 0]]"), "{}", w.lhs);
    assert_eq!(w.found_by, "families, shrunk");
}

#[test]
fn a_claim_at_every_bin_is_shrunk_like_any_md_claim() {
    // `forall_bins = "x <= 3"` over the integer sum-load chain (bin i holds L_i units in
    // dimension 1 of D = 2, so x = L_i), n = 3 with the exhaustive states of n = 2 (L ≤ 1):
    // a state violates the claim exactly when some bin holds 4 or more units. The exhaustive
    // states hold; the families at n = 3 violate it first at F1, L = (5, 0, 0). By hand the
    // unique minimal violation (fewest units, fewest bins: the claim is stated at n = 2) is
    // n = 2, L = (4, 0): rows (4, 0), (0, 0), sum loads (4 − 2, 0 − 2) = (2, −2), and the bin
    // that fails is bin 1 (x = 4).
    let text = format!(
        "{HEAD}[claim]\nforall_bins = \"x <= 3\"\nball = \"uniform(dims=2,f=1)\"\nrules = [\"sum two-choice\"]\n\
         sum_chain = \"integer\"\n[domain]\nn = [3]\nexhaustive = {{ max_n = 2, max_load = 1 }}\n"
    );
    let v = balloc::check_str(&text).unwrap();
    assert_eq!(v.verdict, Status::Refuted);
    let w = v.witness.unwrap();
    assert_eq!((w.n, w.found_by.as_str()), (2, "families, shrunk"), "{w:?}");
    assert_eq!(w.loads, vec![2.0, -2.0], "{w:?}");
    assert!(w.lhs.contains("[[4, 0], [0, 0]]"), "{}", w.lhs);
    assert!(w.rhs.contains("at bin 1: 4 <= 3"), "{}", w.rhs);
}
