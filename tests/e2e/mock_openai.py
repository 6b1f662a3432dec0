"""A scripted OpenAI Responses API for Codex, and a small JSON-RPC client for `codex app-server`.

The mock answers `POST /v1/responses` with server-sent events. What it answers is decided by the
request alone (so concurrent requests, e.g. a subagent's, need no shared script state):
- after a tool call's output: a closing assistant message;
- a user turn containing `PATCH <path>`: an `apply_patch` custom tool call adding that file;
- a user turn containing `SPAWN`: a `spawn_agent` function call (offered to unknown models);
- anything else: a short assistant message.
Every request is recorded by the shared RecordingServer; the helpers below read back what the
model was sent.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import queue
import re
import subprocess
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from subprocess import CompletedProcess
from typing import Any

from .conftest import (
    NODE_MODULES,
    Recorded,
    RecordingServer,
    Reply,
    Scratch,
    host_program,
    make_scratch,
    sse,
)

PATCH_WORD = re.compile(r"\bPATCH (\S+)")
# Code names for the files a scripted patch adds: a path in the prompt would route the prompt to
# the path's memories and leave nothing for the file event to bring.
PATCH_TARGETS = {"job-7": "src/api/users.py", "job-8": "src/api/orders.py"}
SPAWN_WORD = "SPAWN"
SUBAGENT_TASK = "Review the database migration plan"
_ids = itertools.count(1)


def _message(text: str) -> dict[str, Any]:
    return {"type": "message", "role": "assistant", "id": f"msg_{next(_ids)}",
            "status": "completed", "content": [{"type": "output_text", "text": text,
                                                "annotations": []}]}


def _stream(item: dict[str, Any]) -> Reply:
    rid = f"resp_{next(_ids)}"
    usage = {"input_tokens": 100, "input_tokens_details": {"cached_tokens": 0},
             "output_tokens": 10, "output_tokens_details": {"reasoning_tokens": 0},
             "total_tokens": 110}
    events: list[tuple[str | None, Any]] = [
        ("response.created", {"type": "response.created", "response": {"id": rid}}),
        ("response.output_item.added", {"type": "response.output_item.added",
                                        "output_index": 0, "item": item}),
        ("response.output_item.done", {"type": "response.output_item.done",
                                       "output_index": 0, "item": item}),
        ("response.completed", {"type": "response.completed",
                                "response": {"id": rid, "usage": usage}}),
    ]
    return Reply(headers={"Content-Type": "text/event-stream"}, chunks=sse(events))


def inputs(record: Recorded) -> list[dict[str, Any]]:
    body = record.body if isinstance(record.body, dict) else {}
    items = body.get("input")
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def item_text(item: Mapping[str, Any]) -> str:
    """The text of one input item (message parts joined; a tool output as sent)."""
    content = item.get("content")
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    if isinstance(content, str):
        return content
    output = item.get("output")
    if isinstance(output, str):
        return output
    return json.dumps(output if output is not None else item, ensure_ascii=False)


def user_turns(record: Recorded) -> list[str]:
    return [item_text(i) for i in inputs(record)
            if i.get("type") == "message" and i.get("role") == "user"]


def developer_texts(record: Recorded) -> list[str]:
    return [item_text(i) for i in inputs(record)
            if i.get("type") == "message" and i.get("role") == "developer"]


def _called(items: list[dict[str, Any]], output: Mapping[str, Any]) -> str | None:
    """The name of the function call an output answers."""
    return next((str(i.get("name")) for i in items if i.get("type") == "function_call"
                 and i.get("call_id") == output.get("call_id")), None)


def respond(record: Recorded) -> Reply:
    if not record.path.rstrip("/").endswith("/responses"):
        return Reply(status=404, chunks=[b"{}"])
    items = inputs(record)
    # Codex announces tools that became ready mid-turn (an MCP server that finished starting)
    # with a `<tools>` message after the last output: the model still answers that output.
    while items and item_text(items[-1]).startswith("<tools>"):
        items = items[:-1]
    last = items[-1] if items else {}
    if last.get("type") == "function_call_output" and _called(items, last) == "spawn_agent":
        # Wait for the subagent, as a model would, so it runs before `codex exec` exits.
        agent = json.loads(str(last.get("output") or "{}")).get("agent_id")
        return _stream({"type": "function_call", "id": f"fc_{next(_ids)}",
                        "call_id": f"call_{next(_ids)}", "name": "wait_agent",
                        "namespace": "multi_agent_v1",
                        "arguments": json.dumps({"targets": [agent], "timeout_ms": 30_000})})
    if last.get("type") in ("function_call_output", "custom_tool_call_output"):
        return _stream(_message("done"))
    prompts = user_turns(record)
    prompt = prompts[-1] if prompts else ""
    patch = PATCH_WORD.search(prompt)
    if patch:
        target = PATCH_TARGETS.get(patch.group(1), patch.group(1))
        body = f"*** Begin Patch\n*** Add File: {target}\n+created by the mock\n*** End Patch\n"
        return _stream({"type": "custom_tool_call", "id": f"ctc_{next(_ids)}",
                        "status": "completed", "call_id": f"call_{next(_ids)}",
                        "name": "apply_patch", "input": body})
    if SPAWN_WORD in prompt and not any(i.get("type") == "function_call" for i in items):
        # Offered inside the `multi_agent_v1` tool namespace: the call names it.
        args = {"message": SUBAGENT_TASK}
        return _stream({"type": "function_call", "id": f"fc_{next(_ids)}",
                        "call_id": f"call_{next(_ids)}", "name": "spawn_agent",
                        "namespace": "multi_agent_v1", "arguments": json.dumps(args)})
    return _stream(_message("ok"))


class CodexMock(RecordingServer):
    """The recording server with the Responses script above."""

    def __init__(self) -> None:
        super().__init__(respond)

    def model_requests(self) -> list[Recorded]:
        return [r for r in self.snapshot() if r.path.rstrip("/").endswith("/responses")]


def config_toml(url: str, model: str = "gpt-5.5", extra: str = "") -> str:
    """`$CODEX_HOME/config.toml` pointing Codex at the mock, with nothing reaching out."""
    return (f'model = "{model}"\nmodel_provider = "mock"\n'
            'approval_policy = "never"\n'
            'check_for_update_on_startup = false\n'
            "[analytics]\nenabled = false\n"
            "[model_providers.mock]\n"
            f'name = "mock"\nbase_url = "{url}/v1"\nwire_api = "responses"\n'
            'env_key = "MOCK_API_KEY"\nrequest_max_retries = 0\nstream_max_retries = 0\n'
            + extra)


# ---- codex app-server: JSON-RPC over stdio ------------------------------------------------------


class AppServer:
    """One live `codex app-server`: requests answered in order, notifications kept."""

    def __init__(self, argv: list[str], env: Mapping[str, str], cwd: Path) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=dict(env), cwd=cwd,
                                     text=True, encoding="utf-8")
        self._ids = itertools.count(1)
        self._responses: dict[int, queue.Queue[dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self.notifications: list[dict[str, Any]] = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if "id" in message and "method" in message:  # a request to us: approve by default
                self._send({"id": message["id"], "result": {"decision": "accept"}})
                continue
            if "id" in message:
                with self._lock:
                    box = self._responses.get(message["id"])
                if box is not None:
                    box.put(message)
                continue
            with self._changed:
                self.notifications.append(message)
                self._changed.notify_all()

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any] | None = None,
                timeout: float = 60) -> Any:
        rid = next(self._ids)
        box: queue.Queue[dict[str, Any]] = queue.Queue()
        with self._lock:
            self._responses[rid] = box
        self._send({"id": rid, "method": method, "params": params or {}})
        reply = box.get(timeout=timeout)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result")

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        self._send({"method": method, "params": params or {}})

    def wait_for(self, match: Callable[[dict[str, Any]], bool], *, after: int = 0,
                 timeout: float = 60) -> dict[str, Any]:
        """The first notification at index >= `after` that matches; TimeoutError otherwise."""
        with self._changed:
            found = self._changed.wait_for(
                lambda: next((n for n in self.notifications[after:] if match(n)), None),
                timeout=timeout)
            if not found:
                methods = [n.get("method") for n in self.notifications[after:]]
                raise TimeoutError(f"no matching notification; got {methods}")
            return next(n for n in self.notifications[after:] if match(n))

    def start(self) -> None:
        self.request("initialize", {"clientInfo": {"name": "engram-e2e", "version": "1"}})
        self.notify("initialized")

    def close(self) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        with contextlib.suppress(OSError):
            self.proc.stdin.close()  # end of input: app-server exits
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(timeout=10)
        self.proc.stdout.close()


def env_for_codex(base: Mapping[str, str], codex_home: Path) -> dict[str, str]:
    return {**base, "CODEX_HOME": str(codex_home), "MOCK_API_KEY": "test-key",
            "RUST_LOG": "error", "NO_COLOR": "1"}


def position(record: Recorded, needle: str) -> int:
    """Index of the first input item whose text holds `needle`."""
    return next(n for n, item in enumerate(inputs(record)) if needle in item_text(item))


# The memories every Codex scenario starts from. A distinctive word in each body ("Marker: …")
# lets a test count the copies of that body in a request.
BASE_MEMORIES = {
    "rules/team-style.md": """---
id: team-style
type: rule
directive: Answer in short paragraphs and name the files you touch.
load: always
---
Keep answers short and name every file you changed. Marker: teamstylebody.
""",
    "rules/release-checklist.md": """---
id: release-checklist
type: rule
directive: Run the release checklist before tagging a version.
tags: [release, versioning]
triggers: ["cut a release"]
---
Update CHANGELOG.md, run the full suite, then tag vX.Y.Z. Marker: releasebody.
""",
}

# ---- a scratch project driven by the real Codex -------------------------------------------------

NATIVE = "@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"
RUN_TIMEOUT = 120  # seconds; a run takes about one


def codex_program() -> Path:
    """The native binary where this platform's package has one (no node start-up), else the
    npm launcher."""
    native = NODE_MODULES / NATIVE
    return native if native.is_file() else host_program(".bin/codex", "@openai/codex")


@dataclass
class Run:
    """One `codex exec`: its exit, its JSON event lines and the model requests it made."""

    returncode: int
    stdout: str
    stderr: str
    requests: list[Recorded]

    @property
    def events(self) -> list[dict[str, Any]]:
        out = []
        for line in self.stdout.splitlines():
            with contextlib.suppress(ValueError):
                out.append(json.loads(line))
        return out

    @property
    def thread_id(self) -> str:
        return next(str(e["thread_id"]) for e in self.events if e.get("type") == "thread.started")

    @property
    def answers(self) -> list[str]:
        return [str(e["item"].get("text")) for e in self.events
                if e.get("type") == "item.completed" and e["item"].get("type") == "agent_message"]


@dataclass
class CodexWorld:
    """A scratch project with engram's Codex hooks installed by `engram hooks install codex`,
    a `$CODEX_HOME` of its own (not under HOME, as `CODEX_HOME` users have it) pointing Codex
    at the mock, and the project and hooks trusted the way Codex records trust."""

    scratch: Scratch
    codex: Path
    mock: CodexMock
    codex_home: Path

    @property
    def project(self) -> Path:
        return self.scratch.project

    @property
    def state_dir(self) -> Path:
        return self.project / ".engram" / ".state"

    def env(self, **changes: str) -> dict[str, str]:
        return {**env_for_codex(self.scratch.env, self.codex_home), **changes}

    def engram(self, *args: str, env: Mapping[str, str] | None = None) -> CompletedProcess[str]:
        return subprocess.run(["engram", *args], cwd=self.project, env=dict(env or self.env()),
                              capture_output=True, text=True, timeout=RUN_TIMEOUT)

    def write_config(self, *, trust_project: bool = True, extra: str = "") -> None:
        text = config_toml(self.mock.url) + extra
        if trust_project:
            text += f'[projects."{self.project}"]\ntrust_level = "trusted"\n'
        (self.codex_home / "config.toml").write_text(text, encoding="utf-8")

    def hooks_list(self) -> list[dict[str, Any]]:
        """Codex's own view of the hooks for this project (`hooks/list` over app-server)."""
        with self.app() as app:
            listing = app.request("hooks/list", {"cwds": [str(self.project)]})
        return [h for entry in listing["data"] for h in entry.get("hooks", [])]

    def trust_hooks(self) -> None:
        """Record each hook's trust as Codex's /hooks screen does: key and current hash."""
        state = "".join(f'[hooks.state."{h["key"]}"]\ntrusted_hash = "{h["currentHash"]}"\n'
                        for h in self.hooks_list())
        with open(self.codex_home / "config.toml", "a", encoding="utf-8") as out:
            out.write(state)

    def exec(self, prompt: str, *, resume: bool = False, args: tuple[str, ...] = (),
             env: Mapping[str, str] | None = None) -> Run:
        argv = [str(self.codex), "exec", *(["resume", "--last"] if resume else []), "--json",
                "--skip-git-repo-check", *args]
        if not resume:
            argv[3:3] = ["-s", "workspace-write"]  # resume keeps the session's sandbox
        before = len(self.mock.model_requests())
        proc = subprocess.run([*argv, prompt], cwd=self.project, env=dict(env or self.env()),
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=RUN_TIMEOUT)
        return Run(proc.returncode, proc.stdout, proc.stderr,
                   self.mock.model_requests()[before:])

    @contextlib.contextmanager
    def app(self, env: Mapping[str, str] | None = None) -> Iterator[AppServer]:
        server = AppServer([str(self.codex), "app-server"], env or self.env(), self.project)
        try:
            server.start()
            yield server
        finally:
            server.close()


@contextlib.contextmanager
def codex_world(root: Path, memories: Mapping[str, str], *, trusted: bool = True,
                install: bool = True) -> Iterator[CodexWorld]:
    """A CodexWorld under `root`, its mock serving for the block."""
    codex = codex_program()
    scratch = make_scratch(root)
    for rel, text in memories.items():
        scratch.memory(rel, text)
    codex_home = root / "codex-home"
    codex_home.mkdir()
    with CodexMock() as mock:
        world = CodexWorld(scratch, codex, mock, codex_home)
        world.write_config()
        if install:
            done = world.engram("hooks", "install", "codex")
            assert done.returncode == 0, done.stderr
            if trusted:
                world.trust_hooks()
        yield world


def turn(app: AppServer, thread_id: str, text: str) -> list[dict[str, Any]]:
    """Run one turn to completion; returns the notifications it produced."""
    start = len(app.notifications)
    app.request("turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": text}]})
    app.wait_for(lambda n: n.get("method") == "turn/completed", after=start,
                 timeout=RUN_TIMEOUT)
    return app.notifications[start:]


def hook_runs(notifications: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The `run` of each hook/completed notification, in order."""
    return [n["params"]["run"] for n in notifications if n.get("method") == "hook/completed"]
