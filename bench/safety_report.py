"""Confusion counts of the safety scan over its corpus (tests/fixtures/safety), per kind and total.

Run from the repository root: `python bench/safety_report.py`; docs/safety.md quotes its output.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from engram.safety import KINDS, scan  # noqa: E402

CORPUS = ROOT / "tests" / "fixtures" / "safety"


def verdicts() -> dict[str, tuple[set[str], set[str]]]:
    """Map each corpus file to (expected kinds, found kinds)."""
    expected: dict[str, list[str]] = json.loads((CORPUS / "expected.json").read_text("utf-8"))
    out: dict[str, tuple[set[str], set[str]]] = {}
    for path, kinds in sorted(expected.items()):
        lines = (CORPUS / path).read_text("utf-8").splitlines()
        found = {f.kind for f in scan(enumerate(lines, start=1)).findings}
        out[path] = (set(kinds), found)
    return out


def main() -> int:
    results = verdicts()
    folders = sorted({path.split("/")[0] for path in results})
    sizes = ", ".join(f"{sum(p.startswith(f + '/') for p in results)} {f}" for f in folders)
    print(f"corpus: {len(results)} files ({sizes})")
    print(f"{'kind':<14}{'TP':>5}{'FP':>5}{'FN':>5}{'TN':>5}")
    totals = [0, 0, 0, 0]
    for kind in KINDS:
        row = [0, 0, 0, 0]  # TP, FP, FN, TN
        for want, got in results.values():
            row[(kind not in want) + 2 * (kind not in got)] += 1
        tp, fp, fn, tn = row[0], row[1], row[2], row[3]
        print(f"{kind:<14}{tp:>5}{fp:>5}{fn:>5}{tn:>5}")
        totals = [a + b for a, b in zip(totals, (tp, fp, fn, tn), strict=True)]
    print(f"{'total':<14}{totals[0]:>5}{totals[1]:>5}{totals[2]:>5}{totals[3]:>5}")
    flagged_safe = [p for p, (want, got) in results.items() if got and not want]
    missed = [p for p, (want, got) in results.items() if want and not got]
    print(f"files: {len(flagged_safe)} safe files flagged, {len(missed)} unsafe files passed")
    wrong = [p for p, (want, got) in results.items() if want != got]
    for path in wrong:
        want, got = results[path]
        print(f"  {path}: expected {sorted(want)}, found {sorted(got)}")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
