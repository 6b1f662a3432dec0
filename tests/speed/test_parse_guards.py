"""Speed guards for parsing and encoding a memory (docs/performance.md, "A cold index uses every
core": what a worker spends a memory's CPU on).

Each shortcut a first index takes must give what the plain way gives: the lookahead in the
negation-word pattern, the clause-opening test before a body is split into paragraphs, lines
split without the line-break pattern, the first-character tests before the section, fence,
heading and list patterns, frontmatter text read straight off the YAML nodes, the ASCII chunk
pattern, body sketches cut by a byte table and sorting only their smallest hashes, body counts
packed in C.
"""

from __future__ import annotations

import json
import re
import zlib
from collections import Counter
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from engram import clauses, parse, sections, tokenize
from engram.index import _dedupe, _encoding
from engram.index._types import FIELDS

examples = settings(max_examples=300, deadline=None, database=None)
# Characters where the shortcuts could differ from the patterns: case folding (the long s and
# the Kelvin sign match s and k), Unicode word characters and digits, line breaks of every kind,
# spaces, tabs and the marks that open fences, headings, list items and quotes.
TRICKY = list("nNoOtTaAvViIdDsSkKpPeErR'’_- \t\r\n\x0b\x0c\u2028\u3000\u00a0ſKéİß²１٣😀"
              "`~#*+>|<.:;)1234567890[]xX❌✖️")
tricky_text = st.text(st.sampled_from(TRICKY), max_size=80)
markdown_line = st.lists(st.sampled_from([*TRICKY, "```", "~~~", "## ", "- ", "1. ", "**", "not",
                                          "never", "skip", "avoid", "n't", "for", "use this"]),
                         max_size=12).map("".join)


@examples
@given(text=tricky_text | markdown_line)
def test_the_negation_lookahead_allows_what_the_alternatives_allow(text: str) -> None:
    plain = re.compile(r"(?:\b(?:not|never|avoid|skip)|n['’]t)\b", re.IGNORECASE)
    assert ([m.span() for m in clauses.NEGATION_WORD.finditer(text)]
            == [m.span() for m in plain.finditer(text)])


@examples
@given(text=tricky_text)
def test_lines_split_as_the_line_break_pattern_splits_them(text: str) -> None:
    assert sections.split_lines(text) == sections.LINE_BREAK.split(text)


@examples
@given(line=markdown_line)
def test_a_line_each_pattern_matches_starts_with_a_mark_it_is_tested_for(line: str) -> None:
    lead = line.lstrip(" \t")[:1]
    if sections.FENCE.match(line) or sections.HEADING.fullmatch(line):
        assert lead in sections._MARKS
    stripped = line.strip()
    first = stripped[:1]
    if clauses._FENCE.match(line):
        assert first in clauses._FENCE_LEADS
    if clauses._HEADING_LINE.match(line):
        assert first == "#"
    if clauses._ITEM.match(line):
        assert first in clauses._ITEM_LEADS or first.isdigit()
    if ":" not in stripped:  # only a line with a colon is looked at without its emphasis
        assert ":" not in clauses._EMPHASIS.sub("", stripped)


@examples
@given(text=st.text(st.characters(max_codepoint=127), max_size=80) | markdown_line)
def test_ascii_chunks_are_the_compound_pattern_s(text: str) -> None:
    if text.isascii():
        assert tokenize._ASCII_COMPOUND.findall(text) == tokenize._COMPOUND.findall(text)


def plain_signature(text: str) -> list[int]:
    """body_signature as the word pattern defines it."""
    words = re.findall(r"\w+", text.lower())
    if len(words) < _dedupe.SHINGLE_WORDS + _dedupe.MIN_SHINGLES - 1:
        return []
    shingles = (" ".join(words[i:i + _dedupe.SHINGLE_WORDS])
                for i in range(len(words) - _dedupe.SHINGLE_WORDS + 1))
    return sorted({zlib.crc32(s.encode()) for s in shingles})[:_dedupe.SKETCH_SIZE]


ASCII_WORDS = ["Deploy", "the", "DB", "_x_", "v2", "a-b", "x.y", "it's", "\n", "\t", "__", "9"]
OTHER_WORDS = ["é", "K", "İ", "ß", "—", "“q”", "１", "😀", "ǅ"]


@examples
@given(words=st.lists(st.sampled_from(ASCII_WORDS), max_size=60)
       | st.lists(st.sampled_from(ASCII_WORDS + OTHER_WORDS), max_size=60))
def test_body_signatures_are_the_word_pattern_s(words: list[str]) -> None:
    for text in (" ".join(words), "".join(words)):
        assert _dedupe.body_signature(text) == plain_signature(text)


def test_a_long_body_keeps_its_smallest_distinct_hashes() -> None:
    text = " ".join(f"w{n % 97} x{n % 13}" for n in range(2000))  # repeats: duplicate shingles
    assert _dedupe.body_signature(text) == plain_signature(text)
    assert len(_dedupe.body_signature(text)) == _dedupe.SKETCH_SIZE


@settings(max_examples=60, deadline=None, database=None)
@given(words=st.lists(st.sampled_from(ASCII_WORDS + OTHER_WORDS + [f"w{n}" for n in range(40)]),
                      min_size=300, max_size=900))
def test_long_bodies_sort_only_their_smallest_hashes_and_get_the_same_sketch(
        words: list[str]) -> None:
    text = " ".join(words)
    assert _dedupe.body_signature(text) == plain_signature(text)


@pytest.mark.parametrize("distinct", [1, 5, 31, 32, 33, 120])
def test_a_long_body_of_few_distinct_shingles_is_sketched_whole(distinct: int) -> None:
    # Past the bound, fewer than SKETCH_SIZE distinct hashes may lie under it: all are sorted.
    cycle = [f"word{n}" for n in range(distinct + _dedupe.SHINGLE_WORDS)]
    text = " ".join(cycle[n % len(cycle)] for n in range(1500))
    assert _dedupe.body_signature(text) == plain_signature(text)


CLAUSE_PIECES = ["Do not use this skill for", "don't use it when", "Never invoke", "not for",
                 "NOT intended for", "not to be used for", "avoid using this", "skip the rule",
                 "Should not be used when", "it", "X", "loops", ".", ";", ":", ", but", "(",
                 " ", "\n", "\n> ", "\n- ", "\n\n", "\n```\n", ">", "n’t", "use", "for",
                 "when", "not", "never"]


@examples
@given(text=st.lists(st.sampled_from(CLAUSE_PIECES), max_size=14).map("".join))
def test_text_without_a_clause_opening_has_no_clause(text: str) -> None:
    summary = json.dumps(text.replace("\n", " "))  # JSON is YAML
    raw = f"---\nid: a\ntype: rule\nsummary: {summary}\n---\n{text}\n"
    gated = parse.parse_memory(raw.encode(), display_path="a.md", scope="workspace",
                               rel_path="a.md")[0]
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(clauses, "CLAUSE_OPENING", re.compile(""))
        patched.setattr(parse, "_CLAUSE_OPENING", re.compile(""))
        plain = parse.parse_memory(raw.encode(), display_path="a.md", scope="workspace",
                                   rel_path="a.md")[0]
    assert gated is not None and plain is not None
    assert gated.negations == plain.negations


FRONTMATTER = [
    "id: a\ntags: &t [x, y]\ntriggers: *t\n",
    "base: &b {summary: hi}\n<<: *b\nid: a\n",
    "summary: !!str 123\ntags: !!seq [a, !!str 1]\n",
    "summary: !!str [a, b]\n",
    "tags: [1, 2.5, yes, null, ~, '', \"q\"]\nlevel: 2\n",
    "review_after: 2027-01-30\nvalid_from: 2024-01-01 10:00:00\n",
    "? [a, b]\n: c\n1: x\nyes: y\n",
    "tags: [[a], {b: c}]\nsafety: {allow: [secret]}\n",
    "summary: |\n  line one\n  line two\ndirective: >\n  folded\n  text\n",
    "summary: !!binary aGVsbG8=\ntags: !!set {a, b}\ntriggers: !!omap [a: 1]\n",
    "id: &i a\nsuperseded_by: *i\nsummary: {=: hello}\n",
]


@pytest.mark.parametrize("loader_class", [yaml.SafeLoader,
                                          getattr(yaml, "CSafeLoader", yaml.SafeLoader)])
@pytest.mark.parametrize("source", FRONTMATTER)
def test_frontmatter_values_are_what_the_safe_constructor_makes(loader_class: Any,
                                                                source: str) -> None:
    def values(construct: Any) -> list[str]:
        loader = loader_class(source)
        try:
            node = loader.get_single_node()
            loader.flatten_mapping(node)
            out = []
            for key_node, value_node in node.value:
                for one in (key_node, value_node):
                    try:
                        out.append(repr(construct(loader, one)))
                    except (yaml.YAMLError, ValueError, TypeError) as exc:
                        out.append(type(exc).__name__)
            return out
        finally:
            loader.dispose()

    assert values(parse._construct) == values(
        lambda loader, node: loader.construct_object(node, deep=True))


def plain_packed(per_field: dict[str, list[str]]) -> dict[str, int]:
    packed: dict[str, int] = {}
    for i, name in enumerate(FIELDS):
        for term, count in Counter(per_field[name]).items():
            shift = i * _encoding._BITS
            packed[term] = packed.get(term, 0) | (min(count, _encoding._CAP) << shift)
    return packed


@pytest.mark.parametrize("body_repeat", [0, 1, 3, _encoding._CAP, _encoding._CAP + 5])
def test_packed_counts_are_the_per_field_counts(body_repeat: int) -> None:
    per_field = {name: [] for name in FIELDS}
    per_field.update(id=["deploy"], tags=["deploy", "ops"], summary=["ops", "ops", "cache"],
                     body=["deploy"] * body_repeat + ["cache", "db"], negative=["db"])
    assert _encoding._packed_counts(per_field) == plain_packed(per_field)
