"""bench/perf.py never reports a figure from a command that failed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_a_failing_engram_stops_the_benchmark_instead_of_passing(tmp_path: Path) -> None:
    memories = tmp_path / "memories"
    memories.mkdir()
    (memories / "retry.md").write_text(
        "---\nid: retry\ntype: rule\nsummary: Retry flaky network calls\n---\nUse backoff.\n",
        encoding="utf-8")
    broken = tmp_path / "engram"
    broken.write_text("#!/bin/sh\necho 'ModuleNotFoundError: engram' >&2\nexit 1\n")
    broken.chmod(0o755)
    table = tmp_path / "table.md"
    result = subprocess.run(
        [sys.executable, "bench/perf.py", "--memories", str(memories), "--runs", "1",
         "--engram", str(broken), "--markdown", str(table)],
        cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "exited 1" in result.stderr and "ModuleNotFoundError" in result.stderr
    assert "pass" not in result.stdout and not table.exists()
