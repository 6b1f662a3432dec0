"""Codex adapter: fixtures match Codex's own input schemas, and every output validates against its
output schema (Codex rejects any extra key), with apply_patch paths parsed from the patch."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from test_hook_support import FIXTURES, context_of, fire, make_workspace, payload

from engram.hosts import codex
from engram.hosts.base import FILE, IGNORED, PRE_COMPACT, PROMPT, SESSION_START, SUBAGENT_START

SCHEMAS = FIXTURES / "codex" / "schemas"
FIXTURE_SCHEMA = {
    "session_start": "session-start", "session_start_compact": "session-start",
    "user_prompt_submit": "user-prompt-submit", "pre_tool_use_apply_patch": "pre-tool-use",
    "pre_tool_use_bash": "pre-tool-use", "subagent_start": "subagent-start",
    "pre_compact": "pre-compact", "stop": "stop",
}


def schema(name: str, direction: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (SCHEMAS / f"{name}.command.{direction}.schema.json").read_text())
    return data


def assert_valid_output(stdout: str, schema_name: str) -> None:
    if stdout == "":
        return  # exit 0 with empty stdout is Codex's no-op
    jsonschema.validate(json.loads(stdout), schema(schema_name, "output"))


@pytest.fixture
def ws(workspace: Path) -> Path:
    return make_workspace(workspace)


@pytest.mark.parametrize(("name", "schema_name"), sorted(FIXTURE_SCHEMA.items()))
def test_fixtures_validate_against_codex_input_schemas(tmp_path: Path, name: str,
                                                       schema_name: str) -> None:
    jsonschema.validate(payload("codex", name, tmp_path), schema(schema_name, "input"))


@pytest.mark.parametrize(("name", "kind"), [
    ("session_start", SESSION_START), ("user_prompt_submit", PROMPT),
    ("pre_tool_use_apply_patch", FILE), ("pre_tool_use_bash", IGNORED),
    ("subagent_start", SUBAGENT_START), ("pre_compact", PRE_COMPACT), ("stop", IGNORED),
])
def test_every_fixture_parses(tmp_path: Path, name: str, kind: str) -> None:
    assert codex.HOST.parse(payload("codex", name, tmp_path)).kind == kind


def test_apply_patch_paths_come_from_the_patch_text(tmp_path: Path) -> None:
    event = codex.HOST.parse(payload("codex", "pre_tool_use_apply_patch", tmp_path))
    assert event.paths == ("src/api/user.py", "src/api/orders.py", "docs/old.md")
    moved = "*** Begin Patch\n*** Update File: a.py\n*** Move to: b/c.py\n@@\n*** End Patch"
    assert codex.patch_paths(moved) == ("a.py", "b/c.py")
    assert codex.patch_paths("no patch here") == ()


def test_whole_session_outputs_validate_against_codex_schemas(ws: Path) -> None:
    sequence = ["session_start", "user_prompt_submit", "user_prompt_submit",
                "pre_tool_use_apply_patch", "pre_tool_use_bash", "subagent_start",
                "pre_compact", "stop", "session_start_compact", "pre_tool_use_apply_patch"]
    outputs = []
    for name in sequence:
        result = fire("codex", payload("codex", name, ws))
        assert result.stderr == ()
        assert_valid_output(result.stdout, FIXTURE_SCHEMA[name])
        outputs.append(result.stdout)
    assert json.loads(outputs[0])["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert outputs[6] == outputs[7] == "" and outputs[4] == ""
    # After the compact restart, the patch's path rules come through PreToolUse again.
    assert context_of(fire("codex", payload("codex", "session_start", ws)))
    text = json.loads(outputs[9])["hookSpecificOutput"]["additionalContext"]
    assert text.startswith("engram: loaded 2 new (api-errors, api-tests)")


def test_prompt_output_is_exact(ws: Path) -> None:
    result = fire("codex", payload("codex", "user_prompt_submit", ws))
    out = json.loads(result.stdout)
    assert list(out) == ["hookSpecificOutput"]
    assert list(out["hookSpecificOutput"]) == ["hookEventName", "additionalContext"]
    assert out["hookSpecificOutput"]["additionalContext"].startswith(
        "engram: loaded 2 new (api-tests, api-errors)\n### api-tests [rule, instruction]\n")


def test_codex_budget_is_tokens_counted_on_utf8_bytes(ws: Path) -> None:
    for n in range(4):  # ~3,000 characters, ~5,000 UTF-8 bytes each; distinct, so not deduped
        body = " ".join(f"Ünïcödé{n}-{i} ✓" for i in range(300))
        (ws / f".engram/rules/big-{n}.md").write_text(
            f"---\nid: big-{n}\ntype: rule\ntags: [unicode]\n---\n{body}\n")
    result = fire("codex", payload("codex", "user_prompt_submit", ws,
                                   prompt="explain the unicode rules"))
    assert_valid_output(result.stdout, "user-prompt-submit")
    text = context_of(result)
    assert codex.HOST.measure(text) <= codex.CAP_TOKENS
    assert "shown as cards to fit the 2,400-token cap" in text.splitlines()[0]


def test_no_op_is_empty_stdout(ws: Path) -> None:
    result = fire("codex", payload("codex", "user_prompt_submit", ws, prompt="thanks"))
    assert (result.stdout, result.stderr) == ("", ())
    broken = fire("codex", '{"hook_event_name": "UserPromptSubmit", ')
    assert broken.stdout == "" and broken.stderr[0].startswith("engram: payload: invalid JSON")
