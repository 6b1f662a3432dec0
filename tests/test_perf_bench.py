"""bench/perf.py never reports a figure from a command that failed."""

from __future__ import annotations

import json
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


def test_a_benchmark_workspace_is_its_own_repository(tmp_path: Path) -> None:
    # Generated under bench/.work, a workspace sat inside engram's own checkout, and every
    # measured load layered the checkout's `.engram/` under it.
    sys.path.insert(0, str(REPO / "bench"))
    import perf

    (tmp_path / ".git").mkdir()
    rule = "---\nid: {0}\ntype: rule\nsummary: Retry flaky network calls ({0})\n---\nBackoff.\n"
    (tmp_path / ".engram").mkdir()
    (tmp_path / ".engram" / "outer.md").write_text(rule.format("outer-retry"), encoding="utf-8")
    project = tmp_path / "bench" / ".work" / "corpus"
    (project / ".engram").mkdir(parents=True)
    (project / ".engram" / "inner.md").write_text(rule.format("inner-retry"), encoding="utf-8")

    def printed() -> str:
        return subprocess.run([sys.executable, "-m", "engram", "load", "retry flaky calls"],
                              cwd=project, capture_output=True, text=True, timeout=60).stdout

    assert "outer-retry" in printed()
    perf.own_repository(project)
    assert "outer-retry" not in printed() and "inner-retry" in printed()


def test_copies_of_a_folder_are_memories_of_their_own_with_their_own_prerequisites(
        tmp_path: Path) -> None:
    sys.path.insert(0, str(REPO / "bench"))
    import perf

    folder = tmp_path / "memories"
    (folder / "rules").mkdir(parents=True)
    (folder / "rules" / "base.md").write_text(
        "---\nid: base\ntype: rule\ntags: [retry]\nsummary: Retry flaky network calls\n---\n"
        "Use backoff.\n", encoding="utf-8")
    (folder / "rules" / "top.md").write_text(
        "---\nid: top\ntype: rule\ntags:\n  - retry\ndepends_on:\n  - base\n"
        "summary: Retry the payment webhook\n---\nIdempotency keys first.\n", encoding="utf-8")
    perf.WORK = tmp_path / "work"
    corpus = perf.from_folder(folder, 3)
    assert corpus.size == 6 and corpus.queries["1 anchor"] == "retry"
    perf.own_repository(corpus.project)
    graph = subprocess.run([sys.executable, "-m", "engram", "graph", "--json"],
                           cwd=corpus.project, capture_output=True, text=True, timeout=60)
    edges = {tuple(edge) for edge in json.loads(graph.stdout)["edges"]}
    assert edges == {("base", "top"), ("base-c002", "top-c002"), ("base-c003", "top-c003")}
