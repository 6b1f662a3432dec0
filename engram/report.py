"""Explaining a pack: the `--dry-run` table and the `--json` document.

Dry-run never prints memory content (safe to paste into a bug report); both are deterministic.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from engram.model import Candidate, Pack, PackItem
from engram.render import Rendered, body_block, card_line

SCOPE_LABEL = {"workspace": "ws", "global": "gl"}


def stderr_lines(pack: Pack) -> list[str]:
    """What a load reports on stderr: invalid files, withheld memories, fetch warnings."""
    lines = [str(p) for p in pack.invalid]
    lines += [f"engram: withheld {mid}: {f.kind} (line {f.line})" for mid, f in pack.withheld]
    lines += list(pack.warnings)
    return lines


def load_output(pack: Pack, rendered: Rendered, mode: str = "text") -> str:
    """What `engram load` prints on stdout: mode "text", "dry-run" or "json"."""
    if mode == "dry-run":
        return dry_run(pack, rendered)
    if mode == "json":
        return as_json(pack, rendered)
    return rendered.text


def search_text(hits: Sequence[Candidate]) -> str:
    lines = []
    for hit in hits:
        card = card_line(PackItem(hit.memory, "card", hit.score, stale=hit.stale))
        lines.append(f"{hit.score:7.2f} {card[2:]}")
    return "\n".join(lines) + ("\n" if lines else "")


def search_json(hits: Sequence[Candidate]) -> str:
    doc = {"version": 1, "results": [
        {"id": h.memory.id, "type": h.memory.type, "scope": h.memory.scope,
         "score": round(h.score, 4), "card": card_line(PackItem(h.memory, "card", h.score,
                                                                stale=h.stale))}
        for h in hits]}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _fmt(value: float) -> str:
    return f"{value:.2f}"


def _matched(candidate: Candidate) -> str:
    by_field: dict[str, list[str]] = {}
    for fld, term in candidate.matched:
        by_field.setdefault(fld, []).append(term)
    parts = [f"{fld}:{','.join(sorted(terms))}" for fld, terms in sorted(by_field.items())]
    if candidate.path_match:
        parts.insert(0, "path")
    return " ".join(parts) or "-"


def _multipliers(candidate: Candidate) -> str:
    return " ".join(f"{label}{factor:g}" for label, factor in candidate.multipliers) or "-"


def dry_run(pack: Pack, rendered: Rendered | None = None) -> str:
    """The explanation table; with `rendered`, what the token budget demoted or dropped."""
    members = [i for i in pack.items if i.disclosure != "related"]
    related_cards = [i for i in pack.items if i.disclosure == "related"]
    budget: dict[str, str] = {}
    if rendered is not None:
        budget = {mid: "card (budget)" for mid in rendered.demoted}
        budget |= {mid: "excluded: budget" for mid in rendered.dropped}
    # Keyed by (scope, id): a shadowed global copy shares its id with the workspace memory.
    by_id: dict[tuple[str, str], Candidate] = {}
    for c in pack.candidates:  # the nearest first: an outer layer's copy of an id comes later
        by_id.setdefault((c.memory.scope, c.memory.id), c)
    lines = [
        f"query: {pack.query}",
        "anchors: " + (", ".join(pack.anchors) if pack.anchors else "(none)")
        + ("   (procedural: skills x1.2)" if pack.procedural else ""),
        f"candidates: {len(pack.candidates)}  related: {pack.related_total}  "
        f"loaded: {sum(1 for i in members if budget.get(i.memory.id) != 'excluded: budget')}  "
        f"hidden by ignore: {pack.hidden_by_ignore}  "
        f"invalid files: {len({p.path for p in pack.invalid})}",
    ]
    if pack.narrowing_tags:
        lines.append("narrow with tags: " + ", ".join(pack.narrowing_tags))
    rows: list[list[str]] = [["#", "id", "scope", "score", "bm25", "multipliers", "matched",
                              "status"]]
    shown: set[tuple[str, str]] = set()
    for item in sorted(members, key=lambda i: i.rank):
        shown.add((item.memory.scope, item.memory.id))
        rows.append(_member_row(item, by_id.get((item.memory.scope, item.memory.id)), members))
        if item.memory.id in budget:
            rows[-1][-1] = budget[item.memory.id]
    for item in related_cards:
        shown.add((item.memory.scope, item.memory.id))
        cand = by_id.get((item.memory.scope, item.memory.id))
        status = budget.get(item.memory.id, "related (limit)")
        rows.append(_candidate_row(cand, status) if cand else
                    ["", item.memory.id, "", "", "", "", "", status])
    for cand in pack.candidates:
        if (cand.memory.scope, cand.memory.id) in shown and by_id.get(
                (cand.memory.scope, cand.memory.id)) is cand:
            continue
        status = f"excluded: {cand.excluded}" if cand.excluded else "related"
        rows.append(_candidate_row(cand, status))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True))
                     .rstrip())
    for mid, finding in pack.withheld:
        lines.append(f"withheld {mid}: {finding.kind} (line {finding.line}) {finding.detail}"
                     .rstrip())
    for item in pack.items:
        if item.memory.safety_allow:
            lines.append(f"safety override {item.memory.id}: allow "
                         + ", ".join(item.memory.safety_allow))
    for problem in pack.invalid:
        lines.append(f"invalid: {problem}")
    return "\n".join(lines) + "\n"


def _member_row(item: PackItem, cand: Candidate | None, members: Sequence[PackItem]) -> list[str]:
    status = item.disclosure + (" (stale)" if item.stale else "")
    scope = (cand.layer if cand is not None and cand.layer else
             SCOPE_LABEL.get(item.memory.scope, item.memory.scope))
    if cand is None or item.prerequisite_of is not None and cand.excluded is not None:
        ranks = {m.memory.id: m.rank for m in members}
        of = item.prerequisite_of
        why = f"prerequisite of #{ranks.get(of, 0)}" if of else "prerequisite"
        if cand is not None and cand.excluded:
            why += f" (alone: {cand.excluded})"
        return [str(item.rank), item.memory.id, scope, "-", "-", why, "-", status]
    return [str(item.rank), item.memory.id, scope, _fmt(cand.score), _fmt(cand.bm25),
            _multipliers(cand), _matched(cand), status]


def _candidate_row(cand: Candidate, status: str) -> list[str]:
    scope = cand.layer or SCOPE_LABEL.get(cand.memory.scope, cand.memory.scope)
    if cand.excluded and cand.excluded not in ("limit",):
        detail = cand.excluded_detail or "-"
        return ["", cand.memory.id, scope, "-", _fmt(cand.bm25), detail, _matched(cand), status]
    return ["", cand.memory.id, scope, _fmt(cand.score), _fmt(cand.bm25), _multipliers(cand),
            _matched(cand), status]


def as_json(pack: Pack, rendered: Rendered) -> str:
    by_id = {(c.memory.scope, c.memory.id): c for c in pack.candidates}
    modes = {mid: "body" for mid in rendered.bodies} | {mid: "card" for mid in rendered.cards}
    items = []
    for item in pack.items:
        mid = item.memory.id
        if mid not in modes:
            continue
        disclosure = "related" if item.disclosure == "related" else modes[mid]
        text = body_block(item) if disclosure == "body" else card_line(item)
        cand = by_id.get((item.memory.scope, mid))
        items.append({
            "id": mid, "type": item.memory.type, "scope": item.memory.scope,
            "score": round(cand.score if cand else item.score, 4),
            "disclosure": disclosure, "requires": list(item.requires), "stale": item.stale,
            "text": text,
        })
    doc = {
        "version": 1,
        "query": pack.query,
        "anchors": list(pack.anchors),
        "loaded": sum(1 for i in items if i["disclosure"] != "related"),
        "related": pack.related_total,
        "items": items,
        "candidates": [_candidate_json(c) for c in pack.candidates],
        "excluded": [{"id": mid, "reason": reason} for mid, reason
                     in sorted({*pack.excluded, *((mid, "budget") for mid in rendered.dropped)})],
        "narrowing_tags": list(pack.narrowing_tags),
        "withheld": [{"id": mid, "kind": f.kind, "line": f.line} for mid, f in pack.withheld],
        "hidden_by_ignore": pack.hidden_by_ignore,
        "invalid": [{"path": p.path, "error": f"{p.line}: {p.field}: {p.message}"}
                    for p in pack.invalid],
        "text": rendered.text,
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _candidate_json(cand: Candidate) -> dict[str, object]:
    return {
        "id": cand.memory.id, "scope": cand.memory.scope, "score": round(cand.score, 4),
        "bm25": round(cand.bm25, 4),
        "multipliers": [[label, factor] for label, factor in cand.multipliers],
        "matched": [[f, t] for f, t in cand.matched], "path_match": cand.path_match,
        "status": cand.excluded or "related", "detail": cand.excluded_detail,
    }
