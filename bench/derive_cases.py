"""Routing cases derived mechanically from any folder of memories, for measuring how routing
generalises beyond a hand-judged set of a few dozen cases.

    python bench/derive_cases.py MEMORIES [--folds 3] [--limit 5] [--out DIR] [--seed 7]

The rules follow the way public routing sets are built from rule and skill collections (a
memory's own words, withheld from it, as the query):

- description-holdout: a rule's summary of 8+ words is the query and is removed from that
  memory (its id, tags, globs and body stay);
- trigger-phrase: one of a skill's two or more trigger phrases is the query, removed from it;
- body-sentence: one prose sentence of a body (7-25 words, no code, links or paths, a word in
  at most two bodies, at most half of its content words in the memory's own fields);
- mixed-intent: two such sentences of memories with disjoint fields, joined with "; also, ";
- dependency-chain: a memory with `depends_on` queried by its summary; expects it and every
  visible prerequisite, which must precede it;
- negation: an exclusion clause of a memory's summary (four words or more), verbatim, as the
  query ("Do not use it for commit messages"); that memory is forbidden.

Withheld text must not be visible to any case, so the memories are split into `--folds`
corpora: each withholds the summaries and triggers of its own third and is judged on them.
Every case is scored by `engram bench` (engram and plain BM25 top `--limit`) and the figures
are summed over the folds, per category. Nothing here is judged by hand: it measures whether
routing finds a memory by its own words, not whether a pack is what a developer would choose.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import frontmatter

from engram import quality
from engram.clauses import negation_clauses
from engram.tokenize import anchors

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_CODEY = re.compile(r"[`{}<>\[\]()|=/\\]|https?:|\w\.\w|\*\*|#")


def _sentences(body: str) -> list[str]:
    prose: list[str] = []
    fenced = False
    for line in body.splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
            continue
        stripped = line.strip().lstrip("-*0123456789. ")
        if fenced or not stripped or stripped.startswith(("#", "|", ">")):
            continue
        prose.extend(_SENTENCE.split(stripped))
    return [s.strip() for s in prose if 7 <= len(s.split()) <= 25 and not _CODEY.search(s)]


def _strs(meta: dict[str, Any], key: str) -> list[str]:
    value = meta.get(key) or []
    return [str(v) for v in value] if isinstance(value, list) else []


def _field_terms(post: frontmatter.Post) -> set[str]:
    meta = post.metadata
    text = " ".join([str(meta.get("id", "")), " ".join(_strs(meta, "tags")),
                     str(meta.get("summary") or ""), " ".join(_strs(meta, "triggers")),
                     str(meta.get("directive") or "")])
    return set(anchors(text))


def derive(folder: Path, folds: int, seed: int) -> list[tuple[dict[str, frontmatter.Post],
                                                          list[dict[str, Any]]]]:
    posts = {p.stem: frontmatter.load(str(p)) for p in sorted(folder.glob("*.md"))}
    ids = {stem: str(post.metadata.get("id", stem)) for stem, post in posts.items()}
    rng = random.Random(seed)
    order = sorted(posts)
    rng.shuffle(order)
    fold_of = {stem: n % folds for n, stem in enumerate(order)}
    body_df: dict[str, int] = defaultdict(int)
    for post in posts.values():
        for term in set(anchors(post.content)):
            body_df[term] += 1
    out: list[tuple[dict[str, frontmatter.Post], list[dict[str, Any]]]] = []
    for fold in range(folds):
        copies = {stem: frontmatter.Post(post.content, None, **dict(post.metadata))
                  for stem, post in posts.items()}
        cases: list[dict[str, Any]] = []
        for stem in sorted(posts):
            if fold_of[stem] != fold:
                continue
            meta, mid = copies[stem].metadata, ids[stem]
            summary = str(meta.get("summary") or "")
            if (meta.get("type") == "rule" and len(summary.split()) >= 8
                    and not meta.get("depends_on")):
                del meta["summary"]
                cases.append({"category": "description-holdout", "query": summary,
                              "expect": [mid]})
            triggers = _strs(meta, "triggers")
            if len(triggers) >= 2:
                pick = rng.choice(triggers)
                meta["triggers"] = [t for t in triggers if t != pick]
                cases.append({"category": "trigger-phrase", "query": pick, "expect": [mid]})
        sentences: dict[str, list[str]] = {}
        for stem in sorted(posts):
            if fold_of[stem] != fold:
                continue
            own = _field_terms(posts[stem])
            good = []
            for sentence in _sentences(posts[stem].content):
                terms = set(anchors(sentence))
                if (terms and any(body_df[t] <= 2 for t in terms)
                        and len(terms & own) <= len(terms) / 2):
                    good.append(sentence)
            if good:
                sentences[stem] = good
                cases.append({"category": "body-sentence", "query": rng.choice(good),
                              "expect": [ids[stem]]})
        stems = sorted(sentences)
        for stem in stems:
            others = [o for o in stems if o != stem and not (
                _field_terms(posts[o]) & _field_terms(posts[stem]))]
            if others and rng.random() < 0.4:
                other = rng.choice(others)
                query = rng.choice(sentences[stem]).rstrip(".") + "; also, " + rng.choice(
                    sentences[other])
                cases.append({"category": "mixed-intent", "query": query,
                              "expect": [ids[stem], ids[other]]})
        for stem in sorted(posts):
            meta = posts[stem].metadata
            needs = [d for d in _strs(meta, "depends_on") if d in ids.values()]
            if fold == 0 and needs and meta.get("summary"):
                cases.append({"category": "dependency-chain", "query": str(meta["summary"]),
                              "expect": [ids[stem], *needs], "depends_on": needs})
            if fold == 0:
                for clause in negation_clauses(str(meta.get("summary") or "")):
                    if len(clause.split()) >= 4:
                        cases.append({"category": "negation", "query": clause, "expect": [],
                                      "forbid": [ids[stem]]})
        for n, case in enumerate(cases, start=1):
            case["id"] = f"f{fold}-{n:03d}"
        out.append((copies, cases))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("memories", type=Path)
    parser.add_argument("--folds", type=int, default=3)
    parser.add_argument("--limit", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, help="keep the derived folds here")
    parser.add_argument("--verbose", action="store_true", help="list every failing case")
    args = parser.parse_args(argv)
    work = args.out or Path(tempfile.mkdtemp(prefix="engram-derived-"))
    totals: dict[tuple[str, str], list[float]] = defaultdict(list)
    failures: list[str] = []
    for fold, (copies, cases) in enumerate(derive(args.memories, args.folds, args.seed)):
        where = work / f"fold{fold}"
        shutil.rmtree(where, ignore_errors=True)
        (where / "memories").mkdir(parents=True)
        for stem, post in copies.items():
            (where / "memories" / f"{stem}.md").write_text(frontmatter.dumps(post) + "\n",
                                                          encoding="utf-8")
        (where / "cases.json").write_text(json.dumps({"cases": cases}, indent=1),
                                          encoding="utf-8")
        report = quality.run(where / "cases.json", limit=args.limit, baseline=True)
        for result in (report.engram, report.baseline):
            assert result is not None
            for case in result.cases:
                for key, value in (("recall", case.recall), ("order", case.order_ok),
                                   ("forbid", bool(case.forbidden) if case.case.forbid
                                    else None)):
                    if value is not None:
                        totals[(result.scorer, case.case.category + ":" + key)].append(
                            float(value))
                        totals[(result.scorer, "overall:" + key)].append(float(value))
                prec = (len(case.bodies) - len(case.noise), len(case.bodies))
                totals[(result.scorer, case.case.category + ":bodies")].append(prec[1])
                totals[(result.scorer, case.case.category + ":relevant")].append(prec[0])
        failures += [f"{c.case.id} [{c.case.category}] {c.case.query[:90]!r} pack: "
                     f"{', '.join(c.pack)} missing: {', '.join(f'{m}({w})' for m, w in c.misses)}"
                     for c in report.engram.failing()]
    keys = sorted({k for _, k in totals if not k.endswith((":bodies", ":relevant"))})
    print(f"derived from {args.memories}, {args.folds} folds, limit {args.limit}: {work}")
    print(f"{'figure':34} {'n':>4} {'engram':>7} {'bm25':>7}")
    for key in keys:
        mine, base = totals[("engram", key)], totals[("bm25", key)]
        print(f"{key:34} {len(mine):4d} {sum(mine) / len(mine):7.3f} "
              f"{sum(base) / len(base) if base else float('nan'):7.3f}")
    if args.verbose:
        print("\n".join(failures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
