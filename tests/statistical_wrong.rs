//! Every statistical theorem file can fail: a deliberately wrong variant of each is refuted.
//!
//! * Threshold claims (`mean`, `probability`) whose right side is linear in one constant: the file
//!   is run as written, the observed/bound ratios are read from its notes, and the constant is
//!   rescaled so that the threshold sits at half the observed value (`<=` claims, at the
//!   configuration with the largest ratio) or at twice it (`>=` claims, at the smallest ratio).
//! * Growth claims: the wrong class (a √n or √b class for a statistic growing like ln n or b/n, √n
//!   growth claimed for a polylogarithmic gap).
//! * Comparisons: the reversed comparison.
//! * Windowed counts: a constant below the process's typical value (`C` of Δ ≤ Cn).
//! * Mean-quantile stabilization: a narrow band (ε = 0.45, where the statistic is not constant)
//!   with the threshold at twice the observed value.
//!
//! The test also checks that the list below covers every statistical file under `theorems/`.

use balloc::claim::{self, RunContext, Status};
use std::path::{Path, PathBuf};

use crate::common;

/// How the wrong variant is made.
enum Wrong {
    /// Rescale constant `name` so the threshold is at half (or twice) the observed value.
    Scale(&'static str),
    /// Replace one line of the file by another.
    Lines(&'static [(&'static str, &'static str)]),
    /// The file records a refuted reading: it is run as written and must be refuted.
    AsWritten,
}

const FILES: &[(&str, Wrong)] = &[
    (
        "batched-2022/class-any-process-gap",
        Wrong::Lines(&[("mean = \"<= 2.5\"", "mean = \"<= 2.26\"")]),
    ),
    (
        "batched-2022/class-any-process-gap-below-q",
        Wrong::AsWritten,
    ),
    (
        "batched-2022/mean-quantile-hitting-time",
        Wrong::Lines(&[
            ("probability = \">= 15\"", "probability = \"<= 14\""),
            ("q = \"1/20\"", "q = \"1/2\""),
        ]),
    ),
    (
        "batched-2022/mean-quantile-hitting-time-too-early",
        Wrong::AsWritten,
    ),
    (
        "mean-biased-2023/lambda-recovery-hitting-time",
        Wrong::Lines(&[
            ("probability = \">= 870\"", "probability = \"<= 869\""),
            ("q = \"1/20\"", "q = \"1/2\""),
        ]),
    ),
    (
        "mean-biased-2023/lambda-recovery-hitting-time-too-early",
        Wrong::AsWritten,
    ),
    ("batched-2022/expected-gamma-linear", Wrong::Scale("K")),
    ("batched-2022/gap-b-over-n-log-n", Wrong::Scale("K")),
    ("batched-2022/gap-b-over-n-plus-log-n", Wrong::Scale("K")),
    ("batched-2022/graphical-expander-gap", Wrong::Scale("K")),
    ("batched-2022/lower-bound-fixed-ties", Wrong::Scale("K")),
    ("batched-2022/lower-bound-random-ties", Wrong::Scale("K")),
    ("batched-2022/one-plus-beta-gap", Wrong::Scale("K")),
    (
        "graphical-2022/lemma-3-7-sibling-concentration",
        Wrong::Scale("K"),
    ),
    ("mean-biased-2023/main-theorem", Wrong::Scale("C")),
    ("mean-biased-2023/tightness", Wrong::Scale("c")),
    ("multidim-2011/gap-heavily-loaded", Wrong::Scale("K")),
    ("multidim-2011/gap-m-linear", Wrong::Scale("K")),
    ("graphical-2022/theorem-1-2-log-n-greedy", Wrong::Scale("c")),
    (
        "graphical-2022/theorem-1-2-log-n-strategy",
        Wrong::Scale("c"),
    ),
    ("graphical-2022/lemma-4-2-upper-gap", Wrong::Scale("c")),
    ("graphical-2022/lemma-4-1-greedy", Wrong::Scale("c")),
    ("graphical-2022/lemma-4-1-strategy", Wrong::Scale("c")),
    // The minimum-cut side's excess claimed to grow like (d/k)^(1/4) at most (it grows like d/k).
    (
        "graphical-2022/lemma-4-1-cut-growth",
        Wrong::Lines(&[("exponent = \"in [0.5, 1.5]\"", "exponent = \"<= 0.25\"")]),
    ),
    // A loss of only (1/β)^(1/2) in the (1+β) model (it is about 1/β).
    (
        "graphical-2022/remark-1-1-beta-growth",
        Wrong::Lines(&[("exponent = \"in [0.75, 1.25]\"", "exponent = \"<= 0.5\"")]),
    ),
    ("graphical-2022/remark-1-1-one-plus-beta", Wrong::Scale("K")),
    (
        "graphical-2022/remark-3-9-stale-set-loads",
        Wrong::Scale("K"),
    ),
    ("multidim-2011/parallel-rounds-gap", Wrong::Scale("K")),
    ("multidim-2011/weighted-scalar-gap", Wrong::Scale("K")),
    ("multidim-2011/gap-whp", Wrong::Scale("K")),
    ("multidim-2011/one-plus-beta-gap-sum", Wrong::Scale("K")),
    ("multidim-2011/one-plus-beta-gap-max", Wrong::Scale("K")),
    (
        "multidim-2011/one-plus-beta-expected-gap-skewed",
        Wrong::Scale("K"),
    ),
    (
        "multidim-2011/one-plus-beta-expected-gap-binomial",
        Wrong::Scale("K"),
    ),
    // Expected refuted: the per-dimension gap of the (1+β) md process grows like √m.
    ("multidim-2011/one-plus-beta-gap-in-m", Wrong::AsWritten),
    // A √b class for a statistic growing like b/n + ln n.
    (
        "batched-2022/gap-growth-in-b",
        Wrong::Lines(&[(
            "relative_to = \"b / n + ln(n)\"",
            "relative_to = \"sqrt(b)\"",
        )]),
    ),
    // A √n class for a statistic growing like ln n.
    (
        "batched-2022/gap-growth-in-n",
        Wrong::Lines(&[
            ("relative_to = \"ln(n)\"", "relative_to = \"sqrt(n)\""),
            ("exponent = \"<= 0.05\"", "exponent = \">= -0.05\""),
        ]),
    ),
    // √n growth claimed for the strategy's polylogarithmic gap.
    (
        "graphical-2022/main-theorem-gap",
        Wrong::Lines(&[("exponent = \"<= 1/2\"", "exponent = \">= 1/2\"")]),
    ),
    // The reversed comparison: β = 1/2 gives the larger gap.
    (
        "batched-2022/one-plus-beta-compare",
        Wrong::Lines(&[("compare = \"<=\"", "compare = \">=\"")]),
    ),
    // A √m class for the sum-load gap, which does not grow with m.
    (
        "multidim-2011/gap-in-m-sum-load",
        Wrong::Lines(&[(
            "exponent = \"in [-0.05, 0.05]\"",
            "exponent = \"in [-0.05, 0.05]\"\nrelative_to = \"sqrt(m)\"",
        )]),
    ),
    // A 1/√β law for a gap growing like 1/β.
    (
        "batched-2022/one-plus-beta-gap-growth-in-beta",
        Wrong::Lines(&[(
            "exponent = \"in [-1.3, -0.7]\"",
            "exponent = \"in [-0.6, -0.4]\"",
        )]),
    ),
    // A gap growing like ln n (local exponent 0.21 over n = 64…256) claimed for greedy on cycles.
    (
        "graphical-2022/fig-1-greedy-growth",
        Wrong::Lines(&[("exponent = \">= 0.3\"", "exponent = \"<= 0.21\"")]),
    ),
    // The reversed comparison: the strategy's gap is the larger one at these n.
    (
        "graphical-2022/greedy-vs-flow-cycle",
        Wrong::Lines(&[("compare = \"<=\"", "compare = \">=\"")]),
    ),
    ("mean-biased-2023/fig-4-1-recovery", Wrong::Scale("C")),
    // C = 2 lies below Twinning's steady-state Δ/n (about 2.2): its fraction drops below r̃.
    (
        "mean-biased-2023/fig-4-2-linear-potential-rounds",
        Wrong::Lines(&[("C = 3", "C = 2")]),
    ),
    // Expected refuted: the per-dimension gap grows like √m.
    ("multidim-2011/gap-in-m-per-dimension", Wrong::AsWritten),
    // ε = 0.45: the fraction of time in [0.45, 0.55] is 0.22 (Mean-Thinning) to 0.29 (Twinning) at
    // steady state; claiming at least 0.6 (twice the larger) must fail.
    (
        "mean-biased-2023/mean-quantile-stabilization",
        Wrong::Lines(&[
            ("eps = 0.1", "eps = 0.45"),
            ("mean = \">= eps^2\"", "mean = \">= 0.6\""),
        ]),
    ),
    // Figures 8.1–8.4: the published values within 10%, each side in its own file; the printed
    // Quantile(1/ln n) series of Figure 8.2 is refuted as written.
    (
        "batched-2022/fig-8-1-one-plus-beta-0-5-at-least",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-1-one-plus-beta-0-5-at-most",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-1-one-plus-beta-0-7-at-least",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-1-one-plus-beta-0-7-at-most",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-1-three-choice-at-least",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-1-three-choice-at-most",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-1-two-choice-at-least",
        Wrong::Scale("K"),
    ),
    ("batched-2022/fig-8-1-two-choice-at-most", Wrong::Scale("K")),
    (
        "batched-2022/fig-8-2-one-plus-beta-0-5-at-least",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-2-one-plus-beta-0-5-at-most",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-2-one-plus-beta-1-over-ln-n-at-least",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-2-one-plus-beta-1-over-ln-n-at-most",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-2-quantile-code-at-least",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-2-quantile-code-at-most",
        Wrong::Scale("K"),
    ),
    ("batched-2022/fig-8-2-quantile-printed", Wrong::AsWritten),
    (
        "batched-2022/fig-8-3-one-plus-beta-0-5-at-least",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-3-one-plus-beta-0-5-at-most",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-3-one-plus-beta-0-7-at-least",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-3-one-plus-beta-0-7-at-most",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-3-three-choice-at-least",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-3-three-choice-at-most",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-3-two-choice-at-least",
        Wrong::Scale("K"),
    ),
    ("batched-2022/fig-8-3-two-choice-at-most", Wrong::Scale("K")),
    (
        "batched-2022/fig-8-4-fixed-ties-at-least",
        Wrong::Scale("K"),
    ),
    ("batched-2022/fig-8-4-fixed-ties-at-most", Wrong::Scale("K")),
    (
        "batched-2022/fig-8-4-random-ties-at-least",
        Wrong::Scale("K"),
    ),
    (
        "batched-2022/fig-8-4-random-ties-at-most",
        Wrong::Scale("K"),
    ),
    // The reversed comparison: Two-Choice's gap is the larger one at b = 10n, 50n.
    (
        "batched-2022/one-plus-beta-beats-two-choice-large-b",
        Wrong::Lines(&[("compare = \"<=\"", "compare = \">=\"")]),
    ),
    (
        "batched-2022/lower-bound-log-n-one-plus-beta",
        Wrong::Scale("c"),
    ),
];

fn run(path: &Path, root: &Path) -> claim::Verdict {
    claim::check(path, root, &mut RunContext::default())
        .unwrap_or_else(|e| panic!("{}: {e:#}", path.display()))
}

/// The smallest and largest observed/bound ratio in a verdict's notes.
fn ratios(v: &claim::Verdict) -> (f64, f64) {
    let note = v
        .notes
        .iter()
        .find(|n| n.starts_with("observed/bound"))
        .unwrap_or_else(|| panic!("{}: no observed/bound note in {:?}", v.id, v.notes));
    let tail = note.rsplit("): ").next().unwrap();
    let (lo, hi) = tail.split_once(" … ").unwrap();
    (lo.trim().parse().unwrap(), hi.trim().parse().unwrap())
}

/// Replaces the value of constant `name` in the `[constants]` table.
fn set_constant(text: &str, name: &str, value: f64) -> String {
    let mut in_constants = false;
    let mut done = false;
    let out: Vec<String> = text
        .lines()
        .map(|l| {
            if l.starts_with('[') {
                in_constants = l.trim() == "[constants]";
            }
            if in_constants && l.split('=').next().map(str::trim) == Some(name) && !done {
                done = true;
                format!("{name} = {value:e}")
            } else {
                l.to_string()
            }
        })
        .collect();
    assert!(done, "constant {name} not found");
    out.join("\n")
}

fn constant(text: &str, name: &str) -> f64 {
    let mut in_constants = false;
    for l in text.lines() {
        if l.starts_with('[') {
            in_constants = l.trim() == "[constants]";
        }
        if let Some((k, v)) = l.split_once('=')
            && in_constants
            && k.trim() == name
        {
            return v.trim().parse().unwrap();
        }
    }
    panic!("constant {name} not found")
}

#[test]
fn every_statistical_file_has_a_refuted_wrong_variant() {
    let theorems = Path::new("theorems");
    // The list covers every statistical file.
    let mut listed: Vec<&str> = FILES.iter().map(|f| f.0).collect();
    listed.sort();
    let mut found = Vec::new();
    for f in claim::discover(theorems).unwrap() {
        let text = std::fs::read_to_string(&f).unwrap();
        if text.lines().any(|l| l.trim() == "kind = \"statistical\"") {
            let rel = f.strip_prefix(theorems).unwrap().with_extension("");
            found.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    found.sort();
    assert_eq!(listed, found, "statistical files without a wrong variant");

    let root: PathBuf = common::scratch_in("wrong", "all");
    for (id, wrong) in FILES {
        let path = theorems.join(format!("{id}.toml"));
        let text = std::fs::read_to_string(&path).unwrap();
        let mutated = match wrong {
            Wrong::Scale(name) => {
                let v = run(&path, theorems);
                assert_eq!(v.verdict, Status::Holds, "{id} as written");
                let (lo, hi) = ratios(&v);
                let k = constant(&text, name);
                let upper = text.contains("mean = \"<=") || text.contains("probability = \"<=");
                // Threshold ∝ k; ratio = observed/threshold. Half the observed value at the
                // largest ratio (≤ claims), twice it at the smallest (≥ claims).
                let k2 = if upper { k * hi / 2.0 } else { k * lo * 2.0 };
                set_constant(&text, name, k2)
            }
            Wrong::AsWritten => text.clone(),
            Wrong::Lines(pairs) => {
                let mut t = text.clone();
                for (a, b) in pairs.iter() {
                    assert!(t.contains(a), "{id}: `{a}` not found");
                    t = t.replace(a, b);
                }
                t
            }
        };
        let name = id.replace('/', "-");
        let p = common::write(
            &root,
            &name,
            &mutated
                .replace("expected = \"holds\"", "expected = \"open\"")
                .replace("expected = \"refuted\"", "expected = \"open\""),
        );
        let v = run(&p, &root);
        assert_eq!(
            v.verdict,
            Status::Refuted,
            "{id}: the wrong variant is not refuted: {:?}",
            v.notes
        );
    }
}
