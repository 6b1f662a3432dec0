"""engram inside the real Codex 0.171.0: what the model is sent, read from the requests Codex makes
to a recording mock of the Responses API. Hooks are installed by `engram hooks install codex` and
trusted the way Codex records trust (project trust plus each hook's hash from `hooks/list`).

Two scenarios run once per module: three `codex exec` processes (a start and two
`exec resume --last`), and one live `codex app-server` session of several turns with an
`apply_patch` edit and a `thread/compact/start` compaction. The tests read their requests.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from engram import hooklog

from .mock_openai import (
    BASE_MEMORIES,
    AppServer,
    CodexWorld,
    Recorded,
    Run,
    codex_world,
    developer_texts,
    hook_runs,
    inputs,
    item_text,
    position,
    turn,
)

# Beside the base memories: a secret, a knowledge memory and a path rule.
MEMORIES = {
    **BASE_MEMORIES,
    "rules/release-signing.md": """---
id: release-signing
type: rule
directive: Sign release tags with the team key.
tags: [release]
triggers: ["cut a release"]
---
Sign the tag with the release key. Marker: signingbody.
aws_access_key_id = AKIAQ7RZT2MXW4KJ9PLD
""",
    "knowledge/db-migrations.md": """---
id: db-migrations
type: knowledge
summary: Database migrations run before the deploy step.
tags: [database, migrations, deploy]
triggers: ["database migrations"]
---
Alembic migrations run in CI before the deploy job starts. Marker: migrationsbody.
""",
    "rules/api-errors.md": """---
id: api-errors
type: rule
directive: API handlers raise problem+json errors, never return None.
applies_to: ["src/api/**"]
---
Raise NotFound or BadRequest from handlers in src/api. Marker: apierrorsbody.
""",
}
SECRET = "AKIAQ7RZT2MXW4KJ9PLD"
BODY = {"team-style": "teamstylebody", "release-checklist": "releasebody",
        "release-signing": "signingbody", "db-migrations": "migrationsbody",
        "api-errors": "apierrorsbody"}

# Three bodies of about 1,100 tokens each: together over Codex's 2,500-token item limit.
BIG = {f"knowledge/observability-{n}.md": f"""---
id: observability-{n}
type: knowledge
summary: Observability stack, part {n}.
tags: [observability, dashboards, alerting]
triggers: ["observability stack"]
---
""" + f"Part {n} of the observability runbook: check the dashboards, then the alerts. " * 55
       for n in (1, 2, 3)}

CUT_A_RELEASE = "Walk me through how to cut a release"
MIGRATIONS = "How do the database migrations run before deploy?"
AGAIN = "Anything else before I cut a release?"


def count(record: Recorded, memory_id: str) -> int:
    """How many copies of a memory's body the model was sent in one request."""
    return sum(item_text(i).count(BODY[memory_id]) for i in inputs(record))


# ---- three processes: exec, exec resume, exec resume ------------------------------------------


@dataclass
class ExecScenario:
    world: CodexWorld
    start: Run
    resumed: Run
    resumed_again: Run
    big: Run


@pytest.fixture(scope="module")
def execs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ExecScenario]:
    with codex_world(tmp_path_factory.mktemp("codex-exec"), {**MEMORIES, **BIG}) as world:
        start = world.exec(CUT_A_RELEASE)
        resumed = world.exec(MIGRATIONS, resume=True)
        resumed_again = world.exec(AGAIN, resume=True)
        big = world.exec("Set up the observability stack for the new service")
        yield ExecScenario(world, start, resumed, resumed_again, big)


def test_every_run_succeeds_with_one_request_per_turn(execs: ExecScenario) -> None:
    for run in (execs.start, execs.resumed, execs.resumed_again, execs.big):
        assert run.returncode == 0, run.stderr
        assert run.answers == ["ok"] and len(run.requests) == 1
    assert execs.resumed.thread_id == execs.start.thread_id  # a resume keeps the session id


def test_session_pack_follows_the_environment_context(execs: ExecScenario) -> None:
    (request,) = execs.start.requests
    pack = next(t for t in developer_texts(request) if BODY["team-style"] in t)
    assert pack.startswith("engram: loaded 1 new (team-style)\nengram: 8 memories available")
    # Codex puts the session-start context after <environment_context>, before the prompt.
    assert position(request, "<environment_context>") < position(request, BODY["team-style"])
    assert position(request, BODY["team-style"]) < position(request, CUT_A_RELEASE)


def test_prompt_pack_with_its_proof_line_right_after_the_prompt(execs: ExecScenario) -> None:
    (request,) = execs.start.requests
    items = inputs(request)
    prompt_at = position(request, CUT_A_RELEASE)
    after = items[prompt_at + 1]
    assert after.get("role") == "developer"
    text = item_text(after)
    assert text.startswith("engram: loaded 1 new (release-checklist)\n")
    assert BODY["release-checklist"] in text


def test_resume_sends_no_body_twice_and_loses_none(execs: ExecScenario) -> None:
    # `exec resume` replays the whole history, hook context included: a body delivered before
    # the resume is still in the request and must not come again.
    for run in (execs.resumed, execs.resumed_again):
        (request,) = run.requests
        for memory_id in ("team-style", "release-checklist", "db-migrations"):
            assert count(request, memory_id) == 1, (memory_id, developer_texts(request))


def test_resume_loses_no_body(execs: ExecScenario) -> None:
    for run in (execs.resumed, execs.resumed_again):
        (request,) = run.requests
        for memory_id in ("team-style", "release-checklist", "db-migrations"):
            assert count(request, memory_id) >= 1, memory_id


def test_resume_still_delivers_what_is_new(execs: ExecScenario) -> None:
    (request,) = execs.resumed.requests
    last = developer_texts(request)[-1]
    assert last.startswith("engram: loaded 1 new (db-migrations)")


def test_a_secret_memory_never_reaches_the_model(execs: ExecScenario) -> None:
    requests = execs.world.mock.model_requests()
    assert requests
    for request in requests:
        assert SECRET not in request.text() and BODY["release-signing"] not in request.text()
    # engram said so on stderr, which Codex drops: not even the withheld line reaches the model.
    assert all("withheld" not in r.text() for r in requests)
    # It was a match for the prompt, and held back: never delivered, not even as a card.
    entries = hooklog.read(execs.world.state_dir, limit=None)
    assert entries and not any("release-signing" in e.delivered + e.cards for e in entries)


def test_a_pack_over_the_cap_arrives_whole_as_cards(execs: ExecScenario) -> None:
    (request,) = execs.big.requests
    text = developer_texts(request)[-1]
    assert text.startswith("engram: loaded ")
    assert "shown as cards to fit the 2,400-token cap" in text
    for n in (1, 2, 3):
        assert f"observability-{n}" in text
    # Within Codex's 2,500 approximate tokens (4 bytes each) an item is never spilled or cut.
    assert len(text.encode()) / 4 <= 2_500
    assert "truncated" not in text.lower() and "…" not in text


# ---- one live session: app-server turns, a patch, a compaction --------------------------------


@dataclass
class LiveScenario:
    world: CodexWorld
    thread_id: str
    turns: list[list[Recorded]]  # the model requests of each turn, in order
    hooks: list[list[dict[str, Any]]]  # the hook runs of each turn
    compaction: list[Recorded]
    compaction_hooks: list[dict[str, Any]]
    hooks_listed: list[dict[str, Any]]


LIVE_PROMPTS = (CUT_A_RELEASE, "Before I cut a release: " + MIGRATIONS, "PATCH job-7 now",
                "PATCH job-8 now")
AFTER_COMPACTION = "One more time: how do I cut a release?"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveScenario]:
    with codex_world(tmp_path_factory.mktemp("codex-live"), MEMORIES) as world:
        listed = world.hooks_list()
        with world.app() as app:
            thread = app.request("thread/start", {"cwd": str(world.project),
                                                  "sandbox": "workspace-write",
                                                  "approvalPolicy": "never"})
            thread_id = thread["thread"]["id"]
            turns, hooks = [], []
            for prompt in LIVE_PROMPTS:
                before = len(world.mock.model_requests())
                hooks.append(hook_runs(turn(app, thread_id, prompt)))
                turns.append(world.mock.model_requests()[before:])
            before = len(world.mock.model_requests())
            compaction_hooks = hook_runs(compact(app, thread_id))
            compaction = world.mock.model_requests()[before:]
            before = len(world.mock.model_requests())
            hooks.append(hook_runs(turn(app, thread_id, AFTER_COMPACTION)))
            turns.append(world.mock.model_requests()[before:])
        yield LiveScenario(world, thread_id, turns, hooks, compaction, compaction_hooks, listed)


def compact(app: AppServer, thread_id: str) -> list[dict[str, Any]]:
    start = len(app.notifications)
    app.request("thread/compact/start", {"threadId": thread_id})
    app.wait_for(lambda n: n.get("method") == "turn/completed", after=start)
    return app.notifications[start:]


def test_codex_reports_every_hook_trusted(live: LiveScenario) -> None:
    events = sorted(h["eventName"] for h in live.hooks_listed)
    assert events == ["preCompact", "preToolUse", "sessionStart", "subagentStart",
                      "userPromptSubmit"]
    assert {h["trustStatus"] for h in live.hooks_listed} == {"trusted"}
    status = live.world.engram("hooks", "status", "codex").stdout
    assert "codex project: installed" in status and "problem:" not in status


def test_second_prompt_brings_only_new_bodies(live: LiveScenario) -> None:
    (request,) = live.turns[1]
    last = developer_texts(request)[-1]
    assert last.startswith("engram: loaded 1 new (db-migrations); already loaded: "
                           "release-checklist")
    assert BODY["release-checklist"] not in last
    for memory_id in ("team-style", "release-checklist", "db-migrations"):
        assert count(request, memory_id) == 1


def test_apply_patch_brings_its_applies_to_memory_once(live: LiveScenario) -> None:
    first, after_patch = live.turns[2]
    assert count(first, "api-errors") == 0  # the prompt named no path: nothing yet
    items = inputs(after_patch)
    kinds = [i.get("type") for i in items]
    call, output = kinds.index("custom_tool_call"), kinds.index("custom_tool_call_output")
    assert items[call]["name"] == "apply_patch"
    at = position(after_patch, BODY["api-errors"])
    assert call < at < output  # Codex puts PreToolUse context between the call and its output
    assert item_text(items[at]).startswith("engram: loaded 1 new (api-errors)")
    assert (live.world.project / "src/api/users.py").is_file()
    # A second patch under src/api: the memory is in context already and does not come again.
    for request in live.turns[3]:
        assert count(request, "api-errors") == 1


def test_compaction_redelivers_after_not_before(live: LiveScenario) -> None:
    (summary_request,) = live.compaction
    assert "CONTEXT CHECKPOINT COMPACTION" in summary_request.text()
    for memory_id in ("team-style", "release-checklist", "api-errors"):
        assert count(summary_request, memory_id) == 1  # nothing sent again before compacting
    assert [h["eventName"] for h in live.compaction_hooks] == ["preCompact"]
    (request,) = live.turns[-1]
    # After the summary the hook text is gone; the session pack and the prompt's pack return.
    assert count(request, "team-style") == 1 and count(request, "release-checklist") == 1
    summary_at = position(request, "Another language model started to solve this problem")
    assert summary_at < position(request, BODY["team-style"])
    assert [h["eventName"] for h in live.hooks[-1]][:2] == ["sessionStart", "userPromptSubmit"]


def test_hooks_run_well_under_their_timeout(live: LiveScenario) -> None:
    runs = [h for hooks in live.hooks for h in hooks]
    assert runs and {h["status"] for h in runs} == {"completed"}
    assert max(h["durationMs"] for h in runs) < 5_000
