"""Where memories come from: workspace search, overrides, the global root, ignore rules, layout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import as_json, dry, load, mem, ok, printed_ids, put, run, tangled_tree

from engram.discover import walk


def test_upward_search_finds_the_nearest_engram_folder(workspace: Path) -> None:
    put(workspace / ".engram", "rules/deploy.md", mem("deploy-rule", tags=["deploy"]))
    deep = workspace / "src" / "app" / "handlers"
    deep.mkdir(parents=True)
    out = ok(run(["load", "deploy"], deep))
    assert printed_ids(out) == ["deploy-rule"]


def test_nested_scopes_layer_and_the_nearest_wins_an_id(workspace: Path) -> None:
    # like nested AGENTS.md in a repository: from packages/web/src both folders apply
    (workspace / ".git").mkdir()
    put(workspace / ".engram", "outer.md", mem("outer-deploy", tags=["deploy"]))
    inner = workspace / "packages" / "web"
    put(inner / ".engram", "inner.md", mem("inner-deploy", tags=["deploy"]))
    (inner / "src").mkdir()
    assert sorted(printed_ids(ok(run(["load", "deploy"], inner / "src")))) == [
        "inner-deploy", "outer-deploy"]
    # from the root only the root folder applies
    assert printed_ids(ok(run(["load", "deploy"], workspace))) == ["outer-deploy"]


def test_no_workspace_found_means_global_only(tmp_path: Path, isolated_home: Path) -> None:
    put(isolated_home, "global.md", mem("global-deploy", tags=["deploy"]))
    lonely = tmp_path / "lonely"
    lonely.mkdir()
    text, rows = dry(lonely, "deploy")
    assert rows["global-deploy"]["scope"] == "gl"
    assert "ws1.1" not in rows["global-deploy"]["multipliers"]


@pytest.mark.parametrize("suffix", ["", "/.engram"])
def test_workspace_flag_names_the_project_or_its_engram_dir(workspace: Path, tmp_path_factory:
                                                            pytest.TempPathFactory,
                                                            suffix: str) -> None:
    put(workspace / ".engram", "r.md", mem("flagged", tags=["deploy"]))
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    out = ok(run(["load", "--workspace", f"{workspace}{suffix}", "deploy"], elsewhere))
    assert printed_ids(out) == ["flagged"]


def test_engram_workspace_env_overrides_the_search(workspace: Path,
                                                   tmp_path_factory: pytest.TempPathFactory
                                                   ) -> None:
    put(workspace / ".engram", "r.md", mem("from-env", tags=["deploy"]))
    other = tmp_path_factory.mktemp("other")
    put(other / ".engram", "r.md", mem("from-cwd", tags=["deploy"]))
    out = ok(run(["load", "deploy"], other, env={"ENGRAM_WORKSPACE": str(workspace)}))
    assert printed_ids(out) == ["from-env"]


def test_workspace_flag_without_engram_folder_is_an_error(tmp_path: Path) -> None:
    result = run(["load", "--workspace", str(tmp_path), "deploy"], tmp_path)
    assert result.exit_code == 1
    assert str(tmp_path) in result.stderr and "workspace" in result.stderr
    missing = run(["load", "--workspace", str(tmp_path / "nope"), "x"], tmp_path)
    assert missing.exit_code == 1 and "no such directory" in missing.stderr


def test_global_root_is_never_taken_for_a_workspace(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # With ENGRAM_HOME = ~/.engram, a project under ~ would otherwise find it on the way up.
    home = tmp_path / "home"
    glob = home / ".engram"
    put(glob, "g.md", mem("personal-deploy", tags=["deploy"]))
    monkeypatch.setenv("ENGRAM_HOME", str(glob))
    project = home / "code" / "proj"
    project.mkdir(parents=True)
    doc = json.loads(ok(run(["load", "--json", "deploy"], project)))
    assert [(i["id"], i["scope"]) for i in doc["items"]] == [("personal-deploy", "global")]
    # and so `verify`, which needs a workspace, says there is none
    assert run(["verify"], project).exit_code == 1


def test_no_global_turns_the_global_scope_off(workspace: Path, isolated_home: Path) -> None:
    put(isolated_home, "g.md", mem("global-deploy", tags=["deploy"]))
    put(workspace / ".engram", "w.md", mem("ws-deploy", tags=["deploy"]))
    assert sorted(printed_ids(ok(load(workspace, "deploy")))) == ["global-deploy", "ws-deploy"]
    assert printed_ids(ok(load(workspace, "--no-global", "deploy"))) == ["ws-deploy"]
    assert "global-deploy" not in ok(load(workspace, "--no-global", "--dry-run", "deploy"))


def test_engramignore_with_negation(workspace: Path) -> None:
    root = workspace / ".engram"
    put(root, ".engramignore", "# drafts stay private\ndrafts/*.md\n!drafts/keep.md\nsecret.md\n")
    put(root, "drafts/a.md", mem("draft-a", tags=["deploy"]))
    put(root, "drafts/b.md", mem("draft-b", tags=["deploy"]))
    put(root, "drafts/keep.md", mem("draft-keep", tags=["deploy"]))
    put(root, "secret.md", mem("secret-note", tags=["deploy"]))
    put(root, "rules/deploy.md", mem("deploy-rule", tags=["deploy"]))
    assert sorted(printed_ids(ok(load(workspace, "--all", "deploy")))) == [
        "deploy-rule", "draft-keep"]
    text, rows = dry(workspace, "deploy")
    assert "hidden by ignore: 3" in text
    # dry-run gives a count, never the hidden content or ids
    assert "draft-a" not in text and "secret" not in text


def test_ignored_memories_are_invisible_to_id_and_search(workspace: Path) -> None:
    root = workspace / ".engram"
    put(root, ".engramignore", "private/\n")
    put(root, "private/p.md", mem("private-note", tags=["deploy"], summary="Private deploy."))
    fetched = load(workspace, "--id", "private-note")
    assert fetched.exit_code == 1 and "unknown id: private-note" in fetched.stderr
    assert ok(run(["search", "deploy"], workspace)) == ""


def test_editing_the_ignore_file_is_picked_up(workspace: Path) -> None:
    root = workspace / ".engram"
    put(root, "drafts/a.md", mem("draft-a", tags=["deploy"]))
    assert printed_ids(ok(load(workspace, "deploy"))) == ["draft-a"]
    put(root, ".engramignore", "drafts/\n")
    assert printed_ids(ok(load(workspace, "deploy"))) == []
    (root / ".engramignore").unlink()
    assert printed_ids(ok(load(workspace, "deploy"))) == ["draft-a"]


def test_readme_and_dot_folders_are_not_memories(workspace: Path) -> None:
    root = workspace / ".engram"
    put(root, "README.md", mem("readme-top", tags=["deploy"]))
    put(root, "rules/README.md", mem("readme-nested", tags=["deploy"]))
    put(root, ".drafts/x.md", mem("dot-folder", tags=["deploy"]))
    put(root, "rules/.hidden.md", mem("dot-file", tags=["deploy"]))
    put(root, "rules/notes.txt", "id: not-markdown\n")
    put(root, "rules/real.md", mem("real-one", tags=["deploy"]))
    assert printed_ids(ok(load(workspace, "--all", "deploy"))) == ["real-one"]
    assert ok(run(["check"], workspace)).strip() == "engram check: 0 errors, 0 warnings"


def test_memories_at_any_depth_and_type_decides_not_folder(workspace: Path) -> None:
    root = workspace / ".engram"
    put(root, "a/b/c/d/e/deep.md", mem("deep-one", "knowledge", tags=["deploy"]))
    put(root, "rules/actually-a-skill.md", mem("misfiled", "skill", tags=["deploy"]))
    doc = as_json(workspace, "deploy")
    assert {(i["id"], i["type"]) for i in doc["items"]} == {("deep-one", "knowledge"),
                                                            ("misfiled", "skill")}


def test_walk_skips_escaping_symlinks(tmp_path: Path) -> None:
    root = tmp_path / "root"
    outside = tmp_path / "outside.md"
    outside.write_text(mem("outside"), encoding="utf-8")
    put(root, "z.md", mem("z"))
    put(root, "a/m.md", mem("m"))
    (root / "link.md").symlink_to(outside)
    (root / "inner-link.md").symlink_to(root / "z.md")
    stats, problems = walk(root)
    assert sorted(rel for rel, _, _ in stats) == ["a/m.md", "inner-link.md", "z.md"]
    assert [(p.path, p.severity) for p in problems] == [("link.md", "warning")]


def test_walk_follows_links_inside_the_root_once_and_lists_only_memories(
        tmp_path: Path) -> None:
    root = tangled_tree(tmp_path)
    single = walk(root)
    rels = [rel for rel, _, _ in single[0]]
    assert "data/a-link/m2.md" in rels and not any(r.startswith("web/b-link/") for r in rels)
    assert "docs/04/alias.md" in rels and "docs/04/dangling.md" not in rels
    assert not any("README" in r or ".hidden" in r or "out-" in r for r in rels)
    assert sorted(p.path for p in single[1]) == ["api/00/out-file.md", "web/out-dir"]
    # The loop is followed once (its ten files appear a second time under ops/01/loop/).
    assert sum(r.startswith("ops/01/loop/") for r in rels) == 10
    assert len(set(rels)) == len(rels) == 64
    assert walk(root) == single  # the same order every time


def test_workspace_shadows_global_and_dry_run_says_so(workspace: Path,
                                                      isolated_home: Path) -> None:
    put(isolated_home, "style.md", mem("api-style", tags=["api"], body="Global api style."))
    put(workspace / ".engram", "style.md", mem("api-style", tags=["api"],
                                                body="Workspace api style."))
    doc = as_json(workspace, "api")
    assert [(i["id"], i["scope"]) for i in doc["items"]] == [("api-style", "workspace")]
    assert "Workspace api style." in doc["text"] and "Global" not in doc["text"]
    text, _ = dry(workspace, "api")
    shadow_line = next(line for line in text.splitlines() if "shadowed" in line)
    assert shadow_line.split()[:2] == ["api-style", "gl"]
    assert shadow_line.rstrip().endswith("excluded: shadowed")
    # --id resolves to the workspace copy too
    fetched = ok(load(workspace, "--id", "api-style"))
    assert "Workspace api style." in fetched and "Global" not in fetched
    graph = ok(run(["graph"], workspace))
    assert "shadowed (global hidden by workspace): api-style" in graph
