"""Speed guard for scoring (docs/performance.md, "Scoring"): ranking only the candidates that can
matter gives exactly the pack that ranking all gives.

`load` decodes records and applies multipliers only down to where no remaining candidate can
reach the pack; dry-run and --json rank everything. Both must agree on every query.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import write_memory

from engram import rank, route
from engram.index import FIELDS
from engram.pipeline import build_pack, query_anchors
from engram.scopes import Request, Scopes, resolve
from engram.tokenize import name_words

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
        if n % 23 == 0:
            extra.append(f"applies_to: ['src/{tags[0]}/**']")
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
    monkeypatch.setattr(rank, "FINALIZE_BATCH", 1)
    make_corpus(workspace / ".engram", 400, seed=7)
    fast = Request(query=query, cwd=str(workspace), limit=limit, record_fetch=False)
    full = Request(query=query, cwd=str(workspace), limit=limit, record_fetch=False,
                   explain=True)
    assert shape(fast)[:2] == shape(full)[:2]


@pytest.mark.parametrize("query", ["deploy the payment webhook invoice tenant",
                                   "cache index schema migrate tenant shard",
                                   "lint format test fixture mock"])
@pytest.mark.parametrize("paths", [("src/deploy/app.py",), ("src/cache/a.py", "src/lint/b.py")])
def test_long_queries_with_path_triggers_match_full_ranking(
        workspace: Path, query: str, paths: tuple[str, ...],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Long queries let load set aside one-hit memories the gate excludes; a path trigger on
    # one of them must still route it with its text score.
    monkeypatch.setattr(rank, "FINALIZE_BATCH", 1)
    make_corpus(workspace / ".engram", 400, seed=11)
    for explain in (False, True):
        request = Request(query=query, cwd=str(workspace), paths=paths, limit=5,
                          record_fetch=False, explain=explain)
        if not explain:
            fast = shape(request)
    assert fast[:2] == shape(request)[:2]


def test_path_bonus_counts_a_gated_one_hit_memory(workspace: Path) -> None:
    # The path bonus is the best text score of any candidate, including one the gate excludes;
    # load sets such one-hit memories aside and must still find that score.
    root = workspace / ".engram"
    write_memory(root, "lonely.md", "---\nid: lonely\ntype: rule\n---\n"
                 + "zebra " * 12 + "\n")
    write_memory(root, "pair.md", "---\nid: pair\ntype: rule\n---\nalpha beta "
                 + "filler words here " * 30 + "\n")
    write_memory(root, "pathy.md", "---\nid: pathy\ntype: rule\napplies_to: ['src/**']\n"
                 "---\nNothing in common with the query.\n")
    write_memory(root, "weakpath.md", "---\nid: weakpath\ntype: rule\napplies_to: ['src/**']\n"
                 "---\nOnly gamma is shared with the query.\n")
    for n in range(6):
        write_memory(root, f"noise{n}.md", f"---\nid: noise{n}\ntype: rule\n---\nunrelated "
                     f"text number {n}\n")
    query = "zebra alpha beta gamma delta"
    fast = Request(query=query, cwd=str(workspace), paths=("src/app.py",), record_fetch=False)
    full = Request(query=query, cwd=str(workspace), paths=("src/app.py",), record_fetch=False,
                   explain=True)
    candidates = {c.memory.id: c for c in build_pack(full).candidates}
    assert candidates["lonely"].excluded == "gate"
    assert candidates["lonely"].bm25 > candidates["pair"].bm25
    items = {i.memory.id: i for i in build_pack(fast).items}
    # A one-hit memory a path trigger routes keeps its text score on top of the bonus.
    assert candidates["weakpath"].bm25 > 0
    assert round(items["weakpath"].score, 9) == round(candidates["weakpath"].score, 9)
    pathy = items["pathy"]
    assert round(pathy.score, 9) == round(candidates["pathy"].score, 9)
    bonus = candidates["lonely"].bm25
    for _, factor in candidates["pathy"].multipliers:
        bonus *= factor
    assert round(pathy.score, 9) == round(bonus, 9)


# -- memories judged and ranked by shared evidence (rank._Pool) -------------------------------
STACKS = ("fastapi", "django", "nextjs", "rails", "gin", "spring")
TOPICS = ("testing", "deployment", "security", "retries", "logging")


def make_templated_corpus(root: Path, count: int, seed: int) -> None:
    """Rule collections filled in from a few templates: thousands of memories share exactly the
    same field counts for a query's words and differ only in length, with exact copies
    (near-duplicate groups), exclusion clauses, lifecycle, roles and path triggers among them."""
    rng = random.Random(seed)
    for n in range(count):
        stack, topic = rng.choice(STACKS), rng.choice(TOPICS)
        family = f"{stack}-{topic}-{n % 40:03d}"
        extra = []
        if n % 13 == 0:
            extra.append("lifecycle: archived")
        if n % 17 == 0:
            extra.append("roles: [sre]")
        if n % 11 == 0:
            extra.append(f"applies_to: ['src/{stack}/**']")
        if n % 9 == 0:
            extra.append("confidence: low")
        head = "\n".join([f"id: {family}-{n:04d}", f"type: {'skill' if n % 5 == 0 else 'rule'}",
                          f"tags: [{stack}, {topic}]",
                          f"triggers: ['add {topic} to the {stack} endpoint']", *extra])
        padding = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 3) * 10))
        # Exact copies of one text (a family's first few) form near-duplicate groups.
        body = (f"Follow the {stack} {topic} rules in every {stack} change. Add {topic} "
                f"checks to each endpoint. {padding if n % 40 >= 8 else ''}")
        if n % 7 == 0:
            body += f"\n\nDo not use for {rng.choice(TOPICS)} in {rng.choice(STACKS)} scripts."
        write_memory(root, f"rules/{family}-{n:04d}.md", f"---\n{head}\n---\n{body}\n")


@pytest.mark.parametrize("query", ["add retries to the fastapi endpoint", "fastapi",
                                   "django security", "add logging to every endpoint change",
                                   "retries in gin scripts deployment testing"])
@pytest.mark.parametrize("limit", [1, 8])
def test_ranking_by_shared_evidence_matches_full_ranking(
        workspace: Path, query: str, limit: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # One record per batch: the pools' bound alone decides what is ranked.
    monkeypatch.setattr(rank, "FINALIZE_BATCH", 1)
    make_templated_corpus(workspace / ".engram", 600, seed=3)
    for paths in ((), ("src/fastapi/app.py",)):
        fast = Request(query=query, cwd=str(workspace), paths=paths, limit=limit,
                       record_fetch=False)
        full = fast._replace(explain=True)
        assert shape(fast)[:2] == shape(full)[:2], paths


def test_pool_bound_is_never_below_a_members_real_score(workspace: Path) -> None:
    # Pools rank their members shortest first and take the next member's score as the bound
    # of every later one: it must hold for the scoring formula as it is.
    make_templated_corpus(workspace / ".engram", 600, seed=5)
    request = Request(query="add retries to the fastapi endpoint", cwd=str(workspace),
                      record_fetch=False)
    ctx = resolve(request)
    scopes = Scopes(ctx)
    try:
        anchors = query_anchors(request.query)
        index = scopes.indexes[0]
        weights = tuple(dict(ctx.config.load_field_weights).get(f, 0.0) for f in FIELDS)
        evidence: dict[int, route.Evidence] = {}
        lengths: dict[int, float] = {}
        route.gather(index.postings(anchors, weights), weights, evidence, lengths)
        corpus = index.corpus()
        stats = rank.CorpusStats(corpus.doc_count,
                                 rank.weighted_len(corpus.tokens, weights) / corpus.doc_count)
        idfs = {t: rank.idf(corpus.doc_count, len(rows.keys))
                for t, rows in index.postings(anchors, weights).items()}
        by_evidence: dict[int, list[int]] = {}
        for key, e in evidence.items():
            by_evidence.setdefault(id(e), []).append(key)
        shared = [keys for keys in by_evidence.values() if len(keys) > 1]
        assert len(shared) >= 5 and max(map(len, shared)) >= 20  # the corpus makes real pools
        for keys in shared:
            e = evidence[keys[0]]
            real = rank.bm25_scores({k: e.tf for k in keys}, lengths, idfs, stats)
            pool = rank._Pool(0, e, list(keys), lengths, {}, idfs, stats)
            while pool.taken < len(pool.keys):
                bound = pool.bound()
                rest = pool.keys[pool.taken:]
                assert all(real[k] * rank._named_bound(e) <= bound for k in rest)
                assert pool.take().bm25 == real[rest[0]]
    finally:
        scopes.close()


def _outcome(scoring: rank.Scoring, scored: list[rank.Scored]) -> tuple[object, ...]:
    ranked = [(s.scope_rank, s.key, s.excluded, s.detail, round(s.score, 9), s.loose)
              for s in scored if s.ranked]
    related = sum(1 for s in scored if s.excluded is None) + scoring.untaken_related()
    return tuple(ranked), related


@pytest.mark.parametrize("query", ["add retries to the fastapi endpoint",
                                   "add logging to every endpoint change"])
def test_widened_ranking_goes_on_exactly_as_ranking_wide_at_once(
        workspace: Path, query: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The pipeline widens the ranked set when a pulled prerequisite was left unranked: going
    # on from the narrow ranking (duplicates marked by it undone) must give what ranking for
    # the wide need from scratch gives.
    monkeypatch.setattr(rank, "FINALIZE_BATCH", 2)
    make_templated_corpus(workspace / ".engram", 600, seed=3)
    request = Request(query=query, cwd=str(workspace), record_fetch=False)
    ctx = resolve(request)
    scopes = Scopes(ctx)
    try:
        anchors = query_anchors(query)
        widened = rank.Scoring(ctx, scopes, anchors, [], False, True, False)
        narrow = widened.score(2)
        wide = widened.score(150)
        at_once = rank.Scoring(ctx, scopes, anchors, [], False, True, False)
        fresh = at_once.score(150)
        assert sum(s.ranked for s in narrow) < sum(s.ranked for s in wide)
        assert _outcome(widened, wide) == _outcome(at_once, fresh)
    finally:
        scopes.close()


def test_widening_undoes_the_duplicates_a_narrow_ranking_marked(
        workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Near-copies ranked one by one (a lifecycle field keeps them out of the shared-evidence
    # pools): a narrow ranking marks a family's unranked copies as duplicates of its ranked
    # one, and a wider ranking must rank them and name the copy they duplicate, as ranking wide
    # at once does.
    monkeypatch.setattr(rank, "FINALIZE_BATCH", 1)
    root = workspace / ".engram"
    rng = random.Random(11)
    filler = [w for w in WORDS if w not in ("retry", "deploy", "queue")]
    for family in range(12):
        # Longer families score lower: a spread the stopping bound can cut.
        words = " ".join(rng.choice(filler) for _ in range(20 + 40 * family))
        for copy in range(3):
            body = f"Retry the deploy queue. {words}" + " review" * copy
            write_memory(root, f"f{family:02d}-{copy}.md",
                         f"---\nid: f{family:02d}-{copy}\ntype: rule\ntags: [deploy]\n"
                         f"valid_until: 2999-01-01\n---\n{body}\n")
    request = Request(query="retry the deploy queue", cwd=str(workspace), record_fetch=False)
    ctx = resolve(request)
    scopes = Scopes(ctx)
    try:
        anchors = query_anchors(request.query)
        widened = rank.Scoring(ctx, scopes, anchors, [], False, True, False)
        narrow = widened.score(2)
        assert any(s.excluded == "duplicate" and not s.ranked for s in narrow)
        wide = widened.score(10)
        at_once = rank.Scoring(ctx, scopes, anchors, [], False, True, False)
        fresh = at_once.score(10)
        assert _outcome(widened, wide) == _outcome(at_once, fresh)
    finally:
        scopes.close()


def load_and_explain(workspace: Path, query: str, monkeypatch: pytest.MonkeyPatch
                     ) -> tuple[tuple[tuple[object, ...], int], tuple[tuple[object, ...], int]]:
    """The pack's shape, and how many records were decoded for it, as `load` builds it and as
    a dry-run (which ranks everything) builds it."""
    decoded: list[int] = []
    real = rank._load_records

    def counted(scopes: Scopes, items: list[rank.Scored], records: dict[object, object]
                ) -> None:
        decoded.append(sum(1 for item in items if item.record is None))
        real(scopes, items, records)  # type: ignore[arg-type]

    monkeypatch.setattr(rank, "_load_records", counted)
    out = []
    for explain in (False, True):
        decoded.clear()
        out.append((shape(Request(query=query, cwd=str(workspace), limit=5, record_fetch=False,
                                  explain=explain)), sum(decoded)))
    return out[0], out[1]


STRIPE = ("stripe.md", "---\nid: stripe-signatures\ntype: rule\ntags: [stripe, webhook]\n"
          "summary: Verify Stripe webhook signatures\n---\n"
          "Check the signature header of every Stripe webhook before the handler runs.\n")
RELEASE_NOTES = ("release-notes.md", "---\nid: release-notes\ntype: rule\ntags: [release]\n"
                 "triggers: [write the release notes]\n---\n"
                 "List every user-visible change under its version heading.\n")


@pytest.mark.parametrize(("seed", "memory", "query", "first", "most_decoded"), [
    # A word no memory holds makes the zero-match rule judge the query; when the evidence
    # shows a memory on its topic that rule keeps everything, so the ranking may stop early as
    # for any other query.
    (5, STRIPE, "verify the stripe webhook signature in the payment handler before qwzxplor runs",
     ["stripe-signatures"], 100),
    # A long prompt about something no memory holds: the rule keeps only the memories the
    # prompt names (read from their heads, not their records), and those few are ranked lazily
    # too; load must not decode the record of every candidate the common words meet.
    (11, RELEASE_NOTES, "before the qwzxplor festival tomorrow, write the release notes for the "
     "blorptastic deploy and tell the zindle team which cache and token changes they should "
     "expect", ["release-notes"], 10),
])
def test_a_long_query_with_unknown_words_ranks_lazily_and_as_full_ranking_does(
        workspace: Path, monkeypatch: pytest.MonkeyPatch, seed: int, memory: tuple[str, str],
        query: str, first: list[str], most_decoded: int) -> None:
    root = workspace / ".engram"
    make_corpus(root, 300, seed=seed)
    write_memory(root, *memory)
    (fast_shape, fast_decoded), (full_shape, full_decoded) = load_and_explain(
        workspace, query, monkeypatch)
    items = fast_shape[0]
    assert isinstance(items, tuple)
    assert [mid for mid, *_ in items][:len(first)] == first
    assert fast_shape[:2] == full_shape[:2]
    assert fast_decoded <= most_decoded and full_decoded > 100


def test_the_names_an_index_keeps_are_the_names_a_record_gives(workspace: Path) -> None:
    # Judging a query's names reads each candidate's id, tag and trigger words as the index
    # keeps them, worked out when the file was indexed; they must be what its record gives,
    # edit after edit.
    root = workspace / ".engram"
    make_corpus(root, 60, seed=3)
    write_memory(root, "gh.md", "---\nid: github-actions-cache\ntype: rule\n"
                 "tags: [ci, GitHub-Actions, next.js]\n"
                 "triggers: [cache the pnpm store, Speed up CI]\n"
                 "---\nCache the pnpm store between workflow runs.\n")
    for edit in ("", "triggers: [restore the build cache]\n"):
        if edit:
            write_memory(root, "gh.md", "---\nid: github-actions-cache\ntype: rule\n"
                         f"tags: [ci]\n{edit}---\nCache the pnpm store.\n")
        scopes = Scopes(resolve(Request(query="cache", cwd=str(workspace))))
        try:
            index = scopes.indexes[0]
            keys = [head.key for head in index.all_heads()]
            kept = index.names(keys)
            for key, record in index.records(keys).items():
                memory = record.memory
                assert kept[key] == tuple(name_words(name) for name in (
                    memory.id, *memory.tags, *memory.triggers)), memory.id
        finally:
            scopes.close()
