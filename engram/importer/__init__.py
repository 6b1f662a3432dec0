"""`engram import`: the agent rules a project already has (CLAUDE.md, AGENTS.md, Cursor, Copilot,
Claude, Windsurf and Cline rules, skills) as engram memories in `.engram/imported/`.

Idempotent, never overwrites a hand-edited memory unless forced, and reports what it could not map.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from engram.discover import walk
from engram.fsutil import atomic_write
from engram.importer import find, plan
from engram.importer.model import Draft, Unmapped
from engram.importer.readers import Reader
from engram.parse import parse_memory
from engram.stale import SourcesLock

__all__ = ["ImportReport", "format_report", "run"]

_READ = {
    "document": Reader.document, "cursor": Reader.cursor, "copilot": Reader.copilot,
    "claude-rule": Reader.claude_rule, "windsurf": Reader.windsurf, "skill": Reader.skill,
}


class ImportReport(NamedTuple):
    project: Path
    steps: tuple[plan.Step, ...]
    unmapped: tuple[Unmapped, ...]
    leftovers: tuple[str, ...]  # earlier imports no source produces, edited by hand (kept)
    adopted: tuple[str, ...]  # earlier imports no source produces: now ordinary memories
    problems: tuple[str, ...]  # a memory that would not parse, a lock that cannot be written
    dry_run: bool

    @property
    def ok(self) -> bool:
        return not self.problems


def run(project: Path, *, dry_run: bool = False, force: bool = False) -> ImportReport:
    """Read every rule file below `project`, plan the memories, and (unless dry_run) write them."""
    project = project.resolve()
    reader = Reader(project)
    drafts: list[Draft] = []
    found = find.sources(project)
    plain = {(project / rel).resolve(): rel for rel, _ in found
             if not (project / rel).is_symlink()}
    for rel, kind in found:
        target = plain.get((project / rel).resolve())
        if target is not None and target != rel:  # CLAUDE.md -> AGENTS.md: one text, read once
            reader.note(rel, 1, f"a symlink to {target}; read once, as {target}")
            continue
        drafts += _READ[kind](reader, rel)
    unmapped = list(reader.unmapped)
    drafts = plan.merge_identical(drafts, unmapped)
    ours, taken = _existing(project)
    assigned = plan.assign_ids(drafts, taken)
    steps = plan.steps(project, assigned, force)
    problems = _validate(steps)
    planned = {s.rel for s in steps}
    leftovers: list[str] = []
    adopt: dict[str, str] = {}
    for rel in sorted(r for r in ours if r not in planned):
        text = (project / rel).read_text(encoding="utf-8", errors="replace")
        if plan.hand_edited(text) and not force:
            leftovers.append(rel)
        else:
            adopt[rel] = plan.adopted(text)
    if not dry_run and not problems:
        problems += _apply(project, steps)
        for rel, text in adopt.items():
            atomic_write(project / rel, text, shared=True)
    return ImportReport(project, tuple(steps), tuple(sorted(set(unmapped), key=_order)),
                        tuple(leftovers), tuple(sorted(adopt)), tuple(problems), dry_run)


def _order(item: Unmapped) -> tuple[str, int, str]:
    return item.path, item.line, item.message


def _existing(project: Path) -> tuple[set[str], set[str]]:
    """(import's own files, ids of every other memory in the workspace)."""

    root = project / ".engram"
    ours: set[str] = set()
    taken: set[str] = set()
    if not root.is_dir():
        return ours, taken
    listing, _ = walk(root)
    for rel, _mtime, _size in listing:
        try:
            raw = (root / rel).read_bytes()
        except OSError:
            continue
        if rel.startswith(plan.IMPORT_DIR + "/") and plan.hand_edited(
                raw.decode("utf-8", "replace")) is not None:
            ours.add(f".engram/{rel}")
            continue
        memory, _problems = parse_memory(raw, display_path=rel, scope="workspace", rel_path=rel)
        if memory is not None:
            taken.add(memory.id)
    return ours, taken


def _validate(steps: list[plan.Step]) -> list[str]:

    problems: list[str] = []
    for step in steps:
        _memory, found = parse_memory(step.text.encode("utf-8"), display_path=step.rel,
                                      scope="workspace", rel_path=step.rel)
        problems += [f"{p} (from {step.source})" for p in found if p.severity == "error"]
    return problems


def _apply(project: Path, steps: list[plan.Step]) -> list[str]:

    written = []
    for step in steps:
        if step.action in ("create", "update"):
            atomic_write(project / step.rel, step.text, shared=True)
            written.append(step)
    memories = []
    for step in written:
        memory, _ = parse_memory(step.text.encode("utf-8"), display_path=step.rel,
                                 scope="workspace", rel_path=step.rel.removeprefix(".engram/"))
        if memory is not None:
            memories.append(memory)
    if not memories:
        return []
    # The originals' hashes as of now: `check` and dry-run flag a memory once its source moves on.
    return SourcesLock(project / ".engram").record(memories)


_VERB = {"create": "create", "update": "update", "unchanged": "same",
         "edited": "keep", "taken": "keep"}


def format_report(report: ImportReport) -> str:
    """One line per memory with its source, then what was not mapped, then a summary."""
    lines: list[str] = []
    for step in report.steps:
        routing = "always" if step.load == "always" else (
            "paths " + ",".join(step.applies_to) if step.applies_to else "routed")
        why = {"edited": "  (edited by hand; --force to update)",
               "taken": "  (not written by import; --force to replace)"}.get(step.action, "")
        lines.append(f"{_VERB[step.action]:<7}{step.rel}  {step.type}  {routing}  "
                     f"<- {step.source}{why}")
    for rel in report.adopted:
        lines.append(f"adopt  {rel}: its source no longer holds this text; now an ordinary "
                     "memory (import stamp and sources removed)")
    for rel in report.leftovers:
        lines.append(f"keep   {rel}: its source no longer holds this text, and it was edited by "
                     "hand; remove its `sources:` line or delete it (--force adopts it)")
    for item in report.unmapped:
        lines.append(f"not mapped: {item}")
    for problem in report.problems:
        lines.append(f"problem: {problem}")
    counts = {v: sum(1 for s in report.steps if s.action == v) for v in _VERB}
    head = "engram import (dry run, nothing written)" if report.dry_run else "engram import"
    lines.append(f"{head}: {len(report.steps)} memories: {counts['create']} new, "
                 f"{counts['update']} updated, {counts['unchanged']} unchanged, "
                 f"{counts['edited'] + counts['taken']} kept; {len(report.unmapped)} not mapped")
    return "\n".join(lines) + "\n"
