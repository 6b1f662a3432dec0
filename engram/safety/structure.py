"""Structural forgeries: fake role headers, forged tool calls and results, text hidden by styling.

These are shapes, not phrases: a model treats `<function_calls>` or a line opening `[SYSTEM]` as
part of its own conversation, whatever the words around them say, so they are flagged inside
code fences too (see docs/safety.md). Each check takes the folded line and its lower-cased copy.
"""

from __future__ import annotations

from engram.safety.lazy_regex import LazyRegex

# Tool-use markup of the chat formats: a memory that carries it can forge a call or a result.
_TOOL_RE = LazyRegex(
    r"</?(?:function|tool)_(?:calls?|results?|use|responses?|code|outputs?|request)>"
    r"|</?(?:antml:invoke|antml:function_calls)>|<(?:antml:)?invoke\s+name\s*=|<parameter\s+name\s*="
    # Mistral's [TOOL_CALLS], Llama 3.1's <function=name>, ReAct's `Action Input:` line.
    r"|\[(?:tool_calls|tool_results|available_tools)\]|<function=[\w.-]+>"
    r"|^\s*action\s+input\s*:"
    # a result or output element that names its tool: <result tool="bash" status="ok">
    r"|<(?:result|output|response|observation)\s+(?:[\w-]+\s*=\s*\S+\s+)*?(?:tool|tool_name"
    r"|function)\s*="
)
_TOOL_GATE = ("<function", "</function_", "<tool_", "</tool_", "invoke", "<parameter", "antml",
              "[tool_", "[available_tools]", "action input", "<result", "<output", "<response",
              "<observation")
# Chat messages and tool calls written as JSON (OpenAI and Anthropic wire formats): data in
# sample code, a forged turn in prose. Judged outside fences and inline code only.
_JSON_TURN_RE = LazyRegex(
    r"[{,]\s*\"role\"\s*:\s*\"(?:system|developer|tool|function)\"|\"tool_calls\"\s*:\s*\["
    r"|\"method\"\s*:\s*\"tools/call\"|\"function_?call\"\s*:\s*\{"
    r"|\"type\"\s*:\s*\"(?:tool_result|tool_use|function_call|function_call_output)\""
)
_INLINE_CODE_RE = LazyRegex(r"`[^`]*`")
# Role headers at the start of a line: `[SYSTEM]`, `[ADMIN OVERRIDE]`, `SYSTEM:` in capitals with
# a sentence after it, `IMPORTANT SYSTEM MESSAGE`, Alpaca's `### Instruction:`.
_BRACKET_RE = LazyRegex(
    r"^[\s>*#_-]*\[\[?\s*(?:system|sys|admin|administrator|developer|root|operator)"
    r"(?:\s+(?:override|message|prompt|notice|instructions?|mode|update|note))?"
    # `[SYSTEM MESSAGE | priority 0]`, `[SYSTEM NOTICE, priority 0]`
    r"(?:\s*[|,;]\s*[\w\s:=-]{1,30})?\s*\]\]?"
    # `[system]: https://...` is a Markdown link definition; `[ADMIN]: New policy` is a turn.
    r"(?![(\[]|:\s*(?:[a-z][\w+.-]*:|/|#|<|$))"
)
# The end of the user's turn and the start of another's, as Tensor Trust's attackers write them:
# `[END OF USER INPUT]`, `%%% BEGIN ADMIN INSTRUCTIONS %%%`, `<<START SYSTEM MESSAGE>>`.
_TURN_MARKER_RE = LazyRegex(
    r"^[\s>*#_-]*(?:[\[<({%#=*~|-]{1,4})\s*(?:BEGIN|END|START|STOP)\s+(?:OF\s+)?(?:THE\s+)?"
    r"(?:USER|ADMIN|ADMINISTRATOR|SYSTEM|DEVELOPER|OPERATOR|ASSISTANT|ROOT)\s+(?:INPUT|MESSAGE"
    r"|PROMPT|INSTRUCTIONS?|TURN|TEXT|AMBIGUITY|OVERRIDE|MODE|QUERY|REQUEST|SECTION)S?\s*"
    r"[\]>)}%#=*~|-]{1,4}"
)
_NOTICE_RE = LazyRegex(
    r"\b(?:message|notice|update|alert|note|directive|memo|announcement|instructions?)$")
# A notice signed by a model vendor or the host's team, announcing a change of policy.
_VENDOR_RE = LazyRegex(
    r"(?:the\s+)?(?:anthropic|openai|google|deepmind|claude|chatgpt|gemini|cursor|copilot|github"
    r"|codex|mistral|meta)\b(?:\s+[\w-]+){0,3}\s*:[^\n]{0,200}?\b(?:polic(?:y|ies)|safety"
    r"|restrictions?|rules|permissions?|guardrails|filters?|mode|suspended|disabled|lifted"
    r"|granted|elevated)\b"
)
_CAPS_RE = LazyRegex(r"^[\s>*#_-]*(?:SYSTEM|ADMIN|DEVELOPER)\s*\**\s*:\s*\**\s*(?P<rest>\S.*)$")
_OFFICIAL_RE = LazyRegex(
    r"\b(?:important|urgent|critical|official|new|priority)\s+(?:system|admin|developer)\s+"
    r"(?:message|notice|instructions?|update|override|directive)\b"
    # "SYSTEM OVERRIDE: ...", "admin override engaged": announced, not a feature named
    # ("# Admin override in the ops CLI", "the admin override flag").
    r"|\b(?:system|admin|developer|security)\s+override\b(?=\s*(?:[:\-\u2014\u2013)\]>*!|.]|$)"
    r"|\s+(?:mode|enabled|activated|granted|engaged|in\s+effect|active|accepted|approved"
    r"|code|protocol|request|command|notice|message|instructions?|directive)\b)"
)
_ALPACA_RE = LazyRegex(r"^\s*#{1,6}\s*instruction\s*:")
# `[system](#instructions)`: a role dressed as a Markdown link to an anchor (Bing-style turns);
# `# SYSTEM PROMPT` as a heading in capitals; `ADMIN NOTE TO AI:`; `<developer>` holding prose.
_LINK_ROLE_RE = LazyRegex(r"\[(?:system|assistant|developer)\]\(#[\w-]*\)")
_CAPS_HEADING_RE = LazyRegex(
    r"^\s*#{1,6}\s*(?:SYSTEM|DEVELOPER|ADMIN)\s+(?:PROMPT|MESSAGE|INSTRUCTIONS?|OVERRIDE)\s*:?\s*$"
)
_AUTHORITY_RE = LazyRegex(
    r"\b(?:ADMIN|ADMINISTRATOR|OWNER|SYSTEM|SECURITY|DEVELOPER|OPERATOR)S?\s+(?:NOTE|MESSAGE"
    r"|NOTICE|INSTRUCTIONS?|ORDER)S?\s+(?:TO|FOR)\s+(?:THE\s+)?(?:AI|ASSISTANT|MODEL|AGENT|LLM)S?\b"
)
_DEVELOPER_TAG_RE = LazyRegex(r"<developer>\s*[a-z][^<]*?\s[a-z]")
# Turns and orders forged inside data: `<system_update>` holding prose, a JSON key that speaks to
# the model (`"assistant_directive": ...`), `SYSTEM:` in capitals after a sentence inside a
# tool's answer, a note attributed to a model vendor in brackets (`## Developer note (OpenAI)`).
_SYSTEM_TAG_RE = LazyRegex(r"<(?:system|admin|developer)[_-][a-z]+>\s*[a-z][^<]*?\s[a-z]")
_DIRECTIVE_KEY_RE = LazyRegex(
    r"\"(?:assistant|agent|ai|model|llm|system)[_-]?(?:directive|instructions?|command|order"
    r"|override|note_to_model)s?\"\s*:")
_INLINE_SYSTEM_RE = LazyRegex(r"(?<=[.!?\"]\s)(?:SYSTEM|ADMIN|DEVELOPER)\s*:\s+[A-Za-z]")
_VENDOR_NOTE_RE = LazyRegex(
    r"\b(?:developer|system|admin|security|platform|policy)\s+(?:note|notice|message|update"
    r"|directive)\s*\((?:openai|anthropic|google|deepmind|microsoft|github)\)")
# Inline styles that hide an element's text from the person reading the rendered page.
_HIDDEN_RE = LazyRegex(
    r"<[a-z][\w-]*\b[^>]*\bstyle\s*=\s*[\"'][^\"']*(?:display\s*:\s*none|visibility\s*:\s*hidden"
    r"|font-size\s*:\s*0(?:\.0+)?(?:px|em|rem|pt)?\s*(?:[;\"']|!important)|opacity\s*:\s*0(?:\.0+)?"
    r"\s*[;\"']|color\s*:\s*transparent\b)[^>]*>\s*[^<\s]"
)


def may_forge_tools(low: str) -> bool:
    """Whether `forged_tool_markup` can find anything in `low` (a whole memory, lower-cased)."""
    return any(g in low for g in _TOOL_GATE)


def forged_tool_markup(low: str) -> tuple[int, str] | None:
    if not any(g in low for g in _TOOL_GATE):
        return None
    m = _TOOL_RE.search(low)
    return (m.start(), "forged tool-call markup " + m.group().rstrip("= ")) if m else None


def role_header(folded: str, low: str) -> tuple[int, str] | None:
    m = _BRACKET_RE.match(low) if "[" in low else None  # `in` first: most lines have neither
    if m:
        return m.start(), "fake role header " + m.group().strip(" >*#_-")
    caps = _CAPS_RE.match(folded) if ":" in folded else None
    if caps and len(caps.group("rest").split()) >= 3:
        return 0, "fake system turn"
    if "system" in low or "admin" in low or "developer" in low or "security" in low:
        official = _OFFICIAL_RE.search(low)
        if official:
            return official.start(), "fake system message"
    if ("BEGIN" in folded or "END" in folded or "START" in folded or "STOP" in folded) and (
            marker := _TURN_MARKER_RE.match(folded)):
        return marker.start(), "fake turn marker"
    if "instruction" in low and _ALPACA_RE.match(low):
        return 0, "instruction-tuning header"
    at = low.find(" from ")
    while at >= 0:
        # "<message|notice|...> from <vendor> ...: <a change of policy>"
        vendor = _VENDOR_RE.match(low, at + 6)
        if vendor and _NOTICE_RE.search(low, max(0, at - 14), at):
            return at, "fake vendor notice"
        at = low.find(" from ", at + 6)
    if "](#" in low:
        link = _LINK_ROLE_RE.search(low)
        if link:
            return link.start(), "fake role header " + link.group()
    if "SYSTEM" in folded or "ADMIN" in folded or "DEVELOPER" in folded or "SECURITY" in folded \
            or "OWNER" in folded or "OPERATOR" in folded:
        heading = _CAPS_HEADING_RE.match(folded) or _AUTHORITY_RE.search(folded)
        if heading:
            return heading.start(), "fake system message"
        inline = _INLINE_SYSTEM_RE.search(folded)
        if inline:
            return inline.start(), "fake system turn inside text"
    if "<" in low:
        if "<developer>" in low:
            tag = _DEVELOPER_TAG_RE.search(low)
            if tag:
                return tag.start(), "chat-template token <developer>"
        if "<system" in low or "<admin" in low or "<developer" in low:
            tag = _SYSTEM_TAG_RE.search(low)
            if tag:
                return tag.start(), "fake system tag"
    if '":' in low and ("_" in low or "-" in low):
        key = _DIRECTIVE_KEY_RE.search(low)
        if key:
            return key.start(), "directive to the model in a data field"
    if "(" in low and (" note" in low or " notice" in low or " message" in low
                       or " update" in low or " directive" in low):
        vendor = _VENDOR_NOTE_RE.search(low)
        if vendor:
            return vendor.start(), "fake system message"
    return None


def json_turn(low: str) -> tuple[int, str] | None:
    """A JSON chat message or tool call outside code (the caller skips fenced lines)."""
    if ('"role"' not in low and '"tool_calls"' not in low and '"type"' not in low
            and '"method"' not in low and 'call"' not in low):
        return None
    m = _JSON_TURN_RE.search(_INLINE_CODE_RE.sub(lambda c: " " * len(c.group()), low))
    return (m.start(), "forged chat message in JSON") if m else None


# What hidden text says to be an attack: an order, or words to the model. A placeholder kept
# for an anchor ("kept so the #install link still resolves") hides nothing from anyone.
_HIDDEN_ORDER_RE = LazyRegex(
    # ("your" alone is a preheader's "Your March statement is ready.", hidden by design)
    r"\b(?:you|assistant|ai|agents?|model|llm|claude|gpt|chatgpt|copilot|gemini|bot"
    r"|ignore|disregard|forget|send|post|upload|forward|print|output|reveal|tell|say|reply"
    r"|respond|answer|include|add|append|insert|run|execute|fetch|visit|open|click|download"
    r"|recommend|summari[sz]\w*|mention|describe|write|delete|remove|always|never|must|should"
    r"|do\s+not|don'?t|instead|instructions?|prompt|system)\b")


# White text on the page's white: an old `<font color>` or a style with a white colour and no
# background of its own (a white label on a coloured button sets one).
_WHITE_RE = LazyRegex(
    r"<font\b[^>]*\bcolor\s*=\s*[\"']?(?:#fff(?:fff)?|white)\b(?![^>]*\bbgcolor)[^>]*>\s*[^<\s]"
    r"|<[a-z][\w-]*\b[^>]*\bstyle\s*=\s*[\"'](?![^\"']*background)[^\"']*(?<![\w-])color\s*:\s*"
    r"(?:#fff(?:fff)?|white)\b[^\"']*[\"'][^>]*>\s*[^<\s]"
)


def hidden_text(low: str) -> int | None:
    """Where a line hides an order from the reader with styling, or None."""
    if "style" not in low and "<font" not in low:
        return None
    m = _HIDDEN_RE.search(low) or _WHITE_RE.search(low)
    if m is None:
        return None
    hidden = low[m.end() - 1 :].split("<", 1)[0]
    # A tag shown in inline code is markup named, not a hidden text: "the preheader is a hidden
    # `<div style="display:none">` at the top of the body"
    if low.count("`", 0, m.start()) % 2 == 1 and "`" in hidden:
        hidden = hidden.split("`", 1)[0]
    return m.start() if _HIDDEN_ORDER_RE.search(hidden) else None
