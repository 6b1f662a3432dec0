"""The maintenance commands as typed functions: check, verify and init.

Each returns values or raises EngramError; printing and exit codes belong to the CLI.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import NamedTuple

from engram.config import Config
from engram.errors import EngramError, UnknownIdError
from engram.graph import analyze
from engram.model import WORKSPACE, Memory, Problem
from engram.parse import MAX_FILE_BYTES
from engram.paths import SCOPE_DIRNAME
from engram.scopes import Request, Scopes, allow_in_force, resolve
from engram.stale import SourcesLock


def _config_problem(warning: str) -> Problem:
    """`path[:line]: key: problem (ignored: ...)` as a check problem on the config file."""
    path, _, rest = warning.partition(": ")
    line = 1
    file, _, number = path.rpartition(":")
    if file and number.isdigit():
        path, line = file, int(number)
    field, _, message = rest.partition(": ")
    return Problem(path, line, field, message) if message else Problem(path, line, "config", rest)


def check(request: Request) -> list[Problem]:
    """Every problem in both scopes, sorted: invalid files, warnings, graph problems, and the
    config keys the hooks set aside (an error here, while the hooks run on the defaults)."""
    ctx = resolve(request._replace(lenient_config=True))
    scopes = Scopes(ctx, force=True)
    try:
        problems = scopes.problems()
        records = scopes.all_records()
        paths = {r.memory.id: scopes.display(scopes.indexes[n], r.memory.rel_path)
                 for r, n in records}
        files = {r.memory.id: scopes.indexes[n].root / r.memory.rel_path for r, n in records}
        problems += _source_problems([(r.memory, scopes.indexes[n].root) for r, n in records],
                                     paths, files)
        problems += [_override_warning(r.memory, scopes.indexes[n].root, paths[r.memory.id],
                                       ctx.config) for r, n in records
                     if r.memory.safety_allow]
    finally:
        scopes.close()
    problems.extend(_config_problem(warning) for warning in ctx.config.warnings)
    report = analyze(request._replace(lenient_config=True))
    for mid, dep in report.missing:
        problems.append(Problem(paths[mid], key_line(files[mid], "depends_on"), "depends_on",
                                f"prerequisite '{dep}' does not exist (loads without it)",
                                "warning"))
    for cycle in report.cycles:
        for mid in cycle:
            others = ", ".join(m for m in cycle if m != mid) or mid
            problems.append(Problem(paths[mid], key_line(files[mid], "depends_on"),
                                    "depends_on", f"dependency cycle with {others}"))
    for group in report.duplicates:
        for mid in group:
            others = ", ".join(m for m in group if m != mid)
            problems.append(Problem(paths[mid], 1, "body",
                                    f"near-duplicate of {others} (a pack holds one)", "warning"))
    return sorted(set(problems), key=lambda p: (p.path, p.line, p.field, p.message))


def _override_warning(memory: Memory, root: Path, shown: str, config: Config) -> Problem:
    """`safety: {allow: [...]}` is never silent: `check` names each memory that carries one."""
    line = 1
    with contextlib.suppress(OSError):
        text = (root / memory.rel_path).read_text("utf-8", errors="replace")
        line = next((n for n, t in enumerate(text.splitlines(), 1) if t.startswith("safety:")), 1)
    kinds = ", ".join(memory.safety_allow)
    if not allow_in_force(memory, config):
        return Problem(shown, line, "safety", f"allow: {kinds}: refused by your config"
                       " (safety.workspace_overrides: refuse); the scan withholds as usual",
                       "warning")
    return Problem(shown, line, "safety", f"allow: {kinds}: the safety scan lets this memory"
                   f" through whatever {kinds} it finds", "warning")
def _source_problems(memories: list[tuple[Memory, Path]], paths: dict[str, str],
                     files: dict[str, Path]) -> list[Problem]:
    """A `sources` entry that does not exist, and each source changed since `engram verify`
    recorded it (the memory is stale: review it, then verify). Each workspace layer's sources
    are relative to its own project folder and recorded in its own sources.lock."""
    locks: dict[Path, SourcesLock] = {}
    out: list[Problem] = []
    for memory, root in memories:
        if memory.scope != WORKSPACE or not memory.sources:
            continue
        lock = locks.setdefault(root, SourcesLock(root))
        line = key_line(files[memory.id], "sources")
        for source in memory.sources:
            if not (root.parent / source).exists():
                out.append(Problem(paths[memory.id], line, "sources",
                                   f"{source} does not exist", "warning"))
            elif source in lock.changed(memory):
                out.append(Problem(paths[memory.id], line, "sources",
                                   f"{source} changed since it was recorded: the memory is "
                                   f"stale (review it, then run engram verify {memory.id})",
                                   "warning"))
    return out


def key_line(path: Path, key: str) -> int:
    """The 1-based line of a top-level frontmatter key, so a problem points at it (1 if absent)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read(MAX_FILE_BYTES).splitlines()
    except OSError:
        return 1
    for number, text in enumerate(lines[1:], start=2):
        if text.rstrip() in ("---", "..."):
            break
        if re.match(rf"{re.escape(key)}\s*:", text):
            return number
    return 1


class VerifyResult(NamedTuple):
    recorded: tuple[str, ...]
    problems: tuple[str, ...]
    lock_path: Path


def verify(request: Request, ids: tuple[str, ...] = ()) -> VerifyResult:
    """Record the current hashes of the memories' `sources` in `.engram/sources.lock`: the
    workspace's own memories (an outer layer's sources are relative to its folder, and its
    lock is its own)."""
    request = request._replace(layers=False)
    ctx = resolve(request)
    if ctx.engram_dir is None:
        raise EngramError(f"{ctx.cwd}: workspace: no {SCOPE_DIRNAME}/ folder (run engram init)")
    scopes = Scopes(ctx)
    try:
        records = {r.memory.id: r.memory for r, _ in scopes.all_records()}
    finally:
        scopes.close()
    unknown = [i for i in ids if i not in records]
    if unknown:
        raise UnknownIdError("verify: unknown id: " + ", ".join(unknown))
    chosen = [records[i] for i in (ids or tuple(sorted(records)))]
    lock = SourcesLock(ctx.engram_dir)
    problems = lock.record(chosen)
    assert lock.path is not None  # resolved above: the workspace exists
    return VerifyResult(tuple(m.id for m in chosen if m.sources), tuple(problems), lock.path)


_README = """# .engram: this project's memories

Each `*.md` file here (at any depth) is one memory: Markdown with YAML frontmatter.
engram routes the few that matter for a task into a coding agent's context.

- `type: rule` says what to do or not do; `type: skill` how to carry out a workflow;
  `type: knowledge` states facts.
- `id` and `type` are required; `tags`, `triggers`, `summary` and `directive` drive routing;
  `applies_to` globs load a memory when a matching file is touched; `depends_on` lists
  prerequisites that load first.
- `## Context` sections are indexed but never shown; `## Example` and `## Origin` are neither.

Try `engram load --dry-run "your task"` to see why a memory is or is not routed, and
`engram check` after editing. Full reference: docs/memory-format.md in the engram repository.
"""

_EXAMPLES = {
    "rules/example-rule.md": """---
id: example-rule
type: rule
directive: Write commit messages in the imperative mood.
tags: [git, commits]
triggers: ["write a commit message"]
---
Write commit subjects as commands ("Add parser"), under 72 characters.

## Context
Keeps `git log --oneline` readable and matches git's own messages.
""",
    "skills/example-skill.md": """---
id: example-skill
type: skill
summary: How to cut a release of this project.
tags: [release]
triggers: ["cut a release", "tag a version"]
depends_on: [example-rule]
---
1. Update the changelog.
2. Commit with an imperative message.
3. Tag the commit `vX.Y.Z` and push the tag.
""",
    "knowledge/example-knowledge.md": """---
id: example-knowledge
type: knowledge
summary: Where this project's configuration lives.
tags: [config]
---
Runtime settings are read from `config.yaml` at the repository root.
""",
}

_IGNORE = """# gitignore syntax: memories matched here are invisible to engram (a privacy control).
# drafts/
"""

# The examples would otherwise route on real prompts ("cut a release" got example-skill).
_IGNORE_EXAMPLES = """
# The examples engram init wrote: ignored, so they never reach an agent. Delete these lines to
# try them (engram load --dry-run "cut a release"), or delete the files.
""" + "".join(f"{rel}\n" for rel in sorted(_EXAMPLES))

_GITIGNORE = """# engram's derived data: rebuilt on demand, never committed
.cache/
.state/
"""


def init(project_dir: Path, examples: bool = True) -> list[Path]:
    """Create `.engram/` with a README, `.engramignore`, `.gitignore` and, unless `examples` is
    False, one example per type, listed in the new `.engramignore` so they stay inert.

    Never overwrites: existing files are left as they are (and with an `.engramignore` already
    there, no examples are written: nothing would keep them out of real packs). Returns the
    files created.
    """
    root = project_dir / SCOPE_DIRNAME
    examples = examples and not (root / ".engramignore").exists()
    files = {"README.md": _README, ".gitignore": _GITIGNORE,
             ".engramignore": _IGNORE + (_IGNORE_EXAMPLES if examples else ""),
             **(_EXAMPLES if examples else {})}
    created: list[Path] = []
    for rel, text in sorted(files.items()):
        path = root / rel
        if path.exists():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        created.append(path)
    return created
