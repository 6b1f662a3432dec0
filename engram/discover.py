"""Walk a scope root and list its memory files, applying the scope's `.engramignore`.

pathspec is imported here only, and only when an ignore file or a glob actually needs it.
"""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Iterable
from pathlib import Path

from engram.hashing import blake2b
from engram.model import Problem
from engram.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any

IGNORE_FILE = ".engramignore"
NOT_MEMORIES = frozenset({"README.md"})


class FileStat(NamedTuple):
    rel: str  # posix, relative to the scope root
    mtime_ns: int
    size: int


Listing = list[tuple[str, int, int]]  # FileStat fields as plain tuples: a cheap, exact digest
Link = tuple[str, str]  # (path, rel) of a symlink: followed after the plain folders
SPLIT_MIN_FILES = 4_000  # from this many files on, a forked child walks half of them


def walk(root: Path, split: bool = False) -> tuple[Listing, list[Problem]]:
    """Every `*.md` below root (sorted), skipping dot-folders, READMEs and escaping symlinks.

    This runs on every load over every file (one stat each), so the common case (a plain
    Markdown file or folder) takes the fewest calls. Entries are plain tuples, not FileStat: a
    named tuple's constructor is a Python call, paid once per file. Plain folders are walked
    first and symlinks followed afterwards, one by one in path order, so the result never
    depends on the order a file system lists a folder in.

    With `split` (a large scope), a forked child walks half of the plain folders: on 100,000
    files two processes take two thirds of the time one does. Any trouble with the child and
    the parent walks that half itself.
    """
    found: Listing = []
    problems: list[Problem] = []
    try:
        real_root = os.path.realpath(root)
    except OSError:
        return found, problems
    links: list[Link] = []
    folders = [(str(root), "")]
    if split and _can_fork():
        folders = _frontier(folders, found, links, want=16)
        child = _fork_walk(folders[1::2])
        _walk_plain(folders[0::2], found, links)
        _join(child, folders[1::2], found, links)
    else:
        _walk_plain(folders, found, links)
    _follow_links(links, real_root, found, problems)
    found.sort()
    return found, problems


def _scan(folder: str, prefix: str, found: Listing, links: list[Link]) -> list[tuple[str, str]]:
    """One folder: its memory files into `found`, its symlinks into `links`; its subfolders."""
    try:
        with os.scandir(folder) as it:
            entries = list(it)
    except OSError:
        return []
    subfolders = []
    for entry in entries:
        name = entry.name
        if name[0] == ".":
            continue
        try:
            # is_file(follow_symlinks=False) is False for a symlink, so a plain file is settled
            # by the first test.
            if name[-3:] == ".md" and entry.is_file(follow_symlinks=False):
                if name not in NOT_MEMORIES:
                    st = entry.stat(follow_symlinks=False)
                    found.append((prefix + name, st.st_mtime_ns, st.st_size))
            elif entry.is_symlink():
                links.append((entry.path, prefix + name))
            elif entry.is_dir(follow_symlinks=False):
                subfolders.append((entry.path, prefix + name + "/"))
        except OSError:
            continue
    return subfolders


def _walk_plain(folders: list[tuple[str, str]], found: Listing, links: list[Link]) -> None:
    stack = list(folders)
    while stack:
        folder, prefix = stack.pop()
        stack += _scan(folder, prefix, found, links)


def _frontier(folders: list[tuple[str, str]], found: Listing, links: list[Link],
              want: int) -> list[tuple[str, str]]:
    """Walk breadth-first until at least `want` folders are left to walk (sorted), so two
    processes can take alternate ones and get about the same share."""
    while 0 < len(folders) < want:
        deeper: list[tuple[str, str]] = []
        for folder, prefix in folders:
            deeper += _scan(folder, prefix, found, links)
        folders = deeper
    return sorted(folders)


def _can_fork() -> bool:
    # Forking is cheap and safe on Linux in a single-threaded process; elsewhere (macOS system
    # libraries, other threads holding locks) it is not worth the risk.
    threading = sys.modules.get("threading")
    return sys.platform.startswith("linux") and hasattr(os, "fork") and (
        threading is None or threading.active_count() == 1)


def _fork_walk(folders: list[tuple[str, str]]) -> tuple[int, int] | None:
    """(child pid, read end of its pipe), the child walking `folders`; None when no child."""
    if not folders:
        return None
    try:
        read_fd, write_fd = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(read_fd)
        os.close(write_fd)
        return None
    if pid == 0:  # the child: walk, hand the result over, and leave without any clean-up
        status = 1
        try:
            os.close(read_fd)
            found: Listing = []
            links: list[Link] = []
            _walk_plain(folders, found, links)
            with os.fdopen(write_fd, "wb") as pipe:
                pipe.write(marshal.dumps((found, links)))
            status = 0
        finally:
            os._exit(status)
    os.close(write_fd)
    return pid, read_fd


def _join(child: tuple[int, int] | None, folders: list[tuple[str, str]], found: Listing,
          links: list[Link]) -> None:
    """Take the child's half of the walk, or walk it here when the child did not deliver."""
    if child is not None:
        pid, read_fd = child
        with os.fdopen(read_fd, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(pid, 0)
        if status == 0:
            try:
                their_found, their_links = marshal.loads(data)
            except (EOFError, ValueError, TypeError):
                pass
            else:
                found += their_found
                links += their_links
                return
    _walk_plain(folders, found, links)


def _follow_links(links: list[Link], real_root: str, found: Listing,
                  problems: list[Problem]) -> None:
    """Follow symlinks in path order, each only when it resolves inside the root (a folder
    only when not walked yet: no loops)."""
    seen_dirs = {real_root}
    pending = sorted(links, reverse=True)
    while pending:
        path, rel = pending.pop()
        name = rel.rpartition("/")[2]
        target = os.path.realpath(path)
        if not (target == real_root or target.startswith(real_root + os.sep)):
            if name.endswith(".md") or os.path.isdir(path):
                problems.append(Problem(rel, 1, "file", "symlink points outside the scope root; "
                                        "not followed", "warning"))
            continue
        if os.path.isdir(path):
            if target not in seen_dirs:
                seen_dirs.add(target)
                more: list[Link] = []
                _walk_plain([(path, rel + "/")], found, more)
                pending = sorted(pending + more, reverse=True)
        elif name.endswith(".md") and name not in NOT_MEMORIES:
            try:
                st = os.stat(path)
            except OSError:
                continue
            found.append((rel, st.st_mtime_ns, st.st_size))


def listing_signature(listing: Listing) -> str:
    """A digest of every (path, mtime, size): equal digests mean no file was added, removed or
    touched, so a warm load can skip comparing file by file. marshal serialises the list in C;
    its format only changes with the interpreter, and a changed digest merely means one
    file-by-file comparison."""
    return blake2b(marshal.dumps(listing), digest_size=16).hexdigest()


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
