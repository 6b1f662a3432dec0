"""Edit a JSON document's text in place: only the members and elements that change are rewritten,
so a host config engram merges into keeps its author's layout, and install then uninstall gives
back the file byte for byte (inline objects, odd spacing and all).

`rewrite(text, old, new, style)` turns the text of `old` into a text of `new`; a new member or
element is laid out like its siblings (their indent), or in the file's detected `JsonStyle`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple

_DECODER = json.JSONDecoder()
_WS = " \t\r\n"


class JsonStyle(NamedTuple):
    """How a file was laid out, for text engram writes into it (and for files it creates)."""

    indent: int | str | None = 2
    separators: tuple[str, str] = (",", ": ")
    ascii_only: bool = False
    newline: str = "\n"
    final_newline: bool = True
    bom: bool = False

    @classmethod
    def of(cls, text: str, *, bom: bool = False) -> JsonStyle:
        body = text.strip()
        indent: int | str | None = 0 if "\n" in body else None
        if indent is not None:
            for line in body.splitlines()[1:]:
                lead = line[:len(line) - len(line.lstrip(" \t"))]
                if lead:
                    indent = "\t" if lead.startswith("\t") else len(lead)
                    break
        if indent is None:  # one line: keep its spacing after `:` and `,`
            colon = ": " if re.search(r'"\s*:\s', body) else ":"
            comma = ", " if re.search(r",\s", body) else ","
            separators = (comma, colon)
        else:
            separators = (",", ": ")
        return cls(indent, separators, bool(re.search(r"\\u[0-9a-fA-F]{4}", body))
                   and body.isascii(), "\r\n" if "\r\n" in text else "\n",
                   text.endswith("\n"), bom)

    def dumps(self, data: Any) -> str:
        """A whole file of `data` in this style."""
        text = self.value(data)
        if self.final_newline:
            text += "\n"
        return ("\ufeff" if self.bom else "") + text.replace("\n", self.newline)

    def value(self, data: Any, base: str = "") -> str:
        """One value, its continuation lines indented by `base` ("\n" line breaks)."""
        text = json.dumps(data, indent=self.indent, separators=self.separators,
                          ensure_ascii=self.ascii_only)
        return text.replace("\n", "\n" + base) if base else text

    @property
    def unit(self) -> str:
        if isinstance(self.indent, str):
            return self.indent
        return " " * (self.indent or 0)


@dataclass
class _Node:
    start: int
    end: int
    # (key or None, node, where the member starts: its key for objects, its value for arrays)
    children: list[tuple[str | None, _Node, int]] = field(default_factory=list)


def _parse(text: str, at: int) -> _Node:
    while text[at] in _WS:
        at += 1
    opener = text[at]
    if opener not in "{[":
        _, end = _DECODER.raw_decode(text, at)
        return _Node(at, end)
    node = _Node(at, at)
    closer = "}" if opener == "{" else "]"
    at += 1
    while True:
        while text[at] in _WS + ",":
            at += 1
        if text[at] == closer:
            node.end = at + 1
            return node
        member = at
        key = None
        if opener == "{":
            key, at = json.decoder.scanstring(text, at + 1)  # type: ignore[attr-defined]
            while text[at] in _WS + ":":
                at += 1
        child = _parse(text, at)
        node.children.append((key, child, member))
        at = child.end


class _Editor:
    def __init__(self, text: str, style: JsonStyle) -> None:
        self.text = text
        self.style = style
        self.edits: list[tuple[int, int, int, str]] = []  # start, order, end, replacement

    def replace(self, start: int, end: int, new: str) -> None:
        # Applied from the end backwards; at one position a deletion goes before an insertion.
        self.edits.append((start, 0 if start == end else 1, end, new))

    def apply(self) -> str:
        text = self.text
        for start, _, end, new in sorted(self.edits, reverse=True):
            text = text[:start] + new + text[end:]
        return text

    def line_indent(self, at: int) -> str:
        line_start = self.text.rfind("\n", 0, at) + 1
        line = self.text[line_start:at]
        return line[:len(line) - len(line.lstrip(" \t"))]

    def lead(self, member: int) -> str:
        """The whitespace right before a member (after the `,` or bracket before it)."""
        at = member
        while at > 0 and self.text[at - 1] in _WS:
            at -= 1
        return self.text[at:member]

    def member_text(self, key: str | None, value: Any, base: str) -> str:
        rendered = self.style.value(value, base)
        if key is None:
            return rendered
        return json.dumps(key, ensure_ascii=self.style.ascii_only) + self.style.separators[1] + \
            rendered

    def edit(self, node: _Node, old: Any, new: Any) -> None:
        if old == new:
            return
        if isinstance(old, dict) and isinstance(new, dict) and self.text[node.start] == "{":
            self._object(node, old, new)
        elif isinstance(old, list) and isinstance(new, list) and self.text[node.start] == "[":
            self._array(node, old, new)
        else:
            self.replace(node.start, node.end, self.style.value(new, self.line_indent(node.start)))

    def _object(self, node: _Node, old: dict[str, Any], new: dict[str, Any]) -> None:
        keys = [key or "" for key, _, _ in node.children]
        if len(set(keys)) != len(keys) or set(keys) != set(old):
            raise ValueError("duplicate keys")
        kept = [k for k in keys if k in new]
        if kept != [k for k in new if k in old]:
            raise ValueError("reordered keys")
        slots: list[tuple[int | None, Any]] = []  # (old index or None, new value)
        by_key = {k: i for i, k in enumerate(keys)}
        for key, value in new.items():
            slots.append((by_key.get(key), (key, value)))
        self._container(node, [(k, old[k]) for k in keys], slots)

    def _array(self, node: _Node, old: list[Any], new: list[Any]) -> None:
        if len(old) == len(new):
            for (_, child, _), before, after in zip(node.children, old, new, strict=True):
                self.edit(child, before, after)
            return
        self._container(node, [(None, v) for v in old], _align(old, new))

    def _container(self, node: _Node, old: list[tuple[str | None, Any]],
                   slots: list[tuple[int | None, Any]]) -> None:
        """`slots`: the new members in order, each the old index it keeps (edited in place when
        its value changed) or None for a new one; old members not named are deleted."""
        children = node.children
        keep = {i for i, _ in slots if i is not None}
        if not keep:
            self._fill(node, [value for _, value in slots])
            return
        for i, (_, child, member) in enumerate(children):
            if i in keep:
                continue
            if any(j < i for j in keep):  # from the end of the member before it
                self.replace(children[i - 1][1].end, child.end, "")
            else:  # up to the member after it, so the first kept one takes its place
                self.replace(member, children[i + 1][2], "")
        for index, value in slots:
            if index is not None:
                is_member = children[index][0] is not None
                self.edit(children[index][1], old[index][1], value[1] if is_member else value)
        new_items = [(pos, value) for pos, (i, value) in enumerate(slots) if i is None]
        if not new_items:
            return
        kept_positions = [(pos, i) for pos, (i, _) in enumerate(slots) if i is not None]
        for pos, value in new_items:
            after = [i for p, i in kept_positions if p < pos]
            if after:
                anchor = children[after[-1]]
                lead = self.lead(anchor[2])
                text = self.style.separators[0].rstrip() + lead + self._render(value, lead)
                self.replace(anchor[1].end, anchor[1].end, text)
            else:
                first = children[min(i for _, i in kept_positions)]
                lead = self.lead(first[2])
                text = self._render(value, lead) + self.style.separators[0].rstrip() + lead
                self.replace(first[2], first[2], text)

    def _render(self, value: Any, lead: str) -> str:
        key, data = value if isinstance(value, tuple) else (None, value)
        base = lead.rsplit("\n", 1)[-1] if "\n" in lead else ""
        return self.member_text(key, data, base)

    def _fill(self, node: _Node, values: list[Any]) -> None:
        """Members for a container that keeps none of its own: laid out in the file's style."""
        if not values:
            self.replace(node.start + 1, node.end - 1, "")
            return
        outer = self.line_indent(node.start)
        if self.style.indent is None:
            parts = [self._render(v, "") for v in values]
            self.replace(node.start + 1, node.end - 1, self.style.separators[0].join(parts))
            return
        inner = "\n" + outer + self.style.unit
        parts = [self._render(v, inner) for v in values]
        self.replace(node.start + 1, node.end - 1,
                     inner + ("," + inner).join(parts) + "\n" + outer)


def _align(old: list[Any], new: list[Any]) -> list[tuple[int | None, Any]]:
    """Each new element with the old one it keeps (equal values, in order), or None."""
    slots: list[tuple[int | None, Any]] = []
    at = 0
    for value in new:
        match = next((j for j in range(at, len(old)) if old[j] == value), None)
        if match is not None:
            at = match + 1
        slots.append((match, value))
    return slots


def rewrite(text: str, old: Any, new: Any, style: JsonStyle) -> str:
    """`text` (the JSON of `old`, without a BOM) changed into the JSON of `new`, touching only
    what differs; any text it cannot edit that way is written whole in `style`."""
    try:
        root = _parse(text, 0)
        editor = _Editor(text, style)
        editor.edit(root, old, new)
        out = editor.apply()
        if "\r\n" in text:
            out = re.sub(r"(?<!\r)\n", "\r\n", out)
        if json.loads(out) == new:
            return ("\ufeff" if style.bom else "") + out
    except (ValueError, IndexError, KeyError):
        pass
    return style.dumps(new)
