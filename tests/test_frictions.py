"""The smaller frictions a first afternoon with engram ran into, each fixed and kept fixed:
stray duplicate ids, YAML hints, foreign keys, `hooks log`, usage errors, docs links."""

from __future__ import annotations

import re
from pathlib import Path

from cli_helpers import body_ids, mem, ok, put, run
from test_hook_support import fire, make_workspace, payload

DOCS = Path(__file__).parent.parent / "docs"


def test_a_stray_copy_never_replaces_the_real_memory(workspace: Path) -> None:
    root = workspace / ".engram"
    put(root, "rules/deploy.md", mem("deploy", tags=["deploy"], body="The real rule."))
    # both sort before rules/deploy.md: a backup folder and a copy beside it
    put(root, "backup/rules/deploy.md", mem("deploy", tags=["deploy"], body="An old copy."))
    put(root, "rules/deploy (copy).md", mem("deploy", tags=["deploy"], body="A stray copy."))
    result = run(["load", "--id", "deploy"], workspace)
    assert "The real rule." in result.stdout
    assert "copy" not in result.stdout
    # reported every time, naming the winner and the rule
    assert (".engram/rules/deploy (copy).md:1: id: duplicate id 'deploy' (also in "
            "rules/deploy.md, which wins: a file named after its id, then the shallowest path, "
            "then the first by name)") in result.stderr
    checked = run(["check"], workspace)
    assert checked.exit_code == 1
    assert ".engram/backup/rules/deploy.md:1: id: duplicate id 'deploy' (also in " \
           "rules/deploy.md" in checked.stdout
    # an edit after the first index keeps the same winner (the incremental path)
    put(root, "backup/rules/deploy.md", mem("deploy", tags=["deploy"], body="An old copy, 2."))
    assert "The real rule." in run(["load", "--id", "deploy"], workspace).stdout


def test_yaml_errors_say_how_to_write_it(workspace: Path) -> None:
    root = workspace / ".engram"
    put(root, "a.md", "---\nid: a\ntype: rule\nsummary: Use this: not that\n---\nx\n")
    put(root, "b.md", "---\nid: b\ntype: rule\ntags: [deploy, release\n---\nx\n")
    put(root, "c.md", "---\nid: c\ntype: rule\ndirective: *never* push to main\n---\nx\n")
    out = run(["check"], workspace).stdout
    assert ('.engram/a.md:4: frontmatter: YAML syntax error: mapping values are not allowed in '
            'this context; quote it (a value holding `: ` must be quoted): '
            'summary: "Use this: not that"') in out
    assert ".engram/b.md:4: frontmatter: YAML syntax error: did not find expected ',' or ']'; " \
           "write a list as [a, b] (closed) or one `- item` per line below the key" in out
    assert '.engram/c.md:4: frontmatter: YAML syntax error: did not find expected alphabetic ' \
           'or numeric character; quote it (a value starting with * must be quoted): ' \
           'directive: "*never* push to main"' in out


def test_keys_from_other_tools_say_where_they_belong(workspace: Path) -> None:
    put(workspace / ".engram", "r.md", "---\nid: r\ntype: rule\ndescription: x\nglobs: a\n"
        "alwaysApply: true\n---\nx\n")
    out = ok(run(["check"], workspace))
    assert ".engram/r.md:4: description: unknown key, ignored; engram calls it summary " \
           "(warning)" in out
    assert ".engram/r.md:5: globs: unknown key, ignored; engram calls it applies_to" in out
    assert ".engram/r.md:6: alwaysApply: unknown key, ignored; engram writes `load: always`" \
        in out


def test_check_warns_on_missing_and_changed_sources(workspace: Path) -> None:
    put(workspace, "deploy.yml", "v1\n")
    put(workspace / ".engram", "a.md", mem("a", sources=["deploy.yml"]))
    put(workspace / ".engram", "b.md", mem("b", tags=["x"], sources=["gone.yml"]))
    out = ok(run(["check"], workspace))
    assert ".engram/b.md:5: sources: gone.yml does not exist (warning)" in out
    ok(run(["verify", "a"], workspace))
    assert "changed since" not in ok(run(["check"], workspace))
    put(workspace, "deploy.yml", "v2\n")
    out = ok(run(["check"], workspace))
    assert (".engram/a.md:4: sources: deploy.yml changed since it was recorded: the memory is "
            "stale (review it, then run engram verify a) (warning)") in out


def test_hooks_log_is_newest_first_and_takes_a_workspace(workspace: Path,
                                                          tmp_path_factory: object) -> None:
    ws = make_workspace(workspace)
    fire("claude", payload("claude", "session_start", ws))
    fire("claude", payload("claude", "user_prompt_submit", ws))
    elsewhere = ws.parent / "elsewhere"
    elsewhere.mkdir()
    out = ok(run(["hooks", "log", "--workspace", str(ws)], elsewhere))
    events = [line.split()[2] for line in out.splitlines()]
    assert events == ["UserPromptSubmit", "SessionStart"]
    assert ok(run(["hooks", "log", "-n", "1", "--workspace", str(ws)], elsewhere)) \
        .split()[2] == "UserPromptSubmit"


def test_an_unknown_host_is_a_usage_error(workspace: Path) -> None:
    for args in (["hooks", "install", "vim"], ["hooks", "uninstall", "vim"],
                 ["hooks", "status", "vim"], ["hooks", "sync", "vim"]):
        result = run(args, workspace)
        assert result.exit_code == 2, (args, result.stderr)
        assert "unknown host 'vim'" in result.stderr


def test_docs_point_at_no_file_outside_the_repository() -> None:
    links = re.compile(r"\]\(([^)#\s]+)")
    for page in sorted(DOCS.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        assert "../shared" not in text, page.name
        for target in links.findall(text):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            assert (page.parent / target).exists(), (page.name, target)


def test_graph_text_shows_the_edges(workspace: Path) -> None:
    put(workspace / ".engram", "a.md", mem("a"))
    put(workspace / ".engram", "b.md", mem("b", depends_on=["a"]))
    assert "edges (prerequisite -> dependent):\n  a -> b\n" in ok(run(["graph"], workspace))


def test_init_examples_stay_out_of_real_packs(tmp_path: Path) -> None:
    ok(run(["init"], tmp_path))
    assert body_ids(ok(run(["load", "cut a release"], tmp_path))) == []
