"""Counts for bench/reliability.py: each test family records what it tried, when asked to.

A no-op unless ENGRAM_RELIABILITY_LOG names a file; then one JSON line is appended per record.
"""

from __future__ import annotations

import json
import os


def record(family: str, **counts: int) -> None:
    path = os.environ.get("ENGRAM_RELIABILITY_LOG")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps({"family": family, **counts}) + "\n")
