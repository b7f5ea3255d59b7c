"""Draw detections on an image (for `belote detect --annotate` and eval previews)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.detections import Detection

RED_SUITS = ("H", "D")


def draw(bgr: np.ndarray, detections: Sequence[Detection]) -> np.ndarray:
    """A copy of `bgr` with each card's box and 'JH 0.97' above it (red suits in red)."""
    import cv2

    out = bgr.copy()
    scale = max(out.shape[:2]) / 640
    thick = max(1, round(2 * scale))
    for d in detections:
        x0, y0, x1, y1 = (round(v) for v in d.box)
        color = (40, 40, 220) if d.card[1] in RED_SUITS else (220, 120, 20)
        cv2.rectangle(out, (x0, y0), (x1, y1), color, thick)
        text = f"{d.card} {d.confidence:.2f}"
        font = cv2.FONT_HERSHEY_SIMPLEX
        (tw, th), _ = cv2.getTextSize(text, font, 0.5 * scale, thick)
        ty = max(y0, th + 4)
        cv2.rectangle(out, (x0, ty - th - 4), (x0 + tw + 4, ty), color, -1)
        cv2.putText(out, text, (x0 + 2, ty - 3), font, 0.5 * scale, (255, 255, 255), thick)
    return out
