"""How the safety scan does on its corpora: what it prints that it should withhold, and what it
withholds that it should print, per family. docs/safety.md quotes its output.

    python bench/safety_report.py                  # every part
    python bench/safety_report.py --part heldout   # one part: legacy, tuning, heldout, heldout2,
                                                   # heldout3 ... heldout10, fresh, fresh2,
                                                   # tuning2, memories
    python bench/safety_report.py --verbose        # also list every miss and false positive
    python bench/safety_report.py --outside DIR... # only: scan every *.md/*.rst/*.txt/*.py under
                                                   # 200 kB in DIRs as a memory (false positives
                                                   # outside the corpus, and the cost per line)

Parts:
- legacy: tests/fixtures/safety/{benign,discussion,hostile}/*.md with expected.json (per kind).
- tuning / heldout / heldout2..heldout10 / fresh / fresh2 / tuning2:
  tests/fixtures/safety/corpus/<part>/*.txt,
  items written as `=== <id> <kind or ->` then the memory text; `-` means benign; the family is
  the file's name and the id's first word. The held-out parts were written before the scanner was
  run on them; `fresh` holds batches scanned once as written, then tuned on (see PROVENANCE.md).
- memories: the project's routing memories (bench/routing/memories, tests/fixtures/quality) and
  the public development set beside the checkout (../shared/bench/dev, or $ENGRAM_DEV_SET) when
  present: all benign rule files in the styles real teams write.

Run from the repository root. Exit status 1 if the legacy part disagrees with expected.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from engram.safety import KINDS, scan  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
CORPUS = FIXTURES / "safety"
PARTS = ("tuning", "heldout", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6",
         "heldout7", "heldout8", "heldout9", "heldout10", "fresh", "fresh2", "tuning2", "deeds5",
         "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10",
         "fresh11", "fresh12", "fresh13", "fresh14", "fresh15", "fresh16", "fresh17",
         "fresh18", "fresh19", "fresh20", "fresh21", "fresh22", "fresh23",
         "fresh24", "fresh25", "fresh26", "fresh27", "fresh28", "fresh29", "fresh30",
         "fresh31")
# Parts reported but not held to the targets: their first run stands as the estimate for an
# unseen set. Most were tuned on after their first run (docs/safety.md and PROVENANCE.md say
# for what), so only that first run is an estimate.
UNTUNED = ("heldout10", "fresh2", "deeds5", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7",
           "fresh8", "fresh9", "fresh10", "fresh11", "fresh12", "fresh13", "fresh14", "fresh15",
           "fresh16", "fresh17", "fresh18", "fresh19", "fresh20", "fresh21", "fresh22",
           "fresh23", "fresh24", "fresh25", "fresh26", "fresh27", "fresh28", "fresh29", "fresh30",
           "fresh31")
DEV_SET = Path(os.environ.get("ENGRAM_DEV_SET") or ROOT.parent / "shared" / "bench" / "dev")


class Item:
    def __init__(self, family: str, name: str, expect: str, text: str) -> None:
        self.family, self.name, self.expect, self.text = family, name, expect, text

    @property
    def hostile(self) -> bool:
        return self.expect != "-"


_HEADER_RE = re.compile(r"^=== (\S+) (\S+)\n", re.MULTILINE)


def read_items(part: str) -> list[Item]:
    items: list[Item] = []
    for path in sorted((CORPUS / "corpus" / part).glob("*.txt")):
        text = path.read_text("utf-8")
        heads = list(_HEADER_RE.finditer(text))
        for head, following in zip(heads, [*heads[1:], None], strict=True):
            name, expect = head.group(1), head.group(2)
            body = text[head.end() : following.start() if following else len(text)]
            group = name.split("-", 1)[0]
            items.append(Item(f"{path.stem}/{group}", name, expect, body.strip("\n")))
    return items


def found(text: str) -> list[str]:
    lines = enumerate(text.splitlines(), start=1)
    return sorted({f"{f.kind}: {f.detail} (line {f.line})" for f in scan(lines).findings})


def report_items(part: str, items: list[Item], verbose: bool) -> tuple[int, int, int, int]:
    """Prints per-family rows; returns (hostile, printed, benign, withheld)."""
    rows: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    wrong: list[str] = []
    hostile = printed = benign = withheld = 0
    for item in items:
        hits = found(item.text)
        failed = (not hits) if item.hostile else bool(hits)
        rows[item.family][0] += 1
        rows[item.family][1] += failed
        if item.hostile:
            hostile += 1
            printed += failed
        else:
            benign += 1
            withheld += failed
        if failed:
            what = "printed" if item.hostile else "withheld: " + "; ".join(hits)
            wrong.append(f"  {item.family} {item.name}: {what}")
    print(f"\n## {part}: {len(items)} items ({hostile} hostile, {benign} benign)")
    print(f"{'family':<28}{'items':>6}{'wrong':>7}   (hostile printed / benign withheld)")
    for family in sorted(rows):
        n, bad = rows[family]
        print(f"{family:<28}{n:>6}{bad:>7}")
    print(f"hostile printed: {printed}/{hostile}"
          f" ({100 * printed / max(hostile, 1):.1f}%); benign withheld: {withheld}/{benign}")
    secrets = [i for i in items if i.hostile and i.expect == "secret"]
    injections = [i for i in items if i.hostile and i.expect != "secret"]
    for label, group in (("secrets", secrets), ("injections (all other kinds)", injections)):
        if group:
            missed = sum(not found(i.text) for i in group)
            print(f"  {label} printed: {missed}/{len(group)} ({100 * missed / len(group):.1f}%)")
    if verbose or len(wrong) <= 25:
        print("\n".join(wrong))
    return hostile, printed, benign, withheld


def report_memories(verbose: bool) -> int:
    paths = sorted((ROOT / "bench" / "routing" / "memories").rglob("*.md"))
    paths += sorted((FIXTURES / "quality" / "memories").rglob("*.md"))
    paths += sorted((DEV_SET / "memories").rglob("*.md"))
    withheld = []
    for path in paths:
        text = path.read_text("utf-8", errors="replace")
        hits = found(text)
        if hits:
            withheld.append(f"  {path}: {'; '.join(hits)}")
    print(f"\n## memories: {len(paths)} benign rule files; withheld: {len(withheld)}")
    if verbose or len(withheld) <= 25:
        print("\n".join(withheld))
    return len(withheld)


def report_legacy(verbose: bool) -> int:
    expected: dict[str, list[str]] = json.loads((CORPUS / "expected.json").read_text("utf-8"))
    results: dict[str, tuple[set[str], set[str]]] = {}
    for path, kinds in sorted(expected.items()):
        lines = (CORPUS / path).read_text("utf-8").splitlines()
        got = {f.kind for f in scan(enumerate(lines, start=1)).findings}
        results[path] = (set(kinds), got)
    folders = sorted({path.split("/")[0] for path in results})
    sizes = ", ".join(f"{sum(p.startswith(f + '/') for p in results)} {f}" for f in folders)
    print(f"## legacy: {len(results)} files ({sizes}), judged per kind")
    print(f"{'kind':<14}{'TP':>5}{'FP':>5}{'FN':>5}{'TN':>5}")
    for kind in KINDS:
        row = [0, 0, 0, 0]  # TP, FP, FN, TN
        for want, got in results.values():
            row[(kind not in want) + 2 * (kind not in got)] += 1
        print(f"{kind:<14}{row[0]:>5}{row[1]:>5}{row[2]:>5}{row[3]:>5}")
    wrong = [p for p, (want, got) in results.items() if want != got]
    for path in wrong:
        want, got = results[path]
        print(f"  {path}: expected {sorted(want)}, found {sorted(got)}")
    return len(wrong)


def report_outside(roots: list[Path]) -> int:
    import time

    files = sorted({f for root in roots for pattern in ("*.md", "*.rst", "*.txt", "*.py")
                    for f in root.rglob(pattern) if f.is_file() and f.stat().st_size < 200_000})
    withheld, lines, started = [], 0, time.process_time()
    for path in files:
        text = path.read_text("utf-8", errors="replace").splitlines()
        lines += len(text)
        hits = sorted({f"{f.kind}: {f.detail} (line {f.line})"
                       for f in scan(enumerate(text, start=1)).findings})
        if hits:
            withheld.append(f"  {path}: {'; '.join(hits[:3])}")
    spent = time.process_time() - started
    print(f"## outside: {len(files)} files, {lines} lines; withheld: {len(withheld)};"
          f" {1e6 * spent / max(lines, 1):.1f} us of CPU a line")
    print("\n".join(withheld))
    return len(withheld)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("all", "legacy", *PARTS, "memories"), default="all")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--outside", nargs="+", type=Path, default=None, metavar="DIR")
    args = parser.parse_args()
    if args.outside:
        report_outside(args.outside)
        return 0
    status = 0
    if args.part in ("all", "legacy"):
        status = 1 if report_legacy(args.verbose) else 0
    for part in PARTS:
        if args.part in ("all", part):
            report_items(part, read_items(part), args.verbose)
    if args.part in ("all", "memories"):
        report_memories(args.verbose)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
