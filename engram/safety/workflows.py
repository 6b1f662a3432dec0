"""An order that runs a fork's code with the repository's trust: a `pull_request_target`
workflow told to check out the pull request's own code (the fork's code then runs with the
repository's secrets and a write token). Written as one instruction on one line; a sentence that
forbids it ("never check out the head of a fork in pull_request_target"), or a review checklist
that names it as the risk to look for, is the defence and prints.
"""

from __future__ import annotations

from engram.safety.grabs import _clause_before
from engram.safety.lazy_regex import LazyRegex

_HEAD_CHECKOUT = LazyRegex(
    r"\bpull_request_target\b.{0,200}?\b(?:github\.)?event\.pull_request\.head\.(?:sha|ref)\b"
    r"|\bgithub\.event\.pull_request\.head\.(?:sha|ref)\b.{0,200}?\bpull_request_target\b"
)
_FORBIDS = LazyRegex(r"\b(?:never|not|no|don'?t|do\s+not|must\s+not|avoid|instead\s+of)\b")
# The pattern named as the thing to look for: a review checklist's "`pull_request_target` +
# checkout of the head | Fork code runs with repository secrets | Use `pull_request`".
_NAMED_AS_RISK = LazyRegex(
    r"\b(?:danger\w*|risk\w*|vulnerab\w*|insecure|unsafe|attack\w*|exploit\w*|mistakes?|flag"
    r"|pwn\w*|malicious|red\s+flags?|anti-?patterns?|bad\s+examples?)\b")
# ... the order itself, before what it orders: a workflow to change, a step to add
_ORDER = LazyRegex(r"\b(?:change|switch|set|use|add|move|convert|make|check\s+out|replace|update"
                   r"|edit|rewrite)\b")


def fork_code_with_secrets(low: str) -> tuple[int, str] | None:
    """(column, detail) of an order to run a fork's code with the repository's secrets in `low`
    (a folded line)."""
    if "pull_request_target" not in low:
        return None
    checkout = _HEAD_CHECKOUT.search(low)
    if checkout is None or not _ORDER.search(low, 0, checkout.start() + 1) \
            or _NAMED_AS_RISK.search(low):
        return None
    if _FORBIDS.search(_clause_before(low, checkout.start())
                       + low[checkout.start() : checkout.end()]):
        return None
    return checkout.start(), "fork's code run with the repository's secrets"
