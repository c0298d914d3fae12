"""Claims: `check`, `check_str`, `Claim.search` and `Claim.constant` against the command line's
JSON on the same files, and their numbers against hand computations."""

import math
from fractions import Fraction

import numpy as np
import pytest

import balloc

from test_expect import d_choice_by_rank, per_bin, upsilon

# One ball of Two-Choice at n = 4 from any state with loads ≤ 3 (exhaustive search): the claim
# E[ΔΥ] ≤ 1 holds, since E[ΔΥ] = 2E[y_J] + 1 − 1/n and E[y_J] ≤ 0 (the ball favours light bins).
HOLDS = """
title = "one ball, quadratic potential"
kind = "inequality"
expected = "holds"
statement = '\\mathbb E[\\Delta\\Upsilon] \\le 1'
source = { locator = "worked example", provenance = "derived" }
[setting]
processes = ["two-choice"]
[claim]
expr = "dE_Upsilon <= 1"
[domain]
n = [4]
exhaustive = { max_n = 4, max_load = 3 }
"""

# A bound that is too strong: E[ΔΥ] ≤ 0 fails at the all-equal state (E[ΔΥ] = 1 − 1/n).
TOO_STRONG = HOLDS.replace("dE_Upsilon <= 1", "dE_Upsilon <= 0").replace(
    "max_load = 3", "max_load = 2"
)


IDS = [
    "ptw/gamma-drift-two-choice",
    "ptw/gamma-drift-no-constant",
    "batched-2022/c1c2-two-choice",
    "batched-2022/lower-bound-random-ties-two-choice",
    "batched-2022/expected-gamma-linear",
]


def test_check_equals_the_command_line(cli):
    vs = balloc.check(*IDS)
    doc = cli.json("check", *IDS)
    assert [v.to_dict() for v in vs] == doc
    for v, d in zip(vs, doc):
        assert (v.id, v.verdict, v.expected, v.trust) == (d["id"], d["verdict"], d["expected"], d["trust"])
        assert v.slack == d["slack"] and v.contradicts is False
        assert (v.witness.to_dict() if v.witness else None) == d["witness"]
    # Every file of a directory, in the command line's order.
    assert [v.to_dict() for v in balloc.check("theorems/ptw", jobs=2)] == cli.json("check", "theorems/ptw")


def test_claim_objects_and_drafts(cli, tmp_path):
    c = balloc.Claim.load("ptw/gamma-drift-two-choice")
    assert (c.id, c.kind, c.expected, c.tighten) == (
        "ptw/gamma-drift-two-choice", "inequality", "holds", {"c": "smallest"},
    )
    assert "\\Gamma" in c.statement and c.title.startswith("Drift of the hyperbolic cosine")
    assert c.check().to_dict() == cli.json("check", "ptw/gamma-drift-two-choice")[0]
    # A draft outside theorems/ (no paper.toml) and the same text given as a string.
    f = tmp_path / "draft.toml"
    f.write_text(HOLDS)
    doc = cli.json("check", str(f))[0]
    v = balloc.check_str(HOLDS)
    assert v.id == "inline"
    assert {**v.to_dict(), "id": doc["id"]} == doc
    assert balloc.Claim.load(f).check().to_dict() == doc


def test_the_holding_claim_by_hand():
    # Over every state with loads ≤ 3 at n = 4, E[ΔΥ] is largest at the all-equal state, where
    # the ball lands in a tied group of 4 bins: E[ΔΥ] = 1 − 1/4 = 3/4, so the slack is 1/4.
    v = balloc.check_str(HOLDS)
    assert (v.verdict, v.trust) == ("holds", "exact")
    assert v.slack == 0.25
    w = v.witness
    assert len(set(w.loads)) == 1 and w.lhs == 0.75 and w.rhs == 1.0
    assert v.searched["exhaustive_bound"] == [4, 3]


def test_a_too_strong_bound_is_refuted_with_a_checkable_counterexample():
    v = balloc.check_str(TOO_STRONG)
    assert v.verdict == "refuted" and v.contradicts and v.trust == "exact"
    w = v.witness
    x = [int(t) for t in w.loads]
    assert list(w.loads) == x
    # E[ΔΥ] at the counterexample, by brute force over the ball's destination in rationals.
    r = per_bin(x, d_choice_by_rank(len(x), 2))
    e = sum((r[j] * upsilon([v + (i == j) for i, v in enumerate(x)]) for j in range(len(x))), Fraction(0))
    lhs = e - upsilon(x)
    assert lhs > 0
    assert float(lhs) == pytest.approx(w.lhs, rel=1e-15) and w.rhs == 0.0
    assert v.slack == pytest.approx(-float(lhs), rel=1e-15)
    # The certified evaluation was exact: the sides as Fractions, equal to the brute force.
    assert w.lhs_exact == lhs and w.rhs_exact == 0 and w.slack_exact == -lhs
    assert isinstance(w.lhs_exact, Fraction)
    assert w.to_dict()["exact"] == {"lhs": str(lhs), "rhs": "0", "slack": str(-lhs)}


def test_the_holding_claim_has_exact_sides_and_constants_as_text():
    # At the tightest state (all equal), E[ΔΥ] = 3/4 and the bound 1: slack 1/4, exactly.
    w = balloc.check_str(HOLDS).witness
    assert (w.lhs_exact, w.rhs_exact, w.slack_exact) == (Fraction(3, 4), 1, Fraction(1, 4))
    v = balloc.check_str(HOLDS.replace("[claim]", "[constants]\nc = \"1/3\"\n[claim]").replace(
        "dE_Upsilon <= 1", "dE_Upsilon <= 1 + c - c"))
    assert v.witness.constants_text == {"c": "1/3"}


def test_search_equals_the_command_line_and_is_never_weaker(cli):
    c = balloc.Claim.load("ptw/gamma-drift-two-choice")
    # With no budget beyond the file's own search, `search` is deterministic.
    assert c.search(0).to_dict() == cli.json("search", "ptw/gamma-drift-two-choice", "--budget", "0")[0]
    checked = c.check()
    # The file's own search takes well under 2 s: fresh seeds fill the rest of the budget.
    searched = c.search(2.0)
    assert searched.verdict == "holds" and searched.slack <= checked.slack
    assert searched.searched["total"] > checked.searched["total"]
    assert any(n.startswith("search: the file's own search and further rounds") for n in searched.notes)


def test_constant_equals_the_command_line_and_the_closed_form(cli):
    c = balloc.Claim.load("ptw/gamma-drift-two-choice")
    r = c.constant("c", [4, 8, 16])
    doc = cli.json("constant", "ptw/gamma-drift-two-choice", "--name", "c", "--n", "4,8,16")
    assert r.to_dict() == doc
    assert np.array_equal(r.n, [4, 8, 16]) and r.direction == "smallest" and r.fits_note is None
    # The tightest state is the all-equal one, y = 0: there Γ = 2n and the ball makes one bin
    # y = 1 − 1/n and the others −1/n, so E[Γ'] = 2(n − 1)cosh(α/n) + 2cosh(α(1 − 1/n)); the claim
    # E[Γ'] ≤ Γ(1 − εδα/(8n)) + cεα then needs c ≥ (E[Γ'] − 2n + εδα/4)/(εα), with ε = ε*(1/2) = 1/2
    # for Two-Choice, δ = 1/2, α = 0.1.
    alpha, eps, delta = 0.1, 0.5, 0.5
    for n, value, fails, w in zip(r.n, r.values, r.fails, r.witnesses):
        n = int(n)
        e = 2 * (n - 1) * math.cosh(alpha / n) + 2 * math.cosh(alpha * (1 - 1 / n))
        c_min = (e - 2 * n + eps * delta * alpha / 4) / (eps * alpha)
        assert len(set(w.loads)) == 1
        # The finder brackets it: `fails` is refuted, `value` holds (to rounding of c_min).
        assert fails - 1e-12 <= c_min <= value + 1e-12
        assert value - fails < 1e-6
    assert r.fits[0]["model"] == "constant"


def test_a_single_n_has_no_growth_fit(cli):
    r = balloc.Claim.load("ptw/gamma-drift-two-choice").constant("c", [8])
    doc = cli.json("constant", "ptw/gamma-drift-two-choice", "--name", "c", "--n", "8")
    assert r.to_dict() == doc and r.fits == [] and "at least two values of n" in r.fits_note


def test_progress_is_reported():
    seen = []
    vs = balloc.check(*IDS[:3], jobs=1, progress=lambda d, t, m: seen.append((d, t, m)))
    assert len(vs) == 3
    assert seen and all(t == 3 for _, t, _ in seen)
    counts = [d for d, _, _ in seen]
    assert counts == sorted(counts) and counts[-1] == 3
    notes = []
    balloc.check_str(HOLDS, progress=lambda d, t, m: notes.append(m))
    assert notes  # one message per searched case at least


def test_an_exception_in_the_callback_is_raised():
    class Stop(Exception):
        pass

    def cb(done, total, msg):
        raise Stop("from the callback")

    with pytest.raises(Stop):
        balloc.check(*IDS[:2], jobs=1, progress=cb)
