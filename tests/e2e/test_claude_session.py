"""Claude Code 2.1.197, for real: what the model is sent across one working session.

One project, four Claude processes, run once for the module: a live session of two prompts
(stream-json input, one process), a resume of it in a new process, a subagent, and a session
with a refused and a real `/compact`. Every assertion reads the requests the mock model API
recorded.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from .conftest import Scratch
from .mock_anthropic import (
    AnthropicMock,
    ClaudeRun,
    Script,
    anthropic_mock,
    claude_project,
    hook_contexts,
    run_claude,
    transcript,
    turn_request,
)

SESSION_ID = "5e551011-0000-4000-8000-000000000001"
SECRET = "AKIAZ7Q3R5T8W2X4Y6V1"

BODIES = {
    "team-style": "Answer in short paragraphs and name every file you touch.",
    "release-foundation": "Every release follows semver: breaking changes bump the major.",
    "release-checklist": "Update CHANGELOG.md, run the full suite, then tag vX.Y.Z.",
    "deploy-service": "Run scripts/deploy.sh staging, watch the dashboard, then production.",
    "db-migrations": "Alembic migrations run in CI before the deploy job starts.",
}
MEMORIES = {
    "rules/team-style.md": f"""---
id: team-style
type: rule
directive: Short answers that name the files touched.
load: always
---
{BODIES['team-style']}
""",
    "rules/release-foundation.md": f"""---
id: release-foundation
type: rule
directive: Releases follow semantic versioning.
level: foundation
tags: [release]
---
{BODIES['release-foundation']}
""",
    "rules/release-checklist.md": f"""---
id: release-checklist
type: rule
directive: Run the release checklist before tagging a version.
tags: [release, tag, changelog]
triggers: ["cut a release"]
---
{BODIES['release-checklist']}
""",
    "skills/deploy.md": f"""---
id: deploy-service
type: skill
directive: Deploy with scripts/deploy.sh, never by hand.
tags: [deploy, staging]
triggers: ["deploy"]
---
{BODIES['deploy-service']}
""",
    "knowledge/db-migrations.md": f"""---
id: db-migrations
type: knowledge
summary: Database migrations run before the deploy step.
tags: [database, migrations]
triggers: ["database migrations"]
---
{BODIES['db-migrations']}
""",
    "knowledge/deploy-credentials.md": f"""---
id: deploy-credentials
type: knowledge
summary: Credentials the deploy script uses for staging.
tags: [deploy, staging, credentials]
triggers: ["deploy"]
---
The staging deploy uses the access key {SECRET} from the team vault.
""",
}
PROMPT_1 = "How do we cut a release?"
PROMPT_2 = "Cut a release, then deploy it to staging."
PROMPT_3 = "Cut a release and deploy it, and check the database migrations first."
PROMPT_SUB = "Ask a helper to look for release notes. DELEGATE"
COMPACT_PROMPTS = ("How do we cut a release?", "/compact", "Cut a release again, carefully.",
                   "/compact", "Cut a release one more time.")


@dataclass
class Session:
    scratch: Scratch
    mock: AnthropicMock
    live: ClaudeRun
    resumed: ClaudeRun
    sub: ClaudeRun
    compact: ClaudeRun


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    scratch = claude_project(tmp_path_factory.mktemp("claude-session"), MEMORIES)
    task = {"description": "find release notes", "prompt": "Find the release notes.",
            "subagent_type": "general-purpose"}
    with anthropic_mock(Script("DELEGATE", calls=(("Task", task),))) as mock:
        live = run_claude(scratch, mock, "-p", "--session-id", SESSION_ID,
                          prompts=(PROMPT_1, PROMPT_2))
        resumed = run_claude(scratch, mock, "-p", PROMPT_3, "--resume", SESSION_ID)
        sub = run_claude(scratch, mock, "-p", PROMPT_SUB)
        # The first /compact has one exchange to summarise and is refused; the second is real.
        compact = run_claude(scratch, mock, "-p", prompts=COMPACT_PROMPTS)
        yield Session(scratch, mock, live, resumed, sub, compact)


def test_every_process_exits_cleanly(session: Session) -> None:
    for run in (session.live, session.resumed, session.sub, session.compact):
        assert run.returncode == 0, run.stderr
        assert run.result.get("is_error") is False, run.result


def test_session_pack_reaches_the_model_first(session: Session) -> None:
    first = turn_request(session.mock, PROMPT_1)
    [pack] = hook_contexts(first, "SessionStart")
    assert pack.startswith("engram: loaded 2 new (release-foundation, team-style)\n")
    assert "engram: 6 memories available (rules 3, skills 1, knowledge 2)" in pack
    assert BODIES["team-style"] in pack and BODIES["release-foundation"] in pack
    assert BODIES["release-checklist"] not in pack  # routed per prompt, not at start


def test_prompt_pack_carries_its_proof_line(session: Session) -> None:
    first = turn_request(session.mock, PROMPT_1)
    [pack] = hook_contexts(first, "UserPromptSubmit")
    assert pack.splitlines()[0] == ("engram: loaded 1 new (release-checklist); "
                                    "already loaded: release-foundation")
    assert BODIES["release-checklist"] in pack
    # Both packs come before the prompt's own text, in the same user message.
    text = transcript(first)
    assert text.index(BODIES["team-style"]) < text.index(BODIES["release-checklist"])
    assert text.index(BODIES["release-checklist"]) < text.index(PROMPT_1)


def test_second_prompt_in_a_live_session_sends_only_new_bodies(session: Session) -> None:
    second = turn_request(session.mock, PROMPT_2)
    packs = hook_contexts(second, "UserPromptSubmit")
    assert len(packs) == 2
    assert packs[1].splitlines()[0].startswith("engram: loaded 1 new (deploy-service); "
                                               "already loaded: ")
    assert "release-checklist" in packs[1].splitlines()[0]
    assert BODIES["release-checklist"] not in packs[1]
    text = transcript(second)
    for memory_id, body in BODIES.items():
        if memory_id != "db-migrations":
            assert text.count(body) == 1, memory_id


def test_resume_in_a_new_process_sends_no_body_twice_and_loses_nothing(session: Session) -> None:
    resumed = turn_request(session.mock, PROMPT_3)
    text = transcript(resumed)
    # Claude restored the whole transcript, earlier hook text included: every body once.
    for memory_id, body in BODIES.items():
        assert text.count(body) == 1, f"{memory_id}: {text.count(body)} times"
    assert PROMPT_1 in text and PROMPT_2 in text
    last = hook_contexts(resumed, "UserPromptSubmit")[-1]
    assert last.startswith("engram: loaded 1 new (db-migrations); already loaded: ")


def test_secret_memory_never_reaches_the_model(session: Session) -> None:
    assert session.mock.requests()
    for request in session.mock.requests():
        assert SECRET not in request.text()


def test_subagent_starts_with_its_parents_last_pack(session: Session) -> None:
    subagent = next(r for r in session.mock.model_requests()
                    if "Find the release notes." in transcript(r)
                    and PROMPT_SUB not in transcript(r))
    [pack] = hook_contexts(subagent, "SubagentStart")
    assert pack.startswith("engram: loaded 2 new (release-foundation, release-checklist)\n")
    assert BODIES["release-checklist"] in pack and BODIES["release-foundation"] in pack
    assert not hook_contexts(subagent, "SessionStart")  # a subagent's context is its own


def test_hook_stderr_is_never_sent_to_the_model(session: Session) -> None:
    # The secret memory is withheld with a line on stderr: the user's report, not the model's.
    responses = [e for e in session.live.events if e.get("subtype") == "hook_response"]
    assert any("engram: withheld deploy-credentials" in str(e.get("stderr")) for e in responses)
    for request in session.mock.requests():
        assert "withheld deploy-credentials" not in request.text()



def compact_results(run: ClaudeRun) -> list[str]:
    return [str(e["compact_result"]) for e in run.events if "compact_result" in e]


def test_refused_compact_keeps_what_the_model_still_holds(session: Session) -> None:
    assert compact_results(session.compact)[0] == "failed"
    after = turn_request(session.mock, COMPACT_PROMPTS[2])
    assert hook_contexts(after, "UserPromptSubmit")[-1] == (
        "engram: already loaded: release-checklist, release-foundation")
    assert transcript(after).count(BODIES["release-checklist"]) == 1


def test_real_compact_delivers_again_after_the_summary(session: Session) -> None:
    assert compact_results(session.compact)[1] == "success"
    after = turn_request(session.mock, COMPACT_PROMPTS[4])
    text = transcript(after)
    summary_at = text.index("Summary of the conversation so far")
    # The earlier packs went into the summary; the session pack and the prompt's bodies come
    # again after it, each once.
    for memory_id in ("team-style", "release-foundation", "release-checklist"):
        assert text.count(BODIES[memory_id]) == 1, memory_id
        assert text.index(BODIES[memory_id]) > summary_at, memory_id
    [pack] = hook_contexts(after, "SessionStart")
    assert pack.startswith("engram: loaded 2 new (release-foundation, team-style)\n")


def test_pre_compact_leaves_nothing_in_the_transcript(session: Session) -> None:
    for request in session.mock.requests():
        assert "PreCompact [" not in request.text()
        assert "engram hook claude" not in request.text()
