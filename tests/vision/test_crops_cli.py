"""`python -m vision.crops` on a rendered dataset: the npz it writes and the progress it shows."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import crops


def _dataset(root: Path, images: int) -> None:
    """A dataset in the renderer's layout: each image one labelled AS and one back."""
    (root / "images").mkdir(parents=True)
    (root / "meta").mkdir()
    for split in ("train", "val"):
        lines = []
        for i in range(images):
            image = np.full((120, 160, 3), (40, 110, 40), np.uint8)
            cv2.rectangle(image, (10, 10), (50, 70), (250, 250, 250), -1)
            cv2.rectangle(image, (90, 20), (130, 80), (30, 30, 160), -1)
            name = f"images/{split}_{i}.png"
            cv2.imwrite(str(root / name), image)
            lines.append(json.dumps({"image": name, "cards": [
                {"card": "AS", "box": [10, 10, 50, 70], "visible": 1.0, "labelled": True},
                {"card": "back", "box": [90, 20, 130, 80], "visible": 1.0, "labelled": False},
            ]}))
        (root / "meta" / f"{split}.jsonl").write_text("\n".join(lines) + "\n")


def test_crops_of_a_dataset_are_written_with_their_labels_and_counted_as_they_go(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _dataset(tmp_path / "ds", images=3)
    out = tmp_path / "crops"
    assert crops.main(["--dataset", str(tmp_path / "ds"), "--out", str(out), "--per-card", "2",
                       "--crop", "32", "--seed", "1"]) == 0
    train = np.load(out / "train.npz")
    assert train["x"].shape[1:] == (32, 32, 3)
    labels = train["y"].tolist()
    # two jittered crops of the AS per image, one "none" for its back, felt boxes at random
    assert labels.count(crops.LABELS.index("AS")) == 6
    assert labels.count(crops.NONE) >= 3
    assert len(labels) == len(train["x"])
    err = capsys.readouterr().err
    assert "3/3" in err and "image" in err  # the bar knew how many images to expect
