"""Speed guards for the walk (docs/performance.md, "Where the time goes": the walk).

From `SPLIT_MIN_FILES` files on, a forked child stats half of the files and hands its list back
through a pipe. These tests hold that split walk equal to one process's walk (tangled, flat and
deep trees) and check that any trouble with the child falls back to the parent. What the walk
lists is specified in tests/test_discovery.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import mem, put, tangled_tree

from engram.discover import walk


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per os.fork call (the real fork still runs)."""
    import os

    calls: list[int] = []
    real_fork = os.fork

    def counted_fork() -> int:
        calls.append(1)
        return real_fork()

    monkeypatch.setattr(os, "fork", counted_fork)
    return calls


def test_split_walk_equals_one_process_walk(tmp_path: Path, forks: list[int]) -> None:
    root = tangled_tree(tmp_path)
    single = walk(root, split=False)
    assert not forks
    assert walk(root, split=True) == single
    assert forks == [1]  # the split walk did run in two processes


def test_split_walk_survives_a_child_that_fails(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from engram import discover

    root = tangled_tree(tmp_path)
    expected = walk(root, split=False)
    parent = os.getpid()
    real = discover._stat

    def broken_in_child(*args: object, **kwargs: object) -> object:
        if os.getpid() != parent:
            raise OSError("child trouble")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(discover, "_stat", broken_in_child)
    assert walk(root, split=True) == expected

    def no_fork() -> int:
        raise OSError("no fork here")

    monkeypatch.setattr(discover, "_stat", real)
    monkeypatch.setattr(os, "fork", no_fork)
    assert walk(root, split=True) == expected


def test_a_flat_folder_is_split_like_a_deep_one(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                forks: list[int]) -> None:
    """The two-process walk splits files, not folders: one flat folder of many files gets
    a child too, and the listing is the same as one process's."""
    from engram import discover

    root = tmp_path / "root"
    for n in range(40):
        put(root, f"rules/r{n:02d}.md", mem(f"r{n:02d}"))
    monkeypatch.setattr(discover, "SPLIT_MIN_FILES", 30)
    single = walk(root, split=False)
    assert walk(root) == single and forks == [1]
    assert sorted(rel for rel, _, _ in single[0]) == [f"rules/r{n:02d}.md" for n in range(40)]


@pytest.mark.parametrize("child", ["works", "fails", "cannot fork"])
def test_routing_while_the_walk_runs_sees_every_change(tmp_path: Path, child: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # A load routes on the indexes while a child checks that no file changed since they were
    # read; whatever the child does, a file added, edited or removed since the last load must
    # shape the pack exactly as a load on freshly refreshed indexes does.
    import os

    from engram import discover
    from engram.pipeline import build_pack
    from engram.scopes import Request

    root = tmp_path / ".engram"
    put(root, "a.md", mem("deploy-old", tags=["deploy"], body="Deploy with the old script."))
    put(root, "b.md", mem("deploy-gone", tags=["deploy"], body="Deploy steps to remove."))
    request = Request(query="deploy", cwd=str(tmp_path), record_fetch=False)
    assert {i.memory.id for i in build_pack(request).items} == {"deploy-old", "deploy-gone"}
    put(root, "c.md", mem("deploy-new", tags=["deploy"], body="Deploy with the new pipeline."))
    (root / "b.md").unlink()
    if child == "fails":
        monkeypatch.setattr(discover, "walk", lambda *_a, **_k: os._exit(3))
    elif child == "cannot fork":
        monkeypatch.setattr(discover, "_can_fork", lambda: False)
    assert {i.memory.id for i in build_pack(request).items} == {"deploy-old", "deploy-new"}


def test_stat_relative_to_the_folder_equals_stat_by_path(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from engram import discover

    root = tangled_tree(tmp_path)
    at_folder = walk(root, split=False)
    monkeypatch.setattr(discover, "_AT_FOLDER", False)
    assert walk(root, split=False) == at_folder


def test_a_folder_removed_between_listing_and_stat_drops_only_its_files(tmp_path: Path) -> None:
    import shutil

    from engram import discover

    put(tmp_path, "a/one.md", mem("one"))
    put(tmp_path, "b/two.md", mem("two"))
    put(tmp_path, "b/three.md", mem("three"))
    entries = discover._list([(str(tmp_path), "")], [])
    shutil.rmtree(tmp_path / "b")
    stats = discover._stat(entries)
    assert [s[0] for s in stats if s is not None] == ["a/one.md"]
    assert stats.count(None) == 2


def test_an_empty_scope_is_current_after_one_refresh_under_a_new_schema(tmp_path: Path) -> None:
    # An index built under an older schema has a refresh due whatever the walk finds: until one
    # records the new one, every load refreshes every scope before routing instead of walking
    # beside it. An empty scope (a global folder with no memories yet) must record it too.
    from engram.index import ScopeIndex
    from engram.model import GLOBAL

    root = tmp_path / "home"
    root.mkdir()
    index = ScopeIndex.open(root, GLOBAL)
    index.refresh()
    assert index.expected_listing() is not None
    index.conn.execute("UPDATE meta SET value='old' WHERE key='version'")
    index.conn.commit()
    index.close()
    index = ScopeIndex.open(root, GLOBAL)
    assert index.expected_listing() is None  # a refresh is due
    index.refresh()
    assert index.expected_listing() is not None
    index.close()


def test_new_safety_rules_leave_the_index_current(workspace: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # Verdicts are reached at print time and carry the rules' version: an upgraded engram reads
    # none of the old ones and judges each memory again when it next prints, so nothing needs
    # re-indexing (at 10k real rule files that would cost a prompt several seconds).
    from engram.index import ScopeIndex, _scope
    from engram.model import WORKSPACE

    root = workspace / ".engram"
    put(root, "one.md", mem("one"))
    index = ScopeIndex.open(root, WORKSPACE)
    index.refresh()
    index.close()
    monkeypatch.setattr(_scope, "SCANNER_VERSION", "newer-rules")
    index = ScopeIndex.open(root, WORKSPACE)
    try:
        assert index.expected_listing() is not None
        assert not index.refresh()
    finally:
        index.close()
