"""Cursor adapter: session-start context only, everything else left to `.cursor/rules` files.

Payload ground truth (PARTIALLY VERIFIED: Cursor is closed source; docs excerpts and third-party
plugins; fixtures in tests/fixtures/hosts/cursor are built from those field lists):
- Every event: `hook_event_name`, `conversation_id`, `generation_id`, `workspace_roots[]`,
  `model?`, `cursor_version?`, `user_email?`, `transcript_path?`. There is no `cwd`: engram uses
  `workspace_roots[0]`.
- sessionStart: + `session_id`, `is_background_agent`, `composer_mode`. Returns
  `{"additional_context": ...}` (snake_case): the only well-attested injection point.
- beforeSubmitPrompt: + `prompt`, `attachments[]`; returns `{"continue": bool}` only, so it
  cannot inject and engram answers `{"continue": true}`.
- beforeReadFile: + `file_path`, `content`, `attachments[]`; returns `{"permission": ...}` only.
- afterFileEdit: + `file_path`, `edits[]`; fire-and-forget. Whether it honours
  `additional_context` is UNVERIFIED, so engram injects there only with `hooks.path_rules: hook`.
- preCompact, stop, subagentStart: outputs other than the above are UNVERIFIED; engram prints `{}`.
Timeout unit of hooks.json entries: UNVERIFIED, so engram writes no timeout.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING

from engram.hosts.base import (
    FILE,
    IGNORED,
    PRE_COMPACT,
    READ,
    SESSION_START,
    WRITE,
    HookEvent,
    PayloadError,
    Registration,
    text_field,
)
from engram.render import utf16_len  # the one measure the budget uses too

if TYPE_CHECKING:
    from typing import Any

# Cursor's cap is unknown; Claude's safe budget is the conservative guess.
CAP_CHARS = 9_500

_KINDS = {
    "sessionStart": SESSION_START,
    "afterFileEdit": FILE,
    "preCompact": PRE_COMPACT,
}
_NOOPS = {
    "beforeSubmitPrompt": '{"continue":true}\n',
    "beforeReadFile": '{"permission":"allow"}\n',
}
NOOP = "{}\n"


class CursorHost:
    name = "cursor"
    cap = CAP_CHARS
    cap_unit = "chars"
    # Cursor attaches `.cursor/rules/*.mdc` globs itself on reads and edits alike.
    native_ops = frozenset({READ, WRITE})
    native_rule_dir: str | None = ".cursor/rules/engram"
    native_rule_suffix = ".mdc"
    config_file = ".cursor/hooks.json"
    config_shape = "flat"
    # What a Cursor resume keeps is UNVERIFIED: re-delivering is the safe side.
    keeps_context_on: frozenset[str] = frozenset()
    holds_writes = False

    def parse(self, payload: Mapping[str, Any]) -> HookEvent:
        name = text_field(payload, "hook_event_name")
        kind = _KINDS.get(name, IGNORED)
        session = payload.get("session_id") or payload.get("conversation_id")
        if not isinstance(session, str) or not session:
            raise PayloadError("payload: session_id/conversation_id: missing")
        roots = payload.get("workspace_roots")
        if isinstance(roots, list) and roots and isinstance(roots[0], str) and roots[0]:
            cwd = roots[0]
        else:
            cwd = text_field(payload, "cwd")  # not documented; accepted when present
        common: dict[str, Any] = {"host": self.name, "kind": kind, "name": name,
                                  "session_id": session, "cwd": cwd}
        if kind == FILE:
            path = text_field(payload, "file_path")
            return HookEvent(**common, tool=name, op=WRITE, paths=(path,))
        return HookEvent(**common)

    def render(self, event: HookEvent, text: str) -> str:
        if event.kind not in (SESSION_START, FILE):
            return self.noop(event.name)
        return json.dumps({"additional_context": text}, ensure_ascii=False,
                          separators=(",", ":")) + "\n"

    def deny(self, event: HookEvent, reason: str) -> str:
        return ""  # not used to hold writes back here (docs/hooks.md)

    def noop(self, event_name: str | None) -> str:
        return _NOOPS.get(event_name or "", NOOP)

    def measure(self, text: str) -> int:
        return utf16_len(text)

    def registrations(self) -> tuple[Registration, ...]:
        # sessionStart is the one event known to inject; prompt and read events cannot, and file
        # edits are covered by the generated .mdc rules.
        return (Registration("sessionStart", None, None),)


HOST = CursorHost()
