"""Scoring: every candidate's BM25 over weighted fields, its exclusions (lifecycle, role,
shadowing, the gate, the topic check, near-duplicates), the path bonus and the multipliers.

Scores are computed in pure Python from the index's postings, so scoring touches only memories
that share a term; `reference_bm25` runs rank_bm25 itself, and tests hold the two to agree.
`score` is the entry point; route.py says which memories a task is about, this module how much.
"""

from __future__ import annotations

import datetime as _dt
import heapq
import json
import math
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from engram import route
from engram.errors import EngramError
from engram.index import FIELDS, Postings, Record, Restriction, ScopeIndex
from engram.model import WORKSPACE as WORKSPACE_SCOPE
from engram.model import Candidate, Memory
from engram.scopes import Context, Scopes
from engram.stale import SourcesLock
from engram.tokenize import says, tokens

if TYPE_CHECKING:
    from typing import Any

K1 = 1.5
B = 0.75

# The multipliers of read-path.md, as (label shown in dry-run, factor).
REVIEW_DUE = ("review_due", 0.7)
STALE = ("stale", 0.6)
CONFIDENCE = {"medium": ("medium", 0.9), "low": ("low", 0.75)}
WORKSPACE = ("ws", 1.1)
FETCHED = ("fetched", 1.05)
PROCEDURAL_SKILL = ("skill", 1.2)
# An anchor in the memory's id or tags, or a touched file its applies_to matches: strong evidence,
# which many body words met in passing ("slot" in an error example) should not outrank.
NAMED = ("named", 1.25)
# On top of `named` when the id or tag word is specific (in few memories), or a touched file
# matched: a memory named by a rare word is about the task more surely than one named by a word
# half the memories share, and a touched file names its conventions exactly.
EXACT = ("exact", 1.25)
# On top of `exact` when the query holds the memory's id whole, an id of two words or more: one
# shared word names a family of memories ("nextjs-..."), the whole id one of them.
WHOLE_ID = ("whole-id", 1.25)


def idf(doc_count: int, doc_freq: int) -> float:
    """Okapi IDF shifted by one inside the log (as Lucene does), so it is always > 0.

    rank_bm25's plain Okapi IDF is zero or negative for a term in half the documents or more,
    which in a small workspace is the normal case: a matched anchor must always add something.
    """
    return math.log(1.0 + (doc_count - doc_freq + 0.5) / (doc_freq + 0.5))


class CorpusStats(NamedTuple):
    """What BM25 needs of the whole corpus."""

    doc_count: int
    avg_len: float  # weighted average document length


def weighted_len(lengths: Sequence[int], weights: Sequence[float]) -> float:
    return sum(n * w for n, w in zip(lengths, weights, strict=False))


def bm25_scores(tfs: Mapping[int, Mapping[str, float]], doc_lengths: Mapping[int, float],
                idfs: Mapping[str, float], stats: CorpusStats) -> dict[int, float]:
    """Okapi BM25 (K1, B) of many documents at once, in one tight loop: a common anchor can make
    thousands of memories candidates, and this loop is then the hot spot of a load."""
    k1_plus = K1 + 1.0
    base_norm = K1 * (1.0 - B)
    slope = K1 * B / stats.avg_len if stats.avg_len > 0 else 0.0
    out: dict[int, float] = {}
    for key, terms in tfs.items():
        norm = base_norm + slope * doc_lengths[key] if stats.avg_len > 0 else K1
        total = 0.0
        for term, tf in terms.items():
            if tf > 0:
                total += idfs[term] * tf * k1_plus / (tf + norm)
        out[key] = total
    return out


def bm25_one(tf: Mapping[str, float], length: float, idfs: Mapping[str, float],
             stats: CorpusStats) -> float:
    """`bm25_scores` of one document (a pool's next member is scored alone, hundreds of times
    in a load: without the mappings around it)."""
    norm = K1 * (1.0 - B) + K1 * B / stats.avg_len * length if stats.avg_len > 0 else K1
    k1_plus = K1 + 1.0
    return sum(idfs[term] * f * k1_plus / (f + norm) for term, f in tf.items() if f > 0)


def apply_multipliers(base: float, factors: Sequence[tuple[str, float]]) -> float:
    score = base
    for _, factor in factors:
        score *= factor
    return score


def order_key(score: float, scope_rank: int, memory_id: str,
              path_match: bool = False) -> tuple[float, bool, int, str]:
    """Final score descending, then a touched file's memories, then workspace before global,
    then id: the same on every machine.

    A path-only match scores exactly the path bonus (the top BM25 score), so it ties the best
    text match; the tie goes to the path match, because a touched file's rules come first.
    Scores are rounded so float noise in the last bits never reorders ties.
    """
    return (-round(score, 9), not path_match, scope_rank, memory_id)


def _okapi() -> Any:
    """rank_bm25's BM25Okapi (numpy behind it: never on the load path). It is an optional
    extra, since only the routing baseline and the tests use it."""
    try:
        from rank_bm25 import BM25Okapi
    except ImportError as exc:
        raise EngramError("the plain-BM25 baseline needs rank-bm25: "
                          "pip install 'engram[bench]'") from exc
    return BM25Okapi


def reference_bm25(corpus: Sequence[Sequence[str]], query: Sequence[str]) -> list[float]:
    """Plain rank_bm25 scores with engram's IDF: the yardstick the fast scorer is tested on."""
    class ShiftedIdf(_okapi()):  # type: ignore[misc]
        def _calc_idf(self, nd: Mapping[str, int]) -> None:
            self.idf = {word: idf(self.corpus_size, freq) for word, freq in nd.items()}

    model = ShiftedIdf([list(doc) for doc in corpus], k1=K1, b=B)
    return [float(x) for x in model.get_scores(list(query))]


def plain_bm25_top(corpus: Sequence[Sequence[str]], query: Sequence[str], k: int) -> list[int]:
    """Indices of the top-k documents under rank_bm25's own Okapi: the baseline to beat."""
    model = _okapi()([list(doc) for doc in corpus])
    scores = model.get_scores(list(query))
    ranked = sorted(range(len(corpus)), key=lambda i: (-float(scores[i]), i))
    return [i for i in ranked[:k] if float(scores[i]) > 0]


# -- ranking the candidates of a request ---------------------------------------------------
FETCH_FILE = "fetched.json"  # in the state folder: id -> the day `engram load --id` last fetched it
FETCH_BOOST_DAYS = 30
FINALIZE_BATCH = 64  # records decoded and multiplied at a time, best base score first


class Scored:
    """A candidate while it is ranked. `record` is loaded only for memories that can reach the
    pack (or for every candidate when the caller asks for an explanation). Updated stage by
    stage, so a plain (slotted: one per candidate) class rather than a record."""

    __slots__ = ("scope_rank", "key", "evidence", "bm25", "record", "multipliers", "score",
                 "stale", "excluded", "detail", "group", "loose", "ranked")

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
        # Multiplied and placed: a record read early (by the clause or topic checks) is not.
        self.ranked = False

    @property
    def rec(self) -> Record:
        if self.record is None:
            raise RuntimeError("candidate ranked without its record")
        return self.record


def fetch_history(ctx: Context) -> dict[str, str]:
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


def score(ctx: Context, scopes: Scopes, anchors: tuple[str, ...], touched: list[str],
          procedural: bool, gate: bool, path_only: bool,
          need: int | None = None) -> list[Scored]:
    """Every candidate with its evidence, BM25 and exclusion; ranked candidates first (see
    `Scoring.score`)."""
    return Scoring(ctx, scopes, anchors, touched, procedural, gate, path_only).score(need)


class _Gathered(NamedTuple):
    """The evidence of every candidate of every scope, and the corpus figures BM25 needs: the
    same for every `need`, so a request that widens its ranked set gathers once."""

    evidence: list[dict[int, route.Evidence]]
    shared: list[list[list[int]]]  # per scope: keys given one Evidence object (gather)
    # per scope: keys whose evidence is their own (a path match, or a trigger phrase the prompt
    # says as written)
    own: list[set[int]]
    lengths: list[dict[int, float]]
    weak: list[route.WeakHits]
    doc_freq: Counter[str]
    stats: CorpusStats
    idfs: dict[str, float]
    most: float  # the most memories a term may be in and still be specific


class _Prepared(NamedTuple):
    ranking: _Ranking
    specific: Callable[[str], bool]
    gathered: _Gathered
    turned_down: list[set[int]]  # per scope: the keys the prompt turns down by a whole name


class Scoring:
    """One request's scoring. `score` may be asked again with a larger `need` (the pipeline
    widens the ranked set when a pulled prerequisite was left unranked): postings, evidence and
    decoded records are kept between the calls, and each call ranks afresh from them."""

    def __init__(self, ctx: Context, scopes: Scopes, anchors: tuple[str, ...],
                 touched: list[str], procedural: bool, gate: bool, path_only: bool,
                 quoted: frozenset[str] = frozenset(), said: Sequence[str] = (),
                 denied: frozenset[str] = frozenset(),
                 slips: frozenset[str] = frozenset(), coded: bool = False,
                 denials: tuple[frozenset[str], ...] = ()) -> None:
        self.ctx = ctx
        self.coded = coded  # the prompt names an identifier of code (`route.names_code`)
        self.slips = slips  # anchors no memory holds, a slip of a word some memory does
        self.quoted = quoted  # anchors held only inside the prompt's own exclusion clauses
        self.denied = denied  # ... of them, those it turns down (`route.denied_words`)
        self.denials = denials  # what each of its denials turns down (`route.denials`)
        self.said = said  # the prompt's words as written (`tokenize.said_words`)
        self.scopes = scopes
        self.anchors = anchors
        self.touched = touched
        self.procedural = procedural
        self.gate = gate
        self.path_only = path_only
        self.weights = tuple(dict(ctx.config.load_field_weights).get(name, 0.0)
                             for name in FIELDS)
        self._gathered: dict[bool, _Gathered] = {}
        self._prepared: dict[bool, _Prepared] = {}  # lazy rankings, to go on with
        self._last: _Prepared | None = None
        self._scored: list[Scored] = []
        self.records: dict[tuple[int, int], Record] = {}

    def _gather(self, drop_weak: bool) -> _Gathered:
        found = self._gathered.get(drop_weak)
        if found is None:
            found = self._gathered[drop_weak] = self._gather_now(drop_weak)
        return found

    def _gather_now(self, drop_weak: bool) -> _Gathered:
        scopes, anchors, touched, weights = self.scopes, self.anchors, self.touched, self.weights
        path_only = self.path_only
        evidence: list[dict[int, route.Evidence]] = []
        shared: list[list[list[int]]] = []
        own: list[set[int]] = []
        lengths: list[dict[int, float]] = []
        weak: list[route.WeakHits] = []
        doc_freq: Counter[str] = Counter()
        doc_count = 0
        weighted_total = 0.0
        for n, index in enumerate(scopes.indexes):
            ev: dict[int, route.Evidence] = {}
            lens: dict[int, float] = {}
            aside = route.WeakHits()
            alike: list[list[int]] = []
            own_keys: set[int] = set()
            here = scopes.touched[n] if scopes.touched and touched else touched
            corpus = index.corpus()
            if anchors and not path_only:
                postings = index.postings(anchors, weights)
                doc_freq.update(index.doc_freqs(anchors, weights))
                route.gather(postings, weights, ev, lens, aside if drop_weak else None, alike)
                if self.said:
                    own_keys.update(_said_by_name(index, ev, self.said))
            if here:
                set_aside: dict[int, tuple[str, Postings]] | None = None
                matched: dict[int, tuple[route.Evidence | None, route.Evidence]] = {}
                for key, globs in index.path_rules():
                    if route.path_matches(globs, here):
                        if key not in ev and aside:
                            if set_aside is None:
                                set_aside = route.weak_index(aside)
                            found = set_aside.get(key)
                            if found is not None:
                                route.gather({found[0]: found[1]}, weights, ev, lens)
                        ev[key] = _path_matched(ev.get(key), matched)
                        own_keys.add(key)
            evidence.append(ev)
            shared.append(alike)
            own.append(own_keys)
            lengths.append(lens)
            weak.append(aside)
            doc_count += corpus.doc_count
            weighted_total += weighted_len(corpus.tokens, weights)
        stats = CorpusStats(doc_count, weighted_total / doc_count if doc_count else 0.0)
        return _Gathered(evidence, shared, own, lengths, weak, doc_freq, stats,
                         {term: idf(doc_count, df) for term, df in doc_freq.items()},
                         route.specific_most(route.content_words(anchors), doc_count))

    def score(self, need: int | None = None) -> list[Scored]:
        """Every candidate with its evidence, BM25 and exclusion; ranked candidates first.

        With `need`, only candidates that can still reach the top `need` related memories get
        their record decoded and their multipliers applied (the rest stay unranked at the end,
        counted as related but never shown; members of a shared-evidence pool left unranked
        are not listed at all, `untaken_related` counts them): BM25, the gate, the topic check
        and lifecycle, role and duplicate exclusions need no record, and no multiplier lifts a
        score by more than `_max_boost`.
        """
        # Without an explanation to print, memories the gate is sure to exclude are only counted
        # as never related; they are kept aside for a path trigger or the path bonus.
        drop_weak = need is not None and self.gate and route.gate_drops_weak(len(self.anchors))
        prepared = self._prepared.get(drop_weak) if need is not None else None
        if prepared is None:
            prepared = self._prepare(need, drop_weak)
            if prepared.ranking.lazy:
                self._prepared[drop_weak] = prepared
        self._last = prepared
        ranking, specific = prepared.ranking, prepared.specific
        ranked = ranking.rank(need)
        for item in ranked:
            item.loose = False  # judged again below: a wider ranking can change the best match
        # Which related memories print only as cards: judged on the few that can be shown, and
        # never the best match, which is the pack's answer however thin its evidence.
        related = [s for s in ranked if s.excluded is None]
        taken = route.id_words_held(s.evidence for s in related)
        for item in related[1:]:
            item.loose = (route.loose(item.evidence, specific)
                          or route.overshadowed(item.evidence, item.score, related[0].score)
                          or (route.name_taken(item.evidence, taken)
                              and not route.holds_a_name(item.rec.memory, self.anchors)))
        if related:
            related[0].loose = related[0].evidence.weak
        ranked_ids = {id(s) for s in ranked}
        # Unranked candidates are only counted (never shown), so their order does not matter.
        rest = [s for s in ranking.scored if id(s) not in ranked_ids]
        self._scored = ranked + rest
        return self._scored

    def part_score(self, item: Scored, part: Collection[str]) -> float:
        """The item's score for one part of the prompt (`intents.parts`): its BM25 over that
        part's anchors alone, times the multipliers it got for the whole prompt."""
        if self._last is None or item.bm25 <= 0:
            return 0.0
        gathered = self._last.gathered
        tf = {t: f for t, f in item.evidence.tf.items() if t in part}
        length = gathered.lengths[item.scope_rank].get(item.key, gathered.stats.avg_len)
        return bm25_one(tf, length, gathered.idfs, gathered.stats) * item.score / item.bm25

    def untaken_related(self) -> int:
        """How many related memories the last `score` left inside its pools, unranked (counted
        in the pack's related total, never shown): a pool excluded as a whole counts none,
        and of the members in one near-duplicate group only the first counts, none when the
        group already has a related memory listed. Counted when the ranking is final, rather
        than built as candidates each time."""
        if self._last is None:
            return 0
        kept: defaultdict[int, set[str]] = defaultdict(set)
        for s in self._scored:
            if s.excluded is None and s.group is not None:
                kept[s.scope_rank].add(s.group)
        rests: defaultdict[int, list[int]] = defaultdict(list)
        groups: dict[int, Mapping[int, str]] = {}
        for pool in self._last.ranking.pools:
            if pool.live:
                rests[pool.scope_rank] += pool.keys[pool.taken:]
                groups[pool.scope_rank] = pool.groups
        count = 0
        for scope_rank, keys in rests.items():
            grouped = list(filter(None, map(groups[scope_rank].get, keys)))  # never ""
            count += len(keys) - len(grouped) + len(set(grouped) - kept[scope_rank])
        return count

    def turned_down(self) -> frozenset[str]:
        """The ids of the memories the prompt turns down by a whole name (`_named_by_denial`):
        "it's not server data so no graphql is involved" is not a task for the memories tagged
        `graphql`, whatever depends on them. One word of a name is not enough: "not a metadata
        syncable entity" does not turn down the field-id rules tagged `metadata-ids`."""
        if self._last is None:
            return frozenset()
        return frozenset(mid for index, keys in zip(self.scopes.indexes, self._last.turned_down,
                                                    strict=True) if keys
                         for mid in index.ids_of(keys).values())

    def has_untaken(self) -> bool:
        """Whether the last `score` left any pool member unranked that its pool does not
        exclude (a cheap upper bound of `untaken_related`: they may all be duplicates)."""
        return self._last is not None and any(pool.live for pool in self._last.ranking.pools)

    def left_unranked(self, wanted: set[tuple[int, int]]) -> set[tuple[int, int]]:
        """Those of `wanted` (scope rank, key) that the last `score` left related and unranked
        (a pool's members not taken included)."""
        return self._last.ranking.left_unranked(wanted) if self._last is not None else set()

    def force(self, wanted: set[tuple[int, int]]) -> bool:
        """Have the last `score`'s ranking rank these (scope rank, key) candidates too: the
        next `score` with the same need places them with their real scores (see
        `_Ranking.force`). False when it found none of them to rank."""
        return self._last is not None and self._last.ranking.force(wanted) > 0

    def _take_quotes(self, scope_rank: int, keys: list[int],
                     evidence: dict[int, route.Evidence], idfs: dict[str, float],
                     doc_count: int) -> None:
        """Count the clauses the prompt quotes whole as the quoting memory's body words
        (`route.quoted_evidence`). A word held only in a clause has no IDF yet: it is in no
        scoring field, so its IDF is the rarest's."""
        body = self.weights[FIELDS.index("body")]
        for key, clauses in _quoting(self.scopes, scope_rank, keys, evidence, self.anchors,
                                     self.records):
            evidence[key] = route.quoted_evidence(evidence[key], clauses, self.anchors, body)
            for term in evidence[key].tf:
                if term not in idfs:
                    idfs[term] = idf(doc_count, 0)

    def _prepare(self, need: int | None, drop_weak: bool) -> _Prepared:
        """The candidates, judged, with their base scores, ready to rank."""
        ctx, scopes, anchors, touched = self.ctx, self.scopes, self.anchors, self.touched
        gate, path_only, procedural = self.gate, self.path_only, self.procedural
        gathered = self._gather(drop_weak)
        evidence, shared, own, lengths = (gathered.evidence, gathered.shared, gathered.own,
                                          gathered.lengths)
        doc_freq, stats, idfs, most = (gathered.doc_freq, gathered.stats, gathered.idfs,
                                       gathered.most)

        everyday = route.EVERYDAY

        def specific(term: str) -> bool:
            return 0 < doc_freq[term] <= most and term not in everyday

        # Without an explanation, memories with the same evidence are judged once and ranked
        # lazily, shortest first (`_Pool`); the rest (a touched file, an exclusion clause,
        # lifecycle, role, shadowing) one by one. A query no memory is on topic for is judged
        # memory by memory (`_exclude_off_topic` reads each one's names), then the few it
        # leaves are ranked lazily like any other query's candidates; whether one is on topic
        # is known from the evidence alone.
        def named(term: str) -> bool:  # some candidate has it in its id or tags
            return any(route.STRONG_FIELDS.intersection(e.fields.get(term, ()))
                       for by_key in evidence for e in by_key.values())

        def known(term: str) -> bool:  # a slip of a held word names nothing new
            return doc_freq[term] > 0 or term in self.slips

        judges_topic = bool(gate and anchors and not path_only and not self.coded
                            and route.judges_topic(anchors, known, specific, named))
        strict = route.content_words(anchors) > route.NAME_MAX_WORDS
        familiar_most = route.familiar_most(stats.doc_count)

        def familiar(term: str) -> bool:
            return 0 < doc_freq[term] <= familiar_most

        def rare(term: str) -> bool:  # held by a memory or two only
            return 0 < doc_freq[term] <= route.SPECIFIC_MIN

        read = route.read_denials(self.denials, specific,
                                  (e for by_key in evidence for e in by_key.values())
                                  ) if self.denied else None
        named_whole = [_named_by_denial(index, ev, self.denied, read) if read else frozenset()
                       for index, ev in zip(scopes.indexes, evidence, strict=True)]
        refusals = [_refusals(ev, self.denied, specific, whole, read) if read else {}
                    for ev, whole in zip(evidence, named_whole, strict=True)]
        # A word the prompt turns down where it names a memory ("don't open a PR yet") is
        # evidence for no memory: the PR skill that does not name itself "pr" is not the task
        # either. One that names none ("no internal details in prod") is still asked about.
        for term in {t for by_key in refusals for terms in by_key.values() for t in terms}:
            idfs[term] = 0.0

        def judge(lazy: bool) -> tuple[list[Scored], list[_Pool], list[dict[int, str]]]:
            scored: list[Scored] = []
            pools: list[_Pool] = []
            all_groups: list[dict[int, str]] = []
            for scope_rank, (index, ev, lens) in enumerate(zip(scopes.indexes, evidence,
                                                               lengths, strict=True)):
                groups = index.dup_groups(ev)
                all_groups.append(groups)
                restricted = index.restrictions()
                shadowed = _shadowed_keys(scopes, scope_rank, ev) if scope_rank > 0 else set()
                by_evidence = shared[scope_rank] if lazy else []
                refused = refusals[scope_rank]
                special = shadowed | restricted.keys() | own[scope_rank] | named_whole[scope_rank]
                if special:
                    by_evidence = [[k for k in keys if k not in special] for keys in by_evidence]
                by_evidence = [keys for keys in by_evidence if keys]
                pooled = set().union(*by_evidence)
                for keys in [keys for keys in by_evidence if ev[keys[0]].negated]:
                    pooled.difference_update(keys)
                by_evidence = [keys for keys in by_evidence if not ev[keys[0]].negated]
                one_by_one = [key for key in ev if key not in pooled]
                judged: set[int] = set()
                for e in [*(ev[keys[0]] for keys in by_evidence),
                          *map(ev.__getitem__, one_by_one)]:
                    if id(e) not in judged:
                        judged.add(id(e))
                        single = e.body_only
                        e.common = single is not None and doc_freq[single] > 1
                        e.rare_name = e.strong and route.named_by_rare_word(e, specific)
                # Only a memory met by several of its clause words can be quoted; the rest
                # are not read for it.
                touching = [key for key in one_by_one
                            if len(ev[key].negated) >= route.QUOTE_MIN_TERMS
                            and not ev[key].path_match]
                if touching:
                    self._take_quotes(scope_rank, touching, ev, idfs, stats.doc_count)
                bm25 = bm25_scores({key: ev[key].tf for key in one_by_one},
                                   defaultdict(float, lens), idfs, stats)
                for key in one_by_one:
                    item = Scored(scope_rank, key, ev[key], bm25[key], group=groups.get(key))
                    scored.append(item)
                    _exclude(item, ctx, restricted.get(key), key in shadowed, gate,
                             len(anchors), specific, self.quoted, refused.get(key, ()))
                for keys in by_evidence:
                    pool = _Pool(scope_rank, ev[keys[0]], keys, lens, groups, idfs, stats,
                                 strict)
                    # (a pool's members share their evidence, and with it what the prompt
                    # turns down of them)
                    _exclude(pool.model, ctx, None, False, gate, len(anchors), specific,
                             self.quoted, refused.get(keys[0], ()))
                    pools.append(pool)
            if anchors and not path_only:
                asked = tuple(a for a in anchors if a not in self.quoted)
                _exclude_named_clauses(scopes, scored, asked, self.records,
                                       lambda t: doc_freq[t] <= most,
                                       anchors if self.quoted else ())
            return scored, pools, all_groups

        scored, pools, all_groups = judge(need is not None)

        # A memory's trigger phrases are read only when a word of one is all that could make
        # it on topic (`route.on_topic`).
        def phrase_of(item: Scored) -> Callable[[set[str]], bool]:
            def held(terms: set[str]) -> bool:
                _load_records(scopes, [item], self.records)
                return route.holds_half_a_trigger(item.rec.memory.triggers, terms, anchors)
            return held

        # A memory the prompt turns down by name still says what the prompt is about: "leave the
        # bridge's Dockerfile alone, the EF migrations run in the wrong order" is a task here.
        def weighed(s: Scored) -> bool:
            return s.excluded is None or s.excluded == "negated" and s.key in refusals[
                s.scope_rank]

        # A long task told by a person is judged as a task, not as a description.
        described = strict and not route.spoken(self.said)
        foreign = judges_topic and not described and route.foreign_stack(anchors, known)
        off_topic = judges_topic and not any(
            route.on_topic(s.evidence, specific, described, familiar, rare, phrase_of(s),
                           foreign)
            for s in [*scored, *(pool.model for pool in pools)] if weighed(s))
        # Beside two words no memory holds, a word met only in a body, or only as one word of
        # a trigger phrase the prompt holds less than half of, is chance ("my kitchen sink is
        # leaking" and "data leaking between tenants").
        def by_chance(s: Scored) -> bool:
            if s.evidence.body_only is not None:
                return True
            outside_body = {t for t, fields in s.evidence.fields.items() if fields != ("body",)}
            return bool(outside_body) and not s.evidence.path_match and all(
                set(s.evidence.fields[t]) <= route.TRIGGER_OR_BODY for t in outside_body) and not (
                phrase_of(s)(outside_body))

        if (not off_topic and gate and anchors and not path_only and not self.coded
                and route.judges_short(anchors, known)):
            off_topic = all(by_chance(s) for s in [*scored, *(pool.model for pool in pools)]
                            if s.excluded is None)
        if off_topic and pools:
            scored, pools, all_groups = judge(False)
        lazy = need is not None
        names = route.Names(anchors, specific, rare,
                            _sole_id(evidence, familiar) if strict else None)
        if off_topic:
            _exclude_off_topic(scopes, scored, names)
        fetched = fetch_history(ctx)
        base = {id(s): s.bm25 for s in scored}
        if any(s.evidence.path_match for s in scored):
            # A path match scores the best text score of any candidate, set aside or not.
            top_bm25 = max([s.bm25 for s in scored] + [p.top_bm25 for p in pools])
            for aside in gathered.weak:
                top_bm25 = max(top_bm25, _best_weak_bm25(aside, top_bm25, self.weights, idfs,
                                                         stats))
            bonus = top_bm25 if top_bm25 > 0 else 1.0
            for s in scored:
                if s.evidence.path_match:
                    base[id(s)] += bonus
        kinds = route.file_kinds(touched) if anchors and not path_only else None
        ranking = _Ranking(ctx, scopes, scored, base, procedural, fetched, kinds,
                           names.name_held, pools,
                           self.records, lazy, evidence, all_groups, strict)
        turned_down = [{key for key in whole if key in by_key and not ev[key].path_match}
                       for by_key, ev, whole in zip(refusals, evidence, named_whole,
                                                    strict=True)]
        return _Prepared(ranking, specific, gathered, turned_down)


def _named_by_denial(index: ScopeIndex, evidence: dict[int, route.Evidence],
                     denied: frozenset[str], read: route.Denials) -> frozenset[int]:
    """The candidates one of whose names (id, a tag, a trigger phrase) the prompt turns down
    whole: "not a security review" names `security-review`, "no app store submission" a
    memory tagged `app-store`; "skip the code change" names none tagged `code-review`."""
    touched = [key for key, e in evidence.items()
               if any(route.NAMING_FIELDS.intersection(e.fields.get(t, ())) for t in denied)]
    if not touched:
        return frozenset()
    return frozenset(key for key, names in index.names(touched).items()
                     if any(route.denies_whole(words, denied, read) for words in names))


def _refusals(evidence: dict[int, route.Evidence], denied: frozenset[str],
              specific: Callable[[str], bool], named_whole: frozenset[int],
              read: route.Denials) -> dict[int, tuple[str, ...]]:
    """key -> the turned-down words that name the candidate (`route.turned_down`), for those
    some word names."""
    found: dict[int, tuple[str, ...]] = {}
    for key, e in evidence.items():
        terms = route.turned_down(e, denied, specific, key in named_whole, read)
        if terms:
            found[key] = terms
    return found


def _said_by_name(index: ScopeIndex, evidence: dict[int, route.Evidence],
                  said: Sequence[str]) -> list[int]:
    """The candidates one of whose trigger phrases the prompt says as written
    (`tokenize.written_form`: "why does the PaymentRetryQueue class exist" says "why does this
    exist"), each given its own evidence holding that name whole: like a memory whose id the
    prompt holds, it passes the gate and stays when the prompt names what no memory holds."""
    keys = [key for key, forms in index.said_forms()
            if key in evidence and any(says(form, said) for form in forms)]
    for key in keys:
        evidence[key] = route.copy(evidence[key])
        evidence[key].whole_name = True
    return keys


def _sole_id(evidence: list[dict[int, route.Evidence]], familiar: Callable[[str], bool]
             ) -> Callable[[str], bool]:
    """Whether at most SPECIFIC_MIN memories have a word in their id, and it is a word of the
    workspace's domain, not boilerplate ("write" of `writing-skills`, in most memories):
    `Names._names_by_id`."""
    counted: list[Counter[str]] = []  # counted on the first one-word id a prompt holds

    def sole(term: str) -> bool:
        if not counted:
            in_ids: Counter[str] = Counter()
            for by_key in evidence:
                for ev in by_key.values():
                    in_ids.update(t for t, fields in ev.fields.items() if "id" in fields)
            counted.append(in_ids)
        return 0 < counted[0][term] <= route.SPECIFIC_MIN and familiar(term)
    return sole


def _quoting(scopes: Scopes, scope_rank: int, keys: list[int],
             evidence: dict[int, route.Evidence], anchors: tuple[str, ...],
             records: dict[tuple[int, int], Record]) -> list[tuple[int, list[str]]]:
    """The memories among `keys` (which touch an exclusion clause) whose clauses the prompt
    quotes whole (`route.quotes`), with those clauses."""
    items = [Scored(scope_rank, key, evidence[key]) for key in keys]
    _load_records(scopes, items, records)
    found = []
    for item in items:
        quoted = [c for c in item.rec.memory.negations if route.quotes(c, anchors)]
        if quoted:
            found.append((item.key, quoted))
    return found


def _path_matched(ev: route.Evidence | None,
                  matched: dict[int, tuple[route.Evidence | None, route.Evidence]]
                  ) -> route.Evidence:
    """The evidence of a memory a touched file matches: a copy, shared by the memories whose
    evidence was shared. `matched` holds the originals too, so no id is reused meanwhile."""
    found = matched.get(id(ev))
    if found is not None:
        return found[1]
    out = route.copy(ev)
    out.path_match = True
    matched[id(ev)] = (ev, out)
    return out


class _Pool:
    """Candidates with one shared evidence (see route.gather): judged once, through `model`,
    and ranked lazily. With equal term frequencies, BM25 falls as the document grows, so
    shortest first is best first, and the next member's score bounds all the rest
    (tests/speed/test_ranking_guards.py checks that bound against every member's real score).
    """

    __slots__ = ("scope_rank", "evidence", "keys", "lengths", "groups", "idfs", "stats",
                 "long_query", "model", "taken", "next_bm25")

    def __init__(self, scope_rank: int, evidence: route.Evidence, keys: list[int],
                 lengths: Mapping[int, float], groups: Mapping[int, str],
                 idfs: Mapping[str, float], stats: CorpusStats,
                 long_query: bool = False) -> None:
        if len(keys) > 1:
            keys = sorted(keys)  # its own list: members named early are taken out of it
            keys.sort(key=lengths.__getitem__)  # shortest first; equal lengths by key
        else:
            keys = list(keys)
        self.scope_rank = scope_rank
        self.evidence = evidence
        self.keys = keys
        self.lengths = lengths
        self.groups = groups
        self.idfs = idfs
        self.stats = stats
        self.long_query = long_query
        self.model = Scored(scope_rank, keys[0], evidence)  # carries the shared exclusion
        self.taken = 0
        self.next_bm25 = self._bm25(keys[0])

    def _bm25(self, key: int) -> float:
        return bm25_one(self.evidence.tf, self.lengths[key], self.idfs, self.stats)

    @property
    def top_bm25(self) -> float:
        """The best BM25 of any member (the first is the shortest)."""
        return self._bm25(self.keys[0])

    @property
    def live(self) -> bool:
        return self.model.excluded is None and self.taken < len(self.keys)

    def bound(self) -> float:
        """The `_finalize` heap key of the next member: no later member scores more."""
        return self.next_bm25 * _named_bound(self.evidence, self.long_query)

    def take(self) -> Scored:
        """The next member, as a candidate of its own."""
        key = self.keys[self.taken]
        item = Scored(self.scope_rank, key, self.evidence, self.next_bm25,
                      group=self.groups.get(key))
        self.taken += 1
        if self.taken < len(self.keys):
            self.next_bm25 = self._bm25(self.keys[self.taken])
        return item

    def take_out(self, key: int) -> Scored | None:
        """A member not yet taken, named before its turn, as a candidate of its own (None when
        it is not one). The rest keep their order, so the next one's score still bounds them."""
        try:
            n = self.keys.index(key, self.taken)
        except ValueError:
            return None
        del self.keys[n]
        item = Scored(self.scope_rank, key, self.evidence, self._bm25(key),
                      group=self.groups.get(key))
        item.excluded, item.detail = self.model.excluded, self.model.detail
        if n == self.taken and self.taken < len(self.keys):
            self.next_bm25 = self._bm25(self.keys[self.taken])
        return item


def _best_weak_bm25(aside: route.WeakHits, floor: float, weights: tuple[float, ...],
                    idfs: dict[str, float], stats: CorpusStats) -> float:
    """The best BM25 among memories set aside with one weak hit (the path bonus counts every
    candidate), computed only for anchors whose IDF bound could beat `floor`."""
    bound = {term: idfs[term] * (K1 + 1.0) for term in idfs}
    tfs: dict[int, dict[str, float]] = {}
    lens: dict[int, float] = {}
    for term, rows in aside.items():
        if bound[term] > floor:
            for key, counts, length in zip(rows.keys, rows.counts, rows.lengths, strict=True):
                tfs[key] = {term: route.weighted_tf(counts, weights)}
                lens[key] = length
    scores = bm25_scores(tfs, lens, idfs, stats)
    return max(scores.values(), default=0.0)


def _shadowed_keys(scopes: Scopes, scope_rank: int, ev: dict[int, route.Evidence]) -> set[int]:
    """Keys of an outer layer's or the global scope's candidates whose id a nearer scope has."""
    ids = scopes.indexes[scope_rank].ids_of(ev)
    present: set[str] = set()
    for nearer in scopes.indexes[:scope_rank]:
        present |= set(nearer.present_ids(ids.values()))
    return {key for key, mid in ids.items() if mid in present}


def _exclude(item: Scored, ctx: Context, memory: Restriction | None, shadowed: bool,
             gate: bool, anchor_count: int, specific: Callable[[str], bool],
             quoted: frozenset[str] = frozenset(), refusal: tuple[str, ...] = ()) -> None:
    """`refusal`: the words the prompt turns down that name the candidate (`_refusals`)."""
    e = item.evidence
    # Only a restricted, shadowed or path-only candidate, one touching an exclusion clause, or
    # one a word the prompt turns down names, can fail before the gate: testing that first
    # keeps the common case to one check.
    if memory is not None or shadowed or e.negated or not e.tf or refusal:
        reason = _visibility_exclusion(e, ctx, memory, shadowed, quoted, refusal)
        if reason is not None:
            item.excluded, item.detail = reason
            return
    if gate and not route.passes_gate(anchor_count, e, specific):
        item.excluded, item.detail = "gate", "one weak match for a long query"


def _visibility_exclusion(e: route.Evidence, ctx: Context, memory: Restriction | None,
                          shadowed: bool, quoted: frozenset[str], refusal: tuple[str, ...]
                          ) -> tuple[str, str] | None:
    """(reason, detail) when scope, lifecycle, role, the memory's own exclusion clause or a word
    the prompt turns down (`refusal`) rules the candidate out, in that order; None otherwise."""
    lifecycle = route.lifecycle_exclusion(memory, ctx.today) if memory else None
    if shadowed:
        return "shadowed", "workspace memory has this id"
    if lifecycle is not None:
        return "lifecycle", lifecycle
    if memory is not None and not route.role_visible(memory, ctx.role):
        return "role", "roles " + ",".join(memory.roles)
    if not e.tf and not e.path_match:
        return "negated", "matched only its own exclusion clause"
    if route.is_negated(e, quoted):
        return "negated", "query matches its exclusion clause: " + ",".join(sorted(e.negated))
    if refusal and not e.path_match:
        return "negated", f"the query turns down '{refusal[0]}', which names it"
    return None


def _max_boost(scope: str, confidences: Iterable[str], procedural: bool,
               fetched: dict[str, str]) -> float:
    """The largest product of multipliers any memory of the scope can get for this query, from
    its scope and the confidence levels its memories have (a scope where no memory says
    `confidence: high` is bounded by the default level's factor)."""
    boost = WORKSPACE[1] if scope == WORKSPACE_SCOPE else 1.0
    boost *= max((CONFIDENCE[c][1] if c in CONFIDENCE else 1.0 for c in confidences),
                 default=1.0)
    if fetched:
        boost *= FETCHED[1]
    if procedural:
        boost *= PROCEDURAL_SKILL[1]
    return boost


def _named(evidence: route.Evidence) -> float:
    """The `named` factor: strong evidence (an id or tag hit, a touched file, or the query
    holding one of the memory's names whole) gets it, and the `exact` factor on top for a
    touched file, an id or tag word few memories hold, or a whole name."""
    named = (NAMED[1] if evidence.strong or evidence.path_match or evidence.whole_name
             else 1.0)
    return named * EXACT[1] if _exact(evidence) else named


def _exact(evidence: route.Evidence) -> bool:
    return evidence.path_match or evidence.rare_name or evidence.whole_name


def _named_bound(evidence: route.Evidence, long_query: bool = False) -> float:
    """The most `_named` can give once the record is read: whether the query holds a name whole
    is known only then, and only a memory hit in its id, tags or triggers can have one (a long
    description may hold a one-word id whole)."""
    if evidence.in_naming_fields:
        held = evidence.may_hold_id or (long_query and evidence.hits_id)
        whole = WHOLE_ID[1] if held else 1.0
        return NAMED[1] * EXACT[1] * whole
    return _named(evidence)


class _Ranking:
    """Decodes records and applies multipliers, best base score first, until no candidate left
    could enter the top `need` related (every candidate when need is None); `rank` returns them
    ranked. With the touched files' `kinds`, a text match whose globs are for other kinds of
    file is excluded (`other-files`) as its record is read. Members of `pools` (only with
    `need`) become candidates as they come up.

    `rank` may be called again with a larger `need`: it goes on from where it stopped. Ranking
    stops only between batches, and a stop for a larger need is never reached before the stop
    for a smaller one, so going on gives exactly what ranking for the larger need at once gives.
    """

    def __init__(self, ctx: Context, scopes: Scopes, scored: list[Scored],
                 base: dict[int, float], procedural: bool, fetched: dict[str, str],
                 kinds: frozenset[str] | None, names: Callable[[Memory], int] | None,
                 pools: Sequence[_Pool], records: dict[tuple[int, int], Record],
                 lazy: bool, evidence: Sequence[Mapping[int, route.Evidence]],
                 groups: Sequence[Mapping[int, str]], long_query: bool = False) -> None:
        self.ctx = ctx
        self.scopes = scopes
        self.scored = scored
        self.base = base
        self.procedural = procedural
        self.fetched = fetched
        self.kinds = kinds
        self.names = names
        self.pools = pools
        self.records = records
        self.lazy = lazy
        self.evidence = evidence  # per scope: every candidate's
        self.groups = groups  # per scope: the candidates' near-duplicate groups
        self._alone: dict[tuple[int, int], Scored] | None = None  # made by the first `force`
        self._pool_of: dict[tuple[int, int], _Pool] = {}
        self.done: list[Scored] = []
        self.marked: list[Scored] = []  # marked duplicates by the last `rank`: undone first
        # A heap, not a sort: usually only the first batch or two is ever taken. Members of a
        # near-duplicate group are ranked like the rest and counted once per group: a member
        # left unranked scores below the top `need`, so it cannot displace its group's
        # member there (and the group stays resolved to its best member where it matters).
        # The `named` factor needs no record, so it is in the key, not in every bound.
        # A pool has one entry, its next member's; the slot is -1 - its position.
        self.heap: list[tuple[float, int, int, int]] = []
        if lazy:
            self.heap = [(-base[id(s)] * _named_bound(s.evidence, long_query), s.scope_rank,
                          s.key, n)
                         for n, s in enumerate(scored) if s.excluded is None]
            self.heap += [(-p.bound(), p.scope_rank, p.keys[0], -1 - n)
                          for n, p in enumerate(pools) if p.live]
            heapq.heapify(self.heap)
        self.boosts = [_max_boost(i.scope, i.confidences(), procedural, fetched)
                       for i in scopes.indexes]

    def _rank_batch(self, batch: list[Scored]) -> None:
        _load_records(self.scopes, batch, self.records)
        lock, names, kinds = self.ctx.sources_lock, self.names, self.kinds
        for item in batch:
            held = (names(item.rec.memory)
                    if names is not None and item.evidence.in_naming_fields else 0)
            if held:
                item.evidence = route.copy(item.evidence)  # its own: gather shares evidence
                item.evidence.whole_name = True
                item.evidence.whole_id = held == 2
            _multiply(item, self.ctx, self.base[id(item)], self.procedural, self.fetched, lock)
            if (kinds and item.excluded is None and not item.evidence.path_match
                    and route.for_other_files(item.rec.memory.applies_to, kinds)):
                item.excluded = "other-files"
                item.detail = "its applies_to is for other kinds of file than the touched ones"
        self.done.extend(batch)

    def _unmark(self) -> None:
        for item in self.marked:
            item.excluded, item.detail = None, ""
        self.marked = []

    def _find(self, scope_rank: int, key: int) -> tuple[Scored | None, _Pool | None]:
        """A candidate judged alone, or else the pool holding it (members of a pool share one
        Evidence object, so a key's evidence finds its pool)."""
        if self._alone is None:
            self._alone = {(s.scope_rank, s.key): s for s in self.scored}
            self._pool_of = {(p.scope_rank, id(p.evidence)): p for p in self.pools}
        alone = self._alone.get((scope_rank, key))
        if alone is not None:
            return alone, None
        return None, self._pool_of.get((scope_rank, id(self.evidence[scope_rank].get(key))))

    def left_unranked(self, wanted: set[tuple[int, int]]) -> set[tuple[int, int]]:
        out: set[tuple[int, int]] = set()
        for scope_rank, key in wanted:
            alone, pool = self._find(scope_rank, key)
            if alone is not None:
                if not alone.ranked and alone.excluded is None:
                    out.add((scope_rank, key))
            elif pool is not None and pool.model.excluded is None \
                    and key in pool.keys[pool.taken:]:
                out.add((scope_rank, key))
        return out

    def force(self, wanted: set[tuple[int, int]]) -> int:
        """Rank these (scope rank, key) candidates now, whatever their bound, with every
        candidate of their near-duplicate groups: which member of a group stays related is then
        decided as ranking everything decides it. The next `rank` places them. Returns how
        many it ranked."""
        self._unmark()
        targets = set(wanted)
        named = {(r, self.groups[r][k]) for r, k in wanted if k in self.groups[r]}
        for r, by_key in enumerate(self.groups):
            mine = {g for scope_rank, g in named if scope_rank == r}
            if mine:
                targets.update((r, k) for k, g in by_key.items() if g in mine)
        batch: list[Scored] = []
        for r, k in sorted(targets):
            alone, pool = self._find(r, k)
            if alone is not None:
                if not alone.ranked and alone.excluded is None:
                    batch.append(alone)
                continue
            item = pool.take_out(k) if pool is not None and pool.live else None
            if item is not None:
                self.base[id(item)] = item.bm25
                batch.append(item)
        self._rank_batch(batch)
        return len(batch)

    def rank(self, need: int | None) -> list[Scored]:
        self._unmark()
        done, heap, scored, pools = self.done, self.heap, self.scored, self.pools
        # Every candidate is multiplied here once, whether or not an exclusion check already
        # read its record (a memory whose clause the query touches, one the query names): a
        # loaded record says nothing about its score.
        if not self.lazy:
            if not done:
                self._rank_batch(list(scored))
        else:
            while heap:
                live = _one_per_group(done)
                top_base, top_scope = -heap[0][0], heap[0][1]
                if need is not None and len(live) >= need and \
                        top_base * self.boosts[top_scope] < live[need - 1]:
                    break
                batch: list[Scored] = []
                while heap and len(batch) < FINALIZE_BATCH:
                    slot = heapq.heappop(heap)[3]
                    if slot >= 0:
                        if not scored[slot].ranked:  # `force` may have ranked it already
                            batch.append(scored[slot])
                        continue
                    pool = pools[-1 - slot]
                    item = pool.take()
                    self.base[id(item)] = item.bm25
                    batch.append(item)
                    if pool.live:
                        heapq.heappush(heap, (-pool.bound(), pool.scope_rank,
                                              pool.keys[pool.taken], slot))
                self._rank_batch(batch)
        done.sort(key=lambda s: order_key(s.score, s.scope_rank, s.rec.memory.id,
                                          s.evidence.path_match))
        self.marked = _mark_duplicates(done) + _mark_unranked_duplicates(done + scored)
        return list(done)


def _one_per_group(done: list[Scored]) -> list[float]:
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


def _mark_unranked_duplicates(scored: list[Scored]) -> list[Scored]:
    """Unranked members of a group that already has a member: excluded as duplicates, so the
    count of related memories is what full ranking gives (one per group). Which member is
    kept only matters among the ranked ones."""
    kept = {(s.scope_rank, s.group) for s in scored
            if s.ranked and s.excluded is None and s.group is not None}
    marked: list[Scored] = []
    for item in scored:
        if not item.ranked and item.excluded is None and item.group is not None:
            slot = (item.scope_rank, item.group)
            if slot in kept:
                item.excluded, item.detail = "duplicate", "near-duplicate of a ranked member"
                marked.append(item)
            else:
                kept.add(slot)
    return marked


def _load_records(scopes: Scopes, items: list[Scored],
                  cache: dict[tuple[int, int], Record]) -> None:
    """Give each item its record, from `cache` (of one request's scoring) where it is there."""
    for scope_rank, index in enumerate(scopes.indexes):
        keys = [s.key for s in items if s.scope_rank == scope_rank and s.record is None
                and (scope_rank, s.key) not in cache]
        if keys:
            records = index.records(keys)
            if len(records) < len(set(keys)):
                # A posting names a memory the index does not hold: the cache disagrees with
                # itself, and the read path rebuilds it (`_rebuilds_corrupt_index`).
                raise sqlite3.DatabaseError("index postings name a missing memory")
            for key, record in records.items():
                cache[scope_rank, key] = record
    for item in items:
        if item.record is None:
            item.record = cache[item.scope_rank, item.key]


def _multiply(item: Scored, ctx: Context, base: float, procedural: bool,
              fetched: dict[str, str], lock: SourcesLock) -> None:
    memory = item.rec.memory
    item.stale = lock.is_stale(memory)
    factors: list[tuple[str, float]] = []
    if route.review_due(memory, ctx.today):
        factors.append(REVIEW_DUE)
    if item.stale:
        factors.append(STALE)
    if memory.confidence in CONFIDENCE:
        factors.append(CONFIDENCE[memory.confidence])
    if memory.scope == WORKSPACE_SCOPE:
        factors.append(WORKSPACE)
    if memory.id in fetched and _recently(fetched[memory.id], ctx.today, FETCH_BOOST_DAYS):
        factors.append(FETCHED)
    if procedural and memory.type == "skill":
        factors.append(PROCEDURAL_SKILL)
    if _named(item.evidence) > 1.0:
        factors.append(NAMED)
    if _exact(item.evidence):
        factors.append(EXACT)
    if item.evidence.whole_id:
        factors.append(WHOLE_ID)
    item.multipliers = factors
    item.score = apply_multipliers(base, factors)
    item.ranked = True


def _exclude_named_clauses(scopes: Scopes, scored: list[Scored], anchors: tuple[str, ...],
                           records: dict[tuple[int, int], Record],
                           rare: Callable[[str], bool], whole: tuple[str, ...] = ()) -> None:
    """Exclude memories whose own exclusion clause the query describes (not a touched file's:
    the path says the memory applies), or, when the prompt holds a clause of its own (`whole`,
    all its anchors), whose clause the prompt is. Only memories the query meets inside a clause
    are read."""
    touched = [s for s in scored if s.excluded is None and s.evidence.negated
               and not s.evidence.path_match]
    _load_records(scopes, touched, records)
    for item in touched:
        negations = item.rec.memory.negations
        clause = route.names_an_exclusion(negations, anchors, rare,
                                          route.described(item.evidence))
        if clause is None and whole:
            memory = item.rec.memory
            description = " ".join(filter(None, (memory.summary, memory.directive)))
            clause = route.is_its_clause(negations, whole, description)
        if clause is not None:
            item.excluded, item.detail = "negated", f"the query describes its exclusion: {clause}"


def _exclude_off_topic(scopes: Scopes, scored: list[Scored], names: route.Names) -> None:
    """A query about something no memory holds, with no memory on its topic (`route.on_topic`,
    judged by the caller): only path matches and the memories it names by their id, a tag or a
    trigger phrase may still load. New nouns in a task are normal ("rename a dashboard"): what
    keeps a pack is the evidence that a memory is about the task, never the share of its words
    they contain."""
    live = [s for s in scored if s.excluded is None]
    named = [s for s in live if any(f in route.NAMING_FIELDS for fs in s.evidence.fields.values()
                                    for f in fs)]
    # Most of them are excluded: their names are read as the index keeps them, not from their
    # records.
    kept = [index.names([s.key for s in named if s.scope_rank == scope_rank])
            for scope_rank, index in enumerate(scopes.indexes)]
    exempt = {id(s) for s in named if names.holds_a_name_of(kept[s.scope_rank][s.key])
              or names.holds_a_word_name_of(kept[s.scope_rank][s.key], s.evidence)}
    exempt.update(id(s) for s in live if s.evidence.quoted or s.evidence.whole_name)
    for item in live:
        if id(item) not in exempt:
            item.excluded = "off-topic"
            item.detail = ("the query names what no memory holds, and no memory has specific "
                           "evidence for it")


def _mark_duplicates(scored: list[Scored]) -> list[Scored]:
    """At most one member of a near-duplicate group: the best ranked one stays related."""
    kept: dict[tuple[int, str], str] = {}
    marked: list[Scored] = []
    for item in scored:
        group = item.group
        if item.excluded or group is None:
            continue
        slot = (item.scope_rank, group)
        if slot in kept:
            item.excluded, item.detail = "duplicate", f"near-duplicate of {kept[slot]}"
            marked.append(item)
        else:
            kept[slot] = item.rec.memory.id
    return marked


def candidate(item: Scored, rank_no: int = 0, reason: str | None = None,
               layer: str | None = None) -> Candidate:
    ev = item.evidence
    matched = tuple(sorted((f, t) for t, fs in ev.fields.items() for f in fs))
    return Candidate(
        memory=item.rec.memory, bm25=item.bm25,
        multipliers=tuple(item.multipliers), score=item.score,
        matched=matched, path_match=ev.path_match, anchors_matched=ev.anchors_matched,
        strong_match=ev.strong, stale=item.stale, excluded=reason or item.excluded,
        excluded_detail=item.detail, rank=rank_no, layer=layer)


def narrowing_tags(related: list[Scored], query: str) -> tuple[str, ...]:
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
