"""Structural forgeries: fake role headers, forged tool calls and results, text hidden by styling.

These are shapes, not phrases: a model treats `<function_calls>` or a line opening `[SYSTEM]` as
part of its own conversation, whatever the words around them say, so they are flagged inside
code fences too (see docs/safety.md). Each check takes the folded line and its lower-cased copy.
"""

from __future__ import annotations

import re

# Tool-use markup of the chat formats: a memory that carries it can forge a call or a result.
_TOOL_RE = re.compile(
    r"</?(?:function_calls|function_results|tool_use|tool_result|tool_call|tool_response"
    r"|antml:invoke|antml:function_calls)>|<(?:antml:)?invoke\s+name\s*=|<parameter\s+name\s*="
)
_TOOL_GATE = ("<function_", "</function_", "<tool_", "</tool_", "invoke", "<parameter", "antml")
# Role headers at the start of a line: `[SYSTEM]`, `[ADMIN OVERRIDE]`, `SYSTEM:` in capitals with
# a sentence after it, `IMPORTANT SYSTEM MESSAGE`, Alpaca's `### Instruction:`.
_BRACKET_RE = re.compile(
    r"^[\s>*#_-]*\[\s*(?:system|sys|admin|administrator|developer|root|operator)"
    r"(?:\s+(?:override|message|prompt|notice|instructions?|mode|update|note))?\s*\](?![(\[:])"
)
_CAPS_RE = re.compile(r"^[\s>*#_-]*(?:SYSTEM|ADMIN|DEVELOPER)\s*\**\s*:\s*\**\s*(?P<rest>\S.*)$")
_OFFICIAL_RE = re.compile(
    r"\b(?:important|urgent|critical|official|new|priority)\s+(?:system|admin|developer)\s+"
    r"(?:message|notice|instructions?|update|override|directive)\b"
    r"|\b(?:system|admin|developer|security)\s+override\b"
)
_ALPACA_RE = re.compile(r"^\s*#{1,6}\s*instruction\s*:")
# Inline styles that hide an element's text from the person reading the rendered page.
_HIDDEN_RE = re.compile(
    r"<[a-z][\w-]*\b[^>]*\bstyle\s*=\s*[\"'][^\"']*(?:display\s*:\s*none|visibility\s*:\s*hidden"
    r"|font-size\s*:\s*0(?:\.0+)?(?:px|em|rem|pt)?\s*(?:[;\"']|!important)|opacity\s*:\s*0(?:\.0+)?"
    r"\s*[;\"']|color\s*:\s*transparent\b)[^>]*>\s*[^<\s]"
)


def forged_tool_markup(low: str) -> tuple[int, str] | None:
    if not any(g in low for g in _TOOL_GATE):
        return None
    m = _TOOL_RE.search(low)
    return (m.start(), "forged tool-call markup " + m.group().rstrip("= ")) if m else None


def role_header(folded: str, low: str) -> tuple[int, str] | None:
    m = _BRACKET_RE.match(low)
    if m:
        return m.start(), "fake role header " + m.group().strip(" >*#_-")
    caps = _CAPS_RE.match(folded)
    if caps and len(caps.group("rest").split()) >= 3:
        return 0, "fake system turn"
    if "system" in low or "admin" in low or "developer" in low or "security" in low:
        official = _OFFICIAL_RE.search(low)
        if official:
            return official.start(), "fake system message"
    if "instruction" in low and _ALPACA_RE.match(low):
        return 0, "instruction-tuning header"
    return None


def hidden_text(low: str) -> int | None:
    if "style" not in low:
        return None
    m = _HIDDEN_RE.search(low)
    return m.start() if m else None
