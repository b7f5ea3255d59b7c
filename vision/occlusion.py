"""Things over the cards, drawn as simple shapes: hands, fingers, phones, glasses, score pads, pens.

Each drawer paints onto the table canvas and marks the pixels it covers (-1) in the id map, so the
renderer knows which parts of which cards stay visible.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from vision.render import Occluder

KINDS = ("hand", "finger", "phone", "glass", "pad", "pen")
# Skin tones (BGR), light to dark.
SKIN = (
    (189, 208, 241),
    (160, 190, 230),
    (140, 170, 215),
    (110, 150, 200),
    (90, 125, 170),
    (70, 100, 150),
    (50, 75, 115),
    (40, 55, 85),
)


def _pt(center: tuple[float, float], angle: float, dx: float, dy: float) -> tuple[int, int]:
    a = math.radians(angle)
    return (
        round(center[0] + dx * math.cos(a) - dy * math.sin(a)),
        round(center[1] + dx * math.sin(a) + dy * math.cos(a)),
    )


def _hand(mask: np.ndarray, o: Occluder, unit: float, rng: random.Random) -> None:
    """A palm, four fingers and a thumb pointing along the angle, and an arm out to the edge."""
    palm_w, palm_h = 0.42 * unit, 0.5 * unit
    c = o.center
    cv2.ellipse(
        mask, _pt(c, o.angle, 0, 0), (round(palm_h), round(palm_w)), o.angle, 0, 360, 255, -1
    )
    # Arm: a thick band from the palm away from the fingers, long enough to leave the frame.
    cv2.line(
        mask,
        _pt(c, o.angle, -0.2 * unit, 0),
        _pt(c, o.angle, -6 * unit, 0),
        255,
        max(2, round(0.7 * unit)),
    )
    curl = rng.uniform(0.5, 1.0)
    for k, spread in enumerate((-0.27, -0.09, 0.09, 0.27)):
        length = unit * (0.55 + 0.12 * (k in (1, 2))) * curl
        base = _pt(c, o.angle, 0.4 * palm_h, spread * unit * 1.4)
        tip = _pt(
            c, o.angle, 0.4 * palm_h + length, spread * unit * 1.4 + rng.uniform(-0.08, 0.08) * unit
        )
        cv2.line(mask, base, tip, 255, max(2, round(0.15 * unit)), cv2.LINE_AA)
    thumb_side = 1 if rng.random() < 0.5 else -1
    cv2.line(
        mask,
        _pt(c, o.angle, 0, thumb_side * 0.35 * unit),
        _pt(c, o.angle, 0.45 * unit, thumb_side * 0.62 * unit),
        255,
        max(2, round(0.17 * unit)),
        cv2.LINE_AA,
    )


def _finger(mask: np.ndarray, o: Occluder, unit: float, rng: random.Random) -> None:
    length = unit * rng.uniform(0.5, 0.9)
    cv2.line(
        mask,
        _pt(o.center, o.angle, 0, 0),
        _pt(o.center, o.angle, -6 * unit, 0),
        255,
        max(2, round(0.18 * unit)),
        cv2.LINE_AA,
    )
    cv2.line(
        mask,
        _pt(o.center, o.angle, 0, 0),
        _pt(o.center, o.angle, length, 0),
        255,
        max(2, round(0.16 * unit)),
        cv2.LINE_AA,
    )


def _skin(canvas: np.ndarray, mask: np.ndarray, rng: random.Random) -> None:
    """Fill a mask with a skin tone, darker at its edges (a rounded volume), and a soft shadow."""
    tone = np.array(rng.choice(SKIN), np.float32) * rng.uniform(0.85, 1.1)
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return
    # Work on the mask's bounding box only (plus room for the blur and the shadow's offset).
    pad = 16
    h, w = mask.shape
    x0, y0 = max(0, xs.min() - pad), max(0, ys.min() - pad)
    x1, y1 = min(w, xs.max() + pad + 1), min(h, ys.max() + pad + 1)
    m = mask[y0:y1, x0:x1].astype(np.float32) / 255
    shadow = cv2.GaussianBlur(m, (0, 0), 4)
    shadow = np.roll(shadow, (4, 3), axis=(0, 1))[:, :, None]
    body = cv2.GaussianBlur(m, (0, 0), 3)[:, :, None]
    out = canvas[y0:y1, x0:x1].astype(np.float32) * (1 - 0.5 * shadow)
    shade = 0.75 + 0.25 * body
    out = out * (1 - m[:, :, None]) + tone * shade * m[:, :, None]
    canvas[y0:y1, x0:x1] = np.clip(out, 0, 255).astype(np.uint8)


def _rect(o: Occluder, w: float, h: float) -> np.ndarray:
    return np.array(
        [
            _pt(o.center, o.angle, sx * w / 2, sy * h / 2)
            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ],
        np.int32,
    )


def _flat(canvas: np.ndarray, mask: np.ndarray, colour: tuple[float, ...]) -> None:
    m = mask > 127
    canvas[m] = np.array(colour, np.uint8)


def draw(canvas: np.ndarray, ids: np.ndarray, o: Occluder, card_height: float) -> None:
    """Paint one occluder on the canvas and mark what it covers in the id map."""
    if o.kind not in KINDS:
        raise ValueError(f"occluder kind must be one of {', '.join(KINDS)}, got {o.kind!r}")
    rng = random.Random(o.seed)
    unit = card_height * o.scale
    mask = np.zeros(canvas.shape[:2], np.uint8)
    if o.kind in ("hand", "finger"):
        (_hand if o.kind == "hand" else _finger)(mask, o, unit, rng)
        _skin(canvas, mask, rng)
    elif o.kind == "phone":
        body = _rect(o, 0.5 * unit, 1.0 * unit)
        cv2.fillConvexPoly(mask, body, 255)
        _flat(canvas, mask, rng.choice(((20, 20, 20), (200, 200, 205), (40, 30, 60))))
        screen = np.zeros_like(mask)
        cv2.fillConvexPoly(screen, _rect(o, 0.44 * unit, 0.88 * unit), 255)
        _flat(canvas, screen, tuple(rng.randint(10, 120) for _ in range(3)))
    elif o.kind == "glass":
        r = round(0.3 * unit)
        cv2.circle(mask, _pt(o.center, 0, 0, 0), r, 255, -1)
        inside = canvas.astype(np.float32)
        tint = np.array([rng.uniform(150, 230) for _ in range(3)], np.float32)
        blend = (mask > 127)[:, :, None]
        canvas[:] = np.where(blend, (0.55 * inside + 0.45 * tint).astype(np.uint8), canvas)
        cv2.circle(canvas, _pt(o.center, 0, 0, 0), r, (235, 235, 235), max(1, r // 8), cv2.LINE_AA)
    elif o.kind == "pad":
        body = _rect(o, 0.8 * unit, 1.1 * unit)
        cv2.fillConvexPoly(mask, body, 255)
        _flat(canvas, mask, rng.choice(((245, 245, 245), (170, 240, 250), (235, 240, 240))))
        for k in range(1, 9):  # ruled lines and a few scribbled scores
            y = -0.55 * unit + k * 0.12 * unit
            cv2.line(
                canvas,
                _pt(o.center, o.angle, -0.4 * unit, y),
                _pt(o.center, o.angle, 0.4 * unit, y),
                (200, 170, 140),
                1,
            )
            if rng.random() < 0.6:
                cv2.putText(
                    canvas,
                    str(rng.randint(0, 162)),
                    _pt(o.center, o.angle, rng.uniform(-0.35, 0.1) * unit, y - 2),
                    0,
                    max(0.2, unit / 300),
                    (90, 40, 20),
                    1,
                    cv2.LINE_AA,
                )
    else:  # pen
        cv2.line(
            mask,
            _pt(o.center, o.angle, -0.6 * unit, 0),
            _pt(o.center, o.angle, 0.6 * unit, 0),
            255,
            max(2, round(0.06 * unit)),
        )
        _flat(canvas, mask, rng.choice(((30, 30, 30), (160, 60, 20), (20, 20, 180))))
    ids[mask > 127] = -1
