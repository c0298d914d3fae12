"""Shared fixtures: the repository root as working directory, and the `balloc` command line.

The command line is the second route of most tests: the same inputs go through the built binary
(`--format json`) and through the Python package, and the documents must be equal. The binary is
`$BALLOC_BIN`, else `target/debug/balloc` or `target/release/balloc` of this repository (built by
`cargo test` / `cargo build`), else `balloc` on the PATH; without one the tests fail.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _binary() -> str:
    env = os.environ.get("BALLOC_BIN")
    if env:
        return env
    for profile in ("debug", "release"):
        p = ROOT / "target" / profile / "balloc"
        if p.is_file():
            return str(p)
    found = shutil.which("balloc")
    if found:
        return found
    raise RuntimeError(
        "no `balloc` binary: run `cargo build` (or set BALLOC_BIN) before the Python tests"
    )


BIN = _binary()


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    """Every test runs at the repository root (where `theorems/` is)."""
    monkeypatch.chdir(ROOT)


class Cli:
    """Runs the `balloc` command line at the repository root."""

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [BIN, *args], cwd=ROOT, capture_output=True, text=True, timeout=600
        )

    def json(self, *args: str):
        """The JSON document of a successful run (`--format json` is appended)."""
        r = self.run(*args, "--format", "json")
        assert r.returncode in (0, 1), r.stderr
        return json.loads(r.stdout)

    def error(self, *args: str) -> str:
        """The one-line error of a failing run, without the leading `error: `."""
        r = self.run(*args)
        assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1, r.stderr
        assert lines[0].startswith("error: "), lines[0]
        return lines[0][len("error: ") :]


@pytest.fixture(scope="session")
def cli() -> Cli:
    return Cli()
