"""One layer algorithm: `engram graph` reports the layers that order a pack, cycles included."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import mem, put, run

from engram.layers import components, cycles, layers


def test_a_cycle_shares_one_layer_and_its_dependents_come_after() -> None:
    deps = {"a": ["b"], "b": ["a"], "c": ["a"]}
    assert layers(deps, {}) == {"a": 0, "b": 0, "c": 1}
    assert cycles(deps) == [("a", "b")]


def test_levels_chains_missing_prerequisites_and_self_loops() -> None:
    deps = {"a": [], "b": ["a"], "c": ["b", "missing"], "lvl": [], "me": ["me"]}
    result = layers(deps, {"lvl": 2})
    assert result == {"a": 0, "b": 1, "c": 2, "lvl": 2, "me": 0}
    assert cycles(deps) == [("me",)]
    assert layers(dict(reversed(list(deps.items()))), {"lvl": 2}) == result


def test_a_chain_thousands_deep_is_layered_without_recursion() -> None:
    deps = {f"m{i:05d}": [f"m{i - 1:05d}"] if i else [] for i in range(5000)}
    result = layers(deps, {})
    assert [result[f"m{i:05d}"] for i in range(5000)] == list(range(5000))
    assert [c[0] for c in components(deps)] == sorted(deps)


def test_graph_and_pack_order_agree_on_a_cycle(workspace: Path) -> None:
    root = workspace / ".engram"
    put(root, "a.md", mem("a", body="Alpha deploy rule.", depends_on=["b"]))
    put(root, "b.md", mem("b", body="Beta deploy rule.", depends_on=["a"]))
    put(root, "c.md", mem("c", body="Gamma deploy rule.", depends_on=["a"],
                          triggers=["gamma deploy"]))
    graph = json.loads(run(["graph", "--json"], workspace).stdout)
    assert graph["layers"] == [["a", "b"], ["c"]]
    assert graph["cycles"] == [["a", "b"]]
    text = run(["load", "--full", "gamma deploy"], workspace).stdout
    order = [line.split()[1] for line in text.splitlines() if line.startswith("### ")]
    assert set(order) == {"a", "b", "c"}
    assert order.index("c") > max(order.index("a"), order.index("b"))
