"""The robustness figures: the fuzz, concurrency and bad-input test families run at a larger scale,
with what each tried counted and summed per family.

    python bench/reliability.py              # 10x the examples and kill iterations of the tests
    python bench/reliability.py --scale 3    # quicker

It runs pytest on tests/test_fuzz.py, tests/test_concurrency.py and tests/test_bad_input.py with
ENGRAM_FUZZ_SCALE (examples per property, kill-loop iterations, parallel sessions) and
ENGRAM_RELIABILITY_LOG (where the tests append their counts); docs/reliability.md quotes the table.
A failing test is a crash, a lost or a duplicated delivery: the run exits 1 and names it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = ("tests/test_fuzz.py", "tests/test_concurrency.py", "tests/test_bad_input.py")


def run(scale: float) -> tuple[int, dict[str, dict[str, int]], str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "counts.jsonl"
        env = {**os.environ, "ENGRAM_FUZZ_SCALE": str(scale), "ENGRAM_RELIABILITY_LOG": str(log)}
        started = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               "-rfEs", *FILES], cwd=ROOT, env=env, capture_output=True,
                              text=True)
        elapsed = time.perf_counter() - started
        totals: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        if log.exists():
            for line in log.read_text(encoding="utf-8").splitlines():
                entry = json.loads(line)
                family = entry.pop("family")
                for key, value in entry.items():
                    totals[family][key] += int(value)
    return proc.returncode, totals, proc.stdout, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=10.0,
                        help="multiplier on the tests' example counts (default 10)")
    args = parser.parse_args()
    code, totals, output, elapsed = run(args.scale)
    print(f"scale {args.scale:g}: pytest exit {code}, {elapsed:.0f} s")
    width = max((len(f) for f in totals), default=10)
    for family in sorted(totals):
        counts = ", ".join(f"{key} {value}" for key, value in totals[family].items())
        print(f"{family:<{width}}  {counts}")
    summary = [line for line in output.splitlines() if line.startswith(("FAILED", "ERROR",
                                                                        "SKIPPED"))]
    failures = [line for line in summary if not line.startswith("SKIPPED")]
    for line in summary:
        print(line)
    print(f"failing tests (crashes, lost or duplicated deliveries): {len(failures)}")
    if code not in (0, 5) and not failures:
        print(output[-3000:])
    return 0 if code == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
