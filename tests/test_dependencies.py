"""Dependencies are declared as used: every third-party import of the package is a declared
runtime dependency (or an optional extra's, imported only where that extra's feature runs), and
the suite passes on the lowest versions pyproject.toml admits."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tomllib
import venv
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
# Modules that only an optional extra brings, and the extra that brings each.
OPTIONAL = {"rank_bm25": "bench", "mcp": "mcp"}


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def _third_party_imports() -> dict[str, set[str]]:
    """Top-level module -> the package files importing it, for every non-stdlib import."""
    found: dict[str, set[str]] = {}
    for path in sorted((REPO / "engram").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                # `_sha2` and kin are CPython's own extension modules, not distributions.
                if top != "engram" and top not in sys.stdlib_module_names \
                        and not top.startswith("_"):
                    found.setdefault(top, set()).add(path.relative_to(REPO).as_posix())
    return found


def test_every_imported_library_is_declared() -> None:
    project = PYPROJECT["project"]
    runtime = {_name(r) for r in project["dependencies"]}
    extras = {extra: {_name(r) for r in reqs}
              for extra, reqs in project["optional-dependencies"].items()}
    distributions = packages_distributions()
    for module, files in _third_party_imports().items():
        dists = {d.lower().replace("_", "-") for d in distributions.get(module, [module])}
        if module in OPTIONAL:
            assert dists & extras[OPTIONAL[module]], (module, files)
            assert not dists & runtime, f"{module} is optional but declared as a dependency"
        else:
            assert dists & runtime, f"{sorted(files)} import {module}, which is not declared"


def test_every_declared_dependency_is_imported() -> None:
    imported = {d.lower().replace("_", "-")
                for module in _third_party_imports()
                for d in packages_distributions().get(module, [module])}
    unused = {_name(r) for r in PYPROJECT["project"]["dependencies"]} - imported
    assert not unused, f"declared but never imported: {sorted(unused)}"


def test_the_baseline_without_its_extra_says_what_to_install(tmp_path: Path) -> None:
    memories = tmp_path / "memories"
    memories.mkdir()
    (memories / "a.md").write_text("---\nid: a\ntype: rule\n---\nDeploy with care.\n")
    (tmp_path / "cases.json").write_text(
        '{"version": 2, "cases": [{"id": "c1", "category": "trigger-phrase",'
        ' "query": "deploy", "expect": ["a"]}]}')
    # rank_bm25 made unimportable, as in a plain `pip install engram`.
    code = ("import sys; sys.modules['rank_bm25'] = None; from engram.entry import main; "
            "sys.argv = ['engram', 'bench', '--baseline', sys.argv[1]]; main()")
    result = subprocess.run([sys.executable, "-c", code, str(tmp_path / "cases.json")],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stderr
    assert "pip install 'engram[bench]'" in result.stderr
    assert "Traceback" not in result.stderr


def _floors() -> list[str]:
    pins = []
    for requirement in PYPROJECT["project"]["dependencies"]:
        floor = re.search(r">=\s*([\w.]+)", requirement)
        assert floor, f"{requirement}: every dependency needs a tested floor (>=)"
        pins.append(f"{_name(requirement)}=={floor.group(1)}")
    return pins


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("CI") != "true" and not os.environ.get("ENGRAM_TEST_MIN_DEPS"),
                    reason="builds a venv from the package index (minutes): CI runs it; "
                           "ENGRAM_TEST_MIN_DEPS=1 runs it here")
def test_the_suite_passes_on_the_declared_minimum_versions(tmp_path: Path) -> None:
    env_dir = tmp_path / "min-venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / ("Scripts" if os.name == "nt" else "bin") / "python"
    test_tools = [r for r in PYPROJECT["project"]["optional-dependencies"]["test"]
                  if _name(r) not in {"ruff", "mypy", "types-pyyaml"}]

    def pip(*args: str) -> None:
        done = subprocess.run([str(python), "-m", "pip", "install", "-q",
                               "--disable-pip-version-check", *args],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stdout + done.stderr

    pip(*_floors(), *test_tools)
    pip("--no-deps", "-e", str(REPO))
    listed = subprocess.run([str(python), "-m", "pip", "freeze"], capture_output=True,
                            text=True, timeout=120).stdout.lower()
    for pin in _floors():
        assert pin.replace("_", "-") in listed.replace("_", "-"), pin
    run = subprocess.run(
        [str(python), "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
         "-m", "not slow and not e2e", "--ignore", str(REPO / "tests" / "test_tooling.py"),
         "--ignore", str(REPO / "tests" / "e2e")],
        cwd=REPO, capture_output=True, text=True, timeout=1200,
        env={**os.environ, "PATH": f"{python.parent}{os.pathsep}{os.environ['PATH']}"})
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
