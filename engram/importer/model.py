"""The values import passes between its stages: a drafted memory and a note on what was not mapped.

No I/O here: readers turn files into drafts, `plan` gives them ids and paths, `write` applies it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


@dataclass
class Draft:
    """One memory an import would write, before it has its final id."""

    name: str  # the id it would like (a slug); `plan` makes it unique
    type: str
    body: str
    source: str  # project-relative path of the file it came from
    line: int  # 1-based line in `source` where its text starts
    summary: str | None = None
    applies_to: tuple[str, ...] = ()
    load: str = "auto"
    tags: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()  # every file its text came from (the source, @ imports)
    origin: list[str] = field(default_factory=list)  # notes kept in the memory's `## Origin`
    prefix: str = ""  # prepended to `name` when another draft wants the same id


class Unmapped(NamedTuple):
    """Something in a source that has no place in a memory: `path:line: what and why`."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"
