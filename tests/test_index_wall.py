"""The index is a package with a wall: no module outside engram/index may import its private
modules or any name its `__init__` does not export (a mask, a bit layout, a schema detail)."""

from __future__ import annotations

import ast
from pathlib import Path

import engram.index

ENGRAM = Path(__file__).resolve().parents[1] / "engram"
INDEX = ENGRAM / "index"


def module_name(path: Path) -> str:
    parts = path.relative_to(ENGRAM.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def resolved(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    """The absolute module an `from X import ...` names (relative imports too)."""
    if not node.level:
        return node.module or ""
    base = importer.split(".")
    base = base if is_package else base[:-1]
    base = base[:len(base) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def breaches(source: str, importer: str, is_package: bool = False, shown: str = "") -> list[str]:
    """Every import in the module's source that reaches past the index's exports."""
    exported = set(engram.index.__all__)
    out: list[str] = []
    for node in ast.walk(ast.parse(source)):
        where = f"{shown or importer}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            out += [f"{where}: import {a.name}" for a in node.names
                    if a.name.startswith("engram.index.")]
        elif isinstance(node, ast.ImportFrom):
            module = resolved(node, importer, is_package)
            if module.startswith("engram.index."):
                out.append(f"{where}: from {module} import ...")
            elif module == "engram.index":
                out += [f"{where}: from engram.index import {a.name}" for a in node.names
                        if a.name not in exported]
            elif module == "engram":
                out += [f"{where}: from engram import {a.name} (use its exports by name)"
                        for a in node.names if a.name == "index"]
    return out


def test_no_module_outside_the_index_reaches_inside_it() -> None:
    outside = [p for p in sorted(ENGRAM.rglob("*.py")) if INDEX not in p.parents]
    assert len(outside) > 20  # the walk really saw the package
    assert [b for path in outside for b in breaches(
        path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py",
        str(path.relative_to(ENGRAM.parent)))] == []


def test_the_check_sees_a_breach() -> None:
    # The same walk on a module that does reach in: each form of the breach is caught.
    found = breaches("from engram.index import SCORING_MASK, ScopeIndex\n"
                     "from engram.index._encoding import unpack_counts\n"
                     "import engram.index._schema\n"
                     "from .index import _blocks\n"
                     "from engram import index\n", "engram.probe")
    assert [line.split(": ", 1)[1] for line in found] == [
        "from engram.index import SCORING_MASK",
        "from engram.index._encoding import ...",
        "import engram.index._schema",
        "from engram.index import _blocks",
        "from engram import index (use its exports by name)",
    ]


def test_every_export_exists() -> None:
    assert all(hasattr(engram.index, name) for name in engram.index.__all__)
    assert not [name for name in engram.index.__all__ if name.startswith("_")]
