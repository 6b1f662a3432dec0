"""Install, uninstall and status: engram's entries merge into each host's config without
touching the user's own hooks, twice is byte-identical, and uninstall removes only engram's."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from test_hook_support import make_workspace

from engram.errors import EngramError, UnknownHostError
from engram.hosts import get_host
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
    assert prompt[1] == {"hooks": [{"type": "command", "command": hook_command("claude", EXE),
                                    "timeout": 15}]}
    assert data["hooks"]["PreToolUse"][0] == USER_CLAUDE["hooks"]["PreToolUse"][0]
    assert data["hooks"]["PreToolUse"][1]["matcher"] == "Read|Edit|Write|MultiEdit"
    assert set(data["hooks"]) == {"UserPromptSubmit", "PreToolUse", "SessionStart",
                                  "SubagentStart", "InstructionsLoaded"}
    # Uninstall restores exactly the user's file, byte for byte (its 4-space indent too).
    assert uninstall("claude", project_dir=workspace, home=home).action == "removed"
    assert path.read_text() == json.dumps(USER_CLAUDE, indent=4)
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
        {"type": "command", "command": hook_command("codex", EXE), "timeout": 10}]}
    assert gemini["AfterTool"][0]["hooks"][0] == {
        "name": "engram-tool", "type": "command", "command": hook_command("gemini", EXE),
        "timeout": 10_000}  # milliseconds
    assert cursor == {"version": 1, "hooks": {"sessionStart": [
        {"command": hook_command("cursor", EXE)}]}}  # no timeout: Cursor's unit is unverified
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


def test_command_names_no_path_and_is_recognised_in_every_form() -> None:
    for host in STATIC:
        command = hook_command(host)
        assert "/" not in command.split(">/dev/null")[0] and "engram hook " + host in command
        assert is_engram_handler({"command": command})
        assert is_engram_handler({"command": hook_command(host, EXE)})
    # What older versions wrote is still engram's, so a re-install replaces it in place.
    assert is_engram_handler({"command": f"'{EXE}' hook codex"})
    assert is_engram_handler({"command": "/usr/bin/python3 -m engram hook gemini"})
    assert is_engram_handler({"command": "engram hook claude"})
    assert not is_engram_handler({"command": "engram-lint hook claude"})
    assert not is_engram_handler({"command": "my-engram-wrapper.sh"})
    assert not is_engram_handler({"command": "sh -c 'engram-lint hook claude'"})


def _fake_engram(folder: Path, script: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    exe = folder / "engram"
    exe.write_text(script)
    exe.chmod(0o755)
    return folder


@pytest.mark.skipif(shutil.which("sh") is None or shutil.which("bash") is None,
                    reason="needs a POSIX shell")
@pytest.mark.parametrize("host", list(STATIC))
def test_command_runs_engram_from_path_and_fails_open_without_it(tmp_path: Path,
                                                                  host: str) -> None:
    """Hosts run the command through a shell (Gemini: `bash -c`): with engram on PATH it gets
    the payload; without it, or with an engram that cannot start (a moved virtualenv), the
    host's no-op and exit 0, never the 127 that Gemini reads as `deny`."""
    command = hook_command(host)
    noop = get_host(host).noop(None)
    system = "/usr/bin:/bin"
    working = _fake_engram(tmp_path / "ok", '#!/bin/sh\necho "ran $*: $(cat)"\n')
    broken = _fake_engram(tmp_path / "moved", "#!/nonexistent/venv/bin/python\n")
    spaced = _fake_engram(tmp_path / "My Tools", '#!/bin/sh\necho "spaced $*"\n')

    def run(path: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", "-c", command], input='{"hook_event_name": "x"}',
                              capture_output=True, text=True, env={"PATH": path}, check=False)

    ok = run(f"{working}:{system}")
    assert (ok.returncode, ok.stdout) == (0, f'ran hook {host}: {{"hook_event_name": "x"}}\n')
    assert run(f"{spaced}:{system}").stdout == f"spaced hook {host}\n"
    for path in (system, f"{broken}:{system}"):
        missing = run(path)
        assert (missing.returncode, missing.stdout) == (0, noop)


def test_status_reports_installs_and_problems(workspace: Path, home: Path) -> None:
    make_workspace(workspace)
    install("codex", project_dir=workspace, home=home, executable=EXE)
    install("claude", project_dir=workspace, home=home, executable=EXE)
    install("cursor", project_dir=workspace, global_=True, home=home, executable=EXE)
    codex_path = workspace / ".codex/hooks.json"  # as an older engram wrote it: a path
    codex_path.write_text(codex_path.read_text().replace(
        json.dumps(hook_command("codex", EXE))[1:-1], f"'{EXE}' hook codex"))
    rows = {(s.host, s.scope): s for s in status(project_dir=workspace, home=home)}
    assert len(rows) == 8
    codex = rows[("codex", "project")]
    assert codex.installed and "UserPromptSubmit" in codex.events
    assert any("not trusted yet" in p for p in codex.problems)
    assert any(p.startswith("command not found: /opt/My Tools/bin/engram") for p in codex.problems)
    assert any(p.startswith("entries differ") for p in codex.problems)
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


# Layouts a team's config is found in: JSON.stringify(x, null, 2) (what the hosts write), Python's
# 4-space dump, tabs, CRLF without a final newline, one compact line, a BOM with \u escapes.
LAYOUTS = {
    "two": lambda d: json.dumps(d, indent=2, ensure_ascii=False) + "\n",
    "four": lambda d: json.dumps(d, indent=4),
    "tabs": lambda d: json.dumps(d, indent="\t", ensure_ascii=False) + "\n",
    "crlf": lambda d: json.dumps(d, indent=2, ensure_ascii=False).replace("\n", "\r\n"),
    "compact": lambda d: json.dumps(d, separators=(",", ":"), ensure_ascii=False),
    "spaced-line": lambda d: json.dumps(d, ensure_ascii=False) + "\n",
    "bom-escaped": lambda d: "\ufeff" + json.dumps(d, indent=2) + "\n",
    # By hand: objects kept on one line inside an indented file, as people write Codex configs.
    "hand": lambda d: json.dumps(d, indent=4).replace(
        json.dumps(next(iter(d["hooks"].values()))[0], indent=4).replace("\n", "\n" + " " * 12),
        json.dumps(next(iter(d["hooks"].values()))[0])),
    "prettier-inline-arrays": lambda d: json.dumps(d, indent=2).replace("[\n" + " " * 6, "[")
    .replace("\n    ]", "]") + "\n",
}
USER_OWN = {"theme": "Dracula ✓", "hooks": {"Stop": [{"hooks": [{"type": "command",
                                                                  "command": "notify"}]}]}}
USER_CURSOR = {"version": 1, "hooks": {"stop": [{"command": "notify ✓"}]}}


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("host", list(STATIC))
def test_uninstall_restores_the_file_byte_for_byte(workspace: Path, home: Path, host: str,
                                                   layout: str) -> None:
    path = config_path(host, project_dir=workspace)
    path.parent.mkdir(parents=True, exist_ok=True)
    original = LAYOUTS[layout](USER_CURSOR if host == "cursor" else USER_OWN).encode()
    path.write_bytes(original)
    install(host, project_dir=workspace, home=home)
    installed = path.read_bytes()
    assert installed.startswith(original[:12]) and installed != original
    if layout in ("hand", "prettier-inline-arrays"):  # the user's lines are all still there
        assert all(line in installed.splitlines() for line in original.splitlines()
                   if b"hooks" not in line and line.strip(b" {}[],\r"))
    if b"\r\n" in original:
        assert installed.count(b"\r\n") == installed.count(b"\n")  # no mixed line endings
    assert uninstall(host, project_dir=workspace, home=home).action == "removed"
    assert path.read_bytes() == original


@pytest.mark.parametrize("host", ["claude", "cursor"])
def test_uninstall_removes_generated_rule_files_only(workspace: Path, home: Path,
                                                    host: str) -> None:
    make_workspace(workspace)
    install(host, project_dir=workspace, home=home)
    folder = workspace / get_host(host).native_rule_dir  # type: ignore[operator]
    generated = sorted(p.name for p in folder.iterdir())
    assert generated, "install synced no rule files: the test proves nothing"
    result = uninstall(host, project_dir=workspace, home=home)
    assert result.action == "removed" and not folder.exists()
    assert any(f"native rule files removed: {len(generated)}" in n for n in result.notes)
    # A file of the team's own in engram's folder stays, and so does the folder.
    install(host, project_dir=workspace, home=home)
    own = folder / ("team" + get_host(host).native_rule_suffix)
    own.write_text("---\npaths: ['**/*.py']\n---\nOur own rule.\n")
    uninstall(host, project_dir=workspace, home=home)
    assert sorted(p.name for p in folder.iterdir()) == [own.name]
    assert not (workspace / get_host(host).config_file).exists()


def test_reinstall_and_uninstall_touch_only_engrams_lines(workspace: Path, home: Path) -> None:
    path = workspace / ".gemini/settings.json"
    path.parent.mkdir()
    original = ('{\n  "ui": {"theme": "GitHub"},\n  "hooks": {\n    "BeforeAgent": [\n'
                '      {"hooks": [{"type": "command", "command": "mine"}]}\n    ]\n  },\n'
                '  "tools": {"sandbox": false}\n}\n')
    path.write_text(original)
    install("gemini", project_dir=workspace, home=home, executable="/old/engram")
    first = path.read_text()
    install("gemini", project_dir=workspace, home=home)
    second = path.read_text()
    changed = [(a, b) for a, b in zip(first.splitlines(), second.splitlines(), strict=True)
               if a != b]
    assert changed and all("/old/engram" in a and "/old/" not in b for a, b in changed)
    uninstall("gemini", project_dir=workspace, home=home)
    assert path.read_text() == original
