"""Layered disclosure, cards, the budget, and the checks every printed memory passes first.

Formatting is pure; `check_printable` is the one place that re-reads a file before printing it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import NamedTuple

from engram.hashing import sha256
from engram.model import Finding, Memory, Pack, PackItem

CARD_MAX = 160
RELATED_MAX = 5
FETCH_PREFIX = "fetch: engram load --id "


class RenderedParts(NamedTuple):
    """Which memories a rendered pack shows as bodies or cards, demoted or dropped."""

    bodies: tuple[str, ...]
    cards: tuple[str, ...]
    demoted: tuple[str, ...]
    dropped: tuple[str, ...]


class Rendered(NamedTuple):
    """A rendered pack: its text and which memories it shows how."""

    text: str
    bodies: tuple[str, ...]
    cards: tuple[str, ...]
    demoted: tuple[str, ...]
    dropped: tuple[str, ...]


def count_line(loaded: int, related: int) -> str:
    return f"engram: loaded {loaded} memory files / {related} total related memories"


def utf16_len(text: str) -> int:
    """Length as hosts written in JavaScript measure it (`.length`): astral characters count
    twice. Encoding is done in C; `surrogatepass` keeps a lone surrogate from raising."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def estimate_tokens(text: str) -> int:
    return tokens_for_chars(len(text))


def tokens_for_chars(chars: int) -> int:
    """The token estimate of a text of `chars` characters (never falls as the text grows)."""
    return math.ceil(chars / 4)


def card_line(item: PackItem) -> str:
    memory = item.memory
    head = f"- {memory.id} [{memory.type}]"
    tail = " (stale)" if item.stale else ""
    text = " ".join(memory.card_text.split())
    room = CARD_MAX - len(head) - len(tail) - 1
    if len(text) > room:
        text = text[:max(room - 1, 0)].rstrip() + "…"
    return f"{head} {text}{tail}" if text else f"{head}{tail}"


def body_block(item: PackItem) -> str:
    memory = item.memory
    lines = [f"### {memory.id} [{memory.type}, {memory.authority}]"]
    if item.requires:
        lines.append("requires: " + ", ".join(item.requires))
    if item.body:
        lines.append(item.body)
    return "\n".join(lines) + "\n"


def _piece(item: PackItem, mode: str, texts: dict[tuple[str, str], str]) -> str:
    """An item's body block or card line, made once per render (`texts`)."""
    key = (item.memory.id, mode)
    text = texts.get(key)
    if text is None:
        text = texts[key] = body_block(item) if mode == "body" else card_line(item)
    return text


def _compose(items: Sequence[PackItem], modes: dict[str, str], head: str,
             also_fetch: Sequence[str], texts: dict[tuple[str, str], str]
             ) -> tuple[str, list[str]]:
    """The pack text; `also_fetch` names demoted bodies the budget then dropped, so the fetch
    line still offers every demoted memory. `texts` keeps each item's card and body text
    between the budget's attempts, which recompose the pack once per item taken out."""
    def piece(item: PackItem, mode: str) -> str:
        return _piece(item, mode, texts)

    out = [head + "\n"]
    cards: list[str] = []
    previous = "head"
    related = [i for i in items if i.disclosure == "related" and modes.get(i.memory.id)]
    for item in items:
        mode = modes.get(item.memory.id)
        if item.disclosure == "related" or mode is None:
            continue
        if mode == "body":
            if previous == "card":
                out.append("\n")
            out.append(piece(item, "body") + "\n")
        else:
            out.append(piece(item, "card") + "\n")
            cards.append(item.memory.id)
        previous = mode
    if related:
        out.append("related, not loaded:\n")
        for item in related:
            out.append(piece(item, "card") + "\n")
            cards.append(item.memory.id)
    fetch = cards + [mid for mid in also_fetch if mid not in cards]
    if fetch:
        out.append(FETCH_PREFIX + ",".join(fetch) + "\n")
    # A pack ending in a body would otherwise end in a blank line.
    return "".join(out).rstrip("\n") + "\n", cards


def render_pack(pack: Pack, *, budget_chars: int | None = None, budget_tokens: int | None = None,
                omit_ids: Collection[str] = (),
                head: Callable[[RenderedParts], str] | None = None) -> Rendered:
    """The pack as text, within budget: bodies demote to cards (lowest-ranked first), then cards
    drop (related first), and text is never cut in the middle."""
    omit = set(omit_ids)
    items = [i for i in pack.items if i.memory.id not in omit]
    related = [i for i in items if i.disclosure == "related"][:RELATED_MAX]
    members = [i for i in items if i.disclosure != "related"]
    items = members + related
    modes = {i.memory.id: ("body" if i.disclosure == "body" else "card") for i in items}
    demoted: list[str] = []
    dropped: list[str] = []

    def make_head() -> str:
        parts = _parts(items, modes, demoted, dropped)
        if head is not None:
            return head(parts)
        shown = sum(1 for i in members if i.memory.id in modes)
        return count_line(shown, pack.related_total)

    def cost(text: str) -> int:
        if budget_chars is not None and budget_tokens is not None:
            return max(utf16_len(text) - budget_chars, estimate_tokens(text) - budget_tokens)
        if budget_chars is not None:
            return utf16_len(text) - budget_chars
        if budget_tokens is not None:
            return estimate_tokens(text) - budget_tokens
        return 0

    def over(chars: int) -> bool:
        """Whether every text of at least this many characters is over the budget."""
        return (budget_chars is not None and chars > budget_chars) or (
            budget_tokens is not None and tokens_for_chars(chars) > budget_tokens)

    by_rank = sorted(members, key=lambda i: i.rank)
    texts: dict[tuple[str, str], str] = {}
    unoffered: set[str] = set()
    skipped = False
    while True:
        if not skipped and "card" in modes.values():
            _take_out_while_over(items, related, by_rank, modes, demoted, dropped, texts, over)
            skipped = True
        gone = [mid for mid in demoted if mid in dropped and mid not in unoffered]
        text, cards = _compose(items, modes, make_head(), gone, texts)
        if cost(text) <= 0:
            break
        bodies = [i for i in by_rank if modes.get(i.memory.id) == "body"]
        if bodies:
            victim = bodies[-1].memory.id
            modes[victim] = "card"
            demoted.append(victim)
            continue
        shown_related = [i for i in related if i.memory.id in modes]
        shown_cards = shown_related or [i for i in by_rank if i.memory.id in modes]
        if shown_cards:
            victim = shown_cards[-1].memory.id
            del modes[victim]
            dropped.append(victim)
            continue
        if gone:
            # Dozens of `load: always` memories can make the fetch line alone too long: it
            # offers fewer (lowest-ranked out first) rather than the pack saying nothing.
            unoffered.add(gone[0])
            continue
        # Nothing left to take out: the count line alone, even if the budget is smaller.
        text = make_head() + "\n"
        break
    parts = _parts(items, modes, demoted, dropped)
    return Rendered(text, parts.bodies, parts.cards, parts.demoted, parts.dropped)


def _take_out_while_over(items: Sequence[PackItem], related: Sequence[PackItem],
                         by_rank: Sequence[PackItem], modes: dict[str, str], demoted: list[str],
                         dropped: list[str], texts: dict[tuple[str, str], str],
                         over: Callable[[int], bool]) -> None:
    """Demote bodies, then drop cards, in the order `render_pack`'s budget loop does, for as
    long as the item lines alone are over the budget: that loop composes the whole pack once
    per item it takes out, which for the hundreds of memories of a session start was most of
    the hook's time. Once any card is shown, the item lines and the fetch line's ids of the
    shown cards are a lower bound on the text's length (only the fetch line's newline is
    stripped, and it comes last)."""
    def size(item: PackItem, mode: str) -> int:
        line = len(_piece(item, mode, texts)) + 1
        return line + len(item.memory.id) + 1 if mode == "card" else line  # +"id," in fetch

    length = len(FETCH_PREFIX) + sum(size(i, modes[i.memory.id]) for i in items
                                     if i.memory.id in modes)
    cards = sum(1 for i in items if modes.get(i.memory.id) == "card")
    bodies = [i for i in by_rank if modes.get(i.memory.id) == "body"]
    while bodies and cards and over(length):
        victim = bodies.pop()
        length += size(victim, "card") - size(victim, "body")
        modes[victim.memory.id] = "card"
        demoted.append(victim.memory.id)
        cards += 1
    if bodies:
        return
    shown = [i for i in by_rank if i.memory.id in modes]
    shown += [i for i in related if i.memory.id in modes]  # related cards go first
    offered = set(demoted)  # a demoted body dropped as a card stays on the fetch line
    while shown and cards and over(length):
        victim = shown.pop()
        kept_in_fetch = len(victim.memory.id) + 1 if victim.memory.id in offered else 0
        length -= size(victim, "card") - kept_in_fetch
        del modes[victim.memory.id]
        dropped.append(victim.memory.id)
        cards -= 1


def _parts(items: Sequence[PackItem], modes: dict[str, str], demoted: list[str],
           dropped: list[str]) -> RenderedParts:
    bodies = tuple(i.memory.id for i in items if modes.get(i.memory.id) == "body")
    cards = tuple(i.memory.id for i in items if modes.get(i.memory.id) == "card")
    return RenderedParts(bodies, cards, tuple(demoted), tuple(dropped))


# -- checks before printing ------------------------------------------------------------------
class Printable(NamedTuple):
    """The outcome of re-reading a memory just before printing it."""

    status: str  # "ok" | "changed" | "unsafe" | "unreadable"
    body: str = ""
    findings: tuple[Finding, ...] = ()
    allowed: tuple[Finding, ...] = ()
    # Every finding of a scan run by this check (no stored verdict on these bytes), for the
    # index to keep; None when a stored verdict stood.
    scanned: tuple[Finding, ...] | None = None

    @property
    def exclusion(self) -> str:
        """The reason dry-run and --json give for a memory that did not pass."""
        return f"unsafe:{self.findings[0].kind}" if self.findings else "changed"


def check_printable(memory: Memory, root: Path, stored: tuple[Finding, ...] | None = None,
                    allow: tuple[str, ...] | None = None) -> Printable:
    """Re-read the file and compare its hash with the index. `stored` is the index's verdict on
    the bytes with that hash (engram.safety.verdicts): equal hashes prove the bytes printed are
    the bytes it judged, so it stands; without one the bytes are scanned now. `allow` is the
    `safety.allow` in force (the memory's own when None)."""
    from engram.sections import rendered_lines

    try:
        raw = (root / memory.rel_path).read_bytes()
    except OSError:
        return Printable("unreadable")
    if sha256(raw).hexdigest() != memory.sha256:
        return Printable("changed")
    scanned = None
    if stored is None:
        from engram.safety.verdicts import judge  # the scan's rules load only when needed

        stored = scanned = judge(raw, memory)
    text = raw.decode("utf-8", errors="replace").lstrip("\ufeff")
    body = "\n".join(line for _, line in rendered_lines(text))
    exempt = frozenset(memory.safety_allow if allow is None else allow)
    findings = tuple(f for f in stored if f.kind not in exempt)
    allowed = tuple(f for f in stored if f.kind in exempt)
    if findings:
        return Printable("unsafe", findings=findings, allowed=allowed, scanned=scanned)
    return Printable("ok", body=body, allowed=allowed, scanned=scanned)
