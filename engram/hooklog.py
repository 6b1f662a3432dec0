"""The hook call log: one JSON line per call, so nothing engram leaves out is left out silently.

Entries hold ids, counts and sizes only, never prompt text; `engram hooks log` reads them back.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from engram.fsutil import file_lock
from engram.state import LOCK_WAIT_SECONDS

if TYPE_CHECKING:
    from typing import Any

LOG_NAME = "log.jsonl"
# Past this size the log is rotated to log.1.jsonl (one generation kept): bounded disk use.
MAX_LOG_BYTES = 2 * 1024 * 1024


class LogEntry(NamedTuple):
    """One line of the hook log."""

    time: str
    host: str
    event: str
    session: str
    delivered: tuple[str, ...] = ()
    already: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    demoted: tuple[str, ...] = ()
    dropped: tuple[str, ...] = ()
    chars: int = 0
    note: str = ""  # why nothing was injected (skip reason, error), empty otherwise
    warnings: tuple[str, ...] = ()  # config keys set aside for this call (defaults applied)
    # Printed memories whose `safety: {allow: [...]}` was in force, as `id:kind+kind`.
    overrides: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"time": self.time, "host": self.host, "event": self.event,
                "session": self.session, "delivered": list(self.delivered),
                "already": list(self.already), "cards": list(self.cards),
                "demoted": list(self.demoted), "dropped": list(self.dropped),
                "chars": self.chars, "note": self.note,
                **({"warnings": list(self.warnings)} if self.warnings else {}),
                **({"overrides": list(self.overrides)} if self.overrides else {})}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LogEntry:
        def ids(key: str) -> tuple[str, ...]:
            value = data.get(key)
            return tuple(str(v) for v in value) if isinstance(value, list) else ()

        chars = data.get("chars")
        return cls(str(data.get("time", "")), str(data.get("host", "")),
                   str(data.get("event", "")), str(data.get("session", "")),
                   ids("delivered"), ids("already"), ids("cards"), ids("demoted"),
                   ids("dropped"), chars if isinstance(chars, int) else 0,
                   str(data.get("note", "")), ids("warnings"), ids("overrides"))


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def append(state_dir: Path, entry: LogEntry) -> None:
    """Append one line; a single write under a lock, so concurrent hooks never interleave."""
    state_dir.mkdir(parents=True, exist_ok=True)
    path = state_dir / LOG_NAME
    line = json.dumps(entry.to_json(), ensure_ascii=False, sort_keys=True) + "\n"
    # Bounded like the session lock: a hung holder raises TimeoutError (an OSError), which the
    # hook treats as a log it cannot write, never as a reason to stall the host.
    with file_lock(state_dir / "log.lock", timeout=LOCK_WAIT_SECONDS):
        with contextlib.suppress(OSError):
            if path.stat().st_size > MAX_LOG_BYTES:
                os.replace(path, state_dir / "log.1.jsonl")
        with open(path, "a", encoding="utf-8") as out:
            out.write(line)


def read(state_dir: Path, *, session: str | None = None, limit: int | None = 20) -> list[LogEntry]:
    """The last `limit` entries (all when None), oldest first, optionally of one session.

    `session` matches a full session id or its prefix, as people copy the start of a UUID.
    """
    entries: list[LogEntry] = []
    for name in ("log.1.jsonl", LOG_NAME):
        try:
            lines = (state_dir / name).read_text(encoding="utf-8").splitlines()
        except OSError:
            continue
        for line in lines:
            try:
                data = json.loads(line)
            except ValueError:
                continue  # a line cut by a crash is skipped, never fatal
            if isinstance(data, dict):
                entries.append(LogEntry.from_json(data))
    if session:
        entries = [e for e in entries if e.session.startswith(session)]
    return entries if limit is None else entries[-limit:] if limit > 0 else []


def _ids(label: str, ids: Sequence[str]) -> str:
    return f" {label}={','.join(ids)}" if ids else ""


def format_entries(entries: Iterable[LogEntry]) -> str:
    """One line per call: `time host event session chars=N delivered=a,b demoted=c ...`."""
    lines = []
    for e in entries:
        line = f"{e.time} {e.host} {e.event} {e.session[:12]} chars={e.chars}"
        line += _ids("delivered", e.delivered) + _ids("already", e.already)
        line += _ids("cards", e.cards) + _ids("demoted", e.demoted) + _ids("dropped", e.dropped)
        line += _ids("safety-allow", e.overrides)
        if e.note:
            line += f" ({e.note})"
        lines.append(line)
        lines.extend(f"  warning: {w}" for w in e.warnings)
    return "\n".join(lines) + ("\n" if lines else "")


def entries_for(cwd: str = ".", *, session: str | None = None, limit: int | None = 20,
                workspace: str | None = None) -> list[LogEntry]:
    """`engram hooks log`: the last `limit` calls, newest first, of the workspace around `cwd`
    (or `workspace`; global state without one)."""
    from engram.scopes import Request, resolve  # every hook imports this module; this, rarely

    state_dir = resolve(Request(cwd=cwd, workspace=workspace, lenient_config=True)).state_dir
    if state_dir is None:
        return []
    return read(Path(state_dir), session=session, limit=limit)[::-1]
