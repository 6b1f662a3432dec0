"""The server's change watch: an edit, a new file or folder, a removal or the ignore file says
"changed"; engram's own cache and state writes and a quiet workspace do not."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from cli_helpers import mem, put

from engram.mcp.watch import IndexPool, Watcher
from engram.model import WORKSPACE

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="inotify is Linux's; elsewhere every request refreshes")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / ".engram"
    put(root, "rules/a.md", mem("a", body="A."))
    put(root, "skills/deep/b.md", mem("b", "skill", body="B."))
    return root


def armed(root: Path) -> Watcher:
    watcher = Watcher(root)
    watcher.arm()
    assert watcher.watching
    assert watcher.changed() is False
    return watcher


def test_edits_additions_and_removals_are_seen_once(root: Path) -> None:
    watcher = armed(root)
    (root / "skills" / "deep" / "b.md").write_text(mem("b", "skill", body="B, edited."))
    assert watcher.changed() is True
    assert watcher.changed() is False  # drained: nothing new since
    put(root, "knowledge/new/c.md", mem("c", "knowledge", body="C."))
    assert watcher.changed() is True
    watcher.arm()  # what the pool does after a change: the new folder is watched too
    (root / "knowledge" / "new" / "c.md").write_text(mem("c", "knowledge", body="C2."))
    assert watcher.changed() is True
    (root / "rules" / "a.md").unlink()
    assert watcher.changed() is True
    watcher.close()


def test_engrams_own_writes_and_dot_folders_are_not_changes(root: Path) -> None:
    (root / ".cache").mkdir()
    (root / ".state").mkdir()
    watcher = armed(root)
    (root / ".cache" / "index.sqlite").write_bytes(b"x")
    (root / ".state" / "session-claude-1.json").write_text("{}")
    (root / ".notes.swp").write_text("editor swap file")
    assert watcher.changed() is False
    (root / ".engramignore").write_text("drafts/\n")
    assert watcher.changed() is True
    watcher.close()


def test_a_symlink_below_the_root_means_refresh_every_time(root: Path, tmp_path: Path) -> None:
    (tmp_path / "shared").mkdir()
    (root / "shared").symlink_to(tmp_path / "shared")
    watcher = Watcher(root)
    watcher.arm()
    assert not watcher.watching
    assert watcher.changed() is True


def test_the_pool_sees_an_edit_made_between_two_requests(root: Path) -> None:
    pool = IndexPool()
    try:
        first = pool.fresh(root, WORKSPACE)
        before = first.records(first.keys_by_id(["a"]).values())
        (root / "rules" / "a.md").write_text(mem("a", tags=["edited"], body="A, edited."))
        second = pool.fresh(root, WORKSPACE)
        assert second is first  # kept open, not reopened
        after = second.records(second.keys_by_id(["a"]).values())
        assert [r.memory.tags for r in before.values()] == [()]
        assert [r.memory.tags for r in after.values()] == [("edited",)]
    finally:
        pool.close()
