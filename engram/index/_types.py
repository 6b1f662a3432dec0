"""The values the index hands out: everything a reader may know of what the index stores."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from itertools import compress
from typing import NamedTuple

from engram.model import Memory


class FieldCounts(NamedTuple):
    """One number per routing field, in `FIELDS` order: how often a term occurs in each field
    of a memory (a posting), or how many tokens each field holds (corpus totals). `negative`
    is the exclusion clauses the author wrote: it never scores."""

    id: int
    tags: int
    directive: int
    triggers: int
    summary: int
    body: int
    negative: int

    @property
    def scoring(self) -> tuple[int, ...]:
        """The counts of the fields that score (all but `negative`), in `FIELDS` order."""
        return self[:-1]

    def hit_fields(self) -> tuple[str, ...]:
        """The names of the scoring fields with a non-zero count, in `FIELDS` order."""
        return tuple(name for name, n in zip(FIELDS, self.scoring, strict=False) if n)


FIELDS: tuple[str, ...] = FieldCounts._fields
SCORING_FIELDS: tuple[str, ...] = FIELDS[:-1]


class Postings(NamedTuple):
    """The memories holding one term, as three columns of one entry per memory: a common term
    is in most memories, and columns are built and read in C, where a record per memory costs
    a Python object each."""

    keys: tuple[int, ...]  # the memories' keys in their scope's index
    counts: tuple[FieldCounts, ...]  # occurrences of the term per field (shared by equal counts)
    lengths: tuple[float, ...]  # document lengths, their fields weighted as the read asked
    # The distinct objects of `counts` (a few hundred where `counts` has thousands): what a
    # reader that groups memories by count pattern decodes.
    kinds: tuple[FieldCounts, ...]
    # key -> 1 + the position of its counts in `kinds`: a long-lived reader groups memories by
    # these small numbers without building a map per read (route.gather).
    codes: Mapping[int, int]

    @classmethod
    def one(cls, key: int, counts: FieldCounts, length: float) -> Postings:
        return cls((key,), (counts,), (length,), (counts,), {key: 1})

    def only(self, wanted: Collection[int]) -> Postings:
        """The entries of these keys."""
        kept = list(compress(range(len(self.keys)), map(wanted.__contains__, self.keys)))
        keys = tuple(map(self.keys.__getitem__, kept))
        return Postings(keys, tuple(map(self.counts.__getitem__, kept)),
                        tuple(map(self.lengths.__getitem__, kept)), self.kinds,
                        dict(zip(keys, map(self.codes.__getitem__, keys), strict=True)))


class Corpus(NamedTuple):
    """What BM25 needs to know of one scope's whole corpus."""

    doc_count: int  # memories routing scores (duplicate-id losers left out)
    tokens: FieldCounts  # their tokens per field


class Restriction(NamedTuple):
    """The fields of a memory that can exclude it by lifecycle or role."""

    lifecycle: str
    superseded_by: str | None
    valid_from: str | None
    valid_until: str | None
    roles: tuple[str, ...]


class Record(NamedTuple):
    """A memory as the index holds it: the parsed memory plus what was derived at index time."""

    key: int
    memory: Memory
    depth: int  # dependency layer: max(level, 1 + deepest prerequisite)
    dup_group: str | None  # near-duplicate group, if the memory is in one


class Head(NamedTuple):
    """The fields routing reads of every memory (lifecycle, roles, loading, dependencies),
    without decoding the full record: a session start looks at all of them."""

    key: int
    id: str
    type: str
    scope: str
    rel_path: str
    sha256: str
    tags: tuple[str, ...]
    depends_on: tuple[str, ...]
    level: int | None
    confidence: str
    roles: tuple[str, ...]
    lifecycle: str
    review_after: str | None
    valid_from: str | None
    valid_until: str | None
    sources: tuple[str, ...]
    superseded_by: str | None
    load: str
    depth: int


class PathRule(NamedTuple):
    """A memory's compiled `applies_to` globs: (regex, include) pairs, gitignore order."""

    key: int
    globs: tuple[tuple[str, bool], ...]
