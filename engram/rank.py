"""BM25 over weighted fields, the path bonus and the lifecycle multipliers.

Scores are computed in pure Python from the index's postings, so scoring touches only memories
that share a term; `reference_bm25` runs rank_bm25 itself, and tests hold the two to agree.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from engram.errors import EngramError

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
