"""Which memories a task is about: anchor evidence, path triggers, the gate and the exclusions.

No scoring here beyond collecting term frequencies; rank.py turns evidence into scores.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache
from itertools import chain, repeat
from typing import NamedTuple, Protocol

from engram.index import FieldCounts, Postings
from engram.model import Memory
from engram.tokenize import COMPOUND_TERM, name_words, stem, tokens
from engram.tokenize import anchors as phrase_terms

# Strong evidence: a memory's name for itself and its author's keywords. A directive is a
# sentence of prose: its common words ("write", "use", "never") say little about the topic.
STRONG_FIELDS = frozenset({"id", "tags"})
# Where a word says less than a name: one word of a trigger phrase, or prose.
TRIGGER_OR_BODY = frozenset({"triggers", "body"})
GATE_MIN_ANCHORS = 4  # from four anchors on, one weak match is not enough
# A one-word name is specific when at most this share of the memories contain the word: one
# in more than six names a kind of memory ("code", "api"), not one memory.
SPECIFIC_SHARE = 1 / 6
# In a small workspace a word two memories share still picks out a topic (one in six of a
# dozen memories), unless they are a third of the workspace; one memory always does.
SPECIFIC_MIN = 2
# A word more memories than this share hold is boilerplate ("best practices" in every rule of a
# collection): where it names a memory, it names no topic (`on_topic`).
FAMILIAR_SHARE = 1 / 3
# A one-word name is the subject of a task of up to this many content words ("add a field to
# the Patient model"); in a long description it is an aside ("... in Python applications").
NAME_MAX_WORDS = 12
# A memory that alone holds this many of a long description's words is about it (`on_topic`):
# one or two such words in a long body are chance.
OWN_WORDS = 3
# Where a memory names its topic (id, tags, trigger phrases): see `Names`.
NAMING_FIELDS = frozenset({"id", "tags", "triggers"})


class Evidence:
    """What one memory shares with the query, before any scoring. Filled in as postings are
    read, so a plain (slotted: one per candidate) class rather than a record."""

    __slots__ = ("tf", "fields", "negated", "path_match", "strong", "common", "rare_name",
                 "whole_name", "whole_id", "quoted")

    def __init__(self) -> None:
        self.tf: dict[str, float] = {}  # anchor -> weighted term frequency
        self.fields: dict[str, tuple[str, ...]] = {}  # anchor -> fields hit
        self.negated: set[str] = set()  # anchors met inside an exclusion clause
        self.path_match = False
        self.strong = False  # an anchor hit the id or the tags
        self.common = False  # its one body-only anchor is in other memories too (see weak)
        self.rare_name = False  # a specific anchor hit the id or the tags
        self.whole_name = False  # the query holds its id, a tag or a trigger phrase whole
        # it holds its id whole: an id of two content words or more, or, in a long
        # description, a one-word id no other id shares (`Names.name_held`)
        self.whole_id = False
        self.quoted = False  # the query quotes one of its exclusion clauses whole (`quotes`)

    @property
    def anchors_matched(self) -> int:
        return len(self.tf)

    @property
    def in_naming_fields(self) -> bool:
        """An anchor hit the id, tags or trigger phrases: the query may name the memory."""
        return any(f in NAMING_FIELDS for fs in self.fields.values() for f in fs)

    @property
    def may_hold_id(self) -> bool:
        """Two anchors or more hit the id: without it the query cannot hold an id of two words
        whole (`Names.name_held`), which only the record can tell."""
        return sum(1 for fs in self.fields.values() if "id" in fs) >= 2

    @property
    def hits_id(self) -> bool:
        """An anchor hit the id: a long description may hold a one-word id whole."""
        return any("id" in fs for fs in self.fields.values())

    @property
    def body_only(self) -> str | None:
        """The one anchor matched, when it is met only in the body (and no path matched)."""
        if self.path_match or len(self.fields) != 1:
            return None
        term, fields = next(iter(self.fields.items()))
        return term if fields == ("body",) else None

    @property
    def weak(self) -> bool:
        """One word other memories also hold, met only in this one's body: enough to relate
        the memory, too little to print it in full ("entry" in "entry points")."""
        return self.common and self.body_only is not None


class WeakHits:
    """Anchor -> the postings of the memories whose one hit is that weak anchor. Cut from the
    anchor's postings only when read (a touched file's trigger or the path bonus): most
    queries touch no file and never read them."""

    def __init__(self) -> None:
        self._aside: dict[str, tuple[Postings, list[int]]] = {}

    def add(self, term: str, rows: Postings, keys: list[int]) -> None:
        self._aside[term] = (rows, keys)

    def __bool__(self) -> bool:
        return bool(self._aside)

    def items(self) -> Iterator[tuple[str, Postings]]:
        for term, (rows, keys) in self._aside.items():
            yield term, rows.only(set(keys))


def _strong(counts: FieldCounts) -> bool:
    return bool(counts.id or counts.tags)  # STRONG_FIELDS


def _named_in(counts: FieldCounts) -> bool:
    """Met in the memory's id, tags or trigger phrases (NAMING_FIELDS): a single trigger hit
    may pass the gate when its word is specific (`passes_gate`), so it is not set aside."""
    return bool(counts.id or counts.tags or counts.triggers)


def gather(postings: Mapping[str, Postings], weights: tuple[float, ...],
           into: dict[int, Evidence], lengths: dict[int, float],
           weak: WeakHits | None = None, shared: list[list[int]] | None = None) -> None:
    """Fold one scope's postings for the anchors into per-memory evidence (and note each
    memory's document length, which BM25 needs).

    With `weak`, a memory whose only hit is one weak anchor (not in its id, tags or directive)
    is noted there instead of in `into`: the gate of a long query excludes it whatever its
    score, and a common anchor makes most candidates such one-hit memories.

    Memories whose postings have the same field counts for the same anchors get one shared
    Evidence object, equal to what each would get alone: a common anchor makes thousands of
    candidates with a few hundred such patterns, so each pattern is read once here (and
    judged once in rank.py). Change a memory's evidence only on a `copy`. `shared` gets the keys
    of each group of memories given one Evidence object.
    """
    terms = list(postings)
    columns = list(postings.values())
    # A memory's pattern is the tuple of its code per anchor (`Postings.codes`, 0 where it lacks
    # the anchor): the tuples are built and hashed in C, where a loop per memory would not be.
    keys = list(dict.fromkeys(chain.from_iterable(c.keys for c in columns)))
    codes = [map(c.codes.get, keys, repeat(0)) for c in columns]
    by_pattern: dict[tuple[int, ...], list[int]] = {}
    for key, pattern in zip(keys, zip(*codes, strict=True), strict=True):
        members = by_pattern.get(pattern)
        if members is None:
            by_pattern[pattern] = [key]
        else:
            members.append(key)
    for column in columns:
        lengths.update(zip(column.keys, column.lengths, strict=True))
    decoded: dict[int, _Hit] = {}
    aside: dict[str, list[int]] = {}
    fresh = not into  # no memory has evidence yet: no pattern's members need merging
    for pattern, members in by_pattern.items():
        hits = []
        for n, digit in enumerate(pattern):
            if digit:
                counts = columns[n].kinds[digit - 1]
                code = id(counts)
                if code not in decoded:
                    hit_fields = counts.hit_fields()
                    decoded[code] = (weighted_tf(counts, weights), hit_fields,
                                     bool(counts.negative),
                                     bool(STRONG_FIELDS.intersection(hit_fields)))
                hits.append((terms[n], code))
        # With one hit, `counts` is that hit's.
        if weak is not None and len(hits) == 1 and not _named_in(counts):
            aside.setdefault(hits[0][0], []).extend(members)
            continue
        ev = _fold(Evidence(), hits, decoded)
        if fresh or not into.keys() & members:
            into.update(zip(members, repeat(ev, len(members)), strict=True))
            if shared is not None:
                shared.append(members)
            continue
        for key in members:
            old = into.get(key)
            into[key] = ev if old is None else _fold(copy(old), hits, decoded)
    if weak is not None:
        for term, keys_aside in aside.items():
            weak.add(term, postings[term], keys_aside)


_Hit = tuple[float, tuple[str, ...], bool, bool]  # weighted tf, fields hit, negative, strong


def _fold(ev: Evidence, hits: Iterable[tuple[str, int]], decoded: dict[int, _Hit]
          ) -> Evidence:
    """Add one memory's postings (anchor, decoded counts) to its evidence."""
    for term, code in hits:
        tf, hit_fields, negative, strong = decoded[code]
        if tf > 0:
            ev.tf[term] = tf
            ev.fields[term] = hit_fields
            if strong:
                ev.strong = True
        if negative:
            ev.negated.add(term)
    return ev


def copy(ev: Evidence | None) -> Evidence:
    """A copy of shared evidence that one memory may change (an empty one for None)."""
    out = Evidence()
    if ev is not None:
        for name in Evidence.__slots__:
            value = getattr(ev, name)
            setattr(out, name, value.copy() if isinstance(value, dict | set) else value)
    return out


def weak_index(weak: WeakHits) -> dict[int, tuple[str, Postings]]:
    """Memory key -> (anchor, its one posting) of the memories set aside, for the path triggers
    that match one after all."""
    return {key: (term, Postings.one(key, counts, length))
            for term, rows in weak.items()
            for key, counts, length in zip(rows.keys, rows.counts, rows.lengths, strict=True)}


def weighted_tf(counts: FieldCounts, weights: tuple[float, ...]) -> float:
    """A posting's term frequency: its per-field counts (the exclusion clause aside) weighted
    (`weights` in FIELDS order)."""
    return sum(n * w for n, w in zip(counts.scoring, weights, strict=False))


def gate_drops_weak(anchor_count: int) -> bool:
    """Whether the gate excludes every memory with a single weak hit (see `passes_gate`)."""
    return anchor_count >= GATE_MIN_ANCHORS


def passes_gate(anchor_count: int, ev: Evidence, specific: Callable[[str], bool]) -> bool:
    """From GATE_MIN_ANCHORS anchors on, a memory needs two of them, an id or tag hit, a touched
    file, a trigger phrase the prompt says as written (`whole_name`, set by
    `rank._said_by_name`), or its one anchor specific and in one of its trigger phrases, the
    author's words for the task ("admin" in the permissions rule's "restrict this to admins",
    for "only admins should void an invoice"), in a query short enough for one word to be its
    subject."""
    if not gate_drops_weak(anchor_count):
        return ev.anchors_matched >= 1 or ev.path_match
    if ev.anchors_matched >= 2 or ev.strong or ev.path_match or ev.whole_name:
        return True
    return anchor_count <= NAME_MAX_WORDS and any(
        "triggers" in fields and specific(term) for term, fields in ev.fields.items())


def is_negated(ev: Evidence, quoted: frozenset[str] = frozenset()) -> bool:
    """The author's own "do not use for X" clause is what the query matched.

    Excluded when the clause holds more of the matched anchors than the rest of the memory does
    (at least two, or every one): the memory said it is not for this. Anchors the prompt holds
    only inside an exclusion clause of its own (`quoted_clause_words`) are not asked for.
    """
    negated = ev.negated - quoted if quoted else ev.negated
    if not negated or ev.path_match:
        return False
    # A word the memory states outside its clause too is not the clause's alone: "merged PR"
    # in a deploy skill's own summary is what it is for, whatever its exclusion list repeats.
    inside = len(negated)
    return inside >= 2 and inside > len(ev.tf)


# Every exclusion clause holds one of these (a looser `clauses.NEGATION_WORD`): a prompt without
# any is never split into clauses.
_MAY_NEGATE = re.compile(r"not|never|avoid|skip|n['’]t", re.IGNORECASE)


def quoted_clause_words(query: str, anchors: Sequence[str]) -> frozenset[str]:
    """The anchors the prompt holds only inside an exclusion clause of its own, marker and all
    ("... - not for simple single-file artifacts"): a prompt that says "do not use this for X"
    quotes a memory's description or body, or excludes X itself; either way it does not ask
    for X. A memory's own full description pasted as the prompt names that memory, and its
    clause must not exclude it."""
    if not _MAY_NEGATE.search(query):
        return frozenset()  # the common case: no clause, nothing to split
    from engram.clauses import negation_clauses  # its patterns cost a compile: only for these

    clauses = negation_clauses(query)
    if not clauses:
        return frozenset()
    rest = query
    for clause in clauses:
        rest = rest.replace(clause, " ")
    inside = set(phrase_terms(" ".join(clauses))).difference(phrase_terms(rest))
    return frozenset(a for a in anchors if a in inside)


# A word the prompt denies ("it has no tests", "without a schema change"), or a way of working
# it turns down ("not an airflow dag", "we are NOT moving to riverpod", "not going through
# helm", "don't use mocks", "I don't mean the auth guards", "unit tests, not integration tests",
# "I'm not shipping any schema change", "don't open a PR yet", "skip TDD on this one"): up to
# two words after the denial, to the next punctuation. A bug report's "is not working" or "was
# not found" turns nothing down, and "instead of X" or "rather than X" is often the advice of
# the very memory about X ("reference secrets through data sources rather than variables").
# Skipping a test is work on that test ("skip the flaky checkout test for now"): the testing
# rules apply.
_DENIAL = re.compile(
    r"\b(?:no|without|zero|lacks|lacking"
    r"|not\s+(?:an?|the|via|through|with|in|using|use|moving\s+to|switching\s+to|migrating\s+to"
    r"|going\s+(?:through|with|to)|touching|adding|doing(?:\s+(?:an?|the|any))?)"
    # "this isn't a concurrency thing", "it's not a flag question"
    r"|(?:isn['’]?t|is\s+not|wasn['’]?t|was\s+not|it['’]?s\s+not)\s+(?:really\s+)?(?:an?|the)"
    # "I'm not shipping any schema change", "we're not touching the billing code": what the
    # person says they are not working on (a bug report's "it's not updating the list" is not)
    r"|(?:I['’]?m|I\s+am|we['’]?re|we\s+are)\s+not\s+(?:shipping|changing|modifying|touching"
    r"|adding|writing|doing|deploying|releasing|building|creating|updating|migrating|using)"
    r"(?:\s+(?:an?|the|any|our|my))?"
    # "leave the ARIA bits alone", "leave the clippy cleanup for a separate PR"
    r"|leave(?:\s+(?:the|this|that|our|my|its|any))?(?=\s+[^\W\d_][\w'/-]*(?:\s+[\w'/-]+)?"
    r"\s+(?:alone\b|for\s+(?:an?\s+|the\s+)?(?:separate|later|follow-?up|next|another|future"
    r"|different|second)\b))"
    # "A, not B": "plain unit tests, not integration tests against the database"
    r"|(?:(?<=,\s)|(?<=;\s)|(?<=\u2014\s))not(?!\s+(?:only|just|sure|yet|working|found|needed"
    r"|required)\b)"
    r"|(?:do\s+not|don['’]?t)\s+(?:use|want|need|add|touch|bring\s+in"
    r"|(?:open|create|write|run|do|mean|bother\s+with|reply\s+to(?:\s+or\s+\w+)?|produce"
    r"|generate|include|make|send|post|file|update)"
    r"(?:\s+(?:an?|the|any))?)"
    # "skip the changelog", "skip regenerating the docs": the thing skipped, after its verb
    r"|skip(?:ping)?(?!\s+(?:[\w-]+\s+){0,3}(?:tests?|specs?)\b)(?:\s+[^\W\d_]+ing(?=\s))?"
    r"(?:\s+(?:the|this|an?|any))?)"
    r"\s+([^\W\d_][\w'/-]*(?:\s+[\w'/-]+)?)",
    re.IGNORECASE)


# A step the prompt says is behind it ("the postmortem is done", "accessibility was signed off
# in the audit"): the word before it is not asked for either. A present tense counts only where
# it ends its clause ("the PR is done and approved"): rule text says how things are done ("each
# migration is done in its own transaction"), and a prompt quoting it must not turn its own
# memory down. Nor does a condition on the work ("make sure the PR is done", `_CONDITIONAL`).
_SETTLED = re.compile(
    r"\b([^\W\d_][\w'/-]*)\s+(?:(?:was|were|has\s+been|have\s+been)\s+(?:already\s+)?"
    r"(?:signed\s+off|done|finished|completed?|approved)\b"
    r"|(?:is|are)\s+(?:already\s+)?(?:done|finished|completed?|signed\s+off|approved)\b"
    r"(?=\s*(?:$|[.,;:!?)\-\u2013\u2014]|(?:and|now|already|so|but)\b)))",
    re.IGNORECASE)
_CONDITIONAL = re.compile(r"\b(?:sure|ensure|until|once|after|when|whether|if|before|unless|check"
                          r"|verify|confirm)\s+(?:that\s+)?(?:the\s+|our\s+|this\s+|my\s+)?$",
                          re.IGNORECASE)


def _settled(text: str) -> list[re.Match[str]]:
    """The spans of `text` that say a step is behind the prompt (`_SETTLED`)."""
    return [m for m in _SETTLED.finditer(text)
            if not _CONDITIONAL.search(text, max(0, m.start() - 30), m.start())]


def _denied_terms(text: str) -> set[str]:
    spans = _DENIAL.findall(text) + [m.group(1) for m in _settled(text)]
    return set(phrase_terms(" ".join(spans))) if spans else set()


def denials(query: str) -> tuple[frozenset[str], ...]:
    """What each denial of the prompt turns down, as the words of its object ("not a security
    review": security, review), for `turned_down`."""
    units = [frozenset(phrase_terms(m.group(1))) for m in _DENIAL.finditer(query)]
    units += [frozenset(phrase_terms(m.group(1))) for m in _settled(query)]
    return tuple(unit for unit in units if unit)


class Denials(NamedTuple):
    """What the prompt's denials turn down (`denials`), read against the candidates: a denial
    some candidate names whole (`bound`: "not a security review", and the security review
    rule) turns down only the memories that name it whole; the words of the rest (`loose`: "no
    log lines", "no secrets changes") turn down any memory they name."""

    bound: tuple[frozenset[str], ...]
    loose: frozenset[str]

    def of(self, ev: Evidence, specific: Callable[[str], bool], term: str) -> bool:
        """Whether the denials turn `term` down in this memory."""
        return term in self.loose or any(term in unit and _holds(ev, unit, specific)
                                         for unit in self.bound)


def _holds(ev: Evidence, unit: frozenset[str], specific: Callable[[str], bool]) -> bool:
    """The memory names every specific word of the denial (its id, tags or trigger phrases),
    and there is one."""
    said = [word for word in unit if specific(word)]
    return bool(said) and all(not NAMING_FIELDS.isdisjoint(ev.fields.get(word, ()))
                              for word in said)


def read_denials(units: Sequence[frozenset[str]], specific: Callable[[str], bool],
                 evidence: Iterable[Evidence]) -> Denials:
    """The prompt's denials (`denials`) as bound or loose (`Denials`) among these candidates."""
    bound = {unit for ev in evidence for unit in units if _holds(ev, unit, specific)}
    return Denials(tuple(u for u in units if u in bound),
                   frozenset().union(*(u for u in units if u not in bound)))


def turned_down(ev: Evidence, denied: frozenset[str], specific: Callable[[str], bool],
                named_whole: bool, read: Denials | None = None) -> tuple[str, ...]:
    """The words the prompt holds only where it turns them down that name the memory, sorted: a
    `specific` word in its id or tags ("a plain cron entry, not an airflow dag" is not a task
    for `apache-airflow`, whatever else it shares with it) that the denials turn down in it
    (`Denials`: "not a security review" turns down the security review, not the performance
    review; "no Python tests" the Python tests, not the Jest ones), or the words of a whole
    name of it (`named_whole`, see `denies_whole`). A common word alone is no name: "skip the
    code change" turns down no memory tagged `code-review`."""
    return tuple(t for t in sorted(denied) if (
        named_whole and NAMING_FIELDS.intersection(ev.fields.get(t, ()))
        or specific(t) and STRONG_FIELDS.intersection(ev.fields.get(t, ()))
        and (read is None or read.of(ev, specific, t))))


def denies_whole(name: Sequence[str], denied: frozenset[str], read: Denials | None = None
                 ) -> bool:
    """Every word of one of a memory's names is turned down by the prompt ("not a security
    review", `security-review`; "no secrets changes", the tag `secrets`): a denial some
    candidate holds whole turns down only the names that hold it whole (`Denials`), and "not
    a security review" does not turn down the tag `review` of a performance review."""
    words = [w for w in name if not COMPOUND_TERM.search(w)]
    return bool(words) and denied.issuperset(words) and (
        read is None or read.loose.issuperset(words)
        or any(unit <= set(words) for unit in read.bound))


def denied_words(query: str, anchors: Sequence[str]) -> frozenset[str]:
    """The anchors the prompt holds only where it denies them: "fix the rounding bug in the old
    invoice code, it has no tests" does not describe a skill's exclusion of "cleanly tested new
    code". A denied word is not asked for, as a word of the prompt's own clause is not
    (`quoted_clause_words`); where the prompt also says it plainly, it is. The verb of a denial
    is denied with its object: "don't open a PR yet" asks for no opening, and is no
    description of a commit rule's "Not for: opening or describing the pull request"."""
    # (a denial's object is part of its whole match: one pass over the prompt finds both)
    spans = [m.group(0) for m in _DENIAL.finditer(query)] + [m.group(1) for m in _settled(query)]
    denied = set(phrase_terms(" ".join(spans))) if spans else set()
    if not denied:
        return frozenset()
    rest = _DENIAL.sub(" ", query)
    for m in reversed(_settled(rest)):
        rest = rest[: m.start()] + " " + rest[m.end() :]
    inside = denied.difference(phrase_terms(rest))
    return frozenset(a for a in anchors if a in inside)


# Words that say a listed exclusion is a condition ("Long-term event replay required"), not
# what it is about.
_CONDITION = frozenset(stem(w) for w in "required necessary desired".split())


def _clause_units(part: str) -> list[frozenset[str]]:
    """What a clause names, unit by unit: a word, or a compound by its parts as one unit
    ("long-term" is one idea: a prompt that says "six months" misses it once, not twice), less
    the words that only make it a condition."""
    terms = phrase_terms(part)
    compounds = [t for t in terms if COMPOUND_TERM.search(t)]
    parts: set[str] = set()
    units: list[frozenset[str]] = []
    for c in compounds:
        unit = frozenset(t for t in phrase_terms(COMPOUND_TERM.sub(" ", c)) if t not in _CONDITION)
        if unit:
            units.append(unit)
            parts.update(unit)
    units.extend(frozenset({t}) for t in dict.fromkeys(terms)
                 if not COMPOUND_TERM.search(t) and t not in parts and t not in _CONDITION)
    return units


# Where a clause stops saying what is excluded and starts saying why ("not for the internal
# endpoints, which change freely"): the reason's words are not the task to recognise.
_WHY = re.compile(r",\s*(?:which|who|because|since|as|so|where|unless|except)\b"
                  r"|\s[-\u2013\u2014]\s|\(|[:;]\s*(?:use|see|try|prefer|go|pick|run)\b",
                  re.IGNORECASE)


# What a memory says it is about: its names and its one-line descriptions, not its body.
_DESCRIBING_FIELDS = frozenset({"id", "tags", "triggers", "summary", "directive"})
_TEXT_FIELDS = frozenset({"summary", "directive", "body"})


def described(ev: Evidence) -> set[str]:
    """The anchors the memory states in its names or descriptions (outside its clauses)."""
    return {t for t, fields in ev.fields.items() if _DESCRIBING_FIELDS.intersection(fields)}


def names_an_exclusion(negations: Iterable[str], query: Sequence[str],
                       rare: Callable[[str], bool] | None = None,
                       stated: AbstractSet[str] = frozenset()) -> str | None:
    """The memory's own exclusion clause the query describes, or None: most of the clause's
    content words (two at least, or its only one) are in the query. "Do not use this for SMS
    reminders" is said of "send an SMS reminder", however much else the memory shares with it.
    A clause the prompt quotes whole (`quotes`) is the memory's own sentence, not a task.

    A clause listing alternatives excludes each ("Windows or macOS host administration" is said
    of Windows host setup; "Kubernetes, container orchestrators, or PaaS deployment design" of
    a Kubernetes deployment): an alternative of one word must be `rare` (few memories hold it
    where it scores), as a common one ("tests" in "tests or docs") names no task."""
    asked = set(query)
    # A long description meets a clause's few words by chance ("company", "pipeline" in a
    # deploy skill's own description and in its "companies not yet on the pipeline"): there the
    # clause must be a third of what the query says, as a task's is.
    words = content_words(query)
    for clause in negations:
        if quotes(clause, query):
            continue
        what = _WHY.split(clause, 1)[0]
        parts = _ALTERNATIVES.split(what) if rare is not None else []
        # A parenthesis right after what is excluded that lists things, rather than sending
        # the task elsewhere ("(use kafka)"), names examples of it: "deep multi-agent review
        # (money flows, auth, production migrations)" is said of a production migration.
        listed = _EXAMPLES.match(clause, len(what)) if parts else None
        if listed is not None:
            # A path or code in it restates what it follows ("the Pages Router (`/pages`)"):
            # "pages" alone is no task the memory excludes.
            parts += [p for p in _ALTERNATIVES.split(listed.group(1)) if not _CODE.search(p)]
        for part in [what, *(parts if len(parts) > 1 else [])]:
            # What the clause itself denies ("work with no continuation"): a prompt that says
            # it plainly ("continue this work in a fresh session") is the opposite of the clause.
            denied = _denied_terms(part)
            if denied & asked:
                continue
            units = [u for u in _clause_units(part) if not u <= denied]
            if part is not what and len(units) == 1 and len(units[0]) == 1 and not (
                    rare and rare(next(iter(units[0])))):
                continue
            met = [unit for unit in units if unit <= asked]
            # A clause the query meets only in words the memory states outside its clauses too
            # names the memory's own topic, qualified: "Decisions not yet made" in an ADR
            # skill is not said of "document this decision".
            if met and all(unit <= stated for unit in met):
                continue
            hits = len(met)
            if words > NAME_MAX_WORDS and 3 * hits < words:
                continue
            if units and (hits == len(units) or (hits >= 2 and 3 * hits >= 2 * len(units))):
                return clause
    return None


_EXAMPLES = re.compile(r"\s*\((?!\s*(?:use|see|try|prefer|go|pick|run|defer)\b)"
                       # (nor one that sends the task elsewhere after a word of its own:
                       # "(English only, see release-changelog)")
                       r"(?![^()]*[,;:]\s*(?:use|see|try|prefer|go|pick|run|defer)\b)"
                       r"(?:e\.g\.,?\s*|for\s+example,?\s*|such\s+as\s+)?([^()]+)\)",
                       re.IGNORECASE)


# Inline code or a path among a parenthesis's examples.
_CODE = re.compile(r"[`/\\]")

# Alternatives in what a clause excludes: "X or Y", "X, Y, or Z".
_ALTERNATIVES = re.compile(r"\s*,\s*(?:or\s+|and\s+)?|\s+or\s+", re.IGNORECASE)


# A listed exclusion of at least this many words is a sentence: held whole by a prompt, it is
# quoted, not asked. A task that names what a memory excludes is shorter ("simple single-file
# HTML/JSX artifacts", "SMS reminders"). Seven, as a body sentence.
QUOTE_MIN_WORDS = 7
# Content stems such a sentence holds at the least ("the task is mainly about performance
# tuning" has three): a memory the prompt meets by fewer of its clause words is not quoted.
QUOTE_MIN_TERMS = 3


def is_its_clause(negations: Iterable[str], query: Sequence[str], description: str
                  ) -> str | None:
    """The exclusion clause of the memory's description (summary or directive), marker and
    all, that the prompt is: two thirds of the prompt's content words at least are in it ("Do
    NOT use for fixing existing UI bugs (use generate-frontend-fix)", asked of the skill that
    wrote it). The description is where an author says what the memory is and is not for, and a
    prompt that only says what it is not for does not ask for it. The description pasted whole,
    the clause among much else, still names the memory, and so does a sentence of its body,
    clause or not: that is its own text, quoted."""
    from engram.clauses import after_marker  # only for prompts that hold a clause of their own

    words = {t for t in query if not COMPOUND_TERM.search(t)}
    if len(words) < 2:
        return None
    for clause in negations:
        if after_marker(clause) == clause or clause not in description:
            continue
        if 3 * len(words.intersection(phrase_terms(clause))) >= 2 * len(words):
            return clause
    return None


def quotes(clause: str, query: Sequence[str]) -> bool:
    """The prompt holds a listed clause whole (one without a marker), or one sentence of it,
    QUOTE_MIN_WORDS words at least, every content word in the clause's order. It is the
    memory's own sentence pasted ("The user is asking about Zod for form validation or API
    input validation", from a list under "Do NOT use this skill when"; "One-off task
    delegation — spawn a session directly.", the first of an item's two sentences), not a task
    that falls under it ("add zod validation to the signup form"), and it names the memory that
    wrote it."""
    from engram.clauses import after_marker, sentences  # only for memories met by several
    # clause words

    # A clause with its marker ("Do not use this when ...") is quoted with the marker
    # (`quoted_clause_words`); held without it, it is the task it excludes.
    if after_marker(clause) != clause or len(clause.split()) < QUOTE_MIN_WORDS:
        return False
    where = {t: n for n, t in enumerate(query)}
    whole = [clause, *(s for s in sentences(clause)
                       if s != clause and len(s.split()) >= QUOTE_MIN_WORDS)]
    return any(_held_in_order(text, where) for text in whole)


def _held_in_order(sentence: str, where: Mapping[str, int]) -> bool:
    places = []
    for term in phrase_terms(sentence):
        if not COMPOUND_TERM.search(term):
            if term not in where:
                return False
            places.append(where[term])
    return bool(places) and places == sorted(places)


def quoted_evidence(ev: Evidence, clauses: Iterable[str], query: Sequence[str],
                    body_weight: float) -> Evidence:
    """The memory's evidence with the words of the clauses the prompt quotes (`quotes`) counted
    as body words: a quoted sentence is the memory's own text, and finds it as any other body
    sentence would. Only for the clauses quoted whole; every other clause stays negative."""
    out = copy(ev)
    out.quoted = True
    asked = set(query)
    for clause in clauses:
        for term, n in Counter(t for t in tokens(clause) if t in asked).items():
            out.tf[term] = out.tf.get(term, 0.0) + n * body_weight
            fields = out.fields.get(term, ())
            out.fields[term] = fields if "body" in fields else (*fields, "body")
            out.negated.discard(term)
    return out


# A verb made from another by a prefix ("reschedule", "rebook", "unpublish") names the action
# the memories describe by its base word ("scheduling", "booking"). The base must be a word
# of its own (four letters or more), so "react" is not "act" nor "unit" "it".
_VERB_PREFIXES = ("re", "un")
_BASE_MIN = 4


def prefixed(anchors: Iterable[str]) -> dict[str, str]:
    """anchor -> its base word, for the anchors that may be a prefixed verb (`base_words`)."""
    return {a: a[len(p):] for a in anchors for p in _VERB_PREFIXES
            if a.startswith(p) and len(a) - len(p) >= _BASE_MIN and a.isascii() and a.isalpha()}


# A file name in a prompt says its language by its extension ("break up deploy.sh", "the
# models.py file"), and rules name the language ("shell scripts"), rarely the extension as a
# word: the extension is read as the language's name when no memory holds it (`read_as`).
_EXTENSION_LANGUAGES = {ext: stem(language) for language, extensions in (
    ("shell", "sh bash zsh"), ("python", "py pyi"), ("typescript", "ts tsx mts cts"),
    ("javascript", "js jsx mjs cjs"), ("ruby", "rb"), ("rust", "rs"), ("kotlin", "kt kts"),
    ("markdown", "md mdx"), ("yaml", "yml"), ("terraform", "tf"), ("powershell", "ps1"),
    ("elixir", "exs"), ("cpp", "hpp cxx"),  # not "cc", "cs", "ex": words or initials as well
) for ext in extensions.split()}


def read_as(anchors: Sequence[str]) -> dict[str, str]:
    """anchor -> the word it may stand for when no memory holds it (`base_words`): a prefixed
    verb's base word, a file extension's language."""
    found = prefixed(anchors)
    found.update((a, _EXTENSION_LANGUAGES[a]) for a in anchors if a in _EXTENSION_LANGUAGES)
    return found


def base_words(anchors: Sequence[str], known: Callable[[str], bool]) -> tuple[str, ...]:
    """The anchors, each prefixed verb no memory holds ("reschedul") read as its base word when
    a memory holds that ("schedul"): the prompt says to do again or undo what the memory is
    about. A word some memory holds as it is written ("review", "report", "remove") is that
    word, never its base ("view", "port", "move"). So is a file extension no memory holds
    ("sh") read as its language ("shell")."""
    bases = read_as(anchors)
    if not bases:
        return tuple(anchors)
    return tuple(dict.fromkeys(
        bases[a] if a in bases and not known(a) and known(bases[a]) else a for a in anchors))


# Words of everyday judgement, quantity and time ("good", "right", "really", "number",
# "today"): in a small workspace few memories hold them, so their document frequency calls them
# specific, yet they name no topic. "what's a good recipe for sourdough bread" is not about the
# skill whose trigger is "is this a good idea", nor "the right number of eggs" about one whose
# trigger is "is that number right", nor "that's all for today" about a changelog rule that
# says what ships today. They still score as any word does; they are never evidence of a topic
# alone.
EVERYDAY = frozenset(stem(w) for w in """
good bad great nice fine right wrong best better worse worst real really actually quite pretty
sure true whole number lot lots kind sort okay ok cool awesome
today tomorrow yesterday tonight
""".split())


# Verbs that frame a task rather than name a thing ("takes 40 seconds", "figure out which",
# "keep trying"): one no memory holds is not the new topic the zero-match rule looks for.
_FRAMING = frozenset(stem(w) for w in """
take takes took taking figure figures figuring look looks looking keep keeps kept keeping
seem seems seemed try tries tried trying give gives gave given know knows knew think thinks
thought see sees saw seen come comes came go goes went gone tell tells told
hour hours minute minutes second seconds speed faster slower quick quickly
nothing everything something anything choice remember nervous worried
""".split())


# A number with a unit ("3M rows", "40s", "2k", "10x", "500ms"), stemmed: a quantity. "2fa",
# "3ds" or "1password" name things and are not quantities.
_QUANTITY = re.compile(r"\d+(?:k|m|b|kb|mb|gb|tb|ms|s|secs?|mins?|h|hrs?|x|px|em|rem)?")


# Languages, frameworks and desktop products by name: what a stack is. A prompt that names one
# no memory holds is about another stack ("write a SQL query that returns the top customers",
# "Swift: decode nested JSON with Codable" in a Rust linter's workspace): one word it shares
# with a memory's prose is then no evidence (`foreign_stack`). Infrastructure, databases,
# queues, operating systems and libraries are left out: a team's rules speak of "the queue" or
# "the cache" without naming Kafka or Redis, and "a Kafka consumer that survives rebalances"
# is about the queue rule that says how a consumer commits its offsets.
TECHNOLOGIES = frozenset(stem(w) for w in """
java kotlin scala groovy swift objc ruby perl php javascript typescript golang haskell elixir
erlang clojure fsharp csharp cpp lua julia dart matlab fortran cobol delphi vba bash zsh
powershell sql plsql tsql solidity verilog vhdl latex python rust
react vue angular svelte nextjs nuxt gatsby jquery ember solidjs astro htmx django flask
fastapi rails laravel symfony springboot nestjs phoenix dotnet aspnet blazor android ios
swiftui flutter xamarin cordova ionic codable uikit
excel powerpoint photoshop figma blender unreal godot arduino wordpress shopify drupal magento
salesforce tableau powerbi
""".split())


def foreign_stack(anchors: Iterable[str], known: Callable[[str], bool]) -> bool:
    """Whether the prompt names a technology (`TECHNOLOGIES`) no memory holds."""
    return any(a in TECHNOLOGIES and not known(a) for a in anchors)


def _framing(anchor: str) -> bool:
    """A word that frames the task (`_FRAMING`) or a quantity (`_QUANTITY`): neither is the new
    topic the zero-match rule looks for."""
    return anchor in _FRAMING or _QUANTITY.fullmatch(anchor) is not None


def judges_topic(anchors: Sequence[str], known: Callable[[str], bool],
                 specific: Callable[[str], bool], named: Callable[[str], bool]) -> bool:
    """Whether the zero-match rule applies: the query names something no memory contains (an
    anchor no memory holds) and is long enough for one match not to be the whole of it, or,
    short, meets the memories only in words too common to say what they are about.

    Short queries are trigger phrases ("push this live"): one real match is enough for them, as
    in the gate, but it must be a `specific` word or one some memory is `named` by (its id, a
    tag, a trigger phrase): "what's a good name for my cat" meets "name" in the prose of a
    quarter of a clinic's rules, and names nothing they hold, while "cut the release" meets
    every rule of a release team by its tag. A query whose every word some memory holds is
    about something the memories discuss, and the gate decides alone.
    """
    # A compound ("human-readable") counts by its parts, which are anchors too: the whole is
    # rarely written the same way twice, and its parts being known says the topic is.
    simple = [a for a in anchors if not COMPOUND_TERM.search(a) and not _framing(a)]
    if simple and all(a in EVERYDAY for a in simple):
        return True  # "that's all for today": words of everyday judgement and time name nothing
    if all(known(a) for a in simple):
        return False
    if len(anchors) >= GATE_MIN_ANCHORS:
        return True
    return not any(known(a) and (specific(a) or named(a)) for a in simple)


# An identifier of code: three words or more run together in camelCase ("computeDealStage",
# "SentryAppWebhookConfig"), or words joined by underscores ("muted_until"). Two are often a
# product's name ("GitHub", "TypeScript", "GraphQL").
_CODE_NAME = re.compile(r"\b[A-Za-z][a-z0-9]+(?:[A-Z][a-z0-9]+){2,}\b"
                        r"|\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*[A-Za-z0-9]\b")


def names_code(query: str) -> bool:
    """Whether the prompt names an identifier of code (`_CODE_NAME`): then it is about code, and
    a word no memory holds is a name in it, not a topic the memories miss."""
    return bool(_CODE_NAME.search(query))


def judges_short(anchors: Sequence[str], known: Callable[[str], bool]) -> bool:
    """Whether a short query (under GATE_MIN_ANCHORS anchors) names two things no memory holds:
    then one word met only in a memory's body is no match at all ("translate this paragraph
    into French" and a security skill's "a paragraph built from the answers"), while a word of
    a name, a summary or a directive still is one. Beside one unknown word, a body's word is
    what the question is about ("which nodejs version", and a body that says the API runs on
    Node.js 20)."""
    return len(anchors) < GATE_MIN_ANCHORS and sum(
        1 for a in anchors if not COMPOUND_TERM.search(a) and not _framing(a)
        and not known(a)) >= 2


# Words a person uses about themselves or their team ("I want", "how do we", "give me"): a
# description of a rule file ("Definitive guidelines for writing Jenkins pipelines ...") never
# says them, a developer's long prompt mostly does.
_PERSONAL = frozenset("i we our ours my mine me us".split())


def spoken(said: Sequence[str]) -> bool:
    """Whether the prompt's words (`said_words`) speak as a person: then a long prompt is a
    task told at length, not a description (see `on_topic`'s `strict`)."""
    return not _PERSONAL.isdisjoint(said)


def specific_hits(ev: Evidence, specific: Callable[[str], bool]) -> tuple[int, int]:
    """(specific anchors met outside the body, specific anchors met anywhere): the words rare
    enough to say what a memory is about, where it states its topic and in all. A compound
    ("zero-downtime") counts by its parts."""
    simple = [t for t in ev.tf if not COMPOUND_TERM.search(t) and specific(t)]
    return sum(1 for t in simple if ev.fields[t] != ("body",)), len(simple)


def on_topic(ev: Evidence, specific: Callable[[str], bool], strict: bool,
             familiar: Callable[[str], bool], own: Callable[[str], bool] | None = None,
             phrase: Callable[[set[str]], bool] | None = None, foreign: bool = False) -> bool:
    """Whether a memory's evidence says it is about the query's task: a path match, or specific
    words (rare in the corpus: a high IDF) where the memory states its topic.

    For a task, one such word in its id, tags or trigger phrases (its own names for its topic)
    is enough; one in its summary or directive, prose that states many words in passing, needs
    a second specific word of the query anywhere in the memory: "pin" in a Docker rule's
    summary ("pin base image versions") is an aside to "Terraform modules ... provider version
    pinning", while "slot" in the scheduling rule's summary, with "practitioner" and "day" in
    its body, is the topic of "practitioners see their Monday slots shifted by a day". A
    `strict` query (a long description) needs two stated words, as one familiar word there is
    an aside ("... in Python applications"). Words met only in bodies are no evidence of their
    own: a long body meets many words by chance ("role" and "nginx" in a deployment guide for
    "write an Ansible role"). Common words ("add", "write", "set") are none, however many
    fields hold them; neither are the words no memory holds, which is why new nouns around a
    real match never empty a pack.

    A task that meets a memory by one of its own names, a `familiar` word (the workspace's
    domain, not its boilerplate), and says with a specific word what it does there is on topic
    too: "export everything we hold on one patient for their lawyer" meets the privacy rule by
    its tag "patients", and "export" is in its body ("export or erasure of one patient's
    data"). "patient" alone is in a quarter of a clinic's memories and says nothing; "best" in
    `python-django-best-practices` is in half a corpus of "best practices" and names nothing.

    A long description is on topic for a memory that holds OWN_WORDS of its words that no more
    than SPECIFIC_MIN memories hold (`own`), wherever they are: a description of web
    accessibility standards that meets "WCAG", "EAA" and "ADA" in one rule's body, and in no
    other memory, is that rule's own description, whose summary is missing; so is one that
    meets "getSession", "getUser" and "RLS" in a Supabase rule, though another memory names
    `getSession` too. In a short task a few such words are chance, the more so in a small
    workspace where every long body holds words no other memory does ("write", "role",
    "install" and "nginx" in the one deployment guide, for "write an Ansible role to install
    nginx").
    """
    if ev.path_match or ev.quoted:
        return True
    if strict and own is not None and sum(
            1 for t in ev.tf if not COMPOUND_TERM.search(t) and own(t)) >= OWN_WORDS:
        return True
    stated, anywhere = specific_hits(ev, specific)
    if strict:
        return stated >= 2
    if foreign:
        # About another stack (`foreign_stack`): a word of the memory's own name for its topic
        # (its id or tags) still makes it the task ("try my local build on a django checkout"
        # and `ty-repro-outside-checkout`); else it takes two stated words, a word met only in
        # a trigger phrase counting when the prompt holds half the phrase ("decode nested JSON
        # with a custom date format" holds one word of "ruff.schema.json").
        if named_by_rare_word(ev, specific):
            return True
        said = [t for t, fields in ev.fields.items()
                if not COMPOUND_TERM.search(t) and specific(t) and fields != ("body",)
                and (not set(fields) <= TRIGGER_OR_BODY or phrase is None or phrase({t}))]
        return len(said) >= 2
    if stated == 0:
        return anywhere >= 1 and named_by_familiar_word(ev, familiar)
    if anywhere >= 2:
        return True
    naming = {term: fields for term, fields in ev.fields.items()
              if not COMPOUND_TERM.search(term) and specific(term)
              and NAMING_FIELDS.intersection(fields)}
    if any(STRONG_FIELDS.intersection(fields) for fields in naming.values()):
        return True
    # A word of a trigger phrase names the memory when the prompt holds the phrase, or half of
    # it: "node" of "creating microservices with node.js" is not "the Elasticsearch nodes".
    return bool(naming) and (phrase is None or phrase(set(naming)))


def holds_half_a_trigger(triggers: Iterable[str], terms: set[str],
                         query: Sequence[str]) -> bool:
    """The prompt holds at least half the content words of one of the memory's trigger
    phrases that holds one of `terms` ("restrict this to admins" in "only admins may void")."""
    asked = set(query)
    for trigger in triggers:
        words = set(name_words(trigger))
        if words & terms and 2 * len(words & asked) >= len(words):
            return True
    return False


def named_by_familiar_word(ev: Evidence, familiar: Callable[[str], bool]) -> bool:
    """A `familiar` anchor hit the memory's id or tags (see `on_topic`)."""
    return any(familiar(t) and STRONG_FIELDS.intersection(fields)
               for t, fields in ev.fields.items() if not COMPOUND_TERM.search(t))


def familiar_most(doc_count: int) -> float:
    """How many memories at most may hold a word for it to be a word of the workspace's domain
    ("patient" in a clinic's memories) rather than boilerplate every kind of memory repeats
    ("best", "code"): FAMILIAR_SHARE of them."""
    return FAMILIAR_SHARE * doc_count


def named_by_rare_word(ev: Evidence, specific: Callable[[str], bool]) -> bool:
    """A specific anchor hit the memory's id or tags: the memory's own name for its topic is a
    word few memories hold ("endpoint" in drf-endpoint), not one most of them do ("patient" in
    a clinic's memories)."""
    return any(specific(t) and STRONG_FIELDS.intersection(fields)
               for t, fields in ev.fields.items())


def loose(ev: Evidence, specific: Callable[[str], bool]) -> bool:
    """Evidence too thin to print the memory in full, though it is related: no touched file,
    nothing in its id or tags, and the query's specific words meet it at most once, in its body
    ("entry" in "entry points", "change" and "PR" in a testing rule for a commit message).
    One rare word in a body still is evidence ("German" in the translations rule)."""
    if ev.weak:
        return True
    if ev.path_match or ev.strong:
        return False
    stated, anywhere = specific_hits(ev, specific)
    return stated == 0 and anywhere < 2


def id_words_held(evidences: Iterable[Evidence]) -> set[str]:
    """The anchors met in the ids of the memories the prompt names (`whole_name`: their id, a
    tag or a trigger phrase, whole): words it has used up naming those memories
    (`name_taken`)."""
    return {t for ev in evidences if ev.whole_name for t, fields in ev.fields.items()
            if "id" in fields}


def name_taken(ev: Evidence, taken: set[str]) -> bool:
    """Every word by which the query meets this memory's names (id, tags, trigger phrases) is
    a word of the id of a memory the prompt names: "reschedule an appointment" names
    `appointment-scheduling`, and the jobs skill's tag "scheduled-jobs" shares its word, not
    its topic; "ship to production" names `deploy-production` by its trigger, and "product"
    in the analytics rule's tag "product-events" is that word again. Such a memory is
    related, a card; one named in its own right, or matching a touched file, is not (see
    `holds_a_name`)."""
    if ev.path_match or ev.whole_name or not taken:
        return False
    naming = [t for t, fields in ev.fields.items() if NAMING_FIELDS.intersection(fields)]
    return bool(naming) and taken.issuperset(naming)


def holds_a_name(memory: Memory, query: Sequence[str]) -> bool:
    """The prompt holds the memory's id or one of its tags, every content word side by side,
    however common: "deploy canary" names each memory tagged "deploy", not only the one tagged
    "canary" too. A memory the prompt names so keeps its body (`name_taken`)."""
    words = _spoken(query)
    names = map(name_words, (memory.id, *memory.tags))
    return any(_side_by_side(simple, words) for simple in names if simple)


# A memory the query meets only in prose (summary, directive, body) and that scores under this
# share of the best match is related to the task, not what it is about.
BODY_SHARE = 1 / 3


def overshadowed(ev: Evidence, score: float, best: float) -> bool:
    """Evidence too thin beside the best match to print the memory in full: met only in its
    prose, never in its id, tags, trigger phrases or by a touched file, and scoring under
    BODY_SHARE of the best ("release" in a hotfix skill's summary for "cut a release for
    tomorrow", beside the release skill whose trigger phrase that is). Its card still lists
    it; its body is one `load --id` away."""
    return score < BODY_SHARE * best and not ev.path_match and not ev.in_naming_fields


def specific_share(words: int) -> float:
    """The largest share of the memories a word may be in and still be evidence of a topic.

    One in six for a task of up to NAME_MAX_WORDS content words. A longer query meets more
    memories by chance, so the share falls with its length, keeping the expected number of
    chance hits per memory the same (in a small workspace, see SPECIFIC_MIN)."""
    return SPECIFIC_SHARE * min(1.0, NAME_MAX_WORDS / words) if words else SPECIFIC_SHARE


def specific_most(words: int, doc_count: int) -> float:
    """How many memories at most may hold a word for it to be specific (`specific_share`, with
    the small-workspace floor of SPECIFIC_MIN)."""
    floor = max(1.0, min(SPECIFIC_MIN, doc_count / 3))
    return max(floor, specific_share(words) * doc_count)


def content_words(query: Sequence[str]) -> int:
    """The query's content words: a compound ("zero-downtime") counts by its parts."""
    return sum(1 for t in query if not COMPOUND_TERM.search(t))


class Names:
    """Which of a memory's own names for its topic (its id, tags and trigger phrases) one query
    holds. Each phrase is judged once per query: a corpus repeats a few dozen tags and trigger
    phrases across thousands of memories, and a broad query tests every candidate's names."""

    def __init__(self, query: Sequence[str], specific: Callable[[str], bool],
                 rare: Callable[[str], bool],
                 sole_id: Callable[[str], bool] | None = None) -> None:
        self._query = query
        self._rare = rare
        self._words = _spoken(query)
        self._short = content_words(query) <= NAME_MAX_WORDS
        self._specific = specific
        self._sole_id = sole_id
        self._held: dict[tuple[str, ...], int] = {}

    def names_itself(self, memory: Memory) -> bool:
        """The prompt holds one of the memory's names, every content word of it (stemmed),
        side by side. A name of one word must also be `specific` ("code" or "design" as a tag
        names half a corpus) in a prompt short enough for it to be the subject."""
        return self.holds_a_name_of(tuple(
            map(name_words, (memory.id, *memory.tags, *memory.triggers))))

    def holds_a_name_of(self, names: Sequence[tuple[str, ...]]) -> bool:
        """`names_itself`, given the words of the memory's id, tags and trigger phrases, in
        that order (the index keeps them: `ScopeIndex.names`)."""
        return any(self._judge(words) != _NOT_HELD for words in names) \
            or self._names_by_id(names[0])

    def holds_a_word_name_of(self, names: Sequence[tuple[str, ...]], ev: Evidence) -> bool:
        """The prompt, however long, holds a name of one word the memory has (its id, a tag, a
        trigger phrase) that is `rare` (SPECIFIC_MIN memories hold it at most): "stripe" in a
        13-word task about a billing form. In ranking, a long prompt's one word is an aside
        (`_judge`), and so is a word several memories hold ("performant" and a `performance`
        tag, "schema" in a description of GraphQL servers); a rare one is still the memory's
        own name said, which the zero-match rule never withholds, when the memory's text
        uses it too (`ev`): a tag its text never says ("performance" on a caching rule) is a
        label, not what the memory is about."""
        return any(
            len(words) == 1 and words[0] in self._query and words[0] not in EVERYDAY
            and self._rare(words[0]) and not _TEXT_FIELDS.isdisjoint(ev.fields.get(words[0], ()))
            for words in names)

    def _names_by_id(self, words: tuple[str, ...]) -> bool:
        """A long description names the memory whose id is one word it holds, when no more than
        SPECIFIC_MIN memories have that word in their id (`sole_id`): "... maintainable FastAPI
        applications" is about `fastapi`, however many bodies mention FastAPI in passing, while
        "python" in a dozen `python-*` ids names none of them."""
        if self._short or self._sole_id is None:
            return False
        return len(words) == 1 and words[0] in self._query and self._sole_id(words[0])

    def name_held(self, memory: Memory) -> int:
        """2 when the prompt holds the memory's id whole and the id has two content words or
        more, or is a one-word id no other id shares held by a long description (`whole_id`),
        1 when it holds another of its names (`names_itself`), 0 when none. One id word names
        a family ("nextjs-..."); "Next.js, React and TypeScript" names
        `nextjs-react-typescript`, not every Next.js memory, and "... coding standards for
        Expo projects" names `expo` as surely."""
        words = name_words(memory.id)
        if self._judge(words) == _WHOLE or self._names_by_id(words):
            return 2
        return 1 if self.names_itself(memory) else 0

    def _judge(self, simple: tuple[str, ...]) -> int:
        held = self._held.get(simple)
        if held is None:
            if not simple or all(w in EVERYDAY for w in simple):
                # a name made only of stop words ("workflow") or everyday words ("is that
                # number right") names nothing
                held = _NOT_HELD
            elif len(simple) == 1:
                one = self._short and simple[0] in self._query and self._specific(simple[0])
                held = _HELD if one else _NOT_HELD
            else:
                held = _WHOLE if _side_by_side(simple, self._words) else _NOT_HELD
            self._held[simple] = held
        return held


_NOT_HELD, _HELD, _WHOLE = 0, 1, 2  # a name of two words or more held whole is _WHOLE


def _spoken(query: Sequence[str]) -> list[str]:
    """The query's words as written, for judging what stands side by side: compounds left out
    for their parts, and a part a word was split into ("git" and "hub" of "GitHub", "type" of
    "TypeScript") left out for the word, so that "GitHub Actions" holds `github-actions`."""
    words: list[str] = []
    for term in query:
        if COMPOUND_TERM.search(term):
            continue
        if words and len(term) < len(words[-1]) and term in words[-1]:
            continue
        words.append(term)
    return words


def _side_by_side(phrase: Sequence[str], words: Sequence[str]) -> bool:
    """Every word of the phrase within one window of the query as long as the phrase plus one
    (a word the author did not write may come between: "add an api endpoint")."""
    need = set(phrase)
    if not need.issubset(words):
        return False
    size = len(phrase) + 1
    return any(need.issubset(words[i:i + size]) for i in range(max(1, len(words) - size + 1)))


# File kinds: extensions that name the same language (a `*.ts` rule is about `.tsx` files too).
_KINDS = {"tsx": "ts", "mts": "ts", "cts": "ts", "jsx": "js", "mjs": "js", "cjs": "js",
          "yml": "yaml", "mdx": "md", "markdown": "md", "pyi": "py", "htm": "html"}
_GLOB_CHARS = re.compile(r"[*?\[\]{}]")


def _kind(name: str) -> str | None:
    """The file kind of a path or glob's last segment (its extension), or None without one."""
    last = name.rsplit("/", 1)[-1]
    if "." not in last.strip("."):
        return None
    ext = last.rsplit(".", 1)[1].lower()
    if not ext or _GLOB_CHARS.search(ext):
        return None
    return _KINDS.get(ext, ext)


def file_kinds(paths: Iterable[str]) -> frozenset[str] | None:
    """The kinds of the touched files, or None when one has no extension (`Makefile`), which
    then says nothing about what the task is not about."""
    kinds = [_kind(p) for p in paths]
    if not kinds or any(k is None for k in kinds):
        return None
    return frozenset(k for k in kinds if k is not None)


def for_other_files(applies_to: Sequence[str], touched: frozenset[str] | None) -> bool:
    """The memory's own globs are all for kinds of file the task does not touch: a pytest
    rule (`tests/**/*.py`) while a React test (`Table.test.tsx`) is edited. Globs without an
    extension (`e2e/**`) could cover anything, so they never say this."""
    if not touched or not applies_to:
        return False
    from engram.discover import expand_braces  # only for memories with globs near the top

    kinds = [_kind(alt) for glob in applies_to if not glob.startswith("!")
             for alt in expand_braces(glob)]
    return bool(kinds) and None not in kinds and touched.isdisjoint(kinds)


class Lifecycled(Protocol):
    """What lifecycle and role checks read: a Memory, or the index's Restriction columns."""

    @property
    def lifecycle(self) -> str: ...
    @property
    def superseded_by(self) -> str | None: ...
    @property
    def valid_from(self) -> str | None: ...
    @property
    def valid_until(self) -> str | None: ...
    @property
    def roles(self) -> tuple[str, ...]: ...


def lifecycle_exclusion(memory: Lifecycled, today: str) -> str | None:
    """Why the memory is out of its lifecycle window today, or None."""
    if memory.lifecycle == "superseded":
        by = f" by {memory.superseded_by}" if memory.superseded_by else ""
        return f"superseded{by}"
    if memory.lifecycle == "archived":
        return "archived"
    if memory.valid_until and today > memory.valid_until:
        return f"valid_until {memory.valid_until}"
    if memory.valid_from and today < memory.valid_from:
        return f"valid_from {memory.valid_from}"
    return None


def role_visible(memory: Lifecycled, role: str | None) -> bool:
    return not memory.roles or (role is not None and role in memory.roles)


def review_due(memory: Memory, today: str) -> bool:
    return memory.lifecycle == "review_due" or bool(
        memory.review_after and today > memory.review_after)


@lru_cache(maxsize=4096)
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def path_matches(globs: Iterable[tuple[str, bool]], rel_paths: Iterable[str]) -> bool:
    """gitignore semantics within one memory's applies_to: the last matching glob decides."""
    compiled = [(_regex(r), include) for r, include in globs]
    for rel in rel_paths:
        verdict = False
        for regex, include in compiled:
            if regex.match(rel):
                verdict = include
        if verdict:
            return True
    return False
