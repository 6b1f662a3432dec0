"""Posting blocks: the index stores a term's postings as a few packed runs, not a row each.

A row per (term, memory) made SQLite's B-tree the cost of a cold index (1.4 million inserts at
10,000 memories, growing faster than linearly); a block per (term, batch of memories) is a
handful of rows per term, and a query decodes a whole block in C with `struct.iter_unpack`.

Each entry is (memory key, packed field counts, packed field lengths, default-weighted length);
a block's entries are sorted by key, so removing one is a binary search. Every block carries a
CRC-32: SQLite notices a damaged B-tree page, but not damaged bytes inside a large value, and a
garbled block must make the index rebuild, never route from invented keys.
"""

from __future__ import annotations

import sqlite3
import struct
import zlib
from collections import defaultdict
from collections.abc import Iterable
from functools import lru_cache

ENTRY = struct.Struct("<IQQd")
Entry = tuple[int, int, int, float]
FLUSH_BYTES = 64 * 1024 * 1024  # blocks held in memory before they are written
TAIL_BYTES = 64 * ENTRY.size  # an edit's entries join a term's last block up to this size
# A block is rewritten whole when one of its memories is edited: a common term's postings in one
# block would make a first edit rewrite megabytes per term (39 MB at 10k memories, ten times
# that at 100k), where a few more rows per term cost a query next to nothing.
BLOCK_BYTES = 512 * ENTRY.size


Row = tuple[str, int, int, int, bytes]  # (term, first key, last key, CRC-32, block)


def decode(blocks: Iterable[tuple[int, bytes]]) -> list[Entry]:
    """The entries of (CRC-32, block) pairs, in order; a damaged block raises DatabaseError,
    which the read path answers by rebuilding the index."""
    blobs = []
    for crc, blob in blocks:
        if not isinstance(blob, bytes) or checksum(blob) != crc or len(blob) % ENTRY.size:
            raise sqlite3.DatabaseError("posting block fails its checksum")
        blobs.append(blob)
    return list(ENTRY.iter_unpack(b"".join(blobs)))


def decode_columns(blocks: Iterable[tuple[int, bytes]]
                   ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[float, ...]]:
    """The entries of `decode` as four columns (keys, packed counts, packed lengths, default
    lengths): each block is unpacked in one C call and split by slicing, with no Python work
    or tuple per entry (a common term has an entry in most memories)."""
    flat: list[int | float] = []
    for crc, blob in blocks:
        if not isinstance(blob, bytes) or checksum(blob) != crc or len(blob) % ENTRY.size:
            raise sqlite3.DatabaseError("posting block fails its checksum")
        flat += _run(len(blob) // ENTRY.size).unpack(blob)
    return (tuple(flat[0::4]), tuple(flat[1::4]),  # type: ignore[arg-type]
            tuple(flat[2::4]), tuple(flat[3::4]))  # type: ignore[arg-type]


@lru_cache(maxsize=64)
def _run(count: int) -> struct.Struct:
    """The layout of `count` entries in a row (a block holds at most 512)."""
    return struct.Struct("<" + "IQQd" * count)


def checksum(blob: bytes) -> int:
    return zlib.crc32(blob)


def key_range(blob: bytes) -> tuple[int, int]:
    """The first and last memory key of a non-empty block."""
    return ENTRY.unpack_from(blob, 0)[0], ENTRY.unpack_from(blob, len(blob) - ENTRY.size)[0]


def without(blob: bytes, key: int) -> bytes | None:
    """The block minus the entry of `key`, or None when the block has no such entry."""
    size = ENTRY.size
    lo, hi = 0, len(blob) // size
    while lo < hi:
        mid = (lo + hi) // 2
        if ENTRY.unpack_from(blob, mid * size)[0] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo * size >= len(blob) or ENTRY.unpack_from(blob, lo * size)[0] != key:
        return None
    return blob[:lo * size] + blob[(lo + 1) * size:]


class BlockWriter:
    """Collects blocks per term, in key order, and hands them out as rows in bounded batches."""

    def __init__(self) -> None:
        self._pending: defaultdict[str, list[bytes]] = defaultdict(list)
        self._size = 0

    def add(self, blocks: dict[str, bytes]) -> None:
        """Blocks of memories whose keys all follow those of the blocks added before."""
        pending = self._pending
        for term, blob in blocks.items():
            pending[term].append(blob)
        self._size += sum(map(len, blocks.values()))

    def full(self) -> bool:
        return self._size >= FLUSH_BYTES

    def take(self) -> list[Row]:
        """(term, first key, last key, CRC-32, block) rows of at most BLOCK_BYTES, sorted by
        term and key; the writer starts empty."""
        rows = []
        for term in sorted(self._pending):
            joined = b"".join(self._pending[term])
            for start in range(0, len(joined), BLOCK_BYTES):
                blob = joined[start:start + BLOCK_BYTES]
                rows.append((term, *key_range(blob), checksum(blob), blob))
        self._pending.clear()
        self._size = 0
        return rows


def build(entries: Iterable[tuple[int, Iterable[tuple[str, int]], int, float]]
          ) -> dict[str, bytes]:
    """Blocks of (key, [(term, packed counts)], packed lengths, weighted length), keys rising."""
    out: dict[str, bytearray] = {}
    pack = ENTRY.pack
    for key, term_counts, lens, dl in entries:
        for term, packed in term_counts:
            block = out.get(term)
            if block is None:
                block = out[term] = bytearray()
            block += pack(key, packed, lens, dl)
    return {term: bytes(block) for term, block in out.items()}
