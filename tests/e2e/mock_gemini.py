"""A loopback Gemini API for the real Gemini CLI: records every request, answers the agent's
streamed calls from a script, and drives the Gemini CLI headless or in a pseudo-terminal.

What the model received is read from the recorded `streamGenerateContent` bodies: their
`contents` are the whole conversation Gemini sent, hook context included.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import termios
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .conftest import Recorded, RecordingServer, Reply, Scratch, host_program, sse

MODEL = "gemini-2.5-flash"
STREAM = ":streamGenerateContent"
# A prompt holding `READ <path>` makes the mock call read_file on that path once.
READ_TRIGGER = "READ "
PLACEHOLDER = "Type your message"


def gemini_program() -> Path:
    return host_program(".bin/gemini", "@google/gemini-cli")


def _usage() -> dict[str, int]:
    return {"promptTokenCount": 10, "candidatesTokenCount": 2, "totalTokenCount": 12}


def _stream(parts: list[dict[str, Any]]) -> Reply:
    event = {"candidates": [{"content": {"role": "model", "parts": parts},
                             "finishReason": "STOP", "index": 0}],
             "usageMetadata": _usage(), "modelVersion": MODEL}
    return Reply(headers={"Content-Type": "text/event-stream"}, chunks=sse([(None, event)]))


def _json(body: Any) -> Reply:
    return Reply(chunks=[json.dumps(body).encode()])


def user_texts(body: Any) -> list[str]:
    """Every text part of every user turn in one request, in order."""
    out: list[str] = []
    for content in (body or {}).get("contents", []):
        if content.get("role") != "user":
            continue
        for part in content.get("parts", []):
            if isinstance(part.get("text"), str):
                out.append(part["text"])
            response = part.get("functionResponse")
            if response is not None:
                out.append(json.dumps(response.get("response"), ensure_ascii=False))
    return out


def _answer(record: Recorded) -> Reply:
    if ":countTokens" in record.path:
        return _json({"totalTokens": 10})
    if STREAM not in record.path:
        # generateContent: the model router and JSON utility calls; `flash` keeps the pinned model.
        text = json.dumps({"reasoning": "mock", "model_choice": "flash"})
        return _json({"candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                                      "finishReason": "STOP", "index": 0}],
                      "usageMetadata": _usage()})
    contents = (record.body or {}).get("contents", [])
    last = contents[-1] if contents else {}
    answered = any("functionResponse" in part for part in last.get("parts", []))
    prompt = " ".join(p.get("text", "") for p in last.get("parts", []) if "text" in p)
    if not answered and READ_TRIGGER in prompt:
        target = prompt.split(READ_TRIGGER, 1)[1].split()[0]
        return _stream([{"functionCall": {"name": "read_file", "args": {"file_path": target}}}])
    return _stream([{"text": "Done."}])


@dataclass
class GeminiMock:
    """The recording server with Gemini's answers; `model_calls()` are the agent's requests."""

    server: RecordingServer = field(default_factory=lambda: RecordingServer(_answer))

    def model_calls(self) -> list[Recorded]:
        return [r for r in self.server.snapshot() if STREAM in r.path]

    def seen(self, index: int = -1) -> str:
        """All user-side text of one model call (the last by default), as one string."""
        calls = self.model_calls()
        return "\n".join(user_texts(calls[index].body)) if calls else ""


@dataclass
class GeminiRun:
    returncode: int
    stdout: str
    stderr: str

    def json(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.stdout[self.stdout.index("{"):])
        return data


def gemini_env(scratch: Scratch, mock: GeminiMock) -> dict[str, str]:
    """Offline and quiet: the mock's URL, telemetry and updates off, a trusted project."""
    settings = {"telemetry": {"enabled": False}, "privacy": {"usageStatisticsEnabled": False},
                "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
                "security": {"auth": {"selectedType": "gemini-api-key"}},
                "model": {"name": MODEL}}
    gemini_home = scratch.home / ".gemini"
    gemini_home.mkdir(exist_ok=True)
    (gemini_home / "settings.json").write_text(json.dumps(settings))
    (gemini_home / "trustedFolders.json").write_text(
        json.dumps({str(scratch.project): "TRUST_FOLDER"}))
    return {**scratch.env, "GOOGLE_GEMINI_BASE_URL": mock.server.url,
            "GEMINI_API_KEY": "mock-key", "GEMINI_CLI_NO_RELAUNCH": "1",
            "GEMINI_TELEMETRY_ENABLED": "false", "NO_COLOR": "1", "CI": "",
            "TERM": "xterm-256color"}


def run_gemini(scratch: Scratch, mock: GeminiMock, prompt: str, *extra: str,
               env: dict[str, str] | None = None, timeout: float = 60) -> GeminiRun:
    """One headless turn: `gemini -p PROMPT -o json`."""
    argv = [str(gemini_program()), "-p", prompt, "-o", "json", "-m", MODEL, *extra]
    proc = subprocess.run(argv, cwd=scratch.project, env=env or gemini_env(scratch, mock),
                          capture_output=True, text=True, timeout=timeout, check=False)
    return GeminiRun(proc.returncode, proc.stdout, proc.stderr)


class Terminal:
    """The Gemini CLI in a pseudo-terminal, for several prompts in one live session."""

    def __init__(self, scratch: Scratch, mock: GeminiMock) -> None:
        self.mock = mock
        pid, fd = pty.fork()
        if pid == 0:  # the child: become the Gemini CLI
            # A pty starts at 0x0, and Ink redraws forever without drawing the input box.
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 160, 0, 0))
            os.chdir(scratch.project)
            program = str(gemini_program())
            os.execve(program, [program, "-m", MODEL], gemini_env(scratch, mock))
        self.pid, self.fd = pid, fd
        self.screen = ""

    def _read(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                try:
                    self.screen += os.read(self.fd, 65536).decode("utf-8", "replace")
                except OSError:
                    return

    def wait_for(self, check: Callable[[], bool], timeout: float = 45) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self._read(0.1)
            if check():
                return
        raise AssertionError(f"timed out; the terminal showed:\n{self.screen[-3000:]}")

    def settle(self, quiet: float = 0.8, timeout: float = 20) -> None:
        """Wait until the screen has not changed for `quiet` seconds (hooks done, input idle)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            before = len(self.screen)
            self._read(quiet)
            if len(self.screen) == before:
                return

    def ready(self) -> None:
        self.wait_for(lambda: PLACEHOLDER in self.screen)
        self.settle()

    def prompt(self, text: str) -> None:
        """Type a prompt, submit it and wait until the model has answered and input is back."""
        before = len(self.mock.model_calls())
        os.write(self.fd, text.encode())
        self.settle(0.5)
        mark = len(self.screen)
        os.write(self.fd, b"\r")
        self.wait_for(lambda: len(self.mock.model_calls()) > before)
        self.wait_for(lambda: PLACEHOLDER in self.screen[mark:])
        self.settle()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.kill(self.pid, 9)
        with contextlib.suppress(OSError):
            os.waitpid(self.pid, 0)
        with contextlib.suppress(OSError):
            os.close(self.fd)


@contextlib.contextmanager
def terminal(scratch: Scratch, mock: GeminiMock) -> Iterator[Terminal]:
    term = Terminal(scratch, mock)
    try:
        yield term
    finally:
        term.close()
