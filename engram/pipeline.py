"""build_pack(request) -> Pack: the only place where the stages of the read path meet.

discover -> parse -> index (refreshed incrementally) -> route -> rank -> expand -> checks.
"""

from __future__ import annotations

import datetime as _dt
import heapq
import json
import os
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol

from engram import expand, rank, report, route
from engram.config import Config, load_config
from engram.errors import UnknownIdError
from engram.fsutil import atomic_write
from engram.index import (
    FIELDS,
    Head,
    Posting,
    Record,
    Restriction,
    ScopeIndex,
    discard,
    is_corrupt,
)
from engram.model import GLOBAL, WORKSPACE, Candidate, Finding, Memory, Pack, PackItem, Problem
from engram.paths import (
    SCOPE_DIRNAME,
    STATE_DIRNAME,
    derived_dir,
    find_project,
    global_root,
    outer_projects,
)
from engram.render import RELATED_MAX, Printable, Rendered, check_printable, render_pack
from engram.stale import SourcesLock
from engram.tokenize import anchors as query_anchors
from engram.tokenize import is_procedural, seed_stems, tokens, words

if TYPE_CHECKING:
    from typing import TypeVar

    _T = TypeVar("_T")

FETCH_FILE = "fetched.json"
FETCH_BOOST_DAYS = 30
MAX_CHECK_ROUNDS = 2  # re-index and re-rank once if a file changed between index and print


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

    def __init__(self, ctx: Context, force: bool = False) -> None:
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
        for root, scope, folder in layers:
            if root is not None:
                if keep is not None:
                    index = keep.fresh(root, scope)
                else:
                    index = ScopeIndex.open(root, scope)
                    index.refresh(force=force)
                self.indexes.append(index)
                self.dirs.append(folder)
        self._visible: dict[str, tuple[Memory, int] | None] = {}

    def close(self) -> None:
        if self._kept:
            return  # the caller's to keep open
        for index in self.indexes:
            index.close()

    def check(self, memory: Memory) -> Printable:
        """The checks before printing, with the index's stored safety verdict (no rescan when
        the bytes are the ones it judged) and the `safety.allow` the user's config lets stand."""
        index = self.index_of(memory)
        return check_printable(memory, index.root, index.verdict(memory.sha256),
                               allow_in_force(memory, self.ctx.config))

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
        return os.path.relpath(self.indexes[scope_rank].root, self.ctx.cwd)

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

    def memories(self, heads: list[tuple[Head, int]]) -> list[Memory]:
        """The full memories of these heads, in their order."""
        by_rank: dict[int, dict[int, Record]] = {}
        for rank_no, index in enumerate(self.indexes):
            keys = [h.key for h, n in heads if n == rank_no]
            if keys:
                by_rank[rank_no] = index.records(keys)
        return [by_rank[n][h.key].memory for h, n in heads]


# -- routing and ranking ------------------------------------------------------------------------
class _Scored:
    """A candidate while it is ranked. `record` is loaded only for memories that can reach the
    pack (or for every candidate when the caller asks for an explanation). Updated stage by
    stage, so a plain (slotted: one per candidate) class rather than a record."""

    __slots__ = ("scope_rank", "key", "evidence", "bm25", "record", "multipliers", "score",
                 "stale", "excluded", "detail", "group", "loose")

    def __init__(self, scope_rank: int, key: int, evidence: route.Evidence, bm25: float = 0.0,
                 record: Record | None = None, group: str | None = None) -> None:
        self.scope_rank = scope_rank
        self.key = key
        self.evidence = evidence
        self.bm25 = bm25
        self.record = record
        self.group = group  # near-duplicate group, known without the record
        self.multipliers: list[tuple[str, float]] = []
        self.score = 0.0
        self.stale = False
        self.excluded: str | None = None
        self.detail = ""
        self.loose = False  # related, printed only as a card (`route.loose`)

    @property
    def rec(self) -> Record:
        if self.record is None:
            raise RuntimeError("candidate ranked without its record")
        return self.record


def _relative_paths(ctx: Context, paths: Iterable[str], base: Path | None = None) -> list[str]:
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


def _fetch_history(ctx: Context) -> dict[str, str]:
    if ctx.state_dir is None:
        return {}
    try:
        data = json.loads((ctx.state_dir / FETCH_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # fetch history is a hint; a broken file only loses the boost
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def _recently(day: str, today_iso: str, days: int) -> bool:
    try:
        delta = _dt.date.fromisoformat(today_iso) - _dt.date.fromisoformat(day)
    except ValueError:
        return False
    return 0 <= delta.days <= days


FINALIZE_BATCH = 64


def _score_all(ctx: Context, scopes: Scopes, anchors: tuple[str, ...], touched: list[str],
               procedural: bool, gate: bool, path_only: bool,
               need: int | None = None) -> list[_Scored]:
    """Every candidate with its evidence, BM25 and exclusion; ranked candidates first.

    With `need`, only candidates that can still reach the top `need` related memories get their
    record decoded and their multipliers applied (the rest stay unranked at the end, counted as
    related but never shown): BM25, the gate, the topic check and lifecycle, role and duplicate
    exclusions need no record, and no multiplier lifts a score by more than `_max_boost`.
    """
    weights = tuple(dict(ctx.config.load_field_weights).get(name, 0.0) for name in FIELDS)
    # Without an explanation to print, memories the gate is sure to exclude are only counted
    # as never related; they are kept aside for a path trigger or the path bonus.
    drop_weak = need is not None and gate and route.gate_drops_weak(len(anchors))
    evidence: list[dict[int, route.Evidence]] = []
    lengths: list[dict[int, float]] = []
    weak: list[route.WeakHits] = []
    doc_freq: Counter[str] = Counter()
    doc_count = 0
    weighted_total = 0.0
    for n, index in enumerate(scopes.indexes):
        ev: dict[int, route.Evidence] = {}
        lens: dict[int, float] = {}
        aside: route.WeakHits = {}
        here = scopes.touched[n] if scopes.touched and touched else touched
        corpus = index.corpus()
        if anchors and not path_only:
            postings = index.postings(anchors, weights)
            negations = corpus.tokens.negative > 0
            for term, rows in postings.items():
                doc_freq[term] += route.doc_freq(rows, negations)
            route.gather(postings, weights, ev, lens, aside if drop_weak else None)
        if here:
            set_aside: dict[int, tuple[str, Posting]] | None = None
            for key, globs in index.path_rules():
                if route.path_matches(globs, here):
                    if key not in ev and aside:
                        if set_aside is None:
                            set_aside = route.weak_index(aside)
                        found = set_aside.get(key)
                        if found is not None:
                            route.gather({found[0]: [found[1]]}, weights, ev, lens)
                    ev.setdefault(key, route.Evidence()).path_match = True
        evidence.append(ev)
        lengths.append(lens)
        weak.append(aside)
        doc_count += corpus.doc_count
        weighted_total += rank.weighted_len(corpus.tokens, weights)
    stats = rank.CorpusStats(doc_count, weighted_total / doc_count if doc_count else 0.0)
    idfs = {term: rank.idf(doc_count, df) for term, df in doc_freq.items()}
    most = route.specific_most(route.content_words(anchors), doc_count)

    def specific(term: str) -> bool:
        return 0 < doc_freq[term] <= most

    scored: list[_Scored] = []
    for scope_rank, (index, ev, lens) in enumerate(zip(scopes.indexes, evidence, lengths,
                                                       strict=True)):
        groups = index.dup_groups(ev)
        restricted = index.restrictions()
        shadowed = _shadowed_keys(scopes, scope_rank, ev) if scope_rank > 0 else set()
        bm25 = rank.bm25_scores({key: e.tf for key, e in ev.items()},
                                defaultdict(float, lens), idfs, stats)
        for key, e in ev.items():
            single = e.body_only
            e.common = single is not None and doc_freq[single] > 1
            e.rare_name = e.strong and route.named_by_rare_word(e, specific)
            item = _Scored(scope_rank, key, e, bm25[key], group=groups.get(key))
            scored.append(item)
            _exclude(item, ctx, restricted.get(key), key in shadowed, gate, len(anchors),
                     specific)
    if anchors and not path_only:
        _exclude_named_clauses(scopes, scored, anchors)
    if gate and anchors and not path_only and route.judges_topic(
            anchors, lambda t: doc_freq[t] > 0):
        _exclude_off_topic(scopes, scored, anchors, specific)
    top_bm25 = max((s.bm25 for s in scored), default=0.0)
    for aside in weak:
        top_bm25 = max(top_bm25, _best_weak_bm25(aside, top_bm25, weights, idfs, stats))
    bonus = top_bm25 if top_bm25 > 0 else 1.0
    fetched = _fetch_history(ctx)
    base = {id(s): s.bm25 + (bonus if s.evidence.path_match else 0.0) for s in scored}
    ranked = _finalize(ctx, scopes, scored, base, need, procedural, fetched)
    # Which related memories print only as cards: judged on the few that can be shown, and
    # never the best match, which is the pack's answer however thin its evidence.
    related = [s for s in ranked if s.excluded is None]
    for item in related[1:]:
        item.loose = route.loose(item.evidence, specific)
    if related:
        related[0].loose = related[0].evidence.weak
    ranked_ids = {id(s) for s in ranked}
    # Unranked candidates are only counted (never shown), so their order does not matter.
    return ranked + [s for s in scored if id(s) not in ranked_ids]


def _best_weak_bm25(aside: route.WeakHits, floor: float, weights: tuple[float, ...],
                    idfs: dict[str, float], stats: rank.CorpusStats) -> float:
    """The best BM25 among memories set aside with one weak hit (the path bonus counts every
    candidate), computed only for anchors whose IDF bound could beat `floor`."""
    bound = {term: idfs[term] * (rank.K1 + 1.0) for term in idfs}
    tfs: dict[int, dict[str, float]] = {}
    lens: dict[int, float] = {}
    for term, rows in aside.items():
        if bound[term] > floor:
            for posting in rows:
                tfs[posting.key] = {term: route.weighted_tf(posting.counts, weights)}
                lens[posting.key] = posting.length
    scores = rank.bm25_scores(tfs, lens, idfs, stats)
    return max(scores.values(), default=0.0)


def _shadowed_keys(scopes: Scopes, scope_rank: int, ev: dict[int, route.Evidence]) -> set[int]:
    """Keys of an outer layer's or the global scope's candidates whose id a nearer scope has."""
    ids = scopes.indexes[scope_rank].ids_of(ev)
    present: set[str] = set()
    for nearer in scopes.indexes[:scope_rank]:
        present |= set(nearer.present_ids(ids.values()))
    return {key for key, mid in ids.items() if mid in present}


def _exclude(item: _Scored, ctx: Context, memory: Restriction | None, shadowed: bool,
             gate: bool, anchor_count: int, specific: Callable[[str], bool]) -> None:
    e = item.evidence
    # Only a restricted, shadowed or path-only candidate, or one touching an exclusion clause,
    # can fail before the gate: testing that first keeps the common case to one check.
    if memory is not None or shadowed or e.negated or not e.tf:
        reason = _visibility_exclusion(e, ctx, memory, shadowed)
        if reason is not None:
            item.excluded, item.detail = reason
            return
    if gate and not route.passes_gate(anchor_count, e, specific):
        item.excluded, item.detail = "gate", "one weak match for a long query"


def _visibility_exclusion(e: route.Evidence, ctx: Context, memory: Restriction | None,
                          shadowed: bool) -> tuple[str, str] | None:
    """(reason, detail) when scope, lifecycle, role or the memory's own exclusion clause rules
    the candidate out, in that order; None otherwise."""
    lifecycle = route.lifecycle_exclusion(memory, ctx.today) if memory else None
    if shadowed:
        return "shadowed", "workspace memory has this id"
    if lifecycle is not None:
        return "lifecycle", lifecycle
    if memory is not None and not route.role_visible(memory, ctx.role):
        return "role", "roles " + ",".join(memory.roles)
    if not e.tf and not e.path_match:
        return "negated", "matched only its own exclusion clause"
    if route.is_negated(e):
        return "negated", "query matches its exclusion clause: " + ",".join(sorted(e.negated))
    return None


def _max_boost(scope: str, procedural: bool, fetched: dict[str, str]) -> float:
    """The largest product of multipliers any memory of the scope can get for this query."""
    boost = rank.WORKSPACE[1] if scope == WORKSPACE else 1.0
    if fetched:
        boost *= rank.FETCHED[1]
    if procedural:
        boost *= rank.PROCEDURAL_SKILL[1]
    return boost


def _named(evidence: route.Evidence) -> float:
    """The `named` factor: strong evidence (an id or tag hit, or a touched file) gets it, and
    the `exact` factor on top for a touched file or an id or tag word few memories hold."""
    named = rank.NAMED[1] if evidence.strong or evidence.path_match else 1.0
    return named * rank.EXACT[1] if _exact(evidence) else named


def _exact(evidence: route.Evidence) -> bool:
    return evidence.path_match or evidence.rare_name


def _finalize(ctx: Context, scopes: Scopes, scored: list[_Scored], base: dict[int, float],
              need: int | None, procedural: bool, fetched: dict[str, str]) -> list[_Scored]:
    """Decode records and apply multipliers, best base score first, until no candidate left
    could enter the top `need` related (every candidate when need is None); returns them ranked.
    """
    lock = ctx.sources_lock
    done: list[_Scored] = []

    def rank_batch(batch: list[_Scored]) -> None:
        _load_records(scopes, batch)
        for item in batch:
            _multiply(item, ctx, base[id(item)], procedural, fetched, lock)
        done.extend(batch)

    if need is None:
        rank_batch([s for s in scored if s.record is None])
    else:
        # A heap, not a sort: usually only the first batch or two is ever taken. Members of a
        # near-duplicate group are ranked like the rest and counted once per group: a member
        # left unranked scores below the top `need`, so it cannot displace its group's
        # member there (and the group stays resolved to its best member where it matters).
        # The `named` factor needs no record, so it is in the key, not in every bound.
        heap = [(-base[id(s)] * _named(s.evidence), s.scope_rank, s.key, n)
                for n, s in enumerate(scored) if s.record is None and s.excluded is None]
        heapq.heapify(heap)
        boosts = [_max_boost(i.scope, procedural, fetched) for i in scopes.indexes]
        while heap:
            live = _one_per_group(done)
            top_base, top_scope = -heap[0][0], heap[0][1]
            if len(live) >= need and top_base * boosts[top_scope] < live[need - 1]:
                break
            count = min(FINALIZE_BATCH, len(heap))
            rank_batch([scored[heapq.heappop(heap)[3]] for _ in range(count)])
    done.sort(key=lambda s: rank.order_key(s.score, s.scope_rank, s.rec.memory.id,
                                           s.evidence.path_match))
    _mark_duplicates(done)
    _mark_unranked_duplicates(scored)
    return done


def _one_per_group(done: list[_Scored]) -> list[float]:
    """Scores of the ranked, not excluded candidates, best first, a group's best only."""
    best: dict[tuple[int, str], float] = {}
    scores: list[float] = []
    for s in done:
        if s.excluded is not None:
            continue
        if s.group is None:
            scores.append(s.score)
        elif best.get((s.scope_rank, s.group), -1.0) < s.score:
            best[s.scope_rank, s.group] = s.score
    return sorted([*scores, *best.values()], reverse=True)


def _mark_unranked_duplicates(scored: list[_Scored]) -> None:
    """Unranked members of a group that already has a member: excluded as duplicates, so the
    count of related memories is what full ranking gives (one per group). Which member is
    kept only matters among the ranked ones, and those come first in `scored`'s ranked part."""
    kept = {(s.scope_rank, s.group) for s in scored
            if s.record is not None and s.excluded is None and s.group is not None}
    for item in scored:
        if item.record is None and item.excluded is None and item.group is not None:
            slot = (item.scope_rank, item.group)
            if slot in kept:
                item.excluded, item.detail = "duplicate", "near-duplicate of a ranked member"
            else:
                kept.add(slot)


def _load_records(scopes: Scopes, items: list[_Scored]) -> None:
    for scope_rank, index in enumerate(scopes.indexes):
        keys = [s.key for s in items if s.scope_rank == scope_rank and s.record is None]
        if keys:
            records = index.records(keys)
            if len(records) < len(set(keys)):
                # A posting names a memory the index does not hold: the cache disagrees with
                # itself, and the read path rebuilds it (`_rebuilds_corrupt_index`).
                raise sqlite3.DatabaseError("index postings name a missing memory")
            for item in items:
                if item.scope_rank == scope_rank and item.record is None:
                    item.record = records[item.key]


def _multiply(item: _Scored, ctx: Context, base: float, procedural: bool,
              fetched: dict[str, str], lock: SourcesLock) -> None:
    memory = item.rec.memory
    item.stale = lock.is_stale(memory)
    factors: list[tuple[str, float]] = []
    if route.review_due(memory, ctx.today):
        factors.append(rank.REVIEW_DUE)
    if item.stale:
        factors.append(rank.STALE)
    if memory.confidence in rank.CONFIDENCE:
        factors.append(rank.CONFIDENCE[memory.confidence])
    if memory.scope == WORKSPACE:
        factors.append(rank.WORKSPACE)
    if memory.id in fetched and _recently(fetched[memory.id], ctx.today, FETCH_BOOST_DAYS):
        factors.append(rank.FETCHED)
    if procedural and memory.type == "skill":
        factors.append(rank.PROCEDURAL_SKILL)
    if _named(item.evidence) > 1.0:
        factors.append(rank.NAMED)
    if _exact(item.evidence):
        factors.append(rank.EXACT)
    item.multipliers = factors
    item.score = rank.apply_multipliers(base, factors)


def _exclude_named_clauses(scopes: Scopes, scored: list[_Scored],
                           anchors: tuple[str, ...]) -> None:
    """Exclude memories whose own exclusion clause the query describes (not a touched file's:
    the path says the memory applies). Only memories the query meets inside a clause are read."""
    touched = [s for s in scored if s.excluded is None and s.evidence.negated
               and not s.evidence.path_match]
    _load_records(scopes, touched)
    for item in touched:
        clause = route.names_an_exclusion(item.rec.memory.negations, anchors)
        if clause is not None:
            item.excluded, item.detail = "negated", f"the query describes its exclusion: {clause}"


def _exclude_off_topic(scopes: Scopes, scored: list[_Scored], query: tuple[str, ...],
                       specific: Callable[[str], bool]) -> None:
    """A query about something no memory holds, with no memory on its topic (`route.on_topic`):
    only path matches and the memories it names by their id, a tag or a trigger phrase may
    still load. New nouns in a task are normal ("rename a dashboard"): what keeps a pack is the
    evidence that a memory is about the task, never the share of its words they contain."""
    live = [s for s in scored if s.excluded is None]
    words = route.content_words(query)
    if any(route.on_topic(s.evidence, specific, words) for s in live):
        return
    named = [s for s in live if any(f in route.NAMING_FIELDS for fs in s.evidence.fields.values()
                                    for f in fs)]
    _load_records(scopes, named)
    exempt = {id(s) for s in named if route.names_itself(s.rec.memory, query, specific)}
    for item in live:
        if id(item) not in exempt:
            item.excluded = "off-topic"
            item.detail = ("the query names what no memory holds, and no memory has specific "
                           "evidence for it")


def _mark_duplicates(scored: list[_Scored]) -> None:
    """At most one member of a near-duplicate group: the best ranked one stays related."""
    kept: dict[tuple[int, str], str] = {}
    for item in scored:
        group = item.group
        if item.excluded or group is None:
            continue
        slot = (item.scope_rank, group)
        if slot in kept:
            item.excluded, item.detail = "duplicate", f"near-duplicate of {kept[slot]}"
        else:
            kept[slot] = item.rec.memory.id


def _candidate(item: _Scored, rank_no: int = 0, reason: str | None = None,
               layer: str | None = None) -> Candidate:
    ev = item.evidence
    matched = tuple(sorted((f, t) for t, fs in ev.fields.items() for f in fs))
    return Candidate(
        memory=item.rec.memory, bm25=item.bm25,
        multipliers=tuple(item.multipliers), score=item.score,
        matched=matched, path_match=ev.path_match, anchors_matched=ev.anchors_matched,
        strong_match=ev.strong, stale=item.stale, excluded=reason or item.excluded,
        excluded_detail=item.detail, rank=rank_no, layer=layer)


# -- the pack -----------------------------------------------------------------------------------
def _rebuilds_corrupt_index(func: Callable[..., _T]) -> Callable[..., _T]:
    """Retry once on fresh indexes when a cache file turns out damaged mid-read.

    Opening an index catches a file that is not a database; a page damaged deeper down shows
    only when a query reads it, so the read-path entry points throw the cache away and retry.
    """

    @wraps(func)
    def wrapper(request: Request, context: Context | None = None) -> _T:
        try:
            return func(request, context)
        except Exception as exc:
            if not is_corrupt(exc):
                raise
            ctx = context or resolve(request)
            if ctx.indexes is not None:
                ctx.indexes.forget()
            for root in (ctx.engram_dir, ctx.global_dir):
                if root is not None:
                    discard(root)
            return func(request, context)

    return wrapper


@_rebuilds_corrupt_index
def load(request: Request, context: Context | None = None) -> tuple[Pack, Rendered]:
    """`engram load`: the pack and its text, within the request's (or config's) token budget."""
    ctx = context or resolve(request)
    pack = _build(ctx, request)
    budget = request.budget_tokens or ctx.config.load_budget_tokens
    return pack, render_pack(pack, budget_tokens=budget)


def load_answer(request: Request, mode: str = "text",
                context: Context | None = None) -> tuple[str, list[str]]:
    """Everything `engram load` says for a request: (stdout text, stderr lines). The click
    command, the console entry's click-free shortcut and `engram mcp` all print this, so they
    cannot drift."""
    pack, rendered = load(request, context)
    return report.load_output(pack, rendered, mode), report.stderr_lines(pack)


@_rebuilds_corrupt_index
def build_pack(request: Request, context: Context | None = None) -> Pack:
    """The pack for a request. `context` is `resolve(request)` when the caller already has it
    (the hook resolves once per call); only the request's location fields shape it."""
    return _build(context or resolve(request), request)


def allow_in_force(memory: Memory, config: Config) -> tuple[str, ...]:
    """The kinds a memory's `safety.allow` exempts: none for a workspace memory when the user's
    config says `safety.workspace_overrides: refuse`."""
    if memory.scope == WORKSPACE and config.safety_workspace_overrides == "refuse":
        return ()
    return memory.safety_allow


def _overrides_in_force(ctx: Context, pack: Pack) -> Pack:
    """Refused overrides taken off the pack's memories, so nothing reports them as in force."""
    if not any(i.memory.safety_allow and not allow_in_force(i.memory, ctx.config)
               for i in pack.items):
        return pack
    return pack._replace(items=tuple(
        i._replace(memory=i.memory._replace(safety_allow=()))
        if not allow_in_force(i.memory, ctx.config) else i for i in pack.items))


def _build(ctx: Context, request: Request) -> Pack:
    return _overrides_in_force(ctx, _build_pack(ctx, request))


def _build_pack(ctx: Context, request: Request) -> Pack:
    scopes = Scopes(ctx)
    try:
        if request.ids:
            return _fetch_pack(ctx, scopes, request)
        for _ in range(MAX_CHECK_ROUNDS):
            pack, changed = _routed_pack(ctx, scopes, request)
            if not changed:
                return pack
            scopes.refreshed(changed)
        pack, changed = _routed_pack(ctx, scopes, request, final=True)
        return pack
    finally:
        scopes.close()


def _routed_pack(ctx: Context, scopes: Scopes, request: Request,
                 final: bool = False) -> tuple[Pack, list[Memory]]:
    config = ctx.config
    _seed_stems(scopes, request.query)
    anchors = () if request.path_only else query_anchors(request.query)
    procedural = is_procedural(request.query)
    touched = _relative_paths(ctx, request.paths)
    # an outer layer's applies_to is relative to its own folder
    scopes.touched = [_relative_paths(ctx, request.paths, d) if d is not None else touched
                      for d in scopes.dirs] if ctx.outer_dirs else []
    limit = None if request.all else (request.limit or config.load_limit)
    need = None if request.explain or limit is None else limit + RELATED_MAX + 1
    while True:
        scored = _score_all(ctx, scopes, anchors, touched, procedural, request.gate,
                            request.path_only, need) if (anchors or touched) else []
        related = [s for s in scored if s.excluded is None]
        ranked = [s for s in related if s.record is not None]
        routed = [expand.Routed(s.rec.memory, s.score, s.rec.depth, s.loose)
                  for s in ranked]
        if request.all:
            selection = expand.Selection(
                tuple(expand.Member(r.memory, r.score, r.depth, None, True) for r in routed),
                (), 0)
            break
        selection = expand.select(routed, scopes.visible, limit)
        # Prerequisite groups too big to fit can leave room that an unranked candidate would
        # take: rank everything then (rare), so the pack is exactly what full ranking gives.
        if need is None or len(ranked) == len(related) or (
                limit is not None and len(selection.members) >= limit):
            break
        need = None
    disclosure = request.disclosure or config.load_disclosure
    expand_top = request.expand_top if request.expand_top is not None else config.load_expand_top
    if disclosure == "full" or request.all:
        bodies = {m.memory.id for m in selection.members}
    else:
        bodies = expand.body_ids(selection, expand_top)
    # keyed by scope and content too: a shadowed global or outer layer shares the id
    by_id = {(s.rec.memory.scope, s.rec.memory.id, s.rec.memory.sha256): s for s in scored
             if s.record is not None}
    ranks = expand.rank_order(selection)
    items: list[PackItem] = []
    changed: list[Memory] = []
    withheld: list[tuple[str, Finding]] = []
    excluded: list[tuple[str, str]] = []
    lock = ctx.sources_lock
    printable_list: list[tuple[expand.Member | expand.Routed, str]] = [
        (m, "body" if m.memory.id in bodies else "card") for m in selection.members]
    printable_list += [(r, "related") for r in selection.cut[:5]]
    for member, mode in printable_list:
        memory = member.memory
        check = scopes.check(memory)
        if check.status == "changed" and not final:
            changed.append(memory)
            continue
        if check.status != "ok":
            excluded.append((memory.id, check.exclusion))
            withheld.extend((memory.id, f) for f in check.findings)
            continue
        scored_item = by_id.get((memory.scope, memory.id, memory.sha256))
        stale = scored_item.stale if scored_item else lock.is_stale(memory)
        prereq_of = member.prerequisite_of if isinstance(member, expand.Member) else None
        items.append(PackItem(memory, mode, member.score, _requires(memory, scopes), stale,
                              prereq_of, check.body if mode == "body" else "",
                              ranks.get(memory.id, len(ranks) + 1)))
    if changed:
        return Pack(request.query, anchors, (), 0), changed
    cut_ids = {r.memory.id for r in selection.cut}
    candidates: list[Candidate] = []
    position = {mid: n for mid, n in ranks.items()}
    for s in scored:
        if s.record is None:
            continue  # never ranked: below everything that can be shown
        mid = s.rec.memory.id
        layer = scopes.layer_label(s.scope_rank)
        if s.excluded is None:
            cut = "limit" if mid in cut_ids else None
            candidates.append(_candidate(s, position.get(mid, 0), cut, layer))
        else:
            candidates.append(_candidate(s, layer=layer))
    for mid, reason in excluded:
        candidates = [c._replace(excluded=reason) if c.memory.id == mid else c
                      for c in candidates]
    in_pack = {i.memory.id for i in items}
    excluded_all = sorted({(c.memory.id, c.excluded) for c in candidates
                           if c.excluded and c.memory.id not in in_pack} | set(excluded))
    pack = Pack(
        query=request.query, anchors=anchors, items=tuple(items),
        related_total=len(related) + selection.pulled_in,
        candidates=tuple(candidates), excluded=tuple(excluded_all),
        hidden_by_ignore=scopes.hidden_by_ignore(),
        invalid=tuple(p for p in scopes.problems() if p.severity == "error"),
        narrowing_tags=_narrowing_tags(ranked, request.query) if request.explain else (),
        withheld=tuple(withheld), procedural=procedural)
    return pack, []


def _requires(memory: Memory, scopes: Scopes) -> tuple[str, ...]:
    return tuple(dep if scopes.exists(dep) else f"{dep} (missing)" for dep in memory.depends_on)


def _seed_stems(scopes: Scopes, text: str) -> None:
    """Stems the index already knows for the query's words: snowball is imported only for a
    word no memory contains."""
    surface = words(text)
    for index in scopes.indexes:
        seed_stems(index.stems(surface))


def _narrowing_tags(related: list[_Scored], query: str) -> tuple[str, ...]:
    query_stems = set(tokens(query))
    counts: Counter[str] = Counter()
    tag_stems: dict[str, set[str]] = {}  # a few hundred tags recur across thousands of memories
    for item in related:
        for tag in item.rec.memory.tags:
            stems = tag_stems.get(tag)
            if stems is None:
                stems = tag_stems[tag] = set(tokens(tag))
            if not stems & query_stems:
                counts[tag] += 1
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return tuple(tag for tag, n in ranked if n >= 1)[:5]


def _fetch_pack(ctx: Context, scopes: Scopes, request: Request) -> Pack:
    items: list[PackItem] = []
    warnings: list[str] = []
    excluded: list[tuple[str, str]] = []
    withheld: list[tuple[str, Finding]] = []
    ids = [i for raw in request.ids for i in raw.split(",") if i.strip()]
    found_any = False
    for n, mid in enumerate(dict.fromkeys(i.strip() for i in ids), start=1):
        hit = scopes.find(mid)
        if hit is None:
            warnings.append(f"engram: unknown id: {mid}")
            continue
        found_any = True
        memory = hit[0].memory
        lifecycle = route.lifecycle_exclusion(memory, ctx.today)
        if lifecycle is not None:
            warnings.append(f"engram: warning: {mid} is out of its lifecycle ({lifecycle})")
        if not route.role_visible(memory, ctx.role):
            warnings.append(f"engram: warning: {mid} is for roles {', '.join(memory.roles)}")
        check = scopes.check(memory)
        if check.status != "ok":
            excluded.append((mid, check.exclusion))
            withheld.extend((mid, f) for f in check.findings)
            continue
        items.append(PackItem(memory, "body", 0.0, _requires(memory, scopes),
                              ctx.sources_lock.is_stale(memory), None, check.body, n))
    if not found_any:
        raise UnknownIdError("\n".join(warnings))
    if request.record_fetch:
        _record_fetches(ctx, [i.memory.id for i in items])
    return Pack(request.query, (), tuple(items), len(items), excluded=tuple(excluded),
                invalid=tuple(p for p in scopes.problems() if p.severity == "error"),
                withheld=tuple(withheld), warnings=tuple(warnings))


def _record_fetches(ctx: Context, ids: list[str]) -> None:
    if ctx.state_dir is None or not ids:
        return
    history = _fetch_history(ctx)
    for mid in ids:
        history[mid] = ctx.today
    try:
        atomic_write(ctx.state_dir / FETCH_FILE,
                          json.dumps(dict(sorted(history.items())), indent=1) + "\n")
    except OSError:
        pass  # losing a ranking hint must never fail a fetch


# -- other read-path entry points ------------------------------------------------------------
@_rebuilds_corrupt_index
def search(request: Request, context: Context | None = None) -> list[Candidate]:
    """Every visible memory sharing an anchor with the query, ranked, no gate and no limit."""
    ctx = context or resolve(request)
    scopes = Scopes(ctx)
    try:
        _seed_stems(scopes, request.query)
        anchors = query_anchors(request.query)
        touched = _relative_paths(ctx, request.paths)
        if not anchors and not touched:
            return []
        scored = _score_all(ctx, scopes, anchors, touched, is_procedural(request.query),
                            gate=False, path_only=False)
        visible = [s for s in scored if s.excluded in (None, "duplicate", "negated")]
        return [_candidate(s, n) for n, s in enumerate(visible, start=1)]
    finally:
        scopes.close()


@_rebuilds_corrupt_index
def visible_memories(request: Request, context: Context | None = None) -> list[Memory]:
    """Every valid memory that routing could show (shadowing, lifecycle and role applied)."""
    ctx = context or resolve(request)
    scopes = Scopes(ctx)
    try:
        return [r.memory for r, _ in scopes.all_records() if ctx.can_see(r.memory)]
    finally:
        scopes.close()


@_rebuilds_corrupt_index
def session_start(request: Request,
                  context: Context | None = None) -> tuple[Pack, list[Head]]:
    """The session pack and every visible memory (for the hook's one-line index), from one
    opening of the indexes: a session start should walk the files once, not twice."""
    ctx = context or resolve(request)
    scopes = Scopes(ctx)
    try:
        # Heads only: the full record is decoded for the session pack's few members.
        visible = [(h, n) for h, n in scopes.all_heads() if ctx.can_see(h)]
        pack = _overrides_in_force(ctx, _session_pack(visible, scopes, request))
        return pack, [h for h, _ in visible]
    finally:
        scopes.close()


def _session_pack(visible: list[tuple[Head, int]], scopes: Scopes, request: Request) -> Pack:
    chosen = [(h, n) for h, n in visible
              if h.load == "always" or (h.type == "rule" and h.level == 0)]
    chosen.sort(key=lambda hn: (hn[0].depth, hn[1], hn[0].id))
    routed = [expand.Routed(memory, 1.0, h.depth)
              for (h, _), memory in zip(chosen, scopes.memories(chosen), strict=True)]
    selection = expand.select(routed, scopes.visible, None)
    ranks = expand.rank_order(selection)
    items: list[PackItem] = []
    excluded: list[tuple[str, str]] = []
    withheld: list[tuple[str, Finding]] = []
    for member in selection.members:
        check = scopes.check(member.memory)
        if check.status != "ok":
            excluded.append((member.memory.id, check.exclusion))
            withheld.extend((member.memory.id, f) for f in check.findings)
            continue
        items.append(PackItem(member.memory, "body", member.score,
                              _requires(member.memory, scopes), False,
                              member.prerequisite_of, check.body,
                              ranks.get(member.memory.id, 0)))
    return Pack(request.query, (), tuple(items), len(items), excluded=tuple(excluded),
                withheld=tuple(withheld))
