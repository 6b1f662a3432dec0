"""Per-session hook state: which memory versions a host session has already been given.

One small JSON file per (host, session), changed only under a file lock and replaced atomically.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from engram.errors import EngramError
from engram.fsutil import atomic_write, file_lock
from engram.hashing import sha256

if TYPE_CHECKING:
    from typing import Any

STATE_VERSION = 1
# Sessions idle this long are gone from every host's resume list; their files are pruned.
MAX_AGE_SECONDS = 7 * 24 * 3600
# Enough of the file hash to tell two versions of one memory apart.
KEY_HASH_CHARS = 12
_PREFIX = "session-"
# How long a hook waits for a session lock held by another process. Concurrent hooks of one
# session hold it for milliseconds; a holder past this is hung (a killed host's hook, a stopped
# debugger). Hosts time a hook out at 10-15 s (Codex: on every event), so the wait stays one
# second: a stuck lock costs a second per event, never the host's whole timeout.
LOCK_WAIT_SECONDS = 1.0


def memory_key(memory_id: str, sha256: str) -> str:
    """`id@<sha256 prefix>`: an edited memory gets a new key and is delivered again."""
    return f"{memory_id}@{sha256[:KEY_HASH_CHARS]}"


class StateLocked(EngramError):
    """The session's lock stayed held past LOCK_WAIT_SECONDS."""


class SessionState:
    """What one (host, session[, subagent]) has seen. Ids and hashes only, never prompt text.

    Mutable (a hook call updates it in place), so a plain class rather than a record."""

    __slots__ = ("delivered", "cards", "last_pack", "calls", "resets")

    def __init__(self, delivered: set[str] | None = None, cards: set[str] | None = None,
                 last_pack: list[str] | None = None, calls: int = 0, resets: int = 0) -> None:
        self.delivered = delivered if delivered is not None else set()  # keys printed as bodies
        self.cards = cards if cards is not None else set()  # printed as cards, never as bodies
        self.last_pack = last_pack if last_pack is not None else []  # ids of the last prompt pack
        self.calls = calls
        self.resets = resets

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SessionState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable: like a dataclass, unhashable

    def reset(self) -> None:
        self.delivered.clear()
        self.cards.clear()
        self.resets += 1

    def to_json(self) -> dict[str, Any]:
        return {"version": STATE_VERSION, "delivered": sorted(self.delivered),
                "cards": sorted(self.cards), "last_pack": list(self.last_pack),
                "calls": self.calls, "resets": self.resets}

    @classmethod
    def from_json(cls, data: Any) -> SessionState:
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            return cls()

        def strings(key: str) -> list[str]:
            value = data.get(key)
            return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []

        def number(key: str) -> int:
            value = data.get(key)
            return value if isinstance(value, int) else 0

        return cls(set(strings("delivered")), set(strings("cards")), strings("last_pack"),
                   number("calls"), number("resets"))


def session_file(state_dir: Path, host: str, session_id: str, agent_id: str | None = None) -> Path:
    """The state file name: hashed, since session ids are host-chosen strings."""
    who = session_id if agent_id is None else f"{session_id}\0{agent_id}"
    digest = sha256(who.encode("utf-8", "surrogatepass")).hexdigest()[:24]
    return state_dir / f"{_PREFIX}{host}-{digest}.json"


def read_state(path: Path) -> SessionState:
    """The stored state, or a fresh one when missing or unreadable (a hook must not fail on it)."""
    try:
        return SessionState.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return SessionState()


@contextlib.contextmanager
def locked_session(state_dir: Path, host: str, session_id: str,
                   agent_id: str | None = None) -> Iterator[SessionState]:
    """Load, yield for changes, and save one session's state, all under its lock.

    Codex launches matching hooks concurrently: holding the lock across read-modify-write is what
    keeps a delivery from being lost or made twice. Nothing is saved if the block raises.
    Raises StateLocked when another process holds the lock past LOCK_WAIT_SECONDS.
    """
    state_dir.mkdir(parents=True, exist_ok=True)
    path = session_file(state_dir, host, session_id, agent_id)
    is_new = not path.exists()
    lock = path.with_suffix(".lock")
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(file_lock(lock, timeout=LOCK_WAIT_SECONDS))
        except TimeoutError:
            raise StateLocked(f"{lock}: session state is locked by another process for over "
                              f"{LOCK_WAIT_SECONDS:g} s; nothing delivered") from None
        state = read_state(path)
        before = state.to_json()
        yield state
        state.calls += 1
        if state.to_json() != before:
            # Written on every prompt; an fsync is a millisecond or more each time, and a state
            # lost to a power cut only means its memories are delivered once more.
            atomic_write(path, json.dumps(state.to_json(), sort_keys=True) + "\n",
                         durable=False)
    if is_new:
        prune_if_due(state_dir)


STRAY_TEMP_SECONDS = 3600  # no write takes an hour: an older temp file is a killed writer's
PRUNE_EVERY_SECONDS = 3600
PRUNE_MARKER = ".pruned"


def prune_if_due(state_dir: Path) -> None:
    """`prune` at most once an hour per state folder: it stats every session file, and a busy
    project keeps hundreds of them for a week, so pruning on each new session cost a new
    session's hook milliseconds for nothing."""
    marker = state_dir / PRUNE_MARKER
    try:
        if time.time() - marker.stat().st_mtime < PRUNE_EVERY_SECONDS:
            return
    except OSError:
        pass  # never pruned here yet
    prune(state_dir)
    with contextlib.suppress(OSError):
        marker.touch()


def prune(state_dir: Path, *, now: float | None = None, max_age: float = MAX_AGE_SECONDS) -> int:
    """Remove session files untouched for `max_age` seconds; returns how many went."""
    cutoff = (time.time() if now is None else now) - max_age
    removed = 0
    try:
        entries = list(os.scandir(state_dir))
    except OSError:
        return 0
    stray_cutoff = (time.time() if now is None else now) - STRAY_TEMP_SECONDS
    for entry in entries:
        # A process killed between writing its temp file and renaming it leaves the temp file.
        stray = entry.name.startswith(".") and entry.name.endswith(".tmp")
        if not entry.name.startswith(_PREFIX) and not stray:
            continue
        try:
            if entry.stat().st_mtime < (stray_cutoff if stray else cutoff):
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue  # another process pruned it first
    return removed
