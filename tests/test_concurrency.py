"""Many processes at once, killed processes and damaged files: no delivery lost or repeated, no
state or cache left unreadable, and a corrupt cache or state file is rebuilt transparently."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from engram.hook import run_hook
from engram.index import INDEX_FILE
from engram.index._blocks import ENTRY
from engram.state import read_state, session_file
from tests.conftest import write_memory
from tests.reliability_log import record

pytestmark = pytest.mark.slow  # a slow family: `-m "not slow"` leaves it out locally

HEADER = re.compile(r"^### (\S+) \[", re.MULTILINE)
TOPICS = ("harbor", "lantern", "meadow", "glacier", "orchard", "canyon", "falcon", "quartz",
          "willow", "ember", "summit", "breeze", "cobalt", "thistle", "marble", "ripple")
# Iterations of the kill loop; bench/reliability.py raises it through this variable.
SCALE = float(os.environ.get("ENGRAM_FUZZ_SCALE", "1"))


def engram(*args: str, stdin: bytes | None = None, cwd: Path | None = None,
           timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "engram", *args], input=stdin, cwd=cwd,
                          capture_output=True, timeout=timeout, env=os.environ.copy())


def spawn(*args: str, stdin: Path | None = None,
          cwd: Path | None = None) -> subprocess.Popen[bytes]:
    """Start engram with stdin read from a file, so every process runs at once."""
    command = [sys.executable, "-m", "engram", *args]
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    if stdin is None:
        return subprocess.Popen(command, stdin=subprocess.DEVNULL, cwd=cwd,
                                env=os.environ.copy(), **pipes)
    with open(stdin, "rb") as handle:  # the child keeps its own copy
        return subprocess.Popen(command, stdin=handle, cwd=cwd, env=os.environ.copy(), **pipes)


def prompt_payload(project: Path, session: str, prompt: str) -> bytes:
    return json.dumps({"session_id": session, "transcript_path": "/tmp/t.jsonl",
                       "cwd": str(project), "hook_event_name": "UserPromptSubmit",
                       "prompt": prompt, "permission_mode": "default"}).encode()


def topic_workspace(project: Path) -> None:
    """Memory i is tagged with topic i and mentions topic i+1: neighbouring prompts overlap."""
    for i, topic in enumerate(TOPICS):
        following = TOPICS[(i + 1) % len(TOPICS)]
        write_memory(project / ".engram", f"{topic}.md",
                     f"---\nid: {topic}-notes\ntype: rule\ntags: [{topic}]\n---\n"
                     f"Handle {topic} work with care; see also {following}.\n")


def delivered_ids(project: Path, host: str, session: str) -> set[str]:
    state = read_state(session_file(project / ".engram" / ".state", host, session))
    return {key.split("@", 1)[0] for key in state.delivered}


def body_ids(stdout: bytes) -> list[str]:
    if not stdout.strip():
        return []
    context = json.loads(stdout)["hookSpecificOutput"]["additionalContext"]
    return HEADER.findall(context)


def integrity(db: Path) -> str:
    conn = sqlite3.connect(db)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


# ---- parallel hooks ---------------------------------------------------------------------------


def test_parallel_hooks_lose_and_repeat_nothing(workspace: Path, tmp_path: Path) -> None:
    topic_workspace(workspace)
    engram("load", "warm the index", cwd=workspace)  # the race under test is the state, not it
    sessions = [f"parallel-{n}" for n in range(max(1, int(SCALE)))]
    for session in sessions:
        parallel_rounds(workspace, tmp_path, session)
    log = (workspace / ".engram" / ".state" / "log.jsonl").read_text(encoding="utf-8")
    entries = [json.loads(line) for line in log.splitlines()]
    for session in sessions:
        prompt_entries = [e for e in entries if e["session"] == session]
        assert len(prompt_entries) == 2 * len(TOPICS)  # one log line per call, none lost
        logged = [mid for e in prompt_entries for mid in e["delivered"]]
        assert sorted(logged) == sorted(delivered_ids(workspace, "claude", session))


def parallel_rounds(workspace: Path, tmp_path: Path, session: str) -> None:
    """16 hooks at once on one session, twice: the second round must deliver nothing new."""
    first_state: set[str] = set()
    for round_no in range(2):
        procs = []
        for i, topic in enumerate(TOPICS):
            following = TOPICS[(i + 1) % len(TOPICS)]
            stdin = tmp_path / f"payload-{session}-{round_no}-{i}.json"
            stdin.write_bytes(prompt_payload(workspace, session,
                                             f"how should we handle {topic} and {following}"))
            procs.append(spawn("hook", "claude", stdin=stdin))
        results = [proc.communicate(timeout=120) + (proc.returncode,) for proc in procs]
        assert all(code == 0 for _, _, code in results), [err for _, err, _ in results]
        assert all(b"Traceback" not in err for _, err, _ in results)
        per_output = [body_ids(out) for out, _, _ in results]
        flat = [mid for ids in per_output for mid in ids]
        state = delivered_ids(workspace, "claude", session)
        expected = state if round_no == 0 else set()
        record("concurrency: 16 parallel hooks, one session", processes=len(procs),
               deliveries=len(flat), lost=len(expected - set(flat)),
               duplicated=len(flat) - len(set(flat)), crashes=sum(
                   code != 0 or b"Traceback" in err for _, err, code in results))
        assert len(flat) == len(set(flat)), f"delivered twice: {flat}"
        if round_no == 0:
            assert set(flat) == state
            assert len(state) >= len(TOPICS) // 2  # the prompts really routed something
            first_state = state
        else:
            assert flat == []  # the same prompts again: everything was delivered in round one
            assert state == first_state


# ---- killed processes -------------------------------------------------------------------------


def big_workspace(project: Path, count: int = 600) -> None:
    rng = random.Random(11)
    for n in range(count):
        topic = TOPICS[n % len(TOPICS)]
        words = " ".join(rng.choice(TOPICS) for _ in range(40))
        write_memory(project / ".engram", f"{topic}/m{n:04d}.md",
                     f"---\nid: mem-{n:04d}\ntype: rule\ntags: [{topic}, deploy]\n---\n"
                     f"Deploy {topic} steps: {words}.\n")


def processes_in(folder: Path) -> list[str]:
    """Pids of processes whose working directory is `folder` (Linux /proc; else none)."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if os.readlink(proc / "cwd") == str(folder):
                found.append(proc.name)
        except OSError:
            continue
    return found


def test_killed_processes_leave_readable_state_and_cache(workspace: Path, tmp_path: Path) -> None:
    big_workspace(workspace)
    query = "deploy harbor lantern"
    started = time.monotonic()
    reference = engram("load", query, cwd=workspace)
    cold_seconds = time.monotonic() - started
    assert reference.returncode == 0
    db = workspace / ".engram" / ".cache" / INDEX_FILE
    session = "killed-session"
    state_path = session_file(workspace / ".engram" / ".state", "claude", session)
    started = time.monotonic()
    timing = engram("hook", "claude", stdin=prompt_payload(workspace, "timing", "deploy harbor"))
    hook_seconds = time.monotonic() - started
    assert timing.returncode == 0
    rng = random.Random(5)
    killed = 0
    for n in range(max(2, int(8 * SCALE))):
        if n % 2 == 0:  # cold: the kill lands while the index is being written
            for suffix in ("", "-wal", "-shm"):
                Path(str(db) + suffix).unlink(missing_ok=True)
            proc = spawn("load", query, cwd=workspace)
        else:  # a hook: index refresh, routing and the state write
            (workspace / ".engram" / TOPICS[n % 16] / f"m{n:04d}.md").touch()
            stdin = tmp_path / f"kill-{n}.json"
            stdin.write_bytes(prompt_payload(workspace, session, f"deploy {TOPICS[n % 16]} now"))
            proc = spawn("hook", "claude", stdin=stdin)
        # Anywhere in the run, however fast the machine: start-up, indexing, routing, writing.
        time.sleep(rng.uniform(0.0, 0.9) * (cold_seconds if n % 2 == 0 else hook_seconds))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            killed += 1
        proc.communicate(timeout=60)
        if state_path.exists():
            json.loads(state_path.read_text(encoding="utf-8"))  # never half written
        after = engram("load", query, cwd=workspace)
        record("concurrency: SIGKILL mid-run", runs=1, killed=int(proc.returncode == -9),
               unreadable=int(after.returncode != 0 or after.stdout != reference.stdout))
        assert after.returncode == 0, after.stderr
        assert after.stdout == reference.stdout
        assert integrity(db) == "ok"
    assert killed >= 1  # at least one kill landed mid-run, or the test proved nothing
    # Index workers of a killed parent die with it (they used to stay blocked on their result
    # pipe, holding inherited descriptors, and later commands hung on them).
    deadline = time.monotonic() + 10
    while processes_in(workspace) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_in(workspace) == []
    leftovers = [p.name for p in (workspace / ".engram" / ".state").glob("*.tmp")]
    leftovers += [p.name for p in db.parent.glob("*.tmp")]
    assert len(leftovers) <= killed  # a kill may strand a temp file; it is never read


# ---- corrupt files ----------------------------------------------------------------------------


def _corrupt(db: Path, mode: str, rng: random.Random) -> None:
    data = bytearray(db.read_bytes())
    if mode == "garbage":
        data = bytearray(rng.randbytes(len(data)))
    elif mode == "truncated":
        data = data[: len(data) // 3]
    elif mode == "header":
        data[16:100] = rng.randbytes(84)
    else:  # one damaged page deep inside: only a query that reads it notices
        page = int(mode.removeprefix("page"))
        start = len(data) * page // 8 // 4096 * 4096
        data[start:start + 4096] = rng.randbytes(4096)
    db.write_bytes(bytes(data))


def indexed(workspace: Path, count: int) -> tuple[str, subprocess.CompletedProcess[bytes], Path]:
    """A workspace of `count` memories after one load: (query, that load, the index file)."""
    big_workspace(workspace, count)
    query = "deploy harbor lantern"
    before = engram("load", query, cwd=workspace)
    return query, before, workspace / ".engram" / ".cache" / INDEX_FILE


def assert_same_load(workspace: Path, query: str,
                     before: subprocess.CompletedProcess[bytes]) -> None:
    """After damage to the cache, a load still succeeds quietly and prints what it did before."""
    after = engram("load", query, cwd=workspace)
    assert after.returncode == 0, after.stderr.decode()
    assert b"Traceback" not in after.stderr
    assert after.stdout == before.stdout


@pytest.mark.parametrize("mode", ["garbage", "truncated", "header", "page2", "page4", "page6"])
def test_corrupt_cache_is_rebuilt(workspace: Path, mode: str) -> None:
    query, before, db = indexed(workspace, 250)
    # Checkpoint the WAL into the main file so the damage hits real data.
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    _corrupt(db, mode, random.Random(mode))
    assert_same_load(workspace, query, before)
    if mode.startswith("page"):
        # A damaged page only matters once a query reads it (then the index is rebuilt on the
        # spot); a page this query never reads may stay damaged until a full re-index.
        assert engram("check", cwd=workspace).returncode == 0
        assert engram("load", query, cwd=workspace).stdout == before.stdout
    assert integrity(db) == "ok"
    record("faults: corrupt cache", files=1, rebuilt=1)
    payload = prompt_payload(workspace, "after-corruption", query)
    _corrupt(db, mode, random.Random(mode + "again"))
    hook = run_hook("claude", payload)
    assert hook.stderr == () and body_ids(hook.stdout.encode())


@pytest.mark.parametrize("damage", ["flipped", "shortened", "text"])
def test_damaged_posting_block_is_rebuilt(workspace: Path, damage: str) -> None:
    # SQLite checks its pages, not the bytes of a large value: a garbled posting block must be
    # caught by its checksum and rebuilt, never decoded into invented memories.
    query, before, db = indexed(workspace, 250)
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT rowid, entries FROM postings WHERE term IN"
                        " ('deploy', 'harbor', 'lantern')").fetchall()
    assert rows
    for rowid, blob in rows:
        if damage == "flipped":
            bad: object = bytes(b ^ 0x5A for b in blob)
        elif damage == "shortened":
            bad = blob[:-3]
        else:
            bad = "not a block"
        conn.execute("UPDATE postings SET entries=? WHERE rowid=?", (bad, rowid))
    conn.commit()
    conn.close()
    assert_same_load(workspace, query, before)
    assert integrity(db) == "ok"


def test_posting_of_a_memory_the_index_lacks_is_rebuilt(workspace: Path) -> None:
    # A block that passes its checksum but names a memory key no row holds (a cache written by
    # something else, or a bug): the load rebuilds the index instead of failing on the key.
    query, before, db = indexed(workspace, 60)
    conn = sqlite3.connect(db)
    blob = ENTRY.pack(999_999, 1, 0, 10.0)
    conn.execute("INSERT INTO postings (term, lo, hi, crc, entries) VALUES (?,?,?,?,?)",
                 ("deploy", 999_999, 999_999, zlib.crc32(blob), blob))
    conn.commit()
    conn.close()
    assert_same_load(workspace, query, before)


@pytest.mark.parametrize("garbage", [b"\x00\xff garbage", b'{"version": 1, "delivered": ',
                                     b"[]", b"null", b'{"version": 1, "delivered": 5}'])
def test_corrupt_state_is_rebuilt(workspace: Path, garbage: bytes) -> None:
    topic_workspace(workspace)
    session = "corrupt-state"
    payload = prompt_payload(workspace, session, "how should we handle harbor and lantern")
    first = run_hook("claude", payload)
    assert body_ids(first.stdout.encode())
    path = session_file(workspace / ".engram" / ".state", "claude", session)
    path.write_bytes(garbage)
    again = run_hook("claude", payload)
    # The state is unreadable, so the session starts over: the same delivery as the first call.
    assert again.stderr == ()
    assert again.stdout == first.stdout
    json.loads(path.read_text(encoding="utf-8"))
    assert delivered_ids(workspace, "claude", session) == set(body_ids(first.stdout.encode()))
    record("faults: corrupt state", files=1, rebuilt=1)


# ---- parallel index refreshes -----------------------------------------------------------------


def test_parallel_loads_share_one_index(workspace: Path) -> None:
    big_workspace(workspace, 400)
    query = "deploy harbor lantern"
    db = workspace / ".engram" / ".cache" / INDEX_FILE
    for round_no in range(3):
        if round_no == 1:
            for n in range(0, 400, 37):  # an incremental refresh races this time
                path = next((workspace / ".engram").glob(f"*/m{n:04d}.md"))
                path.write_text(path.read_text(encoding="utf-8") + "Edited harbor.\n",
                                encoding="utf-8")
        procs = [spawn("load", query, cwd=workspace) for _ in range(4)]
        outputs = [proc.communicate(timeout=120) + (proc.returncode,) for proc in procs]
        sequential = engram("load", query, cwd=workspace)
        for out, err, code in outputs:
            assert code == 0, err.decode()
            assert out == sequential.stdout
        assert integrity(db) == "ok"
        conn = sqlite3.connect(db)
        files = conn.execute("SELECT count(*) FROM files").fetchone()[0]
        memories = conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        conn.close()
        assert files == memories == 400
        record("concurrency: parallel index refresh", processes=len(procs), rounds=1,
               mismatches=0)
