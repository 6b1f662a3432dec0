"""Instruction documents as memories: split at headings, `@path` imports found, type and tags
guessed.

Pure text functions; the readers decide what a chunk's scope, load mode and sources are.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from engram.sections import HEADING, closes_fence, opens_fence

MAX_ID_CHARS = 60  # leaves room for a prefix and a `-2` within parse's 80
_SLUG_DROP = re.compile(r"[^a-z0-9]+")
# `@docs/git.md` or `@./x.md` as Claude Code and Gemini CLI write imports; not `a@b.c` (email),
# not inside backticks.
_IMPORT = re.compile(r"(?<![\w`@])@((?:~|\.{1,2})?/?[\w.-][\w./-]*)")
_INLINE_CODE = re.compile(r"`[^`]*`")
_ORDERED = re.compile(r"\s{0,3}\d{1,3}[.)]\s+\S")
_BULLET = re.compile(r"\s{0,3}[-*+]\s+(.*)")
_DIRECTIVE_WORDS = re.compile(
    r"\b(must|never|always|do not|don't|should|shouldn't|avoid|prefer|make sure|ensure|only)\b",
    re.IGNORECASE)
_IMPERATIVE_START = re.compile(
    r"(use|do|don't|never|always|prefer|avoid|run|write|keep|make|add|put|call|check|ensure|"
    r"name|return|wrap|validate|log|test|document|import|commit|open|update|remove|follow)\b",
    re.IGNORECASE)
_STOP = frozenset("""a an and are as at be by for from how in into is it of on or our that the
this to we with when what where which you your about project notes general misc overview rules
guidelines instructions section""".split())


class Chunk(NamedTuple):
    heading: str | None  # the heading's text, None for the part before the first heading
    line: int  # 1-based line in the file (body_line + offset)
    text: str


def slug(text: str) -> str:
    out = _SLUG_DROP.sub("-", text.lower()).strip("-")
    return out[:MAX_ID_CHARS].rstrip("-")


def _headings(lines: list[str]) -> list[tuple[int, int, str]]:
    """(index, level, title) of every `#` heading outside code fences."""
    found: list[tuple[int, int, str]] = []
    fence: str | None = None
    for index, text in enumerate(lines):
        if fence is not None:
            if closes_fence(fence, text):
                fence = None
            continue
        fence = opens_fence(text)
        if fence is None and (match := HEADING.fullmatch(text)):
            found.append((index, len(match.group(1)), (match.group(2) or "").strip()))
    return found


def split(body: str, first_line: int) -> list[Chunk]:
    """Split at the shallowest heading level that occurs twice (deeper headings stay inside).

    A single `# Title` over `##` sections is a title: the sections are split and the title goes
    with the text before them. Nothing is dropped: the chunks' texts joined are the body.
    """
    lines = body.split("\n")
    heads = _headings(lines)
    levels = sorted({level for _, level, _ in heads})
    cut_level = next((lv for lv in levels if sum(1 for _, l2, _ in heads if l2 == lv) >= 2), None)
    if cut_level is None:
        return [Chunk(heads[0][2] if heads else None, first_line, body)] if body.strip() else []
    cuts = [(i, title) for i, level, title in heads if level == cut_level]
    chunks: list[Chunk] = []
    if cuts[0][0] > 0:
        chunks.append(Chunk(None, first_line, "\n".join(lines[:cuts[0][0]])))
    for n, (start, title) in enumerate(cuts):
        end = cuts[n + 1][0] if n + 1 < len(cuts) else len(lines)
        chunks.append(Chunk(title, first_line + start, "\n".join(lines[start:end])))
    return [c for c in chunks if c.text.strip()]


def imports(text: str) -> list[tuple[int, str]]:
    """(0-based line, path) of every `@path` import outside code."""
    found: list[tuple[int, str]] = []
    fence: str | None = None
    for index, line in enumerate(text.split("\n")):
        if fence is not None:
            if closes_fence(fence, line):
                fence = None
            continue
        if (fence := opens_fence(line)) is not None:
            continue
        for match in _IMPORT.finditer(_INLINE_CODE.sub(" ", line)):
            found.append((index, match.group(1).rstrip(".")))
    return found


def guess_type(text: str, default: str = "knowledge") -> str:
    """skill: three or more numbered steps; rule: mostly directives; else `default`."""
    content = [ln for ln in text.split("\n") if ln.strip() and not HEADING.fullmatch(ln)]
    if sum(1 for ln in content if _ORDERED.match(ln)) >= 3:
        return "skill"
    directives = 0
    for ln in content:
        bullet = _BULLET.fullmatch(ln)
        sentence = bullet.group(1) if bullet else ln.strip()
        if _DIRECTIVE_WORDS.search(sentence) or _IMPERATIVE_START.match(sentence):
            directives += 1
    if content and directives * 2 >= len(content):
        return "rule"
    return default


def guess_tags(*phrases: str, limit: int = 4) -> tuple[str, ...]:
    """A few routing words from a heading or file name: lower-case, no stop words, in order."""
    tags: list[str] = []
    for phrase in phrases:
        for word in re.findall(r"[a-z][a-z0-9+#]*", phrase.lower()):
            if len(word) >= 3 and word not in _STOP and word not in tags:
                tags.append(word)
    return tuple(tags[:limit])
