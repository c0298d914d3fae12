"""`balloc.expect`: against the command line's JSON, against brute force in exact rationals,
against a numpy closed form, and the load-vector conversions (numpy round trips)."""

import math
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

import balloc


def text(x) -> str:
    """Loads as the command line's `--loads` text (shortest round-trip decimals)."""
    return ",".join(repr(float(v)) for v in x)


# (process, potential, loads, weights, batch, ties): every route of `expect` — exact (Υ, Δ),
# enclosure (Φ, Ψ, Γ), float (a load-dependent process, weights without an exact form), the log
# domain (Φ beyond f64), enumeration, batches and both tie rules.
CASES = [
    ("two-choice", "quadratic", [3, 0, 1, 0], "unit", 1, "random"),
    ("two-choice", "gamma(alpha=0.5)", [3, 0, 1, 0], "unit", 1, "random"),
    ("d-choice(d=3)", "absolute", [5, 2, 2, 0, 1], "unit", 1, "random"),
    ("one-plus-beta(beta=0.5)", "phi(alpha=0.2)", [5, 3, 0, 0], "exp(1)", 8, "random"),
    ("quantile(delta=0.25)", "psi(alpha=0.3)", [4, 1, 1, 0, 2, 2, 3, 1], "unit", 3, "fixed"),
    ("mean-thinning", "quadratic", [4, 0, 1, 3], "unit", 1, "random"),
    ("twinning", "lambda(alpha=0.5)", [4, 0, 1, 3], "unit", 1, "random"),
    ("two-choice", "phi(alpha=1)", [2000, 0], "unit", 1, "random"),
    ("one-choice", "gamma(alpha=0.1)", [1.5, -0.25, 7, 2], "geometric(mean=1)", 2, "random"),
    ("two-thinning(threshold=1)", "mean-quantile", [4, 0, 1, 3], "unit", 1, "random"),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-b{c[4]}")
def test_expect_equals_the_command_line(cli, case):
    process, potential, loads, weights, batch, ties = case
    py = balloc.expect(
        process,
        potential,
        np.array(loads, dtype=float),
        weights=weights,
        batch=batch,
        ties=ties,
    )
    doc = cli.json(
        "expect", "--process", process, "--potential", potential, "--loads", text(loads),
        "--weights", weights, "--batch", str(batch), "--ties", ties,
    )
    assert py.to_dict() == doc
    # The attributes are the document's fields.
    assert py.trust == doc["trust"] and py.n == doc["n"] and py.method == doc["method"]
    assert py.value == doc["value"] and py.expected_next == doc["expected_next"]
    assert py.expected_change == doc["expected_change"]
    if doc["trust"] == "exact":
        assert str(py.expected_next_exact) == doc["expected_next_exact"]
        assert isinstance(py.value_exact, Fraction)
    if doc["trust"] == "enclosure":
        # JSON has null where the attribute has ±inf (an end beyond f64).
        ends = [v if math.isfinite(v) else None for v in py.expected_next_enclosure]
        assert ends == doc["enclosure"]["expected_next"]
        assert py.precision_bits == doc["enclosure"]["precision_bits"]


def test_the_log_domain_beyond_f64():
    # y = (1000, −1000), α = 1: Φ = e^{1000} + e^{−1000}, beyond f64; ln Φ = 1000 + ln(1 + e^{−2000}),
    # which is 1000 in f64.
    e = balloc.expect("two-choice", "phi(alpha=1)", [2000, 0])
    assert e.value is None and e.log_value == 1000.0
    assert e.to_dict()["value"] is None


# --- independent routes: brute force in exact rationals -------------------------------------


def d_choice_by_rank(n: int, d: int):
    """d-Choice by rank, heaviest first: pᵢ = (iᵈ − (i−1)ᵈ)/nᵈ."""
    return [Fraction(i**d - (i - 1) ** d, n**d) for i in range(1, n + 1)]


def per_bin(x, p_rank):
    """Each bin's probability: its rank's, averaged over its tied group (random tie-breaking)."""
    order = sorted(range(len(x)), key=lambda i: -x[i])
    r = [Fraction(0)] * len(x)
    k = 0
    while k < len(order):
        j = k
        while j < len(order) and x[order[j]] == x[order[k]]:
            j += 1
        avg = sum(p_rank[k:j], Fraction(0)) / (j - k)
        for t in range(k, j):
            r[order[t]] = avg
        k = j
    return r


def upsilon(x):
    m = Fraction(sum(x), len(x))
    return sum((Fraction(v) - m) ** 2 for v in x)


def delta_pot(x):
    m = Fraction(sum(x), len(x))
    return sum(abs(Fraction(v) - m) for v in x)


@pytest.mark.parametrize("d", [1, 2, 3])
@pytest.mark.parametrize("pot,f", [("quadratic", upsilon), ("absolute", delta_pot)])
def test_exact_expectation_equals_brute_force(d, pot, f):
    process = {1: "one-choice", 2: "two-choice", 3: "d-choice(d=3)"}[d]
    for x in ([3, 0, 1, 0], [2, 2, 2, 2, 2], [7, 1, 1, 4, 0, 4]):
        r = per_bin(x, d_choice_by_rank(len(x), d))
        brute = sum(
            (r[j] * f([v + (1 if i == j else 0) for i, v in enumerate(x)]) for j in range(len(x))),
            Fraction(0),
        )
        e = balloc.expect(process, pot, x)
        assert e.trust == "exact"
        assert e.expected_next_exact == brute
        assert e.value_exact == f(x)
        assert e.expected_change_exact == brute - f(x)


def test_the_worked_example_eleven_halves():
    # y = (2, −1, 0, −1), Υ = 6. Ranks 1..4 get (1, 3, 5, 7)/16, the two empty bins tied at 6/16
    # each, so E[y_J] = 2·1/16 + 0·3/16 − 1·12/16 = −5/8, and Υ' = Υ + 2y_J + 1 − 1/n gives
    # E[Υ'] = 6 − 5/4 + 3/4 = 11/2.
    e = balloc.expect("two-choice", "quadratic", [3, 0, 1, 0])
    assert e.expected_next_exact == Fraction(11, 2)
    assert e.expected_change_exact == Fraction(-1, 2)


def test_a_batch_equals_brute_force_over_pairs():
    # Distinct loads: no ties, so both balls of the batch are i.i.d. with the rank law.
    x = [5, 3, 2, 0]
    r = per_bin(x, d_choice_by_rank(4, 2))
    brute = Fraction(0)
    for j, k in product(range(4), repeat=2):
        y = list(x)
        y[j] += 1
        y[k] += 1
        brute += r[j] * r[k] * upsilon(y)
    e = balloc.expect("two-choice", "quadratic", x, batch=2)
    assert e.expected_next_exact == brute


def test_weights_by_the_second_moment():
    # Adding weight w to bin j: Υ' = Υ + 2w·y_j + w²(1 − 1/n), so with Exp(1) weights
    # (E[w] = 1, E[w²] = 2): E[Υ'] = Υ + 2·E[y_J] + 2(1 − 1/n).
    x = [3, 0, 1, 0]
    n = len(x)
    r = per_bin(x, d_choice_by_rank(n, 2))
    m = Fraction(sum(x), n)
    ey = sum((r[j] * (x[j] - m) for j in range(n)), Fraction(0))
    want = upsilon(x) + 2 * ey + 2 * (1 - Fraction(1, n))
    e = balloc.expect("two-choice", "quadratic", x, weights="exp(1)")
    assert e.expected_next == pytest.approx(float(want), rel=1e-14)
    if e.trust == "exact":
        assert e.expected_next_exact == want


# --- independent route: a numpy closed form of E[Γ'] -----------------------------------------


def numpy_gamma(x, alpha):
    """E[Γ'] for Two-Choice, one unit ball, random ties (Peres–Talwar–Wieder; Los–Sauerwald §3):
    E[e^{σα y'ᵢ}] = e^{σα yᵢ}(e^{c} + rᵢ(e^{a} − e^{c})), a = σα(1 − 1/n), c = −σα/n, σ = ±1."""
    n = x.size
    xs = -np.sort(-x)
    p = (2.0 * np.arange(1, n + 1) - 1.0) / (float(n) * n)
    cs = np.concatenate(([0.0], np.cumsum(p)))
    starts = np.concatenate(([0], np.flatnonzero(xs[1:] != xs[:-1]) + 1))
    ends = np.concatenate((starts[1:], [n]))
    avg = (cs[ends] - cs[starts]) / (ends - starts)
    r = avg[np.searchsorted(-xs[starts], -x)]
    y = x - x.mean()
    total = []
    for s in (1.0, -1.0):
        a, c = s * alpha * (1 - 1 / n), -s * alpha / n
        total.extend(np.exp(s * alpha * y) * (np.exp(c) + r * (np.exp(a) - np.exp(c))))
    return math.fsum(total)


@pytest.mark.parametrize("n", [10, 1000, 30000])
def test_gamma_equals_a_numpy_closed_form(n):
    rng = np.random.default_rng(2026)
    x = rng.integers(0, 100, n).astype(float)
    e = balloc.expect("two-choice", "gamma(alpha=0.1)", x)
    want = numpy_gamma(x, 0.1)
    assert e.expected_next == pytest.approx(want, rel=1e-12)
    if n <= 20000:
        # Certified: the enclosure holds the value, up to the rounding of the numpy route.
        lo, hi = e.expected_next_enclosure
        assert lo - 1e-12 * want <= want <= hi + 1e-12 * want
        assert e.trust == "enclosure"
    else:
        assert e.trust == "float"


# --- load vectors: every input form gives the same loads -------------------------------------


def test_every_form_of_loads_gives_the_same_result(tmp_path):
    x = np.array([3.0, 0.0, 1.0, 0.0, 2.5, 7.0])
    f = tmp_path / "loads.txt"
    f.write_text("3 0\n1, 0 2.5 7\n")
    forms = [
        x,
        list(x),
        tuple(x),
        x.astype(np.float32),  # exact in float32
        np.array([3, 0, 1, 0, 2.5, 7], dtype=object),
        np.array([[3.0, 9.0], [0, 9], [1, 9], [0, 9], [2.5, 9], [7, 9]])[:, 0],  # strided
        "3,0,1,0,2.5,7",
        "@" + str(f),
        balloc.Loads(x),
    ]
    want = balloc.expect("two-choice", "gamma(alpha=0.5)", x).to_dict()
    for loads in forms:
        assert balloc.expect("two-choice", "gamma(alpha=0.5)", loads).to_dict() == want
    ints = np.array([3, 0, 1, 0, 5], dtype=np.int64)
    assert balloc.expect("two-choice", "quadratic", ints).to_dict() == (
        balloc.expect("two-choice", "quadratic", ints.astype(float)).to_dict()
    )


@pytest.mark.parametrize("n", [30000, 1000])
def test_integer_arrays_counted_by_value_give_the_ordinary_route_s_numbers(n):
    # An integer-valued array (int64 or float64) without certification is counted by value
    # straight from its buffer (no load vector); the numbers must be those of the ordinary route
    # (a Loads, a list), and the numpy closed form.
    rng = np.random.default_rng(7)
    x = rng.integers(-50, 100, n)
    for pot in ["gamma(alpha=0.1)", "phi(alpha=0.3)", "psi(alpha=0.3)", "quadratic"]:
        for batch, ties in [(1, "random"), (5, "random"), (5, "fixed")]:
            kw = dict(batch=batch, ties=ties, certify=False)
            counted = balloc.expect("two-choice", pot, x, **kw).to_dict()
            assert counted == balloc.expect("two-choice", pot, x.astype(float), **kw).to_dict()
            assert counted == balloc.expect("two-choice", pot, balloc.Loads(x), **kw).to_dict()
            assert counted == balloc.expect("two-choice", pot, x.tolist(), **kw).to_dict()
    # A float array with a fraction takes the ordinary route, with the same numbers.
    xf = x.astype(float)
    xf[0] += 0.5
    kw = dict(certify=False)
    assert balloc.expect("two-choice", "gamma(alpha=0.1)", xf, **kw).to_dict() == (
        balloc.expect("two-choice", "gamma(alpha=0.1)", balloc.Loads(xf), **kw).to_dict()
    )
    e = balloc.expect("two-choice", "gamma(alpha=0.1)", x, certify=False)
    assert e.expected_next == pytest.approx(numpy_gamma(x.astype(float), 0.1), rel=1e-12)
    # Bad input still gives the command line's message.
    with pytest.raises(balloc.BallocError, match="empty"):
        balloc.expect("two-choice", "gamma(alpha=0.1)", np.array([], dtype=np.int64), certify=False)


def test_loads_round_trip_through_numpy():
    rng = np.random.default_rng(7)
    x = rng.normal(size=1000) * 1e3
    loads = balloc.Loads(x)
    assert np.array_equal(loads.to_numpy(), x)
    a = np.asarray(loads)
    assert np.array_equal(a, x) and a.dtype == np.float64 and not a.flags.writeable
    y = loads.normalized()
    # yᵢ = xᵢ − W/n (W summed in another order than numpy's: equal to rounding).
    assert np.allclose(y, x - math.fsum(x) / x.size, rtol=0, atol=1e-9)
    assert abs(math.fsum(y)) < 1e-9
    assert loads.n == len(loads) == 1000
    assert loads.total == pytest.approx(math.fsum(x), rel=1e-12)
    assert loads.gap == pytest.approx(x.max() - x.sum() / x.size, rel=1e-12)
    assert loads.spread == x.max() - x.min()
    # The input array is copied: changing it afterwards does not change the loads.
    x[0] += 1.0
    assert loads.to_numpy()[0] != x[0]


def test_process_and_potential_objects_equal_their_specs():
    p = balloc.Process("d-choice(d=3)")
    g = balloc.Potential("gamma(alpha=0.1)")
    x = [4.0, 0.0, 1.0, 3.0, 3.0]
    assert balloc.expect(p, g, x).to_dict() == balloc.expect("d-choice(d=3)", "gamma(alpha=0.1)", x).to_dict()
    # d = 3, n = 4: pᵢ = (i³ − (i−1)³)/64 = (1, 7, 19, 37)/64.
    assert np.array_equal(p.allocation_vector(4), np.array([1, 7, 19, 37]) / 64)
    assert g.value(x) == pytest.approx(balloc.expect(p, g, x).value, rel=1e-15)
    assert balloc.Process("mean-thinning").allocation_vector(4) is None
    names = {r["name"] for r in balloc.processes()}
    assert {"two-choice", "d-choice", "graphical"} <= names
    assert "gamma" in {r["name"] for r in balloc.potentials()}
    assert "exp" in {r["name"] for r in balloc.weight_laws()}


def test_registries_equal_the_command_line(cli):
    assert balloc.processes() == cli.json("list", "processes")
    assert balloc.potentials() == cli.json("list", "potentials")
    assert balloc.weight_laws() == cli.json("list", "weights")
