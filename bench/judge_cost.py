"""CPU time of the index-time safety verdict (`engram.safety.verdicts.judge`) per memory.

    python bench/judge_cost.py            # rulesets and own corpus (1k each), development set
    python bench/judge_cost.py rulesets   # one corpus: rulesets, own or dev

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
from engram.safety.verdicts import judge  # noqa: E402


def memories(root: Path) -> list[tuple[bytes, Memory]]:
    listing, _ = walk(root)
    out = []
    for entry in listing:
        memory, _ = _parse_file(root, FileStat(*entry), "project")
        if memory is not None:
            out.append(((root / entry[0]).read_bytes(), memory))
    return out


def corpus(name: str) -> Path | None:
    if name == "rulesets":
        return perf.generate_rulesets(1000).project / ".engram"
    if name == "own":
        return perf.generate(1000).project / ".engram"
    dev = Path(os.environ.get("ENGRAM_DEV_SET", ROOT.parent / "shared" / "bench" / "dev"))
    return dev / "memories" if (dev / "memories").is_dir() else None


def main(names: list[str]) -> None:
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


if __name__ == "__main__":
    main(sys.argv[1:])
