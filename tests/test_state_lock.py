"""A session lock held by another process (a hung hook, a stopped debugger) must not stall the
host: the hook gives up after a short bound, prints the host's no-op and says so in the hook log.
Codex ran into its 15 s hook timeout on every event before the wait was bounded."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from test_hook_support import context_of, fire, make_workspace, payload

from engram import hooklog
from engram.scopes import Request, resolve
from engram.state import session_file

HOLD = """
import fcntl, sys
handle = open(sys.argv[1], "a+b")
fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""


@contextmanager
def held(lock: Path) -> Iterator[None]:
    """The lock file held by another process until the block ends."""
    lock.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(lock)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        yield
    finally:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.close()
        proc.wait(timeout=10)
        proc.stdout.close()


def test_a_held_session_lock_prints_nothing_and_logs_why(workspace: Path) -> None:
    ws = make_workspace(workspace)
    prompt = payload("codex", "user_prompt_submit", ws, prompt="how do I cut a release?")
    state_dir = resolve(Request(cwd=str(ws))).state_dir
    assert state_dir is not None
    lock = session_file(state_dir, "codex", prompt["session_id"]).with_suffix(".lock")

    with held(lock):
        result = fire("codex", prompt)
    assert result.stdout == ""  # Codex's no-op: nothing delivered, so nothing recorded
    assert any("session state is locked" in line for line in result.stderr)
    last = hooklog.read(state_dir)[-1]
    assert (last.event, last.delivered) == ("UserPromptSubmit", ())
    assert "session state is locked" in last.note and str(lock) in last.note

    # Nothing was recorded as delivered: once the lock is free the same prompt brings its pack.
    assert "release-checklist" in context_of(fire("codex", prompt), "UserPromptSubmit")
