"""`belote export` / vision.export: input sizes, and the exported box model on real photos."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import cv2
import pytest

from device.commands.export import input_size
from vision.detections import iou
from vision.detector import MODELS_DIR, load_detector

PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "realdev" / "edje_train"


def test_input_sizes_are_written_width_by_height():
    assert input_size("352x288") == (288, 352)  # ultralytics wants (h, w)
    assert input_size("320") == 320
    for bad in ("350x288", "352x", "big", "16"):
        with pytest.raises(argparse.ArgumentTypeError, match="multiple of 32"):
            input_size(bad)


def _boxes_found(model: Path, photos: int) -> tuple[int, int]:
    """Labelled cards of the first portrait photos that a box (IoU >= 0.5) covers, of all."""
    labels = json.loads((PHOTOS / "labels.json").read_text())["images"]
    detector = load_detector(model, backend="onnxruntime")
    found = total = 0
    for name in sorted(labels)[:photos]:
        image = cv2.imread(str(PHOTOS / "images" / name))
        assert image.shape[0] > image.shape[1]  # portrait: turned into the landscape input
        boxes = [d.box for d in detector.boxes(image, conf=0.1)]
        for card in labels[name]:
            total += 1
            found += any(iou(card["box"], b) >= 0.5 for b in boxes)
    return found, total


@pytest.mark.skipif(not PHOTOS.is_dir(), reason="shared/realdev photos missing")
def test_a_checkpoint_exports_to_a_rectangular_onnx_input(tmp_path: Path):
    pytest.importorskip("ultralytics")
    from vision.export import export

    weights = shutil.copy(MODELS_DIR / "card_boxes.pt", tmp_path / "boxes.pt")
    (onnx,) = export(Path(weights), (288, 352))
    assert load_detector(onnx).input_size == (288, 352)
    found, total = _boxes_found(onnx, photos=4)
    assert found >= total - 1
