"""benchmarks/missed_cards.py: the cause a missed card is put under, its share bucket."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from vision.classifier import LABELS, NONE

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "missed_cards.py"
_SPEC = importlib.util.spec_from_file_location("missed_cards", _PATH)
missed_cards = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(missed_cards)

WHOLE = (100.0, 100.0, 160.0, 190.0)  # a fanned card's whole-card label
STRIP = (100.0, 100.0, 115.0, 190.0)  # its visible strip


def _row(card: str, p: float, none: float = 0.0) -> np.ndarray:
    row = np.full(len(LABELS), (1.0 - p - none) / (len(LABELS) - 1), np.float32)
    row[LABELS.index(card)] = p
    row[NONE] = none
    return row


def test_no_box_when_nothing_overlaps_either_label():
    cause = missed_cards.miss_cause([WHOLE, STRIP], [(300.0, 300.0, 360.0, 390.0)],
                                    [("JH", 0.9)], "QS", 0.5)
    assert cause == "no box"


def test_a_box_on_the_visible_strip_counts_as_a_box():
    boxes = [(101.0, 100.0, 116.0, 190.0)]  # IoU with the whole card ~0.25, with the strip ~0.9
    assert missed_cards.miss_cause([WHOLE], boxes, [("QS", 0.3)], "QS", 0.5) == "no box"
    assert missed_cards.miss_cause([WHOLE, STRIP], boxes, [("QS", 0.3)], "QS", 0.5) == \
        "named weakly"


def test_the_most_overlapping_box_decides_between_weak_and_another():
    boxes = [(100.0, 100.0, 160.0, 190.0), (120.0, 120.0, 180.0, 210.0)]
    assert missed_cards.miss_cause([WHOLE], boxes, [("KS", 0.9), ("QS", 0.3)], "QS", 0.5) == \
        "read as another"
    assert missed_cards.miss_cause([WHOLE], boxes, [("QS", 0.4), ("KS", 0.9)], "QS", 0.5) == \
        "named weakly"


@pytest.mark.parametrize(("row", "right"), [
    (_row("QS", 0.8), True),
    (_row("QS", 0.45), False),        # under min_prob
    (_row("KS", 0.8), False),         # another card first
    (_row("QS", 0.5, none=0.5), False),  # no more than "none"
])
def test_read_right(row, right):
    assert missed_cards.read_right(row, "QS", 0.5) is right


@pytest.mark.parametrize(("visible", "bucket"), [
    (0.05, "0.0-0.3"), (0.3, "0.3-0.5"), (0.69, "0.5-0.7"), (0.9, "0.9+"), (1.0, "0.9+"),
])
def test_share_bucket(visible, bucket):
    assert missed_cards.share_bucket(visible) == bucket
