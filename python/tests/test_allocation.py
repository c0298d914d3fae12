"""Allocation vectors and C1/C2: `pvec` against the command line's JSON, and `c1`/`c2` against
the definitions of the conditions evaluated directly in exact rationals."""

from fractions import Fraction

import numpy as np
import pytest

import balloc


@pytest.mark.parametrize(
    "args",
    [
        ("two-choice", "--n", "4", "--delta", "1/2"),
        ("d-choice(d=3)", "--n", "8", "--delta", "0.25"),
        ("one-plus-beta(beta=0.5)", "--n", "6", "--delta", "1/3"),
        ("quantile(delta=0.25)", "--n", "8"),
        ("two-choice", "--n", "30000", "--delta", "0.5"),  # beyond the exact limit: float
        ("mean-thinning", "--loads", "4,0,1,3,3", "--delta", "0.4"),
        ("twinning", "--loads", "4,0,1,3"),  # several balls a step: expected balls by rank
        ("graphical(graph=cycle)", "--loads", "3,0,1,4,1,2,5,6", "--delta", "0.5"),
        ("two-choice", "--loads", "1,1,0,0", "--ties", "fixed"),
    ],
    ids=lambda a: " ".join(a),
)
def test_pvec_equals_the_command_line(cli, args):
    process, *rest = args
    opts = dict(zip(rest[::2], rest[1::2]))
    kw = {}
    if "--loads" in opts:
        kw["loads"] = np.array([float(v) for v in opts["--loads"].split(",")])
    if "--delta" in opts:
        kw["delta"] = opts["--delta"]
    if "--ties" in opts:
        kw["ties"] = opts["--ties"]
    n = int(opts["--n"]) if "--n" in opts else None
    a = balloc.pvec(process, n, **kw)
    doc = cli.json("pvec", "--process", process, *rest)
    assert a.to_dict() == doc
    assert np.array_equal(a.p, np.array(doc["p"])) and a.trust == doc["trust"]
    if a.p_exact is not None:
        assert [str(q) for q in a.p_exact] == doc["p_exact"]
        assert sum(a.p_exact) == 1
    if a.c1 is not None:
        assert a.c1.eps == doc["c1"]["eps"] and a.c1.witness_k == doc["c1"]["witness_k"]
    assert a.c2.c == doc["c2"]["c"]


def test_delta_as_string_fraction_int_or_float():
    want = balloc.pvec("two-choice", 8, delta="1/4").c1
    for d in ("0.25", Fraction(1, 4), 0.25):
        c = balloc.pvec("two-choice", 8, delta=d).c1
        assert (c.eps_exact, c.witness_k, c.delta_exact) == (want.eps_exact, want.witness_k, Fraction(1, 4))
    # A float is read by its shortest decimal: 0.1 is 1/10, not the binary fraction.
    assert balloc.pvec("two-choice", 10, delta=0.1).c1.delta_exact == Fraction(1, 10)


# --- the conditions by their definitions (Los–Sauerwald, SPAA 2022, §2.2) ---------------------


def c1_holds(p, delta, eps):
    """C1(δ, ε): Σ_{i≤k} pᵢ ≤ (1 − ε)k/n for k ≤ δn; Σ_{i≥k} pᵢ ≥ (1 + ε̃)(n − k + 1)/n for
    k > δn, ε̃ = εδ/(1 − δ)."""
    n = len(p)
    kd = delta * n
    et = eps * delta / (1 - delta)
    for k in range(1, n + 1):
        if k <= kd:
            if sum(p[:k]) > (1 - eps) * Fraction(k, n):
                return False
        elif sum(p[k - 1 :]) < (1 + et) * Fraction(n - k + 1, n):
            return False
    return True


def random_vector(rng, n):
    w = [Fraction(int(v)) for v in rng.integers(1, 20, n)]
    w.sort()  # increasing: the lighter bins (higher ranks) get more, as for a good process
    s = sum(w)
    return [v / s for v in w]


@pytest.mark.parametrize("seed", range(6))
def test_best_eps_is_the_largest_eps_of_c1(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 12))
    p = random_vector(rng, n)
    delta = Fraction(int(rng.integers(1, n)), n)
    c = balloc.c1(p, delta)
    assert c.trust == "exact"
    eps = c.eps_exact
    # ε* is the best constant: C1 holds at ε* and fails just above it (when ε* > 0).
    if eps > 0:
        assert c1_holds(p, delta, eps)
    assert not c1_holds(p, delta, eps + Fraction(1, 10**9))
    # The witness attains it: its term of ε*(δ) = min over k of the prefix terms 1 − n·P_k/k
    # (k ≤ δn) and the suffix terms (n·S_k/(n − k + 1) − 1)(1 − δ)/δ (k > δn).
    k = c.witness_k
    if k <= delta * n:
        term = 1 - n * sum(p[:k]) / k
    else:
        term = (n * sum(p[k - 1 :]) / (n - k + 1) - 1) * (1 - delta) / delta
    assert term == eps
    # The float route on the same vector gives the nearest value.
    f = balloc.c1(np.array([float(v) for v in p]), delta)
    assert f.trust == "float" and f.eps == pytest.approx(float(eps), abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_best_c_is_n_times_the_largest_entry(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(2, 12))
    p = random_vector(rng, n)
    c = balloc.c2(p)
    i = max(range(n), key=lambda k: (p[k], -k))
    assert c.c_exact == n * p[i] and c.witness_i == i + 1
    assert balloc.c2([float(v) for v in p]).c == pytest.approx(float(n * p[i]), rel=1e-15)


def test_two_choice_by_hand():
    # p = (1, 3, 5, 7)/16, δ = 1/2: prefix terms 1 − 4·(1/16) = 3/4 and 1 − 4·(4/16)/2 = 1/2;
    # suffix terms 4·(12/16)/2 − 1 = 1/2 and 4·(7/16) − 1 = 3/4; so ε* = 1/2 at k = 2.
    p = [Fraction(k, 16) for k in (1, 3, 5, 7)]
    c = balloc.c1(p, "1/2")
    assert (c.eps_exact, c.witness_k) == (Fraction(1, 2), 2)
    assert balloc.c2(p).c_exact == Fraction(7, 4)
    a = balloc.pvec("two-choice", 4, delta="1/2")
    assert a.p_exact == p and a.c1.eps_exact == Fraction(1, 2)


@pytest.mark.parametrize(
    "p,msg",
    [
        ([0.5, 0.6], "invalid p: the entries sum to"),
        ([Fraction(1, 2), Fraction(1, 3)], "invalid p: the entries sum to 5/6, not 1"),
        ([1.5, -0.5], "invalid p: entry 2 is -0.5"),
        ([], "invalid p: the allocation vector is empty"),
        (np.ones((2, 2)) / 4, "expected a one-dimensional array"),
    ],
)
def test_bad_vectors_raise(p, msg):
    with pytest.raises(ValueError, match=msg.replace("(", r"\(")):
        balloc.c2(p)
