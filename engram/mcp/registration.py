"""engram's MCP server in each host's MCP config: registered by `engram hooks install`, removed by
`uninstall`, reported by `status`.

One entry named `engram` per file, written surgically (engram.mcp.textedit): the user's other
servers, keys and formatting stay as they are, installing twice changes nothing, and uninstall
gives back the file as it was before install.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from engram.errors import EngramError, UnknownHostError
from engram.fsutil import atomic_write
from engram.install import GLOBAL, PROJECT, codex_home
from engram.mcp import textedit

NAME = "engram"
# Hosts that have MCP but no hooks engram installs: `hooks install` registers only the server.
MCP_ONLY = ("vscode",)
CLAUDE_APPROVAL_NOTE = ("Claude Code asks once before it starts a project's .mcp.json servers "
                        "(or list engram in enabledMcpjsonServers in .claude/settings.local.json)")
CODEX_PROJECT_NOTE = "Codex reads a project's .codex/config.toml only in a trusted project"


class Target(NamedTuple):
    """Where one host keeps its MCP servers, and how its entry looks."""

    host: str
    path: Path
    container: str  # JSON: the object of servers; TOML: the table above the server's
    fmt: str  # "json" | "toml"
    typed: bool  # the entry says "type": "stdio"


class McpResult(NamedTuple):
    host: str
    scope: str
    path: Path
    action: str  # "installed" | "updated" | "unchanged" | "removed" | "absent" | "skipped"
    notes: tuple[str, ...] = ()


class McpStatus(NamedTuple):
    host: str
    scope: str
    path: Path
    registered: bool
    problems: tuple[str, ...] = ()


def hosts() -> tuple[str, ...]:
    return ("claude", "codex", "gemini", "cursor", *MCP_ONLY)


def _vscode_user_dir(home: Path) -> Path:
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "Code" / "User"
    if os.name == "nt":
        return Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming") / "Code" / "User"
    return Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config") / "Code" / "User"


def target(host: str, *, project_dir: Path, global_: bool = False,
           home: Path | None = None) -> Target:
    """The MCP config file of `host` for the project (or the user, with `global_`)."""
    user = home if home is not None else Path.home()
    base = user if global_ else project_dir
    if host == "claude":  # user scope: the mcpServers of ~/.claude.json
        return Target(host, user / ".claude.json" if global_ else project_dir / ".mcp.json",
                      "mcpServers", "json", True)
    if host == "codex":
        path = codex_home(home) / "config.toml" if global_ else project_dir / ".codex" / \
            "config.toml"
        return Target(host, path, "mcp_servers", "toml", False)
    if host == "gemini":
        return Target(host, base / ".gemini" / "settings.json", "mcpServers", "json", False)
    if host == "cursor":
        return Target(host, base / ".cursor" / "mcp.json", "mcpServers", "json", False)
    if host == "vscode":
        path = _vscode_user_dir(user) / "mcp.json" if global_ else project_dir / ".vscode" / \
            "mcp.json"
        return Target(host, path, "servers", "json", True)
    raise UnknownHostError(f"unknown host {host!r}; hosts with MCP: {', '.join(hosts())}")


def server_entry(typed: bool, executable: str | None = None) -> dict[str, Any]:
    """`{"command": "engram", "args": ["mcp"]}`: found on PATH when the host starts it, as the
    hook commands are, since the config may be committed and shared (an absolute path works for
    one person only). Without engram on PATH the host lists the server as failed and carries
    on."""
    entry: dict[str, Any] = {"type": "stdio"} if typed else {}
    entry["command"] = executable or "engram"
    entry["args"] = ["mcp"]
    return entry


def is_engram_entry(entry: Any) -> bool:
    """engram's own server entry: its program is engram (or `python -m engram`), run as `mcp`."""
    if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
        return False
    args = entry.get("args", [])
    if not isinstance(args, list) or not args or args[-1] != "mcp":
        return False
    program = Path(entry["command"].replace("\\", "/")).name.lower()
    for suffix in (".exe", ".cmd", ".bat"):
        program = program.removesuffix(suffix)
    return program == "engram" or args[:2] == ["-m", "engram"]


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise EngramError(f"{path}: cannot be read: {exc}") from None


def _current(t: Target, text: str) -> Any:
    if t.fmt == "toml":
        servers = textedit.parse_toml(text, str(t.path)).get(t.container)
    else:
        servers = textedit.parse_json(text, str(t.path)).get(t.container)
    return servers.get(NAME) if isinstance(servers, dict) else None


def register(host: str, *, project_dir: Path, global_: bool = False, home: Path | None = None,
             executable: str | None = None) -> McpResult:
    """Add (or bring up to date) engram's server entry in `host`'s MCP config."""
    t = target(host, project_dir=project_dir, global_=global_, home=home)
    scope = GLOBAL if global_ else PROJECT
    text = _read(t.path)
    entry = server_entry(t.typed, executable)
    current = _current(t, text) if text is not None else None
    if current is not None and not is_engram_entry(current):
        return McpResult(host, scope, t.path, "skipped", (
            f"{t.container}.{NAME} there is not engram's own server; left as it is",))
    if current == entry:
        return McpResult(host, scope, t.path, "unchanged", _notes(host, global_))
    if t.fmt == "toml":
        new = textedit.toml_set(text or "", str(t.path), (t.container, NAME), entry)
    else:
        new = textedit.json_set(text or "", str(t.path), t.container, NAME, entry)
    atomic_write(t.path, new, shared=True)
    action = "updated" if current is not None else "installed"
    return McpResult(host, scope, t.path, action, _notes(host, global_))


def _notes(host: str, global_: bool) -> tuple[str, ...]:
    if host == "claude" and not global_:
        return (CLAUDE_APPROVAL_NOTE,)
    if host == "codex" and not global_:
        return (CODEX_PROJECT_NOTE,)
    return ()


def unregister(host: str, *, project_dir: Path, global_: bool = False,
               home: Path | None = None) -> McpResult:
    """Remove engram's server entry (only it); a file left empty by that is removed too."""
    t = target(host, project_dir=project_dir, global_=global_, home=home)
    scope = GLOBAL if global_ else PROJECT
    text = _read(t.path)
    current = _current(t, text) if text is not None else None
    if text is None or current is None or not is_engram_entry(current):
        return McpResult(host, scope, t.path, "absent")
    if t.fmt == "toml":
        new = textedit.toml_remove(text, str(t.path), (t.container, NAME))
    else:
        new = textedit.json_remove(text, str(t.path), t.container, NAME)
    if new.strip() in ("", "{}"):
        t.path.unlink()  # engram created this file: leave no empty shell behind
    else:
        atomic_write(t.path, new, shared=True)
    return McpResult(host, scope, t.path, "removed")


def status(*, project_dir: Path, home: Path | None = None,
           hosts_: Sequence[str] | None = None) -> list[McpStatus]:
    """Per host and scope: registered or not, and what stands in the way."""
    out: list[McpStatus] = []
    for host in hosts_ or hosts():
        if host not in hosts():
            continue
        for global_ in (False, True):
            t = target(host, project_dir=project_dir, global_=global_, home=home)
            scope = GLOBAL if global_ else PROJECT
            try:
                text = _read(t.path)
                current = _current(t, text) if text is not None else None
            except EngramError as exc:
                out.append(McpStatus(host, scope, t.path, False, (str(exc),)))
                continue
            if current is None or not is_engram_entry(current):
                out.append(McpStatus(host, scope, t.path, False))
                continue
            problems = []
            program = current["command"]
            if shutil.which(program) is None:
                problems.append(f"command not found: {program} (put engram on PATH, or run "
                                f"engram hooks install {host}{' --global' if global_ else ''})")
            elif current != server_entry(t.typed):
                problems.append("entry differs from what this engram writes (run engram hooks "
                                f"install {host}{' --global' if global_ else ''})")
            out.append(McpStatus(host, scope, t.path, True, tuple(problems)))
    return out


def format_result(result: McpResult) -> str:
    lines = [f"{result.host}: mcp server {result.action} ({result.scope}) {result.path}"]
    lines.extend(f"  note: {note}" for note in result.notes)
    return "\n".join(lines) + "\n"


def format_status(rows: Sequence[McpStatus]) -> str:
    lines = []
    for row in rows:
        state = "registered" if row.registered else "not registered"
        lines.append(f"{row.host} {row.scope}: mcp server {state} {row.path}")
        lines.extend(f"  problem: {problem}" for problem in row.problems)
    return "\n".join(lines) + ("\n" if lines else "")
