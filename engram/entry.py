"""The console-script entry point: `engram hook` skips click entirely (it runs on every prompt),
everything else goes through the click CLI."""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 2 and args[0] == "hook" and not args[1].startswith("-"):
        return _hook(args[1])
    if len(args) == 2 and args[0] == "load" and not args[1].startswith("-"):
        return _load(args[1])  # the plain `engram load "<task>"` of most hook scripts
    from engram.cli import cli

    cli.main(args=args, prog_name="engram")
    return 0


def _hook(host: str) -> int:
    # A hook must never break its host: whatever happens here, exit 0 (unless debugging).
    try:
        from engram.hook import run_hook

        result = run_hook(host, sys.stdin.buffer.read())
        if result.stdout:
            sys.stdout.write(result.stdout)
            sys.stdout.flush()
        for line in result.stderr:
            print(line, file=sys.stderr)
    except BaseException as exc:  # noqa: BLE001 - fail open is the contract
        if os.environ.get("ENGRAM_HOOK_STRICT") == "1":
            raise
        print(f"engram: hook failed: {type(exc).__name__}: {exc}", file=sys.stderr)
    return 0


def _load(query: str) -> int:
    """`engram load QUERY` without click (about 15 ms less on every call); the same library
    calls and output as the click command, which handles every other form."""
    from engram import pipeline, report
    from engram.errors import EngramError
    from engram.paths import current_dir

    try:
        pack, rendered = pipeline.load(pipeline.Request(query=query, cwd=current_dir()))
    except EngramError as exc:
        for line in exc.lines():
            print(line, file=sys.stderr)
        return 1
    for line in report.stderr_lines(pack):
        print(line, file=sys.stderr)
    sys.stdout.write(report.load_output(pack, rendered))
    sys.stdout.flush()
    return 0
