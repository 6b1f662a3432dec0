"""The parts of a prompt that asks for more than one thing.

"Make the booking form readable on phones; also, when a slot is taken, offer the next free
one" is two tasks. Ranked as one, the memories that share the most words with the first part
can fill the pack, and the second part gets nothing. A developer choosing by hand would give
each part its best memory: `parts` splits a prompt where its author did (a sentence end, a
semicolon, an "also"), and the ranking keeps a place for each part's best match.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engram.tokenize import anchors

if TYPE_CHECKING:
    from engram.rank import Scored, Scoring

# Where a new request starts: after a sentence or a semicolon, or at "also" / "and also".
_BOUNDARY = re.compile(r"(?<=[.;!?])\s+|\s*[,;]?\s+(?:and\s+)?also\b[,:]?\s*", re.IGNORECASE)
# A part needs this many anchors to be a request of its own: "Thanks." or "Also tests" are not.
PART_MIN_ANCHORS = 3


def parts(query: str) -> list[tuple[str, ...]]:
    """The anchors of each part of a prompt of two parts or more; [] for a single request."""
    if len(query) < 24 or not _BOUNDARY.search(query):
        return []
    found = [a for a in (anchors(text) for text in _BOUNDARY.split(query))
             if len(a) >= PART_MIN_ANCHORS]
    return found if len(found) >= 2 else []


# A part's best match must share this many of the part's anchors with it: one word in common is
# chance, not a second request answered.
PART_MIN_MATCHED = 2


def place_per_part(ranked: list[Scored], parts: list[tuple[str, ...]], scoring: Scoring,
                   limit: int) -> list[Scored]:
    """The ranking, with the best match of each part of the prompt moved up to the last places
    within the limit where the whole prompt's ranking left it out (`Scoring.part_score`)."""
    if len(ranked) <= limit:
        return ranked
    order = list(ranked)
    moved = 0
    for part in parts:
        if moved >= limit - 1:
            break
        words = set(part)
        scores = [scoring.part_score(item, words) for item in order]
        best = max(range(len(order)), key=lambda n: (scores[n], -n))
        if best < limit - moved or scores[best] <= 0 or sum(
                1 for term in order[best].evidence.tf if term in words) < PART_MIN_MATCHED:
            continue
        order.insert(limit - 1 - moved, order.pop(best))
        moved += 1
    return order
