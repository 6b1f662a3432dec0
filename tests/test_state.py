"""Session state: keys carry the content hash, files are replaced atomically under a lock, old
sessions are pruned, and a damaged file never stops a hook."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from engram.fsutil import atomic_write
from engram.state import (
    SessionState,
    locked_session,
    memory_key,
    prune,
    read_state,
    session_file,
)


def test_memory_key_changes_with_content() -> None:
    assert memory_key("api-errors", "ab" * 32) == "api-errors@" + "ab" * 6
    assert memory_key("a", "1" * 64) != memory_key("a", "2" * 64)


def test_round_trip_and_per_agent_files(tmp_path: Path) -> None:
    with locked_session(tmp_path, "claude", "s1") as state:
        state.delivered.add("a@1")
        state.last_pack = ["a"]
    with locked_session(tmp_path, "claude", "s1", "agent-1") as sub:
        assert sub.delivered == set()  # a subagent has its own set
    again = read_state(session_file(tmp_path, "claude", "s1"))
    assert again.delivered == {"a@1"} and again.last_pack == ["a"] and again.calls == 1
    names = {session_file(tmp_path, h, s).name for h in ("claude", "codex") for s in ("s1", "s2")}
    assert len(names) == 4  # host and session both part of the name; ids never used raw


def test_session_state_skips_fsync_and_other_files_keep_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The state is rewritten on every prompt: it is replaced atomically but not fsynced.
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd) or real_fsync(fd))
    with locked_session(tmp_path, "claude", "s1") as state:
        state.delivered.add("a@1")
    assert read_state(session_file(tmp_path, "claude", "s1")).delivered == {"a@1"}
    assert synced == []
    atomic_write(tmp_path / "config.json", "{}\n", shared=True)
    assert len(synced) == 1


def test_nothing_is_saved_when_the_block_fails(tmp_path: Path) -> None:
    try:
        with locked_session(tmp_path, "codex", "s") as state:
            state.delivered.add("x@1")
            raise RuntimeError
    except RuntimeError:
        pass
    assert read_state(session_file(tmp_path, "codex", "s")).delivered == set()


def test_damaged_or_foreign_state_reads_as_fresh(tmp_path: Path) -> None:
    path = session_file(tmp_path, "claude", "s")
    for text in ("{", "null", '{"version": 99, "delivered": ["a@1"]}', '{"version": 1, '
                 '"delivered": "a@1"}'):
        path.write_text(text)
        assert read_state(path).delivered == set()
    assert SessionState.from_json({"version": 1, "delivered": ["a@1", 3]}).delivered == {"a@1"}


def test_state_never_holds_more_than_ids(tmp_path: Path) -> None:
    with locked_session(tmp_path, "claude", "s") as state:
        state.delivered.add("a@1")
    data = json.loads(session_file(tmp_path, "claude", "s").read_text())
    assert set(data) == {"version", "delivered", "cards", "last_pack", "calls", "resets"}


def test_prune_removes_only_old_session_files(tmp_path: Path) -> None:
    old = session_file(tmp_path, "claude", "old")
    new = session_file(tmp_path, "claude", "new")
    for path in (old, new, tmp_path / "log.jsonl"):
        path.write_text("{}")
    week_ago = time.time() - 8 * 24 * 3600
    os.utime(old, (week_ago, week_ago))
    os.utime(tmp_path / "log.jsonl", (week_ago, week_ago))
    assert prune(tmp_path) == 1
    assert not old.exists() and new.exists() and (tmp_path / "log.jsonl").exists()


def test_new_sessions_prune_at_most_once_an_hour(tmp_path: Path) -> None:
    week_ago = time.time() - 8 * 24 * 3600

    def old_session(name: str) -> Path:
        path = session_file(tmp_path, "claude", name)
        path.write_text("{}")
        os.utime(path, (week_ago, week_ago))
        return path

    first = old_session("old-1")
    with locked_session(tmp_path, "claude", "new-1"):
        pass
    assert not first.exists()  # the first new session prunes
    second = old_session("old-2")
    with locked_session(tmp_path, "claude", "new-2"):
        pass
    assert second.exists()  # within the hour: no second scan
    hours_ago = time.time() - 2 * 3600
    os.utime(tmp_path / ".pruned", (hours_ago, hours_ago))
    with locked_session(tmp_path, "claude", "new-3"):
        pass
    assert not second.exists()


def test_atomic_write_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "x.json"
    atomic_write(target, "one")
    atomic_write(target, "two", shared=True)
    assert target.read_text() == "two"
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]


def test_prune_removes_temp_files_a_killed_writer_left(tmp_path: Path) -> None:
    stray = tmp_path / ".session-claude-s1.json.abc123.tmp"
    fresh = tmp_path / ".session-claude-s2.json.def456.tmp"
    stray.write_text("{")
    fresh.write_text("{")
    hours_ago = time.time() - 2 * 3600
    os.utime(stray, (hours_ago, hours_ago))
    assert prune(tmp_path) == 1
    assert not stray.exists() and fresh.exists()  # a write in progress is never touched
