"""Codex's install and status follow Codex's own rules: `$CODEX_HOME` (default `~/.codex`) holds
the user hooks.json and config.toml, and a project's hooks run only when the project is trusted
and each hook is trusted. tests/e2e/test_codex_status.py checks the same against real Codex."""

from __future__ import annotations

from pathlib import Path

import pytest

from engram.install import format_status, install, status, uninstall

EXE = "/usr/local/bin/engram"
EVENTS = ("session_start", "user_prompt_submit", "pre_tool_use", "subagent_start", "pre_compact")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("CODEX_HOME", raising=False)
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def codex_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, home: Path) -> Path:
    path = tmp_path / "elsewhere" / "codex"
    path.mkdir(parents=True)
    monkeypatch.setenv("CODEX_HOME", str(path))
    return path


def trust(codex_home: Path, *, project: Path | None = None, hooks_json: Path | None = None,
          events: tuple[str, ...] = EVENTS) -> None:
    text = ""
    if project is not None:
        text += f'[projects."{project}"]\ntrust_level = "trusted"\n'
    for event in events if hooks_json is not None else ():
        text += f'[hooks.state."{hooks_json}:{event}:0:0"]\ntrusted_hash = "sha256:00"\n'
    (codex_home / "config.toml").write_text(text, encoding="utf-8")


def codex_problems(workspace: Path, home: Path, scope: str = "project") -> tuple[str, ...]:
    rows = status(project_dir=workspace, home=home, hosts=["codex"])
    return next(r for r in rows if r.scope == scope).problems


def test_global_install_writes_into_codex_home(workspace: Path, home: Path,
                                               codex_home: Path) -> None:
    result = install("codex", project_dir=workspace, global_=True, home=home, executable=EXE)
    assert result.path == codex_home / "hooks.json" and result.path.is_file()
    assert not (home / ".codex").exists()
    row = next(r for r in status(project_dir=workspace, home=home, hosts=["codex"])
               if r.scope == "global")
    assert row.installed and row.path == codex_home / "hooks.json"
    assert uninstall("codex", project_dir=workspace, global_=True, home=home).action == "removed"
    assert not (codex_home / "hooks.json").exists()


def test_without_codex_home_the_user_config_is_dot_codex(workspace: Path, home: Path) -> None:
    result = install("codex", project_dir=workspace, global_=True, home=home, executable=EXE)
    assert result.path == home / ".codex" / "hooks.json"


def test_status_names_both_missing_trusts(workspace: Path, home: Path, codex_home: Path) -> None:
    install("codex", project_dir=workspace, home=home, executable=EXE)
    (problem,) = [p for p in codex_problems(workspace, home) if "trust" in p]
    assert "the project is not trusted" in problem
    assert "no hook trust recorded for 5 of 5 hooks" in problem
    assert str(codex_home / "config.toml") in problem


def test_status_names_only_the_missing_hook_trust(workspace: Path, home: Path,
                                                  codex_home: Path) -> None:
    install("codex", project_dir=workspace, home=home, executable=EXE)
    trust(codex_home, project=workspace)
    (problem,) = [p for p in codex_problems(workspace, home) if "trust" in p]
    assert "project is not trusted" not in problem
    assert "no hook trust recorded for 5 of 5 hooks" in problem


def test_status_names_only_the_missing_project_trust(workspace: Path, home: Path,
                                                     codex_home: Path) -> None:
    result = install("codex", project_dir=workspace, home=home, executable=EXE)
    trust(codex_home, hooks_json=result.path)
    (problem,) = [p for p in codex_problems(workspace, home) if "trust" in p]
    assert "the project is not trusted" in problem and "hook trust" not in problem


def test_status_counts_each_untrusted_hook(workspace: Path, home: Path,
                                           codex_home: Path) -> None:
    result = install("codex", project_dir=workspace, home=home, executable=EXE)
    trust(codex_home, project=workspace, hooks_json=result.path, events=EVENTS[:3])
    (problem,) = [p for p in codex_problems(workspace, home) if "trust" in p]
    assert "no hook trust recorded for 2 of 5 hooks (SubagentStart, PreCompact;" in problem


def test_no_problem_once_both_trusts_are_recorded(workspace: Path, home: Path,
                                                  codex_home: Path) -> None:
    result = install("codex", project_dir=workspace, home=home, executable=EXE)
    trust(codex_home, project=workspace, hooks_json=result.path)
    assert not [p for p in codex_problems(workspace, home) if "trust" in p]
    # ~/.codex/config.toml is not where this Codex looks: trust there changes nothing.
    (home / ".codex").mkdir()
    (codex_home / "config.toml").rename(home / ".codex" / "config.toml")
    assert [p for p in codex_problems(workspace, home) if "trust" in p]


def test_user_hooks_need_hook_trust_only(workspace: Path, home: Path, codex_home: Path) -> None:
    result = install("codex", project_dir=workspace, global_=True, home=home)
    (problem,) = [p for p in codex_problems(workspace, home, "global") if "trust" in p]
    assert "project" not in problem and "5 of 5 hooks" in problem
    trust(codex_home, hooks_json=result.path)
    rows = [r for r in status(project_dir=workspace, home=home, hosts=["codex"])
            if r.scope == "global"]
    assert "problem:" not in format_status(rows)


def test_inside_a_git_repository_trusting_its_root_is_enough(tmp_path: Path, home: Path,
                                                             codex_home: Path) -> None:
    # Real Codex lists the hooks of repo/sub when either repo or repo/sub is trusted.
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    sub = repo / "sub"
    (sub / ".engram").mkdir(parents=True)
    install("codex", project_dir=sub, home=home, executable=EXE)
    trust(codex_home, project=repo)
    (problem,) = [p for p in codex_problems(sub, home) if "trust" in p]
    assert "project is not trusted" not in problem
    trust(codex_home, project=tmp_path)  # a folder above the repository is not the project
    (problem,) = [p for p in codex_problems(sub, home) if "trust" in p]
    assert "the project is not trusted" in problem
