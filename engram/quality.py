"""`engram bench`: routing quality on a cases file, per category and overall, as typed figures.

Every case runs through `pipeline.build_pack` exactly as `load` would; the baseline scores plain
rank_bm25 top-k over the same weighted fields, so each figure has its floor beside it.
"""

from __future__ import annotations

import json
import shutil
import statistics
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from engram.errors import EngramError
from engram.model import Memory, Pack, PackItem
from engram.paths import SCOPE_DIRNAME

ENGRAM = "engram"
ZERO_MATCH = "zero-match"
BM25 = "bm25"
OVERALL = "overall"
BASELINE_EXPAND_TOP = 3  # the baseline pack renders like a default pack: 3 bodies, then cards


class QualityError(EngramError):
    """The cases file or the memories folder cannot be read as a routing benchmark."""


class Case(NamedTuple):
    id: str
    category: str
    query: str
    paths: tuple[str, ...] = ()
    expect: tuple[str, ...] = ()
    expect_any: tuple[str, ...] = ()
    max_from_group: int | None = None
    forbid: tuple[str, ...] = ()
    depends_on: tuple[str, ...] = ()
    acceptable: tuple[str, ...] = ()  # fine to show, not required: relevant for body precision

    @property
    def judges_bodies(self) -> bool:
        """Whether every body in the pack can be called relevant or noise: the case says what
        it needs (or, for zero-match, that nothing applies)."""
        return bool(self.expect or self.expect_any) or self.category == ZERO_MATCH

    def relevant(self) -> set[str]:
        return {*self.expect, *self.expect_any, *self.acceptable, *self.depends_on}


class CaseResult(NamedTuple):
    """One case's pack and verdicts; a verdict is None where the case does not judge it."""

    case: Case
    pack: tuple[str, ...]  # ids in pack order (related cards left out)
    tokens: int
    recall: float | None
    any_ok: bool | None
    forbidden: tuple[str, ...]  # forbid ids that made it into the pack
    empty_ok: bool | None
    order_ok: bool | None
    bodies: tuple[str, ...] = ()  # ids printed in full
    misses: tuple[tuple[str, str], ...] = ()  # (expected id, why it is not in the pack)
    dry_run: str = ""  # report.dry_run of the pack (engram only, verbose only)

    @property
    def noise(self) -> tuple[str, ...]:
        """Bodies the case judges neither needed nor acceptable (empty if it judges none)."""
        if not self.case.judges_bodies:
            return ()
        relevant = self.case.relevant()
        return tuple(b for b in self.bodies if b not in relevant)

    @property
    def passed(self) -> bool:
        return ((self.recall is None or self.recall >= 1.0) and self.any_ok is not False
                and not self.forbidden and self.empty_ok is not False
                and self.order_ok is not False)


class Figures(NamedTuple):
    """The figures of one category (or `overall`); None where no case judges that figure."""

    category: str
    cases: int
    recall: float | None
    any: float | None
    forbid_rate: float | None
    empty_rate: float | None
    order: float | None
    median_tokens: float
    body_precision: float | None = None  # relevant bodies / bodies, over cases that judge them


class QualityResult(NamedTuple):
    scorer: str  # ENGRAM | BM25
    limit: int
    memory_count: int
    cases: tuple[CaseResult, ...]
    figures: tuple[Figures, ...]  # per category (sorted), then overall

    @property
    def overall(self) -> Figures:
        return self.figures[-1]

    def failing(self) -> tuple[CaseResult, ...]:
        return tuple(c for c in self.cases if not c.passed)


class QualityReport(NamedTuple):
    engram: QualityResult
    baseline: QualityResult | None = None
    cases_path: str = ""
    memories_path: str = ""


# -- reading ----------------------------------------------------------------------------------
def read_cases(path: Path) -> list[Case]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise QualityError(f"{path}: cannot read the cases file: {exc}") from exc
    raw = data.get("cases") if isinstance(data, dict) else data
    if not isinstance(raw, list):
        raise QualityError(f"{path}: expected {{\"cases\": [...]}} or a list of cases")
    cases: list[Case] = []
    for n, item in enumerate(raw, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("query", ""), str):
            raise QualityError(f"{path}: case {n}: expected an object with a string `query`")
        group_max = item.get("max_from_group")
        cases.append(Case(
            id=str(item.get("id") or f"case-{n}"),
            category=str(item.get("category") or "uncategorised"),
            query=item.get("query", ""),
            paths=_ids(path, n, item, "paths"),
            expect=_ids(path, n, item, "expect"),
            expect_any=_ids(path, n, item, "expect_any"),
            max_from_group=int(group_max) if isinstance(group_max, int) else None,
            forbid=_ids(path, n, item, "forbid"),
            depends_on=_ids(path, n, item, "depends_on"),
            acceptable=_ids(path, n, item, "acceptable")))
    return cases


def _ids(path: Path, n: int, item: dict[str, Any], key: str) -> tuple[str, ...]:
    value = item.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise QualityError(f"{path}: case {n}: {key}: expected a list of strings")
    return tuple(value)


@contextmanager
def scratch_project(memories: Path) -> Iterator[Path]:
    """A throwaway project whose `.engram/` holds copies of the folder's `*.md` files.

    Copies, not symlinks: discovery rightly refuses symlinks that leave the scope root.
    """
    files = sorted(memories.glob("*.md"))
    if not files:
        raise QualityError(f"{memories}: no *.md memory files")
    with tempfile.TemporaryDirectory(prefix="engram-quality-") as tmp:
        scope = Path(tmp) / SCOPE_DIRNAME
        scope.mkdir()
        for src in files:
            shutil.copyfile(src, scope / src.name)
        yield Path(tmp)


# -- judging ----------------------------------------------------------------------------------
def judge(case: Case, pack_ids: Sequence[str], tokens: int,
          bodies: Sequence[str] = (), graph: Mapping[str, Sequence[str]] | None = None,
          ) -> CaseResult:
    """The case's verdicts for a pack given as ids in pack order (`bodies`: those printed in
    full; `graph`: each memory's depends_on, to know which dependent needs which
    prerequisite)."""
    in_pack = set(pack_ids)
    recall = (sum(1 for e in case.expect if e in in_pack) / len(case.expect)
              if case.expect else None)
    any_ok: bool | None = None
    if case.expect_any:
        hits = sum(1 for e in case.expect_any if e in in_pack)
        any_ok = hits >= 1 and (case.max_from_group is None or hits <= case.max_from_group)
    forbidden = tuple(f for f in case.forbid if f in in_pack)
    empty_ok = not pack_ids if case.category == ZERO_MATCH else None
    order_ok = _order_ok(case, list(pack_ids), graph or {}) if case.depends_on else None
    return CaseResult(case, tuple(pack_ids), tokens, recall, any_ok, forbidden, empty_ok,
                      order_ok, tuple(bodies))


def _order_ok(case: Case, pack_ids: list[str], graph: Mapping[str, Sequence[str]]) -> bool:
    """Every prerequisite in the pack precedes its dependents; required ones must be there.

    Dependents are the expected ids that are not prerequisites: those that need the
    prerequisite (through `graph`, transitively) where any do, else all of them. A prerequisite
    offered as one of alternatives (`expect_any`) need only precede when it is loaded.
    """
    dependents = [e for e in case.expect if e not in case.depends_on]
    if not dependents or any(d not in pack_ids for d in dependents):
        return False
    for prereq in case.depends_on:
        if prereq not in pack_ids:
            if prereq in case.expect:
                return False
            continue
        needing = [d for d in dependents if prereq in _closure(d, graph)] or dependents
        if pack_ids.index(prereq) > min(pack_ids.index(d) for d in needing):
            return False
    return True


def _closure(memory_id: str, graph: Mapping[str, Sequence[str]]) -> set[str]:
    """Every id memory_id depends on, transitively."""
    seen: set[str] = set()
    stack = list(graph.get(memory_id, ()))
    while stack:
        mid = stack.pop()
        if mid not in seen:
            seen.add(mid)
            stack.extend(graph.get(mid, ()))
    return seen


def figures(category: str, results: Sequence[CaseResult]) -> Figures:
    def mean(values: list[float]) -> float | None:
        return sum(values) / len(values) if values else None

    judged = [r for r in results if r.case.judges_bodies]
    bodies = sum(len(r.bodies) for r in judged)
    noise = sum(len(r.noise) for r in judged)

    return Figures(
        category=category, cases=len(results),
        recall=mean([r.recall for r in results if r.recall is not None]),
        any=mean([float(r.any_ok) for r in results if r.any_ok is not None]),
        forbid_rate=mean([float(bool(r.forbidden)) for r in results if r.case.forbid]),
        empty_rate=mean([float(r.empty_ok) for r in results if r.empty_ok is not None]),
        order=mean([float(r.order_ok) for r in results if r.order_ok is not None]),
        median_tokens=float(statistics.median([r.tokens for r in results])) if results else 0.0,
        body_precision=(bodies - noise) / bodies if bodies else None)


def _summarise(scorer: str, limit: int, memory_count: int,
               results: list[CaseResult]) -> QualityResult:
    by_category: dict[str, list[CaseResult]] = {}
    for result in results:
        by_category.setdefault(result.case.category, []).append(result)
    rows = [figures(name, by_category[name]) for name in sorted(by_category)]
    rows.append(figures(OVERALL, results))
    return QualityResult(scorer, limit, memory_count, tuple(results), tuple(rows))


# -- running ----------------------------------------------------------------------------------
def run(cases_path: str | Path, memories: str | Path | None = None, limit: int | None = None,
        baseline: bool = False, verbose: bool = False) -> QualityReport:
    """`engram bench`: every case through the real pipeline against a copy of the memories.

    `memories` defaults to `memories/` beside the cases file; `limit` to the config's pack size
    (8); `baseline` adds plain BM25 top-`limit` over the same fields and tokens.
    """
    cases_file = Path(cases_path)
    folder = Path(memories) if memories is not None else cases_file.parent / "memories"
    if not folder.is_dir():
        raise QualityError(f"{folder}: not a folder of memories (use --memories DIR)")
    cases = read_cases(cases_file)
    with scratch_project(folder) as project:
        graph = _graph(project)
        engram_result = _run_engram(cases, project, limit, verbose, graph)
        base = _run_baseline(cases, project, engram_result.limit, graph) if baseline else None
    return QualityReport(engram_result, base, str(cases_file), str(folder))


def _graph(project: Path) -> dict[str, tuple[str, ...]]:
    from engram import pipeline, scopes

    memories = pipeline.visible_memories(scopes.Request(
        cwd=str(project), workspace=str(project), use_global=False))
    return {m.id: m.depends_on for m in memories}


def _run_engram(cases: list[Case], project: Path, limit: int | None,
                verbose: bool, graph: Mapping[str, Sequence[str]]) -> QualityResult:
    from engram import pipeline, report, scopes
    from engram.render import estimate_tokens, render_pack

    results: list[CaseResult] = []
    resolved = limit
    count = 0
    for case in cases:
        request = scopes.Request(query=case.query, paths=case.paths, cwd=str(project),
                                   workspace=str(project), use_global=False, limit=limit,
                                   record_fetch=False)
        if resolved is None:
            resolved = scopes.resolve(request).config.load_limit
        pack = pipeline.build_pack(request)
        members = [i.memory.id for i in pack.items if i.disclosure != "related"]
        bodies = [i.memory.id for i in pack.items if i.disclosure == "body"]
        result = judge(case, members, estimate_tokens(render_pack(pack).text), bodies, graph)
        if not result.passed:  # rank every candidate, so the reasons cover every expected id
            pack = pipeline.build_pack(request._replace(explain=True))
        results.append(_explained(result, pack, report.dry_run if verbose else None))
    if cases:
        count = len(graph)
    return _summarise(ENGRAM, resolved or 8, count, results)


def _explained(result: CaseResult, pack: Pack,
               dry_run: Callable[[Pack], str] | None) -> CaseResult:
    """Attach why each expected id is missing, and the dry-run, to a failing case."""
    if result.passed:
        return result
    status = {c.memory.id: c.excluded or "related" for c in pack.candidates}
    wanted = [*result.case.expect, *result.case.expect_any]
    misses = tuple((mid, _why(status.get(mid))) for mid in dict.fromkeys(wanted)
                   if mid not in result.pack)
    text = dry_run(pack) if dry_run is not None else ""
    return CaseResult(result.case, result.pack, result.tokens, result.recall, result.any_ok,
                      result.forbidden, result.empty_ok, result.order_ok, result.bodies, misses,
                      text)


def _why(status: str | None) -> str:
    if status is None:
        return "not a candidate (no anchor or path in common)"
    if status == "related":
        return "related, below the pack"
    return f"excluded: {status}"


# -- the baseline -----------------------------------------------------------------------------
def baseline_document(memory: Memory, weights: dict[str, float]) -> list[str]:
    """One memory as plain BM25 sees it: every field's tokens repeated by its integer weight.

    Exclusion clauses stay in their fields: plain BM25 knows nothing of negation.
    """
    from engram.tokenize import tokens

    parts = {
        "id": tokens(memory.id),
        "tags": [t for tag in memory.tags for t in tokens(tag)],
        "directive": tokens(memory.directive or ""),
        "triggers": [t for trig in memory.triggers for t in tokens(trig)],
        "summary": tokens(memory.summary or ""),
        "body": tokens(memory.indexed_body),
    }
    doc: list[str] = []
    for name, toks in parts.items():
        doc.extend(toks * max(0, round(weights.get(name, 0.0))))
    return doc


def _run_baseline(cases: list[Case], project: Path, limit: int,
                  graph: Mapping[str, Sequence[str]]) -> QualityResult:
    from engram import pipeline, rank, scopes
    from engram.render import check_printable, estimate_tokens, render_pack
    from engram.tokenize import anchors

    request = scopes.Request(cwd=str(project), workspace=str(project), use_global=False)
    weights = dict(scopes.resolve(request).config.load_field_weights)
    memories = pipeline.visible_memories(request)
    corpus = [baseline_document(m, weights) for m in memories]
    root = project / SCOPE_DIRNAME
    results: list[CaseResult] = []
    for case in cases:
        query = list(anchors(case.query))
        top = rank.plain_bm25_top(corpus, query, limit) if query else []
        items = []
        for n, i in enumerate(top, start=1):
            mode = "body" if n <= BASELINE_EXPAND_TOP else "card"
            body = check_printable(memories[i], root).body if mode == "body" else ""
            items.append(PackItem(memories[i], mode, 0.0, body=body, rank=n))
        pack = Pack(case.query, tuple(query), tuple(items), len(items))
        results.append(judge(case, [memories[i].id for i in top],
                             estimate_tokens(render_pack(pack).text),
                             [i.memory.id for i in items if i.disclosure == "body"], graph))
    return _summarise(BM25, limit, len(memories), results)


# -- printing ---------------------------------------------------------------------------------
def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def format_text(report: QualityReport, verbose: bool = False) -> str:
    results = [report.engram] + ([report.baseline] if report.baseline else [])
    head = report.engram
    lines = [f"cases: {report.cases_path}  memories: {report.memories_path} "
             f"({head.memory_count})  limit: {head.limit}"]
    rows = [["category", "scorer", "n", "recall", "any", "forbid", "empty", "order", "body-prec",
             "tokens"]]
    for n, fig in enumerate(head.figures):
        for scored in results:
            other = scored.figures[n]
            rows.append([fig.category, scored.scorer, str(other.cases), _cell(other.recall),
                         _cell(other.any), _cell(other.forbid_rate), _cell(other.empty_rate),
                         _cell(other.order), _cell(other.body_precision),
                         f"{other.median_tokens:.0f}"])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        lines.append("  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip())
    failing = head.failing()
    lines.append(f"failing: {len(failing)} of {len(head.cases)}")
    for result in failing:
        lines.extend(_failure_lines(result, verbose))
    if verbose:
        noisy = [r for r in head.cases if r.noise]
        lines.append(f"bodies judged noise: {sum(len(r.noise) for r in noisy)}")
        lines += [f"- {r.case.id} {r.case.query[:60]!r}: {', '.join(r.noise)}" for r in noisy]
    return "\n".join(lines) + "\n"


def _failure_lines(result: CaseResult, verbose: bool) -> list[str]:
    case = result.case
    lines = [f"- {case.id} [{case.category}] {case.query[:80]!r}",
             "    pack: " + (", ".join(result.pack) or "(empty)")]
    lines += [f"    missing {mid}: {why}" for mid, why in result.misses]
    if result.forbidden:
        lines.append("    forbidden in pack: " + ", ".join(result.forbidden))
    if result.any_ok is False:
        lines.append("    any-of failed: " + ", ".join(case.expect_any)
                     + (f" (at most {case.max_from_group})" if case.max_from_group else ""))
    if result.order_ok is False:
        lines.append("    prerequisites out of order: " + ", ".join(case.depends_on))
    if verbose and result.dry_run:
        lines += ["    " + line if line else "" for line in result.dry_run.splitlines()]
    return lines


def to_json(report: QualityReport) -> str:
    def result_doc(result: QualityResult) -> dict[str, Any]:
        return {
            "scorer": result.scorer, "limit": result.limit, "memories": result.memory_count,
            "figures": [f._asdict() for f in result.figures],
            "cases": [{"id": r.case.id, "category": r.case.category, "passed": r.passed,
                       "pack": list(r.pack), "tokens": r.tokens, "recall": r.recall,
                       "any": r.any_ok, "forbidden": list(r.forbidden), "empty": r.empty_ok,
                       "order": r.order_ok, "bodies": list(r.bodies), "noise": list(r.noise),
                       "misses": [list(m) for m in r.misses]}
                      for r in result.cases],
        }

    doc: dict[str, Any] = {"version": 1, "cases_file": report.cases_path,
                           "memories": report.memories_path,
                           "engram": result_doc(report.engram)}
    if report.baseline is not None:
        doc["baseline"] = result_doc(report.baseline)
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"

