"""Gemini CLI adapter: JSON-only stdout, context through hookSpecificOutput.additionalContext.

Payload ground truth (gemini-cli 0.56 nightly source, packages/core/src/hooks/types.ts;
fixtures in tests/fixtures/hosts/gemini):
- Every event: `session_id`, `transcript_path`, `cwd`, `hook_event_name`, `timestamp` (ISO 8601).
- SessionStart: `source` in startup | resume | clear (there is no `compact` source).
- BeforeAgent (Gemini's UserPromptSubmit): `prompt`; the context is appended for that turn.
  Headless runs (`gemini -p`) prepend the session-start context to the prompt, so `prompt`
  starts with `<hook_context>…</hook_context>` (seen in 0.61.0): engram routes on the rest.
- AfterTool: `tool_name`, `tool_input`, `tool_response`; read_file, write_file and replace
  carry `tool_input.file_path`. BeforeTool cannot inject context, so engram uses AfterTool.
- PreCompress: `trigger` in auto | manual; advisory only, it cannot inject or block. 0.61.0
  fires it before every model call, compression or not, so it says nothing about the context:
  engram does not register it (an entry written by an older engram is still parsed).
Output: stdout must be JSON only. Plain text on exit 0 becomes a user-visible systemMessage, and
an empty stdout makes Gemini parse stderr instead, so the no-op is `{}`. additionalContext is
HTML-escaped (`<` -> `&lt;`, `>` -> `&gt;`) before it reaches the model: measured that way here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from engram.hosts.base import (
    FILE,
    IGNORED,
    PRE_COMPACT,
    PROMPT,
    READ,
    SESSION_START,
    WRITE,
    HookEvent,
    Registration,
    context_json,
    text_field,
    tool_input,
)
from engram.render import utf16_len  # the one measure the budget uses too

if TYPE_CHECKING:
    from typing import Any

# No cap was found in Gemini's hook code; the same budget as Claude keeps packs comparable across
# hosts and the injected turn small.
CAP_CHARS = 9_500

FILE_TOOLS = {"read_file": READ, "write_file": WRITE, "replace": WRITE}
_KINDS = {
    "SessionStart": SESSION_START,
    "BeforeAgent": PROMPT,
    "AfterTool": FILE,
    "PreCompress": PRE_COMPACT,
}
_CAN_INJECT = frozenset({"SessionStart", "BeforeAgent", "AfterTool"})
NOOP = "{}\n"
# How Gemini wraps hook context in the conversation; in a prompt it is engram's own text.
_HOOK_CONTEXT = re.compile(r"<hook_context>.*?</hook_context>", re.DOTALL)


class GeminiHost:
    name = "gemini"
    cap = CAP_CHARS
    cap_unit = "chars"
    native_ops: frozenset[str] = frozenset()  # GEMINI.md is per directory, not per path glob
    native_rule_dir: str | None = None
    native_rule_suffix = ""
    config_file = ".gemini/settings.json"
    config_shape = "grouped"
    # `--resume` leaves out the earlier user turns and their hook context: every source resets.
    keeps_context_on: frozenset[str] = frozenset()
    holds_writes = False

    def parse(self, payload: Mapping[str, Any]) -> HookEvent:
        name = text_field(payload, "hook_event_name")
        kind = _KINDS.get(name, IGNORED)
        common: dict[str, Any] = {
            "host": self.name, "kind": kind, "name": name,
            "session_id": text_field(payload, "session_id"), "cwd": text_field(payload, "cwd"),
        }
        if kind == SESSION_START:
            return HookEvent(**common, source=text_field(payload, "source", required=False))
        if kind == PROMPT:
            prompt = text_field(payload, "prompt", required=False)
            return HookEvent(**common, prompt=_HOOK_CONTEXT.sub("", prompt).strip())
        if kind == FILE:
            tool = text_field(payload, "tool_name")
            op = FILE_TOOLS.get(tool)
            if op is None:
                return HookEvent(**{**common, "kind": IGNORED}, tool=tool)
            path = text_field(tool_input(payload), "file_path")
            return HookEvent(**common, tool=tool, op=op, paths=(path,))
        return HookEvent(**common)

    def render(self, event: HookEvent, text: str) -> str:
        if event.name not in _CAN_INJECT:
            return NOOP
        return context_json(event.name, text)

    def deny(self, event: HookEvent, reason: str) -> str:
        return ""  # not used to hold writes back here (docs/hooks.md)

    def noop(self, event_name: str | None) -> str:
        return NOOP

    def measure(self, text: str) -> int:
        # What the model receives after Gemini's escaping: each `<` or `>` grows by 3 units.
        return utf16_len(text) + 3 * (text.count("<") + text.count(">"))

    def registrations(self) -> tuple[Registration, ...]:
        # Timeouts in milliseconds. Lifecycle matchers are exact strings, so SessionStart has
        # none (all sources); tool matchers are regexes.
        return (
            Registration("SessionStart", None, 15_000, "engram-session"),
            Registration("BeforeAgent", None, 15_000, "engram-prompt"),
            Registration("AfterTool", "read_file|write_file|replace", 10_000, "engram-tool"),
        )


HOST = GeminiHost()


def escaped(text: str) -> str:
    """The text as Gemini hands it to the model (for tests and docs)."""
    return text.replace("<", "&lt;").replace(">", "&gt;")
