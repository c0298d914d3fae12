"""Bad input raises `BallocError` (a `ValueError`) whose message is the command line's one-line
error for the same input (without `error: `)."""

import math

import pytest

import balloc

E = ["--process", "two-choice", "--potential", "gamma(alpha=0.5)", "--loads", "3,0,1,0"]


def expect_args(**over):
    """`balloc expect` arguments with some replaced."""
    a = dict(zip(E[::2], E[1::2]))
    a.update({"--" + k: v for k, v in over.items()})
    return ["expect", *sum(([k, v] for k, v in a.items()), [])]


LONG = "x" * 100_000

CASES = [
    # expect
    (lambda: balloc.expect("two-chioce", "gamma(alpha=0.5)", [3, 0, 1, 0]), expect_args(process="two-chioce")),
    (lambda: balloc.expect(LONG, "gamma", [1]), expect_args(process=LONG, potential="gamma", loads="1")),
    (lambda: balloc.expect("two-choice", "gama", [3, 0, 1, 0]), expect_args(potential="gama")),
    (lambda: balloc.expect("two-choice", "gamma(alpha=-1)", [3, 0, 1, 0]), expect_args(potential="gamma(alpha=-1)")),
    (lambda: balloc.expect("d-choice(d=0)", "quadratic", [1, 0]), expect_args(process="d-choice(d=0)", potential="quadratic", loads="1,0")),
    (lambda: balloc.expect("two-choice", "gamma(alpha=0.5)", [3, 0, 1, 0], weights="expo(1)"), expect_args(weights="expo(1)")),
    (lambda: balloc.expect("two-choice", "gamma(alpha=0.5)", [3, 0, 1, 0], ties="sometimes"), expect_args(ties="sometimes")),
    (lambda: balloc.expect("two-choice", "gamma(alpha=0.5)", [3, 0, 1, 0], batch=0), expect_args(batch="0")),
    (lambda: balloc.expect("two-choice", "gamma(alpha=0.5)", [3, 0, 1, 0], batch=10**10), expect_args(batch=str(10**10))),
    (lambda: balloc.expect("two-choice", "quadratic", [1e308, 1e308]), expect_args(potential="quadratic", loads="1e308,1e308")),
    (lambda: balloc.expect("two-choice", "quadratic", [math.nan, 1.0]), expect_args(potential="quadratic", loads="NaN,1")),
    (lambda: balloc.expect("two-choice", "quadratic", []), expect_args(potential="quadratic", loads="")),
    (lambda: balloc.expect("two-choice", "quadratic", "1,x"), expect_args(potential="quadratic", loads="1,x")),
    (lambda: balloc.expect("two-choice", "quadratic", "@/nonexistent/loads.txt"), expect_args(potential="quadratic", loads="@/nonexistent/loads.txt")),
    (lambda: balloc.expect("two-choice", "phi(alpha=2)", [3, 0, 1, 0], weights="exp(1)"), expect_args(potential="phi(alpha=2)", weights="exp(1)")),
    # pvec
    (lambda: balloc.pvec("two-choice", 0), ["pvec", "--process", "two-choice", "--n", "0"]),
    (lambda: balloc.pvec("two-choice", 2**40), ["pvec", "--process", "two-choice", "--n", str(2**40)]),
    (lambda: balloc.pvec("mean-thinning", 4), ["pvec", "--process", "mean-thinning", "--n", "4"]),
    (lambda: balloc.pvec("two-choice", 6, delta="0.25"), ["pvec", "--process", "two-choice", "--n", "6", "--delta", "0.25"]),
    (lambda: balloc.pvec("two-choice", 6, delta="abc"), ["pvec", "--process", "two-choice", "--n", "6", "--delta", "abc"]),
    (lambda: balloc.pvec("two-choice", 4, delta=1), ["pvec", "--process", "two-choice", "--n", "4", "--delta", "1"]),
    (lambda: balloc.pvec("two-choice"), ["pvec", "--process", "two-choice"]),
    # simulate
    (lambda: balloc.simulate("two-choice", 0, 10), ["simulate", "--process", "two-choice", "--n", "0", "--balls", "10"]),
    (lambda: balloc.simulate("two-choice", 10, 10, batch=0), ["simulate", "--process", "two-choice", "--n", "10", "--balls", "10", "--batch", "0"]),
    (lambda: balloc.simulate("two-choice", 10, 10, runs=0), ["simulate", "--process", "two-choice", "--n", "10", "--balls", "10", "--runs", "0"]),
    (lambda: balloc.simulate("two-choice", 10, 0), ["simulate", "--process", "two-choice", "--n", "10", "--balls", "0"]),
    (lambda: balloc.simulate("two-choice", 10, 10, confidence=1.5), ["simulate", "--process", "two-choice", "--n", "10", "--balls", "10", "--confidence", "1.5"]),
    (lambda: balloc.simulate("two-choice", 10, 10, potentials=["gamma(beta=1)"]), ["simulate", "--process", "two-choice", "--n", "10", "--balls", "10", "--potential", "gamma(beta=1)"]),
    (lambda: balloc.simulate("tow-choice", 10, 10), ["simulate", "--process", "tow-choice", "--n", "10", "--balls", "10"]),
    (lambda: balloc.simulate("quantile(delta=0.3)", 8, 10), ["simulate", "--process", "quantile(delta=0.3)", "--n", "8", "--balls", "10"]),
    (lambda: balloc.simulate("packing", 10, 10, weights="exp(1)"), ["simulate", "--process", "packing", "--n", "10", "--balls", "10", "--weights", "exp(1)"]),
    # The plan's limits hold in both front ends (one request type): 10⁶ + 1 runs, and 2 runs of
    # 10⁷ checkpoints (2·10⁷ trajectory points against the limit of 10⁷).
    (lambda: balloc.simulate("two-choice", 10, 10, runs=10**6 + 1), ["simulate", "--process", "two-choice", "--n", "10", "--balls", "10", "--runs", "1000001"]),
    (lambda: balloc.simulate("two-choice", 10, 10**7, runs=2, trajectory=10**7), ["simulate", "--process", "two-choice", "--n", "10", "--balls", "10000000", "--runs", "2", "--trajectory", "10000000"]),
    # claims
    (lambda: balloc.check("ptw/no-such-lemma"), ["check", "ptw/no-such-lemma"]),
    (lambda: balloc.Claim.load("ptw"), ["search", "ptw"]),
    (lambda: balloc.Claim.load("ptw/gamma-drift-two-choice").constant("q"), ["constant", "ptw/gamma-drift-two-choice", "--name", "q"]),
    (lambda: balloc.Claim.load("ptw/gamma-drift-two-choice").constant("c", [4, 4]), ["constant", "ptw/gamma-drift-two-choice", "--name", "c", "--n", "4,4"]),
    (lambda: balloc.Claim.load("ptw/gamma-drift-two-choice").constant("c", [0]), ["constant", "ptw/gamma-drift-two-choice", "--name", "c", "--n", "0"]),
    (lambda: balloc.Claim.load("ptw/gamma-drift-two-choice").constant("c", [2**30]), ["constant", "ptw/gamma-drift-two-choice", "--name", "c", "--n", str(2**30)]),
    (lambda: balloc.Claim.load("ptw/gamma-drift-two-choice").search(-1), ["search", "ptw/gamma-drift-two-choice", "--budget=-1"]),
    (lambda: balloc.Claim.load("ptw/gamma-drift-two-choice").search(1e9), ["search", "ptw/gamma-drift-two-choice", "--budget", "1e9"]),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_bad_input_gives_the_command_lines_message(cli, case):
    call, args = CASES[case]
    with pytest.raises(ValueError) as e:
        call()
    assert isinstance(e.value, balloc.BallocError)
    msg = str(e.value)
    assert "\n" not in msg and len(msg) < 2000
    assert msg == cli.error(*args)


DRAFT = """title = "draft"
kind = "inequality"
expected = "holds"
statement = 'x'
source = { locator = "here", provenance = "derived" }
[setting]
processes = ["two-choice"]
[claim]
expr = "dE_Gama <= 1"
[domain]
n = [4]
"""


@pytest.mark.parametrize(
    "text",
    [DRAFT, DRAFT.replace('kind = "inequality"', 'kind = "inequalty"'), DRAFT.replace("n = [4]", "n = [4")],
    ids=["unknown variable", "unknown kind", "malformed TOML"],
)
def test_bad_theorem_files_name_line_and_column(cli, tmp_path, text):
    f = tmp_path / "draft.toml"
    f.write_text(text)
    want = cli.error("check", str(f))
    # The file's name in the message: its path for a file, `inline` for text.
    with pytest.raises(ValueError) as e:
        balloc.check(str(f))
    assert str(e.value) == want
    with pytest.raises(ValueError) as e:
        balloc.check_str(text)
    assert str(e.value) == want.replace(str(f), "inline")
    assert str(e.value).startswith("inline:")


def test_bad_sweeps_name_the_file(cli, tmp_path):
    f = tmp_path / "grid.toml"
    f.write_text('runs = 0\noutput = "g"\n[grid]\nprocess = ["two-choice"]\nn = [10]\nballs = [5]\n')
    with pytest.raises(ValueError) as e:
        balloc.sweep(f)
    assert str(e.value) == cli.error("sweep", str(f))
    with pytest.raises(ValueError, match=r"invalid sweep file `<grid>`, field `grid.n`: must not be empty"):
        balloc.sweep({"runs": 1, "grid": {"process": ["two-choice"], "n": [], "balls": [5]}})
    with pytest.raises(ValueError, match=r"--shard: index 3 is out of range for 3 shards"):
        balloc.sweep({"runs": 1, "grid": {"process": ["two-choice"], "n": [4], "balls": [5]}}, shard="3/3")


def test_python_only_argument_errors_are_value_errors():
    for call, msg in [
        (lambda: balloc.expect("two-choice", "quadratic", [[1, 2], [3, 4]]), "--loads: invalid loads: expected a one-dimensional array"),
        (lambda: balloc.expect("two-choice", "quadratic", ["a", "b"]), "--loads: invalid loads: not an array of numbers"),
        (lambda: balloc.expect(3, "quadratic", [1, 2]), "invalid --process: expected a spec string or a Process object"),
        (lambda: balloc.expect("two-choice", "quadratic", [1, 2], batch=-1), "invalid --batch: expected a non-negative integer, got -1"),
        (lambda: balloc.simulate("two-choice", -5, 10), "invalid --n: expected a non-negative integer, got -5"),
        (lambda: balloc.pvec("two-choice", 4, loads=[1, 2, 3, 4]), "invalid arguments: give exactly one of --n N or --loads"),
    ]:
        with pytest.raises(balloc.BallocError, match=msg.replace("[", r"\[").replace("(", r"\(")):
            call()
