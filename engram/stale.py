"""Staleness: a memory's `sources` compared with the hashes `engram verify` recorded in
`<workspace>/.engram/sources.lock` (committed, so the whole team shares one verdict)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cached_property
from pathlib import Path

from engram.errors import EngramError
from engram.fsutil import atomic_write
from engram.hashing import sha256
from engram.managed import BEGIN, END
from engram.model import Memory

LOCK_FILE = "sources.lock"
_BEGIN = BEGIN.encode("utf-8")
_END = END.encode("utf-8")


def file_hash(path: Path) -> str | None:
    """The file's sha256, leaving out the section `engram hooks sync` manages in an instruction
    file: engram's own generated text is no change a memory's author has to review."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    begin = data.find(_BEGIN)
    if begin >= 0:
        end = data.find(_END, begin)
        if end >= 0:
            # undo what appending the section added: one blank line before it, a newline after
            before, after = data[:begin], data[end + len(_END):]
            before = before[:-1] if before.endswith(b"\n\n") else before
            data = before + after.removeprefix(b"\n")
    return sha256(data).hexdigest()


class SourcesLock:
    """A workspace's sources.lock, read at the first question (most commands ask none)."""

    def __init__(self, engram_dir: Path | None) -> None:
        self.path = engram_dir / LOCK_FILE if engram_dir is not None else None
        self.project = engram_dir.parent if engram_dir is not None else None

    @cached_property
    def entries(self) -> dict[str, dict[str, str]]:
        if self.path is None or not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            raw = data.get("memories", {}) if isinstance(data, dict) else {}
            return {str(k): {str(p): str(h) for p, h in v.items()}
                    for k, v in raw.items() if isinstance(v, dict)}
        except (OSError, ValueError, AttributeError) as exc:
            raise EngramError(f"{self.path}: memories: not a valid sources.lock ({exc})")\
                from exc

    def is_stale(self, memory: Memory) -> bool:
        """Stale when a recorded source changed or vanished; no lock entry yet is not stale."""
        recorded = self.entries.get(memory.id)
        if not memory.sources or recorded is None or self.project is None:
            return False
        for source in memory.sources:
            if recorded.get(source) is None or file_hash(self.project / source) != recorded[source]:
                return True
        return False

    def changed(self, memory: Memory) -> list[str]:
        """The sources recorded for this memory whose file is now different or gone."""
        recorded = self.entries.get(memory.id)
        if recorded is None or self.project is None:
            return []
        return [s for s in memory.sources if recorded.get(s) is not None
                and file_hash(self.project / s) != recorded[s]]

    def record(self, memories: Iterable[Memory]) -> list[str]:
        """Record current source hashes; returns problems (missing source files), and then
        writes nothing: a lock recording only part of what was asked would look verified."""
        if self.path is None or self.project is None:
            raise EngramError("verify: no workspace .engram/ folder to write sources.lock into")
        problems: list[str] = []
        for memory in memories:
            if not memory.sources:
                continue
            hashes: dict[str, str] = {}
            for source in memory.sources:
                digest = file_hash(self.project / source)
                if digest is None:
                    problems.append(f"{memory.rel_path}:1: sources: {source} does not exist")
                else:
                    hashes[source] = digest
            self.entries[memory.id] = hashes
        if problems:
            return problems
        payload = {"version": 1, "memories": {k: dict(sorted(v.items()))
                                               for k, v in sorted(self.entries.items())}}
        # Committed with the project, so it gets a normal file mode, not a private one.
        atomic_write(self.path, json.dumps(payload, indent=2, sort_keys=True) + "\n",
                     shared=True)
        return problems
