"""The SQLite file of a scope's index: its tables, opening it, and what to do when it is damaged.

Private to engram.index.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import suppress
from pathlib import Path

from engram.errors import IndexWriteError
from engram.paths import CACHE_DIRNAME, derived_dir

SCHEMA_VERSION = "27"  # 4: brace globs; 5: `head` column; 6: lengths in postings, restricted;
# 11: posting blocks; 12: term lists one per line; 13: block checksums; 14: covering indexes;
# 15: safety verdicts; 16: near-duplicate pairs, star groups; 17: exclusion clauses from every
# paragraph of the body; 18: no word -> stem table (stemming is compiled and cheap); 19:
# `requires`, each memory's prerequisites by name; 20: `confidence`, so ranking knows the most
# a scope's confidence factor can be; 21: same tables, new stems (technology names joined:
# "Next.js" also `nextj`; versions split: "vue3" also `vue`), so old postings are dropped; 22:
# exclusion clauses listed under a "When NOT to use" heading or a "Do NOT use ... for:" lead-in; 23:
# a sentence of prose under such a heading that sends the task elsewhere ("defer to ..."); 24:
# the stemmed words of each memory's id, tags and trigger phrases in its head; 25: in their own
# `names` column instead, so a query judges every candidate's names without reading its record
# or tokenizing them, and a session start does not decode them; 26: `forms`, the written forms
# of trigger phrases made of everyday words ("why does this exist"); 27: same tables, new stems
# (`tokenize.stem` keeps words the stemmer conflates apart: "important" is not "import")
INDEX_FILE = "index.sqlite"
BUSY_TIMEOUT_S = 30.0  # how long a refresh waits for another process's write to finish


def connect(db_path: str) -> sqlite3.Connection:
    try:
        return open_database(db_path)
    except sqlite3.DatabaseError as exc:
        if not is_corrupt(exc):  # locked, read-only, a full disk: the file itself is fine
            raise IndexWriteError(f"{db_path}: cannot open the index: {exc}") from exc
        # Not a database (or damaged beyond opening): never trusted, never fatal; start over.
        unlink_database(db_path)
        return open_database(db_path)


def open_database(db_path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(db_path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        create_tables(conn)
    except sqlite3.DatabaseError:
        conn.close()
        raise
    return conn


def create_tables(conn: sqlite3.Connection) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
    row = conn.execute("SELECT value FROM meta WHERE key='version'").fetchone()
    if row is not None and row[0] != SCHEMA_VERSION:
        # Columns change between versions: drop the tables, not just their rows, before any
        # index of this version is created on a table of another.
        conn.executescript("DROP TABLE IF EXISTS files; DROP TABLE IF EXISTS memories;"
                           " DROP TABLE IF EXISTS postings; DROP TABLE IF EXISTS stems;"
                           " DROP TABLE IF EXISTS bands; DROP TABLE IF EXISTS near;"
                           " DROP TABLE IF EXISTS verdicts; DROP TABLE IF EXISTS requires;"
                           " DELETE FROM meta;")
    conn.executescript("""
        CREATE TABLE IF NOT EXISTS files (rel TEXT PRIMARY KEY, mtime_ns INTEGER, size INTEGER,
            sha256 TEXT, mem INTEGER, ignored INTEGER, problems TEXT);
        CREATE INDEX IF NOT EXISTS files_problems ON files(problems) WHERE problems != '[]';
        CREATE INDEX IF NOT EXISTS files_ignored ON files(ignored) WHERE ignored=1;
        CREATE TABLE IF NOT EXISTS memories (mem INTEGER PRIMARY KEY, id TEXT, rel TEXT,
            data TEXT, head TEXT, lengths TEXT, depth INTEGER, dup_group TEXT, globs TEXT,
            active INTEGER, signature TEXT, restricted INTEGER, lifecycle TEXT,
            superseded_by TEXT, valid_from TEXT, valid_until TEXT, roles TEXT, terms TEXT,
            confidence TEXT, names TEXT, forms TEXT);
        CREATE INDEX IF NOT EXISTS memories_id ON memories(id);
        -- Covering indexes: in a fresh process every row read from the (large) memories table
        -- is a page to fetch, so the two per-query lists are read from their indexes alone.
        CREATE INDEX IF NOT EXISTS memories_restricted ON memories(restricted, active, mem,
            lifecycle, superseded_by, valid_from, valid_until, roles) WHERE restricted=1;
        CREATE INDEX IF NOT EXISTS memories_globbed ON memories(active, mem, globs)
            WHERE globs != '[]';
        CREATE INDEX IF NOT EXISTS memories_forms ON memories(active, mem, forms)
            WHERE forms IS NOT NULL;
        CREATE INDEX IF NOT EXISTS memories_dup ON memories(dup_group)
            WHERE dup_group IS NOT NULL;
        CREATE INDEX IF NOT EXISTS memories_inactive ON memories(active) WHERE active=0;
        CREATE INDEX IF NOT EXISTS memories_confidence ON memories(confidence, active);
        CREATE TABLE IF NOT EXISTS postings (term TEXT, lo INTEGER, hi INTEGER, crc INTEGER,
            entries BLOB);
        CREATE INDEX IF NOT EXISTS postings_term ON postings(term, lo);
        CREATE TABLE IF NOT EXISTS bands (band INTEGER, mem INTEGER);
        CREATE INDEX IF NOT EXISTS bands_band ON bands(band);
        CREATE INDEX IF NOT EXISTS bands_mem ON bands(mem);
        CREATE TABLE IF NOT EXISTS near (mem INTEGER, mate INTEGER);
        CREATE INDEX IF NOT EXISTS near_mem ON near(mem);
        -- Who names an id in `depends_on`: an edit redoes the layers of its dependents only.
        CREATE TABLE IF NOT EXISTS requires (prereq TEXT, mem INTEGER,
            PRIMARY KEY (prereq, mem)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS requires_mem ON requires(mem);
        CREATE TABLE IF NOT EXISTS verdicts (sha256 TEXT PRIMARY KEY, scanner TEXT,
            findings TEXT) WITHOUT ROWID;
    """)



def discard(root: Path) -> None:
    """Delete a scope's index files, so the next open rebuilds it from the memory files."""
    cache = derived_dir(root, CACHE_DIRNAME)
    if cache is not None:
        unlink_database(str(cache / INDEX_FILE))


COMPANIONS = ("-wal", "-shm", "-journal")  # the files SQLite keeps beside a database


def unlink_database(db_path: str) -> None:
    """Remove a database file with its WAL, shared-memory and journal companions."""
    if db_path == ":memory:":
        return
    for suffix in ("", *COMPANIONS):
        with suppress(OSError):
            os.unlink(db_path + suffix)


def is_corrupt(exc: BaseException) -> bool:
    """A damaged index file (not a locked or read-only one): the cure is to rebuild it."""
    return isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError)

