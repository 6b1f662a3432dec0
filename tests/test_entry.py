"""The console entry's shortcuts (`engram hook HOST`, `engram load QUERY` without click) behave
exactly like the click commands they stand in for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import write_memory

from engram.cli import cli

RULE = """---
id: deploy-steps
type: rule
tags: [deploy]
summary: How deploys run.
---
Deploy with the release script.
"""
UNSAFE = """---
id: deploy-secret
type: rule
tags: [deploy]
---
token: ghp_abcdefghijklmnopqrstuvwxyz0123456789
"""


def shortcut(workspace: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engram", *args], cwd=workspace,
                          capture_output=True, text=True, env=dict(os.environ), timeout=60)


def via_click(workspace: Path, *args: str) -> tuple[int, str, str]:
    old = Path.cwd()
    os.chdir(workspace)
    try:
        result = CliRunner().invoke(cli, list(args))
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("query", ["deploy the service", "thanks", "zzz-nothing-matches"])
def test_plain_load_matches_the_click_command(workspace: Path, query: str) -> None:
    write_memory(workspace / ".engram", "deploy.md", RULE)
    write_memory(workspace / ".engram", "secret.md", UNSAFE)
    fast = shortcut(workspace, "load", query)
    assert (fast.returncode, fast.stdout, fast.stderr) == via_click(workspace, "load", query)


def test_plain_load_reports_a_bad_config_like_the_click_command(workspace: Path) -> None:
    write_memory(workspace / ".engram", "deploy.md", RULE)
    (workspace / ".engram" / "config.yaml").write_text("load:\n  limit: many\n")
    fast = shortcut(workspace, "load", "deploy")
    assert fast.returncode == 1 and "load.limit" in fast.stderr
    assert (fast.returncode, fast.stdout, fast.stderr) == via_click(workspace, "load", "deploy")


def test_flags_still_go_through_click(workspace: Path) -> None:
    write_memory(workspace / ".engram", "deploy.md", RULE)
    assert shortcut(workspace, "load", "--bogus").returncode == 2
    assert "Usage:" in shortcut(workspace, "load", "--help").stdout
