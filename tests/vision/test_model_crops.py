"""`vision.model_crops`: crops cut on a box model's boxes, labelled by the card they cover."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from fake_onnx import write_fake_model

from vision import model_crops
from vision.crops import LABELS, NONE

AS = {"card": "AS", "box": [8, 8, 28, 40], "visible": 1.0, "labelled": True}
BACK = {"card": "back", "box": [36, 8, 56, 40], "visible": 1.0, "labelled": False}


@pytest.mark.parametrize(("box", "cards", "expected"), [
    ((8, 8, 28, 40), [AS, BACK], LABELS.index("AS")),  # on the card
    ((9, 7, 29, 41), [AS, BACK], LABELS.index("AS")),  # a little off: still that card
    ((36, 8, 56, 40), [AS, BACK], NONE),  # a back clearly seen
    ((36, 8, 56, 40), [AS, {**BACK, "visible": 0.2}], None),  # a back barely seen
    ((8, 8, 56, 40), [AS, BACK], None),  # one box over both
    ((8, 8, 28, 22), [AS], None),  # under half the card
    ((30, 44, 40, 60), [AS, BACK], NONE),  # bare felt
    ((0, 0, 10, 10), [], NONE),  # a scene without cards
    ((8, 8, 28, 40), [{**AS, "labelled": False}], None),  # a belote card too hidden to label
])
def test_a_box_is_labelled_by_the_card_it_clearly_covers(box, cards, expected) -> None:
    assert model_crops.label_box(box, cards) == expected


def test_two_cards_under_one_box_equally_are_unclear() -> None:
    left = {"card": "7H", "box": [0, 0, 20, 30], "visible": 1.0, "labelled": True}
    right = {"card": "8H", "box": [4, 0, 24, 30], "visible": 1.0, "labelled": True}
    assert model_crops.label_box((2, 0, 22, 30), [left, right]) is None


def _dataset(root: Path, images: int) -> None:
    """A 64x64 scene per image, in the renderer's layout: an AS and a back side by side."""
    (root / "images").mkdir(parents=True)
    (root / "meta").mkdir()
    for split in ("train", "val"):
        lines = []
        for i in range(images):
            image = np.full((64, 64, 3), (40, 110, 40), np.uint8)
            cv2.rectangle(image, (8, 8), (28, 40), (250, 250, 250), -1)
            cv2.rectangle(image, (36, 8), (56, 40), (30, 30, 160), -1)
            name = f"images/{split}_{i}.png"
            cv2.imwrite(str(root / name), image)
            lines.append(json.dumps({"image": name, "cards": [AS, BACK]}))
        (root / "meta" / f"{split}.jsonl").write_text("\n".join(lines) + "\n")


def _box_model(path: Path) -> Path:
    """A one-class model drawing the same four boxes on any 64x64 picture: on the AS, on the
    back, over both, and on bare felt."""
    raw = np.zeros((1, 5, 8), dtype=np.float32)
    raw[0, :, 0] = (18, 24, 20, 32, 0.9)  # the AS
    raw[0, :, 1] = (46, 24, 20, 32, 0.8)  # the back
    raw[0, :, 2] = (32, 24, 48, 32, 0.5)  # both
    raw[0, :, 3] = (32, 54, 12, 10, 0.4)  # felt
    return write_fake_model(path, raw, size=64, names=("item",))


def test_crops_of_a_dataset_on_the_box_models_boxes(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    _dataset(tmp_path / "ds", images=2)
    out = tmp_path / "crops"
    assert model_crops.main(["--dataset", str(tmp_path / "ds"), "--out", str(out), "--model",
                             str(_box_model(tmp_path / "boxes.onnx")), "--crop", "32"]) == 0
    for split in ("train", "val"):
        data = np.load(out / f"{split}.npz")
        labels = data["y"].tolist()
        assert data["x"].shape[1:] == (32, 32, 3) and len(labels) == len(data["x"])
        # per image: the AS from its label and from its box; "none" for the back twice (label,
        # box) and for the felt box, plus the labels' random felt crop at times
        assert labels.count(LABELS.index("AS")) == 4
        assert 6 <= labels.count(NONE) <= 8
    printed = capsys.readouterr().out
    assert "'boxes': 2, 'boxes_none': 4, 'unclear': 2" in printed


def test_bad_input_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        model_crops.main(["--dataset", str(tmp_path / "absent"), "--out", str(tmp_path / "o")])
    assert "no meta/train.jsonl" in capsys.readouterr().err
    _dataset(tmp_path / "ds", images=1)
    with pytest.raises(SystemExit):
        model_crops.main(["--dataset", str(tmp_path / "ds"), "--out", str(tmp_path / "o"),
                          "--model", str(tmp_path / "none.onnx")])
    assert "box model not found" in capsys.readouterr().err
