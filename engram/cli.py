"""The click commands: parse options, call one library function, print its result.

No logic lives here; every command has a typed function behind it that tests call directly.
Each command imports its module inside its function, on purpose: `engram load --path ...` and
`engram hook` run on every prompt and must not pay for install, sync, import, graph or mcp.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from engram import __version__
from engram.errors import EngramError, UnknownHostError
from engram.paths import current_dir

F = TypeVar("F", bound=Callable[..., Any])


def _fails_cleanly(func: F) -> F:
    """EngramError -> its message on stderr and exit 1 (the message names the file and field);
    an unknown host is a usage error, exit 2, like click's own."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except EngramError as exc:
            for line in exc.lines():
                click.echo(line, err=True)
            sys.exit(2 if isinstance(exc, UnknownHostError) else 1)

    return wrapper  # type: ignore[return-value]


def _scope_options(func: F) -> F:
    func = click.option("--no-global", is_flag=True, help="Ignore the global memory folder.")(func)
    func = click.option("--workspace", metavar="DIR",
                        help="Project dir (or its .engram/); default: search upward.")(func)
    return func


def _request(**kwargs: Any) -> Any:
    from engram.scopes import Request

    return Request(cwd=str(Path(current_dir())), **kwargs)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="engram")
def cli() -> None:
    """Give coding agents the right project memory at the right moment.

    \b
    Example:
      engram load "add a database migration"
    """


@cli.command(epilog='Example: engram load --dry-run "cut a release"')
@click.argument("query", required=False, default="")
@click.option("--path", "paths", multiple=True, metavar="FILE",
              help="A file the task touches (repeatable): loads memories whose applies_to match.")
@click.option("--dry-run", is_flag=True, help="Explain the routing; print no memory content.")
@click.option("--all", "all_", is_flag=True, help="Every related memory as a body, no limit.")
@click.option("--full", is_flag=True, help="Every pack member as a body (same as "
              "--disclosure full).")
@click.option("--disclosure", type=click.Choice(["auto", "full"]), default=None,
              help="auto: top bodies then cards; full: all bodies.")
@click.option("--id", "ids", multiple=True, metavar="ID[,ID]",
              help="Fetch exactly these memories as bodies (repeatable or comma list).")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Pack size (default 8).")
@click.option("--expand-top", type=click.IntRange(min=0), default=None,
              help="How many best-ranked members print as bodies (default 3).")
@click.option("--budget-tokens", type=click.IntRange(min=1), default=None,
              help="Cap the output at about N tokens (characters / 4).")
@click.option("--role", default=None, help="Active role (default: $ENGRAM_ROLE).")
@click.option("--json", "as_json", is_flag=True, help="One JSON document instead of text.")
@_scope_options
@_fails_cleanly
def load(query: str, paths: tuple[str, ...], dry_run: bool, all_: bool, full: bool,
         disclosure: str | None, ids: tuple[str, ...], limit: int | None,
         expand_top: int | None, budget_tokens: int | None, role: str | None, as_json: bool,
         workspace: str | None, no_global: bool) -> None:
    """The context pack for a task: the few memories that matter, prerequisites first."""
    from engram import pipeline

    request = _request(query=query, paths=paths, workspace=workspace, use_global=not no_global,
                       role=role, limit=limit, expand_top=expand_top,
                       disclosure="full" if full else disclosure, all=all_, ids=ids,
                       budget_tokens=budget_tokens, record_fetch=not dry_run,
                       explain=dry_run or as_json)
    mode = "dry-run" if dry_run else "json" if as_json else "text"
    stdout, stderr = pipeline.load_answer(request, mode)
    for line in stderr:
        click.echo(line, err=True)
    click.echo(stdout, nl=False)


@cli.command(epilog='Example: engram search "migrations"')
@click.argument("query")
@click.option("--json", "as_json", is_flag=True, help="One JSON document instead of text.")
@click.option("--role", default=None, help="Active role (default: $ENGRAM_ROLE).")
@_scope_options
@_fails_cleanly
def search(query: str, as_json: bool, role: str | None, workspace: str | None,
           no_global: bool) -> None:
    """Every memory matching QUERY, ranked, one card per line with its score (no gate)."""
    from engram import pipeline, report

    hits = pipeline.search(_request(query=query, workspace=workspace, use_global=not no_global,
                                    role=role))
    click.echo(report.search_json(hits) if as_json else report.search_text(hits), nl=False)


@cli.command(epilog="Example: engram check")
@_scope_options
@_fails_cleanly
def check(workspace: str | None, no_global: bool) -> None:
    """Validate every memory in both scopes; exit 1 if any error."""
    from engram import maintain

    problems = maintain.check(_request(workspace=workspace, use_global=not no_global))
    for problem in problems:
        click.echo(str(problem) if problem.severity == "error" else f"{problem} (warning)")
    errors = sum(1 for p in problems if p.severity == "error")
    click.echo(f"engram check: {errors} errors, {len(problems) - errors} warnings")
    if errors:
        sys.exit(1)


@cli.command(epilog="Example: engram verify release-checklist")
@click.argument("ids", nargs=-1)
@_scope_options
@_fails_cleanly
def verify(ids: tuple[str, ...], workspace: str | None, no_global: bool) -> None:
    """Record the current hashes of the memories' sources in .engram/sources.lock."""
    from engram import maintain

    result = maintain.verify(_request(workspace=workspace, use_global=not no_global), ids)
    for line in result.problems:
        click.echo(line, err=True)
    if result.problems:
        click.echo(f"engram verify: {len(result.problems)} missing sources; nothing recorded in "
                   f"{result.lock_path}", err=True)
        sys.exit(1)
    click.echo(f"engram: recorded sources of {len(result.recorded)} memories in "
               f"{result.lock_path}")


@cli.command(epilog="Example: engram init")
@click.option("--workspace", metavar="DIR", default=".", help="Project dir (default: here).")
@click.option("--no-examples", is_flag=True, help="Write no example memories.")
@_fails_cleanly
def init(workspace: str, no_examples: bool) -> None:
    """Create .engram/ with a README, inert examples, .engramignore and .gitignore (never
    overwrites)."""
    from engram import maintain

    created = maintain.init(Path(workspace), examples=not no_examples)
    for path in created:
        click.echo(f"created {path}")
    if not created:
        click.echo("engram: .engram/ already complete; nothing written")


@cli.command("import", epilog="Example: engram import --dry-run")
@click.option("--dry-run", is_flag=True, help="Print the plan, one line per memory; write nothing.")
@click.option("--force", is_flag=True, help="Also update imported memories edited by hand.")
@click.option("--workspace", metavar="DIR", default=None,
              help="Project dir (default: the one holding .engram/ above here, else here).")
@_fails_cleanly
def import_(dry_run: bool, force: bool, workspace: str | None) -> None:
    """Turn CLAUDE.md, AGENTS.md, Cursor/Copilot/Claude/Windsurf/Cline rules and skills into
    memories in .engram/imported/ (idempotent; reports what it could not map)."""
    from engram import importer
    from engram.paths import find_project

    here = Path(current_dir())
    project = Path(workspace) if workspace else find_project(here) or here
    report = importer.run(project, dry_run=dry_run, force=force)
    click.echo(importer.format_report(report), nl=False)
    if not report.ok:
        sys.exit(1)


@cli.command(epilog="Example: engram graph --rebuild")
@click.argument("topic", required=False)
@click.option("--rebuild", is_flag=True, help="Force a full re-index first.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document instead of text.")
@_scope_options
@_fails_cleanly
def graph(topic: str | None, rebuild: bool, as_json: bool, workspace: str | None,
          no_global: bool) -> None:
    """The dependency graph: layers, missing prerequisites, cycles, shadowed ids."""
    from engram import graph as graph_mod

    report = graph_mod.analyze(_request(workspace=workspace, use_global=not no_global),
                               topic=topic, rebuild=rebuild)
    click.echo(graph_mod.format_json(report) if as_json else graph_mod.format_text(report),
               nl=False)


@cli.command("mcp", epilog="Example: engram mcp   (as a host's MCP server command)")
@_fails_cleanly
def mcp_server() -> None:
    """Serve load, fetch, search and explain as MCP tools on stdin/stdout (engram[mcp])."""
    try:
        from engram.mcp.server import run
    except ImportError as exc:
        raise EngramError(f"engram mcp needs the MCP SDK ({exc.name} is not installed): "
                          "pip install 'engram[mcp]'") from None
    sys.exit(run())


@cli.command(epilog="Example: echo '{...}' | engram hook claude")
@click.argument("host")
def hook(host: str) -> None:
    """The hook runtime a host calls: reads one JSON payload on stdin; always exits 0."""
    from engram.hook import run_process

    run_process(host)


def _project_dir(workspace: str | None) -> Path:
    from engram.scopes import resolve

    context = resolve(_request(workspace=workspace, lenient_config=True))
    return context.workspace_dir or Path(current_dir())


@cli.group(epilog="Example: engram hooks install claude")
def hooks() -> None:
    """Manage host hook registrations and generated native rule files."""


def _registration_options(func: F) -> F:
    func = click.option("--no-mcp", is_flag=True,
                        help="Leave the host's MCP config alone (hooks only).")(func)
    func = click.option("--workspace", metavar="DIR",
                        help="Project dir (default: search upward).")(func)
    func = click.option("--global", "global_", is_flag=True,
                        help="The user-level config instead of the project's.")(func)
    return click.argument("host")(func)


@hooks.command("install", epilog="Example: engram hooks install codex --global")
@_registration_options
@_fails_cleanly
def hooks_install(host: str, global_: bool, workspace: str | None, no_mcp: bool) -> None:
    """Merge engram's hook entries, and its MCP server, into HOST's config (idempotent; the
    user's own entries kept). vscode: the MCP server only."""
    from engram import install
    from engram.mcp import registration

    project = _project_dir(workspace)
    if host not in registration.MCP_ONLY:
        result = install.install(host, project_dir=project, global_=global_)
        click.echo(install.format_result(result), nl=False)
    elif no_mcp:
        raise EngramError(f"{host}: no hooks to install, and --no-mcp skips its MCP server")
    if not no_mcp and host in registration.hosts():
        click.echo(registration.format_result(registration.register(
            host, project_dir=project, global_=global_)), nl=False)


@hooks.command("uninstall", epilog="Example: engram hooks uninstall claude")
@_registration_options
@_fails_cleanly
def hooks_uninstall(host: str, global_: bool, workspace: str | None, no_mcp: bool) -> None:
    """Remove only engram's entries (hooks and MCP server) from HOST's config."""
    from engram import install
    from engram.mcp import registration

    project = _project_dir(workspace)
    # The reverse of install's order: the server entry out first, then the hooks.
    if not no_mcp and host in registration.hosts():
        click.echo(registration.format_result(registration.unregister(
            host, project_dir=project, global_=global_)), nl=False)
    if host not in registration.MCP_ONLY:
        result = install.uninstall(host, project_dir=project, global_=global_)
        click.echo(install.format_result(result), nl=False)


@hooks.command("status", epilog="Example: engram hooks status")
@click.argument("host", required=False)
@click.option("--workspace", metavar="DIR", help="Project dir (default: search upward).")
@_fails_cleanly
def hooks_status(host: str | None, workspace: str | None) -> None:
    """Per host: installed or not, where, and any problem (trust gate, double injection);
    then whether its MCP config has engram's server."""
    from engram import install
    from engram.mcp import registration

    project = _project_dir(workspace)
    if host not in registration.MCP_ONLY:
        rows = install.status(project_dir=project, hosts=[host] if host else None)
        click.echo(install.format_status(rows, install.config_warnings(project)), nl=False)
    mcp_rows = registration.status(project_dir=project, hosts_=[host] if host else None)
    click.echo(registration.format_status(mcp_rows), nl=False)


@hooks.command("sync", epilog="Example: engram hooks sync --check")
@click.argument("host", required=False)
@click.option("--check", is_flag=True, help="Verify the generated files instead of writing.")
@click.option("--workspace", metavar="DIR", help="Project dir (default: search upward).")
@_fails_cleanly
def hooks_sync(host: str | None, check: bool, workspace: str | None) -> None:
    """Write the native files of HOST (default: the hosts in use) from .engram/: path rules,
    and the managed section of CLAUDE.md / AGENTS.md / GEMINI.md / copilot-instructions.md."""
    from engram import sync

    report = sync.sync_rules(current_dir(), workspace=workspace, check=check,
                             hosts=(host,) if host else None)
    click.echo(sync.format_report(report, check=check), nl=False)
    if not report.ok:
        sys.exit(1)


@hooks.command("log", epilog="Example: engram hooks log -n 5")
@click.option("--session", default=None, help="Only this session (an id prefix is enough).")
@click.option("-n", "limit", type=click.IntRange(min=1), default=20, help="How many entries.")
@click.option("--workspace", metavar="DIR", help="Project dir (default: search upward).")
@_fails_cleanly
def hooks_log(session: str | None, limit: int, workspace: str | None) -> None:
    """What each hook call injected, and what it demoted or left out, newest first."""
    from engram import hooklog

    entries = hooklog.entries_for(cwd=current_dir(), session=session, limit=limit,
                                  workspace=workspace)
    click.echo(hooklog.format_entries(entries), nl=False)


@cli.command(epilog="Example: engram bench bench/routing/cases.json --baseline")
@click.argument("cases", type=click.Path(exists=True, dir_okay=False))
@click.option("--memories", metavar="DIR", default=None,
              help="Folder of *.md memories (default: memories/ beside CASES).")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Pack size (default 8).")
@click.option("--baseline", is_flag=True, help="Also score plain BM25 top-k over the same fields.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document instead of text.")
@click.option("--verbose", is_flag=True, help="The dry-run of every failing case.")
@_fails_cleanly
def bench(cases: str, memories: str | None, limit: int | None, baseline: bool, as_json: bool,
          verbose: bool) -> None:
    """Routing quality on a cases file: recall, any-of, forbid, empty, order, tokens."""
    from engram import quality

    report = quality.run(cases, memories, limit=limit, baseline=baseline, verbose=verbose)
    click.echo(quality.to_json(report) if as_json else quality.format_text(report, verbose),
               nl=False)
