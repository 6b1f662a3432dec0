"""Walk a scope root and list its memory files, applying the scope's `.engramignore`.

pathspec is imported here only, and only when an ignore file or a glob actually needs it.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from engram.model import Problem

IGNORE_FILE = ".engramignore"
NOT_MEMORIES = frozenset({"README.md"})


class FileStat(NamedTuple):
    rel: str  # posix, relative to the scope root
    mtime_ns: int
    size: int


Listing = list[tuple[str, int, int]]  # FileStat fields as plain tuples: a cheap, exact digest


def walk(root: Path) -> tuple[Listing, list[Problem]]:
    """Every `*.md` below root (sorted), skipping dot-folders, READMEs and escaping symlinks.

    This runs on every load over every file, so the common case (a plain Markdown file or
    folder) takes the fewest calls; symlinks take the careful path. Entries are plain tuples,
    not FileStat: a named tuple's constructor is a Python call, paid once per file.
    """
    found: Listing = []
    problems: list[Problem] = []
    try:
        real_root = os.path.realpath(root)
    except OSError:
        return found, problems
    seen_dirs: set[str] = {real_root}
    stack: list[tuple[str, str]] = [(str(root), "")]
    append = found.append
    while stack:
        folder, prefix = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError:
            continue
        for entry in entries:
            name = entry.name
            if name[0] == ".":
                continue
            try:
                # is_file(follow_symlinks=False) is False for a symlink, so a plain file is
                # settled by the first test.
                if name[-3:] == ".md" and entry.is_file(follow_symlinks=False):
                    if name not in NOT_MEMORIES:
                        st = entry.stat(follow_symlinks=False)
                        append((prefix + name, st.st_mtime_ns, st.st_size))
                elif entry.is_symlink():
                    _symlink(entry, prefix, real_root, seen_dirs, stack, found, problems)
                elif entry.is_dir(follow_symlinks=False):
                    stack.append((entry.path, prefix + name + "/"))
            except OSError:
                continue
    found.sort()
    return found, problems


def _symlink(entry: os.DirEntry[str], prefix: str, real_root: str, seen_dirs: set[str],
             stack: list[tuple[str, str]], found: Listing,
             problems: list[Problem]) -> None:
    """Follow a symlink only when it resolves inside the root (and to a folder not seen yet)."""
    name = entry.name
    rel = prefix + name
    target = os.path.realpath(entry.path)
    if not (target == real_root or target.startswith(real_root + os.sep)):
        if name.endswith(".md") or os.path.isdir(entry.path):
            problems.append(Problem(rel, 1, "file", "symlink points outside the scope root; "
                                    "not followed", "warning"))
        return
    if entry.is_dir():
        if target not in seen_dirs:  # a symlink loop inside the root
            seen_dirs.add(target)
            stack.append((entry.path, rel + "/"))
    elif name.endswith(".md") and name not in NOT_MEMORIES:
        st = entry.stat()
        found.append((rel, st.st_mtime_ns, st.st_size))


def listing_signature(listing: Listing) -> str:
    """A digest of every (path, mtime, size): equal digests mean no file was added, removed or
    touched, so a warm load can skip comparing file by file. marshal serialises the list in C;
    its format only changes with the interpreter, and a changed digest merely means one
    file-by-file comparison."""
    return hashlib.blake2b(marshal.dumps(listing), digest_size=16).hexdigest()


def ignore_signature(root: Path) -> str:
    """Changes whenever the ignore file does, so the index knows to re-evaluate it."""
    try:
        st = (root / IGNORE_FILE).stat()
    except OSError:
        return "none"
    return f"{st.st_mtime_ns}:{st.st_size}"


class IgnoreRules:
    """The compiled `.engramignore` of one scope (gitignore syntax, `!` negation included)."""

    def __init__(self, root: Path) -> None:
        self._spec: Any = None
        try:
            lines = (root / IGNORE_FILE).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return
        if any(line.strip() and not line.lstrip().startswith("#") for line in lines):
            import pathspec

            self._spec = pathspec.PathSpec.from_lines("gitignore", lines)

    def ignored(self, rel: str) -> bool:
        return bool(self._spec is not None and self._spec.match_file(rel))


def compile_globs(globs: Iterable[str]) -> list[tuple[str, bool]]:
    """gitignore-style globs as (regex, include) pairs, stored in the index so that matching a
    touched path on the hot path needs only `re`, never pathspec.

    Braces are expanded first (`**/*.{ts,tsx}`): Cursor globs and VS Code `applyTo` use them,
    gitignore syntax has none, and unexpanded they would match no real file.
    """
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

    compiled: list[tuple[str, bool]] = []
    for glob in globs:
        for alternative in expand_braces(glob):
            regex, include = GitIgnoreSpecPattern.pattern_to_regex(alternative)
            if regex is not None and include is not None:
                compiled.append((regex, bool(include)))
    return compiled


MAX_BRACE_EXPANSIONS = 256  # a glob is a handful of alternatives; more is a pathological input


def expand_braces(glob: str) -> list[str]:
    """`a{b,c{d,e}}f` -> [abf, acdf, acef]; a brace group without a top-level comma stays literal,
    as in minimatch and bash."""
    out: list[str] = []
    pending = [glob]
    while pending and len(out) < MAX_BRACE_EXPANSIONS:
        current = pending.pop(0)
        group = _brace_group(current)
        if group is None:
            out.append(current)
            continue
        start, end, options = group
        pending.extend(current[:start] + option + current[end + 1:] for option in options)
    return out + pending[: max(0, MAX_BRACE_EXPANSIONS - len(out))]


def _brace_group(text: str) -> tuple[int, int, list[str]] | None:
    """The first `{...}` holding a top-level comma: (start, end, its alternatives)."""
    for start, ch in enumerate(text):
        if ch != "{" or (start and text[start - 1] == "\\"):
            continue
        depth, commas = 0, [start]
        for pos in range(start, len(text)):
            if text[pos] == "{":
                depth += 1
            elif text[pos] == "}":
                depth -= 1
                if depth == 0:
                    if len(commas) > 1:
                        bounds = [*commas, pos]
                        return start, pos, [text[a + 1:b]
                                            for a, b in zip(bounds, bounds[1:], strict=False)]
                    break
            elif text[pos] == "," and depth == 1:
                commas.append(pos)
    return None
