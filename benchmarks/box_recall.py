"""Box recall of a box source on a labelled image set: the first stage alone, before naming.

    .venv/bin/python benchmarks/box_recall.py --set ../shared/realdev/edje_train/labels.json
    .venv/bin/python benchmarks/box_recall.py --model models/card_detector.onnx --set ...

For each threshold, the share of labelled cards that some box overlaps at IoU >= 0.5 and the
boxes per image (what the classifier then has to read). The baseline is the 32-card detector's
boxes, measured in the same run unless `--no-baseline`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

THRESHOLDS = (0.3, 0.1, 0.05, 0.02)


def box_recall(detector, labels: dict, folder: Path) -> dict[float, tuple[float, float]]:
    """{threshold: (box recall, boxes per image)} over the labelled images."""
    import cv2

    from vision.evaluate import iou

    hits = dict.fromkeys(THRESHOLDS, 0)
    boxes = dict.fromkeys(THRESHOLDS, 0)
    cards = 0
    for name, truth in labels.items():
        image = cv2.imread(str(folder / name))
        if image is None:
            raise SystemExit(f"error: cannot read image {folder / name}")
        cards += len(truth)
        found = detector.boxes(image, min(THRESHOLDS))
        for conf in THRESHOLDS:
            kept = [d.box for d in found if d.confidence >= conf]
            boxes[conf] += len(kept)
            hits[conf] += sum(any(iou(t["box"], b) >= 0.5 for b in kept) for t in truth)
    n = max(len(labels), 1)
    return {c: (hits[c] / max(cards, 1), boxes[c] / n) for c in THRESHOLDS}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", required=True, type=Path, help="labels.json of an image set")
    parser.add_argument("--model", help="box source (default: the shipped box model)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the 32-card detector")
    args = parser.parse_args(argv)
    from vision.detector import DEFAULT_MODEL, load_detector

    obj = json.loads(args.set.read_text(encoding="utf-8"))
    labels = obj["images"] if "images" in obj else obj
    folder = args.set.parent / "images"
    runs = [("box source", load_detector(args.model, boxes=True))]
    if not args.no_baseline:
        runs.append(("32-card detector", load_detector(str(DEFAULT_MODEL))))
    print(f"{args.set}: {len(labels)} images")
    for title, detector in runs:
        print(f"{title}: {detector!r}")
        for conf, (recall, per_image) in box_recall(detector, labels, folder).items():
            print(f"  threshold {conf:<5} box recall {recall:.3f}  boxes/image {per_image:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
