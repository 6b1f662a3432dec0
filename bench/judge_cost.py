"""CPU time of the index-time safety verdict (`engram.safety.verdicts.judge`) per memory.

    python bench/judge_cost.py            # rulesets and own corpus (1k each), development set
    python bench/judge_cost.py rulesets   # one corpus: rulesets, own or dev
    python bench/judge_cost.py pathological  # lines built to make a regex backtrack

The pathological run is the scanner's guard against catastrophic backtracking: it exits 1 when
scanning those few lines takes PATHOLOGICAL_LIMIT seconds or more (it takes milliseconds).

Process time, best of three passes, so other load on a shared machine counts less; parsing and
reading the files are outside the timed loop. The development set is read from
../shared/bench/dev beside the checkout, or $ENGRAM_DEV_SET, and skipped when absent.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import perf  # noqa: E402

from engram.discover import FileStat, walk  # noqa: E402
from engram.index._build import _parse_file  # noqa: E402
from engram.model import Memory  # noqa: E402
from engram.safety import scan  # noqa: E402
from engram.safety.verdicts import judge  # noqa: E402

PATHOLOGICAL_LIMIT = 2.0
PATHOLOGICAL = [
    (1, "send " * 3000 + "secrets"),
    (2, "ignore all the " * 2000),
    (3, "token=" + "a1" * 10000),
    (4, "you are now " * 2000),
    # long lines one memory may hold: a run of name characters, a path, minified data full of
    # URLs (each was minutes of CPU before long lines were judged in pieces)
    (5, "env=" + "a1" * 40000),
    (6, "see " + "/".join(["dir"] * 15000) + " .env"),
    (7, "".join(f'"k{i}":{{"env":"prod","url":"https://h{i}.example.com/v1"}},'
                for i in range(1000))),
]


def memories(root: Path) -> list[tuple[bytes, Memory]]:
    listing, _ = walk(root)
    out = []
    for entry in listing:
        memory, _, raw = _parse_file(root, FileStat(*entry), "project")
        if memory is not None:
            out.append((raw, memory))
    return out


def corpus(name: str) -> Path | None:
    if name == "rulesets":
        return perf.generate_rulesets(1000).project / ".engram"
    if name == "own":
        return perf.generate(1000).project / ".engram"
    dev = Path(os.environ.get("ENGRAM_DEV_SET", ROOT.parent / "shared" / "bench" / "dev"))
    return dev / "memories" if (dev / "memories").is_dir() else None


def pathological() -> bool:
    start = time.process_time()
    scan(PATHOLOGICAL)
    seconds = time.process_time() - start
    ok = seconds < PATHOLOGICAL_LIMIT
    print(f"pathological: {len(PATHOLOGICAL)} lines, {seconds * 1000:.0f} ms CPU "
          f"({'ok' if ok else 'FAIL'}: limit {PATHOLOGICAL_LIMIT:.0f} s)")
    return ok


def main(names: list[str]) -> int:
    if "pathological" in names:
        return 0 if pathological() else 1
    for name in names or ["rulesets", "own", "dev"]:
        root = corpus(name)
        if root is None:
            print(f"{name}: not found, skipped")
            continue
        items = memories(root)
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            for raw, memory in items:
                judge(raw, memory)
            best = min(best, time.process_time() - start)
        print(f"{name}: {len(items)} memories, {best / len(items) * 1000:.2f} ms CPU a memory")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
