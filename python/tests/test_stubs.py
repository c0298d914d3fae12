"""The type stubs describe the module as it is: mypy's `stubtest` compares every name, signature
and default of `balloc/_balloc.pyi` with the built extension."""

import subprocess
import sys
from pathlib import Path


def test_the_stubs_match_the_extension():
    r = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "balloc._balloc", "--ignore-disjoint-bases"],
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Success: no issues found" in r.stdout
