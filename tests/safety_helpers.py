"""The kinds the safety scan finds in a text, for the tests that judge lines one by one."""

from __future__ import annotations

from engram.safety import scan


def kinds(text: str) -> set[str]:
    return {f.kind for f in scan(enumerate(text.splitlines(), start=1)).findings}
