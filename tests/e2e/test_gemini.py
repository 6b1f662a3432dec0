"""The real Gemini CLI 0.61.0 with engram's hooks, against a recording Gemini API: what the model
received on session start, per prompt, in one live session, after a resume and on a file read,
and that nothing engram can get wrong ever drops the user's prompt."""

from __future__ import annotations

import html
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import Scratch
from .mock_gemini import GeminiMock, gemini_env, run_gemini, terminal, user_texts

# Each memory's body holds a word found nowhere else, so counting it counts deliveries.
MEMORIES = {
    "rules/data-foundation.md": """---
id: data-foundation
type: rule
directive: Every database schema change ships as a database migration.
level: foundation
tags: [database]
---
FOUNDATION-BODY: database schemas change only through database migrations; database tables and
database migrations are reviewed by the database team.
""",
    "rules/release-checklist.md": """---
id: release-checklist
type: rule
directive: Run the release checklist before the release pipeline tags a version.
tags: [release, pipeline, version]
triggers: ["release pipeline"]
---
RELEASE-BODY: update CHANGELOG.md, run the full suite, then tag vX.Y.Z.
""",
    "knowledge/db-migrations.md": """---
id: db-migrations
type: knowledge
summary: Database migrations run in CI before the deploy job.
tags: [database, migrations, schema]
---
MIGRATIONS-BODY: Alembic migrations run in CI before the deploy job starts.
""",
    "rules/handler-errors.md": """---
id: handler-errors
type: rule
directive: Handlers raise problem errors and never return None.
tags: [handlers]
applies_to: ["src/api/**"]
---
HANDLER-BODY: raise NotFound or BadRequest; the middleware renders problem+json.
""",
    "knowledge/release-token.md": """---
id: release-token
type: knowledge
summary: The token the release pipeline uses to publish.
tags: [release, pipeline, publish]
---
SECRET-BODY: publish with ghp_R8t2Kq9Lm4Vx7Zp1Wc6Nb3Hj5Fd0Gs2Ya8Qe as the token.
""",
}
SECRET = "ghp_R8t2Kq9Lm4Vx7Zp1Wc6Nb3Hj5Fd0Gs2Ya8Qe"
RELEASE_PROMPT = "Walk me through the release pipeline"
DB_PROMPT = "How do the database migrations run in CI?"


def engram(scratch: Scratch, *args: str, env: dict[str, str] | None = None,
           check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["engram", *args], cwd=scratch.project, env=env or scratch.env,
                          capture_output=True, text=True, check=check)


@pytest.fixture
def project(scratch: Scratch) -> Scratch:
    """The sample memories, a source file for the file event, and engram's Gemini hooks."""
    for rel, text in MEMORIES.items():
        scratch.memory(rel, text)
    (scratch.project / "src/api").mkdir(parents=True)
    (scratch.project / "src/api/user.py").write_text("def get_user(uid):\n    return None\n")
    engram(scratch, "hooks", "install", "gemini")
    return scratch


@pytest.fixture
def mock() -> Iterator[GeminiMock]:
    server = GeminiMock()
    with server.server:
        yield server


def count(text: str, word: str) -> int:
    return text.count(word)


def contexts(mock: GeminiMock, index: int = -1) -> list[str]:
    """The `<hook_context>` blocks of one model call, in order, unescaped."""
    out = []
    for text in user_texts(mock.model_calls()[index].body):
        while "<hook_context>" in text:
            start = text.index("<hook_context>") + len("<hook_context>")
            end = text.index("</hook_context>", start)
            out.append(html.unescape(text[start:end]))
            text = text[end:]
    return out


def test_session_pack_and_prompt_pack_reach_the_model(project: Scratch, mock: GeminiMock) -> None:
    run = run_gemini(project, mock, RELEASE_PROMPT)
    assert run.returncode == 0 and run.json()["response"] == "Done."
    seen = mock.seen()
    session, prompt = contexts(mock)
    assert session.startswith("engram: loaded 1 new (data-foundation)")
    assert "engram: 5 memories available (rules 3, skills 0, knowledge 2)" in session
    assert prompt.startswith("engram: loaded 1 new (release-checklist)")  # the proof line
    assert count(seen, "FOUNDATION-BODY") == 1 and count(seen, "RELEASE-BODY") == 1
    # The session pack is about databases; the prompt is not (defect 3: Gemini prepends the
    # session text to the prompt, and engram routed on its own words).
    assert "MIGRATIONS-BODY" not in seen
    # The secret memory matches the prompt but is withheld, whole.
    assert SECRET not in seen and "SECRET-BODY" not in seen


def test_second_prompt_in_one_live_session_sends_only_new_bodies(project: Scratch,
                                                                  mock: GeminiMock) -> None:
    with terminal(project, mock) as term:
        term.ready()
        term.prompt(RELEASE_PROMPT)
        term.prompt(DB_PROMPT)
        term.prompt(RELEASE_PROMPT + " once more")
    seen = mock.seen()  # the last request holds the whole conversation
    for body in ("FOUNDATION-BODY", "RELEASE-BODY", "MIGRATIONS-BODY"):
        assert count(seen, body) == 1, body
    last = contexts(mock)[-1]
    assert last.startswith("engram: already loaded: ") and "release-checklist" in last
    assert SECRET not in seen


def test_resume_delivers_again_once(project: Scratch, mock: GeminiMock) -> None:
    """`--resume latest` leaves the earlier turns and their hook context out of the history, so
    engram delivers again (had it kept its delivered set, the release body would be lost), and
    each body is there once."""
    run_gemini(project, mock, RELEASE_PROMPT)
    again = "Once more: which steps does the release pipeline run?"
    run = run_gemini(project, mock, again, "--resume", "latest")
    assert run.returncode == 0
    seen = mock.seen()
    assert again in seen and RELEASE_PROMPT not in seen  # Gemini dropped the earlier turn
    assert count(seen, "FOUNDATION-BODY") == 1 and count(seen, "RELEASE-BODY") == 1


def test_read_file_brings_its_applies_to_memory_once(project: Scratch, mock: GeminiMock) -> None:
    target = project.project / "src/api/user.py"
    run = run_gemini(project, mock, f"Please look at this: READ {target}")
    assert run.returncode == 0
    calls = mock.model_calls()
    assert len(calls) >= 2, "the mock's read_file call was not answered"
    seen = mock.seen()
    assert count(seen, "HANDLER-BODY") == 1
    responses = [p["functionResponse"] for c in calls[-1].body["contents"]
                 for p in c.get("parts", []) if "functionResponse" in p]
    assert any("HANDLER-BODY" in json.dumps(r) for r in responses)  # AfterTool: with the result
    assert "HANDLER-BODY" not in mock.seen(0)


def test_large_pack_arrives_whole_and_escaped(project: Scratch, mock: GeminiMock) -> None:
    """Eight always-loaded memories of ~3,300 characters: engram fits the session pack to its
    9,500-character budget (bodies, then cards), and Gemini passes it on whole, `<`/`>` escaped."""
    for i in range(8):
        project.memory(f"knowledge/big-{i}.md", f"""---
id: big-{i}
type: knowledge
summary: Generic List<T> types in the payments ledger, part {i}.
load: always
---
BIG-BODY-{i} {"ledger entries use List<Entry> and Map<K, V> types; " * 60}
""")
    run = run_gemini(project, mock, RELEASE_PROMPT)
    assert run.returncode == 0
    raw = "".join(user_texts(mock.model_calls()[-1].body))
    session = contexts(mock)[0]
    assert session.startswith("engram: loaded ") and "to fit the 9,500-character cap" in session
    assert "List&lt;Entry&gt;" in raw and "List<Entry>" not in raw
    log = [json.loads(line) for line in
           (project.project / ".engram/.state/log.jsonl").read_text().splitlines()]
    start = next(e for e in log if e["event"] == "SessionStart")
    assert start["demoted"] and len(session) == start["chars"]  # nothing cut, no preview
    assert start["delivered"] and all(count(session, f"BIG-BODY-{m[-1]}") == 1
                                      for m in start["delivered"] if m.startswith("big-"))
    for memory_id in start["demoted"]:  # a card: its one line, and its id in the fetch line
        assert memory_id in session.splitlines()[-1]
        if memory_id.startswith("big-"):
            assert f"payments ledger, part {memory_id[-1]}." in session


# ---- fail-open: nothing engram can get wrong drops or blocks the prompt ----------------------


def test_engram_missing_from_path_still_answers(project: Scratch, mock: GeminiMock) -> None:
    env = gemini_env(project, mock)
    scripts = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if p != scripts)
    assert shutil.which("engram", path=env["PATH"]) is None
    run = run_gemini(project, mock, RELEASE_PROMPT, env=env)
    assert run.returncode == 0 and run.json()["response"] == "Done."
    assert len(mock.model_calls()) == 1 and RELEASE_PROMPT in mock.seen()
    assert "engram:" not in mock.seen()


def test_corrupt_memory_and_state_never_block(project: Scratch, mock: GeminiMock) -> None:
    project.memory("rules/broken.md", "---\nid: [unclosed\ntype: rule\n---\nBROKEN\n")
    run = run_gemini(project, mock, RELEASE_PROMPT)
    assert run.returncode == 0 and count(mock.seen(), "RELEASE-BODY") == 1
    for state in (project.project / ".engram/.state").glob("*.json"):
        state.write_text("{not json")
    run = run_gemini(project, mock, DB_PROMPT, "--resume", "latest")
    assert run.returncode == 0 and DB_PROMPT in mock.seen()
    assert count(mock.seen(), "MIGRATIONS-BODY") == 1


@pytest.mark.parametrize("config", [
    "hooks:\n  proof: maybe\n",  # a bad value
    "hookz:\n  enabled: false\n",  # an unknown key
    "hooks: [unclosed\n",  # not YAML
])
def test_invalid_config_keeps_delivering(project: Scratch, mock: GeminiMock, config: str) -> None:
    (project.project / ".engram/config.yaml").write_text(config)
    run = run_gemini(project, mock, RELEASE_PROMPT)
    assert run.returncode == 0 and RELEASE_PROMPT in mock.seen()
    assert count(mock.seen(), "RELEASE-BODY") == 1
    for command in (["hooks", "status", "gemini"], ["hooks", "log"], ["check"]):
        out = engram(project, *command, check=False)
        assert "config.yaml" in out.stdout + out.stderr, command


def test_uninstall_restores_settings_byte_for_byte(scratch: Scratch, mock: GeminiMock) -> None:
    settings = scratch.project / ".gemini/settings.json"
    settings.parent.mkdir()
    original = json.dumps({"ui": {"theme": "GitHub"}, "hooks": {"AfterAgent": [
        {"hooks": [{"type": "command", "command": "true", "name": "mine"}]}]}}, indent=2) + "\n"
    settings.write_text(original)
    for rel, text in MEMORIES.items():
        scratch.memory(rel, text)
    engram(scratch, "hooks", "install", "gemini")
    run_gemini(scratch, mock, RELEASE_PROMPT)
    assert count(mock.seen(), "RELEASE-BODY") == 1  # it was installed and ran
    out = engram(scratch, "hooks", "uninstall", "gemini")
    assert "removed" in out.stdout
    assert settings.read_text() == original
