"""How a still picture is read: the second look's new boxes, and twins lending a surer reading."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.classifier import LABELS
from vision.detections import Detection
from vision.still_rules import TWIN_PROB, split_second_look
from vision.two_stage import TwoStage

OWN = Detection("?", 0.7, (0.0, 10.0, 40.0, 70.0))  # the first look's box on a card
TWIN = Detection("?", 0.6, (1.0, 10.0, 40.0, 71.0))  # the second look's box on the same card


class _Boxes:
    def __init__(self, found: list[Detection]) -> None:
        self.found, self.model = found, Path("m.onnx")

    def boxes(self, bgr: np.ndarray, conf: float) -> list[Detection]:
        return self.found


class _Rows:
    """A stand-in classifier: one probability row per box asked, in the order asked."""

    def __init__(self, rows: list[dict[str, float]]) -> None:
        self.rows = rows

    def probabilities(self, bgr: np.ndarray, boxes: object) -> np.ndarray:
        assert len(list(boxes)) == len(self.rows)  # type: ignore[call-overload]
        out = np.full((len(self.rows), len(LABELS)), 1e-4, np.float32)
        for i, row in enumerate(self.rows):
            for name, p in row.items():
                out[i, LABELS.index(name)] = p
        return out / out.sum(axis=1, keepdims=True)


def _cards(own: dict[str, float], twin: dict[str, float]) -> list[tuple[str, tuple]]:
    reader = TwoStage(_Boxes([OWN]), _Rows([own, twin]), box_conf=0.1,  # type: ignore[arg-type]
                      still=True, still_boxes=_Boxes([TWIN]))  # type: ignore[arg-type]
    return [(d.card, d.box) for d in reader.detect(np.zeros((100, 300, 3), np.uint8))]


def test_a_twin_that_names_the_card_surely_gives_the_box_its_reading() -> None:
    # a photo's KH: read QH 0.48 / KH 0.33 in the first crop (neither named nor clear)
    assert _cards({"QH": 0.48, "KH": 0.33, "JH": 0.19}, {"KH": 0.61, "QH": 0.29, "JH": 0.1}) == [
        ("KH", OWN.box)]  # reported once, on the first look's box


@pytest.mark.parametrize(("own", "twin"), [
    # the twin is not sure enough: its card under TWIN_PROB (and the box's own reading unclear)
    ({"QH": 0.48, "KH": 0.33, "JH": 0.19}, {"KH": TWIN_PROB - 0.01, "QH": 0.3, "JH": 0.19}),
    # the box's own crop shows a sign of a non-card (a 5S read 7S with "none" 0.18): it stays out
    ({"7S": 0.54, "8S": 0.28, "none": 0.18}, {"7S": 0.63, "8S": 0.25, "none": 0.12}),
])
def test_a_twin_lends_no_reading_when_unsure_or_over_a_non_card(
        own: dict[str, float], twin: dict[str, float]) -> None:
    assert _cards(own, twin) == []


def test_a_box_read_more_surely_than_its_twin_keeps_its_own_reading() -> None:
    assert _cards({"KH": 0.8, "QH": 0.2}, {"QH": 0.7, "KH": 0.3}) == [("KH", OWN.box)]


def test_split_second_look_pairs_each_overlapping_box_with_every_first_box_it_covers() -> None:
    left, right = Detection("?", 0.9, (0.0, 0.0, 40.0, 60.0)), Detection(
        "?", 0.9, (0.0, 0.0, 41.0, 60.0))  # two first boxes on one card
    again = Detection("?", 0.6, (0.0, 0.0, 40.0, 61.0))
    elsewhere = Detection("?", 0.6, (100.0, 0.0, 140.0, 60.0))
    new, twins = split_second_look([left, right], [again, elsewhere])
    assert new == [elsewhere] and twins == [[again], [again]]
    assert split_second_look([left], []) == ([], [[]])
