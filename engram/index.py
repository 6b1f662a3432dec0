"""The persisted, incremental index of one scope root (`<root>/.cache/index.sqlite`).

A warm load stats every file and re-parses only what changed; term postings, per-field lengths,
compiled path globs and dependency layers are stored as plain rows, so the hot path needs
neither a graph library nor a parser.
"""

from __future__ import annotations

import gc
import itertools
import json
import os
import sqlite3
import sys
from array import array
from collections import Counter, defaultdict, deque
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, nullcontext, suppress
from pathlib import Path

from engram import postings as blocks
from engram.config import DEFAULT_FIELD_WEIGHTS
from engram.dedupe import BAND_KEYS, assign_all, body_signature, forget, reassign
from engram.discover import (
    FileStat,
    IgnoreRules,
    Listing,
    compile_globs,
    ignore_signature,
    listing_signature,
    walk,
)
from engram.errors import IndexWriteError
from engram.fsutil import file_lock
from engram.layers import layers as dependency_layers
from engram.model import SCANNER_VERSION, Finding, Memory, Problem
from engram.paths import CACHE_DIRNAME, derived_dir
from engram.records import TYPE_CHECKING, NamedTuple, as_dict, field_types
from engram.tokenize import seed_stems, stem_cache, take_fresh, tokens

if TYPE_CHECKING:
    from typing import Any

SCHEMA_VERSION = "17"  # 4: brace globs; 5: `head` column; 6: lengths in postings, restricted;
# 11: posting blocks; 12: term lists one per line; 13: block checksums; 14: covering indexes;
# 15: safety verdicts; 16: near-duplicate pairs, star groups; 17: exclusion clauses from every
# paragraph of the body
INDEX_FILE = "index.sqlite"

# Field order is fixed: per-field counts are packed into one integer per posting, 9 bits each.
FIELDS = ("id", "tags", "directive", "triggers", "summary", "body", "negative")
STRONG_FIELDS = frozenset({"id", "tags", "directive"})
_BITS = 9
_CAP = (1 << _BITS) - 1
# The bits of the packed counts that belong to id, tags and directive: a strong hit.
STRONG_MASK = sum(_CAP << (i * _BITS) for i, name in enumerate(FIELDS) if name in STRONG_FIELDS)
# The bits of every field that scores: all but the last, the terms of exclusion clauses.
SCORING_MASK = (1 << (FIELDS.index("negative") * _BITS)) - 1
_LIST_FIELDS = {name for name, kind in field_types(Memory).items() if kind == "tuple[str, ...]"}


def unpack_counts(packed: int) -> tuple[int, ...]:
    return tuple((packed >> (i * _BITS)) & _CAP for i in range(len(FIELDS)))


# Field lengths ride along in every posting, so BM25 needs no per-memory lookup: 8 bits for
# each short field, 23 for the body (larger values saturate; a memory is at most 256 KiB).
_LEN_BITS = (8, 8, 8, 8, 8, 23)


def pack_lengths(lengths: Sequence[int]) -> int:
    packed, shift = 0, 0
    for n, bits in zip(lengths, _LEN_BITS, strict=False):
        packed |= min(n, (1 << bits) - 1) << shift
        shift += bits
    return packed


def unpack_lengths(packed: int) -> tuple[int, ...]:
    out, shift = [], 0
    for bits in _LEN_BITS:
        out.append((packed >> shift) & ((1 << bits) - 1))
        shift += bits
    return (*out, 0)  # the negative field has no length: it never scores


class Restriction(NamedTuple):
    """The fields of a memory that can exclude it by lifecycle or role."""

    lifecycle: str
    superseded_by: str | None
    valid_from: str | None
    valid_until: str | None
    roles: tuple[str, ...]


class Restrictions:
    """Restriction by memory key, decoded only for the keys asked about: a large corpus has
    thousands of restricted memories, and a query meets few of them."""

    def __init__(self, rows: dict[int, tuple[Any, ...]]) -> None:
        self._rows = rows

    def get(self, key: int) -> Restriction | None:
        row = self._rows.get(key)
        if row is None:
            return None
        _, lifecycle, by, valid_from, valid_until, roles = row
        return Restriction(lifecycle, by, valid_from, valid_until,
                           tuple(json.loads(roles)) if roles != "[]" else ())


def is_restricted(memory: Memory) -> bool:
    """Whether lifecycle or roles can exclude it: routing loads such records for every query."""
    return bool(memory.lifecycle in ("superseded", "archived") or memory.valid_from
                or memory.valid_until or memory.roles)


class Record(NamedTuple):
    """A memory as the index holds it: the parsed fields plus what was derived at index time."""

    key: int
    memory: Memory
    lengths: tuple[int, ...]  # tokens per field, FIELDS order
    depth: int  # dependency layer: max(level, 1 + deepest prerequisite)
    dup_group: str | None
    path_globs: tuple[tuple[str, bool], ...]


def field_texts(memory: Memory) -> dict[str, list[str]]:
    """The token lists per routing field; negation clauses are taken out of positive fields."""
    summary = memory.summary or ""
    directive = memory.directive or ""
    body = memory.indexed_body
    for clause in memory.negations:
        summary = summary.replace(clause, " ")
        directive = directive.replace(clause, " ")
        body = body.replace(clause, " ")
    return {
        "id": tokens(memory.id),
        "tags": [t for tag in memory.tags for t in tokens(tag)],
        "directive": tokens(directive),
        "triggers": [t for trig in memory.triggers for t in tokens(trig)],
        "summary": tokens(summary),
        "body": tokens(body),
        "negative": [t for clause in memory.negations for t in tokens(clause)],
    }


_MEMORY_FIELDS = tuple(field_types(Memory))


def memory_to_json(memory: Memory) -> str:
    # Memory holds only strings, numbers and tuples of strings: a flat dict is enough, and
    # dataclasses.asdict's deep copy was a tenth of a cold index.
    return json.dumps({name: getattr(memory, name) for name in _MEMORY_FIELDS},
                      sort_keys=True, separators=(",", ":"))


def memory_from_json(text: str) -> Memory:
    data = json.loads(text)
    for name in _LIST_FIELDS:
        if name in data:
            data[name] = tuple(data[name])
    return Memory(**data)


# What routing reads from every candidate (exclusions, multipliers, expansion, narrowing tags,
# session packs). A common anchor makes thousands of candidates, and decoding each one's full
# record costs more than all the scoring: these fields live in a small `head` column instead.
HEAD_FIELDS = ("id", "type", "scope", "rel_path", "sha256", "tags", "depends_on", "level",
               "confidence", "roles", "lifecycle", "review_after", "valid_from", "valid_until",
               "sources", "superseded_by", "load")
_HEAD_LISTS = tuple(i for i, name in enumerate(HEAD_FIELDS) if name in _LIST_FIELDS)
_FIELD_NAMES = tuple(field_types(Memory))


def memory_head(memory: Memory) -> str:
    return json.dumps([getattr(memory, name) for name in HEAD_FIELDS], separators=(",", ":"))


class _Deferred:
    """A field outside the head: the first read decodes the full record into the instance
    (whose `__dict__` then wins over this non-data descriptor, so later reads are plain)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: Memory | None, owner: type) -> object:
        if obj is None:
            return getattr(Memory, self.name)
        state = obj.__dict__
        state.update(vars(memory_from_json(state.pop("_data"))))
        return state[self.name]


class _LazyMemory(Memory):
    """A Memory built from the `head` column; any other field decodes the full record on first
    use, so it is indistinguishable from the Memory the parser made (equal, same hash)."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Memory):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in _FIELD_NAMES)

    __hash__ = Memory.__hash__

    def __repr__(self) -> str:
        return "Memory" + Memory.__repr__(self).removeprefix(type(self).__qualname__)


for _name in _FIELD_NAMES:
    if _name not in HEAD_FIELDS:
        setattr(_LazyMemory, _name, _Deferred(_name))


def lazy_memory(head: str, data: str) -> Memory:
    values = json.loads(head)
    for i in _HEAD_LISTS:
        values[i] = tuple(values[i])
    memory = object.__new__(_LazyMemory)
    memory.__dict__.update(zip(HEAD_FIELDS, values, strict=True))
    memory.__dict__["_data"] = data
    return memory


class _Stored(NamedTuple):
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
_WINNER_SQL = ("(SELECT m2.rel FROM memories m2 WHERE m2.id = {outer}.id ORDER BY"
               " CASE WHEN m2.rel = m2.id || '.md' OR substr(m2.rel, -length(m2.id) - 4)"
               " = '/' || m2.id || '.md' THEN 0 ELSE 1 END,"
               " length(m2.rel) - length(replace(m2.rel, '/', '')), m2.rel LIMIT 1)")


def _winners(stored: list[_Stored]) -> tuple[list[_Stored], list[int]]:
    """The memory each id resolves to (`winner_order`) and the keys of the others."""
    best: dict[str, _Stored] = {}
    for row in stored:
        held = best.get(row.id)
        if held is None or winner_order(row.id, row.rel) < winner_order(held.id, held.rel):
            best[row.id] = row
    keys = {row.key for row in best.values()}
    return list(best.values()), [row.key for row in stored if row.key not in keys]


class _Delta:
    """What one refresh changed, so `_derive` redoes only what those changes can affect."""

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
        self.stored: list[_Stored] = []
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
            self.stored.append(_Stored(key, mid, rel, deps, level, prepared.signature))
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


class ScopeIndex:
    """One scope's index; open with `ScopeIndex.open(root, scope)` and call `refresh()`."""

    def __init__(self, root: Path, scope: str, conn: sqlite3.Connection, db_path: str) -> None:
        self.root = root
        self.scope = scope
        self.conn = conn
        self.db_path = db_path
        self.walk_problems: list[Problem] = []
        self._delta = _Delta(full=True, totals=[0] * len(FIELDS), count=0)
        self._just_built = False  # open() built the file from scratch: refresh has nothing to do

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def open(cls, root: Path, scope: str) -> ScopeIndex:
        cache = derived_dir(root, CACHE_DIRNAME)
        db_path = str(cache / INDEX_FILE) if cache is not None else ":memory:"
        conn, built = _connect_building(root, scope, db_path)
        index = cls(root, scope, conn, db_path)
        index._adopt(built)
        return index

    def _adopt(self, built: list[Problem] | None) -> None:
        """Take over what opening built from scratch (its walk's problems), if it did."""
        if built is not None:
            self.walk_problems = built
        self._just_built = built is not None

    def close(self) -> None:
        with suppress(sqlite3.Error):
            self.conn.close()

    # -- freshness ---------------------------------------------------------------------------
    def refresh(self, force: bool = False) -> bool:
        """Bring the index up to date with the files; True when anything was re-indexed."""
        try:
            return self._take_just_built() or self._refresh(force)
        except sqlite3.DatabaseError as exc:
            if not is_corrupt(exc):  # the file is fine, and other processes may be using it
                raise IndexWriteError(f"{self.db_path}: cannot update the index: {exc}") from exc
            # A corrupt cache is never trusted and never fatal: start over from the files.
            self._reset()
            return self._take_just_built() or self._refresh(True)

    def _take_just_built(self) -> bool:
        built, self._just_built = self._just_built, False
        return built

    def _reset(self) -> None:
        self.close()
        _unlink_database(self.db_path)
        self.conn, built = _connect_building(self.root, self.scope, self.db_path)
        self._adopt(built)

    def _refresh(self, force: bool) -> bool:
        known = self.meta("listing") or ""
        stats, self.walk_problems = walk(self.root)
        ignore_sig = ignore_signature(self.root)
        listing = f"{len(stats)}:{listing_signature(stats)}"
        if not force and known == listing and self.meta("ignore") == ignore_sig \
                and self.meta("version") == SCHEMA_VERSION:
            return False  # same files, sizes and mtimes as at the last refresh: nothing to do
        if not force and not self._diff(stats, ignore_sig):
            self._remember_listing(listing)
            return False
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have refreshed while we waited for the write lock.
            full = force or self.meta("ignore") != ignore_sig
            if full:
                for table in ("files", "memories", "postings", "stems", "bands", "near"):
                    conn.execute(f"DELETE FROM {table}")
                self._set_meta("doc_count", "0")
                self._set_meta("field_totals", json.dumps([0] * len(FIELDS)))
            self._delta = _Delta(full=full, totals=self.field_totals(),
                                 count=self.doc_count())
            changed, removed = self._changes(stats)
            if not changed and not removed and self.meta("ignore") == ignore_sig:
                conn.execute("COMMIT")
                return False
            bulk = len(changed) > BULK_FILES
            if bulk:
                # Memory rows, bands and blocks land all over their B-trees: with SQLite's
                # default 2 MB page cache a large re-index thrashes (this connection only lives
                # for one command, so the bigger cache goes with it).
                conn.execute(f"PRAGMA cache_size=-{BULK_CACHE_KIB}")
            if full:
                # Sketch bands land in random order: indexing them once at the end is cheaper
                # than keeping two indexes up to date row by row.
                conn.execute("DROP INDEX IF EXISTS bands_band")
                conn.execute("DROP INDEX IF EXISTS bands_mem")
            with _collector_paused() if bulk else nullcontext():
                self._apply(changed, removed)
            if full:
                conn.execute("CREATE INDEX bands_band ON bands(band)")
                conn.execute("CREATE INDEX bands_mem ON bands(mem)")
            # Word -> stem pairs seen while indexing: a warm query looks its words up here
            # instead of importing snowball.
            conn.executemany("INSERT OR IGNORE INTO stems VALUES (?,?)",
                             sorted(stem_cache().items()))
            self._set_meta("ignore", ignore_sig)
            self._set_meta("listing", listing)
            self._derive()
            conn.execute("COMMIT")
        except BaseException:
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise
        return True

    def invalidate(self, rel: str) -> None:
        """Make the next refresh re-parse this file even though its stat looks unchanged (the
        hash check before printing saw different content)."""
        self.conn.execute("UPDATE files SET mtime_ns=-1 WHERE rel=?", (rel,))
        self.conn.execute("DELETE FROM meta WHERE key='listing'")

    def _remember_listing(self, listing: str) -> None:
        with suppress(sqlite3.OperationalError):  # busy or read-only: only an optimisation
            self._set_meta("listing", listing)

    def _diff(self, stats: Listing, ignore_sig: str) -> bool:
        if self.meta("ignore") != ignore_sig or self.meta("version") != SCHEMA_VERSION:
            return True
        changed, removed = self._changes(stats)
        return bool(changed or removed)

    def _changes(self, stats: Listing) -> tuple[list[FileStat], list[str]]:
        known = {rel: (m, s) for rel, m, s in
                 self.conn.execute("SELECT rel, mtime_ns, size FROM files")}
        # Sorted: the walk's order is the file system's, and keys are assigned in this order.
        changed = sorted(FileStat(rel, m, s) for rel, m, s in stats
                         if known.pop(rel, None) != (m, s))
        return changed, sorted(known)

    def _apply(self, changed: list[FileStat], removed: list[str]) -> None:
        conn = self.conn
        ignore = IgnoreRules(self.root)
        for rel in removed:
            self._drop(rel)
        wanted: list[FileStat] = []
        for stat in changed:
            if not self._delta.full:  # a full refresh starts from empty tables
                self._drop(stat.rel)
            if ignore.ignored(stat.rel):
                conn.execute("INSERT INTO files VALUES (?,?,?,?,?,1,'[]')",
                             (stat.rel, stat.mtime_ns, stat.size, "", None))
                continue
            wanted.append(stat)
        first_key = int(conn.execute("SELECT coalesce(max(mem), 0) + 1 FROM memories"
                                     ).fetchone()[0])
        writer = blocks.BlockWriter()
        for batch, made in _prepare_all(self.root, self.scope, wanted, first_key):
            stored = [(key, prepared) for _, key, prepared, _ in batch if prepared is not None]
            self._store(stored)
            conn.executemany("INSERT INTO files VALUES (?,?,?,?,?,0,?)", (
                (stat.rel, stat.mtime_ns, stat.size, prepared.sha256 if prepared else "",
                 key if prepared else None, problems)
                for stat, key, prepared, problems in batch))
            writer.add(made)
            if writer.full():
                self._write_blocks(writer.take())
        self._write_blocks(writer.take())
        if removed or not self._delta.full:  # verdicts on bytes no file holds any more
            conn.execute("DELETE FROM verdicts WHERE sha256 NOT IN (SELECT sha256 FROM files)")
        self._set_meta("version", SCHEMA_VERSION)

    def _write_blocks(self, rows: list[blocks.Row]) -> None:
        self.conn.executemany("INSERT INTO postings (term, lo, hi, crc, entries)"
                              " VALUES (?,?,?,?,?)", rows)

    def _remove_postings(self, key: int, terms: list[str]) -> None:
        """Take one memory's entries out of the blocks of its terms."""
        conn = self.conn
        for term in terms:
            for rowid, crc, blob in conn.execute(
                    "SELECT rowid, crc, entries FROM postings WHERE term=? AND lo<=? AND hi>=?",
                    (term, key, key)).fetchall():
                blocks.decode([(crc, blob)])  # never splice a damaged block
                rest = blocks.without(blob, key)
                if rest is None:
                    continue
                if rest:
                    conn.execute("UPDATE postings SET lo=?, hi=?, crc=?, entries=? WHERE rowid=?",
                                 (*blocks.key_range(rest), blocks.checksum(rest), rest, rowid))
                else:
                    conn.execute("DELETE FROM postings WHERE rowid=?", (rowid,))
                break

    def _drop(self, rel: str) -> None:
        row = self.conn.execute("SELECT mem FROM files WHERE rel=?", (rel,)).fetchone()
        if row and row[0] is not None:
            old = self.conn.execute("SELECT id, head, lengths, depth, dup_group, terms FROM"
                                    " memories WHERE mem=?", (row[0],)).fetchone()
            if old is not None:
                self._delta.forget(rel, old[:5])
                self._remove_postings(int(row[0]), old[5].split("\n") if old[5] else [])
            self._delta.dropped[row[0]] = forget(self.conn, row[0])
            self.conn.execute("DELETE FROM memories WHERE mem=?", (row[0],))
        self.conn.execute("DELETE FROM files WHERE rel=?", (rel,))

    def _store(self, stored: list[tuple[int, Prepared]]) -> None:
        conn = self.conn
        conn.executemany(
            "INSERT INTO memories (mem, id, rel, data, head, lengths, globs, signature,"
            " restricted, lifecycle, superseded_by, valid_from, valid_until, roles, terms,"
            " depth, dup_group, active) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,0,NULL,1)",
            ((key, *prepared.columns) for key, prepared in stored))
        conn.executemany("INSERT INTO bands VALUES (?,?)", (
            (band, key) for key, prepared in stored
            for band in sorted(set(prepared.signature[:BAND_KEYS]))))
        conn.executemany("INSERT OR REPLACE INTO verdicts VALUES (?,?,?)", (
            (*prepared.verdict[:1], SCANNER_VERSION, prepared.verdict[1])
            for _, prepared in stored if prepared.verdict is not None))
        for key, prepared in stored:
            depth = self._delta.learn(key, prepared)
            if depth is not None:
                conn.execute("UPDATE memories SET depth=? WHERE mem=?", (depth, key))

    def _derive(self) -> None:
        """Recompute what depends on more than one file: winners of duplicate ids, dependency
        layers, corpus statistics and near-duplicate groups. A full refresh recomputes it all;
        an edit recomputes only what the changed files can affect."""
        conn, delta = self.conn, self._delta
        delta.finish()
        self._set_meta("doc_count", str(delta.count))
        self._set_meta("field_totals", json.dumps(delta.totals))
        if delta.full:
            # Every row was just inserted active, at depth 0, in no group.
            winners, losers = _winners(delta.stored)
            conn.executemany("UPDATE memories SET active=0 WHERE mem=?",
                             ((key,) for key in sorted(losers)))
            depths = dependency_layers({w.id: w.depends_on for w in winners},
                                       {w.id: w.level for w in winners})
            conn.executemany("UPDATE memories SET depth=? WHERE mem=?",
                             ((depths[w.id], w.key) for w in winners if depths[w.id]))
            assign_all(conn, delta.buckets.values(), {s.key: s.signature for s in delta.stored},
                       {s.key: s.id for s in delta.stored}, {w.key for w in winners})
            return
        conn.executemany("UPDATE memories SET active = (rel = "
                         + _WINNER_SQL.format(outer="memories") + ") WHERE id=?",
                         ((mid,) for mid in sorted(delta.ids)))
        if delta.structure:
            self._recompute_depths()
        reassign(conn, delta.new_keys, delta.dropped, delta.ids)

    def _recompute_depths(self) -> None:
        conn = self.conn
        rows = conn.execute("SELECT mem, id, head, depth FROM memories WHERE active=1").fetchall()
        deps: dict[str, tuple[str, ...]] = {}
        levels: dict[str, int] = {}
        keys: dict[str, int] = {}
        old: dict[str, int] = {}
        dep_at, level_at = HEAD_FIELDS.index("depends_on"), HEAD_FIELDS.index("level")
        for key, mid, head, depth in rows:
            values = json.loads(head)  # the head, not the full record
            deps[mid] = tuple(values[dep_at])
            levels[mid] = values[level_at] or 0
            keys[mid] = key
            old[mid] = depth
        depths = dependency_layers(deps, levels)
        conn.executemany("UPDATE memories SET depth=? WHERE mem=?",
                         ((depths[mid], keys[mid]) for mid in keys if depths[mid] != old[mid]))

    # -- reading -------------------------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def _set_meta(self, key: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?,?)", (key, value))

    def doc_count(self) -> int:
        return int(self.meta("doc_count") or 0)

    def field_totals(self) -> list[int]:
        raw = self.meta("field_totals")
        return list(json.loads(raw)) if raw else [0] * len(FIELDS)

    def scoring_stats(self) -> tuple[int, list[int]]:
        """How many memories routing scores, and their token totals per field: the ones that
        lost a duplicate-id contest (rare; a partial index lists them) are left out, as they
        are of the postings."""
        count, totals = self.doc_count(), self.field_totals()
        for (lengths,) in self.conn.execute("SELECT lengths FROM memories WHERE active=0"):
            count -= 1
            for i, n in enumerate(json.loads(lengths)):
                totals[i] -= n
        return count, totals

    def postings(self, terms: Iterable[str]) -> dict[str, list[blocks.Entry]]:
        """term -> [(memory key, packed field counts, packed field lengths (`unpack_lengths`),
        default-weighted length)], active memories only."""
        inactive = {k for (k,) in self.conn.execute("SELECT mem FROM memories WHERE active=0")}
        out: dict[str, list[blocks.Entry]] = {}
        for term in terms:
            rows = blocks.decode(self.conn.execute(
                "SELECT crc, entries FROM postings WHERE term=? ORDER BY lo", (term,)))
            out[term] = [r for r in rows if r[0] not in inactive] if inactive else rows
        return out

    def dup_groups(self, keys: Collection[int]) -> dict[int, str]:
        """The near-duplicate group of each of these memories that is in one, read from the
        group column's index alone (no row of the large memories table)."""
        return {k: g for k, g in self.conn.execute(
            "SELECT mem, dup_group FROM memories WHERE dup_group IS NOT NULL") if k in keys}

    def restrictions(self) -> Restrictions:
        """Lifecycle and role fields of the memories they can exclude, read from plain columns
        so every query applies those exclusions exactly and cheaply."""
        return Restrictions({row[0]: row for row in self.conn.execute(
            "SELECT mem, lifecycle, superseded_by, valid_from, valid_until, roles"
            " FROM memories WHERE active=1 AND restricted=1")})

    def _rows_in(self, query: str, values: Iterable[object]) -> Iterator[tuple[Any, ...]]:
        """Rows of `query` (with one `{marks}` placeholder) for every value, in chunks that
        stay under SQLite's limit on bound parameters."""
        wanted = sorted(set(values))  # type: ignore[type-var]
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            yield from self.conn.execute(query.format(marks=",".join("?" * len(chunk))), chunk)

    def all_ids(self) -> set[str]:
        return {mid for (mid,) in self.conn.execute("SELECT id FROM memories WHERE active=1")}

    def present_ids(self, ids: Iterable[str]) -> set[str]:
        """Which of these ids an active memory of this scope has."""
        return {mid for (mid,) in self._rows_in(
            "SELECT id FROM memories WHERE active=1 AND id IN ({marks})", ids)}

    def ids_of(self, keys: Iterable[int]) -> dict[int, str]:
        return dict(self._rows_in("SELECT mem, id FROM memories WHERE mem IN ({marks})", keys))

    def records(self, keys: Iterable[int]) -> dict[int, Record]:
        return {row[0]: _record(row) for row in self._rows_in(
            "SELECT mem, head, data, lengths, depth, dup_group, globs FROM memories"
            " WHERE mem IN ({marks})", keys)}

    def all_records(self) -> list[Record]:
        return [_record(row) for row in self.conn.execute(
            "SELECT mem, head, data, lengths, depth, dup_group, globs FROM memories"
            " WHERE active=1 ORDER BY id")]

    def keys_by_id(self, ids: Iterable[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for mid in ids:
            row = self.conn.execute("SELECT mem FROM memories WHERE id=? AND active=1",
                                    (mid,)).fetchone()
            if row:
                out[mid] = int(row[0])
        return out

    def path_globbed(self) -> Iterator[tuple[int, list[tuple[str, bool]]]]:
        for key, globs in self.conn.execute(
                "SELECT mem, globs FROM memories WHERE active=1 AND globs != '[]'"):
            yield int(key), json.loads(globs)

    def hidden_by_ignore(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM files WHERE ignored=1").fetchone()[0])

    def problems(self) -> list[Problem]:
        """Every stored problem: invalid files, warnings, duplicate ids; sorted by path, line."""
        out = list(self.walk_problems)
        for (raw,) in self.conn.execute("SELECT problems FROM files WHERE problems != '[]'"):
            out.extend(Problem(**p) for p in json.loads(raw))
        for mid, rel, winner in self.conn.execute(
                "SELECT m.id, m.rel, " + _WINNER_SQL.format(outer="m")
                + " FROM memories m WHERE m.active=0"):
            out.append(Problem(rel, 1, "id", f"duplicate id '{mid}' (also in {winner}, which "
                                           "wins: a file named after its id, then the "
                                           "shallowest path, then the first by name)"))
            out.append(Problem(winner, 1, "id", f"duplicate id '{mid}' (also in {rel}); "
                                              "this file wins", "warning"))
        out.sort(key=lambda p: (p.path, p.line, p.field, p.message))
        return out

    def verdict(self, sha: str) -> tuple[Finding, ...] | None:
        """The stored safety findings on the bytes with this sha256, if the current scanner
        judged them (engram.safety.verdicts)."""
        row = self.conn.execute("SELECT findings FROM verdicts WHERE sha256=? AND scanner=?",
                                (sha, SCANNER_VERSION)).fetchone()
        if row is None:
            return None
        return tuple(Finding(kind, line, detail) for kind, line, detail in json.loads(row[0]))

    def stems(self, words: Iterable[str]) -> dict[str, str]:
        """Known stems of these words (recorded at index time)."""
        wanted = sorted(set(words))[:500]
        marks = ",".join("?" * len(wanted))
        return dict(self.conn.execute(
            f"SELECT word, stem FROM stems WHERE word IN ({marks})", wanted)) if wanted else {}


def _record(row: tuple[int, str, str, str, int, str | None, str]) -> Record:
    key, head, data, lengths, depth, dup_group, globs = row
    return Record(int(key), lazy_memory(head, data), tuple(json.loads(lengths)), int(depth),
                  dup_group, tuple((r, bool(i)) for r, i in json.loads(globs))
                  if globs != "[]" else ())


def _problem_row(problem: Problem) -> dict[str, object]:
    return as_dict(problem)


def discard(root: Path) -> None:
    """Delete a scope's index files, so the next open rebuilds it from the memory files."""
    cache = derived_dir(root, CACHE_DIRNAME)
    if cache is not None:
        _unlink_database(str(cache / INDEX_FILE))


_COMPANIONS = ("-wal", "-shm", "-journal")  # the files SQLite keeps beside a database


def _unlink_database(db_path: str) -> None:
    """Remove a database file with its WAL, shared-memory and journal companions."""
    if db_path == ":memory:":
        return
    for suffix in ("", *_COMPANIONS):
        with suppress(OSError):
            os.unlink(db_path + suffix)


def is_corrupt(exc: BaseException) -> bool:
    """A damaged index file (not a locked or read-only one): the cure is to rebuild it."""
    return isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError)


class Prepared(NamedTuple):
    """A parsed memory encoded for storage, with what deriving needs of it. All the encoding
    is done here, in a worker process, not in the one writing SQLite."""

    id: str
    rel_path: str
    sha256: str
    depends_on: tuple[str, ...]
    level: int
    lengths: list[int]
    signature: array[int]  # 32-bit hashes: compact to send and to keep for 100k memories
    # The memories row after its key: id, rel, data, head, lengths, globs, signature,
    # restricted, lifecycle, superseded_by, valid_from, valid_until, roles, terms.
    columns: tuple[object, ...]
    # The safety verdict on the file's bytes as read when indexed: (their sha256, findings).
    verdict: tuple[str, str] | None = None


def prepare(memory: Memory) -> tuple[Prepared, list[tuple[str, int]], int, float]:
    """The memory prepared, with its (term, packed per-field counts) postings in first-seen
    order, packed field lengths and default-weighted length (what BM25 reads directly)."""
    per_field = field_texts(memory)
    packed: dict[str, int] = {}
    for i, name in enumerate(FIELDS):
        shift = i * _BITS
        # Counter counts in C; a capped count never carries into the next field's bits.
        for term, count in Counter(per_field[name]).items():
            packed[term] = packed.get(term, 0) | (min(count, _CAP) << shift)
    lengths = [len(per_field[name]) for name in FIELDS]
    dl = sum(n * w for n, (_, w) in zip(lengths, DEFAULT_FIELD_WEIGHTS, strict=False))
    signature = body_signature(memory.indexed_body)
    globs = compile_globs(memory.applies_to) if memory.applies_to else []
    # Terms are words: never a line break inside one (and a third shorter than JSON).
    columns = (memory.id, memory.rel_path, memory_to_json(memory), memory_head(memory),
               json.dumps(lengths), json.dumps(globs), json.dumps(signature),
               int(is_restricted(memory)), memory.lifecycle, memory.superseded_by,
               memory.valid_from, memory.valid_until, json.dumps(list(memory.roles)),
               "\n".join(sorted(packed)))
    prepared = Prepared(memory.id, memory.rel_path, memory.sha256, memory.depends_on,
                        memory.level or 0, lengths, array("I", signature), columns)
    return prepared, list(packed.items()), pack_lengths(lengths), dl


BUSY_TIMEOUT_S = 30.0  # how long a refresh waits for another process's write to finish
BULK_FILES = 200  # a refresh re-indexing more files than this gets a bigger page cache
BULK_CACHE_KIB = 64 * 1024
PARALLEL_MIN = 400  # below this many files, starting worker processes costs more than it saves
JOB_FILES = (64, 2000)  # files per worker job: fewer, larger blocks to merge, several per worker
AHEAD = 2  # jobs in flight per worker: the workers never wait for the writer, and a 100k-memory
# index never holds more than a few thousand files' results at once

# (root, scope, files, key of the first file): the i-th file's memory gets key first + i.
_Job = tuple[str, str, list[FileStat], int]
# Per file: its stat, key, prepared memory (None when invalid) and problems (as JSON).
_Batch = tuple[list[tuple[FileStat, int, Prepared | None, str]], dict[str, bytes]]


def _prepare_files(job: _Job) -> tuple[_Batch, dict[str, str]]:
    """Parse and prepare some files, and build their posting blocks (in a worker process, or
    in this one); also the stems computed on the way."""
    from engram.safety.verdicts import judge_file

    root, scope, stats, first_key = job
    out: list[tuple[FileStat, int, Prepared | None, str]] = []
    entries = []
    for key, stat in enumerate(stats, start=first_key):
        memory, problems = _parse_file(Path(root), stat, scope)
        prepared = None
        if memory is not None:
            prepared, term_counts, lens, dl = prepare(memory)
            prepared = prepared._replace(verdict=judge_file(Path(root) / stat.rel, memory))
            entries.append((key, term_counts, lens, dl))
        out.append((stat, key, prepared, json.dumps([_problem_row(p) for p in problems])))
    return (out, blocks.build(entries)), take_fresh()


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection in this process during a bulk index.

    What it keeps until the commit (the derivation's rows and sketch buckets, the posting blocks
    waiting to be written) are long-lived containers, so every collection walks a heap that
    only grows: at 100k memories about a fifth of this process's CPU, for nothing, since writing
    rows makes no reference cycles. Workers collect as usual (it costs them about 1%).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _prepare_all(root: Path, scope: str, stats: list[FileStat], first_key: int
                 ) -> Iterator[_Batch]:
    """Every file parsed and prepared, in order, in batches with their posting blocks; a cold
    index of many files uses every core (parsing and tokenizing are the cost; SQLite writes
    stay in this process)."""
    workers = min(os.cpu_count() or 1, 8)
    if len(stats) < PARALLEL_MIN or workers < 2:
        yield _prepare_files((str(root), scope, stats, first_key))[0]
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    size = max(JOB_FILES[0], min(JOB_FILES[1], len(stats) // (workers * 4)))
    jobs = ((str(root), scope, stats[i:i + size], first_key + i)
            for i in range(0, len(stats), size))
    handed = 0
    try:
        with ProcessPoolExecutor(max_workers=workers, initializer=_start_worker,
                                 mp_context=multiprocessing.get_context(method)) as pool:
            # A sliding window, not rounds: a new job goes out as each result comes in, so no
            # worker idles while this process writes the last results of a round.
            running = deque(pool.submit(_prepare_files, job)
                            for job in itertools.islice(jobs, workers * AHEAD))
            while running:
                batch, fresh = running.popleft().result()
                for job in itertools.islice(jobs, 1):
                    running.append(pool.submit(_prepare_files, job))
                seed_stems(fresh)  # so this process can record every stem in the index
                yield batch
                handed += len(batch[0])
    except (OSError, BrokenProcessPool, RuntimeError, ImportError):
        # No worker processes here (a sandbox without semaphores, a killed worker): the rest
        # is parsed in this process, so indexing is slower but never fails for it.
        yield _prepare_files((str(root), scope, stats[handed:], first_key + handed))[0]


def _start_worker() -> None:
    _die_with_parent()
    gc.enable()  # forked while the indexing process paused it; a worker's heap stays small


def _die_with_parent() -> None:
    """In a worker: end when the indexing process does. A killed parent (a hook the host gave
    up on) would otherwise leave workers blocked on their result pipe forever, holding every
    descriptor they inherited."""
    if not sys.platform.startswith("linux"):
        return
    with suppress(Exception):  # best effort: without it, workers only outlive a killed parent
        import ctypes
        import signal

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
        if os.getppid() == 1:  # the parent died before the request took effect
            os._exit(1)


def _parse_file(root: Path, stat: FileStat, scope: str) -> tuple[Memory | None, list[Problem]]:
    # The parser (and yaml behind it) is imported only when a file actually changed.
    from engram.parse import MAX_FILE_BYTES, parse_memory

    path = root / stat.rel
    if stat.size > MAX_FILE_BYTES:
        return None, [Problem(stat.rel, 1, "file", f"file is {stat.size} bytes, over the "
                              f"{MAX_FILE_BYTES // 1024} KiB limit for a memory; skipped")]
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Problem(stat.rel, 1, "file", f"cannot read: {exc.strerror or exc}")]
    return parse_memory(raw, display_path=stat.rel, scope=scope, rel_path=stat.rel)


def _connect(db_path: str) -> sqlite3.Connection:
    try:
        return _open(db_path)
    except sqlite3.DatabaseError as exc:
        if not is_corrupt(exc):  # locked, read-only, a full disk: the file itself is fine
            raise IndexWriteError(f"{db_path}: cannot open the index: {exc}") from exc
        # Not a database (or damaged beyond opening): never trusted, never fatal; start over.
        _unlink_database(db_path)
        return _open(db_path)


def _connect_building(root: Path, scope: str, db_path: str
                      ) -> tuple[sqlite3.Connection, list[Problem] | None]:
    """A connection to the index file, built aside first when there is none (with the build's
    walk problems; None when it was there already or another process built it)."""
    built = None
    if db_path != ":memory:" and not os.path.exists(db_path):
        built = build_aside(root, scope, db_path)
    return _connect(db_path), built


BUILD_SUFFIX = ".build-"


def build_aside(root: Path, scope: str, db_path: str) -> list[Problem] | None:
    """Index every file into a new database beside `db_path`, then link it into place.

    A first index is most of a large workspace's cold start. Built aside, it needs no write-ahead
    log (which would write every page twice and checkpoint them at the end) and no fsync per
    commit, and no reader ever sees it half-built: a killed build leaves only a temp file, which
    the next build deletes. One process builds at a time, under a lock file; the others wait
    (up to BUSY_TIMEOUT_S, as for SQLite's own locks), then use its result. Returns the walk's
    problems, or None when another process built it.
    """
    with ExitStack() as held:
        try:
            held.enter_context(file_lock(Path(db_path + ".lock"), timeout=BUSY_TIMEOUT_S))
        except TimeoutError as exc:  # a builder stopped (^Z) or very slow: never hang a hook
            raise IndexWriteError(f"{db_path}: cannot build the index: another process is"
                                  f" building it ({exc})") from exc
        except OSError:  # no locks on this file system (some network mounts): build in place
            return None
        return None if os.path.exists(db_path) else _build_and_link(root, scope, db_path)


def _build_and_link(root: Path, scope: str, db_path: str) -> list[Problem] | None:
    folder, name = os.path.split(db_path)
    for leftover in os.listdir(folder):
        if leftover.startswith(name + BUILD_SUFFIX):  # of a build that was killed
            with suppress(OSError):
                os.unlink(os.path.join(folder, leftover))
    temp = f"{db_path}{BUILD_SUFFIX}{os.getpid()}"
    try:
        try:
            problems = _build_file(root, scope, temp)
        except (sqlite3.OperationalError, OSError) as exc:  # a full or failing disk
            raise IndexWriteError(f"{db_path}: cannot build the index: {exc}") from exc
        # A WAL or shared-memory file without its database belongs to a deleted one: SQLite
        # would replay it into the new file.
        for suffix in _COMPANIONS:  # any other failure must stop the link
            with suppress(FileNotFoundError):
                os.unlink(db_path + suffix)
        try:
            os.link(temp, db_path)  # never over a file another process created meanwhile
        except FileExistsError:
            return None
        except OSError:  # a file system without hard links
            os.rename(temp, db_path)
    finally:
        with suppress(FileNotFoundError):
            os.unlink(temp)
    return problems


def _build_file(root: Path, scope: str, path: str) -> list[Problem]:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        # Nothing to roll back to and nothing to survive a crash for: a failed build is deleted.
        conn.execute("PRAGMA journal_mode=OFF")
        conn.execute("PRAGMA synchronous=OFF")
        _create(conn)
        index = ScopeIndex(root, scope, conn, path)
        index._refresh(True)
        conn.execute("PRAGMA journal_mode=WAL")  # what every later connection expects
    finally:
        conn.close()
    # It becomes the index only now: make it durable before its name says it is complete.
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    return index.walk_problems


def _open(db_path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(db_path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        _create(conn)
    except sqlite3.DatabaseError:
        conn.close()
        raise
    return conn


def _create(conn: sqlite3.Connection) -> None:
    conn.executescript("""
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
        CREATE TABLE IF NOT EXISTS files (rel TEXT PRIMARY KEY, mtime_ns INTEGER, size INTEGER,
            sha256 TEXT, mem INTEGER, ignored INTEGER, problems TEXT);
        CREATE INDEX IF NOT EXISTS files_problems ON files(problems) WHERE problems != '[]';
        CREATE INDEX IF NOT EXISTS files_ignored ON files(ignored) WHERE ignored=1;
        CREATE TABLE IF NOT EXISTS memories (mem INTEGER PRIMARY KEY, id TEXT, rel TEXT,
            data TEXT, head TEXT, lengths TEXT, depth INTEGER, dup_group TEXT, globs TEXT,
            active INTEGER, signature TEXT, restricted INTEGER, lifecycle TEXT,
            superseded_by TEXT, valid_from TEXT, valid_until TEXT, roles TEXT, terms TEXT);
        CREATE INDEX IF NOT EXISTS memories_id ON memories(id);
        -- Covering indexes: in a fresh process every row read from the (large) memories table
        -- is a page to fetch, so the two per-query lists are read from their indexes alone.
        CREATE INDEX IF NOT EXISTS memories_restricted ON memories(restricted, active, mem,
            lifecycle, superseded_by, valid_from, valid_until, roles) WHERE restricted=1;
        CREATE INDEX IF NOT EXISTS memories_globbed ON memories(active, mem, globs)
            WHERE globs != '[]';
        CREATE INDEX IF NOT EXISTS memories_dup ON memories(dup_group)
            WHERE dup_group IS NOT NULL;
        CREATE INDEX IF NOT EXISTS memories_inactive ON memories(active) WHERE active=0;
        CREATE TABLE IF NOT EXISTS postings (term TEXT, lo INTEGER, hi INTEGER, crc INTEGER,
            entries BLOB);
        CREATE INDEX IF NOT EXISTS postings_term ON postings(term, lo);
        CREATE TABLE IF NOT EXISTS stems (word TEXT PRIMARY KEY, stem TEXT) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS bands (band INTEGER, mem INTEGER);
        CREATE INDEX IF NOT EXISTS bands_band ON bands(band);
        CREATE INDEX IF NOT EXISTS bands_mem ON bands(mem);
        CREATE TABLE IF NOT EXISTS near (mem INTEGER, mate INTEGER);
        CREATE INDEX IF NOT EXISTS near_mem ON near(mem);
        CREATE TABLE IF NOT EXISTS verdicts (sha256 TEXT PRIMARY KEY, scanner TEXT,
            findings TEXT) WITHOUT ROWID;
    """)
    row = conn.execute("SELECT value FROM meta WHERE key='version'").fetchone()
    if row is not None and row[0] != SCHEMA_VERSION:
        # Columns change between versions: drop the tables, not just their rows.
        conn.executescript("DROP TABLE files; DROP TABLE memories; DROP TABLE postings;"
                           " DROP TABLE stems; DROP TABLE meta; DROP TABLE IF EXISTS bands;"
                           " DROP TABLE IF EXISTS near; DROP TABLE IF EXISTS verdicts;")
        _create(conn)
