//! The prover of kind `real` on every `real` file of the catalogue, the fast path (`f64`
//! enclosures first, the arbitrary-precision ones only for the boxes those cannot decide) against
//! the arbitrary-precision path alone ([`Options::fast`]): per file and grid case, the verdict,
//! the box evaluations and the wall time of each, the two runs alternating (the host's speed
//! drifts), the median of `REPS` runs of each. Figures in BENCHMARKS.md.
//!
//! `cargo bench -p balloc-benches --bench prover_paths` (optionally a substring of the file
//! names as the argument after `--`).

use balloc::claim;
use balloc::prover::{self, Options, Outcome};
use std::path::{Path, PathBuf};
use std::time::Instant;

const REPS: usize = 3;

fn real_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            real_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "toml")
            && std::fs::read_to_string(&p)
                .unwrap()
                .lines()
                .any(|l| l.trim() == "kind = \"real\"")
        {
            out.push(p);
        }
    }
}

/// (verdict, box evaluations, seconds) of one search.
fn run(p: &prover::Problem, o: &Options) -> (&'static str, u64, f64) {
    let t = Instant::now();
    let (v, boxes) = match prover::prove(p, o) {
        Outcome::Proved { stats, .. } => ("proved", stats.boxes),
        Outcome::Refuted { stats, .. } => ("refuted", stats.boxes),
        Outcome::Inconclusive { stats, .. } => ("inconclusive", stats.boxes),
    };
    (v, boxes, t.elapsed().as_secs_f64())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let theorems = root.join("theorems");
    let mut files = Vec::new();
    real_files(&theorems, &mut files);
    println!(
        "| file (case) | verdict | boxes | fast: time | fast: boxes/s | arbitrary precision only: time | boxes/s | ratio |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    for f in files {
        let name = f
            .strip_prefix(&theorems)
            .unwrap()
            .with_extension("")
            .display()
            .to_string();
        if filter.as_ref().is_some_and(|s| !name.contains(s.as_str())) {
            continue;
        }
        let t = claim::load(&f, &theorems).unwrap();
        let opts = claim::kind::real::search_options(&t).unwrap();
        let problems = claim::kind::real::problems(&t, Path::new("unused")).unwrap();
        let many = problems.len() > 1;
        for (k, (stated, _)) in problems.iter().enumerate() {
            // The claim the tree decides (a derived file's reduced claim; its lemmas are files
            // of their own in this table).
            let p = stated.decided();
            let fast = Options {
                fast: true,
                ..opts.clone()
            };
            let slow = Options {
                fast: false,
                ..opts.clone()
            };
            let (mut tf, mut ts) = (Vec::new(), Vec::new());
            let (mut vf, mut vs) = (("", 0), ("", 0));
            for _ in 0..REPS {
                let (v, b, s) = run(p, &fast);
                vf = (v, b);
                tf.push(s);
                let (v, b, s) = run(p, &slow);
                vs = (v, b);
                ts.push(s);
            }
            let (mf, ms) = (median(tf), median(ts));
            let verdict = if vf.0 == vs.0 {
                vf.0.to_string()
            } else {
                format!("{} (fast) / {} (arbitrary precision)", vf.0, vs.0)
            };
            let boxes = if vf.1 == vs.1 {
                vf.1.to_string()
            } else {
                format!("{} / {}", vf.1, vs.1)
            };
            let rate = |b: u64, s: f64| {
                if b == 0 {
                    "—".to_string()
                } else {
                    format!("{:.0}", b as f64 / s)
                }
            };
            println!(
                "| `{name}`{} | {verdict} | {boxes} | {:.2} ms | {} | {:.2} ms | {} | {:.2} |",
                if many {
                    format!(" ({k})")
                } else {
                    String::new()
                },
                mf * 1e3,
                rate(vf.1, mf),
                ms * 1e3,
                rate(vs.1, ms),
                ms / mf
            );
        }
    }
}
