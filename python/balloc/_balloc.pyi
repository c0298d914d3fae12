"""Type stubs of the native module ``balloc._balloc`` (re-exported by ``balloc``).

Conventions: loads x ∈ ℝⁿ, W = Σ xᵢ, yᵢ = xᵢ − W/n; ranks heaviest first; gap = max xᵢ − W/n.
"""

import os
from fractions import Fraction
from typing import Any, Callable, Mapping, Optional, Sequence, Tuple, Union, final

import numpy as np
import numpy.typing as npt

__version__: str
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
    "__version__",
    "_time_expect",
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

_ProgressCallback = Callable[[int, Optional[int], str], Any]
"""``progress(done, total, message)``: ``done`` items of ``total`` (``None`` when unknown)."""

_LoadsLike = Union["Loads", npt.ArrayLike, str]
"""A numpy array, a sequence of numbers, the command line's text (``"3,0,1,0"``, ``"@FILE"``)
or a ``Loads``."""

_ProcessLike = Union["Process", str]
_PotentialLike = Union["Potential", str]
_Number = Union[str, Fraction, int, float]
"""A number read exactly: a string (``"1/2"``, ``"0.25"``), a ``Fraction``, an ``int``, or a
float by its shortest decimal (``0.1`` is 1/10)."""

class BallocError(ValueError):
    """Bad input or a failed computation, with the one-line message of the ``balloc`` command
    line (naming the argument as its flag, e.g. ``--process``, or ``file:line:column``)."""

@final
class Loads:
    """A validated load vector x = (x₁, …, xₙ): non-empty, finite, |xᵢ| ≤ f64::MAX/2, finite total.

    ``Loads(x)`` copies once; functions taking loads accept a ``Loads`` without another copy.
    ``np.asarray(loads)`` gives a read-only ``float64`` array.
    """

    def __new__(cls, x: _LoadsLike) -> "Loads": ...
    @property
    def n(self) -> int:
        """The number of bins n."""
    @property
    def total(self) -> float:
        """W = Σ xᵢ."""
    @property
    def mean(self) -> float:
        """W/n."""
    @property
    def gap(self) -> float:
        """max xᵢ − W/n."""
    @property
    def spread(self) -> float:
        """max xᵢ − min xᵢ."""
    def normalized(self) -> npt.NDArray[np.float64]:
        """yᵢ = xᵢ − W/n (Σ yᵢ = 0)."""
    def to_numpy(self) -> npt.NDArray[np.float64]:
        """The loads as a new array."""
    def __array__(self, dtype: Any = None, copy: Optional[bool] = None) -> npt.NDArray[Any]: ...
    def __len__(self) -> int: ...

@final
class Process:
    """An allocation process from its spec, e.g. ``Process("d-choice(d=3)")``.

    A rank-based process has an allocation vector p by rank (heaviest first): One-Choice
    pᵢ = 1/n; d-Choice pᵢ = (iᵈ − (i−1)ᵈ)/nᵈ (Two-Choice pᵢ = (2i − 1)/n²).
    """

    def __new__(cls, spec: str) -> "Process": ...
    @property
    def spec(self) -> str:
        """The canonical spec with every parameter."""
    @property
    def name(self) -> str: ...
    @property
    def rank_based(self) -> bool:
        """Whether p depends on ranks only."""
    @property
    def summary(self) -> str:
        """A one-line definition with the formula."""
    @property
    def reference(self) -> str:
        """The paper reference."""
    def allocation_vector(self, n: int) -> Optional[npt.NDArray[np.float64]]:
        """p by rank at n bins; ``None`` if the probabilities depend on the loads."""

@final
class Potential:
    """A potential from its spec, e.g. ``Potential("gamma(alpha=0.5)")``.

    With yᵢ = xᵢ − W/n, α > 0: Φ = Σ e^{α yᵢ} (``phi``), Ψ = Σ e^{−α yᵢ} (``psi``),
    Γ = Φ + Ψ (``gamma``), Υ = Σ yᵢ² (``quadratic``), Δ = Σ |yᵢ| (``absolute``).
    """

    def __new__(cls, spec: str) -> "Potential": ...
    @property
    def spec(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def summary(self) -> str:
        """The definition."""
    def value(self, x: _LoadsLike) -> float:
        """P(x) (``inf`` beyond the range of f64)."""

def processes() -> list[dict[str, Any]]:
    """The registered processes (as ``balloc list processes --format json``)."""

def potentials() -> list[dict[str, Any]]:
    """The registered potentials (as ``balloc list potentials --format json``)."""

def weight_laws() -> list[dict[str, Any]]:
    """The weight laws (as ``balloc list weights --format json``)."""

@final
class Expectation:
    """E[P(next) | x] and E[P(next) − P(x) | x] after one step or batch, with its trust level.

    ``trust``: ``exact`` (rationals: ``*_exact`` are ``Fraction``, the floats their nearest
    f64), ``enclosure`` (``*_enclosure`` are outward-rounded bounds (lo, hi) of
    ``precision_bits`` bits) or ``float``. Floats are ``None`` beyond f64; the ``log_*`` fields
    keep such values. ``to_dict()`` is ``balloc expect --format json``.
    """

    @property
    def n(self) -> int: ...
    @property
    def process(self) -> str: ...
    @property
    def potential(self) -> str: ...
    @property
    def weights(self) -> str: ...
    @property
    def batch(self) -> int: ...
    @property
    def ties(self) -> str: ...
    @property
    def method(self) -> str:
        """``closed-form`` or ``enumeration``."""
    @property
    def trust(self) -> str:
        """``exact``, ``enclosure`` or ``float``."""
    @property
    def value(self) -> Optional[float]:
        """P(x)."""
    @property
    def expected_next(self) -> Optional[float]:
        """E[P(next) | x]."""
    @property
    def expected_change(self) -> Optional[float]:
        """E[P(next) − P(x) | x]."""
    @property
    def log_value(self) -> float: ...
    @property
    def log_expected_next(self) -> float: ...
    @property
    def log_abs_expected_change(self) -> float: ...
    @property
    def expected_change_sign(self) -> float: ...
    @property
    def value_exact(self) -> Optional[Fraction]: ...
    @property
    def expected_next_exact(self) -> Optional[Fraction]: ...
    @property
    def expected_change_exact(self) -> Optional[Fraction]: ...
    @property
    def value_enclosure(self) -> Optional[Tuple[float, float]]: ...
    @property
    def expected_next_enclosure(self) -> Optional[Tuple[float, float]]: ...
    @property
    def expected_change_enclosure(self) -> Optional[Tuple[float, float]]: ...
    @property
    def precision_bits(self) -> Optional[int]: ...
    def to_dict(self) -> dict[str, Any]: ...

def expect(
    process: _ProcessLike,
    potential: _PotentialLike,
    loads: _LoadsLike,
    *,
    weights: str = "unit",
    batch: int = 1,
    ties: str = "random",
    certify: bool = True,
) -> Expectation:
    """The expectation of potential P after one step (or one batch of ``batch`` balls) at x.

    Certified for n ≤ 20 000 where a route exists: exact rationals for Υ, Δ; enclosures for
    Φ, Ψ, Γ. Example: Two-Choice, Υ = Σ yᵢ², x = (3, 0, 1, 0): y = (2, −1, 0, −1), Υ = 6; the
    ball goes to ranks 1..4 with (1, 3, 5, 7)/16 (the tied empty bins 6/16 each) and
    Υ' = Υ + 2y_J + 1 − 1/n, so E[Υ'] = 6 − 5/4 + 3/4 = 11/2.
    Raises ``BallocError`` with the message of ``balloc expect``. Releases the GIL.
    """

@final
class C1:
    """Condition C1(δ, ε): Σ_{i≤k} pᵢ ≤ (1 − ε)k/n for k ≤ δn and
    Σ_{i≥k} pᵢ ≥ (1 + ε̃)(n − k + 1)/n for k > δn, ε̃ = εδ/(1 − δ). Best ε:
    ε*(δ) = min(min_{k≤δn} (1 − n·P_k/k), min_{k>δn} (n·S_k/(n−k+1) − 1)(1 − δ)/δ).
    (Los–Sauerwald, Balanced Allocations in Batches, SPAA 2022, §2.2.)"""

    @property
    def delta(self) -> float: ...
    @property
    def delta_exact(self) -> Fraction: ...
    @property
    def eps(self) -> float:
        """ε*(δ)."""
    @property
    def eps_exact(self) -> Optional[Fraction]: ...
    @property
    def witness_k(self) -> int:
        """The 1-based k attaining the minimum."""
    @property
    def trust(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...

@final
class C2:
    """Condition C2(C): max pᵢ ≤ C/n; the smallest C is C* = n·max pᵢ."""

    @property
    def c(self) -> float: ...
    @property
    def c_exact(self) -> Optional[Fraction]: ...
    @property
    def witness_i(self) -> int:
        """The 1-based rank of the largest entry."""
    @property
    def trust(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...

@final
class AllocationVector:
    """An allocation vector by rank (``p``, rank 1 first), exact where rational, with C1/C2.
    ``to_dict()`` is ``balloc pvec --format json``."""

    @property
    def n(self) -> int: ...
    @property
    def process(self) -> str: ...
    @property
    def p(self) -> npt.NDArray[np.float64]: ...
    @property
    def p_exact(self) -> Optional[list[Fraction]]: ...
    @property
    def expected_balls(self) -> Optional[npt.NDArray[np.float64]]: ...
    @property
    def c1(self) -> Optional[C1]: ...
    @property
    def c2(self) -> C2: ...
    @property
    def trust(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    def __len__(self) -> int: ...

def pvec(
    process: _ProcessLike,
    n: Optional[int] = None,
    *,
    loads: Optional[_LoadsLike] = None,
    delta: Optional[_Number] = None,
    ties: str = "random",
) -> AllocationVector:
    """The allocation vector by rank at ``n`` bins (rank-based processes) or at ``loads``; with
    ``delta`` the best ε of C1(δ, ε); always the smallest C of C2(C). Two-Choice at n = 4:
    p = (1, 3, 5, 7)/16, ε*(1/2) = 1/2 at k = 2, C* = 7/4."""

def c1(p: Union[npt.ArrayLike, Sequence[Union[Fraction, int]]], delta: _Number) -> C1:
    """C1 on any allocation vector by rank: exact for ``Fraction``/``int`` entries, else f64."""

def c2(p: Union[npt.ArrayLike, Sequence[Union[Fraction, int]]]) -> C2:
    """C2 on any allocation vector by rank: C* = n·max pᵢ."""

@final
class Witness:
    """The tightest state of a ``holds`` verdict or the counterexample of a ``refuted`` one;
    slack = rhs − lhs (positive where the claim holds)."""

    @property
    def n(self) -> int: ...
    @property
    def loads(self) -> npt.NDArray[np.float64]: ...
    @property
    def source(self) -> str: ...
    @property
    def constants(self) -> dict[str, float]: ...
    @property
    def lhs(self) -> Optional[float]: ...
    @property
    def rhs(self) -> Optional[float]: ...
    @property
    def slack(self) -> Optional[float]: ...
    @property
    def lhs_text(self) -> str: ...
    @property
    def rhs_text(self) -> str: ...
    @property
    def slack_text(self) -> str: ...
    @property
    def found_by(self) -> str: ...
    @property
    def recheck(self) -> Optional[str]: ...
    @property
    def lhs_exact(self) -> Optional[Fraction]:
        """The left side as a ``Fraction`` when the certified evaluation was exact."""
    @property
    def rhs_exact(self) -> Optional[Fraction]: ...
    @property
    def slack_exact(self) -> Optional[Fraction]: ...
    @property
    def constants_text(self) -> dict[str, str]:
        """Every constant as text: exact rationals as ``p/q``, any magnitude in scientific notation."""
    def to_dict(self) -> dict[str, Any]: ...

@final
class Verdict:
    """``holds`` (no violation in the searched space; smallest slack and where), ``refuted``
    (a certified counterexample) or ``inconclusive``, with a trust level (``exact``,
    ``enclosure``, ``float``, ``statistical``). ``to_dict()`` is one entry of
    ``balloc check --format json``."""

    @property
    def id(self) -> str: ...
    @property
    def verdict(self) -> str: ...
    @property
    def expected(self) -> str: ...
    @property
    def contradicts(self) -> bool: ...
    @property
    def trust(self) -> str: ...
    @property
    def slack(self) -> Optional[float]: ...
    @property
    def witness(self) -> Optional[Witness]: ...
    @property
    def searched(self) -> dict[str, Any]: ...
    @property
    def precision_bits(self) -> Optional[int]: ...
    @property
    def confidence(self) -> Optional[float]: ...
    @property
    def notes(self) -> list[str]: ...
    @property
    def links(self) -> list[dict[str, Any]]: ...
    def to_dict(self) -> dict[str, Any]: ...

@final
class ConstantReport:
    """The tightest value of a constant per n and growth fits value ≈ a·g(n),
    g ∈ {1, ln n, √n, n, n ln n}, best (smallest relative RMS residual) first.
    ``to_dict()`` is ``balloc constant --format json``."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def direction(self) -> str: ...
    @property
    def n(self) -> npt.NDArray[np.uint64]: ...
    @property
    def values(self) -> npt.NDArray[np.float64]: ...
    @property
    def fails(self) -> npt.NDArray[np.float64]: ...
    @property
    def witnesses(self) -> list[Optional[Witness]]: ...
    @property
    def fits(self) -> list[dict[str, Any]]: ...
    @property
    def fits_note(self) -> Optional[str]: ...
    def to_dict(self) -> dict[str, Any]: ...

@final
class Claim:
    """One theorem file (schema of ``theorems/README.md``) with its check built."""

    @staticmethod
    def from_str(text: str) -> "Claim":
        """A claim from TOML text (id ``inline``, no ``paper.toml``)."""
    @staticmethod
    def load(path_or_id: Union[str, os.PathLike[str]], theorems: Union[str, os.PathLike[str]] = "theorems") -> "Claim":
        """A claim from a file or an id ``<paper>/<name>`` under ``theorems``."""
    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def expected(self) -> str: ...
    @property
    def statement(self) -> str:
        """The statement in LaTeX."""
    @property
    def tighten(self) -> dict[str, str]: ...
    @property
    def text(self) -> str: ...
    def check(self, *, effort: int = 1, progress: Optional[_ProgressCallback] = None) -> Verdict:
        """Runs the claim's search (as ``balloc check``)."""
    def search(self, budget: float = 10.0, *, progress: Optional[_ProgressCallback] = None) -> Verdict:
        """The file's search, then fresh seeds for ``budget`` seconds; the worst state of all
        (as ``balloc search``)."""
    def constant(
        self,
        name: str,
        n: Optional[Sequence[int]] = None,
        *,
        progress: Optional[_ProgressCallback] = None,
    ) -> ConstantReport:
        """The tightest value of ``name`` per n and its growth fits (as ``balloc constant``)."""

def _time_expect(
    process: _ProcessLike,
    potential: _PotentialLike,
    loads: _LoadsLike,
    repeats: int,
    *,
    from_vec: bool = False,
) -> list[float]:
    """Seconds of each of ``repeats`` library calls of E[P(next) | x] timed in Rust (for
    ``benches/overhead.py``)."""

def check(
    *paths: Union[str, os.PathLike[str]],
    theorems: Union[str, os.PathLike[str]] = "theorems",
    effort: int = 1,
    jobs: Optional[int] = None,
    progress: Optional[_ProgressCallback] = None,
) -> list[Verdict]:
    """Runs theorem files (files, directories or ids; all of ``theorems`` when none) as
    ``balloc check`` does; the verdicts in the order given."""

def check_str(text: str, *, effort: int = 1, progress: Optional[_ProgressCallback] = None) -> Verdict:
    """``Claim.from_str(text).check()``."""

@final
class Estimate:
    """A sample mean with its Student-t interval mean ∓ t_{(1+c)/2, R−1}·s/√R."""

    @property
    def mean(self) -> float: ...
    @property
    def stderr(self) -> float: ...
    @property
    def ci_low(self) -> float: ...
    @property
    def ci_high(self) -> float: ...
    @property
    def runs(self) -> int: ...
    @property
    def confidence(self) -> float: ...

@final
class Simulation:
    """The runs of ``simulate`` (numpy arrays by run) and their summary.
    ``to_dict()`` is ``balloc simulate --format json``."""

    @property
    def config(self) -> dict[str, Any]: ...
    @property
    def seeds(self) -> npt.NDArray[np.uint64]: ...
    @property
    def final_gap(self) -> npt.NDArray[np.float64]: ...
    @property
    def max_gap(self) -> npt.NDArray[np.float64]: ...
    @property
    def spread(self) -> npt.NDArray[np.float64]: ...
    @property
    def balls(self) -> npt.NDArray[np.uint64]: ...
    @property
    def steps(self) -> npt.NDArray[np.uint64]: ...
    @property
    def mean_quantile(self) -> npt.NDArray[np.float64]: ...
    @property
    def potentials(self) -> dict[str, npt.NDArray[np.float64]]: ...
    @property
    def summary(self) -> dict[str, Estimate]: ...
    @property
    def trajectory(self) -> Optional[dict[str, Any]]:
        """``balls`` (checkpoints) and ``gap``, ``max_gap``, ``mean_quantile`` (runs × checkpoints),
        ``potentials`` (spec → runs × checkpoints)."""
    @property
    def histograms(self) -> Optional[list[Tuple[npt.NDArray[np.float64], npt.NDArray[np.uint64]]]]: ...
    def to_dict(self) -> dict[str, Any]: ...
    def __len__(self) -> int: ...

def simulate(
    process: _ProcessLike,
    n: int,
    balls: int,
    *,
    batch: int = 1,
    weights: str = "unit",
    runs: int = 10,
    seed: int = 0,
    ties: str = "random",
    potentials: Sequence[_PotentialLike] = (),
    trajectory: int = 0,
    histogram: bool = False,
    confidence: float = 0.95,
    threads: Optional[int] = None,
    progress: Optional[_ProgressCallback] = None,
) -> Simulation:
    """Monte Carlo runs as ``balloc simulate``; run i seeded from (configuration, seed, i)."""

@final
class SweepResult:
    """The rows of a sweep (``runs``: columns of ``PREFIX.csv``) and its per-configuration
    ``summary`` (columns of ``PREFIX.summary.csv``), as dicts of numpy arrays."""

    @property
    def configs(self) -> list[dict[str, Any]]: ...
    @property
    def runs(self) -> dict[str, npt.NDArray[Any]]: ...
    @property
    def summary(self) -> dict[str, npt.NDArray[Any]]: ...
    def __len__(self) -> int: ...

def sweep(
    grid: Union[Mapping[str, Any], str, os.PathLike[str]],
    *,
    shard: Union[str, Tuple[int, int], None] = None,
    threads: Optional[int] = None,
    progress: Optional[_ProgressCallback] = None,
) -> SweepResult:
    """A grid of configurations × runs as ``balloc sweep`` (a sweep file, or a dict with its
    fields: ``runs``, ``seed``, ``confidence``, ``grid`` = {``process``, ``n``, ``weights``,
    ``ties``, ``batch`` | ``batch_per_n``, ``balls`` | ``balls_per_n`` | ``batches``}),
    in memory."""
