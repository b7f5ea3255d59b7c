"""What else lies on the felt while a deal is played: the tricks won, face down in a pile in
front of whoever gathered them, and a phone, a glass, a score pad or a pen near the corners.

Simulated deals film them on request (`belote simulate --clutter`), so that the tracker is
measured beside things shaped like cards, or lying where cards are, that it must never record:
a pile of backs sits in a seat's part of the felt for most of the deal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Seat

KINDS = ("phone", "glass", "pad", "pen")  # the renderer's clutter (`vision.occlusion` draws them)
PILE_CM = 30.0  # a seat's pile of tricks: this far from the middle, where the sweep ends
CORNER_CM = (24.0, 34.0)  # objects lie this far from the middle along both axes: off the play


@dataclass(frozen=True, slots=True)
class TableObject:
    """Something on the felt for the whole deal (table centimetres, from the middle)."""

    kind: str
    x: float
    y: float
    angle: float
    scale: float
    seed: int  # its shape and colour


@dataclass(frozen=True, slots=True)
class TableClutter:
    """The backs of the piles, each shown from the moment its trick was turned over, and the
    objects, always there."""

    backs: tuple[tuple[float, tuple[float, float, float]], ...]  # (since, (x, y, angle))
    objects: tuple[TableObject, ...]

    def backs_at(self, t: float) -> tuple[tuple[float, float, float], ...]:
        return tuple(pose for since, pose in self.backs if t >= since)


def lay_clutter(
    turned: Sequence[tuple[Seat, float]], side: dict[Seat, tuple[float, float]],
    facing: dict[Seat, float], rng: random.Random,
) -> TableClutter:
    """`turned`: (winner, time) each trick was swept to its winner's pile and turned over.
    One back per trick (the pile shows its top card and the edges of the ones below)."""
    backs = []
    for seat, t in turned:
        sx, sy = side[seat]
        pose = (sx * PILE_CM + rng.uniform(-0.8, 0.8), sy * PILE_CM + rng.uniform(-0.8, 0.8),
                facing[seat] + rng.uniform(-12.0, 12.0))
        backs.append((t, pose))
    corners = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    rng.shuffle(corners)
    objects = tuple(
        TableObject(rng.choice(KINDS), qx * rng.uniform(*CORNER_CM), qy * rng.uniform(*CORNER_CM),
                    rng.uniform(0.0, 360.0), rng.uniform(0.7, 1.2), rng.randrange(2**31))
        for qx, qy in corners[: rng.choice((1, 2, 2, 3))]
    )
    return TableClutter(tuple(backs), objects)
