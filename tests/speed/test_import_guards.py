"""Speed guards for imports (docs/performance.md, "Where the time goes": imports).

The warm read path (`load`, the hooks, an MCP tool call) imports no heavy library: checked with
`python -X importtime` on a real process, so a stray top-level import anywhere on the path fails
here (not a timing test). Also: the built-in digests that spare OpenSSL's start-up equal hashlib's,
and the safety rules compile lazily.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# numpy arrives with rank_bm25 (the routing baseline only); yaml and pathspec are needed only
# when a file changed or an ignore file exists. The MCP SDK (with pydantic and anyio) is the
# `mcp` extra's, for `engram mcp` alone: seconds of import that no load or hook may pay.
FORBIDDEN = ("numpy", "yaml", "pathspec", "rank_bm25", "mcp", "mcp_types", "pydantic", "anyio")
# Light, but each is a millisecond or two on every prompt that nothing there needs: hashlib
# loads OpenSSL (engram.hashing uses CPython's built-in digests), difflib only names a likely
# key in an error, tempfile brings shutil and random for one mkstemp (engram.fsutil opens its own).
# typing is not on the list: every record is a typing.NamedTuple (one idiom, no stand-in), and
# importing typing is about 2 ms of a 60-70 ms warm load (bench/perf.py measures the whole).
AVOIDED = ("hashlib", "difflib", "tempfile")


def avoidable(env: dict[str, str]) -> set[str]:
    """AVOIDED minus what this interpreter imports before engram runs at all (a `.pth` file in
    site-packages may bring tempfile or hashlib)."""
    bare = subprocess.run([sys.executable, "-X", "importtime", "-c", "pass"], env=env,
                          capture_output=True, text=True, timeout=60, check=True)
    return set(AVOIDED) - imported_modules(bare.stderr)

MEMORIES = {
    "rules/release.md": ("---\nid: release-checklist\ntype: rule\ntags: [release]\n"
                         "directive: Tag the release only after the changelog is merged.\n"
                         "depends_on: [changelog]\napplies_to: ['src/**/*.py']\n---\n"
                         "Run the release checklist before tagging.\n"),
    "knowledge/changelog.md": ("---\nid: changelog\ntype: knowledge\ntags: [release, docs]\n"
                               "summary: The changelog lists every user-visible change.\n---\n"
                               "Keep entries short.\n"),
    "skills/deploy.md": ("---\nid: deploy-steps\ntype: skill\ntriggers: ['deploy the release']\n"
                         "summary: How to deploy.\n---\n1. Build.\n2. Deploy the release.\n"),
}


def imported_modules(stderr: str) -> set[str]:
    """Top-level package names from `-X importtime` lines (`import time: self | cum | name`)."""
    names: set[str] = set()
    for line in stderr.splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            name = line.rsplit("|", 1)[1].strip()
            if name and name != "imported package":  # the header line
                names.add(name.split(".")[0])
    return names


@pytest.fixture
def warm(tmp_path: Path, isolated_home: Path) -> tuple[Path, dict[str, str]]:
    project = tmp_path / "project"
    for rel, text in MEMORIES.items():
        path = project / ".engram" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (isolated_home / "personal.md").write_text(
        "---\nid: personal-release\ntype: rule\ntags: [release]\n---\nMy release habit.\n",
        encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO), "ENGRAM_HOME": str(isolated_home)}
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    # Build both indexes first: the guard is about the warm path, not about indexing.
    engram(["load", "release"], project, env)
    return project, env


def prompt_payload(project: Path, session: str) -> str:
    """Claude Code's UserPromptSubmit for "cut the release today"."""
    return json.dumps({"session_id": session, "transcript_path": str(project / "t.jsonl"),
                       "cwd": str(project), "hook_event_name": "UserPromptSubmit",
                       "prompt": "cut the release today", "source": "user",
                       "permission_mode": "default"})


def engram(args: list[str], cwd: Path, env: dict[str, str], stdin: str = "",
           importtime: bool = False) -> subprocess.CompletedProcess[str]:
    flags = ["-X", "importtime"] if importtime else []
    return subprocess.run([sys.executable, *flags, "-m", "engram", *args], input=stdin, cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=120, check=True)


@pytest.mark.parametrize("args", [
    ["load", "cut the release"],
    ["load", "--path", "src/app/main.py", "release"],
    ["load", "--dry-run", "deploy the release"],
], ids=["query", "path", "dry-run"])
def test_warm_load_imports_no_heavy_library(warm: tuple[Path, dict[str, str]],
                                            args: list[str]) -> None:
    project, env = warm
    proc = engram(args, project, env, importtime=True)
    assert "release-checklist" in proc.stdout  # the path really routed something
    assert imported_modules(proc.stderr) & set(FORBIDDEN) == set()
    if args[1] != "--dry-run":
        assert imported_modules(proc.stderr) & avoidable(env) == set()


def test_warm_hook_imports_no_heavy_library(warm: tuple[Path, dict[str, str]]) -> None:
    project, env = warm
    proc = engram(["hook", "claude"], project, env, stdin=prompt_payload(project, "s-imports"),
                  importtime=True)
    assert "release-checklist" in proc.stdout
    assert imported_modules(proc.stderr) & {*FORBIDDEN, *avoidable(env), "click"} == set()


def test_warm_mcp_tool_call_imports_no_heavy_library(warm: tuple[Path, dict[str, str]]) -> None:
    # What a tools/call runs inside `engram mcp`, without the SDK around it: the tools module
    # itself must not need the SDK, nor anything the warm load path avoids.
    project, env = warm
    script = ("from engram.mcp.tools import Service\n"
              "service = Service()\n"
              "for _ in range(2):\n"
              "    print(service.call('load', {'task': 'cut the release'}).text)\n")
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", script], cwd=project,
                          env=env, capture_output=True, text=True, timeout=120, check=True)
    assert "release-checklist" in proc.stdout and "already loaded" in proc.stdout
    assert imported_modules(proc.stderr) & set(FORBIDDEN) == set()


def full_names(stderr: str) -> set[str]:
    """Every module name in `-X importtime` lines, dotted names whole."""
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines()
            if line.startswith("import time:") and line.count("|") == 2}


def test_warm_paths_never_import_the_safety_rules(warm: tuple[Path, dict[str, str]]) -> None:
    # A memory's verdict is stored at its first print (the fixture's load); a warm load or hook
    # only proves that the bytes it prints are the bytes judged (docs/safety.md, "Cost"), so the
    # rules are never imported.
    project, env = warm
    runs = [engram(["load", "cut the release"], project, env, importtime=True),
            engram(["hook", "claude"], project, env, stdin=prompt_payload(project, "s-safety"),
                   importtime=True)]
    for proc in runs:
        assert "release-checklist" in proc.stdout
        assert {m for m in full_names(proc.stderr) if m.startswith("engram.safety")} == set()


def test_indexing_an_edit_it_does_not_print_imports_no_safety_rules(
        warm: tuple[Path, dict[str, str]]) -> None:
    # The load after an edit indexes the edited file; judging it waits for its first print, so
    # a prompt about something else pays neither the scan nor the rules' import.
    project, env = warm
    (project / ".engram" / "rules" / "style.md").write_text(
        "---\nid: code-style\ntype: rule\ntags: [style]\n---\nFormat Python with black.\n",
        encoding="utf-8")
    proc = engram(["load", "cut the release"], project, env, importtime=True)
    assert "release-checklist" in proc.stdout and "code-style" not in proc.stdout
    modules = full_names(proc.stderr)
    assert "engram.parse" in modules  # the new file was indexed by this very load
    assert {m for m in modules if m.startswith("engram.safety")} == set()
    proc = engram(["load", "format python with black"], project, env, importtime=True)
    assert "code-style" in proc.stdout
    assert "engram.safety.verdicts" in full_names(proc.stderr)  # its first print judges it


def test_parser_of_importtime_lines() -> None:
    sample = ("import time: self [us] | cumulative | imported package\n"
              "import time:       120 |        120 |   yaml.error\n"
              "import time:        80 |       9000 | engram.pipeline\n")
    assert imported_modules(sample) == {"yaml", "engram"}


def test_builtin_digests_equal_hashlib() -> None:
    # engram.hashing avoids hashlib's OpenSSL start-up; stored hashes must not change for it.
    import hashlib

    from engram import hashing

    data = "memory body é\n".encode() * 1000
    assert hashing.sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    assert hashing.blake2b(data, digest_size=16).hexdigest() == \
        hashlib.blake2b(data, digest_size=16).hexdigest()


def test_hook_modules_import_no_heavy_libraries() -> None:
    code = ("import sys, engram.hook, engram.hosts, engram.state, engram.hooklog; "
            "print([m for m in ('click', 'yaml', 'pathspec', 'numpy') "
            "if m in sys.modules])")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, check=True)
    assert proc.stdout.strip() == "[]"


def test_the_scanner_compiles_its_patterns_only_when_used() -> None:
    """Importing the scanner compiles none of its patterns (about 100 ms for all of them, paid
    by every hook that re-indexes an edited memory), and scanning a plain rule file compiles a
    minority: most rules stay behind their word gates."""
    code = (
        "import sys, engram.parse; from engram.safety import scan; "
        "from engram.safety.lazy_regex import LazyRegex; "
        "rules = [v for name, m in list(sys.modules.items()) if name.startswith('engram.safety')"
        " for v in vars(m).values() if isinstance(v, LazyRegex)]; "
        "compiled = lambda: sum('search' in vars(r) for r in rules); "
        "at_import = compiled(); "
        "scan(enumerate(['# Commits', '', 'Write commit messages in the imperative mood.',"
        " '- Keep the subject under 72 characters.', '- Reference the ticket: `PROJ-123`.'], 1)); "
        "print(len(rules), at_import, compiled())"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, check=True)
    total, at_import, after_scan = map(int, proc.stdout.split())
    assert total > 100
    assert at_import == 0
    assert after_scan < total / 2
