"""Where a request runs: the request itself, its context (scope folders, configuration, today,
role) and the opened, refreshed indexes of its scopes, nearest first."""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple, Protocol

from engram import route
from engram.config import Config, load_config
from engram.index import Head, Pending, Record, ScopeIndex, check_later
from engram.model import GLOBAL, WORKSPACE, Memory, Problem
from engram.paths import (
    SCOPE_DIRNAME,
    STATE_DIRNAME,
    derived_dir,
    find_project,
    global_root,
    outer_projects,
)
from engram.render import Printable, check_printable
from engram.stale import SourcesLock


class Request(NamedTuple):
    """What a caller asks for: the task, where it runs, and how the pack should look."""

    query: str = ""
    paths: tuple[str, ...] = ()
    cwd: str = "."
    workspace: str | None = None
    use_global: bool = True
    role: str | None = None
    limit: int | None = None
    expand_top: int | None = None
    disclosure: str | None = None
    all: bool = False
    path_only: bool = False
    ids: tuple[str, ...] = ()
    gate: bool = True  # `engram search` turns the anchor gate off
    record_fetch: bool = True
    budget_tokens: int | None = None  # None = config `load.budget_tokens`
    explain: bool = False  # rank every candidate (dry-run, --json), not only those that matter
    layers: bool = True  # also the `.engram/` folders above the workspace (nested scopes)
    # Bad config keys keep their defaults with a warning (hooks, hooks status/log, check)
    # instead of failing the command.
    lenient_config: bool = False


class OpenIndexes(Protocol):
    """Indexes kept open across requests, each brought up to date when a file changed."""

    def fresh(self, root: Path, scope: str) -> ScopeIndex:
        """The open index of `root`, refreshed if anything below it changed since last time."""
        ...

    def forget(self) -> None:
        """Close and drop every index (the cache file was found damaged and is rebuilt)."""
        ...


class Context(NamedTuple):
    """Where a request runs: its scope folders and merged configuration."""

    workspace_dir: Path | None  # the project dir holding .engram/
    engram_dir: Path | None
    global_dir: Path | None
    config: Config
    state_dir: Path | None
    today: str
    role: str | None
    cwd: Path
    # The workspace's sources.lock, read once per command however many memories ask.
    sources_lock: SourcesLock
    outer_dirs: tuple[Path, ...] = ()  # project dirs of the layers above, nearest first
    # A long-lived caller (engram mcp) keeps its indexes open between requests; None: each
    # request opens, refreshes and closes its own, as a one-shot command should.
    indexes: OpenIndexes | None = None

    def can_see(self, memory: route.Lifecycled) -> bool:
        """In its lifecycle window today and visible to the active role."""
        return (route.lifecycle_exclusion(memory, self.today) is None
                and route.role_visible(memory, self.role))


def today() -> str:
    return os.environ.get("ENGRAM_TODAY") or _dt.date.today().isoformat()


def resolve(request: Request) -> Context:
    cwd = Path(request.cwd).resolve()
    project = find_project(cwd, request.workspace)
    engram_dir = project / SCOPE_DIRNAME if project is not None else None
    home = global_root()
    global_dir = home if request.use_global and home.is_dir() else None
    config = load_config(str(engram_dir) if engram_dir else None, str(home),
                         lenient=request.lenient_config)
    state_root = engram_dir or (home if home.is_dir() else None)
    state_dir = derived_dir(state_root, STATE_DIRNAME) if state_root is not None else None
    role = request.role or os.environ.get("ENGRAM_ROLE") or None
    outer = tuple(outer_projects(project)) if project is not None and request.layers else ()
    return Context(project, engram_dir, global_dir, config, state_dir, today(), role, cwd,
                   SourcesLock(engram_dir), outer)


class Scopes:
    """The opened, refreshed indexes, nearest first: the workspace (scope rank 0), the
    `.engram/` folders above it (nested scopes), then global. An id resolves to the nearest."""

    def __init__(self, ctx: Context, force: bool = False, speculate: bool = False) -> None:
        """With `speculate`, the freshness check of the indexes runs in the background while
        they are read: the caller must `settle` before trusting what it read."""
        self.ctx = ctx
        self.indexes: list[ScopeIndex] = []
        keep = None if force else ctx.indexes
        self._kept = keep is not None
        # The project folder of each outer layer (None for the others), and the request's
        # paths relative to each index's folder when there are outer layers.
        self.dirs: list[Path | None] = []
        self.touched: list[list[str]] = []
        layers: list[tuple[Path | None, str, Path | None]] = [(ctx.engram_dir, WORKSPACE, None)]
        layers += [(outer / SCOPE_DIRNAME, WORKSPACE, outer) for outer in ctx.outer_dirs]
        layers.append((ctx.global_dir, GLOBAL, None))
        opened: list[ScopeIndex] = []
        for root, scope, folder in layers:
            if root is not None:
                if keep is not None:
                    index = keep.fresh(root, scope)
                else:
                    index = ScopeIndex.open(root, scope)
                    opened.append(index)
                self.indexes.append(index)
                self.dirs.append(folder)
        self._pending: Pending | None = None
        if speculate and not force:
            self._pending = check_later(opened)
        if self._pending is None:
            for index in opened:
                index.refresh(force=force)
        self._visible: dict[str, tuple[Memory, int] | None] = {}
        self._labels: dict[int, str] = {}

    def settle(self) -> bool:
        """Whether what was read while the freshness check ran stands: True when the files are
        as indexed; otherwise the indexes are refreshed now and must be read again."""
        pending, self._pending = self._pending, None
        if pending is None or pending.settle():
            return True
        self._visible.clear()
        return False

    def close(self) -> None:
        if self._pending is not None:
            self._pending.settle()  # no child left behind, nor an index left stale
            self._pending = None
        if self._kept:
            return  # the caller's to keep open
        for index in self.indexes:
            index.close()

    def check(self, memory: Memory) -> Printable:
        """The checks before printing, with the index's stored safety verdict (no rescan when
        the bytes are the ones it judged) and the `safety.allow` the user's config lets stand."""
        index = self.index_of(memory)
        allow = allow_in_force(memory, self.ctx.config)
        # Kept while the index is unchanged: a server's index is refreshed (and this dropped)
        # whenever its watch sees a write below the root, so the bytes it proved and judged
        # are still the bytes on disk; a command's index lives for one request anyway.
        memo = index.cached()
        key = ("printable", memory.rel_path, memory.sha256, allow)
        found: Printable | None = memo.get(key)
        if found is None:
            found = check_printable(memory, index.root, index.verdict(memory.sha256), allow)
            if found.scanned is not None:  # the first print of these bytes: keep the verdict
                index.remember_verdict(memory.sha256, found.scanned)
            if found.status in ("ok", "unsafe"):
                memo[key] = found
        return found

    def root_of(self, memory: Memory) -> Path:
        return self.index_of(memory).root

    def index_of(self, memory: Memory) -> ScopeIndex:
        """The index a memory came from (nested layers share the workspace scope label)."""
        same = [index for index in self.indexes if index.scope == memory.scope]
        if len(same) > 1:
            for index in same:
                hit = index.keys_by_id([memory.id])
                if memory.id in hit and index.heads([hit[memory.id]])[
                        hit[memory.id]].sha256 == memory.sha256:
                    return index
        if same:
            return same[0]
        raise KeyError(memory.scope)

    def layer_label(self, scope_rank: int) -> str | None:
        """How dry-run names a nested layer (its folder, relative to where the command runs);
        None with a single workspace layer, where `ws` says it all."""
        if not self.ctx.outer_dirs or self.indexes[scope_rank].scope != WORKSPACE:
            return None
        label = self._labels.get(scope_rank)
        if label is None:  # asked once per candidate: relpath is not free
            label = self._labels[scope_rank] = os.path.relpath(self.indexes[scope_rank].root,
                                                               self.ctx.cwd)
        return label

    def find(self, memory_id: str) -> tuple[Record, int] | None:
        """The winning record for an id (workspace shadows global), with its scope rank."""
        for rank_no, index in enumerate(self.indexes):
            keys = index.keys_by_id([memory_id])
            if memory_id in keys:
                record = index.records([keys[memory_id]])[keys[memory_id]]
                return record, rank_no
        return None

    def exists(self, memory_id: str) -> bool:
        return any(memory_id in index.present_ids([memory_id]) for index in self.indexes)

    def refreshed(self, changed: Iterable[Memory]) -> None:
        """Re-index the files of these memories (their bytes changed since they were indexed)."""
        for memory in changed:
            index = self.index_of(memory)
            index.invalidate(memory.rel_path)
            index.refresh()
        self._visible.clear()

    def visible(self, memory_id: str) -> tuple[Memory, int] | None:
        """A prerequisite as expand sees it: present, in its lifecycle window, role-visible."""
        if memory_id not in self._visible:
            hit = self.find(memory_id)
            result = None
            if hit is not None and self.ctx.can_see(hit[0].memory):
                result = (hit[0].memory, hit[0].depth)
            self._visible[memory_id] = result
        return self._visible[memory_id]

    def problems(self) -> list[Problem]:
        out: list[Problem] = []
        for index in self.indexes:
            for problem in index.problems():
                out.append(problem._replace(path=self.display(index, problem.path)))
        return out

    def display(self, index: ScopeIndex, rel: str) -> str:
        full = index.root / rel
        try:
            # an outer layer is in the same repository: `../.engram/x.md` reads better there
            outer = self.dirs[self.indexes.index(index)] is not None
            return os.path.relpath(full, self.ctx.cwd) if outer or full.is_relative_to(
                self.ctx.cwd) else str(full)
        except ValueError:
            return str(full)

    def hidden_by_ignore(self) -> int:
        return sum(index.hidden_by_ignore() for index in self.indexes)

    def all_records(self) -> list[tuple[Record, int]]:
        """Every winning record of both scopes, shadowed globals left out; sorted by id."""
        seen: set[str] = set()
        out: list[tuple[Record, int]] = []
        for rank_no, index in enumerate(self.indexes):
            for record in index.all_records():
                if record.memory.id not in seen:
                    seen.add(record.memory.id)
                    out.append((record, rank_no))
        out.sort(key=lambda rr: rr[0].memory.id)
        return out

    def all_heads(self) -> list[tuple[Head, int]]:
        """`all_records`, only the heads: enough to filter and choose before decoding."""
        seen: set[str] = set()
        out: list[tuple[Head, int]] = []
        for rank_no, index in enumerate(self.indexes):
            for head in index.all_heads():
                if head.id not in seen:
                    seen.add(head.id)
                    out.append((head, rank_no))
        out.sort(key=lambda hr: hr[0].id)
        return out

    def dup_groups(self, heads: list[tuple[Head, int]]) -> list[str | None]:
        """The near-duplicate group of each of these heads (None when in none), in their order."""
        by_rank = [index.dup_groups({h.key for h, n in heads if n == rank_no})
                   for rank_no, index in enumerate(self.indexes)]
        return [by_rank[n].get(h.key) for h, n in heads]

    def memories(self, heads: list[tuple[Head, int]]) -> list[Memory]:
        """The full memories of these heads, in their order."""
        by_rank: dict[int, dict[int, Record]] = {}
        for rank_no, index in enumerate(self.indexes):
            keys = [h.key for h, n in heads if n == rank_no]
            if keys:
                by_rank[rank_no] = index.records(keys)
        return [by_rank[n][h.key].memory for h, n in heads]


def relative_paths(ctx: Context, paths: Iterable[str], base: Path | None = None) -> list[str]:
    base = base or ctx.workspace_dir
    out: list[str] = []
    for raw in paths:
        path = Path(raw)
        full = path if path.is_absolute() else ctx.cwd / path
        full = Path(os.path.normpath(full))
        if base is not None and full.is_relative_to(base):
            out.append(full.relative_to(base).as_posix())
        elif not path.is_absolute():
            out.append(Path(os.path.normpath(raw)).as_posix())
    return out


def allow_in_force(memory: Memory, config: Config) -> tuple[str, ...]:
    """The kinds a memory's `safety.allow` exempts: none for a workspace memory when the user's
    config says `safety.workspace_overrides: refuse`."""
    if memory.scope == WORKSPACE and config.safety_workspace_overrides == "refuse":
        return ()
    return memory.safety_allow
