"""The learnt felt: card-sized patches that differ from it are boxes to read."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.background import WARMUP, TableBackground
from vision.classifier import LABELS
from vision.detections import Detection

cv2 = pytest.importorskip("cv2")

CARD = (200, 100, 240, 160)  # x0, y0, x1, y1: a card 40 x 60 px lying on the felt
OTHER = (40, 40, 80, 100)  # a card the box model does find


def _felt(seed: int = 0) -> np.ndarray:
    """A pale marble-like felt: the kind where a white card hardly shows."""
    rng = np.random.default_rng(seed)
    base = rng.integers(170, 215, (240, 320, 3), dtype=np.uint8)
    return cv2.GaussianBlur(base, (5, 5), 0)


def _with_card(felt: np.ndarray, box=CARD, shade: int = 250) -> np.ndarray:
    img = felt.copy()
    x0, y0, x1, y1 = box
    img[y0:y1, x0:x1] = shade
    img[y0 + 25:y0 + 35, x0 + 15:x0 + 25] = (20, 20, 20)  # a pip
    return img


def _warm(bg: TableBackground, felt: np.ndarray) -> None:
    for _ in range(WARMUP + 1):
        bg.boxes(_with_card(felt, OTHER), [])
        bg.learn([OTHER])  # the box model's card teaches the card size


def test_a_card_on_the_learnt_felt_is_a_box_unless_a_box_already_holds_it() -> None:
    bg = TableBackground()
    felt = _felt()
    assert bg.boxes(felt, []) == []  # the first frame: nothing learnt yet
    _warm(bg, felt)
    assert bg.card_size == pytest.approx(60, abs=2)
    frame = _with_card(_with_card(felt, OTHER), CARD)
    (box,) = bg.boxes(frame, [OTHER])
    x0, y0, x1, y1 = box
    assert abs(x0 - CARD[0]) <= 4 and abs(y0 - CARD[1]) <= 4
    assert abs(x1 - CARD[2]) <= 4 and abs(y1 - CARD[3]) <= 4
    assert bg.boxes(frame, [OTHER, CARD]) == []  # read already: not twice
    bg.reset()  # another table: learnt afresh
    assert bg.card_size is None and bg.boxes(frame, []) == []


def test_a_card_read_is_never_learnt_as_felt_while_clutter_fades() -> None:
    bg = TableBackground()
    felt = _felt()
    _warm(bg, felt)
    frame = _with_card(_with_card(felt, OTHER), CARD)
    for _ in range(100):  # 10 s at 10 frames/s, the card read each time
        assert len(bg.boxes(frame, [OTHER])) == 1
        bg.learn([OTHER, CARD])
    for _ in range(100):  # the same patch, never read as a card (a glass): it fades
        found = bg.boxes(frame, [OTHER])
        bg.learn([OTHER])
    assert found == []


def test_patches_that_are_not_card_sized_are_not_boxes() -> None:
    bg = TableBackground()
    felt = _felt()
    _warm(bg, felt)
    table = _with_card(felt, OTHER)
    arm = _with_card(table, (0, 180, 320, 220), shade=150)  # an arm across the table
    crumb = _with_card(table, (150, 20, 160, 30), shade=40)
    assert bg.boxes(arm, [OTHER]) == [] and bg.boxes(crumb, [OTHER]) == []


def test_two_stage_reads_a_card_only_the_felt_shows() -> None:
    from vision.two_stage import TwoStage

    class NoBoxes:
        def detect(self, bgr: np.ndarray, conf: float | None = None) -> list[Detection]:
            return [Detection("?", 0.5, OTHER)]

    class Reads:
        """Every box reads 7H, except the known card's, which reads AS."""

        path, turns = Path("stub.onnx"), 1

        def probabilities(self, bgr: np.ndarray, boxes) -> np.ndarray:
            out = np.full((len(boxes), len(LABELS)), 1e-4, np.float32)
            for i, box in enumerate(boxes):
                out[i, LABELS.index("AS" if tuple(box) == OTHER else "7H")] = 0.9
            return out / out.sum(axis=1, keepdims=True)

    felt = _felt()
    reader = TwoStage(NoBoxes(), Reads(), box_conf=0.1, background=TableBackground())  # type: ignore[arg-type]
    for _ in range(WARMUP + 2):
        assert [d.card for d in reader.detect(_with_card(felt, OTHER))] == ["AS"]
    found = reader.detect(_with_card(_with_card(felt, OTHER), CARD))
    assert sorted(d.card for d in found) == ["7H", "AS"]
    assert "felt learnt" in repr(reader)
