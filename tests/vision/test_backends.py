"""The one output conversion (letterbox, decode, NMS) and backend loading errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fake_onnx import raw_output, write_fake_model

from vision.backends import ModelError, model_format, open_backend
from vision.backends.decode import Letterbox, decode, letterbox, nms
from vision.detections import CLASS_NAMES

SAME = Letterbox(scale=1.0, pad_x=0, pad_y=0, width=64, height=64)


def test_decode_converts_centre_size_to_corner_boxes_with_names():
    raw = raw_output([(20, 30, 10, 16, {"JH": 0.9, "JD": 0.2})])
    (d,) = decode(raw, SAME)
    assert d.card == "JH"
    assert d.confidence == pytest.approx(0.9)
    assert d.box == pytest.approx((15, 22, 25, 38))
    assert d.alternatives[0] == ("JD", pytest.approx(0.2))


def test_decode_drops_boxes_under_the_confidence_threshold():
    raw = raw_output([(20, 30, 10, 16, {"JH": 0.3}), (40, 40, 10, 16, {"AS": 0.5})])
    assert [d.card for d in decode(raw, SAME, conf=0.35)] == ["AS"]
    assert {d.card for d in decode(raw, SAME, conf=0.25)} == {"AS", "JH"}


def test_overlapping_boxes_of_different_cards_are_one_card_with_alternatives():
    # One physical card whose anchors hesitate between suits: class-agnostic NMS keeps one box.
    raw = raw_output([(20, 30, 10, 16, {"KH": 0.8, "KD": 0.3}), (21, 30, 10, 16, {"KD": 0.7})])
    found = decode(raw, SAME)
    assert [d.card for d in found] == ["KH"]
    assert [c for c, _ in found[0].alternatives] == ["KD"]


def test_alternatives_are_sorted_best_first_and_exclude_the_chosen_card():
    raw = raw_output([(20, 30, 10, 16, {"QS": 0.9, "QC": 0.05, "KS": 0.3, "JS": 0.1})])
    (d,) = decode(raw, SAME)
    assert [c for c, _ in d.alternatives] == ["KS", "JS", "QC"]
    scores = [p for _, p in d.alternatives]
    assert scores == sorted(scores, reverse=True)


def test_each_card_at_most_once_the_second_box_takes_its_next_reading():
    raw = raw_output([(10, 10, 8, 12, {"AS": 0.9}), (50, 50, 8, 12, {"AS": 0.8, "AC": 0.6})])
    found = decode(raw, SAME)
    assert sorted(d.card for d in found) == ["AC", "AS"]
    assert next(d for d in found if d.card == "AS").box[0] < 20  # the more confident box keeps AS


def test_a_duplicate_whose_other_readings_are_weak_is_dropped():
    raw = raw_output([(10, 10, 8, 12, {"AS": 0.9}), (50, 50, 8, 12, {"AS": 0.8, "AC": 0.1})])
    assert [d.card for d in decode(raw, SAME)] == ["AS"]


def test_class_agnostic_decode_keeps_every_box_even_two_of_one_card():
    raw = raw_output(
        [
            (10, 10, 8, 12, {"AS": 0.9}),
            (50, 50, 8, 12, {"AS": 0.03, "AC": 0.01}),  # weak: a card of an unseen deck
            (90, 90, 8, 12, {"KH": 0.01}),  # under the threshold
        ]
    )
    found = decode(raw, SAME, conf=0.02, unique=False)
    assert [(d.card, round(d.box[0])) for d in found] == [("AS", 6), ("AS", 46)]
    assert [d.card for d in decode(raw, SAME, conf=0.02)] == ["AS"]  # unique: one AS


def test_decode_maps_boxes_back_through_the_letterbox():
    image = np.zeros((100, 200, 3), dtype=np.uint8)  # wide: padded top and bottom
    tensor, box = letterbox(image, 64)
    assert tensor.shape == (1, 3, 64, 64) and tensor.dtype == np.float32
    assert box.scale == pytest.approx(64 / 200)
    assert box.pad_x == 0 and box.pad_y == 16
    raw = raw_output([(32, 32, 32, 16, {"7C": 0.9})])  # centre of the input, 100x50 in the image
    (d,) = decode(raw, box)
    assert d.box == pytest.approx((50, 25, 150, 75), abs=0.5)


def test_boxes_are_clipped_to_the_image():
    raw = raw_output([(2, 2, 20, 20, {"8D": 0.9})])
    (d,) = decode(raw, SAME)
    assert d.box[0] == 0 and d.box[1] == 0


def test_letterbox_pads_with_grey_and_converts_bgr_to_rgb():
    image = np.zeros((32, 64, 3), dtype=np.uint8)
    image[:, :, 2] = 255  # pure red in BGR
    tensor, _ = letterbox(image, 64)
    assert tensor[0, 0, 32, 32] == pytest.approx(1.0)  # R channel first
    assert tensor[0, 2, 32, 32] == pytest.approx(0.0)
    assert tensor[0, 0, 0, 0] == pytest.approx(114 / 255)


def test_letterbox_rejects_a_grey_image():
    with pytest.raises(ValueError, match=r"shape \(H, W, 3\)"):
        letterbox(np.zeros((10, 10), dtype=np.uint8), 64)


def test_decode_rejects_a_wrong_output_shape():
    with pytest.raises(ValueError, match="4 \\+ 32"):
        decode(np.zeros((1, 84, 10), dtype=np.float32), SAME)


def test_nms_keeps_separate_boxes_and_removes_overlaps():
    boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [50, 50, 60, 60]], dtype=np.float32)
    scores = np.array([0.5, 0.9, 0.7], dtype=np.float32)
    assert nms(boxes, scores, 0.5) == [1, 2]


def test_model_format_by_file_kind(tmp_path: Path):
    (tmp_path / "m_ncnn_model").mkdir()
    (tmp_path / "m_ncnn_model" / "model.ncnn.param").write_text("")
    assert model_format(tmp_path / "m.onnx") == "onnxruntime"
    assert model_format(tmp_path / "m.pt") == "ultralytics"
    assert model_format(tmp_path / "m_ncnn_model") == "ncnn"
    with pytest.raises(ModelError, match="unknown model format"):
        model_format(tmp_path / "m.tflite")


def test_open_backend_errors_name_the_file(tmp_path: Path):
    with pytest.raises(ModelError, match="model not found"):
        open_backend(tmp_path / "missing.onnx", "onnxruntime")
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    with pytest.raises(ModelError, match=r"junk\.onnx: not a readable ONNX model"):
        open_backend(junk, "onnxruntime")
    with pytest.raises(ModelError, match="unknown backend"):
        open_backend(junk, "tensorrt")


def test_onnx_backend_reads_size_and_names_from_the_model(tmp_path: Path):
    pytest.importorskip("onnx")
    raw = raw_output([(20, 30, 10, 16, {"TD": 0.9})])
    backend = open_backend(write_fake_model(tmp_path / "m.onnx", raw, size=96), "onnxruntime")
    assert backend.input_size == (96, 96)
    assert backend.names == CLASS_NAMES
    out = backend.run(np.zeros((1, 3, 96, 96), dtype=np.float32))
    assert np.allclose(out, raw)


def test_onnx_backend_refuses_a_model_of_other_classes(tmp_path: Path):
    pytest.importorskip("onnx")
    raw = np.zeros((1, 84, 8), dtype=np.float32)
    path = write_fake_model(tmp_path / "coco.onnx", raw, names=tuple(f"c{i}" for i in range(80)))
    with pytest.raises(ModelError, match="32 belote cards"):
        open_backend(path, "onnxruntime")


def test_onnx_sessions_do_not_spin_between_runs(tmp_path: Path):
    # Two sessions run in turn on every frame (boxes, then the classifier): spinning worker
    # threads of one would eat the cores the other needs (`session_options`).
    pytest.importorskip("onnx")
    from vision.backends.onnx_backend import OnnxBackend

    raw = raw_output([(20, 30, 10, 16, {"TD": 0.9})])
    backend = OnnxBackend(write_fake_model(tmp_path / "m.onnx", raw, size=96), threads=2)
    options = backend.session.get_session_options()
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    assert options.intra_op_num_threads == 2 and options.inter_op_num_threads == 1
