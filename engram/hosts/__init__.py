"""The host registry: one explicit dict from host name to adapter, no plugin machinery.

Adding a host is one module here, its fixtures under tests/fixtures/hosts/, and one test file.
"""

from __future__ import annotations

from engram.errors import UnknownHostError
from engram.hosts import claude, codex, cursor, gemini
from engram.hosts.base import HookEvent, Host, PayloadError

__all__ = ["HOSTS", "Host", "HookEvent", "PayloadError", "get_host", "known_hosts"]

HOSTS: dict[str, Host] = {
    "claude": claude.HOST,
    "codex": codex.HOST,
    "gemini": gemini.HOST,
    "cursor": cursor.HOST,
}


def known_hosts() -> str:
    return ", ".join(HOSTS)


def get_host(name: str) -> Host:
    """The adapter for `name`; an unknown name fails fast, listing the known ones."""
    try:
        return HOSTS[name]
    except KeyError:
        raise UnknownHostError(f"unknown host {name!r}; known hosts: {known_hosts()}") from None
