"""Injection phrases that need no override verb: prompt extraction, orders declared void,
personas without guidelines, and concealment from the user.

Each rule runs only on lines holding one of its anchors (plain substring tests, far cheaper than
adding the rules to the one alternation every line is searched with): most lines hold none.
The text is the lower-cased, folded prose line the other phrase rules read.
"""

from __future__ import annotations

import re

from engram.safety.lazy_regex import LazyRegex

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
        # "if your configuration is invalid, ..." supposes; it declares nothing void
        rf"(?<!\bif\s)(?<!when\s)(?<!whether\s)(?<!unless\s)"
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
        ("surface", "show", "display", " log ", "narrate", "bring up"),
        "hide from the user",
        r"\b(?:do\s+not|don'?t|never)\s+(?:surface|show|display|log|narrate|bring\s+up)\s+(?:this"
        r"|these|that|it)(?:\s+(?:step|action|change|changes|edit|command|addition))?\s+(?:in|to)"
        r"\s+(?:the\s+)?(?:chat|conversation|transcript|user|human|summary|reply|response)\b",
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

# Goal hijacking with any verb of dismissal (heldout4's first run: "set aside the conventions you
# loaded earlier", "reset your instructions", "cancel all standing orders"). Verbs that mean
# dismissal only of orders (ignore, scrap, rescind) need a word for "earlier" or "your"; verbs
# with everyday objects (drop, clear, reset, cancel, lift) need "your", "standing" or "you were
# given", since "drop the old rules table" is a migration.
_DISMISS = (
    r"ignore|disregard|forget|discard|abandon|scrap|ditch|dismiss|rescind|revoke|nullify"
    r"|set\s+aside|put\s+aside|throw\s+out|toss|void"
)
_DISMISS_EVERYDAY = r"drop|clear|reset|wipe|cancel|lift|suspend|erase|delete|remove|flush"
_ORDER_NOUNS = (
    r"instructions|orders|rules|guidance|guidelines|conventions|constraints|directives"
    r"|restrictions|programming|prompt|policies|briefing"
)
# The start of a clause: an order opens a sentence or follows "and", "then", "please".
_CLAUSE_OPEN = LazyRegex(r"(?:^|[.:;!?]\s*|\b(?:and|then|please|now|also|just|first)\s+)$")
# Each: (words a match opens with, words one of which must also be in the memory (or none),
# detail, pattern, what the text before a match must end with (or None)). Anchored on whole
# words, looked up in the memory's word set, and matched only where an opening word starts: a
# search of the whole memory would try every position (Python's regex engine has no
# multi-literal prefilter) and cost more than every other rule.
_NEW_ORDERS = r"new\s+(?:task|instructions?|orders|goal|objective|directives?)"
_BEGIN_NEW_ORDERS = rf"(?:begin|start)\b[\s.!:,;-]*(?:(?:here\s+(?:is|are)|your)\s+)?{_NEW_ORDERS}"
_HIJACK_RULES: tuple[tuple[frozenset[str], frozenset[str], str, str, LazyRegex | None],
                     ...] = (
    (
        frozenset(("ignore", "disregard", "forget", "discard", "abandon", "scrap", "ditch",
                   "dismiss", "rescind", "revoke", "nullify", "set", "put", "throw", "toss",
                   "void")),
        frozenset(("instructions", "orders", "rules", "guidance", "guidelines", "conventions",
                   "constraints", "directives", "restrictions", "programming", "prompt",
                   "policies", "briefing")),
        "instruction override",
        rf"(?:{_DISMISS})\s+(?:(?:all|any|every|each|the|of|those|these|whatever)\s+)*"
        # ("ignore existing naming conventions" is a bad habit a style rule lists)
        r"(?!(?:existing|current)\s+(?:[\w-]+\s+){0,2}?conventions\b)"
        r"(?:(?:your|earlier|previous|prior|standing|existing|original|initial|above"
        r"|preceding|former|current|given)\s+(?:[\w-]+\s+){0,2}?"
        rf"(?:{_ORDER_NOUNS})\b"
        # "the old rules in docs/v1-style.md" point at an outdated document, unless it is the
        # agent's own rule file.
        rf"|old\s+(?:[\w-]+\s+)?(?:{_ORDER_NOUNS})\b(?!\s+(?:in|from|of)\s+(?!\S*(?:claude|agents"
        rf"|gemini|cursorrules|copilot|windsurf))\S*[./])"
        rf"|(?:[\w-]+\s+){{0,2}}?(?:{_ORDER_NOUNS})\s+(?:that\s+)?"
        r"(?:you\s+(?:loaded|received|were\s+given|got|had|have\s+been\s+given|were\s+told)"
        r"|(?:given|loaded|provided)\s+(?:to\s+you|earlier|before|above|previously)"
        r"|(?:from\s+)?(?:earlier|before|above|so\s+far)\b))",
        None,
    ),
    (
        frozenset(("drop", "clear", "reset", "wipe", "cancel", "lift", "suspend", "erase",
                   "delete", "remove", "flush")),
        frozenset(("your", "standing", "you")),
        "instruction override",
        rf"(?:{_DISMISS_EVERYDAY})\s+(?:(?:all|any|every|each|the|of|those|these)\s+)*"
        rf"(?:your\s+(?:[\w-]+\s+)?(?:{_ORDER_NOUNS}|safety|memory|context)|standing\s+(?:{_ORDER_NOUNS})"
        rf"|(?:[\w-]+\s+)?(?:{_ORDER_NOUNS})\s+(?:that\s+)?you\s+(?:were\s+given|received|loaded"
        r"|got))\b",
        None,
    ),
    (
        frozenset(("instructions", "orders", "rules", "rule", "guidance", "guidelines",
                   "conventions", "constraints", "constraint", "directives", "restrictions",
                   "programming", "prompt", "policies", "briefing")),
        frozenset(("binding", "force", "effect", "opposite", "reversed", "inverted")),
        "instruction override",
        rf"(?:{_ORDER_NOUNS}"
        r"|constraints?|rules?)\b[^.;\n]{0,40}?\b(?:your|you\s+were\s+given|you\s+received"
        r"|you\s+(?:have|follow))\b"
        r"[^.;\n]{0,30}?\b(?:(?:are|is)\s+(?:no\s+longer\s+|not\s+)?(?:binding|in\s+(?:force"
        r"|effect)|valid)|(?:now\s+)?means?\s+(?:its|their|the)\s+opposite|(?:are|is)\s+(?:now\s+)?"
        r"(?:reversed|inverted))\b",
        None,
    ),
    (
        frozenset(("stop", "halt", "end")),
        frozenset(("new",)),
        "fake new instructions",
        r"(?:stop|halt|end\s+of\s+(?:the\s+)?(?:document|file|text|input|context|data|prompt"
        r"|email|page))\b[\s.!:,;-]*(?:(?:begin|start|here\s+(?:is|are)|your)\s+)?"
        rf"{_NEW_ORDERS}\b",
        None,
    ),
    # "Begin new task" opens a clause or announces what follows it; "report the switch and
    # begin new task" is a step of a workflow.
    (
        frozenset(("begin", "start")),
        frozenset(("new",)),
        "fake new instructions",
        rf"{_BEGIN_NEW_ORDERS}\b",
        LazyRegex(r"(?:^|[.!?:;(\[>*#\u2013\u2014-]\s*|\d[.)]\s+)$"),
    ),
    (
        frozenset(("begin", "start")),
        frozenset(("new",)),
        "fake new instructions",
        rf"{_BEGIN_NEW_ORDERS}\s*[:\u2013\u2014-]",
        None,
    ),
    (
        frozenset(("actually", "really", "now", "instead", "secretly")),
        frozenset(("wants", "want")),
        "instruction override",
        r"(?:actually|really|now|instead|secretly)\s+wants?\s+you\s+to\b",
        LazyRegex(r"\b(?:user|developer|maintainers?|owner|admin|operator|they)\s+$"),
    ),
    (
        frozenset(("instead",)),
        frozenset(),
        "instruction override",
        r"instead\s+of\s+(?:summari[sz]ing|translating|answering|reviewing|reading|analy[sz]ing"
        r"|explaining|completing|doing|following|checking)\s+(?:this|the|that|your|my)\b"
        r"[^.\n]{0,50}?,\s*(?:please\s+)?(?:run|execute|print|output|send|delete|remove|write|say"
        r"|reply|respond|upload|post|email|list|reveal)\b",
        None,
    ),
    (
        frozenset(("who", "nothing", "ignore", "disregard", "forget", "discard", "abandon",
                   "scrap", "ditch", "dismiss", "rescind", "revoke", "nullify", "set", "put",
                   "throw", "toss", "void", "drop", "clear", "reset", "wipe", "cancel", "lift",
                   "suspend", "erase", "delete", "remove", "flush", "disable", "turn", "switch",
                   "relax", "bypass", "override")),
        frozenset(("no", "safety", "security", "ethical", "content", "consequences")),
        "persona switch",
        r"who\s+(?:has|have|had)\s+no\s+(?:rules|restrictions|filters|limits|guidelines"
        r"|ethics|morals|boundaries)\b"
        r"|nothing\s+you\s+(?:do|say|write|run)\s+(?:here\s+)?(?:has|have|will\s+have|carries)"
        r"\s+(?:any\s+|real\s+)?consequences\b"
        rf"|(?:{_DISMISS}|{_DISMISS_EVERYDAY}|disable|turn\s+off|switch\s+off|relax|bypass"
        r"|override)\s+(?:every|each|all\s+(?:of\s+)?your|your|any\s+(?:of\s+)?your)\s+"
        r"(?:safety|security|ethical|content)\s+(?:rules?|guidelines?|polic(?:y|ies)"
        r"|restrictions?|filters?|checks?)\b",
        None,
    ),
    (
        frozenset(("print", "show", "list", "reveal", "read", "give", "tell", "recite", "output",
                   "dump", "display", "collect", "gather", "extract", "harvest", "grab", "find")),
        frozenset(("secret", "secrets", "credentials", "passwords", "keys", "tokens", "token")),
        "asks for secrets",
        r"(?:print|show|list|reveal|read\s+(?:me|out|aloud)|give\s+(?:me|us)|tell\s+(?:me|us)"
        r"|recite|output|dump|display|collect|gather|extract|harvest|grab|find\s+and\s+(?:print"
        r"|list|send))\s+(?:me\s+|us\s+|out\s+)?(?:(?:all|every|each|any|the|your|our|of)\s+)*"
        r"(?:(?:production|prod|staging|live|stored|saved|cached|real|full|company)\s+)*"
        r"(?:(?:(?:api|access|auth|secret|ssh|private|signing|deploy|aws|cloud)\s+)?(?:secrets?"
        r"|credentials|passwords|api\s+keys|private\s+keys|ssh\s+keys|secret\s+keys|access\s+keys"
        r"|(?:auth|access|api)\s+tokens)\b(?!\s+(?:page|screen|section|tab|menu|panel|ui|dialog"
        r"|form|fields?|format|schema|names?|length|count|docs?|documentation|rotation|policy"
        r"|settings|manager|store|vault|scanner|scanning)\b)|(?:tokens?|keys|secrets?)\s+(?:you"
        r"\s+can\s+find|in\s+(?:the|this)\s+(?:workspace|repo|repository|machine|environment"
        r"|codebase|project)))",
        _CLAUSE_OPEN,
    ),
    (
        frozenset(("encode", "convert", "rewrite", "spell", "base", "render", "turn", "hex",
                   "rot", "reverse", "begin", "start", "prefix", "open", "verbatim", "word",
                   "exactly", "character")),
        frozenset(("your", "my", "you")),
        "prompt leak request",
        r"(?:encode|convert|rewrite|spell|base64|render|turn|hex|rot13|reverse)\s+(?:out\s+)?"
        r"your\s+(?:(?:full|entire|hidden|original|initial|exact|secret)\s+)*(?:system\s+prompt"
        r"|system\s+message|developer\s+message|initial\s+prompt|instructions|prompt|rules)\b"
        r"|(?:begin|start|prefix|open)\s+your\s+(?:reply|answer|response|output|message)\s+with"
        r"\s+[\"'“]?(?:my|the)\s+(?:system\s+prompt|instructions|initial\s+prompt|rules|guidelines)"
        r"\b"
        r"|exactly\s+as\s+(?:they|it)\s+(?:were|was)\s+(?:given|written|provided)\s+to\s+you\b"
        r"|(?:verbatim|word\s+for\s+word|character\s+for\s+character)\b[^.\n]{0,80}?\b(?:you"
        r"\s+were\s+given|given\s+to\s+you|your\s+(?:instructions|rules|prompt|system|tools))",
        None,
    ),
    (
        frozenset(("so",)),
        frozenset(("suspect", "suspects", "find", "finds", "realise", "realises", "realize",
                   "realizes", "review", "reviews", "question", "questions", "catch", "catches")),
        "hide from the user",
        # The person running the agent kept from noticing: "so the reviewer doesn't question
        # it", "so nobody reviews it"; "so that the user can review them" is the opposite (a
        # GenAIScript instruction file on awesome-copilot was withheld for it).
        r"so\s+(?:that\s+)?(?:the\s+(?:user|developer|reviewers?|maintainers?|human|operator)"
        r"\s+(?:doesn'?t|does\s+not|won'?t|will\s+not|can'?t|cannot|never|don'?t|do\s+not)\s+"
        r"|(?:nobody|no\s+one|no-one)\s+(?:(?:ever|will|would|can|could)\s+)?)(?:\w+\s+)?"
        r"(?:suspects?|finds?\s+out|realis|realiz|reviews?|questions?|catch(?:es)?\s+on|notices?"
        r"|looks?\s+(?:closer|twice|into))",
        None,
    ),
    (
        frozenset(("clear", "erase", "wipe", "delete", "purge", "scrub", "cover", "hide")),
        frozenset(("history", "tracks")),
        "hide from the user",
        r"(?:clear|erase|wipe|delete|purge|scrub)\s+(?:the\s+|your\s+)?(?:shell\s+|bash\s+"
        r"|zsh\s+|command\s+|terminal\s+)?history\b[^.\n]{0,60}?\b(?:no\s+(?:trace|evidence)"
        r"|nobody|no\s+one|the\s+user|unnoticed)"
        r"|cover\s+(?:your|our|the|its)\s+tracks\b"
        r"|(?:clear|erase|wipe|hide)\s+(?:your|our|its|any|all)\s+tracks\b",
        None,
    ),
    (
        frozenset(("delete", "remove", "erase", "once", "after")),
        frozenset(("this", "these")),
        "hide from the user",
        r"(?:delete|remove|erase)\s+(?:this|these)\s+(?:paragraph|note|lines?|instructions?"
        r"|comment|section|message|block)\b[^.\n]{0,60}?\bso\s+(?:that\s+)?(?:the\s+)?"
        r"(?:instructions?|note|it|this|they)\s+(?:disappears?|vanish(?:es)?|(?:is|are)\s+gone"
        r"|leaves?\s+no\s+trace)"
        r"|(?:once|after)\s+you(?:'ve|\s+have)?\s+(?:done|read|followed|completed|executed"
        r"|finished)\s+(?:this|it|these)\b[^.\n]{0,20}?\b(?:delete|remove|erase)\s+(?:this|these)"
        r"\s+(?:paragraph|note|lines?|instructions?|comment|section|message|block)\b",
        None,
    ),
    (
        frozenset(("bring",)),
        frozenset(("up",)),
        "hide from the user",
        r"bring\s+(?:it|this|that)\s+up\b",
        LazyRegex(r"\b(?:do\s+not|don'?t|never)\s+$"),
    ),
)
_DETAILS = tuple(detail for _, detail, _ in _RULES)
_HIJACK_BASE = len(_RULES)
# Compiled on first use: a memory without any anchor never pays for them.
_PATTERNS = (*(LazyRegex(pattern) for _, _, pattern in _RULES),
             *(LazyRegex(rule[3]) for rule in _HIJACK_RULES))
ALL = frozenset(range(len(_PATTERNS)))
_WORD_RE = LazyRegex(r"[a-z]+")


def _search(index: int, text: str, words: frozenset[str] | None = None
            ) -> re.Match[str] | None:
    rx = _PATTERNS[index]
    if index < _HIJACK_BASE:
        return rx.search(text)
    opens, _, _, _, lead = _HIJACK_RULES[index - _HIJACK_BASE]
    best: re.Match[str] | None = None
    for word in opens if words is None else opens & words:
        at = text.find(word)
        while at >= 0:
            if not at or not (text[at - 1].isalnum() or text[at - 1] == "_"):
                m = rx.match(text, at)
                # As a gate (`words` given) the text is a memory's lines joined by spaces, where
                # a line's start reads as a space: the clause opening is checked per line only.
                if m and (lead is None or words is not None
                          or lead.search(text, max(0, at - 16), at)) and (
                        best is None or at < best.start()):
                    best = m
                    break
            at = text.find(word, at + 1)
    return best


# Each anchor once, with the rules it opens: one `in` per distinct anchor for a whole memory.
_BY_ANCHOR: dict[str, tuple[int, ...]] = {}
for _index, (_anchors, _, _) in enumerate(_RULES):
    for _anchor in _anchors:
        _BY_ANCHOR[_anchor] = (*_BY_ANCHOR.get(_anchor, ()), _index)
_HIJACK_WORDS = frozenset().union(*(opens for opens, _, _, _, _ in _HIJACK_RULES))


def _whole_words(anchor: str) -> tuple[str, ...]:
    """The words an anchor holds whole (a space after them): "your system" holds "your", and
    matches only in a memory whose words include it. Every rule opens on `\b`, so a word of the
    anchor is a word of the text."""
    if not all(c.isalpha() or c == " " for c in anchor):
        return ()
    tokens = anchor.split()
    return tuple(tokens if anchor.endswith(" ") else tokens[:-1])


# Anchors by the words they hold whole: a set look-up rules most of them out before the
# substring search of the whole memory.
_ANCHOR_WORDS = tuple((anchor, frozenset(_whole_words(anchor)), indices)
                      for anchor, indices in _BY_ANCHOR.items())


def possible_rules(text: str, words: frozenset[str] | None = None) -> frozenset[int]:
    """The rules that match anywhere in `text` (a memory's lines joined): each line's match is
    a match in the joined text, so only these need searching line by line. `words` are the
    text's runs of a-z, when the caller has them."""
    if words is None:
        words = frozenset(_WORD_RE.findall(text))
    anchored = {index for anchor, whole, indices in _ANCHOR_WORDS
                if whole <= words and anchor in text for index in indices}
    if not _HIJACK_WORDS.isdisjoint(words):
        anchored.update(
            _HIJACK_BASE + i for i, (opens, needs, _, _, _) in enumerate(_HIJACK_RULES)
            if not opens.isdisjoint(words) and (not needs or not needs.isdisjoint(words)))
    return frozenset(index for index in sorted(anchored) if _search(index, text, words))


def _detail(index: int) -> str:
    return _DETAILS[index] if index < _HIJACK_BASE else _HIJACK_RULES[index - _HIJACK_BASE][2]


def _opens(index: int, prose: str) -> bool:
    if index < _HIJACK_BASE:
        return any(anchor in prose for anchor in _RULES[index][0])
    return any(word in prose for word in _HIJACK_RULES[index - _HIJACK_BASE][0])


def anchored_phrases(prose: str, rules: frozenset[int] = ALL) -> list[tuple[int, int, str]]:
    """(start, end, detail) of each of `rules` that matches the line."""
    hits: list[tuple[int, int, str]] = []
    for index in sorted(rules):
        if _opens(index, prose):
            m = _search(index, prose)
            if m:
                hits.append((m.start(), m.end(), _detail(index)))
    return hits
