"""Near-duplicate memories: bottom-k shingle sketches computed at index time, grouped without
any pairwise pass over the whole scope.

A pack holds at most one member of a group; `check` and `graph` report the groups.
"""

from __future__ import annotations

import heapq
import json
import re
import sqlite3
import zlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

SHINGLE_WORDS = 5
SKETCH_SIZE = 32
BAND_KEYS = 4  # the smallest hashes double as bucket keys: near-duplicates share them
MIN_SHINGLES = 8  # too little text to call two memories duplicates
THRESHOLD = 0.9  # the dev set's definition: >= 90% of 5-word shingles shared
MAX_BUCKET = 64  # a bucket that large is boilerplate, not duplication
_WORD = re.compile(r"\w+")


def body_signature(text: str) -> list[int]:
    """The SKETCH_SIZE smallest 32-bit hashes of the text's 5-word shingles (sorted)."""
    words = _WORD.findall(text.lower())
    if len(words) < SHINGLE_WORDS + MIN_SHINGLES - 1:
        return []
    hashes = {zlib.crc32(" ".join(words[i:i + SHINGLE_WORDS]).encode())
              for i in range(len(words) - SHINGLE_WORDS + 1)}
    return sorted(heapq.nsmallest(SKETCH_SIZE, hashes))


def similarity(a: Sequence[int], b: Sequence[int]) -> float:
    """Bottom-k estimate of the Jaccard similarity of the two shingle sets."""
    if not a or not b:
        return 0.0
    union = heapq.nsmallest(SKETCH_SIZE, set(a) | set(b))
    both = set(a) & set(b)
    return sum(1 for h in union if h in both) / len(union)


def groups(signatures: Mapping[str, Sequence[int]]) -> dict[str, str]:
    """id -> group name (the group's lexically first id), for members of groups only."""
    buckets: defaultdict[int, list[str]] = defaultdict(list)
    for mid, signature in signatures.items():
        for h in signature[:BAND_KEYS]:
            buckets[h].append(mid)
    return connect(buckets.values(), signatures)


def connect(buckets: Iterable[list[str]], signatures: Mapping[str, Sequence[int]]
            ) -> dict[str, str]:
    """Groups from buckets of ids sharing a band key: the connected components of bucket mates
    at least THRESHOLD alike, each named by its lexically first id. Neither the order of the
    buckets nor of their members changes the result."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for members in buckets:
        if len(members) < 2 or len(members) > MAX_BUCKET:
            continue
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                if find(a) != find(b) and similarity(signatures[a], signatures[b]) >= THRESHOLD:
                    ra, rb = sorted((find(a), find(b)))
                    parent[rb] = ra
    out: dict[str, str] = {}
    for mid in parent:
        out[mid] = find(mid)
    for root in set(out.values()):
        out[root] = root
    return out


def assign_groups(conn: sqlite3.Connection, found: dict[str, str]) -> None:
    """Store the groups of the whole scope (a full refresh): id -> group name."""
    conn.execute("UPDATE memories SET dup_group=NULL WHERE dup_group IS NOT NULL")
    conn.executemany("UPDATE memories SET dup_group=? WHERE id=? AND active=1",
                     ((group, mid) for mid, group in sorted(found.items())))


def reassign_groups(conn: sqlite3.Connection, changed: set[int], old_groups: set[str]) -> None:
    """Regroup only what an edit can affect: the changed memories, the members of the groups
    they left, and everything that shares a bucket with those, transitively. Groups are
    connected components of bucket-sharing pairs, so this gives what a full pass gives."""
    frontier = set(changed)
    for group in sorted(old_groups):
        frontier.update(k for (k,) in conn.execute(
            "SELECT mem FROM memories WHERE dup_group=?", (group,)))
    seen: set[int] = set()
    while frontier:
        key = frontier.pop()
        if key in seen:
            continue
        seen.add(key)
        for (band,) in conn.execute("SELECT band FROM bands WHERE mem=?", (key,)).fetchall():
            mates = [m for (m,) in conn.execute("SELECT mem FROM bands WHERE band=? LIMIT ?",
                                                (band, MAX_BUCKET + 1))]
            if len(mates) <= MAX_BUCKET:
                frontier.update(m for m in mates if m not in seen)
    if not seen:
        return
    rows: list[tuple[int, str, str | None]] = []
    ordered = sorted(seen)
    for start in range(0, len(ordered), 500):
        chunk = ordered[start:start + 500]
        marks = ",".join("?" * len(chunk))
        rows += conn.execute(f"SELECT mem, id, signature FROM memories WHERE active=1 AND"
                             f" mem IN ({marks})", chunk).fetchall()
    found = groups({mid: json.loads(sig) for _, mid, sig in rows if sig and sig != "[]"})
    conn.executemany("UPDATE memories SET dup_group=? WHERE mem=?",
                     ((found.get(mid), key) for key, mid, _ in sorted(rows)))
