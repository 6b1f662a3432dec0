"""Regular expressions compiled on first use.

The scan holds about 400 patterns, and compiling them all costs about 200 ms, which every
process that scans a memory paid at import: the hook that re-indexes the one memory just edited
paid it before answering. Scanning a rule file uses a few dozen of them (most stay behind word
gates), so each is compiled when first used, from the program a previous process kept when
there is one (engram.safety.pattern_store).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from engram.safety import pattern_store

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")


class LazyRegex:
    """A pattern used as `re.Pattern` is, compiled the first time one of its methods is read.
    The methods are then the compiled pattern's own, bound on the instance: no call in between
    on the scan's hot lines."""

    search: Callable[..., re.Match[str] | None]
    match: Callable[..., re.Match[str] | None]
    fullmatch: Callable[..., re.Match[str] | None]
    finditer: Callable[..., Iterator[re.Match[str]]]
    findall: Callable[..., list[Any]]
    sub: Callable[..., str]
    subn: Callable[..., tuple[str, int]]
    split: Callable[..., list[Any]]

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags

    def __getattr__(self, name: str) -> Any:
        # Called only for what the instance lacks: a method before the first use.
        if name not in _METHODS:
            raise AttributeError(name)
        compiled = pattern_store.compiled(self.pattern, self.flags)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)
