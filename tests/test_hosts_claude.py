"""Claude Code adapter: every recorded event parses, and the real hook answers it exactly.

Runs the hook on the sample workspace; outputs are compared byte for byte where they are stable.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_hook_support import context_of, fire, make_workspace, payload, payload_text

from engram.hook import HookResult
from engram.hosts import claude
from engram.hosts.base import (
    FILE,
    IGNORED,
    INSTRUCTIONS_LOADED,
    PRE_COMPACT,
    PROMPT,
    READ,
    SESSION_START,
    SUBAGENT_START,
    WRITE,
)
from engram.sync import sync_rules

SESSION_TEXT = (
    "engram: loaded 2 new (release-foundation, team-style)\n"
    "engram: 7 memories available (rules 5, skills 1, knowledge 1); routed per prompt\n"
    "### release-foundation [rule, instruction]\n"
    "Every release follows semver: breaking changes bump the major version.\n\n"
    "### team-style [rule, instruction]\n"
    "Keep answers short and always name the files you changed."
)
API_ERRORS = (
    "### api-errors [rule, instruction]\n"
    "Raise `NotFound` or `BadRequest` from handlers in src/api; the middleware turns them into\n"
    "RFC 7807 problem+json responses."
)
API_TESTS = (
    "### api-tests [rule, instruction]\n"
    "Write one test per handler in tests/api with the `client` fixture; never call handlers "
    "directly."
)


@pytest.fixture
def ws(workspace: Path) -> Path:
    return make_workspace(workspace)


@pytest.mark.parametrize(("name", "kind", "op"), [
    ("session_start", SESSION_START, ""),
    ("session_start_compact", SESSION_START, ""),
    ("session_start_resume", SESSION_START, ""),
    ("user_prompt_submit", PROMPT, ""),
    ("pre_tool_use_read", FILE, READ),
    ("pre_tool_use_edit", FILE, WRITE),
    ("pre_tool_use_write", FILE, WRITE),
    ("pre_tool_use_multiedit", FILE, WRITE),
    ("pre_tool_use_bash", IGNORED, ""),
    ("pre_compact", PRE_COMPACT, ""),
    ("subagent_start", SUBAGENT_START, ""),
    ("instructions_loaded", INSTRUCTIONS_LOADED, ""),
    ("stop", IGNORED, ""),
])
def test_every_fixture_parses(tmp_path: Path, name: str, kind: str, op: str) -> None:
    event = claude.HOST.parse(payload("claude", name, tmp_path))
    assert (event.kind, event.op) == (kind, op)
    assert event.session_id and event.cwd == str(tmp_path)
    if kind == FILE:
        assert event.paths == (str(tmp_path / "src/api/" / Path(event.paths[0]).name),)
    if kind == SUBAGENT_START:
        assert (event.agent_id, event.role) == ("a-3f9c2d1e", "general-purpose")


def test_session_start_injects_session_pack_and_index(ws: Path) -> None:
    result = fire("claude", payload("claude", "session_start", ws))
    assert result.stderr == ()
    assert result.stdout == json.dumps({"hookSpecificOutput": {
        "hookEventName": "SessionStart", "additionalContext": SESSION_TEXT}},
        separators=(",", ":")) + "\n"


def test_prompt_delta_across_turns(ws: Path) -> None:
    fire("claude", payload("claude", "session_start", ws))
    first = fire("claude", payload("claude", "user_prompt_submit", ws))
    assert context_of(first, "UserPromptSubmit") == (
        "engram: loaded 2 new (api-tests, api-errors)\n" + API_TESTS + "\n\n" + API_ERRORS)
    again = fire("claude", payload("claude", "user_prompt_submit", ws))
    assert context_of(again, "UserPromptSubmit") == "engram: already loaded: api-tests, api-errors"
    release = fire("claude", payload("claude", "user_prompt_submit", ws,
                                     prompt="how do I cut a release and tag the version?"))
    text = context_of(release)
    assert text.startswith("engram: loaded 1 new (release-checklist); "
                           "already loaded: release-foundation\n")
    assert "### release-checklist [rule, instruction]\nrequires: release-foundation\n" in text
    assert "Every release follows semver" not in text  # delivered at session start


def test_edited_memory_is_delivered_again(ws: Path) -> None:
    fire("claude", payload("claude", "user_prompt_submit", ws))
    path = ws / ".engram/rules/api-errors.md"
    path.write_text(path.read_text().replace("never return None", "never return None or {}"))
    text = context_of(fire("claude", payload("claude", "user_prompt_submit", ws)))
    assert text.startswith("engram: loaded 1 new (api-errors); already loaded: api-tests")


@pytest.mark.parametrize(("name", "source"), [
    ("session_start", "startup"), ("session_start", "clear"), ("session_start_compact", "compact"),
])
def test_new_context_resets_the_delivered_set(ws: Path, name: str, source: str) -> None:
    fire("claude", payload("claude", "user_prompt_submit", ws))
    fire("claude", payload("claude", name, ws, source=source))
    text = context_of(fire("claude", payload("claude", "user_prompt_submit", ws)))
    assert text.startswith("engram: loaded 2 new (api-tests, api-errors)")


def test_resume_keeps_the_delivered_set_and_sends_only_what_is_new(ws: Path) -> None:
    fire("claude", payload("claude", "session_start", ws))
    fire("claude", payload("claude", "user_prompt_submit", ws))
    # --continue restored the transcript with both packs in it: nothing to send again.
    resumed = fire("claude", payload("claude", "session_start_resume", ws))
    assert (resumed.stdout, resumed.stderr) == ("", ())
    again = context_of(fire("claude", payload("claude", "user_prompt_submit", ws)))
    assert again == "engram: already loaded: api-tests, api-errors"
    # A memory edited between the two processes is new: only it is sent on resume.
    path = ws / ".engram/rules/team-style.md"
    path.write_text(path.read_text().replace("Keep answers short", "Keep answers very short"))
    text = context_of(fire("claude", payload("claude", "session_start_resume", ws)))
    assert text.startswith(
        "engram: loaded 1 new (team-style); already loaded: release-foundation\n")


def test_pre_compact_keeps_the_delivered_set_and_prints_nothing(ws: Path) -> None:
    # Claude fires PreCompact for a /compact it then refuses; its stdout would land in the
    # transcript with the hook's command line.
    fire("claude", payload("claude", "user_prompt_submit", ws))
    result = fire("claude", payload("claude", "pre_compact", ws))
    assert (result.stdout, result.stderr) == ("", ())
    again = context_of(fire("claude", payload("claude", "user_prompt_submit", ws)))
    assert again == "engram: already loaded: api-tests, api-errors"


def denial_of(result: HookResult) -> str:
    """The reason of a PreToolUse deny answer (asserting it is one)."""
    specific = json.loads(result.stdout)["hookSpecificOutput"]
    assert (specific["hookEventName"], specific["permissionDecision"]) == ("PreToolUse", "deny")
    return str(specific["permissionDecisionReason"])


HELD_BACK = ("engram: this write was held back once so that the conventions below come first; "
             "apply them and make the write again.")


def test_read_injects_nothing_with_native_rules(ws: Path) -> None:
    assert fire("claude", payload("claude", "pre_tool_use_read", ws)).stdout == ""


def test_read_records_the_native_rules_claude_attaches(ws: Path) -> None:
    # Claude attaches .claude/rules/engram/<id>.md on Read and does not await InstructionsLoaded:
    # a Read then an Edit in one turn must not send the same body again.
    sync_rules(str(ws), hosts=("claude",))
    assert fire("claude", payload("claude", "pre_tool_use_read", ws)).stdout == ""
    assert fire("claude", payload("claude", "pre_tool_use_edit", ws)).stdout == ""
    prompt = context_of(fire("claude", payload("claude", "user_prompt_submit", ws)))
    assert prompt == "engram: already loaded: api-tests, api-errors"


def test_read_without_current_rule_files_records_nothing(ws: Path) -> None:
    sync_rules(str(ws), hosts=("claude",))
    path = ws / ".engram/rules/api-errors.md"
    path.write_text(path.read_text().replace("never return None", "never return None or {}"))
    fire("claude", payload("claude", "pre_tool_use_read", ws))  # api-errors' file is stale
    text = denial_of(fire("claude", payload("claude", "pre_tool_use_edit", ws)))
    assert text.startswith("engram: loaded 1 new (api-errors); already loaded: api-tests\n")


@pytest.mark.parametrize("name", ["pre_tool_use_edit", "pre_tool_use_write",
                                  "pre_tool_use_multiedit"])
def test_first_write_is_denied_once_with_the_undelivered_path_rules(ws: Path, name: str) -> None:
    text = denial_of(fire("claude", payload("claude", name, ws)))
    assert text == ("engram: loaded 2 new (api-errors, api-tests)\n" + HELD_BACK + "\n"
                    + API_ERRORS + "\n\n" + API_TESTS)
    assert fire("claude", payload("claude", name, ws)).stdout == ""  # the retry passes


@pytest.mark.parametrize("name", ["pre_tool_use_edit", "pre_tool_use_write"])
def test_write_events_inject_path_rules_when_deny_is_off(ws: Path, name: str) -> None:
    (ws / ".engram/config.yaml").write_text("hooks:\n  deny_first_write: off\n")
    text = context_of(fire("claude", payload("claude", name, ws)), "PreToolUse")
    assert text == ("engram: loaded 2 new (api-errors, api-tests)\n"
                    + API_ERRORS + "\n\n" + API_TESTS)
    assert fire("claude", payload("claude", name, ws)).stdout == ""  # nothing new: silent


def test_instructions_loaded_records_native_rule_as_delivered(ws: Path) -> None:
    sync_rules(str(ws), hosts=("claude",))
    loaded = fire("claude", payload("claude", "instructions_loaded", ws))
    assert loaded.stdout == "" and loaded.stderr == ()
    text = denial_of(fire("claude", payload("claude", "pre_tool_use_edit", ws)))
    assert text == ("engram: loaded 1 new (api-tests); already loaded: api-errors\n" + HELD_BACK
                    + "\n" + API_TESTS)


def test_instructions_loaded_ignores_users_own_rules(ws: Path) -> None:
    (ws / ".claude/rules").mkdir(parents=True)
    (ws / ".claude/rules/api.md").write_text("---\npaths: [\"src/api/**\"]\n---\nmine\n")
    assert fire("claude", payload("claude", "instructions_loaded_user_rule", ws)).stdout == ""
    text = denial_of(fire("claude", payload("claude", "pre_tool_use_edit", ws)))
    assert text.startswith("engram: loaded 2 new")


def test_path_rules_hook_mode_injects_on_read(ws: Path) -> None:
    (ws / ".engram/config.yaml").write_text("hooks:\n  path_rules: hook\n")
    text = context_of(fire("claude", payload("claude", "pre_tool_use_read", ws)), "PreToolUse")
    assert text.startswith("engram: loaded 2 new (api-errors, api-tests)")


def test_subagent_gets_parent_pack_with_its_own_delivered_set(ws: Path) -> None:
    assert fire("claude", payload("claude", "subagent_start", ws)).stdout == ""  # no pack yet
    fire("claude", payload("claude", "user_prompt_submit", ws))
    sub = context_of(fire("claude", payload("claude", "subagent_start", ws)), "SubagentStart")
    assert sub == "engram: loaded 2 new (api-tests, api-errors)\n" + API_TESTS + "\n\n" + API_ERRORS
    # Inside the subagent, tool events carry agent_id: its set already has both memories.
    inner = payload("claude", "pre_tool_use_edit", ws, agent_id="a-3f9c2d1e")
    assert fire("claude", inner).stdout == ""
    # The parent's own set is untouched by the subagent.
    parent = context_of(fire("claude", payload("claude", "user_prompt_submit", ws)))
    assert parent == "engram: already loaded: api-tests, api-errors"


def test_subagent_role_filters_the_parent_pack(ws: Path) -> None:
    path = ws / ".engram/rules/api-tests.md"
    path.write_text(path.read_text().replace("tags: [api, testing]",
                                             "tags: [api, testing]\nroles: [tester]"))
    fire("claude", payload("claude", "user_prompt_submit", ws, agent_type="tester"))
    sub = context_of(fire("claude", payload("claude", "subagent_start", ws)))
    assert sub.startswith("engram: loaded 1 new (api-errors)\n")
    tester = context_of(fire("claude", payload("claude", "subagent_start", ws,
                                               agent_id="a-2", agent_type="tester")))
    assert tester.startswith("engram: loaded 2 new (api-tests, api-errors)\n")


@pytest.mark.parametrize("name", ["stop", "pre_tool_use_bash"])
def test_events_without_context_print_nothing(ws: Path, name: str) -> None:
    fire("claude", payload("claude", "user_prompt_submit", ws))
    result = fire("claude", payload("claude", name, ws))
    assert (result.stdout, result.stderr) == ("", ())


def test_recorded_text_round_trips(ws: Path) -> None:
    # The fixture text itself (not a re-serialised dict) is what a host writes on stdin.
    result = fire("claude", payload_text("claude", "session_start", ws))
    assert context_of(result, "SessionStart") == SESSION_TEXT
