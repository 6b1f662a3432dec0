"""The host registry: one explicit dict from host name to adapter, no plugin machinery.

Adding a host is one module here, its fixtures under tests/fixtures/hosts/, and one test file.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from engram.errors import UnknownHostError
from engram.hosts.base import HookEvent, Host, PayloadError

__all__ = ["HOSTS", "Host", "HookEvent", "PayloadError", "get_host", "known_hosts"]


class _Registry(Mapping[str, Host]):
    """Host name -> adapter, importing an adapter's module only when it is asked for: a hook
    serves one host, and the others' modules are import time on every prompt."""

    _MODULES = {"claude": "engram.hosts.claude", "codex": "engram.hosts.codex",
                "gemini": "engram.hosts.gemini", "cursor": "engram.hosts.cursor"}

    def __getitem__(self, name: str) -> Host:
        host: Host = importlib.import_module(self._MODULES[name]).HOST
        return host

    def __iter__(self) -> Iterator[str]:
        return iter(self._MODULES)

    def __len__(self) -> int:
        return len(self._MODULES)


HOSTS: Mapping[str, Host] = _Registry()


def known_hosts() -> str:
    return ", ".join(HOSTS)


def get_host(name: str) -> Host:
    """The adapter for `name`; an unknown name fails fast, listing the known ones."""
    try:
        return HOSTS[name]
    except KeyError:
        raise UnknownHostError(f"unknown host {name!r}; known hosts: {known_hosts()}") from None
