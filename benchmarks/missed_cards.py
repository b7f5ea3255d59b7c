"""Why the two-stage reading misses the cards it misses on a labelled image set.

    .venv/bin/python benchmarks/missed_cards.py --set ../shared/realdev/edje_train/labels.json
    .venv/bin/python benchmarks/missed_cards.py --set data/synth_v1/data.yaml --list
    .venv/bin/python benchmarks/missed_cards.py --model CANDIDATE.onnx --set ...

The reading is `belote eval`'s (the same options: still-picture rules, the second look at 416 px).
Each labelled card it does not report falls in one cause:
- `no box`: no box of the first stage (its boxes and the second look's) overlaps the card's label
  at IoU >= 0.5 (the photos label a covered card by its visible part, the renders by the whole
  card and, for a fanned card, its visible strip too);
- `named weakly`: the box that overlaps it most reads it first, but under the least probability;
- `read as another`: that box reads another card (or "none") first.
Beside each cause: how many of its cards the classifier reads right on the labelled box itself
(first, at least min_prob, above "none"): a better box would find those, the rest are the
classifier's. On a rendered set (its meta lists each card's visible share) the cards labelled and
read are also counted by visible share. Session 13: 30 of the 51 cards missed on the photos had
no box; session 48, on the held-out renders synth_v1: 15 of the 371 missed have no box, and 328
are misread on the labelled box too (the classifier, not the boxes, loses the renders).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CAUSES = ("no box", "named weakly", "read as another")
SHARES = (0.3, 0.5, 0.7, 0.9)  # visible-share buckets: under 0.3, 0.3-0.5, ..., 0.9 and over


def miss_cause(
    truth_boxes: Sequence[Sequence[float]], boxes: list[tuple[float, ...]],
    tops: list[tuple[str, float]], card: str, min_prob: float,
) -> str:
    """The cause of one missed card: `truth_boxes` its labels (whole card, visible part),
    `boxes` of the first stage and each one's (best card, probability) in `tops`."""
    from vision.detections import iou

    overlaps = [max(iou(t, b) for t in truth_boxes) for b in boxes]
    if not overlaps or max(overlaps) < 0.5:
        return "no box"
    best, p = tops[max(range(len(boxes)), key=overlaps.__getitem__)]
    return "named weakly" if best == card and p < min_prob else "read as another"


def read_right(row: Sequence[float], card: str, min_prob: float) -> bool:
    """The classifier's row (32 cards then "none") names `card` first, at least min_prob, above
    "none"."""
    from vision.classifier import LABELS, NONE

    cards = [float(p) for p in row[:NONE]]
    best = max(range(len(cards)), key=cards.__getitem__)
    return LABELS[best] == card and cards[best] >= min_prob and cards[best] > float(row[NONE])


def share_bucket(visible: float) -> str:
    """The visible-share bucket a card falls in, as printed."""
    low = max([s for s in SHARES if s <= visible], default=0.0)
    high = min([s for s in SHARES if s > visible], default=None)
    return f"{low:.1f}+" if high is None else f"{low:.1f}-{high:.1f}"


_META: dict[Path, dict[str, dict]] = {}  # a rendered set's meta rows by image, read once


def _seen(truth_image: Path, split: str) -> dict[str, tuple[float, tuple[float, ...]]]:
    """A rendered image's labelled cards: {card: (visible share, visible-part box)}, from its
    set's meta (empty for photos)."""
    from vision.evaluate import read_meta

    meta = truth_image.parent.parent.parent / "meta" / f"{split}.jsonl"
    if meta not in _META:
        _META[meta] = read_meta(meta)
    row = _META[meta].get(f"images/{split}/{truth_image.name}", {})
    return {c["card"]: (float(c["visible"]), tuple(c["seen_box"]))
            for c in row.get("cards", []) if c.get("labelled")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", required=True, type=Path,
                        help="labels.json, data.yaml or dataset folder (as `belote eval`)")
    parser.add_argument("--split", default="val", help="split of a YOLO dataset (default val)")
    parser.add_argument("--model", help="box source (default: the shipped box model)")
    parser.add_argument("--list", action="store_true", help="print every missed card")
    from device.commands.reading import add_reading_arguments, add_still_arguments

    add_reading_arguments(parser)
    add_still_arguments(parser)
    args = parser.parse_args(argv)
    import cv2

    from device.commands.reading import load_reader
    from vision.classifier import LABELS
    from vision.evaluate import load_set
    from vision.two_stage import STILL_BOX_CONF, TwoStage

    truths = load_set(args.set, args.split)
    _detector, reader = load_reader(args, "missed_cards", args.model, still=True)
    if not isinstance(reader, TwoStage):
        raise SystemExit("error: this benchmark measures the two-stage reading")
    print(f"{args.set}: {len(truths)} images; {reader!r}")
    causes: Counter[str] = Counter()
    labelled_right: Counter[str] = Counter()
    by_share: Counter[tuple[str, bool]] = Counter()
    cards = 0
    for truth in truths:
        image = cv2.imread(str(truth.image))
        if image is None:
            raise SystemExit(f"error: cannot read image {truth.image}")
        cards += len(truth.cards)
        reported = {d.card for d in reader.detect(image)}
        seen = _seen(truth.image, args.split)
        for card, _box in truth.cards:
            if card in seen:
                by_share[(share_bucket(seen[card][0]), card in reported)] += 1
        missed = [(card, box) for card, box in truth.cards if card not in reported]
        if not missed:
            continue
        boxes = [d.box for d in reader.detector.boxes(image, reader.box_conf)]
        if reader.still_boxes is not None:
            boxes += [d.box for d in reader.still_boxes.boxes(image, STILL_BOX_CONF)]
        probs = reader.classifier.probabilities(image, boxes) if boxes else []
        tops = [(LABELS[int(row.argmax())], float(row.max())) for row in probs]
        on_label = reader.classifier.probabilities(image, [box for _card, box in missed])
        for (card, box), row in zip(missed, on_label, strict=True):
            labels = [box] + ([seen[card][1]] if card in seen else [])
            cause = miss_cause(labels, boxes, tops, card, reader.min_prob)
            causes[cause] += 1
            right = read_right(row, card, reader.min_prob)
            labelled_right[cause] += right
            if args.list:
                print(f"  {truth.image.name:20} {card}  {cause:16} on its labelled box: "
                      f"{card} {row[LABELS.index(card)]:.2f}{' (read right)' if right else ''}")
    missed_total = sum(causes.values())
    print(f"{missed_total} of {cards} labelled cards missed "
          "(cause: cards, of them read right on the labelled box)")
    for cause in CAUSES:
        print(f"  {cause:16} {causes[cause]:5}  {labelled_right[cause]:5}")
    if by_share:
        print("read by visible share (rendered sets): share, cards, read")
        for bucket in sorted({b for b, _ in by_share}):
            read, missed_here = by_share[(bucket, True)], by_share[(bucket, False)]
            print(f"  {bucket:8} {read + missed_here:5}  {read / (read + missed_here):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
