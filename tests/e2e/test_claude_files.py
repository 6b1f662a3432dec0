"""Claude Code 2.1.197, for real: file events and the conventions that apply to a path.

One project, three Claude processes, run once for the module. The mock model reads then edits a
migration (Claude attaches the native rule itself on Read), writes a new API module (engram
holds the first write back once, with the conventions as the reason), and, with
`hooks.deny_first_write: false`, writes another (the conventions come only after the write).
The mock writes the convention's header line only when the conventions are in what it was sent:
the file on disk shows whether the model had them before it wrote.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .conftest import Recorded, Scratch
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

HEADER = "# errors: raise problem+json, never return None"
BODIES = {
    "db-migrations": "Every migration is reversible and runs inside one transaction.",
    "api-errors": f"Start every handler module with the line `{HEADER}`.",
}
MEMORIES = {
    "rules/db-migrations.md": f"""---
id: db-migrations
type: rule
directive: Migrations are reversible.
applies_to: ["src/db/**"]
---
{BODIES['db-migrations']}
""",
    "rules/api-errors.md": f"""---
id: api-errors
type: rule
directive: API handlers raise problem+json errors.
applies_to: ["src/api/**"]
---
{BODIES['api-errors']}
""",
}
PROMPT_EDIT = "Look at the schema and add an index. READ_EDIT"
PROMPT_WRITE = "Add a users endpoint module. WRITE_NEW"
PROMPT_LATE = "Add an orders endpoint module. WRITE_LATE"


def handler_module(path: Path) -> Any:
    """A Write the way a model would make it: following the conventions it was given."""
    def call(body: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        told = HEADER in json.dumps(body)
        content = (HEADER + "\n" if told else "") + f"def get_{path.stem}(item_id):\n    ...\n"
        return "Write", {"file_path": str(path), "content": content}
    return call


@dataclass
class Files:
    scratch: Scratch
    mock: AnthropicMock
    edit: ClaudeRun
    write: ClaudeRun
    late: ClaudeRun


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Files]:
    scratch = claude_project(tmp_path_factory.mktemp("claude-files"), MEMORIES)
    schema = scratch.project / "src/db/schema.sql"
    schema.parent.mkdir(parents=True)
    schema.write_text("create table users (id integer primary key);\n")
    (scratch.project / "src/api").mkdir(parents=True)
    scripts = [
        Script("READ_EDIT", calls=(
            ("Read", {"file_path": str(schema)}),
            ("Edit", {"file_path": str(schema), "old_string": "primary key);",
                      "new_string": "primary key);\ncreate index users_id on users (id);"}),
        )),
        Script("WRITE_NEW", calls=(handler_module(scratch.project / "src/api/users.py"),)),
        Script("WRITE_LATE", calls=(handler_module(scratch.project / "src/api/orders.py"),)),
    ]
    with anthropic_mock(*scripts) as mock:
        edit = run_claude(scratch, mock, "-p", PROMPT_EDIT)
        write = run_claude(scratch, mock, "-p", PROMPT_WRITE)
        (scratch.project / ".engram/config.yaml").write_text("hooks:\n  deny_first_write: false\n")
        late = run_claude(scratch, mock, "-p", PROMPT_LATE)
        yield Files(scratch, mock, edit, write, late)


def final_request(mock: AnthropicMock, prompt: str) -> Recorded:
    return [r for r in mock.model_requests() if prompt in transcript(r)][-1]


def tool_results(request: Recorded) -> list[dict[str, Any]]:
    body = request.body if isinstance(request.body, dict) else {}
    return [block for message in body.get("messages") or []
            if isinstance(message.get("content"), list)
            for block in message["content"] if block.get("type") == "tool_result"]


def test_every_process_exits_cleanly(files: Files) -> None:
    for run in (files.edit, files.write, files.late):
        assert run.returncode == 0, run.stderr
        assert run.result.get("is_error") is False, run.result


def test_read_then_edit_brings_the_path_rule_exactly_once(files: Files) -> None:
    last = final_request(files.mock, PROMPT_EDIT)
    text = transcript(last)
    assert text.count(BODIES["db-migrations"]) == 1
    # It came with the Read, from the native rule file Claude attached itself.
    read_result = tool_results(last)[0]
    assert BODIES["db-migrations"] in json.dumps(read_result)
    assert "rules/engram/db-migrations.md" in json.dumps(read_result)
    assert not hook_contexts(last, "PreToolUse")
    assert all(not r.get("is_error") for r in tool_results(last))  # the Edit was not held back
    assert "create index users_id" in (files.scratch.project / "src/db/schema.sql").read_text()
    # engram counted the rule as delivered on the Read itself, not on InstructionsLoaded, which
    # Claude does not await: the Edit that follows has nothing to send.
    log = [json.loads(line) for line in
           (files.scratch.project / ".engram/.state/log.jsonl").read_text().splitlines()]
    reads = [e for e in log if e.get("note") == "native path rules (read)"]
    assert reads and reads[0]["delivered"] == ["db-migrations"]


def test_first_write_is_held_back_once_with_the_conventions(files: Files) -> None:
    last = final_request(files.mock, PROMPT_WRITE)
    denied, written = tool_results(last)
    assert denied.get("is_error") is True
    assert "engram: loaded 1 new (api-errors)" in json.dumps(denied)
    assert BODIES["api-errors"] in json.dumps(denied)
    assert not written.get("is_error")
    assert transcript(last).count(BODIES["api-errors"]) == 1
    # The model had the conventions before the file existed: the header is in it.
    content = (files.scratch.project / "src/api/users.py").read_text()
    assert content.startswith(HEADER + "\n")


def test_without_deny_the_conventions_arrive_after_the_write(files: Files) -> None:
    last = final_request(files.mock, PROMPT_LATE)
    [result] = tool_results(last)
    assert not result.get("is_error")
    [context] = hook_contexts(last, "PreToolUse")
    assert context.startswith("engram: loaded 1 new (api-errors)")
    # Claude puts PreToolUse context beside the tool's result: the file was written without it.
    content = (files.scratch.project / "src/api/orders.py").read_text()
    assert HEADER not in content


def test_write_requests_come_in_order(files: Files) -> None:
    requests = [r for r in files.mock.model_requests() if PROMPT_WRITE in transcript(r)]
    # prompt -> denied Write -> retried Write -> final answer: three model requests.
    assert len(requests) == 3
    assert BODIES["api-errors"] not in transcript(requests[0])
    assert BODIES["api-errors"] in transcript(requests[1])
    assert turn_request(files.mock, PROMPT_WRITE) is requests[0]


