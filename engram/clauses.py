"""An author's exclusion clauses ("Do not use this skill for X", "not for X") found in text.

Kept apart from parse.py so that routing can read a prompt's own clauses without the import
cost of the memory parser (the safety scanner comes with it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
_ABBREVIATIONS = ("e.g", "i.e", "etc", "vs", "cf")


def sentences(text: str) -> Iterator[str]:
    """Split text into sentences at . ! ? followed by white space, keeping the punctuation."""
    start = 0
    for end in _SENTENCE_END.finditer(text):
        before = text[max(start, end.start() - 8):end.start()].rsplit(None, 1)
        if before and before[-1].lower().rstrip(".") in _ABBREVIATIONS:
            continue
        yield text[start:end.end()].strip()
        start = end.end()
    if text[start:].strip():
        yield text[start:].strip()


# Words that name the memory itself: "do not use *this skill* for X" excludes X from the memory,
# while "do not use *mocks* for X" is a rule about X and must stay positive evidence.
_SELF = (r"(?:it|this|these|them|me|here|(?:this|the)\s+(?:skill|memory|rule|guide|page|file|"
         r"document|doc|note|knowledge|workflow|procedure|checklist|reference))")
_USE_VERBS = r"(?:use|invoke|load|apply|trigger|select|choose|call|activate)"
# In code, "never use for loops" and "not for...in" are about the `for` statement.
_NOT_A_LOOP = r"(?![-\s]*(?:loops?\b|each\b|\.\.\.|in\b|of\b))"
_IMPERATIVE = re.compile(
    rf"\b(?:do\s+not|don['’]t|never|should\s+not|shouldn['’]t|must\s+not)\s+{_USE_VERBS}"
    rf"(?:\s+{_SELF})?\s+(?:for\b{_NOT_A_LOOP}|(?:when|on|with|to|in|if)\b)",
    re.IGNORECASE,
)
# The same exclusion said as advice: "avoid using this skill for X", "skip this rule when X".
# The memory must be named, since "avoid using mocks for X" is a rule about X.
_AVOID = re.compile(
    rf"\b(?:avoid\s+(?:using|invoking|loading|applying|triggering)|skip)\s+{_SELF}\s+"
    rf"(?:for\b{_NOT_A_LOOP}|(?:when|on|if)\b)",
    re.IGNORECASE,
)
_NOT_FOR = re.compile(
    r"\bnot\s+(?:(?:intended|meant|designed|suitable|to\s+be\s+used|be\s+used|used)\s+)?"
    rf"(?:for\b{_NOT_A_LOOP}|when\b)",
    re.IGNORECASE,
)
# "not for X" is the memory's own exclusion only where nothing else is its subject: at the start
# of a sentence, after a separator ("..., not for X", "(not for X)", "but not for X"), or after
# "this skill is". "The staging cluster is not for load tests" is a fact, and stays one.
_AFTER_SEPARATOR = re.compile(r"(?:[(\[,;:—–-]|\bbut|\band|\bor|\bonly)\s*\Z", re.IGNORECASE)
_SELF_SUBJECT = re.compile(
    rf"{_SELF}(?:\s+(?:is|are|should|must|can|may|will))?(?:\s+(?:also|just|simply))?\s*",
    re.IGNORECASE,
)
# "Should not be used for X" at the start of a sentence: the memory is the unspoken subject.
_MODAL_START = re.compile(r"(?:should|must|shall|is|are)\s+", re.IGNORECASE)
# A word every exclusion above contains (`listed_exclusions` looks for lists only in a body
# with one). The lookahead on the first letter only makes a failed position cheaper; it allows
# nothing the alternatives do not.
NEGATION_WORD = re.compile(r"(?=[nas])(?:\b(?:not|never|avoid|skip)|n['’]t)\b", re.IGNORECASE)
# How every clause `negation_clauses` finds goes on from its negation word, the words apart by
# white space or a quote's `>` (a paragraph of prose joins its lines without them): text without
# it holds no clause, and a body without it is not split into paragraphs and sentences. Most
# bodies with a negation word have none (for a first index of real rule files, splitting them
# was about a sixth of parsing). First letters as in NEGATION_WORD, for the same reason.
_GAP = r"[\s>]+"
CLAUSE_OPENING = re.compile(
    rf"(?=[nas])(?:(?:\b(?:not|never)|n['’]t){_GAP}(?:{_USE_VERBS}|(?:(?:intended|meant"
    rf"|designed|suitable|to{_GAP}be{_GAP}used|be{_GAP}used|used){_GAP})?(?:for|when)\b)"
    rf"|\b(?:avoid{_GAP}(?:using|invoking|loading|applying|triggering)|skip){_GAP}"
    r"(?:it|this|these|them|me|here|the)\b)",
    re.IGNORECASE,
)
# Only the words just before a marker decide; looking further back costs time, not accuracy.
_PREFIX_WINDOW = 40


def negation_clauses(text: str) -> list[str]:
    """The author's exclusion clauses in `text` ("Do not use it for X"), each from its marker to
    the end of its sentence, line or semicolon, without the final punctuation. A marker ending
    in a colon opens a list ("DO NOT USE FOR: event sourcing - use kafka; complex routing - use
    rabbitmq"): each of its semicolon-separated items is a clause."""
    clauses: list[str] = []
    if not CLAUSE_OPENING.search(text):
        return clauses
    for line in text.splitlines():
        for sentence in sentences(line):
            start = _clause_start(sentence)
            if start is None:
                continue
            # A semicolon starts a new thought ("not for X; see Y"): the clause ends there,
            # unless the marker announced a list.
            first, *rest = sentence[start:].split(";")
            items = [first, *rest] if _opens_list(sentence[start:]) else [first]
            for item in items:
                clause = item.strip().rstrip(" .!?:,")
                if clause and clause not in clauses and not _marker_only(clause):
                    clauses.append(clause)
    return clauses


def after_marker(clause: str) -> str:
    """What the clause excludes, without the marker it starts with ("Do not use this for SMS
    reminders" -> "SMS reminders"); a list item has none."""
    for m in (_IMPERATIVE.match(clause), _AVOID.match(clause), _NOT_FOR.match(clause)):
        if m is not None:
            return clause[m.end():].strip()
    return clause


def _marker_only(clause: str) -> bool:
    """The clause is its marker alone ("Do NOT use this skill for", a list's lead-in): what it
    excludes follows as the list's items (`listed_exclusions`)."""
    return any(m is not None and m.end() >= len(clause.rstrip())
               for m in (_IMPERATIVE.match(clause), _AVOID.match(clause), _NOT_FOR.match(clause)))


def _opens_list(clause: str) -> bool:
    """The marker itself ends in a colon: "DO NOT USE FOR: a; b", "Not for: a; b". In "Do not
    use this for production: it lacks auth; see the setup guide" the colon gives a reason, and
    what follows the semicolon is no exclusion."""
    colon = clause.find(":")
    return 0 < colon <= _PREFIX_WINDOW and _marker_only(clause[:colon])

# A heading, or a line ending in a colon, that announces a list of what the memory is not for:
# "## When NOT to use", "## Non-Triggers", "Do NOT use this skill for:".
# "Never use flowcharts for:" lists what flowcharts are not for, a rule about flowcharts: a
# lead-in of that form counts only with the memory as its object or none.
_EXCLUSION_HEADING = re.compile(
    r"\b(?:when|where)\s+not\s+to\s+(?:use|apply|invoke|load)\b|\bnon-?triggers?\b"
    r"|\banti-?triggers?\b|\bwhen\s+to\s+avoid\b|\bnot\s+(?:for|when)\b"
    rf"|\b(?:do\s+not|don['’]t|never)\s+{_USE_VERBS}(?:\s+{_SELF})?"
    r"(?:\s+(?:for|when|if|on|with|in))?\s*:?\s*$",
    re.IGNORECASE)
# Under such a heading, a sentence of prose that sends the task elsewhere ("For deep multi-agent
# review (money flows, auth), defer to `/review ultra`") is an exclusion too; the rest of the
# section's prose ("This skill focuses on searching") says what the memory is, and stays.
_REDIRECT = re.compile(r"\b(?:defer\s+to|instead\b|hand\s+(?:it\s+)?off\s+to|escalate\s+to)",
                       re.IGNORECASE)
_HEADING_LINE = re.compile(r" {0,3}#{1,6}[ \t]")
_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?")
_FENCE = re.compile(r"[ \t]*(?:`{3,}|~{3,})")
_EMPHASIS = re.compile(r"[*_]{1,3}|[\u274c\u2716\u26d4\U0001f6ab]\ufe0f?\s*")
_FENCE_LEADS = frozenset("`~")
_ITEM_LEADS = frozenset("-*+")  # or a digit


def listed_exclusions(body: str) -> list[str]:
    """The items of a list the author put under a heading or lead-in that says what the memory
    is not for ("## When NOT to use", "Do NOT use this skill for:"): each item is an exclusion
    clause, as "Do not use this for <item>" would be. An item that is a clause of its own
    ("Do not use this for X") is left to `negation_clauses`. Each clause is the item's text on
    its first line as written, so that it can be taken out of the text it indexes."""
    clauses: list[str] = []
    if not NEGATION_WORD.search(body):
        return clauses
    under = False  # inside a section or paragraph that lists exclusions
    by_heading = False
    fenced = False
    blank = False
    for line in body.splitlines():
        stripped = line.strip()
        # Each of the line patterns can only match where the line's first mark is its own: most
        # lines are prose, and a character test is far cheaper than a failed match.
        lead = stripped[:1]
        if lead in _FENCE_LEADS and _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        if lead == "#" and _HEADING_LINE.match(line):
            under = by_heading = bool(_EXCLUSION_HEADING.search(stripped))
            continue
        if not stripped:
            blank = True
            continue
        item = _ITEM.match(line) if lead in _ITEM_LEADS or lead.isdigit() else None
        if item is None:
            # Without a colon the line is no lead-in, and outside a heading's list no redirect:
            # its emphasis need not be taken out.
            plain = (_EMPHASIS.sub("", stripped) if ":" in stripped or by_heading and under
                     else stripped)
            if plain.endswith(":") and _EXCLUSION_HEADING.search(plain):
                under = True  # a lead-in: "Do NOT use this skill for:"
            elif by_heading and under and _REDIRECT.search(plain):
                for sentence in sentences(stripped):
                    clause = sentence.rstrip(" .!?:,;")
                    if (_REDIRECT.search(sentence) and _clause_start(sentence) is None
                            and clause not in clauses):
                        clauses.append(clause)
            elif blank or not under:
                # Prose after a blank line ends a lead-in's list; a heading's section goes on.
                under = by_heading and under
            blank = False
            continue
        blank = False
        if not under or item.start() > 0 and line[:item.start()].strip():
            continue
        text = line[item.end():].strip()
        plain = _EMPHASIS.sub("", text).strip()
        if not plain or _clause_start(plain) is not None:
            continue
        clause = text.rstrip(" .!?:,;")
        if clause and clause not in clauses:
            clauses.append(clause)
    return clauses


def _clause_start(sentence: str) -> int | None:
    found = [m for m in (_IMPERATIVE.search(sentence), _AVOID.search(sentence)) if m]
    imperative = min(found, key=lambda m: m.start()) if found else None
    end = imperative.start() if imperative else len(sentence)
    for match in _NOT_FOR.finditer(sentence, 0, end):
        start = match.start()
        tail = sentence[max(0, start - _PREFIX_WINDOW):start]
        # Sentences arrive stripped, so position 0 is the start of a sentence.
        if (start == 0 or _AFTER_SEPARATOR.search(tail)
                or (start <= _PREFIX_WINDOW and (_SELF_SUBJECT.fullmatch(tail)
                                                 or _MODAL_START.fullmatch(tail)))):
            return start
    return imperative.start() if imperative else None
