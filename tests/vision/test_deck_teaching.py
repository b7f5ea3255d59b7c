"""Teaching the deck memory from a picture of the 32 cards laid out: each card is named by its
place in the layout (rows of a suit, ranks in order), not by the classifier's reading of it."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_deck_memory import look, reading
from tiny_deck import tiny_design

from vision.crops import LABELS, NONE
from vision.deck_memory import DeckMemory
from vision.deck_teaching import (
    RANKS,
    LayoutError,
    find_layout,
    grid_rows,
    read_layout,
)
from vision.detections import iou

Box = tuple[float, float, float, float]
MODELS = Path(__file__).resolve().parents[2] / "models"


def laid_out(suits: str = "DSCH", forward: str = "TFTF", turn: float = 0.0,
             size: tuple[float, float] = (30.0, 44.0)) -> list[tuple[str, Box]]:
    """The 32 cards as boxes: a row of each of `suits` (top down), 7 to A left to right where
    `forward` says T, the whole layout turned `turn` degrees about the picture's centre."""
    a = math.radians(turn)
    out = []
    for r, suit in enumerate(suits):
        ranks = RANKS if forward[r] == "T" else RANKS[::-1]
        for c, rank in enumerate(ranks):
            x, y = (c - 3.5) * (size[0] + 12), (r - 1.5) * (size[1] + 14)
            cx = 320 + x * math.cos(a) - y * math.sin(a)
            cy = 240 + x * math.sin(a) + y * math.cos(a)
            out.append((rank + suit, (cx - size[0] / 2, cy - size[1] / 2,
                                      cx + size[0] / 2, cy + size[1] / 2)))
    return out


class ReadsTheTruth:
    """A classifier reading each box as the laid-out card it covers, but for `misreads`
    (card: its readings); features: each card's own look."""

    features = "pooled"

    def __init__(self, cards: list[tuple[str, Box]], misreads: dict[str, np.ndarray] | None = None
                 ) -> None:
        self.cards, self.misreads = cards, misreads or {}

    def card_at(self, box: Box) -> str | None:
        card, truth = max(self.cards, key=lambda c: iou(c[1], box))
        return card if iou(truth, box) >= 0.5 else None

    def read(self, bgr: np.ndarray, boxes: list[Box]) -> tuple[np.ndarray, np.ndarray]:
        probs, feats = [], []
        for box in boxes:
            card = self.card_at(box)
            if card is None:
                probs.append(reading())
                feats.append(look("AS", 5.0))
                continue
            probs.append(self.misreads.get(card, reading(**{card: 0.9})))
            feats.append(look(card))
        return np.array(probs), np.array(feats)


def boxes_of(cards: list[tuple[str, Box]]) -> list[Box]:
    return [box for _card, box in cards]


@pytest.mark.parametrize("turn", [0.0, 30.0, 90.0, 200.0])
def test_each_card_is_named_by_its_place_even_where_the_classifier_reads_its_neighbour(turn):
    cards = laid_out(turn=turn)
    misreads = {"8C": reading(**{"9C": 0.6, "8C": 0.3}),
                "9C": reading(**{"8C": 0.6, "9C": 0.3}),
                "8S": reading(**{"8S": 0.3})}  # read "none" 0.7, as bellot's 8S is
    shuffled = random.Random(1).sample(cards, len(cards))
    layout = read_layout(np.zeros((480, 640, 3), np.uint8), boxes_of(shuffled),
                         ReadsTheTruth(cards, misreads))
    assert list(layout.cards) == [card for card, _box in shuffled]
    assert layout.agree == 29  # (8C, 9C and 8S read otherwise)
    assert "8C(9C)" in layout.table() and "8S(none)" in layout.table()


def test_a_box_on_something_else_than_the_cards_is_left_out():
    cards = laid_out()
    phone = (560.0, 400.0, 620.0, 470.0)
    layout = read_layout(np.zeros((480, 640, 3), np.uint8), [*boxes_of(cards), phone],
                         ReadsTheTruth(cards))
    assert phone not in layout.boxes and sorted(layout.cards) == sorted(c for c, _ in cards)


def test_a_card_missing_or_cards_not_in_rows_are_refused_saying_so():
    cards = laid_out()
    with pytest.raises(LayoutError, match="found 31 cards"):
        read_layout(np.zeros((480, 640, 3), np.uint8), boxes_of(cards[1:]), ReadsTheTruth(cards))
    rng = random.Random(4)
    scattered = [(card, (x, y, x + 30, y + 44)) for card, _box in cards
                 for x, y in [(rng.uniform(0, 600), rng.uniform(0, 430))]]
    with pytest.raises(LayoutError, match="not in 4 rows of 8"):
        grid_rows(np.array([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for _c, b in scattered]),
                  30.0)


def test_a_layout_laid_otherwise_than_asked_is_refused_not_taught():
    # Rows by rank (7s and 8s in the first, ...): the places name cards the pictures are not.
    cards = laid_out()
    by_rank = sorted((card for card, _box in cards), key=lambda c: (RANKS.index(c[0]), c[1]))
    wrong = [(card, box) for card, (_c, box) in zip(by_rank, cards, strict=True)]
    with pytest.raises(LayoutError, match="of the 32 cards read as their places name them"):
        read_layout(np.zeros((480, 640, 3), np.uint8), boxes_of(wrong), ReadsTheTruth(wrong))


def test_the_box_model_finds_a_rendered_layout_in_tiles_and_each_card_is_named_by_its_place():
    pytest.importorskip("onnxruntime")
    from vision.detector import load_detector
    from vision.simulate import deck_layout

    image, truth = deck_layout(tiny_design(), (640, 480), 3, [])
    cards = [(card, tuple(box)) for card, box in truth]
    box_model = load_detector(MODELS / "card_boxes.onnx", boxes=True)
    layout = find_layout(box_model, ReadsTheTruth(cards, {"QH": reading(**{"KH": 0.7})}), image)
    named = {ReadsTheTruth(cards).card_at(box): card
             for card, box in zip(layout.cards, layout.boxes, strict=True)}
    assert named == {card: card for card, _box in cards}


def test_a_taught_deck_reads_a_lookalike_right_and_outlives_a_new_game(tmp_path):
    memory = DeckMemory(tmp_path / "memory.npz")
    cards = list(LABELS[:NONE])
    assert memory.teach(cards, np.array([look(c) for c in cards])) == 32
    misread = reading(**{"9C": 0.5, "8C": 0.4})
    assert LABELS[int(np.argmax(memory.reread(misread[None], look("8C", 0.3)[None])[0]))] == "8C"
    memory.witness({"type": "game_started", "data": {}})
    again = DeckMemory(tmp_path / "memory.npz")  # (read back from its file)
    assert again.taught is not None and int((again.counts > 0).sum()) == 32
    assert LABELS[int(np.argmax(again.reread(misread[None], look("8C", 0.3)[None])[0]))] == "8C"


def test_teaching_another_deck_forgets_the_one_before_and_what_its_deals_taught():
    memory = DeckMemory()
    memory.teach(["8C", "9C"], np.array([look("8C"), look("9C")]))
    memory.sums[LABELS.index("AS")] += 1.0  # (as if a deal had taught the AS)
    memory.counts[LABELS.index("AS")] += 1
    memory.teach(["7H"], np.array([look("7H")]))
    assert [LABELS[i] for i in np.flatnonzero(memory.counts)] == ["7H"]
