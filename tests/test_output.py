"""The rendered pack: count line, bodies, cards, related cards, fetch line, budget, JSON,
and byte-for-byte determinism."""

from __future__ import annotations

import json
import math
import shutil
import tempfile
from pathlib import Path

import pytest
from cli_helpers import (
    body_ids,
    card_ids,
    fetch_ids,
    load,
    mem,
    ok,
    printed_ids,
    put,
    run,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EMPTY = "engram: loaded 0 memory files / 0 total related memories\n"


def write(project: Path, *texts: str) -> None:
    for n, text in enumerate(texts):
        put(project / ".engram", f"m{n:02d}.md", text)


def deploy_notes(project: Path, count: int, **extra: object) -> None:
    write(project, *(mem(f"deploy-{n:02d}", tags=["deploy"], summary=f"Deploy note number {n}.",
                         body=f"Body of deploy note {n}.", **extra) for n in range(count)))


def test_empty_pack_is_the_count_line_alone(workspace: Path) -> None:
    write(workspace, mem("cooking", tags=["pasta"]))
    assert ok(load(workspace, "kubernetes")) == EMPTY
    assert ok(load(workspace)) == EMPTY  # no query and no paths
    empty_project = workspace / "sub"
    (empty_project / ".engram").mkdir(parents=True)
    assert ok(load(empty_project, "anything")) == EMPTY


def test_count_line_bodies_cards_related_and_fetch(workspace: Path) -> None:
    deploy_notes(workspace, 10)
    out = ok(load(workspace, "deploy"))
    lines = out.splitlines()
    assert lines[0] == "engram: loaded 8 memory files / 10 total related memories"
    assert body_ids(out) == ["deploy-00", "deploy-01", "deploy-02"]
    assert "### deploy-00 [rule, instruction]\nBody of deploy note 0.\n\n" in out
    assert card_ids(out) == [f"deploy-{n:02d}" for n in range(3, 10)]
    assert "- deploy-03 [rule] Deploy note number 3.\n" in out
    assert lines[-3:] == ["- deploy-08 [rule] Deploy note number 8.",
                          "- deploy-09 [rule] Deploy note number 9.",
                          "fetch: engram load --id " + ",".join(
                              f"deploy-{n:02d}" for n in range(3, 10))]
    assert lines[lines.index("related, not loaded:") - 1] == "- deploy-07 [rule] Deploy note " \
                                                              "number 7."
    assert out.endswith("\n") and not out.endswith("\n\n")


def test_no_fetch_line_without_cards(workspace: Path) -> None:
    deploy_notes(workspace, 2)
    out = ok(load(workspace, "deploy"))
    assert body_ids(out) == ["deploy-00", "deploy-01"]
    assert "fetch:" not in out and "related, not loaded" not in out


def test_card_text_directive_then_summary_then_first_sentence(workspace: Path) -> None:
    write(workspace,
          mem("a-top", tags=["deploy"], confidence="high", body="Top."),
          mem("b-top", tags=["deploy"], confidence="high", body="Top."),
          mem("c-top", tags=["deploy"], confidence="high", body="Top."),
          mem("d-directive", tags=["deploy"], directive="Deploy on Tuesdays.", summary="No."),
          mem("e-summary", tags=["deploy"], summary="Deploys need a ticket."),
          mem("f-sentence", tags=["deploy"], body="First sentence here. Second one."),
          mem("g-stale", tags=["deploy"], summary="Stale one.", sources=["src.txt"]))
    (workspace / "src.txt").write_text("v1\n", encoding="utf-8")
    ok(run(["verify"], workspace))
    (workspace / "src.txt").write_text("v2\n", encoding="utf-8")
    out = ok(load(workspace, "deploy"))
    assert "- d-directive [rule] Deploy on Tuesdays.\n" in out
    assert "- e-summary [rule] Deploys need a ticket.\n" in out
    assert "- f-sentence [rule] First sentence here.\n" in out
    assert "- g-stale [rule] Stale one. (stale)\n" in out


def test_cards_are_at_most_160_characters(workspace: Path) -> None:
    long_text = "Deploy " + " ".join(f"word{n}" for n in range(80)) + "."
    write(workspace, *(mem(f"top-{n}", tags=["deploy"], confidence="high") for n in range(3)),
          mem("long-card", tags=["deploy"], directive=long_text, sources=["s.txt"]))
    (workspace / "s.txt").write_text("1", encoding="utf-8")
    ok(run(["verify"], workspace))
    (workspace / "s.txt").write_text("2", encoding="utf-8")
    out = ok(load(workspace, "deploy"))
    card = next(line for line in out.splitlines() if line.startswith("- long-card"))
    assert len(card) <= 160
    assert card.endswith("… (stale)")
    assert card.startswith("- long-card [rule] Deploy word0 word1")


def test_hidden_sections_are_never_printed(workspace: Path) -> None:
    body = ("Visible part.\n\n## Context\nWhy: kubernetes quirks.\n\n## Example\nexample text\n\n"
            "## Origin\norigin text\n\n## After\nAlso visible.\n")
    write(workspace, mem("k8s-deploy", tags=["deploy"], body=body))
    for args in (["deploy"], ["--full", "deploy"], ["--all", "deploy"], ["--id", "k8s-deploy"],
                 ["--json", "deploy"]):
        out = ok(load(workspace, *args))
        assert "Visible part." in out and "Also visible." in out, args
        for hidden in ("## Context", "kubernetes quirks", "example text", "origin text",
                       "## Example", "## Origin", "---", "tags:"):
            assert hidden not in out, (args, hidden)
    # `## Context` is still indexed for routing
    assert body_ids(ok(load(workspace, "kubernetes"))) == ["k8s-deploy"]
    assert ok(load(workspace, "origin")) == EMPTY


@pytest.mark.parametrize("flags", [["--full"], ["--disclosure", "full"]])
def test_full_disclosure_prints_every_member_as_a_body(workspace: Path, flags: list[str]) -> None:
    deploy_notes(workspace, 10)
    out = ok(load(workspace, *flags, "deploy"))
    assert body_ids(out) == [f"deploy-{n:02d}" for n in range(8)]
    # the limit still applies: the rest stay related cards
    assert card_ids(out) == ["deploy-08", "deploy-09"]
    assert out.splitlines()[0] == "engram: loaded 8 memory files / 10 total related memories"


def test_disclosure_full_from_config(workspace: Path) -> None:
    deploy_notes(workspace, 4)
    put(workspace / ".engram", "config.yaml", "load:\n  disclosure: full\n  limit: 3\n")
    out = ok(load(workspace, "deploy"))
    assert body_ids(out) == ["deploy-00", "deploy-01", "deploy-02"]
    assert card_ids(out) == ["deploy-03"]


def test_expand_top_flag(workspace: Path) -> None:
    deploy_notes(workspace, 4)
    assert body_ids(ok(load(workspace, "--expand-top", "1", "deploy"))) == ["deploy-00"]
    zero = ok(load(workspace, "--expand-top", "0", "deploy"))
    assert body_ids(zero) == [] and fetch_ids(zero) == [f"deploy-{n:02d}" for n in range(4)]


def test_bodies_and_cards_keep_pack_order(workspace: Path) -> None:
    # a card between bodies: the prerequisite of the 2nd-ranked memory comes before it
    write(workspace,
          mem("alpha", tags=["deploy", "canary"], confidence="high"),
          mem("beta", tags=["deploy", "canary"], depends_on=["base"]),
          mem("base", summary="The base."),
          mem("gamma", tags=["deploy"], confidence="low"))
    out = ok(load(workspace, "--expand-top", "1", "deploy canary"))
    items = [line for line in out.splitlines() if line.startswith(("### ", "- "))]
    assert items == ["### alpha [rule, instruction]", "- base [rule] The base.",
                     "- beta [rule]", "- gamma [rule]"]
    assert fetch_ids(out) == ["base", "beta", "gamma"]


# --- budget ---------------------------------------------------------------------------------


def big_notes(project: Path, count: int) -> None:
    write(project, *(mem(f"deploy-{n:02d}", tags=["deploy"], summary=f"Deploy card {n}.",
                         body="\n".join(f"Line {i} of body {n} " + "x" * (n + i)
                                        for i in range(12))) for n in range(count)))


@pytest.mark.parametrize("budget", [5, 20, 40, 80, 120, 200, 400, 800, 5000])
def test_budget_is_never_exceeded_and_count_and_fetch_lines_stay(workspace: Path,
                                                                 budget: int) -> None:
    big_notes(workspace, 12)
    full = ok(load(workspace, "deploy"))
    out = ok(load(workspace, "--budget-tokens", str(budget), "deploy"))
    first = out.splitlines()[0]
    assert first.startswith("engram: loaded ") and first.endswith(
        " / 12 total related memories")
    if math.ceil(len(first + "\n") / 4) > budget:
        assert out == first + "\n"  # too small even for the count line: the count line alone
        return
    assert math.ceil(len(out) / 4) <= budget
    if out != full:
        # every printed card is in the fetch line, followed by demoted ids the budget dropped
        assert_fetch_line_covers_cards(out)
        for line in out.splitlines()[1:]:
            assert line in full.splitlines() or line.startswith(("- ", "fetch: ", "### "))


def test_budget_demotes_lowest_ranked_bodies_first_then_drops_related_cards(
        workspace: Path) -> None:
    big_notes(workspace, 12)
    full = ok(load(workspace, "deploy"))
    cost = math.ceil(len(full) / 4)
    one_less = ok(load(workspace, "--budget-tokens", str(cost - 1), "deploy"))
    assert body_ids(one_less) == ["deploy-00", "deploy-01"]
    assert "deploy-02" in fetch_ids(one_less)
    cards_only = ok(load(workspace, "--budget-tokens", "140", "deploy"))
    assert body_ids(cards_only) == []
    kept = card_ids(cards_only)
    assert kept[:8] == [f"deploy-{n:02d}" for n in range(8)][:len(kept[:8])]
    assert fetch_ids(cards_only) == kept
    first = cards_only.splitlines()[0]
    assert first.endswith("/ 12 total related memories")


def test_budget_from_config(workspace: Path) -> None:
    big_notes(workspace, 12)
    put(workspace / ".engram", "config.yaml", "load:\n  budget_tokens: 100\n")
    out = ok(load(workspace, "deploy"))
    assert math.ceil(len(out) / 4) <= 100
    assert body_ids(out) == []


# --- JSON -------------------------------------------------------------------------------------


def test_json_shape(workspace: Path) -> None:
    write(workspace, mem("checklist", tags=["release"], depends_on=["base", "ghost"]),
          mem("base", "knowledge", summary="Base facts."),
          mem("expired", tags=["release"], valid_until="2020-01-01"))
    put(workspace / ".engram", "bad.md", "no frontmatter here\n")
    doc = json.loads(ok(load(workspace, "--json", "release")))
    assert doc["version"] == 1 and doc["query"] == "release" and doc["anchors"] == ["releas"]
    assert doc["loaded"] == 2 and doc["related"] == 2
    assert [i["id"] for i in doc["items"]] == ["base", "checklist"]
    item = doc["items"][1]
    assert set(item) == {"id", "type", "scope", "score", "disclosure", "requires", "stale",
                         "text"}
    assert item["requires"] == ["base", "ghost (missing)"] and item["disclosure"] == "body"
    assert item["scope"] == "workspace" and item["type"] == "rule" and item["stale"] is False
    assert item["text"].startswith("### checklist [rule, instruction]\nrequires: base, ")
    assert {"id": "expired", "reason": "lifecycle"} in doc["excluded"]
    assert doc["hidden_by_ignore"] == 0
    assert doc["invalid"] and doc["invalid"][0]["path"].endswith("bad.md")
    assert doc["text"] == ok(load(workspace, "release"))
    assert isinstance(doc["items"][1]["score"], float)


def test_json_of_an_empty_pack(workspace: Path) -> None:
    doc = json.loads(ok(load(workspace, "--json", "please help")))
    assert doc["items"] == [] and doc["loaded"] == 0 and doc["related"] == 0
    assert doc["anchors"] == [] and doc["text"] == EMPTY


# --- determinism ----------------------------------------------------------------------------


FILES = {
    "rules/release.md": mem("release-checklist", tags=["release"], depends_on=["release-base"],
                            body="1. Bump.\n2. Tag."),
    "rules/base.md": mem("release-base", level="foundation", body="Main is releasable."),
    "knowledge/db.md": mem("db-migrations", "knowledge", tags=["release", "database"],
                           summary="Migrations run before the release."),
    "skills/hotfix.md": mem("hotfix", "skill", tags=["release", "hotfix"],
                            summary="Branch hotfixes from the last release tag."),
    "rules/changelog.md": mem("changelog-style", tags=["release"], directive="Imperative."),
}


def make(project: Path, order: list[str]) -> None:
    for rel in order:
        put(project / ".engram", rel, FILES[rel])


@pytest.mark.parametrize("flags", [[], ["--dry-run"], ["--json"], ["--full"], ["--limit", "2"]])
def test_output_is_byte_identical_across_runs_and_file_orders(tmp_path: Path,
                                                              flags: list[str]) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    make(first, sorted(FILES))
    make(second, sorted(FILES, reverse=True))
    query = "cut a release with database migrations"
    a1 = ok(load(first, *flags, query))
    a2 = ok(load(first, *flags, query))
    b1 = ok(load(second, *flags, query))
    assert a1 == a2 == b1
    assert str(tmp_path) not in a1


def test_copied_workspace_gives_the_same_output(tmp_path: Path) -> None:
    first = tmp_path / "first"
    make(first, list(FILES))
    out = ok(load(first, "release"))
    shutil.copytree(first, tmp_path / "copy")  # index copied too: must still be correct
    assert ok(load(tmp_path / "copy", "release")) == out


def test_fetch_line_names_every_demoted_id_even_when_its_card_is_dropped(
        workspace: Path) -> None:
    big_notes(workspace, 12)
    out = ok(load(workspace, "--budget-tokens", "40", "deploy"))
    assert body_ids(out) == []
    for demoted in ("deploy-00", "deploy-01", "deploy-02"):
        assert demoted in fetch_ids(out)


def test_a_pack_too_big_for_its_fetch_line_still_offers_its_best(workspace: Path) -> None:
    # 300 memories whose demoted ids alone overflow the budget: the fetch line keeps the
    # best-ranked ids that fit instead of the pack collapsing to its count line.
    write(workspace, *(mem(f"deploy-{n:03d}", tags=["deploy"], body=f"Deploy note {n}.")
                       for n in range(300)))
    out = ok(load(workspace, "--limit", "300", "--full", "--budget-tokens", "500", "deploy"))
    assert math.ceil(len(out) / 4) <= 500
    offered = fetch_ids(out)
    assert len(offered) > 50
    assert "deploy-000" in offered and "deploy-299" not in offered


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(budget=st.integers(min_value=1, max_value=3000))
def test_property_budget_is_never_exceeded(workspace: Path, budget: int) -> None:
    if not (workspace / ".engram" / "m00.md").exists():
        big_notes(workspace, 12)
    out = ok(load(workspace, "--budget-tokens", str(budget), "deploy"))
    lines = out.splitlines()
    assert lines[0].endswith(" / 12 total related memories")
    assert math.ceil(len(out) / 4) <= budget or out == lines[0] + "\n"
    assert_fetch_line_covers_cards(out)


@pytest.mark.slow  # a property test: many whole workspaces
@settings(max_examples=15, deadline=None)
@given(order=st.permutations(sorted(FILES)))
def test_property_output_independent_of_file_creation_order(order: list[str]) -> None:
    query = "cut a release with database migrations"
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        make(Path(a), sorted(FILES))
        make(Path(b), order)
        for flags in ([], ["--dry-run"]):
            assert ok(load(Path(a), *flags, query)) == ok(load(Path(b), *flags, query))


def assert_fetch_line_covers_cards(out: str) -> None:
    """The fetch line starts with every printed card; what follows was demoted, then dropped."""
    cards, fetched = card_ids(out), fetch_ids(out)
    assert fetched[:len(cards)] == cards
    assert not set(fetched[len(cards):]) & set(printed_ids(out))
