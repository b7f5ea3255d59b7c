"""Card crops for the second stage: each box a detector would give, cut out and resized square.

`square_crop(image, box)` is the one geometry both training and inference use: the box's pixels,
resized (area-averaged) so its long side fills `CROP` px and centred on grey padding, so the
card's aspect is kept. `crops_of` cuts the crops of one rendered scene: every labelled card a few
times with its box jittered by up to ±`JITTER` of its size on each edge (a detector's box is never
exact), and "none" crops a second stage must veto: backs, cards 2-6, jokers, clutter and bare felt.

    python -m vision.crops --dataset data/synth_v2 --dataset data/synth_v1 --out data/crops_v1
    python -m vision.crops --render 4000 --size 480 --out data/crops_r1   # fresh scenes
    python -m vision.crops --render 4000 --size 640 --far 1 --out data/crops_far  # device views

writes `<out>/{train,val}.npz` with `x` (N, CROP, CROP, 3) uint8 BGR and `y` (N,) int16 labels
(0-31 in `CLASS_NAMES` order, 32 = none). Train crops come from training designs only, val crops
from the held-out ones (never train on them).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.detections import CLASS_NAMES

CROP = 64
PAD = 114  # the grey YOLO letterboxes with
JITTER = 0.13
LABELS: tuple[str, ...] = (*CLASS_NAMES, "none")
NONE = len(CLASS_NAMES)
_INDEX = {name: i for i, name in enumerate(CLASS_NAMES)}
MIN_NONE_VISIBLE = 0.5  # a back or distractor must be mostly seen to be a clear "none"

Box = tuple[float, float, float, float]


def square_crop(image: np.ndarray, box: Sequence[float], size: int = CROP) -> np.ndarray:
    """The box's pixels, long side scaled to `size`, centred on grey: (size, size, 3) uint8."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = (float(v) for v in box)
    bw, bh = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
    scale = size / max(bw, bh)
    out = np.full((size, size, 3), PAD, np.uint8)
    # Where the box's corner lands in the output (the box centred), then clip both to the image.
    ox = (size - bw * scale) / 2 - x0 * scale
    oy = (size - bh * scale) / 2 - y0 * scale
    cx0, cy0 = max(int(np.floor(x0)), 0), max(int(np.floor(y0)), 0)
    cx1, cy1 = min(int(np.ceil(x1)), w), min(int(np.ceil(y1)), h)
    if cx1 <= cx0 or cy1 <= cy0:
        return out
    tx0 = round(cx0 * scale + ox)
    ty0 = round(cy0 * scale + oy)
    tx1 = round(cx1 * scale + ox)
    ty1 = round(cy1 * scale + oy)
    tx0, ty0 = max(tx0, 0), max(ty0, 0)
    tx1, ty1 = min(tx1, size), min(ty1, size)
    if tx1 <= tx0 or ty1 <= ty0:
        return out
    patch = image[cy0:cy1, cx0:cx1]
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    out[ty0:ty1, tx0:tx1] = cv2.resize(patch, (tx1 - tx0, ty1 - ty0), interpolation=interp)
    return out


def jitter_box(box: Sequence[float], rng: random.Random, amount: float = JITTER) -> Box:
    """Each edge moved independently by up to ±amount of the box's width or height."""
    x0, y0, x1, y1 = (float(v) for v in box)
    w, h = x1 - x0, y1 - y0
    x0 += rng.uniform(-amount, amount) * w
    x1 += rng.uniform(-amount, amount) * w
    y0 += rng.uniform(-amount, amount) * h
    y1 += rng.uniform(-amount, amount) * h
    return (min(x0, x1 - 2), min(y0, y1 - 2), max(x1, x0 + 2), max(y1, y0 + 2))


def _iou(a: Box, b: Sequence[float]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _felt_box(size: tuple[int, int], cards: Sequence[Box], rng: random.Random) -> Box | None:
    """A card-sized box on felt or clutter that overlaps no labelled card much."""
    w, h = size
    side = [b[3] - b[1] for b in cards] or [0.2 * min(w, h)]
    for _ in range(6):
        bh = rng.choice(side) * rng.uniform(0.7, 1.3)
        bw = bh * rng.uniform(0.55, 1.1)
        x0, y0 = rng.uniform(-0.1 * bw, w - 0.9 * bw), rng.uniform(-0.1 * bh, h - 0.9 * bh)
        box = (x0, y0, x0 + bw, y0 + bh)
        if all(_iou(box, c) < 0.15 for c in cards):
            return box
    return None


def crops_of(
    image: np.ndarray,
    cards: Sequence[dict[str, object]],
    rng: random.Random,
    per_card: int = 2,
    felt: float = 0.6,
    size: int = CROP,
    min_visible: float = 0.0,
    boxes: str = "card",
) -> Iterator[tuple[np.ndarray, int]]:
    """(crop, label) pairs from one rendered image and its placements (meta-style dicts).

    Labelled belote cards give `per_card` jittered crops each; clearly seen backs, 2-6 and jokers
    one "none" crop each; with probability `felt` a box on bare felt or clutter is added. Belote
    cards the renderer did not label (barely seen), or seen less than `min_visible`, give
    nothing: what they are is unclear (a fanned card's box mostly shows its neighbours).
    `boxes="seen"` crops a card's `seen_box` (the part not under another card) instead of its
    whole box, as the box model trained on such labels finds them.
    """
    h, w = image.shape[:2]
    labelled: list[Box] = []
    for c in cards:
        box = tuple(float(v) for v in c["box"])  # type: ignore[attr-defined]
        name = str(c["card"])
        if c["labelled"] and boxes == "seen" and "seen_box" in c:
            box = tuple(float(v) for v in c["seen_box"])  # type: ignore[attr-defined]
        if c["labelled"]:
            labelled.append(box)  # type: ignore[arg-type]
            if float(c["visible"]) < min_visible:  # type: ignore[arg-type]
                continue
            for _ in range(per_card):
                yield square_crop(image, jitter_box(box, rng), size), _INDEX[name]
        elif name not in _INDEX and float(c["visible"]) >= MIN_NONE_VISIBLE:  # type: ignore[arg-type]
            yield square_crop(image, jitter_box(box, rng), size), NONE
    if rng.random() < felt:
        free = _felt_box((w, h), labelled, rng)
        if free is not None:
            yield square_crop(image, free, size), NONE


def dataset_items(root: Path, split: str) -> Iterator[tuple[np.ndarray, list[dict[str, object]]]]:
    """(image, placements) of every image listed in a rendered dataset's meta file."""
    for line in (root / "meta" / f"{split}.jsonl").read_text().splitlines():
        meta = json.loads(line)
        image = cv2.imread(str(root / meta["image"]), cv2.IMREAD_COLOR)
        if image is not None:
            yield image, meta["cards"]


def listed_images(root: Path, split: str) -> int:
    """How many images a rendered dataset's meta file lists for `split`."""
    return len((root / "meta" / f"{split}.jsonl").read_text().splitlines())


def _rendered_items(
    split: str, count: int, size: int, seed: int, closeup: float, far: float = 0.0
) -> Iterator[tuple[np.ndarray, list[dict[str, object]]]]:
    """Fresh scenes from the renderer: training designs for train, held-out ones for val."""
    from vision.artwork import (
        Design,
        held_out_designs,
        load_design,
        load_textures,
        training_designs,
    )
    from vision.scene import random_scene

    names = training_designs() if split == "train" else held_out_designs()
    textures = load_textures()
    designs: dict[str, Design] = {}
    for i in range(count):
        rng = random.Random(f"crops:{seed}:{split}:{i}")
        name = names[rng.randrange(len(names))]
        if name not in designs:
            designs[name] = load_design(name)
        scene, placements, occluders = random_scene(
            designs[name],
            textures,
            size,
            rng,
            closeup=closeup,
            far=far,
        )
        image, labels = scene.render(placements, occluders, rng=rng)
        yield (
            image,
            [
                {"card": lb.card, "box": lb.box, "seen_box": lb.seen_box, "visible": lb.visible,
                 "labelled": lb.labelled}
                for lb in labels
            ],
        )


def build(
    items: Iterator[tuple[np.ndarray, list[dict[str, object]]]],
    seed: str,
    per_card: int,
    size: int = CROP,
    min_visible: float = 0.0,
    boxes: str = "card",
    total: int | None = None,
) -> tuple[np.ndarray, np.ndarray, int]:
    """Every crop of every item, stacked: (x, y, images read). A progress bar on stderr counts
    the images (`total`: how many to expect, for its time left)."""
    from tqdm import tqdm

    rng = random.Random(seed)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    n = 0
    with tqdm(items, total=total, desc=f"crops {seed}", unit="image", file=sys.stderr) as bar:
        for image, cards in bar:
            n += 1
            for crop, label in crops_of(
                image, cards, rng, per_card=per_card, size=size, min_visible=min_visible,
                boxes=boxes,
            ):
                xs.append(crop)
                ys.append(label)
            bar.set_postfix(crops=len(xs), refresh=False)
    x = np.stack(xs) if xs else np.zeros((0, size, size, 3), np.uint8)
    return x, np.asarray(ys, np.int16), n


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--dataset",
        type=Path,
        action="append",
        default=[],
        help="a rendered YOLO dataset with meta/{train,val}.jsonl (repeatable)",
    )
    parser.add_argument("--render", type=int, default=0, help="fresh train scenes to render")
    parser.add_argument("--render-val", type=int, default=0, help="fresh val scenes to render")
    parser.add_argument("--size", type=int, default=480, help="long side of fresh scenes")
    parser.add_argument("--closeup", type=float, default=0.5)
    parser.add_argument("--far", type=float, default=0.0,
                        help="share of whole-table views, cards a tenth of the picture")
    parser.add_argument("--per-card", type=int, default=2)
    parser.add_argument("--crop", type=int, default=CROP, help="side of the square crops (px)")
    parser.add_argument(
        "--min-visible",
        type=float,
        default=0.0,
        help="skip labelled cards seen less than this share (0-1)",
    )
    parser.add_argument(
        "--boxes",
        choices=("card", "seen"),
        default="card",
        help="crop each card's whole box (default) or the part not under another card",
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for split, fresh in (("train", args.render), ("val", args.render_val or args.render // 10)):
        start = time.perf_counter()
        parts: list[Iterator[tuple[np.ndarray, list[dict[str, object]]]]] = [
            dataset_items(root, split) for root in args.dataset
        ]
        if fresh:
            parts.append(_rendered_items(split, fresh, args.size, args.seed, args.closeup,
                                         args.far))

        def chain(
            parts: list[Iterator[tuple[np.ndarray, list[dict[str, object]]]]] = parts,
        ) -> Iterator[tuple[np.ndarray, list[dict[str, object]]]]:
            for part in parts:
                yield from part

        listed = sum(listed_images(root, split) for root in args.dataset)
        x, y, n = build(
            chain(), f"{args.seed}:{split}", args.per_card, args.crop, args.min_visible,
            args.boxes, total=(listed + fresh) or None,
        )
        seconds = time.perf_counter() - start
        np.savez(args.out / f"{split}.npz", x=x, y=y)
        counts = np.bincount(y.astype(np.int64), minlength=len(LABELS))
        print(
            f"{split}: {len(y)} crops from {n} images in {seconds:.0f} s "
            f"({1000 * seconds / max(len(y), 1):.2f} ms/crop), none={counts[NONE]}, "
            f"fewest per card={counts[:NONE].min()}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
