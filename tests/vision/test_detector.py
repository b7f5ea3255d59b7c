"""load_detector / Detector: backend choice, errors, and the shipped model on a real photo."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fake_onnx import raw_output, write_fake_model

from vision.detections import Detection
from vision.detector import DEFAULT_MODEL, ModelError, load_detector

pytest.importorskip("onnx")
PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "realdev" / "edje_train"


@pytest.fixture
def fake_model(tmp_path: Path) -> Path:
    raw = raw_output(
        [
            (16, 16, 8, 12, {"JH": 0.95, "JD": 0.4}),
            (48, 48, 8, 12, {"JH": 0.6, "QH": 0.5}),  # second JH: takes its next reading
            (48, 16, 8, 12, {"7S": 0.2}),  # below the default threshold
        ]
    )
    return write_fake_model(tmp_path / "fake.onnx", raw, size=64)


def test_detect_returns_each_card_once_in_image_pixels(fake_model: Path):
    detector = load_detector(fake_model)
    assert detector.backend_name == "onnxruntime"
    found = detector.detect(np.zeros((128, 128, 3), dtype=np.uint8))  # scale 2 from 64
    assert [d.card for d in found] == ["JH", "QH"]
    assert all(isinstance(d, Detection) for d in found)
    assert found[0].box == pytest.approx((24, 20, 40, 44))
    assert found[0].alternatives[0][0] == "JD"
    assert detector.last_ms > 0


def test_the_confidence_threshold_can_be_lowered_per_call(fake_model: Path):
    detector = load_detector(fake_model)
    image = np.zeros((64, 64, 3), dtype=np.uint8)
    assert "7S" in {d.card for d in detector.detect(image, conf=0.1)}
    assert "7S" not in {d.card for d in detector.detect(image)}


def test_boxes_are_class_agnostic_for_a_second_stage(fake_model: Path):
    detector = load_detector(fake_model)
    image = np.zeros((128, 128, 3), dtype=np.uint8)
    found = detector.boxes(image, conf=0.1)
    assert [d.card for d in found] == ["JH", "JH", "7S"]  # both JH boxes, and the weak one
    assert found[1].box == pytest.approx((88, 84, 104, 108))
    assert [d.card for d in detector.boxes(image, conf=0.5)] == ["JH", "JH"]


def test_a_portrait_image_is_turned_to_fill_a_landscape_input(tmp_path: Path):
    # Input 48 tall, 64 wide. A 128x96 portrait photo turned a quarter clockwise is 96x128 and
    # fills it at scale 0.5; the box found at input (12..20, 6..10) is (24..40, 12..20) in the
    # turned photo, where the turned photo's (x', y') is the photo's (y', 128 - x').
    raw = raw_output([(16, 8, 8, 4, {"JH": 0.9})])
    detector = load_detector(write_fake_model(tmp_path / "wide.onnx", raw, size=(48, 64)))
    assert detector.input_size == (48, 64)
    (portrait,) = detector.detect(np.zeros((128, 96, 3), dtype=np.uint8))
    assert portrait.box == pytest.approx((12, 88, 20, 104))
    # A landscape photo fits as it is: scale 2, no padding, the box where the model put it.
    (landscape,) = detector.detect(np.zeros((96, 128, 3), dtype=np.uint8))
    assert landscape.box == pytest.approx((24, 12, 40, 20))


def test_a_square_input_never_turns_the_image(fake_model: Path):
    detector = load_detector(fake_model)  # 64x64; the JH box is at input (12..20, 10..22)
    # A 128x64 portrait photo is scaled by 0.5 and padded 16 px left and right, not turned:
    # the box's x (12 - 16, 20 - 16) / 0.5 is clipped to the photo, its y is (20, 44).
    jh = detector.detect(np.zeros((128, 64, 3), dtype=np.uint8))[0]
    assert jh.box == pytest.approx((0, 20, 8, 44))


def test_missing_model_is_a_clear_error(tmp_path: Path):
    with pytest.raises(ModelError, match=r"nothing\.onnx: model not found"):
        load_detector(tmp_path / "nothing.onnx")


def test_a_backend_that_cannot_read_the_file_is_refused(fake_model: Path):
    with pytest.raises(ModelError, match="ultralytics backend cannot read"):
        load_detector(fake_model, backend="ultralytics")
    with pytest.raises(ModelError, match="unknown backend"):
        load_detector(fake_model, backend="tpu")


def test_auto_prefers_an_ncnn_export_beside_the_model_when_ncnn_is_installed(fake_model: Path):
    from vision.backends import installed
    from vision.detector import fastest_form

    folder = fake_model.with_name("fake_ncnn_model")
    folder.mkdir()
    (folder / "model.ncnn.param").write_text("")
    expected = folder if installed("ncnn") else fake_model
    assert fastest_form(fake_model) == expected


def test_default_model_path_does_not_depend_on_the_working_directory():
    assert DEFAULT_MODEL.is_absolute()
    assert DEFAULT_MODEL.parent.name == "models"


@pytest.mark.skipif(not DEFAULT_MODEL.exists(), reason="shipped models/card_detector.onnx missing")
@pytest.mark.skipif(not PHOTOS.is_dir(), reason="shared/realdev photos missing")
def test_shipped_model_loads_and_reads_real_photos_within_the_contract():
    import cv2

    detector = load_detector(DEFAULT_MODEL, backend="onnxruntime")
    assert detector.input_size == (320, 320)
    for path in sorted((PHOTOS / "images").iterdir())[:5]:
        image = cv2.imread(str(path))
        found = detector.detect(image, conf=0.05)
        h, w = image.shape[:2]
        assert len({d.card for d in found}) == len(found)
        assert all(d.confidence >= 0.05 for d in found)
        assert all(0 <= d.box[0] <= d.box[2] <= w and 0 <= d.box[1] <= d.box[3] <= h for d in found)


def test_backend_aliases_used_in_config_files(fake_model: Path):
    assert load_detector(fake_model, backend="onnx").backend_name == "onnxruntime"


def _box_model(tmp_path: Path) -> Path:
    """A one-class model: two card boxes, no names (ultralytics calls its class 'item')."""
    raw = np.zeros((1, 5, 8), dtype=np.float32)
    raw[0, :, 0] = (16, 16, 8, 12, 0.9)
    raw[0, :, 1] = (48, 48, 8, 12, 0.3)
    return write_fake_model(tmp_path / "boxes.onnx", raw, size=64, names=("item",))


def test_a_box_model_finds_cards_but_refuses_to_name_them(tmp_path: Path):
    detector = load_detector(_box_model(tmp_path))
    image = np.zeros((128, 128, 3), dtype=np.uint8)
    assert not detector.names_cards
    found = detector.boxes(image, conf=0.1)
    assert [d.box for d in found] == [pytest.approx((24, 20, 40, 44)),
                                      pytest.approx((88, 84, 104, 108))]
    assert [d.box for d in detector.boxes(image, conf=0.5)] == [pytest.approx((24, 20, 40, 44))]
    with pytest.raises(ModelError, match="does not name them"):
        detector.detect(image)


def test_the_classifier_names_a_box_models_boxes(tmp_path: Path):
    from fake_onnx import write_fake_classifier

    from vision.two_stage import TwoStage, with_classifier

    detector = load_detector(_box_model(tmp_path))
    reader = with_classifier(detector, write_fake_classifier(tmp_path / "c.onnx", {"QS": 0.9}))
    assert isinstance(reader, TwoStage)
    found = reader.detect(np.zeros((128, 128, 3), dtype=np.uint8))
    assert [d.card for d in found] == ["QS"]  # both boxes read QS: a deck holds one
    with pytest.raises(ModelError, match="classifier not found"):
        with_classifier(detector, tmp_path / "absent.onnx")


def test_two_stage_reading_loads_the_shipped_box_model_when_there_is_one(tmp_path: Path,
                                                                        monkeypatch):
    import vision.detector as det

    cards = write_fake_model(tmp_path / "cards.onnx", raw_output([]), size=64)
    monkeypatch.setattr(det, "DEFAULT_MODEL", cards)
    monkeypatch.setattr(det, "DEFAULT_BOX_MODEL", _box_model(tmp_path))
    assert load_detector(boxes=True).model.name == "boxes.onnx"
    assert load_detector().model.name == "cards.onnx"  # one stage needs the card names
    monkeypatch.setattr(det, "DEFAULT_BOX_MODEL", tmp_path / "absent.onnx")
    assert load_detector(boxes=True).model.name == "cards.onnx"


def test_a_model_of_other_classes_is_refused(tmp_path: Path):
    raw = np.zeros((1, 6, 8), dtype=np.float32)
    path = write_fake_model(tmp_path / "two.onnx", raw, size=64, names=("cat", "dog"))
    with pytest.raises(ModelError, match="neither the 32 belote cards nor one class"):
        load_detector(path)
