"""Drive the real `engram mcp` with the MCP SDK's own stdio client, and run the real CLI beside
it: what the tests compare the server's answers with."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

T = TypeVar("T")
ENGRAM = str(Path(sys.executable).parent / "engram")
TIMEOUT = 120  # seconds for a whole scenario: the SDK's import alone takes seconds on a busy box


def project_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment a host would give the server: the usual variables, engram's home."""
    env = {key: os.environ[key] for key in ("PATH", "HOME", "LANG") if key in os.environ}
    return {**env, "ENGRAM_HOME": str(home), "ENGRAM_TODAY": "2026-12-02", **extra}


def with_server(project: Path, env: dict[str, str],
                scenario: Callable[[ClientSession], Awaitable[T]]) -> tuple[T, str]:
    """Start `engram mcp` in `project`, initialize, run `scenario`; its result and the
    server's stderr."""
    with tempfile.TemporaryFile("w+", encoding="utf-8") as errlog:
        async def main() -> T:
            params = StdioServerParameters(command=ENGRAM, args=["mcp"], cwd=str(project),
                                           env=env)
            with anyio.fail_after(TIMEOUT):
                async with stdio_client(params, errlog=errlog) as streams, \
                        ClientSession(*streams) as session:
                    await session.initialize()
                    return await scenario(session)

        result = anyio.run(main)
        errlog.seek(0)
        return result, errlog.read()


def texts(result: Any) -> list[str]:
    """The text blocks of a tool result."""
    return [block.text for block in result.content]


def cli(project: Path, env: dict[str, str], *args: str,
        stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The real `engram` console script, as a user runs it."""
    return subprocess.run([ENGRAM, *args], cwd=project, env=env, input=stdin,
                          capture_output=True, text=True, timeout=120)
