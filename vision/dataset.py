"""Write a YOLO dataset of rendered table scenes: training designs for train, held-out ones for val.

Layout under `out`:
    images/{train,val}/<split>_<index>.jpg
    labels/{train,val}/<split>_<index>.txt   one line per labelled card: class cx cy w h (0-1)
    meta/{train,val}.jsonl                   per image: design, size, every placement's card, box,
                                             visible share and labelled flag (backs and
                                             distractors too, for false-positive counts)
    data.yaml                                ultralytics config, names in CLASS_NAMES order
Image i of a split depends only on (seed, split, i): re-running gives the same files, and
`write_split` skips images already written, so an interrupted run resumes.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.artwork import CACHE, TEXTURES, Design, load_design, load_textures
from vision.detections import CLASS_NAMES
from vision.render import CardLabel
from vision.scene import random_scene

_CLASS = {name: i for i, name in enumerate(CLASS_NAMES)}


@dataclass(frozen=True, slots=True)
class Job:
    """What one worker needs to render a range of images of one split."""

    split: str
    designs: tuple[str, ...]
    seed: int
    size: int
    out: Path
    artwork: Path = CACHE
    textures: Path = TEXTURES
    closeup: float = 0.4
    far: float = 0.0
    boxes: str = "card"  # "card": the whole card; "seen": the part not under another card
    piles: float = 0.0  # share of close-ups that are cards dropped on one another


BOX_KINDS = ("card", "seen")


def yolo_lines(
    labels: Sequence[CardLabel], width: int, height: int, boxes: str = "card"
) -> list[str]:
    """YOLO label lines ('class cx cy w h', normalised) for the labelled cards."""
    lines = []
    for label in labels:
        if not label.labelled:
            continue
        x0, y0, x1, y1 = label.seen_box if boxes == "seen" else label.box
        lines.append(
            f"{_CLASS[label.card]} {(x0 + x1) / 2 / width:.6f} {(y0 + y1) / 2 / height:.6f} "
            f"{(x1 - x0) / width:.6f} {(y1 - y0) / height:.6f}"
        )
    return lines


def render_one(
    job: Job, index: int, designs: dict[str, Design], textures: list[np.ndarray]
) -> tuple[np.ndarray, list[CardLabel], str]:
    """Render image `index` of a split: its design and scene follow from (seed, split, index)."""
    rng = random.Random(f"{job.seed}:{job.split}:{index}")
    name = job.designs[rng.randrange(len(job.designs))]
    if name not in designs:
        designs[name] = load_design(name, job.artwork)
    scene, placements, occluders = random_scene(
        designs[name], textures, job.size, rng, closeup=job.closeup, far=job.far,
        piles=job.piles,
    )
    image, labels = scene.render(placements, occluders, rng=rng)
    return image, labels, name


_STATE: dict[str, object] = {}


def _work(args: tuple[Job, int]) -> tuple[int, str]:
    """Render and write one image (in a worker process); return its index and its meta line."""
    job, index = args
    designs = _STATE.setdefault("designs", {})
    if "textures" not in _STATE:
        _STATE["textures"] = load_textures(job.textures)
    assert isinstance(designs, dict)
    textures = _STATE["textures"]
    assert isinstance(textures, list)
    image, labels, design = render_one(job, index, designs, textures)
    stem = f"{job.split}_{index:06d}"
    h, w = image.shape[:2]
    cv2.imwrite(
        str(job.out / "images" / job.split / f"{stem}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 92]
    )
    text = "\n".join(yolo_lines(labels, w, h, job.boxes))
    (job.out / "labels" / job.split / f"{stem}.txt").write_text(text + ("\n" if text else ""))
    meta = {
        "image": f"images/{job.split}/{stem}.jpg",
        "design": design,
        "size": [w, h],
        "cards": [
            {
                "card": lb.card,
                "box": [round(v, 1) for v in lb.box],
                "seen_box": [round(v, 1) for v in lb.seen_box],
                "visible": round(lb.visible, 3),
                "labelled": lb.labelled,
            }
            for lb in labels
        ],
    }
    return index, json.dumps(meta)


def _meta_lines(path: Path) -> dict[str, str]:
    """The meta file's lines by image, the last one winning (a redone image appends again)."""
    lines: dict[str, str] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                lines[json.loads(line)["image"]] = line
            except (ValueError, KeyError, TypeError):
                continue  # a line cut short by an interrupted run
    return lines


def _indices_to_do(job: Job, count: int, done: dict[str, str]) -> list[int]:
    """Images with no label file or no meta line (a run killed between the two)."""
    labels = job.out / "labels" / job.split
    todo = []
    for i in range(count):
        stem = f"{job.split}_{i:06d}"
        if not (labels / f"{stem}.txt").exists() or f"images/{job.split}/{stem}.jpg" not in done:
            todo.append(i)
    return todo


def write_split(job: Job, count: int, workers: int = 1, progress: bool = True) -> int:
    """Render `count` images of a split, skipping those already written; return how many were."""
    from tqdm import tqdm

    for sub in ("images", "labels"):
        (job.out / sub / job.split).mkdir(parents=True, exist_ok=True)
    (job.out / "meta").mkdir(parents=True, exist_ok=True)
    meta_path = job.out / "meta" / f"{job.split}.jsonl"
    todo = _indices_to_do(job, count, _meta_lines(meta_path))
    bar = tqdm(
        total=len(todo),
        desc=f"render {job.split}",
        unit="img",
        file=sys.stderr,
        disable=not progress,
    )
    with meta_path.open("a") as meta:
        for _, line in _map(job, todo, workers):
            meta.write(line + "\n")
            bar.update()
    bar.close()
    # One line per image, in index order, whatever the runs and the workers' order were.
    lines = _meta_lines(meta_path)
    meta_path.write_text("".join(lines[k] + "\n" for k in sorted(lines)))
    return len(todo)


def _map(job: Job, todo: list[int], workers: int) -> Iterator[tuple[int, str]]:
    if workers <= 1:
        yield from map(_work, ((job, i) for i in todo))
        return
    import multiprocessing as mp

    with mp.get_context("fork").Pool(workers) as pool:
        yield from pool.imap_unordered(_work, ((job, i) for i in todo), chunksize=8)


def write_data_yaml(out: Path) -> Path:
    """The ultralytics dataset file: absolute path, splits, and the 32 names in class order."""
    lines = [
        f"path: {out.resolve()}",
        "train: images/train",
        "val: images/val",
        f"nc: {len(CLASS_NAMES)}",
        "names:",
    ]
    lines += [f"  {i}: '{name}'" for i, name in enumerate(CLASS_NAMES)]
    path = out / "data.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def write_dataset(
    out: Path,
    train_designs: Sequence[str],
    val_designs: Sequence[str],
    count: int,
    val_count: int,
    seed: int = 0,
    size: int = 320,
    workers: int = 1,
    artwork: Path = CACHE,
    textures: Path = TEXTURES,
    closeup: float = 0.4,
    far: float = 0.0,
    boxes: str = "card",
    piles: float = 0.0,
) -> Path:
    """Render val (held-out designs; small, so first) and train splits; return data.yaml.

    `boxes`: what a label's box covers, "card" (the whole card, hidden parts too) or "seen"
    (the part not under another card, as the real photos are labelled)."""
    if boxes not in BOX_KINDS:
        raise ValueError(f"boxes must be one of {', '.join(BOX_KINDS)}, got {boxes!r}")
    for split, designs, n in (("val", val_designs, val_count), ("train", train_designs, count)):
        if n > 0:
            if not designs:
                raise ValueError(f"no designs for the {split} split")
            job = Job(
                split, tuple(designs), seed, size, out, artwork, textures, closeup, far, boxes,
                piles,
            )
            write_split(job, n, workers)
    return write_data_yaml(out)
