"""Gemini CLI adapter: JSON-only stdout (`{}` as the no-op), AfterTool path rules, and a cap
measured on the HTML-escaped text Gemini actually hands the model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_hook_support import context_of, fire, make_workspace, payload

from engram.hosts import gemini
from engram.hosts.base import FILE, IGNORED, PRE_COMPACT, PROMPT, READ, SESSION_START, WRITE


@pytest.fixture
def ws(workspace: Path) -> Path:
    return make_workspace(workspace)


@pytest.mark.parametrize(("name", "kind", "op"), [
    ("session_start", SESSION_START, ""), ("session_start_clear", SESSION_START, ""),
    ("before_agent", PROMPT, ""), ("after_tool_read_file", FILE, READ),
    ("after_tool_write_file", FILE, WRITE), ("after_tool_replace", FILE, WRITE),
    ("after_tool_glob", IGNORED, ""), ("pre_compress", PRE_COMPACT, ""),
    ("after_agent", IGNORED, ""),
])
def test_every_fixture_parses(tmp_path: Path, name: str, kind: str, op: str) -> None:
    event = gemini.HOST.parse(payload("gemini", name, tmp_path))
    assert (event.kind, event.op) == (kind, op)


def test_session_and_prompt_use_hook_specific_output(ws: Path) -> None:
    start = context_of(fire("gemini", payload("gemini", "session_start", ws)), "SessionStart")
    assert start.startswith("engram: loaded 2 new (release-foundation, team-style)\n"
                            "engram: 7 memories available")
    prompt = context_of(fire("gemini", payload("gemini", "before_agent", ws)), "BeforeAgent")
    assert prompt.startswith("engram: loaded 2 new (api-tests, api-errors)\n")


def test_after_tool_read_injects_path_rules(ws: Path) -> None:
    # Gemini has no path-scoped rule files, so even reads get the rules through the hook.
    text = context_of(fire("gemini", payload("gemini", "after_tool_read_file", ws)), "AfterTool")
    assert text.startswith("engram: loaded 2 new (api-errors, api-tests)\n")
    assert fire("gemini", payload("gemini", "after_tool_replace", ws)).stdout == "{}\n"


@pytest.mark.parametrize("name", ["pre_compress", "after_agent", "after_tool_glob"])
def test_no_op_is_an_empty_object(ws: Path, name: str) -> None:
    result = fire("gemini", payload("gemini", name, ws))
    assert (result.stdout, result.stderr) == ("{}\n", ())


def test_failures_still_print_json(ws: Path) -> None:
    # Empty stdout would make Gemini parse stderr instead: the no-op must be `{}` even here.
    result = fire("gemini", "null")
    assert result.stdout == "{}\n" and result.stderr == (
        "engram: payload: expected a JSON object, got null",)


def test_pre_compress_keeps_the_delivered_set(ws: Path) -> None:
    # Gemini fires PreCompress before every model call, compression or not (real-hosts.md).
    fire("gemini", payload("gemini", "before_agent", ws))
    assert fire("gemini", payload("gemini", "pre_compress", ws)).stdout == "{}\n"
    again = context_of(fire("gemini", payload("gemini", "before_agent", ws)))
    assert again == "engram: already loaded: api-tests, api-errors"


def test_cap_counts_the_html_escaping(ws: Path) -> None:
    for n in range(3):  # ~4,000 raw characters each, but every `<`/`>` grows to 4 characters
        body = " ".join(f"List<Item{n}x{i}>" for i in range(250))
        (ws / f".engram/rules/generic-{n}.md").write_text(
            f"---\nid: generic-{n}\ntype: rule\ntags: [generics]\n---\n{body}\n")
    result = fire("gemini", payload("gemini", "before_agent", ws, prompt="explain our generics"))
    text = context_of(result)
    assert len(text) <= gemini.CAP_CHARS
    assert len(gemini.escaped(text)) <= gemini.CAP_CHARS
    assert "to fit the 9,500-character cap" in text.splitlines()[0]
    assert json.loads(result.stdout)["hookSpecificOutput"]["hookEventName"] == "BeforeAgent"


def test_prompt_is_routed_without_engrams_own_context(ws: Path) -> None:
    """Headless Gemini prepends the session-start text to the prompt: its words must not route
    (they made a release question fetch the database memories)."""
    session = context_of(fire("gemini", payload("gemini", "session_start", ws)))
    noise = "\n".join([session] + ["database migrations deploy alembic CI"] * 5)
    prompt = f"<hook_context>{gemini.escaped(noise)}</hook_context>\n\nhow do I cut a release"
    event = gemini.HOST.parse(payload("gemini", "before_agent", ws, prompt=prompt))
    assert event.prompt == "how do I cut a release"
    text = context_of(fire("gemini", payload("gemini", "before_agent", ws, prompt=prompt)))
    assert text.startswith("engram: loaded 1 new (release-checklist)")
    assert "db-migrations" not in text
    only = gemini.HOST.parse(payload("gemini", "before_agent", ws,
                                     prompt="<hook_context>\nx\n</hook_context>  "))
    assert only.prompt == ""
