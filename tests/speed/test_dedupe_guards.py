"""Speed guards for near-duplicate groups (docs/performance.md, "An edit costs what it touches").

Groups are stars around a head so that an edit regroups only the edited memory's neighbourhood;
these tests hold the stored groups equal to a from-scratch computation edit by edit, count the
similarity computations of one edit, and hold load's partial ranking equal to full ranking on
near-duplicate families. What a user sees of near-duplicates is specified in tests/test_routing.py.
"""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import write_memory

from engram.index import ScopeIndex
from engram.index import _dedupe as dedupe
from engram.model import WORKSPACE

WORDS = [f"w{n}" for n in range(4000)]


def memory(mid: str, body: str) -> str:
    return f"---\nid: {mid}\ntype: rule\ntags: [ops]\n---\n{body}\n"


def stored(root: Path) -> tuple[dict[str, str | None], dict[str, str]]:
    """(id -> stored group name of every active memory, the from-scratch groups of the same
    memories)."""
    index = ScopeIndex.open(root, WORKSPACE)
    try:
        index.refresh()
        rows = index.conn.execute(
            "SELECT mem, id, active, dup_group, signature FROM memories").fetchall()
    finally:
        index.close()
    names = {mid: group for _, mid, active, group, _ in rows if active}
    return names, dedupe.groups({key: json.loads(sig) for key, *_, sig in rows},
                                {key: mid for key, mid, *_ in rows},
                                {key for key, _, active, *_ in rows if active})


def reported(names: dict[str, str | None]) -> dict[str, str]:
    """The groups `check` and `graph` report: names held by two or more memories."""
    sizes: dict[str, int] = {}
    for name in names.values():
        if name is not None:
            sizes[name] = sizes.get(name, 0) + 1
    return {m: n for m, n in names.items() if n is not None and sizes[n] > 1}


def variant(rng: random.Random, base: Sequence[str], changes: int) -> str:
    words = list(base)
    for _ in range(changes):
        words[rng.randrange(len(words))] = rng.choice(WORDS)
    return " ".join(words)


def test_the_quick_verdict_on_a_pair_is_the_similarity_threshold() -> None:
    """`alike` skips sorting where the shared hashes already rule a pair out: it must say
    exactly what comparing `similarity` with THRESHOLD says, at every overlap and length."""
    rng = random.Random(5)
    checked = 0
    for _ in range(4000):
        pool = rng.sample(range(1 << 32), 64)
        keep = rng.randint(0, dedupe.SKETCH_SIZE)
        a = sorted(pool[:rng.randint(0, dedupe.SKETCH_SIZE)])
        b = sorted(set(a[:keep]) | set(pool[32:32 + rng.randint(0, dedupe.SKETCH_SIZE - keep)]))
        expected = dedupe.similarity(a, b) >= dedupe.THRESHOLD
        assert dedupe.alike(set(a), set(b)) == expected, (a, b)
        checked += expected
    assert checked > 100  # both answers were exercised


def test_a_family_of_look_alikes_is_one_group(workspace: Path) -> None:
    root = workspace / ".engram"
    base = WORDS[:120]
    for mid in ("c-rule", "a-rule", "b-rule"):
        write_memory(root, f"{mid}.md", memory(mid, " ".join(base)))
    write_memory(root, "other.md", memory("other", " ".join(WORDS[500:620])))
    names, scratch = stored(root)
    head = min(("a-rule", "b-rule", "c-rule"), key=dedupe.rank)
    assert names == {"a-rule": head, "b-rule": head, "c-rule": head, "other": None}
    assert reported(names) == scratch


def test_a_group_is_a_star_around_its_head_not_a_chain(workspace: Path) -> None:
    """a ~ b and b ~ c, but a is not like c: with b the head, all three are one group; with
    a the head, c stays out of it (a chain never pulls in memories unlike the group's head)."""
    root = workspace / ".engram"
    # 400-word windows of one text: 12 words apart ~94% alike, 24 apart ~88%.
    a, b, c = sorted(("x1", "x2", "x3"), key=dedupe.rank)  # a heads wherever it is a mate
    bodies = {a: WORDS[0:400], b: WORDS[12:412], c: WORDS[24:424]}
    sig = {k: dedupe.body_signature(" ".join(v)) for k, v in bodies.items()}
    assert dedupe.similarity(sig[a], sig[c]) < dedupe.THRESHOLD
    assert min(dedupe.similarity(sig[a], sig[b]), dedupe.similarity(sig[b], sig[c])) \
        >= dedupe.THRESHOLD
    for mid, words in bodies.items():
        write_memory(root, f"{mid}.md", memory(mid, " ".join(words)))
    names, scratch = stored(root)
    assert names == {a: a, b: a, c: None}
    assert reported(names) == scratch
    # Swap the bodies of a and b: the middle of the chain now heads it, and holds all three.
    write_memory(root, f"{a}.md", memory(a, " ".join(bodies[b])))
    write_memory(root, f"{b}.md", memory(b, " ".join(bodies[a])))
    names, scratch = stored(root)
    assert names == {a: a, b: a, c: a}
    assert reported(names) == scratch


@pytest.mark.parametrize("max_bucket", [dedupe.MAX_BUCKET, 5])
def test_random_edits_keep_groups_equal_to_a_from_scratch_computation(
        workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        max_bucket: int) -> None:
    """Families of near-identical memories (cliques, chains of small edits, duplicate ids),
    edited, added and removed at random; a small bucket cap makes buckets cross it both ways."""
    monkeypatch.setattr(dedupe, "MAX_BUCKET", max_bucket)
    rng = random.Random(max_bucket)
    root = workspace / ".engram"
    families = [rng.sample(WORDS, 150) for _ in range(4)]

    def body() -> str:
        family = rng.choice(families)
        return variant(rng, family, rng.choice((0, 1, 2, 4, 8, 30)))

    for n in range(40):
        write_memory(root, f"m{n:02d}.md", memory(f"m{rng.randrange(60):02d}", body()))
    stored(root)
    for _ in range(30):
        files = sorted(root.glob("*.md"))
        action = rng.random()
        if action < 0.5:
            write_memory(root, rng.choice(files).name, memory(f"m{rng.randrange(60):02d}",
                                                             body()))
        elif action < 0.75 and len(files) > 5:
            rng.choice(files).unlink()
        else:
            write_memory(root, f"m{rng.randrange(100, 200)}.md",
                         memory(f"m{rng.randrange(60):02d}", body()))
        names, scratch = stored(root)
        assert reported(names) == scratch
        copy = tmp_path / "copy" / ".engram"
        shutil.rmtree(copy.parent, ignore_errors=True)
        shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".cache", ".state"))
        assert stored(copy)[0] == names  # heads of no group included: the rows are identical


def test_an_edit_looks_only_at_the_edited_memorys_neighbourhood(
        workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """600 memories, each a near-duplicate of the next few: one chain of similarity through
    all of them. Editing one compares it with its bucket mates only."""
    monkeypatch.setattr(dedupe, "MAX_BUCKET", 1000)  # every bucket counts, however shared
    root = workspace / ".engram"
    stream = [WORDS[n % len(WORDS)] for n in range(600 * 8 + 400)]
    for n in range(600):
        write_memory(root, f"m{n:03d}.md", memory(f"m{n:03d}", " ".join(stream[n * 8:n * 8 + 400])))
    before, _ = stored(root)
    assert len(reported(before)) > 400  # most of the chain is grouped, in many small stars

    calls = 0
    real = dedupe.alike

    def counted(a: set[int], b: set[int]) -> bool:
        nonlocal calls
        calls += 1
        return real(a, b)

    monkeypatch.setattr(dedupe, "alike", counted)
    index = ScopeIndex.open(root, WORKSPACE)
    try:
        mates = max(n for (n,) in index.conn.execute(
            "SELECT count(*) FROM bands WHERE band IN (SELECT band FROM bands WHERE mem ="
            " (SELECT mem FROM memories WHERE id='m300')) GROUP BY band"))
    finally:
        index.close()
    write_memory(root, "m300.md", memory("m300", " ".join(stream[2400:2800]) + " edited"))
    index = ScopeIndex.open(root, WORKSPACE)
    try:
        assert index.refresh()
    finally:
        index.close()
    assert 0 < calls <= dedupe.BAND_KEYS * mates < 600
    monkeypatch.setattr(dedupe, "alike", real)
    names, scratch = stored(root)
    assert reported(names) == scratch


@pytest.mark.parametrize("limit", [1, 3, 8])
def test_groups_resolve_the_same_when_load_ranks_only_what_can_matter(
        workspace: Path, monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    """Families of near-duplicates with different tags and confidences: the pack and the
    count of related memories (one per group) equal full ranking's."""
    from engram import rank
    from engram.pipeline import build_pack
    from engram.scopes import Request

    monkeypatch.setattr(rank, "FINALIZE_BATCH", 1)
    rng = random.Random(limit)
    root = workspace / ".engram"
    topics = "deploy cache retry webhook schema token queue backup".split()
    families = [rng.sample(WORDS, 120) for _ in range(12)]
    for n in range(150):
        family = families[n % len(families)]
        tags = ", ".join(rng.sample(topics, 2))
        body = variant(rng, family, rng.choice((0, 1, 2, 40))) + " " + " ".join(
            rng.sample(topics, 3))
        confidence = rng.choice(("high", "medium", "low"))
        write_memory(root, f"m{n:03d}.md", f"---\nid: m{n:03d}\ntype: rule\ntags: [{tags}]\n"
                                           f"confidence: {confidence}\n---\n{body}\n")

    def shape(request: Request) -> tuple[object, ...]:
        pack = build_pack(request)
        return (tuple((i.memory.id, i.disclosure, round(i.score, 9)) for i in pack.items),
                pack.related_total)

    for query in ("deploy the webhook", "retry cache", "schema token queue backup deploy"):
        fast = Request(query=query, cwd=str(workspace), limit=limit, record_fetch=False)
        full = Request(query=query, cwd=str(workspace), limit=limit, record_fetch=False,
                       explain=True)
        assert shape(fast) == shape(full)
        assert sum(c.excluded == "duplicate" for c in build_pack(full).candidates) > 10
