"""Verdicts on whole memory files: what is scanned.

A file's verdict is computed when it is indexed, from the bytes read then, and stored under
their sha256 (engram.index). At print time engram re-reads the file and hashes it: equal hashes
prove the bytes printed are the bytes scanned, so the stored verdict stands and nothing is
rescanned (engram.render). Bytes without a verdict (a bulk index leaves the scan to each
memory's first print, and a verdict from other rules is ignored) are judged there and then, and
the verdict is kept. `safety.allow` is applied at print time, never stored.
"""

from __future__ import annotations

from engram.model import Finding, Memory
from engram.safety import scan


def card_lines(text: str, memory: Memory) -> list[tuple[int, str]]:
    """Cards print frontmatter text: the parsed value, at its key's line, so the number is real."""
    out: list[tuple[int, str]] = []
    key_lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines()[:400], start=1):
        for key in ("directive", "summary"):
            if line.startswith(key + ":") and key not in key_lines:
                key_lines[key] = number
    for key, value in (("directive", memory.directive), ("summary", memory.summary)):
        if value:
            out.append((key_lines.get(key, 1), value))
    return out


def printed_text(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace").lstrip("\ufeff")


def judge(raw: bytes, memory: Memory) -> tuple[Finding, ...]:
    """Every finding on what this memory would print (its rendered body and its card text),
    before `safety.allow` is applied."""
    from engram.sections import rendered_lines

    text = printed_text(raw)
    return scan([*rendered_lines(text), *card_lines(text, memory)]).findings
