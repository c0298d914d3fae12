//! The committed experiment tables are valid CSV: every record has as many fields as the header
//! (a label with an unquoted comma, such as "(1+β), β = 0.7", would add fields to the header
//! only), and the batched paper's Section 8 tables hold numbers below their header.

use std::path::Path;

fn records(path: &Path) -> (csv::StringRecord, Vec<csv::StringRecord>) {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header = r.headers().unwrap().clone();
    let rows = r
        .records()
        .map(|x| x.unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect();
    (header, rows)
}

#[test]
fn committed_experiment_tables_are_rectangular_csv() {
    let mut seen = 0;
    for dir in std::fs::read_dir("experiments").unwrap() {
        for f in std::fs::read_dir(dir.unwrap().path()).unwrap() {
            let p = f.unwrap().path();
            if p.extension().is_some_and(|e| e == "csv") {
                let (h, rows) = records(&p);
                assert!(!rows.is_empty(), "{}: no rows", p.display());
                for r in &rows {
                    assert_eq!(r.len(), h.len(), "{}: {r:?}", p.display());
                }
                seen += 1;
            }
        }
    }
    // Four Section 8 tables and the multidimensional points.
    assert!(seen >= 5, "only {seen} tables found");
}

#[test]
fn section_8_tables_hold_a_mean_and_a_half_width_per_curve() {
    for k in 1..=4 {
        let p = Path::new("experiments/batched-2022").join(format!("fig8_{k}.csv"));
        let (h, rows) = records(&p);
        // x column, then (mean, ci95) per curve.
        assert_eq!(h.len() % 2, 1, "{}: {h:?}", p.display());
        for pair in (1..h.len()).step_by(2) {
            assert!(
                h[pair].ends_with(" mean") && h[pair + 1].ends_with(" ci95"),
                "{h:?}"
            );
        }
        for r in &rows {
            for (i, v) in r.iter().enumerate() {
                let x: f64 = v.parse().unwrap_or_else(|_| panic!("{}: {v}", p.display()));
                // half-widths of 95% t-intervals are non-negative and finite
                if i > 0 && i % 2 == 0 {
                    assert!(x.is_finite() && x >= 0.0, "{}: {v}", p.display());
                }
            }
        }
    }
}
