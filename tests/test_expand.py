"""Prerequisite expansion, the compact limit, total related and pack order."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import as_json, body_ids, dry, load, mem, ok, printed_ids, put, run


def write(project: Path, *texts: str) -> None:
    for n, text in enumerate(texts):
        put(project / ".engram", f"m{n:02d}.md", text)


def test_transitive_prerequisites_load_first(workspace: Path) -> None:
    write(workspace,
          mem("release-checklist", tags=["release"], depends_on=["semver-policy"]),
          mem("semver-policy", "knowledge", depends_on=["branch-foundation"],
              body="Semantic versions."),
          mem("branch-foundation", level="foundation", body="Tags come from main."),
          mem("unrelated", tags=["cooking"]))
    out = ok(load(workspace, "release"))
    assert body_ids(out) == ["branch-foundation", "semver-policy", "release-checklist"]
    assert out.splitlines()[0] == "engram: loaded 3 memory files / 3 total related memories"
    assert "### release-checklist [rule, instruction]\nrequires: semver-policy\n" in out
    assert "### semver-policy [knowledge, reference]\nrequires: branch-foundation\n" in out
    text, rows = dry(workspace, "release")
    assert rows["release-checklist"]["#"] == "1"
    assert rows["semver-policy"]["multipliers"] == "prerequisite of #1"
    assert rows["branch-foundation"]["multipliers"] == "prerequisite of #1"


def test_prerequisites_of_lower_layers_come_first(workspace: Path) -> None:
    write(workspace,
          mem("top", tags=["deploy"], depends_on=["mid-b", "mid-a"]),
          mem("mid-a", depends_on=["base"]), mem("mid-b"), mem("base", level="foundation"))
    # layer (depth) first, then id: base and mid-b are layer 0, mid-a is layer 1
    assert printed_ids(ok(load(workspace, "deploy"))) == ["base", "mid-b", "mid-a", "top"]


def test_a_prerequisite_never_displaces_a_better_ranked_memory(workspace: Path) -> None:
    write(workspace,
          mem("best", tags=["deploy", "canary"], confidence="high"),
          mem("second", tags=["deploy"], depends_on=["p1", "p2"]),
          mem("third", tags=["deploy"], confidence="low"),
          mem("p1"), mem("p2"))
    # The limit counts memories related on their own: "second" is the better match, so its
    # group loads (prerequisites first, on top of the limit) and "third" is cut. It used to be
    # the other way round: the dependent lost its place to a worse match for needing two.
    doc = as_json(workspace, "--limit", "2", "deploy canary")
    assert [i["id"] for i in doc["items"] if i["disclosure"] != "related"] == [
        "best", "p1", "p2", "second"]
    assert [i["id"] for i in doc["items"] if i["disclosure"] == "related"] == ["third"]
    # Bodies go to the direct matches first; the one left over to a prerequisite.
    assert [(i["id"], i["disclosure"]) for i in doc["items"][:4]] == [
        ("best", "body"), ("p1", "body"), ("p2", "card"), ("second", "body")]
    doc = as_json(workspace, "--limit", "3", "deploy canary")
    assert [i["id"] for i in doc["items"] if i["disclosure"] != "related"] == [
        "best", "p1", "p2", "second", "third"]


def test_a_memory_never_appears_without_its_prerequisites(workspace: Path) -> None:
    # With a limit of 1 the pack holds two members at most: the group of three cannot fit.
    write(workspace, mem("needs-two", tags=["deploy"], depends_on=["p1", "p2"], confidence="high"),
          mem("p1"), mem("p2"))
    doc = as_json(workspace, "--limit", "1", "deploy")
    assert [i["id"] for i in doc["items"]] == ["needs-two"]
    assert doc["items"][0]["disclosure"] == "related"
    assert doc["loaded"] == 0
    doc = as_json(workspace, "--limit", "2", "deploy")
    assert [i["id"] for i in doc["items"]] == ["p1", "p2", "needs-two"]


def test_default_limit_is_8_and_at_most_5_related_cards(workspace: Path) -> None:
    write(workspace, *(mem(f"deploy-{n:02d}", tags=["deploy"], summary=f"Deploy note {n}.")
                       for n in range(15)))
    out = ok(load(workspace, "deploy"))
    lines = out.splitlines()
    assert lines[0] == "engram: loaded 8 memory files / 15 total related memories"
    assert body_ids(out) == ["deploy-00", "deploy-01", "deploy-02"]
    related = lines[lines.index("related, not loaded:") + 1:-1]
    assert [line.split()[1] for line in related] == [f"deploy-{n:02d}" for n in range(8, 13)]


def test_total_related_counts_pulled_in_prerequisites(workspace: Path) -> None:
    write(workspace, mem("checklist", tags=["release"], depends_on=["foundation"]),
          mem("foundation", tags=["cooking"]), mem("other", tags=["release"]))
    out = ok(load(workspace, "release"))
    assert out.splitlines()[0] == "engram: loaded 3 memory files / 3 total related memories"


def test_missing_prerequisite_is_marked_and_still_loads(workspace: Path) -> None:
    write(workspace, mem("checklist", tags=["release"], depends_on=["ghost", "real"]),
          mem("real"))
    out = ok(load(workspace, "release"))
    assert "### checklist [rule, instruction]\nrequires: ghost (missing), real\n" in out
    assert body_ids(out) == ["real", "checklist"]
    checked = ok(run(["check"], workspace))
    assert "depends_on: prerequisite 'ghost' does not exist (loads without it) (warning)" \
        in checked


def test_invisible_prerequisites_are_not_pulled_in(workspace: Path) -> None:
    write(workspace, mem("checklist", tags=["release"], depends_on=["archived-base", "secret"]),
          mem("archived-base", lifecycle="archived"), mem("secret", roles=["maintainer"]))
    assert printed_ids(ok(load(workspace, "release"))) == ["checklist"]
    assert printed_ids(ok(load(workspace, "--role", "maintainer", "release"))) == [
        "secret", "checklist"]


def test_cycles_still_load_ordered_by_rank(workspace: Path) -> None:
    write(workspace, mem("cycle-a", tags=["deploy"], depends_on=["cycle-b"], confidence="high"),
          mem("cycle-b", tags=["deploy"], depends_on=["cycle-a"]))
    out = ok(load(workspace, "deploy"))
    assert sorted(body_ids(out)) == ["cycle-a", "cycle-b"]
    assert out.splitlines()[0] == "engram: loaded 2 memory files / 2 total related memories"
    checked = run(["check"], workspace)
    assert checked.exit_code == 1
    assert ".engram/m00.md:5: depends_on: dependency cycle with cycle-b" in checked.stdout
    assert "cycles:\n  cycle-a <-> cycle-b" in ok(run(["graph"], workspace))


def test_prerequisites_never_take_a_body_from_a_direct_match(workspace: Path) -> None:
    write(workspace, *(mem(f"deploy-{n}", tags=["deploy"], summary=f"Deploy {n}.")
                       for n in range(5)),
          mem("deploy-top", tags=["deploy", "canary"], depends_on=["base"], confidence="high"),
          mem("base", summary="The base."))
    out = ok(load(workspace, "deploy canary"))
    # Direct matches keep the bodies; the prerequisite still comes first, as a card, with
    # `requires:` on its dependent.
    assert printed_ids(out)[:2] == ["base", "deploy-top"]
    assert body_ids(out) == ["deploy-top", "deploy-0", "deploy-1"]
    assert "- base [" in out and "requires: base" in out
    single = ok(load(workspace, "--expand-top", "1", "deploy canary"))
    assert body_ids(single) == ["deploy-top"]
    assert "- base [" in single and "requires: base" in single
    # Bodies to spare go to the prerequisites.
    assert body_ids(ok(load(workspace, "--expand-top", "7", "deploy canary")))[:2] == [
        "base", "deploy-top"]


def test_a_prerequisite_met_on_thin_evidence_gets_a_spare_body(workspace: Path) -> None:
    write(workspace,
          mem("scheduling", tags=["scheduling", "slots"], summary="How slots are booked.",
              depends_on=["time-zones"], body="Slots come from availability rules."),
          mem("time-zones", summary="Datetimes are stored in UTC.",
              body="A slot shown to a practitioner is in the clinic time zone."),
          *(mem(f"note-{n}", summary=f"Unrelated note {n}.", body="Nothing to see.")
            for n in range(5)))
    # The time zone rule meets "slot" once, in its body: thin evidence, a card on its own. It
    # is also what the scheduling memory printed in full depends on, and bodies are to spare;
    # a prerequisite comes first.
    assert body_ids(ok(load(workspace, "slot is shifted"))) == ["time-zones", "scheduling"]


def test_all_has_no_limit_and_every_member_is_a_body(workspace: Path) -> None:
    write(workspace, *(mem(f"deploy-{n:02d}", tags=["deploy"]) for n in range(12)))
    out = ok(load(workspace, "--all", "deploy"))
    assert out.splitlines()[0] == "engram: loaded 12 memory files / 12 total related memories"
    assert len(body_ids(out)) == 12 and "fetch:" not in out


def chain(project: Path, depth: int) -> list[str]:
    """A depends_on chain step-00000 <- step-00001 <- ... written as real files; its ids."""
    ids = [f"step-{n:05d}" for n in range(depth)]
    for n, mid in enumerate(ids):
        extra = {"depends_on": [ids[n - 1]]} if n else {}
        tags = ["rung"] if n == 6 else []
        put(project / ".engram", f"{mid}.md",
            mem(mid, tags=tags, summary=f"Ladder step {n}.", body=f"Step {n}.", **extra))
    return ids


@pytest.mark.slow  # a chain hundreds deep, indexed cold
def test_a_deep_chain_expands_whole_and_in_order(workspace: Path) -> None:
    # 3,000 deep: expansion walks each link once (it was quadratic, 6 s warm), and the pack is
    # still complete and prerequisite-first wherever the group fits.
    ids = chain(workspace, 3000)
    assert printed_ids(ok(load(workspace, "rung"))) == ids[:7]
    doc = as_json(workspace, "--limit", "3000", "step-02999")
    assert [i["id"] for i in doc["items"] if i["disclosure"] != "related"] == ids
    # Under the default limit the tail's group of 3,000 cannot fit: it stays a related card,
    # never shown without its prerequisites.
    doc = as_json(workspace, "step-02999")
    assert [(i["id"], i["disclosure"]) for i in doc["items"]] == [("step-02999", "related")]
    # A query every step matches: whole groups from the chain's foundation up, in order.
    assert printed_ids(ok(load(workspace, "ladder step")))[:8] == ids[:8]
