"""Gates that spare a line the costly searches it cannot match: word-class gates compiled to
bits, shared by the judged features and the deeds, and `Alternatives`, a regex split by the
substrings each of its alternatives needs.

A gate is a set of word classes, all of which a line must hold for a feature (or a deed) to be
searched for at all; a feature may have several gates. Each class of each gate is a bit, each
word the bits of the classes that hold it, so a line's words give one integer and a gate is open
when all its bits are in it: a few integer operations per line instead of a set test per class.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Collection, Iterable, Iterator, Sequence, Set

from engram.safety.lazy_regex import LazyRegex

Gate = Sequence[Collection[str]]  # classes of words or substrings, one of each to be met


def _compile(gates: Iterable[Sequence[Gate]]) -> tuple[dict[str, int], list[tuple[int, ...]]]:
    """Each class of each gate a bit: the bits of the classes each member is in, and per entry
    of `gates` the mask of each of its gates (open when all of a mask's bits are met)."""
    bits: dict[str, int] = {}
    masks: list[tuple[int, ...]] = []
    bit = 1
    for entry in gates:
        found = []
        for gate in entry:
            mask = 0
            for cls in gate:
                for member in cls:
                    bits[member] = bits.get(member, 0) | bit
                mask |= bit
                bit <<= 1
            found.append(mask)
        masks.append(tuple(found))
    return bits, masks


class WordGates:
    def __init__(self, named: Iterable[tuple[str, Sequence[Gate]]]) -> None:
        names, gates = zip(*named, strict=True)
        bits, masks = _compile(gates)
        self._bits = bits
        self._masks = dict(zip(names, masks, strict=True))
        self._vocabulary = frozenset(bits)
        # A name none of whose gates has a single class met is ruled out by one `&`.
        self._any = {name: functools.reduce(operator.or_, m, 0)
                     for name, m in self._masks.items()}
        # Lines of one memory, and of a whole corpus, open the same few combinations of classes
        # (about one line in four of the public development set brings a new one): each is
        # judged once. A cold index of rule files spent a seventh of its scan here before.
        self._names_of = functools.lru_cache(maxsize=8192)(self._names)

    def opened(self, words: Set[str]) -> tuple[str, ...]:
        """The names, in the order given, whose gates a line's words open."""
        have = 0
        for word in words & self._vocabulary:
            have |= self._bits[word]
        return self._names_of(have) if have else ()

    def _names(self, have: int) -> tuple[str, ...]:
        return tuple(name for name, masks in self._masks.items()
                     if have & self._any[name] and any(mask & have == mask for mask in masks))


class Alternatives:
    """A regex of many alternatives, each searched only in a text that holds the substrings it
    cannot match without: Python's engine tries every alternative at every position, and one
    rule of three dozen `\\b(?:verb|...)` openings cost 40 us a line where the words it needs
    are rarely all there.

    `rules` are (needs, pattern): `needs` is groups of substrings, one of each group in the
    text. `search` gives the match the alternatives joined by `|` would give: the leftmost,
    and at one position the first alternative listed.
    """

    def __init__(self, rules: Iterable[tuple[Gate, str]]) -> None:
        # The needs compiled as word gates are (`_compile`), with substrings for words: `in`
        # tests once per substring, then one `&` per alternative.
        needs, patterns = zip(*rules, strict=True)
        bits, masks = _compile((gate,) for gate in needs)
        self._parts = tuple(bits.items())
        self._rules = [(mask, LazyRegex(pattern))
                       for (mask,), pattern in zip(masks, patterns, strict=True)]

    def search(self, text: str) -> re.Match[str] | None:
        return self._search(text, 0, self._held(text))

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """Every match, left to right, each searched for after the last: `re.finditer`'s, for
        rules that never match empty text."""
        held = self._held(text)
        pos = 0
        while (found := self._search(text, pos, held)) is not None:
            yield found
            pos = max(found.end(), found.start() + 1)

    def _held(self, text: str) -> int:
        held = 0
        for part, bit in self._parts:
            if part in text:
                held |= bit
        return held

    def _search(self, text: str, pos: int, held: int) -> re.Match[str] | None:
        best: re.Match[str] | None = None
        for mask, rule in self._rules:
            if mask & held == mask:
                found = rule.search(text, pos)
                if found is not None and (best is None or found.start() < best.start()):
                    best = found
        return best
