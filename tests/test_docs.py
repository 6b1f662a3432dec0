"""docs/cli.md cannot drift from the CLI: every command and option is documented in its own
section, and every command's help ends with an example."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from cli_helpers import load, ok, put
from click.testing import CliRunner

from engram.cli import cli

DOC = Path(__file__).parent.parent / "docs" / "cli.md"


def commands(group: click.Group = cli, prefix: tuple[str, ...] = ()) -> list[
        tuple[tuple[str, ...], click.Command]]:
    out: list[tuple[tuple[str, ...], click.Command]] = []
    for name in sorted(group.list_commands(click.Context(group))):
        command = group.get_command(click.Context(group), name)
        assert command is not None
        out.append(((*prefix, name), command))
        if isinstance(command, click.Group):
            out.extend(commands(command, (*prefix, name)))
    return out


def sections() -> dict[str, str]:
    """`## engram load` / `### engram hooks install` headings -> the text up to the next one."""
    text = DOC.read_text(encoding="utf-8")
    found: dict[str, str] = {}
    parts = re.split(r"^#{2,3} (engram [a-z -]+)$", text, flags=re.M)
    for heading, body in zip(parts[1::2], parts[2::2], strict=True):
        found[heading.strip()] = body
    return found


COMMANDS = commands()
IDS = [" ".join(path) for path, _ in COMMANDS]


def test_the_command_tree_is_found() -> None:
    assert {"load", "graph", "search", "check", "verify", "init", "hook", "hooks", "bench",
            "hooks install", "hooks uninstall", "hooks status", "hooks sync", "hooks log"} \
        <= set(IDS)


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_every_command_has_a_section_naming_all_its_options(path: tuple[str, ...],
                                                            command: click.Command) -> None:
    docs = sections()
    heading = "engram " + " ".join(path)
    assert heading in docs, f"docs/cli.md has no section '## {heading}'"
    body = docs[heading]
    for param in command.params:
        if isinstance(param, click.Option):
            for opt in param.opts:
                if opt in ("-h", "--help"):
                    continue
                assert f"`{opt}" in body, f"{heading}: option {opt} is not documented"
        elif isinstance(param, click.Argument) and param.name:
            assert param.human_readable_name.upper().strip(".") in body.upper(), (
                f"{heading}: argument {param.name} is not documented")
    assert "Example" in body, f"{heading}: no example in docs/cli.md"


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS] + [()], ids=[*IDS, "engram"])
def test_every_help_has_an_example(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0
    assert "Example" in result.stdout and "engram " in result.stdout.split("Example")[-1]


def test_root_options_and_exit_codes_are_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    for flag in ("--version", "--help", "-h"):
        assert f"`{flag}" in text
    assert "## Exit codes" in text
    for code in ("`0`", "`1`", "`2`"):
        assert code in text.split("## Exit codes")[1].split("##")[0]


def test_documented_sections_exist_as_commands() -> None:
    # the other direction: a section for a command that does not exist is stale documentation
    known = {"engram " + i for i in IDS}
    stale = set(sections()) - known
    assert not stale, f"docs/cli.md documents unknown commands: {sorted(stale)}"


RANKING_DOC = Path(__file__).parent.parent / "docs" / "ranking.md"
RANKING_EXAMPLE = {
    "rules/release-foundation.md": "---\nid: release-foundation\ntype: rule\nlevel: foundation\n"
    "directive: Release only from a green main branch.\ntags: [ci]\n---\n"
    "Every release starts from `main` with a passing CI run.\n",
    "skills/release-checklist.md": "---\nid: release-checklist\ntype: skill\ntags: [release]\n"
    'triggers: ["cut a release", "tag a version"]\ndepends_on: [release-foundation]\n'
    "summary: Steps that gate every release tag.\n---\n1. Apply pending migrations on staging.\n"
    "2. Update CHANGELOG.md, bump the version, tag and push.\n",
    "knowledge/db-migrations.md": "---\nid: db-migrations\ntype: knowledge\n"
    "tags: [database, migrations]\nconfidence: high\n"
    "summary: Migrations run before the deploy step, never after.\n---\n"
    "Migrations live in `db/migrations/` and run with `make migrate`.\n",
    "rules/changelog-style.md": "---\nid: changelog-style\ntype: rule\ntags: [changelog]\n"
    'applies_to: ["CHANGELOG.md"]\nreview_after: 2026-06-01\n'
    "directive: Write changelog entries in the imperative mood.\n---\n"
    "One line per change, newest release first.\n",
    "knowledge/staging-hosts.md": "---\nid: staging-hosts\ntype: knowledge\ntags: [staging]\n"
    "confidence: low\nsummary: Staging runs on two hosts behind the internal load balancer.\n"
    "---\nDeploys roll one host at a time.\n",
    "rules/legacy-deploy.md": "---\nid: legacy-deploy\ntype: rule\ntags: [release]\n"
    "lifecycle: archived\ndirective: Deploy with the old fabric script.\n---\n"
    "Replaced by CI deploys.\n",
}


@pytest.mark.parametrize("flags", [["--dry-run"], []], ids=["dry-run", "pack"])
def test_ranking_doc_example_is_real_output(workspace: Path, flags: list[str]) -> None:
    for rel, text in RANKING_EXAMPLE.items():
        put(workspace / ".engram", rel, text)
    query = "how to cut a release with database migrations"
    out = ok(load(workspace, *flags, "--path", "CHANGELOG.md", query))
    shown = " ".join(["$ engram load", *flags, "--path CHANGELOG.md", f'"{query}"'])
    doc = RANKING_DOC.read_text(encoding="utf-8")
    assert f"{shown}\n{out.rstrip()}\n```" in doc, "docs/ranking.md example is out of date"


# -- the pages as a whole ---------------------------------------------------------------------
REPO = Path(__file__).parent.parent
PAGES = sorted([REPO / "README.md", REPO / "CHANGELOG.md", *(REPO / "docs").glob("*.md")])
PAGE_IDS = [str(p.relative_to(REPO)) for p in PAGES]


def prose(page: Path) -> str:
    """The page without fenced blocks and inline code: examples may show any link or path."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_links_stay_inside_the_repository_and_resolve(page: Path) -> None:
    for target in re.findall(r"\]\(([^)\s]+)\)", prose(page)):
        assert "://" not in target and not target.startswith("mailto:"), \
            f"{page.name}: a link leaves the repository: {target}"
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(REPO.resolve()), f"{page.name}: a link leaves the repository: " \
                                                    f"{target}"
        assert path.exists(), f"{page.name}: a link to nothing: {target}"


CURRENT = [p for p in PAGES if p.name != "CHANGELOG.md"]  # the changelog names files as they were


@pytest.mark.parametrize("page", CURRENT, ids=[str(p.relative_to(REPO)) for p in CURRENT])
def test_project_files_the_docs_name_exist(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    named = set(re.findall(r"(?<![\w./-])((?:engram|tests|bench)/[\w/.-]*\w)(?![\w*])", text))
    missing = sorted(n for n in named if ".work" not in n and not (REPO / n).exists())
    assert not missing, f"{page.name} names files that do not exist: {missing}"


def test_readme_first_screen_has_the_two_commands_ci_runs() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    first_block = re.search(r"^```bash\n(.*?)^```", readme, flags=re.M | re.S)
    assert first_block is not None
    setup, tests = first_block.group(1).splitlines()
    assert setup.startswith("pip install -e . && engram load ")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()[-1]
    assert tests == ci, "README's test command and .ci/run have drifted apart"
