"""Helpers for the read-path tests: write memories, run the real CLI, read a dry-run table.

Kept apart from conftest.py so its fixtures stay small; nothing here mocks engram.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from engram.cli import cli

# The public development routing set stays outside the project, beside its checkout (CI has it
# there); ENGRAM_DEV_SET points elsewhere, e.g. from a worktree. Tests skip, saying why, without.
DEV_SET = Path(os.environ.get("ENGRAM_DEV_SET")
               or Path(__file__).resolve().parent.parent.parent / "shared" / "bench" / "dev")


def dev_set() -> Path:
    """The development set's folder, or skip the test naming where it was looked for."""
    import pytest

    if not (DEV_SET / "cases.json").is_file() or not (DEV_SET / "memories").is_dir():
        pytest.skip(f"the development routing set is not at {DEV_SET} (../shared/bench/dev)")
    return DEV_SET


def mem(mid: str, kind: str = "rule", body: str = "", **fields: Any) -> str:
    """A memory file's text: frontmatter from keyword arguments (JSON is valid YAML), then body."""
    lines = ["---", f"id: {mid}", f"type: {kind}"]
    for key, value in fields.items():
        if isinstance(value, tuple):
            value = list(value)
        lines.append(f"{key}: {json.dumps(value)}")
    lines.append("---")
    return "\n".join(lines) + "\n" + (body.rstrip("\n") + "\n" if body else "")


def put(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def touch_later(path: Path) -> None:
    """Move a file's mtime forward, so an edit is never hidden by coarse file-system clocks."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))


@contextmanager
def chdir(path: Path) -> Iterator[None]:
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def run(args: Sequence[str], cwd: Path, env: dict[str, str] | None = None) -> Result:
    """Invoke the real click CLI in-process from `cwd`; stdout and stderr stay separate."""
    with chdir(cwd):
        return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def load(project: Path, *args: str) -> Result:
    return run(["load", *args], project)


def ok(result: Result) -> str:
    assert result.exit_code == 0, (result.exit_code, result.stdout, result.stderr)
    return result.stdout


def body_ids(text: str) -> list[str]:
    return re.findall(r"^### (\S+) \[", text, flags=re.M)


def card_ids(text: str) -> list[str]:
    return re.findall(r"^- (\S+) \[", text, flags=re.M)


def fetch_ids(text: str) -> list[str]:
    match = re.search(r"^fetch: engram load --id (\S+)$", text, flags=re.M)
    return match.group(1).split(",") if match else []


def printed_ids(text: str) -> list[str]:
    return re.findall(r"^(?:### |- )(\S+) \[", text, flags=re.M)


def dry_rows(text: str) -> dict[str, dict[str, str]]:
    """The dry-run table as {id: {column: cell}}; columns are found from the header row."""
    lines = text.splitlines()
    start = next(n for n, line in enumerate(lines) if re.match(r"#\s+id\s", line))
    header = lines[start]
    spans = [(m.group(0), m.start()) for m in re.finditer(r"\S+", header)]
    rows: dict[str, dict[str, str]] = {}
    for line in lines[start + 1:]:
        if not line.startswith((" ", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9")):
            break
        cells: dict[str, str] = {}
        for i, (name, begin) in enumerate(spans):
            end = spans[i + 1][1] if i + 1 < len(spans) else None
            cells[name] = line[begin:end].strip()
        rows[cells["id"]] = cells
    return rows


def dry(project: Path, *args: str) -> tuple[str, dict[str, dict[str, str]]]:
    text = ok(load(project, "--dry-run", *args))
    return text, dry_rows(text)


def as_json(project: Path, *args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ok(load(project, "--json", *args)))
    return data


def candidate(doc: dict[str, Any], mid: str) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in doc["candidates"] if c["id"] == mid)
    return found


def tangled_tree(tmp_path: Path) -> Path:
    """Many folders, READMEs, dot-folders and every kind of symlink."""
    root = tmp_path / "root"
    for area in ("api", "web", "ops", "data", "docs"):
        for n in range(5):
            put(root, f"{area}/{n:02d}/m{n}.md", mem(f"{area}-{n}"))
            put(root, f"{area}/{n:02d}/deeper/d{n}.md", mem(f"{area}-deep-{n}"))
        put(root, f"{area}/README.md", "# not a memory\n")
    put(root, ".hidden/x.md", mem("hidden"))
    put(root, "top.md", mem("top"))
    outside = tmp_path / "outside"
    put(outside, "o.md", mem("outside"))
    (root / "api" / "00" / "out-file.md").symlink_to(outside / "o.md")
    (root / "web" / "out-dir").symlink_to(outside)
    (root / "ops" / "01" / "loop").symlink_to(root / "ops")
    # Two links to one folder: only the first in path order is followed.
    (root / "data" / "a-link").symlink_to(root / "docs" / "02")
    (root / "web" / "b-link").symlink_to(root / "docs" / "02")
    (root / "docs" / "04" / "alias.md").symlink_to(root / "top.md")
    (root / "docs" / "04" / "dangling.md").symlink_to(root / "missing.md")
    return root
