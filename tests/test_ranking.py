"""Routing and ranking through the real CLI: tokens, anchors, the gate, path triggers, every
multiplier and every exclusion reason as dry-run shows them, and deterministic order."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from cli_helpers import as_json, candidate, dry, load, mem, ok, printed_ids, put, run

from engram.rank import idf, order_key, reference_bm25

EMPTY = "engram: loaded 0 memory files / 0 total related memories\n"

# --- tokens, seen through routing -----------------------------------------------------------------


def routed(project: Path, query: str, *args: str) -> list[str]:
    return sorted(printed_ids(ok(load(project, "--all", query, *args))))


def test_stemming_makes_deploying_meet_deploy(workspace: Path) -> None:
    put(workspace / ".engram", "r.md", mem("ship-it", tags=["deploy"]))
    assert routed(workspace, "deploying the service") == ["ship-it"]
    assert routed(workspace, "deployment") == ["ship-it"]


@pytest.mark.parametrize("query", ["useCallback", "callback", "usecallback hooks"])
def test_camel_case_identifiers_split_and_kept_whole(workspace: Path, query: str) -> None:
    put(workspace / ".engram", "r.md",
        mem("react-hooks", "knowledge", body="Wrap handlers in `useCallback` here."))
    assert routed(workspace, query) == ["react-hooks"]


@pytest.mark.parametrize("query", ["rate_limit", "limit", "rate-limit", "rate limit"])
def test_snake_case_and_hyphen_identifiers(workspace: Path, query: str) -> None:
    put(workspace / ".engram", "a.md", mem("api-throttle", "knowledge",
                                           body="The `rate_limit` setting caps requests."))
    put(workspace / ".engram", "b.md", mem("limits-tag", "knowledge", tags=["rate-limit"]))
    assert routed(workspace, query) == ["api-throttle", "limits-tag"]


def test_whole_identifier_is_a_token_of_its_own(workspace: Path) -> None:
    workspace_with(workspace, mem("api-throttle", "knowledge", body="The `rate_limit` setting."))
    text, rows = dry(workspace, "rate_limit")
    assert "anchors: rate_limit, rate, limit\n" in text
    assert rows["api-throttle"]["matched"] == "body:limit,rate,rate_limit"
    assert "anchors: usecallback, callback\n" in dry(workspace, "useCallback")[0]


def workspace_with(project: Path, *texts: str) -> Path:
    for n, text in enumerate(texts):
        put(project / ".engram", f"m{n}.md", text)
    return project


def test_cjk_text_is_matched_by_bigrams(workspace: Path) -> None:
    workspace_with(workspace,
                   mem("db-migrate-zh", "knowledge", summary="数据库迁移在部署之前运行。"),
                   mem("other", "knowledge", summary="Unrelated english text."))
    assert routed(workspace, "数据库") == ["db-migrate-zh"]
    assert routed(workspace, "迁移") == ["db-migrate-zh"]
    assert routed(workspace, "缓存") == []


def test_numbers_are_never_anchors_on_their_own(workspace: Path) -> None:
    workspace_with(workspace, mem("retry-429", "knowledge", body="On HTTP 429 retry later."),
                   mem("proto", "knowledge", body="We serve http2 only."))
    text, _ = dry(workspace, "429")
    assert "anchors: (none)" in text
    assert ok(load(workspace, "429")) == EMPTY
    assert routed(workspace, "429 retry") == ["retry-429"]
    # a token mixing letters and digits is a word, and is an anchor
    assert routed(workspace, "ec2") == []
    assert routed(workspace, "http2") == ["proto", "retry-429"]  # http2 is also about HTTP


# --- anchors --------------------------------------------------------------------------------------


def test_stopwords_and_generic_words_are_not_anchors(workspace: Path) -> None:
    workspace_with(workspace, mem("db-migrations", "knowledge", tags=["database"]))
    text, _ = dry(workspace, "please help me with the rules for our database tasks")
    assert "anchors: databas\n" in text


@pytest.mark.parametrize("query", ["please help", "rules and guidelines for the agent",
                                   "memory knowledge notes", "the of and a to"])
def test_a_query_of_only_generic_words_routes_nothing(workspace: Path, query: str) -> None:
    # These memories contain the generic words everywhere; still nothing may route.
    workspace_with(workspace,
                   mem("rules-of-memory", tags=["rules", "memory", "agent", "notes"],
                       summary="Rules and guidelines for the agent's memory knowledge.",
                       body="Please help with these instructions."),
                   mem("skill-notes", "skill", tags=["skills", "knowledge", "task"]))
    out = ok(load(workspace, query))
    assert out == "engram: loaded 0 memory files / 0 total related memories\n"
    text, _ = dry(workspace, query)
    assert "anchors: (none)" in text and "candidates: 0  related: 0  loaded: 0" in text


def test_procedural_words_boost_skills_only(workspace: Path) -> None:
    workspace_with(workspace, mem("deploy-skill", "skill", tags=["deploy"]),
                   mem("deploy-rule", "rule", tags=["deploy"]))
    for query in ("how to deploy", "deploy workflow", "steps to deploy"):
        text, rows = dry(workspace, query)
        assert "anchors: deploy   (procedural: skills x1.2)" in text
        assert "skill1.2" in rows["deploy-skill"]["multipliers"]
        assert "skill1.2" not in rows["deploy-rule"]["multipliers"]
    text, rows = dry(workspace, "deploy")
    assert "procedural" not in text and "skill1.2" not in rows["deploy-skill"]["multipliers"]
    doc = as_json(workspace, "how to deploy")
    assert candidate(doc, "deploy-skill")["score"] == pytest.approx(
        candidate(doc, "deploy-rule")["score"] * 1.2, rel=1e-3)


# --- candidates and the anchor gate ---------------------------------------------------------------

LONG = "postgres replica failover latency"  # four anchors


def test_long_query_needs_two_anchors_or_a_strong_field(workspace: Path) -> None:
    workspace_with(
        workspace,
        mem("weak-body", "knowledge", body="Latency graphs live in grafana."),
        mem("two-in-body", "knowledge", body="Replica latency is watched."),
        mem("strong-tag", "knowledge", tags=["failover"]),
        mem("strong-directive", directive="Page the DBA on postgres trouble."),
        mem("latency", "knowledge", body="Anything."),  # the id is a strong field
        mem("weak-summary", "knowledge", summary="Our replica count."),
    )
    text, rows = dry(workspace, LONG)
    assert rows["weak-body"]["status"] == "excluded: gate"
    assert rows["weak-body"]["multipliers"] == "one weak match for a long query"
    assert rows["weak-summary"]["status"] == "excluded: gate"
    # a directive is a sentence of prose, not the memory's own name for its topic
    assert rows["strong-directive"]["status"] == "excluded: gate"
    for mid in ("two-in-body", "strong-tag", "latency"):
        assert not rows[mid]["status"].startswith("excluded"), rows[mid]
    # three anchors: one weak match anywhere is enough
    _, rows3 = dry(workspace, "replica failover latency")
    assert not rows3["weak-body"]["status"].startswith("excluded")


def test_gate_counts_distinct_anchors_not_occurrences(workspace: Path) -> None:
    workspace_with(workspace, mem("noisy", "knowledge",
                                  body="Latency latency latency latency latency."))
    _, rows = dry(workspace, LONG)
    assert rows["noisy"]["status"] == "excluded: gate"


def test_search_has_no_gate(workspace: Path) -> None:
    workspace_with(workspace, mem("weak-body", "knowledge", body="Latency graphs live here."))
    assert routed(workspace, LONG) == []
    assert "weak-body" in ok(run(["search", LONG], workspace))


# --- path triggers --------------------------------------------------------------------------------


def test_path_trigger_loads_applies_to_memories_and_ranks_them_first(workspace: Path) -> None:
    workspace_with(
        workspace,
        mem("zz-api-style", directive="Return problem+json bodies.",
            applies_to=["src/api/**", "!src/api/legacy/**"], body="Mention errors once."),
        mem("errors-everywhere", tags=["errors", "handler"], directive="Log errors handler.",
            summary="Errors handler errors."),
        mem("unrelated", tags=["cooking"]),
    )
    doc = as_json(workspace, "--path", "src/api/users.py", "errors handler")
    assert [i["id"] for i in doc["items"]] == ["zz-api-style", "errors-everywhere"]
    api = candidate(doc, "zz-api-style")
    other = candidate(doc, "errors-everywhere")
    assert api["path_match"] is True and 0 < api["bm25"] < other["bm25"]
    # the bonus is the query's top BM25 score, so the touched file's rule wins
    # (x0.9 medium, x1.1 workspace, x1.25 named and x1.25 exact: a path match is the strongest
    # evidence)
    assert api["score"] == pytest.approx((api["bm25"] + other["bm25"]) * 0.99 * 1.25 * 1.25,
                                         rel=1e-3)
    text, rows = dry(workspace, "--path", "src/api/users.py", "errors handler")
    assert rows["zz-api-style"]["matched"].startswith("path ")
    assert rows["zz-api-style"]["#"] == "1"
    # the negated glob wins for files below it (gitignore semantics)
    legacy = as_json(workspace, "--path", "src/api/legacy/old.py", "errors handler")
    assert [i["id"] for i in legacy["items"]] == ["errors-everywhere", "zz-api-style"]
    assert candidate(legacy, "zz-api-style")["path_match"] is False


def test_path_only_memory_ties_with_the_top_bm25_memory(workspace: Path) -> None:
    # bonus == top BM25: a memory matched only by its path ties the best text match
    workspace_with(workspace, mem("api-style", applies_to=["src/api/**"]),
                   mem("errors-rule", tags=["errors"]))
    doc = as_json(workspace, "--path", "src/api/users.py", "errors")
    assert candidate(doc, "api-style")["score"] == candidate(doc, "errors-rule")["score"]
    assert [i["id"] for i in doc["items"]] == ["api-style", "errors-rule"]  # tie -> id


def test_path_only_task_uses_a_bonus_of_one(workspace: Path) -> None:
    workspace_with(workspace,
                   mem("changelog-style", applies_to=["CHANGELOG.md"], confidence="high"))
    doc = as_json(workspace, "--path", "CHANGELOG.md")
    assert [i["id"] for i in doc["items"]] == ["changelog-style"]
    # 1.0 x ws1.1 x named1.25 x exact1.25
    assert candidate(doc, "changelog-style")["score"] == pytest.approx(1.1 * 1.25 * 1.25, abs=1e-4)
    assert as_json(workspace, "--path", "README.md")["items"] == []


def test_paths_are_taken_relative_to_the_current_directory(workspace: Path) -> None:
    workspace_with(workspace, mem("api-style", applies_to=["src/api/**"]))
    sub = workspace / "src"
    sub.mkdir()
    assert printed_ids(ok(run(["load", "--path", "api/users.py"], sub))) == ["api-style"]
    absolute = str(workspace / "src" / "api" / "users.py")
    assert printed_ids(ok(run(["load", "--path", absolute], sub))) == ["api-style"]
    assert printed_ids(ok(run(["load", "--path", "users.py"], sub))) == []


def test_a_path_match_passes_the_gate(workspace: Path) -> None:
    workspace_with(workspace, mem("api-style", applies_to=["src/api/**"], body="Latency."))
    _, rows = dry(workspace, "--path", "src/api/x.py", LONG)
    assert not rows["api-style"]["status"].startswith("excluded")


# --- BM25 -----------------------------------------------------------------------------------------


def test_idf_is_positive_even_for_a_term_in_every_document() -> None:
    for n in range(1, 6):
        for df in range(1, n + 1):
            assert idf(n, df) > 0
    assert idf(2, 2) == pytest.approx(math.log(1 + 0.5 / 2.5))


def test_two_memory_corpus_every_matched_anchor_adds(workspace: Path) -> None:
    # Both memories hold "deploy": plain Okapi IDF would be log(0.5/2.5) < 0 here.
    workspace_with(workspace, mem("deploy-a", "knowledge", body="Deploy with care."),
                   mem("deploy-b", "knowledge", body="Deploy the canary, then the fleet."))
    doc = as_json(workspace, "deploy canary")
    a, b = candidate(doc, "deploy-a"), candidate(doc, "deploy-b")
    assert a["bm25"] > 0 and b["bm25"] > 0
    assert [i["id"] for i in doc["items"]] == ["deploy-b", "deploy-a"]
    assert reference_bm25([["deploy"], ["deploy", "canari"]], ["deploy"])[0] > 0


def test_field_weights_order_strong_fields_above_body(workspace: Path) -> None:
    workspace_with(workspace, mem("in-tags", "knowledge", tags=["kafka"], body="Streams."),
                   mem("in-body", "knowledge", body="Kafka streams."))
    doc = as_json(workspace, "kafka")
    assert candidate(doc, "in-tags")["bm25"] > candidate(doc, "in-body")["bm25"]


def test_field_weights_come_from_config(workspace: Path) -> None:
    workspace_with(workspace, mem("in-tags", "knowledge", tags=["kafka"], body="Streams."),
                   mem("in-body", "knowledge", body="Kafka streams, kafka topics."))
    put(workspace / ".engram", "config.yaml",
        "load:\n  field_weights: {id: 0.1, tags: 0.1, directive: 3, triggers: 2, summary: 2,"
        " body: 5}\n")
    doc = as_json(workspace, "kafka")
    assert [i["id"] for i in doc["items"]] == ["in-body", "in-tags"]


# --- multipliers, each shown in dry-run -----------------------------------------------------------


def factors(rows: dict[str, dict[str, str]], mid: str) -> list[str]:
    return rows[mid]["multipliers"].split()


def test_confidence_and_scope_multipliers(workspace: Path, isolated_home: Path) -> None:
    workspace_with(workspace, mem("conf-high", tags=["deploy"], confidence="high"),
                   mem("conf-medium", tags=["deploy"]),
                   mem("conf-low", tags=["deploy"], confidence="low"))
    put(isolated_home, "g.md", mem("global-high", tags=["deploy"], confidence="high"))
    _, rows = dry(workspace, "deploy")
    assert factors(rows, "conf-high") == ["ws1.1", "named1.25"]
    assert factors(rows, "conf-medium") == ["medium0.9", "ws1.1", "named1.25"]
    assert factors(rows, "conf-low") == ["low0.75", "ws1.1", "named1.25"]
    assert rows["global-high"]["multipliers"] == "named1.25"
    doc = as_json(workspace, "deploy")
    for mid, product in (("conf-high", 1.1), ("conf-medium", 0.99), ("conf-low", 0.825),
                         ("global-high", 1.0)):
        c = candidate(doc, mid)
        assert c["score"] == pytest.approx(c["bm25"] * product * 1.25, rel=1e-3), mid
    assert [i["id"] for i in doc["items"]] == ["conf-high", "global-high", "conf-medium",
                                                "conf-low"]


def test_review_due_and_passed_review_after(workspace: Path) -> None:
    workspace_with(workspace,
                   mem("due-flag", tags=["deploy"], confidence="high", lifecycle="review_due"),
                   mem("due-date", tags=["deploy"], confidence="high", review_after="2026-06-01"),
                   mem("not-yet", tags=["deploy"], confidence="high", review_after="2027-06-01"))
    _, rows = dry(workspace, "deploy")
    assert factors(rows, "due-flag") == ["review_due0.7", "ws1.1", "named1.25"]
    assert factors(rows, "due-date") == ["review_due0.7", "ws1.1", "named1.25"]
    assert factors(rows, "not-yet") == ["ws1.1", "named1.25"]


def test_stale_after_verify_and_a_source_edit(workspace: Path) -> None:
    source = workspace / "db" / "schema.sql"
    source.parent.mkdir()
    source.write_text("create table users();\n", encoding="utf-8")
    workspace_with(workspace, mem("schema-notes", "knowledge", tags=["schema"],
                                  confidence="high", sources=["db/schema.sql"],
                                  summary="Users table layout."))
    _, rows = dry(workspace, "schema")
    # no lock entry yet: not stale
    assert factors(rows, "schema-notes") == ["ws1.1", "named1.25", "exact1.25"]
    ok(run(["verify"], workspace))
    _, rows = dry(workspace, "schema")
    assert factors(rows, "schema-notes") == ["ws1.1", "named1.25", "exact1.25"]
    source.write_text("create table users(id int);\n", encoding="utf-8")
    _, rows = dry(workspace, "schema")
    assert factors(rows, "schema-notes") == ["stale0.6", "ws1.1", "named1.25", "exact1.25"]
    assert rows["schema-notes"]["status"] == "body (stale)"
    ok(run(["verify", "schema-notes"], workspace))
    _, rows = dry(workspace, "schema")
    assert factors(rows, "schema-notes") == ["ws1.1", "named1.25", "exact1.25"]
    source.unlink()  # a vanished source is stale too
    _, rows = dry(workspace, "schema")
    assert factors(rows, "schema-notes") == ["stale0.6", "ws1.1", "named1.25", "exact1.25"]


def test_fetched_boost_after_load_id(workspace: Path) -> None:
    # "deploy" is in both memories: a common word, so no `exact`
    workspace_with(workspace, mem("deploy-a", tags=["deploy"], confidence="high"),
                   mem("deploy-b", tags=["deploy"], confidence="high"))
    _, rows = dry(workspace, "deploy")
    assert factors(rows, "deploy-b") == ["ws1.1", "named1.25"]
    assert rows["deploy-a"]["#"] == "1"
    ok(load(workspace, "--dry-run", "--id", "deploy-b"))  # a dry run records nothing
    assert factors(dry(workspace, "deploy")[1], "deploy-b") == ["ws1.1", "named1.25"]
    ok(load(workspace, "--id", "deploy-b"))
    _, rows = dry(workspace, "deploy")
    assert factors(rows, "deploy-b") == ["ws1.1", "fetched1.05", "named1.25"]
    assert rows["deploy-b"]["#"] == "1"  # the boost breaks the tie


def test_fetched_boost_expires_after_30_days(workspace: Path) -> None:
    workspace_with(workspace, mem("deploy-a", tags=["deploy"], confidence="high"))
    ok(run(["load", "--id", "deploy-a"], workspace, env={"ENGRAM_TODAY": "2026-10-01"}))
    assert factors(dry(workspace, "deploy")[1], "deploy-a") == ["ws1.1", "named1.25", "exact1.25"]


def test_a_tag_match_outranks_many_body_words_met_in_passing(workspace: Path) -> None:
    # The error rule's JSON example holds "slot", "another" and "appointment"; the endpoint skill
    # is the one the task is about, and names it in its tags.
    workspace_with(
        workspace,
        mem("api-errors", body="Return {\"code\": \"appointment_slot_taken\"} when another "
                               "request took the slot; let the client retry."),
        mem("drf-endpoint", "skill", tags=["endpoint"], summary="Adding a REST endpoint."),
        mem("other", body="Unrelated."))
    _, rows = dry(workspace, "add an endpoint that lets a receptionist move an appointment "
                             "to another slot")
    assert factors(rows, "drf-endpoint") == ["medium0.9", "ws1.1", "named1.25", "exact1.25"]
    assert rows["drf-endpoint"]["#"] == "1"
    assert "named1.25" not in factors(rows, "api-errors")


# --- exclusions, each with its reason -------------------------------------------------------------


def test_lifecycle_exclusions(workspace: Path) -> None:
    workspace_with(
        workspace,
        mem("expired", tags=["deploy"], valid_until="2026-01-01"),
        mem("future", tags=["deploy"], valid_from="2027-01-01"),
        mem("old-way", tags=["deploy"], lifecycle="superseded", superseded_by="new-way"),
        mem("new-way", tags=["deploy"]),
        mem("archived-one", tags=["deploy"], lifecycle="archived"),
        mem("in-window", tags=["deploy"], valid_from="2026-01-01", valid_until="2026-12-02"),
    )
    _, rows = dry(workspace, "deploy")
    assert rows["expired"]["status"] == "excluded: lifecycle"
    assert rows["expired"]["multipliers"] == "valid_until 2026-01-01"
    assert rows["future"]["multipliers"] == "valid_from 2027-01-01"
    assert rows["old-way"]["multipliers"] == "superseded by new-way"
    assert rows["archived-one"]["multipliers"] == "archived"
    for mid in ("expired", "future", "old-way", "archived-one"):
        assert rows[mid]["status"] == "excluded: lifecycle"
    assert routed(workspace, "deploy") == ["in-window", "new-way"]
    doc = as_json(workspace, "deploy")
    assert {"id": "expired", "reason": "lifecycle"} in doc["excluded"]


def test_role_exclusion(workspace: Path) -> None:
    workspace_with(workspace, mem("maintainers-only", tags=["release"], roles=["maintainer"]),
                   mem("everyone", tags=["release"]))
    _, rows = dry(workspace, "release")
    assert rows["maintainers-only"]["status"] == "excluded: role"
    assert rows["maintainers-only"]["multipliers"] == "roles maintainer"
    assert routed(workspace, "release") == ["everyone"]
    assert routed(workspace, "release", "--role", "maintainer") == ["everyone",
                                                                    "maintainers-only"]
    assert routed(workspace, "release", "--role", "reviewer") == ["everyone"]
    env = run(["load", "--all", "release"], workspace, env={"ENGRAM_ROLE": "maintainer"})
    assert sorted(printed_ids(ok(env))) == ["everyone", "maintainers-only"]


def test_limit_exclusion_and_related_count(workspace: Path) -> None:
    workspace_with(workspace, *(mem(f"deploy-{n:02d}", tags=["deploy"]) for n in range(10)))
    text, rows = dry(workspace, "--limit", "4", "deploy")
    assert "related: 10  loaded: 4" in text
    limited = [mid for mid, row in rows.items() if row["status"] == "related (limit)"]
    assert limited == ["deploy-04", "deploy-05", "deploy-06", "deploy-07", "deploy-08"]
    # the sixth cut memory is beyond the related cards but still a related candidate
    assert rows["deploy-09"]["status"] in ("related", "excluded: limit")
    doc = as_json(workspace, "--limit", "4", "deploy")
    assert {"id": "deploy-09", "reason": "limit"} in doc["excluded"]


WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
         "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo")


def distinct_body(n: int) -> str:
    """A long body that no other memory resembles (near-duplicates are folded into one)."""
    words = [WORDS[(n * 7 + i * (n + 3)) % len(WORDS)] + str(n * 100 + i) for i in range(60)]
    return "Deploy " + " ".join(words) + "."


def test_budget_cut_is_reported(workspace: Path) -> None:
    workspace_with(workspace, *(mem(f"deploy-{n}", tags=["deploy"], summary="Deploy note " * 5,
                                    body=distinct_body(n)) for n in range(4)))
    doc = as_json(workspace, "--budget-tokens", "60", "deploy")
    assert doc["text"].startswith("engram: loaded ")
    shown = {i["id"] for i in doc["items"]}
    assert len(shown) < 4
    reasons = {e["id"]: e["reason"] for e in doc["excluded"]}
    assert all(reasons.get(f"deploy-{n}") == "budget" for n in range(4)
               if f"deploy-{n}" not in shown)


def test_budget_exclusion_is_shown_in_dry_run(workspace: Path) -> None:
    workspace_with(workspace, *(mem(f"deploy-{n}", tags=["deploy"], body=distinct_body(n))
                                for n in range(4)))
    text, rows = dry(workspace, "--budget-tokens", "30", "deploy")
    doc = as_json(workspace, "--budget-tokens", "30", "deploy")
    shown = {i["id"] for i in doc["items"]}
    assert len(shown) < 4
    for n in range(4):
        status = rows[f"deploy-{n}"]["status"]
        assert status == ("card (budget)" if f"deploy-{n}" in shown else "excluded: budget")
    assert f"loaded: {len(shown)}" in text


# --- order ----------------------------------------------------------------------------------------


def test_equal_scores_break_ties_by_id_whatever_the_file_order(workspace: Path) -> None:
    for mid in ("zz-note", "mm-note", "aa-note"):  # created in reverse id order
        put(workspace / ".engram", f"{mid}.md", mem(mid, "knowledge", tags=["deploy"]))
    doc = as_json(workspace, "deploy")
    scores = {candidate(doc, m)["score"] for m in ("zz-note", "mm-note", "aa-note")}
    assert len(scores) == 1
    assert [i["id"] for i in doc["items"]] == ["aa-note", "mm-note", "zz-note"]


def test_order_key_score_then_workspace_then_id() -> None:
    keys = [order_key(1.0, 1, "a"), order_key(1.0, 0, "b"), order_key(2.0, 1, "z"),
            order_key(1.0, 0, "a"), order_key(1.0 + 1e-12, 1, "0")]
    assert sorted(keys) == [order_key(2.0, 1, "z"), order_key(1.0, 0, "a"),
                            order_key(1.0, 0, "b"), order_key(1.0 + 1e-12, 1, "0"),
                            order_key(1.0, 1, "a")]
