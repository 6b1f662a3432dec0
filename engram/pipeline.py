"""build_pack(request) -> Pack: the only place where the stages of the read path meet.

A request is resolved to its scopes (scopes.py: discover, parse and the index, refreshed
incrementally), scored (rank.py, with route.py's evidence and gate), expanded by prerequisites
and cut to the limit (expand.py), and its members checked before printing (`_pack_items`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from functools import wraps
from typing import TYPE_CHECKING, NamedTuple

from engram import expand, intents, rank, report, route, spelling
from engram.errors import UnknownIdError
from engram.fsutil import atomic_write
from engram.index import Head, discard, is_corrupt
from engram.model import Candidate, Finding, Memory, Pack, PackItem
from engram.render import RELATED_MAX, Rendered, render_pack
from engram.scopes import Context, Request, Scopes, allow_in_force, relative_paths, resolve
from engram.tokenize import anchors as query_anchors
from engram.tokenize import is_procedural, said_words

if TYPE_CHECKING:
    from typing import TypeVar

    _T = TypeVar("_T")

MAX_CHECK_ROUNDS = 2  # re-index and re-rank once if a file changed between index and print


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
    # The indexes are routed on while a child process checks that no file changed: a warm load
    # then pays for the stat of every file and the ranking at once, not one after the other.
    scopes = Scopes(ctx, speculate=not request.ids)
    try:
        if request.ids:
            return _fetch_pack(ctx, scopes, request)
        for _ in range(MAX_CHECK_ROUNDS):
            pack, changed = _routed_pack(ctx, scopes, request)
            if not scopes.settle():
                continue  # files changed since the indexes were read: refreshed, route again
            if not changed:
                return pack
            scopes.refreshed(changed)
        pack, changed = _routed_pack(ctx, scopes, request, final=True)
        return pack
    finally:
        scopes.close()


def _routed_pack(ctx: Context, scopes: Scopes, request: Request,
                 final: bool = False) -> tuple[Pack, list[Memory]]:
    anchors, slips = ((), frozenset[str]()) if request.path_only else _anchors(
        scopes, request.query)
    procedural = is_procedural(request.query)
    scored, selection, untaken = _select(ctx, scopes, request, anchors, slips, procedural)
    config = ctx.config
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
    wanted: list[_Wanted] = []
    shown: list[tuple[expand.Member | expand.Routed, str]] = [
        (m, "body" if m.memory.id in bodies else "card") for m in selection.members]
    shown += [(r, "related") for r in selection.cut[:5]]
    for member, mode in shown:
        memory = member.memory
        scored_item = by_id.get((memory.scope, memory.id, memory.sha256))
        wanted.append(_Wanted(memory, mode, member.score,
                              scored_item.stale if scored_item else None,
                              member.prerequisite_of if isinstance(member, expand.Member)
                              else None, ranks.get(memory.id, len(ranks) + 1)))
    printed = _pack_items(ctx, scopes, wanted, may_change=not final)
    if printed.changed:
        return Pack(request.query, anchors, (), 0), printed.changed
    related = [s for s in scored if s.excluded is None]
    candidates = _candidates(scopes, scored, selection, ranks, printed.excluded)
    in_pack = {i.memory.id for i in printed.items}
    excluded_all = sorted({(c.memory.id, c.excluded) for c in candidates
                           if c.excluded and c.memory.id not in in_pack} | set(printed.excluded))
    ranked = [s for s in related if s.ranked]
    pack = Pack(
        query=request.query, anchors=anchors, items=printed.items,
        related_total=len(related) + untaken + selection.pulled_in,
        candidates=tuple(candidates), excluded=tuple(excluded_all),
        hidden_by_ignore=scopes.hidden_by_ignore(),
        invalid=tuple(p for p in scopes.problems() if p.severity == "error"),
        narrowing_tags=rank.narrowing_tags(ranked, request.query) if request.explain else (),
        withheld=printed.withheld, procedural=procedural)
    return pack, []


def _anchors(scopes: Scopes, query: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """The query's anchors, a prefixed verb or a file extension no memory holds read as its
    base word or language (`route.base_words`), shorthand and a typing slip as the words some
    memory holds (`_respelled`); and the short words it holds that are a slip of a word some
    memory holds. Only words that may be such are looked up here (the ranking reads them again
    from the index's per-request cache), and a base word only for a word no memory holds:
    "review" is in most corpora, and "view" is then never read."""
    anchors, slips = _respelled(scopes, query_anchors(query), said_words(query),
                                spelling.typed_words(query))
    bases = route.read_as(anchors)
    if not bases:
        return anchors, slips

    def known(terms: list[str]) -> set[str]:
        return {term for index in scopes.indexes
                for term, rows in index.postings(terms).items() if rows.keys}

    held = known(list(bases))
    if held.issuperset(bases):
        return anchors, slips
    held |= known([base for verb, base in bases.items() if verb not in held])
    return route.base_words(anchors, held.__contains__), slips


def _respelled(scopes: Scopes, anchors: tuple[str, ...], said: tuple[str, ...],
               typed: dict[str, str]) -> tuple[tuple[str, ...], frozenset[str]]:
    """The anchors, each one no memory holds read as the shorthand's words, as the concept's
    words memories hold, or as the one word a slip away that memories hold most (ties by the
    word; a short word only with a letter doubled, undoubled or a vowel left out), when some
    memory holds them (`spelling`); a concept phrase's words added after. And the short words
    no memory holds another slip away from one some memory does: too many words are such a
    slip from another for them to be read as it ("modal", "model"), but they name nothing new
    (`route.judges_topic`). A prompt of words every memory spells the same way costs one
    look-up."""
    asked = [a for a in anchors if a in spelling.SHORTHAND or a in spelling.CONCEPTS
             or a in typed]
    phrased = spelling.concept_phrases(said)
    if not asked and not phrased:
        return anchors, frozenset()

    def held(terms: Iterable[str]) -> set[str]:
        wanted = set(terms)
        return set().union(*(index.held(wanted) for index in scopes.indexes)) if wanted else set()

    unheld = set(asked) - held(asked)
    read: dict[str, tuple[str, ...]] = {}
    slips: set[str] = set()
    for anchor in sorted(unheld):
        meant = spelling.SHORTHAND.get(anchor)
        concept = spelling.CONCEPTS.get(anchor)
        if meant is not None:
            if held(meant).issuperset(meant):
                read[anchor] = meant
        elif concept is not None:
            have = held(concept)
            if have:
                read[anchor] = tuple(word for word in concept if word in have)
        elif anchor in typed:
            word = typed[anchor]
            slipped = spelling.one_slip_away(word, anchor)
            if len(word) < spelling.MIN_SLIP_LENGTH:
                # (one look-up for both readings: a short word is read only a letter apart, and
                # set aside as a slip when it is only some other slip away)
                apart = spelling.one_letter_apart(word, anchor)
                have = held([*slipped, *apart])
                found = have.intersection(apart)
                if not found and not have.isdisjoint(slipped):
                    slips.add(anchor)
            else:
                found = held(slipped)
            if found:
                freq: Counter[str] = Counter()
                for index in scopes.indexes:
                    freq.update(index.doc_freqs(found))
                read[anchor] = (min(found, key=lambda t: (-freq[t], t)),)
    added = held(phrased)
    if not read and not added:
        return anchors, frozenset(slips)
    respelled = [word for a in anchors for word in read.get(a, (a,))]
    return (tuple(dict.fromkeys([*respelled, *(word for word in phrased if word in added)])),
            frozenset(slips))


WIDEST_NEED = 1000  # past this many ranked candidates, rank them all


def _select(ctx: Context, scopes: Scopes, request: Request, anchors: tuple[str, ...],
            slips: frozenset[str], procedural: bool
            ) -> tuple[list[rank.Scored], expand.Selection, int]:
    """Every candidate scored, the pack's members with their prerequisites, cut to the limit,
    and how many related memories were left out of the list unranked. Only the candidates that
    can reach the pack are ranked in full, unless the caller asks for an explanation."""
    touched = relative_paths(ctx, request.paths)
    # an outer layer's applies_to is relative to its own folder
    scopes.touched = [relative_paths(ctx, request.paths, d) if d is not None else touched
                      for d in scopes.dirs] if ctx.outer_dirs else []
    limit = None if request.all else (request.limit or ctx.config.load_limit)
    need = None if request.explain or limit is None else limit + RELATED_MAX + 1
    denied = route.denied_words(request.query, anchors)
    scoring = rank.Scoring(ctx, scopes, anchors, touched, procedural, request.gate,
                           request.path_only,
                           route.quoted_clause_words(request.query, anchors) | denied,
                           said_words(request.query) if anchors else (), denied, slips,
                           route.names_code(request.query), route.denials(request.query))
    parts = intents.parts(request.query) if anchors and limit is not None else []
    while True:
        scored = scoring.score(need) if (anchors or touched) else []
        related = [s for s in scored if s.excluded is None]
        ranked = [s for s in related if s.ranked]
        if parts and limit is not None:
            ranked = intents.place_per_part(ranked, parts, scoring, limit)
        routed = [expand.Routed(s.rec.memory, s.score, s.rec.depth, s.loose)
                  for s in ranked]
        if request.all:
            return scored, expand.Selection(
                tuple(expand.Member(r.memory, r.score, r.depth, None, True) for r in routed),
                (), 0), 0
        selection = expand.select(routed, _pullable(scopes, scoring.turned_down()), limit)
        if need is None:
            return scored, selection, 0
        if len(ranked) == len(related) and not scoring.has_untaken():
            return scored, selection, 0
        if limit is not None and expand.is_full(selection, limit):
            # A prerequisite pulled in may be a related memory left unranked: it counts
            # towards the limit with its own score, so it is ranked (with its near-duplicate
            # group) and the pack chosen again, as full ranking would choose it.
            unranked = _pulled_unranked(scopes, selection, scoring)
            if not unranked:
                return scored, selection, scoring.untaken_related()
            if scoring.force(unranked):
                continue
        # Prerequisite groups too big to fit left room that an unranked candidate would take
        # (or a pulled prerequisite could not be ranked alone): widen the ranked set a few
        # times before ranking everything.
        need = need * 8 if need < WIDEST_NEED else None


def _pullable(scopes: Scopes, turned_down: frozenset[str]) -> expand.Lookup:
    """The prerequisites a pack may pull in: not those the prompt turns down by name. A
    dependent still comes, its `requires:` line naming what it was not given."""
    if not turned_down:
        return scopes.visible
    return lambda mid: None if mid in turned_down else scopes.visible(mid)


def _pulled_unranked(scopes: Scopes, selection: expand.Selection,
                     scoring: rank.Scoring) -> set[tuple[int, int]]:
    """(scope rank, key) of the prerequisites the selection pulled in that are related
    memories left unranked."""
    found = [scopes.find(m.memory.id) for m in selection.members if not m.routed]
    wanted = {(hit[1], hit[0].key) for hit in found if hit is not None}
    return scoring.left_unranked(wanted) if wanted else set()


def _candidates(scopes: Scopes, scored: list[rank.Scored], selection: expand.Selection,
                ranks: dict[str, int], excluded: list[tuple[str, str]]) -> list[Candidate]:
    """Every ranked candidate as dry-run shows it; those the checks held back marked so."""
    cut_ids = {r.memory.id for r in selection.cut}
    candidates: list[Candidate] = []
    for s in scored:
        if s.record is None or (s.excluded is None and not s.ranked):
            continue  # never ranked: below everything that can be shown
        mid = s.rec.memory.id
        layer = scopes.layer_label(s.scope_rank)
        if s.excluded is None:
            cut = "limit" if mid in cut_ids else None
            candidates.append(rank.candidate(s, ranks.get(mid, 0), cut, layer))
        else:
            candidates.append(rank.candidate(s, layer=layer))
    for mid, reason in excluded:
        candidates = [c._replace(excluded=reason) if c.memory.id == mid else c
                      for c in candidates]
    return candidates


class _Wanted(NamedTuple):
    """A memory a pack would print, before the checks."""

    memory: Memory
    disclosure: str  # "body" | "card" | "related"
    score: float
    stale: bool | None  # None: ask the workspace's sources.lock
    prerequisite_of: str | None
    rank: int


class _Printed(NamedTuple):
    """What the checks let through, and what they held back."""

    items: tuple[PackItem, ...]
    excluded: list[tuple[str, str]]  # (id, reason)
    withheld: tuple[tuple[str, Finding], ...]
    changed: list[Memory]  # changed on disk since indexed (only when the caller may re-index)


def _pack_items(ctx: Context, scopes: Scopes, wanted: Iterable[_Wanted],
                may_change: bool = False) -> _Printed:
    """The checks before printing, the same for every pack: a memory whose file changed since
    it was indexed is returned to re-index (when `may_change`), one that fails a check is
    excluded with the findings withheld, and the rest become pack items."""
    items: list[PackItem] = []
    excluded: list[tuple[str, str]] = []
    withheld: list[tuple[str, Finding]] = []
    changed: list[Memory] = []
    for want in wanted:
        memory = want.memory
        check = scopes.check(memory)
        if check.status == "changed" and may_change:
            changed.append(memory)
            continue
        if check.status != "ok":
            excluded.append((memory.id, check.exclusion))
            withheld.extend((memory.id, f) for f in check.findings)
            continue
        stale = want.stale if want.stale is not None else ctx.sources_lock.is_stale(memory)
        items.append(PackItem(memory, want.disclosure, want.score, _requires(memory, scopes),
                              stale, want.prerequisite_of,
                              check.body if want.disclosure == "body" else "", want.rank))
    return _Printed(tuple(items), excluded, tuple(withheld), changed)


def _requires(memory: Memory, scopes: Scopes) -> tuple[str, ...]:
    return tuple(dep if scopes.exists(dep) else f"{dep} (missing)" for dep in memory.depends_on)


def _fetch_pack(ctx: Context, scopes: Scopes, request: Request) -> Pack:
    warnings: list[str] = []
    wanted: list[_Wanted] = []
    ids = [i for raw in request.ids for i in raw.split(",") if i.strip()]
    for n, mid in enumerate(dict.fromkeys(i.strip() for i in ids), start=1):
        hit = scopes.find(mid)
        if hit is None:
            warnings.append(f"engram: unknown id: {mid}")
            continue
        memory = hit[0].memory
        lifecycle = route.lifecycle_exclusion(memory, ctx.today)
        if lifecycle is not None:
            warnings.append(f"engram: warning: {mid} is out of its lifecycle ({lifecycle})")
        if not route.role_visible(memory, ctx.role):
            warnings.append(f"engram: warning: {mid} is for roles {', '.join(memory.roles)}")
        wanted.append(_Wanted(memory, "body", 0.0, None, None, n))
    if not wanted:
        raise UnknownIdError("\n".join(warnings))
    printed = _pack_items(ctx, scopes, wanted)
    if request.record_fetch:
        _record_fetches(ctx, [i.memory.id for i in printed.items])
    return Pack(request.query, (), printed.items, len(printed.items),
                excluded=tuple(printed.excluded),
                invalid=tuple(p for p in scopes.problems() if p.severity == "error"),
                withheld=printed.withheld, warnings=tuple(warnings))


def _record_fetches(ctx: Context, ids: list[str]) -> None:
    if ctx.state_dir is None or not ids:
        return
    history = rank.fetch_history(ctx)
    for mid in ids:
        history[mid] = ctx.today
    try:
        atomic_write(ctx.state_dir / rank.FETCH_FILE,
                     json.dumps(dict(sorted(history.items())), indent=1) + "\n")
    except OSError:
        pass  # losing a ranking hint must never fail a fetch


@_rebuilds_corrupt_index
def search(request: Request, context: Context | None = None) -> list[Candidate]:
    """Every visible memory sharing an anchor with the query, ranked, no gate and no limit."""
    ctx = context or resolve(request)
    scopes = Scopes(ctx)
    try:
        anchors, _ = _anchors(scopes, request.query)
        touched = relative_paths(ctx, request.paths)
        if not anchors and not touched:
            return []
        scored = rank.score(ctx, scopes, anchors, touched, is_procedural(request.query),
                            gate=False, path_only=False)
        visible = [s for s in scored if s.excluded in (None, "duplicate", "negated")]
        return [rank.candidate(s, n) for n, s in enumerate(visible, start=1)]
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
        pack = _overrides_in_force(ctx, _session_pack(ctx, visible, scopes, request))
        return pack, [h for h, _ in visible]
    finally:
        scopes.close()


def _session_pack(ctx: Context, visible: list[tuple[Head, int]], scopes: Scopes,
                  request: Request) -> Pack:
    chosen = [(h, n) for h, n in visible
              if h.load == "always" or (h.type == "rule" and h.level == 0)]
    chosen.sort(key=lambda hn: (hn[0].depth, hn[1], hn[0].id))
    routed = [expand.Routed(memory, 1.0, h.depth)
              for (h, _), memory in zip(chosen, scopes.memories(chosen), strict=True)]
    selection = expand.select(routed, scopes.visible, None)
    ranks = expand.rank_order(selection)
    printed = _pack_items(ctx, scopes, (
        _Wanted(m.memory, "body", m.score, False, m.prerequisite_of, ranks.get(m.memory.id, 0))
        for m in selection.members))
    return Pack(request.query, (), printed.items, len(printed.items),
                excluded=tuple(printed.excluded), withheld=printed.withheld)
