"""How a memory is encoded for storage: per-field term counts packed into one integer per
posting, field lengths packed beside them, the record as JSON and its routing `head`.

Private to engram.index: readers get `FieldCounts` and `Postings` values, never a packed integer.
"""

from __future__ import annotations

import functools
import json
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from engram.config import DEFAULT_FIELD_WEIGHTS
from engram.discover import compile_globs
from engram.index._dedupe import body_signature
from engram.index._types import FIELDS, FieldCounts, Head
from engram.model import Finding, Memory
from engram.tokenize import name_words, tokens, written_form

# Field order is fixed: per-field counts are packed into one integer per posting, 9 bits each.
_BITS = 9
_CAP = (1 << _BITS) - 1
# Memory's tuple fields: JSON gives lists back.
_LIST_FIELDS = frozenset(name for name, default in Memory._field_defaults.items()
                         if default == ())


def unpack_counts(packed: int) -> FieldCounts:
    return FieldCounts._make((packed >> (i * _BITS)) & _CAP for i in range(len(FIELDS)))


# Field lengths ride along in every posting, so BM25 needs no per-memory lookup: 8 bits for
# each short field, 23 for the body (larger values saturate; a memory is at most 256 KiB).
_LEN_BITS = (8, 8, 8, 8, 8, 23)


def pack_lengths(lengths: Sequence[int]) -> int:
    packed, shift = 0, 0
    for n, bits in zip(lengths, _LEN_BITS, strict=False):
        packed |= min(n, (1 << bits) - 1) << shift
        shift += bits
    return packed


def unpack_lengths(packed: int) -> tuple[int, ...]:
    out, shift = [], 0
    for bits in _LEN_BITS:
        out.append((packed >> shift) & ((1 << bits) - 1))
        shift += bits
    return (*out, 0)  # the negative field has no length: it never scores


# The weights every posting's stored document length was computed with, in FIELDS order.
DEFAULT_WEIGHTS = tuple(dict(DEFAULT_FIELD_WEIGHTS).get(name, 0.0) for name in FIELDS)


def weighted_length(packed: int, weights: Sequence[float]) -> float:
    return sum(n * w for n, w in zip(unpack_lengths(packed), weights, strict=False))


def is_restricted(memory: Memory) -> bool:
    """Whether lifecycle or roles can exclude it: routing loads such records for every query."""
    return bool(memory.lifecycle in ("superseded", "archived") or memory.valid_from
                or memory.valid_until or memory.roles)


def field_texts(memory: Memory) -> dict[str, list[str]]:
    """The token lists per routing field; negation clauses are taken out of positive fields."""
    summary = memory.summary or ""
    directive = memory.directive or ""
    body = memory.indexed_body
    for clause in memory.negations:
        summary = summary.replace(clause, " ")
        directive = directive.replace(clause, " ")
        body = body.replace(clause, " ")
    return {
        "id": tokens(memory.id),
        "tags": [t for tag in memory.tags for t in tokens(tag)],
        "directive": tokens(directive),
        "triggers": [t for trig in memory.triggers for t in tokens(trig)],
        "summary": tokens(summary),
        "body": tokens(body),
        "negative": [t for clause in memory.negations for t in tokens(clause)],
    }


def memory_to_json(memory: Memory) -> str:
    return json.dumps(memory._asdict(), sort_keys=True, separators=(",", ":"))


def memory_from_json(text: str) -> Memory:
    data = json.loads(text)
    for name in _LIST_FIELDS:
        if name in data:
            data[name] = tuple(data[name])
    return Memory(**data)


# What routing reads from every memory (lifecycle and roles, loading, dependencies, sources):
# a session start reads them all, and a small `head` column is far cheaper to decode than the
# full record.
HEAD_FIELDS = Head._fields[1:-1]  # after the key, before the depth (which has a column)
_HEAD_LISTS = tuple(i for i, name in enumerate(HEAD_FIELDS) if name in _LIST_FIELDS)


def memory_head(memory: Memory) -> str:
    return json.dumps([getattr(memory, name) for name in HEAD_FIELDS], separators=(",", ":"))


def memory_names(memory: Memory) -> str:
    """The stemmed words of the memory's names (its id, tags and trigger phrases, in that
    order): judging which memories a query names reads them without the record."""
    return json.dumps([name_words(name) for name in (memory.id, *memory.tags, *memory.triggers)],
                      separators=(",", ":"))


def memory_forms(memory: Memory) -> str | None:
    """The written forms of its trigger phrases that have one (`written_form`), or None: few
    memories have any, and a query reads them all from an index of those rows alone."""
    forms = [f for f in map(written_form, memory.triggers) if f is not None]
    return json.dumps(forms, separators=(",", ":")) if forms else None


def names_from_json(text: str) -> tuple[tuple[str, ...], ...]:
    return tuple(map(tuple, json.loads(text)))


def head_values(head: str) -> list[Any]:
    """The HEAD_FIELDS values of a stored head, lists as tuples."""
    values: list[Any] = json.loads(head)
    for i in _HEAD_LISTS:
        values[i] = tuple(values[i])
    return values


def decode_head(key: int, head: str, depth: int) -> Head:
    return Head._make((key, *head_values(head), depth))


class Prepared(NamedTuple):
    """A parsed memory encoded for storage, with what deriving needs of it. All the encoding
    is done here, in a worker process, not in the one writing SQLite."""

    id: str
    rel_path: str
    sha256: str
    depends_on: tuple[str, ...]
    level: int
    lengths: list[int]
    signature: array[int]  # 32-bit hashes: compact to send and to keep for 100k memories
    # The memories row after its key: id, rel, data, head, lengths, globs, signature,
    # restricted, lifecycle, superseded_by, valid_from, valid_until, roles, terms, confidence,
    # names, forms.
    columns: tuple[object, ...]


def encode_findings(findings: Iterable[Finding]) -> str:
    """A safety verdict as the index stores it (`ScopeIndex.verdict` reads it back)."""
    return json.dumps([[f.kind, f.line, f.detail] for f in findings], ensure_ascii=False)


@functools.lru_cache(maxsize=1024)
def _globs_json(applies_to: tuple[str, ...]) -> str:
    # Rule collections repeat a few glob lists (`**/*.ts`) across hundreds of memories.
    return json.dumps(compile_globs(applies_to)) if applies_to else "[]"


_BODY = FIELDS.index("body")


def _packed_counts(per_field: dict[str, list[str]]) -> dict[str, int]:
    """term -> its count in each field, packed (`unpack_counts`)."""
    # The body holds most of a memory's terms: its counts are packed first, in C (Counter
    # counts, `map` shifts; a first index does this for every memory), and the few terms of
    # the short fields are or-ed in after.
    body = Counter(per_field["body"])
    shift = _BODY * _BITS
    if body and max(body.values()) > _CAP:  # a capped count never carries into the next field
        packed = {term: min(count, _CAP) << shift for term, count in body.items()}
    else:
        packed = dict(zip(body, map((1 << shift).__mul__, body.values()), strict=True))
    for i, name in enumerate(FIELDS):
        if i == _BODY:
            continue
        shift = i * _BITS
        for term, count in Counter(per_field[name]).items():
            packed[term] = packed.get(term, 0) | (min(count, _CAP) << shift)
    return packed


def prepare(memory: Memory) -> tuple[Prepared, list[tuple[str, int]], int, float]:
    """The memory prepared, with its (term, packed per-field counts) postings (body terms
    first), packed field lengths and default-weighted length (what BM25 reads directly)."""
    per_field = field_texts(memory)
    packed = _packed_counts(per_field)
    lengths = [len(per_field[name]) for name in FIELDS]
    dl = sum(n * w for n, (_, w) in zip(lengths, DEFAULT_FIELD_WEIGHTS, strict=False))
    signature = body_signature(memory.indexed_body)
    # Terms are words: never a line break inside one (and a third shorter than JSON).
    columns = (memory.id, memory.rel_path, memory_to_json(memory), memory_head(memory),
               json.dumps(lengths), _globs_json(memory.applies_to), json.dumps(signature),
               int(is_restricted(memory)), memory.lifecycle, memory.superseded_by,
               memory.valid_from, memory.valid_until, json.dumps(list(memory.roles)),
               "\n".join(sorted(packed)), memory.confidence, memory_names(memory),
               memory_forms(memory))
    prepared = Prepared(memory.id, memory.rel_path, memory.sha256, memory.depends_on,
                        memory.level or 0, lengths, array("I", signature), columns)
    return prepared, list(packed.items()), pack_lengths(lengths), dl

