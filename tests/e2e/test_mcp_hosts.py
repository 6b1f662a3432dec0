"""engram's MCP server in the real hosts: after `engram hooks install <host>`, the model is offered
engram's tools, and a tool call's result (the pack) is in the model's next request.

Claude Code 2.1.197, Codex 0.171.0 and Gemini CLI 0.61.0 against recording model APIs (the
suite's Anthropic and OpenAI mocks; a minimal Gemini one here). Each scenario runs once for the
module; every assertion reads what the mock model API recorded.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from .conftest import (
    Recorded,
    RecordingServer,
    Reply,
    host_program,
    make_scratch,
    sse,
)
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
    CodexMock,
    CodexWorld,
    _stream,
    codex_program,
    config_toml,
    inputs,
    item_text,
    respond,
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
    assert entry == {"type": "stdio", "command": "engram", "args": ["mcp"]}


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
    """The suite's Responses script, plus: the prompt `MCP-ONE` makes the model call engram's
    load tool once (the scenario's only prompt)."""
    tool = _codex_tool(record)
    prompts = user_turns(record)
    answered = any(i.get("type") == "function_call_output" for i in inputs(record))
    if prompts and "MCP-ONE" in prompts[-1] and tool is not None and not answered:
        call: dict[str, Any] = {"type": "function_call", "id": "fc_mcp_1",
                                "call_id": "call_mcp_1", "name": tool["name"],
                                "arguments": json.dumps({"task": TASK})}
        if "namespace" in tool:
            call["namespace"] = tool["namespace"]
        return _stream(call)
    return respond(record)


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
    with CodexMock() as mock:
        mock.responder = codex_respond
        world = CodexWorld(scratch, program, mock, codex_home)
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
    assert entry == {"command": "engram", "args": ["mcp"]}


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


# ---- Gemini CLI --------------------------------------------------------------------------------

GEMINI_MODEL = "gemini-2.5-flash"
GEMINI_STREAM = ":streamGenerateContent"
GEMINI_LOAD = "mcp_engram_load"


def _gemini_reply(parts: list[dict[str, Any]]) -> Reply:
    usage = {"promptTokenCount": 10, "candidatesTokenCount": 2, "totalTokenCount": 12}
    event = {"candidates": [{"content": {"role": "model", "parts": parts},
                             "finishReason": "STOP", "index": 0}],
             "usageMetadata": usage, "modelVersion": GEMINI_MODEL}
    return Reply(headers={"Content-Type": "text/event-stream"}, chunks=sse([(None, event)]))


def gemini_respond(record: Recorded) -> Reply:
    """The Gemini API, as little of it as one scripted tool call needs: `MCP-ONE` in a prompt
    makes the model call engram's load tool once; everything else gets a short answer."""
    if ":countTokens" in record.path:
        return Reply(chunks=[b'{"totalTokens": 10}'])
    if GEMINI_STREAM not in record.path:  # the CLI's model router: keep the pinned model
        choice = json.dumps({"reasoning": "mock", "model_choice": "flash"})
        return Reply(chunks=[json.dumps({"candidates": [{"content": {
            "role": "model", "parts": [{"text": choice}]}, "finishReason": "STOP",
            "index": 0}]}).encode()])
    body = record.body if isinstance(record.body, dict) else {}
    contents = body.get("contents") or []
    last = contents[-1] if contents else {}
    answered = any("functionResponse" in part for part in last.get("parts", []))
    prompt = " ".join(str(p.get("text", "")) for p in last.get("parts", []))
    if not answered and "MCP-ONE" in prompt and GEMINI_LOAD in gemini_tools(record):
        return _gemini_reply([{"functionCall": {"name": GEMINI_LOAD, "args": {"task": TASK}}}])
    return _gemini_reply([{"text": "Done."}])


def gemini_tools(record: Recorded) -> dict[str, Any]:
    body = record.body if isinstance(record.body, dict) else {}
    return {str(d.get("name")): d for tool in body.get("tools") or []
            for d in tool.get("functionDeclarations") or []}


@dataclass
class GeminiScene:
    proc: subprocess.CompletedProcess[str]
    calls: list[Recorded]
    settings: dict[str, Any]


@pytest.fixture(scope="module")
def gemini(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GeminiScene]:
    program = host_program(".bin/gemini", "@google/gemini-cli")
    scratch = make_scratch(tmp_path_factory.mktemp("mcp-gemini"))
    for rel, text in MEMORIES.items():
        scratch.memory(rel, text)
    # The user's Gemini: offline and quiet, API-key auth, this project a trusted folder.
    user = scratch.home / ".gemini"
    user.mkdir()
    (user / "settings.json").write_text(json.dumps({
        "telemetry": {"enabled": False}, "privacy": {"usageStatisticsEnabled": False},
        "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "model": {"name": GEMINI_MODEL}}))
    (user / "trustedFolders.json").write_text(json.dumps({str(scratch.project): "TRUST_FOLDER"}))
    with RecordingServer(gemini_respond) as server:
        env = {**scratch.env, "GOOGLE_GEMINI_BASE_URL": server.url, "GEMINI_API_KEY": "mock",
               "GEMINI_CLI_NO_RELAUNCH": "1", "GEMINI_TELEMETRY_ENABLED": "false",
               "NO_COLOR": "1", "CI": "", "TERM": "xterm-256color"}
        done = subprocess.run(["engram", "hooks", "install", "gemini"], cwd=scratch.project,
                              env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        # --yolo: the tool call is approved as a user approves it once in the terminal.
        proc = subprocess.run([str(program), "-p", "MCP-ONE go ahead", "-o", "json", "-m",
                               GEMINI_MODEL, "--yolo"], cwd=scratch.project, env=env,
                              capture_output=True, text=True, timeout=180)
        calls = [r for r in server.snapshot() if GEMINI_STREAM in r.path]
        settings = json.loads((scratch.project / ".gemini" / "settings.json").read_text())
        yield GeminiScene(proc, calls, settings)


def test_gemini_install_registers_the_server_in_settings_json(gemini: GeminiScene) -> None:
    entry = gemini.settings["mcpServers"]["engram"]
    assert entry == {"command": "engram", "args": ["mcp"]}
    assert "hooks" in gemini.settings  # beside the hooks, in the same file


def test_gemini_offers_engrams_tools_to_the_model(gemini: GeminiScene) -> None:
    assert gemini.proc.returncode == 0, gemini.proc.stderr[-2000:]
    offered = gemini_tools(gemini.calls[0])
    assert {f"mcp_engram_{name}" for name in ENGRAM_TOOLS} <= set(offered)
    load = offered[GEMINI_LOAD]
    schema = load.get("parametersJsonSchema") or load.get("parameters") or {}
    assert schema.get("required") == ["task"]


def test_gemini_gets_the_pack_as_the_tool_result(gemini: GeminiScene) -> None:
    body = gemini.calls[-1].body if isinstance(gemini.calls[-1].body, dict) else {}
    responses = [part["functionResponse"] for content in body.get("contents") or []
                 for part in content.get("parts", []) if "functionResponse" in part]
    assert [r["name"] for r in responses] == [GEMINI_LOAD]
    output = json.dumps(responses[0]["response"], ensure_ascii=False)
    assert "### release-checklist [rule, instruction]" in output and CHECKLIST in output
