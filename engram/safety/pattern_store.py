"""Compiled scanner patterns kept between processes.

`re` parses and compiles a pattern in pure Python, about a microsecond a character. A long real
rule file (74 KB of code, tables and security advice) opens about 200 of the scanner's ~400
patterns, and compiling them cost a new process about 170 ms, most of what editing that file
cost the next `load`. What `re` hands the C engine at the end is a program, a list of integers:
it is kept in the global scope's cache folder, keyed by the pattern's source and flags, and a
later process gives it straight to `_sre.compile`, as `re` does itself, in microseconds.

The program's format belongs to the interpreter, so the file is read only by the interpreter and
scanner that wrote it (`sys.version`, `_sre.MAGIC`, `_sre.CODESIZE`, SCANNER_VERSION); with any
other, or any error reading or building from it, a pattern is compiled by `re` as before. The C
engine validates every program it is given. The file sits beside the global index, which holds
verdicts already, and has the same trust: only its owner can write it.
"""

from __future__ import annotations

import array
import atexit
import importlib
import marshal
import os
import re
import sys
from pathlib import Path
from typing import Any

from engram.model import SCANNER_VERSION

_FILE_NAME = "patterns.bin"
_FORMAT = 1
# flags, program (array of CODESIZE-byte integers), groups, group names -> numbers, numbers -> names
_Program = tuple[int, bytes, int, dict[str, int], tuple[str | None, ...]]


class _Store:
    def __init__(self) -> None:
        self.programs: dict[tuple[str, int], _Program] | None = None
        self.added = False
        self.engine: Any = None


_STORE = _Store()


def compiled(pattern: str, flags: int) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, from the kept program when there is one."""
    programs = _programs()
    if _STORE.engine is None:
        return re.compile(pattern, flags)
    key = (pattern, int(flags))
    kept = programs.get(key)
    if kept is not None:
        try:
            return _build(pattern, kept)
        except Exception:  # noqa: BLE001 - a program this engine refuses: compile it afresh
            pass
    try:
        program = _program(pattern, int(flags))
        built = _build(pattern, program)
    except Exception:  # noqa: BLE001 - re's internals moved: compile the public way, keep nothing
        return re.compile(pattern, flags)
    programs[key] = program
    if not _STORE.added:
        _STORE.added = True
        atexit.register(_save)
    return built


def _tag() -> tuple[int, str, int, int, str]:
    engine = _STORE.engine
    return (_FORMAT, sys.version, engine.MAGIC, engine.CODESIZE, SCANNER_VERSION)


def _programs() -> dict[tuple[str, int], _Program]:
    if _STORE.programs is not None:
        return _STORE.programs
    _STORE.programs = {}
    try:
        engine = importlib.import_module("_sre")
        if array.array("I").itemsize != engine.CODESIZE:
            return _STORE.programs
        _STORE.engine = engine
        path = _path()
        if path is not None and path.is_file():
            tag, programs = marshal.loads(path.read_bytes())
            if tag == _tag() and isinstance(programs, dict):
                _STORE.programs = programs
    except Exception:  # noqa: BLE001 - an unreadable store is an empty one
        pass
    return _STORE.programs


def _program(pattern: str, flags: int) -> _Program:
    """What `re._compiler.compile` computes before it calls the engine."""
    parser = importlib.import_module("re._parser")
    compiler = importlib.import_module("re._compiler")
    parsed = parser.parse(pattern, flags)
    code = compiler._code(parsed, flags)
    state = parsed.state
    names: list[str | None] = [None] * state.groups
    for name, number in state.groupdict.items():
        names[number] = name
    return (int(flags | state.flags), array.array("I", code).tobytes(), state.groups - 1,
            dict(state.groupdict), tuple(names))


def _build(pattern: str, program: _Program) -> re.Pattern[str]:
    flags, code, groups, group_numbers, group_names = program
    built: re.Pattern[str] = _STORE.engine.compile(
        pattern, flags, array.array("I", code).tolist(), groups, group_numbers, group_names)
    return built


def _path() -> Path | None:
    from engram.paths import CACHE_DIRNAME, derived_dir, global_root

    folder = derived_dir(global_root(), CACHE_DIRNAME)
    return None if folder is None else folder / _FILE_NAME


def _save() -> None:
    """At exit, when this process compiled patterns the store lacked: the store as it is now
    plus them. Two processes saving at once each replace the file whole; the loser's patterns
    are compiled again by a later process."""
    try:
        path = _path()
        if path is None or _STORE.programs is None:
            return
        merged: dict[Any, Any] = dict(_STORE.programs)
        try:
            tag, others = marshal.loads(path.read_bytes())
            if tag == _tag() and isinstance(others, dict):
                merged = {**others, **merged}
        except Exception:  # noqa: BLE001 - nothing readable to merge
            pass
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_bytes(marshal.dumps((_tag(), merged)))
        os.replace(partial, path)
    except Exception:  # noqa: BLE001 - a store not written costs the next process its compiles
        pass
