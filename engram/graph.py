"""The dependency graph as a user sees it: layers, missing prerequisites, cycles, shadowed ids.

Layers come from `engram.layers`, the same algorithm that orders packs.
"""

from __future__ import annotations

import json
from typing import NamedTuple

from engram import layers as layering
from engram.model import Problem
from engram.pipeline import build_pack
from engram.scopes import Request, Scopes, resolve


class GraphReport(NamedTuple):
    memories: int
    layers: tuple[tuple[str, ...], ...]
    missing: tuple[tuple[str, str], ...]  # (dependent, missing prerequisite)
    cycles: tuple[tuple[str, ...], ...]
    shadowed: tuple[str, ...]
    duplicates: tuple[tuple[str, ...], ...]
    invalid: tuple[Problem, ...]
    topic: str | None = None
    routed: tuple[str, ...] = ()
    prerequisites: tuple[str, ...] = ()
    dependents: tuple[str, ...] = ()
    edges: tuple[tuple[str, str], ...] = ()


def analyze(request: Request, topic: str | None = None, rebuild: bool = False) -> GraphReport:
    ctx = resolve(request)
    scopes = Scopes(ctx, force=rebuild)
    try:
        # Heads, not records: a graph of 10,000 memories would otherwise decode every body.
        heads = scopes.all_heads()
        ids = {h.id for h, _ in heads}
        deps: dict[str, list[str]] = {mid: [] for mid in ids}
        missing: list[tuple[str, str]] = []
        levels: dict[str, int] = {}
        for head, _ in heads:
            levels[head.id] = head.level or 0
            for dep in head.depends_on:
                if dep in ids:
                    deps[head.id].append(dep)
                else:
                    missing.append((head.id, dep))
        layer_of = layering.layers(deps, levels)
        layers: dict[int, list[str]] = {}
        for mid, layer in layer_of.items():
            layers.setdefault(layer, []).append(mid)
        shadowed = _shadowed(scopes)
        groups: dict[str, list[str]] = {}
        for (head, _), group in zip(heads, scopes.dup_groups(heads), strict=True):
            if group is not None:
                groups.setdefault(group, []).append(head.id)
        report = GraphReport(
            memories=len(ids),
            layers=tuple(tuple(sorted(layers[k])) for k in sorted(layers)),
            missing=tuple(sorted(missing)), cycles=tuple(layering.cycles(deps)),
            shadowed=shadowed,
            duplicates=tuple(sorted(tuple(sorted(g)) for g in groups.values() if len(g) > 1)),
            invalid=tuple(p for p in scopes.problems() if p.severity == "error"),
            edges=tuple(sorted({(dep, mid) for mid, prereqs in deps.items()
                                for dep in prereqs})))
    finally:
        scopes.close()
    if topic is None:
        return report
    pack = build_pack(request._replace(query=topic, record_fetch=False), ctx)
    routed = tuple(i.memory.id for i in pack.items if i.disclosure != "related")
    dependents_of: dict[str, list[str]] = {}
    for dep, mid in report.edges:
        dependents_of.setdefault(dep, []).append(mid)
    prereqs = layering.reachable(routed, deps)
    dependents = layering.reachable(routed, dependents_of)
    return report._replace(topic=topic, routed=routed, prerequisites=tuple(sorted(prereqs)),
                           dependents=tuple(sorted(dependents - set(routed))))


def _shadowed(scopes: Scopes) -> tuple[str, ...]:
    if len(scopes.indexes) < 2:
        return ()
    return tuple(sorted(scopes.indexes[0].all_ids() & scopes.indexes[1].all_ids()))


def format_text(report: GraphReport) -> str:
    lines = [f"engram graph: {report.memories} memories, {len(report.layers)} layers"]
    for n, layer in enumerate(report.layers):
        lines.append(f"layer {n}: {', '.join(layer)}")
    if report.edges:
        lines.append("edges (prerequisite -> dependent):")
        lines += [f"  {dep} -> {mid}" for dep, mid in report.edges]
    if report.missing:
        lines.append("missing prerequisites:")
        lines += [f"  {dep} (required by {mid})" for mid, dep in report.missing]
    if report.cycles:
        lines.append("cycles:")
        lines += ["  " + " <-> ".join(c) for c in report.cycles]
    if report.shadowed:
        lines.append("shadowed (global hidden by workspace): " + ", ".join(report.shadowed))
    if report.duplicates:
        lines.append("near-duplicate groups (a pack holds one):")
        lines += ["  " + ", ".join(g) for g in report.duplicates]
    if report.invalid:
        lines.append(f"invalid files: {len({p.path for p in report.invalid})}")
        lines += [f"  {p}" for p in report.invalid]
    if report.topic is not None:
        lines.append(f"topic: {report.topic}")
        lines.append("  routed: " + (", ".join(report.routed) or "(none)"))
        lines.append("  prerequisites: " + (", ".join(report.prerequisites) or "(none)"))
        lines.append("  dependents: " + (", ".join(report.dependents) or "(none)"))
    return "\n".join(lines) + "\n"


def format_json(report: GraphReport) -> str:
    doc = {
        "version": 1, "memories": report.memories,
        "layers": [list(layer) for layer in report.layers],
        "edges": [list(e) for e in report.edges],
        "missing": [{"id": mid, "requires": dep} for mid, dep in report.missing],
        "cycles": [list(c) for c in report.cycles], "shadowed": list(report.shadowed),
        "duplicates": [list(g) for g in report.duplicates],
        "invalid": [{"path": p.path, "error": f"{p.line}: {p.field}: {p.message}"}
                    for p in report.invalid],
    }
    if report.topic is not None:
        doc |= {"topic": report.topic, "routed": list(report.routed),
                "prerequisites": list(report.prerequisites),
                "dependents": list(report.dependents)}
    return json.dumps(doc, indent=2) + "\n"
