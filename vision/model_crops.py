"""Classifier crops cut on a box model's own boxes, not on the labels' jittered ones.

The classifier names the boxes the box model draws: a box on two cards side by side, on the part
of a card a hand leaves. Crops of the labels' boxes, however jittered, never look like those.
Here the box model runs on each rendered scene of a dataset and every box it draws is labelled by
the card it covers: the card whose box it overlaps at IoU >= `MATCH_IOU`, `CLEAR_BY` ahead of any
other card's (a labelled belote card, or "none" for a back, a 2-6 or a joker clearly seen);
"none" when it overlaps no card (`FREE_IOU`: felt, clutter); skipped when it is unclear what it
holds. Each scene also gives the usual jittered crops of its labels (`vision.crops.crops_of`), so
the model keeps what it learnt from them.

    python -m vision.model_crops --dataset data/b36 --out data/crops_boxes --crop 128

writes `<out>/{train,val}.npz` as `vision.crops` does (train from the dataset's training designs,
val from its held-out ones).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from vision.crops import (
    MIN_NONE_VISIBLE,
    NONE,
    crops_of,
    dataset_items,
    listed_images,
    square_crop,
)
from vision.detections import CLASS_NAMES, iou

MATCH_IOU = 0.5  # a box on a card covers it this well
CLEAR_BY = 0.2  # ... and this much better than any other card
FREE_IOU = 0.1  # a box overlapping every card less than this is on felt or clutter
BOX_CONF = 0.1  # the box model's threshold in the shipped reading (`vision.two_stage`)

Box = tuple[float, float, float, float]


def label_box(box: Box, cards: Sequence[dict[str, object]]) -> int | None:
    """The class a box model's box on a rendered scene holds (a card's index, or `NONE`), or
    None when that is unclear (two cards, a card barely seen)."""
    scored = sorted(((iou(box, _box(c)), c) for c in cards), key=lambda t: -t[0])
    best, card = scored[0] if scored else (0.0, None)
    if card is None or best < FREE_IOU:
        return NONE
    second = scored[1][0] if len(scored) > 1 else 0.0
    if best < MATCH_IOU or best - second < CLEAR_BY:
        return None
    name = str(card["card"])
    if name in CLASS_NAMES:
        return CLASS_NAMES.index(name) if card["labelled"] else None
    return NONE if float(card["visible"]) >= MIN_NONE_VISIBLE else None  # type: ignore[arg-type]


def _box(card: dict[str, object]) -> Box:
    x0, y0, x1, y1 = (float(v) for v in card["box"])  # type: ignore[attr-defined]
    return (x0, y0, x1, y1)


def build(root: Path, split: str, model: Path, size: int, min_visible: float,
          seed: str) -> tuple[np.ndarray, np.ndarray, dict[str, int]]:
    """Every crop of one split of a rendered dataset: (x, y, counts by kind)."""
    from tqdm import tqdm

    from vision.detector import load_detector

    detector = load_detector(model)
    rng = random.Random(seed)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    counts = {"labels": 0, "boxes": 0, "boxes_none": 0, "unclear": 0}
    items = dataset_items(root, split)
    for image, cards in tqdm(items, total=listed_images(root, split), desc=f"{split} crops",
                             unit="image", file=sys.stderr):
        for crop, label in crops_of(image, cards, rng, per_card=1, size=size,
                                    min_visible=min_visible):
            xs.append(crop)
            ys.append(label)
            counts["labels"] += 1
        for found in detector.boxes(image, BOX_CONF):
            holds = label_box(found.box, cards)
            if holds is None:
                counts["unclear"] += 1
                continue
            xs.append(square_crop(image, found.box, size))
            ys.append(holds)
            counts["boxes_none" if holds == NONE else "boxes"] += 1
    x = np.stack(xs) if xs else np.zeros((0, size, size, 3), np.uint8)
    return x, np.asarray(ys, np.int16), counts


def main(argv: Sequence[str] | None = None) -> int:
    from vision.detector import DEFAULT_BOX_MODEL

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, required=True,
                        help="a rendered YOLO dataset with meta/{train,val}.jsonl")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--model", type=Path, default=None,
                        help="box model (default: the shipped one)")
    parser.add_argument("--crop", type=int, default=128, help="side of the square crops (px)")
    parser.add_argument("--min-visible", type=float, default=0.4,
                        help="labels' crops: skip cards seen less than this share (0-1)")
    parser.add_argument("--seed", default="0", help="jitter of the labels' crops")
    args = parser.parse_args(argv)
    if not (args.dataset / "meta" / "train.jsonl").is_file():
        parser.error(f"{args.dataset}: no meta/train.jsonl (render it with `belote render`)")
    model = args.model or DEFAULT_BOX_MODEL
    if not model.is_file():
        parser.error(f"{model}: box model not found")
    args.out.mkdir(parents=True, exist_ok=True)
    for split in ("train", "val"):
        start = time.perf_counter()
        x, y, counts = build(args.dataset, split, model, args.crop, args.min_visible,
                             f"{args.seed}:{split}")
        np.savez(args.out / f"{split}.npz", x=x, y=y)
        print(f"{split}: {len(y)} crops in {time.perf_counter() - start:.0f} s {counts}",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
