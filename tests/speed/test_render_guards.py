"""Speed guard for fitting a pack to a budget (docs/performance.md, "Session start").

`render_pack` demotes bodies and drops cards one at a time, composing the pack after each; before
that loop it takes out at once what the item lines alone prove over the budget. These tests hold
the result equal to the plain one-at-a-time loop's, for bodies and cards of every size, chars
and tokens, the default head and a hook's long proof line.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import write_memory

from engram import render
from engram.hook import proof_line
from engram.hosts import get_host
from engram.model import Pack
from engram.pipeline import session_start
from engram.render import RenderedParts
from engram.scopes import Request


def session_pack(workspace: Path, count: int, seed: int) -> Pack:
    """A session start's pack of `count` always-loaded memories of very different sizes."""
    rng = random.Random(seed)
    for n in range(count):
        size = rng.choice((0, 1, 3, 20, 120))
        body = " ".join(f"w{rng.randint(0, 99)}" for _ in range(size))
        summary = f"summary: Notes on topic {n} " + "x" * rng.randint(0, 200) + "\n" \
            if n % 3 else ""
        write_memory(workspace / ".engram", f"m{n:03d}.md",
                     f"---\nid: mem-{n:03d}-{'long-id-' * (n % 4)}x\ntype: rule\nload: always\n"
                     f"{summary}---\n{body}\n")
    pack, _ = session_start(Request(cwd=str(workspace)))
    assert len(pack.items) == count
    return pack


def proof_head(parts: RenderedParts) -> str:
    return proof_line(get_host("claude"), parts, ())


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("budget", [("chars", 300), ("chars", 2500), ("chars", 9000),
                                    ("tokens", 120), ("tokens", 900), ("both", 1500)])
@pytest.mark.parametrize("with_head", [False, True])
def test_taking_out_at_once_matches_one_at_a_time(
        workspace: Path, seed: int, budget: tuple[str, int], with_head: bool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    pack = session_pack(workspace, 150, seed)
    kind, size = budget
    kwargs = {"budget_chars": size if kind in ("chars", "both") else None,
              "budget_tokens": size // 4 if kind in ("tokens", "both") else None}
    head = proof_head if with_head else None
    fast = render.render_pack(pack, head=head, **kwargs)  # type: ignore[arg-type]
    monkeypatch.setattr(render, "_take_out_while_over", lambda *args: None)
    slow = render.render_pack(pack, head=head, **kwargs)  # type: ignore[arg-type]
    assert fast == slow
    assert fast.demoted  # the budget really was exceeded


def test_take_out_does_the_work_it_can_prove(workspace: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # The one-at-a-time loop recomposes the pack once per memory it takes out.
    pack = session_pack(workspace, 150, 3)
    composed: list[int] = []
    real = render._compose

    def counted(*args: object) -> tuple[str, list[str]]:
        composed.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(render, "_compose", counted)
    render.render_pack(pack, budget_chars=2000)
    fast = len(composed)
    monkeypatch.setattr(render, "_take_out_while_over", lambda *args: None)
    render.render_pack(pack, budget_chars=2000)
    assert len(composed) - fast > 150  # demoted and dropped one by one
    assert fast < 80
