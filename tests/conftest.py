"""Shared test fixtures: every test runs with its own ENGRAM_HOME and no inherited engram env."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ENGRAM_ENV = ("ENGRAM_HOME", "ENGRAM_WORKSPACE", "ENGRAM_ROLE", "ENGRAM_DISABLE",
              "ENGRAM_HOOK_STRICT", "ENGRAM_TODAY",
              "CODEX_HOME")  # where `hooks install codex --global` and status look


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory,
                  monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point ENGRAM_HOME at an empty temp dir so no test reads or writes the real home."""
    for name in ENGRAM_ENV:
        monkeypatch.delenv(name, raising=False)
    home = tmp_path_factory.mktemp("engram-home")
    monkeypatch.setenv("ENGRAM_HOME", str(home))
    monkeypatch.setenv("ENGRAM_TODAY", "2026-12-02")
    return home


def write_memory(root: Path, rel: str, text: str) -> Path:
    """Write one memory file below a scope root, creating folders."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An empty project with a `.engram/` folder; returns the project dir."""
    (tmp_path / ".engram").mkdir()
    return tmp_path


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault("PYTHONHASHSEED", "0")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="Rewrite tests/golden/*.txt from the current output (on purpose only).")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True when the run was asked to regenerate the golden files."""
    return bool(request.config.getoption("--update-golden"))
