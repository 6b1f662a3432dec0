"""Prerequisite expansion, the compact limit and pack order.

A prerequisite never pushes out a better-ranked memory, and a memory never appears without
the prerequisites it declares (those that are visible).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import NamedTuple

from engram.model import Memory


class Routed(NamedTuple):
    """A related memory in rank order, as expand sees it."""

    memory: Memory
    score: float
    depth: int
    weak: bool = False  # thin evidence (route.loose): related, never printed in full


class Member(NamedTuple):
    """A pack member: routed on its own, or pulled in as a prerequisite."""

    memory: Memory
    score: float
    depth: int
    prerequisite_of: str | None  # the first pack member that pulled it in, if not routed itself
    routed: bool  # True when it was related on its own merits
    weak: bool = False  # routed on thin evidence (see Routed)


class Selection(NamedTuple):
    """What expansion chose: the pack in order, the related memories over the limit."""

    members: tuple[Member, ...]  # pack order
    cut: tuple[Routed, ...]  # related but over the limit, rank order
    pulled_in: int  # prerequisites that were not related themselves


Lookup = Callable[[str], tuple[Memory, int] | None]  # id -> (visible memory, depth) or None


def prerequisites(memory: Memory, lookup: Lookup, have: Collection[str] = (),
                  room: int | None = None) -> tuple[list[tuple[Memory, int]], list[str]]:
    """Visible prerequisites of memory, transitively (load order), and the missing ids.

    Prerequisites in `have` (already in the pack) are not followed further: theirs are in the
    pack too. With `room`, the walk stops once more than `room` are found (the memory cannot
    fit then, whatever else it needs): on a chain hundreds deep, asking whether a memory fits
    must not cost the whole chain."""
    found: dict[str, tuple[Memory, int]] = {}
    missing: list[str] = []
    stack = list(reversed(memory.depends_on))
    while stack and (room is None or len(found) <= room):
        mid = stack.pop()
        if mid == memory.id or mid in found or mid in missing or mid in have:
            continue
        hit = lookup(mid)
        if hit is None:
            missing.append(mid)
            continue
        found[mid] = hit
        stack.extend(reversed(hit[0].depends_on))
    ordered = sorted(found.values(), key=lambda md: (md[1], md[0].id))
    return ordered, missing


# Prerequisites no related memory stands for ride on top of the limit, up to this many times
# the limit in all: a group never costs its dependent its place, and a chain thousands deep
# still cannot flood a pack.
PULLED_ROOM = 2


def select(related: Sequence[Routed], lookup: Lookup, limit: int | None) -> Selection:
    """Related memories in rank order, each with its unmet prerequisites right before it.

    `limit` counts the members related on their own merits (a prerequisite that is related
    too counts); prerequisites pulled in only for a dependent come on top, up to PULLED_ROOM
    times the limit in all. A group that does not fit is cut whole, so a memory never appears
    without its prerequisites and a prerequisite never takes the place of a better match."""
    members: list[Member] = []
    in_pack: set[str] = set()
    related_ids = {r.memory.id for r in related}
    scores = {r.memory.id: r.score for r in related}
    weak = {r.memory.id: r.weak for r in related}
    cut: list[Routed] = []
    pulled = 0
    routed = 0
    cap = None if limit is None else PULLED_ROOM * limit
    for item in related:
        if item.memory.id in in_pack:
            continue
        room = None if cap is None else cap - len(members) - 1
        if limit is not None and (routed >= limit or room is None or room < 0):
            cut.append(item)
            continue
        needed, _ = prerequisites(item.memory, lookup, in_pack, room)
        also_related = sum(1 for memory, _ in needed if memory.id in related_ids)
        if limit is not None and room is not None and (
                len(needed) > room or routed + 1 + also_related > limit):
            cut.append(item)
            continue
        for memory, depth in needed:
            members.append(Member(memory, scores.get(memory.id, 0.0), depth, item.memory.id,
                                  memory.id in related_ids, weak.get(memory.id, False)))
            in_pack.add(memory.id)
            pulled += memory.id not in related_ids
        members.append(Member(item.memory, item.score, item.depth, None, True, item.weak))
        in_pack.add(item.memory.id)
        routed += 1 + also_related
    return Selection(tuple(members), tuple(cut), pulled)


def is_full(selection: Selection, limit: int) -> bool:
    """Whether no memory ranked below the selection's could join it: the limit is reached, or
    the room for members is used up (room only shrinks as `select` goes down the ranking)."""
    return (sum(m.routed for m in selection.members) >= limit
            or len(selection.members) >= PULLED_ROOM * limit)


def rank_order(selection: Selection) -> dict[str, int]:
    """1-based rank numbers: routed members in rank order, each followed by the prerequisites it
    pulled in (the numbering dry-run shows, and the order budget demotion walks backwards)."""
    order: list[str] = []
    pending: dict[str, list[str]] = {}
    for member in selection.members:
        if member.prerequisite_of is not None:
            pending.setdefault(member.prerequisite_of, []).append(member.memory.id)
        else:
            order.append(member.memory.id)
            order.extend(pending.pop(member.memory.id, []))
    for rest in pending.values():
        order.extend(rest)
    return {mid: n for n, mid in enumerate(order, start=1)}


def body_ids(selection: Selection, expand_top: int) -> set[str]:
    """Which expand_top pack members print in full: the best direct matches first (by score),
    then prerequisites in rank numbering. A prerequisite still comes first in pack order, as a
    card when the bodies are spoken for; a weak match (thin evidence) stays a card."""
    ranks = rank_order(selection)
    direct = sorted((m for m in selection.members if m.routed and not m.weak),
                    key=lambda m: (-round(m.score, 9), ranks[m.memory.id]))
    bodies = {m.memory.id for m in direct[:expand_top]}
    # Bodies to spare go to the prerequisites of memories printed in full, in rank numbering,
    # whether pulled in or related on thin evidence of their own (the time zone rule, met by
    # one word, is still what the scheduling memory it prints beside depends on).
    needed = {d for m in selection.members if m.memory.id in bodies for d in m.memory.depends_on}
    pulled = sorted((m for m in selection.members
                     if (not m.routed and m.prerequisite_of in bodies)
                     or (m.weak and m.memory.id in needed)), key=lambda m: ranks[m.memory.id])
    bodies.update(m.memory.id for m in pulled[:expand_top - len(bodies)])
    return bodies
