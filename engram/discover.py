"""Walk a scope root and list its memory files, applying the scope's `.engramignore`.

pathspec is imported here only, and only when an ignore file or a glob actually needs it.
"""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from engram.hashing import blake2b
from engram.model import Problem

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
Entry = tuple[str, str, str]  # (rel, folder, name) of a plain memory file, not stat-ed yet
SPLIT_MIN_FILES = 4_000  # from this many files on, a forked child stats half of them


def walk(root: Path, split: bool | None = None) -> tuple[Listing, list[Problem]]:
    """Every `*.md` below root, skipping dot-folders, READMEs and escaping symlinks, in walk
    order: the same order for the same tree on one file system, not sorted (sorting 100,000
    paths on every load costs more than everything else the walk does but stat).

    This runs on every load over every file, so the common case takes the fewest calls: folders
    are listed first, with no system call per entry (the file type comes with the listing),
    then each memory file gets one `stat`. Entries are plain tuples, not FileStat: a named
    tuple's constructor is a Python call, paid once per file. Plain folders are walked first and
    symlinks followed afterwards, one by one in path order.

    From SPLIT_MIN_FILES files on (or with `split`; never with `split=False`), a forked child
    stats every other file, whatever the folder layout: on 100,000 files two processes take
    about two thirds of the time one does. Any trouble with the child and the parent stats
    them itself; the listing is the same either way.
    """
    found: Listing = []
    problems: list[Problem] = []
    try:
        real_root = os.path.realpath(root)
    except OSError:
        return found, problems
    links: list[Link] = []
    entries = _list([(str(root), "")], links)
    if (len(entries) >= SPLIT_MIN_FILES if split is None else split) and _can_fork():
        child = _fork_stat(entries[1::2])
        mine = _stat(entries[0::2])
        theirs = _join(child, entries[1::2])
        both: list[tuple[str, int, int] | None] = [None] * len(entries)
        both[0::2], both[1::2] = mine, theirs
        found = [f for f in both if f is not None]
    else:
        found = [f for f in _stat(entries) if f is not None]
    _follow_links(links, real_root, found, problems)
    return found, problems


def _list(folders: list[tuple[str, str]], links: list[Link]) -> list[Entry]:
    """The memory files below the folders (depth first), their symlinks into `links`."""
    entries: list[Entry] = []
    stack = list(folders)
    while stack:
        folder, prefix = stack.pop()
        try:
            with os.scandir(folder) as it:
                listed = list(it)
        except OSError:
            continue
        for entry in listed:
            name = entry.name
            if name[0] == ".":
                continue
            try:
                # Types come from the listing (d_type); is_file(follow_symlinks=False) is False
                # for a symlink, so a plain file is settled by the first test.
                if name[-3:] == ".md" and entry.is_file(follow_symlinks=False):
                    if name not in NOT_MEMORIES:
                        entries.append((prefix + name, folder, name))
                elif entry.is_symlink():
                    links.append((entry.path, prefix + name))
                elif entry.is_dir(follow_symlinks=False):
                    stack.append((entry.path, prefix + name + "/"))
            except OSError:
                continue
    return entries


# Each file is stat-ed relative to its open folder where the platform allows: the kernel then
# resolves one name instead of the whole path, about a third of a 10,000-file walk.
_AT_FOLDER = os.stat in os.supports_dir_fd and hasattr(os, "O_DIRECTORY")


def _stat(entries: list[Entry]) -> list[tuple[str, int, int] | None]:
    """(rel, mtime_ns, size) per entry, None for a file gone since it was listed. Entries of
    one folder are consecutive (`_list` lists a folder at a time)."""
    out: list[tuple[str, int, int] | None] = []
    if not _AT_FOLDER:
        for rel, folder, name in entries:
            try:
                st = os.lstat(os.path.join(folder, name))
            except OSError:
                out.append(None)
                continue
            out.append((rel, st.st_mtime_ns, st.st_size))
        return out
    stat = os.stat
    current: str | None = None
    fd = -1
    try:
        for rel, folder, name in entries:
            if folder is not current:
                if fd >= 0:
                    os.close(fd)
                current = folder
                try:
                    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
                except OSError:
                    fd = -1
            if fd < 0:
                out.append(None)  # the folder is gone
                continue
            try:
                st = stat(name, dir_fd=fd, follow_symlinks=False)
            except OSError:
                out.append(None)
                continue
            out.append((rel, st.st_mtime_ns, st.st_size))
    finally:
        if fd >= 0:
            os.close(fd)
    return out


def _can_fork() -> bool:
    # Forking is cheap and safe on Linux in a single-threaded process; elsewhere (macOS system
    # libraries, other threads holding locks) it is not worth the risk.
    threading = sys.modules.get("threading")
    return sys.platform.startswith("linux") and hasattr(os, "fork") and (
        threading is None or threading.active_count() == 1)


Child = tuple[int, int]  # a forked child's pid and the read end of its pipe


def _in_child(work: Callable[[], list[Any]]) -> Child | None:
    """Fork a child that runs `work` and hands its list over through a pipe (marshal, in C);
    None when no child could be started."""
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
    if pid == 0:  # the child: work, hand the result over, and leave without any clean-up
        status = 1
        try:
            os.close(read_fd)
            data = marshal.dumps(work())
            with os.fdopen(write_fd, "wb") as pipe:
                pipe.write(data)
            status = 0
        finally:
            os._exit(status)
    os.close(write_fd)
    return pid, read_fd


def _receive(child: Child, count: int) -> list[Any] | None:
    """The child's list, waited for; None when it failed or did not deliver `count` items."""
    pid, read_fd = child
    with os.fdopen(read_fd, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    if status != 0:
        return None
    try:
        found = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None
    return found if isinstance(found, list) and len(found) == count else None


def _fork_stat(entries: list[Entry]) -> Child | None:
    """A child stat-ing `entries`; None when no child."""
    return _in_child(lambda: _stat(entries)) if entries else None


def _join(child: Child | None, entries: list[Entry]) -> list[tuple[str, int, int] | None]:
    """The child's stats, or stats taken here when the child did not deliver them all."""
    theirs = _receive(child, len(entries)) if child is not None else None
    return theirs if theirs is not None else _stat(entries)


Walked = tuple[Listing, list[Problem]]  # what `walk` returns


class Later:
    """Listing signatures being taken by a forked child while the parent goes on (see
    `signatures_later`)."""

    def __init__(self, child: Child | None, count: int) -> None:
        self._child = child
        self._count = count
        self.started = child is not None

    def result(self) -> list[tuple[str, str, Walked | None]] | None:
        """Per root: (listing signature, ignore signature, the walk itself when it did not find
        the expected listing or met a problem); None when the child failed (the caller then
        walks itself)."""
        child, self._child = self._child, None
        found = _receive(child, self._count) if child is not None else None
        if found is None:
            return None
        return [(str(listing), str(ignore), None if walked is None else
                 (walked[0], [Problem(*p) for p in walked[1]]))
                for listing, ignore, walked in found]


def signatures_later(roots: list[Path], expected: list[str]) -> Later:
    """Walk the roots in a forked child and take each one's listing and ignore-file signatures
    (what `ScopeIndex.refresh` compares with `expected`), so the parent can read its indexes
    meanwhile: on two cores the stat of every file, the bulk of a warm load at 100,000
    memories, then costs no time of its own. A root whose listing is not the expected one comes
    back with its walk, which the refresh then uses instead of walking again. No child where
    forking is not safe (`started` is False)."""
    child = _in_child(lambda: _signatures(roots, expected)) if _can_fork() else None
    return Later(child, len(roots))


def _signatures(roots: list[Path], expected: list[str]) -> list[Any]:
    found = []
    for root, known in zip(roots, expected, strict=True):
        # Split again (a grandchild stats half) when the root is large: with a deep tree of
        # small folders the walk, not the ranking, is what a 100k load waits for.
        stats, problems = walk(root)
        listing = f"{len(stats)}:{listing_signature(stats)}"
        walked = None if listing == known and not problems else \
            (stats, [tuple(p) for p in problems])
        found.append((listing, ignore_signature(root), walked))
    return found


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
                found += [f for f in _stat(_list([(path, rel + "/")], more)) if f is not None]
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
            import pathspec  # only for an ignore file with patterns in it

            self._spec = pathspec.PathSpec.from_lines("gitignore", lines)

    def ignored(self, rel: str) -> bool:
        return bool(self._spec is not None and self._spec.match_file(rel))


def compile_globs(globs: Iterable[str]) -> list[tuple[str, bool]]:
    """gitignore-style globs as (regex, include) pairs, stored in the index so that matching a
    touched path on the hot path needs only `re`, never pathspec.

    Braces are expanded first (`**/*.{ts,tsx}`): Cursor globs and VS Code `applyTo` use them,
    gitignore syntax has none, and unexpanded they would match no real file.
    """
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern  # at index time only

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
