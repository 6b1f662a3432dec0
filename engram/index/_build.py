"""Building an index: parsing and encoding files (in worker processes for many files), and the
first build of a scope, made aside and linked into place.

Private to engram.index.
"""

from __future__ import annotations

import gc
import itertools
import json
import os
import sqlite3
import sys
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path

from engram.discover import FileStat
from engram.errors import IndexWriteError
from engram.fsutil import file_lock
from engram.index import _blocks as blocks
from engram.index import _schema as schema
from engram.index._encoding import Prepared, prepare
from engram.model import Memory, Problem

PARALLEL_MIN = 400  # below this many files, starting worker processes costs more than it saves
JOB_FILES = (64, 2000)  # files per worker job: fewer, larger blocks to merge, several per worker
AHEAD = 2  # jobs in flight per worker: the workers never wait for the writer, and a 100k-memory
# index never holds more than a few thousand files' results at once

# (root, scope, files, key of the first file): the i-th file's memory gets key first + i.
_Job = tuple[str, str, list[FileStat], int]
# Per file: its stat, key, prepared memory (None when invalid) and problems (as JSON).
_Batch = tuple[list[tuple[FileStat, int, Prepared | None, str]], dict[str, bytes]]


def _prepare_files(job: _Job) -> _Batch:
    """Parse and prepare some files, and build their posting blocks (in a worker process, or
    in this one)."""
    root, scope, stats, first_key = job
    out: list[tuple[FileStat, int, Prepared | None, str]] = []
    entries = []
    for key, stat in enumerate(stats, start=first_key):
        memory, problems, _ = _parse_file(Path(root), stat, scope)
        prepared = None
        if memory is not None:
            prepared, term_counts, lens, dl = prepare(memory)
            entries.append((key, term_counts, lens, dl))
        out.append((stat, key, prepared, json.dumps([problem_row(p) for p in problems])))
    return out, blocks.build(entries)


@contextmanager
def collector_paused() -> Iterator[None]:
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


def prepare_all(root: Path, scope: str, stats: list[FileStat], first_key: int
                ) -> Iterator[_Batch]:
    """Every file parsed and prepared, in order, in batches with their posting blocks; a cold
    index of many files uses every core (parsing and tokenizing are the cost; SQLite writes
    stay in this process). Nothing is safety-scanned here: each memory is judged at its first
    print (engram.safety.verdicts)."""
    workers = min(os.cpu_count() or 1, 8)

    def make_job(files: list[FileStat], first: int) -> _Job:
        return (str(root), scope, files, first)

    if len(stats) < PARALLEL_MIN or workers < 2:
        yield _prepare_files(make_job(stats, first_key))
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    jobs = (make_job(stats[start:end], first_key + start)
            for start, end in job_bounds(len(stats), workers))
    handed = 0
    try:
        with ProcessPoolExecutor(max_workers=workers, initializer=_start_worker,
                                 mp_context=multiprocessing.get_context(method)) as pool:
            # A sliding window, not rounds: a new job goes out as each result comes in, so no
            # worker idles while this process writes the last results of a round.
            running = deque(pool.submit(_prepare_files, job)
                            for job in itertools.islice(jobs, workers * AHEAD))
            while running:
                batch = running.popleft().result()
                for job in itertools.islice(jobs, 1):
                    running.append(pool.submit(_prepare_files, job))
                yield batch
                handed += len(batch[0])
    except (OSError, BrokenProcessPool, RuntimeError, ImportError):
        # No worker processes here (a sandbox without semaphores, a killed worker): the rest
        # is parsed in this process, so indexing is slower but never fails for it.
        yield _prepare_files(make_job(stats[handed:], first_key + handed))


def job_bounds(count: int, workers: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each job over `count` files: a quarter of a worker's share each, then,
    once fewer files are left than two such jobs per worker, half a worker's share of what is
    left (JOB_FILES bounding both). The last jobs are small, so the workers finish together:
    the writer never waits on one worker's large last job while the other core idles."""
    size = max(JOB_FILES[0], min(JOB_FILES[1], count // (workers * 4)))
    start = 0
    while start < count:
        end = start + max(JOB_FILES[0], min(size, (count - start) // (workers * 2)))
        yield start, min(end, count)
        start = end


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


def _parse_file(root: Path, stat: FileStat, scope: str
                ) -> tuple[Memory | None, list[Problem], bytes]:
    """The file's memory (None when invalid), its problems, and the bytes both came from."""
    # The parser (and yaml behind it) is imported only when a file actually changed.
    from engram.parse import MAX_FILE_BYTES, parse_memory

    path = root / stat.rel
    if stat.size > MAX_FILE_BYTES:
        return None, [Problem(stat.rel, 1, "file", f"file is {stat.size} bytes, over the "
                              f"{MAX_FILE_BYTES // 1024} KiB limit for a memory; skipped")], b""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Problem(stat.rel, 1, "file", f"cannot read: {exc.strerror or exc}")], b""
    return (*parse_memory(raw, display_path=stat.rel, scope=scope, rel_path=stat.rel), raw)


# Fills a new, empty database with the whole scope (a full refresh); returns the walk's problems.
Fill = Callable[[sqlite3.Connection, str], list[Problem]]


def connect_building(db_path: str, fill: Fill) -> tuple[sqlite3.Connection, list[Problem] | None]:
    """A connection to the index file, built aside first when there is none (with the build's
    walk problems; None when it was there already or another process built it)."""
    built = None
    if db_path != ":memory:" and not os.path.exists(db_path):
        built = build_aside(db_path, fill)
    return schema.connect(db_path), built


BUILD_SUFFIX = ".build-"


def build_aside(db_path: str, fill: Fill) -> list[Problem] | None:
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
            held.enter_context(file_lock(Path(db_path + ".lock"), timeout=schema.BUSY_TIMEOUT_S))
        except TimeoutError as exc:  # a builder stopped (^Z) or very slow: never hang a hook
            raise IndexWriteError(f"{db_path}: cannot build the index: another process is"
                                  f" building it ({exc})") from exc
        except OSError:  # no locks on this file system (some network mounts): build in place
            return None
        return None if os.path.exists(db_path) else _build_and_link(db_path, fill)


def _build_and_link(db_path: str, fill: Fill) -> list[Problem] | None:
    folder, name = os.path.split(db_path)
    for leftover in os.listdir(folder):
        if leftover.startswith(name + BUILD_SUFFIX):  # of a build that was killed
            with suppress(OSError):
                os.unlink(os.path.join(folder, leftover))
    temp = f"{db_path}{BUILD_SUFFIX}{os.getpid()}"
    try:
        try:
            problems = _build_file(temp, fill)
        except (sqlite3.OperationalError, OSError) as exc:  # a full or failing disk
            raise IndexWriteError(f"{db_path}: cannot build the index: {exc}") from exc
        # A WAL or shared-memory file without its database belongs to a deleted one: SQLite
        # would replay it into the new file.
        for suffix in schema.COMPANIONS:  # any other failure must stop the link
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


def _build_file(path: str, fill: Fill) -> list[Problem]:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        # Nothing to roll back to and nothing to survive a crash for: a failed build is deleted.
        conn.execute("PRAGMA journal_mode=OFF")
        conn.execute("PRAGMA synchronous=OFF")
        schema.create_tables(conn)
        problems = fill(conn, path)
        conn.execute("PRAGMA journal_mode=WAL")  # what every later connection expects
    finally:
        conn.close()
    # It becomes the index only now: make it durable before its name says it is complete.
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    return problems


def problem_row(problem: Problem) -> dict[str, object]:
    return problem._asdict()
