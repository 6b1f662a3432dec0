"""Ranking only the candidates that can matter gives exactly the pack that ranking all gives.

`load` decodes records and applies multipliers only down to where no remaining candidate can
reach the pack; dry-run and --json rank everything. Both must agree on every query.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import write_memory

from engram import pipeline
from engram.pipeline import Request, build_pack

WORDS = ("deploy release migrate cache retry queue webhook payment invoice tenant schema index "
         "lint format test fixture mock token auth session cookie header route handler worker "
         "metric trace log alert backup restore shard replica config secret vault build docker "
         "image chart helm terraform module plan apply review branch merge commit tag "
         "version").split()


def make_corpus(root: Path, count: int, seed: int) -> None:
    rng = random.Random(seed)
    for n in range(count):
        tags = rng.sample(WORDS, 2)
        body = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 80)))
        extra = []
        if n % 7 == 0:
            extra.append("confidence: high")
        if n % 11 == 0:
            extra.append("confidence: low")
        if n % 13 == 0:
            extra.append("lifecycle: archived")
        if n % 17 == 0:
            extra.append("roles: [sre]")
        if n % 19 == 0 and n > 0:
            extra.append(f"depends_on: [m{n - 1:04d}]")
        kind = "skill" if n % 5 == 0 else "rule"
        head = "\n".join([f"id: m{n:04d}", f"type: {kind}", f"tags: [{', '.join(tags)}]", *extra])
        write_memory(root, f"m{n:04d}.md", f"---\n{head}\n---\n{body}\n")


def shape(request: Request) -> tuple[object, ...]:
    pack = build_pack(request)
    return (tuple((i.memory.id, i.disclosure, round(i.score, 9)) for i in pack.items),
            pack.related_total, pack.excluded if request.explain else ())


@pytest.mark.parametrize("query", ["deploy the payment webhook", "retry", "how to release steps",
                                   "cache index schema migrate tenant", "auth token session"])
@pytest.mark.parametrize("limit", [1, 3, 8])
def test_fast_ranking_matches_full_ranking(workspace: Path, query: str, limit: int,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # One record per batch, so the stopping bound (not the batch size) decides what is ranked.
    monkeypatch.setattr(pipeline, "FINALIZE_BATCH", 1)
    make_corpus(workspace / ".engram", 400, seed=7)
    fast = Request(query=query, cwd=str(workspace), limit=limit, record_fetch=False)
    full = Request(query=query, cwd=str(workspace), limit=limit, record_fetch=False,
                   explain=True)
    assert shape(fast)[:2] == shape(full)[:2]
