"""The house tooling holds on every change: ruff on the whole tree, mypy strict on the package.

Run through the test suite so CI (which runs exactly the README's test command) enforces them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300)


def test_ruff_is_clean() -> None:
    if shutil.which("ruff") is None:
        pytest.skip("ruff is not installed (pip install -e '.[test]' brings it)")
    result = run("ruff", "check", "engram", "tests", "bench")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean() -> None:
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[test]')")
    result = run(sys.executable, "-m", "mypy", "engram")
    assert result.returncode == 0, result.stdout + result.stderr
