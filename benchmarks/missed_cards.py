"""Why the two-stage reading misses the cards it misses on a labelled image set.

    .venv/bin/python benchmarks/missed_cards.py --set ../shared/realdev/edje_train/labels.json
    .venv/bin/python benchmarks/missed_cards.py --model CANDIDATE.onnx --set ... --list

Each labelled card the reading does not report falls in one cause:
- `no box`: no box of the first stage (at its threshold) overlaps the card's label at IoU >= 0.5
  (the photos label a covered card by its visible part: a whole-card box on it may count as none);
- `named weakly`: the box that overlaps it most reads it first, but under the least probability;
- `read as another`: that box reads another card (or "none") first.
For each, the classifier's probability of the card on the labelled box itself is printed too: how
much a box like the label would give. Session 13: 30 of the 51 cards missed on the photos had no
box, some of them two overlapping cards under one box, which led to `belote render --piles`.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CAUSES = ("no box", "named weakly", "read as another")


def miss_cause(
    truth_box: Sequence[float], boxes: list[tuple[float, ...]], tops: list[tuple[str, float]],
    card: str, min_prob: float,
) -> str:
    """The cause of one missed card: `boxes` of the first stage and each one's (best card,
    probability) in `tops`."""
    from vision.detections import iou

    overlaps = [iou(truth_box, b) for b in boxes]
    if not overlaps or max(overlaps) < 0.5:
        return "no box"
    best, p = tops[max(range(len(boxes)), key=overlaps.__getitem__)]
    return "named weakly" if best == card and p < min_prob else "read as another"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", required=True, type=Path,
                        help="labels.json, data.yaml or dataset folder (as `belote eval`)")
    parser.add_argument("--model", help="box source (default: the shipped box model)")
    parser.add_argument("--list", action="store_true", help="print every missed card")
    args = parser.parse_args(argv)
    import cv2

    from vision.classifier import LABELS
    from vision.detector import load_detector
    from vision.evaluate import load_set
    from vision.two_stage import with_classifier

    truths = load_set(args.set)
    reader = with_classifier(load_detector(args.model, boxes=True))
    print(f"{args.set}: {len(truths)} images; {reader!r}")
    causes: Counter[str] = Counter()
    cards = 0
    for truth in truths:
        image = cv2.imread(str(truth.image))
        if image is None:
            raise SystemExit(f"error: cannot read image {truth.image}")
        cards += len(truth.cards)
        reported = {d.card for d in reader.detect(image)}
        missed = [(card, box) for card, box in truth.cards if card not in reported]
        if not missed:
            continue
        boxes = [d.box for d in reader.detector.boxes(image, reader.box_conf)]
        probs = reader.classifier.probabilities(image, boxes) if boxes else []
        tops = [(LABELS[int(row.argmax())], float(row.max())) for row in probs]
        on_label = reader.classifier.probabilities(image, [box for _card, box in missed])
        for (card, box), row in zip(missed, on_label, strict=True):
            cause = miss_cause(box, boxes, tops, card, reader.min_prob)
            causes[cause] += 1
            if args.list:
                print(f"  {truth.image.name:20} {card}  {cause:16} on its labelled box: "
                      f"{card} {row[LABELS.index(card)]:.2f}")
    missed_total = sum(causes.values())
    print(f"{missed_total} of {cards} labelled cards missed")
    for cause in CAUSES:
        print(f"  {cause:16} {causes[cause]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
