//! Shrinking the counterexample of a false graph claim: the load vector (fewer balls, lower
//! loads) and the member of a sized graph family, each kept only while the claim still fails.

use balloc::claim::Status;

const HEAD: &str = "title = \"shrink\"\nkind = \"graph\"\nexpected = \"refuted\"\nstatement = \"s\"\n[source]\nlocator = \"test\"\nprovenance = \"derived\"\n";

#[test]
fn a_large_violating_load_vector_is_shrunk_to_a_minimal_one() {
    // `gap <= 2` on C₈, first violated at the listed loads (9, 7, 0, …, 0) (gap 9 − 16/8 = 7).
    // By hand: with W balls, gap = max x − W/8 ≤ W − W/8 = 7W/8, so a violation needs W ≥ 3, and
    // three balls on one vertex violate it (3 − 3/8 = 2.625): the fewest balls is 3, on a single
    // vertex. The shrinker gets there from (9, 7, 0, …): the first load to 0 keeps the violation
    // (gap 7 − 7/8 = 6.125), then the second to 0 fails (gap 0), to ⌊7/2⌋ = 3 keeps it (2.625),
    // and 3 cannot be lowered further (2 and 1 give 1.75 and 0.875): (0, 3, 0, …, 0).
    let text = format!(
        "{HEAD}[claim]\nexpr = \"gap <= 2\"\ngraphs = [\"cycle(8)\"]\nloads = [[9, 7, 0, 0, 0, 0, 0, 0]]\n[domain]\nn = [8]\n"
    );
    let v = balloc::check_str(&text).unwrap();
    assert_eq!(v.verdict, Status::Refuted, "{:?}", v.notes);
    let w = v.witness.unwrap();
    assert_eq!(w.loads, vec![0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(w.n, 8);
    assert!(
        v.notes.iter().any(|n| n.contains("shrunk from cycle(8)")),
        "{:?}",
        v.notes
    );
}

#[test]
fn a_smaller_member_of_the_family_is_tried_first() {
    // `m <= 5` at every state of C₁₂ (m = 12 edges): false. The smaller cycles whose n the domain
    // lists are tried from the smallest: C_k has k edges, so C₄ holds (4 ≤ 5) and C₆ is the
    // smallest listed member where it fails (6 > 5); C₃ and C₅ are not listed, so not tried.
    let text = format!(
        "{HEAD}[claim]\nexpr = \"m <= 5\"\ngraphs = [\"cycle(12)\"]\n[domain]\nn = [4, 6, 9, 12]\n"
    );
    let v = balloc::check_str(&text).unwrap();
    assert_eq!(v.verdict, Status::Refuted);
    let w = v.witness.unwrap();
    assert_eq!(w.n, 6);
    assert!(w.source.starts_with("cycle(6)"), "{}", w.source);
    // Both at once: `gap <= 2` on C₁₀ with the tied family (gap 0) and one heavy listed vector.
    // The tied vectors of the listed C₄ and C₈ do not violate it, so the graph stays C₁₀ and the
    // loads shrink to
    // 3 balls on the one heavy vertex: gap 3 − 3/10 = 2.7 > 2, while 2 − 2/10 = 1.8 ≤ 2.
    let text = format!(
        "{HEAD}[claim]\nexpr = \"gap <= 2\"\ngraphs = [\"cycle(10)\"]\nfamilies = [\"tied\"]\nloads = [[0, 0, 0, 0, 0, 0, 0, 0, 0, 12]]\n[domain]\nn = [4, 8, 10]\n"
    );
    let v = balloc::check_str(&text).unwrap();
    let w = v.witness.unwrap();
    assert_eq!(
        (w.n, w.loads.iter().sum::<f64>()),
        (10, 3.0),
        "{:?}",
        w.loads
    );
    assert_eq!(w.loads[9], 3.0);
}
