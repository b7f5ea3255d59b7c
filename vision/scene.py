"""Random layouts for training: a belote table seen by the device camera, or a phone close-up.

`random_scene(design, textures, size, rng)` returns a ready `TableScene`, its placements and its
occluders; `TableScene.render` draws them. Each belote card appears at most once per scene (a deck
holds one of each); backs and distractors (2-6, jokers) are mixed in so the model learns to ignore
them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import numpy as np

from vision.artwork import Design
from vision.detections import CLASS_NAMES
from vision.render import Camera, Occluder, Placement, TableScene
from vision.table_clutter import KINDS

SEAT_ANGLES = {"S": 0.0, "W": 90.0, "N": 180.0, "E": 270.0}


class _Deck:
    """Draw belote cards without replacement, and distractors/backs freely."""

    def __init__(self, design: Design, rng: random.Random) -> None:
        self.cards = [c for c in CLASS_NAMES if c in design.cards]
        rng.shuffle(self.cards)
        self.distractors = sorted(design.distractors)
        self.has_back = design.back is not None
        self.rng = rng

    def card(self) -> str | None:
        return self.cards.pop() if self.cards else None

    def back(self) -> str | None:
        """A face-down card (or a distractor when the design has no back)."""
        return "back" if self.has_back else self.distractor()

    def distractor(self) -> str | None:
        """A face-up card outside the belote deck (2-6, a joker), or a back if there is none."""
        if self.distractors:
            return self.rng.choice(self.distractors)
        return "back" if self.has_back else None

    def other(self) -> str | None:
        """Either kind of card that must not be labelled."""
        return self.back() if self.rng.random() < 0.4 else self.distractor()


def _toward_centre(point: tuple[float, float], size: tuple[int, int]) -> float:
    """The angle (deg) pointing from a point to the image centre: hands reach inward."""
    return math.degrees(math.atan2(size[1] / 2 - point[1], size[0] / 2 - point[0]))


def _edge_point(size: tuple[int, int], rng: random.Random) -> tuple[float, float]:
    w, h = size
    side = rng.randrange(4)
    t = rng.uniform(0.15, 0.85)
    return [(t * w, -0.02 * h), (1.02 * w, t * h), (t * w, 1.02 * h), (-0.02 * w, t * h)][side]


def _hands(size: tuple[int, int], rng: random.Random, n: int) -> list[Occluder]:
    out = []
    for _ in range(n):
        start = _edge_point(size, rng)
        reach = rng.uniform(0.15, 0.45)
        cx = start[0] + (size[0] / 2 - start[0]) * reach
        cy = start[1] + (size[1] / 2 - start[1]) * reach
        angle = _toward_centre(start, size) + rng.uniform(-30, 30)
        kind = "hand" if rng.random() < 0.7 else "finger"
        out.append(
            Occluder(kind, (cx, cy), angle, rng.uniform(0.8, 1.3), seed=rng.randrange(2**31))
        )
    return out


def _clutter(size: tuple[int, int], rng: random.Random, n: int) -> list[Occluder]:
    w, h = size
    return [
        Occluder(
            rng.choice(KINDS),
            (rng.uniform(0, w), rng.uniform(0, h)),
            rng.uniform(0, 360),
            rng.uniform(0.7, 1.4),
            z=rng.choice((-1.0, math.inf)),
            seed=rng.randrange(2**31),
        )
        for _ in range(n)
    ]


def _fan(
    deck: _Deck,
    pivot: tuple[float, float],
    direction: float,
    n: int,
    scale: float,
    rng: random.Random,
    card_height: float,
    backs: bool,
    z0: float,
) -> list[Placement]:
    """A hand of cards spread like a fan around a pivot below them."""
    spread = rng.uniform(7, 16)
    out = []
    for k in range(n):
        name = deck.back() if backs else deck.card()
        if name is None:
            break
        a = direction + (k - (n - 1) / 2) * spread
        r = 0.35 * card_height * scale
        rad = math.radians(a - 90)
        centre = (pivot[0] + r * math.cos(rad), pivot[1] + r * math.sin(rad))
        out.append(Placement(name, centre, a, scale, z0 + k))
    return out


def table_layout(
    scene: TableScene,
    deck: _Deck,
    rng: random.Random,
    reach: float = 1.0,
) -> tuple[list[Placement], list[Occluder]]:
    """The device view: the trick in the middle, played cards, piles of tricks, hands, clutter.
    `reach` scales how far from the middle the seats put their cards (in card heights)."""
    w, h = scene.size
    ch = scene.card_height
    placements: list[Placement] = []
    z = 0.0
    # Tricks already gathered: face-down stacks near the edges, sometimes the last one face up.
    for _ in range(rng.choice((0, 0, 1, 2, 3))):
        px, py = rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h
        for _k in range(rng.randint(2, 6)):
            name = deck.back() if rng.random() < 0.85 else deck.card()
            if name:
                jitter = 0.04 * ch
                placements.append(
                    Placement(
                        name,
                        (px + rng.uniform(-jitter, jitter), py + rng.uniform(-jitter, jitter)),
                        rng.uniform(0, 360),
                        1.0,
                        z,
                    )
                )
                z += 1
    # The trick being played: up to four cards in front of their seats, later ones on top.
    seats = list(SEAT_ANGLES)
    first = rng.randrange(4)
    for k in range(rng.choice((1, 2, 3, 4, 4, 4))):
        seat = seats[(first + k) % 4]
        sx, sy = scene.seat_spot(seat)
        sx, sy = w / 2 + reach * (sx - w / 2), h / 2 + reach * (sy - h / 2)
        spread = rng.uniform(0.0, 0.45) * ch
        name = deck.card() if rng.random() < 0.93 else deck.other()
        if name:
            placements.append(
                Placement(
                    name,
                    (sx + rng.uniform(-spread, spread), sy + rng.uniform(-spread, spread)),
                    SEAT_ANGLES[seat] + rng.uniform(-35, 35) + rng.choice((0, 0, 180)),
                    rng.uniform(0.92, 1.08),
                    z,
                )
            )
            z += 1
    # A loose pile in the middle (a trick being gathered, cards thrown in).
    if rng.random() < 0.35:
        for _ in range(rng.randint(2, 5)):
            name = deck.card() if rng.random() < 0.8 else deck.other()
            if name:
                placements.append(
                    Placement(
                        name,
                        (w / 2 + rng.gauss(0, 0.25 * ch), h / 2 + rng.gauss(0, 0.25 * ch)),
                        rng.uniform(0, 360),
                        1.0,
                        z,
                    )
                )
                z += 1
    # Players' hands held low at the edge of the frame: mostly backs, sometimes faces.
    for seat in rng.sample(seats, rng.choice((0, 0, 1, 2))):
        angle = SEAT_ANGLES[seat]
        rad = math.radians(angle + 90)
        pivot = (w / 2 + 0.62 * w * math.cos(rad), h / 2 + 0.62 * h * math.sin(rad))
        placements += _fan(
            deck,
            pivot,
            angle + 180,
            rng.randint(3, 8),
            1.1,
            rng,
            ch,
            backs=rng.random() < 0.7,
            z0=z,
        )
        z += 10
    # A few stray cards anywhere, including distractors.
    for _ in range(rng.choice((0, 1, 1, 2, 3))):
        name = deck.other() if rng.random() < 0.5 else deck.card()
        if name:
            placements.append(
                Placement(
                    name,
                    (rng.uniform(0, w), rng.uniform(0, h)),
                    rng.uniform(0, 360),
                    rng.uniform(0.9, 1.1),
                    z,
                )
            )
            z += 1
    occluders = _hands(scene.size, rng, rng.choice((0, 0, 1, 1, 2)))
    occluders += _clutter(scene.size, rng, rng.choice((0, 1, 1, 2, 3)))
    return placements, occluders


def _pile(deck: _Deck, size: tuple[int, int], card_height: float,
          rng: random.Random) -> list[Placement]:
    """Two to four cards dropped on one another at any angle, each showing part of its face:
    what phone photos of played cards often show, and where the box model may draw one box over
    two cards."""
    w, h = size
    centre = (rng.uniform(0.35, 0.65) * w, rng.uniform(0.35, 0.65) * h)
    angle = rng.uniform(-180, 180)
    out: list[Placement] = []
    for k in range(rng.randint(2, 4)):
        name = deck.card() if rng.random() < 0.9 else deck.other()
        if name is None:
            continue
        out.append(Placement(name, centre, angle, rng.uniform(0.9, 1.05), k))
        # The next card lands a quarter to two thirds of a card away, turned up to 50 degrees.
        step, heading = rng.uniform(0.25, 0.65) * card_height, rng.uniform(0, 2 * math.pi)
        centre = (
            min(max(centre[0] + step * math.cos(heading), 0.15 * w), 0.85 * w),
            min(max(centre[1] + step * math.sin(heading), 0.15 * h), 0.85 * h),
        )
        angle += rng.uniform(-50, 50)
    return out


def closeup_layout(
    scene: TableScene,
    deck: _Deck,
    rng: random.Random,
    piles: float = 0.0,
) -> tuple[list[Placement], list[Occluder]]:
    """A phone photo: one to five large cards, scattered, overlapping or fanned; a share `piles`
    are cards dropped on one another (0 draws nothing: older datasets render the same)."""
    w, h = scene.size
    ch = scene.card_height
    placements: list[Placement] = []
    pile = bool(piles) and rng.random() < piles
    style = 0.0 if pile else rng.random()
    if pile:
        placements = _pile(deck, scene.size, ch, rng)
    elif style < 0.25:
        pivot = (w / 2 + rng.uniform(-0.2, 0.2) * w, h / 2 + rng.uniform(0.1, 0.4) * h)
        placements = _fan(
            deck, pivot, rng.uniform(-30, 30), rng.randint(2, 5), 1.0, rng, ch, backs=False, z0=0
        )
    elif style < 0.5:  # overlapping, side by side, as a hand laid on the table
        n = rng.randint(2, 4)
        x0, y = w / 2 - (n - 1) * 0.3 * ch, h / 2 + rng.uniform(-0.15, 0.15) * h
        base = rng.uniform(-40, 40)
        for k in range(n):
            name = deck.card() if rng.random() < 0.9 else deck.other()
            if name:
                placements.append(
                    Placement(
                        name,
                        (
                            x0 + k * 0.6 * ch * rng.uniform(0.6, 1.1),
                            y + rng.uniform(-0.1, 0.1) * ch,
                        ),
                        base + rng.uniform(-12, 12),
                        1.0,
                        k,
                    )
                )
    else:
        for k in range(rng.choice((1, 1, 2, 3, 4))):
            name = deck.card() if rng.random() < 0.88 else deck.other()
            if name:
                placements.append(
                    Placement(
                        name,
                        (rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h),
                        rng.uniform(-180, 180),
                        rng.uniform(0.85, 1.1),
                        k,
                    )
                )
    occluders = _hands(scene.size, rng, 1) if rng.random() < 0.15 else []
    occluders += _clutter(scene.size, rng, rng.choice((0, 0, 1, 2)))
    return placements, occluders


def _scene(design: Design, texture: np.ndarray | None, dims: tuple[int, int], camera: Camera,
           rng: random.Random, heights: tuple[float, float]) -> TableScene:
    """A scene with its own seed, cards `heights` (a range) of the picture's short side tall.
    (The seed is drawn before the height: datasets rendered earlier stay the same.)"""
    seed = rng.randrange(2**31)
    return TableScene(design, texture, dims, seed, camera,
                      card_height=rng.uniform(*heights) * min(dims))


def random_scene(
    design: Design,
    textures: Sequence[np.ndarray],
    size: int,
    rng: random.Random,
    closeup: float = 0.4,
    far: float = 0.0,
    piles: float = 0.0,
) -> tuple[TableScene, list[Placement], list[Occluder]]:
    """A scene of a random kind: `size` is the long side; a share `far` are the whole table seen
    from the device's height, and of the rest a share `closeup` are phone close-ups (of which a
    share `piles` are cards dropped on one another)."""
    deck = _Deck(design, rng)
    texture = rng.choice(list(textures)) if textures and rng.random() < 0.65 else None
    if far and rng.random() < far:  # `far` = 0 draws nothing: older datasets render the same
        # The device camera above the whole table: cards about a tenth of the picture's height,
        # played up to a couple of card heights from the middle (`belote simulate` frames).
        dims = rng.choice(((size, size * 3 // 4), (size, size * 3 // 4), (size, size)))
        camera = Camera.random(rng, dims, tilt=0.08, rotate=10.0, zoom=(0.95, 1.1))
        scene = _scene(design, texture, dims, camera, rng, (0.07, 0.14))
        return (scene, *table_layout(scene, deck, rng, reach=rng.uniform(1.0, 2.6)))
    if rng.random() < closeup:
        dims = rng.choice(((size * 3 // 4, size), (size, size), (size, size * 3 // 4)))
        camera = Camera.random(rng, dims, tilt=0.25, zoom=(1.0, 1.2))
        scene = _scene(design, texture, dims, camera, rng, (0.28, 0.6))
        placements, occluders = closeup_layout(scene, deck, rng, piles)
    else:
        dims = rng.choice(((size, size), (size, size * 3 // 4)))
        camera = Camera.random(rng, dims, tilt=0.2, zoom=(1.0, 1.3))
        scene = _scene(design, texture, dims, camera, rng, (0.14, 0.26))
        placements, occluders = table_layout(scene, deck, rng)
    return scene, placements, occluders
