"""A training set drawn from several rendered datasets, without copying a single image.

A model trained on one kind of scene forgets the others (the box model trained on whole-table
views lost close-ups of hands). A mix lists, for train and for val, a seeded sample of each
dataset's images in a text file, which ultralytics reads like a folder; labels stay next to
their images.

    python -m vision.datamix --out data/boxmix \\
        --part data/synth_v1:3000:100 --part data/synth_v2:3000:100 --part data/synth_v3:5000:200

writes `<out>/train.txt`, `<out>/val.txt` and `<out>/data.yaml` (class names of the first part).
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png"}


class MixError(ValueError):
    """A part is malformed or its dataset is missing; the message names it."""


@dataclass(frozen=True)
class Part:
    """`count_train` and `count_val` images drawn from `dataset` (a `belote render` folder)."""

    dataset: Path
    count_train: int
    count_val: int

    @classmethod
    def parse(cls, text: str) -> Part:
        """`DATASET:TRAIN:VAL`, e.g. `data/synth_v1:3000:100`."""
        fields = text.rsplit(":", 2)
        if len(fields) != 3 or not all(f.isdigit() for f in fields[1:]):
            raise MixError(f"{text}: a part is DATASET:TRAIN:VAL (counts of images)")
        return cls(Path(fields[0]), int(fields[1]), int(fields[2]))


def images(dataset: Path, split: str) -> list[Path]:
    """The dataset's images of one split, sorted so that a seed gives the same sample."""
    folder = dataset / "images" / split
    if not folder.is_dir():
        raise MixError(f"{folder}: no such folder (is {dataset} a `belote render` dataset?)")
    return sorted(p.resolve() for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def sample(paths: list[Path], count: int, rng: random.Random, where: str) -> list[Path]:
    if count > len(paths):
        raise MixError(f"{where}: asked for {count} images, it has {len(paths)}")
    return rng.sample(paths, count)


def make_mix(parts: list[Part], out: Path, seed: int = 0) -> Path:
    """Write the mix's lists and data.yaml into `out`; returns the data.yaml path."""
    if not parts:
        raise MixError("a mix needs at least one --part")
    rng = random.Random(seed)
    chosen: dict[str, list[Path]] = {"train": [], "val": []}
    for part in parts:
        for split, count in (("train", part.count_train), ("val", part.count_val)):
            pool = images(part.dataset, split)
            chosen[split] += sample(pool, count, rng, f"{part.dataset}/{split}")
    first = yaml.safe_load((parts[0].dataset / "data.yaml").read_text())
    out.mkdir(parents=True, exist_ok=True)
    for split, paths in chosen.items():
        (out / f"{split}.txt").write_text("".join(f"{p}\n" for p in paths))
    description = {
        "path": str(out.resolve()),
        "train": "train.txt",
        "val": "val.txt",
        "nc": first["nc"],
        "names": first["names"],
        "parts": [f"{p.dataset}:{p.count_train}:{p.count_val}" for p in parts],
        "seed": seed,
    }
    data = out / "data.yaml"
    data.write_text(yaml.safe_dump(description, sort_keys=False))
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for the mix's lists")
    parser.add_argument(
        "--part", action="append", default=[], help="DATASET:TRAIN:VAL, repeatable"
    )
    parser.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    args = parser.parse_args(argv)
    try:
        data = make_mix([Part.parse(p) for p in args.part], args.out, args.seed)
    except MixError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    lines = {s: len((args.out / f"{s}.txt").read_text().splitlines()) for s in ("train", "val")}
    print(f"{data}: {lines['train']} train images, {lines['val']} val images")
    return 0


if __name__ == "__main__":
    sys.exit(main())
