"""Claude Code 2.1.197, for real: install into a user's own settings, uninstall back out.

A project whose `.claude/settings.json` is the user's (their own hook, their indentation: four
spaces in one project, tabs in another). `engram hooks install claude`, a Claude run proving
engram's hooks and native rules work, `engram hooks uninstall claude`, and a second run proving
nothing of engram is left for Claude to load.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from .conftest import Scratch, make_scratch
from .mock_anthropic import (
    AnthropicMock,
    ClaudeRun,
    Script,
    anthropic_mock,
    engram_cli,
    hook_contexts,
    run_claude,
    transcript,
    turn_request,
)

RULE_BODY = "Every migration is reversible and runs inside one transaction."
MEMORY = f"""---
id: db-migrations
type: rule
directive: Migrations are reversible.
level: foundation
applies_to: ["src/db/**"]
---
{RULE_BODY}
"""
USER_SETTINGS = {
    "permissions": {"allow": ["Bash(npm test:*)"]},
    "hooks": {
        "UserPromptSubmit": [
            {"hooks": [{"type": "command", "command": "echo team-hook-ran"}]},
        ],
    },
}
PROMPT_BEFORE = "Check the schema before we change it. READ_SCHEMA"
PROMPT_AFTER = "Check the schema once more. READ_SCHEMA"


@dataclass
class Installed:
    scratch: Scratch
    mock: AnthropicMock
    original: bytes
    installed: bytes
    uninstall_out: str
    before: ClaudeRun
    after: ClaudeRun


@pytest.fixture(scope="module", params=["    ", "\t"], ids=["4-spaces", "tabs"])
def installed(request: pytest.FixtureRequest,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    scratch = make_scratch(tmp_path_factory.mktemp("claude-install"))
    scratch.memory("rules/db-migrations.md", MEMORY)
    settings = scratch.project / ".claude/settings.json"
    settings.parent.mkdir()
    original = (json.dumps(USER_SETTINGS, indent=request.param) + "\n").encode()
    settings.write_bytes(original)
    schema = scratch.project / "src/db/schema.sql"
    schema.parent.mkdir(parents=True)
    schema.write_text("create table users (id integer primary key);\n")
    script = Script("READ_SCHEMA", calls=(("Read", {"file_path": str(schema)}),))
    with anthropic_mock(script) as mock:
        done = engram_cli(scratch, "hooks", "install", "claude")
        assert done.returncode == 0, done.stderr
        installed_bytes = settings.read_bytes()
        before = run_claude(scratch, mock, "-p", PROMPT_BEFORE)
        done = engram_cli(scratch, "hooks", "uninstall", "claude")
        assert done.returncode == 0, done.stderr
        after = run_claude(scratch, mock, "-p", PROMPT_AFTER)
        yield Installed(scratch, mock, original, installed_bytes, done.stdout, before, after)


def test_installed_hooks_and_rules_reach_the_model(installed: Installed) -> None:
    assert installed.before.returncode == 0, installed.before.stderr
    request = turn_request(installed.mock, PROMPT_BEFORE)
    [pack] = hook_contexts(request, "SessionStart")
    assert RULE_BODY in pack
    # The user's own hook still runs beside engram's.
    assert "team-hook-ran" in transcript(request)
    final = installed.mock.model_requests()[1]
    assert ".claude/rules/engram/db-migrations.md" in transcript(final)


def test_install_keeps_the_users_indentation(installed: Installed) -> None:
    indent = "\t" if b'\n\t"' in installed.original else "    "
    lines = installed.installed.decode().splitlines()
    assert lines[1].startswith(indent + '"') and not lines[1].startswith(indent * 2)


def test_uninstall_restores_settings_byte_for_byte(installed: Installed) -> None:
    settings = installed.scratch.project / ".claude/settings.json"
    assert settings.read_bytes() == installed.original


def test_uninstall_removes_the_generated_rule_files(installed: Installed) -> None:
    assert not (installed.scratch.project / ".claude/rules/engram").exists()


def test_nothing_of_engram_reaches_the_model_after_uninstall(installed: Installed) -> None:
    assert installed.after.returncode == 0, installed.after.stderr
    after = [r for r in installed.mock.model_requests() if PROMPT_AFTER in transcript(r)]
    assert after
    for request in after:
        assert RULE_BODY not in transcript(request)
        assert "engram:" not in transcript(request)
    assert "team-hook-ran" in transcript(after[0])  # the user's hook is still there
