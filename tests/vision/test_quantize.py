"""vision.quantize: an int8 box model that keeps its boxes, its metadata and its float decoding."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.backends import ModelError
from vision.detections import iou
from vision.detector import MODELS_DIR, load_detector
from vision.quantize import calibration_images, float_nodes

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = ROOT.parent / "shared" / "realdev" / "edje_train"


def test_the_heads_decoding_and_last_convolutions_stay_float() -> None:
    names = [
        "/model.0/conv/Conv", "/model.22/cv2/conv/Conv",  # backbone and neck: quantized
        "/model.23/cv2.0/cv2.0.0/conv/Conv", "/model.23/cv3.1/cv3.1.1/cv3.1.1.0/act/Mul",
        "/model.23/cv2.0/cv2.0.2/Conv", "/model.23/cv3.2/cv3.2.2/Conv",  # each branch's last
        "/model.23/dfl/Softmax", "/model.23/Sigmoid", "/model.23/Concat_1",  # the decoding
    ]
    assert float_nodes(names) == names[4:]
    with pytest.raises(ModelError, match="not an ultralytics export"):
        float_nodes(["Conv_0", "Relu_1"])


def test_calibration_needs_a_folder_of_images(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="calibration folder not found"):
        calibration_images(tmp_path / "none")
    (tmp_path / "labels").mkdir()
    (tmp_path / "labels" / "a.txt").write_text("0 0.5 0.5 0.1 0.1\n")
    with pytest.raises(ModelError, match=r"no \.jpg or \.png images"):
        calibration_images(tmp_path)
    for i in range(3):
        cv2.imwrite(str(tmp_path / "labels" / f"{2 - i}.jpg"), np.zeros((8, 8, 3), np.uint8))
    assert [p.name for p in calibration_images(tmp_path, count=2)] == ["0.jpg", "1.jpg"]


def _tables(folder: Path, count: int) -> None:
    """Scenes to calibrate on: pale card-like rectangles on a green felt, drawn here."""
    rng = np.random.default_rng(0)
    folder.mkdir()
    for i in range(count):
        image = np.full((480, 640, 3), (40, 110, 30), np.uint8)
        for _ in range(5):
            x, y = int(rng.integers(0, 560)), int(rng.integers(0, 360))
            cv2.rectangle(image, (x, y), (x + 60, y + 90), (235, 235, 235), -1)
            cv2.putText(image, "K", (x + 5, y + 25), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 200), 2)
        cv2.imwrite(str(folder / f"{i}.jpg"), image)


def is_quantized(onnx_path: Path) -> bool:
    """Does this ONNX file hold 8-bit (QDQ) nodes?"""
    import onnx

    model = onnx.load(str(onnx_path), load_external_data=False)
    return any(node.op_type == "QuantizeLinear" for node in model.graph.node)


@pytest.mark.skipif(not PHOTOS.is_dir(), reason="shared/realdev photos missing")
def test_the_int8_box_model_finds_the_cards_the_float_one_finds(tmp_path: Path) -> None:
    pytest.importorskip("ultralytics")
    pytest.importorskip("onnx")
    from vision.export import export

    weights = shutil.copy(MODELS_DIR / "card_boxes.pt", tmp_path / "boxes.pt")
    _tables(tmp_path / "scenes", 12)
    (int8,) = export(Path(weights), 320, int8=tmp_path / "scenes")
    assert int8.name == "boxes_int8.onnx" and is_quantized(int8)
    assert not is_quantized(tmp_path / "boxes.onnx")  # the float export is kept beside it
    labels = json.loads((PHOTOS / "labels.json").read_text())["images"]
    found = {}
    shipped = MODELS_DIR / "card_boxes.onnx"  # the 8-bit export of card_boxes.pt
    for model in (tmp_path / "boxes.onnx", int8, shipped):
        detector = load_detector(model, backend="onnxruntime")
        assert detector.input_size == (320, 320) and not detector.names_cards  # metadata kept
        hits = 0
        for name in sorted(labels)[:6]:
            boxes = [d.box for d in detector.boxes(cv2.imread(str(PHOTOS / "images" / name)), 0.1)]
            hits += sum(any(iou(c["box"], b) >= 0.5 for b in boxes) for c in labels[name])
        found[model.name] = hits
    # On every CPU: x86 without VNNI overflowed 8-bit weights and lost half of these cards.
    assert found["boxes_int8.onnx"] >= found["boxes.onnx"] - 1 > 0
    assert found["card_boxes.onnx"] >= found["boxes.onnx"] - 1
    # The Pi's NCNN conversion leaves an int8 model to ONNX Runtime, saying why.
    run = subprocess.run([sys.executable, str(ROOT / "deploy" / "convert_ncnn.py"), str(int8)],
                         capture_output=True, text=True)
    assert run.returncode == 1 and "int8 model" in run.stderr


def test_int8_needs_the_onnx_format(tmp_path: Path) -> None:
    from vision.export import export

    weights = shutil.copy(MODELS_DIR / "card_boxes.pt", tmp_path / "boxes.pt")
    with pytest.raises(ModelError, match="add onnx to the formats"):
        export(Path(weights), 320, formats=("ncnn",), int8=tmp_path)
