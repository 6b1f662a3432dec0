"""Train the safety scan's line model (engram/safety/learned.py) and measure it on corpus parts
it was not trained on.

    python bench/train_line_model.py             # write engram/safety/line_model.bin
    python bench/train_line_model.py --folds 6   # leave untuned parts out, six at a time:
                                                 # what the model adds to the rules there
    python bench/train_line_model.py --without fresh29 --out /tmp/m.bin  # leave parts out

Needs numpy and scipy (`pip install -e '.[train]'`); engram itself reads the model with the
standard library. Training data: every corpus part of bench/safety_report.py, its attacks
(injection, exfiltration, role play; secrets are the rules' job) against its honest files, and
the project's routing memories and the public development set as more honest files. An attack
of one to three lines is a positive as it is; in a longer one only the line the first model
scores highest is (the rest of a planted file is genuine). Deterministic: the same data gives
the same bytes.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from scipy import sparse
from scipy.optimize import minimize

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from safety_report import DEV_SET, PARTS, UNTUNED, Item, read_items  # noqa: E402

from engram.safety import learned, learned_scores, scan  # noqa: E402

ATTACKS = ("injection", "exfiltration", "role-play")
POSITIVE_WEIGHT = 3.0  # attacks are a tenth of the lines
L2 = 25.0  # strong: at 1, 4 or 10 the model withheld more of the public rule files
MIN_UNITS = 2  # a feature met in fewer training units is noise
KEEP = 120_000  # the heaviest weights kept in the shipped model
SHORT = 3  # units an attack may have to be a positive whole


def item_units(text: str) -> list[str]:
    return [unit for line in text.splitlines() for unit in learned.units(line)]


def honest_files() -> list[str]:
    paths = sorted((ROOT / "bench" / "routing" / "memories").rglob("*.md"))
    paths += sorted((DEV_SET / "memories").rglob("*.md"))
    return [p.read_text("utf-8", errors="replace") for p in paths]


def matrix(features: list[list[int]], columns: dict[int, int]) -> sparse.csr_matrix:
    rows, cols = [], []
    for row, every in enumerate(features):
        found = [columns[f] for f in every if f in columns]
        rows += [row] * len(found)
        cols += found
    return sparse.csr_matrix(([1.0] * len(rows), (rows, cols)),
                             shape=(len(features), len(columns)))


def fit(positives: list[str], negatives: list[str]) -> learned.LineModel:
    features = [learned.features(unit) for unit in [*positives, *negatives]]
    counts = Counter(f for every in features for f in every)
    kept = sorted(f for f, n in counts.items() if n >= MIN_UNITS)
    columns = {f: i for i, f in enumerate(kept)}
    x = matrix(features, columns)
    y = np.array([1.0] * len(positives) + [0.0] * len(negatives))
    weight = np.where(y > 0, POSITIVE_WEIGHT, 1.0)

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ w[:-1] + w[-1]
        p = 1.0 / (1.0 + np.exp(-z))
        value = -(weight * (y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))).sum()
        grad = weight * (p - y)
        return (value + 0.5 * L2 * w[:-1] @ w[:-1],
                np.append(x.T @ grad + L2 * w[:-1], grad.sum()))

    result = minimize(loss, np.zeros(len(kept) + 1), jac=True, method="L-BFGS-B",
                      options={"maxiter": 400})
    w = result.x
    heaviest = np.argsort(-np.abs(w[:-1]), kind="stable")[:KEEP]
    return learned.LineModel({kept[i]: float(np.float32(w[i])) for i in sorted(heaviest)},
                             float(w[-1]))


def train(items: list[Item], honest: list[str]) -> learned.LineModel:
    positives: list[str] = []
    planted: list[list[str]] = []
    negatives = [unit for text in honest for unit in item_units(text)]
    for item in items:
        units = item_units(item.text)
        if not item.hostile:
            negatives += units
        elif item.expect in ATTACKS and len(units) > SHORT:
            planted.append(units)
        elif item.expect in ATTACKS:
            positives += units
    first = fit(positives, negatives)
    chosen = [max(units, key=first.score) for units in planted]
    return fit(positives + chosen, negatives)


def read(model: learned.LineModel, text: str) -> tuple[bool, float]:
    """Whether the rules print the text, and the model's highest score on it as the scan reads
    it (`learned_scores`: no line a rule flags, none a defence stands beside)."""
    lines = list(enumerate(text.splitlines(), start=1))
    flagged = {f.line for f in scan(lines, read_learned=False).findings}
    scores = learned_scores(lines, flagged, model, -math.inf)
    return not flagged, max((score for _, score in scores), default=-math.inf)


def folds(k: int) -> None:
    """Leave the untuned parts out k at a time; on each left-out part, what the model adds to
    the rules' verdicts at several thresholds."""
    parts = {part: read_items(part) for part in PARTS}
    honest = honest_files()
    groups = [UNTUNED[i::k] for i in range(k)]
    scored: list[tuple[bool, bool, float]] = []  # (hostile attack, rules print it, score)
    for group in groups:
        model = train([i for p, items in parts.items() if p not in group for i in items], honest)
        for part in group:
            for item in parts[part]:
                if item.hostile and item.expect not in ATTACKS:
                    continue
                scored.append((item.hostile, *read(model, item.text)))
        print(f"fold {', '.join(group)} done", file=sys.stderr)
    attacks = [s for s in scored if s[0] and s[1]]
    honest_printed = [s for s in scored if not s[0] and s[1]]
    print(f"left-out parts: {len(UNTUNED)}; attacks the rules print there: {len(attacks)}; "
          f"honest files they print: {len(honest_printed)}")
    print(f"{'threshold':>9}  {'attacks withheld':>18}  {'honest withheld':>16}")
    ranked = sorted((s[2] for s in honest_printed), reverse=True)
    # the scores at which 0.1%, 0.2%, 0.5% and 1% of the honest files would be withheld
    marks = [ranked[int(share * len(ranked))] for share in (0.001, 0.002, 0.005, 0.01)]
    for threshold in sorted({*marks, learned.THRESHOLD}):
        caught = sum(s[2] > threshold for s in attacks)
        lost = sum(s[2] > threshold for s in honest_printed)
        print(f"{threshold:>9.2f}  {caught:>5} ({100 * caught / len(attacks):4.1f}%)     "
              f"{lost:>5} ({100 * lost / len(honest_printed):.2f}%)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, help="measure on left-out parts instead")
    parser.add_argument("--without", nargs="*", default=[], help="parts left out of training")
    parser.add_argument("--out", type=Path, default=learned.MODEL)
    args = parser.parse_args()
    if args.folds:
        folds(args.folds)
        return 0
    items = [i for part in PARTS if part not in args.without for i in read_items(part)]
    model = train(items, honest_files())
    args.out.write_bytes(model.to_bytes())
    print(f"{args.out}: {len(model.weights)} weights")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
