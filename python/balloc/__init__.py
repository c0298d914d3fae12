"""balloc: a proof companion for balanced allocations (balls into bins), from Python.

Conventions: loads x ∈ ℝⁿ, total W = Σ xᵢ, normalised loads yᵢ = xᵢ − W/n (Σ yᵢ = 0); ranks are
heaviest first, and an allocation vector p gives pᵢ, the probability that a ball goes to the bin
of rank i; gap = max xᵢ − W/n, spread = max xᵢ − min xᵢ. Potentials (α > 0): Φ = Σ e^{α yᵢ},
Ψ = Σ e^{−α yᵢ}, Γ = Φ + Ψ, Υ = Σ yᵢ², Δ = Σ |yᵢ|.

* ``expect`` — E[P(next) | x] after one step or batch, exact (``fractions.Fraction``) where the
  numbers are rational, certified by enclosures for Φ, Ψ, Γ, else ``float``;
* ``pvec``, ``c1``, ``c2`` — allocation vectors by rank and the conditions C1(δ, ε), C2(C);
* ``Claim``, ``check``, ``check_str`` — theorem files (TOML) with verdicts ``holds`` /
  ``refuted`` / ``inconclusive`` and trust levels; ``Claim.search`` (counterexamples) and
  ``Claim.constant`` (tightest constants and their growth in n);
* ``simulate``, ``sweep`` — Monte Carlo runs and grids with numpy arrays out, seeded per run.

Every function mirrors a subcommand of the ``balloc`` command line: ``to_dict()`` of a result
is its JSON document, and bad input raises ``BallocError`` (a ``ValueError``) with the command
line's one-line message. Long computations release the GIL, accept ``progress(done, total,
message)`` callbacks and stop on Ctrl-C.
"""

from ._balloc import (  # noqa: F401
    AllocationVector,
    BallocError,
    C1,
    C2,
    Claim,
    ConstantReport,
    Estimate,
    Expectation,
    Loads,
    Potential,
    Process,
    Simulation,
    SweepResult,
    Verdict,
    Witness,
    __version__,
    c1,
    c2,
    check,
    check_str,
    expect,
    potentials,
    processes,
    pvec,
    simulate,
    sweep,
    weight_laws,
)

__all__ = [
    "AllocationVector",
    "BallocError",
    "C1",
    "C2",
    "Claim",
    "ConstantReport",
    "Estimate",
    "Expectation",
    "Loads",
    "Potential",
    "Process",
    "Simulation",
    "SweepResult",
    "Verdict",
    "Witness",
    "c1",
    "c2",
    "check",
    "check_str",
    "expect",
    "potentials",
    "processes",
    "pvec",
    "simulate",
    "sweep",
    "weight_laws",
]
