"""Nested scopes: `.engram/` folders at several depths layer the way nested AGENTS.md do. From
web/src, web/.engram and the root .engram both apply, the nearer wins an id, and dry-run says
which folder each memory came from."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import body_ids, mem, ok, put, run
from test_hook_support import context_of, fire, payload


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    put(root / ".engram", "rules/style.md", mem("code-style", tags=["style"],
                                                body="Root style: four spaces."))
    put(root / ".engram", "rules/deploy.md", mem("deploy-steps", tags=["deploy"],
                                                 body="Deploy with make deploy."))
    put(root / ".engram", "rules/api.md", mem("api-errors", applies_to=["api/**"],
                                              body="API errors are JSON."))
    put(root / ".engram", "rules/web-tests.md", mem("web-tests", applies_to=["web/src/**"],
                                                    body="Root rule for web tests."))
    put(root / "web/.engram", "rules/style.md", mem("code-style", tags=["style"],
                                                    body="Web style: two spaces."))
    put(root / "web/.engram", "rules/react.md", mem("react-hooks", applies_to=["src/**"],
                                                    body="Use hooks, not classes."))
    (root / "web/src").mkdir(parents=True)
    return root


def test_both_layers_apply_and_the_nearer_wins_an_id(repo: Path) -> None:
    here = repo / "web" / "src"
    style = ok(run(["load", "style"], here))
    assert "Web style: two spaces." in style and "Root style" not in style
    assert body_ids(ok(run(["load", "deploy"], here))) == ["deploy-steps"]
    assert "Root style: four spaces." in ok(run(["load", "style"], repo))


def test_applies_to_is_relative_to_each_layers_folder(repo: Path) -> None:
    here = repo / "web" / "src"
    # web/.engram's `src/**` and the root's `web/src/**` both match web/src/App.tsx
    ids = body_ids(ok(run(["load", "--path", "App.tsx"], here)))
    assert sorted(ids) == ["react-hooks", "web-tests"]
    # the root's api/** matches a path outside web/ given from web/src
    assert body_ids(ok(run(["load", "--path", "../../api/x.py"], here))) == ["api-errors"]


def test_dry_run_shows_which_folder_each_memory_came_from(repo: Path) -> None:
    out = ok(run(["load", "--dry-run", "style deploy"], repo / "web" / "src"))
    rows = {line.split()[1] if line[0].isdigit() else line.split()[0]: line
            for line in out.splitlines()[4:] if line.strip()}
    assert "../.engram" in rows["code-style"] and "../../.engram" in rows["deploy-steps"]
    shadowed = [line for line in out.splitlines() if "code-style" in line and "shadowed" in line]
    assert shadowed and "../../.engram" in shadowed[0]


def test_no_layer_above_the_repository_root(tmp_path: Path, repo: Path) -> None:
    put(tmp_path / ".engram", "stranger.md", mem("stranger", tags=["deploy"], body="Not ours."))
    assert "Not ours." not in ok(run(["load", "deploy"], repo / "web" / "src"))


def test_outside_a_repository_the_nearest_folder_alone_applies(repo: Path) -> None:
    (repo / ".git").rmdir()
    style = ok(run(["load", "style deploy"], repo / "web" / "src"))
    assert "Web style: two spaces." in style and "Deploy with make deploy." not in style


def test_the_hook_sees_every_layer(repo: Path) -> None:
    data = payload("claude", "user_prompt_submit", repo / "web", prompt="fix the code style")
    text = context_of(fire("claude", data))
    assert "Web style: two spaces." in text and "Root style" not in text


def test_check_covers_every_layer(repo: Path) -> None:
    put(repo / ".engram", "rules/bad.md", "---\nid: bad\n---\n")
    result = run(["check"], repo / "web")
    assert result.exit_code == 1
    assert "../.engram/rules/bad.md:1: type: required field is missing" in result.stdout


def test_verify_and_check_keep_each_layer_to_its_own_sources(repo: Path) -> None:
    put(repo, "Makefile", "deploy:\n")
    put(repo / ".engram", "rules/make.md", mem("make-deploy", tags=["make"],
                                               sources=["Makefile"]))
    put(repo / "web", "package.json", "{}\n")
    put(repo / "web/.engram", "rules/pkg.md", mem("pkg", tags=["npm"], sources=["package.json"]))
    out = ok(run(["verify"], repo / "web"))
    assert out.startswith("engram: recorded sources of 1 memories in ")
    ok(run(["verify"], repo))
    assert "sources" not in ok(run(["check"], repo / "web"))
    put(repo, "Makefile", "deploy: build\n")
    assert "../.engram/rules/make.md:5: sources: Makefile changed since it was recorded" in \
        ok(run(["check"], repo / "web"))
