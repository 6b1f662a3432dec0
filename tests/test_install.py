"""Install, uninstall and status: engram's entries merge into each host's config without
touching the user's own hooks, twice is byte-identical, and uninstall removes only engram's."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from test_hook_support import make_workspace

from engram.errors import EngramError, UnknownHostError
from engram.install import (
    config_path,
    hook_command,
    install,
    is_engram_handler,
    registration_config,
    status,
    uninstall,
)

REPO = Path(__file__).resolve().parent.parent
EXE = "/opt/My Tools/bin/engram"  # a space: the command must be quoted
STATIC = {"claude": "settings.json", "codex": "hooks.json", "gemini": "settings.json",
          "cursor": "hooks.json"}
USER_CLAUDE: dict[str, Any] = {
    "model": "opus",
    "permissions": {"allow": ["Bash(git *)"]},
    "hooks": {
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "~/bin/log-prompt"}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard"}]}],
    },
}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    return tmp_path / "home"


def read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


@pytest.mark.parametrize("host", list(STATIC))
def test_install_twice_is_byte_identical(workspace: Path, home: Path, host: str) -> None:
    first = install(host, project_dir=workspace, home=home, executable=EXE)
    assert first.action == "installed"
    path = config_path(host, project_dir=workspace)
    before = path.read_bytes()
    second = install(host, project_dir=workspace, home=home, executable=EXE)
    assert second.action == "unchanged" and path.read_bytes() == before
    assert read(path) == registration_config(host, hook_command(host, EXE))


def test_merge_keeps_user_hooks_and_keys(workspace: Path, home: Path) -> None:
    path = workspace / ".claude/settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps(USER_CLAUDE, indent=4))
    install("claude", project_dir=workspace, home=home, executable=EXE)
    data = read(path)
    assert data["model"] == "opus" and data["permissions"] == USER_CLAUDE["permissions"]
    prompt = data["hooks"]["UserPromptSubmit"]
    assert prompt[0] == USER_CLAUDE["hooks"]["UserPromptSubmit"][0]  # the user's stays first
    assert prompt[1] == {"hooks": [{"type": "command", "command": f"'{EXE}' hook claude",
                                    "timeout": 15}]}
    assert data["hooks"]["PreToolUse"][0] == USER_CLAUDE["hooks"]["PreToolUse"][0]
    assert data["hooks"]["PreToolUse"][1]["matcher"] == "Read|Edit|Write|MultiEdit"
    assert set(data["hooks"]) == {"UserPromptSubmit", "PreToolUse", "SessionStart",
                                  "SubagentStart", "InstructionsLoaded"}
    # Uninstall restores exactly the user's content.
    assert uninstall("claude", project_dir=workspace, home=home).action == "removed"
    assert read(path) == USER_CLAUDE
    assert uninstall("claude", project_dir=workspace, home=home).action == "absent"


def test_reinstall_with_a_new_executable_updates_in_place(workspace: Path, home: Path) -> None:
    install("codex", project_dir=workspace, home=home, executable="/old/engram")
    result = install("codex", project_dir=workspace, home=home, executable=EXE)
    assert result.action == "updated"
    text = (workspace / ".codex/hooks.json").read_text()
    assert "/old/engram" not in text and text.count("hook codex") == 5


def test_uninstall_deletes_a_file_engram_created(workspace: Path, home: Path) -> None:
    install("cursor", project_dir=workspace, home=home, executable=EXE)
    assert uninstall("cursor", project_dir=workspace, home=home).action == "removed"
    assert not (workspace / ".cursor/hooks.json").exists()


def test_user_handler_sharing_engrams_group_survives(workspace: Path, home: Path) -> None:
    install("gemini", project_dir=workspace, home=home, executable=EXE)
    path = workspace / ".gemini/settings.json"
    data = read(path)
    data["hooks"]["BeforeAgent"][0]["hooks"].append({"type": "command", "command": "mine"})
    path.write_text(json.dumps(data))
    uninstall("gemini", project_dir=workspace, home=home)
    assert read(path) == {"hooks": {"BeforeAgent": [{"hooks": [{"type": "command",
                                                                "command": "mine"}]}]}}


def test_global_install_goes_to_the_home_config(workspace: Path, home: Path) -> None:
    result = install("claude", project_dir=workspace, global_=True, home=home, executable=EXE)
    assert result.path == home / ".claude/settings.json" and result.path.exists()
    assert not (workspace / ".claude").exists()


def test_units_and_shapes(workspace: Path, home: Path) -> None:
    for host in STATIC:
        install(host, project_dir=workspace, home=home, executable=EXE)
    claude = read(workspace / ".claude/settings.json")["hooks"]
    codex = read(workspace / ".codex/hooks.json")["hooks"]
    gemini = read(workspace / ".gemini/settings.json")["hooks"]
    cursor = read(workspace / ".cursor/hooks.json")
    assert claude["SessionStart"][0]["hooks"][0]["timeout"] == 15  # seconds
    assert codex["PreToolUse"][0] == {"matcher": "apply_patch", "hooks": [
        {"type": "command", "command": f"'{EXE}' hook codex", "timeout": 10}]}
    assert gemini["AfterTool"][0]["hooks"][0] == {
        "name": "engram-tool", "type": "command", "command": f"'{EXE}' hook gemini",
        "timeout": 10_000}  # milliseconds
    assert cursor == {"version": 1, "hooks": {"sessionStart": [
        {"command": f"'{EXE}' hook cursor"}]}}  # no timeout: Cursor's unit is unverified
    # Codex rejects unknown keys in outputs; in config engram writes only documented fields.
    for groups in codex.values():
        for group in groups:
            assert set(group) <= {"matcher", "hooks"}
            for handler in group["hooks"]:
                assert set(handler) <= {"type", "command", "timeout"}


def test_invalid_config_is_never_clobbered(workspace: Path, home: Path) -> None:
    path = workspace / ".gemini/settings.json"
    path.parent.mkdir()
    path.write_text('{\n  // comments are not JSON\n  "theme": "dark"\n}\n')
    with pytest.raises(EngramError, match="not plain JSON"):
        install("gemini", project_dir=workspace, home=home, executable=EXE)
    assert "comments" in path.read_text()
    path.write_text('{"hooks": []}')
    with pytest.raises(EngramError, match="hooks: expected an object"):
        install("gemini", project_dir=workspace, home=home, executable=EXE)
    with pytest.raises(UnknownHostError, match="known hosts: claude, codex, gemini, cursor"):
        install("typo", project_dir=workspace, home=home)


def test_command_is_absolute_and_quoted() -> None:
    command = hook_command("claude")
    words = shlex.split(command)
    assert words[-2:] == ["hook", "claude"] and Path(words[0]).is_absolute()
    assert is_engram_handler({"command": command})
    assert is_engram_handler({"command": f"'{EXE}' hook codex"})
    assert is_engram_handler({"command": "/usr/bin/python3 -m engram hook gemini"})
    assert not is_engram_handler({"command": "engram-lint hook claude"})
    assert not is_engram_handler({"command": "my-engram-wrapper.sh"})


def test_status_reports_installs_and_problems(workspace: Path, home: Path) -> None:
    make_workspace(workspace)
    install("codex", project_dir=workspace, home=home, executable=EXE)
    install("claude", project_dir=workspace, home=home, executable=EXE)
    install("cursor", project_dir=workspace, global_=True, home=home, executable=EXE)
    rows = {(s.host, s.scope): s for s in status(project_dir=workspace, home=home)}
    assert len(rows) == 8
    codex = rows[("codex", "project")]
    assert codex.installed and "UserPromptSubmit" in codex.events
    assert any("not trusted yet" in p for p in codex.problems)
    assert any(p.startswith("command not found: /opt/My Tools/bin/engram") for p in codex.problems)
    cursor = rows[("cursor", "global")]
    assert any("inject twice" in p for p in cursor.problems)
    assert not rows[("gemini", "project")].installed
    # install synced the Claude rule files, so status has no native-rule complaint.
    assert (workspace / ".claude/rules/engram/api-errors.md").exists()
    assert not any("native rule" in p for p in rows[("claude", "project")].problems)
    (workspace / ".claude/rules/engram/api-errors.md").unlink()
    again = {(s.host, s.scope): s for s in status(project_dir=workspace, home=home)}
    assert any("native rule" in p for p in again[("claude", "project")].problems)


@pytest.mark.parametrize("host", list(STATIC))
def test_static_hooks_folder_matches_install(host: str) -> None:
    static = json.loads((REPO / "hooks" / host / STATIC[host]).read_text())
    assert static == registration_config(host)


def test_formatting(workspace: Path, home: Path) -> None:
    from engram.install import format_result, format_status

    result = install("codex", project_dir=workspace, home=home, executable=EXE)
    text = format_result(result)
    assert text.startswith(f"codex: installed (project) {workspace / '.codex/hooks.json'}\n")
    assert "  note: Codex runs new or changed hooks only once trusted" in text
    rows = status(project_dir=workspace, home=home, hosts=["codex"])
    assert format_status(rows).splitlines()[0].startswith(
        "codex project: installed (SessionStart, UserPromptSubmit, PreToolUse, SubagentStart, "
        "PreCompact)")
