"""docs/cli.md cannot drift from the CLI: every command and option is documented in its own
section, and every command's help ends with an example."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
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
    assert {"load", "graph", "search", "check", "verify", "init", "hook", "hooks"} <= set(IDS)


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
    # the other direction: a section for a command that does not exist is stale documentation,
    # except commands the spec defines that are still being written
    pending = {"engram bench"}
    known = {"engram " + i for i in IDS}
    stale = set(sections()) - known - pending
    assert not stale, f"docs/cli.md documents unknown commands: {sorted(stale)}"
