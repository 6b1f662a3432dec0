"""The other commands: graph, search, check, verify and init, through the real CLI."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from cli_helpers import body_ids, load, mem, ok, put, run


def write(project: Path, *pairs: tuple[str, str]) -> None:
    for rel, text in pairs:
        put(project / ".engram", rel, text)


CHAIN = (
    ("rules/checklist.md", mem("release-checklist", tags=["release"],
                               depends_on=["semver", "ghost"])),
    ("knowledge/semver.md", mem("semver", "knowledge", depends_on=["base"])),
    ("rules/base.md", mem("base", level="foundation")),
    ("skills/hotfix.md", mem("hotfix", "skill", tags=["hotfix"],
                             depends_on=["release-checklist"])),
    ("rules/advanced.md", mem("advanced-only", level="advanced")),
)


# --- graph --------------------------------------------------------------------------------------


def test_graph_text(workspace: Path) -> None:
    write(workspace, *CHAIN)
    out = ok(run(["graph"], workspace))
    assert out == (
        "engram graph: 5 memories, 4 layers\n"
        "layer 0: base\n"
        "layer 1: semver\n"
        "layer 2: advanced-only, release-checklist\n"
        "layer 3: hotfix\n"
        "edges (prerequisite -> dependent):\n"
        "  base -> semver\n"
        "  release-checklist -> hotfix\n"
        "  semver -> release-checklist\n"
        "missing prerequisites:\n"
        "  ghost (required by release-checklist)\n")


def test_graph_topic_and_json(workspace: Path) -> None:
    write(workspace, *CHAIN)
    out = ok(run(["graph", "release"], workspace))
    assert out.endswith("topic: release\n  routed: base, semver, release-checklist\n"
                        "  prerequisites: base, semver\n  dependents: hotfix\n")
    doc = json.loads(ok(run(["graph", "--json", "release"], workspace)))
    assert doc["version"] == 1 and doc["memories"] == 5
    assert doc["layers"] == [["base"], ["semver"], ["advanced-only", "release-checklist"],
                             ["hotfix"]]
    assert doc["edges"] == [["base", "semver"], ["release-checklist", "hotfix"],
                            ["semver", "release-checklist"]]
    assert doc["missing"] == [{"id": "release-checklist", "requires": "ghost"}]
    assert doc["cycles"] == [] and doc["shadowed"] == [] and doc["invalid"] == []
    assert doc["routed"] == ["base", "semver", "release-checklist"]
    assert doc["dependents"] == ["hotfix"]


def test_graph_reports_cycles_and_invalid_files(workspace: Path) -> None:
    write(workspace, ("a.md", mem("cyc-a", depends_on=["cyc-b"])),
          ("b.md", mem("cyc-b", depends_on=["cyc-a"])), ("bad.md", "---\nid: [x]\n---\n"))
    out = ok(run(["graph"], workspace))
    assert "cycles:\n  cyc-a <-> cyc-b\n" in out
    assert "invalid files: 1\n  .engram/bad.md:" in out


def test_graph_reports_near_duplicate_groups(workspace: Path) -> None:
    body = " ".join(f"Step {n}: run migration batch {n} and check table {n * 7} afterwards."
                    for n in range(30))
    write(workspace, ("a.md", mem("migrate-first", body=body)),
          ("b.md", mem("migrate-first-copy", body=body + "Also for staging.")),
          ("c.md", mem("unrelated", body="Name branches after the ticket they close.")))
    assert "near-duplicate groups (a pack holds one):\n  migrate-first, migrate-first-copy\n" \
        in ok(run(["graph", "--rebuild"], workspace))
    doc = json.loads(ok(run(["graph", "--json"], workspace)))
    assert doc["duplicates"] == [["migrate-first", "migrate-first-copy"]]


# --- search -------------------------------------------------------------------------------------


def test_search_lists_every_match_ranked_with_scores(workspace: Path) -> None:
    write(workspace, *((f"m{n:02d}.md", mem(f"deploy-{n:02d}", tags=["deploy"],
                                            summary=f"Deploy {n}.")) for n in range(12)),
          ("x.md", mem("cooking", tags=["pasta"])),
          ("old.md", mem("old-deploy", tags=["deploy"], lifecycle="archived")))
    out = ok(run(["search", "deploy"], workspace))
    lines = out.splitlines()
    assert len(lines) == 12  # no compact limit; archived and unrelated left out
    assert lines[0].split()[1:] == ["deploy-00", "[rule]", "Deploy", "0."]
    scores = [float(line.split()[0]) for line in lines]
    assert scores == sorted(scores, reverse=True) and scores[0] > 0
    doc = json.loads(ok(run(["search", "--json", "deploy"], workspace)))
    assert doc["version"] == 1 and len(doc["results"]) == 12
    assert set(doc["results"][0]) == {"id", "type", "scope", "score", "card"}
    assert doc["results"][0]["card"] == "- deploy-00 [rule] Deploy 0."


def test_search_respects_roles_and_no_global(workspace: Path, isolated_home: Path) -> None:
    write(workspace, ("a.md", mem("maint", tags=["deploy"], roles=["maintainer"])))
    put(isolated_home, "g.md", mem("global-deploy", tags=["deploy"]))
    assert [line.split()[1] for line in ok(run(["search", "deploy"], workspace)).splitlines()] \
        == ["global-deploy"]
    both = ok(run(["search", "--role", "maintainer", "deploy"], workspace))
    assert sorted(line.split()[1] for line in both.splitlines()) == ["global-deploy", "maint"]
    assert ok(run(["search", "--no-global", "deploy"], workspace)) == ""


# --- check --------------------------------------------------------------------------------------


def test_check_reports_every_problem_as_path_line_field_message(workspace: Path) -> None:
    write(workspace,
          ("rules/good.md", mem("good")),
          ("rules/bad-type.md", "---\nid: bad-type\ntype: nope\ntags: 3\n---\nx\n"),
          ("rules/typo.md", "---\nid: typo\ntype: rule\ndepend_on: [good]\n---\nx\n"),
          ("rules/missing.md", mem("missing-dep", depends_on=["ghost"])),
          ("rules/nofm.md", "plain text\n"))
    result = run(["check"], workspace)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[-1] == "engram check: 3 errors, 2 warnings"
    problems = lines[:-1]
    assert ".engram/rules/bad-type.md:3: type: expected one of rule | skill | knowledge, got " \
           "'nope'" in problems
    assert ".engram/rules/bad-type.md:4: tags: expected a list of strings, got 3" in problems
    assert any(p.startswith(".engram/rules/nofm.md:1: ") for p in problems)
    assert any(p.startswith(".engram/rules/typo.md:4: depend_on: ") and p.endswith("(warning)")
               for p in problems)
    # dependency problems point at the depends_on line, not line 1
    assert any(p.startswith(".engram/rules/missing.md:4: depends_on: ") for p in problems)
    assert problems == sorted(problems)  # sorted by path then line


def test_check_is_clean_and_exit_0_on_good_memories(workspace: Path, isolated_home: Path) -> None:
    write(workspace, ("a.md", mem("a")))
    put(isolated_home, "g.md", mem("g"))
    assert ok(run(["check"], workspace)) == "engram check: 0 errors, 0 warnings\n"


def test_check_covers_the_global_scope_too(workspace: Path, isolated_home: Path) -> None:
    put(isolated_home, "broken.md", "---\nid: broken\n---\n")
    result = run(["check"], workspace)
    assert result.exit_code == 1
    assert str(isolated_home / "broken.md") + ":" in result.stdout
    assert ok(run(["check", "--no-global"], workspace)).endswith("0 errors, 0 warnings\n")


# --- verify -------------------------------------------------------------------------------------


def test_verify_writes_the_sources_lock(workspace: Path) -> None:
    (workspace / "src").mkdir()
    (workspace / "src" / "db.py").write_text("x = 1\n", encoding="utf-8")
    write(workspace, ("a.md", mem("db-notes", sources=["src/db.py"])), ("b.md", mem("plain")))
    out = ok(run(["verify"], workspace))
    lock = workspace / ".engram" / "sources.lock"
    assert out == f"engram: recorded sources of 1 memories in {lock}\n"
    data = json.loads(lock.read_text(encoding="utf-8"))
    assert data == {"version": 1, "memories": {"db-notes": {
        "src/db.py": hashlib.sha256(b"x = 1\n").hexdigest()}}}


def test_verify_unknown_id_and_missing_source(workspace: Path) -> None:
    write(workspace, ("a.md", mem("db-notes", sources=["gone.py"])))
    unknown = run(["verify", "nope"], workspace)
    assert unknown.exit_code == 1 and "unknown id: nope" in unknown.stderr
    missing = run(["verify", "db-notes"], workspace)
    assert missing.exit_code == 1
    assert "a.md:1: sources: gone.py does not exist" in missing.stderr
    # no success line before the failure, and no lock half-written
    assert "recorded sources" not in missing.stdout + missing.stderr
    assert "nothing recorded" in missing.stderr
    assert not (workspace / ".engram" / "sources.lock").exists()


def test_verify_without_a_workspace_is_exit_1(tmp_path: Path) -> None:
    result = run(["verify"], tmp_path)
    assert result.exit_code == 1 and "run engram init" in result.stderr


def test_stale_card_and_json_flag(workspace: Path) -> None:
    (workspace / "s.txt").write_text("1", encoding="utf-8")
    write(workspace, ("a.md", mem("notes", tags=["deploy"], sources=["s.txt"])))
    ok(run(["verify"], workspace))
    (workspace / "s.txt").write_text("2", encoding="utf-8")
    doc = json.loads(ok(load(workspace, "--json", "deploy")))
    assert doc["items"][0]["stale"] is True


# --- init ---------------------------------------------------------------------------------------


def test_init_creates_a_working_engram_folder(tmp_path: Path) -> None:
    out = ok(run(["init"], tmp_path))
    root = tmp_path / ".engram"
    for rel in ("README.md", ".engramignore", ".gitignore", "rules/example-rule.md",
                "skills/example-skill.md", "knowledge/example-knowledge.md"):
        assert (root / rel).is_file(), rel
        assert f"created .engram/{rel}" in out or f"created {root / rel}" in out
    assert ".cache/" in (root / ".gitignore").read_text(encoding="utf-8")
    assert ok(run(["check"], tmp_path)).endswith("0 errors, 0 warnings\n")
    # the examples are inert: listed in .engramignore, they never route on a real prompt
    assert body_ids(ok(load(tmp_path, "cut a release"))) == []
    ignore = root / ".engramignore"
    ignore.write_text("\n".join(line for line in ignore.read_text().splitlines()
                                if "example" not in line) + "\n")
    assert body_ids(ok(load(tmp_path, "cut a release"))) == ["example-rule", "example-skill"]


def test_init_no_examples(tmp_path: Path) -> None:
    out = ok(run(["init", "--no-examples"], tmp_path))
    assert "example" not in out
    assert sorted(p.name for p in (tmp_path / ".engram").iterdir()) == [
        ".engramignore", ".gitignore", "README.md"]


def test_init_never_overwrites(tmp_path: Path) -> None:
    root = tmp_path / ".engram"
    put(root, "README.md", "my own readme\n")
    put(root, "rules/example-rule.md", "my own rule\n")
    out = ok(run(["init"], tmp_path))
    assert "README.md" not in out and "example-rule.md" not in out
    assert (root / "README.md").read_text(encoding="utf-8") == "my own readme\n"
    assert (root / "rules/example-rule.md").read_text(encoding="utf-8") == "my own rule\n"
    assert ok(run(["init"], tmp_path)) == "engram: .engram/ already complete; nothing written\n"


def test_init_workspace_option(tmp_path: Path) -> None:
    target = tmp_path / "proj"
    target.mkdir()
    ok(run(["init", "--workspace", str(target)], tmp_path))
    assert (target / ".engram" / "README.md").is_file()


def test_sources_lock_is_written_with_a_normal_file_mode(workspace: Path) -> None:
    # sources.lock is committed with the project: a private 0600 file would surprise a team.
    from engram.model import Memory
    from engram.stale import SourcesLock

    (workspace / "src.txt").write_text("x\n")
    lock = SourcesLock(workspace / ".engram")
    lock.record([Memory(id="m", type="rule", scope="workspace", rel_path="m.md", sha256="0",
                        sources=("src.txt",))])
    umask = os.umask(0)
    os.umask(umask)
    assert (workspace / ".engram" / "sources.lock").stat().st_mode & 0o777 == 0o666 & ~umask
