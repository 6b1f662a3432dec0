"""`engram hooks install|uninstall|status` and engram's MCP server in each host's MCP config: the
user's own servers and formatting kept, twice changes nothing, uninstall restores the file byte
for byte, --no-mcp leaves it alone."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from engram.cli import cli
from engram.errors import EngramError
from engram.mcp.registration import register, status, target, unregister

EXE = "/opt/My Tools/bin/engram"
# Each host's MCP config as a user might have it already: their own server, their own layout.
USER_FILES = {
    "claude": (".mcp.json", '{\n    "mcpServers": {\n        "db": {"command": "pg-mcp"}\n'
               '    }\n}\n'),
    "codex": (".codex/config.toml", '# my codex\nmodel = "o3"\n\n[mcp_servers.docs]\n'
              'command = "docs-mcp" # local\nargs = ["--port", "0"]\n'),
    "gemini": (".gemini/settings.json", '{"theme": "GitHub", "mcpServers": {"db": '
               '{"command": "pg-mcp", "trust": false}}, "general": {"vimMode": true}}'),
    "cursor": (".cursor/mcp.json", '{\n\t"mcpServers": {\n\t\t"db": {"url": "http://localhost:9"}'
               '\n\t}\n}\n'),
    "vscode": (".vscode/mcp.json", '{\n  "inputs": [],\n  "servers": {\n    "db": {\n'
               '      "type": "stdio",\n      "command": "pg-mcp"\n    }\n  }\n}\n'),
}


def servers(host: str, path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    if host == "codex":
        found: dict[str, Any] = tomllib.loads(text)["mcp_servers"]
        return found
    data = json.loads(text)
    found = data["servers" if host == "vscode" else "mcpServers"]
    return found


@pytest.mark.parametrize("host", list(USER_FILES))
def test_register_keeps_the_users_file_and_uninstall_restores_it(tmp_path: Path,
                                                                 host: str) -> None:
    rel, original = USER_FILES[host]
    path = tmp_path / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(original, encoding="utf-8")

    first = register(host, project_dir=tmp_path, executable=EXE, home=tmp_path / "home")
    assert (first.action, first.path) == ("installed", path)
    found = servers(host, path)
    assert found["engram"]["command"] == EXE and found["engram"]["args"] == ["mcp"]
    assert {k: v for k, v in found.items() if k != "engram"} == servers_before(host, original)
    installed = path.read_bytes()
    again = register(host, project_dir=tmp_path, executable=EXE, home=tmp_path / "home")
    assert again.action == "unchanged" and path.read_bytes() == installed

    gone = unregister(host, project_dir=tmp_path, home=tmp_path / "home")
    assert gone.action == "removed"
    assert path.read_text(encoding="utf-8") == original


def servers_before(host: str, original: str) -> dict[str, Any]:
    if host == "codex":
        found: dict[str, Any] = tomllib.loads(original)["mcp_servers"]
        return found
    found = json.loads(original)["servers" if host == "vscode" else "mcpServers"]
    return found


def test_a_file_install_created_goes_with_uninstall(tmp_path: Path) -> None:
    result = register("cursor", project_dir=tmp_path, executable=EXE)
    assert result.action == "installed"
    assert json.loads(result.path.read_text()) == {
        "mcpServers": {"engram": {"command": EXE, "args": ["mcp"]}}}
    assert unregister("cursor", project_dir=tmp_path).action == "removed"
    assert not result.path.exists()
    assert unregister("cursor", project_dir=tmp_path).action == "absent"


def test_a_users_own_engram_server_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / ".mcp.json"
    text = '{"mcpServers": {"engram": {"command": "npx", "args": ["engram-notes"]}}}\n'
    path.write_text(text)
    result = register("claude", project_dir=tmp_path, executable=EXE)
    assert result.action == "skipped" and "not engram's own server" in result.notes[0]
    assert unregister("claude", project_dir=tmp_path).action == "absent"
    assert path.read_text() == text


def test_an_unreadable_config_is_an_error_naming_it_and_never_rewritten(tmp_path: Path) -> None:
    path = tmp_path / ".cursor" / "mcp.json"
    path.parent.mkdir()
    path.write_text('{"mcpServers": {}, // mine\n}')
    with pytest.raises(EngramError, match=r"\.cursor/mcp\.json: not plain JSON"):
        register("cursor", project_dir=tmp_path, executable=EXE)
    assert path.read_text() == '{"mcpServers": {}, // mine\n}'


def test_global_scopes_are_the_hosts_user_files(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    assert target("claude", project_dir=tmp_path, global_=True, home=home).path == \
        home / ".claude.json"
    assert target("codex", project_dir=tmp_path, global_=True, home=home).path == \
        home / ".codex" / "config.toml"
    assert target("gemini", project_dir=tmp_path, global_=True, home=home).path == \
        home / ".gemini" / "settings.json"
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    result = register("codex", project_dir=tmp_path, global_=True, home=home, executable=EXE)
    assert result.path == tmp_path / "codex-home" / "config.toml"
    assert tomllib.loads(result.path.read_text())["mcp_servers"]["engram"]["command"] == EXE


def test_cli_installs_hooks_and_server_and_no_mcp_skips_it(tmp_path: Path) -> None:
    (tmp_path / ".engram").mkdir()
    runner = CliRunner()
    plain = runner.invoke(cli, ["hooks", "install", "gemini", "--workspace", str(tmp_path),
                                "--no-mcp"])
    assert plain.exit_code == 0, plain.output
    settings = json.loads((tmp_path / ".gemini" / "settings.json").read_text())
    assert "hooks" in settings and "mcpServers" not in settings

    both = runner.invoke(cli, ["hooks", "install", "gemini", "--workspace", str(tmp_path)])
    assert both.exit_code == 0, both.output
    assert f"gemini: mcp server installed (project) {tmp_path}/.gemini/settings.json" in \
        both.output
    settings = json.loads((tmp_path / ".gemini" / "settings.json").read_text())
    # Found on PATH, like the hook commands: the file may be committed and shared.
    assert settings["mcpServers"]["engram"] == {"command": "engram", "args": ["mcp"]}

    shown = runner.invoke(cli, ["hooks", "status", "gemini", "--workspace", str(tmp_path)])
    assert f"gemini project: mcp server registered {tmp_path}/.gemini/settings.json" in \
        shown.output
    assert "gemini global: mcp server not registered" in shown.output

    vscode = runner.invoke(cli, ["hooks", "install", "vscode", "--workspace", str(tmp_path)])
    assert vscode.output == (f"vscode: mcp server installed (project) "
                             f"{tmp_path}/.vscode/mcp.json\n")

    gone = runner.invoke(cli, ["hooks", "uninstall", "gemini", "--workspace", str(tmp_path)])
    assert gone.exit_code == 0, gone.output
    assert gone.output.splitlines()[0] == (f"gemini: mcp server removed (project) "
                                           f"{tmp_path}/.gemini/settings.json")
    assert not (tmp_path / ".gemini" / "settings.json").exists()


def test_status_names_a_server_command_that_is_gone(tmp_path: Path) -> None:
    register("cursor", project_dir=tmp_path, executable=str(tmp_path / "old-venv" / "engram"))
    rows = {(r.host, r.scope): r for r in status(project_dir=tmp_path, home=tmp_path / "home",
                                                 hosts_=["cursor"])}
    row = rows[("cursor", "project")]
    assert row.registered
    assert row.problems == (f"command not found: {tmp_path}/old-venv/engram (put engram on "
                            "PATH, or run engram hooks install cursor)",)
    assert not rows[("cursor", "global")].registered
