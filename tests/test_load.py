"""`engram load` as a command: --id fetches, invalid files, config and usage errors, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import body_ids, load, mem, ok, printed_ids, put, run


def write(project: Path, *texts: str) -> None:
    for n, text in enumerate(texts):
        put(project / ".engram", f"m{n:02d}.md", text)


# --- --id ---------------------------------------------------------------------------------------


def test_id_prints_bodies_in_the_given_order(workspace: Path) -> None:
    write(workspace, mem("alpha", body="Alpha body."), mem("beta", body="Beta body."),
          mem("gamma", "knowledge", body="Gamma body."))
    out = ok(load(workspace, "--id", "gamma,alpha", "--id", "beta"))
    assert body_ids(out) == ["gamma", "alpha", "beta"]
    assert out.splitlines()[0] == "engram: loaded 3 memory files / 3 total related memories"
    assert "### gamma [knowledge, reference]\nGamma body.\n" in out
    assert "fetch:" not in out


def test_id_bypasses_routing_gate_limit_and_query(workspace: Path) -> None:
    write(workspace, *(mem(f"note-{n}", tags=["cooking"]) for n in range(10)))
    ids = ",".join(f"note-{n}" for n in range(10))
    out = ok(load(workspace, "--id", ids, "completely unrelated query words here"))
    assert body_ids(out) == [f"note-{n}" for n in range(10)]


def test_unknown_id_alone_is_exit_1(workspace: Path) -> None:
    write(workspace, mem("alpha"))
    result = load(workspace, "--id", "nope")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == "engram: unknown id: nope\n"


def test_unknown_ids_among_known_ones_warn_and_succeed(workspace: Path) -> None:
    write(workspace, mem("alpha", body="Alpha body."))
    result = load(workspace, "--id", "nope,alpha,zilch")
    assert result.exit_code == 0
    assert body_ids(result.stdout) == ["alpha"]
    assert result.stderr.splitlines() == ["engram: unknown id: nope", "engram: unknown id: zilch"]


def test_archived_or_expired_id_prints_with_a_warning(workspace: Path) -> None:
    write(workspace, mem("old", lifecycle="archived", body="Old body."),
          mem("expired", valid_until="2020-01-01", body="Expired body."))
    result = load(workspace, "--id", "old,expired")
    assert result.exit_code == 0
    assert body_ids(result.stdout) == ["old", "expired"]
    assert "Old body." in result.stdout
    assert result.stderr.splitlines() == [
        "engram: warning: old is out of its lifecycle (archived)",
        "engram: warning: expired is out of its lifecycle (valid_until 2020-01-01)"]


def test_id_of_a_role_restricted_memory_prints_with_a_warning(workspace: Path) -> None:
    write(workspace, mem("maint", roles=["maintainer"], body="Maint body."))
    result = load(workspace, "--id", "maint")
    assert result.exit_code == 0 and "Maint body." in result.stdout
    assert "maint is for roles maintainer" in result.stderr


def test_id_shows_requires_including_missing(workspace: Path) -> None:
    write(workspace, mem("top", depends_on=["base", "ghost"]), mem("base"))
    out = ok(load(workspace, "--id", "top"))
    assert out.splitlines()[1:3] == ["### top [rule, instruction]",
                                     "requires: base, ghost (missing)"]


def test_id_records_the_fetch_in_state(workspace: Path) -> None:
    write(workspace, mem("alpha"))
    ok(load(workspace, "--id", "alpha"))
    state = workspace / ".engram" / ".state"
    assert json.loads((state / "fetched.json").read_text(encoding="utf-8")) == {
        "alpha": "2026-12-02"}
    assert (state / ".gitignore").is_file()


# --- invalid files never stop a load ---------------------------------------------------------


def test_invalid_files_are_skipped_with_a_stderr_line(workspace: Path) -> None:
    root = workspace / ".engram"
    write(workspace, mem("good", tags=["deploy"], body="Good body."))
    put(root, "bad/no-frontmatter.md", "Just text about deploy.\n")
    put(root, "bad/no-type.md", "---\nid: no-type\ntags: [deploy]\n---\nDeploy.\n")
    (root / "bad" / "latin1.md").write_bytes(b"---\nid: x\ntype: rule\n---\ncaf\xe9 deploy\n")
    result = load(workspace, "deploy")
    assert result.exit_code == 0
    assert body_ids(result.stdout) == ["good"]
    lines = result.stderr.splitlines()
    assert len(lines) == 3
    assert all(line.startswith(".engram/bad/") for line in lines)
    assert any(line.startswith(".engram/bad/no-type.md:") and ": type: " in line
               for line in lines)


def test_a_file_over_256_kib_is_skipped(workspace: Path) -> None:
    write(workspace, mem("huge", tags=["deploy"], body="deploy " * 40000))
    result = load(workspace, "deploy")
    assert result.exit_code == 0 and printed_ids(result.stdout) == []
    assert "KiB limit" in result.stderr


# --- configuration and usage errors ----------------------------------------------------------


@pytest.mark.parametrize(("text", "key"), [
    ("load:\n  limit: zero\n", "load.limit"),
    ("load:\n  disclosure: some\n", "load.disclosure"),
    ("load:\n  nonsense: 1\n", "load.nonsense"),
])
def test_config_errors_exit_1_naming_file_and_key(workspace: Path, text: str, key: str) -> None:
    put(workspace / ".engram", "config.yaml", text)
    result = load(workspace, "deploy")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert str(workspace / ".engram" / "config.yaml") in result.stderr
    assert key in result.stderr


def test_global_config_error_names_the_global_file(workspace: Path, isolated_home: Path) -> None:
    put(isolated_home, "config.yaml", "load:\n  expand_top: -3\n")
    result = load(workspace, "deploy")
    assert result.exit_code == 1
    assert str(isolated_home / "config.yaml") in result.stderr and "load.expand_top" in \
        result.stderr


@pytest.mark.parametrize("args", [
    ["load", "--limit", "0", "x"], ["load", "--limit", "many"], ["load", "--bogus"],
    ["load", "--disclosure", "partial"], ["load", "--budget-tokens", "0"],
    ["load", "--expand-top", "-1"], ["nosuchcommand"], ["search"], ["graph", "a", "b"],
])
def test_usage_errors_exit_2(workspace: Path, args: list[str]) -> None:
    result = run(args, workspace)
    assert result.exit_code == 2, (args, result.stdout, result.stderr)
    assert "Usage:" in result.stderr


def test_python_dash_m_engram_works_end_to_end(workspace: Path) -> None:
    write(workspace, mem("deploy-rule", tags=["deploy"], body="Deploy body."))
    proc = subprocess.run([sys.executable, "-m", "engram", "load", "deploying"],
                          cwd=workspace, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ("engram: loaded 1 memory files / 1 total related memories\n"
                           "### deploy-rule [rule, instruction]\nDeploy body.\n")
    bad = subprocess.run([sys.executable, "-m", "engram", "load", "--limit", "0"],
                         cwd=workspace, capture_output=True, text=True, check=False)
    assert bad.returncode == 2
    version = subprocess.run([sys.executable, "-m", "engram", "--version"], cwd=workspace,
                             capture_output=True, text=True, check=False)
    assert version.returncode == 0 and version.stdout.startswith("engram, version ")
