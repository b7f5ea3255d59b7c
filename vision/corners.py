"""Redraw a face card's corner letters as French belote decks print them: J→V, Q→D, K→R.

How: in the top-left corner (and, on the card turned 180°, the bottom-right one) find the topmost
ink blob that is letter-sized and does not touch the card's edge or the art frame, paint its box
with the paper colour, and draw the French letter in the blob's own colour at the same height.
When no such blob is found the corner is left as it was (the card keeps its English letter).
"""

from __future__ import annotations

import random

import cv2
import numpy as np

FRENCH = {"J": "V", "Q": "D", "K": "R"}
_FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
)


def find_index_letter(card: np.ndarray) -> tuple[int, int, int, int] | None:
    """Box (x0, y0, x1, y1) of the rank letter in the top-left corner, or None."""
    h, w = card.shape[:2]
    roi = card[: int(0.22 * h), : int(0.2 * w)]
    bgr = roi[:, :, :3].astype(np.int16)
    opaque = roi[:, :, 3] > 128
    lum = bgr.mean(axis=2)
    if opaque.sum() < 20:
        return None
    paper = np.median(bgr[opaque & (lum >= np.percentile(lum[opaque], 60))], axis=0)
    ink = (np.abs(bgr - paper).sum(axis=2) > 90) & opaque
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    best = None
    rh, rw = ink.shape
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        touches = x <= 1 or y <= 1 or x + bw >= rw - 1 or y + bh >= rh - 1
        if touches or bh < 0.025 * h or bh > 0.15 * h or bw > 0.14 * w or area < 8:
            continue
        if best is None or y < best[1]:
            best = (int(x), int(y), int(x + bw), int(y + bh))
    return best


def _redraw_top_left(card: np.ndarray, letter: str, font: int, thickness_ratio: float) -> bool:
    box = find_index_letter(card)
    if box is None:
        return False
    x0, y0, x1, y1 = box
    patch = card[y0:y1, x0:x1, :3].astype(np.int16)
    around = card[max(0, y0 - 3) : y1 + 3, max(0, x0 - 3) : x1 + 3, :3].reshape(-1, 3)
    lum = around.mean(axis=1)
    paper = np.median(around[lum >= np.percentile(lum, 70)], axis=0)
    dist = np.abs(patch - paper).sum(axis=2)
    inked = patch[dist >= np.percentile(dist, 75)]
    if inked.size == 0:
        return False
    ink_color = np.median(inked, axis=0)
    pad = max(1, (y1 - y0) // 10)
    cv2.rectangle(
        card, (x0 - pad, y0 - pad), (x1 + pad, y1 + pad), (*tuple(int(v) for v in paper), 255), -1
    )
    height = y1 - y0
    scale = cv2.getFontScaleFromHeight(font, height, 1)
    thickness = max(1, round(height * thickness_ratio))
    (tw, _th), _ = cv2.getTextSize(letter, font, scale, thickness)
    cx = (x0 + x1) // 2
    cv2.putText(
        card,
        letter,
        (cx - tw // 2, y1),
        font,
        scale,
        (*tuple(int(v) for v in ink_color), 255),
        thickness,
        cv2.LINE_AA,
    )
    return True


def redraw_french(card: np.ndarray, rank: str, rng: random.Random) -> np.ndarray:
    """A copy of a J/Q/K card (BGRA) with its corner letters redrawn as V/D/R."""
    letter = FRENCH[rank]
    out = card.copy()
    font = rng.choice(_FONTS)
    ratio = rng.uniform(0.09, 0.14)
    _redraw_top_left(out, letter, font, ratio)
    turned = np.ascontiguousarray(out[::-1, ::-1])
    _redraw_top_left(turned, letter, font, ratio)
    return np.ascontiguousarray(turned[::-1, ::-1])
