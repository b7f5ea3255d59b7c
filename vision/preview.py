"""A contact sheet of rendered scenes with their boxes: to look at what the detector trains on."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.artwork import CACHE, TEXTURES, Design, load_textures
from vision.dataset import Job, render_one


def preview_sheet(
    path: Path,
    designs: Sequence[str],
    seed: int = 0,
    size: int = 320,
    artwork: Path = CACHE,
    textures: Path = TEXTURES,
    closeup: float = 0.4,
    count: int = 16,
    far: float = 0.0,
    piles: float = 0.0,
) -> None:
    """Write `count` scenes in a grid: labelled cards boxed green, unlabelled ones red."""
    job = Job("preview", tuple(designs), seed, size, path.parent, artwork, textures, closeup, far,
              piles=piles)
    cache: dict[str, Design] = {}
    surfaces = load_textures(textures)
    tiles = []
    for i in range(count):
        image, labels, _ = render_one(job, i, cache, surfaces)
        for label in labels:
            if label.visible < 0.05:
                continue
            colour = (0, 220, 0) if label.labelled else (0, 0, 230)
            x0, y0, x1, y1 = (round(v) for v in label.box)
            cv2.rectangle(image, (x0, y0), (x1, y1), colour, 1)
            cv2.putText(
                image,
                label.card,
                (x0 + 2, y0 + 10),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.35,
                colour,
                1,
                cv2.LINE_AA,
            )
        h, w = image.shape[:2]
        tiles.append(cv2.copyMakeBorder(image, 0, size - h, 0, size - w, cv2.BORDER_CONSTANT))
    cols = 4
    tiles += [np.zeros_like(tiles[0])] * (-len(tiles) % cols)
    rows = [np.hstack(tiles[r : r + cols]) for r in range(0, len(tiles), cols)]
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), np.vstack(rows))
