"""A loopback Anthropic Messages API for driving Claude Code offline, and the run helpers.

The mock answers `POST /v1/messages` with server-sent events and records every request (the
request is what the model saw). Conversation turns are scripted by a marker in the user's prompt:
a `Script` names the tool calls Claude is asked to make, one per model request, and the text it
ends with. Everything else (title and summary calls, token counts, compaction) gets a short,
sensible answer, and is recorded too.
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from .conftest import (
    Recorded,
    RecordingServer,
    Reply,
    Scratch,
    host_program,
    make_scratch,
    sse,
)

CLAUDE_BINARY = "@anthropic-ai/claude-code-linux-x64/claude"
CLAUDE_PACKAGE = "@anthropic-ai/claude-code@2.1.197"
MODEL = "claude-sonnet-4-5"
# Every side request Claude Code makes on its own (telemetry, updates, surveys, marketplaces,
# auto-memory): off, so the mock sees only the model calls of the scenario (real-hosts.md).
QUIET_ENV = {
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_UPDATES": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_GROWTHBOOK": "1",
    "CLAUDE_CODE_ENABLE_TELEMETRY": "0",
    "DISABLE_INSTALLATION_CHECKS": "1",
    "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY": "1",
    "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1",
    "CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL": "1",
}
# Claude groups a transcript into API rounds by message id: every answer gets its own.
_MESSAGE_IDS = itertools.count(1)
COMPACT_SUMMARY = "Summary of the conversation so far: the user asked about the project."


Call = tuple[str, dict[str, Any]] | Callable[[dict[str, Any]], tuple[str, dict[str, Any]]]
# A denied or failed call is retried by the script; this many failures end the turn instead.
MAX_FAILED_CALLS = 3


@dataclass(frozen=True)
class Script:
    """What the model does for a prompt containing `marker`: these tool calls, one per request,
    then `final` as its text answer. A call may be a function of the request body (a model
    acting on what it was told); a call whose result is an error is made again."""

    marker: str
    calls: tuple[Call, ...] = ()
    final: str = "Done."

    def next_call(self, body: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        done, failed = tool_results_since_prompt(body)
        if done >= len(self.calls) or failed >= MAX_FAILED_CALLS:
            return None
        call = self.calls[done]
        return call(body) if callable(call) else call


@dataclass
class AnthropicMock:
    """The recording server plus the scripts it plays."""

    scripts: list[Script] = field(default_factory=list)
    server: RecordingServer | None = None

    def respond(self, request: Recorded) -> Reply:
        path = request.path.split("?", 1)[0]
        body = request.body if isinstance(request.body, dict) else {}
        if path.endswith("/count_tokens"):
            return Reply(chunks=[json.dumps({"input_tokens": 1000}).encode()])
        if not path.endswith("/v1/messages"):
            return Reply(status=404, chunks=[b'{"type":"error","error":{"type":"not_found"}}'])
        if is_compaction(body):
            return _answer(body, [_text_block(COMPACT_SUMMARY)])
        if not body.get("tools"):  # a side call: title, topic, summary
            return _answer(body, [_text_block('{"title": "engram scenario", "isNewTopic": true}')])
        prompt = last_prompt(body)
        script = next((s for s in self.scripts if s.marker in prompt), None)
        if script is None:
            return _answer(body, [_text_block("OK.")])
        call = script.next_call(body)
        if call is None:
            return _answer(body, [_text_block(script.final)])
        name, tool_input = call
        return _answer(body, [{"type": "tool_use", "id": f"toolu_{next(_MESSAGE_IDS):04d}",
                               "name": name, "input": tool_input}])

    def requests(self) -> list[Recorded]:
        assert self.server is not None
        return self.server.snapshot()

    def model_requests(self) -> list[Recorded]:
        """The conversation's own requests (with tools), in order: what the agent was sent."""
        return [r for r in self.requests() if r.path.split("?", 1)[0].endswith("/v1/messages")
                and isinstance(r.body, dict) and r.body.get("tools")]


@contextmanager
def anthropic_mock(*scripts: Script) -> Iterator[AnthropicMock]:
    mock = AnthropicMock(list(scripts))
    with RecordingServer(mock.respond) as server:
        mock.server = server
        yield mock


# ---- reading a request ---------------------------------------------------------------------


def _content(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [c for c in content or [] if isinstance(c, dict)]


def texts(message: dict[str, Any]) -> list[str]:
    """Every text the message carries, tool results' text included."""
    out: list[str] = []
    for block in _content(message):
        if block.get("type") == "text":
            out.append(str(block.get("text", "")))
        elif block.get("type") == "tool_result":
            inner = block.get("content")
            if isinstance(inner, str):
                out.append(inner)
            else:
                out.extend(str(c.get("text", "")) for c in inner or [] if isinstance(c, dict))
    return out


def last_prompt(body: dict[str, Any]) -> str:
    """The text of the last user message that is a prompt (not only tool results)."""
    for message in reversed(body.get("messages") or []):
        if message.get("role") != "user":
            continue
        blocks = _content(message)
        if any(b.get("type") == "tool_result" for b in blocks):
            continue
        return "\n".join(texts(message))
    return ""


def tool_results_since_prompt(body: dict[str, Any]) -> tuple[int, int]:
    """(successful, failed) tool results since the last prompt."""
    done = failed = 0
    for message in reversed(body.get("messages") or []):
        if message.get("role") != "user":
            continue
        results = [b for b in _content(message) if b.get("type") == "tool_result"]
        if not results:
            break
        failed += sum(1 for b in results if b.get("is_error"))
        done += sum(1 for b in results if not b.get("is_error"))
    return done, failed


def is_compaction(body: dict[str, Any]) -> bool:
    messages = body.get("messages") or []
    if not messages:
        return False
    last = "\n".join(texts(messages[-1]))
    return "summary of the conversation" in last.lower() and "<analysis>" in last.lower() or (
        "create a detailed summary" in last.lower())


def transcript(request: Recorded) -> str:
    """All message text of a request (system prompt left out), in order."""
    body = request.body if isinstance(request.body, dict) else {}
    return "\n".join(t for m in body.get("messages") or [] for t in texts(m))


# ---- answering ----------------------------------------------------------------------------


def _text_block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _answer(body: dict[str, Any], blocks: Sequence[dict[str, Any]]) -> Reply:
    model = str(body.get("model") or MODEL)
    usage = {"input_tokens": 100, "output_tokens": 10, "cache_creation_input_tokens": 0,
             "cache_read_input_tokens": 0}
    events: list[tuple[str | None, Any]] = [("message_start", {
        "type": "message_start",
        "message": {"id": f"msg_mock_{next(_MESSAGE_IDS):04d}", "type": "message",
                    "role": "assistant", "model": model, "content": [], "stop_reason": None,
                    "stop_sequence": None, "usage": usage}})]
    stop = "end_turn"
    for index, block in enumerate(blocks):
        if block["type"] == "text":
            events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                   "content_block": {"type": "text", "text": ""}}))
            events.append(("content_block_delta", {
                "type": "content_block_delta", "index": index,
                "delta": {"type": "text_delta", "text": block["text"]}}))
        else:
            stop = "tool_use"
            events.append(("content_block_start", {
                "type": "content_block_start", "index": index,
                "content_block": {"type": "tool_use", "id": block["id"], "name": block["name"],
                                  "input": {}}}))
            events.append(("content_block_delta", {
                "type": "content_block_delta", "index": index,
                "delta": {"type": "input_json_delta",
                          "partial_json": json.dumps(block["input"])}}))
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    events.append(("message_delta", {"type": "message_delta",
                                     "delta": {"stop_reason": stop, "stop_sequence": None},
                                     "usage": {"output_tokens": 10}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return Reply(headers={"Content-Type": "text/event-stream"}, chunks=sse(events))


# ---- running Claude Code -------------------------------------------------------------------


def claude_binary() -> Path:
    return host_program(CLAUDE_BINARY, CLAUDE_PACKAGE)


def claude_env(scratch: Scratch, mock: AnthropicMock) -> dict[str, str]:
    assert mock.server is not None
    return {**scratch.env, **QUIET_ENV, "ANTHROPIC_BASE_URL": mock.server.url,
            "ANTHROPIC_API_KEY": "sk-ant-mock", "ANTHROPIC_MODEL": MODEL}


@dataclass
class ClaudeRun:
    returncode: int
    events: list[dict[str, Any]]
    stderr: str

    @property
    def session_id(self) -> str:
        return next(str(e["session_id"]) for e in self.events if e.get("session_id"))

    @property
    def result(self) -> dict[str, Any]:
        return next((e for e in reversed(self.events) if e.get("type") == "result"), {})


def run_claude(scratch: Scratch, mock: AnthropicMock, *args: str,
               prompts: Sequence[str] = (), env: dict[str, str] | None = None,
               timeout: float = 60) -> ClaudeRun:
    """One headless Claude Code process in the scratch project; its stream-json events.

    With `prompts`, the process reads stream-json input and each prompt is sent only after the
    previous turn's `result` event: one live session, turn by turn (prompts sent at once are
    merged by Claude into one turn)."""
    command = [str(claude_binary()), "--output-format", "stream-json", "--verbose",
               "--include-hook-events", "--permission-mode", "acceptEdits", *args]
    if prompts:
        command += ["--input-format", "stream-json"]
    events: list[dict[str, Any]] = []
    # stderr goes to a file: a full pipe nobody reads would stall the host mid-run.
    with tempfile.TemporaryFile("w+") as errors, subprocess.Popen(
            command, cwd=scratch.project, env=env or claude_env(scratch, mock),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, text=True) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        try:
            pending = list(prompts)
            if pending:
                _send(proc.stdin, pending.pop(0))
            else:
                proc.stdin.close()
            for line in proc.stdout:
                event = _json_line(line)
                if event is None:
                    continue
                events.append(event)
                if event.get("type") == "result" and prompts and not proc.stdin.closed:
                    if pending:
                        _send(proc.stdin, pending.pop(0))
                    else:
                        proc.stdin.close()
            returncode = proc.wait()
        finally:
            timer.cancel()
        errors.seek(0)
        return ClaudeRun(returncode, events, errors.read())


def _send(stdin: IO[str], prompt: str) -> None:
    message = {"type": "user", "message": {"role": "user", "content": prompt}}
    stdin.write(json.dumps(message) + "\n")
    stdin.flush()


def _json_line(line: str) -> dict[str, Any] | None:
    if not line.startswith("{"):
        return None
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def engram_cli(scratch: Scratch, *args: str) -> subprocess.CompletedProcess[str]:
    """The real `engram` CLI, the one on the scratch PATH (this interpreter's), in the project."""
    program = shutil.which("engram", path=scratch.env["PATH"]) or "engram"
    return subprocess.run([program, *args], cwd=scratch.project, env=scratch.env,
                          capture_output=True, text=True, timeout=60, check=False)


def claude_project(root: Path, memories: dict[str, str]) -> Scratch:
    """A scratch project holding `memories` (path under .engram -> text), with engram's Claude
    hooks installed by the real `engram hooks install claude`."""
    scratch = make_scratch(root)
    for rel, text in memories.items():
        scratch.memory(rel, text)
    done = engram_cli(scratch, "hooks", "install", "claude")
    assert done.returncode == 0, done.stderr
    return scratch


# ---- what the model was sent ----------------------------------------------------------------

def hook_contexts(request: Recorded, event: str) -> list[str]:
    """The additional context of every `event` hook call the request carries, in order
    (`<system-reminder>` blocks headed `<Event>[:<tool>] hook additional context: `)."""
    head = re.compile(r"<system-reminder>\n" + re.escape(event)
                      + r"(?::\w+)? hook additional context: (.*?)\n?</system-reminder>", re.S)
    body = request.body if isinstance(request.body, dict) else {}
    return [match.group(1) for message in body.get("messages") or []
            for text in texts(message) for match in head.finditer(text)]


def turn_request(mock: AnthropicMock, prompt: str) -> Recorded:
    """The first model request whose last prompt is `prompt`: what the model got for it."""
    return next(r for r in mock.model_requests() if isinstance(r.body, dict)
                and last_prompt(r.body).strip().endswith(prompt))


def last_request(mock: AnthropicMock) -> Recorded:
    return mock.model_requests()[-1]
