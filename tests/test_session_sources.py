"""Which SessionStart sources reset a session's delivered set, host by host.

The set mirrors the model's context (real-hosts.md): a resume that restores the transcript with
its hook text keeps it (Claude, Codex); Gemini's resume drops the earlier turns, so it resets.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_hook_support import fire, make_workspace, payload

PROMPT_EVENT = {"claude": "user_prompt_submit", "codex": "user_prompt_submit",
                "gemini": "before_agent"}


def delivered_again(ws: Path, host: str, source: str) -> bool:
    """Whether a prompt after a SessionStart of `source` sends its bodies a second time."""
    first = fire(host, payload(host, PROMPT_EVENT[host], ws))
    assert "loaded 2 new" in first.stdout
    fire(host, payload(host, "session_start", ws, source=source))
    again = fire(host, payload(host, PROMPT_EVENT[host], ws)).stdout
    assert "loaded 2 new" in again or "already loaded: api-tests, api-errors" in again, again
    return "loaded 2 new" in again


@pytest.mark.parametrize(("host", "source", "resets"), [
    ("claude", "startup", True), ("claude", "clear", True), ("claude", "compact", True),
    ("claude", "resume", False),
    ("codex", "startup", True), ("codex", "clear", True), ("codex", "compact", True),
    ("codex", "resume", False),
    ("gemini", "startup", True), ("gemini", "clear", True), ("gemini", "resume", True),
])
def test_session_start_source_policy(workspace: Path, host: str, source: str,
                                     resets: bool) -> None:
    assert delivered_again(make_workspace(workspace), host, source) is resets
