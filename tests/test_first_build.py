"""A workspace's first index is built in a file beside the index and linked into place: what it
holds equals an in-place rebuild, a killed build leaves no index behind, leftovers of a deleted
index are not replayed into the new one, and a busy index is reported, never deleted."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import write_memory

from engram.cli import cli
from engram.index import INDEX_FILE, ScopeIndex, _build, _schema
from engram.index._build import BUILD_SUFFIX
from engram.model import WORKSPACE

QUERY = "deploy harbor lantern"


def memories(root: Path, count: int) -> None:
    topics = ("harbor", "lantern", "meadow", "glacier", "orchard")
    for n in range(count):
        topic = topics[n % len(topics)]
        deps = f"depends_on: [m{n - 1:04d}]\n" if n % 7 else ""
        write_memory(root, f"{topic}/m{n:04d}.md",
                     f"---\nid: m{n:04d}\ntype: rule\ntags: [{topic}, deploy]\n{deps}---\n"
                     f"Deploy {topic} the usual way, then check {topics[(n + 1) % 5]} too. "
                     f"Step {n} of the runbook.\n")


def engram(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "engram", *args], cwd=cwd, capture_output=True,
                          timeout=120, env=os.environ.copy())


def load_while_held(runner: CliRunner, db: Path, *statements: str) -> Result:
    """`engram load` while another connection holds the index file (after `statements`, the
    last of which opens its transaction)."""
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        for statement in statements:
            holder.execute(statement)
        return runner.invoke(cli, ["load", QUERY])
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def tables(conn: sqlite3.Connection) -> dict[str, list[tuple[object, ...]]]:
    names = ("meta", "files", "memories", "postings", "bands")
    return {name: sorted(conn.execute(f"SELECT * FROM {name}").fetchall(), key=repr)
            for name in names}


def test_first_index_equals_an_in_place_rebuild(workspace: Path) -> None:
    root = workspace / ".engram"
    memories(root, 120)
    write_memory(root, "broken.md", "---\nid: [oops\n---\n")
    index = ScopeIndex.open(root, WORKSPACE)
    try:
        db = Path(index.db_path)
        assert db.exists() and index.refresh() is True  # built by open(); refresh adopts it
        assert [p.rel for p in index.walk_problems] == []
        assert index.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert index.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        first = tables(index.conn)
        assert len(first["memories"]) == 120
        assert index.refresh() is False  # nothing changed since the build
        index.refresh(force=True)  # the in-place path: one transaction through the WAL
        assert tables(index.conn) == first
    finally:
        index.close()
    assert sorted(p.name for p in db.parent.iterdir() if BUILD_SUFFIX in p.name) == []


@pytest.mark.slow  # the kill family: thousands of files, killed mid-build
def test_killed_first_build_leaves_no_index(workspace: Path) -> None:
    root = workspace / ".engram"
    memories(root, 3000)
    reference = engram("load", QUERY, cwd=workspace)
    assert reference.returncode == 0
    cache = root / ".cache"
    shutil.rmtree(cache)
    proc = subprocess.Popen([sys.executable, "-m", "engram", "load", QUERY], cwd=workspace,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=os.environ.copy())
    deadline = time.monotonic() + 60
    while not any(BUILD_SUFFIX in p.name for p in cache.glob("*")) and proc.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.005)
    assert proc.poll() is None, "the build finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    # Readers never see a half-built index: the file only exists once it is complete.
    assert not (cache / INDEX_FILE).exists()
    assert any(BUILD_SUFFIX in p.name for p in cache.iterdir())
    after = engram("load", QUERY, cwd=workspace)
    assert after.returncode == 0, after.stderr.decode()
    assert after.stdout == reference.stdout
    assert not any(BUILD_SUFFIX in p.name for p in cache.iterdir())  # the next build cleared it


def test_leftover_wal_of_a_deleted_index_is_not_replayed(workspace: Path) -> None:
    root = workspace / ".engram"
    memories(root, 60)
    reference = engram("load", QUERY, cwd=workspace)
    assert reference.returncode == 0
    db = root / ".cache" / INDEX_FILE
    # A process that still had the old index open wrote to it after it was deleted: its WAL
    # and shared-memory files outlive the database.
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("DELETE FROM memories")
    conn.execute("UPDATE meta SET value='x' WHERE key='doc_count'")
    stale = {suffix: Path(f"{db}{suffix}").read_bytes() for suffix in ("-wal", "-shm")}
    assert len(stale["-wal"]) > 0
    conn.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    for suffix, data in stale.items():
        Path(f"{db}{suffix}").write_bytes(data)
    after = engram("load", QUERY, cwd=workspace)
    assert after.returncode == 0, after.stderr.decode()
    assert after.stdout == reference.stdout
    check = sqlite3.connect(db)
    try:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert check.execute("SELECT count(*) FROM memories").fetchone()[0] == 60
    finally:
        check.close()


def test_busy_index_is_reported_and_kept(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = workspace / ".engram"
    memories(root, 30)
    monkeypatch.chdir(workspace)
    runner = CliRunner()
    assert runner.invoke(cli, ["load", QUERY]).exit_code == 0
    db = root / ".cache" / INDEX_FILE
    inode = db.stat().st_ino
    write_memory(root, "harbor/m0000.md", "---\nid: m0000\ntype: rule\n---\nEdited harbor.\n")
    monkeypatch.setattr(_schema, "BUSY_TIMEOUT_S", 0.2)
    # Another process is writing the index, and slowly.
    result = load_while_held(runner, db, "BEGIN IMMEDIATE")
    assert result.exit_code == 1
    assert f"engram: {db}: cannot update the index: database is locked" in result.stderr
    # Busy is not damage: the index another process is using stays where it is.
    assert db.stat().st_ino == inode
    assert runner.invoke(cli, ["load", QUERY]).exit_code == 0


def test_first_build_that_cannot_write_is_reported(workspace: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    root = workspace / ".engram"
    memories(root, 5)
    real_build = _build._build_file

    def disk_full(path: str, fill: object) -> object:
        Path(path).write_bytes(b"partial")  # what a build leaves when the disk fills up
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(_build, "_build_file", disk_full)
    monkeypatch.chdir(workspace)
    result = CliRunner().invoke(cli, ["load", QUERY])
    db = root / ".cache" / INDEX_FILE
    assert result.exit_code == 1
    assert f"engram: {db}: cannot build the index: database or disk is full" in result.stderr
    assert sorted(p.name for p in db.parent.iterdir()) == [".gitignore", INDEX_FILE + ".lock"]
    monkeypatch.setattr(_build, "_build_file", real_build)
    assert CliRunner().invoke(cli, ["load", QUERY]).exit_code == 0


def test_index_locked_at_opening_is_reported_and_kept(workspace: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    root = workspace / ".engram"
    memories(root, 5)
    monkeypatch.chdir(workspace)
    runner = CliRunner()
    assert runner.invoke(cli, ["load", QUERY]).exit_code == 0
    db = root / ".cache" / INDEX_FILE
    monkeypatch.setattr(_schema, "BUSY_TIMEOUT_S", 0.2)
    # Another process holds the file in a rollback-journal exclusive lock: even reading the
    # WAL setting waits, then gives up.
    result = load_while_held(runner, db, "PRAGMA journal_mode=DELETE", "BEGIN EXCLUSIVE")
    assert result.exit_code == 1, result.output
    assert f"engram: {db}: cannot " in result.stderr and "locked" in result.stderr
    assert "Traceback" not in result.output
    assert db.exists()
    assert runner.invoke(cli, ["load", QUERY]).exit_code == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/fd")
def test_without_file_locks_the_first_index_is_built_in_place(
        workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import fcntl

    root = workspace / ".engram"
    memories(root, 20)
    real_flock = fcntl.flock

    def no_locks(fd: int, operation: int) -> None:
        if os.readlink(f"/proc/self/fd/{fd}").endswith(INDEX_FILE + ".lock"):
            raise OSError(errno.ENOLCK, "No locks available")  # as on some network mounts
        real_flock(fd, operation)

    monkeypatch.setattr(fcntl, "flock", no_locks)
    monkeypatch.chdir(workspace)
    result = CliRunner().invoke(cli, ["load", QUERY])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("engram: loaded ")
    index = ScopeIndex.open(root, WORKSPACE)
    try:
        assert index.doc_count() == 20 and index.refresh() is False
    finally:
        index.close()


def test_a_stalled_first_build_is_reported_not_waited_for(
        workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from engram.fsutil import file_lock

    root = workspace / ".engram"
    memories(root, 5)
    cache = root / ".cache"
    cache.mkdir()
    monkeypatch.setattr(_schema, "BUSY_TIMEOUT_S", 0.3)
    monkeypatch.chdir(workspace)
    results: list[Result] = []
    # Another process took the build lock and stopped (a ^Z in a terminal): a hook must not
    # wait for it for ever.
    with file_lock(cache / (INDEX_FILE + ".lock")):
        worker = threading.Thread(target=lambda: results.append(
            CliRunner().invoke(cli, ["load", QUERY])), daemon=True)
        worker.start()
        worker.join(timeout=20)
        assert not worker.is_alive(), "load waited for the stalled build"
    result = results[0]
    assert result.exit_code == 1
    assert f"engram: {cache / INDEX_FILE}: cannot build the index: another process is building" \
        in result.stderr
    assert not (cache / INDEX_FILE).exists()
    assert CliRunner().invoke(cli, ["load", QUERY]).exit_code == 0  # once the lock is free
