"""Frozen values passed between the stages of the read path.

No I/O here: every stage takes and returns these, so each can be tested on its own.
"""

from __future__ import annotations

from typing import NamedTuple

WORKSPACE = "workspace"
GLOBAL = "global"

TYPES = ("rule", "skill", "knowledge")
CONFIDENCES = ("high", "medium", "low")
AUTHORITIES = ("instruction", "reference")
LIFECYCLES = ("active", "review_due", "superseded", "archived")
LOAD_MODES = ("auto", "always")


class Problem(NamedTuple):
    """One finding about one file: `path:line: field: message`."""

    path: str
    line: int
    field: str
    message: str
    severity: str = "error"  # "error" | "warning"

    def __str__(self) -> str:
        # One problem, one line: a key or file name may hold line breaks or bidi controls.
        return f"{_one_line(self.path)}:{self.line}: {_one_line(self.field)}: " \
               f"{_one_line(self.message)}"


def _one_line(text: str) -> str:
    """`text` with line breaks and other unprintable characters escaped (`\\n`, `\\u202e`)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


class Memory(NamedTuple):
    """One parsed memory file. Dates are ISO strings; lists are tuples (hashable, frozen)."""

    id: str
    type: str
    scope: str  # WORKSPACE | GLOBAL
    rel_path: str  # posix path relative to the scope root
    sha256: str
    directive: str | None = None
    summary: str | None = None
    tags: tuple[str, ...] = ()
    triggers: tuple[str, ...] = ()
    applies_to: tuple[str, ...] = ()
    depends_on: tuple[str, ...] = ()
    level: int | None = None
    confidence: str = "medium"
    authority: str = "instruction"
    roles: tuple[str, ...] = ()
    lifecycle: str = "active"
    review_after: str | None = None
    valid_from: str | None = None
    valid_until: str | None = None
    sources: tuple[str, ...] = ()
    superseded_by: str | None = None
    load: str = "auto"
    safety_allow: tuple[str, ...] = ()
    # Text used for routing: the rendered body plus `## Context` (never `## Example`/`## Origin`).
    indexed_body: str = ""
    # The first sentence of the rendered body: the card text of last resort.
    first_sentence: str = ""
    # Exclusion clauses the author wrote ("do not use for X"): negative routing evidence.
    negations: tuple[str, ...] = ()
    unknown_keys: tuple[str, ...] = ()

    @property
    def card_text(self) -> str:
        return self.directive or self.summary or self.first_sentence


# What the safety scan finds (engram.safety), named here so that reading a memory's
# `safety: {allow: [...]}` does not import the scanner: an edit that is not printed never does.
SAFETY_KINDS: tuple[str, ...] = ("injection", "role-play", "exfiltration", "secret", "unicode")

# The version of the safety rules whose verdicts the index holds: the first 12 hex digits of
# the sha256 of engram/safety/*.py, sorted by name and joined, then the line model they read
# (engram/safety/line_model.bin). A stored verdict from other rules
# is ignored (the memory is rescanned); tests/test_safety_verdicts.py keeps this current.
SCANNER_VERSION = "435b2acf0179"


class Finding(NamedTuple):
    """A safety-scan verdict on one line of text that would be printed."""

    kind: str  # e.g. "injection", "role-play", "exfiltration", "secret", "unicode"
    line: int  # 1-based line number in the memory file
    detail: str = ""


class Candidate(NamedTuple):
    """A memory considered for a query, with every number dry-run shows."""

    memory: Memory
    bm25: float = 0.0
    multipliers: tuple[tuple[str, float], ...] = ()
    score: float = 0.0
    matched: tuple[tuple[str, str], ...] = ()  # (field, stemmed term)
    path_match: bool = False
    anchors_matched: int = 0
    strong_match: bool = False
    stale: bool = False
    excluded: str | None = None  # reason, or None when related
    excluded_detail: str = ""
    rank: int = 0  # 1-based position among related memories; 0 when not ranked
    layer: str | None = None  # the nested scope's folder, when several workspace layers apply


class PackItem(NamedTuple):
    """One memory in the printed pack."""

    memory: Memory
    disclosure: str  # "body" | "card" | "related"
    score: float
    requires: tuple[str, ...] = ()  # prerequisite ids, "(missing)" appended when absent
    stale: bool = False
    prerequisite_of: str | None = None  # set when pulled in only as a prerequisite
    body: str = ""  # rendered body (bodies only), checked and safe to print
    rank: int = 0  # position in rank order (prerequisites right after their dependent)


class Pack(NamedTuple):
    """The answer to one query: what to print and everything needed to explain it."""

    query: str
    anchors: tuple[str, ...]
    items: tuple[PackItem, ...]  # pack members in pack order, then related cards
    related_total: int
    candidates: tuple[Candidate, ...] = ()  # every candidate, ranked first, then excluded
    excluded: tuple[tuple[str, str], ...] = ()  # (id, reason)
    hidden_by_ignore: int = 0
    invalid: tuple[Problem, ...] = ()
    narrowing_tags: tuple[str, ...] = ()
    withheld: tuple[tuple[str, Finding], ...] = ()
    procedural: bool = False
    notes: tuple[str, ...] = ()  # human-readable remarks for dry-run
    warnings: tuple[str, ...] = ()  # stderr lines the caller should show (e.g. --id of archived)
