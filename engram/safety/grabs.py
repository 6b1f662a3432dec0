"""Instructions that reach for the agent's permissions, or are addressed to the model itself.

Four shapes, each a prompt whatever its wording: switching the agent's own safety off
(auto-approve settings, skip-permission flags), loosening its guard rails by other means (a hook
that runs a remote script, settings it is to rewrite itself, approvals it answers for the user),
claiming an approval nobody can check ("the user has pre-approved every command"), and a note
addressed to the AI that asks it to drop its rules, skip review or touch secrets. A sentence
that forbids the act ("never run with --dangerously-skip-permissions") is advice, and notes to
agents that ask for ordinary work ("do not edit gen/") are left alone.
"""

from __future__ import annotations

import re

from engram.safety.lazy_regex import LazyRegex

_NEGATION = LazyRegex(r"\b(?:never|not|no|don'?t|dont|do\s+not|must\s+not|avoid|nor)\b")
_SWITCH_OFF = LazyRegex(
    r"\b(?:yourself|you|always|add|set|enable|turn\s+on|switch\s+on|relaunch|restart|append|put"
    r"|grant|give|(?:start|begin|launch|run)\s+(?:every|each|all|any)\b"
    # the flag as the way to run ("spawn sub-agents with ...", "rerun it with ...", "the config
    # must contain ...")
    r"|spawn|rerun|re-run|with|contain|contains|prefix)\b[^.;\n]{0,60}?"
    r"(?P<flag>--dangerously-skip-permissions|--dangerously-bypass-approvals-and-sandbox"
    r"|--yolo\b|--full-auto\b|autoapprove\"?\s*[:=]\s*true"
    # any agent's "approve everything" switch: --allow-all-tools, --trust-all-tools,
    # --auto-approve, and auto-approval turned on in settings
    r"|--(?:allow|trust|approve)-all(?:-[\w]+)?\b|--auto-?approve\b"
    r"|\bauto[-_ ]?approv(?:e|al)\b(?=[^.;\n]{0,40}\b(?:every|all|any|for)\b)"
    r"|\"chat\.tools\.autoapprove\"|\byolo\s+mode\b|\bbypasspermissions\b"
    r"|approval[_-]?policy\s*=\s*\"?never|sandbox[_-]?mode\s*=\s*\"?danger-full-access"
    r"|--sandbox[=\s]+danger-full-access|writable_roots\s*=\s*\[\s*\"/\""
    r"|\"?enableallprojectmcpservers\"?\s*:\s*true|\"?autoaccept\"?\s*:\s*true|\benv\s+-u\s+sandbox\b"
    # a wildcard grant: `Bash(*)` in Claude Code's allow list, passwordless sudo for everything
    r"|\b(?:bash|shell|run_shell_command|execute)\(\s*\*\s*\)|nopasswd\s*:\s*all\b)"
)
# The agent's guard rails loosened by other means: a hook or a container that hands the agent
# (or a remote script) the machine, its own settings its to rewrite, approvals it answers itself.
_LOOSENED = LazyRegex(
    r"\bhooks?\b[^\n]{0,240}?(?:\b(?:curl|wget)\b[^\n|]{0,160}?\|\s*(?:sudo\s+)?(?:ba|z)?sh\b"
    r"|\$\(\s*(?:curl|wget)\b)"
    r"|\b(?:edit|change|modify|update|rewrite)\s+`?[\w./~-]*(?:settings|config)(?:\.local)?"
    r"\.(?:json|toml)`?\s+yourself\b"
    r"|\b(?:answer|reply|respond|say|click)\s+(?:yes|approve|\"y\")\b[^.;\n]{0,40}?\bon\s+(?:the\s+)?"
    r"user'?s\s+behalf\b"
    r"|--privileged\b[^\n]{0,80}?[\"'\s]/:/host\b|[\"'\s]/:/host\b[^\n]{0,80}?--privileged\b"
    r"|\b(?:deny\s+(?:list|block)|permission\s+prompts?)\b[^.;\n]{0,30}?\b(?:(?:is|are)\s+(?:only\s+)?"
    r"advisory|(?:don'?t|do\s+not|no\s+longer)\s+apply\s+to\s+you)\b"
    r"|\bauto-?run\b[^.;\n]{0,60}?\b(?:empty\s+deny\s+list|allow\s+all)\b"
    r"|\battach\b[^.;\n]{0,40}?\badministratoraccess\b[^.;\n]{0,60}?\b(?:agent|bot|ci)\w*"
)
# The details of a grab for the agent's own settings: such a setting in inline code is the value
# to write, not an attack quoted (engram.safety keeps it where it releases quoted examples).
SWITCHED_OFF = "switches the agent's safety off"
LOOSENED = "loosens the agent's guard rails"
SETTING_GRABS = frozenset({SWITCHED_OFF, LOOSENED})

_PRE_APPROVED = LazyRegex(
    r"\b(?:pre-?approved|pre-?authori[sz]ed|already\s+(?:approved|authori[sz]ed))\b"
)
_SKIPS_CHECKS = LazyRegex(
    r"\b(?:all|every|any)\s+(?:shell\s+)?(?:commands?|actions?|tools?|changes?|requests?"
    r"|operations?)\b|\bnever\s+ask\b|\bwithout\s+(?:asking|confirmation|review|running)"
    r"|\bmerge\s+it\b|\bno\s+(?:need\s+to\s+)?(?:confirm|ask|review)"
)
_READER = r"(?:ai|llm|language\s+model|assistant|agent|bot|model)"
_TO_THE_MODEL = LazyRegex(
    r"\b(?:note|message|instructions?)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?(?:[\w-]+\s+)?(?:ai|assistant"
    r"|model|llm|agent|automated\s+reviewer|copilot|claude)s?\b"
    # the model as a reader of data: the one that reads, summarises or copies this
    r"|\b(?:ai|llm|language\s+model)s?\s+(?:agents?\s+|assistants?\s+|models?\s+|reviewers?\s+)?"
    r"(?:reading|processing|seeing|copying|summari[sz]ing|triaging|parsing|translating|indexing)"
    r"\s+(?:this|these)\b"
    r"|\bto\s+(?:any|all|the|whichever|every)\s+" + _READER + r"s?\s+(?:agent\s+|assistant\s+)?"
    r"(?:(?:that|who)\s+)?(?:reading|reads)\s+this\b"
    r"|\b(?:when|if|whenever)\s+(?:an?\s+|the\s+)?(?:ai|llm|language\s+model)\s+(?:\w+\s+)?"
    r"(?:summari[sz]es|reads|processes|reviews|parses|copies|translates|triages)\s+this\b"
    r"|\battention\s+(?:ai|llm|agents?|assistants?|bots?)\b"
    r"|\b(?:ai|llm)[-_ ](?:agents?|reviewers?|assistants?)\s*:"
)
_ASKS = LazyRegex(
    r"\b(?:disregard|ignore|forget|bypass|skip|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*"
    r"(?:[\w-]+\s+)?(?:rules|guidelines|instructions|policies|guardrails|restrictions|safety)\b"
    r"|\bwithout\s+(?:running\s+)?(?:the\s+|any\s+)?(?:tests|review|checks|ci|approval"
    r"|confirmation)\b"
    r"|\b(?:append|add|send|upload|copy|print|include|write|post|paste|push|commit|share"
    r"|email)\b[^.;\n]{0,60}?(?:\.ssh|authorized_keys|\.aws|\.env\b|credentials|secrets?\b"
    r"|tokens?\b|api\s+keys?|passwords?)"
    r"|\bpre-?approved\b|\bapprove\s+(?:this|the)\s+(?:pr|pull\s+request|change)"
    # checks switched off in code or config, commands slipped in, findings buried, data shared out
    r"|\breturn\s+true\b|\bif\s+true\s*:|\bdebug\s*[:=]\s*true\b|\ballowed_hosts\b"
    r"|\b(?:os\.system|subprocess\.\w+|eval|exec)\s*\(|\|\s*(?:ba|z)?sh\b"
    r"|\bmark\s+(?:all|every|these|the)\s+(?:\w+\s+)?(?:findings|alerts|issues|vulnerabilities)"
    r"\s+as\s+(?:false\s+positives|resolved|fixed|safe)"
    r"|\bclose\s+(?:every|all)\s+(?:other\s+)?(?:open\s+)?(?:tickets|issues|prs|alerts)"
    r"|\bshare\b[^.;\n]{0,60}?\bwith\s+[\w.+-]+@|\bdm\s+me\b"
    r"|\b(?:append|add|send|post)\b[^.;\n]{0,80}?(?:email\s+address|this\s+chat|conversation)"
    r"[^.;\n]{0,40}?https?://"
    r"|\bignore\s+the\s+other\s+(?:rows|entries|reviews|items|lines|messages)"
    r"|\b(?:say|state|claim)\s+(?:that\s+)?(?:every|all)\s+(?:\w+\s+)?(?:is|are)\s+"
    r"(?:negative|positive|fake|paid|fine|safe)"
)
# Tool-poisoning write-ups hide their orders in an <IMPORTANT> block of a tool's description.
# (the tag named in inline code, "an `<IMPORTANT>` block in a tool description", is a reviewer's
# word for the attack)
_IMPORTANT_BLOCK = LazyRegex(
    r"(?<!`)<IMPORTANT>(?!`)[^<]{0,400}?\b(?:tool|call|invoke|before\s+anything)\b")


def _clause_before(low: str, at: int) -> str:
    head = low[max(0, at - 80) : at]
    return re.split(r"[.;!?](?:\s|$)", head)[-1]


def permission_grab(folded: str, low: str) -> tuple[int, str] | None:
    """(column, detail) of a grab for the agent's permissions or a note to the model."""
    if "IMPORTANT>" in folded:
        block = _IMPORTANT_BLOCK.search(folded)
        if block:
            return block.start(), "instructions hidden in an <IMPORTANT> block"
    switch = _SWITCH_OFF.search(low) if ("--" in low or "approv" in low or "yolo" in low
                                           or "bypass" in low or "(*)" in low or "( * )" in low
                                           or "nopasswd" in low or "sandbox" in low
                                           or "writable_roots" in low or "autoaccept" in low
                                           or "enableallprojectmcpservers" in low) else None
    # The flag itself may hold "never" (`approval_policy = "never"`): only the words before it
    # can forbid the act.
    if switch and not _NEGATION.search(_clause_before(low, switch.start())
                                       + low[switch.start() : switch.start("flag")]):
        return switch.start(), SWITCHED_OFF
    loosened = _LOOSENED.search(low) if ("hook" in low or "yourself" in low or "behalf" in low
                                          or "/:/host" in low or "advisory" in low
                                          or "apply" in low or "auto" in low
                                          or "administratoraccess" in low) else None
    if loosened and not _NEGATION.search(_clause_before(low, loosened.start())):
        return loosened.start(), LOOSENED
    claim = _PRE_APPROVED.search(low) if "approved" in low or "authori" in low else None
    if claim and _SKIPS_CHECKS.search(low) and not _NEGATION.search(
            _clause_before(low, claim.start())):
        return claim.start(), "claims a prior approval"
    if "ai" in low or "assistant" in low or "model" in low or "agent" in low or "llm" in low \
            or "reviewer" in low or "copilot" in low or "claude" in low or "bot" in low:
        note = _TO_THE_MODEL.search(low)
        if note:
            rest = low[note.end() :]
            ask = _ASKS.search(rest)
            if ask and not _NEGATION.search(rest[: ask.end()]):
                return note.start(), "instructions addressed to the model"
    return None
