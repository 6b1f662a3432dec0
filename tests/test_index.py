"""The persisted, incremental index: where it lives, freshness without rebuilds, corruption."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from cli_helpers import body_ids, load, mem, ok, printed_ids, put, run, touch_later

from engram.index import INDEX_FILE, ScopeIndex
from engram.model import WORKSPACE
from engram.paths import DERIVED_GITIGNORE


def test_index_is_persisted_under_cache_with_a_gitignore(workspace: Path) -> None:
    put(workspace / ".engram", "r.md", mem("deploy-rule", tags=["deploy"]))
    ok(load(workspace, "deploy"))
    cache = workspace / ".engram" / ".cache"
    assert (cache / INDEX_FILE).is_file()
    assert (cache / ".gitignore").read_text(encoding="utf-8") == DERIVED_GITIGNORE
    # the derived folder itself is never taken for memories
    assert printed_ids(ok(load(workspace, "--all", "deploy"))) == ["deploy-rule"]


def test_an_index_written_by_another_version_is_rebuilt(workspace: Path) -> None:
    # An upgrade meets the previous release's index: other columns under the same table names.
    # It must be rebuilt, never fail on an index of this version over a table of that one.
    put(workspace / ".engram", "r.md", mem("deploy-rule", tags=["deploy"]))
    cache = workspace / ".engram" / ".cache"
    cache.mkdir()
    with sqlite3.connect(cache / INDEX_FILE) as old:
        old.executescript("""
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
            INSERT INTO meta VALUES ('version', '1');
            CREATE TABLE memories (mem INTEGER PRIMARY KEY, id TEXT);
            CREATE TABLE files (rel TEXT PRIMARY KEY);
            CREATE TABLE postings (term TEXT);
        """)
    assert printed_ids(ok(load(workspace, "deploy"))) == ["deploy-rule"]


def test_an_edit_is_picked_up_by_the_next_load(workspace: Path) -> None:
    root = workspace / ".engram"
    path = put(root, "r.md", mem("db-note", "knowledge", tags=["postgres"], body="Old text."))
    assert printed_ids(ok(load(workspace, "postgres"))) == ["db-note"]
    put(root, "r.md", mem("db-note", "knowledge", tags=["mysql"], body="New text, longer."))
    touch_later(path)
    assert printed_ids(ok(load(workspace, "postgres"))) == []
    out = ok(load(workspace, "mysql"))
    assert "New text, longer." in out and "Old text." not in out


def test_an_edit_hidden_from_stat_is_caught_by_the_hash_check(workspace: Path) -> None:
    # Same size, mtime put back: only the sha256 check before printing can see the change.
    root = workspace / ".engram"
    path = put(root, "r.md", mem("db-note", "knowledge", tags=["postgres"], body="AAAA body"))
    ok(load(workspace, "postgres"))
    st = path.stat()
    put(root, "r.md", mem("db-note", "knowledge", tags=["postgres"], body="BBBB body"))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size
    out = ok(load(workspace, "postgres"))
    assert "BBBB body" in out and "AAAA" not in out


def test_added_and_removed_files(workspace: Path) -> None:
    root = workspace / ".engram"
    put(root, "a.md", mem("deploy-a", tags=["deploy"]))
    assert printed_ids(ok(load(workspace, "deploy"))) == ["deploy-a"]
    put(root, "sub/b.md", mem("deploy-b", tags=["deploy"]))
    assert sorted(printed_ids(ok(load(workspace, "deploy")))) == ["deploy-a", "deploy-b"]
    (root / "a.md").unlink()
    assert printed_ids(ok(load(workspace, "deploy"))) == ["deploy-b"]
    fetched = load(workspace, "--id", "deploy-a")
    assert fetched.exit_code == 1


def test_renaming_a_file_keeps_the_memory(workspace: Path) -> None:
    root = workspace / ".engram"
    put(root, "old/name.md", mem("deploy-a", tags=["deploy"]))
    ok(load(workspace, "deploy"))
    (root / "new").mkdir()
    (root / "old" / "name.md").rename(root / "new" / "name.md")
    assert printed_ids(ok(load(workspace, "deploy"))) == ["deploy-a"]


@pytest.mark.parametrize("garbage", [b"this is not sqlite at all" * 50, b"",
                                     b"SQLite format 3\x00" + b"\xff" * 4000])
def test_a_corrupt_index_is_rebuilt_silently(workspace: Path, garbage: bytes) -> None:
    root = workspace / ".engram"
    put(root, "r.md", mem("deploy-rule", tags=["deploy"], body="Deploy on Tuesdays."))
    first = ok(load(workspace, "deploy"))
    db = root / ".cache" / INDEX_FILE
    for suffix in ("-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    db.write_bytes(garbage)
    result = load(workspace, "deploy")
    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout == first


def test_a_cache_folder_that_is_a_file_is_never_fatal(workspace: Path) -> None:
    root = workspace / ".engram"
    put(root, "r.md", mem("deploy-rule", tags=["deploy"]))
    (root / ".cache").write_text("not a folder", encoding="utf-8")
    assert printed_ids(ok(load(workspace, "deploy"))) == ["deploy-rule"]


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root can write into read-only folders")
def test_read_only_root_keeps_its_index_under_engram_home(workspace: Path,
                                                          isolated_home: Path) -> None:
    root = workspace / ".engram"
    put(root, "r.md", mem("deploy-rule", tags=["deploy"]))
    root.chmod(0o555)
    try:
        assert printed_ids(ok(load(workspace, "deploy"))) == ["deploy-rule"]
        assert not (root / ".cache").exists()
        assert list((isolated_home / "cache").glob(f"*/.cache/{INDEX_FILE}"))
    finally:
        root.chmod(0o755)


def test_graph_rebuild_forces_a_full_reindex_and_reports(workspace: Path) -> None:
    root = workspace / ".engram"
    put(root, "a.md", mem("release-foundation", tags=["release"], level="foundation"))
    put(root, "b.md", mem("release-checklist", tags=["release"],
                          depends_on=["release-foundation"]))
    ok(load(workspace, "release"))
    out = ok(run(["graph", "--rebuild"], workspace))
    assert out.splitlines()[:3] == ["engram graph: 2 memories, 2 layers",
                                    "layer 0: release-foundation",
                                    "layer 1: release-checklist"]
    index = ScopeIndex.open(root, WORKSPACE)
    try:
        assert index.refresh() is False  # rebuild left a fresh index behind
    finally:
        index.close()


def test_duplicate_ids_lexically_first_path_wins(workspace: Path) -> None:
    root = workspace / ".engram"
    put(root, "b/dup.md", mem("dup", tags=["deploy"], body="From b."))
    put(root, "a/dup.md", mem("dup", tags=["deploy"], body="From a."))
    out = ok(load(workspace, "deploy"))
    assert body_ids(out) == ["dup"] and "From a." in out and "From b." not in out
    checked = run(["check"], workspace)
    assert checked.exit_code == 1
    assert ".engram/b/dup.md:1: id: duplicate id 'dup'" in checked.stdout
    assert ".engram/a/dup.md:1: id: duplicate id 'dup'" in checked.stdout
