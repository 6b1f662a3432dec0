"""Dependency layers: the one algorithm behind pack order and `engram graph`.

A cycle is one strongly connected component whose members share a layer; a memory's layer is
the highest of its own `level` and one more than the layer of every prerequisite outside its
component. Pure Python on plain dicts, computed when the index changes, never on the warm path.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

Deps = Mapping[str, Iterable[str]]


def components(deps: Deps) -> list[list[str]]:
    """Strongly connected components (Tarjan, iterative), prerequisites before dependents.

    Only prerequisites present as keys of `deps` count. Visiting in sorted order makes the
    result independent of dictionary order; each component is sorted.
    """
    present = {node: sorted(p for p in set(prereqs) if p in deps) for node, prereqs in deps.items()}
    index_of: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(present):
        if start in index_of:
            continue
        work: list[tuple[str, int]] = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index_of[node] = low[node] = len(index_of)
                stack.append(node)
                on_stack.add(node)
            prereqs = present[node]
            if i < len(prereqs):
                work.append((node, i + 1))
                nxt = prereqs[i]
                if nxt not in index_of:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index_of[nxt])
                continue
            for p in prereqs:  # children finished after they were pushed: fold their low-links
                if p in on_stack:
                    low[node] = min(low[node], low[p])
            if low[node] == index_of[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                found.append(sorted(members))
    return found


def layers(deps: Deps, levels: Mapping[str, int],
           fixed: Mapping[str, int] | None = None) -> dict[str, int]:
    """The layer of every memory in `deps` (see the module docstring). `fixed` holds the known
    layers of prerequisites that are not keys of `deps`: a part of the graph closed under
    dependents is recomputed alone, the rest of it read from `fixed`."""
    layer: dict[str, int] = dict(fixed or {})
    for members in components(deps):
        inside = set(members)
        below = [layer[p] + 1 for m in members for p in deps[m] if p in layer and p not in inside]
        value = max([*(levels.get(m, 0) or 0 for m in members), *below])
        for m in members:
            layer[m] = value
    return {m: layer[m] for m in deps} if fixed else layer


def cycles(deps: Deps) -> list[tuple[str, ...]]:
    """Every cycle as its sorted members: components of two or more, or one that needs itself."""
    return sorted(tuple(c) for c in components(deps)
                  if len(c) > 1 or c[0] in set(deps[c[0]]))


def reachable(start: Iterable[str], edges: Mapping[str, Iterable[str]]) -> set[str]:
    """Every node reachable from `start` along `edges`, the start nodes themselves excluded
    unless a path leads back to them."""
    seen: set[str] = set()
    pending = [n for s in start for n in edges.get(s, ())]
    while pending:
        node = pending.pop()
        if node not in seen:
            seen.add(node)
            pending.extend(edges.get(node, ()))
    return seen
