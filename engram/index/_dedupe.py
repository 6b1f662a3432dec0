"""Near-duplicate memories: bottom-k shingle sketches computed at index time, and groups that an
edit can only change near the edited memory.

Two memories are near-duplicates when they share a sketch bucket of at most MAX_BUCKET members
and are at least THRESHOLD alike. A group is a star, not a chain: its head is a memory that
comes before all its near-duplicates in `rank`, and each other member is a direct
near-duplicate of its head. So every member is at least THRESHOLD alike its group's head, and
whether a memory is a head, or which group it is in, depends only on its own near-duplicates
and theirs: an edit re-labels the edited memory's neighbours and their neighbours, never a
transitive walk over everything similar. A family of look-alikes is one group; in a chain
a ~ b ~ c (a and c not alike) with head a, c is in no group, or in another one: it is not a
near-duplicate of a, so a pack may hold both.

A pack holds at most one member of a group; `check` and `graph` report groups of two or more.
"""

from __future__ import annotations

import json
import re
import sqlite3
import zlib
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypeVar

    K = TypeVar("K", int, str)

SHINGLE_WORDS = 5
SKETCH_SIZE = 32
BAND_KEYS = 4  # the smallest hashes double as bucket keys: near-duplicates share them
MIN_SHINGLES = 8  # too little text to call two memories duplicates
THRESHOLD = 0.9  # the dev set's definition: >= 90% of 5-word shingles shared
MAX_BUCKET = 64  # a bucket that large is boilerplate, not duplication
_WORD = re.compile(r"\w+")
_CHUNK = 500  # SQLite host parameters per IN (...) list


def body_signature(text: str) -> list[int]:
    """The SKETCH_SIZE smallest 32-bit hashes of the text's 5-word shingles (sorted)."""
    words = _words(text.lower())
    if len(words) < SHINGLE_WORDS + MIN_SHINGLES - 1:
        return []
    # Shingles are joined and hashed in C.
    shingles = map(b" ".join, zip(*(words[i:] for i in range(SHINGLE_WORDS)), strict=False))
    hashes = list(map(zlib.crc32, shingles))
    # The smallest of n uniform 32-bit hashes lie below about 2**32 * k / n: past a few hundred
    # shingles, sorting the few under three times that bound is enough (a first index sketches
    # every memory, and real bodies have thousands), unless too few of them are distinct.
    if len(hashes) > _SORT_ALL:
        bound = (1 << 32) * 3 * SKETCH_SIZE // len(hashes)
        smallest = _first_distinct(sorted(filter(bound.__gt__, hashes)), SKETCH_SIZE)
        if len(smallest) == SKETCH_SIZE:
            return smallest
    return _first_distinct(sorted(hashes), SKETCH_SIZE)


_SORT_ALL = 256


def _words(lowered: str) -> list[bytes]:
    """The \\w+ runs of the text, UTF-8 encoded: its words, encoded once each, not once per
    shingle. A byte table cuts the text at every ASCII byte \\w does not match (a few times
    faster than the pattern); only a piece holding a non-ASCII letter is cut by the pattern."""
    pieces = lowered.encode().translate(_CUT_AT).split()
    if lowered.isascii():
        return pieces
    words: list[bytes] = []
    for piece in pieces:
        if piece.isascii():
            words.append(piece)
        else:
            words.extend(map(str.encode, _WORD.findall(piece.decode())))
    return words


# Every ASCII byte but a letter, digit or underscore -> space; bytes of non-ASCII characters
# stay, for the pattern to judge.
_CUT_AT = bytes(b if b >= 128 or chr(b).isalnum() or chr(b) == "_" else 32 for b in range(256))


def _first_distinct(ordered: list[int], count: int) -> list[int]:
    """The first `count` distinct values of a sorted list: sorted(set(ordered))[:count], without
    a set of all of them (a memory has hundreds of shingles and keeps 32)."""
    out: list[int] = []
    for value in ordered:
        if not out or value != out[-1]:
            out.append(value)
            if len(out) == count:
                break
    return out


def similarity(a: Sequence[int], b: Sequence[int]) -> float:
    """Bottom-k estimate of the Jaccard similarity of the two shingle sets."""
    if not a or not b:
        return 0.0
    sa = set(a)
    both = sa.intersection(b)
    if not both:
        return 0.0
    union = sorted(sa.union(b))[:SKETCH_SIZE]
    return len(both.intersection(union)) / len(union)


def alike(a: set[int], b: set[int]) -> bool:
    """Whether two sketches (as sets) are near-duplicates: `similarity` >= THRESHOLD. Most pairs
    sharing a bucket are not, and the hashes they share already bound the estimate from above,
    so most are told apart without sorting."""
    if not a or not b:
        return False
    both = a & b
    if len(both) / min(SKETCH_SIZE, len(a) + len(b) - len(both)) < THRESHOLD:
        return False
    union = sorted(a | b)[:SKETCH_SIZE]
    return len(both.intersection(union)) / len(union) >= THRESHOLD


def pairs(buckets: Iterable[Sequence[K]], signatures: Mapping[K, Sequence[int]]
          ) -> set[tuple[K, K]]:
    """Every (a, b), a < b, sharing a bucket of 2..MAX_BUCKET members and THRESHOLD alike."""
    seen: set[tuple[K, K]] = set()
    found: set[tuple[K, K]] = set()
    for members in buckets:
        if len(members) < 2 or len(members) > MAX_BUCKET:
            continue
        ordered = sorted(members)
        sets = [set(signatures[m]) for m in ordered]  # per bucket: 100k sets would not fit
        for i, a in enumerate(ordered):
            for j in range(i + 1, len(ordered)):
                b = ordered[j]
                if (a, b) not in seen:
                    seen.add((a, b))
                    if alike(sets[i], sets[j]):
                        found.add((a, b))
    return found


def adjacency(edges: Iterable[tuple[K, K]]) -> dict[K, set[K]]:
    out: dict[K, set[K]] = {}
    for a, b in edges:
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return out


def rank(mid: str) -> tuple[int, str]:
    """A memory's place in the order that picks heads: a hash of its id, not the id itself,
    so that in a chain of near-duplicates (which ids often follow: `x-1`, `x-2`, ...) heads
    are spread along it and most of it is grouped in stars."""
    return zlib.crc32(mid.encode()), mid


def is_head(key: K, near: Mapping[K, Collection[K]], ids: Mapping[K, str],
            active: Collection[K]) -> bool:
    """An active memory with an active near-duplicate, first in `rank` among them all."""
    if key not in active:
        return False
    mates = [rank(ids[m]) for m in near.get(key, ()) if m in active]
    return bool(mates) and rank(ids[key]) < min(mates)


def label(key: K, near: Mapping[K, Collection[K]], ids: Mapping[K, str],
          active: Collection[K], head: Mapping[K, bool]) -> str | None:
    """The group name of one memory (its head's id, the first head in `rank` when it is a
    near-duplicate of several), None when it is in no group."""
    if key not in active:
        return None
    if head[key]:
        return ids[key]
    names = [rank(ids[m]) for m in near.get(key, ()) if m in active and head[m]]
    return min(names)[1] if names else None


def groups(signatures: Mapping[K, Sequence[int]], ids: Mapping[K, str],
           active: Collection[K]) -> dict[str, str]:
    """id -> group name, for members of groups of two or more, computed from scratch: the
    definition an index's stored groups are held to. Memories are keyed by K; the ones that
    lost a duplicate-id contest (not `active`) count in buckets but join no group."""
    buckets: dict[int, list[K]] = {}
    for key, signature in signatures.items():
        for h in set(signature[:BAND_KEYS]):
            buckets.setdefault(h, []).append(key)
    near = adjacency(pairs(buckets.values(), signatures))
    head = {k: is_head(k, near, ids, active) for k in signatures}
    named = {ids[k]: label(k, near, ids, active, head) for k in signatures if k in active}
    sizes: dict[str, int] = {}
    for name in named.values():
        if name is not None:
            sizes[name] = sizes.get(name, 0) + 1
    return {m: name for m, name in named.items() if name is not None and sizes[name] > 1}


# -- the index's copy -------------------------------------------------------------------------
# The `near` table holds every near-duplicate pair in both directions, whether or not the two
# memories are active (a duplicate-id contest can switch one on or off without an edit), and
# `memories.dup_group` each active memory's group name: a head's own id (also for a head whose
# near-duplicates all joined other heads, so the stored name says which memories are heads).

def assign_all(conn: sqlite3.Connection, buckets: Iterable[Sequence[int]],
               signatures: Mapping[int, Sequence[int]], ids: Mapping[int, str],
               active: Collection[int]) -> None:
    """Store the pairs and groups of the whole scope (a full refresh, into empty tables)."""
    found = pairs(buckets, signatures)
    conn.executemany("INSERT INTO near VALUES (?,?)",
                     sorted(e for a, b in found for e in ((a, b), (b, a))))
    near = adjacency(found)
    head = {k: is_head(k, near, ids, active) for k in near}
    conn.executemany("UPDATE memories SET dup_group=? WHERE mem=?", sorted(
        (name, k) for k in near if (name := label(k, near, ids, active, head)) is not None))


def forget(conn: sqlite3.Connection, key: int) -> tuple[list[int], list[int]]:
    """Take a memory about to be deleted out of the buckets and pairs: (its bucket keys, its
    near-duplicates), which the regrouping after the edit needs."""
    bands = [b for (b,) in conn.execute("SELECT band FROM bands WHERE mem=?", (key,))]
    mates = [m for (m,) in conn.execute("SELECT mate FROM near WHERE mem=?", (key,))]
    conn.execute("DELETE FROM bands WHERE mem=?", (key,))
    # Pairs are stored both ways: look each up by its first column (`mate` has no index).
    conn.execute("DELETE FROM near WHERE mem=?", (key,))
    conn.executemany("DELETE FROM near WHERE mem=? AND mate=?", ((m, key) for m in mates))
    return bands, mates


class _Rows:
    """Columns of the memories an edit touches, read once each."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.ids: dict[int, str] = {}
        self.active: set[int] = set()
        self.group: dict[int, str | None] = {}
        self.signature: dict[int, list[int]] = {}
        self.near: dict[int, set[int]] = {}

    def load(self, keys: Iterable[int], signatures: bool = False) -> None:
        wanted = sorted(k for k in set(keys) if k not in self.ids
                        or (signatures and k not in self.signature))
        for start in range(0, len(wanted), _CHUNK):
            chunk = wanted[start:start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            column = "signature" if signatures else "NULL"
            for key, mid, active, group, sig in self.conn.execute(
                    f"SELECT mem, id, active, dup_group, {column} FROM memories"
                    f" WHERE mem IN ({marks})", chunk):
                self.ids[key], self.group[key] = mid, group
                if active:
                    self.active.add(key)
                if signatures:
                    self.signature[key] = json.loads(sig) if sig else []

    def mates(self, key: int) -> set[int]:
        if key not in self.near:
            self.near[key] = {m for (m,) in self.conn.execute(
                "SELECT mate FROM near WHERE mem=?", (key,))}
        return self.near[key]


def reassign(conn: sqlite3.Connection, new_keys: Collection[int],
             dropped: Mapping[int, tuple[list[int], list[int]]], ids: Collection[str]) -> None:
    """Regroup after an edit: `new_keys` were inserted (their bands stored), `dropped` removed
    (`forget`), and `ids` may have a new duplicate-id winner. Only the memories whose pairs
    change (the new ones, the near-duplicates of the new and removed ones, the members of a
    bucket that crossed MAX_BUCKET), whose head may change, and the neighbours of a memory
    whose headship changed are looked at."""
    rows = _Rows(conn)
    # Buckets whose size crossed MAX_BUCKET: every member's pairs change.
    moved: dict[int, int] = {}
    new_bands: dict[int, list[int]] = {}
    for key in sorted(new_keys):
        new_bands[key] = [b for (b,) in conn.execute("SELECT band FROM bands WHERE mem=?",
                                                     (key,))]
        for band in new_bands[key]:
            moved[band] = moved.get(band, 0) + 1
    for bands, _ in dropped.values():
        for band in bands:
            moved[band] = moved.get(band, 0) - 1
    rescan = set(new_keys)
    members: dict[int, list[int]] = {}
    for band, change in sorted(moved.items()):
        members[band] = [m for (m,) in conn.execute(
            "SELECT mem FROM bands WHERE band=? LIMIT ?", (band, MAX_BUCKET + abs(change) + 1))]
        after = len(members[band])
        if (after <= MAX_BUCKET) != (after - change <= MAX_BUCKET):
            rescan.update(members[band])
    touched: set[int] = set()  # memories whose pairs or near-duplicates' activity changed
    for _, mates in dropped.values():
        touched.update(mates)
    for key in sorted(rescan):
        bands = new_bands[key] if key in new_bands else [
            b for (b,) in conn.execute("SELECT band FROM bands WHERE mem=?", (key,))]
        candidates: set[int] = set()
        for band in bands:
            if band not in members:
                members[band] = [m for (m,) in conn.execute(
                    "SELECT mem FROM bands WHERE band=? LIMIT ?", (band, MAX_BUCKET + 1))]
            if 2 <= len(members[band]) <= MAX_BUCKET:
                candidates.update(members[band])
        candidates.discard(key)
        rows.load([key, *candidates], signatures=True)
        mine = set(rows.signature[key])
        now = {m for m in candidates if alike(mine, set(rows.signature[m]))}
        before = rows.mates(key)
        for gone in before - now:
            conn.execute("DELETE FROM near WHERE (mem=? AND mate=?) OR (mem=? AND mate=?)",
                         (key, gone, gone, key))
            rows.mates(gone).discard(key)
        for new in sorted(now - before):
            conn.executemany("INSERT INTO near VALUES (?,?)", ((key, new), (new, key)))
            rows.mates(new).add(key)
        touched |= {key} | before | now
        rows.near[key] = now
    switched = [k for mid in sorted(ids) for (k,) in conn.execute(
        "SELECT mem FROM memories WHERE id=?", (mid,))]
    for key in switched:
        touched |= {key} | rows.mates(key)
    _relabel(conn, rows, touched)


def _relabel(conn: sqlite3.Connection, rows: _Rows, touched: set[int]) -> None:
    for key in touched:
        rows.mates(key)
    rows.load(touched | {m for k in touched for m in rows.near[k]})
    touched &= set(rows.ids)  # a memory removed in this very refresh is gone
    head = {k: is_head(k, rows.near, rows.ids, rows.active) for k in touched}
    changed = {k for k in touched if head[k] != (rows.group.get(k) == rows.ids[k])}
    redo = touched | {m for k in changed for m in rows.near[k]}
    for key in redo:
        rows.mates(key)
    rows.load(m for k in redo for m in rows.near[k])
    for key in redo:
        for mate in rows.near[key]:
            if mate not in head:  # unchanged pairs and activity: the stored name still says
                head[mate] = rows.group.get(mate) == rows.ids.get(mate)
        head.setdefault(key, rows.group.get(key) == rows.ids[key])
    updates = []
    for key in sorted(redo):
        name = label(key, rows.near, rows.ids, rows.active, head)
        if name != rows.group.get(key):
            updates.append((name, key))
    conn.executemany("UPDATE memories SET dup_group=? WHERE mem=?", updates)
