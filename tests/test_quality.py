"""`engram bench` on a small fixture set whose answers are known: figures per category and
overall, failing cases with their reasons, the BM25 baseline, and the command's outputs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_helpers import dev_set, ok, run

from engram import quality

FIXTURE = Path(__file__).parent / "fixtures" / "quality"
CASES = FIXTURE / "cases.json"


@pytest.fixture(scope="module")
def report() -> quality.QualityReport:
    return quality.run(CASES, baseline=True)


def by_category(result: quality.QualityResult) -> dict[str, quality.Figures]:
    return {f.category: f for f in result.figures}


def test_every_routing_behaviour_scores_as_designed(report: quality.QualityReport) -> None:
    figures = by_category(report.engram)
    assert report.engram.memory_count == 12
    assert report.engram.limit == 8
    assert figures["path-trigger"].recall == 1.0
    assert figures["exact-id"].recall == 1.0
    assert figures["trigger-phrase"].recall == 1.0
    assert figures["dependency-chain"].order == 1.0
    assert figures["negation"].forbid_rate == 0.0
    assert figures["negation"].recall == 1.0
    assert figures["duplicate"].any == 1.0
    assert figures["zero-match"].empty_rate == 1.0
    assert figures["zero-match"].median_tokens == 15  # the count line alone


def test_overall_figures_average_the_cases_that_judge_each(report: quality.QualityReport) -> None:
    overall = report.engram.overall
    assert overall.category == quality.OVERALL
    assert overall.cases == 9
    # Seven cases carry `expect`; the deliberate miss scores 0, the rest 1.
    assert overall.recall == pytest.approx(6 / 7)
    assert overall.any == 1.0
    assert overall.forbid_rate == 0.0
    assert overall.empty_rate == 1.0
    assert overall.order == 1.0


def test_a_failing_case_says_why_each_expected_id_is_missing(report: quality.QualityReport) -> None:
    failing = report.engram.failing()
    assert [r.case.id for r in failing] == ["fx-miss-001"]
    assert failing[0].misses == (("code-review", "not a candidate (no anchor or path in common)"),)


def test_pack_order_puts_the_prerequisite_first(report: quality.QualityReport) -> None:
    case = next(r for r in report.engram.cases if r.case.id == "fx-dep-001")
    assert case.pack.index("release-checklist") < case.pack.index("deploy-production")


def test_the_baseline_is_plain_bm25_and_falls_into_every_trap(
        report: quality.QualityReport) -> None:
    assert report.baseline is not None
    figures = by_category(report.baseline)
    assert report.baseline.scorer == quality.BM25
    assert figures["negation"].forbid_rate == 1.0  # the clause is a lexical trap
    assert figures["zero-match"].empty_rate == 0.0  # BM25 always finds some overlap
    assert figures["duplicate"].any == 0.0  # both copies, over max_from_group
    assert figures["dependency-chain"].order == 0.0  # rank order, prerequisite after
    assert figures["exact-id"].recall == 1.0


def test_cli_prints_the_table_and_the_failures(tmp_path: Path) -> None:
    text = ok(run(["bench", str(CASES), "--baseline"], tmp_path))
    lines = text.splitlines()
    assert lines[1].split() == ["category", "scorer", "n", "recall", "any", "forbid", "empty",
                                "order", "body-prec", "tokens"]
    assert any(line.split()[:4] == ["overall", "engram", "9", "0.86"] for line in lines)
    assert any(line.split()[:2] == ["overall", "bm25"] for line in lines)
    assert "failing: 1 of 9" in text
    assert "missing code-review: not a candidate" in text


def test_cli_json_and_verbose(tmp_path: Path) -> None:
    doc = json.loads(ok(run(["bench", str(CASES), "--json"], tmp_path)))
    assert doc["engram"]["figures"][-1]["category"] == "overall"
    assert "baseline" not in doc
    cases = {c["id"]: c for c in doc["engram"]["cases"]}
    assert cases["fx-zero-001"]["pack"] == [] and cases["fx-zero-001"]["passed"]
    verbose = ok(run(["bench", str(CASES), "--verbose"], tmp_path))
    assert "    query: page the on-call engineer" in verbose  # the dry-run of the failure


def test_limit_and_an_explicit_memories_folder(tmp_path: Path) -> None:
    shutil.copytree(FIXTURE / "memories", tmp_path / "mems")
    (tmp_path / "cases.json").write_text(CASES.read_text(encoding="utf-8"), encoding="utf-8")
    result = quality.run(tmp_path / "cases.json", tmp_path / "mems", limit=1).engram
    dep = next(r for r in result.cases if r.case.id == "fx-dep-001")
    assert result.limit == 1
    assert len(dep.pack) <= 1 and dep.order_ok is False  # no room for the pair


def test_a_missing_memories_folder_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "cases.json").write_text('{"cases": []}', encoding="utf-8")
    result = run(["bench", str(tmp_path / "cases.json")], tmp_path)
    assert result.exit_code == 1
    assert "memories: not a folder of memories" in result.stderr


def test_a_malformed_case_names_its_position(tmp_path: Path) -> None:
    (tmp_path / "cases.json").write_text('{"cases": [{"query": "x", "expect": "a"}]}',
                                         encoding="utf-8")
    with pytest.raises(quality.QualityError, match=r"case 1: expect: expected a list of strings"):
        quality.read_cases(tmp_path / "cases.json")


# -- judging, case by case ------------------------------------------------------------------------
def case(**fields: object) -> quality.Case:
    base: dict[str, object] = {"id": "c", "category": "x", "query": "q"}
    return quality.Case(**(base | fields))  # type: ignore[arg-type]


def test_any_of_needs_one_and_at_most_max_from_group() -> None:
    group = case(expect_any=("a", "b"), max_from_group=1)
    assert quality.judge(group, ["a", "z"], 1).any_ok is True
    assert quality.judge(group, ["a", "b"], 1).any_ok is False
    assert quality.judge(group, ["z"], 1).any_ok is False
    assert quality.judge(case(expect_any=("a", "b")), ["a", "b"], 1).any_ok is True


def test_order_accepts_alternatives_but_not_a_late_or_missing_prerequisite() -> None:
    chain = case(expect=("dep", "pre"), depends_on=("pre",))
    assert quality.judge(chain, ["pre", "dep"], 1).order_ok is True
    assert quality.judge(chain, ["dep", "pre"], 1).order_ok is False
    assert quality.judge(chain, ["dep"], 1).order_ok is False
    either = case(expect=("dep",), expect_any=("p1", "p2"), depends_on=("p1", "p2"))
    assert quality.judge(either, ["p2", "dep"], 1).order_ok is True
    assert quality.judge(either, ["dep", "p2"], 1).order_ok is False


def test_zero_match_passes_only_when_empty_and_recall_is_per_case() -> None:
    zero = case(category="zero-match")
    assert quality.judge(zero, [], 15).empty_ok is True
    assert quality.judge(zero, ["a"], 15).passed is False
    assert quality.judge(case(expect=("a", "b")), ["b"], 1).recall == 0.5
    assert quality.judge(case(forbid=("f",)), ["f"], 1).forbidden == ("f",)


@pytest.mark.slow  # the development set, whole
def test_the_development_set_does_not_regress() -> None:
    # The public development set (../shared/bench/dev): routing stays where it is (one
    # trigger-phrase case shares no word with its memory) and far above plain BM25.
    result = quality.run(dev_set() / "cases.json", baseline=True)
    overall, plain = result.engram.overall, result.baseline.overall if result.baseline else None
    assert result.engram.memory_count == 141 and overall.cases == 55
    assert overall.recall is not None and overall.recall >= 0.95
    assert (overall.any, overall.forbid_rate, overall.empty_rate, overall.order) == \
        (1.0, 0.0, 1.0, 1.0)
    assert len(result.engram.failing()) <= 2
    assert plain is not None and plain.recall is not None and plain.recall < overall.recall - 0.1


def test_body_precision_counts_bodies_neither_expected_nor_acceptable() -> None:
    judged = quality.judge(case(expect=("a",), acceptable=("b",), depends_on=("p",)),
                         ["p", "a", "b", "c"], 1, bodies=["a", "b", "c"])
    assert judged.noise == ("c",)
    empty = quality.judge(case(category="zero-match"), ["x"], 1, bodies=["x"])
    assert empty.noise == ("x",)  # nothing applies to a zero-match prompt
    unjudged = quality.judge(case(forbid=("f",)), ["x"], 1, bodies=["x"])
    assert unjudged.noise == ()  # a case without expectations judges no body
    fig = quality.figures("overall", [judged, empty, unjudged])
    assert fig.body_precision == pytest.approx(2 / 4)


OUR_SET = Path(__file__).parent.parent / "bench" / "routing"


@pytest.mark.slow  # our routing set, whole
def test_our_routing_set_scores_at_least_what_docs_routing_md_says() -> None:
    # Our own set (bench/routing, hand-judged prompts): a floor under the figures in
    # docs/routing.md, so a routing change that loses them fails here first.
    result = quality.run(OUR_SET / "cases.json", baseline=True)
    overall = result.engram.overall
    assert result.engram.memory_count == 47 and overall.cases == 58
    assert overall.recall is not None and overall.recall >= 0.95
    assert overall.forbid_rate == 0.0 and overall.empty_rate == 1.0
    # Wherever a dependent is in the pack, its prerequisites precede it (the order figure also
    # fails a case whose dependent is missing, which recall already counts).
    for r in result.engram.cases:
        dependents = [e for e in r.case.expect if e not in r.case.depends_on]
        if r.case.depends_on and dependents and all(d in r.pack for d in dependents):
            assert r.order_ok, r.case.id
    plain = result.baseline.overall if result.baseline else None
    assert plain is not None and plain.body_precision is not None
    assert overall.body_precision is not None and overall.body_precision > plain.body_precision


@pytest.mark.slow  # the development set's memories, against our own zero-match prompts
def test_prompts_about_nothing_the_development_set_holds_mostly_come_back_empty() -> None:
    # bench/routing/dev-zero-match.json: libraries and tools no development memory mentions,
    # written by hand before engram ran on them (docs/routing.md gives the figure).
    result = quality.run(OUR_SET / "dev-zero-match.json", dev_set() / "memories", limit=5)
    assert result.engram.overall.empty_rate is not None
    assert result.engram.overall.empty_rate >= 0.5
