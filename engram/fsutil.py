"""Small file-system helpers every writer shares: atomic replace, so a killed process never
leaves a half-written file behind, and an advisory lock for read-modify-write."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import IO

# What tempfile.mkstemp opens with (an exclusive, private file that is never a symlink), without
# importing tempfile, shutil and random on every prompt (~2 ms).
_TEMP_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_BINARY", 0))


def atomic_write(path: Path, text: str, *, shared: bool = False, durable: bool = True) -> None:
    """Write `text` to a temp file beside `path`, then rename it over: readers never see half.

    `shared` files (host configs, rule files and sources.lock, meant to be committed) keep an
    existing file's mode, else get the usual 0644 minus umask, instead of mkstemp's private 0600.
    A file that is not `durable` skips the fsync: a killed process still leaves the old or the
    new file whole, and only a power cut can lose the new one.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _temp_beside(path)
    try:
        if shared:
            try:
                mode = path.stat().st_mode & 0o7777
            except OSError:
                umask = os.umask(0)
                os.umask(umask)
                mode = 0o666 & ~umask
            os.chmod(tmp, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            if durable:
                os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _temp_beside(path: Path) -> tuple[int, str]:
    """A new temp file `.<name>.<random>.tmp` in the same folder (so the rename is atomic)."""
    for _ in range(100):
        tmp = os.path.join(path.parent, f".{path.name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, _TEMP_FLAGS, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temp file name beside {path}")


@contextlib.contextmanager
def file_lock(lock_path: Path, timeout: float | None = None) -> Iterator[None]:
    """An exclusive advisory lock held for the block (fcntl.flock; msvcrt on Windows).

    With a `timeout`, waiting longer than that many seconds raises TimeoutError.
    """
    with open(lock_path, "a+b") as handle:
        _lock(handle, timeout, lock_path)
        # Opening for append keeps the old mtime; touch it so prune() sees the session is alive.
        with contextlib.suppress(OSError):
            os.utime(lock_path)
        try:
            yield
        finally:
            _unlock(handle)


_LOCK_POLL_SECONDS = 0.02


def _lock(handle: IO[bytes], timeout: float | None, lock_path: Path) -> None:
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        handle.seek(0)
        mode = msvcrt.LK_LOCK if deadline is None else msvcrt.LK_NBLCK  # type: ignore[attr-defined]
        while True:
            try:
                msvcrt.locking(handle.fileno(), mode, 1)  # type: ignore[attr-defined]
                return
            except OSError:  # LK_LOCK gives up after ~10 s; keep waiting like flock does
                _wait_or_give_up(deadline, timeout, lock_path)
    if deadline is None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        return
    while True:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            _wait_or_give_up(deadline, timeout, lock_path)


def _wait_or_give_up(deadline: float | None, timeout: float | None, lock_path: Path) -> None:
    if deadline is None:
        return
    if time.monotonic() >= deadline:
        raise TimeoutError(f"{lock_path}: held by another process for over {timeout:g} s")
    time.sleep(_LOCK_POLL_SECONDS)


def _unlock(handle: IO[bytes]) -> None:
    try:
        import fcntl
    except ImportError:
        import msvcrt

        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]
        return
    fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
