"""`engram import` on a realistic repository written for these tests (tests/fixtures/import/shop):
every format, nested AGENTS.md, `@` imports, odd frontmatter; through the real CLI."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from cli_helpers import ok, put, run

SHOP = Path(__file__).parent / "fixtures" / "import" / "shop"


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    project = tmp_path / "shop"
    shutil.copytree(SHOP, project)
    (project / "PROVENANCE.md").unlink()
    return project


def front(path: Path) -> dict[str, object]:
    data = yaml.safe_load(path.read_text(encoding="utf-8").split("---\n")[1])
    assert isinstance(data, dict)
    return data


def imported(project: Path) -> dict[str, Path]:
    return {p.stem: p for p in sorted((project / ".engram/imported").glob("*.md"))}


def test_dry_run_prints_one_line_per_memory_with_its_source_and_writes_nothing(
        shop: Path) -> None:
    out = ok(run(["import", "--dry-run"], shop))
    assert not (shop / ".engram").exists()
    plan = [line for line in out.splitlines() if line.startswith("create ")]
    assert len(plan) == 27
    assert ("create .engram/imported/python.md  rule  paths api/**/*.py  "
            "<- .cursor/rules/python.mdc:8") in plan
    assert ("create .engram/imported/web-components.md  rule  paths web/**  "
            "<- web/AGENTS.md:1") in plan
    assert out.splitlines()[-1] == ("engram import (dry run, nothing written): 27 memories: "
                                    "27 new, 0 updated, 0 unchanged, 0 kept; 5 not mapped")


def test_each_format_maps_to_the_fields_it_means(shop: Path) -> None:
    ok(run(["import"], shop))
    files = imported(shop)
    # Cursor: description -> summary, globs (string or list) -> applies_to, alwaysApply -> always
    assert front(files["react"])["summary"] == "React component conventions for the storefront"
    assert front(files["react"])["applies_to"] == ["web/src/**/*.tsx", "web/src/**/*.ts"]
    assert front(files["python"])["applies_to"] == ["api/**/*.py"]
    assert front(files["always"])["load"] == "always"
    # a nested .cursor/rules: unquoted `*.test.tsx` (not YAML) scoped to its folder
    assert front(files["web-tests"])["applies_to"] == ["web/**/*.test.tsx"]
    # Copilot: applyTo -> applies_to; "**" means every file: always loaded
    assert front(files["typescript"])["applies_to"] == ["**/*.ts", "**/*.tsx"]
    assert front(files["everywhere"])["load"] == "always"
    # Claude rules: paths -> applies_to; none -> always
    assert front(files["security"])["applies_to"] == ["api/auth/**", "api/payments/**"]
    assert front(files["tone"])["load"] == "always"
    # Windsurf glob trigger
    assert front(files["docs"])["applies_to"] == ["docs/**/*.md"]
    # a skill: name/description, its reference Markdown a memory of its own, files listed
    skill = front(files["release"])
    assert skill["type"] == "skill" and skill["summary"].startswith("Cut a release of the shop")
    assert front(files["release-checklist"])["type"] == "knowledge"
    assert ".claude/skills/release/scripts/bump.sh" in files["release"].read_text()
    # CLAUDE.md split at its headings; the top part always loaded; numbered steps are a skill
    assert front(files["claude-overview"])["load"] == "always"
    assert front(files["code-style"])["type"] == "rule"
    assert front(files["claude-release"])["type"] == "skill"
    assert front(files["commands"]).get("load") is None
    # the @ import followed into memories of its own, its file recorded as their source
    assert front(files["testing"])["sources"] == ["docs/agents/testing.md"]
    # nested AGENTS.md: the folder is the path scope
    assert front(files["web-styling"])["applies_to"] == ["web/**"]
    assert front(files["api-agents"])["applies_to"] == ["api/**"]


def test_every_imported_memory_is_valid_and_routes(shop: Path) -> None:
    ok(run(["import"], shop))
    assert ok(run(["check"], shop)).splitlines()[-1] == "engram check: 0 errors, 0 warnings"
    pack = ok(run(["load", "cut a release"], shop))
    assert "### release [skill" in pack
    by_path = ok(run(["load", "--path", "api/payments/charge.py", "--limit", "8"], shop))
    assert "### security [rule" in by_path


def test_no_text_is_lost(shop: Path) -> None:
    ok(run(["import"], shop))
    written = "\n".join(p.read_text() for p in imported(shop).values())
    for source in sorted(shop.rglob("*")):
        if not source.is_file() or ".engram" in source.parts or source.suffix == ".tsx" \
                or source.name == "bump.sh":
            continue
        body = source.read_text()
        if body.startswith("---\n"):
            body = body.split("---\n", 2)[2]
        for line in body.splitlines():
            if line.strip():
                assert line in written, (source, line)


def test_reports_what_it_could_not_map(shop: Path) -> None:
    out = ok(run(["import"], shop))
    unmapped = [line for line in out.splitlines() if line.startswith("not mapped: ")]
    assert unmapped == [
        "not mapped: .claude/skills/release/SKILL.md:2: frontmatter 'allowed-tools' has no "
        "engram field; kept under ## Origin in the memory",
        "not mapped: .cursor/rules/migrations.mdc:1: a manual rule (no description, globs or "
        "alwaysApply): imported as a routed memory; `engram load --id` fetches it by name",
        "not mapped: .cursor/rules/python.mdc:2: frontmatter 'author' has no engram field; "
        "kept under ## Origin in the memory",
        "not mapped: .github/instructions/everywhere.instructions.md:2: frontmatter "
        "'excludeAgent' has no engram field; kept under ## Origin in the memory",
        "not mapped: CLAUDE.md:4: @~/.claude/shop-notes.md: outside the repository (a personal "
        "file); not imported, the reference stays in the text",
    ]
    assert "- `author: platform-team` (no engram field)" in \
        (shop / ".engram/imported/python.md").read_text()


def test_idempotent_and_never_overwrites_a_hand_edit_without_force(shop: Path) -> None:
    ok(run(["import"], shop))
    before = {k: v.read_bytes() for k, v in imported(shop).items()}
    again = ok(run(["import"], shop))
    assert again.splitlines()[-1].endswith("0 new, 0 updated, 27 unchanged, 0 kept; 5 not mapped")
    assert {k: v.read_bytes() for k, v in imported(shop).items()} == before
    edited = shop / ".engram/imported/python.md"
    edited.write_text(edited.read_text().replace("re-raising", "re-raising (always)"))
    put(shop, ".cursor/rules/python.mdc",
        (shop / ".cursor/rules/python.mdc").read_text() + "- Log with `logger`, not print.\n")
    out = ok(run(["import"], shop))
    assert ("keep   .engram/imported/python.md  rule  paths api/**/*.py  <- "
            ".cursor/rules/python.mdc:8  (edited by hand; --force to update)") in out
    assert "(always)" in edited.read_text()
    ok(run(["import", "--force"], shop))
    assert "(always)" not in edited.read_text() and "not print" in edited.read_text()


def test_a_changed_source_makes_its_memory_stale(shop: Path) -> None:
    ok(run(["import"], shop))
    put(shop, "AGENTS.md", (shop / "AGENTS.md").read_text().replace("16", "17"))
    out = run(["check"], shop).stdout
    assert re.search(r"imported/database\.md:\d+: sources: AGENTS\.md changed since it was "
                     r"recorded", out), out


def test_generated_and_managed_text_is_not_imported_back(shop: Path) -> None:
    ok(run(["import"], shop))
    ok(run(["hooks", "sync", "claude"], shop))
    out = ok(run(["import", "--dry-run"], shop))
    assert ".claude/rules/engram" not in out
    assert out.splitlines()[-1].endswith("27 unchanged, 0 kept; 5 not mapped")


def test_odd_inputs_crlf_bom_symlink_and_missing_import(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_bytes(
        b"\xef\xbb\xbf# Rules\r\n\r\n## One\r\nUse tabs.\r\n\r\n## Two\r\nSee @missing/file.md\r\n")
    (tmp_path / "CLAUDE.md").symlink_to("AGENTS.md")
    put(tmp_path, ".cursor/rules/broken.mdc", "---\ndescription: [unclosed\n---\nBody text.\n")
    out = ok(run(["import"], tmp_path))
    assert "not mapped: CLAUDE.md:1: a symlink to AGENTS.md; read once, as AGENTS.md" in out
    assert "not mapped: AGENTS.md:7: @missing/file.md: no such file; not imported" in out
    assert "Use tabs." in (tmp_path / ".engram/imported/one.md").read_text()
    assert front(tmp_path / ".engram/imported/broken.md")["summary"] == "[unclosed"
    assert ok(run(["check"], tmp_path)).endswith("0 errors, 0 warnings\n")


def test_ids_from_a_deep_folder_and_long_headings_fit_the_id_limit(tmp_path: Path) -> None:
    # A nested AGENTS.md's memories carry its folder in their ids; with long headings the two
    # outgrew the 80-character id limit and the whole import was refused.
    heading = "Ensuring the task is ready for implementation before anyone writes code"
    put(tmp_path, "services/payments-reconciliation-worker/AGENTS.md",
        f"# Guide\n\n## {heading}\nRead the ticket.\n\n## {heading} again\nTwice.\n\n"
        f"## {heading}\nThrice.\n")
    out = ok(run(["import"], tmp_path))
    ids = sorted(imported(tmp_path))
    assert len(ids) == 4 and len(set(ids)) == 4, out
    assert all(len(i) <= 80 for i in ids), ids
    assert any(i.startswith("services-payments-reconciliation-worker-ensuring") for i in ids)
    assert ok(run(["check"], tmp_path)).endswith("0 errors, 0 warnings\n")


def test_an_id_a_memory_already_has_is_not_reused(workspace: Path) -> None:
    put(workspace, ".engram/rules/mine.md", "---\nid: testing\ntype: rule\n---\nMine.\n")
    put(workspace, "CLAUDE.md", "## Testing\nRun pytest.\n\n## Style\nUse black.\n")
    out = ok(run(["import"], workspace))
    assert "create .engram/imported/claude-testing.md" in out
    assert (workspace / ".engram/rules/mine.md").read_text().endswith("Mine.\n")


def test_trimming_an_original_adopts_its_memories(shop: Path) -> None:
    # The migration's last step: the originals shrink to engram's managed section; what they
    # held lives on as ordinary memories, with no `sources` pointing at text that is gone.
    ok(run(["import"], shop))
    put(shop, "GEMINI.md", "")
    (shop / ".cursor/rules/python.mdc").unlink()
    out = ok(run(["import", "--dry-run"], shop))
    assert ("adopt  .engram/imported/gemini-notes.md: its source no longer holds this text; now "
            "an ordinary memory (import stamp and sources removed)") in out
    assert "engram import: sha256" in (shop / ".engram/imported/python.md").read_text()
    ok(run(["import"], shop))
    python = (shop / ".engram/imported/python.md").read_text()
    assert "engram import: sha256" not in python and "sources:" not in python
    assert python.startswith("---\nid: python\ntype: rule\n")
    assert ok(run(["check"], shop)).endswith("0 errors, 0 warnings\n")
    # an ordinary memory now: a later import leaves it alone and never reuses its id
    put(shop, ".cursor/rules/python.mdc", "---\nglobs: api/**\n---\nNew rule.\n")
    assert "create .engram/imported/python-2.md" in ok(run(["import", "--dry-run"], shop))


def test_managed_section_edits_do_not_make_imports_stale(shop: Path) -> None:
    ok(run(["import"], shop))
    ok(run(["hooks", "sync", "claude"], shop))
    out = ok(run(["load", "--dry-run", "cut a release"], shop))
    assert "stale" not in out


def test_import_chains_cycles_folders_and_legacy_names(tmp_path: Path) -> None:
    put(tmp_path, "GEMINI.md", "# Notes\nSee @./docs/a.md\n")
    put(tmp_path, "docs/a.md", "## Alpha\nUse alpha. Also @b.md\n")
    put(tmp_path, "docs/b.md", "## Beta\nUse beta. Back to @a.md\n")  # a cycle: read once
    put(tmp_path, ".clinerules/01-style.md", "Always format with black.\n")
    put(tmp_path, ".clinerules/02-tests.md", "Never skip a failing test.\n")
    put(tmp_path, ".windsurfrules", "Prefer small functions.\n")
    put(tmp_path, "tools/skills/lint/SKILL.md", "---\nname: Lint Code\n---\nRun ruff.\n")
    put(tmp_path, "node_modules/pkg/AGENTS.md", "## Vendored\nNot ours.\n")
    out = ok(run(["import"], tmp_path))
    files = imported(tmp_path)
    assert {"alpha", "beta", "cline-01-style", "cline-02-tests", "windsurfrules",
            "lint-code", "notes"} <= set(files)
    assert "vendored" not in files
    assert front(files["beta"])["sources"] == ["docs/b.md"]
    assert out.count("<- docs/b.md") == 1
    assert ("not mapped: tools/skills/lint/SKILL.md:1: SKILL.md without a description: its card "
            "shows the first sentence of the body") in out
    assert front(files["lint-code"])["type"] == "skill"
