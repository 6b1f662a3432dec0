"""Surgical edits of a user's JSON and TOML config text: one named entry in, or out again.

Everything else in the file keeps its bytes: its formatting, key order, comments (TOML) and
other entries. An entry is inserted as the first member of its object (JSON) or appended as the
last table (TOML), and removing it is the exact inverse, so install then uninstall gives back
the original file byte for byte.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import TYPE_CHECKING, NamedTuple

from engram.errors import EngramError

if TYPE_CHECKING:
    from typing import Any

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\r\n]*")


class _Member(NamedTuple):
    key: str
    start: int  # where its key's opening quote is
    value_start: int
    value_end: int


def _skip(text: str, pos: int) -> int:
    match = _SPACE.match(text, pos)
    return match.end() if match else pos


def _object(text: str, start: int) -> tuple[list[_Member], int]:
    """The members of the object whose `{` is at `start`, and where its `}` is."""
    members: list[_Member] = []
    pos = _skip(text, start + 1)
    if text[pos] == "}":
        return members, pos
    while True:
        key, after = _DECODER.raw_decode(text, pos)
        colon = _skip(text, after)
        value_start = _skip(text, colon + 1)
        _, value_end = _DECODER.raw_decode(text, value_start)
        members.append(_Member(key, pos, value_start, value_end))
        pos = _skip(text, value_end)
        if text[pos] == "}":
            return members, pos
        pos = _skip(text, pos + 1)  # the comma


def parse_json(text: str, where: str) -> dict[str, Any]:
    """The document, which must be one plain JSON object (no comments: they would be lost)."""
    if not text.strip():
        return {}
    try:
        data = json.loads(text.lstrip("\ufeff"))
    except ValueError as exc:
        raise EngramError(f"{where}: not plain JSON ({exc}); engram will not rewrite it") from None
    if not isinstance(data, dict):
        raise EngramError(f"{where}: expected a JSON object")
    return data


def _top(text: str) -> int:
    return _skip(text.lstrip("\ufeff"), 0) + (len(text) - len(text.lstrip("\ufeff")))


def _insert_first(text: str, open_at: int, members: list[_Member], close_at: int, key: str,
                  value_text: str, indent: str) -> str:
    member = json.dumps(key, ensure_ascii=False) + ": " + value_text
    if members:
        # The whitespace before the old first member goes before the new one too.
        gap = text[open_at + 1:members[0].start]
        return text[:open_at + 1] + gap + member + "," + text[open_at + 1:]
    return text[:open_at] + "{\n" + indent + "  " + member + "\n" + indent + "}" + \
        text[close_at + 1:]


def _remove(text: str, open_at: int, members: list[_Member], close_at: int, n: int) -> str:
    if len(members) == 1:
        return text[:open_at] + "{}" + text[close_at + 1:]
    if n == 0:  # the inverse of _insert_first: up to and including the comma after it
        comma = text.index(",", members[0].value_end)
        return text[:open_at + 1] + text[comma + 1:]
    return text[:members[n - 1].value_end] + text[members[n].value_end:]


def json_set(text: str, where: str, container: str, name: str, value: Any) -> str:
    """`text` with `container.name` set to `value` (container created first when absent)."""
    parse_json(text, where)
    value_text = json.dumps(value, ensure_ascii=False)
    if not text.strip():
        text = "{}\n"
    top = _top(text)
    members, close = _object(text, top)
    holder = next((m for m in members if m.key == container), None)
    if holder is None:
        return _insert_first(text, top, members, close, container,
                             "{" + json.dumps(name, ensure_ascii=False) + ": " + value_text + "}",
                             "")
    if text[holder.value_start] != "{":
        raise EngramError(f"{where}: {container}: expected an object")
    inner, inner_close = _object(text, holder.value_start)
    mine = next((m for m in inner if m.key == name), None)
    if mine is not None:
        if json.loads(text[mine.value_start:mine.value_end]) == value:
            return text  # equal already: its formatting is the user's
        return text[:mine.value_start] + value_text + text[mine.value_end:]
    line_start = text.rfind("\n", 0, holder.start) + 1
    indent = re.match(r"[ \t]*", text[line_start:]).group()  # type: ignore[union-attr]
    return _insert_first(text, holder.value_start, inner, inner_close, name, value_text, indent)


def json_remove(text: str, where: str, container: str, name: str) -> str:
    """`text` without `container.name`; the container goes too when that leaves it empty."""
    data = parse_json(text, where)
    holder_value = data.get(container)
    if not isinstance(holder_value, dict) or name not in holder_value:
        return text
    top = _top(text)
    members, close = _object(text, top)
    n = next(i for i, m in enumerate(members) if m.key == container)
    holder = members[n]
    inner, inner_close = _object(text, holder.value_start)
    if len(inner) == 1:
        return _remove(text, top, members, close, n)
    k = next(i for i, m in enumerate(inner) if m.key == name)
    return _remove(text, holder.value_start, inner, inner_close, k)


# ---- TOML ---------------------------------------------------------------------------------------

_HEADER = re.compile(r"^[ \t]*\[\[?([^\]]*)\]\]?[ \t]*(#.*)?$")


def _table_path(line: str) -> tuple[str, ...] | None:
    match = _HEADER.match(line)
    if match is None:
        return None
    try:
        # A header's dotted key parses as a key of a one-line document.
        data = tomllib.loads(f"{match.group(1)} = 0")
    except tomllib.TOMLDecodeError:
        return None
    path: list[str] = []
    node: Any = data
    while isinstance(node, dict) and len(node) == 1:
        key = next(iter(node))
        path.append(key)
        node = node[key]
    return tuple(path)


def parse_toml(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise EngramError(f"{where}: not valid TOML ({exc}); engram will not rewrite it") from None


def _block(lines: list[str], table: tuple[str, ...]) -> tuple[int, int] | None:
    """The line range of `[table]` and its sub-tables, None when it is not written as one."""
    start = None
    for n, line in enumerate(lines):
        path = _table_path(line)
        if path is None:
            continue
        if start is None and path == table:
            start = n
        elif start is not None and path[:len(table)] != table:
            return start, n
    return (start, len(lines)) if start is not None else None


def toml_table(table: tuple[str, ...], values: dict[str, Any]) -> str:
    """`[a.b]` and one `key = value` line per value (strings and lists of strings)."""
    head = "[" + ".".join(k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k)
                          for k in table) + "]\n"
    return head + "".join(f"{key} = {json.dumps(value, ensure_ascii=False)}\n"
                          for key, value in values.items())


def toml_set(text: str, where: str, table: tuple[str, ...], values: dict[str, Any]) -> str:
    """`text` with `[table]` holding exactly `values`: replaced in place, or appended."""
    parse_toml(text, where)
    block_text = toml_table(table, values)
    lines = text.splitlines(keepends=True)
    found = _block(lines, table)
    if found is None:
        if _lookup(parse_toml(text, where), table) is not None:
            raise EngramError(f"{where}: {'.'.join(table)} is written inline; engram will "
                              "not rewrite it")
        if not text:
            return block_text
        return text + ("" if text.endswith("\n") else "\n") + "\n" + block_text
    start, end = found
    tail = "".join(lines[end:])
    # Keep the blank line(s) that separated the old block from the next table.
    old = "".join(lines[start:end])
    trailing = old[len(old.rstrip("\n")):]
    return "".join(lines[:start]) + block_text + trailing[1:] + tail


def toml_remove(text: str, where: str, table: tuple[str, ...]) -> str:
    """`text` without `[table]` (and the blank line that `toml_set` put before it)."""
    parse_toml(text, where)
    lines = text.splitlines(keepends=True)
    found = _block(lines, table)
    if found is None:
        return text
    start, end = found
    before, after = lines[:start], lines[end:]
    if not after and before and before[-1].strip() == "":
        before = before[:-1]
    return "".join(before + after)


def _lookup(data: dict[str, Any], path: tuple[str, ...]) -> Any:
    node: Any = data
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node
