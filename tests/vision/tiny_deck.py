"""A procedural deck for renderer tests: white cards with rank and suit written in the corners."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.artwork import Design
from vision.detections import CLASS_NAMES

W, H = 100, 140


def card_image(text: str, paper: tuple[int, int, int] = (250, 250, 250)) -> np.ndarray:
    """One opaque BGRA card with `text` in the top-left and (upside down) bottom-right corners."""
    card = np.zeros((H, W, 4), np.uint8)
    card[:, :, :3] = paper
    card[:, :, 3] = 255
    colour = (0, 0, 200, 255) if text[-1:] in "HD" else (20, 20, 20, 255)
    cv2.putText(card, text, (4, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2, cv2.LINE_AA)
    turned = np.ascontiguousarray(card[::-1, ::-1])
    cv2.putText(turned, text, (4, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2, cv2.LINE_AA)
    card = np.ascontiguousarray(turned[::-1, ::-1])
    cv2.rectangle(card, (30, 40), (70, 100), colour, -1)  # the "art" in the middle
    card[:, :, 3] = 255  # anti-aliased text blends the alpha channel too: keep the card opaque
    return card


def tiny_design(name: str = "tiny") -> Design:
    back = card_image("")
    back[:, :, :3] = (160, 60, 20)
    return Design(
        name,
        {c: card_image(c) for c in CLASS_NAMES},
        back,
        {"2S": card_image("2S"), "JOKER_RED": card_image("JK")},
    )


def save_design(design: Design, root: Path, held_out: bool = False) -> Path:
    """Write a design in the artwork cache layout (`<root>/<name>/<CARD>.png` + meta.json)."""
    folder = root / design.name
    folder.mkdir(parents=True, exist_ok=True)
    images = {**design.cards, **design.distractors}
    if design.back is not None:
        images["back"] = design.back
    for name, image in images.items():
        cv2.imwrite(str(folder / f"{name}.png"), image)
    (folder / "meta.json").write_text(json.dumps({"design": design.name, "held_out": held_out}))
    return folder
