"""The parts of a prompt that asks for more than one thing.

"Make the booking form readable on phones; also, when a slot is taken, offer the next free
one" is two tasks. Ranked as one, the memories that share the most words with the first part
can fill the pack, and the second part gets nothing. A developer choosing by hand would give
each part its best memory: `parts` splits a prompt where its author did (a sentence end, a
semicolon, an "also"), and the ranking keeps a place for each part's best match.
"""

from __future__ import annotations

import re

from engram.tokenize import anchors

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
