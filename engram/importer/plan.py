"""From drafts to files: unique ids, the memory text, and what to do with each target file.

A file import wrote carries a digest of its own text; a file whose text no longer matches it was
edited by hand and is left alone unless forced.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import NamedTuple

from engram.hashing import sha256
from engram.importer.model import Draft, Unmapped
from engram.parse import MAX_ID_CHARS

IMPORT_DIR = "imported"  # below .engram/: every imported memory, one file per id
_STAMP = re.compile(r"^# engram import: sha256=([0-9a-f]{16})$", re.MULTILINE)


class Step(NamedTuple):
    """One memory file of the plan and what import does with it."""

    action: str  # create | update | unchanged | edited (kept, hand-edited) | taken (not ours)
    rel: str  # path below the project, `.engram/imported/<id>.md`
    id: str
    type: str
    load: str
    applies_to: tuple[str, ...]
    source: str  # `path:line`
    text: str


def assign_ids(drafts: list[Draft], taken: set[str]) -> list[tuple[str, Draft]]:
    """Each draft's id: its name, else prefix-name, else a `-2`, `-3` suffix; in draft order.
    Every id fits the id limit: a nested file's folder prefix and a long heading together can
    outgrow it (`projects-openai-agents-python-agents-po-assistant-example-...`)."""
    used = set(taken)
    out: list[tuple[str, Draft]] = []
    for draft in drafts:
        options = [_fit(draft.name)]
        if draft.prefix and not draft.name.startswith(draft.prefix + "-"):
            options.append(_fit(f"{draft.prefix}-{draft.name}"))
        chosen = next((o for o in options if o not in used), None)
        n = 2
        while chosen is None:
            candidate = f"{_fit(options[-1], len(str(n)) + 1)}-{n}"
            chosen = candidate if candidate not in used else None
            n += 1
        used.add(chosen)
        out.append((chosen, draft))
    return out


def _fit(slug: str, reserve: int = 0) -> str:
    """The slug cut to the id limit less `reserve` characters, at a word where it can be."""
    room = MAX_ID_CHARS - reserve
    if len(slug) <= room:
        return slug
    cut = slug[:room]
    at = cut.rfind("-")
    return (cut[:at] if at >= room // 2 else cut).rstrip("-")


def merge_identical(drafts: list[Draft], notes: list[Unmapped]) -> list[Draft]:
    """One memory for text that two sources repeat word for word (CLAUDE.md copying AGENTS.md)."""
    first: dict[str, Draft] = {}
    out: list[Draft] = []
    for draft in drafts:
        key = " ".join(draft.body.split())
        kept = first.get(key)
        if kept is None or kept.applies_to != draft.applies_to:
            first.setdefault(key, draft)
            out.append(draft)
            continue
        kept.sources = tuple(dict.fromkeys((*kept.sources, *draft.sources)))
        if draft.load == "always":
            kept.load = "always"
        kept.origin.append(f"- the same text is in `{draft.source}` line {draft.line}")
        notes.append(Unmapped(draft.source, draft.line, f"same text as {kept.source}:"
                              f"{kept.line}; one memory holds both"))
    return out


def memory_text(memory_id: str, draft: Draft) -> str:
    """The memory file: frontmatter, the source's text unchanged, and an `## Origin` note."""
    front = [f"id: {memory_id}", f"type: {draft.type}"]
    if draft.summary:
        front.append(f"summary: {json.dumps(draft.summary, ensure_ascii=False)}")
    if draft.tags:
        front.append(f"tags: {json.dumps(list(draft.tags), ensure_ascii=False)}")
    if draft.applies_to:
        front.append(f"applies_to: {json.dumps(list(draft.applies_to), ensure_ascii=False)}")
    if draft.load != "auto":
        front.append(f"load: {draft.load}")
    front.append(f"sources: {json.dumps(list(draft.sources), ensure_ascii=False)}")
    origin = [f"Imported by `engram import` from `{draft.source}` (line {draft.line}).",
              *(["", *draft.origin] if draft.origin else [])]
    body = draft.body.strip("\n")
    rest = "\n".join(front) + "\n---\n" + body + "\n\n## Origin\n\n" + "\n".join(origin) + "\n"
    return f"---\n# engram import: sha256={_digest(rest)}\n{rest}"


def _digest(rest: str) -> str:
    return sha256(rest.encode("utf-8")).hexdigest()[:16]


def hand_edited(text: str) -> bool | None:
    """None: not written by import; False: exactly as import wrote it; True: edited since."""
    match = _STAMP.search(text[:200])
    if match is None or not text.startswith("---\n"):
        return None
    rest = text[:match.start()].removeprefix("---\n") + text[match.end() + 1:]
    return _digest(rest) != match.group(1)


def adopted(text: str) -> str:
    """An imported memory whose source no longer holds its text, as an ordinary memory: the
    import stamp and `sources` go (the original is gone or trimmed; `.engram/` is the source
    now), the rest stays byte for byte."""
    lines = text.split("\n")
    closing = next((i for i in range(1, len(lines)) if lines[i] == "---"), len(lines))
    keep = [line for n, line in enumerate(lines)
            if not (0 < n < closing and (_STAMP.fullmatch(line) or line.startswith("sources:")))]
    return "\n".join(keep)


def steps(project: Path, assigned: list[tuple[str, Draft]], force: bool) -> list[Step]:
    out: list[Step] = []
    for memory_id, draft in assigned:
        rel = f".engram/{IMPORT_DIR}/{memory_id}.md"
        text = memory_text(memory_id, draft)
        path = project / rel
        try:
            current: str | None = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            current = None
        except (OSError, UnicodeDecodeError):
            current = ""
        if current is None:
            action = "create"
        elif current == text:
            action = "unchanged"
        else:
            edited = hand_edited(current)
            if edited is None:
                action = "update" if force else "taken"
            elif edited and not force:
                action = "edited"
            else:
                action = "update"
        out.append(Step(action, rel, memory_id, draft.type, draft.load, draft.applies_to,
                        f"{draft.source}:{draft.line}", text))
    return out
