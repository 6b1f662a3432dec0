"""The console-script entry point: `engram hook` skips click entirely (it runs on every prompt),
everything else goes through the click CLI."""

from __future__ import annotations

import gc
import sys

# Commands that answer one request and exit: they make no reference cycles worth collecting,
# and the collector would walk every posting and record they decode (a fifth of a warm load at
# 10,000 memories).
ONE_SHOT = frozenset({"load", "hook"})


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ONE_SHOT and argv is None:
        gc.disable()
    if len(args) == 2 and args[0] == "hook" and not args[1].startswith("-"):
        return _hook(args[1])
    if len(args) == 2 and args[0] == "load" and not args[1].startswith("-"):
        return _load(args[1])  # the plain `engram load "<task>"` of most hook scripts
    from engram.cli import cli

    cli.main(args=args, prog_name="engram")
    return 0


def _hook(host: str) -> int:
    from engram.hook import run_process

    return run_process(host)


def _load(query: str) -> int:
    """`engram load QUERY` without click (about 15 ms less on every call); the click command
    prints the same `pipeline.load_answer` for every other form."""
    from engram import pipeline, scopes
    from engram.errors import EngramError
    from engram.paths import current_dir

    try:
        stdout, stderr = pipeline.load_answer(scopes.Request(query=query, cwd=current_dir()))
    except EngramError as exc:
        stdout, stderr = "", exc.lines()
        code = 1
    else:
        code = 0
    for line in stderr:
        print(line, file=sys.stderr)
    sys.stdout.write(stdout)
    sys.stdout.flush()
    return code
