"""Injection phrases that need no override verb: prompt extraction, orders declared void,
personas without guidelines, and concealment from the user.

Each rule runs only on lines holding one of its anchors (plain substring tests, far cheaper than
adding the rules to the one alternation every line is searched with): most lines hold none.
The text is the lower-cased, folded prose line the other phrase rules read.
"""

from __future__ import annotations

import re

_ORDERS = (
    r"(?:orders|instructions|rules|guidelines|directives|constraints|policies|programming"
    r"|configuration)"
)
_RULES: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (
        tuple(f"your {word}" for word in (
            "system", "instructions", "prompt", "full", "entire", "hidden", "original", "initial",
            "secret", "internal", "exact", "first", "developer", "context", "memory",
            "conversation")),
        "prompt leak request",
        r"\b(?:reveal|print|output|repeat|show|leak|dump|disclose|recite|spell\s+out|translate"
        r"|put|write\s+out|paste|echo|quote)\s+(?:me\s+)?(?:back\s+)?(?:the\s+(?:full\s+|entire\s+"
        r"|complete\s+|exact\s+)?(?:text|contents?|wording)\s+of\s+)?your\s+"
        r"(?:(?:full|entire|hidden|original|initial|secret|internal|exact|first)\s+)*(?:system\s+"
        r"prompt|instructions|prompt|system\s+message|developer\s+message|context\s+window)\b"
        r"|\b(?:reveal|print|output|show|leak|dump|disclose|list)\s+(?:me\s+)?your\s+(?:hidden"
        r"|secret|internal|initial|original|system)\s+(?:rules|guidelines|directives|configuration"
        r"|settings|policies)\b"
        r"|\b(?:repeat|print|output|dump|reveal|recite|copy|show|list|quote|echo)\s+(?:back\s+)?"
        r"(?:everything|all|the\s+(?:full\s+|entire\s+|whole\s+)?(?:text|contents?))\s+(?:that\s+"
        r"is\s+)?(?:in|of|from)\s+your\s+(?:context|memory|prompt|instructions|conversation)\b",
    ),
    (
        ("what ", "message you"),
        "prompt leak request",
        r"\bwhat\s+(?:instructions|rules|directives|guidelines|prompt)\s+(?:were|have)\s+you\s+"
        r"(?:been\s+)?given\b"
        r"|\b(?:the\s+)?(?:system|developer)\s+message\s+you\s+(?:received|were\s+given|got)\b",
    ),
    (
        (*(f"your {word}" for word in (
            "previous", "earlier", "prior", "original", "initial", "old", "existing", "current",
            "orders", "instructions", "rules", "guidelines", "directives", "constraints",
            "policies", "programming", "configuration")),
         "you were given", "you have been given", "you received", "you got"),
        "instruction override",
        rf"\b(?:your\s+(?:(?:previous|earlier|prior|original|initial|old|existing|current)\s+)?"
        rf"{_ORDERS}|(?:the\s+)?(?:orders|instructions|rules|guidelines|guidance|directives"
        r"|constraints|policies)\s+(?:that\s+)?you\s+(?:were\s+given|have\s+been\s+given|received"
        r"|got)(?:\s+[\w-]+){0,4}?)\s+(?:have\s+been|has\s+been|are|were|is|was)\s+(?:now\s+|all\s+)?"
        r"(?:only\s+|just\s+|merely\s+)?(?:rescinded|revoked|cancell?ed|void(?:ed)?|null|invalid"
        r"|outdated|obsolete|superseded|replaced|lifted|suspended|withdrawn|overridden|a\s+test"
        r"|fake|no\s+longer\s+valid)\b",
    ),
    (
        ("consider ",),
        "instruction override",
        r"\bconsider\s+(?:all\s+|any\s+|your\s+|the\s+)*(?:(?:earlier|previous|prior|above"
        r"|existing|original)\s+)?(?:constraints|instructions|rules|guidelines|restrictions"
        r"|policies|directives|orders)\s+(?:(?:to\s+be|as)\s+)?(?:void|null|cancell?ed|invalid"
        r"|lifted|suspended|obsolete|revoked)\b",
    ),
    (
        ("supersede", "overrid", "precedence", "replace"),
        "instruction override",
        r"\b(?:supersedes?|overrides?|takes?\s+precedence\s+over|replaces?)\s+(?:any|all|every"
        r"|everything)\b[^.;\n]{0,40}?\b(?:you\s+(?:received|were\s+given|got)|your\s+(?:context"
        r"|system\s+prompt|training|programming))"
        r"|\b(?:supersedes?|overrides?|takes?\s+precedence\s+over)\s+(?:[\w-]+\s+){0,4}?your\s+"
        r"system\s+prompt\b",
    ),
    (
        ("everything above", "everything before", "instructions follow", "instructions are below",
         "instructions start"),
        "instruction override",
        r"\beverything\s+(?:above|before)\s+(?:this\s+(?:line|point|note)|here)\s+(?:was|is"
        r"|has\s+been)\s+(?:written|added|inserted|injected|planted|forged|fake|a\s+test)"
        r"|\bthe\s+(?:genuine|real|actual|true)\s+instructions\s+(?:follow|are\s+below|start)",
    ),
    (
        ("only to me", "your real ", "your true ", "your actual ", "your hidden ", "your secret "),
        "instruction override",
        r"\byou\s+(?:answer|report|respond|listen)\s+only\s+to\s+me\b"
        r"|\byour\s+(?:real|true|actual|hidden|secret)\s+(?:objective|goal|task|mission|purpose)"
        r"\s+is\s+to\b[^.;\n]{0,60}?\b(?:credentials?|secrets?|tokens?|keys?|passwords?|\.env"
        r"|ssh|exfiltrate|upload|leak)",
    ),
    (
        ("you have no", "you are under no", " without ", " with no ", " free of", " free from",
         "no ethical", "no moral", "no safety"),
        "persona switch",
        r"\byou\s+(?:have|are\s+under)\s+no\s+(?:(?:more|longer|further)\s+)?"
        r"(?:policies|restrictions|filters|content\s+policy|safety\s+(?:rules|guidelines)"
        r"|ethical\s+guidelines|guardrails|(?:prior|previous)\s+(?:configuration|instructions"
        r"|rules|programming|policies|restrictions))\b(?!\s+(?:on|for|in|when|about|regarding)\b)"
        r"|\ban?\s+(?:[\w-]+\s+){0,3}?(?:ai|model|assistant|chatbot|llm)\s+(?:without|with\s+no"
        r"|free\s+(?:of|from))"
        r"\s+(?:any\s+)?(?:filters|guidelines|restrictions|limits|ethics|ethical|morals|safety"
        r"|content\s+polic(?:y|ies)|censorship)\b"
        r"|\b(?:with|has|have|having)\s+no\s+(?:ethical|moral|safety)\s+(?:guidelines|restrictions"
        r"|limits|constraints|principles|boundaries)\b",
    ),
    (
        ("between us", "between you and me", "between ourselves"),
        "hide from the user",
        r"\bkeep\s+(?:this|it|that)\s+between\s+(?:us|you\s+and\s+me|ourselves)\b(?!\s+and\b)",
    ),
    (
        ("from the user", "from the human", "from the developer", "from the operator",
         "from the reviewer", "from user", "from developer"),
        "hide from the user",
        r"\b(?:keep|hide|conceal|withhold)\s+(?:this|these|it|that|the)(?:\s+(?:step|action|change"
        r"|changes|edit|command|instructions?|file|dependency|addition))?\s+(?:(?:a\s+)?secret\s+"
        r"|hidden\s+)?from\s+(?:the\s+)?(?:user|human|developer|operator|reviewer)s?\b",
    ),
    (
        ("surface", "show", "display", " log ", "narrate", "bring up"),
        "hide from the user",
        r"\b(?:do\s+not|don'?t|never)\s+(?:surface|show|display|log|narrate|bring\s+up)\s+(?:this"
        r"|these|that|it)(?:\s+(?:step|action|change|changes|edit|command|addition))?\s+(?:in|to)"
        r"\s+(?:the\s+)?(?:chat|conversation|transcript|user|human|summary|reply|response)\b",
    ),
    (
        (" asks", " ask "),
        "hide from the user",
        r"\bif\s+(?:the\s+)?(?:user|developer|human|anyone|someone|they|reviewer)\s+asks?\b"
        r"[^.\n]{0,80}?\b(?:say|tell\s+(?:them|him|her)|answer|reply|claim|pretend|deny)\b"
        r"[^.\n]{0,20}?\b(?:you\s+(?:didn'?t|did\s+not|haven'?t|have\s+not|never|made\s+no)"
        r"|nothing\s+(?:was|has\s+been)\s+changed|no\s+changes?\s+(?:was|were))",
    ),
    (
        (" notice", "find out", "realis", "realiz", "suspect", " spot"),
        "hide from the user",
        # The person running the agent, not an app's users ("make sure users don't notice the
        # migration" is ordinary deployment advice).
        r"\b(?:make\s+sure|ensure|so\s+that)\s+the\s+(?:developer|human|reviewer|operator"
        r"|maintainer)\s+(?:doesn'?t|does\s+not|won'?t|will\s+not|never|can'?t|cannot)\s+"
        r"(?:notice|find\s+out|realis|realiz|suspect|spot)",
    ),
    (
        ("omit", "leave out", "exclude", "strip"),
        "hide from the user",
        r"\b(?:omit|leave\s+out|exclude|strip)\s+(?:this|it|that|these)(?:\s+(?:step|action|change"
        r"|changes|edit|command|part))?\s+(?:from|out\s+of)\s+(?:your\s+(?:response|reply|answer"
        r"|summary|report|message)|(?:the|your)\s+\w+\s+to\s+the\s+user)",
    ),
)
_DETAILS = tuple(detail for _, detail, _ in _RULES)
_CACHE: list[re.Pattern[str] | None] = [None] * len(_RULES)
ALL = frozenset(range(len(_RULES)))


def _rule(index: int) -> re.Pattern[str]:
    rx = _CACHE[index]
    if rx is None:  # compiled on first use: a memory without any anchor never pays for it
        rx = _CACHE[index] = re.compile(_RULES[index][2])
    return rx


def possible_rules(text: str) -> frozenset[int]:
    """The rules that match anywhere in `text` (a memory's lines joined): each line's match is
    a match in the joined text, so only these need searching line by line."""
    return frozenset(
        index for index, (anchors, _, _) in enumerate(_RULES)
        if any(anchor in text for anchor in anchors) and _rule(index).search(text)
    )


def anchored_phrases(prose: str, rules: frozenset[int] = ALL) -> list[tuple[int, int, str]]:
    """(start, end, detail) of each of `rules` that matches the line."""
    hits: list[tuple[int, int, str]] = []
    for index in sorted(rules):
        for anchor in _RULES[index][0]:
            if anchor in prose:
                m = _rule(index).search(prose)
                if m:
                    hits.append((m.start(), m.end(), _DETAILS[index]))
                break
    return hits
