"""`engram hooks sync` for the hosts a project uses: managed sections in the instruction files
each host reads, Copilot path rules, nothing for hosts not in use, and no double injection."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from cli_helpers import mem, ok, put, run
from test_hook_support import context_of, fire, payload

from engram.managed import BEGIN, END, ROUTING_LINE


@pytest.fixture
def project(workspace: Path) -> Path:
    root = workspace / ".engram"
    put(root, "rules/style.md", mem("house-style", load="always",
                                    body="Write British English in comments."))
    put(root, "rules/api.md", mem("api-tests", applies_to=["src/api/**"],
                                  summary="API handlers have tests.",
                                  body="Write one test per handler in tests/api."))
    put(root, "knowledge/db.md", mem("db-notes", "knowledge", tags=["database"],
                                     body="Postgres 16."))
    return workspace


def test_a_claude_only_project_gets_no_cursor_files(project: Path) -> None:
    ok(run(["hooks", "install", "claude"], project))
    out = ok(run(["hooks", "sync"], project))
    assert not (project / ".cursor").exists()
    assert not (project / "AGENTS.md").exists()
    assert (project / ".claude/rules/engram/api-tests.md").is_file()
    assert "wrote CLAUDE.md" in out or (project / "CLAUDE.md").is_file()
    check = run(["hooks", "sync", "--check"], project)
    assert check.exit_code == 0, check.stdout
    assert check.stdout == "native files up to date (2)\n"  # the rule file and CLAUDE.md


def test_no_host_in_use_writes_nothing_and_says_so(project: Path) -> None:
    out = ok(run(["hooks", "sync"], project))
    assert "no host in use here" in out
    assert sorted(p.name for p in project.iterdir()) == [".engram"]
    assert ok(run(["hooks", "sync", "--check"], project)).startswith("note: no host in use")


def test_hosts_named_in_config_are_in_use(project: Path) -> None:
    put(project, ".engram/config.yaml", "hooks:\n  hosts: [codex, gemini, copilot]\n")
    ok(run(["hooks", "sync"], project))
    for name in ("AGENTS.md", "GEMINI.md", ".github/copilot-instructions.md"):
        text = (project / name).read_text()
        assert text.startswith(BEGIN + "\n<!-- engram:keys house-style@"), name
        assert ROUTING_LINE in text and "Write British English in comments." in text
        assert "Postgres" not in text and "one test per handler" not in text  # routed, not here
    copilot = project / ".github/instructions/api-tests.instructions.md"
    front = yaml.safe_load(copilot.read_text().split("---\n")[1])
    assert front == {"applyTo": "src/api/**"}
    assert "Write one test per handler in tests/api." in copilot.read_text()
    assert not (project / ".claude").exists() and not (project / "CLAUDE.md").exists()
    bad = put(project, ".engram/config.yaml", "hooks:\n  hosts: [vim]\n")
    result = run(["hooks", "sync"], project)
    assert result.exit_code == 1 and f"{bad}: hooks.hosts: unknown host 'vim'" in result.stderr


def test_the_managed_section_touches_nothing_outside_its_markers(project: Path) -> None:
    own = "# Our agent guide\n\nKeep PRs small.\n"
    put(project, "AGENTS.md", own)
    ok(run(["hooks", "sync", "codex"], project))
    text = (project / "AGENTS.md").read_text()
    assert text.startswith(own + "\n" + BEGIN) and text.endswith(END + "\n")
    # edit a memory and the text around the section: sync rewrites only the section
    put(project, "AGENTS.md", "Intro line.\n\n" + text + "\nA footer.\n")
    style = project / ".engram/rules/style.md"
    style.write_text(style.read_text().replace("British", "Canadian"))
    check = run(["hooks", "sync", "--check", "codex"], project)
    assert check.exit_code == 1
    assert "problem: AGENTS.md: engram section out of date (run engram hooks sync)" in check.stdout
    ok(run(["hooks", "sync", "codex"], project))
    after = (project / "AGENTS.md").read_text()
    assert after.startswith("Intro line.\n\n" + own) and after.endswith(END + "\n\nA footer.\n")
    assert "Canadian" in after and "British" not in after
    assert ok(run(["hooks", "sync", "codex"], project)) == "native files up to date (1)\n"


def test_broken_markers_are_never_rewritten_and_fail_the_check(project: Path) -> None:
    broken = f"Mine.\n{BEGIN}\nhalf a section, its end marker deleted\n"
    put(project, "AGENTS.md", broken)
    result = run(["hooks", "sync", "codex"], project)
    assert result.exit_code == 1
    assert ("problem: AGENTS.md: 1 begin and 0 end markers; expected one of each; left alone "
            "(fix the markers, then run engram hooks sync)") in result.stdout
    assert (project / "AGENTS.md").read_text() == broken
    assert run(["hooks", "sync", "--check", "codex"], project).exit_code == 1


def test_session_start_leaves_out_what_claude_md_already_holds(project: Path) -> None:
    ok(run(["hooks", "sync", "claude"], project))
    started = context_of(fire("claude", payload("claude", "session_start", project)))
    assert "Write British English" not in started  # Claude loads CLAUDE.md itself
    # a memory edited after the sync is not what the file holds: the hook sends it
    style = project / ".engram/rules/style.md"
    style.write_text(style.read_text().replace("British", "Canadian"))
    again = context_of(fire("claude", payload("claude", "session_start", project,
                                              session_id="another")))
    assert "Write Canadian English" in again


def test_import_after_sync_does_not_read_the_section_back(project: Path) -> None:
    put(project, "CLAUDE.md", "## Testing\nRun pytest.\n")
    ok(run(["hooks", "sync", "claude"], project))
    out = ok(run(["import", "--dry-run"], project))
    assert "house-style" not in out and "British" not in out
    assert out.splitlines()[-1].endswith("1 memories: 1 new, 0 updated, 0 unchanged, 0 kept; "
                                         "0 not mapped")
