"""Where a memory's body is: the frontmatter split and the hidden sections.

Printing re-reads every memory it shows, so this module stays small and cheap to import.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

HIDDEN_TITLES = ("context", "example", "origin")
LINE_BREAK = re.compile(r"\r\n|\r|\n")
DELIMITER = re.compile(r"---[ \t]*")
CLOSING = re.compile(r"(?:---|\.\.\.)[ \t]*")
HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*")
FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})(.*)")
_MARKS = frozenset("`~#")  # what a fence or a heading starts with, after its indent


def split_frontmatter(lines: list[str]) -> int | None:
    """Index of the closing delimiter line; None without an opening one, -1 if never closed."""
    if not lines or not DELIMITER.fullmatch(lines[0]):
        return None
    for index in range(1, len(lines)):
        if CLOSING.fullmatch(lines[index]):
            return index
    return -1


def split_lines(text: str) -> list[str]:
    """The text's lines, split at LINE_BREAK: text without a carriage return (most files) is
    split by `str.split`, several times faster than the pattern and the same lines."""
    return LINE_BREAK.split(text) if "\r" in text else text.split("\n")


def rendered_lines(raw_text: str) -> list[tuple[int, str]]:
    """The rendered body as (1-based file line, text) pairs: no frontmatter, no hidden sections."""
    lines = split_lines(raw_text.removeprefix("\ufeff"))
    closing = split_frontmatter(lines)
    if closing is None:
        start = 0
    elif closing < 0:
        return []  # an unterminated frontmatter: nothing after it is known to be body
    else:
        start = closing + 1
    body = list(enumerate(lines[start:], start=start + 1))
    return trim_blank([(n, t) for n, t, state in sections(body) if state == "shown"])


def opens_fence(text: str) -> str | None:
    """The fence a line opens (``` or ~~~, any indent, as list items indent them), or None."""
    opened = FENCE.match(text)
    if not opened or (opened.group(1)[0] == "`" and "`" in opened.group(2)):
        return None  # a backtick fence's info string never holds a backtick: inline code
    return opened.group(1)


def closes_fence(fence: str, text: str) -> bool:
    closed = FENCE.match(text)
    return bool(closed and closed.group(1)[0] == fence[0] and len(closed.group(1)) >= len(fence)
                and not closed.group(2).strip())


def sections(lines: list[tuple[int, str]]) -> Iterator[tuple[int, str, str]]:
    """Tag each body line: "shown", "context" (indexed only), "heading" of a hidden section, or
    "hidden" (Example/Origin). A hidden section runs to the next heading of its level or higher."""
    hidden: list[tuple[int, str]] = []  # open hidden sections, outermost first: (level, title)
    fence: str | None = None
    for number, text in lines:
        # Only a line whose first mark is one of these can be a fence or a heading: most lines
        # are prose, and a character test is far cheaper than a failed match.
        marked = text.lstrip(" \t")[:1] in _MARKS
        if fence is not None:
            if marked and closes_fence(fence, text):
                fence = None
        elif marked and (fence := opens_fence(text)) is None \
                and (heading := HEADING.fullmatch(text)):
            level = len(heading.group(1))
            title = (heading.group(2) or "").strip().lower()
            while hidden and hidden[-1][0] >= level:
                hidden.pop()
            if title in HIDDEN_TITLES:
                hidden.append((level, title))
                yield number, text, "heading"
                continue
        if not hidden:
            yield number, text, "shown"
        elif hidden[-1][1] == "context":
            yield number, text, "context"
        else:
            yield number, text, "hidden"


def trim_blank(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    start, end = 0, len(lines)
    while start < end and not lines[start][1].strip():
        start += 1
    while end > start and not lines[end - 1][1].strip():
        end -= 1
    return lines[start:end]
