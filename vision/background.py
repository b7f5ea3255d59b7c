"""The empty table as the fixed camera sees it: what differs from it, card-sized, is a box to read.

The box model misses some cards outright (a white card on a pale marble felt, a deck design it never
saw), while the camera never moves: the felt is learnt frame by frame, and a card-sized patch that
differs from it and lies where no box was found is handed to the card classifier like any other box
(`vision.two_stage.TwoStage`); the classifier's `none` vetoes hands and clutter, and the tracker
still asks every card to lie still before it counts.

The felt is a running average of the frames (`rate` per frame) at half resolution, except under the
cards held (below), so a card read lying still is never learnt as felt; anything else that stays
(a glass, a phone) fades into the felt within seconds. A hand that lingers leaves a trail there as
it goes, learnt in part; closed up with the card it put down, it makes a patch too big for a card,
whose own pixels, not closed up, are looked at again for one card-sized.

A card read lying still (read as the same card at the same place two frames running) is held: for
HOLD frames after its last reading, while no box found in a frame (named, or read too weakly to
name) matches or covers its box, that box is read again (`held`). On a busy cloth the box model's
score for a card lying still can sink under its threshold for seconds (a queen read 0.96 at 3.2 s,
its box scored 0.05-0.09 until 6 s, seed 2157 deal 3), and a card touching another is no
card-sized patch for the felt. The classifier decides each frame; a card picked up leaves felt
there, read `none`. A card moving in a hand is not held, nor a card read as two cards in turn (a
9D landing read 8D, then 7D: held, its box cut out of the felt's difference left a strip of the 9D
that read 7D, and the tracker took it for more plays; seed 2144 deal 5). A part of a card can be
held (the lower half of a 9S landing under the hand read 8S three frames running, seed 2140 deal
5), but the box found on the whole card then covers it, even read too weakly to name (9S just
under the bar); read again beside that box, the half put an 8S on the table and the 9S was
recorded as 8S.

    background = TableBackground()
    held = background.held(known_boxes)                # cards lying still lately: read again
    boxes = background.boxes(bgr, known_boxes + held)  # patches to read, in image pixels
    background.learn([d.box for d in cards_read], [d.card for d in cards_read])  # then the felt
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from statistics import median

import numpy as np

from vision.detections import inside, iou

Box = tuple[float, float, float, float]

SCALE = 2  # the felt is learnt and compared at half resolution: cheap, and noise averages out
DIFF = 28  # a pixel differs from the felt by this much (max over B, G, R, 0-255)
RATE = 0.05  # share of each new frame learnt into the felt (about 2 s at 10 frames/s)
WARMUP = 10  # frames learnt before any patch is reported
SAME_CARD = 0.5  # a box read in this frame this close to a held card's box is that card
STILL = 0.8  # a card read as itself two frames running with boxes this close lies still
COVERED = 0.5  # a held box this much inside a box found in this frame is part of that card
TOO_LONG = 1.45  # a patch's long side over a card's long side beyond which it is no card
HOLD = 20  # frames a card's box is read again after its last reading (2 s at 10 frames/s)


def _card_sized(width: int, height: int, area: int, size: float) -> bool:
    """Whether a patch `width` x `height` (felt pixels) covering `area` of them is a card whose
    long side in the image is `size`. A card at any angle: its box's long side between the card's
    long side (upright) and 1.3 times it (tilted 45 degrees), its short side at least half the
    long one; from 0.65 of it, for a pale card's patch can miss its edges (an ace on a cream
    cloth)."""
    long, short = max(width, height) * SCALE, min(width, height) * SCALE
    return (0.65 * size <= long <= TOO_LONG * size and short >= 0.5 * long
            and area >= 0.45 * width * height)


def _overlaps(box: Box, others: Sequence[Sequence[float]]) -> bool:
    """Whether `box` shares a third of its area with a box of `others`, or holds its centre."""
    x0, y0, x1, y1 = box
    for o in others:
        cx, cy = (float(o[0]) + float(o[2])) / 2, (float(o[1]) + float(o[3])) / 2
        if inside(box, o) >= 1 / 3 or (x0 <= cx <= x1 and y0 <= cy <= y1):
            return True
    return False


class TableBackground:
    """The felt as learnt so far, and the card-sized patches that differ from it."""

    def __init__(self, rate: float = RATE, diff: int = DIFF) -> None:
        self.rate, self.diff = rate, diff
        self.felt: np.ndarray | None = None
        self.frames = 0
        self._small: np.ndarray | None = None
        self._sizes: deque[float] = deque(maxlen=200)  # long sides of the cards read lately
        self.expected: float | None = None  # a card's long side guessed from the felt's size
        self._held: list[tuple[Box, int]] = []  # cards read lying still: box, frames since
        self._last: list[tuple[str, Box]] = []  # the cards read in the last frame, and boxes

    def reset(self) -> None:
        """Forget the felt (another table, or the camera moved)."""
        self.felt, self.frames, self._small, self.expected = None, 0, None, None
        self._sizes.clear()
        self._held, self._last = [], []

    @property
    def card_size(self) -> float | None:
        """A card's long side in image pixels, from the cards read lately; before three are
        read, `expected` (on a felt as pale as the cards the box model may read none)."""
        return median(self._sizes) if len(self._sizes) >= 3 else self.expected

    def held(self, known: Sequence[Sequence[float]]) -> list[Box]:
        """The boxes of the cards held (read lying still lately) that no `known` box (the boxes
        found in this frame, named or not) matches or covers: to be read again."""
        return [b for b, _ in self._held
                if all(iou(b, k) < SAME_CARD and inside(b, k) < COVERED for k in known)]

    def boxes(self, bgr: np.ndarray, known: Sequence[Sequence[float]]) -> list[Box]:
        """Card-sized patches of `bgr` that differ from the felt and hold no `known` box."""
        import cv2

        h, w = bgr.shape[:2]
        small = cv2.resize(bgr, (w // SCALE, h // SCALE), interpolation=cv2.INTER_AREA)
        self._small = cv2.GaussianBlur(small, (3, 3), 0)
        size = self.card_size
        if self.felt is None or self.felt.shape != self._small.shape:
            self.felt, self.frames = self._small.astype(np.float32), 0
            return []
        if self.frames < WARMUP or size is None:
            return []
        delta = cv2.absdiff(self._small, self.felt.astype(np.uint8)).max(axis=2)
        raw = (delta > self.diff).astype(np.uint8)
        k = max(3, int(size / SCALE / 4) | 1)  # fills a pale card whose middle matches the felt
        mask = cv2.morphologyEx(raw, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        # Cards accounted for are no patch: a card touching one is then a patch of its own.
        for x0, y0, x1, y1 in known:
            mask[int(y0) // SCALE:int(y1) // SCALE + 1, int(x0) // SCALE:int(x1) // SCALE + 1] = 0
        count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        found: list[Box] = []
        for i in range(1, count):
            x, y, bw, bh, area = (int(v) for v in stats[i])
            patches = [(x, y, bw, bh)] if _card_sized(bw, bh, area, size) else []
            if not patches and max(bw, bh) * SCALE > TOO_LONG * size:
                # Too big: a card closed up with a trail beside it (a hand that put it down,
                # learnt into the felt in part, seed 2181 deal 11). Its own pixels, not closed
                # up, may still be a card-sized patch; not opened either, which cut a strip off
                # the card's edge there (the narrower patch read JS 0.41 / QS 0.37).
                part = raw[y:y + bh, x:x + bw] & (labels[y:y + bh, x:x + bw] == i)
                n, _, sub, _ = cv2.connectedComponentsWithStats(part.astype(np.uint8),
                                                                connectivity=8)
                patches = [(x + int(sx), y + int(sy), int(sw), int(sh))
                           for sx, sy, sw, sh, sa in sub[1:n] if _card_sized(sw, sh, sa, size)]
            for px, py, pw, ph in patches:
                box = (float(px * SCALE), float(py * SCALE), float((px + pw) * SCALE),
                       float((py + ph) * SCALE))
                if not _overlaps(box, known):
                    found.append(box)
        return found

    def learn(self, cards: Sequence[Sequence[float]], names: Sequence[str] | None = None) -> None:
        """Learn the last frame given to `boxes` into the felt, except under the cards held (read
        lying still); `cards`, the boxes read as cards in it, and `names`, the card each was read
        as (None: all alike), update the held cards and keep `card_size` current."""
        read: list[Box] = [tuple(float(v) for v in box) for box in cards]  # type: ignore[misc]
        named = list(zip(names if names is not None else [""] * len(read), read, strict=True))
        still = [b for card, b in named
                 if any(card == was and iou(b, last) >= STILL for was, last in self._last)]
        self._held = [(b, age + 1) for b, age in self._held if age < HOLD
                      and all(iou(b, r) < SAME_CARD for r in read)] + [(b, 0) for b in still]
        self._last = named
        if self._small is None or self.felt is None:
            return
        keep = np.zeros(self._small.shape[:2], bool)
        for box in cards:
            x0, y0, x1, y1 = (int(v) for v in box)
            self._sizes.append(max(x1 - x0, y1 - y0))
        for box, _ in self._held:
            x0, y0, x1, y1 = (int(v) for v in box)
            keep[y0 // SCALE:y1 // SCALE + 1, x0 // SCALE:x1 // SCALE + 1] = True
        rate = np.where(keep, 0.0, self.rate).astype(np.float32)[..., None]
        self.felt += rate * (self._small.astype(np.float32) - self.felt)
        self.frames += 1
