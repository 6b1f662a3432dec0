"""Claude Code adapter: stdin payloads in, the exact stdout Claude accepts out.

Payload ground truth (Claude Code 2.1.332 binary Zod schemas; fixtures in
tests/fixtures/hosts/claude):
- Every event: `session_id`, `transcript_path`, `cwd`, `hook_event_name`; optional
  `permission_mode`, `prompt_id`, `agent_id` (only inside a subagent), `agent_type`.
- SessionStart: `source` in startup | resume | clear | compact | fork; `model?`.
- UserPromptSubmit: `prompt`, `source?` (user, sdk, system, ...).
- PreToolUse: `tool_name`, `tool_input`, `tool_use_id`; Read/Edit/Write carry an absolute
  `tool_input.file_path` (MultiEdit is gone from the 2.1.197 tool schemas; kept for old clients).
- PreCompact: `trigger` in manual | auto, `custom_instructions` (string or null).
- SubagentStart: `agent_id`, `agent_type`.
- InstructionsLoaded (2.1.69+): `file_path`, `memory_type`, `load_reason`, `globs?`,
  `trigger_file_path?`; output is ignored (observability only).
- Stop: `stop_hook_active`, `last_assistant_message?`.
Output: JSON `{"hookSpecificOutput":{"hookEventName":<the firing event>,"additionalContext":...}}`
on exit 0 (a mismatched hookEventName makes Claude throw). PreCompact has no hookSpecificOutput
variant: its plain stdout becomes compaction instructions, shown in the transcript after
"Compacted PreCompact [<command>]" (2.1.197); engram no longer registers it and answers an older
install's PreCompact with nothing. Empty stdout is the no-op everywhere.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING

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
    HookEvent,
    PayloadError,
    Registration,
    context_json,
    optional_text,
    text_field,
    tool_input,
)
from engram.render import utf16_len  # the one measure the budget uses too

if TYPE_CHECKING:
    from typing import Any

# Claude replaces any field over 10,000 UTF-16 units with a 2 KB preview, silently; 500 units
# stay free for the proof line and anything a later Claude version wraps around the text.
CAP_CHARS = 9_500

FILE_TOOLS = {"Read": READ, "Edit": WRITE, "Write": WRITE, "MultiEdit": WRITE}
_KINDS = {
    "SessionStart": SESSION_START,
    "UserPromptSubmit": PROMPT,
    "PreToolUse": FILE,
    "PreCompact": PRE_COMPACT,
    "SubagentStart": SUBAGENT_START,
    "InstructionsLoaded": INSTRUCTIONS_LOADED,
}


class ClaudeHost:
    name = "claude"
    cap = CAP_CHARS
    cap_unit = "chars"
    # Claude loads `.claude/rules/**` path rules only when it reads a file, so a Write of a new
    # file would go without its conventions: only reads are left to the native rules.
    native_ops = frozenset({READ})
    native_rule_dir: str | None = ".claude/rules/engram"
    native_rule_suffix = ".md"
    config_file = ".claude/settings.json"
    config_shape = "grouped"
    # --continue / --resume restore the whole transcript, earlier hook context included.
    keeps_context_on = frozenset({"resume"})
    holds_writes = True

    def parse(self, payload: Mapping[str, Any]) -> HookEvent:
        name = text_field(payload, "hook_event_name")
        kind = _KINDS.get(name, IGNORED)
        session = text_field(payload, "session_id")
        cwd = text_field(payload, "cwd")
        common: dict[str, Any] = {
            "host": self.name, "kind": kind, "name": name, "session_id": session, "cwd": cwd,
            "role": optional_text(payload, "agent_type"),
            "agent_id": optional_text(payload, "agent_id"),
        }
        if kind == SESSION_START:
            return HookEvent(**common, source=text_field(payload, "source", required=False))
        if kind == PROMPT:
            return HookEvent(**common, prompt=text_field(payload, "prompt", required=False))
        if kind == FILE:
            tool = text_field(payload, "tool_name")
            op = FILE_TOOLS.get(tool)
            if op is None:  # a matcher wider than ours: nothing to do for this tool
                return HookEvent(**{**common, "kind": IGNORED}, tool=tool)
            path = text_field(tool_input(payload), "file_path")
            return HookEvent(**common, tool=tool, op=op, paths=(path,))
        if kind == SUBAGENT_START:
            if common["agent_id"] is None:
                raise PayloadError("payload: agent_id: missing")
            return HookEvent(**common)
        if kind == INSTRUCTIONS_LOADED:
            return HookEvent(**common, loaded_file=text_field(payload, "file_path"))
        return HookEvent(**common)

    def render(self, event: HookEvent, text: str) -> str:
        if event.kind in (PRE_COMPACT, INSTRUCTIONS_LOADED, IGNORED):
            # PreCompact stdout lands in the transcript, InstructionsLoaded output is ignored,
            # Stop context would keep the turn going.
            return ""
        return context_json(event.name, text)

    def deny(self, event: HookEvent, reason: str) -> str:
        if event.kind != FILE:
            return ""
        # A denied PreToolUse reaches the model as the tool's error result, before the tool ran:
        # the only hook text Claude shows ahead of a Write (additionalContext comes after it).
        body = {"hookSpecificOutput": {"hookEventName": event.name, "permissionDecision": "deny",
                                       "permissionDecisionReason": reason}}
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")) + "\n"

    def noop(self, event_name: str | None) -> str:
        return ""

    def measure(self, text: str) -> int:
        return utf16_len(text)

    def registrations(self) -> tuple[Registration, ...]:
        # Timeouts in seconds (Claude multiplies by 1000). No SessionStart matcher: each source
        # is handled (a resume keeps the delivered set, the others reset it). No PreCompact:
        # it fires for a refused /compact too, and any PreCompact hook leaves its command line
        # in the transcript; the SessionStart after a real compaction is the signal.
        return (
            Registration("SessionStart", None, 15),
            Registration("UserPromptSubmit", None, 15),
            Registration("PreToolUse", "Read|Edit|Write|MultiEdit", 10),
            Registration("SubagentStart", None, 10),
            Registration("InstructionsLoaded", None, 10),
        )


HOST = ClaudeHost()
