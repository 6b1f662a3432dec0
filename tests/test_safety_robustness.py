"""The last robustness holes: a deleted current directory and a huge prompt."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import write_memory

from engram.hook import PROMPT_HEAD, PROMPT_TAIL, run_hook

DEPLOY = "---\nid: deploy-steps\ntype: rule\ntags: [deploy]\n---\nDeploy with the release script.\n"
MIGRATE = ("---\nid: migration-rules\ntype: rule\ntags: [migration]\n---\n"
           "Every migration is reversible.\n")


def engram_in_deleted_dir(tmp_path: Path, *args: str,
                          stdin: str = "") -> subprocess.CompletedProcess[str]:
    gone = tmp_path / "gone"
    gone.mkdir()
    command = " ".join([f"cd {gone} && rmdir {gone} && exec", sys.executable, "-m", "engram",
                        *(f"'{a}'" for a in args)])
    env = {**os.environ, "PWD": str(gone)}
    return subprocess.run(["sh", "-c", command], input=stdin, capture_output=True, text=True,
                          env=env, timeout=60, check=False)


@pytest.mark.parametrize("args", [("load", "deploy"), ("load", "--dry-run", "deploy"),
                                  ("hooks", "log"), ("check",)])
def test_a_deleted_current_directory_is_a_clear_error(tmp_path: Path, isolated_home: Path,
                                                       args: tuple[str, ...]) -> None:
    result = engram_in_deleted_dir(tmp_path, *args)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr == (f"engram: {tmp_path / 'gone'}: the current directory no longer exists;"
                             " cd into a project and run again\n")


def test_a_hook_in_a_deleted_directory_fails_open(tmp_path: Path, isolated_home: Path) -> None:
    payload = {"session_id": "s-1", "transcript_path": "/t", "cwd": str(tmp_path / "gone"),
               "hook_event_name": "UserPromptSubmit", "prompt": "how do we deploy this service"}
    result = engram_in_deleted_dir(tmp_path, "hook", "claude", stdin=json.dumps(payload))
    assert result.returncode == 0
    assert "Traceback" not in result.stderr
    assert result.stdout in ("", "{}")


def test_a_huge_prompt_is_routed_on_its_start_and_end(workspace: Path, isolated_home: Path) -> None:
    write_memory(workspace / ".engram", "rules/deploy.md", DEPLOY)
    write_memory(workspace / ".engram", "rules/migrate.md", MIGRATE)
    filler = "lorem ipsum dolor sit amet " * 400_000  # about 10 MB of pasted text
    middle = len(filler) // 2
    # "migration" sits deep in the paste, past what routing reads; the question is at the end.
    prompt = filler[:middle] + " migration migration " + filler[middle:] + " how do we deploy"
    assert len(prompt) > 10_000_000 > PROMPT_HEAD + PROMPT_TAIL
    payload = {"session_id": "s-1", "transcript_path": "/t", "cwd": str(workspace),
               "hook_event_name": "UserPromptSubmit", "prompt": prompt}
    result = run_hook("claude", json.dumps(payload))
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "deploy-steps" in context and "migration-rules" not in context
    assert len(context) <= 9500
