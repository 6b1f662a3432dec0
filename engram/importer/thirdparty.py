"""Frontmatter as other tools write it: python-frontmatter first, a line reader when it is not YAML.

Cursor writes `globs: **/*.ts` unquoted, which YAML reads as an alias and refuses; Cursor itself
reads such lines as plain text, so the fallback does too.
"""

from __future__ import annotations

import re
from typing import Any

_KEY_LINE = re.compile(r"([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*)")


def split(text: str) -> tuple[dict[str, Any], str, int, bool]:
    """(fields, body, 1-based line where the body starts, whether YAML read the frontmatter).

    A file without frontmatter is all body. Never raises on content.
    """
    text = text.removeprefix("\ufeff")
    lines = text.split("\n")
    if not lines or lines[0].rstrip() != "---":
        return {}, text, 1, True
    closing = next((i for i in range(1, len(lines)) if lines[i].rstrip() in ("---", "...")), None)
    if closing is None:
        return {}, text, 1, True
    body = "\n".join(lines[closing + 1:])
    import frontmatter
    import yaml

    try:
        fields = frontmatter.loads(text).metadata
    except (yaml.YAMLError, ValueError, TypeError):
        return _by_line(lines[1:closing]), body, closing + 2, False
    return (dict(fields) if isinstance(fields, dict) else {}), body, closing + 2, True


def _by_line(lines: list[str]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for line in lines:
        match = _KEY_LINE.fullmatch(line.rstrip())
        if match:
            value = match.group(2).strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            fields[match.group(1)] = {"true": True, "false": False}.get(value.lower(), value)
    return fields


def globs(value: object) -> list[str]:
    """A glob field as written by Cursor, Copilot or Windsurf: a list, or one comma-separated
    string (commas inside braces belong to the brace group)."""
    if value is None or value == "":
        return []
    items = value if isinstance(value, list) else [value]
    out: list[str] = []
    for item in items:
        if not isinstance(item, str):
            continue
        depth, start = 0, 0
        for pos, ch in enumerate(item + ","):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth = max(0, depth - 1)
            elif ch == "," and depth == 0:
                part = item[start:pos].strip().strip("\"'")
                if part and part not in out:
                    out.append(part)
                start = pos + 1
    return out
