"""What a refresh derives from more than one file: which of several files with one id wins,
and what a refresh changed (so dependency layers and duplicate groups are redone only where
those changes reach).

Private to engram.index.
"""

from __future__ import annotations

import json
from array import array
from collections import defaultdict
from typing import NamedTuple

from engram.index._dedupe import BAND_KEYS
from engram.index._encoding import HEAD_FIELDS, Prepared


class Stored(NamedTuple):
    key: int
    id: str
    rel: str
    depends_on: tuple[str, ...]
    level: int
    signature: array[int]


def winner_order(memory_id: str, rel: str) -> tuple[int, int, str]:
    """Which of several files with one id wins (smallest first): a file named after its id,
    then the shallowest, then the lexically first path. A stray copy (`x (copy).md`,
    `old/rules/x.md`) so never replaces `rules/x.md`, whatever its name sorts like."""
    named = rel == f"{memory_id}.md" or rel.endswith(f"/{memory_id}.md")
    return (0 if named else 1, rel.count("/"), rel)


# winner_order in SQL, for the incremental refresh and the problem report
WINNER_SQL = ("(SELECT m2.rel FROM memories m2 WHERE m2.id = {outer}.id ORDER BY"
               " CASE WHEN m2.rel = m2.id || '.md' OR substr(m2.rel, -length(m2.id) - 4)"
               " = '/' || m2.id || '.md' THEN 0 ELSE 1 END,"
               " length(m2.rel) - length(replace(m2.rel, '/', '')), m2.rel LIMIT 1)")


def winners(stored: list[Stored]) -> tuple[list[Stored], list[int]]:
    """The memory each id resolves to (`winner_order`) and the keys of the others."""
    best: dict[str, Stored] = {}
    for row in stored:
        held = best.get(row.id)
        if held is None or winner_order(row.id, row.rel) < winner_order(held.id, held.rel):
            best[row.id] = row
    keys = {row.key for row in best.values()}
    return list(best.values()), [row.key for row in stored if row.key not in keys]


class Delta:
    """What one refresh changed, so the derivation redoes only what those changes can affect."""

    def __init__(self, full: bool, totals: list[int], count: int) -> None:
        self.full = full
        self.totals = list(totals)
        self.count = count
        self.ids: set[str] = set()  # ids whose duplicate-id winner may change
        self.structure = full  # whether any dependency edge, level or id set changed
        self.dropped: dict[int, tuple[list[int], list[int]]] = {}  # key -> dedupe.forget's
        self.new_keys: set[int] = set()
        self._before: dict[str, tuple[str, tuple[str, ...], int, int]] = {}
        # A full refresh keeps what derivation needs of every memory, instead of reading and
        # decoding it all back from the tables, and buckets sketches as memories arrive (while
        # the workers are still busy).
        self.stored: list[Stored] = []
        self.buckets: defaultdict[int, list[int]] = defaultdict(list)

    def forget(self, rel: str, row: tuple[str, str, str, int, str | None]) -> None:
        mid, head, lengths, depth, group = row
        values = json.loads(head)
        deps = tuple(values[HEAD_FIELDS.index("depends_on")])
        level = values[HEAD_FIELDS.index("level")] or 0
        self._before[rel] = (mid, deps, level, depth)
        self.ids.add(mid)
        self.count -= 1
        for i, n in enumerate(json.loads(lengths)):
            self.totals[i] -= n

    def learn(self, key: int, prepared: Prepared) -> int | None:
        """Account for an inserted memory; its old depth when nothing structural changed."""
        mid, rel, deps, level = prepared.id, prepared.rel_path, prepared.depends_on, \
            prepared.level
        if self.full:
            self.stored.append(Stored(key, mid, rel, deps, level, prepared.signature))
            for band in prepared.signature[:BAND_KEYS]:
                self.buckets[band].append(key)
        self.ids.add(mid)
        self.count += 1
        self.new_keys.add(key)
        for i, n in enumerate(prepared.lengths):
            self.totals[i] += n
        before = self._before.pop(rel, None)
        if before is not None and before[:3] == (mid, deps, level):
            return before[3]
        self.structure = True
        return None

    def finish(self) -> None:
        if self._before:  # memories removed for good (or now invalid): their dependents move
            self.structure = True

