"""Small file-system helpers every writer shares: atomic replace, so a killed process never
leaves a half-written file behind."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def atomic_write(path: Path, text: str, *, shared: bool = False) -> None:
    """Write `text` to a temp file beside `path`, then rename it over: readers never see half.

    `shared` files (host configs, rule files and sources.lock, meant to be committed) keep an
    existing file's mode, else get the usual 0644 minus umask, instead of mkstemp's private 0600.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
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
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
