"""Word-class gates compiled to bits, shared by the judged features and the deeds.

A gate is a set of word classes, all of which a line must hold for a feature (or a deed) to be
searched for at all; a feature may have several gates. Each class of each gate is a bit, each
word the bits of the classes that hold it, so a line's words give one integer and a gate is open
when all its bits are in it: a few integer operations per line instead of a set test per class.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Sequence, Set

Gate = Sequence[frozenset[str]]


class WordGates:
    def __init__(self, named: Iterable[tuple[str, Sequence[Gate]]]) -> None:
        bits: dict[str, int] = {}
        masks: dict[str, tuple[int, ...]] = {}
        bit = 1
        for name, gates in named:
            found = []
            for gate in gates:
                mask = 0
                for cls in gate:
                    for word in cls:
                        bits[word] = bits.get(word, 0) | bit
                    mask |= bit
                    bit <<= 1
                found.append(mask)
            masks[name] = tuple(found)
        self._bits = bits
        self._masks = masks
        self._vocabulary = frozenset(bits)
        # A name none of whose gates has a single class met is ruled out by one `&`.
        self._any = {name: functools.reduce(operator.or_, m, 0) for name, m in masks.items()}
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
