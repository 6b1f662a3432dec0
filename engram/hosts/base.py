"""What every host adapter provides: payload parsing into one HookEvent, and that host's output.

Adapters hold no routing logic; engram/hook.py decides what to say, the adapter only says it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple, Protocol

from engram.errors import EngramError

if TYPE_CHECKING:
    from typing import Any

# Event kinds the runtime acts on; every host event maps to exactly one.
SESSION_START = "session_start"
PROMPT = "prompt"
PRE_COMPACT = "pre_compact"
FILE = "file"
SUBAGENT_START = "subagent_start"
INSTRUCTIONS_LOADED = "instructions_loaded"
IGNORED = "ignored"  # Stop, SessionEnd and anything engram has no use for: print nothing

READ = "read"
WRITE = "write"


class PayloadError(EngramError):
    """A hook payload lacks a field engram needs, or has it with the wrong type."""


class HookEvent(NamedTuple):
    """One hook call, normalised: the fields engram uses, the prompt text only in `prompt`."""

    host: str
    kind: str
    name: str  # the host's own event name, echoed back as hookEventName
    session_id: str
    cwd: str
    prompt: str = ""
    paths: tuple[str, ...] = ()  # touched files, absolute or relative to cwd
    tool: str = ""
    op: str = ""  # READ | WRITE for file events
    role: str | None = None  # agent_type of the (sub)agent the event belongs to
    agent_id: str | None = None  # set inside a subagent: it has its own delivered set
    loaded_file: str = ""  # InstructionsLoaded: the rule file the host loaded itself
    source: str = ""


class Registration(NamedTuple):
    """One hook entry a host config needs: event, optional matcher, timeout in the host's unit."""

    event: str
    matcher: str | None
    timeout: int | None
    name: str | None = None  # Gemini keys trust and `hooksConfig.disabled` on it


class Host(Protocol):
    """A host adapter. Module-level singletons; see engram/hosts/__init__.py for the registry."""

    name: str
    # Injected-text budget in `cap_unit` ("chars" or "tokens"), as `measure` counts it; each
    # module gives the reason for its number beside the constant.
    cap: int
    cap_unit: str
    # File operations whose path rules the host loads itself when `hooks.path_rules: native`.
    native_ops: frozenset[str]
    # Where this host's native rule files live, relative to the project dir (None: no such rules).
    native_rule_dir: str | None
    native_rule_suffix: str
    # Config file relative to the project dir (and to the home dir for --global).
    config_file: str
    # "grouped": event -> [{matcher?, hooks: [handler]}]; "flat": event -> [handler]
    config_shape: str
    # SessionStart sources after which the host's context still holds the earlier hook text
    # (a resume that restores the whole transcript): the delivered set is kept, not reset.
    keeps_context_on: frozenset[str]
    # Whether `deny` can hold a write back with a reason the model reads before the tool runs
    # (`hooks.deny_first_write`); elsewhere file events only inject.
    holds_writes: bool

    def parse(self, payload: Mapping[str, Any]) -> HookEvent: ...

    def render(self, event: HookEvent, text: str) -> str:
        """The exact stdout for injecting `text` on this event ("" when the event cannot inject)."""
        ...

    def deny(self, event: HookEvent, reason: str) -> str:
        """The exact stdout refusing this tool call with `reason`, which the model reads before
        the tool runs ("" when the host cannot refuse a tool call with a reason)."""
        ...

    def noop(self, event_name: str | None) -> str:
        """The stdout that changes nothing for this event (or before the event is known)."""
        ...

    def measure(self, text: str) -> int:
        """The size of `text` as the host counts it against `cap` (after any escaping)."""
        ...

    def registrations(self) -> tuple[Registration, ...]: ...


# ---- helpers shared by the adapters -------------------------------------------------------------


def text_field(payload: Mapping[str, Any], key: str, *, required: bool = True) -> str:
    value = payload.get(key)
    if value is None:
        if required:
            raise PayloadError(f"payload: {key}: missing")
        return ""
    if not isinstance(value, str):
        raise PayloadError(f"payload: {key}: expected a string, got {type(value).__name__}")
    if required and not value:
        raise PayloadError(f"payload: {key}: empty")
    return value


def optional_text(payload: Mapping[str, Any], key: str) -> str | None:
    value = payload.get(key)
    return value if isinstance(value, str) and value else None


def tool_input(payload: Mapping[str, Any]) -> Mapping[str, Any]:
    value = payload.get("tool_input")
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise PayloadError(f"payload: tool_input: expected an object, got {type(value).__name__}")
    return value


def context_json(event_name: str, text: str) -> str:
    """`{"hookSpecificOutput": {"hookEventName": ..., "additionalContext": ...}}`, one line."""
    body = {"hookSpecificOutput": {"hookEventName": event_name, "additionalContext": text}}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")) + "\n"
