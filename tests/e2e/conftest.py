"""The end-to-end suite's common ground: the pinned host programs, a recording model API on
loopback, and a scratch project with its own HOME, so a host run sees nothing of this machine.

The host programs come from tests/e2e/package.json (pinned, with its lockfile), installed by
`npm ci --prefix tests/e2e` (the README's and CI's set-up). Under CI a host that is not there
fails the suite; elsewhere it is skipped with the reason.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

E2E_DIR = Path(__file__).resolve().parent
NODE_MODULES = E2E_DIR / "node_modules"
INSTALL_HINT = "npm ci --prefix tests/e2e"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if E2E_DIR in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.e2e)


def host_program(relative: str, package: str) -> Path:
    """The installed host binary, or a skip (a failure under CI) naming what is missing."""
    path = NODE_MODULES / relative
    if path.is_file():
        return path
    if shutil.which("npm") is None:
        reason = "npm is not installed"
    else:
        reason = f"{package} is not installed (run `{INSTALL_HINT}`)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"real-host suite: {reason}")
    pytest.skip(f"real-host suite: {reason}")


# ---- a model API that records every request --------------------------------------------------


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, or the raw text when it is not JSON

    def text(self) -> str:
        """Everything the model was sent, as one string to search."""
        if isinstance(self.body, str):
            return self.body
        return json.dumps(self.body, ensure_ascii=False)


Responder = Callable[["Recorded"], "Reply"]


@dataclass
class Reply:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    chunks: list[bytes] = field(default_factory=list)  # sent in order, flushed one by one


class RecordingServer:
    """A loopback HTTP server: each request is recorded, then answered by `responder`."""

    def __init__(self, responder: Responder) -> None:
        self.requests: list[Recorded] = []
        self.responder = responder
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    raw = _read_chunked(self.rfile)
                text = raw.decode("utf-8", "replace")
                try:
                    body: Any = json.loads(text) if text else None
                except ValueError:
                    body = text
                record = Recorded(self.command, self.path, dict(self.headers.items()), body)
                with server._lock:
                    server.requests.append(record)
                reply = server.responder(record)
                self.send_response(reply.status)
                headers = {"Content-Type": "application/json", **reply.headers}
                payload = b"".join(reply.chunks)
                headers["Content-Length"] = str(len(payload))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
                self.wfile.flush()

            do_POST = do_GET = do_PUT = _handle

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> RecordingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def snapshot(self) -> list[Recorded]:
        with self._lock:
            return list(self.requests)


def _read_chunked(stream: Any) -> bytes:
    out = b""
    while True:
        size = int(stream.readline().strip() or b"0", 16)
        if size == 0:
            stream.readline()
            return out
        out += stream.read(size)
        stream.readline()


def sse(events: list[tuple[str | None, Any]]) -> list[bytes]:
    """Server-sent events: `event:` lines where named, one JSON `data:` line each."""
    chunks = []
    for name, data in events:
        head = f"event: {name}\n" if name else ""
        chunks.append(f"{head}data: {json.dumps(data)}\n\n".encode())
    return chunks


# ---- a scratch project with an isolated HOME --------------------------------------------------


@dataclass
class Scratch:
    project: Path
    home: Path
    env: dict[str, str]

    def memory(self, rel: str, text: str) -> Path:
        path = self.project / ".engram" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path


def make_scratch(root: Path) -> Scratch:
    """A git-less project dir and a HOME of its own under `root`; PATH holds this interpreter's
    scripts (where `engram` is installed) and the system's, nothing of the developer's home.
    For a module-scoped scenario, call it with a `tmp_path_factory` directory."""
    project = root / "project"
    home = root / "home"
    project.mkdir()
    home.mkdir()
    (project / ".engram").mkdir()
    scripts = str(Path(sys.executable).parent)
    env = {
        "HOME": str(home),
        "PATH": os.pathsep.join([scripts, "/usr/local/bin", "/usr/bin", "/bin"]),
        "LANG": "C.UTF-8",
        "ENGRAM_HOME": str(home / ".engram"),
        "ENGRAM_TODAY": os.environ.get("ENGRAM_TODAY", "2026-12-02"),
        "TMPDIR": str(root),
    }
    return Scratch(project, home, env)


@pytest.fixture
def scratch(tmp_path: Path) -> Iterator[Scratch]:
    """A scratch project with its own HOME (see make_scratch)."""
    yield make_scratch(tmp_path)
