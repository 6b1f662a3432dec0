"""One scope's index, `<root>/.cache/index.sqlite`: opening it, keeping it fresh, and reading it.

A warm load stats every file and re-parses only what changed; term postings, per-field lengths,
compiled path globs and dependency layers are stored as plain rows, so the hot path needs
neither a graph library nor a parser.

Private to engram.index, which exports `ScopeIndex`.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, KeysView, Sequence
from contextlib import nullcontext, suppress
from pathlib import Path
from typing import Any

from engram.discover import (
    FileStat,
    IgnoreRules,
    Later,
    Listing,
    Walked,
    ignore_signature,
    listing_signature,
    signatures_later,
    walk,
)
from engram.errors import IndexWriteError
from engram.index import _blocks as blocks
from engram.index._build import (
    Fill,
    collector_paused,
    connect_building,
    prepare_all,
)
from engram.index._dedupe import BAND_KEYS, assign_all, forget, reassign
from engram.index._derive import WINNER_SQL, Delta, winners
from engram.index._encoding import (
    DEFAULT_WEIGHTS,
    HEAD_FIELDS,
    Prepared,
    decode_head,
    encode_findings,
    memory_from_json,
    names_from_json,
    unpack_counts,
    weighted_length,
)
from engram.index._schema import (
    BUSY_TIMEOUT_S,
    INDEX_FILE,
    SCHEMA_VERSION,
    is_corrupt,
    unlink_database,
)
from engram.index._types import (
    FIELDS,
    Corpus,
    FieldCounts,
    Head,
    PathRule,
    Postings,
    Record,
    Restriction,
)
from engram.layers import layers as dependency_layers
from engram.model import CONFIDENCES, SCANNER_VERSION, Finding, Problem
from engram.paths import CACHE_DIRNAME, derived_dir

BULK_FILES = 200  # a refresh re-indexing more files than this gets a bigger page cache
BULK_CACHE_KIB = 64 * 1024
BULK_TERMS = 5000  # an edit writing more terms than this appends new blocks as a build does
VERDICT_WAIT_MS = 50  # how long storing a print-time verdict waits for another writer
_KEEP_VERDICT = "INSERT OR REPLACE INTO verdicts VALUES (?,?,?)"  # sha256, scanner, findings
MEMO_MAX = 20_000  # records and posting lists kept by an open index between writes


class Restrictions:
    """Restriction by memory key, decoded only for the keys asked about: a large corpus has
    thousands of restricted memories, and a query meets few of them."""

    def __init__(self, rows: dict[int, tuple[Any, ...]]) -> None:
        self._rows = rows

    def keys(self) -> KeysView[int]:
        """The restricted memories' keys."""
        return self._rows.keys()

    def get(self, key: int) -> Restriction | None:
        row = self._rows.get(key)
        if row is None:
            return None
        _, lifecycle, by, valid_from, valid_until, roles = row
        return Restriction(lifecycle, by, valid_from, valid_until,
                           tuple(json.loads(roles)) if roles != "[]" else ())


class ScopeIndex:
    """One scope's index; open with `ScopeIndex.open(root, scope)` and call `refresh()`."""

    def __init__(self, root: Path, scope: str, conn: sqlite3.Connection, db_path: str) -> None:
        self.root = root
        self.scope = scope
        self.conn = conn
        self.db_path = db_path
        self.walk_problems: list[Problem] = []
        self._delta = Delta(full=True, totals=[0] * len(FIELDS), count=0)
        self._just_built = False  # open() built the file from scratch: refresh has nothing to do
        self._stamp: tuple[int, int] = (-1, -1)
        self._memo: dict[Any, Any] = {}

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def open(cls, root: Path, scope: str) -> ScopeIndex:
        cache = derived_dir(root, CACHE_DIRNAME)
        db_path = str(cache / INDEX_FILE) if cache is not None else ":memory:"
        conn, built = connect_building(db_path, _filler(root, scope))
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
    def refresh(self, force: bool = False, walked: Walked | None = None) -> bool:
        """Bring the index up to date with the files; True when anything was re-indexed.
        `walked` is a walk of the root just taken elsewhere (`check_later`'s child)."""
        try:
            return self._take_just_built() or self._refresh(force, walked)
        except sqlite3.DatabaseError as exc:
            if not is_corrupt(exc):  # the file is fine, and other processes may be using it
                raise IndexWriteError(f"{self.db_path}: cannot update the index: {exc}") from exc
            # A corrupt cache is never trusted and never fatal: start over from the files.
            self._reset()
            return self._take_just_built() or self._refresh(True)

    def expected_listing(self) -> tuple[str, str] | None:
        """(listing signature, ignore-file signature) a walk of the root must find for the
        index to be current as it stands; None when a refresh has work to do whatever the walk
        finds (just built, or built under another schema)."""
        if self._just_built or self.meta("version") != SCHEMA_VERSION:
            return None
        listing, ignore = self.meta("listing"), self.meta("ignore")
        return (listing, ignore) if listing and ignore is not None else None

    def _take_just_built(self) -> bool:
        built, self._just_built = self._just_built, False
        return built

    def _reset(self) -> None:
        self.close()
        unlink_database(self.db_path)
        self.conn, built = connect_building(self.db_path, _filler(self.root, self.scope))
        self._adopt(built)

    def _refresh(self, force: bool, walked: Walked | None = None) -> bool:
        known = self.meta("listing") or ""
        stats, self.walk_problems = walked if walked is not None else walk(self.root)
        ignore_sig = ignore_signature(self.root)
        listing = f"{len(stats)}:{listing_signature(stats)}"
        if not force and known == listing and self._same_setup(ignore_sig):
            return False  # same files, sizes and mtimes as at the last refresh: nothing to do
        seen = self._data_version()
        found = None if force else self._diff(stats, ignore_sig)
        if found is not None and not found[0] and not found[1]:
            self._remember_listing(listing)
            return False
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have refreshed while we waited for the write lock.
            full = force or self.meta("ignore") != ignore_sig
            if full:
                for table in ("files", "memories", "postings", "bands", "near", "requires"):
                    conn.execute(f"DELETE FROM {table}")
                self._set_meta("doc_count", "0")
                self._set_meta("field_totals", json.dumps([0] * len(FIELDS)))
            self._delta = Delta(full=full, totals=self.field_totals(),
                                 count=self.doc_count())
            # The changes found before the lock still hold unless another connection committed
            # since (reading every file row again costs as much as the walk's stats).
            changed, removed = found if found is not None and not full \
                and self._data_version() == seen else self._changes(stats)
            # A full refresh goes on even with nothing to index (an empty scope): it records
            # the schema and ignore rules the index is now current under, or every later load
            # would find it out of date and refresh every scope before routing.
            if not full and not changed and not removed and self.meta("ignore") == ignore_sig:
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
            with collector_paused() if bulk else nullcontext():
                self._apply(changed, removed)
            if full:
                conn.execute("CREATE INDEX bands_band ON bands(band)")
                conn.execute("CREATE INDEX bands_mem ON bands(mem)")
            self._set_meta("ignore", ignore_sig)
            if full:
                conn.execute("DELETE FROM verdicts WHERE scanner != ?", (SCANNER_VERSION,))
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

    def _same_setup(self, ignore_sig: str) -> bool:
        """Indexed under this ignore file and schema: only file changes matter."""
        return self.meta("ignore") == ignore_sig and self.meta("version") == SCHEMA_VERSION

    def _remember_listing(self, listing: str) -> None:
        with suppress(sqlite3.OperationalError):  # busy or read-only: only an optimisation
            self._set_meta("listing", listing)

    def _diff(self, stats: Listing, ignore_sig: str) -> tuple[list[FileStat], list[str]] | None:
        """The changed and removed files; None when everything must be re-indexed."""
        return self._changes(stats) if self._same_setup(ignore_sig) else None

    def _data_version(self) -> int:
        """Changes when another connection commits to the index file."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

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
        released = {self._drop(rel) for rel in removed}  # the bytes those files held
        wanted: list[FileStat] = []
        for stat in changed:
            if not self._delta.full:  # a full refresh starts from empty tables
                released.add(self._drop(stat.rel))
            if ignore.ignored(stat.rel):
                conn.execute("INSERT INTO files VALUES (?,?,?,?,?,1,'[]')",
                             (stat.rel, stat.mtime_ns, stat.size, "", None))
                continue
            wanted.append(stat)
        first_key = int(conn.execute("SELECT coalesce(max(mem), 0) + 1 FROM memories"
                                     ).fetchone()[0])
        writer = blocks.BlockWriter()
        for batch, made in prepare_all(self.root, self.scope, wanted, first_key):
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
        # Verdicts on bytes no file holds any more: after an edit only the old bytes' can be.
        if self._delta.full:
            conn.execute("DELETE FROM verdicts WHERE sha256 NOT IN (SELECT sha256 FROM files)")
        else:
            conn.executemany("DELETE FROM verdicts WHERE sha256=? AND NOT EXISTS"
                             " (SELECT 1 FROM files WHERE files.sha256=verdicts.sha256)",
                             ((sha,) for sha in sorted(released) if sha))
        self._set_meta("version", SCHEMA_VERSION)

    def _write_blocks(self, rows: list[blocks.Row]) -> None:
        if not self._delta.full and len(rows) < BULK_TERMS:
            rows = [row for row in rows if not self._extend_last_block(row)]
        self.conn.executemany("INSERT INTO postings (term, lo, hi, crc, entries)"
                              " VALUES (?,?,?,?,?)", rows)

    def _extend_last_block(self, row: blocks.Row) -> bool:
        """Append an edit's entries to its term's last block while that block is small: every
        edit would otherwise leave a block of one entry per term, and a term's blocks would
        grow with the number of edits rather than of memories. True when appended."""
        term, lo, hi, _, blob = row
        last = self.conn.execute("SELECT rowid, hi, crc, entries FROM postings WHERE term=?"
                                 " ORDER BY lo DESC LIMIT 1", (term,)).fetchone()
        if last is None or last[1] >= lo \
                or len(last[3]) + len(blob) > min(blocks.TAIL_BYTES, blocks.BLOCK_BYTES):
            return False
        blocks.decode([(last[2], last[3])])  # never extend a damaged block
        merged = last[3] + blob
        self.conn.execute("UPDATE postings SET hi=?, crc=?, entries=? WHERE rowid=?",
                          (hi, blocks.checksum(merged), merged, last[0]))
        return True

    def _remove_postings(self, key: int, terms: list[str]) -> None:
        """Take one memory's entries out of the blocks of its terms."""
        conn = self.conn
        for term in terms:
            # A term's blocks never overlap: the one that can hold the key starts closest below.
            for rowid, crc, blob in conn.execute(
                    "SELECT rowid, crc, entries FROM postings WHERE term=? AND lo<=? AND hi>=?"
                    " ORDER BY lo DESC LIMIT 1", (term, key, key)).fetchall():
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

    def _drop(self, rel: str) -> str:
        """Take a file and its memory out of the index; the sha256 it held ("" if none)."""
        row = self.conn.execute("SELECT mem, sha256 FROM files WHERE rel=?", (rel,)).fetchone()
        if row and row[0] is not None:
            old = self.conn.execute("SELECT id, head, lengths, depth, dup_group, terms FROM"
                                    " memories WHERE mem=?", (row[0],)).fetchone()
            if old is not None:
                self._delta.forget(rel, old[:5])
                self._remove_postings(int(row[0]), old[5].split("\n") if old[5] else [])
            self._delta.dropped[row[0]] = forget(self.conn, row[0])
            self.conn.execute("DELETE FROM requires WHERE mem=?", (row[0],))
            self.conn.execute("DELETE FROM memories WHERE mem=?", (row[0],))
        self.conn.execute("DELETE FROM files WHERE rel=?", (rel,))
        return str(row[1] or "") if row else ""

    def _store(self, stored: list[tuple[int, Prepared]]) -> None:
        conn = self.conn
        conn.executemany(
            "INSERT INTO memories (mem, id, rel, data, head, lengths, globs, signature,"
            " restricted, lifecycle, superseded_by, valid_from, valid_until, roles, terms,"
            " confidence, names, forms, depth, dup_group, active)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,0,NULL,1)",
            ((key, *prepared.columns) for key, prepared in stored))
        conn.executemany("INSERT INTO requires VALUES (?,?)", (
            (prereq, key) for key, prepared in stored for prereq in set(prepared.depends_on)))
        conn.executemany("INSERT INTO bands VALUES (?,?)", (
            (band, key) for key, prepared in stored
            for band in sorted(set(prepared.signature[:BAND_KEYS]))))
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
            best, losers = winners(delta.stored)
            conn.executemany("UPDATE memories SET active=0 WHERE mem=?",
                             ((key,) for key in sorted(losers)))
            depths = dependency_layers({w.id: w.depends_on for w in best},
                                       {w.id: w.level for w in best})
            conn.executemany("UPDATE memories SET depth=? WHERE mem=?",
                             ((depths[w.id], w.key) for w in best if depths[w.id]))
            assign_all(conn, delta.buckets.values(), {s.key: s.signature for s in delta.stored},
                       {s.key: s.id for s in delta.stored}, {w.key for w in best})
            return
        conn.executemany("UPDATE memories SET active = (rel = "
                         + WINNER_SQL.format(outer="memories") + ") WHERE id=?",
                         ((mid,) for mid in sorted(delta.ids)))
        if delta.structure:
            self._recompute_depths(delta.ids)
        reassign(conn, delta.new_keys, delta.dropped, delta.ids)

    def _recompute_depths(self, changed: Collection[str]) -> None:
        """Redo the layers an edit can move: those of the changed ids and of every memory that
        requires one of them, directly or through others. Everything else keeps its stored
        layer, which is all the recomputed part needs of it."""
        conn = self.conn
        # A duplicate-id loser has no layer: depth 0, as a full build leaves it.
        conn.executemany("UPDATE memories SET depth=0 WHERE id=? AND active=0 AND depth!=0",
                         ((mid,) for mid in sorted(changed)))
        rows: dict[str, tuple[int, str, int]] = {}  # id -> (key, head, stored depth)
        done: set[str] = set()
        names = sorted(set(changed))
        while names:  # breadth first along `requires`, from prerequisite to dependent
            done.update(names)
            for start in range(0, len(names), 250):
                chunk = names[start:start + 250]
                marks = ",".join("?" * len(chunk))
                for key, mid, head, depth in conn.execute(
                        "SELECT mem, id, head, depth FROM memories WHERE active=1 AND id IN"
                        f" ({marks}) UNION ALL SELECT m.mem, m.id, m.head, m.depth FROM requires"
                        f" r JOIN memories m ON m.mem=r.mem WHERE r.prereq IN ({marks})"
                        " AND m.active=1", chunk + chunk):
                    rows[mid] = (key, head, depth)
            names = sorted(set(rows) - done)
        deps: dict[str, tuple[str, ...]] = {}
        levels: dict[str, int] = {}
        dep_at, level_at = HEAD_FIELDS.index("depends_on"), HEAD_FIELDS.index("level")
        for mid, (_, head, _) in rows.items():
            values = json.loads(head)  # the head, not the full record
            deps[mid] = tuple(values[dep_at])
            levels[mid] = values[level_at] or 0
        outside = {p for prereqs in deps.values() for p in prereqs if p not in deps}
        fixed = dict(self._rows_in("SELECT id, depth FROM memories WHERE active=1"
                                   " AND id IN ({marks})", outside))
        depths = dependency_layers(deps, levels, fixed)
        conn.executemany("UPDATE memories SET depth=? WHERE mem=?", sorted(
            (depths[mid], key) for mid, (key, _, depth) in rows.items() if depths[mid] != depth))

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

    def corpus(self) -> Corpus:
        """How many memories routing scores, and their tokens per field: the ones that lost a
        duplicate-id contest (rare; a partial index lists them) are left out, as they are of
        the postings."""
        count, totals = self.doc_count(), self.field_totals()
        for (lengths,) in self.conn.execute("SELECT lengths FROM memories WHERE active=0"):
            count -= 1
            for i, n in enumerate(json.loads(lengths)):
                totals[i] -= n
        return Corpus(count, FieldCounts._make(totals))

    def cached(self) -> dict[Any, Any]:
        """Values read from the file, kept while nothing wrote to it (through this connection
        or any other): a long-lived server answers many requests from one open index."""
        stamp = (int(self.conn.execute("PRAGMA data_version").fetchone()[0]),
                 self.conn.total_changes)
        if stamp != self._stamp or len(self._memo) > MEMO_MAX:
            self._stamp, self._memo = stamp, {}
        return self._memo

    def postings(self, terms: Iterable[str], weights: Sequence[float] = DEFAULT_WEIGHTS
                 ) -> dict[str, Postings]:
        """term -> the active memories holding it, by key, each with its document length under
        these field weights (one per FIELDS name, in that order). Equal field counts of one
        term are one FieldCounts object (route.gather groups memories by it)."""
        return {term: self._term(term, weights)[0] for term in terms}

    def held(self, terms: Iterable[str]) -> set[str]:
        """Those of the terms some memory holds: one look-up for many words a prompt may have
        meant (`spelling`), where reading each one's postings would cost a query apiece."""
        return {term for (term,) in self._rows_in(
            "SELECT DISTINCT term FROM postings WHERE term IN ({marks})", terms)}

    def doc_freqs(self, terms: Iterable[str], weights: Sequence[float] = DEFAULT_WEIGHTS
                  ) -> dict[str, int]:
        """term -> how many active memories hold it in text that scores: a term met only
        inside an exclusion clause does not count (IDF is over the documents BM25 scores, as
        rank_bm25 has it on the same weighted documents). Counted by count pattern as the
        postings are read (pass the weights they were read with, to read them once)."""
        return {term: self._term(term, weights)[1] for term in terms}

    def _term(self, term: str, weights: Sequence[float]) -> tuple[Postings, int]:
        memo = self.cached()
        found: tuple[Postings, int] | None = memo.get(("postings", term, tuple(weights)))
        if found is None:
            inactive = memo.get("inactive")
            if inactive is None:
                inactive = memo["inactive"] = {k for (k,) in self.conn.execute(
                    "SELECT mem FROM memories WHERE active=0")}
            found = memo[("postings", term, tuple(weights))] = self._postings(
                term, weights, inactive)
        return found

    def _postings(self, term: str, weights: Sequence[float], inactive: set[int]
                  ) -> tuple[Postings, int]:
        keys, packed, lens, stored = blocks.decode_columns(self.conn.execute(
            "SELECT crc, entries FROM postings WHERE term=? ORDER BY lo", (term,)))
        if inactive and not inactive.isdisjoint(keys):
            kept = [n for n, key in enumerate(keys) if key not in inactive]
            keys, packed, lens = (tuple(map(column.__getitem__, kept))
                                  for column in (keys, packed, lens))
            stored = tuple(map(stored.__getitem__, kept))
        # A common term has tens of thousands of postings and a handful of count patterns and
        # lengths: each pattern is decoded (and judged for the document frequency) once, and
        # the columns are mapped in C.
        tally = Counter(packed)
        counts = {p: unpack_counts(p) for p in tally}
        if tuple(weights) == DEFAULT_WEIGHTS:
            lengths = stored
        else:
            weighted = {n: weighted_length(n, weights) for n in set(lens)}
            lengths = tuple(map(weighted.__getitem__, lens))
        scoring = sum(n for p, n in tally.items() if any(counts[p].scoring))
        code = {p: n for n, p in enumerate(counts, 1)}
        return (Postings(keys, tuple(map(counts.__getitem__, packed)), lengths,
                         tuple(counts.values()),
                         dict(zip(keys, map(code.__getitem__, packed), strict=True))), scoring)

    def dup_groups(self, keys: Collection[int]) -> dict[int, str]:
        """The near-duplicate group of each of these memories that is in one, read from the
        group column's index alone (no row of the large memories table)."""
        memo = self.cached()
        rows = memo.get("dup_groups")
        if rows is None:
            rows = memo["dup_groups"] = self.conn.execute(
                "SELECT mem, dup_group FROM memories WHERE dup_group IS NOT NULL").fetchall()
        return {k: g for k, g in rows if k in keys}

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

    def confidences(self) -> set[str]:
        """The confidence levels its active memories have: ranking bounds a memory's score
        before reading its record by the largest factor any of them can get."""
        memo = self.cached()
        found = memo.get("confidences")
        if found is None:
            found = memo["confidences"] = {level for level in CONFIDENCES if self.conn.execute(
                "SELECT 1 FROM memories WHERE confidence=? AND active=1 LIMIT 1",
                (level,)).fetchone()}
        return set(found)

    def all_ids(self) -> set[str]:
        return {mid for (mid,) in self.conn.execute("SELECT id FROM memories WHERE active=1")}

    def present_ids(self, ids: Iterable[str]) -> set[str]:
        """Which of these ids an active memory of this scope has."""
        return {mid for (mid,) in self._rows_in(
            "SELECT id FROM memories WHERE active=1 AND id IN ({marks})", ids)}

    def ids_of(self, keys: Iterable[int]) -> dict[int, str]:
        return dict(self._rows_in("SELECT mem, id FROM memories WHERE mem IN ({marks})", keys))

    def records(self, keys: Iterable[int]) -> dict[int, Record]:
        """The full records of these keys (a key the index does not hold is left out)."""
        memo = self.cached()
        keys = list(keys)
        out = {key: memo[("record", key)] for key in keys if ("record", key) in memo}
        for row in self._rows_in("SELECT mem, data, depth, dup_group FROM memories"
                                 " WHERE mem IN ({marks})", [k for k in keys if k not in out]):
            out[row[0]] = memo[("record", row[0])] = _record(*row)
        return out

    def all_records(self) -> list[Record]:
        """Every active memory's full record, sorted by id."""
        return [_record(*row) for row in self.conn.execute(
            "SELECT mem, data, depth, dup_group FROM memories WHERE active=1 ORDER BY id")]

    def heads(self, keys: Iterable[int]) -> dict[int, Head]:
        return {row[0]: decode_head(*row) for row in self._rows_in(
            "SELECT mem, head, depth FROM memories WHERE mem IN ({marks})", keys)}

    def names(self, keys: Iterable[int]) -> dict[int, tuple[tuple[str, ...], ...]]:
        """The stemmed words of each memory's id, tags and trigger phrases, in that order."""
        return {key: names_from_json(text) for key, text in self._rows_in(
            "SELECT mem, names FROM memories WHERE mem IN ({marks})", keys)}

    def said_forms(self) -> list[tuple[int, tuple[tuple[str, ...], ...]]]:
        """(key, the written forms of its trigger phrases) of every active memory that has one
        (`tokenize.written_form`), by key."""
        memo = self.cached()
        found = memo.get("said_forms")
        if found is None:
            found = memo["said_forms"] = [(int(key), names_from_json(forms)) for key, forms in
                                          self.conn.execute(
                "SELECT mem, forms FROM memories WHERE forms IS NOT NULL AND active=1"
                " ORDER BY mem")]
        return list(found)

    def all_heads(self) -> list[Head]:
        """Every active memory's head, sorted by id."""
        return [decode_head(*row) for row in self.conn.execute(
            "SELECT mem, head, depth FROM memories WHERE active=1 ORDER BY id")]

    def keys_by_id(self, ids: Iterable[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for mid in ids:
            row = self.conn.execute("SELECT mem FROM memories WHERE id=? AND active=1",
                                    (mid,)).fetchone()
            if row:
                out[mid] = int(row[0])
        return out

    def path_rules(self) -> Iterator[PathRule]:
        """The `applies_to` globs of every active memory that has some."""
        for key, globs in self.conn.execute(
                "SELECT mem, globs FROM memories WHERE active=1 AND globs != '[]'"):
            yield PathRule(int(key), tuple((regex, bool(include)) for regex, include
                                           in json.loads(globs)))

    def hidden_by_ignore(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM files WHERE ignored=1").fetchone()[0])

    def problems(self) -> list[Problem]:
        """Every stored problem: invalid files, warnings, duplicate ids; sorted by path, line."""
        out = list(self.walk_problems)
        for (raw,) in self.conn.execute("SELECT problems FROM files WHERE problems != '[]'"):
            out.extend(Problem(**p) for p in json.loads(raw))
        for mid, rel, winner in self.conn.execute(
                "SELECT m.id, m.rel, " + WINNER_SQL.format(outer="m")
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

    def remember_verdict(self, sha: str, findings: tuple[Finding, ...]) -> None:
        """Keep the verdict a print-time scan reached on the bytes with this sha256, so their
        next print reads it instead of scanning again. Only a saving: an index that is busy
        (another process writing), read-only or full keeps none, and the scan runs again."""
        encoded = encode_findings(findings)
        with suppress(sqlite3.Error):
            # A hook must not wait out a long re-index by another process for a saving.
            self.conn.execute(f"PRAGMA busy_timeout={VERDICT_WAIT_MS}")
            try:
                self.conn.execute(_KEEP_VERDICT, (sha, SCANNER_VERSION, encoded))
            finally:
                self.conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")


def _record(key: int, data: str, depth: int, dup_group: str | None) -> Record:
    return Record(int(key), memory_from_json(data), int(depth), dup_group)


def _filler(root: Path, scope: str) -> Fill:
    """How a first build fills its new database: a full refresh of the scope."""
    def fill(conn: sqlite3.Connection, path: str) -> list[Problem]:
        index = ScopeIndex(root, scope, conn, path)
        index._refresh(True)
        return index.walk_problems

    return fill


class Pending:
    """The freshness check of indexes that are read before it has finished (`check_later`)."""

    def __init__(self, indexes: list[ScopeIndex], expected: list[tuple[str, str]],
                 later: Later) -> None:
        self._indexes = indexes
        self._expected = expected
        self._later = later

    def settle(self) -> bool:
        """True when every file is as the indexes were read; otherwise every index is
        refreshed now (what was read from them is stale) and False."""
        found = self._later.result()
        if found is not None and all(
                (listing, ignore) == expected and walked is None
                for (listing, ignore, walked), expected in zip(found, self._expected,
                                                               strict=True)):
            return True
        # Changed files or a walk that met a problem: the refresh takes the child's walk (no
        # second walk); with no child, it walks. What was read stands only if each index still
        # holds the listing and ignore file it was read under: another process may have
        # refreshed it meanwhile, and an edited ignore file changes what is indexed, not what
        # is on disk.
        walks = [f[2] for f in found] if found is not None else [None] * len(self._indexes)
        for index, walked in zip(self._indexes, walks, strict=True):
            index.refresh(walked=walked)
        return all(index.expected_listing() == expected
                   for index, expected in zip(self._indexes, self._expected, strict=True))


def check_later(indexes: list[ScopeIndex]) -> Pending | None:
    """Start checking in the background that the files are as these opened indexes hold them,
    so they can be read meanwhile; None when that cannot be (an index has a refresh due
    whatever the files say, or no child can be forked): the caller refreshes them now."""
    expected = [index.expected_listing() for index in indexes]
    if not indexes or any(e is None for e in expected):
        return None
    known = [e for e in expected if e is not None]
    later = signatures_later([index.root for index in indexes], [k[0] for k in known])
    if not later.started:
        return None
    return Pending(indexes, known, later)

