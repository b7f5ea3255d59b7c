"""Teaching the deck memory a table's deck from one picture of its 32 cards, laid out in order.

The deck memory (`vision.deck_memory`) learns a deck from its finished deals, so through the first
deal it knows nothing, and that is where an unseen deck's lookalikes (8C/9C, QH/KH) are read late:
13 of the 22 plays named over 0.5 s after settling on session 74's twelve sets were in the first
deal of their design. A referee who lays the 32 cards face up before the game, in four rows of
eight, one suit to a row, ranks in order 7 8 9 10 J Q K A along each row (either way, the rows in
any order), gives the memory the whole deck at once.

Each card is named by its place, not by its own reading: the classifier only chooses which suit
each row holds and which way it runs, from the readings of its eight cards together, so a card it
reads as its neighbour (an 8C read 9C) is still taught as the card it is.

    layout = find_layout(box_model, classifier, bgr)  # or LayoutError, saying what is wrong
    memory.teach(layout.cards, layout.features)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.crops import LABELS, NONE
from vision.detections import inside, iou

RANKS = ("7", "8", "9", "T", "J", "Q", "K", "A")  # along a row, one way or the other
SUITS = ("S", "H", "D", "C")
ROWS, PER_ROW = len(SUITS), len(RANKS)
# The classifier must read at least this many of the 32 as the layout names them: a layout laid
# otherwise (rows by rank, a card out of place) reads far fewer, and would teach the memory wrongly.
# (The four held-out designs' layouts filmed at 640x480 and 2304x1296: 30-32 of 32.)
MIN_AGREE = 20
# The box model's boxes from this score (its own bar in the two stages); the classifier says which
# are cards.
BOX_CONF = 0.1
# Looked at in tiles about TILE px wide, overlapping by TILE_OVERLAP of a tile on each side; a
# box overlapping a surer one by SAME_CARD (IoU, or its share inside) is that card again.
TILE, TILE_OVERLAP, SAME_CARD = 320, 0.25, 0.5
TILES = (2 * TILE, TILE, 4 * TILE)  # the tile sizes tried in turn
CARD_AREA = (0.6, 1.7)  # a card's box, from this share of the layout's median box to this
NOT_A_CARD = 0.9  # a box read "none" this surely is not one of the cards laid out
# Rows are told apart when the gap between two rows is this share of a card's short side or more.
ROW_GAP = 0.3


class LayoutError(ValueError):
    """The picture does not show the 32 cards laid out as asked; the message says how."""


@dataclass(frozen=True)
class Layout:
    """The 32 cards of a picture, each named by its place in the layout."""

    cards: tuple[str, ...]  # each box's card, named by its place
    read: tuple[str, ...]  # each box's best reading by the classifier alone ("none" too)
    boxes: tuple[tuple[float, float, float, float], ...]
    features: np.ndarray  # (32, F): the classifier's pooled features of each box
    rows: tuple[tuple[int, ...], ...]  # box indices of each row, in order along it

    @property
    def agree(self) -> int:
        """Boxes the classifier alone reads as their places name them."""
        return sum(a == b for a, b in zip(self.cards, self.read, strict=True))

    def table(self) -> str:
        """The layout as named, a row a line; where the classifier alone read another card,
        that reading follows in brackets."""
        return "\n".join(" ".join(self.cards[i] + ("" if self.read[i] == self.cards[i]
                                                     else f"({self.read[i]})") for i in row)
                         for row in self.rows)


def grid_rows(centres: np.ndarray, card_side: float) -> list[list[int]]:
    """The 32 `centres` (N, 2) as four rows of eight (indices, each row in order along it).

    The rows run along the layout's long side or its short one, whichever splits the cards into
    four separate rows (the camera may be turned any way over the table)."""
    if len(centres) != ROWS * PER_ROW:
        raise _missing(len(centres))
    pts = centres - centres.mean(0)
    _, _, axes = np.linalg.svd(pts, full_matrices=False)  # the layout's two directions
    for along, across in ((axes[0], axes[1]), (axes[1], axes[0])):
        v = pts @ across
        order = np.argsort(v)
        rows = [order[k * PER_ROW:(k + 1) * PER_ROW] for k in range(ROWS)]
        spread = max(float(np.ptp(v[r])) for r in rows)
        gaps = [float(v[rows[k + 1]].min() - v[rows[k]].max()) for k in range(ROWS - 1)]
        # (four rows: each gap clear of a card's side and of twice a row's own spread; split
        # the other way, four pairs of columns, the gaps are no wider than a pair)
        if min(gaps) >= max(ROW_GAP * card_side, 2 * spread):
            u = pts @ along
            return [sorted((int(i) for i in r), key=lambda i: float(u[i])) for r in rows]
    raise LayoutError(f"the cards are not in {ROWS} rows of {PER_ROW}: lay one suit to a row, "
                      "the rows apart")


def _missing(found: int) -> LayoutError:
    return LayoutError(f"found {found} cards; lay all {ROWS * PER_ROW} face up, in {ROWS} rows "
                       f"of {PER_ROW}, apart from each other")


def name_rows(rows: Sequence[Sequence[int]], probs: np.ndarray) -> list[list[str]]:
    """Each row's cards named: the suit of each row (one each) and the way each runs that the
    classifier's readings `probs` (N, 33) favour most, all eight cards of a row together."""
    logp = np.log(np.maximum(probs[:, :NONE], 1e-6))
    index = {card: LABELS.index(card) for card in LABELS[:NONE]}

    def named(row: Sequence[int], suit: str, forward: bool) -> list[str]:
        ranks = RANKS if forward else RANKS[::-1]
        return [rank + suit for rank in ranks[: len(row)]]

    best: dict[tuple[int, str], tuple[float, list[str]]] = {}
    for r, row in enumerate(rows):
        for suit in SUITS:
            ways = [named(row, suit, forward) for forward in (True, False)]
            scores = [sum(logp[i, index[c]] for i, c in zip(row, way, strict=True)) for way in ways]
            k = int(np.argmax(scores))
            best[(r, suit)] = (float(scores[k]), ways[k])
    pick = max(itertools.permutations(SUITS),
               key=lambda suits: sum(best[(r, s)][0] for r, s in enumerate(suits)))
    return [best[(r, s)][1] for r, s in enumerate(pick)]


def read_layout(bgr: np.ndarray, boxes: Sequence[Sequence[float]], classifier: object
                ) -> Layout:
    """The 32 cards of a picture `bgr`, boxed by the box model (`boxes`), named by their places;
    the classifier (`vision.classifier.CardClassifier`, with features) reads each box. Raises
    LayoutError."""
    found = [(float(b[0]), float(b[1]), float(b[2]), float(b[3])) for b in boxes]
    if len(found) < ROWS * PER_ROW:
        raise _missing(len(found))
    probs, features = classifier.read(bgr, found)  # type: ignore[attr-defined]
    if features is None:
        raise LayoutError("this classifier gives no features to learn from (an ensemble with "
                          "features does: `python -m vision.classifier features`)")
    # The 32 boxes read least as no card: something else on the felt is left out, but not a
    # card of an unseen deck read half "none" (bellot's 8S, svgcards' 8C: card_classifier.md).
    keep = sorted(range(len(found)), key=lambda i: float(probs[i, NONE]))[: ROWS * PER_ROW]
    keep = [i for i in sorted(keep) if probs[i, NONE] < NOT_A_CARD]
    kept = [found[i] for i in keep]
    centres = np.array([((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in kept])
    side = float(np.median([min(x1 - x0, y1 - y0) for x0, y0, x1, y1 in kept] or [0.0]))
    rows = grid_rows(centres, side)
    names = name_rows(rows, probs[keep])
    cards = [""] * len(kept)
    for row, row_names in zip(rows, names, strict=True):
        for i, card in zip(row, row_names, strict=True):
            cards[i] = card
    read = tuple(LABELS[int(np.argmax(probs[i]))] for i in keep)
    layout = Layout(tuple(cards), read, tuple(kept), np.asarray(features[keep], np.float32),
                    tuple(tuple(r) for r in rows))
    if layout.agree < MIN_AGREE:
        raise LayoutError(f"only {layout.agree} of the 32 cards read as their places name them: "
                          f"lay one suit to a row, ranks in order {' '.join(RANKS)}\n"
                          f"{layout.table()}")
    return layout


def find_layout(box_model: object, classifier: object, bgr: np.ndarray,
                main: np.ndarray | None = None) -> Layout:
    """`read_layout` on the boxes the box model (`vision.detector.Detector`, class-agnostic
    `boxes`) finds from BOX_CONF in the largest picture given, looked at in tiles of each size
    of TILES in turn until one shows the layout: 32 cards laid side by side are closer than the
    cards of a trick, which the box model was made for (the four designs' layouts filmed at
    2304x1296, looked at whole as the 640x360 picture: 2-5 of 32 boxed from 0.5; gnome-bellot's
    in tiles of 640 px: all 32 boxed, of 320 or 1280 px: all but 2)."""
    picture = bgr if main is None else main
    failed: list[LayoutError] = []
    for tile in TILES:
        boxes = tiled_boxes(box_model, picture, BOX_CONF, tile)
        if boxes:  # (a box on part of a card, cut by a tile's edge, is no card)
            areas = [(x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes]
            low, high = np.median(areas) * np.array(CARD_AREA)
            boxes = [b for b, a in zip(boxes, areas, strict=True) if low <= a <= high]
        try:
            return read_layout(picture, boxes, classifier)
        except LayoutError as exc:
            failed.append(exc)
    raise failed[0]


def tiled_boxes(box_model: object, bgr: np.ndarray, conf: float, tile: int = TILE
                ) -> list[tuple[float, float, float, float]]:
    """The box model's boxes over `bgr` cut into overlapping tiles about `tile` px wide (each
    box whole in some tile), the same card's boxes from two tiles kept once (the surer)."""
    h, w = bgr.shape[:2]
    nx, ny = max(1, round(w / tile)), max(1, round(h / tile))
    tw, th = w / nx, h / ny
    found: list[tuple[float, tuple[float, float, float, float]]] = []
    for i in range(nx):
        for j in range(ny):
            x0, y0 = int(max(0, (i - TILE_OVERLAP) * tw)), int(max(0, (j - TILE_OVERLAP) * th))
            x1 = int(min(w, (i + 1 + TILE_OVERLAP) * tw))
            y1 = int(min(h, (j + 1 + TILE_OVERLAP) * th))
            for d in box_model.boxes(np.ascontiguousarray(bgr[y0:y1, x0:x1]), conf):  # type: ignore[attr-defined]
                bx0, by0, bx1, by1 = d.box
                score = d.box_conf if d.box_conf is not None else d.confidence
                found.append((float(score), (bx0 + x0, by0 + y0, bx1 + x0, by1 + y0)))
    kept: list[tuple[float, float, float, float]] = []
    for _score, box in sorted(found, key=lambda f: -f[0]):  # (surest first)
        if all(iou(box, k) < SAME_CARD and inside(box, k) < SAME_CARD
               and inside(k, box) < SAME_CARD for k in kept):
            kept.append(box)
    return kept
