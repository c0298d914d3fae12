#!/usr/bin/env python3
"""Side-by-side CPU time of balloc, the C++ peer (peer.cc) and the tight C loops (tight.c) on the
simulator workloads of BENCHMARKS.md, with the statistics of each (means and standard errors).

    cargo build --release
    python3 benches/peer/compare.py [--rounds 3] [--balloc target/release/balloc] [--only NAME]...
                                    [--before OTHER_BALLOC]

Builds the peer with `g++ -O3 -march=native` and the tight loops with `gcc -O3 -march=native`
into a temporary directory. Every workload runs `--rounds` times, the three programs interleaved
(balloc, peer, tight, balloc, ...), so that changes of load on a shared machine hit all three
alike. The CPU time of each run is the user + system time of the child process (getrusage), which
stays meaningful when other jobs share the cores; balloc runs on one thread
(RAYON_NUM_THREADS=1), as the others do. The table shows medians with the range over rounds.

Statistics: balloc's summary (final gap for sequential runs, max gap over batch ends for
batched ones) against the peer's and the tight loop's, with z = |difference| / combined standard
error; |z| < 3 means the means agree within their intervals.

Before and after: `--before OTHER_BALLOC` (a balloc binary built from an earlier commit) runs that
binary too, interleaved with the others in every round, and adds its columns; its statistics must
be the same as balloc's when the random streams did not change.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# name, balloc arguments, peer arguments, tight arguments, statistic
WORKLOADS = [
    ("batched Two-Choice n=1000, b=50n, m=n², 50 runs (Fig 8.1)",
     "--process two-choice --n 1000 --batch 50000 --balls 1000000 --runs 50",
     "batched two-choice 1000 50000 1000000 50 1",
     "batched 1000 50000 1000000 50 1", "max_gap"),
    ("batched Two-Choice n=1000, b=n, m=n², 50 runs",
     "--process two-choice --n 1000 --batch 1000 --balls 1000000 --runs 50",
     "batched two-choice 1000 1000 1000000 50 1",
     "batched 1000 1000 1000000 50 1", "max_gap"),
    ("batched Two-Choice n=10⁴, b=n, m=100n, 20 runs",
     "--process two-choice --n 10000 --batch 10000 --balls 1000000 --runs 20",
     "batched two-choice 10000 10000 1000000 20 1",
     "batched 10000 10000 1000000 20 1", "max_gap"),
    ("batched Two-Choice n=10⁶, b=n, m=20n, 3 runs",
     "--process two-choice --n 1000000 --batch 1000000 --balls 20000000 --runs 3",
     "batched two-choice 1000000 1000000 20000000 3 1",
     "batched 1000000 1000000 20000000 3 1", "max_gap"),
    ("batched One-Choice n=10⁴, b=n, m=100n, 20 runs",
     "--process one-choice --n 10000 --batch 10000 --balls 1000000 --runs 20",
     "batched one-choice 10000 10000 1000000 20 1",
     "batched1 10000 10000 1000000 20 1", "max_gap"),
    ("sequential Two-Choice n=10⁴, m=10⁷, 10 runs",
     "--process two-choice --n 10000 --balls 10000000 --runs 10",
     "seq two-choice 10000 10000000 10 1",
     "seq 10000 10000000 10 1", "final_gap"),
    ("sequential Two-Choice n=10⁷, m=10n, 2 runs",
     "--process two-choice --n 10000000 --balls 100000000 --runs 2",
     "seq two-choice 10000000 100000000 2 1",
     "seq 10000000 100000000 2 1", "final_gap"),
    ("sequential Two-Choice n=10⁷, m=10n, 2 runs (tight loop: one byte per bin)",
     "--process two-choice --n 10000000 --balls 100000000 --runs 2",
     "seq two-choice 10000000 100000000 2 1",
     "seq 10000000 100000000 2 1 u8", "final_gap"),
    ("sequential (1+β), β=0.5, n=10⁴, m=10⁷, 10 runs",
     "--process one-plus-beta(beta=0.5) --n 10000 --balls 10000000 --runs 10",
     "seq one-plus-beta=0.5 10000 10000000 10 1",
     "beta 10000 10000000 10 1 0.5", "final_gap"),
    ("One-Choice n=10⁴, m=10⁷, 10 runs",
     "--process one-choice --n 10000 --balls 10000000 --runs 10",
     "seq one-choice 10000 10000000 10 1",
     "one 10000 10000000 10 1", "final_gap"),
]


def cpu_run(cmd, env=None):
    """Runs cmd; returns (CPU seconds of the child, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, out


def build(tmp):
    peer = os.path.join(tmp, "peer")
    tight = os.path.join(tmp, "tight")
    subprocess.run(["g++", "-O3", "-march=native", "-o", peer,
                    os.path.join(HERE, "peer.cc")], check=True)
    subprocess.run(["gcc", "-O3", "-march=native", "-o", tight,
                    os.path.join(HERE, "tight.c"), "-lm"], check=True)
    return peer, tight


def fmt(xs):
    m = statistics.median(xs)
    return f"{m:.3f} s ({min(xs):.3f}–{max(xs):.3f})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--balloc", default="target/release/balloc")
    ap.add_argument("--only", action="append", default=None,
                    help="run the workloads whose name contains this (repeatable)")
    ap.add_argument("--before", default=None, help="an earlier balloc binary, run alongside")
    a = ap.parse_args()
    progs = ["balloc", "peer", "tight"] + (["before"] if a.before else [])
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as tmp:
        peer, tight = build(tmp)
        rows = []
        for name, b_args, p_args, t_args, stat in WORKLOADS:
            if a.only and not any(o in name for o in a.only):
                continue
            times = {k: [] for k in progs}
            stats = {}
            for _ in range(a.rounds):
                for who, exe in (("balloc", a.balloc), ("before", a.before)):
                    if exe is None:
                        continue
                    cpu, out = cpu_run([exe, "simulate", *b_args.split(), "--seed", "1",
                                        "--format", "json"], env)
                    times[who].append(cpu)
                    s = json.loads(out)["summary"][stat]
                    stats[who] = (s["mean"], s["stderr"] or 0.0)
                for who, exe, args in (("peer", peer, p_args), ("tight", tight, t_args)):
                    cpu, out = cpu_run([exe, *args.split()])
                    times[who].append(cpu)
                    mean, se, _ = out.split()
                    stats[who] = (float(mean), float(se))
            rows.append((name, times, stats))
            print(f"done: {name}", file=sys.stderr)
    if a.before:
        print("| workload | balloc before CPU | balloc CPU | C++ peer CPU | tight loop CPU | "
              "peer / before | peer / balloc | before / tight | balloc / tight |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    else:
        print("| workload | balloc CPU | C++ peer CPU | tight loop CPU | peer / balloc | "
              "balloc / tight |")
        print("|---|---:|---:|---:|---:|---:|")
    for name, t, _ in rows:
        mb, mp, mt = (statistics.median(t[k]) for k in ("balloc", "peer", "tight"))
        if a.before:
            m0 = statistics.median(t["before"])
            print(f"| {name} | {fmt(t['before'])} | {fmt(t['balloc'])} | {fmt(t['peer'])} | "
                  f"{fmt(t['tight'])} | {mp / m0:.2f}× | **{mp / mb:.2f}×** | {m0 / mt:.2f}× | "
                  f"**{mb / mt:.2f}×** |")
        else:
            print(f"| {name} | {fmt(t['balloc'])} | {fmt(t['peer'])} | {fmt(t['tight'])} | "
                  f"**{mp / mb:.1f}×** | {mb / mt:.2f}× |")
    print()
    print("| workload | balloc mean ± se | peer mean ± se | tight mean ± se | z (balloc–peer) | "
          "z (balloc–tight) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, _, s in rows:
        if "before" in s and s["before"] != s["balloc"]:
            print(f"note: {name}: before {s['before']} and after {s['balloc']} differ")

        def z(a, b):
            se = (a[1] ** 2 + b[1] ** 2) ** 0.5
            return abs(a[0] - b[0]) / se if se > 0 else float("nan")
        cells = " | ".join(f"{s[k][0]:.3f} ± {s[k][1]:.3f}" for k in ("balloc", "peer", "tight"))
        print(f"| {name} | {cells} | {z(s['balloc'], s['peer']):.2f} | "
              f"{z(s['balloc'], s['tight']):.2f} |")


if __name__ == "__main__":
    main()
