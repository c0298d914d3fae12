"""`simulate` and `sweep`: against the command line's JSON and CSV on the same inputs, Monte Carlo
against exact values, determinism by seed and thread count, numpy arrays in and out, progress,
the GIL and Ctrl-C."""

import _thread
import csv
import threading
import time
from fractions import Fraction

import numpy as np
import pytest

import balloc

CONFIGS = [
    dict(process="two-choice", n=100, balls=1000, runs=4, seed=3, trajectory=5,
         potentials=["gamma(alpha=0.1)", "quadratic"]),
    dict(process="one-plus-beta(beta=0.5)", n=50, balls=2000, batch=100, weights="exp(1)",
         runs=3, seed=1, histogram=True),
    dict(process="two-choice", n=20, balls=200, batch=10, ties="fixed", runs=5, seed=9),
    dict(process="quantile(delta=0.25)", n=16, balls=64, runs=6, confidence=0.9),
    dict(process="twinning", n=30, balls=300, runs=2, seed=4, trajectory=3),
]


def cli_args(c):
    a = ["simulate", "--process", c["process"], "--n", str(c["n"]), "--balls", str(c["balls"])]
    for k in ("batch", "weights", "runs", "seed", "ties", "trajectory", "confidence"):
        if k in c:
            a += ["--" + k, str(c[k])]
    for p in c.get("potentials", []):
        a += ["--potential", p]
    if c.get("histogram"):
        a.append("--histogram")
    return a


@pytest.mark.parametrize("c", CONFIGS, ids=lambda c: c["process"])
def test_simulate_equals_the_command_line(cli, c):
    kw = {k: v for k, v in c.items() if k not in ("process", "n", "balls")}
    s = balloc.simulate(c["process"], c["n"], c["balls"], **kw)
    doc = cli.json(*cli_args(c))
    assert s.to_dict() == doc
    # The numpy arrays are the runs of the document.
    runs = doc["runs"]
    assert len(s) == len(runs)
    for name in ("final_gap", "max_gap", "spread", "mean_quantile"):
        assert np.array_equal(getattr(s, name), [r[name] for r in runs])
    assert np.array_equal(s.seeds, np.array([r["seed"] for r in runs], dtype=np.uint64))
    assert np.array_equal(s.balls, [r["balls"] for r in runs])
    for name, e in s.summary.items():
        d = doc["summary"][name]
        assert (e.mean, e.stderr, e.ci_low, e.ci_high, e.runs) == (
            d["mean"], d["stderr"], d["ci_low"], d["ci_high"], d["runs"])
    for p, col in s.potentials.items():
        assert np.array_equal(col, [r["potentials"][p] for r in runs])
    if c.get("trajectory"):
        t = s.trajectory
        assert t["gap"].shape == (len(runs), len(runs[0]["trajectory"]))
        assert np.array_equal(t["balls"], [p["balls"] for p in runs[0]["trajectory"]])
        assert np.array_equal(t["max_gap"], [[p["max_gap"] for p in r["trajectory"]] for r in runs])
    else:
        assert s.trajectory is None
    if c.get("histogram"):
        for (x, k), r in zip(s.histograms, runs):
            assert [[a, int(b)] for a, b in zip(x, k)] == r["histogram"]
            assert k.sum() == c["n"]


def test_runs_depend_only_on_the_seed():
    a = balloc.simulate("two-choice", 200, 5000, runs=6, seed=11, threads=1)
    b = balloc.simulate("two-choice", 200, 5000, runs=6, seed=11, threads=2)
    c = balloc.simulate("two-choice", 200, 5000, runs=6, seed=11)
    assert a.to_dict() == b.to_dict() == c.to_dict()
    d = balloc.simulate("two-choice", 200, 5000, runs=6, seed=12)
    assert not np.array_equal(a.seeds, d.seeds)
    assert not np.array_equal(a.max_gap, d.max_gap)
    # Run i does not depend on how many runs there are.
    e = balloc.simulate("two-choice", 200, 5000, runs=3, seed=11)
    assert np.array_equal(e.max_gap, a.max_gap[:3]) and np.array_equal(e.seeds, a.seeds[:3])


def test_one_ball_by_hand():
    # One ball into n = 2 empty bins: loads (1, 0), gap = 1 − 1/2 in every run.
    s = balloc.simulate("one-choice", 2, 1, runs=5)
    assert np.array_equal(s.final_gap, [0.5] * 5) and np.array_equal(s.spread, [1.0] * 5)


def test_monte_carlo_agrees_with_the_exact_value():
    # Two-Choice, n = 4, two balls from empty bins. The first ball lands anywhere (all tied); then
    # the loaded bin has rank 1 (p₁ = 1/16) and the three empty bins share 15/16. A second ball on
    # the loaded bin gives x = (2, 0, 0, 0), Υ = 3; otherwise x = (1, 1, 0, 0), Υ = 1. So
    # E[Υ] = 3/16 + 15/16 = 9/8.
    want = float(Fraction(3, 16) + Fraction(15, 16))
    s = balloc.simulate("two-choice", 4, 2, runs=4000, seed=2026, potentials=["quadratic"],
                        confidence=0.999)
    e = s.summary["quadratic"]
    assert e.ci_low <= want <= e.ci_high
    assert set(np.unique(s.potentials["quadratic"])) <= {1.0, 3.0}


# --- sweeps -----------------------------------------------------------------------------------

GRID = {
    "runs": 3,
    "seed": 5,
    "grid": {
        "process": ["two-choice", "one-plus-beta(beta=0.5)"],
        "weights": ["unit", "exp(1)"],
        "n": np.array([10, 20]),
        "batch_per_n": np.array([1, 2]),
        "batches": [5],
    },
}

GRID_TOML = """runs = 3
seed = 5
output = "out/grid"
[grid]
process = ["two-choice", "one-plus-beta(beta=0.5)"]
weights = ["unit", "exp(1)"]
n = [10, 20]
batch_per_n = [1, 2]
batches = [5]
"""


def read_csv(path):
    """The rows of a CSV file; `#` lines (a shard's fingerprint header) are not rows."""
    with open(path, newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def assert_columns_equal(cols, rows):
    """Columns of numpy arrays against CSV rows (numbers parsed back exactly)."""
    assert all(len(v) == len(rows) for v in cols.values())
    for name, col in cols.items():
        for v, r in zip(col, rows):
            text = r[name]
            if isinstance(v, str):
                assert v == text, name
            elif isinstance(v, (np.floating, float)):
                assert (np.isnan(v) and text in ("", "NaN")) or v == float(text), name
            else:
                assert int(v) == int(text), name


def test_sweep_equals_the_command_line(cli, tmp_path):
    f = tmp_path / "grid.toml"
    f.write_text(GRID_TOML)
    (tmp_path / "out").mkdir()
    r = cli.run("sweep", str(f))
    assert r.returncode == 0, r.stderr
    res = balloc.sweep(GRID)
    assert len(res) == 2 * 2 * 2 * 2 * 3  # process × weights × n × batch × runs
    assert_columns_equal(res.runs, read_csv(tmp_path / "out" / "grid.csv"))
    assert_columns_equal(res.summary, read_csv(tmp_path / "out" / "grid.summary.csv"))
    cfgs = res.configs
    assert len(cfgs) == 16 and cfgs[0]["process"] == "two-choice" and cfgs[-1]["batch"] == 40
    # The file itself gives the same rows.
    assert balloc.sweep(f).runs.keys() == res.runs.keys()
    assert all(np.array_equal(balloc.sweep(f).runs[k], v) for k, v in res.runs.items())
    # A shard is the rows numbered ≡ i (mod k), as the command line's shard file.
    r = cli.run("sweep", str(f), "--shard", "1/3")
    assert r.returncode == 0, r.stderr
    assert_columns_equal(balloc.sweep(GRID, shard="1/3").runs, read_csv(tmp_path / "out" / "grid.shard-1-of-3.csv"))


def test_shards_partition_the_sweep():
    full = balloc.sweep(GRID, threads=1)
    parts = [balloc.sweep(GRID, shard=(i, 4), threads=2) for i in range(4)]
    key = lambda cols: sorted(zip(cols["config"].tolist(), cols["run"].tolist(), cols["max_gap"].tolist()))
    merged = sorted(sum((key(p.runs) for p in parts), []))
    assert merged == key(full.runs)


# --- progress, the GIL and interruption ---------------------------------------------------------


def test_progress_counts_runs():
    seen = []
    balloc.simulate("two-choice", 50, 500, runs=7, progress=lambda d, t, m: seen.append((d, t)))
    assert sorted(d for d, _ in seen) == list(range(1, 8)) and {t for _, t in seen} == {7}
    seen.clear()
    balloc.sweep(GRID, progress=lambda d, t, m: seen.append((d, t)))
    assert max(d for d, _ in seen) == 48 and {t for _, t in seen} == {48}


def _simulate_while_ticking(m):
    """Run a simulation of m balls while another thread records the time every millisecond."""
    ticks = []
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=spin)
    t.start()
    try:
        start = time.perf_counter()
        balloc.simulate("two-choice", 1000, m, runs=4, threads=1)
        end = time.perf_counter()
    finally:
        stop.set()
        t.join()
    return start, end, ticks


def test_the_gil_is_released_during_a_simulation():
    # The call must last long enough for the other thread to be scheduled inside it; the size
    # grows until it does, so the test does not depend on the speed of the machine.
    m = 3_000_000
    for _ in range(6):
        start, end, ticks = _simulate_while_ticking(m)
        d = end - start
        if d > 0.2:
            break
        m *= 4
    assert d > 0.2, f"{m} balls took only {d:.3f} s"
    # Python code ran in the middle of the call: the call did not hold the GIL.
    assert any(start + 0.2 * d < s < end - 0.2 * d for s in ticks)


def test_ctrl_c_stops_a_long_simulation():
    threading.Timer(0.3, _thread.interrupt_main).start()
    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        # Ten minutes of work or more on any machine of today: 4000 runs of 10⁷ balls.
        balloc.simulate("two-choice", 10_000, 10_000_000, runs=4000)
    assert time.perf_counter() - start < 20
