#!/usr/bin/env python3
"""The overhead of a Python call against the Rust library: E[Γ'] for Two-Choice, α = 0.1, one
unit ball, random ties, at n = 10³ and 10⁶, the loads a numpy array of integers uniform in 0..100
(as `benches/expectation.rs`).

    python benches/overhead.py [--repeats R]

Each round times the four variants in a random order, in the same process:
* `rust`: the library call `balloc::expectation::expect` on a prepared `Loads`, timed in Rust
  (`balloc._balloc._time_expect`);
* `rust+loads`: the same with `Loads::new` of an owned `Vec<f64>` in the timed part (what a Rust
  caller holding the numbers pays);
* `python`: `balloc.expect("two-choice", "gamma(alpha=0.1)", x, certify=False)` with the numpy
  array `x` (spec strings parsed, the array copied and validated, the result object built);
* `python, Loads`: the same call with a `balloc.Loads` built once (no copy).
The table gives the median of each and the overhead of the Python call against `rust`.
"""

import argparse
import random
import statistics
import time

import numpy as np

import balloc
from balloc import _balloc

PROCESS, POTENTIAL = "two-choice", "gamma(alpha=0.1)"


def python_call(x) -> float:
    t = time.perf_counter()
    balloc.expect(PROCESS, POTENTIAL, x, certify=False)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=0, help="samples per n (default 2000 at 10³, 200 at 10⁶)")
    args = ap.parse_args()
    rows = []
    for n in (10**3, 10**6):
        x = np.random.default_rng(2026).integers(0, 100, n).astype(np.float64)
        loads = balloc.Loads(x)
        # The same value by every route.
        want = balloc.expect(PROCESS, POTENTIAL, x, certify=False).expected_next
        assert balloc.expect(PROCESS, POTENTIAL, loads, certify=False).expected_next == want
        repeats = args.repeats or (2000 if n <= 10**3 else 200)
        samples = {"rust": [], "rust+loads": [], "python": [], "python, Loads": []}
        for _ in range(10):  # warm-up
            python_call(x)
        runs = {
            "rust": lambda: _balloc._time_expect(PROCESS, POTENTIAL, loads, 1)[0],
            "rust+loads": lambda: _balloc._time_expect(PROCESS, POTENTIAL, loads, 1, from_vec=True)[0],
            "python": lambda: python_call(x),
            "python, Loads": lambda: python_call(loads),
        }
        order = list(runs)
        rng = random.Random(n)
        for _ in range(repeats):
            # A fresh order each time, so that no variant always follows another (caches).
            rng.shuffle(order)
            for k in order:
                samples[k].append(runs[k]())
        med = {k: statistics.median(v) for k, v in samples.items()}
        rows.append((n, med))
        print(f"n = {n}: E[Γ'] = {want!r}", flush=True)
    print()
    print("| n | rust | rust+loads | python (numpy in) | python (Loads in) | overhead (numpy in) | overhead (Loads in) |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    fmt = lambda s: f"{s * 1e6:.1f} µs" if s < 1e-3 else f"{s * 1e3:.2f} ms"
    for n, m in rows:
        over = lambda k: f"{(m[k] / m['rust'] - 1) * 100:+.1f} %"
        print(
            f"| 10^{round(np.log10(n))} | {fmt(m['rust'])} | {fmt(m['rust+loads'])} | {fmt(m['python'])} "
            f"| {fmt(m['python, Loads'])} | {over('python')} | {over('python, Loads')} |"
        )


if __name__ == "__main__":
    main()
