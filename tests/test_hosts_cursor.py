"""Cursor adapter: snake_case `additional_context` at sessionStart, the documented shapes for
events that cannot inject, and no file-event injection while native `.mdc` rules are on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_hook_support import fire, make_workspace, payload

from engram.hosts import cursor
from engram.hosts.base import FILE, IGNORED, PRE_COMPACT, SESSION_START


@pytest.fixture
def ws(workspace: Path) -> Path:
    return make_workspace(workspace)


@pytest.mark.parametrize(("name", "kind"), [
    ("session_start", SESSION_START), ("before_submit_prompt", IGNORED),
    ("before_read_file", IGNORED), ("after_file_edit", FILE), ("pre_compact", PRE_COMPACT),
    ("stop", IGNORED),
])
def test_every_fixture_parses(tmp_path: Path, name: str, kind: str) -> None:
    event = cursor.HOST.parse(payload("cursor", name, tmp_path))
    assert event.kind == kind
    assert event.cwd == str(tmp_path)  # from workspace_roots[0]: Cursor sends no cwd


def test_session_start_uses_snake_case_additional_context(ws: Path) -> None:
    out = json.loads(fire("cursor", payload("cursor", "session_start", ws)).stdout)
    assert list(out) == ["additional_context"]
    assert out["additional_context"].startswith(
        "engram: loaded 2 new (release-foundation, team-style)\n")


@pytest.mark.parametrize(("name", "stdout"), [
    ("before_submit_prompt", '{"continue":true}\n'),
    ("before_read_file", '{"permission":"allow"}\n'),
    ("after_file_edit", "{}\n"),
    ("pre_compact", "{}\n"),
    ("stop", "{}\n"),
])
def test_events_that_cannot_inject(ws: Path, name: str, stdout: str) -> None:
    result = fire("cursor", payload("cursor", name, ws))
    assert (result.stdout, result.stderr) == (stdout, ())


def test_hook_mode_injects_after_file_edit(ws: Path) -> None:
    (ws / ".engram/config.yaml").write_text("hooks:\n  path_rules: hook\n")
    out = json.loads(fire("cursor", payload("cursor", "after_file_edit", ws)).stdout)
    assert out["additional_context"].startswith("engram: loaded 2 new (api-errors, api-tests)")


def test_missing_session_is_a_clear_error(ws: Path) -> None:
    data = payload("cursor", "session_start", ws)
    del data["session_id"], data["conversation_id"]
    result = fire("cursor", data)
    assert result.stdout == "{}\n"
    assert result.stderr == ("engram: payload: session_id/conversation_id: missing",)
