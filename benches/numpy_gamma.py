#!/usr/bin/env python3
"""E[Γ'] for Two-Choice (sequential, random ties, unit weights) with a vectorised numpy closed form.

The baseline of the end-to-end comparison in BENCHMARKS.md:

    python3 benches/numpy_gamma.py LOADS_FILE [ALPHA]

reads the same file as `balloc expect --loads @LOADS_FILE` (numbers separated by commas or white
space) and prints E[Γ'] (the `expected_next` of `balloc expect --process two-choice --potential
'gamma(alpha=ALPHA)'`).

Closed form (one unit ball; Peres–Talwar–Wieder; Los–Sauerwald, Balanced Allocations in Batches,
§3): with y = x − W/n and rᵢ the probability that bin i receives the ball,
E[e^{σα y'ᵢ}] = e^{σα yᵢ}·(e^{c} + rᵢ(e^{a} − e^{c})), a = σα(1 − 1/n), c = −σα/n, σ = ±1.
Two-Choice by rank (heaviest first): pₖ = (2k − 1)/n²; a tied group shares the average of its ranks.
"""

import sys

import numpy as np


def main() -> None:
    path = sys.argv[1]
    alpha = float(sys.argv[2]) if len(sys.argv) > 2 else 0.1
    with open(path) as f:
        text = f.read()
    x = np.array(text.replace(",", " ").split(), dtype=np.float64)
    n = x.size
    # Ranks heaviest first; tied groups get the mean of their rank probabilities.
    xs = -np.sort(-x)
    p = (2.0 * np.arange(1, n + 1) - 1.0) / (float(n) * float(n))
    cs = np.concatenate(([0.0], np.cumsum(p)))
    starts = np.concatenate(([0], np.flatnonzero(xs[1:] != xs[:-1]) + 1))
    ends = np.concatenate((starts[1:], [n]))
    avg = (cs[ends] - cs[starts]) / (ends - starts)
    # Each bin's group: the position of its load among the distinct loads (descending).
    distinct = xs[starts]
    group = np.searchsorted(-distinct, -x)
    r = avg[group]
    y = x - x.mean()
    total = 0.0
    for sigma in (1.0, -1.0):
        a = sigma * alpha * (1.0 - 1.0 / n)
        c = -sigma * alpha / n
        total += float(np.sum(np.exp(sigma * alpha * y) * (np.exp(c) + r * (np.exp(a) - np.exp(c)))))
    print(repr(total))


if __name__ == "__main__":
    main()
