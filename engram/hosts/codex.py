"""OpenAI Codex CLI adapter: Claude-compatible hooks with strict output schemas.

Payload ground truth (Codex 0.171.0 embedded JSON Schemas, all `additionalProperties: false`;
copies in tests/fixtures/hosts/codex/schemas):
- Every event: `session_id`, `transcript_path` (string or null), `cwd`, `hook_event_name`,
  `model`, `permission_mode`.
- SessionStart: `source` in startup | resume | clear | compact | fork (no `turn_id`).
- UserPromptSubmit: `turn_id`, `prompt`, `agent_id?`, `agent_type?`.
- PreToolUse: `turn_id`, `tool_name`, `tool_input`, `tool_use_id`. There are no Read/Edit/Write
  tools: edits are `tool_name: "apply_patch"` with `tool_input: {"command": "<patch text>"}` and
  the paths only inside the patch (`*** Add File: p`, `*** Update File: p`, `*** Delete File: p`,
  `*** Move to: p`); reads go through `Bash`, which engram ignores.
- SubagentStart: `turn_id`, `agent_id`, `agent_type`. PreCompact: `turn_id`, `trigger`.
- Stop: `turn_id`, `stop_hook_active`, `last_assistant_message`.
Output: empty stdout is the no-op; JSON must validate against the event's output schema (an extra
key is rejected, and stdout starting with `{` that fails to parse fails the hook). Context goes in
`hookSpecificOutput.additionalContext` with `hookEventName` equal to the firing event; PreCompact
and Stop have no hookSpecificOutput at all, so engram prints nothing for them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from engram.hosts.base import (
    FILE,
    IGNORED,
    PRE_COMPACT,
    PROMPT,
    SESSION_START,
    SUBAGENT_START,
    WRITE,
    HookEvent,
    PayloadError,
    Registration,
    context_json,
    optional_text,
    text_field,
    tool_input,
)

if TYPE_CHECKING:
    from typing import Any

# Codex spills any context item over 2,500 approximate tokens (DEFAULT_HOOK_OUTPUT_TOKEN_LIMIT)
# to a file and shows a head/tail preview; 100 tokens stay free for the proof line and the
# estimate's error on non-ASCII text.
CAP_TOKENS = 2_400

_KINDS = {
    "SessionStart": SESSION_START,
    "UserPromptSubmit": PROMPT,
    "PreToolUse": FILE,
    "PreCompact": PRE_COMPACT,
    "SubagentStart": SUBAGENT_START,
}
# Events whose output schema has a hookSpecificOutput.additionalContext.
_CAN_INJECT = frozenset({"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
                         "SubagentStart"})
_PATCH_PATH = re.compile(r"^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+?)\s*$",
                         re.MULTILINE)


def patch_paths(patch: str) -> tuple[str, ...]:
    """The files an apply_patch text touches, in order of first appearance."""
    seen: dict[str, None] = {}
    for match in _PATCH_PATH.finditer(patch):
        seen.setdefault(match.group(1), None)
    return tuple(seen)


class CodexHost:
    name = "codex"
    cap = CAP_TOKENS
    cap_unit = "tokens"
    native_ops: frozenset[str] = frozenset()  # Codex has no path-scoped rule files
    native_rule_dir: str | None = None
    native_rule_suffix = ""
    config_file = ".codex/hooks.json"
    config_shape = "grouped"
    # `codex exec resume` replays the whole history, earlier hook context included.
    keeps_context_on = frozenset({"resume"})
    holds_writes = False

    def parse(self, payload: Mapping[str, Any]) -> HookEvent:
        name = text_field(payload, "hook_event_name")
        kind = _KINDS.get(name, IGNORED)
        common: dict[str, Any] = {
            "host": self.name, "kind": kind, "name": name,
            "session_id": text_field(payload, "session_id"), "cwd": text_field(payload, "cwd"),
            "role": optional_text(payload, "agent_type"),
            "agent_id": optional_text(payload, "agent_id"),
        }
        if kind == SESSION_START:
            return HookEvent(**common, source=text_field(payload, "source", required=False))
        if kind == PROMPT:
            return HookEvent(**common, prompt=text_field(payload, "prompt", required=False))
        if kind == FILE:
            tool = text_field(payload, "tool_name")
            if tool != "apply_patch":
                return HookEvent(**{**common, "kind": IGNORED}, tool=tool)
            patch = tool_input(payload).get("command")
            if not isinstance(patch, str):
                raise PayloadError("payload: tool_input.command: expected the patch text")
            return HookEvent(**common, tool=tool, op=WRITE, paths=patch_paths(patch))
        if kind == SUBAGENT_START and common["agent_id"] is None:
            raise PayloadError("payload: agent_id: missing")
        return HookEvent(**common)

    def render(self, event: HookEvent, text: str) -> str:
        if event.kind == PRE_COMPACT or event.name not in _CAN_INJECT:
            return ""
        return context_json(event.name, text)

    def deny(self, event: HookEvent, reason: str) -> str:
        return ""  # not used to hold writes back here (docs/hooks.md)

    def noop(self, event_name: str | None) -> str:
        return ""

    def measure(self, text: str) -> int:
        # Codex estimates about 4 bytes per token; counting UTF-8 bytes keeps non-ASCII memories
        # under the real limit too.
        return math.ceil(len(text.encode("utf-8")) / 4)

    def registrations(self) -> tuple[Registration, ...]:
        # Timeouts in seconds. `apply_patch` also answers to the `Edit`/`Write` matcher aliases;
        # naming it directly keeps the matcher an exact list.
        return (
            Registration("SessionStart", None, 15),
            Registration("UserPromptSubmit", None, 15),
            Registration("PreToolUse", "apply_patch", 10),
            Registration("SubagentStart", None, 10),
            Registration("PreCompact", None, 10),
        )


HOST = CodexHost()
