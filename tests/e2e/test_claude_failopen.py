"""Claude Code 2.1.197, for real: engram never blocks or drops a prompt, and a pack over the cap
arrives whole.

One project, run once for the module: a pack far over Claude's 10,000-character field limit, a
corrupt memory beside good ones, a corrupt session state file, an invalid
`.engram/config.yaml`, and engram missing for the host altogether. Each run must reach the model
with the user's prompt and end successfully.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from engram.state import session_file

from .conftest import Scratch
from .mock_anthropic import (
    AnthropicMock,
    ClaudeRun,
    anthropic_mock,
    claude_env,
    claude_project,
    hook_contexts,
    run_claude,
    transcript,
    turn_request,
)

BASE_BODY = "Keep every change small enough to review in ten minutes."
MEMORIES = {
    "rules/small-changes.md": f"""---
id: small-changes
type: rule
directive: Small reviewable changes.
level: foundation
---
{BASE_BODY}
""",
    # A frontmatter that does not parse: engram reports it and routes around it.
    "rules/broken.md": "---\nid: broken\ntype: rule\ntags: [unclosed\n---\nNever seen.\n",
}
AUDIT_IDS = [f"audit-step-{n}" for n in range(1, 6)]
for n, memory_id in enumerate(AUDIT_IDS, 1):
    MEMORIES[f"rules/{memory_id}.md"] = f"""---
id: {memory_id}
type: rule
directive: Quarterly audit step {n}.
tags: [audit, quarterly]
triggers: ["quarterly audit"]
---
""" + "\n".join(f"Audit step {n}, check {i}: confirm the ledger line {i} matches the bank export."
                for i in range(60)) + "\n"

PROMPT_CAP = "Walk me through the quarterly audit."
PROMPT_FIRST = "Where do our team rules live?"
PROMPT_STATE = "Summarise our review rules for a newcomer."
PROMPT_CONFIG = "Explain how we keep changes reviewable."
PROMPT_MISSING = "What should I know before my first change?"
STATE_SESSION = "c0225e47-0000-4000-8000-000000000002"


@dataclass
class FailOpen:
    scratch: Scratch
    mock: AnthropicMock
    cap: ClaudeRun
    state: ClaudeRun
    config: ClaudeRun
    missing: ClaudeRun


def without_engram(scratch: Scratch, mock: AnthropicMock) -> dict[str, str]:
    """Claude's environment for a teammate without engram: not on PATH, and the installed
    command's own path (where it has one) gone too."""
    settings = scratch.project / ".claude/settings.json"
    text = settings.read_text()
    engram = str(Path(scratch.env["PATH"].split(":")[0]) / "engram")
    settings.write_text(text.replace(engram, str(scratch.home / "gone" / "engram")))
    env = claude_env(scratch, mock)
    env["PATH"] = "/usr/local/bin:/usr/bin:/bin"
    return env


@pytest.fixture(scope="module")
def failopen(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FailOpen]:
    scratch = claude_project(tmp_path_factory.mktemp("claude-failopen"), MEMORIES)
    state_file = session_file(scratch.project / ".engram/.state", "claude", STATE_SESSION)
    with anthropic_mock() as mock:
        cap = run_claude(scratch, mock, "-p", PROMPT_CAP)
        run_claude(scratch, mock, "-p", PROMPT_FIRST, "--session-id", STATE_SESSION)
        state_file.write_text('{"version": 1, "delivered": [tru')  # cut off mid-write
        state = run_claude(scratch, mock, "-p", PROMPT_STATE, "--resume", STATE_SESSION)
        config_file = scratch.project / ".engram/config.yaml"
        config_file.write_text("hooks:\n  max_path_bodies: lots\n")
        config = run_claude(scratch, mock, "-p", PROMPT_CONFIG)
        config_file.unlink()
        missing = run_claude(scratch, mock, "-p", PROMPT_MISSING,
                             env=without_engram(scratch, mock))
        yield FailOpen(scratch, mock, cap, state, config, missing)


def test_every_prompt_reaches_the_model_and_every_run_succeeds(failopen: FailOpen) -> None:
    runs = {PROMPT_CAP: failopen.cap, PROMPT_STATE: failopen.state,
            PROMPT_CONFIG: failopen.config, PROMPT_MISSING: failopen.missing}
    for prompt, run in runs.items():
        assert run.returncode == 0, (prompt, run.stderr)
        assert run.result.get("is_error") is False, (prompt, run.result)
        assert turn_request(failopen.mock, prompt)  # the prompt was sent, not dropped


def test_pack_over_the_cap_arrives_whole_as_bodies_and_cards(failopen: FailOpen) -> None:
    request = turn_request(failopen.mock, PROMPT_CAP)
    [pack] = hook_contexts(request, "UserPromptSubmit")
    assert len(pack) <= 10_000
    proof = pack.splitlines()[0]
    assert proof.startswith("engram: loaded ")
    assert "shown as cards to fit the 9,500-character cap" in proof
    for memory_id in AUDIT_IDS:  # each routed memory is there, as a body or as a card
        assert memory_id in pack
    assert "<persisted-output>" not in transcript(request)
    spilled = list(failopen.scratch.home.glob(".claude/projects/*/*/tool-results/*"))
    assert spilled == []


def test_corrupt_memory_leaves_the_others_delivered(failopen: FailOpen) -> None:
    request = turn_request(failopen.mock, PROMPT_CAP)
    [session_pack] = hook_contexts(request, "SessionStart")
    assert BASE_BODY in session_pack
    assert "Never seen." not in transcript(request)


def test_corrupt_state_file_is_read_as_a_fresh_one(failopen: FailOpen) -> None:
    # The resumed session's state is unreadable: engram cannot know what the transcript holds,
    # so it delivers again rather than fail (a repeat, never a loss).
    request = turn_request(failopen.mock, PROMPT_STATE)
    first, resumed = hook_contexts(request, "SessionStart")
    assert first.startswith("engram: loaded 1 new (small-changes)")
    assert resumed.startswith("engram: loaded 1 new (small-changes)")


def test_invalid_config_never_drops_the_prompt(failopen: FailOpen) -> None:
    request = turn_request(failopen.mock, PROMPT_CONFIG)
    assert PROMPT_CONFIG in transcript(request)


def test_invalid_config_keeps_delivering(failopen: FailOpen) -> None:
    request = turn_request(failopen.mock, PROMPT_CONFIG)
    assert BASE_BODY in transcript(request)


def test_engram_missing_is_a_non_blocking_hook_error(failopen: FailOpen) -> None:
    request = turn_request(failopen.mock, PROMPT_MISSING)
    assert not hook_contexts(request, "SessionStart")
    assert not hook_contexts(request, "UserPromptSubmit")
    responses = [e for e in failopen.missing.events if e.get("subtype") == "hook_response"]
    assert responses and all(e.get("outcome") != "success" or not e.get("output")
                             for e in responses), json.dumps(responses)[:2000]
