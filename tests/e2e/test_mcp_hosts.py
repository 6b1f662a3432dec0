"""engram's MCP server in the real hosts: after `engram hooks install <host>`, the model is offered
engram's tools, and a tool call's result (the pack) is in the model's next request.

Claude Code 2.1.197 and Codex 0.171.0 against the suite's recording model APIs. Each scenario
runs once for the module; every assertion reads what the mock model API recorded.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .conftest import Recorded, RecordingServer, Reply, make_scratch
from .mock_anthropic import (
    AnthropicMock,
    ClaudeRun,
    Script,
    anthropic_mock,
    claude_env,
    claude_project,
    run_claude,
    texts,
)
from .mock_openai import (
    CodexWorld,
    _message,
    _stream,
    codex_program,
    config_toml,
    inputs,
    item_text,
    turn,
    user_turns,
)

CHECKLIST = "Update CHANGELOG.md, run the full suite, then tag vX.Y.Z."
MEMORIES = {
    "rules/release-checklist.md": f"""---
id: release-checklist
type: rule
directive: Run the release checklist before tagging a version.
tags: [release, tagging]
---
{CHECKLIST}
""",
    "knowledge/deploy.md": """---
id: deploy-service
type: knowledge
summary: How the service is deployed.
tags: [deploy]
---
Run scripts/deploy.sh staging, then production.
""",
}
TASK = "cut the release and tag it"
ENGRAM_TOOLS = ("load", "fetch", "search", "explain")


# ---- Claude Code -------------------------------------------------------------------------------

CLAUDE_LOAD = "mcp__engram__load"


@dataclass
class ClaudeScene:
    run: ClaudeRun
    mock: AnthropicMock
    mcp_json: dict[str, Any]


@pytest.fixture(scope="module")
def claude(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClaudeScene]:
    scratch = claude_project(tmp_path_factory.mktemp("mcp-claude"), MEMORIES)
    # The user's one-time approval of the project's server (what Claude asks on first start).
    local = scratch.project / ".claude" / "settings.local.json"
    local.write_text(json.dumps({"enabledMcpjsonServers": ["engram"]}), encoding="utf-8")
    scripts = (
        # A prompt the hook routes nothing for: the model asks engram itself.
        Script("MCP-ONE", calls=((CLAUDE_LOAD, {"task": TASK}),), final="Loaded."),
        # The hook injects the checklist with this prompt; the tool must not send it again.
        Script("cut the release and tag it now", calls=((CLAUDE_LOAD, {"task": TASK}),),
               final="Again."),
    )
    with anthropic_mock(*scripts) as mock:
        # Headless, Claude starts its first request before MCP servers are up unless told to
        # wait; engram's tools are allowed the way a user allows them once.
        env = {**claude_env(scratch, mock), "MCP_CONNECTION_NONBLOCKING": "false"}
        run = run_claude(scratch, mock, "--allowedTools", "mcp__engram",
                         prompts=["MCP-ONE go ahead", "cut the release and tag it now"],
                         env=env, timeout=180)
        yield ClaudeScene(run, mock, json.loads((scratch.project / ".mcp.json").read_text()))


def claude_tool_results(request: Recorded) -> list[str]:
    body = request.body if isinstance(request.body, dict) else {}
    out = []
    for message in body.get("messages") or []:
        for block in message.get("content") if isinstance(message.get("content"), list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                out.append("\n".join(texts({"content": [block]})))
    return out


def test_claude_install_registers_the_server_in_mcp_json(claude: ClaudeScene) -> None:
    entry = claude.mcp_json["mcpServers"]["engram"]
    assert entry["type"] == "stdio" and entry["args"][-1] == "mcp"
    assert Path(entry["command"]).is_absolute()


def test_claude_offers_engrams_tools_to_the_model(claude: ClaudeScene) -> None:
    first = claude.mock.model_requests()[0]
    body = first.body if isinstance(first.body, dict) else {}
    names = {tool.get("name") for tool in body.get("tools") or []}
    assert {f"mcp__engram__{name}" for name in ENGRAM_TOOLS} <= names
    load = next(t for t in body["tools"] if t.get("name") == CLAUDE_LOAD)
    assert load["input_schema"]["required"] == ["task"]


def test_claude_gets_the_pack_as_the_tool_result(claude: ClaudeScene) -> None:
    assert claude.run.returncode == 0, claude.run.stderr[-2000:]
    results = [r for req in claude.mock.model_requests() for r in claude_tool_results(req)]
    assert any(f"### release-checklist [rule, instruction]\n{CHECKLIST}" in r for r in results)


def test_claude_hook_and_tool_share_the_session(claude: ClaudeScene) -> None:
    # The second prompt's hook delivered nothing new (the tool had sent the checklist), and the
    # tool call after it answers "already loaded" instead of the body.
    last = claude.mock.model_requests()[-1]
    results = claude_tool_results(last)
    assert results[-1].startswith("engram: already loaded: release-checklist")
    sent = json.dumps(last.body)
    assert sent.count(CHECKLIST) == 1  # once in the whole conversation


# ---- Codex -------------------------------------------------------------------------------------


def _codex_tool(record: Recorded) -> dict[str, Any] | None:
    """The engram `load` tool among those offered to the model."""
    body = record.body if isinstance(record.body, dict) else {}
    for tool in body.get("tools") or []:
        name = str(tool.get("name", ""))
        if "engram" in name and name.endswith("load"):
            return dict(tool)
        for inner in tool.get("tools") or []:  # tools grouped in a namespace
            if "engram" in str(tool.get("name", "")) and inner.get("name") == "load":
                return {**inner, "namespace": tool.get("name")}
    return None


def codex_respond(record: Recorded) -> Reply:
    if not record.path.rstrip("/").endswith("/responses"):
        return Reply(status=404, chunks=[b"{}"])
    items = inputs(record)
    while items and item_text(items[-1]).startswith("<tools>"):  # tools that became ready
        items = items[:-1]
    last = items[-1] if items else {}
    if last.get("type") == "function_call_output":
        return _stream(_message("done"))
    prompts = user_turns(record)
    tool = _codex_tool(record)
    if prompts and "MCP-ONE" in prompts[-1] and tool is not None:
        call: dict[str, Any] = {"type": "function_call", "id": "fc_mcp_1",
                                "call_id": "call_mcp_1", "name": tool["name"],
                                "arguments": json.dumps({"task": TASK})}
        if "namespace" in tool:
            call["namespace"] = tool["namespace"]
        return _stream(call)
    return _stream(_message("ok"))


class McpCodexMock(RecordingServer):
    def __init__(self) -> None:
        super().__init__(codex_respond)

    def model_requests(self) -> list[Recorded]:
        return [r for r in self.snapshot() if r.path.rstrip("/").endswith("/responses")]


@dataclass
class CodexScene:
    world: CodexWorld
    startup: list[dict[str, Any]]
    requests: list[Recorded]


# A model Codex has no catalog entry for: Codex offers it MCP tools directly. (Catalog models
# that support tool search get them deferred behind `tool_search` instead.)
CODEX_MODEL = "engram-test-model"


@pytest.fixture(scope="module")
def codex(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CodexScene]:
    root = tmp_path_factory.mktemp("mcp-codex")
    program = codex_program()
    scratch = make_scratch(root)
    for rel, text in MEMORIES.items():
        scratch.memory(rel, text)
    codex_home = root / "codex-home"
    codex_home.mkdir()
    with McpCodexMock() as mock:
        world = CodexWorld(scratch, program, mock, codex_home)  # type: ignore[arg-type]
        (codex_home / "config.toml").write_text(
            config_toml(mock.url, model=CODEX_MODEL)
            + f'[projects."{world.project}"]\ntrust_level = "trusted"\n', encoding="utf-8")
        done = world.engram("hooks", "install", "codex")
        assert done.returncode == 0, done.stderr
        world.trust_hooks()
        with world.app() as app:
            thread = app.request("thread/start", {"cwd": str(world.project),
                                                  "sandbox": "workspace-write",
                                                  "approvalPolicy": "never"})
            # A user types once the session is up; `codex exec` would not wait for servers.
            app.wait_for(lambda n: n.get("method") == "mcpServer/startupStatus/updated"
                         and n["params"].get("status") in ("ready", "failed"), timeout=120)
            startup = [n["params"] for n in app.notifications
                       if n.get("method") == "mcpServer/startupStatus/updated"]
            turn(app, thread["thread"]["id"], "MCP-ONE go ahead")
        yield CodexScene(world, startup, mock.model_requests())


def test_codex_install_registers_the_server_in_config_toml(codex: CodexScene) -> None:
    import tomllib

    config = tomllib.loads((codex.world.project / ".codex" / "config.toml").read_text())
    entry = config["mcp_servers"]["engram"]
    assert entry["args"][-1] == "mcp" and Path(entry["command"]).is_absolute()


def test_codex_offers_engrams_tools_to_the_model(codex: CodexScene) -> None:
    assert [s["status"] for s in codex.startup if s["name"] == "engram"][-1] == "ready"
    assert codex.requests
    tool = _codex_tool(codex.requests[0])
    assert tool is not None, json.dumps(codex.requests[0].body.get("tools"))[:3000]
    params = tool.get("parameters") or {}
    assert params.get("required") == ["task"]


def test_codex_gets_the_pack_as_the_tool_result(codex: CodexScene) -> None:
    outputs = [item_text(i) for r in codex.requests for i in inputs(r)
               if i.get("type") == "function_call_output"]
    assert any("### release-checklist [rule, instruction]" in o and CHECKLIST in o
               for o in outputs), outputs
